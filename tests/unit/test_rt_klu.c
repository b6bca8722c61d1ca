/*
 * test_rt_klu.c — the sparse LU's orderings and its degraded-pivot fallback
 * (runtime/core/rs_klu.c, rs_options.klu_ordering / klu_btf / rgrowth_drop):
 *
 *   - every ordering KLU offers ({AMD, COLAMD, natural} × BTF {off, on}) and
 *     RS_KLU_AUTO give the same trajectories to round-off: the four-bar
 *     (IMEX and RK4, hand-written fixture) and the generated conical
 *     wheelset with contact released off centre;
 *   - AUTO records its trial (µs, LU entries, fragile pivots per candidate)
 *     and keeps a candidate with the fewest fragile pivots; on the four-bar
 *     the orderings it rejects as fragile really do degrade during a run
 *     (full re-factorizations counted), the one it keeps never does;
 *   - the fallback: a 2×2 matrix whose first factorization pivots on the
 *     diagonal, refactored with values that make that pivot tiny, is
 *     factored again (counted) and solved right (against Cramer's rule),
 *     triggered by rcond alone and by the pivot growth (klu_rgrowth) alone;
 *     a mild change of values keeps the refactorization;
 *   - options are validated; fixed orderings are reported by rs_ws_klu_info.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_klu.h"
#include "rs_ws_impl.h"
#include "rt_fixtures.h"
#include "rs_test.h"

static void *t_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return calloc(1, n);
}
static void t_release(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}
static const rs_allocator ALLOC = {t_alloc, t_release, NULL};

/* ---- all orderings, same trajectories ------------------------------------- */

#define NSTEPS 2000
#define MAXQ 8

typedef struct traj {
    double q[NSTEPS][MAXQ];
    long fallbacks;
    rs_klu_info info;
} traj;

static traj runs[RS_KLU_CANDIDATES + 1];

/* The four-bar from crank angle 0.5 rad at 1 rad/s with the given ordering
 * (candidate index 2·ordering + btf, or RS_KLU_CANDIDATES for AUTO). */
static void run_fourbar(rs_method meth, int cand, traj *out)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.method = meth;
    o.proj_tol = 1e-10;
    o.klu_ordering = cand < RS_KLU_CANDIDATES ? cand / 2 : RS_KLU_AUTO;
    o.klu_btf = cand < RS_KLU_CANDIDATES ? cand % 2 : -1;
    rs_ws *ws;
    char err[256];
    ck_assert_msg(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rt_fourbar_assemble(rs_ws_p(ws), 0.5, rs_ws_q(ws)), 0);
    rs_ws_qd(ws)[0] = 1.0;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int i = 0; i < NSTEPS; i++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        memcpy(out->q[i], rs_ws_q(ws), 3 * sizeof(double));
    }
    out->fallbacks = rs_ws_stats(ws)->refactor_fallbacks;
    rs_ws_klu_info(ws, &out->info);
    rs_ws_free(&ws);
}

static double max_diff(const traj *a, const traj *b, int nq)
{
    double d = 0;
    for (int i = 0; i < NSTEPS; i++)
        for (int j = 0; j < nq; j++)
            d = fmax(d, fabs(a->q[i][j] - b->q[i][j]));
    return d;
}

