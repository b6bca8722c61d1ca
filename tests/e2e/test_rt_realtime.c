/*
 * test_rt_realtime.c — hard real-time pacing and its evidence (runtime/app/rs_realtime.h,
 * the driver's --realtime):
 *
 *   - the histogram's quantiles against nearest-rank quantiles computed here
 *     by sorting the same data (uniform 1..N, a skewed pseudo-random set,
 *     exact small values, values past the resolved range), within the
 *     documented 1/128; its bin layout (contiguous, each value in its bin);
 *   - the loop without the driver: every wait returns no earlier than its
 *     absolute deadline t0 + k·P (read from the clock here), a run of K
 *     ticks lasts at least K·P, a deliberate overrun is a counted miss and
 *     the schedule is kept, CPU time excludes a sleep;
 *   - a paced driver run (0.2 s of the pendulum fixture at 1 ms): wall time
 *     >= simulated time, 200 step times and 200 deadlines reported, the CSV
 *     byte-identical to the unpaced run's; pacing per output interval;
 *     refused settings are warnings, or errors when strict;
 *   - `railsym run --realtime --rt-report FILE` writes the RT lines, and an
 *     --rt-* option without --realtime is bad usage.
 *
 * Only lower bounds on time are checked: a deadline is never met early,
 * whatever the machine's load.  How *little* later than its deadline a run
 * ends depends on the machine, so those figures are benchmarks, not tests:
 * tests/bench/bench_rt_realtime.c prints them (rt_loop.overrun_ms,
 * rt_pendulum.paced_overrun_ms, rt_pendulum.paced_output_overrun_ms).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_driver.h"
#include "rs_clock.h"
#include "rs_realtime.h"
#include "rt_fixtures.h"
#include "rs_test.h"

static rs_realtime_hist H;    /* ~18 KB: off the stack */
static rs_realtime_loop L;

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank quantile of sorted v[0..n): the value of rank ceil(p n), at least 1. */
static int64_t exact_quantile(const int64_t *sorted, size_t n, double p)
{
    size_t r = (size_t)ceil(p * (double)n);
    if (r < 1)
        r = 1;
    if (r > n)
        r = n;
    return sorted[r - 1];
}

static const double P[] = {0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0};
#define NP (sizeof P / sizeof P[0])

/* Records v into H and checks every quantile in P against the sorted copy. */
static void check_quantiles(int64_t *v, size_t n, int exact)
{
    rs_realtime_hist_reset(&H);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        rs_realtime_hist_add(&H, v[i]);
        sum += (double)v[i];
    }
    qsort(v, n, sizeof v[0], cmp_i64);
    ck_assert_uint_eq(H.count, n);
    ck_assert_int_eq(H.min_ns, v[0]);
    ck_assert_int_eq(H.max_ns, v[n - 1]);
    ck_assert_double_eq_tol(H.sum_ns, sum, 1e-9 * sum);
    for (size_t k = 0; k < NP; k++) {
        const int64_t want = exact_quantile(v, n, P[k]), got = rs_realtime_hist_quantile(&H, P[k]);
        const double tol = exact ? 0.0 : (double)want / 128.0 + 1.0;
        ck_assert_msg(fabs((double)(got - want)) <= tol,
                      "p = %g: histogram %lld, exact %lld (tolerance %g)", P[k], (long long)got,
                      (long long)want, tol);
    }
}

static uint64_t lcg_state = 12345;
static double lcg_uniform(void) /* (0, 1) */
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return ((double)(lcg_state >> 11) + 0.5) / 9007199254740992.0;
}

