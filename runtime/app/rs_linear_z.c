/* rs_linear_z.c — see rs_linear.h: the internal states' part of the
 * linearization (series spring–dampers, air springs: ż = a(q, q̇) + b z).
 * Kz = −∂δ/∂z, Zq = ∂ż/∂q and Zv = ∂ż/∂q̇ by central differences on the
 * workspace, b = ∂ż/∂z as RS_FN_ZDOT gives it. */
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_linear_impl.h"

#define FD_H RS_LINEAR_FD_H

/* ż at the bound state into zd. */
static int zdot_at(rs_linear_ctx *L, double *zd)
{
    int st = rs_linear_resolve(L);
    return st ? st : rs_ws_call(L->ws, RS_FN_ZDOT, zd, NULL);
}

int rs_linear_z_terms(rs_linear_ctx *L, rs_linear_system *sys, int fn_delta)
{
    rs_ws *ws = L->ws;
    const rs_model *m = L->m;
    const int n = L->n, nz = m->n_z;
    sys->nz = nz;
    if (nz == 0)
        return RS_OK;
    sys->Kz = calloc((size_t)n * nz, sizeof(double));
    sys->Zq = calloc((size_t)nz * n, sizeof(double));
    sys->Zv = calloc((size_t)nz * n, sizeof(double));
    sys->Zb = calloc((size_t)nz, sizeof(double));
    double *q0 = malloc((size_t)n * sizeof *q0), *qd0 = malloc((size_t)n * sizeof *qd0);
    double *zp = malloc((size_t)nz * sizeof *zp), *zm = malloc((size_t)nz * sizeof *zm);
    double *dp = malloc((size_t)n * sizeof *dp);
    int st = RS_E_NOMEM;
    if (!sys->Kz || !sys->Zq || !sys->Zv || !sys->Zb || !q0 || !qd0 || !zp || !zm || !dp)
        goto out;
    memcpy(q0, ws->q, (size_t)n * sizeof *q0);
    memcpy(qd0, ws->qd, (size_t)n * sizeof *qd0);
    if ((st = rs_linear_resolve(L)) || (st = rs_ws_call(ws, RS_FN_ZDOT, zp, sys->Zb)))
        goto out;
    /* Kz: column l from δ at z_l ± h (δ is linear in z: the step's size
     * only sets the rounding, h·|Kz| against |δ|) */
    for (int l = 0; l < nz; l++) {
        double *u = &ws->u[m->z_slot[l]];
        const double z0 = *u;
        for (int side = 0; side < 2; side++) {
            *u = z0 + (side ? -FD_H : FD_H);
            st = rs_ws_call(ws, fn_delta, side ? ws->delta : dp, NULL);
            if (st)
                break;
        }
        *u = z0;
        if (st)
            goto out;
        for (int i = 0; i < n; i++)
            sys->Kz[(size_t)l * n + i] = -(dp[i] - ws->delta[i]) / (2 * FD_H);
    }
    /* Zq, Zv: column j from ż at q_j ± h, then q̇_j ± h */
    for (int v = 0; v < 2; v++) {
        double *x = v ? ws->qd : ws->q, *Z = v ? sys->Zv : sys->Zq;
        const double *x0 = v ? qd0 : q0;
        for (int j = 0; j < n; j++) {
            x[j] = x0[j] + FD_H;
            if (!(st = zdot_at(L, zp))) {
                x[j] = x0[j] - FD_H;
                st = zdot_at(L, zm);
            }
            x[j] = x0[j];
            if (st)
                goto out;
            for (int l = 0; l < nz; l++)
                Z[(size_t)j * nz + l] = (zp[l] - zm[l]) / (2 * FD_H);
        }
    }
    st = rs_linear_resolve(L);
out:
    if (q0 && qd0) {
        memcpy(ws->q, q0, (size_t)n * sizeof *q0);
        memcpy(ws->qd, qd0, (size_t)n * sizeof *qd0);
    }
    free(q0);
    free(qd0);
    free(zp);
    free(zm);
    free(dp);
    return st;
}
