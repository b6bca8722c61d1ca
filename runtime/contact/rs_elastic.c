/*
 * rs_elastic.c — the elastic multi-point contact (rs_elastic.h): set-up,
 * the wheel Jacobians' dense blocks and their pattern in the system matrix,
 * and the per-step force evaluation.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "rs_climb.h"
#include "rs_contact.h"
#include "rs_creep.h"
#include "rs_elastic.h"
#include "rs_error.h"
#include "rs_hertz.h"
#include "rs_kalker.h"
#include "rs_strip_table.h"
#include "rs_ws_impl.h"

_Static_assert(RS_PATCH_MAX == RS_CONTACT_PATCH_MAX, "rs_ws.h's patch variables cover every patch");

/* One wheel. */
typedef struct elastic_wheel {
    const rs_profile *wheel, *rail;
    const rs_track *track;         /* NULL: straight level track along x     */
    int track_hint;
    double s_track;                /* last projection of O_w on the track    */
    int have_s;
    rs_patch_hint hint;
    rs_strip_table *kt;            /* the strip law's stiffness per slice    */
    int m;                         /* columns of J with a non-zero           */
    int *cols;                     /* m coordinates                          */
    double *J;                     /* 6 × m, column-major                    */
    int *half;                     /* m: bit 0 when column l of J has
                                      non-zeros in rows 0-2 (v), bit 1 in
                                      rows 3-5 (ω); the other half is zero   */
    int *pos;                      /* m × m positions in the extra values    */
    int *pos_k;                    /* the same in the system matrix's values
                                      (elastic_bind; elastic_add_k)          */
    int lead;                      /* -1, or an earlier wheel of the same
                                      body with the same columns: the step
                                      matrix's term of this wheel goes
                                      through that wheel's J (elastic_add_k) */
    double W[6], C6[36], K6[36];   /* wrench about O_w, −∂W/∂v6, −∂W/∂x6    */
    double F[3];                   /* total force on the wheel (ground)      */
    double t[3];                   /* the track's tangent at the wheel       */
    double up[3], lat[3];          /* the track's n̂ and ĉ at the wheel       */
    int np;
    rs_elastic_patch p[RS_PATCH_MAX];
    double energy;
    double u_steep;                /* the flange's steepest point (wheel u) */
    double y_crown;                /* the rail's crown (rail y, field side +) */
    double y_flange, y_field;      /* in the rail's y at the last evaluation:
                                      the flange's steepest point and the
                                      wheel table's field-side end          */
    double mu;                     /* its friction (rs_options_mu)          */
    double E, nu;                  /* its material (rs_options_E, _nu)      */
    double flange_angle;           /* its angle atan(−z_w') (rad): Nadal's  */
    rs_climb_state climb;          /* flange climbing (rs_climb.h)          */
    int derailed;                  /* a derailment under way (reported once) */
    double F_next[3];              /* the step's F, committed when it passes */
    rs_climb_state climb_next;
    int derailed_next;
    /* the step's Newton correction (wheel_closes): W, C6, K6 and the
     * patches linearized at the pose x_n + dx_lin (dx_lin 0: the step's
     * start), W_n the start's wrench (θ < 1 keeps its share) */
    double dx_lin[6], W_n[6];
    int relin;                     /* 1: linearized at x_n + dx_lin         */
    double y_touch;                /* y_flange at the first flank contact
                                      (wheel_closes' filter)                */
} elastic_wheel;

/* The plug-in's state behind rs_contact_ws (that name is the constraint
 * contact's struct in this folder: the ops pass it opaque, E() converts). */
typedef struct elastic_ws {
    int nc, nq;
    rs_contact_ws *files;          /* the constraint contact's state: it owns
                                      (or points to) the profiles and tracks */
    elastic_wheel *w;
    double *pose, *vel, *jv, *geom;/* RS_FN_WHEEL's outputs                  */
    int *jmap;                     /* jac value k -> its entry in dbl (its
                                      wheel's J, at 6 × local column + row) */
    int *ints;                     /* cols, pos, pos_k, half of every wheel   */
    double *dbl;                   /* J of every wheel                       */
    double *T;                     /* 6 × (max m + 1) scratch                */
    double *A;                     /* 36 per wheel: elastic_add_k's A       */
    rs_pattern x;                  /* extra pattern (n_q × n_q)              */
    int *x_colptr, *x_rowind;
    double *X;                     /* rs_elastic_step_matrix's scratch      */
    rs_patch_opts popt;
    int gauge_checked;             /* rs_contact_check_gauge ran            */
    int solves;                    /* the step's solves since elastic_forces */
    elastic_wheel *keep;           /* wheel_closes' copy of a wheel it probes */
    rs_strip_table *kt;            /* nc: each wheel's (rs_strip_table.h)    */
} elastic_ws;

static elastic_ws *E(rs_contact_ws *c) { return (elastic_ws *)(void *)c; }
static const elastic_ws *CE(const rs_contact_ws *c) { return (const elastic_ws *)(const void *)c; }

/* ---- set-up ------------------------------------------------------------ */

/* Which columns each wheel's J touches, J's value map, the extra pattern
 * (per column the union of the column sets of the wheels touching it) and
 * each wheel's positions in it. */
static int build_pattern(elastic_ws *c, const rs_model *m, const rs_allocator *a)
{
    const rs_pattern *P = &m->wheel_jac_pattern;
    const int nc = c->nc, nq = c->nq, nnz = P->colptr[nq];
    int *touch = rs_alloc(a, (size_t)nc * (size_t)nq, sizeof(int)); /* local index + 1 */
    int *mark = rs_alloc(a, (size_t)nq, sizeof(int));
    c->jmap = rs_alloc(a, (size_t)nnz + 1, sizeof(int));
    c->x_colptr = rs_alloc(a, (size_t)nq + 1, sizeof(int));
    int st = touch && mark && c->jmap && c->x_colptr ? RS_OK : RS_E_NOMEM;
    size_t n_int = 0, n_dbl = 0;
    int max_m = 1;
    if (st == RS_OK) {
        for (int j = 0; j < nq; j++)
            for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
                touch[(size_t)(P->rowind[k] / 6) * (size_t)nq + (size_t)j] = 1;
        for (int i = 0; i < nc; i++) {
            int mi = 0;
            for (int j = 0; j < nq; j++)
                if (touch[(size_t)i * (size_t)nq + (size_t)j])
                    touch[(size_t)i * (size_t)nq + (size_t)j] = ++mi;
            c->w[i].m = mi;
            n_int += 2 * (size_t)mi + 2 * (size_t)mi * (size_t)mi;
            n_dbl += 6 * (size_t)mi;
            if (mi > max_m)
                max_m = mi;
        }
        c->ints = rs_alloc(a, n_int + 1, sizeof(int));
        c->dbl = rs_alloc(a, n_dbl + 1, sizeof(double));
        c->T = rs_alloc(a, 6 * ((size_t)max_m + 1), sizeof(double)); /* add_jtaj's */
        if (!c->ints || !c->dbl || !c->T)
            st = RS_E_NOMEM;
    }
    if (st == RS_OK) {
        int *ip = c->ints;
        double *dp = c->dbl;
        for (int i = 0; i < nc; i++) {
            elastic_wheel *w = &c->w[i];
            w->cols = ip;
            ip += w->m;
            w->pos = ip;
            ip += (size_t)w->m * (size_t)w->m;
            w->pos_k = ip;
            ip += (size_t)w->m * (size_t)w->m;
            w->half = ip;
            ip += w->m;
            w->J = dp;
            dp += 6 * (size_t)w->m;
            for (int j = 0; j < nq; j++)
                if (touch[(size_t)i * (size_t)nq + (size_t)j])
                    w->cols[touch[(size_t)i * (size_t)nq + (size_t)j] - 1] = j;
        }
        for (int j = 0; j < nq; j++)
            for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
                const int i = P->rowind[k] / 6, r = P->rowind[k] % 6;
                const int l = touch[(size_t)i * (size_t)nq + (size_t)j] - 1;
                c->jmap[k] = (int)(c->w[i].J - c->dbl) + 6 * l + r;
                c->w[i].half[l] |= r < 3 ? 1 : 2;
            }
        /* the extra pattern: count, then fill (rows increasing) */
        for (int pass = 0; pass < 2 && st == RS_OK; pass++) {
            int p = 0;
            for (int r = 0; r < nq; r++)
                mark[r] = -1;
            for (int j = 0; j < nq; j++) {
                c->x_colptr[j] = p;
                for (int i = 0; i < nc; i++)
                    if (touch[(size_t)i * (size_t)nq + (size_t)j])
                        for (int l = 0; l < c->w[i].m; l++)
                            mark[c->w[i].cols[l]] = j;
                for (int r = 0; r < nq; r++)
                    if (mark[r] == j) {
                        if (pass)
                            c->x_rowind[p] = r;
                        p++;
                    }
            }
            c->x_colptr[nq] = p;
            if (!pass) {
                c->x_rowind = rs_alloc(a, (size_t)p + 1, sizeof(int));
                c->X = rs_alloc(a, (size_t)p + 1, sizeof(double));
                if (!c->x_rowind || !c->X)
                    st = RS_E_NOMEM;
            }
        }
    }
    if (st == RS_OK) {
        for (int i = 0; i < nc; i++) {
            elastic_wheel *w = &c->w[i];
            for (int l2 = 0; l2 < w->m; l2++) {
                const int j = w->cols[l2];
                for (int l1 = 0; l1 < w->m; l1++) {
                    int p = c->x_colptr[j];
                    while (c->x_rowind[p] != w->cols[l1])
                        p++;
                    w->pos[l2 * w->m + l1] = p;
                }
            }
        }
        c->x.nrow = c->x.ncol = nq;
        c->x.colptr = c->x_colptr;
        c->x.rowind = c->x_rowind;
    }
    rs_free(a, touch);
    rs_free(a, mark);
    return st;
}

static void elastic_free(rs_contact_ws **cp, const rs_allocator *a)
{
    if (!cp || !*cp)
        return;
    elastic_ws *c = E(*cp);
    rs_wheel_rail_contact()->release(&c->files, a);
    void *arrays[] = {c->w,     c->pose,     c->vel, c->jv, c->geom, c->jmap,
                      c->ints,  c->dbl,      c->T,   c->x_colptr, c->x_rowind, c->X, c->A, c->keep,
                      c->kt};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        rs_free(a, arrays[k]);
    rs_free(a, c);
    *cp = NULL;
}

/* A patch on the flange's flank (its contact angle above this): where
 * wheel_closes' filter watches for a patch closing within a step. */
#define EL_FLANK 0.5235987755982988 /* 30° */

/* max over the wheel slices u (0.25 mm apart) of z_w(u) + z_r(y + u), the
 * wheel's lowest points (axle level, no yaw) against the rail with the
 * taping line at rail y: over the flank (−z_w' > tan EL_FLANK) into *flank,
 * over every slice above the rail's table returned. */
static double rest_height(const elastic_wheel *w, double y, double *flank)
{
    const double tf = tan(EL_FLANK);
    double all = -INFINITY;
    *flank = -INFINITY;
    int hw = 0, hr = 0;
    for (double u = w->wheel->y[0]; u <= w->wheel->y[w->wheel->n - 1]; u += 2.5e-4) {
        if (y + u < w->rail->y[0] || y + u > w->rail->y[w->rail->n - 1])
            continue;
        double d1;
        const double h = rs_profile_eval(w->wheel, u, &hw, &d1, NULL) + rs_profile_eval(w->rail, y + u, &hr, NULL, NULL);
        all = fmax(all, h);
        if (-d1 > tf)
            *flank = fmax(*flank, h);
    }
    return all;
}

/* The flange's y_flange (wheel_forces) at which its flank first touches
 * the rail, the wheel upright and resting on its rail (axle level, no
 * yaw): the taping line's rail y where the flank's highest point of
 * z_w + z_r reaches the tread's (to 1 um), by bisection over the crown
 * ± 40 mm; −∞ when that range does not bracket it (wheel_closes then
 * probes every step not in flank contact). */
