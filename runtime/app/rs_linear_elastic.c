/* rs_linear_elastic.c — see rs_linear.h: the linearization of a workspace
 * that runs the elastic contact (`railsym linear --elastic`, issue 22).
 *
 * Why: the constraint contact's linearization takes the contact geometry's
 * derivatives at one point per wheel.  On S1002/60E1 1:40 the rolling-radius
 * difference jumps at |y| ≈ 0.25 mm (the contact moves between two tread
 * points), so its slope at the centre (Δr' ≈ 0.22, conicity 0.11) is not
 * what the elastic contact's Hertz patches, a few mm wide, feel at any
 * amplitude: a run with the elastic contact hunts at the frequency of a
 * conicity near 0.3.  Linearizing the simulation's own forces gives the
 * eigenvalues of the model the runs integrate.
 *
 * There are no constraints (each wheel is pressed into its rail: z and roll
 * are free coordinates), so N = I and
 *
 *   F(q, q̇) = δ^NK(q, q̇) + Σ_wheels Jᵀ W     (rs_elastic_eval)
 *   K = −∂F/∂q    central differences of F, h = FD_H (below): the patches
 *                 re-found, the normals turning, the creepages of the
 *                 displaced pose (geometric and creep stiffness)
 *   C = −∂F/∂q̇    central differences too.  Not the step's Σ Jᵀ C6 J: that
 *                 Jacobian (which only has to keep the step stable) gave
 *                 the S1002 wheelset at 6 m/s a damping ratio of 0.022197
 *                 against 0.023465 from the differences and 0.02348 from
 *                 runs extrapolated to Δt → 0 (when it was written, with
 *                 the creep ellipse of the patch's point)
 *
 * The step h in q is 1e-7 m (rad), not the model's RS_LINEAR_FD_H (1e-6):
 * a patch only a few µm deep is no linear spring over a micrometre.  The
 * S1002 wheelset at its equilibrium carries a second, shallow tread patch
 * per wheel that opens when z rises by 3 µm, and ∂F_y/∂z changed by 4 %
 * between h = 1e-7 and 1e-6 (by 30 % at 3e-6); the hunting mode at 6 m/s
 * with Kalker's law came out 1.1268 Hz at 1e-6, 1.1379 Hz at 3e-7 and
 * 1.1382 Hz at 1e-7, against 1.1383 Hz from runs released 2 µm and 20 µm
 * off centre (test_linear_elastic.c; ζ 0.019335 against 0.019314).  A
 * single evaluation's rounding is far below the equilibrium's ~1e-2 N
 * resolution (rs_equilibrium.c measures that for a Newton iterate): ∂F_y/∂y
 * agreed to 5e-5 between h = 1e-7 and 1e-6.
 *
 * Cost: 4 n_q + 1 contact evaluations per speed (the coach: 169, about
 * 0.3 s), against the constraint linearization's 2 n_q contact-point
 * solves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_elastic.h"
#include "rs_error.h"
#include "rs_linear_impl.h"
#include "rs_linear_lapack.h"
#include "rs_speed.h"

#define FD_H 1e-7
/* The velocity step [m/s, rad/s]: the patch forces' noise of ~1e-2 N over
 * 2e-4 m/s is 50 N s/m, 1e-4 of a wheel's creep damping at 6 m/s (it falls
 * as 1/V); the creep forces are linear in the velocities at small
 * creepages, so the step's size costs no truncation (1e-4 and 1e-3 give the
 * S1002 wheelset's damping ratio to 3e-6). */
#define FD_HV 1e-4

/* F = δ^NK + Σ Jᵀ W at (ws->q, ws->qd) into F. */
static int force_at(rs_ws *ws, int fn_delta, double *F)
{
    const rs_model *m = rs_ws_model(ws);
    int st = rs_elastic_eval(ws, ws->t, ws->q, ws->qd);
    if (st)
        return st;
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    if ((st = rs_ws_call(ws, fn_delta, F, NULL)))
        return st;
    for (int i = 0; i < m->n_contact; i++) {
        rs_elastic_wheel_state w;
        rs_elastic_wheel_get(ws, i, &w);
        for (int l = 0; l < w.m; l++) {
            double f = 0;
            for (int k = 0; k < 6; k++)
                f += w.J[6 * l + k] * w.W[k];
            F[w.cols[l]] += f;
        }
    }
    return RS_OK;
}

