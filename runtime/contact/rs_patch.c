/*
 * rs_patch.c — every contact patch between one wheel and one rail (see
 * rs_patch.h; docs/contact.md "Contact patches (elastic multi-point
 * contact)").
 *
 * Per wheel slice u the wheel is the circle  C(u) + ρ(u) e(θ),
 * C = c + u a, ρ = r0 + z_w(u), e(θ) = cos θ d + sin θ f, where d is the
 * unit vector of the circle's plane pointing down (the lowest point) and
 * f = a × d.  Since d lies in the plane of z and a, f is horizontal, so
 *   P_z(u, θ) = c_z + u a_z − ρ s cos θ,        s = √(1 − a_z²),
 *   P_y(u, θ) = c_y + u a_y + ρ q(θ),           q = d_y cos θ + f_y sin θ,
 * and the vertical gap to the rail (straight along x) is
 *   G(u, θ) = P_z − z_r(P_y).
 * The slice's gap is g(u) = min_θ G, where G_θ = 0, solved as one equation
 * in the rail point's y (eval_full: monotone on a convex rail, warm-started
 * from the neighbouring slice; without yaw θ = 0 exactly), with its
 * derivatives by the envelope theorem
 *   g' = G_u,   g'' = G_uu − G_uθ² / G_θθ   (at θ*(u)).
 * Search: the fixed grid u_k = u_0 + k du over the part of the wheel table
 * whose circles can reach the rail table; every COARSE-th node first, the
 * nodes between two of them only where a lower bound of g is not positive.
 * A COARSE interval whose gap a rigorous bound from the pair's bound tables
 * (clear_interval; per block of each table the wheel's extreme radii and the
 * rail's highest point, in the caller's hint) proves positive is skipped
 * whole: its nodes are not evaluated and nothing is sought across it.
 * A COARSE interval near the rail over which the bound tables prove
 * g'' > 0 (convex_interval, interval arithmetic on g'' = G_uu − G_uθ²/G_θθ)
 * gets no nodes between its ends either: g has one minimum there at most
 * (bracketed by the ends' g') and one root on each side of it, which is
 * all the nodes between would show (opts.convex; 0: every node).
 * Candidates: the local minima of g, bracketed by a sign change of g'
 * (− to +) between two nodes, or by the critical points of the cubic
 * through two nodes' g and g' (a maximum and a minimum in one interval),
 * closed by Newton on g' kept inside the bracket (bisection when a step
 * leaves it); and the edges of the valid slices (the end of the rail
 * table) where g falls towards them.  A patch is a maximal run of slices
 * with g < 0 (candidates joined when every node between them is negative),
 * reported at its deepest candidate; its ends u_lo, u_hi are roots of g by
 * regula falsi.  With opts.minima every negative minimum is a patch with a
 * share of the depth instead (group_minima: the merge tree of the basins,
 * continuous where minima merge, split, swap or are born; issue 20).  The approach along the rail normal is −g cos α (the two
 * points are vertically aligned; the normal distance between the locally
 * parallel surfaces differs from it by O(pen²/R)).
 *
 * Cost: at most GRID_MAX + 1 nodes and GRID_MAX / COARSE + 1 interval
 * bounds and convexity proofs (each over at most RS_PATCH_BLOCKS blocks
 * of each table), CAND_MAX candidates, each evaluation at most Y_ITER rail
 * look-ups; refinement loops bounded by REFINE_ITER, ROOT_ITER, EDGE_ITER.
 * Everything lives on the stack (about 63 KB with the bound tables of a
 * call without a hint).
 */
#include "rs_patch.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "rs_error.h"
#include "rs_hertz.h"
#include "rs_interval.h"

#define GRID_MAX 512         /* grid nodes at most (du grows beyond)        */
#define CAND_MAX 64          /* local minima refined per call at most       */
#define Y_ITER 12            /* Newton steps per slice at most (the bracketed
                                ones converge within 10 on the shipped pairs) */
#define Y_TOL 1e-12          /* m: last Newton step of a slice, not taken   */
#define COARSE 4             /* grid nodes per coarse node                  */
_Static_assert(RS_PATCH_COARSE_MAX == GRID_MAX / COARSE + 1, "rs_patch_bounds holds every coarse interval");
#define FAR_GAP 1e-3         /* m: grid nodes this far above the rail: one
                                Newton step (their values only steer the
                                search; everything reported is exact)       */
#define REFINE_ITER 60       /* safeguarded Newton steps on g' at most      */
#define ROOT_ITER 30         /* Illinois steps per patch bound at most      */
#define EDGE_ITER 60         /* regula falsi steps for a table edge at most */
#define NODE_TAKE 1e-7       /* m: a strip node's slice (and a strip patch
                                end's) ends its Newton at a residual below
                                this (eval_full's take)                   */
#define STRIP_END_TOL 1e-5   /* m: the last Newton step of a strip patch's
                                end, not taken: the end to about 1e-7 m
                                (g''/g' tol²), which moves the patch's
                                force by (1e-7/width)² — its integrand
                                k dv vanishes at the end */

/* eval_full is inlined into its callers, which use a few of its fields */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

typedef struct pose {
    const rs_profile *w, *r;
    double c[3], a[3], d[3], f[3];
    double s, r0, inv_s;
    double wlo, whi, rlo, rhi;      /* the two tables' ranges               */
    double rz_lo, rs_lo, rz_hi, rs_hi;   /* the rail's ends: height, slope  */
    struct spl {                     /* a profile's spline, for sp_eval:     */
        const double *x, *coef;      /*   knots, coefficients                */
        int last, i;                 /*   last segment, the current one      */
        const int *seg;              /*   segment table (rs_patch_bounds)    */
        double x0, k;                /*   first knot, table entries per metre */
    } sw, sr;                        /* wheel, rail                          */
} pose;

/* max and min of finite numbers, inline (fmax and fmin are library calls
 * at -O2 for their NaN rules, which nothing here needs) */
static inline double dmax(double x, double y)
{
    return x > y ? x : y;
}

static inline double dmin(double x, double y)
{
    return x < y ? x : y;
}

/* One slice, everything the patch fields need. */
typedef struct full {
    double u, T;                    /* T = tan θ                             */
    double cs, sn;                  /* cos θ, sin θ                          */
    double pwy;                     /* the wheel point's y (= py to 1e-12)  */
    double g, g1, g2;               /* vertical gap and its u-derivatives   */
    double py, pz, zr, zr1, zr2;    /* rail point and its profile slope     */
    double rho, rho1, rho2;         /* wheel radius and its u-derivatives   */
    int valid;                      /* inside both tables                    */
} full;

/* What the search keeps of a slice (the grid's nodes: small, on the stack). */
typedef struct slice {
    double u, T, g, g1, g2, py;
    int valid;
    unsigned char cl, cr;   /* grid nodes: the stretch to the left / right up
                               to the neighbouring node is proven out of
                               contact (skipped); in valid's padding */
    unsigned char cx;       /* grid nodes: g is proven convex up to the right
                               neighbour (convex_interval; no nodes between) */
} slice;

void rs_patch_defaults(rs_patch_opts *o)
{
    if (!o)
        return;
    o->du = 1e-3;
    o->r0 = 0.0;
    o->tol = 1e-8;
    o->ends = 1;
    o->convex = 1;
    o->minima = 0;
    o->strips = 0;
}

/* The segment of a profile's spline holding u: the last knot at or below
 * u, clamped to [0, last] (rs_spline_find's), from a segment i in [0, last]
 * near it (the one holding the start of u's block): a short linear walk
 * first; beyond it (a block of many knots) a galloping search, steps of 1, 2, 4, ...
 * knots, then bisection, O(log distance), from a prediction: i plus the
 * distance in its own knot spacings (the spacing changes slowly along a
 * profile, so a jump lands within a knot or two).  The segment found is
 * the same whatever the start, so the hint changes the speed only. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int sp_seek(const double *x, int last, double u, int i)
{
    if (u >= x[i + 1]) {                          /* walk up */
        for (int k = 0; k < 3; k++) {
            if (i == last)
                return last;
            i++;
            if (u < x[i + 1])
                return i;
        }
    } else if (u < x[i]) {                        /* walk down */
        for (int k = 0; k < 3; k++) {
            if (i == 0)
                return 0;
            i--;
            if (u >= x[i])
                return i;
        }
    } else {
        return i;                                 /* on it (or NaN) */
    }
    const double k = (u - x[i]) / (x[i + 1] - x[i]);
    if (k > -1e6 && k < 1e6) {
        i += (int)k - (k < 0.0);
        if (i < 0)
            i = 0;
        else if (i > last)
            i = last;
    }
    if (i < last && u >= x[i + 1]) {
        int lo = i + 1, hi = lo + 1, step = 1;   /* x[lo] <= u */
        while (hi <= last && x[hi] <= u) {
            lo = hi;
            step *= 2;
            hi = lo + step;
        }
        if (hi > last + 1)
            hi = last + 1;
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            if (x[mid] <= u)
                lo = mid;
            else
                hi = mid;
        }
        i = lo;
    } else if (i > 0 && u < x[i]) {
        int hi = i, lo = hi - 1, step = 1;        /* u < x[hi] */
        while (lo > 0 && u < x[lo]) {
            hi = lo;
            step *= 2;
            lo = hi - step;
        }
        if (lo < 0)
            lo = 0;
        if (u < x[lo]) {
            i = 0;                                /* below the table */
        } else {
            while (hi - lo > 1) {
                const int mid = lo + (hi - lo) / 2;
                if (x[mid] <= u)
                    lo = mid;
                else
                    hi = mid;
            }
            i = lo;
        }
    }
    return i;
}

/* A profile's spline at u with its derivatives: the arithmetic of
 * rs_spline_eval on the segment that holds u: the current one sp->i when
 * u is still on it (inline), else from the bound tables' segment at u's
 * block (sp_seek, a step or two).  The segment is the same whatever the
 * start, so the start changes the speed only. */
static ALWAYS_INLINE double sp_eval(struct spl *sp, double u, double *d1, double *d2)
{
    const double *x = sp->x;
    int i = sp->i;
    if (!(u >= x[i] && u < x[i + 1])) {
        const double j = (u - sp->x0) * sp->k;
        i = sp_seek(x, sp->last, u,
                    j > 0.0 ? (j < RS_PATCH_SEGS ? sp->seg[(int)j] : sp->last) : 0);
        sp->i = i;
    }
    const double *c = sp->coef + 4 * i;
    const double t = u - x[i];
    *d1 = (3.0 * c[0] * t + 2.0 * c[1]) * t + c[2];
    *d2 = 6.0 * c[0] * t + 2.0 * c[1];
    return ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
}

/* The rail at y, continued beyond its table by the tangents at its ends
 * (no rail is there: such a slice is out of contact, but the slice's
 * equation stays monotone, so its root is unique and Newton finds it). */
static ALWAYS_INLINE double rail_eval(pose *p, double y, double *d1, double *d2)
{
    if (y < p->rlo) {
        *d1 = p->rs_lo;
        *d2 = 0.0;
        return p->rz_lo + p->rs_lo * (y - p->rlo);
    }
    if (y > p->rhi) {
        *d1 = p->rs_hi;
        *d2 = 0.0;
        return p->rz_hi + p->rs_hi * (y - p->rhi);
    }
    return sp_eval(&p->sr, y, d1, d2);
}

