/*
 * rs_wr_geometry.c — rigid wheelset on two rails at zero yaw (rs_wr_geometry.h,
 * docs/contact_geometry.md).
 */
#include "rs_wr_geometry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"

/* The approach at which a side counts as touching during the solve (m); the
 * height is then corrected by TAU / cos(alpha) to zero penetration. */
#define TAU 1e-8
#define TAU_TOL 1e-12      /* |pen - TAU| accepted (m)                    */
#define EDGE_TOL 1e-7      /* a contact this close to a table end is at it */
#define DROP_MAX 0.2       /* lowering beyond this: the profiles never touch */

void rs_wrgeom_defaults(rs_wrgeom_opts *o)
{
    o->r0 = 0.46;
    o->r0_right = NAN;
    o->gauge = 1.435;
    o->flange_back = 1.360;
    o->gauge_y = NAN;
    o->gauge_y_right = NAN;
    o->gauge_drop = 0.014;
    o->two_point_tol = 1e-5;
    o->du = 0.25e-3;
}

/* The gauge-side point of the rail `drop` below its top: the top is
 * top_point if given, else the table's highest point; searched from the top
 * towards the gauge side (smaller y).  Returns 0 and sets *gy, or -1. */
int rs_wrgeom_gauge_point(const rs_profile *r, double drop, double *gy)
{
    int it = 0, hint = 0;
    double yt = r->y[0], zt = r->z[0];
    if (r->has_top) {
        yt = r->top_y;
        zt = r->top_z;
    } else {
        for (it = 1; it < r->n; it++)
            if (r->z[it] > zt) { zt = r->z[it]; yt = r->y[it]; }
    }
    const double target = zt - drop;
    /* first table point on the gauge side of the top that is below target */
    int k = -1;
    for (int i = r->n - 1; i >= 0; i--) {
        if (r->y[i] > yt) continue;
        if (r->z[i] <= target) { k = i; break; }
    }
    if (k < 0 || k + 1 >= r->n) return -1;
    double a = r->y[k], b = r->y[k + 1];
    for (int i = 0; i < 100; i++) {
        const double m = 0.5 * (a + b);
        if (rs_profile_eval(r, m, &hint, NULL, NULL) <= target) a = m; else b = m;
    }
    *gy = 0.5 * (a + b);
    return 0;
}

static const char *side_name(int s) { return s == 0 ? "left" : "right"; }

/* Side s's pair and placement; `which` names the side in messages where the
 * sides differ ("" where one pair is on both). */
static int init_pair(rs_wrgeom *g, int s, const rs_profile *wheel, const rs_profile *rail, const char *which,
                     char *err, size_t errlen)
{
    rs_wrgeom_pair *p = &g->s[s];
    p->wheel = wheel;
    p->rail = rail;
    if (wheel->kind != RS_PROFILE_WHEEL)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "%s%s is not a wheel profile (kind rail): give the wheel first, then the rail", which,
                       wheel->name);
    if (rail->kind != RS_PROFILE_RAIL)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "%s%s is not a rail profile (kind wheel): give the wheel first, then the rail", which,
                       rail->name);
    p->r0 = s == 1 && isfinite(g->o.r0_right) ? g->o.r0_right : g->o.r0;
    if (!(p->r0 > 0.05 && p->r0 < 5))
        return rs_fail(err, errlen, RS_E_VALUE,
                       "%snominal rolling radius %g m: give it in metres (e.g. 0.46)", which, p->r0);
    double gy = s == 1 && isfinite(g->o.gauge_y_right) ? g->o.gauge_y_right : g->o.gauge_y;
    if (!isfinite(gy)) {
        if (rail->has_gauge) {
            gy = rail->gauge_y;
        } else if (rs_wrgeom_gauge_point(rail, g->o.gauge_drop, &gy) != 0) {
            return rs_fail(err, errlen, RS_E_VALUE,
                           "%srail %s has no gauge_point and its table does not reach %g mm below the top on the "
                           "gauge side: add a 'gauge_point Y Z' line to the file, or give the gauge point's y "
                           "(--gauge-point Y, m)", which, rail->name, g->o.gauge_drop * 1e3);
        }
    }
    /* The gauge point is on the gauge face, some 30 mm to the gauge side of
     * the top; one 5 mm or more on its field side is a rail file whose y
     * runs towards the track centre (its wheel would stand on the field
     * side of the head, and the run would go on without saying so). */
    double yt = rail->top_y;
    if (!rail->has_top) {
        double zt = -INFINITY;
        for (int i = 0; i < rail->n; i++)
            if (rail->z[i] > zt) zt = rail->z[i], yt = rail->y[i];
    }
    if (gy > yt + 0.005)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "%srail %s: its gauge point (y = %.1f mm) lies on the field side of its top (y = %.1f mm): "
                       "the file's y runs towards the track centre; mirror the table and its points (y -> -y, then "
                       "sort by increasing y) so that y is positive towards the field side, or correct the gauge "
                       "point", which, rail->name, gy * 1e3, yt * 1e3);
    p->gauge_y = gy;
    p->d = 0.5 * g->o.flange_back - wheel->y[0];
    p->yr0 = 0.5 * g->o.gauge - gy;
    return RS_OK;
}

