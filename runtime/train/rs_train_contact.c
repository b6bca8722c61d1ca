/*
 * rs_train_contact.c — see rs_train_contact.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_climb.h"
#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_error.h"
#include "rs_hertz.h"
#include "rs_hertz_why.h"
#include "rs_kalker.h"
#include "rs_train_contact.h"
#include "rs_ws_impl.h"

struct rs_train_wheel_contact {
    rs_allocator alloc;
    rs_ws *ws;                 /* owns the contact state, profiles, track */
    const rs_model *m;
    int n, nc, first;
    rs_train_wheel_contact_opts o;
    double *kval, *cval;       /* delta_jac outputs                       */
    double *G;                 /* nc × n dense: row i = φ^n_q of contact i */
    double *Cb;                /* 9 nc                                    */
    double *scale;             /* nc: c_N used in C (0: N clamped)        */
    double *dfdN;              /* 3 nc: ∂f_i/∂N_i (Kalker, unsaturated)   */
    double *h;                 /* n: D_i ∂f_i/∂N_i                        */
    rs_train_wheel_contact_point *pt;     /* nc                                      */
    int elastic;               /* the contacts are rs_elastic's            */
    double *T;                 /* elastic: 6 n scratch (K6 J, C6 J)        */
    double *each;              /* 3 nc: E, nu, mu of each contact          */
    rs_train_event_fn ev_fn;   /* rs_train_wheel_contact_events' sink and */
    void *ev_ctx;              /* its context, for the call only           */
    int held;                  /* elastic: a patch opened after the solve;
                                  the next evaluation (the same state) takes
                                  the wheels as they are                    */
    char err[1024];
};

/* The workspace's contact_event (rs_elastic's report_event): the caller's
 * sink sees the event; a derailment stops the run unless the vehicle says
 * derail_continue (the train file's `derailment continue`). */
static int on_event(void *ctx, const rs_contact_event *e)
{
    const rs_train_wheel_contact *tc = ctx;
    const int stops = e->kind == RS_EVENT_DERAILMENT && !tc->o.derail_continue;
    if (tc->ev_fn)
        tc->ev_fn(tc->ev_ctx, e, stops);
    return stops;
}

void rs_train_wheel_contact_opts_default(rs_train_wheel_contact_opts *o)
{
    memset(o, 0, sizeof *o);
    o->E = 2.1e11;
    o->nu = 0.28;
    /* c_N: about 5 % of critical damping of a 1 t unsprung mass on the
     * linearized Hertz spring of a 50 kN wheel (~1e9 N/m): enough to calm
     * the wheel-rail resonance (~200 Hz), negligible in the load paths */
    o->c_damp = 1e5;
    o->vmin = 0.01;
    /* s to 1e-12 m: the contact forces are then smooth enough in q for
     * central differences (the tests) and the Newton stays quadratic */
    o->tol = 1e-12;
    o->creep = 1;
    o->climb_time = RS_CLIMB_TIME_DEFAULT;
}

void rs_train_wheel_contact_free(rs_train_wheel_contact **ptc)
{
    if (!ptc || !*ptc)
        return;
    rs_train_wheel_contact *tc = *ptc;
    const rs_allocator a = tc->alloc;
    rs_ws_free(&tc->ws);
    rs_free(&a, tc->kval);
    rs_free(&a, tc->cval);
    rs_free(&a, tc->G);
    rs_free(&a, tc->Cb);
    rs_free(&a, tc->scale);
    rs_free(&a, tc->dfdN);
    rs_free(&a, tc->h);
    rs_free(&a, tc->pt);
    rs_free(&a, tc->T);
    rs_free(&a, tc->each);
    rs_free(&a, tc);
    *ptc = NULL;
}