/* The slice at u.  The lowest gap over θ is where G_θ = 0:
 *   tan θ = T(z_r') = z_r' f_y / (s + z_r' d_y),
 * at the rail point y = P_y(θ), so with the rail's slope taken at y the
 * slice is one equation in y,
 *   F(y) = y − c_y − u a_y − ρ (d_y + f_y T) / √(1 + T²) = 0,
 *   F'(y) = 1 − ρ z_r'' f_y s (f_y − d_y T) / ((s + z_r' d_y)² (1 + T²)^{3/2}),
 * solved by Newton from the neighbour's T0 (warm start; T = 0 is the
 * circle's lowest point): no trigonometry, one spline evaluation a step,
 * F' = 1 without yaw (the first step is exact then).  F' >= 1 on a convex
 * rail; it is kept >= 0.1 elsewhere.
 *   take > 0 (the strips' nodes): once the residual |F| is below take, the
 * slice is the wheel point at the angle θ just found (from the rail's
 * slope at py) against the rail under it, z_r there by its Taylor series
 * from py (the cubic's third-order term, F³/6 of its third derivative,
 * left out): a step's rail evaluation saved.  That angle is off the
 * slice's lowest point by about z_r'' f_y F / s, so the gap is off by about
 * ρ s (z_r'' f_y F / s)² / 2, below 1e-11 m with take = 1e-7 even on a
 * flank (z_r'' 2000 /m, f_y 0.02).  z_r' is taken at Newton's next rail
 * point, py + step (off the lowest point's by O(F²)): at y = py − F it was
 * off by z_r'' (py − F − y*) ≈ z_r'' e F, 1.6e-4 on S1002's 77° flank
 * (test_patch test_strips_ends_nodes). */
static ALWAYS_INLINE void eval_full(pose *p, double u, double T0, double far, double take, full *o)
{
    double rho1, rho2;
    const double rho = p->r0 + sp_eval(&p->sw, u, &rho1, &rho2);
    const double dy = p->d[1], fy = p->f[1], s = p->s;
    const double cy = p->c[1] + u * p->a[1];
    const double hz = p->c[2] + u * p->a[2], rs = rho * s;   /* axis height, ρ s */
    if (fy == 0.0 || !(fabs(T0) < 10.0))
        T0 = 0.0;
    /* cos θ = b r, sin θ = a r, r = 1/√(a² + b²), with a = z_r' f_y and
     * b = s + z_r' d_y (T = a/b): one square root and two divisions a step */
    double cs = 1.0 / sqrt(1.0 + T0 * T0), sn = T0 * cs;
    double py = cy + rho * (dy * cs + fy * sn), zr = 0, zr1 = 0, zr2 = 0, F = 0, T = T0;
    double ylo = -INFINITY, yhi = INFINITY, flo = 0.0, fhi = 0.0; /* F's sign change */
    int out = 0;
    for (int it = 0;; it++) {
        zr = rail_eval(p, py, &zr1, &zr2);
        const double aa = zr1 * fy;
        double bb = s + zr1 * dy;
        if (bb < 0.1 * s)
            bb = 0.1 * s;
        /* r = 1/√(a² + b²) and 1/F' by their series where the yaw is
         * small (no division on the common path): t = (a/b)² < 1e-3 leaves
         * the series' error below 1e-19; an approximate 1/F' (|e| < 1e-2,
         * error e³) only slows Newton to a rate of 1e-6 a step */
        const double ib = dy == 0.0 ? p->inv_s : 1.0 / bb;
        const double ta = aa * ib, t = ta * ta;
        T = ta;
        double r;
        if (t < 1e-3)
            r = ib * (1.0 - t * (0.5 - t * (0.375 - t * (0.3125 - t * (0.2734375 - t * 0.24609375)))));
        else
            r = 1.0 / sqrt(aa * aa + bb * bb);
        cs = bb * r;
        sn = aa * r;
        F = py - cy - rho * (dy * cs + fy * sn);
        const double e = rho * zr2 * fy * s * (fy * bb - dy * aa) * (r * r * r);
        double step;
        if (fabs(e) < 1e-2)
            step = -F * (1.0 + e * (1.0 + e));
        else
            step = -F / (e < 0.9 ? 1.0 - e : 0.1);
        if (step > 0.005)
            step = 0.005;
        else if (step < -0.005)
            step = -0.005;
        if (take > 0.0 && fabs(F) < take) {
            zr -= F * (zr1 - 0.5 * zr2 * F); /* under the wheel point at θ, y = py − F */
            zr1 += zr2 * step;               /* at Newton's rail point */
            py -= F;
            F = 0.0;
            break;
        }
        if (!(fabs(step) > Y_TOL))
            break;
        if (it == Y_ITER - 1) {
            /* stopped short of the root: the gap where the wheel point at
             * θ stands, an upper bound of the slice's lowest (the rail at
             * py, F away, could show an overlap that is not there) */
            py -= F;
            zr = rail_eval(p, py, &zr1, &zr2);
            F = 0.0;
            break;
        }
        /* far outside the rail table, and staying there: out of contact */
        const double m = 2.0 * fabs(step) + 1e-4;
        if (py < p->rlo - m || py > p->rhi + m) {
            out = 1;
            break;
        }
        /* a grid node far above the rail: one step is enough (the gap is
         * then right to about z_r'' step², far below `far`) */
        if (far > 0.0 && fabs(step) < 1e-4) {
            const double zs = zr + step * (zr1 + 0.5 * zr2 * step);
            if (hz - rs * cs - zs > far) {
                zr = zs;
                zr1 += zr2 * step;
                py += step;
                F = 0.0;
                break;
            }
        }
        /* F rises with y, but its slope jumps where the rail table ends
         * (F' from 1 − e to 1: the tangent has no curvature), and Newton
         * can cycle across that end (the yawed S1002 flange at the 60E1
         * table's gauge end: 0.4 mm either side, never converging).  So the
         * root stays bracketed once F has taken both signs, and a step
         * that leaves the bracket is replaced by the secant of its ends —
         * from the second step on: most slices, warm-started, end at their
         * second, and a cycle is caught a step later. */
        if (it > 0) {
            if (F < 0.0)
                ylo = py, flo = F;
            else
                yhi = py, fhi = F;
            if (ylo < yhi && !(py + step > ylo && py + step < yhi))
                step = ylo - flo * (yhi - ylo) / (fhi - flo) - py;
        }
        py += step;
    }
    const double q = dy * cs + fy * sn, qp = -dy * sn + fy * cs;
    double gtt = rs * cs - zr2 * (rho * qp) * (rho * qp) + zr1 * rho * q;
    if (!(gtt > 0.0))
        gtt = rs;
    const double pz = hz - rs * cs;
    const double b = p->a[1] + rho1 * q;                 /* ∂P_y/∂u */
    const double gu = p->a[2] - rho1 * s * cs - zr1 * b;
    const double guu = -rho2 * s * cs - zr2 * b * b - zr1 * rho2 * q;
    const double gut = rho1 * s * sn - zr2 * b * (rho * qp) - zr1 * rho1 * qp;
    o->u = u;
    o->T = T;
    o->cs = cs;
    o->sn = sn;
    o->g = pz - zr;
    o->g1 = gu;
    o->g2 = guu - gut * gut / gtt;
    o->py = py;
    o->pwy = py - F;
    o->pz = pz;
    o->zr = zr;
    o->zr1 = zr1;
    o->zr2 = zr2;
    o->rho = rho;
    o->rho1 = rho1;
    o->rho2 = rho2;
    o->valid = !out && u >= p->wlo && u <= p->whi && py >= p->rlo && py <= p->rhi;
}

static void eval_slice(pose *p, double u, double T0, slice *o)
{
    full f;
    eval_full(p, u, T0, 0.0, 0.0, &f);
    o->u = f.u;
    o->T = f.T;
    o->py = f.py;
    o->g = f.g;
    o->g1 = f.g1;
    o->g2 = f.g2;
    o->valid = f.valid;
    o->cl = o->cr = o->cx = 0;
}

/* The edge of the valid slices between u_in (valid) and u_out (not): where
 * the rail point P_y(u) crosses the end of the rail table (nodes lie inside
 * the wheel table), nearly linear in u: Illinois' regula falsi on
 * P_y − y_end, kept inside the bracket of valid and invalid slices, to tol;
 * *sl receives the valid end. */
static void find_edge(pose *p, double u_in, double u_out, double tol, double T0, slice *sl)
{
    slice so;
    eval_slice(p, u_in, T0, sl);
    eval_slice(p, u_out, T0, &so);
    const double yend = so.py < p->rlo ? p->rlo : p->rhi;
    double hi = sl->py - yend, ho = so.py - yend;
    int side = 0;
    for (int it = 0; it < EDGE_ITER && fabs(u_out - u_in) > tol; it++) {
        double um = (u_in * ho - u_out * hi) / (ho - hi);
        if (!(um > dmin(u_in, u_out) && um < dmax(u_in, u_out)))
            um = 0.5 * (u_in + u_out);
        slice t;
        eval_slice(p, um, sl->T, &t);
        if (t.valid) {
            u_in = um;
            hi = t.py - yend;
            *sl = t;
            if (side == 1)
                ho *= 0.5;
            side = 1;
        } else {
            u_out = um;
            ho = t.py - yend;
            if (side == -1)
                hi *= 0.5;
            side = -1;
        }
    }
}

/* Local minimum of g in [lo, hi], g'(lo) < 0 <= g'(hi), both valid:
 * Newton on g' from the end with the smaller gap, kept inside the bracket
 * (bisection when a step leaves it or g'' <= 0).  Returns the lowest valid
 * slice seen (near a minimum the lowest is the nearest to it). */
static void refine_min(pose *p, const slice *slo, const slice *shi, double tol, slice *best)
{
    double lo = slo->u, hi = shi->u;
    slice cur = slo->g <= shi->g ? *slo : *shi;
    *best = cur;
    for (int it = 0; it < REFINE_ITER; it++) {
        double un = 0.5 * (lo + hi);
        if (cur.g2 > 0.0) {
            const double nw = cur.u - cur.g1 / cur.g2;
            if (nw > lo && nw < hi)
                un = nw;
        }
        const double step = fabs(un - cur.u);
        slice t;
        eval_slice(p, un, cur.T, &t);
        if (t.valid && t.g1 < 0.0)
            lo = un;
        else
            hi = un;
        if (t.valid) {
            if (t.g < best->g)
                *best = t;
            cur = t;
        }
        if (step <= tol || hi - lo <= tol)
            break;
    }
}

/* A root of g in [ua, ub] where g(ua) >= 0 > g(ub): Newton with g' from
 * um (the secant point where um is NAN), kept inside the bracket (regula
 * falsi when a step leaves it), until a step is below tol; the last step
 * is taken without evaluating its slice (its error is of order
 * g''/g' tol², far below tol).  take: eval_full's (0: every slice to
 * Y_TOL). */
static double find_root(pose *p, double ua, double ga, double ub, double gb, double tol,
                        double T0, double um, double take)
{
    if (isnan(um))
        um = (ua * gb - ub * ga) / (gb - ga);
    for (int it = 0; it < ROOT_ITER && fabs(ub - ua) > tol; it++) {
        if (!(um > dmin(ua, ub) && um < dmax(ua, ub)))
            um = 0.5 * (ua + ub);
        full t;
        eval_full(p, um, T0, 0.0, take, &t);
        const double gm = t.valid ? t.g : 1.0;
        if (gm >= 0.0) {
            ua = um;
            ga = gm;
        } else {
            ub = um;
            gb = gm;
        }
        double un = t.valid && t.g1 != 0.0 ? um - gm / t.g1 : NAN;
        if (!(un > dmin(ua, ub) && un < dmax(ua, ub)))
            un = (ua * gb - ub * ga) / (gb - ga);
        const double step = fabs(un - um);
        um = un;
        if (step <= tol)
            break;
    }
    return um > dmin(ua, ub) && um < dmax(ua, ub) ? um : 0.5 * (ua + ub);
}

