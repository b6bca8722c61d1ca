/*
 * rs_instance.c — an instance of a model with its bound scenario, set up
 * as `railsym run` sets up its workspace.  See rs_instance.h.
 */
#include "rs_instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_equilibrium.h"
#include "rs_error.h"
#include "rs_fmi2_layout.h"
#include "rs_fmi2_vars.h"
#include "rs_ws_state.h"

/* The input callback: the scenario's tables, then the values the caller
 * set on top. */
static int instance_input(void *ctx, double t, double *u, int n_u)
{
    const rs_instance *in = ctx;
    const int st = in->scn_input ? in->scn_input(in->scn_ctx, t, u, n_u) : 0;
    for (int i = 0; i < n_u; i++)
        if (in->u_set[i])
            u[i] = in->u_val[i];
    return st;
}

int rs_instance_create(rs_instance *in, const rs_model *m, rs_binding *b, const rs_instance_config *c, char *err,
                       size_t errlen)
{
    char msg[1536];
    memset(in, 0, sizeof *in);
    in->m = m;
    in->b = b;
    rs_options opt;
    rs_options_default(&opt);
    rs_binding_options(b, &opt);
    in->scn_input = opt.input;
    in->scn_ctx = opt.input_ctx;
    if (!(in->u_val = calloc((size_t)m->n_u + 1, sizeof *in->u_val)) ||
        !(in->u_set = calloc((size_t)m->n_u + 1, 1)) || !(in->out = calloc((size_t)m->n_out + 1, sizeof *in->out)))
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    int user_inputs = 0;
    for (int u = 0; u < m->n_u; u++)
        user_inputs += rs_fmi2_user_input(m, u);
    if (user_inputs) {   /* else the scenario's callback as it is, as `railsym run` */
        opt.input = instance_input;
        opt.input_ctx = in;
    }
    if (m->n_contact) {
        if (c->contact_dir)
            opt.contact_dir = c->contact_dir;
        else if (!opt.contact_dir && c->default_contact_dir)
            opt.contact_dir = c->default_contact_dir;
        const int mode = rs_binding_contact_mode(b);
        opt.contact = mode == RS_CONTACT_MODE_ELASTIC      ? rs_elastic_contact()
                      : mode == RS_CONTACT_MODE_CONSTRAINT ? rs_wheel_rail_contact()
                                                           : rs_contact_for_model(m);
        if (!opt.contact)
            return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                           "model '%s': its contacts mix 'mode elastic' and 'mode constraint'; choose one in the "
                           "scenario ('contact elastic' or 'contact constraint')",
                           m->name);
        opt.contact_event = c->contact_event;
        opt.contact_event_ctx = c->contact_event_ctx;
    }
    /* user plugin forces, as railsym run (none: no set) */
    const int st = c->plugin_dir ? rs_plugin_set_open_dir(m, c->plugin_dir, &in->plugins, err, errlen)
                                 : rs_plugin_set_open(m, &in->plugins, err, errlen);
    if (st)
        return st;
    opt.plugins = rs_plugin_set_tables(in->plugins);
    in->dt = opt.dt;
    int ws_st;
    if ((ws_st = rs_ws_create(m, &opt, &in->ws, msg, sizeof msg)))
        return rs_fail_model(err, errlen, ws_st, m->name, NULL, msg);
    if ((ws_st = rs_binding_apply(b, in->ws, msg, sizeof msg)))
        return rs_fail_model(err, errlen, ws_st, m->name, NULL, msg);
    return RS_OK;
}

int rs_instance_create_fmu(rs_instance *in, const rs_model *m, const char *res,
                           int (*event)(void *ctx, const struct rs_contact_event *e), void *ctx, char *err,
                           size_t errlen)
{
    memset(in, 0, sizeof *in);
    /* the scenario, the contact folder and the plugin folder, one string
     * each in one block: the workspace may read the contact folder after
     * its creation (track-relative results), so the instance keeps it */
    const size_t n = strlen(res) + 1,   /* "RES/", then a name and its NUL */
        len = 3 * n + sizeof RS_FMI2_SCENARIO + sizeof RS_FMI2_CONTACT_DIR + sizeof RS_FMI2_PLUGIN_DIR;
    char *dirs = malloc(len);
    if (!dirs)
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    char *scn_path = dirs;
    const size_t a = (size_t)snprintf(scn_path, len, "%s/%s", res, RS_FMI2_SCENARIO) + 1;
    char *contact = dirs + a;
    const size_t c = (size_t)snprintf(contact, len - a, "%s/%s", res, RS_FMI2_CONTACT_DIR) + 1;
    char *plugin_dir = contact + c;
    snprintf(plugin_dir, len - a - c, "%s/%s", res, RS_FMI2_PLUGIN_DIR);

    rs_scenario scn;
    rs_scenario_init(&scn);
    rs_binding *b = NULL;
    int st = rs_scenario_load(res, 1, scn_path, NULL, &scn, err, errlen);
    if (!st)
        st = rs_scenario_bind(&scn, m, &b, err, errlen);
    rs_scenario_free(&scn);
    if (st) {
        free(dirs);
        return st;
    }
    const rs_instance_config cfg = {contact, NULL, plugin_dir, event, ctx};
    st = rs_instance_create(in, m, b, &cfg, err, errlen);
    in->dirs = dirs;   /* after: rs_instance_create zeroes *in first */
    return st;
}

void rs_instance_free(rs_instance *in)
{
    if (!in)
        return;
    rs_ws_free(&in->ws);
    rs_plugin_set_close(&in->plugins); /* after the workspace: its release hooks are in them */
    rs_binding_free(&in->b);
    free(in->u_val);
    free(in->u_set);
    free(in->out);
    free(in->dirs);
    memset(in, 0, sizeof *in);
}

int rs_instance_equilibrium(rs_instance *in, char *err, size_t errlen)
{
    const int *eq_idx;
    int n_eq;
    if (!rs_binding_equilibrium(in->b, &eq_idx, &n_eq))
        return RS_OK;
    rs_equilibrium_opts eo = {eq_idx, n_eq, 0, 0, NULL, rs_binding_has_speed(in->b)};
    return rs_equilibrium(in->ws, &eo, NULL, err, errlen);
}

static size_t inputs_len(const rs_instance *in) { return (size_t)in->m->n_u * (sizeof(double) + 1); }

size_t rs_instance_state_size(const rs_instance *in)
{
    const size_t n = rs_ws_state_size(in->ws);
    return n ? inputs_len(in) + n : 0;
}

int rs_instance_state_save(const rs_instance *in, void *buf, size_t len)
{
    const size_t nu = (size_t)in->m->n_u, k = inputs_len(in);
    if (!buf || len < k)
        return RS_E_ARG;
    char *p = buf;
    memcpy(p, in->u_val, nu * sizeof(double));
    memcpy(p + nu * sizeof(double), in->u_set, nu);
    return rs_ws_state_save(in->ws, p + k, len - k);
}

int rs_instance_state_restore(rs_instance *in, const void *buf, size_t len)
{
    const size_t nu = (size_t)in->m->n_u, k = inputs_len(in);
    const char *p = buf;
    if (!p || len < k || rs_ws_state_restore(in->ws, p + k, len - k))
        return RS_E_ARG;
    memcpy(in->u_val, p, nu * sizeof(double));
    memcpy(in->u_set, p + nu * sizeof(double), nu);
    return RS_OK;
}