/* C += Σ Jᵀ C6 J of the last evaluation (C6 row-major, J 6 × m). */
static void add_contact_damping(rs_ws *ws, int n, double *C)
{
    const rs_model *m = rs_ws_model(ws);
    for (int i = 0; i < m->n_contact; i++) {
        rs_elastic_wheel_state w;
        rs_elastic_wheel_get(ws, i, &w);
        for (int b = 0; b < w.m; b++)          /* column cols[b] */
            for (int a = 0; a < w.m; a++) {    /* row cols[a] */
                double v = 0;
                for (int r = 0; r < 6; r++)
                    for (int c = 0; c < 6; c++)
                        v += w.J[6 * a + r] * w.C6[6 * r + c] * w.J[6 * b + c];
                C[(size_t)w.cols[b] * n + w.cols[a]] += v;
            }
    }
}

/* 1 for a wheel spin coordinate (`spin`, `<P>.spin`) whose velocity the
 * running speed sets. */
static int is_spin(const rs_model *m, int j)
{
    const char *nm = m->q_names[j];
    const size_t len = strlen(nm);
    return rs_speed_sets(m, j) && len >= 4 && strcmp(nm + len - 4, "spin") == 0 &&
           (len == 4 || nm[len - 5] == '.');
}

/* Steady rolling: `speed` sets each spin to V over the wheels' nominal
 * radius, but an elastic wheel rolls on the radius where its patches sit,
 * so the spins are accelerated by the longitudinal creep that mismatch
 * makes (the coach: 16.7 rad/s², a run's first milliseconds).  Newton on
 * the spin velocities until their generalized forces vanish, with the
 * contact's −∂F/∂q̇ (Σ Jᵀ C6 J, near enough for Newton) over them.
 * F: n scratch. */
static int settle_spins(rs_ws *ws, int fn_delta, double *F, double *C, int *idx, double *Cs, int *ipiv)
{
    const rs_model *m = rs_ws_model(ws);
    const int n = m->n_q;
    int ns = 0, st = RS_OK;
    for (int j = 0; j < n; j++)
        if (is_spin(m, j))
            idx[ns++] = j;
    for (int it = 0; ns > 0 && it < 8; it++) {
        if ((st = force_at(ws, fn_delta, F)))
            return st;
        double worst = 0;
        for (int a = 0; a < ns; a++)
            worst = fmax(worst, fabs(F[idx[a]]));
        if (worst < 1e-6)   /* N m: a wheel's torque, far below its creep's */
            break;
        memset(C, 0, (size_t)n * n * sizeof *C);
        add_contact_damping(ws, n, C);
        for (int a = 0; a < ns; a++) {
            for (int b = 0; b < ns; b++)
                Cs[(size_t)b * ns + a] = C[(size_t)idx[b] * n + idx[a]];
            F[a] = F[idx[a]];   /* F ≈ F0 − C Δq̇ = 0 */
        }
        int info = 0, one = 1;
        dgesv_(&ns, &one, Cs, &ns, ipiv, F, &ns, &info);
        if (info != 0)
            break;             /* a spin without creep damping: leave it */
        for (int a = 0; a < ns; a++)
            ws->qd[idx[a]] += F[a];
    }
    return RS_OK;
}

