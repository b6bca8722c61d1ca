/*
 * rs_chain.c — the pendulum chain of seed 002 in natural coordinates, its
 * Schur-complement system and the RK4 step (see rs_chain.h).  The two
 * solvers of A μ = b are in rs_chain_solve.c.
 */
#include "rs_chain_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_band.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_team.h"

void rs_chain_config_default(rs_chain_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->n = 10;
    cfg->mass = 1.0;
    cfg->length = 1.0;
    cfg->inertia = 0.0;
    cfg->gravity = 9.81;
    cfg->alpha = 10.0;
    cfg->solver = RS_CHAIN_ARTIFICIAL;
    cfg->threads = 1;
    cfg->tol = 1e-10;
    cfg->max_iter = 100000;
    cfg->omega = 1.8;
    cfg->extrapolate = 1;
}

/* ------------------------------------------------------------- Jacobian */

/* The coefficients of constraint row `row` on the four coordinates of body
 * `i` (0 when the row does not touch it).  Returns 1 if it touches it. */
int rs_chain_jcoef(const rs_chain *c, const double *s, int row, int i, double coef[4])
{
    const int owner = row / 3, kind = row % 3;
    const double h = 0.5 * c->cfg.length;
    coef[0] = coef[1] = coef[2] = coef[3] = 0.0;
    if (kind == 2) {                  /* ½(u² + w² − 1) of body owner */
        if (i != owner)
            return 0;
        coef[2] = s[4 * i + 2];
        coef[3] = s[4 * i + 3];
        return 1;
    }
    /* A_owner − B_{owner−1}, component `kind` */
    if (i == owner) {
        coef[kind] = 1.0;
        coef[2 + kind] = -h;
        return 1;
    }
    if (i == owner - 1) {
        coef[kind] = -1.0;
        coef[2 + kind] = -h;
        return 1;
    }
    return 0;
}

/* The bodies row `row` touches: at most two, the lower first. */
static int row_bodies(int row, int body[2])
{
    const int owner = row / 3;
    if (row % 3 == 2 || owner == 0) {
        body[0] = owner;
        return 1;
    }
    body[0] = owner - 1;
    body[1] = owner;
    return 2;
}

double rs_chain_f(const rs_chain *c, const double *s, int row)
{
    const int i = row / 3, kind = row % 3;
    const double h = 0.5 * c->cfg.length;
    const double *b = s + 4 * i;
    if (kind == 2)
        return 0.5 * (b[2] * b[2] + b[3] * b[3] - 1.0);
    double f = b[kind] - h * b[2 + kind];
    if (i > 0)
        f -= s[4 * (i - 1) + kind] + h * s[4 * (i - 1) + 2 + kind];
    return f;
}

/* Row `row` of A (the 9 entries d − row = −4..4, zero outside 0..nc−1) and
 * b_row, at state (s, p).  Always the same expression, whoever calls it. */
void rs_chain_assemble_row(const rs_chain *c, const double *s, const double *p, int row, double *Arow,
                           double *brow)
{
    int bodies[2];
    const int nb = row_bodies(row, bodies);
    double jr[2][4];
    for (int k = 0; k < nb; k++)
        rs_chain_jcoef(c, s, row, bodies[k], jr[k]);
    double bv = c->cfg.alpha * rs_chain_f(c, s, row);
    for (int k = 0; k < nb; k++)
        for (int q = 0; q < 4; q++)
            bv += jr[k][q] * c->minv[q] * p[4 * bodies[k] + q];
    *brow = bv;
    for (int d = -RS_CHAIN_KD; d <= RS_CHAIN_KD; d++) {
        const int col = row + d;
        double a = 0.0;
        if (col >= 0 && col < c->nc) {
            for (int k = 0; k < nb; k++) {
                double jc[4];
                if (!rs_chain_jcoef(c, s, col, bodies[k], jc))
                    continue;
                for (int q = 0; q < 4; q++)
                    a += jr[k][q] * c->minv[q] * jc[q];
            }
        }
        Arow[d + RS_CHAIN_KD] = a;
    }
}

