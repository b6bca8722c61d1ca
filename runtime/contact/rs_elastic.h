/*
 * rs_elastic.h — the elastic multi-point wheel-rail contact as a workspace
 * plug-in (issue 20; docs/runtime.md "Elastic contact").
 *
 * Beside the seed's constraint contact (rs_contact.h: one point per wheel
 * held by the normal constraint φ^n), this contact treats each wheel as a
 * rigid body of revolution pressed into its rail:
 *
 *   - the generated RS_FN_WHEEL (or RS_FN_STEP_ELASTIC, which also writes M
 *     and δ^NK, when the step's combined function runs) gives per contact
 *     the wheel centre O_w, the non-spinning base (its y axis the axle),
 *     v(O_w), ω and their Jacobian J = ∂(v, ω)/∂q̇ (6 × n_q, sparse), r0
 *     and the rail offset h_r;
 *   - the track (the contact table's track file, or the straight level track)
 *     gives the cross-section at the wheel centre's projection; the rail
 *     profile's origin sits at h_r from the centre line on the wheel's side;
 *   - rs_patch_find gives every patch where wheel and rail overlap (tread and
 *     flange at once);
 *   - per patch its elastic force integrated over its wheel slices, each
 *     pressing along its own normal, the gradient of one elastic energy
 *     (the strip law, the default; rs_strip_table.h; docs/contact.md
 *     "Normal law: strips"), with the wheel's normal damping c_n =
 *     contact_damp shared by stiffness; or, with RS_NORMAL_POINT, a
 *     Hertzian normal force N = k c_H p^{3/2} + c_n ṗ per minimum of the gap
 *     (clamped at >= 0; c_H from the patch's curvatures,
 *     rs_hertz_approach_law; k = rs_options.contact_k_scale) along the rail
 *     normal;
 *     and creep forces (Kalker's linear law on the patch's Hertz ellipse,
 *     saturated at μ N when contact_mu > 0) in the patch's contact base;
 *   - the wrench W (force and moment about O_w) of all patches of a wheel
 *     acts through Jᵀ W, and its Jacobians C6 = −∂W/∂(v, ω) (creep and
 *     normal damping) and K6 = −∂W/∂(pose) (normal stiffness) enter the IMEX
 *     step linearly implicitly:
 *       (M + Δt Jᵀ C6 J + θ Δt²/2 Jᵀ K6 J) q̇⁺ = M q̇ + Δt δ^NK
 *                                   + Δt Jᵀ (W + C6 J q̇ − θ Δt/2 K6 J q̇)
 *     (the step's q⁺ = q + Δt (q̇ + q̇⁺)/2 makes the position change
 *     Δt (q̇ + q̇⁺)/2; the stiffness is linearized at θ of it:
 *     rs_options.contact_theta — 1 dissipative for the contact vibrations
 *     a 1 ms step cannot resolve, 0.5 the trapezoidal rule, which conserves
 *     a linear contact's energy; by default the normal law's own,
 *     rs_elastic_theta below).  Left out of K6: the change of the contact point, the
 *     normal's turning and the creep forces' dependence on the pose
 *     (geometric stiffness), documented and measured by the tests.
 *
 * Lift-off is a state: a wheel without patches carries nothing.  Nothing
 * allocates after rs_elastic_create.
 */
#ifndef RS_ELASTIC_H
#define RS_ELASTIC_H

#include "rs_contact_ops.h"
#include "rs_patch.h"

/* The elastic contact of this folder as the workspace's plug-in: set
 * rs_options.contact to it (the model must have RS_FN_WHEEL, and no
 * constraints other than its contacts' normal ones). */
const rs_contact_ops *rs_elastic_contact(void);

/* The contact implementation a model's description asks for: the elastic
 * one when every contact of m says `mode elastic`, the constraint one
 * (rs_wheel_rail_contact()) when none does; NULL when they are mixed (not
 * supported: one mode per run). */
const rs_contact_ops *rs_contact_for_model(const rs_model *m);

/* θ of the step's stiffness term (above) for options o: contact_theta when
 * set (in [0.5, 1]), else (0, the default) the normal law's own —
 * RS_THETA_POINT for the point law, RS_THETA_STRIPS for the strip law
 * (docs/contact.md "θ for the strip law (session 41)").  The workspace
 * resolves it once, at creation: rs_ws_options then shows the value used. */
