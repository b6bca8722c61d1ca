/*
 * rs_test_mpi.h — what the tests that start `railsym … --mpi` under mpirun
 * do, once: let Open MPI run as root (containers run the tests as root),
 * find mpirun (a build dependency, debian/control; without it the MPI check
 * is skipped and says so), run N ranks with --oversubscribe (the test
 * machines have fewer cores than some checks have ranks) with an absolute
 * TMPDIR, without the leak check of the sanitizer build (Open MPI's own
 * plugins leak), once more when mpirun's own start fails, and compare
 * `railsym run --mpi` over 1 … N ranks with the in-process results.
 *
 * mpirun runs as a subprocess: the test programs never initialise MPI.
 */
#ifndef RS_TEST_MPI_H
#define RS_TEST_MPI_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_sweep_util.h"

/* Lets mpirun start as root; once, at the start of main. */
static inline void rs_test_mpi_allow_root(void)
{
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
}

/* 1 when mpirun answers; else 0, and a line on stderr that WHO's MPI check
 * is skipped (and which Debian package brings mpirun). */
static inline int rs_test_mpi_available(const char *who)
{
    char *argv[] = {"mpirun", "--version", NULL};
    if (sweep_run(argv, NULL) == 0)
        return 1;
    fprintf(stderr, "%s: mpirun not found (Debian: openmpi-bin): the MPI check is skipped\n", who);
    return 0;
}

/* Open MPI 4.1's mpirun takes a relative TMPDIR as if it began at "/"
 * ("Impossible to open the file /build/tmp/.../contact.txt in write mode",
 * "CANNOT CREATE FIFO ...": its session folder is never made, the job runs
 * on without it, and stopping the job went wrong now and then).  The
 * tests' scratch folders are relative whenever RAILSYM_BUILD_DIR is
 * (scripts/run-tests.sh sets "build"), so mpirun always gets TMPDIR made
 * absolute.  In the sanitizer build the ranks run without the leak check.
 * rs_test_mpi_env_set changes the environment for the next spawn, and
 * rs_test_mpi_env_restore puts it back. */
typedef struct {
    char *tmpdir, *asan; /* the values before (NULL: unset) */
    int set;
} rs_test_mpi_env;

static inline char *rs_test_mpi_dup_env(const char *name)
{
    const char *v = getenv(name);
    return v ? strdup(v) : NULL;
}

/* TMPDIR for mpirun: DIR (NULL: the one inherited, if any), absolute. */
static inline void rs_test_mpi_env_set(rs_test_mpi_env *e, const char *dir)
{
    e->tmpdir = rs_test_mpi_dup_env("TMPDIR");
    e->asan = rs_test_mpi_dup_env("ASAN_OPTIONS");
    e->set = 1;
    const char *t = dir ? dir : e->tmpdir;
    if (t && t[0] && t[0] != '/') {
        char cwd[4096], abs[4096 + 700];
        ck_assert_msg(getcwd(cwd, sizeof cwd) != NULL, "rs_test_mpi: getcwd failed");
        snprintf(abs, sizeof abs, "%s/%s", cwd, t);
        setenv("TMPDIR", abs, 1);
    } else if (t && t[0]) {
        setenv("TMPDIR", t, 1);
    }
    if (sweep_sanitized())
        setenv("ASAN_OPTIONS", "detect_leaks=0:halt_on_error=1:abort_on_error=0", 1);
}

static inline void rs_test_mpi_env_restore(rs_test_mpi_env *e)
{
    if (!e->set)
        return;
    if (e->tmpdir)
        setenv("TMPDIR", e->tmpdir, 1);
    else
        unsetenv("TMPDIR");
    if (e->asan)
        setenv("ASAN_OPTIONS", e->asan, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(e->tmpdir);
    free(e->asan);
    e->tmpdir = e->asan = NULL;
    e->set = 0;
}

/* mpirun -np NP --oversubscribe ARGV… (ARGV: the program and its
 * arguments, NULL-terminated) into FULL (64 entries), NPS its -np text. */
static inline void rs_test_mpi_argv(int np, const char *const *argv, char nps[16], char *full[64])
{
    snprintf(nps, 16, "%d", np);
    int n = 0;
    full[n++] = "mpirun";
    full[n++] = "-np";
    full[n++] = nps;
    full[n++] = "--oversubscribe";
    for (const char *const *a = argv; *a; a++) {
        ck_assert_msg(n < 63, "rs_test_mpi: more than 59 arguments");
        full[n++] = (char *)*a;
    }
    full[n] = NULL;
}

/* 1 when mpirun's output TEXT holds a report of its own run-time (ORTE,
 * PMIx) failing, as opposed to railsym's messages. */
static inline int rs_test_mpi_startup_error(const char *text)
{
    /* "with PID 0": mpirun never learned that rank's pid, i.e. its launch
     * did not register (seen once under load 10 on 2 cores, the run's own
     * output complete) */
    static const char *const marks[] = {"PMIX ERROR", "ORTE_ERROR_LOG", "CANNOT CREATE FIFO", "orte_init failed",
                                        "ORTE was unable to reliably start", "with PID 0 on node"};
    for (size_t i = 0; text && i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]))
            return 1;
    return 0;
}

