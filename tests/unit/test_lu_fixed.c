/*
 * test_lu_fixed.c — the fixed-order sparse LU (runtime/core/rs_lu_fixed.c,
 * RS_FAST_LU_FIXED) against answers it does not compute:
 *
 *   - random sparse matrices of a given pattern (diagonally dominant in the
 *     permuted order, so no pivoting is needed), symmetric and unsymmetric
 *     pivot orders, and saddle-point matrices [A sGᵀ; G 0] in the Schur order
 *     (coordinates, then multipliers): solutions against a dense Gaussian
 *     elimination with partial pivoting written here; L + U entries against
 *     a dense symbolic elimination; diagonal and full patterns (no dense
 *     block / all dense block);
 *   - the pivot check: a NaN, a zero and a collapsed pivot are reported;
 *   - through rs_klu_factors (rs_klu.c): refactorizations by the fixed LU after
 *     KLU's first factorization; a pivot that collapses falls back to KLU,
 *     which either keeps the order (the fixed LU takes the new values as its
 *     reference and goes on) or pivots elsewhere (the fixed LU is switched
 *     off); solutions against Cramer's rule; fragile pivot orders (the
 *     four-bar with COLAMD + BTF) stay with KLU, AUTO's gets the fixed LU;
 *   - the FEVE 3000's own dynamics matrix after 50 steps of its demo run:
 *     the fixed LU holds the factors, its L + U entries equal KLU's count for
 *     the ordering AUTO chose, and its solve matches a dense solve;
 *   - set-up errors: not a permutation; every allocation failing in turn
 *     gives RS_E_NOMEM and leaks nothing.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_klu.h"
#include "rs_load.h"
#include "rs_lu_fixed.h"
#include "rs_scenario.h"
#include "rs_ws_impl.h"
#include "rt_fixtures.h"
#include "rs_test.h"

/* ---- an allocator that counts, and fails on request ----------------------- */

static long live, n_alloc, fail_at = -1;

static void *t_alloc(void *ctx, size_t n)
{
    (void)ctx;
    if (n_alloc++ == fail_at)
        return NULL;
    live++;
    return calloc(1, n);
}
static void t_release(void *ctx, void *p)
{
    (void)ctx;
    live--;
    free(p);
}
static const rs_allocator ALLOC = {t_alloc, t_release, NULL};

/* ---- reference: dense Gaussian elimination with partial pivoting --------- */

#define NMAX 48

/* Solves D x = b (D n × n column-major, copied). */
static void dense_solve(int n, const double *D, const double *b, double *x)
{
    static double a[NMAX * NMAX];
    memcpy(a, D, sizeof(double) * (size_t)(n * n));
    memcpy(x, b, sizeof(double) * (size_t)n);
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[k * n + i]) > fabs(a[k * n + p]))
                p = i;
        for (int j = 0; j < n; j++) {
            double t = a[j * n + k];
            a[j * n + k] = a[j * n + p];
            a[j * n + p] = t;
        }
        double t = x[k];
        x[k] = x[p];
        x[p] = t;
        for (int i = k + 1; i < n; i++) {
            const double l = a[k * n + i] / a[k * n + k];
            for (int j = k + 1; j < n; j++)
                a[j * n + i] -= l * a[j * n + k];
            x[i] -= l * x[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        double v = x[k];
        for (int j = k + 1; j < n; j++)
            v -= a[j * n + k] * x[j];
        x[k] = v / a[k * n + k];
    }
}

/* ---- random test matrices -------------------------------------------------- */

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) /* [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void shuffle(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(urand() * (i + 1)), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

typedef struct csc {
    int n, Ap[NMAX + 1], Ai[NMAX * NMAX];
    double Ax[NMAX * NMAX], D[NMAX * NMAX]; /* values in CSC and dense */
} csc;

/* CSC of the dense column-major D's non-zeros (structural pattern = mask). */
static void to_csc(csc *c, const unsigned char *mask)
{
    int p = 0;
    for (int j = 0; j < c->n; j++) {
        c->Ap[j] = p;
        for (int i = 0; i < c->n; i++)
            if (mask[j * c->n + i]) {
                c->Ai[p] = i;
                c->Ax[p++] = c->D[j * c->n + i];
            }
    }
    c->Ap[c->n] = p;
}

