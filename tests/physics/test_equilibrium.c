/*
 * test_equilibrium.c — the scenario statement `equilibrium [COORD...]`
 * (runtime/app/rs_equilibrium.h; docs/scenario.md, "Static equilibrium"),
 * each figure against a hand calculation:
 *
 *   - the two-axle bogie (generated/bogie: a frame on two wheelsets through
 *     bushings, four constraint contacts, no preload: the frame starts
 *     where the bushings are unloaded): every wheel load Q is
 *     (m_f + 2 m_ws) g / 4 within 1e-6 relative, the primary deflection
 *     (frame against the mean of the wheelsets) is m_f g / (4 k_pz) (two
 *     bushings of 2 k_pz each carry the frame), and the run starts without
 *     a transient: every velocity after the first 1 ms step is below
 *     1e-9 m/s (|q̈| < 1e-6 m/s²; measured ~1e-15 m/s), where without `equilibrium` the frame
 *     drops at g;
 *     The same with `contact elastic` (Hertzian wheels: their forces and
 *     stiffness in δ and K; the lateral mode is held only once they carry);
 *   - a body on a spring with a bump stop whose gap the spring alone would
 *     exceed (m g / k = 98.1 mm > 50 mm): the deflection d solves
 *     k d + k_b (d − gap) + k3 (d − gap)³ = m g, found here by bisection;
 *   - a body with a lateral coordinate nothing holds: the default
 *     `equilibrium` fails naming 'y' and saying how to exclude it, and
 *     `equilibrium z` gives the spring's m g / k;
 *   - vehicles/examples/suspension.vdl, whose primary free length is defined
 *     so that the loaded frame stands at z_f = 0: the equilibrium finds
 *     z_f = 0 (to second order in the frame's roll φ: |z_f| < φ² · 1 m),
 *     also with a heavier body (the dependent parameter follows; a stale
 *     L_p would leave it 73.6 mm lower);
 *   - a body hanging on a spring whose force jumps by 2e4 N within 1e-13 m
 *     (a table), the weight 9.81 kN inside the jump: the residual left is
 *     the force's rounding on that slope (~4 N) and the noise measured
 *     across the jump is ~1e4 N, yet it must not count as converged to the
 *     forces' resolution: that needs the residual below 1e-6 of the largest
 *     force as well (RS_EQUILIBRIUM_NOISE_CEIL); the error names 'z';
 *   - scenario errors: file:line and the fix.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_driver.h"
#include "rs_equilibrium.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_test.h"
#include "rs_test_scn.h"

static char err[4000];
static char dir[] = "/tmp/rs_equil_XXXXXX";
static rs_test_csv tab;   /* the result read last */

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    rs_test_csv_free(&tab);
    rs_test_rmtree(dir);
}

static char logbuf[20000];

/* Runs MODEL with scenario text SCN (written as DIR/NAME) into DIR/NAME.csv;
 * log lines into `logbuf`. */
static int run(const char *model, const char *name, const char *scn)
{
    return rs_test_drive_in(dir, name, scn, model, logbuf, sizeof logbuf, err, sizeof err);
}

static void read_csv(const char *name) { rs_test_csv_read(&tab, "%s/%s.csv", dir, name); }

static double col(int row, const char *name) { return rs_test_csv_at(&tab, row, name); }

/* generated/bogie's parameters (vehicles/examples/bogie.vdl) */
#define M_WS 1813.0
#define M_F 2615.0
#define KPZ 1.22e6
#define G 9.81

static const char kBogieCols[] =
    "columns x y z roll pitch yaw front.y front.z front.roll front.yaw rear.y rear.z rear.roll rear.yaw "
    "x_dot y_dot z_dot roll_dot pitch_dot yaw_dot front.y_dot front.z_dot front.roll_dot front.yaw_dot "
    "rear.y_dot rear.z_dot rear.roll_dot rear.yaw_dot front.left.Q front.right.Q rear.left.Q rear.right.Q\n";

static const char *const kBogieVel[] = {
    "x_dot", "y_dot", "z_dot", "roll_dot", "pitch_dot", "yaw_dot", "front.y_dot", "front.z_dot",
    "front.roll_dot", "front.yaw_dot", "rear.y_dot", "rear.z_dot", "rear.roll_dot", "rear.yaw_dot"};

