/*
 * test_patch.c — every contact patch between a wheel and a rail
 * (runtime/contact/rs_patch.h) and the Hertz approach law (rs_hertz.h),
 * each against an answer derived here in closed form.
 *
 * Geometry of the closed forms (no yaw, no roll): the wheel's lowest points
 * form the curve  z = c_z − r0 − z_w(y − c_y)  in the rail frame, so a slice's
 * vertical gap is that curve minus the rail's z_r(y), and the deepest point of
 * a patch is where the two slopes match (the minimum of the vertical gap);
 * the approach along the rail normal is the vertical overlap times cos α.
 *
 * Profiles are built in memory (rs_profile_parse) from their exact shapes,
 * with knots dense enough that the spline's error is below 1e-10 m at the
 * contact points (cones are exact; arcs are sampled every 0.1 mm of arc,
 * 0.02 mm on the small radii, and contacts lie two or more millimetres from a
 * curvature jump).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "rs_hertz.h"
#include "rs_interval.h"
#include "rs_patch.h"
#include "rs_strip_table.h"
#include "rs_test.h"

#define PI 3.14159265358979323846
#define R0 0.46

/* ------------------------------------------------------------ profiles */

typedef struct table {
    int n;
    double y[8000], z[8000];
} table;

static void tpush(table *t, double y, double z)
{
    /* keep y strictly increasing (pieces share their end points) */
    if (t->n > 0 && !(y > t->y[t->n - 1] + 1e-9))
        return;
    ck_assert(t->n < 8000);
    t->y[t->n] = y;
    t->z[t->n] = z;
    t->n++;
}

static void make_profile(rs_profile *p, const char *name, const char *kind, const table *t)
{
    size_t cap = (size_t)t->n * 64 + 256, len = 0;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    len += (size_t)snprintf(text + len, cap - len, "railsym-profile 1\nname %s\nkind %s\nunits m\n",
                            name, kind);
    for (int i = 0; i < t->n; i++)
        len += (size_t)snprintf(text + len, cap - len, "%.17g %.17g\n", t->y[i], t->z[i]);
    char err[256];
    const int rc = rs_profile_parse(p, text, len, name, err, sizeof err);
    ck_assert_msg(rc == RS_OK, "%s", err);
    free(text);
}

/* sorts a table built in decreasing y */
static void treverse(table *t)
{
    for (int i = 0, j = t->n - 1; i < j; i++, j--) {
        double a = t->y[i], b = t->z[i];
        t->y[i] = t->y[j];
        t->z[i] = t->z[j];
        t->y[j] = a;
        t->z[j] = b;
    }
}

/* A conical wheel z_w = −γ u on [−0.06, 0.06]. */
static void cone(rs_profile *p, double gam)
{
    static table t;
    t.n = 0;
    for (int i = 0; i <= 48; i++) {
        const double u = -0.06 + 0.0025 * i;
        tpush(&t, u, -gam * u);
    }
    make_profile(p, "cone", "wheel", &t);
}

/* A circular rail head z = −(R − √(R² − y²)) on [−0.036, 0.036], knots
 * every 0.005 rad. */
static void arc_rail(rs_profile *p, double R)
{
    static table t;
    t.n = 0;
    const double p0 = asin(0.036 / R);
    const int m = (int)ceil(2 * p0 * R / 1e-4);
    for (int i = 0; i <= m; i++) {
        const double ph = -p0 + 2 * p0 * i / m;
        const double y = R * sin(ph);
        tpush(&t, y, -(R - sqrt(R * R - y * y)));
    }
    make_profile(p, "arc", "rail", &t);
}

/* The two-point geometry.
 * Wheel, in h(u) = −z_w(u) (the lowest points' height over c_z − r0):
 *   tread  h = γ u                          u >= UF,
 *   fillet a concave arc of radius RFIL tangent to the tread at UF, turning
 *          the slope h' from γ up to tan β,
 *   flank  h = hfl + tan β (u − ufl)       down to 28 mm below the tread.
 * Rail: a crown arc of radius RC (centre (0, −RC)) for y >= YJ and a gauge
 * corner arc of radius RG tangent to it at YJ, down to a slope of 75°.
 * The fillet (8 mm) is more curved than the corner (13 mm): the contact
 * jumps from the tread to the flank, which is two-point contact. */
#define GAM (1.0 / 40)
#define RC 0.3
#define YJ (-0.015)
#define RG 0.013
#define UF (-0.025)
#define RFIL 0.008
#define BETA (60.0 * PI / 180)

typedef struct twopt {
    double ucf, hcf;       /* fillet centre (wheel coordinates, h up)     */
    double ufl, hfl;       /* fillet end: start of the flank              */
    double cry, crz;       /* rail corner centre                          */
} twopt;

static twopt geom(void)
{
    twopt g;
    /* fillet: h = hcf + √(RFIL² − (u − ucf)²), the upper cap of a circle
     * (concave as seen from the rail); slope −(u − ucf)/√… = γ at UF */
    const double cg = 1 / sqrt(1 + GAM * GAM), sg = GAM * cg;
    g.ucf = UF + RFIL * sg;
    g.hcf = GAM * UF - RFIL * cg;
    g.ufl = g.ucf - RFIL * sin(BETA);
    g.hfl = g.hcf + RFIL * cos(BETA);
    /* corner: centre at the joint's point minus RG along the crown's
     * outward normal */
    const double zj = -(RC - sqrt(RC * RC - YJ * YJ));
    g.cry = YJ - RG * YJ / RC;
    g.crz = zj - RG * (zj + RC) / RC;
    return g;
}

static void twopt_profiles(rs_profile *w, rs_profile *r)
{
    static table t;
    const twopt g = geom();
    /* wheel, built from the flange tip towards the field side */
    t.n = 0;
    const double htip = g.hfl - 0.020;                 /* flank 20 mm lower */
    const double utip = g.ufl - (g.hfl - htip) / tan(BETA);
    const int nf = 80;
    for (int i = 0; i <= nf; i++) {
        const double u = utip + (g.ufl - utip) * i / nf;
        tpush(&t, u, -(g.hfl + tan(BETA) * (u - g.ufl)));
    }
    const double a0 = BETA, a1 = atan(GAM);
    const int na = (int)ceil((a0 - a1) * RFIL / 2e-5);
    for (int i = 0; i <= na; i++) {
        const double ph = a0 + (a1 - a0) * i / na;   /* slope angle */
        const double u = g.ucf - RFIL * sin(ph);
        tpush(&t, u, -(g.hcf + RFIL * cos(ph)));
    }
    for (int i = 1; i <= 170; i++) {
        const double u = UF + 0.0005 * i;
        tpush(&t, u, -GAM * u);
    }
    make_profile(w, "twopt_wheel", "wheel", &t);
    /* rail, from the field side towards the gauge face */
    t.n = 0;
    const double pc = asin(0.036 / RC), pj = asin(YJ / RC);
    const int nc = (int)ceil((pc - pj) * RC / 1e-4);
    /* built in decreasing y, reversed at the end */
    for (int i = 0; i <= nc; i++) {
        const double ph = pc + (pj - pc) * i / nc;     /* from +0.036 to YJ */
        t.y[t.n] = RC * sin(ph);
        t.z[t.n] = -(RC - RC * cos(ph));
        t.n++;
    }
    const double q0 = -pj, q1 = 75.0 * PI / 180;      /* corner slope angles */
    const int nq = (int)ceil((q1 - q0) * RG / 2e-5);
    for (int i = 1; i <= nq; i++) {
        const double q = q0 + (q1 - q0) * i / nq;
        t.y[t.n] = g.cry - RG * sin(q);
        t.z[t.n] = g.crz + RG * cos(q);
        t.n++;
    }
    treverse(&t);
    make_profile(r, "twopt_rail", "rail", &t);
}

/* The rail crown's height and the tread contact: slope of the crown = γ at
 * ys = −γ RC/√(1+γ²); the wheel touches there when
 * c_z = r0 + z_r(ys) − γ (ys − c_y). */
static double tread_ys(void) { return -GAM * RC / sqrt(1 + GAM * GAM); }
static double crown(double y) { return -(RC - sqrt(RC * RC - y * y)); }
static double tread_cz(double cy, double delta)
{
    const double ys = tread_ys();
    return R0 + crown(ys) - GAM * (ys - cy) - delta;
}

static int find(const rs_profile *w, const rs_profile *r, double cx, double cy, double cz,
                double psi, rs_patch *p, int *n)
{
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    rs_patch_hint h = {.wheel = 0, .rail = 0};
    const double c[3] = {cx, cy, cz}, a[3] = {-sin(psi), cos(psi), 0};
    return rs_patch_find(w, r, c, a, &o, &h, p, RS_PATCH_MAX, n);
}

/* Two patch results the same bit for bit: every field, and the quadrature
 * nodes the patch has (rs_patch.nn; the rest of the array is not output). */
static int same_patch(const rs_patch *x, const rs_patch *y)
{
    return memcmp(x, y, offsetof(rs_patch, node)) == 0 &&
           memcmp(x->node, y->node, (size_t)x->nn * sizeof x->node[0]) == 0;
}

static int same_patches(const rs_patch *x, const rs_patch *y, int n)
{
    for (int j = 0; j < n; j++)
        if (!same_patch(&x[j], &y[j]))
            return 0;
    return 1;
}

/* ------------------------------------------------------------ tests */

START_TEST(test_cone_on_arc)
{
    /* cone (taper γ) on an arc head (radius R): the contact is the arc point
     * of slope γ, ys = −γR/√(1+γ²), whatever the shift; lowered by δ from
     * touching, the overlap along the normal is δ cos α, α = atan γ; the
     * patch is the chord of the arc cut by the lowered line: half-length
     * √(2 R d − d²), d = δ cos α, projected on y by cos α, about the foot of
     * the normal through the tangent point, at y = ys + d sin α. */
    const double gams[2] = {1.0 / 40, 1.0 / 20}, R = 0.3;
    for (int gi = 0; gi < 2; gi++) {
        const double gam = gams[gi];
        rs_profile w, r;
        cone(&w, gam);
        arc_rail(&r, R);
        const double ys = -gam * R / sqrt(1 + gam * gam), ca = 1 / sqrt(1 + gam * gam);
        const double zs = -(R - sqrt(R * R - ys * ys));
        const double shifts[4] = {-0.008, -0.002, 0.0, 0.005}, deltas[3] = {1e-6, 1e-5, 1e-4};
        for (int si = 0; si < 4; si++)
            for (int di = 0; di < 3; di++) {
                const double cy = shifts[si], dl = deltas[di];
                const double cz = R0 + zs - gam * (ys - cy) - dl;
                rs_patch p[RS_PATCH_MAX];
                int n;
                ck_assert_int_eq(find(&w, &r, 0, cy, cz, 0, p, &n), RS_OK);
                ck_assert_int_eq(n, 1);
                const double d = dl * ca, half = sqrt(2 * R * d - d * d) * ca;
                const double uw = ys - cy;
                ck_assert_msg(fabs(p[0].u_r - ys) < 1e-8 && fabs(p[0].u_w - uw) < 1e-8,
                              "γ %g y %g δ %g: u_r %.12g (%.12g), u_w %.12g", gam, cy, dl,
                              p[0].u_r, ys, p[0].u_w);
                ck_assert_msg(fabs(p[0].pen - d) < 1e-12 + 1e-9 * d, "pen %.15g, expected %.15g",
                              p[0].pen, d);
                ck_assert(fabs(p[0].alpha - atan(gam)) < 1e-9);
                ck_assert(fabs(p[0].n[1] + gam * ca) < 1e-9 && fabs(p[0].n[2] - ca) < 1e-9);
                ck_assert(fabs(p[0].t[1] - ca) < 1e-9 && fabs(p[0].t[2] - gam * ca) < 1e-9);
                ck_assert(p[0].theta == 0.0 && p[0].pw[0] == 0.0 && p[0].pr[0] == 0.0);
                ck_assert(fabs(p[0].pr[2] - zs) < 1e-9 && fabs(p[0].pw[1] - ys) < 1e-8);
                ck_assert(fabs(p[0].pw[2] - p[0].pr[2] + dl) < 1e-10);
                ck_assert_msg(isinf(p[0].R_wy) || fabs(p[0].R_wy) > 1e6, "R_wy %g", p[0].R_wy);
                ck_assert_msg(fabs(p[0].R_ry - R) < 1e-5 * R, "R_ry %.9g", p[0].R_ry);
                /* Meusnier: ρ / sin(angle(n, axle)) = (r0 − γ u_w) √(1+γ²) */
                const double rwx = (R0 - gam * uw) / ca;
                ck_assert_msg(fabs(p[0].R_wx - rwx) < 1e-9, "R_wx %.12g %.12g", p[0].R_wx, rwx);
                const double mid = uw + d * gam * ca;
                ck_assert_msg(fabs(p[0].u_lo - (mid - half)) < 1e-7 && fabs(p[0].u_hi - (mid + half)) < 1e-7,
                              "bounds %.9g %.9g, expected %.9g %.9g", p[0].u_lo, p[0].u_hi,
                              mid - half, mid + half);
            }
        /* lifted by δ: no patch */
        {
            rs_patch p[RS_PATCH_MAX];
            int n = -1;
            ck_assert_int_eq(find(&w, &r, 0, 0, R0 + zs - gam * ys + 1e-6, 0, p, &n), RS_OK);
            ck_assert_int_eq(n, 0);
        }
        rs_profile_free(&w);
        rs_profile_free(&r);
    }
}
END_TEST

