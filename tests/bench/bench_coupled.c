/*
 * bench_coupled.c — speed-up of a run with a damper's thermal grid over
 * MPI ranks (issue 25, seed 004 "network Amdahl"):
 *
 *   BENCH coupled.inprocess_s <v> s         the whole run in one process
 *   BENCH coupled.t_n<N> <v> s              N grid ranks (mpirun -np N+1)
 *   BENCH coupled.speedup_n<N> <v> x        S(N) = t(1) / t(N)
 *   BENCH coupled.efficiency_n<N> <v>       E(N) = S(N) / N
 *   BENCH coupled.fit_ts <v> s              the seed's law fitted to t(N):
 *   BENCH coupled.fit_alpha <v>             S(N) = t1 / (ts + (t1 − ts)/N + t1 α (N − 1))
 *
 * N = 1 … 4 ranks for the grid (RAILSYM_BENCH_COUPLED_NMAX sets the 4), rank 0 for the vehicle; t(N) is the wall
 * time of `mpirun -np N+1 railsym run … --mpi` less that of the same
 * command for one step (MPI start-up, loading).  The grid: 24 × 24 × 96
 * cells (a solid cylinder: 43 776 in the body), one sub-step per 1 ms
 * vehicle step, 0.5 s.  A fit that gives ts < 0 (noise) is redone with
 * ts = 0 and says so.  On a machine with fewer
 * cores than N + 1 the ranks are oversubscribed (--oversubscribe) and the
 * figures say more about the scheduler than about the method.
 *
 * The same for a component's stress model (`stress`, docs/coupled.md) on
 * the same vehicle: a round link of 40 beam elements clamped to the mass,
 * its 41 nodes over N ranks, 20 ms of 1 ms steps (654 sub-steps each: a
 * halo exchange per sub-step makes it latency-bound over MPI, so a short
 * run tells enough):
 *
 *   BENCH coupled.stress_inprocess_s, coupled.stress_t_n<N>, coupled.stress_speedup_n<N>
 */
#define _GNU_SOURCE

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_clock.h"
#include "test_sweep_util.h"

static const char *kVdl =
    "param m = 20, k = 2e4, c_d = 400\n"
    "param a0 = 0.02, f0 = 4\n"
    "coord z\n"
    "point B = O + [0, 0, a0*sin(2*pi*f0*t)] in ground\n"
    "point P = O + [0, 0, 1 + z] in ground\n"
    "body mass mass m cg P inertia diag(1, 1, 1) in ground\n"
    "spring s between B and P k k length 1\n"
    "damper d between B and P c c_d\n"
    "output v_d = z_d - dt(a0*sin(2*pi*f0*t))\n"
    "output p_d = c_d*v_d^2\n"
    "output mass_v = vel(P) in ground\n"
    "output mass_omega = omega(mass) in ground\n"
    "output mass_g = [0, 0, -9.81] in ground\n";

/* RAILSYM_BENCH_COUPLED_GRID="NX NY NZ" replaces the 24 24 96 cells (a
 * larger grid gives the ranks work worth sharing on a many-core machine) */
#define GRID_FMT "thermal c_d power p_d beta 0.01 grid %s length 0.4 radius 0.035 bore 0.0\n"
#define LINK "stress arm body mass from 0 0 0 to 0.8 0 0 section circle 0.015 elements 40 fix 0 point root at 0 fibre 0 0.015\n"

/* Wall seconds of one command (best of `reps`); < 0 when it failed. */
static double timed(char *const *argv, const char *log, int reps)
{
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        const double t0 = rs_now_s();
        if (sweep_run(argv, log) != 0)
            return -1;
        best = fmin(best, rs_now_s() - t0);
    }
    return best;
}

static double mpi_time(int np, const char *model, const char *scn, const char *out, const char *log)
{
    char nps[8];
    snprintf(nps, sizeof nps, "%d", np);
    char *argv[] = {"mpirun", "-np", nps, "--oversubscribe", (char *)sweep_railsym_bin(), "run", (char *)model,
                    "-s", (char *)scn, "-o", (char *)out, "-q", "--mpi", NULL};
    /* RAILSYM_BENCH_COUPLED_REPS: best of this many runs (default 1; a
     * quiet many-core machine can afford 3) */
    const char *reps = getenv("RAILSYM_BENCH_COUPLED_REPS");
    const int r = reps && atoi(reps) >= 1 && atoi(reps) <= 20 ? atoi(reps) : 1;
    return timed(argv, log, r);
}

