/*
 * test_api.c — the C API (runtime/api/railsym.h, docs/api.md) in this
 * process:
 *
 *   - a parameter and an input set by name and by index give the same run
 *     bit for bit, and the run is the analytic one: a block of mass m pushed
 *     by a constant force F from rest has x = F t^2 / (2 m) and
 *     x_dot = F t / m (RK4 integrates a constant acceleration exactly);
 *   - unknown names, results that cannot be set, bad indices, non-finite
 *     values, a missing folder and a scenario's unknown name give errors
 *     that name the culprit (and the closest name);
 *   - a state saved and restored, for a contact model too (wheelset_cone,
 *     constraint and elastic contact: the run to 0.4 s repeats bit for bit);
 *   - a state saved at t = 1 s and restored, in the same instance and in a
 *     second one, continues bit for bit as the original run did; a buffer
 *     that is not such a state is refused;
 *   - two instances stepped in two threads at once (each opened in its
 *     thread) equal the same runs one after the other, bit for bit.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "railsym.h"
#include "rs_test.h"

#define PENDULUM "generated/pendulum"
#define PENDULUM_SCN "vehicles/examples/pendulum.scn"

/* A block on a line pushed by the input force F (no gravity along x). */
static const char *const SLIDER_VDL =
    "param m = 2.0\n"
    "coord x = 0\n"
    "input F = 0\n"
    "point G = O + [x, 0, 0] in ground\n"
    "body  block  mass m  cg G  inertia diag(1, 1, 1) in ground  frame ground\n"
    "force push on block at G = [F, 0, 0] in ground\n"
    "output accel = F / m\n";

static char tmp[64], slider[128];

static const char *bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "./build/railsym";
}