/* Closed-form flange gap for the two-point geometry: the flank (a line of
 * slope tan β in the rail frame) touches the corner arc where the arc's
 * slope is tan β: yf = cry − RG sin β, zf = crz + RG cos β; the vertical gap
 * there is the line's height minus zf. */
static double flange_gap(const twopt *g, double cy, double cz, double *yf)
{
    *yf = g->cry - RG * sin(BETA);
    const double zf = g->crz + RG * cos(BETA);
    const double line = cz - R0 + g->hfl + tan(BETA) * (*yf - cy - g->ufl);
    return line - zf;
}

START_TEST(test_two_point)
{
    rs_profile w, r;
    twopt_profiles(&w, &r);
    const twopt g = geom();
    char err[512];
    ck_assert_msg(rs_patch_check_pair(&w, &r, R0, err, sizeof err) == RS_OK, "%s", err);
    const double dt = 5e-5, ys = tread_ys(), ca = 1 / sqrt(1 + GAM * GAM);
    /* onset: flange_gap(cy, tread_cz(cy)) = 0 is linear in cy (the tread
     * contact lifts the wheel by γ per metre of shift, the flank by tan β) */
    double yf;
    const double g0 = flange_gap(&g, 0, tread_cz(0, dt), &yf);
    const double y_on = g0 / (tan(BETA) - GAM);
    printf("two-point: flange contact begins at c_y = %.6f mm (u_r = %.6f mm, u_w = %.6f mm, flank from %.6f mm)\n", y_on * 1e3,
           yf * 1e3, (yf - y_on) * 1e3, g.ufl * 1e3);
    ck_assert(y_on > 0.0 && y_on < 0.02);
    ck_assert(yf - y_on < g.ufl - 1e-3);   /* on the flank, 1 mm from the fillet */
    const double eps[4] = {-1e-3, -1e-6, 1e-6, 1e-3};
    for (int k = 0; k < 4; k++) {
        const double cy = y_on + eps[k], cz = tread_cz(cy, dt);
        rs_patch p[RS_PATCH_MAX];
        int n;
        ck_assert_int_eq(find(&w, &r, 0, cy, cz, 0, p, &n), RS_OK);
        ck_assert_msg(n == (eps[k] < 0 ? 1 : 2), "shift %g: %d patches", eps[k], n);
        /* the tread patch is the last (largest u_w) */
        const rs_patch *t = &p[n - 1];
        ck_assert_msg(fabs(t->u_r - ys) < 1e-8 && fabs(t->u_w - (ys - cy)) < 1e-8, "tread %.10g %.10g",
                      t->u_r, ys);
        ck_assert(fabs(t->pen - dt * ca) < 1e-12);
        if (n == 2) {
            double yf2;
            const double gap = flange_gap(&g, cy, cz, &yf2);
            const rs_patch *f = &p[0];
            ck_assert_msg(fabs(f->u_r - yf2) < 1e-8 && fabs(f->u_w - (yf2 - cy)) < 1e-8,
                          "flange u_r %.10g expected %.10g", f->u_r, yf2);
            ck_assert_msg(fabs(f->pen + gap * cos(BETA)) < 1e-12 + 1e-7 * fabs(gap),
                          "flange pen %.6g expected %.6g", f->pen, -gap * cos(BETA));
            ck_assert(fabs(f->alpha - BETA) < 1e-6);
            ck_assert_msg(fabs(f->R_ry - RG) < 1e-4 * RG, "R_ry %.9g", f->R_ry);
            ck_assert(f->u_hi < t->u_lo);
        }
    }
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

/* rs_patch_opts.ends = 0 (the elastic contact's setting): every field but
 * u_lo, u_hi bit for bit as with the ends sought, and u_lo, u_hi the grid
 * nodes next to the patch: outside the analytic ends of the cone on the arc
 * (test_cone_on_arc's chord), each within one coarse grid interval (4 du)
 * of them; the two-point patches stay apart.  Yawed poses too. */
static void find_both(const rs_profile *w, const rs_profile *r, double cy, double cz, double psi,
                      rs_patch *p1, rs_patch *p0, int *n)
{
    rs_patch_opts o;
    rs_patch_defaults(&o);
    ck_assert_int_eq(o.ends, 1);
    o.r0 = R0;
    const double c[3] = {0, cy, cz}, a[3] = {-sin(psi), cos(psi), 0};
    int n0 = -1;
    rs_patch_hint h1 = {.wheel = 0, .rail = 0}, h0 = {.wheel = 0, .rail = 0};
    ck_assert_int_eq(rs_patch_find(w, r, c, a, &o, &h1, p1, RS_PATCH_MAX, n), RS_OK);
    o.ends = 0;
    ck_assert_int_eq(rs_patch_find(w, r, c, a, &o, &h0, p0, RS_PATCH_MAX, &n0), RS_OK);
    ck_assert_int_eq(n0, *n);
    for (int j = 0; j < *n; j++) {
        rs_patch x = p0[j];
        x.u_lo = p1[j].u_lo;
        x.u_hi = p1[j].u_hi;
        ck_assert(same_patch(&x, &p1[j]));
        ck_assert_msg(p0[j].u_lo < p1[j].u_lo && p0[j].u_hi > p1[j].u_hi,
                      "bracket [%.9g, %.9g] of [%.9g, %.9g]", p0[j].u_lo, p0[j].u_hi, p1[j].u_lo,
                      p1[j].u_hi);
        ck_assert(p1[j].u_lo - p0[j].u_lo <= 4e-3 + 1e-12 && p0[j].u_hi - p1[j].u_hi <= 4e-3 + 1e-12);
    }
}

START_TEST(test_ends_off)
{
    const double R = 0.3, gam = 1.0 / 40;
    rs_profile w, r;
    cone(&w, gam);
    arc_rail(&r, R);
    const double ys = -gam * R / sqrt(1 + gam * gam), ca = 1 / sqrt(1 + gam * gam);
    const double zs = -(R - sqrt(R * R - ys * ys));
    const double shifts[3] = {-0.004, 0.0, 0.003}, deltas[2] = {1e-5, 1e-4}, psis[2] = {0, 0.01};
    int checked = 0;
    for (int si = 0; si < 3; si++)
        for (int di = 0; di < 2; di++)
            for (int pi = 0; pi < 2; pi++) {
                const double cy = shifts[si], dl = deltas[di];
                rs_patch p1[RS_PATCH_MAX], p0[RS_PATCH_MAX];
                int n;
                find_both(&w, &r, cy, R0 + zs - gam * (ys - cy) - dl, psis[pi], p1, p0, &n);
                ck_assert_int_eq(n, 1);
                if (psis[pi] == 0) { /* the chord: outside it, within 4 du */
                    const double d = dl * ca, half = sqrt(2 * R * d - d * d) * ca;
                    const double mid = ys - cy + d * gam * ca;
                    ck_assert(p0[0].u_lo < mid - half && p0[0].u_lo > mid - half - 4e-3);
                    ck_assert(p0[0].u_hi > mid + half && p0[0].u_hi < mid + half + 4e-3);
                    checked++;
                }
            }
    ck_assert_int_eq(checked, 6);
    rs_profile_free(&w);
    rs_profile_free(&r);
    twopt_profiles(&w, &r);
    const twopt g = geom();
    double yf;
    const double y_on = flange_gap(&g, 0, tread_cz(0, 5e-5), &yf) / (tan(BETA) - GAM);
    rs_patch p1[RS_PATCH_MAX], p0[RS_PATCH_MAX];
    int n;
    find_both(&w, &r, y_on + 1e-3, tread_cz(y_on + 1e-3, 5e-5), 0, p1, p0, &n);
    ck_assert_int_eq(n, 2);
    ck_assert(p0[0].u_hi <= p0[1].u_lo);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

START_TEST(test_yaw_lead)
{
    /* The flank is a cone of half-angle 90° − β about the axle a =
     * (−sin ψ, cos ψ, 0); the rail's corner a cylinder along x.  They touch
     * where the wheel's normal e(θ) − ρ' a has no x part (the cylinder's
     * normal has none): with e_x = −sin θ cos ψ, ρ' = −tan β,
     *   sin θ = −tan β tan ψ,
     * and the contact lies at x = u_w a_x + ρ e_x = sin ψ (ρ tan β − u_w):
     * ahead of the axle (x > 0) for ψ > 0, about r tan β tan ψ. */
    rs_profile w, r;
    twopt_profiles(&w, &r);
    const twopt g = geom();
    double yf;
    const double y_on = flange_gap(&g, 0, tread_cz(0, 5e-5), &yf) / (tan(BETA) - GAM);
    const double psis[4] = {-0.02, -0.005, 0.01, 0.02};
    for (int k = 0; k < 4; k++) {
        const double psi = psis[k];
        rs_patch p[RS_PATCH_MAX];
        int n;
        ck_assert_int_eq(find(&w, &r, 0.0, y_on + 5e-4, tread_cz(y_on, 0.0), psi, p, &n), RS_OK);
        ck_assert(n >= 1);
        const rs_patch *f = &p[0];
        ck_assert_msg(f->alpha > 0.9 && f->alpha < 1.2, "ψ %g: first patch α %g", psi, f->alpha);
        const double rho = R0 + rs_profile_eval(&w, f->u_w, NULL, NULL, NULL);
        const double x = sin(psi) * (rho * tan(BETA) - f->u_w);
        const double th = asin(-tan(BETA) * tan(psi));
        printf("yaw %+.3f: flange contact x = %+.3f mm (cone-cylinder %+.3f mm), theta %+.5f (%+.5f)\n",
               psi, f->pw[0] * 1e3, x * 1e3, f->theta, th);
        ck_assert_msg(f->pw[0] * psi > 0, "lead has the sign of the yaw");
        ck_assert_msg(fabs(f->pw[0] - x) < 0.01 * fabs(x), "x %.6g, closed form %.6g", f->pw[0], x);
        ck_assert_msg(fabs(f->theta - th) < 0.01 * fabs(th), "θ %.6g, %.6g", f->theta, th);
    }
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

/* ---------------------------------------------- continuity on S1002/60E1 */

typedef struct res {
    int rc, n;
    rs_patch p[RS_PATCH_MAX];
} res;

static double depth(const rs_patch *p)
{
    return p->pen / cos(p->alpha);   /* the vertical overlap */
}

static double max_depth(const res *a)
{
    double d = 0;
    for (int i = 0; i < a->n; i++)
        d = fmax(d, depth(&a->p[i]));
    return d;
}

/* The random poses of the search tests: four uniforms in [0, 1] from a
 * linear congruential generator (the same sequence for a seed on every
 * machine) into rnd; from the first three, the wheel centre's lateral cy in
 * [−13, 7] mm, the axle yawed ±20 mrad and rolled ±5 mrad (axis a); the
 * fourth is left to the caller for the height. */
typedef struct random_pose {
    double rnd[4], cy, psi, phi, a[3];
} random_pose;

static void uniforms(unsigned *seed, double rnd[4])
{
    for (int j = 0; j < 4; j++) {
        *seed = *seed * 1103515245u + 12345u;
        rnd[j] = ((*seed >> 8) & 0xffff) / 65535.0;
    }
}

static random_pose draw_pose(unsigned *seed)
{
    random_pose d;
    uniforms(seed, d.rnd);
    d.cy = -0.013 + 0.020 * d.rnd[0];
    d.psi = -0.02 + 0.04 * d.rnd[1];
    d.phi = -0.005 + 0.01 * d.rnd[2];
    d.a[0] = -sin(d.psi) * cos(d.phi);
    d.a[1] = cos(d.psi) * cos(d.phi);
    d.a[2] = sin(d.phi);
    return d;
}

/* the rigid contact height of S1002 on 60E1 (no yaw) by brute force */
static double rigid_cz(const rs_profile *w, const rs_profile *r, double cy)
{
    double gmin = INFINITY;
    int hw = 0, hr = 0;
    for (double u = w->y[0]; u <= w->y[w->n - 1]; u += 2e-5) {
        const double y = cy + u;
        if (y < r->y[0] || y > r->y[r->n - 1])
            continue;
        const double gap = -(R0 + rs_profile_eval(w, u, &hw, NULL, NULL)) - rs_profile_eval(r, y, &hr, NULL, NULL);
        if (gap < gmin)
            gmin = gap;
    }
    return -gmin;
}

typedef struct sweep {
    const rs_profile *w, *r;
    double cy0, psi0, cz_at0;
    int what;     /* 0: shift (c_z follows the rigid height), 1: yaw */
} sweep;

static void eval_at(const sweep *s, double v, res *o)
{
    double cy = s->cy0, psi = s->psi0, cz = s->cz_at0;
    if (s->what == 0) {
        cy = v;
        cz = rigid_cz(s->w, s->r, cy) - 5e-5;
    } else {
        psi = v;
    }
    o->rc = find(s->w, s->r, 0, cy, cz, psi, o->p, &o->n);
}

/* Checks one step [v0, v1]: the deepest overlap changes by at most K|Δv|;
 * with the same patch count, every patch's u_w, u_r change by at most
 * KU|Δv|, or the step holds a swap of the deepest point between two minima
 * of equal depth (bisected to 1e-11: the jump stays, the depth is
 * continuous).  Returns the number of swaps. */
static int check_step(const sweep *s, double v0, double v1, const res *a, const res *b, double K,
                      double KU)
{
    const double h = fabs(v1 - v0);
    ck_assert_msg(fabs(max_depth(a) - max_depth(b)) <= K * h + 1e-12,
                  "v %.9g..%.9g: depth %.9g -> %.9g", v0, v1, max_depth(a), max_depth(b));
    if (a->n != b->n)
        return 0;
    int bad = -1;
    for (int i = 0; i < a->n; i++)
        if (fabs(a->p[i].u_w - b->p[i].u_w) > KU * h || fabs(a->p[i].u_r - b->p[i].u_r) > KU * h)
            bad = i;
    if (bad < 0)
        return 0;
    /* bisect towards the jump */
    double lo = v0, hi = v1;
    res A = *a, B = *b;
    for (int it = 0; it < 60 && hi - lo > 1e-11; it++) {
        const double m = 0.5 * (lo + hi);
        res M;
        eval_at(s, m, &M);
        ck_assert_int_eq(M.rc, RS_OK);
        int left = M.n != A.n;
        if (!left)
            for (int i = 0; i < A.n; i++)
                if (fabs(A.p[i].u_w - M.p[i].u_w) > KU * (m - lo))
                    left = 1;
        if (left) {
            hi = m;
            B = M;
        } else {
            lo = m;
            A = M;
        }
    }
    if (A.n != B.n)
        return 0;   /* the jump was a change of patch count */
    for (int i = 0; i < A.n; i++)
        ck_assert_msg(fabs(depth(&A.p[i]) - depth(&B.p[i])) < 1e-9,
                      "v %.12g: patch %d jumps from u_w %.9g to %.9g with depth %.9g -> %.9g", lo, i,
                      A.p[i].u_w, B.p[i].u_w, depth(&A.p[i]), depth(&B.p[i]));
    return 1;
}

START_TEST(test_continuity_s1002)
{
    rs_profile w, r;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, "vehicles/profiles/s1002.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, "vehicles/profiles/60e1_1in40.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_patch_check_pair(&w, &r, R0, err, sizeof err) == RS_OK, "%s", err);
    /* the centred wheel: taping line 750 mm from the track centre, rail
     * origin 1435/2 + 35.5 mm (its gauge point at y = −35.5 mm) */
    const double cy_c = -0.003;
    sweep s = {&w, &r, cy_c, 0, 0, 0};
    const int N = 2000;
    const double h = 0.020 / N;
    res a, b;
    int swaps = 0, two = 0;
    eval_at(&s, cy_c - 0.010, &a);
    for (int i = 1; i <= N; i++) {
        const double v0 = cy_c - 0.010 + (i - 1) * h, v1 = v0 + h;
        eval_at(&s, v1, &b);
        ck_assert_msg(b.rc == RS_OK && b.n >= 1, "shift %g: rc %d, %d patches", v1 - cy_c, b.rc, b.n);
        two += b.n >= 2;
        swaps += check_step(&s, v0, v1, &a, &b, 10.0, 200.0);
        a = b;
    }
    printf("S1002/60E1 shift sweep: %d steps, %d with two patches, %d swaps of a deepest point\n", N,
           two, swaps);
    ck_assert(two > 0);
    /* yaw at a few shifts, the height of the unyawed rigid contact */
    const double shifts[4] = {-0.008, 0.0, 0.004, 0.0075};
    for (int k = 0; k < 4; k++) {
        sweep y = {&w, &r, cy_c + shifts[k], 0, rigid_cz(&w, &r, cy_c + shifts[k]) - 5e-5, 1};
        const int M = 400;
        const double hy = 0.04 / M;
        eval_at(&y, -0.02, &a);
        for (int i = 1; i <= M; i++) {
            const double v0 = -0.02 + (i - 1) * hy, v1 = v0 + hy;
            eval_at(&y, v1, &b);
            ck_assert_msg(b.rc == RS_OK && b.n >= 1, "yaw %g: rc %d, %d patches", v1, b.rc, b.n);
            swaps += check_step(&y, v0, v1, &a, &b, 10.0, 200.0);
            a = b;
        }
    }
    /* the whole flangeway × yaw: never a failure, always in contact */
    for (int i = 0; i <= 40; i++) {
        const double cy = cy_c - 0.010 + 0.0005 * i, cz = rigid_cz(&w, &r, cy) - 5e-5;
        for (int k = -4; k <= 4; k++) {
            rs_patch p[RS_PATCH_MAX];
            int n;
            const int rc = find(&w, &r, 0, cy, cz, 0.005 * k, p, &n);
            ck_assert_msg(rc == RS_OK && n >= 1, "shift %g yaw %g: rc %d, %d patches", cy - cy_c, 0.005 * k, rc, n);
        }
    }
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST


/* The deepest overlap of any pose, by brute force: every 25 µm of u, and
 * over θ by golden section on [−0.3, 0.3] (the slice's gap is unimodal
 * there), only rail points inside the rail table; the wheel point is
 * c + u a + ρ (cos θ d + sin θ a × d), d the unit vector of the slice's
 * plane pointing down. */
/* The vertical overlap of slice u (the rail's height over the wheel's
 * lowest point of the slice, over θ by golden section; -1 when that point
 * is off the rail table); *zr1 (may be NULL) the rail's slope under it. */
static double brute_slice(const rs_profile *w, const rs_profile *r, const double c[3], const double a[3], double u,
                          double *zr1)
{
    const double s = sqrt(1 - a[2] * a[2]);
    const double d[3] = {a[2] * a[0] / s, a[2] * a[1] / s, -s};
    const double f[3] = {a[1] * d[2] - a[2] * d[1], a[2] * d[0] - a[0] * d[2], a[0] * d[1] - a[1] * d[0]};
    const double rho = R0 + rs_profile_eval(w, u, NULL, NULL, NULL);
    double lo = -0.3, hi = 0.3;
    const double gr = 0.5 * (sqrt(5.0) - 1);
    double gap_at[2], th[2];
    for (int it = 0; it < 60; it++) {
        th[0] = hi - gr * (hi - lo);
        th[1] = lo + gr * (hi - lo);
        for (int k = 0; k < 2; k++) {
            const double y = c[1] + u * a[1] + rho * (cos(th[k]) * d[1] + sin(th[k]) * f[1]);
            const double z = c[2] + u * a[2] + rho * (cos(th[k]) * d[2] + sin(th[k]) * f[2]);
            const double yc = fmin(fmax(y, r->y[0]), r->y[r->n - 1]);
            gap_at[k] = z - rs_profile_eval(r, yc, NULL, NULL, NULL) + 1e3 * fabs(y - yc);
        }
        if (gap_at[0] < gap_at[1])
            hi = th[1];
        else
            lo = th[0];
    }
    const double t = 0.5 * (lo + hi);
    const double y = c[1] + u * a[1] + rho * (cos(t) * d[1] + sin(t) * f[1]);
    const double z = c[2] + u * a[2] + rho * (cos(t) * d[2] + sin(t) * f[2]);
    if (y < r->y[0] || y > r->y[r->n - 1])
        return -1;
    return rs_profile_eval(r, y, NULL, zr1, NULL) - z;
}

static double brute_depth(const rs_profile *w, const rs_profile *r, const double c[3], const double a[3])
{
    double best = 0;
    for (double u = w->y[0]; u <= w->y[w->n - 1]; u += 2.5e-5)
        best = fmax(best, brute_slice(w, r, c, a, u, NULL));
    return best;
}

START_TEST(test_brute_force)
{
    /* random poses (shift, yaw, roll, height) of the shipped pairs: the
     * deepest patch found is the deepest overlap of the brute force */
    static const char *pairs[3][2] = {{"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf"},
                                      {"vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf"},
                                      {"vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf"}};
    const int pi = _i;
    rs_profile w, r;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, pairs[pi][0], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, pairs[pi][1], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_patch_check_pair(&w, &r, R0, err, sizeof err) == RS_OK, "%s", err);
    unsigned seed = 12345;
    double worst = 0;
    for (int k = 0; k < 24; k++) {
        const random_pose d = draw_pose(&seed);
        const double *rnd = d.rnd, cy = d.cy, psi = d.psi, phi = d.phi, *a = d.a;
        const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) - 2e-4 * rnd[3] + 5e-5};
        rs_patch_opts o;
        rs_patch_defaults(&o);
        o.r0 = R0;
        rs_patch p[RS_PATCH_MAX];
        int n;
        ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o, NULL, p, RS_PATCH_MAX, &n), RS_OK);
        double found = 0;
        for (int i = 0; i < n; i++)
            found = fmax(found, depth(&p[i]));
        const double ref = brute_depth(&w, &r, c, a);
        worst = fmax(worst, fabs(found - ref));
        ck_assert_msg(fabs(found - ref) < 2e-7, "pose %d (y %g, yaw %g, roll %g): deepest %.9g, brute force %.9g",
                      k, cy, psi, phi, found, ref);
    }
    printf("brute force: %s on %s, 24 random poses with yaw and roll, deepest overlap within %.2g m\n", w.name,
           r.name, worst);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

