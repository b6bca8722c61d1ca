/*
 * bench_rt_realtime.c — a paced (hard real-time) run of the wheelset example,
 * as `railsym run generated/wheelset --scenario vehicles/examples/wheelset.scn
 * --realtime --loader dlopen` does it: 2 s of simulated time at the
 * scenario's step (0.1 ms, a 10 kHz loop), each step waiting for its
 * absolute deadline (runtime/app/rs_realtime.h); then the same at the seed's 1 ms step
 * (figures wheelset.rt_1ms_*).  Prints
 *   BENCH wheelset.rt_{median,p99,p999,max}_us   step wall time (µs)
 *   BENCH wheelset.rt_cpu_p99_us                 step thread CPU time
 *   BENCH wheelset.rt_wake_{p99,max}_us          wake-up latency after a deadline
 *   BENCH wheelset.rt_misses, rt_deadlines       deadlines missed / waited for
 * and wheelset.rt_1ms_* for 2000 steps of 1 ms.  The machine is shared and
 * not tuned (no isolated core, no SCHED_FIFO): these are the figures of an
 * ordinary run; docs/realtime.md says how to get better ones.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rs_contact.h"
#include "rs_driver.h"
#include "rs_scenario.h"

/* default.scn, the example's scenario, then `extra` over them. */
static int scenario(rs_scenario *out, const char *extra, char *err, size_t errlen)
{
    rs_scenario top, x;
    rs_scenario_init(out);
    rs_scenario_init(&top);
    rs_scenario_init(&x);
    int st = rs_scenario_read("generated/wheelset/default.scn", out, err, errlen);
    if (!st)
        st = rs_scenario_read("vehicles/examples/wheelset.scn", &top, err, errlen);
    if (!st)
        st = rs_scenario_overlay(out, &top);
    if (!st && extra && !(st = rs_scenario_parse(extra, "bench", &x, err, errlen)))
        st = rs_scenario_overlay(out, &x);
    rs_scenario_free(&top);
    rs_scenario_free(&x);
    return st;
}

/* One paced run; prints its figures as wheelset.rt<tag>_*. */
static int paced(const rs_model *m, const char *extra, const char *tag)
{
    char err[2048];
    rs_scenario scn;
    int st = scenario(&scn, extra, err, sizeof err);
    rs_run_config c;
    rs_run_config_default(&c);
    c.out = "/tmp/railsym_bench_rt_wheelset.csv";
    c.realtime = 1;
    c.progress = 0;
    rs_run_report rep;
    if (!st)
        st = rs_driver_simulate(m, &scn, &c, &rep, err, sizeof err);
    rs_scenario_free(&scn);
    remove(c.out);
    if (st != RS_OK) {
        fprintf(stderr, "bench_rt_realtime: %s\n", err);
        return 1;
    }
    const rs_rt_stats *s = &rep.rt;
    printf("BENCH wheelset.rt%s_median_us %.3f us\n", tag, s->wall.p50_us);
    printf("BENCH wheelset.rt%s_p99_us %.3f us\n", tag, s->wall.p99_us);
    printf("BENCH wheelset.rt%s_p999_us %.3f us\n", tag, s->wall.p999_us);
    printf("BENCH wheelset.rt%s_max_us %.3f us\n", tag, s->wall.max_us);
    printf("BENCH wheelset.rt%s_cpu_p99_us %.3f us\n", tag, s->cpu.p99_us);
    printf("BENCH wheelset.rt%s_wake_p99_us %.3f us\n", tag, s->wake.p99_us);
    printf("BENCH wheelset.rt%s_wake_max_us %.3f us\n", tag, s->wake.max_us);
    printf("BENCH wheelset.rt%s_misses %ld count\n", tag, s->misses);
    printf("BENCH wheelset.rt%s_deadlines %ld count\n", tag, s->waits);
    fflush(stdout);
    fprintf(stderr, "bench_rt_realtime: %ld steps of %.3g ms in %.3f s wall for %.3f s simulated\n",
            s->wall.count, s->period_s * 1e3, rep.wall_s, rep.t_end - rep.t_start);
    return 0;
}

int main(void)
{
    char err[4096];
    rs_load_options lo;
    rs_load_options_default(&lo);
    rs_loaded *h = rs_load_ex("generated/wheelset", RS_LOAD_DLOPEN, &lo, err, sizeof err);
    if (!h) {
        fprintf(stderr, "bench_rt_realtime: %s\n", err);
        return 1;
    }
    int bad = paced(rs_loaded_model(h), NULL, "");
    bad |= paced(rs_loaded_model(h), "step 1e-3\n", "_1ms");
    rs_unload(&h);
    return bad;
}
