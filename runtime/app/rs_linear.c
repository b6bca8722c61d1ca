/* rs_linear.c — see rs_linear.h: the linearized matrices at a state. The
 * eigen analysis and the sweep over speeds are in rs_linear_modes.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_contact.h"
#include "rs_contact_ops.h"
#include "rs_error.h"
#include "rs_linear.h"
#include "rs_linear_impl.h"
#include "rs_linear_lapack.h"

#define FD_H RS_LINEAR_FD_H

void rs_linear_system_free(rs_linear_system *sys)
{
    if (!sys)
        return;
    free(sys->M);
    free(sys->K);
    free(sys->C);
    free(sys->N);
    free(sys->lambda0);
    free(sys->G);
    free(sys->Kz);
    free(sys->Zq);
    free(sys->Zv);
    free(sys->Zb);
    free(sys->T);
    free(sys->ES);
    memset(sys, 0, sizeof *sys);
}

/* Adds the CSC values v of pattern P into the dense column-major A (ld n),
 * times scale. */
static void scatter_add(const rs_pattern *P, const double *v, int ncol, int ld, double scale, double *A)
{
    for (int j = 0; j < ncol; j++)
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            A[(size_t)j * ld + P->rowind[k]] += scale * v[k];
}

/* Entries of a pattern of ncol columns (an empty one may have no arrays). */
static size_t nnz(const rs_pattern *P, int ncol)
{
    return P->colptr ? (size_t)P->colptr[ncol] : 0;
}

/* Everything one evaluation at a state needs, allocated once. */
typedef rs_linear_ctx lin;

static void lin_free(lin *L)
{
    free(L->phiq_v);
    for (int k = 0; k < RS_FN_MAX_OUT; k++)
        free(L->creep[k]);
    free(L->Cb);
    free(L->fsave);
}

int rs_linear_resolve(lin *L)
{
    rs_ws *ws = L->ws;
    int st = RS_OK;
    if (L->nc > 0 && (st = ws->cops->solve_s(ws, ws->t)))
        return st;
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    /* user plugins: called at this state, with their Jacobians (given, or
     * central differences of the force) for delta_jac (docs/plugins.md) */
    return L->m->n_plugin > 0 ? rs_ws_plugin_linearize(ws) : RS_OK;
}

int rs_linear_phiq_t_lambda(lin *L, const double *lam, double *g)
{
    int st = rs_linear_resolve(L);
    if (st)
        return st;
    memset(g, 0, (size_t)L->n * sizeof *g);
    if (L->nphi == 0)
        return RS_OK;
    if ((st = rs_ws_call(L->ws, RS_FN_PHI_Q, L->phiq_v, NULL)))
        return st;
    const rs_pattern *P = &L->m->phi_q_pattern;
    for (int j = 0; j < L->n; j++)
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            g[j] += L->phiq_v[k] * lam[P->rowind[k]];
    return RS_OK;
}

int rs_linear_creep_force(lin *L, double *F, double *fout)
{
    memset(F, 0, (size_t)L->n * sizeof *F);
    if (L->nc == 0)
        return RS_OK;
    int st = rs_linear_resolve(L);
    if (st || (st = rs_ws_creep_eval(L->ws, L->creep)))
        return st;
    const rs_pattern *D = &L->m->ddelta_df_pattern;
    for (int i = 0; i < L->nc; i++) {
        const double *nu = L->creep[0] + 3 * i, *Cb = L->Cb + 9 * i;
        double Cr[9], sa, sb;
        if (L->N0) { /* re-formed at this state's radii and V, as the step does (N held) */
            const rs_ws *ws = L->ws;
            if (rs_contact_creep_block(L->N0[i], L->creep[2] + 3 * i, L->creep[1][i], rs_options_E(&ws->opt, i),
                                       rs_options_nu(&ws->opt, i), ws->opt.contact_vmin, Cr, &sa, &sb))
                return RS_E_NONHERTZ;
            Cb = Cr;
        }
        for (int a = 0; a < 3; a++) {
            const double f = -(Cb[3 * a] * nu[0] + Cb[3 * a + 1] * nu[1] + Cb[3 * a + 2] * nu[2]);
            if (fout)
                fout[3 * i + a] = f;
            const int col = 3 * i + a;
            for (int k = D->colptr[col]; k < D->colptr[col + 1]; k++)
                F[D->rowind[k]] += L->creep[3][k] * f;
        }
    }
    return RS_OK;
}

