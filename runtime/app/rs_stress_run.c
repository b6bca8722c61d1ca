/*
 * rs_stress_run.c — see rs_stress_run.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress_reaction.h"
#include "rs_stress_run.h"

/* One component: its statement, its beam and where its inputs are. */
typedef struct component {
    rs_stress_spec spec;
    rs_stress_couple *couple;
    int i_v, i_w, i_g;                   /* index of OUT.x of each (-1: no gravity) */
    int i_load[RS_STRESS_MAX];           /* an output load's OUT.x (-1: a reaction) */
    rs_stress_reaction react[RS_STRESS_MAX];
    double loads[3 * RS_STRESS_MAX];
    int col0;                            /* its first column among all */
} component;

struct rs_stress_run {
    int n;
    component comp[RS_STRESS_MODELS];
    double *outputs;                     /* n_out, for rs_ws_outputs (once per step for all) */
    double *pose;                        /* 12 n_body, when a load is a reaction (NULL: none) */
    char names[RS_STRESS_MODELS * RS_STRESS_MAX][2 * RS_STRESS_NAME + 8];
    const char *name_ptr[RS_STRESS_MODELS * RS_STRESS_MAX], *unit_ptr[RS_STRESS_MODELS * RS_STRESS_MAX];
    double sigma[RS_STRESS_MODELS * RS_STRESS_MAX];   /* every component's points, in column order */
    rs_results_extra cols;
};

/* Index of OUT.x among the outputs, with OUT.y and OUT.z after it, else
 * -1 and the message. */
static int find_vector(const rs_model *m, const char *out, const rs_stress_spec *s, const char *what,
                       const char *hint, char *err, size_t errlen)
{
    char want[RS_STRESS_NAME + 3];
    for (int i = 0; i + 2 < m->n_out; i++) {
        snprintf(want, sizeof want, "%s.x", out);
        if (strcmp(m->output_names[i], want) != 0)
            continue;
        snprintf(want, sizeof want, "%s.y", out);
        if (strcmp(m->output_names[i + 1], want) != 0)
            break;
        snprintf(want, sizeof want, "%s.z", out);
        if (strcmp(m->output_names[i + 2], want) != 0)
            break;
        return i;
    }
    snprintf(want, sizeof want, "%s.x", out);
    const char *sug = m->n_out ? rs_closest_name(want, m->output_names, m->n_out) : NULL;
    if (sug)
        rs_fail_at(err, errlen, RS_E_NOTFOUND, s->file, s->line,
                   "stress %s: unknown output '%s' for %s (did you mean '%s'?)", s->name, want, what, sug);
    else
        rs_fail_at(err, errlen, RS_E_NOTFOUND, s->file, s->line,
                   "stress %s: the model has no output '%s' for %s; %s", s->name, want, what, hint);
    return -1;
}

/* Binds one statement's outputs (the messages name its file:line). */
static int bind(component *c, rs_ws *ws, char *err, size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    const rs_stress_spec *spec = &c->spec;
    c->i_g = -1;
    char hint[3][300];
    snprintf(hint[0], sizeof hint[0],
             "add 'output %s = vel(P) in B' to the .vdl (P the point at the component frame's origin, B the "
             "base of body %s) or name one with 'velocity NAME'", spec->velocity, spec->body);
    snprintf(hint[1], sizeof hint[1],
             "add 'output %s = omega(%s) in B' to the .vdl (B its base) or name one with 'omega NAME'",
             spec->omega, spec->body);
    snprintf(hint[2], sizeof hint[2],
             "add 'output %s = [0, 0, -g] in ground in B' to the .vdl (B the base of body %s), name one with "
             "'gravity NAME', or write 'gravity none'", spec->gravity, spec->body);
    if ((c->i_v = find_vector(m, spec->velocity, spec, "the frame's velocity", hint[0], err, errlen)) < 0 ||
        (c->i_w = find_vector(m, spec->omega, spec, "the body's angular velocity", hint[1], err, errlen)) < 0 ||
        (spec->gravity[0] &&
         (c->i_g = find_vector(m, spec->gravity, spec, "gravity", hint[2], err, errlen)) < 0))
        return RS_E_NOTFOUND;
    for (int k = 0; k < spec->n_load; k++) {
        int st;
        c->i_load[k] = -1;
        if (spec->load[k].reaction) {
            if ((st = rs_stress_reaction_bind(ws, spec, k, &c->react[k], err, errlen)))
                return st;
        } else if ((c->i_load[k] = find_vector(m, spec->load[k].output, spec, "a load",
                                               "add a vector output of the force on the component (N, in the "
                                               "body's base)",
                                               err, errlen)) < 0)
            return RS_E_NOTFOUND;
    }
    return RS_OK;
}

