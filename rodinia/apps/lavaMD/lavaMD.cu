/* lavaMD: one block of 128 threads per box.  The home box's positions are
 * staged in shared memory once; then, for the home box and each neighbour
 * box in turn, the block stages that box's positions and charges in shared
 * memory, and each thread accumulates the interactions of its particle(s)
 * of the home box with all of them. */
#include <cuda_runtime.h>
#include "lavaMD_common.h"

#define THREADS 128

__global__ void lava_kernel(float alpha, long n_boxes, const lava_box *box, const lava_vec4 *rv,
                            const float *qv, lava_vec4 *fv) {
    __shared__ lava_vec4 ra_s[LAVA_PAR_PER_BOX];
    __shared__ lava_vec4 rb_s[LAVA_PAR_PER_BOX];
    __shared__ float qb_s[LAVA_PAR_PER_BOX];
    int bx = blockIdx.x, tx = threadIdx.x;
    if (bx >= n_boxes) return;
    float a2 = 2.0f * alpha * alpha;
    long first_i = box[bx].offset;
    const lava_vec4 *ra = &rv[first_i];
    lava_vec4 *fa = &fv[first_i];
    for (int w = tx; w < LAVA_PAR_PER_BOX; w += THREADS) ra_s[w] = ra[w];
    __syncthreads();
    for (int k = 0; k < 1 + box[bx].nn; k++) {
        int other = k == 0 ? bx : box[bx].nei[k - 1].number;
        long first_j = box[other].offset;
        for (int w = tx; w < LAVA_PAR_PER_BOX; w += THREADS) {
            rb_s[w] = rv[first_j + w];
            qb_s[w] = qv[first_j + w];
        }
        __syncthreads();
        for (int w = tx; w < LAVA_PAR_PER_BOX; w += THREADS) {
            for (int j = 0; j < LAVA_PAR_PER_BOX; j++) {
                float r2 = ra_s[w].v + rb_s[j].v -
                           (ra_s[w].x * rb_s[j].x + ra_s[w].y * rb_s[j].y + ra_s[w].z * rb_s[j].z);
                float u2 = a2 * r2;
                float vij = expf(-u2);
                float fs = 2.0f * vij;
                float dx = ra_s[w].x - rb_s[j].x;
                float dy = ra_s[w].y - rb_s[j].y;
                float dz = ra_s[w].z - rb_s[j].z;
                fa[w].v += qb_s[j] * vij;
                fa[w].x += qb_s[j] * (fs * dx);
                fa[w].y += qb_s[j] * (fs * dy);
                fa[w].z += qb_s[j] * (fs * dz);
            }
        }
        __syncthreads();
    }
}

int main(int argc, char **argv) {
    int b = lava_parse(argc, argv);
    long n_boxes = (long)b * b * b;
    long n = n_boxes * LAVA_PAR_PER_BOX;
    lava_box *boxes = lava_boxes(b);
    lava_vec4 *rv = (lava_vec4 *)malloc(n * sizeof(lava_vec4));
    float *qv = (float *)malloc(n * sizeof(float));
    lava_vec4 *fv = (lava_vec4 *)calloc(n, sizeof(lava_vec4));
    lava_particles(n, rv, qv);

    lava_box *d_box;
    lava_vec4 *d_rv, *d_fv;
    float *d_qv;
    RD_CUDA_CHECK(cudaMalloc(&d_box, n_boxes * sizeof(lava_box)));
    RD_CUDA_CHECK(cudaMalloc(&d_rv, n * sizeof(lava_vec4)));
    RD_CUDA_CHECK(cudaMalloc(&d_qv, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_fv, n * sizeof(lava_vec4)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_box, boxes, n_boxes * sizeof(lava_box), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_rv, rv, n * sizeof(lava_vec4), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_qv, qv, n * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_fv, fv, n * sizeof(lava_vec4), cudaMemcpyHostToDevice));
    lava_kernel<<<(unsigned)n_boxes, THREADS>>>(LAVA_ALPHA, n_boxes, d_box, d_rv, d_qv, d_fv);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(fv, d_fv, n * sizeof(lava_vec4), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    lava_write(argv[2], n, fv);
    RD_CUDA_FREE(d_box, d_rv, d_qv, d_fv);
    RD_FREE(boxes, rv, qv, fv);
    return 0;
}
