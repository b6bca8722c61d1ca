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
void rs_compiled_vehicle_free(rs_compiled_vehicle **v);

/* The contacts of a vehicle (NULL: none): per-contact forces of the last
 * evaluation, error messages. */
rs_train_wheel_contact *rs_compiled_vehicle_contact(rs_compiled_vehicle *v);

const rs_model *rs_compiled_vehicle_model(const rs_compiled_vehicle *v);
double *rs_compiled_vehicle_u(rs_compiled_vehicle *v);                  /* n_u inputs, writable between steps */
const double *rs_compiled_vehicle_p(const rs_compiled_vehicle *v);

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
