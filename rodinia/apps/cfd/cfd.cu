/* cfd (euler3d): per iteration the variables are saved (a device-to-device
 * copy), compute_step_factor computes each element's local time step, and
 * three Runge-Kutta stages each run compute_flux (the element's fluxes
 * through its four faces, with the far-field state in constant memory) and
 * time_step.  One thread per element, 192-thread blocks. */
#include <cuda_runtime.h>
#include "cfd_common.h"

#define NEL_BLOCK CFD_BLOCK

__constant__ float ff_variable[CFD_NVAR];
__constant__ float3 ff_flux_contribution_momentum_x[1];
__constant__ float3 ff_flux_contribution_momentum_y[1];
__constant__ float3 ff_flux_contribution_momentum_z[1];
__constant__ float3 ff_flux_contribution_density_energy[1];

__global__ void cuda_initialize_variables(int nelr, float *variables) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    for (int j = 0; j < CFD_NVAR; j++) variables[i + j * nelr] = ff_variable[j];
}

__device__ inline void compute_flux_contribution(float density, float3 momentum,
                                                 float density_energy, float pressure,
                                                 float3 velocity, float3 &fc_momentum_x,
                                                 float3 &fc_momentum_y, float3 &fc_momentum_z,
                                                 float3 &fc_density_energy) {
    fc_momentum_x.x = velocity.x * momentum.x + pressure;
    fc_momentum_x.y = velocity.x * momentum.y;
    fc_momentum_x.z = velocity.x * momentum.z;
    fc_momentum_y.x = fc_momentum_x.y;
    fc_momentum_y.y = velocity.y * momentum.y + pressure;
    fc_momentum_y.z = velocity.y * momentum.z;
    fc_momentum_z.x = fc_momentum_x.z;
    fc_momentum_z.y = fc_momentum_y.z;
    fc_momentum_z.z = velocity.z * momentum.z + pressure;
    float de_p = density_energy + pressure;
    fc_density_energy.x = velocity.x * de_p;
    fc_density_energy.y = velocity.y * de_p;
    fc_density_energy.z = velocity.z * de_p;
}

__device__ inline void compute_velocity(float density, float3 momentum, float3 &velocity) {
    velocity.x = momentum.x / density;
    velocity.y = momentum.y / density;
    velocity.z = momentum.z / density;
}

__device__ inline float compute_speed_sqd(float3 velocity) {
    return velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
}

