/*
 * test_train.c — trains of wagons and couplers (rs_train) on the Park
 * integrator, each check against an answer computed here independently:
 *
 *   - the vehicle's and the coupler's Jacobians K = −∂F/∂q, C = −∂F/∂q̇
 *     against central differences of their forces (every coupler regime:
 *     tension, free play, compression, buffers);
 *   - the static vertical equilibrium has zero force;
 *   - (a) ten vehicles of different masses pulled from rest by a constant
 *     traction force F: each vehicle's steady acceleration equals
 *     (F − r0 g M)/M (rolling losses computed here), and each coupler's
 *     mean force equals F × (mass behind it)/M, within 1 %; with and
 *     without coupler slack and buffers;
 *   - (b) a smooth force pulse (sin², 20 vehicle-times long) on the front
 *     of a uniform chain travels at the chain's long-wave speed
 *     c = L √(k/m): between two couplers 60 vehicles apart, the force peaks
 *     within 5 %, and the time centroids ∫t F dt / ∫F dt — which move at
 *     exactly the ω → 0 group velocity, i.e. c, in a linear chain — within
 *     0.5 %; the impulse through each coupler equals the applied one (1 %);
 *   - determinism: 1, 2 and 4 threads, re-planned every few steps, give
 *     bit-identical trajectories (memcmp) on a non-linear train (Hertz
 *     contact, slack, buffers, traction table).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_train.h"
#include "rs_test.h"

#define NQ RS_WAGON_NQ

/* ------------------------------------------------------------ Jacobians */

static void wagon_force(const rs_wagon *w, double t, const double *q, const double *qd, double *F)
{
    double M[NQ * NQ] = {0}, K[NQ * NQ] = {0}, C[NQ * NQ] = {0};
    memset(F, 0, NQ * sizeof(double));
    rs_wagon_eval(w, t, q, qd, M, F, K, C);
}

START_TEST(test_wagon_jacobians)
{
    rs_wagon w;
    rs_wagon_default(&w);
    w.r1 = 3e-4;
    w.traction = 1e5;
    double q[NQ] = {12.0, 0, 0.001, 0, 0}, qd[NQ] = {0.03, 0.01, -0.002, 0.004, -0.003};
    rs_wagon_static(&w, q);
    q[RS_WAGON_PITCH] = 0.001;
    q[RS_WAGON_Z1] *= 1.3;   /* both bogies in contact, loads unequal */
    double M[NQ * NQ] = {0}, F[NQ] = {0}, K[NQ * NQ] = {0}, C[NQ * NQ] = {0};
    rs_wagon_eval(&w, 0.5, q, qd, M, F, K, C);
    for (int j = 0; j < NQ; j++) {
        double qp[NQ], qm[NQ], Fp[NQ], Fm[NQ];
        const double dq = 1e-7, dv = 1e-6;
        memcpy(qp, q, sizeof q);
        memcpy(qm, q, sizeof q);
        qp[j] += dq;
        qm[j] -= dq;
        wagon_force(&w, 0.5, qp, qd, Fp);
        wagon_force(&w, 0.5, qm, qd, Fm);
        for (int i = 0; i < NQ; i++) {
            const double fd = -(Fp[i] - Fm[i]) / (2 * dq);
            ck_assert_msg(fabs(fd - K[i + NQ * j]) <= 1e-5 * fabs(K[i + NQ * j]) + 1.0,
                          "K[%d][%d] = %.9g, central difference %.9g", i, j, K[i + NQ * j], fd);
        }
        memcpy(qp, qd, sizeof qd);
        memcpy(qm, qd, sizeof qd);
        qp[j] += dv;
        qm[j] -= dv;
        wagon_force(&w, 0.5, q, qp, Fp);
        wagon_force(&w, 0.5, q, qm, Fm);
        for (int i = 0; i < NQ; i++) {
            const double fd = -(Fp[i] - Fm[i]) / (2 * dv);
            ck_assert_msg(fabs(fd - C[i + NQ * j]) <= 1e-6 * fabs(C[i + NQ * j]) + 1e-2,
                          "C[%d][%d] = %.9g, central difference %.9g", i, j, C[i + NQ * j], fd);
        }
    }
    /* symmetric, as rs_train declares */
    for (int i = 0; i < NQ; i++)
        for (int j = 0; j < NQ; j++) {
            ck_assert(K[i + NQ * j] == K[j + NQ * i]);
            ck_assert(C[i + NQ * j] == C[j + NQ * i]);
        }
}
END_TEST

