/*
 * rs_equilibrium.h — the static equilibrium of a model before a run: the
 * scenario statement `equilibrium [COORD...]` (docs/scenario.md, "Static
 * equilibrium").
 *
 * At rest (every q̇ = 0 during the solve) the equations of motion
 * M q̈ = δ − φ_qᵀλ, φ = 0 reduce to
 *
 *     r_F(q, λ) = δ_F(q) − φ_q,Fᵀ λ = 0,    φ(q) = 0
 *
 * over the solved coordinates F (the others are held as given).  Newton on
 * (q_F, λ), with the augmented matrix
 *
 *     [ K_FF + H    κ φ_q,Fᵀ ] [ Δq_F ]   [ r_F + φ_q,Fᵀ λ ]
 *     [ κ φ_q,F     0        ] [ λ'/κ ] = [ −κ φ          ]     (λ' = the new λ)
 *
 * K = −∂δ/∂q from the model's generated delta_jac (exact); H = ∂(φ_qᵀλ)/∂q,
 * the geometric stiffness of the constraint forces (a wheelset's
 * gravitational stiffness on its profiles), by forward differences of φ_q
 * (the contact points re-solved at each perturbed q); κ scales the
 * multipliers to K's size so that the matrix is well balanced.  The first λ
 * is the least-squares fit of δ_F by φ_q,Fᵀλ.
 *
 * Globalised (rs_equilibrium.c, newton()): the full Newton step is taken
 * where it lowers the merit max(|r_F|, κ|φ|); else, with constraints, the
 * step with a second-order correction (back onto φ = 0 with the same
 * factorization: a contact constraint curved within the step); else the
 * step (cut to RS_EQUILIBRIUM_NEWTON_LIMIT times the step limits) halved (RS_EQUILIBRIUM_HALVINGS times); else the solve goes on with
 * damped steps, K + μ diag(M) (pseudo-transient continuation: each step a
 * short implicit step of the bodies from rest under the residual forces, so
 * that a near-singular stiffness — wheels not yet loaded — gives no step of
 * metres), each cut to the step limits RS_EQUILIBRIUM_STEP_M / _RAD per
 * coordinate (m, rad: no jump across a flangeway) and taken; μ follows the
 * residual (down to plain Newton as it falls, up where it grows).  A μ past
 * RS_EQUILIBRIUM_DAMPMAX is a stall: the forces jump at that state.
 * Converged: |r_F| ≤ tol · scale and |φ| ≤ the projection tolerance, or
 * |r_F| ≤ NOISE_CEIL · scale with the residual within NOISE_FACTOR of its
 * measured noise and a Newton step below NOISE_DQ (the elastic patch forces
 * are resolved only to ~1e-7 of a wheel load; below).  A
 * coordinate whose column breaks the factorization at an iterate (no
 * stiffness yet: unloaded elastic wheels hold nothing laterally) is held
 * for that step; at the solution the matrix is factored once more without
 * that, and a breakdown there is the "no stiffness" error.
 *
 * Contacts: with the constraint contact the contact points s are solved
 * (rs_contact_ops.solve_s) at every q, and δ is δ^NK (no creep force at
 * rest); with the elastic contact the wheels' forces Jᵀ W and stiffness
 * Jᵀ K6 J (rs_elastic_eval) are added to δ and K.
 *
 * Internal states z (ż = a(q, q̇) + b z, RS_FN_ZDOT): at every iterate each
 * z is set to its rest value −a(q, 0)/b (one exact step: ż is linear in
 * z), and K gets the term −∂δ/∂z dz/dq (central differences), so Newton
 * solves for q with z following it.  On failure z is restored with q.
 *
 * Not for real-time threads: it allocates (once, before the run).
 */
#ifndef RS_EQUILIBRIUM_H
#define RS_EQUILIBRIUM_H

#include <stddef.h>

#include "rs_log.h"
#include "rs_ws.h"