/* A random matrix with about `density` of its entries, diagonally dominant
 * in the order (prow, pcol): B = A(prow, pcol) has |B(k,k)| > Σ|B(i,k)|. */
static void random_values(csc *c, const int *prow, const int *pcol, const unsigned char *mask)
{
    const int n = c->n;
    memset(c->D, 0, sizeof c->D);
    for (int j = 0; j < n; j++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            if (i != j && mask[pcol[j] * n + prow[i]]) {
                const double v = 2 * urand() - 1;
                c->D[pcol[j] * n + prow[i]] = v;
                sum += fabs(v);
            }
        c->D[pcol[j] * n + prow[j]] = (urand() < 0.5 ? -1 : 1) * (sum + 0.5 + urand());
    }
    to_csc(c, mask);
}

static void random_matrix(csc *c, int n, double density, const int *prow, const int *pcol,
                          unsigned char *mask)
{
    c->n = n;
    memset(mask, 0, (size_t)(n * n));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            mask[pcol[j] * n + prow[i]] = i == j || urand() < density;
    random_values(c, prow, pcol, mask);
}

/* Entries of L + U of B = A(prow, pcol) by dense symbolic elimination. */
static int dense_symbolic_nnz(int n, const unsigned char *mask, const int *prow, const int *pcol)
{
    static unsigned char b[NMAX * NMAX];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            b[j * n + i] = mask[pcol[j] * n + prow[i]] || i == j;
    for (int k = 0; k < n; k++)
        for (int j = k + 1; j < n; j++)
            if (b[j * n + k])
                for (int i = k + 1; i < n; i++)
                    b[j * n + i] |= b[k * n + i];
    int nnz = 0;
    for (int i = 0; i < n * n; i++)
        nnz += b[i];
    return nnz;
}

/* Factors and solves with the fixed LU; returns max |x − x_dense| / max |x|. */
static double solve_error(rs_lu_fixed *F, const csc *c)
{
    double b[NMAX], x[NMAX], xd[NMAX], rc;
    ck_assert_int_eq(rs_lu_fixed_factor(F, c->Ax, 1e-3, 0.0, 1, &rc), 0);
    ck_assert(rc > 0 && rc <= 1);
    for (int i = 0; i < c->n; i++)
        b[i] = x[i] = 2 * urand() - 1;
    rs_lu_fixed_solve(F, x);
    dense_solve(c->n, c->D, b, xd);
    double d = 0, mag = 0;
    for (int i = 0; i < c->n; i++) {
        d = fmax(d, fabs(x[i] - xd[i]));
        mag = fmax(mag, fabs(xd[i]));
    }
    return d / mag;
}

START_TEST(test_random_patterns)
{
    static csc c;
    static unsigned char mask[NMAX * NMAX];
    int prow[NMAX], pcol[NMAX];
    const double dens[] = {0.02, 0.08, 0.2, 0.5, 1.0};
    double worst = 0;
    for (int trial = 0; trial < 60; trial++) {
        const int n = 1 + (int)(urand() * 40);
        const double d = dens[trial % 5];
        shuffle(pcol, n);
        if (trial % 2)
            shuffle(prow, n); /* unsymmetric order */
        else
            memcpy(prow, pcol, sizeof(int) * (size_t)n);
        random_matrix(&c, n, d, prow, pcol, mask);
        rs_lu_fixed F;
        ck_assert_int_eq(rs_lu_fixed_create(&F, n, c.Ap, c.Ai, prow, pcol, &ALLOC), RS_OK);
        ck_assert_int_eq(rs_lu_fixed_nnz(&F), dense_symbolic_nnz(n, mask, prow, pcol));
        ck_assert(F.s + F.m == n && F.m >= 1);
        const double e = solve_error(&F, &c);
        worst = fmax(worst, e);
        ck_assert_msg(e < 1e-12, "n %d density %g: relative error %g", n, d, e);
        /* new values, same pattern: the same set-up serves them */
        random_values(&c, prow, pcol, mask);
        ck_assert(solve_error(&F, &c) < 1e-12);
        rs_lu_fixed_free(&F);
    }
    ck_assert_int_eq(live, 0);
    printf("fixed-order LU, 60 random patterns n <= 40: worst relative difference to a dense "
           "solve %.2e\n", worst);
}
END_TEST

