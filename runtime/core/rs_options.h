/*
 * rs_options.h — how a workspace runs: the integration method, step size,
 * tolerances, the sparse LU's ordering, the speed-ups, the allocator, the
 * input callback and the contact implementation (rs_ws_create's options).
 * Split from rs_ws.h so the solver layers (rs_klu.h) can name an ordering
 * without seeing the workspace.
 */
#ifndef RS_OPTIONS_H
#define RS_OPTIONS_H

#include <stddef.h>
#include "rs_alloc.h"   /* rs_allocator: the allocation contract */
#include "rs_contact_ops.h"
#include "rs_plugin.h"

typedef enum rs_method {
    RS_IMEX_EULER = 0,   /* seed 003 §4: velocity-implicit system, trapezoidal q */
    RS_RK4 = 1           /* classical RK4 on the index-1 form, for accuracy checks */
} rs_method;

/* Fill-reducing orderings of the sparse LU (KLU), rs_options.klu_ordering. */
typedef enum rs_klu_ordering {
    RS_KLU_AUTO = -1,    /* try the candidates at rs_ws_init, keep the robust one
                            with the fewest flops (deterministic)         */
    RS_KLU_AMD = 0,      /* approximate minimum degree on A + Aᵀ               */
    RS_KLU_COLAMD = 1,   /* column approximate minimum degree on AᵀA           */
    RS_KLU_NATURAL = 2,  /* the pattern's own order                            */
    RS_KLU_AMD_SCHUR = 3,/* AMD on the coordinates' block alone, multipliers
                            last: diagonal pivots on M (+ΔtC), then the dense
                            Schur complement −Δt φ_q A⁻¹ φ_qᵀ                */
    RS_KLU_TREE = 4      /* the bodies' tree: coordinates children first (the
                            model's order reversed), each multiplier right
                            after the branch that holds its constraint (a
                            wheel's contact after its wheelset): diagonal
                            pivots, no dense Schur block (rs_klu.c)       */
} rs_klu_ordering;

/* Candidates of RS_KLU_AUTO: index 2·ordering + btf. */
#define RS_KLU_CANDIDATES 10

/* Called at each time the model is evaluated (step start, RK4 stages) to
 * fill the inputs u[0..n_u).  Return 0, or non-zero to fail the step. */
/* A wheel-rail event (rs_options.contact_event; the elastic contact).
 * FLANGE_CLIMB: a wheel in flange contact (a patch's contact angle above
 * 45°) has Y/Q at Nadal's limit (tan α − μ)/(1 + μ tan α) at its flange
 * angle α (the steepest slope of the wheel profile; needs contact_mu > 0);
 * DERAILMENT: that flange contact moved past the flange's steepest point
 * towards the flange tip (the wheel rides up onto the rail head), or a
 * wheel with no contact is no longer above its rail (off > 0). */
enum { RS_EVENT_FLANGE_CLIMB = 1, RS_EVENT_DERAILMENT = 2 };
typedef struct rs_contact_event {
    int kind;            /* RS_EVENT_*                                        */
    int contact;         /* index in the model's contact table                */
    double t;            /* time at the end of the step that saw it (s)       */
    double Y_Q;          /* the wheel's Y/Q then                              */
    double limit;        /* Nadal's limit at alpha (0 when μ = 0)             */
    double alpha;        /* the wheel's flange angle (rad)                    */
    double u_w;          /* wheel profile coordinate of the steepest patch (m) */
    double t_start;      /* flange climbing: the start of the exceedance
                            that became the climb (t − t_start ≥
                            contact_climb_time, rs_climb.h, unless
                            by_derailment); = t for a derailment event    */
    double off;          /* DERAILMENT of a wheel with no contact left: how far
                            it is off its rail (its flange's steepest point
                            past the rail's crown, or its tread's field end
                            inside it) [m]; 0 for a flange derailment      */
    int by_derailment;   /* FLANGE_CLIMB: 1 when reported with a derailment
                            before Y/Q had held the limit for
                            contact_climb_time (t − t_start is less, 0 when
                            Y/Q was below the limit): the derailment shows
                            the climb (rs_climb.h); else 0                */
} rs_contact_event;

typedef int (*rs_input_fn)(void *ctx, double t, double *u, int n_u);

/* The elastic contact's normal laws (rs_options.contact_normal).  0 (the
 * options' default) leaves the choice to the contact: the strip law for the
 * elastic contact; the constraint contact has none (it holds one point). */
typedef enum rs_normal_law { RS_NORMAL_DEFAULT = 0, RS_NORMAL_POINT = 1, RS_NORMAL_STRIPS = 2 } rs_normal_law;