/* Over [s0, s1] without a sign change of g' (−, +) at the ends: the
 * cubic p(t) through the ends' g and h g' (t in [0, 1]) has
 *   p'(t) = s0' + (6Δ − 4 s0' − 2 s1') t + (3 s0' + 3 s1' − 6Δ) t².
 * Where it has a local minimum inside, the slices at its critical points
 * are evaluated and a bracket b[0], b[1] with g' from − to + is sought
 * among the ends and those slices.  Returns 1 with the bracket, else 0. */
static int dip_bracket(pose *p, const slice *s0, const slice *s1, slice b[2])
{
    const double h = s1->u - s0->u, d = s1->g - s0->g;
    const double a0 = h * s0->g1, a1 = h * s1->g1;
    const double qa = 3.0 * (a0 + a1) - 6.0 * d, qb = 6.0 * d - 4.0 * a0 - 2.0 * a1, qc = a0;
    double t[2];
    int nt = 0;
    if (fabs(qa) > 1e-300) {
        const double disc = qb * qb - 4.0 * qa * qc;
        if (!(disc > 0.0))
            return 0;
        const double sq = sqrt(disc), qq = -0.5 * (qb + (qb >= 0.0 ? sq : -sq));
        t[0] = qq / qa;
        t[1] = qq != 0.0 ? qc / qq : t[0];
        nt = 2;
    } else if (fabs(qb) > 0.0) {
        t[0] = -qc / qb;
        nt = 1;
    }
    if (nt == 2 && t[0] > t[1]) {
        const double x = t[0];
        t[0] = t[1];
        t[1] = x;
    }
    /* the points: the ends and the critical points inside, in order */
    slice ev[2];
    const slice *pts[4];
    int np = 0, ne = 0, has_min = 0;
    pts[np++] = s0;
    for (int k = 0; k < nt; k++)
        if (t[k] > 1e-6 && t[k] < 1.0 - 1e-6) {
            if (qb + 2.0 * qa * t[k] > 0.0)
                has_min = 1;
            eval_slice(p, s0->u + t[k] * h, s0->T, &ev[ne]);
            pts[np++] = &ev[ne++];
        }
    pts[np++] = s1;
    if (!has_min)
        return 0;
    for (int k = 0; k + 1 < np; k++)
        if (pts[k]->valid && pts[k + 1]->valid && pts[k]->g1 < 0.0 && pts[k + 1]->g1 >= 0.0) {
            b[0] = *pts[k];
            b[1] = *pts[k + 1];
            return 1;
        }
    return 0;
}

typedef struct cand {
    slice s;
    int node;         /* the grid node at or left of s.u */
} cand;

/* The patch fields at the deepest slice. */
static void fill_patch(const pose *p, const full *sl, rs_patch *o)
{
    const double cs = 1.0 / sqrt(1.0 + sl->T * sl->T), sn = sl->T * cs;
    const double k = sqrt(1.0 + sl->zr1 * sl->zr1);
    memset(o, 0, offsetof(rs_patch, node)); /* the nodes: only where o->nn says */
    o->u_w = sl->u;
    o->u_r = sl->py;
    o->theta = atan(sl->T);
    o->pen = -sl->g / k;
    o->pw[0] = p->c[0] + sl->u * p->a[0] + sl->rho * (p->d[0] * cs + p->f[0] * sn);
    o->pw[1] = sl->pwy;
    o->pw[2] = sl->pz;
    o->pr[0] = o->pw[0];
    o->pr[1] = sl->py;
    o->pr[2] = sl->zr;
    o->n[0] = 0.0;
    o->n[1] = -sl->zr1 / k;
    o->n[2] = 1.0 / k;
    o->t[0] = 0.0;
    o->t[1] = 1.0 / k;
    o->t[2] = sl->zr1 / k;
    o->alpha = atan(sl->zr1);
    /* Meusnier: distance from the axle over the sine of the angle between
     * the normal and the axle */
    const double na = o->n[1] * p->a[1] + o->n[2] * p->a[2];
    const double sn2 = 1.0 - na * na;
    o->R_wx = sn2 > 0.0 ? sl->rho / sqrt(sn2) : INFINITY;
    o->R_wy = rs_hertz_profile_radius(sl->rho1, sl->rho2);
    o->R_ry = rs_hertz_profile_radius(sl->zr1, sl->zr2);
}

/* Grid node k (the last one sits on the wheel table's end). */
static void grid_node(pose *p, int k, int K, double du, double T0, slice *o)
{
    const double u = k == K ? p->whi : p->wlo + k * du;
    full f;
    eval_full(p, u, T0, FAR_GAP, 0.0, &f);
    o->u = f.u;
    o->T = f.T;
    o->g = f.g;
    o->g1 = f.g1;
    o->g2 = f.g2;
    o->py = f.py;
    o->valid = f.valid;
    o->cl = o->cr = o->cx = 0;
}

/* ------------------------------------------------------- bound tables */

#define CLEAR_EPS 1e-9   /* m: a stretch is skipped when its gap's lower
                            bound exceeds this (rounding: far below)       */

/* Lowest and highest value of segment i's cubic over the segment (its ends
 * and the critical points inside), widened by a rounding allowance. */
static void seg_range(const rs_spline *sp, int i, double *lo, double *hi)
{
    const double *c = sp->coef + 4 * i;
    const double h = sp->x[i + 1] - sp->x[i];
    double t[4] = {0.0, h, 0.0, 0.0};
    int nt = 2;
    /* f' = 3a t² + 2b t + c */
    const double qa = 3.0 * c[0], qb = 2.0 * c[1], qc = c[2];
    if (qa != 0.0) {
        const double disc = qb * qb - 4.0 * qa * qc;
        if (disc >= 0.0) {
            const double sq = sqrt(disc);
            t[nt++] = (-qb - sq) / (2.0 * qa);
            t[nt++] = (-qb + sq) / (2.0 * qa);
        }
    } else if (qb != 0.0) {
        t[nt++] = -qc / qb;
    }
    double l = INFINITY, g = -INFINITY;
    for (int k = 0; k < nt; k++) {
        if (!(t[k] >= 0.0 && t[k] <= h))
            continue;
        const double v = ((c[0] * t[k] + c[1]) * t[k] + c[2]) * t[k] + c[3];
        l = dmin(l, v);
        g = dmax(g, v);
    }
    const double pad = 1e-13 + 1e-12 * (fabs(c[3]) + fabs(c[2] * h) + fabs(c[1] * h * h) + fabs(c[0] * h * h * h));
    *lo = l - pad;
    *hi = g + pad;
}

/* Ranges of segment i's first and second derivatives over the segment
 * (f' a quadratic: its ends and its vertex inside; f'' linear: its ends),
 * widened by a rounding allowance. */
static void seg_drange(const rs_spline *sp, int i, double r1[2], double r2[2])
{
    const double *c = sp->coef + 4 * i;
    const double h = sp->x[i + 1] - sp->x[i];
    const double a = c[2], e = (3.0 * c[0] * h + 2.0 * c[1]) * h + c[2];
    double l = dmin(a, e), g = dmax(a, e);
    if (c[0] != 0.0) {
        const double t = -c[1] / (3.0 * c[0]);
        if (t > 0.0 && t < h) {
            const double v = (3.0 * c[0] * t + 2.0 * c[1]) * t + c[2];
            l = dmin(l, v);
            g = dmax(g, v);
        }
    }
    const double p1 = 1e-15 + 1e-12 * (fabs(c[2]) + fabs(2.0 * c[1] * h) + fabs(3.0 * c[0] * h * h));
    r1[0] = l - p1;
    r1[1] = g + p1;
    const double s0 = 2.0 * c[1], s1 = 6.0 * c[0] * h + 2.0 * c[1];
    const double p2 = 1e-12 + 1e-12 * (fabs(s0) + fabs(6.0 * c[0] * h));
    r2[0] = dmin(s0, s1) - p2;
    r2[1] = dmax(s0, s1) + p2;
}

static int blk(double x, double x0, double k)
{
    const double j = (x - x0) * k;
    if (!(j > 0.0))
        return 0;
    if (j >= RS_PATCH_BLOCKS - 1)
        return RS_PATCH_BLOCKS - 1;
    return (int)j;
}

static int bounds_match(const rs_patch_bounds *b, const rs_profile *w, const rs_profile *r)
{
    const rs_spline *ws = &w->spline, *rsp = &r->spline;
    return b->wc == ws->coef && b->rc == rsp->coef && b->wn == ws->n && b->rn == rsp->n
           && b->wx0 == ws->x[0] && b->wx1 == ws->x[ws->n - 1] && b->rx0 == rsp->x[0]
           && b->rx1 == rsp->x[rsp->n - 1];
}

/* Per block of a spline's table, the segment holding the block's start
 * (sp_eval's start when u has left the current segment). */
static void seg_table(const rs_spline *sp, double x0, double x1, int *seg)
{
    const double h = (x1 - x0) / RS_PATCH_SEGS;
    int i = 0;
    for (int j = 0; j < RS_PATCH_SEGS; j++) {
        const double u = x0 + j * h;
        while (i < sp->n - 2 && sp->x[i + 1] <= u)
            i++;
        seg[j] = i;
    }
}

/* The tables of w and r (O(knots), once per pair). */
static void bounds_fit(rs_patch_bounds *b, const rs_profile *w, const rs_profile *r)
{
    const rs_spline *ws = &w->spline, *rsp = &r->spline;
    b->wc = ws->coef;
    b->rc = rsp->coef;
    b->wn = ws->n;
    b->rn = rsp->n;
    b->wx0 = ws->x[0];
    b->wx1 = ws->x[ws->n - 1];
    b->rx0 = rsp->x[0];
    b->rx1 = rsp->x[rsp->n - 1];
    b->wk = RS_PATCH_BLOCKS / (b->wx1 - b->wx0);
    b->rk = RS_PATCH_BLOCKS / (b->rx1 - b->rx0);
    for (int j = 0; j < RS_PATCH_BLOCKS; j++) {
        b->wlo[j] = INFINITY;
        b->whi[j] = -INFINITY;
        b->rhi[j] = -INFINITY;
        b->w1lo[j] = b->w2lo[j] = b->r1lo[j] = b->r2lo[j] = INFINITY;
        b->w1hi[j] = b->w2hi[j] = b->r1hi[j] = b->r2hi[j] = -INFINITY;
    }
    for (int i = 0; i + 1 < ws->n; i++) {
        double lo, hi, d1[2], d2[2];
        seg_range(ws, i, &lo, &hi);
        seg_drange(ws, i, d1, d2);
        const int j1 = blk(ws->x[i + 1], b->wx0, b->wk);
        for (int j = blk(ws->x[i], b->wx0, b->wk); j <= j1; j++) {
            b->wlo[j] = dmin(b->wlo[j], lo);
            b->whi[j] = dmax(b->whi[j], hi);
            b->w1lo[j] = dmin(b->w1lo[j], d1[0]);
            b->w1hi[j] = dmax(b->w1hi[j], d1[1]);
            b->w2lo[j] = dmin(b->w2lo[j], d2[0]);
            b->w2hi[j] = dmax(b->w2hi[j], d2[1]);
        }
    }
    for (int i = 0; i + 1 < rsp->n; i++) {
        double lo, hi, d1[2], d2[2];
        seg_range(rsp, i, &lo, &hi);
        seg_drange(rsp, i, d1, d2);
        const int j1 = blk(rsp->x[i + 1], b->rx0, b->rk);
        for (int j = blk(rsp->x[i], b->rx0, b->rk); j <= j1; j++) {
            b->rhi[j] = dmax(b->rhi[j], hi);
            b->r1lo[j] = dmin(b->r1lo[j], d1[0]);
            b->r1hi[j] = dmax(b->r1hi[j], d1[1]);
            b->r2lo[j] = dmin(b->r2lo[j], d2[0]);
            b->r2hi[j] = dmax(b->r2hi[j], d2[1]);
        }
    }
    b->cdu = 0.0; /* no per-interval ranges yet (search_nodes) */
    seg_table(ws, b->wx0, b->wx1, b->wseg);
    seg_table(rsp, b->rx0, b->rx1, b->rseg);
    b->wzmax = -INFINITY;
    b->r1min = INFINITY;
    b->r1max = -INFINITY;
    for (int j = 0; j < RS_PATCH_BLOCKS; j++) {
        b->wzmax = dmax(b->wzmax, b->whi[j]);
        b->r1min = dmin(b->r1min, b->r1lo[j]);
        b->r1max = dmax(b->r1max, b->r1hi[j]);
    }
    /* rmx[L − 1][j]: the maximum of rhi over the 2^L blocks from j */
    for (int L = 1; L <= RS_PATCH_LEVELS; L++) {
        const double *lo = L == 1 ? b->rhi : b->rmx[L - 2];
        const int half = 1 << (L - 1);
        for (int j = 0; j < RS_PATCH_BLOCKS; j++)
            b->rmx[L - 1][j] = j + 2 * half <= RS_PATCH_BLOCKS ? dmax(lo[j], lo[j + half]) : -INFINITY;
    }
}

