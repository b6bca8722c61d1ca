/*
 * rs_train_model.c — see rs_train_model.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_inertia.h"
#include "rs_etd.h"
#include "rs_krylov.h"   /* rs_dense_lu */
#include "rs_params.h"
#include "rs_train_contact.h"
#include "rs_train_model.h"
#include "rs_ws_impl.h"   /* the plugins' workspace: rs_ws_plugin_eval, as the single step */

struct rs_compiled_vehicle {
    rs_allocator alloc;
    const rs_model *m;
    int n, nnz_m, nnz_k, nnz_c;
    double t;
    double *p, *u, *k, *zero;   /* zero: n zeros (q̈ and empty slots) */
    double *mval, *dval, *kval, *cval;
    double *kd, *rhs;           /* static equilibrium: n × n, n */
    int *piv, *map;             /* n, n */
    double *f2, *qs;            /* n, n: static equilibrium of a contact vehicle */
    double *mk;                 /* n × n: steady rolling's M */
    unsigned char *fix;         /* n: coordinates held by rs_compiled_vehicle_static_mask */
    rs_train_wheel_contact *tc;            /* wheel-rail contacts (NULL: none)          */
    const double *in[RS_IN_COUNT];
    /* internal states (n_z > 0, rs_train_model.h): z_n at t_n, a and b of
     * ż = a + b z at t_n, scratch for ż and z; u: the inputs the model
     * functions read (v->u, or the plugins' workspace's) */
    int nz, z_ready;
    double tz;
    double *z, *za, *zb, *zs, *zdot;
    double *ul;
    rs_ws *pws;                 /* user plugins without contacts: a workspace of
                                   the model whose rs_ws_plugin_eval writes
                                   their input slots */
    rs_ws *fws;                 /* the workspace evaluating the model: the
                                   contacts' or pws (NULL: none, v->in) */
    char err[512];
};

static int find_q(const rs_model *m, const char *name)
{
    for (int i = 0; i < m->n_q; i++)
        if (strcmp(m->q_names[i], name) == 0)
            return i;
    return -1;
}

static void list_q(const rs_model *m, char *buf, size_t len)
{
    size_t w = 0;
    buf[0] = 0;
    for (int i = 0; i < m->n_q && w + 1 < len; i++) {
        const int r = snprintf(buf + w, len - w, "%s%s", i ? ", " : "", m->q_names[i]);
        if (r < 0)
            break;
        w += (size_t)r;
    }
}

int rs_compiled_vehicle_check_model(const rs_model *m, const char *port_x, const char *port_pitch, int *ix, int *ipitch,
                        char *err, size_t errlen)
{
    if (!m)
        return rs_fail(err, errlen, RS_E_ARG, "no model");
    int st = rs_model_validate(m, err, errlen);
    if (st != RS_OK)
        return st;
    /* the contacts' normal constraints become compliant Hertz forces
     * (rs_train_contact.h); any other constraint cannot */
    if (m->n_phi > m->n_contact)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' has constraints: a train vehicle must be an ODE (no constraints other than the "
                       "wheel-rail contacts', which become compliant)",
                       m->name);
    if (!m->fn[RS_FN_DELTA_JAC].fn) {
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' has no force Jacobians (delta_jac), which a train vehicle needs: recompile it "
                       "with this railsym, without --no-jacobians", m->name);
    }
    char all[512];
    list_q(m, all, sizeof all);
    const int x = port_x && port_x[0] ? find_q(m, port_x) : -2;
    if (x < 0) {
        if (x == -2)
            return rs_fail(err, errlen, RS_E_ARG,
                           "model '%s': name its longitudinal coordinate ('x = NAME'); coordinates: %s",
                           m->name, all);
        return rs_fail(err, errlen, RS_E_ARG,
                       "model '%s' has no coordinate '%s'; coordinates: %s", m->name, port_x,
                       all);
    }
    int p = -1;
    if (port_pitch && port_pitch[0]) {
        p = find_q(m, port_pitch);
        if (p < 0)
            return rs_fail(err, errlen, RS_E_ARG,
                           "model '%s' has no coordinate '%s'; coordinates: %s", m->name, port_pitch, all);
        if (p == x)
            return rs_fail(err, errlen, RS_E_ARG,
                           "model '%s': the pitch port '%s' is the longitudinal one", m->name, port_pitch);
    }
    if (ix)
        *ix = x;
    if (ipitch)
        *ipitch = p;
    return RS_OK;
}

void rs_compiled_vehicle_free(rs_compiled_vehicle **pv)
{
    if (!pv || !*pv)
        return;
    rs_compiled_vehicle *v = *pv;
    const rs_allocator a = v->alloc;
    rs_free(&a, v->p);
    rs_free(&a, v->u);
    rs_free(&a, v->k);
    rs_free(&a, v->zero);
    rs_free(&a, v->mval);
    rs_free(&a, v->dval);
    rs_free(&a, v->kval);
    rs_free(&a, v->cval);
    rs_free(&a, v->kd);
    rs_free(&a, v->rhs);
    rs_free(&a, v->piv);
    rs_free(&a, v->map);
    rs_free(&a, v->f2);
    rs_free(&a, v->qs);
    rs_free(&a, v->mk);
    rs_free(&a, v->fix);
    rs_free(&a, v->z);
    rs_ws_free(&v->pws);
    rs_train_wheel_contact_free(&v->tc);
    rs_free(&a, v);
    *pv = NULL;
}