typedef struct rs_options {
    rs_method method;     /* default RS_IMEX_EULER                          */
    double dt;            /* step [s], default 1e-3                         */
    double proj_tol;      /* max |φ| [constraint units] and max |φ_q q̇ − β|
                             accepted after projection, default 1e-6         */
    int proj_maxiter;     /* Newton iterations of the position projection,
                             default 10 (0: only check the residual)         */
    int project_initial;  /* rs_ws_init projects the initial state, default 1 */
    double rcond_min;     /* below this after a fresh factorization: singular,
                             default 1e-14                                   */
    double rcond_drop;    /* refactor's rcond below rcond_drop × rcond of the
                             last full factorization: factor again, default 1e-3 */
    double rgrowth_drop;  /* refactor's reciprocal pivot growth (klu_rgrowth)
                             below rgrowth_drop × its value at the last full
                             factorization: factor again, default 1e-3
                             (0: not checked)                               */
    int klu_ordering;     /* rs_klu_ordering, default RS_KLU_AUTO            */
    int klu_btf;          /* BTF pre-ordering: -1 (default) AUTO tries both
                             and a fixed ordering uses none, 0 off, 1 on     */
    int klu_trials;       /* AUTO: rounds of refactor + solve timed per
                             candidate (the fastest counts), default 20      */
    int check_finite;     /* check state and model outputs for NaN/Inf each
                             step, default 1                                 */
    rs_allocator allocator;   /* {0}: calloc/free; contract in rs_alloc.h   */
    rs_input_fn input;    /* NULL: inputs stay as set by the caller          */
    void *input_ctx;
    /* Wheel-rail contact (models with n_contact > 0 only). */
    const rs_contact_ops *contact; /* the implementation (rs_contact_ops.h):
                                 rs_wheel_rail_contact() of runtime/contact/;
                                 NULL (default): a contact model is refused
                                 with RS_E_UNSUPPORTED                       */
    const char *contact_dir;  /* folder the table's profile/track file names
                                 are relative to; NULL or "": the working
                                 directory                                   */
    const char *track_file;     /* non-NULL: replaces every contact's track
                                   file (a path as given: not under
                                   contact_dir); read at rs_ws_create only */
    const char *wheel_profile;  /* ... every wheel profile file               */
    const char *rail_profile;   /* ... every rail profile file                */
    const char *rail_profile_left;  /* ... the left rails' (side +1) only, and */
    const char *rail_profile_right; /* the right rails' (a worn rail on one
                                       side): these win over rail_profile   */
    const void *contact_data;   /* the contact implementation's own input,
                                   opaque to the core; for
                                   rs_wheel_rail_contact(): NULL, or a
                                   const rs_contact_sources * (profiles and
                                   tracks already in memory, rs_contact.h) */
    double contact_E;     /* Young's modulus of wheel and rail [Pa], 2.1e11  */
    double contact_nu;    /* Poisson ratio, in [0, 0.5), default 0.28        */
    const double *contact_E_each;  /* per contact (n_contact values, the model's
                             contact order), NaN entries or NULL: contact_E  */
    const double *contact_nu_each; /* ... likewise for contact_nu              */
    double contact_vmin;  /* standstill regularization of the creepage
                             reference speed: V_eff = sqrt(V² + vmin²) [m/s],
                             default 0.01                                    */
    double contact_tol;   /* max |φ^d| of the contact-point Newton, default
                             1e-9 (m for rows 1-2, dimensionless for 3-4)   */
    int contact_creep;    /* 1 (default): Kalker creep forces, implicit
                             through C^K_qq; 0: no creep forces at all — a
                             frictionless contact (δ^NK alone, C^K_qq = 0,
                             force inputs 0), e.g. for energy checks        */
    double contact_mu;    /* friction coefficient μ: > 0 saturates each
                             contact's creep forces at μ N (Shen-Hedrick-
                             Elkins, rs_creep_saturation, factor from the
                             step's start state); 0 (default): Kalker's
                             linear law unbounded, as seed 003            */
    const double *contact_mu_each; /* per contact (n_contact values, the
                             model's contact order): μ of that contact; a
                             NaN entry, or NULL for all, takes contact_mu  */
    /* Elastic contact only (rs_elastic_contact(), rs_elastic.h). */
    double contact_damp;  /* normal damping c_n [N s/m], default 1e5: the
                             strip law shares it over a wheel's patch nodes
                             by stiffness; the point law gives each patch
                             N = c_H p^{3/2} + c_n ṗ, clamped at >= 0       */
    double contact_k_scale; /* multiplies every patch's Hertz constant c_H
                             (1 default; larger: stiffer, towards the
                             constraint contact)                            */
    int contact_normal;   /* the elastic contact's normal law (rs_normal_law):
                             RS_NORMAL_STRIPS (what RS_NORMAL_DEFAULT, 0,
                             gives) a force integrated over each patch's
                             wheel slices, the gradient of one elastic
                             energy (docs/contact.md "Normal law: strips");
                             RS_NORMAL_POINT one Hertz force per minimum of
                             the gap at its share of the depth — not
                             conservative where the gap is flat          */
    double contact_theta; /* where the normal stiffness is linearized along
                             the step's position change, in [0.5, 1]: 1 at
                             its end, which damps contact vibrations the
                             step cannot resolve; 0.5 the trapezoidal rule,
                             energy-conserving for a linear contact.  0
                             (default): the normal law's own
                             (rs_elastic_theta: 1 for both laws; docs/
                             contact.md "θ for the strip law"), resolved
                             at rs_ws_create                             */
    /* Events of the elastic contact (flange climbing, derailment): called
     * once per event as it starts; a non-zero return stops the run (the
     * step returns RS_E_DERAILED).  NULL: events stop nothing (they are
     * still counted in rs_stats.contact_events). */
    int (*contact_event)(void *ctx, const struct rs_contact_event *e);
    void *contact_event_ctx;
    double contact_climb_time; /* flange climbing is Y/Q at Nadal's limit
                             held this long [s] (rs_climb.h: JNR's 0.05 s,
                             the default); <= dt: any step above it       */
    int contact_law;      /* creep law (rs_creep.h's rs_creep_law): 0
                             (default) Kalker's linear law (saturated at
                             μ N when contact_mu > 0), 1 FASTSIM, 2 Polach
                             (both need contact_mu > 0)                    */
    int profile;          /* 1: time the phases of each step into
                             rs_stats.phase_s (seed 003's Table 1) with
                             clock_gettime; default 0 (no clock calls)      */
    unsigned fast;        /* RS_FAST_* bits: the speed-ups a step may use
                             (docs/performance.md), default RS_FAST_ALL;
                             each gives the same results within rounding,
                             and clearing one measures what it buys        */
    /* User plugin forces (abi/rs_plugin.h): one table per entry of the
     * model's plugins[] (n_plugin), in that order; NULL for a model
     * without.  Read by rs_ws_create and kept: they outlive the workspace. */
    const rs_plugin_api *const *plugins;
} rs_options;

