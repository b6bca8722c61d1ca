/*
 * rs_train.h — long trains on the Park integrator (rs_park.h): vehicles as
 * blocks, couplers as links (DESIGN.md "Trains", docs/trains.md).
 *
 * Vehicle model ("wagon", written in C for this layer; a locomotive is a
 * wagon with traction).  Five coordinates, SI, x forward, z up:
 *
 *   0 x      car body (and bogies) longitudinal position [m]
 *   1 z      car body vertical displacement [m]
 *   2 theta  car body pitch, nose up positive [rad] (small-angle kinematics)
 *   3 z1     front bogie vertical displacement [m] (0: wheels just touch)
 *   4 z2     rear bogie vertical displacement [m]
 *
 * Forces, each with its exact Jacobian (K = −∂F/∂q, C = −∂F/∂q̇):
 *   - gravity on body and bogies;
 *   - secondary suspension per bogie k at s_k = ±a: linear spring-damper on
 *     d_k = z + s_k θ − z_k (free length at d = 0);
 *   - compliant Hertzian wheel-rail normal contact per bogie (its wheels
 *     lumped): N = c_hertz δ^{3/2} + c_contact δ̇ for penetration δ = −z_k > 0,
 *     no force (lift-off) for δ <= 0;
 *   - rolling resistance on x: R = m_x g (r0 ẋ/√(ẋ² + v_s²) + r1 ẋ), the
 *     constant part smoothed near standstill over v_s;
 *   - traction on x: constant, or a table over time (linear between rows,
 *     held outside).
 * The longitudinal mass is m_x = m_body + 2 m_bogie.
 *
 * Coupler between vehicle i (ahead) and i+1 (behind), through ports
 * (x, θ) of each; coupling points at x − l_rear − h θ of i and x + l_front
 * − h θ of i+1 (h: their height above the body's centre of mass).
 * Elongation e = (x_i − l_rear,i − h_i θ_i) − (x_{i+1} + l_front,i+1 −
 * h_{i+1} θ_{i+1}) − length; tension positive:
 *
 *   |e| <= slack/2            F = 0 (free play: no spring, no damper)
 *   e > slack/2               F = k (e − slack/2) + c ė
 *   e < −slack/2              F = k (e + slack/2) + c ė
 *     and e < −slack/2 − buffer_gap:  + k_buffer (e + slack/2 + buffer_gap)
 *
 * piecewise linear with its exact Jacobian (the slope of the active piece;
 * at a kink, the piece the state is in).
 *
 * A vehicle may instead be a compiled railsym model (rs_wagon.model,
 * rs_train_model.h); a train with one is integrated as non-symmetric (LU
 * blocks; BiCGStab, or GMRES when chosen), since a model's K and C need not
 * be symmetric (gyroscopic and follower terms).
 *
 * rs_train_step allocates nothing (rs_park_step); create and start do.
 */
#ifndef RS_TRAIN_H
#define RS_TRAIN_H

#include <stddef.h>

#include "rs_model.h"
#include "rs_plugin.h"
#include "rs_park.h"

enum { RS_WAGON_NQ = 5 };
enum { RS_WAGON_X = 0, RS_WAGON_Z = 1, RS_WAGON_PITCH = 2, RS_WAGON_Z1 = 3, RS_WAGON_Z2 = 4 };