int rs_compiled_vehicle_create(rs_compiled_vehicle **out, const rs_model *m, const double *p, const double *u, const rs_allocator *alloc,
                   char *err, size_t errlen)
{
    return rs_compiled_vehicle_create_contact(out, m, p, u, NULL, alloc, err, errlen);
}

int rs_compiled_vehicle_create_contact(rs_compiled_vehicle **out, const rs_model *m, const double *p, const double *u,
                           const rs_train_wheel_contact_opts *co, const rs_allocator *alloc, char *err, size_t errlen)
{
    const rs_compiled_vehicle_opts o = {co, NULL, NULL, NULL};
    return rs_compiled_vehicle_create_opts(out, m, p, u, &o, alloc, err, errlen);
}

/* The parameters p (n_p, NULL: defaults) into v->p, the dependent ones not
 * set following the others (rs_params.h). */
static int take_params(rs_compiled_vehicle *v, const double *p, const unsigned char *set, char *err, size_t errlen)
{
    const rs_model *m = v->m;
    for (int i = 0; i < m->n_p; i++)
        v->p[i] = p ? p[i] : m->p_default[i];
    int any = 0;   /* none set: the defaults as they are, as a workspace keeps them */
    for (int i = 0; set && i < m->n_p; i++)
        any |= set[i] != 0;
    if (!any || !m->fn[RS_FN_PARAMS].fn)
        return RS_OK;
    double *flags = rs_alloc(&v->alloc, 2 * (size_t)m->n_p, sizeof(double));
    if (!flags)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_compiled_vehicle_create: out of memory");
    for (int i = 0; i < m->n_p; i++)
        flags[i] = set[i] ? 1.0 : 0.0;
    const int st = rs_params_follow(m, NULL, v->p, flags, flags + m->n_p);
    rs_free(&v->alloc, flags);
    if (st != RS_OK)
        return rs_fail(err, errlen, st, "model '%s': the dependent parameters' function (%s) failed", m->name,
                       rs_fn_name(RS_FN_PARAMS));
    return RS_OK;
}

/* The internal states' arrays and start values. */
static int take_states(rs_compiled_vehicle *v, const double *z0)
{
    const rs_model *m = v->m;
    v->nz = m->n_z;
    v->ul = v->u;
    if (v->nz == 0)
        return RS_OK;
    v->z = rs_alloc(&v->alloc, 5 * (size_t)v->nz, sizeof(double));
    if (!v->z)
        return RS_E_NOMEM;
    v->za = v->z + v->nz;
    v->zb = v->za + v->nz;
    v->zs = v->zb + v->nz;
    v->zdot = v->zs + v->nz;
    for (int i = 0; i < v->nz; i++)
        v->z[i] = z0 ? z0[i] : m->z0 ? m->z0[i] : 0.0;
    return RS_OK;
}

/* User plugins: a workspace of the model (the plugins' contexts and
 * states, RS_FN_OUTPUTS for their deflections) whose inputs the vehicle's
 * functions then read, with the vehicle's parameters and constants. */
static int open_plugins(rs_compiled_vehicle *v, const rs_plugin_api *const *plugins, char *err, size_t errlen)
{
    const rs_model *m = v->m;
    if (m->n_plugin == 0 || v->tc)   /* with contacts: in the contacts' workspace */
        return RS_OK;
    if (!plugins)
        return rs_fail(err, errlen, RS_E_ARG,
                       "model '%s' has plugin force '%s' (library '%s') but no plugin tables were given "
                       "(rs_compiled_vehicle_opts.plugins, rs_wagon.model_plugins)",
                       m->name, m->plugins[0].name, m->plugins[0].library);
    rs_options o;
    rs_options_default(&o);
    o.allocator = v->alloc;
    o.plugins = plugins;
    int st = rs_ws_create(m, &o, &v->pws, err, errlen);
    if (st != RS_OK)
        return st;
    rs_ws *ws = v->pws;
    memcpy(ws->p, v->p, (size_t)m->n_p * sizeof(double));
    memcpy(ws->u, v->u, (size_t)m->n_u * sizeof(double));
    ws->constants_dirty = 1;
    if ((st = rs_ws_update_constants(ws)) != RS_OK)
        return rs_fail_model(err, errlen, st, m->name, NULL, ws->err);
    v->ul = ws->u;
    v->fws = ws;
    return RS_OK;
}

