/*
 * rs_step.c — the integrators: IMEX Euler (seed 003 §4) and RK4 on the
 * index-1 form, the position and velocity projections, and rs_run.
 *
 * Invariants of a step: no allocation (KLU's full re-factorization when
 * rcond degrades is the one stated exception, see rs_ws.h), no I/O, every
 * loop bounded by the model's sizes or proj_maxiter.  A failing step
 * restores q, q̇ and t to their values at its start.
 */
#include <math.h>
#include <string.h>

#include "rs_etd.h"
#include "rs_ws_impl.h"

/* ---- small sparse kernels on the model's CSC patterns ------------------ */

/* y += A x for CSC pattern P with values v. */
static void csc_gaxpy(const rs_pattern *P, const double *v, const double *x, double *y)
{
    for (int j = 0; j < P->ncol; j++)
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            y[P->rowind[k]] += v[k] * x[j];
}

static double max_abs(const double *v, int n, int *where)
{
    double r = 0;
    *where = 0;
    for (int i = 0; i < n; i++)
        if (fabs(v[i]) > r) {
            r = fabs(v[i]);
            *where = i;
        }
    return r;
}

/* ---- factorization with messages that name the unknown ----------------- */

static int factor(rs_ws *ws, rs_klu_factors *F, const char *what)
{
    int bad;
    int st = rs_klu_factorize(&ws->sys, F, ws->opt.rcond_min, ws->opt.rcond_drop, &ws->stats, &bad);
    if (st == RS_OK)
        return RS_OK;
    const rs_model *m = ws->model;
    if (st == RS_E_SINGULAR) {
        if (bad >= 0 && bad < m->n_q)
            return rs_ws_fail(ws, st, "%s matrix is singular (rcond %.3g) at the column of "
                              "velocity '%s'", what, ws->stats.rcond_last, m->q_names[bad]);
        if (bad >= m->n_q && bad < m->n_q + m->n_phi)
            return rs_ws_fail(ws, st, "%s matrix is singular (rcond %.3g) at the multiplier of "
                              "constraint '%s'", what, ws->stats.rcond_last,
                              m->phi_names[bad - m->n_q]);
        return rs_ws_fail(ws, st, "%s matrix is singular (rcond %.3g)", what,
                          ws->stats.rcond_last);
    }
    return rs_ws_fail(ws, st, "%s matrix: KLU failed (status %d)", what, ws->sys.common.status);
}

static int solve(rs_ws *ws, rs_klu_factors *F, const char *what)
{
    int st = rs_klu_solve(&ws->sys, F, ws->rhs, &ws->stats);
    if (st)
        return rs_ws_fail(ws, st, "%s: klu_solve failed (status %d)", what, ws->sys.common.status);
    return RS_OK;
}

/* Evaluates M and δ (and φ_q, γ when constrained) at the bound state. */
static int eval_dynamics(rs_ws *ws)
{
    const rs_model *m = ws->model;
    int st;
    ws->creep_ready = 0;
    if ((st = rs_ws_plugin_eval(ws))) /* the plugins' forces into their input slots */
        return st;
    if (rs_ws_combined(ws, RS_FN_STEP)) {
        /* one atom set for M, δ^NK, φ_q, γ and the creep pieces */
        rs_contact_ws *c = ws->ct;
        double *out[RS_FN_MAX_OUT] = {ws->Mv, ws->delta, ws->Gv, ws->gamma};
        if (c)
            ws->cops->step_outputs(c, out + 4);
        /* RS_FAST_STEP_CACHE: at the q and s where RS_FN_PROJ wrote the
         * cache, the atoms the two share are read from it */
        const int cached = ws->cache_valid && (ws->opt.fast & RS_FAST_STEP_CACHE) &&
                           !memcmp(ws->in[RS_IN_Q], ws->cache_q, (size_t)m->n_q * sizeof(double)) &&
                           !memcmp(ws->s, ws->cache_s, (size_t)m->n_s * sizeof(double));
        if ((st = rs_ws_call_n(ws, cached ? RS_FN_STEP_CACHED : RS_FN_STEP, out)))
            return st;
        ws->stats.step_cache_hits += cached;
        ws->creep_ready = c != NULL;
    } else if (ws->ct && ws->cops->elastic && rs_ws_combined(ws, RS_FN_STEP_ELASTIC)) {
        /* the elastic contact: one atom set for M, δ^NK and the wheels'
         * kinematics (RS_FN_WHEEL's outputs, into the plug-in's arrays) */
        double *out[RS_FN_MAX_OUT] = {ws->Mv, ws->delta};
        ws->cops->step_outputs(ws->ct, out + 2);
        if ((st = rs_ws_call_n(ws, RS_FN_STEP_ELASTIC, out)))
            return st;
        ws->creep_ready = 1;
    } else {
        /* With contact the creep forces enter implicitly (C^K_qq): the
         * explicit force is δ^NK, δ with the creep force inputs at 0. */
        if ((st = rs_ws_call(ws, RS_FN_M, ws->Mv, NULL)) ||
            (st = rs_ws_call(ws, ws->ct ? RS_FN_DELTA_NK : RS_FN_DELTA, ws->delta, NULL)))
            return st;
        if (m->n_phi > 0 && ((st = rs_ws_call(ws, RS_FN_PHI_Q, ws->Gv, NULL)) ||
                             (st = rs_ws_call(ws, RS_FN_GAMMA, ws->gamma, NULL))))
            return st;
    }
    if (ws->opt.check_finite &&
        ((st = rs_ws_check_finite(ws, ws->Mv, ws->sys.nnz_M, "mass matrix value M", NULL)) ||
         (st = rs_ws_check_finite(ws, ws->delta, m->n_q, "generalized force delta", m->q_names)) ||
         (st = rs_ws_check_finite(ws, ws->Gv, ws->sys.nnz_G, "constraint Jacobian value phi_q",
                                  NULL)) ||
         (st = rs_ws_check_finite(ws, ws->gamma, m->n_phi, "gamma", m->phi_names))))
        return st;
    return RS_OK;
}

