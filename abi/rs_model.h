/*
 * rs_model.h — the constant descriptor of one compiled model.
 *
 * Plain C99 with no system headers: generated code includes this file, and
 * an embedded user builds generated/<model>/ plus runtime/ with any C
 * compiler.  The code generator emits, per model,
 *
 *     const rs_model *MODEL_model(void);   (returns a pointer to a static const)
 *
 * Invariants (checked by rs_model_validate before any use):
 *   - magic == RS_MODEL_MAGIC and version == RS_MODEL_VERSION;
 *   - every size is >= 0, every name array has exactly that many entries;
 *   - every pattern is compressed-column (CSC): colptr has ncol+1 entries,
 *     colptr[0] == 0, non-decreasing; row indices inside a column strictly
 *     increasing and in [0, nrow); nnz = colptr[ncol];
 *   - each function's out_len[0] equals the size its RS_FN_* entry states.
 * A descriptor is immutable and shared: any number of workspaces and threads
 * use one descriptor at once.
 *
 * Sign conventions (the same in the modeler, the code generator and here):
 *   M(q,t) q̈ = δ(q,q̇,t) − φ_qᵀ λ            (λ: multipliers, force units)
 *   φ(q,t) = 0,  φ_q q̇ = β,  φ_q q̈ = γ      (β = −∂φ/∂t, γ = −(φ_q)˙ q̇ − (∂φ/∂t)˙)
 */
#ifndef RS_MODEL_H
#define RS_MODEL_H

#include "rs_abi.h"

/* "RSM1": bump RS_MODEL_VERSION whenever the layout of rs_model changes. */
#define RS_MODEL_MAGIC   0x52534d31u
#define RS_MODEL_VERSION 14

/* Sparse pattern, compressed columns, KLU's integer type (int).  Sparse
 * function outputs are the structurally non-zero values in this order. */
typedef struct rs_pattern {
    int nrow, ncol;
    const int *colptr;   /* ncol+1 entries; colptr[ncol] = nnz            */
    const int *rowind;   /* nnz entries, increasing within each column    */
} rs_pattern;

