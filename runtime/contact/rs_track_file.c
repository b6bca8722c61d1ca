/*
 * rs_track_file.c — the .trk reader (format: docs/contact.md, "Track files").
 *
 * Line oriented: a keyword and its words; `#` starts a comment anywhere.
 * Header keywords (name, gauge, inclination, cant_base, spacing, tolerance,
 * origin) come before the first alignment element; `gradient` acts where it
 * stands (after the elements listed so far); `irregularity` anywhere.
 * Every error names file:line and what to write instead; nothing crashes on
 * any input (the test fuzzes it).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_track_impl.h"

#define MAX_TOK   32
#define TOK_MAX   256
#define LINE_MAX_ 1024
#define MAX_ELEMS 100000
#define MAX_IRR   1000

typedef struct parser {
    const char *fname, *dir;
    int line;
    char *err;
    size_t errlen;
    rs_track *t;
    rs_track_design *d;
    int have[8];                  /* header keywords seen (line numbers) */
    double len_so_far;
    double gauge_set, base_set;
} parser;

enum { H_NAME, H_GAUGE, H_INCL, H_BASE, H_SPACING, H_TOL, H_ORIGIN, H_N };
static const char *HEADER_KW[H_N] = { "name", "gauge", "inclination", "cant_base",
                                      "spacing", "tolerance", "origin" };
static const char *ALL_KW[] = { "name", "gauge", "inclination", "cant_base", "spacing",
                                "tolerance", "origin", "straight", "curve", "clothoid",
                                "gradient", "irregularity", NULL };

#define FAIL(ps, code, ...) rs_fail_at((ps)->err, (ps)->errlen, (code), (ps)->fname, (ps)->line, __VA_ARGS__)

/* ------------------------------------------------------------ helpers */

/* ": did you mean 'x'?" or "" */
static const char *suggest(const char *w, const char *const *list, char *buf, size_t n)
{
    int k = 0;
    while (list[k])
        k++;
    const char *bw = rs_closest_name(w, list, k);   /* the runtime's one rule */
    if (bw)
        snprintf(buf, n, ": did you mean '%s'?", bw);
    else
        buf[0] = '\0';
    return buf;
}

static void join_list(const char *const *list, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; list[i]; i++) {
        int k = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", list[i]);
        if (k < 0 || (size_t)k >= n - used) break;
        used += (size_t)k;
    }
}

/* A number, or a fraction a/b (for curvatures such as 1/300). */
static int parse_num(const char *tok, double *v)
{
    char *end;
    double a = strtod(tok, &end);
    if (end == tok) return 0;
    if (*end == '/') {
        const char *q = end + 1;
        double b = strtod(q, &end);
        if (end == q || *end || b == 0.0) return 0;
        a /= b;
    } else if (*end) {
        return 0;
    }
    if (!isfinite(a)) return 0;
    *v = a;
    return 1;
}

/* tok[i] must exist and be a number in [lo, hi]. */
static int need_num(parser *ps, char tok[][TOK_MAX], int nt, int i, const char *what,
                    const char *usage, double lo, double hi, double *v)
{
    if (i >= nt)
        return FAIL(ps, RS_E_SYNTAX, "missing %s: write `%s`", what, usage);
    if (!parse_num(tok[i], v))
        return FAIL(ps, RS_E_SYNTAX, "'%s' is not a number (%s): write `%s`",
                    tok[i], what, usage);
    if (!(*v >= lo && *v <= hi))
        return FAIL(ps, RS_E_VALUE, "%s %g is out of range [%g, %g]: write `%s`",
                    what, *v, lo, hi, usage);
    return RS_OK;
}

static int unknown_word(parser *ps, const char *stmt, const char *w, const char *const *opts)
{
    char sug[96], all[256];
    suggest(w, opts, sug, sizeof sug);
    join_list(opts, all, sizeof all);
    return FAIL(ps, RS_E_SYNTAX, "unknown word '%s' in `%s`%s (expected one of: %s)",
                w, stmt, sug[0] ? sug : "", all);
}