/* ---- projections ------------------------------------------------------- */

/* Dense Cholesky of S = φ_q φ_qᵀ (n_phi ≤ RS_DENSE_PROJ_MAX), then
 * μ = S⁻¹ r and Δ = φ_qᵀ μ: the minimum-norm Δ with φ_q Δ = r, the same
 * as the KLU solve of [I φ_qᵀ; φ_q 0] below.  S is formed column by column
 * of φ_q's pattern (the rows of one column pair up), in its upper triangle.
 * r: ws->rhs[n_q..); Δ: ws->rhs[0..n_q).  Returns 0, or -1 when a pivot is
 * not clearly positive (dependent constraints: the caller uses KLU, which
 * names the culprit). */
static int dense_min_norm(rs_ws *ws)
{
    const rs_model *m = ws->model;
    const rs_pattern *P = &m->phi_q_pattern;
    const int nq = m->n_q, n = m->n_phi;
    double *S = ws->S, *mu = ws->mu;
    const double *g = ws->Gv;
    memset(S, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int j = 0; j < nq; j++)
        for (int k1 = P->colptr[j]; k1 < P->colptr[j + 1]; k1++) {
            double *row = S + (size_t)P->rowind[k1] * (size_t)n;
            for (int k2 = k1; k2 < P->colptr[j + 1]; k2++)
                row[P->rowind[k2]] += g[k1] * g[k2];
        }
    double dmax = 0;
    for (int i = 0; i < n; i++)
        if (S[i * n + i] > dmax)
            dmax = S[i * n + i];
    /* S = Rᵀ R, R upper triangular, in place */
    for (int k = 0; k < n; k++) {
        double *rk = S + k * n;
        double d = rk[k];
        for (int l = 0; l < k; l++)
            d -= S[l * n + k] * S[l * n + k];
        if (!(d > 1e-12 * dmax))
            return -1;
        rk[k] = sqrt(d);
        const double inv = 1.0 / rk[k];
        for (int c = k + 1; c < n; c++) {
            double v = rk[c];
            for (int l = 0; l < k; l++)
                v -= S[l * n + k] * S[l * n + c];
            rk[c] = v * inv;
        }
    }
    const double *r = ws->rhs + nq;
    for (int k = 0; k < n; k++) { /* Rᵀ y = r */
        double v = r[k];
        for (int l = 0; l < k; l++)
            v -= S[l * n + k] * mu[l];
        mu[k] = v / S[k * n + k];
    }
    for (int k = n - 1; k >= 0; k--) { /* R μ = y */
        double v = mu[k];
        for (int c = k + 1; c < n; c++)
            v -= S[k * n + c] * mu[c];
        mu[k] = v / S[k * n + k];
    }
    for (int j = 0; j < nq; j++) {
        double v = 0;
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            v += g[k] * mu[P->rowind[k]];
        ws->rhs[j] = v;
    }
    ws->stats.dense_solves++;
    return 0;
}

/* The minimum-norm correction Δ with φ_q Δ = r (φ_q in ws->Gv, r in
 * ws->rhs[n_q..), Δ written to ws->rhs[0..n_q)): the dense normal equations
 * when allowed (RS_FAST_DENSE_PROJ) and they work, else KLU on
 *   [I φ_qᵀ; φ_q 0] [Δ; −μ] = [0; r]. */
static int min_norm(rs_ws *ws, const char *what)
{
    const int nq = ws->model->n_q;
    int st;
    if ((ws->opt.fast & RS_FAST_DENSE_PROJ) && ws->model->n_phi <= RS_DENSE_PROJ_MAX &&
        dense_min_norm(ws) == 0)
        return RS_OK;
    memset(ws->rhs, 0, (size_t)nq * sizeof(double));
    rs_klu_system_fill(&ws->sys, NULL, ws->Gv, 1.0);
    if ((st = factor(ws, &ws->fac_proj, what)))
        return st;
    return solve(ws, &ws->fac_proj, what);
}

