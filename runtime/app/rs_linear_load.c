/* rs_linear_load.c — see rs_linear.h: the creep forces' variation with the
 * normal loads.  At the steady state the creepages ν0 are not zero (the
 * cones' spin), so f = −Cb(N) ν changes to first order with N:
 * ∂f/∂N = −(∂Cb/∂N) ν0 =: g.  N = −λ (the contact's multiplier), which the
 * motion changes by δλ; the linear equations become
 *
 *   M q̈ + C q̇ + K q + Kz z + (φ_qᵀ + E) δλ = F_α α,   φ_q q̈ = −Φ_α α̈,
 *   E[:, row_i] = D_i g_i  (the generalized creep force per newton of N_i).
 *
 * δλ from the constraint, S = (φ_q M⁻¹ (φ_qᵀ + E))⁻¹:
 *   δλ = S (φ_q M⁻¹ R + Φ_α α̈),  R = F_α α − C q̇ − K q − Kz z,
 * and in the null space (Nᵀφ_qᵀ = 0):
 *   Nᵀ M q̈ = Nᵀ T R − Nᵀ E S Φ_α α̈,   T = I − E S φ_q M⁻¹.
 * So K, C and Kz are replaced by T K, T C, T Kz here, and the frequency
 * responses apply T to F_α and add the α̈ term (sys->T, sys->ES). */
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_error.h"
#include "rs_linear_impl.h"
#include "rs_linear_lapack.h"

/* Relative step in N of the creep block's derivative: Cb is a power of N
 * (N^(2/3), N, N^(4/3)): the truncation error near 1e-8 relative. */
#define DN_REL 1e-4

/* A X = B, A n × n (destroyed), B n × nrhs. */
static int solve(int n, int nrhs, double *A, double *B)
{
    int *ipiv = malloc((size_t)(n > 0 ? n : 1) * sizeof *ipiv), info = 0;
    if (!ipiv)
        return RS_E_NOMEM;
    dgesv_(&n, &nrhs, A, &n, ipiv, B, &n, &info);
    free(ipiv);
    return info == 0 ? RS_OK : RS_E_SINGULAR;
}

/* Y = T X in place for X n × cols (T n × n), tmp n doubles. */
static void apply(int n, int cols, const double *T, double *X, double *tmp)
{
    for (int c = 0; c < cols; c++) {
        double *x = X + (size_t)c * n;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += T[(size_t)k * n + i] * x[k];
            tmp[i] = s;
        }
        memcpy(x, tmp, (size_t)n * sizeof *tmp);
    }
}