/* The largest velocity of the row (m/s or rad/s). */
static double max_velocity(int row)
{
    double v = 0;
    for (size_t k = 0; k < sizeof kBogieVel / sizeof kBogieVel[0]; k++)
        v = fmax(v, fabs(col(row, kBogieVel[k])));
    return v;
}

START_TEST(bogie_wheel_loads_and_no_transient)
{
    RS_REQUIRE_MODEL("bogie");
    char scn[2000];
    /* without: the frame starts on unloaded bushings and falls */
    snprintf(scn, sizeof scn, "duration 0.002\nstep 1e-3\noutput 1e-3\n%s", kBogieCols);
    ck_assert_msg(run("generated/bogie", "free.scn", scn) == RS_OK, "%s", err);
    read_csv("free.scn");
    ck_assert_msg(max_velocity(1) > 1e-3, "without equilibrium the first step moves: %g", max_velocity(1));

    for (int elastic = 0; elastic < 2; elastic++) {
        snprintf(scn, sizeof scn, "duration 0.002\nstep 1e-3\noutput 1e-3\nequilibrium\n%s%s",
                 elastic ? "contact elastic\n" : "", kBogieCols);
        ck_assert_msg(run("generated/bogie", "eq.scn", scn) == RS_OK, "%s", err);
        ck_assert_msg(strstr(logbuf, "equilibrium: 13 coordinate(s) solved for in"), "%s", logbuf);
        read_csv("eq.scn");
        const double Q = (M_F + 2 * M_WS) * G / 4; /* 15306.05 N */
        static const char *const wheels[] = {"front.left.Q", "front.right.Q", "rear.left.Q", "rear.right.Q"};
        for (int row = 0; row < 2; row++)
            for (int k = 0; k < 4; k++)
                ck_assert_msg(fabs(col(row, wheels[k]) - Q) <= 1e-6 * Q, "row %d %s = %.10g N, by hand %.10g N", row,
                              wheels[k], col(row, wheels[k]), Q);
        /* the primary deflection: the frame sinks m_f g / (4 k_pz) below the wheelsets' mean */
        const double d = col(0, "z") - 0.5 * (col(0, "front.z") + col(0, "rear.z"));
        ck_assert_msg(fabs(d + M_F * G / (4 * KPZ)) <= 1e-9, "deflection %.12g m, by hand %.12g m", d,
                      -M_F * G / (4 * KPZ));
        /* symmetric: centred, level */
        ck_assert_msg(fabs(col(0, "y")) < 1e-9 && fabs(col(0, "pitch")) < 1e-9 && fabs(col(0, "roll")) < 1e-9,
                      "y %g pitch %g roll %g", col(0, "y"), col(0, "pitch"), col(0, "roll"));
        /* no transient: q̈ ≈ q̇(Δt)/Δt, every |q̈| < 1e-6 m/s² */
        ck_assert_msg(max_velocity(0) == 0, "velocities at t = 0: %g", max_velocity(0));
        ck_assert_msg(max_velocity(1) < 1e-9, "largest velocity after one step %g", max_velocity(1));
    }
}
END_TEST

/* a body of mass m on a vertical spring k (free length 1 m) with a bump stop
 * of gap 50 mm, k_b and k3: z is the deflection (negative: compression) */
static const char kBumpVdl[] =
    "param m = 1000, g = 9.81, k = 1.0e5, kb = 1.0e6, k3 = 1.0e9, gap = 0.05\n"
    "coord z\n"
    "point P = O + [0, 0, 1 + z] in ground\n"
    "body b  mass m  cg P  inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "spring s  between O and P  k k  length 1\n"
    "bumpstop stop  between O and P  gap gap  k kb  k3 k3  length 1\n";