/* The initial state's projections go on to this |φ| (round-off of metres
 * and radians; project_initial). */
#define RS_PROJ_TOL_INITIAL 1e-13

/* Newton on φ(q, t) = 0 with the minimum-norm correction
 *   [I φ_qᵀ; φ_q 0] [Δq; μ] = [0; −φ]   ⇒   Δq = −φ_qᵀ (φ_q φ_qᵀ)⁻¹ φ,
 * until max|φ| <= proj_tol.  `initial`: on to RS_PROJ_TOL_INITIAL while each
 * iteration still divides |φ| by ten (round-off then stops it). */
static int project_position(rs_ws *ws, double t, int initial)
{
    const rs_model *m = ws->model;
    const int nq = m->n_q, nphi = m->n_phi;
    int it = 0, worst, st;
    double r, r_prev = INFINITY;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    for (;;) {
        /* RS_FN_PROJ already evaluated φ and φ_q here (the contact Newton's
         * last pass) */
        if ((!ws->proj_ready && (st = rs_ws_call(ws, RS_FN_PHI, ws->phi, NULL))) ||
            (st = rs_ws_check_finite(ws, ws->phi, nphi, "constraint phi", m->phi_names)))
            return st;
        r = max_abs(ws->phi, nphi, &worst);
        if (r <= ws->opt.proj_tol &&
            (!initial || r <= RS_PROJ_TOL_INITIAL || !(r < 0.1 * r_prev) || it >= ws->opt.proj_maxiter))
            break;
        r_prev = r;
        if (it >= ws->opt.proj_maxiter)
            return rs_ws_fail(ws, RS_E_NOCONV,
                              "position projection: |phi| = %.3g at constraint '%s' exceeds the "
                              "tolerance %.3g after %d iteration(s) (limit %d)",
                              r, m->phi_names[worst], ws->opt.proj_tol, it,
                              ws->opt.proj_maxiter);
        if ((!ws->proj_ready && (st = rs_ws_call(ws, RS_FN_PHI_Q, ws->Gv, NULL))) ||
            (st = rs_ws_check_finite(ws, ws->Gv, ws->sys.nnz_G, "constraint Jacobian value phi_q",
                                     NULL)))
            return st;
        ws->proj_ready = 0; /* q moves */
        for (int i = 0; i < nphi; i++)
            ws->rhs[nq + i] = -ws->phi[i];
        if ((st = min_norm(ws, "position projection")))
            return st;
        for (int j = 0; j < nq; j++)
            ws->q[j] += ws->rhs[j];
        it++;
    }
    ws->stats.proj_iters += it;
    ws->stats.proj_iters_last = it;
    if (it > ws->stats.proj_iters_max)
        ws->stats.proj_iters_max = it;
    ws->stats.pos_residual = r;
    return RS_OK;
}

/* The velocity residual ρ = β − φ_q q̇ into rhs[n_q..), and its largest
 * magnitude (the constraint in *worst). */
static double velocity_residual(rs_ws *ws, int *worst)
{
    const rs_model *m = ws->model;
    const int nq = m->n_q, nphi = m->n_phi;
    for (int i = 0; i < nphi; i++)
        ws->rhs[nq + i] = ws->beta[i];
    for (int j = 0; j < nq; j++)
        for (int k = m->phi_q_pattern.colptr[j]; k < m->phi_q_pattern.colptr[j + 1]; k++)
            ws->rhs[nq + m->phi_q_pattern.rowind[k]] -= ws->Gv[k] * ws->qd[j];
    return max_abs(ws->rhs + nq, nphi, worst);
}

/* φ_q q̇ = β, minimum-norm change of q̇:
 *   [I φ_qᵀ; φ_q 0] [Δq̇; μ] = [0; β − φ_q q̇].  The equation is linear in q̇,
 * so one solve is exact; skipped when the residual is already below tol
 * (`initial`: below RS_PROJ_TOL_INITIAL). */
static int project_velocity(rs_ws *ws, double t, int initial)
{
    const rs_model *m = ws->model;
    const int nq = m->n_q, nphi = m->n_phi;
    int worst, st;
    double r;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    if ((!ws->proj_ready && ((st = rs_ws_call(ws, RS_FN_PHI_Q, ws->Gv, NULL)) ||
                             (st = rs_ws_call(ws, RS_FN_BETA, ws->beta, NULL)))) ||
        (st = rs_ws_check_finite(ws, ws->Gv, ws->sys.nnz_G, "constraint Jacobian value phi_q",
                                 NULL)) ||
        (st = rs_ws_check_finite(ws, ws->beta, nphi, "beta", m->phi_names)))
        return st;
    r = velocity_residual(ws, &worst);
    if (r > (initial ? RS_PROJ_TOL_INITIAL : ws->opt.proj_tol)) {
        if ((st = min_norm(ws, "velocity projection")))
            return st;
        for (int j = 0; j < nq; j++)
            ws->qd[j] += ws->rhs[j];
        ws->stats.vel_projections++;
        r = velocity_residual(ws, &worst);
        if (!(r <= ws->opt.proj_tol))
            return rs_ws_fail(ws, RS_E_NOCONV,
                              "velocity projection: |phi_q qd - beta| = %.3g at constraint '%s' "
                              "exceeds the tolerance %.3g",
                              r, m->phi_names[worst], ws->opt.proj_tol);
    }
    ws->stats.vel_residual = r;
    return RS_OK;
}