int rs_train_wheel_contact_create(rs_train_wheel_contact **out, const rs_model *m, const double *p, const rs_train_wheel_contact_opts *o,
                       const rs_allocator *alloc, char *err, size_t errlen)
{
    if (!out)
        return rs_fail(err, errlen, RS_E_ARG, "rs_train_wheel_contact_create: out is NULL");
    *out = NULL;
    if (!m || m->n_contact < 1 || !m->fn[RS_FN_DELTA_JAC].fn || !m->fn[RS_FN_CREEP].fn ||
        !m->fn[RS_FN_DELTA_NK].fn)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' has no wheel-rail contact or no force Jacobians (delta_jac): recompile it with this "
                       "railsym",
                       m && m->name ? m->name : "?");
    rs_train_wheel_contact_opts oo;
    if (o)
        oo = *o;
    else
        rs_train_wheel_contact_opts_default(&oo);
    if (!(oo.c_damp >= 0) || !(oo.vmin > 0) || !(oo.tol > 0) || oo.mode < RS_TRAIN_CONTACT_MODEL ||
        oo.mode > RS_TRAIN_CONTACT_ELASTIC || !(oo.climb_time >= 0) || !isfinite(oo.climb_time))
        return rs_fail(err, errlen, RS_E_ARG,
                       "model '%s': contact options need c_damp >= 0, vmin > 0, tol > 0, climb_time >= 0 s and a "
                       "known mode", m->name);
    for (int i = 0; i < m->n_contact; i++) {
        const double E = rs_options_each(oo.E_each, i, oo.E), nu = rs_options_each(oo.nu_each, i, oo.nu),
                     mu = rs_options_each(oo.mu_each, i, oo.mu);
        if (!(E > 0) || !isfinite(E) || !(nu >= 0 && nu < 0.5) || !(mu >= 0))
            return rs_fail(err, errlen, RS_E_ARG,
                           "model '%s', contact '%s': E = %g Pa, nu = %g, mu = %g; they need E > 0, nu in [0, 0.5) "
                           "and mu >= 0", m->name, m->contacts[i].name, E, nu, mu);
    }
    int elastic = oo.mode == RS_TRAIN_CONTACT_ELASTIC;
    if (oo.mode == RS_TRAIN_CONTACT_MODEL) {
        const rs_contact_ops *ops = rs_contact_for_model(m);
        if (!ops)
            return rs_fail(err, errlen, RS_E_MODEL,
                           "model '%s': some contacts say `mode elastic` and some do not: give every contact the "
                           "same mode, or choose one for the vehicle ('contact elastic' or 'contact compliant' in "
                           "the train file)",
                           m->name);
        elastic = ops->elastic;
    }
    if (!elastic && oo.law != 0)
        return rs_fail(err, errlen, RS_E_ARG,
                       "model '%s': the compliant contact has Kalker's creep law only: choose the elastic contact "
                       "('contact elastic') for FASTSIM or Polach",
                       m->name);
    if (!elastic && oo.normal != RS_NORMAL_DEFAULT)
        return rs_fail(err, errlen, RS_E_ARG,
                       "model '%s': the normal law ('normal point' or 'normal strips') belongs to the elastic "
                       "contact; the compliant contact has one Hertz point per wheel: remove the line or choose the "
                       "elastic contact ('contact elastic')",
                       m->name);
    if (oo.normal < RS_NORMAL_DEFAULT || oo.normal > RS_NORMAL_STRIPS)
        return rs_fail(err, errlen, RS_E_ARG, "model '%s': unknown normal law %d (rs_normal_law)", m->name,
                       oo.normal);
    if (!elastic && oo.events_given)
        return rs_fail(err, errlen, RS_E_ARG,
                       "model '%s': 'derailment' and 'climb_time' set how the elastic contact's flange-climb and "
                       "derailment events act; the compliant contact reports none: remove the lines or choose the "
                       "elastic contact ('contact elastic')",
                       m->name);
    rs_allocator a = {0};
    if (alloc && alloc->alloc && alloc->release)
        a = *alloc;
    rs_train_wheel_contact *tc = rs_alloc(&a, 1, sizeof *tc);
    if (!tc)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_train_wheel_contact_create: out of memory");
    tc->alloc = a;
    tc->m = m;
    tc->o = oo;
    tc->n = m->n_q;
    tc->nc = m->n_contact;
    tc->first = 1;
    tc->elastic = elastic;
    if (!(tc->each = rs_alloc(&a, 3 * (size_t)tc->nc, sizeof(double)))) {
        rs_train_wheel_contact_free(&tc);
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_train_wheel_contact_create: out of memory");
    }
    for (int i = 0; i < tc->nc; i++) {
        tc->each[i] = rs_options_each(oo.E_each, i, oo.E);
        tc->each[tc->nc + i] = rs_options_each(oo.nu_each, i, oo.nu);
        tc->each[2 * tc->nc + i] = rs_options_each(oo.mu_each, i, oo.mu);
    }
    tc->o.E_each = tc->o.nu_each = tc->o.mu_each = NULL;   /* the copies above hold them */
    rs_options wo;
    rs_options_default(&wo);
    wo.allocator = a;
    wo.contact_dir = oo.dir;
    wo.track_file = oo.track;
    wo.contact_E = oo.E;
    wo.contact_nu = oo.nu;
    wo.contact_vmin = oo.vmin;
    wo.contact_tol = oo.tol;
    wo.contact_mu = oo.mu;
    wo.contact_E_each = tc->each;
    wo.contact_nu_each = tc->each + tc->nc;
    wo.contact_mu_each = tc->each + 2 * tc->nc;
    wo.contact_creep = oo.creep;
    wo.proj_maxiter = 20;
    wo.plugins = oo.plugins;
    wo.contact = rs_wheel_rail_contact();
    if (elastic) {
        wo.contact = rs_elastic_contact();
        wo.contact_damp = oo.c_damp; /* per patch */
        wo.contact_law = oo.law;
        wo.contact_normal = oo.normal;
        wo.contact_climb_time = oo.climb_time;
        wo.contact_event = on_event;
        wo.contact_event_ctx = tc;
    }
    int st = rs_ws_create(m, &wo, &tc->ws, err, errlen);
    if (st != RS_OK) {
        rs_train_wheel_contact_free(&tc);
        return st;
    }
    const int n = tc->n, nc = tc->nc;
    tc->kval = rs_alloc(&a, (size_t)m->K_pattern.colptr[n], sizeof(double));
    tc->cval = rs_alloc(&a, (size_t)m->C_pattern.colptr[n], sizeof(double));
    tc->G = rs_alloc(&a, (size_t)nc * (size_t)n, sizeof(double));
    tc->Cb = rs_alloc(&a, 9 * (size_t)nc, sizeof(double));
    tc->scale = rs_alloc(&a, (size_t)nc, sizeof(double));
    tc->pt = rs_alloc(&a, (size_t)nc, sizeof(rs_train_wheel_contact_point));
    tc->dfdN = rs_alloc(&a, 3 * (size_t)nc, sizeof(double));
    tc->h = rs_alloc(&a, (size_t)n, sizeof(double));
    tc->T = rs_alloc(&a, 6 * (size_t)n, sizeof(double));
    if (!tc->kval || !tc->cval || !tc->G || !tc->Cb || !tc->scale || !tc->pt || !tc->dfdN || !tc->h || !tc->T) {
        rs_fail(err, errlen, RS_E_NOMEM, "rs_train_wheel_contact_create: out of memory");
        rs_train_wheel_contact_free(&tc);
        return RS_E_NOMEM;
    }
    rs_ws *ws = tc->ws;
    if (p) {
        memcpy(ws->p, p, (size_t)m->n_p * sizeof(double));
        ws->constants_dirty = 1;
    }
    if (elastic)
        rs_elastic_fill_splines(ws); /* finite geometry for delta_jac's creep terms (× 0) */
    if ((st = rs_ws_update_constants(ws)) != RS_OK) {
        rs_fail_model(err, errlen, st, m->name, NULL, ws->err);
        rs_train_wheel_contact_free(&tc);
        return st;
    }
    *out = tc;
    return RS_OK;
}