typedef struct rs_wagon {
    double m_body;        /* car body mass [kg]                              */
    double i_pitch;       /* car body pitch inertia [kg m^2]                 */
    double m_bogie;       /* each of the two bogies with wheelsets [kg]      */
    double a;             /* half the bogie-centre distance [m]              */
    double k_s, c_s;      /* secondary suspension per bogie [N/m], [N s/m]   */
    double c_hertz;       /* Hertz constant of a bogie's wheels [N/m^1.5]    */
    double c_contact;     /* contact damping while in contact [N s/m]        */
    double l_front, l_rear;   /* centre of mass to coupling points [m]       */
    double h_coupler;     /* coupling points above the centre of mass [m]    */
    double r0;            /* rolling resistance, constant part [N/N]         */
    double r1;            /* rolling resistance, linear part [N/N per m/s]   */
    double v_s;           /* standstill smoothing speed of r0 [m/s], > 0     */
    double g;             /* gravity [m/s^2]                                 */
    double traction;      /* traction force [N] when no table is given       */
    int traction_n;       /* rows of the traction table (0: constant)        */
    const double *traction_t, *traction_f;   /* table: times [s] increasing, forces [N] */
    /* A compiled railsym model instead of the built-in five coordinates
     * (rs_train_model.h; NULL: built-in).  Then m_body ... c_contact are not
     * used; traction and rolling resistance act on coordinate port_x, the
     * coupler on port_x and port_pitch (-1: none, the coupler acts on x
     * only); m_x is M[port_x][port_x].  The descriptor, model_p (n_p values,
     * NULL: defaults) and model_u (n_u, NULL: 0) are borrowed by
     * rs_train_create, which copies the values into its instance. */
    const rs_model *model;
    const double *model_p, *model_u;
    int port_x, port_pitch;
    /* A model with wheel-rail contacts: its contact options (NULL: the
     * defaults of rs_train_wheel_contact_opts_default; copied at create).  Any compiled
     * model: initial coordinates and velocities (n_q values each, NULL:
     * none) where init_q_set / init_qd_set (n_q bytes) are non-zero; copied
     * at create, applied by rs_train_start. */
    const struct rs_train_wheel_contact_opts *model_contact;
    const double *init_q, *init_qd;
    const unsigned char *init_q_set, *init_qd_set;
    /* Any compiled model: n_p flags, non-zero where model_p's value was set
     * by the caller; the parameters the description declares from others
     * and that were not set then follow the values given, as in a single
     * run (NULL: model_p is taken as it is).  init_z: n_z initial internal
     * states (NULL: the description's).  model_plugins: the tables of the
     * model's user plugins (rs_compiled_vehicle_opts.plugins; borrowed for
     * the train's life).  Flags and init_z are copied at create. */
    const unsigned char *model_p_set;
    const double *init_z;
    const rs_plugin_api *const *model_plugins;
} rs_wagon;

typedef struct rs_coupler {
    double k;             /* draw-gear stiffness [N/m]                       */
    double c;             /* damping while engaged [N s/m]                   */
    double length;        /* neutral distance between coupling points [m]    */
    double slack;         /* total free play [m], >= 0                       */
    double buffer_gap;    /* compression travel past the slack before the buffers act [m] */
    double k_buffer;      /* added buffer stiffness [N/m] (0: none)          */
} rs_coupler;

/* A loaded four-axle freight wagon (docs/trains.md gives the numbers). */
void rs_wagon_default(rs_wagon *w);
/* A six-axle locomotive: heavier, traction 0 until set. */
void rs_loco_default(rs_wagon *w);
void rs_coupler_default(rs_coupler *c);

/* The vertical static equilibrium of a wagon on level track (pitch 0, no
 * coupler force): writes z, theta, z1, z2 of q (x untouched). */
void rs_wagon_static(const rs_wagon *w, double *q);

/* The coupler force [N] (tension positive) and elongation [m] for port
 * values q = (x_i, θ_i, x_{i+1}, θ_{i+1}), q̇ likewise; writes dF/de and
 * dF/dė if the pointers are not NULL. */
double rs_coupler_force(const rs_coupler *c, const rs_wagon *ahead, const rs_wagon *behind, const double *q,
                        const double *qd, double *e_out, double *dfde, double *dfdv);

/* The vehicle's M, F, K = −∂F/∂q, C = −∂F/∂q̇ at (t, q, q̇) (RS_WAGON_NQ
 * coordinates; matrices column-major, zeroed by the caller; F is added to). */
void rs_wagon_eval(const rs_wagon *w, double t, const double *q, const double *qd, double *M, double *F, double *K,
                   double *C);

/* The coupler's port forces F (4), K = −∂F/∂q and C = −∂F/∂q̇ (4 × 4,
 * column-major, overwritten) for ports (x_a, θ_a, x_b, θ_b). */
void rs_coupler_eval(const rs_coupler *c, const rs_wagon *ahead, const rs_wagon *behind, const double *q,
                     const double *qd, double *F, double *K, double *C);

/* Parameter checks: RS_OK, or RS_E_ARG with "vehicle 'NAME': m_body = -1
 * must be > 0" (coupler: "coupler 'NAME': ...") in err. */
int rs_wagon_check(const rs_wagon *w, const char *name, char *err, size_t errlen);
int rs_coupler_check(const rs_coupler *c, const char *name, char *err, size_t errlen);

typedef struct rs_train rs_train;

/* nv vehicles, front first, and the nv − 1 couplers between them (cpl[i]
 * joins vehicle i and i+1).  Names are copied (NULL: "v<i>", "c<i>");
 * traction tables are copied.  Parameters are checked (message names the
 * vehicle or coupler and the parameter).  RS_OK, RS_E_ARG, RS_E_NOMEM. */