int rs_linear_system_elastic(rs_ws *ws, rs_linear_system *sys, char *err, size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    memset(sys, 0, sizeof *sys);
    sys->rest_at = -1;
    if (m->n_plugin > 0)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "model '%s': the elastic contact's linearization does not take plugins yet: leave out "
                       "--elastic (the constraint contact's)", m->name);
    if (m->n_z > 0)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "model '%s': the elastic contact's linearization does not take internal states yet: "
                       "leave out --elastic (the constraint contact's)", m->name);
    if (!ws->ready && rs_ws_init(ws))
        return rs_fail(err, errlen, RS_E_VALUE, "initial state: %s", rs_ws_error(ws));
    const int n = m->n_q;
    const size_t nn = (size_t)n * n;
    const int fn_delta = m->fn[RS_FN_DELTA_NK].fn ? RS_FN_DELTA_NK : RS_FN_DELTA;
    double *q0 = malloc((n + 1) * sizeof *q0), *qd0 = malloc((n + 1) * sizeof *qd0);
    double *Fp = malloc((n + 1) * sizeof *Fp), *Fm = malloc((n + 1) * sizeof *Fm);
    double *qd1 = malloc((n + 1) * sizeof *qd1);
    double *Mv = malloc((m->M_pattern.colptr ? (size_t)m->M_pattern.colptr[n] : 0) * sizeof *Mv + 8);
    double *A = NULL, *Cs = NULL;
    int *ipiv = NULL, *idx = NULL;
    int st = RS_E_NOMEM;
    sys->n = n;
    sys->r = n;
    sys->M = calloc(nn, sizeof(double));
    sys->K = calloc(nn, sizeof(double));
    sys->C = calloc(nn, sizeof(double));
    sys->N = calloc(nn, sizeof(double));
    if (!q0 || !qd0 || !qd1 || !Fp || !Fm || !Mv || !sys->M || !sys->K || !sys->C || !sys->N)
        goto fail;
    memcpy(q0, ws->q, (size_t)n * sizeof *q0);
    memcpy(qd0, ws->qd, (size_t)n * sizeof *qd0);
    /* the creep forces are the contact's own (Jᵀ W): the constraint
     * contact's force inputs stay 0 in δ^NK */
    for (int i = 0; i < m->n_contact; i++)
        for (int a = 0; a < 3; a++)
            ws->u[m->contacts[i].force_slot[a]] = 0;
    for (int i = 0; i < n; i++)
        sys->N[(size_t)i * n + i] = 1;
    if (!(A = malloc(nn * sizeof *A)) || !(ipiv = malloc((size_t)n * sizeof *ipiv)) ||
        !(idx = malloc((size_t)n * sizeof *idx)) || !(Cs = malloc(nn * sizeof *Cs)))
        goto fail;
    if ((st = rs_ws_update_constants(ws)) || (st = settle_spins(ws, fn_delta, Fp, A, idx, Cs, ipiv)))
        goto fail_ws;
    memcpy(qd1, ws->qd, (size_t)n * sizeof *qd1);
    /* how far from rest, as the scenario's equilibrium solves it: at
     * q̇ = 0 (the rolling's creep forces aside, as the constraint
     * linearization's check leaves them out; on the coach they are 374 N
     * along a wheelset's x, 58 N vertical) */
    memset(ws->qd, 0, (size_t)n * sizeof *ws->qd);
    st = force_at(ws, fn_delta, Fm);
    memcpy(ws->qd, qd1, (size_t)n * sizeof *qd1);
    if (st || (st = force_at(ws, fn_delta, Fp)) ||
        (st = rs_ws_call(ws, RS_FN_M, Mv, NULL)))
        goto fail_ws;
    {
        const rs_pattern *P = &m->M_pattern;
        for (int j = 0; j < n; j++)
            for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
                sys->M[(size_t)j * n + P->rowind[k]] += Mv[k];
    }
    /* q̈ = M⁻¹ F(q0, 0) */
    memcpy(A, sys->M, nn * sizeof *A);
    {
        int info = 0, one = 1, nl = n;
        dgesv_(&nl, &one, A, &nl, ipiv, Fm, &nl, &info);
        if (info != 0) {
            st = rs_fail(err, errlen, RS_E_SINGULAR, "model '%s': the mass matrix is singular", m->name);
            goto out;
        }
        for (int j = 0; j < n; j++)
            if (fabs(Fm[j]) > sys->rest_acc) {
                sys->rest_acc = fabs(Fm[j]);
                sys->rest_at = j;
            }
    }
    /* K = −∂F/∂q, C = −∂F/∂q̇ */
    const double h[2] = {FD_H, FD_HV};
    for (int v = 0; v < 2; v++)
        for (int j = 0; j < n; j++) {
            double *x = v ? ws->qd : ws->q;
            const double x0 = x[j];
            for (int side = 0; side < 2; side++) {
                x[j] = x0 + (side ? -h[v] : h[v]);
                st = force_at(ws, fn_delta, side ? Fm : Fp);
                if (st)
                    break;
            }
            x[j] = x0;
            if (st)
                goto fail_ws;
            double *col = (v ? sys->C : sys->K) + (size_t)j * n;
            for (int i = 0; i < n; i++)
                col[i] -= (Fp[i] - Fm[i]) / (2 * h[v]);
        }
    st = RS_OK;
    goto out;
fail_ws:
    rs_fail(err, errlen, st, "model '%s': linearizing the elastic contact: %s", m->name, rs_ws_error(ws));
    goto out;
fail:
    st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
out:
    if (q0 && qd0) { /* the state as it was, its contacts evaluated there */
        memcpy(ws->q, q0, (size_t)n * sizeof *q0);
        memcpy(ws->qd, qd0, (size_t)n * sizeof *qd0);
        if (rs_elastic_eval(ws, ws->t, ws->q, ws->qd) == RS_OK)
            rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    }
    free(q0);
    free(qd0);
    free(Fp);
    free(Fm);
    free(qd1);
    free(Mv);
    free(A);
    free(Cs);
    free(ipiv);
    free(idx);
    if (st)
        rs_linear_system_free(sys);
    return st;
}
