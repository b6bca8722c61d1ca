/*
 * rs_contact_search.c — global search for one contact's point when the local
 * Newton on φ^d fails (docs/runtime.md "Contact-point search").
 *
 * Why: Newton on φ^d follows one root.  Where wheel and rail are nearly
 * conformal (a hollow tread on a rail crown of similar radius: the FEVE
 * profiles next to the taping line, S1002 on 60E1), the slope-matching row
 * t_y^w·n^r changes slowly and non-monotonically with the lateral position,
 * the root near the old contact point can vanish (the contact point "jumps")
 * and the damped Newton cycles.  The search follows the curve of solutions
 * of the three well-conditioned rows of φ^d (longitudinal and lateral
 * alignment, rolling tangent) over the whole wheel table, one u_w at a time,
 * brackets the sign changes of the slope row, closes each bracket by regula
 * falsi on u_w, and keeps the root of smallest gap φ^n — where the rigid
 * surfaces touch first.
 *
 * Cost: up to RS_SEARCH_POINTS grid points × a few model evaluations; it runs
 * only at initialization or after a failed Newton (rare), never otherwise.
 * Bounded loops, no allocation: scratch comes from the contact workspace.
 */
#include <math.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_ws_impl.h"

#define RS_SEARCH_POINTS 400     /* most grid points over the wheel table      */
#define RS_SEARCH_STEP 0.5e-3    /* m: grid spacing in u_w (coarser if needed) */
#define RS_SEARCH_ITERS 12       /* Newton iterations per grid point (×4: root) */
#define RS_SEARCH_MAX_DU 0.002   /* m: largest u_r change per iteration        */
#define RS_SEARCH_MAX_DTH 0.02   /* rad: largest θ_w change per iteration      */

/* Solves the 3×3 system A x = b (A row-major) by Cramer's rule; -1 if
 * singular. */
static int solve3(const double A[9], double b[3])
{
    const double d = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                     A[2] * (A[3] * A[7] - A[4] * A[6]);
    if (!(fabs(d) > 1e-300))
        return -1;
    double x[3];
    for (int k = 0; k < 3; k++) {
        double M[9];
        memcpy(M, A, sizeof M);
        for (int r = 0; r < 3; r++)
            M[3 * r + k] = b[r];
        x[k] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                M[2] * (M[3] * M[7] - M[4] * M[6])) / d;
    }
    memcpy(b, x, sizeof x);
    return 0;
}

/* Evaluates φ^d (and, if jac, φ^d_s) after refilling contact i's splines. */
static int eval(rs_ws *ws, int i, int jac)
{
    rs_contact_ws *c = ws->ct;
    rs_contact_fill(c, i, ws->s, ws->u);
    int st = rs_ws_call(ws, RS_FN_PHI_D, c->phid, NULL);
    if (!st && jac)
        st = rs_ws_call(ws, RS_FN_PHI_D_S, c->phids, NULL);
    return st;
}

static int finite4(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) && isfinite(v[3]);
}

/* With u_w fixed: Newton on rows 0..2 of contact i's φ^d for (θ_w, s_r, u_r).
 * Returns 0 when |rows 0..2| <= tol. */
static int solve_rows012(rs_ws *ws, int i, double tol)
{
    rs_contact_ws *c = ws->ct;
    const int *sl = ws->model->contacts[i].s_slot;
    static const int col[3] = {0, 2, 3};   /* θ_w, s_r, u_r */
    for (int it = 0; it <= RS_SEARCH_ITERS; it++) {
        if (eval(ws, i, 1))
            return -1;
        const double *f = c->phid + 4 * i, *J = c->phids + 16 * i;
        if (!finite4(f))
            return -1;
        if (fabs(f[0]) <= tol && fabs(f[1]) <= tol && fabs(f[2]) <= tol)
            return 0;
        if (it == RS_SEARCH_ITERS)
            break;
        double A[9], b[3] = {-f[0], -f[1], -f[2]};
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                A[3 * r + k] = J[4 * r + col[k]];
        if (solve3(A, b))
            return -1;
        double scale = 1;
        if (fabs(b[2]) > RS_SEARCH_MAX_DU)
            scale = RS_SEARCH_MAX_DU / fabs(b[2]);
        if (fabs(b[0]) * scale > RS_SEARCH_MAX_DTH)
            scale = RS_SEARCH_MAX_DTH / fabs(b[0]);
        for (int k = 0; k < 3; k++)
            ws->s[sl[col[k]]] += scale * b[k];
    }
    return -1;
}

/* Contact i's point between grid states a and b (u_w = s[1]) whose slope
 * rows ga, gb have opposite signs: regula falsi (Illinois) on u_w along the
 * curve where rows 0..2 hold.  Bracketed, so it converges even where the
 * slope row is flat and wiggly (nearly conformal profiles), which Newton in
 * all four unknowns is not guaranteed to do.  Leaves s at the root. */