int rs_compiled_vehicle_create_opts(rs_compiled_vehicle **out, const rs_model *m, const double *p, const double *u,
                                    const rs_compiled_vehicle_opts *o, const rs_allocator *alloc, char *err,
                                    size_t errlen)
{
    const rs_compiled_vehicle_opts none = {0};
    if (!o)
        o = &none;
    if (out)
        *out = NULL;
    if (!out)
        return RS_E_ARG;
    int ix;
    const rs_model *mm = m;
    int st = RS_OK;
    if (!m || !m->q_names || m->n_q < 1)
        return rs_fail(err, errlen, RS_E_ARG, "rs_compiled_vehicle_create: no model");
    st = rs_compiled_vehicle_check_model(mm, m->q_names[0], NULL, &ix, NULL, err, errlen);
    if (st != RS_OK)
        return st;
    rs_allocator a = {0};
    if (alloc && alloc->alloc && alloc->release)
        a = *alloc;
    rs_compiled_vehicle *v = rs_alloc(&a, 1, sizeof *v);
    if (!v)
        goto nomem;
    v->alloc = a;
    v->m = m;
    const int n = v->n = m->n_q;
    v->nnz_m = m->M_pattern.colptr[n];
    v->nnz_k = m->K_pattern.colptr[n];
    v->nnz_c = m->C_pattern.colptr[n];
    v->p = rs_alloc(&a, (size_t)m->n_p, sizeof(double));
    v->u = rs_alloc(&a, (size_t)m->n_u, sizeof(double));
    v->k = rs_alloc(&a, (size_t)m->n_const, sizeof(double));
    v->zero = rs_alloc(&a, (size_t)n, sizeof(double));
    v->mval = rs_alloc(&a, (size_t)v->nnz_m, sizeof(double));
    v->dval = rs_alloc(&a, (size_t)n, sizeof(double));
    v->kval = rs_alloc(&a, (size_t)v->nnz_k, sizeof(double));
    v->cval = rs_alloc(&a, (size_t)v->nnz_c, sizeof(double));
    v->kd = rs_alloc(&a, (size_t)n * (size_t)n, sizeof(double));
    v->rhs = rs_alloc(&a, (size_t)n, sizeof(double));
    v->piv = rs_alloc(&a, (size_t)n, sizeof(int));
    v->map = rs_alloc(&a, (size_t)n, sizeof(int));
    v->f2 = rs_alloc(&a, (size_t)n, sizeof(double));
    v->qs = rs_alloc(&a, (size_t)n, sizeof(double));
    v->mk = rs_alloc(&a, (size_t)n * (size_t)n, sizeof(double));
    v->fix = rs_alloc(&a, (size_t)n, 1);
    if (!v->p || !v->u || !v->k || !v->zero || !v->mval || !v->dval || !v->kval || !v->cval || !v->kd || !v->rhs ||
        !v->piv || !v->map || !v->f2 || !v->qs || !v->mk || !v->fix)
        goto nomem;
    for (int i = 0; i < m->n_u; i++)
        v->u[i] = u ? u[i] : 0.0;
    if ((st = take_params(v, p, o->p_set, err, errlen)) != RS_OK) {
        rs_compiled_vehicle_free(&v);
        return st;
    }
    if (take_states(v, o->z0) != RS_OK)
        goto nomem;
    v->in[RS_IN_T] = &v->t;
    v->in[RS_IN_Q] = v->zero;
    v->in[RS_IN_QD] = v->zero;
    v->in[RS_IN_QDD] = v->zero;
    v->in[RS_IN_S] = v->zero;     /* n_s = 0 for a vehicle: never read */
    v->in[RS_IN_SD] = v->zero;
    v->in[RS_IN_SDD] = v->zero;
    v->in[RS_IN_P] = v->p;
    v->in[RS_IN_U] = v->u;
    v->in[RS_IN_CONST] = v->k;
    v->in[RS_IN_CACHE] = v->zero; /* RS_FN_STEP_CACHED is not called here */
    if (m->n_contact > 0) {
        /* the contact instance owns a workspace of the model (its own
         * parameters, constants, splines); v->p stays a copy for callers */
        rs_train_wheel_contact_opts co;
        if (o->contact)
            co = *o->contact;
        else
            rs_train_wheel_contact_opts_default(&co);
        if (m->n_plugin > 0 && !o->plugins) {
            rs_fail(err, errlen, RS_E_ARG,
                    "model '%s' has plugin force '%s' (library '%s') but no plugin tables were given "
                    "(rs_compiled_vehicle_opts.plugins, rs_wagon.model_plugins)",
                    m->name, m->plugins[0].name, m->plugins[0].library);
            rs_compiled_vehicle_free(&v);
            return RS_E_ARG;
        }
        co.plugins = o->plugins;
        st = rs_train_wheel_contact_create(&v->tc, m, v->p, &co, &a, err, errlen);
        if (st != RS_OK) {
            rs_compiled_vehicle_free(&v);
            return st;
        }
        /* its workspace evaluates the model: the states' and the plugins'
         * slots are its inputs */
        v->fws = rs_train_wheel_contact_ws(v->tc);
        v->ul = v->fws->u;
        *out = v;
        return RS_OK;
    }
    if (m->n_const > 0) {
        double *o[RS_FN_MAX_OUT] = {v->k};
        if (m->fn[RS_FN_CONSTANTS].fn(v->in, o) != RS_ABI_OK) {
            rs_fail(err, errlen, RS_E_MODELFN, "model '%s': the constants function failed", m->name);
            rs_compiled_vehicle_free(&v);
            return RS_E_MODELFN;
        }
        for (int i = 0; i < m->n_const; i++)
            if (!isfinite(v->k[i])) {
                rs_fail(err, errlen, RS_E_NONFINITE,
                        "model '%s': hoisted constant %d is not finite with these parameters", m->name, i);
                rs_compiled_vehicle_free(&v);
                return RS_E_NONFINITE;
            }
    }
    /* masses and inertias of parameters: the train file's values too */
    const int nb = rs_model_inertia_count(m);
    if (nb > 0) {
        double *buf = rs_alloc(&a, 7 * (size_t)nb, sizeof(double));
        if (!buf)
            goto nomem;
        char why[512];
        st = rs_inertia_check_model(m, v->in, buf, why, sizeof why);
        rs_free(&a, buf);
        if (st != RS_OK) {
            rs_fail_model(err, errlen, st, m->name, NULL, why);
            rs_compiled_vehicle_free(&v);
            return st;
        }
    }
    if ((st = open_plugins(v, o->plugins, err, errlen)) != RS_OK) {
        rs_compiled_vehicle_free(&v);
        return st;
    }
    v->in[RS_IN_U] = v->ul;
    *out = v;
    return RS_OK;
nomem:
    rs_fail(err, errlen, RS_E_NOMEM, "rs_compiled_vehicle_create: out of memory");
    rs_compiled_vehicle_free(&v);
    return RS_E_NOMEM;
}

