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
 * K's and C's patterns join the step matrix's pattern at set-up as two
 * extra parts beside the contact's (rs_klu_system_build's `extra`: the
 * union of all, each part with its own map into it), so the step only
 * scatters values, after the contact's.  Used for IMEX Euler on any model
 * with RS_FN_DELTA_JAC, with wheel-rail contacts (constraint or elastic)
 * or without; otherwise the plugins stay explicit.  No allocation after
 * set-up.
 */
#include "rs_error.h"
#include "rs_ws_impl.h"

int rs_ws_plugin_jac_setup(rs_ws *ws, const rs_allocator *a, char *err, size_t errlen)
{
    const rs_model *m = ws->model;
    if (m->n_plugin <= 0 || ws->opt.method != RS_IMEX_EULER || !m->fn[RS_FN_DELTA_JAC].fn)
        return RS_OK; /* explicit plugins (docs/plugins.md says when) */
    const int nk = m->K_pattern.colptr[m->n_q], nc = m->C_pattern.colptr[m->n_q];
    ws->plug_jv = rs_alloc(a, 2 * (size_t)(nk + nc) + 1, sizeof(double));
    ws->plug_d = rs_alloc(a, 2 * (size_t)m->n_plugin, sizeof(double));
    if (!ws->plug_jv || !ws->plug_d)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory for the plugins' Jacobians");
    ws->plug_nk = nk;
    ws->plug_nc = nc;
    ws->plug_implicit = 1;
    return RS_OK;
}

void rs_ws_plugin_jac_release(rs_ws *ws, const rs_allocator *a)
{
    rs_free(a, ws->plug_jv);
    rs_free(a, ws->plug_d);
    ws->plug_d = ws->plug_jv = NULL;
    ws->plug_implicit = 0;
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
    const double *Kv = ws->plug_jv, *Cv = Kv + ws->plug_nk;
    rs_klu_system_add_extra(&ws->sys, RS_KLU_EXTRA_PLUGIN_C, Cv, h);
    rs_klu_system_add_extra(&ws->sys, RS_KLU_EXTRA_PLUGIN_K, Kv, 0.5 * h * h);
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
