/*
 * rs_profile.c — reader and checker of profile files (rs_profile.h).
 *
 * The whole file is read into memory, then parsed line by line with explicit
 * lengths (no line-length limit, NUL bytes detected).  Every rejection names
 * the file, the line and the fix.
 */
#include "rs_profile.h"
#include "rs_error.h"
#include "rs_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 4
#define TOKEN_MAX 128

typedef struct parser {
    const char *fname;
    int line;
    char *err;
    size_t errlen;
} parser;

/* The message at the parser's file and line. */
static int fail(const parser *ps, int code, const char *fmt, ...) RS_PRINTF(3, 4);
static int fail(const parser *ps, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_fail_atv(ps->err, ps->errlen, code, ps->fname, ps->line, fmt, ap);
    va_end(ap);
    return code;
}

void rs_profile_free(rs_profile *p)
{
    if (!p)
        return;
    free(p->y);
    free(p->z);
    rs_spline_free(&p->spline);
    memset(p, 0, sizeof *p);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split [s, s+len) (comment already cut) into at most MAX_TOKENS tokens of at
 * most TOKEN_MAX-1 characters.  Returns the token count, MAX_TOKENS + 1 when
 * there are more, or -1 when a token is too long. */
static int split(const char *s, size_t len, char tok[MAX_TOKENS][TOKEN_MAX])
{
    int nt = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(s[i]))
            i++;
        if (i >= len)
            break;
        size_t st = i;
        while (i < len && !is_space(s[i]))
            i++;
        if (nt == MAX_TOKENS)
            return MAX_TOKENS + 1;
        if (i - st >= TOKEN_MAX)
            return -1;
        memcpy(tok[nt], s + st, i - st);
        tok[nt][i - st] = '\0';
        nt++;
    }
    return nt;
}

/* 1 when tok is a complete number (finite or not), with the value in *v. */
static int parse_number(const char *tok, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(tok, &end);
    return end != tok && *end == '\0';
}

/* A table line starts with something numeric: a digit, sign or point, or a
 * whole word strtod takes (nan, inf), so that those get the finite-value
 * message rather than "unknown keyword". */
