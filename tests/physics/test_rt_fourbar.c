/*
 * test_rt_fourbar.c — four-bar linkage (3 angles, 2 loop-closure
 * constraints): residual below the tolerance after every step, and the
 * crank trajectory against a reference written here: its own dynamics by
 * body Jacobians (not the fixture's Lagrange formulas), constraint Jacobian
 * by central differences, RK4 with a dense Gaussian elimination (no KLU).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_fixtures.h"
#include "rs_contact.h"
#include "rs_test.h"

/* parameter order of rt_fourbar: L1 L2 L3 d m1 m2 m3 g */
static const double P[8] = {0.3, 1.0, 0.8, 1.0, 1.0, 2.0, 1.5, 9.81};

static double torque(double t) { return 0.5 * sin(3.0 * t); }

static int input_cb(void *ctx, double t, double *u, int n)
{
    (void)ctx;
    ck_assert_int_eq(n, 1);
    u[0] = torque(t);
    return 0;
}

/* ---- reference dynamics ------------------------------------------------ */

/* A point written as Σ_k r[k] e(θ_k) (+ a fixed offset): its Jacobian row
 * pair and its acceleration bias −Σ r_k θ̇_k² e(θ_k). */
static void chain_point(const double *r, const double *q, const double *qd, double J[2][3],
                        double bias[2])
{
    bias[0] = bias[1] = 0;
    for (int k = 0; k < 3; k++) {
        J[0][k] = -r[k] * sin(q[k]);
        J[1][k] = r[k] * cos(q[k]);
        bias[0] -= r[k] * qd[k] * qd[k] * cos(q[k]);
        bias[1] -= r[k] * qd[k] * qd[k] * sin(q[k]);
    }
}

static void ref_phi(const double *q, double *phi)
{
    phi[0] = P[0] * cos(q[0]) + P[1] * cos(q[1]) - P[2] * cos(q[2]) - P[3];
    phi[1] = P[0] * sin(q[0]) + P[1] * sin(q[1]) - P[2] * sin(q[2]);
}