/* Starts mpirun -np NP --oversubscribe ARGV… with TMPDIR = DIR (NULL: the
 * inherited one), made absolute; its output into LOG.  Returns its pid. */
static inline pid_t rs_test_mpi_spawn(int np, const char *const *argv, const char *log, const char *dir)
{
    char nps[16], *full[64];
    rs_test_mpi_argv(np, argv, nps, full);
    rs_test_mpi_env e = {0};
    rs_test_mpi_env_set(&e, dir);
    const pid_t pid = sweep_spawn(full, log);
    rs_test_mpi_env_restore(&e);
    return pid;
}

/* Runs `mpirun -np NP --oversubscribe ARGV…` to the end, its output into
 * LOG (NULL: none kept); its exit status as sweep_run gives it.  When
 * mpirun itself failed (non-zero, with an ORTE/PMIx report in its output)
 * it is run once more, and says so on stderr: the start of Open MPI's
 * run-time is not what the tests check. */
static inline int rs_test_mpi_run(int np, const char *const *argv, const char *log)
{
    char nps[16], *full[64], own[128];
    rs_test_mpi_argv(np, argv, nps, full);
    if (!log) {
        snprintf(own, sizeof own, "/tmp/railsym-mpi-test-%ld.log", (long)getpid());
        log = own;
    }
    int st = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        rs_test_mpi_env e = {0};
        rs_test_mpi_env_set(&e, NULL);
        st = sweep_run(full, log);
        rs_test_mpi_env_restore(&e);
        char *text = st != 0 ? sweep_slurp(log, NULL) : NULL;
        const int again = attempt == 0 && st != 0 && st != 99 && rs_test_mpi_startup_error(text);
        if (again)
            fprintf(stderr, "rs_test_mpi: mpirun's own start failed (status %d), run once more:\n%s\n", st, text);
        free(text);
        if (!again)
            break;
    }
    if (log == own)
        unlink(own);
    return st;
}

/* `mpirun -np NP --oversubscribe railsym run MODEL -s SCN -o DIR/mpiNP.csv
 * --mpi` (its log in DIR/mpiNP.log): it exits 0, its log holds WANT, and
 * its result file is byte for byte REF, the in-process run's. */
static inline void rs_test_mpi_run_equal(const char *dir, const char *model, const char *scn, const char *ref, int np,
                                         const char *want)
{
    char out[700], log[700];
    snprintf(out, sizeof out, "%s/mpi%d.csv", dir, np);
    snprintf(log, sizeof log, "%s/mpi%d.log", dir, np);
    const char *argv[] = {sweep_railsym_bin(), "run", model, "-s", scn, "-o", out, "--mpi", NULL};
    const int st = rs_test_mpi_run(np, argv, log);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(st == 0, "mpirun -np %d exited %d:\n%s", np, st, text ? text : "");
    ck_assert_msg(text && strstr(text, want), "mpirun -np %d: no '%s' in its output:\n%s", np, want,
                  text ? text : "");
    ck_assert_msg(!rs_test_mpi_startup_error(text), "mpirun -np %d: Open MPI reported an error of its own:\n%s", np,
                  text);
    free(text);
    ck_assert_msg(sweep_same_file(ref, out), "%d ranks: %s differs from %s", np, out, ref);
}

/* The same for NP = 1 … NMAX. */
static inline void rs_test_mpi_run_equals(const char *dir, const char *model, const char *scn, const char *ref,
                                          int nmax, const char *want)
{
    for (int np = 1; np <= nmax; np++)
        rs_test_mpi_run_equal(dir, model, scn, ref, np, want);
}

#endif /* RS_TEST_MPI_H */
