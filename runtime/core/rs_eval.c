/*
 * rs_eval.c — calling the model's functions from a workspace: input slots,
 * error reporting for model functions and non-finite values, and the
 * evaluations a caller asks for between steps (outputs, energy, residuals).
 */
#include <math.h>
#include <string.h>

#include "rs_inertia.h"
#include "rs_ws_impl.h"

void rs_ws_bind(rs_ws *ws, double t, const double *q, const double *qd)
{
    ws->t_in = t;
    ws->in[RS_IN_Q] = q;
    ws->in[RS_IN_QD] = qd;
}

int rs_prof_switch(rs_ws *ws, int phase)
{
    const double now = rs_now_s();
    const int prev = ws->prof_phase;
    if (prev >= 0 && prev < RS_PHASE_COUNT)
        ws->stats.phase_s[prev] += now - ws->prof_t0;
    ws->prof_t0 = now;
    ws->prof_phase = phase;
    return prev;
}

const char *rs_phase_name(int phase)
{
    static const char *const names[RS_PHASE_COUNT] = {
        "kalker", "spline", "functions", "solve", "integration", "projection", "other",
        "constraints"};
    return phase >= 0 && phase < RS_PHASE_COUNT ? names[phase] : NULL;
}

int rs_ws_call(rs_ws *ws, int id, double *out0, double *out1)
{
    double *out[RS_FN_MAX_OUT] = {out0, out1};
    return rs_ws_call_n(ws, id, out);
}

void rs_ws_qdd_settle(rs_ws *ws)
{
    if (!ws->qdd_pending)
        return;
    ws->qdd_pending = 0;
    for (int j = 0; j < ws->model->n_q; j++)
        ws->qdd[j] = rs_ws_qdd_pending_value(ws, j);
}

int rs_ws_call_n(rs_ws *ws, int id, double *const *out)
{
    if (ws->qdd_pending && rs_fn_reads_qdd(id))
        rs_ws_qdd_settle(ws);
    const rs_func *f = &ws->model->fn[id];
    if (!f->fn)
        return rs_ws_fail(ws, RS_E_MODEL, "model '%s' has no function %s", ws->model->name,
                          rs_fn_name(id));
    const int prev = rs_prof_enter(ws, rs_fn_phase(ws));
    int r = f->fn(ws->in, out);
    rs_prof_enter(ws, prev);
    if (r != RS_ABI_OK)
        return rs_ws_fail(ws, RS_E_MODELFN, "model function %s returned %d", rs_fn_name(id), r);
    return RS_OK;
}

/* 0 when v[0..n) are all finite: x − x is 0 for a finite x and NaN for an
 * infinite or NaN one, and a NaN survives every sum (no overflow possible,
 * unlike summing the values).  Four sums so that gcc pairs them into SIMD
 * operations: about two instructions a value instead of a compare and
 * branch each (the step checks about a thousand values). */
static int any_nonfinite(const double *v, int n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += v[i] - v[i];
        s1 += v[i + 1] - v[i + 1];
        s2 += v[i + 2] - v[i + 2];
        s3 += v[i + 3] - v[i + 3];
    }
    for (; i < n; i++)
        s0 += v[i] - v[i];
    return !((s0 + s1) + (s2 + s3) == 0);
}

int rs_ws_check_finite(rs_ws *ws, const double *v, int n, const char *what,
                       const char *const *names)
{
    if (!any_nonfinite(v, n))
        return RS_OK;
    for (int i = 0; i < n; i++) /* which one, for the message */
        if (!isfinite(v[i])) {
            if (names)
                return rs_ws_fail(ws, RS_E_NONFINITE, "%s[%d] ('%s') is %g", what, i, names[i],
                                  v[i]);
            return rs_ws_fail(ws, RS_E_NONFINITE, "%s[%d] is %g", what, i, v[i]);
        }
    return RS_OK;
}

int rs_ws_inputs(rs_ws *ws, double t)
{
    if (!ws->opt.input)
        return RS_OK;
    int r = ws->opt.input(ws->opt.input_ctx, t, ws->u, ws->model->n_u);
    if (ws->ct) /* the callback may have written the spline slots */
        ws->cops->inputs_changed(ws->ct);
    if (r)
        return rs_ws_fail(ws, RS_E_INPUT, "input callback returned %d at t = %.9g s", r, t);
    if (ws->opt.check_finite)
        return rs_ws_check_finite(ws, ws->u, ws->model->n_u, "input u", ws->model->u_names);
    return RS_OK;
}

/* The masses and inertias made of parameters, for the parameters now set
 * (rs_inertia.h): a body no body can be is refused by name.  Only when
 * they changed since the last pass (a parameter set every step by a
 * coupling seldom makes a mass). */
static int check_inertia(rs_ws *ws)
{
    char why[sizeof ws->err];
    const int st = rs_inertia_check_model_changed(ws->model, ws->in, ws->inertia_eval, ws->inertia_passed,
                                                  &ws->inertia_passed_valid, why, sizeof why);
    return st ? rs_ws_fail(ws, st, "%s", why) : RS_OK;
}

