/*
 * rs_contact_step.c — the contact parts of the IMEX step (docs/runtime.md
 * "Wheel-rail contact"): contact-point Newton on φ^d for s, the ṡ velocity
 * equation, the creep matrix from Hertz + Kalker, and the lift-off check.
 * No allocation; loops bounded by n_contact, n_q and proj_maxiter.
 */
#include <math.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_hertz_why.h"
#include "rs_kalker.h"
#include "rs_spline.h"
#include "rs_ws_impl.h"

#define RS_CONTACT_MAX_DU 0.002   /* m: largest u_w, u_r change per Newton iteration */
#define RS_CONTACT_MAX_DTH 0.02   /* rad: largest θ_w change per iteration          */
#define RS_CONTACT_INIT_ITER 200  /* Newton iterations allowed at initialization    */
#define RS_TRACK_END_MARGIN 1.0   /* m a wheel may run beyond its track's table     */

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
    const int prev = id == RS_FN_CREEP ? RS_PHASE_KALKER : rs_prof_enter(ws, rs_fn_phase(ws));
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

/* 1 when contact i's current s lies off its wheel or rail profile table: a
 * root there sits on the extrapolated end cubics and is no contact point. */
static int off_table(rs_ws *ws, int i)
{
    const int *sl = ws->model->contacts[i].s_slot;
    for (int k = 0; k < 2; k++) {
        double lo, hi;
        const double u = ws->s[sl[k ? 3 : 1]];
        if (rs_contact_table_range(ws->ct, i, k ? RS_SPLINE_RAIL : RS_SPLINE_WHEEL, &lo, &hi) &&
            (u < lo || u > hi))
            return 1;
    }
    return 0;
}

/* The contact point of contact i is off a profile table even after the
 * global search: the profiles do not touch in this pose (or only outside
 * the tables).  The message names the profile, its file and the fix. */
static int off_table_fail(rs_ws *ws, int i)
{
    const rs_model *m = ws->model;
    const int *sl = m->contacts[i].s_slot;
    for (int k = 0; k < 2; k++) {
        const int kind = k ? RS_SPLINE_RAIL : RS_SPLINE_WHEEL;
        double lo, hi;
        const double u = ws->s[sl[k ? 3 : 1]];
        if (!rs_contact_table_range(ws->ct, i, kind, &lo, &hi) || (u >= lo && u <= hi))
            continue;
        const char *file = rs_contact_spline_file(m, &ws->opt, i, kind);
        return rs_ws_fail(ws, RS_E_NOCONV,
                          "contact '%s': no contact point on the %s profile '%s' (the search ends at %s = %.4g "
                          "mm, its table spans %.4g to %.4g mm): the wheel and rail profiles do not touch in "
                          "this pose; check the initial lateral position and height, the rail offset (gauge) "
                          "and that the files are a wheel and a rail profile",
                          m->contacts[i].name, k ? "rail" : "wheel", file && file[0] ? file : "(built in)",
                          k ? "u_r" : "u_w", u * 1e3, lo * 1e3, hi * 1e3);
    }
    return rs_ws_fail(ws, RS_E_NOCONV, "contact '%s': no contact point on the profile tables", m->contacts[i].name);
}

/* The global search (rs_contact_search.c) of contact i, counting a jump
 * when it moved the contact point. */
static void search_one(rs_ws *ws, int i)
{
    const int *sl = ws->model->contacts[i].s_slot;
    double before[4];
    for (int k = 0; k < 4; k++)
        before[k] = ws->s[sl[k]];
    if (rs_contact_search(ws, i) != 0)
        return;
    for (int k = 0; k < 4; k++)
        if (fabs(ws->s[sl[k]] - before[k]) > 1e-9 * (1 + fabs(before[k]))) {
            ws->stats.contact_jumps++;
            return;
        }
}

