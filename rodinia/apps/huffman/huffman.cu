/* huffman: a byte histogram on the device (per-block histograms in shared
 * memory with shared-memory atomics, merged with global atomics); the host
 * builds the code; vlc_encode (256 threads, each encoding one 4-byte word
 * into a 64-bit buffer) caches the code table in dynamic shared memory,
 * finds each thread's bit offset with an in-place work-efficient scan of
 * the code lengths, and assembles its block's bits in shared memory with
 * atomicOr; a multi-level scan of the blocks' sizes gives their offsets and
 * pack2 concatenates them (one thread per block). */
#include <cuda_runtime.h>
#include "huffman_common.h"

#define T HF_THREADS
#define SCAN_ELEMS (2 * T)

__global__ void histo_kernel(const unsigned *data, long words, unsigned *hist) {
    __shared__ unsigned s_hist[HF_SYMBOLS];
    for (int k = threadIdx.x; k < HF_SYMBOLS; k += blockDim.x) s_hist[k] = 0;
    __syncthreads();
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < words;
         i += (long)blockDim.x * gridDim.x) {
        unsigned w = data[i];
        for (int b = 0; b < 4; b++) atomicAdd(&s_hist[(w >> (8 * b)) & 0xFFu], 1u);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < HF_SYMBOLS; k += blockDim.x) atomicAdd(&hist[k], s_hist[k]);
}

__global__ void vlc_encode(const unsigned *data, const unsigned *gm_codewords,
                           const unsigned *gm_codewordlens, unsigned *out, unsigned *outidx) {
    extern __shared__ unsigned sm[];
    __shared__ unsigned kcmax;
    unsigned *codewords = sm;
    unsigned *codewordlens = sm + HF_SYMBOLS;
    unsigned *as = sm + 2 * HF_SYMBOLS;
    unsigned k = threadIdx.x;
    unsigned kn = blockIdx.x * blockDim.x + threadIdx.x;

    codewords[k] = gm_codewords[k];
    codewordlens[k] = gm_codewordlens[k];
    unsigned val32 = data[kn];
    __syncthreads();
    unsigned long long cw64 = 0;
    unsigned codewordlen = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned char byte = (unsigned char)(val32 >> ((3 - i) * 8));
        unsigned len = codewordlens[byte];
        cw64 = (cw64 << len) | codewords[byte];
        codewordlen += len;
    }
    as[k] = codewordlen;
    __syncthreads();

    /* Exclusive scan of the lengths in place: up the tree ... */
    unsigned offset = 1;
    for (unsigned d = blockDim.x >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (k < d) {
            unsigned ai = offset * (2 * k + 1) - 1, bi = offset * (2 * k + 2) - 1;
            as[bi] += as[ai];
        }
        offset *= 2;
    }
    /* ... and back down. */
    if (k == 0) as[blockDim.x - 1] = 0;
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (k < d) {
            unsigned ai = offset * (2 * k + 1) - 1, bi = offset * (2 * k + 2) - 1;
            unsigned t = as[ai];
            as[ai] = as[bi];
            as[bi] += t;
        }
    }
    __syncthreads();
    if (k == blockDim.x - 1) {
        outidx[blockIdx.x] = as[k] + codewordlen;
        kcmax = (as[k] + codewordlen) / 32;
    }
    unsigned kc = as[k] / 32, startbit = as[k] % 32;
    __syncthreads();
    as[k] = 0;
    __syncthreads();

    /* The code spans at most three words of the block's buffer. */
    unsigned wrbits = codewordlen > 32 - startbit ? 32 - startbit : codewordlen;
    if (wrbits > 0) {
        unsigned cw = (unsigned)(cw64 >> (codewordlen - wrbits));
        atomicOr(&as[kc], cw << (32 - startbit - wrbits));
    }
    codewordlen -= wrbits;
    if (codewordlen) {
        wrbits = codewordlen > 32 ? 32 : codewordlen;
        unsigned cw = (unsigned)(cw64 >> (codewordlen - wrbits)) &
                      (wrbits == 32 ? 0xFFFFFFFFu : ((1u << wrbits) - 1));
        atomicOr(&as[kc + 1], cw << (32 - wrbits));
        codewordlen -= wrbits;
    }
    if (codewordlen) {
        unsigned cw = (unsigned)(cw64 & ((1ull << codewordlen) - 1));
        atomicOr(&as[kc + 2], cw << (32 - codewordlen));
    }
    __syncthreads();
    if (k <= kcmax) out[kn] = as[k];
}

