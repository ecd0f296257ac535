/* cfd (euler3d), OpenMP: the same step factor, flux and Runge-Kutta
 * stages, each a parallel loop over the elements, as in Rodinia's OpenMP
 * euler3d. */
#include <omp.h>
#include <string.h>
#include "cfd_common.h"

typedef struct {
    float x, y, z;
} f3;

static float ff_variable[CFD_NVAR];
static f3 ff_fc_momentum_x, ff_fc_momentum_y, ff_fc_momentum_z, ff_fc_density_energy;

static inline void compute_flux_contribution(float density, f3 momentum, float density_energy,
                                             float pressure, f3 velocity, f3 *fc_momentum_x,
                                             f3 *fc_momentum_y, f3 *fc_momentum_z,
                                             f3 *fc_density_energy) {
    (void)density;
    fc_momentum_x->x = velocity.x * momentum.x + pressure;
    fc_momentum_x->y = velocity.x * momentum.y;
    fc_momentum_x->z = velocity.x * momentum.z;
    fc_momentum_y->x = fc_momentum_x->y;
    fc_momentum_y->y = velocity.y * momentum.y + pressure;
    fc_momentum_y->z = velocity.y * momentum.z;
    fc_momentum_z->x = fc_momentum_x->z;
    fc_momentum_z->y = fc_momentum_y->z;
    fc_momentum_z->z = velocity.z * momentum.z + pressure;
    float de_p = density_energy + pressure;
    fc_density_energy->x = velocity.x * de_p;
    fc_density_energy->y = velocity.y * de_p;
    fc_density_energy->z = velocity.z * de_p;
}

static inline f3 compute_velocity(float density, f3 momentum) {
    f3 v = {momentum.x / density, momentum.y / density, momentum.z / density};
    return v;
}

static inline float compute_speed_sqd(f3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }

static inline float compute_pressure(float density, float density_energy, float speed_sqd) {
    return (CFD_GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

static inline float compute_speed_of_sound(float density, float pressure) {
    return sqrtf(CFD_GAMMA * pressure / density);
}

static inline void load(const float *variables, long i, int nelr, float *density, f3 *momentum,
                        float *density_energy) {
    *density = variables[i + CFD_VAR_DENSITY * nelr];
    momentum->x = variables[i + (CFD_VAR_MOMENTUM + 0) * nelr];
    momentum->y = variables[i + (CFD_VAR_MOMENTUM + 1) * nelr];
    momentum->z = variables[i + (CFD_VAR_MOMENTUM + 2) * nelr];
    *density_energy = variables[i + CFD_VAR_DENSITY_ENERGY * nelr];
}

static void compute_step_factor(int nelr, const float *variables, const float *areas,
                                float *step_factors) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelr; i++) {
        float density, density_energy;
        f3 momentum;
        load(variables, i, nelr, &density, &momentum, &density_energy);
        f3 velocity = compute_velocity(density, momentum);
        float speed_sqd = compute_speed_sqd(velocity);
        float pressure = compute_pressure(density, density_energy, speed_sqd);
        float speed_of_sound = compute_speed_of_sound(density, pressure);
        step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
    }
}