/* The bound tables that let the search skip stretches of the wheel table
 * live in the caller's hint: whatever the hint holds (zeroed, carried over
 * from other poses, spline indices out of range, tables of another pair,
 * the wheel's ranges per coarse interval kept for another grid spacing: du
 * alternates between 1 and 0.7 mm from pose to pose), and without one,
 * every result is bit-identical; over random poses of the
 * shipped pairs (shift, yaw, roll, height, lift-off included) the deepest
 * patch agrees with the brute force. */
START_TEST(test_hint_independent)
{
    static const char *pairs[3][2] = {{"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf"},
                                      {"vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf"},
                                      {"vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf"}};
    const int pi = _i;
    rs_profile w, r, ow, orl;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, pairs[pi][0], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, pairs[pi][1], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&ow, pairs[(pi + 1) % 3][0], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&orl, pairs[(pi + 1) % 3][1], err, sizeof err) == RS_OK, "%s", err);
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    static rs_patch_hint carried, stale;
    memset(&carried, 0, sizeof carried);
    unsigned seed = 777u + (unsigned)pi;
    int contact = 0, two = 0, brute = 0;
    double worst = 0;
    for (int k = 0; k < 1500; k++) {
        const random_pose d = draw_pose(&seed);
        const double *rnd = d.rnd, cy = d.cy, psi = d.psi, phi = d.phi, *a = d.a;
        const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) + 5e-5 - 3e-4 * rnd[3]};
        o.du = k % 3 == 0 ? 0.7e-3 : 1e-3;
        /* the stale hint: tables of another pair, indices out of range */
        memset(&stale, 0, sizeof stale);
        {
            rs_patch p0[RS_PATCH_MAX];
            int n0;
            const double c0[3] = {0.0, -0.003, rigid_cz(&ow, &orl, -0.003) - 5e-5}, a0[3] = {0, 1, 0};
            ck_assert_int_eq(rs_patch_find(&ow, &orl, c0, a0, &o, &stale, p0, RS_PATCH_MAX, &n0), RS_OK);
        }
        stale.wheel = 100000;
        stale.rail = -5;
        rs_patch p1[RS_PATCH_MAX], p2[RS_PATCH_MAX], p3[RS_PATCH_MAX];
        memset(p1, 0, sizeof p1);
        memset(p2, 0, sizeof p2);
        memset(p3, 0, sizeof p3);
        int n1, n2, n3;
        const int r1 = rs_patch_find(&w, &r, c, a, &o, &carried, p1, RS_PATCH_MAX, &n1);
        const int r2 = rs_patch_find(&w, &r, c, a, &o, NULL, p2, RS_PATCH_MAX, &n2);
        const int r3 = rs_patch_find(&w, &r, c, a, &o, &stale, p3, RS_PATCH_MAX, &n3);
        ck_assert_int_eq(r1, RS_OK);
        ck_assert_int_eq(r2, r1);
        ck_assert_int_eq(r3, r1);
        ck_assert_int_eq(n2, n1);
        ck_assert_int_eq(n3, n1);
        ck_assert_msg(same_patches(p1, p2, n1) && same_patches(p1, p3, n1),
                      "pose %d (y %g, yaw %g, roll %g): results depend on the hint", k, cy, psi, phi);
        contact += n1 > 0;
        two += n1 > 1;
        if (k % 50 == 0) {
            double found = 0;
            for (int i = 0; i < n1; i++)
                found = fmax(found, depth(&p1[i]));
            const double ref = brute_depth(&w, &r, c, a);
            worst = fmax(worst, fabs(found - ref));
            brute++;
            ck_assert_msg(fabs(found - ref) < 2e-7, "pose %d (y %g, yaw %g, roll %g): deepest %.9g, brute force %.9g",
                          k, cy, psi, phi, found, ref);
        }
    }
    printf("hint independence: %s on %s, 1500 random poses (%d in contact, %d with 2+ patches) bit-identical with a "
           "carried, a stale and no hint; %d against the brute force within %.2g m\n",
           w.name, r.name, contact, two, brute, worst);
    ck_assert(contact > 100);
    rs_profile_free(&w);
    rs_profile_free(&r);
    rs_profile_free(&ow);
    rs_profile_free(&orl);
}
END_TEST

