/*
 * rt_fixtures.c — see rt_fixtures.h.  The fixture models are compiled into
 * the C tests by including their sources (their internals are static and
 * prefixed, so they share this unit); the dlopen and tcc loaders compile the
 * same files from their folders.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_fixtures.h"

#include "rt_models/rt_pendulum/rt_pendulum.c"
#include "rt_models/rt_cartpend/rt_cartpend.c"
#include "rt_models/rt_fourbar/rt_fourbar.c"
#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_train_contact.h"

double rt_ellip_k(double k)
{
    double a = 1.0, b = sqrt(1.0 - k * k);
    for (int i = 0; i < 64 && fabs(a - b) > 1e-16 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return acos(-1.0) / (2.0 * a);
}

double rt_jacobi_sn(double u, double k)
{
    double a[64], c[64];
    double b = sqrt(1.0 - k * k);
    int n = 0;
    a[0] = 1.0;
    c[0] = k;
    while (fabs(c[n]) > 1e-16 && n < 62) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = sqrt(a[n] * b);
        n++;
    }
    double phi = ldexp(a[n] * u, n);
    for (int i = n; i > 0; i--)
        phi = 0.5 * (phi + asin(c[i] * sin(phi) / a[i]));
    return sin(phi);
}

double rt_pendulum_exact(double t, double theta0, double g, double L)
{
    const double k = sin(0.5 * theta0), w0 = sqrt(g / L);
    return 2.0 * asin(k * rt_jacobi_sn(rt_ellip_k(k) - w0 * t, k));
}

double rt_pendulum_period(double theta0, double g, double L)
{
    return 4.0 * rt_ellip_k(sin(0.5 * theta0)) / sqrt(g / L);
}

int rt_fourbar_assemble(const double *p, double th1, double *q)
{
    const double L1 = p[0], L2 = p[1], L3 = p[2], d = p[3];
    const double ax = L1 * cos(th1), ay = L1 * sin(th1);
    const double dx = d - ax, dy = -ay, r = hypot(dx, dy);
    if (r > L2 + L3 || r < fabs(L2 - L3))
        return -1;
    /* distance from A along A→D to the chord of the two circles */
    const double s = (L2 * L2 - L3 * L3 + r * r) / (2 * r), h = sqrt(L2 * L2 - s * s);
    const double ux = dx / r, uy = dy / r;
    const double bx = ax + s * ux - h * uy, by = ay + s * uy + h * ux;
    q[0] = th1;
    q[1] = atan2(by - ay, bx - ax);
    q[2] = atan2(by, bx - d);
    return 0;
}

static void log_line(void *ctx, rs_log_kind kind, const char *text)
{
    if (kind == RS_LOG_RAW)
        fputs(text, ctx);
    else
        fprintf(ctx, "railsym run: %s\n", text);
}

rs_log rt_log_to(FILE *f)
{
    return (rs_log){log_line, f};
}

rs_ws *rt_ws_new(const rs_model *m, rs_method method, double dt, double tol)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.method = method;
    o.dt = dt;
    o.proj_tol = tol;
    rs_ws *ws = NULL;
    char err[256];
    int st = rs_ws_create(m, &o, &ws, err, sizeof err);
    if (st) {
        fprintf(stderr, "rt_ws_new: %s (%s)\n", err, rs_status_str(st));
        abort();
    }
    return ws;
}

struct rs_loaded *rt_load(const char *dir)
{
    char err[2000];
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    if (!h) {
        fprintf(stderr, "rt_load: %s\n", err);
        abort();
    }
    return h;
}

static rs_var rt_var(rs_ws *ws, const char *name)
{
    rs_var v;
    if (rs_model_find(rs_ws_model(ws), name, &v) != RS_OK) {
        fprintf(stderr, "model '%s' has no quantity '%s'\n", rs_ws_model(ws)->name, name);
        abort();
    }
    return v;
}

double rt_param(rs_ws *ws, const char *name) { return rs_ws_p(ws)[rt_var(ws, name).index]; }

void rt_set_param(rs_ws *ws, const char *name, double x)
{
    if (rs_ws_set_param(ws, name, x) != RS_OK) {
        fprintf(stderr, "model '%s' has no parameter '%s'\n", rs_ws_model(ws)->name, name);
        abort();
    }
}

double rt_value(rs_ws *ws, const char *name) { return rs_ws_value(ws, rt_var(ws, name), NULL); }

double rt_param_default(const rs_model *m, const char *name)
{
    for (int i = 0; i < m->n_p; i++)
        if (strcmp(m->p_names[i], name) == 0)
            return m->p_default[i];
    fprintf(stderr, "model '%s' has no parameter '%s'\n", m->name, name);
    abort();
}

int rt_coord_index(const rs_model *m, const char *name)
{
    for (int i = 0; i < m->n_q; i++)
        if (strcmp(m->q_names[i], name) == 0)
            return i;
    fprintf(stderr, "model '%s' has no coordinate '%s'\n", m->name, name);
    abort();
}

rs_ws *rt_single_run_ws(const rs_model *m, const rs_train_wheel_contact_opts *co, double dt, const double *q,
                        const double *qd)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_elastic_contact();
    o.dt = dt;
    o.track_file = co->track;
    o.contact_E = co->E;
    o.contact_nu = co->nu;
    o.contact_vmin = co->vmin;
    o.contact_damp = co->c_damp;
    o.contact_creep = co->creep;
    o.contact_mu = co->mu;
    o.contact_law = co->law;
    o.contact_normal = co->normal;
    rs_ws *ws = NULL;
    char err[600];
    int st = rs_ws_create(m, &o, &ws, err, sizeof err);
    if (st == RS_OK) {
        memcpy(rs_ws_q(ws), q, (size_t)m->n_q * sizeof(double));
        memcpy(rs_ws_qd(ws), qd, (size_t)m->n_q * sizeof(double));
        if ((st = rs_ws_init(ws)) != RS_OK)
            snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    }
    if (st != RS_OK) {
        fprintf(stderr, "rt_single_run_ws: %s (%s)\n", err, rs_status_str(st));
        abort();
    }
    return ws;
}

void rt_feve_rotors(const rs_model *m, double v, double *qd, unsigned char *set)
{
    memset(qd, 0, (size_t)m->n_q * sizeof(double));
    memset(set, 0, (size_t)m->n_q);
    const char *rot[2] = {"motor_f.rotor", "motor_r.rotor"};
    for (int k = 0; k < 2; k++) {
        const int i = rt_coord_index(m, rot[k]);
        qd[i] = -4.25 * v / 0.5;
        set[i] = 1;
    }
    /* and the wheelsets, geared to them (not cyclic: steady rolling
     * leaves them too) */
    const char *spin[4] = {"front.wf.spin", "front.wr.spin", "rear.wf.spin", "rear.wr.spin"};
    for (int k = 0; k < 4; k++) {
        const int i = rt_coord_index(m, spin[k]);
        qd[i] = v / 0.5;
        set[i] = 1;
    }
}
