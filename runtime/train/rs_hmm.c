/*
 * rs_hmm.c — the compliant pendulum chain of seed 002's method (b): its
 * joint forces, the bodies' decoupled equations, lifetime and queries
 * (see rs_hmm.h).  The integration is rs_hmm_driver.c's, over the chain
 * as rs_hmm_step.c presents it.
 */
#include "rs_hmm_impl.h"

#include <math.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_team.h"

static const double two_pi = 6.283185307179586;

void rs_hmm_config_default(rs_hmm_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->n = 10;
    cfg->mass = 1.0;
    cfg->length = 1.0;
    cfg->inertia = 0.0;
    cfg->gravity = 9.81;
    cfg->stiffness = 1e10;
    cfg->damping = rs_hmm_damping_for_ratio(cfg, 0.2);
    cfg->mode = RS_HMM_AVERAGED;
    cfg->kernel = RS_HMM_KERNEL_SIN4;
    cfg->threads = 1;
    cfg->micro_step = 0.0;
    cfg->micro_interval = 0.0;
    cfg->macro_step = 0.01;
}

static double inertia_of(const rs_hmm_config *cfg)
{
    return cfg->inertia > 0.0 ? cfg->inertia : cfg->mass * cfg->length * cfg->length / 12.0;
}

/* m_J: two bar ends across their bars, each 1/(1/m + (L/2)²/I). */
static double joint_mass(const rs_hmm_config *cfg)
{
    const double me = 1.0 / (1.0 / cfg->mass + 0.25 * cfg->length * cfg->length / inertia_of(cfg));
    return 0.5 * me;
}

double rs_hmm_joint_frequency(const rs_hmm_config *cfg) { return sqrt(cfg->stiffness / joint_mass(cfg)); }

double rs_hmm_damping_for_ratio(const rs_hmm_config *cfg, double zeta)
{
    return 2.0 * zeta * sqrt(cfg->stiffness * joint_mass(cfg));
}

double rs_hmm_lowest_frequency(const rs_hmm_config *cfg)
{
    return 2.0 * sqrt(cfg->stiffness / cfg->mass) * sin(0.25 * two_pi / (2.0 * cfg->n + 1.0));
}

double rs_hmm_interval_rule(double w1, double H)
{
    const double wh = w1 * H;
    const double P = 4.0 * pow(RS_HMM_LEAK * wh * wh / RS_HMM_GAIN, 0.2);
    return (P > RS_HMM_MIN_PERIODS ? P : RS_HMM_MIN_PERIODS) * two_pi / w1;
}

double rs_hmm_auto_interval(const rs_hmm_config *cfg)
{
    return rs_hmm_interval_rule(rs_hmm_lowest_frequency(cfg), cfg->macro_step);
}

/* Kernel weights on the grid τ_j = j δ, j = 0..m, normalized to sum 1. */
void rs_hmm_kernel_weights(rs_hmm_kernel kernel, int m, double delta, double *w, double *wd, double *tbar,
                           double *var)
{
    double sum = 0.0;
    for (int j = 0; j <= m; j++) {
        const double s = (double)j / m;
        const double sn = sin(0.5 * two_pi * s);
        w[j] = kernel == RS_HMM_KERNEL_SIN4  ? sn * sn * sn * sn
               : kernel == RS_HMM_KERNEL_COS ? 1.0 - cos(two_pi * s)
                                             : (j == 0 || j == m ? 0.5 : 1.0);
        sum += w[j];
    }
    *tbar = 0.0;
    for (int j = 0; j <= m; j++) {
        w[j] /= sum;
        *tbar += w[j] * j * delta;
    }
    *var = 0.0;
    for (int j = 0; j <= m; j++)
        *var += w[j] * (j * delta - *tbar) * (j * delta - *tbar);
    /* Derivative weights: ∫ K f' = −∫ K' f (K vanishes at the ends; the
     * box's K' is the two end values), scaled so that a line's slope comes
     * out exactly: Σ wd_j τ_j = 1. */
    double dsum = 0.0;
    for (int j = 0; j <= m; j++) {
        const double s = (double)j / m, sn = sin(0.5 * two_pi * s), cs = cos(0.5 * two_pi * s);
        wd[j] = kernel == RS_HMM_KERNEL_SIN4  ? -sn * sn * sn * cs
                : kernel == RS_HMM_KERNEL_COS ? -sin(two_pi * s)
                                              : (j == 0 ? -1.0 : j == m ? 1.0 : 0.0);
        dsum += wd[j] * j * delta;
    }
    for (int j = 0; j <= m; j++)
        wd[j] /= dsum;
}