/* The rail's highest point over [ya, yb] ∩ its table (−∞: none). */
static double rail_max(const rs_patch_bounds *b, double ya, double yb)
{
    if (ya < b->rx0)
        ya = b->rx0;
    if (yb > b->rx1)
        yb = b->rx1;
    if (!(ya <= yb))
        return -INFINITY;
    const int j0 = blk(ya, b->rx0, b->rk), j1 = blk(yb, b->rx0, b->rk);
    /* two overlapping runs of 2^L blocks cover j0..j1 (a sparse table) */
    const int len = j1 - j0 + 1;   /* 1 .. RS_PATCH_BLOCKS */
    /* L = floor(log2 len): runs of 2^L blocks */
#if defined(__GNUC__)
    const int L = 31 - __builtin_clz((unsigned)len);
#else
    int L = 0;
    while (2 << L <= len)
        L++;
#endif
    if (L == 0)
        return b->rhi[j0];
    return dmax(b->rmx[L - 1][j0], b->rmx[L - 1][j1 - (1 << L) + 1]);
}

/* 1 when no valid slice u in [u0, u1] comes within CLEAR_EPS of the rail
 * (a rigorous lower bound of the gap).  Per slice and angle θ about the
 * axle,  G = c_z + u a_z − ρ s cos θ − z_r(y),  y = c_y + u a_y + ρ q(θ),
 * q = d_y cos θ + f_y sin θ, with ρ = r0 + z_w(u) in [ρ−, ρ+] (wheel
 * blocks) and z_r below the rail blocks' maxima over the y reachable.  A
 * slice is valid only with its rail point on the table, so only the table
 * counts.  Split θ at Θ: for |θ| > Θ, cos θ < cos Θ lifts the wheel point,
 * G > c_z + min(u a_z) − ρ s cos Θ − Z_all (Z_all: the rail's highest over
 * every y reachable, |q| <= |d_y| + |f_y|), and Θ is chosen so that this is
 * CLEAR_EPS; for |θ| <= Θ, |q − d_y| <= |d_y|(1 − cos Θ) + |f_y| sin Θ
 * narrows the window, G >= c_z + min(u a_z) − ρ+ s − Z_Θ.  Without yaw and
 * roll q = 0: the window is the slices' own y range. */
static void wheel_range(const rs_patch_bounds *b, double u0, double u1, double *zl, double *zh)
{
    const int j1 = blk(u1, b->wx0, b->wk);
    double l = INFINITY, h = -INFINITY;
    for (int j = blk(u0, b->wx0, b->wk); j <= j1; j++) {
        l = dmin(l, b->wlo[j]);
        h = dmax(h, b->whi[j]);
    }
    *zl = l;
    *zh = h;
}

/* wheel_range of the search's interval from grid node ka to kb: kept in
 * the bound tables for whole coarse intervals (the same numbers: a pure
 * function of the wheel table, the grid and ka) */
static void interval_range(rs_patch_bounds *b, int ka, int kb, double ua, double ub, double *zl,
                           double *zh)
{
    if (ka % COARSE != 0 || kb != ka + COARSE) {
        wheel_range(b, ua, ub, zl, zh);
        return;
    }
    const int c = ka / COARSE;
    if (!b->cset[c]) {
        wheel_range(b, ua, ub, &b->czlo[c], &b->czhi[c]);
        b->cset[c] = 1;
    }
    *zl = b->czlo[c];
    *zh = b->czhi[c];
}

/* (zl, zh: wheel_range over [u0, u1]).  Always inlined: inside
 * search_nodes' coarse-interval loop the call costs about 2 400
 * instructions a step of the elastic FEVE (callgrind), and gcc stops
 * inlining it on its own once a second caller (rs_patch_interval_clear,
 * the tests' hook) exists; the hook gets its own copy. */
static ALWAYS_INLINE int clear_interval(const pose *p, const rs_patch_bounds *b, double u0,
                                        double u1, double zl, double zh)
{
    const double rmin = p->r0 + zl, rmax = p->r0 + zh;
    if (!(rmin > 0.0))
        return 0;
    const double s = p->s, dy = p->d[1], fy = p->f[1];
    const double hz = p->c[2] + dmin(u0 * p->a[2], u1 * p->a[2]);
    const double y0 = p->c[1] + u0 * p->a[1], y1 = p->c[1] + u1 * p->a[1];   /* a_y > 0 */
    /* every angle's window first: most intervals of a search are far from
     * the contact, and this one query clears them (the narrowest window's
     * bound below lies inside it, so it would pass too) */
    const double qa = fabs(dy) + fabs(fy);
    const double zall = rail_max(b, y0 - rmax * qa, y1 + rmax * qa);
    if (zall == -INFINITY)
        return 1;                       /* no rail within reach */
    const double A = hz - zall;
    if (A - rmax * s > CLEAR_EPS)
        return 1;                       /* above the rail at every angle */
    /* the narrowest window (θ = 0, q = d_y): near the contact it decides */
    if (hz - rmax * s
            - rail_max(b, y0 + dmin(rmin * dy, rmax * dy), y1 + dmax(rmin * dy, rmax * dy))
        <= CLEAR_EPS)
        return 0;
    if (qa == 0.0)
        return 0;                       /* the window is already the slices' */
    const double Ae = A - CLEAR_EPS;
    const double cT = Ae / ((Ae >= 0.0 ? rmax : rmin) * s);
    if (!(cT > -1.0))
        return 0;                       /* no angle excluded */
    const double sT = cT <= 0.0 ? 1.0 : sqrt(1.0 - cT * cT);
    const double dq = fabs(dy) * (1.0 - cT) + fabs(fy) * sT;
    const double ql = dy - dq, qh = dy + dq;
    const double ya = y0 + dmin(rmin * ql, rmax * ql), yb = y1 + dmax(rmin * qh, rmax * qh);
    return hz - rmax * s - rail_max(b, ya, yb) > CLEAR_EPS;
}

/* The unions of per-block ranges (lo1[j], hi1[j]) and (lo2[j], hi2[j])
 * over blocks j0..j1, in one pass. */
static void blocks_range2(const double *lo1, const double *hi1, const double *lo2, const double *hi2,
                          int j0, int j1, iv *r1, iv *r2)
{
    iv a = {INFINITY, -INFINITY}, c = a;
    for (int j = j0; j <= j1; j++) {
        a.lo = dmin(a.lo, lo1[j]);
        a.hi = dmax(a.hi, hi1[j]);
        c.lo = dmin(c.lo, lo2[j]);
        c.hi = dmax(c.hi, hi2[j]);
    }
    *r1 = a;
    *r2 = c;
}

/* 1 when g'' > 0 at every slice u in [u0, u1] (a rigorous bound from the
 * pair's bound tables): then g has one local minimum there at most, where
 * g' changes sign, and g < 0 at both ends means g < 0 throughout.  At a
 * slice, with θ* its lowest angle (eval_full),
 *   g'' = G_uu − G_uθ² / G_θθ,
 *   G_θθ = ρ s cos θ − z_r'' (ρ q')² + z_r' ρ q,
 *   G_uu = −ρ'' s cos θ − z_r'' b² − z_r' ρ'' q,   b = a_y + ρ' q,
 *   G_uθ = ρ' s sin θ − z_r'' b ρ q' − z_r' ρ' q',
 * q = d_y cos θ + f_y sin θ, q' = −d_y sin θ + f_y cos θ, each evaluated in
 * interval arithmetic over the ranges of ρ, ρ', ρ'' (the wheel blocks of
 * [u0, u1]; zl, zh: wheel_range's) and of z_r', z_r'' over the rail
 * points reachable.  Those lie
 * in a window y = c_y + u a_y + ρ q: tan θ* = z_r' f_y / (s + z_r' d_y) is
 * monotone in z_r', so the rail's slopes over its whole table bound θ*,
 * hence q and the window (without yaw q = d_y exactly); the rail blocks
 * over the window then bound z_r' and z_r'', and z_r' there narrows θ*'s
 * range again.  A window leaving the rail table, s + z_r' d_y near 0 or
 * G_θθ not proven positive: 0 (not proven). */
static inline void angle_range(double z1lo, double z1hi, double s, double dy, double fy, iv *cs,
                               iv *sn)
{
    const iv T = iv_make(z1lo * fy / (s + z1lo * dy), z1hi * fy / (s + z1hi * dy));
    const iv T2 = iv_sq(T);
    *cs = iv_make(1.0 / sqrt(1.0 + T2.hi), 1.0 / sqrt(1.0 + T2.lo));
    *sn = iv_make(T.lo / sqrt(1.0 + T.lo * T.lo), T.hi / sqrt(1.0 + T.hi * T.hi));
}

/* What convex_interval needs of the pose alone, made once per search (at
 * its first proof): whether s + z_r' d_y stays above 0.1 s over the whole
 * rail (eval_full's clamp never acts, and the angle's map is monotone),
 * and q's range over the angles the rail's slopes allow. */
typedef struct convex_pre {
    int done, ok;
    iv q;
} convex_pre;

static void convex_prepare(const pose *p, const rs_patch_bounds *b, convex_pre *c)
{
    const double s = p->s, dy = p->d[1], fy = p->f[1];
    c->done = 1;
    c->ok = s + dmin(b->r1min * dy, b->r1max * dy) > 0.1 * s;
    if (!c->ok)
        return;
    iv cs, sn;
    angle_range(b->r1min, b->r1max, s, dy, fy, &cs, &sn);
    c->q = iv_add(iv_scale(dy, cs), iv_scale(fy, sn));
}

/* Products with a factor of known sign take iv_mul_pos: ρ > 0 (checked),
 * cos θ > 0, squares >= 0, s > 0 (|a_z| < 1). */