/* ṡ_i = M⁻¹ (p*_i − (Jᵀ μ)_i) and ṗ*_i = F_i + (J̇ᵀ μ)_i for body i. */
void rs_chain_body_rates(const rs_chain *c, const double *s, const double *p, const double *mu, int i,
                         double *sd, double *pd)
{
    double jtmu[4] = {0.0, 0.0, 0.0, 0.0};
    const int r1 = 3 * i + 5 < c->nc ? 3 * i + 5 : c->nc;   /* own rows, then the next joint */
    for (int row = 3 * i; row < r1; row++) {
        double jc[4];
        if (rs_chain_jcoef(c, s, row, i, jc))
            for (int q = 0; q < 4; q++)
                jtmu[q] += jc[q] * mu[row];
    }
    for (int q = 0; q < 4; q++)
        sd[q] = c->minv[q] * (p[4 * i + q] - jtmu[q]);
    /* Only the unit row's Jacobian (u, w) varies: J̇ = (u̇, ẇ) there. */
    const double mu_unit = mu[3 * i + 2];
    pd[0] = 0.0;
    pd[1] = -c->cfg.mass * c->cfg.gravity;
    pd[2] = sd[2] * mu_unit;
    pd[3] = sd[3] * mu_unit;
}

/* ------------------------------------------------------------- lifetime */

int rs_chain_create(rs_chain **out, const rs_chain_config *cfg, char *err, size_t errlen)
{
    *out = NULL;
    if (cfg->n < 1 || !(cfg->mass > 0.0) || !(cfg->length > 0.0) || !(cfg->gravity >= 0.0) ||
        !(cfg->alpha >= 0.0) || cfg->threads < 1 || cfg->threads > 4096 || !(cfg->tol > 0.0) ||
        cfg->max_iter < 1 || !(cfg->omega > 0.0 && cfg->omega < 2.0) ||
        (cfg->solver != RS_CHAIN_ARTIFICIAL && cfg->solver != RS_CHAIN_DIRECT && cfg->solver != RS_CHAIN_CG) || !isfinite(cfg->inertia) ||
        (cfg->extrapolate != 0 && cfg->extrapolate != 1))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_chain_create: need n >= 1 (%d), mass, length > 0 (%g, %g), gravity, alpha >= 0 "
                       "(%g, %g), threads in 1..4096 (%d), tol > 0 (%g), max_iter >= 1 (%d), omega in (0, 2) "
                       "(%g: the explicit pseudo-time step is unstable at 2), solver artificial, direct or cg, extrapolate 0 or 1",
                       cfg->n, cfg->mass, cfg->length, cfg->gravity, cfg->alpha, cfg->threads, cfg->tol,
                       cfg->max_iter, cfg->omega);
    rs_chain *c = rs_alloc(NULL, 1, sizeof *c);
    if (!c)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_chain_create: out of memory");
    c->cfg = *cfg;
    c->n = cfg->n;
    c->nc = 3 * cfg->n;
    c->T = cfg->threads;
    const double I = cfg->inertia > 0.0 ? cfg->inertia : cfg->mass * cfg->length * cfg->length / 12.0;
    c->cfg.inertia = I;
    c->minv[0] = c->minv[1] = 1.0 / cfg->mass;
    c->minv[2] = c->minv[3] = 1.0 / I;
    const size_t n4 = 4 * (size_t)c->n, nc = (size_t)c->nc;
    c->s = rs_alloc(NULL, n4, sizeof(double));
    c->p = rs_alloc(NULL, n4, sizeof(double));
    c->ss = rs_alloc(NULL, n4, sizeof(double));
    c->ps = rs_alloc(NULL, n4, sizeof(double));
    c->ks = rs_alloc(NULL, 4 * n4, sizeof(double));
    c->kp = rs_alloc(NULL, 4 * n4, sizeof(double));
    c->A = rs_alloc(NULL, nc * (2 * RS_CHAIN_KD + 1), sizeof(double));
    c->b = rs_alloc(NULL, nc, sizeof(double));
    c->mu[0] = rs_alloc(NULL, nc, sizeof(double));
    c->mu[1] = rs_alloc(NULL, nc, sizeof(double));
    c->L = rs_alloc(NULL, nc * (RS_CHAIN_KD + 1), sizeof(double));
    c->scratch = rs_alloc(NULL, nc, sizeof(double));
    c->muE = rs_alloc(NULL, nc, sizeof(double));
    c->muP = rs_alloc(NULL, nc, sizeof(double));
    c->slot = rs_alloc(NULL, 4 * (size_t)c->T, sizeof(double));
    c->cg = rs_alloc(NULL, 4 * nc + 2 * (size_t)c->T, sizeof(double));   /* every solver: the step never allocates */
    int st = RS_OK;
    if (!c->s || !c->p || !c->ss || !c->ps || !c->ks || !c->kp || !c->A || !c->b || !c->mu[0] || !c->mu[1] ||
        !c->L || !c->scratch || !c->muE || !c->muP || !c->slot || !c->cg)
        st = rs_fail(err, errlen, RS_E_NOMEM, "rs_chain_create: out of memory for %d bodies", c->n);
    /* Contiguous ranges of bodies (and so of constraints): thread t
     * exchanges only the boundary bodies and multipliers with t ± 1. */
    if (st == RS_OK)
        st = rs_team_create(c->n, c->T, RS_CHAIN_SPIN, &c->start, &c->bar, &c->pool, "rs_chain_create", err, errlen);
    if (st != RS_OK) {
        rs_chain_free(&c);
        return st;
    }
    double *zero = rs_alloc(NULL, (size_t)c->n, sizeof(double));
    if (!zero) {
        rs_chain_free(&c);
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_chain_create: out of memory");
    }
    rs_chain_set_angles(c, zero, NULL);
    rs_free(NULL, zero);
    *out = c;
    return RS_OK;
}

