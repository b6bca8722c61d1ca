/*
 * rs_scenario.c — see rs_scenario.h; the format is docs/scenario.md.
 *
 * Parsing works line by line on the whole text in memory: a line is split
 * into tokens (words, '=', quoted strings), comments start at '#'.  Each
 * statement keeps its file and line so that binding, which happens later and
 * against a model, can still point at the line to fix.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_scenario.h"
#include "rs_speed.h"
#include "rs_track_rel.h"

#define MAX_TOKENS 128   /* a `stress` statement with its points is long */

static const char *const kStatements[] = {
    "duration", "step", "output", "method", "tolerance", "iterations", "friction", "contact",
    "creep", "derailment", "speed", "climb_time", "normal", "theta", "modulus", "poisson", "param", "initial", "input", "columns", "track", "wheel_profile", "rail_profile",
    "rail_profile_left", "rail_profile_right", "equilibrium", "thermal", "stress", "end"};

/* The contact file statements, in RS_SCENARIO_FILE_* order. */
static const char *const kFileStatements[RS_SCENARIO_FILE_COUNT] = {
    "track", "wheel_profile", "rail_profile", "rail_profile_left", "rail_profile_right"};
#define N_STATEMENTS ((int)(sizeof kStatements / sizeof kStatements[0]))

/* ------------------------------------------------------------ small helpers */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Grows *arr (elements of `size` bytes) to hold at least n+1 elements. */
static int grow(void **arr, int n, size_t size)
{
    /* capacity is kept implicit: powers of two from 4 */
    if (n >= 4 && (n & (n - 1)) != 0)
        return 0;
    size_t cap = n < 4 ? 4 : (size_t)n * 2;
    void *p = realloc(*arr, cap * size);
    if (!p)
        return -1;
    *arr = p;
    return 0;
}

/* Reads a number that must fill the whole token and be finite. */
static int parse_num(const char *tok, double *x)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    if (end == tok || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *x = v;
    return 0;
}

/* ------------------------------------------------------------ tokenizer */

typedef struct line_tokens {
    int n;
    const char *tok[MAX_TOKENS];
    int quoted[MAX_TOKENS];
} line_tokens;

/* Splits `line` (modified in place) into tokens.  Returns 0, or -1 with a
 * message for an unterminated quote or too many tokens. */
static int tokenize(char *line, line_tokens *lt, const char **why)
{
    lt->n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '\0' || *p == '#')
            return 0;
        if (lt->n == MAX_TOKENS) {
            *why = "too many words on one line";
            return -1;
        }
        if (*p == '"') {
            char *start = ++p;
            while (*p && *p != '"')
                p++;
            if (*p != '"') {
                *why = "missing closing '\"'";
                return -1;
            }
            *p++ = '\0';
            lt->quoted[lt->n] = 1;
            lt->tok[lt->n++] = start;
            continue;
        }
        if (*p == '=') {
            *p++ = '\0';
            lt->quoted[lt->n] = 0;
            lt->tok[lt->n++] = "=";
            continue;
        }
        char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#' && *p != '=' && *p != '"')
            p++;
        char c = *p;
        *p = '\0';
        lt->quoted[lt->n] = 0;
        lt->tok[lt->n++] = start;
        if (c == '\0' || c == '#')
            return 0;
        if (c == '"') {
            *why = "put a blank before '\"'";
            return -1;
        }
        if (c == '=') {
            if (lt->n == MAX_TOKENS) {
                *why = "too many words on one line";
                return -1;
            }
            lt->quoted[lt->n] = 0;
            lt->tok[lt->n++] = "=";
        }
        p++;
    }
}

/* ------------------------------------------------------------ scenario */

void rs_scenario_init(rs_scenario *s)
{
    memset(s, 0, sizeof *s);
    s->duration = RS_SCENARIO_DEFAULT_DURATION;
    s->step = RS_SCENARIO_DEFAULT_STEP;
    s->output = RS_SCENARIO_DEFAULT_OUTPUT;
    s->method = RS_IMEX_EULER;
    s->tolerance = 1e-6;
    s->iterations = 10;
}

static void free_where(rs_scenario_where *w) { free(w->file); w->file = NULL; }

/* Frees a list of assignments and the list. */
static void free_assigns(rs_scenario_assign *a, int n)
{
    for (int i = 0; i < n; i++) {
        free(a[i].name);
        free_where(&a[i].at);
    }
    free(a);
}

void rs_scenario_free(rs_scenario *s)
{
    if (!s)
        return;
    for (int i = 0; i < RS_SCENARIO_N_SETTINGS; i++)
        free_where(&s->set_at[i]);
    for (int i = 0; i < s->n_params; i++) {
        free(s->params[i].name);
        free_where(&s->params[i].at);
    }
    for (int i = 0; i < s->n_initial; i++) {
        free(s->initial[i].name);
        free_where(&s->initial[i].at);
    }
    free_assigns(s->frictions, s->n_frictions);
    free_assigns(s->moduli, s->n_moduli);
    free_assigns(s->poissons, s->n_poissons);
    for (int i = 0; i < s->n_inputs; i++) {
        free(s->inputs[i].name);
        free(s->inputs[i].t);
        free(s->inputs[i].v);
        free_where(&s->inputs[i].at);
    }
    for (int i = 0; i < s->n_equil_coords; i++) {
        free(s->equil_coords[i].name);
        free_where(&s->equil_coords[i].at);
    }
    free(s->equil_coords);
    free_where(&s->equil_at);
    for (int i = 0; i < s->n_columns; i++) {
        free(s->columns[i].name);
        free_where(&s->columns[i].at);
    }
    for (int i = 0; i < RS_SCENARIO_FILE_COUNT; i++) {
        free(s->file[i]);
        free_where(&s->file_at[i]);
    }
    free(s->params);
    free(s->initial);
    free(s->inputs);
    free(s->columns);
    rs_scenario_init(s);
}

double rs_scenario_duration(const rs_scenario *s) { return s->set & RS_SCENARIO_DURATION ? s->duration : RS_SCENARIO_DEFAULT_DURATION; }
double rs_scenario_step(const rs_scenario *s) { return s->set & RS_SCENARIO_STEP ? s->step : RS_SCENARIO_DEFAULT_STEP; }
double rs_scenario_output(const rs_scenario *s)
{
    double out = s->set & RS_SCENARIO_OUTPUT ? s->output : RS_SCENARIO_DEFAULT_OUTPUT;
    double step = rs_scenario_step(s);
    return out < step ? step : out;
}

/* Parser state for one text. */
typedef struct parser {
    const char *file;
    rs_scenario *s;
    char *err;
    size_t errlen;
} parser;

static int nomem(parser *ps, int line)
{
    return rs_fail_at(ps->err, ps->errlen, RS_E_NOMEM, ps->file, line, "out of memory");
}

static int set_where(parser *ps, rs_scenario_where *w, int line)
{
    if (!(w->file = dup_str(ps->file)))
        return -1;
    w->line = line;
    return 0;
}

/* statement: a setting with one value. */
static int parse_setting(parser *ps, int bit, const line_tokens *lt, int line)
{
    const char *kw = lt->tok[0];
    int idx = 0;
    while ((1 << idx) != bit)
        idx++;
    rs_scenario *s = ps->s;
    if (s->set & (unsigned)bit)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'%s' is given twice (first at line %d): keep one",
                          kw, s->set_at[idx].line);
    int k = 1;
    if (k < lt->n && strcmp(lt->tok[k], "=") == 0 && !lt->quoted[k])
        k++;
    static const char *const example[] = {"duration 10", "step 1e-3", "output 0.01",
                                          "method rk4", "tolerance 1e-6", "iterations 10",
                                          "friction 0.3", "contact elastic", "creep fastsim",
                                          "derailment continue", "speed 30", "climb_time 0.05",
                                          "normal strips", "theta 0.65"};
    if (k >= lt->n)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'%s' needs a value, e.g. '%s'", kw, example[idx]);
    if (k + 1 < lt->n)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "unexpected '%s' after the value of '%s': one setting per line",
                          lt->tok[k + 1], kw);
    const char *val = lt->tok[k];
    if (bit == RS_SCENARIO_METHOD) {
        if (strcmp(val, "imex") == 0)
            s->method = RS_IMEX_EULER;
        else if (strcmp(val, "rk4") == 0)
            s->method = RS_RK4;
        else {
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "unknown method '%s': write 'method imex' or 'method rk4'", val);
        }
    } else if (bit == RS_SCENARIO_CONTACT) {
        if (strcmp(val, "constraint") == 0)
            s->contact_mode = RS_CONTACT_MODE_CONSTRAINT;
        else if (strcmp(val, "elastic") == 0)
            s->contact_mode = RS_CONTACT_MODE_ELASTIC;
        else {
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "unknown contact mode '%s': write 'contact elastic' (every patch, Hertzian normal "
                              "force) or 'contact constraint' (one point per wheel held by a constraint)", val);
        }
    } else if (bit == RS_SCENARIO_DERAILMENT) {
        if (strcmp(val, "stop") != 0 && strcmp(val, "continue") != 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "unknown '%s': write 'derailment stop' (a derailment ends the run, the default) "
                              "or 'derailment continue' (it is reported and the run goes on)", val);
        s->derail_continue = strcmp(val, "continue") == 0;
    } else if (bit == RS_SCENARIO_CREEP) {
        static const char *const laws[3] = {"kalker", "fastsim", "polach"};
        int law = -1;
        for (int k = 0; k < 3; k++)
            if (strcmp(val, laws[k]) == 0)
                law = k;
        if (law < 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "unknown creep law '%s': write 'creep kalker' (linear), 'creep fastsim' or "
                              "'creep polach' (the last two need 'friction MU' and the elastic contact)", val);
        s->creep_law = law;
    } else if (bit == RS_SCENARIO_NORMAL) {
        if (strcmp(val, "point") == 0)
            s->normal_law = RS_NORMAL_POINT;
        else if (strcmp(val, "strips") == 0)
            s->normal_law = RS_NORMAL_STRIPS;
        else
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "unknown normal law '%s': write 'normal strips' (each patch's force integrated "
                              "over its wheel slices, conservative: the default) or 'normal point' (one Hertz "
                              "force per minimum of the gap)", val);
    } else {
        double x;
        if (parse_num(val, &x))
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "'%s' is not a number: write e.g. '%s'", val, example[idx]);
        switch (bit) {
        case RS_SCENARIO_DURATION:
        case RS_SCENARIO_STEP:
        case RS_SCENARIO_TOLERANCE:
            if (!(x > 0))
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "%s must be positive (got %s): write e.g. '%s'",
                                  kw, val, example[idx]);
            if (bit == RS_SCENARIO_DURATION)
                s->duration = x;
            else if (bit == RS_SCENARIO_STEP)
                s->step = x;
            else
                s->tolerance = x;
            break;
        case RS_SCENARIO_SPEED:
            if (!(x >= 0))
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "speed must be >= 0 m/s (got %s): the vehicle runs along the track's "
                                  "direction of increasing s; write e.g. 'speed 30'", val);
            s->speed = x;
            break;
        case RS_SCENARIO_OUTPUT:
            if (!(x >= 0))
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "output interval must be >= 0 s (got %s; 0 writes every step)", val);
            s->output = x;
            break;
        case RS_SCENARIO_ITERATIONS:
            if (x != floor(x) || x < 0 || x > 1000)
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "iterations must be a whole number from 0 to 1000 (got %s)", val);
            s->iterations = (int)x;
            break;
        case RS_SCENARIO_CLIMB_TIME:
            if (!(x >= 0) || !isfinite(x))
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "climb_time must be a time >= 0 s (got %s): how long Y/Q must stay at Nadal's "
                                  "limit before a flange climb is reported; write e.g. 'climb_time 0.05' (0: "
                                  "every step above the limit is a climb)", val);
            s->climb_time = x;
            break;
        case RS_SCENARIO_THETA:
            if (!(x >= 0.5 && x <= 1))
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "theta must be from 0.5 to 1 (got %s): where the elastic contact's step "
                                  "linearizes the normal stiffness, 1 implicit Euler (damps what the step cannot "
                                  "resolve), 0.5 the trapezoidal rule; leave it out for the normal law's own "
                                  "(docs/scenario.md)", val);
            s->theta = x;
            break;
        case RS_SCENARIO_FRICTION:
            if (!(x >= 0 && x <= 10))
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "friction must be a coefficient from 0 to 10 (got %s; 0: linear creep "
                                  "without saturation)", val);
            s->friction = x;
            break;
        }
    }
    s->set |= (unsigned)bit;
    if (set_where(ps, &s->set_at[idx], line))
        return nomem(ps, line);
    return RS_OK;
}

