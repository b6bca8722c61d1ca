/*
 * rs_thermal_run.c — see rs_thermal_run.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_thermal_run.h"

struct rs_thermal_run {
    rs_thermal_spec spec;
    rs_thermal_couple *couple;
    int i_param, i_temp, i_power;
    double *outputs;   /* n_out, for rs_ws_outputs */
    double coef;
};

/* Index of `name` among names[0..n), else -1 with the message. */
static int find(const char *const *names, int n, const char *name, const rs_thermal_spec *s, const char *what,
                const char *hint, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    const char *sug = n ? rs_closest_name(name, names, n) : NULL;
    if (sug)
        rs_fail_at(err, errlen, RS_E_NOTFOUND, s->file, s->line, "thermal: unknown %s '%s' (did you mean '%s'?)",
                   what, name, sug);
    else
        rs_fail_at(err, errlen, RS_E_NOTFOUND, s->file, s->line, "thermal: the model has no %s '%s'; %s", what,
                   name, hint);
    return -1;
}

int rs_thermal_run_create(const rs_thermal_spec *spec, rs_ws *ws, const rs_thermal_transport *tr,
                          rs_thermal_run **out, char *err, size_t errlen)
{
    *out = NULL;
    const rs_model *m = rs_ws_model(ws);
    rs_thermal_run *r = calloc(1, sizeof *r);
    if (!r || !(r->outputs = calloc((size_t)m->n_out + 1, sizeof *r->outputs))) {
        free(r);
        return rs_fail(err, errlen, RS_E_NOMEM, "thermal: out of memory");
    }
    r->spec = *spec;
    r->i_temp = -1;
    int st = RS_OK;
    if ((r->i_param = find(m->p_names, m->n_p, spec->param, spec, "parameter",
                           "declare the damping coefficient as a 'param' of the .vdl", err, errlen)) < 0 ||
        (r->i_power = find(m->output_names, m->n_out, spec->power, spec, "output",
                           "add one such as 'output p_yaw = c_yaw*v^2' to the .vdl", err, errlen)) < 0 ||
        (spec->temperature[0] &&
         (r->i_temp = find(m->p_names, m->n_p, spec->temperature, spec, "parameter",
                           "declare it ('param T_yaw = 20') to see the temperature as a column", err, errlen)) < 0))
        st = RS_E_NOTFOUND;
    if (!st)
        st = rs_thermal_couple_create(spec, rs_ws_p(ws)[r->i_param], tr, &r->couple, err, errlen);
    if (!st)
        st = rs_thermal_run_step(r, ws, 0, err, errlen);
    if (st) {
        rs_thermal_run_free(&r);
        return st;
    }
    *out = r;
    return RS_OK;
}

int rs_thermal_run_step(rs_thermal_run *r, rs_ws *ws, double dt, char *err, size_t errlen)
{
    double P = 0;
    int st;
    if (dt > 0) {
        if ((st = rs_ws_outputs(ws, r->outputs)))
            return rs_fail(err, errlen, st, "thermal: the outputs: %s", rs_ws_error(ws));
        P = r->outputs[r->i_power];
    }
    if ((st = rs_thermal_couple_step(r->couple, P, dt, &r->coef, err, errlen)))
        return st;
    rs_thermal_energy e;
    rs_thermal_couple_energy(r->couple, &e);
    /* set only when it changes: the same value set again would still mark
     * the constants for recomputation */
    if (rs_ws_p(ws)[r->i_param] != r->coef && (st = rs_ws_set_param_index(ws, r->i_param, r->coef)))
        return rs_fail(err, errlen, st, "thermal: cannot set '%s'", r->spec.param);
    if (r->i_temp >= 0 && rs_ws_p(ws)[r->i_temp] != e.t_mean &&
        (st = rs_ws_set_param_index(ws, r->i_temp, e.t_mean)))
        return rs_fail(err, errlen, st, "thermal: cannot set '%s'", r->spec.temperature);
    return RS_OK;
}

void rs_thermal_run_summary(const rs_thermal_run *r, char *buf, size_t len)
{
    rs_thermal_energy e;
    rs_thermal_couple_energy(r->couple, &e);
    const rs_thermal_grid *g = rs_thermal_couple_grid(r->couple);
    const double bal = e.generated - e.stored - e.lost;
    snprintf(buf, len,
             "thermal %s: %ld cells, %ld sub-steps per step; mean temperature %.4g C, %s = %.6g; heat %.6g J = "
             "stored %.6g + lost %.6g (balance %.2g J)",
             r->spec.param, g->cells, e.substeps, e.t_mean, r->spec.param, r->coef, e.generated, e.stored, e.lost,
             bal);
}

void rs_thermal_run_free(rs_thermal_run **r)
{
    if (!r || !*r)
        return;
    rs_thermal_couple_free(&(*r)->couple);
    free((*r)->outputs);
    free(*r);
    *r = NULL;
}
