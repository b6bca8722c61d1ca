/*
 * bench_sweep.c — throughput of sweeps and the cost of MPI per variant.
 *
 *   BENCH sweep.variants_per_min_j1 <v> 1/min          one local worker
 *   BENCH sweep.variants_per_min_j2 <v> 1/min          two (also on a 1-core machine)
 *   BENCH sweep.variants_per_min_j<ncores> <v> 1/min   every core, when more than 2
 *   BENCH sweep.mpi_overhead_ms <v> ms                  coordinator round trip
 *                                                       minus the worker's run,
 *                                                       per variant, loopback
 *
 *   BENCH critical_speed.wheelset_cone_s_j2 <v> s      a whole critical-speed search
 *   BENCH critical_speed.wheelset_cone_runs <n> runs   its runs (3 s each, dt 2e-4)
 *   BENCH critical_speed.wheelset_cone_v <v> m/s       its answer
 *
 * The sweeps run generated/double_pendulum (RK4, 5 s at 1 ms) through the C
 * API (rs_sweep_run), writing every variant's CSV, as `railsym sweep` does.
 * The MPI figure comes from `mpirun -np 2 railsym sweep --mpi` over 200
 * one-step variants, where the round trip is almost all overhead.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_status.h"
#include "rs_sweep.h"
#include "test_sweep_util.h"

static double run_local(const char *scn, const char *out, int jobs, int *n)
{
    rs_sweep_spec *s;
    char err[2048];
    rs_sweep_spec_create(&s);
    rs_sweep_spec_vary(s, "l1=0.5:1.5:6", err, sizeof err);
    rs_sweep_spec_vary(s, "th1_dot=0:2:4", err, sizeof err);
    rs_sweep_config c;
    rs_sweep_config_default(&c);
    c.model_dir = "generated/double_pendulum";
    c.scenario = scn;
    c.out_dir = out;
    c.jobs = jobs;
    c.quiet = 1;
    rs_sweep_report rep;
    const int st = rs_sweep_run(&c, s, &rep, err, sizeof err);
    rs_sweep_spec_free(&s);
    if (st != RS_OK) {
        fprintf(stderr, "bench_sweep: %s\n", err);
        exit(1);
    }
    *n = rep.ran;
    return rep.wall_s;
}

int main(void)
{
    char dir[512], scn[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "bench");
    snprintf(scn, sizeof scn, "%s/b.scn", dir);
    sweep_write(scn, "duration 5\nstep 1e-3\noutput 0.01\nmethod rk4\ninitial th1 = 1\n");
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncores < 1)
        ncores = 1;
    /* j1 and j2 always (fixed names), and every core when there are more */
    const int jobs[3] = {1, 2, (int)ncores};
    const int njobs = ncores > 2 ? 3 : 2;
    for (int k = 0; k < njobs; k++) {
        snprintf(out, sizeof out, "%s/j%d", dir, jobs[k]);
        int n;
        const double wall = run_local(scn, out, jobs[k], &n);
        printf("BENCH sweep.variants_per_min_j%d %.1f 1/min\n", jobs[k], 60.0 * n / wall);
        fflush(stdout);
    }

    /* MPI: tiny variants, so the round trip is the overhead. */
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    snprintf(scn, sizeof scn, "%s/tiny.scn", dir);
    sweep_write(scn, "duration 1e-3\nstep 1e-3\noutput 1e-3\n");
    snprintf(out, sizeof out, "%s/mpi", dir);
    snprintf(log, sizeof log, "%s/mpi.log", dir);
    char *argv[] = {"mpirun", "-np", "2", "--oversubscribe", (char *)sweep_railsym_bin(), "sweep", "generated/pendulum",
                    "-s", scn, "--vary", "l=0.5:1.5:200", "-o", out, "--mpi", NULL};
    const int st = sweep_run(argv, log);
    char *text = sweep_slurp(log, NULL);
    const char *p = text ? strstr(text, "MPI overhead ") : NULL;
    if (st != 0 || !p) {
        fprintf(stderr, "bench_sweep: mpirun failed (%d):\n%s\n", st, text ? text : "");
        free(text);
        sweep_rm_rf(dir);
        return 1;
    }
    printf("BENCH sweep.mpi_overhead_ms %.3f ms\n", strtod(p + strlen("MPI overhead "), NULL));
    free(text);
    fflush(stdout);

    /* A critical-speed search: the cone wheelset of tests/physics/test_critical_speed.c */
    snprintf(scn, sizeof scn, "%s/hunt.scn", dir);
    sweep_write(scn, "duration 3\nstep 2e-4\noutput 0.002\nmethod imex\ncolumns y yaw\n");
    snprintf(out, sizeof out, "%s/crit", dir);
    snprintf(log, sizeof log, "%s/crit.log", dir);
    char *crit[] = {(char *)sweep_railsym_bin(), "critical-speed", "generated/wheelset_cone", "-s", scn, "--range",
                    "30:50", "--bisection", "-j", "2", "--tol", "0.003", "-o", out, "-q", "--no-plot", NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const int cst = sweep_run(crit, log);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    text = sweep_slurp(log, NULL);
    p = text ? strstr(text, "critical speed: ") : NULL;
    const char *q = text ? strstr(text, "run(s)") : NULL;
    if (cst != 0 || !p || !q) {
        fprintf(stderr, "bench_sweep: critical-speed failed (%d):\n%s\n", cst, text ? text : "");
        free(text);
        sweep_rm_rf(dir);
        return 1;
    }
    while (q > text && q[-1] == ' ')
        q--;
    while (q > text && q[-1] >= '0' && q[-1] <= '9')
        q--;
    const double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("BENCH critical_speed.wheelset_cone_s_j2 %.3f s\n", wall);
    printf("BENCH critical_speed.wheelset_cone_runs %d runs\n", atoi(q));
    printf("BENCH critical_speed.wheelset_cone_v %.4f m/s\n", strtod(p + strlen("critical speed: "), NULL));
    free(text);
    sweep_rm_rf(dir);
    return 0;
}
