/*
 * rs_ws_impl.h — private: the layout of a workspace and helpers shared by
 * rs_ws.c (set-up, accessors) and rs_step.c (the step).  Not installed.
 *
 * Invariants: every array is allocated in rs_ws_create and sized from the
 * model; `in` always points at valid arrays (size-0 kinds point at a dummy),
 * so generated functions never see NULL input slots.
 */
#ifndef RS_WS_IMPL_H
#define RS_WS_IMPL_H

#include "rs_clock.h"
#include "rs_klu.h"
#include "rs_ws.h"

#define RS_WS_MAGIC 0x52535753u /* "RSWS": cheap check that a pointer is a workspace */

struct rs_ws {
    unsigned magic;
    const rs_model *model;         /* the model, or &view (elastic contact) */
    const rs_model *model_given;   /* the model rs_ws_create was given      */
    rs_model view;                 /* elastic contact (rs_contact_ops.elastic):
                                      the model without the contacts' normal
                                      constraints and combined functions   */
    rs_options opt;

    /* time: t = t_base + steps_since_base·dt, so long runs do not
     * accumulate rounding in t. */
    double t, t_base, dt;
    long n_since_base;
    double t_in;                   /* time slot seen by model functions    */

    /* state and inputs (RS_IN_* slots) */
    double *q, *qd, *qdd, *s, *sd, *sdd, *p, *u, *k;
    double *lambda;                /* n_phi                                */
    double *p_eval;                /* n_p: RS_FN_PARAMS' output             */
    double *inertia_eval;          /* 7 per body: RS_FN_INERTIA's outputs   */
    double *inertia_passed;        /* the last outputs that passed the check */
    int inertia_passed_valid;      /* 1 once inertia_passed holds some      */
    double *p_set;                 /* n_p: 1 where the caller set the
                                      parameter (a dependent one then keeps
                                      its value)                            */
    double dummy[1];               /* target of slots of size 0            */
    const double *in[RS_IN_COUNT];

    /* model function outputs */
    double *Mv, *delta, *phi, *Gv, *beta, *gamma;
    double energy[2];
    double power[RS_POWER_COUNT];  /* rs_ws_power's last values            */

    /* scratch */
    double *rhs;                   /* n_q + n_phi                          */
    double *q0, *qd0;              /* state at step start (restored on failure) */
    /* q̈ of an IMEX step, (q̇ₙ₊₁ − q̇ₙ)/Δt, is read only by outputs that
     * ask for accelerations: the step keeps its two ends and the division
     * waits for the first call of a function that may read RS_IN_QDD
     * (rs_ws_qdd_settle).  qdd_pending: qdd is out of date, its value is
     * (qd_end − qdd_from)/qdd_dt.  qdd_from points at qd0 or qd0_alt: a
     * step that starts with q̈ pending swaps the two and copies its own q̇ₙ
     * into the other, so that if it fails the pending q̈ is still whole. */
    double *qd_end, *qd0_alt;      /* n_q each                             */
    const double *qdd_from;
    double qdd_dt;
    int qdd_pending;
    double *kq[4], *kv[4];         /* RK4 stage velocities / accelerations */
    double *qs, *qds;              /* RK4 stage state                      */
    /* internal states z (n_z each; their values live in u[z_slot[i]]) */
    double *z0;                    /* z at step start (restored on failure) */
    double *za, *zb;               /* a and b of ż = a + b z at step start */
    double *zd;                    /* ż at the step's end state            */
    double *kz[4];                 /* RK4 stage rates                      */
    double *S, *mu;                /* dense projection: φ_q φ_qᵀ (n_phi², 0
                                      above RS_DENSE_PROJ_MAX) and μ      */
    double *block;                 /* the one allocation behind all doubles */

    rs_klu_system sys;             /* pattern of the block systems         */
    rs_klu_factors fac_dyn;        /* A = M: IMEX and RK4 stages           */
    rs_klu_factors fac_proj;       /* A = I: projections                   */
    rs_klu_info klu_info;          /* ordering in use, AUTO's trial figures */
    rs_contact_ws *ct;             /* wheel-rail contact state (opaque: the
                                      plug-in's, rs_contact_ops.h); NULL
                                      when the model has no contact        */
    const rs_contact_ops *cops;    /* its entry points (set with ct)       */
    double *s0, *sd0;              /* n_s: s, ṡ at step start (restored on
                                      failure)                             */

