/*
 * rs_sweep_train.c — sweeps over a train file (docs/sweeps.md "Trains"):
 * each variant is the train file with `set NAME = VALUE` lines read after
 * its last line (rs_train_file.h), run by rs_train_run on its own threads.
 * rs_sweep.c calls these when rs_sweep_config.train_file is given.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_status.h"
#include "rs_sweep_lines.h"
#include "rs_sweep_train.h"
#include "rs_train_contact.h"
#include "rs_train_file.h"

/* "set NAME = VALUE" lines for the values of every variable (malloc). */
static char *set_lines(const rs_sweep_spec *s, const double *values)
{
    const int nv = rs_sweep_spec_nvars(s);
    size_t cap = 1;
    for (int j = 0; j < nv; j++)
        cap += strlen(rs_sweep_spec_var(s, j)) + 40;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    size_t k = 0;
    t[0] = '\0';
    for (int j = 0; j < nv; j++)
        k += (size_t)snprintf(t + k, cap - k, "set %s = %.17g\n", rs_sweep_spec_var(s, j), values[j]);
    return t;
}

/* A parser message without its "FILE:LINE: " (the line of a set line is
 * past the file's end: it would only confuse), and without "set: ". */
static const char *without_location(const char *msg, const char *file)
{
    const size_t fl = strlen(file);
    const char *p = msg;
    if (strncmp(p, file, fl) == 0 && p[fl] == ':') {
        p += fl + 1;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p[0] == ':' && p[1] == ' ')
            p += 2;
        else
            p = msg;
    }
    if (strncmp(p, "set: ", 5) == 0)
        p += 5;
    return p;
}

/* 1 when `want` is a column of the train's CSV (rs_train_run's header). */
static int has_column(const rs_train_spec *S, const char *want)
{
    char col[400];
    if (strcmp(want, "time") == 0)
        return 1;
    for (int v = 0; v < S->nv; v++) {
        static const char *const vcols[] = {"x", "v"};
        for (int k = 0; k < 2; k++) {
            snprintf(col, sizeof col, "%s.%s", S->vname[v], vcols[k]);
            if (strcmp(col, want) == 0)
                return 1;
        }
        /* contact outputs: <vehicle>.<contact>.<quantity> */
        const rs_model *m = S->veh[v].model;
        for (int i = 0; S->contact_out[v] && m && i < m->n_contact; i++)
            for (int k = 0; k < RS_TRAIN_CONTACT_QCOUNT; k++) {
                char qn[32];
                if (!S->contact_q[(size_t)v * RS_TRAIN_CONTACT_QCOUNT + k])
                    continue;
                snprintf(col, sizeof col, "%s.%s.%s", S->vname[v], m->contacts[i].name,
                         rs_train_contact_quantity_name(k, qn, sizeof qn));
                if (strcmp(col, want) == 0)
                    return 1;
            }
        /* internal states (state_outputs): <vehicle>.<state> */
        for (int i = 0; S->state_out[v] && m && i < m->n_z; i++) {
            snprintf(col, sizeof col, "%s.%s", S->vname[v], m->z_names[i]);
            if (strcmp(col, want) == 0)
                return 1;
        }
    }
    for (int c = 0; c + 1 < S->nv; c++) {
        static const char *const ccols[] = {"force", "elongation"};
        for (int k = 0; k < 2; k++) {
            snprintf(col, sizeof col, "%s.%s", S->cname[c], ccols[k]);
            if (strcmp(col, want) == 0)
                return 1;
        }
    }
    return 0;
}

