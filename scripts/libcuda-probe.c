/* A logging libcuda.so.1 that sits in front of cucc's: it forwards
 * cuGetProcAddress to the library named by $PROBE_REAL (cucc's libcuda.so.1)
 * and answers cuGetExportTable itself, with tables whose first word is the
 * table's size in bytes and whose other slots log their arguments (and the
 * first words behind pointer arguments) and return 0. It is how
 * docs/driver-api.md established what NVIDIA's static runtime asks of the
 * driver library.
 *
 *   cc -shared -fPIC -o /tmp/probe/libcuda.so.1 scripts/libcuda-probe.c \
 *      -Wl,-soname,libcuda.so.1 -ldl
 *   PROBE_REAL=target/debug/libcuda.so CUCC_DRIVER_TRACE=1 \
 *      LD_LIBRARY_PATH=/tmp/probe:target/debug ./program-built-by-nvcc
 *
 * PROBE_<table>_<slot>_RET=N makes a slot return N; PROBE_<table>_<slot>_OUT<n>=V
 * writes V (or, for "buf", a zeroed 64 KiB buffer's address) through
 * argument n; PROBE_<table>_<slot>_ARG<n>_<k>=V writes V into word k of the
 * memory argument n points to. Tables are numbered in the order their ids
 * are first asked for. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TABLES = 10, SLOTS = 48 };
typedef int CUresult;

static void *real(void)
{
    static void *lib;
    if (!lib && !(lib = dlopen(getenv("PROBE_REAL"), RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "probe: %s (set PROBE_REAL)\n", dlerror());
        exit(3);
    }
    return lib;
}

static int readable(uint64_t p, size_t n)
{
    int fd[2];
    if (pipe(fd))
        return 0;
    int ok = write(fd[1], (void *)p, n) == (ssize_t)n;
    close(fd[0]);
    close(fd[1]);
    return ok;
}

static uint64_t slot_called(int t, int i, const uint64_t *args, void *from)
{
    fprintf(stderr, "probe: table %d slot %d (%#lx, %#lx, %#lx, %#lx, %#lx, %#lx) from %p\n", t, i,
            args[0], args[1], args[2], args[3], args[4], args[5], from);
    for (int n = 0; n < 6; n++)
        if (args[n] >= 4096 && readable(args[n], 32)) {
            const uint64_t *q = (const uint64_t *)args[n];
            fprintf(stderr, "probe:   arg %d -> %#lx %#lx %#lx %#lx\n", n, q[0], q[1], q[2], q[3]);
        }
    char key[64];
    uint64_t ret = 0;
    snprintf(key, sizeof key, "PROBE_%d_%d_RET", t, i);
    if (getenv(key))
        ret = strtoull(getenv(key), 0, 0);
    for (int n = 0; n < 6; n++) {
        snprintf(key, sizeof key, "PROBE_%d_%d_OUT%d", t, i, n);
        const char *v = getenv(key);
        if (v && args[n]) {
            uint64_t val = strcmp(v, "buf") ? strtoull(v, 0, 0) : (uint64_t)calloc(1, 1 << 16);
            *(uint64_t *)args[n] = val;
            fprintf(stderr, "probe:   wrote %#lx through arg %d\n", val, n);
        }
    }
    for (int n = 0; n < 6; n++)
        for (int k = 0; k < 16; k++) {
            snprintf(key, sizeof key, "PROBE_%d_%d_ARG%d_%d", t, i, n, k);
            const char *v = getenv(key);
            if (v && args[n]) {
                uint64_t val = strtoull(v, 0, 0);
                ((uint64_t *)args[n])[k] = val;
                fprintf(stderr, "probe:   wrote %#lx at word %d behind arg %d\n", val, k, n);
            }
        }
    return ret;
}

#define STUB(t, i)                                                                               \
    static uint64_t stub_##t##_##i(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,  \
                                   uint64_t f)                                                   \
    {                                                                                            \
        uint64_t args[6] = {a, b, c, d, e, f};                                                   \
        return slot_called(t, i, args, __builtin_return_address(0));                            \
    }
#define ROW(t)                                                                                   \
    STUB(t, 1) STUB(t, 2) STUB(t, 3) STUB(t, 4) STUB(t, 5) STUB(t, 6) STUB(t, 7) STUB(t, 8)      \
    STUB(t, 9) STUB(t, 10) STUB(t, 11) STUB(t, 12) STUB(t, 13) STUB(t, 14) STUB(t, 15)          \
    STUB(t, 16) STUB(t, 17) STUB(t, 18) STUB(t, 19) STUB(t, 20) STUB(t, 21) STUB(t, 22)         \
    STUB(t, 23) STUB(t, 24) STUB(t, 25) STUB(t, 26) STUB(t, 27) STUB(t, 28) STUB(t, 29)         \
    STUB(t, 30) STUB(t, 31) STUB(t, 32) STUB(t, 33) STUB(t, 34) STUB(t, 35) STUB(t, 36)         \
    STUB(t, 37) STUB(t, 38) STUB(t, 39) STUB(t, 40) STUB(t, 41) STUB(t, 42) STUB(t, 43)         \
    STUB(t, 44) STUB(t, 45) STUB(t, 46) STUB(t, 47)
#define TABLE(t)                                                                                 \
    {(void *)(sizeof(void *) * SLOTS), stub_##t##_1, stub_##t##_2, stub_##t##_3, stub_##t##_4,  \
     stub_##t##_5, stub_##t##_6, stub_##t##_7, stub_##t##_8, stub_##t##_9, stub_##t##_10,       \
     stub_##t##_11, stub_##t##_12, stub_##t##_13, stub_##t##_14, stub_##t##_15, stub_##t##_16,  \
     stub_##t##_17, stub_##t##_18, stub_##t##_19, stub_##t##_20, stub_##t##_21, stub_##t##_22,  \
     stub_##t##_23, stub_##t##_24, stub_##t##_25, stub_##t##_26, stub_##t##_27, stub_##t##_28,  \
     stub_##t##_29, stub_##t##_30, stub_##t##_31, stub_##t##_32, stub_##t##_33, stub_##t##_34,  \
     stub_##t##_35, stub_##t##_36, stub_##t##_37, stub_##t##_38, stub_##t##_39, stub_##t##_40,  \
     stub_##t##_41, stub_##t##_42, stub_##t##_43, stub_##t##_44, stub_##t##_45, stub_##t##_46,  \
     stub_##t##_47}

ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7) ROW(8) ROW(9)
static void *tables[TABLES][SLOTS] = {TABLE(0), TABLE(1), TABLE(2), TABLE(3), TABLE(4),
                                      TABLE(5), TABLE(6), TABLE(7), TABLE(8), TABLE(9)};

CUresult cuGetExportTable(const void **table, const unsigned char *id)
{
    static char ids[TABLES][33];
    static int known;
    char hex[33];
    for (int i = 0; i < 16; i++)
        sprintf(hex + 2 * i, "%02x", id[i]);
    int t = 0;
    while (t < known && strcmp(ids[t], hex))
        t++;
    if (t == known && known < TABLES)
        strcpy(ids[known++], hex);
    if (t == TABLES)
        t = TABLES - 1;
    fprintf(stderr, "probe: cuGetExportTable(%s) -> table %d\n", hex, t);
    *table = tables[t];
    return 0;
}

typedef CUresult (*get_proc_t)(const char *, void **, int, uint64_t, int *);

CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int version, uint64_t flags, int *status)
{
    CUresult r = ((get_proc_t)dlsym(real(), "cuGetProcAddress_v2"))(sym, pfn, version, flags, status);
    if (!strcmp(sym, "cuGetExportTable"))
        *pfn = (void *)cuGetExportTable;
    if (!strcmp(sym, "cuGetProcAddress"))
        *pfn = (void *)cuGetProcAddress_v2;
    return r;
}

CUresult cuGetProcAddress(const char *sym, void **pfn, int version, uint64_t flags)
{
    return cuGetProcAddress_v2(sym, pfn, version, flags, 0);
}

CUresult cuInit(unsigned flags)
{
    return ((CUresult(*)(unsigned))dlsym(real(), "cuInit"))(flags);
}

CUresult cuDriverGetVersion(int *v)
{
    return ((CUresult(*)(int *))dlsym(real(), "cuDriverGetVersion"))(v);
}
