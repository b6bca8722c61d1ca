/*
 * rs_contact_step.c — the contact parts of the IMEX step (docs/runtime.md
 * "Wheel-rail contact"): contact-point Newton on φ^d for s, the ṡ velocity
 * equation, the creep matrix from Hertz + Kalker, and the lift-off check.
 * No allocation; loops bounded by n_contact, n_q and proj_maxiter.
 */
#include <math.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_ws_impl.h"

#define RS_CONTACT_MAX_DU 0.002   /* m: largest u_w, u_r change per Newton iteration */
#define RS_CONTACT_MAX_DTH 0.02   /* rad: largest θ_w change per iteration          */
#define RS_CONTACT_INIT_ITER 200  /* Newton iterations allowed at initialization    */

/* Calls a contact function with up to 5 outputs. */
static int call(rs_ws *ws, int id, double *o0, double *o1, double *o2, double *o3, double *o4)
{
    const rs_func *f = &ws->model->fn[id];
    double *out[RS_FN_MAX_OUT] = {o0, o1, o2, o3, o4};
    if (!f->fn)
        return rs_ws_fail(ws, RS_E_MODEL, "model '%s' lacks contact function %d",
                          ws->model->name, id);
    /* the creep function belongs to the Kalker phase (seed 003's Table 1,
     * row 1), the others to the function evaluations */
    const int prev = id == RS_FN_CREEP ? RS_PHASE_KALKER : rs_prof_enter(ws, RS_PHASE_FUNCTIONS);
    int r = f->fn(ws->in, out);
    if (id != RS_FN_CREEP)
        rs_prof_enter(ws, prev);
    if (r != RS_ABI_OK)
        return rs_ws_fail(ws, RS_E_MODELFN, "contact function %d returned %d", id, r);
    return RS_OK;
}

/* max |φ^d| over the rows of contact i (NaN counts as infinite). */
static double contact_residual(const rs_contact_ws *c, int i, int nrows)
{
    double r = 0;
    for (int k = 0; k < nrows; k++) {
        const double v = fabs(c->phid[4 * i + k]);
        if (!(v <= r))
            r = isnan(v) ? INFINITY : v;
    }
    return r;
}

/* Damped update of contact i's s by b (the Newton step): no profile
 * coordinate moves more than RS_CONTACT_MAX_DU, θ_w no more than
 * RS_CONTACT_MAX_DTH per iteration; s_r is free. */
static void damped_update(rs_ws *ws, const rs_contact *ct, const double b[4])
{
    /* Far from the solution (a start from s = 0, a jump of the state) the
     * profiles' curvature changes (flange, rail-head arcs) can throw a full
     * step far outside the profile tables, where the extrapolated cubics
     * diverge; s_r is free (the track is smooth and the wheel may be far
     * along it). */
    double scale = 1;
    if (fabs(b[1]) * scale > RS_CONTACT_MAX_DU)
        scale = RS_CONTACT_MAX_DU / fabs(b[1]);
    if (fabs(b[3]) * scale > RS_CONTACT_MAX_DU)
        scale = RS_CONTACT_MAX_DU / fabs(b[3]);
    if (fabs(b[0]) * scale > RS_CONTACT_MAX_DTH)
        scale = RS_CONTACT_MAX_DTH / fabs(b[0]);
    for (int k = 0; k < 4; k++)
        ws->s[ct->s_slot[k]] += scale * b[k];
}

static void fill_one(rs_ws *ws, int i)
{
    const int prev = rs_prof_enter(ws, RS_PHASE_SPLINE);
    rs_contact_fill(ws->ct, i, ws->s, ws->u);
    rs_prof_enter(ws, prev);
}

/* Newton on φ^d for contact i alone, from its current s: with fix_uw, u_w
 * stays and rows 1-3 are solved for θ_w, s_r, u_r (the slope row is left
 * free); else all four rows.  At most maxit iterations.  Returns 1 when
 * converged (φ^d_4 then in c->phid[4i+3]), 0 when not, < 0 on an error of a
 * function call. */