const rs_model *rs_compiled_vehicle_model(const rs_compiled_vehicle *v) { return v->m; }
double *rs_compiled_vehicle_u(rs_compiled_vehicle *v) { return v->ul; }   /* the array the functions read */
const double *rs_compiled_vehicle_p(const rs_compiled_vehicle *v) { return v->p; }

/* Sparse values in the order of pat into dense column-major D (n × n). */
static void scatter(const rs_pattern *pat, const double *val, int n, double *D)
{
    for (int j = 0; j < n; j++)
        for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++)
            D[pat->rowind[k] + (size_t)j * (size_t)n] += val[k];
}

/* ---- internal states and plugins ---------------------------------------- */

const char *rs_compiled_vehicle_error(const rs_compiled_vehicle *v) { return v->err; }
double *rs_compiled_vehicle_z(rs_compiled_vehicle *v) { return v->z; }

/* The input slots bound at (t, q, q̇). */
static void bind(const rs_compiled_vehicle *v, const double **in, const double *t, const double *q, const double *qd)
{
    memcpy(in, v->in, sizeof v->in);
    in[RS_IN_T] = t;
    in[RS_IN_Q] = q;
    in[RS_IN_QD] = qd;
}

/* ż at (t, q, q̇) with z as the slots hold it: v->zdot, and b into zb
 * (NULL: not wanted); every value finite. */
static int eval_zdot(rs_compiled_vehicle *v, double t, const double *q, const double *qd, double *zb)
{
    const rs_model *m = v->m;
    const double *in[RS_IN_COUNT];
    bind(v, in, &t, q, qd);
    if (v->tc) {   /* the contacts' workspace holds the constants (and s, the splines) */
        rs_ws_bind(v->fws, t, q, qd);
        memcpy(in, v->fws->in, sizeof in);
    }
    double *o[RS_FN_MAX_OUT] = {v->zdot, zb ? zb : v->zs};
    if (m->fn[RS_FN_ZDOT].fn(in, o) != RS_ABI_OK)
        return rs_fail(v->err, sizeof v->err, RS_E_MODELFN, "t = %.9g s: model function %s failed", t,
                       rs_fn_name(RS_FN_ZDOT));
    for (int i = 0; i < v->nz; i++)
        if (!isfinite(v->zdot[i]))
            return rs_fail(v->err, sizeof v->err, RS_E_NONFINITE,
                           "t = %.9g s: the rate of internal state '%s' is %g", t, m->z_names[i], v->zdot[i]);
    return RS_OK;
}

static void put_z(rs_compiled_vehicle *v, const double *z)
{
    for (int i = 0; i < v->nz; i++)
        v->ul[v->m->z_slot[i]] = z[i];
}

/* The states seen at (t, q, q̇) into the input slots (and v->zs): z_n at
 * t_n (or before the start), else each advanced from t_n with a linear
 * between its value at t_n and its value here. */
static int z_at(rs_compiled_vehicle *v, double t, const double *q, const double *qd)
{
    put_z(v, v->z);
    if (!v->z_ready || !(t > v->tz)) {
        memcpy(v->zs, v->z, (size_t)v->nz * sizeof(double));
        return RS_OK;
    }
    const int st = eval_zdot(v, t, q, qd, NULL);
    if (st != RS_OK)
        return st;
    for (int i = 0; i < v->nz; i++) /* a here: ż minus b z_n (a does not depend on z) */
        v->zs[i] = rs_etd_advance(v->z[i], v->za[i], v->zdot[i] - v->zb[i] * v->z[i], v->zb[i], t - v->tz);
    put_z(v, v->zs);
    return RS_OK;
}

