/* srad_v1, OpenMP: the same iterations on the host.  The statistics are
 * summed block by block in the CUDA reduction's order (blocks in parallel),
 * so q0^2 is the same; the derivative/coefficient and the update loops run
 * over columns in parallel as in Rodinia's OpenMP version. */
#include <omp.h>
#include "srad_v1_common.h"

/* The CUDA reduction's levels: block sums of `no` values every `mul`
 * elements, written to element block * mul * SRAD_THREADS. */
static float tree_total(float *v, long ne) {
    long no = ne, mul = 1;
    for (;;) {
        long blocks = (no + SRAD_THREADS - 1) / SRAD_THREADS;
#pragma omp parallel for schedule(static)
        for (long b = 0; b < blocks; b++) {
            long first = b * SRAD_THREADS;
            int count = (int)(no - first < SRAD_THREADS ? no - first : SRAD_THREADS);
            v[first * mul] = srad1_block_sum(v + first * mul, mul, count);
        }
        if (blocks == 1) return v[0];
        no = blocks;
        mul *= SRAD_THREADS;
    }
}

int main(int argc, char **argv) {
    srad1_args a = srad1_parse(argc, argv);
    long ne = (long)a.nr * a.nc;
    int nr = a.nr, nc = a.nc;
    float *img = srad1_image(nr, nc);
    int *in = (int *)malloc(nr * sizeof(int)), *is = (int *)malloc(nr * sizeof(int));
    int *jw = (int *)malloc(nc * sizeof(int)), *je = (int *)malloc(nc * sizeof(int));
    srad1_neighbours(nr, nc, in, is, jw, je);
    size_t bytes = ne * sizeof(float);
    float *sums = (float *)malloc(bytes), *sums2 = (float *)malloc(bytes);
    float *dn = (float *)malloc(bytes), *ds = (float *)malloc(bytes);
    float *dw = (float *)malloc(bytes), *de = (float *)malloc(bytes);
    float *c = (float *)malloc(bytes);

    double t0 = rd_now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < ne; i++) img[i] = expf(img[i] / 255.0f);
    for (int iter = 0; iter < a.niter; iter++) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < ne; i++) {
            sums[i] = img[i];
            sums2[i] = img[i] * img[i];
        }
        float total = tree_total(sums, ne);
        float total2 = tree_total(sums2, ne);
        float mean = total / (float)ne;
        float var = (total2 / (float)ne) - mean * mean;
        float q0sqr = var / (mean * mean);
#pragma omp parallel for schedule(static)
        for (int col = 0; col < nc; col++)
            for (int row = 0; row < nr; row++) {
                long ei = (long)col * nr + row;
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
#pragma omp parallel for schedule(static)
        for (int col = 0; col < nc; col++)
            for (int row = 0; row < nr; row++) {
                long ei = (long)col * nr + row;
                float cn = c[ei];
                float cs = c[is[row] + (long)nr * col];
                float cw = c[ei];
                float ce = c[row + (long)nr * je[col]];
                float d = cn * dn[ei] + cs * ds[ei] + cw * dw[ei] + ce * de[ei];
                img[ei] = img[ei] + 0.25f * a.lambda * d;
            }
    }
#pragma omp parallel for schedule(static)
    for (long i = 0; i < ne; i++) img[i] = logf(img[i]) * 255.0f;
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    srad1_write(argv[5], ne, img);
    RD_FREE(img, in, is, jw, je, sums, sums2, dn, ds, dw, de, c);
    return 0;
}