/* A diagonal matrix has no dense block beyond the last pivot; a full one is
 * a dense block from the first. */
START_TEST(test_extreme_patterns)
{
    static csc c;
    static unsigned char mask[NMAX * NMAX];
    int p[NMAX];
    const int n = 12;
    for (int i = 0; i < n; i++)
        p[i] = i;
    random_matrix(&c, n, 0.0, p, p, mask);
    rs_lu_fixed F;
    ck_assert_int_eq(rs_lu_fixed_create(&F, n, c.Ap, c.Ai, p, p, &ALLOC), RS_OK);
    ck_assert_int_eq(F.m, 1);
    ck_assert_int_eq(rs_lu_fixed_nnz(&F), n);
    ck_assert(solve_error(&F, &c) < 1e-15);
    rs_lu_fixed_free(&F);
    random_matrix(&c, n, 1.0, p, p, mask);
    ck_assert_int_eq(rs_lu_fixed_create(&F, n, c.Ap, c.Ai, p, p, &ALLOC), RS_OK);
    ck_assert_int_eq(F.s, 0);
    ck_assert_int_eq(rs_lu_fixed_nnz(&F), n * n);
    ck_assert(solve_error(&F, &c) < 1e-13);
    rs_lu_fixed_free(&F);
    ck_assert_int_eq(live, 0);
}
END_TEST

/* [A sGᵀ; G 0]: A sparse and diagonally dominant (a mass matrix plus a
 * small unsymmetric damping), G a few rows of a sparse Jacobian, s = 1e-3;
 * pivots: the coordinates in a random order, then the multipliers — every
 * pivot on A's diagonal, then on the Schur complement's. */
START_TEST(test_saddle_point_schur_order)
{
    static csc c;
    static unsigned char mask[NMAX * NMAX];
    int perm[NMAX];
    double worst = 0;
    for (int trial = 0; trial < 20; trial++) {
        const int nq = 10 + trial, nphi = 2 + trial / 3, n = nq + nphi;
        const double s = 1e-3;
        c.n = n;
        memset(mask, 0, sizeof mask);
        memset(c.D, 0, sizeof c.D);
        for (int j = 0; j < nq; j++) {
            for (int i = 0; i < nq; i++)
                if (i != j && urand() < 0.15) {
                    c.D[j * n + i] = 0.2 * (2 * urand() - 1);
                    mask[j * n + i] = 1;
                }
            c.D[j * n + j] = 5 + 100 * urand();
            mask[j * n + j] = 1;
        }
        for (int i = 0; i < nphi; i++)
            for (int j = 0; j < nq; j++)
                if (urand() < 0.3 || j == i) {
                    const double g = 2 * urand() - 1;
                    c.D[j * n + nq + i] = g;     /* G   */
                    c.D[(nq + i) * n + j] = s * g; /* sGᵀ */
                    mask[j * n + nq + i] = mask[(nq + i) * n + j] = 1;
                }
        to_csc(&c, mask);
        shuffle(perm, nq);
        for (int i = 0; i < nphi; i++)
            perm[nq + i] = nq + i;
        rs_lu_fixed F;
        ck_assert_int_eq(rs_lu_fixed_create(&F, n, c.Ap, c.Ai, perm, perm, &ALLOC), RS_OK);
        ck_assert_int_eq(rs_lu_fixed_nnz(&F), dense_symbolic_nnz(n, mask, perm, perm));
        ck_assert(F.m >= nphi); /* the Schur complement is in the dense block */
        const double e = solve_error(&F, &c);
        worst = fmax(worst, e);
        ck_assert_msg(e < 1e-11, "trial %d: relative error %g", trial, e);
        rs_lu_fixed_free(&F);
    }
    ck_assert_int_eq(live, 0);
    printf("fixed-order LU, 20 saddle-point matrices in the Schur order: worst relative "
           "difference to a dense solve %.2e\n", worst);
}
END_TEST