int rs_ws_update_constants(rs_ws *ws)
{
    if (!ws->constants_dirty)
        return RS_OK;
    ws->cache_valid = 0; /* RS_FN_PROJ wrote it with the old p and k */
    int st = rs_ws_check_finite(ws, ws->p, ws->model->n_p, "parameter p", ws->model->p_names);
    if (st || (st = check_inertia(ws)))
        return st;
    if (ws->model->fn[RS_FN_CONSTANTS].fn) {
        if ((st = rs_ws_call(ws, RS_FN_CONSTANTS, ws->k, NULL)))
            return st;
        if ((st = rs_ws_check_finite(ws, ws->k, ws->model->n_const, "constant k", NULL)))
            return st;
    }
    ws->constants_dirty = 0;
    return RS_OK;
}

static int check_ws(const rs_ws *ws)
{
    return ws && ws->magic == RS_WS_MAGIC;
}

/* The constants up to date and the inputs bound to the current state: what
 * every evaluation of the state needs first. */
static int bind_current(rs_ws *ws)
{
    int st = rs_ws_update_constants(ws);
    if (st)
        return st;
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    return RS_OK;
}

int rs_ws_outputs(rs_ws *ws, double *out)
{
    if (!check_ws(ws) || (!out && ws->model->n_out > 0))
        return RS_E_ARG;
    if (ws->model->n_out == 0)
        return RS_OK;
    int st = bind_current(ws);
    return st ? st : rs_ws_call(ws, RS_FN_OUTPUTS, out, NULL);
}

int rs_ws_wheels(rs_ws *ws, double *const *out)
{
    if (!check_ws(ws) || !out)
        return RS_E_ARG;
    if (!ws->model->fn[RS_FN_WHEEL].fn)
        return RS_E_MODEL;
    int st = bind_current(ws);
    return st ? st : rs_ws_call_n(ws, RS_FN_WHEEL, out);
}

int rs_ws_body_pose(rs_ws *ws, double *pose)
{
    if (!check_ws(ws) || !pose)
        return RS_E_ARG;
    if (!ws->model->fn[RS_FN_BODY_POSE].fn)
        return RS_E_MODEL;
    int st = bind_current(ws);
    return st ? st : rs_ws_call(ws, RS_FN_BODY_POSE, pose, NULL);
}

int rs_ws_creep_eval(rs_ws *ws, double *const *out)
{
    if (!check_ws(ws) || !out)
        return RS_E_ARG;
    if (!ws->model->fn[RS_FN_CREEP].fn)
        return RS_E_MODEL;
    int st = bind_current(ws);
    return st ? st : rs_ws_call_n(ws, RS_FN_CREEP, out);
}

int rs_ws_energy(rs_ws *ws, double *kinetic, double *potential)
{
    if (!check_ws(ws))
        return RS_E_ARG;
    int st = bind_current(ws);
    if (st || (st = rs_ws_call(ws, RS_FN_ENERGY, &ws->energy[0], &ws->energy[1])))
        return st;
    if (kinetic)
        *kinetic = ws->energy[0];
    if (potential)
        *potential = ws->energy[1];
    return RS_OK;
}

int rs_ws_power(rs_ws *ws, double *power)
{
    if (!check_ws(ws))
        return RS_E_ARG;
    int st = bind_current(ws);
    if (st || (st = rs_ws_call(ws, RS_FN_POWER, ws->power, NULL)))
        return st;
    if (power)
        memcpy(power, ws->power, sizeof ws->power);
    return RS_OK;
}

/* max |φ| and max |φ_q q̇ − β| at the bound state; uses ws->phi, Gv, beta. */
int rs_ws_eval_residuals(rs_ws *ws, double *pos, double *vel)
{
    const rs_model *m = ws->model;
    double rp = 0, rv = 0;
    int st;
    if (m->n_phi > 0) {
        if ((st = rs_ws_call(ws, RS_FN_PHI, ws->phi, NULL)) ||
            (st = rs_ws_call(ws, RS_FN_PHI_Q, ws->Gv, NULL)) ||
            (st = rs_ws_call(ws, RS_FN_BETA, ws->beta, NULL)))
            return st;
        const rs_pattern *G = &m->phi_q_pattern;
        const double *qd = ws->in[RS_IN_QD];
        for (int i = 0; i < m->n_phi; i++) {
            rp = fmax(rp, fabs(ws->phi[i]));
            ws->rhs[i] = -ws->beta[i];
        }
        for (int j = 0; j < m->n_q; j++)
            for (int k = G->colptr[j]; k < G->colptr[j + 1]; k++)
                ws->rhs[G->rowind[k]] += ws->Gv[k] * qd[j];
        for (int i = 0; i < m->n_phi; i++)
            rv = fmax(rv, fabs(ws->rhs[i]));
        /* fmax drops NaN: report it as such. */
        for (int i = 0; i < m->n_phi; i++)
            if (!isfinite(ws->phi[i]) || !isfinite(ws->rhs[i]))
                rp = rv = NAN;
    }
    if (pos)
        *pos = rp;
    if (vel)
        *vel = rv;
    return RS_OK;
}

int rs_ws_residuals(rs_ws *ws, double *pos, double *vel)
{
    if (!check_ws(ws))
        return RS_E_ARG;
    int st = bind_current(ws);
    return st ? st : rs_ws_eval_residuals(ws, pos, vel);
}
