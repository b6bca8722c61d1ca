/*
 * rs_ws.c — creating and freeing a workspace, its accessors and setters.
 *
 * All doubles of a workspace live in one block allocated here (one failure
 * point, one free); the sparse pattern and KLU's Symbolic object are built
 * here too, so the step only refactors.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_params.h"
#include "rs_ws_impl.h"


void rs_options_default(rs_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = RS_IMEX_EULER;
    o->dt = 1e-3;
    o->proj_tol = 1e-6;
    o->proj_maxiter = 10;
    o->project_initial = 1;
    o->rcond_min = 1e-14;
    o->rcond_drop = 1e-3;
    o->rgrowth_drop = 1e-3;
    o->klu_ordering = RS_KLU_AUTO;
    o->klu_btf = -1;
    o->klu_trials = 20;
    o->check_finite = 1;
    o->contact_E = 2.1e11;
    o->contact_nu = 0.28;
    o->contact_vmin = 0.01;
    o->contact_tol = 1e-9;
    o->contact_creep = 1;
    o->contact_damp = 1e5;
    o->contact_k_scale = 1.0;
    o->contact_theta = 0.0; /* the normal law's own (rs_elastic_theta) */
    o->contact_climb_time = 0.05; /* RS_CLIMB_TIME_DEFAULT (rs_climb.h) */
    o->fast = RS_FAST_ALL;
}

int rs_ws_fail(rs_ws *ws, int status, const char *fmt, ...)
{
    /* The step being computed (1-based) and the time it starts from. */
    int n = ws->in_init
                ? snprintf(ws->err, sizeof ws->err, "initialization, t = %.9g s: ", ws->t)
                : snprintf(ws->err, sizeof ws->err, "step %ld, t = %.9g s: ", ws->stats.steps + 1,
                           ws->t);
    if (n < 0 || (size_t)n >= sizeof ws->err)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    rs_failv(ws->err + n, sizeof ws->err - (size_t)n, status, fmt, ap);
    va_end(ap);
    return status;
}

/* The elastic contact (rs_contact_ops.elastic) replaces the contacts'
 * normal constraints by forces: a model with other constraints is refused. */
static int elastic_allowed(const rs_model *m, char *err, size_t errlen)
{
    if (m->n_phi == m->n_contact)
        return RS_OK;
    return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                   "rs_ws_create: model '%s' has %d constraint(s) besides its %d contacts' "
                   "normal ones; the elastic contact runs only models whose constraints are "
                   "all contact constraints (use the constraint contact, "
                   "rs_wheel_rail_contact())",
                   m->name, m->n_phi - m->n_contact, m->n_contact);
}

/* The model the elastic contact's workspace runs: m without the contacts'
 * normal constraints (n_phi = 0) and without the constraint contact's
 * combined functions (of those, only RS_FN_STEP_ELASTIC stays). */
static void elastic_view(rs_model *view, const rs_model *m)
{
    *view = *m;
    view->n_phi = 0;
    view->phi_names = NULL;
    view->phi_q_pattern = (rs_pattern){0, m->n_q, NULL, NULL};
    static const int drop[] = {RS_FN_PHI, RS_FN_PHI_Q, RS_FN_BETA, RS_FN_GAMMA, RS_FN_STEP,
                               RS_FN_PROJ, RS_FN_NEWTON, RS_FN_STEP_CACHED};
    for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++)
        view->fn[drop[k]] = (rs_func){0};
}

/* The workspace runs the elastic contact (rs_contact_ops.elastic). */
static int is_elastic(const rs_model *m, const rs_options *o)
{
    return m->n_contact > 0 && o->contact && o->contact->elastic;
}

/* validate: the model, and the options (opt, or the defaults) into *o,
 * its allocator made whole. */