/* Functions of a model.  For each: what out[0] holds and its length.  A
 * function may write more outputs after out[0] (listed in its rs_func);
 * the runtime relies only on out[0] unless stated.
 *   RS_FN_M          M, values in the order of rs_model.M_pattern (n_q × n_q)
 *   RS_FN_DELTA      δ, n_q; generalized forces minus velocity terms [N, N·m]
 *   RS_FN_PHI        φ, n_phi
 *   RS_FN_PHI_Q      φ_q, values in the order of rs_model.phi_q_pattern
 *                    (n_phi × n_q)
 *   RS_FN_BETA       β, n_phi
 *   RS_FN_GAMMA      γ, n_phi
 *   RS_FN_ENERGY     out[0]: kinetic energy T (1 value) [J];
 *                    out[1]: potential energy V (1 value) [J]
 *   RS_FN_OUTPUTS    user outputs, n_out (names in output_names)
 *   RS_FN_CONSTANTS  hoisted constants k (the RS_IN_CONST slot), n_const, from p only
 * Wheel-rail contact (models with n_contact > 0; docs/contact_element.md is
 * the contract; nc = n_contact; the normal constraints φ^n are rows
 * rs_contact.phi_row of φ, so PHI/PHI_Q/BETA/GAMMA include them):
 *   RS_FN_DELTA_NK   δ with every creep force input = 0, n_q
 *   RS_FN_PHI_D      φ^d, 4 nc (per contact t_x^r·r, t_y^r·r, t_x^w·n^r, t_y^w·n^r)
 *   RS_FN_PHI_D_Q    ∂φ^d/∂q, values in the order of rs_model.phi_d_q_pattern
 *                    (4nc × n_q)
 *   RS_FN_PHI_D_S    ∂φ^d/∂s, dense 4nc × 4 row-major: rows 4i..4i+3 are
 *                    contact i's block over its own θ_w, u_w, s_r, u_r
 *   RS_FN_BETA_D     β^d, 4 nc: φ^d_q q̇ + φ^d_s ṡ = β^d
 *   RS_FN_CREEP      out[0] ν (3 nc), out[1] V (nc), out[2] radii R_x^w,
 *                    R_y^w, R_y^r (3 nc), out[3] ∂δ/∂f in the order of
 *                    ddelta_df_pattern (n_q × 3nc), out[4] ∂ν/∂q̇ in the
 *                    order of dnu_dqd_pattern (3nc × n_q)
 *   RS_FN_WHEEL      elastic contact (docs/contact_element.md "Elastic mode"):
 *                    the wheels as rigid bodies of revolution, ground
 *                    components; out[0] pose, 12 nc: per contact the wheel
 *                    centre O_w (3), then R_ground_nsw row-major (9: its
 *                    columns are the non-spinning base's axes, the second
 *                    the axle); out[1] velocity, 6 nc: v(O_w) (3), the wheel
 *                    body's ω (3); out[2] ∂(out[1])/∂q̇ in the order of
 *                    wheel_jac_pattern (6nc × n_q); out[3] geometry, 2 nc:
 *                    the nominal rolling radius r0 and the rail offset h_r
 * Force Jacobians (docs/trains.md; optional: NULL in models compiled without):
 *   RS_FN_DELTA_JAC  out[0] K = −∂δ/∂q in the order of rs_model.K_pattern,
 *                    out[1] C = −∂δ/∂q̇ in the order of C_pattern (n_q × n_q
 *                    each; inputs u and auxiliary coordinates s held fixed)
 * Combined functions (optional; codegen/stepfn.hpp): one atom set for what
 * one stage of an IMEX step evaluates at one state, every out[k] exactly as
 * the separate function states it.  RS_FN_STEP's n_out tells which of its
 * outputs are present: 2 (no constraint), 4 (no contact) or 9; the rs_func
 * lists each length.
 *   RS_FN_STEP       the start of a step: out[0] M, out[1] δ^NK (δ without
 *                    contacts), out[2] φ_q, out[3] γ, out[4] ν, out[5] V,
 *                    out[6] radii, out[7] ∂δ/∂f, out[8] ∂ν/∂q̇
 *   RS_FN_PROJ       the end of a step (contacts): out[0] φ^d, out[1] φ,
 *                    out[2] φ_q, out[3] β, out[4] φ^d_s, out[5] φ^d_q,
 *                    out[6] β^d
 *   RS_FN_NEWTON     a contact-point Newton iteration: out[0] φ^d,
 *                    out[1] φ^d_s
 *   RS_FN_STEP_CACHED (optional, contacts) RS_FN_STEP's outputs, reading
 *                    the atoms it shares with RS_FN_PROJ at position level
 *                    (q, s, p, k, spline inputs) from a cache of K doubles
 *                    at in[RS_IN_CACHE] instead of computing them.  When
 *                    present, RS_FN_PROJ has an out[7] of length K that
 *                    writes that cache (rs_model_cache_len); the runtime
 *                    calls RS_FN_STEP_CACHED only at the q and s RS_FN_PROJ
 *                    last wrote it at (docs/runtime.md "The step cache")
 *   RS_FN_STEP_ELASTIC (contacts) the start of a step of the elastic
 *                    contact (whose view of the model has no normal
 *                    constraints): out[0] M, out[1] δ^NK, then RS_FN_WHEEL's
 *                    four: out[2] wheel pose (12 nc), out[3] wheel velocity
 *                    (6 nc), out[4] ∂(wheel velocity)/∂q̇ (wheel_jac_pattern),
 *                    out[5] wheel geometry (2 nc)
 * Energy balance (optional; modeler/mechanics/power.hpp):
 *   RS_FN_POWER      out[0] 4 values [W]: P_inputs (power of the input forces
 *                    and torques), P_damping (dissipated by the velocity-
 *                    dependent parts of force elements), P_creep (dissipated
 *                    by the creep forces, −Σ f·ν), P_other (power of the
 *                    position forces that V does not account for); along a
 *                    motion d(T + V)/dt = P_inputs − P_damping − P_creep + P_other
 * Dependent parameters (optional: NULL when no parameter's default names
 * another parameter):
 *   RS_FN_PARAMS     out[0] n_p values: each parameter declared with an
 *                    expression of other parameters (`param dz = m*g/k`)
 *                    evaluated at in[RS_IN_P], every other one copied from
 *                    it.  The runtime applies it after parameters change to
 *                    those the caller did not set itself, repeating until
 *                    nothing changes (chains: at most n_p passes)
 * Internal states (optional: NULL when n_z = 0; version 11):
 *   RS_FN_ZDOT       out[0] ż (n_z): the rates of the first-order states z,
 *                    whose values are the inputs u[z_slot[i]]; out[1]
 *                    ∂ż_i/∂z_i (n_z).  Each ż_i depends on z only through
 *                    z_i, linearly (ż_i = a_i(t, q, q̇) + b_i z_i with b_i
 *                    of the parameters): the runtime's step integrates each
 *                    one exactly over a step with a_i linear in time
 *                    (docs/runtime.md "Internal states")
 * Body poses (version 13; optional: NULL in a model without bodies):
 *   RS_FN_BODY_POSE  out[0] 12 n_body: per body (rs_model.body_names'
 *                    order) its centre of mass in ground (3), then
 *                    R_ground_body row-major (9: its columns are the body
 *                    base's axes in ground), from q and p; what
 *                    track-relative results read (docs/results.md)
 * Functions read only the input slots they need; the runtime always passes
 * every slot (arrays of size 0 are passed as valid pointers). */
