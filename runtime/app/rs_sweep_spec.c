/*
 * rs_sweep_spec.c — what varies in a sweep (grid axes, an explicit list)
 * and which figures each variant reports.  See rs_sweep.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_file.h"
#include "rs_envelope.h"
#include "rs_scenario.h"
#include "rs_status.h"
#include "rs_sweep_spec_impl.h"

int rs_sweep_spec_create(rs_sweep_spec **s)
{
    *s = calloc(1, sizeof **s);
    return *s ? RS_OK : RS_E_NOMEM;
}

void rs_sweep_spec_free(rs_sweep_spec **ps)
{
    if (!ps || !*ps)
        return;
    rs_sweep_spec *s = *ps;
    for (int a = 0; a < s->n_axes; a++) {
        free(s->axes[a].name);
        free(s->axes[a].v);
    }
    free(s->axes);
    for (int j = 0; j < s->list_ncol; j++)
        free(s->list_names[j]);
    free(s->list_names);
    free(s->list_vals);
    for (int f = 0; f < s->n_fig; f++) {
        free(s->fig[f].column);
        free(s->fig[f].name);
    }
    free(s->fig);
    for (int k = 0; k < s->n_texts; k++)
        free(s->texts[k]);
    free(s->texts);
    free(s);
    *ps = NULL;
}

static char *dup_n(const char *p, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, p, n);
        d[n] = '\0';
    }
    return d;
}

/* The text between p and p+n without surrounding blanks, as a new string. */
static char *dup_trim(const char *p, size_t n)
{
    while (n && isspace((unsigned char)*p))
        p++, n--;
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    return dup_n(p, n);
}

/* A whole finite number, or -1. */
static int parse_number(const char *text, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == text || *end || errno == ERANGE || !isfinite(*v))
        return -1;
    return 0;
}

static int name_taken(const rs_sweep_spec *s, const char *name)
{
    for (int j = 0; j < rs_sweep_spec_nvars(s); j++)
        if (strcmp(rs_sweep_spec_var(s, j), name) == 0)
            return 1;
    return 0;
}

static int valid_name(const char *name)
{
    if (!*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '.'))
            return 0;
    return 1;
}

/* File-valued names: the scenario's file statements (track, wheel_profile,
 * rail_profile).  Their values are paths, kept in the spec's text table; the
 * numeric value of a variant is the path's index there. */
static int is_file_name(const char *name) { return rs_scenario_file_kind(name) >= 0; }

/* Checks a path a file-valued name takes (readable, writable into a
 * scenario line) and adds it to the text table: its index into *idx.
 * `where` starts the message ("--vary 'track=...'", "list.csv:3"). */
static int add_file(rs_sweep_spec *s, const char *where, const char *name, const char *path, double *idx,
                    char *err, size_t errlen)
{
    if (!*path)
        return rs_fail(err, errlen, RS_E_ARG, "%s: '%s' takes file names, and one is empty", where, name);
    for (const char *p = path; *p; p++)
        if (*p == '"' || iscntrl((unsigned char)*p))
            return rs_fail(err, errlen, RS_E_ARG,
                           "%s: the file name '%s' holds a quote or a control character: rename the file",
                           where, path);
    FILE *f = fopen(path, "r");
    if (!f)
        return rs_fail(err, errlen, RS_E_IO,
                       "%s: %s: cannot open '%s' (%s)", where, name, path, strerror(errno));
    fclose(f);
    for (int k = 0; k < s->n_texts; k++)
        if (strcmp(s->texts[k], path) == 0) {
            *idx = k;
            return RS_OK;
        }
    char **nt = realloc(s->texts, (size_t)(s->n_texts + 1) * sizeof *nt);
    if (!nt)
        return RS_E_NOMEM;
    s->texts = nt;
    if (!(nt[s->n_texts] = dup_n(path, strlen(path))))
        return RS_E_NOMEM;
    *idx = s->n_texts++;
    return RS_OK;
}

int rs_sweep_spec_is_file(const rs_sweep_spec *s, int j) { return is_file_name(rs_sweep_spec_var(s, j)); }