static int check_model_options(const rs_model *m, const rs_options *opt, rs_options *o, char *err,
                               size_t errlen)
{
    int st = rs_model_validate(m, err, errlen);
    if (st)
        return st;
    /* Auxiliary coordinates are integrated only as the 4 contact
     * coordinates of each wheel-rail contact (rs_contact.h). */
    if (m->n_s > 0 && (m->n_contact == 0 || m->n_s != 4 * m->n_contact))
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "rs_ws_create: auxiliary coordinates other than the 4 of each "
                       "wheel-rail contact are not integrated");
    if (opt)
        *o = *opt;
    else
        rs_options_default(o);
    if (!(o->dt > 0) || !isfinite(o->dt) || !(o->proj_tol > 0) || o->proj_maxiter < 0 ||
        (o->method != RS_IMEX_EULER && o->method != RS_RK4) || !(o->rcond_min >= 0) ||
        !(o->rcond_drop >= 0) || !(o->rgrowth_drop >= 0) || o->klu_ordering < RS_KLU_AUTO ||
        o->klu_ordering > RS_KLU_TREE || o->klu_btf < -1 || o->klu_btf > 1 || o->klu_trials < 0)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ws_create: bad options (need dt > 0, proj_tol > 0, "
                       "proj_maxiter >= 0, a known method, rcond_min, rcond_drop and "
                       "rgrowth_drop >= 0, klu_ordering RS_KLU_AUTO..RS_KLU_TREE, "
                       "klu_btf -1..1, klu_trials >= 0)");
    if (m->n_contact > 0 &&
        (o->method != RS_IMEX_EULER || !(o->contact_E > 0) || !(o->contact_nu >= 0) ||
         !(o->contact_nu < 0.5) || !(o->contact_vmin > 0) || !(o->contact_tol > 0)))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ws_create: a model with wheel-rail contact needs method "
                       "RS_IMEX_EULER, contact_E > 0, contact_nu in [0, 0.5), "
                       "contact_vmin > 0 and contact_tol > 0");
    for (int i = 0; i < m->n_contact; i++) {
        const double E = rs_options_E(o, i), nu = rs_options_nu(o, i);
        if (!(E > 0) || !isfinite(E) || !(nu >= 0 && nu < 0.5))
            return rs_fail(err, errlen, RS_E_ARG,
                           "contact '%s': Young's modulus %g Pa and Poisson ratio %g; the modulus must be > 0 and "
                           "finite, the ratio in [0, 0.5)", m->contacts[i].name, E, nu);
    }
    if (!o->allocator.alloc || !o->allocator.release)
        o->allocator = (rs_allocator){0};   /* rs_alloc.h: calloc/free */
    if (is_elastic(m, o))
        return elastic_allowed(m, err, errlen);
    return RS_OK;
}

/* The sizes of the workspace's arrays, and of the one block that holds
 * them all (total doubles). */
typedef struct ws_sizes {
    size_t nq, ns, nphi, nnzM, nnzG, nproj, ncache, total;
} ws_sizes;

static ws_sizes block_sizes(const rs_model *m)
{
    const size_t nq = (size_t)m->n_q, ns = (size_t)m->n_s, nphi = (size_t)m->n_phi;
    const size_t nnzM = (size_t)m->M_pattern.colptr[m->n_q];
    const size_t nnzG = nphi ? (size_t)m->phi_q_pattern.colptr[m->n_q] : 0;
    const size_t nproj = nphi <= RS_DENSE_PROJ_MAX ? nphi : 0; /* dense projection */
    const size_t ncache = (size_t)rs_model_cache_len(m);
    const size_t total = 3 * nq + 3 * ns + (size_t)m->n_p + (size_t)m->n_u + (size_t)m->n_const +
                         ncache + (ncache ? nq + ns : 0) +
                         2 * (size_t)m->n_p + 14 * (size_t)rs_model_inertia_count(m) +
                         nphi + nnzM + nq + 3 * nphi + nnzG + (nq + nphi) + 2 * nq + 2 * ns + 8 * nq +
                         2 * nq + nproj * nproj + nproj + 8 * (size_t)m->n_z + 2 * nq;
    return (ws_sizes){nq, ns, nphi, nnzM, nnzG, nproj, ncache, total};
}

size_t rs_ws_block_len(const rs_ws *ws)
{
    return block_sizes(ws->model).total;
}

