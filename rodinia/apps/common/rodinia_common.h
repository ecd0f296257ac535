/* Shared by every application of the suite, CUDA and OpenMP alike: the
 * deterministic input generator, the clock for the timed region, and the
 * output helpers.  Both halves of a benchmark include this header, so they
 * see bit-identical inputs and print the same formats. */
#ifndef RODINIA_COMMON_H
#define RODINIA_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A 64-bit linear congruential generator (Knuth's MMIX constants); the high
 * bits are the good ones, so results come from the top 31 bits. */
typedef struct {
    unsigned long long state;
} rd_rng;

static inline rd_rng rd_seed(unsigned long long seed) {
    rd_rng r;
    r.state = seed * 2862933555777941757ULL + 3037000493ULL;
    return r;
}

/* A uniformly distributed integer in [0, 2^31). */
static inline unsigned rd_next(rd_rng *r) {
    r->state = r->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(r->state >> 33);
}

/* A uniformly distributed integer in [0, n). */
static inline int rd_below(rd_rng *r, int n) {
    return (int)(rd_next(r) % (unsigned)n);
}

/* A float in [0, 1) with 24 random bits: exact, so every compiler
 * produces the same value. */
static inline float rd_unit(rd_rng *r) {
    return (float)(rd_next(r) >> 7) * (1.0f / 16777216.0f);
}

/* Seconds on a monotonic clock. */
static inline double rd_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The one line the harness reads: the timed region, in seconds. */
static inline void rd_report_time(double seconds) {
    printf("TIME %.6f\n", seconds);
    fflush(stdout);
}

/* Opens the result file named on the command line, or exits. */
static inline FILE *rd_open_output(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    return f;
}

/* Parses a positive integer argument, or exits naming it. */
static inline int rd_arg_int(const char *text, const char *what) {
    char *end = 0;
    long v = strtol(text, &end, 10);
    if (!end || *end != '\0' || v <= 0 || v > 2000000000L) {
        fprintf(stderr, "bad %s: %s\n", what, text);
        exit(1);
    }
    return (int)v;
}

/* Exits with the usage line unless the program got exactly `count`
 * arguments after its name (the last one is always the result file). */
static inline void rd_usage(int argc, char **argv, int count, const char *args) {
    if (argc != count + 1) {
        fprintf(stderr, "usage: %s %s\n", argv[0], args);
        exit(1);
    }
}

/* Exits with `format` (a message taking one int) unless a size argument
 * meets the program's constraint. */
static inline void rd_require(int ok, const char *format, int value) {
    if (!ok) {
        fprintf(stderr, format, value);
        exit(1);
    }
}

/* Exits with `message` unless the arguments meet the program's
 * constraint. */
static inline void rd_check(int ok, const char *message) {
    if (!ok) {
        fputs(message, stderr);
        exit(1);
    }
}

/* Ends the list of `rd_int_args` (a pointer, as the list holds pointers). */
#define RD_END ((const char *)0)

/* Checks the argument count against the usage line, then parses each size
 * argument in order: the variable arguments are pairs (const char *what,
 * int *out) ended by RD_END; the result file comes last. */
static inline void rd_int_args(int argc, char **argv, const char *usage, ...) {
    va_list ap;
    int count = 0;
    va_start(ap, usage);
    while (va_arg(ap, const char *)) {
        (void)va_arg(ap, int *);
        count++;
    }
    va_end(ap);
    rd_usage(argc, argv, count + 1, usage);
    va_start(ap, usage);
    for (int i = 1; i <= count; i++) {
        const char *what = va_arg(ap, const char *);
        *va_arg(ap, int *) = rd_arg_int(argv[i], what);
    }
    va_end(ap);
}

/* Passes each buffer a program is done with to `release` (free, cudaFree),
 * in one statement. */
#define RD_RELEASE(release, ...)                                              \
    do {                                                                      \
        void *rd_bufs_[] = {__VA_ARGS__};                                     \
        for (size_t rd_i_ = 0; rd_i_ < sizeof rd_bufs_ / sizeof *rd_bufs_; rd_i_++) \
            release(rd_bufs_[rd_i_]);                                         \
    } while (0)
#define RD_FREE(...) RD_RELEASE(free, __VA_ARGS__)

/* Floats are written in one fixed scientific format, so the harness can
 * tell them from integers (which it compares exactly). */
#define RD_FLOAT_FMT "%.7e"

#ifdef __CUDACC__
/* Exits with the failing call's name and CUDA's message. */
#define RD_CUDA_CHECK(call)                                                   \
    do {                                                                      \
        cudaError_t rd_err_ = (call);                                         \
        if (rd_err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(rd_err_));                             \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define RD_CUDA_FREE(...) RD_RELEASE(cudaFree, __VA_ARGS__)

/* A texture object reading `bytes` of linear device memory as `desc`'s
 * elements (element reads, no filtering), or exits. */
static inline cudaTextureObject_t rd_linear_texture(void *ptr, size_t bytes,
                                                    cudaChannelFormatDesc desc) {
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = ptr;
    res.res.linear.desc = desc;
    res.res.linear.sizeInBytes = bytes;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    RD_CUDA_CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    return t;
}
#endif

#endif
