/*
 * test_api_install.c — the C API's example (docs/examples/api_main.c)
 * built against a `make install` tree only, and compared with `railsym run`:
 *
 *   - scripts/install.sh into a temporary PREFIX (run directly, as
 *     test_install does: make would rebuild the build with other flags);
 *   - the example compiled with nothing but
 *         cc api_main.c $(pkg-config --cflags --libs railsym)
 *     (PKG_CONFIG_PATH at the prefix), so it finds railsym.h, librailsym.a
 *     and the loaders' ABI headers in the prefix, and run from the
 *     temporary folder (not the source tree, whose abi/ it must not need)
 *     on generated/pendulum with vehicles/examples/pendulum.scn and the
 *     parameter l = 1.0 set by name (the model's default is 0.8);
 *   - `railsym run` of the same scenario with `param l = 1.0` added writes
 *     a CSV with the same header and rows, every number equal to 1e-12
 *     relative; the example without the set swings faster (the set was
 *     applied: a longer pendulum's quarter period is longer).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_test.h"

#define MODEL "pendulum"

static char tmp[64], root[1024];

static const char *build_dir(void)
{
    const char *b = getenv("RAILSYM_BUILD_DIR");
    return b && *b ? b : "build";
}

static const char *bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "./build/railsym";
}

static void setup(void)
{
    strcpy(tmp, "/tmp/rs_api_install_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "test_api_install: could not remove %s\n", tmp);
}

/* Runs CMD through the shell, its stdout and stderr into OUT. */
static int run(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t got = fread(out, 1, len - 1, p);
    out[got] = '\0';
    char sink[512];
    while (fread(sink, 1, sizeof sink, p) > 0)
        ;
    return pclose(p);
}

/* A CSV as railsym writes it: the header line, then rows of numbers. */
typedef struct table {
    char header[512];
    int ncol, nrow;
    double *v;
} table;

static void table_read(const char *path, table *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    ck_assert(fgets(t->header, sizeof t->header, f) != NULL);
    t->header[strcspn(t->header, "\r\n")] = '\0';
    t->ncol = 1;
    for (const char *p = t->header; *p; p++)
        t->ncol += *p == ',';
    char line[4096];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (t->nrow == cap) {
            cap = cap ? 2 * cap : 1024;
            t->v = realloc(t->v, (size_t)cap * (size_t)t->ncol * sizeof(double));
            ck_assert_ptr_nonnull(t->v);
        }
        char *p = line;
        for (int k = 0; k < t->ncol; k++) {
            char *end;
            t->v[t->nrow * t->ncol + k] = strtod(p, &end);
            ck_assert_msg(end != p, "%s: row %d is not %d numbers: %s", path, t->nrow + 2, t->ncol, line);
            p = *end == ',' ? end + 1 : end;
        }
        t->nrow++;
    }
    fclose(f);
}

START_TEST(example_through_pkg_config_equals_run)
{
    RS_REQUIRE_MODEL(MODEL);
    RS_REQUIRE_PROGRAM("/usr/bin/pkg-config", "install it: make deps (Debian package pkg-config)");
    char cmd[16384], out[8192];
    snprintf(cmd, sizeof cmd, "PREFIX='%s/prefix' scripts/install.sh '%s' 2>&1", tmp, build_dir());
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);

    /* the example, built from the installed tree alone */
#if defined(__SANITIZE_ADDRESS__)
    const char *san = "-fsanitize=address,undefined"; /* a sanitizer build's library needs its runtime */
#else
    const char *san = "";
#endif
    snprintf(cmd, sizeof cmd,
             "cd '%s' && cc -std=c99 -O2 -Wall -Wextra -Werror %s -o api_main '%s/docs/examples/api_main.c' "
             "$(PKG_CONFIG_PATH='%s/prefix/lib/pkgconfig' pkg-config --cflags --libs railsym) 2>&1",
             tmp, san, root, tmp);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);

    /* run from the temporary folder: no abi/ there, the installed headers
     * serve the loader */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && env -u RAILSYM_ABI_DIR ./api_main '%s/generated/" MODEL
             "' '%s/vehicles/examples/pendulum.scn' l=1.0 > api.csv 2> api.err; s=$?; cat api.err; exit $s",
             tmp, root, root);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);

    /* railsym run of the same scenario with the same length */
    snprintf(cmd, sizeof cmd,
             "cat vehicles/examples/pendulum.scn > '%s/run.scn' && echo 'param l = 1.0' >> '%s/run.scn' && "
             "'%s' run generated/" MODEL " --scenario '%s/run.scn' --out '%s/run.csv' -q 2>&1",
             tmp, tmp, bin(), tmp, tmp);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);

    table a, r;
    char path[128];
    snprintf(path, sizeof path, "%s/api.csv", tmp);
    table_read(path, &a);
    snprintf(path, sizeof path, "%s/run.csv", tmp);
    table_read(path, &r);
    ck_assert_str_eq(a.header, r.header);
    ck_assert_str_eq(a.header, "time,th,th_dot,height");
    ck_assert_int_eq(a.nrow, r.nrow);
    ck_assert_int_eq(a.nrow, 1001); /* 10 s every 0.01 s, the start included */
    double d = 0;
    for (int i = 0; i < a.nrow * a.ncol; i++)
        d = fmax(d, fabs(a.v[i] - r.v[i]) / fmax(1e-300, fabs(r.v[i])));
    fprintf(stderr, "api: example through pkg-config vs railsym run: %d rows, max relative difference %.3g\n",
            a.nrow, d);
    ck_assert_msg(d <= 1e-12, "the example differs from railsym run by %.3g (relative)", d);

    /* l = 1.0 was applied: th first crosses zero (a quarter swing) later
     * than with the model's l = 0.8 */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && ./api_main '%s/generated/" MODEL "' '%s/vehicles/examples/pendulum.scn' > short.csv",
             tmp, root, root);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);
    table lg;
    snprintf(path, sizeof path, "%s/short.csv", tmp);
    table_read(path, &lg);
    int cross_a = -1, cross_l = -1;
    for (int i = 1; i < a.nrow && (cross_a < 0 || cross_l < 0); i++) {
        if (cross_a < 0 && a.v[i * a.ncol + 1] < 0)
            cross_a = i;
        if (cross_l < 0 && lg.v[i * lg.ncol + 1] < 0)
            cross_l = i;
    }
    ck_assert_msg(cross_l > 0 && cross_a > cross_l, "th < 0 first at rows %d (l = 1.0) and %d (l = 0.8)", cross_a,
                  cross_l);
    free(a.v);
    free(r.v);
    free(lg.v);
}
END_TEST

static Suite *api_install_suite(void)
{
    Suite *s = suite_create("api_install");
    TCase *tc = tcase_create("api_install");
    tcase_set_timeout(tc, 180);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, example_through_pkg_config_equals_run);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(api_install_suite)