int rs_train_create(rs_train **tr, int nv, const rs_wagon *veh, const char *const *vnames, const rs_coupler *cpl,
                    const char *const *cnames, const rs_park_opts *opts, char *err, size_t errlen);
void rs_train_free(rs_train **tr);

/* Puts the train at rest vertically (static equilibrium), the front
 * vehicle's centre at x_front, each next one behind it with its coupler at
 * e = 0, all moving at v0 [m/s]; t = t0; then rs_park_init.
 * A compiled vehicle: every coordinate named like its x port or ending in
 * ".<x port name>" (a template's copy, e.g. front.x) is placed at the
 * vehicle's position (plus its init_q value, if set) and moves at v0 (or
 * its init_qd value); the other coordinates start at their init_q values or
 * 0 and the static equilibrium holds the x port and every set coordinate.
 * A vehicle with contacts then gets the steady motion at those speeds
 * (rs_compiled_vehicle_steady: its wheelsets roll) over the velocities not set.
 * On failure rs_train_error says which vehicle and why. */
int rs_train_start(rs_train *tr, double t0, double x_front, double v0);
/* One Park step; then each compiled vehicle's internal states and
 * plugins' discrete states are advanced to the accepted state (serially,
 * vehicles in order).  On failure rs_train_error holds the integrator's
 * message (rs_park_error) with the vehicle's own reason when it has one
 * (a plugin's, an internal state's).  A failure of the integrator leaves
 * the state as it was (rs_park.h); one of that last update (a state's rate
 * or a plugin's `advance` failing at the accepted state) leaves q, q̇ of
 * the new time: the run stops there. */
int rs_train_step(rs_train *tr);
const char *rs_train_error(const rs_train *tr);
/* The vehicle whose start-up failed in the last rs_train_start (its
 * message in rs_train_error), or -1. */
int rs_train_error_vehicle(const rs_train *tr);
/* Flange climbing and derailment (the elastic contact; docs/trains.md
 * "Events"): after each step rs_train_step judges every elastic vehicle's
 * wheels on the wrench the step applied (rs_train_wheel_contact_events),
 * vehicles in order on the calling thread, after the states' update.
 * Each event that starts goes to fn (NULL: none) with ctx, the vehicle's
 * index and `stops`; a derailment of a vehicle whose contact options do
 * not say derail_continue stops the run: rs_train_step returns
 * RS_E_DERAILED, rs_train_error names the vehicle, the contact, the event,
 * its time and Y/Q, and the train stands at the step's end (the event's
 * time; unlike a single run, whose stopped step commits nothing). */
struct rs_contact_event; /* rs_options.h */
typedef void (*rs_train_event_cb)(void *ctx, int vehicle, const struct rs_contact_event *e, int stops);
void rs_train_set_event_fn(rs_train *tr, rs_train_event_cb fn, void *ctx);
/* A compiled vehicle's instance (NULL: built-in). */
struct rs_compiled_vehicle *rs_train_compiled(rs_train *tr, int v);
/* The contacts of vehicle v (NULL: none or built-in). */
struct rs_train_wheel_contact *rs_train_contact(rs_train *tr, int v);

rs_park *rs_train_park(rs_train *tr);
int rs_train_nvehicles(const rs_train *tr);
const char *rs_train_vehicle_name(const rs_train *tr, int v);
const char *rs_train_coupler_name(const rs_train *tr, int c);
const rs_wagon *rs_train_vehicle(const rs_train *tr, int v);
double rs_train_mass(const rs_train *tr);                 /* Σ m_x [kg] */
double rs_train_vehicle_mx(const rs_train *tr, int v);   /* m_x of one [kg] */

/* At the current state: a vehicle's coordinates (rs_train_vehicle_nq of
 * them: RS_WAGON_NQ for the built-in model), velocities, its longitudinal
 * position and speed (the x port), and a coupler's force [N] and elongation
 * [m]. */
const double *rs_train_q(const rs_train *tr, int v);
const double *rs_train_qd(const rs_train *tr, int v);
int rs_train_vehicle_nq(const rs_train *tr, int v);
double rs_train_x(const rs_train *tr, int v);
double rs_train_v(const rs_train *tr, int v);
double rs_train_coupler(const rs_train *tr, int c, double *elongation);

/* The traction force of a vehicle at time t [N]. */
double rs_wagon_traction(const rs_wagon *w, double t);

#endif /* RS_TRAIN_H */