/* Exclusive scan of SCAN_ELEMS values per block (two per thread), the
 * block's total to sums (when given). */
__global__ void prescan(const unsigned *in, unsigned *out, unsigned *sums, int n) {
    __shared__ unsigned s[SCAN_ELEMS];
    int t = threadIdx.x;
    int base = blockIdx.x * SCAN_ELEMS;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + T] = base + t + T < n ? in[base + t + T] : 0;
    unsigned offset = 1;
    for (int d = SCAN_ELEMS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (sums) sums[blockIdx.x] = s[SCAN_ELEMS - 1];
        s[SCAN_ELEMS - 1] = 0;
    }
    for (int d = 1; d < SCAN_ELEMS; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            unsigned v = s[ai];
            s[ai] = s[bi];
            s[bi] += v;
        }
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    if (base + t + T < n) out[base + t + T] = s[t + T];
}

__global__ void uniform_add(unsigned *out, const unsigned *sums, int n) {
    int base = blockIdx.x * SCAN_ELEMS;
    unsigned add = sums[blockIdx.x];
    int t = threadIdx.x;
    if (base + t < n) out[base + t] += add;
    if (base + t + T < n) out[base + t + T] += add;
}

/* Scratch arrays for the levels of the large scan, allocated up front. */
typedef struct {
    int levels;
    unsigned *sums[8], *scanned[8];
} scan_plan;

static void plan_scan(scan_plan *p, int n) {
    p->levels = 0;
    while (n > SCAN_ELEMS) {
        n = (n + SCAN_ELEMS - 1) / SCAN_ELEMS;
        RD_CUDA_CHECK(cudaMalloc(&p->sums[p->levels], n * sizeof(unsigned)));
        RD_CUDA_CHECK(cudaMalloc(&p->scanned[p->levels], n * sizeof(unsigned)));
        p->levels++;
    }
}

static void scan_array(const scan_plan *p, int level, const unsigned *in, unsigned *out, int n) {
    int blocks = (n + SCAN_ELEMS - 1) / SCAN_ELEMS;
    if (blocks == 1) {
        prescan<<<1, T>>>(in, out, NULL, n);
        return;
    }
    prescan<<<blocks, T>>>(in, out, p->sums[level], n);
    scan_array(p, level + 1, p->sums[level], p->scanned[level], blocks);
    uniform_add<<<blocks, T>>>(out, p->scanned[level], n);
}

static __device__ inline unsigned shl(unsigned v, unsigned s) { return s >= 32 ? 0 : v << s; }

/* Block tid's encoded words, bitsize bits, go to bit pos of dst. */
__global__ void pack2(const unsigned *src, const unsigned *cindex, const unsigned *cindex2,
                      unsigned *dst, unsigned block_words, int blocks) {
    unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid >= (unsigned)blocks) return;
    unsigned offset = tid * block_words;
    unsigned bitsize = cindex[tid];
    unsigned pos = cindex2[tid], dword = pos / 32, bit = pos % 32;
    if (bitsize == 0) return;
    unsigned dw = src[offset];
    atomicOr(&dst[dword], dw >> bit);
    unsigned tmp = shl(dw, 32 - bit);
    unsigned i;
    for (i = 1; i < bitsize / 32; i++) {
        dw = src[offset + i];
        tmp |= dw >> bit;
        dst[dword + i] = tmp;
        tmp = shl(dw, 32 - bit);
    }
    if (bit != 0 || bitsize % 32 != 0) atomicOr(&dst[dword + i], tmp);
    if (bitsize % 32 != 0) {
        dw = src[offset + i];
        atomicOr(&dst[dword + i], dw >> bit);
        atomicOr(&dst[dword + i + 1], shl(dw, 32 - bit));
    }
}