const char *rs_sweep_spec_file(const rs_sweep_spec *s, int j, double v)
{
    if (!rs_sweep_spec_is_file(s, j) || !(v >= 0 && v < s->n_texts))
        return NULL;
    return s->texts[(int)v];
}

size_t rs_sweep_spec_format(const rs_sweep_spec *s, int j, double v, char *buf, size_t len)
{
    const char *path = rs_sweep_spec_file(s, j, v);
    if (!path)
        return (size_t)snprintf(buf, len, "%.17g", v);
    /* CSV quoting: the path has no quote (add_file), commas are possible */
    return (size_t)snprintf(buf, len, "\"%s\"", path);
}

static int new_axis(rs_sweep_spec *s, const char *name, int n, const double *values, char *err, size_t errlen);

int rs_sweep_spec_axis(rs_sweep_spec *s, const char *name, int n, const double *values,
                       char *err, size_t errlen)
{
    if (is_file_name(name))
        return rs_fail(err, errlen, RS_E_ARG, "'%s' takes file names: use rs_sweep_spec_axis_files", name);
    return new_axis(s, name, n, values, err, errlen);
}

int rs_sweep_spec_axis_files(rs_sweep_spec *s, const char *name, int n, const char *const *paths,
                             char *err, size_t errlen)
{
    if (!is_file_name(name))
        return rs_fail(err, errlen, RS_E_ARG,
                       "'%s' is not a file-valued name: those are track, wheel_profile, rail_profile",
                       name);
    if (n < 1 || !paths)
        return rs_fail(err, errlen, RS_E_ARG, "'%s': no files", name);
    double *idx = malloc((size_t)n * sizeof *idx);
    if (!idx)
        return RS_E_NOMEM;
    char where[300];
    snprintf(where, sizeof where, "'%s'", name);
    int st = RS_OK;
    for (int k = 0; k < n && !st; k++)
        st = add_file(s, where, name, paths[k] ? paths[k] : "", &idx[k], err, errlen);
    if (!st)
        st = new_axis(s, name, n, idx, err, errlen);
    free(idx);
    return st;
}

static int new_axis(rs_sweep_spec *s, const char *name, int n, const double *values, char *err, size_t errlen)
{
    if (!valid_name(name))
        return rs_fail(err, errlen, RS_E_ARG, "'%s' is not a name (letters, digits, '_' and '.')", name);
    if (name_taken(s, name))
        return rs_fail(err, errlen, RS_E_ARG, "'%s' is varied twice: give it once", name);
    if (n < 1)
        return rs_fail(err, errlen, RS_E_ARG, "'%s': no values", name);
    rs_sweep_axis *ax = realloc(s->axes, (size_t)(s->n_axes + 1) * sizeof *ax);
    if (!ax)
        return RS_E_NOMEM;
    s->axes = ax;
    rs_sweep_axis *a = &ax[s->n_axes];
    a->name = dup_n(name, strlen(name));
    a->v = malloc((size_t)n * sizeof(double));
    if (!a->name || !a->v) {
        free(a->name);
        free(a->v);
        return RS_E_NOMEM;
    }
    memcpy(a->v, values, (size_t)n * sizeof(double));
    a->n = n;
    s->n_axes++;
    return RS_OK;
}

