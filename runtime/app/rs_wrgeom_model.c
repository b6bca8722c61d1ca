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
        for (int s = 0; s < 2; s++) {
            g->r0[s] = geom[2 * (s ? ir : il)];
            g->rail_offset[s] = geom[2 * (s ? ir : il) + 1];
        }
    }
    free(pose);
    free(geom);
    if (st != RS_OK)
        return st;
    g->left = m->contacts[il].name;
    g->right = m->contacts[ir].name;
    g->wheel_body = m->contacts[il].wheel_body;
    g->gauge_found = 1;
    for (int s = 0; s < 2; s++) {
        g->wheel[s] = w[s];
        g->rail[s] = r[s];
        double gy = r[s]->gauge_y;
        const int found = r[s]->has_gauge || rs_wrgeom_gauge_point(r[s], 0.014, &gy) == 0;
        g->gauge_y[s] = found ? gy : NAN;
        g->gauge_found &= found;
    }
    g->flange_back = 2 * g->d + w[0]->y[0] + w[1]->y[0];
    g->gauge = g->rail_offset[0] + g->gauge_y[0] + g->rail_offset[1] + g->gauge_y[1];
    return RS_OK;
}

double rs_wrgeom_model_y_offset(const rs_wrgeom_model *m, const rs_wrgeom *g)
{
    return (g->s[0].d - m->d) - (g->s[0].yr0 - m->rail_offset[0]);
}

/* The wheel bodies with a left and a right contact, for a message:
 * "'a', 'b'" (the first few). */
static void list_wheelsets(const rs_model *m, char *out, size_t len)
{
    size_t k = 0;
    out[0] = 0;
    for (int i = 0; i < m->n_contact; i++) {
        if (!(m->contacts[i].side > 0))
            continue;
        const int n = snprintf(out + k, len - k, "%s'%s'", k ? ", " : "", m->contacts[i].wheel_body);
        if (n < 0 || (size_t)n >= len - k) {
            snprintf(out + k, len - k, ", ...");
            return;
        }
        k += (size_t)n;
    }
}

int rs_wrgeom_model_open(const char *dir, const char *include_dir, const char *wheelset, rs_wrgeom_model *g,
                         char *err, size_t errlen)
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
    /* the wheel body named (else the first) with a left and a right wheel;
     * a name that matches no body exactly may name the one body inside a
     * part ("rear.ws2" for the body "rear.ws2.ws") */
    int il = -1, ir = -1, any = 0, st, partial = 0;
    for (int pass = 0; pass < 2 && ir < 0; pass++)
        for (int i = 0; i < m->n_contact; i++)
            for (int j = 0; j < m->n_contact; j++) {
                if (!(m->contacts[i].side > 0 && m->contacts[j].side < 0 &&
                      strcmp(m->contacts[i].wheel_body, m->contacts[j].wheel_body) == 0))
                    continue;
                any = 1;
                const char *b = m->contacts[i].wheel_body;
                const size_t n = wheelset ? strlen(wheelset) : 0;
                if (wheelset && (pass == 0 ? strcmp(wheelset, b) != 0 : strncmp(wheelset, b, n) != 0 || b[n] != '.'))
                    break;
                if (pass == 1 && partial++) { /* two bodies inside that part: ambiguous */
                    il = ir = -1;
                    i = m->n_contact;
                    break;
                }
                if (ir < 0 || pass == 1)
                    il = i, ir = j;
                if (pass == 0)
                    i = m->n_contact;
                break;
            }
    if (ir < 0) {   /* the message before the model goes */
        char names[1024];
        list_wheelsets(m, names, sizeof names);
        if (partial > 1)
            st = rs_fail(err, errlen, RS_E_NOTFOUND, "%s: '%s' names more than one wheelset; its wheelsets: %s "
                                                     "(--wheelset NAME)", dir, wheelset, names);
        else if (any)
            st = rs_fail(err, errlen, RS_E_NOTFOUND, "%s: model has no wheelset '%s' (a wheel body with a left and "
                                                     "a right wheel-rail contact); its wheelsets: %s (--wheelset NAME)",
                         dir, wheelset, names);
        else
            st = rs_fail(err, errlen, RS_E_MODEL, "%s: model '%s' has no wheelset (a wheel body with a left and a "
                                                  "right wheel-rail contact)", dir, m->name);
        rs_wrgeom_model_close(g);
        return st;
    }
    char root[4096];
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    if (rs_driver_contact_dir(dir, root, sizeof root))
        o.contact_dir = root;
    st = rs_ws_create(m, &o, &g->ws, msg, sizeof msg);
    if (st != RS_OK) {
        rs_wrgeom_model_close(g);
        return rs_fail(err, errlen, st, "%s: %s", dir, msg);
    }
    if ((st = pair_geometry(g, dir, il, ir, err, errlen)) != RS_OK)
        rs_wrgeom_model_close(g);
    return st;
}
