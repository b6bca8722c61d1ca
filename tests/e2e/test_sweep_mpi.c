/*
 * test_sweep_mpi.c — `mpirun -np 3 --oversubscribe railsym sweep ... --mpi`
 * (issue 11, item 2) against the same sweep on local threads:
 *
 *   - 12 variants: the summary rows and every variant's CSV are identical;
 *   - a variant that fails (a body of no mass) is recorded failed with
 *     its message, the others complete, and the summary equals the local
 *     run's (the failure message names no worker-private path);
 *   - a sweep stopped after a few variants under MPI and resumed under MPI
 *     gives the same summary.
 *
 * mpirun runs as a subprocess (this program never initialises MPI), with
 * OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) for containers that run tests as root.
 * In the sanitizer build the ranks run with AddressSanitizer and UBSan but
 * without leak detection: Open MPI 4.1 keeps allocations past MPI_Finalize
 * in plugins whose frames LeakSanitizer cannot name (and its slow unwinder
 * crashes under Open MPI's threads); the sweep code the ranks run is
 * leak-checked by tests/e2e/test_sweep.c.  Nothing is skipped.
 */
#define _GNU_SOURCE

#include <check.h>
#include <dirent.h>

#include "test_sweep_util.h"
#include "rs_test.h"
#include "rs_test_mpi.h"

#define MODEL "generated/pendulum"

static const char *kBase =
    "duration 2\nstep 1e-3\noutput 0.01\nmethod rk4\ninitial th = 2.5\ncolumns th th_dot height\n";

/* Runs `railsym sweep MODEL ARGS... -o out [--mpi under mpirun -np 3]`. */
static int sweep_of(const char *model, int mpi, const char *out, const char *log, const char *const *args)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = sweep_railsym_bin();
    argv[n++] = "sweep";
    argv[n++] = model;
    for (const char *const *a = args; *a; a++)
        argv[n++] = *a;
    argv[n++] = "-o";
    argv[n++] = out;
    if (mpi)
        argv[n++] = "--mpi";
    argv[n] = NULL;
    return mpi ? rs_test_mpi_run(3, argv, log) : sweep_run((char **)argv, log);
}

static int sweep(int mpi, const char *out, const char *log, const char *const *args)
{
    return sweep_of(MODEL, mpi, out, log, args);
}

/* The lines of `text` that start with `prefix`, each with its '\n'
 * (malloc), and their count into *n. */
static char *lines_with(const char *text, const char *prefix, int *n)
{
    char *out = calloc(strlen(text) + 1, 1);
    ck_assert_ptr_nonnull(out);
    size_t k = 0;
    *n = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (strncmp(p, prefix, strlen(prefix)) == 0) {
            memcpy(out + k, p, len);
            k += len;
            out[k++] = '\n';
            ++*n;
        }
        p += len + (end != NULL);
    }
    out[k] = '\0';
    return out;
}

static int same_in(const char *a, const char *b, const char *name)
{
    char pa[700], pb[700];
    snprintf(pa, sizeof pa, "%s/%s", a, name);
    snprintf(pb, sizeof pb, "%s/%s", b, name);
    return sweep_same_file(pa, pb);
}

START_TEST(mpi_equals_local)
{
    char dir[512], base[600], loc[600], mpi[600], log[600];
    sweep_scratch(dir, sizeof dir, "mpi");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(loc, sizeof loc, "%s/local", dir);
    snprintf(mpi, sizeof mpi, "%s/mpi", dir);
    snprintf(log, sizeof log, "%s/mpi.log", dir);
    sweep_write(base, kBase);
    const char *args[] = {"-s", base, "--vary", "l=0.5:1.6:4", "--vary", "th_dot=0:2:3", "-f", "max:th",
                          "-f", "rms:th_dot", "-j", "2", NULL};
    ck_assert_int_eq(sweep(0, loc, NULL, args), 0);
    const int st = sweep(1, mpi, log, args);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(st == 0, "mpirun exited %d:\n%s", st, text ? text : "");
    ck_assert_msg(strstr(text, "12 variants: 12 ok, 0 failed, 0 pending (12 run now") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "MPI overhead") != NULL, "%s", text);
    free(text);
    ck_assert(same_in(loc, mpi, "summary.csv"));
    ck_assert(same_in(loc, mpi, "variants.csv"));
    for (int i = 1; i <= 12; i++) {
        char name[32];
        snprintf(name, sizeof name, "v%04d.csv", i);
        ck_assert_msg(same_in(loc, mpi, name), "%s differs", name);
    }
    sweep_rm_rf(dir);
}
END_TEST