int rs_wrgeom_init_sides(rs_wrgeom *g, const rs_profile *const wheel[2], const rs_profile *const rail[2],
                         const rs_wrgeom_opts *o, char *err, size_t errlen)
{
    if (!g || !wheel || !rail || !wheel[0] || !wheel[1] || !rail[0] || !rail[1])
        return rs_fail(err, errlen, RS_E_ARG, "NULL argument");
    memset(g, 0, sizeof *g);
    rs_wrgeom_opts d;
    rs_wrgeom_defaults(&d);
    g->o = o ? *o : d;
    if (!(g->o.gauge > 0.3 && g->o.gauge < 3))
        return rs_fail(err, errlen, RS_E_VALUE, "track gauge %g m: give it in metres (e.g. 1.435)", g->o.gauge);
    if (!(g->o.flange_back > 0.2 && g->o.flange_back < g->o.gauge + 0.5))
        return rs_fail(err, errlen, RS_E_VALUE,
                       "flange-back spacing %g m: give it in metres (e.g. 1.360)", g->o.flange_back);
    /* The flange backs stand inside the rails' gauge points on any track
     * (B + two flange thicknesses < G); B >= G puts the wheels on their
     * flanges outside the rails, and the solve would report that as a
     * contact (a swapped --gauge / --flange-back, or metre gauge with the
     * standard-gauge flange back). */
    if (!(g->o.flange_back < g->o.gauge))
        return rs_fail(err, errlen, RS_E_VALUE,
                       "flange-back spacing %g m is not less than the gauge %g m: the flange backs would stand "
                       "outside the rails' gauge points; check --gauge and --flange-back (standard gauge: 1.435 "
                       "and 1.360; the flange back plus both flange thicknesses must be less than the gauge)",
                       g->o.flange_back, g->o.gauge);
    if (!(g->o.two_point_tol > 0) || !(g->o.du > 0))
        return rs_fail(err, errlen, RS_E_VALUE, "two-point tolerance and grid spacing must be > 0");
    const int same = wheel[0] == wheel[1] && rail[0] == rail[1] && !isfinite(g->o.r0_right) &&
                     !isfinite(g->o.gauge_y_right);
    for (int s = 0; s < 2; s++) {
        const int rc = init_pair(g, s, wheel[s], rail[s], same ? "" : s == 0 ? "left side: " : "right side: ",
                                 err, errlen);
        if (rc != RS_OK)
            return rc;
    }
    g->h_guess = NAN;
    g->roll_guess = 0;
    return RS_OK;
}

int rs_wrgeom_init(rs_wrgeom *g, const rs_profile *wheel, const rs_profile *rail,
                   const rs_wrgeom_opts *o, char *err, size_t errlen)
{
    const rs_profile *const w[2] = {wheel, wheel}, *const r[2] = {rail, rail};
    return rs_wrgeom_init_sides(g, w, r, o, err, errlen);
}