int rs_train_wheel_contact_count(const rs_train_wheel_contact *tc) { return tc->nc; }
rs_ws *rs_train_wheel_contact_ws(rs_train_wheel_contact *tc) { return tc->ws; }
const rs_train_wheel_contact_point *rs_train_wheel_contact_point_get(const rs_train_wheel_contact *tc, int i) { return &tc->pt[i]; }
const char *rs_train_wheel_contact_name(const rs_train_wheel_contact *tc, int i) { return tc->m->contacts[i].name; }
const char *rs_train_wheel_contact_error(const rs_train_wheel_contact *tc) { return tc->err; }
int rs_train_wheel_contact_elastic(const rs_train_wheel_contact *tc) { return tc->elastic; }
void rs_train_wheel_contact_creep_gen(const rs_train_wheel_contact *tc, int i, double *g)
{
    const rs_pattern *D = &tc->m->ddelta_df_pattern;
    const rs_contact_ws *c = tc->ws->ct;
    memset(g, 0, (size_t)tc->n * sizeof(double));
    if (tc->elastic)
        return;
    for (int k = 0; k < 3; k++)
        for (int d = D->colptr[3 * i + k]; d < D->colptr[3 * i + k + 1]; d++)
            g[D->rowind[d]] += c->Dv[d] * tc->pt[i].f[k];
}

