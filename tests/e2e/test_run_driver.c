/*
 * test_run_driver.c — the run driver (runtime/app/rs_driver.h), the C side of
 * `railsym run`: a scenario applied to a model, the CSV it writes (header,
 * rows at the output interval, values consistent with the model), loading
 * a model folder with libtcc, progress lines, and failures: a bad name in
 * the scenario (file:line), an unwritable output, a run that breaks midway
 * (the message names step, time and quantity; the CSV stays valid).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_driver.h"
#include "rs_load_cache.h"
#include "rt_fixtures.h"
#include "rs_test.h"

static char dir[64], csv[128], partial[160], scn_path[128];
static char err[2048];

static void setup(void)
{
    strcpy(dir, "/tmp/rs_drv_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/out.csv", dir);
    snprintf(partial, sizeof partial, "%s/out.partial.csv", dir);
    snprintf(scn_path, sizeof scn_path, "%s/run.scn", dir);
}

static void teardown(void)
{
    unlink(csv);
    unlink(partial);
    unlink(scn_path);
    rmdir(dir);
}

static void parse(const char *text, rs_scenario *s)
{
    ck_assert_msg(rs_scenario_parse(text, strlen(text), "run.scn", s, err, sizeof err) == RS_OK, "%s", err);
}

/* Reads the CSV: returns the number of data rows; header in hdr. Every row
 * must have the header's number of fields and parse as numbers. */
static int read_csv_at(const char *path, char *hdr, size_t len, double rows[][8], int max_rows)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(hdr, (int)len, f));
    int ncol = 1;
    for (const char *p = hdr; *p; p++)
        ncol += *p == ',';
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        ck_assert_msg(line[strlen(line) - 1] == '\n', "a row is cut: %s", line);
        int k = 0;
        char *tok = strtok(line, ",\n");
        while (tok) {
            char *end;
            double v = strtod(tok, &end);
            ck_assert_msg(*end == '\0', "not a number: %s", tok);
            if (n < max_rows && k < 8)
                rows[n][k] = v;
            k++;
            tok = strtok(NULL, ",\n");
        }
        ck_assert_int_eq(k, ncol);
        n++;
    }
    fclose(f);
    return n;
}

static int read_csv(char *hdr, size_t len, double rows[][8], int max_rows)
{
    return read_csv_at(csv, hdr, len, rows, max_rows);
}

START_TEST(test_simulate_writes_csv)
{
    rs_scenario s;
    parse("duration 0.1\nstep 1e-3\noutput 0.01\nmethod rk4\n"
          "param L = 2\ninitial theta = 1\ncolumns theta x\n", &s);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    rs_run_report rep;
    ck_assert_msg(rs_driver_simulate(rt_pendulum_model(), &s, &c, &rep, err, sizeof err) == RS_OK, "%s", err);
    rs_scenario_free(&s);
    ck_assert_int_eq(rep.steps, 100);
    ck_assert_int_eq(rep.rows, 11);
    ck_assert_double_eq_tol(rep.t_end, 0.1, 1e-12);
    char hdr[256];
    static double rows[64][8];
    ck_assert_int_eq(read_csv(hdr, sizeof hdr, rows, 64), 11);
    ck_assert_str_eq(hdr, "time,theta,x\n");
    ck_assert_double_eq(rows[0][1], 1.0);
    for (int i = 0; i < 11; i++) {
        ck_assert_double_eq_tol(rows[i][0], 0.01 * i, 1e-12);
        ck_assert_double_eq_tol(rows[i][2], 2 * sin(rows[i][1]), 1e-14); /* x = L sin θ with L = 2 */
    }
    /* released from rest, the angle decreases */
    ck_assert(rows[10][1] < 1.0);
}
END_TEST