/* The block cut into the arrays, in the order block_sizes counts them. */
static void carve_block(rs_ws *ws, const ws_sizes *z)
{
    const rs_model *m = ws->model;
    const size_t nq = z->nq, ns = z->ns, nphi = z->nphi, nproj = z->nproj, ncache = z->ncache;
    double *b = ws->block;
#define CARVE(field, count) (ws->field = b, b += (count))
    CARVE(q, nq); CARVE(qd, nq); CARVE(qdd, nq);
    CARVE(s, ns); CARVE(sd, ns); CARVE(sdd, ns);
    CARVE(p, (size_t)m->n_p); CARVE(u, (size_t)m->n_u); CARVE(cache, ncache); CARVE(k, (size_t)m->n_const);
    if (ncache) {
        ws->n_cache = (int)ncache;
        CARVE(cache_q, nq);
        CARVE(cache_s, ns);
    }
    CARVE(lambda, nphi);
    CARVE(p_eval, (size_t)m->n_p); CARVE(p_set, (size_t)m->n_p);
    CARVE(inertia_eval, 7 * (size_t)rs_model_inertia_count(m));
    CARVE(inertia_passed, 7 * (size_t)rs_model_inertia_count(m));
    CARVE(Mv, z->nnzM); CARVE(delta, nq);
    CARVE(phi, nphi); CARVE(beta, nphi); CARVE(gamma, nphi); CARVE(Gv, z->nnzG);
    CARVE(rhs, nq + nphi);
    CARVE(q0, nq); CARVE(qd0, nq); CARVE(s0, ns); CARVE(sd0, ns);
    for (int i = 0; i < 4; i++) {
        CARVE(kq[i], nq);
        CARVE(kv[i], nq);
    }
    CARVE(qs, nq); CARVE(qds, nq);
    CARVE(S, nproj * nproj); CARVE(mu, nproj);
    CARVE(z0, (size_t)m->n_z); CARVE(za, (size_t)m->n_z); CARVE(zb, (size_t)m->n_z);
    CARVE(zd, (size_t)m->n_z);
    for (int i = 0; i < 4; i++)
        CARVE(kz[i], (size_t)m->n_z);
    CARVE(qd_end, nq); CARVE(qd0_alt, nq);
#undef CARVE
}

/* size/allocate: the workspace for model m and options o (its allocator),
 * running the elastic contact's view of m where o's contact is elastic,
 * with its block of doubles carved into the arrays (*z: their sizes).
 * NULL: out of memory. */
static rs_ws *ws_alloc(const rs_model *m, const rs_options *o, ws_sizes *z)
{
    const rs_allocator *a = &o->allocator;
    rs_ws *ws = rs_alloc(a, 1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->magic = RS_WS_MAGIC;
    ws->model = ws->model_given = m;
    if (is_elastic(m, o)) {
        elastic_view(&ws->view, m);
        ws->model = &ws->view;
    }
    ws->opt = *o;
    ws->dt = o->dt;
    *z = block_sizes(ws->model);
    ws->block = rs_alloc(a, z->total, sizeof(double));
    if (!ws->block) {
        rs_free(a, ws);
        return NULL;
    }
    carve_block(ws, z);
    return ws;
}

/* wire input slots: the parameters' defaults, and the generated
 * functions' inputs pointing at the arrays (size 0: at the dummy). */
static void wire_inputs(rs_ws *ws, const ws_sizes *z)
{
    const rs_model *m = ws->model;
    for (int i = 0; i < m->n_p; i++)
        ws->p[i] = m->p_default[i];
    ws->constants_dirty = 1;
    for (int i = 0; i < m->n_z; i++) /* internal states start at the description's values */
        ws->u[m->z_slot[i]] = m->z0 ? m->z0[i] : 0.0;

    ws->in[RS_IN_T] = &ws->t_in;
    ws->in[RS_IN_Q] = ws->q;
    ws->in[RS_IN_QD] = ws->qd;
    ws->in[RS_IN_QDD] = ws->qdd;
    ws->in[RS_IN_S] = z->ns ? ws->s : ws->dummy;
    ws->in[RS_IN_SD] = z->ns ? ws->sd : ws->dummy;
    ws->in[RS_IN_SDD] = z->ns ? ws->sdd : ws->dummy;
    ws->in[RS_IN_P] = m->n_p ? ws->p : ws->dummy;
    ws->in[RS_IN_U] = m->n_u ? ws->u : ws->dummy;
    ws->in[RS_IN_CONST] = m->n_const ? ws->k : ws->dummy;
    ws->in[RS_IN_CACHE] = z->ncache ? ws->cache : ws->dummy;
}

/* contact set-up: the contact implementation's workspace, for a model
 * with wheel-rail contacts (o, a: rs_ws_create's options and allocator). */
static int contact_setup(rs_ws *ws, const rs_options *o, const rs_allocator *a, char *err,
                         size_t errlen)
{
    if (ws->model_given->n_contact == 0)
        return RS_OK;
    const rs_contact_ops *ops = o->contact;
    if (!ops)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "rs_ws_create: the model has wheel-rail contacts but no contact "
                       "implementation was given: set rs_options.contact = "
                       "rs_wheel_rail_contact() (rs_contact.h, runtime/contact/)");
    ws->cops = ops;
    char kerr[600] = "";
    const int st = ops->create(ws->model_given, o, a, &ws->ct, kerr, sizeof kerr);
    return st ? rs_fail(err, errlen, st, "%s", kerr) : RS_OK;
}

