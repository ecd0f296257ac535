/* huffman: Huffman encoding of a synthesised byte stream.  The input, the
 * code construction (on the host in both versions, from the histogram),
 * and the output, shared by both versions.  Codewords are at most 16 bits
 * (twice a symbol), as the encoder's 64-bit per-thread buffer assumes. */
#ifndef HUFFMAN_COMMON_H
#define HUFFMAN_COMMON_H
#include "rodinia_common.h"

#define HF_SYMBOLS 256
#define HF_MAX_LEN 16
/* Threads per encoder block; each thread encodes one 4-byte word, so a
 * block encodes 1024 bytes into at most HF_THREADS words (8 bits/symbol on
 * average: the host checks the blocks' sizes). */
#define HF_THREADS 256
#define HF_BLOCK_BYTES (4 * HF_THREADS)

static inline long hf_parse(int argc, char **argv) {
    rd_usage(argc, argv, 2, "KIBIBYTES OUTPUT");
    int kib = rd_arg_int(argv[1], "size in KiB");
    if (kib > 262144) {
        fprintf(stderr, "at most 262144 KiB\n");
        exit(1);
    }
    return (long)kib * 1024;
}

/* Bytes in 8 frequency levels (each half as likely as the one before, the
 * last as likely as the one before it), 32 symbols per level: about 7 bits
 * of entropy per byte. */
static inline unsigned char *hf_generate(long n) {
    unsigned char *data = (unsigned char *)malloc((size_t)n);
    rd_rng r = rd_seed(43);
    for (long i = 0; i < n; i++) {
        unsigned v = rd_next(&r);
        unsigned rest = v >> 5;
        int level = 0;
        while (level < 7 && (rest & 1u)) {
            level++;
            rest >>= 1;
        }
        data[i] = (unsigned char)(level * 32 + (v & 31u));
    }
    return data;
}

/* Huffman code lengths from the histogram: the two lightest nodes are
 * merged until one is left (ties go to the lower node number), then the
 * canonical codes in order of (length, symbol).  Returns 0, or -1 if a code
 * would be longer than HF_MAX_LEN. */
static inline int hf_build_codes(const unsigned *hist, unsigned *codes, unsigned *lens) {
    unsigned long long weight[2 * HF_SYMBOLS];
    int parent[2 * HF_SYMBOLS], alive[2 * HF_SYMBOLS];
    int nodes = HF_SYMBOLS, live = 0;
    for (int s = 0; s < HF_SYMBOLS; s++) {
        weight[s] = hist[s];
        parent[s] = -1;
        alive[s] = hist[s] > 0;
        live += alive[s];
        codes[s] = lens[s] = 0;
    }
    if (live == 0) return 0;
    if (live == 1) {
        for (int s = 0; s < HF_SYMBOLS; s++)
            if (alive[s]) lens[s] = 1;
    } else {
        while (live > 1) {
            int a = -1, b = -1;
            for (int i = 0; i < nodes; i++) {
                if (!alive[i]) continue;
                if (a < 0 || weight[i] < weight[a]) {
                    b = a;
                    a = i;
                } else if (b < 0 || weight[i] < weight[b]) {
                    b = i;
                }
            }
            weight[nodes] = weight[a] + weight[b];
            parent[nodes] = -1;
            alive[nodes] = 1;
            parent[a] = parent[b] = nodes;
            alive[a] = alive[b] = 0;
            nodes++;
            live--;
        }
        for (int s = 0; s < HF_SYMBOLS; s++) {
            if (hist[s] == 0) continue;
            unsigned depth = 0;
            for (int p = parent[s]; p >= 0; p = parent[p]) depth++;
            lens[s] = depth;
        }
    }
    unsigned code = 0;
    for (unsigned len = 1; len <= HF_MAX_LEN + 16; len++) {
        for (int s = 0; s < HF_SYMBOLS; s++)
            if (lens[s] == len) {
                if (len > HF_MAX_LEN) return -1;
                codes[s] = code++;
            }
        code <<= 1;
    }
    return 0;
}

/* A 32-bit FNV-1a hash of the words. */
static inline unsigned hf_hash(const unsigned *w, long n) {
    unsigned h = 2166136261u;
    for (long i = 0; i < n; i++) {
        h ^= w[i];
        h *= 16777619u;
    }
    return h;
}

/* The histogram, the code lengths, the encoded size in bits, a hash of
 * the packed words and the first 1000 of them. */
static inline void hf_write(const char *path, const unsigned *hist, const unsigned *lens,
                            unsigned long long bits, const unsigned *packed) {
    FILE *f = rd_open_output(path);
    for (int s = 0; s < HF_SYMBOLS; s++) fprintf(f, "%d %d\n", (int)hist[s], (int)lens[s]);
    long words = (long)((bits + 31) / 32);
    fprintf(f, "%lld %d\n", (long long)bits, (int)hf_hash(packed, words));
    for (long i = 0; i < words && i < 1000; i++) fprintf(f, "%d\n", (int)packed[i]);
    fclose(f);
}
#endif
