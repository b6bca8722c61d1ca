/*
 * test_force_jac.c — the force Jacobians K = −∂δ/∂q, C = −∂δ/∂q̇ that
 * `railsym compile` emits (RS_FN_DELTA_JAC, patterns K_pattern, C_pattern)
 * against central finite differences of the generated δ (RS_FN_DELTA), for
 * every shipped example in generated/ that has them (all models without
 * wheel-rail contact), at random states and random parameter sets.  The
 * differences are computed here through the raw ABI, not through the
 * runtime's train adapter; entries outside the pattern must be zero.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_runtime.h"
#include "rs_test.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}
static double srand1(void) { return 2.0 * urand() - 1.0; }

typedef struct ev {
    const rs_model *m;
    double t, *p, *u, *k, *z, *d;
    const double *in[RS_IN_COUNT];
} ev;

static void ev_init(ev *e, const rs_model *m, double pscale)
{
    memset(e, 0, sizeof *e);
    e->m = m;
    const int n = m->n_q;
    e->p = calloc((size_t)m->n_p + 1, sizeof(double));
    e->u = calloc((size_t)m->n_u + 1, sizeof(double));
    e->k = calloc((size_t)m->n_const + 1, sizeof(double));
    e->z = calloc((size_t)n + (size_t)m->n_s + 1, sizeof(double));
    e->d = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < m->n_p; i++)   /* parameters perturbed by up to ±pscale */
        e->p[i] = m->p_default[i] * (1.0 + pscale * srand1());
    for (int i = 0; i < m->n_u; i++)
        e->u[i] = srand1();
    e->t = 0.3;
    e->in[RS_IN_T] = &e->t;
    e->in[RS_IN_QDD] = e->z;
    e->in[RS_IN_S] = e->z;
    e->in[RS_IN_SD] = e->z;
    e->in[RS_IN_SDD] = e->z;
    e->in[RS_IN_P] = e->p;
    e->in[RS_IN_U] = e->u;
    e->in[RS_IN_CONST] = e->k;
    if (m->n_const > 0) {
        double *o[RS_FN_MAX_OUT] = {e->k};
        ck_assert_int_eq(m->fn[RS_FN_CONSTANTS].fn(e->in, o), 0);
    }
}

static void ev_free(ev *e)
{
    free(e->p);
    free(e->u);
    free(e->k);
    free(e->z);
    free(e->d);
}

static void delta(ev *e, const double *q, const double *qd, double *d)
{
    e->in[RS_IN_Q] = q;
    e->in[RS_IN_QD] = qd;
    double *o[RS_FN_MAX_OUT] = {d};
    ck_assert_int_eq(e->m->fn[RS_FN_DELTA].fn(e->in, o), 0);
}

static void dense(const rs_pattern *pat, const double *val, int n, double *D)
{
    memset(D, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++)
        for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++)
            D[pat->rowind[k] + (size_t)j * n] = val[k];
}

/* max over entries of |A − B| / (max |B| over the matrix + floor) */
static double rel_err(const double *A, const double *B, int n, double floor_)
{
    double d = 0, s = floor_;
    for (int i = 0; i < n * n; i++) {
        d = fmax(d, fabs(A[i] - B[i]));
        s = fmax(s, fabs(B[i]));
    }
    return d / s;
}

