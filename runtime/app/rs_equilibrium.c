/*
 * rs_equilibrium.c — see rs_equilibrium.h.
 *
 * Dense linear algebra (rs_dense_lu of rs_krylov.h): the system is solved a
 * few times before a run, and a dense LU with partial pivoting over the
 * solved coordinates' columns names the column where it breaks down.  The
 * coordinates' columns come first, the multipliers' last, so a breakdown
 * among the first nF columns is a coordinate without stiffness.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_elastic.h"
#include "rs_equilibrium.h"
#include "rs_error.h"
#include "rs_krylov.h"
#include "rs_ws_impl.h"

/* A pivot below this times the matrix's largest entry is a breakdown. */
#define SINGULAR_REL 1e-11
/* Forward-difference step of the geometric stiffness [m, rad]. */
#define GEOM_STEP 1e-6
/* ... of the elastic wheels' stiffness: a patch barely touching (Hertz,
 * F ∝ δ^1.5) is steep at small δ, and a difference over 1e-6 m overstates
 * its stiffness where δ < 1e-6 m: Newton then creeps (the wagon at rest in a
 * canted curve: 139 iterations, 36 with this step). */
#define WHEEL_STEP 1e-8

typedef struct eq {
    rs_ws *ws;
    const rs_model *m;
    int nq, nphi, nF, n, nnz_G;
    const int *F;                /* the solved coordinates                 */
    int *pos;                    /* nq: index in F, or -1 (held)           */
    int contact, elastic;        /* constraint contact / elastic contact   */
    double *delta;               /* nq: δ (δ^NK + wheel forces with contacts) */
    double *kv, *cv;             /* delta_jac's K and C values             */
    double *G0;                  /* φ_q at the current q                   */
    double *lam, *lam_new;       /* nphi                                   */
    double *gtl0, *gtl1;         /* nq: φ_qᵀ λ                             */
    double *A, *b;               /* n × n column-major, n                  */
    double *LU;                  /* n × n: A factored                      */
    int *piv;
    double *q_cur, *dq;          /* nq: accepted q, step over F            */
    double *s_cur;               /* n_s: contact points at q_cur           */
    double *q_save, *qd_save, *s_save, *sd_save;
    double kappa;                /* multiplier scale                       */
    int nz;                      /* internal states                        */
    double *zd, *zb, *zp, *zm;   /* nz: ż, ∂ż/∂z, ż at q ± h               */
    double *Dz;                  /* nq × nz: ∂δ/∂z                         */
    double *z_save;              /* nz: z as it was (restored on failure)  */
    double *A0;                  /* n × n: A as assembled (before damping) */
    double *mv, *md;             /* M's values; nF: its diagonal over F    */
    double *lim;                 /* nF: the step limit of each coordinate  */
    double *dlam;                /* nphi: the multipliers' Newton change   */
    double *r0;                  /* nF: the residual at the current iterate */
    double *bsave;               /* n: assemble's right-hand side, kept     */
    double noise, step;          /* the last measure_noise: noise, Newton step (-1: none) */
} eq;

static int ws_fail_to(rs_ws *ws, int st, char *err, size_t errlen, const char *what)
{
    return rs_fail(err, errlen, st, "equilibrium: %s: %s", what, rs_ws_error(ws));
}

/* The elastic wheels' generalized forces Jᵀ W (of the last
 * rs_elastic_eval) added to out[0..nq). */
static void add_wheel_forces(eq *e, double *out)
{
    for (int i = 0; i < e->m->n_contact; i++) {
        rs_elastic_wheel_state w;
        rs_elastic_wheel_get(e->ws, i, &w);
        for (int l = 0; l < w.m; l++) {
            double f = 0;
            for (int k = 0; k < 6; k++)
                f += w.J[6 * l + k] * w.W[k];
            out[w.cols[l]] += f;
        }
    }
}

/* The wheels' stiffness −∂(Jᵀ W)/∂q_F over the solved coordinates, into A,
 * by forward differences of rs_elastic_eval: unlike the step's Jᵀ K6 J it
 * holds the geometric part (the normals turning with a lateral shift), which
 * alone holds a wheelset laterally.  Leaves the wheels evaluated at q. */
static int add_wheel_stiffness(eq *e)
{
    rs_ws *ws = e->ws;
    int st;
    memset(e->gtl0, 0, (size_t)e->nq * sizeof(double));
    add_wheel_forces(e, e->gtl0);
    for (int c = 0; c < e->nF; c++) {
        const int j = e->F[c];
        const double q0 = ws->q[j];
        const double h = WHEEL_STEP * fmax(1.0, fabs(q0));
        ws->q[j] = q0 + h;
        st = rs_elastic_eval(ws, ws->t, ws->q, ws->qd);
        ws->q[j] = q0;
        if (st)
            return st;
        memset(e->gtl1, 0, (size_t)e->nq * sizeof(double));
        add_wheel_forces(e, e->gtl1);
        for (int r = 0; r < e->nF; r++)
            e->A[r + (size_t)c * e->n] -= (e->gtl1[e->F[r]] - e->gtl0[e->F[r]]) / h;
    }
    return rs_elastic_eval(ws, ws->t, ws->q, ws->qd);
}

/* φ_q and φ at ws->q (contact points solved first: φ^n depends on s). */
static int eval_constraints(eq *e, int with_phi)
{
    rs_ws *ws = e->ws;
    int st;
    if (e->contact && (st = ws->cops->solve_s(ws, ws->t)))
        return st;
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    if ((with_phi && (st = rs_ws_call(ws, RS_FN_PHI, ws->phi, NULL))) ||
        (st = rs_ws_call(ws, RS_FN_PHI_Q, ws->Gv, NULL)))
        return st;
    return RS_OK;
}

/* The internal states at rest: ż_i = a_i(q, 0) + b_i z_i is linear in z_i
 * (RS_FN_ZDOT gives ż and b), so ż = 0 is one exact step per state from
 * whatever z holds.  A node between a damper and a spring relaxes: at rest
 * its spring carries nothing beyond what a(q, 0) asks. */