const char *rs_train_contact_quantity_name(int k, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    buf[0] = '\0';
    if (k == RS_TRAIN_CONTACT_FX || k == RS_TRAIN_CONTACT_FY)
        snprintf(buf, n, "%s", k == RS_TRAIN_CONTACT_FX ? "fx" : "fy");
    else if (k >= 0 && k < RS_CONTACT_VAR_COUNT)
        snprintf(buf, n, "%s", rs_contact_var_suffix(k));
    else if (k >= RS_CONTACT_VAR_COUNT && k < RS_CONTACT_VAR_STRIDE)
        snprintf(buf, n, "p%d.%s", 1 + (k - RS_CONTACT_VAR_COUNT) / RS_PATCH_VAR_COUNT,
                 rs_contact_patch_var_suffix((k - RS_CONTACT_VAR_COUNT) % RS_PATCH_VAR_COUNT));
    return buf;
}

int rs_train_contact_quantity(const char *name)
{
    char buf[32];
    for (int k = 0; k < RS_TRAIN_CONTACT_QCOUNT; k++)
        if (strcmp(name, rs_train_contact_quantity_name(k, buf, sizeof buf)) == 0)
            return k;
    return -1;
}

double rs_train_wheel_contact_value(const rs_train_wheel_contact *tc, int i, int k)
{
    if (k == RS_TRAIN_CONTACT_FX || k == RS_TRAIN_CONTACT_FY)
        return tc->pt[i].f[k - RS_TRAIN_CONTACT_FX];
    if (i < 0 || i >= tc->nc || k < 0 || k >= RS_CONTACT_VAR_STRIDE)
        return NAN;
    const rs_var v = {RS_VAR_CONTACT, RS_CONTACT_VAR_STRIDE * i + k};
    return rs_ws_value(tc->ws, v, NULL);
}

const double *rs_train_wheel_contact_gap_q(const rs_train_wheel_contact *tc, int i) { return tc->G + (size_t)i * (size_t)tc->n; }
double *rs_train_wheel_contact_params(rs_train_wheel_contact *tc) { return tc->ws->p; }

/* The strict Hertz constant of rs_hertz (no conformal rule: a conformal or
 * saddle contact stays an error of train mode, as before). */
double rs_train_wheel_contact_hertz_stiffness(const double radii[3], double E, double nu, double *a1, double *b1)
{
    double A, B, c;
    rs_hertz_curvature_sums(radii[0], radii[1], INFINITY, radii[2], &A, &B);
    const int r = rs_hertz_approach_constant(A, B, E, nu, &c, a1, b1);
    return r == RS_OK ? c : r;
}

/* Sparse values in the order of pat into dense column-major D (n × n). */
static void scatter(const rs_pattern *pat, const double *val, int n, double *D)
{
    for (int j = 0; j < n; j++)
        for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++)
            D[pat->rowind[k] + (size_t)j * (size_t)n] += val[k];
}

static int fail(rs_train_wheel_contact *tc, int st)
{
    return rs_fail(tc->err, sizeof tc->err, st, "%s", tc->ws->err);
}

/* Normal force, c_H and C_b of contact i from the penetration and the creep
 * function's outputs. */