int rs_compiled_vehicle_z_start(rs_compiled_vehicle *v, double t, const double *q, const double *qd)
{
    if (v->nz == 0)
        return RS_OK;
    v->z_ready = 0;
    put_z(v, v->z);
    int st = eval_zdot(v, t, q, qd, v->zb);
    if (st != RS_OK)
        return st;
    for (int i = 0; i < v->nz; i++) {
        if (!(v->zb[i] < 0) || !isfinite(v->zb[i]))   /* the single step's rule (rs_step.c) */
            return rs_fail(v->err, sizeof v->err, RS_E_VALUE,
                           "internal state '%s': d(zdot)/dz = %g is not negative: the stiffness and the damping of "
                           "its element must be positive (check the parameters: the train file's vehicle block, "
                           "its 'set' lines, a sweep's values, the description)",
                           v->m->z_names[i], v->zb[i]);
        v->za[i] = v->zdot[i] - v->zb[i] * v->z[i];
    }
    v->tz = t;
    v->z_ready = 1;
    return RS_OK;
}

int rs_compiled_vehicle_z_commit(rs_compiled_vehicle *v, double t, const double *q, const double *qd)
{
    if (v->nz == 0)
        return RS_OK;
    const int st = z_at(v, t, q, qd);
    if (st != RS_OK)
        return st;
    if (v->z_ready && t > v->tz)   /* a at t: the next step's start */
        for (int i = 0; i < v->nz; i++)
            v->za[i] = v->zdot[i] - v->zb[i] * v->z[i];
    memcpy(v->z, v->zs, (size_t)v->nz * sizeof(double));
    v->tz = t;
    return RS_OK;
}

/* The plugins' forces at (t, q, q̇) into their input slots: the single
 * step's own call (rs_ws_plugin_eval) on the vehicle's workspace. */
static int plugins_at(rs_compiled_vehicle *v, double t, const double *q, const double *qd)
{
    rs_ws_bind(v->fws, t, q, qd);
    const int st = rs_ws_plugin_eval(v->fws);
    if (st != RS_OK) {   /* its message without the workspace's own "step N, t = T s: " */
        const char *msg = strstr(v->fws->err, " s: ");
        rs_fail(v->err, sizeof v->err, st, "%s", msg ? msg + 4 : v->fws->err);
    }
    return st;
}

int rs_compiled_vehicle_plugin_advance(rs_compiled_vehicle *v, double t, double dt, const double *q, const double *qd)
{
    if (v->m->n_plugin == 0)
        return RS_OK;
    rs_ws *ws = v->fws;
    memcpy(ws->q, q, (size_t)v->n * sizeof(double));
    memcpy(ws->qd, qd, (size_t)v->n * sizeof(double));
    const int st = rs_ws_plugin_advance(ws, t, dt);
    if (st != RS_OK) {
        const char *msg = strstr(ws->err, " s: ");
        rs_fail(v->err, sizeof v->err, st, "%s", msg ? msg + 4 : ws->err);
    }
    return st;
}

int rs_compiled_vehicle_eval(rs_compiled_vehicle *v, double t, const double *q, const double *qd, double *M, double *F, double *K,
                 double *C)
{
    const rs_model *m = v->m;
    const int n = v->n;
    int st;
    /* the forces read the states and the plugins' slots (M alone does not) */
    if ((F || K || C) && v->nz > 0 && (st = z_at(v, t, q, qd)) != RS_OK)
        return st;
    if ((F || K || C) && m->n_plugin > 0 && (st = plugins_at(v, t, q, qd)) != RS_OK)
        return st;
    if (v->tc)
        return rs_train_wheel_contact_eval(v->tc, t, q, qd, M, F, K, C);
    const double *in[RS_IN_COUNT];
    double tt = t;
    bind(v, in, &tt, q, qd);
    if (M) {
        double *o[RS_FN_MAX_OUT] = {v->mval};
        if (m->fn[RS_FN_M].fn(in, o) != RS_ABI_OK)
            return RS_E_MODELFN;
        scatter(&m->M_pattern, v->mval, n, M);
    }
    if (F) {
        double *o[RS_FN_MAX_OUT] = {v->dval};
        if (m->fn[RS_FN_DELTA].fn(in, o) != RS_ABI_OK)
            return RS_E_MODELFN;
        for (int i = 0; i < n; i++)
            F[i] += v->dval[i];
    }
    if (K || C) {
        double *o[RS_FN_MAX_OUT] = {v->kval, v->cval};
        if (m->fn[RS_FN_DELTA_JAC].fn(in, o) != RS_ABI_OK)
            return RS_E_MODELFN;
        if (K)
            scatter(&m->K_pattern, v->kval, n, K);
        if (C)
            scatter(&m->C_pattern, v->cval, n, C);
    }
    return RS_OK;
}

/* Solves the reduced system kd (r × r, compacted) x = rhs over the free
 * coordinates map[0..r), with `reg` added to the diagonal: x into rhs[0..r)
 * (rhs is compacted from its full-size entries first).  RS_E_SINGULAR with
 * *bad the coordinate of the failing pivot, RS_E_NONFINITE. */
static int reduced_solve(rs_compiled_vehicle *v, int r, double reg, int *bad)
{
    for (int b = 0; b < r; b++)
        v->kd[b + (size_t)b * (size_t)r] += reg;
    for (int a = 0; a < r; a++)
        v->rhs[a] = v->rhs[v->map[a]];
    int col = -1;
    if (rs_dense_lu(v->kd, r, v->piv, &col) != RS_OK) {
        if (bad)
            *bad = col >= 0 && col < r ? v->map[col] : -1;
        return RS_E_SINGULAR;
    }
    rs_dense_lu_solve(v->kd, r, v->piv, v->rhs);
    for (int a = 0; a < r; a++)
        if (!isfinite(v->rhs[a]))
            return RS_E_NONFINITE;
    return RS_OK;
}