static int relax_z(eq *e)
{
    rs_ws *ws = e->ws;
    const rs_model *m = e->m;
    if (e->nz == 0)
        return RS_OK;
    int st = rs_ws_call(ws, RS_FN_ZDOT, e->zd, e->zb);
    if (st)
        return st;
    for (int i = 0; i < e->nz; i++) {
        if (!(e->zb[i] < 0) || !isfinite(e->zb[i]))
            return rs_ws_fail(ws, RS_E_VALUE,
                              "internal state '%s': d(zdot)/dz = %g is not negative: the stiffness and the "
                              "damping of its element must be positive (check the parameters: the scenario's "
                              "'param' lines, the description)", m->z_names[i], e->zb[i]);
        ws->u[m->z_slot[i]] -= e->zd[i] / e->zb[i];
    }
    return RS_OK;
}

/* δ, φ and φ_q at ws->q (the internal states relaxed there first). */
static int eval_state(eq *e)
{
    rs_ws *ws = e->ws;
    const rs_model *m = e->m;
    int st;
    if (e->nphi > 0) {
        if ((st = eval_constraints(e, 1)))
            return st;
    } else if (e->contact && (st = ws->cops->solve_s(ws, ws->t))) {
        return st;
    }
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    /* the plugins at this q, with their Jacobians for assemble's K (docs/plugins.md) */
    if (m->n_plugin > 0 && (st = rs_ws_plugin_linearize(ws)))
        return st;
    if ((st = relax_z(e)) || (st = rs_ws_call(ws, ws->ct ? RS_FN_DELTA_NK : RS_FN_DELTA, e->delta, NULL)))
        return st;
    if (e->elastic) {
        if ((st = rs_elastic_eval(ws, ws->t, ws->q, ws->qd)))
            return st;
        add_wheel_forces(e, e->delta);
    }
    if ((st = rs_ws_check_finite(ws, e->delta, e->nq, "generalized force delta", m->q_names)) ||
        (st = rs_ws_check_finite(ws, ws->phi, e->nphi, "constraint phi", m->phi_names)))
        return st;
    return RS_OK;
}

/* out[0..nq) = φ_qᵀ λ with φ_q values G. */
static void gt_lambda(const eq *e, const double *G, const double *lam, double *out)
{
    const rs_pattern *P = &e->m->phi_q_pattern;
    for (int j = 0; j < e->nq; j++) {
        double v = 0;
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            v += G[k] * lam[P->rowind[k]];
        out[j] = v;
    }
}

/* max |r_F| (r_F = δ_F − φ_q,Fᵀ λ at the evaluated state, into b[0..nF))
 * and its coordinate (*worst, an index into q). */
static double residual(eq *e, const double *lam, int *worst)
{
    if (e->nphi > 0)
        gt_lambda(e, e->ws->Gv, lam, e->gtl1);
    double r = 0;
    *worst = e->F[0];
    for (int i = 0; i < e->nF; i++) {
        const int j = e->F[i];
        e->b[i] = e->delta[j] - (e->nphi > 0 ? e->gtl1[j] : 0.0);
        if (!(fabs(e->b[i]) <= r)) {
            r = fabs(e->b[i]);
            *worst = j;
        }
    }
    return r;
}

static double max_phi(const eq *e)
{
    double r = 0;
    for (int i = 0; i < e->nphi; i++)
        if (!(fabs(e->ws->phi[i]) <= r))
            r = fabs(e->ws->phi[i]);
    return r;
}

static double max_delta_F(const eq *e)
{
    double r = 0;
    for (int i = 0; i < e->nF; i++)
        r = fmax(r, fabs(e->delta[e->F[i]]));
    return r;
}

/* The first λ: the least-squares fit of δ_F by φ_q,Fᵀ λ, (G_F G_Fᵀ) λ = G_F δ_F
 * (0 when G_F G_Fᵀ is singular: the first Newton step then finds it). */
static void first_lambda(eq *e)
{
    const rs_pattern *P = &e->m->phi_q_pattern;
    const int np = e->nphi;
    double *S = e->A, *r = e->b; /* scratch: the Newton system is built later */
    memset(S, 0, (size_t)np * (size_t)np * sizeof(double));
    memset(r, 0, (size_t)np * sizeof(double));
    const double *G = e->ws->Gv;
    for (int j = 0; j < e->nq; j++) {
        if (e->pos[j] < 0)
            continue;
        for (int k1 = P->colptr[j]; k1 < P->colptr[j + 1]; k1++) {
            r[P->rowind[k1]] += G[k1] * e->delta[j];
            for (int k2 = P->colptr[j]; k2 < P->colptr[j + 1]; k2++)
                S[P->rowind[k1] + (size_t)P->rowind[k2] * np] += G[k1] * G[k2];
        }
    }
    int bad;
    memset(e->lam, 0, (size_t)np * sizeof(double));
    if (rs_dense_chol(S, np, &bad) == RS_OK) {
        rs_dense_chol_solve(S, np, r);
        memcpy(e->lam, r, (size_t)np * sizeof(double));
    }
}

/* Names the largest residual entries (up to three) into buf. */
static void worst_entries(eq *e, char *buf, size_t len)
{
    int used[3] = {-1, -1, -1};
    size_t off = 0;
    buf[0] = '\0';
    for (int k = 0; k < 3 && k < e->nF; k++) {
        int best = -1;
        for (int i = 0; i < e->nF; i++) {
            if (i == used[0] || i == used[1])
                continue;
            if (best < 0 || !(fabs(e->b[i]) <= fabs(e->b[best])))
                best = i;
        }
        used[k] = best;
        const int n = snprintf(buf + off, len - off, "%s'%s' %.3g", k ? ", " : "",
                               e->m->q_names[e->F[best]], e->b[best]);
        if (n < 0 || (size_t)n >= len - off)
            return;
        off += (size_t)n;
    }
}

/* The internal states' part of the stiffness: with z relaxed at each q
 * (relax_z), dδ/dq = ∂δ/∂q + ∂δ/∂z dz/dq, dz_i/dq = −(∂ż_i/∂q)/b_i; so A
 * gets −∂δ/∂z dz/dq_F, both factors by central differences (δ is linear
 * in z, ż in q only through the geometry).  z, q and the binding are put
 * back. */
