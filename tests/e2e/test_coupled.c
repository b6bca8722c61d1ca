/*
 * test_coupled.c — a damper's thermal model coupled to a run (`thermal` in
 * the scenario, docs/coupled.md; issue 25) through `railsym run`:
 *
 *   - with a temperature-independent coefficient (beta 0) the trajectory is
 *     identical, byte for byte, with and without the thermal model;
 *   - with feedback the damper heats, and its coefficient (f_d / v_d, the
 *     damper's force over its velocity, row by row) follows
 *     c_ref exp(−β (T − t_ref)) of the temperature column, written here;
 *   - `mpirun -np 1|2|3 --oversubscribe railsym run … --mpi` gives the
 *     in-process results bit for bit;
 *   - a misspelt output is refused with file:line and the closest name.
 *
 * The model is a mass on a spring and a linear damper, its base shaken.
 * mpirun is a build dependency (debian/control); without it the MPI part
 * says so and is skipped (the in-process parts still run).
 */
#define _GNU_SOURCE

#include <check.h>
#include <math.h>

#include "rs_test.h"
#include "rs_test_mpi.h"
#include "test_sweep_util.h"

static const char *kVdl =
    "# a mass on a spring and a linear damper, its base shaken\n"
    "param m = 20, k = 2e4, c_d = 400\n"
    "param a0 = 0.02, f0 = 4\n"
    "param T_d = 20\n"
    "coord z\n"
    "point B = O + [0, 0, a0*sin(2*pi*f0*t)] in ground\n"
    "point P = O + [0, 0, 1 + z] in ground\n"
    "body mass mass m cg P inertia diag(1, 1, 1) in ground\n"
    "spring s between B and P k k length 1\n"
    "damper d between B and P c c_d\n"
    "output v_d = z_d - dt(a0*sin(2*pi*f0*t))\n"
    "output p_d = c_d*v_d^2\n"
    "output f_d = c_d*v_d\n";

static const char *kBase = "duration 1\nstep 1e-3\noutput 0.01\nmethod rk4\ncolumns z z_dot v_d f_d c_d\n";

/* A small hot tube: a few J/K, so that one second of damping heats it. */
#define THERMAL_SMALL "grid 6 6 9 length 0.05 radius 0.01 bore 0.006 heat_capacity 46 convection 20"

static char g_dir[512], g_model[600];

static int run(const char *const *extra, const char *log)
{
    char *argv[32];
    int n = 0;
    for (const char *const *a = extra; *a; a++)
        argv[n++] = (char *)*a;
    argv[n] = NULL;
    return sweep_run(argv, log);
}

static void setup_model(void)
{
    sweep_scratch(g_dir, sizeof g_dir, "coupled");
    char vdl[700];
    snprintf(vdl, sizeof vdl, "%s/damper.vdl", g_dir);
    snprintf(g_model, sizeof g_model, "%s/damper", g_dir);
    sweep_write(vdl, kVdl);
    const char *argv[] = {sweep_railsym_bin(), "compile", vdl, "-o", g_model, NULL};
    ck_assert_int_eq(run(argv, NULL), 0);
}

/* Writes scenario NAME (kBase + extra) and runs it to OUT; 0 when ok. */
static int run_scn(const char *name, const char *extra, const char *out, const char *log)
{
    char scn[700], text[1024];
    snprintf(scn, sizeof scn, "%s/%s.scn", g_dir, name);
    snprintf(text, sizeof text, "%s%s\n", kBase, extra);
    sweep_write(scn, text);
    const char *argv[] = {sweep_railsym_bin(), "run", g_model, "-s", scn, "-o", out, "-q", NULL};
    return run(argv, log);
}

START_TEST(beta_zero_changes_nothing)
{
    setup_model();
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/plain.csv", g_dir);
    snprintf(b, sizeof b, "%s/thermal.csv", g_dir);
    ck_assert_int_eq(run_scn("plain", "", a, NULL), 0);
    ck_assert_int_eq(run_scn("thermal", "thermal c_d power p_d beta 0 " THERMAL_SMALL, b, NULL), 0);
    ck_assert_msg(sweep_same_file(a, b), "%s and %s differ", a, b);
    sweep_rm_rf(g_dir);
}
END_TEST

START_TEST(feedback_follows_the_law)
{
    setup_model();
    char out[700];
    snprintf(out, sizeof out, "%s/hot.csv", g_dir);
    ck_assert_int_eq(run_scn("hot", "thermal c_d power p_d temperature T_d beta 0.01 " THERMAL_SMALL
                                    "\ncolumns T_d", out, NULL), 0);
    FILE *f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,z,z_dot,v_d,f_d,c_d,T_d\n");
    double t, z, zd, v, fd, c, T, T_first = NAN, c_first = NAN;
    int rows = 0, checked = 0;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf,%lf\n", &t, &z, &zd, &v, &fd, &c, &T) == 7) {
        if (rows++ == 0)
            T_first = T, c_first = c;
        /* the coefficient the damper acts with, from its force and velocity */
        if (fabs(v) > 1e-3) {
            ck_assert_msg(fabs(fd / v - 400 * exp(-0.01 * (T - 20))) < 1e-9 * 400, "t = %g: f/v %g, T %g", t, fd / v,
                          T);
            checked++;
        }
    }
    fclose(f);
    ck_assert_int_eq(rows, 101);
    ck_assert_int_gt(checked, 80);
    ck_assert_double_eq(T_first, 20);
    ck_assert_double_eq(c_first, 400);
    /* it heated up, so the coefficient fell */
    ck_assert_msg(T > 30, "final temperature %g C", T);
    ck_assert(c < 400 * exp(-0.01 * 10));
    sweep_rm_rf(g_dir);
}
END_TEST

START_TEST(misspelt_output)
{
    setup_model();
    char out[700], log[700];
    snprintf(out, sizeof out, "%s/bad.csv", g_dir);
    snprintf(log, sizeof log, "%s/bad.log", g_dir);
    ck_assert_int_ne(run_scn("bad", "thermal c_d power p_dd beta 0", out, log), 0);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(text, "bad.scn:6: thermal: unknown output 'p_dd' (did you mean 'p_d'?)"), "%s", text);
    free(text);
    ck_assert_int_ne(access(out, F_OK), 0);   /* no results file */
    sweep_rm_rf(g_dir);
}
END_TEST

START_TEST(mpi_ranks_identical)
{
    if (!rs_test_mpi_available("test_coupled"))
        return;
    setup_model();
    char scn[700], ref[700];
    snprintf(scn, sizeof scn, "%s/hot.scn", g_dir);
    snprintf(ref, sizeof ref, "%s/ref.csv", g_dir);
    ck_assert_int_eq(run_scn("hot", "thermal c_d power p_d temperature T_d beta 0.01 " THERMAL_SMALL
                                    "\ncolumns T_d", ref, NULL), 0);
    rs_test_mpi_run_equals(g_dir, g_model, scn, ref, 3, "thermal c_d: 180 cells");
    sweep_rm_rf(g_dir);
}
END_TEST

int main(void)
{
    rs_test_mpi_allow_root();
    Suite *s = suite_create("coupled");
    TCase *tc = tcase_create("thermal");
    tcase_set_timeout(tc, 180);
    tcase_add_test(tc, beta_zero_changes_nothing);
    tcase_add_test(tc, feedback_follows_the_law);
    tcase_add_test(tc, misspelt_output);
    tcase_add_test(tc, mpi_ranks_identical);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
