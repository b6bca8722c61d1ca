/*
 * test_derailment_run.c — `railsym run` and a derailment (docs/scenario.md
 * `derailment stop|continue`): the flange-climb rig generated/climb driven
 * as in tests/physics/test_derailment.c (S1002 on 60E1 1:40, ψ = 20 mrad,
 * μ = 0.3, FASTSIM, 1 m/s, F_y = 0 until 0.25 s, then 100 kN/s as an input
 * table), so that the left wheel climbs its flange (≈ 0.80 s) and derails
 * (≈ 0.92 s) before the run's end at 0.95 s.
 *
 *  - `derailment stop` (the default's word, written out): exit status 1;
 *    standard error has the flange-climbing line, the derailment line saying
 *    it stops, and the failure naming RS_E_DERAILED and the contact; the CSV
 *    holds complete rows up to the step before the derailment only;
 *  - `derailment continue`: exit status 0, the same two event lines (the
 *    derailment once, without the stop), and the CSV reaches the end.
 *
 * `climb_time T` moves the climb's report to T after Y/Q first reached
 * the limit (test_climb_time_setting).
 *
 * A stopped run leaves its rows as stop.partial.csv and no stop.csv; the
 * message names that file and the time of its last row.
 *
 * The command is $RAILSYM_BIN, else ./build/railsym; tests run from the
 * repository root.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_test.h"

static const char *railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "./build/railsym";
}

static char dir[64];

/* Writes the scenario (its derailment word), runs `railsym run
 * generated/climb` on it; returns the exit status, standard output and
 * error together in out, and the time of the CSV's last row in *t_last. */
static int run_climb_as(const char *name, const char *derailment, const char *extra, char *out, size_t len,
                       double *t_last, int *rows)
{
    char scn[128], csv[128], cmd[512];
    snprintf(scn, sizeof scn, "%s/%s.scn", dir, name);
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, name);
    FILE *f = fopen(scn, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "duration 0.95\nstep 1e-4\noutput 0.01\nfriction 0.3\ncreep fastsim\nderailment %s\n%s"
            "param psi = 0.02\ninitial yaw = 0.02\ninitial y = 0.003\ninitial z = 7e-5\n"
            "initial x_dot = 1\ninitial spin_l_dot = %.17g\ninitial spin_r_dot = %.17g\n"
            "input F_y table\n0 0\n0.25 0\n1.25 100000\nend\ncolumns y z left.Y_Q\n",
            derailment, extra, 1 / 0.46, 1 / 0.46);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run generated/climb --scenario %s --out %s 2>&1", railsym_bin(), scn, csv);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    const int ws = pclose(p);
    ck_assert_msg(WIFEXITED(ws), "%s: killed", cmd);
    /* the CSV: a header, then complete rows; a failed run's under the
     * partial name, and none under the name asked for */
    const int ok = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    char partial[160];
    snprintf(partial, sizeof partial, "%s/%s.partial.csv", dir, name);
    ck_assert_msg(access(ok ? partial : csv, F_OK) != 0, "%s is left", ok ? partial : csv);
    f = fopen(ok ? csv : partial, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,y,z,left.Y_Q\n");
    *rows = 0;
    *t_last = -1;
    while (fgets(line, sizeof line, f)) {
        ck_assert_msg(line[strlen(line) - 1] == '\n', "a row is cut: %s", line);
        *t_last = atof(line);
        (*rows)++;
    }
    fclose(f);
    unlink(scn);
    unlink(ok ? csv : partial);
    return WEXITSTATUS(ws);
}

static int run_climb(const char *derailment, char *out, size_t len, double *t_last, int *rows)
{
    return run_climb_as(derailment, derailment, "", out, len, t_last, rows);
}

/* The time in the event line "t = T s: contact 'left': WHAT", or -1. */
static double event_time(const char *out, const char *what)
{
    char key[128];
    snprintf(key, sizeof key, " s: contact 'left': %s", what);
    const char *p = strstr(out, key);
    if (!p)
        return -1;
    while (p > out && p[-1] != '=')
        p--;
    return atof(p);
}

static int count(const char *out, const char *what)
{
    int n = 0;
    for (const char *p = out; (p = strstr(p, what)); p++)
        n++;
    return n;
}

