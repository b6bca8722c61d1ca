/*
 * rs_track_irreg.c — irregularities: analytic sines and measured tables,
 * each active on a window [a, b] with an optional taper, and the sum of all
 * of them on top of the design geometry (rs_track_exact_geometry).
 *
 * A sine is A sin(2π s/λ + φ) in the track's own s (so phases of several
 * irregularities compare directly).  A table is a two-column file "s, value"
 * interpolated linearly or by a not-a-knot spline; it is 0 outside its range.
 * The taper multiplies by the quintic smoothstep 10t³ − 15t⁴ + 6t⁵ over T
 * metres at both window ends (C²: value, slope and curvature start at 0), so
 * a window can start anywhere without a step in the rail.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_file.h"
#include "rs_track_impl.h"

void rs_track_irreg_free(rs_track_irreg *ir)
{
    free(ir->ts);
    free(ir->tv);
    ir->ts = ir->tv = NULL;
    rs_spline_free(&ir->sp);
}

/* ------------------------------------------------------------- table file */

static int num_tok(const char *s, size_t n, double *v)
{
    char buf[128];
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    return *end == '\0' && end != buf && isfinite(*v);
}

int rs_track_irreg_table_read(rs_track_irreg *ir, const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    const int why = rs_read_file(path, (size_t)RS_TRACK_FILE_MAX, 0, &text, &len);
    if (why == EFBIG)
        return rs_fail_at(err, errlen, RS_E_SYNTAX, path, 0, "the table is larger than %ld bytes: "
                          "thin it out or split the track", (long)RS_TRACK_FILE_MAX);
    if (why == ENOMEM)
        return rs_fail_at(err, errlen, RS_E_NOMEM, path, 0, "out of memory");
    if (why)
        return rs_fail_at(err, errlen, RS_E_IO, path, 0, "cannot open the table (%s): check the name; "
                          "tables are looked for next to the .trk file", rs_file_why(why));
    int rc = rs_text_check(text, len, path, err, errlen);
    if (rc) {
        free(text);
        return rc;
    }
    int cap = 0, n = 0, line = 0, seen_data = 0, prev_line = 0;
    double *ts = NULL, *tv = NULL;
    char buf[1024];
    for (size_t pos = 0; pos < len && rc == RS_OK;) {
        size_t eol = pos;
        while (eol < len && text[eol] != '\n')
            eol++;
        line++;
        if (eol - pos > sizeof buf - 2) {
            rc = rs_fail_at(err, errlen, RS_E_SYNTAX, path, line, "line longer than %d characters: "
                            "one \"s, value\" pair a line", (int)sizeof buf - 2);
            break;
        }
        memcpy(buf, text + pos, eol - pos);
        buf[eol - pos] = '\0';
        pos = eol + 1;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        /* split on comma, semicolon, blanks */
        const char *tok[3];
        size_t tl[3];
        int nt = 0;
        for (char *p = buf; *p;) {
            while (*p == ' ' || *p == '\t' || *p == ',' || *p == ';' || *p == '\r' || *p == '\n')
                p++;
            if (!*p) break;
            char *q = p;
            while (*q && !(*q == ' ' || *q == '\t' || *q == ',' || *q == ';' || *q == '\r' ||
                           *q == '\n'))
                q++;
            if (nt < 3) { tok[nt] = p; tl[nt] = (size_t)(q - p); }
            nt++;
            p = q;
        }
        if (nt == 0) continue;
        double s, v;
        int ok0 = num_tok(tok[0], tl[0], &s);
        if (!seen_data && !ok0) {          /* one header line, e.g. "s,value" */
            seen_data = 1;
            continue;
        }
        seen_data = 1;
        if (nt != 2) {
            rc = rs_fail_at(err, errlen, RS_E_SYNTAX, path, line, "expected two numbers \"s, value\", found %d "
                            "field%s", nt, nt == 1 ? "" : "s");
            break;
        }
        if (!ok0 || !num_tok(tok[1], tl[1], &v)) {
            rc = rs_fail_at(err, errlen, RS_E_SYNTAX, path, line, "'%.*s' is not a finite number: write "
                            "\"s, value\" in metres", (int)(ok0 ? tl[1] : tl[0]),
                            ok0 ? tok[1] : tok[0]);
            break;
        }
        if (n > 0 && !(s > ts[n - 1])) {
            rc = rs_fail_at(err, errlen, RS_E_SYNTAX, path, line, "s = %.9g is not greater than the previous "
                            "s = %.9g (line %d): sort the table by s and remove duplicates",
                            s, ts[n - 1], prev_line);
            break;
        }
        if (n == cap) {
            int nc = cap ? 2 * cap : 64;
            double *a = realloc(ts, (size_t)nc * sizeof *a);
            if (!a) { rc = RS_E_NOMEM; break; }
            ts = a;
            double *b = realloc(tv, (size_t)nc * sizeof *b);
            if (!b) { rc = RS_E_NOMEM; break; }
            tv = b;
            cap = nc;
        }
        ts[n] = s;
        tv[n] = v * ir->scale;
        n++;
        prev_line = line;
    }
    free(text);
    int need = ir->shape == RS_TRACK_IRREG_SPLINE ? RS_SPLINE_MIN_POINTS : 2;
    if (rc == RS_OK && n < need) {
        rc = rs_fail_at(err, errlen, RS_E_SYNTAX, path, line,
                        "the table has %d point%s; %s interpolation needs "
                      "at least %d", n, n == 1 ? "" : "s",
                      ir->shape == RS_TRACK_IRREG_SPLINE ? "spline" : "linear", need);
    }
    if (rc == RS_OK && ir->shape == RS_TRACK_IRREG_SPLINE) {
        char e2[160];
        if (rs_spline_fit(&ir->sp, ts, tv, n, e2, sizeof e2) != RS_OK) {
            rc = rs_fail_at(err, errlen, RS_E_SYNTAX, path, 0, "%s", e2);
        }
    }
    if (rc != RS_OK) {
        free(ts);
        free(tv);
        return rc;
    }
    ir->ts = ts;
    ir->tv = tv;
    ir->n = n;
    return RS_OK;
}

