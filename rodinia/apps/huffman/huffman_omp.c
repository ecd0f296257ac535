/* huffman, OpenMP: per-thread histograms merged at the end; the same code
 * built on the host; the input encoded in the CUDA version's 1024-byte
 * blocks, in parallel: a first pass sizes each block, an exclusive scan
 * gives the blocks' bit offsets, and a second pass writes each block's bits
 * (its first and last words, shared with the neighbours, atomically). */
#include <omp.h>
#include <string.h>
#include "huffman_common.h"

/* The 4 codes of a word (most significant byte first), as one bit string. */
static inline unsigned word_code(unsigned w, const unsigned *codes, const unsigned *lens,
                                 unsigned long long *cw64) {
    unsigned long long c = 0;
    unsigned len = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char byte = (unsigned char)(w >> ((3 - i) * 8));
        c = (c << lens[byte]) | codes[byte];
        len += lens[byte];
    }
    *cw64 = c;
    return len;
}

/* ORs the low `len` bits of v into dst at bit
 * position pos (most significant bit first); shared words atomically. */
static inline void put_bits(unsigned *dst, unsigned long long pos, unsigned long long v,
                            unsigned len, unsigned long long lo, unsigned long long hi) {
    while (len > 0) {
        unsigned long long word = pos / 32;
        unsigned bit = (unsigned)(pos % 32);
        unsigned take = len < 32 - bit ? len : 32 - bit;
        unsigned chunk = (unsigned)((v >> (len - take)) & ((1ull << take) - 1));
        unsigned val = chunk << (32 - bit - take);
        if (word == lo || word == hi) {
#pragma omp atomic
            dst[word] |= val;
        } else {
            dst[word] |= val;
        }
        pos += take;
        len -= take;
    }
}

int main(int argc, char **argv) {
    long n = hf_parse(argc, argv);
    long words = n / 4;
    int blocks = (int)(n / HF_BLOCK_BYTES);
    unsigned char *bytes = hf_generate(n);
    unsigned *data = (unsigned *)malloc((size_t)n);
    memcpy(data, bytes, (size_t)n);
    unsigned hist[HF_SYMBOLS], codes[HF_SYMBOLS], lens[HF_SYMBOLS];
    unsigned *block_bits = (unsigned *)malloc(blocks * sizeof(unsigned));
    unsigned long long *block_pos =
        (unsigned long long *)malloc(blocks * sizeof(unsigned long long));
    unsigned *packed = (unsigned *)malloc((size_t)n + 8);

    double t0 = rd_now();
    memset(hist, 0, sizeof(hist));
#pragma omp parallel
    {
        unsigned local[HF_SYMBOLS];
        memset(local, 0, sizeof(local));
#pragma omp for schedule(static)
        for (long i = 0; i < words; i++) {
            unsigned w = data[i];
            for (int b = 0; b < 4; b++) local[(w >> (8 * b)) & 0xFFu]++;
        }
#pragma omp critical
        for (int s = 0; s < HF_SYMBOLS; s++) hist[s] += local[s];
    }
    if (hf_build_codes(hist, codes, lens) != 0) {
        fprintf(stderr, "a code would be longer than %d bits\n", HF_MAX_LEN);
        return 1;
    }
#pragma omp parallel for schedule(static)
    for (int b = 0; b < blocks; b++) {
        unsigned total = 0;
        for (int t = 0; t < HF_THREADS; t++) {
            unsigned long long cw;
            total += word_code(data[(long)b * HF_THREADS + t], codes, lens, &cw);
        }
        block_bits[b] = total;
    }
    unsigned long long bits = 0;
    for (int b = 0; b < blocks; b++) {
        if (block_bits[b] > 32u * HF_THREADS) {
            fprintf(stderr, "block %d encodes to %u bits, more than %d words\n", b, block_bits[b],
                    HF_THREADS);
            return 1;
        }
        block_pos[b] = bits;
        bits += block_bits[b];
    }
    long out_words = (long)((bits + 31) / 32);
    memset(packed, 0, (size_t)(out_words + 1) * sizeof(unsigned));
#pragma omp parallel for schedule(static)
    for (int b = 0; b < blocks; b++) {
        unsigned long long pos = block_pos[b];
        unsigned long long lo = pos / 32, hi = (pos + block_bits[b]) / 32;
        for (int t = 0; t < HF_THREADS; t++) {
            unsigned long long cw;
            unsigned len = word_code(data[(long)b * HF_THREADS + t], codes, lens, &cw);
            put_bits(packed, pos, cw, len, lo, hi);
            pos += len;
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hf_write(argv[2], hist, lens, bits, packed);
    RD_FREE(bytes, data, block_bits, block_pos, packed);
    return 0;
}
