/*
 * rs_test_files.h — what the end-to-end tests do with files and commands,
 * once: the railsym program under test (absolute, so commands may run in
 * any folder), shell commands with printf formatting, writing and reading
 * whole files.  Failures abort the running check with the path.
 */
#ifndef RS_TEST_FILES_H
#define RS_TEST_FILES_H

#include <check.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The railsym program under test (RAILSYM_BIN, else ./build/railsym), as an
 * absolute path. */
static inline const char *rs_test_bin(void)
{
    static char abs[PATH_MAX];
    const char *b = getenv("RAILSYM_BIN");
    const char *rel = b && *b ? b : "./build/railsym";
    if (!realpath(rel, abs))
        ck_abort_msg("no railsym program at %s", rel);
    return abs;
}

/* Runs a shell command line made like printf; its exit status (128 when it
 * did not exit normally). */
static inline int rs_test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int rs_test_sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof cmd, "command too long: %.200s...", cmd);
    const int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Writes text to DIR/NAME. */
static inline void rs_test_write(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    ck_assert_msg(fclose(f) == 0, "cannot write %s", path);
}

/* The whole of a file, malloc'ed and terminated (the caller frees it); NULL
 * when it cannot be read. */
static inline char *rs_test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* The same for a file that must be there: aborts the check when it is not. */
static inline char *rs_test_read(const char *path)
{
    char *text = rs_test_slurp(path);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    return text;
}

#endif /* RS_TEST_FILES_H */