static int newton_one(rs_ws *ws, int i, int fix_uw, int maxit)
{
    rs_contact_ws *c = ws->ct;
    const rs_contact *ct = &ws->model->contacts[i];
    int st;
    for (int it = 0;; it++) {
        fill_one(ws, i);
        if ((st = call(ws, RS_FN_PHI_D, c->phid, NULL, NULL, NULL, NULL)))
            return st;
        const double r = contact_residual(c, i, fix_uw ? 3 : 4);
        if (r <= ws->opt.contact_tol)
            return isfinite(c->phid[4 * i + 3]);
        if (it >= maxit || !isfinite(r))
            return 0;
        if ((st = call(ws, RS_FN_PHI_D_S, c->phids, NULL, NULL, NULL, NULL)))
            return st;
        double A[16], b[4];
        memcpy(A, c->phids + 16 * i, sizeof A);
        for (int k = 0; k < 4; k++)
            b[k] = -c->phid[4 * i + k];
        if (fix_uw) { /* the slope row becomes Δu_w = 0 */
            A[12] = 0, A[13] = 1, A[14] = 0, A[15] = 0;
            b[3] = 0;
        }
        if (rs_contact_solve4(A, b))
            return 0;
        damped_update(ws, ct, b);
    }
}

/* Gap φ^n of contact i at the workspace state (s included). */
static int contact_gap(rs_ws *ws, int i, double *gap)
{
    int st = rs_ws_call(ws, RS_FN_PHI, ws->phi, NULL);
    if (st)
        return st;
    *gap = ws->phi[ws->model->contacts[i].phi_row];
    return isfinite(*gap) ? RS_OK : RS_E_NONFINITE;
}

/* The contact-point search of contact i (rs_contact.h): grid over u_w,
 * brackets of sign changes of φ^d_4, Newton in each, the root of smallest
 * gap kept.  With keep_current (s of contact i is a root already), the
 * current root stays unless another one has a smaller gap.  *moved: 1 when
 * s of contact i changed.  RS_OK, RS_E_NOCONV when no root was found (s
 * restored), or an error of a function call. */
static int contact_search(rs_ws *ws, int i, int keep_current, int *moved)
{
    rs_contact_ws *c = ws->ct;
    const rs_contact *ct = &ws->model->contacts[i];
    double *const s = ws->s;
    const int *sl = ct->s_slot;
    double s_start[4], best[4], best_gap = INFINITY;
    int st;
    *moved = 0;
    ws->stats.contact_scans++;
    for (int k = 0; k < 4; k++)
        best[k] = s_start[k] = s[sl[k]];
    if (keep_current) {
        if ((st = contact_gap(ws, i, &best_gap)))
            return st;
    }
    /* tables of the wheel and rail profiles (defaults: ±5 cm) */
    const rs_spline *sw = c->sp[6 * i + RS_SPLINE_WHEEL], *sr = c->sp[6 * i + RS_SPLINE_RAIL];
    const double wlo = sw ? sw->x[0] : -0.05, whi = sw ? sw->x[sw->n - 1] : 0.05;
    const double rlo = sr ? sr->x[0] : -0.05, rhi = sr ? sr->x[sr->n - 1] : 0.05;
    const double du = RS_CONTACT_SCAN_STEP;
    const int J = (RS_CONTACT_SCAN_MAX - 1) / 2;
    double uc = s_start[1];
    if (!(uc >= wlo))
        uc = wlo;
    if (!(uc <= whi))
        uc = whi;
    /* grid point j (−J..J) at u = uc + j du; scan[5 (j + J) + k]: θ_w, u_w,
     * s_r, u_r, φ^d_4 (NaN: not solved) */
    double *g = c->scan;
    for (int k = 0; k < 5 * RS_CONTACT_SCAN_MAX; k++)
        g[k] = NAN;
    for (int dir = 1; dir >= -1; dir -= 2) {
        for (int k = 0; k < 4; k++) /* each direction starts from the start */
            s[sl[k]] = s_start[k];
        for (int j = dir > 0 ? 0 : -1; j >= -J && j <= J; j += dir) {
            const double u = uc + j * du;
            if (u < wlo || u > whi)
                break;
            double *gp = g + 5 * (j + J);
            const double *prev = g + 5 * (j - dir + J), *prev2 = g + 5 * (j - 2 * dir + J);
            if (j != 0 && !isnan(prev[0])) /* continuation from the neighbours */
                for (int k = 0; k < 4; k++)
                    s[sl[k]] = isnan(prev2[0]) ? prev[k] : 2 * prev[k] - prev2[k];
            s[sl[1]] = u;
            st = newton_one(ws, i, 1, 8);
            if (st < 0)
                return st;
            if (st == 0 || s[sl[3]] < rlo || s[sl[3]] > rhi)
                break; /* off the rail head or no foot point: stop this way */
            for (int k = 0; k < 4; k++)
                gp[k] = s[sl[k]];
            gp[4] = c->phid[4 * i + 3];
        }
    }
    /* every sign change of φ^d_4 between neighbours brackets a root */
    for (int j = 0; j + 1 < RS_CONTACT_SCAN_MAX; j++) {
        const double *g0 = g + 5 * j, *g1 = g + 5 * (j + 1);
        if (isnan(g0[4]) || isnan(g1[4]) || g0[4] * g1[4] > 0)
            continue;
        const double w = g0[4] == g1[4] ? 0.5 : g0[4] / (g0[4] - g1[4]);
        for (int k = 0; k < 4; k++)
            s[sl[k]] = g0[k] + w * (g1[k] - g0[k]);
        st = newton_one(ws, i, 0, 20);
        if (st < 0)
            return st;
        if (st == 0)
            continue;
        double gap;
        if ((st = contact_gap(ws, i, &gap)))
            return st;
        if (gap < best_gap - 1e-12) {
            best_gap = gap;
            for (int k = 0; k < 4; k++)
                best[k] = s[sl[k]];
        }
    }
    for (int k = 0; k < 4; k++) {
        if (best[k] != s_start[k])
            *moved = 1;
        s[sl[k]] = best[k];
    }
    fill_one(ws, i);
    if (!isfinite(best_gap))
        return RS_E_NOCONV;
    if (*moved)
        ws->stats.contact_jumps++;
    return RS_OK;
}