/* The comma-separated file names of `--vary NAME=F1,F2,...` as an axis. */
static int vary_files(rs_sweep_spec *s, const char *arg, const char *name, const char *rest, char *err,
                      size_t errlen)
{
    int cap = 1;
    for (const char *p = rest; *p; p++)
        cap += *p == ',';
    char **item = calloc((size_t)cap, sizeof *item);
    if (!item)
        return RS_E_NOMEM;
    int n = 0, st = RS_OK;
    for (const char *p = rest;;) {
        const char *q = strchr(p, ',');
        if (!(item[n] = dup_trim(p, q ? (size_t)(q - p) : strlen(p)))) {
            st = RS_E_NOMEM;
            break;
        }
        n++;
        if (!q)
            break;
        p = q + 1;
    }
    if (!st && strchr(rest, ':') && n == 1) {
        /* LO:HI:N is for numbers; a lone name with ':' is still a path */
        FILE *f = fopen(item[0], "r");
        if (!f) {
            st = rs_fail(err, errlen, RS_E_ARG, "--vary '%s': '%s' takes file names, NAME=F1,F2,... (e.g. "
                         "%s=a.trk,b.trk), not LO:HI:N", arg, name, name);
        } else {
            fclose(f);
        }
    }
    if (!st) {
        char where[300];
        snprintf(where, sizeof where, "--vary '%.200s'", arg);
        double *idx = malloc((size_t)n * sizeof *idx);
        if (!idx)
            st = RS_E_NOMEM;
        for (int k = 0; k < n && !st; k++)
            st = add_file(s, where, name, item[k], &idx[k], err, errlen);
        if (!st)
            st = new_axis(s, name, n, idx, err, errlen);
        free(idx);
    }
    for (int k = 0; k < n; k++)
        free(item[k]);
    free(item);
    return st;
}

int rs_sweep_spec_vary(rs_sweep_spec *s, const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return rs_fail(err, errlen, RS_E_ARG, "--vary '%s': write NAME=LO:HI:N or NAME=V1,V2,...", arg);
    char *name = dup_trim(arg, (size_t)(eq - arg));
    if (!name)
        return RS_E_NOMEM;
    const char *rest = eq + 1;
    double *vals = NULL;
    int n = 0, st = RS_E_ARG;
    if (is_file_name(name)) {
        /* F1,F2,...: file names, relative to the working directory */
        st = vary_files(s, arg, name, rest, err, errlen);
        free(name);
        return st;
    }
    if (strchr(rest, ':')) {
        /* LO:HI:N */
        const char *c1 = strchr(rest, ':');
        const char *c2 = strchr(c1 + 1, ':');
        char *lo_s = dup_trim(rest, (size_t)(c1 - rest));
        char *hi_s = c2 ? dup_trim(c1 + 1, (size_t)(c2 - c1 - 1)) : NULL;
        char *n_s = c2 ? dup_trim(c2 + 1, strlen(c2 + 1)) : NULL;
        double lo, hi, nn;
        if (!c2 || !lo_s || !hi_s || !n_s || parse_number(lo_s, &lo) || parse_number(hi_s, &hi) ||
            parse_number(n_s, &nn) || nn != floor(nn) || nn < 1 || nn > 1e7) {
            rs_fail(err, errlen, RS_E_ARG,
                    "--vary '%s': write NAME=LO:HI:N with numbers LO, HI and a count N >= 1 "
                    "(e.g. k=1e5:4e5:4)", arg);
        } else if (nn == 1 && lo != hi) {
            rs_fail(err, errlen, RS_E_ARG,
                    "--vary '%s': one value but LO != HI: write %s=%s:%s:N with N >= 2, or %s=%s",
                    arg, name, lo_s, hi_s, name, lo_s);
        } else {
            n = (int)nn;
            if ((vals = malloc((size_t)n * sizeof *vals))) {
                for (int k = 0; k < n; k++)
                    vals[k] = n == 1 ? lo : (k == n - 1 ? hi : lo + (hi - lo) * (double)k / (double)(n - 1));
                st = RS_OK;
            } else {
                st = RS_E_NOMEM;
            }
        }
        free(lo_s);
        free(hi_s);
        free(n_s);
    } else {
        /* V1,V2,... */
        int cap = 1;
        for (const char *p = rest; *p; p++)
            cap += *p == ',';
        vals = malloc((size_t)cap * sizeof *vals);
        if (!vals) {
            free(name);
            return RS_E_NOMEM;
        }
        st = RS_OK;
        const char *p = rest;
        for (;;) {
            const char *q = strchr(p, ',');
            size_t len = q ? (size_t)(q - p) : strlen(p);
            char *item = dup_trim(p, len);
            if (!item || parse_number(item, &vals[n])) {
                st = rs_fail(err, errlen, RS_E_ARG,
                             "--vary '%s': '%s' is not a number: write NAME=LO:HI:N or NAME=V1,V2,...",
                             arg, item ? item : "");
                free(item);
                break;
            }
            free(item);
            n++;
            if (!q)
                break;
            p = q + 1;
        }
    }
    if (st == RS_OK)
        st = rs_sweep_spec_axis(s, name, n, vals, err, errlen);
    free(vals);
    free(name);
    return st;
}

