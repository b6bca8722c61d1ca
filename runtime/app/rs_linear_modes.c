/* rs_linear_modes.c — see rs_linear.h: the reduced first-order eigenproblem
 * (LAPACK dgesv + dgeev), the modes, and the sweep over speeds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_driver.h"
#include "rs_equilibrium.h"
#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_error.h"
#include "rs_linear.h"
#include "rs_linear_lapack.h"
#include "rs_plugin_load.h"
#include "rs_scenario.h"
#include "rs_speed.h"

#define PI 3.14159265358979323846
/* |s| below this fraction of the largest |s|: a rigid (free) motion */
#define RIGID_REL 1e-7

void rs_linear_modes_free(rs_linear_modes *m)
{
    if (!m)
        return;
    free(m->mode);
    free(m->share);
    memset(m, 0, sizeof *m);
}

/* X = Nᵀ A N (A n × n, N n × r, X r × r; all column-major). */
static void project(int n, int r, const double *A, const double *N, double *X, double *tmp)
{
    for (int c = 0; c < r; c++)          /* tmp = A N */
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += A[(size_t)k * n + i] * N[(size_t)c * n + k];
            tmp[(size_t)c * n + i] = s;
        }
    for (int c = 0; c < r; c++)
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += N[(size_t)i * n + k] * tmp[(size_t)c * n + k];
            X[(size_t)c * r + i] = s;
        }
}

static int cmp_mode(const void *a, const void *b)
{
    const rs_linear_mode *x = a, *y = b;
    if (x->rigid != y->rigid)
        return x->rigid - y->rigid;
    return (x->zeta > y->zeta) - (x->zeta < y->zeta);
}

void rs_linear_energy_shares(int n, int r, const double *M, const double *N, const double *vr, const double *vi,
                             double *share, double *work, rs_linear_mode *md)
{
    double *ur = work, *ui = work + n, *Mur = work + 2 * n, *Mui = work + 3 * n;
    for (int i = 0; i < n; i++) {       /* u = N v */
        double re = 0, im = 0;
        for (int c = 0; c < r; c++) {
            re += N[(size_t)c * n + i] * vr[c];
            im += vi ? N[(size_t)c * n + i] * vi[c] : 0;
        }
        ur[i] = re;
        ui[i] = im;
    }
    for (int i = 0; i < n; i++)
        Mur[i] = Mui[i] = 0;
    for (int k = 0; k < n; k++)         /* M u, column by column */
        for (int i = 0; i < n; i++) {
            Mur[i] += M[(size_t)k * n + i] * ur[k];
            Mui[i] += M[(size_t)k * n + i] * ui[k];
        }
    /* Re(conj(u_i) (M u)_i): the kinetic energy at velocity s u is |s|²/2
     * times their sum, so |s| and the eigenvector's scale drop out */
    double E = 0;
    for (int i = 0; i < n; i++)
        E += share[i] = ur[i] * Mur[i] + ui[i] * Mui[i];
    for (int i = 0; i < n; i++)
        share[i] = E > 0 ? share[i] / E : 0;
    for (int k = 0; k < RS_LINEAR_DOM; k++)
        md->dom[k] = -1, md->dom_share[k] = 0;
    for (int i = 0; i < n; i++) {
        if (!(share[i] >= 1e-3))        /* below 0.1 %: not "dominant" */
            continue;
        for (int k = 0; k < RS_LINEAR_DOM; k++)
            if (share[i] > md->dom_share[k]) {
                for (int l = RS_LINEAR_DOM - 1; l > k; l--)
                    md->dom_share[l] = md->dom_share[l - 1], md->dom[l] = md->dom[l - 1];
                md->dom_share[k] = share[i];
                md->dom[k] = i;
                break;
            }
    }
}

