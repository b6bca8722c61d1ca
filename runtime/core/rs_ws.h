/*
 * rs_ws.h — one simulation instance of a model: the workspace, its state,
 * and the step.
 *
 * A workspace holds everything one simulation needs (state, parameters,
 * inputs, constants, function outputs, scratch, the assembled sparse system
 * and its KLU objects).  It is sized and allocated once by rs_ws_create;
 * rs_step then allocates nothing, does no I/O, and runs loops bounded by the
 * model's sizes and the iteration limit.  The one exception, stated once:
 * when KLU's refactorization degrades (rcond or pivot growth) or fails, the
 * step calls klu_factor again, which allocates (counted in
 * rs_stats.refactor_fallbacks).  RS_KLU_AUTO (the default ordering) times
 * the candidate orderings once, in rs_ws_init, and prefers those whose
 * pivots cannot degrade that way (docs/runtime.md, "Orderings").
 *
 * Threads: the model descriptor is shared and read-only; each thread uses
 * its own workspace.  A workspace is not safe to use from two threads at once.
 *
 * Errors: every function returns an rs_status (rs_status.h); the message of
 * the last error, naming the step, the time and the offending quantity, is
 * rs_ws_error(ws).  When rs_step fails, the state is left as it was before
 * that step (time, q, q̇), so results written so far stay valid.
 */
#ifndef RS_WS_H
#define RS_WS_H

#include <stddef.h>
#include "rs_contact_ops.h"
#include "rs_model.h"
#include "rs_status.h"

typedef struct rs_ws rs_ws;

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

/* Injectable allocator (all allocations of the runtime itself go through
 * it; KLU allocates through SuiteSparse's own configuration).  alloc must
 * return zeroed memory or NULL. */
typedef struct rs_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void (*release)(void *ctx, void *ptr);
    void *ctx;
} rs_allocator;

/* Set-up allocations of the train layers (rs_krylov, rs_park, rs_train*):
 * n × size bytes, zeroed, from `a` (NULL, or a->alloc NULL: calloc); NULL on
 * overflow or failure.  rs_free_with gives them back (NULL p: nothing). */
void *rs_alloc_zeroed(const rs_allocator *a, size_t n, size_t size);
void rs_free_with(const rs_allocator *a, void *p);

/* Called at each time the model is evaluated (step start, RK4 stages) to
 * fill the inputs u[0..n_u).  Return 0, or non-zero to fail the step. */
typedef int (*rs_input_fn)(void *ctx, double t, double *u, int n_u);

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
    rs_allocator allocator;   /* alloc == NULL: calloc/free                 */
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
    const void *contact_data;   /* the contact implementation's own input,
                                   opaque to the core; for
                                   rs_wheel_rail_contact(): NULL, or a
                                   const rs_contact_sources * (profiles and
                                   tracks already in memory, rs_contact.h) */
    double contact_E;     /* Young's modulus of wheel and rail [Pa], 2.1e11  */
    double contact_nu;    /* Poisson ratio, in [0, 0.5), default 0.28        */
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
    int profile;          /* 1: time the phases of each step into
                             rs_stats.phase_s (seed 003's Table 1) with
                             clock_gettime; default 0 (no clock calls)      */
    unsigned fast;        /* RS_FAST_* bits: the speed-ups a step may use
                             (docs/performance.md), default RS_FAST_ALL;
                             each gives the same results within rounding,
                             and clearing one measures what it buys        */
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

/* Phases of a step timed when rs_options.profile is set (seed 003, Table 1;
 * docs/runtime.md "Phase timers").  Each instant of rs_step belongs to
 * exactly one phase, so the phases add up to the step's time. */
typedef enum rs_phase {
    RS_PHASE_KALKER = 0,  /* creep function (ν, V, radii, ∂δ/∂f, ∂ν/∂q̇), Hertz
                             ellipse, Kalker coefficients, C^K_qq values   */
    RS_PHASE_SPLINE,      /* spline look-up: the coefficient input slots    */
    RS_PHASE_FUNCTIONS,   /* every other generated function: M, δ^NK, φ_q,
                             γ, φ, β, φ^d, φ^d_q, φ^d_s, β^d              */
    RS_PHASE_SOLVE,       /* dynamics solution: assembly, KLU refactor and
                             solve, lift-off check, creep forces            */
    RS_PHASE_INTEGRATION, /* q(t+Δt) and the s prediction                   */
    RS_PHASE_PROJECTION,  /* projections' own work: Newton updates, 4×4 and
                             KLU solves (their function evaluations and
                             look-ups are counted above)                    */
    RS_PHASE_OTHER,       /* the rest: input callback, state copies, checks */
    RS_PHASE_CONSTRAINTS, /* generated functions evaluated by the projections
                             and the contact Newton (φ, φ_q, β, φ^d, φ^d_s,
                             φ^d_q, β^d; RS_FN_PROJ, RS_FN_NEWTON): seed 003
                             Table 1's sixth row; "functions" keeps those of
                             the step's start                               */
    RS_PHASE_COUNT
} rs_phase;