/* rs_options.fast bits. */
#define RS_FAST_DENSE_PROJ 0x1u  /* projections with at most RS_DENSE_PROJ_MAX
                                    constraints solve the normal equations
                                    (φ_q φ_qᵀ) μ = r by a dense Cholesky,
                                    Δ = φ_qᵀ μ (KLU when it fails)          */
#define RS_FAST_STEP_FN 0x2u     /* the model's combined functions
                                    (RS_FN_STEP, _PROJ, _NEWTON: one atom set
                                    per stage of a step) when it has them   */
#define RS_FAST_CK 0x4u          /* C^K_qq = Σ D_i Cb_i N_i with each
                                    contact's three N entries of a column
                                    combined through Cb_i first, then D_i's
                                    rows added once per contact and column
                                    at positions found at set-up
                                    (rs_contact_ck.h) instead of a scatter
                                    per N entry                             */
#define RS_FAST_LU_FIXED 0x8u    /* refactorizations of the KLU systems by a
                                    sparse LU in the pivot order of KLU's
                                    full factorization, set up once (flat
                                    index loops, no scaling or rgrowth pass);
                                    only for orders without fragile pivots
                                    (rs_lu_fixed.h); a pivot that collapses
                                    falls back to KLU                       */
#define RS_FAST_STEP_CACHE 0x10u /* with RS_FAST_STEP_FN: a step that starts
                                    at the q and s where the previous step's
                                    RS_FN_PROJ wrote its cache evaluates
                                    RS_FN_STEP_CACHED, which reads the atoms
                                    the two share (position level) from it
                                    instead of computing them again, when
                                    the model has it                        */
#define RS_FAST_ALL 0x1Fu
#define RS_DENSE_PROJ_MAX 32

/* Fills *opt with the defaults above. */
void rs_options_default(rs_options *opt);

/* "amd", "colamd", "natural" (+ "_btf" when btf), "auto"; "?" otherwise. */
const char *rs_klu_ordering_name(int ordering, int btf);

/* A per-contact value: each[i] unless each is NULL or each[i] is NaN, then
 * the common value. */
static inline double rs_options_each(const double *each, int i, double common)
{
    const double v = each ? each[i] : common;
    return v == v ? v : common;
}

/* The friction coefficient, Young's modulus and Poisson ratio of contact i. */
static inline double rs_options_mu(const rs_options *o, int i)
{
    return rs_options_each(o->contact_mu_each, i, o->contact_mu);
}
static inline double rs_options_E(const rs_options *o, int i)
{
    return rs_options_each(o->contact_E_each, i, o->contact_E);
}
static inline double rs_options_nu(const rs_options *o, int i)
{
    return rs_options_each(o->contact_nu_each, i, o->contact_nu);
}

#endif /* RS_OPTIONS_H */
