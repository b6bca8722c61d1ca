/*
 * rs_ltrain.c — the longitudinal train in natural coordinates (see
 * rs_ltrain.h): its forces, lifetime, start and queries.  The parallel
 * sections are rs_ltrain_rigid.c (artificial dynamics or direct) and
 * rs_hmm_driver.c over the train as rs_ltrain_hmm.c presents it (HMM or
 * resolved).
 */
#include "rs_ltrain_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_band.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_team.h"

static const double two_pi = 6.283185307179586;

void rs_ltrain_config_default(rs_ltrain_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->method = RS_LTRAIN_ARTIFICIAL;
    cfg->threads = 1;
    cfg->alpha = 10.0;
    cfg->tol = 1e-10;
    cfg->max_iter = 100000;
    cfg->omega = 1.8;
    cfg->extrapolate = 1;
    cfg->direct_first = 1;
    cfg->kernel = RS_HMM_KERNEL_SIN4;
    cfg->macro_step = 0.01;
}

static double mx_of(const rs_wagon *w) { return w->m_body + 2.0 * w->m_bogie; }

/* The extremes the frequency bounds need: m_min, m_max, k_min, k_max, c_max. */
static void extremes(const rs_ltrain_config *cfg, double *mmin, double *mmax, double *kmin, double *kmax,
                     double *cmax)
{
    *mmin = *mmax = mx_of(&cfg->veh[0]);
    for (int i = 1; i < cfg->n; i++) {
        *mmin = fmin(*mmin, mx_of(&cfg->veh[i]));
        *mmax = fmax(*mmax, mx_of(&cfg->veh[i]));
    }
    *kmin = *kmax = *cmax = 0.0;
    for (int i = 0; i + 1 < cfg->n; i++) {
        *kmin = i == 0 ? cfg->cpl[i].k : fmin(*kmin, cfg->cpl[i].k);
        *kmax = fmax(*kmax, cfg->cpl[i].k);
        *cmax = fmax(*cmax, cfg->cpl[i].c);
    }
}

double rs_ltrain_lowest_frequency(const rs_ltrain_config *cfg)
{
    if (cfg->n < 2)
        return 0.0;
    double mmin, mmax, kmin, kmax, cmax;
    extremes(cfg, &mmin, &mmax, &kmin, &kmax, &cmax);
    return 2.0 * sqrt(kmin / mmax) * sin(0.25 * two_pi / cfg->n);
}

double rs_ltrain_highest_rate(const rs_ltrain_config *cfg)
{
    if (cfg->n < 2)
        return 0.0;
    double mmin, mmax, kmin, kmax, cmax;
    extremes(cfg, &mmin, &mmax, &kmin, &kmax, &cmax);
    return 2.0 * sqrt(kmax / mmin) + 4.0 * cmax / mmin;
}

double rs_ltrain_force(const rs_ltrain *lt, int i, double t, double v)
{
    const rs_wagon *w = &lt->veh[i];
    const double den = sqrt(v * v + w->v_s * w->v_s);
    return rs_wagon_traction(w, t) - lt->m[i] * w->g * (w->r0 * v / den + w->r1 * v + sin(lt->cfg.grade));
}

/* ------------------------------------------------------------- checks */

