/*
 * test_rt_generated.c — the runtime on the shipped examples as `railsym
 * compile` wrote them (generated/<model>/), not on hand-written fixtures.
 * Every check is against an answer written in this file, independent of the
 * modeler, the code generator and the runtime:
 *
 *   - double pendulum (generated/double_pendulum): RK4, Δt = 1 ms, 10 s of a
 *     chaotic swing; the energy, computed here from the link positions and
 *     velocities, drifts by less than DP_DRIFT_BOUND relative to the energy
 *     above the hanging rest state; the generated energy function agrees
 *     with this file's formula.
 *   - free body on its bushing (generated/free_body): the same with gravity
 *     and the bushing's potential, bound FB_DRIFT_BOUND.
 *   - torque-free body (generated/torque_free_body): no force at all, full
 *     inertia tensor.  The angular momentum in ground H = R I Rᵀ ω, with the
 *     rotation R = Rz(ψ) Ry(θ) Rx(φ) and ω from the Euler angles and rates
 *     written out here (the sequence of torque_free_body.vdl), stays fixed to
 *     TFB_H_BOUND relative; the kinetic energy to TFB_T_BOUND; the centre of
 *     mass moves on a straight line at constant speed.
 *   - the three loaders (static link of generated/four_bar/ sources into this
 *     program, dlopen of gcc -O2 and -O3 -march=native builds, libtcc) give
 *     the same trajectory of the four-bar (constraints, projections, KLU) to
 *     1e-12, with IMEX Euler and RK4.
 *
 * The bounds (below, and docs/runtime.md) were set from measured drifts with
 * a margin.  Each conservation test also runs at Δt/2 and requires the drift
 * to shrink by more than ORDER_RATIO_MIN: RK4's error is O(Δt⁴), so the drift
 * is truncation error, not a non-conservative term in the model (a wrong
 * mass matrix or force would not shrink) nor a method that lost its order.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_runtime.h"
#include "rt_fixtures.h"

/* The four-bar's generated code, linked statically into this program: the
 * embedded path (the other loaders compile the same files from the folder). */
#include "../../generated/four_bar/four_bar.c"
#include "../../generated/four_bar/four_bar_model.c"
#include "rs_test.h"

#define T_END 10.0
#define DT 1e-3

/* Bounds on the largest relative error over 10 s of RK4 at Δt = 1 ms, set
 * about 5-10× above what was measured (the same with libtcc and gcc):
 *   double pendulum, energy                      measured 1.0e-9
 *   free body on its bushing, energy             measured 2.3e-5: the shipped
 *     throw pitches the body to θ = 1.559 rad, 0.012 rad from the z-y-x
 *     angles' singularity, where the angle rates and their derivatives peak
 *     and RK4's truncation error with them (it still shrinks 16× as Δt halves)
 *   torque-free body, angular momentum |ΔH|/|H|  measured 4.9e-11
 *   torque-free body, kinetic energy |ΔT|/T      measured 8.7e-13
 * Its centre of mass stays on x0 + v0 t to TFB_X_BOUND [m]: rounding only
 * (20000 additions to positions of about 3 m). */
#define DP_DRIFT_BOUND 5e-9
#define FB_DRIFT_BOUND 1e-4
#define TFB_H_BOUND 5e-10
#define TFB_T_BOUND 1e-11
#define TFB_X_BOUND 1e-11
/* Halving Δt divides RK4's energy drift by about 2⁴ = 16 (measured 15.8 and
 * 17.1); a non-conservative term in the model would not shrink at all. */
#define ORDER_RATIO_MIN 12.0

/* ------------------------------------------------------------ helpers */

static rs_loaded *load(const char *dir, rs_loader kind, const char *cflags)
{
    char err[4096];
    rs_load_options o;
    rs_load_options_default(&o);
    if (cflags)
        o.cflags = cflags;
    rs_loaded *h = rs_load_ex(dir, kind, &o, err, sizeof err);
    ck_assert_msg(h != NULL, "%s: %s", dir, err);
    return h;
}

/* A parameter's current value by name. */
static double par(const rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_msg(rs_model_find(rs_ws_model(ws), name, &v) == RS_OK && v.kind == RS_VAR_P,
                  "no parameter '%s'", name);
    return rs_ws_p(ws)[v.index];
}

static void step_ok(rs_ws *ws)
{
    int st = rs_step(ws);
    ck_assert_msg(st == RS_OK, "%s: %s", rs_ws_model(ws)->name, rs_ws_error(ws));
}