/* One model: returns 1 when it has Jacobians (and they were checked). */
static int check_model(const char *dir)
{
    char err[4096];
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s: %s", dir, err);
    const rs_model *m = rs_loaded_model(h);
    const rs_func *fj = &m->fn[RS_FN_DELTA_JAC];
    /* every model has them (the 4-contact limit went: feve3000 too) */
    ck_assert_msg(fj->fn != NULL, "%s: no delta_jac", dir);
    ck_assert_int_eq(fj->n_out, 2);
    const int n = m->n_q, nk = m->K_pattern.colptr[n], nc = m->C_pattern.colptr[n];
    double *q = malloc(n * sizeof(double)), *qd = malloc(n * sizeof(double));
    double *kv = malloc((nk + 1) * sizeof(double)), *cv = malloc((nc + 1) * sizeof(double));
    double *K = malloc((size_t)n * n * sizeof(double)), *C = malloc((size_t)n * n * sizeof(double));
    double *Kf = malloc((size_t)n * n * sizeof(double)), *Cf = malloc((size_t)n * n * sizeof(double));
    double *dp = malloc(n * sizeof(double)), *dm = malloc(n * sizeof(double));
    double worst_k = 0, worst_c = 0;
    for (int trial = 0; trial < 6; trial++) {
        ev e;
        ev_init(&e, m, trial == 0 ? 0.0 : 0.2);
        for (int i = 0; i < n; i++) {
            q[i] = 0.4 * srand1();
            qd[i] = 2.0 * srand1();
        }
        e.in[RS_IN_Q] = q;
        e.in[RS_IN_QD] = qd;
        double *o[RS_FN_MAX_OUT] = {kv, cv};
        ck_assert_int_eq(fj->fn(e.in, o), 0);
        dense(&m->K_pattern, kv, n, K);
        dense(&m->C_pattern, cv, n, C);
        for (int j = 0; j < n; j++) {
            for (int w = 0; w < 2; w++) {   /* w = 0: ∂/∂q_j, 1: ∂/∂q̇_j */
                double *x = w ? qd : q;
                const double x0 = x[j], hstep = 1e-6 * (1.0 + fabs(x0));
                x[j] = x0 + hstep;
                delta(&e, q, qd, dp);
                x[j] = x0 - hstep;
                delta(&e, q, qd, dm);
                x[j] = x0;
                double *D = w ? Cf : Kf;
                for (int i = 0; i < n; i++)
                    D[i + (size_t)j * n] = -(dp[i] - dm[i]) / (2.0 * hstep);
            }
        }
        worst_k = fmax(worst_k, rel_err(K, Kf, n, 1e-9));
        worst_c = fmax(worst_c, rel_err(C, Cf, n, 1e-9));
        ev_free(&e);
    }
    printf("force Jacobians: %-18s n_q %2d  K nnz %3d  C nnz %3d  max rel. difference to central FD: K %.1e, C %.1e\n",
           m->name, n, nk, nc, worst_k, worst_c);
    ck_assert_msg(worst_k < 1e-6 && worst_c < 1e-6, "%s: K %g C %g", m->name, worst_k, worst_c);
    free(q);
    free(qd);
    free(kv);
    free(cv);
    free(K);
    free(C);
    free(Kf);
    free(Cf);
    free(dp);
    free(dm);
    rs_unload(&h);
    return 1;
}

START_TEST(test_examples_vs_fd)
{
    DIR *d = opendir("generated");
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    char names[64][320];
    int nn = 0;
    while ((de = readdir(d)) && nn < 64)
        if (de->d_name[0] != '.')
            snprintf(names[nn++], sizeof names[0], "generated/%s", de->d_name);
    closedir(d);
    int checked = 0;
    for (int i = 0; i < nn; i++)
        checked += check_model(names[i]);
    ck_assert_int_ge(checked, 13);
}
END_TEST

START_TEST(test_spring_analytic)
{
    /* coupled pendulums (gravity and a spring, no damping): at q̇ = 0, δ is
     * minus the gradient of the potential, so K is its Hessian: symmetric
     * to rounding at any q (a second, structural check beside the FD one) */
    char err[4096];
    rs_loaded *h = rs_load("generated/coupled_pendulums", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    const int n = m->n_q;
    ev e;
    ev_init(&e, m, 0.0);
    double *q = calloc(n, sizeof(double)), *qd = calloc(n, sizeof(double));
    for (int i = 0; i < n; i++)
        q[i] = 0.3 * srand1();
    double kv[256], cv[256], K[256];
    ck_assert_int_le(n * n, 256);
    e.in[RS_IN_Q] = q;
    e.in[RS_IN_QD] = qd;
    double *o[RS_FN_MAX_OUT] = {kv, cv};
    ck_assert_int_eq(m->fn[RS_FN_DELTA_JAC].fn(e.in, o), 0);
    dense(&m->K_pattern, kv, n, K);
    double asym = 0, mx = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            asym = fmax(asym, fabs(K[i + j * n] - K[j + i * n]));
            mx = fmax(mx, fabs(K[i + j * n]));
        }
    printf("force Jacobians: coupled_pendulums at rest: |K - K^T| / |K| = %.1e\n", asym / mx);
    ck_assert(asym <= 1e-12 * mx);   /* K is the Hessian of the potential at q̇ = 0 */
    free(q);
    free(qd);
    ev_free(&e);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("force_jac");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_examples_vs_fd);
    tcase_add_test(tc, test_spring_analytic);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