START_TEST(bump_stop_engaged)
{
    rs_test_compile(dir, "bump", kBumpVdl);
    char model[600];
    snprintf(model, sizeof model, "%s/bump", dir);
    ck_assert_msg(run(model, "b.scn", "duration 0.001\nstep 1e-3\nequilibrium\ncolumns z z_dot\n") == RS_OK, "%s",
                  err);
    read_csv("b.scn");
    /* by hand: compression c > gap with k c + kb (c − gap) + k3 (c − gap)³ = m g */
    const double m = 1000, g = 9.81, k = 1e5, kb = 1e6, k3 = 1e9, gap = 0.05;
    ck_assert(m * g / k > gap); /* the spring alone would pass the gap */
    double lo = gap, hi = m * g / k;
    for (int i = 0; i < 200; i++) {
        const double c = 0.5 * (lo + hi), e = c - gap;
        if (k * c + kb * e + k3 * e * e * e > m * g)
            hi = c;
        else
            lo = c;
    }
    const double c = 0.5 * (lo + hi);
    ck_assert_msg(fabs(col(0, "z") + c) < 1e-10, "z = %.12g m, by hand %.12g m", col(0, "z"), -c);
    ck_assert_msg(fabs(col(1, "z_dot")) < 1e-9, "z_dot after one step %g", col(1, "z_dot"));

    /* the same through the function, with its report and log */
    rs_loaded *h = rs_load(model, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_int_eq(rs_ws_create(rs_loaded_model(h), NULL, &ws, err, sizeof err), RS_OK);
    rs_test_drive_log sink = {logbuf, sizeof logbuf};
    rs_log lg = {rs_test_drive_collect, &sink};
    logbuf[0] = '\0';
    rs_equilibrium_opts o = {NULL, 0, 0, 0, &lg, 0};
    rs_equilibrium_report rep;
    ck_assert_msg(rs_equilibrium(ws, &o, &rep, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(fabs(rs_ws_q(ws)[0] + c) < 1e-10, "z = %.12g", rs_ws_q(ws)[0]);
    ck_assert_msg(rep.iterations >= 2 && rep.residual <= RS_EQUILIBRIUM_TOL * rep.scale, "%d its, r %g",
                  rep.iterations, rep.residual);
    ck_assert_msg(strstr(logbuf, "equilibrium: iteration 0: max |residual force| 9.81e+03 at 'z'"), "%s", logbuf);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* a body with a lateral coordinate y that nothing holds, on a vertical spring */
static const char kFreeVdl[] =
    "param m = 500, g = 9.81, k = 2.0e5\n"
    "coord y, z\n"
    "point P = O + [0, y, 1 + z] in ground\n"
    "body b  mass m  cg P  inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "point A = O + [0, y, 0] in ground\n"
    "spring s  between A and P  k k  length 1  along ez(ground)\n";

START_TEST(free_mode_refused)
{
    rs_test_compile(dir, "free", kFreeVdl);
    char model[600];
    snprintf(model, sizeof model, "%s/free", dir);
    ck_assert_int_eq(run(model, "f.scn", "duration 0.001\nequilibrium\n"), RS_E_SINGULAR);
    ck_assert_msg(strstr(err, "equilibrium: no static equilibrium: coordinate 'y' has no stiffness") &&
                      strstr(err, "exclude it by listing the coordinates to solve for after 'equilibrium'"),
                  "%s", err);
    ck_assert_msg(run(model, "z.scn", "duration 0.001\nequilibrium z\ncolumns y z\n") == RS_OK, "%s", err);
    read_csv("z.scn");
    ck_assert_msg(fabs(col(0, "z") + 500 * 9.81 / 2e5) < 1e-12, "z = %.15g, m g / k = %.15g", col(0, "z"),
                  500 * 9.81 / 2e5);
    ck_assert_double_eq(col(0, "y"), 0);
    /* errors of the statement */
    ck_assert_int_ne(run(model, "u.scn", "equilibrium zz\n"), RS_OK);
    ck_assert_msg(strstr(err, "u.scn:1: unknown coordinate 'zz' (did you mean 'z'?)"), "%s", err);
    ck_assert_int_ne(run(model, "t.scn", "equilibrium\nequilibrium z\n"), RS_OK);
    ck_assert_msg(strstr(err, "t.scn:2: 'equilibrium' given twice (first at line 1)"), "%s", err);
    ck_assert_int_ne(run(model, "d.scn", "equilibrium z z\n"), RS_OK);
    ck_assert_msg(strstr(err, "d.scn:1: 'equilibrium' names 'z' twice"), "%s", err);
    ck_assert_int_ne(run(model, "e.scn", "equilibrium z = 1\n"), RS_OK);
    ck_assert_msg(strstr(err, "e.scn:1: 'equilibrium' takes coordinate names"), "%s", err);
}
END_TEST

/* a mass hanging on a spring whose tension jumps from 0 to 2e4 N within 1e-13 m */
static const char kJumpVdl[] =
    "param m = 1000, g = 9.81\n"
    "coord z = 1\n"
    "point P = O + [0, 0, z] in ground\n"
    "body b  mass m  cg P  inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "point A = O + [0, 0, 2] in ground\n"
    "table jump = [[-1, 0], [0, 0], [1e-13, 2e4], [1, 1.02e6]] linear\n"
    "spring s  between A and P  k jump  length 1\n";

START_TEST(force_jump_still_fails)
{
    rs_test_compile(dir, "jump", kJumpVdl);
    char model[600];
    snprintf(model, sizeof model, "%s/jump", dir);
    ck_assert_int_eq(run(model, "j.scn", "duration 0.001\nequilibrium\n"), RS_E_NOCONV);
    ck_assert_msg(strstr(err, "equilibrium: ") && strstr(err, "'z'"), "%s", err);
    /* it came as close as the rounding allows: the residual is neither the
     * weight nor 0 (the test's jump is where it should be) */
    const char *p = strstr(err, "'z' ");
    ck_assert_ptr_nonnull(p);
    const double r = fabs(atof(p + 4));
    ck_assert_msg(r > 9.81e-3 && r < 100, "residual %g N\n%s", r, logbuf);
}
END_TEST

/* vehicles/examples/suspension.vdl defines the primary springs' free length
 * L_p = 0.3 + (m_f + m_c) g / (2 k_p) so that, loaded, the frame stands at
 * z_f = 0: the equilibrium must find z_f = 0 (the table air springs, the
 * anti-roll bar and the bump stop in play), and still with a heavier body,
 * since L_p follows m_c (a dependent parameter, docs/vdl.md); a stale L_p
 * would leave the frame (m_c' − m_c) g / (2 k_p) = 73.6 mm lower. */
START_TEST(suspension_loaded_height)
{
    RS_REQUIRE_MODEL("suspension");
    static const char *const scn[] = {"duration 0.001\nequilibrium\ncolumns z_f roll_f L_p\n",
                                      "duration 0.001\nparam m_c = 30000\nequilibrium\ncolumns z_f roll_f L_p\n"};
    for (int i = 0; i < 2; i++) {
        ck_assert_msg(run("generated/suspension", "s.scn", scn[i]) == RS_OK, "%s", err);
        read_csv("s.scn");
        const double L_p = 0.3 + (2500 + (i ? 30000 : 15000)) * 9.81 / (2 * 1.0e6);
        ck_assert_msg(fabs(col(0, "L_p") - L_p) < 1e-15, "L_p %.17g, by hand %.17g", col(0, "L_p"), L_p);
        /* 0 up to second order in the frame's roll φ (the traction rod
         * rolls it): the primaries tilt by about φ (vertical part 1 − φ²/2)
         * and their ends sit 0.3 (1 − cos φ) ≈ 0.15 φ² higher; lever arms
         * are below 1 m, so |z_f| < φ² · 1 m bounds what this leaves */
        const double phi = col(0, "roll_f");
        ck_assert_msg(fabs(col(0, "z_f")) < 1e-12 + phi * phi && fabs(phi) < 2e-3,
                      "m_c %s: z_f = %g m, roll_f %g rad", i ? "30000" : "default", col(0, "z_f"), phi);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("equilibrium");
    TCase *tc = tcase_create("equilibrium");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, bogie_wheel_loads_and_no_transient);
    tcase_add_test(tc, bump_stop_engaged);
    tcase_add_test(tc, free_mode_refused);
    tcase_add_test(tc, force_jump_still_fails);
    tcase_add_test(tc, suspension_loaded_height);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
