/* srad_v1: speckle-reducing anisotropic diffusion with the image on the
 * device throughout.  extract scales the image (exp(I/255)); each iteration
 * prepare copies the image and its squares into the sum arrays, reduce
 * (512-thread blocks, a shared-memory tree, relaunched on the block sums
 * until one value is left) totals them, the host derives the speckle
 * statistic q0^2, srad computes the directional derivatives and the
 * diffusion coefficient, and srad2 the divergence and the update; compress
 * takes the image back (log(I)*255). */
#include <cuda_runtime.h>
#include "srad_v1_common.h"

#define T SRAD_THREADS

__global__ void extract(long ne, float *img) {
    long ei = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < ne) img[ei] = expf(img[ei] / 255.0f);
}

__global__ void prepare(long ne, const float *img, float *sums, float *sums2) {
    long ei = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < ne) {
        sums[ei] = img[ei];
        sums2[ei] = img[ei] * img[ei];
    }
}

/* Sums `no` values found every `mul` elements of sums/sums2; block bx's total
 * goes to element bx * mul * T.  The last block may be partial: it reduces
 * the largest power of two of its values as a tree and adds the rest one by
 * one. */
__global__ void reduce(long no, long mul, float *sums, float *sums2) {
    __shared__ float psum[T];
    __shared__ float psum2[T];
    int bx = blockIdx.x, tx = threadIdx.x;
    long ei = (long)bx * T + tx;
    int nf = (int)(T - ((long)gridDim.x * T - no));
    if (ei < no) {
        psum[tx] = sums[ei * mul];
        psum2[tx] = sums2[ei * mul];
    }
    __syncthreads();
    if (nf == T || bx != (int)gridDim.x - 1) {
        for (int i = 2; i <= T; i *= 2) {
            if ((tx + 1) % i == 0) {
                psum[tx] += psum[tx - i / 2];
                psum2[tx] += psum2[tx - i / 2];
            }
            __syncthreads();
        }
        if (tx == T - 1) {
            sums[(long)bx * mul * T] = psum[tx];
            sums2[(long)bx * mul * T] = psum2[tx];
        }
    } else {
        int df = 1;
        for (int i = 2; i <= T; i *= 2)
            if (nf >= i) df = i;
        for (int i = 2; i <= df; i *= 2) {
            if ((tx + 1) % i == 0 && tx < df) {
                psum[tx] += psum[tx - i / 2];
                psum2[tx] += psum2[tx - i / 2];
            }
            __syncthreads();
        }
        if (tx == df - 1) {
            for (long i = (long)bx * T + df; i < (long)bx * T + nf; i++) {
                psum[tx] += sums[i * mul];
                psum2[tx] += sums2[i * mul];
            }
            sums[(long)bx * mul * T] = psum[tx];
            sums2[(long)bx * mul * T] = psum2[tx];
        }
    }
}

__global__ void srad(float lambda, int nr, int nc, long ne, const int *in, const int *is,
                     const int *je, const int *jw, float *dn, float *ds, float *de, float *dw,
                     float q0sqr, float *c, const float *img) {
    long ei = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (ei >= ne) return;
    int row = (int)(ei % nr), col = (int)(ei / nr);
    float jc = img[ei];
    float n = img[in[row] + (long)nr * col] - jc;
    float s = img[is[row] + (long)nr * col] - jc;
    float w = img[row + (long)nr * jw[col]] - jc;
    float e = img[row + (long)nr * je[col]] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1.0f + (0.25f * l);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cv = 1.0f / (1.0f + den);
    if (cv < 0.0f)
        cv = 0.0f;
    else if (cv > 1.0f)
        cv = 1.0f;
    dn[ei] = n;
    ds[ei] = s;
    dw[ei] = w;
    de[ei] = e;
    c[ei] = cv;
}

__global__ void srad2(float lambda, int nr, int nc, long ne, const int *in, const int *is,
                      const int *je, const int *jw, const float *dn, const float *ds,
                      const float *de, const float *dw, const float *c, float *img) {
    long ei = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (ei >= ne) return;
    int row = (int)(ei % nr), col = (int)(ei / nr);
    float cn = c[ei];
    float cs = c[is[row] + (long)nr * col];
    float cw = c[ei];
    float ce = c[row + (long)nr * je[col]];
    float d = cn * dn[ei] + cs * ds[ei] + cw * dw[ei] + ce * de[ei];
    img[ei] = img[ei] + 0.25f * lambda * d;
}

__global__ void compress(long ne, float *img) {
    long ei = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < ne) img[ei] = logf(img[ei]) * 255.0f;
}

int main(int argc, char **argv) {
    srad1_args a = srad1_parse(argc, argv);
    long ne = (long)a.nr * a.nc;
    float *img = srad1_image(a.nr, a.nc);
    int *in = (int *)malloc(a.nr * sizeof(int)), *is = (int *)malloc(a.nr * sizeof(int));
    int *jw = (int *)malloc(a.nc * sizeof(int)), *je = (int *)malloc(a.nc * sizeof(int));
    srad1_neighbours(a.nr, a.nc, in, is, jw, je);

    float *d_img, *d_sums, *d_sums2, *d_dn, *d_ds, *d_dw, *d_de, *d_c;
    int *d_in, *d_is, *d_jw, *d_je;
    size_t bytes = ne * sizeof(float);
    RD_CUDA_CHECK(cudaMalloc(&d_img, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_sums, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_sums2, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_dn, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_ds, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_dw, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_de, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_c, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_in, a.nr * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_is, a.nr * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_jw, a.nc * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_je, a.nc * sizeof(int)));
    unsigned blocks = (unsigned)((ne + T - 1) / T);

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_in, in, a.nr * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_is, is, a.nr * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_jw, jw, a.nc * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_je, je, a.nc * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice));
    extract<<<blocks, T>>>(ne, d_img);
    for (int iter = 0; iter < a.niter; iter++) {
        prepare<<<blocks, T>>>(ne, d_img, d_sums, d_sums2);
        long no = ne, mul = 1;
        unsigned rblocks = blocks;
        while (rblocks != 0) {
            reduce<<<rblocks, T>>>(no, mul, d_sums, d_sums2);
            no = rblocks;
            if (rblocks == 1) {
                rblocks = 0;
            } else {
                mul *= T;
                rblocks = (rblocks + T - 1) / T;
            }
        }
        float total, total2;
        RD_CUDA_CHECK(cudaMemcpy(&total, d_sums, sizeof(float), cudaMemcpyDeviceToHost));
        RD_CUDA_CHECK(cudaMemcpy(&total2, d_sums2, sizeof(float), cudaMemcpyDeviceToHost));
        float mean = total / (float)ne;
        float var = (total2 / (float)ne) - mean * mean;
        float q0sqr = var / (mean * mean);
        srad<<<blocks, T>>>(a.lambda, a.nr, a.nc, ne, d_in, d_is, d_je, d_jw, d_dn, d_ds, d_de,
                            d_dw, q0sqr, d_c, d_img);
        srad2<<<blocks, T>>>(a.lambda, a.nr, a.nc, ne, d_in, d_is, d_je, d_jw, d_dn, d_ds, d_de,
                             d_dw, d_c, d_img);
    }
    compress<<<blocks, T>>>(ne, d_img);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(img, d_img, bytes, cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    srad1_write(argv[5], ne, img);
    RD_CUDA_FREE(d_img, d_sums, d_sums2, d_dn, d_ds, d_dw, d_de, d_c, d_in, d_is, d_jw, d_je);
    RD_FREE(img, in, is, jw, je);
    return 0;
}