static int convex_interval(const pose *p, const rs_patch_bounds *b, convex_pre *pre, double u0, double u1,
                           double zl, double zh)
{
    const double s = p->s, dy = p->d[1], fy = p->f[1];
    if (!pre->done)
        convex_prepare(p, b, pre);
    if (!pre->ok)
        return 0;
    const int j0 = blk(u0, b->wx0, b->wk), j1 = blk(u1, b->wx0, b->wk);
    const iv rho = {p->r0 + zl, p->r0 + zh};
    if (!(rho.lo > 0.0))
        return 0;
    iv rho1, rho2;
    blocks_range2(b->w1lo, b->w1hi, b->w2lo, b->w2hi, j0, j1, &rho1, &rho2);
    const iv y = {p->c[1] + u0 * p->a[1], p->c[1] + u1 * p->a[1]};   /* a_y > 0 */
    const iv win = iv_add(y, iv_mul_pos(rho, pre->q));
    if (!(win.lo >= b->rx0 && win.hi <= b->rx1))
        return 0;
    const int k0 = blk(win.lo, b->rx0, b->rk), k1 = blk(win.hi, b->rx0, b->rk);
    iv zr1, zr2, cs, sn;
    blocks_range2(b->r1lo, b->r1hi, b->r2lo, b->r2hi, k0, k1, &zr1, &zr2);
    angle_range(zr1.lo, zr1.hi, s, dy, fy, &cs, &sn);
    const iv q = iv_add(iv_scale(dy, cs), iv_scale(fy, sn));
    const iv qp = iv_add(iv_scale(-dy, sn), iv_scale(fy, cs));
    const iv rq = iv_mul_pos(rho, q), rqp = iv_mul_pos(rho, qp);
    const iv gtt = iv_add(iv_add(iv_scale_pos(s, iv_mul_pos(rho, cs)), iv_neg(iv_mul_pos(iv_sq(rqp), zr2))),
                          iv_mul(zr1, rq));
    if (!(gtt.lo > 0.0))
        return 0;
    const iv bv = iv_add((iv){p->a[1], p->a[1]}, iv_mul(rho1, q));
    const iv guu = iv_add(iv_add(iv_neg(iv_scale_pos(s, iv_mul_pos(cs, rho2))), iv_neg(iv_mul_pos(iv_sq(bv), zr2))),
                          iv_neg(iv_mul(zr1, iv_mul(rho2, q))));
    const iv gut = iv_add(iv_add(iv_scale_pos(s, iv_mul(rho1, sn)), iv_neg(iv_mul(zr2, iv_mul(bv, rqp)))),
                          iv_neg(iv_mul(zr1, iv_mul(rho1, qp))));
    const double g2lo = guu.lo - iv_sq(gut).hi / gtt.lo;
    return g2lo > 1e-9 * (1.0 + fabs(guu.lo) + fabs(guu.hi));
}

/* ------------------------------------------------------------ the search */

/* A patch as the grouping finds it: its deepest candidate and its ends. */
typedef struct found_patch {
    slice best;
    double lo, hi;
    double share;     /* the share of the depth pen keeps (minima = 1)  */
    double key;       /* smaller is deeper: g, or −share·(−g) (minima)  */
    double prom_hi;   /* strips: the barrier at hi, its rise above the
                         shallower minimum over that minimum's depth
                         (INFINITY: hi is the overlap's end)            */
} found_patch;

/* What the search's phases share: one object on rs_patch_find's stack,
 * nothing allocated (see the cost note at the top of this file). */
typedef struct search {
    pose p;
    rs_patch_bounds *bnd;            /* the pair's bound tables (and their
                                        per-interval wheel ranges)          */
    double du, tol;                  /* grid spacing, refinement tolerance   */
    int ends;                        /* rs_patch_opts.ends                   */
    int convex;                      /* rs_patch_opts.convex                 */
    int minima;                      /* rs_patch_opts.minima                 */
    int strips;                      /* rs_patch_opts.strips                 */
    convex_pre cpre;                 /* the proofs' pose-only part           */
    int evals;                       /* grid nodes evaluated (a statistic)   */
    int K, k0, k1;                   /* grid nodes 0..K; the overlap k0..k1  */
    int nn, nc, np;                  /* nodes, candidates, patches           */
    slice nodes[GRID_MAX + 1];
    cand cands[CAND_MAX];
    found_patch found[CAND_MAX];
} search;

static int finite3(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* setup: the arguments, as rs_patch.h lists them (RS_E_ARG, no message). */
static int check_args(const rs_profile *w, const rs_profile *r, const double c[3],
                      const double a[3], const rs_patch_opts *o, const rs_patch *out, int max,
                      const int *n)
{
    if (!w || !r || !c || !a || !o || !out || !n || max < 1 || max > RS_PATCH_MAX)
        return RS_E_ARG;
    if (w->n < RS_SPLINE_MIN_POINTS || r->n < RS_SPLINE_MIN_POINTS || !w->spline.x
        || !r->spline.x)
        return RS_E_ARG;
    if (!finite3(c) || !finite3(a) || !isfinite(o->r0) || !(o->r0 > 0.0)
        || !isfinite(o->du) || !(o->du > 0.0) || !isfinite(o->tol) || !(o->tol > 0.0))
        return RS_E_ARG;
    const double na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(fabs(na - 1.0) <= 1e-9))
        return RS_E_ARG;
    /* the axle must point to the field side and be far from vertical */
    if (!(a[1] >= 0.5))
        return RS_E_ARG;
    return RS_OK;
}

/* setup: the wheel's pose (the circles' directions d and f), the two
 * tables' ranges, the rail's ends, the spline hints.  Always inlined, as
 * clear_interval: into rs_patch_find, as before the tests' hook became its
 * second caller (about 250 instructions a step of the elastic FEVE). */
static ALWAYS_INLINE void pose_init(pose *p, const rs_profile *w, const rs_profile *r,
                                     const double c[3], const double a[3], double r0,
                                     const rs_patch_hint *hint)
{
    p->w = w;
    p->r = r;
    p->r0 = r0;
    memcpy(p->c, c, sizeof p->c);
    memcpy(p->a, a, sizeof p->a);
    p->s = sqrt(1.0 - a[2] * a[2]);
    p->inv_s = 1.0 / p->s;
    /* d = −(z − a_z a)/s: the circle's lowest direction; f = a × d */
    p->d[0] = a[2] * a[0] / p->s;
    p->d[1] = a[2] * a[1] / p->s;
    p->d[2] = -p->s;
    p->f[0] = a[1] * p->d[2] - a[2] * p->d[1];
    p->f[1] = a[2] * p->d[0] - a[0] * p->d[2];
    p->f[2] = a[0] * p->d[1] - a[1] * p->d[0];
    p->wlo = w->y[0];
    p->whi = w->y[w->n - 1];
    p->rlo = r->y[0];
    p->rhi = r->y[r->n - 1];
    /* the spline hints, whatever the caller's hint holds, in range */
    p->sw.x = w->spline.x;
    p->sw.coef = w->spline.coef;
    p->sw.last = w->spline.n - 2;
    p->sw.i = hint && hint->wheel > 0 ? (hint->wheel < p->sw.last ? hint->wheel : p->sw.last) : 0;
    p->sr.x = r->spline.x;
    p->sr.coef = r->spline.coef;
    p->sr.last = r->spline.n - 2;
    p->sr.i = hint && hint->rail > 0 ? (hint->rail < p->sr.last ? hint->rail : p->sr.last) : 0;
    double d2;
    int h0 = 0, h1 = r->n - 2;
    p->rz_lo = rs_spline_eval(&r->spline, p->rlo, &h0, &p->rs_lo, &d2);
    p->rz_hi = rs_spline_eval(&r->spline, p->rhi, &h1, &p->rs_hi, &d2);
}

/* setup: sp_eval's segment tables, from the pair's bound tables. */
static void pose_tables(pose *p, const rs_patch_bounds *b)
{
    p->sw.seg = b->wseg;
    p->sw.x0 = b->wx0;
    p->sw.k = RS_PATCH_SEGS / (b->wx1 - b->wx0);
    p->sr.seg = b->rseg;
    p->sr.x0 = b->rx0;
    p->sr.k = RS_PATCH_SEGS / (b->rx1 - b->rx0);
}

/* The spline hints back to the caller's hint (on every return past setup). */
static void save_hint(rs_patch_hint *hint, const pose *p, int evals)
{
    if (hint) {
        hint->wheel = p->sw.i;
        hint->rail = p->sr.i;
        hint->nodes = evals;
    }
}

/* bounds and grid: the bound tables, the hint's when they describe these
 * profiles, else made now (into the hint, or into *own without one). */
void rs_patch_hint_prepare(rs_patch_hint *hint, const rs_profile *w, const rs_profile *r)
{
    if (hint && w && r && !bounds_match(&hint->b, w, r)) {
        bounds_fit(&hint->b, w, r);
        hint->b.fits++;
    }
}

static rs_patch_bounds *bounds_get(rs_patch_hint *hint, rs_patch_bounds *own,
                                   const rs_profile *w, const rs_profile *r)
{
    if (hint) {
        rs_patch_hint_prepare(hint, w, r);
        return &hint->b;
    }
    bounds_fit(own, w, r);
    return own;
}

/* bounds and grid: the fixed grid over the wheel table, anchored at its
 * first point (du, K), and its nodes k0..k1 whose circles can reach the
 * rail table.  Returns 0 when there are none. */
static int grid_init(search *s, double du)
{
    const pose *p = &s->p;
    const double span = p->whi - p->wlo;
    if (span / du > GRID_MAX - 1)
        du = span / (GRID_MAX - 1);
    int K = (int)ceil(span / du - 1e-9);
    if (K < 1)
        K = 1;
    /* the overlap: slices whose circle can reach the rail table.  |q| <=
     * |d_y| + |f_y| and ρ <= r0 + max z_w bound the rail point's distance
     * from c_y + u a_y; nodes outside are out of contact anyway */
    const double zmax = s->bnd->wzmax;
    const double m = ((p->r0 + fabs(zmax)) * (fabs(p->d[1]) + fabs(p->f[1])) + du) / p->a[1];
    const double ua = (p->rlo - p->c[1]) / p->a[1] - m, ub = (p->rhi - p->c[1]) / p->a[1] + m;
    int k0 = (int)floor((ua - p->wlo) / du), k1 = (int)ceil((ub - p->wlo) / du);
    if (k0 < 0)
        k0 = 0;
    if (k1 > K)
        k1 = K;
    s->du = du;
    s->K = K;
    s->k0 = k0;
    s->k1 = k1;
    return k0 <= k1;
}

/* nodes: every COARSE-th grid node, and the grid nodes between two of them
 * unless both are valid and a lower bound of g between them (their
 * tangents, less a curvature allowance) is positive: far from contact the
 * coarse nodes steer the search alone.  A coarse interval that the bound
 * tables prove out of contact (clear_interval) is not evaluated at all:
 * its end nodes only where a neighbouring interval needs them, flagged
 * (cl, cr) so that nothing is sought across it.  Sets s->nn. */