/* NAME [=] VALUE into a list; `what` names the kind in messages. */
static int parse_assign(parser *ps, const line_tokens *lt, int line, rs_scenario_assign **list, int *n,
                        const char *what, const char *example)
{
    const char *kw = lt->tok[0];
    int k = 2;
    if (k < lt->n && strcmp(lt->tok[k], "=") == 0 && !lt->quoted[k])
        k++;
    if (lt->n < 2 || strcmp(lt->tok[1], "=") == 0 || k >= lt->n)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'%s' needs NAME = VALUE, e.g. '%s'", kw, example);
    double x;
    if (parse_num(lt->tok[k], &x))
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'%s' is not a number: write e.g. '%s'", lt->tok[k], example);
    if (k + 1 < lt->n)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "unexpected '%s' after the value: one %s per line",
                          lt->tok[k + 1], what);
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i].name, lt->tok[1]) == 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "%s '%s' is set twice (first at line %d): keep one",
                              what, lt->tok[1], (*list)[i].at.line);
    if (grow((void **)list, *n, sizeof **list))
        return nomem(ps, line);
    rs_scenario_assign *a = &(*list)[*n];
    memset(a, 0, sizeof *a);
    a->value = x;
    if (!(a->name = dup_str(lt->tok[1])) || set_where(ps, &a->at, line)) {
        free(a->name);
        return nomem(ps, line);
    }
    (*n)++;
    return RS_OK;
}

/* 'modulus E', 'modulus CONTACT = E' (and 'poisson'): a material value of
 * every contact, or of the contacts CONTACT names; the first form is the
 * second with CONTACT '*'. */
static int parse_material(parser *ps, const line_tokens *lt, int line, rs_scenario_assign **list, int *n,
                          const char *what, const char *example)
{
    if (lt->n == 2 || (lt->n == 3 && strcmp(lt->tok[1], "=") == 0 && !lt->quoted[1])) {
        line_tokens all = {4, {lt->tok[0], "*", "=", lt->tok[lt->n - 1]}, {0}};
        return parse_assign(ps, &all, line, list, n, what, example);
    }
    return parse_assign(ps, lt, line, list, n, what, example);
}

/* Appends a fresh input entry (name, where) and returns it, or NULL. */
static rs_scenario_input *new_input(parser *ps, const char *name, int line)
{
    rs_scenario *s = ps->s;
    if (grow((void **)&s->inputs, s->n_inputs, sizeof *s->inputs))
        return NULL;
    rs_scenario_input *in = &s->inputs[s->n_inputs];
    memset(in, 0, sizeof *in);
    if (!(in->name = dup_str(name)) || set_where(ps, &in->at, line)) {
        free(in->name);
        in->name = NULL;
        return NULL;
    }
    s->n_inputs++;
    return in;
}

/* Appends a row to an input table. */
static int table_push(rs_scenario_input *in, double t, double v)
{
    if (grow((void **)&in->t, in->n, sizeof(double)))
        return -1;
    if (grow((void **)&in->v, in->n, sizeof(double)))
        return -1;
    in->t[in->n] = t;
    in->v[in->n] = v;
    in->n++;
    return 0;
}

/* The next line of a CSV text (cut in place at its newline) that is not
 * blank or a '#' comment, counting lines in *lineno; NULL at the end. */
static char *next_data_line(char **save, int *lineno)
{
    char *l;
    while ((l = *save)) {
        char *nl = strchr(l, '\n');
        if (nl) {
            *nl = '\0';
            *save = nl + 1;
        } else {
            *save = NULL;
        }
        ++*lineno;
        const char *p = l;
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p != '\0' && *p != '#')
            return l;
    }
    return NULL;
}

/* Splits a CSV line (modified) at commas into fields, trimming blanks and
 * one pair of double quotes.  Returns the count (at most max). */
static int csv_fields(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *start = p;
        while (*p && *p != ',')
            p++;
        char c = *p;
        *p = '\0';
        while (*start == ' ' || *start == '\t')
            start++;
        char *e = start + strlen(start);
        while (e > start && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = '\0';
        if (e - start >= 2 && start[0] == '"' && e[-1] == '"') {
            e[-1] = '\0';
            start++;
        }
        if (n < max)
            f[n] = start;
        n++;
        if (c == '\0')
            return n;
        p++;
    }
}

/* The path of `rel` as seen from the folder of `file`. */
char *rs_path_beside(const char *file, const char *rel)
{
    const char *slash = strrchr(file, '/');
    if (rel[0] == '/' || !slash) return dup_str(rel);
    size_t dn = (size_t)(slash - file) + 1, rn = strlen(rel);
    char *p = malloc(dn + rn + 1);
    if (p) {
        memcpy(p, file, dn);
        memcpy(p + dn, rel, rn + 1);
    }
    return p;
}

#define CSV_MAX_COLS 256

/* input NAME file "PATH" [column COL]: reads the table from a CSV file
 * whose first column is time. */
static int parse_input_file(parser *ps, rs_scenario_input *in, const char *rel, const char *col, int line)
{
    char *path = rs_path_beside(ps->file, rel);
    if (!path)
        return nomem(ps, line);
    char *text;
    size_t len;
    const int why = rs_read_file(path, 0, 0, &text, &len);
    if (why) {
        const int st = rs_fail_at(ps->err, ps->errlen, why == ENOMEM ? RS_E_NOMEM : RS_E_IO, ps->file, line,
                                  "input '%s': cannot read '%s': %s", in->name, path, rs_file_why(why));
        free(path);
        return st;
    }
    int st = RS_OK, ncol = 0, want = -1, lineno = 0;
    char inner[512];
    if (rs_text_check(text, len, path, inner, sizeof inner)) {
        st = rs_fail(ps->err, ps->errlen, RS_E_SYNTAX, "%s (input '%s' of %s:%d)", inner, in->name, ps->file, line);
        goto done;
    }
    char *hdr[CSV_MAX_COLS];
    char *save = text, *l;
    /* header: the first line that is not blank or a comment */
    if ((l = next_data_line(&save, &lineno)))
        ncol = csv_fields(l, hdr, CSV_MAX_COLS);
    if (ncol < 2 || ncol > CSV_MAX_COLS) {
        st = rs_fail_at(ps->err, ps->errlen, RS_E_ARG, path, lineno > 0 ? lineno : 1,
                        "expected a header row 'time,NAME,...' with 2 to %d columns (input '%s' of %s:%d)",
                        CSV_MAX_COLS, in->name, ps->file, line);
        goto done;
    }
    const char *colname = col ? col : in->name;
    for (int i = 1; i < ncol; i++)
        if (strcmp(hdr[i], colname) == 0)
            want = i;
    if (want < 0 && !col && ncol == 2)
        want = 1; /* one value column: take it */
    if (want < 0) {
        const char *sug = rs_closest_name(colname, (const char *const *)hdr + 1, ncol - 1);
        char list[512] = "";
        for (int i = 0; i < ncol; i++) {
            size_t k = strlen(list);
            snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", hdr[i]);
        }
        if (sug)
            st = rs_fail_at(ps->err, ps->errlen, RS_E_NOTFOUND, ps->file, line,
                            "input '%s': '%s' has no column '%s' (did you mean '%s'?); its columns: %s",
                            in->name, path, colname, sug, list);
        else
            st = rs_fail_at(ps->err, ps->errlen, RS_E_NOTFOUND, ps->file, line,
                            "input '%s': '%s' has no column '%s'; its columns: %s; choose one with 'column NAME'",
                            in->name, path, colname, list);
        goto done;
    }
    while ((l = next_data_line(&save, &lineno))) {
        char *f[CSV_MAX_COLS];
        int n = csv_fields(l, f, CSV_MAX_COLS);
        double t, v;
        if (n != ncol) {
            st = rs_fail_at(ps->err, ps->errlen, RS_E_ARG, path, lineno,
                            "row has %d fields, the header %d (input '%s' of %s:%d)",
                            n, ncol, in->name, ps->file, line);
            goto done;
        }
        if (parse_num(f[0], &t) || parse_num(f[want], &v)) {
            st = rs_fail_at(ps->err, ps->errlen, RS_E_ARG, path, lineno,
                            "'%s' is not a number (input '%s' of %s:%d)",
                            parse_num(f[0], &t) ? f[0] : f[want], in->name, ps->file, line);
            goto done;
        }
        if (in->n > 0 && !(t > in->t[in->n - 1])) {
            st = rs_fail_at(ps->err, ps->errlen, RS_E_ARG, path, lineno,
                            "times must increase: %s after %.17g (input '%s' of %s:%d)",
                            f[0], in->t[in->n - 1], in->name, ps->file, line);
            goto done;
        }
        if (table_push(in, t, v)) {
            st = nomem(ps, line);
            goto done;
        }
    }
    if (in->n == 0) {
        st = rs_fail_at(ps->err, ps->errlen, RS_E_ARG, path, lineno,
                        "no data rows after the header (input '%s' of %s:%d)",
                        in->name, ps->file, line);
    }
done:
    free(text);
    free(path);
    return st;
}

