/*
 * test_fmu_contact.c — FMUs of wheel-rail contact models and of a scenario
 * with `equilibrium` (docs/fmi.md): the wheelset's FMU, constraint contact
 * with the scenario's own rail profile and track (`rail_profile`, `track`
 * lines: their files travel in the FMU), and elastic contact (on the r300
 * track's clothoid, the scenario's `track`), each stepped
 * by the tests' importer, equal `railsym run` of the same scenario (1e-12
 * relative on every column, contact forces included); the replaced files
 * change the run (so the FMU read them); fmi2GetFMUstate / SetFMUstate and
 * the serialized state repeat a continued run bit for bit in both contact
 * modes; the suspension's FMU solves the scenario's equilibrium at
 * fmi2ExitInitializationMode as `railsym run` does before its first step;
 * a model whose own files lie outside its contact root exports when the
 * scenario replaces them (the FMU equals the run) and is refused, naming
 * the .vdl line and the fix, when one of them is still read.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmi_check.h"
#include "fmi_compare.h"
#include "fmi_import.h"
#include "fmi_xml.h"
#include "rs_test.h"

static char tmp[256];

/* The wheelset released 3 mm off centre at 20 m/s for 0.3 s. */
#define WHEELSET_RUN                                                                                  \
    "duration 0.3\n"                                                                                 \
    "step 1e-4\n"                                                                                    \
    "output 0.001\n"                                                                                 \
    "method imex\n"                                                                                  \
    "initial x_dot = 20\n"                                                                           \
    "initial spin_dot = 44.44444444444444\n"                                                         \
    "initial y = 0.003\n"                                                                            \
    "columns x y z roll yaw spin x_dot y_dot z_dot roll_dot yaw_dot spin_dot "
static const char kWheelset[] = WHEELSET_RUN "lambda_left.phi_n lambda_right.phi_n left.N left.Y left.Q right.N "
                                             "right.Y right.Q\n";
/* the elastic contact holds no normal constraint: no multiplier columns */
static const char kWheelsetElastic[] = WHEELSET_RUN "left.N left.Y left.Q right.N right.Y right.Q\n";

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmp, name);
}

static void write_file(const char *name, const char *text, const char *more)
{
    char p[400];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fputs(more, f);
    fclose(f);
}

static void export_fmu(const char *model, const char *scn, const char *fmu)
{
    char s[400], o[400];
    path_in(s, sizeof s, scn);
    path_in(o, sizeof o, fmu);
    char *argv[] = {(char *)fmi_railsym(), "export-fmu", (char *)model, "--scenario", s, "-o", o, NULL};
    ck_assert_int_eq(fmi_run_argv(argv), 0);
}

static void setup(void)
{
    fmi_sanitize_fmus();
    snprintf(tmp, sizeof tmp, "/tmp/test_fmu_contact-XXXXXX");
    ck_assert(mkdtemp(tmp) != NULL);
    char cwd[300], files[1200];
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    /* a steeper rail inclination and the curve's track (its vertical
     * irregularity table beside it), with the rail offset its gauge needs */
    snprintf(files, sizeof files,
             "param b_r = 0.752512\n"
             "rail_profile \"%s/vehicles/profiles/60e1_1in20.prf\"\n"
             "track \"%s/vehicles/tracks/curve.trk\"\n",
             cwd, cwd);
    write_file("plain.scn", kWheelset, "");
    write_file("files.scn", kWheelset, files);
    /* elastic, from 3 m before the r300 track's clothoid: the wheels'
     * projections onto the curving track start from the last ones, so a
     * state copy that missed them would not repeat the run bit for bit */
    snprintf(files, sizeof files, "contact elastic\ntrack \"%s/vehicles/tracks/r300.trk\"\ninitial x = 17\n", cwd);
    write_file("elastic.scn", kWheelsetElastic, files);
    write_file("equilibrium.scn",
               "duration 0.5\nstep 1e-3\noutput 0.01\nmethod rk4\nequilibrium\ninitial y_c = 0.01\n", "");
    export_fmu("generated/wheelset", "files.scn", "files.fmu");
    export_fmu("generated/wheelset", "elastic.scn", "elastic.fmu");
    export_fmu("generated/suspension", "equilibrium.scn", "equilibrium.fmu");
}

