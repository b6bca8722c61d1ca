/* rs_linear_point.c — see rs_linear_point.h: the pose sources and the
 * point's Jacobian by central differences. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_error.h"
#include "rs_linear_impl.h"
#include "rs_linear_point.h"

/* Step of the mixed second differences that look for a convective term:
 * their rounding error ε |r| / H² stays below 1e-7 m for positions of
 * metres, their truncation error H² r'''' below 1e-8. */
#define CHECK_H 1e-4
/* A second derivative above this [m per unit²] is a nonlinearity (a wheel
 * point's ∂²r/∂spin² is its radius, tenths of a metre). */
#define CHECK_TOL 1e-5

/* Index of output NAME.c in m, or -1. */
static int output_index(const rs_model *m, const char *name, size_t len, char c)
{
    for (int k = 0; k < m->n_out; k++) {
        const char *o = m->output_names[k];
        if (strncmp(o, name, len) == 0 && o[len] == '.' && o[len + 1] == c && o[len + 2] == '\0')
            return k;
    }
    return -1;
}

/* "x,y,z" into off; 0 when it is not three finite numbers. */
static int parse_offset(const char *s, double off[3])
{
    for (int c = 0; c < 3; c++) {
        char *end;
        errno = 0;
        off[c] = strtod(s, &end);
        if (end == s || errno || !isfinite(off[c]) || *end != (c < 2 ? ',' : '\0'))
            return 0;
        s = end + 1;
    }
    return 1;
}

int rs_linear_point_parse(const rs_model *m, const char *spec, rs_linear_point *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    const char *colon = strchr(spec, ':');
    const size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len == 0 || strlen(spec) >= sizeof p->label)
        return rs_fail(err, errlen, RS_E_ARG, "--frf-point '%s': write BODY, BODY:x,y,z (an offset in metres "
                       "in the body's base) or NAME (a vector output of the model), e.g. --frf-point "
                       "wheelset:0,1.1,0", spec);
    snprintf(p->label, sizeof p->label, "%s", spec);
    for (char *c = p->label; *c; c++)
        if (*c == ',')
            *c = ';';
    if (colon && !parse_offset(colon + 1, p->off))
        return rs_fail(err, errlen, RS_E_ARG, "--frf-point '%s': the offset '%s' is not three numbers x,y,z "
                       "(metres in the body's base), e.g. --frf-point %.*s:0,1.1,0", spec, colon + 1, (int)len,
                       spec);
    p->out[0] = output_index(m, spec, len, 'x');
    p->out[1] = output_index(m, spec, len, 'y');
    p->out[2] = output_index(m, spec, len, 'z');
    if (p->out[0] >= 0 && p->out[1] >= 0 && p->out[2] >= 0) {
        if (colon)
            return rs_fail(err, errlen, RS_E_ARG, "--frf-point '%s': '%.*s' is an output of the model, a point "
                           "already: give it without an offset, or declare the offset point as an output too "
                           "(`output NAME = pos(O, P)`)", spec, (int)len, spec);
        p->src = RS_LPOINT_OUTPUT;
        return RS_OK;
    }
    for (int i = 0; i < m->n_contact; i++) {
        const char *wb = m->contacts[i].wheel_body;
        if (wb && strlen(wb) == len && strncmp(wb, spec, len) == 0) {
            if (p->n_ct == RS_LPOINT_MAXCT)
                return rs_fail(err, errlen, RS_E_UNSUPPORTED, "--frf-point '%s': body '%s' has more than %d "
                               "contacts", spec, wb, RS_LPOINT_MAXCT);
            p->ct[p->n_ct++] = i;
        }
    }
    if (p->n_ct > 0) {
        if (!m->fn[RS_FN_WHEEL].fn || m->fn[RS_FN_WHEEL].n_out < 1)
            return rs_fail(err, errlen, RS_E_MODEL, "--frf-point '%s': model '%s' has no wheel function "
                           "(RS_FN_WHEEL), whose pose gives the wheel body's: compile it again with this "
                           "railsym ('railsym compile')", spec, m->name);
        p->src = RS_LPOINT_WHEEL;
        return RS_OK;
    }
    for (int b = 0; b < m->n_body && m->fn[RS_FN_BODY_POSE].fn; b++)
        if (strlen(m->body_names[b]) == len && strncmp(m->body_names[b], spec, len) == 0) {
            p->src = RS_LPOINT_BODY;
            p->body = b;
            return RS_OK;
        }
    /* the names it could have meant: vector outputs and bodies */
    const char **cand = calloc((size_t)m->n_out + (size_t)m->n_contact + (size_t)m->n_body + 1, sizeof *cand);
    char *bases = calloc((size_t)m->n_out + 1, 128);
    int nc = 0;
    for (int k = 0; cand && bases && k < m->n_out; k++) {
        const char *o = m->output_names[k], *dot = strrchr(o, '.');
        if (dot && strcmp(dot, ".x") == 0 && dot - o < 128) {
            char *b = bases + 128 * (size_t)nc;
            memcpy(b, o, (size_t)(dot - o));
            cand[nc++] = b;
        }
    }
    for (int i = 0; cand && i < m->n_contact; i++)
        cand[nc++] = m->contacts[i].wheel_body;
    for (int b = 0; cand && b < m->n_body; b++)
        cand[nc++] = m->body_names[b];
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), spec);
    const char *near = cand ? rs_closest_name(name, cand, nc) : NULL;
    const int st = rs_fail(err, errlen, RS_E_ARG, "--frf-point '%s': model '%s' has neither a vector output "
                           "'%s' (%s.x, %s.y, %s.z) nor a body '%s'%s%s%s; give a body (BODY, its centre of mass, "
                           "or BODY:x,y,z in its axes) or a point declared in the .vdl, `output NAME = pos(O, "
                           "P)`%s", spec, m->name, name, name, name, name, name, near ? " (did you mean '" : "",
                           near ? near : "", near ? "'?)" : "",
                           m->fn[RS_FN_BODY_POSE].fn ? "" : " (this model has no body pose function: compile it "
                           "again with this railsym for BODY points)");
    free(cand);
    free(bases);
    return st;
}