static double flank_touch(const elastic_wheel *w)
{
    double lo = w->y_crown - 0.04, hi = w->y_crown + 0.04, f;
    const double u_ref = isfinite(w->u_steep) ? w->u_steep : w->wheel->y[0];
    if (!(rest_height(w, lo, &f) - f > 1e-6) || !(rest_height(w, hi, &f) - f <= 1e-6))
        return -INFINITY;
    for (int it = 0; it < 30; it++) {
        const double mid = 0.5 * (lo + hi);
        if (rest_height(w, mid, &f) - f > 1e-6)
            lo = mid;
        else
            hi = mid;
    }
    return lo + u_ref;
}

static int elastic_create(const rs_model *m, const rs_options *opt, const rs_allocator *a,
                          rs_contact_ws **out, char *err, size_t errlen)
{
    *out = NULL;
    const rs_func *wf = &m->fn[RS_FN_WHEEL];
    if (!wf->fn)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' has no wheel function (RS_FN_WHEEL) for the elastic contact: "
                       "compile it again with this railsym",
                       m->name);
    if (!(opt->contact_climb_time >= 0) || !isfinite(opt->contact_climb_time))
        return rs_fail(err, errlen, RS_E_ARG,
                       "elastic contact: contact_climb_time (%g) must be a time >= 0 (s): how long Y/Q must "
                       "stay at Nadal's limit to count as flange climbing (rs_climb.h; default 0.05)",
                       opt->contact_climb_time);
    if (!(opt->contact_damp >= 0) || !(opt->contact_k_scale > 0) || !isfinite(opt->contact_k_scale) ||
        !(opt->contact_mu >= 0) ||
        !(opt->contact_theta == 0 || (opt->contact_theta >= 0.5 && opt->contact_theta <= 1)) ||
        opt->contact_law < RS_CREEP_KALKER || opt->contact_law > RS_CREEP_POLACH ||
        opt->contact_normal < RS_NORMAL_DEFAULT || opt->contact_normal > RS_NORMAL_STRIPS ||
        (opt->contact_law != RS_CREEP_KALKER && !opt->contact_mu_each && !(opt->contact_mu > 0)))
        return rs_fail(err, errlen, RS_E_ARG,
                       "elastic contact: contact_damp must be >= 0, contact_k_scale > 0, contact_mu "
                       ">= 0, contact_theta in [0.5, 1] (or 0: the normal law's own), contact_normal a "
                       "known law (rs_normal_law) and contact_law a known law (FASTSIM and Polach need a "
                       "friction coefficient contact_mu > 0)");
    elastic_ws *c = rs_alloc(a, 1, sizeof *c);
    if (!c)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory");
    *out = (rs_contact_ws *)(void *)c; /* the caller frees it, whatever fails below */
    c->nc = m->n_contact;
    c->nq = m->n_q;
    /* the constraint contact loads the files (and takes in-memory ones) */
    rs_options files_opt = *opt;
    files_opt.contact_law = 0; /* the laws are ours */
    files_opt.contact_normal = RS_NORMAL_DEFAULT;
    int st = rs_wheel_rail_contact()->create(m, &files_opt, a, &c->files, err, errlen);
    if (st)
        return st;
    const size_t nc = (size_t)c->nc;
    c->w = rs_alloc(a, nc, sizeof *c->w);
    c->pose = rs_alloc(a, 12 * nc, sizeof(double));
    c->vel = rs_alloc(a, 6 * nc, sizeof(double));
    c->jv = rs_alloc(a, (size_t)m->wheel_jac_pattern.colptr[m->n_q] + 1, sizeof(double));
    c->geom = rs_alloc(a, 2 * nc, sizeof(double));
    c->A = rs_alloc(a, 36 * nc, sizeof(double));
    c->keep = rs_alloc(a, 1, sizeof *c->keep);
    c->kt = rs_alloc(a, nc, sizeof *c->kt);
    if (!c->w || !c->pose || !c->vel || !c->jv || !c->geom || !c->A || !c->keep || !c->kt ||
        build_pattern(c, m, a))
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory");
    for (int i = 0; i < c->nc; i++) {
        elastic_wheel *w = &c->w[i];
        /* the wheels of one wheelset (one body, so one ω, and the same
         * coordinates): the first of them leads */
        w->lead = -1;
        for (int l = 0; l < i && w->lead < 0; l++)
            if (c->w[l].lead < 0 && !strcmp(m->contacts[l].wheel_body, m->contacts[i].wheel_body) &&
                c->w[l].m == w->m && !memcmp(c->w[l].cols, w->cols, (size_t)w->m * sizeof(int)))
                w->lead = l;
        w->wheel = rs_contact_profile(c->files, i, RS_SPLINE_WHEEL);
        w->rail = rs_contact_profile(c->files, i, RS_SPLINE_RAIL);
        w->track = rs_contact_track(c->files, i);
        if (!w->wheel || !w->rail)
            return rs_fail(err, errlen, RS_E_MODEL,
                           "contact '%s': the elastic contact needs a wheel and a rail profile file "
                           "(`profile` and `rail` in the contact's description)",
                           m->contacts[i].name);
        /* the flange: its steepest slope (the radius rising fastest
         * towards the flange, u < 0, at the table's knots), and the point
         * nearest the flange tip still within 2 % of it (a straight flank's
         * outer end: past it the contact angle falls and the wheel rides
         * up onto the rail head) */
        double best = 0;
        for (int k = 0; k < w->wheel->n && w->wheel->y[k] < 0; k++) {
            double d1;
            rs_profile_eval(w->wheel, w->wheel->y[k], NULL, &d1, NULL);
            best = fmax(best, -d1);
        }
        w->u_steep = -INFINITY;
        for (int k = 0; k < w->wheel->n && w->wheel->y[k] < 0; k++) {
            double d1;
            rs_profile_eval(w->wheel, w->wheel->y[k], NULL, &d1, NULL);
            if (-d1 >= 0.98 * best) {
                w->u_steep = w->wheel->y[k];
                break;
            }
        }
        w->flange_angle = atan(best);
        /* the rail's crown: its top_point, else its highest knot */
        w->y_crown = w->rail->y[0];
        for (int k = 1, top = 0; k < w->rail->n; k++)
            if (w->rail->z[k] > w->rail->z[top])
                w->y_crown = w->rail->y[top = k];
        if (w->rail->has_top)
            w->y_crown = w->rail->top_y;
        w->y_flange = -INFINITY;
        w->y_field = INFINITY;
        w->y_touch = -INFINITY;
        for (int l = 0; l < i && w->y_touch == -INFINITY; l++) /* the same pair: its value */
            if (c->w[l].wheel == w->wheel && c->w[l].rail == w->rail)
                w->y_touch = c->w[l].y_touch;
        if (w->y_touch == -INFINITY)
            w->y_touch = flank_touch(w);
        w->mu = rs_options_mu(opt, i);
        if (!(w->mu >= 0) || (opt->contact_law != RS_CREEP_KALKER && !(w->mu > 0)))
            return rs_fail(err, errlen, RS_E_ARG,
                           "elastic contact '%s': friction %g; it must be >= 0, and > 0 for FASTSIM and Polach",
                           m->contacts[i].name, w->mu);
        w->E = rs_options_E(opt, i);
        w->nu = rs_options_nu(opt, i);
        w->kt = &c->kt[i];
    }
    rs_patch_defaults(&c->popt);
    c->popt.ends = 0; /* the point law uses the deepest point only */
    c->popt.minima = 1; /* one point per minimum, continuous shares (issue 20) */
    c->popt.strips = opt->contact_normal != RS_NORMAL_POINT; /* the default; its ends sought */
    return RS_OK;
}

double rs_elastic_theta(const rs_options *o)
{
    if (o->contact_theta != 0)
        return o->contact_theta;
    return o->contact_normal == RS_NORMAL_POINT ? RS_THETA_POINT : RS_THETA_STRIPS;
}

/* ---- small vector helpers ---------------------------------------------- */

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double a[3], const double b[3], double r[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit3(double v[3])
{
    const double n = sqrt(dot3(v, v));
    if (n > 0)
        for (int k = 0; k < 3; k++)
            v[k] /= n;
}

/* R (columns ex, ey, ez) applied to v, and its transpose. */
static void rot(const double ex[3], const double ey[3], const double ez[3], const double v[3], double r[3])
{
    for (int k = 0; k < 3; k++)
        r[k] = ex[k] * v[0] + ey[k] * v[1] + ez[k] * v[2];
}

static void rot_t(const double ex[3], const double ey[3], const double ez[3], const double v[3], double r[3])
{
    r[0] = dot3(ex, v);
    r[1] = dot3(ey, v);
    r[2] = dot3(ez, v);
}

/* A += s g hᵀ (6 × 6, row-major).  Terms s g_r h_k that are zero (s = 0,
 * a zero g_r, h's zero first half - a screw of a pure moment) are left out:
 * adding ±0 leaves A as it is (its entries start at +0 and never become
 * −0, as a sum is −0 only when both terms are). */
static void outer6(double *restrict A, double s, const double *restrict g, const double *restrict h)
{
    if (s == 0)
        return;
    const double h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5];
    const int full = h0 != 0 || h1 != 0 || h2 != 0;
    for (int r = 0; r < 6; r++) {
        const double sg = s * g[r];
        if (sg == 0)
            continue;
        double *a = A + 6 * r;
        if (full) {
            a[0] += sg * h0;
            a[1] += sg * h1;
            a[2] += sg * h2;
        }
        a[3] += sg * h3;
        a[4] += sg * h4;
        a[5] += sg * h5;
    }
}

/* The 6-vector [d; r × d] of a force direction d acting at lever r. */
static void screw(const double r[3], const double d[3], double g[6])
{
    g[0] = d[0], g[1] = d[1], g[2] = d[2];
    cross3(r, d, g + 3);
}

/* ---- one wheel --------------------------------------------------------- */

/* The track's cross-section at O_w for the rail on side sg (+1 left): the
 * rail's reference point (the centre line's, moved by a gauge irregularity:
 * rs_track_rail_eval), tangent, lateral ĉ (left) and up n̂, and the cant's
 * rate dθ/ds (the cross-section turns about the tangent by it as O_w moves
 * along: a cross-level irregularity, a cant ramp).  Returns 0, or
 * +1 when O_w projects beyond an end of the track (the end's cross-section
 * is given), or a negative status. */
static int track_frame(elastic_wheel *w, double sg, const double O[3], double C[3], double t[3], double lat[3],
                       double up[3], double *cant_d1)
{
    *cant_d1 = 0;
    if (!w->track) {
        C[0] = O[0], C[1] = 0, C[2] = 0;
        t[0] = 1, t[1] = 0, t[2] = 0;
        lat[0] = 0, lat[1] = 1, lat[2] = 0;
        up[0] = 0, up[1] = 0, up[2] = 1;
        return RS_OK;
    }
    double s = w->have_s ? w->s_track : O[0];
    const int r = rs_track_project(w->track, O, s, &w->track_hint, &s);
    if (r < 0)
        return r;
    w->s_track = s;
    w->have_s = 1;
    rs_track_point tp;
    const int outside = r > 0;
    rs_track_rail_eval(w->track, sg > 0 ? 1 : -1, s, &w->track_hint, &tp);
    for (int k = 0; k < 3; k++) {
        C[k] = tp.pos[k];
        t[k] = tp.tangent[k];
        lat[k] = tp.lateral[k];
        up[k] = tp.up[k];
    }
    *cant_d1 = tp.cant_d1;
    return outside;
}

/* The contact base of a patch with normal n at lever r: t_x along the
 * track in the contact plane, t_y = n × t_x, and the screws of a force
 * along each (gx, gy), along n (gn) and of a moment about n (gs). */
static void contact_base(const double r[3], const double n[3], const double t[3], double tx[3], double ty[3],
                         double gx[6], double gy[6], double gn[6], double gs[6])
{
    const double tn = dot3(t, n);
    for (int k = 0; k < 3; k++)
        tx[k] = t[k] - tn * n[k];
    unit3(tx);
    cross3(n, tx, ty);
    screw(r, tx, gx);
    screw(r, ty, gy);
    screw(r, n, gn);
    gs[0] = gs[1] = gs[2] = 0;
    gs[3] = n[0], gs[4] = n[1], gs[5] = n[2];
}