/* `initial` (rs_ws_init): to round-off.  The step's projections stop at
 * proj_tol, and a start off the manifold by less would stay off by as much
 * for the whole run (each step's velocity projection keeps φ̇ = 0): a
 * micrometre release, as an eigenvalue check makes, then oscillates about a
 * shifted state (docs/linear.md: 5 % in ζ on the S1002 wheelset). */
static int project(rs_ws *ws, double t, int initial)
{
    if (ws->model->n_phi == 0)
        return RS_OK;
    int st = project_position(ws, t, initial);
    return st ? st : project_velocity(ws, t, initial);
}

/* ---- internal states z ------------------------------------------------- */

/* ż (into zdot) and b = ∂ż/∂z (into b, may be NULL) at the bound state,
 * z as its input slots hold it. */
static int eval_zdot(rs_ws *ws, double *zdot, double *b)
{
    const rs_model *m = ws->model;
    int st = rs_ws_call(ws, RS_FN_ZDOT, zdot, b);
    if (!st && ws->opt.check_finite)
        st = rs_ws_check_finite(ws, zdot, m->n_z, "internal state rate zdot", m->z_names);
    return st;
}

/* The start of an IMEX step (bound at t, q, q̇, z): ż = a + b z there, and
 * b < 0 (a stable node: its stiffness and damping positive). */
static int z_start(rs_ws *ws)
{
    const rs_model *m = ws->model;
    int st = eval_zdot(ws, ws->zd, ws->zb);
    if (st)
        return st;
    for (int i = 0; i < m->n_z; i++) {
        if (!(ws->zb[i] < 0) || !isfinite(ws->zb[i]))
            return rs_ws_fail(ws, RS_E_VALUE,
                              "internal state '%s': d(zdot)/dz = %g is not negative: the stiffness and "
                              "the damping of its element must be positive (check the parameters: the "
                              "scenario's 'param' lines, a sweep's values, the description)",
                              m->z_names[i], ws->zb[i]);
        ws->za[i] = ws->zd[i] - ws->zb[i] * ws->z0[i];
    }
    return RS_OK;
}

/* The end of an IMEX step, after q, q̇ are final at t1: each z_i from
 * ż_i = a_i(t) + b_i z_i with a_i linear in time between its values at the
 * step's two ends and b_i from its start, integrated exactly
 * (rs_etd_advance).  a1 comes from ż at (t1, q1, q̇1, z0). */
static int z_finish(rs_ws *ws, double t1)
{
    const rs_model *m = ws->model;
    const double h = ws->dt;
    rs_ws_bind(ws, t1, ws->q, ws->qd);
    int st = eval_zdot(ws, ws->zd, NULL);
    if (st)
        return st;
    for (int i = 0; i < m->n_z; i++) /* a1: ż there minus b z0 (a does not depend on z) */
        ws->zd[i] = rs_etd_advance(ws->z0[i], ws->za[i], ws->zd[i] - ws->zb[i] * ws->z0[i], ws->zb[i], h);
    rs_ws_put_z(ws, ws->zd);
    return RS_OK;
}

/* ---- IMEX Euler -------------------------------------------------------- */

/*   [ M + Δt C^K   Δt φ_qᵀ ] [ q̇(t+Δt) ]   [ Δt (δ^NK − D Cb ν_t) + M q̇(t) ]
 *   [ φ_q          0       ] [ λ        ] = [ Δt γ + φ_q q̇(t)               ]
 *   q(t+Δt) = q(t) + Δt (q̇(t) + q̇(t+Δt)) / 2,  all functions at t;
 * then (contact) s ← s + Δt ṡ and Newton on φ^d for s, the projections at
 * t+Δt, and (contact) ṡ from the φ^d velocity equation.  Without contact
 * C^K = 0, ν_t = 0 and δ^NK = δ: the plain step. */