/* ---- one side --------------------------------------------------------- */

/* The pose of side s (0 left, 1 right) in its rail frame. */
static void side_pose(const rs_wrgeom *g, int s, double y, double phi, double h, double c[3], double a[3])
{
    const double sg = s == 0 ? 1.0 : -1.0, d = g->s[s].d;
    c[0] = 0;
    c[1] = sg * y + d * cos(phi) - g->s[s].yr0;
    c[2] = h + sg * d * sin(phi);
    a[0] = 0;
    a[1] = cos(phi);
    a[2] = sg * sin(phi);
}

/* All patches of side s at the pose; *deep the index of the deepest, -1 none. */
static int side_patches(rs_wrgeom *g, int s, double y, double phi, double h, rs_patch *p, int *n, int *deep)
{
    double c[3], a[3];
    rs_patch_opts po;
    rs_patch_defaults(&po);
    po.r0 = g->s[s].r0;
    po.du = g->o.du;
    side_pose(g, s, y, phi, h, c, a);
    const int rc = rs_patch_find(g->s[s].wheel, g->s[s].rail, c, a, &po, &g->hint[s], p, RS_PATCH_MAX, n);
    if (rc < 0) return rc;
    *deep = -1;
    for (int i = 0; i < *n; i++)
        if (*deep < 0 || p[i].pen > p[*deep].pen) *deep = i;
    return RS_OK;
}

/* The centre height at which side s just touches (zero penetration) for roll
 * phi; *pt the touching patch.  *h_io: start value in, solution out. */
static int side_touch(rs_wrgeom *g, int s, double y, double phi, double *h_io, rs_patch *pt,
                      char *err, size_t errlen)
{
    double h = *h_io, lo = -INFINITY, hi = INFINITY, step = 1e-4;
    const double h_start = h;
    rs_patch p[RS_PATCH_MAX];
    for (int it = 0; it < 300; it++) {
        int n = 0, k = -1;
        const int rc = side_patches(g, s, y, phi, h, p, &n, &k);
        if (rc < 0) return rs_fail(err, errlen, rc, "contact search failed (%s)", rs_status_name(rc));
        if (k < 0) {                       /* above the rail: lower it */
            hi = h;
            if (isfinite(lo)) {
                h = 0.5 * (lo + hi);
            } else {
                if (h_start - h > DROP_MAX)
                    return rs_fail(err, errlen, RS_E_VALUE,
                                   "the %s wheel never touches its rail at shift %.3f mm (lowered %.0f mm): the "
                                   "wheel table and the rail table under it do not overlap; check --gauge, "
                                   "--flange-back and that both files have y positive to the field side",
                                   side_name(s), y * 1e3, DROP_MAX * 1e3);
                h -= step;
                step *= 4;
            }
            continue;
        }
        const double f = p[k].pen - TAU;
        const double ca = cos(p[k].alpha);
        if (fabs(f) <= TAU_TOL) {
            *pt = p[k];
            *h_io = h + p[k].pen / ca;
            return RS_OK;
        }
        if (f > 0) lo = h; else hi = h;
        double hn = h + f / ca;                /* raising by dh reduces pen by dh cos(alpha) */
        if (!(hn > lo && hn < hi) && isfinite(lo) && isfinite(hi)) hn = 0.5 * (lo + hi);
        if (isfinite(lo) && isfinite(hi) && hi - lo < 1e-15) {
            *pt = p[k];
            *h_io = h + p[k].pen / ca;
            return RS_OK;
        }
        h = hn;
    }
    return rs_fail(err, errlen, RS_E_NOCONV, "the %s wheel's touching height did not converge at shift %.3f mm",
                   side_name(s), y * 1e3);
}

