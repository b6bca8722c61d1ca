/*
 * test_rt_errors.c — bad numbers and bad descriptors come back as status
 * codes with a message naming the step, the time and the quantity; the
 * state stays at the last good step; results written so far stay valid.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath (rs_test_files.h) */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_assert.h"
#include "rs_error.h"
#include "rs_ws_impl.h" /* rs_ws_check_finite */
#include "rt_fixtures.h"
#include "rs_contact.h"
#include "rs_scenario.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_test_scn.h"

static void assert_has(const char *msg, const char *part)
{
    ck_assert_msg(strstr(msg, part) != NULL, "message '%s' lacks '%s'", msg, part);
}

static rs_ws *pendulum_after_steps(int n)
{
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_IMEX_EULER, 1e-3, 1e-6);
    rs_ws_q(ws)[0] = 1.0;
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(rs_step(ws), RS_OK);
    return ws;
}

START_TEST(test_nan_in_state)
{
    rs_ws *ws = pendulum_after_steps(10);
    rs_ws_q(ws)[0] = NAN;
    ck_assert_int_eq(rs_step(ws), RS_E_NONFINITE);
    const char *m = rs_ws_error(ws);
    assert_has(m, "step 11");
    assert_has(m, "t = 0.01 s");
    assert_has(m, "'theta'");
    assert_has(m, "nan");
    ck_assert(fabs(rs_ws_time(ws) - 0.01) < 1e-15); /* time did not advance */
    ck_assert_int_eq(rs_ws_stats(ws)->steps, 10);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_inf_in_velocity)
{
    rs_ws *ws = pendulum_after_steps(3);
    rs_ws_qd(ws)[0] = INFINITY;
    ck_assert_int_eq(rs_step(ws), RS_E_NONFINITE);
    assert_has(rs_ws_error(ws), "'theta_dot'");
    assert_has(rs_ws_error(ws), "inf");
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_nan_parameter)
{
    rs_ws *ws = pendulum_after_steps(3);
    ck_assert_int_eq(rs_ws_set_param(ws, "g", NAN), RS_OK);
    ck_assert_int_eq(rs_step(ws), RS_E_NONFINITE);
    assert_has(rs_ws_error(ws), "'g'");
    rs_ws_free(&ws);
}
END_TEST

/* A negative mass from a parameter is refused at initialization, naming
 * the coordinate whose diagonal entry of M it makes negative. */
START_TEST(test_negative_mass_parameter)
{
    rs_ws *ws = pendulum_after_steps(3);
    ck_assert_int_eq(rs_ws_set_param(ws, "m", -2.0), RS_OK);
    ck_assert_int_eq(rs_ws_init(ws), RS_E_VALUE);
    assert_has(rs_ws_error(ws), "negative on its diagonal at coordinate 'theta'");
    rs_ws_free(&ws);
}
END_TEST

static int nan_input(void *ctx, double t, double *u, int n)
{
    (void)ctx;
    (void)n;
    u[0] = t > 0.0105 ? NAN : 0.0;
    return 0;
}

/* A run whose model cannot start (the pendulum's bob given a negative mass
 * by a scenario's 'param' line, another set by --set): the message names
 * each 'param' line by file:line with what it sets, so the user knows what
 * to change (before: only "check the parameters that make it"). */