static int step_imex(rs_ws *ws, double t1)
{
    const rs_model *m = ws->model;
    const int nq = m->n_q, nphi = m->n_phi;
    const double h = ws->dt;
    rs_contact_ws *ct = ws->ct;
    int st;
    ws->proj_ready = ws->s_predicted = 0;
    if ((st = rs_ws_inputs(ws, ws->t)))
        return st;
    if (ct) {
        rs_prof_enter(ws, RS_PHASE_SPLINE);
        ws->cops->fill(ct, -1, ws->s, ws->u); /* after the input callback */
        rs_prof_enter(ws, RS_PHASE_OTHER);
    }
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    if ((st = eval_dynamics(ws)) || (m->n_z > 0 && (st = z_start(ws))))
        return st;
    if (ct) {
        rs_prof_enter(ws, RS_PHASE_KALKER);
        if ((st = ws->cops->creep(ws)))
            return st;
    }
    /* again: the elastic contact took a patch the solve made pull out of
     * the step (RS_CONTACT_AGAIN; it bounds how often) */
again:
    rs_prof_enter(ws, RS_PHASE_SOLVE);
    rs_klu_system_fill(&ws->sys, ws->Mv, ws->Gv, h);
    if (ct)
        ws->cops->add_ck(ws, h);
    /* plugins with their Jacobian: implicit, beside the contact's terms
     * (tested here, not inside: a model without plugins pays one test) */
    if (ws->plug_implicit && (st = rs_ws_plugin_jac_add(ws, h)))
        return st;
    if ((st = factor(ws, &ws->fac_dyn, "IMEX system")))
        return st;
    for (int j = 0; j < nq; j++)
        ws->rhs[j] = h * ws->delta[j];
    if (ws->plug_implicit)
        rs_ws_plugin_jac_rhs(ws, h, ws->rhs);
    if (ct) /* − Δt D (Cb ν_t): creep of the prescribed motion, explicit */
        ws->cops->add_explicit_creep(ws, h, ws->rhs);
    for (int i = 0; i < nphi; i++)
        ws->rhs[nq + i] = h * ws->gamma[i];
    csc_gaxpy(&m->M_pattern, ws->Mv, ws->qd, ws->rhs);
    if (nphi > 0)
        csc_gaxpy(&m->phi_q_pattern, ws->Gv, ws->qd, ws->rhs + nq);
    if ((st = solve(ws, &ws->fac_dyn, "IMEX system")))
        return st;
    if (ws->opt.check_finite &&
        (st = rs_ws_check_finite(ws, ws->rhs, nq, "new velocity qd", m->q_names)))
        return st;
    for (int i = 0; i < nphi; i++)
        ws->lambda[i] = ws->rhs[nq + i];
    if (ct && (st = ws->cops->after_solve(ws, ws->rhs)) == RS_CONTACT_AGAIN)
        goto again;
    if (st)
        return st;
    rs_prof_enter(ws, RS_PHASE_INTEGRATION);
    for (int j = 0; j < nq; j++) {
        ws->q[j] += 0.5 * h * (ws->qd[j] + ws->rhs[j]);
        ws->qd[j] = ws->rhs[j];
    }
    if (!ct) {
        rs_prof_enter(ws, RS_PHASE_PROJECTION);
        return project(ws, t1, 0);
    }
    for (int k = 0; k < m->n_s; k++) /* s prediction */
        ws->s[k] += h * ws->sd[k];
    ws->s_predicted = 1;
    rs_prof_enter(ws, RS_PHASE_PROJECTION);
    if ((st = ws->cops->solve_s(ws, t1)) || (st = project(ws, t1, 0)))
        return st;
    /* If the q projection moved q, φ^d again (usually already within tol).
     * If it took no Newton iteration, q is what the contact-point Newton
     * just converged at (φ^d depends on t, q and s, not on q̇): evaluating
     * φ^d again would only give back the converged residual, so skip it. */
    int it = ws->stats.contact_iters_last;
    if (ws->stats.proj_iters_last > 0 && (st = ws->cops->solve_s(ws, t1)))
        return st;
    if (ws->stats.proj_iters_last > 0)
        ws->stats.contact_iters_last += it;
    if (ws->stats.contact_iters_last > ws->stats.contact_iters_max)
        ws->stats.contact_iters_max = ws->stats.contact_iters_last;
    return ws->cops->solve_sd(ws, t1);
}

/* ---- RK4 on the index-1 form ------------------------------------------- */

/* [M φ_qᵀ; φ_q 0] [q̈; λ] = [δ; γ] at (t, q, q̇). */
static int accel(rs_ws *ws, double t, const double *q, const double *qd, double *qdd)
{
    const rs_model *m = ws->model;
    const int nq = m->n_q, nphi = m->n_phi;
    int st;
    if ((st = rs_ws_inputs(ws, t)))
        return st;
    rs_ws_bind(ws, t, q, qd);
    if ((st = eval_dynamics(ws)))
        return st;
    rs_klu_system_fill(&ws->sys, ws->Mv, ws->Gv, 1.0);
    if ((st = factor(ws, &ws->fac_dyn, "index-1 system")))
        return st;
    memcpy(ws->rhs, ws->delta, (size_t)nq * sizeof(double));
    if (nphi > 0)
        memcpy(ws->rhs + nq, ws->gamma, (size_t)nphi * sizeof(double));
    if ((st = solve(ws, &ws->fac_dyn, "index-1 system")))
        return st;
    if (ws->opt.check_finite &&
        (st = rs_ws_check_finite(ws, ws->rhs, nq, "acceleration qdd", m->q_names)))
        return st;
    memcpy(qdd, ws->rhs, (size_t)nq * sizeof(double));
    for (int i = 0; i < nphi; i++)
        ws->lambda[i] = ws->rhs[nq + i];
    return RS_OK;
}