static void setup(void)
{
    strcpy(tmp, "/tmp/rs_api_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    snprintf(slider, sizeof slider, "%s/slider", tmp);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "test_api: could not remove %s\n", tmp);
}

/* Compiles SLIDER_VDL into tmp/slider with the built railsym. */
static void compile_slider(void)
{
    char vdl[128], cmd[512];
    snprintf(vdl, sizeof vdl, "%s/slider.vdl", tmp);
    FILE *f = fopen(vdl, "w");
    ck_assert_ptr_nonnull(f);
    fputs(SLIDER_VDL, f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "'%s' compile '%s' -o '%s' >/dev/null 2>&1", bin(), vdl, slider);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

static railsym *open_model(const char *dir, const char *scenario, const char *set_text)
{
    railsym_options o;
    railsym_options_init(&o);
    o.scenario = scenario;
    o.set_text = set_text;
    char err[2048];
    railsym *s = NULL;
    ck_assert_msg(railsym_open(dir, &o, &s, err, sizeof err) == RAILSYM_OK, "%s", err);
    ck_assert_ptr_nonnull(s);
    return s;
}

static double get(railsym *s, const char *name)
{
    double v = NAN;
    ck_assert_msg(railsym_get(s, name, &v) == RAILSYM_OK, "%s", railsym_error(s));
    return v;
}

START_TEST(version)
{
    ck_assert_int_eq(railsym_api_version(), RAILSYM_API_VERSION);
    ck_assert_int_eq(RAILSYM_API_VERSION / 1000, RAILSYM_API_VERSION_MAJOR);
    ck_assert_str_eq(railsym_status_text(RAILSYM_E_NOTFOUND), "unknown name");
}
END_TEST

START_TEST(by_name_and_by_index)
{
    compile_slider();
    const char *scn = "duration 1\nstep 1e-3\nmethod rk4\n";
    railsym *a = open_model(slider, NULL, scn), *b = open_model(slider, NULL, scn);
    const double F = 3.0, m = 4.0;
    ck_assert_int_eq(railsym_set(a, "F", F), RAILSYM_OK);
    ck_assert_int_eq(railsym_set(a, "m", m), RAILSYM_OK);
    const int iF = railsym_find(b, "F"), im = railsym_find(b, "m"), ix = railsym_find(b, "x");
    ck_assert_int_ge(iF, 0);
    ck_assert_int_ge(im, 0);
    ck_assert_int_ne(iF, im);
    ck_assert_int_eq(railsym_set_index(b, iF, F), RAILSYM_OK);
    ck_assert_int_eq(railsym_set_index(b, im, m), RAILSYM_OK);
    ck_assert_int_eq(railsym_advance(a, railsym_end_time(a)), RAILSYM_OK);
    for (int i = 0; i < 1000; i++)   /* the same steps one by one */
        ck_assert_msg(railsym_step(b) >= 0, "%s", railsym_error(b));
    const double t = railsym_time(a);
    ck_assert(fabs(t - 1.0) < 1e-12);
    ck_assert(railsym_time(b) == t);
    double xa = get(a, "x"), xda = get(a, "x_dot"), xb, xdb = get(b, "x_dot");
    ck_assert_int_eq(railsym_get_index(b, ix, &xb), RAILSYM_OK);
    ck_assert_msg(memcmp(&xa, &xb, sizeof xa) == 0 && memcmp(&xda, &xdb, sizeof xda) == 0,
                  "by name x = %.17g, x_dot = %.17g; by index %.17g, %.17g", xa, xda, xb, xdb);
    /* the analytic run: F t^2 / (2 m) = 0.375 m, F t / m = 0.75 m/s */
    ck_assert_msg(fabs(xa - F * t * t / (2 * m)) < 1e-12, "x = %.17g, expected %.17g", xa, F * t * t / (2 * m));
    ck_assert_msg(fabs(xda - F * t / m) < 1e-12, "x_dot = %.17g", xda);
    ck_assert(fabs(get(a, "accel") - F / m) < 1e-15);
    ck_assert(get(a, "F") == F && get(b, "m") == m);
    railsym_close(a);
    railsym_close(b);
}
END_TEST

START_TEST(clear_errors)
{
    railsym *s = open_model(PENDULUM, PENDULUM_SCN, NULL);
    ck_assert_str_eq(railsym_error(s), "");
    ck_assert_str_eq(railsym_model_name(s), "pendulum");
    /* an unknown name, with the closest one */
    ck_assert_int_eq(railsym_find(s, "hieght"), RAILSYM_E_NOTFOUND);
    ck_assert_msg(strstr(railsym_error(s), "model 'pendulum' has no quantity named 'hieght' (did you mean "
                                           "'height'?)") != NULL,
                  "%s", railsym_error(s));
    double v;
    ck_assert_int_eq(railsym_get(s, "th_dto", &v), RAILSYM_E_NOTFOUND);
    ck_assert_msg(strstr(railsym_error(s), "did you mean 'th_dot'") != NULL, "%s", railsym_error(s));
    ck_assert_int_eq(railsym_set(s, "lenght", 1.0), RAILSYM_E_NOTFOUND);
    ck_assert_msg(strstr(railsym_error(s), "'lenght'") != NULL, "%s", railsym_error(s));
    /* a result cannot be set */
    ck_assert_int_eq(railsym_set(s, "height", 1.0), RAILSYM_E_ARG);
    ck_assert_msg(strstr(railsym_error(s), "cannot be set") != NULL, "%s", railsym_error(s));
    ck_assert_int_eq(railsym_set(s, "time", 1.0), RAILSYM_E_ARG);
    /* a non-finite value, an index that is not one */
    ck_assert_int_eq(railsym_set(s, "l", NAN), RAILSYM_E_ARG);
    ck_assert_msg(strstr(railsym_error(s), "'l' = nan is not a finite number") != NULL, "%s", railsym_error(s));
    ck_assert_int_eq(railsym_get_index(s, 0x7000000, &v), RAILSYM_E_ARG);
    ck_assert_msg(strstr(railsym_error(s), "take indices from railsym_find") != NULL, "%s", railsym_error(s));
    ck_assert_int_eq(railsym_get_index(s, -3, &v), RAILSYM_E_ARG);
    ck_assert_ptr_null(railsym_column_name(s, 3));
    /* the instance still works after its errors */
    ck_assert_int_eq(railsym_step(s), RAILSYM_OK);
    railsym_close(s);

    /* a folder that is not there, a scenario's unknown name */
    char err[2048];
    railsym *none = (railsym *)&err;
    ck_assert_int_eq(railsym_open(PENDULUM "_missing", NULL, &none, err, sizeof err), RAILSYM_E_LOAD);
    ck_assert_ptr_null(none);
    ck_assert_msg(strstr(err, "cannot load model folder '" PENDULUM "_missing'") != NULL, "%s", err);
    railsym_options o;
    railsym_options_init(&o);
    o.set_text = "duration 1\nparam lenght = 1\n";
    ck_assert_int_lt(railsym_open(PENDULUM, &o, &none, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "--set:2") != NULL && strstr(err, "lenght") != NULL, "%s", err);
    /* options that railsym_options_init did not fill */
    o.size = 3;
    ck_assert_int_eq(railsym_open(PENDULUM, &o, &none, err, sizeof err), RAILSYM_E_ARG);
    ck_assert_msg(strstr(err, "railsym_options_init") != NULL, "%s", err);
    railsym_close(NULL);
}
END_TEST

/* th and th_dot after advancing s to t_end, written into v[2]. */
static void run_to(railsym *s, double t_end, double *v)
{
    ck_assert_msg(railsym_advance(s, t_end) == RAILSYM_OK, "%s", railsym_error(s));
    v[0] = get(s, "th");
    v[1] = get(s, "th_dot");
}

START_TEST(save_restore_bit_for_bit)
{
    railsym *s = open_model(PENDULUM, PENDULUM_SCN, NULL);
    double at1[2], first[2], again[2], other[2];
    run_to(s, 1.0, at1);
    const size_t n = railsym_state_size(s);
    ck_assert_uint_gt(n, 0);
    void *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(railsym_state_save(s, buf, n - 1), RAILSYM_E_ARG);   /* too short */
    ck_assert_int_eq(railsym_state_save(s, buf, n), RAILSYM_OK);
    run_to(s, 2.0, first);
    ck_assert(first[0] != at1[0]);   /* it moved on */
    ck_assert_int_eq(railsym_state_restore(s, buf, n), RAILSYM_OK);
    ck_assert(fabs(railsym_time(s) - 1.0) < 1e-12);
    run_to(s, 2.0, again);
    ck_assert_msg(memcmp(first, again, sizeof first) == 0, "continued: %.17g %.17g, after restore: %.17g %.17g",
                  first[0], first[1], again[0], again[1]);

    /* into another instance of the same folder and scenario */
    railsym *t = open_model(PENDULUM, PENDULUM_SCN, NULL);
    ck_assert_int_eq(railsym_state_restore(t, buf, n), RAILSYM_OK);
    run_to(t, 2.0, other);
    ck_assert(memcmp(first, other, sizeof first) == 0);

    /* what is not such a state */
    ck_assert_int_eq(railsym_state_restore(t, buf, n - 8), RAILSYM_E_ARG);
    ck_assert_msg(strstr(railsym_error(t), "not a saved state of model 'pendulum'") != NULL, "%s",
                  railsym_error(t));
    unsigned char *bad = malloc(n);
    ck_assert_ptr_nonnull(bad);
    memcpy(bad, buf, n);
    bad[0] ^= 0xff;
    ck_assert_int_eq(railsym_state_restore(t, bad, n), RAILSYM_E_ARG);
    compile_slider();
    railsym *sl = open_model(slider, NULL, NULL);
    const size_t ns = railsym_state_size(sl);
    unsigned char *sbuf = malloc(ns);
    ck_assert_ptr_nonnull(sbuf);
    ck_assert_int_eq(railsym_state_save(sl, sbuf, ns), RAILSYM_OK);
    ck_assert_int_eq(railsym_state_restore(t, sbuf, ns), RAILSYM_E_ARG);   /* another model */
    free(sbuf);
    free(bad);
    free(buf);
    railsym_close(sl);
    railsym_close(t);
    railsym_close(s);
}
END_TEST

/* A model with wheel-rail contacts (generated/wheelset_cone, 2 mm aside,
 * rolling at 10 m/s), constraint and elastic contact: a state saved at
 * 0.2 s and restored repeats the run to 0.4 s bit for bit, the contact's
 * own state (contact points, patch hints) included. */
START_TEST(save_restore_contact_model)
{
    static const char *const modes[2] = {"contact constraint\n", "contact elastic\n"};
    for (int k = 0; k < 2; k++) {
        char set[256];
        snprintf(set, sizeof set, "%sspeed 10\ninitial y = 0.002\n", modes[k]);
        railsym *s = open_model("generated/wheelset_cone", NULL, set);
        ck_assert_msg(railsym_advance(s, 0.2) == RAILSYM_OK, "%s", railsym_error(s));
        const size_t n = railsym_state_size(s);
        ck_assert_msg(n > 0, "%s: no state size", modes[k]);
        void *buf = malloc(n);
        ck_assert_ptr_nonnull(buf);
        ck_assert_msg(railsym_state_save(s, buf, n) == RAILSYM_OK, "%s", railsym_error(s));
        ck_assert_msg(railsym_advance(s, 0.4) == RAILSYM_OK, "%s", railsym_error(s));
        const double y1 = get(s, "y"), yaw1 = get(s, "yaw_dot");
        ck_assert_msg(fabs(y1 - 0.002) > 1e-6, "%s: y did not move (%g)", modes[k], y1);
        ck_assert_int_eq(railsym_state_restore(s, buf, n), RAILSYM_OK);
        ck_assert_msg(railsym_advance(s, 0.4) == RAILSYM_OK, "%s", railsym_error(s));
        const double y2 = get(s, "y"), yaw2 = get(s, "yaw_dot");
        ck_assert_msg(memcmp(&y1, &y2, sizeof y1) == 0 && memcmp(&yaw1, &yaw2, sizeof yaw1) == 0,
                      "%s: continued y %.17g yaw_dot %.17g, after restore %.17g %.17g", modes[k], y1, yaw1, y2,
                      yaw2);
        free(buf);
        railsym_close(s);
    }
}
END_TEST

/* One pendulum run for the threads: opened, its length set, run to 3 s. */
typedef struct job {
    double l;
    double v[2];
    int ok;
    char err[2048];
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    railsym_options o;
    railsym_options_init(&o);
    o.scenario = PENDULUM_SCN;
    railsym *s;
    if (railsym_open(PENDULUM, &o, &s, j->err, sizeof j->err))
        return NULL;
    if (!railsym_set(s, "l", j->l) && !railsym_advance(s, 3.0) && !railsym_get(s, "th", &j->v[0]) &&
        !railsym_get(s, "th_dot", &j->v[1]))
        j->ok = 1;
    else
        snprintf(j->err, sizeof j->err, "%s", railsym_error(s));
    railsym_close(s);
    return NULL;
}

START_TEST(two_threads)
{
    job par[2] = {{.l = 0.8}, {.l = 1.1}}, seq[2] = {{.l = 0.8}, {.l = 1.1}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, run_job, &par[i]), 0);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        run_job(&seq[i]);
        ck_assert_msg(par[i].ok && seq[i].ok, "%s %s", par[i].err, seq[i].err);
        ck_assert_msg(memcmp(par[i].v, seq[i].v, sizeof par[i].v) == 0, "l = %g: thread %.17g, alone %.17g",
                      par[i].l, par[i].v[0], seq[i].v[0]);
    }
    ck_assert(par[0].v[0] != par[1].v[0]);   /* two different runs */
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, version);
    tcase_add_test(tc, by_name_and_by_index);
    tcase_add_test(tc, clear_errors);
    tcase_add_test(tc, save_restore_bit_for_bit);
    tcase_add_test(tc, save_restore_contact_model);
    tcase_add_test(tc, two_threads);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(api_suite)