/* The point law (RS_NORMAL_POINT): the patch's Hertz force
 * N = c_H p^{3/2} + share c_n ṗ at its deepest point, along n. */
static void point_forces(const rs_options *o, elastic_wheel *w, rs_elastic_patch *pp, const double r[3],
                         const double n[3], const double t[3], double ra, const double vO[3], const double om[3],
                         double cH)
{
    const rs_patch *g = &pp->g;
    /* material velocity of the wheel at the contact point; the rail is fixed */
    double vP[3], wr[3];
    cross3(om, r, wr);
    for (int k = 0; k < 3; k++)
        vP[k] = vO[k] + wr[k];
    /* a minimum sharing an overlap with a deeper one (g->share < 1): its
     * damping is scaled by the share, so that it starts from nothing where
     * the minimum is born.  K6 keeps 3/2 c_H p^{1/2}: scaled by the share
     * too (the share held), the coach in its curve balanced the centripetal
     * force to −4.4 % instead of −1.6 % (test_coach) */
    /* ṗ = −v_P·n + a t·v(O_w): the wheel's approach and the rail's, whose
     * surface under a rolling wheel rises or falls where the cant changes
     * (at 23.7 m/s on the FEVE's cross-level irregularity up to 0.1 m/s,
     * more than a Hertz approach per 1 ms step) */
    const double pdot = -dot3(vP, n) + ra * dot3(t, vO);
    const double sp = sqrt(g->pen);
    double N = cH * g->pen * sp + g->share * o->contact_damp * pdot;
    double kn = 1.5 * cH * sp, cn = g->share * o->contact_damp;
    if (!(N > 0) || pp->open) /* open: the step's solve made it pull */
        N = kn = cn = 0;
    pp->N = N;
    pp->c_hertz = cH;
    w->energy += 0.4 * cH * g->pen * g->pen * sp;
    double gn[6];
    screw(r, n, gn);
    for (int k = 0; k < 6; k++)
        w->W[k] += N * gn[k];
    /* dp = −ge·dx6, ṗ = −ge·v6: the force along gn, its approach from ge
     * (gn with the rail's part; without it the step's linearization missed
     * the rail rising under the wheel within the step, and the 1 ms step
     * overshot Q by up to 3× on the FEVE's irregular track) */
    double ge[6];
    for (int k = 0; k < 6; k++)
        ge[k] = gn[k] - (k < 3 ? ra * t[k] : 0);
    outer6(w->K6, kn, gn, ge);
    outer6(w->C6, cn, gn, ge);
    memcpy(pp->ge, ge, sizeof ge);
    pp->kn = kn;
    pp->cn = cn;
}

/* Σ a_i b_i over the RS_PATCH_NODES nodes as two sums, over the even and
 * the odd i, added at the end: with GCC's and Clang's vector extension in
 * one instruction a pair where the target has it (the same IEEE operations
 * as the plain loop's). */
_Static_assert(RS_PATCH_NODES % 2 == 0, "dot_nodes sums the nodes in pairs");
static double dot_nodes(const double *a, const double *b)
{
#if defined(__GNUC__)
    typedef double v2 __attribute__((vector_size(16)));
    v2 sum = {0, 0};
    for (int i = 0; i < RS_PATCH_NODES; i += 2) {
        v2 x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        sum += x * y;
    }
    return sum[0] + sum[1];
#else
    double s0 = 0, s1 = 0;
    for (int i = 0; i < RS_PATCH_NODES; i += 2) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
    }
    return s0 + s1;
#endif
}

/* The strip law (the default; docs/contact.md "Normal law:
 * strips"): node i of the patch carries kw_i dn_i along its own normal n_i
 * at its own point — the gradient of the elastic energy Σ kw_i dn_i² / 2 —
 * plus its share kw_i / Kw of the wheel's normal damping c_n (Kw: the
 * stiffness of the wheel's closed patches), c_n kw_i / Kw ṗ_i.  The patch
 * carries nothing when the sum along its normal n (the direction of its
 * elastic force) is not positive, or when the step opened it.  K6 and C6
 * take each node's screw: Σ kw_i g_i g_e,iᵀ and Σ c_n kw_i / Kw g_i g_e,iᵀ.
 * The patch's kn, cn, ge (the opening and closing tests' linear model of
 * its N) are their sums along n; its c_hertz and g.pen the equivalent Hertz
 * law N_el = c p^{3/2} with the same stiffness 3/2 c p^{1/2} = Σ kw_i. */
static void strip_forces(const rs_options *o, elastic_wheel *w, rs_elastic_patch *pp, const double t[3],
                         const double vO[3], const double om[3], double Kw)
{
    const double *n = pp->n;
    const double cs = Kw > 0 ? o->contact_damp / Kw : 0, tv = dot3(t, vO);
    /* the nodes' screws g_i = [n_i; r_i × n_i] by component (zero past
     * g.nn) and kw_i g_i: the stiffness's sums below run over them */
    double g[6][RS_PATCH_NODES], kg[6][RS_PATCH_NODES];
    for (int i = pp->g.nn; i < RS_PATCH_NODES; i++)
        for (int k = 0; k < 6; k++)
            g[k][i] = kg[k][i] = 0;
    double Wp[6] = {0}, gn[6] = {0}, gr[6] = {0};
    double N = 0, Nel = 0, K = 0, Kn = 0, Kr = 0, E2 = 0;
    for (int i = 0; i < pp->g.nn; i++) {
        const rs_elastic_strip *sn = &pp->s[i];
        double m[3];
        cross3(sn->r, sn->n, m);
        const double gi[6] = {sn->n[0], sn->n[1], sn->n[2], m[0], m[1], m[2]};
        /* ṗ_i = −v_P·n_i + ra_i t·v_O, v_P·n_i = v_O·n_i + ω·(r_i × n_i) */
        const double pdot = -(dot3(vO, sn->n) + dot3(om, m)) + sn->ra * tv;
        const double kw = sn->kw, fel = kw * sn->dn, f = fel + cs * kw * pdot, kn = kw * dot3(sn->n, n);
        for (int k = 0; k < 6; k++) {
            g[k][i] = gi[k];
            kg[k][i] = kw * gi[k];
            Wp[k] += f * gi[k];
            gn[k] += kn * gi[k];
            gr[k] += kw * sn->ra * gi[k];
        }
        N += f * dot3(sn->n, n);
        Nel += fel * dot3(sn->n, n);
        K += kw;
        Kn += kn;
        Kr += kn * sn->ra;
        E2 += fel * sn->dn;
    }
    w->energy += 0.5 * E2;
    pp->c_hertz = 0;
    pp->g.pen = K > 0 ? 1.5 * Nel / K : 0; /* the equivalent Hertz approach */
    if (pp->g.pen > 0)
        pp->c_hertz = Nel / (pp->g.pen * sqrt(pp->g.pen));
    if (!(N > 0) || pp->open) { /* open: the step's solve made it pull */
        pp->N = pp->kn = pp->cn = 0;
        memset(pp->ge, 0, sizeof pp->ge);
        return;
    }
    pp->N = N;
    pp->kn = K;
    pp->cn = cs * K;
    /* ge = Σ kw_i (n_i·n) g_e,i / K, g_e,i = g_i − ra_i [t; 0] */
    for (int k = 0; k < 6; k++) {
        w->W[k] += Wp[k];
        pp->ge[k] = K > 0 ? (gn[k] - (k < 3 ? Kr * t[k] : 0)) / K : 0;
    }
    /* K6 = Σ kw_i g_i g_e,iᵀ = S − (Σ kw_i ra_i g_i) [t; 0]ᵀ, S = Σ kw_i g_i g_iᵀ
     * symmetric (its 21 entries, dot_nodes); the
     * damping's Jacobian is cs times it */
    for (int a = 0; a < 6; a++)
        for (int b = a; b < 6; b++) {
            const double sab = dot_nodes(kg[a], g[b]);
            const double kab = sab - (b < 3 ? gr[a] * t[b] : 0), kba = sab - (a < 3 ? gr[b] * t[a] : 0);
            w->K6[6 * a + b] += kab;
            w->C6[6 * a + b] += cs * kab;
            if (b != a) {
                w->K6[6 * b + a] += kba;
                w->C6[6 * b + a] += cs * kba;
            }
        }
}

/* The creep forces of patch pp (normal force pp->N, point at lever r,
 * normal n) on the Hertz ellipse of its curvatures (semi-axes a1, b1 at
 * 1 N), into the wheel's W and C6. */
static int creep_forces(const rs_options *o, elastic_wheel *w, rs_elastic_patch *pp, const double r[3],
                        const double n[3], const double t[3], const double vO[3], const double om[3], double a1,
                        double b1)
{
    const double N = pp->N;
    pp->f[0] = pp->f[1] = pp->f[2] = 0;
    pp->xi[0] = pp->xi[1] = pp->xi[2] = 0;
    pp->a = pp->b = 0;
    if (N == 0)
        return RS_OK;
    double tx[3], ty[3], gx[6], gy[6], gn[6], gs[6];
    contact_base(r, n, t, tx, ty, gx, gy, gn, gs);
    /* material velocity of the wheel at the contact point; the rail is fixed */
    double vP[3], wr[3];
    cross3(om, r, wr);
    for (int k = 0; k < 3; k++)
        vP[k] = vO[k] + wr[k];
    /* creepages: ν over the regularized reference speed */
    const double V = 0.5 * (sqrt(dot3(vO, vO)) + sqrt(dot3(wr, wr)));
    const double Veff = sqrt(V * V + o->contact_vmin * o->contact_vmin);
    pp->xi[0] = dot3(vP, tx) / Veff;
    pp->xi[1] = dot3(vP, ty) / Veff;
    pp->xi[2] = dot3(om, n) / Veff;
    if (!o->contact_creep)
        return RS_OK;
    /* the Hertz ellipse at N: the normal law's, scaled (semi-axes ∝ N^{1/3}) */
    int st;
    double coef[4], Cm[9];
    const rs_hertz_ellipse el = {.a = a1 * cbrt(N), .b = b1 * cbrt(N)};
    if ((st = rs_kalker_coeffs(el.a / el.b, w->nu, coef)) < 0)
        return st;
    rs_kalker_creep_matrix(el.a, el.b, rs_kalker_shear_modulus(w->E, w->nu), coef, Cm);
    pp->a = el.a;
    pp->b = el.b;
    /* dF: ∂f/∂ξ (row-major) */
    double dF[9];
    if (o->contact_law == RS_CREEP_KALKER) {
        for (int k = 0; k < 3; k++)
            pp->f[k] = -(Cm[3 * k] * pp->xi[0] + Cm[3 * k + 1] * pp->xi[1] + Cm[3 * k + 2] * pp->xi[2]);
        double eps = 1; /* the saturation factor is held in the Jacobian */
        if (w->mu > 0)
            eps = rs_creep_saturation(hypot(pp->f[0], pp->f[1]), w->mu * N);
        for (int k = 0; k < 3; k++)
            pp->f[k] *= eps;
        for (int k = 0; k < 9; k++)
            dF[k] = -eps * Cm[k];
    } else {
        rs_creep_opts co;
        rs_creep_defaults(&co);
        co.polach.V = V;
        if ((st = rs_creep_forces((rs_creep_law)o->contact_law, el.a, el.b,
                                  rs_kalker_shear_modulus(w->E, w->nu), coef, w->mu,
                                  N, pp->xi, &co, pp->f, dF)) < 0)
            return st;
    }
    const double *gk[3] = {gx, gy, gs};
    for (int k = 0; k < 6; k++)
        w->W[k] += pp->f[0] * gx[k] + pp->f[1] * gy[k] + pp->f[2] * gs[k];
    /* C6 += −G (∂f/∂ξ / V_eff) Gᵀ: ξ = Gᵀ v6 / V_eff (V_eff held) */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            if (dF[3 * a + b] != 0)
                outer6(w->C6, -dF[3 * a + b] / Veff, gk[a], gk[b]);
    return RS_OK;
}