int rs_compiled_vehicle_static(rs_compiled_vehicle *v, double t, double *q, int fixed, int *bad)
{
    memset(v->fix, 0, (size_t)v->n);
    if (fixed >= 0 && fixed < v->n)
        v->fix[fixed] = 1;
    return rs_compiled_vehicle_static_mask(v, t, q, v->fix, bad);
}

static int static_contact(rs_compiled_vehicle *v, double t, double *q, int r, int *bad);

int rs_compiled_vehicle_static_mask(rs_compiled_vehicle *v, double t, double *q, const unsigned char *fixed, int *bad)
{
    const int n = v->n;
    int r = 0;   /* reduced order: every coordinate not fixed */
    for (int i = 0; i < n; i++)
        if (!fixed || !fixed[i])
            v->map[r++] = i;
    if (v->tc)
        return static_contact(v, t, q, r, bad);
    if (r == 0)
        return RS_OK;
    for (int it = 0; it < 50; it++) {
        memset(v->kd, 0, (size_t)n * (size_t)n * sizeof(double));
        memset(v->rhs, 0, (size_t)n * sizeof(double));
        int st = rs_compiled_vehicle_eval(v, t, q, v->zero, NULL, v->rhs, v->kd, NULL);
        if (st != RS_OK)
            return st;
        /* K_rr dq_r = δ_r   (δ(q + dq) ≈ δ − K dq = 0); compact in place:
         * reduced entry (a, b) comes from (map[a], map[b]) with map
         * increasing, so it never overwrites an entry still to be read */
        for (int b = 0; b < r; b++)
            for (int a = 0; a < r; a++)
                v->kd[a + (size_t)b * (size_t)r] = v->kd[v->map[a] + (size_t)v->map[b] * (size_t)n];
        if ((st = reduced_solve(v, r, 0.0, bad)) != RS_OK)
            return st;
        double worst = 0.0;
        for (int a = 0; a < r; a++) {
            const int i = v->map[a];
            q[i] += v->rhs[a];
            worst = fmax(worst, fabs(v->rhs[a]) / (1.0 + fabs(q[i])));
        }
        if (worst < 1e-12)
            return RS_OK;
    }
    return RS_E_NOCONV;
}

/* Largest |F| over the free coordinates map[0..r). */
static double free_max(const rs_compiled_vehicle *v, const double *F, int r)
{
    double w = 0.0;
    for (int a = 0; a < r; a++)
        w = fmax(w, fabs(F[v->map[a]]));
    return w;
}

/* Static equilibrium of a vehicle with compliant contacts.  Its K lacks the
 * geometric stiffness of the contacts (rs_train_contact.h), which is all
 * that holds a wheelset laterally at rest, so Newton runs here on a
 * central-difference Jacobian of F(q, 0) (2r evaluations per iteration,
 * at start-up only).  A coordinate without any stiffness (a wheelset's
 * spin, a bogie's yaw on straight track) gets the regularization
 * μ = 1e-10 max |J_aa|, which leaves it where it is when its force is 0
 * (one whose column of J is zero altogether is held where it is); a
 * step is scaled to at most 2 mm (or 2 mrad) and halved until max |F|
 * decreases, so a start with the wheels off the rails (no contact
 * stiffness yet) descends onto them. */
/* Puts every wheel on its rail with the penetration p_t, the least change
 * of the free coordinates map[0..r) doing so (Gauss-Newton, minimum norm:
 * Δq = Gᵀ (G Gᵀ)⁻¹ (p_t − p) over the free columns of G = φ^n_q): the
 * start of the static Newton, which from wheels in the air has no contact
 * stiffness to work with. */
static int touch_down(rs_compiled_vehicle *v, double t, double *q, int r)
{
    enum { PT_MAXC = 16 };
    const int n = v->n, nc = rs_train_wheel_contact_count(v->tc);
    const double pt = 2e-5;   /* m: a wheel's Hertz penetration at ~15 kN (S1002 on 60E1) */
    if (nc > PT_MAXC || nc > n)
        return RS_OK;         /* no room: the static Newton starts from q as it is */
    double A[PT_MAXC * PT_MAXC], b[PT_MAXC];
    for (int it = 0; it < 30; it++) {
        memset(v->rhs, 0, (size_t)n * sizeof(double));
        int st = rs_compiled_vehicle_eval(v, t, q, v->zero, NULL, v->rhs, NULL, NULL);
        if (st != RS_OK)
            return st;
        double worst = 0.0;
        for (int i = 0; i < nc; i++) {
            b[i] = pt - rs_train_wheel_contact_point_get(v->tc, i)->pen;
            worst = fmax(worst, fabs(b[i]));
        }
        if (worst < 1e-9)
            return RS_OK;
        for (int i = 0; i < nc; i++)   /* A = G_f G_fᵀ; p = −φ^n so Δp = −G Δq */
            for (int k = 0; k < nc; k++) {
                const double *gi = rs_train_wheel_contact_gap_q(v->tc, i), *gk = rs_train_wheel_contact_gap_q(v->tc, k);
                double sum = 0.0;
                for (int a = 0; a < r; a++)
                    sum += gi[v->map[a]] * gk[v->map[a]];
                A[i + k * nc] = sum;
            }
        int col = -1;
        if (rs_dense_lu(A, nc, v->piv, &col) != RS_OK)
            return RS_OK;   /* contacts not independent: leave it to Newton */
        rs_dense_lu_solve(A, nc, v->piv, b);
        for (int a = 0; a < r; a++) {
            double d = 0.0;
            for (int i = 0; i < nc; i++)
                d -= rs_train_wheel_contact_gap_q(v->tc, i)[v->map[a]] * b[i];
            v->qs[a] = d;
        }
        for (int a = 0; a < r; a++)
            q[v->map[a]] += v->qs[a];
    }
    return RS_OK;
}

