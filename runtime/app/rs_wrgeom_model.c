/*
 * rs_wrgeom_model.c — see rs_wrgeom_model.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_driver.h"
#include "rs_error.h"
#include "rs_load.h"
#include "rs_runtime.h"
#include "rs_wr_geometry.h"
#include "rs_wrgeom_model.h"
#include "rs_ws_impl.h"

void rs_wrgeom_model_close(rs_wrgeom_model *g)
{
    if (!g)
        return;
    rs_ws_free(&g->ws);
    if (g->loaded)
        rs_unload(&g->loaded);
    memset(g, 0, sizeof *g);
}

/* RS_FN_WHEEL at the workspace's state into pose (12 nc) and geom (2 nc). */
static int wheels(rs_ws *ws, double *pose, double *geom)
{
    const rs_func *f = &ws->model->fn[RS_FN_WHEEL];
    double *vel = calloc((size_t)f->out_len[1] + 1, sizeof(double));
    double *jac = calloc((size_t)f->out_len[2] + 1, sizeof(double));
    int st = RS_E_NOMEM;
    if (vel && jac) {
        double *out[4] = {pose, vel, jac, geom};
        st = rs_ws_wheels(ws, out);
    }
    free(vel);
    free(jac);
    return st;
}

static int pair_geometry(rs_wrgeom_model *g, const char *dir, int il, int ir, char *err, size_t errlen)
{
    rs_ws *ws = g->ws;
    const rs_model *m = ws->model;
    const int nc = m->n_contact;
    const rs_profile *w[2], *r[2];
    for (int s = 0; s < 2; s++) {
        w[s] = rs_contact_profile(ws->ct, s ? ir : il, RS_SPLINE_WHEEL);
        r[s] = rs_contact_profile(ws->ct, s ? ir : il, RS_SPLINE_RAIL);
        if (!w[s] || !r[s])
            return rs_fail(err, errlen, RS_E_MODEL, "%s: contact '%s' has no wheel or rail profile", dir,
                           m->contacts[s ? ir : il].name);
    }
    if (strcmp(w[0]->name, w[1]->name) != 0 || strcmp(r[0]->name, r[1]->name) != 0)
        return rs_fail(err, errlen, RS_E_VALUE,
                       "%s: wheelset '%s' has different profiles left (%s on %s) and right (%s on %s); "
                       "contact-geometry puts one pair on both sides: give the profiles instead of --model",
                       dir, m->contacts[il].wheel_body, w[0]->name, r[0]->name, w[1]->name, r[1]->name);
    double *pose = calloc(12 * (size_t)nc, sizeof(double)), *geom = calloc(2 * (size_t)nc, sizeof(double));
    int st = pose && geom ? wheels(ws, pose, geom) : RS_E_NOMEM;
    if (st == RS_E_MODEL)
        rs_fail(err, errlen, st, "%s: the model has no wheel function (RS_FN_WHEEL): compile it again with this "
                                 "railsym ('railsym compile')", dir);
    else if (st != RS_OK)
        rs_fail(err, errlen, st, "%s: the wheel function failed: %s", dir, rs_ws_error(ws));
    if (st == RS_OK) {
        double dd = 0;
        for (int k = 0; k < 3; k++) {
            const double e = pose[12 * il + k] - pose[12 * ir + k];
            dd += e * e;
        }
        g->d = 0.5 * sqrt(dd);
        g->r0 = geom[2 * il];
        g->rail_offset = geom[2 * il + 1];
        if (fabs(geom[2 * ir] - g->r0) > 1e-9 || fabs(geom[2 * ir + 1] - g->rail_offset) > 1e-9)
            st = rs_fail(err, errlen, RS_E_VALUE,
                         "%s: wheelset '%s': radius %.9g m and rail offset %.9g m on the left, %.9g m and %.9g m on "
                         "the right; contact-geometry needs a symmetric pair",
                         dir, m->contacts[il].wheel_body, g->r0, g->rail_offset, geom[2 * ir], geom[2 * ir + 1]);
    }
    free(pose);
    free(geom);
    if (st != RS_OK)
        return st;
    g->wheel = w[0];
    g->rail = r[0];
    g->left = m->contacts[il].name;
    g->right = m->contacts[ir].name;
    g->wheel_body = m->contacts[il].wheel_body;
    g->flange_back = 2 * (g->d + g->wheel->y[0]);
    double gy = g->rail->gauge_y;
    g->gauge_found = g->rail->has_gauge || rs_wrgeom_gauge_point(g->rail, 0.014, &gy) == 0;
    g->gauge_y = g->gauge_found ? gy : NAN;
    g->gauge = g->gauge_found ? 2 * (g->rail_offset + gy) : NAN;
    return RS_OK;
}

int rs_wrgeom_model_open(const char *dir, const char *include_dir, rs_wrgeom_model *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    char msg[4096];
    rs_load_options lo;
    rs_load_options_default(&lo);
    if (include_dir)
        lo.include_dir = include_dir;
    if (!(g->loaded = rs_load_ex(dir, RS_LOAD_TCC, &lo, msg, sizeof msg)))
        return rs_fail(err, errlen, RS_E_MODEL, "%s: %s", dir, msg);
    const rs_model *m = rs_loaded_model(g->loaded);
    /* the first wheel body with a left and a right wheel */
    int il = -1, ir = -1;
    for (int i = 0; i < m->n_contact && ir < 0; i++)
        for (int j = 0; j < m->n_contact; j++)
            if (m->contacts[i].side > 0 && m->contacts[j].side < 0 &&
                strcmp(m->contacts[i].wheel_body, m->contacts[j].wheel_body) == 0) {
                il = i, ir = j;
                break;
            }
    if (ir < 0) {
        rs_wrgeom_model_close(g);
        return rs_fail(err, errlen, RS_E_MODEL, "%s: model '%s' has no wheelset (a wheel body with a left and a right "
                                                "wheel-rail contact)", dir, m->name);
    }
    char root[4096];
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    if (rs_driver_contact_dir(dir, root, sizeof root))
        o.contact_dir = root;
    int st = rs_ws_create(m, &o, &g->ws, msg, sizeof msg);
    if (st != RS_OK) {
        rs_wrgeom_model_close(g);
        return rs_fail(err, errlen, st, "%s: %s", dir, msg);
    }
    if ((st = pair_geometry(g, dir, il, ir, err, errlen)) != RS_OK)
        rs_wrgeom_model_close(g);
    return st;
}