static int contact_law(rs_train_wheel_contact *tc, int i, const double *qd)
{
    rs_ws *ws = tc->ws;
    rs_contact_ws *c = ws->ct;
    const rs_contact *ct = &tc->m->contacts[i];
    const int n = tc->n;
    rs_train_wheel_contact_point *pt = &tc->pt[i];
    /* contact i's material and friction */
    const double E_i = tc->each[i], nu_i = tc->each[tc->nc + i], mu_i = tc->each[2 * tc->nc + i];
    const double *g = tc->G + (size_t)i * (size_t)n;
    double gd = 0.0;
    for (int j = 0; j < n; j++)
        gd += g[j] * qd[j];
    pt->pen = -ws->phi[ct->phi_row];
    pt->pen_dot = -gd;   /* φ̇^n = φ^n_q q̇ + φ^n_s ṡ, φ^n_s = 0 at the contact point */
    pt->N = pt->k_n = pt->c_hertz = pt->v_eff = 0.0;
    pt->f[0] = pt->f[1] = pt->f[2] = 0.0;
    tc->scale[i] = 0.0;
    double *Cb = tc->Cb + 9 * i, *dfdN = tc->dfdN + 3 * i;
    memset(Cb, 0, 9 * sizeof(double));
    dfdN[0] = dfdN[1] = dfdN[2] = 0.0;
    if (!(pt->pen > 0.0))
        return RS_OK;   /* lift-off: no force, no stiffness */
    double a1, b1;
    const double cH = rs_train_wheel_contact_hertz_stiffness(c->radii + 3 * i, E_i, nu_i, &a1, &b1);
    if (!(cH > 0.0) || !isfinite(cH)) { /* the message is built here only, after the failure */
        const int code = cH < 0.0 ? (int)cH : RS_E_NONFINITE;
        char num[256];
        rs_hertz_why_numbers(code, c->radii + 3 * i, num, sizeof num);
        return rs_fail(tc->err, sizeof tc->err, RS_E_NONFINITE,
                       "contact '%s' (wheel of body '%s') at u_w = %.6g m on the wheel profile, u_r = %.6g m on "
                       "the rail profile, s_r = %.9g m: %s, and the compliant contact has one point per wheel; "
                       "write 'contact elastic' in the vehicle's block of the train file (the elastic multi-patch "
                       "contact) [%s]",
                       ct->name, ct->wheel_body, ws->s[ct->s_slot[1]], ws->s[ct->s_slot[3]], ws->s[ct->s_slot[2]],
                       rs_hertz_why(code, c->radii + 3 * i), num);
    }
    const double sp = sqrt(pt->pen);
    pt->c_hertz = cH;
    double N = cH * pt->pen * sp + tc->o.c_damp * pt->pen_dot;
    if (N > 0.0) {
        pt->k_n = 1.5 * cH * sp;
        tc->scale[i] = tc->o.c_damp;
    } else {
        N = 0.0;   /* separating faster than the damper allows: no pull */
    }
    pt->N = N;
    if (!tc->o.creep || N == 0.0)
        return RS_OK;
    /* Kalker's linear law over V_eff, the ellipse scaled from N = 1 N
     * (semi-axes ∝ N^{1/3}); as rs_contact_creep_block */
    const double s3 = cbrt(N), a = a1 * s3, b = b1 * s3;
    double coef[4], Cm[9];
    const int r = rs_kalker_coeffs(a / b, nu_i, coef);
    if (r < 0)
        return rs_fail(tc->err, sizeof tc->err, RS_E_NONFINITE,
                       "contact '%s': Kalker coefficients failed (code %d) for a/b = %.6g",
                       ct->name, r, a / b);
    rs_kalker_creep_matrix(a, b, rs_kalker_shear_modulus(E_i, nu_i), coef, Cm);
    const double V = c->V[i], Veff = sqrt(V * V + tc->o.vmin * tc->o.vmin);
    pt->v_eff = Veff;
    for (int k = 0; k < 9; k++)
        Cb[k] = Cm[k] / Veff;
    const double *nu = c->nu + 3 * i;
    if (mu_i > 0.0) {
        const double fx = Cb[0] * nu[0] + Cb[1] * nu[1] + Cb[2] * nu[2];
        const double fy = Cb[3] * nu[0] + Cb[4] * nu[1] + Cb[5] * nu[2];
        const double eps = rs_creep_saturation(sqrt(fx * fx + fy * fy), mu_i * N);
        for (int k = 0; k < 9; k++)
            Cb[k] *= eps;
    }
    /* Kalker's entries grow as (ab)^e with ab ∝ N^{2/3}: C11, C22 as
     * N^{2/3}, C23 as N, C33 as N^{4/3} (rs_kalker_creep_matrix), so
     * ∂f/∂N = −(e ∘ C_b) ν / N; the saturation factor's own N-dependence
     * is left out */
    static const double ex[9] = {2.0 / 3, 0, 0, 0, 2.0 / 3, 1, 0, 1, 4.0 / 3};
    for (int k = 0; k < 3; k++) {
        pt->f[k] = -(Cb[3 * k] * nu[0] + Cb[3 * k + 1] * nu[1] + Cb[3 * k + 2] * nu[2]);
        dfdN[k] = -(ex[3 * k] * Cb[3 * k] * nu[0] + ex[3 * k + 1] * Cb[3 * k + 1] * nu[1] +
                    ex[3 * k + 2] * Cb[3 * k + 2] * nu[2]) / N;
    }
    return RS_OK;
}

