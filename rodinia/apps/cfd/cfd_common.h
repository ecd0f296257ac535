/* cfd: an explicit finite-volume solver for the 3-D Euler equations on an
 * unstructured mesh of elements with four faces each (Rodinia's euler3d).
 * The constants, the generated mesh, the far-field state and the output,
 * shared by both versions. */
#ifndef CFD_COMMON_H
#define CFD_COMMON_H
#include <math.h>
#include "rodinia_common.h"

#define CFD_GAMMA 1.4f
#define CFD_NDIM 3
#define CFD_NNB 4
#define CFD_RK 3
#define CFD_SMOOTHING 0.2f
#define CFD_VAR_DENSITY 0
#define CFD_VAR_MOMENTUM 1
#define CFD_VAR_DENSITY_ENERGY (CFD_VAR_MOMENTUM + CFD_NDIM)
#define CFD_NVAR (CFD_VAR_DENSITY_ENERGY + 1)
/* Elements are padded to a multiple of the kernels' block size. */
#define CFD_BLOCK 192
/* Neighbour codes for faces on a boundary. */
#define CFD_WALL (-1)
#define CFD_FAR_FIELD (-2)

/* The mesh in Rodinia's layout: element i's neighbour across face j is
 * nbr[i + j * nelr], the face's inward normal component d is
 * normals[i + (j + d * NNB) * nelr]; areas[i] is the element's size. */
typedef struct {
    int nel, nelr;
    float *areas;
    int *nbr;
    float *normals;
} cfd_mesh;

typedef struct {
    int nx, ny, iterations;
} cfd_args;

static inline cfd_args cfd_parse(int argc, char **argv) {
    cfd_args a;
    rd_int_args(argc, argv, "NX NY ITERATIONS OUTPUT", "nx", &a.nx, "ny", &a.ny, "iterations",
                &a.iterations, RD_END);
    rd_check(a.nx >= 8 && a.ny >= 8 && (long)a.nx * a.ny <= 50000000L,
             "nx and ny must be at least 8 (and nx*ny at most 5e7)\n");
    return a;
}

/* An nx x ny layer of cells of varying widths around a thin plate (a row
 * of removed cells whose faces are walls, met by the flow at 3 degrees),
 * far field outside; the cells are numbered
 * in a random order, so neighbours are scattered as in an unstructured mesh. */
static inline cfd_mesh cfd_generate(int nx, int ny) {
    rd_rng r = rd_seed(23);
    float *dx = (float *)malloc(nx * sizeof(float)), *dy = (float *)malloc(ny * sizeof(float));
    for (int i = 0; i < nx; i++) dx[i] = 0.75f + 0.5f * rd_unit(&r);
    for (int j = 0; j < ny; j++) dy[j] = 0.75f + 0.5f * rd_unit(&r);
    int ox0 = nx * 3 / 10, ox1 = nx * 6 / 10, oy0 = ny / 2, oy1 = oy0 + 1;
    if (ox1 <= ox0) ox1 = ox0 + 1;
    if (oy1 <= oy0) oy1 = oy0 + 1;
    int *id = (int *)malloc((size_t)nx * ny * sizeof(int));
    int nel = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int solid = i >= ox0 && i < ox1 && j >= oy0 && j < oy1;
            id[(size_t)j * nx + i] = solid ? -1 : nel++;
        }
    /* A random permutation of the element numbers (Fisher-Yates). */
    int *perm = (int *)malloc((size_t)nel * sizeof(int));
    for (int e = 0; e < nel; e++) perm[e] = e;
    for (int e = nel - 1; e > 0; e--) {
        int k = rd_below(&r, e + 1), t = perm[e];
        perm[e] = perm[k];
        perm[k] = t;
    }
    cfd_mesh m;
    m.nel = nel;
    m.nelr = CFD_BLOCK * ((nel + CFD_BLOCK - 1) / CFD_BLOCK);
    m.areas = (float *)malloc((size_t)m.nelr * sizeof(float));
    m.nbr = (int *)malloc((size_t)m.nelr * CFD_NNB * sizeof(int));
    m.normals = (float *)malloc((size_t)m.nelr * CFD_NNB * CFD_NDIM * sizeof(float));
    long nelr = m.nelr;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int c = id[(size_t)j * nx + i];
            if (c < 0) continue;
            int e = perm[c];
            m.areas[e] = dx[i] * dy[j];
            /* faces: east, west, north, south */
            int ni[4] = {i + 1, i - 1, i, i};
            int nj[4] = {j, j, j + 1, j - 1};
            /* normals point into the element, as the flux signs expect */
            float nxv[4] = {-dy[j], dy[j], 0.0f, 0.0f};
            float nyv[4] = {0.0f, 0.0f, -dx[i], dx[i]};
            for (int f = 0; f < CFD_NNB; f++) {
                int nb;
                if (ni[f] < 0 || ni[f] >= nx || nj[f] < 0 || nj[f] >= ny)
                    nb = CFD_FAR_FIELD;
                else if (id[(size_t)nj[f] * nx + ni[f]] < 0)
                    nb = CFD_WALL;
                else
                    nb = perm[id[(size_t)nj[f] * nx + ni[f]]];
                m.nbr[e + f * nelr] = nb;
                m.normals[e + (f + 0 * CFD_NNB) * nelr] = nxv[f];
                m.normals[e + (f + 1 * CFD_NNB) * nelr] = nyv[f];
                m.normals[e + (f + 2 * CFD_NNB) * nelr] = 0.0f;
            }
        }
    /* Padding elements repeat the last element. */
    for (long e = nel; e < nelr; e++) {
        m.areas[e] = m.areas[nel - 1];
        for (int f = 0; f < CFD_NNB; f++) {
            m.nbr[e + f * nelr] = m.nbr[nel - 1 + f * nelr];
            for (int d = 0; d < CFD_NDIM; d++)
                m.normals[e + (f + d * CFD_NNB) * nelr] =
                    m.normals[nel - 1 + (f + d * CFD_NNB) * nelr];
        }
    }
    free(dx);
    free(dy);
    free(id);
    free(perm);
    return m;
}

