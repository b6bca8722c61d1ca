/*
 * rs_flangeway.c — the flangeway clearance of a model's wheelset through
 * rs_wr_geometry.  See rs_flangeway.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_error.h"
#include "rs_flangeway.h"
#include "rs_profile.h"
#include "rs_wr_geometry.h"
#include "rs_ws_impl.h"

/* The largest contact angle of the state (either wheel, either point). */
static double max_angle(const rs_wrgeom_state *s)
{
    double a = -INFINITY;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < s->side[k].n && j < 2; j++)
            if (s->side[k].p[j].alpha > a)
                a = s->side[k].p[j].alpha;
    return a;
}

/* The model's wheel positions: per contact i the wheel centre (RS_FN_WHEEL
 * out[0], 12 per contact: O_w, then R_ground_nsw row-major, its second
 * column the axle) and out[3]'s r0 and rail offset h_r. */
static int wheel_data(rs_ws *ws, int ci, int cj, rs_flangeway *f, char *msg, size_t len)
{
    const rs_model *m = ws->model;
    const rs_func *fn = &m->fn[RS_FN_WHEEL];
    if (!fn->fn || fn->n_out < 4)
        return rs_fail(msg, len, RS_E_UNSUPPORTED, "model '%s' lacks its wheel function (RS_FN_WHEEL): compile it "
                       "again with this railsym", m->name);
    double *out[RS_FN_MAX_OUT] = {0};
    int st = RS_OK;
    for (int k = 0; k < fn->n_out && k < RS_FN_MAX_OUT && !st; k++)
        if (!(out[k] = malloc(((size_t)fn->out_len[k] + 1) * sizeof(double))))
            st = rs_fail(msg, len, RS_E_NOMEM, "out of memory");
    if (!st && (st = rs_ws_call_n(ws, RS_FN_WHEEL, out)))
        rs_fail(msg, len, st, "the wheel function: %s", rs_ws_error(ws));
    if (!st) {
        const double *oi = out[0] + 12 * ci, *oj = out[0] + 12 * cj;
        double d = 0;   /* (O_i − O_j) · axle */
        for (int k = 0; k < 3; k++)
            d += (oi[k] - oj[k]) * oi[3 + 3 * k + 1];
        f->b0 = 0.5 * fabs(d);
        f->r0 = out[3][2 * ci];
        f->h_r = out[3][2 * ci + 1];
    }
    for (int k = 0; k < RS_FN_MAX_OUT; k++)
        free(out[k]);
    return st;
}

static int load(rs_profile *p, const rs_options *opt, const rs_model *m, int ci, int k, char *msg, size_t len)
{
    const char *file = rs_contact_spline_file(m, opt, ci, k);
    if (!file || !file[0])
        return rs_fail(msg, len, RS_E_UNSUPPORTED, "contact '%s' has no %s profile file", m->contacts[ci].name,
                       k == RS_SPLINE_WHEEL ? "wheel" : "rail");
    char path[2048], err[600];
    /* as rs_contact.c: relative to the contact folder, unless the scenario
     * replaced the file (then as written) */
    if (file == m->contacts[ci].spline[k].file && opt->contact_dir && opt->contact_dir[0] && file[0] != '/')
        snprintf(path, sizeof path, "%s/%s", opt->contact_dir, file);
    else
        snprintf(path, sizeof path, "%s", file);
    const int st = rs_profile_load(p, path, err, sizeof err);
    return st ? rs_fail(msg, len, st, "%s", err) : RS_OK;
}

int rs_flangeway_clearance(rs_ws *ws, const rs_options *opt, int ci, rs_flangeway *f, char *msg, size_t len)
{
    const rs_model *m = ws->model;
    memset(f, 0, sizeof *f);
    if (ci < 0 || ci >= m->n_contact)
        return rs_fail(msg, len, RS_E_ARG, "no contact %d", ci);
    const rs_contact *c = &m->contacts[ci];
    int cj = -1;
    for (int j = 0; j < m->n_contact && cj < 0; j++)
        if (j != ci && m->contacts[j].side == -c->side && c->wheel_body && m->contacts[j].wheel_body &&
            strcmp(m->contacts[j].wheel_body, c->wheel_body) == 0)
            cj = j;
    if (cj < 0)
        return rs_fail(msg, len, RS_E_NOTFOUND, "contact '%s' has no partner on the other side of wheel body '%s'",
                       c->name, c->wheel_body ? c->wheel_body : "?");
    int st = wheel_data(ws, ci, cj, f, msg, len);
    if (st)
        return st;
    rs_profile wheel, rail;
    memset(&wheel, 0, sizeof wheel);
    memset(&rail, 0, sizeof rail);
    if ((st = load(&wheel, opt, m, ci, RS_SPLINE_WHEEL, msg, len)) ||
        (st = load(&rail, opt, m, ci, RS_SPLINE_RAIL, msg, len)))
        goto done;
    /* rs_wrgeom places the rail origins at ±(G/2 − gauge_y) and the taping
     * lines at ±(B/2 − y_min): with gauge_y = 0, G = 2 h_r and B = 2 (b0 +
     * y_min) put them where the model has them */
    rs_wrgeom_opts o;
    rs_wrgeom_defaults(&o);
    o.r0 = f->r0;
    o.gauge_y = 0;
    o.gauge = 2 * f->h_r;
    o.flange_back = 2 * (f->b0 + wheel.y[0]);
    rs_wrgeom g;
    rs_wrgeom_state s;
    char err[600];
    if ((st = rs_wrgeom_init(&g, &wheel, &rail, &o, err, sizeof err)) ||
        (st = rs_wrgeom_solve(&g, 0, &s, err, sizeof err))) {
        st = rs_fail(msg, len, st, "contact '%s', centred: %s", c->name, err);
        goto done;
    }
    f->alpha0 = max_angle(&s);
    if (f->alpha0 >= RS_FLANGE_ANGLE) {
        st = rs_fail(msg, len, RS_E_VALUE, "contact '%s': the centred wheelset already touches at %.1f deg",
                     c->name, f->alpha0 * 57.29577951308232);
        goto done;
    }
    /* scan out in 0.1 mm steps (up to 100 mm) for the first shift on the
     * flange or past the tables, then bisect to 1 µm */
    double lo = 0, hi = NAN;
    int flange = 0;
    for (int i = 1; i <= 1000 && isnan(hi); i++) {
        const double y = 1e-4 * i;
        if (rs_wrgeom_solve(&g, y, &s, err, sizeof err) != RS_OK)
            hi = y;
        else if (max_angle(&s) >= RS_FLANGE_ANGLE)
            hi = y, flange = 1;
        else
            lo = y;
    }
    if (isnan(hi)) {
        st = rs_fail(msg, len, RS_E_VALUE, "contact '%s': no flange contact within 100 mm", c->name);
        goto done;
    }
    while (hi - lo > 1e-6) {
        const double y = 0.5 * (lo + hi);
        g.h_guess = NAN;   /* a start from the last solution may sit across the jump */
        if (rs_wrgeom_solve(&g, y, &s, err, sizeof err) == RS_OK && max_angle(&s) < RS_FLANGE_ANGLE)
            lo = y;
        else
            hi = y;
    }
    f->y = lo;
    f->flange = flange;
    if (!(f->y > 0))
        st = rs_fail(msg, len, RS_E_VALUE, "contact '%s': no clearance (the tables end at the centred wheelset)",
                     c->name);
done:
    rs_profile_free(&wheel);
    rs_profile_free(&rail);
    return st;
}