static void search_nodes(search *s)
{
    pose *p = &s->p;
    slice *nodes = s->nodes;
    const double du = s->du;
    const int K = s->K, k1 = s->k1;
    const double H = COARSE * du;
    rs_patch_bounds *b = s->bnd;
    if (b->cdu != du || b->cwlo != p->wlo || b->cwhi != p->whi) {
        memset(b->cset, 0, sizeof b->cset);
        b->cdu = du;
        b->cwlo = p->wlo;
        b->cwhi = p->whi;
    }
    int nn = 0, ka = s->k0, last_k = -1, pend = 0;
    while (ka < k1) {
        int kb = (ka / COARSE + 1) * COARSE;
        if (kb > k1)
            kb = k1;
        const double ua = ka == K ? p->whi : p->wlo + ka * du;
        const double ub = kb == K ? p->whi : p->wlo + kb * du;
        double zl, zh;
        interval_range(b, ka, kb, ua, ub, &zl, &zh);
        if (clear_interval(p, b, ua, ub, zl, zh)) {
            if (nn > 0 && last_k == ka)
                nodes[nn - 1].cr = 1;
            pend = 1;
            ka = kb;
            continue;
        }
        if (!(nn > 0 && last_k == ka)) {
            grid_node(p, ka, K, du, nn > 0 ? nodes[nn - 1].T : 0.0, &nodes[nn]);
            s->evals++;
            nodes[nn].cl = (unsigned char)pend;
            nn++;
        }
        pend = 0;
        slice B;
        const slice A = nodes[nn - 1];
        grid_node(p, kb, K, du, A.T, &B);
        int near = 1;
        if (kb - ka > 1) {
            const double M = 4.0 * dmax(fabs(A.g2), fabs(B.g2));
            /* g >= g_A + g'_A t − M t²/2 and g >= g_B − g'_B (H − t) − …
             * on the interval: each tangent's lowest value, less M H²/2 */
            if (A.valid && B.valid)
                near = dmax(A.g + dmin(A.g1, 0.0) * H, B.g - dmax(B.g1, 0.0) * H) - 0.5 * M * H * H
                       <= 0.0;
            else if (A.valid || B.valid) {
                const slice *v = A.valid ? &A : &B;
                near = v->g - fabs(v->g1) * H - 0.5 * M * H * H <= 0.0;
            } else
                near = 0;
        }
        /* near the rail over a stretch proven convex: no nodes between.
         * They could only show what A and B show: the one minimum there at
         * most is bracketed by A and B's g', a patch inside the stretch
         * ends at its roots (one on each side of that minimum), and with
         * both ends negative every node between would be negative. */
        if (near && kb - ka > 1 && s->convex && A.valid && B.valid
            && convex_interval(p, b, &s->cpre, ua, ub, zl, zh)) {
            nodes[nn - 1].cx = 1;
            near = 0;
        }
        if (near)
            for (int k = ka + 1; k < kb; k++) {
                grid_node(p, k, K, du, nodes[nn - 1].T, &nodes[nn]);
                nn++;
                s->evals++;
            }
        nodes[nn++] = B;
        s->evals++;
        last_k = ka = kb;
    }
    s->nn = nn;
}

/* candidates: one more, the local minimum refined in [lo, hi], found at
 * grid node i. */
static void add_refined(search *s, const slice *lo, const slice *hi, int i)
{
    refine_min(&s->p, lo, hi, s->tol, &s->cands[s->nc].s);
    s->cands[s->nc].node = i;
    s->nc++;
}

/* minima: grid interval [s0, s1] inside an overlap and not proven convex,
 * scanned in SUB_N sub-intervals: a flat, conformal gap (S1002's flange
 * root on 60E1's gauge corner: flat to 0.2 µm over 3.6 mm, minima about
 * 0.1 mm apart) holds several minima within one grid step, and refining
 * one sign change of g' over the whole step closes on either (on the
 * shallower at times: 0.32 µm off, test_patch_continuity).  Each
 * sub-interval is treated as a grid interval is.  Cost: the coach's
 * elastic step (S1002) +24 %, the FEVE 3000's +1.3 %. */
#define SUB_N 8
static void sub_candidates(search *s, const slice *s0, const slice *s1, int i)
{
    const double h = (s1->u - s0->u) / SUB_N;
    slice prev = *s0;
    for (int k = 1; k <= SUB_N && s->nc < CAND_MAX; k++) {
        slice cur;
        if (k == SUB_N)
            cur = *s1;
        else
            eval_slice(&s->p, s0->u + k * h, prev.T, &cur);
        if (prev.valid && cur.valid) {
            const double M = 4.0 * dmax(fabs(prev.g2), fabs(cur.g2));
            if (prev.g1 < 0.0 && cur.g1 >= 0.0) {
                add_refined(s, &prev, &cur, i);
            } else if (dmin(prev.g, cur.g) - 0.5 * M * h * h <= 0.0) {
                slice b[2];
                if (dip_bracket(&s->p, &prev, &cur, b))
                    add_refined(s, &b[0], &b[1], i);
            }
        }
        prev = cur;
    }
}

/* candidates: between nodes i and i+1 (both valid), g' from − to +, or a
 * dip between them that the cubic through the ends' g and g' predicts (a
 * maximum and a minimum in one interval: flat conformal stretches); with
 * minima, inside an overlap, the sub-interval scan above. */
static void interior_candidate(search *s, int i)
{
    const slice *s0 = &s->nodes[i], *s1 = &s->nodes[i + 1];
    const double h = s1->u - s0->u;
    const double M = 4.0 * dmax(fabs(s0->g2), fabs(s1->g2));
    if (s->minima && !s0->cx && (s0->g < 0.0 || s1->g < 0.0)) {
        sub_candidates(s, s0, s1, i);
        return;
    }
    if (s0->g1 < 0.0 && s1->g1 >= 0.0) {
        const double lb = dmax(s0->g + s0->g1 * h, s1->g - s1->g1 * h) - 0.5 * M * h * h;
        if (lb <= 0.0 || s0->g < 0.0 || s1->g < 0.0)
            add_refined(s, s0, s1, i);
    } else if (s0->cx) {
        return;              /* convex, g' of one sign: no minimum inside */
    } else if (dmin(s0->g, s1->g) - 0.5 * M * h * h <= 0.0) {
        slice b[2];
        if (dip_bracket(&s->p, s0, s1, b))
            add_refined(s, &b[0], &b[1], i);
    }
}

/* candidates: node i next to an edge of the valid slices (the end of either
 * table) on side −1 (left) or +1 (right): the minimum between the edge and
 * the node is a bracketed local minimum, or the edge itself when g falls
 * towards it. */
static void edge_candidate(search *s, int i, int side)
{
    pose *p = &s->p;
    const slice *nodes = s->nodes, *s0 = &nodes[i];
    const int nn = s->nn;
    const double du = s->du;
    /* the edge lies within the neighbour's distance, and within about the
     * rail point's distance from the table's end (P_y grows with u at the
     * rate a_y, ρ' q aside: factor 2) */
    double de = side < 0 ? (i > 0 ? s0->u - nodes[i - 1].u : du)
                         : (i + 1 < nn ? nodes[i + 1].u - s0->u : du);
    de = dmin(de, 2.0 * (side < 0 ? s0->py - p->rlo : p->rhi - s0->py) / p->a[1] + 1e-6);
    const double lb = s0->g - fabs(s0->g1) * de - 2.0 * fabs(s0->g2) * de * de;
    if (lb > 0.0 || s->nc >= CAND_MAX)
        return;
    double uo;
    if (side < 0)
        uo = i > 0 ? nodes[i - 1].u : dmax(s0->u - du, p->wlo);
    else
        uo = i + 1 < nn ? nodes[i + 1].u : dmin(s0->u + du, p->whi);
    slice e = *s0;
    if (uo != s0->u) {
        slice t;
        eval_slice(p, uo, s0->T, &t);
        if (t.valid)
            e = t;                 /* the wheel table's end */
        else
            find_edge(p, s0->u, uo, s->tol, s0->T, &e);
    }
    const slice *lo = side < 0 ? &e : s0, *hi = side < 0 ? s0 : &e;
    if (e.u != s0->u && lo->g1 < 0.0 && hi->g1 >= 0.0) {
        add_refined(s, lo, hi, i);
    } else if (side < 0 ? e.g1 > 0.0 : e.g1 < 0.0) {
        s->cands[s->nc].s = e;
        s->cands[s->nc].node = i;
        s->nc++;
    }
}

/* candidates: runs of negative valid nodes that hold no candidate: their
 * deepest node (a safeguard; a run's minimum is a candidate above in every
 * case where g' at the nodes shows it). */
static void run_candidates(search *s)
{
    const slice *nodes = s->nodes;
    const int nn = s->nn;
    const double du = s->du;
    cand *cands = s->cands;
    int nc = s->nc;
    for (int i = 0; i < nn && nc < CAND_MAX; i++) {
        if (!(nodes[i].valid && nodes[i].g < 0.0))
            continue;
        int j = i, deep = i;
        while (j + 1 < nn && nodes[j + 1].valid && nodes[j + 1].g < 0.0) {
            j++;
            if (nodes[j].g < nodes[deep].g)
                deep = j;
        }
        int have = 0;
        /* minima (each candidate a patch): a candidate anywhere between the
         * run's outer neighbours counts, as the nodes may lie a coarse
         * interval apart (a node that is no minimum would be a patch) */
        const double ulo = s->minima && i > 0 ? nodes[i - 1].u : nodes[i].u - 0.5 * du;
        const double uhi = s->minima && j + 1 < nn ? nodes[j + 1].u : nodes[j].u + 0.5 * du;
        for (int q = 0; q < nc; q++)
            if (cands[q].s.u >= ulo && cands[q].s.u <= uhi && cands[q].s.g < 0.0)
                have = 1;
        if (!have) {
            cands[nc].s = nodes[deep];
            cands[nc].node = deep;
            nc++;
        }
        i = j;
    }
    s->nc = nc;
}

/* candidates: refined local minima, edge minima, fallbacks, ordered by u
 * (insertion sort: few candidates).  Sets s->nc. */
static void find_candidates(search *s)
{
    const slice *nodes = s->nodes;
    const int nn = s->nn;
    s->nc = 0;
    for (int i = 0; i < nn && s->nc < CAND_MAX; i++) {
        const slice *s0 = &nodes[i];
        if (!s0->valid)
            continue;
        const int vl = i > 0 && nodes[i - 1].valid;
        const int vr = i + 1 < nn && nodes[i + 1].valid && !s0->cr;
        if (vr && s->nc < CAND_MAX)
            interior_candidate(s, i);
        if (!(vl || s0->cl))
            edge_candidate(s, i, -1);
        if (!(vr || s0->cr))
            edge_candidate(s, i, 1);
    }
    run_candidates(s);
    cand *cands = s->cands;
    for (int i = 1; i < s->nc; i++) {
        cand t = cands[i];
        int j = i - 1;
        while (j >= 0 && cands[j].s.u > t.s.u) {
            cands[j + 1] = cands[j];
            j--;
        }
        cands[j + 1] = t;
    }
}

/* strips: where a patch ends, to start find_root from: the root of the
 * cubic through g and g' of the slices *o (g >= 0) and *in (g < 0), by
 * Newton kept inside the bracket (Illinois' regula falsi when a step
 * leaves it), to 1e-9 of the bracket, at most 40 steps of arithmetic.  Within 1e-4 m of the slices' root on the
 * FEVE 3000's 4 mm brackets (the profiles are not cubics): a start, not
 * the end itself; from it Newton needs about two slices to STRIP_END_TOL
 * where it needed 4.5 from the secant point to tol. */