/* --------------------------------------------------------------- evaluate */

static void base_eval(const rs_track_irreg *ir, double s, double v[3])
{
    if (ir->shape == RS_TRACK_IRREG_SINE) {
        double k = 2.0 * RS_TRACK_PI / ir->wavelength, a = k * s + ir->phase;
        double sn = sin(a), c = cos(a);
        v[0] = ir->amp * sn;
        v[1] = ir->amp * k * c;
        v[2] = -ir->amp * k * k * sn;
        return;
    }
    if (s < ir->ts[0] || s > ir->ts[ir->n - 1]) {
        v[0] = v[1] = v[2] = 0.0;
        return;
    }
    if (ir->shape == RS_TRACK_IRREG_SPLINE) {
        v[0] = rs_spline_eval(&ir->sp, s, NULL, &v[1], &v[2]);
        return;
    }
    int lo = 0, hi = ir->n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (ir->ts[mid] <= s) lo = mid; else hi = mid;
    }
    double sl = (ir->tv[hi] - ir->tv[lo]) / (ir->ts[hi] - ir->ts[lo]);
    v[0] = ir->tv[lo] + sl * (s - ir->ts[lo]);
    v[1] = sl;
    v[2] = 0.0;
}

void rs_track_irreg_eval(const rs_track_irreg *ir, double s, double v[3])
{
    if (!(s >= ir->a && s <= ir->b)) {
        v[0] = v[1] = v[2] = 0.0;
        return;
    }
    base_eval(ir, s, v);
    double T = ir->taper;
    if (T <= 0.0) return;
    double t, sg;
    if (s < ir->a + T) { t = (s - ir->a) / T; sg = 1.0; }
    else if (s > ir->b - T) { t = (ir->b - s) / T; sg = -1.0; }
    else return;
    double w = t * t * t * (10.0 + t * (-15.0 + 6.0 * t));
    double w1 = sg * 30.0 * t * t * (1.0 - t) * (1.0 - t) / T;
    double w2 = 60.0 * t * (1.0 - t) * (1.0 - 2.0 * t) / (T * T);
    double f = v[0], f1 = v[1], f2 = v[2];
    v[0] = w * f;
    v[1] = w1 * f + w * f1;
    v[2] = w2 * f + 2.0 * w1 * f1 + w * f2;
}

static const char *kind_name(int k)
{
    static const char *names[RS_TRACK_IRREG_NKINDS] = { "lateral", "vertical", "cant",
                                                 "vertical_left", "vertical_right", "gauge" };
    return (k >= 0 && k < RS_TRACK_IRREG_NKINDS) ? names[k] : "?";
}