#define RS_THETA_POINT 1.0  /* its FEVE flange bounce at 1 ms within 2 % at θ 1 */
#define RS_THETA_STRIPS 1.0 /* θ 1 damps the FEVE's flange bounce (about 10 ms
                               a bounce) to peaks 18-22 % low at 1 ms; 0.65
                               brings them within 2 %, but at 1 ms lets a
                               two-axle wagon in R 150 m (test_outsider_
                               curving) derail falsely for any θ <= 0.8: the
                               scenario's `theta` chooses (session 41) */
double rs_elastic_theta(const struct rs_options *o);

/* Patch j (< RS_PATCH_MAX) of contact i after the last step's start:
 * geometry (rs_patch), forces and creepages.  NULL if j is not active. */
/* One quadrature node of a patch under the strip law (the default:
 * rs_options.contact_normal 0 or RS_NORMAL_STRIPS): its force kw dn (+ its
 * share of the damping) along n at lever r; its elastic energy kw dn² / 2. */
typedef struct rs_elastic_strip {
    double r[3], n[3]; /* lever from O_w and the rail normal, ground frame   */
    double ra;         /* the rail's approach per metre along the track      */
    double kw;         /* stiffness along n (N/m): weight × strip stiffness  */
    double dn;         /* the slice's overlap along n (m), >= 0              */
} rs_elastic_strip;

typedef struct rs_elastic_patch {
    rs_patch g;        /* geometry in the rail frame (rs_patch.h); its
                          u_lo, u_hi only bracket the patch within the
                          search's grid (rs_patch_opts.ends = 0)             */
    double N;          /* normal force on the wheel (N)                      */
    double xi[3];      /* creepages ξ_x, ξ_y (1), spin φ (1/m)              */
    double f[3];       /* creep forces f_x, f_y (N), spin moment m_z (N m)  */
    double a, b;       /* Hertz semi-axes (m), 0 when N = 0                  */
    double c_hertz;    /* N = c_H p^{3/2} (N/m^1.5), scale included; the
                          strip law: the equivalent Hertz law's (the same
                          elastic force and stiffness), g.pen its approach  */
    double r[3], n[3]; /* lever from O_w to the contact point and the normal
                          (into the wheel), ground frame                      */
    double ra;         /* the rail's approach per metre along the track      */
    double kn, cn;     /* the normal force's stiffness and damping (step)    */
    double ge[6];      /* dp = −ge·dx6 (the approach's Jacobian)             */
    int open;          /* 1: the step's solve made it pull; taken out of the
                          step (N, f, ξ reported 0: lift-off)                */
    rs_elastic_strip s[RS_PATCH_NODES]; /* the strip law's nodes (g.nn of
                          them; none under the point law)                    */
} rs_elastic_patch;

struct rs_ws;
int rs_elastic_patches(const struct rs_ws *ws, int i);
/* How often the last step solved its system (1; more where a patch opened
 * or a wheel's wrench was linearized again at the step's end:
 * docs/runtime.md "What a step does"). */
int rs_elastic_step_solves(const struct rs_ws *ws);
const rs_elastic_patch *rs_elastic_patch_get(const struct rs_ws *ws, int i, int j);

/* Elastic potential energy stored in every patch of every contact (J):
 * Σ 2/5 c_H p^{5/2} at the current state (it evaluates the contacts there,
 * so the patch results then describe the current state too), for energy
 * balances; NaN if the evaluation fails (rs_ws_error says why). */
double rs_elastic_energy(struct rs_ws *ws);

/* The results above (Q, Y, patches, creepages) describe the state at the
 * start of the last step; Q and Y are the forces that step applied (each
 * patch's linearized to the step's end), and a patch that the step's solve
 * made pull is open: taken out of the step, N, f, ξ 0 (docs/runtime.md). */