START_TEST(test_hist_uniform)
{
    enum { N = 100000 };
    static int64_t v[N];
    for (int i = 0; i < N; i++) /* 1..N, shuffled */
        v[i] = i + 1;
    for (int i = N - 1; i > 0; i--) {
        int j = (int)(lcg_uniform() * (i + 1));
        int64_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    check_quantiles(v, N, 0);
    /* closed form of 1..N: median 50000, p99 99000, p99.9 99900 */
    ck_assert(llabs(rs_realtime_hist_quantile(&H, 0.5) - 50000) <= 50000 / 128);
    ck_assert(llabs(rs_realtime_hist_quantile(&H, 0.99) - 99000) <= 99000 / 128);
    ck_assert(llabs(rs_realtime_hist_quantile(&H, 0.999) - 99900) <= 99900 / 128);
    ck_assert_int_eq(rs_realtime_hist_quantile(&H, 1.0), 100000);
    rs_realtime_summary s;
    rs_realtime_hist_summary(&H, &s);
    ck_assert_double_eq_tol(s.mean_us, 50.0005, 1e-9);
    ck_assert_double_eq(s.min_us, 0.001);
    ck_assert_double_eq(s.max_us, 100.0);
}
END_TEST

/* A skewed, heavy-tailed set like step times: lognormal around 15 µs with
 * rare 10-1000× outliers. */
START_TEST(test_hist_skewed)
{
    enum { N = 200003 };
    static int64_t v[N];
    for (int i = 0; i < N; i++) {
        double g = sqrt(-2 * log(lcg_uniform())) * cos(6.283185307179586 * lcg_uniform());
        double x = 15000.0 * exp(0.3 * g);
        if (lcg_uniform() < 0.002)
            x *= 10 + 990 * lcg_uniform();
        v[i] = (int64_t)x;
    }
    check_quantiles(v, N, 0);
}
END_TEST

START_TEST(test_hist_small_values_exact)
{
    enum { N = 1000 };
    static int64_t v[N];
    for (int i = 0; i < N; i++)
        v[i] = (int64_t)(lcg_uniform() * 128); /* 0..127: one bin each */
    check_quantiles(v, N, 1);
}
END_TEST

START_TEST(test_hist_edges)
{
    rs_realtime_hist_reset(&H);
    ck_assert_int_eq(rs_realtime_hist_quantile(&H, 0.5), 0); /* empty */
    rs_realtime_hist_add(&H, -5);                             /* counts as 0 */
    ck_assert_int_eq(H.min_ns, 0);
    const int64_t huge = (int64_t)1 << 50; /* past the resolved range: top bin, max exact */
    rs_realtime_hist_add(&H, huge);
    rs_realtime_hist_add(&H, huge);
    ck_assert_int_eq(H.max_ns, huge);
    ck_assert_int_eq(rs_realtime_hist_quantile(&H, 1.0), huge);
    ck_assert_int_eq(rs_realtime_hist_bin_of(huge), RS_REALTIME_HIST_BINS - 1);
    /* one value: every quantile is that value */
    rs_realtime_hist_reset(&H);
    rs_realtime_hist_add(&H, 123456789);
    for (size_t k = 0; k < NP; k++)
        ck_assert_int_eq(rs_realtime_hist_quantile(&H, P[k]), 123456789);
}
END_TEST

/* Bins tile [0, 2^41): contiguous, widths powers of two at most lo/64. */
START_TEST(test_hist_layout)
{
    int64_t next = 0;
    for (int b = 0; b < RS_REALTIME_HIST_BINS; b++) {
        int64_t lo, w;
        rs_realtime_hist_bin_range(b, &lo, &w);
        ck_assert_int_eq(lo, next);
        ck_assert(w == 1 || w * 64 <= lo);
        ck_assert_int_eq(rs_realtime_hist_bin_of(lo), b);
        ck_assert_int_eq(rs_realtime_hist_bin_of(lo + w - 1), b);
        next = lo + w;
    }
    ck_assert_int_eq(next, (int64_t)1 << (RS_REALTIME_HIST_MAX_EXP + 1));
}
END_TEST

/* ---- the loop API, no driver --------------------------------------------- */

static void spin_ns(int64_t ns)
{
    const int64_t end = rs_now_ns() + ns;
    while (rs_now_ns() < end) {
    }
}

START_TEST(test_loop_args)
{
    ck_assert_int_eq(rs_realtime_init(&L, 0.0, 0), RS_E_ARG);
    ck_assert_int_eq(rs_realtime_init(&L, -1e-3, 0), RS_E_ARG);
    ck_assert_int_eq(rs_realtime_init(&L, NAN, 0), RS_E_ARG);
    ck_assert_int_eq(rs_realtime_init(NULL, 1e-3, 0), RS_E_ARG);
    ck_assert_int_eq(rs_realtime_init(&L, 1e-3, 0), RS_OK);
    rs_realtime_start(&L);
    ck_assert_int_eq(rs_realtime_wait_ticks(&L, 0), RS_E_ARG);
}
END_TEST

/* Every return from a wait is at or after its absolute deadline; the run
 * lasts at least K·P (how much more: bench_rt_realtime's rt_loop.overrun_ms). */
START_TEST(test_loop_deadlines)
{
    const double period = 2e-3;
    const int K = 50;
    ck_assert_int_eq(rs_realtime_init(&L, period, RS_REALTIME_CPU_TIME), RS_OK);
    rs_realtime_start(&L);
    const int64_t t0 = L.t0_ns;
    for (int k = 1; k <= K; k++) {
        rs_realtime_begin(&L);
        spin_ns(100000); /* 0.1 ms of work */
        rs_realtime_end(&L);
        const int st = rs_realtime_wait(&L);
        ck_assert(st == RS_OK || st == RS_STOPPED);
        const int64_t now = rs_now_ns();
        ck_assert_msg(now - t0 >= (int64_t)k * 2000000, "wait %d returned %lld ns early", k,
                      (long long)((int64_t)k * 2000000 - (now - t0)));
    }
    const double elapsed = 1e-9 * (double)(rs_now_ns() - t0);
    ck_assert(elapsed >= K * period);
    rs_realtime_stats s;
    rs_realtime_get_stats(&L, &s);
    ck_assert_int_eq(s.wall.count, K);
    ck_assert_int_eq(s.cpu.count, K);
    ck_assert_int_eq(s.ticks, K);
    ck_assert_int_eq(s.waits, K);
    ck_assert_int_eq(s.wake.count + s.misses, K);
    ck_assert(s.wall.min_us >= 100.0);  /* the spin is at least 0.1 ms */
    ck_assert(s.elapsed_s >= K * period);
    char buf[4096];
    int n = rs_realtime_stats_lines(&s, "loop", buf, sizeof buf);
    ck_assert(n > 0 && (size_t)n < sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "RT loop.steps 50 count\n"));
    ck_assert_ptr_nonnull(strstr(buf, "RT loop.step_p99_us "));
    ck_assert_ptr_nonnull(strstr(buf, "RT loop.misses "));
    /* a short buffer: the needed length is still reported, the text cut */
    char small[16];
    ck_assert_int_eq(rs_realtime_stats_lines(&s, "loop", small, sizeof small), n);
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
}
END_TEST

