/* mummergpu: exact matches of many short queries against a reference.
 * The host builds the reference's suffix tree and flattens it into arrays
 * read through textures (children as int4, node start and depth, the
 * reference's bases); the match kernel gives each query one thread, which
 * walks the tree from the root for every query position and records the
 * longest match and its leftmost reference position.  The host copies the
 * match records back and prints the maximal matches, as Rodinia does. */
#include <cuda_runtime.h>
#include <string.h>
#include "mummergpu_tree.h"

#define THREADS 256

__global__ void mummer_match(cudaTextureObject_t children, cudaTextureObject_t pos,
                             cudaTextureObject_t depth, cudaTextureObject_t ref,
                             const unsigned char *queries, int count, int qlen, int *length,
                             int *where) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= count) return;
    const unsigned char *s = queries + (size_t)q * qlen;
    for (int start = 0; start < qlen; start++) {
        int node = 0, m = 0, locus = 0;
        while (start + m < qlen) {
            int4 kids = tex1Dfetch<int4>(children, node);
            int c = s[start + m];
            int child = c == 0 ? kids.x : (c == 1 ? kids.y : (c == 2 ? kids.z : kids.w));
            if (child < 0) break;
            locus = child;
            int from = tex1Dfetch<int>(pos, child);
            int edge_end = tex1Dfetch<int>(depth, child);
            int k = tex1Dfetch<int>(depth, node) + 1;
            m++;
            while (k < edge_end && start + m < qlen &&
                   tex1Dfetch<unsigned char>(ref, from + k) == s[start + m]) {
                k++;
                m++;
            }
            if (k < edge_end) break;
            node = child;
        }
        length[(size_t)q * qlen + start] = m;
        where[(size_t)q * qlen + start] = m > 0 ? tex1Dfetch<int>(pos, locus) : -1;
    }
}

static cudaTextureObject_t make_texture(void *ptr, size_t bytes, cudaChannelFormatDesc desc) {
    return rd_linear_texture(ptr, bytes, desc);
}

int main(int argc, char **argv) {
    int len, count, qlen, min_match, *length, *where;
    unsigned char *ref, *queries;
    mg_tree t = mg_setup(argc, argv, &len, &count, &qlen, &min_match, &ref, &queries, &length,
                         &where);
    size_t qbytes = (size_t)count * qlen;

    int *d_child, *d_pos, *d_depth, *d_length, *d_where;
    unsigned char *d_ref, *d_queries;
    size_t nodes = (size_t)t.nodes;
    RD_CUDA_CHECK(cudaMalloc(&d_child, nodes * 4 * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_pos, nodes * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_depth, nodes * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_ref, (size_t)len + 1));
    RD_CUDA_CHECK(cudaMalloc(&d_queries, qbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_length, qbytes * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_where, qbytes * sizeof(int)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_child, t.child, nodes * 4 * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_pos, t.pos, nodes * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_depth, t.depth, nodes * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_ref, ref, (size_t)len + 1, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_queries, queries, qbytes, cudaMemcpyHostToDevice));
    cudaTextureObject_t t_child =
        make_texture(d_child, nodes * 4 * sizeof(int), cudaCreateChannelDesc<int4>());
    cudaTextureObject_t t_pos =
        make_texture(d_pos, nodes * sizeof(int), cudaCreateChannelDesc<int>());
    cudaTextureObject_t t_depth =
        make_texture(d_depth, nodes * sizeof(int), cudaCreateChannelDesc<int>());
    cudaTextureObject_t t_ref =
        make_texture(d_ref, (size_t)len + 1, cudaCreateChannelDesc<unsigned char>());
    mummer_match<<<(count + THREADS - 1) / THREADS, THREADS>>>(
        t_child, t_pos, t_depth, t_ref, d_queries, count, qlen, d_length, d_where);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(length, d_length, qbytes * sizeof(int), cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(where, d_where, qbytes * sizeof(int), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    mg_write(argv[5], count, qlen, min_match, length, where);
    cudaDestroyTextureObject(t_child);
    cudaDestroyTextureObject(t_pos);
    cudaDestroyTextureObject(t_depth);
    cudaDestroyTextureObject(t_ref);
    RD_CUDA_FREE(d_child, d_pos, d_depth, d_ref, d_queries, d_length, d_where);
    mg_free(&t);
    RD_FREE(ref, queries, length, where);
    return 0;
}