static int check(const rs_ltrain_config *cfg, char *err, size_t errlen)
{
    const rs_ltrain_method me = cfg->method;
    const int rigid = me == RS_LTRAIN_ARTIFICIAL || me == RS_LTRAIN_DIRECT || me == RS_LTRAIN_CG;
    if (cfg->n < 1 || cfg->n > 10000000 || !cfg->veh || (cfg->n > 1 && !cfg->cpl))
        return rs_fail(err, errlen, RS_E_ARG, "rs_ltrain_create: need n >= 1 vehicles (%d), veh and, for n > 1, cpl",
                       cfg->n);
    if (me != RS_LTRAIN_ARTIFICIAL && me != RS_LTRAIN_DIRECT && me != RS_LTRAIN_HMM && me != RS_LTRAIN_RESOLVED &&
        me != RS_LTRAIN_CG)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: method %d is none of artificial, direct, hmm, resolved, cg",
                       (int)me);
    if (!rigid && cfg->n < 2)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: the stiff-coupler methods need at least 2 vehicles (got %d); one vehicle "
                       "has no coupler: use the rigid methods",
                       cfg->n);
    if (cfg->threads < 1 || cfg->threads > 4096 || !isfinite(cfg->grade) || fabs(cfg->grade) >= 0.25 * two_pi)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: need threads in 1..4096 (%d) and a grade in (-pi/2, pi/2) rad (%g)",
                       cfg->threads, cfg->grade);
    if (rigid && (!(cfg->alpha >= 0.0) || !isfinite(cfg->alpha) || !(cfg->tol > 0.0) || cfg->max_iter < 1 ||
                  !(cfg->omega > 0.0 && cfg->omega < 2.0) || (cfg->extrapolate != 0 && cfg->extrapolate != 1) ||
                  (cfg->direct_first != 0 && cfg->direct_first != 1)))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: need alpha >= 0 (%g), tol > 0 (%g), max_iter >= 1 (%d), omega in (0, 2) "
                       "(%g: the explicit pseudo-time step is unstable at 2), extrapolate and direct_first 0 or 1 "
                       "(%d, %d)",
                       cfg->alpha, cfg->tol, cfg->max_iter, cfg->omega, cfg->extrapolate, cfg->direct_first);
    if (!rigid && (!isfinite(cfg->micro_step) || !isfinite(cfg->micro_interval) || !isfinite(cfg->macro_step) ||
                   (cfg->kernel != RS_HMM_KERNEL_SIN4 && cfg->kernel != RS_HMM_KERNEL_COS &&
                    cfg->kernel != RS_HMM_KERNEL_BOX) ||
                   (me == RS_LTRAIN_HMM && cfg->micro_interval <= 0.0 && !(cfg->macro_step > 0.0))))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: need finite micro_step, micro_interval (<= 0: automatic, from a "
                       "macro_step > 0: %g) and a kernel sin4, cos or box",
                       cfg->macro_step);
    char name[64];
    for (int i = 0; i < cfg->n; i++) {
        snprintf(name, sizeof name, "v%d", i + 1);
        if (cfg->names && cfg->names[i])
            snprintf(name, sizeof name, "%s", cfg->names[i]);
        if (cfg->veh[i].model)
            return rs_fail(err, errlen, RS_E_ARG,
                           "vehicle '%s': a compiled model in a natural-coordinate train; only the built-in wagon "
                           "and loco have the one coordinate s (use the Park formulation for compiled vehicles)",
                           name);
        const int st = rs_wagon_check(&cfg->veh[i], name, err, errlen);
        if (st != RS_OK)
            return st;
    }
    for (int i = 0; i + 1 < cfg->n; i++) {
        snprintf(name, sizeof name, "c%d", i + 1);
        const int st = rs_coupler_check(&cfg->cpl[i], name, err, errlen);
        if (st != RS_OK)
            return st;
        if (!rigid && (cfg->cpl[i].slack != 0.0 || cfg->cpl[i].k_buffer != 0.0))
            return rs_fail(err, errlen, RS_E_ARG,
                           "coupler '%s': slack %g m and k_buffer %g N/m: a stiff coupler of the multiscale method is "
                           "one spring-damper without free play or buffers; set both to 0, or use the Park "
                           "formulation",
                           name, cfg->cpl[i].slack, cfg->cpl[i].k_buffer);
    }
    return RS_OK;
}