static double hermite_root(const slice *o, const slice *in)
{
    const double h = in->u - o->u, g0 = o->g, m0 = h * o->g1, m1 = h * in->g1;
    const double d = in->g - g0;
    const double c2 = 3.0 * d - 2.0 * m0 - m1, c3 = m0 + m1 - 2.0 * d; /* p(t) = g0 + m0 t + c2 t² + c3 t³ */
    double a = 0.0, b = 1.0, pa = g0, pb = in->g, t = -g0 / d;
    int side = 0;
    for (int it = 0; it < 40; it++) {
        const double pt = g0 + t * (m0 + t * (c2 + t * c3)), dp = m0 + t * (2.0 * c2 + 3.0 * c3 * t);
        if (pt >= 0.0) {
            a = t, pa = pt;
            if (side == 1)
                pb *= 0.5;
            side = 1;
        } else {
            b = t, pb = pt;
            if (side == -1)
                pa *= 0.5;
            side = -1;
        }
        double tn = dp != 0.0 ? t - pt / dp : NAN;
        if (!(tn > a && tn < b))
            tn = (a * pb - b * pa) / (pb - pa); /* Illinois */
        if (!(tn > a && tn < b))
            tn = 0.5 * (a + b);
        const double step = fabs(tn - t);
        t = tn;
        if (step < 1e-9 || b - a < 1e-9)
            break;
    }
    return o->u + t * h;
}

/* grouping: where a patch ends between the first node outside it, *o, and
 * the slice *in inside it: the valid edge when *o is invalid, else the
 * root of g; without ends (rs_patch_opts.ends = 0), *o itself. */
static double patch_end(search *s, const slice *o, const slice *in)
{
    if (!s->ends)
        return o->u;
    if (!o->valid) {
        slice e;
        find_edge(&s->p, in->u, o->u, s->tol, in->T, &e);
        return e.u;
    }
    if (s->strips)
        return find_root(&s->p, o->u, o->g, in->u, in->g, STRIP_END_TOL, in->T, hermite_root(o, in), NODE_TAKE);
    return find_root(&s->p, o->u, o->g, in->u, in->g, s->tol, in->T, NAN, 0.0);
}

/* grouping: the lower end of the patch whose first candidate is *first:
 * from the first node outside the patch on its left. */
static double patch_lo(search *s, const slice *first)
{
    const slice *nodes = s->nodes;
    const int nn = s->nn;
    const double ul = first->u;
    int q = nn - 1;
    while (q >= 0 && nodes[q].u >= ul)
        q--;
    while (q >= 0 && nodes[q].valid && nodes[q].g < 0.0)
        q--;
    if (q < 0)
        return nodes[0].u;
    return patch_end(s, &nodes[q], q + 1 < nn && nodes[q + 1].u < ul ? &nodes[q + 1] : first);
}

/* grouping: the upper end of the patch whose last candidate is *last. */
static double patch_hi(search *s, const slice *last)
{
    const slice *nodes = s->nodes;
    const int nn = s->nn;
    const double ur = last->u;
    int q = 0;
    while (q < nn && nodes[q].u <= ur)
        q++;
    while (q < nn && nodes[q].valid && nodes[q].g < 0.0)
        q++;
    if (q >= nn)
        return nodes[nn - 1].u;
    return patch_end(s, &nodes[q], q > 0 && nodes[q - 1].u > ur ? &nodes[q - 1] : last);
}

/* minima: the highest gap between the minima *A and *B (u_A < u_B) of one
 * overlap, capped at 0 (at or above it the two are separate): the highest
 * node between them, then the local maximum next to it by Newton on g'
 * kept inside its bracket (bisection when a step leaves it); the highest
 * gap seen, so never below a node.  An invalid slice between: 0.  *um
 * receives where it lies. */
static double barrier(search *s, const slice *A, const slice *B, double *um)
{
    const slice *nodes = s->nodes;
    const int nn = s->nn;
    int top = -1;
    for (int q = 0; q < nn; q++)
        if (nodes[q].u > A->u && nodes[q].u < B->u && (top < 0 || nodes[q].g > nodes[top].g))
            top = q;
    slice lo = *A, hi = *B;
    double gmax = dmax(A->g, B->g);
    *um = A->g >= B->g ? A->u : B->u;
    if (top >= 0) {
        const slice *t = &nodes[top];
        if (!t->valid)
            return 0.0;
        if (t->g > gmax)
            gmax = t->g, *um = t->u;
        if (t->g1 >= 0.0)
            lo = *t, hi = top + 1 < nn && nodes[top + 1].u < B->u ? nodes[top + 1] : *B;
        else
            hi = *t, lo = top > 0 && nodes[top - 1].u > A->u ? nodes[top - 1] : *A;
    }
    double a = lo.u, b = hi.u;
    slice cur = lo.g >= hi.g ? lo : hi;
    for (int it = 0; it < REFINE_ITER && gmax < 0.0; it++) {
        double un = 0.5 * (a + b);
        if (cur.g2 < 0.0) {
            const double nw = cur.u - cur.g1 / cur.g2;
            if (nw > a && nw < b)
                un = nw;
        }
        const double step = fabs(un - cur.u);
        slice t;
        eval_slice(&s->p, un, cur.T, &t);
        if (!t.valid)
            return 0.0;
        if (t.g > gmax)
            gmax = t.g, *um = t.u;
        if (t.g1 > 0.0)
            a = un;
        else
            b = un;
        cur = t;
        if (step <= s->tol || b - a <= s->tol)
            break;
    }
    return dmin(gmax, 0.0);
}

/* strips: the minima idx[0..m) of one overlap (candidates, by u) and the
 * barriers between them into patches: a patch ends at a barrier that rises
 * above the shallower of its two minima by RS_PATCH_PROMINENCE of that
 * minimum's depth or more (a barrier at 0: two overlaps just merged, each
 * keeps its range), else the two minima's ranges are one patch.  Each
 * patch at its deepest minimum, share 1.  Returns the new patch count. */
static int group_strips(search *s, const int *idx, int m, const double *bar, const double *bu, int np)
{
    const cand *cands = s->cands;
    int first = 0;
    for (int k = 0; k < m; k++) {
        double ratio = INFINITY;
        if (k + 1 < m) {
            const double gs = dmax(cands[idx[k]].s.g, cands[idx[k + 1]].s.g);
            ratio = gs < 0.0 ? (bar[k] - gs) / -gs : 0.0;
            if (!(ratio >= RS_PATCH_PROMINENCE))
                continue;             /* one patch across this barrier */
        }
        found_patch *f = &s->found[np++];
        int deep = first;
        for (int q = first + 1; q <= k; q++)
            if (cands[idx[q]].s.g < cands[idx[deep]].s.g)
                deep = q;
        f->best = cands[idx[deep]].s;
        f->share = 1.0;
        f->key = f->best.g;
        f->prom_hi = ratio;
        f->lo = first > 0 ? bu[first - 1] : patch_lo(s, &cands[idx[0]].s);
        f->hi = k + 1 < m ? bu[k] : patch_hi(s, &cands[idx[m - 1]].s);
        if (f->lo > f->best.u)
            f->lo = f->best.u;
        if (f->hi < f->best.u)
            f->hi = f->best.u;
        first = k + 1;
    }
    return np;
}

/* minima: the overlap of candidates i..j (every node between negative),
 * each negative minimum a patch of its own from s->found[np] on, with its
 * share of the depth (rs_patch_opts.minima): d = −g for the deepest; a
 * range of minima split at its highest barrier b gives the deepest minimum
 * m' of the side without the range's deepest m the depth
 * d(m) (b − g(m')) / (b − g(m)), and so on down each side (the merge tree
 * of the basins, by an explicit stack).  Equal depths give equal shares, a
 * minimum born at its barrier gets 0, and a barrier rising to 0 leaves
 * each side its own −g: continuous.  Returns the new patch count. */
static int group_minima(search *s, int i, int j, int np)
{
    int idx[CAND_MAX], m = 0;
    double bar[CAND_MAX], bu[CAND_MAX], d[CAND_MAX];
    const cand *cands = s->cands;
    for (int k = i; k <= j; k++) {
        if (!(cands[k].s.g < 0.0))
            continue;
        if (m > 0 && cands[k].s.u - cands[idx[m - 1]].s.u <= 2.0 * s->tol) {
            if (cands[k].s.g < cands[idx[m - 1]].s.g)
                idx[m - 1] = k;       /* one minimum found twice */
            continue;
        }
        idx[m++] = k;
    }
    if (m == 0)
        return np;                    /* (the caller starts at a negative one) */
    for (int k = 0; k + 1 < m; k++)
        bar[k] = barrier(s, &cands[idx[k]].s, &cands[idx[k + 1]].s, &bu[k]);
    if (s->strips)
        return group_strips(s, idx, m, bar, bu, np);
    int deep = 0;
    for (int k = 1; k < m; k++)
        if (cands[idx[k]].s.g < cands[idx[deep]].s.g)
            deep = k;
    d[deep] = -cands[idx[deep]].s.g;
    int st[2 * CAND_MAX][3], ns = 0;
    st[ns][0] = 0, st[ns][1] = m - 1, st[ns][2] = deep, ns++;
    while (ns > 0) {
        ns--;
        const int l = st[ns][0], r = st[ns][1], top = st[ns][2];
        if (l >= r)
            continue;
        int k = l;
        for (int q = l + 1; q < r; q++)
            if (bar[q] > bar[k])
                k = q;
        /* the side without top: its deepest gets its share */
        const int ol = top <= k ? k + 1 : l, orr = top <= k ? r : k;
        int od = ol;
        for (int q = ol + 1; q <= orr; q++)
            if (cands[idx[q]].s.g < cands[idx[od]].s.g)
                od = q;
        const double gt = cands[idx[top]].s.g, go = cands[idx[od]].s.g;
        const double den = bar[k] - gt;
        d[od] = den > 0.0 ? d[top] * dmax(bar[k] - go, 0.0) / den : d[top];
        st[ns][0] = l, st[ns][1] = k, st[ns][2] = top <= k ? top : od, ns++;
        st[ns][0] = k + 1, st[ns][1] = r, st[ns][2] = top <= k ? od : top, ns++;
    }
    for (int k = 0; k < m; k++) {
        if (!(d[k] > 0.0))
            continue;                 /* no share: carries nothing */
        found_patch *f = &s->found[np++];
        f->best = cands[idx[k]].s;
        f->share = d[k] / -f->best.g;
        f->key = -d[k];
        f->lo = k > 0 ? bu[k - 1] : patch_lo(s, &cands[idx[0]].s);
        f->hi = k + 1 < m ? bu[k] : patch_hi(s, &cands[idx[m - 1]].s);
        if (f->lo > f->best.u)
            f->lo = f->best.u;
        if (f->hi < f->best.u)
            f->hi = f->best.u;
    }
    return np;
}

/* grouping: the negative candidates into patches, two in one patch when
 * every node between them is valid and negative; each patch at its
 * deepest candidate, with its ends.  Sets s->np. */
static void group_patches(search *s)
{
    const slice *nodes = s->nodes;
    const cand *cands = s->cands;
    const int nn = s->nn, nc = s->nc;
    int np = 0;
    for (int i = 0; i < nc;) {
        if (!(cands[i].s.g < 0.0)) {
            i++;
            continue;
        }
        int j = i, deep = i;
        for (;;) {
            int nx = j + 1;
            while (nx < nc && !(cands[nx].s.g < 0.0))
                nx++;
            if (nx >= nc)
                break;
            int joined = 1;
            for (int q = 0; q < nn; q++)
                if (nodes[q].u > cands[j].s.u && nodes[q].u < cands[nx].s.u
                    && !(nodes[q].valid && nodes[q].g < 0.0))
                    joined = 0;
            if (!joined)
                break;
            j = nx;
            if (cands[j].s.g < cands[deep].s.g)
                deep = j;
        }
        if (s->minima) {
            np = group_minima(s, i, j, np);
            i = j + 1;
            continue;
        }
        found_patch *f = &s->found[np++];
        f->share = 1.0;
        f->prom_hi = INFINITY;
        f->key = cands[deep].s.g;
        f->best = cands[deep].s;
        f->lo = patch_lo(s, &cands[i].s);
        f->hi = patch_hi(s, &cands[j].s);
        if (f->lo > f->best.u)
            f->lo = f->best.u;
        if (f->hi < f->best.u)
            f->hi = f->best.u;
        i = j + 1;
    }
    s->np = np;
}

