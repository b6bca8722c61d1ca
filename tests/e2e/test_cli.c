/*
 * test_cli.c — the `railsym` command's user interface, tested from outside:
 * each test runs the built command as a subprocess (fork + exec) and checks
 * its exit status, standard output and standard error against the contracts
 * of DESIGN.md ("Contracts"): --help and --version, every subcommand's
 * --help, exit status 0 / 1 (user error) / 2 (bad usage), and suggestions for
 * misspelt command names.
 *
 * The command is $RAILSYM_BIN (set by scripts/run-tests.sh, so the sanitizer
 * pass tests the sanitizer build), else ./build/railsym; tests run from the
 * repository root.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "version.hpp"
#include "rs_test.h"

#define OUT_MAX 65536

/* What one run of the command produced. */
typedef struct {
    int status;          /* exit status, or 128 + signal number if killed */
    char out[OUT_MAX];   /* standard output (truncated at OUT_MAX - 1)    */
    char err[OUT_MAX];   /* standard error                                */
} run_result;

/* The subcommands of the contract, in the order `railsym --help` lists them. */
static const char *const commands[] = {
    "compile", "ops", "run", "plot", "sweep", "critical-speed", "linear", "contact-geometry", "irregularity", "psd",
    "comfort", "track-shift", "assess", "export-fmu",
};
#define N_COMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const char *railsym_bin(void) {
    const char *b = getenv("RAILSYM_BIN");
    return (b && *b) ? b : "./build/railsym";
}

/* Appends what is readable on fd to buf; returns 0 at end of file. */
static int drain(int fd, char *buf, size_t *len) {
    char tmp[4096];
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n < 0 && errno == EINTR) return 1;
    if (n <= 0) return 0;
    size_t room = OUT_MAX - 1 - *len;
    size_t take = (size_t)n < room ? (size_t)n : room;
    memcpy(buf + *len, tmp, take);
    *len += take;
    buf[*len] = '\0';
    return 1;
}

/*
 * Runs railsym with the NULL-terminated args (argv[1..]).  stdout_path, if
 * not NULL, replaces the captured standard output by that file (to test
 * write errors with /dev/full).
 */
