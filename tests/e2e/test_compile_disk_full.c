/*
 * test_compile_disk_full.c — `railsym compile` when the disk fills up while
 * it writes: a clear message, exit status 1, and no output folder (neither
 * the target nor the temporary one) left behind.
 *
 * A full disk is simulated with the file-size limit: under `ulimit -f 4`
 * (4 KiB) with SIGXFSZ ignored, every write past 4 KiB fails with EFBIG,
 * which is what the compiler sees on a full disk (ENOSPC) — a short write.
 * The generated C of the double pendulum is larger than that.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include "rs_test.h"

static const char *railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "build/railsym";
}

/* Runs a shell command, captures stdout+stderr into out, returns the exit status. */
static int run(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    ck_assert_msg(p != NULL, "popen failed");
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(compile_on_full_disk_leaves_nothing)
{
    char dir[] = "/tmp/railsym_full_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "trap '' XFSZ; ulimit -f 4; %s compile vehicles/examples/double_pendulum.vdl -o %s/out 2>&1",
             railsym_bin(), dir);
    int rc = run(cmd, out, sizeof out);
    ck_assert_msg(rc == 1, "exit status %d (want 1); output:\n%s", rc, out);
    ck_assert_msg(strstr(out, "cannot write") != NULL, "no clear message:\n%s", out);
    ck_assert_msg(strstr(out, "nothing written") != NULL, "message does not say nothing was written:\n%s", out);

    /* Nothing left: the folder holds no entry at all. */
    snprintf(cmd, sizeof cmd, "ls -A %s | wc -l", dir);
    ck_assert_int_eq(run(cmd, out, sizeof out), 0);
    ck_assert_msg(atoi(out) == 0, "compile left %s entries in %s", out, dir);

    /* The same compile without the limit succeeds: the failure was the disk. */
    snprintf(cmd, sizeof cmd, "%s compile vehicles/examples/double_pendulum.vdl -o %s/out 2>&1", railsym_bin(), dir);
    rc = run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "unlimited compile failed (%d):\n%s", rc, out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compile_disk_full");
    TCase *tc = tcase_create("disk_full");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, compile_on_full_disk_leaves_nothing);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