/* C += Σ_i D_i C_b,i N_i (C^K_qq, as the IMEX step's), dense. */
static void add_ck(rs_train_wheel_contact *tc, double *C)
{
    const rs_model *m = tc->m;
    const rs_contact_ws *c = tc->ws->ct;
    const rs_pattern *D = &m->ddelta_df_pattern, *Np = &m->dnu_dqd_pattern;
    const int n = tc->n;
    for (int j = 0; j < n; j++) {
        double *col = C + (size_t)j * (size_t)n;
        /* rows of N in a column increase: one contact's entries are consecutive */
        for (int kk = Np->colptr[j]; kk < Np->colptr[j + 1];) {
            const int i = Np->rowind[kk] / 3;
            double w[3] = {0, 0, 0};
            for (; kk < Np->colptr[j + 1] && Np->rowind[kk] / 3 == i; kk++) {
                const int l = Np->rowind[kk] % 3;
                const double *cb = tc->Cb + 9 * i + l;
                w[0] += cb[0] * c->Nv[kk];
                w[1] += cb[3] * c->Nv[kk];
                w[2] += cb[6] * c->Nv[kk];
            }
            for (int k = 0; k < 3; k++)
                if (w[k] != 0.0)
                    for (int d = D->colptr[3 * i + k]; d < D->colptr[3 * i + k + 1]; d++)
                        col[D->rowind[d]] += w[k] * c->Dv[d];
        }
    }
}

/* D (n × n, column-major) += Jᵀ A J over the wheel's columns (A 6 × 6,
 * row-major). */
static void add_jt_a_j(rs_train_wheel_contact *tc, const rs_elastic_wheel_state *w, const double *A, double *D)
{
    const int n = tc->n, m = w->m;
    for (int l = 0; l < m; l++) /* T = A J (6 × m, column-major) */
        for (int r = 0; r < 6; r++) {
            double s = 0.0;
            for (int k = 0; k < 6; k++)
                s += A[6 * r + k] * w->J[6 * l + k];
            tc->T[6 * l + r] = s;
        }
    for (int l2 = 0; l2 < m; l2++) {
        double *col = D + (size_t)w->cols[l2] * (size_t)n;
        for (int l1 = 0; l1 < m; l1++) {
            double s = 0.0;
            for (int k = 0; k < 6; k++)
                s += w->J[6 * l1 + k] * tc->T[6 * l2 + k];
            col[w->cols[l1]] += s;
        }
    }
}

/* Contact i's point values and gap row from the wheel's patches: N summed,
 * the deepest penetration, the creep forces, c_H, ṗ and φ^n_q of the patch
 * carrying most (φ^n_q = gᵀ J, g = [n; r × n]: the wheel point moving
 * along the normal opens the gap; without a patch the track's up at the
 * wheel centre, for the static equilibrium's touch-down). */
static void elastic_point(rs_train_wheel_contact *tc, int i, const rs_elastic_wheel_state *w, const double *qd)
{
    rs_train_wheel_contact_point *pt = &tc->pt[i];
    memset(pt, 0, sizeof *pt);
    const rs_elastic_patch *best = NULL;
    const int np = rs_elastic_patches(tc->ws, i);
    for (int j = 0; j < np; j++) {
        const rs_elastic_patch *p = rs_elastic_patch_get(tc->ws, i, j);
        pt->N += p->N;
        pt->pen = fmax(pt->pen, p->g.pen);
        if (p->N > 0)
            pt->k_n += 1.5 * p->c_hertz * sqrt(p->g.pen);
        if (!best || p->N > best->N)
            best = p;
    }
    double g[6] = {0, 0, 0, 0, 0, 0};
    if (best) {
        memcpy(g, best->n, sizeof best->n);
        g[3] = best->r[1] * best->n[2] - best->r[2] * best->n[1];
        g[4] = best->r[2] * best->n[0] - best->r[0] * best->n[2];
        g[5] = best->r[0] * best->n[1] - best->r[1] * best->n[0];
        memcpy(pt->f, best->f, sizeof pt->f);
        pt->c_hertz = best->c_hertz;
    } else {
        memcpy(g, w->up, 3 * sizeof(double));
    }
    double *G = tc->G + (size_t)i * (size_t)tc->n;
    memset(G, 0, (size_t)tc->n * sizeof(double));
    double gd = 0.0;
    for (int l = 0; l < w->m; l++) {
        double s = 0.0;
        for (int k = 0; k < 6; k++)
            s += g[k] * w->J[6 * l + k];
        G[w->cols[l]] = s;
        gd += s * qd[w->cols[l]];
    }
    pt->pen_dot = best ? -gd : 0.0;
    pt->Q = w->W[0] * w->up[0] + w->W[1] * w->up[1] + w->W[2] * w->up[2];
}