int rs_linear_load_terms(rs_linear_ctx *L, rs_linear_system *sys)
{
    rs_ws *ws = L->ws;
    const rs_model *m = L->m;
    const int n = L->n, nphi = L->nphi, nc = L->nc;
    if (nc == 0 || nphi == 0)
        return RS_OK;
    int st = rs_linear_resolve(L);
    if (st || (st = rs_ws_creep_eval(ws, L->creep)))
        return st;
    const size_t nn = (size_t)n * n, np = (size_t)n * nphi;
    double *E = calloc(np, sizeof *E), *X = malloc(2 * np * sizeof *X), *A = malloc(nn * sizeof *A);
    double *Si = malloc((size_t)nphi * nphi * sizeof *Si), *ESt = calloc(np, sizeof *ESt);
    double *tmp = malloc((size_t)n * sizeof *tmp);
    sys->T = calloc(nn, sizeof(double));
    sys->ES = calloc(np, sizeof(double));
    st = RS_E_NOMEM;
    if (!E || !X || !A || !Si || !ESt || !tmp || !sys->T || !sys->ES)
        goto out;
    /* E: per contact, g = −(∂Cb/∂N) ν0 through D */
    const rs_pattern *D = &m->ddelta_df_pattern;
    int any = 0;
    for (int i = 0; i < nc; i++) {
        const int row = m->contacts[i].phi_row;
        const double N0 = -sys->lambda0[row], dN = DN_REL * N0;
        double Cp[9], Cm[9], a, b, g[3];
        if (rs_contact_creep_block(N0 + dN, L->creep[2] + 3 * i, L->creep[1][i], rs_options_E(&ws->opt, i),
                                   rs_options_nu(&ws->opt, i), ws->opt.contact_vmin, Cp, &a, &b) ||
            rs_contact_creep_block(N0 - dN, L->creep[2] + 3 * i, L->creep[1][i], rs_options_E(&ws->opt, i),
                                   rs_options_nu(&ws->opt, i), ws->opt.contact_vmin, Cm, &a, &b)) {
            st = RS_E_NONHERTZ;
            goto out;
        }
        const double *nu = L->creep[0] + 3 * i;
        for (int r = 0; r < 3; r++) {
            g[r] = 0;
            for (int c = 0; c < 3; c++)
                g[r] -= (Cp[3 * r + c] - Cm[3 * r + c]) / (2 * dN) * nu[c];
            any |= g[r] != 0;
            const int col = 3 * i + r;
            for (int k = D->colptr[col]; k < D->colptr[col + 1]; k++)
                E[(size_t)row * n + D->rowind[k]] += L->creep[3][k] * g[r];
        }
    }
    if (!any) {
        st = RS_OK;
        goto out;
    }
    /* X = M⁻¹ [φ_qᵀ  E] */
    for (int r = 0; r < nphi; r++)
        for (int j = 0; j < n; j++)
            X[(size_t)r * n + j] = sys->G[(size_t)j * nphi + r];
    memcpy(X + np, E, np * sizeof *E);
    memcpy(A, sys->M, nn * sizeof *A);
    if ((st = solve(n, 2 * nphi, A, X)))
        goto out;
    /* S⁻¹ = φ_q M⁻¹ (φ_qᵀ + E) */
    for (int c = 0; c < nphi; c++)
        for (int r = 0; r < nphi; r++) {
            double s = 0;
            for (int j = 0; j < n; j++)
                s += sys->G[(size_t)j * nphi + r] * (X[(size_t)c * n + j] + X[np + (size_t)c * n + j]);
            Si[(size_t)c * nphi + r] = s;
        }
    /* (E S)ᵀ = S⁻ᵀ \ Eᵀ: solve Sᵀ⁻¹ (ES)ᵀ = Eᵀ */
    for (int c = 0; c < nphi; c++)        /* transpose Si in A */
        for (int r = 0; r < nphi; r++)
            A[(size_t)r * nphi + c] = Si[(size_t)c * nphi + r];
    for (int r = 0; r < nphi; r++)
        for (int j = 0; j < n; j++)
            ESt[(size_t)j * nphi + r] = E[(size_t)r * n + j];
    if ((st = solve(nphi, n, A, ESt)))
        goto out;
    for (int r = 0; r < nphi; r++)
        for (int j = 0; j < n; j++)
            sys->ES[(size_t)r * n + j] = ESt[(size_t)j * nphi + r];
    /* T = I − E S φ_q M⁻¹, φ_q M⁻¹ = (M⁻¹ φ_qᵀ)ᵀ = X[:, 0..nphi)ᵀ (M symmetric) */
    for (int c = 0; c < n; c++)
        for (int i = 0; i < n; i++) {
            double s = i == c;
            for (int r = 0; r < nphi; r++)
                s -= sys->ES[(size_t)r * n + i] * X[(size_t)r * n + c];
            sys->T[(size_t)c * n + i] = s;
        }
    apply(n, n, sys->T, sys->K, tmp);
    apply(n, n, sys->T, sys->C, tmp);
    if (sys->nz > 0)
        apply(n, sys->nz, sys->T, sys->Kz, tmp);
    free(E);
    free(X);
    free(A);
    free(Si);
    free(ESt);
    free(tmp);
    return RS_OK;
out:
    free(sys->T);
    free(sys->ES);
    sys->T = sys->ES = NULL; /* none: the loads' variation does not matter */
    free(E);
    free(X);
    free(A);
    free(Si);
    free(ESt);
    free(tmp);
    return st;
}