static int static_contact(rs_compiled_vehicle *v, double t, double *q, int r, int *bad)
{
    const int n = v->n;
    int st0 = touch_down(v, t, q, r);
    if (st0 != RS_OK)
        return st0;
    double f0 = -1.0;
    int checked = 0;
    for (int it = 0; it < 200; it++) {
        memset(v->rhs, 0, (size_t)n * sizeof(double));
        int st = rs_compiled_vehicle_eval(v, t, q, v->zero, NULL, v->rhs, NULL, NULL);
        if (st != RS_OK)
            return st;
        const double fm = free_max(v, v->rhs, r);
        if (f0 < 0.0)
            f0 = fmax(fm, 1e-300);
        if (fm <= 1e-12 * f0 || fm < 1e-300)
            return RS_OK;
        memcpy(v->qs, q, (size_t)n * sizeof(double));
        memset(v->kd, 0, (size_t)r * (size_t)r * sizeof(double));
        double dmax = 0.0;
        for (int b = 0; b < r; b++) {
            const int j = v->map[b];
            const double h = 1e-7 * (1.0 + fabs(q[j]));
            for (int sgn = 1; sgn >= -1; sgn -= 2) {
                v->qs[j] = q[j] + sgn * h;
                memset(v->f2, 0, (size_t)n * sizeof(double));
                if ((st = rs_compiled_vehicle_eval(v, t, v->qs, v->zero, NULL, v->f2, NULL, NULL)) != RS_OK)
                    return st;
                for (int a = 0; a < r; a++)   /* −∂F/∂q: K */
                    v->kd[a + (size_t)b * (size_t)r] += -sgn * v->f2[v->map[a]] / (2.0 * h);
            }
            v->qs[j] = q[j];
            dmax = fmax(dmax, fabs(v->kd[b + (size_t)b * (size_t)r]));
        }
        if (!checked && fm < 1e-2 * f0) {
            /* near the equilibrium (the wheels on the rails), a coordinate
             * without any stiffness at rest (a wheelset's spin: no creep
             * force at q̇ = 0) is held: the tiny moments left on it (the
             * normal forces of a yawed wheelset) have no equilibrium */
            checked = 1;
            int r2 = 0;
            for (int b = 0; b < r; b++) {
                double col = 0.0;
                for (int a = 0; a < r; a++)
                    col = fmax(col, fabs(v->kd[a + (size_t)b * (size_t)r]));
                if (col > 1e-9 * dmax)
                    v->map[r2++] = v->map[b];
            }
            if (r2 < r) {
                r = r2;
                continue;
            }
        }
        if ((st = reduced_solve(v, r, 1e-10 * dmax, bad)) != RS_OK)
            return st;
        double big = 0.0;
        for (int a = 0; a < r; a++)
            big = fmax(big, fabs(v->rhs[a]));
        /* backtracking on max |F|: a step from wheels above the rails (no
         * contact stiffness yet) or a Newton overshoot on p^{3/2} would push
         * them deep into the rails */
        double lam = big > 2e-3 ? 2e-3 / big : 1.0;
        for (int k = 0; k < 40; k++, lam *= 0.5) {
            memcpy(v->qs, q, (size_t)n * sizeof(double));
            for (int a = 0; a < r; a++)
                v->qs[v->map[a]] += lam * v->rhs[a];
            memset(v->f2, 0, (size_t)n * sizeof(double));
            if ((st = rs_compiled_vehicle_eval(v, t, v->qs, v->zero, NULL, v->f2, NULL, NULL)) != RS_OK)
                return st;
            if (free_max(v, v->f2, r) < fm)
                break;
        }
        if (!(free_max(v, v->f2, r) < fm))
            return fm <= 1e-9 * f0 ? RS_OK : RS_E_NOCONV;   /* no descent left: as far as it goes */
        memcpy(q, v->qs, (size_t)n * sizeof(double));
    }
    return RS_E_NOCONV;
}