    /* combined functions (RS_FAST_STEP_FN), valid inside one step only */
    int creep_ready;               /* RS_FN_STEP wrote the creep outputs,
                                      or RS_FN_STEP_ELASTIC the wheel ones
                                      (the plug-in's step_outputs arrays) */
    int s_predicted;               /* s was just predicted: the contact
                                      Newton's first pass will iterate, so
                                      it evaluates RS_FN_NEWTON            */
    /* RS_FAST_STEP_CACHE: RS_FN_PROJ's out[7], read by RS_FN_STEP_CACHED
     * from its input slot RS_IN_CACHE; valid at (cache_q, cache_s) while cache_valid (parameters,
     * constants and spline data unchanged since) */
    int n_cache;                   /* K (rs_model_cache_len), 0 without     */
    double *cache;                 /* n_cache doubles: in[RS_IN_CACHE]      */
    double *cache_q, *cache_s;     /* the q and s RS_FN_PROJ wrote it at    */
    int cache_valid;
    int proj_ready;                /* RS_FN_PROJ's outputs (φ^d, φ, φ_q, β,
                                      φ^d_s, φ^d_q, β^d) hold at the current
                                      t, q and s                            */

    int constants_dirty;
    int ready;                     /* rs_ws_init done                      */
    int in_init;                   /* error messages say "initialization"  */
    int prof_on;                   /* phase timers running (inside rs_step) */
    int prof_phase;                /* the running phase (rs_phase)          */
    double prof_t0;                /* when it started [s]                   */
    rs_stats stats;
    char err[1024];

    /* user plugin forces (rs_ws_plugin.c; NULL / 0 without) */
    const rs_plugin_api *const *plug_api; /* rs_options.plugins, n_plugin  */
    void **plug_ctx;               /* each plugin's init context            */
    double *plug_state;            /* their states, one after the other     */
    double *plug_y;                /* RS_FN_OUTPUTS at the last evaluation  */
    int n_plug_live;               /* plugins whose init succeeded          */
    /* their implicit treatment in the IMEX step (rs_ws_plugin_jac.c) */
    int plug_implicit;             /* set up: the step may use it           */
    int plug_jac_now;              /* a plugin gave its Jacobian at the last
                                      evaluation                            */
    double *plug_d;                /* 2 per plugin: its dfdx, dfdv then     */
    int plug_nk, plug_nc;          /* nnz of K_pattern, C_pattern           */
    double *plug_jv;               /* K_p, C_p, then the two without the
                                      plugins                               */
};

