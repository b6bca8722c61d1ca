/*
 * test_fmu.c — `railsym export-fmu` (docs/fmi.md): the FMU of the pendulum,
 * stepped by the tests' own importer (tests/support/fmi_import.h), against
 * `railsym run` of the same scenario (1e-12 relative on every column); two
 * instances with different parameters in one process, each equal to its
 * own run; fmi2GetFMUstate / fmi2SetFMUstate (and their serialized form)
 * repeat a continued run bit for bit; a communication step that is not a
 * whole number of internal steps is refused with a message; the checker
 * (tests/support/fmi_check.h) passes the exported description and rejects
 * every file of tests/fmi_errors/ for the reason its comment names.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmi_check.h"
#include "fmi_compare.h"
#include "fmi_import.h"
#include "rs_test.h"

static char tmp[256];
static char fmu_path[400];

/* `railsym run` of the pendulum with scenario `scn` into `out`. */
static void railsym_run(const char *scn, const char *out)
{
    ck_assert_int_eq(fmi_railsym_run("generated/pendulum", scn, out), 0);
}

static void csv_read(const char *path, fmi_csv *c)
{
    char err[512];
    ck_assert_msg(fmi_csv_read(path, c, err, sizeof err) == 0, "%s", err);
}

static void setup(void)
{
    fmi_sanitize_fmus();
    snprintf(tmp, sizeof tmp, "/tmp/test_fmu-XXXXXX");
    ck_assert(mkdtemp(tmp) != NULL);
    snprintf(fmu_path, sizeof fmu_path, "%s/pendulum.fmu", tmp);
    char *argv[] = {(char *)fmi_railsym(), "export-fmu", "generated/pendulum", "--scenario", "vehicles/examples/pendulum.scn",
                    "-o", fmu_path, NULL};
    ck_assert_int_eq(fmi_run_argv(argv), 0);
}

static void teardown(void)
{
    char *argv[] = {"rm", "-rf", tmp, NULL};
    fmi_run_argv(argv);
}

/* Steps instance c over rows row_from..row_to of `ref` and compares every
 * column (1e-12 relative); returns the largest relative difference. */
static double compare_rows(fmi_fmu *f, fmi2Component c, const fmi_csv *ref, int row_from, int row_to)
{
    double worst;
    char err[1024];
    ck_assert_msg(fmi_compare_rows(f, c, ref, row_from, row_to, 1e-12, &worst, err, sizeof err) == 0, "%s", err);
    return worst;
}

START_TEST(test_fmu_equals_run)
{
    char out[400];
    snprintf(out, sizeof out, "%s/run.csv", tmp);
    railsym_run("vehicles/examples/pendulum.scn", out);
    fmi_csv ref;
    csv_read(out, &ref);
    ck_assert_int_eq(ref.nrow, 1001);   /* 10 s, output 0.01 s */
    fmi_fmu f;
    char err[1024];
    ck_assert_msg(fmi_open(fmu_path, &f, err, sizeof err) == 0, "%s", err);
    fmi2Component c = fmi_start(&f, "a", 0, NULL, NULL);
    ck_assert_msg(c != NULL, "%s", f.last_log);
    const double worst = compare_rows(&f, c, &ref, 0, ref.nrow - 1);
    printf("FMU vs railsym run, pendulum 10 s: worst relative difference %.3g\n", worst);
    f.terminate(c);
    f.free_instance(c);
    fmi_close(&f);
    free(ref.v);
}
END_TEST

/* Two instances, l = 0.8 (the model's) and l = 1.0, stepped in turns; each
 * equals its own `railsym run`.  A longer pendulum swings slower: their
 * angles must differ. */
START_TEST(test_two_instances)
{
    char scn_b[400], out_a[400], out_b[400];
    snprintf(scn_b, sizeof scn_b, "%s/b.scn", tmp);
    FILE *o = fopen(scn_b, "w"), *i = fopen("vehicles/examples/pendulum.scn", "r");
    ck_assert(o && i);
    char line[512];
    while (fgets(line, sizeof line, i))
        fputs(line, o);
    fputs("param l = 1.0\n", o);
    fclose(i);
    fclose(o);
    snprintf(out_a, sizeof out_a, "%s/a.csv", tmp);
    snprintf(out_b, sizeof out_b, "%s/b.csv", tmp);
    railsym_run("vehicles/examples/pendulum.scn", out_a);
    railsym_run(scn_b, out_b);
    fmi_csv ra, rb;
    csv_read(out_a, &ra);
    csv_read(out_b, &rb);
    fmi_fmu f;
    char err[1024];
    ck_assert_msg(fmi_open(fmu_path, &f, err, sizeof err) == 0, "%s", err);
    const char *pn[] = {"l"};
    const double pv[] = {1.0};
    fmi2Component a = fmi_start(&f, "a", 0, NULL, NULL), b = fmi_start(&f, "b", 1, pn, pv);
    ck_assert(a && b);
    for (int r = 0; r + 100 < ra.nrow; r += 100) {   /* turns of 1 s */
        compare_rows(&f, a, &ra, r, r + 100);
        compare_rows(&f, b, &rb, r, r + 100);
    }
    ck_assert_double_gt(fabs(ra.v[500 * ra.ncol + 1] - rb.v[500 * rb.ncol + 1]), 0.1);
    f.free_instance(a);
    f.free_instance(b);
    fmi_close(&f);
    free(ra.v);
    free(rb.v);
}
END_TEST