/* the linear system: A's pattern (with contact, A = M + Δt C^K_qq: C^K's
 * pattern joins M's; so do implicit plugins' K_p and C_p), KLU's analysis
 * with the ordering asked for, and what rs_ws_klu_info reports of it. */
static int system_setup(rs_ws *ws, const rs_options *o, const rs_allocator *a, char *err,
                        size_t errlen)
{
    char kerr[600] = "";
    /* the extra terms of A: the contact's C^K_qq (or the elastic contact's
     * terms) and the implicit plugins' K_p and C_p (rs_ws_plugin_jac.c),
     * each with its own pattern and map into the union */
    const rs_pattern *extra[RS_KLU_EXTRA_PARTS] = {NULL};
    if (ws->ct)
        extra[RS_KLU_EXTRA_CONTACT] = ws->cops->ck_pattern(ws->ct);
    if (ws->plug_implicit) {
        extra[RS_KLU_EXTRA_PLUGIN_K] = &ws->model->K_pattern;
        extra[RS_KLU_EXTRA_PLUGIN_C] = &ws->model->C_pattern;
    }
    int st = rs_klu_system_build(&ws->sys, ws->model, extra, a, kerr, sizeof kerr);
    if (st)
        return rs_fail(err, errlen, st, "%s", kerr);
    if (ws->ct)
        ws->cops->bind_k(ws);
    if (o->klu_ordering != RS_KLU_AUTO && (o->klu_ordering != RS_KLU_AMD || o->klu_btf == 1) &&
        (st = rs_klu_system_analyze(&ws->sys, o->klu_ordering, o->klu_btf == 1)))
        return rs_fail(err, errlen, st,
                       "klu_analyze (%s) failed on the system pattern (KLU status %d)",
                       rs_klu_ordering_name(o->klu_ordering, o->klu_btf == 1),
                       ws->sys.common.status);
    ws->sys.rgrowth_drop = o->rgrowth_drop;
    ws->klu_info.ordering = ws->sys.ordering;
    ws->klu_info.btf = ws->sys.btf;
    ws->klu_info.n = ws->sys.n;
    ws->klu_info.nnz = ws->sys.nnz;
    ws->klu_info.nblocks = ws->sys.sym->nblocks;
    for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
        ws->klu_info.cand_us[k] = ws->klu_info.cand_flops[k] = -1;
        ws->klu_info.cand_lu_nnz[k] = ws->klu_info.cand_fragile[k] = -1;
    }
    return RS_OK;
}

int rs_ws_create(const rs_model *m, const rs_options *opt, rs_ws **out,
                 char *err, size_t errlen)
{
    if (!out)
        return rs_fail(err, errlen, RS_E_ARG, "rs_ws_create: out is NULL");
    *out = NULL;
    rs_options o;
    int st = check_model_options(m, opt, &o, err, errlen);
    if (st)
        return st;
    ws_sizes z;
    rs_ws *ws = ws_alloc(m, &o, &z);
    if (!ws)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory");
    wire_inputs(ws, &z);
    if ((st = contact_setup(ws, &o, &o.allocator, err, errlen))
        || (st = rs_ws_plugin_setup(ws, &o, &o.allocator, err, errlen))
        || (st = system_setup(ws, &o, &o.allocator, err, errlen))) {
        rs_ws_free(&ws);
        return st;
    }
    *out = ws;
    return RS_OK;
}