int rs_linear_modes_at(rs_ws *ws, rs_linear_modes *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->speed = NAN;
    out->least = -1;
    out->rest_at = -1;
    rs_linear_system sys;
    int st = rs_linear_system_at(ws, &sys, err, errlen);
    if (st)
        return st;
    /* the first-order state [x; ẋ; z]: 2 r + n_z */
    const int n = sys.n, r = sys.r, nz = sys.nz, n2 = 2 * r + nz;
    const char *name = rs_ws_model(ws)->name;
    out->n_red = r;
    out->rest_acc = sys.rest_acc;
    out->rest_at = sys.rest_at;
    if (r == 0) {
        rs_linear_system_free(&sys);
        return RS_OK;
    }
    double *Mr = malloc((size_t)r * r * sizeof *Mr), *KC = malloc((size_t)r * (2 * r + nz) * sizeof *KC);
    double *tmp = malloc((size_t)n * r * sizeof *tmp), *A = calloc((size_t)n2 * n2, sizeof *A);
    double *wr = malloc((size_t)n2 * sizeof *wr), *wi = malloc((size_t)n2 * sizeof *wi);
    double *vr = malloc((size_t)n2 * n2 * sizeof *vr), *work = NULL, *ework = malloc((size_t)4 * n * sizeof *ework);
    out->mode = calloc((size_t)n2, sizeof *out->mode);
    out->share = malloc((size_t)n2 * n * sizeof *out->share);
    out->n_q = n;
    st = RS_E_NOMEM;
    if (!Mr || !KC || !tmp || !A || !wr || !wi || !vr || !out->mode || !out->share || !ework) {
        rs_fail(err, errlen, st, "out of memory");
        goto done;
    }
    project(n, r, sys.M, sys.N, Mr, tmp);
    project(n, r, sys.K, sys.N, KC, tmp);
    project(n, r, sys.C, sys.N, KC + (size_t)r * r, tmp);
    for (int l = 0; l < nz; l++)         /* Nᵀ Kz */
        for (int i = 0; i < r; i++) {
            double v = 0;
            for (int k = 0; k < n; k++)
                v += sys.N[(size_t)i * n + k] * sys.Kz[(size_t)l * n + k];
            KC[(size_t)(2 * r + l) * r + i] = v;
        }
    {
        int *ipiv = malloc((size_t)r * sizeof *ipiv), info = 0, nrhs = 2 * r + nz;
        if (!ipiv) {
            rs_fail(err, errlen, st, "out of memory");
            goto done;
        }
        dgesv_(&r, &nrhs, Mr, &r, ipiv, KC, &r, &info);
        free(ipiv);
        if (info != 0) {
            st = rs_fail(err, errlen, RS_E_SINGULAR,
                         "model '%s': the reduced mass matrix NᵀMN is singular (LAPACK dgesv info %d): a "
                         "coordinate without mass?", name, info);
            goto done;
        }
    }
    /* A = [0 I 0; −Mr⁻¹Kr −Mr⁻¹Cr −Mr⁻¹NᵀKz; Zq N  Zv N  diag(b)] */
    for (int i = 0; i < r; i++)
        A[(size_t)(r + i) * n2 + i] = 1;
    for (int c = 0; c < 2 * r + nz; c++)
        for (int i = 0; i < r; i++)
            A[(size_t)c * n2 + r + i] = -KC[(size_t)c * r + i];
    for (int l = 0; l < nz; l++) {
        for (int c = 0; c < r; c++) {
            double zq = 0, zv = 0;
            for (int k = 0; k < n; k++) {
                zq += sys.Zq[(size_t)k * nz + l] * sys.N[(size_t)c * n + k];
                zv += sys.Zv[(size_t)k * nz + l] * sys.N[(size_t)c * n + k];
            }
            A[(size_t)c * n2 + 2 * r + l] = zq;
            A[(size_t)(r + c) * n2 + 2 * r + l] = zv;
        }
        A[(size_t)(2 * r + l) * n2 + 2 * r + l] = sys.Zb[l];
    }
    {
        int info = 0, lwork = -1, one = 1;
        double wq, vl;
        dgeev_("N", "V", &n2, A, &n2, wr, wi, &vl, &one, vr, &n2, &wq, &lwork, &info, 1, 1);
        lwork = (int)wq;
        if (!(work = malloc((size_t)(lwork > 1 ? lwork : 1) * sizeof *work))) {
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto done;
        }
        dgeev_("N", "V", &n2, A, &n2, wr, wi, &vl, &one, vr, &n2, work, &lwork, &info, 1, 1);
        if (info != 0) {
            st = rs_fail(err, errlen, RS_E_NOCONV, "model '%s': the eigenvalues did not converge (LAPACK dgeev "
                         "info %d)", name, info);
            goto done;
        }
    }
    double smax = 0;
    for (int k = 0; k < n2; k++)
        smax = fmax(smax, hypot(wr[k], wi[k]));
    for (int k = 0; k < n2; k++) {
        if (wi[k] < 0)
            continue;   /* the conjugate of the mode before */
        rs_linear_mode *md = &out->mode[out->n++];
        const double mag = hypot(wr[k], wi[k]);
        md->re = wr[k];
        md->im = wi[k];
        md->freq = wi[k] / (2 * PI);
        md->rigid = !(mag > RIGID_REL * smax);
        md->zeta = md->rigid ? 0 : -wr[k] / mag + 0.0;   /* + 0.0: no "-0" */
        /* the displacement half of the state vector */
        md->share = out->share + (size_t)(out->n - 1) * n;
        rs_linear_energy_shares(n, r, sys.M, sys.N, vr + (size_t)k * n2, wi[k] > 0 ? vr + (size_t)(k + 1) * n2 : NULL,
                                out->share + (size_t)(out->n - 1) * n, ework, md);
    }
    qsort(out->mode, (size_t)out->n, sizeof *out->mode, cmp_mode);
    out->least = out->n > 0 && !out->mode[0].rigid ? 0 : -1;
    st = RS_OK;
done:
    free(Mr);
    free(KC);
    free(tmp);
    free(A);
    free(wr);
    free(wi);
    free(vr);
    free(work);
    free(ework);
    rs_linear_system_free(&sys);
    if (st)
        rs_linear_modes_free(out);
    return st;
}