enum rs_fn_id {
    RS_FN_M = 0,
    RS_FN_DELTA,
    RS_FN_PHI,
    RS_FN_PHI_Q,
    RS_FN_BETA,
    RS_FN_GAMMA,
    RS_FN_ENERGY,
    RS_FN_OUTPUTS,
    RS_FN_CONSTANTS,
    RS_FN_DELTA_NK,
    RS_FN_PHI_D,
    RS_FN_PHI_D_Q,
    RS_FN_PHI_D_S,
    RS_FN_BETA_D,
    RS_FN_CREEP,
    RS_FN_DELTA_JAC,
    RS_FN_STEP,
    RS_FN_PROJ,
    RS_FN_NEWTON,
    RS_FN_POWER,
    RS_FN_STEP_CACHED,
    RS_FN_WHEEL,
    RS_FN_STEP_ELASTIC,
    RS_FN_PARAMS,
    RS_FN_ZDOT,
    RS_FN_INERTIA,
    RS_FN_BODY_POSE,
    RS_FN_COUNT
};

/* The name of each function, indexed by enum rs_fn_id: function id f of
 * model MODEL is the C function MODEL_<name> (the descriptor's fn[f] points
 * at it).  The one list of names: the code generator's function table
 * (codegen/fn_table.cpp) and the runtime's messages both read it. */
#define RS_FN_NAMES { \
    "M", "delta", "phi", "phi_q", "beta", "gamma", "energy", "outputs", "constants", \
    "delta_nk", "phi_d", "phi_d_q", "phi_d_s", "beta_d", "creep", "delta_jac", \
    "step", "proj", "newton", "power", "step_cached", "wheel", "step_elastic", "params", \
    "zdot", "inertia", "body_pose" }

/* The values of RS_FN_POWER's out[0], in this order [W]. */
enum rs_power_id {
    RS_POWER_INPUTS = 0, RS_POWER_DAMPING, RS_POWER_CREEP, RS_POWER_OTHER, RS_POWER_COUNT
};

/* Most out[] pointers one function may write. */
#define RS_FN_MAX_OUT 16

/* One generated function and the shape of what it writes. */
typedef struct rs_func {
    rs_fn fn;                      /* NULL when the model lacks it          */
    int n_out;                     /* number of out[] pointers it writes    */
    const int *out_len;            /* length of each out[k] array           */
    const char *const *out_names;  /* meaning of each out[k] (may be NULL)  */
} rs_func;

/* One cubic spline of a contact, ((a t + b) t + c) t + d with t = u − u_bp:
 * the input slots of its five coefficients, the auxiliary coordinate whose
 * value selects the segment, and the file the model names for it. */