void rs_chain_free(rs_chain **cp)
{
    rs_chain *c = *cp;
    if (!c)
        return;
    rs_team_free(&c->start, &c->bar, &c->pool);
    double *arrays[] = {c->s, c->p, c->ss, c->ps, c->ks, c->kp, c->A, c->b, c->mu[0], c->mu[1], c->L, c->scratch,
                        c->muE, c->muP, c->slot, c->cg};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        rs_free(NULL, arrays[k]);
    rs_free(NULL, c);
    *cp = NULL;
}

void rs_chain_set_angles(rs_chain *c, const double *theta, const double *omega)
{
    const double L = c->cfg.length, m = c->cfg.mass, I = c->cfg.inertia;
    double ax = 0.0, ay = 0.0, vx = 0.0, vy = 0.0;   /* joint A_i and its velocity */
    for (int i = 0; i < c->n; i++) {
        const double th = theta[i], om = omega ? omega[i] : 0.0;
        const double u = sin(th), w = -cos(th), ud = om * cos(th), wd = om * sin(th);
        double *s = c->s + 4 * i, *p = c->p + 4 * i;
        s[0] = ax + 0.5 * L * u;
        s[1] = ay + 0.5 * L * w;
        s[2] = u;
        s[3] = w;
        p[0] = m * (vx + 0.5 * L * ud);
        p[1] = m * (vy + 0.5 * L * wd);
        p[2] = I * ud;
        p[3] = I * wd;
        ax += L * u;
        ay += L * w;
        vx += L * ud;
        vy += L * wd;
    }
    /* p* = M ṡ + Jᵀ μ with μ = 0; J ṡ = 0 holds, so μ = 0 is the solution */
    memset(c->mu[0], 0, (size_t)c->nc * sizeof(double));
    memset(c->mu[1], 0, (size_t)c->nc * sizeof(double));
    c->cur = 0;
    c->have_prev = 0;
}

