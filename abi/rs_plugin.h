/*
 * rs_plugin.h — the C ABI of a user plugin: a force computed by a user's
 * shared library, attached to a model with the description statement
 *     plugin NAME library "libx.so" between P [of B1] and Q [of B2]
 *            [params [v1, v2, ...]] [states N] [along DIRECTION]
 * (docs/plugins.md).  Plain C99, no system headers: a plugin includes only
 * this file.
 *
 * The element acts like a spring (docs/elements.md): it reads the axial
 * deflection x (the distance P→Q, or its component along DIRECTION) and its
 * rate v, and returns the tension f (pulling P and Q together when
 * positive), optionally with ∂f/∂x and ∂f/∂v.  The model carries f and the
 * Jacobian in input slots that the runtime writes before each force
 * evaluation; the generated force is
 *     f + dfdx (x(q) − x_eval) + dfdv (v(q, q̇) − v_eval)
 * which equals f where the plugin was called and whose derivatives, in the
 * model's force Jacobians (RS_FN_DELTA_JAC), are the plugin's.
 *
 * A library exports one symbol, RS_PLUGIN_ENTRY_SYMBOL, returning its table;
 * the runtime refuses a table whose abi_version differs from
 * RS_PLUGIN_ABI_VERSION.  A static (embedded) build links the plugin's
 * object and passes the table itself (rs_options.plugins).
 */
#ifndef RS_PLUGIN_H
#define RS_PLUGIN_H

/* Bump whenever rs_plugin_in, rs_plugin_out or rs_plugin_api change. */
#define RS_PLUGIN_ABI_VERSION 1
#define RS_PLUGIN_ENTRY_SYMBOL "rs_plugin_entry"

/* What the plugin reads at each call (SI units). */
typedef struct rs_plugin_in {
    double t;              /* time [s]                                        */
    double x;              /* axial deflection: the length P→Q, or the
                              component along the element's direction [m]    */
    double v;              /* its rate [m/s]                                  */
    const double *param;   /* the description's params, n_param values       */
    int n_param;
    const double *state;   /* the plugin's own states, n_state values
                              (read only here; changed by `advance`)         */
    int n_state;
} rs_plugin_in;

/* What it returns.  The runtime zeroes it before each call. */
typedef struct rs_plugin_out {
    double f;              /* tension [N], P and Q pulled together when > 0   */
    double dfdx, dfdv;     /* ∂f/∂x [N/m], ∂f/∂v [N·s/m]: give them (and set
                              has_jac = 1) for the implicit treatment         */
    int has_jac;
} rs_plugin_out;

/* Returned by the functions below: 0 success; anything else stops the run
 * with a message naming the plugin and the time. */
#define RS_PLUGIN_OK 0

typedef struct rs_plugin_api {
    unsigned abi_version;  /* RS_PLUGIN_ABI_VERSION                           */
    /* Optional (NULL: none).  Called once per workspace before the first
     * evaluation: may allocate its context (*ctx, passed back to every call)
     * and set the initial states state[0..n_state) (zero when it does not);
     * err (errlen bytes) takes a message when it fails. */
    int (*init)(void **ctx, const double *param, int n_param, double *state, int n_state, char *err,
                unsigned long errlen);
    /* Required.  The force at one evaluation: no allocation, no I/O. */
    int (*eval)(void *ctx, const rs_plugin_in *in, rs_plugin_out *out);
    /* Optional.  Once after each accepted step of length dt, at the step's
     * end (in: the new t, x, v and the states before the update): updates
     * the discrete states in place (a controller's integrator). */
    int (*advance)(void *ctx, const rs_plugin_in *in, double dt, double *state);
    /* Optional.  Frees what init allocated, when the workspace is freed. */
    void (*release)(void *ctx);
} rs_plugin_api;

/* The one exported function of a plugin library. */
typedef const rs_plugin_api *(*rs_plugin_entry_fn)(void);

#endif