typedef struct rs_contact_spline {
    int u_slot[5];                 /* u slots of a, b, c, d, u_bp           */
    int s_slot;                    /* s slot that selects the segment       */
    const char *file;              /* profile or track file, "" if none     */
} rs_contact_spline;

/* Splines of a contact, in this order. */
enum rs_contact_spline_id {
    RS_SPLINE_WHEEL = 0, RS_SPLINE_RAIL, RS_SPLINE_TRACK_X, RS_SPLINE_TRACK_Y,
    RS_SPLINE_TRACK_Z, RS_SPLINE_CANT, RS_SPLINE_COUNT
};

/* One wheel-rail contact (docs/contact_element.md "Symbols and input slots"). */
typedef struct rs_contact {
    const char *name;              /* element name, e.g. "front.ws1.left"   */
    const char *wheel_body;        /* body the creep forces act on          */
    int side;                      /* +1 left wheel, −1 right wheel         */
    int s_slot[4];                 /* s slots of θ_w, u_w, s_r, u_r         */
    rs_contact_spline spline[RS_SPLINE_COUNT];
    int force_slot[3];             /* u slots of f_x, f_y, m_z (on the wheel) */
    int phi_row;                   /* row of φ^n in φ; N = −λ[phi_row]      */
    int elastic;                   /* the description's mode: 0 constraint
                                      contact, 1 elastic multi-point (the
                                      runtime's rs_options may override)    */
} rs_contact;

/* One user plugin force (version 12; abi/rs_plugin.h, docs/plugins.md): the
 * input slots the runtime writes before each force evaluation, in the order
 * f, ∂f/∂x, ∂f/∂v, x at evaluation, v at evaluation (names NAME.f,
 * NAME.dfdx, NAME.dfdv, NAME.x_eval, NAME.v_eval), and the model outputs
 * holding the deflection x and its rate v it reads (NAME.x, NAME.v). */
typedef struct rs_model_plugin {
    const char *name;              /* element name                          */
    const char *library;           /* as the description wrote it           */
    int n_param;
    const double *param;           /* n_param values (NULL when 0)          */
    int n_state;                   /* the plugin's own states               */
    int u_slot[5];                 /* f, dfdx, dfdv, x_eval, v_eval         */
    int out_x, out_v;              /* indices into RS_FN_OUTPUTS' out[0]    */
} rs_model_plugin;