/* Splits a line at commas into trimmed fields (at most max); returns the count. */
static int split_fields(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *c = strchr(p, ',');
        if (c)
            *c = '\0';
        while (isspace((unsigned char)*p))
            p++;
        char *e = p + strlen(p);
        while (e > p && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (n < max)
            field[n] = p;
        n++;
        if (!c)
            break;
        p = c + 1;
    }
    return n;
}

int rs_sweep_spec_list(rs_sweep_spec *s, const char *path, char *err, size_t errlen)
{
    if (s->list_ncol)
        return rs_fail(err, errlen, RS_E_ARG, "--list '%s': only one list of variants can be given", path);
    char *text;
    size_t len;
    const int why = rs_read_file(path, 0, 0, &text, &len);
    if (why)
        return rs_fail(err, errlen, why == ENOMEM ? RS_E_NOMEM : RS_E_IO,
                       "cannot read the list of variants '%s': %s", path, rs_file_why(why));
    const int bad = rs_text_check(text, len, path, err, errlen);
    if (bad) {
        free(text);
        return bad;
    }
    int st = RS_E_ARG, lineno = 0, ncol = 0, nrow = 0, cap = 0;
    char **names = NULL, **field = NULL;
    double *vals = NULL;
    char *cursor = text;
    while (cursor && *cursor) {
        char *line = cursor;
        char *nl = strchr(cursor, '\n');
        if (nl) {
            *nl = '\0';
            cursor = nl + 1;
        } else {
            cursor = NULL;
        }
        lineno++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        if (!ncol) {
            int n = 1;
            for (const char *c = line; *c; c++)
                n += *c == ',';
            names = calloc((size_t)n, sizeof *names);
            field = calloc((size_t)n, sizeof *field);
            if (!names || !field) {
                st = RS_E_NOMEM;
                goto done;
            }
            split_fields(line, field, n);
            for (int j = 0; j < n; j++) {
                if (!valid_name(field[j])) {
                    rs_fail_at(err, errlen, RS_E_ARG, path, lineno,
                               "column %d: '%s' is not a name: the first line names "
                               "the varied parameters or coordinates", j + 1, field[j]);
                    goto done;
                }
                for (int k = 0; k < j; k++)
                    if (strcmp(names[k], field[j]) == 0) {
                        rs_fail_at(err, errlen, RS_E_ARG, path, lineno, "'%s' is named twice", field[j]);
                        goto done;
                    }
                if (name_taken(s, field[j])) {
                    rs_fail_at(err, errlen, RS_E_ARG, path, lineno,
                               "'%s' is also given by --vary: give it once",
                               field[j]);
                    goto done;
                }
                if (!(names[j] = dup_n(field[j], strlen(field[j])))) {
                    st = RS_E_NOMEM;
                    goto done;
                }
                ncol = j + 1;
            }
            continue;
        }
        int n = split_fields(line, field, ncol);
        if (n != ncol) {
            rs_fail_at(err, errlen, RS_E_ARG, path, lineno, "row has %d fields, the header %d", n, ncol);
            goto done;
        }
        if (nrow == cap) {
            cap = cap ? 2 * cap : 16;
            double *nv = realloc(vals, (size_t)cap * (size_t)ncol * sizeof *vals);
            if (!nv) {
                st = RS_E_NOMEM;
                goto done;
            }
            vals = nv;
        }
        for (int j = 0; j < ncol; j++) {
            double *slot = &vals[(size_t)nrow * (size_t)ncol + (size_t)j];
            if (is_file_name(names[j])) {
                /* a path relative to the list's folder */
                char where[4200], *full = rs_path_beside(path, field[j]);
                snprintf(where, sizeof where, "%s:%d", path, lineno);
                if (!full) {
                    st = RS_E_NOMEM;
                    goto done;
                }
                char e2[8400];
                st = add_file(s, where, names[j], full, slot, e2, sizeof e2);
                free(full);
                if (st) {
                    if (st != RS_E_NOMEM)   /* add_file says nothing when out of memory */
                        rs_fail(err, errlen, st, "%s%s", e2,
                                st == RS_E_IO ? "; a relative path is relative to the list's folder" : "");
                    goto done;
                }
                st = RS_E_ARG;
                continue;
            }
            if (parse_number(field[j], slot)) {
                rs_fail_at(err, errlen, RS_E_ARG, path, lineno, "'%s' (column '%s') is not a finite number",
                           field[j], names[j]);
                goto done;
            }
        }
        nrow++;
    }
    if (!ncol || !nrow) {
        rs_fail_at(err, errlen, RS_E_ARG, path, 0,
                   "no variants: write a header line of names, then one line of values per variant");
        goto done;
    }
    s->list_names = names;
    s->list_vals = vals;
    s->list_ncol = ncol;
    s->list_nrow = nrow;
    names = NULL;
    vals = NULL;
    st = RS_OK;
done:
    if (names)
        for (int j = 0; j < ncol; j++)
            free(names[j]);
    free(names);
    free(field);
    free(vals);
    free(text);
    return st;
}