START_TEST(test_static_equilibrium)
{
    rs_wagon w;
    rs_loco_default(&w);
    double q[NQ] = {0}, qd[NQ] = {0}, F[NQ];
    rs_wagon_static(&w, q);
    wagon_force(&w, 0, q, qd, F);
    for (int i = 1; i < NQ; i++)
        ck_assert_msg(fabs(F[i]) < 1e-6 * w.m_body * w.g, "F[%d] = %g at the static equilibrium", i, F[i]);
}
END_TEST

START_TEST(test_coupler_jacobians)
{
    rs_wagon a, b;
    rs_wagon_default(&a);
    rs_loco_default(&b);
    b.h_coupler = -0.5;
    rs_coupler c;
    rs_coupler_default(&c);
    c.slack = 0.02;
    c.k_buffer = 5e7;
    c.buffer_gap = 0.03;
    const double base = a.l_rear + b.l_front + c.length;
    /* elongations in each regime: tension, free play, compression, buffers */
    const double es[4] = {0.025, 0.004, -0.02, -0.06};
    const double expect_k[4] = {c.k, 0.0, c.k, c.k + c.k_buffer};
    for (int r = 0; r < 4; r++) {
        double q[4] = {100.0, 0.002, 100.0 - base - es[r], -0.001}, qd[4] = {10.0, 0.01, 9.9, -0.02};
        q[2] += -a.h_coupler * q[1] + b.h_coupler * q[3];   /* so that e = es[r] exactly */
        double e, kf, cf;
        rs_coupler_force(&c, &a, &b, q, qd, &e, &kf, &cf);
        ck_assert_double_eq_tol(e, es[r], 1e-12);
        ck_assert_double_eq(kf, expect_k[r]);
        ck_assert_double_eq(cf, r == 1 ? 0.0 : c.c);
        double F[4], K[16], C[16];
        rs_coupler_eval(&c, &a, &b, q, qd, F, K, C);
        ck_assert_double_eq_tol(F[0] + F[2], 0.0, 1e-6);   /* action = reaction */
        for (int j = 0; j < 4; j++) {
            double qp[4], qm[4], Fp[4], Fm[4], K2[16], C2[16];
            const double dq = 1e-8, dv = 1e-6;
            memcpy(qp, q, sizeof q);
            memcpy(qm, q, sizeof q);
            qp[j] += dq;
            qm[j] -= dq;
            rs_coupler_eval(&c, &a, &b, qp, qd, Fp, K2, C2);
            rs_coupler_eval(&c, &a, &b, qm, qd, Fm, K2, C2);
            for (int i = 0; i < 4; i++)
                ck_assert_msg(fabs(-(Fp[i] - Fm[i]) / (2 * dq) - K[i + 4 * j]) <= 1e-5 * (fabs(K[i + 4 * j]) + 1e3),
                              "regime %d: K[%d][%d]", r, i, j);
            memcpy(qp, qd, sizeof qd);
            memcpy(qm, qd, sizeof qd);
            qp[j] += dv;
            qm[j] -= dv;
            rs_coupler_eval(&c, &a, &b, q, qp, Fp, K2, C2);
            rs_coupler_eval(&c, &a, &b, q, qm, Fm, K2, C2);
            for (int i = 0; i < 4; i++)
                ck_assert_msg(fabs(-(Fp[i] - Fm[i]) / (2 * dv) - C[i + 4 * j]) <= 1e-5 * (fabs(C[i + 4 * j]) + 1e2),
                              "regime %d: C[%d][%d]", r, i, j);
        }
    }
}
END_TEST

/* ------------------------------------------------------------ (a) pulled from rest */

#define NV_A 10

