/*
 * rs_test.h — what every test program shares: running its Check suite, and
 * requiring its inputs (a generated model, a data file, a tool), for C and
 * C++ programs alike.
 *
 * Header-only (static inline), so that C programs (linked with
 * the C files of tests/support/) and C++ programs (linked with its C++ files) use
 * the same code.
 *
 * A missing input is a failure, never a skip: a test that returns success
 * when the folder it checks is missing would pass by accident.  The message
 * names the missing path and the command that makes it.
 */
#ifndef RS_TEST_H
#define RS_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Runs every test of S (Check's output CK_NORMAL), frees the runner and
 * returns the exit status of a test program: EXIT_SUCCESS when all passed.
 * The fork mode is Check's default (CK_FORK, or the CK_FORK variable). */
static inline int rs_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The same, every test in the program's own process (CK_NOFORK), for
 * programs whose tests share state set up once (a loaded model). */
static inline int rs_test_run_nofork(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* main() of a program whose suite is built by SUITE_FN(). */
#define RS_TEST_MAIN(suite_fn)                                                                     \
    int main(void)                                                                                 \
    {                                                                                              \
        return rs_test_run(suite_fn());                                                            \
    }

/* The file of a shipped model's generated code, and the command that
 * (re)makes it: generated/NAME/NAME_model.c from the .vdl of that name
 * under vehicles/ (generated/ is committed: `git checkout generated/NAME`
 * restores it too).  Returns 1 when the file is readable; otherwise writes
 * the reason to MSG and returns 0. */
static inline int rs_test_model_present(const char *name, char *msg, size_t len)
{
    char path[512], vdl[512] = "";
    snprintf(path, sizeof path, "generated/%s/%s_model.c", name, name);
    if (access(path, R_OK) == 0)
        return 1;
    static const char *const where[] = {"vehicles/examples/%s.vdl", "vehicles/%s/%s.vdl",
                                        "vehicles/trains/%s.vdl"};
    for (size_t i = 0; i < sizeof where / sizeof where[0] && !vdl[0]; i++) {
        char cand[512];
        snprintf(cand, sizeof cand, where[i], name, name);
        if (access(cand, R_OK) == 0)
            snprintf(vdl, sizeof vdl, "%s", cand);
    }
    snprintf(msg, len,
             "%s is missing (run the tests from the repository root); make it with: "
             "./build/railsym compile %s (or restore it: git checkout generated/%s)",
             path, vdl[0] ? vdl : "vehicles/.../MODEL.vdl", name);
    return 0;
}

/* Inside a test: fails the test unless generated/NAME/ holds its model. */
#define RS_REQUIRE_MODEL(name)                                                                     \
    do {                                                                                           \
        char rs_req_msg_[1200];                                                                    \
        if (!rs_test_model_present((name), rs_req_msg_, sizeof rs_req_msg_))                       \
            ck_abort_msg("%s", rs_req_msg_);                                                       \
    } while (0)

/* In main(), before the suite runs: 1 when generated/NAME/ holds its model,
 * otherwise 0 after writing why (and the fix) to stderr; the program then
 * returns EXIT_FAILURE. */
static inline int rs_test_need_model(const char *prog, const char *name)
{
    char msg[1200];
    if (rs_test_model_present(name, msg, sizeof msg))
        return 1;
    fprintf(stderr, "%s: FAILED: %s\n", prog, msg);
    return 0;
}

/* Inside a test: fails the test unless PATH is an executable program
 * (FIX: how to get it). */
#define RS_REQUIRE_PROGRAM(path, fix)                                                              \
    do {                                                                                           \
        if (access((path), X_OK) != 0)                                                             \
            ck_abort_msg("%s is missing or not executable; %s", (path), (fix));                    \
    } while (0)

#endif /* RS_TEST_H */
