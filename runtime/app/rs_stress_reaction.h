/*
 * rs_stress_reaction.h — a closing constraint's force on a body, as a load
 * of a `stress` component (`load reaction CONSTRAINT at S`,
 * docs/coupled.md).
 *
 * A constraint `constraint NAME = pos(A, P)` of a .vdl is φ = r_P − r_A in
 * ground components (rows NAME.x, NAME.y, NAME.z; a component identically
 * zero is left out).  With M q̈ = δ − φ_qᵀ λ (rs_model.h) its forces do the
 * virtual power −λ·(v_P − v_A): the force −λ acts on the body that holds P
 * (at P) and +λ on the body that holds A (at A), ground components.
 *
 * Which body holds which end is not in the compiled model, so it is read
 * from the model's own functions at bind time: for eight states around
 * the initial one, φ and every body's pose are evaluated and the rows are
 * fitted, in least squares, by
 *
 *     σ φ = (r_B + R_B d_B) − (r_X + R_X d_X)
 *
 * for σ = ±1, X each other body and ground (r = 0, R = I), d_B and d_X
 * constant vectors in the bodies' bases.  A fit to rounding (the functions
 * are exact, a wrong pair misses by the perturbation) says that φ is σ
 * times the position of a point fixed on B relative to a point fixed on X:
 * σ = +1, B holds P and bears −λ; σ = −1, B holds A and bears +λ.  No fit
 * for B (the constraint acts between other bodies, is not a position
 * difference of two body-fixed points, or is not in ground components) is
 * refused at the statement's file:line; fits with both signs (ambiguous)
 * too.  The fitted d_B is where the constraint acts on B, in its base
 * relative to its centre of mass (in the run's summary).
 *
 * Each step the load is then σ_B Rᵀ λ (body base), no allocation.
 */
#ifndef RS_STRESS_REACTION_H
#define RS_STRESS_REACTION_H

#include <stddef.h>
#include "rs_stress.h"
#include "rs_ws.h"

typedef struct rs_stress_reaction {
    int row[3];          /* φ row of the ground x, y, z component (-1: left out, 0) */
    int body;            /* B's row in rs_model.body_names                  */
    double sign;         /* the force on B = sign · λ (ground components)    */
    double at[3];        /* d_B: where it acts, m, B's base, from its centre of mass */
    char other[64];      /* the other body ("ground")                        */
} rs_stress_reaction;

/* Binds load k of spec (a reaction) to ws's model at its current state
 * (which is left as it was).  Errors name the statement's file:line and
 * the fix. */
int rs_stress_reaction_bind(rs_ws *ws, const rs_stress_spec *spec, int k, rs_stress_reaction *r, char *err,
                            size_t errlen);

/* The force on B in its base, N, from the multipliers and the poses of
 * RS_FN_BODY_POSE (12 n_body). */
void rs_stress_reaction_force(const rs_stress_reaction *r, const double *lambda, const double *pose, double f[3]);

#endif /* RS_STRESS_REACTION_H */