static int step_rk4(rs_ws *ws, double t1)
{
    const int nq = ws->model->n_q, nz = ws->model->n_z;
    const double h = ws->dt, t = ws->t;
    static const double c[4] = {0.0, 0.5, 0.5, 1.0};
    int st;
    for (int s = 0; s < 4; s++) {
        /* stage state: q + c h kq[s-1], q̇ + c h kv[s-1] (z + c h kz[s-1]) */
        for (int j = 0; j < nq; j++) {
            ws->qs[j] = s ? ws->q[j] + c[s] * h * ws->kq[s - 1][j] : ws->q[j];
            ws->qds[j] = s ? ws->qd[j] + c[s] * h * ws->kv[s - 1][j] : ws->qd[j];
        }
        for (int i = 0; i < nz; i++) /* the stage's z into its input slots */
            ws->zd[i] = s ? ws->z0[i] + c[s] * h * ws->kz[s - 1][i] : ws->z0[i];
        if (nz > 0)
            rs_ws_put_z(ws, ws->zd);
        memcpy(ws->kq[s], ws->qds, (size_t)nq * sizeof(double));
        if ((st = accel(ws, t + c[s] * h, ws->qs, ws->qds, ws->kv[s])) ||
            (nz > 0 && (st = eval_zdot(ws, ws->kz[s], NULL))))
            return st;
    }
    for (int j = 0; j < nq; j++) {
        ws->q[j] += h / 6 * (ws->kq[0][j] + 2 * ws->kq[1][j] + 2 * ws->kq[2][j] + ws->kq[3][j]);
        ws->qd[j] += h / 6 * (ws->kv[0][j] + 2 * ws->kv[1][j] + 2 * ws->kv[2][j] + ws->kv[3][j]);
    }
    for (int i = 0; i < nz; i++)
        ws->zd[i] = ws->z0[i] + h / 6 * (ws->kz[0][i] + 2 * ws->kz[1][i] + 2 * ws->kz[2][i] + ws->kz[3][i]);
    if (nz > 0)
        rs_ws_put_z(ws, ws->zd);
    memcpy(ws->qdd, ws->kv[3], (size_t)nq * sizeof(double));
    return project(ws, t1, 0);
}

/* ---- public entry points ----------------------------------------------- */

static int state_finite(rs_ws *ws, const char *when)
{
    const rs_model *m = ws->model;
    for (int j = 0; j < m->n_q; j++) {
        if (!isfinite(ws->q[j]))
            return rs_ws_fail(ws, RS_E_NONFINITE, "%s coordinate q[%d] ('%s') is %g", when, j,
                              m->q_names[j], ws->q[j]);
        if (!isfinite(ws->qd[j]))
            return rs_ws_fail(ws, RS_E_NONFINITE, "%s velocity qd[%d] ('%s_dot') is %g", when, j,
                              m->q_names[j], ws->qd[j]);
    }
    return RS_OK;
}

/* RS_KLU_AUTO: times the candidate orderings on this workspace's two
 * matrices at the current (initial, projected) state — the dynamics matrix
 * as the step builds it and, when constrained, the projection matrix — and
 * analyzes K with the fastest (rs_klu_system_choose).  Numeric objects of the
 * previous analysis are dropped; the callers factor again. */
static int choose_ordering(rs_ws *ws)
{
    const rs_model *m = ws->model;
    const rs_allocator *a = &ws->opt.allocator;
    const int nnz = ws->sys.nnz;
    double *Ad = rs_alloc(a, (size_t)nnz, sizeof(double));
    double *Ap = m->n_phi > 0 ? rs_alloc(a, (size_t)nnz, sizeof(double)) : NULL;
    if (!Ad || (m->n_phi > 0 && !Ap)) {
        rs_free(a, Ad);
        rs_free(a, Ap);
        return rs_ws_fail(ws, RS_E_NOMEM, "out of memory choosing the KLU ordering");
    }
    rs_klu_system_fill(&ws->sys, ws->Mv, ws->Gv, ws->opt.method == RS_IMEX_EULER ? ws->dt : 1.0);
    memcpy(Ad, ws->sys.Ax, (size_t)nnz * sizeof(double));
    if (Ap) {
        rs_klu_system_fill(&ws->sys, NULL, ws->Gv, 1.0);
        memcpy(Ap, ws->sys.Ax, (size_t)nnz * sizeof(double));
    }
    rs_klu_factors_free(&ws->sys, &ws->fac_dyn);
    rs_klu_factors_free(&ws->sys, &ws->fac_proj);
    int st = rs_klu_system_choose(&ws->sys, Ad, Ap, ws->opt.klu_btf, ws->opt.klu_trials,
                            ws->opt.rcond_min, a, &ws->klu_info);
    rs_free(a, Ad);
    rs_free(a, Ap);
    if (st == RS_E_SINGULAR)
        return RS_OK; /* K keeps its analysis; the factorization says where */
    if (st)
        return rs_ws_fail(ws, st, "choosing the KLU ordering failed (KLU status %d)",
                          ws->sys.common.status);
    return RS_OK;
}