static void pull_from_rest(double slack, double k_buffer, int threads)
{
    rs_wagon veh[NV_A];
    rs_coupler cpl[NV_A - 1];
    const double F = 3e5, r0 = 0.002;
    rs_loco_default(&veh[0]);
    veh[0].traction = F;
    for (int v = 1; v < NV_A; v++) {
        rs_wagon_default(&veh[v]);
        veh[v].m_body = 20000.0 + 7000.0 * v;   /* empty to loaded */
        veh[v].i_pitch = veh[v].m_body * 15.0 * 15.0 / 12.0;
    }
    for (int v = 0; v < NV_A; v++) {
        veh[v].r0 = r0;
        veh[v].r1 = 0.0;
    }
    for (int c = 0; c < NV_A - 1; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].c = 2e5;
        cpl[c].slack = slack;
        cpl[c].k_buffer = k_buffer;
        cpl[c].buffer_gap = 0.01;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 2e-3;
    o.threads = threads;
    rs_train *tr;
    char err[256];
    ck_assert_msg(rs_train_create(&tr, NV_A, veh, NULL, cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_train_start(tr, 0.0, 0.0, 0.0) == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
    /* the independent answer */
    double M = 0, behind[NV_A];
    for (int v = 0; v < NV_A; v++)
        M += veh[v].m_body + 2 * veh[v].m_bogie;
    ck_assert_double_eq_tol(M, rs_train_mass(tr), 1e-6);
    for (int c = 0; c < NV_A - 1; c++) {
        behind[c] = 0;
        for (int v = c + 1; v < NV_A; v++)
            behind[c] += veh[v].m_body + 2 * veh[v].m_bogie;
    }
    const double a_exact = (F - r0 * 9.81 * M) / M;
    /* window [20, 40] s: least-squares slope of each velocity, mean of each
     * coupler force */
    const double t_a = 20.0, t_b = 40.0;
    double St = 0, Stt = 0, Sv[NV_A] = {0}, Stv[NV_A] = {0}, Sf[NV_A] = {0};
    long n = 0;
    const long steps = lround(t_b / o.h);
    for (long s = 0; s < steps; s++) {
        ck_assert_msg(rs_train_step(tr) == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
        const double t = rs_park_t(rs_train_park(tr));
        if (t < t_a)
            continue;
        n++;
        St += t;
        Stt += t * t;
        for (int v = 0; v < NV_A; v++) {
            const double vel = rs_train_qd(tr, v)[RS_WAGON_X];
            Sv[v] += vel;
            Stv[v] += t * vel;
        }
        for (int c = 0; c < NV_A - 1; c++)
            Sf[c] += rs_train_coupler(tr, c, NULL);
    }
    const rs_park_stats *st = rs_park_get_stats(rs_train_park(tr));
    printf("train (a) slack %g m, buffers %g N/m: a_exact = %.6f m/s^2, Krylov iterations/step %.2f (max %d)\n",
           slack, k_buffer, a_exact, (double)st->krylov_iters / st->steps, st->krylov_max);
    double worst_a = 0, worst_f = 0;
    for (int v = 0; v < NV_A; v++) {
        const double slope = (n * Stv[v] - St * Sv[v]) / (n * Stt - St * St);
        worst_a = fmax(worst_a, fabs(slope / a_exact - 1));
        ck_assert_msg(fabs(slope / a_exact - 1) < 0.01, "vehicle %d: acceleration %.6f vs %.6f", v, slope, a_exact);
    }
    for (int c = 0; c < NV_A - 1; c++) {
        const double mean = Sf[c] / n, want = F * behind[c] / M;
        worst_f = fmax(worst_f, fabs(mean / want - 1));
        ck_assert_msg(fabs(mean / want - 1) < 0.01, "coupler %d: mean force %.1f N vs F m_behind/M = %.1f N", c, mean,
                      want);
    }
    printf("train (a): worst relative error: acceleration %.2e, coupler mean force %.2e\n", worst_a, worst_f);
    rs_train_free(&tr);
}

START_TEST(test_pulled_from_rest)
{
    pull_from_rest(0.0, 0.0, 1);
}
END_TEST

START_TEST(test_pulled_from_rest_slack)
{
    pull_from_rest(0.05, 5e7, 2);
}
END_TEST

/* ------------------------------------------------------------ (b) wave speed */

#define NV_B 120
#define PULSE_N 81

START_TEST(test_wave_speed)
{
    rs_wagon veh[NV_B];
    rs_coupler cpl[NV_B - 1];
    for (int v = 0; v < NV_B; v++) {
        rs_wagon_default(&veh[v]);
        veh[v].r0 = 0;
        veh[v].h_coupler = 0;   /* purely longitudinal chain */
    }
    for (int c = 0; c < NV_B - 1; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].c = 0;
        cpl[c].k = 2e7;
        cpl[c].length = 0.5;
    }
    const double m = veh[0].m_body + 2 * veh[0].m_bogie, k = cpl[0].k;
    const double L = veh[0].l_front + veh[0].l_rear + cpl[0].length;
    const double c_exact = L * sqrt(k / m);
    /* a sin² compressive push on the front vehicle, 20 vehicle-times long
     * (smooth at both ends, so little ringing near the chain's cut-off) */
    const double Tp = 20.0 * sqrt(m / k), P = 1e5;
    double tt[PULSE_N], ff[PULSE_N];
    for (int i = 0; i < PULSE_N; i++) {
        const double sn = sin(3.14159265358979323846 * i / (PULSE_N - 1));
        tt[i] = Tp * i / (PULSE_N - 1);
        ff[i] = -P * sn * sn;
    }
    veh[0].traction_n = PULSE_N;
    veh[0].traction_t = tt;
    veh[0].traction_f = ff;
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    rs_train *tr;
    char err[256];
    ck_assert_msg(rs_train_create(&tr, NV_B, veh, NULL, cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 0.0), RS_OK);
    /* the force history of two couplers; the peak by parabola through the
     * largest sample and its neighbours */
    const int c1 = 20, c2 = 80;
    const double t_end = 2 * Tp + (c2 + 5) * L / c_exact;   /* before the rear end's echo returns */
    const long steps = lround(t_end / o.h);
    double prev[2][2] = {{0}}, best[2] = {0}, tpk[2] = {0}, S0[2] = {0}, S1[2] = {0};
    for (long s = 0; s < steps; s++) {
        ck_assert_msg(rs_train_step(tr) == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
        const double t = rs_park_t(rs_train_park(tr));
        for (int w = 0; w < 2; w++) {
            const double f = -rs_train_coupler(tr, w ? c2 : c1, NULL);   /* compression positive */
            S0[w] += f * o.h;
            S1[w] += f * t * o.h;
            /* prev[w][1] is a local maximum: parabola through the three */
            if (prev[w][1] > prev[w][0] && prev[w][1] >= f && prev[w][1] > best[w]) {
                const double y0 = prev[w][0], y1 = prev[w][1], y2 = f;
                const double dt = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2);
                best[w] = y1;
                tpk[w] = t - o.h + dt * o.h;
            }
            prev[w][0] = prev[w][1];
            prev[w][1] = f;
        }
    }
    const double c_meas = (c2 - c1) * L / (tpk[1] - tpk[0]);
    const double c_cent = (c2 - c1) * L / (S1[1] / S0[1] - S1[0] / S0[0]);
    printf("train (b): pulse peaks at coupler %d t = %.4f s (%.0f N), coupler %d t = %.4f s (%.0f N): c = %.2f m/s, "
           "L sqrt(k/m) = %.2f m/s (%+.2f %%); by time centroids c = %.2f m/s (%+.3f %%)\n",
           c1, tpk[0], best[0], c2, tpk[1], best[1], c_meas, c_exact, 100 * (c_meas / c_exact - 1), c_cent,
           100 * (c_cent / c_exact - 1));
    ck_assert_msg(fabs(c_meas / c_exact - 1) < 0.05, "wave speed (peaks) %g vs %g", c_meas, c_exact);
    ck_assert_msg(fabs(c_cent / c_exact - 1) < 0.005, "wave speed (centroids) %g vs %g", c_cent, c_exact);
    const double impulse = P * Tp / 2;   /* ∫ P sin²(πt/Tp) dt */
    for (int w = 0; w < 2; w++)
        ck_assert_msg(fabs(S0[w] / impulse - 1) < 0.01, "impulse through coupler %d: %g vs %g", w ? c2 : c1, S0[w],
                      impulse);
    ck_assert(best[0] > 0.5 * P && best[1] > 0.5 * P);
    rs_train_free(&tr);
}
END_TEST

/* ------------------------------------------------------------ determinism */

#define NV_D 24
#define STEPS_D 600

static double *det_run(int threads)
{
    rs_wagon veh[NV_D];
    rs_coupler cpl[NV_D - 1];
    const double tt[3] = {0.0, 0.3, 1.0}, ff[3] = {0.0, 4e5, -1e5};
    for (int v = 0; v < NV_D; v++) {
        if (v % 8 == 0) {
            rs_loco_default(&veh[v]);
            veh[v].traction_n = 3;
            veh[v].traction_t = tt;
            veh[v].traction_f = ff;
        } else {
            rs_wagon_default(&veh[v]);
            veh[v].m_body = 25000.0 + 2000.0 * (v % 5);
        }
        veh[v].r1 = 1e-4;
    }
    for (int c = 0; c < NV_D - 1; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].slack = 0.01 * (c % 3);
        cpl[c].k_buffer = 4e7;
        cpl[c].buffer_gap = 0.005;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = threads;
    o.probe = 0;   /* the team on every step (no serial probe): its bits are what is compared */
    o.rebalance = 10;
    o.corrections = 2;
    rs_train *tr;
    char err[256];
    ck_assert_msg(rs_train_create(&tr, NV_D, veh, NULL, cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 1.0), RS_OK);
    const int n = rs_park_n(rs_train_park(tr));
    double *traj = malloc((size_t)STEPS_D * 2 * n * sizeof(double));
    for (int s = 0; s < STEPS_D; s++) {
        ck_assert_msg(rs_train_step(tr) == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
        memcpy(traj + (size_t)s * 2 * n, rs_park_q(rs_train_park(tr)), n * sizeof(double));
        memcpy(traj + (size_t)s * 2 * n + n, rs_park_qd(rs_train_park(tr)), n * sizeof(double));
    }
    const rs_park_stats *st = rs_park_get_stats(rs_train_park(tr));
    printf("train determinism: %d thread(s): %ld plans, Krylov iterations/step %.2f\n", threads, st->plans,
           (double)st->krylov_iters / st->steps);
    if (threads > 1)
        ck_assert_int_ge(st->plans, 10);
    rs_train_free(&tr);
    return traj;
}

START_TEST(test_threads_bit_identical)
{
    double *t1 = det_run(1);
    for (int th = 2; th <= 4; th += 2) {
        double *tn = det_run(th);
        ck_assert_msg(memcmp(t1, tn, (size_t)STEPS_D * 2 * NV_D * NQ * sizeof(double)) == 0,
                      "%d threads: trajectory differs from one thread", th);
        free(tn);
    }
    free(t1);
}
END_TEST

START_TEST(test_bad_parameters)
{
    rs_wagon veh[2];
    rs_coupler cpl[1];
    rs_wagon_default(&veh[0]);
    rs_wagon_default(&veh[1]);
    rs_coupler_default(&cpl[0]);
    veh[1].m_bogie = -1;
    const char *names[2] = {"loco", "w1"};
    rs_train *tr;
    char err[256];
    ck_assert_int_eq(rs_train_create(&tr, 2, veh, names, cpl, NULL, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_str_eq(err, "vehicle 'w1': m_bogie = -1 must be > 0");
    veh[1].m_bogie = 4000;
    cpl[0].slack = -0.1;
    ck_assert_int_eq(rs_train_create(&tr, 2, veh, names, cpl, NULL, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_str_eq(err, "coupler 'c0': slack = -0.1 must be >= 0");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_wagon_jacobians);
    tcase_add_test(tc, test_static_equilibrium);
    tcase_add_test(tc, test_coupler_jacobians);
    tcase_add_test(tc, test_pulled_from_rest);
    tcase_add_test(tc, test_pulled_from_rest_slack);
    tcase_add_test(tc, test_wave_speed);
    tcase_add_test(tc, test_threads_bit_identical);
    tcase_add_test(tc, test_bad_parameters);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