/* The strip law's nodes of patch pp (rs_patch's, in pp->g.node, rail
 * frame: the rotation ex, ey, ez and origin org; O_w at pose): per node the
 * stiffness along its normal kw = w k(u) (1 + z_r'²) and the overlap along
 * it dn = dv / √(1 + z_r'²), k the wheel slice's strip stiffness
 * (rs_strip_table.h: a property of the slice, so that the forces kw dn
 * along the normals are the gradient of the energy Σ w k dv² / 2 =
 * Σ kw dn² / 2); its lever, normal and the rail's approach per metre (as
 * wheel_forces' for a point).  The patch's point and geometry are
 * rs_patch's: the slice at the nodes' overlap-weighted mean. */
static void strip_patch(const elastic_wheel *w, const rs_options *o, rs_elastic_patch *pp, const double ex[3],
                        const double ey[3], const double ez[3], const double org[3], const double *pose,
                        const double C[3], const double t[3], double cant_d1)
{
    const rs_patch *g = &pp->g;
    const double ks = o->contact_k_scale;
    /* the frame in locals (the stores into pp->s cannot alias them) */
    const double X[3] = {ex[0], ex[1], ex[2]}, Y[3] = {ey[0], ey[1], ey[2]}, Z[3] = {ez[0], ez[1], ez[2]};
    double oO[3], dC[3]; /* org − O_w: a point's lever from its rail-frame image; O_w − C */
    for (int k = 0; k < 3; k++) {
        oO[k] = org[k] - pose[k];
        dC[k] = pose[k] - C[k];
    }
    for (int i = 0; i < g->nn; i++) {
        const rs_patch_node *nd = &g->node[i];
        rs_elastic_strip *sn = &pp->s[i];
        const double z1 = nd->zr1, kk = 1.0 + z1 * z1, ikz = 1.0 / sqrt(kk);
        const double x = nd->pw[0], y = nd->pw[1], z = nd->pw[2];
        double n[3], r[3];
        for (int k = 0; k < 3; k++) {
            n[k] = (Z[k] - z1 * Y[k]) * ikz; /* the rail normal (0, −z_r', 1)/√(1 + z_r'²) */
            r[k] = X[k] * x + Y[k] * y + Z[k] * z + oO[k];
        }
        sn->kw = nd->w * rs_strip_stiffness(w->kt, nd->u) * ks * kk;
        sn->dn = nd->dv * ikz;
        double ra = 0;
        if (cant_d1 != 0) {
            const double PC[3] = {r[0] + dC[0], r[1] + dC[1], r[2] + dC[2]};
            double tPC[3];
            cross3(t, PC, tPC);
            ra = cant_d1 * dot3(tPC, n);
        }
        memcpy(sn->n, n, sizeof n);
        memcpy(sn->r, r, sizeof r);
        sn->ra = ra;
    }
}

/* Forces of patch p (geometry g in ground: point P, normal n; lever r from
 * O_w) into the wheel's W, C6, K6.  ra: the approach the rail's cross-section
 * gives per metre that O_w travels along t (its turning with the cant,
 * rail_rate): the approach's rate and its Jacobian take it. */
static int patch_forces(const rs_options *o, elastic_wheel *w, rs_elastic_patch *pp, const double r[3],
                        const double n[3], const double t[3], double ra, const double vO[3], const double om[3],
                        double Kw)
{
    const rs_patch *g = &pp->g;
    double cH, a1, b1, A, B;
    rs_hertz_curvature_sums(g->R_wx, g->R_wy, INFINITY, g->R_ry, &A, &B);
    /* a strip patch's creep ellipse from its overlap's lateral curvature,
     * not the point's: in a conformal flange root or on S1002's tread near
     * the centre the point's jumps as the point moves (docs/contact.md
     * "The strip patch's creep ellipse") */
    const double Bs = g->nn > 0 ? rs_patch_overlap_curvature(g) : NAN;
    if (!isnan(Bs))
        B = Bs;
    int st = rs_hertz_patch_law_sums(A, B, w->E, w->nu, &cH, &a1, &b1);
    if (st < 0)
        return st;
    cH *= o->contact_k_scale;
    if (pp->g.nn > 0)
        strip_forces(o, w, pp, t, vO, om, Kw);
    else
        point_forces(o, w, pp, r, n, t, ra, vO, om, cH);
    return creep_forces(o, w, pp, r, n, t, vO, om, a1, b1);
}

/* Every patch of wheel i and their forces at the current wheel pose. */
static int wheel_forces(struct rs_ws *ws, int i)
{
    elastic_ws *c = E(ws->ct);
    elastic_wheel *w = &c->w[i];
    const rs_options *o = &ws->opt;
    const double sg = ws->model->contacts[i].side;
    const double *pose = c->pose + 12 * i, *vO = c->vel + 6 * i, *om = vO + 3;
    memset(w->W, 0, sizeof w->W);
    memset(w->C6, 0, sizeof w->C6);
    memset(w->K6, 0, sizeof w->K6);
    w->np = 0;
    w->energy = 0;
    double C[3], t[3], lat[3], up[3], cant_d1;
    int st = track_frame(w, sg, pose, C, t, lat, up, &cant_d1);
    if (st < 0)
        return rs_ws_fail(ws, st, "contact '%s': the wheel centre (%.6g, %.6g, %.6g) m does not "
                                  "project onto the track",
                          ws->model->contacts[i].name, pose[0], pose[1], pose[2]);
    if (st > 0) { /* beyond an end: tolerated for 1 m, as the constraint contact does */
        const double along = (pose[0] - C[0]) * t[0] + (pose[1] - C[1]) * t[1] + (pose[2] - C[2]) * t[2];
        if (fabs(along) > 1.0)
            return rs_ws_fail(ws, RS_E_OFFTRACK,
                              "contact '%s' ran off the end of its track: at t = %.6g s its wheel centre is "
                              "%.6g m %s track '%s' (s = %.6g .. %.6g m), more than 1 m (shorten the run's "
                              "duration or lengthen the track; at t = 0, start the vehicle on the track)",
                              ws->model->contacts[i].name, ws->t, fabs(along), along < 0 ? "before the start of"
                              : "past the end of", w->track->name, w->track->s_begin, w->track->s_end);
    }
    memcpy(w->up, up, sizeof up);
    memcpy(w->lat, lat, sizeof lat);
    memcpy(w->t, t, sizeof t);
    /* rail frame: origin at h_r on the wheel's side, y to the field side */
    double org[3], ex[3], ey[3], ez[3];
    for (int k = 0; k < 3; k++) {
        org[k] = C[k] + sg * c->geom[2 * i + 1] * lat[k];
        ey[k] = sg * lat[k];
        ez[k] = up[k];
    }
    cross3(ey, ez, ex);
    double d[3], cw[3], axle[3], aw[3];
    for (int k = 0; k < 3; k++) {
        d[k] = pose[k] - org[k];
        axle[k] = sg * pose[3 + 3 * k + 1]; /* the axle, to the field side */
    }
    rot_t(ex, ey, ez, d, cw);
    rot_t(ex, ey, ez, axle, aw);
    unit3(aw);
    /* where the wheel stands across its rail (events: a wheel off its rail) */
    w->y_flange = cw[1] + aw[1] * (isfinite(w->u_steep) ? w->u_steep : w->wheel->y[0]);
    w->y_field = cw[1] + aw[1] * w->wheel->y[w->wheel->n - 1];
    rs_patch_opts po = c->popt;
    po.r0 = c->geom[2 * i];
    rs_patch found[RS_PATCH_MAX];
    int n = 0;
    st = rs_patch_find(w->wheel, w->rail, cw, aw, &po, &w->hint, found, RS_PATCH_MAX, &n);
    if (st < 0)
        return rs_ws_fail(ws, st, "contact '%s': the patch search failed (status %d)",
                          ws->model->contacts[i].name, st);
    double Kw = 0; /* the strip law: the wheel's stiffness (damping shares) */
    for (int j = 0; j < n; j++) {
        rs_elastic_patch *pp = &w->p[w->np++];
        /* the patch and the nodes it has (not the whole array) */
        memcpy(&pp->g, &found[j], offsetof(rs_patch, node));
        memcpy(pp->g.node, found[j].node, (size_t)found[j].nn * sizeof found[j].node[0]);
        pp->open = 0;
        if (found[j].nn > 0)
            strip_patch(w, o, pp, ex, ey, ez, org, pose, C, t, cant_d1);
        for (int q = 0; q < pp->g.nn; q++)
            Kw += pp->s[q].kw;
        double P[3], n_g[3], r[3];
        rot(ex, ey, ez, pp->g.pw, P);
        rot(ex, ey, ez, pp->g.n, n_g);
        for (int k = 0; k < 3; k++)
            r[k] = P[k] + org[k] - pose[k];
        memcpy(pp->r, r, sizeof r);
        memcpy(pp->n, n_g, sizeof n_g);
        /* the cross-section turns about the tangent through C by θ' per
         * metre: the rail's point P moves by θ' t × (P − C), along n by ra */
        double PC[3], tPC[3];
        for (int k = 0; k < 3; k++)
            PC[k] = P[k] + org[k] - C[k];
        cross3(t, PC, tPC);
        pp->ra = cant_d1 * dot3(tPC, n_g);
    }
    for (int j = 0; j < w->np; j++) {
        rs_elastic_patch *pp = &w->p[j];
        if ((st = patch_forces(o, w, pp, pp->r, pp->n, t, pp->ra, vO, om, Kw)) < 0)
            return rs_ws_fail(ws, st,
                              "contact '%s': patch %d at u_w = %.4g m, u_r = %.4g m: the Hertz "
                              "contact of its curvatures failed (status %d)",
                              ws->model->contacts[i].name, j + 1, pp->g.u_w, pp->g.u_r, st);
    }
    for (int k = 0; k < 3; k++)
        w->F[k] = w->W[k]; /* until a step applies it (elastic_after_solve) */
    for (int j = 0; j < w->np; j++) /* the flank in contact: where it touches (wheel_near) */
        if (w->p[j].g.alpha > EL_FLANK && w->p[j].N > 0)
            w->y_touch = fmin(w->y_touch, w->y_flange);
    return RS_OK;
}

/* ---- plug-in entries --------------------------------------------------- */

static int elastic_forces(struct rs_ws *ws)
{
    elastic_ws *c = E(ws->ct);
    double *out[4] = {c->pose, c->vel, c->jv, c->geom};
    /* RS_FN_STEP_ELASTIC may have written them already (this step's start) */
    int st = ws->creep_ready ? RS_OK : rs_ws_call_n(ws, RS_FN_WHEEL, out);
    ws->creep_ready = 0;
    if (st)
        return st;
    const int nnz = ws->model->wheel_jac_pattern.colptr[c->nq];
    for (int k = 0; k < nnz; k++)
        c->dbl[c->jmap[k]] = c->jv[k];
    c->solves = 0;
    for (int i = 0; i < c->nc; i++) {
        c->w[i].relin = 0; /* linearized at the step's start */
        memset(c->w[i].dx_lin, 0, sizeof c->w[i].dx_lin);
        if ((st = wheel_forces(ws, i)))
            return st;
    }
    return RS_OK;
}

#if defined(__GNUC__)
/* Two doubles, element by element (GCC's and Clang's vector extension: the
 * same IEEE operations as two scalars', in one instruction where the target
 * has it; other compilers take add_jtaj's plain loop, with the same sums). */
