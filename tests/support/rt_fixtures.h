/*
 * rt_fixtures.h — hand-written test models (tests/support/rt_models/, in the
 * generated-code ABI) linked statically, and exact answers the runtime does
 * not compute: the pendulum by Jacobi elliptic functions, the four-bar's
 * assembly by circle intersection.
 */
#ifndef RT_FIXTURES_H
#define RT_FIXTURES_H

#include <stdio.h>

#include "rs_log.h"
#include "rs_runtime.h"

const rs_model *rt_pendulum_model(void);
const rs_model *rt_cartpend_model(void);
const rs_model *rt_fourbar_model(void);

/* Folder of a fixture, for the dlopen and tcc loaders ("tests/support/rt_models/NAME"). */
#define RT_MODELS_DIR "tests/support/rt_models"

/* Complete elliptic integral of the first kind K(k), modulus k < 1, by the
 * arithmetic-geometric mean: K = π / (2 AGM(1, √(1−k²))). */
double rt_ellip_k(double k);

/* Jacobi sn(u, k) by the descending AGM (Abramowitz & Stegun 16.4). */
double rt_jacobi_sn(double u, double k);

/* Exact angle of a pendulum released from rest at theta0 (|theta0| < π):
 * θ(t) = 2 asin(k sn(K − ω0 t, k)), k = sin(θ0/2), ω0 = √(g/L). */
double rt_pendulum_exact(double t, double theta0, double g, double L);

/* Exact period 4 K(k) / ω0. */
double rt_pendulum_period(double theta0, double g, double L);

/* Four-bar with parameters p (the order of rt_fourbar's p_names), crank at
 * th1: coupler and rocker angles closing the loop (B above the line A-D),
 * by intersecting the circles about A (radius L2) and D (radius L3).
 * Returns 0, or -1 if the loop cannot close. */
int rt_fourbar_assemble(const double *p, double th1, double *q);

/* A log sink (rs_log.h) writing each line to f as the command does:
 * "railsym run: <line>\n", reports (RS_LOG_RAW) as they are. */
rs_log rt_log_to(FILE *f);

/* Creates a workspace or aborts the test with the message. */
rs_ws *rt_ws_new(const rs_model *m, rs_method method, double dt, double tol);

/* A generated model folder (generated/NAME) loaded with libtcc, or aborts the
 * test with the loader's message. */
struct rs_loaded *rt_load(const char *dir);

/* A parameter's value, or sets it; any named quantity (rs_model_find's
 * names) at the current state.  An unknown name aborts the test, naming it. */
double rt_param(rs_ws *ws, const char *name);
void rt_set_param(rs_ws *ws, const char *name, double x);
double rt_value(rs_ws *ws, const char *name);

/* A parameter's default and a coordinate's index in the model's descriptor;
 * an unknown name aborts the test, naming it. */
double rt_param_default(const rs_model *m, const char *name);
int rt_coord_index(const rs_model *m, const char *name);

/* ---- trains against single runs ---- */

struct rs_train_wheel_contact_opts;

/* A single run's workspace of m whose elastic contact is a train's
 * (rs_train_wheel_contact_opts co: its E, nu, vmin, damping, creep, mu, creep
 * law and track), step dt, started from the state q, qd (n_q each: the
 * train's) and initialized: the second formulation the train tests compare
 * a train's run with.  A failure aborts the test with the message. */
rs_ws *rt_single_run_ws(const rs_model *m, const struct rs_train_wheel_contact_opts *co, double dt,
                        const double *q, const double *qd);

/* The FEVE 3000 (generated/feve3000) rolling at v: its wheelsets' spin
 * rates v / r0 and the motors' rotors geared to them (rotor_dot =
 * -(z_WHS/z_ROT) spin_dot, 201.45 = 4.25 x 47.4 in demo.scn), as the
 * reference run starts; qd and set (n_q each) zero elsewhere. */
void rt_feve_rotors(const rs_model *m, double v, double *qd, unsigned char *set);

#endif /* RT_FIXTURES_H */
