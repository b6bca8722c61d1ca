/*
 * rs_contact_ops.h — the plug-in interface between the workspace (core) and
 * a wheel-rail contact implementation.
 *
 * The core knows contacts only through this table: a model with
 * n_contact > 0 needs rs_options.contact set to an implementation, e.g. the
 * one of runtime/contact/ (rs_wheel_rail_contact() in rs_contact.h).  The
 * core never includes a contact header and never links contact code, so an
 * embedded program for a contact-free model builds from runtime/core/ alone,
 * and one for a contact model adds runtime/contact/ and passes the table.
 *
 * rs_contact_ws is the implementation's own state, opaque here.  Every entry
 * that takes a struct rs_ws may use the workspace's internals
 * (rs_ws_impl.h): the implementation is a layer above the core.
 */
#ifndef RS_CONTACT_OPS_H
#define RS_CONTACT_OPS_H

#include <stddef.h>

#include "rs_model.h"

struct rs_ws;
struct rs_options;
struct rs_allocator;
typedef struct rs_contact_ws rs_contact_ws;

/* after_solve: solve the step again; no rs_status (rs_status.h) has this
 * value, so an error or RS_STOPPED is never taken for it */
enum { RS_CONTACT_AGAIN = 1000 };

typedef struct rs_contact_ops {
    /* Loads the profiles and tracks and sizes everything for model m
     * (n_contact > 0); RS_OK, or an error with a message in err. */
    int (*create)(const rs_model *m, const struct rs_options *opt, const struct rs_allocator *a,
                  rs_contact_ws **out, char *err, size_t errlen);
    void (*release)(rs_contact_ws **c, const struct rs_allocator *a);
    /* The structural pattern of C^K_qq (n_q × n_q), joined to M's in the
     * system matrix. */
    const rs_pattern *(*ck_pattern)(const rs_contact_ws *c);
    /* Set-up, once the system matrix exists: C^K's positions in it. */
    void (*bind_k)(struct rs_ws *ws);
    /* The spline coefficient input slots of contact i (all when i < 0) from
     * the segments holding s. */
    void (*fill)(rs_contact_ws *c, int i, const double *s, double *u);
    /* u was written from outside (input callback, rs_ws_u, rs_ws_set_u):
     * the next fill rewrites every spline slot. */
    void (*inputs_changed)(rs_contact_ws *c);
    /* Where RS_FN_STEP writes its creep outputs 4..8 (ν, V, radii, ∂δ/∂f,
     * ∂ν/∂q̇): out[0..4] are set.  An elastic implementation gives instead
     * where RS_FN_STEP_ELASTIC writes the wheels' outputs 2..5 (pose,
     * velocity, Jacobian, geometry) in out[0..3], NULL in out[4]; the core
     * then sets ws->creep_ready and `creep` uses them without calling
     * RS_FN_WHEEL (and clears it). */
    void (*step_outputs)(rs_contact_ws *c, double **out);
    /* Newton on φ^d = 0 for s, and ṡ from the φ^d velocity equation. */
    int (*solve_s)(struct rs_ws *ws, double t);
    int (*solve_sd)(struct rs_ws *ws, double t);
    /* Creep matrices from the last normal forces, at the step's start. */
    int (*creep)(struct rs_ws *ws);
    /* The system matrix += scale · C^K_qq; the right-hand side
     * rhs[0..n_q) −= scale · D (Cb ν_t) (creep of prescribed motion). */
    void (*add_ck)(struct rs_ws *ws, double scale);
    void (*add_explicit_creep)(const struct rs_ws *ws, double scale, double *rhs);
    /* After the solve: lift-off check, creep forces into their inputs.
     * RS_CONTACT_AGAIN (elastic): the solve made a patch pull; the contact
     * took it out of the step (add_ck and add_explicit_creep changed), the
     * step builds and solves its system again.  The contact returns it a
     * bounded number of times per step. */
    int (*after_solve)(struct rs_ws *ws, const double *qd_new);
    /* Contact i's result quantity k (RS_CONTACT_VAR_*, rs_ws.h; N too when
     * elastic). */
    double (*value)(const struct rs_ws *ws, int i, int k);
    /* 1: an elastic implementation.  The contacts' normal constraints φ^n
     * then leave the dynamics (the workspace runs a view of the model
     * without them: n_phi = 0, no combined functions; a model with other
     * constraints is refused, RS_E_UNSUPPORTED); `creep` computes every
     * contact force and its Jacobians, `add_ck` adds Δt C + Δt²/2 K to the
     * system matrix and `add_explicit_creep` the forces to the right-hand
     * side (docs/runtime.md "Elastic contact").  `create` receives the
     * model itself, every other entry the workspace with the view. */
    int elastic;
    /* The plug-in's state a run carries from step to step (spline and
     * patch hints, caches, the last forces, event flags), for rs_ws_state
     * (FMI's fmi2GetFMUstate): state_size bytes that state_save writes and
     * state_restore reads back into the state of a workspace of the same
     * model and options (also another one, in another process: no
     * pointers in the bytes).  No allocation. */
    size_t (*state_size)(const rs_contact_ws *c);
    void (*state_save)(const rs_contact_ws *c, void *buf);
    void (*state_restore)(rs_contact_ws *c, const void *buf);
} rs_contact_ops;

#endif /* RS_CONTACT_OPS_H */