int rs_linear_point_pose(rs_ws *ws, const rs_linear_point *p, double r[3], char *err, size_t errlen)
{
    const rs_model *m = ws->model;
    if (p->src == RS_LPOINT_OUTPUT) {
        double *o = malloc(((size_t)m->n_out + 1) * sizeof *o);
        if (!o)
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        const int st = rs_ws_call(ws, RS_FN_OUTPUTS, o, NULL);
        for (int c = 0; c < 3 && !st; c++)
            r[c] = o[p->out[c]];
        free(o);
        return st ? rs_fail(err, errlen, st, "--frf-point '%s': %s", p->label, rs_ws_error(ws)) : RS_OK;
    }
    if (p->src == RS_LPOINT_BODY) { /* per body the centre of mass (3) and R_ground_body row-major (9) */
        double *pose = malloc((12 * (size_t)m->n_body + 1) * sizeof *pose);
        if (!pose)
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        const int st = rs_ws_body_pose(ws, pose);
        if (!st) {
            const double *c = pose + 12 * p->body, *R = c + 3;
            for (int k = 0; k < 3; k++)
                r[k] = c[k] + R[3 * k] * p->off[0] + R[3 * k + 1] * p->off[1] + R[3 * k + 2] * p->off[2];
        }
        free(pose);
        return st ? rs_fail(err, errlen, st, "--frf-point '%s': %s", p->label, rs_ws_error(ws)) : RS_OK;
    }
    /* RS_LPOINT_WHEEL: per contact the wheel centre (3) and R_ground_nsw
     * row-major (9), RS_FN_WHEEL's out[0] */
    const rs_func *f = &m->fn[RS_FN_WHEEL];
    double *out[RS_FN_MAX_OUT] = {0};
    int st = RS_OK;
    for (int k = 0; k < f->n_out && k < RS_FN_MAX_OUT && !st; k++)
        if (!(out[k] = malloc(((size_t)f->out_len[k] + 1) * sizeof(double))))
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    if (!st && (st = rs_ws_call_n(ws, RS_FN_WHEEL, out)))
        rs_fail(err, errlen, st, "--frf-point '%s': %s", p->label, rs_ws_error(ws));
    if (!st) {
        const double *R = out[0] + 12 * p->ct[0] + 3;
        for (int c = 0; c < 3; c++) {
            double s = 0;
            for (int i = 0; i < p->n_ct; i++)
                s += out[0][12 * p->ct[i] + c];
            r[c] = s / p->n_ct + R[3 * c] * p->off[0] + R[3 * c + 1] * p->off[1] + R[3 * c + 2] * p->off[2];
        }
    }
    for (int k = 0; k < RS_FN_MAX_OUT; k++)
        free(out[k]);
    return st;
}