void rs_ws_free(rs_ws **wsp)
{
    if (!wsp || !*wsp)
        return;
    rs_ws *ws = *wsp;
    rs_allocator a = ws->opt.allocator;
    rs_klu_factors_free(&ws->sys, &ws->fac_dyn);
    rs_klu_factors_free(&ws->sys, &ws->fac_proj);
    rs_klu_system_free(&ws->sys, &a);
    if (ws->cops)
        ws->cops->release(&ws->ct, &a);
    rs_ws_plugin_release(ws, &a);
    rs_free(&a, ws->block);
    ws->magic = 0;
    rs_free(&a, ws);
    *wsp = NULL;
}

int rs_ws_klu_info(const rs_ws *ws, rs_klu_info *info)
{
    if (!ws || ws->magic != RS_WS_MAGIC || !info)
        return RS_E_ARG;
    *info = ws->klu_info;
    return RS_OK;
}

const char *rs_klu_ordering_name(int ordering, int btf)
{
    static const char *const names[2][5] = {
        {"amd", "colamd", "natural", "amd_schur", "tree"},
        {"amd_btf", "colamd_btf", "natural_btf", "amd_schur_btf", "tree_btf"}};
    if (ordering == RS_KLU_AUTO)
        return "auto";
    if (ordering < RS_KLU_AMD || ordering > RS_KLU_TREE || btf < 0 || btf > 1)
        return "?";
    return names[btf][ordering];
}

const char *rs_ws_error(const rs_ws *ws) { return ws ? ws->err : "workspace is NULL"; }
const rs_model *rs_ws_model(const rs_ws *ws) { return ws->model_given; }
const rs_options *rs_ws_options(const rs_ws *ws) { return &ws->opt; }
const rs_stats *rs_ws_stats(const rs_ws *ws) { return &ws->stats; }
double *rs_ws_q(rs_ws *ws) { return ws->q; }
double *rs_ws_qd(rs_ws *ws) { return ws->qd; }
double *rs_ws_s(rs_ws *ws) { return ws->s; }
double *rs_ws_sd(rs_ws *ws) { return ws->sd; }
double *rs_ws_u(rs_ws *ws)
{
    if (ws->ct) /* the caller may write the spline slots: refill them all */
        ws->cops->inputs_changed(ws->ct);
    return ws->u;
}
const double *rs_ws_p(const rs_ws *ws) { return ws->p; }
const double *rs_ws_lambda(const rs_ws *ws) { return ws->lambda; }
double rs_ws_time(const rs_ws *ws) { return ws->t; }

static int lookup(rs_ws *ws, const char *name, rs_var_kind kind, const char *what, int *index)
{
    rs_var v;
    if (!ws || ws->magic != RS_WS_MAGIC || !name)
        return RS_E_ARG;
    if (rs_model_find(ws->model, name, &v) != RS_OK || v.kind != kind) {
        /* two statements: the callers read *index when this returns 0 */
        rs_fail(ws->err, sizeof ws->err, RS_E_NOTFOUND, "model '%s' has no %s named '%s'",
                ws->model->name, what, name);
        return RS_E_NOTFOUND;
    }
    *index = v.index;
    return RS_OK;
}

/* Parameters declared as expressions of others (`param dz = m*g/k`,
 * RS_FN_PARAMS) follow them, unless the caller set them itself
 * (rs_params.h: the one rule, shared with the trains' vehicles). */
static int follow_dependent(rs_ws *ws)
{
    if (rs_params_follow(ws->model, ws->in, ws->p, ws->p_set, ws->p_eval) != RS_OK)
        return rs_ws_fail(ws, RS_E_MODELFN, "model function %s failed", rs_fn_name(RS_FN_PARAMS));
    return RS_OK;
}