__device__ inline float compute_pressure(float density, float density_energy, float speed_sqd) {
    return (CFD_GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

__device__ inline float compute_speed_of_sound(float density, float pressure) {
    return sqrtf(CFD_GAMMA * pressure / density);
}

__global__ void cuda_compute_step_factor(int nelr, const float *variables, const float *areas,
                                         float *step_factors) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float density = variables[i + CFD_VAR_DENSITY * nelr];
    float3 momentum;
    momentum.x = variables[i + (CFD_VAR_MOMENTUM + 0) * nelr];
    momentum.y = variables[i + (CFD_VAR_MOMENTUM + 1) * nelr];
    momentum.z = variables[i + (CFD_VAR_MOMENTUM + 2) * nelr];
    float density_energy = variables[i + CFD_VAR_DENSITY_ENERGY * nelr];
    float3 velocity;
    compute_velocity(density, momentum, velocity);
    float speed_sqd = compute_speed_sqd(velocity);
    float pressure = compute_pressure(density, density_energy, speed_sqd);
    float speed_of_sound = compute_speed_of_sound(density, pressure);
    step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
}

__global__ void cuda_compute_flux(int nelr, const int *elements_surrounding_elements,
                                  const float *normals, const float *variables, float *fluxes) {
    const float smoothing_coefficient = CFD_SMOOTHING;
    int i = blockDim.x * blockIdx.x + threadIdx.x;

    float density_i = variables[i + CFD_VAR_DENSITY * nelr];
    float3 momentum_i;
    momentum_i.x = variables[i + (CFD_VAR_MOMENTUM + 0) * nelr];
    momentum_i.y = variables[i + (CFD_VAR_MOMENTUM + 1) * nelr];
    momentum_i.z = variables[i + (CFD_VAR_MOMENTUM + 2) * nelr];
    float density_energy_i = variables[i + CFD_VAR_DENSITY_ENERGY * nelr];
    float3 velocity_i;
    compute_velocity(density_i, momentum_i, velocity_i);
    float speed_sqd_i = compute_speed_sqd(velocity_i);
    float speed_i = sqrtf(speed_sqd_i);
    float pressure_i = compute_pressure(density_i, density_energy_i, speed_sqd_i);
    float speed_of_sound_i = compute_speed_of_sound(density_i, pressure_i);
    float3 fc_i_momentum_x, fc_i_momentum_y, fc_i_momentum_z, fc_i_density_energy;
    compute_flux_contribution(density_i, momentum_i, density_energy_i, pressure_i, velocity_i,
                              fc_i_momentum_x, fc_i_momentum_y, fc_i_momentum_z,
                              fc_i_density_energy);

    float flux_i_density = 0.0f;
    float3 flux_i_momentum;
    flux_i_momentum.x = 0.0f;
    flux_i_momentum.y = 0.0f;
    flux_i_momentum.z = 0.0f;
    float flux_i_density_energy = 0.0f;

    for (int j = 0; j < CFD_NNB; j++) {
        int nb = elements_surrounding_elements[i + j * nelr];
        float3 normal;
        normal.x = normals[i + (j + 0 * CFD_NNB) * nelr];
        normal.y = normals[i + (j + 1 * CFD_NNB) * nelr];
        normal.z = normals[i + (j + 2 * CFD_NNB) * nelr];
        float normal_len = sqrtf(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
        if (nb >= 0) {
            float density_nb = variables[nb + CFD_VAR_DENSITY * nelr];
            float3 momentum_nb;
            momentum_nb.x = variables[nb + (CFD_VAR_MOMENTUM + 0) * nelr];
            momentum_nb.y = variables[nb + (CFD_VAR_MOMENTUM + 1) * nelr];
            momentum_nb.z = variables[nb + (CFD_VAR_MOMENTUM + 2) * nelr];
            float density_energy_nb = variables[nb + CFD_VAR_DENSITY_ENERGY * nelr];
            float3 velocity_nb;
            compute_velocity(density_nb, momentum_nb, velocity_nb);
            float speed_sqd_nb = compute_speed_sqd(velocity_nb);
            float pressure_nb = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
            float speed_of_sound_nb = compute_speed_of_sound(density_nb, pressure_nb);
            float3 fc_nb_momentum_x, fc_nb_momentum_y, fc_nb_momentum_z, fc_nb_density_energy;
            compute_flux_contribution(density_nb, momentum_nb, density_energy_nb, pressure_nb,
                                      velocity_nb, fc_nb_momentum_x, fc_nb_momentum_y,
                                      fc_nb_momentum_z, fc_nb_density_energy);

            /* artificial viscosity */
            float factor = -normal_len * smoothing_coefficient * 0.5f *
                           (speed_i + sqrtf(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
            flux_i_density += factor * (density_i - density_nb);
            flux_i_density_energy += factor * (density_energy_i - density_energy_nb);
            flux_i_momentum.x += factor * (momentum_i.x - momentum_nb.x);
            flux_i_momentum.y += factor * (momentum_i.y - momentum_nb.y);
            flux_i_momentum.z += factor * (momentum_i.z - momentum_nb.z);

            /* accumulate cell-centred fluxes */
            factor = 0.5f * normal.x;
            flux_i_density += factor * (momentum_nb.x + momentum_i.x);
            flux_i_density_energy += factor * (fc_nb_density_energy.x + fc_i_density_energy.x);
            flux_i_momentum.x += factor * (fc_nb_momentum_x.x + fc_i_momentum_x.x);
            flux_i_momentum.y += factor * (fc_nb_momentum_y.x + fc_i_momentum_y.x);
            flux_i_momentum.z += factor * (fc_nb_momentum_z.x + fc_i_momentum_z.x);

            factor = 0.5f * normal.y;
            flux_i_density += factor * (momentum_nb.y + momentum_i.y);
            flux_i_density_energy += factor * (fc_nb_density_energy.y + fc_i_density_energy.y);
            flux_i_momentum.x += factor * (fc_nb_momentum_x.y + fc_i_momentum_x.y);
            flux_i_momentum.y += factor * (fc_nb_momentum_y.y + fc_i_momentum_y.y);
            flux_i_momentum.z += factor * (fc_nb_momentum_z.y + fc_i_momentum_z.y);

            factor = 0.5f * normal.z;
            flux_i_density += factor * (momentum_nb.z + momentum_i.z);
            flux_i_density_energy += factor * (fc_nb_density_energy.z + fc_i_density_energy.z);
            flux_i_momentum.x += factor * (fc_nb_momentum_x.z + fc_i_momentum_x.z);
            flux_i_momentum.y += factor * (fc_nb_momentum_y.z + fc_i_momentum_y.z);
            flux_i_momentum.z += factor * (fc_nb_momentum_z.z + fc_i_momentum_z.z);
        } else if (nb == CFD_WALL) {
            flux_i_momentum.x += normal.x * pressure_i;
            flux_i_momentum.y += normal.y * pressure_i;
            flux_i_momentum.z += normal.z * pressure_i;
        } else if (nb == CFD_FAR_FIELD) {
            float factor = 0.5f * normal.x;
            flux_i_density += factor * (ff_variable[CFD_VAR_MOMENTUM + 0] + momentum_i.x);
            flux_i_density_energy +=
                factor * (ff_flux_contribution_density_energy[0].x + fc_i_density_energy.x);
            flux_i_momentum.x += factor * (ff_flux_contribution_momentum_x[0].x + fc_i_momentum_x.x);
            flux_i_momentum.y += factor * (ff_flux_contribution_momentum_y[0].x + fc_i_momentum_y.x);
            flux_i_momentum.z += factor * (ff_flux_contribution_momentum_z[0].x + fc_i_momentum_z.x);

            factor = 0.5f * normal.y;
            flux_i_density += factor * (ff_variable[CFD_VAR_MOMENTUM + 1] + momentum_i.y);
            flux_i_density_energy +=
                factor * (ff_flux_contribution_density_energy[0].y + fc_i_density_energy.y);
            flux_i_momentum.x += factor * (ff_flux_contribution_momentum_x[0].y + fc_i_momentum_x.y);
            flux_i_momentum.y += factor * (ff_flux_contribution_momentum_y[0].y + fc_i_momentum_y.y);
            flux_i_momentum.z += factor * (ff_flux_contribution_momentum_z[0].y + fc_i_momentum_z.y);

            factor = 0.5f * normal.z;
            flux_i_density += factor * (ff_variable[CFD_VAR_MOMENTUM + 2] + momentum_i.z);
            flux_i_density_energy +=
                factor * (ff_flux_contribution_density_energy[0].z + fc_i_density_energy.z);
            flux_i_momentum.x += factor * (ff_flux_contribution_momentum_x[0].z + fc_i_momentum_x.z);
            flux_i_momentum.y += factor * (ff_flux_contribution_momentum_y[0].z + fc_i_momentum_y.z);
            flux_i_momentum.z += factor * (ff_flux_contribution_momentum_z[0].z + fc_i_momentum_z.z);
        }
    }
    fluxes[i + CFD_VAR_DENSITY * nelr] = flux_i_density;
    fluxes[i + (CFD_VAR_MOMENTUM + 0) * nelr] = flux_i_momentum.x;
    fluxes[i + (CFD_VAR_MOMENTUM + 1) * nelr] = flux_i_momentum.y;
    fluxes[i + (CFD_VAR_MOMENTUM + 2) * nelr] = flux_i_momentum.z;
    fluxes[i + CFD_VAR_DENSITY_ENERGY * nelr] = flux_i_density_energy;
}

__global__ void cuda_time_step(int j, int nelr, const float *old_variables, float *variables,
                               const float *step_factors, const float *fluxes) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float factor = step_factors[i] / (float)(CFD_RK + 1 - j);
    for (int k = 0; k < CFD_NVAR; k++)
        variables[i + k * nelr] = old_variables[i + k * nelr] + factor * fluxes[i + k * nelr];
}

int main(int argc, char **argv) {
    cfd_args a = cfd_parse(argc, argv);
    cfd_mesh m = cfd_generate(a.nx, a.ny);
    int nelr = m.nelr;
    float ff[CFD_NVAR], fc[4][3];
    cfd_far_field(ff, fc);
    float3 fc3[4];
    for (int k = 0; k < 4; k++) fc3[k] = make_float3(fc[k][0], fc[k][1], fc[k][2]);
    float *variables = (float *)malloc((size_t)nelr * CFD_NVAR * sizeof(float));

    float *d_areas, *d_normals, *d_variables, *d_old_variables, *d_fluxes, *d_step_factors;
    int *d_nbr;
    size_t var_bytes = (size_t)nelr * CFD_NVAR * sizeof(float);
    RD_CUDA_CHECK(cudaMalloc(&d_areas, (size_t)nelr * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_nbr, (size_t)nelr * CFD_NNB * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_normals, (size_t)nelr * CFD_NNB * CFD_NDIM * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_variables, var_bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_old_variables, var_bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_fluxes, var_bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_step_factors, (size_t)nelr * sizeof(float)));
    dim3 grid(nelr / NEL_BLOCK), block(NEL_BLOCK);

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpyToSymbol(ff_variable, ff, sizeof(ff)));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(ff_flux_contribution_momentum_x, &fc3[0], sizeof(float3)));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(ff_flux_contribution_momentum_y, &fc3[1], sizeof(float3)));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(ff_flux_contribution_momentum_z, &fc3[2], sizeof(float3)));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(ff_flux_contribution_density_energy, &fc3[3], sizeof(float3)));
    RD_CUDA_CHECK(cudaMemcpy(d_areas, m.areas, (size_t)nelr * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_nbr, m.nbr, (size_t)nelr * CFD_NNB * sizeof(int),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_normals, m.normals, (size_t)nelr * CFD_NNB * CFD_NDIM * sizeof(float),
                             cudaMemcpyHostToDevice));
    cuda_initialize_variables<<<grid, block>>>(nelr, d_variables);
    cuda_initialize_variables<<<grid, block>>>(nelr, d_old_variables);
    cuda_initialize_variables<<<grid, block>>>(nelr, d_fluxes);
    RD_CUDA_CHECK(cudaMemset(d_step_factors, 0, (size_t)nelr * sizeof(float)));
    for (int it = 0; it < a.iterations; it++) {
        RD_CUDA_CHECK(cudaMemcpy(d_old_variables, d_variables, var_bytes, cudaMemcpyDeviceToDevice));
        cuda_compute_step_factor<<<grid, block>>>(nelr, d_variables, d_areas, d_step_factors);
        for (int j = 0; j < CFD_RK; j++) {
            cuda_compute_flux<<<grid, block>>>(nelr, d_nbr, d_normals, d_variables, d_fluxes);
            cuda_time_step<<<grid, block>>>(j, nelr, d_old_variables, d_variables, d_step_factors,
                                            d_fluxes);
        }
    }
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(variables, d_variables, var_bytes, cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    cfd_write(argv[4], &m, variables);
    RD_CUDA_FREE(d_areas, d_nbr, d_normals, d_variables, d_old_variables, d_fluxes, d_step_factors);
    free(variables);
    return 0;
}