static void fill_point(const rs_wrgeom_pair *g, const rs_patch *p, rs_wrgeom_point *q)
{
    int hw = 0, hr = 0;
    q->u_w = p->u_w;
    q->u_r = p->u_r;
    q->z_r = rs_profile_eval(g->rail, p->u_r, &hr, NULL, NULL);
    q->r = g->r0 + rs_profile_eval(g->wheel, p->u_w, &hw, NULL, NULL);
    q->alpha = p->alpha;
}

/* A contact at the end of a table: message naming the table and the fix. */
static int check_edges(const rs_wrgeom *g, int s, double y, const rs_patch *p, char *err, size_t errlen)
{
    const rs_profile *w = g->s[s].wheel, *r = g->s[s].rail;
    const char *side = side_name(s);
    if (p->u_r <= r->y[0] + EDGE_TOL)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "the %s contact at shift %.3f mm lies at the gauge-side end of the rail table (y = %.3f mm): "
                       "the rail table is too narrow for the flange; extend it on the gauge side (smaller y) or "
                       "narrow --shift", side, y * 1e3, r->y[0] * 1e3);
    if (p->u_r >= r->y[r->n - 1] - EDGE_TOL)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "the %s contact at shift %.3f mm lies at the field-side end of the rail table (y = %.3f mm): "
                       "extend the rail table on the field side or narrow --shift", side, y * 1e3,
                       r->y[r->n - 1] * 1e3);
    if (p->u_w <= w->y[0] + EDGE_TOL)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "the %s contact at shift %.3f mm lies at the flange-side end of the wheel table (y = %.3f mm): "
                       "extend the wheel table or narrow --shift", side, y * 1e3, w->y[0] * 1e3);
    if (p->u_w >= w->y[w->n - 1] - EDGE_TOL)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "the %s contact at shift %.3f mm lies at the field-side end of the wheel table (y = %.3f mm): "
                       "extend the wheel table on the field side, check --gauge and --flange-back, or narrow --shift",
                       side, y * 1e3, w->y[w->n - 1] * 1e3);
    return RS_OK;
}

int rs_wrgeom_solve(rs_wrgeom *g, double y, rs_wrgeom_state *st, char *err, size_t errlen)
{
    if (!g || !st || !isfinite(y)) return rs_fail(err, errlen, RS_E_ARG, "NULL argument or non-finite shift");
    memset(st, 0, sizeof *st);
    double hg = isfinite(g->h_guess) ? g->h_guess : 0.5 * (g->s[0].r0 + g->s[1].r0);
    rs_patch pl, pr;
    double phi = g->roll_guess, hl = hg, hr = hg;
    double lo = -INFINITY, hi = INFINITY;      /* F(lo) > 0 > F(hi) */
    double phi_prev = NAN, f_prev = NAN;
    const double dd = g->s[0].d + g->s[1].d;
    int rc;
    for (int it = 0;; it++) {
        if (it == 200) return rs_fail(err, errlen, RS_E_NOCONV,
                                      "the roll angle did not converge at shift %.3f mm (where the wheelset is "
                                      "wedged between the rails, on both flanges, no roll satisfies both: check "
                                      "--gauge and --flange-back, or narrow --shift)", y * 1e3);
        hl = hg;
        hr = hg;
        if ((rc = side_touch(g, 0, y, phi, &hl, &pl, err, errlen)) != RS_OK) return rc;
        if ((rc = side_touch(g, 1, y, phi, &hr, &pr, err, errlen)) != RS_OK) return rc;
        hg = 0.5 * (hl + hr);
        const double f = hl - hr;           /* decreasing in phi, slope ~ -(d_l + d_r) */
        if (fabs(f) < 1e-13) break;
        if (f > 0) lo = phi; else hi = phi;
        if (isfinite(lo) && isfinite(hi) && hi - lo < 1e-15) break;   /* a kink of F at a jump */
        double pn;
        if (isfinite(phi_prev) && f != f_prev)
            pn = phi - f * (phi - phi_prev) / (f - f_prev);
        else
            pn = phi + f / dd;
        if (!(pn > lo && pn < hi)) {
            if (isfinite(lo) && isfinite(hi)) pn = 0.5 * (lo + hi);
            else pn = phi + f / dd;
        }
        phi_prev = phi;
        f_prev = f;
        phi = pn;
    }
    const double h = 0.5 * (hl + hr);
    if ((rc = check_edges(g, 0, y, &pl, err, errlen)) != RS_OK) return rc;
    if ((rc = check_edges(g, 1, y, &pr, err, errlen)) != RS_OK) return rc;
    g->h_guess = h;
    g->roll_guess = phi;
    st->y = y;
    st->z = h;
    st->roll = phi;
    const rs_patch *pt[2] = {&pl, &pr};
    for (int s = 0; s < 2; s++) {
        rs_wrgeom_side *sd = &st->side[s];
        sd->n = 1;
        fill_point(&g->s[s], pt[s], &sd->p[0]);
        /* two-point contact: lowered by the tolerance, does a second patch appear? */
        rs_patch p[RS_PATCH_MAX];
        int n = 0, k = -1;
        rc = side_patches(g, s, y, phi, h - g->o.two_point_tol, p, &n, &k);
        if (rc < 0) return rs_fail(err, errlen, rc, "contact search failed (%s)", rs_status_name(rc));
        if (n >= 2) {
            int other = -1;
            double far = -1;
            for (int i = 0; i < n; i++) {
                const double dist = fabs(p[i].u_w - pt[s]->u_w);
                if (dist > far) { far = dist; other = i; }
            }
            sd->n = 2;
            fill_point(&g->s[s], &p[other], &sd->p[1]);
        }
    }
    st->dr = st->side[0].p[0].r - st->side[1].p[0].r;
    return RS_OK;
}