/* 3×3 matrices, row-major m[r][c]. */
typedef double mat3[3][3];

static void rot_x(double a, mat3 r)
{
    const double c = cos(a), s = sin(a);
    const mat3 m = {{1, 0, 0}, {0, c, -s}, {0, s, c}};
    memcpy(r, m, sizeof m);
}

static void rot_y(double a, mat3 r)
{
    const double c = cos(a), s = sin(a);
    const mat3 m = {{c, 0, s}, {0, 1, 0}, {-s, 0, c}};
    memcpy(r, m, sizeof m);
}

static void rot_z(double a, mat3 r)
{
    const double c = cos(a), s = sin(a);
    const mat3 m = {{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
    memcpy(r, m, sizeof m);
}

static void mat_mul(const mat3 a, const mat3 b, mat3 out)
{
    mat3 t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(out, t, sizeof t);
}

static void mat_vec(const mat3 a, const double *v, double *out)
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = a[i][0] * v[0] + a[i][1] * v[1] + a[i][2] * v[2];
    memcpy(out, t, sizeof t);
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ------------------------------------------------------------ rigid body */

/* A body with q = (x, y, z, ψ, θ, φ), base B = rotate(rotate(rotate(ground,
 * z, ψ), y, θ), x, φ): R (B → ground), ω in ground, velocity of G, and the
 * inertia tensor about G in ground, I_g = R I_B Rᵀ. */
typedef struct body_state {
    mat3 R, Ig;
    double w[3], v[3];
} body_state;

static void body_eval(const rs_ws *ws, body_state *b)
{
    const double *q = rs_ws_q((rs_ws *)ws), *qd = rs_ws_qd((rs_ws *)ws);
    mat3 rz, ry, rx, rzy;
    rot_z(q[3], rz);
    rot_y(q[4], ry);
    rot_x(q[5], rx);
    mat_mul(rz, ry, rzy);
    mat_mul(rzy, rx, b->R);
    /* ω = ψ̇ ez + θ̇ (Rz ey) + φ̇ (Rz Ry ex), each axis in ground */
    for (int i = 0; i < 3; i++)
        b->w[i] = qd[3] * (i == 2) + qd[4] * rz[i][1] + qd[5] * rzy[i][0];
    for (int i = 0; i < 3; i++)
        b->v[i] = qd[i];
    const mat3 IB = {{par(ws, "Ixx"), par(ws, "Ixy"), par(ws, "Ixz")},
                     {par(ws, "Ixy"), par(ws, "Iyy"), par(ws, "Iyz")},
                     {par(ws, "Ixz"), par(ws, "Iyz"), par(ws, "Izz")}};
    mat3 RI, Rt;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Rt[i][j] = b->R[j][i];
    mat_mul(b->R, IB, RI);
    mat_mul(RI, Rt, b->Ig);
}

static double body_kinetic(const rs_ws *ws, const body_state *b)
{
    double Iw[3];
    mat_vec(b->Ig, b->w, Iw);
    return 0.5 * par(ws, "m") * dot3(b->v, b->v) + 0.5 * dot3(b->w, Iw);
}

/* ------------------------------------------------------------ double pendulum */

/* Energy of generated/double_pendulum from this file's kinematics: links
 * rotated about y (R_y(θ) maps B's −z to (−sin θ, 0, −cos θ)), masses at the
 * link ends, inertias J about y. */
static void dp_energy(const rs_ws *ws, double *T, double *V)
{
    const double *q = rs_ws_q((rs_ws *)ws), *qd = rs_ws_qd((rs_ws *)ws);
    const double m1 = par(ws, "m1"), m2 = par(ws, "m2"), l1 = par(ws, "l1"), l2 = par(ws, "l2");
    const double J1 = par(ws, "J1"), J2 = par(ws, "J2"), g = par(ws, "g");
    const double a1 = q[0], a2 = q[0] + q[1], w1 = qd[0], w2 = qd[0] + qd[1];
    const double z1 = -l1 * cos(a1), z2 = z1 - l2 * cos(a2);
    const double vx1 = -l1 * cos(a1) * w1, vz1 = l1 * sin(a1) * w1;
    const double vx2 = vx1 - l2 * cos(a2) * w2, vz2 = vz1 + l2 * sin(a2) * w2;
    *T = 0.5 * m1 * (vx1 * vx1 + vz1 * vz1) + 0.5 * m2 * (vx2 * vx2 + vz2 * vz2) +
         0.5 * J1 * w1 * w1 + 0.5 * J2 * w2 * w2;
    *V = g * (m1 * z1 + m2 * z2);
}

/* Runs the shipped scenario's chaotic swing (double_pendulum.scn, with the
 * second link pushed) for 10 s at step dt; returns the largest energy error
 * relative to the energy above the hanging rest state (the scale of the
 * motion, independent of where the potential's zero is). */
static double dp_drift(double dt, double *gen_diff, double *max_th2)
{
    rs_loaded *h = load("generated/double_pendulum", RS_LOAD_TCC, NULL);
    rs_ws *ws = rt_ws_new(rs_loaded_model(h), RS_RK4, dt, 1e-6);
    ck_assert_int_eq(rs_ws_set_q(ws, "th1", 1.5), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "th2", 0.5), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "th2_dot", -1.0), RS_OK);
    double T, V, Tg, Vg;
    dp_energy(ws, &T, &V);
    const double E0 = T + V;
    const double g = par(ws, "g"), l1 = par(ws, "l1"), l2 = par(ws, "l2");
    const double scale = E0 + g * (par(ws, "m1") * l1 + par(ws, "m2") * (l1 + l2));
    ck_assert(scale > 1.0);
    double drift = 0;
    *gen_diff = *max_th2 = 0;
    const long n = lround(T_END / dt);
    for (long i = 1; i <= n; i++) {
        step_ok(ws);
        dp_energy(ws, &T, &V);
        drift = fmax(drift, fabs(T + V - E0) / scale);
        *max_th2 = fmax(*max_th2, fabs(rs_ws_q(ws)[1]));
        if (i % 100 == 0) {
            ck_assert_int_eq(rs_ws_energy(ws, &Tg, &Vg), RS_OK);
            *gen_diff = fmax(*gen_diff, (fabs(Tg - T) + fabs(Vg - V)) / scale);
        }
    }
    ck_assert(fabs(rs_ws_time(ws) - T_END) < 1e-12);
    rs_ws_free(&ws);
    rs_unload(&h);
    return drift;
}