/* ------------------------------------------------------------- the model */

void rs_hmm_joint_open(const rs_hmm *h, const double *q, const double *v, int j, const double scj[2],
                       const double scp[2], double g[2], double gd[2])
{
    const double a = h->half;
    const double *qj = q + 3 * j, *vj = v + 3 * j;
    const double s = scj[0], co = scj[1];
    /* A_j = S_j − a (s, −c), Ȧ_j = Ṡ_j − a θ̇ (c, s) */
    g[0] = qj[0] - a * s;
    g[1] = qj[1] + a * co;
    gd[0] = vj[0] - a * vj[2] * co;
    gd[1] = vj[1] - a * vj[2] * s;
    if (j > 0) {   /* − B_{j−1} = −(S + a (s, −c)), −Ḃ = −(Ṡ + a θ̇ (c, s)) */
        const double *qp = q + 3 * (j - 1), *vp = v + 3 * (j - 1);
        const double sp = scp[0], cp = scp[1];
        g[0] -= qp[0] + a * sp;
        g[1] -= qp[1] - a * cp;
        gd[0] -= vp[0] + a * vp[2] * cp;
        gd[1] -= vp[1] + a * vp[2] * sp;
    }
}

void rs_hmm_joint_force(const rs_hmm *h, const double *q, const double *v, int j, const double scj[2],
                        const double scp[2], double F[2])
{
    double g[2], gd[2];
    rs_hmm_joint_open(h, q, v, j, scj, scp, g, gd);
    F[0] = -h->cfg.stiffness * g[0] - h->cfg.damping * gd[0];
    F[1] = -h->cfg.stiffness * g[1] - h->cfg.damping * gd[1];
}

void rs_hmm_body_rates(const rs_hmm *h, const double *v, int i, const double sci[2],
                       const double Fi[2], const double Fn[2], double qd[3], double vd[3])
{
    const double a = h->half, s = sci[0], co = sci[1];
    /* r_A = −a (s, −c), r_B = a (s, −c); r × F = r_x F_y − r_y F_x */
    const double tA = -a * (s * Fi[1] + co * Fi[0]);
    const double tB = a * (s * Fn[1] + co * Fn[0]);
    qd[0] = v[3 * i];
    qd[1] = v[3 * i + 1];
    qd[2] = v[3 * i + 2];
    vd[0] = h->minv[0] * (Fi[0] - Fn[0]);
    vd[1] = h->minv[1] * (Fi[1] - Fn[1]) - h->cfg.gravity;
    vd[2] = h->minv[2] * (tA - tB);
}

/* ------------------------------------------------------------- lifetime */