/* th, th_dot after stepping c from its time to t_end by h, n values. */
static void step_record(fmi_fmu *f, fmi2Component c, double t0, int n, double h, double *rec)
{
    const fmi2ValueReference vr[2] = {(fmi2ValueReference)fmi_vr(f, "th"), (fmi2ValueReference)fmi_vr(f, "th_dot")};
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(f->do_step(c, t0 + i * h, h, fmi2False), fmi2OK);
        ck_assert_int_eq(f->get_real(c, vr, 2, &rec[2 * i]), fmi2OK);
    }
}

START_TEST(test_state_bit_for_bit)
{
    fmi_fmu f;
    char err[1024];
    ck_assert_msg(fmi_open(fmu_path, &f, err, sizeof err) == 0, "%s", err);
    fmi2Component a = fmi_start(&f, "a", 0, NULL, NULL);
    ck_assert(a);
    double first[200], again[200], other[200], skip[2 * 100];
    step_record(&f, a, 0.0, 100, 0.01, skip);   /* to t = 1 s */
    fmi2FMUstate s = NULL;
    ck_assert_int_eq(f.get_state(a, &s), fmi2OK);
    size_t n = 0;
    ck_assert_int_eq(f.state_size(a, s, &n), fmi2OK);
    char *bytes = malloc(n);
    ck_assert_int_eq(f.serialize(a, s, bytes, n), fmi2OK);
    step_record(&f, a, 1.0, 100, 0.01, first);   /* to 2 s */
    ck_assert_int_eq(f.set_state(a, s), fmi2OK);
    step_record(&f, a, 1.0, 100, 0.01, again);
    ck_assert_msg(memcmp(first, again, sizeof first) == 0, "a restored state did not repeat the run bit for bit");
    /* the serialized state in another instance (which was never stepped) */
    fmi2Component b = fmi_start(&f, "b", 0, NULL, NULL);
    fmi2FMUstate s2 = NULL;
    ck_assert_int_eq(f.deserialize(b, bytes, n, &s2), fmi2OK);
    ck_assert_int_eq(f.set_state(b, s2), fmi2OK);
    step_record(&f, b, 1.0, 100, 0.01, other);
    ck_assert_msg(memcmp(first, other, sizeof first) == 0, "a deserialized state did not repeat the run");
    /* the states differ from the start: a copy that restored nothing would fail above */
    ck_assert_double_ne(first[0], skip[0]);
    ck_assert_int_eq(f.free_state(a, &s), fmi2OK);
    ck_assert_ptr_null(s);
    f.free_state(b, &s2);
    free(bytes);
    f.free_instance(a);
    f.free_instance(b);
    fmi_close(&f);
}
END_TEST

START_TEST(test_step_not_multiple)
{
    fmi_fmu f;
    char err[1024];
    ck_assert_msg(fmi_open(fmu_path, &f, err, sizeof err) == 0, "%s", err);
    fmi2Component a = fmi_start(&f, "a", 0, NULL, NULL);
    ck_assert(a);
    ck_assert_int_eq(f.do_step(a, 0.0, 0.0105, fmi2False), fmi2Error);
    ck_assert_msg(strstr(f.last_log, "not a whole number of internal steps of 0.001") != NULL, "%s", f.last_log);
    ck_assert_int_eq(f.do_step(a, 0.5, 0.01, fmi2False), fmi2Error);   /* not the FMU's time */
    ck_assert_msg(strstr(f.last_log, "is not the FMU's time") != NULL, "%s", f.last_log);
    ck_assert_int_eq(f.do_step(a, 0.0, 0.002, fmi2False), fmi2OK);   /* variable steps are fine */
    ck_assert_int_eq(f.do_step(a, 0.002, 0.007, fmi2False), fmi2OK);
    /* a wrong guid is refused at instantiation */
    char uri[700];
    snprintf(uri, sizeof uri, "file://%s/resources", f.dir);
    ck_assert_ptr_null(f.instantiate("x", fmi2CoSimulation, "{0}", uri, &f.cb, 0, 0));
    ck_assert_msg(strstr(f.last_log, "is not this FMU's") != NULL, "%s", f.last_log);
    f.free_instance(a);
    fmi_close(&f);
}
END_TEST