/* Work longer than its period is a miss; the schedule stays absolute. */
START_TEST(test_loop_miss_keeps_schedule)
{
    const double period = 2e-3;
    ck_assert_int_eq(rs_realtime_init(&L, period, 0), RS_OK);
    rs_realtime_start(&L);
    rs_realtime_wait(&L); /* tick 1 (on time unless the machine is very busy) */
    const long m0 = L.misses;
    struct timespec ts = {0, 7000000}; /* 7 ms: past ticks 2 and 3 (4 and 6 ms) */
    nanosleep(&ts, NULL);
    ck_assert_int_eq(rs_realtime_wait(&L), RS_STOPPED); /* tick 2 missed, no sleep */
    ck_assert_int_eq(L.misses, m0 + 1);
    ck_assert(L.lateness_max_ns >= 5000000);      /* now >= 2 + 7 ms, deadline 4 ms */
    ck_assert_int_eq(rs_realtime_wait(&L), RS_STOPPED); /* tick 3: the schedule did not move */
    const int st = rs_realtime_wait_ticks(&L, 3);       /* tick 6, 12 ms: caught up */
    ck_assert(st == RS_OK || st == RS_STOPPED);
    ck_assert(rs_now_ns() - L.t0_ns >= 12000000);
    ck_assert_int_eq(L.tick, 6);
    ck_assert_int_eq(L.misses, m0 + 2 + (st == RS_STOPPED));
    ck_assert_int_eq(L.waits, 4);
}
END_TEST

/* Thread CPU time excludes a sleep; wall time includes it. */
START_TEST(test_loop_cpu_time)
{
    ck_assert_int_eq(rs_realtime_init(&L, 1e-3, RS_REALTIME_CPU_TIME), RS_OK);
    rs_realtime_start(&L);
    for (int i = 0; i < 5; i++) {
        rs_realtime_begin(&L);
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
        rs_realtime_end(&L);
    }
    rs_realtime_stats s;
    rs_realtime_get_stats(&L, &s);
    ck_assert(s.wall.min_us >= 2000.0);
    ck_assert_msg(s.cpu.max_us < 1000.0, "cpu %g us while sleeping", s.cpu.max_us);
    ck_assert_int_eq(s.waits, 0);
}
END_TEST

START_TEST(test_settings_refusals)
{
    char msg[256];
    ck_assert_int_eq(rs_realtime_set_fifo(0, msg, sizeof msg), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(msg, "priority 0"));
    ck_assert_int_eq(rs_realtime_pin_cpu(100000, msg, sizeof msg), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(msg, "CPU 100000"));
    ck_assert_int_eq(rs_realtime_pin_cpu(-1, msg, sizeof msg), RS_E_ARG);
    /* pinning to a CPU we may use, then restoring the saved affinity */
    rs_realtime_saved sv;
    rs_realtime_save(&sv);
    const int st = rs_realtime_pin_cpu(0, msg, sizeof msg);
    ck_assert_msg(st == RS_OK || st == RS_E_ARG || st == RS_E_PERM, "%s", msg);
    rs_realtime_restore(&sv);
}
END_TEST