START_TEST(test_default_columns_and_scenario)
{
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    rs_run_report rep;
    /* no scenario: built-in 1 s at 1 ms, output every 10 ms */
    ck_assert_msg(rs_driver_simulate(rt_pendulum_model(), NULL, &c, &rep, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rep.steps, 1000);
    ck_assert_int_eq(rep.rows, 101);
    char hdr[256];
    static double rows[128][8];
    ck_assert_int_eq(read_csv(hdr, sizeof hdr, rows, 128), 101);
    ck_assert_str_eq(hdr, "time,theta,theta_dot,x,y\n");
}
END_TEST

/* The whole path of `railsym run DIR`: a folder compiled by libtcc. */
START_TEST(test_run_folder_with_tcc)
{
    FILE *f = fopen(scn_path, "w");
    fputs("duration 0.05\nstep 1e-3\noutput 0\ninitial theta = 0.5\n", f);
    fclose(f);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = RT_MODELS_DIR "/rt_pendulum";
    c.scenario = scn_path;
    c.out = csv;
    rs_run_report rep;
    ck_assert_msg(rs_driver_run(&c, &rep, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rep.rows, 51); /* output 0: every step */
    char hdr[256];
    static double rows[64][8];
    ck_assert_int_eq(read_csv(hdr, sizeof hdr, rows, 64), 51);
    ck_assert_str_eq(hdr, "time,theta,theta_dot,x,y\n");
    ck_assert_double_eq(rows[0][1], 0.5);
}
END_TEST

START_TEST(test_bad_names_fail_before_running)
{
    FILE *f = fopen(scn_path, "w");
    fputs("duration 0.05\nparam Lenght = 2\n", f);
    fclose(f);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = RT_MODELS_DIR "/rt_pendulum";
    c.scenario = scn_path;
    c.out = csv;
    ck_assert_int_eq(rs_driver_run(&c, NULL, err, sizeof err), RS_E_NOTFOUND);
    char want[256];
    snprintf(want, sizeof want, "%s:2: unknown parameter 'Lenght'; model 'rt_pendulum' has: m, L, g", scn_path);
    ck_assert_str_eq(err, want);
    ck_assert_int_ne(access(csv, F_OK), 0); /* nothing written */

    c.scenario = "tests/no-such.scn";
    ck_assert_int_eq(rs_driver_run(&c, NULL, err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "cannot read scenario 'tests/no-such.scn': No such file or directory");

    c.scenario = NULL;
    c.model_dir = "tests/no-such-model";
    ck_assert_int_eq(rs_driver_run(&c, NULL, err, sizeof err), RS_E_LOAD);
    ck_assert_msg(strstr(err, "cannot load model folder 'tests/no-such-model'") == err, "%s", err);
}
END_TEST

START_TEST(test_unwritable_output)
{
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = "/nonexistent-folder/out.csv";
    ck_assert_int_eq(rs_driver_simulate(rt_pendulum_model(), NULL, &c, NULL, err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "cannot write '/nonexistent-folder/out.csv': No such file or directory");
    c.out = "tests";   /* a folder */
    ck_assert_int_eq(rs_driver_simulate(rt_pendulum_model(), NULL, &c, NULL, err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "cannot write 'tests': it is a directory");
}
END_TEST

/* A run that breaks midway: the input grows to overflow the state.  The
 * message names the step and time; the rows up to it are in out.partial.csv
 * (whole rows, the last one at the time the message says), and no out.csv
 * is left, not even an earlier run's. */
START_TEST(test_failure_midway_keeps_csv)
{
    rs_scenario s;
    parse("duration 1\nstep 1e-3\noutput 1e-3\ninitial th1 = 0.9\n"
          "input tau table\n0 0\n0.02 0\n0.021 1e308\nend\n", &s);
    double q[3];
    const rs_model *m = rt_fourbar_model();
    ck_assert_int_eq(rt_fourbar_assemble(m->p_default, 0.9, q), 0);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    /* start on the constraint manifold */
    char text[256];
    snprintf(text, sizeof text, "initial th2 = %.17g\ninitial th3 = %.17g\n", q[1], q[2]);
    rs_scenario s2;
    parse(text, &s2);
    ck_assert_int_eq(rs_scenario_overlay(&s, &s2), RS_OK);
    rs_scenario_free(&s2);
    FILE *stale = fopen(csv, "w");   /* an earlier run's result */
    ck_assert_ptr_nonnull(stale);
    fputs("time,x\n0,1\n", stale);
    fclose(stale);
    rs_run_report rep;
    int st = rs_driver_simulate(m, &s, &c, &rep, err, sizeof err);
    rs_scenario_free(&s);
    ck_assert_int_lt(st, 0);
    ck_assert_int_ne(access(csv, F_OK), 0);
    ck_assert_msg(strstr(err, "model 'rt_fourbar': simulation failed (RS_E_") == err, "%s", err);
    /* the huge input first acts in step 22, which starts at t = 0.021 s */
    ck_assert_msg(strstr(err, "): step 22, t = 0.021 s: "), "%s", err);
    char want[256];
    snprintf(want, sizeof want, "; '%s' holds the results up to t = 0.021 s", partial);
    ck_assert_msg(strstr(err, want), "%s", err);
    char hdr[256];
    static double rows[64][8];
    int n = read_csv_at(partial, hdr, sizeof hdr, rows, 64);
    ck_assert_int_eq(n, rep.rows);
    ck_assert_int_ge(n, 20);
    ck_assert_double_eq_tol(rows[n - 1][0], rep.t_end, 1e-12);
}
END_TEST

START_TEST(test_progress_lines)
{
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    c.progress = 1;
    c.progress_every = 0; /* every step, to see it in a short run */
    c.log = rt_log_to(log);
    ck_assert_int_eq(rs_driver_simulate(rt_pendulum_model(), NULL, &c, NULL, err, sizeof err), RS_OK);
    rewind(log);
    char line[256];
    int n = 0, last = 0;
    while (fgets(line, sizeof line, log)) {
        if (strstr(line, "railsym run: t = ") == line) {
            ck_assert_msg(strstr(line, "real time, ETA"), "%s", line);
            n++;
        }
        last = strstr(line, "railsym run: 1000 steps to t = 1 s in") == line;
    }
    ck_assert_int_ge(n, 100);
    ck_assert(last);
    fclose(log);
}
END_TEST

/* The library never prints: with no log sink, a run that would show
 * progress lines every step writes nothing on stderr or stdout (the lines
 * and their "railsym run:" prefix are the command's, cli::LogSink). */
START_TEST(test_no_sink_no_output)
{
    FILE *cap = tmpfile();
    ck_assert_ptr_nonnull(cap);
    fflush(stdout);
    fflush(stderr);
    const int save_err = dup(2), save_out = dup(1);
    ck_assert(save_err >= 0 && save_out >= 0);
    ck_assert(dup2(fileno(cap), 2) >= 0 && dup2(fileno(cap), 1) >= 0);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    c.progress = 1;
    c.progress_every = 0;
    const int st = rs_driver_simulate(rt_pendulum_model(), NULL, &c, NULL, err, sizeof err);
    fflush(stdout);
    fflush(stderr);
    dup2(save_err, 2);
    dup2(save_out, 1);
    close(save_err);
    close(save_out);
    ck_assert_int_eq(st, RS_OK);
    ck_assert_int_eq(fseek(cap, 0, SEEK_END), 0);
    ck_assert_int_eq(ftell(cap), 0);
    fclose(cap);
}
END_TEST

START_TEST(test_model_name)
{
    char b[64];
    ck_assert_str_eq(rs_driver_model_name("generated/four_bar/", b, sizeof b), "four_bar");
    ck_assert_str_eq(rs_driver_model_name("x/my-model", b, sizeof b), "my_model");
    ck_assert_str_eq(rs_driver_model_name("2stage", b, sizeof b), "rs_2stage");
    /* a compiled folder copied under another name: its model.json names
     * the descriptor, and a run of the copy works */
    char copy[128], cmd[512];
    snprintf(copy, sizeof copy, "%s/my copy", dir);
    snprintf(cmd, sizeof cmd, "cp -r generated/pendulum '%s'", copy);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_str_eq(rs_driver_model_name(copy, b, sizeof b), "pendulum");
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = copy;
    c.out = csv;
    c.progress = 0;
    rs_run_report rep;
    FILE *f = fopen(scn_path, "w");
    fputs("duration 0.01\nstep 1e-3\n", f);
    fclose(f);
    c.scenario = scn_path;
    ck_assert_msg(rs_driver_run(&c, &rep, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rep.steps, 10);
    /* the loaders themselves, and the cache trains and sweeps load through
     * (a train's `vehicle w model ./wagon` of a folder compiled from
     * two_axle_wagon.vdl used to look for 'wagon_model') */
    rs_loaded *h = rs_load(copy, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    ck_assert_int_eq(rs_loaded_model(h)->n_q, 1);
    rs_unload(&h);
    rs_load_cache *lc = rs_load_cache_create(RS_LOAD_TCC, NULL);
    ck_assert_ptr_nonnull(lc);
    ck_assert_msg(rs_load_cache_get(lc, copy, err, sizeof err) != NULL, "%s", err);
    rs_load_cache_free(&lc);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", copy);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A contact model run from another working directory: its table's files
 * (relative to the folder `railsym compile` ran in, the repository here)
 * are found from the model folder upwards. */
START_TEST(test_contact_files_from_elsewhere)
{
    char root[2048], model[2200], include[2200];
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    snprintf(model, sizeof model, "%s/generated/wheelset_cone", root);
    snprintf(include, sizeof include, "%s/abi", root);   /* as the command passes it */
    FILE *f = fopen(scn_path, "w");
    fputs("duration 0.01\nstep 1e-3\ninitial x_dot = 5\ninitial spin_dot = 11.1\n", f);
    fclose(f);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = model;
    c.include_dir = include;
    c.scenario = scn_path;
    c.out = csv;
    c.progress = 0;
    ck_assert_int_eq(chdir(dir), 0);
    rs_run_report rep;
    const int st = rs_driver_run(&c, &rep, err, sizeof err);
    ck_assert_int_eq(chdir(root), 0);
    ck_assert_msg(st == RS_OK, "%s", err);
    ck_assert_int_eq(rep.steps, 10);
}
END_TEST

/* A wheelset placed 80 mm aside: its wheel and rail profiles do not touch.
 * The message names the contact, the profile and its file, where the search
 * ended against the table's span, and what to check. */
START_TEST(test_profiles_that_do_not_touch)
{
    FILE *f = fopen(scn_path, "w");
    fputs("duration 0.01\nstep 1e-4\ninitial y = 0.08\n", f);
    fclose(f);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = "generated/wheelset";
    c.scenario = scn_path;
    c.out = csv;
    c.progress = 0;
    ck_assert_int_eq(rs_driver_run(&c, NULL, err, sizeof err), RS_E_NOCONV);
    ck_assert_msg(strstr(err, "contact 'right': no contact point on the wheel profile 'vehicles/profiles/s1002.prf' "
                              "(the search ends at u_w = ") &&
                      strstr(err, "its table spans -70 to 60 mm): the wheel and rail profiles do not touch in this "
                                  "pose; check the initial lateral position"),
                  "%s", err);
}
END_TEST

/* Elastic contact with Kalker's linear law and no friction (rs_creep_bound.h):
 * the log gets one warning line before the run, naming the model, the
 * contacts and the fix; with `friction 0.3` none; with one contact's friction
 * put back to 0 the warning names that contact; FASTSIM with friction and
 * the constraint contact (the seed's single-point law) none.  The run goes
 * on in every case. */
static int warnings(const char *scenario_text, char *first, size_t len)
{
    FILE *f = fopen(scn_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(scenario_text, f);
    fclose(f);
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = "generated/wheelset";
    c.scenario = scn_path;
    c.out = csv;
    c.progress = 0;   /* quiet: the warning is about the results, it still comes */
    c.log = rt_log_to(log);
    ck_assert_msg(rs_driver_run(&c, NULL, err, sizeof err) == RS_OK, "%s", err);
    rewind(log);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, log))
        if (strstr(line, "creep forces are unbounded") && n++ == 0)
            snprintf(first, len, "%s", line);
    fclose(log);
    return n;
}

START_TEST(test_unbounded_creep_warning)
{
    char w[1024] = "";
    ck_assert_int_eq(warnings("duration 0.003\nstep 1e-3\ncontact elastic\n", w, sizeof w), 1);
    ck_assert_msg(strstr(w, "warning: model 'wheelset': elastic contact with Kalker's linear creep law and no "
                            "friction on 2 of 2 contacts (first 'left')") &&
                      strstr(w, "'friction MU'") && strstr(w, "'creep fastsim'"),
                  "%s", w);
    w[0] = '\0';
    ck_assert_int_eq(warnings("duration 0.003\nstep 1e-3\ncontact elastic\nfriction 0.3\n", w, sizeof w), 0);
    ck_assert_int_eq(
        warnings("duration 0.003\nstep 1e-3\ncontact elastic\nfriction 0.3\nfriction right = 0\n", w, sizeof w), 1);
    ck_assert_msg(strstr(w, "no friction on 1 of 2 contacts (first 'right')"), "%s", w);
    ck_assert_int_eq(
        warnings("duration 0.003\nstep 1e-3\ncontact elastic\ncreep fastsim\nfriction 0.3\n", w, sizeof w), 0);
    ck_assert_int_eq(warnings("duration 0.003\nstep 1e-3\ncontact constraint\n", w, sizeof w), 0);
}
END_TEST

static Suite *driver_suite(void)
{
    Suite *s = suite_create("run_driver");
    TCase *t = tcase_create("driver");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_simulate_writes_csv);
    tcase_add_test(t, test_default_columns_and_scenario);
    tcase_add_test(t, test_run_folder_with_tcc);
    tcase_add_test(t, test_bad_names_fail_before_running);
    tcase_add_test(t, test_unwritable_output);
    tcase_add_test(t, test_failure_midway_keeps_csv);
    tcase_add_test(t, test_progress_lines);
    tcase_add_test(t, test_no_sink_no_output);
    tcase_add_test(t, test_model_name);
    tcase_add_test(t, test_contact_files_from_elsewhere);
    tcase_add_test(t, test_profiles_that_do_not_touch);
    tcase_add_test(t, test_unbounded_creep_warning);
    suite_add_tcase(s, t);
    return s;
}

RS_TEST_MAIN(driver_suite)