static void teardown(void)
{
    char *argv[] = {"rm", "-rf", tmp, NULL};
    fmi_run_argv(argv);
}

static void run_csv(const char *model, const char *scn, const char *csv_name, fmi_csv *ref)
{
    char s[400], o[400], err[512];
    path_in(s, sizeof s, scn);
    path_in(o, sizeof o, csv_name);
    ck_assert_int_eq(fmi_railsym_run(model, s, o), 0);
    ck_assert_msg(fmi_csv_read(o, ref, err, sizeof err) == 0, "%s", err);
}

/* Opens FMU `name`, steps one instance over every row of ref and compares;
 * the worst relative difference. */
static double fmu_vs_run(const char *name, const fmi_csv *ref)
{
    char p[400], err[1024];
    path_in(p, sizeof p, name);
    fmi_fmu f;
    ck_assert_msg(fmi_open(p, &f, err, sizeof err) == 0, "%s", err);
    fmi2Component c = fmi_start(&f, "a", 0, NULL, NULL);
    ck_assert_msg(c != NULL, "%s", f.last_log);
    double worst;
    ck_assert_msg(fmi_compare_rows(&f, c, ref, 0, ref->nrow - 1, 1e-12, &worst, err, sizeof err) == 0, "%s: %s",
                  name, err);
    f.terminate(c);
    f.free_instance(c);
    fmi_close(&f);
    return worst;
}

static int column(const fmi_csv *c, const char *name)
{
    for (int k = 0; k < c->ncol; k++)
        if (!strcmp(c->names[k], name))
            return k;
    ck_abort_msg("no column %s", name);
    return -1;
}

/* Every start value of FMU `name`'s modelDescription.xml is, bit for
 * bit, what fmi2GetReal reads from a freshly instantiated instance: the
 * description's values come from the set-up the FMU itself does (export-fmu
 * sets up rs_instance_create_fmu from the resources it zips).  The number
 * of start values compared. */
static int starts_are_instance(const char *name)
{
    char p[400], err[1024], md[700];
    path_in(p, sizeof p, name);
    fmi_fmu f;
    ck_assert_msg(fmi_open(p, &f, err, sizeof err) == 0, "%s", err);
    snprintf(md, sizeof md, "%s/modelDescription.xml", f.dir);
    fmi_xml x;
    ck_assert_msg(fmi_xml_read(md, &x, err, sizeof err) == 0, "%s", err);
    fmi2Component c = fmi_instantiate(&f, "starts");
    ck_assert_msg(c != NULL, "%s", f.last_log);
    int n = 0;
    for (int i = 0; i < x.n; i++) {
        const char *start = fmi_xml_attr(&x, i, "start");
        if (strcmp(x.e[i].name, "Real") != 0 || !start)
            continue;
        const int sv = x.e[i].parent;
        const fmi2ValueReference vr = (fmi2ValueReference)strtoul(fmi_xml_attr(&x, sv, "valueReference"), NULL, 10);
        double v = NAN;
        ck_assert_int_eq(f.get_real(c, &vr, 1, &v), fmi2OK);
        ck_assert_msg(v == strtod(start, NULL), "%s: %s starts at %s in the description, %.17g in the instance", name,
                      fmi_xml_attr(&x, sv, "name"), start, v);
        n++;
    }
    fmi_xml_free(&x);
    f.free_instance(c);
    fmi_close(&f);
    return n;
}