/* Dense solve A X = B (A n × n destroyed, B n × nrhs becomes X). */
static int solve_dense(int n, int nrhs, double *A, double *B)
{
    int *ipiv = malloc((size_t)(n > 0 ? n : 1) * sizeof *ipiv), info = 0;
    if (!ipiv)
        return RS_E_NOMEM;
    dgesv_(&n, &nrhs, A, &n, ipiv, B, &n, &info);
    free(ipiv);
    return info == 0 ? RS_OK : info > 0 ? RS_E_SINGULAR : RS_E_INTERNAL;
}

/* The null space of the dense n_phi × n matrix G (column-major, destroyed)
 * into N (n × r), by SVD: the right singular vectors of the singular values
 * below 1e-10 of the largest. */
static int null_space(int nphi, int n, double *G, double *N, int *r)
{
    if (nphi == 0) {
        memset(N, 0, (size_t)n * n * sizeof *N);
        for (int i = 0; i < n; i++)
            N[(size_t)i * n + i] = 1;
        *r = n;
        return RS_OK;
    }
    const int ldu = nphi;
    int info = 0, lwork = -1;
    double wq, u1;
    double *sv = calloc((size_t)(nphi < n ? nphi : n) + 1, sizeof *sv);
    double *vt = malloc((size_t)n * n * sizeof *vt);
    if (!sv || !vt) {
        free(sv);
        free(vt);
        return RS_E_NOMEM;
    }
    dgesvd_("N", "A", &nphi, &n, G, &nphi, sv, &u1, &ldu, vt, &n, &wq, &lwork, &info, 1, 1);
    lwork = (int)wq;
    double *work = malloc((size_t)(lwork > 1 ? lwork : 1) * sizeof *work);
    if (!work) {
        free(sv);
        free(vt);
        return RS_E_NOMEM;
    }
    dgesvd_("N", "A", &nphi, &n, G, &nphi, sv, &u1, &ldu, vt, &n, work, &lwork, &info, 1, 1);
    free(work);
    int rank = 0;
    const int ns = nphi < n ? nphi : n;
    for (int k = 0; k < ns; k++)
        if (sv[k] > 1e-10 * sv[0])
            rank++;
    free(sv);
    if (info != 0) {
        free(vt);
        return RS_E_NOCONV;
    }
    /* rows rank..n−1 of Vᵀ are the basis vectors */
    *r = n - rank;
    for (int c = 0; c < *r; c++)
        for (int i = 0; i < n; i++)
            N[(size_t)c * n + i] = vt[(size_t)i * n + rank + c];
    free(vt);
    return RS_OK;
}

int rs_linear_system_at(rs_ws *ws, rs_linear_system *sys, char *err, size_t errlen)
{
    return rs_linear_system_at_ex(ws, sys, NULL, NULL, err, errlen);
}

