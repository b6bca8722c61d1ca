/*
 * rs_train.c — see rs_train.h.  The vehicle and coupler functions are the
 * rs_park block and link functions; each writes its forces and their exact
 * Jacobians (tests/physics/test_train.c checks them against central differences).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_train.h"
#include "rs_train_model.h"

#define NQ RS_WAGON_NQ
#define AT(i, j) ((i) + (j) * NQ)

struct rs_train {
    rs_allocator alloc;
    int nv;
    rs_wagon *veh;          /* nv, traction tables point into `tables` */
    rs_coupler *cpl;        /* nv - 1 */
    double *tables;
    char *names;            /* vehicle names then coupler names, 64 each */
    rs_park_block *blocks;
    rs_park_link *links;
    rs_park *pk;
    double mass;
    double *mx;             /* nv: longitudinal mass of each vehicle */
    int *ports;             /* 2 nv: x and pitch coordinate of each vehicle (pitch -1: none) */
    int *nports;            /* nv: 1 or 2 */
    rs_compiled_vehicle **mv;           /* nv: compiled vehicles' instances (NULL: built-in) */
    double **init;          /* nv: compiled vehicles' q0, q̇0 (2 n), NULL: none */
    unsigned char **iset;   /* nv: their set flags (2 n), then 2 n scratch flags */
    int has_states;         /* a compiled vehicle has internal states or plugins */
    int has_events;         /* a compiled vehicle has the elastic contact */
    rs_train_event_cb ev_fn;/* rs_train_set_event_fn                      */
    void *ev_ctx;
    int err_vehicle;        /* the vehicle rs_train_start failed on, or -1 */
    char err[1024];
};

enum { NAME_LEN = 64 };

void rs_wagon_default(rs_wagon *w)
{
    memset(w, 0, sizeof *w);
    w->m_body = 71000.0;
    w->i_pitch = 1.16e6;
    w->m_bogie = 4500.0;
    w->a = 4.5;
    w->k_s = 4e6;
    w->c_s = 5e4;
    w->c_hertz = 4e11;
    w->c_contact = 2e5;
    w->l_front = 7.5;
    w->l_rear = 7.5;
    w->h_coupler = -0.7;
    w->r0 = 0.0015;
    w->r1 = 0.0;
    w->v_s = 0.05;
    w->g = 9.81;
    w->traction = 0.0;
}

void rs_loco_default(rs_wagon *w)
{
    rs_wagon_default(w);
    w->m_body = 90000.0;
    w->i_pitch = 2.7e6;
    w->m_bogie = 15000.0;
    w->a = 5.5;
    w->k_s = 8e6;
    w->c_s = 1e5;
    w->c_hertz = 6e11;
    w->l_front = 10.0;
    w->l_rear = 10.0;
}

void rs_coupler_default(rs_coupler *c)
{
    memset(c, 0, sizeof *c);
    c->k = 2e7;
    c->c = 1e5;
    c->length = 0.0;
    c->slack = 0.0;
    c->buffer_gap = 0.08;
    c->k_buffer = 0.0;
}

static double mx_of(const rs_wagon *w) { return w->m_body + 2.0 * w->m_bogie; }

