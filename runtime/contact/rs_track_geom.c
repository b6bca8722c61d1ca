/*
 * rs_track_geom.c — the exact alignment: resolve what the file leaves
 * implicit (clothoid end curvatures, cant ramps, the grade function), cut the
 * track into pieces, and integrate position exactly per piece.
 *
 * Inside a piece the curvature κ, the grade g = dz/ds and the design cant θ
 * are linear in s, so ψ(u) = ψ0 + κ0 u + κ' u²/2 and z(u) = z0 + g0 u +
 * g' u²/2 exactly.  The plan position is ∫ √(1−g²) (cos ψ, sin ψ) du:
 *   - straights and arcs at constant grade in closed form, written with the
 *     chord 2 sin(κu/2)/κ so that κ → 0 loses nothing to cancellation;
 *   - clothoids and grade ramps numerically: anchors every ≤ 1 m summed with
 *     8-point Gauss–Legendre, and from the nearest anchor to s one more
 *     8-point rule.  For |κ| ≤ 1/m on ≤ 1 m the rule's error bound is below
 *     1e-20 m, so what remains is rounding (≈ 1e-13 m over 100 km).
 * s is the arc length along the 3-D centre line, so with a grade the plan
 * radius of an arc is R √(1−g²) (2e-4 relative at 2 %).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_track_impl.h"

/* 8-point Gauss–Legendre on [-1, 1]. */
static const double GL_X[4] = { 0.1834346424956498049394761, 0.5255324099163289858177390,
                                0.7966664774136267395915539, 0.9602898564975362316835609 };
static const double GL_W[4] = { 0.3626837833783619829651504, 0.3137066458778872873379622,
                                0.2223810344533744705443560, 0.1012285362903762591525314 };

static double piece_psi(const rs_track_piece *p, double u)
{
    return p->psi0 + u * (p->k0 + 0.5 * p->dk * u);
}

static double piece_h(const rs_track_piece *p, double u)
{
    double g = p->g0 + p->dg * u;
    return sqrt(1.0 - g * g);
}

/* ∫_{u0}^{u1} √(1−g²)(cos ψ, sin ψ) du by one 8-point rule. */
static void gl_step(const rs_track_piece *p, double u0, double u1, double *dx, double *dy)
{
    double c = 0.5 * (u0 + u1), r = 0.5 * (u1 - u0), sx = 0.0, sy = 0.0;
    for (int i = 0; i < 4; i++) {
        for (int sg = -1; sg <= 1; sg += 2) {
            double u = c + sg * r * GL_X[i];
            double h = piece_h(p, u), psi = piece_psi(p, u);
            sx += GL_W[i] * h * cos(psi);
            sy += GL_W[i] * h * sin(psi);
        }
    }
    *dx = r * sx;
    *dy = r * sy;
}

/* Plan position at offset u into piece p. */
static void piece_xy(const rs_track_design *d, const rs_track_piece *p, double u,
                     double *x, double *y)
{
    if (p->closed) {
        double k = p->k0, h = sqrt(1.0 - p->g0 * p->g0);
        double chord = (k == 0.0) ? u : 2.0 * sin(0.5 * k * u) / k;
        double mid = p->psi0 + 0.5 * k * u;
        *x = p->x0 + h * chord * cos(mid);
        *y = p->y0 + h * chord * sin(mid);
        return;
    }
    int j = (int)floor(u / p->da);
    if (j < 0) j = 0;
    if (j > p->na - 1) j = p->na - 1;
    double dx, dy;
    gl_step(p, j * p->da, u, &dx, &dy);
    *x = d->ax[p->a0 + j] + dx;
    *y = d->ay[p->a0 + j] + dy;
}

static int find_piece(const rs_track_design *d, double s, int *hint)
{
    int np = d->np, i = (hint && *hint >= 0 && *hint < np) ? *hint : 0;
    const rs_track_piece *p = d->p;
    if (!(s >= p[i].s0 && s < p[i].s0 + p[i].len)) {
        if (i + 1 < np && s >= p[i + 1].s0 && s < p[i + 1].s0 + p[i + 1].len) {
            i = i + 1;
        } else {
            int lo = 0, hi = np - 1;       /* last piece with s0 <= s */
            while (lo < hi) {
                int mid = (lo + hi + 1) / 2;
                if (p[mid].s0 <= s) lo = mid; else hi = mid - 1;
            }
            i = lo;
        }
    }
    if (hint) *hint = i;
    return i;
}

