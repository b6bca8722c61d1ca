/*
 * rs_test_mpi.h — what the tests that start `railsym … --mpi` under mpirun
 * do, once: let Open MPI run as root (containers run the tests as root),
 * find mpirun (a build dependency, debian/control; without it the MPI check
 * is skipped and says so), run N ranks with --oversubscribe (the test
 * machines have fewer cores than some checks have ranks) without the leak
 * check of the sanitizer build (Open MPI's own plugins leak), and compare
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

/* Runs `mpirun -np NP --oversubscribe ARGV…` (ARGV: the program and its
 * arguments, NULL-terminated) to the end, its output into LOG (NULL: none
 * kept); its exit status as sweep_run gives it.  In the sanitizer build the
 * ranks run without the leak check (ASAN_OPTIONS put back after). */
static inline int rs_test_mpi_run(int np, const char *const *argv, const char *log)
{
    char nps[16], *full[64];
    snprintf(nps, sizeof nps, "%d", np);
    int n = 0;
    full[n++] = "mpirun";
    full[n++] = "-np";
    full[n++] = nps;
    full[n++] = "--oversubscribe";
    for (const char *const *a = argv; *a; a++) {
        ck_assert_msg(n < 63, "rs_test_mpi_run: more than 59 arguments");
        full[n++] = (char *)*a;
    }
    full[n] = NULL;
    const int sanitized = sweep_sanitized();
    char *saved = NULL;
    if (sanitized) {
        const char *a = getenv("ASAN_OPTIONS");
        saved = a ? strdup(a) : NULL;
        setenv("ASAN_OPTIONS", "detect_leaks=0:halt_on_error=1:abort_on_error=0", 1);
    }
    const int st = sweep_run(full, log);
    if (sanitized) {
        if (saved)
            setenv("ASAN_OPTIONS", saved, 1);
        else
            unsetenv("ASAN_OPTIONS");
        free(saved);
    }
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