/* ------------------------------- the convexity proof (opts.convex) */

/* A ripple A sin(2π u / λ) on |u| < 15 mm, faded in and out by cos²(π u /
 * 30 mm): on an arc rail it adds about A (2π/λ)² sin(…) to g'', which then
 * changes sign when that exceeds g'' without it: one patch holds several
 * close minima, and beside the ripple the gap is convex again. */
static double ripple(double u, double A, double lam)
{
    if (fabs(u) >= 0.015)
        return 0.0;
    const double c = cos(PI * u / 0.03);
    return A * c * c * sin(2 * PI * u / lam);
}

/* A cone wheel z_w = −γ u with a ripple (knots every 0.05 mm). */
static void ripple_cone(rs_profile *p, double gam, double A, double lam)
{
    static table t;
    t.n = 0;
    for (int i = 0; i <= 2400; i++) {
        const double u = -0.06 + 5e-5 * i;
        tpush(&t, u, -gam * u + ripple(u, A, lam));
    }
    make_profile(p, "ripple_cone", "wheel", &t);
}

/* A worn, hollow tread z_w = Rw − √(Rw² − u²) (Rw just above the rail's
 * crown radius: conformal, g'' = 1/R − 1/Rw small) with a ripple. */
static void hollow(rs_profile *p, double Rw, double A, double lam)
{
    static table t;
    t.n = 0;
    for (int i = 0; i <= 2400; i++) {
        const double u = -0.06 + 5e-5 * i;
        tpush(&t, u, Rw - sqrt(Rw * Rw - u * u) + ripple(u, A, lam));
    }
    make_profile(p, "hollow", "wheel", &t);
}

/* g(u) = c_z − r0 − z_w(u) − z_r(c_y + u) without yaw and roll: its
 * lowest value over the rail table, every 2 µm, then golden section in
 * the bracket (the deepest point of the closed form). */
static void lowest_gap(const rs_profile *w, const rs_profile *r, double cy, double cz, double *u_min,
                       double *g_min)
{
    double best = INFINITY, ub = 0;
    for (double u = w->y[0]; u <= w->y[w->n - 1]; u += 2e-6) {
        const double y = cy + u;
        if (y < r->y[0] || y > r->y[r->n - 1])
            continue;
        const double g = cz - R0 - rs_profile_eval(w, u, NULL, NULL, NULL) - rs_profile_eval(r, y, NULL, NULL, NULL);
        if (g < best) {
            best = g;
            ub = u;
        }
    }
    double lo = ub - 2e-6, hi = ub + 2e-6;
    const double gr = 0.5 * (sqrt(5.0) - 1);
    for (int it = 0; it < 60; it++) {
        const double x0 = hi - gr * (hi - lo), x1 = lo + gr * (hi - lo);
        const double g0 = cz - R0 - rs_profile_eval(w, x0, NULL, NULL, NULL) - rs_profile_eval(r, cy + x0, NULL, NULL, NULL);
        const double g1 = cz - R0 - rs_profile_eval(w, x1, NULL, NULL, NULL) - rs_profile_eval(r, cy + x1, NULL, NULL, NULL);
        if (g0 < g1)
            hi = x1;
        else
            lo = x0;
    }
    *u_min = 0.5 * (lo + hi);
    *g_min = cz - R0 - rs_profile_eval(w, *u_min, NULL, NULL, NULL) - rs_profile_eval(r, cy + *u_min, NULL, NULL, NULL);
}

typedef struct cvx_stats {
    long nodes_on, nodes_off;   /* grid nodes evaluated, convex on / off   */
    int poses, patches, multi;  /* poses, patches compared, poses with 2+  */
    double du_w, dpen, dends;   /* worst differences                       */
} cvx_stats;

/* One pose with and without the convexity proof, patch ends sought and
 * not: the same status and patches; the ends within twice the refinement
 * tolerance (they are refined from other brackets); the depth within
 * 1e-10 m (each slice's angle is solved from the neighbour's by a bounded
 * Newton, to about 1e-11 m in the gap on a flange yawed by 50 mrad); the
 * deepest point within 1 µm (Newton on g' stops at
 * tol = 1e-8 m, but on a conformal minimum, g'' ≈ 0.1 /m, g' is known only
 * to the slices' own convergence, so either search locates it to about
 * √(2 · 1e-12 / g'') there: the depth is what is defined); the rest to
 * rounding; with ends = 0 still brackets of the ends (a patch may end on a
 * table's end), within one coarse interval. */
static void compare_convex(const rs_profile *w, const rs_profile *r, const double c[3], const double a[3],
                           cvx_stats *st, const char *what, int k)
{
    rs_patch_opts o;
    rs_patch_defaults(&o);
    ck_assert_int_eq(o.convex, 1);
    o.r0 = R0;
    rs_patch on[RS_PATCH_MAX], off[RS_PATCH_MAX], on0[RS_PATCH_MAX];
    int n_on = -1, n_off = -2, n_on0 = -3;
    rs_patch_hint h_on, h_off, h_on0;
    memset(&h_on, 0, sizeof h_on);
    memset(&h_off, 0, sizeof h_off);
    memset(&h_on0, 0, sizeof h_on0);
    const int r_on = rs_patch_find(w, r, c, a, &o, &h_on, on, RS_PATCH_MAX, &n_on);
    o.ends = 0;
    const int r_on0 = rs_patch_find(w, r, c, a, &o, &h_on0, on0, RS_PATCH_MAX, &n_on0);
    o.ends = 1;
    o.convex = 0;
    const int r_off = rs_patch_find(w, r, c, a, &o, &h_off, off, RS_PATCH_MAX, &n_off);
    ck_assert_msg(r_on == r_off && r_on0 == r_off && n_on == n_off && n_on0 == n_off,
                  "%s pose %d: convex on %d patches (status %d), ends off %d (%d), reference %d (%d)", what, k,
                  n_on, r_on, n_on0, r_on0, n_off, r_off);
    ck_assert(h_on.nodes <= h_off.nodes && h_on0.nodes == h_on.nodes);
    st->nodes_on += h_on.nodes;
    st->nodes_off += h_off.nodes;
    st->poses++;
    st->multi += n_off > 1;
    for (int j = 0; j < n_off; j++) {
        const rs_patch *x = &on[j], *y = &off[j];
        const double du_w = fabs(x->u_w - y->u_w), dpen = fabs(x->pen - y->pen);
        const double dends = fmax(fabs(x->u_lo - y->u_lo), fabs(x->u_hi - y->u_hi));
        st->du_w = fmax(st->du_w, du_w);
        st->dpen = fmax(st->dpen, dpen);
        st->dends = fmax(st->dends, dends);
        st->patches++;
        ck_assert_msg(du_w <= 1e-6 && dends <= 2e-8 && dpen <= 1e-10,
                      "%s pose %d patch %d: u_w %.12g (reference %.12g), pen %.12g (%.12g), ends [%.12g, %.12g] "
                      "([%.12g, %.12g])",
                      what, k, j, x->u_w, y->u_w, x->pen, y->pen, x->u_lo, x->u_hi, y->u_lo, y->u_hi);
        ck_assert_msg(fabs(x->alpha - y->alpha) < 1e-6 && fabs(x->u_r - y->u_r) < 1e-6,
                      "%s pose %d patch %d: alpha %.12g (%.12g), u_r %.12g (%.12g), u_w %.12g (%.12g)", what, k,
                      j, x->alpha, y->alpha, x->u_r, y->u_r, x->u_w, y->u_w);
        /* ends off: the rest bit for bit, and the nodes next to the patch */
        rs_patch z = on0[j];
        z.u_lo = x->u_lo;
        z.u_hi = x->u_hi;
        ck_assert(same_patch(&z, x));
        ck_assert_msg(on0[j].u_lo <= x->u_lo && on0[j].u_lo >= x->u_lo - 4e-3 - 1e-12 && on0[j].u_hi >= x->u_hi
                          && on0[j].u_hi <= x->u_hi + 4e-3 + 1e-12,
                      "%s pose %d: bracket [%.9g, %.9g] of [%.9g, %.9g]", what, k, on0[j].u_lo, on0[j].u_hi,
                      x->u_lo, x->u_hi);
    }
}