static void compute_flux(int nelr, const int *nbr, const float *normals, const float *variables,
                         float *fluxes) {
    const float smoothing_coefficient = CFD_SMOOTHING;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelr; i++) {
        float density_i, density_energy_i;
        f3 momentum_i;
        load(variables, i, nelr, &density_i, &momentum_i, &density_energy_i);
        f3 velocity_i = compute_velocity(density_i, momentum_i);
        float speed_sqd_i = compute_speed_sqd(velocity_i);
        float speed_i = sqrtf(speed_sqd_i);
        float pressure_i = compute_pressure(density_i, density_energy_i, speed_sqd_i);
        float speed_of_sound_i = compute_speed_of_sound(density_i, pressure_i);
        f3 fc_i_mx, fc_i_my, fc_i_mz, fc_i_de;
        compute_flux_contribution(density_i, momentum_i, density_energy_i, pressure_i, velocity_i,
                                  &fc_i_mx, &fc_i_my, &fc_i_mz, &fc_i_de);
        float flux_i_density = 0.0f;
        f3 flux_i_momentum = {0.0f, 0.0f, 0.0f};
        float flux_i_density_energy = 0.0f;

        for (int j = 0; j < CFD_NNB; j++) {
            int nb = nbr[i + j * nelr];
            f3 normal;
            normal.x = normals[i + (j + 0 * CFD_NNB) * nelr];
            normal.y = normals[i + (j + 1 * CFD_NNB) * nelr];
            normal.z = normals[i + (j + 2 * CFD_NNB) * nelr];
            float normal_len =
                sqrtf(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
            if (nb >= 0) {
                float density_nb, density_energy_nb;
                f3 momentum_nb;
                load(variables, nb, nelr, &density_nb, &momentum_nb, &density_energy_nb);
                f3 velocity_nb = compute_velocity(density_nb, momentum_nb);
                float speed_sqd_nb = compute_speed_sqd(velocity_nb);
                float pressure_nb = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
                float speed_of_sound_nb = compute_speed_of_sound(density_nb, pressure_nb);
                f3 fc_nb_mx, fc_nb_my, fc_nb_mz, fc_nb_de;
                compute_flux_contribution(density_nb, momentum_nb, density_energy_nb, pressure_nb,
                                          velocity_nb, &fc_nb_mx, &fc_nb_my, &fc_nb_mz, &fc_nb_de);

                float factor = -normal_len * smoothing_coefficient * 0.5f *
                               (speed_i + sqrtf(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
                flux_i_density += factor * (density_i - density_nb);
                flux_i_density_energy += factor * (density_energy_i - density_energy_nb);
                flux_i_momentum.x += factor * (momentum_i.x - momentum_nb.x);
                flux_i_momentum.y += factor * (momentum_i.y - momentum_nb.y);
                flux_i_momentum.z += factor * (momentum_i.z - momentum_nb.z);

                factor = 0.5f * normal.x;
                flux_i_density += factor * (momentum_nb.x + momentum_i.x);
                flux_i_density_energy += factor * (fc_nb_de.x + fc_i_de.x);
                flux_i_momentum.x += factor * (fc_nb_mx.x + fc_i_mx.x);
                flux_i_momentum.y += factor * (fc_nb_my.x + fc_i_my.x);
                flux_i_momentum.z += factor * (fc_nb_mz.x + fc_i_mz.x);

                factor = 0.5f * normal.y;
                flux_i_density += factor * (momentum_nb.y + momentum_i.y);
                flux_i_density_energy += factor * (fc_nb_de.y + fc_i_de.y);
                flux_i_momentum.x += factor * (fc_nb_mx.y + fc_i_mx.y);
                flux_i_momentum.y += factor * (fc_nb_my.y + fc_i_my.y);
                flux_i_momentum.z += factor * (fc_nb_mz.y + fc_i_mz.y);

                factor = 0.5f * normal.z;
                flux_i_density += factor * (momentum_nb.z + momentum_i.z);
                flux_i_density_energy += factor * (fc_nb_de.z + fc_i_de.z);
                flux_i_momentum.x += factor * (fc_nb_mx.z + fc_i_mx.z);
                flux_i_momentum.y += factor * (fc_nb_my.z + fc_i_my.z);
                flux_i_momentum.z += factor * (fc_nb_mz.z + fc_i_mz.z);
            } else if (nb == CFD_WALL) {
                flux_i_momentum.x += normal.x * pressure_i;
                flux_i_momentum.y += normal.y * pressure_i;
                flux_i_momentum.z += normal.z * pressure_i;
            } else if (nb == CFD_FAR_FIELD) {
                float factor = 0.5f * normal.x;
                flux_i_density += factor * (ff_variable[CFD_VAR_MOMENTUM + 0] + momentum_i.x);
                flux_i_density_energy += factor * (ff_fc_density_energy.x + fc_i_de.x);
                flux_i_momentum.x += factor * (ff_fc_momentum_x.x + fc_i_mx.x);
                flux_i_momentum.y += factor * (ff_fc_momentum_y.x + fc_i_my.x);
                flux_i_momentum.z += factor * (ff_fc_momentum_z.x + fc_i_mz.x);

                factor = 0.5f * normal.y;
                flux_i_density += factor * (ff_variable[CFD_VAR_MOMENTUM + 1] + momentum_i.y);
                flux_i_density_energy += factor * (ff_fc_density_energy.y + fc_i_de.y);
                flux_i_momentum.x += factor * (ff_fc_momentum_x.y + fc_i_mx.y);
                flux_i_momentum.y += factor * (ff_fc_momentum_y.y + fc_i_my.y);
                flux_i_momentum.z += factor * (ff_fc_momentum_z.y + fc_i_mz.y);

                factor = 0.5f * normal.z;
                flux_i_density += factor * (ff_variable[CFD_VAR_MOMENTUM + 2] + momentum_i.z);
                flux_i_density_energy += factor * (ff_fc_density_energy.z + fc_i_de.z);
                flux_i_momentum.x += factor * (ff_fc_momentum_x.z + fc_i_mx.z);
                flux_i_momentum.y += factor * (ff_fc_momentum_y.z + fc_i_my.z);
                flux_i_momentum.z += factor * (ff_fc_momentum_z.z + fc_i_mz.z);
            }
        }
        fluxes[i + CFD_VAR_DENSITY * nelr] = flux_i_density;
        fluxes[i + (CFD_VAR_MOMENTUM + 0) * nelr] = flux_i_momentum.x;
        fluxes[i + (CFD_VAR_MOMENTUM + 1) * nelr] = flux_i_momentum.y;
        fluxes[i + (CFD_VAR_MOMENTUM + 2) * nelr] = flux_i_momentum.z;
        fluxes[i + CFD_VAR_DENSITY_ENERGY * nelr] = flux_i_density_energy;
    }
}

static void time_step(int j, int nelr, const float *old_variables, float *variables,
                      const float *step_factors, const float *fluxes) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelr; i++) {
        float factor = step_factors[i] / (float)(CFD_RK + 1 - j);
        for (int k = 0; k < CFD_NVAR; k++)
            variables[i + k * nelr] = old_variables[i + k * nelr] + factor * fluxes[i + k * nelr];
    }
}