/* ---- the driver ------------------------------------------------------------ */

static char dir[64], csv[128], csv2[128], rep_path[128];
static char err[2048];

static void setup(void)
{
    strcpy(dir, "/tmp/rs_realtime_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/paced.csv", dir);
    snprintf(csv2, sizeof csv2, "%s/free.csv", dir);
    snprintf(rep_path, sizeof rep_path, "%s/rt.txt", dir);
}

static void teardown(void)
{
    unlink(csv);
    unlink(csv2);
    unlink(rep_path);
    char p[160];
    snprintf(p, sizeof p, "%s/log.txt", dir);
    unlink(p);
    rmdir(dir);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    char *copy = malloc(n + 1);
    memcpy(copy, buf, n + 1);
    return copy;
}

static void parse(const char *text, rs_scenario *s)
{
    ck_assert_msg(rs_scenario_parse(text, strlen(text), "rt.scn", s, err, sizeof err) == RS_OK, "%s", err);
}

static const char *kScn = "duration 0.2\nstep 1e-3\noutput 0.01\nmethod imex\n"
                          "initial theta = 1\ncolumns theta theta_dot x\n";

START_TEST(test_driver_paced_run)
{
    rs_scenario s;
    parse(kScn, &s);
    FILE *log = tmpfile();
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    c.realtime = 1;
    c.rt_report = rep_path;
    c.log = rt_log_to(log);
    rs_run_report rep;
    ck_assert_msg(rs_driver_simulate(rt_pendulum_model(), &s, &c, &rep, err, sizeof err) == RS_OK,
                  "%s", err);
    ck_assert_int_eq(rep.steps, 200);
    ck_assert(rep.realtime);
    /* wall time >= simulated time (absolute deadlines); how close it comes
     * is bench_rt_realtime's rt_pendulum.paced_overrun_ms */
    ck_assert_msg(rep.wall_s >= 0.2, "wall %g s < 0.2 s simulated", rep.wall_s);
    ck_assert(rep.rt.elapsed_s >= 0.2);
    ck_assert_int_eq(rep.rt.wall.count, 200);
    ck_assert_int_eq(rep.rt.waits, 200);
    ck_assert_int_eq(rep.rt.ticks, 200);
    ck_assert_int_eq(rep.rt.cpu.count, 200);
    ck_assert(rep.rt.wall.p50_us > 0 && rep.rt.wall.p50_us <= rep.rt.wall.p99_us &&
              rep.rt.wall.p99_us <= rep.rt.wall.p999_us && rep.rt.wall.p999_us <= rep.rt.wall.max_us);
    ck_assert_double_eq_tol(rep.rt.period_s, 1e-3, 1e-15);
    ck_assert_str_eq(rep.rt_notes, "");

    /* the human summary and the RT lines on the log; the lines in the report */
    rewind(log);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, log);
    text[n] = '\0';
    fclose(log);
    ck_assert_ptr_nonnull(strstr(text, "real time: 200 steps, period 1 ms, 200 deadlines"));
    ck_assert_ptr_nonnull(strstr(text, "RT rt_pendulum.step_p99_us "));
    char *lines = slurp(rep_path);
    ck_assert_ptr_nonnull(strstr(lines, "RT rt_pendulum.steps 200 count\n"));
    ck_assert_ptr_nonnull(strstr(lines, "RT rt_pendulum.waits 200 count\n"));
    long misses = -1;
    const char *m = strstr(lines, "RT rt_pendulum.misses ");
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(sscanf(m, "RT rt_pendulum.misses %ld count", &misses), 1);
    ck_assert_int_eq(misses, rep.rt.misses);
    free(lines);

    /* pacing changes nothing in the results: the same CSV, byte for byte */
    c.realtime = 0;
    c.rt_report = NULL;
    c.out = csv2;
    c.log = (rs_log){0};
    c.progress = 0;
    ck_assert_msg(rs_driver_simulate(rt_pendulum_model(), &s, &c, &rep, err, sizeof err) == RS_OK,
                  "%s", err);
    ck_assert(!rep.realtime);
    char *a = slurp(csv), *b = slurp(csv2);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    rs_scenario_free(&s);
}
END_TEST