int rs_scenario_file_kind(const char *kw)
{
    for (int k = 0; k < RS_SCENARIO_FILE_COUNT; k++)
        if (strcmp(kw, kFileStatements[k]) == 0)
            return k;
    return -1;
}

/* track "PATH" | wheel_profile "PATH" | rail_profile "PATH": the file,
 * relative to the scenario's folder, must be readable now (its contents
 * are checked when a workspace loads it). */
static int parse_file_statement(parser *ps, int k, const line_tokens *lt, int line)
{
    const char *kw = kFileStatements[k];
    rs_scenario *s = ps->s;
    if (lt->n != 2 || !lt->quoted[1])
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'%s' takes one quoted path, e.g. '%s \"%s\"'", kw,
                          kw, k == RS_SCENARIO_FILE_TRACK ? "../tracks/straight.trk" : "../profiles/s1002.prf");
    if (s->file[k])
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'%s' given twice (first at line %d): keep one", kw,
                          s->file_at[k].line);
    char *path = rs_path_beside(ps->file, lt->tok[1]);
    if (!path)
        return nomem(ps, line);
    FILE *f = fopen(path, "r");
    if (!f) {
        rs_fail_at(ps->err, ps->errlen, RS_E_IO, ps->file, line,
                   "%s: cannot open '%s' (%s); a relative path is "
                   "relative to the scenario's folder", kw, path, strerror(errno));
        free(path);
        return RS_E_IO;
    }
    fclose(f);
    s->file[k] = path;
    if (set_where(ps, &s->file_at[k], line))
        return nomem(ps, line);
    return RS_OK;
}

/* The next line of the text: returns it (NUL-terminated in place) or NULL. */
static char *next_line(char **cursor)
{
    char *l = *cursor;
    if (!l)
        return NULL;
    char *nl = strchr(l, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = NULL;
    }
    return l;
}

/* columns NAME...: the output columns besides time. */
static int parse_columns(parser *ps, const line_tokens *lt, int line)
{
    rs_scenario *s = ps->s;
    if (lt->n < 2)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'columns' needs at least one name, e.g. 'columns x x_dot'");
    for (int i = 1; i < lt->n; i++) {
        if (strcmp(lt->tok[i], "=") == 0 && !lt->quoted[i])
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "'columns' takes names separated by blanks, e.g. "
                              "'columns x x_dot'");
        if (grow((void **)&s->columns, s->n_columns, sizeof *s->columns))
            return nomem(ps, line);
        rs_scenario_column *c = &s->columns[s->n_columns];
        memset(c, 0, sizeof *c);
        if (!(c->name = dup_str(lt->tok[i])) || set_where(ps, &c->at, line)) {
            free(c->name);
            return nomem(ps, line);
        }
        s->n_columns++;
    }
    return RS_OK;
}

/* `stress NAME ...`: one more component; a name used twice is refused. */
static int parse_stress(parser *ps, const line_tokens *lt, int line)
{
    rs_scenario *s = ps->s;
    rs_stress_spec sp;
    int st = rs_stress_spec_parse(lt->tok, lt->n, ps->file, line, &sp, ps->err, ps->errlen);
    if (st)
        return st;
    for (int i = 0; i < s->stress; i++)
        if (strcmp(s->stress_spec[i].name, sp.name) == 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "stress: a second component named '%s' (line %d has one): give each its own name, "
                              "its columns are '%s.sigma_POINT'", sp.name, s->stress_spec[i].line, sp.name);
    if (s->stress == RS_STRESS_MODELS)
        return rs_fail_at(ps->err, ps->errlen, RS_E_UNSUPPORTED, ps->file, line,
                          "stress %s: more than %d components in one run", sp.name, RS_STRESS_MODELS);
    s->stress_spec[s->stress++] = sp;
    return RS_OK;
}

/* equilibrium [COORD...]: solve for the static equilibrium before the run
 * (of the coordinates named; none: the default ones). */
static int parse_equilibrium(parser *ps, const line_tokens *lt, int line)
{
    rs_scenario *s = ps->s;
    if (s->equilibrium)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                          "'equilibrium' given twice (first at line %d): keep one", s->equil_at.line);
    s->equilibrium = 1;
    if (set_where(ps, &s->equil_at, line))
        return nomem(ps, line);
    for (int i = 1; i < lt->n; i++) {
        if (lt->quoted[i] || strcmp(lt->tok[i], "=") == 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "'equilibrium' takes coordinate names separated by blanks, or none "
                              "(every coordinate but x and spin), e.g. 'equilibrium z roll'");
        if (grow((void **)&s->equil_coords, s->n_equil_coords, sizeof *s->equil_coords))
            return nomem(ps, line);
        rs_scenario_column *c = &s->equil_coords[s->n_equil_coords];
        memset(c, 0, sizeof *c);
        if (!(c->name = dup_str(lt->tok[i])) || set_where(ps, &c->at, line)) {
            free(c->name);
            return nomem(ps, line);
        }
        s->n_equil_coords++;
    }
    return RS_OK;
}

/* The rows of 'input NAME table', read from the lines after it (*line,
 * *cursor advance) up to 'end'. */
static int parse_input_table(parser *ps, rs_scenario_input *in, const char *name, int *line, char **cursor)
{
    const int start = *line;
    line_tokens lt;
    const char *why = NULL;
    char *l;
    int ended = 0;
    while ((l = next_line(cursor))) {
        ++*line;
        if (tokenize(l, &lt, &why))
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line, "%s", why);
        if (lt.n == 0)
            continue;
        if (lt.n == 1 && strcmp(lt.tok[0], "end") == 0) {
            ended = 1;
            break;
        }
        double t, v;
        if (lt.n != 2 || parse_num(lt.tok[0], &t) || parse_num(lt.tok[1], &v))
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                              "input '%s': a table row is two numbers, "
                              "TIME VALUE (or 'end' after the last row)", name);
        if (in->n > 0 && !(t > in->t[in->n - 1]))
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                              "input '%s': table times must increase "
                              "(%s after %.17g)", name, lt.tok[0], in->t[in->n - 1]);
        if (table_push(in, t, v))
            return nomem(ps, *line);
    }
    if (!ended)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, start,
                          "input '%s': the table has no 'end': add a line "
                          "'end' after its last row", name);
    if (in->n == 0)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, start,
                          "input '%s': the table is empty: give rows "
                          "'TIME VALUE' before 'end'", name);
    return RS_OK;
}

/* input NAME [=] VALUE | input NAME table (rows follow: *line and *cursor
 * advance past its 'end') | input NAME file "PATH" [column COL]. */
static int parse_input(parser *ps, const line_tokens *lt, int *line, char **cursor)
{
    const rs_scenario *s = ps->s;
    const char *ex = "e.g. 'input F = 10', 'input F table' or 'input F file \"F.csv\"'";
    if (lt->n < 3 || strcmp(lt->tok[1], "=") == 0)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                          "'input' needs NAME and a value, %s", ex);
    const char *name = lt->tok[1];
    for (int i = 0; i < s->n_inputs; i++)
        if (strcmp(s->inputs[i].name, name) == 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                              "input '%s' is set twice (first at line %d): keep one",
                              name, s->inputs[i].at.line);
    const char *how = lt->tok[2];
    if (!lt->quoted[2] && strcmp(how, "table") == 0) {
        if (lt->n > 3)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                              "unexpected '%s' after 'table': rows go on the "
                              "following lines, 'TIME VALUE', then 'end'", lt->tok[3]);
        rs_scenario_input *in = new_input(ps, name, *line);
        if (!in)
            return nomem(ps, *line);
        return parse_input_table(ps, in, name, line, cursor);
    }
    if (!lt->quoted[2] && strcmp(how, "file") == 0) {
        const char *col = NULL;
        if (lt->n < 4 || !lt->quoted[3])
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                              "'input %s file' needs a quoted path, e.g. "
                              "'input %s file \"%s.csv\"'", name, name, name);
        if (lt->n == 6 && strcmp(lt->tok[4], "column") == 0)
            col = lt->tok[5];
        else if (lt->n != 4) {
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                              "after the path, only 'column NAME' may follow, e.g. "
                              "'input %s file \"%s\" column %s'", name, lt->tok[3], name);
        }
        rs_scenario_input *in = new_input(ps, name, *line);
        if (!in)
            return nomem(ps, *line);
        return parse_input_file(ps, in, lt->tok[3], col, *line);
    }
    int k = 2;
    if (strcmp(how, "=") == 0 && !lt->quoted[2])
        k = 3;
    double v;
    if (k >= lt->n || lt->quoted[k] || parse_num(lt->tok[k], &v))
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                          "input '%s': expected a number, 'table' or 'file', %s",
                          name, ex);
    if (k + 1 < lt->n)
        return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, *line,
                          "unexpected '%s' after the value: one input per line",
                          lt->tok[k + 1]);
    rs_scenario_input *in = new_input(ps, name, *line);
    if (!in || !(in->v = malloc(sizeof(double))))
        return nomem(ps, *line);
    in->v[0] = v;
    in->n = 1;
    return RS_OK;
}

