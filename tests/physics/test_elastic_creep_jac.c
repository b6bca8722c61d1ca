/*
 * test_elastic_creep_jac.c — the step's C6 = −∂W/∂(v, ω) at a flange patch
 * (S1002 on 60E1 1:40, y = 7.5 mm, ψ = 5 mrad, 30 µm pressed in, 5 m/s,
 * FASTSIM, μ 0.3, the default strip normal law: one patch over the flange
 * root and flank, its point (the overlap-weighted centroid) at 60.9°, N 81
 * kN, spin creepage −1.92 /m) against a central finite difference of the
 * wheel's wrench W in each velocity coordinate (issue 20: the climb rig's
 * bounce at ψ = 5 mrad).
 *
 * Without normal damping every column matches (the creep part of C6 is
 * right at the flange's contact angle and spin: 1.9e-3).  With it (c_n 1e5
 * N s/m) the columns that change the approach's rate (y, z, roll) miss
 * ∂f/∂N c_n ∂ṗ/∂v: the creep forces follow N, which the damping makes
 * depend on the velocity (F_x per ẏ: 4.50e4 N s/m by the difference,
 * 2.39e4 in C6); the columns along the rolling (x, yaw, spin) do not
 * change ṗ and match (2.8e-3).  The test asserts what holds, that the term
 * is missing (y: 0.19 of the column's largest entry, 70 times the rolling
 * columns' agreement; the point law, whose patch sat at the flank's 70°
 * with N 95 kN, missed 0.22) and that it is small where it acts: Δt of it
 * against the contact's term of the IMEX step's matrix at Δt = 1 ms,
 * 2.9e-2 (bound 0.1; the point law 3.2e-2, and 0.105 with c_n 5e5).
 * Session 43 (the strip patch's creep ellipse from its overlap): the
 * patch's creep force is (20.2, 10.1) kN, 0.28 N at μ 0.3 — saturating, as
 * creepages of 2.3 % and 1 % do on any ellipse of millimetres — where the
 * curvature at the root-and-flank centroid made an ellipse so small that
 * it gave (4.0, 4.6) kN, 0.075 N; before it the figures above were 4.4e-4,
 * 5.7e-4, 3.3e-2 and 4.5e-3.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rt_fixtures.h"
#include "rs_ws.h"

static double g_damp = 1e5;
static rs_ws *make(const rs_model *m, const rs_contact_ops *ops, int law)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = ops;
    o.dt = 1e-4;
    o.contact_mu = 0.3;
    o.contact_law = law;
    o.contact_damp = g_damp;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

/* The worst |C6 J − FD| over the columns in mask (bit l: local column l)
 * relative to the largest FD entry of that column; into *step (not NULL),
 * the worst over those columns of the missing part's share of the IMEX
 * step's matrix at Δt = 1 ms: |Δt Jᵀ (FD − C6 J)| against the contact's
 * own term of that column, Jᵀ (Δt C6 + θ Δt²/2 K6) J (the wheelset's mass,
 * 1250 kg and more on the diagonal, not counted: the share is an upper
 * bound). */
