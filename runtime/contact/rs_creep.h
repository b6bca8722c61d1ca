/*
 * rs_creep.h — one entry point for the creep force laws of the elastic
 * wheel-rail contact: Kalker's linear law (rs_kalker.h), FASTSIM
 * (rs_fastsim.h) and Polach's method (rs_polach.h).  docs/creep.md.
 *
 * All three take the same inputs (semi-axes, G, Kalker's coefficients,
 * μ, N, creepages) and give the forces on the wheel with the same sign
 * convention, (Fx, Fy, Mz) = − Cm (ξx, ξy, φ) at small creepage, and the
 * 3×3 Jacobian ∂(Fx, Fy, Mz)/∂(ξx, ξy, φ).  The linear law ignores μ
 * (its saturation, rs_creep_saturation, is applied by its caller).
 * No allocation, no state: thread-safe.
 */
#ifndef RS_CREEP_H
#define RS_CREEP_H

#include "rs_fastsim.h"
#include "rs_polach.h"
#include "rs_status.h"

typedef enum rs_creep_law {
    RS_CREEP_KALKER = 0,   /* linear (rs_kalker_forces) */
    RS_CREEP_FASTSIM = 1,  /* rs_fastsim_forces */
    RS_CREEP_POLACH = 2    /* rs_polach_forces */
} rs_creep_law;

typedef struct rs_creep_opts {
    rs_fastsim_opts fastsim;
    rs_polach_opts polach;
} rs_creep_opts;

/* The defaults of both laws. */
void rs_creep_defaults(rs_creep_opts *o);

/* The law's forces f = (Fx, Fy, Mz) and (J not NULL) Jacobian, row-major.
 * Arguments as rs_fastsim_forces; o may be NULL (the defaults).  Returns
 * RS_OK, or RS_E_ARG (bad arguments, unknown law; f and J untouched). */
int rs_creep_forces(rs_creep_law law, double a, double b, double G,
                    const double c[4], double mu, double N, const double xi[3],
                    const rs_creep_opts *o, double f[3], double J[9]);

#endif /* RS_CREEP_H */