static int add_z_stiffness(eq *e)
{
    rs_ws *ws = e->ws;
    const rs_model *m = e->m;
    const int nz = e->nz, nq = e->nq, n = e->n;
    const int fn = ws->ct ? RS_FN_DELTA_NK : RS_FN_DELTA;
    int st = RS_OK;
    for (int l = 0; l < nz && !st; l++) {
        double *u = &ws->u[m->z_slot[l]];
        const double z0 = *u, h = GEOM_STEP * fmax(1.0, fabs(z0));
        *u = z0 + h;
        if (!(st = rs_ws_call(ws, fn, e->gtl0, NULL))) {
            *u = z0 - h;
            st = rs_ws_call(ws, fn, e->gtl1, NULL);
        }
        *u = z0;
        for (int i = 0; i < nq; i++)
            e->Dz[(size_t)l * nq + i] = (e->gtl0[i] - e->gtl1[i]) / (2 * h);
    }
    for (int c = 0; c < e->nF && !st; c++) {
        const int j = e->F[c];
        const double q0 = ws->q[j], h = GEOM_STEP * fmax(1.0, fabs(q0));
        ws->q[j] = q0 + h;
        rs_ws_bind(ws, ws->t, ws->q, ws->qd);
        if (!(st = rs_ws_call(ws, RS_FN_ZDOT, e->zp, NULL))) {
            ws->q[j] = q0 - h;
            rs_ws_bind(ws, ws->t, ws->q, ws->qd);
            st = rs_ws_call(ws, RS_FN_ZDOT, e->zm, NULL);
        }
        ws->q[j] = q0;
        for (int l = 0; l < nz; l++) {
            const double dz = -(e->zp[l] - e->zm[l]) / (2 * h * e->zb[l]);
            for (int r = 0; r < e->nF; r++)
                e->A[r + (size_t)c * n] -= e->Dz[(size_t)l * nq + e->F[r]] * dz;
        }
    }
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    return st;
}

/* The Newton matrix at the current (evaluated) state into A, its
 * right-hand side into b.  Clobbers ws->Gv, ws->phi only where restored. */
static int assemble(eq *e)
{
    rs_ws *ws = e->ws;
    const rs_model *m = e->m;
    const int n = e->n, nF = e->nF;
    int st;
    memset(e->A, 0, (size_t)n * (size_t)n * sizeof(double));
    /* K = −∂δ/∂q (exact, generated) */
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    if ((st = rs_ws_call(ws, RS_FN_DELTA_JAC, e->kv, e->cv)) ||
        (st = rs_ws_check_finite(ws, e->kv, m->K_pattern.colptr[e->nq], "stiffness K", NULL)))
        return st;
    const rs_pattern *K = &m->K_pattern;
    for (int j = 0; j < e->nq; j++) {
        if (e->pos[j] < 0)
            continue;
        for (int k = K->colptr[j]; k < K->colptr[j + 1]; k++)
            if (e->pos[K->rowind[k]] >= 0)
                e->A[e->pos[K->rowind[k]] + (size_t)e->pos[j] * n] += e->kv[k];
    }
    if (e->elastic && (st = add_wheel_stiffness(e)))
        return st;
    if (e->nz > 0 && (st = add_z_stiffness(e)))
        return st;
    for (int i = 0; i < nF; i++)
        e->b[i] = e->delta[e->F[i]];
    if (e->nphi == 0)
        return RS_OK;
    /* H = ∂(φ_qᵀλ)/∂q_F by forward differences (q and s put back after) */
    memcpy(e->G0, ws->Gv, (size_t)e->nnz_G * sizeof(double));
    memcpy(e->s_cur, ws->s, (size_t)m->n_s * sizeof(double));
    gt_lambda(e, e->G0, e->lam, e->gtl0);
    /* A perturbation moves each contact point by about GEOM_STEP: Newton
     * from the converged points, without the initialization's global search
     * (100s of φ_d evaluations per contact per column: 1.3 million on the
     * coach's S1002 wheels, 12 s of its 2-iteration solve; and a search
     * could only pick another root, making the difference meaningless). */
    const int init = ws->in_init;
    ws->in_init = 0;
    for (int c = 0; c < nF; c++) {
        const int j = e->F[c];
        const double q0 = ws->q[j];
        const double h = GEOM_STEP * fmax(1.0, fabs(q0));
        ws->q[j] = q0 + h;
        st = eval_constraints(e, 0);
        ws->q[j] = q0;
        memcpy(ws->s, e->s_cur, (size_t)m->n_s * sizeof(double));
        if (st)
            break;
        gt_lambda(e, ws->Gv, e->lam, e->gtl1);
        for (int r = 0; r < nF; r++)
            e->A[r + (size_t)c * n] += (e->gtl1[e->F[r]] - e->gtl0[e->F[r]]) / h;
    }
    ws->in_init = init;
    ws->proj_ready = ws->cache_valid = 0;
    if (st)
        return st;
    memcpy(ws->Gv, e->G0, (size_t)e->nnz_G * sizeof(double));
    if (e->contact)
        ws->cops->fill(ws->ct, -1, ws->s, ws->u);
    /* κ: the multipliers scaled to the stiffness, so that the pivots of
     * both blocks are of one size */
    double kmax = 0;
    for (size_t k = 0; k < (size_t)nF * (size_t)n; k++)
        kmax = fmax(kmax, fabs(e->A[k]));
    e->kappa = kmax > 0 ? kmax : 1.0;
    const rs_pattern *P = &m->phi_q_pattern;
    for (int j = 0; j < e->nq; j++) {
        if (e->pos[j] < 0)
            continue;
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
            const int row = nF + P->rowind[k];
            e->A[row + (size_t)e->pos[j] * n] = e->kappa * e->G0[k];
            e->A[e->pos[j] + (size_t)row * n] = e->kappa * e->G0[k];
        }
    }
    for (int i = 0; i < e->nphi; i++)
        e->b[nF + i] = -e->kappa * ws->phi[i];
    return RS_OK;
}

/* Factors A (a copy: A itself is kept) and solves for b.  A breakdown at a
 * coordinate's column: with `hold` that coordinate is held for this step
 * (its row and column replaced by the identity, Δq 0) and the factorization
 * repeated — at the first iterates a mode may have no stiffness yet (a
 * lateral shift of wheels not yet loaded); without `hold` (at the
 * equilibrium found) it is the error that names the coordinate.  A
 * breakdown at a multiplier's column is always an error. */
