/*
 * test_suspension_energy.c — the energy balance of the suspension elements
 * (vehicles/examples/suspension.vdl: a table spring, table and linear
 * dampers, a bump stop past its clearance, a dry-friction damper, an
 * anti-roll bar, a stiff link) over a run of its scenario through the
 * runtime: kinetic + potential energy change = the work of the power terms
 * (inputs − damping + other), the powers integrated by the trapezoid rule.
 * The residual must be small beside the dissipated work and shrink like
 * Δt² when the step is halved (the trapezoid rule's order; RK4 is better):
 * a missing or wrong potential or dissipation would leave a residual that
 * does not shrink.  The work of "other" is zero: the elastic laws have
 * exact potentials.  The damping power must be ≥ 0 at every step (every
 * element here dissipates).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_contact.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_ws.h"
#include "rs_test.h"

#define DIR "generated/suspension"
#define SCN "vehicles/examples/suspension.scn"

typedef struct balance {
    double dE, w[RS_POWER_COUNT], residual, damp_min;
} balance;

static void run(double dt, balance *b)
{
    char err[2000];
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert(m->fn[RS_FN_POWER].fn != NULL);
    rs_scenario base, top;
    ck_assert_msg(rs_scenario_read(DIR "/default.scn", &base, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_read(SCN, &top, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_scenario_overlay(&base, &top), RS_OK);
    rs_binding *bd = NULL;
    ck_assert_msg(rs_scenario_bind(&base, m, &bd, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    rs_binding_options(bd, &o);
    ck_assert_int_eq(o.method, RS_RK4);
    o.dt = dt;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(bd, ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    memset(b, 0, sizeof *b);
    b->damp_min = INFINITY;
    double T0, V0, T, V, P[RS_POWER_COUNT], Pprev[RS_POWER_COUNT];
    ck_assert_int_eq(rs_ws_energy(ws, &T0, &V0), RS_OK);
    ck_assert_int_eq(rs_ws_power(ws, Pprev), RS_OK);
    const long nsteps = lround(rs_binding_duration(bd) / dt);
    for (long n = 0; n < nsteps; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "step %ld: %s", n, rs_ws_error(ws));
        ck_assert_int_eq(rs_ws_power(ws, P), RS_OK);
        for (int k = 0; k < RS_POWER_COUNT; k++)
            b->w[k] += 0.5 * dt * (Pprev[k] + P[k]);
        b->damp_min = fmin(b->damp_min, P[RS_POWER_DAMPING]);
        memcpy(Pprev, P, sizeof P);
    }
    ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
    b->dE = (T + V) - (T0 + V0);
    b->residual = b->dE - (b->w[RS_POWER_INPUTS] - b->w[RS_POWER_DAMPING] + b->w[RS_POWER_OTHER]);
    fprintf(stderr,
            "suspension energy, dt %g s, %g s: d(T+V) %.4f J; work of inputs %.4f J, damping %.4f J, other %.4f J; "
            "residual %.3e J; min damping power %.3g W\n",
            dt, nsteps * dt, b->dE, b->w[RS_POWER_INPUTS], b->w[RS_POWER_DAMPING], b->w[RS_POWER_OTHER],
            b->residual, b->damp_min);
    rs_ws_free(&ws);
    rs_binding_free(&bd);
    rs_scenario_free(&base);
    rs_scenario_free(&top);
    rs_unload(&h);
}

START_TEST(test_balance)
{
    balance a, b;
    run(1e-3, &a);
    run(5e-4, &b);
    /* something happens: the elements dissipate a good part of the energy */
    ck_assert_msg(a.w[RS_POWER_DAMPING] > 100.0, "damping work %g J", a.w[RS_POWER_DAMPING]);
    ck_assert_msg(a.damp_min >= -1e-9 && b.damp_min >= -1e-9, "damping power < 0: %g, %g", a.damp_min, b.damp_min);
    /* the balance closes to a small part of the dissipated work ... */
    ck_assert_msg(fabs(a.residual) <= 2e-5 * a.w[RS_POWER_DAMPING], "residual %g J, damping work %g J", a.residual,
                  a.w[RS_POWER_DAMPING]);
    /* every element's elastic force is the gradient of its potential (the
     * guides' couples included, forces.cpp axis_couple): nothing is left
     * for "other" */
    ck_assert_msg(fabs(a.w[RS_POWER_OTHER]) <= 1e-9 * a.w[RS_POWER_DAMPING], "other work %g J", a.w[RS_POWER_OTHER]);
    /* ... and the residual is the integration's: it shrinks like dt^2 (ratio 4; 4.9 seen) */
    ck_assert_msg(fabs(b.residual) <= fabs(a.residual) / 3.0, "residual %g J at dt, %g J at dt/2", a.residual,
                  b.residual);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("suspension_energy");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_balance);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
