/* particlefilter, OpenMP: the same frames as Rodinia's OpenMP version does
 * them (parallel loops over the particles for the motion, the likelihoods
 * and weights, the normalisation and the resampling; the CDF on one
 * thread).  The weights are summed in 512-particle blocks as trees, then
 * block by block, in the CUDA version's order, so both versions resample
 * identically. */
#include <omp.h>
#include "particlefilter_common.h"

static double block_sums(const double *weights, int np, double *partial, int blocks) {
#pragma omp parallel for schedule(static)
    for (int b = 0; b < blocks; b++) {
        double buffer[PF_THREADS];
        for (int t = 0; t < PF_THREADS; t++) {
            int i = b * PF_THREADS + t;
            buffer[t] = i < np ? weights[i] : 0.0;
        }
        for (int s = PF_THREADS / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) buffer[t] += buffer[t + s];
        partial[b] = buffer[0];
    }
    double sum = 0.0;
    for (int b = 0; b < blocks; b++) sum += partial[b];
    return sum;
}

int main(int argc, char **argv) {
    pf_args a = pf_parse(argc, argv);
    int np = a.np;
    unsigned char *video = pf_video(&a);
    int count_ones = pf_disk(NULL);
    int *objxy = (int *)malloc(2 * count_ones * sizeof(int));
    pf_disk(objxy);
    int *seed = pf_seeds(np);
    int max_size = a.iszx * a.iszy * a.nfr;
    size_t dbytes = (size_t)np * sizeof(double);
    double *xj = (double *)malloc(dbytes), *yj = (double *)malloc(dbytes);
    double *arrayX = (double *)malloc(dbytes), *arrayY = (double *)malloc(dbytes);
    double *weights = (double *)malloc(dbytes), *likelihood = (double *)malloc(dbytes);
    double *CDF = (double *)malloc(dbytes), *u = (double *)malloc(dbytes);
    int *ind = (int *)malloc((size_t)count_ones * np * sizeof(int));
    int blocks = (np + PF_THREADS - 1) / PF_THREADS;
    double *partial = (double *)malloc((size_t)blocks * sizeof(double));
    int cx, cy;
    pf_centre(&a, 0, &cx, &cy);
    for (int i = 0; i < np; i++) {
        xj[i] = cx;
        yj[i] = cy;
    }

    double t0 = rd_now();
    for (int k = 1; k < a.nfr; k++) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < np; i++) {
            arrayX[i] = xj[i];
            arrayY[i] = yj[i];
            weights[i] = 1.0 / (double)np;
            arrayX[i] = arrayX[i] + 1.0 + 5.0 * pf_randn(seed, i);
            arrayY[i] = arrayY[i] - 2.0 + 2.0 * pf_randn(seed, i);
        }
#pragma omp parallel for schedule(static)
        for (int i = 0; i < np; i++) {
            for (int y = 0; y < count_ones; y++) {
                int ind_x = pf_round(arrayX[i]) + objxy[y * 2 + 1];
                int ind_y = pf_round(arrayY[i]) + objxy[y * 2];
                int at = abs(ind_x * a.iszy * a.nfr + ind_y * a.nfr + k);
                ind[i * count_ones + y] = at >= max_size ? 0 : at;
            }
            double sum = 0.0;
            for (int y = 0; y < count_ones; y++) {
                double v = (double)video[ind[i * count_ones + y]];
                sum += ((v - 100.0) * (v - 100.0) - (v - 228.0) * (v - 228.0)) / 50.0;
            }
            likelihood[i] = sum / count_ones;
            weights[i] = weights[i] * exp(likelihood[i]);
        }
        double sum_weights = block_sums(weights, np, partial, blocks);
        double u1 = (1.0 / (double)np) * pf_randu(seed, 0);
        double c = weights[0] / sum_weights;
        CDF[0] = c;
        for (int x = 1; x < np; x++) {
            c = weights[x] / sum_weights + c;
            CDF[x] = c;
        }
#pragma omp parallel for schedule(static)
        for (int i = 0; i < np; i++) {
            weights[i] = weights[i] / sum_weights;
            u[i] = i == 0 ? u1 : u1 + i / (double)np;
        }
#pragma omp parallel for schedule(static)
        for (int i = 0; i < np; i++) {
            int index = -1;
            for (int x = 0; x < np; x++)
                if (CDF[x] >= u[i]) {
                    index = x;
                    break;
                }
            if (index == -1) index = np - 1;
            xj[i] = arrayX[index];
            yj[i] = arrayY[index];
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    pf_write(argv[5], &a, arrayX, arrayY, weights);
    RD_FREE(video, objxy, seed, xj, yj, arrayX, arrayY, weights, likelihood, CDF, u, ind, partial);
    return 0;
}
