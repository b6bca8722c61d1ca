/*
 * test_sweep.c — parameter sweeps (issue 11, items 1) and the thread pool.
 *
 *   spec      --vary/--list parsing, grid order, figures of a CSV by hand
 *   pool      greedy longest-first plan against a hand-worked example; every
 *             task runs exactly once per section, on its planned thread;
 *             thousands of sections (the barrier); dynamic = heaviest first
 *   sweep     12 variants with --jobs 2 give, file by file, the bytes of 12
 *             separate `railsym run` calls; figures against the test's own
 *             computation from those files; a failing variant is recorded
 *             with its message while the others complete; a sweep killed
 *             after a few variants and re-run finishes the rest without
 *             touching finished files, and its summary equals an
 *             uninterrupted sweep's; the command's errors; track and
 *             profile files as variables (a list of tracks times a --vary
 *             of wheel profiles on the conical wheelset: separate runs'
 *             bytes, a raised track lifts it by 10 mm); the variable
 *             `speed` (forward and spin velocities, r0 varied too); a
 *             train file's variants (set lines, --threads) against
 *             separate runs
 *
 * The command is $RAILSYM_BIN (the sanitizer pass tests the sanitizer
 * build); the model is the shipped generated/pendulum.
 */
#define _GNU_SOURCE

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdatomic.h>
#include <time.h>

#include "rs_pool.h"
#include "rs_status.h"
#include "rs_sweep.h"
#include "test_sweep_util.h"
#include "rs_test.h"

#define MODEL "generated/pendulum"

/* ---------------------------------------------------------------- spec */