/* Elastic mode: F = δ^NK + Σ Jᵀ W, K = K_δ + Σ Jᵀ K6 J, C = C_δ + Σ Jᵀ C6 J. */
static int eval_elastic(rs_train_wheel_contact *tc, double t, const double *q, const double *qd, double *M, double *F,
                        double *K, double *C)
{
    rs_ws *ws = tc->ws;
    const rs_model *m = tc->m;
    const int n = tc->n, nc = tc->nc;
    tc->err[0] = 0;
    int st = RS_OK;
    /* held: the wheels with their opened patches, if this is still the
     * state they were evaluated at (a failed step may leave held set) */
    const size_t qb = (size_t)n * sizeof(double);
    const int same = tc->held && t == ws->t && memcmp(q, ws->q, qb) == 0 && memcmp(qd, ws->qd, qb) == 0;
    tc->held = 0;
    if (!same && (st = rs_elastic_eval(ws, t, q, qd)) != RS_OK)
        return fail(tc, st);
    if (same)
        rs_ws_bind(ws, t, ws->q, ws->qd);
    if (M) {
        if ((st = rs_ws_call(ws, RS_FN_M, ws->Mv, NULL)))
            return fail(tc, st);
        scatter(&m->M_pattern, ws->Mv, n, M);
    }
    if (F) {
        if ((st = rs_ws_call(ws, RS_FN_DELTA_NK, ws->delta, NULL)))
            return fail(tc, st);
        for (int j = 0; j < n; j++)
            F[j] += ws->delta[j];
    }
    if ((K || C) && (st = rs_ws_call(ws, RS_FN_DELTA_JAC, tc->kval, tc->cval)))
        return fail(tc, st);
    for (int i = 0; i < nc; i++) {
        rs_elastic_wheel_state w;
        rs_elastic_wheel_get(ws, i, &w);
        if (F)
            for (int l = 0; l < w.m; l++) {
                double s = 0.0;
                for (int k = 0; k < 6; k++)
                    s += w.J[6 * l + k] * w.W[k];
                F[w.cols[l]] += s;
            }
        if (K)
            add_jt_a_j(tc, &w, w.K6, K);
        if (C)
            add_jt_a_j(tc, &w, w.C6, C);
        elastic_point(tc, i, &w, qd);
    }
    if (K)
        scatter(&m->K_pattern, tc->kval, n, K);
    if (C)
        scatter(&m->C_pattern, tc->cval, n, C);
    return RS_OK;
}

int rs_train_wheel_contact_after_solve(rs_train_wheel_contact *tc, const double *dq, double ib, int may_open)
{
    if (!tc->elastic)
        return 0;
    int opened = 0;
    const int st = rs_elastic_applied(tc->ws, dq, ib, may_open, &opened);
    if (st != RS_OK)
        return fail(tc, st);
    tc->held = opened;
    return opened;
}

int rs_train_wheel_contact_events(rs_train_wheel_contact *tc, double t_end, double h, rs_train_event_fn fn,
                                  void *ctx)
{
    if (!tc->elastic)
        return RS_OK;
    tc->ev_fn = fn;
    tc->ev_ctx = ctx;
    const int st = rs_elastic_events(tc->ws, t_end, h);
    tc->ev_fn = NULL;
    tc->ev_ctx = NULL;
    if (st == RS_OK)
        return RS_OK;
    /* the message names its time; the workspace's "step k, t = ...: "
     * prefix counts no train step (rs_ws_fail) */
    const char *why = strstr(tc->ws->err, "s: ");
    return rs_fail(tc->err, sizeof tc->err, st, "%s", why ? why + 3 : tc->ws->err);
}