START_TEST(test_param_lines_named_at_init)
{
    RS_REQUIRE_MODEL("pendulum");
    char dir[] = "/tmp/rs_rterr_XXXXXX", scn[64], out[64], e[2000], want[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(scn, sizeof scn, "%s/neg.scn", dir);
    snprintf(out, sizeof out, "%s/neg.csv", dir);
    rs_test_write(dir, "neg.scn", "duration 0.01\nstep 1e-3\n# the bob\nparam m = -1\n");
    ck_assert_int_ne(rs_test_drive("generated/pendulum", scn, "param l = 0.5", out, NULL, 0, e, sizeof e), RS_OK);
    assert_has(e, "its mass is -1 kg");
    snprintf(want, sizeof want, "%s:4 'param m = -1'", scn);
    assert_has(e, want);
    assert_has(e, "--set:1 'param l = 0.5'");
    rs_test_rmtree(dir);
}
END_TEST

/* More `stress` components over the scenario's layers than a run holds
 * (8 in the file, a 9th by --set): the message names the line that did
 * not fit (before: "more 'stress' components over the scenario layers
 * than one run holds", no file, no line, no limit). */
START_TEST(test_stress_overflow_names_line)
{
    char dir[] = "/tmp/rs_rterr_XXXXXX", scn[64], e[2000], want[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(scn, sizeof scn, "%s/st8.scn", dir);
    FILE *f = fopen(scn, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 1; i <= RS_STRESS_MODELS; i++)
        fprintf(f, "stress s%d body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0\n", i);
    fclose(f);
    rs_scenario s;
    rs_scenario_init(&s);
    ck_assert_int_eq(rs_scenario_load(NULL, 0, scn, NULL, &s, e, sizeof e), RS_OK);   /* 8 fit */
    rs_scenario_free(&s);
    rs_scenario_init(&s);
    const char *more = "duration 1\nstress s9 body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0\n";
    ck_assert_int_eq(rs_scenario_load(NULL, 0, scn, more, &s, e, sizeof e), RS_E_UNSUPPORTED);
    snprintf(want, sizeof want, "--set:2: stress s9: more than %d 'stress' components", RS_STRESS_MODELS);
    assert_has(e, want);
    assert_has(e, "remove a 'stress' line");
    rs_scenario_free(&s);
    /* the same name replaces its component: no error */
    rs_scenario_init(&s);
    const char *same = "stress s3 body cart from 0 0 0 to 0.4 0 0 section circle 0.02 elements 10 fix 0\n";
    ck_assert_int_eq(rs_scenario_load(NULL, 0, scn, same, &s, e, sizeof e), RS_OK);
    ck_assert_int_eq(s.stress, RS_STRESS_MODELS);
    rs_scenario_free(&s);
    rs_test_rmtree(dir);
}
END_TEST

START_TEST(test_singular_initial)
{
    /* Bob at the pivot: φ_q = 0, the multiplier's column is empty. */
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.project_initial = 0;
    rs_ws *ws = NULL;
    char err[200];
    ck_assert_int_eq(rs_ws_create(rt_cartpend_model(), &o, &ws, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_ws_init(ws), RS_E_SINGULAR);
    assert_has(rs_ws_error(ws), "initialization");
    assert_has(rs_ws_error(ws), "singular");
    assert_has(rs_ws_error(ws), "'rod'");
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_singular_during_run)
{
    /* Mass set to zero between steps: M = 0, the IMEX matrix is singular. */
    rs_ws *ws = rt_ws_new(rt_fourbar_model(), RS_IMEX_EULER, 1e-3, 1e-6);
    rt_fourbar_assemble(rs_ws_p(ws), 0.6, rs_ws_q(ws));
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(rs_step(ws), RS_OK);
    double q[3];
    memcpy(q, rs_ws_q(ws), sizeof q);
    for (int i = 4; i < 7; i++)
        ck_assert_int_eq(rs_ws_set_param_index(ws, i, 0.0), RS_OK);
    ck_assert_int_eq(rs_step(ws), RS_E_SINGULAR);
    assert_has(rs_ws_error(ws), "step 6");
    assert_has(rs_ws_error(ws), "IMEX system matrix is singular");
    ck_assert(memcmp(q, rs_ws_q(ws), sizeof q) == 0); /* state kept */
    /* recoverable: restore masses and go on */
    ck_assert_int_eq(rs_ws_set_param(ws, "m1", 1.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_param(ws, "m2", 2.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_param(ws, "m3", 1.5), RS_OK);
    ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    rs_ws_free(&ws);
}
END_TEST

static rs_ws *cartpend_maxiter(int maxiter)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.proj_maxiter = maxiter;
    rs_ws *ws = NULL;
    char err[200];
    ck_assert_int_eq(rs_ws_create(rt_cartpend_model(), &o, &ws, err, sizeof err), RS_OK);
    rs_ws_q(ws)[0] = 0.6;
    rs_ws_q(ws)[1] = -0.8;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    ck_assert_int_eq(rs_step(ws), RS_OK);
    return ws;
}

START_TEST(test_projection_maxiter0)
{
    rs_ws *ws = cartpend_maxiter(0);
    rs_ws_q(ws)[0] *= 1.5;
    ck_assert_int_eq(rs_step(ws), RS_E_NOCONV);
    assert_has(rs_ws_error(ws), "step 2");
    assert_has(rs_ws_error(ws), "position projection");
    assert_has(rs_ws_error(ws), "'rod'");
    assert_has(rs_ws_error(ws), "0 iteration");
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_projection_maxiter1_big_perturbation)
{
    rs_ws *ws = cartpend_maxiter(1);
    rs_ws_q(ws)[0] = 30.0;
    rs_ws_q(ws)[1] = -40.0;
    ck_assert_int_eq(rs_step(ws), RS_E_NOCONV);
    assert_has(rs_ws_error(ws), "after 1 iteration");
    /* the state is the one before the failed step */
    ck_assert(rs_ws_q(ws)[0] == 30.0 && rs_ws_q(ws)[1] == -40.0);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_csv_valid_after_failure)
{
    /* An input turns NaN at t ≈ 10.5 ms: rs_run stops with the status,
     * the CSV holds a header and complete rows up to the last good step. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/rt_errors_test_%ld.csv", (long)getpid());
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.input = nan_input;
    rs_ws *ws = NULL;
    char err[200];
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_OK);
    rt_fourbar_assemble(rs_ws_p(ws), 0.6, rs_ws_q(ws));
    rs_results *csv = NULL;
    ck_assert_int_eq(rs_results_open_ws(&csv, path, ws, 0, NULL, 0, err, sizeof err), RS_OK);
    int st = rs_run(ws, 1.0, 0.002, rs_results_output, csv);
    ck_assert_int_eq(st, RS_E_NONFINITE);
    assert_has(rs_ws_error(ws), "'tau'");
    /* the run failed: the rows go to the partial name, none to path */
    char where[64], partial[64];
    ck_assert_int_eq(rs_results_close(&csv, 0, where, sizeof where, err, sizeof err), RS_OK);
    snprintf(partial, sizeof partial, "/tmp/rt_errors_test_%ld.partial.csv", (long)getpid());
    ck_assert_str_eq(where, partial);
    ck_assert_int_ne(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s", partial);

    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,th1,th2,th3,th1_dot,th2_dot,th3_dot,lambda_loop_x,"
                           "lambda_loop_y,Bx,By\n");
    int rows = 0;
    double last_t = -1;
    while (fgets(line, sizeof line, f)) {
        int fields = 1;
        for (char *c = line; *c; c++)
            fields += *c == ',';
        ck_assert_int_eq(fields, 11);
        ck_assert(line[strlen(line) - 1] == '\n');
        char *end;
        double t = strtod(line, &end);
        ck_assert(end != line && t > last_t);
        last_t = t;
        rows++;
    }
    fclose(f);
    remove(path);
    ck_assert_int_eq(rows, 6); /* t = 0, 2, 4, 6, 8, 10 ms */
    ck_assert(fabs(last_t - 0.010) < 1e-12);
    rs_ws_free(&ws);
}
END_TEST

/* An inertia function of one body (mass 1, unit sphere) for the descriptor checks. */
static int one_inertia(const double *const *in, double *const *out)
{
    (void)in;
    out[0][0] = 1;
    for (int k = 0; k < 6; k++)
        out[1][k] = k < 3;
    return RS_ABI_OK;
}

START_TEST(test_bad_descriptors)
{
    char err[256];
    rs_ws *ws = (rs_ws *)1;
    rs_model m = *rt_fourbar_model();
    m.magic = 0;
    ck_assert_int_eq(rs_ws_create(&m, NULL, &ws, err, sizeof err), RS_E_MODEL);
    ck_assert_ptr_null(ws);
    assert_has(err, "magic");

    m = *rt_fourbar_model();
    m.version = RS_MODEL_VERSION + 1;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "regenerate");

    static const int bad_rows[] = {1, 0, 0, 1, 2}; /* column 0 not increasing */
    m = *rt_fourbar_model();
    m.M_pattern.rowind = bad_rows;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "M_pattern");

    /* the initial state and units the descriptor carries */
    static const double bad_q0[3] = {0.0, NAN, 0.0};
    m = *rt_fourbar_model();
    m.q0 = bad_q0;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "q0");
    static const char *const bad_units[3] = {"rad", NULL, "rad"};
    m = *rt_fourbar_model();
    m.q_units = bad_units;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "q_units[1]");

    /* inertia_unchecked (version 14) holds 0 or 1 per inertia body */
    static const int in_len[2] = {1, 6};
    static const char *const in_outs[2] = {"mass", "inertia"};
    static const char *const in_bodies[1] = {"crank"};
    static const int flag_ok[1] = {1}, flag_bad[1] = {2};
    m = *rt_fourbar_model();
    m.fn[RS_FN_INERTIA] = (rs_func){one_inertia, 2, in_len, in_outs};
    m.inertia_bodies = in_bodies;
    m.inertia_unchecked = flag_ok;
    ck_assert_msg(rs_model_validate(&m, err, sizeof err) == RS_OK, "%s", err);
    m.inertia_unchecked = flag_bad;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "inertia_unchecked[0] is 2");

    m = *rt_fourbar_model();
    m.fn[RS_FN_GAMMA].fn = NULL;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "gamma");

    static const int wrong_len[] = {4};
    m = *rt_fourbar_model();
    m.fn[RS_FN_M].out_len = wrong_len;
    ck_assert_int_eq(rs_model_validate(&m, err, sizeof err), RS_E_MODEL);
    assert_has(err, "function M");

    m = *rt_fourbar_model();
    m.n_s = 1;
    static const char *const s_names[] = {"theta_w"};
    m.s_names = s_names;
    ck_assert_int_eq(rs_ws_create(&m, NULL, &ws, err, sizeof err), RS_E_UNSUPPORTED);

    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.dt = 0;
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_E_ARG);
    ck_assert_int_eq(rs_ws_create(NULL, NULL, &ws, err, sizeof err), RS_E_MODEL);
    ck_assert_int_eq(rs_step(NULL), RS_E_ARG);
}
END_TEST