/* What an FMU cannot carry is refused at export with the file and line. */
START_TEST(test_refusals)
{
    char scn[400], csv[400], out[400], cmd[4096], text[2048] = "";
    snprintf(scn, sizeof scn, "%s/in_file.scn", tmp);
    snprintf(csv, sizeof csv, "%s/u.csv", tmp);
    snprintf(out, sizeof out, "%s/refused.txt", tmp);
    FILE *f = fopen(csv, "w");
    fputs("t,u\n0,0\n1,1\n", f);
    fclose(f);
    f = fopen(scn, "w");
    fputs("duration 1\nstep 1e-3\ninput u file \"u.csv\"\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s export-fmu generated/pendulum --scenario %s -o %s/x.fmu 2> %s", fmi_railsym(), scn,
             tmp, out);
    ck_assert_int_ne(system(cmd), 0);
    f = fopen(out, "r");
    ck_assert(f != NULL);
    const size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    ck_assert_msg(strstr(text, "in_file.scn:3: an input read from a file is not supported by export-fmu") != NULL, "%s",
                  text);

    /* a track whose irregularity table is not beside it: the FMU copies a
     * track's tables by their names */
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/sub && cp vehicles/tracks/curve_vertical.csv %s/cv.csv && "
             "sed 's/table curve_vertical.csv/table ..\\/cv.csv/' vehicles/tracks/curve.trk > %s/sub/t.trk && "
             "printf 'duration 0.1\\nstep 1e-4\\ntrack \"t.trk\"\\n' > %s/sub/t.scn && "
             "%s export-fmu generated/wheelset --scenario %s/sub/t.scn -o %s/t.fmu 2> %s",
             tmp, tmp, tmp, tmp, fmi_railsym(), tmp, tmp, out);
    ck_assert_int_ne(system(cmd), 0);
    f = fopen(out, "r");
    ck_assert(f != NULL);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, "t.trk:24: the table '../cv.csv' is not beside the track file") != NULL, "%s", text);
}
END_TEST

START_TEST(test_checker)
{
    fmi_fmu f;
    char err[1024], md[700];
    ck_assert_msg(fmi_open(fmu_path, &f, err, sizeof err) == 0, "%s", err);
    snprintf(md, sizeof md, "%s/modelDescription.xml", f.dir);
    ck_assert_msg(fmi_check_description(md, f.dir, err, sizeof err) == 0, "exported description refused: %s", err);
    /* the same description is refused when the binary is not where modelIdentifier says */
    ck_assert_int_ne(fmi_check_description(md, "/nonexistent", err, sizeof err), 0);
    ck_assert_msg(strstr(err, "no binary binaries/linux64/pendulum.so") != NULL, "%s", err);
    fmi_close(&f);
    /* aliases (one valueReference, one start value) are legal */
    ck_assert_msg(fmi_check_description("tests/fmi_valid/alias.xml", NULL, err, sizeof err) == 0,
                  "tests/fmi_valid/alias.xml refused: %s", err);

    DIR *d = opendir("tests/fmi_errors");
    ck_assert(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".xml"))
            continue;
        char path[600], text[8192], want[400] = "";
        snprintf(path, sizeof path, "tests/fmi_errors/%s", e->d_name);
        FILE *fp = fopen(path, "r");
        const size_t got = fread(text, 1, sizeof text - 1, fp);
        fclose(fp);
        text[got] = '\0';
        const char *p = strstr(text, "<!-- expect: ");
        ck_assert_msg(p != NULL, "%s has no '<!-- expect: MESSAGE -->' comment", path);
        p += strlen("<!-- expect: ");
        const char *q = strstr(p, " -->");
        snprintf(want, sizeof want, "%.*s", (int)(q - p), p);
        ck_assert_msg(fmi_check_description(path, NULL, err, sizeof err) != 0, "%s was accepted", path);
        ck_assert_msg(strstr(err, want) != NULL, "%s: refused with '%s', expected '%s'", path, err, want);
        n++;
    }
    closedir(d);
    ck_assert_int_ge(n, 18);
    printf("checker: the exported description passes; %d broken descriptions refused for their reason\n", n);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fmu");
    TCase *tc = tcase_create("fmu");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_fmu_equals_run);
    tcase_add_test(tc, test_two_instances);
    tcase_add_test(tc, test_state_bit_for_bit);
    tcase_add_test(tc, test_step_not_multiple);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_checker);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