int rs_contact_solve_s(rs_ws *ws, double t)
{
    rs_contact_ws *c = ws->ct;
    const rs_model *m = ws->model;
    int it = 0, st, searched = 0;
    double r;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    int prev = rs_prof_enter(ws, RS_PHASE_SPLINE);
    rs_contact_fill(c, -1, ws->s, ws->u);
    rs_prof_enter(ws, prev);
    /* at initialization s may start far off (e.g. all 0): more room */
    int limit = ws->in_init ? RS_CONTACT_INIT_ITER : ws->opt.proj_maxiter;
    for (;;) {
        if ((st = call(ws, RS_FN_PHI_D, c->phid, NULL, NULL, NULL, NULL)))
            return st;
        int worst = 0;
        r = 0;
        for (int k = 0; k < 4 * c->nc; k++)
            if (!(fabs(c->phid[k]) <= r)) { /* NaN counts as worst */
                r = fabs(c->phid[k]);
                worst = k;
            }
        if (r <= ws->opt.contact_tol) {
            if (!ws->in_init || searched)
                break;
            /* initialization: the root Newton found may be a local minimum
             * of the gap only; the search keeps it unless a root of smaller
             * gap exists */
            searched = 1;
            for (int i = 0; i < c->nc; i++) {
                int moved;
                st = contact_search(ws, i, 1, &moved);
                if (st && st != RS_E_NOCONV)
                    return st;
            }
            rs_ws_bind(ws, t, ws->q, ws->qd);
            continue;
        }
        if (it >= limit || !isfinite(r)) {
            if (!searched) {
                /* the root followed has disappeared (a contact jump) or was
                 * never near: search each contact that did not converge */
                searched = 1;
                for (int i = 0; i < c->nc; i++) {
                    if (contact_residual(c, i, 4) <= ws->opt.contact_tol)
                        continue;
                    int moved;
                    st = contact_search(ws, i, 0, &moved);
                    if (st && st != RS_E_NOCONV)
                        return st;
                    /* the search evaluated φ^d with other contacts' s as they are */
                }
                limit = it + ws->opt.proj_maxiter;
                continue;
            }
            return rs_ws_fail(ws, RS_E_NOCONV,
                              "contact '%s': contact-point Newton on phi_d: |phi_d[%d]| = %.3g "
                              "exceeds %.3g after %d iteration(s) and a search over u_w "
                              "(s_r = %.9g m, u_w = %.6g m, u_r = %.6g m)",
                              m->contacts[worst / 4].name, worst % 4, r, ws->opt.contact_tol, it,
                              ws->s[m->contacts[worst / 4].s_slot[2]],
                              ws->s[m->contacts[worst / 4].s_slot[1]],
                              ws->s[m->contacts[worst / 4].s_slot[3]]);
        }
        if ((st = call(ws, RS_FN_PHI_D_S, c->phids, NULL, NULL, NULL, NULL)))
            return st;
        for (int i = 0; i < c->nc; i++) {
            const rs_contact *ct = &m->contacts[i];
            double b[4];
            for (int k = 0; k < 4; k++)
                b[k] = -c->phid[4 * i + k];
            if (rs_contact_solve4(c->phids + 16 * i, b))
                return rs_ws_fail(ws, RS_E_SINGULAR,
                                  "contact '%s': the 4x4 block phi_d_s is singular at s_r = "
                                  "%.9g m (wheel and rail surfaces parallel nowhere?)",
                                  ct->name, ws->s[ct->s_slot[2]]);
            damped_update(ws, ct, b);
        }
        prev = rs_prof_enter(ws, RS_PHASE_SPLINE);
        rs_contact_fill(c, -1, ws->s, ws->u); /* segments may have changed */
        rs_prof_enter(ws, prev);
        it++;
    }
    ws->stats.contact_iters += it;
    ws->stats.contact_iters_last = it;
    if (it > ws->stats.contact_iters_max)
        ws->stats.contact_iters_max = it;
    return RS_OK;
}