static void check_fourbar(rs_method meth)
{
    for (int c = 0; c <= RS_KLU_CANDIDATES; c++)
        run_fourbar(meth, c, &runs[c]);
    for (int c = 1; c <= RS_KLU_CANDIDATES; c++) {
        const double d = max_diff(&runs[0], &runs[c], 3);
        printf("fourbar %s: %s vs amd: max |dq| %.3g rad over %d steps, %ld fallbacks\n",
               meth == RS_RK4 ? "RK4" : "IMEX",
               c < RS_KLU_CANDIDATES ? rs_klu_ordering_name(c / 2, c % 2) : "auto", d, NSTEPS,
               runs[c].fallbacks);
        ck_assert_msg(d < 1e-11, "ordering %d differs by %g", c, d);
    }
    /* AUTO: a trial of every candidate, a choice among the least fragile,
     * and none of the fallbacks those fragile pivots cause */
    const rs_klu_info *ai = &runs[RS_KLU_CANDIDATES].info;
    ck_assert_int_eq(ai->chosen, 1);
    int fewest = 1 << 30;
    for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
        ck_assert(ai->cand_us[k] > 0);
        ck_assert(ai->cand_lu_nnz[k] >= ai->n);
        ck_assert(ai->cand_fragile[k] >= 0);
        if (ai->cand_fragile[k] < fewest)
            fewest = ai->cand_fragile[k];
    }
    ck_assert_int_eq(fewest, 0);
    ck_assert_int_eq(ai->cand_fragile[2 * ai->ordering + ai->btf], 0);
    ck_assert_int_eq(runs[RS_KLU_CANDIDATES].fallbacks, 0);
    /* the prediction holds: fragile candidates degrade, robust ones do not */
    int degraded = 0;
    for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
        if (ai->cand_fragile[k] == 0)
            ck_assert_msg(runs[k].fallbacks == 0, "%s: robust but %ld fallbacks",
                          rs_klu_ordering_name(k / 2, k % 2), runs[k].fallbacks);
        degraded += runs[k].fallbacks > 0;
    }
    ck_assert_msg(degraded > 0, "no fragile ordering degraded: the test lost its point");
    /* fixed orderings are reported as such */
    ck_assert_int_eq(runs[3].info.ordering, RS_KLU_COLAMD);
    ck_assert_int_eq(runs[3].info.btf, 1);
    ck_assert_int_eq(runs[3].info.chosen, 0);
}

START_TEST(test_fourbar_imex_all_orderings) { check_fourbar(RS_IMEX_EULER); }
END_TEST

START_TEST(test_fourbar_rk4_all_orderings) { check_fourbar(RS_RK4); }
END_TEST

/* The generated conical wheelset (contact: A = M + Δt C^K, 2 φ^n rows)
 * released 3 mm off centre at 20 m/s. */
START_TEST(test_wheelset_all_orderings)
{
    const char *dir = "generated/wheelset_cone";
    RS_REQUIRE_MODEL("wheelset_cone");
    char err[2000];
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_int_le(m->n_q, MAXQ);
    const int n = 600;
    for (int c = 0; c <= RS_KLU_CANDIDATES; c++) {
        rs_options o;
        rs_options_default(&o);
        o.contact = rs_wheel_rail_contact();
        o.klu_ordering = c < RS_KLU_CANDIDATES ? c / 2 : RS_KLU_AUTO;
        o.klu_btf = c < RS_KLU_CANDIDATES ? c % 2 : -1;
        rs_ws *ws;
        ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
        rs_var v;
        ck_assert_int_eq(rs_model_find(m, "r0", &v), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 20.0), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", 20.0 / rs_ws_p(ws)[v.index]), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
        ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
        for (int i = 0; i < n; i++) {
            ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
            memcpy(runs[c].q[i], rs_ws_q(ws), (size_t)m->n_q * sizeof(double));
        }
        runs[c].fallbacks = rs_ws_stats(ws)->refactor_fallbacks;
        rs_ws_klu_info(ws, &runs[c].info);
        rs_ws_free(&ws);
    }
    for (int c = 1; c <= RS_KLU_CANDIDATES; c++) {
        double d = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m->n_q; j++)
                d = fmax(d, fabs(runs[c].q[i][j] - runs[0].q[i][j]));
        printf("wheelset_cone: %s vs amd: max |dq| %.3g over %d steps (y(end) = %.6g m), "
               "%ld fallbacks\n",
               c < RS_KLU_CANDIDATES ? rs_klu_ordering_name(c / 2, c % 2) : "auto", d, n,
               runs[c].q[n - 1][1], runs[c].fallbacks);
        ck_assert_msg(d < 1e-10, "ordering %d differs by %g", c, d);
    }
    const rs_klu_info *ai = &runs[RS_KLU_CANDIDATES].info;
    printf("wheelset_cone: AUTO chose %s (n = %d, %d entries)\n",
           rs_klu_ordering_name(ai->ordering, ai->btf), ai->n, ai->nnz);
    ck_assert_int_eq(ai->chosen, 1);
    rs_unload(&h);
}
END_TEST

/* ---- the fallback on a constructed matrix --------------------------------- */

/* A 2×2 system with a full A block (no constraints). */
static const int Fp[] = {0, 2, 4}, Fi[] = {0, 1, 0, 1};

