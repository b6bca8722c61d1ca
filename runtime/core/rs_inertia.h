/*
 * rs_inertia.h — is a body's mass and inertia physically possible?  The
 * runtime's half of the check the compiler makes on literal values
 * (modeler/mechanics/inertia_check.hpp): for masses and inertias made of
 * parameters, each parameter set a scenario, a sweep, a train file or a
 * caller gives is checked when the constants are brought up to date
 * (RS_FN_INERTIA, abi/rs_model.h).  A mass must be positive and finite;
 * an inertia tensor's principal moments non-negative, each at most the sum
 * of the other two (A + B − C = 2∫z² dm ≥ 0).
 * No allocation, bounded loops, no I/O.
 */
#ifndef RS_INERTIA_H
#define RS_INERTIA_H

#include <stddef.h>

#include "rs_model.h"

/* The principal moments (eigenvalues, ascending) of the symmetric tensor
 * c = (xx, yy, zz, xy, xz, yz), by cyclic Jacobi rotations (at most 50
 * sweeps; a 3×3 converges in a handful). */
void rs_principal_moments(const double c[6], double ev[3]);

/* 0 when a body of this mass [kg] and inertia c [kg m², about its centre of
 * mass] can exist; else the reason written to why (n bytes) and 2 when only
 * the triangle inequality fails (what `inertia_unchecked` may keep), 1 for
 * anything no data can excuse (a mass, a negative or non-finite moment). */
int rs_inertia_problem(double mass, const double c[6], char *why, size_t n);

/* Every body of m whose mass or inertia is made of parameters
 * (m->inertia_bodies), for the parameters in in[RS_IN_P] (RS_FN_INERTIA
 * reads p alone): RS_OK, or RS_E_VALUE with "body 'NAME': why; the fix" in
 * err (RS_E_MODELFN when the function fails).  A body marked in
 * m->inertia_unchecked skips the triangle inequality alone.  buf: 7 ·
 * rs_model_inertia_count(m) doubles. */
int rs_inertia_check_model(const rs_model *m, const double *const in[], double *buf, char *err, size_t errlen);

/* The same, skipped when RS_FN_INERTIA gives exactly what passed last time
 * (passed: 7 · rs_model_inertia_count(m) doubles, *passed_valid 1 when it
 * holds them; both updated on a pass).  A coupling that sets a damping
 * parameter every step then costs one small generated call, not the
 * principal moments of every body (the masses and tensors are what is
 * checked, so their being equal is exactly when the verdict is). */
int rs_inertia_check_model_changed(const rs_model *m, const double *const in[], double *buf, double *passed,
                                   int *passed_valid, char *err, size_t errlen);

#endif /* RS_INERTIA_H */
