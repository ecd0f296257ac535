/* b+tree, OpenMP: the queries shared among the threads; each query walks
 * the levels testing every slot of the current node in turn, as the CUDA
 * version's threads do, then looks in its leaf. */
#include <omp.h>
#include "bptree_common.h"

static void find_k(const bpt_input *in, int *answers) {
    const bpt_node *knodes = in->nodes;
#pragma omp parallel for schedule(static)
    for (int bid = 0; bid < in->n_find; bid++) {
        long curr = 0, offset = 0;
        int key = in->find_keys[bid];
        for (int i = 0; i < in->height; i++) {
            for (int t = 0; t < BPT_ORDER; t++)
                if (knodes[curr].keys[t] <= key && knodes[curr].keys[t + 1] > key &&
                    knodes[offset].indices[t] < in->n_nodes)
                    offset = knodes[offset].indices[t];
            curr = offset;
        }
        answers[bid] = -1;
        for (int t = 0; t < BPT_ORDER; t++)
            if (knodes[curr].keys[t] == key)
                answers[bid] = in->records[knodes[curr].indices[t]].value;
    }
}

static void find_range_k(const bpt_input *in, int *rec_start, int *rec_len) {
    const bpt_node *knodes = in->nodes;
#pragma omp parallel for schedule(static)
    for (int bid = 0; bid < in->n_range; bid++) {
        long curr = 0, offset = 0, last = 0, offset_2 = 0;
        int start = in->range_start[bid], end = in->range_end[bid];
        for (int i = 0; i < in->height; i++) {
            for (int t = 0; t < BPT_ORDER; t++) {
                if (knodes[curr].keys[t] <= start && knodes[curr].keys[t + 1] > start &&
                    knodes[curr].indices[t] < in->n_nodes)
                    offset = knodes[curr].indices[t];
                if (knodes[last].keys[t] <= end && knodes[last].keys[t + 1] > end &&
                    knodes[last].indices[t] < in->n_nodes)
                    offset_2 = knodes[last].indices[t];
            }
            curr = offset;
            last = offset_2;
        }
        rec_start[bid] = -1;
        rec_len[bid] = -1;
        for (int t = 0; t < BPT_ORDER; t++)
            if (knodes[curr].keys[t] == start) rec_start[bid] = knodes[curr].indices[t];
        for (int t = 0; t < BPT_ORDER; t++)
            if (knodes[last].keys[t] == end)
                rec_len[bid] = knodes[last].indices[t] - rec_start[bid] + 1;
    }
}

int main(int argc, char **argv) {
    bpt_input in = bpt_generate(argc, argv);
    int *answers = (int *)malloc((size_t)in.n_find * sizeof(int));
    int *rec_start = (int *)malloc((size_t)in.n_range * sizeof(int));
    int *rec_len = (int *)malloc((size_t)in.n_range * sizeof(int));

    double t0 = rd_now();
    find_k(&in, answers);
    find_range_k(&in, rec_start, rec_len);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    bpt_write(argv[5], &in, answers, rec_start, rec_len);
    RD_FREE(answers, rec_start, rec_len);
    return 0;
}