void rs_track_geom_eval(const rs_track_design *d, double s, int *hint,
                      double pos[3], double d1[3], double d2[3], double *psi,
                      double *kappa, double *dkappa, double *grade,
                      double *th, double *dth)
{
    if (!(s >= d->s_begin)) s = d->s_begin;    /* NaN too */
    if (s > d->s_end) s = d->s_end;
    const rs_track_piece *p = &d->p[find_piece(d, s, hint)];
    double u = s - p->s0;
    double ps = piece_psi(p, u), k = p->k0 + p->dk * u, g = p->g0 + p->dg * u;
    double h = sqrt(1.0 - g * g), hp = -g * p->dg / h;
    double c = cos(ps), sn = sin(ps);
    piece_xy(d, p, u, &pos[0], &pos[1]);
    pos[2] = p->z0 + u * (p->g0 + 0.5 * p->dg * u);
    d1[0] = h * c;  d1[1] = h * sn;  d1[2] = g;
    d2[0] = hp * c - h * k * sn;
    d2[1] = hp * sn + h * k * c;
    d2[2] = p->dg;
    *psi = ps;  *kappa = k;  *dkappa = p->dk;  *grade = g;
    *th = p->th0 + p->dth * u;  *dth = p->dth;
}

/* ---------------------------------------------------------------- resolve */

static double elem_k_end(const rs_track_elem *e) { return e->k1; }

static int resolve_curvatures(rs_track_design *d, const char *fname, char *err, size_t errlen)
{
    for (int i = 0; i < d->ne; i++) {
        rs_track_elem *e = &d->e[i];
        if (e->kind != RS_TRACK_CLOTHOID || e->k0_given) continue;
        if (i == 0)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, e->line,
                              "a clothoid at the start of the track needs its start curvature: "
                              "write `clothoid %g from K0 to K1`", e->len);
        const rs_track_elem *q = &d->e[i - 1];
        if (q->kind == RS_TRACK_CLOTHOID && !q->k1_given)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, e->line,
                              "cannot infer this clothoid's start curvature from the clothoid before it "
                              "(line %d), whose end is not given either: write `from K0` here or "
                              "`to K1` there", q->line);
        e->k0 = elem_k_end(q);
        e->k0_given = 2;               /* inferred */
    }
    for (int i = d->ne - 1; i >= 0; i--) {
        rs_track_elem *e = &d->e[i];
        if (e->kind != RS_TRACK_CLOTHOID || e->k1_given) continue;
        if (i == d->ne - 1)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, e->line,
                              "a clothoid at the end of the track needs its end curvature: "
                              "write `clothoid %g from K0 to K1`", e->len);
        const rs_track_elem *q = &d->e[i + 1];
        if (q->kind == RS_TRACK_CLOTHOID && !q->k0_given)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, e->line,
                              "cannot infer this clothoid's end curvature from the clothoid after it "
                              "(line %d), whose start is not given either: write `to K1` here or "
                              "`from K0` there", q->line);
        e->k1 = q->k0;
        e->k1_given = 2;
    }
    /* A small non-zero curvature jump is almost surely a rounded value
     * (0.0033 for 1/300): say so instead of building a kinked track. */
    for (int i = 1; i < d->ne; i++) {
        double a = d->e[i - 1].k1, b = d->e[i].k0, j = fabs(b - a);
        double m = fmax(fabs(a), fabs(b));
        if (j > 1e-12 * m && j <= 0.05 * m &&
            (d->e[i].kind == RS_TRACK_CLOTHOID || d->e[i - 1].kind == RS_TRACK_CLOTHOID)) {
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, d->e[i].line,
                              "the curvature jumps from %.9g to %.9g 1/m (%.2g %%) at the joint with "
                              "line %d: a rounded value? write it exactly (e.g. `to 1/300`) or leave "
                              "`from`/`to` out to take the neighbour's curvature",
                              a, b, 100.0 * j / m, d->e[i - 1].line);
        }
    }
    return RS_OK;
}

/* Signed design cant: constant on straights (0) and curves, linear on
 * clothoids; over a chain of clothoids linear in s between the elements
 * that bound it (a track end takes the other end's value, or 0). */
