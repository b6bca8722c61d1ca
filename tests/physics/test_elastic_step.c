/*
 * test_elastic_step.c — the elastic contact's combined step function
 * RS_FN_STEP_ELASTIC (abi/rs_model.h, codegen/stepfn.hpp): one atom set for
 * M, δ^NK and the wheels' pose, velocity, velocity Jacobian and geometry
 * (RS_FN_WHEEL's outputs), so the rotations the three share are computed
 * once per step.
 *
 * With every model function wrapped by a counter, each step of the elastic
 * contact evaluates
 *   - with RS_FAST_STEP_FN: RS_FN_STEP_ELASTIC once and none of M, δ^NK and
 *     RS_FN_WHEEL;
 *   - with the bit cleared, or with a copy of the model that lacks the
 *     combined function: M, δ^NK and RS_FN_WHEEL once each;
 * and the three runs' trajectories (q, q̇ after every step) agree to
 * rounding (1e-12 of the largest value; the combined function evaluates the
 * same atoms, so in practice bit for bit), on the single S1002 wheelset
 * (generated/wheelset, running on its rails) and on the FEVE 3000
 * (generated/feve3000, its demo scenario with `contact elastic`), 200 steps
 * each.  The operation counts of generated/<model>/ops.txt and the step
 * times of the two paths are printed (information, not checked: the times
 * depend on the machine), and step_elastic must cost fewer operations than
 * M + delta_nk + wheel.  The descriptor check (rs_model_validate) refuses a
 * step_elastic of other lengths, or one without RS_FN_WHEEL.  The contact's
 * step-matrix term, which sums the wheels of one wheelset through one J,
 * equals the wheel-by-wheel sum (test_feve3000_step_matrix), and each
 * wheel's velocity Jacobian C6 gives back its wrench W: with Kalker's linear
 * law the forces are linear in the wheel's velocity at a fixed pose, so
 * W + C6 v6 is the Hertz forces alone (wrench_check).  The step adds that
 * term straight into the system matrix's values (elastic_add_k, at
 * positions bound at set-up): M plus the term, entry by entry
 * (system_matrix_check).  Each wheel's patch search has its bound tables
 * from the workspace's initialization, made once.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_clock.h"
#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "fn_counter.h"
#include "rs_test.h"
#include "rs_ws.h"
#include "rs_ws_impl.h" /* the system matrix the step factors */

#define NSTEPS 200
#define NWRAP RS_FN_COUNTER_MAX

/* Operations of function `name` in generated/<model>/ops.txt, -1 if absent. */
static long ops_of(const char *model, const char *name)
{
    char path[256], line[512], fn[128];
    snprintf(path, sizeof path, "generated/%s/ops.txt", model);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    long atoms, ops = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%127s %ld %ld", fn, &atoms, &ops) == 3 && !strcmp(fn, name))
            break;
        else
            ops = -1;
    fclose(f);
    return ops;
}

/* One run's trajectory: q and q̇ after each step, and what the steps called. */
typedef struct run {
    double *q, *qd;
    long calls[NWRAP];
    double us_per_step;
} run;

/* How a run is set up: the model, its options and its initial state. */
typedef struct setup {
    const char *model;
    rs_loaded *h;
    rs_scenario *scn; /* the FEVE's scenario; NULL: the wheelset's own state */
} setup;

/* A workspace of m (the loaded model or a copy of it: a scenario binds to
 * the one it runs, *b, which must outlive the workspace). */