START_TEST(test_constraint_files_equal_run)
{
    fmi_csv ref, plain;
    run_csv("generated/wheelset", "files.scn", "files.csv", &ref);
    run_csv("generated/wheelset", "plain.scn", "plain.csv", &plain);
    ck_assert_int_eq(ref.nrow, 301);
    ck_assert_int_eq(ref.ncol, 21);
    /* the scenario's files change the run: an FMU equal to it read them */
    const int y = column(&ref, "y"), row = ref.nrow - 1;
    const double dy = fabs(ref.v[row * ref.ncol + y] - plain.v[row * plain.ncol + y]);
    ck_assert_msg(dy > 1e-3, "the rail profile and track lines changed y(0.3 s) by %g m only", dy);
    const double worst = fmu_vs_run("files.fmu", &ref);
    ck_assert_int_ge(starts_are_instance("files.fmu"), 15);   /* the 15 parameters */
    printf("FMU vs railsym run, wheelset (constraint contact, scenario's rail and track) 0.3 s, %d columns: "
           "worst relative difference %.3g\n", ref.ncol, worst);
    free(ref.v);
    free(plain.v);
}
END_TEST

START_TEST(test_elastic_equals_run)
{
    fmi_csv ref;
    run_csv("generated/wheelset", "elastic.scn", "elastic.csv", &ref);
    ck_assert_int_eq(ref.nrow, 301);
    const int q = column(&ref, "left.Q");
    ck_assert_double_gt(ref.v[(ref.nrow - 1) * ref.ncol + q], 1000.0);   /* the wheel is loaded */
    const double worst = fmu_vs_run("elastic.fmu", &ref);
    ck_assert_int_ge(starts_are_instance("elastic.fmu"), 15);
    /* the elastic contact holds no normal constraint: its FMU has no
     * multiplier variables for the contacts (they were NaN throughout),
     * the constraint contact's has them, and the value references after
     * them agree with each FMU's own description */
    const char *const lam[2] = {"lambda_left.phi_n", "lambda_right.phi_n"};
    for (int k = 0; k < 2; k++) {
        char p[400], e[1024];
        path_in(p, sizeof p, k ? "files.fmu" : "elastic.fmu");
        fmi_fmu f;
        ck_assert_msg(fmi_open(p, &f, e, sizeof e) == 0, "%s", e);
        for (int j = 0; j < 2; j++)
            ck_assert_msg((fmi_vr(&f, lam[j]) >= 0) == (k == 1), "%s: %s %s", p, lam[j], k ? "missing" : "listed");
        fmi_close(&f);
    }
    printf("FMU vs railsym run, wheelset (elastic contact, r300 clothoid) 0.3 s, %d columns: worst relative difference %.3g\n",
           ref.ncol, worst);
    free(ref.v);
}
END_TEST

enum { N_REC = 6, N_STEPS = 100 };
static const char *const kRec[N_REC] = {"y", "yaw", "y_dot", "left.N", "left.Y", "right.Q"};

/* Steps c by h from t0, n times, recording kRec after each step. */
static void step_record(fmi_fmu *f, fmi2Component c, double t0, double h, double *rec)
{
    fmi2ValueReference vr[N_REC];
    for (int k = 0; k < N_REC; k++) {
        const long r = fmi_vr(f, kRec[k]);
        ck_assert_msg(r >= 0, "no variable %s", kRec[k]);
        vr[k] = (fmi2ValueReference)r;
    }
    for (int i = 0; i < N_STEPS; i++) {
        ck_assert_msg(f->do_step(c, t0 + i * h, h, fmi2False) == fmi2OK, "%s", f->last_log);
        ck_assert_int_eq(f->get_real(c, vr, N_REC, &rec[N_REC * i]), fmi2OK);
    }
}

/* 0.1 s, a copy, 0.1 s recorded; back to the copy: its outputs, and the
 * same 0.1 s again; the serialized copy in a fresh instance, the same
 * again. */
