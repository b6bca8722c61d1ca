/*
 * rs_ws_plugin_jac.c — the implicit treatment of plugin forces in the IMEX
 * step (docs/plugins.md "Implicit treatment").
 *
 * A plugin that returns ∂f/∂x and ∂f/∂v has them written into its input
 * slots; the model's force Jacobians RS_FN_DELTA_JAC then hold its
 * stiffness K_p = Jᵀ (∂f/∂x) J and damping C_p = Jᵀ (∂f/∂v) J (J = ∂x/∂q)
 * besides every other element's.  The plugins' part alone is the difference
 * of two evaluations, with the slots as written and with ∂f/∂x = ∂f/∂v = 0:
 * the generated force is f + dfdx (x − x_eval) + dfdv (v − v_eval) and the
 * plugin was called at x_eval, v_eval, so nothing else in K or C depends on
 * those two slots (f's own geometric stiffness, f ∂²x/∂q², is in both and
 * stays explicit, as f is).
 *
 * The step linearizes δ about its start with q(t+Δt) − q(t) = Δt q̇ +
 * Δt/2 (q̇(t+Δt) − q̇) (its trapezoidal position update):
 *   (M + Δt C_p + Δt²/2 K_p) q̇(t+Δt) = M q̇ + Δt δ + Δt C_p q̇ − Δt²/2 K_p q̇
 * (the elastic contact's form with θ = 1, docs/runtime.md), so a plugin
 * spring at q(t+Δt) acts as a backward-Euler one: stable for any Δt.
 *
 * The union of K's and C's patterns joins the step matrix's pattern at
 * set-up (rs_klu_system_build's `extra`), so the step only scatters values.
 * Used for IMEX Euler on models without wheel-rail contacts (whose matrix
 * already carries the contact's extra pattern) that have RS_FN_DELTA_JAC;
 * otherwise the plugins stay explicit.  No allocation after set-up.
 */
#include <string.h>

#include "rs_error.h"
#include "rs_ws_impl.h"

/* Allocates the union pattern of K_pattern and C_pattern with the maps of
 * both into it and the value arrays (out of memory: RS_E_NOMEM). */
static int build_union(rs_ws *ws, const rs_allocator *a)
{
    const rs_model *m = ws->model;
    const rs_pattern *K = &m->K_pattern, *C = &m->C_pattern;
    const int nq = m->n_q, nk = K->colptr[nq], nc = C->colptr[nq];
    int *colptr = rs_alloc(a, (size_t)nq + 1, sizeof(int));
    int *rowind = rs_alloc(a, (size_t)(nk + nc) + 1, sizeof(int));
    ws->plug_mapK = rs_alloc(a, (size_t)nk + 1, sizeof(int));
    ws->plug_mapC = rs_alloc(a, (size_t)nc + 1, sizeof(int));
    ws->plug_jv = rs_alloc(a, 2 * (size_t)(nk + nc) + (size_t)(nk + nc) + 1, sizeof(double));
    ws->plug_d = rs_alloc(a, 2 * (size_t)m->n_plugin, sizeof(double));
    ws->plug_pat.colptr = colptr;
    ws->plug_pat.rowind = rowind;
    if (!colptr || !rowind || !ws->plug_mapK || !ws->plug_mapC || !ws->plug_jv || !ws->plug_d)
        return RS_E_NOMEM;
    int p = 0;
    for (int j = 0; j < nq; j++) { /* both columns' rows increase: a merge */
        colptr[j] = p;
        int x = K->colptr[j], y = C->colptr[j];
        const int xe = K->colptr[j + 1], ye = C->colptr[j + 1];
        while (x < xe || y < ye) {
            const int rk = x < xe ? K->rowind[x] : nq, rc = y < ye ? C->rowind[y] : nq;
            const int r = rk < rc ? rk : rc;
            if (rk == r)
                ws->plug_mapK[x++] = p;
            if (rc == r)
                ws->plug_mapC[y++] = p;
            rowind[p++] = r;
        }
    }
    colptr[nq] = p;
    ws->plug_pat.nrow = ws->plug_pat.ncol = nq;
    ws->plug_nk = nk;
    ws->plug_nc = nc;
    return RS_OK;
}

int rs_ws_plugin_jac_setup(rs_ws *ws, const rs_allocator *a, char *err, size_t errlen)
{
    const rs_model *m = ws->model;
    if (m->n_plugin <= 0 || ws->ct || ws->opt.method != RS_IMEX_EULER || !m->fn[RS_FN_DELTA_JAC].fn)
        return RS_OK; /* explicit plugins (docs/plugins.md says when) */
    if (build_union(ws, a))
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory for the plugins' Jacobians");
    ws->plug_implicit = 1;
    return RS_OK;
}