static int solve(eq *e, int hold, char *err, size_t errlen)
{
    const int n = e->n, nF = e->nF;
    const size_t nn = (size_t)n * (size_t)n;
    double amax = 0;
    for (size_t k = 0; k < nn; k++)
        amax = fmax(amax, fabs(e->A[k]));
    if (!(amax > 0))
        amax = 1.0;
    for (int attempt = 0; attempt <= nF; attempt++) {
        memcpy(e->LU, e->A, nn * sizeof(double));
        int bad = -1;
        if (rs_dense_lu(e->LU, n, e->piv, &bad) == RS_OK) {
            for (int k = 0; k < n && bad < 0; k++)
                if (!(fabs(e->LU[k + (size_t)k * n]) > SINGULAR_REL * amax))
                    bad = k;
        }
        if (bad < 0) {
            rs_dense_lu_solve(e->LU, n, e->piv, e->b);
            return RS_OK;
        }
        if (bad < nF && hold) {
            for (int i = 0; i < n; i++)
                e->A[bad + (size_t)i * n] = e->A[i + (size_t)bad * n] = 0.0;
            e->A[bad + (size_t)bad * n] = amax;
            e->b[bad] = 0.0;
            continue;
        }
        if (bad < nF)
            return rs_fail(err, errlen, RS_E_SINGULAR,
                           "equilibrium: no static equilibrium: coordinate '%s' has no stiffness (the matrix "
                           "[K phi_q'; phi_q 0] is singular at its column): nothing holds it in place, as for "
                           "a free rigid-body mode such as a longitudinal 'x' that no element holds; exclude it "
                           "by listing the coordinates to solve for after 'equilibrium' without it (e.g. "
                           "'equilibrium z roll'), or give it a stiffness",
                           e->m->q_names[e->F[bad]]);
        return rs_fail(err, errlen, RS_E_SINGULAR,
                       "equilibrium: the constraint '%s' cannot be met by moving the coordinates solved "
                       "for (the matrix [K phi_q'; phi_q 0] is singular at its multiplier): it depends on "
                       "held coordinates only or repeats another constraint; add the coordinates it "
                       "moves to the 'equilibrium' line",
                       e->m->phi_names[bad - nF]);
    }
    return rs_fail(err, errlen, RS_E_INTERNAL, "equilibrium: the factorization did not settle");
}

int rs_equilibrium_default_coords(const rs_model *m, int *idx)
{
    int n = 0;
    for (int j = 0; j < m->n_q; j++) {
        const char *s = m->q_names[j];
        const char *last = strrchr(s, '.');
        last = last ? last + 1 : s;
        if (strcmp(last, "x") != 0 && strcmp(last, "spin") != 0)
            idx[n++] = j;
    }
    return n;
}

static void eq_free(eq *e)
{
    free(e->pos);
    free(e->delta);
    free(e->kv);
    free(e->cv);
    free(e->G0);
    free(e->lam);
    free(e->lam_new);
    free(e->gtl0);
    free(e->gtl1);
    free(e->A);
    free(e->LU);
    free(e->b);
    free(e->piv);
    free(e->q_cur);
    free(e->dq);
    free(e->s_cur);
    free(e->q_save);
    free(e->qd_save);
    free(e->s_save);
    free(e->sd_save);
    free(e->zd);
    free(e->zb);
    free(e->zp);
    free(e->zm);
    free(e->Dz);
    free(e->z_save);
    free(e->A0);
    free(e->mv);
    free(e->md);
    free(e->lim);
    free(e->dlam);
    free(e->r0);
    free(e->bsave);
    free((void *)e->F);
}

static double *zalloc(size_t n) { return calloc(n ? n : 1, sizeof(double)); }

static int eq_init(eq *e, rs_ws *ws, const rs_equilibrium_opts *o, char *err, size_t errlen)
{
    const rs_model *m = ws->model;
    memset(e, 0, sizeof *e);
    e->ws = ws;
    e->m = m;
    e->nq = m->n_q;
    e->nphi = m->n_phi;
    e->nnz_G = m->n_phi > 0 ? m->phi_q_pattern.colptr[m->n_q] : 0;
    e->elastic = ws->ct && ws->cops->elastic;
    e->contact = ws->ct && !ws->cops->elastic;
    int *F = malloc((size_t)(m->n_q ? m->n_q : 1) * sizeof(int));
    e->pos = malloc((size_t)(m->n_q ? m->n_q : 1) * sizeof(int));
    e->F = F;
    if (!F || !e->pos)
        return rs_fail(err, errlen, RS_E_NOMEM, "equilibrium: out of memory");
    if (o && o->coords && o->n_coords > 0) {
        for (int i = 0; i < o->n_coords; i++) {
            if (o->coords[i] < 0 || o->coords[i] >= m->n_q)
                return rs_fail(err, errlen, RS_E_ARG, "equilibrium: coordinate index %d outside the model",
                               o->coords[i]);
            F[i] = o->coords[i];
        }
        e->nF = o->n_coords;
    } else {
        e->nF = rs_equilibrium_default_coords(m, F);
    }
    for (int j = 0; j < m->n_q; j++)
        e->pos[j] = -1;
    for (int i = 0; i < e->nF; i++) {
        if (e->pos[F[i]] >= 0)
            return rs_fail(err, errlen, RS_E_ARG, "equilibrium: coordinate '%s' is listed twice",
                           m->q_names[F[i]]);
        e->pos[F[i]] = i;
    }
    if (e->nF == 0)
        return rs_fail(err, errlen, RS_E_ARG,
                       "equilibrium: no coordinate to solve for (model '%s' has only forward and spin "
                       "coordinates, which are held): name them after 'equilibrium'", m->name);
    e->n = e->nF + e->nphi;
    e->nz = m->n_z;
    const size_t nq = (size_t)m->n_q, ns = (size_t)m->n_s, n = (size_t)e->n;
    e->delta = zalloc(nq);
    e->kv = zalloc((size_t)m->K_pattern.colptr[m->n_q]);
    e->cv = zalloc((size_t)m->C_pattern.colptr[m->n_q]);
    e->G0 = zalloc((size_t)e->nnz_G);
    e->lam = zalloc((size_t)e->nphi);
    e->lam_new = zalloc((size_t)e->nphi);
    e->gtl0 = zalloc(nq);
    e->gtl1 = zalloc(nq);
    e->A = zalloc(n * n);
    e->LU = zalloc(n * n);
    e->b = zalloc(n);
    e->piv = malloc(n * sizeof(int));
    e->q_cur = zalloc(nq);
    e->dq = zalloc(nq);
    e->s_cur = zalloc(ns);
    e->q_save = zalloc(nq);
    e->qd_save = zalloc(nq);
    e->s_save = zalloc(ns);
    e->sd_save = zalloc(ns);
    const size_t nz = (size_t)e->nz;
    e->zd = zalloc(nz);
    e->zb = zalloc(nz);
    e->zp = zalloc(nz);
    e->zm = zalloc(nz);
    e->Dz = zalloc(nq * nz);
    e->z_save = zalloc(nz);
    e->A0 = zalloc(n * n);
    e->mv = zalloc((size_t)m->M_pattern.colptr[m->n_q]);
    e->md = zalloc((size_t)e->nF);
    e->lim = zalloc((size_t)e->nF);
    e->dlam = zalloc((size_t)e->nphi);
    e->r0 = zalloc((size_t)e->nF);
    e->bsave = zalloc(n);
    e->noise = e->step = -1;
    if (!e->delta || !e->kv || !e->cv || !e->G0 || !e->lam || !e->lam_new || !e->gtl0 || !e->gtl1 ||
        !e->A || !e->LU || !e->b || !e->piv || !e->q_cur || !e->dq || !e->s_cur || !e->q_save || !e->qd_save ||
        !e->s_save || !e->sd_save || !e->zd || !e->zb || !e->zp || !e->zm || !e->Dz || !e->z_save ||
        !e->A0 || !e->mv || !e->md || !e->lim || !e->dlam || !e->r0 || !e->bsave)
        return rs_fail(err, errlen, RS_E_NOMEM, "equilibrium: out of memory (%d unknowns)", e->n);
    return RS_OK;
}