/* The length of name's body part: up to its last '.' (0: the top level). */
static size_t body_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : 0;
}

static int same_body(const char *a, const char *b)
{
    const size_t la = body_len(a);
    return la == body_len(b) && strncmp(a, b, la) == 0;
}

void rs_linear_dominant_text(const rs_linear_mode *m, const char *const *q_names, int n_q, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int d = 0; d < RS_LINEAR_DOM && k < len; d++)
        if (m->dom[d] >= 0)
            k += (size_t)snprintf(buf + k, len - k, "%s%s %.3g%%", k ? " " : "", q_names[m->dom[d]],
                                  100 * m->dom_share[d]);
    if (!m->share)
        return;
    /* the largest sums per body: first[] the first coordinate of each */
    int first[RS_LINEAR_DOM];
    double sum[RS_LINEAR_DOM];
    for (int d = 0; d < RS_LINEAR_DOM; d++)
        first[d] = -1, sum[d] = 0;
    int groups = 0;
    for (int i = 0; i < n_q; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = same_body(q_names[i], q_names[j]);
        if (seen)
            continue;
        groups++;
        double e = 0;
        for (int j = i; j < n_q; j++)
            if (same_body(q_names[i], q_names[j]))
                e += m->share[j];
        if (!(e >= 1e-3))
            continue;
        for (int d = 0; d < RS_LINEAR_DOM; d++)
            if (e > sum[d]) {
                for (int l = RS_LINEAR_DOM - 1; l > d; l--)
                    sum[l] = sum[l - 1], first[l] = first[l - 1];
                sum[d] = e;
                first[d] = i;
                break;
            }
    }
    for (int d = 0; groups > 1 && d < RS_LINEAR_DOM && first[d] >= 0 && k < len; d++) {   /* one body: said */
        const char *name = q_names[first[d]];
        const int bl = (int)body_len(name);
        k += (size_t)snprintf(buf + k, len - k, "%s%.*s %.3g%%", d ? " " : "; bodies ", bl ? bl : 5,
                              bl ? name : "(top)", 100 * sum[d]);
    }
}

/* ---------------------------------------------------------------- sweep */

void rs_linear_config_default(rs_linear_config *c)
{
    memset(c, 0, sizeof *c);
    c->loader = RS_LOAD_TCC;
    c->v_lo = 10;
    c->v_hi = 100;
    c->n_speeds = 19;
}

void rs_linear_result_free(rs_linear_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n && r->at; i++)
        rs_linear_modes_free(&r->at[i]);
    free(r->at);
    for (int i = 0; i < r->n_q && r->q_names; i++)
        free(r->q_names[i]);
    free(r->q_names);
    memset(r, 0, sizeof *r);
}