int rs_stress_run_create(const rs_stress_spec *spec, int n, rs_ws *ws, const rs_stress_transport *tr,
                         rs_stress_run **out, char *err, size_t errlen)
{
    *out = NULL;
    if (n < 1 || n > RS_STRESS_MODELS)
        return rs_fail(err, errlen, RS_E_ARG, "stress: %d components (1 to %d in one run)", n, RS_STRESS_MODELS);
    const rs_model *m = rs_ws_model(ws);
    rs_stress_run *r = calloc(1, sizeof *r);
    if (!r || !(r->outputs = calloc((size_t)m->n_out + 1, sizeof *r->outputs))) {
        free(r);
        return rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
    }
    int st = RS_OK, nc = 0;
    for (int i = 0; !st && i < n; i++) {
        component *c = &r->comp[i];
        c->spec = spec[i];
        c->col0 = nc;
        st = bind(c, ws, err, errlen);
        for (int k = 0; !st && !r->pose && k < spec[i].n_load; k++)
            if (spec[i].load[k].reaction && !(r->pose = calloc(12 * (size_t)m->n_body, sizeof *r->pose)))
                st = rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
        for (int p = 0; p < spec[i].n_point; p++, nc++) {
            snprintf(r->names[nc], sizeof r->names[nc], "%s.sigma_%s", spec[i].name, spec[i].point[p].name);
            r->name_ptr[nc] = r->names[nc];
            r->unit_ptr[nc] = "Pa";
        }
    }
    /* every statement is bound before any beam starts: a misnamed output
     * in the second leaves no worker busy with the first */
    for (int i = 0; !st && i < n; i++)
        st = rs_stress_couple_create(&r->comp[i].spec, r->comp[i].spec.n_member ? NULL : tr, &r->comp[i].couple,
                                     err, errlen);   /* a frame runs here, also under --mpi (rs_stress_frame.h) */
    r->n = n;   /* the free below skips the ones never started (NULL) */
    if (!st) {
        r->cols = (rs_results_extra){nc, r->name_ptr, r->unit_ptr, r->sigma};
        st = rs_stress_run_step(r, ws, 0, err, errlen);
    }
    if (st) {
        rs_stress_run_free(&r);
        return st;
    }
    *out = r;
    return RS_OK;
}

int rs_stress_run_step(rs_stress_run *r, rs_ws *ws, double dt, char *err, size_t errlen)
{
    int st;
    if ((st = rs_ws_outputs(ws, r->outputs)))
        return rs_fail(err, errlen, st, "stress %s: the outputs: %s", r->comp[0].spec.name, rs_ws_error(ws));
    if (r->pose && (st = rs_ws_body_pose(ws, r->pose)))
        return rs_fail(err, errlen, st, "stress %s: the body poses: %s", r->comp[0].spec.name, rs_ws_error(ws));
    const double *lambda = rs_ws_lambda(ws);
    for (int i = 0; i < r->n; i++) {
        component *c = &r->comp[i];
        for (int k = 0; k < c->spec.n_load; k++)
            if (c->i_load[k] >= 0)
                memcpy(c->loads + 3 * k, r->outputs + c->i_load[k], 3 * sizeof(double));
            else
                rs_stress_reaction_force(&c->react[k], lambda, r->pose, c->loads + 3 * k);
        if ((st = rs_stress_couple_step(c->couple, r->outputs + c->i_v, r->outputs + c->i_w,
                                        c->i_g >= 0 ? r->outputs + c->i_g : NULL, c->loads, dt, err, errlen)))
            return st;
        memcpy(r->sigma + c->col0, rs_stress_couple_sigma(c->couple), (size_t)c->spec.n_point * sizeof(double));
    }
    return RS_OK;
}

const rs_results_extra *rs_stress_run_columns(const rs_stress_run *r) { return &r->cols; }

int rs_stress_run_count(const rs_stress_run *r) { return r->n; }

void rs_stress_run_summary(const rs_stress_run *r, int i, char *buf, size_t len)
{
    const component *c = &r->comp[i];
    const rs_stress_beam *b = rs_stress_couple_beam(c->couple);
    const double *sigma = rs_stress_couple_sigma(c->couple);
    size_t k = (size_t)snprintf(buf, len, "stress %s: %d nodes, %ld sub-steps per step (mu %.4g 1/s)", c->spec.name,
                                b->n_nodes, rs_stress_couple_substeps(c->couple), b->mu);
    for (int p = 0; p < c->spec.n_point && k < len; p++)
        k += (size_t)snprintf(buf + k, len - k, "%s sigma_%s %.6g Pa", p ? "," : ";", c->spec.point[p].name,
                              sigma[p]);
    for (int l = 0; l < c->spec.n_load && k < len; l++) {   /* where each reaction was found to act */
        const rs_stress_reaction *x = &c->react[l];
        if (c->spec.load[l].reaction)
            k += (size_t)snprintf(buf + k, len - k, "; reaction %s from %s: %slambda at [%.6g, %.6g, %.6g] m from "
                                  "%s's centre of mass", c->spec.load[l].output, x->other, x->sign < 0 ? "-" : "+",
                                  x->at[0], x->at[1], x->at[2], c->spec.body);
    }
}

void rs_stress_run_free(rs_stress_run **r)
{
    if (!r || !*r)
        return;
    for (int i = (*r)->n - 1; i >= 0; i--)   /* the last started first */
        rs_stress_couple_free(&(*r)->comp[i].couple);
    free((*r)->outputs);
    free((*r)->pose);
    free(*r);
    *r = NULL;
}
