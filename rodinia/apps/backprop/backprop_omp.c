/* backprop, OpenMP: the forward pass over the input layer shared among
 * threads by blocks of 16 input units (partial sums per block, added in
 * block order as the CUDA version's host does), and the weight adjustment
 * shared by input rows. */
#include <omp.h>
#include "backprop_common.h"

#define TILE 16

int main(int argc, char **argv) {
    int in = bp_parse(argc, argv, TILE);
    bp_net net;
    bp_generate(&net, in);
    int hid = BP_HIDDEN;
    int blocks = in / TILE;
    float *partial = (float *)malloc((size_t)blocks * hid * sizeof(float));

    double t0 = rd_now();
#pragma omp parallel for schedule(static)
    for (int b = 0; b < blocks; b++) {
        for (int j = 1; j <= hid; j++) {
            float prod[TILE];
            for (int t = 0; t < TILE; t++) {
                int k = TILE * b + t + 1;
                prod[t] = net.w_ih[(size_t)(hid + 1) * k + j] * net.input[k];
            }
            /* The same pairwise order as the CUDA tree reduction. */
            for (int s = 1; s < TILE; s *= 2)
                for (int t = 0; t < TILE; t += 2 * s) prod[t] += prod[t + s];
            partial[b * hid + j - 1] = prod[0];
        }
    }
    float sums[BP_HIDDEN + 1];
    for (int j = 1; j <= hid; j++) {
        float s = net.w_ih[j];
        for (int b = 0; b < blocks; b++) s += partial[b * hid + j - 1];
        sums[j] = s;
    }
    bp_finish_forward_and_errors(&net, sums);
#pragma omp parallel for schedule(static)
    for (int k = 0; k <= in; k++) {
        for (int j = 1; j <= hid; j++) {
            size_t w = (size_t)(hid + 1) * k + j;
            float change = BP_ETA * net.hidden_delta[j] * net.input[k] + BP_MOMENTUM * net.dw_ih[w];
            net.w_ih[w] += change;
            net.dw_ih[w] = change;
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    bp_write(argv[2], &net);
    free(partial);
    return 0;
}