int rs_hmm_create(rs_hmm **out, const rs_hmm_config *cfg, char *err, size_t errlen)
{
    *out = NULL;
    if (cfg->n < 1 || !(cfg->mass > 0.0) || !(cfg->length > 0.0) || !(cfg->gravity >= 0.0) ||
        !isfinite(cfg->gravity) || !isfinite(cfg->inertia) || !(cfg->stiffness > 0.0) ||
        !isfinite(cfg->stiffness) || !(cfg->damping >= 0.0) || !isfinite(cfg->damping) || cfg->threads < 1 ||
        cfg->threads > 4096 || !isfinite(cfg->micro_step) || !isfinite(cfg->micro_interval) ||
        (cfg->mode != RS_HMM_AVERAGED && cfg->mode != RS_HMM_RESOLVED) ||
        (cfg->mode == RS_HMM_AVERAGED && !(cfg->micro_interval > 0.0) &&
         !(cfg->macro_step > 0.0 && isfinite(cfg->macro_step))) ||
        (cfg->kernel != RS_HMM_KERNEL_SIN4 && cfg->kernel != RS_HMM_KERNEL_COS && cfg->kernel != RS_HMM_KERNEL_BOX))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_hmm_create: need n >= 1 (%d), mass, length > 0 (%g, %g), gravity >= 0 (%g), "
                       "stiffness > 0 (%g), damping >= 0 (%g), threads in 1..4096 (%d), finite micro_step and "
                       "micro_interval (<= 0: automatic, from a macro_step > 0: %g), mode averaged or resolved, kernel sin4, cos or box",
                       cfg->n, cfg->mass, cfg->length, cfg->gravity, cfg->stiffness, cfg->damping, cfg->threads, cfg->macro_step);
    const double wmax = 2.0 * rs_hmm_joint_frequency(cfg);
    const double delta = cfg->micro_step > 0.0 ? cfg->micro_step : two_pi / wmax / 20.0;
    const double eta = cfg->micro_interval > 0.0 ? cfg->micro_interval : rs_hmm_auto_interval(cfg);
    /* RK4 is stable for |λ δ| < 2.78 on the imaginary axis */
    if (delta * wmax > 2.5)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_hmm_create: micro_step %g s is too long for the joints: the highest joint frequency is "
                       "about %g rad/s, so RK4 needs micro_step < %g s (set micro_step <= 0 for 20 steps per "
                       "period)",
                       delta, wmax, 2.5 / wmax);
    if (cfg->mode == RS_HMM_AVERAGED && cfg->macro_step > 0.0 && eta > cfg->macro_step)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_hmm_create: the micro-interval %g s is longer than the macro step %g s, so no macro step "
                       "is left to take; %s (the joints' lowest mode is %g rad/s: stiffer joints or fewer bodies "
                       "shorten it), or use the resolved mode",
                       eta, cfg->macro_step,
                       cfg->micro_interval > 0.0 ? "shorten micro_interval or lengthen macro_step"
                                                 : "lengthen macro_step (the automatic micro-interval grows more "
                                                   "slowly than it)",
                       rs_hmm_lowest_frequency(cfg));
    const double mr = ceil(eta / delta - 1e-9);
    if (cfg->mode == RS_HMM_AVERAGED && (mr < 4.0 || mr > 1e8))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_hmm_create: the micro-interval %g s holds %.0f micro steps of %g s; it needs 4 to 1e8 "
                       "(set micro_interval <= 0 for the automatic rule)",
                       eta, mr, delta);
    rs_hmm *h = rs_alloc(NULL, 1, sizeof *h);
    if (!h)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_hmm_create: out of memory");
    h->cfg = *cfg;
    h->n = cfg->n;
    h->T = cfg->threads;
    h->half = 0.5 * cfg->length;
    h->cfg.inertia = inertia_of(cfg);
    h->minv[0] = h->minv[1] = 1.0 / cfg->mass;
    h->minv[2] = 1.0 / h->cfg.inertia;
    const int m = cfg->mode == RS_HMM_AVERAGED ? (int)mr : 1;
    const double dm = cfg->mode == RS_HMM_AVERAGED ? eta / m : delta;   /* the grid fills η exactly */
    h->cfg.micro_step = dm;
    h->cfg.micro_interval = m * dm;
    const size_t n3 = 3 * (size_t)h->n, T = (size_t)h->T;
    h->q = rs_alloc(NULL, n3, sizeof(double));
    h->v = rs_alloc(NULL, n3, sizeof(double));
    h->Fb = rs_alloc(NULL, 2 * T, sizeof(double));
    h->sc = rs_alloc(NULL, 2 * (n3 / 3 + 2 * T), sizeof(double));
    const rs_hmm_body_model bodies = rs_hmm_body_model_of(h);
    int st = rs_hmm_drv_alloc(&h->drv, &bodies, h->T, cfg->mode == RS_HMM_AVERAGED, m, dm, h->cfg.micro_interval);
    if (st != RS_OK || !h->q || !h->v || !h->Fb || !h->sc)
        st = rs_fail(err, errlen, RS_E_NOMEM, "rs_hmm_create: out of memory for %d bodies", h->n);
    /* Contiguous ranges: thread t exchanges only boundary bodies with t ± 1. */
    if (st == RS_OK)
        st = rs_team_create(h->n, h->T, RS_HMM_SPIN, &h->start, &h->bar, &h->pool, "rs_hmm_create", err, errlen);
    if (st != RS_OK) {
        rs_hmm_free(&h);
        return st;
    }
    rs_hmm_drv *d = &h->drv;
    rs_hmm_drv_lend(d, h->q, h->v, h->start, h->bar, h->pool);
    rs_hmm_kernel_weights(cfg->kernel, m, dm, d->w, d->wd, &d->tbar, &d->var);
    rs_hmm_set_angles(h, d->sq[0], NULL);   /* zeros: hanging at rest */
    *out = h;
    return RS_OK;
}