START_TEST(test_driver_pace_per_output)
{
    rs_scenario s;
    parse(kScn, &s);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    c.realtime = 1;
    c.rt_pace_output = 1;
    c.rt_cpu_time = 0;
    c.progress = 0;
    rs_run_report rep;
    ck_assert_msg(rs_driver_simulate(rt_pendulum_model(), &s, &c, &rep, err, sizeof err) == RS_OK,
                  "%s", err);
    ck_assert(rep.wall_s >= 0.2); /* how close: rt_pendulum.paced_output_overrun_ms */
    ck_assert_int_eq(rep.rt.wall.count, 200);
    ck_assert_int_eq(rep.rt.waits, 20); /* one per 10-step output interval */
    ck_assert_int_eq(rep.rt.ticks, 200);
    ck_assert_int_eq(rep.rt.cpu.count, 0);
    rs_scenario_free(&s);
}
END_TEST

/* A setting the system refuses: a warning in the notes, or the run's error
 * when strict. */
START_TEST(test_driver_refused_settings)
{
    rs_scenario s;
    parse("duration 0.01\nstep 1e-3\n", &s);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = csv;
    c.realtime = 1;
    c.rt_cpu = 4000; /* no such CPU */
    FILE *logf = tmpfile();
    c.log = rt_log_to(logf);
    rs_run_report rep;
    ck_assert_msg(rs_driver_simulate(rt_pendulum_model(), &s, &c, &rep, err, sizeof err) == RS_OK,
                  "%s", err);
    ck_assert_ptr_nonnull(strstr(rep.rt_notes, "--rt-cpu: CPU 4000 does not exist"));
    ck_assert_int_eq(rep.rt.wall.count, 10);
    rewind(logf);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, logf);
    text[n] = '\0';
    ck_assert_ptr_nonnull(strstr(text, "warning: --rt-cpu not applied: CPU 4000"));
    fclose(logf);
    c.log = (rs_log){0};
    c.progress = 0;
    c.rt_strict = 1;
    ck_assert_int_eq(rs_driver_simulate(rt_pendulum_model(), &s, &c, &rep, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "--rt-cpu refused: CPU 4000 does not exist"));
    rs_scenario_free(&s);
}
END_TEST

/* ---- the command ----------------------------------------------------------- */

static const char *railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return (b && *b) ? b : "./build/railsym";
}

START_TEST(test_cli_realtime)
{
    char scn[160], cmd[1024], log[160];
    snprintf(scn, sizeof scn, "%s/rt.scn", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    FILE *f = fopen(scn, "w");
    fputs("duration 0.2\nstep 1e-3\noutput 0.01\ninitial th = 1\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run generated/pendulum --scenario %s --out %s --realtime "
             "--rt-report %s 2>%s", railsym_bin(), scn, csv, rep_path, log);
    const double t0 = 1e-9 * (double)rs_now_ns();
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(1e-9 * (double)rs_now_ns() - t0 >= 0.2);
    char *lines = slurp(rep_path);
    ck_assert_ptr_nonnull(strstr(lines, "RT pendulum.steps 200 count\n"));
    ck_assert_ptr_nonnull(strstr(lines, "RT pendulum.step_p999_us "));
    free(lines);
    char *text = slurp(log);
    ck_assert_ptr_nonnull(strstr(text, "real time: 200 steps, period 1 ms"));
    free(text);
    unlink(scn);
    /* --rt-* without --realtime: usage error (exit 2) */
    snprintf(cmd, sizeof cmd, "%s run generated/pendulum --rt-lock --out %s 2>%s", railsym_bin(),
             csv, log);
    int st = system(cmd);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    text = slurp(log);
    ck_assert_ptr_nonnull(strstr(text, "--rt-lock needs --realtime"));
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_realtime");
    TCase *tc = tcase_create("hist");
    tcase_add_test(tc, test_hist_uniform);
    tcase_add_test(tc, test_hist_skewed);
    tcase_add_test(tc, test_hist_small_values_exact);
    tcase_add_test(tc, test_hist_edges);
    tcase_add_test(tc, test_hist_layout);
    suite_add_tcase(s, tc);
    tc = tcase_create("loop");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_loop_args);
    tcase_add_test(tc, test_loop_deadlines);
    tcase_add_test(tc, test_loop_miss_keeps_schedule);
    tcase_add_test(tc, test_loop_cpu_time);
    tcase_add_test(tc, test_settings_refusals);
    suite_add_tcase(s, tc);
    tc = tcase_create("driver");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_driver_paced_run);
    tcase_add_test(tc, test_driver_pace_per_output);
    tcase_add_test(tc, test_driver_refused_settings);
    tcase_add_test(tc, test_cli_realtime);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