/* The step limits over F: RS_EQUILIBRIUM_STEP_M for a coordinate in m,
 * RS_EQUILIBRIUM_STEP_RAD in rad, none for other units (or none known). */
static void step_limits(eq *e)
{
    for (int i = 0; i < e->nF; i++) {
        const char *u = e->m->q_units ? e->m->q_units[e->F[i]] : NULL;
        e->lim[i] = !u ? INFINITY
                    : strcmp(u, "m") == 0   ? RS_EQUILIBRIUM_STEP_M
                    : strcmp(u, "rad") == 0 ? RS_EQUILIBRIUM_STEP_RAD
                                            : INFINITY;
    }
}

/* The largest fraction (≤ 1) of the step dq that keeps every coordinate
 * within `times` its step limit. */
static double limited_fraction(const eq *e, double times)
{
    double a = 1.0;
    for (int i = 0; i < e->nF; i++)
        if (fabs(e->dq[i]) * a > times * e->lim[i])
            a = times * e->lim[i] / fabs(e->dq[i]);
    return a;
}

/* The damping's weights: M's diagonal over F at the current q (a body's mass
 * or inertia, so that the damped step is a short time step of the motion
 * under the residual forces: every body moves alike, m and rad alike).  A
 * coordinate without inertia takes the largest. */
static int mass_diagonal(eq *e)
{
    const rs_model *m = e->m;
    const rs_pattern *P = &m->M_pattern;
    rs_ws_bind(e->ws, e->ws->t, e->ws->q, e->ws->qd);
    int st = rs_ws_call(e->ws, RS_FN_M, e->mv, NULL);
    if (st)
        return st;
    double mmax = 0;
    for (int i = 0; i < e->nF; i++) {
        const int j = e->F[i];
        e->md[i] = 0;
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            if (P->rowind[k] == j && isfinite(e->mv[k]))
                e->md[i] = e->mv[k];
        mmax = fmax(mmax, e->md[i]);
    }
    for (int i = 0; i < e->nF; i++)
        if (!(e->md[i] > 0))
            e->md[i] = mmax > 0 ? mmax : 1.0;
    return RS_OK;
}

/* The damped matrix A0 + μ diag(M_FF) into A (μ = 0: A0 itself). */
static void damp(eq *e, double mu)
{
    const size_t nn = (size_t)e->n * (size_t)e->n;
    memcpy(e->A, e->A0, nn * sizeof(double));
    for (int i = 0; i < e->nF; i++)
        e->A[i + (size_t)i * e->n] += mu * e->md[i];
}

/* The first damping: the μ at which the residual force alone moves no
 * coordinate beyond its step limit, |r_i| / (K_ii + μ M_ii) ≤ limit_i (the
 * step of a body at rest under its residual force, held by its own
 * stiffness), at least RS_EQUILIBRIUM_DAMP0 of the stiffness over the
 * inertia.  The residual is e->r0, the undamped matrix e->A0. */
static double first_damping(const eq *e, double mu_unit)
{
    double mu = RS_EQUILIBRIUM_DAMP0 * mu_unit;
    for (int i = 0; i < e->nF; i++)
        if (isfinite(e->lim[i]))
            mu = fmax(mu, (fabs(e->r0[i]) / e->lim[i] - fmax(0.0, e->A0[i + (size_t)i * e->n])) / e->md[i]);
    return mu;
}

/* Evaluates the trial state q_cur + a dq (+ corr, when not NULL) with the
 * multipliers lam_new: its max |r_F| into *r1 (r_F into e->b), max |φ| into
 * *ph1. */
static int trial(eq *e, double a, const double *corr, double *r1, double *ph1, int *worst)
{
    rs_ws *ws = e->ws;
    for (int i = 0; i < e->nF; i++)
        ws->q[e->F[i]] = e->q_cur[e->F[i]] + a * e->dq[i] + (corr ? corr[i] : 0.0);
    memcpy(ws->s, e->s_cur, (size_t)e->m->n_s * sizeof(double));
    const int st = eval_state(e);
    if (st)
        return st;
    *r1 = residual(e, e->lam_new, worst);
    *ph1 = max_phi(e);
    return RS_OK;
}

/* The residual's noise at the iterate q_cur (residual e->r0, matrix e->A0
 * assembled there, its right-hand side in e->b): the forces of the elastic
 * wheels come from a contact patch searched and integrated to a tolerance,
 * so r_F is smooth only down to some level (the coach: ~1e-2 N on 50 kN
 * wheel loads), below which no Newton step can take it.  That level is
 * measured as the largest difference between r_F at q moved by a tiny p
 * (RS_EQUILIBRIUM_NOISE_STEP, several sign patterns) and the change the
 * stiffness predicts, r0 − A0 p: a smooth force gives ~0 (p is 1e-12 m),
 * a noisy one its noise.  Then the Newton step from q_cur (its size into
 * e->step).  The noise into e->noise; ws is left evaluated at q_cur, e->b
 * as it was. */