/* RS_ASSERT returns RS_E_INTERNAL from the function whose invariant broke
 * (release builds: no exit, no print), and evaluates to nothing otherwise. */
static int halve_even(int n, int *half)
{
    RS_ASSERT(n % 2 == 0);
    *half = n / 2;
    return RS_OK;
}

START_TEST(test_assert_returns_internal)
{
    int h = -1;
    ck_assert_int_eq(halve_even(6, &h), RS_OK);
    ck_assert_int_eq(h, 3);
    ck_assert_int_eq(halve_even(7, &h), RS_E_INTERNAL);
    ck_assert_int_eq(h, 3);   /* nothing after the failed RS_ASSERT ran */
    ck_assert_str_eq(rs_status_name(RS_E_INTERNAL), "RS_E_INTERNAL");
}
END_TEST

/* rs_fail and rs_fail_at: the one message writer.  The status comes back,
 * the text is formatted, cut to the buffer and terminated, and no buffer
 * (NULL or 0) writes nothing. */
START_TEST(test_fail_writer)
{
    char buf[32];
    ck_assert_int_eq(rs_fail(buf, sizeof buf, RS_E_VALUE, "k = %g N/m", 2.5), RS_E_VALUE);
    ck_assert_str_eq(buf, "k = 2.5 N/m");
    ck_assert_int_eq(rs_fail_at(buf, sizeof buf, RS_E_SYNTAX, "a.scn", 7, "bad '%s'", "x"), RS_E_SYNTAX);
    ck_assert_str_eq(buf, "a.scn:7: bad 'x'");
    ck_assert_int_eq(rs_fail_at(buf, sizeof buf, RS_E_IO, "a.trk", 0, "empty"), RS_E_IO);
    ck_assert_str_eq(buf, "a.trk: empty");
    ck_assert_int_eq(rs_fail_at(buf, sizeof buf, RS_E_IO, NULL, 3, "plain"), RS_E_IO);
    ck_assert_str_eq(buf, "plain");
    char small[8];
    memset(small, 'x', sizeof small);
    rs_fail_at(small, sizeof small, RS_E_IO, "long_file_name.trk", 12, "m");
    ck_assert_int_eq(small[sizeof small - 1], 0);
    ck_assert_int_eq((int)strlen(small), (int)sizeof small - 1);
    memset(small, 'x', sizeof small);
    ck_assert_int_eq(rs_fail(small, 0, RS_E_ARG, "nothing"), RS_E_ARG);
    ck_assert_int_eq(small[0], 'x');
    ck_assert_int_eq(rs_fail(NULL, 10, RS_E_ARG, "nothing"), RS_E_ARG);
}
END_TEST

