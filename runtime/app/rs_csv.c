/* rs_csv.c — see rs_csv.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_csv.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_track_rel.h"

struct rs_csv {
    FILE *f;
    int ncol;
    int status;
    rs_var *vars;       /* ncol, when bound to a workspace    */
    int need_outputs;
    int need_energy, need_power;   /* energy.* / power.* columns */
    double *values;     /* ncol                               */
    double *outputs;    /* n_out of the bound model           */
    int *trel;          /* ncol: body * RS_TREL_COUNT + quantity of a
                           track-relative column, -1 for the others */
    rs_track_rel *tr;   /* when a column is track-relative    */
};

static void csv_free(rs_csv *c)
{
    if (c->f)
        fclose(c->f);
    free(c->vars);
    free(c->values);
    free(c->outputs);
    free(c->trel);
    rs_track_rel_free(&c->tr);
    free(c);
}

int rs_csv_open(rs_csv **out, const char *path, int ncol, const char *const *names,
                char *err, size_t errlen)
{
    *out = NULL;
    if (!path || ncol < 0 || (ncol > 0 && !names))
        return rs_fail(err, errlen, RS_E_ARG, "rs_csv_open: bad arguments");
    rs_csv *c = calloc(1, sizeof *c);
    if (!c || !(c->values = calloc((size_t)ncol + 1, sizeof(double)))) {
        free(c);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    }
    c->ncol = ncol;
    if (!(c->f = fopen(path, "w"))) {
        rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", path, rs_file_why(errno));
        csv_free(c);
        return RS_E_IO;
    }
    fputs("time", c->f);
    for (int i = 0; i < ncol; i++)
        fprintf(c->f, ",%s", names[i]);
    fputc('\n', c->f);
    errno = 0;
    if (fflush(c->f) != 0 || ferror(c->f)) {
        rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", path, errno ? strerror(errno) : "write error");
        csv_free(c);
        return RS_E_IO;
    }
    *out = c;
    return RS_OK;
}

int rs_csv_row(rs_csv *c, double t, const double *v)
{
    if (!c)
        return RS_E_ARG;
    fprintf(c->f, "%.17g", t);
    for (int i = 0; i < c->ncol; i++)
        fprintf(c->f, ",%.17g", v[i]);
    fputc('\n', c->f);
    if (fflush(c->f) != 0 || ferror(c->f)) {
        if (!c->status)
            c->status = RS_E_IO;
        return RS_E_IO;
    }
    return RS_OK;
}