/* "kalker", "spline", "functions", "solve", "integration", "projection",
 * "other", "constraints" (the order of rs_phase); NULL out of range. */
const char *rs_phase_name(int phase);

typedef struct rs_stats {
    long steps;            /* steps completed                               */
    long factors;          /* full KLU factorizations (klu_factor)          */
    long refactors;        /* numeric refactorizations (klu_refactor)       */
    long solves;           /* triangular solves                             */
    long proj_iters;       /* Newton iterations of position projection, total */
    int proj_iters_last;   /* ... in the last step                          */
    int proj_iters_max;    /* ... most in one step                          */
    long vel_projections;  /* velocity projections performed                */
    double rcond_last;     /* KLU's crude reciprocal condition, last factor */
    double pos_residual;   /* max |φ| after the last step                   */
    double vel_residual;   /* max |φ_q q̇ − β| after the last step           */
    long refactor_fallbacks; /* refactors whose pivots had degraded (or that
                              failed), redone by a full klu_factor          */
    double rgrowth_last;   /* reciprocal pivot growth of the last refactor
                              (when rgrowth_drop > 0)                      */
    long contact_iters;    /* Newton iterations on φ^d for s, total (contact) */
    int contact_iters_last;/* ... in the last step                          */
    int contact_iters_max; /* ... most in one step                          */
    long contact_searches; /* global contact-point searches (Newton had lost
                              its root: a contact-point jump)                */
    long contact_jumps;    /* ... that moved a contact point to another root */
    double phase_s[RS_PHASE_COUNT]; /* seconds spent in each phase over all
                             steps (rs_options.profile; 0 otherwise)         */
    long dense_solves;     /* projections solved by the dense normal
                              equations (RS_FAST_DENSE_PROJ) instead of KLU */
    long lu_fixed_refactors; /* refactorizations done by the fixed-order LU
                              (RS_FAST_LU_FIXED; included in refactors)    */
    long step_cache_hits;  /* step starts that evaluated RS_FN_STEP_CACHED
                              from the cache (RS_FAST_STEP_CACHE)           */
} rs_stats;

/* Fills *opt with the defaults above. */
void rs_options_default(rs_options *opt);

/* Validates `model` and allocates a workspace for it (opt NULL: defaults).
 * State is zero, parameters are the model's defaults, time 0.
 * Returns RS_OK and sets *ws, or an error and sets *ws = NULL; when err is
 * not NULL it receives a message (the workspace does not exist yet). */
int rs_ws_create(const rs_model *model, const rs_options *opt, rs_ws **ws,
                 char *err, size_t errlen);

/* Frees the workspace and sets *ws = NULL.  NULL and *ws == NULL are fine. */
void rs_ws_free(rs_ws **ws);

/* The message of the last error ("" if none). */
const char *rs_ws_error(const rs_ws *ws);

const rs_model *rs_ws_model(const rs_ws *ws);
const rs_options *rs_ws_options(const rs_ws *ws);
const rs_stats *rs_ws_stats(const rs_ws *ws);

/* State arrays, owned by the workspace, valid until rs_ws_free.  Writing q,
 * q̇, s, ṡ, u directly is allowed between steps. */
double *rs_ws_q(rs_ws *ws);          /* n_q  */
double *rs_ws_qd(rs_ws *ws);         /* n_q  */
double *rs_ws_s(rs_ws *ws);          /* n_s  */
double *rs_ws_sd(rs_ws *ws);         /* n_s  */
double *rs_ws_u(rs_ws *ws);          /* n_u  */
const double *rs_ws_p(const rs_ws *ws);      /* n_p: set through rs_ws_set_param* */
const double *rs_ws_lambda(const rs_ws *ws); /* n_phi multipliers of the last solve */
double rs_ws_time(const rs_ws *ws);