START_TEST(test_pivot_check)
{
    /* [4 1 0; 1 4 1; 0 1 4], natural order */
    static const int Ap[] = {0, 2, 5, 7}, Ai[] = {0, 1, 0, 1, 2, 1, 2}, p[] = {0, 1, 2};
    double Ax[] = {4, 1, 1, 4, 1, 1, 4}, rc;
    rs_lu_fixed F;
    ck_assert_int_eq(rs_lu_fixed_create(&F, 3, Ap, Ai, p, p, &ALLOC), RS_OK);
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 1e-3, 0.0, 1, &rc), 0);
    ck_assert(F.has_ref);
    /* pivot 2 = 4 − 1/a: collapsed to 1e-5 of its reference 3.75 */
    Ax[0] = 1.0 / (4 - 3.75e-5);
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 1e-3, 0.0, 0, &rc), 2);
    /* the same values pass without the reference check, and a mild change
     * passes with it */
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 0.0, 0.0, 0, &rc), 0);
    Ax[0] = 3.0;
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 1e-3, 0.0, 0, &rc), 0);
    /* rcond_min: the smallest over the largest pivot */
    ck_assert_int_ne(rs_lu_fixed_factor(&F, Ax, 1e-3, 0.99, 0, &rc), 0);
    ck_assert(rc < 0.99);
    /* zero and NaN pivots; the work column is clean afterwards */
    Ax[0] = 0.0;
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 0.0, 0.0, 0, &rc), 1);
    Ax[0] = 4.0;
    Ax[6] = NAN;
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 0.0, 0.0, 0, &rc), 3);
    Ax[6] = 4.0;
    ck_assert_int_eq(rs_lu_fixed_factor(&F, Ax, 1e-3, 0.0, 0, &rc), 0);
    double b[3] = {5, 6, 5}; /* x = (1, 1, 1) */
    rs_lu_fixed_solve(&F, b);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(b[i], 1.0, 1e-15);
    rs_lu_fixed_free(&F);
    ck_assert_int_eq(live, 0);
}
END_TEST

START_TEST(test_setup_errors)
{
    static const int Ap[] = {0, 2, 5, 7}, Ai[] = {0, 1, 0, 1, 2, 1, 2};
    static const int p[] = {0, 1, 2}, dup[] = {0, 1, 1}, out[] = {0, 1, 3};
    rs_lu_fixed F;
    ck_assert_int_eq(rs_lu_fixed_create(&F, 3, Ap, Ai, dup, p, &ALLOC), RS_E_ARG);
    ck_assert_int_eq(rs_lu_fixed_create(&F, 3, Ap, Ai, p, out, &ALLOC), RS_E_ARG);
    ck_assert_int_eq(rs_lu_fixed_create(&F, 0, Ap, Ai, p, p, &ALLOC), RS_E_ARG);
    ck_assert_int_eq(live, 0);
    /* each allocation failing in turn */
    int k = 0;
    for (;; k++) {
        n_alloc = 0;
        fail_at = k;
        const int st = rs_lu_fixed_create(&F, 3, Ap, Ai, p, p, &ALLOC);
        fail_at = -1;
        if (st == RS_OK) {
            rs_lu_fixed_free(&F);
            break;
        }
        ck_assert_int_eq(st, RS_E_NOMEM);
        ck_assert_int_eq(live, 0);
    }
    ck_assert_int_gt(k, 5);
    ck_assert_int_eq(live, 0);
}
END_TEST

/* ---- through rs_klu_factors: refactorizations and the fallback to KLU ------------ */

static const int Fp[] = {0, 2, 4}, Fi[] = {0, 1, 0, 1};

/* K = the 2 × 2 A block of a constraint-free model, full pattern. */
static void build2(rs_klu_system *K, rs_model *m)
{
    memset(m, 0, sizeof *m);
    m->n_q = 2;
    m->M_pattern = (rs_pattern){2, 2, Fp, Fi};
    m->phi_q_pattern = (rs_pattern){0, 2, Fp, NULL};
    char err[200];
    ck_assert_int_eq(rs_klu_system_build(K, m, NULL, &ALLOC, err, sizeof err), RS_OK);
}