int rs_ws_set_param_index(rs_ws *ws, int i, double value)
{
    if (!ws || ws->magic != RS_WS_MAGIC || i < 0 || i >= ws->model->n_p)
        return RS_E_ARG;
    ws->p[i] = value;
    ws->p_set[i] = 1;
    ws->constants_dirty = 1;
    return follow_dependent(ws);
}

int rs_ws_set_param(rs_ws *ws, const char *name, double value)
{
    int i, st = lookup(ws, name, RS_VAR_P, "parameter", &i);
    return st ? st : rs_ws_set_param_index(ws, i, value);
}

int rs_ws_set_q(rs_ws *ws, const char *name, double value)
{
    int i, st = lookup(ws, name, RS_VAR_Q, "coordinate", &i);
    if (!st)
        ws->q[i] = value;
    return st;
}

int rs_ws_set_qd(rs_ws *ws, const char *name, double value)
{
    int i, st = lookup(ws, name, RS_VAR_QD, "velocity", &i);
    if (!st)
        ws->qd[i] = value;
    return st;
}

int rs_ws_set_u(rs_ws *ws, const char *name, double value)
{
    int i, st = lookup(ws, name, RS_VAR_U, "input", &i);
    if (!st) {
        ws->u[i] = value;
        if (ws->ct)
            ws->cops->inputs_changed(ws->ct);
    }
    return st;
}

void rs_ws_get_z(const rs_ws *ws, double *z)
{
    const rs_model *m = ws->model;
    for (int i = 0; i < m->n_z; i++)
        z[i] = ws->u[m->z_slot[i]];
}

void rs_ws_put_z(rs_ws *ws, const double *z)
{
    const rs_model *m = ws->model;
    for (int i = 0; i < m->n_z; i++)
        ws->u[m->z_slot[i]] = z[i];
}

int rs_ws_set_time(rs_ws *ws, double t)
{
    if (!ws || ws->magic != RS_WS_MAGIC || !isfinite(t))
        return RS_E_ARG;
    ws->t = ws->t_base = t;
    ws->n_since_base = 0;
    return RS_OK;
}

int rs_ws_set_dt(rs_ws *ws, double dt)
{
    if (!ws || ws->magic != RS_WS_MAGIC || !(dt > 0) || !isfinite(dt))
        return RS_E_ARG;
    /* Restart the time base so t stays t_base + n·dt with one dt. */
    ws->t_base = ws->t;
    ws->n_since_base = 0;
    ws->dt = dt;
    ws->opt.dt = dt;
    return RS_OK;
}

double rs_ws_value(const rs_ws *ws, rs_var v, const double *outputs)
{
    switch (v.kind) {
    case RS_VAR_TIME: return ws->t;
    case RS_VAR_Q: return ws->q[v.index];
    case RS_VAR_QD: return ws->qd[v.index];
    case RS_VAR_S: return ws->s[v.index];
    case RS_VAR_SD: return ws->sd[v.index];
    case RS_VAR_P: return ws->p[v.index];
    case RS_VAR_U: return ws->u[v.index];
    case RS_VAR_LAMBDA: /* the elastic contact's view has no contact rows */
        return v.index < ws->model->n_phi ? ws->lambda[v.index] : NAN;
    case RS_VAR_OUTPUT: return outputs ? outputs[v.index] : NAN;
    case RS_VAR_CONTACT: {
        const int i = v.index / RS_CONTACT_VAR_STRIDE, k = v.index % RS_CONTACT_VAR_STRIDE;
        if (k == RS_CONTACT_VAR_N && !(ws->cops && ws->cops->elastic))
            return -ws->lambda[ws->model->contacts[i].phi_row];
        if (!ws->ct)
            return NAN;
        return ws->cops->value(ws, i, k);
    }
    case RS_VAR_STAT:
        return v.index == RS_STAT_VAR_NEWTON_CONTACT ? ws->stats.contact_iters_last
                                                     : ws->stats.proj_iters_last;
    case RS_VAR_ENERGY:
        return v.index < RS_ENERGY_VAR_POWER ? ws->energy[v.index]
                                             : ws->power[v.index - RS_ENERGY_VAR_POWER];
    }
    return NAN;
}