static void run_to(run_result *r, const char *const *args, const char *stdout_path) {
    const char *argv[32];
    int argc = 0;
    argv[argc++] = railsym_bin();
    for (int i = 0; args[i] && argc < 31; ++i) argv[argc++] = args[i];
    argv[argc] = NULL;

    memset(r, 0, sizeof *r);
    int po[2], pe[2];
    ck_assert_int_eq(pipe(po), 0);
    ck_assert_int_eq(pipe(pe), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int out_fd = po[1];
        if (stdout_path) {
            out_fd = open(stdout_path, O_WRONLY);
            if (out_fd < 0) _exit(126);
        }
        dup2(out_fd, STDOUT_FILENO);
        dup2(pe[1], STDERR_FILENO);
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    size_t lo = 0, le = 0;
    int open_o = 1, open_e = 1;
    while (open_o || open_e) {          /* read both pipes until both close */
        struct pollfd fds[2] = {{open_o ? po[0] : -1, POLLIN, 0}, {open_e ? pe[0] : -1, POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            ck_assert_int_eq(errno, EINTR);
            continue;
        }
        if (fds[0].revents) open_o = drain(po[0], r->out, &lo);
        if (fds[1].revents) open_e = drain(pe[0], r->err, &le);
    }
    close(po[0]);
    close(pe[0]);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0) ck_assert_int_eq(errno, EINTR);
    r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    ck_assert_msg(r->status != 127, "could not run %s (build it first: make)", argv[0]);
}

static void run(run_result *r, const char *const *args) { run_to(r, args, NULL); }

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static run_result res; /* large: keep it off the stack */

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------------------ global */

START_TEST(help_lists_every_command) {
    run(&res, ARGS("--help"));
    ck_assert_int_eq(res.status, 0);
    ck_assert_msg(starts_with(res.out, "usage: railsym"), "stdout: %s", res.out);
    for (int i = 0; i < N_COMMANDS; ++i) {
        char line[64];
        snprintf(line, sizeof line, "\n  %s ", commands[i]);
        ck_assert_msg(strstr(res.out, line), "'%s' missing from --help:\n%s", commands[i], res.out);
    }
    ck_assert_str_eq(res.err, "");
}
END_TEST

START_TEST(short_and_word_help_match_long_help) {
    run(&res, ARGS("--help"));
    static char long_help[OUT_MAX];
    memcpy(long_help, res.out, OUT_MAX);
    run(&res, ARGS("-h"));
    ck_assert_int_eq(res.status, 0);
    ck_assert_str_eq(res.out, long_help);
    run(&res, ARGS("help"));
    ck_assert_int_eq(res.status, 0);
    ck_assert_str_eq(res.out, long_help);
}
END_TEST

START_TEST(version_prints_the_version) {
    run(&res, ARGS("--version"));
    ck_assert_int_eq(res.status, 0);
    const char *want = "railsym " RAILSYM_VERSION;
    ck_assert_msg(starts_with(res.out, want), "stdout: %s", res.out);
    char next = res.out[strlen(want)];
    ck_assert_msg(next == ' ' || next == '\n', "version not followed by a separator: %s", res.out);
    ck_assert_str_eq(res.err, "");
    run(&res, ARGS("-V"));
    ck_assert_int_eq(res.status, 0);
    ck_assert(starts_with(res.out, want));
}
END_TEST

START_TEST(no_command_is_bad_usage) {
    run(&res, ARGS(NULL));
    ck_assert_int_eq(res.status, 2);
    ck_assert_ptr_nonnull(strstr(res.err, "missing command"));
    ck_assert_ptr_nonnull(strstr(res.err, "usage: railsym"));
    ck_assert_str_eq(res.out, "");
}
END_TEST

START_TEST(unknown_global_option_is_bad_usage) {
    run(&res, ARGS("--frobnicate"));
    ck_assert_int_eq(res.status, 2);
    ck_assert_ptr_nonnull(strstr(res.err, "unknown option '--frobnicate'"));
    ck_assert_ptr_null(strstr(res.err, "did you mean"));
    ck_assert_ptr_nonnull(strstr(res.err, "usage: railsym"));
    run(&res, ARGS("--verison"));
    ck_assert_int_eq(res.status, 2);
    ck_assert_ptr_nonnull(strstr(res.err, "did you mean '--version'?"));
}
END_TEST

/* ------------------------------------------------------------ unknown commands */

static const char *const typos[][2] = {
    {"compil", "compile"},   {"comple", "compile"},  {"opps", "ops"},
    {"runn", "run"},         {"plto", "plot"},       {"swep", "sweep"},
    {"critical_speed", "critical-speed"},            {"crit", "critical-speed"},
};

START_TEST(unknown_command_suggests_closest) {
    const char *typo = typos[_i][0], *meant = typos[_i][1];
    run(&res, ARGS(typo));
    ck_assert_int_eq(res.status, 2);
    char want[128];
    snprintf(want, sizeof want, "unknown command '%s' (did you mean '%s'?)", typo, meant);
    ck_assert_msg(strstr(res.err, want), "stderr lacks \"%s\":\n%s", want, res.err);
    ck_assert_str_eq(res.out, "");
}
END_TEST

START_TEST(unrelated_command_gets_no_suggestion) {
    run(&res, ARGS("zzzzzzzz"));
    ck_assert_int_eq(res.status, 2);
    ck_assert_ptr_nonnull(strstr(res.err, "unknown command 'zzzzzzzz'"));
    ck_assert_ptr_null(strstr(res.err, "did you mean"));
    ck_assert_ptr_nonnull(strstr(res.err, "railsym --help"));
}
END_TEST

START_TEST(help_of_unknown_command_is_bad_usage) {
    run(&res, ARGS("help", "compiel"));
    ck_assert_int_eq(res.status, 2);
    ck_assert_ptr_nonnull(strstr(res.err, "did you mean 'compile'?"));
}
END_TEST

/* ------------------------------------------------------------ subcommands */

START_TEST(subcommand_help_exits_0) {
    const char *cmd = commands[_i];
    char want[96];
    snprintf(want, sizeof want, "usage: railsym %s ", cmd);

    run(&res, ARGS(cmd, "--help"));
    ck_assert_int_eq(res.status, 0);
    ck_assert_msg(starts_with(res.out, want), "%s --help printed:\n%s", cmd, res.out);
    ck_assert_ptr_nonnull(strstr(res.out, "--help"));
    ck_assert_str_eq(res.err, "");
    static char long_help[OUT_MAX];
    memcpy(long_help, res.out, OUT_MAX);

    run(&res, ARGS(cmd, "-h"));
    ck_assert_int_eq(res.status, 0);
    ck_assert_str_eq(res.out, long_help);

    run(&res, ARGS("help", cmd));
    ck_assert_int_eq(res.status, 0);
    ck_assert_str_eq(res.out, long_help);
}
END_TEST

/* critical-speed's help names the options it parses for --bifurcation
 * (docs/critical_speed.md): the help text is written by hand in the command
 * table, apart from the parser's option list, and had left them out. */
START_TEST(critical_speed_help_lists_bifurcation_options) {
    run(&res, ARGS("critical-speed", "--help"));
    ck_assert_int_eq(res.status, 0);
    const char *opts[] = {"--bifurcation", "--speeds N", "--small M", "--large M", "--ramp-rate A", "--one-step",
                          "--set 'LINE'", "--bisection", "--jobs J"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        ck_assert_msg(strstr(res.out, opts[i]), "'%s' missing from critical-speed --help:\n%s", opts[i], res.out);
}
END_TEST

/*
 * A subcommand given an input that does not exist fails with a message and
 * status 1 or 2, whether it is implemented yet or not; while it is not, the
 * message is exactly "railsym NAME: not implemented yet (see ...)" and the
 * status 1.
 */
START_TEST(subcommand_without_valid_input_fails_cleanly) {
    const char *cmd = commands[_i];
    run(&res, ARGS(cmd, "tests/no-such-file.vdl"));
    ck_assert_msg(res.status == 1 || res.status == 2, "%s exited %d", cmd, res.status);
    ck_assert_msg(res.err[0] != '\0', "%s failed without a message", cmd);
    if (strstr(res.err, "not implemented yet")) {
        char want[96];
        snprintf(want, sizeof want, "railsym %s: not implemented yet (see ", cmd);
        ck_assert_msg(starts_with(res.err, want), "stderr: %s", res.err);
        ck_assert_int_eq(res.status, 1);
    }
}
END_TEST

/* After "--", --help is an argument, not a request for help. */
START_TEST(help_after_double_dash_is_an_argument) {
    run(&res, ARGS("ops", "--", "--help"));
    ck_assert_int_ne(res.status, 0);
    ck_assert_ptr_null(strstr(res.out, "usage: railsym ops"));
}
END_TEST

/* Output that cannot be written is an error, not a silent success. */
START_TEST(write_error_on_stdout_fails) {
    /* a missing device fails the test rather than skipping it */
    ck_assert_msg(access("/dev/full", W_OK) == 0,
                  "/dev/full is missing or not writable: this test needs it (as root: "
                  "mknod -m 666 /dev/full c 1 7)");
    run_to(&res, ARGS("--help"), "/dev/full");
    ck_assert_int_ne(res.status, 0);
    ck_assert_ptr_nonnull(strstr(res.err, "error writing"));
}
END_TEST

/* --set: scenario statements after the scenario file, in order, named
 * "--set:N" in messages; one statement per --set. */
START_TEST(set_statements_reach_the_run) {
    char dir[] = "/tmp/rs_cli_setXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char csv[256];
    snprintf(csv, sizeof csv, "%s/p.csv", dir);
    run(&res, ARGS("run", "generated/pendulum", "--set", "duration 0.05", "--set", "output 0.01", "--out", csv,
                   "--quiet"));
    ck_assert_msg(res.status == 0, "exit %d: %s", res.status, res.err);
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char line[4096], last[4096] = "";
    int rows = -1;   /* the header */
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        rows++;
        snprintf(last, sizeof last, "%s", line);
    }
    fclose(f);
    ck_assert_int_eq(rows, 6);   /* t = 0, 0.01, ..., 0.05 */
    ck_assert_msg(strtod(last, NULL) == 0.05, "last row %s", last);
    run(&res, ARGS("run", "generated/pendulum", "--set", "duration 0.05", "--set", "bogus 1", "--out", csv));
    ck_assert_int_eq(res.status, 1);
    ck_assert_msg(strstr(res.err, "--set:2: unknown statement 'bogus'"), "%s", res.err);
    run(&res, ARGS("run", "generated/pendulum", "--set", "duration 0.05\nstep 1", "--out", csv));
    ck_assert_int_eq(res.status, 2);
    ck_assert_msg(strstr(res.err, "--set takes one statement without line breaks"), "%s", res.err);
    unlink(csv);
    rmdir(dir);
}
END_TEST

static Suite *cli_suite(void) {
    Suite *s = suite_create("cli");
    TCase *g = tcase_create("global");
    tcase_add_test(g, help_lists_every_command);
    tcase_add_test(g, critical_speed_help_lists_bifurcation_options);
    tcase_add_test(g, short_and_word_help_match_long_help);
    tcase_add_test(g, version_prints_the_version);
    tcase_add_test(g, no_command_is_bad_usage);
    tcase_add_test(g, unknown_global_option_is_bad_usage);
    tcase_add_test(g, write_error_on_stdout_fails);
    tcase_add_test(g, set_statements_reach_the_run);
    suite_add_tcase(s, g);

    TCase *u = tcase_create("unknown");
    tcase_add_loop_test(u, unknown_command_suggests_closest, 0, (int)(sizeof typos / sizeof typos[0]));
    tcase_add_test(u, unrelated_command_gets_no_suggestion);
    tcase_add_test(u, help_of_unknown_command_is_bad_usage);
    suite_add_tcase(s, u);

    TCase *c = tcase_create("subcommands");
    tcase_set_timeout(c, 60); /* an implemented command may do real work */
    tcase_add_loop_test(c, subcommand_help_exits_0, 0, N_COMMANDS);
    tcase_add_loop_test(c, subcommand_without_valid_input_fails_cleanly, 0, N_COMMANDS);
    tcase_add_test(c, help_after_double_dash_is_an_argument);
    suite_add_tcase(s, c);
    return s;
}

RS_TEST_MAIN(cli_suite)