double rs_wagon_traction(const rs_wagon *w, double t)
{
    const int n = w->traction_n;
    if (n <= 0)
        return w->traction;
    const double *T = w->traction_t, *F = w->traction_f;
    if (t <= T[0])
        return F[0];
    if (t >= T[n - 1])
        return F[n - 1];
    int lo = 0, hi = n - 1;   /* T[lo] <= t < T[hi] */
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (T[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return F[lo] + (F[hi] - F[lo]) * (t - T[lo]) / (T[hi] - T[lo]);
}

void rs_wagon_static(const rs_wagon *w, double *q)
{
    const double load = 0.5 * w->m_body * w->g + w->m_bogie * w->g;   /* on each bogie's wheels */
    const double delta = load > 0.0 ? pow(load / w->c_hertz, 2.0 / 3.0) : 0.0;
    const double d = -0.5 * w->m_body * w->g / w->k_s;                /* suspension, compressed */
    q[RS_WAGON_Z1] = -delta;
    q[RS_WAGON_Z2] = -delta;
    q[RS_WAGON_PITCH] = 0.0;
    q[RS_WAGON_Z] = -delta + d;
}

void rs_wagon_eval(const rs_wagon *w, double t, const double *q, const double *qd, double *M, double *F, double *K,
                   double *C)
{
    const double mx = mx_of(w), g = w->g;
    M[AT(0, 0)] = mx;
    M[AT(1, 1)] = w->m_body;
    M[AT(2, 2)] = w->i_pitch;
    M[AT(3, 3)] = w->m_bogie;
    M[AT(4, 4)] = w->m_bogie;
    /* longitudinal: traction minus rolling resistance */
    const double v = qd[RS_WAGON_X], den = sqrt(v * v + w->v_s * w->v_s);
    F[RS_WAGON_X] = rs_wagon_traction(w, t) - mx * g * (w->r0 * v / den + w->r1 * v);
    C[AT(0, 0)] = mx * g * (w->r0 * w->v_s * w->v_s / (den * den * den) + w->r1);
    /* gravity */
    F[RS_WAGON_Z] -= w->m_body * g;
    F[RS_WAGON_Z1] -= w->m_bogie * g;
    F[RS_WAGON_Z2] -= w->m_bogie * g;
    for (int k = 0; k < 2; k++) {
        const int iz = k == 0 ? RS_WAGON_Z1 : RS_WAGON_Z2;
        const double s = k == 0 ? w->a : -w->a;
        /* suspension: d = z + s θ − z_k, force f = k_s d + c_s ḋ pushes
         * body and bogie apart when compressed */
        const double d = q[RS_WAGON_Z] + s * q[RS_WAGON_PITCH] - q[iz];
        const double dd = qd[RS_WAGON_Z] + s * qd[RS_WAGON_PITCH] - qd[iz];
        const double f = w->k_s * d + w->c_s * dd;
        const int idx[3] = {RS_WAGON_Z, RS_WAGON_PITCH, iz};
        const double gv[3] = {1.0, s, -1.0};
        for (int i = 0; i < 3; i++) {
            F[idx[i]] -= f * gv[i];
            for (int j = 0; j < 3; j++) {
                K[AT(idx[i], idx[j])] += w->k_s * gv[i] * gv[j];
                C[AT(idx[i], idx[j])] += w->c_s * gv[i] * gv[j];
            }
        }
        /* Hertzian normal contact of the bogie's wheels */
        const double delta = -q[iz];
        if (delta > 0.0) {
            const double sq = sqrt(delta);
            F[iz] += w->c_hertz * delta * sq - w->c_contact * qd[iz];
            K[AT(iz, iz)] += 1.5 * w->c_hertz * sq;
            C[AT(iz, iz)] += w->c_contact;
        }
    }
}

/* The vehicle as an rs_park block function. */
static int wagon_fn(void *ctx, int b, double t, const double *q, const double *qd, double *M, double *F, double *K,
                    double *C)
{
    const rs_train *tr = ctx;
    const rs_wagon *w = &tr->veh[b];
    if (!tr->mv[b]) {
        rs_wagon_eval(w, t, q, qd, M, F, K, C);
        return 0;
    }
    /* a compiled model: its M, δ, K, C, then traction and rolling
     * resistance on the x coordinate, as for the built-in model */
    const int st = rs_compiled_vehicle_eval(tr->mv[b], t, q, qd, M, F, K, C);
    if (st != RS_OK)
        return st;
    const int ix = w->port_x, n = tr->blocks[b].n;
    const double mx = tr->mx[b], v = qd[ix], den = sqrt(v * v + w->v_s * w->v_s);
    F[ix] += rs_wagon_traction(w, t) - mx * w->g * (w->r0 * v / den + w->r1 * v);
    C[ix + ix * n] += mx * w->g * (w->r0 * w->v_s * w->v_s / (den * den * den) + w->r1);
    return 0;
}

/* After Park's solve (rs_park_after_fn): a compiled vehicle's elastic
 * wheels apply their forces linearized to the step's end; a patch that
 * would pull opens and the step solves again (rs_train_contact.h). */
static int wagon_after(void *ctx, int b, const double *dq, double ib, int may_change)
{
    rs_train *tr = ctx;
    rs_train_wheel_contact *tc = tr->mv[b] ? rs_compiled_vehicle_contact(tr->mv[b]) : NULL;
    return tc ? rs_train_wheel_contact_after_solve(tc, dq, ib, may_change) : 0;
}

double rs_coupler_force(const rs_coupler *c, const rs_wagon *ahead, const rs_wagon *behind, const double *q,
                        const double *qd, double *e_out, double *dfde, double *dfdv)
{
    const double ha = ahead->h_coupler, hb = behind->h_coupler;
    const double e = (q[0] - ahead->l_rear - ha * q[1]) - (q[2] + behind->l_front - hb * q[3]) - c->length;
    const double ed = qd[0] - ha * qd[1] - qd[2] + hb * qd[3];
    const double half = 0.5 * c->slack;
    double f = 0.0, kf = 0.0, cf = 0.0;
    if (e > half) {
        kf = c->k;
        f = c->k * (e - half);
    } else if (e < -half) {
        kf = c->k;
        f = c->k * (e + half);
        const double eb = e + half + c->buffer_gap;
        if (c->k_buffer > 0.0 && eb < 0.0) {
            kf += c->k_buffer;
            f += c->k_buffer * eb;
        }
    }
    if (kf > 0.0) {   /* engaged: the damper acts too */
        cf = c->c;
        f += c->c * ed;
    }
    if (e_out)
        *e_out = e;
    if (dfde)
        *dfde = kf;
    if (dfdv)
        *dfdv = cf;
    return f;
}

void rs_coupler_eval(const rs_coupler *c, const rs_wagon *a, const rs_wagon *b, const double *q, const double *qd,
                     double *F, double *K, double *C)
{
    double kf, cf;
    const double f = rs_coupler_force(c, a, b, q, qd, NULL, &kf, &cf);
    const double gv[4] = {1.0, -a->h_coupler, -1.0, b->h_coupler};   /* ∂e/∂(ports) */
    for (int i = 0; i < 4; i++) {
        F[i] = -f * gv[i];
        for (int j = 0; j < 4; j++) {
            K[i + 4 * j] = kf * gv[i] * gv[j];
            C[i + 4 * j] = cf * gv[i] * gv[j];
        }
    }
}

/* The coupler as an rs_park link function: ports (x_a, θ_a, x_b, θ_b). */
static int coupler_fn(void *ctx, int l, double t, const double *q, const double *qd, double *F, double *K, double *C)
{
    (void)t;
    const rs_train *tr = ctx;
    const int na = tr->nports[l], nb = tr->nports[l + 1];
    if (na == 2 && nb == 2) {
        rs_coupler_eval(&tr->cpl[l], &tr->veh[l], &tr->veh[l + 1], q, qd, F, K, C);
        return 0;
    }
    /* a side without a pitch port: its pitch is 0 in the coupler law and
     * its row and column are dropped */
    const int pos[4] = {0, na == 2 ? 1 : -1, na, nb == 2 ? na + 1 : -1};
    double q4[4], v4[4], F4[4], K4[16], C4[16];
    for (int i = 0; i < 4; i++) {
        q4[i] = pos[i] >= 0 ? q[pos[i]] : 0.0;
        v4[i] = pos[i] >= 0 ? qd[pos[i]] : 0.0;
    }
    rs_coupler_eval(&tr->cpl[l], &tr->veh[l], &tr->veh[l + 1], q4, v4, F4, K4, C4);
    const int p = na + nb;
    for (int i = 0; i < 4; i++) {
        if (pos[i] < 0)
            continue;
        F[pos[i]] = F4[i];
        for (int j = 0; j < 4; j++)
            if (pos[j] >= 0) {
                K[pos[i] + p * pos[j]] = K4[i + 4 * j];
                C[pos[i] + p * pos[j]] = C4[i + 4 * j];
            }
    }
    return 0;
}

/* ------------------------------------------------------------ checks */

int rs_wagon_check(const rs_wagon *w, const char *name, char *err, size_t errlen)
{
    struct {
        const char *p;
        double v;
        int positive;   /* 1: > 0, 0: >= 0, -1: finite */
    } c[] = {{"m_body", w->m_body, 1}, {"i_pitch", w->i_pitch, 1}, {"m_bogie", w->m_bogie, 1},
             {"a", w->a, 1}, {"k_s", w->k_s, 1}, {"c_s", w->c_s, 0}, {"c_hertz", w->c_hertz, 1},
             {"c_contact", w->c_contact, 0}, {"l_front", w->l_front, 0}, {"l_rear", w->l_rear, 0},
             {"h_coupler", w->h_coupler, -1}, {"r0", w->r0, 0}, {"r1", w->r1, 0}, {"v_s", w->v_s, 1},
             {"g", w->g, 0}, {"traction", w->traction, -1}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const double v = c[i].v;
        if (!isfinite(v) || (c[i].positive == 1 && !(v > 0.0)) || (c[i].positive == 0 && v < 0.0))
            return rs_fail(err, errlen, RS_E_ARG, "vehicle '%s': %s = %g must be %s", name, c[i].p, v,
                           c[i].positive == 1 ? "> 0" : c[i].positive == 0 ? ">= 0" : "finite");
    }
    if (w->traction_n < 0 || (w->traction_n > 0 && (!w->traction_t || !w->traction_f)))
        return rs_fail(err, errlen, RS_E_ARG,
                       "vehicle '%s': traction table with %d rows and no data", name, w->traction_n);
    for (int i = 0; i < w->traction_n; i++) {
        if (!isfinite(w->traction_t[i]) || !isfinite(w->traction_f[i]) ||
            (i > 0 && !(w->traction_t[i] > w->traction_t[i - 1]))) {
            return rs_fail(err, errlen, RS_E_ARG,
                           "vehicle '%s': traction table row %d: times must increase and values be finite",
                           name, i + 1);
        }
    }
    return RS_OK;
}

int rs_coupler_check(const rs_coupler *c, const char *name, char *err, size_t errlen)
{
    struct {
        const char *p;
        double v;
        int positive;
    } k[] = {{"k", c->k, 1},         {"c", c->c, 0},           {"length", c->length, -1},
             {"slack", c->slack, 0}, {"buffer_gap", c->buffer_gap, 0}, {"k_buffer", c->k_buffer, 0}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const double v = k[i].v;
        if (!isfinite(v) || (k[i].positive == 1 && !(v > 0.0)) || (k[i].positive == 0 && v < 0.0))
            return rs_fail(err, errlen, RS_E_ARG, "coupler '%s': %s = %g must be %s", name, k[i].p, v,
                           k[i].positive == 1 ? "> 0" : k[i].positive == 0 ? ">= 0" : "finite");
    }
    return RS_OK;
}

/* ------------------------------------------------------------ train */

void rs_train_free(rs_train **ptr)
{
    if (!ptr || !*ptr)
        return;
    rs_train *tr = *ptr;
    const rs_allocator a = tr->alloc;
    rs_park_free(&tr->pk);
    if (tr->mv)
        for (int v = 0; v < tr->nv; v++)
            rs_compiled_vehicle_free(&tr->mv[v]);
    rs_free(&a, tr->mv);
    for (int v = 0; v < tr->nv; v++) {
        if (tr->init)
            rs_free(&a, tr->init[v]);
        if (tr->iset)
            rs_free(&a, tr->iset[v]);
    }
    rs_free(&a, tr->init);
    rs_free(&a, tr->iset);
    rs_free(&a, tr->mx);
    rs_free(&a, tr->ports);
    rs_free(&a, tr->nports);
    rs_free(&a, tr->veh);
    rs_free(&a, tr->cpl);
    rs_free(&a, tr->tables);
    rs_free(&a, tr->names);
    rs_free(&a, tr->blocks);
    rs_free(&a, tr->links);
    rs_free(&a, tr);
    *ptr = NULL;
}

/* Every vehicle and coupler valid, and a compiled vehicle's ports
 * coordinates of its model. */
static int check_train(int nv, const rs_wagon *veh, const char *const *vnames, const rs_coupler *cpl,
                       const char *const *cnames, char *err, size_t errlen)
{
    char name[NAME_LEN];
    for (int v = 0; v < nv; v++) {
        snprintf(name, sizeof name, "%s", vnames && vnames[v] ? vnames[v] : "?");
        if (!(vnames && vnames[v]))
            snprintf(name, sizeof name, "v%d", v);
        int st = rs_wagon_check(&veh[v], name, err, errlen);
        if (st != RS_OK)
            return st;
        if (veh[v].model) {
            const rs_model *m = veh[v].model;
            char e2[200];
            if (veh[v].port_x < 0 || veh[v].port_x >= m->n_q || veh[v].port_pitch < -1 ||
                veh[v].port_pitch >= m->n_q || veh[v].port_pitch == veh[v].port_x) {
                return rs_fail(err, errlen, RS_E_ARG,
                               "vehicle '%s': port coordinates x = %d, pitch = %d are not distinct coordinates of model '%s' "
                               "(0..%d; pitch -1: none)",
                               name, veh[v].port_x, veh[v].port_pitch, m->name ? m->name : "?", m->n_q - 1);
            }
            st = rs_compiled_vehicle_check_model(m, m->q_names[veh[v].port_x], NULL, NULL, NULL, e2, sizeof e2);
            if (st != RS_OK)
                return rs_fail(err, errlen, st, "vehicle '%s': %s", name, e2);
        }
    }
    for (int c = 0; c + 1 < nv; c++) {
        if (cnames && cnames[c])
            snprintf(name, sizeof name, "%s", cnames[c]);
        else
            snprintf(name, sizeof name, "c%d", c);
        const int st = rs_coupler_check(&cpl[c], name, err, errlen);
        if (st != RS_OK)
            return st;
    }
    return RS_OK;
}

/* The train's per-vehicle arrays (ntab: doubles of the traction tables).
 * 0, or -1 when out of memory. */
static int alloc_arrays(rs_train *tr, size_t ntab)
{
    const rs_allocator *a = &tr->alloc;
    const size_t nv = (size_t)tr->nv;
    tr->veh = rs_alloc(a, nv, sizeof *tr->veh);
    tr->cpl = rs_alloc(a, nv, sizeof *tr->cpl);
    tr->tables = rs_alloc(a, ntab, sizeof(double));
    tr->names = rs_alloc(a, 2 * nv, NAME_LEN);
    tr->blocks = rs_alloc(a, nv, sizeof *tr->blocks);
    tr->links = rs_alloc(a, nv, sizeof *tr->links);
    tr->mx = rs_alloc(a, nv, sizeof *tr->mx);
    tr->ports = rs_alloc(a, 2 * nv, sizeof *tr->ports);
    tr->nports = rs_alloc(a, nv, sizeof *tr->nports);
    tr->mv = rs_alloc(a, nv, sizeof *tr->mv);
    tr->init = rs_alloc(a, nv, sizeof *tr->init);
    tr->iset = rs_alloc(a, nv, sizeof *tr->iset);
    return tr->veh && tr->cpl && tr->tables && tr->names && tr->blocks && tr->links && tr->mx && tr->ports &&
                   tr->nports && tr->mv && tr->init && tr->iset
               ? 0
               : -1;
}

/* m_x of compiled vehicle v: its mass matrix's entry on the x port at
 * q = 0, q̇ = 0, and the evaluation's status in *eval_st.  0, or -1 when
 * out of memory. */
static int compiled_mx(rs_train *tr, int v, int port_x, double *mx, int *eval_st)
{
    const rs_allocator *a = &tr->alloc;
    const int n = rs_compiled_vehicle_model(tr->mv[v])->n_q;
    double *Mtmp = rs_alloc(a, (size_t)n * (size_t)n, sizeof(double)),
           *q0 = rs_alloc(a, (size_t)n, sizeof(double));
    if (!Mtmp || !q0) {
        rs_free(a, Mtmp);
        rs_free(a, q0);
        return -1;
    }
    *eval_st = rs_compiled_vehicle_eval(tr->mv[v], 0.0, q0, q0, Mtmp, NULL, NULL, NULL);
    *mx = Mtmp[port_x * (n + 1)];
    rs_free(a, Mtmp);
    rs_free(a, q0);
    return 0;
}

/* Vehicle v is a compiled model: its instance (with its contacts), its
 * initial values, its block size and ports, and m_x. */
static int set_up_compiled(rs_train *tr, int v, const rs_wagon *w, const char *nm, char *err, size_t errlen)
{
    const rs_model *m = w->model;
    char e2[400];
    const rs_compiled_vehicle_opts vo = {w->model_contact, w->model_p_set, w->init_z, w->model_plugins};
    const int st = rs_compiled_vehicle_create_opts(&tr->mv[v], m, w->model_p, w->model_u, &vo, &tr->alloc, e2,
                                                   sizeof e2);
    if (st != RS_OK)
        return rs_fail(err, errlen, st, "vehicle '%s': %s%s", nm, e2,
                       st == RS_E_IO && m->n_contact > 0
                           ? " (a train file names that folder with 'contact_files FOLDER' in the vehicle block)"
                           : "");
    const size_t nq = (size_t)m->n_q;
    tr->init[v] = rs_alloc(&tr->alloc, 2 * nq, sizeof(double));
    tr->iset[v] = rs_alloc(&tr->alloc, 4 * nq, 1);
    if (!tr->init[v] || !tr->iset[v])
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_train_create: out of memory (%d vehicles)", tr->nv);
    for (size_t i = 0; i < nq; i++) {
        if (w->init_q && w->init_q_set && w->init_q_set[i]) {
            tr->init[v][i] = w->init_q[i];
            tr->iset[v][i] = 1;
        }
        if (w->init_qd && w->init_qd_set && w->init_qd_set[i]) {
            tr->init[v][nq + i] = w->init_qd[i];
            tr->iset[v][nq + i] = 1;
        }
    }
    tr->blocks[v].n = m->n_q;
    tr->has_states |= m->n_z > 0 || m->n_plugin > 0;
    tr->ports[2 * v] = w->port_x;
    tr->ports[2 * v + 1] = w->port_pitch;
    tr->nports[v] = w->port_pitch >= 0 ? 2 : 1;
    double mxv;
    int se;
    if (compiled_mx(tr, v, w->port_x, &mxv, &se))
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_train_create: out of memory (%d vehicles)", tr->nv);
    if (se != RS_OK || !(mxv > 0.0) || !isfinite(mxv))
        return rs_fail(err, errlen, RS_E_ARG,
                       "vehicle '%s': model '%s' has no positive mass on its x coordinate '%s' (M = %g)", nm, m->name,
                       m->q_names[w->port_x], mxv);
    tr->mx[v] = mxv;
    return RS_OK;
}

/* Vehicle v: a copy of veh (its traction table into the train's, the
 * borrowed pointers cleared), its name, its block and ports; a compiled
 * one's instance. */
static int set_up_vehicle(rs_train *tr, int v, const rs_wagon *veh, const char *vname, double **tab, char *err,
                          size_t errlen)
{
    tr->veh[v] = *veh;
    tr->veh[v].model_contact = NULL;   /* borrowed: used at create only */
    tr->veh[v].init_q = tr->veh[v].init_qd = NULL;
    tr->veh[v].init_q_set = tr->veh[v].init_qd_set = NULL;
    tr->veh[v].model_p_set = NULL;
    tr->veh[v].init_z = NULL;
    const int n = veh->traction_n;
    if (n > 0) {
        memcpy(*tab, veh->traction_t, (size_t)n * sizeof(double));
        memcpy(*tab + n, veh->traction_f, (size_t)n * sizeof(double));
        tr->veh[v].traction_t = *tab;
        tr->veh[v].traction_f = *tab + n;
        *tab += 2 * n;
    }
    char *nm = tr->names + (size_t)v * NAME_LEN;
    if (vname)
        snprintf(nm, NAME_LEN, "%s", vname);
    else
        snprintf(nm, NAME_LEN, "v%d", v);
    tr->blocks[v] = (rs_park_block){nm, NQ};
    tr->mx[v] = mx_of(veh);
    tr->ports[2 * v] = RS_WAGON_X;
    tr->ports[2 * v + 1] = RS_WAGON_PITCH;
    tr->nports[v] = 2;
    if (veh->model) {
        const int st = set_up_compiled(tr, v, veh, nm, err, errlen);
        if (st != RS_OK)
            return st;
    }
    tr->mass += tr->mx[v];
    return RS_OK;
}

int rs_train_create(rs_train **out, int nv, const rs_wagon *veh, const char *const *vnames, const rs_coupler *cpl,
                    const char *const *cnames, const rs_park_opts *opts, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || nv < 1 || !veh || (nv > 1 && !cpl))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_train_create: a train needs at least one vehicle (and nv - 1 couplers)");
    int st = check_train(nv, veh, vnames, cpl, cnames, err, errlen);
    if (st != RS_OK)
        return st;
    rs_allocator a = {0};
    if (opts && opts->allocator.alloc && opts->allocator.release)
        a = opts->allocator;
    rs_train *tr = rs_alloc(&a, 1, sizeof *tr);
    if (!tr)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_train_create: out of memory");
    tr->alloc = a;
    tr->nv = nv;
    tr->err_vehicle = -1;
    size_t ntab = 0;
    for (int v = 0; v < nv; v++)
        ntab += 2 * (size_t)veh[v].traction_n;
    if (alloc_arrays(tr, ntab)) {
        rs_fail(err, errlen, RS_E_NOMEM, "rs_train_create: out of memory (%d vehicles)", nv);
        rs_train_free(&tr);
        return RS_E_NOMEM;
    }
    double *tab = tr->tables;
    for (int v = 0; v < nv; v++) {
        st = set_up_vehicle(tr, v, &veh[v], vnames ? vnames[v] : NULL, &tab, err, errlen);
        if (st != RS_OK) {
            rs_train_free(&tr);
            return st;
        }
    }
    for (int c = 0; c + 1 < nv; c++) {
        tr->cpl[c] = cpl[c];
        char *nm = tr->names + (size_t)(nv + c) * NAME_LEN;
        if (cnames && cnames[c])
            snprintf(nm, NAME_LEN, "%s", cnames[c]);
        else
            snprintf(nm, NAME_LEN, "c%d", c);
        tr->links[c] = (rs_park_link){nm, c, c + 1, tr->nports[c], tr->nports[c + 1], tr->ports + 2 * c,
                                      tr->ports + 2 * (c + 1)};
    }
    int symmetric = 1;
    for (int v = 0; v < nv; v++)
        if (tr->mv[v])
            symmetric = 0;
    const rs_park_sys sys = {nv, nv - 1, tr->blocks, tr->links, wagon_fn, coupler_fn, tr, symmetric};
    st = rs_park_create(&tr->pk, &sys, opts, err, errlen);
    if (st != RS_OK) {
        rs_train_free(&tr);
        return st;
    }
    /* elastic wheels only: the hook costs a barrier per solve */
    for (int v = 0; v < nv; v++) {
        rs_train_wheel_contact *tc = tr->mv[v] ? rs_compiled_vehicle_contact(tr->mv[v]) : NULL;
        if (tc && rs_train_wheel_contact_elastic(tc)) {
            rs_park_set_after_fn(tr->pk, wagon_after);
            tr->has_events = 1;
        }
    }
    *out = tr;
    return RS_OK;
}

/* 1 when coordinate name c moves with the vehicle whose x port is named
 * x: c is x, or ends in ".x" (a template's copy). */
static int moves_with(const char *c, const char *x)
{
    const size_t lc = strlen(c), lx = strlen(x);
    return strcmp(c, x) == 0 || (lc > lx + 1 && c[lc - lx - 1] == '.' && strcmp(c + lc - lx, x) == 0);
}

/* After steady rolling, every wheel of vehicle v rolls: a longitudinal
 * creepage above 10 % (sliding; rolling creeps by a few per mille) means a
 * spin steady rolling could not find — one held by a gear or a spring, so
 * not cyclic (the FEVE 3000's, geared to its motors) — and the vehicle
 * would start with its wheels sliding at full friction: refused, saying
 * what to give.  A vehicle given any velocity but its forward ones starts
 * as given (a wheel may be meant to slide: a locked wheelset). */
static int check_rolling(rs_train *tr, int v, double t0, const double *qv, const double *vv, double v0)
{
    rs_compiled_vehicle *mv = tr->mv[v];
    rs_train_wheel_contact *tc = rs_compiled_vehicle_contact(mv);
    const int st = rs_compiled_vehicle_eval(mv, t0, qv, vv, NULL, NULL, NULL, NULL);
    if (st != RS_OK)
        return rs_fail(tr->err, sizeof tr->err, st, "vehicle '%s': %s", rs_train_vehicle_name(tr, v),
                       rs_train_wheel_contact_error(tc));
    for (int i = 0; i < rs_train_wheel_contact_count(tc); i++) {
        const double xi = rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_XI_X);
        if (fabs(xi) > 0.1)   /* NaN (no creepage: no contact) passes */
            return rs_fail(tr->err, sizeof tr->err, RS_E_ARG,
                           "vehicle '%s': its wheel at contact '%s' would start sliding (longitudinal creepage "
                           "%.0f %% at %g m/s): steady rolling finds the spins of free wheels only, and this "
                           "one's is held (geared or sprung): give the velocities of its spinning coordinates in "
                           "the vehicle's block, NAME_dot = VALUE (the speed over the rolling radius, in rad/s)",
                           rs_train_vehicle_name(tr, v), rs_train_wheel_contact_name(tc, i), 100 * fabs(xi), v0);
    }
    return RS_OK;
}