/* The non-rigid mode of a nearest to the eigenvalue of mb: the same mode one
 * speed lower.  The least-damped mode of a can be another one (a nearly
 * undamped car-body mode that never goes unstable while a hunting mode
 * does): interpolating between two different modes gives a wrong speed and
 * frequency (the Manchester coach: 90.3 m/s and 1.17 Hz, a car body's
 * longitudinal mode at 90 m/s against hunting at 100, for hunting's own
 * 93.4 m/s and 4.9 Hz). */
static const rs_linear_mode *same_mode(const rs_linear_modes *a, const rs_linear_mode *mb)
{
    const rs_linear_mode *best = NULL;
    double dbest = INFINITY;
    for (int k = 0; k < a->n; k++) {
        const rs_linear_mode *m = &a->mode[k];
        if (m->rigid)
            continue;
        const double d = hypot(m->re - mb->re, m->im - mb->im);
        if (d < dbest) {
            dbest = d;
            best = m;
        }
    }
    return best;
}

void rs_linear_critical(rs_linear_result *r)
{
    r->v_crit = r->f_crit = NAN;
    for (int i = 1; i < r->n; i++) {
        const rs_linear_modes *a = &r->at[i - 1], *b = &r->at[i];
        if (a->least < 0 || b->least < 0)
            continue;
        if (a->mode[a->least].zeta <= 0 || b->mode[b->least].zeta > 0)
            continue;
        /* b's least-damped mode went unstable; follow it back to a */
        const rs_linear_mode *mb = &b->mode[b->least], *ma = same_mode(a, mb);
        if (!ma || ma->zeta <= 0)
            ma = &a->mode[a->least];
        const double w = ma->zeta / (ma->zeta - mb->zeta);
        r->v_crit = a->speed + w * (b->speed - a->speed);
        r->f_crit = ma->freq + w * (mb->freq - ma->freq);
        return;
    }
}

/* The scenario's `equilibrium`, solved with the contact the analysis
 * linearizes (the constraint contact): the state the modes are about is
 * the one the vehicle rests or runs in, not the scenario's starting guess
 * (a coach from z = 0 hangs on unloaded springs, its wheels carry only
 * their own weight).  Velocities stay as the speed set them. */
static int settle(const rs_linear_opened *o, rs_ws *ws, double V, char *err, size_t errlen)
{
    const int *idx;
    int n;
    if (!rs_binding_equilibrium(o->b, &idx, &n))
        return RS_OK;
    rs_equilibrium_opts eo = {idx, n, 0, 0, NULL, !isnan(V) || rs_binding_has_speed(o->b)};
    char msg[1200];
    const int st = rs_equilibrium(ws, &eo, NULL, msg, sizeof msg);
    if (st)
        return rs_fail(err, errlen, st, "model '%s'%s: the scenario's equilibrium (solved with the %s "
                       "contact the linear analysis uses): %s", o->m->name, isnan(V) ? "" : " at this speed",
                       o->elastic ? "elastic" : "constraint", msg);
    return RS_OK;
}