/* r at ws's q with q[j] += dj, q[k] += dk (j, k < 0: none), bound. */
static int pose_at(rs_ws *ws, const rs_linear_point *p, int j, double dj, int k, double dk, double r[3], char *err,
                   size_t errlen)
{
    const double qj = j >= 0 ? ws->q[j] : 0, qk = k >= 0 ? ws->q[k] : 0;
    if (j >= 0)
        ws->q[j] += dj;
    if (k >= 0)
        ws->q[k] += dk;
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    const int st = rs_linear_point_pose(ws, p, r, err, errlen);
    if (k >= 0)
        ws->q[k] = qk;
    if (j >= 0)
        ws->q[j] = qj;
    return st;
}

int rs_linear_point_jacobian(rs_ws *ws, const rs_linear_point *p, double *J, char *err, size_t errlen)
{
    const rs_model *m = ws->model;
    const int n = m->n_q;
    const double h = RS_LINEAR_FD_H, H = CHECK_H;
    double a[3], b[3], c[3], d[3];
    int st = RS_OK;
    for (int j = 0; j < n && !st; j++) {
        if ((st = pose_at(ws, p, j, h, -1, 0, a, err, errlen)) || (st = pose_at(ws, p, j, -h, -1, 0, b, err, errlen)))
            break;
        for (int r = 0; r < 3; r++)
            J[(size_t)r * n + j] = (a[r] - b[r]) / (2 * h);
    }
    /* a position: the same with other velocities */
    double *qd0 = st ? NULL : malloc(((size_t)n + 1) * sizeof *qd0);
    if (!st && !qd0)
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    if (!st) {
        memcpy(qd0, ws->qd, (size_t)n * sizeof *qd0);
        st = pose_at(ws, p, -1, 0, -1, 0, a, err, errlen);
        for (int j = 0; j < n; j++)
            ws->qd[j] += 1;
        if (!st)
            st = pose_at(ws, p, -1, 0, -1, 0, b, err, errlen);
        memcpy(ws->qd, qd0, (size_t)n * sizeof *qd0);
        for (int r = 0; r < 3 && !st; r++)
            if (fabs(a[r] - b[r]) > 1e-12 * (1 + fabs(a[r])))
                st = rs_fail(err, errlen, RS_E_ARG, "--frf-point '%s': its position depends on the velocities "
                             "(declare a position, `output NAME = pos(O, P)`)", p->label);
    }
    /* no convective term's variation: r_jk = 0 for every coordinate j that
     * moves in the steady state (rs_linear_point.h) */
    for (int j = 0; j < n && !st; j++) {
        if (qd0[j] == 0)
            continue;
        for (int k = 0; k < n && !st; k++) {
            if ((st = pose_at(ws, p, j, H, k, H, a, err, errlen)) ||
                (st = pose_at(ws, p, j, H, k, -H, b, err, errlen)) ||
                (st = pose_at(ws, p, j, -H, k, H, c, err, errlen)) ||
                (st = pose_at(ws, p, j, -H, k, -H, d, err, errlen)))
                break;
            for (int r = 0; r < 3 && !st; r++) {
                const double rjk = (a[r] - b[r] - c[r] + d[r]) / (4 * H * H);
                if (fabs(rjk) > CHECK_TOL)
                    st = rs_fail(err, errlen, RS_E_UNSUPPORTED, "--frf-point '%s': the point moves nonlinearly "
                                 "with '%s' (d2r/d%s d%s = %.3g), which moves in the steady state (%.4g per s): "
                                 "its acceleration has a convective part the linearization does not carry; take "
                                 "a point of a body that does not spin, on a straight track", p->label,
                                 m->q_names[j], m->q_names[j], m->q_names[k], rjk, qd0[j]);
            }
        }
    }
    free(qd0);
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    return st;
}