/* Places compiled vehicle v at x moving at v0 (rs_train_start's rules). */
static int start_model(rs_train *tr, int v, double t0, double x, double v0, double *qv, double *vv)
{
    const rs_model *m = tr->veh[v].model;
    const int n = m->n_q, ix = tr->ports[2 * v];
    const double *q0 = tr->init[v], *qd0 = q0 + n;
    const unsigned char *qs = tr->iset[v], *qds = qs + n;
    unsigned char *fix = tr->iset[v] + 2 * n, *vfix = fix + n;
    const char *vn = rs_train_vehicle_name(tr, v);
    int spins_given = 0;   /* a velocity given other than a forward one */
    for (int i = 0; i < n; i++) {
        const int along = moves_with(m->q_names[i], m->q_names[ix]);
        spins_given |= qds[i] && !along;
        /* a value given, else the description's (`coord NAME = VALUE`) */
        qv[i] = (along ? x : 0.0) + (qs[i] ? q0[i] : m->q0 ? m->q0[i] : 0.0);
        vv[i] = qds[i] ? qd0[i] : along ? (qds[ix] ? qd0[ix] : v0) : 0.0;
        fix[i] = i == ix || qs[i];
        vfix[i] = i == ix || qds[i];
    }
    rs_compiled_vehicle *mv = tr->mv[v];
    rs_train_wheel_contact *tc = rs_compiled_vehicle_contact(mv);
    int bad = -1;
    int st = rs_compiled_vehicle_static_mask(mv, t0, qv, fix, &bad);
    if (st != RS_OK) {
        if (st == RS_E_SINGULAR && bad >= 0)
            return rs_fail(tr->err, sizeof tr->err, st,
                           "vehicle '%s': no static equilibrium: coordinate '%s' has no restoring stiffness (set its "
                           "value in the train file to hold it)",
                           vn, m->q_names[bad]);
        return rs_fail(tr->err, sizeof tr->err, st, "vehicle '%s': no static equilibrium (%s)%s%s", vn,
                       rs_status_name(st), tc ? ": " : "", tc ? rs_train_wheel_contact_error(tc) : "");
    }
    if (tc && (st = rs_compiled_vehicle_steady(mv, t0, qv, vv, vfix, &bad)) != RS_OK)
        return rs_fail(tr->err, sizeof tr->err, st, "vehicle '%s': no steady motion at %g m/s (%s)%s%s", vn, v0,
                       rs_status_name(st), rs_train_wheel_contact_error(tc)[0] ? ": " : "",
                       rs_train_wheel_contact_error(tc));
    if (tc && !spins_given && (st = check_rolling(tr, v, t0, qv, vv, v0)) != RS_OK)
        return st;
    /* internal states: their rates at the start (b < 0 checked) */
    if ((st = rs_compiled_vehicle_z_start(mv, t0, qv, vv)) != RS_OK)
        return rs_fail(tr->err, sizeof tr->err, st, "vehicle '%s': %s", vn, rs_compiled_vehicle_error(mv));
    return RS_OK;
}