int rs_track_irreg_resolve(rs_track_design *d, const char *fname, char *err, size_t errlen)
{
    for (int i = 0; i < d->ni; i++) {
        rs_track_irreg *ir = &d->irr[i];
        double a = ir->has_from ? ir->from : d->s_begin;
        double b = ir->has_to ? ir->to : d->s_end;
        if (ir->has_from && (a < d->s_begin - 1e-9 || a > d->s_end))
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, ir->line, "`from %.6g` lies outside the track "
                              "(s = %.6g .. %.6g m): give an s on the track", a, d->s_begin, d->s_end);
        if (ir->has_to && (b > d->s_end + 1e-9 || b < d->s_begin))
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, ir->line, "`to %.6g` lies outside the track "
                              "(s = %.6g .. %.6g m): give an s on the track", b, d->s_begin, d->s_end);
        if (ir->shape != RS_TRACK_IRREG_SINE) {
            a = fmax(a, ir->ts[0]);
            b = fmin(b, ir->ts[ir->n - 1]);
        }
        a = fmax(a, d->s_begin);
        b = fmin(b, d->s_end);
        if (!(b > a))
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, ir->line, "the %s irregularity covers no part of "
                              "the track (s = %.6g .. %.6g m): check `from`/`to` and the table's s",
                              kind_name(ir->kind), d->s_begin, d->s_end);
        if (2.0 * ir->taper > b - a)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, ir->line, "taper %.6g m is longer than half the "
                              "window (%.6g m): shorten the taper", ir->taper, b - a);
        ir->a = a;
        ir->b = b;
        /* Without a taper a window edge inside the track must sit where the
         * function is 0, or the rail would have a step the splines cannot
         * follow. */
        if (ir->taper == 0.0) {
            double v[3];
            for (int e = 0; e < 2; e++) {
                double s = e ? b : a;
                int inside = e ? (b < d->s_end - 1e-9) : (a > d->s_begin + 1e-9);
                if (!inside) continue;
                base_eval(ir, s, v);
                if (fabs(v[0]) > 1e-9)
                    return rs_fail_at(err, errlen, RS_E_VALUE, fname, ir->line,
                                      "the %s irregularity steps from 0 to %.6g m at s = %.6g m, the "
                                      "%s of its window: add `taper LENGTH` or let the window %s "
                                      "where the function is 0", kind_name(ir->kind),
                                      v[0], s, e ? "end" : "start", e ? "end" : "start");
            }
        }
    }
    return RS_OK;
}

/* ----------------------------------------------------------- full exact */

void rs_track_exact_geometry(const rs_track_design *d, double s, int *hint, rs_track_exact *o)
{
    double psi, k, dk, g, th, dth;
    if (!(s >= d->s_begin)) s = d->s_begin;
    if (s > d->s_end) s = d->s_end;
    rs_track_geom_eval(d, s, hint, o->pos, o->d1, o->d2, &psi, &k, &dk, &g, &th, &dth);
    o->heading = psi;
    o->curvature = k;
    o->grade = g;
    o->design_cant = th;
    double sum[RS_TRACK_IRREG_NKINDS][3] = { { 0 } };
    for (int i = 0; i < d->ni; i++) {
        double v[3];
        rs_track_irreg_eval(&d->irr[i], s, v);
        for (int j = 0; j < 3; j++) sum[d->irr[i].kind][j] += v[j];
    }
    const double *lat = sum[RS_TRACK_IRREG_LATERAL];
    double c = cos(psi), sn = sin(psi);
    double n[3] = { -sn, c, 0.0 };
    double n1[3] = { -k * c, -k * sn, 0.0 };
    double n2[3] = { -dk * c + k * k * sn, -dk * sn - k * k * c, 0.0 };
    for (int j = 0; j < 2; j++) {
        o->pos[j] += lat[0] * n[j];
        o->d1[j] += lat[1] * n[j] + lat[0] * n1[j];
        o->d2[j] += lat[2] * n[j] + 2.0 * lat[1] * n1[j] + lat[0] * n2[j];
    }
    const double *vv = sum[RS_TRACK_IRREG_VERTICAL], *vl = sum[RS_TRACK_IRREG_VLEFT], *vr = sum[RS_TRACK_IRREG_VRIGHT];
    double zc[3], cl[3];
    for (int j = 0; j < 3; j++) {
        zc[j] = vv[j] + 0.5 * (vl[j] + vr[j]);
        cl[j] = sum[RS_TRACK_IRREG_CANT][j] + vl[j] - vr[j];
    }
    o->pos[2] += zc[0];
    o->d1[2] += zc[1];
    o->d2[2] += zc[2];
    double b = d->cant_base;
    double H = b * sin(th) + cl[0], H1 = b * cos(th) * dth + cl[1];
    double r = H / b;
    if (r > 1.0) r = 1.0;
    if (r < -1.0) r = -1.0;
    o->cant = asin(r);
    double cc = cos(o->cant);
    o->cant_d1 = cc > 1e-12 ? H1 / (b * cc) : 0.0;
    o->lateral = lat[0];
    o->vertical = zc[0];
    o->cross_level = cl[0];
    /* the gauge moves the rails, not the centre line: rs_track.c fits the
     * two rails' reference lines from it */
    o->gauge = sum[RS_TRACK_IRREG_GAUGE][0];
}