/* strips: more than max patches: the two neighbours of one overlap split
 * at the least prominent barrier become one, until max remain or every
 * patch is an overlap of its own (then keep_deepest). */
static void merge_strips(search *s, int max)
{
    found_patch *found = s->found;
    while (s->np > max) {
        int q = -1;
        for (int k = 0; k + 1 < s->np; k++)
            if (isfinite(found[k].prom_hi) && (q < 0 || found[k].prom_hi < found[q].prom_hi))
                q = k;
        if (q < 0)
            return;
        if (found[q + 1].best.g < found[q].best.g)
            found[q].best = found[q + 1].best;
        found[q].key = dmin(found[q].key, found[q + 1].key);
        found[q].hi = found[q + 1].hi;
        found[q].prom_hi = found[q + 1].prom_hi;
        for (int k = q + 1; k + 1 < s->np; k++)
            found[k] = found[k + 1];
        s->np--;
    }
}

/* strips: Gauss-Legendre's nodes and weights on [−1, 1] (the positive
 * half; the 16 nodes integrate polynomials up to degree 31 exactly; 8 and
 * 12 were tried: docs/contact.md "Normal law: strips") */
#define GL_H (RS_PATCH_NODES / 2)
_Static_assert(RS_PATCH_NODES == 16, "the strips' rule has 16 nodes");
static const double GL_X[GL_H] = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
                                  0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499};
static const double GL_W[GL_H] = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
                                  0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541};

/* strips: the quadrature nodes of a patch over [u_lo, u_hi] (its slices
 * from the deepest one's T on) into node[]; returns where the patch's
 * point is: the slice at the nodes' mean u weighted by their overlap
 * (continuous in the pose, on both surfaces), or the deepest slice when
 * nothing overlaps. */
__attribute__((noinline)) static double strip_nodes(pose *p, const found_patch *f, rs_patch_node *node)
{
    const double mid = 0.5 * (f->lo + f->hi), half = 0.5 * (f->hi - f->lo);
    double T = f->best.T;
    for (int k = 0; k < RS_PATCH_NODES; k++) {
        const int h = k < GL_H ? GL_H - 1 - k : k - GL_H; /* nodes by increasing u */
        const double x = k < GL_H ? -GL_X[h] : GL_X[h];
        full sl;
        eval_full(p, mid + half * x, T, 0.0, NODE_TAKE, &sl);
        T = sl.T;
        rs_patch_node *nd = &node[k];
        const double cs = sl.cs, sn = sl.sn;
        nd->u = sl.u;
        nd->w = half * GL_W[h];
        nd->dv = sl.valid && sl.g < 0.0 ? -sl.g : 0.0;
        nd->pw[0] = p->c[0] + sl.u * p->a[0] + sl.rho * (p->d[0] * cs + p->f[0] * sn);
        nd->pw[1] = sl.pwy;
        nd->pw[2] = sl.pz;
        nd->zr1 = sl.zr1;
    }
    double sw = 0, su = 0;
    for (int k = 0; k < RS_PATCH_NODES; k++)
        sw += node[k].w * node[k].dv, su += node[k].w * node[k].dv * node[k].u;
    return sw > 0.0 ? su / sw : f->best.u;
}

/* output: more than max patches: the deepest max (in vertical gap), in
 * the order of u, and RS_CLAMPED; else RS_OK. */
static int keep_deepest(search *s, int max)
{
    if (s->np <= max)
        return RS_OK;
    found_patch *found = s->found;
    int np = s->np;
    while (np > max) {
        int lo = 0;
        for (int q = 1; q < np; q++)
            if (found[q].key > found[lo].key)
                lo = q;
        for (int q = lo; q + 1 < np; q++)
            found[q] = found[q + 1];
        np--;
    }
    s->np = np;
    return RS_CLAMPED;
}

/* output: the patches' fields, each at its deepest slice. */
static void write_patches(search *s, rs_patch *out)
{
    for (int q = 0; q < s->np; q++) {
        const found_patch *f = &s->found[q];
        /* strips: the nodes first, then the patch's point where they say */
        const double u = s->strips ? strip_nodes(&s->p, f, out[q].node) : f->best.u;
        full sl;
        eval_full(&s->p, u, f->best.T, 0.0, 0.0, &sl);
        fill_patch(&s->p, &sl, &out[q]);      /* (it leaves the nodes) */
        out[q].nn = s->strips ? RS_PATCH_NODES : 0;
        out[q].pen *= f->share;
        out[q].share = f->share;
        out[q].u_lo = f->lo;
        out[q].u_hi = f->hi;
    }
}

int rs_patch_find(const rs_profile *w, const rs_profile *r, const double c[3],
                  const double a[3], const rs_patch_opts *o, rs_patch_hint *hint,
                  rs_patch *out, int max, int *n)
{
    if (n)
        *n = 0;
    const int st = check_args(w, r, c, a, o, out, max, n);
    if (st)
        return st;
    search s;
    rs_patch_bounds own;   /* the bound tables of a call without a hint */
    pose_init(&s.p, w, r, c, a, o->r0, hint);
    s.tol = o->tol;
    s.strips = o->strips != 0;
    s.ends = o->ends || s.strips;
    s.convex = o->convex;
    s.minima = o->minima || s.strips;
    s.cpre.done = 0;
    s.evals = 0;
    s.bnd = bounds_get(hint, &own, w, r);
    pose_tables(&s.p, s.bnd);
    if (!grid_init(&s, o->du)) {
        save_hint(hint, &s.p, s.evals);
        return RS_OK;             /* the wheel is nowhere above the rail */
    }
    search_nodes(&s);
    if (s.nn == 0) {
        save_hint(hint, &s.p, s.evals);
        return RS_OK;             /* nowhere near the rail */
    }
    find_candidates(&s);
    group_patches(&s);
    if (s.strips)
        merge_strips(&s, max);
    const int ret = keep_deepest(&s, max);
    write_patches(&s, out);
    *n = s.np;
    save_hint(hint, &s.p, s.evals);
    return ret;
}

int rs_patch_interval_clear(const rs_profile *w, const rs_profile *r, const double c[3],
                            const double a[3], double r0, rs_patch_hint *hint, double u0, double u1)
{
    pose p;
    rs_patch_bounds own;
    pose_init(&p, w, r, c, a, r0, hint);
    const rs_patch_bounds *b = bounds_get(hint, &own, w, r);
    double zl, zh;
    wheel_range(b, u0, u1, &zl, &zh);
    return clear_interval(&p, b, u0, u1, zl, zh);
}

int rs_patch_check_pair(const rs_profile *w, const rs_profile *r, double r0, char *err,
                        size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!w || !r || w->n < RS_SPLINE_MIN_POINTS || r->n < RS_SPLINE_MIN_POINTS)
        return rs_fail(err, errlen, RS_E_ARG, "contact pair: a profile is missing or empty");
    if (w->kind != RS_PROFILE_WHEEL || r->kind != RS_PROFILE_RAIL)
        return rs_fail(err, errlen, RS_E_ARG,
                       "contact pair '%s' on '%s': the first profile must be 'kind wheel' and the "
                       "second 'kind rail' (they are %s and %s); swap them or fix the files' kind lines",
                       w->name, r->name, w->kind == RS_PROFILE_WHEEL ? "wheel" : "rail",
                       r->kind == RS_PROFILE_RAIL ? "rail" : "wheel");
    if (!isfinite(r0) || !(r0 > 0.0))
        return rs_fail(err, errlen, RS_E_ARG,
                       "contact pair '%s' on '%s': nominal rolling radius %g m; give r0 > 0 in metres",
                       w->name, r->name, r0);
    /* the wheel's radius r0 + z_w stays well positive (z_w sampled at the
     * knots and between them), and its steepest flange slope −z_w' */
    double zmin = INFINITY, umin = 0, flange = -INFINITY, uflange = 0;
    int h = 0;
    for (int i = 0; i < w->n; i++)
        for (int k = 0; k < 2; k++) {
            if (k == 1 && i + 1 >= w->n)
                break;
            const double u = k == 0 ? w->y[i] : 0.5 * (w->y[i] + w->y[i + 1]);
            double d1;
            const double z = rs_profile_eval(w, u, &h, &d1, NULL);
            if (z < zmin) {
                zmin = z;
                umin = u;
            }
            if (-d1 > flange) {
                flange = -d1;
                uflange = u;
            }
        }
    if (!(r0 + zmin > 0.5 * r0))
        return rs_fail(err, errlen, RS_E_TABLE,
                       "contact pair '%s' on '%s': the wheel's radius r0 + z = %g + (%g) m at u = %g m "
                       "is below half the nominal radius; check r0 (metres, at the taping line) and the "
                       "wheel profile's z (the radius increase over r0, in metres)",
                       w->name, r->name, r0, zmin, umin);
    double rslope = -INFINITY;
    h = 0;
    for (int i = 0; i < r->n; i++) {
        double d1;
        rs_profile_eval(r, r->y[i], &h, &d1, NULL);
        if (d1 > rslope)
            rslope = d1;
    }
    if (rslope < flange)
        return rs_fail(err, errlen, RS_E_TABLE,
                       "contact pair '%s' on '%s': the rail table ends on its gauge side at a slope of "
                       "%.3g (%.1f deg), below the wheel's steepest flange slope %.3g (%.1f deg, at "
                       "u = %g m): a flange contact could leave the rail table, where nothing is in "
                       "contact; extend the rail profile down its gauge face to at least %.1f deg",
                       w->name, r->name, rslope, atan(rslope) * 57.29577951308232, flange,
                       atan(flange) * 57.29577951308232, uflange, atan(flange) * 57.29577951308232);
    if (w->y[w->n - 1] < r->y[r->n - 1])
        return rs_fail(err, errlen, RS_E_TABLE,
                       "contact pair '%s' on '%s': the wheel table ends on the field side at u = %g m, "
                       "inside the rail head (which reaches y = %g m): when the wheelset shifts, the "
                       "rail's field side would leave the wheel table, where nothing is in contact; "
                       "extend the wheel profile on its field side beyond %g m",
                       w->name, r->name, w->y[w->n - 1], r->y[r->n - 1], r->y[r->n - 1]);
    return RS_OK;
}

double rs_patch_overlap_curvature(const rs_patch *p)
{
    double m0 = 0, m1 = 0, m2 = 0;
    for (int i = 0; i < p->nn; i++) {
        const double f = p->node[i].w * p->node[i].dv;
        m0 += f;
        m1 += f * p->node[i].u;
    }
    if (!(m0 > 0))
        return NAN;
    const double u0 = m1 / m0;
    for (int i = 0; i < p->nn; i++) {
        const double du = p->node[i].u - u0;
        m2 += p->node[i].w * p->node[i].dv * du * du;
    }
    if (!(m2 > 0))
        return NAN;
    const double w2 = 5.0 * m2 / m0, depth = 0.75 * m0 / sqrt(w2), c = cos(p->alpha);
    return depth / w2 * c * c * c;
}