int rs_sweep_spec_rows(rs_sweep_spec *s, int ncol, const char *const *names, int nrow, const double *values,
                       char *err, size_t errlen)
{
    if (s->list_ncol)
        return rs_fail(err, errlen, RS_E_ARG, "only one list of variants can be given");
    if (ncol < 1 || nrow < 1 || !names || !values)
        return rs_fail(err, errlen, RS_E_ARG, "no variants: give at least one name and one row");
    for (int j = 0; j < ncol; j++) {
        if (!names[j] || !valid_name(names[j]))
            return rs_fail(err, errlen, RS_E_ARG, "'%s' is not a name", names[j] ? names[j] : "(null)");
        for (int k = 0; k < j; k++)
            if (strcmp(names[k], names[j]) == 0)
                return rs_fail(err, errlen, RS_E_ARG, "'%s' is named twice", names[j]);
        if (name_taken(s, names[j]))
            return rs_fail(err, errlen, RS_E_ARG, "'%s' is also given by --vary: give it once", names[j]);
        if (is_file_name(names[j]))
            return rs_fail(err, errlen, RS_E_ARG,
                           "'%s' takes file names: give it by a list file or rs_sweep_spec_axis_files",
                           names[j]);
    }
    for (size_t k = 0; k < (size_t)nrow * (size_t)ncol; k++)
        if (!isfinite(values[k]))
            return rs_fail(err, errlen, RS_E_ARG,
                           "row %d: the value of '%s' is not finite", (int)(k / (size_t)ncol) + 1,
                           names[k % (size_t)ncol]);
    char **nm = calloc((size_t)ncol, sizeof *nm);
    double *v = malloc((size_t)nrow * (size_t)ncol * sizeof *v);
    int ok = nm && v;
    for (int j = 0; ok && j < ncol; j++)
        ok = (nm[j] = dup_n(names[j], strlen(names[j]))) != NULL;
    if (!ok) {
        if (nm)
            for (int j = 0; j < ncol; j++)
                free(nm[j]);
        free(nm);
        free(v);
        return RS_E_NOMEM;
    }
    memcpy(v, values, (size_t)nrow * (size_t)ncol * sizeof *v);
    s->list_names = nm;
    s->list_vals = v;
    s->list_ncol = ncol;
    s->list_nrow = nrow;
    return RS_OK;
}

static const char *const kFigNames[] = {"max", "min", "absmax", "rms", "mean", "final", "rate", "freq"};
#define N_FIG_KINDS ((int)(sizeof kFigNames / sizeof kFigNames[0]))