START_TEST(test_double_pendulum_energy)
{
    double gen_diff, gen_diff2, max_th2, max_th2b;
    const double d1 = dp_drift(DT, &gen_diff, &max_th2);
    const double d2 = dp_drift(DT / 2, &gen_diff2, &max_th2b);
    fprintf(stderr,
            "double_pendulum: RK4, 10 s: energy drift %.3g at dt %g (bound %g), %.3g at dt/2 "
            "(ratio %.1f, RK4: 16); generated energy vs formula %.3g; max |th2| %.3g\n",
            d1, DT, DP_DRIFT_BOUND, d2, d1 / d2, fmax(gen_diff, gen_diff2), max_th2);
    ck_assert_msg(max_th2 > 1.5, "the swing should be large (max |th2| %g)", max_th2);
    ck_assert_msg(fmax(gen_diff, gen_diff2) < 1e-12,
                  "generated energy differs from the formula by %g", fmax(gen_diff, gen_diff2));
    ck_assert_msg(d1 < DP_DRIFT_BOUND, "energy drift %g >= %g", d1, DP_DRIFT_BOUND);
    ck_assert_msg(d1 / d2 > ORDER_RATIO_MIN, "drift ratio %g as dt halves: not RK4's order 4",
                  d1 / d2);
}
END_TEST

/* ------------------------------------------------------------ free body */

/* generated/free_body: gravity −g ez, and a bushing between the ground frame
 * and the point A = G + R a (frame FA) with translational stiffnesses k in
 * ground axes (the bushing's first frame): V = m g z + ½ Σ k_i (r_OA)_i². */
static double fb_potential(const rs_ws *ws, const body_state *b)
{
    const double *q = rs_ws_q((rs_ws *)ws);
    const double a[3] = {par(ws, "ax"), par(ws, "ay"), par(ws, "az")};
    const double k[3] = {par(ws, "kx"), par(ws, "ky"), par(ws, "kz")};
    double ra[3];
    mat_vec(b->R, a, ra);
    double V = par(ws, "m") * par(ws, "g") * q[2];
    for (int i = 0; i < 3; i++) {
        const double d = q[i] + ra[i];
        V += 0.5 * k[i] * d * d;
    }
    return V;
}