static rs_ws *make(const setup *su, const rs_model *m, unsigned fast, rs_binding **b)
{
    char err[2000];
    rs_options o;
    rs_options_default(&o);
    *b = NULL;
    if (su->scn) {
        ck_assert_msg(rs_scenario_bind(su->scn, m, b, err, sizeof err) == RS_OK, "%s", err);
        ck_assert_int_eq(rs_binding_contact_mode(*b), RS_CONTACT_MODE_ELASTIC);
        rs_binding_options(*b, &o);
    }
    o.contact = rs_elastic_contact();
    o.fast = fast;
    o.klu_ordering = RS_KLU_AMD; /* the same pivots in every run */
    if (!su->scn) {
        o.dt = 1e-4;
        o.contact_damp = 1e5;
    }
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    if (*b) {
        ck_assert_msg(rs_binding_apply(*b, ws, err, sizeof err) == RS_OK, "%s", err);
    } else {
        rs_var v;
        ck_assert_int_eq(rs_model_find(m, "r0", &v), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 20.0), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", 20.0 / rs_ws_p(ws)[v.index]), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    }
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

/* NSTEPS steps of model m (counted: every function wrapped) with `fast`. */
static void simulate(const setup *su, const rs_model *m, unsigned fast, run *r)
{
    static rs_model counted;
    counted = *m;
    rs_fn_counter_wrap(&counted);
    rs_binding *b;
    rs_ws *ws = make(su, &counted, fast, &b);
    const int nq = m->n_q;
    r->q = malloc((size_t)NSTEPS * (size_t)nq * sizeof(double));
    r->qd = malloc((size_t)NSTEPS * (size_t)nq * sizeof(double));
    ck_assert(r->q && r->qd);
    memset(r->calls, 0, sizeof r->calls);
    for (int n = 0; n < NSTEPS; n++) {
        memset(rs_fn_calls, 0, sizeof rs_fn_calls);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s step %d: %s", su->model, n, rs_ws_error(ws));
        for (int i = 0; i < NWRAP; i++)
            r->calls[i] += rs_fn_calls[i];
        /* per step: the start's functions once (one atom set or three) */
        if (rs_fn_calls[RS_FN_STEP_ELASTIC]) {
            ck_assert_int_eq(rs_fn_calls[RS_FN_STEP_ELASTIC], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_M] + rs_fn_calls[RS_FN_DELTA_NK] + rs_fn_calls[RS_FN_WHEEL], 0);
        } else {
            ck_assert_int_eq(rs_fn_calls[RS_FN_M], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_DELTA_NK], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_WHEEL], 1);
        }
        /* none of the constraint contact's functions */
        for (int f = RS_FN_PHI; f <= RS_FN_GAMMA; f++)
            ck_assert_int_eq(rs_fn_calls[f], 0);
        ck_assert_int_eq(rs_fn_calls[RS_FN_STEP] + rs_fn_calls[RS_FN_PROJ] + rs_fn_calls[RS_FN_NEWTON] +
                             rs_fn_calls[RS_FN_STEP_CACHED] + rs_fn_calls[RS_FN_CREEP],
                         0);
        memcpy(r->q + (size_t)n * nq, rs_ws_q(ws), (size_t)nq * sizeof(double));
        memcpy(r->qd + (size_t)n * nq, rs_ws_qd(ws), (size_t)nq * sizeof(double));
    }
    rs_ws_free(&ws);
    rs_binding_free(&b);
    /* the step time, uncounted (the wrappers cost little, but still) */
    ws = make(su, m, fast, &b);
    const double t0 = rs_now_s();
    for (int n = 0; n < NSTEPS; n++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    r->us_per_step = (rs_now_s() - t0) / NSTEPS * 1e6;
    rs_ws_free(&ws);
    rs_binding_free(&b);
}

/* max over steps and coordinates of |a − b|, over the largest |a|. */
static double rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0, s = 1e-300;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(a[i]));
    }
    return d / s;
}