static int parse_text(parser *ps, char *text)
{
    char *cursor = text;
    int line = 0;
    char *l;
    line_tokens lt;
    const char *why = NULL;
    rs_scenario *s = ps->s;
    while ((l = next_line(&cursor))) {
        line++;
        if (tokenize(l, &lt, &why))
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line, "%s", why);
        if (lt.n == 0)
            continue;
        const char *kw = lt.tok[0];
        int st = RS_OK;
        if (lt.quoted[0] || strcmp(kw, "=") == 0)
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "a line starts with a statement name, e.g. 'step 1e-3'");
        if (strcmp(kw, "duration") == 0) st = parse_setting(ps, RS_SCENARIO_DURATION, &lt, line);
        else if (strcmp(kw, "step") == 0) st = parse_setting(ps, RS_SCENARIO_STEP, &lt, line);
        else if (strcmp(kw, "output") == 0) st = parse_setting(ps, RS_SCENARIO_OUTPUT, &lt, line);
        else if (strcmp(kw, "method") == 0) st = parse_setting(ps, RS_SCENARIO_METHOD, &lt, line);
        else if (strcmp(kw, "tolerance") == 0) st = parse_setting(ps, RS_SCENARIO_TOLERANCE, &lt, line);
        else if (strcmp(kw, "iterations") == 0) st = parse_setting(ps, RS_SCENARIO_ITERATIONS, &lt, line);
        else if (strcmp(kw, "friction") == 0 && lt.n >= 3)   /* friction CONTACT [=] MU */
            st = parse_assign(ps, &lt, line, &s->frictions, &s->n_frictions, "contact friction",
                              "friction front.left = 0.2");
        else if (strcmp(kw, "friction") == 0) st = parse_setting(ps, RS_SCENARIO_FRICTION, &lt, line);
        else if (strcmp(kw, "modulus") == 0)
            st = parse_material(ps, &lt, line, &s->moduli, &s->n_moduli, "Young's modulus",
                                "modulus 2.1e11' or 'modulus *.left = 2.0e11");
        else if (strcmp(kw, "poisson") == 0)
            st = parse_material(ps, &lt, line, &s->poissons, &s->n_poissons, "Poisson ratio",
                                "poisson 0.28' or 'poisson *.left = 0.3");
        else if (strcmp(kw, "contact") == 0) st = parse_setting(ps, RS_SCENARIO_CONTACT, &lt, line);
        else if (strcmp(kw, "creep") == 0) st = parse_setting(ps, RS_SCENARIO_CREEP, &lt, line);
        else if (strcmp(kw, "derailment") == 0) st = parse_setting(ps, RS_SCENARIO_DERAILMENT, &lt, line);
        else if (strcmp(kw, "climb_time") == 0) st = parse_setting(ps, RS_SCENARIO_CLIMB_TIME, &lt, line);
        else if (strcmp(kw, "normal") == 0) st = parse_setting(ps, RS_SCENARIO_NORMAL, &lt, line);
        else if (strcmp(kw, "theta") == 0) st = parse_setting(ps, RS_SCENARIO_THETA, &lt, line);
        else if (strcmp(kw, "speed") == 0) st = parse_setting(ps, RS_SCENARIO_SPEED, &lt, line);
        else if (strcmp(kw, "param") == 0)
            st = parse_assign(ps, &lt, line, &s->params, &s->n_params, "parameter", "param m = 1.5");
        else if (strcmp(kw, "initial") == 0)
            st = parse_assign(ps, &lt, line, &s->initial, &s->n_initial, "initial value", "initial x = 0.1");
        else if (strcmp(kw, "columns") == 0)
            st = parse_columns(ps, &lt, line);
        else if (strcmp(kw, "input") == 0)
            st = parse_input(ps, &lt, &line, &cursor);
        else if (strcmp(kw, "equilibrium") == 0)
            st = parse_equilibrium(ps, &lt, line);
        else if (strcmp(kw, "thermal") == 0 && s->thermal)
            return rs_fail_at(ps->err, ps->errlen, RS_E_UNSUPPORTED, ps->file, line,
                              "a second 'thermal' statement (line %d has one): one damper's thermal model per "
                              "run for now (docs/coupled.md)", s->thermal_spec.line);
        else if (strcmp(kw, "thermal") == 0) {
            st = rs_thermal_spec_parse(lt.tok, lt.n, ps->file, line, &s->thermal_spec, ps->err, ps->errlen);
            s->thermal = st == RS_OK;
        }
        else if (strcmp(kw, "stress") == 0)
            st = parse_stress(ps, &lt, line);
        else if (rs_scenario_file_kind(kw) >= 0)
            st = parse_file_statement(ps, rs_scenario_file_kind(kw), &lt, line);
        else if (strcmp(kw, "end") == 0) {
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "'end' without a table: it closes 'input NAME table'");
        } else {
            const char *sug = rs_closest_name(kw, kStatements, N_STATEMENTS - 1);
            if (sug)
                return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                                  "unknown statement '%s' (did you mean '%s'?)", kw, sug);
            return rs_fail_at(ps->err, ps->errlen, RS_E_ARG, ps->file, line,
                              "unknown statement '%s'; statements are "
                              "duration, step, output, method, tolerance, iterations, friction, contact, creep, "
                              "derailment, speed, climb_time, normal, theta, modulus, poisson, param, initial, input, columns, track, wheel_profile, rail_profile, "
                              "rail_profile_left, rail_profile_right, equilibrium, thermal, stress", kw);
        }
        if (st)
            return st;
    }
    return RS_OK;
}

int rs_scenario_parse(const char *text, size_t len, const char *file, rs_scenario *s, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    rs_scenario_init(s);
    if (!text || !file)
        return rs_fail_at(err, errlen, RS_E_ARG, file ? file : "scenario", 0, "no text to parse");
    int bad = rs_text_check(text, len, file, err, errlen);
    if (!bad)
        bad = rs_kind_check(text, len, file, RS_KIND_SCENARIO, err, errlen);
    if (bad)
        return bad;
    char *copy = malloc(len + 1);
    if (!copy)
        return rs_fail_at(err, errlen, RS_E_NOMEM, file, 0, "out of memory");
    memcpy(copy, text, len);
    copy[len] = '\0';
    parser ps = {file, s, err, errlen};
    int st = parse_text(&ps, copy);
    free(copy);
    if (st)
        rs_scenario_free(s);
    return st;
}

int rs_scenario_read(const char *path, rs_scenario *s, char *err, size_t errlen)
{
    rs_scenario_init(s);
    char *text;
    size_t len;
    const int why = rs_read_file(path, 0, 0, &text, &len);
    if (why)
        return rs_fail(err, errlen, why == ENOMEM ? RS_E_NOMEM : RS_E_IO,
                       "cannot read scenario '%s': %s", path, rs_file_why_at(path, why));
    int st = rs_scenario_parse(text, len, path, s, err, errlen);
    free(text);
    return st;
}

/* ------------------------------------------------------------ overlay */

static int copy_where(rs_scenario_where *d, const rs_scenario_where *s)
{
    d->line = s->line;
    d->file = s->file ? dup_str(s->file) : NULL;
    return s->file && !d->file ? -1 : 0;
}

static int append_assigns(rs_scenario_assign **list, int *n, const rs_scenario_assign *src, int ns)
{
    for (int i = 0; i < ns; i++) {
        if (grow((void **)list, *n, sizeof **list))
            return -1;
        rs_scenario_assign *a = &(*list)[*n];
        memset(a, 0, sizeof *a);
        a->value = src[i].value;
        if (!(a->name = dup_str(src[i].name)) || copy_where(&a->at, &src[i].at)) {
            free(a->name);
            return -1;
        }
        (*n)++;
    }
    return 0;
}

