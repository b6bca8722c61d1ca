/*
 * rs_fmi2_vars.c — see rs_fmi2_vars.h.  No allocation: the list is
 * computed from the descriptor's sizes on each call.
 */
#include <stdio.h>

#include "rs_fmi2_vars.h"

/* The contact quantities an FMU gives per contact (rs_ws.h). */
static const int contact_k[] = {RS_CONTACT_VAR_N, RS_CONTACT_VAR_Y, RS_CONTACT_VAR_Q};
#define N_CONTACT_K ((int)(sizeof contact_k / sizeof contact_k[0]))
static const char *const contact_suffix[] = {"N", "Y", "Q"};

int rs_fmi2_user_input(const rs_model *m, int u)
{
    for (int i = 0; i < m->n_contact; i++) {
        const rs_contact *c = &m->contacts[i];
        for (int k = 0; k < 3; k++)
            if (c->force_slot[k] == u)
                return 0;
        for (int sp = 0; sp < RS_SPLINE_COUNT; sp++)
            for (int j = 0; j < 5; j++)
                if (c->spline[sp].u_slot[j] == u)
                    return 0;
    }
    for (int i = 0; i < m->n_plugin; i++) /* a plugin's slots: the runtime writes them (docs/plugins.md) */
        for (int k = 0; k < 5; k++)
            if (m->plugins[i].u_slot[k] == u)
                return 0;
    return 1;
}

static int n_user_inputs(const rs_model *m)
{
    int n = 0;
    for (int u = 0; u < m->n_u; u++)
        n += rs_fmi2_user_input(m, u);
    return n;
}

int rs_fmi2_elastic(const rs_ws *ws)
{
    const rs_options *o = ws ? rs_ws_options(ws) : NULL;
    return o && o->contact && o->contact->elastic;
}

/* 1 when multiplier row is a variable: not a contact's normal constraint
 * under the elastic contact */
static int lambda_kept(const rs_model *m, int elastic, int row)
{
    return !elastic || rs_model_contact_of_row(m, row) < 0;
}

static int n_lambdas(const rs_model *m, int elastic)
{
    int n = 0;
    for (int r = 0; r < m->n_phi; r++)
        n += lambda_kept(m, elastic, r);
    return n;
}

int rs_fmi2_var_count(const rs_model *m, int elastic)
{
    return 1 + m->n_p + n_user_inputs(m) + 2 * m->n_q + n_lambdas(m, elastic) + m->n_out +
           N_CONTACT_K * m->n_contact;
}

int rs_fmi2_var_at(const rs_model *m, int elastic, int vr, rs_fmi2_var *v)
{
    if (vr < 0 || vr >= rs_fmi2_var_count(m, elastic))
        return RS_E_ARG;
    int k = vr;
    if (k == 0) {
        *v = (rs_fmi2_var){RS_FMI2_INDEPENDENT, {RS_VAR_TIME, 0}};
        return RS_OK;
    }
    k -= 1;
    if (k < m->n_p) {
        *v = (rs_fmi2_var){RS_FMI2_PARAMETER, {RS_VAR_P, k}};
        return RS_OK;
    }
    k -= m->n_p;
    const int nu = n_user_inputs(m);
    if (k < nu) {
        for (int u = 0; u < m->n_u; u++)   /* the k-th user input */
            if (rs_fmi2_user_input(m, u) && k-- == 0) {
                *v = (rs_fmi2_var){RS_FMI2_INPUT, {RS_VAR_U, u}};
                return RS_OK;
            }
    }
    k -= nu;
    const struct {
        rs_var_kind kind;
        int n;
    } out[] = {{RS_VAR_Q, m->n_q}, {RS_VAR_QD, m->n_q}, {RS_VAR_LAMBDA, n_lambdas(m, elastic)},
               {RS_VAR_OUTPUT, m->n_out}};
    for (int g = 0; g < 4; g++) {
        if (k < out[g].n) {
            int i = k;
            if (out[g].kind == RS_VAR_LAMBDA)   /* the k-th multiplier kept */
                for (int r = 0; r < m->n_phi; r++)
                    if (lambda_kept(m, elastic, r) && k-- == 0) {
                        i = r;
                        break;
                    }
            *v = (rs_fmi2_var){RS_FMI2_OUTPUT, {out[g].kind, i}};
            return RS_OK;
        }
        k -= out[g].n;
    }
    *v = (rs_fmi2_var){RS_FMI2_OUTPUT,
                       {RS_VAR_CONTACT, RS_CONTACT_VAR_STRIDE * (k / N_CONTACT_K) + contact_k[k % N_CONTACT_K]}};
    return RS_OK;
}

void rs_fmi2_var_name(const rs_model *m, const rs_fmi2_var *v, char *buf, size_t len)
{
    const int i = v->var.index;
    switch (v->var.kind) {
    case RS_VAR_TIME: snprintf(buf, len, "time"); break;
    case RS_VAR_P: snprintf(buf, len, "%s", m->p_names[i]); break;
    case RS_VAR_U: snprintf(buf, len, "%s", m->u_names[i]); break;
    case RS_VAR_Q: snprintf(buf, len, "%s", m->q_names[i]); break;
    case RS_VAR_QD: snprintf(buf, len, "%s_dot", m->q_names[i]); break;
    case RS_VAR_LAMBDA: snprintf(buf, len, "lambda_%s", m->phi_names[i]); break;
    case RS_VAR_OUTPUT: snprintf(buf, len, "%s", m->output_names[i]); break;
    case RS_VAR_CONTACT: {
        const int c = i / RS_CONTACT_VAR_STRIDE, k = i % RS_CONTACT_VAR_STRIDE;
        int j = 0;
        while (j < N_CONTACT_K - 1 && contact_k[j] != k)
            j++;
        snprintf(buf, len, "%s.%s", m->contacts[c].name, contact_suffix[j]);
        break;
    }
    default: snprintf(buf, len, "?"); break;
    }
}