/* ---- inclination ------------------------------------------------------- */

int rs_wrgeom_incline_rail(const rs_profile *in, double n, rs_profile *out, char *err, size_t errlen)
{
    if (!in || !out) return rs_fail(err, errlen, RS_E_ARG, "NULL argument");
    memset(out, 0, sizeof *out);
    if (!(n >= 5 && n <= 1000))
        return rs_fail(err, errlen, RS_E_VALUE,
                       "inclination 1:%g: give 1:N with N from 5 to 1000 (e.g. 1:40)", n);
    int hint = 0;
    double dz = 0;
    (void)rs_profile_eval(in, 0.0, &hint, &dz, NULL);
    if (fabs(dz) > 1e-4)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "rail %s already slopes 1:%.0f at its origin, so it carries an inclination: leave "
                       "--inclination out (the shipped 60e1_1in40.prf and 60e1_1in20.prf are inclined)",
                       in->name, fabs(1 / dz));
    const double th = atan(1.0 / n), c = cos(th), s = sin(th);
    const size_t cap = (size_t)in->n * 64 + 512;
    char *buf = malloc(cap);
    if (!buf) return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    size_t len = 0;
    len += (size_t)snprintf(buf + len, cap - len, "railsym-profile 1\nname %.40s_1in%.0f\nkind rail\nunits m\n",
                            in->name, n);
    if (in->has_gauge)
        len += (size_t)snprintf(buf + len, cap - len, "gauge_point %.17g %.17g\n",
                                c * in->gauge_y - s * in->gauge_z, s * in->gauge_y + c * in->gauge_z);
    if (in->has_top)
        len += (size_t)snprintf(buf + len, cap - len, "top_point %.17g %.17g\n",
                                c * in->top_y - s * in->top_z, s * in->top_y + c * in->top_z);
    for (int i = 0; i < in->n; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%.17g %.17g\n",
                                c * in->y[i] - s * in->z[i], s * in->y[i] + c * in->z[i]);
    char e2[256];
    const int rc = rs_profile_parse(out, buf, len, in->name, e2, sizeof e2);
    free(buf);
    if (rc != RS_OK)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "rail %s turned by 1:%g folds back (its gauge face is steeper than the turn allows): "
                       "trim the steep part of the table (%s)", in->name, n, e2);
    return RS_OK;
}
