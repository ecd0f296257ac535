/* b+tree: the tree is built on the host and copied to the device as an
 * array of nodes.  findK runs one block per query and one thread per node
 * slot: at each level the thread whose slot brackets the key moves the
 * query's offset to its child, and thread 0 makes it current after a
 * barrier; in the leaf the slot holding the key fetches the record.
 * findRangeK follows the paths of a range's start and end together, then
 * finds their record numbers and the range's length. */
#include <cuda_runtime.h>
#include "bptree_common.h"

__global__ void findK(long height, const bpt_node *knodes, long knodes_elem,
                      const bpt_record *records, long *curr_knode, long *offset, const int *keys,
                      bpt_record *ans) {
    int thid = threadIdx.x, bid = blockIdx.x;
    for (long i = 0; i < height; i++) {
        if (knodes[curr_knode[bid]].keys[thid] <= keys[bid] &&
            knodes[curr_knode[bid]].keys[thid + 1] > keys[bid]) {
            if (knodes[offset[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[offset[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) curr_knode[bid] = offset[bid];
        __syncthreads();
    }
    if (knodes[curr_knode[bid]].keys[thid] == keys[bid])
        ans[bid].value = records[knodes[curr_knode[bid]].indices[thid]].value;
}

__global__ void findRangeK(long height, const bpt_node *knodes, long knodes_elem,
                           long *curr_knode, long *offset, long *last_knode, long *offset_2,
                           const int *start, const int *end, int *rec_start, int *rec_len) {
    int thid = threadIdx.x, bid = blockIdx.x;
    for (long i = 0; i < height; i++) {
        if (knodes[curr_knode[bid]].keys[thid] <= start[bid] &&
            knodes[curr_knode[bid]].keys[thid + 1] > start[bid]) {
            if (knodes[curr_knode[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[curr_knode[bid]].indices[thid];
        }
        if (knodes[last_knode[bid]].keys[thid] <= end[bid] &&
            knodes[last_knode[bid]].keys[thid + 1] > end[bid]) {
            if (knodes[last_knode[bid]].indices[thid] < knodes_elem)
                offset_2[bid] = knodes[last_knode[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) {
            curr_knode[bid] = offset[bid];
            last_knode[bid] = offset_2[bid];
        }
        __syncthreads();
    }
    if (knodes[curr_knode[bid]].keys[thid] == start[bid])
        rec_start[bid] = knodes[curr_knode[bid]].indices[thid];
    __syncthreads();
    if (knodes[last_knode[bid]].keys[thid] == end[bid])
        rec_len[bid] = knodes[last_knode[bid]].indices[thid] - rec_start[bid] + 1;
}

int main(int argc, char **argv) {
    bpt_input in = bpt_generate(argc, argv);
    int nf = in.n_find, nr = in.n_range;
    bpt_record *ans = (bpt_record *)malloc((size_t)nf * sizeof(bpt_record));
    int *answers = (int *)malloc((size_t)nf * sizeof(int));
    int *rec_start = (int *)malloc((size_t)nr * sizeof(int));
    int *rec_len = (int *)malloc((size_t)nr * sizeof(int));
    long *zeros = (long *)calloc((size_t)(nf > nr ? nf : nr), sizeof(long));
    for (int i = 0; i < nf; i++) ans[i].value = -1;
    for (int i = 0; i < nr; i++) rec_start[i] = rec_len[i] = -1;

    bpt_node *d_nodes;
    bpt_record *d_records, *d_ans;
    long *d_curr, *d_offset, *d_last, *d_offset2;
    int *d_keys, *d_start, *d_end, *d_rec_start, *d_rec_len;
    size_t node_bytes = (size_t)in.n_nodes * sizeof(bpt_node);
    RD_CUDA_CHECK(cudaMalloc(&d_nodes, node_bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_records, (size_t)in.n_records * sizeof(bpt_record)));
    RD_CUDA_CHECK(cudaMalloc(&d_ans, (size_t)nf * sizeof(bpt_record)));
    RD_CUDA_CHECK(cudaMalloc(&d_keys, (size_t)nf * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_curr, (size_t)nf * sizeof(long)));
    RD_CUDA_CHECK(cudaMalloc(&d_offset, (size_t)nf * sizeof(long)));
    RD_CUDA_CHECK(cudaMalloc(&d_start, (size_t)nr * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_end, (size_t)nr * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_rec_start, (size_t)nr * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_rec_len, (size_t)nr * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_last, (size_t)nr * sizeof(long)));
    RD_CUDA_CHECK(cudaMalloc(&d_offset2, (size_t)nr * sizeof(long)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_nodes, in.nodes, node_bytes, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_records, in.records, (size_t)in.n_records * sizeof(bpt_record),
                             cudaMemcpyHostToDevice));
    /* findK */
    RD_CUDA_CHECK(cudaMemcpy(d_keys, in.find_keys, (size_t)nf * sizeof(int),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_curr, zeros, (size_t)nf * sizeof(long), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_offset, zeros, (size_t)nf * sizeof(long), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_ans, ans, (size_t)nf * sizeof(bpt_record), cudaMemcpyHostToDevice));
    findK<<<nf, BPT_ORDER>>>(in.height, d_nodes, in.n_nodes, d_records, d_curr, d_offset, d_keys,
                             d_ans);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(ans, d_ans, (size_t)nf * sizeof(bpt_record), cudaMemcpyDeviceToHost));
    /* findRangeK */
    RD_CUDA_CHECK(cudaMemcpy(d_start, in.range_start, (size_t)nr * sizeof(int),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_end, in.range_end, (size_t)nr * sizeof(int),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_curr, zeros, (size_t)nr * sizeof(long), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_offset, zeros, (size_t)nr * sizeof(long), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_last, zeros, (size_t)nr * sizeof(long), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_offset2, zeros, (size_t)nr * sizeof(long), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_rec_start, rec_start, (size_t)nr * sizeof(int),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_rec_len, rec_len, (size_t)nr * sizeof(int), cudaMemcpyHostToDevice));
    findRangeK<<<nr, BPT_ORDER>>>(in.height, d_nodes, in.n_nodes, d_curr, d_offset, d_last,
                                  d_offset2, d_start, d_end, d_rec_start, d_rec_len);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(rec_start, d_rec_start, (size_t)nr * sizeof(int),
                             cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(rec_len, d_rec_len, (size_t)nr * sizeof(int), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    for (int i = 0; i < nf; i++) answers[i] = ans[i].value;
    bpt_write(argv[5], &in, answers, rec_start, rec_len);
    RD_CUDA_FREE(d_nodes, d_records, d_ans, d_keys, d_curr, d_offset, d_start, d_end, d_rec_start,
                 d_rec_len, d_last, d_offset2);
    return 0;
}