static int polish(rs_ws *ws, int i, const double a[4], double ga, const double b[4], double gb,
                  double tol)
{
    rs_contact_ws *c = ws->ct;
    const int *sl = ws->model->contacts[i].s_slot;
    double xa = a[1], xb = b[1];
    int side = 0;
    for (int it = 0; it < 4 * RS_SEARCH_ITERS; it++) {
        const double x = (xa * gb - xb * ga) / (gb - ga);
        const double *from = fabs(x - a[1]) < fabs(x - b[1]) ? a : b;
        for (int j = 0; j < 4; j++)
            ws->s[sl[j]] = from[j];
        ws->s[sl[1]] = x;
        if (solve_rows012(ws, i, 1e-3 * tol + 1e-12) != 0)
            return -1;
        const double g = c->phid[4 * i + 3];
        if (fabs(g) <= tol)
            return 0;
        if ((g > 0) == (gb > 0)) {
            xb = x;
            gb = g;
            if (side == -1)
                ga *= 0.5;
            side = -1;
        } else {
            xa = x;
            ga = g;
            if (side == 1)
                gb *= 0.5;
            side = 1;
        }
        if (!(fabs(xb - xa) > 1e-14))
            return -1;
    }
    return -1;
}

/* The table range of spline k of contact i, or 0 if it has none. */
int rs_contact_table_range(const rs_contact_ws *c, int i, int k, double *lo, double *hi)
{
    const rs_spline *sp = c->sp[RS_SPLINE_COUNT * i + k];
    if (!sp || sp->n < 2)
        return 0;
    *lo = sp->x[0];
    *hi = sp->x[sp->n - 1];
    return 1;
}

int rs_contact_search(rs_ws *ws, int i)
{
    rs_contact_ws *c = ws->ct;
    const rs_model *m = ws->model;
    const int *sl = m->contacts[i].s_slot;
    const double tol = ws->opt.contact_tol;
    double wlo, whi, rlo, rhi;
    if (!rs_contact_table_range(c, i, RS_SPLINE_WHEEL, &wlo, &whi) ||
        !rs_contact_table_range(c, i, RS_SPLINE_RAIL, &rlo, &rhi))
        return -1;   /* a cylinder or a flat rail has no contact jump to find */
    double orig[4], best[4], best_gap = INFINITY;
    for (int k = 0; k < 4; k++)
        orig[k] = ws->s[sl[k]];
    double h = RS_SEARCH_STEP;
    if ((whi - wlo) / h > RS_SEARCH_POINTS - 1)
        h = (whi - wlo) / (RS_SEARCH_POINTS - 1);
    const int n = (int)((whi - wlo) / h) + 1;
    /* March from the grid point nearest the old u_w outwards, both ways
     * (each starting at k0, so the interval on either side of it is
     * bracketed), each point starting from its neighbour's solution. */
    int k0 = (int)lround((orig[1] - wlo) / h);
    if (k0 < 0)
        k0 = 0;
    if (k0 > n - 1)
        k0 = n - 1;
    for (int dir = -1; dir <= 1; dir += 2) {
        double prev[4], prev_g = NAN;
        int have_prev = 0;
        for (int k = 0; k < 4; k++)
            ws->s[sl[k]] = orig[k];
        for (int k = k0; k >= 0 && k < n; k += dir) {   /* both ways from k0 */
            ws->s[sl[1]] = wlo + h * k;
            if (solve_rows012(ws, i, 1e-3 * tol + 1e-12) != 0 || ws->s[sl[3]] < rlo ||
                ws->s[sl[3]] > rhi) {
                /* lost the curve (off the rail table): restart from orig */
                have_prev = 0;
                ws->s[sl[0]] = orig[0];
                ws->s[sl[2]] = orig[2];
                ws->s[sl[3]] = orig[3];
                continue;
            }
            const double g = c->phid[4 * i + 3];
            double cur[4];
            for (int j = 0; j < 4; j++)
                cur[j] = ws->s[sl[j]];
            if (have_prev && (g == 0 || (g > 0) != (prev_g > 0))) {
                if ((g == 0 || polish(ws, i, prev, prev_g, cur, g, tol) == 0) &&
                    ws->s[sl[3]] >= rlo && ws->s[sl[3]] <= rhi &&
                    rs_ws_call(ws, RS_FN_PHI, ws->phi, NULL) == 0) {
                    const double gap = ws->phi[m->contacts[i].phi_row];
                    if (gap < best_gap) {
                        best_gap = gap;
                        for (int j = 0; j < 4; j++)
                            best[j] = ws->s[sl[j]];
                    }
                }
                for (int j = 0; j < 4; j++)
                    ws->s[sl[j]] = cur[j];
            }
            memcpy(prev, cur, sizeof prev);
            prev_g = g;
            have_prev = 1;
        }
    }
    const int found = isfinite(best_gap);
    for (int k = 0; k < 4; k++)
        ws->s[sl[k]] = found ? best[k] : orig[k];
    rs_contact_fill(c, i, ws->s, ws->u);
    ws->stats.contact_searches++;
    return found ? 0 : -1;
}