int main(int argc, char **argv) {
    cfd_args a = cfd_parse(argc, argv);
    cfd_mesh m = cfd_generate(a.nx, a.ny);
    int nelr = m.nelr;
    float fc[4][3];
    cfd_far_field(ff_variable, fc);
    f3 *targets[4] = {&ff_fc_momentum_x, &ff_fc_momentum_y, &ff_fc_momentum_z,
                      &ff_fc_density_energy};
    for (int k = 0; k < 4; k++) {
        targets[k]->x = fc[k][0];
        targets[k]->y = fc[k][1];
        targets[k]->z = fc[k][2];
    }
    size_t var_bytes = (size_t)nelr * CFD_NVAR * sizeof(float);
    float *variables = (float *)malloc(var_bytes);
    float *old_variables = (float *)malloc(var_bytes);
    float *fluxes = (float *)malloc(var_bytes);
    float *step_factors = (float *)malloc((size_t)nelr * sizeof(float));

    double t0 = rd_now();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nelr; i++)
        for (int k = 0; k < CFD_NVAR; k++) variables[i + k * nelr] = ff_variable[k];
    for (int it = 0; it < a.iterations; it++) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < (long)nelr * CFD_NVAR; i++) old_variables[i] = variables[i];
        compute_step_factor(nelr, variables, m.areas, step_factors);
        for (int j = 0; j < CFD_RK; j++) {
            compute_flux(nelr, m.nbr, m.normals, variables, fluxes);
            time_step(j, nelr, old_variables, variables, step_factors, fluxes);
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    cfd_write(argv[4], &m, variables);
    RD_FREE(variables, old_variables, fluxes, step_factors);
    return 0;
}
