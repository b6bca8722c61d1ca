/*
 * test_conformal_stop.c — where a single-point contact meets a wheel and a
 * rail whose curvatures leave no Hertz patch (a concave flange root on the
 * gauge corner), the run stops with what happened and the fix in words,
 * not "Hertz/Kalker failed (code -22) ... (conformal or saddle contact?)":
 *
 *   - a wheelset (vehicles/examples/wheelset.vdl) with a hollow wheel of
 *     lateral radius 0.1 m (z = y²/0.2, concave) on the R 300 mm rail head
 *     (arc_r300.prf, convex): the constraint contact's point sits at the
 *     hollow's bottom, a saddle; the run stops at step 1, t = 0 s, naming
 *     the contact, its wheel body, the lateral positions u_w and u_r, the
 *     word "saddle", the code's name and number (RS_E_NONHERTZ -22) and the
 *     fix ('contact elastic' in the scenario, 'mode elastic' in the
 *     description).  Its lateral curvature sum, by hand: at u_w the wheel's
 *     slope f' = u_w/0.1 and f'' = 10 give R_wy = −(1 + f'²)^{3/2}/f''
 *     (rs_hertz.h's sign), the rail's R_ry = 0.3 m (a circle), so
 *     B = (1/R_wy + 1/R_ry)/2 ≈ −3.33 1/m; the message's B agrees to 1e-3;
 *   - the same wheelset as a train vehicle (its compliant single-point
 *     contact): stops naming the contact and the train file's fix,
 *     'contact elastic' in the vehicle's block.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_test.h"
#include "rs_test_files.h"

static char dir[] = "/tmp/rs_conformal_stop_XXXXXX";
static char root[PATH_MAX]; /* the repository: the tests run there */

/* The wheelset of vehicles/examples/wheelset.vdl on a hollow wheel. */
static const char kVdl[] =
    "param m_ws = 1250, Ix = 700, Iy = 100, r0 = 0.45, b0 = 0.75, b_r = 0.753035, g = 9.81\n"
    "param ky = 1e5, kyaw = 1e5\n"
    "coord x, y, z, roll, yaw, spin\n"
    "base B_yaw = rotate(ground, z, yaw)\n"
    "base B_nsw = rotate(B_yaw, x, roll)\n"
    "base B_ws  = rotate(B_nsw, y, spin)\n"
    "point O_ws = O + [x, y, r0 + z] in ground\n"
    "body wheelset  mass m_ws  cg O_ws  inertia diag(Ix, Iy, Ix) in B_nsw  frame B_ws\n"
    "point W_left  = O_ws + [0, b0, 0] in B_nsw\n"
    "point W_right = O_ws + [0, -b0, 0] in B_nsw\n"
    "gravity [0, 0, -g] in ground\n"
    "point C = O + [x, 0, r0] in ground\n"
    "frame carrier = C in ground\n"
    "frame axle = O_ws in B_nsw\n"
    "bushing suspension  between carrier and axle  k [0, ky, 0, 0, 0, kyaw]\n"
    "contact left   wheel wheelset  at W_left in B_nsw   side left   radius r0  offset b_r  profile \"hollow.prf\"  "
    "rail \"%s/vehicles/profiles/arc_r300.prf\"  track \"%s/vehicles/tracks/straight.trk\"\n"
    "contact right  wheel wheelset  at W_right in B_nsw  side right  radius r0  offset b_r  profile \"hollow.prf\"  "
    "rail \"%s/vehicles/profiles/arc_r300.prf\"  track \"%s/vehicles/tracks/straight.trk\"\n";

static void write_file(const char *name, const char *text) { rs_test_write(dir, name, text); }