/* The far-field state (Mach 1.2, 3 degrees angle of attack) and its flux
 * contributions: ff[NVAR], then momentum x, y, z and density-energy
 * contributions as (x, y, z) triples. */
static inline void cfd_far_field(float ff[CFD_NVAR], float fc[4][3]) {
    float density = 1.4f, pressure = 1.0f;
    float speed_of_sound = sqrtf(CFD_GAMMA * pressure / density);
    float speed = 1.2f * speed_of_sound;
    float vx = speed * 0.99862953f, vy = speed * 0.05233596f, vz = 0.0f;
    ff[CFD_VAR_DENSITY] = density;
    ff[CFD_VAR_MOMENTUM + 0] = density * vx;
    ff[CFD_VAR_MOMENTUM + 1] = density * vy;
    ff[CFD_VAR_MOMENTUM + 2] = density * vz;
    ff[CFD_VAR_DENSITY_ENERGY] = density * (0.5f * (speed * speed)) + (pressure / (CFD_GAMMA - 1.0f));
    float mx = ff[CFD_VAR_MOMENTUM + 0], my = ff[CFD_VAR_MOMENTUM + 1], mz = ff[CFD_VAR_MOMENTUM + 2];
    float de_p = ff[CFD_VAR_DENSITY_ENERGY] + pressure;
    fc[0][0] = vx * mx + pressure;
    fc[0][1] = vx * my;
    fc[0][2] = vx * mz;
    fc[1][0] = fc[0][1];
    fc[1][1] = vy * my + pressure;
    fc[1][2] = vy * mz;
    fc[2][0] = fc[0][2];
    fc[2][1] = fc[1][2];
    fc[2][2] = vz * mz + pressure;
    fc[3][0] = vx * de_p;
    fc[3][1] = vy * de_p;
    fc[3][2] = vz * de_p;
}

/* Every k-th element's five variables (at most about 20000 elements), then
 * each variable's sum over the mesh. */
static inline void cfd_write(const char *path, const cfd_mesh *m, const float *v) {
    FILE *f = rd_open_output(path);
    long step = m->nel / 20000 + 1;
    for (long i = 0; i < m->nel; i += step) {
        for (int k = 0; k < CFD_NVAR; k++)
            fprintf(f, RD_FLOAT_FMT "%c", v[i + k * (long)m->nelr], k + 1 < CFD_NVAR ? ' ' : '\n');
    }
    for (int k = 0; k < CFD_NVAR; k++) {
        double s = 0.0;
        for (long i = 0; i < m->nel; i++) s += v[i + k * (long)m->nelr];
        fprintf(f, RD_FLOAT_FMT "\n", s);
    }
    fclose(f);
}
#endif