int rs_train_start(rs_train *tr, double t0, double x_front, double v0)
{
    double *q = rs_park_q(tr->pk), *qd = rs_park_qd(tr->pk);
    double x = x_front;
    tr->err[0] = 0;
    tr->err_vehicle = -1;
    for (int v = 0; v < tr->nv; v++) {
        const int o = rs_park_offset(tr->pk, v), n = tr->blocks[v].n, ix = tr->ports[2 * v];
        double *qv = q + o, *vv = qd + o;
        if (v > 0)
            x -= tr->veh[v - 1].l_rear + tr->cpl[v - 1].length + tr->veh[v].l_front;
        for (int i = 0; i < n; i++)
            vv[i] = 0.0;
        if (tr->mv[v]) {
            const int st = start_model(tr, v, t0, x, v0, qv, vv);
            if (st != RS_OK) {
                tr->err_vehicle = v;
                return st;
            }
        } else {
            qv[RS_WAGON_X] = x;
            rs_wagon_static(&tr->veh[v], qv);
            vv[ix] = v0;
        }
    }
    rs_park_set_t(tr->pk, t0);
    const int st = rs_park_init(tr->pk);
    if (st != RS_OK)
        return rs_fail(tr->err, sizeof tr->err, st, "%s", rs_park_error(tr->pk));
    return st;
}

