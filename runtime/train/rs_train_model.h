/*
 * rs_train_model.h — a compiled railsym model as a vehicle of the train mode
 * (docs/trains.md "Compiled vehicles").
 *
 * One descriptor (rs_model: the generated code) is shared by every vehicle
 * of its type; each vehicle is an rs_compiled_vehicle instance with its own parameters,
 * inputs, hoisted constants and scratch, so any number of instances are
 * evaluated at once from different threads.  The model must be an ODE
 * (no constraints) but for its wheel-rail contacts, whose normal constraints
 * become compliant Hertz forces with creep (rs_train_contact.h), and it must
 * carry the force Jacobians K = −∂δ/∂q, C = −∂δ/∂q̇ (RS_FN_DELTA_JAC), which
 * `railsym compile` emits for every model.
 *
 *     M(q) q̈ = δ(q, q̇, t) + (traction on the x coordinate)
 *
 * rs_compiled_vehicle_eval writes M, F = δ, K and C dense as an rs_park block function
 * wants them (column-major n × n); it allocates nothing.  The term ∂M/∂q q̈
 * of the linearization is left out, as in seed 000's method.
 */
#ifndef RS_TRAIN_MODEL_H
#define RS_TRAIN_MODEL_H

#include <stddef.h>

#include "rs_model.h"
#include "rs_plugin.h"
#include "rs_status.h"
#include "rs_train_contact.h"
#include "rs_ws.h"   /* rs_allocator */

typedef struct rs_compiled_vehicle rs_compiled_vehicle;

/* Checks that model m can be a vehicle (ODE, Jacobians present) and that
 * coordinate names port_x (required) and port_pitch (NULL or "": none) exist;
 * writes their indices.  RS_OK or RS_E_ARG / RS_E_MODEL with a message
 * naming the model and what to do. */
int rs_compiled_vehicle_check_model(const rs_model *m, const char *port_x, const char *port_pitch, int *ix, int *ipitch,
                        char *err, size_t errlen);

/* An instance of model m with parameters p (n_p values; NULL: the model's
 * defaults) and inputs u (n_u; NULL: 0).  Computes the hoisted constants.
 * alloc NULL: calloc/free. */
int rs_compiled_vehicle_create(rs_compiled_vehicle **v, const rs_model *m, const double *p, const double *u, const rs_allocator *alloc,
                   char *err, size_t errlen);
/* The same with the contact options of a model with wheel-rail contacts
 * (co NULL: rs_train_wheel_contact_opts_default; ignored without contacts). */
int rs_compiled_vehicle_create_contact(rs_compiled_vehicle **v, const rs_model *m, const double *p, const double *u,
                           const rs_train_wheel_contact_opts *co, const rs_allocator *alloc, char *err, size_t errlen);

/* What a vehicle may have besides its parameters and inputs ({0}: none of
 * it; every pointer borrowed for the call only, but plugins). */
typedef struct rs_compiled_vehicle_opts {
    const rs_train_wheel_contact_opts *contact;   /* NULL: defaults; ignored without contacts */
    /* n_p flags, non-zero where the caller set the parameter: every other
     * one the description declares from other parameters (`param dz =
     * m*g/k`) is recomputed from p as a single run's workspace does
     * (rs_params.h; a dependent parameter set itself keeps its value).
     * NULL: p is taken as it is. */
    const unsigned char *p_set;
    const double *z0;                 /* n_z initial internal states (NULL: the model's z0) */
    /* n_plugin tables of the model's user plugin forces (abi/rs_plugin.h),
     * in the order of m->plugins; borrowed for the vehicle's life.
     * Required when the model has plugins. */
    const rs_plugin_api *const *plugins;
} rs_compiled_vehicle_opts;

/* The general form: the above with o (NULL: {0}). */
int rs_compiled_vehicle_create_opts(rs_compiled_vehicle **v, const rs_model *m, const double *p, const double *u,
                                    const rs_compiled_vehicle_opts *o, const rs_allocator *alloc, char *err,
                                    size_t errlen);
void rs_compiled_vehicle_free(rs_compiled_vehicle **v);

/* The contacts of a vehicle (NULL: none): per-contact forces of the last
 * evaluation, error messages. */
rs_train_wheel_contact *rs_compiled_vehicle_contact(rs_compiled_vehicle *v);

