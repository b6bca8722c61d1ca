/*
 * rs_train_contact.h — the wheel-rail contacts of a compiled vehicle in train
 * mode (docs/trains.md "Compliant wheel-rail contact").
 *
 * In a train every vehicle is an ODE: the normal constraint φ^n = 0 of each
 * contact is replaced by a compliant Hertzian normal force.  Per contact and
 * per evaluation at (t, q, q̇):
 *
 *   s      the contact point, by the runtime's own Newton on φ^d(q, s) = 0
 *          with q fixed (rs_contact_solve_s, warm-started from the previous
 *          evaluation; its global search on the first one);
 *   p      = −φ^n, the penetration (φ^n is the gap, positive when the wheel
 *          is above the rail: docs/contact_element.md); ṗ = −φ^n_q q̇;
 *   N      = c_H p^{3/2} + c_N ṗ for p > 0, clamped at ≥ 0; 0 for p ≤ 0
 *          (lift-off allowed); c_H from the Hertz ellipse at the contact's
 *          curvatures (rs_hertz.h): the approach δ = p0 b K(e) / E* of an
 *          elliptical Hertz contact (Johnson, Contact Mechanics §4.2);
 *   f      = −C_b ν, C_b = Kalker's matrix over V_eff (rs_contact_creep's
 *          law; saturated per rs_creep_saturation when mu > 0);
 *
 * and the vehicle's generalized force is F = δ(q, q̇, s, f) + Σ φ^n_qᵀ N
 * with Jacobians (K = −∂F/∂q, C = −∂F/∂q̇)
 *
 *   K = K_δ (delta_jac, f and s held) + Σ N' (φ^n_q + h)ᵀ ⊗ φ^n_q,   N' = 3/2 c_H p^{1/2}
 *   C = C_δ + Σ c_N (φ^n_q + h)ᵀ ⊗ φ^n_q + Σ D_i C_b,i ∂ν_i/∂q̇   (C^K: not symmetric)
 *
 * with h = D ∂f/∂N (creep forces grow with the contact area).  Left out
 * (documented and measured by tests/physics/test_train_contact.c): the geometric
 * stiffness Σ N ∂φ^n_q/∂q (contact-point motion included), the damper's
 * c_N ∂φ^n_q/∂q q̇, the creep terms D C_b ∂ν/∂q, c_H's variation with the
 * curvatures, C_b's with V and the saturation factor's derivatives.
 *
 * Elastic mode (opts.mode, or `mode elastic` in the description; docs/trains.md
 * "Elastic contact in a train"): the contacts are those of a single run's
 * elastic contact (rs_elastic.h: every patch of every wheel, Hertz per patch,
 * the creep law chosen), evaluated by rs_elastic_eval on the instance's own
 * workspace, and
 *
 *   F = δ^NK(q, q̇) + Σ_wheels Jᵀ W,  K = K_δ + Σ Jᵀ K6 J,  C = C_δ + Σ Jᵀ C6 J
 *
 * (δ^NK: δ with the creep force inputs at 0; K_δ, C_δ: delta_jac there; the
 * normal constraints are not used).  Per contact the point values are then
 * the sums over the wheel's patches (N), the deepest penetration, and the
 * creep forces of the patch carrying most.
 *
 * One instance per vehicle: it owns an rs_ws of the model (profiles, track,
 * contact scratch), so instances are evaluated concurrently; nothing
 * allocates after rs_train_wheel_contact_create.
 */
#ifndef RS_TRAIN_CONTACT_H
#define RS_TRAIN_CONTACT_H

#include <stddef.h>

#include "rs_model.h"
#include "rs_plugin.h"
#include "rs_ws.h"

typedef struct rs_train_wheel_contact rs_train_wheel_contact;

