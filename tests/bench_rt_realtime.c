/*
 * bench_rt_realtime.c — a paced (hard real-time) run of the wheelset example,
 * as `railsym run generated/wheelset --scenario vehicles/examples/wheelset.scn
 * --realtime --loader dlopen` does it: 2 s of simulated time at the
 * scenario's step (0.1 ms, a 10 kHz loop), each step waiting for its
 * absolute deadline (runtime/rs_rt.h).  Prints
 *   BENCH wheelset.rt_{median,p99,p999,max}_us   step wall time (µs)
 *   BENCH wheelset.rt_cpu_p99_us                 step thread CPU time
 *   BENCH wheelset.rt_wake_{p99,max}_us          wake-up latency after a deadline
 *   BENCH wheelset.rt_misses, rt_deadlines       deadlines missed / waited for
 * The machine is shared and not tuned (no isolated core, no SCHED_FIFO):
 * these are the figures of an ordinary run; docs/realtime.md says how to
 * get better ones.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rs_contact.h"
#include "rs_driver.h"

int main(void)
{
    rs_contact_link();
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = "generated/wheelset";
    c.scenario = "vehicles/examples/wheelset.scn";
    c.loader = RS_LOAD_DLOPEN;
    c.out = "/tmp/railsym_bench_rt_wheelset.csv";
    c.realtime = 1;
    c.progress = 0;
    rs_run_report rep;
    char err[2048];
    int st = rs_driver_run(&c, &rep, err, sizeof err);
    remove(c.out);
    if (st != RS_OK) {
        fprintf(stderr, "bench_rt_realtime: %s\n", err);
        return 1;
    }
    const rs_rt_stats *s = &rep.rt;
    printf("BENCH wheelset.rt_median_us %.3f us\n", s->wall.p50_us);
    printf("BENCH wheelset.rt_p99_us %.3f us\n", s->wall.p99_us);
    printf("BENCH wheelset.rt_p999_us %.3f us\n", s->wall.p999_us);
    printf("BENCH wheelset.rt_max_us %.3f us\n", s->wall.max_us);
    printf("BENCH wheelset.rt_cpu_p99_us %.3f us\n", s->cpu.p99_us);
    printf("BENCH wheelset.rt_wake_p99_us %.3f us\n", s->wake.p99_us);
    printf("BENCH wheelset.rt_wake_max_us %.3f us\n", s->wake.max_us);
    printf("BENCH wheelset.rt_misses %ld count\n", s->misses);
    printf("BENCH wheelset.rt_deadlines %ld count\n", s->waits);
    fprintf(stderr, "bench_rt_realtime: %ld steps of %.3g ms in %.3f s wall for %.3f s simulated\n",
            s->wall.count, s->period_s * 1e3, rep.wall_s, rep.t_end - rep.t_start);
    return 0;
}