/* Pairs built to break the rule: a rippled cone on an arc (several minima
 * 2.5 mm apart in one patch, g'' of both signs), a worn hollow tread on
 * the same arc (conformal: g'' ≈ 0.1 /m, wide patches) plain and with a
 * ripple that makes two minima 4 mm apart a fraction of a micrometre
 * apart in depth, the two-point geometry (tread and flank patches a few
 * millimetres apart near the onset), and the shipped pairs, under yaw up
 * to ±50 mrad and roll ±10 mrad: every result as without the proof
 * (compare_convex), and the deepest point of each pose with neither yaw
 * nor roll where the closed form gives it (lowest_gap; minima at the
 * rail table's ends, where the search seeks the end to tol, aside). */
START_TEST(test_convex_skip)
{
    static const char *files[3][2] = {{"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf"},
                                      {"vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf"},
                                      {"vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf"}};
    const int pi = _i;
    rs_profile w, r;
    char err[512];
    const char *what;
    int closed = 0;   /* 1: no yaw or roll in half the poses, checked against lowest_gap */
    if (pi < 3) {
        ck_assert_msg(rs_profile_load(&w, files[pi][0], err, sizeof err) == RS_OK, "%s", err);
        ck_assert_msg(rs_profile_load(&r, files[pi][1], err, sizeof err) == RS_OK, "%s", err);
        what = files[pi][0];
    } else if (pi == 6) {
        twopt_profiles(&w, &r);
        what = "two-point";
    } else {
        if (pi == 3) {
            ripple_cone(&w, 1.0 / 40, 2e-6, 2.5e-3);
            what = "rippled cone";
        } else if (pi == 4) {
            hollow(&w, 0.31, 0.0, 1.0);
            what = "hollow tread";
        } else {
            hollow(&w, 0.31, 1e-7, 4e-3);
            what = "rippled hollow tread";
        }
        arc_rail(&r, 0.3);
        closed = 1;
    }
    cvx_stats st;
    memset(&st, 0, sizeof st);
    unsigned seed = 4242u + (unsigned)pi;
    double worst_closed = 0;
    for (int k = 0; k < 300; k++) {
        double rnd[4];
        uniforms(&seed, rnd);
        const int flat = closed && k % 2 == 0;
        double cy = -0.013 + 0.020 * rnd[0];
        if (pi == 4 || pi == 5)   /* conformal: u_w moves 31 times as far as c_y */
            cy = -6e-4 + 1.2e-3 * rnd[0];
        if (pi == 6) {   /* around the two-point onset */
            const twopt g = geom();
            double yf;
            cy = flange_gap(&g, 0, tread_cz(0, 5e-5), &yf) / (tan(BETA) - GAM) - 2e-3 + 4e-3 * rnd[0];
        }
        const double psi = flat ? 0.0 : -0.05 + 0.1 * rnd[1], phi = flat ? 0.0 : -0.01 + 0.02 * rnd[2];
        const double a[3] = {-sin(psi) * cos(phi), cos(psi) * cos(phi), sin(phi)};
        const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) + 5e-5 - 3.5e-4 * rnd[3]};
        compare_convex(&w, &r, c, a, &st, what, k);
        if (flat) {
            double u_min, g_min;
            lowest_gap(&w, &r, cy, c[2], &u_min, &g_min);
            rs_patch p[RS_PATCH_MAX];
            int n;
            ck_assert_int_eq(find(&w, &r, 0, cy, c[2], 0, p, &n), RS_OK);
            if (g_min < -1e-9 && fabs(cy + u_min) < 0.035) {   /* inside, 1 mm from the rail's ends */
                int deep = -1;
                for (int j = 0; j < n; j++)
                    if (deep < 0 || p[j].pen / cos(p[j].alpha) > p[deep].pen / cos(p[deep].alpha))
                        deep = j;
                ck_assert_msg(deep >= 0, "%s pose %d: no patch, closed form %.3g m deep", what, k, -g_min);
                const double d = p[deep].pen / cos(p[deep].alpha);
                worst_closed = fmax(worst_closed, fabs(d + g_min));
                ck_assert_msg(fabs(d + g_min) < 1e-10 && fabs(p[deep].u_w - u_min) < 1e-6,
                              "%s pose %d: deepest %.12g at u %.9g, closed form %.12g at %.9g", what, k, d,
                              p[deep].u_w, -g_min, u_min);
            } else if (g_min > 1e-9) {
                ck_assert_int_eq(n, 0);
            }
        }
    }
    printf("convexity proof, %s: %d poses (%d with 2+ patches), %d patches as without it: u_w within %.2g m, "
           "ends within %.2g m, pen within %.2g m; grid nodes %ld instead of %ld (%.0f %%)\n",
           what, st.poses, st.multi, st.patches, st.du_w, st.dends, st.dpen, st.nodes_on, st.nodes_off,
           100.0 * st.nodes_on / st.nodes_off);
    if (closed)
        printf("convexity proof, %s: deepest point of the poses without yaw and roll as the closed form's "
               "within %.2g m\n", what, worst_closed);
    ck_assert(st.patches > 100);
    /* the proof saved nodes (the comparison above is not empty) */
    ck_assert(st.nodes_on < st.nodes_off);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

START_TEST(test_deterministic_no_alloc)
{
    rs_profile w, r;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, "vehicles/profiles/s1002.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, "vehicles/profiles/60e1_1in40.prf", err, sizeof err) == RS_OK, "%s", err);
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    const double c[3] = {0.001, 0.0045, rigid_cz(&w, &r, 0.0045) - 1e-4};
    const double a[3] = {-sin(0.013), cos(0.013), 0};
    rs_patch p1[RS_PATCH_MAX], p2[RS_PATCH_MAX];
    memset(p1, 0, sizeof p1);
    memset(p2, 0, sizeof p2);
    int n1, n2;
    rs_patch_hint h1 = {.wheel = 0, .rail = 0}, h2 = {.wheel = 300, .rail = 17};
    alloc_hook_calls = 0;
    alloc_hook_counting = 1;
    const int r1 = rs_patch_find(&w, &r, c, a, &o, &h1, p1, RS_PATCH_MAX, &n1);
    const int r2 = rs_patch_find(&w, &r, c, a, &o, &h2, p2, RS_PATCH_MAX, &n2);
    alloc_hook_counting = 0;
    ck_assert_int_eq(alloc_hook_calls, 0);
    ck_assert_int_eq(r1, RS_OK);
    ck_assert_int_eq(r2, r1);
    ck_assert_int_eq(n1, n2);
    ck_assert(n1 >= 1);
    ck_assert(same_patches(p1, p2, n1));
    /* arguments */
    int n;
    const double bad_a[3] = {0, 1.001, 0}, nan_c[3] = {0, NAN, 0};
    ck_assert_int_eq(rs_patch_find(&w, &r, c, bad_a, &o, NULL, p1, 4, &n), RS_E_ARG);
    ck_assert_int_eq(rs_patch_find(&w, &r, nan_c, a, &o, NULL, p1, 4, &n), RS_E_ARG);
    ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o, NULL, p1, 0, &n), RS_E_ARG);
    ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o, NULL, p1, RS_PATCH_MAX + 1, &n), RS_E_ARG);
    ck_assert_int_eq(rs_patch_find(NULL, &r, c, a, &o, NULL, p1, 4, &n), RS_E_ARG);
    rs_patch_opts o0 = o;
    o0.r0 = 0;
    ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o0, NULL, p1, 4, &n), RS_E_ARG);
    /* max = 1 with two patches: the deeper one, RS_CLAMPED */
    {
        rs_profile tw, tr;
        twopt_profiles(&tw, &tr);
        const twopt g = geom();
        double yf;
        const double y_on = flange_gap(&g, 0, tread_cz(0, 5e-5), &yf) / (tan(BETA) - GAM);
        const double cy = y_on + 1e-3, cz = tread_cz(cy, 5e-5);
        const double c2[3] = {0, cy, cz}, a2[3] = {0, 1, 0};
        rs_patch all[RS_PATCH_MAX], one;
        ck_assert_int_eq(rs_patch_find(&tw, &tr, c2, a2, &o, NULL, all, RS_PATCH_MAX, &n), RS_OK);
        ck_assert_int_eq(n, 2);
        ck_assert_int_eq(rs_patch_find(&tw, &tr, c2, a2, &o, NULL, &one, 1, &n), RS_CLAMPED);
        ck_assert_int_eq(n, 1);
        const int deeper = all[0].pen > all[1].pen ? 0 : 1;
        ck_assert(same_patch(&one, &all[deeper]));
        rs_profile_free(&tw);
        rs_profile_free(&tr);
    }
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