/* Records an error "step N, t = T s: <message>" and returns status. */
int rs_ws_fail(rs_ws *ws, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The number of doubles in ws->block (rs_ws_state.c copies them all). */
size_t rs_ws_block_len(const rs_ws *ws);

/* Recomputes the hoisted constants if parameters changed. */
int rs_ws_update_constants(rs_ws *ws);

/* Points the time, q and q̇ input slots at (t, q, qd). */
void rs_ws_bind(rs_ws *ws, double t, const double *q, const double *qd);

/* User plugin forces (rs_ws_plugin.c, docs/plugins.md). */
int rs_ws_plugin_setup(rs_ws *ws, const rs_options *o, const rs_allocator *a, char *err, size_t errlen);
void rs_ws_plugin_release(rs_ws *ws, const rs_allocator *a);
/* At the bound state: calls each plugin, writes its input slots. */
int rs_ws_plugin_eval(rs_ws *ws);
/* At the bound state, for the linearizations (equilibrium, linear
 * analysis): rs_ws_plugin_eval, then for each plugin that gives no
 * Jacobian its ∂f/∂x and ∂f/∂v by central differences of its force into
 * its slots, so RS_FN_DELTA_JAC holds every plugin's stiffness and damping. */
int rs_ws_plugin_linearize(rs_ws *ws);
/* After an accepted step to t1: each plugin's `advance`. */
int rs_ws_plugin_advance(rs_ws *ws, double t1, double dt);
/* The plugins' total number of states (plug_state's length). */
int rs_ws_plugin_state_count(const rs_ws *ws);
/* Implicit plugin forces in the IMEX step (rs_ws_plugin_jac.c): set-up
 * (from rs_ws_plugin_setup; sets plug_implicit, and then the step
 * matrix's extra parts RS_KLU_EXTRA_PLUGIN_K and _C are the model's
 * K_pattern and C_pattern), Δt C_p + Δt²/2 K_p into the filled step matrix
 * and Δt C_p q̇ − Δt²/2 K_p q̇ into its right-hand side; both no-ops unless
 * a plugin gave its Jacobian at the last evaluation. */
int rs_ws_plugin_jac_setup(rs_ws *ws, const rs_allocator *a, char *err, size_t errlen);
void rs_ws_plugin_jac_release(rs_ws *ws, const rs_allocator *a);
int rs_ws_plugin_jac_add(rs_ws *ws, double h);
void rs_ws_plugin_jac_rhs(const rs_ws *ws, double h, double *rhs);

/* The pending q̈ of coordinate j (qdd_pending set). */
static inline double rs_ws_qdd_pending_value(const rs_ws *ws, int j)
{
    return (ws->qd_end[j] - ws->qdd_from[j]) / ws->qdd_dt;
}
/* Writes q̈ of the last IMEX step into qdd if it is pending (the step
 * leaves it so); rs_ws_call_n calls it before every function that may read
 * RS_IN_QDD (rs_fn_reads_qdd). */
void rs_ws_qdd_settle(rs_ws *ws);
/* 1 for the functions that may read accelerations: the user outputs
 * (acc(), alpha(), q_dd) and the power terms (a force written with q_dd).
 * M and δ do not: δ is the dynamics at q̈ = 0, M its q̈ coefficients. */
static inline int rs_fn_reads_qdd(int id)
{
    return id == RS_FN_OUTPUTS || id == RS_FN_POWER;
}

/* Calls model function `id` with out[0] = out0 (and out[1] = out1);
 * a non-zero return becomes RS_E_MODELFN with a message.  A pending q̈ is
 * settled first when `id` may read it. */
int rs_ws_call(rs_ws *ws, int id, double *out0, double *out1);
/* The same with every out[] pointer given (RS_FN_MAX_OUT of them). */
int rs_ws_call_n(rs_ws *ws, int id, double *const *out);
/* 1 when the step may use combined function `id` (RS_FAST_STEP_FN set and
 * the model has it). */
static inline int rs_ws_combined(const rs_ws *ws, int id)
{
    return (ws->opt.fast & RS_FAST_STEP_FN) && ws->model->fn[id].fn != 0;
}

/* RS_OK if v[0..n) are finite, else RS_E_NONFINITE naming `what`[i]
 * (names may be NULL: then only the index is given). */
int rs_ws_check_finite(rs_ws *ws, const double *v, int n, const char *what,
                       const char *const *names);

/* max |φ|, max |φ_q q̇ − β| at the bound state (clobbers phi, Gv, beta, rhs). */
int rs_ws_eval_residuals(rs_ws *ws, double *pos, double *vel);

/* Internal states: copies z out of / into their input slots. */
void rs_ws_get_z(const rs_ws *ws, double *z);
void rs_ws_put_z(rs_ws *ws, const double *z);

/* Calls the input callback (if any) for time t. */
int rs_ws_inputs(rs_ws *ws, double t);

/* Phase timers (rs_options.profile).  rs_prof_enter makes `phase` the
 * running phase and returns the one it replaces (to re-enter it after a
 * nested phase); without profiling it only returns `phase` (no clock call). * The clock is rs_clock.h's rs_now_s. */
int rs_prof_switch(rs_ws *ws, int phase);
static inline int rs_prof_enter(rs_ws *ws, int phase)
{
    return ws->prof_on ? rs_prof_switch(ws, phase) : phase;
}
/* The phase of a generated function called now: "constraints" inside the
 * projections (and the contact Newton), "functions" elsewhere. */
static inline int rs_fn_phase(const rs_ws *ws)
{
    return ws->prof_phase == RS_PHASE_PROJECTION ? RS_PHASE_CONSTRAINTS : RS_PHASE_FUNCTIONS;
}

#endif /* RS_WS_IMPL_H */