static int measure_noise(eq *e, char *err, size_t errlen)
{
    rs_ws *ws = e->ws;
    const int nF = e->nF, n = e->n;
    int st, worst;
    memcpy(e->bsave, e->b, (size_t)n * sizeof(double));
    double noise = 0;
    for (int k = 0; k < RS_EQUILIBRIUM_NOISE_SAMPLES; k++) {
        for (int i = 0; i < nF; i++) { /* all +, alternating, all − */
            const int j = e->F[i];
            const double sg = k == 0 ? 1.0 : k == 1 ? (i % 2 ? -1.0 : 1.0) : -1.0;
            e->dq[i] = sg * RS_EQUILIBRIUM_NOISE_STEP * fmax(1.0, fabs(e->q_cur[j]));
            ws->q[j] = e->q_cur[j] + e->dq[i];
        }
        memcpy(ws->s, e->s_cur, (size_t)e->m->n_s * sizeof(double));
        if ((st = eval_state(e)))
            break;
        residual(e, e->lam, &worst);
        for (int r = 0; r < nF; r++) {
            double pred = e->r0[r];
            for (int c = 0; c < nF; c++)
                pred -= e->A0[r + (size_t)c * n] * e->dq[c];
            noise = fmax(noise, fabs(e->b[r] - pred));
        }
    }
    for (int i = 0; i < nF; i++)
        ws->q[e->F[i]] = e->q_cur[e->F[i]];
    memcpy(ws->s, e->s_cur, (size_t)e->m->n_s * sizeof(double));
    if (st || (st = eval_state(e)))
        return ws_fail_to(ws, st, err, errlen, "measuring the residual's noise");
    residual(e, e->lam, &worst);
    e->noise = noise;
    /* the Newton step from q_cur */
    memcpy(e->b, e->bsave, (size_t)n * sizeof(double));
    memcpy(e->A, e->A0, (size_t)n * (size_t)n * sizeof(double));
    if ((st = solve(e, 1, err, errlen)))
        return st;
    e->step = 0;
    for (int i = 0; i < nF; i++)
        if (isfinite(e->lim[i]))
            e->step = fmax(e->step, fabs(e->b[i]));
    memcpy(e->b, e->bsave, (size_t)n * sizeof(double));
    return RS_OK;
}

/* "; the force evaluation resolves the residual to N ..." where the noise
 * was measured (the last measure_noise), else "": for the errors. */
static void noise_words(const eq *e, char *buf, size_t len)
{
    if (e->noise >= 0)
        snprintf(buf, len,
                 "; the force evaluation resolves the residual to %.3g (its noise, measured) and the Newton "
                 "step there is %.3g (m, rad): converged means below %g x that noise and %g (m, rad), and "
                 "below %g of the largest force",
                 e->noise, e->step, RS_EQUILIBRIUM_NOISE_FACTOR, RS_EQUILIBRIUM_NOISE_DQ,
                 RS_EQUILIBRIUM_NOISE_CEIL);
    else
        buf[0] = '\0';
}

/* The damping grew past RS_EQUILIBRIUM_DAMPMAX: the steps are too short to
 * move anything and the residual still does not settle, so the forces jump
 * at this state.  The error names the largest residual forces there. */
static int stalled(eq *e, int it, double tol, char *err, size_t errlen)
{
    char w[400], nw[400];
    int worst;
    residual(e, e->lam_new, &worst);
    worst_entries(e, w, sizeof w);
    noise_words(e, nw, sizeof nw);
    return rs_fail(err, errlen, RS_E_NOCONV,
                   "equilibrium: stalled at iteration %d: the residual forces jump there however short the "
                   "step (largest %s, tolerance %.3g; max |phi| %.3g, tolerance %.3g%s): a wheel's contact "
                   "force or point changes abruptly at '%s' (two contact regions of the profiles, a bump "
                   "stop or friction at its switch, a track irregularity); start nearer to the equilibrium "
                   "('initial' lines), hold '%s' (leave it off the 'equilibrium' line), or try the other "
                   "contact mode ('contact elastic' / 'contact constraint')",
                   it, w, tol, max_phi(e), e->ws->opt.proj_tol, nw, e->m->q_names[worst], e->m->q_names[worst]);
}

/* The Newton iteration; ws's state is the solution when it returns RS_OK.
 *
 * Globalised: each iteration tries the full Newton step first (where it
 * lowers the merit max(|r_F|, κ|φ|) nothing else happens: the plain Newton
 * of smooth problems); then, with constraints, the full step with a
 * second-order correction (the same factorization moves the trial point
 * back onto φ = 0: a contact constraint curved within the step would
 * otherwise refuse a step that removed most of the force residual); then
 * the step cut to the per-coordinate limits (RS_EQUILIBRIUM_STEP_M/_RAD:
 * a step cannot jump across the flangeway of a wheel profile), halved.
 * When none lowers the merit the matrix is damped, K + μ diag(M) (a
 * Levenberg–Marquardt damping weighted by the inertia: a large μ moves
 * every body a short way along its residual force, like a short time step
 * from rest; near-singular stiffness — wheels not yet loaded, a rigid
 * mode held only by a small geometric stiffness — no longer gives a step of
 * metres), μ raised tenfold until a limited step lowers the merit and
 * lowered tenfold after each success, back to plain Newton. */