/* A = [a b; c d] in column order (a, c, b, d): refactor F with v, solve, and
 * compare with Cramer's rule. */
static void refactor_check(rs_klu_system *K, rs_klu_factors *F, rs_stats *st, const double v[4])
{
    int bad;
    rs_klu_system_fill(K, v, NULL, 1.0);
    ck_assert_int_eq(rs_klu_factorize(K, F, 1e-14, 1e-3, st, &bad), RS_OK);
    double b[2] = {1.0, 2.0};
    ck_assert_int_eq(rs_klu_solve(K, F, b, st), RS_OK);
    const double a = v[0], c = v[1], bb = v[2], d = v[3], det = a * d - bb * c;
    const double x0 = (1.0 * d - bb * 2.0) / det, x1 = (a * 2.0 - c * 1.0) / det;
    ck_assert_msg(fabs(b[0] - x0) <= 1e-13 * fabs(x0) && fabs(b[1] - x1) <= 1e-13 * fabs(x1),
                  "x = (%.17g, %.17g), Cramer (%.17g, %.17g)", b[0], b[1], x0, x1);
}

START_TEST(test_kfac_fallback)
{
    static const double first[4] = {1.0, 0.5, 1.0, 1.0}; /* diagonal pivots */
    static const double mild[4] = {1.2, 0.4, 0.9, 1.1};
    /* the first pivot shrinks 1e4-fold but stays its column's largest (after
     * KLU's row scaling): KLU pivots on it again */
    static const double shrink[4] = {1e-4, 1e-5, 1e-4, 1.0};
    /* [1e-9 1; 1 1e-9]: KLU now pivots off the diagonal */
    static const double swap[4] = {1e-9, 1.0, 1.0, 1e-9};
    rs_model m;
    rs_klu_system K;
    build2(&K, &m);
    rs_klu_factors F;
    memset(&F, 0, sizeof F);
    rs_stats st;
    memset(&st, 0, sizeof st);
    int bad;
    rs_klu_system_fill(&K, first, NULL, 1.0);
    ck_assert_int_eq(rs_klu_factorize(&K, &F, 1e-14, 1e-3, &st, &bad), RS_OK);
    ck_assert_int_eq(rs_klu_fixed_enable(&K, &F, 1e-14, &ALLOC), RS_OK);
    ck_assert(F.fx_on && F.fx_holds);
    /* a mild change: the fixed LU refactors */
    refactor_check(&K, &F, &st, mild);
    ck_assert_int_eq(st.lu_fixed_refactors, 1);
    ck_assert_int_eq(st.refactor_fallbacks, 0);
    ck_assert_int_eq(st.factors, 1);
    /* collapsed pivot, same KLU order: fallback, then the fixed LU goes on
     * with the new reference */
    refactor_check(&K, &F, &st, shrink);
    ck_assert_int_eq(st.refactor_fallbacks, 1);
    ck_assert_int_eq(st.factors, 2);
    ck_assert(F.fx_on && F.fx_holds);
    refactor_check(&K, &F, &st, shrink);
    ck_assert_int_eq(st.lu_fixed_refactors, 2);
    ck_assert_int_eq(st.refactor_fallbacks, 1);
    /* KLU pivots elsewhere: the fixed LU is switched off, KLU refactors */
    refactor_check(&K, &F, &st, swap);
    ck_assert_int_eq(st.refactor_fallbacks, 2);
    ck_assert_int_eq(st.factors, 3);
    ck_assert(!F.fx_on && !F.fx_holds);
    refactor_check(&K, &F, &st, swap);
    ck_assert_int_eq(st.lu_fixed_refactors, 2);
    ck_assert_int_eq(st.refactors, 5);
    rs_klu_factors_free(&K, &F);
    rs_klu_system_free(&K, &ALLOC);
    ck_assert_int_eq(live, 0);
}
END_TEST

