/*
 * rs_ws_plugin.c — user plugin forces in a workspace (abi/rs_plugin.h,
 * docs/plugins.md): set-up from rs_options.plugins (init), the call before
 * each force evaluation that writes the plugin's force and Jacobian into
 * its input slots, the discrete-state update after each accepted step, and
 * release.  The core never loads a library: the caller passes the tables
 * (railsym's loader from the model's library names, runtime/load/
 * rs_plugin_load.h; an embedded build the linked plugin's own table).
 * No allocation after set-up.
 */
#include <math.h>
#include <string.h>

#include "rs_error.h"
#include "rs_ws_impl.h"

int rs_ws_plugin_setup(rs_ws *ws, const rs_options *o, const rs_allocator *a, char *err, size_t errlen)
{
    const rs_model *m = ws->model_given;
    if (m->n_plugin <= 0)
        return RS_OK;
    if (!o->plugins)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "rs_ws_create: the model has %d plugin force(s) (the first '%s', library '%s') but no "
                       "plugin tables were given: set rs_options.plugins (railsym's loader does it from the "
                       "model's library names; a static build passes the linked plugin's rs_plugin_entry(), "
                       "docs/plugins.md)",
                       m->n_plugin, m->plugins[0].name, m->plugins[0].library);
    int n_state = 0;
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_plugin_api *api = o->plugins[i];
        if (!api || !api->eval)
            return rs_fail(err, errlen, RS_E_ARG, "plugin '%s' (library '%s'): no table or no eval function given",
                           m->plugins[i].name, m->plugins[i].library);
        if (api->abi_version != RS_PLUGIN_ABI_VERSION)
            return rs_fail(err, errlen, RS_E_MODEL,
                           "plugin '%s' (library '%s') was built for plugin ABI version %u, this runtime "
                           "has version %d: rebuild it against this abi/rs_plugin.h",
                           m->plugins[i].name, m->plugins[i].library, api->abi_version, RS_PLUGIN_ABI_VERSION);
        n_state += m->plugins[i].n_state;
    }
    ws->plug_api = o->plugins;
    ws->plug_ctx = rs_alloc(a, (size_t)m->n_plugin, sizeof(void *));
    ws->plug_state = rs_alloc(a, (size_t)n_state + 1, sizeof(double));
    ws->plug_y = rs_alloc(a, (size_t)m->n_out + 1, sizeof(double));
    if (!ws->plug_ctx || !ws->plug_state || !ws->plug_y)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory for the plugins");
    double *state = ws->plug_state;
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_model_plugin *g = &m->plugins[i];
        const rs_plugin_api *api = ws->plug_api[i];
        char perr[400] = "";
        if (api->init) {
            const int st = api->init(&ws->plug_ctx[i], g->param, g->n_param, state, g->n_state, perr,
                                     sizeof perr);
            if (st) {
                ws->n_plug_live = i;
                return rs_fail(err, errlen, RS_E_VALUE, "plugin '%s' (library '%s'): init failed (status %d)%s%s",
                               g->name, g->library, st, perr[0] ? ": " : "", perr);
            }
        }
        state += g->n_state;
    }
    ws->n_plug_live = m->n_plugin;
    return rs_ws_plugin_jac_setup(ws, a, err, errlen);
}

int rs_ws_plugin_state_count(const rs_ws *ws)
{
    const rs_model *m = ws->model_given;
    int n = 0;
    for (int i = 0; i < m->n_plugin; i++)
        n += m->plugins[i].n_state;
    return n;
}

void rs_ws_plugin_release(rs_ws *ws, const rs_allocator *a)
{
    for (int i = 0; i < ws->n_plug_live; i++)
        if (ws->plug_api[i]->release)
            ws->plug_api[i]->release(ws->plug_ctx[i]);
    ws->n_plug_live = 0;
    rs_ws_plugin_jac_release(ws, a);
    rs_free(a, ws->plug_ctx);
    rs_free(a, ws->plug_state);
    rs_free(a, ws->plug_y);
}

/* The deflections and rates at the bound state (RS_FN_OUTPUTS). */
static int plugin_kinematics(rs_ws *ws)
{
    return rs_ws_call(ws, RS_FN_OUTPUTS, ws->plug_y, NULL);
}

static void plugin_in(const rs_ws *ws, int i, const double *state, rs_plugin_in *in)
{
    const rs_model_plugin *g = &ws->model_given->plugins[i];
    in->t = ws->t_in;
    in->x = ws->plug_y[g->out_x];
    in->v = ws->plug_y[g->out_v];
    in->param = g->param;
    in->n_param = g->n_param;
    in->state = state;
    in->n_state = g->n_state;
}