/* The whole of DIR/NAME ("" when missing). */
static const char *slurp(const char *name)
{
    static char *text;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    free(text);
    text = rs_test_slurp(path);
    return text ? text : "";
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(realpath(".", root));
    /* the hollow: z = y²/(2 · 0.1 m), the radius increase over r0 */
    char prf[8192];
    int n = snprintf(prf, sizeof prf, "railsym-profile 1\nname hollow_r100\nkind wheel\nunits m\n");
    for (int k = -72; k <= 72; k++) {
        const double y = 0.0005 * k;
        n += snprintf(prf + n, sizeof prf - (size_t)n, "%.6f %.12f\n", y, y * y / 0.2);
    }
    write_file("hollow.prf", prf);
    static char vdl[4 * PATH_MAX + 2048];
    snprintf(vdl, sizeof vdl, kVdl, root, root, root, root);
    rs_test_compile(dir, "saddle", vdl);
    write_file("run.scn", "duration 0.01\nstep 1e-4\nmethod imex\ninitial x_dot = 20\n"
                          "initial spin_dot = 44.44444444444444\n");
}

static void teardown(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* The number after KEY in TEXT (NAN when KEY is missing). */
static double number_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

START_TEST(constraint_contact_says_what_and_the_fix)
{
    ck_assert_int_ne(rs_test_sh("cd %s && '%s' run saddle --scenario run.scn --out r.csv --quiet 2> r.err", dir,
                                rs_test_bin()),
                     0);
    const char *e = slurp("r.err");
    ck_assert_msg(strstr(e, "step 1, t = 0 s: contact 'left' (wheel of body 'wheelset') at u_w = "), "%s", e);
    ck_assert_msg(strstr(e, "on the wheel profile, u_r = ") && strstr(e, "on the rail profile"), "%s", e);
    ck_assert_msg(strstr(e, "a saddle (the concave wheel is tighter across the rail than the convex rail"), "%s", e);
    ck_assert_msg(strstr(e, "RS_E_NONHERTZ -22"), "the Hertz code by name and number: %s", e);
    ck_assert_msg(strstr(e, "use the elastic multi-patch contact: 'contact elastic' in the scenario") &&
                      strstr(e, "'mode elastic'"),
                  "the fix: %s", e);
    /* B by hand from the positions the message gives */
    const double uw = number_after(e, "u_w = "), ur = number_after(e, "u_r = ");
    ck_assert_msg(isfinite(uw) && isfinite(ur) && fabs(uw) < 0.036 && fabs(ur) < 0.036, "%s", e);
    const double fw = uw / 0.1, Rwy = -pow(1 + fw * fw, 1.5) / 10.0;
    const double Rry = 0.3; /* a circle's radius at every point of it */
    const double B = 0.5 * (1 / Rwy + 1 / Rry);
    const double Bmsg = number_after(e, "B = (1/R_wy + 1/R_ry)/2 = ");
    ck_assert_msg(B < -3.3 && fabs(Bmsg - B) < 1e-3, "B %.6g by hand, %.6g in the message: %s", B, Bmsg, e);
    ck_assert_msg(fabs(number_after(e, "lateral, rail ") - 0.3) < 1e-4, "the rail's radius: %s", e);
}
END_TEST

START_TEST(train_contact_says_the_fix)
{
    char train[PATH_MAX + 200];
    snprintf(train, sizeof train,
             "duration 0.01\nstep 1e-4\nvehicle w model %s/saddle\n  x_coord x\nend\norder\n  w\nend\n", dir);
    write_file("t.train", train);
    ck_assert_int_ne(rs_test_sh("cd %s && '%s' run t.train --out t.csv --quiet 2> t.err", dir, rs_test_bin()), 0);
    const char *e = slurp("t.err");
    ck_assert_msg(strstr(e, "contact 'left' (wheel of body 'wheelset') at u_w = "), "%s", e);
    ck_assert_msg(strstr(e, "a saddle"), "%s", e);
    ck_assert_msg(strstr(e, "write 'contact elastic' in the vehicle's block of the train file"), "%s", e);
    ck_assert_msg(strstr(e, "RS_E_NONHERTZ -22"), "%s", e);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("conformal_stop");
    TCase *tc = tcase_create("conformal_stop");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, constraint_contact_says_what_and_the_fix);
    tcase_add_test(tc, train_contact_says_the_fix);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