typedef double rs_v2 __attribute__((vector_size(16)));
static rs_v2 ld2(const double *p)
{
    rs_v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

#endif

/* X += Jᵀ A J for wheel w, entry (l1, l2) at X[pos[l2 m + l1]] (pos: w->pos
 * into the extra values, or w->pos_k into the system matrix's; A
 * row-major; T a scratch of 6 × (m + 1)): T = A J (row-major, its rows padded to an even length mp
 * with zeros), then Jᵀ T, the entries (l1, l2) and (l1, l2 + 1) in one
 * pass (for odd m the last pass reads the padding and writes one entry).  Each sum runs over the halves of
 * a column of J that hold non-zeros (w->half): the terms left out are
 * products with J's structural zeros, so every sum is the dense one's, term
 * by term and in its order (less its first 0 +, which can only turn a −0
 * into +0: the same once added to X, which starts at +0). */
static void add_jtaj(const elastic_wheel *w, const double *restrict A, double *restrict T,
                     const int *restrict pos, double *restrict X)
{
    const int m = w->m, mp = m + (m & 1);
    const double *restrict J = w->J;
    const int *restrict half = w->half;
    for (int l = 0; l < m; l++) { /* T = A J */
        const double *j = J + 6 * l;
        switch (half[l]) {
        case 1:
            for (int r = 0; r < 6; r++)
                T[r * mp + l] = A[6 * r] * j[0] + A[6 * r + 1] * j[1] + A[6 * r + 2] * j[2];
            break;
        case 2:
            for (int r = 0; r < 6; r++)
                T[r * mp + l] = A[6 * r + 3] * j[3] + A[6 * r + 4] * j[4] + A[6 * r + 5] * j[5];
            break;
        default:
            for (int r = 0; r < 6; r++)
                T[r * mp + l] = A[6 * r] * j[0] + A[6 * r + 1] * j[1] + A[6 * r + 2] * j[2] +
                                A[6 * r + 3] * j[3] + A[6 * r + 4] * j[4] + A[6 * r + 5] * j[5];
        }
    }
    if (m & 1)
        for (int r = 0; r < 6; r++)
            T[r * mp + m] = 0;
    const double *T0 = T, *T1 = T + mp, *T2 = T + 2 * mp, *T3 = T + 3 * mp, *T4 = T + 4 * mp,
                 *T5 = T + 5 * mp;
#if defined(__GNUC__)
    for (int l1 = 0; l1 < m; l1++) {
        const double *j = J + 6 * l1;
        const double j0 = j[0], j1 = j[1], j2 = j[2], j3 = j[3], j4 = j[4], j5 = j[5];
        const int *p1 = pos + l1;
        int l2 = 0;
        rs_v2 s;
        switch (half[l1]) {
        case 1:
            for (;; l2 += 2) {
                s = j0 * ld2(T0 + l2) + j1 * ld2(T1 + l2) + j2 * ld2(T2 + l2);
                if (l2 + 2 > m)
                    break;
                X[p1[l2 * m]] += s[0];
                X[p1[(l2 + 1) * m]] += s[1];
            }
            break;
        case 2:
            for (;; l2 += 2) {
                s = j3 * ld2(T3 + l2) + j4 * ld2(T4 + l2) + j5 * ld2(T5 + l2);
                if (l2 + 2 > m)
                    break;
                X[p1[l2 * m]] += s[0];
                X[p1[(l2 + 1) * m]] += s[1];
            }
            break;
        default:
            for (;; l2 += 2) {
                s = j0 * ld2(T0 + l2) + j1 * ld2(T1 + l2) + j2 * ld2(T2 + l2) + j3 * ld2(T3 + l2) +
                    j4 * ld2(T4 + l2) + j5 * ld2(T5 + l2);
                if (l2 + 2 > m)
                    break;
                X[p1[l2 * m]] += s[0];
                X[p1[(l2 + 1) * m]] += s[1];
            }
        }
        if (l2 < m) /* m odd: the last column's entry */
            X[p1[l2 * m]] += s[0];
    }
#else
    for (int l1 = 0; l1 < m; l1++) {
        const double *j = J + 6 * l1;
        const double j0 = j[0], j1 = j[1], j2 = j[2], j3 = j[3], j4 = j[4], j5 = j[5];
        const int *p1 = pos + l1;
        /* two entries per pass (plain C: the compiler pairs them into one
         * vector operation where the target has one) */
        for (int l2 = 0; l2 < m; l2 += 2) {
            double s0, s1;
            switch (half[l1]) {
            case 1:
                s0 = j0 * T0[l2] + j1 * T1[l2] + j2 * T2[l2];
                s1 = j0 * T0[l2 + 1] + j1 * T1[l2 + 1] + j2 * T2[l2 + 1];
                break;
            case 2:
                s0 = j3 * T3[l2] + j4 * T4[l2] + j5 * T5[l2];
                s1 = j3 * T3[l2 + 1] + j4 * T4[l2 + 1] + j5 * T5[l2 + 1];
                break;
            default:
                s0 = j0 * T0[l2] + j1 * T1[l2] + j2 * T2[l2] + j3 * T3[l2] + j4 * T4[l2] + j5 * T5[l2];
                s1 = j0 * T0[l2 + 1] + j1 * T1[l2 + 1] + j2 * T2[l2 + 1] + j3 * T3[l2 + 1] + j4 * T4[l2 + 1] +
                     j5 * T5[l2 + 1];
            }
            X[p1[l2 * m]] += s0;
            if (l2 + 1 < m)
                X[p1[(l2 + 1) * m]] += s1;
        }
    }
#endif
}

/* Al += Φᵀ A Φ (6 × 6, row-major), Φ = [I −D; 0 I], D = [d×]: Φ maps the
 * velocity screw (v(O), ω) of a body at O to that at O + d (v(O + d) =
 * v(O) + ω × d = v(O) − D ω), so for two points O, O + d of one rigid body
 * J_{O+d} = Φ J_O, and J_{O+d}ᵀ A J_{O+d} = J_Oᵀ (Φᵀ A Φ) J_O.  With
 * A = [A11 A12; A21 A22] and Dᵀ = −D:
 *   Φᵀ A Φ = [A11, A12 − A11 D; A21 + D A11, A22 − A21 D + D (A12 − A11 D)]. */
static void shift_add(double *restrict Al, const double *restrict A, const double d[3])
{
    const double D[9] = {0, -d[2], d[1], d[2], 0, -d[0], -d[1], d[0], 0};
    double B[36]; /* A Φ */
    for (int r = 0; r < 6; r++)
        for (int k = 0; k < 3; k++) {
            B[6 * r + k] = A[6 * r + k];
            B[6 * r + 3 + k] = A[6 * r + 3 + k] - (A[6 * r] * D[k] + A[6 * r + 1] * D[3 + k] +
                                                   A[6 * r + 2] * D[6 + k]);
        }
    for (int r = 0; r < 3; r++) /* Φᵀ B: rows 0-2 as they are, rows 3-5 + D B(0:3, :) */
        for (int k = 0; k < 6; k++) {
            Al[6 * r + k] += B[6 * r + k];
            Al[6 * (3 + r) + k] += B[6 * (3 + r) + k] + (D[3 * r] * B[k] + D[3 * r + 1] * B[6 + k] +
                                                         D[3 * r + 2] * B[12 + k]);
        }
}

/* Each wheel's A = h C6 + θ h²/2 K6, for Σ_wheels Jᵀ A J.  The wheels of
 * one wheelset share their coordinates: the later ones' A are moved to the
 * lead wheel's centre (shift_add) and added to the lead's, so the sum goes
 * through the lead's J once, which halves the dominant m² work; the same
 * matrix to rounding (test_elastic_step compares it with the wheel-by-wheel
 * sum). */
static void elastic_combine(elastic_ws *c, double h, double th)
{
    const double hk = 0.5 * th * h * h;
    for (int i = 0; i < c->nc; i++) {
        const elastic_wheel *w = &c->w[i];
        double *A = c->A + 36 * i;
        for (int k = 0; k < 36; k++)
            A[k] = h * w->C6[k] + hk * w->K6[k];
    }
    for (int i = 0; i < c->nc; i++) {
        const int l = c->w[i].lead;
        if (l >= 0) {
            const double *Oi = c->pose + 12 * i, *Ol = c->pose + 12 * l;
            const double d[3] = {Oi[0] - Ol[0], Oi[1] - Ol[1], Oi[2] - Ol[2]};
            shift_add(c->A + 36 * l, c->A + 36 * i, d);
        }
    }
}

/* The system matrix += Jᵀ (h C6 + θ h²/2 K6) J over the wheels, straight
 * into its values at the positions elastic_bind found (as the constraint
 * contact's C^K_qq, rs_ck_plan_add): no pass through the extra values and
 * rs_klu_system_add_extra's indexed copy. */
static void elastic_add_k(struct rs_ws *ws, double h)
{
    elastic_ws *c = E(ws->ct);
    elastic_combine(c, h, ws->opt.contact_theta);
    for (int i = 0; i < c->nc; i++)
        if (c->w[i].lead < 0)
            add_jtaj(&c->w[i], c->A + 36 * i, c->T, c->w[i].pos_k, ws->sys.Ax);
}

/* 0 + J_lᵀ f over the halves of J_l that hold non-zeros, the dense sum's
 * terms in its order (those left out are ±0). */
static double jcol_dot(const double *restrict j, int half, const double *restrict f)
{
    double s = 0;
    if (half & 1)
        s = s + j[0] * f[0] + j[1] * f[1] + j[2] * f[2];
    if (half & 2)
        s = s + j[3] * f[3] + j[4] * f[4] + j[5] * f[5];
    return s;
}

/* rhs += h Jᵀ (W + C6 J q̇ − θ h/2 K6 J q̇). */
static void elastic_add_forces(const struct rs_ws *ws, double h, double *rhs)
{
    const elastic_ws *c = CE(ws->ct);
    const double th = ws->opt.contact_theta, hk = 0.5 * th * h;
    const double *qd = ws->qd;
    for (int i = 0; i < c->nc; i++) {
        const elastic_wheel *w = &c->w[i];
        const double *J = w->J;
        const int *half = w->half, *cols = w->cols;
        double v6[6] = {0}, f[6];
        for (int l = 0; l < w->m; l++) /* dense: vectorized */
            for (int k = 0; k < 6; k++)
                v6[k] += J[6 * l + k] * qd[cols[l]];
        for (int r = 0; r < 6; r++) {
            const double *C6 = w->C6 + 6 * r, *K6 = w->K6 + 6 * r;
            double fr = w->W[r];
            for (int k = 0; k < 6; k++)
                fr += (C6[k] - hk * K6[k]) * v6[k];
            f[r] = fr;
        }
        for (int l = 0; l < w->m; l++)
            rhs[cols[l]] += h * jcol_dot(J + 6 * l, half[l], f);
    }
}

static const rs_pattern *elastic_pattern(const rs_contact_ws *c) { return &CE(c)->x; }
/* At set-up, after the step matrix is built: each wheel's J^T A J
 * positions in the system matrix's values (the contact part's value p sits
 * at map[p]).  A model with plugins may have them implicit, which
 * evaluates RS_FN_DELTA_JAC each step: its creep terms (× 0 here) need
 * finite contact geometry in the spline slots. */
static void elastic_bind(struct rs_ws *ws)
{
    elastic_ws *c = E(ws->ct);
    /* θ resolved once (0: the law's own), where the step and
     * rs_ws_options read it */
    ws->opt.contact_theta = rs_elastic_theta(&ws->opt);
    const int *map = rs_klu_system_extra_map(&ws->sys, RS_KLU_EXTRA_CONTACT);
    for (int i = 0; i < c->nc; i++) {
        elastic_wheel *w = &c->w[i];
        for (int k = 0; k < w->m * w->m; k++)
            w->pos_k[k] = map[w->pos[k]];
    }
    if (ws->model->n_plugin > 0)
        rs_elastic_fill_splines(ws);
}
static void elastic_fill(rs_contact_ws *c, int i, const double *s, double *u)
{
    (void)c, (void)i, (void)s, (void)u;
}
static void elastic_inputs_changed(rs_contact_ws *c) { (void)c; }
/* Where RS_FN_STEP_ELASTIC writes RS_FN_WHEEL's outputs. */
static void elastic_step_outputs(rs_contact_ws *c, double **out)
{
    out[0] = E(c)->pose;
    out[1] = E(c)->vel;
    out[2] = E(c)->jv;
    out[3] = E(c)->geom;
    out[4] = NULL;
}
static int elastic_nothing(struct rs_ws *ws, double t)
{
    (void)ws, (void)t;
    return RS_OK;
}

/* In place of the contact-point Newton (called at initialization and after
 * each step): at every initialization (the parameters may have changed
 * since the last), the track's gauge against the model's rails and every
 * wheel-rail pair's input checks (rs_patch_check_pair). */
static int elastic_check(struct rs_ws *ws, double t)
{
    elastic_ws *c = E(ws->ct);
    if (c->gauge_checked && !ws->in_init)
        return RS_OK;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    double *out[RS_FN_MAX_OUT] = {NULL, NULL, NULL, c->geom};
    int st = rs_ws_call_n(ws, RS_FN_WHEEL, out);
    if (st || (st = rs_contact_check_gauge(ws, c->files, c->geom)))
        return st;
    /* and each wheel-rail pair as the patch search needs it */
    for (int i = 0; i < c->nc; i++) {
        char msg[700];
        if ((st = rs_patch_check_pair(c->w[i].wheel, c->w[i].rail, c->geom[2 * i], msg, sizeof msg)))
            return rs_ws_fail(ws, st, "contact '%s': %s", ws->model->contacts[i].name, msg);
        /* the search's bound tables now, not in the first step */
        rs_patch_hint_prepare(&c->w[i].hint, c->w[i].wheel, c->w[i].rail);
        /* the strip law's stiffness, at the wheel's radius (once per pair,
         * radius and material: 0.7 M instructions a table) */
        if (c->popt.strips) {
            const elastic_wheel *w = &c->w[i];
            int same = -1;
            for (int l = 0; l < i && same < 0; l++)
                if (c->w[l].wheel == w->wheel && c->w[l].rail == w->rail && c->w[l].E == w->E &&
                    c->w[l].nu == w->nu && c->geom[2 * l] == c->geom[2 * i])
                    same = l;
            if (same >= 0)
                *w->kt = *c->w[same].kt;
            else if ((st = rs_strip_table_make(w->kt, w->wheel, w->rail, c->geom[2 * i], w->E, w->nu)))
                return rs_ws_fail(ws, st, "contact '%s': the strip law's Hertz constants failed (status %d)",
                                  ws->model->contacts[i].name, st);
        }
    }
    c->gauge_checked = 1;
    return RS_OK;
}
/* Hands one event to the caller; RS_E_DERAILED when its callback asks to
 * stop. */
static int report_event(struct rs_ws *ws, const rs_contact_event *e)
{
    ws->stats.contact_events++;
    if (!ws->opt.contact_event || !ws->opt.contact_event(ws->opt.contact_event_ctx, e))
        return RS_OK;
    if (e->off > 0)
        return rs_ws_fail(ws, RS_E_DERAILED,
                          "contact '%s': derailment at t = %.6g s: the wheel left its rail (no contact, %.1f mm "
                          "beyond the rail's crown)",
                          ws->model->contacts[e->contact].name, e->t, e->off * 1e3);
    if (!(e->limit > 0)) /* μ = 0: no limit to quote (rs_options.h) */
        return rs_ws_fail(ws, RS_E_DERAILED,
                          "contact '%s': %s at t = %.6g s, Y/Q = %.3f (no Nadal's limit: friction 0; flange angle "
                          "%.1f deg), contact at u_w = %.2f mm",
                          ws->model->contacts[e->contact].name,
                          e->kind == RS_EVENT_DERAILMENT ? "derailment (the contact passed the flange's steepest point)"
                                                         : "flange climbing",
                          e->t, e->Y_Q, e->alpha * 57.29577951308232, e->u_w * 1e3);
    return rs_ws_fail(ws, RS_E_DERAILED,
                      "contact '%s': %s at t = %.6g s, Y/Q = %.3f (Nadal's limit %.3f at "
                      "alpha = %.1f deg, mu = %g), contact at u_w = %.2f mm",
                      ws->model->contacts[e->contact].name,
                      e->kind == RS_EVENT_DERAILMENT ? "derailment (the contact passed the "
                                                       "flange's steepest point)"
                                                     : "flange climbing",
                      e->t, e->Y_Q, e->limit, e->alpha * 57.29577951308232, E(ws->ct)->w[e->contact].mu,
                      e->u_w * 1e3);
}

/* Flange climbing and derailment of wheel i (rs_contact_event), from the
 * wrench the step applies (F_next), the step dt long and ending at t_end:
 * the wheel's next flags into climbing_next, derailed_next, and the events
 * that start, climbing first (both may start in one step).  RS_E_DERAILED
 * when the caller's callback asks to stop. */
static int wheel_events(struct rs_ws *ws, int i, double t_end, double dt)
{
    elastic_wheel *w = &E(ws->ct)->w[i];
    w->climb_next = w->climb;
    w->derailed_next = w->derailed;
    const double sg = ws->model->contacts[i].side;
    const double Q = dot3(w->F_next, w->up), Y = -sg * dot3(w->F_next, w->lat);
    const rs_elastic_patch *steep = NULL;
    for (int j = 0; j < w->np; j++)
        if (w->p[j].N > 0 && (!steep || w->p[j].g.alpha > steep->g.alpha))
            steep = &w->p[j];
    if (!steep || !(Q > 0)) { /* no contact: no exceedance (the count restarts) */
        w->climb_next.above = 0;
        /* no contact, and no longer above its rail: the flange's steepest
         * point past the rail's crown (fallen off to the field side: a
         * climb the flange criterion below missed within one step, or any
         * friction, 0 included) or the whole tread inside it (fallen
         * between the rails) is a derailment whatever led to it */
        const double off = w->y_flange > w->y_crown ? w->y_flange - w->y_crown
                           : w->y_field < w->y_crown ? w->y_crown - w->y_field
                                                     : 0;
        if (!(off > 0))
            return RS_OK;
        w->derailed_next = 1;
        if (w->derailed)
            return RS_OK;
        const rs_contact_event e = {RS_EVENT_DERAILMENT, i, t_end, 0, 0, w->flange_angle, NAN, t_end, off, 0};
        return report_event(ws, &e);
    }
    /* Nadal's limit at the flange angle (the steepest the flange offers: a
     * contact lower on the flange root climbs to it before the wheel can
     * climb the flange) */
    const double mu = w->mu, ta = tan(w->flange_angle);
    const double limit = mu > 0 ? (ta - mu) / (1 + mu * ta) : 0;
    /* flange contact only: Nadal's limit means nothing on the tread */
    const int flange = steep->g.alpha > 0.7853981633974483;
    /* derailed: past the flank's outer end, where the angle falls below the
     * flank's.  A yawed wheel's flange contact leads the axle, towards the
     * tip in u_w and steeper than the flank (a 9 m wagon in R 150 m: 31
     * mrad, u_w 0.2 mm past the end at 76 deg, Y/Q 0.57, not rising):
     * the flank still bears there (test_outsider_curving) */
    const int exceed = flange && mu > 0 && Y / Q >= limit,
              derail = flange && steep->g.u_w < w->u_steep && steep->g.alpha < w->flange_angle;
    /* a climb: Y/Q at the limit held for contact_climb_time (rs_climb.h);
     * a derailment ends only when the contact is back inside the flank
     * (riding the flange's rounded top, below 45°, is still derailed) */
    const int climb = rs_climb_update(&w->climb, Y / Q, limit, exceed, derail, dt, ws->opt.contact_climb_time,
                                      &w->climb_next);
    w->derailed_next = derail || (w->derailed && steep->g.u_w < w->u_steep);
    rs_contact_event e = {RS_EVENT_FLANGE_CLIMB, i, t_end, Y / Q, limit, w->flange_angle, steep->g.u_w,
                          t_end - w->climb_next.above, 0, climb == RS_CLIMB_BY_DERAILMENT};
    int st = RS_OK;
    if (climb)
        st = report_event(ws, &e);
    e.kind = RS_EVENT_DERAILMENT;
    e.t_start = t_end;
    e.by_derailment = 0;
    if (!st && derail && !w->derailed)
        st = report_event(ws, &e);
    return st;
}

/* The wheel's motion over the step: Δv6 = J (q̇⁺ − q̇), Δx6 = J Δt (q̇ + q̇⁺)/2. */
static void wheel_motion(const elastic_wheel *w, const double *qd, const double *qd_new, double h, double dv[6],
                         double dx[6])
{
    memset(dv, 0, 6 * sizeof *dv);
    memset(dx, 0, 6 * sizeof *dx);
    for (int l = 0; l < w->m; l++) {
        const int j = w->cols[l];
        for (int k = 0; k < 6; k++) {
            dv[k] += w->J[6 * l + k] * (qd_new[j] - qd[j]);
            dx[k] += w->J[6 * l + k] * 0.5 * h * (qd_new[j] + qd[j]);
        }
    }
}

/* The step solves at most this often (each solve again opens a patch or
 * more, or re-linearizes a wheel's wrench: wheel_closes): the FEVE's demo
 * with `contact elastic` solves 8 of its first 8 400 steps at 1 ms twice
 * without the Newton correction, and with it 472 twice, 5 three times and
 * 2 four times (test_elastic_dt). */
enum { EL_SOLVES_MAX = 4 };

/* wheel_closes re-linearizes a wheel where the force the step applied and
 * the force the wrench linearized at the step's end would apply differ by
 * more than this share of the larger (or of EL_NEWTON_FLOOR, whichever is
 * more: a grazing wheel's few newtons do not cost a solve). */
#define EL_NEWTON_FRAC 0.03
#define EL_NEWTON_FLOOR 1e3 /* N: 2.5 % of the FEVE's static wheel load */

/* Wheel i's W, C6, K6 again from its patches as they are, the open ones
 * carrying nothing (lift-off). */
static int wheel_resum(struct rs_ws *ws, int i)
{
    elastic_ws *c = E(ws->ct);
    elastic_wheel *w = &c->w[i];
    const double *vO = c->vel + 6 * i, *om = vO + 3;
    memset(w->W, 0, sizeof w->W);
    memset(w->C6, 0, sizeof w->C6);
    memset(w->K6, 0, sizeof w->K6);
    w->energy = 0;
    double Kw = 0;
    for (int j = 0; j < w->np; j++)
        for (int q = 0; q < w->p[j].g.nn; q++)
            Kw += w->p[j].open ? 0 : w->p[j].s[q].kw;
    for (int j = 0; j < w->np; j++) {
        rs_elastic_patch *pp = &w->p[j];
        int st = patch_forces(&ws->opt, w, pp, pp->r, pp->n, w->t, pp->ra, vO, om, Kw);
        if (st < 0)
            return rs_ws_fail(ws, st, "contact '%s': patch %d: the Hertz contact of its curvatures failed "
                                      "(status %d)", ws->model->contacts[i].name, j + 1, st);
    }
    return RS_OK;
}

/* A patch the solve made pull: its normal force linearized to the step's
 * end, N − c_n ge·Δv − θ k_n ge·Δx, below zero.  Such a patch opens within
 * the step (lift-off is a state: an open patch carries nothing), so it is
 * taken out of the step and the step solves again; the patches still
 * closed then apply their linearized forces, each >= 0 (checked again).
 * Bounding the force at zero in the right-hand side alone would break the
 * solve's balance: q̇⁺ came from the matrix with the patch's k_n and c_n,
 * so the bodies would move as if it pulled.  Returns 1 when a patch of
 * wheel i opened. */
static int wheel_opens(elastic_wheel *w, const double dv[6], const double dx[6], double th)
{
    int opened = 0;
    for (int j = 0; j < w->np; j++) {
        rs_elastic_patch *pp = &w->p[j];
        if (pp->open || !(pp->N > 0))
            continue;
        double gv = 0, gx = 0;
        for (int k = 0; k < 6; k++)
            gv += pp->ge[k] * dv[k], gx += pp->ge[k] * dx[k];
        if (pp->N - pp->cn * gv - th * pp->kn * gx < 0)
            pp->open = opened = 1;
    }
    return opened;
}

/* W of a wheel linearized at x_n + dx_lin, as the step's matrix and
 * right-hand side take it: they apply W − C6 J Δq̇ − θ K6 J Δx with Δx from
 * the step's start, so W holds (1 − θ) W_n + θ (W(x_n + dx_lin) + K6 dx_lin),
 * and the force at the step's end is θ W(x⁺) linearized about
 * x_n + dx_lin plus (1 − θ) of the start's. */
static void wheel_shift(elastic_wheel *w, double th)
{
    for (int r = 0; r < 6; r++) {
        double s = w->W[r];
        for (int k = 0; k < 6; k++)
            s += w->K6[6 * r + k] * w->dx_lin[k];
        w->W[r] = (1 - th) * w->W_n[r] + th * s;
    }
}

/* Patch *from into *to: its fields and only the quadrature nodes it has
 * (the strip law's; none under the point law), not the whole arrays. */
static void patch_copy(rs_elastic_patch *to, const rs_elastic_patch *from)
{
    const size_t gh = offsetof(rs_patch, node), f0 = offsetof(rs_elastic_patch, N),
                 f1 = offsetof(rs_elastic_patch, s);
    memcpy(&to->g, &from->g, gh);
    memcpy(to->g.node, from->g.node, (size_t)from->g.nn * sizeof from->g.node[0]);
    memcpy((char *)to + f0, (const char *)from + f0, f1 - f0);
    memcpy(to->s, from->s, (size_t)from->g.nn * sizeof from->s[0]);
}

/* All of a wheel but its patch search's bound tables (a cache of the
 * profile pair alone: elastic_state_restore's split); its patches by
 * patch_copy (a wheel holds 13 KB of quadrature nodes the point law never
 * fills: copied whole, the FEVE's elastic step took 7 % more instructions). */
static void wheel_copy(elastic_wheel *to, const elastic_wheel *from)
{
    const size_t b0 = offsetof(elastic_wheel, hint) + offsetof(rs_patch_hint, b), b1 = b0 + sizeof from->hint.b;
    const size_t p0 = offsetof(elastic_wheel, p), p1 = p0 + sizeof from->p;
    _Static_assert(offsetof(elastic_wheel, hint) < offsetof(elastic_wheel, p), "the hint before the patches");
    memcpy(to, from, b0);
    memcpy((char *)to + b1, (const char *)from + b1, p0 - b1);
    memcpy((char *)to + p1, (const char *)from + p1, sizeof *to - p1);
    for (int j = 0; j < from->np; j++)
        patch_copy(&to->p[j], &from->p[j]);
}

/* The wheel's pose (O_w, R row-major, RS_FN_WHEEL's; its column 1 the
 * axle) moved by the screw dx: O_w + dx(0:3), R turned by the rotation
 * vector dx(3:6) less its part about the axle (Rodrigues).  The wheel is a
 * body of revolution, so its spin moves nothing the patches see; left in,
 * the spin's 53 mrad a step (FEVE, 23.7 m/s) and a yaw of φ_y would tilt the
 * axle by a spurious φ_s φ_y / 2 (8e-6 rad, 3 um at the contact). */
static void pose_moved(const double *pose, const double dx[6], double *out)
{
    memcpy(out, pose, 12 * sizeof *out);
    for (int k = 0; k < 3; k++)
        out[k] += dx[k];
    const double ax[3] = {pose[4], pose[7], pose[10]}, sa = dot3(dx + 3, ax);
    const double phi[3] = {dx[3] - sa * ax[0], dx[4] - sa * ax[1], dx[5] - sa * ax[2]};
    const double ph = sqrt(dot3(phi, phi));
    if (!(ph > 0))
        return;
    const double e[3] = {phi[0] / ph, phi[1] / ph, phi[2] / ph}, co = cos(ph), si = sin(ph);
    for (int col = 0; col < 3; col++) {
        const double v[3] = {pose[3 + col], pose[6 + col], pose[9 + col]};
        double exv[3];
        cross3(e, v, exv);
        const double ev = dot3(e, v);
        for (int k = 0; k < 3; k++)
            out[3 + 3 * k + col] = v[k] * co + exv[k] * si + e[k] * ev * (1 - co);
    }
}

/* Whether wheel i may have a patch at the step's end that its
 * linearization does not describe (wheel_closes' probe is worth its
 * patch search). */
static int wheel_near(const elastic_wheel *w, const double *pose, double sg, const double dx[6], double th)
{
    if (w->np == 0) /* in the air: it may land */
        return 1;
    /* the patches it carries: the Hertz law's curvature over the step,
     * |c_H p⁺^{3/2} − (c_H p^{3/2} + k_n Δp)| with Δp = −g_e·Δx from where
     * the wrench is linearized, summed (the geometry's own change, the
     * contact point moving along the profiles, is left to the margin: half
     * of EL_NEWTON_FRAC) */
    const double F2 = dot3(w->F_next, w->F_next);
    const double lim = 0.5 * EL_NEWTON_FRAC * fmax(EL_NEWTON_FLOOR, sqrt(F2));
    double off = 0;
    int flank = 0;
    for (int j = 0; j < w->np; j++) {
        const rs_elastic_patch *pp = &w->p[j];
        if (pp->open || !(pp->N > 0))
            continue;
        flank |= pp->g.alpha > EL_FLANK;
        double gx = 0;
        for (int k = 0; k < 6; k++)
            gx += pp->ge[k] * (dx[k] - w->dx_lin[k]);
        const double p = pp->g.pen, p1 = p - gx;
        const double hz = p1 > 0 ? pp->c_hertz * p1 * sqrt(p1) : 0;
        off += th * fabs(hz - pp->c_hertz * p * sqrt(p) + pp->kn * gx);
    }
    if (off > lim)
        return 1;
    if (flank)
        return 0;
    /* a flank that may close: the flange's y (wheel_forces' y_flange)
     * moved with the wheel, against where the flank touched (flank_touch,
     * or the least y_flange it was seen in contact at) less 0.3 mm: the
     * wheel's roll, yaw and height move that point by 30 um on the FEVE,
     * the rail under a rolling wheel by up to 0.1 mm a step */
    const double u_ref = isfinite(w->u_steep) ? w->u_steep : w->wheel->y[0];
    double ey[3], ax[3], rx[3];
    for (int k = 0; k < 3; k++) {
        ey[k] = sg * w->lat[k];
        ax[k] = sg * pose[3 + 3 * k + 1];
    }
    cross3(dx + 3, ax, rx);
    const double y1 = w->y_flange + dot3(ey, dx) + u_ref * dot3(ey, rx);
    return y1 > w->y_touch - 3e-4;
}

/* The normal forces of wheel w's patches as the step applies them, Σ
 * (N − c_n g_e·Δv − θ k_n g_e·(Δx − dx_lin)) n over its closed patches
 * (dx NULL: Σ (N − c_n g_e·Δv) n, the patches' own pose). */
static void normal_force(const elastic_wheel *w, const double dv[6], const double *dx, double th, double f[3])
{
    f[0] = f[1] = f[2] = 0;
    for (int j = 0; j < w->np; j++) {
        const rs_elastic_patch *pp = &w->p[j];
        if (pp->open || !(pp->N > 0))
            continue;
        double gv = 0, gx = 0;
        for (int k = 0; k < 6; k++) {
            gv += pp->ge[k] * dv[k];
            gx += dx ? pp->ge[k] * (dx[k] - w->dx_lin[k]) : 0;
        }
        const double N = pp->N - pp->cn * gv - th * pp->kn * gx;
        for (int k = 0; k < 3; k++)
            f[k] += N * pp->n[k];
    }
}

/* Component r of Σ N n over wheel w's closed patches (the start's share
 * of the θ-step's force). */
static double normal_part(const elastic_wheel *w, int r)
{
    double s = 0;
    for (int j = 0; j < w->np; j++)
        if (!w->p[j].open && w->p[j].N > 0)
            s += w->p[j].N * w->p[j].n[r];
    return s;
}

/* The closing side of the step (issue 20): a Newton iteration of the
 * implicit step on the contact wrench.  The solve predicts the wheel's pose
 * at the step's end, x⁺ = x_n + dx (wheel_motion); the wheel's patches are
 * found there, and where the force the step applied (F_next, the wrench
 * linearized at x_n) and the force the wrench linearized at x⁺ gives at the
 * same q̇⁺ differ by more than EL_NEWTON_FRAC (a flange that closes within
 * the step: the linearization at x_n does not see its stiffness, and the
 * wheel runs into it), the wheel's W, C6, K6 become those at x⁺ (W shifted,
 * wheel_shift) and the step is solved again.  Only the contact wrench is
 * re-linearized: the bodies' mass, forces and the other terms stay at x_n,
 * as in every step, so the step's order stays one; converged, the solve
 * applies θ F(x⁺) + (1 − θ) F(x_n), the contact force's implicit Euler
 * (θ = 1) on the steps that need it.  The wheel's kinematics are the
 * start's (J, its velocity): x⁺ is the start's pose moved by J's screw, whose
 * error is O(Δt²) against the Hertz approach's O(Δt) change (the FEVE at
 * 1 ms: against RS_FN_WHEEL at q⁺, the centre within 0.04 um, the axle
 * within 3e-8 rad; approaches 16-110 um).  A wheel that
 * does not re-linearize is left as it was (wheel_copy).  Sets *again when
 * it re-linearized. */
static int wheel_closes(struct rs_ws *ws, int i, const double dv[6], const double dx[6], double th, int *again)
{
    elastic_ws *c = E(ws->ct);
    elastic_wheel *w = &c->w[i];
    double *pose = c->pose + 12 * i, p0[12];
    if (!wheel_near(w, pose, ws->model->contacts[i].side, dx, th))
        return RS_OK;
    memcpy(p0, pose, sizeof p0);
    wheel_copy(c->keep, w);
    pose_moved(p0, dx, pose);
    int st = wheel_forces(ws, i);
    memcpy(pose, p0, sizeof p0);
    if (st)
        return st;
    const double *Wn = c->keep->relin ? c->keep->W_n : c->keep->W;
    double fl[3], fn[3], d2 = 0, a2, b2;
    normal_force(c->keep, dv, dx, th, fl);
    normal_force(w, dv, NULL, th, fn);
    for (int r = 0; r < 3; r++) {
        const double f = (1 - th) * normal_part(c->keep, r) + th * fn[r];
        d2 += (f - fl[r]) * (f - fl[r]);
        fn[r] = f;
    }
    a2 = dot3(fn, fn);
    b2 = dot3(fl, fl);
    const double scale = fmax(EL_NEWTON_FLOOR, sqrt(fmax(a2, b2)));
    if (!(sqrt(d2) > EL_NEWTON_FRAC * scale)) {
        wheel_copy(w, c->keep);
        return RS_OK;
    }
    memcpy(w->W_n, Wn, sizeof w->W_n);
    memcpy(w->dx_lin, dx, sizeof w->dx_lin);
    w->relin = 1;
    wheel_shift(w, th);
    *again = 1;
    return RS_OK;
}

/* The wrench the step applied: W linearized to the step's end,
 * W − C6 J (q̇⁺ − q̇) − θ K6 J Δt (q̇ + q̇⁺)/2, into F (the results); then
 * the wheels' events.  A patch that the solve made pull opens and the step
 * is solved again (wheel_opens; RS_CONTACT_AGAIN), and so is a wheel whose
 * wrench at the step's end differs from its linearization (wheel_closes).
 * Nothing is committed before every wheel's events have passed: a step the
 * caller stops leaves the contacts as they were. */
static int elastic_after_solve(struct rs_ws *ws, const double *qd_new)
{
    elastic_ws *c = E(ws->ct);
    const double h = ws->dt, th = ws->opt.contact_theta;
    /* one pass over the wheels: each wheel's motion once */
    const int may_again = ++c->solves < EL_SOLVES_MAX;
    int again = 0;
    for (int i = 0; i < c->nc; i++) {
        elastic_wheel *w = &c->w[i];
        double dv[6], dx[6];
        wheel_motion(w, ws->qd, qd_new, h, dv, dx);
        if (w->np == 0) { /* in the air: W, C6, K6 are 0 */
            memset(w->F_next, 0, sizeof w->F_next);
        } else {
            double dxr[6]; /* from where the wrench is linearized */
            for (int k = 0; k < 6; k++)
                dxr[k] = dx[k] - w->dx_lin[k];
            if (may_again && wheel_opens(w, dv, dxr, th)) {
                int st = wheel_resum(ws, i);
                if (st)
                    return st;
                if (w->relin)
                    wheel_shift(w, th);
                again = 1;
                continue;
            }
            for (int r = 0; r < 3; r++) {
                double f = w->W[r];
                for (int k = 0; k < 6; k++)
                    f -= w->C6[6 * r + k] * dv[k] + th * w->K6[6 * r + k] * dx[k];
                w->F_next[r] = f;
            }
        }
        int st;
        if (may_again && (st = wheel_closes(ws, i, dv, dx, th, &again)))
            return st;
    }
    if (again)
        return RS_CONTACT_AGAIN;
    for (int i = 0; i < c->nc; i++) {
        int st = wheel_events(ws, i, ws->t + ws->dt, ws->dt);
        if (st)
            return st;
    }
    for (int i = 0; i < c->nc; i++) {
        elastic_wheel *w = &c->w[i];
        memcpy(w->F, w->F_next, sizeof w->F);
        w->climb = w->climb_next;
        w->derailed = w->derailed_next;
    }
    if (!may_again) /* said at the run's end (rs_driver.c): not silently */
        ws->stats.contact_unchecked++;
    return RS_OK;
}

/* The patch carrying the largest normal force, or NULL. */
static const rs_elastic_patch *main_patch(const elastic_wheel *w)
{
    const rs_elastic_patch *best = NULL;
    for (int j = 0; j < w->np; j++)
        if (!best || w->p[j].N > best->N)
            best = &w->p[j];
    return best;
}

static double elastic_value(const struct rs_ws *ws, int i, int k)
{
    const elastic_wheel *w = &CE(ws->ct)->w[i];
    const double sg = ws->model->contacts[i].side;
    const double Q = dot3(w->F, w->up), Y = -sg * dot3(w->F, w->lat);
    double N = 0;
    for (int j = 0; j < w->np; j++)
        N += w->p[j].N;
    if (k > RS_CONTACT_VAR_PATCHES) { /* "p<j>.<quantity>" */
        const int j = (k - RS_CONTACT_VAR_COUNT) / RS_PATCH_VAR_COUNT;
        const int q = (k - RS_CONTACT_VAR_COUNT) % RS_PATCH_VAR_COUNT;
        if (j >= w->np)
            return 0;
        const rs_elastic_patch *pj = &w->p[j];
        switch (q) {
        case RS_PATCH_VAR_U_W: return pj->g.u_w;
        case RS_PATCH_VAR_U_R: return pj->g.u_r;
        case RS_PATCH_VAR_ALPHA: return pj->g.alpha;
        case RS_PATCH_VAR_PEN: return pj->g.pen;
        case RS_PATCH_VAR_N: return pj->N;
        case RS_PATCH_VAR_A: return pj->a;
        case RS_PATCH_VAR_B: return pj->b;
        default:
            return q >= RS_PATCH_VAR_FX ? pj->f[q - RS_PATCH_VAR_FX] : pj->xi[q - RS_PATCH_VAR_XI_X];
        }
    }
    const rs_elastic_patch *p = main_patch(w);
    switch (k) {
    case RS_CONTACT_VAR_PATCHES: return w->np;
    case RS_CONTACT_VAR_N: return N;
    case RS_CONTACT_VAR_Y: return Y;
    case RS_CONTACT_VAR_Q: return Q;
    case RS_CONTACT_VAR_Y_Q: return Q != 0 ? Y / Q : 0;
    default: return p && k >= 0 && k < 3 ? p->xi[k] : 0;
    }
}

/* ---- state copy (rs_contact_ops state_*; rs_ws_state.h) -----------------
 *
 * The wheels as they are (hints, forces, patches, events, J) with the
 * evaluation outputs and the constraint contact's state (the spline fill);
 * on restore each wheel keeps its own pointers and its patch bound tables,
 * a cache of the profile pair alone (rs_patch_hint), so a copy restores
 * into another workspace of the same model too. */

typedef struct el_span {
    void *p;
    size_t bytes;
} el_span;

enum { EL_SPANS = 5 }; /* not X: a scratch of rs_elastic_step_matrix */

static void el_spans(const elastic_ws *c, el_span *s)
{
    const rs_model *m = c->files->model;
    size_t n_dbl = 0;
    for (int i = 0; i < c->nc; i++)
        n_dbl += 6 * (size_t)c->w[i].m;
    const size_t nc = (size_t)c->nc, d = sizeof(double);
    s[0] = (el_span){c->dbl, n_dbl * d};
    s[1] = (el_span){c->pose, 12 * nc * d};
    s[2] = (el_span){c->vel, 6 * nc * d};
    s[3] = (el_span){c->jv, (size_t)m->wheel_jac_pattern.colptr[m->n_q] * d};
    s[4] = (el_span){c->geom, 2 * nc * d};
}

static size_t elastic_state_size(const rs_contact_ws *cw)
{
    const elastic_ws *c = CE(cw);
    el_span s[EL_SPANS];
    el_spans(c, s);
    size_t n = (size_t)c->nc * sizeof(elastic_wheel) + sizeof c->gauge_checked + rs_contact_state_size(c->files);
    for (int k = 0; k < EL_SPANS; k++)
        n += s[k].bytes;
    return n;
}

static void elastic_state_save(const rs_contact_ws *cw, void *buf)
{
    const elastic_ws *c = CE(cw);
    char *p = buf;
    el_span s[EL_SPANS];
    el_spans(c, s);
    memcpy(p, c->w, (size_t)c->nc * sizeof(elastic_wheel));
    p += (size_t)c->nc * sizeof(elastic_wheel);
    for (int k = 0; k < EL_SPANS; k++) {
        if (s[k].bytes)
            memcpy(p, s[k].p, s[k].bytes);
        p += s[k].bytes;
    }
    memcpy(p, &c->gauge_checked, sizeof c->gauge_checked);
    rs_contact_state_save(c->files, p + sizeof c->gauge_checked);
}

static void elastic_state_restore(rs_contact_ws *cw, const void *buf)
{
    elastic_ws *c = E(cw);
    const char *p = buf;
    for (int i = 0; i < c->nc; i++, p += sizeof(elastic_wheel)) {
        elastic_wheel *w = &c->w[i];
        const rs_profile *wheel = w->wheel, *rail = w->rail;
        const rs_track *track = w->track;
        int *cols = w->cols, *half = w->half, *pos = w->pos, *pos_k = w->pos_k;
        double *J = w->J;
        const rs_patch_bounds *b = &w->hint.b;
        /* all but the bound tables (the hint's splines first, then the rest) */
        const size_t b0 = offsetof(elastic_wheel, hint) + offsetof(rs_patch_hint, b), b1 = b0 + sizeof *b;
        memcpy(w, p, b0);
        memcpy((char *)w + b1, p + b1, sizeof *w - b1);
        w->wheel = wheel, w->rail = rail, w->track = track;
        w->cols = cols, w->half = half, w->pos = pos, w->pos_k = pos_k, w->J = J;
    }
    el_span s[EL_SPANS];
    el_spans(c, s);
    for (int k = 0; k < EL_SPANS; k++) {
        if (s[k].bytes)
            memcpy(s[k].p, p, s[k].bytes);
        p += s[k].bytes;
    }
    memcpy(&c->gauge_checked, p, sizeof c->gauge_checked);
    rs_contact_state_restore(c->files, p + sizeof c->gauge_checked);
}

const rs_contact_ops *rs_elastic_contact(void)
{
    static const rs_contact_ops ops = {
        elastic_create,       elastic_free,           elastic_pattern,      elastic_bind,
        elastic_fill,         elastic_inputs_changed, elastic_step_outputs, elastic_check,
        elastic_nothing,      elastic_forces,         elastic_add_k,        elastic_add_forces,
        elastic_after_solve,  elastic_value,          1,
        elastic_state_size,   elastic_state_save,     elastic_state_restore};
    return &ops;
}

const rs_contact_ops *rs_contact_for_model(const rs_model *m)
{
    int n_el = 0;
    for (int i = 0; i < m->n_contact; i++)
        n_el += m->contacts[i].elastic != 0;
    return n_el == 0 ? rs_wheel_rail_contact() : n_el == m->n_contact ? rs_elastic_contact() : NULL;
}

int rs_elastic_patches(const struct rs_ws *ws, int i) { return CE(ws->ct)->w[i].np; }

int rs_elastic_step_solves(const struct rs_ws *ws) { return CE(ws->ct)->solves; }

const rs_elastic_patch *rs_elastic_patch_get(const struct rs_ws *ws, int i, int j)
{
    const elastic_wheel *w = &CE(ws->ct)->w[i];
    return j >= 0 && j < w->np ? &w->p[j] : NULL;
}

double rs_elastic_energy(struct rs_ws *ws)
{
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    ws->creep_ready = 0; /* the wheel function at this state */
    if (elastic_forces(ws))
        return NAN;
    double e = 0;
    for (int i = 0; i < CE(ws->ct)->nc; i++)
        e += CE(ws->ct)->w[i].energy;
    return e;
}

int rs_elastic_eval(struct rs_ws *ws, double t, const double *q, const double *qd)
{
    const int nq = ws->model->n_q;
    if (q != ws->q)
        memcpy(ws->q, q, (size_t)nq * sizeof(double));
    if (qd != ws->qd)
        memcpy(ws->qd, qd, (size_t)nq * sizeof(double));
    ws->t = t;
    int st = elastic_check(ws, t); /* once: gauge and wheel-rail pairs */
    if (st)
        return st;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    ws->creep_ready = 0; /* the wheel function at this state */
    return elastic_forces(ws);
}

void rs_elastic_wheel_get(const struct rs_ws *ws, int i, rs_elastic_wheel_state *out)
{
    const elastic_wheel *w = &CE(ws->ct)->w[i];
    out->m = w->m;
    out->cols = w->cols;
    out->J = w->J;
    out->W = w->W;
    out->K6 = w->K6;
    out->C6 = w->C6;
    out->up = w->up;
    out->hint = &w->hint;
}

void rs_elastic_step_matrix(struct rs_ws *ws, double h, double *K)
{
    elastic_ws *c = E(ws->ct);
    const int nq = c->nq;
    elastic_combine(c, h, ws->opt.contact_theta);
    memset(c->X, 0, (size_t)c->x_colptr[nq] * sizeof(double));
    for (int i = 0; i < c->nc; i++)
        if (c->w[i].lead < 0)
            add_jtaj(&c->w[i], c->A + 36 * i, c->T, c->w[i].pos, c->X);
    memset(K, 0, (size_t)nq * (size_t)nq * sizeof(double));
    for (int j = 0; j < nq; j++)
        for (int p = c->x_colptr[j]; p < c->x_colptr[j + 1]; p++)
            K[(size_t)j * (size_t)nq + (size_t)c->x_rowind[p]] = c->X[p];
}

void rs_elastic_fill_splines(struct rs_ws *ws)
{
    rs_wheel_rail_contact()->fill(E(ws->ct)->files, -1, ws->s, ws->u);
}

int rs_elastic_applied(struct rs_ws *ws, const double *dq, double ib, int may_open, int *opened)
{
    elastic_ws *c = E(ws->ct);
    *opened = 0;
    for (int i = 0; i < c->nc; i++) {
        elastic_wheel *w = &c->w[i];
        if (w->np == 0) { /* in the air: W, C6, K6 are 0 */
            memset(w->F, 0, sizeof w->F);
            continue;
        }
        /* the wheel's motion from the evaluation: Δx6 = J δq, Δv6 = J δq/β */
        double dx[6] = {0, 0, 0, 0, 0, 0}, dv[6];
        for (int l = 0; l < w->m; l++)
            for (int k = 0; k < 6; k++)
                dx[k] += w->J[6 * l + k] * dq[w->cols[l]];
        for (int k = 0; k < 6; k++)
            dv[k] = ib * dx[k];
        if (may_open && wheel_opens(w, dv, dx, 1.0)) {
            int st = wheel_resum(ws, i);
            if (st)
                return st;
            *opened = 1;
        }
        for (int r = 0; r < 3; r++) {
            double f = w->W[r];
            for (int k = 0; k < 6; k++)
                f -= w->C6[6 * r + k] * dv[k] + w->K6[6 * r + k] * dx[k];
            w->F[r] = f;
        }
    }
    return RS_OK;
}

int rs_elastic_events(struct rs_ws *ws, double t_end, double dt)
{
    elastic_ws *c = E(ws->ct);
    /* the wrench the step applied (rs_elastic_applied left it in F) is
     * what wheel_events judges, as F_next after a single run's solve */
    for (int i = 0; i < c->nc; i++)
        memcpy(c->w[i].F_next, c->w[i].F, sizeof c->w[i].F_next);
    for (int i = 0; i < c->nc; i++) {
        const int st = wheel_events(ws, i, t_end, dt);
        if (st)
            return st;
    }
    for (int i = 0; i < c->nc; i++) {
        c->w[i].climb = c->w[i].climb_next;
        c->w[i].derailed = c->w[i].derailed_next;
    }
    return RS_OK;
}