static int split(parser *ps, const char *s, size_t len, char tok[MAX_TOK][TOK_MAX], int *nt)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
        if (i >= len || s[i] == '#') break;
        size_t j = i;
        while (j < len && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '#') j++;
        if (n == MAX_TOK)
            return FAIL(ps, RS_E_SYNTAX, "more than %d words on one line: "
                        "one statement a line", MAX_TOK);
        if (j - i >= TOK_MAX)
            return FAIL(ps, RS_E_SYNTAX, "a word longer than %d characters: "
                        "check the line", TOK_MAX - 1);
        memcpy(tok[n], s + i, j - i);
        tok[n][j - i] = '\0';
        n++;
        i = j;
    }
    *nt = n;
    return RS_OK;
}

static int name_ok(const char *s)
{
    if (!*s || strlen(s) >= RS_TRACK_NAME_MAX) return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '-')) return 0;
    return 1;
}

/* ------------------------------------------------------------ statements */

static rs_track_elem *new_elem(parser *ps, int kind, double len)
{
    rs_track_design *d = ps->d;
    if (d->ne == MAX_ELEMS) {
        (void)FAIL(ps, RS_E_VALUE, "more than %d alignment elements: split the track",
             MAX_ELEMS);
        return NULL;
    }
    if (ps->len_so_far + len > RS_TRACK_MAX_LENGTH) {
        (void)FAIL(ps, RS_E_VALUE, "the track would be %.6g m long, more than the limit "
             "%.0f m: split it into several files", ps->len_so_far + len,
             RS_TRACK_MAX_LENGTH);
        return NULL;
    }
    if (d->ne == d->ecap) {
        int nc = d->ecap ? 2 * d->ecap : 16;
        rs_track_elem *e = realloc(d->e, (size_t)nc * sizeof *e);
        if (!e) {
            (void)FAIL(ps, RS_E_NOMEM, "out of memory");
            return NULL;
        }
        d->e = e;
        d->ecap = nc;
    }
    rs_track_elem *e = &d->e[d->ne++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = ps->line;
    e->len = len;
    ps->len_so_far += len;
    return e;
}

#define LEN_LO 0.001

static int length_arg(parser *ps, char tok[][TOK_MAX], int nt, const char *usage, double *L)
{
    if (nt < 2)
        return FAIL(ps, RS_E_SYNTAX, "`%s` needs its length: write `%s`", tok[0], usage);
    if (!parse_num(tok[1], L))
        return FAIL(ps, RS_E_SYNTAX, "'%s' is not a length: write `%s` (metres)",
                    tok[1], usage);
    if (!(*L > 0.0))
        return FAIL(ps, RS_E_VALUE, "length %g must be positive: write `%s` (metres)",
                    *L, usage);
    if (*L < LEN_LO)
        return FAIL(ps, RS_E_VALUE, "length %g m is shorter than %g m: merge it into "
                    "its neighbour", *L, LEN_LO);
    if (*L > RS_TRACK_MAX_LENGTH)
        return FAIL(ps, RS_E_VALUE, "length %g m is longer than the limit %.0f m",
                    *L, RS_TRACK_MAX_LENGTH);
    return RS_OK;
}

static int st_straight(parser *ps, char tok[][TOK_MAX], int nt)
{
    double L;
    int rc = length_arg(ps, tok, nt, "straight LENGTH", &L);
    if (rc) return rc;
    if (nt > 2) {
        if (!strcmp(tok[2], "cant"))
            return FAIL(ps, RS_E_SYNTAX, "a straight has no cant: give cant on "
                        "curves; clothoids ramp it");
        return FAIL(ps, RS_E_SYNTAX, "unexpected '%s' after `straight %s`: the "
                    "statement is `straight LENGTH`", tok[2], tok[1]);
    }
    return new_elem(ps, RS_TRACK_STRAIGHT, L) ? RS_OK : RS_E_VALUE;
}

static const char *const CANT_UNITS[] = { "m", "mm", "deg", "rad", NULL };

static int st_curve(parser *ps, char tok[][TOK_MAX], int nt)
{
    const char *usage = "curve LENGTH radius R [left|right] [cant C [m|mm|deg|rad]]";
    double L, R = 0.0, cant = 0.0;
    int rc = length_arg(ps, tok, nt, usage, &L);
    if (rc) return rc;
    int have_r = 0, side = 0, has_cant = 0;
    static const char *const opts[] = { "radius", "left", "right", "cant", NULL };
    for (int i = 2; i < nt; i++) {
        if (!strcmp(tok[i], "radius")) {
            if (have_r) return FAIL(ps, RS_E_SYNTAX, "`radius` given twice");
            rc = need_num(ps, tok, nt, i + 1, "radius", usage, 1.0, 1e7, &R);
            if (rc) return rc;
            have_r = 1;
            i++;
        } else if (!strcmp(tok[i], "left") || !strcmp(tok[i], "right")) {
            if (side) return FAIL(ps, RS_E_SYNTAX, "the side is given twice: "
                                  "write `left` or `right` once");
            side = !strcmp(tok[i], "left") ? 1 : -1;
        } else if (!strcmp(tok[i], "cant")) {
            if (has_cant) return FAIL(ps, RS_E_SYNTAX, "`cant` given twice");
            rc = need_num(ps, tok, nt, i + 1, "cant", usage, -1e3, 1e3, &cant);
            if (rc) return rc;
            i++;
            has_cant = 1;                       /* metres */
            if (i + 1 < nt && !parse_num(tok[i + 1], &(double){0})) {
                const char *u = tok[i + 1];
                if (!strcmp(u, "m")) { i++; }
                else if (!strcmp(u, "mm")) { cant *= 1e-3; i++; }
                else if (!strcmp(u, "deg")) { cant *= RS_TRACK_PI / 180.0; has_cant = 2; i++; }
                else if (!strcmp(u, "rad")) { has_cant = 2; i++; }
                else if (strcmp(u, "radius") && strcmp(u, "left") && strcmp(u, "right") &&
                         strcmp(u, "cant")) {
                    char sug[96];
                    suggest(u, CANT_UNITS, sug, sizeof sug);
                    return FAIL(ps, RS_E_SYNTAX, "unknown cant unit '%s'%s (m, mm, deg "
                                "or rad; a bare number is the rail height difference in m)",
                                u, sug);
                }
            }
            if (has_cant == 2 && fabs(cant) > 0.35)
                return FAIL(ps, RS_E_VALUE, "cant %.4g rad is more than 0.35 rad (20 deg):"
                            " check the unit", cant);
        } else {
            return unknown_word(ps, "curve", tok[i], opts);
        }
    }
    if (!have_r)
        return FAIL(ps, RS_E_SYNTAX, "`curve` needs its radius: write `%s`", usage);
    rs_track_elem *e = new_elem(ps, RS_TRACK_CURVE, L);
    if (!e) return RS_E_VALUE;
    e->k0 = e->k1 = (side >= 0 ? 1.0 : -1.0) / R;
    e->has_cant = has_cant;
    e->cant_outer = cant;
    return RS_OK;
}

static int st_clothoid(parser *ps, char tok[][TOK_MAX], int nt)
{
    const char *usage = "clothoid LENGTH [from CURV0] [to CURV1]  (1/m, + = left; e.g. 1/300)";
    double L;
    int rc = length_arg(ps, tok, nt, usage, &L);
    if (rc) return rc;
    double k[2] = { 0.0, 0.0 };
    int given[2] = { 0, 0 };
    static const char *const opts[] = { "from", "to", NULL };
    for (int i = 2; i < nt; i++) {
        int w = !strcmp(tok[i], "from") ? 0 : !strcmp(tok[i], "to") ? 1 : -1;
        if (w < 0) {
            if (!strcmp(tok[i], "cant"))
                return FAIL(ps, RS_E_SYNTAX, "a clothoid ramps the cant from its "
                            "neighbours: give `cant` on the curves");
            return unknown_word(ps, "clothoid", tok[i], opts);
        }
        if (given[w]) return FAIL(ps, RS_E_SYNTAX, "`%s` given twice", tok[i]);
        rc = need_num(ps, tok, nt, i + 1, w ? "end curvature" : "start curvature", usage,
                      -1.0, 1.0, &k[w]);
        if (rc) return rc;
        given[w] = 1;
        i++;
    }
    rs_track_elem *e = new_elem(ps, RS_TRACK_CLOTHOID, L);
    if (!e) return RS_E_VALUE;
    e->k0 = k[0];
    e->k1 = k[1];
    e->k0_given = given[0];
    e->k1_given = given[1];
    return RS_OK;
}

static int st_gradient(parser *ps, char tok[][TOK_MAX], int nt)
{
    const char *usage = "gradient G [permille|percent] [ramp LENGTH]";
    double g, ramp = 0.0;
    int rc = need_num(ps, tok, nt, 1, "gradient", usage, -200.0, 200.0, &g);
    if (rc) return rc;
    int i = 2, unit = 0;
    static const char *const opts[] = { "permille", "percent", "ramp", NULL };
    for (; i < nt; i++) {
        if (!strcmp(tok[i], "permille") || !strcmp(tok[i], "percent")) {
            if (unit || i != 2) return FAIL(ps, RS_E_SYNTAX, "the unit goes right after "
                                            "the number: write `%s`", usage);
            g *= !strcmp(tok[i], "permille") ? 1e-3 : 1e-2;
            unit = 1;
        } else if (!strcmp(tok[i], "ramp")) {
            rc = need_num(ps, tok, nt, i + 1, "ramp length", usage, LEN_LO,
                          RS_TRACK_MAX_LENGTH, &ramp);
            if (rc) return rc;
            i++;
        } else {
            return unknown_word(ps, "gradient", tok[i], opts);
        }
    }
    if (fabs(g) > 0.2)
        return FAIL(ps, RS_E_VALUE, "gradient %g is steeper than 0.2 (200 permille): "
                    "a plain number is dz/ds; write `%s`", g, usage);
    rs_track_design *d = ps->d;
    if (d->ng == d->gcap) {
        int nc = d->gcap ? 2 * d->gcap : 8;
        rs_track_grade *q = realloc(d->g, (size_t)nc * sizeof *q);
        if (!q) return FAIL(ps, RS_E_NOMEM, "out of memory");
        d->g = q;
        d->gcap = nc;
    }
    if (d->ng > MAX_ELEMS) return FAIL(ps, RS_E_VALUE, "too many gradient statements");
    rs_track_grade *q = &d->g[d->ng++];
    q->line = ps->line;
    q->s_at = ps->len_so_far;            /* offset; origin s added at the end */
    q->g = g;
    q->ramp = ramp;
    return RS_OK;
}

static const char *const IRR_KINDS[] = { "lateral", "vertical", "cant", "vertical_left",
                                         "vertical_right", "gauge", NULL };

static int st_irregularity(parser *ps, char tok[][TOK_MAX], int nt)
{
    const char *usage_s = "irregularity KIND sine amplitude A wavelength L [phase P [deg|rad]] "
                          "[from S0] [to S1] [taper T]";
    const char *usage_t = "irregularity KIND table FILE [linear|spline] [scale K] [from S0] "
                          "[to S1] [taper T]";
    if (nt < 2)
        return FAIL(ps, RS_E_SYNTAX, "missing the kind: write `%s` (KIND: lateral, "
                    "vertical, cant, vertical_left, vertical_right, gauge)", usage_s);
    int kind = -1;
    for (int k = 0; IRR_KINDS[k]; k++)
        if (!strcmp(tok[1], IRR_KINDS[k])) kind = k;
    if (kind < 0) return unknown_word(ps, "irregularity", tok[1], IRR_KINDS);
    static const char *const shapes[] = { "sine", "table", NULL };
    if (nt < 3)
        return FAIL(ps, RS_E_SYNTAX, "missing the shape: write `%s` or `%s`",
                    usage_s, usage_t);
    int sine = !strcmp(tok[2], "sine");
    if (!sine && strcmp(tok[2], "table")) return unknown_word(ps, "irregularity", tok[2], shapes);
    rs_track_design *d = ps->d;
    if (d->ni == MAX_IRR)
        return FAIL(ps, RS_E_VALUE, "more than %d irregularities", MAX_IRR);
    if (d->ni == d->icap) {
        int nc = d->icap ? 2 * d->icap : 4;
        rs_track_irreg *q = realloc(d->irr, (size_t)nc * sizeof *q);
        if (!q) return FAIL(ps, RS_E_NOMEM, "out of memory");
        d->irr = q;
        d->icap = nc;
    }
    rs_track_irreg ir;
    memset(&ir, 0, sizeof ir);
    ir.kind = kind;
    ir.line = ps->line;
    ir.scale = 1.0;
    ir.shape = sine ? RS_TRACK_IRREG_SINE : RS_TRACK_IRREG_SPLINE;
    const char *usage = sine ? usage_s : usage_t;
    int i = 3, rc, have_a = 0, have_l = 0, have_p = 0, have_shape = 0, have_sc = 0,
        have_t = 0;
    const char *file = NULL;
    if (!sine) {
        if (nt < 4)
            return FAIL(ps, RS_E_SYNTAX, "missing the table file: write `%s`", usage_t);
        file = tok[3];
        i = 4;
    }
    static const char *const sine_opts[] = { "amplitude", "wavelength", "phase", "from", "to",
                                             "taper", NULL };
    static const char *const table_opts[] = { "linear", "spline", "scale", "from", "to",
                                              "taper", NULL };
    for (; i < nt; i++) {
        const char *w = tok[i];
        if (!strcmp(w, "from") || !strcmp(w, "to")) {
            int isf = !strcmp(w, "from");
            if (isf ? ir.has_from : ir.has_to)
                return FAIL(ps, RS_E_SYNTAX, "`%s` given twice", w);
            rc = need_num(ps, tok, nt, i + 1, isf ? "window start" : "window end", usage,
                          -1e9, 1e9, isf ? &ir.from : &ir.to);
            if (rc) return rc;
            if (isf) ir.has_from = 1; else ir.has_to = 1;
            i++;
        } else if (!strcmp(w, "taper")) {
            if (have_t++) return FAIL(ps, RS_E_SYNTAX, "`taper` given twice");
            rc = need_num(ps, tok, nt, i + 1, "taper length", usage, 0.0, RS_TRACK_MAX_LENGTH,
                          &ir.taper);
            if (rc) return rc;
            i++;
        } else if (sine && !strcmp(w, "amplitude")) {
            if (have_a++) return FAIL(ps, RS_E_SYNTAX, "`amplitude` given twice");
            rc = need_num(ps, tok, nt, i + 1, "amplitude", usage, -1.0, 1.0, &ir.amp);
            if (rc) return rc;
            i++;
        } else if (sine && !strcmp(w, "wavelength")) {
            if (have_l++) return FAIL(ps, RS_E_SYNTAX, "`wavelength` given twice");
            rc = need_num(ps, tok, nt, i + 1, "wavelength", usage, 0.1, 1e5, &ir.wavelength);
            if (rc) return rc;
            i++;
        } else if (sine && !strcmp(w, "phase")) {
            if (have_p++) return FAIL(ps, RS_E_SYNTAX, "`phase` given twice");
            rc = need_num(ps, tok, nt, i + 1, "phase", usage, -1e4, 1e4, &ir.phase);
            if (rc) return rc;
            i++;
            if (i + 1 < nt && !strcmp(tok[i + 1], "deg")) {
                ir.phase *= RS_TRACK_PI / 180.0;
                i++;
            } else if (i + 1 < nt && !strcmp(tok[i + 1], "rad")) {
                i++;
            }
        } else if (!sine && (!strcmp(w, "linear") || !strcmp(w, "spline"))) {
            if (have_shape++) return FAIL(ps, RS_E_SYNTAX, "give `linear` or `spline` "
                                          "once");
            ir.shape = !strcmp(w, "linear") ? RS_TRACK_IRREG_LINEAR : RS_TRACK_IRREG_SPLINE;
        } else if (!sine && !strcmp(w, "scale")) {
            if (have_sc++) return FAIL(ps, RS_E_SYNTAX, "`scale` given twice");
            rc = need_num(ps, tok, nt, i + 1, "scale", usage, -1e6, 1e6, &ir.scale);
            if (rc) return rc;
            i++;
        } else {
            return unknown_word(ps, "irregularity", w, sine ? sine_opts : table_opts);
        }
    }
    if (sine && (!have_a || !have_l))
        return FAIL(ps, RS_E_SYNTAX, "a sine needs `amplitude A` and `wavelength L`: "
                    "write `%s`", usage_s);
    if (ir.has_from && ir.has_to && !(ir.to > ir.from))
        return FAIL(ps, RS_E_VALUE, "`to %g` must be greater than `from %g`", ir.to,
                    ir.from);
    if (file) {
        int n;
        if (file[0] == '/' || !ps->dir || !ps->dir[0])
            n = snprintf(ir.file, sizeof ir.file, "%s", file);
        else
            n = snprintf(ir.file, sizeof ir.file, "%s/%s", ps->dir, file);
        if (n < 0 || (size_t)n >= sizeof ir.file)
            return FAIL(ps, RS_E_SYNTAX, "the table's path is too long: move the table "
                        "next to the .trk file");
        char e2[512];
        rc = rs_track_irreg_table_read(&ir, ir.file, e2, sizeof e2);
        if (rc) {
            return FAIL(ps, rc, "in table '%s': %s", file, e2);
        }
    }
    d->irr[d->ni++] = ir;
    return RS_OK;
}

static int st_origin(parser *ps, char tok[][TOK_MAX], int nt)
{
    const char *usage = "origin [x X] [y Y] [z Z] [heading H [deg|rad]] [s S]";
    static const char *const opts[] = { "x", "y", "z", "heading", "s", NULL };
    double *dst[5] = { &ps->d->ox, &ps->d->oy, &ps->d->oz, &ps->d->opsi, &ps->d->os };
    int seen[5] = { 0 };
    if (nt < 2)
        return FAIL(ps, RS_E_SYNTAX, "`origin` needs at least one value: write `%s`",
                    usage);
    for (int i = 1; i < nt; i++) {
        int k = -1;
        for (int j = 0; opts[j]; j++)
            if (!strcmp(tok[i], opts[j])) k = j;
        if (k < 0) return unknown_word(ps, "origin", tok[i], opts);
        if (seen[k]++) return FAIL(ps, RS_E_SYNTAX, "`%s` given twice", tok[i]);
        int rc = need_num(ps, tok, nt, i + 1, opts[k], usage, -1e7, 1e7, dst[k]);
        if (rc) return rc;
        i++;
        if (k == 3) {
            if (i + 1 < nt && !strcmp(tok[i + 1], "rad")) i++;
            else {
                if (i + 1 < nt && !strcmp(tok[i + 1], "deg")) i++;
                *dst[k] *= RS_TRACK_PI / 180.0;
            }
        }
    }
    return RS_OK;
}

static int st_header(parser *ps, int k, char tok[][TOK_MAX], int nt)
{
    rs_track *t = ps->t;
    if (ps->d->ne > 0)
        return FAIL(ps, RS_E_SYNTAX, "`%s` comes after the first alignment element: "
                    "move it to the top of the file", HEADER_KW[k]);
    if (ps->have[k])
        return FAIL(ps, RS_E_SYNTAX, "`%s` given twice (first on line %d): keep one",
                    HEADER_KW[k], ps->have[k]);
    ps->have[k] = ps->line;
    int rc = RS_OK;
    double v;
    if (k != H_ORIGIN && k != H_INCL && nt > 2)
        return FAIL(ps, RS_E_SYNTAX, "unexpected '%s' after `%s %s`", tok[2], tok[0],
                    tok[1]);
    switch (k) {
    case H_NAME:
        if (nt < 2 || !name_ok(tok[1]))
            return FAIL(ps, RS_E_SYNTAX, "`name` needs one word of [A-Za-z0-9_.-], at "
                        "most %d characters", RS_TRACK_NAME_MAX - 1);
        snprintf(t->name, sizeof t->name, "%s", tok[1]);
        break;
    case H_GAUGE:
        rc = need_num(ps, tok, nt, 1, "gauge", "gauge METRES  (1.435 standard, 1.000 metre "
                      "gauge)", 0.3, 3.0, &v);
        if (!rc) {
            t->gauge = v;
            t->gauge_line = ps->line;
            snprintf(t->file, sizeof t->file, "%s", ps->fname);
        }
        break;
    case H_BASE:
        rc = need_num(ps, tok, nt, 1, "cant base", "cant_base METRES  (distance of the rail "
                      "centres: 1.500 for standard gauge)", 0.3, 3.5, &v);
        if (!rc) ps->d->cant_base = v;
        break;
    case H_SPACING:
        rc = need_num(ps, tok, nt, 1, "knot spacing", "spacing METRES", 0.01, 10.0, &v);
        if (!rc) t->spacing = v;
        break;
    case H_TOL:
        rc = need_num(ps, tok, nt, 1, "tolerance", "tolerance METRES", 1e-10, 1e-3, &v);
        if (!rc) t->tolerance = v;
        break;
    case H_INCL: {
        const char *usage = "inclination 1:K  (1:20, 1:40, or `none`)";
        if (nt != 2)
            return FAIL(ps, RS_E_SYNTAX, "write `%s`", usage);
        if (!strcmp(tok[1], "none")) { t->inclination = 0.0; break; }
        const char *p = tok[1];
        if (!strncmp(p, "1:", 2)) p += 2;
        if (!parse_num(p, &v))
            return FAIL(ps, RS_E_SYNTAX, "'%s' is not an inclination: write `%s`",
                        tok[1], usage);
        if (!(v >= 5.0 && v <= 1000.0))
            return FAIL(ps, RS_E_VALUE, "inclination 1:%g is out of range (1:5 .. "
                        "1:1000): write `%s`", v, usage);
        t->inclination = v;
        break;
    }
    case H_ORIGIN:
        rc = st_origin(ps, tok, nt);
        break;
    default:
        break;
    }
    return rc;
}

/* ------------------------------------------------------------ driver */

int rs_track_design_parse(rs_track *t, rs_track_design *d, const char *text, size_t len,
                 const char *fname, const char *dir, char *err, size_t errlen)
{
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.fname = fname ? fname : "<track>";
    ps.dir = dir;
    ps.err = err;
    ps.errlen = errlen;
    ps.t = t;
    ps.d = d;
    if (len > (size_t)RS_TRACK_FILE_MAX) {
        ps.line = 0;
        return FAIL(&ps, RS_E_SYNTAX, "the file is larger than %ld bytes: is it a "
                    "track file?", (long)RS_TRACK_FILE_MAX);
    }
    int bad = rs_text_check(text, len, ps.fname, err, errlen);
    if (!bad) bad = rs_kind_check(text, len, ps.fname, RS_KIND_TRACK, err, errlen);
    if (bad) return bad;
    char (*tk)[TOK_MAX] = malloc(sizeof(char[MAX_TOK][TOK_MAX]));
    if (!tk) return FAIL(&ps, RS_E_NOMEM, "out of memory");
    int header_seen = 0, rc = RS_OK, header_line = 0;
    size_t pos = 0;
    while (pos < len && rc == RS_OK) {
        size_t e = pos;
        while (e < len && text[e] != '\n') e++;
        ps.line++;
        if (e - pos > LINE_MAX_) {
            rc = FAIL(&ps, RS_E_SYNTAX, "line longer than %d characters: one statement "
                      "a line", LINE_MAX_);
            break;
        }
        int nt = 0;
        rc = split(&ps, text + pos, e - pos, tk, &nt);
        pos = e + 1;
        if (rc || nt == 0) continue;
        if (!header_seen) {
            if (strcmp(tk[0], "railsym-track")) {
                rc = FAIL(&ps, RS_E_SYNTAX, "expected the header `railsym-track 1` as the "
                          "first line, found '%s': is this a track file? add the header", tk[0]);
                break;
            }
            if (nt != 2 || strcmp(tk[1], "1")) {
                rc = FAIL(&ps, RS_E_SYNTAX, "unsupported header `%s %s`: this railsym "
                          "reads `railsym-track 1`", tk[0], nt > 1 ? tk[1] : "");
                break;
            }
            header_seen = 1;
            header_line = ps.line;
            continue;
        }
        const char *kw = tk[0];
        int hk = -1;
        for (int k = 0; k < H_N; k++)
            if (!strcmp(kw, HEADER_KW[k])) hk = k;
        if (hk >= 0) rc = st_header(&ps, hk, tk, nt);
        else if (!strcmp(kw, "straight")) rc = st_straight(&ps, tk, nt);
        else if (!strcmp(kw, "curve")) rc = st_curve(&ps, tk, nt);
        else if (!strcmp(kw, "clothoid")) rc = st_clothoid(&ps, tk, nt);
        else if (!strcmp(kw, "gradient")) rc = st_gradient(&ps, tk, nt);
        else if (!strcmp(kw, "irregularity")) rc = st_irregularity(&ps, tk, nt);
        else if (!strcmp(kw, "railsym-track"))
            rc = FAIL(&ps, RS_E_SYNTAX, "the header is given twice (first on line %d)",
                      header_line);
        else {
            char sug[96], all[256];
            suggest(kw, ALL_KW, sug, sizeof sug);
            join_list(ALL_KW, all, sizeof all);
            rc = FAIL(&ps, RS_E_SYNTAX, "unknown keyword '%s'%s (keywords: %s)", kw,
                      sug[0] ? sug : "", all);
        }
    }
    free(tk);
    if (rc) return rc;
    if (!header_seen) {
        ps.line = 0;
        return FAIL(&ps, RS_E_SYNTAX, "empty file: a track starts with `railsym-track 1`");
    }
    ps.line = header_line;
    if (!ps.have[H_GAUGE])
        return FAIL(&ps, RS_E_SYNTAX, "missing `gauge`: add e.g. `gauge 1.435` "
                    "(standard) or `gauge 1.000` (metre gauge) before the first element");
    if (d->ne == 0) {
        ps.line = ps.line ? ps.line : 1;
        return FAIL(&ps, RS_E_SYNTAX, "no alignment elements: add `straight LENGTH`, "
                    "`clothoid ...` or `curve ...` lines");
    }
    /* Defaults and conversions that need the whole header. */
    if (!ps.have[H_BASE]) d->cant_base = t->gauge + 0.065;
    for (int i = 0; i < d->ne; i++) {
        rs_track_elem *e = &d->e[i];
        if (e->has_cant == 1) {
            if (fabs(e->cant_outer) > 0.34 * d->cant_base) {
                ps.line = e->line;
                return FAIL(&ps, RS_E_VALUE, "cant %.4g m is more than a third of the cant "
                            "base %.4g m: check the unit (a bare number is metres; write `mm`, "
                            "`deg` or `rad` otherwise)", e->cant_outer, d->cant_base);
            }
            e->cant_outer = asin(e->cant_outer / d->cant_base);
        }
    }
    for (int i = 0; i < d->ng; i++) d->g[i].s_at += d->os;
    return RS_OK;
}