static int starts_number(const char *tok)
{
    char c = tok[0];
    double v;
    if (c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'))
        return 1;
    return parse_number(tok, &v);
}

static int name_ok(const char *s)
{
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
              || c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

static int number_arg(const parser *ps, const char *kw, const char *tok, double *v)
{
    if (!parse_number(tok, v))
        return fail(ps, RS_E_SYNTAX,
                    "'%s' of '%s' is not a number; write a decimal number in metres", tok, kw);
    if (!isfinite(*v))
        return fail(ps, RS_E_TABLE,
                    "'%s' of '%s' is not finite; give a finite value in metres", tok, kw);
    return 0;
}

/* What the reader has seen so far: the line of each keyword (0: not yet). */
typedef struct seen {
    int header, in_table;
    int name, kind, units, gauge, top;
    size_t cap;                 /* of p->y and p->z */
} seen;

/* The first non-comment line: 'railsym-profile 1'. */
static int header_line(const parser *ps, char tok[MAX_TOKENS][TOKEN_MAX], int nt)
{
    if (strcmp(tok[0], "railsym-profile") != 0)
        return fail(ps, RS_E_SYNTAX,
                    "expected the header 'railsym-profile 1' on the first "
                    "non-comment line; add it at the top of the file");
    if (nt != 2 || strcmp(tok[1], "1") != 0)
        return fail(ps, RS_E_SYNTAX,
                    "unsupported header '%s%s%s': this railsym reads "
                    "'railsym-profile 1'", tok[0], nt > 1 ? " " : "", nt > 1 ? tok[1] : "");
    return RS_OK;
}

/* Appends (y, z) to the table, doubling its arrays when full. */
static int append_point(const parser *ps, rs_profile *p, seen *sn, double y, double z)
{
    if ((size_t)p->n == sn->cap) {
        size_t nc = sn->cap ? 2 * sn->cap : 256;
        double *ny = realloc(p->y, nc * sizeof(double));
        if (!ny)
            return fail(ps, RS_E_NOMEM, "out of memory at point %d", p->n + 1);
        p->y = ny;
        double *nz = realloc(p->z, nc * sizeof(double));
        if (!nz)
            return fail(ps, RS_E_NOMEM, "out of memory at point %d", p->n + 1);
        p->z = nz;
        sn->cap = nc;
    }
    p->y[p->n] = y;
    p->z[p->n] = z;
    p->n++;
    return RS_OK;
}

/* A table line 'y z'; the first one checks that the keywords the table
 * needs came before it. */
static int table_line(const parser *ps, rs_profile *p, seen *sn, char tok[MAX_TOKENS][TOKEN_MAX], int nt)
{
    if (!sn->in_table) {
        if (!sn->name)
            return fail(ps, RS_E_SYNTAX,
                        "'name' missing before the table; add e.g. 'name S1002'");
        if (!sn->kind)
            return fail(ps, RS_E_SYNTAX, "'kind' missing before the table; "
                        "add 'kind wheel' or 'kind rail'");
        if (!sn->units)
            return fail(ps, RS_E_SYNTAX,
                        "'units' missing before the table; add 'units m'");
        sn->in_table = 1;
    }
    if (nt != 2)
        return fail(ps, RS_E_SYNTAX,
                    "expected two numbers 'y z' on a table line, found %s%d fields",
                    nt > MAX_TOKENS ? "more than " : "", nt > MAX_TOKENS ? MAX_TOKENS : nt);
    double v[2];
    for (int k = 0; k < 2; k++) {
        if (!parse_number(tok[k], &v[k]))
            return fail(ps, RS_E_SYNTAX, "'%s' is not a number; write "
                        "decimal numbers in metres, e.g. -0.0125", tok[k]);
        if (!isfinite(v[k]))
            return fail(ps, RS_E_TABLE, "%s = '%s' is not finite (NaN or Inf); "
                        "replace it with a measured value or delete the line",
                        k == 0 ? "y" : "z", tok[k]);
    }
    /* A table written from the field side to the flange (a measuring
     * device's own order) fails on its second point: say how to turn it. */
    if (p->n == 1 && v[0] < p->y[0])
        return fail(ps, RS_E_TABLE,
                    "y = %.17g is less than y = %.17g on the previous point: the table runs with decreasing y; "
                    "list the points in increasing y (reverse their order), and if y is positive towards the "
                    "track centre also mirror it (y -> -y): y must grow towards the field side",
                    v[0], p->y[0]);
    if (p->n > 0 && !(v[0] > p->y[p->n - 1]))
        return fail(ps, RS_E_TABLE,
                    "y = %.17g is not greater than y = %.17g on the previous point; "
                    "sort the points by strictly increasing y and remove duplicates",
                    v[0], p->y[p->n - 1]);
    return append_point(ps, p, sn, v[0], v[1]);
}

/* 'gauge_point y z' or 'top_point y z' (rails only; checked at the end). */
static int point_keyword(const parser *ps, rs_profile *p, seen *sn, char tok[MAX_TOKENS][TOKEN_MAX], int nt)
{
    const char *kw = tok[0];
    int gauge = kw[0] == 'g';
    int *line = gauge ? &sn->gauge : &sn->top;
    if (*line)
        return fail(ps, RS_E_SYNTAX, "'%s' given twice (first on line %d); "
                    "keep one", kw, *line);
    if (nt != 3)
        return fail(ps, RS_E_SYNTAX, "'%s' takes two numbers 'y z' in metres",
                    kw);
    double gy, gz;
    int rc;
    if ((rc = number_arg(ps, kw, tok[1], &gy)) || (rc = number_arg(ps, kw, tok[2], &gz)))
        return rc;
    if (gauge) {
        p->has_gauge = 1;
        p->gauge_y = gy;
        p->gauge_z = gz;
    } else {
        p->has_top = 1;
        p->top_y = gy;
        p->top_z = gz;
    }
    *line = ps->line;
    return RS_OK;
}

/* A keyword line above the table: name, kind, units, gauge_point,
 * top_point. */
static int keyword_line(const parser *ps, rs_profile *p, seen *sn, char tok[MAX_TOKENS][TOKEN_MAX], int nt)
{
    if (sn->in_table)
        return fail(ps, RS_E_SYNTAX, "'%s' after the table; keywords go above "
                    "the first point (or is this a mistyped number?)", tok[0]);
    const char *kw = tok[0];
    if (strcmp(kw, "railsym-profile") == 0)
        return fail(ps, RS_E_SYNTAX, "second 'railsym-profile' header; remove it");
    if (strcmp(kw, "name") == 0) {
        if (sn->name)
            return fail(ps, RS_E_SYNTAX, "'name' given twice (first on line %d); "
                        "keep one", sn->name);
        if (nt != 2 || strlen(tok[1]) >= RS_PROFILE_NAME_MAX || !name_ok(tok[1]))
            return fail(ps, RS_E_SYNTAX, "'name' takes one word of at most %d "
                        "characters from [A-Za-z0-9_.-], e.g. 'name S1002'",
                        RS_PROFILE_NAME_MAX - 1);
        strcpy(p->name, tok[1]);
        sn->name = ps->line;
        return RS_OK;
    }
    if (strcmp(kw, "kind") == 0) {
        if (sn->kind)
            return fail(ps, RS_E_SYNTAX, "'kind' given twice (first on line %d); "
                        "keep one", sn->kind);
        if (nt == 2 && strcmp(tok[1], "wheel") == 0)
            p->kind = RS_PROFILE_WHEEL;
        else if (nt == 2 && strcmp(tok[1], "rail") == 0)
            p->kind = RS_PROFILE_RAIL;
        else
            return fail(ps, RS_E_SYNTAX,
                        "'kind' must be 'kind wheel' or 'kind rail'");
        sn->kind = ps->line;
        return RS_OK;
    }
    if (strcmp(kw, "units") == 0) {
        if (sn->units)
            return fail(ps, RS_E_SYNTAX, "'units' given twice (first on line %d); "
                        "keep one", sn->units);
        if (nt != 2 || strcmp(tok[1], "m") != 0)
            return fail(ps, RS_E_SYNTAX,
                        "units '%s' not supported: convert the table to metres and "
                        "write 'units m'", nt >= 2 ? tok[1] : "");
        sn->units = ps->line;
        return RS_OK;
    }
    if (strcmp(kw, "gauge_point") == 0 || strcmp(kw, "top_point") == 0)
        return point_keyword(ps, p, sn, tok, nt);
    return fail(ps, RS_E_SYNTAX, "unknown keyword '%s'; expected name, kind, "
                "units, gauge_point, top_point or a table line 'y z'", kw);
}

/* A wheel table given the other way round (y positive towards the track
 * centre) has its flange at its large-y end.  The flange, the wheel's
 * highest part, is 25-30 mm above the tread; a worn tread's false flange
 * stays within ~3 mm of it and a tread's taper over a table gives a few mm,
 * so a highest point in the field-side half that stands MIRROR_RISE above
 * everything in the flange-side half is a flange on the wrong side (the
 * runtime would otherwise put it against the rail's field side and report
 * a lift-off or a flange of 89 degrees).  Returns 1 with that point's index
 * and its rise. */
#define MIRROR_RISE 0.005
static int wheel_mirrored(const rs_profile *w, int *top, double *rise)
{
    const double mid = 0.5 * (w->y[0] + w->y[w->n - 1]);
    double zf = -INFINITY;   /* highest in the flange-side half */
    int im = 0;
    for (int i = 0; i < w->n; i++) {
        if (w->y[i] <= mid && w->z[i] > zf) zf = w->z[i];
        if (w->z[i] > w->z[im]) im = i;
    }
    *top = im;
    *rise = w->z[im] - zf;
    return w->y[im] > mid && *rise > MIRROR_RISE;
}

/* The checks on the whole file, then the spline through the points.
 * last_line: the last non-comment line (0: none), where whole-file errors
 * point. */
static int finish(parser *ps, rs_profile *p, const seen *sn, int last_line)
{
    ps->line = last_line > 0 ? last_line : ps->line;
    if (!sn->header) {
        ps->line = ps->line > 0 ? ps->line : 1;
        return fail(ps, RS_E_SYNTAX, "empty profile: no 'railsym-profile 1' header "
                    "and no points");
    }
    if (p->kind == RS_PROFILE_WHEEL && (sn->gauge || sn->top)) {
        ps->line = sn->gauge ? sn->gauge : sn->top;
        return fail(ps, RS_E_SYNTAX, "'%s' is for rails; remove it or write 'kind rail'",
                    sn->gauge ? "gauge_point" : "top_point");
    }
    if (p->n < RS_SPLINE_MIN_POINTS)
        return fail(ps, RS_E_TABLE, "only %d point%s; a profile needs at least %d "
                    "(the not-a-knot spline): add points", p->n, p->n == 1 ? "" : "s",
                    RS_SPLINE_MIN_POINTS);
    int top;
    double rise;
    if (p->kind == RS_PROFILE_WHEEL && wheel_mirrored(p, &top, &rise))
        return fail(ps, RS_E_TABLE,
                    "wheel %s has its flange at the field-side end: its highest point (z = %.1f mm at y = %.1f "
                    "mm) is in the large-y half of the table, %.1f mm above anything in the other half; the "
                    "table's y runs towards the track centre: mirror it (y -> -y, then sort by increasing y) so "
                    "that y is positive towards the field side", p->name, p->z[top] * 1e3, p->y[top] * 1e3,
                    rise * 1e3);
    char serr[160];
    int src = rs_spline_fit(&p->spline, p->y, p->z, p->n, serr, sizeof serr);
    if (src != RS_OK)
        return fail(ps, src == RS_E_NOMEM ? RS_E_NOMEM : RS_E_TABLE,
                    "%s", serr);
    return RS_OK;
}

int rs_profile_parse(rs_profile *p, const char *text, size_t len,
                     const char *fname, char *err, size_t errlen)
{
    parser ps = { fname ? fname : "<profile>", 0, err, errlen };
    if (err && errlen)
        err[0] = '\0';
    if (!p)
        return fail(&ps, RS_E_ARG, "NULL profile");
    memset(p, 0, sizeof *p);
    if (!text)
        return fail(&ps, RS_E_ARG, "NULL text");
    int bad = rs_text_check(text, len, ps.fname, err, errlen);
    if (!bad)
        bad = rs_kind_check(text, len, ps.fname, RS_KIND_PROFILE, err, errlen);
    if (bad)
        return bad;

    seen sn = { 0 };
    int last_line = 0;
    char tok[MAX_TOKENS][TOKEN_MAX];
    int rc = RS_OK;

    size_t pos = 0;
    while (pos < len && rc == RS_OK) {
        size_t eol = pos;
        while (eol < len && text[eol] != '\n')
            eol++;
        ps.line++;
        size_t l = eol - pos;
        const char *hash = memchr(text + pos, '#', l);
        if (hash)
            l = (size_t)(hash - (text + pos));
        int nt = split(text + pos, l, tok);
        pos = eol + 1;
        if (nt == 0)
            continue;
        if (nt < 0) {
            rc = fail(&ps, RS_E_SYNTAX, "a word longer than %d characters; "
                      "split it or shorten it", TOKEN_MAX - 1);
            break;
        }
        last_line = ps.line;
        if (!sn.header) {
            rc = header_line(&ps, tok, nt);
            sn.header = 1;
        } else if (starts_number(tok[0])) {
            rc = table_line(&ps, p, &sn, tok, nt);
        } else {
            rc = keyword_line(&ps, p, &sn, tok, nt);
        }
    }
    if (rc == RS_OK)
        rc = finish(&ps, p, &sn, last_line);
    if (rc != RS_OK)
        rs_profile_free(p);
    return rc;
}

int rs_profile_load(rs_profile *p, const char *path, char *err, size_t errlen)
{
    parser ps = { path ? path : "<profile>", 0, err, errlen };
    if (!p || !path) {
        if (p)
            memset(p, 0, sizeof *p);
        return fail(&ps, RS_E_ARG, "NULL argument");
    }
    memset(p, 0, sizeof *p);
    char *buf;
    size_t len;
    const int why = rs_read_file(path, (size_t)RS_PROFILE_FILE_MAX, 0, &buf, &len);
    switch (why) {
    case 0:
        break;
    case EFBIG:
        return fail(&ps, RS_E_IO, "file larger than %ld bytes; a profile needs far fewer points",
                    RS_PROFILE_FILE_MAX);
    case ENOMEM:
        return fail(&ps, RS_E_NOMEM, "out of memory reading the file");
    case EIO:
        return fail(&ps, RS_E_IO, "read error; check the file");
    default:
        return fail(&ps, RS_E_IO, "cannot open: %s; check the path", rs_file_why(why));
    }
    const int rc = rs_profile_parse(p, buf, len, path, err, errlen);
    free(buf);
    return rc;
}

double rs_profile_eval(const rs_profile *p, double y, int *hint,
                       double *dz, double *d2z)
{
    return rs_spline_eval(&p->spline, y, hint, dz, d2z);
}