int rs_contact_solve_sd(rs_ws *ws, double t)
{
    rs_contact_ws *c = ws->ct;
    const rs_model *m = ws->model;
    const rs_pattern *P = &m->phi_d_q_pattern;
    int st;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    if ((st = call(ws, RS_FN_PHI_D_S, c->phids, NULL, NULL, NULL, NULL)) ||
        (st = call(ws, RS_FN_PHI_D_Q, c->phidq, NULL, NULL, NULL, NULL)) ||
        (st = call(ws, RS_FN_BETA_D, c->betad, NULL, NULL, NULL, NULL)))
        return st;
    for (int j = 0; j < m->n_q; j++) /* β^d − φ^d_q q̇ */
        for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
            c->betad[P->rowind[k]] -= c->phidq[k] * ws->qd[j];
    for (int i = 0; i < c->nc; i++) {
        const rs_contact *ct = &m->contacts[i];
        double *b = c->betad + 4 * i;
        if (rs_contact_solve4(c->phids + 16 * i, b))
            return rs_ws_fail(ws, RS_E_SINGULAR,
                              "contact '%s': the 4x4 block phi_d_s is singular at s_r = %.9g m",
                              ct->name, ws->s[ct->s_slot[2]]);
        for (int k = 0; k < 4; k++)
            ws->sd[ct->s_slot[k]] = b[k];
    }
    return RS_OK;
}

