/*
 * rs_track.c — build the track splines from the exact geometry, and the
 * queries the simulation uses (rs_track.h).
 *
 * Knots: every `spacing` metres plus every place where the geometry changes
 * character (element joints, gradient breakpoints, irregularity windows and
 * tapers, table abscissae); grid points closer than spacing/4 to such a
 * feature are dropped.  The four splines are fitted (not-a-knot, rs_spline)
 * through the exact values at the knots, then checked at 1/4, 1/2, 3/4 of
 * every segment against the exact geometry; a segment that misses by more
 * than the tolerance in position or cant, or by more than twice the tolerance
 * (1/m) in the second derivative of x or y (which is what the curvature
 * tests read), is split at its midpoint and everything is fitted again.  Near
 * a curvature jump (an arc without transition) the second derivative cannot
 * converge — a C² spline has no jump — so segments shorter than spacing/64
 * are no longer split for it, and fit_err_d2 leaves out the metre on either
 * side of such a joint.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_file.h"
#include "rs_track_impl.h"

#define DEFAULT_SPACING   0.5
#define DEFAULT_TOLERANCE 1e-7
#define MAX_PASSES        16
#define MAX_KNOTS         1000000

void rs_track_design_free(rs_track_design *d)
{
    if (!d) return;
    free(d->e);
    free(d->g);
    for (int i = 0; i < d->ni; i++) rs_track_irreg_free(&d->irr[i]);
    free(d->irr);
    free(d->p);
    free(d->ax);
    free(d->ay);
    free(d);
}

void rs_track_free(rs_track *t)
{
    if (!t) return;
    for (int k = 0; k < 4; k++) rs_spline_free(&t->f[k]);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++) rs_spline_free(&t->rail[r][k]);
    rs_track_design_free(t->design);
    memset(t, 0, sizeof *t);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------ knots */

typedef struct dvec { double *v; int n, cap; } dvec;

static int push(dvec *a, double x)
{
    if (a->n == a->cap) {
        int nc = a->cap ? 2 * a->cap : 256;
        if (nc > 4 * MAX_KNOTS) return RS_E_NOMEM;
        double *v = realloc(a->v, (size_t)nc * sizeof *v);
        if (!v) return RS_E_NOMEM;
        a->v = v;
        a->cap = nc;
    }
    a->v[a->n++] = x;
    return RS_OK;
}

static int features(const rs_track_design *d, dvec *f)
{
    int rc = 0;
    for (int i = 0; i < d->np && !rc; i++) rc = push(f, d->p[i].s0);
    if (!rc) rc = push(f, d->s_end);
    for (int i = 0; i < d->ni && !rc; i++) {
        const rs_track_irreg *ir = &d->irr[i];
        rc = push(f, ir->a);
        if (!rc) rc = push(f, ir->b);
        if (!rc && ir->taper > 0.0) {
            rc = push(f, ir->a + ir->taper);
            if (!rc) rc = push(f, ir->b - ir->taper);
        }
        for (int j = 0; j < ir->n && !rc; j++)
            if (ir->ts[j] > ir->a && ir->ts[j] < ir->b) rc = push(f, ir->ts[j]);
    }
    if (rc) return rc;
    qsort(f->v, (size_t)f->n, sizeof *f->v, cmp_double);
    int m = 0;
    for (int i = 0; i < f->n; i++) {
        double s = f->v[i];
        if (s < d->s_begin || s > d->s_end) continue;
        if (m > 0 && s - f->v[m - 1] < 1e-6) continue;
        f->v[m++] = s;
    }
    f->n = m;
    return RS_OK;
}

static int initial_knots(const rs_track_design *d, double h, dvec *k)
{
    dvec f = { 0 };
    int rc = features(d, &f);
    int j = 0;
    long ng = (long)floor((d->s_end - d->s_begin) / h);
    for (long i = 0; i <= ng && !rc; i++) {
        double s = d->s_begin + (double)i * h;
        while (j + 1 < f.n && f.v[j + 1] <= s) j++;
        double dist = fabs(s - f.v[j]);
        if (j + 1 < f.n) dist = fmin(dist, fabs(f.v[j + 1] - s));
        if (dist >= 0.25 * h) rc = push(k, s);
    }
    for (int i = 0; i < f.n && !rc; i++) rc = push(k, f.v[i]);
    free(f.v);
    if (rc) return rc;
    qsort(k->v, (size_t)k->n, sizeof *k->v, cmp_double);
    return RS_OK;
}