/* Runs free_body.scn's throw for 10 s at step dt; returns the largest energy
 * error relative to |T| + |V| at the start (the potential's zero is the
 * bushing at rest at the origin). */
static double fb_drift(double dt, double *gen_diff, double *max_pitch)
{
    rs_loaded *h = load("generated/free_body", RS_LOAD_TCC, NULL);
    rs_ws *ws = rt_ws_new(rs_loaded_model(h), RS_RK4, dt, 1e-6);
    ck_assert_int_eq(rs_ws_set_q(ws, "x", 0.1), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "psi_dot", 0.5), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "theta_dot", 3.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "phi_dot", 0.2), RS_OK);
    body_state b;
    body_eval(ws, &b);
    const double E0 = body_kinetic(ws, &b) + fb_potential(ws, &b);
    const double scale = body_kinetic(ws, &b) + fabs(fb_potential(ws, &b));
    double drift = 0, Tg, Vg;
    *gen_diff = *max_pitch = 0;
    const long n = lround(T_END / dt);
    for (long i = 1; i <= n; i++) {
        step_ok(ws);
        body_eval(ws, &b);
        const double T = body_kinetic(ws, &b), V = fb_potential(ws, &b);
        drift = fmax(drift, fabs(T + V - E0) / scale);
        *max_pitch = fmax(*max_pitch, fabs(rs_ws_q(ws)[4]));
        if (i % 100 == 0) {
            ck_assert_int_eq(rs_ws_energy(ws, &Tg, &Vg), RS_OK);
            *gen_diff = fmax(*gen_diff, (fabs(Tg - T) + fabs(Vg - V)) / scale);
        }
    }
    rs_ws_free(&ws);
    rs_unload(&h);
    return drift;
}

START_TEST(test_free_body_energy)
{
    double gen_diff, gen_diff2, pitch, pitch2;
    const double d1 = fb_drift(DT, &gen_diff, &pitch);
    const double d2 = fb_drift(DT / 2, &gen_diff2, &pitch2);
    fprintf(stderr,
            "free_body: RK4, 10 s: energy drift %.3g at dt %g (bound %g), %.3g at dt/2 "
            "(ratio %.1f, RK4: 16); generated energy vs formula %.3g; max |theta| %.4f\n",
            d1, DT, FB_DRIFT_BOUND, d2, d1 / d2, fmax(gen_diff, gen_diff2), pitch);
    ck_assert_msg(fmax(gen_diff, gen_diff2) < 1e-12,
                  "generated energy differs from the formula by %g", fmax(gen_diff, gen_diff2));
    ck_assert_msg(d1 < FB_DRIFT_BOUND, "energy drift %g >= %g", d1, FB_DRIFT_BOUND);
    ck_assert_msg(d1 / d2 > ORDER_RATIO_MIN, "drift ratio %g as dt halves: not RK4's order 4",
                  d1 / d2);
}
END_TEST

/* ------------------------------------------------------------ torque-free body */

/* What one run of the torque-free body measured. */
typedef struct tfb_result {
    double dH;       /* max |H(t) − H(0)| / |H(0)|, H in ground             */
    double dT;       /* max |T(t) − T(0)| / T(0)                            */
    double dx;       /* centre of mass off x0 + v0 t, velocity off v0 [m, m/s] */
    double gen_diff; /* generated kinetic energy vs this file's, / T(0)     */
    double tilt_min, tilt_max; /* angle of B's z from ground z [rad]       */
} tfb_result;

/* torque_free_body.scn's throw for 10 s at step dt: a spin about the axis
 * of largest inertia (near B's z) plus a tumble, and a drift of the centre
 * of mass. */