/* δ and the micro steps m per micro-interval of the stiff methods. */
static int stiff_grid(const rs_ltrain_config *cfg, double *delta, int *m, char *err, size_t errlen)
{
    const double rho = rs_ltrain_highest_rate(cfg);
    const double d = cfg->micro_step > 0.0 ? cfg->micro_step : two_pi / rho / 20.0;
    if (d * rho > 2.5)   /* RK4 is stable for |λ δ| < 2.78 on the imaginary axis */
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: micro_step %g s is too long for the couplers: their highest rate is about "
                       "%g 1/s, so RK4 needs micro_step < %g s (set micro_step <= 0 for 20 steps per period)",
                       d, rho, 2.5 / rho);
    if (cfg->method == RS_LTRAIN_RESOLVED) {
        *delta = d;
        *m = 1;
        return RS_OK;
    }
    const double w1 = rs_ltrain_lowest_frequency(cfg);
    const double eta = cfg->micro_interval > 0.0 ? cfg->micro_interval : rs_hmm_interval_rule(w1, cfg->macro_step);
    if (cfg->macro_step > 0.0 && eta > cfg->macro_step)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: the micro-interval %g s is longer than the macro step %g s, so no macro "
                       "step is left to take; %s (the couplers' lowest mode is %g rad/s: stiffer couplers or fewer "
                       "vehicles raise it), or use the resolved method",
                       eta, cfg->macro_step,
                       cfg->micro_interval > 0.0 ? "shorten micro_interval or lengthen macro_step"
                                                 : "lengthen macro_step (the automatic micro-interval grows more "
                                                   "slowly than it)",
                       w1);
    const double mr = ceil(eta / d - 1e-9);
    if (mr < 4.0 || mr > 1e8)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_create: the micro-interval %g s holds %.0f micro steps of %g s; it needs 4 to 1e8 "
                       "(set micro_interval <= 0 for the automatic rule)",
                       eta, mr, d);
    *m = (int)mr;
    *delta = eta / mr;   /* the grid fills η exactly */
    return RS_OK;
}

/* ------------------------------------------------------------- lifetime */

