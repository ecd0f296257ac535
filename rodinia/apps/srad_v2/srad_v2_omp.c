/* srad_v2, OpenMP: per iteration the region's statistics, then the
 * derivative/coefficient sweep and the update sweep, rows shared among the
 * threads. */
#include <omp.h>
#include "srad_common.h"

int main(int argc, char **argv) {
    srad_args a = srad_parse(argc, argv);
    size_t n = (size_t)a.rows * a.cols;
    int rows = a.rows, cols = a.cols;
    float *J = srad_generate(rows, cols);
    float *c = (float *)malloc(n * sizeof(float));
    float *dN = (float *)malloc(n * sizeof(float));
    float *dS = (float *)malloc(n * sizeof(float));
    float *dW = (float *)malloc(n * sizeof(float));
    float *dE = (float *)malloc(n * sizeof(float));

    double t0 = rd_now();
    for (int it = 0; it < a.niter; it++) {
        float q0sqr = srad_q0sqr(&a, J);
#pragma omp parallel for schedule(static)
        for (int r = 0; r < rows; r++) {
            int rn = r > 0 ? r - 1 : 0, rs = r < rows - 1 ? r + 1 : rows - 1;
            for (int col = 0; col < cols; col++) {
                int cw = col > 0 ? col - 1 : 0, ce = col < cols - 1 ? col + 1 : cols - 1;
                size_t k = (size_t)r * cols + col;
                float jc = J[k];
                float nn = J[(size_t)rn * cols + col] - jc;
                float s = J[(size_t)rs * cols + col] - jc;
                float w = J[(size_t)r * cols + cw] - jc;
                float e = J[(size_t)r * cols + ce] - jc;
                float g2 = (nn * nn + s * s + w * w + e * e) / (jc * jc);
                float l = (nn + s + w + e) / jc;
                float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
                float den = 1.0f + 0.25f * l;
                float qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
                float coeff = 1.0f / (1.0f + den);
                if (coeff < 0.0f) coeff = 0.0f;
                else if (coeff > 1.0f) coeff = 1.0f;
                dN[k] = nn;
                dS[k] = s;
                dW[k] = w;
                dE[k] = e;
                c[k] = coeff;
            }
        }
#pragma omp parallel for schedule(static)
        for (int r = 0; r < rows; r++) {
            int rs = r < rows - 1 ? r + 1 : rows - 1;
            for (int col = 0; col < cols; col++) {
                int ce = col < cols - 1 ? col + 1 : cols - 1;
                size_t k = (size_t)r * cols + col;
                float cn = c[k], cw = c[k];
                float csouth = c[(size_t)rs * cols + col], ceast = c[(size_t)r * cols + ce];
                float d = cn * dN[k] + csouth * dS[k] + cw * dW[k] + ceast * dE[k];
                J[k] = J[k] + 0.25f * a.lambda * d;
            }
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    srad_write(argv[9], &a, J);
    RD_FREE(J, c, dN, dS, dW, dE);
    return 0;
}