static int resolve_cant(rs_track_design *d, const char *fname, char *err, size_t errlen)
{
    for (int i = 0; i < d->ne; i++) {
        rs_track_elem *e = &d->e[i];
        if (e->kind == RS_TRACK_CURVE) {
            double sg = (e->k0 > 0.0) ? 1.0 : -1.0;
            e->th0 = e->th1 = e->has_cant ? -sg * e->cant_outer : 0.0;
        } else if (e->kind == RS_TRACK_STRAIGHT) {
            e->th0 = e->th1 = 0.0;
        }
    }
    for (int i = 1; i < d->ne; i++) {
        const rs_track_elem *a = &d->e[i - 1], *b = &d->e[i];
        if (a->kind != RS_TRACK_CLOTHOID && b->kind != RS_TRACK_CLOTHOID &&
            fabs(a->th1 - b->th0) > 1e-12) {
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, b->line,
                              "the cant jumps from %.6g to %.6g rad at the joint with line %d: put a "
                              "`clothoid` transition between them (cant ramps linearly over "
                              "transitions)", a->th1, b->th0, a->line);
        }
    }
    int i = 0;
    while (i < d->ne) {
        if (d->e[i].kind != RS_TRACK_CLOTHOID) { i++; continue; }
        int j = i;
        while (j < d->ne && d->e[j].kind == RS_TRACK_CLOTHOID) j++;
        /* chain i .. j-1 */
        int hasA = i > 0, hasB = j < d->ne;
        double tA = hasA ? d->e[i - 1].th1 : 0.0, tB = hasB ? d->e[j].th0 : 0.0;
        if (!hasA) tA = hasB ? tB : 0.0;
        if (!hasB) tB = tA;
        double sA = d->e[i].s0, sB = d->e[j - 1].s0 + d->e[j - 1].len;
        for (int k = i; k < j; k++) {
            rs_track_elem *e = &d->e[k];
            e->th0 = tA + (tB - tA) * (e->s0 - sA) / (sB - sA);
            e->th1 = tA + (tB - tA) * (e->s0 + e->len - sA) / (sB - sA);
        }
        i = j;
    }
    return RS_OK;
}

/* Grade at s and its slope, from the gradient statements. */
static void grade_at(const rs_track_design *d, double s, double *g, double *dg)
{
    double gc = 0.0;
    *dg = 0.0;
    for (int i = 0; i < d->ng; i++) {
        const rs_track_grade *q = &d->g[i];
        if (s < q->s_at) break;
        if (q->ramp > 0.0 && s < q->s_at + q->ramp) {
            *dg = (q->g - gc) / q->ramp;
            *g = gc + *dg * (s - q->s_at);
            return;
        }
        gc = q->g;
    }
    *g = gc;
}

static int resolve_grades(rs_track_design *d, const char *fname, char *err, size_t errlen)
{
    double prev_end = -INFINITY;
    for (int i = 0; i < d->ng; i++) {
        rs_track_grade *q = &d->g[i];
        if (q->ramp == 0.0 && q->s_at > d->s_begin + 1e-9)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, q->line,
                              "a change of gradient inside the track needs a vertical curve: write "
                              "`gradient %g ramp LENGTH` (the grade then changes linearly over LENGTH m)",
                              q->g);
        if (q->s_at < prev_end - 1e-9)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, q->line,
                              "this gradient change starts at s = %.6g m, before the previous ramp ends "
                              "(s = %.6g m): move it after more elements or shorten the ramp",
                              q->s_at, prev_end);
        if (q->s_at + q->ramp > d->s_end + 1e-9)
            return rs_fail_at(err, errlen, RS_E_VALUE, fname, q->line,
                              "the gradient ramp ends at s = %.6g m, past the end of the track "
                              "(s = %.6g m): shorten the ramp or add elements after it",
                              q->s_at + q->ramp, d->s_end);
        prev_end = q->s_at + q->ramp;
    }
    return RS_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Where x'' or y'' of the exact geometry jumps: joints with a curvature
 * jump, and the ends of gradient ramps (h' = −g g'/h jumps there). */
int rs_track_geom_jumps(const rs_track_design *d, double *s, int cap)
{
    int n = 0;
    for (int i = 1; i < d->ne; i++) {
        if (fabs(d->e[i].k0 - d->e[i - 1].k1) > 1e-12) {
            if (n < cap) s[n] = d->e[i].s0;
            n++;
        }
    }
    for (int i = 0; i < d->ng; i++) {
        if (d->g[i].ramp > 0.0) {
            if (n < cap) s[n] = d->g[i].s_at;
            n++;
            if (n < cap) s[n] = d->g[i].s_at + d->g[i].ramp;
            n++;
        }
    }
    return n;
}

