/*
 * test_sweep_util.h — helpers shared by tests/test_sweep*.c and
 * tests/bench/bench_sweep.c: run the built `railsym` (or mpirun) as a subprocess,
 * read and compare files, make scratch folders.
 */
#ifndef TEST_SWEEP_UTIL_H
#define TEST_SWEEP_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static inline const char *sweep_railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return (b && *b) ? b : "./build/railsym";
}

/* 1 when the tests run against the sanitizer build. */
static inline int sweep_sanitized(void)
{
    const char *d = getenv("RAILSYM_BUILD_DIR");
    return d && strstr(d, "asan") != NULL;
}

/* Starts argv (NULL-terminated) with stdout and stderr into `log` (NULL:
 * /dev/null); returns the pid. */
static inline pid_t sweep_spawn(char *const argv[], const char *log)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* Waits for pid: its exit status, or 128 + signal. */
static inline int sweep_wait(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The whole file, NUL-terminated, or NULL. */
static inline char *sweep_slurp(const char *path, size_t *len);

/* Runs argv to the end; its output goes to `log` (NULL: a scratch file,
 * removed after).  A sanitizer report in the output is a failure even when
 * the exit status is 0: the report is copied to stderr (where
 * scripts/run-tests.sh sees it too) and 99 returned. */
static inline int sweep_run(char *const argv[], const char *log)
{
    char own[128];
    if (!log) {
        snprintf(own, sizeof own, "/tmp/railsym-sweep-test-%ld.log", (long)getpid());
        log = own;
    }
    int st = sweep_wait(sweep_spawn(argv, log));
    char *text = sweep_slurp(log, NULL);
    if (text && (strstr(text, "ERROR: AddressSanitizer") || strstr(text, "ERROR: LeakSanitizer") ||
                 strstr(text, ": runtime error: "))) {
        fprintf(stderr, "sanitizer report from %s %s:\n%s\n", argv[0], argv[1] ? argv[1] : "", text);
        st = 99;
    }
    free(text);
    if (log == own)
        unlink(own);
    return st;
}

/* The whole file, NUL-terminated, or NULL. */
static inline char *sweep_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        if (len)
            *len = (size_t)n;
    }
    return b;
}

/* 1 when both files exist and hold the same bytes. */
static inline int sweep_same_file(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *x = sweep_slurp(a, &la), *y = sweep_slurp(b, &lb);
    const int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static inline void sweep_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The events tests' scenario (test_sweep, test_sweep_mpi): the climb rig
 * (generated/climb) at ψ 20 mrad rolling at 1 m/s, elastic contact,
 * FASTSIM μ 0.3, 4 ms; each variant gives its y_dot (the throw). */
static inline void sweep_throw_scenario(char *text, size_t len)
{
    snprintf(text, len,
             "duration 0.004\nstep 1e-4\noutput 1e-3\ncontact elastic\nfriction 0.3\ncreep fastsim\n"
             "param psi = 0.02\ninitial yaw = 0.02\ninitial y = 0.003\ninitial z = 7e-5\ninitial x_dot = 1\n"
             "initial spin_l_dot = %.17g\ninitial spin_r_dot = %.17g\ncolumns y z left.Y_Q\n",
             1 / 0.46, 1 / 0.46);
}

/* A fresh scratch folder under the build's tmp/ (or /tmp). */
static inline void sweep_scratch(char *buf, size_t len, const char *tag)
{
    const char *d = getenv("RAILSYM_BUILD_DIR");
    char base[256];
    snprintf(base, sizeof base, "%.200s/tmp", d && *d ? d : "/tmp");
    mkdir(base, 0777);
    snprintf(buf, len, "%.200s/%.40s-%ld-XXXXXX", base, tag, (long)getpid());
    if (!mkdtemp(buf))
        snprintf(buf, len, "/tmp/%s-%ld", tag, (long)getpid());
}

static inline void sweep_rm_rf(const char *dir)
{
    char *argv[] = {"rm", "-rf", (char *)dir, NULL};
    sweep_run(argv, NULL);
}

#endif /* TEST_SWEEP_UTIL_H */