int rs_scenario_overlay(rs_scenario *b, const rs_scenario *top)
{
    for (int i = 0; i < RS_SCENARIO_N_SETTINGS; i++) {
        unsigned bit = 1u << i;
        if (!(top->set & bit))
            continue;
        free_where(&b->set_at[i]);
        if (copy_where(&b->set_at[i], &top->set_at[i]))
            return RS_E_NOMEM;
        b->set |= bit;
    }
    if (top->set & RS_SCENARIO_DURATION) b->duration = top->duration;
    if (top->set & RS_SCENARIO_STEP) b->step = top->step;
    if (top->set & RS_SCENARIO_OUTPUT) b->output = top->output;
    if (top->set & RS_SCENARIO_METHOD) b->method = top->method;
    if (top->set & RS_SCENARIO_TOLERANCE) b->tolerance = top->tolerance;
    if (top->set & RS_SCENARIO_ITERATIONS) b->iterations = top->iterations;
    if (top->set & RS_SCENARIO_FRICTION) b->friction = top->friction;
    if (top->set & RS_SCENARIO_CONTACT) b->contact_mode = top->contact_mode;
    if (top->set & RS_SCENARIO_CREEP) b->creep_law = top->creep_law;
    if (top->set & RS_SCENARIO_DERAILMENT) b->derail_continue = top->derail_continue;
    if (top->set & RS_SCENARIO_CLIMB_TIME) b->climb_time = top->climb_time;
    if (top->set & RS_SCENARIO_NORMAL) b->normal_law = top->normal_law;
    if (top->set & RS_SCENARIO_THETA) b->theta = top->theta;
    if (top->set & RS_SCENARIO_SPEED) {
        b->speed = top->speed;
        b->speed_first = b->n_initial + top->speed_first;   /* before top's lines are appended */
    }
    for (int k = 0; k < RS_SCENARIO_FILE_COUNT; k++) {
        if (!top->file[k])
            continue;
        free(b->file[k]);
        free_where(&b->file_at[k]);
        if (!(b->file[k] = dup_str(top->file[k])) || copy_where(&b->file_at[k], &top->file_at[k]))
            return RS_E_NOMEM;
    }
    if (top->thermal) {   /* the top's statement replaces the base's */
        b->thermal = 1;
        b->thermal_spec = top->thermal_spec;
    }
    for (int i = 0; i < top->stress; i++) {   /* by name: the top's replaces the base's, others are added */
        int j = 0;
        while (j < b->stress && strcmp(b->stress_spec[j].name, top->stress_spec[i].name) != 0)
            j++;
        if (j == RS_STRESS_MODELS)
            return RS_E_UNSUPPORTED;   /* more components than a run holds (rs_scenario.h) */
        b->stress_spec[j] = top->stress_spec[i];
        b->stress += j == b->stress;
    }
    if (top->equilibrium) { /* the top's line replaces the base's */
        for (int i = 0; i < b->n_equil_coords; i++) {
            free(b->equil_coords[i].name);
            free_where(&b->equil_coords[i].at);
        }
        b->n_equil_coords = 0;
        free_where(&b->equil_at);
        b->equilibrium = 1;
        if (copy_where(&b->equil_at, &top->equil_at))
            return RS_E_NOMEM;
        for (int i = 0; i < top->n_equil_coords; i++) {
            if (grow((void **)&b->equil_coords, b->n_equil_coords, sizeof *b->equil_coords))
                return RS_E_NOMEM;
            rs_scenario_column *c = &b->equil_coords[b->n_equil_coords];
            memset(c, 0, sizeof *c);
            if (!(c->name = dup_str(top->equil_coords[i].name)) || copy_where(&c->at, &top->equil_coords[i].at)) {
                free(c->name);
                return RS_E_NOMEM;
            }
            b->n_equil_coords++;
        }
    }
    if (append_assigns(&b->params, &b->n_params, top->params, top->n_params) ||
        append_assigns(&b->initial, &b->n_initial, top->initial, top->n_initial) ||
        append_assigns(&b->frictions, &b->n_frictions, top->frictions, top->n_frictions) ||
        append_assigns(&b->moduli, &b->n_moduli, top->moduli, top->n_moduli) ||
        append_assigns(&b->poissons, &b->n_poissons, top->poissons, top->n_poissons))
        return RS_E_NOMEM;
    for (int i = 0; i < top->n_inputs; i++) {
        const rs_scenario_input *src = &top->inputs[i];
        rs_scenario_input *in = NULL;
        for (int j = 0; j < b->n_inputs; j++)
            if (strcmp(b->inputs[j].name, src->name) == 0)
                in = &b->inputs[j];
        if (in) { /* replace in place */
            free(in->t);
            free(in->v);
            free_where(&in->at);
            in->t = in->v = NULL;
            in->n = 0;
        } else {
            if (grow((void **)&b->inputs, b->n_inputs, sizeof *b->inputs))
                return RS_E_NOMEM;
            in = &b->inputs[b->n_inputs];
            memset(in, 0, sizeof *in);
            if (!(in->name = dup_str(src->name)))
                return RS_E_NOMEM;
            b->n_inputs++;
        }
        if (copy_where(&in->at, &src->at))
            return RS_E_NOMEM;
        in->v = malloc((size_t)src->n * sizeof(double));
        in->t = src->t ? malloc((size_t)src->n * sizeof(double)) : NULL;
        if (!in->v || (src->t && !in->t))
            return RS_E_NOMEM;
        memcpy(in->v, src->v, (size_t)src->n * sizeof(double));
        if (src->t)
            memcpy(in->t, src->t, (size_t)src->n * sizeof(double));
        in->n = src->n;
    }
    if (top->n_columns > 0) {
        for (int i = 0; i < b->n_columns; i++) {
            free(b->columns[i].name);
            free_where(&b->columns[i].at);
        }
        b->n_columns = 0;
        for (int i = 0; i < top->n_columns; i++) {
            if (grow((void **)&b->columns, b->n_columns, sizeof *b->columns))
                return RS_E_NOMEM;
            rs_scenario_column *c = &b->columns[b->n_columns];
            memset(c, 0, sizeof *c);
            if (!(c->name = dup_str(top->columns[i].name)) || copy_where(&c->at, &top->columns[i].at)) {
                free(c->name);
                return RS_E_NOMEM;
            }
            b->n_columns++;
        }
    }
    return RS_OK;
}

/* ------------------------------------------------------------ interpolation */