int rs_linear_ws_at(const rs_linear_opened *o, double V, rs_ws **out, char *err, size_t errlen)
{
    const rs_model *m = o->m;
    rs_options opt;
    rs_options_default(&opt);
    rs_binding_options(o->b, &opt);
    if (o->contact_dir)
        opt.contact_dir = o->contact_dir;
    if (m->n_contact > 0 && o->elastic) {
        /* the runs' contact as the scenario sets it (law, friction): the
         * elastic one (rs_linear_elastic.c) */
        opt.contact = rs_elastic_contact();
    } else if (m->n_contact > 0) {
        /* the constraint contact, whatever the description's mode (the
         * elastic contact has no normal constraints to linearize), and a
         * contact-point Newton converged far below the differences' step */
        opt.contact = rs_wheel_rail_contact();
        opt.contact_tol = 1e-13;
        /* and Kalker's linear law, whatever the scenario's `creep`: it is
         * what the analysis linearizes, FASTSIM's slope at zero creepage
         * (Polach's with kA = kS = 1; docs/creep.md), so one scenario
         * serves the non-linear runs (coach_hunt.scn: FASTSIM) and this;
         * nor the elastic contact's normal law (a scenario for elastic runs
         * with `normal point` serves the constraint analysis too) */
        opt.contact_law = 0;
        opt.contact_normal = RS_NORMAL_DEFAULT;
    }
    opt.plugins = rs_plugin_set_tables(o->plugins);
    rs_ws *ws = NULL;
    char msg[1024];
    *out = NULL;
    int st = rs_ws_create(m, &opt, &ws, msg, sizeof msg);
    if (st)
        return rs_fail_model(err, errlen, st, m->name, NULL, msg);
    if ((st = rs_binding_apply(o->b, ws, msg, sizeof msg)))
        rs_fail_model(err, errlen, st, m->name, NULL, msg);
    else if (!isnan(V) && (st = rs_speed_apply(ws, V, msg, sizeof msg))) {
        char at[64];
        snprintf(at, sizeof at, " at %g m/s", V);
        rs_fail_model(err, errlen, st, m->name, at, msg);
    }
    else
        st = settle(o, ws, V, err, errlen);
    if (!st && (st = rs_ws_init(ws)))
        rs_fail(err, errlen, st, "model '%s'%s: initial state: %s", m->name, isnan(V) ? "" : " at this speed",
                rs_ws_error(ws));
    if (st)
        rs_ws_free(&ws);
    *out = ws;
    return st;
}

/* One state: a workspace of the bound scenario at speed V (NaN: none),
 * initialized, its modes. */
static int one_speed(const rs_linear_opened *o, double V, rs_linear_modes *out, char *err, size_t errlen)
{
    rs_ws *ws = NULL;
    char msg[1024];
    int st = rs_linear_ws_at(o, V, &ws, err, errlen);
    if (st)
        return st;
    if ((st = rs_linear_modes_at(ws, out, msg, sizeof msg)))
        rs_fail(err, errlen, st, "%s", msg);
    else
        out->speed = V;
    rs_ws_free(&ws);
    return st;
}

void rs_linear_close(rs_linear_opened *o)
{
    rs_binding_free(&o->b);
    rs_plugin_set_close(&o->plugins);
    rs_unload(&o->h);
    memset(o, 0, sizeof *o);
}

int rs_linear_open(const rs_linear_config *c, rs_linear_opened *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (!c || !c->model_dir)
        return rs_fail(err, errlen, RS_E_ARG, "rs_linear: no model folder");
    const rs_model *m = c->model;
    char msg[1024];
    if (!m) {
        char name[256];
        rs_load_options lo;
        rs_load_options_default(&lo);
        if (c->include_dir)
            lo.include_dir = c->include_dir;
        lo.model_name = rs_driver_model_name(c->model_dir, name, sizeof name);
        if (!(o->h = rs_load_ex(c->model_dir, c->loader, &lo, msg, sizeof msg)))
            return rs_fail(err, errlen, RS_E_LOAD, "cannot load model folder '%s': %s", c->model_dir, msg);
        m = rs_loaded_model(o->h);
    }
    o->m = m;
    o->elastic = c->elastic;
    rs_scenario s;
    rs_scenario_init(&s);
    int st = rs_scenario_load(c->model_dir, 1, c->scenario, c->set_text, &s, err, errlen);
    if (!st)
        st = rs_scenario_bind(&s, m, &o->b, err, errlen);
    rs_scenario_free(&s);
    o->contact_dir = rs_driver_contact_dir(c->model_dir, o->cdir, sizeof o->cdir) ? o->cdir : NULL;
    if (!st)
        st = rs_plugin_set_open(m, &o->plugins, err, errlen);
    if (st)
        rs_linear_close(o);
    return st;
}

int rs_linear_runs_elastic(const rs_linear_opened *o)
{
    if (o->m->n_contact == 0)
        return 0;
    const int mode = rs_binding_contact_mode(o->b);
    const rs_contact_ops *described = rs_contact_for_model(o->m);
    return mode == RS_CONTACT_MODE_ELASTIC ||
           (mode == RS_CONTACT_MODE_MODEL && described && described->elastic);
}

/* The runs of this scenario use the elastic contact but the analysis was
 * asked for the constraint one: say so (quiet or not), so that nobody takes
 * the textbook model's modes for those of the model the runs integrate. */