typedef struct rs_train_wheel_contact_opts {
    const char *dir;      /* folder the model's profile/track names are relative
                             to (NULL or "": the working directory)            */
    const char *track;    /* non-NULL: replaces every contact's track file     */
    double E, nu;         /* wheel and rail steel: 2.1e11 Pa, 0.28             */
    double c_damp;        /* c_N, normal damping per contact [N s/m], 1e5      */
    double mu;            /* friction coefficient; 0: Kalker linear, unbounded */
    double vmin;          /* V_eff = sqrt(V² + vmin²) [m/s], 0.01              */
    double tol;           /* |φ^d| of the contact-point Newton, 1e-12          */
    int creep;            /* 1: creep forces; 0: frictionless                  */
    int mode;             /* RS_TRAIN_CONTACT_MODEL: as the model's description
                             says (`mode elastic` on every contact: elastic,
                             on none: compliant); _COMPLIANT, _ELASTIC         */
    int law;              /* elastic only: creep law, rs_creep_law (0 Kalker,
                             1 FASTSIM, 2 Polach; the last two need mu > 0)    */
    int normal;           /* elastic only: normal law, rs_normal_law (0: the
                             contact's own, strips; RS_NORMAL_POINT the point
                             law; the train file's `normal point|strips`)     */
    const double *E_each, *nu_each, *mu_each; /* per contact (n_contact values,
                             the model's contact order; NaN entries or NULL:
                             E, nu, mu above); copied at create               */
    double climb_time;    /* elastic: how long Y/Q must stay at Nadal's limit
                             to be flange climbing (s, >= 0; rs_climb.h), 0.05 */
    int derail_continue;  /* elastic: 1: a derailment is reported and the run
                             goes on; 0 (default): it stops the run
                             (rs_train_wheel_contact_events)                   */
    int events_given;     /* 1: the caller set climb_time or derail_continue
                             (the train file's lines): refused for the
                             compliant contact, which reports no events       */
    const rs_plugin_api *const *plugins; /* the model's user plugins' tables
                             (rs_options.plugins; NULL: none), borrowed for the
                             instance's life                                   */
} rs_train_wheel_contact_opts;

enum { RS_TRAIN_CONTACT_MODEL = 0, RS_TRAIN_CONTACT_COMPLIANT = 1, RS_TRAIN_CONTACT_ELASTIC = 2 };

void rs_train_wheel_contact_opts_default(rs_train_wheel_contact_opts *o);

/* Per contact, from the last evaluation. */
typedef struct rs_train_wheel_contact_point {
    double pen, pen_dot;  /* p = −φ^n [m], ṗ [m/s]                            */
    double c_hertz;       /* c_H [N/m^1.5] (0 when p ≤ 0)                      */
    double N;             /* normal force [N]                                  */
    double k_n;           /* dN/dp used in K [N/m]                             */
    double f[3];          /* creep force fx, fy [N] and spin moment mz [N m]   */
    double v_eff;         /* sqrt(V² + vmin²), the creepages' denominator [m/s] */
    double Q;             /* elastic: the wheel's load, its force along the
                             track's up [N] (compliant: 0)                     */
} rs_train_wheel_contact_point;

/* Model m must have contacts and delta_jac.  p: n_p values (NULL: defaults). */
int rs_train_wheel_contact_create(rs_train_wheel_contact **out, const rs_model *m, const double *p, const rs_train_wheel_contact_opts *o,
                       const rs_allocator *alloc, char *err, size_t errlen);
void rs_train_wheel_contact_free(rs_train_wheel_contact **tc);
/* The workspace that evaluates the model (its inputs: the internal states'
 * and the plugins' slots; rs_train_model.c). */
struct rs_ws *rs_train_wheel_contact_ws(rs_train_wheel_contact *tc);

/* M (n × n), F += force, K += −∂F/∂q, C += −∂F/∂q̇ (dense column-major,
 * any may be NULL) at (t, q, q̇).  RS_OK, or an rs_status code with
 * rs_train_wheel_contact_error saying why (contact-point Newton, Hertz, a model
 * function).  Allocation-free. */
int rs_train_wheel_contact_eval(rs_train_wheel_contact *tc, double t, const double *q, const double *qd, double *M, double *F, double *K,
                     double *C);

/* After the integrator's solve (rs_park.h after_fn) moved the last
 * evaluation's state by δq (dq, n values) and q̇ by δq/β (ib = 1/β): the
 * elastic contact applies each patch's force linearized to that end
 * (rs_elastic_applied; the results' Q, Y then say what the step applied).
 * With may_open, a patch that would pull opens: returns 1, and the next
 * rs_train_wheel_contact_eval (the same state, for the solve again) uses
 * the wheels as they are then, without it.  0: nothing changed (and always
 * for the compliant contact); < 0: a status, rs_train_wheel_contact_error
 * says why.  Allocation-free. */