/* ---- the wheels for another integrator (train mode, rs_train_contact.h) --
 *
 * rs_elastic_eval evaluates every wheel of ws (a workspace created with
 * rs_options.contact = rs_elastic_contact()) at (t, q, q̇): RS_FN_WHEEL, the
 * patches, and per wheel the wrench W and its Jacobians K6, C6, exactly as
 * the IMEX step does at a step's start.  Its first call also runs the input
 * checks (the track's gauge, each wheel-rail pair).  q and q̇ are copied into
 * the workspace.  RS_OK, or a status with rs_ws_error saying why.
 * Allocation-free.  The contact results (rs_elastic_patch_get, Q, Y) then
 * describe this state.
 *
 * The wheel's generalized force is Jᵀ W, and with K = −∂F/∂q, C = −∂F/∂q̇
 * its Jacobians are Jᵀ K6 J and Jᵀ C6 J (the same parts of K6 left out as
 * in the step: see the top of this file). */
int rs_elastic_eval(struct rs_ws *ws, double t, const double *q, const double *qd);

typedef struct rs_elastic_wheel_state {
    int m;              /* coordinates J touches                              */
    const int *cols;    /* their indices (m, increasing)                      */
    const double *J;    /* ∂(v(O_w), ω)/∂q̇ over them: 6 × m, column-major,
                           J[6 l + k] the k-th row of coordinate cols[l]      */
    const double *W;    /* 6: force on the wheel, moment about O_w (ground)   */
    const double *K6;   /* 6 × 6 row-major: −∂W/∂(pose), normal stiffness     */
    const double *C6;   /* 6 × 6 row-major: −∂W/∂(v, ω), damping and creep    */
    const double *up;   /* 3: the track's up direction at the wheel           */
    const rs_patch_hint *hint; /* its patch search's hint (bound tables made
                           at initialization: rs_patch_hint_prepare)          */
} rs_elastic_wheel_state;

/* Wheel i (< the model's n_contact) after the last evaluation (pointers
 * into the workspace, valid until it is freed). */
void rs_elastic_wheel_get(const struct rs_ws *ws, int i, rs_elastic_wheel_state *out);

/* Another integrator's solve (train mode: Park's corrector, rs_park.h) moved
 * the state from the last evaluation by δq (dq: n_q values) in q and δq/β in
 * q̇ (ib = 1/β), and applies each patch's force linearized to that end,
 * W − K6 J δq − C6 J δq/β.  With may_open, a patch whose normal force
 * linearized so would pull opens (N, f, ξ 0, as in the single step:
 * rs_elastic_patch.open) and its wheel's W, K6, C6 are summed again
 * without it (rs_elastic_wheel_get then gives them); *opened says whether
 * any did: the caller then solves again with them.  Each wheel's force is
 * then the one applied (the results' Q and Y).  No events here: the
 * caller reports them once its step is final (rs_elastic_events).  RS_OK
 * or a status (rs_ws_error says why); allocation-free. */
int rs_elastic_applied(struct rs_ws *ws, const double *dq, double ib, int may_open, int *opened);

/* After another integrator's step is final (train mode: once rs_park_step
 * has returned; its last rs_elastic_applied gave each wheel's applied
 * wrench): each wheel's flange climbing and derailment, judged as a single
 * run's step judges them (docs/runtime.md "Events": Nadal's limit at the
 * steepest loaded patch held for rs_options.contact_climb_time, the contact
 * past the flank, a wheel off its rail) for the step dt long ending at
 * t_end, each event that starts passed to rs_options.contact_event, then
 * the wheels' climb and derailment flags committed.  RS_E_DERAILED (the
 * message in rs_ws_error) when the callback asks to stop: then nothing is
 * committed.  Allocation-free, O(n_contact). */
int rs_elastic_events(struct rs_ws *ws, double t_end, double dt);

/* The contact's term of the step matrix as a step assembles it after the
 * last evaluation, Σ_wheels Jᵀ (h C6 + θ h²/2 K6) J (θ = contact_theta),
 * into K: dense n_q × n_q, column-major (a check for tests: the wheels of
 * one wheelset are summed through one J). */
void rs_elastic_step_matrix(struct rs_ws *ws, double h, double *K);

/* Writes the profile spline inputs of ws's contacts at its auxiliary
 * coordinates s (0: the nominal contact point), once after creating it.
 * The elastic contact never reads them, but a generated function that
 * takes them — delta_jac, whose creep-force terms are 0 × the contact
 * geometry here — is NaN where they are 0 (zero radii). */
void rs_elastic_fill_splines(struct rs_ws *ws);

#endif /* RS_ELASTIC_H */