static void note_constraint_for_elastic(const rs_linear_config *c, const rs_linear_opened *o)
{
    if (c->elastic || !rs_linear_runs_elastic(o))
        return;
    rs_logf(&c->log, RS_LOG_LINE,
            "note: %s, but this analysis linearizes the constraint contact (one point per wheel, Kalker's "
            "linear law: the textbook model); --elastic linearizes the elastic contact the runs use "
            "(docs/linear.md \"Elastic contact\")",
            rs_binding_contact_mode(o->b) == RS_CONTACT_MODE_ELASTIC ? "the scenario says 'contact elastic'"
                                                                      : "the model's contacts say 'mode elastic'");
}

int rs_linear_sweep(const rs_linear_config *c, rs_linear_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->v_crit = r->f_crit = NAN;
    if (!c || !c->model_dir)
        return rs_fail(err, errlen, RS_E_ARG, "rs_linear_sweep: no model folder");
    if (c->n_speeds < 0 || (c->n_speeds > 0 && !(c->v_lo >= 0 && c->v_hi >= c->v_lo && isfinite(c->v_hi))) ||
        (c->n_speeds > 1 && !(c->v_hi > c->v_lo)))
        return rs_fail(err, errlen, RS_E_ARG, "speeds %g:%g:%d: write LO:HI:N with 0 <= LO < HI and N >= 2", c->v_lo,
                       c->v_hi, c->n_speeds);
    rs_linear_opened o;
    int st = rs_linear_open(c, &o, err, errlen);
    if (st)
        return st;
    note_constraint_for_elastic(c, &o);
    const rs_model *m = o.m;
    snprintf(r->model, sizeof r->model, "%s", m->name);
    const int ns = c->n_speeds > 0 ? c->n_speeds : 1;
    if (!st && (!(r->at = calloc((size_t)ns, sizeof *r->at)) ||
                !(r->q_names = calloc((size_t)m->n_q + 1, sizeof *r->q_names))))
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    for (int i = 0; !st && i < m->n_q; i++) {
        const size_t len = strlen(m->q_names[i]) + 1;
        if ((r->q_names[i] = malloc(len)))
            memcpy(r->q_names[i], m->q_names[i], len);
        else
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        r->n_q = i + 1;
    }
    for (int i = 0; !st && i < ns; i++) {
        const double V = c->n_speeds == 0 ? NAN
                         : ns == 1        ? c->v_lo
                                          : c->v_lo + (c->v_hi - c->v_lo) * i / (ns - 1);
        if ((st = one_speed(&o, V, &r->at[i], err, errlen)))
            break;
        r->n = i + 1;
        const rs_linear_modes *at = &r->at[i];
        if (at->rest_at >= 0 && at->rest_acc > RS_LINEAR_REST_ACC && (i == 0 || r->at[i - 1].rest_acc <= RS_LINEAR_REST_ACC))
            /* a warning, quiet or not: the modes are about a state that moves */
            rs_logf(&c->log, RS_LOG_LINE,
                    "warning: the state linearized about is not at rest: '%s' accelerates at %.3g (its unit "
                    "per s²) from it; add 'equilibrium' to the scenario (docs/scenario.md \"Static "
                    "equilibrium\") so that the modes are about the state the vehicle rests in",
                    m->q_names[at->rest_at], at->rest_acc);
        if (!c->quiet) {
            const rs_linear_modes *a = &r->at[i];
            if (a->least >= 0 && isnan(V))
                rs_logf(&c->log, RS_LOG_LINE, "least damped %.4g Hz, zeta %.4g", a->mode[a->least].freq,
                        a->mode[a->least].zeta);
            else if (a->least >= 0)
                rs_logf(&c->log, RS_LOG_LINE, "speed %d/%d: %.6g m/s: least damped %.4g Hz, zeta %.4g", i + 1, ns,
                        V, a->mode[a->least].freq, a->mode[a->least].zeta);
            else
                rs_logf(&c->log, RS_LOG_LINE, "speed %d/%d: %.6g m/s: no mode but rigid ones", i + 1, ns, V);
        }
    }
    if (!st)
        rs_linear_critical(r);
    rs_linear_close(&o);
    return st;
}