START_TEST(test_check_pair)
{
    rs_profile w, r, a, c;
    char err[512];
    ck_assert(rs_profile_load(&w, "vehicles/profiles/s1002.prf", err, sizeof err) == RS_OK);
    ck_assert(rs_profile_load(&r, "vehicles/profiles/60e1_1in40.prf", err, sizeof err) == RS_OK);
    ck_assert(rs_profile_load(&a, "vehicles/profiles/arc_r300.prf", err, sizeof err) == RS_OK);
    ck_assert(rs_profile_load(&c, "vehicles/profiles/cone_1in40.prf", err, sizeof err) == RS_OK);
    ck_assert_int_eq(rs_patch_check_pair(&w, &r, R0, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_patch_check_pair(&c, &a, R0, err, sizeof err), RS_OK);
    /* S1002's flange (70°) on a bare arc head (7°): rejected */
    ck_assert_int_eq(rs_patch_check_pair(&w, &a, R0, err, sizeof err), RS_E_TABLE);
    ck_assert_msg(strstr(err, "S1002") && strstr(err, "arc_r300") && strstr(err, "gauge face"), "%s", err);
    /* r0 = 4 mm: S1002's tread end (z = −2.6 mm) leaves less than r0/2 */
    ck_assert_int_eq(rs_patch_check_pair(&w, &r, 0.004, err, sizeof err), RS_E_TABLE);
    ck_assert_msg(strstr(err, "radius") != NULL, "%s", err);
    ck_assert_int_eq(rs_patch_check_pair(&w, &r, -1, err, sizeof err), RS_E_ARG);
    ck_assert_int_eq(rs_patch_check_pair(&r, &w, R0, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "kind") != NULL, "%s", err);
    /* a wheel table narrower than the rail head on the field side */
    {
        static table t;
        t.n = 0;
        for (int i = 0; i <= 20; i++)
            tpush(&t, -0.06 + 0.004 * i, 0.0);   /* up to u = 0.02 < 0.036 */
        rs_profile nw;
        make_profile(&nw, "narrow", "wheel", &t);
        ck_assert_int_eq(rs_patch_check_pair(&nw, &a, R0, err, sizeof err), RS_E_TABLE);
        ck_assert_msg(strstr(err, "field side") != NULL, "%s", err);
        rs_profile_free(&nw);
    }
    rs_profile_free(&w);
    rs_profile_free(&r);
    rs_profile_free(&a);
    rs_profile_free(&c);
}
END_TEST

/* ------------------------------------------------------------ Hertz */

/* K(e), E(e) by Gauss-Legendre (20 points) on 64 panels of [0, π/2]. */
static void ellint(double e, double *K, double *E)
{
    static const double x[10] = {0.0765265211334973, 0.2277858511416451, 0.3737060887154195,
                                 0.5108670019508271, 0.6360536807265150, 0.7463319064601508,
                                 0.8391169718222188, 0.9122344282513259, 0.9639719272779138,
                                 0.9931285991850949};
    static const double wt[10] = {0.1527533871307258, 0.1491729864726037, 0.1420961093183820,
                                  0.1316886384491766, 0.1181945319615184, 0.1019301198172404,
                                  0.0832767415767048, 0.0626720483341091, 0.0406014298003869,
                                  0.0176140071391521};
    double k = 0, s = 0;
    const int P = 64;
    const double hw = 0.5 * (PI / 2) / P;
    for (int j = 0; j < P; j++) {
        const double mid = (j + 0.5) * (PI / 2) / P;
        for (int i = 0; i < 10; i++)
            for (int sg = -1; sg <= 1; sg += 2) {
                const double ph = mid + sg * hw * x[i], q = 1 - e * e * sin(ph) * sin(ph);
                k += hw * wt[i] / sqrt(q);
                s += hw * wt[i] * sqrt(q);
            }
    }
    *K = k;
    *E = s;
}

/* Johnson §4.2 (elliptical Hertz pressure p0 √(1 − x²/a² − y²/b²), a >= b,
 * a along the smaller curvature sum S, L the larger):
 *   S = p0 b (K − E) / (E* e² a²),   L = p0 b ((a/b)² E − K) / (E* e² a²),
 *   δ = p0 b K / E*,   N = (2/3) π a b p0,
 * so L/S = ((a/b)² E − K)/(K − E) fixes e (bisection), then
 * a³ = 3 N (K − E) / (2 π S E* e²) and δ follow.  Returns c_H = N/δ^{3/2}. */
static double johnson_ch(double A, double B, double E, double nu)
{
    const double S = fmin(A, B), L = fmax(A, B), Es = E / (2 * (1 - nu * nu)), N = 1e4;
    if (L / S < 1 + 1e-12) {
        /* sphere: δ = (9 N² / (16 R E*²))^{1/3}, 1/R = 2A */
        const double R = 1 / (2 * A);
        const double d = cbrt(9 * N * N / (16 * R * Es * Es));
        return N / pow(d, 1.5);
    }
    double lo = 1e-9, hi = 1 - 1e-15, K, EE;
    for (int it = 0; it < 200; it++) {
        const double e = 0.5 * (lo + hi);
        ellint(e, &K, &EE);
        const double ab2 = 1 / (1 - e * e);
        if ((ab2 * EE - K) / (K - EE) < L / S)
            lo = e;
        else
            hi = e;
    }
    const double e = 0.5 * (lo + hi);
    ellint(e, &K, &EE);
    const double a = cbrt(3 * N * (K - EE) / (2 * PI * S * Es * e * e));
    const double b = a * sqrt(1 - e * e);
    const double p0 = 3 * N / (2 * PI * a * b);
    const double d = p0 * b * K / Es;
    return N / pow(d, 1.5);
}

/* The strip law's patches of the unyawed wheel at (cy, cz) (rs_patch_opts.strips). */
static int strip_patches(const rs_profile *w, const rs_profile *r, double cy, double cz, rs_patch *p)
{
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    o.strips = 1;
    rs_patch_hint h = {.wheel = 0, .rail = 0};
    const double c[3] = {0, cy, cz}, ax[3] = {0, 1, 0};
    int n = 0;
    ck_assert_int_eq(rs_patch_find(w, r, c, ax, &o, &h, p, RS_PATCH_MAX, &n), RS_OK);
    return n;
}

/* The strip law's normal force of patch p, Σ w k(u) √(1 + z_r'²) dv over
 * its nodes (rs_strip_table.h). */
static double strip_force(const rs_patch *p, const rs_strip_table *kt)
{
    double N = 0;
    for (int k = 0; k < p->nn; k++) {
        const rs_patch_node *nd = &p->node[k];
        N += nd->w * rs_strip_stiffness(kt, nd->u) * sqrt(1 + nd->zr1 * nd->zr1) * nd->dv;
    }
    return N;
}

/* The strip law (rs_patch_opts.strips, rs_strip_table.h): a cone of taper
 * 1:20 on an arc head of R 300 mm (the gap parabolic over the slices, the
 * curvatures constant) pressed by dv vertically: N = Σ w k(u) √(1 + z_r'²)
 * dv over the patch's nodes equals Johnson's c_H(A, B) δ^{3/2} with the
 * normal approach δ = dv cos α, A = cos α / (2 ρ) (Meusnier: the cone's
 * circle seen along the normal), B = 1/(2R) (johnson_ch above, the book's
 * relations solved in this file). */
START_TEST(test_strips_hertz_approach)
{
    const double E = 2.1e11, nu = 0.28, R = 0.3, gam = 0.05;
    rs_profile w, r;
    cone(&w, gam);
    arc_rail(&r, R);
    rs_strip_table kt;
    ck_assert_int_eq(rs_strip_table_make(&kt, &w, &r, R0, E, nu), RS_OK);
    const double cys[2] = {0, 0.004}, dvs[3] = {10e-6, 50e-6, 150e-6};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++) {
            rs_patch p[RS_PATCH_MAX];
            ck_assert_int_eq(strip_patches(&w, &r, cys[a], rigid_cz(&w, &r, cys[a]) - dvs[b], p), 1);
            ck_assert_int_eq(p[0].nn, RS_PATCH_NODES);
            const double N = strip_force(&p[0], &kt);
            const double ca = cos(p[0].alpha), rho = R0 - gam * p[0].u_w;
            const double ref = johnson_ch(ca / (2 * rho), 1 / (2 * R), E, nu) * pow(dvs[b] * ca, 1.5);
            printf("strips, cone 1:20 on R 300 mm, y %.0f mm, dv %.0f um: N %.2f N, Johnson %.2f N (%.2e)\n",
                   1e3 * cys[a], 1e6 * dvs[b], N, ref, N / ref - 1);
            ck_assert_msg(fabs(N / ref - 1) < 1e-4, "y %g, dv %g: N %g, Johnson %g", cys[a], dvs[b], N, ref);
        }
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

/* The strip patch's creep ellipse (rs_patch_overlap_curvature).
 * Hertzian overlaps (constant curvatures across the patch): its B equals
 * the profiles' half sum, here the rail arc's 1/(2R) under a cone (no
 * lateral curvature): a 1:20 cone on R 300 mm and a 1:2 cone on R 50 mm,
 * where the contact sits at 26.6° and the overlap's cos³ α matters.
 * S1002 on 60E1 1:40 across the tread (shift −4 … +3 mm, 30 µm below first
 * touch, where S1002's tread curvature changes sign): the Hertz ellipse of
 * the overlap's B at the strips' own N lies inside the overlap (a contact
 * region never leaves the interpenetration region: the half-space's
 * displacements are compressive, Johnson §4.1), and B moves smoothly from
 * one 0.05 mm step of shift to the next; the point's curvatures do
 * neither there (printed; the test asserts that they break both, so that
 * the case keeps its teeth). */
static void overlap_ellipse(const rs_patch *p, const rs_strip_table *kt, double E, double nu, int local,
                            double *B, double *b, double *half)
{
    double A, Bl, cH, a1, b1;
    rs_hertz_curvature_sums(p->R_wx, p->R_wy, INFINITY, p->R_ry, &A, &Bl);
    *B = local ? Bl : rs_patch_overlap_curvature(p);
    ck_assert(rs_hertz_patch_law_sums(A, *B, E, nu, &cH, &a1, &b1) >= 0);
    *b = b1 * cbrt(strip_force(p, kt));
    *half = 0.5 * (p->u_hi - p->u_lo) / cos(p->alpha);
}

START_TEST(test_strips_overlap_curvature)
{
    const double E = 2.1e11, nu = 0.28;
    const double Rs[2] = {0.3, 0.05}, gams[2] = {0.05, 0.5};
    for (int c = 0; c < 2; c++) {
        rs_profile w, r;
        cone(&w, gams[c]);
        arc_rail(&r, Rs[c]);
        const double dvs[3] = {10e-6, 50e-6, 150e-6};
        for (int b = 0; b < 3; b++) {
            rs_patch p[RS_PATCH_MAX];
            ck_assert_int_eq(strip_patches(&w, &r, 0.001, rigid_cz(&w, &r, 0.001) - dvs[b], p), 1);
            /* the arc is a parabola to (y/R)²: its overlap, of half width h
             * along the surface, departs from one by (h/R)²/4 at its ends */
            const double B = rs_patch_overlap_curvature(&p[0]), ref = 1 / (2 * Rs[c]);
            const double h = 0.5 * (p[0].u_hi - p[0].u_lo) / cos(p[0].alpha), tol = 1e-6 + 0.5 * (h / Rs[c]) * (h / Rs[c]);
            printf("overlap curvature, cone %.2f on R %.0f mm (%.1f deg), dv %.0f um: B %.6f 1/m, 1/(2R) %.6f "
                   "(%.1e, bound %.1e)\n",
                   gams[c], 1e3 * Rs[c], p[0].alpha * 180 / PI, 1e6 * dvs[b], B, ref, B / ref - 1, tol);
            ck_assert_msg(fabs(B / ref - 1) < tol, "cone %g dv %g: B %g, 1/(2R) %g", gams[c], dvs[b], B, ref);
        }
        rs_profile_free(&w);
        rs_profile_free(&r);
    }
    ck_assert(isnan(rs_patch_overlap_curvature(&(rs_patch){.nn = 0})));

    rs_profile w, r;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, "vehicles/profiles/s1002.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, "vehicles/profiles/60e1_1in40.prf", err, sizeof err) == RS_OK, "%s", err);
    rs_strip_table kt;
    ck_assert_int_eq(rs_strip_table_make(&kt, &w, &r, R0, E, nu), RS_OK);
    const double cy_c = -0.003; /* the centred wheel (test_continuity_s1002) */
    enum { M = 280 }; /* shifts every 0.025 mm */
    double worst_out[2] = {0, 0}, Bs[2][M + 1];
    for (int i = 0; i <= M; i++) {
        const double sh = -0.004 + 2.5e-5 * i, cy = cy_c + sh;
        rs_patch p[RS_PATCH_MAX];
        const int n = strip_patches(&w, &r, cy, rigid_cz(&w, &r, cy) - 30e-6, p);
        ck_assert_int_ge(n, 1);
        int d = 0; /* the patch with the most overlap */
        for (int j = 1; j < n; j++)
            if (p[j].pen > p[d].pen)
                d = j;
        for (int local = 0; local < 2; local++) {
            double B, b, half;
            overlap_ellipse(&p[d], &kt, E, nu, local, &B, &b, &half);
            Bs[local][i] = fmax(B, 0.5 / p[d].R_wx / RS_HERTZ_CONFORMAL_RATIO); /* the B Hertz gets */
            worst_out[local] = fmax(worst_out[local], b / half);
            if (i % 40 == 0)
                printf("S1002/60E1 shift %+.2f mm, %s: B %8.3f 1/m, b %6.2f mm, overlap half width %6.2f mm\n",
                       1e3 * sh, local ? "point's curvatures" : "overlap          ", B, 1e3 * b, 1e3 * half);
        }
    }
    /* continuity: the largest step of log B over 0.05 mm and over 0.025 mm;
     * a continuous B halves it with the step (Lipschitz), a jump keeps it */
    double jump[2][2] = {{0, 0}, {0, 0}};
    for (int local = 0; local < 2; local++)
        for (int i = 1; i <= M; i++) {
            jump[local][1] = fmax(jump[local][1], fabs(log(Bs[local][i] / Bs[local][i - 1])));
            if (i % 2 == 0)
                jump[local][0] = fmax(jump[local][0], fabs(log(Bs[local][i] / Bs[local][i - 2])));
        }
    printf("S1002/60E1 tread: b / half width at most %.3f (overlap), %.3f (point); B's largest step per 0.05 / "
           "0.025 mm: %.1f / %.1f %% (overlap), %.0f / %.0f %% (point)\n",
           worst_out[0], worst_out[1], 100 * expm1(jump[0][0]), 100 * expm1(jump[0][1]), 100 * expm1(jump[1][0]),
           100 * expm1(jump[1][1]));
    ck_assert_msg(worst_out[0] <= 1, "the overlap's ellipse leaves the overlap: b / half width %g", worst_out[0]);
    ck_assert_msg(jump[0][0] > 1.6 * jump[0][1], "the overlap's B jumps: %g, %g", jump[0][0], jump[0][1]);
    ck_assert(worst_out[1] > 1 && jump[1][0] < 1.6 * jump[1][1]);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

/* The strip law's cheap parts (rs_patch.c: a patch's ends to about
 * 1e-7 m from a cubic start, the nodes' last Newton step by the rail's
 * Taylor series): on random poses of the FEVE and S1002 pairs (shift,
 * yaw, roll, depth as test_hint_independent's), a single patch's ends
 * against the same overlap's ends found to tol (rs_patch_opts.minima,
 * ends = 1), and every node's overlap and rail slope against
 * brute_slice's golden section over θ. */
START_TEST(test_strips_ends_nodes)
{
    static const char *pairs[2][2] = {{"vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf"},
                                      {"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf"}};
    double dend = 0, ddv = 0, dz1 = 0;
    int ends = 0, nodes = 0;
    for (int pi = 0; pi < 2; pi++) {
        rs_profile w, r;
        char err[512];
        ck_assert_msg(rs_profile_load(&w, pairs[pi][0], err, sizeof err) == RS_OK, "%s", err);
        ck_assert_msg(rs_profile_load(&r, pairs[pi][1], err, sizeof err) == RS_OK, "%s", err);
        rs_patch_opts os, om;
        rs_patch_defaults(&os);
        os.r0 = R0;
        om = os;
        os.strips = 1;
        om.minima = 1;
        unsigned seed = 4242u + (unsigned)pi;
        for (int k = 0; k < 300; k++) {
            const random_pose d = draw_pose(&seed);
            const double *rnd = d.rnd, cy = d.cy, psi = d.psi, phi = d.phi, *a = d.a;
            const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) + 5e-5 - 3e-4 * rnd[3]};
            rs_patch ps[RS_PATCH_MAX], pm[RS_PATCH_MAX];
            int ns = 0, nm = 0;
            ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &os, NULL, ps, RS_PATCH_MAX, &ns), RS_OK);
            ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &om, NULL, pm, RS_PATCH_MAX, &nm), RS_OK);
            if (ns == 1 && nm == 1) {
                const double e = fmax(fabs(ps[0].u_lo - pm[0].u_lo), fabs(ps[0].u_hi - pm[0].u_hi));
                ck_assert_msg(e < 1e-6, "%s pose %d (y %g, yaw %g, roll %g): ends [%.9g, %.9g], to tol [%.9g, %.9g]",
                              w.name, k, cy, psi, phi, ps[0].u_lo, ps[0].u_hi, pm[0].u_lo, pm[0].u_hi);
                dend = fmax(dend, e);
                ends += 2;
            }
            for (int q = 0; q < ns; q++)
                for (int i = 0; i < ps[q].nn; i++) {
                    const rs_patch_node *nd = &ps[q].node[i];
                    double z1 = 0;
                    const double dv = brute_slice(&w, &r, c, a, nd->u, &z1);
                    if (!(dv > 0))
                        continue;
                    ck_assert_msg(fabs(nd->dv - dv) < 1e-10, "%s pose %d node %d: dv %.12g, brute force %.12g",
                                  w.name, k, i, nd->dv, dv);
                    ck_assert_msg(fabs(nd->zr1 - z1) < 2e-6, "%s pose %d node %d: z_r' %.9g, brute force %.9g",
                                  w.name, k, i, nd->zr1, z1);
                    ddv = fmax(ddv, fabs(nd->dv - dv));
                    dz1 = fmax(dz1, fabs(nd->zr1 - z1));
                    nodes++;
                }
        }
        rs_profile_free(&w);
        rs_profile_free(&r);
    }
    printf("strips: %d patch ends within %.2g m of the ends to tol; %d nodes' overlap within %.2g m, rail slope "
           "within %.2g of the brute force\n",
           ends, dend, nodes, ddv, dz1);
    ck_assert(ends > 200 && nodes > 2000);
}
END_TEST

