/* myocyte: a cardiac-myocyte ODE model integrated with an adaptive
 * Runge-Kutta-Fehlberg solver on the host.  Every stage of every step
 * copies the stage's state to the device, launches the model kernel (one
 * 32-thread block per instance: thread 0 evaluates the cell's equations,
 * threads 1-3 one calmodulin compartment each, then, after a barrier,
 * thread 0 couples the compartments' fluxes back into the cell), and copies
 * the derivatives back, as Rodinia's version does. */
#include <cuda_runtime.h>
#include "myocyte_model.h"

#define THREADS 32

__global__ void myocyte_kernel(float t, const float *y, float *dy, const float *params,
                               const float *consts) {
    __shared__ float uptake[3];
    int n = blockIdx.x, tx = threadIdx.x;
    const float *yi = y + (size_t)n * MY_EQ;
    float *dyi = dy + (size_t)n * MY_EQ;
    const float *p = params + (size_t)n * MY_PARAMS;
    if (tx == 0)
        my_ecc(t, yi, p, consts, dyi);
    else if (tx <= 3)
        uptake[tx - 1] = my_cam(tx - 1, yi, p, consts, dyi);
    __syncthreads();
    if (tx == 0) my_fin(yi, p, uptake, dyi);
}

typedef struct {
    int instances;
    float *d_y, *d_dy, *d_params, *d_consts;
} device_rhs;

static void rhs_on_device(void *ctx, float t, const float *y, float *dy) {
    device_rhs *d = (device_rhs *)ctx;
    size_t bytes = (size_t)d->instances * MY_EQ * sizeof(float);
    RD_CUDA_CHECK(cudaMemcpy(d->d_y, y, bytes, cudaMemcpyHostToDevice));
    myocyte_kernel<<<d->instances, THREADS>>>(t, d->d_y, d->d_dy, d->d_params, d->d_consts);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(dy, d->d_dy, bytes, cudaMemcpyDeviceToHost));
}

int main(int argc, char **argv) {
    int t_end, instances;
    float consts[MY_CONSTS], *params, *y, *work;
    my_setup(argc, argv, &t_end, &instances, consts, &params, &y, &work);
    size_t n = (size_t)instances * MY_EQ;

    device_rhs d;
    d.instances = instances;
    RD_CUDA_CHECK(cudaMalloc(&d.d_y, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d.d_dy, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d.d_params, (size_t)instances * MY_PARAMS * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d.d_consts, sizeof(consts)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d.d_params, params, (size_t)instances * MY_PARAMS * sizeof(float),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d.d_consts, consts, sizeof(consts), cudaMemcpyHostToDevice));
    my_stats st = my_solve(instances, y, (float)t_end, rhs_on_device, &d, work);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    my_write(argv[3], instances, st, y);
    RD_CUDA_FREE(d.d_y, d.d_dy, d.d_params, d.d_consts);
    RD_FREE(y, params, work);
    return 0;
}