void rs_chain_set_state(rs_chain *c, const double *s, const double *p, const double *mu)
{
    memcpy(c->s, s, 4 * (size_t)c->n * sizeof(double));
    memcpy(c->p, p, 4 * (size_t)c->n * sizeof(double));
    if (mu)
        memcpy(c->mu[0], mu, (size_t)c->nc * sizeof(double));
    else
        memset(c->mu[0], 0, (size_t)c->nc * sizeof(double));
    c->cur = 0;
    c->have_prev = 0;
}

/* ------------------------------------------------------------- queries */

int rs_chain_bodies(const rs_chain *c) { return c->n; }
const double *rs_chain_coords(const rs_chain *c) { return c->s; }
const double *rs_chain_momenta(const rs_chain *c) { return c->p; }
const double *rs_chain_mu(const rs_chain *c) { return c->mu[c->cur]; }
double rs_chain_last_tau(const rs_chain *c) { return c->last_tau; }
rs_chain_stats rs_chain_get_stats(const rs_chain *c) { return c->stats; }

double rs_chain_angle(const rs_chain *c, int i)
{
    return atan2(c->s[4 * i + 2], -c->s[4 * i + 3]);
}

static double violation(const rs_chain *c, int unit)
{
    double v = 0.0;
    for (int row = 0; row < c->nc; row++)
        if ((row % 3 == 2) == unit && fabs(rs_chain_f(c, c->s, row)) > v)
            v = fabs(rs_chain_f(c, c->s, row));
    return v;
}
double rs_chain_joint_violation(const rs_chain *c) { return violation(c, 0); }
double rs_chain_unit_violation(const rs_chain *c) { return violation(c, 1); }

void rs_chain_system(rs_chain *c, double *A_dense, double *b)
{
    const int nc = c->nc;
    for (int row = 0; row < nc; row++) {
        double Arow[2 * RS_CHAIN_KD + 1], bv;
        rs_chain_assemble_row(c, c->s, c->p, row, Arow, &bv);
        if (b)
            b[row] = bv;
        if (A_dense)
            for (int d = -RS_CHAIN_KD; d <= RS_CHAIN_KD; d++)
                if (row + d >= 0 && row + d < nc)
                    A_dense[row + (size_t)(row + d) * (size_t)nc] = Arow[d + RS_CHAIN_KD];
    }
    if (A_dense)   /* zeros outside the band */
        for (int col = 0; col < nc; col++)
            for (int row = 0; row < nc; row++)
                if (abs(row - col) > RS_CHAIN_KD)
                    A_dense[row + (size_t)col * (size_t)nc] = 0.0;
}

/* Kinetic energy from the velocities of a direct solve at the current
 * state (serial; tests and reports, not the step). */
double rs_chain_energy(rs_chain *c)
{
    const int nc = c->nc;
    for (int row = 0; row < nc; row++) {
        double Arow[2 * RS_CHAIN_KD + 1];
        rs_chain_assemble_row(c, c->s, c->p, row, Arow, &c->scratch[row]);
        for (int j = 0; j <= RS_CHAIN_KD; j++)
            c->L[(size_t)row * (RS_CHAIN_KD + 1) + (size_t)j] = Arow[RS_CHAIN_KD - j];
    }
    if (rs_band_chol(c->L, nc, RS_CHAIN_KD, NULL) != RS_OK)
        return NAN;
    rs_band_chol_solve(c->L, nc, RS_CHAIN_KD, c->scratch);
    double e = 0.0;
    for (int i = 0; i < c->n; i++) {
        double sd[4], pd[4];
        rs_chain_body_rates(c, c->s, c->p, c->scratch, i, sd, pd);
        e += 0.5 * c->cfg.mass * (sd[0] * sd[0] + sd[1] * sd[1]) +
             0.5 * c->cfg.inertia * (sd[2] * sd[2] + sd[3] * sd[3]) + c->cfg.mass * c->cfg.gravity * c->s[4 * i + 1];
    }
    return e;
}