static void tfb_run(double dt, tfb_result *r)
{
    rs_loaded *h = load("generated/torque_free_body", RS_LOAD_TCC, NULL);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_int_eq(m->n_q, 6);
    ck_assert_int_eq(m->n_phi, 0);
    rs_ws *ws = rt_ws_new(m, RS_RK4, dt, 1e-6);
    static const char *const names[6] = {"x_dot",   "y_dot",     "z_dot",
                                          "psi_dot", "theta_dot", "phi_dot"};
    static const double v0[6] = {0.3, -0.2, 0.1, 5.0, 0.8, -0.6};
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(rs_ws_set_qd(ws, names[i], v0[i]), RS_OK);
    double Tg, Vg;
    ck_assert_int_eq(rs_ws_energy(ws, &Tg, &Vg), RS_OK);
    ck_assert(Vg == 0.0); /* nothing stores energy */

    body_state b;
    body_eval(ws, &b);
    double H0[3];
    mat_vec(b.Ig, b.w, H0);
    const double T0 = body_kinetic(ws, &b), Hn = sqrt(dot3(H0, H0));
    ck_assert(fabs(Tg - T0) <= 1e-13 * T0);
    /* H is not along ω (the tensor is full and ω is off its principal
     * axes), so ω moves in the body and in ground: the body wobbles */
    const double wn = sqrt(dot3(b.w, b.w));
    const double c[3] = {b.w[1] * H0[2] - b.w[2] * H0[1], b.w[2] * H0[0] - b.w[0] * H0[2],
                         b.w[0] * H0[1] - b.w[1] * H0[0]};
    ck_assert(sqrt(dot3(c, c)) > 0.02 * wn * Hn);

    memset(r, 0, sizeof *r);
    r->tilt_min = 1e9;
    const long n = lround(T_END / dt);
    for (long i = 1; i <= n; i++) {
        step_ok(ws);
        body_eval(ws, &b);
        double H[3];
        mat_vec(b.Ig, b.w, H);
        const double e[3] = {H[0] - H0[0], H[1] - H0[1], H[2] - H0[2]};
        r->dH = fmax(r->dH, sqrt(dot3(e, e)) / Hn);
        const double T = body_kinetic(ws, &b);
        r->dT = fmax(r->dT, fabs(T - T0) / T0);
        /* the centre of mass: straight line, constant speed */
        const double t = rs_ws_time(ws);
        for (int j = 0; j < 3; j++) {
            r->dx = fmax(r->dx, fabs(rs_ws_q(ws)[j] - v0[j] * t));
            r->dx = fmax(r->dx, fabs(rs_ws_qd(ws)[j] - v0[j]));
        }
        const double tilt = acos(fmin(1.0, b.R[2][2]));
        r->tilt_max = fmax(r->tilt_max, tilt);
        r->tilt_min = fmin(r->tilt_min, tilt);
        if (i % 100 == 0) {
            ck_assert_int_eq(rs_ws_energy(ws, &Tg, &Vg), RS_OK);
            r->gen_diff = fmax(r->gen_diff, fabs(Tg - T) / T0);
        }
    }
    rs_ws_free(&ws);
    rs_unload(&h);
}

START_TEST(test_torque_free_body)
{
    tfb_result r, r2;
    tfb_run(DT, &r);
    tfb_run(DT / 2, &r2);
    fprintf(stderr,
            "torque_free_body: RK4, 10 s: |dH|/|H| %.3g at dt %g (bound %g), %.3g at dt/2 (ratio "
            "%.1f); |dT|/T %.3g (bound %g), %.3g at dt/2; centre of mass %.3g; generated T vs "
            "formula %.3g; tilt %.3g..%.3g rad\n",
            r.dH, DT, TFB_H_BOUND, r2.dH, r.dH / r2.dH, r.dT, TFB_T_BOUND, r2.dT, r.dx,
            fmax(r.gen_diff, r2.gen_diff), r.tilt_min, r.tilt_max);
    ck_assert_msg(r.tilt_max - r.tilt_min > 0.05, "the body should wobble (tilt %g..%g)",
                  r.tilt_min, r.tilt_max);
    ck_assert_msg(r.tilt_max < 1.0, "the Euler angles should stay far from their singularity");
    ck_assert_msg(fmax(r.gen_diff, r2.gen_diff) < 1e-12,
                  "generated kinetic energy differs from the formula by %g",
                  fmax(r.gen_diff, r2.gen_diff));
    ck_assert_msg(fmax(r.dx, r2.dx) < TFB_X_BOUND, "the centre of mass left its straight line by %g",
                  fmax(r.dx, r2.dx));
    ck_assert_msg(r.dH < TFB_H_BOUND, "angular momentum drift %g >= %g", r.dH, TFB_H_BOUND);
    ck_assert_msg(r.dT < TFB_T_BOUND, "kinetic energy drift %g >= %g", r.dT, TFB_T_BOUND);
    ck_assert_msg(r.dH / r2.dH > ORDER_RATIO_MIN,
                  "momentum drift ratio %g as dt halves: not RK4's order 4", r.dH / r2.dH);
}
END_TEST