int rs_csv_open_ws(rs_csv **out, const char *path, rs_ws *ws, int ncol,
                   const char *const *names, char *err, size_t errlen)
{
    *out = NULL;
    if (!ws)
        return rs_fail(err, errlen, RS_E_ARG, "rs_csv_open_ws: workspace is NULL");
    const rs_model *m = rs_ws_model(ws);
    char **defaults = NULL;
    if (!names) {
        /* every coordinate, velocity, multiplier and output */
        ncol = 2 * m->n_q + m->n_phi + m->n_out;
        defaults = calloc((size_t)ncol + 1, sizeof *defaults);
        if (!defaults)
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        int k = 0, bad = 0;
        for (int i = 0; i < m->n_q; i++) {
            size_t len = strlen(m->q_names[i]) + 5;
            if ((defaults[k] = malloc(len)))
                snprintf(defaults[k], len, "%s", m->q_names[i]);
            bad |= !defaults[k++];
        }
        for (int i = 0; i < m->n_q; i++) {
            size_t len = strlen(m->q_names[i]) + 5;
            if ((defaults[k] = malloc(len)))
                snprintf(defaults[k], len, "%s_dot", m->q_names[i]);
            bad |= !defaults[k++];
        }
        for (int i = 0; i < m->n_phi; i++) {
            size_t len = strlen(m->phi_names[i]) + 8;
            if ((defaults[k] = malloc(len)))
                snprintf(defaults[k], len, "lambda_%s", m->phi_names[i]);
            bad |= !defaults[k++];
        }
        for (int i = 0; i < m->n_out; i++) {
            size_t len = strlen(m->output_names[i]) + 1;
            if ((defaults[k] = malloc(len)))
                memcpy(defaults[k], m->output_names[i], len);
            bad |= !defaults[k++];
        }
        names = (const char *const *)defaults;
        if (bad) {
            rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            ncol = k;
            goto fail_nomem;
        }
    }
    rs_var *vars = calloc((size_t)ncol + 1, sizeof *vars);
    if (!vars) {
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto fail_nomem;
    }
    int need_outputs = 0, need_energy = 0, need_power = 0, need_trel = 0;
    int *trel = calloc((size_t)ncol + 1, sizeof *trel);
    if (!trel) {
        free(vars);
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto fail_nomem;
    }
    for (int i = 0; i < ncol; i++) {
        int tb, tk;
        trel[i] = -1;
        if (rs_model_find(m, names[i], &vars[i]) != RS_OK &&
            rs_track_rel_find(m, names[i], &tb, &tk) == RS_OK) {
            /* "<wheel body>.<q>_track": computed here (rs_track_rel.h) */
            trel[i] = tb * RS_TREL_COUNT + tk;
            vars[i].kind = RS_VAR_TIME;   /* not read */
            need_trel = 1;
            continue;
        }
        if (rs_model_find(m, names[i], &vars[i]) != RS_OK) {
            rs_fail(err, errlen, RS_E_NOTFOUND, "model '%s' has no quantity named '%s' (column %d)", m->name,
                    names[i], i + 1);
            free(vars);
            free(trel);
            if (defaults)
                for (int k = 0; k < ncol; k++)
                    free(defaults[k]);
            free(defaults);
            return RS_E_NOTFOUND;
        }
        need_outputs |= vars[i].kind == RS_VAR_OUTPUT;
        need_energy |= vars[i].kind == RS_VAR_ENERGY && vars[i].index < RS_ENERGY_VAR_POWER;
        need_power |= vars[i].kind == RS_VAR_ENERGY && vars[i].index >= RS_ENERGY_VAR_POWER;
    }
    int st = rs_csv_open(out, path, ncol, names, err, errlen);
    if (defaults)
        for (int k = 0; k < ncol; k++)
            free(defaults[k]);
    free(defaults);
    if (st) {
        free(vars);
        free(trel);
        return st;
    }
    (*out)->vars = vars;
    (*out)->trel = trel;
    if (need_trel && (st = rs_track_rel_open(ws, &(*out)->tr, err, errlen))) {
        csv_free(*out);
        *out = NULL;
        return st;
    }
    (*out)->need_outputs = need_outputs;
    (*out)->need_energy = need_energy;
    (*out)->need_power = need_power;
    if (!((*out)->outputs = calloc((size_t)m->n_out + 1, sizeof(double)))) {
        csv_free(*out);
        *out = NULL;
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    }
    return RS_OK;
fail_nomem:
    if (defaults)
        for (int k = 0; k < ncol; k++)
            free(defaults[k]);
    free(defaults);
    return RS_E_NOMEM;
}

int rs_csv_write_ws(rs_csv *c, rs_ws *ws)
{
    if (!c || !c->vars || !ws)
        return RS_E_ARG;
    int st;
    if ((c->need_outputs && (st = rs_ws_outputs(ws, c->outputs))) ||
        (c->need_energy && (st = rs_ws_energy(ws, NULL, NULL))) ||
        (c->need_power && (st = rs_ws_power(ws, NULL))) || (c->tr && (st = rs_track_rel_update(c->tr, ws)))) {
        if (!c->status)
            c->status = st;
        return st;
    }
    for (int i = 0; i < c->ncol; i++)
        c->values[i] = c->trel[i] >= 0 ? rs_track_rel_value(c->tr, c->trel[i] / RS_TREL_COUNT,
                                                           c->trel[i] % RS_TREL_COUNT)
                                       : rs_ws_value(ws, c->vars[i], c->outputs);
    return rs_csv_row(c, rs_ws_time(ws), c->values);
}

int rs_csv_output(rs_ws *ws, void *ctx)
{
    return rs_csv_write_ws(ctx, ws) != RS_OK;
}

int rs_csv_status(const rs_csv *c) { return c ? c->status : RS_E_ARG; }

int rs_csv_close(rs_csv **cp)
{
    if (!cp || !*cp)
        return RS_OK;
    rs_csv *c = *cp;
    int st = c->status;
    if (fclose(c->f) != 0 && !st)
        st = RS_E_IO;
    c->f = NULL;
    csv_free(c);
    *cp = NULL;
    return st;
}