int rs_train_wheel_contact_eval(rs_train_wheel_contact *tc, double t, const double *q, const double *qd, double *M, double *F, double *K,
                     double *C)
{
    if (tc->elastic)
        return eval_elastic(tc, t, q, qd, M, F, K, C);
    rs_ws *ws = tc->ws;
    rs_contact_ws *c = ws->ct;
    const rs_model *m = tc->m;
    const int n = tc->n, nc = tc->nc;
    int st;
    tc->err[0] = 0;
    memcpy(ws->q, q, (size_t)n * sizeof(double));
    memcpy(ws->qd, qd, (size_t)n * sizeof(double));
    ws->t = t;
    /* the first search is global (a start from s = 0), later ones Newton
     * from the previous contact point */
    ws->in_init = tc->first;
    ws->s_predicted = 0;
    st = rs_contact_solve_s(ws, t);
    ws->in_init = 0;
    if (st != RS_OK)
        return fail(tc, st);
    tc->first = 0;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    if (!ws->proj_ready && ((st = rs_ws_call(ws, RS_FN_PHI, ws->phi, NULL)) ||
                            (st = rs_ws_call(ws, RS_FN_PHI_Q, ws->Gv, NULL))))
        return fail(tc, st);
    ws->proj_ready = 0;
    memset(tc->G, 0, (size_t)nc * (size_t)n * sizeof(double));
    {
        const rs_pattern *P = &m->phi_q_pattern;
        for (int j = 0; j < n; j++)
            for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
                for (int i = 0; i < nc; i++)
                    if (m->contacts[i].phi_row == P->rowind[k])
                        tc->G[(size_t)i * (size_t)n + j] = ws->Gv[k];
    }
    {
        double *o[RS_FN_MAX_OUT] = {c->nu, c->V, c->radii, c->Dv, c->Nv};
        if ((st = rs_ws_call_n(ws, RS_FN_CREEP, o)))
            return fail(tc, st);
    }
    for (int i = 0; i < nc; i++) {
        if ((st = contact_law(tc, i, qd)) != RS_OK)
            return st;
        /* where the single run's results read them (rs_contact_track_force,
         * the creepages): N as −λ, f, ν / V_eff */
        const double V = c->V[i], Veff = sqrt(V * V + tc->o.vmin * tc->o.vmin);
        ws->lambda[m->contacts[i].phi_row] = -tc->pt[i].N;
        for (int k = 0; k < 3; k++) {
            ws->u[m->contacts[i].force_slot[k]] = tc->pt[i].f[k];
            c->f[3 * i + k] = tc->pt[i].f[k];
            c->xi[3 * i + k] = c->nu[3 * i + k] / Veff;
        }
    }
    if (M) {
        if ((st = rs_ws_call(ws, RS_FN_M, ws->Mv, NULL)))
            return fail(tc, st);
        scatter(&m->M_pattern, ws->Mv, n, M);
    }
    if (F) {
        if ((st = rs_ws_call(ws, RS_FN_DELTA, ws->delta, NULL)))
            return fail(tc, st);
        for (int j = 0; j < n; j++)
            F[j] += ws->delta[j];
        for (int i = 0; i < nc; i++) {
            const double *g = tc->G + (size_t)i * (size_t)n;
            for (int j = 0; j < n; j++)
                F[j] += g[j] * tc->pt[i].N;
        }
    }
    if (K || C) {
        if ((st = rs_ws_call(ws, RS_FN_DELTA_JAC, tc->kval, tc->cval)))
            return fail(tc, st);
        const rs_pattern *D = &m->ddelta_df_pattern;
        for (int i = 0; i < nc; i++) {
            const double *g = tc->G + (size_t)i * (size_t)n;
            const double kn = tc->pt[i].k_n, cn = tc->scale[i];
            /* h = D_i ∂f_i/∂N: the creep forces follow N (contact area) */
            memset(tc->h, 0, (size_t)n * sizeof(double));
            for (int k = 0; k < 3; k++)
                if (tc->dfdN[3 * i + k] != 0.0)
                    for (int d = D->colptr[3 * i + k]; d < D->colptr[3 * i + k + 1]; d++)
                        tc->h[D->rowind[d]] += c->Dv[d] * tc->dfdN[3 * i + k];
            /* −∂/∂q of φ^n_qᵀ N + D f(N): N' = −k_n φ^n_q (and −c_N φ^n_q in q̇) */
            for (int b = 0; b < n; b++) {
                if (g[b] == 0.0)
                    continue;
                for (int a = 0; a < n; a++) {
                    const double w = (g[a] + tc->h[a]) * g[b];
                    if (K)
                        K[a + (size_t)b * (size_t)n] += kn * w;
                    if (C)
                        C[a + (size_t)b * (size_t)n] += cn * w;
                }
            }
        }
        if (K)
            scatter(&m->K_pattern, tc->kval, n, K);
        if (C) {
            scatter(&m->C_pattern, tc->cval, n, C);
            add_ck(tc, C);
        }
    }
    return RS_OK;
}