void rs_hmm_free(rs_hmm **hp)
{
    rs_hmm *h = *hp;
    if (!h)
        return;
    rs_team_free(&h->start, &h->bar, &h->pool);
    rs_hmm_drv_free(&h->drv);
    double *arrays[] = {h->q, h->v, h->Fb, h->sc};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        rs_free(NULL, arrays[k]);
    rs_free(NULL, h);
    *hp = NULL;
}

void rs_hmm_set_angles(rs_hmm *h, const double *theta, const double *omega)
{
    const double a = h->half;
    double bx = 0.0, by = 0.0, bvx = 0.0, bvy = 0.0;   /* B_{i−1} and its velocity */
    for (int i = 0; i < h->n; i++) {
        const double th = theta[i], om = omega ? omega[i] : 0.0, s = sin(th), co = cos(th);
        double *q = h->q + 3 * i, *v = h->v + 3 * i;
        q[0] = bx + a * s;
        q[1] = by - a * co;
        q[2] = th;
        v[0] = bvx + a * om * co;
        v[1] = bvy + a * om * s;
        v[2] = om;
        bx += 2.0 * a * s;
        by -= 2.0 * a * co;
        bvx += 2.0 * a * om * co;
        bvy += 2.0 * a * om * s;
    }
    h->t = 0.0;
    rs_hmm_drv_restart(&h->drv);
}

/* ------------------------------------------------------------- queries */

int rs_hmm_bodies(const rs_hmm *h) { return h->n; }
double rs_hmm_time(const rs_hmm *h) { return h->t; }
double rs_hmm_micro_step(const rs_hmm *h) { return h->drv.delta; }
double rs_hmm_micro_interval(const rs_hmm *h) { return h->cfg.micro_interval; }
const double *rs_hmm_coords(const rs_hmm *h) { return h->q; }
const double *rs_hmm_rates(const rs_hmm *h) { return h->v; }
double rs_hmm_angle(const rs_hmm *h, int i) { return h->q[3 * i + 2]; }
rs_hmm_stats rs_hmm_get_stats(const rs_hmm *h)
{
    return (rs_hmm_stats){.macro_steps = h->drv.macro_steps, .micro_steps = h->drv.micro_steps};
}

void rs_hmm_avg_force(const rs_hmm *h, int j, double F[2])
{
    F[0] = h->drv.Fbar[2 * j];
    F[1] = h->drv.Fbar[2 * j + 1];
}

/* The opening g_j at the current state. */
static void gap(const rs_hmm *h, int j, double g[2])
{
    const double scj[2] = {sin(h->q[3 * j + 2]), cos(h->q[3 * j + 2])};
    const double scp[2] = {j > 0 ? sin(h->q[3 * j - 1]) : 0.0, j > 0 ? cos(h->q[3 * j - 1]) : 0.0};
    double gd[2];
    rs_hmm_joint_open(h, h->q, h->v, j, scj, scp, g, gd);
}

double rs_hmm_max_gap(const rs_hmm *h)
{
    double m = 0.0;
    for (int j = 0; j < h->n; j++) {
        double g[2];
        gap(h, j, g);
        m = fmax(m, hypot(g[0], g[1]));
    }
    return m;
}

double rs_hmm_energy(const rs_hmm *h)
{
    const double m = h->cfg.mass, I = h->cfg.inertia;
    double e = 0.0;
    for (int i = 0; i < h->n; i++) {
        const double *q = h->q + 3 * i, *v = h->v + 3 * i;
        double g[2];
        gap(h, i, g);
        e += 0.5 * m * (v[0] * v[0] + v[1] * v[1]) + 0.5 * I * v[2] * v[2] + m * h->cfg.gravity * q[1] +
             0.5 * h->cfg.stiffness * (g[0] * g[0] + g[1] * g[1]);
    }
    return e;
}