int rs_sweep_spec_figure(rs_sweep_spec *s, const char *arg, char *err, size_t errlen)
{
    const char *colon = strchr(arg, ':');
    int kind = -1;
    if (colon)
        for (int k = 0; k < N_FIG_KINDS; k++)
            if (strlen(kFigNames[k]) == (size_t)(colon - arg) && strncmp(arg, kFigNames[k], (size_t)(colon - arg)) == 0)
                kind = k;
    if (!colon || kind < 0 || !valid_name(colon + 1))
        return rs_fail(err, errlen, RS_E_ARG,
                       "--figure '%s': write KIND:COLUMN, KIND one of max, min, absmax, rms, mean, final, "
                       "rate, freq (e.g. max:y)", arg);
    rs_sweep_figure_def *nf = realloc(s->fig, (size_t)(s->n_fig + 1) * sizeof *nf);
    if (!nf)
        return RS_E_NOMEM;
    s->fig = nf;
    rs_sweep_figure_def *f = &nf[s->n_fig];
    f->kind = (rs_sweep_figure_kind)kind;
    f->column = dup_n(colon + 1, strlen(colon + 1));
    size_t len = strlen(arg) + 3;
    f->name = malloc(len);
    if (!f->column || !f->name) {
        free(f->column);
        free(f->name);
        return RS_E_NOMEM;
    }
    snprintf(f->name, len, "%s(%s)", kFigNames[kind], f->column);
    s->n_fig++;
    return RS_OK;
}

static int grid_count(const rs_sweep_spec *s)
{
    long n = 1;
    for (int a = 0; a < s->n_axes; a++) {
        n *= s->axes[a].n;
        if (n > 100000000L)
            return -1;
    }
    return (int)n;
}

int rs_sweep_spec_count(const rs_sweep_spec *s)
{
    const int g = grid_count(s);
    if (g < 0)
        return -1;
    const long n = (long)g * (s->list_ncol ? s->list_nrow : 1);
    return n > 100000000L ? -1 : (int)n;
}

int rs_sweep_spec_nvars(const rs_sweep_spec *s) { return s->list_ncol + s->n_axes; }

const char *rs_sweep_spec_var(const rs_sweep_spec *s, int j)
{
    return j < s->list_ncol ? s->list_names[j] : s->axes[j - s->list_ncol].name;
}

int rs_sweep_spec_nfigures(const rs_sweep_spec *s) { return s->n_fig; }
const char *rs_sweep_spec_figure_name(const rs_sweep_spec *s, int f) { return s->fig[f].name; }

void rs_sweep_spec_values(const rs_sweep_spec *s, int i, double *vals)
{
    const int g = grid_count(s);
    const int row = i / g;
    int rem = i % g;
    for (int j = 0; j < s->list_ncol; j++)
        vals[j] = s->list_vals[(size_t)row * (size_t)s->list_ncol + (size_t)j];
    /* the last axis varies fastest */
    for (int a = s->n_axes - 1; a >= 0; a--) {
        vals[s->list_ncol + a] = s->axes[a].v[rem % s->axes[a].n];
        rem /= s->axes[a].n;
    }
}

/* ---------------------------------------------------------------- figures */