const char *rs_train_error(const rs_train *tr) { return tr->err; }
int rs_train_error_vehicle(const rs_train *tr) { return tr->err_vehicle; }
rs_train_wheel_contact *rs_train_contact(rs_train *tr, int v) { return tr->mv[v] ? rs_compiled_vehicle_contact(tr->mv[v]) : NULL; }

/* The step's failure in tr->err: the integrator's message, and the
 * reason of the first compiled vehicle that has one. */
static int step_failed(rs_train *tr, int st)
{
    const char *why = "";
    for (int v = 0; v < tr->nv && !why[0]; v++)
        if (tr->mv[v])
            why = rs_compiled_vehicle_error(tr->mv[v]);
    rs_fail(tr->err, sizeof tr->err, st, "%s%s%s", rs_park_error(tr->pk), why[0] ? ": " : "", why);
    return st;
}

void rs_train_set_event_fn(rs_train *tr, rs_train_event_cb fn, void *ctx)
{
    tr->ev_fn = fn;
    tr->ev_ctx = ctx;
}

/* One vehicle's events to the train's sink (rs_train_event_cb). */
typedef struct vehicle_events {
    const rs_train *tr;
    int v;
} vehicle_events;

static void vehicle_event(void *ctx, const rs_contact_event *e, int stops)
{
    const vehicle_events *x = ctx;
    if (x->tr->ev_fn)
        x->tr->ev_fn(x->tr->ev_ctx, x->v, e, stops);
}