typedef struct rs_model {
    unsigned magic;                /* RS_MODEL_MAGIC                        */
    unsigned version;              /* RS_MODEL_VERSION                      */
    const char *name;              /* model name, [a-z0-9_]                 */

    /* sizes */
    int n_q;                       /* generalized coordinates               */
    int n_s;                       /* auxiliary coordinates (contact)       */
    int n_p;                       /* parameters                            */
    int n_u;                       /* inputs                                */
    int n_const;                       /* hoisted constants                     */
    int n_phi;                     /* holonomic constraints                 */
    int n_out;                     /* user outputs                          */

    /* names of every symbol, per kind (arrays of the sizes above) */
    const char *const *q_names;
    const char *const *s_names;
    const char *const *p_names;
    const char *const *u_names;
    const char *const *phi_names;  /* constraint names (multiplier columns) */
    const char *const *output_names;

    const double *p_default;       /* n_p default parameter values (SI)     */

    rs_pattern M_pattern;          /* n_q × n_q                             */
    rs_pattern phi_q_pattern;      /* n_phi × n_q (n_phi = 0: arrays may be NULL) */

    rs_func fn[RS_FN_COUNT];       /* indexed by enum rs_fn_id              */

    /* wheel-rail contact (n_contact = 0: the rest may be NULL / empty)     */
    int n_contact;
    const rs_contact *contacts;    /* n_contact entries                     */
    rs_pattern phi_d_q_pattern;    /* 4 n_contact × n_q                     */
    rs_pattern ddelta_df_pattern;  /* n_q × 3 n_contact                     */
    rs_pattern dnu_dqd_pattern;    /* 3 n_contact × n_q                     */
    rs_pattern wheel_jac_pattern;  /* 6 n_contact × n_q (RS_FN_WHEEL out[2]) */

    /* force Jacobians (fn[RS_FN_DELTA_JAC] NULL: both empty)                */
    rs_pattern K_pattern;          /* n_q × n_q                             */
    rs_pattern C_pattern;          /* n_q × n_q                             */

    /* The initial state the description gives (n_q values each; the .vdl's
     * `coord NAME = VALUE`, 0 where it gives none, q̇ 0).  NULL: all zero. */
    const double *q0;
    const double *qd0;

    /* Units of every symbol, per kind (arrays of the sizes above, "" where
     * the compiler does not know it; docs/abi.md "Units").  A velocity's
     * unit is its coordinate's per second.  NULL: all unknown. */
    const char *const *q_units;
    const char *const *s_units;
    const char *const *p_units;
    const char *const *u_units;
    const char *const *output_units;

    /* FNV-1a 64 of the bytes of the model.json written with this C by
     * `railsym compile` (0: none): ties the descriptor to its model.json
     * (the folder loaders check it, rs_load.h). */
    unsigned long long content_hash;

    /* First-order internal states z (version 11; docs/elements.md "Elements
     * with an internal state"): n_z of them, each carried in an input slot
     * u[z_slot[i]] that the runtime integrates with ż from RS_FN_ZDOT (not
     * set by the caller).  z_names[i] = u_names[z_slot[i]], z_units likewise;
     * z0: initial values (NULL: all zero).  n_z = 0: the rest may be NULL. */
    int n_z;
    const int *z_slot;
    const char *const *z_names;
    const char *const *z_units;
    const double *z0;
    /* The bodies whose mass or inertia are made of parameters, in the order
     * of RS_FN_INERTIA's out[0] (mass) and out[1] (xx, yy, zz, xy, xz, yz
     * per body): the runtime checks each parameter set (rs_inertia.h).  NULL
     * when the model has none.  inertia_unchecked is at the end (version 14). */
    const char *const *inertia_bodies;
    /* User plugin forces (version 12): n_plugin = 0 and NULL in a model
     * without; the runtime needs rs_options.plugins for the others. */
    int n_plugin;
    const rs_model_plugin *plugins;
    /* Every body of the description, in its order (version 13): the rows
     * of RS_FN_BODY_POSE's out[0].  n_body = 0 and NULL in a model without
     * bodies (or a hand-written descriptor without the function). */
    int n_body;
    const char *const *body_names;
    /* Per entry of inertia_bodies (version 14): 1 where the description says
     * `inertia_unchecked "WHY"` (published data that break the triangle
     * inequality), so the runtime skips that inequality for the body but
     * still refuses a mass that is not positive or a negative principal
     * moment; 0 elsewhere.  NULL: every entry 0. */
    const int *inertia_unchecked;
} rs_model;

/* The state index of input slot u (0..n_z-1), or -1 when u is no state. */
static inline int rs_model_z_of_u(const rs_model *m, int u)
{
    for (int i = 0; i < m->n_z; i++)
        if (m->z_slot[i] == u)
            return i;
    return -1;
}

/* K, the length of RS_FN_STEP_CACHED's cache (RS_FN_PROJ's out[7]); 0 when
 * the model has no RS_FN_STEP_CACHED. */
static inline int rs_model_cache_len(const rs_model *m)
{
    return m->fn[RS_FN_STEP_CACHED].fn && m->fn[RS_FN_PROJ].fn && m->fn[RS_FN_PROJ].n_out == 8 ?
               m->fn[RS_FN_PROJ].out_len[7] : 0;
}

/* The number of bodies RS_FN_INERTIA checks (0 when the model lacks it). */
static inline int rs_model_inertia_count(const rs_model *m)
{
    return m->fn[RS_FN_INERTIA].fn && m->fn[RS_FN_INERTIA].n_out >= 1 ? m->fn[RS_FN_INERTIA].out_len[0] : 0;
}

/* The descriptor function every generated model exports. */
typedef const rs_model *(*rs_model_fn)(void);

#endif /* RS_MODEL_H */