int main(int argc, char **argv) {
    long n = hf_parse(argc, argv);
    long words = n / 4;
    int blocks = (int)(n / HF_BLOCK_BYTES);
    unsigned char *data = hf_generate(n);
    unsigned hist[HF_SYMBOLS], codes[HF_SYMBOLS], lens[HF_SYMBOLS];
    unsigned *block_bits = (unsigned *)malloc(blocks * sizeof(unsigned));
    unsigned *packed = (unsigned *)malloc((size_t)n + 8);

    unsigned *d_data, *d_hist, *d_codes, *d_lens, *d_out, *d_outidx, *d_offsets, *d_packed;
    RD_CUDA_CHECK(cudaMalloc(&d_data, (size_t)n));
    RD_CUDA_CHECK(cudaMalloc(&d_hist, HF_SYMBOLS * sizeof(unsigned)));
    RD_CUDA_CHECK(cudaMalloc(&d_codes, HF_SYMBOLS * sizeof(unsigned)));
    RD_CUDA_CHECK(cudaMalloc(&d_lens, HF_SYMBOLS * sizeof(unsigned)));
    RD_CUDA_CHECK(cudaMalloc(&d_out, (size_t)n));
    RD_CUDA_CHECK(cudaMalloc(&d_outidx, blocks * sizeof(unsigned)));
    RD_CUDA_CHECK(cudaMalloc(&d_offsets, blocks * sizeof(unsigned)));
    RD_CUDA_CHECK(cudaMalloc(&d_packed, (size_t)n + 8));
    scan_plan plan;
    plan_scan(&plan, blocks);
    int hist_blocks = blocks < 240 ? blocks : 240;

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_data, data, (size_t)n, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemset(d_hist, 0, HF_SYMBOLS * sizeof(unsigned)));
    histo_kernel<<<hist_blocks, T>>>(d_data, words, d_hist);
    RD_CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDeviceToHost));
    if (hf_build_codes(hist, codes, lens) != 0) {
        fprintf(stderr, "a code would be longer than %d bits\n", HF_MAX_LEN);
        return 1;
    }
    RD_CUDA_CHECK(cudaMemcpy(d_codes, codes, sizeof(codes), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_lens, lens, sizeof(lens), cudaMemcpyHostToDevice));
    /* the code table, the block's words, and slack for an oversized block */
    size_t sm_size = (2 * HF_SYMBOLS + T + 4) * sizeof(unsigned);
    vlc_encode<<<blocks, T, sm_size>>>(d_data, d_codes, d_lens, d_out, d_outidx);
    scan_array(&plan, 0, d_outidx, d_offsets, blocks);
    RD_CUDA_CHECK(cudaMemset(d_packed, 0, (size_t)n + 8));
    pack2<<<(blocks + 15) / 16, 16>>>(d_out, d_outidx, d_offsets, d_packed, T, blocks);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(block_bits, d_outidx, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned long long bits = 0;
    for (int b = 0; b < blocks; b++) {
        if (block_bits[b] > 32u * T) {
            fprintf(stderr, "block %d encodes to %u bits, more than its %d-word buffer\n", b,
                    block_bits[b], T);
            return 1;
        }
        bits += block_bits[b];
    }
    RD_CUDA_CHECK(cudaMemcpy(packed, d_packed, (size_t)((bits + 31) / 32) * sizeof(unsigned),
                             cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hf_write(argv[2], hist, lens, bits, packed);
    RD_CUDA_FREE(d_data, d_hist, d_codes, d_lens, d_out, d_outidx, d_offsets, d_packed);
    RD_FREE(data, block_bits, packed);
    return 0;
}