/* Setting parameters marks the hoisted constants for recomputation before
 * the next evaluation (no recompilation). */
int rs_ws_set_param(rs_ws *ws, const char *name, double value);
int rs_ws_set_param_index(rs_ws *ws, int i, double value);
int rs_ws_set_q(rs_ws *ws, const char *name, double value);
int rs_ws_set_qd(rs_ws *ws, const char *name, double value);
int rs_ws_set_u(rs_ws *ws, const char *name, double value);
int rs_ws_set_time(rs_ws *ws, double t);
/* Changes the step size (takes effect at the next step). */
int rs_ws_set_dt(rs_ws *ws, double dt);

/* Evaluates the constants, calls the input callback, checks the state, and
 * (project_initial) projects it onto φ = 0 and φ_q q̇ = β; performs the first
 * full factorizations.  Call after setting the initial state; rs_step calls
 * it itself if needed, so only a caller that counts allocations must. */
int rs_ws_init(rs_ws *ws);

/* One step of size dt with the workspace's method.  Allocation-free (see
 * the header comment for the refactorization exception). */
int rs_step(rs_ws *ws);

/* Called by rs_run at the initial time and every output interval.  Return 0
 * to continue, non-zero to stop (rs_run then returns RS_STOPPED). */
typedef int (*rs_output_fn)(rs_ws *ws, void *ctx);

/* Steps until t_end (the number of steps is round((t_end − t)/dt)), calling
 * `out` (if not NULL) at the start and every round(out_dt/dt) steps (at
 * least every step), and once more at the end if the last step was not an
 * output step. */
int rs_run(rs_ws *ws, double t_end, double out_dt, rs_output_fn out, void *ctx);

/* The sparse LU's ordering, how it was chosen, and what each candidate
 * cost (rs_ws_klu_info). */
typedef struct rs_klu_info {
    int ordering;          /* rs_klu_ordering in use (never RS_KLU_AUTO)     */
    int btf;               /* BTF pre-ordering in use                       */
    int chosen;            /* 1: chosen by timing (AUTO, after rs_ws_init)  */
    int n, nnz;            /* order and entries of the system matrix        */
    int nblocks;           /* BTF blocks of the chosen analysis             */
    /* per candidate, index 2·ordering + btf (AUTO only, after rs_ws_init): */
    double cand_us[RS_KLU_CANDIDATES];   /* µs of one refactor + solve of the
                                            dynamics matrix (+ projection's), the
                                            fastest round; < 0: not tried or
                                            failed                           */
    double cand_flops[RS_KLU_CANDIDATES];/* flops of its factorization      */
    int cand_lu_nnz[RS_KLU_CANDIDATES];  /* entries of L + U                */
    int cand_fragile[RS_KLU_CANDIDATES]; /* pivots that may vanish as the
                                            mechanism moves (rs_klu.c)      */
} rs_klu_info;

/* Fills *info.  RS_E_ARG for a bad workspace. */
int rs_ws_klu_info(const rs_ws *ws, rs_klu_info *info);

/* "amd", "colamd", "natural" (+ "_btf" when btf), "auto"; "?" otherwise. */
const char *rs_klu_ordering_name(int ordering, int btf);

/* Evaluations at the current state (outside a step; no allocation). */
int rs_ws_outputs(rs_ws *ws, double *out);                /* n_out values */
int rs_ws_energy(rs_ws *ws, double *kinetic, double *potential);
/* The energy balance's power terms (RS_FN_POWER; RS_POWER_COUNT values in
 * rs_power_id order, W; `power` may be NULL): d(T + V)/dt = inputs − damping
 * − creep + other.  Inputs u as the last step left them (creep forces: the
 * last step's).  RS_E_MODEL when the model has no power function. */
int rs_ws_power(rs_ws *ws, double *power);
int rs_ws_residuals(rs_ws *ws, double *pos, double *vel); /* max |φ|, max |φ_q q̇ − β| */

/* Named quantities (columns of results). */
typedef enum rs_var_kind {
    RS_VAR_TIME, RS_VAR_Q, RS_VAR_QD, RS_VAR_S, RS_VAR_SD, RS_VAR_P,
    RS_VAR_U, RS_VAR_LAMBDA, RS_VAR_OUTPUT,
    RS_VAR_CONTACT,  /* per contact i: index RS_CONTACT_VAR_COUNT i + k,
                        k = RS_CONTACT_VAR_*                            */
    RS_VAR_STAT,     /* per step: RS_STAT_VAR_*                              */
    RS_VAR_ENERGY    /* energy and power terms: RS_ENERGY_VAR_*              */
} rs_var_kind;

