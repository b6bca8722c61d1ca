/*
 * rs_thermal_couple.h — one damper's thermal model coupled to a run (seed
 * 004's loop): per vehicle step the dissipated power P goes out, the grid
 * advances its explicit sub-steps, and the damping coefficient comes back
 *
 *     c(T) = c_ref · exp(−β (T − t_ref)),   T the body's mean temperature,
 *
 * Reynolds' exponential viscosity law (O. Reynolds 1886) carried over to
 * the coefficient of a damper whose orifice flow is viscous (c ∝ μ);
 * c_ref is the parameter's value at the start.  β = 0: c stays c_ref
 * exactly (the temperature-independent check of docs/coupled.md).
 *
 * Where the grid lives is a transport: in-process (NULL: one slab of every
 * plane, here) or the MPI ranks of rs_coupled_mpi.h.  Either gives per
 * plane the sum of T and this step's convective loss; they are summed here
 * in plane order, so every transport gives bit-identical values.
 */
#ifndef RS_THERMAL_COUPLE_H
#define RS_THERMAL_COUPLE_H

#include <stddef.h>
#include "rs_thermal.h"

typedef struct rs_thermal_transport {
    /* Sets up the grid of spec s (all planes); RS_OK or an error. */
    int (*start)(void *ctx, const rs_thermal_spec *s, char *err, size_t errlen);
    /* Advances one vehicle step of dt with power P (W): rs_thermal_substeps
     * sub-steps; sum[k] = Σ T of plane k after it, loss[k] = the plane's
     * convective loss during it (J), k = 0..nz−1.  No allocation. */
    int (*advance)(void *ctx, double P, double dt, double *sum, double *loss);
    /* Ends the workers (also after a failed start). */
    void (*stop)(void *ctx);
    void *ctx;
} rs_thermal_transport;

typedef struct rs_thermal_couple rs_thermal_couple;

/* tr NULL: in-process.  c_ref: the coefficient at t_ref. */
int rs_thermal_couple_create(const rs_thermal_spec *s, double c_ref, const rs_thermal_transport *tr,
                             rs_thermal_couple **out, char *err, size_t errlen);
void rs_thermal_couple_free(rs_thermal_couple **c);

/* One vehicle step of dt (0: nothing advances) with power P; returns the
 * coefficient for the next step. */
int rs_thermal_couple_step(rs_thermal_couple *c, double P, double dt, double *coef, char *err, size_t errlen);

/* The coefficient law at temperature T. */
double rs_thermal_coefficient(const rs_thermal_spec *s, double c_ref, double T);

typedef struct rs_thermal_energy {
    double generated;   /* Σ P dt, J                                  */
    double stored;      /* Σ C (T − T_initial), J                     */
    double lost;        /* convected to the air, J                    */
    double t_mean;      /* °C, the body's mean temperature            */
    long substeps;      /* per vehicle step, the last one             */
} rs_thermal_energy;

void rs_thermal_couple_energy(const rs_thermal_couple *c, rs_thermal_energy *e);
const rs_thermal_grid *rs_thermal_couple_grid(const rs_thermal_couple *c);

#endif /* RS_THERMAL_COUPLE_H */
