/*
 * rs_linear_impl.h — private to rs_linear*.c: one evaluation context at a
 * state, shared by the linearization (rs_linear.c) and the track inputs of
 * the frequency responses (rs_linear_frf.c), so both differentiate the same
 * forces: the creep forces f = −Cb ν with the creep blocks held at the
 * steady state, and the normal forces' φ_qᵀ λ0.
 */
#ifndef RS_LINEAR_IMPL_H
#define RS_LINEAR_IMPL_H

#include "rs_linear.h"
#include "rs_ws_impl.h"

/* Central-difference step in q [m, rad] and in the rail's displacement: the
 * truncation error h² times the third derivative stays near 1e-12 of the
 * stiffness for geometry of metre scale, the rounding error ε/h near 1e-10
 * of it. */
#define RS_LINEAR_FD_H 1e-6

typedef struct rs_linear_ctx {
    rs_ws *ws;
    const rs_model *m;
    int n, nphi, nc;
    double *phiq_v;      /* φ_q values (phi_q_pattern)                     */
    double *creep[RS_FN_MAX_OUT]; /* RS_FN_CREEP outputs                   */
    double *Cb;          /* 9 nc: creep blocks held at the steady state     */
    double *fsave;       /* 3 nc: the creep force inputs as they were       */
    /* nc: the steady state's normal loads.  Where set, rs_linear_creep_force
     * re-forms each creep block at the displaced state's curvature radii and
     * reference speed V (the load held at N0: its variation is
     * rs_linear_load.c's), as the run's step does: with the steady spin
     * creepage of a 1:40 contact angle, Cb ∝ 1/V and Cb(radii) change f to
     * first order (issue 22); NULL: Cb held. */
    const double *N0;
} rs_linear_ctx;

/* Re-solves the contact points at ws->q (no-op without contacts) and binds
 * the state for the model functions. */
int rs_linear_resolve(rs_linear_ctx *L);
/* g = φ_q(q)ᵀ λ at ws->q (contact points re-solved). */
int rs_linear_phiq_t_lambda(rs_linear_ctx *L, const double *lam, double *g);
/* The creep forces' generalized force F = D f, f = −Cb ν, at ws->q, q̇
 * (contact points re-solved, Cb held, or re-formed where L->N0 is set); also
 * f into fout (3 nc) if given. */
int rs_linear_creep_force(rs_linear_ctx *L, double *F, double *fout);

/* The internal states' terms of sys (nz, Kz, Zq, Zv, Zb; rs_linear_z.c) at
 * ws->q, ws->qd as they are, the force inputs as L's caller set them; q,
 * q̇ and z are restored after it. */
int rs_linear_z_terms(rs_linear_ctx *L, rs_linear_system *sys, int fn_delta);

/* The creep forces' variation with the normal loads (rs_linear_load.c):
 * sys->T, sys->ES, and K, C, Kz multiplied by T; at q0 with sys->M, G,
 * lambda0 filled. */
int rs_linear_load_terms(rs_linear_ctx *L, rs_linear_system *sys);

/* rs_linear_system_at, then fn(L, sys, user, ...) at q0 with the contact
 * points solved and the creep blocks of the steady state in L (fn may move
 * q, s and the contact inputs: they are restored after it). */
typedef int (*rs_linear_at_fn)(rs_linear_ctx *L, const rs_linear_system *sys, void *user, char *err,
                               size_t errlen);
int rs_linear_system_at_ex(rs_ws *ws, rs_linear_system *sys, rs_linear_at_fn fn, void *user, char *err,
                           size_t errlen);

#endif /* RS_LINEAR_IMPL_H */