int rs_ws_plugin_eval(rs_ws *ws)
{
    const rs_model *m = ws->model_given;
    if (m->n_plugin <= 0)
        return RS_OK;
    int st = plugin_kinematics(ws);
    if (st)
        return st;
    const double *state = ws->plug_state;
    ws->plug_jac_now = 0;
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_model_plugin *g = &m->plugins[i];
        rs_plugin_in in;
        rs_plugin_out out;
        plugin_in(ws, i, state, &in);
        memset(&out, 0, sizeof out);
        const int ps = ws->plug_api[i]->eval(ws->plug_ctx[i], &in, &out);
        if (ps)
            return rs_ws_fail(ws, RS_E_MODELFN, "plugin '%s' (library '%s') failed with status %d at t = %.9g s",
                              g->name, g->library, ps, in.t);
        if (!out.has_jac)
            out.dfdx = out.dfdv = 0; /* explicit: the force is held over the step */
        if (!isfinite(out.f) || !isfinite(out.dfdx) || !isfinite(out.dfdv))
            return rs_ws_fail(ws, RS_E_NONFINITE,
                              "plugin '%s' (library '%s') returned a non-finite value at t = %.9g s (x = %g, "
                              "v = %g): f = %g, dfdx = %g, dfdv = %g",
                              g->name, g->library, in.t, in.x, in.v, out.f, out.dfdx, out.dfdv);
        double *u = ws->u;
        u[g->u_slot[0]] = out.f;
        u[g->u_slot[1]] = out.dfdx;
        u[g->u_slot[2]] = out.dfdv;
        u[g->u_slot[3]] = in.x;
        u[g->u_slot[4]] = in.v;
        if (ws->plug_d) {
            ws->plug_d[2 * i] = out.dfdx;
            ws->plug_d[2 * i + 1] = out.dfdv;
        }
        ws->plug_jac_now |= out.has_jac != 0;
        state += g->n_state;
    }
    return RS_OK;
}

/* One call of plugin i at (x, v) with its states, checked as in
 * rs_ws_plugin_eval. */
static int call_at(rs_ws *ws, int i, const double *state, double x, double v, rs_plugin_out *out)
{
    const rs_model_plugin *g = &ws->model_given->plugins[i];
    rs_plugin_in in;
    plugin_in(ws, i, state, &in);
    in.x = x;
    in.v = v;
    memset(out, 0, sizeof *out);
    const int ps = ws->plug_api[i]->eval(ws->plug_ctx[i], &in, out);
    if (ps)
        return rs_ws_fail(ws, RS_E_MODELFN, "plugin '%s' (library '%s') failed with status %d at t = %.9g s",
                          g->name, g->library, ps, in.t);
    if (!isfinite(out->f))
        return rs_ws_fail(ws, RS_E_NONFINITE,
                          "plugin '%s' (library '%s') returned a non-finite force at t = %.9g s (x = %g, v = %g)",
                          g->name, g->library, in.t, x, v);
    return RS_OK;
}

int rs_ws_plugin_linearize(rs_ws *ws)
{
    const rs_model *m = ws->model_given;
    int st = rs_ws_plugin_eval(ws);
    if (st || m->n_plugin <= 0)
        return st;
    const double *state = ws->plug_state;
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_model_plugin *g = &m->plugins[i];
        const double x = ws->plug_y[g->out_x], v = ws->plug_y[g->out_v];
        rs_plugin_out o0, op, om;
        if ((st = call_at(ws, i, state, x, v, &o0)))
            return st;
        if (!o0.has_jac) {
            /* central differences with steps of 1e-5 of the values (at
             * least 1e-5 m, 1e-5 m/s): near eps^(1/3), where the O(h²)
             * error of a smooth law meets rounding's eps |f| / h */
            const double hx = 1e-5 * fmax(1.0, fabs(x)), hv = 1e-5 * fmax(1.0, fabs(v));
            if ((st = call_at(ws, i, state, x + hx, v, &op)) || (st = call_at(ws, i, state, x - hx, v, &om)))
                return st;
            ws->u[g->u_slot[1]] = (op.f - om.f) / (2 * hx);
            if ((st = call_at(ws, i, state, x, v + hv, &op)) || (st = call_at(ws, i, state, x, v - hv, &om)))
                return st;
            ws->u[g->u_slot[2]] = (op.f - om.f) / (2 * hv);
            if (ws->plug_d) {
                ws->plug_d[2 * i] = ws->u[g->u_slot[1]];
                ws->plug_d[2 * i + 1] = ws->u[g->u_slot[2]];
            }
        }
        state += g->n_state;
    }
    return RS_OK;
}

int rs_ws_plugin_advance(rs_ws *ws, double t1, double dt)
{
    const rs_model *m = ws->model_given;
    int any = 0;
    for (int i = 0; i < m->n_plugin; i++)
        any |= ws->plug_api[i]->advance != NULL;
    if (!any)
        return RS_OK;
    rs_ws_bind(ws, t1, ws->q, ws->qd);
    int st = plugin_kinematics(ws);
    if (st)
        return st;
    double *state = ws->plug_state;
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_model_plugin *g = &m->plugins[i];
        if (ws->plug_api[i]->advance) {
            rs_plugin_in in;
            plugin_in(ws, i, state, &in);
            const int ps = ws->plug_api[i]->advance(ws->plug_ctx[i], &in, dt, state);
            if (ps)
                return rs_ws_fail(ws, RS_E_MODELFN,
                                  "plugin '%s' (library '%s'): advance failed with status %d at t = %.9g s", g->name,
                                  g->library, ps, t1);
            for (int k = 0; k < g->n_state; k++)
                if (!isfinite(state[k]))
                    return rs_ws_fail(ws, RS_E_NONFINITE,
                                      "plugin '%s' (library '%s'): its state %d is %g after the step to t = %.9g s",
                                      g->name, g->library, k, state[k], t1);
        }
        state += g->n_state;
    }
    return RS_OK;
}
