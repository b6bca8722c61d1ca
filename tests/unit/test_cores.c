/*
 * test_cores.c — the cores a process may use (rs_cores.h) and the caps on
 * thread requests built on it (rs_train_run, rs_sweep_threads):
 *
 *   - cgroup cpu.max texts parsed by hand: "max 100000" no limit (0),
 *     "150000 100000" 1.5 cores rounded up to 2, "50000 100000" 1, and
 *     malformed texts refused (-1);
 *   - rs_cores_usable() against sched_getaffinity: at least 1, at most the
 *     CPUs of the mask (a cgroup quota may lower it, never raise it);
 *   - in a forked child restricted to one CPU (sched_setaffinity): 1 core,
 *     a request of 8 threads runs 1 worker (rs_train_run's report), and the
 *     CSV is byte for byte that of the 1-thread run; a sweep's variants get
 *     1 thread;
 *   - in a child restricted to two CPUs (when the machine has two): 2
 *     workers for a request of 8 (unless a quota allows fewer), the same
 *     CSV again (two threads, bit-identical results), a sweep of 2 jobs
 *     gets 1 thread per variant and one of 1 job 2.
 * The children report through a pipe, so a failure says what it saw.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */

#include <check.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_cores.h"
#include "rs_status.h"
#include "rs_sweep.h"
#include "rs_test.h"
#include "rs_train_file.h"

START_TEST(test_parse_cpu_max)
{
    /* the brief's cases, worked by hand: ceil(quota / period) */
    ck_assert_int_eq(rs_cores_parse_cpu_max("max 100000"), 0);
    ck_assert_int_eq(rs_cores_parse_cpu_max("max 100000\n"), 0);
    ck_assert_int_eq(rs_cores_parse_cpu_max("150000 100000"), 2);   /* 1.5 -> 2 */
    ck_assert_int_eq(rs_cores_parse_cpu_max("50000 100000"), 1);    /* 0.5 -> 1 */
    ck_assert_int_eq(rs_cores_parse_cpu_max("100000 100000\n"), 1); /* exactly 1 */
    ck_assert_int_eq(rs_cores_parse_cpu_max("400000 100000"), 4);
    ck_assert_int_eq(rs_cores_parse_cpu_max("400001 100000"), 5);
    ck_assert_int_eq(rs_cores_parse_cpu_max("1000 100000"), 1);     /* 1 % of a core */
    ck_assert_int_eq(rs_cores_parse_cpu_max("  200000   50000  \n"), 4);
    /* what it refuses */
    const char *bad[] = {"", "\n", "max", "150000", "abc 100000", "15x 100000", "0 100000", "-50000 100000",
                         "100000 0", "100000 -1", "150000 100000 7", "max 100000 max", NULL};
    for (int i = 0; bad[i]; i++)
        ck_assert_msg(rs_cores_parse_cpu_max(bad[i]) == -1, "'%s' gave %d", bad[i], rs_cores_parse_cpu_max(bad[i]));
    ck_assert_int_eq(rs_cores_parse_cpu_max(NULL), -1);
}
END_TEST

static int affinity_count(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
    return CPU_COUNT(&set);
}

START_TEST(test_usable_vs_affinity)
{
    const int cpus = affinity_count(), usable = rs_cores_usable();
    printf("cores: %d CPUs in the affinity mask, %d usable\n", cpus, usable);
    ck_assert_int_ge(usable, 1);
    ck_assert_int_le(usable, cpus);
    int cores = -1;
    ck_assert_int_eq(rs_cores_cap(1, &cores), 1);
    ck_assert_int_eq(cores, usable);
    ck_assert_int_eq(rs_cores_cap(100000, NULL), usable);
    ck_assert_int_eq(rs_cores_cap(0, NULL), 1);
}
END_TEST

/* ---- restricted children ------------------------------------------------ */

typedef struct files {
    char dir[64], train[128], csv1[128], csvn[128];
} files;

