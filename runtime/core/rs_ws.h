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
#include "rs_model.h"
#include "rs_options.h"
#include "rs_stats.h"
#include "rs_status.h"

typedef struct rs_ws rs_ws;

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
 * the next evaluation (no recompilation).  A parameter the description
 * declares as an expression of others (`param dz = m*g/k`) is recomputed
 * from them after each set (RS_FN_PARAMS), unless it was set itself: a
 * value set explicitly wins (docs/vdl.md "Parameters"). */
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

/* Fills *info.  RS_E_ARG for a bad workspace. */
int rs_ws_klu_info(const rs_ws *ws, rs_klu_info *info);

/* Evaluations at the current state (outside a step; no allocation). */
int rs_ws_outputs(rs_ws *ws, double *out);                /* n_out values */
int rs_ws_energy(rs_ws *ws, double *kinetic, double *potential);
/* The wheels' kinematics (RS_FN_WHEEL: out[0] pose 12 nc, out[1] velocity
 * 6 nc, out[2] its Jacobian, out[3] geometry 2 nc; each sized by the
 * function's out_len) at the current state: what track-relative results and
 * `speed` placement read.  RS_E_MODEL when the model has no wheel function. */
int rs_ws_wheels(rs_ws *ws, double *const *out);
/* Every body's pose (RS_FN_BODY_POSE: 12 n_body values, per body its centre
 * of mass and R_ground_body row-major, in rs_model.body_names' order) at the
 * current state: what track-relative results read.  RS_E_MODEL when the
 * model has no body pose function. */
int rs_ws_body_pose(rs_ws *ws, double *pose);
/* The creep function (RS_FN_CREEP: out[0] ν 3 nc, out[1] V, out[2] radii,
 * out[3] ∂δ/∂f, out[4] ∂ν/∂q̇; each sized by its out_len) at the current
 * state, with the contact points s and spline slots as they are (after
 * rs_ws_init or a step): the velocities of the wheels' material points at
 * their contacts.  RS_E_MODEL when the model has none. */
int rs_ws_creep_eval(rs_ws *ws, double *const *out);
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
    RS_VAR_CONTACT,  /* per contact i: index RS_CONTACT_VAR_STRIDE i + k,
                        k = RS_CONTACT_VAR_* or a patch quantity        */
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
       RS_CONTACT_VAR_Y, RS_CONTACT_VAR_Q, RS_CONTACT_VAR_Y_Q, RS_CONTACT_VAR_PATCHES,
       RS_CONTACT_VAR_COUNT };
/* The suffix of contact quantity k (RS_CONTACT_VAR_*: "xi_x" ... "patches"),
 * "" outside. */
const char *rs_contact_var_suffix(int k);
/* Elastic contact (rs_elastic.h): "<contact>.patches", the number of active
 * patches of the wheel, and per patch j = 1..RS_CONTACT_PATCH_MAX (in the
 * order of the wheel profile coordinate, flange side first)
 * "<contact>.p<j>.<quantity>", quantity RS_PATCH_VAR_*: u_w, u_r (profile
 * coordinates of its deepest point on wheel and rail, m), alpha (contact
 * angle, rad), pen (approach, m), N (normal force, N), xi_x, xi_y, spin
 * (creepages), fx, fy (N), mz (N m) (creep forces on the wheel), a, b
 * (Hertz semi-axes, m); 0 where the patch is not active.  The constraint
 * contact has one point: patches 1, p1.* NaN (its point is s, its N the
 * multiplier). */
#define RS_CONTACT_PATCH_MAX 4
enum { RS_PATCH_VAR_U_W = 0, RS_PATCH_VAR_U_R, RS_PATCH_VAR_ALPHA, RS_PATCH_VAR_PEN, RS_PATCH_VAR_N,
       RS_PATCH_VAR_XI_X, RS_PATCH_VAR_XI_Y, RS_PATCH_VAR_SPIN, RS_PATCH_VAR_FX, RS_PATCH_VAR_FY,
       RS_PATCH_VAR_MZ, RS_PATCH_VAR_A, RS_PATCH_VAR_B, RS_PATCH_VAR_COUNT };
#define RS_CONTACT_VAR_STRIDE (RS_CONTACT_VAR_COUNT + RS_CONTACT_PATCH_MAX * RS_PATCH_VAR_COUNT)
/* The name of patch quantity q (RS_PATCH_VAR_*: "u_w" ... "b"), "" outside. */
const char *rs_contact_patch_var_suffix(int q);
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

/* The contact whose normal constraint is row `row` of φ (its multiplier is
 * −N under the constraint contact; the elastic contact holds no such
 * constraint), or −1. */
int rs_model_contact_of_row(const rs_model *model, int row);

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