static void build2(rs_klu_system *K, rs_model *m)
{
    memset(m, 0, sizeof *m);
    m->n_q = 2;
    m->M_pattern = (rs_pattern){2, 2, Fp, Fi};
    m->phi_q_pattern = (rs_pattern){0, 2, Fp, NULL};
    char err[200];
    ck_assert_int_eq(rs_klu_system_build(K, m, NULL, &ALLOC, err, sizeof err), RS_OK);
}

/* A = [a b; c d] in column order (a, c, b, d); solves A x = r and checks
 * x against Cramer's rule. */
static void solve_check(rs_klu_system *K, rs_klu_factors *F, rs_stats *st, const double v[4])
{
    rs_klu_system_fill(K, v, NULL, 1.0);
    double b[2] = {1.0, 2.0};
    ck_assert_int_eq(rs_klu_solve(K, F, b, st), RS_OK);
    const double a = v[0], c = v[1], bb = v[2], d = v[3], det = a * d - bb * c;
    const double x0 = (1.0 * d - bb * 2.0) / det, x1 = (a * 2.0 - c * 1.0) / det;
    ck_assert_msg(fabs(b[0] - x0) <= 1e-14 * fabs(x0) && fabs(b[1] - x1) <= 1e-14 * fabs(x1),
                  "x = (%.17g, %.17g), Cramer (%.17g, %.17g)", b[0], b[1], x0, x1);
}

/* Factors [1 1; 0.5 1] (diagonal pivots), then refactors with `second`.
 * Returns the fallbacks counted. */
static long fallback_case(const double second[4], double rcond_min, double rcond_drop,
                          double rgrowth_drop, double *rgrowth_last)
{
    static const double first[4] = {1.0, 0.5, 1.0, 1.0};
    rs_model m;
    rs_klu_system K;
    build2(&K, &m);
    K.rgrowth_drop = rgrowth_drop;
    rs_klu_factors F = {0};
    rs_stats st;
    memset(&st, 0, sizeof st);
    int bad;
    rs_klu_system_fill(&K, first, NULL, 1.0);
    ck_assert_int_eq(rs_klu_factorize(&K, &F, rcond_min, rcond_drop, &st, &bad), RS_OK);
    ck_assert_int_eq(F.num->Pnum[0], 0); /* the diagonal pivot was taken */
    solve_check(&K, &F, &st, first);
    rs_klu_system_fill(&K, second, NULL, 1.0);
    ck_assert_int_eq(rs_klu_factorize(&K, &F, rcond_min, rcond_drop, &st, &bad), RS_OK);
    ck_assert_int_eq(st.refactors, 1);
    ck_assert_int_eq(st.factors, 1 + st.refactor_fallbacks);
    if (st.refactor_fallbacks)
        solve_check(&K, &F, &st, second); /* pivoted afresh: exact again */
    /* the reciprocal pivot growth of the factorization now held */
    ck_assert(klu_rgrowth(K.Ap, K.Ai, K.Ax, K.sym, F.num, &K.common));
    *rgrowth_last = K.common.rgrowth;
    rs_klu_factors_free(&K, &F);
    rs_klu_system_free(&K, &ALLOC);
    return st.refactor_fallbacks;
}

/* Internal invariants (RS_ASSERT) surface as RS_E_INTERNAL, never an exit:
 * an ordering out of range reaching the analysis, a solve without a
 * factorization. */
START_TEST(test_invariants_return_internal)
{
    rs_model m;
    rs_klu_system K;
    build2(&K, &m);
    ck_assert_int_eq(rs_klu_system_analyze(&K, RS_KLU_TREE + 1, 0), RS_E_INTERNAL);
    ck_assert_int_eq(rs_klu_system_analyze(&K, RS_KLU_AMD, 2), RS_E_INTERNAL);
    ck_assert_int_eq(rs_klu_system_analyze(&K, RS_KLU_AMD, 0), RS_OK);   /* K still usable */
    rs_klu_factors F = {0};
    rs_stats st;
    memset(&st, 0, sizeof st);
    double b[2] = {1.0, 2.0};
    ck_assert_int_eq(rs_klu_solve(&K, &F, b, &st), RS_E_INTERNAL);
    ck_assert(b[0] == 1.0 && b[1] == 2.0);
    rs_klu_system_free(&K, &ALLOC);
}
END_TEST