static double check(int law, double psi, double vy, unsigned mask, double *step)
{
    double worst = 0;
    rs_loaded *h = rt_load("generated/wheelset");
    const rs_model *m = rs_loaded_model(h);
    const int nq = m->n_q;
    rs_ws *c = make(m, rs_wheel_rail_contact(), 0);
    ck_assert_int_eq(rs_ws_set_q(c, "y", 0.0075), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(c, "yaw", psi), RS_OK);
    ck_assert_msg(rs_ws_init(c) == RS_OK, "%s", rs_ws_error(c));
    double *q = malloc(sizeof(double) * (size_t)nq), *qd = calloc((size_t)nq, sizeof(double));
    memcpy(q, rs_ws_q(c), sizeof(double) * (size_t)nq);
    rs_ws_free(&c);
    q[2] -= 3e-5;
    rs_ws *ws = make(m, rs_elastic_contact(), law);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    const double r0 = rt_param(ws, "r0");
    qd[0] = 5, qd[5] = 5 / r0, qd[1] = vy;
    ck_assert_int_eq(rs_elastic_eval(ws, 0, q, qd), RS_OK);
    const double dt = 1e-3;
    double *S = calloc((size_t)nq * (size_t)nq, sizeof(double));
    ck_assert(S);
    rs_elastic_step_matrix(ws, dt, S);
    rs_elastic_wheel_state st;
    double C6[36], W0[6], J[6 * 8];
    int i = 0; /* left: the flange */
    rs_elastic_wheel_get(ws, i, &st);
    memcpy(C6, st.C6, sizeof C6);
    memcpy(W0, st.W, sizeof W0);
    const int mcol = st.m;
    ck_assert_int_eq(mcol, 6); /* x, y, z, roll, yaw, spin: the masks below */
    int cols[8];
    memcpy(cols, st.cols, sizeof(int) * (size_t)mcol);
    memcpy(J, st.J, sizeof(double) * 6 * (size_t)mcol);
    for (int j = 0; j < rs_elastic_patches(ws, i); j++) {
        const rs_elastic_patch *p = rs_elastic_patch_get(ws, i, j);
        printf("law %d psi %g vy %g: patch %d alpha %.1f deg N %.0f f (%.0f %.0f %.2f) xi (%.3g %.3g %.3g)\n", law,
               psi, vy, j, p->g.alpha * 57.2958, p->N, p->f[0], p->f[1], p->f[2], p->xi[0], p->xi[1], p->xi[2]);
    }
    for (int l = 0; l < mcol; l++) {
        const int j = cols[l];
        const double e = 1e-5;
        double Wp[6], Wm[6];
        qd[j] += e;
        ck_assert_int_eq(rs_elastic_eval(ws, 0, q, qd), RS_OK);
        rs_elastic_wheel_get(ws, i, &st);
        memcpy(Wp, st.W, sizeof Wp);
        qd[j] -= 2 * e;
        ck_assert_int_eq(rs_elastic_eval(ws, 0, q, qd), RS_OK);
        rs_elastic_wheel_get(ws, i, &st);
        memcpy(Wm, st.W, sizeof Wm);
        qd[j] += e;
        printf("  d/d%-10s", m->q_names[j]);
        double big = 0, err = 0, miss[6];
        for (int r = 0; r < 6; r++) {
            double an = 0;
            for (int k = 0; k < 6; k++)
                an -= C6[6 * r + k] * J[6 * l + k];
            const double fd = (Wp[r] - Wm[r]) / (2 * e);
            printf(" [%10.4g fd %10.4g]", an, fd);
            big = fmax(big, fabs(fd));
            err = fmax(err, fabs(an - fd));
            miss[r] = fd - an;
        }
        /* the missing part in the step's matrix: −Δt Jᵀ miss (C = −∂F/∂q̇) */
        double sm = 0, ss = 0;
        for (int l2 = 0; l2 < mcol; l2++) {
            double g = 0;
            for (int k = 0; k < 6; k++)
                g += J[6 * l2 + k] * miss[k];
            sm = fmax(sm, dt * fabs(g));
            ss = fmax(ss, fabs(S[(size_t)j * (size_t)nq + (size_t)cols[l2]]));
        }
        printf("  rel %.2e; step 1 ms: missing %.3g of %.3g\n", err / big, sm, ss);
        if (mask >> l & 1) {
            worst = fmax(worst, err / big);
            if (step)
                *step = fmax(*step, sm / ss);
        }
    }
    free(S);
    (void)W0;
    free(q), free(qd);
    rs_ws_free(&ws);
    rs_unload(&h);
    return worst;
}

START_TEST(test_creep_jacobian_flange)
{
    RS_REQUIRE_MODEL("wheelset");
    /* local columns: x, y, z, roll, yaw, spin (the wheel's J touches all) */
    const unsigned all = 0x3f, rolling = 1u | 1u << 4 | 1u << 5;
    const unsigned across = 1u << 1 | 1u << 2 | 1u << 3;
    g_damp = 0;
    const double e0 = check(1, 0.005, 0, all, NULL);
    g_damp = 1e5;
    double share = 0;
    const double e1 = check(1, 0.005, 0, rolling, NULL), e1y = check(1, 0.005, 0, across, &share);
    /* Kalker's law saturated: the saturation factor is held in C6 (printed) */
    check(0, 0.005, 0, 0, NULL);
    printf("C6 vs finite difference at the flange patch: %.2e without normal damping (all columns), "
           "%.2e with it along the rolling (x, yaw, spin); %.2e across (y, z, roll): the missing dF/dN c_n dp'/dv, "
           "%.2e of the contact's term of the step's matrix at 1 ms\n",
           e0, e1, e1y, share);
    ck_assert_msg(e0 < 0.01, "without damping C6 misses %.2e", e0);
    ck_assert_msg(e1 < 0.01, "along the rolling C6 misses %.2e", e1);
    /* The missing term is large in C6 (a fifth to all of a column's
     * largest entry across the rolling) but small where it acts: in the
     * step's matrix at 1 ms, Δt of it against the contact's own term
     * (Δt²/2 k_n ~ 700 kg, the wheelset's mass beside it).  Added alone
     * (the experiment: ∂f/∂N from the laws' scaling, FD agreement 1e-9),
     * the step's creep forces followed the damping's part of N's change
     * and not the stiffness's: test_elastic_dt's 0.1 ms FEVE run then had
     * a wheel pull (Q −204 N at 10.9 ms, rear.wr.right); docs/contact.md */
    ck_assert_msg(e1y > 10 * e1, "the term is not missing any more (%.2e): turn this into an FD agreement", e1y);
    ck_assert_msg(share < 0.1, "the missing term is %.2e of the step's contact term at 1 ms", share);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic_creep_jac");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_creep_jacobian_flange);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
