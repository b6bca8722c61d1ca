/*
 * bench_feve3000.c — the FEVE 3000 locomotive's figures (issue 8), next to
 * seed 003's:
 *   BENCH feve3000.compile_s          symbolic compile of vehicles/feve3000/
 *                                     feve3000.vdl by railsym (seed's
 *                                     generator: 26 min 17 s, 225 MB here)
 *   BENCH feve3000.compile_peak_mb    peak memory of that compile
 *   BENCH feve3000.step_us_median     µs per 1 ms IMEX step, gcc -O2 model
 *                                     (dlopen), median of the steps of the
 *                                     demo run's first 2.5 s (2500 steps)
 *   BENCH feve3000.step_us_median_tcc the same, libtcc-compiled
 *   BENCH feve3000.ops_<fn>, atoms_<fn> the rows of seed 003's Table 2, with
 *                                     the seed's counts printed beside them
 * The CPU is named.  Table 1's per-phase split needs phase timers in the
 * runtime (issue 7/9 work): not printed yet.
 */
#define _DEFAULT_SOURCE   /* wait4 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_ws.h"

#define DIR "generated/feve3000"
#define NSTEPS 2500

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void cpu_name(char *buf, size_t n)
{
    snprintf(buf, n, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                snprintf(buf, n, "%s", c + 2);
                buf[strcspn(buf, "\n")] = '\0';
            }
            break;
        }
    fclose(f);
}

static void bench_compile(void)
{
    const char *bin = getenv("RAILSYM_BIN");
    if (!bin || !*bin)
        bin = "build/railsym";
    char dir[] = "/tmp/railsym_bench_feve_XXXXXX";
    if (!mkdtemp(dir))
        return;
    char out[300];
    snprintf(out, sizeof out, "%s/feve3000", dir);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        execl(bin, bin, "compile", "vehicles/feve3000/feve3000.vdl", "-o", out, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (pid > 0 && wait4(pid, &st, 0, &ru) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        printf("BENCH feve3000.compile_s %.3f s\n", now_s() - t0);
        printf("BENCH feve3000.compile_peak_mb %.1f MB\n", ru.ru_maxrss / 1024.0);
        printf("    (seed 003's generator for the same vehicle on these machines: 1577 s, 225 MB)\n");
    } else {
        fprintf(stderr, "bench_feve3000: railsym compile failed\n");
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_feve3000: could not remove %s\n", dir);
}

static int bench_steps(rs_loader kind, const char *suffix)
{
    char err[2000];
    rs_loaded *h = rs_load(DIR, kind, err, sizeof err);
    if (!h) {
        fprintf(stderr, "bench_feve3000: %s\n", err);
        return 1;
    }
    const rs_model *m = rs_loaded_model(h);
    rs_scenario base, top;
    rs_scenario_init(&base);
    rs_scenario_init(&top);
    rs_binding *b = NULL;
    rs_ws *ws = NULL;
    int st = rs_scenario_read(DIR "/default.scn", &base, err, sizeof err);
    if (!st)
        st = rs_scenario_read("vehicles/feve3000/demo.scn", &top, err, sizeof err);
    if (!st)
        st = rs_scenario_overlay(&base, &top);
    if (!st)
        st = rs_scenario_bind(&base, m, &b, err, sizeof err);
    rs_options o;
    rs_options_default(&o);
    if (!st) {
        rs_binding_options(b, &o);
        st = rs_ws_create(m, &o, &ws, err, sizeof err);
    }
    if (!st)
        st = rs_binding_apply(b, ws, err, sizeof err);
    if (!st && (st = rs_ws_init(ws)))
        snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    static double us[NSTEPS];
    int n = 0;
    for (; !st && n < NSTEPS; n++) {
        double t0 = now_s();
        if ((st = rs_step(ws)))
            snprintf(err, sizeof err, "%s", rs_ws_error(ws));
        us[n] = (now_s() - t0) * 1e6;
    }
    if (!st) {
        const rs_stats *s = rs_ws_stats(ws);
        qsort(us, NSTEPS, sizeof us[0], cmp_double);
        printf("BENCH feve3000.step_us_median%s %.2f us\n", suffix, us[NSTEPS / 2]);
        printf("BENCH feve3000.contact_newton_per_step%s %.3f iterations\n", suffix,
               (double)s->contact_iters / NSTEPS);
        printf("BENCH feve3000.proj_newton_per_step%s %.3f iterations\n", suffix,
               (double)s->proj_iters / NSTEPS);
        printf("BENCH feve3000.contact_searches%s %ld searches\n", suffix, s->contact_searches);
    } else {
        fprintf(stderr, "bench_feve3000: %s\n", err);
    }
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
    rs_unload(&h);
    return st != 0;
}

/* Table 2 of seed 003 (the authors' generator, their v8.2 model): atoms and
 * operations per function, from ../shared/reference/feve3000.md. */
static const struct row {
    const char *fn, *seed_name;
    int seed_atoms, seed_ops;
} table2[] = {
    {"M", "M", 1811, 10457},          {"delta", "delta", 3330, 17796},
    {"phi", "phi^n", 425, 1529},      {"phi_d", "phi^d", 543, 1913},
    {"phi_q", "phi^n_qd", 784, 3588}, {"phi_d_q", "phi^d_qd", 966, 5092},
    {"phi_d_s", "phi^d_sd", 1119, 6953}, {"gamma", "gamma^n", 3799, 23386},
    {"creep", "8 creep matrices", 8 * 308, 8 * 1603},
};

static void bench_table2(void)
{
    FILE *f = fopen(DIR "/ops.txt", "r");
    if (!f) {
        fprintf(stderr, "bench_feve3000: " DIR "/ops.txt missing\n");
        return;
    }
    char line[512];
    printf("    seed 003 Table 2 vs railsym (atoms / operations):\n");
    printf("    %-18s %8s %8s   %8s %8s\n", "function", "seed", "", "railsym", "");
    while (fgets(line, sizeof line, f)) {
        char name[64];
        long atoms, ops;
        if (sscanf(line, "%63s %ld %ld", name, &atoms, &ops) != 3)
            continue;
        for (size_t i = 0; i < sizeof table2 / sizeof table2[0]; i++)
            if (!strcmp(name, table2[i].fn)) {
                printf("    %-18s %8d %8d   %8ld %8ld\n", table2[i].seed_name, table2[i].seed_atoms,
                       table2[i].seed_ops, atoms, ops);
                printf("BENCH feve3000.ops_%s %ld ops\n", name, ops);
                printf("BENCH feve3000.atoms_%s %ld atoms\n", name, atoms);
            }
    }
    fclose(f);
}

int main(void)
{
    if (access(DIR "/feve3000_model.c", R_OK) != 0) {
        fprintf(stderr, "bench_feve3000: " DIR " missing\n");
        return 1;
    }
    rs_contact_link();
    char cpu[256];
    cpu_name(cpu, sizeof cpu);
    printf("    FEVE 3000 locomotive (30 coordinates, 8 contacts) on: %s\n", cpu);
    bench_compile();
    bench_table2();
    int bad = bench_steps(RS_LOAD_DLOPEN, "");
    bad |= bench_steps(RS_LOAD_TCC, "_tcc");
    printf("    (seed 003: 256 us per step, 203 us in its journal version; the authors'\n"
           "     v8.2 model runs 75 us per step on these machines)\n");
    return bad;
}
