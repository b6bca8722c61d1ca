/*
 * rs_test_files.h — what the end-to-end tests do with files and commands,
 * once: the railsym program under test (absolute, so commands may run in
 * any folder), shell commands with printf formatting, writing and reading
 * whole files, a run's CSV result as a table, a scratch folder, compiling a
 * .vdl text into a model folder, building a plugin library.  Failures abort
 * the running check with the path.
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
 * absolute path.  (realpath and mkdtemp: the includer defines _XOPEN_SOURCE
 * 700 or _DEFAULT_SOURCE before its first header.) */
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

/* A run's CSV result as a table: the header's column names and every row's
 * numbers.  {0} before the first read; read again, it is read afresh. */
typedef struct rs_test_csv {
    int ncol, nrow;
    char **names;   /* ncol names, pointing into text */
    double *v;      /* row r, column k at v[r * ncol + k] */
    char *text;     /* the file */
} rs_test_csv;

static inline void rs_test_csv_free(rs_test_csv *t)
{
    free(t->names);
    free(t->v);
    free(t->text);
    memset(t, 0, sizeof *t);
}

/* Reads the CSV file whose path is made like printf into t; aborts the
 * check when it cannot be read or has no header.  A row's missing numbers
 * read 0 (as strtod of nothing). */
static inline void rs_test_csv_read(rs_test_csv *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void rs_test_csv_read(rs_test_csv *t, const char *fmt, ...)
{
    char path[PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof path, "path too long: %.200s...", path);
    rs_test_csv_free(t);
    t->text = rs_test_read(path);
    size_t lines = 1;
    for (const char *c = t->text; *c; c++)
        lines += *c == '\n';
    char *line = t->text, *next = strchr(line, '\n');
    ck_assert_msg(*line != '\0', "%s is empty: no header", path);
    if (next)
        *next++ = '\0';
    t->names = calloc(strlen(line) / 2 + 1, sizeof *t->names);   /* at most one name per 2 characters */
    ck_assert_ptr_nonnull(t->names);
    for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ","))
        t->names[t->ncol++] = tok;
    t->v = calloc(lines * (size_t)(t->ncol > 0 ? t->ncol : 1), sizeof *t->v);
    ck_assert_ptr_nonnull(t->v);
    for (line = next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *p = line;
        for (int k = 0; k < t->ncol; k++) {
            t->v[(size_t)t->nrow * (size_t)t->ncol + (size_t)k] = strtod(p, &p);
            if (*p == ',')
                p++;
        }
        t->nrow++;
    }
}

/* The index of the column NAME; aborts the check when there is none. */
static inline int rs_test_csv_col(const rs_test_csv *t, const char *name)
{
    for (int k = 0; k < t->ncol; k++)
        if (strcmp(t->names[k], name) == 0)
            return k;
    ck_abort_msg("no column '%s'", name);
    return -1;
}

/* The number in ROW of the column with index K. */
static inline double rs_test_csv_cell(const rs_test_csv *t, int row, int k)
{
    if (row < 0 || row >= t->nrow || k < 0 || k >= t->ncol)   /* not ck_assert: it logs each pass, and rows are many */
        ck_abort_msg("row %d of %d, column %d of %d", row, t->nrow, k, t->ncol);
    return t->v[(size_t)row * (size_t)t->ncol + (size_t)k];
}

/* The number in ROW (0: the first after the header) of the column NAME. */
static inline double rs_test_csv_at(const rs_test_csv *t, int row, const char *name)
{
    return rs_test_csv_cell(t, row, rs_test_csv_col(t, name));
}

/* The C compiler the tests build libraries with (CC, else cc). */
static inline const char *rs_test_cc(void)
{
    const char *c = getenv("CC");
    return c && *c ? c : "cc";
}

/* A fresh scratch folder made from TEMPLATE ("/tmp/NAME_XXXXXX") into DIR
 * (LEN bytes). */
static inline void rs_test_mkdtemp(char *dir, size_t len, const char *templ)
{
    const int n = snprintf(dir, len, "%s", templ);
    ck_assert_msg(n >= 0 && (size_t)n < len, "folder name too long: %s", templ);
    ck_assert_msg(mkdtemp(dir) != NULL, "cannot make a folder from %s", templ);
}

/* Removes the folder DIR and all in it; a folder left behind in /tmp is said
 * on stderr, not a failed check (teardowns run outside the checks). */
static inline void rs_test_rmtree(const char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* Writes TEXT to DIR/NAME.vdl and compiles it with the program under test
 * into the model folder DIR/NAME; the compiler's output goes to DIR/NAME.log,
 * shown when it fails. */
static inline void rs_test_compile(const char *dir, const char *name, const char *text)
{
    char file[256];
    const int n = snprintf(file, sizeof file, "%s.vdl", name);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof file, "model name too long: %s", name);
    rs_test_write(dir, file, text);
    if (rs_test_sh("'%s' compile '%s/%s.vdl' -o '%s/%s' >'%s/%s.log' 2>&1", rs_test_bin(), dir, name, dir, name, dir,
                   name) != 0) {
        char log[PATH_MAX];
        snprintf(log, sizeof log, "%s/%s.log", dir, name);
        char *text_log = rs_test_slurp(log);
        ck_abort_msg("compiling %s/%s.vdl failed (%s): %.3000s", dir, name, log, text_log ? text_log : "no log");
    }
}

/* Builds the plugin source SRC (a path from the repository root) into the
 * library DIR/LIB the way docs/plugins.md says (C99, warnings as errors,
 * shared, position-independent), with the extra compiler flags FLAGS ("" for
 * none). */
static inline void rs_test_plugin_lib(const char *dir, const char *lib, const char *src, const char *flags)
{
    ck_assert_msg(rs_test_sh("%s -std=c99 -Wall -Wextra -Werror -shared -fPIC -O2 -I abi %s -o '%s/%s' '%s' -lm",
                             rs_test_cc(), flags, dir, lib, src) == 0,
                  "building the plugin %s into %s/%s failed", src, dir, lib);
}

#endif /* RS_TEST_FILES_H */