/* The step's flange climbing and derailment, vehicle by vehicle (the
 * step is final: no after-solve left to change a wheel's wrench). */
static int step_events(rs_train *tr)
{
    const double t = rs_park_t(tr->pk), h = rs_park_h(tr->pk);
    for (int v = 0; v < tr->nv; v++) {
        rs_train_wheel_contact *tc = tr->mv[v] ? rs_compiled_vehicle_contact(tr->mv[v]) : NULL;
        if (!tc)
            continue;
        vehicle_events x = {tr, v};
        const int st = rs_train_wheel_contact_events(tc, t, h, vehicle_event, &x);
        if (st != RS_OK)
            return rs_fail(tr->err, sizeof tr->err, st, "vehicle '%s': %s", rs_train_vehicle_name(tr, v),
                           rs_train_wheel_contact_error(tc));
    }
    return RS_OK;
}

int rs_train_step(rs_train *tr)
{
    int st = rs_park_step(tr->pk);
    if (st != RS_OK)
        return step_failed(tr, st);
    if (!tr->has_states)
        return tr->has_events ? step_events(tr) : RS_OK;
    /* the accepted state: internal states and plugins' discrete states
     * follow it (their forces in the step saw z advanced to the state
     * evaluated, rs_train_model.h) */
    const double t = rs_park_t(tr->pk), h = rs_park_h(tr->pk);
    for (int v = 0; v < tr->nv; v++) {
        rs_compiled_vehicle *mv = tr->mv[v];
        if (!mv)
            continue;
        const double *q = rs_train_q(tr, v), *qd = rs_train_qd(tr, v);
        if ((st = rs_compiled_vehicle_z_commit(mv, t, q, qd)) != RS_OK ||
            (st = rs_compiled_vehicle_plugin_advance(mv, t, h, q, qd)) != RS_OK)
            return rs_fail(tr->err, sizeof tr->err, st, "t = %.10g s: vehicle '%s': %s", t,
                           rs_train_vehicle_name(tr, v), rs_compiled_vehicle_error(mv));
    }
    return tr->has_events ? step_events(tr) : RS_OK;
}
rs_compiled_vehicle *rs_train_compiled(rs_train *tr, int v) { return tr->mv[v]; }
rs_park *rs_train_park(rs_train *tr) { return tr->pk; }
int rs_train_nvehicles(const rs_train *tr) { return tr->nv; }
const char *rs_train_vehicle_name(const rs_train *tr, int v) { return tr->names + (size_t)v * NAME_LEN; }
const char *rs_train_coupler_name(const rs_train *tr, int c) { return tr->names + (size_t)(tr->nv + c) * NAME_LEN; }
const rs_wagon *rs_train_vehicle(const rs_train *tr, int v) { return &tr->veh[v]; }
double rs_train_mass(const rs_train *tr) { return tr->mass; }
double rs_train_vehicle_mx(const rs_train *tr, int v) { return tr->mx[v]; }
const double *rs_train_q(const rs_train *tr, int v) { return rs_park_q(tr->pk) + rs_park_offset(tr->pk, v); }
const double *rs_train_qd(const rs_train *tr, int v) { return rs_park_qd(tr->pk) + rs_park_offset(tr->pk, v); }
int rs_train_vehicle_nq(const rs_train *tr, int v) { return tr->blocks[v].n; }
double rs_train_x(const rs_train *tr, int v) { return rs_train_q(tr, v)[tr->ports[2 * v]]; }
double rs_train_v(const rs_train *tr, int v) { return rs_train_qd(tr, v)[tr->ports[2 * v]]; }

double rs_train_coupler(const rs_train *tr, int c, double *elongation)
{
    const double *qa = rs_train_q(tr, c), *qb = rs_train_q(tr, c + 1);
    const double *va = rs_train_qd(tr, c), *vb = rs_train_qd(tr, c + 1);
    const int xa = tr->ports[2 * c], pa = tr->ports[2 * c + 1], xb = tr->ports[2 * c + 2], pb = tr->ports[2 * c + 3];
    const double q[4] = {qa[xa], pa >= 0 ? qa[pa] : 0.0, qb[xb], pb >= 0 ? qb[pb] : 0.0};
    const double qd[4] = {va[xa], pa >= 0 ? va[pa] : 0.0, vb[xb], pb >= 0 ? vb[pb] : 0.0};
    return rs_coupler_force(&tr->cpl[c], &tr->veh[c], &tr->veh[c + 1], q, qd, elongation, NULL, NULL);
}