int rs_ltrain_create(rs_ltrain **out, const rs_ltrain_config *cfg, char *err, size_t errlen)
{
    *out = NULL;
    int st = check(cfg, err, errlen);
    if (st != RS_OK)
        return st;
    const int rigid =
        cfg->method == RS_LTRAIN_ARTIFICIAL || cfg->method == RS_LTRAIN_DIRECT || cfg->method == RS_LTRAIN_CG;
    double delta = 0.0;
    int m = 0;
    if (!rigid && (st = stiff_grid(cfg, &delta, &m, err, errlen)) != RS_OK)
        return st;
    rs_ltrain *lt = rs_alloc(NULL, 1, sizeof *lt);
    if (!lt)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ltrain_create: out of memory");
    lt->cfg = *cfg;
    lt->n = cfg->n;
    lt->nc = cfg->n - 1;
    lt->T = cfg->threads;
    lt->rigid = rigid;
    const size_t n = (size_t)lt->n, nc = (size_t)lt->nc, T = (size_t)lt->T;
    size_t ntab = 0;
    for (int i = 0; i < lt->n; i++)
        ntab += 2 * (size_t)cfg->veh[i].traction_n;
    lt->veh = rs_alloc(NULL, n, sizeof *lt->veh);
    lt->cpl = rs_alloc(NULL, nc + 1, sizeof *lt->cpl);
    lt->tab = rs_alloc(NULL, ntab + 1, sizeof(double));
    /* One block for every per-vehicle and per-coupler array: 3n + nc
     * (m, 1/m, s, d) + the method's own. */
    double **arr[] = {&lt->m,  &lt->minv, &lt->s,     &lt->d,     &lt->p,   &lt->v,   &lt->ss,   &lt->ps,
                      &lt->ks, &lt->kp,   &lt->A,     &lt->b,     &lt->mu[0], &lt->mu[1], &lt->L, &lt->muE,
                      &lt->muP, &lt->slot, &lt->scratch, &lt->cg, &lt->Fb};
    const size_t len[] = {n,  n,      n,  nc, n,  n,  n,  n, 4 * n, 4 * n, 3 * nc, nc, nc, nc, 2 * nc, nc,
                          nc, 4 * T, nc + n, 4 * nc + 2 * T, T};
    int nomem = !lt->veh || !lt->cpl || !lt->tab;
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++) {
        *arr[k] = rs_alloc(NULL, len[k] + 1, sizeof(double));   /* + 1: never a zero-size request */
        nomem |= !*arr[k];
    }
    /* The stiff couplers' integration; made for the rigid ones too, so that
     * the queries find its (zero) averages. */
    const rs_hmm_body_model bodies = rs_ltrain_body_model_of(lt);
    nomem |= rs_hmm_drv_alloc(&lt->drv, &bodies, lt->T, cfg->method == RS_LTRAIN_HMM, m, delta,
                              cfg->method == RS_LTRAIN_HMM ? m * delta : 0.0) != RS_OK;
    if (nomem)
        st = rs_fail(err, errlen, RS_E_NOMEM, "rs_ltrain_create: out of memory for %d vehicles", lt->n);
    /* Contiguous ranges: thread t exchanges only boundary vehicles with t ± 1. */
    if (st == RS_OK)
        st = rs_team_create(lt->n, lt->T, RS_LTRAIN_SPIN, &lt->start, &lt->bar, &lt->pool, "rs_ltrain_create", err,
                            errlen);
    if (st != RS_OK) {
        rs_ltrain_free(&lt);
        return st;
    }
    rs_hmm_drv_lend(&lt->drv, lt->s, lt->v, lt->start, lt->bar, lt->pool);
    double *tab = lt->tab;
    for (int i = 0; i < lt->n; i++) {
        lt->veh[i] = cfg->veh[i];
        const int rows = cfg->veh[i].traction_n;
        if (rows > 0) {
            memcpy(tab, cfg->veh[i].traction_t, (size_t)rows * sizeof(double));
            memcpy(tab + rows, cfg->veh[i].traction_f, (size_t)rows * sizeof(double));
            lt->veh[i].traction_t = tab;
            lt->veh[i].traction_f = tab + rows;
            tab += 2 * rows;
        }
        lt->m[i] = mx_of(&lt->veh[i]);
        lt->minv[i] = 1.0 / lt->m[i];
    }
    for (int i = 0; i < lt->nc; i++) {
        lt->cpl[i] = cfg->cpl[i];
        lt->d[i] = lt->veh[i].l_rear + lt->cpl[i].length + lt->veh[i + 1].l_front;
    }
    lt->cfg.veh = lt->veh;
    lt->cfg.cpl = lt->cpl;
    lt->cfg.names = NULL;   /* borrowed only for create's messages */
    if (!rigid) {
        lt->cfg.micro_step = delta;
        lt->cfg.micro_interval = lt->drv.eta;
        if (cfg->method == RS_LTRAIN_HMM)
            rs_hmm_kernel_weights(cfg->kernel, m, delta, lt->drv.w, lt->drv.wd, &lt->drv.tbar, &lt->drv.var);
    }
    /* A = J M⁻¹ Jᵀ, constant: row i couples i − 1, i, i + 1. */
    for (int i = 0; i < lt->nc; i++) {
        double *a = lt->A + (size_t)i * RS_LTRAIN_ROW;
        a[0] = i > 0 ? -lt->minv[i] : 0.0;
        a[1] = lt->minv[i] + lt->minv[i + 1];
        a[2] = i + 1 < lt->nc ? -lt->minv[i + 1] : 0.0;
    }
    rs_ltrain_start(lt, 0.0, 0.0, 0.0);
    *out = lt;
    return RS_OK;
}

void rs_ltrain_free(rs_ltrain **ltp)
{
    rs_ltrain *lt = *ltp;
    if (!lt)
        return;
    rs_team_free(&lt->start, &lt->bar, &lt->pool);
    rs_hmm_drv_free(&lt->drv);
    double *arrays[] = {lt->m,   lt->minv, lt->s,    lt->d,     lt->p,     lt->v,     lt->ss, lt->ps,
                        lt->ks,  lt->kp,   lt->A,    lt->b,     lt->mu[0], lt->mu[1], lt->L,  lt->muE,
                        lt->muP, lt->slot, lt->scratch, lt->cg, lt->Fb,    lt->tab};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        rs_free(NULL, arrays[k]);
    rs_free(NULL, lt->veh);
    rs_free(NULL, lt->cpl);
    rs_free(NULL, lt);
    *ltp = NULL;
}

void rs_ltrain_set_state(rs_ltrain *lt, double t, const double *s, const double *v)
{
    for (int i = 0; i < lt->n; i++) {
        lt->s[i] = s[i];
        lt->v[i] = v[i];
        lt->p[i] = lt->m[i] * v[i];   /* μ = 0: p* = M ṡ */
    }
    memset(lt->mu[0], 0, (size_t)lt->nc * sizeof(double));
    memset(lt->mu[1], 0, (size_t)lt->nc * sizeof(double));
    lt->cur = 0;
    lt->have_prev = 0;
    rs_hmm_drv_restart(&lt->drv);
    lt->t = t;
}