int rs_sweep_train_check(const char *file, rs_load_cache *cache, const rs_sweep_spec *s, double *est_per_variant,
                         char *err, size_t errlen)
{
    const int nv = rs_sweep_spec_nvars(s);
    double *v0 = calloc((size_t)nv + 1, sizeof *v0);
    if (!v0)
        return RS_E_NOMEM;
    rs_sweep_spec_values(s, 0, v0);
    rs_train_spec *S = NULL;
    char msg[2048];
    int st = RS_OK;
    /* each name alone first, so the message names the culprit */
    for (int j = 0; j < nv && st == RS_OK; j++) {
        if (rs_sweep_spec_is_file(s, j) || strchr(rs_sweep_spec_var(s, j), '=')) {
            st = rs_fail(err, errlen, RS_E_ARG,
                         "cannot vary '%s' in a train: trains vary 'TYPE.PARAM' (a vehicle or coupler "
                         "type's parameter, a compiled vehicle's coordinate) or a setting (speed, duration, ...)",
                         rs_sweep_spec_var(s, j));
            break;
        }
        char line[400];
        snprintf(line, sizeof line, "set %s = %.17g\n", rs_sweep_spec_var(s, j), v0[j]);
        if ((st = rs_train_spec_read_extra(file, line, cache, &S, msg, sizeof msg)) != RS_OK) {
            if (st != RS_E_NOMEM && st != RS_E_IO)
                st = RS_E_ARG;
            rs_fail(err, errlen, st, "cannot vary '%s' in %s: %s", rs_sweep_spec_var(s, j), file,
                    without_location(msg, file));
        }
        rs_train_spec_free(&S);
    }
    char *all = st == RS_OK ? set_lines(s, v0) : NULL;
    if (st == RS_OK && !all)
        st = RS_E_NOMEM;
    if (st == RS_OK && (st = rs_train_spec_read_extra(file, all, cache, &S, err, errlen)) == RS_OK) {
        for (int f = 0; f < rs_sweep_spec_nfigures(s) && st == RS_OK; f++) {
            const char *name = rs_sweep_spec_figure_name(s, f);
            const char *open = strchr(name, '(');
            char col[300];
            snprintf(col, sizeof col, "%s", open ? open + 1 : name);
            char *close = strrchr(col, ')');
            if (close)
                *close = '\0';
            if (!has_column(S, col)) {
                st = rs_fail(err, errlen, RS_E_NOTFOUND,
                             "figure '%s': the train's results have no column '%s' (columns: time, "
                             "<vehicle>.x, <vehicle>.v, <coupler>.force, <coupler>.elongation, and with "
                             "contact_outputs <vehicle>.<contact>.N, .fx, .fy or the quantities it names; vehicles %s%s, couplers c1 ...)",
                             name, col, S->vname[0], S->nv > 1 ? " ..." : "");
            }
        }
        /* the work of a step: every vehicle's coordinates (a built-in
         * vehicle has 5), times the steps */
        double n = 0;
        for (int v = 0; v < S->nv; v++)
            n += S->veh[v].model ? S->veh[v].model->n_q : 5;
        *est_per_variant = n * ceil(S->duration / S->step);
    }
    rs_train_spec_free(&S);
    free(all);
    free(v0);
    return st;
}

int rs_sweep_train_variant(const char *file, rs_load_cache *cache, const rs_sweep_spec *s, const double *values,
                           const char *path, int threads, long *steps, char *msg, size_t msglen, char *events,
                           size_t evlen)
{
    rs_sweep_lines lines;
    const rs_log log = rs_sweep_lines_start(&lines, events, evlen);
    char *extra = set_lines(s, values);
    if (!extra)
        return rs_fail(msg, msglen, RS_E_NOMEM, "out of memory");
    /* no progress; the sweep renames the file itself (rs_sweep_commit) */
    rs_train_run_cfg cfg = {file, path, threads > 0 ? threads : 1, extra, cache, 0, log, 1};
    rs_train_run_report rep;
    const int st = rs_train_run(&cfg, &rep, msg, msglen);
    *steps = rep.steps;
    free(extra);
    rs_sweep_lines_end(&lines);
    /* a derailment's message starts with what it is: the file is the
     * sweep's own (rs_sweep.c tells a derailed variant by those words) */
    const size_t fl = strlen(file);
    static const char what[] = ": " RS_TRAIN_DERAILED_MSG;
    if (st == RS_E_DERAILED && strncmp(msg, file, fl) == 0 && strncmp(msg + fl, what, sizeof what - 1) == 0)
        memmove(msg, msg + fl + 2, strlen(msg + fl + 2) + 1);
    return st;
}