/* [1e-9 1; 1 1e-9]: with the old pivot order U = [1e-9 1; 0 −1e9]. */
static const double BAD[4] = {1e-9, 1.0, 1.0, 1e-9};

START_TEST(test_fallback_on_rcond)
{
    double rg;
    ck_assert_int_eq(fallback_case(BAD, 1e-14, 1e-3, 0.0, &rg), 1);
}
END_TEST

START_TEST(test_fallback_on_rgrowth)
{
    double rg;
    /* rcond checks off: only the pivot growth can see it */
    ck_assert_int_eq(fallback_case(BAD, 0.0, 0.0, 1e-3, &rg), 1);
    ck_assert_msg(rg > 0.1, "rgrowth after the fallback %g", rg);
    /* with no check at all the degraded refactorization is kept: its pivot
     * growth is what the check saw (1e-9 against 1 at the first factor) */
    ck_assert_int_eq(fallback_case(BAD, 0.0, 0.0, 0.0, &rg), 0);
    ck_assert_msg(rg < 1e-8, "rgrowth of the degraded refactor %g", rg);
}
END_TEST

START_TEST(test_no_fallback_on_mild_change)
{
    static const double mild[4] = {1.2, 0.4, 0.9, 1.1};
    double rg;
    ck_assert_int_eq(fallback_case(mild, 1e-14, 1e-3, 1e-3, &rg), 0);
    ck_assert(rg > 0.1);
}
END_TEST

/* The same through a workspace: the fallback counted in rs_stats of a run
 * whose pivots degrade (the four-bar with a fragile ordering). */
START_TEST(test_ws_counts_fallbacks)
{
    traj *t = &runs[0];
    run_fourbar(RS_IMEX_EULER, 2 * RS_KLU_COLAMD + 1, t);
    ck_assert(t->fallbacks > 0);
}
END_TEST

/* ---- options --------------------------------------------------------------- */

START_TEST(test_options)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    ck_assert_int_eq(o.klu_ordering, RS_KLU_AUTO);
    ck_assert_int_eq(o.klu_btf, -1);
    ck_assert_double_eq(o.rgrowth_drop, 1e-3);
    rs_ws *ws;
    char err[400];
    o.klu_ordering = RS_KLU_TREE + 1;
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "klu_ordering"));
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.klu_btf = 2;
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_E_ARG);
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.rgrowth_drop = -1;
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_E_ARG);
    /* a fixed ordering: analyzed at create, reported, never timed */
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.klu_ordering = RS_KLU_NATURAL;
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_OK);
    rs_klu_info ki;
    ck_assert_int_eq(rs_ws_klu_info(ws, &ki), RS_OK);
    ck_assert_int_eq(ki.ordering, RS_KLU_NATURAL);
    ck_assert_int_eq(ki.btf, 0);
    ck_assert_int_eq(ki.chosen, 0);
    ck_assert_int_eq(ki.n, 5);
    ck_assert(ki.cand_us[0] < 0);
    rs_ws_free(&ws);
    ck_assert_int_eq(rs_ws_klu_info(NULL, &ki), RS_E_ARG);
    ck_assert_str_eq(rs_klu_ordering_name(RS_KLU_AMD, 0), "amd");
    ck_assert_str_eq(rs_klu_ordering_name(RS_KLU_COLAMD, 1), "colamd_btf");
    ck_assert_str_eq(rs_klu_ordering_name(RS_KLU_NATURAL, 0), "natural");
    ck_assert_str_eq(rs_klu_ordering_name(RS_KLU_AUTO, 0), "auto");
    ck_assert_str_eq(rs_klu_ordering_name(7, 0), "?");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_klu");
    TCase *tc = tcase_create("orderings");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fourbar_imex_all_orderings);
    tcase_add_test(tc, test_fourbar_rk4_all_orderings);
    tcase_add_test(tc, test_wheelset_all_orderings);
    suite_add_tcase(s, tc);
    tc = tcase_create("fallback");
    tcase_add_test(tc, test_fallback_on_rcond);
    tcase_add_test(tc, test_fallback_on_rgrowth);
    tcase_add_test(tc, test_no_fallback_on_mild_change);
    tcase_add_test(tc, test_ws_counts_fallbacks);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_invariants_return_internal);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