/* A yawed flange against the gauge end of the rail table: the slices
 * there solve their lowest point where the rail's slope jumps in
 * curvature (the table's end continues it by its tangent), and Newton
 * cycled across that end — a slice of the two-axle wagon's leading wheel
 * in R 150 m (S1002 on 60E1 1:40, 31 mrad) reported 2.3 mm of overlap
 * where the wheel stood 0.79 mm clear, and the flange force chattered.
 * Over poses of the shipped pairs from tread contact to deep in the
 * flange, yawed up to ±45 mrad: every strip node's overlap equals the
 * brute force's, and is zero where the brute force finds the slice clear;
 * on every eighth pose the deepest patch is the brute force's deepest
 * overlap (no overlap missed). */
START_TEST(test_strips_yawed_flange)
{
    static const char *pairs[3][3] = {
        {"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "S1002 / 60E1 1:40"},
        {"vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf", "FEVE"},
        {"vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf", "cone / arc"}};
    /* the wheel centre's lateral range (m), and the least nodes of slices
     * found clear and in contact near the table's end that the poses must
     * give (the cone's flange never reaches the arc rail's table end) */
    static const double range[3][2] = {{-0.002, 0.008}, {-0.015, 0.015}, {-0.015, 0.015}};
    static const int least_clear[3] = {20, 5, 0}, least_end[3] = {100, 100, 0};
    const int pi = _i;
    rs_profile w, r;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, pairs[pi][0], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, pairs[pi][1], err, sizeof err) == RS_OK, "%s", err);
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    o.ends = 0;      /* as the elastic contact searches */
    o.minima = 1;
    o.strips = 1;
    unsigned seed = 2718u + (unsigned)pi;
    double ddv = 0;
    int nodes = 0, clear = 0, at_end = 0, deep = 0;
    for (int k = 0; k < 400; k++) {
        double rnd[4];
        uniforms(&seed, rnd);
        const double cy = range[pi][0] + (range[pi][1] - range[pi][0]) * rnd[0], psi = -0.045 + 0.090 * rnd[1], phi = -0.005 + 0.01 * rnd[2];
        const double a[3] = {-sin(psi) * cos(phi), cos(psi) * cos(phi), sin(phi)};
        const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) + 5e-5 - 3e-4 * rnd[3]};
        rs_patch p[RS_PATCH_MAX];
        int n = 0;
        ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o, NULL, p, RS_PATCH_MAX, &n), RS_OK);
        double found = 0;
        for (int q = 0; q < n; q++)
            for (int i = 0; i < p[q].nn; i++) {
                const rs_patch_node *nd = &p[q].node[i];
                const double dv = brute_slice(&w, &r, c, a, nd->u, NULL), want = fmax(dv, 0.0);
                ck_assert_msg(fabs(nd->dv - want) < 1e-10,
                              "%s pose %d (y %g, yaw %g, roll %g) node u %.9g (rail y %.9g): dv %.12g, brute force "
                              "%.12g", pairs[pi][2], k, cy, psi, phi, nd->u, nd->pw[1], nd->dv, dv);
                ddv = fmax(ddv, fabs(nd->dv - want));
                found = fmax(found, nd->dv);
                nodes++;
                clear += !(dv > 0);
                at_end += nd->dv > 0 && nd->pw[1] < r.y[0] + 5e-4;
            }
        if (k % 8 == 0) {
            /* the brute force's deepest slice lies in a patch, and no node
             * is deeper than it (to its grid's 25 µm: g'' (12.5 µm)² / 2 is
             * below 1e-8 m for g'' up to 100 /m) */
            double ref = 0, uref = 0;
            for (double u = w.y[0]; u <= w.y[w.n - 1]; u += 2.5e-5) {
                const double dv = brute_slice(&w, &r, c, a, u, NULL);
                if (dv > ref)
                    ref = dv, uref = u;
            }
            int in = ref < 1e-9;
            for (int q = 0; q < n; q++)
                in |= p[q].u_lo <= uref && uref <= p[q].u_hi;
            ck_assert_msg(in && found <= ref + 1e-8, "%s pose %d (y %g, yaw %g, roll %g): deepest slice %.9g m at u "
                          "%.9g in no patch, or a node deeper (%.9g m)", pairs[pi][2], k, cy, psi, phi, ref, uref,
                          found);
            deep += ref >= 1e-9;
        }
    }
    printf("strips, yawed flange, %s: %d nodes (%d of slices the brute force finds clear, %d in contact within "
           "0.5 mm of the rail table's gauge end) within %.2g m of the brute force; the deepest slice of %d poses in a patch\n",
           pairs[pi][2], nodes, clear, at_end, ddv, deep);
    ck_assert(nodes > 3000 && clear >= least_clear[pi] && at_end >= least_end[pi]);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

START_TEST(test_hertz_approach)
{
    const double E = 2.1e11, nu = 0.28, Es = E / (2 * (1 - nu * nu));
    /* sphere on a plane: radius R in both directions, flat rail */
    for (double R = 0.1; R < 1.0; R *= 1.7) {
        double c;
        ck_assert_int_eq(rs_hertz_approach_law(R, R, INFINITY, E, nu, &c), RS_OK);
        const double N = 5e4, d = cbrt(9 * N * N / (16 * R * Es * Es));
        ck_assert_msg(fabs(c * pow(d, 1.5) - N) < 1e-9 * N, "R %g: N %.12g", R, c * pow(d, 1.5));
    }
    /* elliptical: S1002-like tread on a 300 mm head, a flange root on a
     * gauge corner, a cone on a 80 mm arc */
    const double cases[3][3] = {{0.46, -0.33, 0.3}, {0.52, -0.016, 0.013}, {0.46, INFINITY, 0.08}};
    for (int k = 0; k < 3; k++) {
        double c, A, B;
        ck_assert_int_eq(rs_hertz_approach_law(cases[k][0], cases[k][1], cases[k][2], E, nu, &c), RS_OK);
        rs_hertz_curvature_sums(cases[k][0], cases[k][1], INFINITY, cases[k][2], &A, &B);
        const double ref = johnson_ch(A, B, E, nu);
        printf("Hertz approach: radii %g %g %g: c_H %.8g, Johnson %.8g N/m^1.5 (B/A %.4g)\n",
               cases[k][0], cases[k][1], cases[k][2], c, ref, B / A);
        ck_assert_msg(fabs(c - ref) < 1e-7 * ref, "c_H %.12g vs %.12g", c, ref);
    }
    /* the conformal rule: B below A/100 is held there */
    {
        const double Rwx = 0.5, A = 1 / (2 * Rwx), Rry = 0.013;
        /* R_wy giving B = A/100 exactly: 1/R_wy = 2A/100 − 1/R_ry */
        const double Rwy_at = 1 / (2 * A / RS_HERTZ_CONFORMAL_RATIO - 1 / Rry);
        double c_at, c_in, c_neg, c_above;
        ck_assert_int_eq(rs_hertz_approach_law(Rwx, Rwy_at * (1 + 1e-12), Rry, E, nu, &c_above), RS_OK);
        int rc = rs_hertz_approach_law(Rwx, Rwy_at * (1 - 1e-12), Rry, E, nu, &c_at);
        ck_assert_int_eq(rc, RS_CLAMPED);
        ck_assert_int_eq(rs_hertz_approach_law(Rwx, -Rry * 1.0001, Rry, E, nu, &c_in), RS_CLAMPED);
        ck_assert_int_eq(rs_hertz_approach_law(Rwx, -Rry * 0.9, Rry, E, nu, &c_neg), RS_CLAMPED);
        const double ref = johnson_ch(A, A / RS_HERTZ_CONFORMAL_RATIO, E, nu);
        ck_assert_msg(fabs(c_at - ref) < 1e-7 * ref, "%.10g %.10g", c_at, ref);
        ck_assert(c_in == c_at && c_neg == c_at);      /* held: the same constant */
        ck_assert(fabs(c_above - c_at) < 1e-6 * c_at); /* continuous at the threshold */
        /* the held ellipse's shape */
        rs_hertz_ellipse el;
        ck_assert_int_eq(rs_hertz_ellipse_compute(1e5, E, nu, A, A / RS_HERTZ_CONFORMAL_RATIO, &el), RS_OK);
        printf("conformal rule: held ellipse b/a = %.2f, c_H = %.4g N/m^1.5\n", el.b / el.a, c_at);
    }
    /* errors */
    double c;
    ck_assert_int_eq(rs_hertz_approach_law(-0.5, 0.3, 0.3, E, nu, &c), RS_E_ARG);
    ck_assert_int_eq(rs_hertz_approach_law(0.5, NAN, 0.3, E, nu, &c), RS_E_ARG);
    ck_assert_int_eq(rs_hertz_approach_law(0.5, 0.3, 0.3, -E, nu, &c), RS_E_ARG);
    ck_assert_int_eq(rs_hertz_approach_constant(1.0, -1.0, E, nu, &c, NULL, NULL), RS_E_NONHERTZ);
}
END_TEST