/* ------------------------------------------------------------ fit */

static void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The cross-section axes of a line with derivative d1 and cant θ
 * (rs_track.h): tangent t, lateral ĉ = cos θ h + sin θ (t × h), up t × ĉ. */
static void frame(const double d1[3], double cant, double tg[3], double lat[3], double up[3])
{
    double nrm = sqrt(d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2]);
    for (int k = 0; k < 3; k++) tg[k] = nrm > 0.0 ? d1[k] / nrm : 0.0;
    double hn = sqrt(tg[0] * tg[0] + tg[1] * tg[1]);
    double h[3] = { hn > 0.0 ? -tg[1] / hn : 0.0, hn > 0.0 ? tg[0] / hn : 1.0, 0.0 };
    double u0[3];
    cross3(tg, h, u0);
    double c = cos(cant), sn = sin(cant);
    for (int k = 0; k < 3; k++) lat[k] = c * h[k] + sn * u0[k];
    cross3(tg, lat, up);
}

/* The exact reference line of rail r (0 left, 1 right) at o: the centre
 * moved by ±g/2 along the exact ĉ. */
static void exact_rail(const rs_track_exact *o, int r, double p[3])
{
    double tg[3], lat[3], up[3];
    frame(o->d1, o->cant, tg, lat, up);
    const double half = (r == 0 ? 0.5 : -0.5) * o->gauge;
    for (int k = 0; k < 3; k++) p[k] = o->pos[k] + half * lat[k];
}

static double seg_eval(const rs_spline *sp, int seg, double s, double *d1, double *d2)
{
    const double *c = &sp->coef[4 * seg];
    double u = s - sp->x[seg];
    *d1 = (3.0 * c[0] * u + 2.0 * c[1]) * u + c[2];
    *d2 = 6.0 * c[0] * u + 2.0 * c[1];
    return ((c[0] * u + c[1]) * u + c[2]) * u + c[3];
}

static int fit_all(rs_track *t, const char *fname, const double *knots, int n, double *buf, char *err,
                   size_t errlen)
{
    const rs_track_design *d = t->design;
    double *X = buf, *Y = buf + n, *Z = buf + 2 * n, *TH = buf + 3 * n;
    const int nf = t->has_gauge ? 10 : 4;   /* f, then rail[0], rail[1] */
    int hint = 0;
    for (int i = 0; i < n; i++) {
        rs_track_exact o;
        rs_track_exact_geometry(d, knots[i], &hint, &o);
        X[i] = o.pos[0];
        Y[i] = o.pos[1];
        Z[i] = o.pos[2];
        TH[i] = o.cant;
        for (int r = 0; r < 2 && t->has_gauge; r++) {
            double p[3];
            exact_rail(&o, r, p);
            for (int k = 0; k < 3; k++) buf[(size_t)(4 + 3 * r + k) * (size_t)n + (size_t)i] = p[k];
        }
    }
    for (int k = 0; k < nf; k++) {
        rs_spline *sp = k < 4 ? &t->f[k] : &t->rail[(k - 4) / 3][(k - 4) % 3];
        rs_spline_free(sp);
        char e2[160];
        int rc = rs_spline_fit(sp, knots, buf + (size_t)k * (size_t)n, n, e2, sizeof e2);
        if (rc != RS_OK)
            return rs_fail_at(err, errlen, rc == RS_E_NOMEM ? RS_E_NOMEM : RS_E_FIT, fname, 0,
                              "spline fit failed: %s", e2);
    }
    return RS_OK;
}

static int near_jump(const double *jumps, int nj, double s)
{
    for (int i = 0; i < nj; i++)
        if (fabs(s - jumps[i]) < 1.0) return 1;
    return 0;
}