START_TEST(test_run_stops_at_derailment)
{
    RS_REQUIRE_MODEL("climb");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    static char out[65536];
    double t_last;
    int rows;
    const int st = run_climb("stop", out, sizeof out, &t_last, &rows);
    const double t_climb = event_time(out, "flange climbing: "), t_derail = event_time(out, "derailment, ");
    printf("derailment stop: exit %d, climbing at %g s, derailment at %g s, CSV to %g s (%d rows)\n", st, t_climb,
           t_derail, t_last, rows);
    ck_assert_msg(st == 1, "exit status %d:\n%s", st, out);
    ck_assert_msg(t_climb > 0.25 && t_derail > t_climb && t_derail < 0.95, "events:\n%s", out);
    ck_assert_msg(strstr(out, "the contact passed the flange's steepest point") &&
                      strstr(out, "(stopping: write 'derailment continue' to go on)"),
                  "%s", out);
    ck_assert_msg(strstr(out, "simulation failed (RS_E_DERAILED)") && strstr(out, ": contact 'left': derailment"),
                  "%s", out);
    ck_assert_int_eq(count(out, "derailment, the contact passed"), 1);
    /* the message says where the rows are and the time of the last one */
    char want[200];
    snprintf(want, sizeof want, "'%s/stop.partial.csv' holds the results up to t = ", dir);
    const char *upto = strstr(out, want);
    ck_assert_msg(upto, "no '%s' in:\n%s", want, out);
    const double t_said = atof(upto + strlen(want));
    ck_assert_msg(fabs(t_said - t_last) < 1e-6 * t_last, "message says t = %g s, last row at %g s", t_said, t_last);
    /* the results end before the derailment's step, not at the run's end */
    ck_assert_msg(t_last < t_derail && t_last > t_derail - 0.0101, "CSV to %g s, derailment at %g s", t_last,
                  t_derail);
}
END_TEST

START_TEST(test_run_continues_after_derailment)
{
    RS_REQUIRE_MODEL("climb");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    static char out[65536];
    double t_last;
    int rows;
    const int st = run_climb("continue", out, sizeof out, &t_last, &rows);
    const double t_climb = event_time(out, "flange climbing: "), t_derail = event_time(out, "derailment, ");
    printf("derailment continue: exit %d, climbing at %g s, derailment at %g s, CSV to %g s (%d rows)\n", st,
           t_climb, t_derail, t_last, rows);
    ck_assert_msg(st == 0, "exit status %d:\n%s", st, out);
    ck_assert_msg(t_climb > 0.25 && t_derail > t_climb && t_derail < 0.95, "events:\n%s", out);
    ck_assert_int_eq(count(out, "derailment, the contact passed"), 1);
    ck_assert_int_eq(count(out, "left its rail"), 0);
    ck_assert_msg(!strstr(out, "stopping") && !strstr(out, "failed"), "%s", out);
    ck_assert_msg(t_last > 0.95 - 1e-9 && rows == 96, "CSV to %g s, %d rows", t_last, rows);
}
END_TEST

/* `climb_time T` (docs/runtime.md "Events"): the climb is reported T after
 * Y/Q first reached Nadal's limit ("held since"), the same start for both;
 * within a step (1e-4 s) of it. */
START_TEST(test_climb_time_setting)
{
    RS_REQUIRE_MODEL("climb");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    static char out[65536];
    static const double T[2] = {0.02, 0.1};
    double since[2];
    for (int k = 0; k < 2; k++) {
        char name[32], extra[64];
        double t_last;
        int rows;
        snprintf(name, sizeof name, "ct%d", k);
        snprintf(extra, sizeof extra, "climb_time %g\n", T[k]);
        const int st = run_climb_as(name, "continue", extra, out, sizeof out, &t_last, &rows);
        ck_assert_msg(st == 0, "exit status %d:\n%s", st, out);
        const double t_climb = event_time(out, "flange climbing: ");
        const char *p = strstr(out, "held since t = ");
        ck_assert_msg(t_climb > 0 && p, "no climb:\n%s", out);
        since[k] = atof(p + strlen("held since t = "));
        printf("climb_time %g: climb reported at %.4f s, held since %.4f s\n", T[k], t_climb, since[k]);
        ck_assert_msg(fabs(t_climb - since[k] - T[k]) <= 1.01e-4, "reported %g s after the start, climb_time %g s",
                      t_climb - since[k], T[k]);
    }
    ck_assert_msg(fabs(since[0] - since[1]) < 1e-9, "the exceedance starts at %g and %g s", since[0], since[1]);
}
END_TEST