/* Dense solve of n ≤ 8 by Gaussian elimination with partial pivoting. */
static void dense_solve(int n, double A[8][8], double *b)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r][c]) > fabs(A[piv][c]))
                piv = r;
        for (int k = 0; k < n; k++) {
            double t = A[c][k];
            A[c][k] = A[piv][k];
            A[piv][k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < n; r++) {
            double f = A[r][c] / A[c][c];
            for (int k = c; k < n; k++)
                A[r][k] -= f * A[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        for (int k = r + 1; k < n; k++)
            b[r] -= A[r][k] * b[k];
        b[r] /= A[r][r];
    }
}

/* q̈ from [M φ_qᵀ; φ_q 0][q̈; λ] = [Q − Σ m Jᵀ bias; −φ_q' q̇]. */
static void ref_accel(double t, const double *q, const double *qd, double *qdd)
{
    const double m[3] = {P[4], P[5], P[6]}, Lb[3] = {P[0], P[1], P[2]}, g = P[7];
    /* centres of mass as chain points (offsets do not move) */
    const double r[3][3] = {{P[0] / 2, 0, 0}, {P[0], P[1] / 2, 0}, {0, 0, P[2] / 2}};
    double A[8][8] = {{0}}, b[8] = {0};
    for (int i = 0; i < 3; i++) {
        double J[2][3], bias[2];
        chain_point(r[i], q, qd, J, bias);
        for (int a = 0; a < 3; a++) {
            for (int c = 0; c < 3; c++)
                A[a][c] += m[i] * (J[0][a] * J[0][c] + J[1][a] * J[1][c]);
            b[a] += J[1][a] * (-m[i] * g) - m[i] * (J[0][a] * bias[0] + J[1][a] * bias[1]);
        }
        A[i][i] += m[i] * Lb[i] * Lb[i] / 12; /* rotation of bar i about its centre */
    }
    b[0] += torque(t);
    /* φ_q by central differences, γ from the closure point's bias */
    const double eps = 1e-6;
    for (int c = 0; c < 3; c++) {
        double qp[3], qm[3], fp[2], fm[2];
        memcpy(qp, q, sizeof qp);
        memcpy(qm, q, sizeof qm);
        qp[c] += eps;
        qm[c] -= eps;
        ref_phi(qp, fp);
        ref_phi(qm, fm);
        for (int i = 0; i < 2; i++)
            A[3 + i][c] = A[c][3 + i] = (fp[i] - fm[i]) / (2 * eps);
    }
    const double rc[3] = {P[0], P[1], -P[2]};
    double Jc[2][3], bc[2];
    chain_point(rc, q, qd, Jc, bc);
    b[3] = -bc[0];
    b[4] = -bc[1];
    dense_solve(5, A, b);
    memcpy(qdd, b, 3 * sizeof(double));
}

static void ref_rk4(double t, double h, double *q, double *qd)
{
    double k1q[3], k1v[3], k2q[3], k2v[3], k3q[3], k3v[3], k4q[3], k4v[3], qs[3], vs[3];
    memcpy(k1q, qd, sizeof k1q);
    ref_accel(t, q, qd, k1v);
    for (int j = 0; j < 3; j++) {
        qs[j] = q[j] + h / 2 * k1q[j];
        vs[j] = qd[j] + h / 2 * k1v[j];
    }
    memcpy(k2q, vs, sizeof k2q);
    ref_accel(t + h / 2, qs, vs, k2v);
    for (int j = 0; j < 3; j++) {
        qs[j] = q[j] + h / 2 * k2q[j];
        vs[j] = qd[j] + h / 2 * k2v[j];
    }
    memcpy(k3q, vs, sizeof k3q);
    ref_accel(t + h / 2, qs, vs, k3v);
    for (int j = 0; j < 3; j++) {
        qs[j] = q[j] + h * k3q[j];
        vs[j] = qd[j] + h * k3v[j];
    }
    memcpy(k4q, vs, sizeof k4q);
    ref_accel(t + h, qs, vs, k4v);
    for (int j = 0; j < 3; j++) {
        q[j] += h / 6 * (k1q[j] + 2 * k2q[j] + 2 * k3q[j] + k4q[j]);
        qd[j] += h / 6 * (k1v[j] + 2 * k2v[j] + 2 * k3v[j] + k4v[j]);
    }
}

/* Consistent initial state: crank at th1 with speed w1; the other speeds
 * from φ_q q̇ = 0 (2×2 solve). */
static void initial_state(double th1, double w1, double *q, double *qd)
{
    ck_assert_int_eq(rt_fourbar_assemble(P, th1, q), 0);
    /* [−L2 s2, L3 s3; L2 c2, −L3 c3] [w2; w3] = −[−L1 s1; L1 c1] w1 */
    double a = -P[1] * sin(q[1]), b = P[2] * sin(q[2]);
    double c = P[1] * cos(q[1]), d = -P[2] * cos(q[2]);
    double r0 = P[0] * sin(q[0]) * w1, r1 = -P[0] * cos(q[0]) * w1;
    double det = a * d - b * c;
    qd[0] = w1;
    qd[1] = (r0 * d - b * r1) / det;
    qd[2] = (a * r1 - c * r0) / det;
}

static rs_ws *fourbar_ws(rs_method meth, double h, double tol, int with_torque)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.method = meth;
    o.dt = h;
    o.proj_tol = tol;
    if (with_torque)
        o.input = input_cb;
    rs_ws *ws = NULL;
    char err[256];
    ck_assert_msg(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(rs_ws_set_param_index(ws, i, P[i]), RS_OK);
    return ws;
}

START_TEST(test_fixture_consistent)
{
    /* The fixture's hand-written functions against this file's: φ, φ_q
     * (central differences) and q̈ (body-Jacobian dynamics). */
    double q[3], qd[3], qdd_ref[3];
    initial_state(0.7, 2.0, q, qd);
    rs_ws *ws = fourbar_ws(RS_RK4, 1e-3, 1e-12, 1);
    memcpy(rs_ws_q(ws), q, sizeof q);
    memcpy(rs_ws_qd(ws), qd, sizeof qd);
    /* one tiny step: compare the velocity change with the reference acceleration */
    ref_accel(0, q, qd, qdd_ref);
    ck_assert_int_eq(rs_ws_set_dt(ws, 1e-7), RS_OK);
    ck_assert_int_eq(rs_step(ws), RS_OK);
    for (int j = 0; j < 3; j++) {
        double a = (rs_ws_qd(ws)[j] - qd[j]) / 1e-7;
        ck_assert_msg(fabs(a - qdd_ref[j]) < 1e-5 * (1 + fabs(qdd_ref[j])),
                      "qdd[%d] runtime %.9g reference %.9g", j, a, qdd_ref[j]);
    }
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_rk4_matches_reference)
{
    const double h = 1e-3;
    double q[3], qd[3];
    initial_state(0.7, 2.0, q, qd);
    rs_ws *ws = fourbar_ws(RS_RK4, h, 1e-10, 1);
    memcpy(rs_ws_q(ws), q, sizeof q);
    memcpy(rs_ws_qd(ws), qd, sizeof qd);
    double worst = 0, lo = q[0], hi = q[0];
    for (int i = 0; i < 3000; i++) {
        ref_rk4(i * h, h, q, qd);
        lo = fmin(lo, q[0]);
        hi = fmax(hi, q[0]);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        worst = fmax(worst, fabs(rs_ws_q(ws)[0] - q[0]));
        double pos, vel;
        ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
        ck_assert_msg(pos <= 1e-10 && vel <= 1e-10, "step %d residuals %g %g", i, pos, vel);
    }
    ck_assert_msg(worst < 1e-7, "crank angle differs from the reference by %.3g rad", worst);
    /* the crank really moved: a large swing */
    ck_assert_msg(hi - lo > 1.0, "crank range %.3g rad", hi - lo);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_imex_residual_and_trajectory)
{
    /* IMEX Euler, default tolerance: residual below it after every step;
     * first-order trajectory close to the reference (error ∝ Δt). */
    const double h = 2e-4, href = 1e-3;
    double q[3], qd[3];
    initial_state(0.7, 2.0, q, qd);
    rs_ws *ws = fourbar_ws(RS_IMEX_EULER, h, 1e-6, 1);
    memcpy(rs_ws_q(ws), q, sizeof q);
    memcpy(rs_ws_qd(ws), qd, sizeof qd);
    double worst = 0;
    for (int i = 0; i < 2000; i++) {
        ref_rk4(i * href, href, q, qd);
        for (int k = 0; k < 5; k++) {
            ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
            double pos, vel;
            ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
            ck_assert_msg(pos <= 1e-6 && vel <= 1e-6, "residuals %g %g", pos, vel);
        }
        worst = fmax(worst, fabs(rs_ws_q(ws)[0] - q[0]));
    }
    fprintf(stderr, "fourbar IMEX h=%g: max crank error %.3g rad over 2 s\n", h, worst);
    ck_assert_msg(worst < 2e-2, "IMEX crank angle off the reference by %.3g rad", worst);
    ck_assert_int_le(rs_ws_stats(ws)->proj_iters_max, 3);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_energy_drift_rk4)
{
    /* No torque: energy conserved; drift over 10 s below 1e-6 of m g L. */
    double q[3], qd[3];
    initial_state(0.7, 2.0, q, qd);
    rs_ws *ws = fourbar_ws(RS_RK4, 1e-3, 1e-10, 0);
    memcpy(rs_ws_q(ws), q, sizeof q);
    memcpy(rs_ws_qd(ws), qd, sizeof qd);
    double T0, V0, T, V, drift = 0;
    ck_assert_int_eq(rs_ws_energy(ws, &T0, &V0), RS_OK);
    for (int i = 0; i < 10000; i++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
        drift = fmax(drift, fabs(T + V - T0 - V0));
    }
    fprintf(stderr, "fourbar RK4 energy drift over 10 s: %.3g J (E0 = %.6g J)\n", drift, T0 + V0);
    ck_assert_msg(drift < 1e-6 * P[5] * P[7] * P[1], "energy drift %.3g J", drift);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_initial_projection)
{
    /* A perturbed initial state is brought onto φ = 0, φ_q q̇ = 0. */
    double q[3], qd[3];
    initial_state(0.7, 2.0, q, qd);
    rs_ws *ws = fourbar_ws(RS_IMEX_EULER, 1e-3, 1e-9, 0);
    for (int j = 0; j < 3; j++) {
        rs_ws_q(ws)[j] = q[j] + 0.02 * (j + 1);
        rs_ws_qd(ws)[j] = qd[j] + 0.1;
    }
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double pos, vel;
    ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
    ck_assert_msg(pos <= 1e-9 && vel <= 1e-9, "residuals %g %g", pos, vel);
    ck_assert_int_ge(rs_ws_stats(ws)->proj_iters, 2);
    rs_ws_free(&ws);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_fourbar");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fixture_consistent);
    tcase_add_test(tc, test_rk4_matches_reference);
    tcase_add_test(tc, test_imex_residual_and_trajectory);
    tcase_add_test(tc, test_energy_drift_rk4);
    tcase_add_test(tc, test_initial_projection);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