static int build(rs_track *t, const char *fname, char *err, size_t errlen)
{
    rs_track_design *d = t->design;
    int rc = rs_track_geom_build(d, fname, err, errlen);
    if (rc) {
        if (rc == RS_E_NOMEM) rs_fail_at(err, errlen, rc, fname, 0, "out of memory");
        return rc;
    }
    rc = rs_track_irreg_resolve(d, fname, err, errlen);
    if (rc) return rc;
    t->s_begin = d->s_begin;
    t->s_end = d->s_end;
    t->cant_base = d->cant_base;
    t->n_elements = d->ne;
    t->n_irregularities = d->ni;
    for (int i = 0; i < d->ni; i++)
        if (d->irr[i].kind == RS_TRACK_IRREG_GAUGE) t->has_gauge = 1;
    double L = d->s_end - d->s_begin;
    double h = t->spacing;
    if (L / h < 3.0) h = L / 3.0;
    if (L / h > 0.5 * MAX_KNOTS)
        return rs_fail_at(err, errlen, RS_E_VALUE, fname, 0, "%.6g m of track at `spacing %g` needs more than "
                          "%d knots: raise `spacing` or split the track", L, h, MAX_KNOTS / 2);
    const double tol = t->tolerance, tol_d2 = 2.0 * t->tolerance;
    const double hmin_pos = h / 4096.0, hmin_d2 = h / 64.0;

    /* Cross level must stay well inside the cant base everywhere. */
    {
        int hint = 0;
        for (double s = d->s_begin; s <= d->s_end; s += 0.5 * h) {
            rs_track_exact o;
            rs_track_exact_geometry(d, s, &hint, &o);
            double H = d->cant_base * sin(o.design_cant) + o.cross_level;
            if (fabs(H) > 0.5 * d->cant_base)
                return rs_fail_at(err, errlen, RS_E_VALUE, fname, 0, "at s = %.6g m the rails differ in height "
                                  "by %.4g m, more than half the cant base %.4g m: check the cant and "
                                  "the cant/vertical irregularities", s, H, d->cant_base);
        }
    }

    int nj = rs_track_geom_jumps(d, NULL, 0);
    double *jumps = nj ? malloc((size_t)nj * sizeof *jumps) : NULL;
    if (nj && !jumps) return RS_E_NOMEM;
    rs_track_geom_jumps(d, jumps, nj);

    dvec k = { 0 }, nk = { 0 };
    double *buf = NULL;
    rc = initial_knots(d, h, &k);
    char *flag = NULL;
    double worst_s = d->s_begin;
    for (int pass = 0; !rc; pass++) {
        int n = k.n;
        free(buf);
        free(flag);
        buf = malloc((size_t)(t->has_gauge ? 10 : 4) * (size_t)n * sizeof *buf);
        flag = calloc((size_t)n, 1);
        if (!buf || !flag) { rc = RS_E_NOMEM; break; }
        rc = fit_all(t, fname, k.v, n, buf, err, errlen);
        if (rc) break;
        double ep = 0.0, ec = 0.0, e2 = 0.0, er = 0.0, worst = 0.0;
        int nflag = 0, hint = 0;
        for (int i = 0; i + 1 < n; i++) {
            double len = k.v[i + 1] - k.v[i];
            for (int q = 1; q <= 3; q++) {
                double s = k.v[i] + 0.25 * q * len;
                rs_track_exact o;
                rs_track_exact_geometry(d, s, &hint, &o);
                double p, a1, a2, ep_i = 0.0, e2_i = 0.0;
                for (int c = 0; c < 3; c++) {
                    p = seg_eval(&t->f[c], i, s, &a1, &a2);
                    ep_i = fmax(ep_i, fabs(p - o.pos[c]));
                    if (c < 2) e2_i = fmax(e2_i, fabs(a2 - o.d2[c]));
                }
                for (int r = 0; r < 2 && t->has_gauge; r++) {   /* the rails' lines */
                    double pr[3];
                    exact_rail(&o, r, pr);
                    for (int c = 0; c < 3; c++) {
                        double e = fabs(seg_eval(&t->rail[r][c], i, s, &a1, &a2) - pr[c]);
                        er = fmax(er, e);
                        ep_i = fmax(ep_i, e);
                    }
                }
                p = seg_eval(&t->f[3], i, s, &a1, &a2);
                double ec_i = fabs(p - o.cant);
                if (!(ep_i <= tol && ec_i <= tol) && len > hmin_pos) flag[i] = 1;
                if (!(e2_i <= tol_d2) && len > hmin_d2) flag[i] = 1;
                if (ep_i > ep || ec_i > ec) {
                    double w = fmax(ep_i, ec_i);
                    if (w > worst) { worst = w; worst_s = s; }
                }
                ep = fmax(ep, ep_i);
                ec = fmax(ec, ec_i);
                if (!near_jump(jumps, nj, s)) e2 = fmax(e2, e2_i);
            }
            nflag += flag[i];
        }
        t->fit_err_pos = ep;
        t->fit_err_cant = ec;
        t->fit_err_rail = er;
        t->fit_err_d2 = e2;
        t->refine_passes = pass;
        if (nflag == 0 || pass == MAX_PASSES) break;
        if (n + nflag > MAX_KNOTS) {
            rc = rs_fail_at(err, errlen, RS_E_FIT, fname, 0, "the splines need more than %d knots to meet the "
                            "tolerance %g: raise `tolerance`, smooth the irregularities, or split "
                            "the track", MAX_KNOTS, tol);
            break;
        }
        nk.n = 0;
        for (int i = 0; i < n && !rc; i++) {
            rc = push(&nk, k.v[i]);
            if (!rc && i + 1 < n && flag[i]) rc = push(&nk, 0.5 * (k.v[i] + k.v[i + 1]));
        }
        dvec tmp = k;
        k = nk;
        nk = tmp;
    }
    free(buf);
    free(flag);
    free(k.v);
    free(nk.v);
    free(jumps);
    if (rc) {
        if (rc == RS_E_NOMEM) rs_fail_at(err, errlen, rc, fname, 0, "out of memory");
        return rc;
    }
    if (!(t->fit_err_pos <= tol && t->fit_err_cant <= tol))
        return rs_fail_at(err, errlen, RS_E_FIT, fname, 0, "the splines miss the geometry by %.3g m (cant %.3g "
                          "rad) near s = %.6g m, more than the tolerance %g: the geometry changes "
                          "faster than %g m knots can follow (a step or kink in a table or window?); "
                          "smooth it, add a taper, or raise `tolerance`",
                          t->fit_err_pos, t->fit_err_cant, worst_s, tol, hmin_pos);
    return RS_OK;
}

