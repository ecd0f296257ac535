/* lavaMD, OpenMP: the boxes shared among the threads; for each home box,
 * its own and its neighbours' particles in the same order as the CUDA
 * version's threads visit them. */
#include <omp.h>
#include "lavaMD_common.h"

static void lava_forces(float alpha, long n_boxes, const lava_box *box, const lava_vec4 *rv,
                        const float *qv, lava_vec4 *fv) {
    float a2 = 2.0f * alpha * alpha;
#pragma omp parallel for schedule(static)
    for (long l = 0; l < n_boxes; l++) {
        long first_i = box[l].offset;
        const lava_vec4 *ra = &rv[first_i];
        lava_vec4 *fa = &fv[first_i];
        for (int k = 0; k < 1 + box[l].nn; k++) {
            int other = k == 0 ? (int)l : box[l].nei[k - 1].number;
            long first_j = box[other].offset;
            const lava_vec4 *rb = &rv[first_j];
            const float *qb = &qv[first_j];
            for (int i = 0; i < LAVA_PAR_PER_BOX; i++)
                for (int j = 0; j < LAVA_PAR_PER_BOX; j++) {
                    float r2 = ra[i].v + rb[j].v -
                               (ra[i].x * rb[j].x + ra[i].y * rb[j].y + ra[i].z * rb[j].z);
                    float u2 = a2 * r2;
                    float vij = expf(-u2);
                    float fs = 2.0f * vij;
                    float dx = ra[i].x - rb[j].x;
                    float dy = ra[i].y - rb[j].y;
                    float dz = ra[i].z - rb[j].z;
                    fa[i].v += qb[j] * vij;
                    fa[i].x += qb[j] * (fs * dx);
                    fa[i].y += qb[j] * (fs * dy);
                    fa[i].z += qb[j] * (fs * dz);
                }
        }
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

    double t0 = rd_now();
    lava_forces(LAVA_ALPHA, n_boxes, boxes, rv, qv, fv);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    lava_write(argv[2], n, fv);
    RD_FREE(boxes, rv, qv, fv);
    return 0;
}