const rs_model *rs_compiled_vehicle_model(const rs_compiled_vehicle *v);
double *rs_compiled_vehicle_u(rs_compiled_vehicle *v);                  /* n_u inputs, writable between steps */
const double *rs_compiled_vehicle_p(const rs_compiled_vehicle *v);

/* Internal states z (n_z > 0: series spring-dampers, air springs;
 * docs/trains.md "Internal states").  The vehicle holds z_n, the states at
 * the time t_n of the train's last accepted step; an evaluation at t > t_n
 * sees each z_i advanced to t by rs_etd_advance with ż_i = a_i + b_i z_i,
 * a_i linear in time between its value at t_n and its value at the state
 * evaluated, so the forces are consistent with the state they are
 * evaluated at (the Jacobians K, C hold z fixed).  An evaluation at t_n
 * sees z_n.
 * rs_compiled_vehicle_z_start: t_n = t, a_i at (t, q, q̇, z_n) and b_i;
 * RS_E_VALUE when a b_i is not negative (the message names the state).
 * rs_compiled_vehicle_z_commit: the step to t is accepted at (q, q̇): z_n
 * becomes z there, t_n = t.  Both RS_OK without states. */
int rs_compiled_vehicle_z_start(rs_compiled_vehicle *v, double t, const double *q, const double *qd);
int rs_compiled_vehicle_z_commit(rs_compiled_vehicle *v, double t, const double *q, const double *qd);
/* n_z states z_n (writable before rs_compiled_vehicle_z_start). */
double *rs_compiled_vehicle_z(rs_compiled_vehicle *v);
/* User plugins: the step to t is accepted at (q, q̇): each plugin's
 * `advance` (its discrete states), as after a single run's step.  RS_OK
 * without plugins. */
int rs_compiled_vehicle_plugin_advance(rs_compiled_vehicle *v, double t, double dt, const double *q, const double *qd);
/* The message of the vehicle's last failure in its states or plugins ("" none). */
const char *rs_compiled_vehicle_error(const rs_compiled_vehicle *v);

/* M (n × n), F += δ, K = −∂δ/∂q, C = −∂δ/∂q̇ at (t, q, q̇); matrices dense
 * column-major, zeroed by the caller (rs_park does).  Any of M, F, K, C may be
 * NULL.  Allocation-free; concurrent calls on different instances are safe.
 * RS_OK, RS_E_MODELFN (a generated function returned non-zero). */
int rs_compiled_vehicle_eval(rs_compiled_vehicle *v, double t, const double *q, const double *qd, double *M, double *F, double *K,
                 double *C);

/* Static equilibrium: Newton on δ(q, 0, t) = 0 over every coordinate but
 * `fixed` (−1: none) from the q given, with the exact K.  RS_OK when the
 * Newton step is below 1e-12 (relative to 1 + |q|) within 50 iterations;
 * RS_E_SINGULAR (a coordinate without restoring stiffness: *bad its index)
 * or RS_E_NOCONV.  Allocation-free (uses the instance's scratch). */
int rs_compiled_vehicle_static(rs_compiled_vehicle *v, double t, double *q, int fixed, int *bad);

/* The same holding every coordinate i with fixed[i] != 0 (NULL: none).  A
 * vehicle with contacts runs Newton on a central-difference Jacobian
 * instead (its K lacks the contacts' geometric stiffness), regularized for
 * coordinates without stiffness and with steps of at most 2 mm, to
 * max |F| ≤ 1e-12 of the first residual (rs_train_model.c). */
int rs_compiled_vehicle_static_mask(rs_compiled_vehicle *v, double t, double *q, const unsigned char *fixed, int *bad);

/* Steady rolling at the positions q: Newton on F(q, q̇, t) = 0, with C,
 * over the velocities of the cyclic coordinates not fixed (those without
 * stiffness: K's column is zero — a wheelset's spin), so that a wheelset
 * rolls at the speed its centre moves (its longitudinal creep vanishes);
 * the other velocities stay as given.  Same returns as rs_compiled_vehicle_static. */
int rs_compiled_vehicle_steady(rs_compiled_vehicle *v, double t, const double *q, double *qd, const unsigned char *fixed, int *bad);

#endif /* RS_TRAIN_MODEL_H */