#define RS_EQUILIBRIUM_TOL 1e-10      /* |r_F| ≤ tol · the largest |δ_F| (at least 1 N) */
#define RS_EQUILIBRIUM_MAXITER 200    /* damped steps may take ~100 (a vehicle settling on unloaded wheels) */
#define RS_EQUILIBRIUM_HALVINGS 3     /* halvings of the Newton step, then the damped steps        */
#define RS_EQUILIBRIUM_STEP_M 2e-3    /* a limited step moves a coordinate in m at most this [m] */
#define RS_EQUILIBRIUM_STEP_RAD 2e-3  /* ... one in rad [rad]                                    */
#define RS_EQUILIBRIUM_NEWTON_LIMIT 10 /* a Newton step is cut to this × the step limits (20 mm, 20 mrad) */
#define RS_EQUILIBRIUM_PLAIN_MAXITER 50   /* the plain Newton, tried when the globalised one fails */
#define RS_EQUILIBRIUM_PLAIN_HALVINGS 12
#define RS_EQUILIBRIUM_DAMP0 1e-3     /* the first damping μ, × max K_ii / max M_ii               */
#define RS_EQUILIBRIUM_DAMPMAX 1e8    /* beyond it, × the same: the forces jump (stalled)           */
/* Converged to the forces' resolution (docs/scenario.md, "Static
 * equilibrium"): where |r_F| ≤ NOISE_CEIL · the largest |δ_F| but above
 * tol, the residual's noise is measured by NOISE_SAMPLES evaluations at q
 * moved by NOISE_STEP (× max(1, |q|), signs alternating) less the change
 * the stiffness predicts; |r_F| ≤ NOISE_FACTOR × that noise, with a Newton
 * step below NOISE_DQ (m, rad), is the solution. */
#define RS_EQUILIBRIUM_NOISE_CEIL 1e-6
#define RS_EQUILIBRIUM_NOISE_SAMPLES 3
#define RS_EQUILIBRIUM_NOISE_STEP 1e-12
#define RS_EQUILIBRIUM_NOISE_FACTOR 4.0
#define RS_EQUILIBRIUM_NOISE_DQ 1e-8

typedef struct rs_equilibrium_opts {
    const int *coords;   /* the coordinates solved for (indices into q); */
    int n_coords;        /* NULL/0: rs_equilibrium_default_coords          */
    double tol;          /* 0: RS_EQUILIBRIUM_TOL                          */
    int max_iter;        /* 0: RS_EQUILIBRIUM_MAXITER                      */
    const rs_log *log;   /* a line per iteration and one at the end (NULL: none) */
    int keep_velocities; /* 1: every velocity stays as given (a rolling vehicle:
                            `speed` set the steady-curving ẏ, yaw and roll
                            rates of the solved coordinates); 0: those of the
                            solved coordinates end 0 (at rest)              */
} rs_equilibrium_opts;

typedef struct rs_equilibrium_report {
    int iterations;      /* Newton iterations taken                        */
    double residual;     /* final max |r_F| [N, N m]                       */
    double scale;        /* the force scale the tolerance is relative to   */
    double phi;          /* final max |φ|                                  */
    double noise;        /* the residual's measured noise (0: not measured) */
    double step;         /* the last Newton step's max |Δq_F| [m, rad] where measured */
    int noise_limited;   /* 1: converged to the noise (above tol · scale)  */
} rs_equilibrium_report;

/* Every coordinate except the forward ones (`x`, `*.x`) and the spins
 * (`spin`, `*.spin`), which a running vehicle keeps as given.  Writes the
 * indices into idx (n_q entries) and returns their number. */
int rs_equilibrium_default_coords(const rs_model *m, int *idx);

/* Moves the coordinates chosen to the static equilibrium.  ws: a workspace
 * with its parameters, state and inputs set (rs_binding_apply), before
 * rs_ws_init (it leaves the workspace to be initialized again).  Velocities
 * of the solved coordinates end 0 (unless opts->keep_velocities), the
 * others' as they were.  On success
 * λ (rs_ws_lambda) holds the equilibrium multipliers.  On failure the state
 * is left as it was and err says why: no convergence (the largest residual
 * entries by coordinate name), a singular matrix (the coordinate without
 * stiffness — usually a free rigid-body mode such as a longitudinal x — and
 * how to exclude it), a model without delta_jac. */
int rs_equilibrium(rs_ws *ws, const rs_equilibrium_opts *opts, rs_equilibrium_report *rep, char *err,
                   size_t errlen);

#endif /* RS_EQUILIBRIUM_H */