START_TEST(test_status_strings)
{
    static const int codes[] = {
#define RS_STATUS_CODE(name, value, text) value,
        RS_STATUS_LIST(RS_STATUS_CODE)
#undef RS_STATUS_CODE
    };
    const int n = (int)(sizeof codes / sizeof codes[0]);
    /* one list: every value and every text distinct, no empty text, and the
     * sign tells an error (RS_E_*) from a success (0 or a positive remark) */
    for (int i = 0; i < n; i++) {
        ck_assert_str_ne(rs_status_str(codes[i]), "unknown status");
        ck_assert_int_gt((int)strlen(rs_status_str(codes[i])), 0);
        ck_assert_int_eq(strncmp(rs_status_name(codes[i]), "RS_E_", 5) == 0, codes[i] < 0);
        for (int j = 0; j < i; j++) {
            ck_assert_int_ne(codes[i], codes[j]);
            ck_assert_str_ne(rs_status_str(codes[i]), rs_status_str(codes[j]));
        }
    }
    ck_assert_str_eq(rs_status_str(12345), "unknown status");
    ck_assert_str_eq(rs_status_name(RS_E_SINGULAR), "RS_E_SINGULAR");
}
END_TEST

START_TEST(test_names)
{
    const rs_model *m = rt_fourbar_model();
    rs_var v;
    ck_assert_int_eq(rs_model_find(m, "th2", &v), RS_OK);
    ck_assert(v.kind == RS_VAR_Q && v.index == 1);
    ck_assert_int_eq(rs_model_find(m, "th3_dot", &v), RS_OK);
    ck_assert(v.kind == RS_VAR_QD && v.index == 2);
    ck_assert_int_eq(rs_model_find(m, "lambda_loop_y", &v), RS_OK);
    ck_assert(v.kind == RS_VAR_LAMBDA && v.index == 1);
    ck_assert_int_eq(rs_model_find(m, "By", &v), RS_OK);
    ck_assert(v.kind == RS_VAR_OUTPUT && v.index == 1);
    ck_assert_int_eq(rs_model_find(m, "tau", &v), RS_OK);
    ck_assert(v.kind == RS_VAR_U);
    ck_assert_int_eq(rs_model_find(m, "time", &v), RS_OK);
    ck_assert_int_eq(rs_model_find(m, "th4", &v), RS_E_NOTFOUND);
    ck_assert_int_eq(rs_model_find(m, "_dot", &v), RS_E_NOTFOUND);
    /* energy terms where the model has the function (this fixture: energy, no power) */
    ck_assert_int_eq(rs_model_find(m, "energy.potential", &v), RS_OK);
    ck_assert(v.kind == RS_VAR_ENERGY && v.index == RS_ENERGY_VAR_POTENTIAL);
    ck_assert_int_eq(rs_model_find(m, "power.inputs", &v), RS_E_NOTFOUND);
    ck_assert_int_eq(rs_model_find(m, "", &v), RS_E_NOTFOUND);
}
END_TEST