/* ------------------------------------------------------------ entry points */

int rs_track_parse(rs_track *t, const char *text, size_t len, const char *fname,
                   const char *dir, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!t) return RS_E_ARG;
    memset(t, 0, sizeof *t);
    if (!text && len) return RS_E_ARG;
    if (!fname) fname = "<track>";
    t->design = calloc(1, sizeof *t->design);
    if (!t->design)
        return rs_fail_at(err, errlen, RS_E_NOMEM, fname, 0, "out of memory");
    t->spacing = DEFAULT_SPACING;
    t->tolerance = DEFAULT_TOLERANCE;
    snprintf(t->name, sizeof t->name, "track");
    int rc = rs_track_design_parse(t, t->design, text ? text : "", len, fname, dir, err, errlen);
    if (!rc) rc = build(t, fname, err, errlen);
    if (rc) rs_track_free(t);
    return rc;
}

int rs_track_load(rs_track *t, const char *path, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!t) return RS_E_ARG;
    memset(t, 0, sizeof *t);
    if (!path) return RS_E_ARG;
    char *buf;
    size_t n;
    const int why = rs_read_file(path, (size_t)RS_TRACK_FILE_MAX, 0, &buf, &n);
    switch (why) {
    case 0:
        break;
    case EFBIG:
        return rs_fail_at(err, errlen, RS_E_SYNTAX, path, 0,
                          "the file is larger than %ld bytes: is it a track file?",
                        (long)RS_TRACK_FILE_MAX);
    case ENOMEM:
        return rs_fail_at(err, errlen, RS_E_NOMEM, path, 0, "out of memory");
    case EIO:
        return rs_fail_at(err, errlen, RS_E_IO, path, 0, "read error: check the file");
    default:
        return rs_fail_at(err, errlen, RS_E_IO, path, 0, "cannot open (%s): check the path", rs_file_why(why));
    }
    /* Tables are looked for in the file's folder. */
    char dir[512];
    const char *slash = strrchr(path, '/');
    if (slash && (size_t)(slash - path) < sizeof dir) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        if (slash == path) snprintf(dir, sizeof dir, "/");
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    const int rc = rs_track_parse(t, buf, n, path, dir, err, errlen);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ queries */