static void make_train(files *F)
{
    snprintf(F->dir, sizeof F->dir, "/tmp/rs_coresXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(F->dir));
    snprintf(F->train, sizeof F->train, "%s/t.train", F->dir);
    snprintf(F->csv1, sizeof F->csv1, "%s/t1.csv", F->dir);
    snprintf(F->csvn, sizeof F->csvn, "%s/tn.csv", F->dir);
    FILE *f = fopen(F->train, "w");
    ck_assert_ptr_nonnull(f);
    fputs("duration 4\nstep 2e-3\noutput 0.1\n"
          "vehicle loco\n traction 2e5\n r0 0\nend\n"
          "vehicle wagon\n r0 0\nend\n"
          "coupler soft\n c 4e5\nend\ncouplers soft\n"
          "order\n loco\n wagon 7\nend\n",
          f);
    fclose(f);
    rs_train_run_report r;
    char err[512];
    rs_train_run_cfg cfg = {F->train, F->csv1, 1, NULL, NULL, 0, {0}, 0};
    ck_assert_msg(rs_train_run(&cfg, &r, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(r.threads, 1);
}

static void remove_files(const files *F)
{
    remove(F->train);
    remove(F->csv1);
    remove(F->csvn);
    rmdir(F->dir);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* In the child: restrict to `ncpu` CPUs of the mask, then check.  Returns
 * "" when all holds, else what did not (written to the pipe). */
static void child_checks(const files *F, int ncpu, int expect, char *msg, size_t len)
{
    msg[0] = '\0';
    cpu_set_t set, one;
    CPU_ZERO(&set);
    CPU_ZERO(&one);
    sched_getaffinity(0, sizeof set, &set);
    for (int c = 0, got = 0; c < CPU_SETSIZE && got < ncpu; c++)
        if (CPU_ISSET(c, &set)) {
            CPU_SET(c, &one);
            got++;
        }
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        snprintf(msg, len, "sched_setaffinity failed");
        return;
    }
    const int usable = rs_cores_usable();
    if (usable != expect) {
        snprintf(msg, len, "%d CPU(s): rs_cores_usable() = %d, expected %d", ncpu, usable, expect);
        return;
    }
    int cores = 0;
    if (rs_cores_cap(8, &cores) != expect || cores != expect) {
        snprintf(msg, len, "%d CPU(s): rs_cores_cap(8) = %d (cores %d)", ncpu, rs_cores_cap(8, NULL), cores);
        return;
    }
    rs_train_run_report r;
    char err[512];
    rs_train_run_cfg cfg = {F->train, F->csvn, 8, NULL, NULL, 0, {0}, 0};
    if (rs_train_run(&cfg, &r, err, sizeof err) != RS_OK) {
        snprintf(msg, len, "rs_train_run: %s", err);
        return;
    }
    if (r.threads != expect) {
        snprintf(msg, len, "%d CPU(s): 8 threads asked, the run used %d, expected %d", ncpu, r.threads, expect);
        return;
    }
    char *a = slurp(F->csv1), *b = slurp(F->csvn);
    const int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    if (!same) {
        snprintf(msg, len, "%d CPU(s): the CSV of %d workers differs from that of 1", ncpu, r.threads);
        return;
    }
    rs_sweep_config sc;
    rs_sweep_config_default(&sc);
    sc.threads = 8;
    sc.jobs = 2;
    const int two_jobs = rs_sweep_threads(&sc, NULL);
    sc.jobs = 1;
    const int one_job = rs_sweep_threads(&sc, NULL);
    /* usable cores shared by the jobs, at least 1 each */
    const int want2 = expect / 2 > 1 ? expect / 2 : 1;
    if (two_jobs != want2 || one_job != expect)
        snprintf(msg, len, "%d CPU(s): sweep threads per variant: %d with 2 jobs (expected %d), %d with 1 (expected %d)",
                 ncpu, two_jobs, want2, one_job, expect);
}

static void in_child(int ncpu, int expect)
{
    files F;
    make_train(&F);
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    fflush(NULL);
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        char msg[600];
        child_checks(&F, ncpu, expect, msg, sizeof msg);
        const ssize_t w = write(fd[1], msg, strlen(msg));
        (void)w;
        close(fd[1]);
        _exit(msg[0] ? 1 : 0);
    }
    close(fd[1]);
    char msg[600] = "";
    ssize_t n = read(fd[0], msg, sizeof msg - 1);
    msg[n > 0 ? n : 0] = '\0';
    close(fd[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    remove_files(&F);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %s", msg[0] ? msg : "crashed");
}

START_TEST(test_one_cpu_child)
{
    in_child(1, 1);
}
END_TEST

START_TEST(test_two_cpu_child)
{
    const int cpus = affinity_count();
    if (cpus < 2) {
        printf("cores: one CPU in the mask, the two-CPU case is the one-CPU case\n");
        in_child(1, 1);
        return;
    }
    /* a quota below 2 cores binds the child too */
    const int quota = rs_cores_usable() < cpus ? rs_cores_usable() : 2;
    in_child(2, quota < 2 ? quota : 2);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cores");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_parse_cpu_max);
    tcase_add_test(tc, test_usable_vs_affinity);
    tcase_add_test(tc, test_one_cpu_child);
    tcase_add_test(tc, test_two_cpu_child);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