static void compare(const setup *su)
{
    const rs_model *m = rs_loaded_model(su->h);
    ck_assert_int_le(RS_FN_COUNT, NWRAP);
    ck_assert_msg(m->fn[RS_FN_STEP_ELASTIC].fn != NULL, "%s has no step_elastic", su->model);
    run comb, sep, none;
    simulate(su, m, RS_FAST_ALL, &comb);
    simulate(su, m, RS_FAST_ALL & ~RS_FAST_STEP_FN, &sep);
    /* a model without the combined function (compiled before it) */
    rs_model old = *m;
    old.fn[RS_FN_STEP_ELASTIC] = (rs_func){0};
    simulate(su, &old, RS_FAST_ALL, &none);
    ck_assert_int_eq(comb.calls[RS_FN_STEP_ELASTIC], NSTEPS);
    ck_assert_int_eq(comb.calls[RS_FN_WHEEL], 0);
    ck_assert_int_eq(sep.calls[RS_FN_STEP_ELASTIC] + none.calls[RS_FN_STEP_ELASTIC], 0);
    ck_assert_int_eq(sep.calls[RS_FN_WHEEL], NSTEPS);
    ck_assert_int_eq(none.calls[RS_FN_WHEEL], NSTEPS);
    const size_t n = (size_t)NSTEPS * (size_t)m->n_q;
    const double dq = rel_diff(sep.q, comb.q, n), dqd = rel_diff(sep.qd, comb.qd, n);
    const double dq2 = rel_diff(sep.q, none.q, n), dqd2 = rel_diff(sep.qd, none.qd, n);
    const long o_m = ops_of(su->model, "M"), o_d = ops_of(su->model, "delta_nk"),
               o_w = ops_of(su->model, "wheel"), o_s = ops_of(su->model, "step_elastic");
    printf("%s elastic, %d steps: combined vs separate: max |dq| %.3g, |dqd| %.3g (relative); "
           "without the function: %.3g, %.3g\n",
           su->model, NSTEPS, dq, dqd, dq2, dqd2);
    printf("%s operations: step_elastic %ld; M %ld + delta_nk %ld + wheel %ld = %ld (%.1f %% fewer)\n",
           su->model, o_s, o_m, o_d, o_w, o_m + o_d + o_w, 100.0 * (1 - (double)o_s / (double)(o_m + o_d + o_w)));
    printf("%s step time: combined %.1f us, separate %.1f us (tcc, this machine)\n", su->model,
           comb.us_per_step, sep.us_per_step);
    ck_assert_msg(dq <= 1e-12 && dqd <= 1e-12, "combined and separate paths differ: %g %g", dq, dqd);
    ck_assert_msg(dq2 <= 1e-12 && dqd2 <= 1e-12, "a model without step_elastic differs: %g %g", dq2, dqd2);
    ck_assert_msg(o_s > 0 && o_s < o_m + o_d + o_w, "step_elastic %ld operations, separate %ld", o_s,
                  o_m + o_d + o_w);
    /* the run moved: the comparison is not of a state at rest */
    ck_assert_msg(rel_diff(sep.q, sep.q + (size_t)(NSTEPS - 1) * (size_t)m->n_q, (size_t)m->n_q) > 0,
                  "%s did not move", su->model);
    free(comb.q), free(comb.qd), free(sep.q), free(sep.qd), free(none.q), free(none.qd);
}

START_TEST(test_wheelset_combined_step)
{
    RS_REQUIRE_MODEL("wheelset");
    char err[2000];
    setup su = {"wheelset", rs_load("generated/wheelset", RS_LOAD_TCC, err, sizeof err), NULL};
    ck_assert_msg(su.h != NULL, "%s", err);
    compare(&su);
    rs_unload(&su.h);
}
END_TEST