int rs_track_find(const rs_track *t, double s, int *hint, int *outside)
{
    return rs_spline_find(&t->f[0], s, hint, outside);
}

int rs_track_segments(const rs_track *t)
{
    return t && t->f[0].n > 1 ? t->f[0].n - 1 : 0;
}

void rs_track_segment(const rs_track *t, int seg, double c[4][5])
{
    for (int k = 0; k < 4; k++) rs_spline_segment(&t->f[k], seg, c[k]);
}

/* The point of the line xyz[0..2] (f or a rail's) at s, with f's cant. */
static int line_eval(const rs_track *t, const rs_spline *xyz, double s, int *hint, rs_track_point *o)
{
    int outside = 0;
    int seg = rs_spline_find(&t->f[0], s, hint, &outside);
    o->s = s;
    o->segment = seg;
    for (int k = 0; k < 3; k++) o->pos[k] = seg_eval(&xyz[k], seg, s, &o->d1[k], &o->d2[k]);
    double th2;
    o->cant = seg_eval(&t->f[3], seg, s, &o->cant_d1, &th2);
    frame(o->d1, o->cant, o->tangent, o->lateral, o->up);
    double xp = o->d1[0], yp = o->d1[1], q = xp * xp + yp * yp;
    o->curvature = q > 0.0 ? (xp * o->d2[1] - yp * o->d2[0]) / (q * sqrt(q)) : 0.0;
    return outside ? 1 : 0;
}

int rs_track_eval(const rs_track *t, double s, int *hint, rs_track_point *o)
{
    if (!t || !o || t->f[0].n < 2) return RS_E_ARG;
    return line_eval(t, t->f, s, hint, o);
}

int rs_track_rail_eval(const rs_track *t, int side, double s, int *hint, rs_track_point *o)
{
    if (!t || !o || t->f[0].n < 2) return RS_E_ARG;
    return line_eval(t, t->has_gauge ? t->rail[side > 0 ? 0 : 1] : t->f, s, hint, o);
}

int rs_track_exact_eval(const rs_track *t, double s, int *hint, rs_track_exact *out)
{
    if (!t || !out || !t->design || !t->design->p) return RS_E_ARG;
    rs_track_exact_geometry(t->design, s, hint, out);
    return RS_OK;
}

int rs_track_project(const rs_track *t, const double p[2], double s0, int *hint, double *s)
{
    if (!t || !p || !s || t->f[0].n < 2) return RS_E_ARG;
    double x = s0;
    if (!(x >= t->s_begin)) x = t->s_begin;     /* NaN too */
    if (x > t->s_end) x = t->s_end;
    for (int it = 0; it < 50; it++) {
        int seg = rs_spline_find(&t->f[0], x, hint, NULL);
        double cx, cy, x1, y1, x2, y2;
        cx = seg_eval(&t->f[0], seg, x, &x1, &x2);
        cy = seg_eval(&t->f[1], seg, x, &y1, &y2);
        double rx = p[0] - cx, ry = p[1] - cy;
        double f = rx * x1 + ry * y1;
        double df = -(x1 * x1 + y1 * y1) + rx * x2 + ry * y2;
        if (!(df < 0.0)) df = -(x1 * x1 + y1 * y1);   /* far from the curve: plain step */
        double dx = -f / df, xn = x + dx;
        if (xn < t->s_begin || xn > t->s_end) {
            double edge = xn < t->s_begin ? t->s_begin : t->s_end;
            if (x == edge) { *s = edge; return 1; }
            xn = edge;
        }
        if (fabs(xn - x) < 1e-10) { *s = xn; return RS_OK; }
        x = xn;
    }
    *s = x;
    return RS_E_VALUE;
}