void rs_ws_plugin_jac_release(rs_ws *ws, const rs_allocator *a)
{
    rs_free(a, (void *)ws->plug_pat.colptr);
    rs_free(a, (void *)ws->plug_pat.rowind);
    rs_free(a, ws->plug_mapK);
    rs_free(a, ws->plug_mapC);
    rs_free(a, ws->plug_jv);
    rs_free(a, ws->plug_d);
    ws->plug_d = NULL;
    memset(&ws->plug_pat, 0, sizeof ws->plug_pat);
    ws->plug_mapK = ws->plug_mapC = NULL;
    ws->plug_jv = NULL;
    ws->plug_implicit = 0;
}

const rs_pattern *rs_ws_plugin_jac_pattern(const rs_ws *ws)
{
    return ws->plug_implicit ? &ws->plug_pat : NULL;
}

/* K_p, C_p at the bound state into plug_jv[0..nk), [nk..nk+nc): the force
 * Jacobians with the plugins' slots as written minus those with their
 * ∂f/∂x, ∂f/∂v at 0 (the second pair into [nk+nc..2(nk+nc))). */
static int plugin_part(rs_ws *ws)
{
    const rs_model *m = ws->model;
    const int nk = ws->plug_nk, nc = ws->plug_nc;
    double *Kv = ws->plug_jv, *Cv = Kv + nk, *K0 = Cv + nc, *C0 = K0 + nk, *u = ws->u;
    int st = rs_ws_call(ws, RS_FN_DELTA_JAC, Kv, Cv);
    if (st)
        return st;
    for (int i = 0; i < m->n_plugin; i++) /* plug_d keeps them */
        u[m->plugins[i].u_slot[1]] = u[m->plugins[i].u_slot[2]] = 0;
    st = rs_ws_call(ws, RS_FN_DELTA_JAC, K0, C0);
    for (int i = 0; i < m->n_plugin; i++) {
        u[m->plugins[i].u_slot[1]] = ws->plug_d[2 * i];
        u[m->plugins[i].u_slot[2]] = ws->plug_d[2 * i + 1];
    }
    if (st)
        return st;
    for (int k = 0; k < nk; k++)
        Kv[k] -= K0[k];
    for (int k = 0; k < nc; k++)
        Cv[k] -= C0[k];
    if (ws->opt.check_finite &&
        ((st = rs_ws_check_finite(ws, Kv, nk, "plugin stiffness K_p", NULL)) ||
         (st = rs_ws_check_finite(ws, Cv, nc, "plugin damping C_p", NULL))))
        return st;
    return RS_OK;
}

int rs_ws_plugin_jac_add(rs_ws *ws, double h)
{
    if (!ws->plug_implicit || !ws->plug_jac_now)
        return RS_OK;
    int st = plugin_part(ws);
    if (st)
        return st;
    const int nk = ws->plug_nk, nc = ws->plug_nc, nx = ws->plug_pat.colptr[ws->model->n_q];
    const double *Kv = ws->plug_jv, *Cv = Kv + nk;
    double *X = ws->plug_jv + 2 * (nk + nc);
    memset(X, 0, (size_t)nx * sizeof(double));
    for (int k = 0; k < nc; k++)
        X[ws->plug_mapC[k]] += h * Cv[k];
    for (int k = 0; k < nk; k++)
        X[ws->plug_mapK[k]] += 0.5 * h * h * Kv[k];
    rs_klu_system_add_extra(&ws->sys, X, 1.0);
    return RS_OK;
}

void rs_ws_plugin_jac_rhs(const rs_ws *ws, double h, double *rhs)
{
    if (!ws->plug_implicit || !ws->plug_jac_now)
        return;
    const rs_model *m = ws->model;
    const int nk = ws->plug_nk;
    const double *Kv = ws->plug_jv, *Cv = Kv + nk;
    for (int j = 0; j < m->n_q; j++) { /* Δt C_p q̇ − Δt²/2 K_p q̇ */
        const double qd = ws->qd[j];
        for (int k = m->C_pattern.colptr[j]; k < m->C_pattern.colptr[j + 1]; k++)
            rhs[m->C_pattern.rowind[k]] += h * Cv[k] * qd;
        for (int k = m->K_pattern.colptr[j]; k < m->K_pattern.colptr[j + 1]; k++)
            rhs[m->K_pattern.rowind[k]] -= 0.5 * h * h * Kv[k] * qd;
    }
}