/* The lowest vertical gap G(u, θ) = P_z − z_r(P_y) of wheel slice u over
 * the angles θ in [−0.3, 0.3] whose rail point lies on the rail table (a
 * scan every 1 mrad, then golden sections around the lowest sample; +inf
 * when no point lies on it), from the circle's parametrization alone. */
static double slice_min_gap(const rs_profile *w, const rs_profile *r, const double c[3], const double a[3],
                            double u)
{
    const double s = sqrt(1 - a[2] * a[2]);
    const double d[3] = {a[2] * a[0] / s, a[2] * a[1] / s, -s};
    const double f[3] = {a[1] * d[2] - a[2] * d[1], a[2] * d[0] - a[0] * d[2], a[0] * d[1] - a[1] * d[0]};
    const double rho = R0 + rs_profile_eval(w, u, NULL, NULL, NULL);
    double best = INFINITY, tb = 0;
    for (int pass = 0; pass < 2; pass++) {
        const double lo = pass ? tb - 1e-3 : -0.3, step = pass ? 1e-5 : 1e-3;
        for (int k = 0; k <= (pass ? 200 : 600); k++) {
            const double t = lo + k * step;
            const double y = c[1] + u * a[1] + rho * (cos(t) * d[1] + sin(t) * f[1]);
            const double z = c[2] + u * a[2] + rho * (cos(t) * d[2] + sin(t) * f[2]);
            if (y < r->y[0] || y > r->y[r->n - 1])
                continue;
            const double g = z - rs_profile_eval(r, y, NULL, NULL, NULL);
            if (g < best) {
                best = g;
                tb = t;
            }
        }
    }
    return best;
}

/* The interval bound that lets the search skip a stretch of the wheel
 * (rs_patch_interval_clear: every angle's window first, then the narrowest,
 * then the window of the angles not yet excluded) against sampled gaps: over
 * random poses of the shipped pairs near contact (shift, yaw ±20 mrad, roll
 * ±5 mrad) and 4 mm intervals across the wheel table, every interval it
 * proves clear has every sampled slice's lowest gap above 0 over every
 * angle whose rail point is on the table, and it proves most of the
 * intervals away from the contact (a bound that proves nothing would pass
 * the first check). */
START_TEST(test_interval_bound)
{
    static const char *pairs[3][2] = {{"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf"},
                                      {"vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf"},
                                      {"vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf"}};
    const int pi = _i;
    rs_profile w, r;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, pairs[pi][0], err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, pairs[pi][1], err, sizeof err) == RS_OK, "%s", err);
    static rs_patch_hint h;
    memset(&h, 0, sizeof h);
    unsigned seed = 99u + (unsigned)pi;
    int tried = 0, cleared = 0, closest_n = 0;
    double closest = INFINITY;
    for (int k = 0; k < 40; k++) {
        const random_pose d = draw_pose(&seed);
        const double *rnd = d.rnd, cy = d.cy, psi = d.psi, phi = d.phi, *a = d.a;
        const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) + 2e-3 - 2.2e-3 * rnd[3]};
        for (double u0 = w.y[0]; u0 + 4e-3 <= w.y[w.n - 1]; u0 += 4e-3) {
            const double u1 = u0 + 4e-3;
            tried++;
            if (!rs_patch_interval_clear(&w, &r, c, a, R0, &h, u0, u1))
                continue;
            cleared++;
            for (int j = 0; j <= 8; j++) {
                const double g = slice_min_gap(&w, &r, c, a, u0 + j * (u1 - u0) / 8);
                ck_assert_msg(g > 0, "pose %d (y %g, yaw %g, roll %g): [%g, %g] proven clear, but the slice at %g "
                              "reaches %g m below the rail", k, cy, psi, phi, u0, u1, u0 + j * (u1 - u0) / 8, -g);
                if (g < 1e-3) {
                    closest_n++;
                    closest = fmin(closest, g);
                }
            }
        }
    }
    printf("interval bound: %s on %s, %d intervals of 4 mm, %d proven clear, all their sampled gaps positive "
           "(%d slices within 1 mm of the rail, the closest %.3g m)\n",
           w.name, r.name, tried, cleared, closest_n, closest);
    ck_assert(cleared > tried / 2 && closest_n > 0);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

/* rs_patch_hint_prepare makes the hint's bound tables once (fits 1 through
 * any number of searches and prepares of the same pair; a hint of another
 * pair is made again), and searches with a prepared hint give the results
 * of searches without one, bit for bit. */
START_TEST(test_hint_prepare)
{
    rs_profile w, r, ow, orl;
    char err[512];
    ck_assert_msg(rs_profile_load(&w, "vehicles/profiles/feve_wheel.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&r, "vehicles/profiles/feve_rail.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&ow, "vehicles/profiles/s1002.prf", err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&orl, "vehicles/profiles/60e1_1in40.prf", err, sizeof err) == RS_OK, "%s", err);
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    static rs_patch_hint h;
    memset(&h, 0, sizeof h);
    rs_patch_hint_prepare(&h, &w, &r);
    ck_assert_int_eq(h.b.fits, 1);
    rs_patch_hint_prepare(&h, &w, &r);
    rs_patch_hint_prepare(NULL, &w, &r);
    ck_assert_int_eq(h.b.fits, 1);
    int contact = 0;
    for (int k = 0; k < 40; k++) {
        const double cy = -0.012 + 0.0006 * k, psi = 0.004 * sin(k), phi = 0.002 * cos(3 * k);
        const double a[3] = {-sin(psi) * cos(phi), cos(psi) * cos(phi), sin(phi)};
        const double c[3] = {0.0, cy, rigid_cz(&w, &r, cy) - 1e-4};
        rs_patch p1[RS_PATCH_MAX], p2[RS_PATCH_MAX];
        memset(p1, 0, sizeof p1);
        memset(p2, 0, sizeof p2);
        int n1, n2;
        ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o, &h, p1, RS_PATCH_MAX, &n1), RS_OK);
        ck_assert_int_eq(rs_patch_find(&w, &r, c, a, &o, NULL, p2, RS_PATCH_MAX, &n2), RS_OK);
        ck_assert_int_eq(n1, n2);
        ck_assert(same_patches(p1, p2, n1));
        contact += n1 > 0;
    }
    ck_assert_int_eq(h.b.fits, 1);
    ck_assert(contact > 20);
    rs_patch_hint_prepare(&h, &ow, &orl); /* another pair: made again */
    ck_assert_int_eq(h.b.fits, 2);
    printf("hint prepare: bound tables made once for %d searches (%d in contact), results as without a hint\n", 40,
           contact);
    rs_profile_free(&w);
    rs_profile_free(&r);
    rs_profile_free(&ow);
    rs_profile_free(&orl);
}
END_TEST

/* The convexity proof's products with a factor of known sign
 * (rs_interval.h): iv_mul_pos(a, b) for a >= 0 takes two of the four
 * products by b's signs; it must give iv_mul's ends (== : a zero's sign
 * aside) and contain every product x y of points of a and b (checked at the
 * ends and random points, in long double); iv_scale_pos and iv_neg against
 * iv_scale.  Intervals from ends drawn among ±0, tiny, subnormal, huge and
 * random values of every sign (a lower end >= 0 for the first factor).  A
 * shortcut that took the wrong product (a.lo for a.hi when b.lo < 0, or
 * the rule without the sign test) misses at once. */
START_TEST(test_interval_products)
{
    static const double special[] = {0.0, -0.0, 1e-300, 4.9e-324, 1e300, 1.0, 0.5, 3.0, 1e-9, 2.5e7};
    const int ns = (int)(sizeof special / sizeof special[0]);
    unsigned seed = 4242u;
    int checked = 0, mixed = 0;
    for (int k = 0; k < 200000; k++) {
        double e[4];
        for (int j = 0; j < 4; j++) {
            seed = seed * 1103515245u + 12345u;
            const unsigned r = seed >> 8;
            double v = (r & 7) < 3 ? special[(r >> 3) % (unsigned)ns]
                                   : ldexp(((r >> 3) & 0xffff) / 65536.0, (int)((r >> 19) % 40) - 20);
            e[j] = (r & 0x400000u) ? -v : v;
        }
        const iv a = {fmin(fabs(e[0]), fabs(e[1])), fmax(fabs(e[0]), fabs(e[1]))};
        const iv b = {fmin(e[2], e[3]), fmax(e[2], e[3])};
        const iv g = iv_mul(a, b), f = iv_mul_pos(a, b);
        ck_assert_msg(f.lo == g.lo && f.hi == g.hi, "iv_mul_pos [%g, %g] x [%g, %g]: [%g, %g], iv_mul [%g, %g]",
                      a.lo, a.hi, b.lo, b.hi, f.lo, f.hi, g.lo, g.hi);
        const iv gb = iv_mul(b, a);
        ck_assert(gb.lo == g.lo && gb.hi == g.hi);
        for (int t = 0; t < 5; t++) { /* points of a and b: ends and inside */
            seed = seed * 1103515245u + 12345u;
            const double ta = t < 2 ? t : ((seed >> 8) & 0xffff) / 65535.0;
            const double tb = t < 2 ? 1 - t : ((seed >> 12) & 0xffff) / 65535.0;
            long double x = a.lo + ta * ((long double)a.hi - a.lo), y = b.lo + tb * ((long double)b.hi - b.lo);
            x = fminl(fmaxl(x, a.lo), a.hi); /* inside, whatever the sum's rounding */
            y = fminl(fmaxl(y, b.lo), b.hi);
            if (!isfinite((double)x) || !isfinite((double)y))
                continue;
            const long double xy = x * y;
            /* the ends are the products rounded to nearest: within half
             * an ulp of the exact extremes */
            ck_assert(xy >= (long double)f.lo - fabsl((long double)f.lo) * 1.2e-16L - 1e-320L);
            ck_assert(xy <= (long double)f.hi + fabsl((long double)f.hi) * 1.2e-16L + 1e-320L);
        }
        mixed += b.lo < 0 && b.hi > 0;
        const double kpos = fabs(e[2]) > 0 ? fabs(e[2]) : 1.0;
        const iv s1 = iv_scale(kpos, b), s2 = iv_scale_pos(kpos, b);
        ck_assert(s1.lo == s2.lo && s1.hi == s2.hi);
        const iv n1 = iv_scale(-1.0, b), n2 = iv_neg(b);
        ck_assert(n1.lo == n2.lo && n1.hi == n2.hi);
        checked++;
    }
    printf("interval products: %d pairs (a >= 0; %d with b across 0): iv_mul_pos, iv_scale_pos, iv_neg give "
           "iv_mul's and iv_scale's ends and contain every product sampled\n",
           checked, mixed);
    ck_assert(mixed > 1000);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("patch");
    TCase *t = tcase_create("patch");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_cone_on_arc);
    tcase_add_test(t, test_two_point);
    tcase_add_test(t, test_ends_off);
    tcase_add_test(t, test_yaw_lead);
    tcase_add_test(t, test_continuity_s1002);
    tcase_add_loop_test(t, test_brute_force, 0, 3);
    tcase_add_loop_test(t, test_hint_independent, 0, 3);
    tcase_add_loop_test(t, test_convex_skip, 0, 7);
    tcase_add_test(t, test_deterministic_no_alloc);
    tcase_add_test(t, test_check_pair);
    tcase_add_test(t, test_hertz_approach);
    tcase_add_test(t, test_strips_hertz_approach);
    tcase_add_test(t, test_strips_overlap_curvature);
    tcase_add_test(t, test_strips_ends_nodes);
    tcase_add_loop_test(t, test_strips_yawed_flange, 0, 3);
    tcase_add_test(t, test_interval_products);
    tcase_add_test(t, test_hint_prepare);
    tcase_add_loop_test(t, test_interval_bound, 0, 3);
    suite_add_tcase(s, t);
    return s;
}

RS_TEST_MAIN(suite)