static void state_bit_for_bit(const char *name)
{
    char p[400], err[1024];
    path_in(p, sizeof p, name);
    fmi_fmu f;
    ck_assert_msg(fmi_open(p, &f, err, sizeof err) == 0, "%s", err);
    char md[700];
    snprintf(md, sizeof md, "%s/modelDescription.xml", f.dir);
    FILE *fp = fopen(md, "r");
    char text[65536];
    const size_t got = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[got] = '\0';
    ck_assert_msg(strstr(text, "canGetAndSetFMUstate=\"true\"") && strstr(text, "canSerializeFMUstate=\"true\""),
                  "%s does not declare state copies", name);
    ck_assert_msg(fmi_check_description(md, f.dir, err, sizeof err) == 0, "%s: description refused: %s", name, err);
    fmi2Component a = fmi_start(&f, "a", 0, NULL, NULL);
    ck_assert(a);
    const double h = 0.001;
    static double skip[N_REC * N_STEPS], first[N_REC * N_STEPS], again[N_REC * N_STEPS], other[N_REC * N_STEPS];
    step_record(&f, a, 0.0, h, skip);
    fmi2FMUstate s = NULL;
    ck_assert_msg(f.get_state(a, &s) == fmi2OK, "%s", f.last_log);
    size_t n = 0;
    ck_assert_int_eq(f.state_size(a, s, &n), fmi2OK);
    char *bytes = malloc(n);
    ck_assert_int_eq(f.serialize(a, s, bytes, n), fmi2OK);
    step_record(&f, a, 0.1, h, first);
    ck_assert_int_eq(f.set_state(a, s), fmi2OK);
    /* right after the restore the outputs, contact forces included, are
     * those of the copy's time again (the plug-in's part holds the last
     * forces and patches; the next step would recompute them) */
    double now[N_REC];
    fmi2ValueReference vr[N_REC];
    for (int k = 0; k < N_REC; k++)
        vr[k] = (fmi2ValueReference)fmi_vr(&f, kRec[k]);
    ck_assert_int_eq(f.get_real(a, vr, N_REC, now), fmi2OK);
    const double *then = &skip[N_REC * (N_STEPS - 1)];
    for (int k = 0; k < N_REC; k++)
        ck_assert_msg(memcmp(&now[k], &then[k], sizeof now[k]) == 0,
                      "%s: %s after fmi2SetFMUstate is %.17g, not the copy's %.17g", name, kRec[k], now[k], then[k]);
    step_record(&f, a, 0.1, h, again);
    ck_assert_msg(memcmp(first, again, sizeof first) == 0, "%s: a restored state did not repeat the run bit for bit",
                  name);
    fmi2Component b = fmi_start(&f, "b", 0, NULL, NULL);
    fmi2FMUstate s2 = NULL;
    ck_assert_int_eq(f.deserialize(b, bytes, n, &s2), fmi2OK);
    ck_assert_int_eq(f.set_state(b, s2), fmi2OK);
    step_record(&f, b, 0.1, h, other);
    ck_assert_msg(memcmp(first, other, sizeof first) == 0, "%s: a deserialized state did not repeat the run", name);
    /* the wheelset moves: a copy that restored nothing would fail above */
    ck_assert_double_ne(first[0], skip[0]);
    printf("%s: state of %zu bytes; restored and deserialized runs equal bit for bit over 0.1 s\n", name, n);
    f.free_state(a, &s);
    f.free_state(b, &s2);
    free(bytes);
    f.free_instance(a);
    f.free_instance(b);
    fmi_close(&f);
}

START_TEST(test_state_constraint) { state_bit_for_bit("files.fmu"); }
END_TEST

START_TEST(test_state_elastic) { state_bit_for_bit("elastic.fmu"); }
END_TEST

/* A state of one FMU is refused by another FMU of the same model (other
 * files: the contact part's hints would not fit them). */
