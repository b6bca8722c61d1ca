/*
 * rs_test_scn.h — what the end-to-end tests that run scenarios of their
 * own through `railsym run` do, once: a scratch folder with a model
 * compiled into it, a scenario (the test's first lines and the case's)
 * written there and run (or refused), a file of the folder by name, the
 * numbers of a result's last row.  Failures abort the running check with
 * the path.
 *
 * Every file of a case NAME lies in the folder: NAME.scn, and unless the
 * call names others, NAME.csv and NAME.log.
 *
 * The physics tests run theirs in-process instead (rs_test_drive:
 * rs_driver_run, what `railsym run` calls), the status and the log's
 * lines at hand.
 */
#ifndef RS_TEST_SCN_H
#define RS_TEST_SCN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_driver.h"
#include "rs_test_files.h"
#include "test_sweep_util.h"

typedef struct rs_test_scn {
    char dir[512];      /* the scratch folder */
    char model[600];    /* DIR/MODEL, the model folder the set-up compiled */
    const char *base;   /* the first lines of every scenario (duration, step, …) */
} rs_test_scn;

/* What a run may change; {0} for the defaults. */
typedef struct rs_test_scn_opts {
    const char *base;          /* the scenario's first lines (NULL: the folder's) */
    const char *model;         /* a model folder's name in DIR (NULL: the set-up's) */
    const char *out, *log;     /* the result and the log (NULL: DIR/NAME.csv, DIR/NAME.log) */
    const char *const *args;   /* more arguments after `-o OUT`, NULL-terminated (NULL: none) */
} rs_test_scn_opts;

/* DIR/NAME.EXT into buf. */
static inline void rs_test_scn_path(const rs_test_scn *s, char *buf, size_t len, const char *name, const char *ext)
{
    const int n = snprintf(buf, len, "%s/%s.%s", s->dir, name, ext);
    ck_assert_msg(n >= 0 && (size_t)n < len, "path too long: %s/%s.%s", s->dir, name, ext);
}

/* A fresh scratch folder named after TAG (sweep_scratch: under the build's
 * tmp/), the model MODEL compiled there from the .vdl text VDL (NULL: none;
 * rs_test_compile), and BASE as every scenario's first lines. */
static inline void rs_test_scn_setup(rs_test_scn *s, const char *tag, const char *base, const char *model,
                                     const char *vdl)
{
    sweep_scratch(s->dir, sizeof s->dir, tag);
    s->base = base;
    s->model[0] = '\0';
    if (!vdl)
        return;
    const int n = snprintf(s->model, sizeof s->model, "%s/%s", s->dir, model);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof s->model, "model path too long: %s/%s", s->dir, model);
    rs_test_compile(s->dir, model, vdl);
}

/* The size of the paths these helpers make. */
enum { RS_TEST_SCN_PATH = 700 };

/* The result and log files of case NAME under O (RS_TEST_SCN_PATH bytes
 * each). */
static inline void rs_test_scn_outputs(const rs_test_scn *s, const char *name, rs_test_scn_opts o, char *out,
                                       char *log)
{
    if (o.out)
        snprintf(out, RS_TEST_SCN_PATH, "%s", o.out);
    else
        rs_test_scn_path(s, out, RS_TEST_SCN_PATH, name, "csv");
    if (o.log)
        snprintf(log, RS_TEST_SCN_PATH, "%s", o.log);
    else
        rs_test_scn_path(s, log, RS_TEST_SCN_PATH, name, "log");
}

/* Writes DIR/NAME.scn (the base lines, then EXTRA and a newline, so that
 * EXTRA's first line is the base's line count + 1) and runs
 * `railsym run MODEL -s SCN -o OUT ARGS…` with its output into the log;
 * the exit status (sweep_run: 99 on a sanitizer report). */
static inline int rs_test_scn_run(const rs_test_scn *s, const char *name, const char *extra, rs_test_scn_opts o)
{
    char scn[RS_TEST_SCN_PATH], model[RS_TEST_SCN_PATH], out[RS_TEST_SCN_PATH], log[RS_TEST_SCN_PATH], text[8192];
    rs_test_scn_path(s, scn, sizeof scn, name, "scn");
    if (o.model)
        snprintf(model, sizeof model, "%s/%s", s->dir, o.model);
    else
        snprintf(model, sizeof model, "%s", s->model);
    rs_test_scn_outputs(s, name, o, out, log);
    const int n = snprintf(text, sizeof text, "%s%s\n", o.base ? o.base : s->base, extra);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof text, "scenario %s too long", scn);
    sweep_write(scn, text);
    enum { MAX_ARGS = 16 };
    const char *argv[8 + MAX_ARGS] = {sweep_railsym_bin(), "run", model, "-s", scn, "-o", out};
    int k = 7;
    for (const char *const *a = o.args; a && *a; a++) {
        ck_assert_msg(k < 7 + MAX_ARGS, "more than %d arguments for %s", MAX_ARGS, scn);
        argv[k++] = *a;
    }
    argv[k] = NULL;
    return sweep_run((char **)argv, log);
}