int main(void)
{
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    char dir[512], vdl[600], model[600], scn[600], tiny[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "bench-coupled");
    snprintf(vdl, sizeof vdl, "%s/d.vdl", dir);
    snprintf(model, sizeof model, "%s/d", dir);
    snprintf(scn, sizeof scn, "%s/run.scn", dir);
    snprintf(tiny, sizeof tiny, "%s/tiny.scn", dir);
    snprintf(out, sizeof out, "%s/out.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    sweep_write(vdl, kVdl);
    const char *cells = getenv("RAILSYM_BENCH_COUPLED_GRID");
    char grid[256], text[512];
    snprintf(grid, sizeof grid, GRID_FMT, cells && *cells ? cells : "24 24 96");
    snprintf(text, sizeof text, "duration 0.5\nstep 1e-3\noutput 0.1\nmethod rk4\n%s", grid);
    sweep_write(scn, text);
    snprintf(text, sizeof text, "duration 1e-3\nstep 1e-3\noutput 0.1\nmethod rk4\n%s", grid);
    sweep_write(tiny, text);
    char *comp[] = {(char *)sweep_railsym_bin(), "compile", vdl, "-o", model, NULL};
    if (sweep_run(comp, log) != 0) {
        fprintf(stderr, "bench_coupled: railsym compile failed\n");
        return 1;
    }
    char *inproc[] = {(char *)sweep_railsym_bin(), "run", model, "-s", scn, "-o", out, "-q", NULL};
    char *inproc0[] = {(char *)sweep_railsym_bin(), "run", model, "-s", tiny, "-o", out, "-q", NULL};
    printf("BENCH coupled.inprocess_s %.3f s\n", timed(inproc, log, 2) - timed(inproc0, log, 2));
    /* the stress model: in one process, then over 1 … 4 ranks */
    char sscn[600], stiny[600];
    snprintf(sscn, sizeof sscn, "%s/stress.scn", dir);
    snprintf(stiny, sizeof stiny, "%s/stress_tiny.scn", dir);
    sweep_write(sscn, "duration 0.02\nstep 1e-3\noutput 0.01\nmethod rk4\n" LINK);
    sweep_write(stiny, "duration 1e-3\nstep 1e-3\noutput 0.1\nmethod rk4\n" LINK);
    char *sin1[] = {(char *)sweep_railsym_bin(), "run", model, "-s", sscn, "-o", out, "-q", NULL};
    char *sin0[] = {(char *)sweep_railsym_bin(), "run", model, "-s", stiny, "-o", out, "-q", NULL};
    printf("BENCH coupled.stress_inprocess_s %.3f s\n", timed(sin1, log, 2) - timed(sin0, log, 2));
    char *ver[] = {"mpirun", "--version", NULL};
    if (sweep_run(ver, NULL) != 0) {
        fprintf(stderr, "bench_coupled: mpirun not found (Debian: openmpi-bin): no MPI figures\n");
        sweep_rm_rf(dir);
        return 0;
    }
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* RAILSYM_BENCH_COUPLED_NMAX: grid ranks up to this (default 4; a
     * 16-core machine takes 15, one rank left for the vehicle) */
    enum { NCAP = 63 };
    const char *nmax_env = getenv("RAILSYM_BENCH_COUPLED_NMAX");
    int NMAX = nmax_env ? atoi(nmax_env) : 4;
    if (NMAX < 2 || NMAX > NCAP)
        NMAX = 4;
    double t[NCAP + 1];
    for (int n = 1; n <= NMAX; n++) {
        const double full = mpi_time(n + 1, model, scn, out, log), zero = mpi_time(n + 1, model, tiny, out, log);
        if (full < 0 || zero < 0) {
            char *text = sweep_slurp(log, NULL);
            fprintf(stderr, "bench_coupled: mpirun -np %d failed:\n%s\n", n + 1, text ? text : "");
            free(text);
            return 1;
        }
        t[n] = full - zero;
    }
    if (cores < NMAX + 1)
        fprintf(stderr, "bench_coupled: %ld cores for up to %d ranks: oversubscribed\n", cores, NMAX + 1);
    for (int n = 1; n <= NMAX; n++) {
        const double S = t[1] / t[n];
        printf("BENCH coupled.t_n%d %.3f s\n", n, t[n]);
        printf("BENCH coupled.speedup_n%d %.3f x\n", n, S);
        printf("BENCH coupled.efficiency_n%d %.3f\n", n, S / n);
    }
    /* t(N) − t1/N = ts (1 − 1/N) + α t1 (N − 1): least squares for ts, α */
    double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
    for (int n = 2; n <= NMAX; n++) {
        const double x1 = 1 - 1.0 / n, x2 = t[1] * (n - 1), y = t[n] - t[1] / n;
        a11 += x1 * x1;
        a12 += x1 * x2;
        a22 += x2 * x2;
        b1 += x1 * y;
        b2 += x2 * y;
    }
    const double det = a11 * a22 - a12 * a12;
    double ts = (b1 * a22 - b2 * a12) / det, alpha = (a11 * b2 - a12 * b1) / det;
    if (ts < 0) {
        fprintf(stderr, "bench_coupled: the two-parameter fit gives ts = %.3g s < 0: fitted again with ts = 0\n", ts);
        ts = 0;
        alpha = b2 / a22;
    }
    printf("BENCH coupled.fit_ts %.4f s\n", ts);
    printf("BENCH coupled.fit_alpha %.4f\n", alpha);
    double ts1 = 0;
    for (int n = 1; n <= NMAX; n++) {
        const double full = mpi_time(n + 1, model, sscn, out, log), zero = mpi_time(n + 1, model, stiny, out, log);
        if (full < 0 || zero < 0) {
            fprintf(stderr, "bench_coupled: mpirun -np %d failed for the stress model\n", n + 1);
            return 1;
        }
        if (n == 1)
            ts1 = full - zero;
        printf("BENCH coupled.stress_t_n%d %.3f s\n", n, full - zero);
        printf("BENCH coupled.stress_speedup_n%d %.3f x\n", n, ts1 / (full - zero));
    }
    sweep_rm_rf(dir);
    return 0;
}