int rs_train_wheel_contact_after_solve(rs_train_wheel_contact *tc, const double *dq, double ib, int may_open);

/* Once the integrator's step is final (rs_train_step, after rs_park_step;
 * the last after-solve gave each wheel the wrench it applied): the elastic
 * contact's flange climbing and derailment for the step h long ending at
 * t_end, as a single run judges them (rs_elastic_events; docs/runtime.md
 * "Events").  Each event that starts goes to fn (NULL: none) with ctx and
 * `stops`: 1 for a derailment unless opts.derail_continue.  RS_OK (also
 * for the compliant contact, which has no events), or RS_E_DERAILED when
 * an event stops the run: rs_train_wheel_contact_error then names the
 * contact, the event, its time and Y/Q.  Allocation-free. */
typedef void (*rs_train_event_fn)(void *ctx, const struct rs_contact_event *e, int stops);
int rs_train_wheel_contact_events(rs_train_wheel_contact *tc, double t_end, double h, rs_train_event_fn fn,
                                  void *ctx);

/* Contact quantities for results (docs/trains.md "contact_outputs"): k in
 * [0, RS_CONTACT_VAR_STRIDE) is a single run's "<contact>.<suffix>"
 * (RS_CONTACT_VAR_* and the patch quantities, rs_ws.h), read from the
 * instance's workspace by rs_ws_value, the single run's own code;
 * RS_TRAIN_CONTACT_FX, _FY: the creep forces of the point values below. */
enum { RS_TRAIN_CONTACT_FX = RS_CONTACT_VAR_STRIDE, RS_TRAIN_CONTACT_FY, RS_TRAIN_CONTACT_QCOUNT };
/* Quantity k's name ("Y_Q", "p2.u_w", "fx") into buf; "" outside. */
const char *rs_train_contact_quantity_name(int k, char *buf, size_t n);
/* The quantity a name means, or -1. */
int rs_train_contact_quantity(const char *name);
/* Quantity k of contact i at the last evaluation.  Compliant contacts:
 * patches 1, the patch quantities NaN, N, Y, Q, Y_Q and the creepages of
 * its one point (as a single run's constraint contact). */
double rs_train_wheel_contact_value(const rs_train_wheel_contact *tc, int i, int k);

int rs_train_wheel_contact_count(const rs_train_wheel_contact *tc);
const rs_train_wheel_contact_point *rs_train_wheel_contact_point_get(const rs_train_wheel_contact *tc, int i);
const char *rs_train_wheel_contact_name(const rs_train_wheel_contact *tc, int i);
const char *rs_train_wheel_contact_error(const rs_train_wheel_contact *tc);
/* 1 when the contacts are elastic (rs_elastic.h), 0 compliant. */
int rs_train_wheel_contact_elastic(const rs_train_wheel_contact *tc);
/* g = ∂δ/∂f_i f_i: contact i's creep forces as generalized forces (n
 * values), at the last evaluation (zeros in elastic mode, whose creep
 * forces are in the wheel's wrench). */
void rs_train_wheel_contact_creep_gen(const rs_train_wheel_contact *tc, int i, double *g);
/* φ^n_q of contact i at the last evaluation (n values). */
const double *rs_train_wheel_contact_gap_q(const rs_train_wheel_contact *tc, int i);
double *rs_train_wheel_contact_params(rs_train_wheel_contact *tc);   /* n_p values (read them only) */

/* c_H of a Hertz contact with the radii (R_x^w, R_y^w, R_y^r) (rs_hertz.h
 * signs), N = c_H p^{3/2}; the semi-axes at N = 1 N into a1, b1 (may be
 * NULL).  Returns c_H > 0, or a negative rs_hertz code. */
double rs_train_wheel_contact_hertz_stiffness(const double radii[3], double E, double nu, double *a1, double *b1);

#endif /* RS_TRAIN_CONTACT_H */