/* The finiteness check (summed x − x, then a scan for the message) finds
 * +inf, −inf and NaN at every position of short and long arrays, names the
 * index, and passes the largest finite values (whose sum would overflow). */
START_TEST(test_check_finite_every_position)
{
    rs_ws *ws = pendulum_after_steps(0);
    double v[11];
    const double bad[3] = {INFINITY, -INFINITY, NAN};
    char want[32];
    for (int n = 1; n <= 11; n++) {
        for (int i = 0; i < n; i++)
            v[i] = i % 2 ? DBL_MAX : -DBL_MAX;
        ck_assert_int_eq(rs_ws_check_finite(ws, v, n, "v", NULL), RS_OK);
        for (int p = 0; p < n; p++)
            for (int b = 0; b < 3; b++) {
                const double keep = v[p];
                v[p] = bad[b];
                ck_assert_int_eq(rs_ws_check_finite(ws, v, n, "v", NULL), RS_E_NONFINITE);
                snprintf(want, sizeof want, "v[%d] is", p);
                assert_has(rs_ws_error(ws), want);
                v[p] = keep;
            }
    }
    rs_ws_free(&ws);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_errors");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_nan_in_state);
    tcase_add_test(tc, test_inf_in_velocity);
    tcase_add_test(tc, test_nan_parameter);
    tcase_add_test(tc, test_negative_mass_parameter);
    tcase_add_test(tc, test_param_lines_named_at_init);
    tcase_add_test(tc, test_stress_overflow_names_line);
    tcase_add_test(tc, test_singular_initial);
    tcase_add_test(tc, test_singular_during_run);
    tcase_add_test(tc, test_projection_maxiter0);
    tcase_add_test(tc, test_projection_maxiter1_big_perturbation);
    tcase_add_test(tc, test_csv_valid_after_failure);
    tcase_add_test(tc, test_bad_descriptors);
    tcase_add_test(tc, test_status_strings);
    tcase_add_test(tc, test_fail_writer);
    tcase_add_test(tc, test_assert_returns_internal);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_check_finite_every_position);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