void rs_ltrain_start(rs_ltrain *lt, double t0, double x_front, double v0)
{
    for (int i = 0; i < lt->n; i++) {
        lt->s[i] = i > 0 ? lt->s[i - 1] - lt->d[i - 1] : x_front;
        lt->v[i] = v0;
    }
    rs_ltrain_set_state(lt, t0, lt->s, lt->v);
}

int rs_ltrain_copy_state(rs_ltrain *dst, const rs_ltrain *src, char *err, size_t errlen)
{
    if (dst->n != src->n || dst->rigid != src->rigid)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_copy_state: %d vehicles with %s couplers into %d with %s couplers; copy between "
                       "trains of the same length and kind",
                       src->n, src->rigid ? "rigid" : "stiff", dst->n, dst->rigid ? "rigid" : "stiff");
    const size_t n = (size_t)src->n * sizeof(double), nc = (size_t)src->nc * sizeof(double);
    memcpy(dst->s, src->s, n);
    memcpy(dst->p, src->p, n);
    memcpy(dst->v, src->v, n);
    memcpy(dst->mu[0], src->mu[src->cur], nc);
    memcpy(dst->muE, src->muE, nc);
    memcpy(dst->muP, src->muP, nc);
    dst->cur = 0;
    dst->have_prev = src->have_prev;
    rs_hmm_drv_restart(&dst->drv);   /* the HMM's averages are its own: it starts afresh */
    dst->t = src->t;
    return RS_OK;
}

int rs_ltrain_step(rs_ltrain *lt, double h, char *err, size_t errlen)
{
    if (!(h > 0.0) || !isfinite(h))
        return rs_fail(err, errlen, RS_E_ARG, "rs_ltrain_step: the step must be positive and finite (got %g)", h);
    if (lt->rigid) {
        lt->job = RS_LTRAIN_JOB_STEP;
        lt->h = h;
        const int st = rs_ltrain_rigid_run(lt, err, errlen);
        if (st == RS_OK)
            lt->t += h;
        return st;
    }
    return rs_ltrain_stiff_run(lt, h, err, errlen);
}

int rs_ltrain_solve(rs_ltrain *lt, double *mu, int max_iter, int *iters, char *err, size_t errlen)
{
    if (!lt->rigid || max_iter < 1)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_solve: needs a rigid-coupler train and max_iter >= 1 (got %d)", max_iter);
    memcpy(lt->mu[lt->cur], mu, (size_t)lt->nc * sizeof(double));
    lt->job = RS_LTRAIN_JOB_SOLVE;
    lt->max_iter = max_iter;
    const int st = rs_ltrain_rigid_run(lt, err, errlen);
    memcpy(mu, lt->mu[lt->cur], (size_t)lt->nc * sizeof(double));
    if (iters)
        *iters = lt->iters;
    return st;
}

/* b_i = α f_i + (J M⁻¹ p*)_i at (s, p). */
static double rigid_b(const rs_ltrain *lt, const double *s, const double *p, int i)
{
    return lt->cfg.alpha * (s[i] - s[i + 1] - lt->d[i]) + lt->minv[i] * p[i] - lt->minv[i + 1] * p[i + 1];
}

void rs_ltrain_system(const rs_ltrain *lt, double *A_dense, double *b)
{
    const int nc = lt->nc;
    for (int i = 0; i < nc; i++) {
        if (b)
            b[i] = rigid_b(lt, lt->s, lt->p, i);
        if (A_dense)
            for (int j = 0; j < nc; j++)
                A_dense[i + (size_t)j * (size_t)nc] =
                    abs(i - j) <= 1 ? lt->A[(size_t)i * RS_LTRAIN_ROW + (size_t)(j - i + 1)] : 0.0;
    }
}

/* ------------------------------------------------------------- queries */