/* RS_FAST_LU_FIXED: F was just factored with K's current values; from now
 * on its refactorizations use the fixed-order LU when the order allows. */
static int fixed_lu(rs_ws *ws, rs_klu_factors *F)
{
    if (!(ws->opt.fast & RS_FAST_LU_FIXED))
        return RS_OK;
    int st = rs_klu_fixed_enable(&ws->sys, F, ws->opt.rcond_min, &ws->opt.allocator);
    return st ? rs_ws_fail(ws, st, "out of memory setting up the fixed-order LU") : RS_OK;
}

/* A negative mass or inertia (a parameter from a scenario or a sweep, an
 * expression of the description) shows as a negative diagonal entry of M:
 * refused before the first step, naming the coordinate. */
static int check_mass_diagonal(rs_ws *ws)
{
    const rs_model *m = ws->model;
    const rs_pattern *P = &m->M_pattern;
    for (int j = 0; j < m->n_q; j++)
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            if (P->rowind[k] == j && ws->Mv[k] < 0)
                return rs_ws_fail(ws, RS_E_VALUE,
                                  "the mass matrix is negative on its diagonal at coordinate '%s' (%g): a mass "
                                  "or an inertia is negative; check the parameters (the scenario's 'param' "
                                  "lines, a sweep's values, the description's 'mass' and 'inertia')",
                                  m->q_names[j], ws->Mv[k]);
    return RS_OK;
}

int rs_ws_init(rs_ws *ws)
{
    if (!ws || ws->magic != RS_WS_MAGIC)
        return RS_E_ARG;
    const rs_model *m = ws->model;
    int st;
    ws->in_init = 1;
    ws->err[0] = '\0';
    ws->proj_ready = ws->s_predicted = ws->cache_valid = 0;
    if ((st = rs_ws_update_constants(ws)) || (st = rs_ws_inputs(ws, ws->t)) ||
        (st = state_finite(ws, "initial")))
        goto done;
    if (ws->ct && (st = ws->cops->solve_s(ws, ws->t)))
        goto done; /* contact points first: φ^n depends on s */
    if (m->n_phi > 0 && ws->opt.project_initial && (st = project(ws, ws->t, 1)))
        goto done;
    if (ws->ct && ((st = ws->cops->solve_s(ws, ws->t)) ||
                   (st = ws->cops->solve_sd(ws, ws->t))))
        goto done;
    /* First full factorizations, so that steps only refactor. */
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    if ((st = eval_dynamics(ws)) || (st = check_mass_diagonal(ws)))
        goto done;
    if (m->n_z > 0) { /* refuses a node that is not stable (b >= 0) before the first step */
        rs_ws_get_z(ws, ws->z0);
        if ((st = z_start(ws)))
            goto done;
    }
    if (ws->opt.klu_ordering == RS_KLU_AUTO && !ws->klu_info.chosen &&
        (st = choose_ordering(ws)))
        goto done;
    rs_klu_system_fill(&ws->sys, ws->Mv, ws->Gv, ws->opt.method == RS_IMEX_EULER ? ws->dt : 1.0);
    if ((st = factor(ws, &ws->fac_dyn, "initial system")) ||
        (st = fixed_lu(ws, &ws->fac_dyn)))
        goto done;
    {
        /* One creep-free IMEX solve at the initial state: the accelerations
         * q̈ that outputs written with acc(), alpha() or q_dd read at t0,
         * and for contacts the normal forces Hertz needs from the
         * "previous step".  (The solution's q part is q̇ + Δt q̈ whether
         * the matrix holds φ_qᵀ scaled for IMEX or for RK4.) */
        for (int j = 0; j < m->n_q; j++)
            ws->rhs[j] = ws->dt * ws->delta[j];
        for (int i = 0; i < m->n_phi; i++)
            ws->rhs[m->n_q + i] = ws->dt * ws->gamma[i];
        csc_gaxpy(&m->M_pattern, ws->Mv, ws->qd, ws->rhs);
        if (m->n_phi > 0)
            csc_gaxpy(&m->phi_q_pattern, ws->Gv, ws->qd, ws->rhs + m->n_q);
        if ((st = solve(ws, &ws->fac_dyn, "initial system")))
            goto done;
        for (int j = 0; j < m->n_q; j++)
            ws->qdd[j] = (ws->rhs[j] - ws->qd[j]) / ws->dt;
        ws->qdd_pending = 0;
        for (int i = 0; ws->ct && i < m->n_phi; i++)
            ws->lambda[i] = ws->rhs[m->n_q + i];
    }
    if (m->n_phi > 0) {
        /* (the initial projection may have factored it already, in the
         * same pivot order: the fixed LU takes its order from KLU's) */
        rs_klu_system_fill(&ws->sys, NULL, ws->Gv, 1.0);
        if ((!ws->fac_proj.num && (st = factor(ws, &ws->fac_proj, "initial projection"))) ||
            (st = fixed_lu(ws, &ws->fac_proj)))
            goto done;
    }
    ws->ready = 1;
done:
    ws->in_init = 0;
    return st;
}