int rs_linear_system_at_ex(rs_ws *ws, rs_linear_system *sys, rs_linear_at_fn fn, void *user, char *err,
                           size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    memset(sys, 0, sizeof *sys);
    if (!m->fn[RS_FN_DELTA_JAC].fn)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' has no force Jacobians (delta_jac), which the linear analysis needs: "
                       "recompile it with this railsym (`railsym compile MODEL.vdl -o DIR`)", m->name);
    if (m->n_contact > 0 && ws->cops && ws->cops->elastic && !fn)
        return rs_linear_system_elastic(ws, sys, err, errlen);
    if (m->n_contact > 0 && (!ws->cops || ws->cops->elastic || !m->fn[RS_FN_CREEP].fn))
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "model '%s': the linear analysis linearizes the constraint contact (normal constraints, "
                       "linear Kalker creep); this run uses the elastic contact: put 'contact constraint' in "
                       "the scenario", m->name);
    if (!ws->ready && rs_ws_init(ws))
        return rs_fail(err, errlen, RS_E_VALUE, "initial state: %s", rs_ws_error(ws));
    const int n = m->n_q, nphi = m->n_phi, nc = m->n_contact;
    const size_t nn = (size_t)n * n;
    lin L = {ws, m, n, nphi, nc, NULL, {0}, NULL, NULL, NULL};
    double *q_save = NULL, *s_save = NULL, *Kv = NULL, *Cv = NULL, *Mv = NULL, *A = NULL, *rhs = NULL;
    double *gp = NULL, *gm = NULL, *G = NULL, *N0v = NULL;
    int st = RS_E_NOMEM;
    sys->n = n;
    sys->nphi = nphi;
    sys->G = calloc((size_t)nphi * n + 1, sizeof(double));
    sys->M = calloc(nn, sizeof(double));
    sys->K = calloc(nn, sizeof(double));
    sys->C = calloc(nn, sizeof(double));
    sys->N = calloc(nn + 1, sizeof(double));
    sys->lambda0 = calloc((size_t)nphi + 1, sizeof(double));
    q_save = malloc(((size_t)n + 1) * sizeof *q_save);
    s_save = malloc(((size_t)m->n_s + 1) * sizeof *s_save);
    Mv = malloc((nnz(&m->M_pattern, n) + 1) * sizeof *Mv);
    Kv = malloc((nnz(&m->K_pattern, n) + 1) * sizeof *Kv);
    Cv = malloc((nnz(&m->C_pattern, n) + 1) * sizeof *Cv);
    L.phiq_v = malloc((nnz(&m->phi_q_pattern, n) + 1) * sizeof(double));
    L.Cb = calloc(9 * (size_t)nc + 1, sizeof(double));
    L.fsave = calloc(3 * (size_t)nc + 1, sizeof(double));
    gp = malloc(((size_t)n + 1) * sizeof *gp);
    gm = malloc(((size_t)n + 1) * sizeof *gm);
    G = calloc((size_t)nphi * n + 1, sizeof *G);
    const int na = n + nphi;
    /* δ with the creep inputs at 0: δ^NK, or δ itself in a model without
     * contacts (no δ^NK then; the force slots were zeroed anyway) */
    const int fn_delta = m->fn[RS_FN_DELTA_NK].fn ? RS_FN_DELTA_NK : RS_FN_DELTA;
    A = calloc((size_t)na * na + 1, sizeof *A);
    rhs = calloc((size_t)na + 1, sizeof *rhs);
    if (!sys->G || !sys->M || !sys->K || !sys->C || !sys->N || !sys->lambda0 || !q_save || !s_save || !Mv || !Kv || !Cv ||
        !L.phiq_v || !L.Cb || !L.fsave || !gp || !gm || !G || !A || !rhs)
        goto fail;
    if (nc > 0) {
        const rs_func *cf = &m->fn[RS_FN_CREEP];
        for (int k = 0; k < cf->n_out && k < RS_FN_MAX_OUT; k++)
            if (!(L.creep[k] = calloc((size_t)cf->out_len[k] + 1, sizeof(double))))
                goto fail;
    }
    memcpy(q_save, ws->q, (size_t)n * sizeof *q_save);
    memcpy(s_save, ws->s, (size_t)m->n_s * sizeof *s_save);
    /* the creep forces enter through f = −Cb ν below: delta_jac and δ^NK
     * are taken with the force inputs at 0 */
    for (int i = 0; i < nc; i++)
        for (int a = 0; a < 3; a++) {
            L.fsave[3 * i + a] = ws->u[m->contacts[i].force_slot[a]];
            ws->u[m->contacts[i].force_slot[a]] = 0;
        }
    if ((st = rs_ws_update_constants(ws)) || (st = rs_linear_resolve(&L)))
        goto fail_ws;
    if ((st = rs_ws_call(ws, RS_FN_M, Mv, NULL)) || (st = rs_ws_call(ws, RS_FN_DELTA_JAC, Kv, Cv)) ||
        (st = rs_ws_call(ws, fn_delta, ws->delta, NULL)))
        goto fail_ws;
    scatter_add(&m->M_pattern, Mv, n, n, 1, sys->M);
    scatter_add(&m->K_pattern, Kv, n, n, 1, sys->K);
    scatter_add(&m->C_pattern, Cv, n, n, 1, sys->C);

    /* the steady state's multipliers: [M φ_qᵀ; φ_q 0][q̈; λ] = [δ + D f0; γ],
     * with the creep blocks at the normal forces a first solve gives (the
     * creep forces of the steady state, spin creep, are small: one pass) */
    double *F = gp;
    for (int pass = 0; pass < 2; pass++) {
        memcpy(ws->q, q_save, (size_t)n * sizeof *q_save);
        if ((st = rs_linear_resolve(&L)) || (st = rs_ws_call(ws, fn_delta, ws->delta, NULL)))
            goto fail_ws;
        if (pass == 1 && (st = rs_linear_creep_force(&L, F, NULL)))
            goto fail_ws;
        memset(A, 0, (size_t)na * na * sizeof *A);
        scatter_add(&m->M_pattern, Mv, n, na, 1, A);
        for (int j = 0; j < n; j++)
            rhs[j] = ws->delta[j] + (pass == 1 ? F[j] : 0);
        if (nphi > 0) {
            if ((st = rs_ws_call(ws, RS_FN_PHI_Q, L.phiq_v, NULL)) ||
                (st = rs_ws_call(ws, RS_FN_GAMMA, rhs + n, NULL)))
                goto fail_ws;
            const rs_pattern *P = &m->phi_q_pattern;
            for (int j = 0; j < n; j++)
                for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++) {
                    A[(size_t)j * na + n + P->rowind[k]] = L.phiq_v[k];   /* φ_q  */
                    A[(size_t)(n + P->rowind[k]) * na + j] = L.phiq_v[k]; /* φ_qᵀ */
                    G[(size_t)j * nphi + P->rowind[k]] = L.phiq_v[k];
                }
        }
        if ((st = solve_dense(na, 1, A, rhs))) {
            rs_fail(err, errlen, st, "model '%s': the steady state's [M φ_qᵀ; φ_q 0] is singular (redundant "
                    "constraints?)", m->name);
            goto out;
        }
        memcpy(sys->lambda0, rhs + n, (size_t)nphi * sizeof(double));
        if (pass == 0) {
            sys->rest_acc = 0;
            sys->rest_at = -1;
            for (int j = 0; j < n; j++)
                if (fabs(rhs[j]) > sys->rest_acc) {
                    sys->rest_acc = fabs(rhs[j]);
                    sys->rest_at = j;
                }
        }
        for (int i = 0; i < nc && pass == 0; i++) {
            const double N0 = -sys->lambda0[m->contacts[i].phi_row];
            if (!(N0 > 0)) {
                st = rs_fail(err, errlen, RS_E_LIFTOFF,
                             "model '%s': contact '%s' carries no load in the state linearized (N = %.6g N): "
                             "the linear analysis needs every wheel on its rail", m->name, m->contacts[i].name, N0);
                goto out;
            }
        }
        if (nc == 0)
            break;
        /* the creep blocks at the normal forces (contact points at q0) */
        if ((st = rs_linear_resolve(&L)) || (st = rs_ws_creep_eval(ws, L.creep)))
            goto fail_ws;
        for (int i = 0; i < nc; i++) {
            double a, b;
            const double N0 = -sys->lambda0[m->contacts[i].phi_row];
            const int r = rs_contact_creep_block(N0, L.creep[2] + 3 * i, L.creep[1][i], rs_options_E(&ws->opt, i),
                                                 rs_options_nu(&ws->opt, i), ws->opt.contact_vmin, L.Cb + 9 * i,
                                                 &a, &b);
            if (r) {
                st = rs_fail(err, errlen, RS_E_NONHERTZ,
                             "model '%s': contact '%s': Hertz/Kalker failed (code %d) at N = %.6g N", m->name,
                             m->contacts[i].name, r, N0);
                goto out;
            }
        }
    }

    /* C_f = −∂(D f)/∂q̇ by central differences, Cb re-formed at each
     * velocity: D Cb ∂ν/∂q̇ (the step's C^K_qq) plus the steady creep
     * force's change with the reference speed V (Cb ∝ 1/V; a yaw rate moves
     * the wheels' V by ±ψ̇ b).  That second part is small (S1002 wheelset at
     * 15 m/s: ζ +5e-6), kept so that C and K linearize the same force.  The
     * creep forces are linear in q̇ but for V: h = 1e-6 m/s of V ≈ 10 m/s. */
    if (nc > 0) {
        if (!(N0v = malloc((size_t)nc * sizeof *N0v)))
            goto fail;
        for (int i = 0; i < nc; i++)
            N0v[i] = -sys->lambda0[m->contacts[i].phi_row];
        L.N0 = N0v;
        for (int j = 0; j < n; j++) {
            double *col = sys->C + (size_t)j * n;
            const double qd0 = ws->qd[j];
            for (int side = 0; side < 2; side++) {
                memcpy(ws->q, q_save, (size_t)n * sizeof *q_save);
                memcpy(ws->s, s_save, (size_t)m->n_s * sizeof *s_save);
                ws->qd[j] = qd0 + (side ? -FD_H : FD_H);
                st = rs_linear_creep_force(&L, side ? gm : gp, NULL);
                ws->qd[j] = qd0;
                if (st)
                    goto fail_ws;
            }
            for (int i = 0; i < n; i++)
                col[i] -= (gp[i] - gm[i]) / (2 * FD_H);
        }
    }

    /* K_λ = ∂(φ_qᵀ λ0)/∂q and K_f = −∂(D f)/∂q, central differences; Cb
     * re-formed at each displaced contact's radii and V (N held at N0): with
     * the steady spin creepage of a 1:40 contact angle its change is first
     * order (issue 22: the S1002 wheelset's ζ 0.019688 → 0.017267, runs
     * released on the constraint manifold 0.017269; a cone's constant
     * radii leave it nil) */
    for (int j = 0; j < n && (nphi > 0 || nc > 0); j++) {
        double *col = sys->K + (size_t)j * n;
        for (int side = 0; side < 2; side++) {
            double *g = side ? gm : gp;
            memcpy(ws->q, q_save, (size_t)n * sizeof *q_save);
            memcpy(ws->s, s_save, (size_t)m->n_s * sizeof *s_save);
            ws->q[j] += side ? -FD_H : FD_H;
            if ((st = rs_linear_phiq_t_lambda(&L, sys->lambda0, g)))
                goto fail_ws;
            double *Ff = calloc((size_t)n + 1, sizeof *Ff);
            if (!Ff) {
                st = RS_E_NOMEM;
                goto fail;
            }
            st = rs_linear_creep_force(&L, Ff, NULL);
            for (int i = 0; i < n; i++)
                g[i] -= Ff[i];     /* −(D f): K = −∂(D f − φ_qᵀλ0)/∂q */
            free(Ff);
            if (st)
                goto fail_ws;
        }
        for (int i = 0; i < n; i++)
            col[i] += (gp[i] - gm[i]) / (2 * FD_H);
    }

    L.N0 = NULL; /* the track inputs (rs_linear_frf.c) and the loads' terms: Cb held */

    /* the internal states' rows at q0 (their forces and rates) */
    memcpy(ws->q, q_save, (size_t)n * sizeof *q_save);
    memcpy(ws->s, s_save, (size_t)m->n_s * sizeof *s_save);
    if ((st = rs_linear_z_terms(&L, sys, fn_delta)))
        goto fail_ws;

    /* the null space of φ_q at q0 (dgesvd destroys G: keep a copy) */
    memcpy(sys->G, G, (size_t)nphi * n * sizeof *G);
    if ((st = null_space(nphi, n, G, sys->N, &sys->r))) {
        rs_fail(err, errlen, st, "model '%s': the null space of the constraint Jacobian (LAPACK dgesvd)", m->name);
        goto out;
    }
    if ((st = rs_linear_load_terms(&L, sys))) {
        rs_fail(err, errlen, st, "model '%s': the creep forces' variation with the normal loads (M or "
                "φ_q M⁻¹ φ_qᵀ singular, or Hertz failing)", m->name);
        goto out;
    }
    st = RS_OK;
    if (fn) { /* at q0, s0 and the steady state's creep blocks */
        memcpy(ws->q, q_save, (size_t)n * sizeof *q_save);
        memcpy(ws->s, s_save, (size_t)m->n_s * sizeof *s_save);
        if ((st = rs_linear_resolve(&L)))
            goto fail_ws;
        st = fn(&L, sys, user, err, errlen);
    }
    goto out;
fail_ws:
    rs_fail(err, errlen, st, "model '%s': linearizing: %s", m->name, rs_ws_error(ws));
    goto out;
fail:
    rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    st = RS_E_NOMEM;
out:
    /* the state as it was: q, s, the force inputs, the contact points */
    if (q_save && s_save) {
        memcpy(ws->q, q_save, (size_t)n * sizeof *q_save);
        memcpy(ws->s, s_save, (size_t)m->n_s * sizeof *s_save);
        for (int i = 0; i < nc && L.fsave; i++)
            for (int a = 0; a < 3; a++)
                ws->u[m->contacts[i].force_slot[a]] = L.fsave[3 * i + a];
        if (nc > 0 && ws->cops)
            ws->cops->fill(ws->ct, -1, ws->s, ws->u);
        rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    }
    free(q_save);
    free(s_save);
    free(Mv);
    free(Kv);
    free(Cv);
    free(gp);
    free(gm);
    free(G);
    free(N0v);
    free(A);
    free(rhs);
    lin_free(&L);
    if (st)
        rs_linear_system_free(sys);
    return st;
}