/* The rig thrown at 6 m/s into its left flange (y_dot = 6, no force):
 * Y/Q first ends a step above Nadal's limit at 2.7 ms and the contact
 * passes the flange's steepest point in that step, far short of
 * climb_time's 0.05 s (the strip law, the default; thrown at 2 m/s the rig
 * bounces back off its flange — the point law's derailment there, 0.8 ms
 * after the limit, was its deepest point jumping past the flank's end:
 * test_train_events test_throw_strips).  The climb is reported there all the same, with the
 * derailment and first: a derailment is a climb completed (rs_climb.h), by
 * design.  Its line used to say "held since t = 0.0017 s", as if Y/Q had
 * held the limit for climb_time; it says now that it had not.  Checked
 * against the run's own left.Y_Q column (each 0.1 ms row): the exceedance
 * starts one step before the first row at or above the limit the line
 * names (each step ending above counts its whole Δt); and every "held
 * since S" line at t has t − S ≥ climb_time (0.05 s, 0.5 ms, 0). */
static int run_thrown(const char *name, const char *extra, char *out, size_t len)
{
    char scn[128], cmd[512];
    snprintf(scn, sizeof scn, "%s/%s.scn", dir, name);
    FILE *f = fopen(scn, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "duration 0.004\nstep 1e-4\noutput 1e-4\nfriction 0.3\ncreep fastsim\nderailment continue\n%s"
               "param psi = 0.02\ninitial yaw = 0.02\ninitial y = 0.003\ninitial z = 7e-5\ninitial x_dot = 1\n"
               "initial y_dot = 6\ninitial spin_l_dot = %.17g\ninitial spin_r_dot = %.17g\n"
               "columns left.Y_Q left.p1.alpha left.p2.alpha\n",
            extra, 1 / 0.46, 1 / 0.46);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run generated/climb --scenario %s --out %s/%s.csv 2>&1", railsym_bin(), scn, dir,
             name);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    const size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    const int ws = pclose(p);
    unlink(scn);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "%s", out);
    return 0;
}

/* The time of the first row of NAME.csv (time, left.Y_Q, the angles of
 * its patches) with Y/Q ≥ limit in flange contact (a patch steeper than
 * 45°: Nadal's limit means nothing on the tread, rs_elastic.c). */
static double first_above(const char *name, double limit)
{
    char csv[160], line[256];
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, name);
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,left.Y_Q,left.p1.alpha,left.p2.alpha\n");
    double t = -1, yq, a1, a2;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%lf,%lf,%lf,%lf", &t, &yq, &a1, &a2) == 4 && yq >= limit && fmax(a1, a2) > M_PI / 4)
            break;
        else
            t = -1;
    fclose(f);
    unlink(csv);
    return t;
}