double rs_scenario_interp(const double *t, const double *v, int n, double x)
{
    if (n <= 1 || !t)
        return v[0];
    if (!(x > t[0]))
        return v[0];
    if (x >= t[n - 1])
        return v[n - 1];
    int lo = 0, hi = n - 1; /* t[lo] < x < t[hi] */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (t[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    double w = (x - t[lo]) / (t[hi] - t[lo]);
    return v[lo] + w * (v[hi] - v[lo]);
}

/* ------------------------------------------------------------ binding */

struct rs_binding {
    const rs_model *m;
    unsigned set;
    double duration, step, output, tolerance, friction, climb_time, theta;
    double *mu_each;               /* per contact (NaN: the common friction), or NULL */
    double *E_each, *nu_each;      /* per contact (NaN: rs_options' value), or NULL  */
    rs_method method;
    int contact_mode, creep_law, normal_law, derail_continue;
    int iterations;
    int n_p;
    int *p_idx;
    double *p_val;
    rs_scenario_where *p_at;       /* each 'param' line (file owned)      */
    int n_init;
    rs_var *init_var;
    double *init_val;
    int n_in;
    int *in_slot, *in_n;
    double **in_t, **in_v;
    int n_var, *in_var;             /* the inputs that change with time     */
    int n_col;
    char **cols;
    char *file[RS_SCENARIO_FILE_COUNT];  /* contact file replacements (rs_scenario) */
    double speed;                  /* `speed V` when set has RS_SCENARIO_SPEED */
    rs_scenario_where speed_at;    /* its line (file owned)               */
    int equilibrium, n_eq, *eq_idx; /* `equilibrium [COORD...]`          */
};

void rs_binding_free(rs_binding **bp)
{
    if (!bp || !*bp)
        return;
    rs_binding *b = *bp;
    for (int i = 0; i < b->n_in; i++) {
        free(b->in_t[i]);
        free(b->in_v[i]);
    }
    for (int i = 0; i < b->n_col; i++)
        free(b->cols[i]);
    for (int k = 0; k < RS_SCENARIO_FILE_COUNT; k++)
        free(b->file[k]);
    free(b->speed_at.file);
    free(b->eq_idx);
    free(b->mu_each);
    free(b->E_each);
    free(b->nu_each);
    for (int i = 0; b->p_at && i < b->n_p; i++)
        free(b->p_at[i].file);
    free(b->p_idx);
    free(b->p_val);
    free(b->p_at);
    free(b->init_var);
    free(b->init_val);
    free(b->in_slot);
    free(b->in_n);
    free(b->in_t);
    free(b->in_v);
    free(b->in_var);
    free(b->cols);
    free(b);
    *bp = NULL;
}

/* A kind of quantity in words, for "'x' is a coordinate, not a parameter". */
static const char *kind_words(rs_var_kind k)
{
    switch (k) {
    case RS_VAR_TIME: return "the time";
    case RS_VAR_Q: return "a coordinate";
    case RS_VAR_QD: return "a velocity";
    case RS_VAR_S: return "an auxiliary coordinate";
    case RS_VAR_SD: return "an auxiliary velocity";
    case RS_VAR_P: return "a parameter";
    case RS_VAR_U: return "an input";
    case RS_VAR_LAMBDA: return "a multiplier";
    case RS_VAR_OUTPUT: return "an output";
    case RS_VAR_CONTACT: return "a contact quantity";
    case RS_VAR_STAT: return "a step statistic";
    case RS_VAR_ENERGY: return "an energy or power term";
    }
    return "a quantity";
}

/* The statement that sets a kind, for the fix in messages. */
static const char *kind_statement(rs_var_kind k)
{
    switch (k) {
    case RS_VAR_P: return "param";
    case RS_VAR_Q: case RS_VAR_QD: case RS_VAR_S: case RS_VAR_SD: return "initial";
    case RS_VAR_U: return "input";
    default: return NULL;
    }
}

/* Candidate names, owned strings (velocities and multipliers need building). */
typedef struct names {
    int n;
    char **v;
} names;

static void names_free(names *ns)
{
    for (int i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
    ns->v = NULL;
    ns->n = 0;
}

static int names_add(names *ns, const char *a, const char *b)
{
    if (grow((void **)&ns->v, ns->n, sizeof *ns->v))
        return -1;
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (!s)
        return -1;
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    ns->v[ns->n++] = s;
    return 0;
}

enum { CAND_P = 1, CAND_INIT = 2, CAND_U = 4, CAND_COLUMNS = 8 };

static int candidates(const rs_model *m, int which, names *ns)
{
    int bad = 0;
    if (which & (CAND_INIT | CAND_COLUMNS)) {
        for (int i = 0; i < m->n_q; i++)
            bad |= names_add(ns, m->q_names[i], "");
        for (int i = 0; i < m->n_q; i++)
            bad |= names_add(ns, m->q_names[i], "_dot");
        for (int i = 0; i < m->n_s; i++)
            bad |= names_add(ns, m->s_names[i], "");
        for (int i = 0; i < m->n_s; i++)
            bad |= names_add(ns, m->s_names[i], "_dot");
    }
    if (which & CAND_COLUMNS) {
        for (int i = 0; i < m->n_phi; i++)
            bad |= names_add(ns, "lambda_", m->phi_names[i]);
        for (int i = 0; i < m->n_out; i++)
            bad |= names_add(ns, m->output_names[i], "");
        for (int k = 0; k < RS_ENERGY_VAR_COUNT; k++)
            if (*rs_energy_var_name(m, k))
                bad |= names_add(ns, rs_energy_var_name(m, k), "");
        for (int c = 0; c < m->n_contact; c++)   /* "<contact>.Q" ... (not the patches') */
            for (int k = 0; k < RS_CONTACT_VAR_COUNT; k++) {
                char col[256];
                snprintf(col, sizeof col, "%s.%s", m->contacts[c].name, rs_contact_var_suffix(k));
                bad |= names_add(ns, col, "");
            }
        for (int wb = 0; wb < rs_track_rel_n_bodies(m); wb++)
            for (int k = 0; k < RS_TREL_COUNT; k++) {
                char col[256];
                snprintf(col, sizeof col, "%s.%s", rs_track_rel_body(m, wb), rs_track_rel_suffix(k));
                bad |= names_add(ns, col, "");
            }
    }
    if (which & (CAND_P | CAND_COLUMNS))
        for (int i = 0; i < m->n_p; i++)
            bad |= names_add(ns, m->p_names[i], "");
    if (which & (CAND_U | CAND_COLUMNS))
        for (int i = 0; i < m->n_u; i++)
            bad |= names_add(ns, m->u_names[i], "");
    return bad ? -1 : 0;
}

/* "unknown parameter 'x' (did you mean 'y'?)" or, with no close name, the
 * list of what the model has. */
static int unknown(const rs_model *m, const rs_scenario_where *at, const char *what, int which,
                   const char *name, char *err, size_t errlen)
{
    names ns = {0, NULL};
    if (candidates(m, which, &ns)) {
        names_free(&ns);
        return rs_fail_at(err, errlen, RS_E_NOMEM, at->file, at->line, "out of memory");
    }
    const char *sug = rs_closest_name(name, (const char *const *)ns.v, ns.n);
    if (sug) {
        rs_fail_at(err, errlen, RS_E_NOTFOUND, at->file, at->line, "unknown %s '%s' (did you mean '%s'?)", what,
                   name, sug);
    } else if (ns.n == 0) {
        rs_fail_at(err, errlen, RS_E_NOTFOUND, at->file, at->line,
                   "unknown %s '%s': model '%s' has no %ss; remove the line", what, name, m->name, what);
    } else {
        char list[400] = "";
        int shown = 0;
        for (int i = 0; i < ns.n; i++) {
            size_t k = strlen(list);
            if (k + strlen(ns.v[i]) + 8 >= sizeof list)
                break;
            snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", ns.v[i]);
            shown++;
        }
        rs_fail_at(err, errlen, RS_E_NOTFOUND, at->file, at->line,
                   "unknown %s '%s'; model '%s' has: %s%s", what,
                   name, m->name, list, shown < ns.n ? ", ..." : "");
    }
    names_free(&ns);
    return RS_E_NOTFOUND;
}

/* A name that exists but is of another kind: say which statement sets it. */
static int wrong_kind(const rs_scenario_where *at, const char *name, rs_var_kind k, const char *stmt,
                      char *err, size_t errlen)
{
    const char *fix = kind_statement(k);
    if (fix)
        return rs_fail_at(err, errlen, RS_E_NOTFOUND, at->file, at->line,
                          "'%s' is %s, not set by '%s': write '%s %s = ...'", name, kind_words(k), stmt, fix, name);
    return rs_fail_at(err, errlen, RS_E_NOTFOUND, at->file, at->line,
                      "'%s' is %s: a scenario cannot set it with '%s'",
                      name, kind_words(k), stmt);
}

/* The model variable `name` that statement `stmt` sets, one of the kinds in
 * the bit set `kinds` (1 << RS_VAR_*): an unknown name or another kind is
 * an error at `at` (what: the words for the kinds, which: the candidates). */
static int find_settable(const rs_model *m, const rs_scenario_where *at, const char *name, unsigned kinds,
                         const char *what, int which, const char *stmt, rs_var *v, char *err, size_t errlen)
{
    if (rs_model_find(m, name, v) != RS_OK)
        return unknown(m, at, what, which, name, err, errlen);
    if (!(kinds & (1u << v->kind)))
        return wrong_kind(at, name, v->kind, stmt, err, errlen);
    return RS_OK;
}

/* The per-contact statements: 'friction CONTACT = MU', 'modulus [CONTACT =]
 * E', 'poisson [CONTACT =] NU'; their keyword, the range their values must
 * lie in and why. */
typedef struct each_kind {
    const char *kw, *range;
    double lo, hi;
    int lo_open;
} each_kind;
static const each_kind kFriction = {"friction", "a coefficient from 0 to 10", 0, 10, 0};
static const each_kind kModulus = {"modulus", "Young's modulus in Pa, > 0 (steel: 2.1e11)", 0, 1e15, 1};
static const each_kind kPoisson = {"poisson", "a Poisson ratio in [0, 0.5) (steel: 0.28)", 0, 0.5 - 1e-12, 0};

/* The values of a per-contact statement's lines for every contact CONTACT
 * names ('*' matches any characters: `friction *.left = 0.15`), later lines
 * over earlier ones, into *out (NaN: the common value). */
static int bind_each(const rs_scenario_assign *list, int n, const each_kind *k, const rs_model *m, double **out,
                     char *err, size_t errlen)
{
    if (n == 0)
        return RS_OK;
    if (m->n_contact == 0)
        return rs_fail_at(err, errlen, RS_E_VALUE, list[0].at.file, list[0].at.line,
                          "model '%s' has no wheel-rail contacts: remove the '%s %s' line", m->name, k->kw,
                          list[0].name);
    if (!(*out = malloc((size_t)m->n_contact * sizeof **out)))
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    for (int i = 0; i < m->n_contact; i++)
        (*out)[i] = NAN;
    const char *names[64];
    const int nn = m->n_contact < 64 ? m->n_contact : 64;
    for (int i = 0; i < nn; i++)
        names[i] = m->contacts[i].name;
    for (int f = 0; f < n; f++) {
        const rs_scenario_assign *a = &list[f];
        if (!(k->lo_open ? a->value > k->lo : a->value >= k->lo) || !(a->value <= k->hi))
            return rs_fail_at(err, errlen, RS_E_VALUE, a->at.file, a->at.line, "%s must be %s (got %g)", k->kw,
                              k->range, a->value);
        int hits = 0;
        for (int i = 0; i < m->n_contact; i++)
            if (fnmatch(a->name, m->contacts[i].name, 0) == 0) {
                (*out)[i] = a->value;
                hits++;
            }
        if (hits == 0) {
            const char *sug = rs_closest_name(a->name, names, nn);
            char list_text[512];
            size_t w = 0;
            list_text[0] = '\0';
            for (int i = 0; i < nn && w + 80 < sizeof list_text; i++)
                w += (size_t)snprintf(list_text + w, sizeof list_text - w, "%s%s", i ? ", " : "", names[i]);
            return rs_fail_at(err, errlen, RS_E_NOTFOUND, a->at.file, a->at.line,
                              "no contact is named '%s'%s%s%s; the model's contacts: %s%s ('*' matches any "
                              "characters: '%s *.left = ...')", a->name, sug ? " (did you mean '" : "",
                              sug ? sug : "", sug ? "'?)" : "", list_text, nn < m->n_contact ? ", ..." : "", k->kw);
        }
    }
    return RS_OK;
}

/* `speed V`: the model must have what it sets (rs_speed_check), and an
 * `initial` line of its layer or a higher one must not set one of those
 * velocities too (a lower layer's, default.scn's or a sweep's base
 * scenario's, is overridden: speed is applied after every initial line). */
static int bind_speed(const rs_scenario *s, const rs_model *m, rs_binding *b, char *err, size_t errlen)
{
    if (!(s->set & RS_SCENARIO_SPEED))
        return RS_OK;
    int idx = 0;   /* set_at is in bit order */
    while ((1 << idx) != RS_SCENARIO_SPEED)
        idx++;
    const rs_scenario_where *at = &s->set_at[idx];
    char why[512];
    rs_speed_check(m, why, sizeof why);
    if (why[0])
        return rs_fail_at(err, errlen, RS_E_VALUE, at->file, at->line, "'speed %g': %s", s->speed, why);
    for (int i = s->speed_first; i < s->n_initial; i++) {
        const rs_scenario_assign *a = &s->initial[i];
        rs_var v;
        if (rs_model_find(m, a->name, &v) != RS_OK || v.kind != RS_VAR_QD || !rs_speed_sets(m, v.index))
            continue;
        if (a->at.file && at->file && strcmp(a->at.file, at->file) == 0)
            return rs_fail_at(err, errlen, RS_E_VALUE, a->at.file, a->at.line,
                              "'initial %s = %g' contradicts 'speed %g' (line %d), which sets %s: remove one of "
                              "the two lines", a->name, a->value, s->speed, at->line, a->name);
        return rs_fail_at(err, errlen, RS_E_VALUE, a->at.file, a->at.line,
                          "'initial %s = %g' contradicts 'speed %g' (%s:%d), which sets %s: remove the "
                          "'speed' line or this one", a->name, a->value, s->speed, at->file ? at->file : "scenario",
                          at->line, a->name);
    }
    b->speed = s->speed;
    b->speed_at.line = at->line;
    if (at->file && !(b->speed_at.file = dup_str(at->file)))
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    return RS_OK;
}

/* `theta T` places the elastic contact's stiffness within the step: a
 * model whose contacts run the constraint contact (the scenario's
 * `contact constraint`, or else its description's mode) has none. */
static int bind_theta(const rs_scenario *s, const rs_model *m, char *err, size_t errlen)
{
    if (!(s->set & RS_SCENARIO_THETA) || m->n_contact == 0)
        return RS_OK;
    const rs_contact_ops *ops = s->contact_mode == RS_CONTACT_MODE_ELASTIC      ? rs_elastic_contact()
                                : s->contact_mode == RS_CONTACT_MODE_CONSTRAINT ? rs_wheel_rail_contact()
                                                                                : rs_contact_for_model(m);
    if (!ops || ops->elastic)
        return RS_OK; /* mixed modes: the run refuses them itself */
    int idx = 0; /* set_at is in bit order */
    while ((1 << idx) != RS_SCENARIO_THETA)
        idx++;
    const rs_scenario_where *at = &s->set_at[idx];
    return rs_fail_at(err, errlen, RS_E_VALUE, at->file ? at->file : "scenario", at->line,
                      "'theta %g' belongs to the elastic contact (where its step linearizes the normal "
                      "stiffness); model '%s' runs the constraint contact, which holds one point per wheel "
                      "on its rail: remove the line, or add 'contact elastic'",
                      s->theta, m->name);
}

/* A model without wheel-rail contacts gives the contact's settings nothing
 * to act on: a line that sets one is refused, as the per-contact
 * statements are (bind_each), not silently ignored. */
static int bind_contactless(const rs_scenario *s, const rs_model *m, char *err, size_t errlen)
{
    const unsigned contact_bits = RS_SCENARIO_FRICTION | RS_SCENARIO_CONTACT | RS_SCENARIO_CREEP |
                                  RS_SCENARIO_DERAILMENT | RS_SCENARIO_CLIMB_TIME | RS_SCENARIO_NORMAL |
                                  RS_SCENARIO_THETA;
    if (m->n_contact > 0)
        return RS_OK;
    for (int idx = 0; idx < RS_SCENARIO_N_SETTINGS; idx++) /* set_at and kStatements in bit order */
        if (contact_bits & s->set & (1u << idx)) {
            const rs_scenario_where *at = &s->set_at[idx];
            return rs_fail_at(err, errlen, RS_E_VALUE, at->file ? at->file : "scenario", at->line,
                              "model '%s' has no wheel-rail contacts: '%s' has nothing to act on; remove the line",
                              m->name, kStatements[idx]);
        }
    return RS_OK;
}

int rs_scenario_bind(const rs_scenario *s, const rs_model *m, rs_binding **bp, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    *bp = NULL;
    if (!s || !m)
        return rs_fail_at(err, errlen, RS_E_ARG, "scenario", 0, "rs_scenario_bind: scenario or model is NULL");
    rs_binding *b = calloc(1, sizeof *b);
    if (!b)
        return rs_fail_at(err, errlen, RS_E_NOMEM, "scenario", 0, "out of memory");
    b->m = m;
    b->set = s->set;
    int st = RS_OK;
    b->duration = rs_scenario_duration(s);
    b->step = rs_scenario_step(s);
    b->output = rs_scenario_output(s);
    if (b->step > b->duration) {   /* the settings' index is their bit's: step 1, duration 0 */
        const rs_scenario_where *at = s->set_at[1].file ? &s->set_at[1] : &s->set_at[0];
        st = rs_fail_at(err, errlen, RS_E_VALUE, at->file ? at->file : "scenario", at->line,
                        "the step (%g s) is longer than the duration (%g s): nothing would be simulated; "
                        "shorten 'step' or lengthen 'duration'", b->step, b->duration);
        goto fail;
    }
    if (b->duration / b->step > 1e11) {
        const rs_scenario_where *at = s->set_at[1].file ? &s->set_at[1] : &s->set_at[0];
        st = rs_fail_at(err, errlen, RS_E_VALUE, at->file ? at->file : "scenario", at->line,
                        "%g s in steps of %g s is %.3g steps, more than any run can take; lengthen 'step' or "
                        "shorten 'duration'", b->duration, b->step, b->duration / b->step);
        goto fail;
    }
    b->tolerance = s->tolerance;
    b->method = s->method;
    b->iterations = s->iterations;
    b->friction = s->friction;
    b->contact_mode = s->contact_mode;
    b->creep_law = s->creep_law;
    b->normal_law = s->normal_law;
    b->derail_continue = s->derail_continue;
    b->climb_time = s->climb_time;
    b->theta = s->theta;
    const size_t np = (size_t)s->n_params + 1, ni = (size_t)s->n_initial + 1, nu = (size_t)s->n_inputs + 1;
    b->p_idx = calloc(np, sizeof *b->p_idx);
    b->p_val = calloc(np, sizeof *b->p_val);
    b->p_at = calloc(np, sizeof *b->p_at);
    b->init_var = calloc(ni, sizeof *b->init_var);
    b->init_val = calloc(ni, sizeof *b->init_val);
    b->in_slot = calloc(nu, sizeof *b->in_slot);
    b->in_n = calloc(nu, sizeof *b->in_n);
    b->in_t = calloc(nu, sizeof *b->in_t);
    b->in_v = calloc(nu, sizeof *b->in_v);
    b->in_var = calloc(nu, sizeof *b->in_var);
    b->cols = calloc((size_t)s->n_columns + 1, sizeof *b->cols);
    if (!b->p_idx || !b->p_val || !b->p_at || !b->init_var || !b->init_val || !b->in_slot || !b->in_n || !b->in_t ||
        !b->in_v || !b->in_var || !b->cols) {
        st = rs_fail_at(err, errlen, RS_E_NOMEM, "scenario", 0, "out of memory");
        goto fail;
    }
    for (int k = 0; k < RS_SCENARIO_FILE_COUNT; k++) {
        if (!s->file[k])
            continue;
        /* a model without contacts takes a track all the same: the one its
         * bodies' track-relative results are measured on (rs_track_rel.h) */
        if (m->n_contact == 0 && k != RS_SCENARIO_FILE_TRACK) {
            st = rs_fail_at(err, errlen, RS_E_ARG, s->file_at[k].file, s->file_at[k].line,
                            "'%s' replaces the wheel-rail contacts' files, but model '%s' has no contacts: "
                            "remove the line", kFileStatements[k], m->name);
            goto fail;
        }
        if (!(b->file[k] = dup_str(s->file[k]))) {
            st = rs_fail_at(err, errlen, RS_E_NOMEM, "scenario", 0, "out of memory");
            goto fail;
        }
    }
    rs_var v;
    for (int i = 0; i < s->n_params; i++) {
        const rs_scenario_assign *a = &s->params[i];
        if ((st = find_settable(m, &a->at, a->name, 1u << RS_VAR_P, "parameter", CAND_P, "param", &v, err,
                                errlen)))
            goto fail;
        b->p_idx[b->n_p] = v.index;
        b->p_val[b->n_p] = a->value;
        b->p_at[b->n_p].line = a->at.line;
        if (a->at.file && !(b->p_at[b->n_p].file = dup_str(a->at.file))) {
            st = rs_fail_at(err, errlen, RS_E_NOMEM, "scenario", 0, "out of memory");
            goto fail;
        }
        b->n_p++;
    }
    for (int i = 0; i < s->n_initial; i++) {
        const rs_scenario_assign *a = &s->initial[i];
        const unsigned state = 1u << RS_VAR_Q | 1u << RS_VAR_QD | 1u << RS_VAR_S | 1u << RS_VAR_SD;
        /* an element's internal state (an input slot the step integrates) */
        if (rs_model_find(m, a->name, &v) == RS_OK && v.kind == RS_VAR_U && rs_model_z_of_u(m, v.index) >= 0) {
            b->init_var[b->n_init] = v;
            b->init_val[b->n_init++] = a->value;
            continue;
        }
        if ((st = find_settable(m, &a->at, a->name, state, "coordinate or velocity", CAND_INIT, "initial", &v,
                                err, errlen)))
            goto fail;
        b->init_var[b->n_init] = v;
        b->init_val[b->n_init++] = a->value;
    }
    if ((st = bind_speed(s, m, b, err, errlen)))
        goto fail;
    if ((st = bind_theta(s, m, err, errlen)) || (st = bind_contactless(s, m, err, errlen)))
        goto fail;
    b->equilibrium = s->equilibrium;
    if (!(b->eq_idx = calloc((size_t)s->n_equil_coords + 1, sizeof *b->eq_idx))) {
        st = rs_fail_at(err, errlen, RS_E_NOMEM, "scenario", 0, "out of memory");
        goto fail;
    }
    for (int i = 0; i < s->n_equil_coords; i++) {
        const rs_scenario_column *c = &s->equil_coords[i];
        if ((st = find_settable(m, &c->at, c->name, 1u << RS_VAR_Q, "coordinate", CAND_INIT, "equilibrium", &v,
                                err, errlen)))
            goto fail;
        for (int k = 0; k < b->n_eq; k++)
            if (b->eq_idx[k] == v.index) {
                st = rs_fail_at(err, errlen, RS_E_ARG, c->at.file, c->at.line,
                                "'equilibrium' names '%s' twice: keep one", c->name);
                goto fail;
            }
        b->eq_idx[b->n_eq++] = v.index;
    }
    if ((st = bind_each(s->frictions, s->n_frictions, &kFriction, m, &b->mu_each, err, errlen)) ||
        (st = bind_each(s->moduli, s->n_moduli, &kModulus, m, &b->E_each, err, errlen)) ||
        (st = bind_each(s->poissons, s->n_poissons, &kPoisson, m, &b->nu_each, err, errlen)))
        goto fail;
    for (int i = 0; i < s->n_inputs; i++) {
        const rs_scenario_input *in = &s->inputs[i];
        if ((st = find_settable(m, &in->at, in->name, 1u << RS_VAR_U, "input", CAND_U, "input", &v, err,
                                errlen)))
            goto fail;
        if (rs_model_z_of_u(m, v.index) >= 0) {
            st = rs_fail_at(err, errlen, RS_E_ARG, in->at.file, in->at.line,
                            "'%s' is an element's internal state, which the step integrates, not an input: "
                            "give its start value with 'initial %s = VALUE'", in->name, in->name);
            goto fail;
        }
        int k = b->n_in;
        b->in_slot[k] = v.index;
        b->in_n[k] = in->n;
        b->in_v[k] = malloc((size_t)in->n * sizeof(double));
        if (in->t)
            b->in_t[k] = malloc((size_t)in->n * sizeof(double));
        b->n_in++;
        if (!b->in_v[k] || (in->t && !b->in_t[k])) {
            st = rs_fail_at(err, errlen, RS_E_NOMEM, in->at.file, in->at.line, "out of memory");
            goto fail;
        }
        memcpy(b->in_v[k], in->v, (size_t)in->n * sizeof(double));
        if (in->t)
            memcpy(b->in_t[k], in->t, (size_t)in->n * sizeof(double));
        int varies = 0;
        for (int r = 1; in->t && r < in->n; r++)
            varies |= in->v[r] != in->v[0];
        if (varies)
            b->in_var[b->n_var++] = k;
    }
    for (int i = 0; i < s->n_columns; i++) {
        const rs_scenario_column *c = &s->columns[i];
        if (strcmp(c->name, "time") == 0) {
            st = rs_fail_at(err, errlen, RS_E_ARG, c->at.file, c->at.line,
                            "'time' is always the first column: leave it out of 'columns'");
            goto fail;
        }
        int tb, tk;
        int sc = 0;
        while (sc < s->stress && rs_stress_spec_column(&s->stress_spec[sc], c->name) < 0)
            sc++;
        if (rs_model_find(m, c->name, &v) != RS_OK && rs_track_rel_find(m, c->name, &tb, &tk) != RS_OK &&
            sc == s->stress) {
            for (sc = 0; sc < s->stress; sc++)
                if ((st = rs_stress_spec_unknown_column(&s->stress_spec[sc], c->name, c->at.file, c->at.line, err,
                                                        errlen)))
                    goto fail;
            st = unknown(m, &c->at, "column", CAND_COLUMNS, c->name, err, errlen);
            goto fail;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(s->columns[j].name, c->name) == 0) {
                st = rs_fail_at(err, errlen, RS_E_VALUE, c->at.file, c->at.line,
                                "column '%s' is already listed (line %d): list each column once", c->name,
                                s->columns[j].at.line);
                goto fail;
            }
        if (!(b->cols[b->n_col] = dup_str(c->name))) {
            st = rs_fail_at(err, errlen, RS_E_NOMEM, c->at.file, c->at.line, "out of memory");
            goto fail;
        }
        b->n_col++;
    }
    *bp = b;
    return RS_OK;
fail:
    rs_binding_free(&b);
    return st;
}

void rs_binding_options(const rs_binding *b, rs_options *opt)
{
    opt->dt = b->step;
    if (b->set & RS_SCENARIO_METHOD)
        opt->method = b->method;
    if (b->set & RS_SCENARIO_TOLERANCE)
        opt->proj_tol = b->tolerance;
    if (b->set & RS_SCENARIO_ITERATIONS)
        opt->proj_maxiter = b->iterations;
    if (b->set & RS_SCENARIO_FRICTION)
        opt->contact_mu = b->friction;
    if (b->mu_each)
        opt->contact_mu_each = b->mu_each;
    if (b->E_each)
        opt->contact_E_each = b->E_each;
    if (b->nu_each)
        opt->contact_nu_each = b->nu_each;
    if (b->set & RS_SCENARIO_CREEP)
        opt->contact_law = b->creep_law;
    if (b->set & RS_SCENARIO_CLIMB_TIME)
        opt->contact_climb_time = b->climb_time;
    if (b->set & RS_SCENARIO_NORMAL)
        opt->contact_normal = b->normal_law;
    if (b->set & RS_SCENARIO_THETA)
        opt->contact_theta = b->theta;
    if (b->file[RS_SCENARIO_FILE_TRACK])
        opt->track_file = b->file[RS_SCENARIO_FILE_TRACK];
    if (b->file[RS_SCENARIO_FILE_WHEEL])
        opt->wheel_profile = b->file[RS_SCENARIO_FILE_WHEEL];
    if (b->file[RS_SCENARIO_FILE_RAIL])
        opt->rail_profile = b->file[RS_SCENARIO_FILE_RAIL];
    if (b->file[RS_SCENARIO_FILE_RAIL_LEFT])
        opt->rail_profile_left = b->file[RS_SCENARIO_FILE_RAIL_LEFT];
    if (b->file[RS_SCENARIO_FILE_RAIL_RIGHT])
        opt->rail_profile_right = b->file[RS_SCENARIO_FILE_RAIL_RIGHT];
    /* constant inputs are set once, by rs_binding_apply: a callback that
     * wrote them every step cost the FEVE 3000 its 270 input slots (the
     * default scenario names every input, spline coefficients included, and
     * an input write makes the contact fill rewrite every spline's slots) */
    if (b->n_var > 0) {
        opt->input = rs_binding_input_varying;
        opt->input_ctx = (void *)b;
    }
}

/* Input i of the binding at time t into u; -1 if its slot is outside. */
static int set_input(const rs_binding *b, int i, double t, double *u, int n_u)
{
    if (b->in_slot[i] >= n_u)
        return -1;
    u[b->in_slot[i]] = rs_scenario_interp(b->in_t[i], b->in_v[i], b->in_n[i], t);
    return 0;
}

int rs_binding_input(void *ctx, double t, double *u, int n_u)
{
    const rs_binding *b = ctx;
    for (int i = 0; i < b->n_in; i++)
        if (set_input(b, i, t, u, n_u))
            return -1;
    return 0;
}

int rs_binding_input_varying(void *ctx, double t, double *u, int n_u)
{
    const rs_binding *b = ctx;
    for (int j = 0; j < b->n_var; j++)
        if (set_input(b, b->in_var[j], t, u, n_u))
            return -1;
    return 0;
}

int rs_binding_apply(const rs_binding *b, rs_ws *ws, char *err, size_t errlen)
{
    if (!b || !ws || rs_ws_model(ws) != b->m)
        return rs_fail(err, errlen, RS_E_ARG, "rs_binding_apply: the workspace is not one of the bound model");
    int st;
    for (int i = 0; i < b->n_p; i++)
        if ((st = rs_ws_set_param_index(ws, b->p_idx[i], b->p_val[i])))
            return rs_fail_at(err, errlen, st, b->p_at[i].file ? b->p_at[i].file : "scenario", b->p_at[i].line,
                              "'param %s = %g': %s", b->m->p_names[b->p_idx[i]], b->p_val[i], rs_ws_error(ws));
    for (int i = 0; i < b->n_init; i++) {
        const rs_var v = b->init_var[i];
        double *x = v.kind == RS_VAR_Q ? rs_ws_q(ws) : v.kind == RS_VAR_QD ? rs_ws_qd(ws)
                  : v.kind == RS_VAR_S ? rs_ws_s(ws) : v.kind == RS_VAR_U ? rs_ws_u(ws) : rs_ws_sd(ws);
        x[v.index] = b->init_val[i];
    }
    if (b->n_in > 0 && rs_binding_input((void *)b, rs_ws_time(ws), rs_ws_u(ws), b->m->n_u))
        return rs_fail(err, errlen, RS_E_INPUT, "an input slot is outside the model");
    if (b->set & RS_SCENARIO_SPEED) {
        char msg[900];
        if ((st = rs_speed_apply(ws, b->speed, msg, sizeof msg)))
            return rs_fail_at(err, errlen, st, b->speed_at.file ? b->speed_at.file : "scenario", b->speed_at.line,
                              "'speed %g': %s", b->speed, msg);
    }
    return RS_OK;
}

int rs_binding_param_lines(const rs_binding *b, char *out, size_t len)
{
    if (out && len)
        out[0] = '\0';
    if (!b || !out || !len)
        return b ? b->n_p : 0;
    size_t k = 0;
    for (int i = 0; i < b->n_p && k < len; i++) {
        int w;
        if (i == 4) {
            w = snprintf(out + k, len - k, "; and %d more", b->n_p - 4);
            k += w > 0 ? (size_t)w : 0;
            break;
        }
        w = snprintf(out + k, len - k, "%s%s:%d 'param %s = %g'", i ? "; " : "",
                     b->p_at[i].file ? b->p_at[i].file : "scenario", b->p_at[i].line, b->m->p_names[b->p_idx[i]],
                     b->p_val[i]);
        k += w > 0 ? (size_t)w : 0;
    }
    return b->n_p;
}

const char *const *rs_binding_columns(const rs_binding *b, int *n)
{
    *n = b->n_col;
    return b->n_col > 0 ? (const char *const *)b->cols : NULL;
}

double rs_binding_duration(const rs_binding *b) { return b->duration; }
double rs_binding_step(const rs_binding *b) { return b->step; }
int rs_binding_contact_mode(const rs_binding *b) { return b->contact_mode; }
int rs_binding_derail_continue(const rs_binding *b) { return b->derail_continue; }
int rs_binding_equilibrium(const rs_binding *b, const int **idx, int *n)
{
    *idx = b->eq_idx;
    *n = b->n_eq;
    return b->equilibrium;
}
int rs_binding_has_speed(const rs_binding *b) { return (b->set & RS_SCENARIO_SPEED) != 0; }
double rs_binding_output(const rs_binding *b) { return b->output; }