int rs_compiled_vehicle_steady(rs_compiled_vehicle *v, double t, const double *q, double *qd, const unsigned char *fixed, int *bad)
{
    const int n = v->n;
    /* the unknowns: cyclic coordinates (no stiffness: K's column is zero,
     * a wheelset's spin), whose speed the creep forces set; the others keep
     * the velocities given (an undamped coordinate has no steady speed) */
    memset(v->kd, 0, (size_t)n * (size_t)n * sizeof(double));
    int st = rs_compiled_vehicle_eval(v, t, q, qd, NULL, NULL, v->kd, NULL);
    if (st != RS_OK)
        return st;
    /* "zero" to rounding: an elastic contact's K6 J of a spin is rounding
     * (a wheel's normal passes through its axle) */
    double kmax = 0.0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++)
        kmax = fmax(kmax, fabs(v->kd[k]));
    int r = 0;
    for (int i = 0; i < n; i++) {
        int zero = 1;
        for (int a = 0; a < n; a++)
            zero &= fabs(v->kd[a + (size_t)i * (size_t)n]) <= 1e-12 * kmax;
        if ((!fixed || !fixed[i]) && zero)
            v->map[r++] = i;
    }
    /* ... and damped (frictionless contacts: a spin has no steady speed) */
    memset(v->kd, 0, (size_t)n * (size_t)n * sizeof(double));
    if ((st = rs_compiled_vehicle_eval(v, t, q, qd, NULL, NULL, NULL, v->kd)) != RS_OK)
        return st;
    int r2 = 0;
    for (int a = 0; a < r; a++)
        if (v->kd[v->map[a] * (size_t)(n + 1)] > 0.0)
            v->map[r2++] = v->map[a];
    r = r2;
    if (r == 0)
        return RS_OK;
    /* Newton on F(q̇) = 0, kept only where a step lowers max |F|; where one
     * does not, a pseudo-transient continuation (Kelley and Keyes 1998):
     * (C_rr + M_rr/τ) Δq̇ = F_r, the spin-up of the wheels under their creep
     * torques over a pseudo-time τ (linearly implicit Euler), τ shrunk by 4
     * at a step refused and doubled at one kept.  Plain Newton fails on a
     * saturated creep law (FASTSIM, Kalker's law with μ): from a wheel at
     * rest the creepage is 100 %, the torque μ N r is flat in the spin and C
     * tiny, so the step F/C jumps thousands of rad/s, and on to 1e21 rad/s
     * where the contact's forces vanish in rounding (the climb rig from a
     * train file without its spins: the wheelset then fell through its
     * rails).  A Newton that converges keeps every step: the same bits. */
    memset(v->mk, 0, (size_t)n * (size_t)n * sizeof(double));
    if ((st = rs_compiled_vehicle_eval(v, t, q, qd, v->mk, NULL, NULL, NULL)) != RS_OK)
        return st;
    double f0 = -1.0, tau = INFINITY;
    for (int it = 0; it < 200; it++) {
        memset(v->kd, 0, (size_t)n * (size_t)n * sizeof(double));
        memset(v->rhs, 0, (size_t)n * sizeof(double));
        st = rs_compiled_vehicle_eval(v, t, q, qd, NULL, v->rhs, NULL, v->kd);
        if (st != RS_OK)
            return st;
        const double fm = free_max(v, v->rhs, r);
        if (f0 < 0.0)
            f0 = fmax(fm, 1e-300);
        if (fm <= 1e-12 * f0 || fm < 1e-300)
            return RS_OK;
        /* C_rr (+ M_rr/τ) dq̇_r = F_r; compacted in place as in rs_compiled_vehicle_static */
        double dmax = 0.0;
        for (int b = 0; b < r; b++)
            for (int a = 0; a < r; a++) {
                const size_t full = v->map[a] + (size_t)v->map[b] * (size_t)n;
                v->kd[a + (size_t)b * (size_t)r] = v->kd[full] + (isinf(tau) ? 0.0 : v->mk[full] / tau);
                if (a == b)
                    dmax = fmax(dmax, fabs(v->kd[a + (size_t)b * (size_t)r]));
            }
        /* an undamped velocity stays put */
        if ((st = reduced_solve(v, r, 1e-10 * dmax + 1e-300, bad)) != RS_OK)
            return st;
        memcpy(v->qs, qd, (size_t)n * sizeof(double));
        double worst = 0.0;
        for (int a = 0; a < r; a++) {
            v->qs[v->map[a]] += v->rhs[a];
            worst = fmax(worst, fabs(v->rhs[a]) / (1.0 + fabs(v->qs[v->map[a]])));
        }
        memset(v->f2, 0, (size_t)n * sizeof(double));
        if ((st = rs_compiled_vehicle_eval(v, t, q, v->qs, NULL, v->f2, NULL, NULL)) != RS_OK)
            return st;
        const double ft = free_max(v, v->f2, r);
        if (!(ft < fm) && worst >= 1e-13 && ft > 1e-12 * f0) {
            /* refused: a shorter pseudo-time (1 ms first: a wheel's spin-up
             * takes tens of them); the state stays */
            tau = isinf(tau) ? 1e-3 : tau / 4.0;
            if (tau < 1e-12)
                return RS_E_NOCONV;
            continue;
        }
        memcpy(qd, v->qs, (size_t)n * sizeof(double));
        if (worst < 1e-13)
            return RS_OK;
        tau *= 2.0;
    }
    return RS_E_NOCONV;
}

rs_train_wheel_contact *rs_compiled_vehicle_contact(rs_compiled_vehicle *v) { return v->tc; }