int rs_ltrain_vehicles(const rs_ltrain *lt) { return lt->n; }
double rs_ltrain_time(const rs_ltrain *lt) { return lt->t; }
double rs_ltrain_mass(const rs_ltrain *lt, int i) { return lt->m[i]; }
double rs_ltrain_distance(const rs_ltrain *lt, int c) { return lt->d[c]; }
const double *rs_ltrain_coords(const rs_ltrain *lt) { return lt->s; }
const double *rs_ltrain_mu(const rs_ltrain *lt) { return lt->mu[lt->cur]; }
double rs_ltrain_last_tau(const rs_ltrain *lt) { return lt->last_tau; }
const double *rs_ltrain_avg_tension(const rs_ltrain *lt) { return lt->drv.Fbar; }
double rs_ltrain_micro_step(const rs_ltrain *lt) { return lt->cfg.micro_step; }
double rs_ltrain_micro_interval(const rs_ltrain *lt) { return lt->cfg.micro_interval; }
rs_ltrain_stats rs_ltrain_get_stats(const rs_ltrain *lt)
{
    rs_ltrain_stats s = lt->stats;
    s.macro_steps = lt->drv.macro_steps;
    s.micro_steps = lt->drv.micro_steps;
    return s;
}

double rs_ltrain_max_elongation(const rs_ltrain *lt)
{
    double e = 0.0;
    for (int i = 0; i < lt->nc; i++)
        e = fmax(e, fabs(lt->s[i] - lt->s[i + 1] - lt->d[i]));
    return e;
}

/* x ← A⁻¹ x by the tridiagonal Cholesky in L (factored here: A is
 * constant, but the queries stay independent of the step's buffers). */
static int direct(rs_ltrain *lt, double *x)
{
    const int nc = lt->nc;
    for (int i = 0; i < nc; i++) {
        lt->L[2 * (size_t)i] = lt->A[(size_t)i * RS_LTRAIN_ROW + 1];
        lt->L[2 * (size_t)i + 1] = lt->A[(size_t)i * RS_LTRAIN_ROW];
    }
    const int st = rs_band_chol(lt->L, nc, RS_LTRAIN_KD, NULL);
    if (st == RS_OK)
        rs_band_chol_solve(lt->L, nc, RS_LTRAIN_KD, x);
    return st;
}

int rs_ltrain_eval(rs_ltrain *lt, double *v, double *tension, double *accel)
{
    const int n = lt->n, nc = lt->nc;
    double *T = lt->scratch, *vv = lt->scratch + nc;
    if (!lt->rigid) {
        for (int i = 0; i < n; i++)
            vv[i] = lt->v[i];
        for (int i = 0; i < nc; i++)
            T[i] = lt->cpl[i].k * (lt->s[i] - lt->s[i + 1] - lt->d[i]) + lt->cpl[i].c * (lt->v[i] - lt->v[i + 1]);
    } else {
        /* ṡ = M⁻¹ (p* − Jᵀ μ) with A μ = b, then λ from A λ = J M⁻¹ F + α J ṡ */
        for (int i = 0; i < nc; i++)
            T[i] = rigid_b(lt, lt->s, lt->p, i);
        int st = nc > 0 ? direct(lt, T) : RS_OK;
        if (st != RS_OK)
            return st;
        for (int i = 0; i < n; i++)
            vv[i] = lt->minv[i] * (lt->p[i] - (i < nc ? T[i] : 0.0) + (i > 0 ? T[i - 1] : 0.0));
        for (int i = 0; i < nc; i++)
            T[i] = lt->minv[i] * rs_ltrain_force(lt, i, lt->t, vv[i]) -
                   lt->minv[i + 1] * rs_ltrain_force(lt, i + 1, lt->t, vv[i + 1]) + lt->cfg.alpha * (vv[i] - vv[i + 1]);
        st = nc > 0 ? direct(lt, T) : RS_OK;
        if (st != RS_OK)
            return st;
    }
    for (int i = 0; i < n; i++) {
        if (v)
            v[i] = vv[i];
        if (accel)
            accel[i] = lt->minv[i] * (rs_ltrain_force(lt, i, lt->t, vv[i]) - (i < nc ? T[i] : 0.0) +
                                      (i > 0 ? T[i - 1] : 0.0));
    }
    if (tension)
        memcpy(tension, T, (size_t)nc * sizeof(double));
    return RS_OK;
}