static int newton(eq *e, const rs_equilibrium_opts *o, int plain, rs_equilibrium_report *rep, char *err,
                  size_t errlen)
{
    rs_ws *ws = e->ws;
    const rs_model *m = e->m;
    const double tol = o && o->tol > 0 ? o->tol : RS_EQUILIBRIUM_TOL;
    const int maxit = o && o->max_iter > 0 ? o->max_iter : plain ? RS_EQUILIBRIUM_PLAIN_MAXITER : RS_EQUILIBRIUM_MAXITER;
    const rs_log *log = o ? o->log : NULL;
    const size_t nn = (size_t)e->n * (size_t)e->n;
    int st, worst;
    step_limits(e);
    if ((st = eval_state(e)))
        return ws_fail_to(ws, st, err, errlen, "at the initial state");
    if (e->nphi > 0)
        first_lambda(e);
    double scale = fmax(1.0, max_delta_F(e));
    double r = residual(e, e->lam, &worst), ph = max_phi(e);
    double mu = 0; /* the damping [1/s²]: 0 plain Newton */
    for (int it = 0;; it++) {
        rep->iterations = it;
        rep->residual = r;
        rep->phi = ph;
        rep->scale = scale;
        if (mu > 0)
            rs_logf(log, RS_LOG_LINE,
                    "equilibrium: iteration %d: max |residual force| %.3g at '%s', max |phi| %.3g (damped, "
                    "mu %.3g/s^2)", it, r, m->q_names[worst], ph, mu);
        else
            rs_logf(log, RS_LOG_LINE,
                    "equilibrium: iteration %d: max |residual force| %.3g at '%s', max |phi| %.3g", it, r,
                    m->q_names[worst], ph);
        if (r <= tol * scale && ph <= ws->opt.proj_tol) {
            /* a stiffness at the equilibrium for every coordinate solved for */
            if ((st = assemble(e)))
                return ws_fail_to(ws, st, err, errlen, "evaluating the stiffness");
            return solve(e, 0, err, errlen);
        }
        if (it >= maxit) {
            char w[400], nw[400];
            worst_entries(e, w, sizeof w);
            noise_words(e, nw, sizeof nw);
            return rs_fail(err, errlen, RS_E_NOCONV,
                           "equilibrium: no convergence after %d iterations: the largest residual forces "
                           "are %s (tolerance %.3g), max |phi| %.3g (tolerance %.3g%s); a coordinate may "
                           "have (almost) no stiffness or the equilibrium may be far from the initial "
                           "state: start nearer to it ('initial' lines) or solve for fewer coordinates",
                           it, w, tol * scale, ph, ws->opt.proj_tol, nw);
        }
        memcpy(e->r0, e->b, (size_t)e->nF * sizeof(double));
        if ((st = assemble(e)))
            return ws_fail_to(ws, st, err, errlen, "evaluating the stiffness");
        memcpy(e->A0, e->A, nn * sizeof(double));
        memcpy(e->q_cur, ws->q, (size_t)e->nq * sizeof(double));
        memcpy(e->s_cur, ws->s, (size_t)m->n_s * sizeof(double));
        if (r <= RS_EQUILIBRIUM_NOISE_CEIL * scale && ph <= ws->opt.proj_tol) {
            /* near the solution: is the rest the forces' noise? */
            if ((st = measure_noise(e, err, errlen)))
                return st;
            rep->noise = e->noise;
            rep->step = e->step;
            if (r <= RS_EQUILIBRIUM_NOISE_FACTOR * e->noise && e->step <= RS_EQUILIBRIUM_NOISE_DQ) {
                rs_logf(log, RS_LOG_LINE,
                        "equilibrium: the residual %.3g is the force evaluation's noise (%.3g measured at q "
                        "moved by %g, less the stiffness' prediction) and the Newton step %.3g (m, rad): "
                        "converged to what the forces resolve", r, e->noise, RS_EQUILIBRIUM_NOISE_STEP, e->step);
                rep->noise_limited = 1;
                memcpy(e->A, e->A0, nn * sizeof(double));
                if ((st = solve(e, 0, err, errlen))) /* A0 at the solution: a stiffness for every coordinate */
                    return st;
                return RS_OK;
            }
        }
        if ((st = mass_diagonal(e)))
            return ws_fail_to(ws, st, err, errlen, "evaluating the mass matrix");
        double kmax = 0, mmax = 0;
        for (int i = 0; i < e->nF; i++) {
            kmax = fmax(kmax, fabs(e->A0[i + (size_t)i * e->n]));
            mmax = fmax(mmax, e->md[i]);
        }
        const double mu_unit = kmax > 0 ? kmax / mmax : 1.0 / mmax;
        const double merit0 = fmax(r, e->kappa * ph);
        double r1 = 0, ph1 = 0;
        int accepted = 0;
        if (mu == 0) { /* Newton: the full step, its correction, then halved */
            damp(e, 0.0);
            if ((st = solve(e, 1, err, errlen)))
                return st;
            for (int i = 0; i < e->nF; i++)
                e->dq[i] = e->b[i];
            for (int i = 0; i < e->nphi; i++)
                e->dlam[i] = e->kappa * e->b[e->nF + i] - e->lam[i];
            /* a Newton step beyond RS_EQUILIBRIUM_NEWTON_LIMIT times the step
             * limits is cut (a wheel pushed through its rail finds no contact
             * there, and the residual of a wheel in the air is smaller than
             * that of one pressed in: the merit alone would accept it) */
            const double a_lim = plain ? 1.0 : limited_fraction(e, RS_EQUILIBRIUM_NEWTON_LIMIT);
            const int ntry = 2 + (plain ? RS_EQUILIBRIUM_PLAIN_HALVINGS : RS_EQUILIBRIUM_HALVINGS);
            double a = a_lim;
            for (int h = 0; h < ntry && !accepted; h++) {
                if (h == 1 && (e->nphi == 0 || a_lim < 1.0))
                    continue;
                if (h >= 2)
                    a *= 0.5;
                for (int i = 0; i < e->nphi; i++)
                    e->lam_new[i] = e->lam[i] + a * e->dlam[i];
                const double *corr = NULL;
                if (h == 1) {
                    /* the second-order correction: [K κGᵀ; κG 0] [c; μ/κ] = [0; −κ φ(q + dq)]
                     * at the full step's φ (still in ws->phi) */
                    memset(e->b, 0, (size_t)e->nF * sizeof(double));
                    for (int i = 0; i < e->nphi; i++)
                        e->b[e->nF + i] = -e->kappa * ws->phi[i];
                    rs_dense_lu_solve(e->LU, e->n, e->piv, e->b);
                    for (int i = 0; i < e->nphi; i++)
                        e->lam_new[i] += e->kappa * e->b[e->nF + i];
                    memcpy(e->gtl0, e->b, (size_t)e->nF * sizeof(double));
                    corr = e->gtl0;
                }
                st = trial(e, a, corr, &r1, &ph1, &worst);
                accepted = st == RS_OK && (fmax(r1, e->kappa * ph1) < merit0 || (plain && h == ntry - 1));
            }
            if (!accepted && plain)
                return ws_fail_to(ws, st, err, errlen, "during the Newton iteration");
            if (!accepted) /* the damped steps from here, the first moving at most the step limits */
                mu = first_damping(e, mu_unit);
        }
        for (int tries = 0; !accepted; tries++) { /* damped: the step within the limits, always taken */
            damp(e, mu);
            if ((st = solve(e, 1, err, errlen)))
                return st;
            for (int i = 0; i < e->nF; i++)
                e->dq[i] = e->b[i];
            for (int i = 0; i < e->nphi; i++)
                e->dlam[i] = e->kappa * e->b[e->nF + i] - e->lam[i];
            const double a = limited_fraction(e, 1.0);
            for (int i = 0; i < e->nphi; i++)
                e->lam_new[i] = e->lam[i] + a * e->dlam[i];
            st = trial(e, a, NULL, &r1, &ph1, &worst);
            if (st == RS_OK) {
                accepted = 1;
                /* switched evolution relaxation: the damping follows the residual down
                 * to plain Newton, and up where the residual grows */
                const double ratio = fmax(r1, e->kappa * ph1) / merit0;
                mu *= ratio > 1 ? ratio * ratio : fmin(ratio, 0.5);
                if (mu < RS_EQUILIBRIUM_DAMP0 * mu_unit)
                    mu = 0;
                else if (mu > RS_EQUILIBRIUM_DAMPMAX * mu_unit)
                    return stalled(e, it + 1, tol * scale, err, errlen);
            } else if (tries >= RS_EQUILIBRIUM_HALVINGS) {
                return ws_fail_to(ws, st, err, errlen, "during the Newton iteration");
            } else {
                mu *= 10; /* a shorter step where the state could not be evaluated */
            }
        }
        memcpy(e->lam, e->lam_new, (size_t)e->nphi * sizeof(double));
        scale = fmax(scale, max_delta_F(e));
        r = r1;
        ph = ph1;
    }
}

