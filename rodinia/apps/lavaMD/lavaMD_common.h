/* lavaMD: the potential and the forces on particles in a cube of boxes,
 * from the particles of their own box and of the (up to 26) boxes around
 * it.  The box and particle structures, the generated input and the output,
 * shared by both versions. */
#ifndef LAVAMD_COMMON_H
#define LAVAMD_COMMON_H
#include <math.h>
#include "rodinia_common.h"

#define LAVA_PAR_PER_BOX 100
#define LAVA_ALPHA 0.5f

/* A potential (v) and a vector; for positions, v is a per-particle term. */
typedef struct {
    float v, x, y, z;
} lava_vec4;

typedef struct {
    int x, y, z;
    int number;
    long offset;
} lava_nei;

typedef struct {
    int x, y, z;
    int number;
    long offset;
    int nn;
    lava_nei nei[26];
} lava_box;

static inline int lava_parse(int argc, char **argv) {
    rd_usage(argc, argv, 2, "BOXES1D OUTPUT");
    return rd_arg_int(argv[1], "boxes per dimension");
}

/* The boxes of a b x b x b cube, each with its neighbours inside the cube. */
static inline lava_box *lava_boxes(int b) {
    lava_box *boxes = (lava_box *)malloc((size_t)b * b * b * sizeof(lava_box));
    int n = 0;
    for (int i = 0; i < b; i++)
        for (int j = 0; j < b; j++)
            for (int k = 0; k < b; k++, n++) {
                lava_box *h = &boxes[n];
                h->x = k;
                h->y = j;
                h->z = i;
                h->number = n;
                h->offset = (long)n * LAVA_PAR_PER_BOX;
                h->nn = 0;
                for (int l = -1; l <= 1; l++)
                    for (int m = -1; m <= 1; m++)
                        for (int o = -1; o <= 1; o++) {
                            if (l == 0 && m == 0 && o == 0) continue;
                            int zi = i + l, yj = j + m, xk = k + o;
                            if (zi < 0 || zi >= b || yj < 0 || yj >= b || xk < 0 || xk >= b)
                                continue;
                            lava_nei *e = &h->nei[h->nn++];
                            e->x = xk;
                            e->y = yj;
                            e->z = zi;
                            e->number = (zi * b + yj) * b + xk;
                            e->offset = (long)e->number * LAVA_PAR_PER_BOX;
                        }
            }
    return boxes;
}

/* Positions and charges in {0.1, 0.2, ..., 1.0}. */
static inline void lava_particles(long n, lava_vec4 *rv, float *qv) {
    rd_rng r = rd_seed(13);
    for (long i = 0; i < n; i++) {
        rv[i].v = (float)(rd_below(&r, 10) + 1) / 10.0f;
        rv[i].x = (float)(rd_below(&r, 10) + 1) / 10.0f;
        rv[i].y = (float)(rd_below(&r, 10) + 1) / 10.0f;
        rv[i].z = (float)(rd_below(&r, 10) + 1) / 10.0f;
        qv[i] = (float)(rd_below(&r, 10) + 1) / 10.0f;
    }
}

static inline void lava_write(const char *path, long n, const lava_vec4 *fv) {
    FILE *f = rd_open_output(path);
    for (long i = 0; i < n; i++)
        fprintf(f, RD_FLOAT_FMT " " RD_FLOAT_FMT " " RD_FLOAT_FMT " " RD_FLOAT_FMT "\n", fv[i].v,
                fv[i].x, fv[i].y, fv[i].z);
    fclose(f);
}
#endif