START_TEST(test_thrown_climb_times)
{
    RS_REQUIRE_MODEL("climb");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    static char out[65536];
    static const struct {
        const char *extra;
        double T;
    } runs[] = {{"", 0.05}, {"climb_time 0.0005\n", 5e-4}, {"climb_time 0\n", 0}};
    const double dt = 1e-4;
    double t_derail = -1;
    for (int k = 0; k < 3; k++) {
        char name[16];
        snprintf(name, sizeof name, "thrown%d", k);
        run_thrown(name, runs[k].extra, out, sizeof out);
        printf("thrown at 6 m/s, climb_time %g s:\n%s", runs[k].T, out);
        const double t_climb = event_time(out, "flange climbing: "), t_der = event_time(out, "derailment, ");
        const char *lim = strstr(out, "flange climbing: Y/Q ");
        ck_assert_msg(t_climb > 0 && t_der > 0 && lim && (lim = strstr(lim, "(Nadal's limit ")), "%s", out);
        const double limit = atof(lim + strlen("(Nadal's limit "));
        const double t_first = first_above(name, limit);
        ck_assert_msg(t_first > 0, "Y/Q never at the limit %g", limit);
        /* the same derailment whatever climb_time: 0.8 ms after the limit */
        if (k == 0)
            t_derail = t_der;
        ck_assert_msg(fabs(t_der - t_derail) < 1e-9 && t_der - t_first < 0.01, "derailment at %g s, %g s; Y/Q at "
                      "the limit from %g s", t_der, t_derail, t_first);
        ck_assert_int_eq(count(out, "flange climbing: "), 1);
        const char *held = strstr(out, "held since t = "), *short_ = strstr(out, "at or above it since t = ");
        if (t_der - (t_first - dt) < runs[k].T) {
            /* derailed before climb_time: the climb comes with the
             * derailment and says the limit was not held that long */
            ck_assert_msg(!held && short_ && strstr(out, "less than climb_time: reported with the derailment") &&
                              fabs(t_climb - t_der) < 1e-9,
                          "%s", out);
            const double since = atof(short_ + strlen("at or above it since t = "));
            ck_assert_msg(fabs(since - (t_first - dt)) < 1e-9 && t_climb - since < runs[k].T, "since %g s, first "
                          "row above %g s", since, t_first);
        } else {
            /* held climb_time: reported at the step that completes it */
            ck_assert_msg(held && !short_ && !strstr(out, "reported with the derailment"), "%s", out);
            const double since = atof(held + strlen("held since t = "));
            ck_assert_msg(fabs(since - (t_first - dt)) < 1e-9, "since %g s, first row above %g s", since, t_first);
            ck_assert_msg(t_climb - since >= runs[k].T - 1e-9 && t_climb - since < fmax(runs[k].T, dt) + 1e-9,
                          "climb at %g s, held since %g s, climb_time %g s", t_climb, since, runs[k].T);
        }
    }
}
END_TEST

/* A wheel with no contact and no longer above its rail is derailed,
 * whatever friction or step led there (docs/runtime.md "Events"): the rig
 * started 100 mm to the left.  The right wheel hangs inside its rail: the
 * field end of its table (S1002: u = 60 mm) at (b0 + 60 mm) cos ψ − b_r − y
 * (b0 = 0.75 m the wheel's taping line, b_r = 0.753035 m the rail's origin,
 * vehicles/examples/climb.vdl) against the crown's 7.4977 mm (60E1 1:40's
 * top_point): 50.69 mm inside at the start (the first step moves it by µm).  The normal climb never says it
 * (test_run_continues_after_derailment). */
START_TEST(test_wheel_off_its_rail)
{
    RS_REQUIRE_MODEL("climb");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char scn[128], csv[128], cmd[512];
    snprintf(scn, sizeof scn, "%s/off.scn", dir);
    snprintf(csv, sizeof csv, "%s/off.csv", dir);
    FILE *f = fopen(scn, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "duration 0.01\nstep 1e-4\noutput 0.01\nfriction 0.3\ncreep fastsim\nderailment continue\n"
               "param psi = 0.02\ninitial yaw = 0.02\ninitial y = 0.1\ninitial z = 7e-5\ninitial x_dot = 1\n"
               "columns y z\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run generated/climb --scenario %s --out %s 2>&1", railsym_bin(), scn, csv);
    static char out[65536];
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    const size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    const int ws = pclose(p);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "%s", out);
    const char *key = "contact 'right': derailment, the wheel left its rail: no contact, ";
    const char *r = strstr(out, key);
    ck_assert_msg(r != NULL, "%s", out);
    const double off = atof(r + strlen(key)), hand = (7.4977e-3 - ((0.75 + 0.06) * cos(0.02) - 0.753035 - 0.1)) * 1e3;
    printf("right wheel off its rail by %.2f mm (hand %.2f mm)\n", off, hand);
    ck_assert_msg(fabs(off - hand) < 0.05, "off %g mm, hand %g mm", off, hand);
    ck_assert_int_eq(count(out, "contact 'right': derailment"), 1);
    unlink(scn);
    unlink(csv);
}
END_TEST

static void setup(void)
{
    strcpy(dir, "/tmp/rs_derail_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) { rmdir(dir); }

static Suite *suite(void)
{
    Suite *s = suite_create("derailment_run");
    TCase *tc = tcase_create("run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_run_stops_at_derailment);
    tcase_add_test(tc, test_run_continues_after_derailment);
    tcase_add_test(tc, test_climb_time_setting);
    tcase_add_test(tc, test_thrown_climb_times);
    tcase_add_test(tc, test_wheel_off_its_rail);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