int rs_sweep_figures_of_csv(const rs_sweep_spec *s, const char *text, size_t len, double *fig,
                            char *err, size_t errlen)
{
    const int nf = s->n_fig;
    if (!nf)
        return RS_OK;
    const char *end = text + len;
    const char *nl = memchr(text, '\n', len);
    if (!nl)
        return rs_fail(err, errlen, RS_E_ARG, "the results have no header line");
    /* column index of every figure, from the header */
    int *col = malloc((size_t)nf * sizeof *col);
    double *acc = calloc((size_t)nf * 5, sizeof *acc);  /* max, min, absmax, sum, sumsq */
    double *last = calloc((size_t)nf, sizeof *last);
    rs_peaks *pk = calloc((size_t)nf, sizeof *pk);   /* rate, freq: extrema against time */
    if (!col || !acc || !last || !pk) {
        free(col);
        free(acc);
        free(last);
        free(pk);
        return RS_E_NOMEM;
    }
    for (int f = 0; f < nf; f++)
        rs_peaks_init(&pk[f]);
    int st = RS_OK;
    for (int f = 0; f < nf; f++) {
        col[f] = -1;
        const size_t cl = strlen(s->fig[f].column);
        int k = 0;
        for (const char *p = text; p <= nl && col[f] < 0; k++) {
            const char *q = p;
            while (q < nl && *q != ',')
                q++;
            if ((size_t)(q - p) == cl && memcmp(p, s->fig[f].column, cl) == 0)
                col[f] = k;
            p = q + 1;
        }
        if (col[f] < 0) {
            st = rs_fail(err, errlen, RS_E_ARG,
                         "figure '%s': the results have no column '%s'", s->fig[f].name, s->fig[f].column);
            goto done;
        }
    }
    long rows = 0;
    char numbuf[64];
    for (const char *line = nl + 1; line < end;) {
        const char *le = memchr(line, '\n', (size_t)(end - line));
        if (!le)
            le = end;
        if (le == line) {
            line = le + 1;
            continue;
        }
        /* walk the fields once; pick those the figures want */
        int k = 0;
        double t_row = 0;
        for (const char *p = line; p <= le; k++) {
            const char *q = p;
            while (q < le && *q != ',')
                q++;
            if (k == 0) {   /* time: for rate and freq */
                const size_t fl = (size_t)(q - p);
                t_row = NAN;
                if (fl < sizeof numbuf) {
                    memcpy(numbuf, p, fl);
                    numbuf[fl] = '\0';
                    if (parse_number(numbuf, &t_row))
                        t_row = NAN;
                }
            }
            for (int f = 0; f < nf; f++) {
                if (col[f] != k)
                    continue;
                size_t fl = (size_t)(q - p);
                double v;
                if (fl >= sizeof numbuf || (memcpy(numbuf, p, fl), numbuf[fl] = '\0', parse_number(numbuf, &v))) {
                    st = rs_fail(err, errlen, RS_E_ARG,
                                 "figure '%s': row %ld: '%.*s' is not a finite number", s->fig[f].name,
                                 rows + 1, (int)(fl < 40 ? fl : 40), p);
                    goto done;
                }
                double *a = &acc[5 * f];
                if (rows == 0) {
                    a[0] = a[1] = v;
                    a[2] = fabs(v);
                } else {
                    if (v > a[0]) a[0] = v;
                    if (v < a[1]) a[1] = v;
                    if (fabs(v) > a[2]) a[2] = fabs(v);
                }
                a[3] += v;
                a[4] += v * v;
                last[f] = v;
                if ((s->fig[f].kind == RS_FIG_RATE || s->fig[f].kind == RS_FIG_FREQ) &&
                    rs_peaks_add(&pk[f], t_row, v)) {
                    st = RS_E_NOMEM;
                    goto done;
                }
            }
            p = q + 1;
        }
        for (int f = 0; f < nf; f++)
            if (col[f] >= k) {
                st = rs_fail(err, errlen, RS_E_ARG,
                             "results row %ld has %d fields: no column '%s'", rows + 1, k,
                             s->fig[f].column);
                goto done;
            }
        rows++;
        line = le + 1;
    }
    if (!rows) {
        st = rs_fail(err, errlen, RS_E_ARG, "the results have no rows");
        goto done;
    }
    for (int f = 0; f < nf; f++) {
        const double *a = &acc[5 * f];
        switch (s->fig[f].kind) {
        case RS_FIG_MAX: fig[f] = a[0]; break;
        case RS_FIG_MIN: fig[f] = a[1]; break;
        case RS_FIG_ABSMAX: fig[f] = a[2]; break;
        case RS_FIG_RMS: fig[f] = sqrt(a[4] / (double)rows); break;
        case RS_FIG_MEAN: fig[f] = a[3] / (double)rows; break;
        case RS_FIG_RATE:
        case RS_FIG_FREQ: {
            rs_envelope e;
            rs_envelope_fit(&pk[f], &e);
            fig[f] = s->fig[f].kind == RS_FIG_RATE ? e.rate : e.freq;
            break;
        }
        default: fig[f] = last[f]; break;
        }
    }
done:
    for (int f = 0; f < nf; f++)
        rs_peaks_free(&pk[f]);
    free(pk);
    free(col);
    free(acc);
    free(last);
    return st;
}