/* ------------------------------------------------------------ loaders */

#define LD_STEPS 500
#define LD_VALS 8 /* q (3), q̇ (3), λ (2) per step */

/* The four-bar from four_bar.scn's closed position, the crank pushed. */
static void fourbar_run(const rs_model *m, rs_method meth, double *traj)
{
    rs_ws *ws = rt_ws_new(m, meth, 1e-3, 1e-10);
    ck_assert_int_eq(rs_ws_set_q(ws, "th1", 1.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "th2", -0.43041149015824987), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "th3", -2.109978196204275), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "th1_dot", 2.0), RS_OK);
    for (int i = 0; i < LD_STEPS; i++) {
        step_ok(ws);
        double *row = traj + i * LD_VALS;
        for (int j = 0; j < 3; j++) {
            row[j] = rs_ws_q(ws)[j];
            row[3 + j] = rs_ws_qd(ws)[j];
        }
        row[6] = rs_ws_lambda(ws)[0];
        row[7] = rs_ws_lambda(ws)[1];
    }
    /* the crank went round a good part of a turn: a real test of the loop */
    ck_assert_msg(fabs(rs_ws_q(ws)[0] - 1.0) > 0.3, "crank moved only %g",
                  fabs(rs_ws_q(ws)[0] - 1.0));
    rs_ws_free(&ws);
}

/* tol: 1e-12 for the same arithmetic; the -O3 -march=native flags fuse
 * multiply-adds (-ffp-contract=fast), which rounds differently: 1e-10. */
static void compare_loader(rs_loader kind, const char *cflags, const char *label, double tol)
{
    static double a[LD_STEPS * LD_VALS], b[LD_STEPS * LD_VALS];
    char err[256];
    rs_loaded *s = rs_load_static(four_bar_model, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    rs_loaded *h = load("generated/four_bar", kind, cflags);
    const rs_model *ms = rs_loaded_model(s), *ml = rs_loaded_model(h);
    ck_assert_int_eq(rs_loaded_kind(s), RS_LOAD_STATIC);
    ck_assert_int_eq(rs_loaded_kind(h), kind);
    ck_assert_str_eq(ms->name, "four_bar");
    ck_assert_str_eq(ml->name, "four_bar");
    ck_assert_ptr_ne(ml, ms); /* another copy of the code, not this program's */
    ck_assert_ptr_ne((void *)ml->fn[RS_FN_DELTA].fn, (void *)ms->fn[RS_FN_DELTA].fn);
    for (int meth = 0; meth < 2; meth++) {
        fourbar_run(ms, (rs_method)meth, a);
        fourbar_run(ml, (rs_method)meth, b);
        double d = 0;
        int at = 0;
        for (int i = 0; i < LD_STEPS * LD_VALS; i++) {
            /* λ in newtons, q in rad: absolute, scaled by the magnitude */
            double e = fabs(a[i] - b[i]) / fmax(1.0, fabs(a[i]));
            if (e > d) {
                d = e;
                at = i;
            }
        }
        fprintf(stderr, "four_bar: static vs %s, %s: max difference %.3g\n", label,
                meth ? "RK4" : "IMEX", d);
        ck_assert_msg(d <= tol, "four_bar static vs %s, method %d: differ by %.3g at step %d value %d",
                      label, meth, d, at / LD_VALS + 1, at % LD_VALS);
    }
    rs_unload(&h);
    rs_unload(&s);
}

START_TEST(test_loader_dlopen_o2) { compare_loader(RS_LOAD_DLOPEN, RS_CFLAGS_O2, "dlopen -O2", 1e-12); }
END_TEST
START_TEST(test_loader_dlopen_o3_native)
{
    compare_loader(RS_LOAD_DLOPEN, RS_CFLAGS_O3_NATIVE, "dlopen -O3 -march=native", 1e-10);
}
END_TEST
START_TEST(test_loader_tcc) { compare_loader(RS_LOAD_TCC, NULL, "tcc", 1e-12); }
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_generated");
    TCase *tc = tcase_create("conservation");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_double_pendulum_energy);
    tcase_add_test(tc, test_free_body_energy);
    tcase_add_test(tc, test_torque_free_body);
    suite_add_tcase(s, tc);
    tc = tcase_create("loaders");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_loader_dlopen_o2);
    tcase_add_test(tc, test_loader_dlopen_o3_native);
    tcase_add_test(tc, test_loader_tcc);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