START_TEST(test_feve3000_combined_step)
{
    RS_REQUIRE_MODEL("feve3000");
    char err[2000];
    setup su = {"feve3000", rs_load("generated/feve3000", RS_LOAD_TCC, err, sizeof err), NULL};
    ck_assert_msg(su.h != NULL, "%s", err);
    /* as `railsym run` reads them: the model's default.scn, the demo over
     * it, and the contact mode over both */
    rs_scenario s, demo, el;
    ck_assert_msg(rs_scenario_read("generated/feve3000/default.scn", &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_read("vehicles/feve3000/demo.scn", &demo, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_parse("contact elastic\n", 16, "elastic.scn", &el, err, sizeof err) == RS_OK, "%s",
                  err);
    ck_assert_int_eq(rs_scenario_overlay(&s, &demo), RS_OK);
    ck_assert_int_eq(rs_scenario_overlay(&s, &el), RS_OK);
    su.scn = &s;
    compare(&su);
    rs_scenario_free(&s);
    rs_scenario_free(&demo);
    rs_scenario_free(&el);
    rs_unload(&su.h);
}
END_TEST

/* The contact's step-matrix term as the step assembles it (the wheels of
 * one wheelset summed through the first one's J, their A moved along the
 * axle: rs_elastic_step_matrix) against the plain sum over the wheels of
 * J_iᵀ (h C6_i + θ h²/2 K6_i) J_i from each wheel's own J, C6, K6
 * (rs_elastic_wheel_get), on the FEVE 3000's demo run with elastic contact
 * after 50 and 400 steps: within 1e-12 of the largest entry.  A different
 * lever (the shift's sign, a transposed D) misses by the lever's moment,
 * order 1e-1 of it. */
static void step_matrix_check(rs_ws *ws, const rs_model *m)
{
    const int nq = m->n_q;
    const double h = rs_ws_options(ws)->dt, th = rs_ws_options(ws)->contact_theta;
    double *K = calloc((size_t)nq * (size_t)nq, sizeof(double));
    double *R = calloc((size_t)nq * (size_t)nq, sizeof(double));
    ck_assert(K && R);
    rs_elastic_step_matrix(ws, h, K);
    for (int i = 0; i < m->n_contact; i++) {
        rs_elastic_wheel_state w;
        rs_elastic_wheel_get(ws, i, &w);
        double A[36];
        for (int k = 0; k < 36; k++)
            A[k] = h * w.C6[k] + 0.5 * th * h * h * w.K6[k];
        for (int a = 0; a < w.m; a++)
            for (int b = 0; b < w.m; b++) {
                double sum = 0; /* (Jᵀ A J)(a, b) */
                for (int r = 0; r < 6; r++)
                    for (int k = 0; k < 6; k++)
                        sum += w.J[6 * a + r] * A[6 * r + k] * w.J[6 * b + k];
                R[(size_t)w.cols[b] * (size_t)nq + (size_t)w.cols[a]] += sum;
            }
    }
    double big = 0, diff = 0;
    for (size_t k = 0; k < (size_t)nq * (size_t)nq; k++) {
        big = fmax(big, fabs(R[k]));
        diff = fmax(diff, fabs(K[k] - R[k]));
    }
    printf("feve3000 elastic step matrix: max |K - sum over wheels| %.3g of %.3g\n", diff, big);
    ck_assert(big > 0);
    ck_assert_msg(diff <= 1e-12 * big, "step matrix %g off the wheel-by-wheel sum (largest %g)", diff, big);
    free(K);
    free(R);
}

/* The system matrix as the step assembles it, A = M + Σ Jᵀ (h C6 + θ h²/2
 * K6) J, the contact term added straight into A's values at positions
 * bound at set-up (elastic_add_k): refilled from M and the term added the
 * step's way, every entry of A against M's value plus the dense term of
 * rs_elastic_step_matrix at its (row, column), within 1e-12 of the term's
 * largest entry (plus M's rounding), and every non-zero of the term on one
 * of A's positions.  A position bound wrong (the extra pattern's index
 * taken for A's, a transposed pair) misses by a whole entry. */
static void system_matrix_check(rs_ws *ws, const rs_model *m)
{
    const int nq = m->n_q;
    const double h = rs_ws_options(ws)->dt;
    rs_klu_system *S = &ws->sys;
    double *K = calloc((size_t)nq * (size_t)nq, sizeof(double));
    double *want = calloc((size_t)S->nnz, sizeof(double));
    char *seen = calloc((size_t)nq * (size_t)nq, 1);
    ck_assert(K && want && seen);
    rs_elastic_step_matrix(ws, h, K);
    rs_klu_system_fill(S, ws->Mv, ws->Gv, h);
    for (int k = 0; k < S->nnz_M; k++)
        want[S->map_M[k]] = ws->Mv[k];
    ws->cops->add_ck(ws, h);
    double big = 0, diff = 0;
    int n_term = 0;
    for (int j = 0; j < nq; j++)
        for (int p = S->Ap[j]; p < S->Ap[j + 1]; p++) {
            const int r = S->Ai[p];
            ck_assert_int_lt(r, nq); /* no constraints in the elastic view */
            const size_t k = (size_t)j * (size_t)nq + (size_t)r;
            const double t = K[k], wv = want[p] + t;
            seen[k] = 1;
            n_term += t != 0;
            big = fmax(big, fabs(t));
            diff = fmax(diff, fabs(S->Ax[p] - wv) - 4e-16 * fabs(wv));
        }
    for (size_t k = 0; k < (size_t)nq * (size_t)nq; k++)
        ck_assert_msg(K[k] == 0 || seen[k], "the contact term's entry (%d, %d) = %g has no position in A",
                      (int)(k % (size_t)nq), (int)(k / (size_t)nq), K[k]);
    printf("feve3000 elastic system matrix: max |A - (M + term)| %.3g of %.3g (%d term entries)\n", diff,
           big, n_term);
    ck_assert(big > 0 && n_term > 0);
    ck_assert_msg(diff <= 1e-12 * big, "system matrix %g off M + the contact term (largest %g)", diff, big);
    free(K);
    free(want);
    free(seen);
}

/* The wrench and its velocity Jacobian against each other: with Kalker's
 * linear law (the demo's; its saturation factor is held in C6 as in W) the
 * patch forces are linear in the wheel's velocity screw v6 = J q̇ at a
 * fixed pose (V_eff held), so W = Σ kw_i dn_i g_n,i − C6 v6 exactly over
 * the patches' strip nodes (the default normal law; the point law's
 * Σ_patches c_H p^{3/2} g_n), g_n = [n; r × n]: the normal damping and
 * every creep term of C6 give back W's own.  Within 1e-9 of |W|'s largest entry (a transposed creep matrix,
 * its spin coupling's sign flipped, misses by far more). */
static void wrench_check(rs_ws *ws, const rs_model *m, int point)
{
    const int nq = m->n_q;
    double *q = malloc((size_t)nq * sizeof(double)), *qd = malloc((size_t)nq * sizeof(double));
    ck_assert(q && qd);
    memcpy(q, rs_ws_q(ws), (size_t)nq * sizeof(double));
    memcpy(qd, rs_ws_qd(ws), (size_t)nq * sizeof(double));
    ck_assert_int_eq(rs_elastic_eval(ws, rs_ws_time(ws), q, qd), RS_OK);
    double worst = 0, big = 0;
    int creeping = 0, strips = 0;
    for (int i = 0; i < m->n_contact; i++) {
        rs_elastic_wheel_state w;
        rs_elastic_wheel_get(ws, i, &w);
        double v6[6] = {0}, R[6];
        for (int l = 0; l < w.m; l++)
            for (int k = 0; k < 6; k++)
                v6[k] += w.J[6 * l + k] * qd[w.cols[l]];
        for (int r = 0; r < 6; r++) {
            R[r] = w.W[r];
            for (int k = 0; k < 6; k++)
                R[r] += w.C6[6 * r + k] * v6[k];
        }
        for (int j = 0; j < rs_elastic_patches(ws, i); j++) {
            const rs_elastic_patch *pp = rs_elastic_patch_get(ws, i, j);
            if (!(pp->N > 0))
                continue;
            creeping += pp->f[0] != 0 || pp->f[1] != 0;
            strips += pp->g.nn > 0;
            /* the point law: one Hertz force at the patch's point; the
             * strips (the default): each node's kw dn along its own normal
             * at its own point */
            const int nodes = pp->g.nn > 0 ? pp->g.nn : 1;
            for (int i = 0; i < nodes; i++) {
                const double Ne = pp->g.nn > 0 ? pp->s[i].kw * pp->s[i].dn
                                               : pp->c_hertz * pp->g.pen * sqrt(pp->g.pen);
                const double *n = pp->g.nn > 0 ? pp->s[i].n : pp->n, *r = pp->g.nn > 0 ? pp->s[i].r : pp->r;
                const double gn[6] = {n[0], n[1], n[2], r[1] * n[2] - r[2] * n[1], r[2] * n[0] - r[0] * n[2],
                                      r[0] * n[1] - r[1] * n[0]};
                for (int k = 0; k < 6; k++)
                    R[k] -= Ne * gn[k];
            }
        }
        for (int k = 0; k < 6; k++) {
            worst = fmax(worst, fabs(R[k]));
            big = fmax(big, fabs(w.W[k]));
        }
    }
    printf("feve3000 elastic wrench: max |W + C6 v6 - sum of the elastic forces' screws| %.3g of %.3g (%d patches "
           "creeping, %d by strips)\n", worst, big, creeping, strips);
    ck_assert(creeping > 0 && big > 0 && strips == (point ? 0 : creeping));
    ck_assert_msg(worst <= 1e-9 * big, "W + C6 v6 off the Hertz forces by %g (largest %g)", worst, big);
    free(q);
    free(qd);
}

START_TEST(test_feve3000_step_matrix)
{
    RS_REQUIRE_MODEL("feve3000");
    char err[2000];
    setup su = {"feve3000", rs_load("generated/feve3000", RS_LOAD_TCC, err, sizeof err), NULL};
    ck_assert_msg(su.h != NULL, "%s", err);
    /* the default normal law (strips), then the point law */
    for (int point = 0; point < 2; point++) {
        rs_scenario s, demo, el;
        const char *text = point ? "contact elastic\nnormal point\n" : "contact elastic\n";
        ck_assert_msg(rs_scenario_read("generated/feve3000/default.scn", &s, err, sizeof err) == RS_OK, "%s", err);
        ck_assert_msg(rs_scenario_read("vehicles/feve3000/demo.scn", &demo, err, sizeof err) == RS_OK, "%s", err);
        ck_assert_msg(rs_scenario_parse(text, strlen(text), "elastic.scn", &el, err, sizeof err) == RS_OK, "%s",
                      err);
        ck_assert_int_eq(rs_scenario_overlay(&s, &demo), RS_OK);
        ck_assert_int_eq(rs_scenario_overlay(&s, &el), RS_OK);
        su.scn = &s;
        const rs_model *m = rs_loaded_model(su.h);
        rs_binding *b;
        rs_ws *ws = make(&su, m, RS_FAST_ALL, &b);
        /* the patch search's bound tables are made at initialization
         * (rs_patch_hint_prepare), once, not in the first step */
        for (int i = 0; i < m->n_contact; i++) {
            rs_elastic_wheel_state w;
            rs_elastic_wheel_get(ws, i, &w);
            ck_assert_int_eq(w.hint->b.fits, 1);
        }
        for (int n = 0; n < 400; n++) {
            ck_assert_msg(rs_step(ws) == RS_OK, "step %d: %s", n, rs_ws_error(ws));
            if (n == 49 || n == 399) {
                for (int i = 0; i < m->n_contact; i++) {
                    rs_elastic_wheel_state w;
                    rs_elastic_wheel_get(ws, i, &w);
                    ck_assert_int_eq(w.hint->b.fits, 1);
                }
                step_matrix_check(ws, m);
                system_matrix_check(ws, m);
                wrench_check(ws, m, point);
            }
        }
        rs_ws_free(&ws);
        rs_binding_free(&b);
        rs_scenario_free(&s);
        rs_scenario_free(&demo);
        rs_scenario_free(&el);
    }
    rs_unload(&su.h);
}
END_TEST

/* The descriptor check refuses a step_elastic whose lengths are not the
 * model's, and one without the wheel function whose pattern it uses. */
START_TEST(test_validate_step_elastic)
{
    RS_REQUIRE_MODEL("wheelset");
    char err[2000];
    rs_loaded *h = rs_load("generated/wheelset", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_msg(rs_model_validate(m, err, sizeof err) == RS_OK, "%s", err);
    const rs_func *f = &m->fn[RS_FN_STEP_ELASTIC];
    ck_assert_int_eq(f->n_out, 6);
    const int want[6] = {m->M_pattern.colptr[m->n_q], m->n_q, 12 * m->n_contact, 6 * m->n_contact,
                         m->wheel_jac_pattern.colptr[m->n_q], 2 * m->n_contact};
    for (int k = 0; k < 6; k++)
        ck_assert_int_eq(f->out_len[k], want[k]);
    for (int k = 0; k < 6; k++) {
        int len[6];
        memcpy(len, want, sizeof len);
        len[k]++;
        rs_model bad = *m;
        bad.fn[RS_FN_STEP_ELASTIC].out_len = len;
        ck_assert_int_ne(rs_model_validate(&bad, err, sizeof err), RS_OK);
        ck_assert_msg(strstr(err, "step_elastic") != NULL, "%s", err);
    }
    rs_model bad = *m;
    bad.fn[RS_FN_WHEEL] = (rs_func){0};
    ck_assert_int_ne(rs_model_validate(&bad, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, "step_elastic without the wheel function") != NULL, "%s", err);
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic_step");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_wheelset_combined_step);
    tcase_add_test(tc, test_feve3000_combined_step);
    tcase_add_test(tc, test_feve3000_step_matrix);
    tcase_add_test(tc, test_validate_step_elastic);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