/* Only orders without fragile pivots get the fixed LU: on the four-bar,
 * COLAMD with BTF is fragile (test_rt_klu: its refactorizations degrade), so
 * KLU keeps it and its fallbacks; AUTO's robust choice gets the fixed LU
 * for both matrices and never falls back. */
static void fourbar(int ordering, int btf, rs_ws **out)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.proj_tol = 1e-10;
    o.fast = RS_FAST_LU_FIXED; /* KLU projections: fac_proj is used too */
    o.klu_ordering = ordering;
    o.klu_btf = btf;
    char err[256];
    ck_assert_msg(rs_ws_create(rt_fourbar_model(), &o, out, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rt_fourbar_assemble(rs_ws_p(*out), 0.5, rs_ws_q(*out)), 0);
    rs_ws_qd(*out)[0] = 1.0;
    for (int i = 0; i < 2000; i++)
        ck_assert_msg(rs_step(*out) == RS_OK, "%s", rs_ws_error(*out));
}

START_TEST(test_fragile_orders_stay_with_klu)
{
    rs_ws *ws;
    fourbar(RS_KLU_COLAMD, 1, &ws);
    ck_assert_int_eq(ws->fac_dyn.fx.n, 0);
    ck_assert_int_eq(rs_ws_stats(ws)->lu_fixed_refactors, 0);
    ck_assert_int_gt(rs_ws_stats(ws)->refactor_fallbacks, 0);
    rs_ws_free(&ws);
    fourbar(RS_KLU_AUTO, -1, &ws);
    ck_assert_int_gt(ws->fac_dyn.fx.n, 0);
    ck_assert_int_gt(ws->fac_proj.fx.n, 0);
    const rs_stats *st = rs_ws_stats(ws);
    printf("four-bar, AUTO (%s): %ld refactorizations, %ld by the fixed LU, %ld fallbacks\n",
           rs_klu_ordering_name(ws->sys.ordering, ws->sys.btf), st->refactors,
           st->lu_fixed_refactors, st->refactor_fallbacks);
    ck_assert_int_gt(st->refactors, 2000);
    ck_assert_int_eq(st->lu_fixed_refactors, st->refactors);
    ck_assert_int_eq(st->refactor_fallbacks, 0);
    rs_ws_free(&ws);
}
END_TEST

/* ---- the FEVE 3000's own matrix ------------------------------------------- */