int rs_contact_creep(rs_ws *ws)
{
    rs_contact_ws *c = ws->ct;
    const rs_model *m = ws->model;
    const rs_pattern *Np = &m->dnu_dqd_pattern;
    int st;
    if (!ws->opt.contact_creep) { /* frictionless: no creep force, C^K_qq = 0 */
        const int nnz = c->ck_colptr[c->nq];
        memset(c->CKv, 0, (size_t)nnz * sizeof(double));
        memset(c->Cb, 0, (size_t)(9 * c->nc) * sizeof(double));
        memset(c->nu_t, 0, (size_t)(3 * c->nc) * sizeof(double));
        memset(c->Nv, 0, (size_t)m->dnu_dqd_pattern.colptr[m->n_q] * sizeof(double));
        for (int i = 0; i < c->nc; i++)
            c->a[i] = c->b[i] = 0;
        return RS_OK;
    }
    if ((st = call(ws, RS_FN_CREEP, c->nu, c->V, c->radii, c->Dv, c->Nv)))
        return st;
    if (ws->opt.check_finite &&
        ((st = rs_ws_check_finite(ws, c->nu, 3 * c->nc, "creepage numerator nu", NULL)) ||
         (st = rs_ws_check_finite(ws, c->V, c->nc, "reference speed V", NULL))))
        return st;
    for (int i = 0; i < c->nc; i++) {
        const rs_contact *ct = &m->contacts[i];
        const double N = -ws->lambda[ct->phi_row]; /* previous solve */
        int r = rs_contact_creep_block(N, c->radii + 3 * i, c->V[i], ws->opt.contact_E,
                                       ws->opt.contact_nu, ws->opt.contact_vmin, c->Cb + 9 * i,
                                       &c->a[i], &c->b[i]);
        if (r)
            return rs_ws_fail(ws, RS_E_NONFINITE,
                              "contact '%s': Hertz/Kalker failed (code %d) for N = %.6g N, "
                              "radii %.6g, %.6g, %.6g m at s_r = %.9g m (conformal or saddle "
                              "contact?)",
                              ct->name, r, N, c->radii[3 * i], c->radii[3 * i + 1],
                              c->radii[3 * i + 2], ws->s[ct->s_slot[2]]);
    }
    rs_contact_ck_values(c);
    /* ν_t = ν − N q̇, then Cb ν_t (explicit part, docs/contact_element.md §4) */
    const double *qd = ws->in[RS_IN_QD];
    for (int j = 0; j < m->n_q; j++)
        for (int k = Np->colptr[j]; k < Np->colptr[j + 1]; k++)
            c->nu[Np->rowind[k]] -= c->Nv[k] * qd[j];
    for (int i = 0; i < c->nc; i++)
        for (int k = 0; k < 3; k++) {
            const double *row = c->Cb + 9 * i + 3 * k;
            c->nu_t[3 * i + k] =
                row[0] * c->nu[3 * i] + row[1] * c->nu[3 * i + 1] + row[2] * c->nu[3 * i + 2];
        }
    return RS_OK;
}

int rs_contact_after_solve(rs_ws *ws, const double *qd_new)
{
    rs_contact_ws *c = ws->ct;
    const rs_model *m = ws->model;
    const rs_pattern *Np = &m->dnu_dqd_pattern;
    for (int i = 0; i < c->nc; i++) {
        const rs_contact *ct = &m->contacts[i];
        const double N = -ws->lambda[ct->phi_row];
        if (N < 0)
            return rs_ws_fail(ws, RS_E_LIFTOFF,
                              "contact '%s' (wheel of body '%s') lifts off: normal force "
                              "N = %.6g N < 0 at s_r = %.9g m along the track (u_w = %.6g m, "
                              "u_r = %.6g m); the single-point bilateral contact cannot "
                              "represent it",
                              ct->name, ct->wheel_body, N, ws->s[ct->s_slot[2]],
                              ws->s[ct->s_slot[1]], ws->s[ct->s_slot[3]]);
    }
    /* f = −Cb (N q̇_new + ν_t): the creep force the implicit step applied */
    for (int k = 0; k < 3 * c->nc; k++)
        c->nu[k] = 0;
    for (int j = 0; j < m->n_q; j++)
        for (int k = Np->colptr[j]; k < Np->colptr[j + 1]; k++)
            c->nu[Np->rowind[k]] += c->Nv[k] * qd_new[j];
    for (int i = 0; i < c->nc; i++)
        for (int k = 0; k < 3; k++) {
            const double *row = c->Cb + 9 * i + 3 * k;
            c->f[3 * i + k] = -(row[0] * c->nu[3 * i] + row[1] * c->nu[3 * i + 1] +
                                row[2] * c->nu[3 * i + 2]) - c->nu_t[3 * i + k];
            ws->u[m->contacts[i].force_slot[k]] = c->f[3 * i + k];
        }
    return RS_OK;
}