int rs_track_geom_build(rs_track_design *d, const char *fname, char *err, size_t errlen)
{
    double s = d->os;
    for (int i = 0; i < d->ne; i++) {
        d->e[i].s0 = s;
        s += d->e[i].len;
        if (d->e[i].kind != RS_TRACK_CLOTHOID) {
            d->e[i].k1 = d->e[i].k0;
        }
    }
    d->s_begin = d->os;
    d->s_end = s;
    int rc = resolve_curvatures(d, fname, err, errlen);
    if (rc) return rc;
    rc = resolve_cant(d, fname, err, errlen);
    if (rc) return rc;
    rc = resolve_grades(d, fname, err, errlen);
    if (rc) return rc;

    /* Cut points: joints and grade breakpoints. */
    int ncut = 0, cap = d->ne + 2 * d->ng + 2;
    double *cut = malloc((size_t)cap * sizeof *cut);
    if (!cut) return RS_E_NOMEM;
    for (int i = 0; i < d->ne; i++) cut[ncut++] = d->e[i].s0;
    for (int i = 0; i < d->ng; i++) {
        cut[ncut++] = d->g[i].s_at;
        cut[ncut++] = d->g[i].s_at + d->g[i].ramp;
    }
    cut[ncut++] = d->s_end;
    qsort(cut, (size_t)ncut, sizeof *cut, cmp_double);
    int m = 0;
    for (int i = 0; i < ncut; i++) {
        if (cut[i] < d->s_begin - 1e-12 || cut[i] > d->s_end + 1e-12) continue;
        if (m > 0 && cut[i] - cut[m - 1] < 1e-9) continue;
        cut[m++] = cut[i];
    }
    /* m cut points including both ends: m-1 pieces */
    d->np = m - 1;
    d->p = calloc((size_t)d->np, sizeof *d->p);
    if (!d->p) { free(cut); return RS_E_NOMEM; }
    int nanch = 0;
    int ei = 0;
    for (int i = 0; i < d->np; i++) {
        rs_track_piece *p = &d->p[i];
        p->s0 = cut[i];
        p->len = cut[i + 1] - cut[i];
        double mid = p->s0 + 0.5 * p->len;
        while (ei + 1 < d->ne && d->e[ei + 1].s0 <= mid) ei++;
        const rs_track_elem *e = &d->e[ei];
        double dk = (e->k1 - e->k0) / e->len, dth = (e->th1 - e->th0) / e->len;
        p->k0 = e->k0 + dk * (p->s0 - e->s0);
        p->dk = (e->kind == RS_TRACK_CLOTHOID) ? dk : 0.0;
        if (e->kind != RS_TRACK_CLOTHOID) p->k0 = e->k0;
        p->th0 = e->th0 + dth * (p->s0 - e->s0);
        p->dth = dth;
        double gm, dgm;
        grade_at(d, mid, &gm, &dgm);
        p->dg = dgm;
        p->g0 = gm - dgm * (mid - p->s0);
        p->closed = (p->dk == 0.0 && p->dg == 0.0);
        if (!p->closed) {
            p->na = (int)ceil(p->len / 1.0);
            if (p->na < 1) p->na = 1;
            p->da = p->len / p->na;
            p->a0 = nanch;
            nanch += p->na;
        }
    }
    free(cut);
    d->nanch = nanch;
    if (nanch > 0) {
        d->ax = malloc((size_t)nanch * sizeof *d->ax);
        d->ay = malloc((size_t)nanch * sizeof *d->ay);
        if (!d->ax || !d->ay) return RS_E_NOMEM;
    }
    /* Integrate piece by piece: start values are the previous piece's end. */
    double x = d->ox, y = d->oy, z = d->oz, psi = d->opsi;
    for (int i = 0; i < d->np; i++) {
        rs_track_piece *p = &d->p[i];
        p->x0 = x; p->y0 = y; p->z0 = z; p->psi0 = psi;
        if (!p->closed) {
            double ax = x, ay = y;
            for (int j = 0; j < p->na; j++) {
                d->ax[p->a0 + j] = ax;
                d->ay[p->a0 + j] = ay;
                double dx, dy;
                gl_step(p, j * p->da, (j + 1) * p->da, &dx, &dy);
                ax += dx;
                ay += dy;
            }
            x = ax; y = ay;
        } else {
            piece_xy(d, p, p->len, &x, &y);
        }
        z = p->z0 + p->len * (p->g0 + 0.5 * p->dg * p->len);
        psi = piece_psi(p, p->len);
    }
    return RS_OK;
}