START_TEST(test_feve3000_matrix)
{
    RS_REQUIRE_MODEL("feve3000");
    char err[2000];
    rs_loaded *h = rs_load("generated/feve3000", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    rs_scenario base, top;
    rs_scenario_init(&base);
    rs_scenario_init(&top);
    rs_binding *b = NULL;
    ck_assert_msg(rs_scenario_read("generated/feve3000/default.scn", &base, err, sizeof err) ==
                      RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_read("vehicles/feve3000/demo.scn", &top, err, sizeof err) == RS_OK,
                  "%s", err);
    ck_assert_int_eq(rs_scenario_overlay(&base, &top), RS_OK);
    ck_assert_msg(rs_scenario_bind(&base, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    ck_assert(o.fast & RS_FAST_LU_FIXED); /* on by default */
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    for (int i = 0; i < 50; i++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    const rs_stats *st = rs_ws_stats(ws);
    ck_assert_int_eq(st->lu_fixed_refactors, 50);
    ck_assert_int_eq(st->refactor_fallbacks, 0);
    rs_lu_fixed *F = &ws->fac_dyn.fx;
    ck_assert(ws->fac_dyn.fx_holds);
    rs_klu_info ki;
    rs_ws_klu_info(ws, &ki);
    const int cand = 2 * ki.ordering + ki.btf;
    printf("FEVE 3000 dynamics matrix: n %d, KLU %s: L+U %d entries, %.0f flops; fixed LU: "
           "%d entries, %ld flops, dense block %d x %d from pivot %d\n",
           F->n, rs_klu_ordering_name(ki.ordering, ki.btf), ki.cand_lu_nnz[cand],
           ki.cand_flops[cand], rs_lu_fixed_nnz(F), F->flops, F->m, F->m, F->s);
    ck_assert_int_eq(rs_lu_fixed_nnz(F), ki.cand_lu_nnz[cand]);
    ck_assert_double_eq((double)F->flops, ki.cand_flops[cand]);
    /* AUTO's pick is the bodies' tree order (fewer flops than the Schur
     * order, no fragile pivot): leaves first, each wheel's contact
     * multiplier after its wheelset's coordinates and before its bogie's */
    const int schur = 2 * RS_KLU_AMD_SCHUR + 0;
    printf("FEVE 3000 dynamics matrix: tree order %.0f flops, Schur order %.0f\n",
           ki.cand_flops[2 * RS_KLU_TREE], ki.cand_flops[schur]);
    ck_assert_int_eq(ki.ordering, RS_KLU_TREE);
    ck_assert_int_eq(ki.cand_fragile[cand], 0);
    ck_assert(ki.cand_flops[cand] < 0.6 * ki.cand_flops[schur]);
    int where[NMAX];
    for (int k = 0; k < ws->sys.n; k++)
        where[ws->sys.sym->Q[k]] = k;
    for (int c = 0; c < m->n_contact; c++) {
        const rs_contact *ct = &m->contacts[c];
        char ws_z[96], bogie_z[96];
        /* "front.wf.right" -> wheelset "front.wf", bogie "front" */
        const char *dot2 = strrchr(ct->name, '.');
        const int lw = (int)(dot2 - ct->name), lb = (int)(strchr(ct->name, '.') - ct->name);
        snprintf(ws_z, sizeof ws_z, "%.*s.z", lw, ct->name);
        snprintf(bogie_z, sizeof bogie_z, "%.*s.z", lb, ct->name);
        int iw = -1, ib = -1;
        for (int j = 0; j < m->n_q; j++) {
            iw = strcmp(m->q_names[j], ws_z) ? iw : j;
            ib = strcmp(m->q_names[j], bogie_z) ? ib : j;
        }
        ck_assert_msg(iw >= 0 && ib >= 0, "%s: no %s or %s", ct->name, ws_z, bogie_z);
        const int lam = where[m->n_q + ct->phi_row];
        ck_assert_msg(where[iw] < lam && lam < where[ib], "%s: multiplier at %d, %s at %d, %s at %d",
                      ct->name, lam, ws_z, where[iw], bogie_z, where[ib]);
    }
    /* K.Ax holds the last step's dynamics matrix (the dense projections do
     * not touch K): the fixed LU's solve against a dense one */
    const rs_klu_system *K = &ws->sys;
    ck_assert_int_le(K->n, NMAX);
    static double D[NMAX * NMAX];
    double rhs[NMAX], x[NMAX], xd[NMAX];
    memset(D, 0, sizeof D);
    for (int j = 0; j < K->n; j++)
        for (int p = K->Ap[j]; p < K->Ap[j + 1]; p++)
            D[j * K->n + K->Ai[p]] = K->Ax[p];
    for (int i = 0; i < K->n; i++)
        rhs[i] = x[i] = 2 * urand() - 1;
    double rc;
    ck_assert_int_eq(rs_lu_fixed_factor(F, K->Ax, 1e-3, 1e-14, 0, &rc), 0);
    rs_lu_fixed_solve(F, x);
    dense_solve(K->n, D, rhs, xd);
    double d = 0, mag = 0;
    for (int i = 0; i < K->n; i++) {
        d = fmax(d, fabs(x[i] - xd[i]));
        mag = fmax(mag, fabs(xd[i]));
    }
    printf("FEVE 3000 dynamics matrix: fixed LU vs dense solve, relative difference %.2e\n",
           d / mag);
    ck_assert(d / mag < 1e-10);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lu_fixed");
    TCase *tc = tcase_create("lu_fixed");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_random_patterns);
    tcase_add_test(tc, test_extreme_patterns);
    tcase_add_test(tc, test_saddle_point_schur_order);
    tcase_add_test(tc, test_pivot_check);
    tcase_add_test(tc, test_setup_errors);
    tcase_add_test(tc, test_kfac_fallback);
    tcase_add_test(tc, test_fragile_orders_stay_with_klu);
    tcase_add_test(tc, test_feve3000_matrix);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