START_TEST(test_state_other_fmu)
{
    char pa[400], pb[400], err[1024];
    path_in(pa, sizeof pa, "elastic.fmu");
    path_in(pb, sizeof pb, "files.fmu");
    fmi_fmu fa, fb;
    ck_assert_msg(fmi_open(pa, &fa, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(fmi_open(pb, &fb, err, sizeof err) == 0, "%s", err);
    fmi2Component a = fmi_start(&fa, "a", 0, NULL, NULL), b = fmi_start(&fb, "b", 0, NULL, NULL);
    ck_assert(a && b);
    fmi2FMUstate s = NULL, s2 = NULL;
    size_t n = 0;
    ck_assert_int_eq(fa.get_state(a, &s), fmi2OK);
    ck_assert_int_eq(fa.state_size(a, s, &n), fmi2OK);
    char *bytes = malloc(n);
    ck_assert_int_eq(fa.serialize(a, s, bytes, n), fmi2OK);
    if (fb.deserialize(b, bytes, n, &s2) == fmi2OK) {
        ck_assert_int_eq(fb.set_state(b, s2), fmi2Error);
        fb.free_state(b, &s2);
    }
    ck_assert_msg(strstr(fb.last_log, "is one of FMU") || strstr(fb.last_log, "not a state of this FMU"), "%s",
                  fb.last_log);
    fa.free_state(a, &s);
    free(bytes);
    fa.free_instance(a);
    fb.free_instance(b);
    fmi_close(&fa);
    fmi_close(&fb);
}
END_TEST

START_TEST(test_equilibrium)
{
    fmi_csv ref;
    run_csv("generated/suspension", "equilibrium.scn", "equilibrium.csv", &ref);
    /* the equilibrium moved the body from the scenario's y_c = 0.01 m */
    const int y = column(&ref, "y_c");
    ck_assert_double_lt(fabs(ref.v[y]), 1e-3);
    const double worst = fmu_vs_run("equilibrium.fmu", &ref);
    ck_assert_int_gt(starts_are_instance("equilibrium.fmu"), 0);
    printf("FMU vs railsym run, suspension with 'equilibrium' 0.5 s: worst relative difference %.3g\n", worst);
    free(ref.v);
}
END_TEST

/* The wheelset compiled in its own folder, vehicles/examples: its table
 * names "../profiles/..." and "../tracks/...", outside its contact root,
 * which an FMU cannot carry by those names.  A scenario that replaces all
 * three files exports (the FMU carries the replacements, none of the
 * model's files) and the FMU equals `railsym run` of that scenario; one
 * that leaves the wheel profile in use is refused, naming the .vdl line,
 * the file, and the scenario line that would replace it. */
START_TEST(test_outside_root_replaced)
{
    char cwd[300], cmd[4096], model[400], out[400], keep[400], text[16384] = "";
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    const char *bin = fmi_railsym();
    char railsym[700];
    snprintf(railsym, sizeof railsym, "%s%s%s", bin[0] == '/' ? "" : cwd, bin[0] == '/' ? "" : "/", bin);
    path_in(model, sizeof model, "ws_examples");
    snprintf(cmd, sizeof cmd, "cd vehicles/examples && %s compile wheelset.vdl -o %s > /dev/null", railsym, model);
    ck_assert_int_eq(system(cmd), 0);
    char files[1200];
    snprintf(files, sizeof files,
             "param b_r = 0.752512\n"
             "rail_profile \"%s/vehicles/profiles/60e1_1in20.prf\"\n"
             "track \"%s/vehicles/tracks/curve.trk\"\n",
             cwd, cwd);
    write_file("partial.scn", kWheelset, files);
    char all[1600];
    snprintf(all, sizeof all, "%swheel_profile \"%s/vehicles/profiles/s1002.prf\"\n", files, cwd);
    write_file("replaced.scn", kWheelset, all);

    /* the wheel profile is still the model's "../profiles/s1002.prf" */
    char scn[400];
    path_in(scn, sizeof scn, "partial.scn");
    path_in(out, sizeof out, "partial.txt");
    snprintf(cmd, sizeof cmd, "%s export-fmu %s --scenario %s -o %s/partial.fmu 2> %s", railsym, model, scn, tmp, out);
    ck_assert_int_ne(system(cmd), 0);
    FILE *f = fopen(out, "r");
    ck_assert(f != NULL);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, "vehicles/examples/wheelset.vdl:34: contact 'left' reads '../profiles/s1002.prf', "
                               "which is not below the model's contact root") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "replace it in the scenario ('wheel_profile \"PATH\"'") != NULL, "%s", text);

    /* every file replaced: exported, and none of the model's files carried;
     * a wheel profile the model's default.scn names, which the scenario
     * replaces, stays out too (a comment in the FMU's default.scn) */
    char def[500];
    snprintf(def, sizeof def, "%s/default.scn", model);
    f = fopen(def, "a");
    ck_assert(f != NULL);
    fprintf(f, "wheel_profile \"%s/vehicles/profiles/cone_1in40.prf\"\n", cwd);
    fclose(f);
    path_in(scn, sizeof scn, "replaced.scn");
    path_in(out, sizeof out, "replaced.fmu");
    path_in(keep, sizeof keep, "replaced_kept");
    char *argv[] = {(char *)bin, "export-fmu", model, "--scenario", scn, "-o", out, "--keep", keep, NULL};
    ck_assert_int_eq(fmi_run_argv(argv), 0);
    char p[600];
    snprintf(p, sizeof p, "%s/resources/contact", keep);
    ck_assert_msg(access(p, F_OK) != 0, "%s exists: the FMU carries a file the run does not read", p);
    snprintf(p, sizeof p, "%s/resources/files/wheel_profile/s1002.prf", keep);
    ck_assert_msg(access(p, R_OK) == 0, "%s is missing", p);
    snprintf(p, sizeof p, "%s/resources/files/wheel_profile/cone_1in40.prf", keep);
    ck_assert_msg(access(p, F_OK) != 0, "%s: the FMU carries the replaced wheel profile", p);
    snprintf(p, sizeof p, "%s/resources/default.scn", keep);
    f = fopen(p, "r");
    ck_assert(f != NULL);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, "# export-fmu: replaced at ") && strstr(text, "replaced.scn:") &&
                      strstr(text, ": wheel_profile \"") && strstr(text, "cone_1in40.prf\""),
                  "%s", text);

    fmi_csv ref;
    run_csv(model, "replaced.scn", "replaced.csv", &ref);
    ck_assert_int_eq(ref.nrow, 301);
    const double worst = fmu_vs_run("replaced.fmu", &ref);
    ck_assert_int_ge(starts_are_instance("replaced.fmu"), 15);
    fmi_fmu fm;
    char err[1024], md[700];
    ck_assert_msg(fmi_open(out, &fm, err, sizeof err) == 0, "%s", err);
    snprintf(md, sizeof md, "%s/modelDescription.xml", fm.dir);
    ck_assert_msg(fmi_check_description(md, fm.dir, err, sizeof err) == 0, "replaced.fmu: description refused: %s", err);
    fmi_close(&fm);
    printf("FMU vs railsym run, wheelset compiled in vehicles/examples (its '..' files all replaced by the "
           "scenario) 0.3 s, %d columns: worst relative difference %.3g\n", ref.ncol, worst);
    free(ref.v);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fmu_contact");
    TCase *tc = tcase_create("fmu_contact");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_constraint_files_equal_run);
    tcase_add_test(tc, test_elastic_equals_run);
    tcase_add_test(tc, test_state_constraint);
    tcase_add_test(tc, test_state_elastic);
    tcase_add_test(tc, test_state_other_fmu);
    tcase_add_test(tc, test_equilibrium);
    tcase_add_test(tc, test_outside_root_replaced);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