START_TEST(vary_range_hits_both_ends_exactly)
{
    rs_sweep_spec *s;
    char err[512];
    ck_assert_int_eq(rs_sweep_spec_create(&s), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_vary(s, "k = 1:2:5", err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_count(s), 5);
    const double want[] = {1, 1.25, 1.5, 1.75, 2};
    for (int i = 0; i < 5; i++) {
        double v;
        rs_sweep_spec_values(s, i, &v);
        ck_assert(v == want[i]);
    }
    ck_assert_str_eq(rs_sweep_spec_var(s, 0), "k");
    rs_sweep_spec_free(&s);
}
END_TEST

START_TEST(vary_rejects_bad_syntax)
{
    const char *bad[] = {"k", "k=1:2", "k=1:2:0", "k=1:2:2.5", "=1:2:3", "k=a,b", "k=1,,2", "k=1:2:1", "k-x=1"};
    for (size_t n = 0; n < sizeof bad / sizeof bad[0]; n++) {
        rs_sweep_spec *s;
        char err[512] = "";
        rs_sweep_spec_create(&s);
        ck_assert_msg(rs_sweep_spec_vary(s, bad[n], err, sizeof err) == RS_E_ARG, "%s accepted", bad[n]);
        ck_assert_msg(err[0] != '\0', "%s: no message", bad[n]);
        rs_sweep_spec_free(&s);
    }
    rs_sweep_spec *s;
    char err[512];
    rs_sweep_spec_create(&s);
    ck_assert_int_eq(rs_sweep_spec_vary(s, "k=1,2", err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_vary(s, "k=3:4:2", err, sizeof err), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "twice"));
    ck_assert_int_eq(rs_sweep_spec_figure(s, "peak:y", err, sizeof err), RS_E_ARG);
    ck_assert_int_eq(rs_sweep_spec_figure(s, "max", err, sizeof err), RS_E_ARG);
    rs_sweep_spec_free(&s);
}
END_TEST

/* List rows times the grid; the first axis slowest, the last fastest. */
START_TEST(list_times_grid_in_order)
{
    char dir[512], path[600], err[512];
    sweep_scratch(dir, sizeof dir, "spec");
    snprintf(path, sizeof path, "%s/list.csv", dir);
    sweep_write(path, "# two rows\nm , J\n2, 0.1\n\n3,0.2\n");
    rs_sweep_spec *s;
    rs_sweep_spec_create(&s);
    ck_assert_int_eq(rs_sweep_spec_vary(s, "a=1,2", err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_vary(s, "b=10:30:3", err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_list(s, path, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_count(s), 12);
    ck_assert_int_eq(rs_sweep_spec_nvars(s), 4);
    ck_assert_str_eq(rs_sweep_spec_var(s, 0), "m");
    ck_assert_str_eq(rs_sweep_spec_var(s, 1), "J");
    ck_assert_str_eq(rs_sweep_spec_var(s, 2), "a");
    ck_assert_str_eq(rs_sweep_spec_var(s, 3), "b");
    double v[4];
    rs_sweep_spec_values(s, 4, v);   /* row 0, a = 2, b = 20 */
    ck_assert(v[0] == 2 && v[1] == 0.1 && v[2] == 2 && v[3] == 20);
    rs_sweep_spec_values(s, 11, v);  /* row 1, a = 2, b = 30 */
    ck_assert(v[0] == 3 && v[1] == 0.2 && v[2] == 2 && v[3] == 30);
    rs_sweep_spec_free(&s);

    sweep_write(path, "m,J\n2,0.1\n3\n");
    rs_sweep_spec_create(&s);
    ck_assert_int_eq(rs_sweep_spec_list(s, path, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, ":3: row has 1 fields, the header 2") != NULL, "%s", err);
    rs_sweep_spec_free(&s);
    sweep_rm_rf(dir);
}
END_TEST

START_TEST(figures_of_a_csv_by_hand)
{
    rs_sweep_spec *s;
    char err[512];
    rs_sweep_spec_create(&s);
    const char *figs[] = {"max:x", "min:y", "absmax:y", "rms:x", "mean:y", "final:x", "max:time"};
    for (int f = 0; f < 7; f++)
        ck_assert_int_eq(rs_sweep_spec_figure(s, figs[f], err, sizeof err), RS_OK);
    ck_assert_str_eq(rs_sweep_spec_figure_name(s, 3), "rms(x)");
    const char *csv = "time,x,y\n0,1,-3\n0.5,3,4\n1,2,0.5\n";
    double fig[7];
    ck_assert_int_eq(rs_sweep_figures_of_csv(s, csv, strlen(csv), fig, err, sizeof err), RS_OK);
    ck_assert(fig[0] == 3);
    ck_assert(fig[1] == -3);
    ck_assert(fig[2] == 4);
    ck_assert_double_eq_tol(fig[3], sqrt((1.0 + 9.0 + 4.0) / 3.0), 1e-15);
    ck_assert_double_eq_tol(fig[4], 0.5, 1e-15);
    ck_assert(fig[5] == 2);
    ck_assert(fig[6] == 1);
    const char *bad = "time,x\n0,1\n";
    ck_assert_int_eq(rs_sweep_figures_of_csv(s, bad, strlen(bad), fig, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "no column 'y'"));
    rs_sweep_spec_free(&s);
}
END_TEST

/* ---------------------------------------------------------------- pool */

typedef struct pool_probe {
    atomic_int runs[64];
    int thread_of[64];
    int seq[64];
    atomic_int nseq;
} pool_probe;

static void probe_task(void *ctx, int task, int thread)
{
    pool_probe *p = ctx;
    atomic_fetch_add(&p->runs[task], 1);
    p->thread_of[task] = thread;
    p->seq[atomic_fetch_add(&p->nseq, 1)] = task;
}

/* Seed 000 §2.3 on costs 7 5 4 3 3 2 and two threads: 7|5, 4 -> B (5 < 7),
 * 3 -> A (7 < 9), 3 -> B (9 < 10), 2 -> A (10 < 12): loads 12 and 12. */
START_TEST(plan_is_greedy_longest_first)
{
    rs_pool *p;
    char err[256];
    ck_assert_int_eq(rs_pool_create(&p, 2, 16, err, sizeof err), RS_OK);
    const double cost[6] = {3, 7, 2, 5, 4, 3};   /* the same costs, shuffled */
    ck_assert_int_eq(rs_pool_plan(p, 6, cost), RS_OK);
    const int want[6] = {0, 0, 0, 1, 1, 1};       /* task -> thread */
    for (int t = 0; t < 6; t++)
        ck_assert_int_eq(rs_pool_plan_thread(p, t), want[t]);
    ck_assert(rs_pool_plan_load(p, 0) == 12 && rs_pool_plan_load(p, 1) == 12);
    pool_probe probe;
    memset(&probe, 0, sizeof probe);
    ck_assert_int_eq(rs_pool_run(p, 6, probe_task, &probe), RS_OK);
    for (int t = 0; t < 6; t++) {
        ck_assert_int_eq(atomic_load(&probe.runs[t]), 1);
        ck_assert_int_eq(probe.thread_of[t], want[t]);
    }
    ck_assert_int_eq(rs_pool_run(p, 5, probe_task, &probe), RS_E_ARG);   /* not the planned n */
    int order[6];
    rs_pool_sort_by_cost(6, cost, order);
    const int sorted[6] = {1, 3, 4, 0, 5, 2};     /* ties (3, 3) by index */
    for (int k = 0; k < 6; k++)
        ck_assert_int_eq(order[k], sorted[k]);
    rs_pool_free(&p);
    ck_assert_ptr_null(p);
}
END_TEST

static void sum_task(void *ctx, int task, int thread)
{
    (void)thread;
    atomic_fetch_add((atomic_long *)ctx, task + 1);
}

START_TEST(thousands_of_sections_every_task_once)
{
    rs_pool *p;
    ck_assert_int_eq(rs_pool_create(&p, 3, 40, NULL, 0), RS_OK);
    double cost[40];
    for (int i = 0; i < 40; i++)
        cost[i] = (double)((i * 7919) % 13);
    ck_assert_int_eq(rs_pool_plan(p, 40, cost), RS_OK);
    atomic_long sum = 0;
    for (int k = 0; k < 3000; k++) {
        switch (k % 3) {
        case 0: rs_pool_run(p, 40, sum_task, &sum); break;
        case 1: rs_pool_run_dynamic(p, 40, cost, sum_task, &sum); break;
        default: rs_pool_parallel(p, sum_task, &sum); break;   /* tasks 0, 1, 2 */
        }
    }
    ck_assert_int_eq(atomic_load(&sum), 1000L * 820 + 1000L * 820 + 1000L * 6);
    rs_pool_set_timing(p, 1);
    rs_pool_run(p, 40, sum_task, &sum);
    for (int i = 0; i < 40; i++)
        ck_assert(rs_pool_task_seconds(p)[i] >= 0);
    rs_pool_free(&p);
}
END_TEST

START_TEST(dynamic_runs_heaviest_first)
{
    rs_pool *p;
    ck_assert_int_eq(rs_pool_create(&p, 1, 8, NULL, 0), RS_OK);
    const double cost[5] = {1, 9, 4, 9, 0.5};
    pool_probe probe;
    memset(&probe, 0, sizeof probe);
    ck_assert_int_eq(rs_pool_run_dynamic(p, 5, cost, probe_task, &probe), RS_OK);
    const int want[5] = {1, 3, 2, 0, 4};
    for (int k = 0; k < 5; k++)
        ck_assert_int_eq(probe.seq[k], want[k]);
    rs_pool_free(&p);
    ck_assert_int_eq(rs_pool_create(&p, 0, 8, NULL, 0), RS_E_ARG);
    ck_assert_ptr_null(p);
}
END_TEST

/* ---------------------------------------------------------------- sweeps */

static const char *kBase =
    "duration 2\nstep 1e-3\noutput 0.01\nmethod rk4\ninitial th = 2.5\ncolumns th th_dot height\n";

/* Values of variant i (1-based) as variants.csv lists them. */
static int variant_values(const char *dir, int i, char *names, size_t nlen, double *v, int max)
{
    char path[700];
    snprintf(path, sizeof path, "%s/variants.csv", dir);
    char *text = sweep_slurp(path, NULL);
    if (!text)
        return -1;
    char *save, *line = strtok_r(text, "\n", &save);
    snprintf(names, nlen, "%s", line);
    int n = -1;
    for (int k = 1; (line = strtok_r(NULL, "\n", &save)); k++)
        if (k == i) {
            char *p = strchr(line, ',');
            n = 0;
            while (p && n < max) {
                v[n++] = strtod(p + 1, &p);
                p = *p == ',' ? p : NULL;
            }
        }
    free(text);
    return n;
}

/* max and rms of a column of a results file, computed here. */
static void column_figures(const char *path, int col, double *max, double *rms)
{
    char *text = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(text);
    char *save, *line = strtok_r(text, "\n", &save);
    double mx = -INFINITY, ss = 0;
    long n = 0;
    while ((line = strtok_r(NULL, "\n", &save))) {
        char *p = line;
        for (int k = 0; k < col; k++)
            p = strchr(p, ',') + 1;
        const double v = strtod(p, NULL);
        mx = v > mx ? v : mx;
        ss += v * v;
        n++;
    }
    *max = mx;
    *rms = sqrt(ss / (double)n);
    free(text);
}

START_TEST(sweep_equals_separate_runs)
{
    char dir[512], base[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "sweep");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    sweep_write(base, kBase);
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--scenario", base, "--vary", "l=0.5:1.6:4",
                    "--vary", "th_dot=0:2:3", "--figure", "max:th", "--figure", "rms:th_dot", "--jobs", "2",
                    "--out", out, NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    char summary[700];
    snprintf(summary, sizeof summary, "%s/summary.csv", out);
    char *sum = sweep_slurp(summary, NULL);
    ck_assert_ptr_nonnull(sum);
    ck_assert(strncmp(sum, "variant,status,l,th_dot,max(th),rms(th_dot),message\n", 52) == 0);
    char *row = strchr(sum, '\n') + 1;
    for (int i = 1; i <= 12; i++) {
        char names[256], scn[700], csv[700], mine[700];
        double v[2];
        ck_assert_int_eq(variant_values(out, i, names, sizeof names, v, 2), 2);
        ck_assert_str_eq(names, "variant,l,th_dot");
        /* the grid, independently: l slowest, th_dot fastest, ends exact */
        const double l_want[4] = {0.5, 0.5 + 1.1 / 3, 0.5 + 2.2 / 3, 1.6};
        ck_assert_double_eq_tol(v[0], l_want[(i - 1) / 3], 1e-15);
        ck_assert(v[1] == (double)((i - 1) % 3));
        snprintf(scn, sizeof scn, "%s/v%d.scn", dir, i);
        char text[600];
        snprintf(text, sizeof text, "%sparam l = %.17g\ninitial th_dot = %.17g\n", kBase, v[0], v[1]);
        sweep_write(scn, text);
        snprintf(mine, sizeof mine, "%s/run%d.csv", dir, i);
        char *run[] = {(char *)sweep_railsym_bin(), "run", MODEL, "--scenario", scn, "--out", mine, "--quiet", NULL};
        ck_assert_int_eq(sweep_run(run, NULL), 0);
        snprintf(csv, sizeof csv, "%s/v%04d.csv", out, i);
        ck_assert_msg(sweep_same_file(csv, mine), "variant %d differs from its separate run", i);
        /* its summary row: number, ok, values, figures from the file */
        double mx, rms;
        column_figures(mine, 1, &mx, &rms);
        double rms2;
        column_figures(mine, 2, &(double){0}, &rms2);
        char want[512];
        snprintf(want, sizeof want, "%d,ok,%.17g,%.17g,%.17g,", i, v[0], v[1], mx);
        ck_assert_msg(strncmp(row, want, strlen(want)) == 0, "row %d: %.80s, want %s", i, row, want);
        const double rms_row = strtod(row + strlen(want), NULL);
        ck_assert_double_eq_tol(rms_row, rms2, 1e-14 * rms2);
        row = strchr(row, '\n') + 1;
    }
    free(sum);
    sweep_rm_rf(dir);
}
END_TEST

/* Runs argv, which must fail (exit status != 0) with `want` in its output. */
static void expect_failure(char *const argv[], const char *log, const char *want)
{
    ck_assert_int_ne(sweep_run(argv, log), 0);
    char *s = sweep_slurp(log, NULL);
    ck_assert_msg(s && strstr(s, want) != NULL, "'%s' not in: %s", want, s ? s : "(no output)");
    free(s);
}

/* Writes `text` to DIR/vI.EXT (a scenario or a train file), runs `railsym
 * run TARGET` with it (a model's --scenario, or the train file itself), and
 * requires its CSV to be the bytes of the sweep's OUT/vNNNN.csv. */
static void same_as_separate_run(const char *dir, const char *out, int i, const char *target, const char *ext,
                                 const char *text)
{
    char file[700], mine[700], csv[700];
    snprintf(file, sizeof file, "%s/v%d.%s", dir, i, ext);
    sweep_write(file, text);
    snprintf(mine, sizeof mine, "%s/run%d.csv", dir, i);
    char *scn_run[] = {(char *)sweep_railsym_bin(), "run", (char *)target, "--scenario", file,
                       "--out", mine, "--quiet", NULL};
    char *train_run[] = {(char *)sweep_railsym_bin(), "run", file, "--out", mine, "--quiet", NULL};
    ck_assert_int_eq(sweep_run(target ? scn_run : train_run, NULL), 0);
    snprintf(csv, sizeof csv, "%s/v%04d.csv", out, i);
    ck_assert_msg(sweep_same_file(csv, mine), "variant %d differs from its separate run", i);
}

/* Track and profile files as sweep variables: a --list column of tracks
 * (relative to the list's folder) times a --vary axis of wheel profiles on
 * the conical wheelset.  Each variant's CSV must be the bytes of a separate
 * `railsym run` whose scenario names the same files; and the files must
 * really be used: the track raised by 10 mm lifts the wheelset by 10 mm
 * (final z), and the two tapers give different lateral motions. */
START_TEST(sweep_over_track_and_profile_files)
{
    char dir[512], base[600], out[600], log[600], list[600], path[700], cwd[2048];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    sweep_scratch(dir, sizeof dir, "sweepfiles");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    snprintf(list, sizeof list, "%s/tracks.csv", dir);
    static const char kScn[] = "duration 0.3\nstep 1e-3\noutput 0.05\ninitial x_dot = 10\n"
                               "initial spin_dot = 20\ninitial y = 0.002\ncolumns z y yaw\n";
    sweep_write(base, kScn);
    snprintf(path, sizeof path, "%s/level.trk", dir);
    sweep_write(path, "railsym-track 1\nname level\ngauge 1.435\ninclination 1:40\n"
                      "origin x -10 y 0 z 0 heading 0 s -10\nstraight 2010\n");
    snprintf(path, sizeof path, "%s/raised.trk", dir);
    sweep_write(path, "railsym-track 1\nname raised\ngauge 1.435\ninclination 1:40\n"
                      "origin x -10 y 0 z 0.01 heading 0 s -10\nstraight 2010\n");
    sweep_write(list, "track\nlevel.trk\nraised.trk\n");
    char prof[2][2200], vary[4500];
    snprintf(prof[0], sizeof prof[0], "%s/vehicles/profiles/cone_1in20.prf", cwd);
    snprintf(prof[1], sizeof prof[1], "%s/vehicles/profiles/cone_1in40.prf", cwd);
    snprintf(vary, sizeof vary, "wheel_profile=%s,%s", prof[0], prof[1]);
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", "generated/wheelset_cone", "--scenario", base,
                    "--list", list, "--vary", vary, "--figure", "final:z", "--figure", "absmax:y",
                    "--jobs", "2", "--out", out, NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    snprintf(path, sizeof path, "%s/summary.csv", out);
    char *sum = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(sum);
    ck_assert_msg(strncmp(sum, "variant,status,track,wheel_profile,final(z),absmax(y),message\n", 62) == 0, "%s", sum);
    char *row = strchr(sum, '\n') + 1;
    double z[4], y[4];
    for (int i = 1; i <= 4; i++) {
        const char *trk = (i - 1) / 2 ? "raised.trk" : "level.trk";
        const char *whl = prof[(i - 1) % 2];
        /* the row names the files: the track as seen from here */
        char want[5000];
        snprintf(want, sizeof want, "%d,ok,\"%s/%s\",\"%s\",", i, dir, trk, whl);
        ck_assert_msg(strncmp(row, want, strlen(want)) == 0, "row %d: %.300s\nwant %s", i, row, want);
        char *end;
        z[i - 1] = strtod(row + strlen(want), &end);
        y[i - 1] = strtod(end + 1, NULL);
        row = strchr(row, '\n') + 1;
        /* a separate run of the same files */
        char text[6000];
        snprintf(text, sizeof text, "%strack \"%s\"\nwheel_profile \"%s\"\n", kScn, trk, whl);
        same_as_separate_run(dir, out, i, "generated/wheelset_cone", "scn", text);
    }
    printf("sweep over files: final z %.12f / %.12f m (level), %.12f / %.12f m (raised); "
           "max |y| %.6g (1:20) vs %.6g m (1:40)\n", z[0], z[1], z[2], z[3], y[0], y[1]);
    for (int k = 0; k < 2; k++)
        ck_assert_msg(fabs(z[2 + k] - z[k] - 0.01) < 1e-9, "raised track: z %g vs %g", z[2 + k], z[k]);
    ck_assert_msg(fabs(y[0] - y[1]) > 1e-7, "the tapers gave the same motion: %g %g", y[0], y[1]);
    free(sum);

    /* errors: a missing file, LO:HI:N for files, a model without contacts */
    char *missing[] = {(char *)sweep_railsym_bin(), "sweep", "generated/wheelset_cone", "--vary",
                       "track=nowhere.trk", "-o", out, NULL};
    expect_failure(missing, log, "track: cannot open 'nowhere.trk'");
    char *range[] = {(char *)sweep_railsym_bin(), "sweep", "generated/wheelset_cone", "--vary", "track=0:1:3",
                     "-o", out, NULL};
    expect_failure(range, log, "takes file names");
    snprintf(vary, sizeof vary, "track=%s/level.trk", dir);
    char *nocontact[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", vary, "-o", out, NULL};
    expect_failure(nocontact, log, "has no contacts");
    sweep_rm_rf(dir);
}
END_TEST

/* The sweep variable `speed` is the scenario line `speed V` (rs_speed.h):
 * each variant equals a separate run with that line and the variant's r0
 * written here (test_speed checks what the line sets). */
START_TEST(sweep_over_speed_sets_rolling_velocities)
{
    char dir[512], base[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "sweepspeed");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    static const char kScn[] = "duration 0.2\nstep 1e-3\noutput 0.05\ninitial y = 0.002\ncolumns y yaw\n";
    sweep_write(base, kScn);
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", "generated/wheelset_cone", "--scenario", base,
                    "--vary", "speed=10,25", "--vary", "r0=0.45,0.5", "--jobs", "2", "--out", out, NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    for (int i = 1; i <= 4; i++) {
        const double v = i <= 2 ? 10 : 25, r0 = (i - 1) % 2 ? 0.5 : 0.45;
        char text[1000];
        snprintf(text, sizeof text, "%sparam r0 = %.17g\nspeed %.17g\n", kScn, r0, v);
        same_as_separate_run(dir, out, i, "generated/wheelset_cone", "scn", text);
    }
    /* errors: a speed and a velocity it sets; a model without a forward coordinate */
    char *both[] = {(char *)sweep_railsym_bin(), "sweep", "generated/wheelset_cone", "--vary", "speed=1,2",
                    "--vary", "spin_dot=1", "-o", out, NULL};
    expect_failure(both, log, "'speed' sets 'spin_dot', which is varied too");
    char *nofwd[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", "speed=1,2", "-o", out, NULL};
    expect_failure(nofwd, log, "has no coordinate named 'x'");
    sweep_rm_rf(dir);
}
END_TEST

/* A sweep in the elastic contact mode (scenario `contact elastic`, docs/
 * runtime.md "Elastic contact"): each variant equals its separate run, and
 * the runs are elastic (their `left.patches` column counts patches; the
 * constraint contact has none of these columns' meaning: patches 1). */
START_TEST(sweep_elastic_contact)
{
    char dir[512], base[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "sweepelastic");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    static const char kScn[] = "duration 0.1\nstep 1e-4\noutput 0.05\ncontact elastic\ninitial y = 0.002\n"
                               "columns y yaw left.patches left.p1.pen left.Q\n";
    sweep_write(base, kScn);
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", "generated/wheelset_cone", "--scenario", base,
                    "--vary", "speed=10,25", "--jobs", "2", "--out", out, NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    for (int i = 1; i <= 2; i++) {
        const double v = i == 1 ? 10 : 25;
        char text[1000];
        snprintf(text, sizeof text, "%sinitial x_dot = %.17g\ninitial spin_dot = %.17g\n", kScn, v, v / 0.45);
        same_as_separate_run(dir, out, i, "generated/wheelset_cone", "scn", text);
    }
    sweep_rm_rf(dir);
}
END_TEST

/* A sweep over a train file: `set` lines for a vehicle type's parameter and
 * the train's speed, two variants at a time with two threads each; every
 * variant's CSV is the bytes of `railsym run` of the file with the same set
 * lines appended (on one thread: trains are bit-identical for any thread
 * count), and the set lines take effect (a heavier wagon pulls harder on
 * the first coupler's mean force: F m_behind / M). */
START_TEST(train_sweep_equals_separate_runs)
{
    char dir[512], train[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "sweeptrain");
    snprintf(train, sizeof train, "%s/t.train", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    static const char kTrain[] = "duration 0.5\nstep 1e-3\noutput 0.1\nvehicle loco\n  traction = 3e5\nend\n"
                                 "order\n  loco\n  wagon 4\nend\n";
    sweep_write(train, kTrain);
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", train, "--vary", "wagon.m_body=40000,80000", "--vary",
                    "speed=0,1", "--figure", "mean:c1.force", "--jobs", "2", "--threads", "2", "--out", out, NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    char path[800];
    snprintf(path, sizeof path, "%s/summary.csv", out);
    char *sum = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(sum);
    ck_assert_msg(strncmp(sum, "variant,status,wagon.m_body,speed,mean(c1.force),message\n", 56) == 0, "%s", sum);
    double mean_force[4];
    char *row = strchr(sum, '\n') + 1;
    for (int i = 1; i <= 4; i++) {
        const double m = i <= 2 ? 40000 : 80000, v = (i - 1) % 2;
        char want[200];
        snprintf(want, sizeof want, "%d,ok,%.17g,%.17g,", i, m, v);
        ck_assert_msg(strncmp(row, want, strlen(want)) == 0, "row %d: %.200s", i, row);
        mean_force[i - 1] = strtod(row + strlen(want), NULL);
        row = strchr(row, '\n') + 1;
        char text[1000];
        snprintf(text, sizeof text, "%s\nset wagon.m_body = %.17g\nset speed = %.17g\n", kTrain, m, v);
        same_as_separate_run(dir, out, i, NULL, "train", text);
    }
    printf("train sweep: mean first-coupler force %.0f N (40 t wagons), %.0f N (80 t)\n", mean_force[0],
           mean_force[2]);
    ck_assert_msg(mean_force[2] > mean_force[0] * 1.1, "the wagon mass had no effect: %g %g", mean_force[0],
                  mean_force[2]);
    free(sum);
    /* errors: an unknown parameter named; --threads for a model */
    char *bad[] = {(char *)sweep_railsym_bin(), "sweep", train, "--vary", "wagon.m_bdy=1,2", "-o", out, NULL};
    expect_failure(bad, log, "cannot vary 'wagon.m_bdy' in");
    expect_failure(bad, log, "did you mean 'm_body'?");
    char *thr[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", "l=1,2", "--threads", "2", "-o", out, NULL};
    ck_assert_int_eq(sweep_run(thr, log), 2);

    /* compiled vehicles: loaded once for the whole sweep, by cc (dlopen) */
    char cwd[512], text[1400], out2[700];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text, "duration 0.05\nstep 1e-3\noutput 0.05\nvehicle fw model %s/generated/freight_wagon\n"
             " traction = 1e5\nend\norder\n fw 3\nend\n", cwd);
    sweep_write(train, text);
    snprintf(out2, sizeof out2, "%s/out2", dir);
    char *cc[] = {(char *)sweep_railsym_bin(), "sweep", train, "--vary", "fw.m_c=50000,60000,70000", "--loader",
                  "dlopen", "--figure", "final:fw1.v", "--jobs", "2", "--out", out2, NULL};
    ck_assert_int_eq(sweep_run(cc, log), 0);
    char *lg = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(lg, "1 compiled vehicle model loaded (dlopen), shared by every variant"), "%s", lg);
    free(lg);
    snprintf(path, sizeof path, "%s/summary.csv", out2);
    sum = sweep_slurp(path, NULL);
    double v_final[3];
    row = strchr(sum, '\n') + 1;
    for (int i = 1; i <= 3; i++) {
        char want[100];
        snprintf(want, sizeof want, "%d,ok,%d,", i, 40000 + 10000 * i);
        ck_assert_msg(strncmp(row, want, strlen(want)) == 0, "row %d: %.200s", i, row);
        v_final[i - 1] = strtod(row + strlen(want), NULL);
        row = strchr(row, '\n') + 1;
    }
    /* the same traction on heavier wagons: a slower train */
    ck_assert_msg(v_final[0] > v_final[1] && v_final[1] > v_final[2] && v_final[2] > 0, "%g %g %g", v_final[0],
                  v_final[1], v_final[2]);
    free(sum);
    sweep_rm_rf(dir);
}
END_TEST

START_TEST(failed_variant_is_recorded_and_others_complete)
{
    char dir[512], base[600], out[600], list[600], log[600];
    sweep_scratch(dir, sizeof dir, "sweepfail");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(list, sizeof list, "%s/list.csv", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    sweep_write(base, kBase);
    /* m = J = 0: a body of no mass, an invalid variant (refused by the inertia check) */
    sweep_write(list, "m,J\n2,0.1\n0,0\n1,0.05\n");
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-s", base, "--list", list, "--vary", "l=0.5,1",
                    "-f", "absmax:th", "-j", "2", "-o", out, NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/summary.csv", out);
    char *sum = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(sum);
    int ok = 0, failed = 0;
    for (char *r = strchr(sum, '\n') + 1; *r; r = strchr(r, '\n') + 1) {
        int i = atoi(r);
        const int is_failed = strstr(r, ",failed,") && strstr(r, ",failed,") < strchr(r, '\n');
        ck_assert_int_eq(is_failed, i == 3 || i == 4);
        if (is_failed) {
            ck_assert_msg(strstr(r, "its mass is 0 kg") && strstr(r, "its mass is 0 kg") < strchr(r, '\n'), "%.200s", r);
            snprintf(path, sizeof path, "%s/v%04d.failed", out, i);
            char *msg = sweep_slurp(path, NULL);
            ck_assert_ptr_nonnull(msg);
            ck_assert_ptr_nonnull(strstr(msg, "its mass is 0 kg"));
            free(msg);
        } else {
            snprintf(path, sizeof path, "%s/v%04d.csv", out, i);
            ck_assert_int_eq(access(path, R_OK), 0);
        }
        ok += !is_failed;
        failed += is_failed;
    }
    ck_assert_int_eq(ok, 4);
    ck_assert_int_eq(failed, 2);
    free(sum);
    char *text = sweep_slurp(log, NULL);
    ck_assert_ptr_nonnull(strstr(text, "6 variants: 4 ok, 2 failed, 0 pending"));
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* The lines of log file `path` that start with `prefix`, without it, each
 * with its '\n' (malloc); the last one left out when drop_last. */
static char *lines_after(const char *path, const char *prefix, int drop_last)
{
    char *text = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(text);
    char *out = calloc(strlen(text) + 1, 1), *last = NULL;
    ck_assert_ptr_nonnull(out);
    size_t k = 0;
    const size_t pl = strlen(prefix);
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= pl && strncmp(p, prefix, pl) == 0) {
            last = out + k;
            memcpy(out + k, p + pl, len - pl);
            k += len - pl;
            out[k++] = '\n';
        }
        p += len + (end != NULL);
    }
    if (drop_last && last)
        k = (size_t)(last - out);
    out[k] = '\0';
    free(text);
    return out;
}

/* A single model's sweep prints its variants' events as a train sweep
 * does (docs/sweeps.md "Events"): the climb rig (generated/climb, elastic
 * contact, FASTSIM μ 0.3) thrown sideways at y_dot 0.2 m/s (no event in
 * 4 ms) and 6 m/s (a flange climb and a derailment at 2.7 ms, which stops
 * the run; at 2 m/s the strip law's rig bounces back off its flange).  Each variant's lines are, word for word, those its own quiet
 * `railsym run` prints (less the run's final error), after "vNNNN: ", on 2
 * jobs, quiet or not; the derailed variant is `derailed` in summary.csv
 * with "stopped by a derailment: " and the driver's words.  Before, the
 * sweep printed no event and said "failed ... simulation failed
 * (RS_E_DERAILED)". */
START_TEST(single_model_sweep_prints_events)
{
    RS_REQUIRE_MODEL("climb");
    char dir[512], base[600], scn[600], out[600], log[600], path[700];
    sweep_scratch(dir, sizeof dir, "sweepevents");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(log, sizeof log, "%s/run.log", dir);
    char text[1200];
    sweep_throw_scenario(text, sizeof text);
    sweep_write(base, text);
    static const char *const ydot[2] = {"0.2", "6"};
    char *want[2];
    for (int i = 0; i < 2; i++) {
        char more[1400];
        snprintf(scn, sizeof scn, "%s/v%d.scn", dir, i + 1);
        snprintf(out, sizeof out, "%s/v%d.csv", dir, i + 1);
        snprintf(more, sizeof more, "%sinitial y_dot = %s\n", text, ydot[i]);
        sweep_write(scn, more);
        char *run[] = {(char *)sweep_railsym_bin(), "run", "generated/climb", "--scenario", scn, "--out", out,
                       "--quiet", NULL};
        ck_assert_int_eq(sweep_run(run, log), i == 0 ? 0 : 1);
        want[i] = lines_after(log, "railsym run: ", i == 1);
        printf("railsym run, y_dot %s:\n%s", ydot[i], want[i]);
    }
    char *err = lines_after(log, "railsym run: model 'climb': simulation failed (RS_E_DERAILED): ", 0);
    ck_assert_msg(!want[0][0] && strstr(want[1], "t = 0.0027 s: contact 'left': flange climbing: ") &&
                      strstr(want[1], "t = 0.0027 s: contact 'left': derailment, the contact passed") && err[0],
                  "%s%s", want[0], want[1]);
    for (int quiet = 0; quiet < 2; quiet++) {
        snprintf(out, sizeof out, "%s/sweep%d", dir, quiet);
        snprintf(log, sizeof log, "%s/sweep%d.log", dir, quiet);
        char *sw[] = {(char *)sweep_railsym_bin(), "sweep", "generated/climb", "--scenario", base, "--vary",
                      "y_dot=0.2,6", "--jobs", "2", "--out", out, quiet ? "--quiet" : NULL, NULL};
        ck_assert_int_eq(sweep_run(sw, log), 0);
        char *all = sweep_slurp(log, NULL);
        printf("railsym sweep%s:\n%s", quiet ? " --quiet" : "", all);
        for (int i = 0; i < 2; i++) {
            char prefix[64];
            snprintf(prefix, sizeof prefix, "railsym sweep: v%04d: ", i + 1);
            char *got = lines_after(log, prefix, 0);
            ck_assert_msg(strcmp(got, want[i]) == 0, "v%04d: the run's lines:\n%sthe sweep's:\n%s", i + 1, want[i],
                          got);
            free(got);
        }
        /* quiet: those lines and nothing else (of the command's) */
        char *ours = lines_after(log, "railsym sweep: ", 0), *ev = lines_after(log, "railsym sweep: v0002: ", 0);
        ck_assert_msg(!quiet || strlen(ours) == strlen(ev) + 2 * strlen("v0002: "), "%s", all);
        free(ours);
        free(ev);
        ck_assert_msg(quiet || strstr(all, "v0002 DERAILED in "), "%s", all);
        free(all);
        snprintf(path, sizeof path, "%s/summary.csv", out);
        char *sum = sweep_slurp(path, NULL);
        ck_assert_ptr_nonnull(sum);
        char row[1200];
        /* the run's message up to its partial file's name (the run's own) */
        ck_assert_ptr_nonnull(strstr(err, "; '"));
        snprintf(row, sizeof row, "\n2,derailed,6,\"stopped by a derailment: %.*s; 'v0002.partial.csv' holds the "
                 "results up to t = 0.002 s\"\n", (int)(strstr(err, "; '") - err), err);
        ck_assert_msg(strstr(sum, "\n1,ok,0.20000000000000001,\n") && strstr(sum, row),
                      "%s", sum);
        free(sum);
    }
    free(err);
    free(want[0]);
    free(want[1]);
    sweep_rm_rf(dir);
}
END_TEST

/* A resumed sweep prints its finished variants' lines again, from the
 * vNNNN.events they left (docs/sweeps.md "Events"): the climb rig thrown
 * at 0.2 and 6 m/s, as a single model and as a train file, swept quiet,
 * then the same command again (every variant done before): the same
 * "vNNNN: " lines.  With --retry-failed the derailed variant runs again
 * and its lines come once, from the run.  A variant that prints nothing
 * leaves no file.  Before, the second sweep printed nothing. */
START_TEST(resumed_sweep_reprints_events)
{
    RS_REQUIRE_MODEL("climb");
    char dir[512], base[600], train[600], out[600], log[600], path[700], cwd[1024], text[2048];
    sweep_scratch(dir, sizeof dir, "sweepresume_events");
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(train, sizeof train, "%s/throw.train", dir);
    sweep_throw_scenario(text, sizeof text);
    sweep_write(base, text);
    /* the same rig as test_train_events's train file */
    snprintf(text, sizeof text,
             "duration 0.004\nstep 1e-4\nspeed 1\nsolver gmres\n"
             "vehicle rig model %s/generated/climb\n"
             "  x_coord x\n  pitch_coord none\n  l_front = 0\n  l_rear = 0\n"
             "  contact elastic\n  creep fastsim\n  contact_mu = 0.3\n  psi = 0.02\n"
             "  yaw = 0.02\n  y = 0.003\n  z = 7e-5\n  roll = 0\n  spin_l = 0\n  spin_r = 0\n"
             "  x_dot = 1\n  y_dot = 0\n  z_dot = 0\n  roll_dot = 0\n  yaw_dot = 0\n"
             "  spin_l_dot = %.17g\n  spin_r_dot = %.17g\nend\norder\n  rig\nend\n",
             cwd, 1 / 0.46, 1 / 0.46);
    sweep_write(train, text);
    for (int t = 0; t < 2; t++) {
        snprintf(out, sizeof out, "%s/out%d", dir, t);
        char *first = NULL;
        for (int k = 0; k < 3; k++) {
            snprintf(log, sizeof log, "%s/sweep%d%d.log", dir, t, k);
            char *sw[16];
            int n = 0;
            sw[n++] = (char *)sweep_railsym_bin();
            sw[n++] = "sweep";
            if (t == 0) {
                sw[n++] = "generated/climb";
                sw[n++] = "--scenario";
                sw[n++] = base;
                sw[n++] = "--vary";
                sw[n++] = "y_dot=0.2,6";
            } else {
                sw[n++] = train;
                sw[n++] = "--vary";
                sw[n++] = "rig.y_dot=0.2,6";
            }
            sw[n++] = "--out";
            sw[n++] = out;
            sw[n++] = "--quiet";
            if (k == 2)
                sw[n++] = "--retry-failed";
            sw[n] = NULL;
            ck_assert_int_eq(sweep_run(sw, log), 0);
            char *got = sweep_slurp(log, NULL);
            ck_assert_ptr_nonnull(got);
            printf("%s sweep, %s:\n%s", t ? "train" : "model", k == 0 ? "first" : k == 1 ? "resumed" : "retry", got);
            if (k == 0) {
                ck_assert_msg(strstr(got, "railsym sweep: v0002: t = 0.002") && !strstr(got, "v0001: "), "%s", got);
                first = got;
                continue;
            }
            ck_assert_msg(strcmp(got, first) == 0, "first:\n%sthen:\n%s", first, got);
            free(got);
        }
        free(first);
        snprintf(path, sizeof path, "%s/v0001.events", out);
        ck_assert_int_ne(access(path, F_OK), 0);
        snprintf(path, sizeof path, "%s/summary.csv", out);
        char *sum = sweep_slurp(path, NULL);
        ck_assert_msg(sum && strstr(sum, "\n2,derailed,"), "%s", sum ? sum : "");
        free(sum);
    }
    sweep_rm_rf(dir);
}
END_TEST

static int count_results(const char *out)
{
    DIR *d = opendir(out);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] == 'v' && strstr(e->d_name, ".csv") && !strstr(e->d_name, "variants");
    closedir(d);
    return n;
}

START_TEST(interrupted_sweep_resumes)
{
    char dir[512], base[600], out[600], ref[600], log[600];
    sweep_scratch(dir, sizeof dir, "sweepkill");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(ref, sizeof ref, "%s/ref", dir);
    snprintf(log, sizeof log, "%s/sweep.log", dir);
    /* long enough variants (about 0.1 s each) to kill the sweep midway */
    char text[512];
    snprintf(text, sizeof text, "duration %d\nstep 1e-3\noutput 0.05\nmethod rk4\ninitial th = 2.5\n",
             sweep_sanitized() ? 30 : 150);
    sweep_write(base, text);
    enum { N = 8 };
    char *argv[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-s", base, "--vary", "l=0.5:1.2:8", "-f", "max:th",
                    "-f", "rms:th_dot", "-j", "1", "-o", out, NULL};
    pid_t pid = sweep_spawn(argv, log);
    int done = 0;
    for (int k = 0; k < 60000 && (done = count_results(out)) < 3; k++)
        usleep(1000);
    kill(pid, SIGKILL);
    sweep_wait(pid);
    done = count_results(out);
    ck_assert_msg(done >= 3 && done < N, "killed after %d of %d variants", done, N);
    /* what is there: identity (inode) and time of every finished file */
    struct stat before[N + 1];
    int had[N + 1];
    char path[700];
    for (int i = 1; i <= N; i++) {
        snprintf(path, sizeof path, "%s/v%04d.csv", out, i);
        had[i] = stat(path, &before[i]) == 0;
    }
    ck_assert_int_eq(sweep_run(argv, log), 0);
    char *msg = sweep_slurp(log, NULL);
    char want[128];
    snprintf(want, sizeof want, "(%d run now, %d done before)", N - done, done);
    ck_assert_msg(strstr(msg, want) != NULL, "%s", msg);
    free(msg);
    for (int i = 1; i <= N; i++) {
        struct stat now;
        snprintf(path, sizeof path, "%s/v%04d.csv", out, i);
        ck_assert_int_eq(stat(path, &now), 0);
        if (had[i]) {
            ck_assert_msg(now.st_ino == before[i].st_ino && now.st_mtim.tv_sec == before[i].st_mtim.tv_sec &&
                              now.st_mtim.tv_nsec == before[i].st_mtim.tv_nsec,
                          "v%04d was run again", i);
        }
    }
    /* no temporary file survives */
    DIR *d = opendir(out);
    struct dirent *e;
    while ((e = readdir(d)))
        ck_assert_msg(strstr(e->d_name, ".tmp") == NULL, "left over: %s", e->d_name);
    closedir(d);
    /* the same sweep uninterrupted */
    char *argv2[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-s", base, "--vary", "l=0.5:1.2:8", "-f", "max:th",
                     "-f", "rms:th_dot", "-j", "2", "-o", ref, "-q", NULL};
    ck_assert_int_eq(sweep_run(argv2, NULL), 0);
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/summary.csv", out);
    snprintf(b, sizeof b, "%s/summary.csv", ref);
    ck_assert(sweep_same_file(a, b));
    sweep_rm_rf(dir);
}
END_TEST

/* Resuming in batches: --max-variants, then the rest. */
START_TEST(batches_resume_to_the_same_summary)
{
    char dir[512], base[600], out[600], ref[600];
    sweep_scratch(dir, sizeof dir, "sweepbatch");
    snprintf(base, sizeof base, "%s/base.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(ref, sizeof ref, "%s/ref", dir);
    sweep_write(base, kBase);
    char *a1[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-s", base, "--vary", "g=5:15:6", "-f", "final:th",
                  "--max-variants", "4", "-o", out, "-q", NULL};
    ck_assert_int_eq(sweep_run(a1, NULL), 0);
    ck_assert_int_eq(count_results(out), 4);
    char path[700];
    snprintf(path, sizeof path, "%s/summary.csv", out);
    char *s = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(strstr(s, ",pending,"));
    free(s);
    a1[10] = "0";
    ck_assert_int_eq(sweep_run(a1, NULL), 0);
    char *a2[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-s", base, "--vary", "g=5:15:6", "-f", "final:th",
                  "-j", "2", "-o", ref, "-q", NULL};
    ck_assert_int_eq(sweep_run(a2, NULL), 0);
    char p2[700];
    snprintf(p2, sizeof p2, "%s/summary.csv", ref);
    ck_assert(sweep_same_file(path, p2));
    /* a different sweep into the same folder is refused */
    char *a3[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-s", base, "--vary", "g=5:15:7", "-o", out, NULL};
    char log[700];
    snprintf(log, sizeof log, "%s/refused.log", dir);
    ck_assert_int_eq(sweep_run(a3, log), 1);
    s = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(s, "holds another sweep") != NULL, "%s", s);
    free(s);
    sweep_rm_rf(dir);
}
END_TEST

START_TEST(command_errors)
{
    char dir[512], log[600], out[600];
    sweep_scratch(dir, sizeof dir, "sweeperr");
    snprintf(log, sizeof log, "%s/err.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    char *unknown[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", "th_dott=1,2", "-o", out, NULL};
    ck_assert_int_eq(sweep_run(unknown, log), 1);
    char *s = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(s, "unknown name 'th_dott' to vary") && strstr(s, "did you mean 'th_dot'?"), "%s", s);
    free(s);
    char *output[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", "height=1,2", "-o", out, NULL};
    ck_assert_int_eq(sweep_run(output, log), 1);
    char *syntax[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", "l=1:2", "-o", out, NULL};
    ck_assert_int_eq(sweep_run(syntax, log), 2);
    char *none[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "-o", out, NULL};
    ck_assert_int_eq(sweep_run(none, log), 2);
    char *fig[] = {(char *)sweep_railsym_bin(), "sweep", MODEL, "--vary", "l=1,2", "-f", "max:zz", "-o", out, NULL};
    ck_assert_int_eq(sweep_run(fig, log), 1);
    s = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(s, "no quantity named 'zz'") != NULL, "%s", s);
    free(s);
    sweep_rm_rf(dir);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *spec = tcase_create("spec");
    tcase_add_test(spec, vary_range_hits_both_ends_exactly);
    tcase_add_test(spec, vary_rejects_bad_syntax);
    tcase_add_test(spec, list_times_grid_in_order);
    tcase_add_test(spec, figures_of_a_csv_by_hand);
    suite_add_tcase(s, spec);
    TCase *pool = tcase_create("pool");
    /* A hang guard, not a speed claim: 9000 barrier-synchronised sections of
     * 3 threads (whose barrier spins before it sleeps) took over Check's
     * default 4 s with 8 test programs sharing 2 cores. */
    tcase_set_timeout(pool, 120);
    tcase_add_test(pool, plan_is_greedy_longest_first);
    tcase_add_test(pool, thousands_of_sections_every_task_once);
    tcase_add_test(pool, dynamic_runs_heaviest_first);
    suite_add_tcase(s, pool);
    TCase *run = tcase_create("run");
    tcase_set_timeout(run, 120);
    tcase_add_test(run, sweep_equals_separate_runs);
    tcase_add_test(run, sweep_over_track_and_profile_files);
    tcase_add_test(run, sweep_over_speed_sets_rolling_velocities);
    tcase_add_test(run, sweep_elastic_contact);
    tcase_add_test(run, train_sweep_equals_separate_runs);
    tcase_add_test(run, failed_variant_is_recorded_and_others_complete);
    tcase_add_test(run, single_model_sweep_prints_events);
    tcase_add_test(run, resumed_sweep_reprints_events);
    tcase_add_test(run, interrupted_sweep_resumes);
    tcase_add_test(run, batches_resume_to_the_same_summary);
    tcase_add_test(run, command_errors);
    suite_add_tcase(s, run);
    return s;
}

RS_TEST_MAIN(sweep_suite)