/* The whole of DIR/NAME.EXT, malloc'ed (the caller frees it); aborts the
 * check when it cannot be read. */
static inline char *rs_test_scn_read(const rs_test_scn *s, const char *name, const char *ext)
{
    char path[RS_TEST_SCN_PATH];
    rs_test_scn_path(s, path, sizeof path, name, ext);
    return rs_test_read(path);
}

/* The last row of DIR/NAME.csv: its N numbers after the time into x. */
static inline void rs_test_scn_last_row(const rs_test_scn *s, const char *name, double *x, int n)
{
    char *text = rs_test_scn_read(s, name, "csv");
    char *end = text + strlen(text);
    if (end > text)
        end--;   /* the last row's newline */
    while (end > text && end[-1] != '\n')
        end--;
    char *c = strchr(end, ',');
    for (int i = 0; i < n; i++) {
        ck_assert_msg(c != NULL && *c == ',', "%s.csv: the last row has %d numbers after the time, not %d", name, i,
                      n);
        x[i] = strtod(c + 1, &c);
    }
    free(text);
}

/* Runs case NAME as rs_test_scn_run does, expecting a refusal: a non-zero
 * exit status, WANT in its log, and no result file. */
static inline void rs_test_scn_refused(const rs_test_scn *s, const char *name, const char *extra, rs_test_scn_opts o,
                                       const char *want)
{
    char out[RS_TEST_SCN_PATH], log[RS_TEST_SCN_PATH];
    rs_test_scn_outputs(s, name, o, out, log);
    const int st = rs_test_scn_run(s, name, extra, o);
    char *text = rs_test_read(log);
    ck_assert_msg(st != 0, "%s.scn ran (exit status 0); expected the refusal: %s\n%s", name, want, text);
    ck_assert_msg(strstr(text, want), "%s\n  expected: %s", text, want);
    free(text);
    ck_assert_msg(access(out, F_OK) != 0, "%s.scn was refused, yet it left the result file %s", name, out);
}

/* ---- in-process runs ---- */

/* rs_driver_run's log sink: each line appended to a buffer, "LINE\n". */
typedef struct rs_test_drive_log {
    char *text;
    size_t len;
} rs_test_drive_log;

static inline void rs_test_drive_collect(void *ctx, rs_log_kind kind, const char *text)
{
    (void)kind;
    rs_test_drive_log *l = ctx;
    const size_t n = strlen(l->text);
    snprintf(l->text + n, l->len - n, "%s\n", text);
}

/* Runs the model folder MODEL in-process (rs_driver_run, what `railsym
 * run` calls) with the scenario file SCN and the --set lines SET (NULL:
 * none) into OUT.  LOG (LOGLEN bytes) receives the log's lines, the
 * equilibrium's report among them; LOG NULL: quiet.  The status; its
 * message in err. */
static inline int rs_test_drive(const char *model, const char *scn, const char *set, const char *out, char *log,
                                size_t loglen, char *err, size_t errlen)
{
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = model;
    c.scenario = scn;
    c.set_text = set;
    c.out = out;
    rs_test_drive_log sink = {log, loglen};
    if (log) {
        log[0] = '\0';
        c.progress = -1;   /* the equilibrium reports through the log unless quiet (progress 0); a run this short
                              shows no progress line */
        c.log.fn = rs_test_drive_collect;
        c.log.ctx = &sink;
    } else {
        c.progress = 0;
    }
    return rs_driver_run(&c, NULL, err, errlen);
}

/* The same with the scenario DIR/NAME, written from TEXT first (NULL: it is
 * there), into DIR/NAME.csv. */
static inline int rs_test_drive_in(const char *dir, const char *name, const char *text, const char *model, char *log,
                                   size_t loglen, char *err, size_t errlen)
{
    char scn[RS_TEST_SCN_PATH], out[RS_TEST_SCN_PATH + 8];
    const int n = snprintf(scn, sizeof scn, "%s/%s", dir, name);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof scn, "path too long: %s/%s", dir, name);
    snprintf(out, sizeof out, "%s.csv", scn);
    if (text)
        rs_test_write(dir, name, text);
    return rs_test_drive(model, scn, NULL, out, log, loglen, err, errlen);
}

#endif /* RS_TEST_SCN_H */