START_TEST(mpi_failed_variant_leaves_the_others)
{
    char dir[512], base[600], list[600], loc[600], mpi[600], log[600];
    sweep_scratch(dir, sizeof dir, "mpifail");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(list, sizeof list, "%s/list.csv", dir);
    snprintf(loc, sizeof loc, "%s/local", dir);
    snprintf(mpi, sizeof mpi, "%s/mpi", dir);
    snprintf(log, sizeof log, "%s/mpi.log", dir);
    sweep_write(base, kBase);
    sweep_write(list, "m,J\n2,0.1\n0,0\n1,0.05\n");
    const char *args[] = {"-s", base, "--list", list, "--vary", "l=0.5,1", "-f", "absmax:th", NULL};
    ck_assert_int_eq(sweep(0, loc, NULL, args), 0);
    ck_assert_int_eq(sweep(1, mpi, log, args), 0);
    ck_assert(same_in(loc, mpi, "summary.csv"));
    char path[700];
    snprintf(path, sizeof path, "%s/summary.csv", mpi);
    char *s = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(strstr(s, "\n3,failed,0,0,0.5,,\"model 'pendulum': initial state:"));
    ck_assert_ptr_nonnull(strstr(s, "\n4,failed,0,0,1,,\""));
    ck_assert_ptr_nonnull(strstr(s, "its mass is 0 kg"));
    for (int i = 1; i <= 6; i++) {
        snprintf(path, sizeof path, "%s/v%04d.%s", mpi, i, i == 3 || i == 4 ? "failed" : "csv");
        ck_assert_msg(access(path, R_OK) == 0, "%s missing", path);
    }
    free(s);
    sweep_rm_rf(dir);
}
END_TEST

START_TEST(mpi_resumes)
{
    char dir[512], base[600], loc[600], mpi[600], log[600];
    sweep_scratch(dir, sizeof dir, "mpiresume");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(loc, sizeof loc, "%s/local", dir);
    snprintf(mpi, sizeof mpi, "%s/mpi", dir);
    snprintf(log, sizeof log, "%s/mpi.log", dir);
    sweep_write(base, kBase);
    const char *first[] = {"-s", base, "--vary", "g=5:15:6", "-f", "final:th", "--max-variants", "2", NULL};
    const char *all[] = {"-s", base, "--vary", "g=5:15:6", "-f", "final:th", NULL};
    ck_assert_int_eq(sweep(1, mpi, NULL, first), 0);
    ck_assert_int_eq(sweep(1, mpi, log, all), 0);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(text, "(4 run now, 2 done before)") != NULL, "%s", text);
    free(text);
    ck_assert_int_eq(sweep(0, loc, NULL, all), 0);
    ck_assert(same_in(loc, mpi, "summary.csv"));
    sweep_rm_rf(dir);
}
END_TEST

/* A single model's variants' events (docs/sweeps.md "Events") under MPI:
 * the climb rig thrown at 0.2, 6 and 6 m/s (the last two climb and derail
 * at 2.7 ms), quiet: every variant's "vNNNN: " lines once each, the same
 * as on local threads (rank 0 prints what the worker collected), and the
 * same summary (v0002, v0003 `derailed`). */
START_TEST(mpi_prints_events)
{
    RS_REQUIRE_MODEL("climb");
    char dir[512], base[600], loc[600], mpi[600], llog[600], mlog[600], text[1200];
    sweep_scratch(dir, sizeof dir, "mpievents");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(loc, sizeof loc, "%s/local", dir);
    snprintf(mpi, sizeof mpi, "%s/mpi", dir);
    snprintf(llog, sizeof llog, "%s/local.log", dir);
    snprintf(mlog, sizeof mlog, "%s/mpi.log", dir);
    sweep_throw_scenario(text, sizeof text);
    sweep_write(base, text);
    const char *args[] = {"-s", base, "--vary", "y_dot=0.2,6,6", "--quiet", NULL};
    ck_assert_int_eq(sweep_of("generated/climb", 0, loc, llog, args), 0);
    ck_assert_int_eq(sweep_of("generated/climb", 1, mpi, mlog, args), 0);
    char *lt = sweep_slurp(llog, NULL), *mt = sweep_slurp(mlog, NULL);
    ck_assert(lt && mt);
    printf("local:\n%sMPI:\n%s", lt, mt);
    for (int i = 1; i <= 3; i++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "railsym sweep: v%04d: ", i);
        int nl, nm;
        char *a = lines_with(lt, prefix, &nl), *b = lines_with(mt, prefix, &nm);
        ck_assert_msg(strcmp(a, b) == 0 && nl == (i == 1 ? 0 : 2), "v%04d: local (%d lines):\n%sMPI (%d):\n%s", i,
                      nl, a, nm, b);
        ck_assert_msg(i == 1 || strstr(a, ": t = 0.0027 s: contact 'left': derailment, the contact passed"), "%s", a);
        free(a);
        free(b);
    }
    free(lt);
    free(mt);
    ck_assert(same_in(loc, mpi, "summary.csv"));
    char path[700];
    snprintf(path, sizeof path, "%s/summary.csv", mpi);
    char *sum = sweep_slurp(path, NULL);
    ck_assert_msg(sum && strstr(sum, "\n2,derailed,6,\"stopped by a derailment: ") &&
                      strstr(sum, "\n3,derailed,6,\"stopped by a derailment: "),
                  "%s", sum ? sum : "");
    free(sum);
    sweep_rm_rf(dir);
}
END_TEST

int main(void)
{
    rs_test_mpi_allow_root();
    Suite *s = suite_create("sweep_mpi");
    TCase *tc = tcase_create("mpi");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, mpi_equals_local);
    tcase_add_test(tc, mpi_failed_variant_leaves_the_others);
    tcase_add_test(tc, mpi_resumes);
    tcase_add_test(tc, mpi_prints_events);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