int rs_equilibrium(rs_ws *ws, const rs_equilibrium_opts *o, rs_equilibrium_report *rep_out,
                   char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!ws || ws->magic != RS_WS_MAGIC)
        return rs_fail(err, errlen, RS_E_ARG, "equilibrium: no workspace");
    const rs_model *m = ws->model;
    if (!m->fn[RS_FN_DELTA_JAC].fn)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "equilibrium: model '%s' has no force Jacobians (delta_jac), which the equilibrium "
                       "solve needs: recompile it with this railsym ('railsym compile MODEL.vdl')",
                       m->name);
    rs_equilibrium_report rep_local;
    rs_equilibrium_report *rep = rep_out ? rep_out : &rep_local;
    memset(rep, 0, sizeof *rep);
    eq e;
    int st = eq_init(&e, ws, o, err, errlen);
    if (st) {
        eq_free(&e);
        return st;
    }
    const size_t nq = (size_t)m->n_q, ns = (size_t)m->n_s;
    memcpy(e.q_save, ws->q, nq * sizeof(double));
    memcpy(e.qd_save, ws->qd, nq * sizeof(double));
    memcpy(e.s_save, ws->s, ns * sizeof(double));
    memcpy(e.sd_save, ws->sd, ns * sizeof(double));
    for (int i = 0; i < e.nz; i++)
        e.z_save[i] = ws->u[m->z_slot[i]];
    memset(ws->qd, 0, nq * sizeof(double)); /* at rest */
    ws->in_init = 1;                        /* the contact points' first search */
    ws->ready = 0;
    if ((st = rs_ws_update_constants(ws)) || (st = rs_ws_inputs(ws, ws->t)))
        st = ws_fail_to(ws, st, err, errlen, "parameters and inputs");
    if (!st && e.elastic)
        rs_elastic_fill_splines(ws); /* finite geometry for delta_jac's creep terms (× 0) */
    if (!st)
        st = newton(&e, o, 0, rep, err, errlen);
    if (st == RS_E_NOCONV) {
        /* the plain Newton of earlier versions (halvings, the last one taken
         * whatever it gives) from the state as given: it still settles some
         * starts the globalised steps miss (a wheelset pressed into its
         * flange, tests/physics/test_flange_limit_cycle.c); its failure
         * reports the globalised solve's */
        char err2[8];
        rs_equilibrium_report rep2;
        memcpy(ws->q, e.q_save, nq * sizeof(double));
        memcpy(ws->s, e.s_save, ns * sizeof(double));
        for (int i = 0; i < e.nz; i++)
            ws->u[m->z_slot[i]] = e.z_save[i];
        memset(&rep2, 0, sizeof rep2);
        rs_logf(o ? o->log : NULL, RS_LOG_LINE, "equilibrium: the plain Newton from the initial state");
        if (newton(&e, o, 1, &rep2, err2, sizeof err2) == RS_OK) {
            st = RS_OK;
            *rep = rep2;
            if (err && errlen)
                err[0] = '\0';
        }
    }
    if (st) { /* the state as it was */
        memcpy(ws->q, e.q_save, nq * sizeof(double));
        memcpy(ws->s, e.s_save, ns * sizeof(double));
        memcpy(ws->sd, e.sd_save, ns * sizeof(double));
        for (int i = 0; i < e.nz; i++)
            ws->u[m->z_slot[i]] = e.z_save[i];
    } else {
        memcpy(ws->lambda, e.lam, (size_t)e.nphi * sizeof(double));
        rs_logf(o ? o->log : NULL, RS_LOG_LINE,
                "equilibrium: %d coordinate(s) solved for in %d iteration(s): max |residual force| %.3g "
                "(%.3g of the largest force%s), max |phi| %.3g",
                e.nF, rep->iterations, rep->residual, rep->residual / rep->scale,
                rep->noise_limited ? ": the force evaluation's noise" : "", rep->phi);
    }
    memcpy(ws->qd, e.qd_save, nq * sizeof(double));
    if (!st && !(o && o->keep_velocities))
        for (int i = 0; i < e.nF; i++)
            ws->qd[e.F[i]] = 0.0;
    if (ws->ct)
        ws->cops->fill(ws->ct, -1, ws->s, ws->u);
    ws->in_init = 0;
    ws->proj_ready = ws->cache_valid = 0;
    eq_free(&e);
    return st;
}