int rs_step(rs_ws *ws)
{
    if (!ws || ws->magic != RS_WS_MAGIC)
        return RS_E_ARG;
    int st;
    if (!ws->ready && (st = rs_ws_init(ws)))
        return st;
    const int nq = ws->model->n_q;
    const double t1 = ws->t_base + (double)(ws->n_since_base + 1) * ws->dt;
    if (ws->opt.profile) { /* phase timers: everything until the end is "other" */
        ws->prof_on = 1;
        ws->prof_phase = RS_PHASE_OTHER;
        ws->prof_t0 = rs_now_s();
    }
    memcpy(ws->q0, ws->q, (size_t)nq * sizeof(double));
    if (ws->qdd_pending && ws->qdd_from == ws->qd0) { /* keep the last step's q̇ₙ for its q̈ */
        double *const b = ws->qd0;
        ws->qd0 = ws->qd0_alt;
        ws->qd0_alt = b;
    }
    memcpy(ws->qd0, ws->qd, (size_t)nq * sizeof(double));
    rs_ws_get_z(ws, ws->z0); /* internal states too */
    if (ws->ct) { /* contact coordinates are state too */
        memcpy(ws->s0, ws->s, (size_t)ws->model->n_s * sizeof(double));
        memcpy(ws->sd0, ws->sd, (size_t)ws->model->n_s * sizeof(double));
    }
    if ((st = rs_ws_update_constants(ws)) || (st = state_finite(ws, "state:")))
        goto fail;
    st = ws->opt.method == RS_RK4 ? step_rk4(ws, t1) : step_imex(ws, t1);
    if (!st && ws->opt.method != RS_RK4) { /* the step's acceleration, for outputs of q̈: */
        memcpy(ws->qd_end, ws->qd, (size_t)nq * sizeof(double)); /* its ends, divided when read */
        ws->qdd_from = ws->qd0;
        ws->qdd_dt = ws->dt;
        ws->qdd_pending = 1;
    }
    if (!st && ws->opt.method != RS_RK4 && ws->model->n_z > 0)
        st = z_finish(ws, t1);
    if (!st && ws->n_plug_live > 0)
        st = rs_ws_plugin_advance(ws, t1, ws->dt);
    rs_prof_enter(ws, RS_PHASE_OTHER);
    if (st || (st = state_finite(ws, "new state:")))
        goto fail;
    ws->n_since_base++;
    ws->t = t1;
    ws->stats.steps++;
    if (ws->prof_on) {
        rs_prof_enter(ws, RS_PHASE_OTHER); /* closes the last interval */
        ws->prof_on = 0;
    }
    return RS_OK;
fail:
    if (ws->prof_on) {
        rs_prof_enter(ws, RS_PHASE_OTHER);
        ws->prof_on = 0;
    }
    memcpy(ws->q, ws->q0, (size_t)nq * sizeof(double));
    memcpy(ws->qd, ws->qd0, (size_t)nq * sizeof(double));
    rs_ws_put_z(ws, ws->z0);
    ws->cache_valid = 0;
    if (ws->ct) {
        memcpy(ws->s, ws->s0, (size_t)ws->model->n_s * sizeof(double));
        memcpy(ws->sd, ws->sd0, (size_t)ws->model->n_s * sizeof(double));
        ws->cops->fill(ws->ct, -1, ws->s, ws->u);
    }
    return st;
}

int rs_run(rs_ws *ws, double t_end, double out_dt, rs_output_fn out, void *ctx)
{
    if (!ws || ws->magic != RS_WS_MAGIC || !isfinite(t_end) || !(t_end >= ws->t) ||
        !(out_dt >= 0))
        return RS_E_ARG;
    int st;
    if (!ws->ready && (st = rs_ws_init(ws)))
        return st;
    const long n = lround((t_end - ws->t) / ws->dt);
    long every = out_dt > 0 ? lround(out_dt / ws->dt) : 1;
    if (every < 1)
        every = 1;
    if (out && out(ws, ctx))
        return RS_STOPPED;
    for (long i = 1; i <= n; i++) {
        if ((st = rs_step(ws)))
            return st;
        if (out && (i % every == 0 || i == n) && out(ws, ctx))
            return RS_STOPPED;
    }
    return RS_OK;
}