/* Contact quantities of the last step, "<contact>.<suffix>": creepages
 * ξ_x = ν_x / V, ξ_y = ν_y / V (dimensionless), spin φ = ν_φ / V (1/m), at
 * the step's end velocities (the ones the creep forces act with; V the
 * regularized reference speed); the normal force N = −λ (N).  0 before the
 * first step and with creep switched off (N stays).  Y and Q (N): the
 * contact force on the wheel (N along n^r plus the creep force f_y along
 * t_y^r) resolved in the track's cross-section at the contact (its canted
 * plane): Q up, Y towards the track's centre line (positive when the rail
 * pushes the wheel inwards, as on a flange); Y_Q = Y / Q, the derailment
 * quotient (docs/scenario.md). */
enum { RS_CONTACT_VAR_XI_X = 0, RS_CONTACT_VAR_XI_Y, RS_CONTACT_VAR_SPIN, RS_CONTACT_VAR_N,
       RS_CONTACT_VAR_Y, RS_CONTACT_VAR_Q, RS_CONTACT_VAR_Y_Q, RS_CONTACT_VAR_COUNT };
/* Step statistics: "newton_contact" (contact-point Newton iterations on φ^d
 * in the last step), "newton_position" (position-projection Newton
 * iterations in the last step). */
enum { RS_STAT_VAR_NEWTON_CONTACT = 0, RS_STAT_VAR_NEWTON_POSITION, RS_STAT_VAR_COUNT };

/* Energy and power terms: "energy.kinetic", "energy.potential" (J; models
 * with RS_FN_ENERGY) and "power.inputs", "power.damping", "power.creep",
 * "power.other" (W; models with RS_FN_POWER; see rs_ws_power).  They need an
 * evaluation: rs_ws_value gives the values of the last rs_ws_energy /
 * rs_ws_power call (rs_csv calls them for every row that has such a column). */
enum { RS_ENERGY_VAR_KINETIC = 0, RS_ENERGY_VAR_POTENTIAL,
       RS_ENERGY_VAR_POWER /* + rs_power_id */,
       RS_ENERGY_VAR_COUNT = RS_ENERGY_VAR_POWER + RS_POWER_COUNT };

/* The name of energy/power term k (RS_ENERGY_VAR_*), "" when the model
 * lacks its function (or k is out of range). */
const char *rs_energy_var_name(const rs_model *model, int k);

typedef struct rs_var {
    rs_var_kind kind;
    int index;
} rs_var;

/* Name scheme: "time"; a coordinate by its name; its velocity "<name>_dot";
 * an auxiliary coordinate by its name, its velocity "<name>_dot"; a
 * parameter, an input or an output by its name; a multiplier
 * "lambda_<constraint name>"; a contact's "<contact>.xi_x", ".xi_y",
 * ".spin", ".N"; "newton_contact", "newton_position"; "energy.kinetic",
 * "energy.potential", "power.<term>".  Returns RS_OK or RS_E_NOTFOUND. */
int rs_model_find(const rs_model *model, const char *name, rs_var *var);

/* The coordinates a forward speed V sets by convention (critical-speed
 * search, the sweep variable `speed`): forward coordinates, named `x` or
 * ending in `.x` (their velocity is V), and spin coordinates, named `spin`
 * or ending in `.spin` (their velocity is V / r0, rolling without slip).
 * Writes at most `max` indices of each; returns the forward count in
 * *n_fwd and the spin count in *n_spin. */
void rs_model_speed_coords(const rs_model *model, int *fwd, int *n_fwd, int *spin, int *n_spin, int max);

/* Value of a quantity at the current state.  Outputs need an evaluation:
 * `outputs` holds the n_out values of rs_ws_outputs (may be NULL when no
 * output is asked for). */
double rs_ws_value(const rs_ws *ws, rs_var var, const double *outputs);

/* Checks a descriptor; on failure writes a message naming the bad field. */
int rs_model_validate(const rs_model *model, char *err, size_t errlen);

/* The name of function id `id` (RS_FN_NAMES of rs_model.h; "?" outside
 * 0..RS_FN_COUNT-1), for messages. */
const char *rs_fn_name(int id);

#endif /* RS_WS_H */
