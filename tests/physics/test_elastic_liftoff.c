/*
 * test_elastic_liftoff.c — a patch that opens within a step carries nothing
 * (issue 20): the elastic contact's step applies each patch's normal force
 * linearized to the step's end, and where that went below zero (the wheel
 * leaving its rail within the step) it pulled.  Now such a patch is taken
 * out of the step and the step solved again (rs_elastic.c wheel_opens).
 *
 * The S1002 wheelset (generated/wheelset) dropped 5 mm onto its rails at
 * Δt = 1 ms: it lands at 0.31 m/s, 0.31 mm per step against a static Hertz
 * approach of about 0.1 mm, and bounces, its patches opening within steps.
 * Every step, against what the contact does not compute:
 *  - no pull: Q ≥ 0 per wheel, N ≥ 0 per patch, an open patch N = 0, f = 0;
 *  - the results are what the step applied: the wheelset's vertical
 *    momentum, m (ż⁺ − ż) / Δt = Q_left + Q_right − m g (nothing else acts
 *    vertically: kz = cz = 0, its z the ground's, decoupled from the
 *    rotations), to 1e-9 of m g.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rt_fixtures.h"
#include "rs_ws.h"

static rs_ws *make(const rs_model *m, const rs_contact_ops *ops, double dt)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = ops;
    o.dt = dt;
    o.proj_tol = 1e-10;
    o.contact_tol = 1e-12;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

START_TEST(test_drop_no_pull_and_balance)
{
    RS_REQUIRE_MODEL("wheelset");
    rs_loaded *h = rt_load("generated/wheelset");
    const rs_model *m = rs_loaded_model(h);
    /* the height where the wheels touch: the constraint contact's */
    rs_ws *c = make(m, rs_wheel_rail_contact(), 1e-4);
    ck_assert_msg(rs_ws_init(c) == RS_OK, "%s", rs_ws_error(c));
    const double z0 = rs_ws_q(c)[2];
    rs_ws_free(&c);
    const double dt = 1e-3;
    rs_ws *ws = make(m, rs_elastic_contact(), dt);
    ck_assert_int_eq(rs_ws_set_q(ws, "z", z0 + 0.005), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 10), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", 10 / rt_param(ws, "r0")), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    const double mass = rt_param(ws, "m_ws"), g = rt_param(ws, "g");
    ck_assert(rt_param(ws, "kz") == 0 && rt_param(ws, "cz") == 0);
    rs_var vQ[2];
    ck_assert_int_eq(rs_model_find(m, "left.Q", &vQ[0]), RS_OK);
    ck_assert_int_eq(rs_model_find(m, "right.Q", &vQ[1]), RS_OK);
    double Qmin = INFINITY, worst = 0, Qmax = 0;
    long opened = 0, landed = 0;
    for (int k = 0; k < 400; k++) {
        const double zd = rs_ws_qd(ws)[2];
        ck_assert_msg(rs_step(ws) == RS_OK, "step %d: %s", k, rs_ws_error(ws));
        double Qs = 0;
        for (int i = 0; i < 2; i++) {
            const double Q = rs_ws_value(ws, vQ[i], NULL);
            Qs += Q;
            Qmin = fmin(Qmin, Q);
            Qmax = fmax(Qmax, Q);
            for (int j = 0; j < rs_elastic_patches(ws, i); j++) {
                const rs_elastic_patch *p = rs_elastic_patch_get(ws, i, j);
                ck_assert_msg(p->N >= 0, "step %d, wheel %d, patch %d: N = %g N", k, i, j, p->N);
                if (p->open)
                    ck_assert_msg(p->N == 0 && p->f[0] == 0 && p->f[1] == 0 && p->f[2] == 0,
                                  "step %d: an open patch carries N %g, f (%g, %g, %g)", k, p->N, p->f[0], p->f[1],
                                  p->f[2]);
                opened += p->open;
                landed += p->N > 0;
            }
        }
        /* m Δż / Δt + m g: the vertical force the step applied */
        const double applied = mass * (rs_ws_qd(ws)[2] - zd) / dt + mass * g;
        worst = fmax(worst, fabs(applied - Qs));
    }
    printf("wheelset dropped 5 mm, dt 1 ms: Q from %.1f to %.0f N, %ld patch-steps opened within their step, "
           "%ld loaded; |m dz'/dt + m g - sum Q| <= %.3g N\n",
           Qmin, Qmax, opened, landed, worst);
    ck_assert_msg(Qmin >= 0, "a wheel pulls on its rail: Q = %g N", Qmin);
    ck_assert_msg(worst <= 1e-9 * mass * g, "the results are not what the step applied: %g N off", worst);
    ck_assert_msg(opened > 0 && landed > 50, "not the case: %ld patches opened, %ld loaded", opened, landed);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic_liftoff");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_drop_no_pull_and_balance);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