int rs_contact_solve_s(rs_ws *ws, double t)
{
    rs_contact_ws *c = ws->ct;
    const rs_model *m = ws->model;
    int it = 0, st, searched = 0, extra = 0;
    double r;
    rs_ws_bind(ws, t, ws->q, ws->qd);
    /* the track's gauge, at every initialization (parameters may have changed) */
    if ((!c->gauge_checked || ws->in_init) && m->fn[RS_FN_WHEEL].fn) {
        double *out[RS_FN_MAX_OUT] = {NULL, NULL, NULL, c->geom};
        if ((st = rs_ws_call_n(ws, RS_FN_WHEEL, out)) || (st = rs_contact_check_gauge(ws, c, c->geom)))
            return st;
        c->gauge_checked = 1;
    }
    int prev = rs_prof_enter(ws, RS_PHASE_SPLINE);
    rs_contact_fill(c, -1, ws->s, ws->u);
    rs_prof_enter(ws, prev);
    /* Combined functions (RS_FAST_STEP_FN): the pass right after the s
     * prediction always iterates, so it takes φ^d and φ^d_s together
     * (RS_FN_NEWTON); every later pass evaluates RS_FN_PROJ, whose φ^d_s
     * serves a further iteration and whose other outputs, when this pass
     * converges, are the projections' and ṡ's (ws->proj_ready). */
    const int fast = !ws->in_init && rs_ws_combined(ws, RS_FN_NEWTON) &&
                     rs_ws_combined(ws, RS_FN_PROJ);
    for (;;) {
        int have_phids = 0;
        ws->proj_ready = 0;
        if (fast && ws->s_predicted) {
            double *out[RS_FN_MAX_OUT] = {c->phid, c->phids};
            if ((st = rs_ws_call_n(ws, RS_FN_NEWTON, out)))
                return st;
            have_phids = 1;
        } else if (fast) {
            double *out[RS_FN_MAX_OUT] = {c->phid, ws->phi, ws->Gv, ws->beta, c->phids, c->phidq,
                                          c->betad, ws->cache};
            ws->cache_valid = 0;
            if ((st = rs_ws_call_n(ws, RS_FN_PROJ, out)))
                return st;
            have_phids = ws->proj_ready = 1;
            if (ws->n_cache) { /* RS_FN_STEP_CACHED's cache, at this q and s */
                memcpy(ws->cache_q, ws->in[RS_IN_Q], (size_t)m->n_q * sizeof(double));
                memcpy(ws->cache_s, ws->s, (size_t)m->n_s * sizeof(double));
                ws->cache_valid = 1;
            }
        } else if ((st = call(ws, RS_FN_PHI_D, c->phid, NULL, NULL, NULL, NULL))) {
            return st;
        }
        ws->s_predicted = 0;
        int worst = 0;
        r = 0;
        for (int k = 0; k < 4 * c->nc; k++)
            if (!(fabs(c->phid[k]) <= r)) { /* NaN counts as worst */
                r = fabs(c->phid[k]);
                worst = k;
            }
        if (r <= ws->opt.contact_tol) {
            int off = 0;
            for (int i = 0; i < c->nc && !off; i++)
                if (off_table(ws, i)) {
                    off = 1;
                    worst = 4 * i + 1;
                    r = INFINITY;
                }
            if (!off && (!ws->in_init || searched))
                break;
            if (!off) {
                /* initialization: the root Newton found may be a local
                 * minimum of the gap only; the search moves it where a root
                 * of smaller gap exists, then Newton polishes again */
                searched = 1;
                for (int i = 0; i < c->nc; i++)
                    search_one(ws, i);
                rs_ws_bind(ws, t, ws->q, ws->qd);
                continue;
            }
        }
        /* at initialization s may start far off (e.g. all 0): more room */
        const int limit = (ws->in_init ? RS_CONTACT_INIT_ITER : ws->opt.proj_maxiter) + extra;
        if ((it >= limit || !isfinite(r)) && !searched) {
            /* Newton lost its root (a contact-point jump, or a start far
             * off): search each unconverged contact globally, once, then
             * polish all with Newton again (rs_contact_search.c). */
            searched = 1;
            for (int i = 0; i < c->nc; i++)
                if (contact_residual(c, i, 4) > ws->opt.contact_tol || off_table(ws, i))
                    search_one(ws, i);
            extra = it + ws->opt.proj_maxiter - limit + extra;
            rs_ws_bind(ws, t, ws->q, ws->qd);
            continue;
        }
        if ((it >= limit || !isfinite(r)) && off_table(ws, worst / 4))
            return off_table_fail(ws, worst / 4);
        if (it >= limit || !isfinite(r))
            return rs_ws_fail(ws, RS_E_NOCONV,
                              "contact '%s': contact-point Newton on phi_d: |phi_d[%d]| = %.3g "
                              "exceeds %.3g after %d iteration(s) and a search over u_w "
                              "(s_r = %.9g m, u_w = %.6g m, u_r = %.6g m)%s",
                              m->contacts[worst / 4].name, worst % 4, r, ws->opt.contact_tol, it,
                              ws->s[m->contacts[worst / 4].s_slot[2]],
                              ws->s[m->contacts[worst / 4].s_slot[1]],
                              ws->s[m->contacts[worst / 4].s_slot[3]],
                              ws->in_init ? ": in the initial pose the wheel and rail profiles may not touch; check "
                                            "the initial lateral position and height and the rail offset (gauge)"
                                          : "");
        if (!have_phids && (st = call(ws, RS_FN_PHI_D_S, c->phids, NULL, NULL, NULL, NULL)))
            return st;
        ws->proj_ready = 0; /* s moves */
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
    /* Beyond its table a track is the end cubic extrapolated: tolerated for
     * RS_TRACK_END_MARGIN (a wheel that starts at the track's origin), then
     * the run stops rather than follow an invented track. */
    for (int i = 0; i < c->nc; i++) {
        double lo, hi;
        const double sr = ws->s[m->contacts[i].s_slot[2]];
        if (rs_contact_table_range(c, i, RS_SPLINE_TRACK_X, &lo, &hi) &&
            (sr < lo - RS_TRACK_END_MARGIN || sr > hi + RS_TRACK_END_MARGIN))
            return rs_ws_fail(ws, RS_E_OFFTRACK,
                              "contact '%s' ran off the end of its track: s_r = %.6g m, more "
                              "than 1 m outside the track's [%.6g, %.6g] m (shorten the run's "
                              "duration or lengthen the track)",
                              m->contacts[i].name, sr, lo, hi);
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
    if (!ws->proj_ready && /* else RS_FN_PROJ gave them at this q and s */
        ((st = call(ws, RS_FN_PHI_D_S, c->phids, NULL, NULL, NULL, NULL)) ||
         (st = call(ws, RS_FN_PHI_D_Q, c->phidq, NULL, NULL, NULL, NULL)) ||
         (st = call(ws, RS_FN_BETA_D, c->betad, NULL, NULL, NULL, NULL))))
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

/* RS_FAST_CK: C^K_qq = Σ_i D_i Cb_i N_i is not formed in its own pattern;
 * rs_contact_add_ck adds Δt C^K_qq straight into the system matrix: column
 * j of C^K is Σ_i D_i w_i with w_i = Cb_i N_i(:, j), so the (up to three) N
 * entries of contact i in column j are combined through Cb_i first, and
 * D_i's three columns are then added to column j in one pass over the rows
 * D_i touches, through positions found at set-up (rs_contact_ck.c) —
 * instead of scattering all three D_i columns for every N entry, each entry
 * looking its row's position up, then adding C^K to K in a second pass. */
void rs_contact_add_ck(rs_ws *ws, double scale)
{
    rs_contact_ws *c = ws->ct;
    if (ws->opt.fast & RS_FAST_CK) {
        if (ws->opt.contact_creep) /* frictionless: C^K_qq = 0 */
            rs_ck_plan_add(&c->ckp, c->Dv, c->Nv, c->Cb, scale, ws->sys.Ax);
    } else {
        rs_klu_system_add_extra(&ws->sys, RS_KLU_EXTRA_CONTACT, c->CKv, scale);
    }
}

void rs_contact_bind_k(rs_ws *ws)
{
    rs_ck_plan_bind(&ws->ct->ckp, rs_klu_system_extra_map(&ws->sys, RS_KLU_EXTRA_CONTACT));
}

double rs_contact_track_force(const rs_ws *ws, int i, int k)
{
    const rs_contact_ws *c = ws->ct;
    const rs_contact *ct = &ws->model->contacts[i];
    const double sigma = ct->side, N = -ws->lambda[ct->phi_row], fy = c->f[3 * i + 1];
    double slope;
    /* the rail spline's current segment (rs_contact_fill keeps it at the
     * step's final s) */
    rs_spline_cubic5(c->v + 5 * (6 * i + RS_SPLINE_RAIL), ws->s[ct->s_slot[3]], &slope, NULL);
    const double w = 1.0 / sqrt(1.0 + slope * slope);
    const double Q = (N + sigma * slope * fy) * w, Y = (slope * N - sigma * fy) * w;
    return k == RS_CONTACT_VAR_Y ? Y : k == RS_CONTACT_VAR_Q ? Q : Y / Q;
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
        memset(c->nu, 0, (size_t)(3 * c->nc) * sizeof(double));
        memset(c->Nv, 0, (size_t)m->dnu_dqd_pattern.colptr[m->n_q] * sizeof(double));
        for (int i = 0; i < c->nc; i++)
            c->a[i] = c->b[i] = 0;
        return RS_OK;
    }
    /* RS_FN_STEP may have written the creep pieces already */
    if (!ws->creep_ready && (st = call(ws, RS_FN_CREEP, c->nu, c->V, c->radii, c->Dv, c->Nv)))
        return st;
    ws->creep_ready = 0;
    if (ws->opt.check_finite &&
        ((st = rs_ws_check_finite(ws, c->nu, 3 * c->nc, "creepage numerator nu", NULL)) ||
         (st = rs_ws_check_finite(ws, c->V, c->nc, "reference speed V", NULL))))
        return st;
    for (int i = 0; i < c->nc; i++) {
        const rs_contact *ct = &m->contacts[i];
        const double N = -ws->lambda[ct->phi_row]; /* previous solve */
        int r = rs_contact_creep_block(N, c->radii + 3 * i, c->V[i], rs_options_E(&ws->opt, i),
                                       rs_options_nu(&ws->opt, i), ws->opt.contact_vmin, c->Cb + 9 * i,
                                       &c->a[i], &c->b[i]);
        if (r) { /* the message is built here only, after the failure */
            char num[256];
            rs_hertz_why_numbers(r, c->radii + 3 * i, num, sizeof num);
            return rs_ws_fail(ws, RS_E_NONFINITE,
                              "contact '%s' (wheel of body '%s') at u_w = %.6g m on the wheel profile, u_r = "
                              "%.6g m on the rail profile, s_r = %.9g m: %s, and the constraint contact has "
                              "one point per wheel by design; use the elastic multi-patch contact: 'contact "
                              "elastic' in the scenario (no recompilation) or 'mode elastic' on the "
                              "description's contact lines [%s; N = %.6g N]",
                              ct->name, ct->wheel_body, ws->s[ct->s_slot[1]], ws->s[ct->s_slot[3]],
                              ws->s[ct->s_slot[2]], rs_hertz_why(r, c->radii + 3 * i), num, N);
        }
        const double mu = rs_options_mu(&ws->opt, i);
        if (mu > 0) { /* friction limit: scale the block */
            double *Cb = c->Cb + 9 * i;
            const double *nu = c->nu + 3 * i;
            const double fx = Cb[0] * nu[0] + Cb[1] * nu[1] + Cb[2] * nu[2];
            const double fy = Cb[3] * nu[0] + Cb[4] * nu[1] + Cb[5] * nu[2];
            const double eps = rs_creep_saturation(sqrt(fx * fx + fy * fy),
                                                   mu * (N > 0 ? N : 0));
            for (int k = 0; k < 9; k++)
                Cb[k] *= eps;
        }
    }
    if (!(ws->opt.fast & RS_FAST_CK)) /* else rs_contact_add_ck, straight into K */
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
                              "represent it (a wheel on tread and flange at once, as a hunting "
                              "or curving wheelset on its flange): use elastic contact, whose "
                              "wheels carry several patches ('contact elastic' in the scenario, "
                              "docs/contact.md)",
                              ct->name, ct->wheel_body, N, ws->s[ct->s_slot[2]],
                              ws->s[ct->s_slot[1]], ws->s[ct->s_slot[3]]);
    }
    /* f = −Cb (N q̇_new + ν_t): the creep force the implicit step applied;
     * the creepages (ν_t + N q̇_new) / V for the results */
    for (int k = 0; k < 3 * c->nc; k++) {
        c->xi[k] = c->nu[k];   /* ν_t (rs_contact_creep) */
        c->nu[k] = 0;
    }
    for (int j = 0; j < m->n_q; j++)
        for (int k = Np->colptr[j]; k < Np->colptr[j + 1]; k++)
            c->nu[Np->rowind[k]] += c->Nv[k] * qd_new[j];
    for (int i = 0; i < c->nc; i++) {
        const double V = sqrt(c->V[i] * c->V[i] + ws->opt.contact_vmin * ws->opt.contact_vmin);
        for (int k = 0; k < 3; k++)
            c->xi[3 * i + k] = (c->xi[3 * i + k] + c->nu[3 * i + k]) / V;
    }
    for (int i = 0; i < c->nc; i++)
        for (int k = 0; k < 3; k++) {
            const double *row = c->Cb + 9 * i + 3 * k;
            c->f[3 * i + k] = -(row[0] * c->nu[3 * i] + row[1] * c->nu[3 * i + 1] +
                                row[2] * c->nu[3 * i + 2]) - c->nu_t[3 * i + k];
            ws->u[m->contacts[i].force_slot[k]] = c->f[3 * i + k];
        }
    return RS_OK;
}
