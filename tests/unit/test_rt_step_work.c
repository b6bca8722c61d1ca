/*
 * test_rt_step_work.c — the IMEX step with contact does no repeated work in
 * its projections: with every model function of the generated conical
 * wheelset wrapped by a counter, each step evaluates
 *   φ^d   1 + (contact Newton iterations) times, plus one more pass only
 *         when the position projection moved q (the pass after the
 *         projection is skipped when q is where the contact Newton
 *         converged);
 *   φ^d_s once per contact Newton iteration and once for ṡ;
 *   φ_q   once for the dynamics, once per position-projection iteration,
 *         once for the velocity projection;
 * and refactors the KLU matrices (or solves the projections' dense normal
 * equations) 1 + (position iterations) + (velocity projections) times —
 * and, with the step cache, every step but the first starts with
 * RS_FN_STEP_CACHED —
 * counted here step by step, against rs_stats.  The
 * counted run's trajectory is the plain run's, bit for bit.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_runtime.h"
#include "fn_counter.h"
#include "rs_test.h"

#define NWRAP RS_FN_COUNTER_MAX

#define NSTEPS 400

static rs_ws *start(const rs_model *m, double proj_tol, unsigned fast)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.proj_tol = proj_tol;
    o.fast = fast;
    o.klu_ordering = RS_KLU_AMD; /* the same pivots in both runs */
    rs_ws *ws;
    char err[512];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    rs_var v;
    ck_assert_int_eq(rs_model_find(m, "r0", &v), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 20.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", 20.0 / rs_ws_p(ws)[v.index]), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

/* proj_tol 1e-6 (the default: the position projection rarely iterates) and
 * 1e-13 (it iterates often), so both paths of the step are counted; each
 * with the separate functions (fast = 0) and with the combined ones
 * (RS_FN_STEP at the start, RS_FN_NEWTON for the first contact-Newton pass,
 * RS_FN_PROJ for every later pass, whose outputs the projections and the ṡ
 * equation then reuse). */
static const double tols[2] = {1e-6, 1e-13};

START_TEST(test_wheelset_step_work)
{
    const double tol = tols[_i % 2];
    const unsigned fast = _i < 2 ? 0u : RS_FAST_ALL;
    const char *dir = "generated/wheelset_cone";
    RS_REQUIRE_MODEL("wheelset_cone");
    char err[2000];
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m0 = rs_loaded_model(h);
    static rs_model counted;
    counted = *m0;
    rs_fn_counter_wrap(&counted);

    ck_assert(fast == 0 || m0->fn[RS_FN_STEP].fn != NULL);
    rs_ws *plain = start(m0, tol, fast), *ws = start(&counted, tol, fast);
    const rs_stats *s = rs_ws_stats(ws);
    long moved = 0, skipped = 0, newton = 0;
    for (int n = 0; n < NSTEPS; n++) {
        const long c_iters = s->contact_iters, p_iters = s->proj_iters,
                   vproj = s->vel_projections, refac = s->refactors, fact = s->factors,
                   dense = s->dense_solves;
        memset(rs_fn_calls, 0, sizeof rs_fn_calls);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        ck_assert_msg(rs_step(plain) == RS_OK, "%s", rs_ws_error(plain));
        const long ci = s->contact_iters - c_iters, pi = s->proj_iters - p_iters;
        const long passes = pi > 0 ? 2 : 1; /* contact-Newton passes in the step */
        if (!fast) {
            ck_assert_int_eq(rs_fn_calls[RS_FN_PHI_D], passes + ci);
            ck_assert_int_eq(rs_fn_calls[RS_FN_PHI_D_S], ci + 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_PHI_Q], 2 + pi);
            ck_assert_int_eq(rs_fn_calls[RS_FN_PHI], 1 + pi);
            ck_assert_int_eq(rs_fn_calls[RS_FN_M], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_CREEP], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_STEP] + rs_fn_calls[RS_FN_PROJ] + rs_fn_calls[RS_FN_NEWTON], 0);
        } else {
            ck_assert_int_ge(ci, 1); /* the predicted s always needs an iteration here */
            /* every step starts where the previous step's proj wrote the
             * step cache (RS_FAST_STEP_CACHE), but the first, which follows
             * rs_ws_init's separate functions */
            ck_assert_int_eq(rs_fn_calls[RS_FN_STEP] + rs_fn_calls[RS_FN_STEP_CACHED], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_STEP_CACHED], n > 0);
            ck_assert_int_eq(rs_fn_calls[RS_FN_NEWTON], 1);
            ck_assert_int_eq(rs_fn_calls[RS_FN_PROJ], ci + passes - 1);
            /* after a position-projection iteration q has moved: φ, φ_q again */
            ck_assert_int_eq(rs_fn_calls[RS_FN_PHI], pi);
            ck_assert_int_eq(rs_fn_calls[RS_FN_PHI_Q], pi);
            for (int f = 0; f < RS_FN_STEP; f++)
                if (f != RS_FN_PHI && f != RS_FN_PHI_Q && f != RS_FN_BETA)
                    ck_assert_msg(rs_fn_calls[f] == 0, "function %d called %ld times", f, rs_fn_calls[f]);
        }
        ck_assert_int_eq((s->refactors - refac) + (s->factors - fact) + (s->dense_solves - dense),
                         1 + pi + (s->vel_projections - vproj));
        moved += pi > 0;
        skipped += pi == 0;
        newton += ci;
        /* counting changes nothing */
        ck_assert(memcmp(rs_ws_q(ws), rs_ws_q(plain), (size_t)m0->n_q * sizeof(double)) == 0);
        ck_assert(memcmp(rs_ws_s(ws), rs_ws_s(plain), (size_t)m0->n_s * sizeof(double)) == 0);
    }
    printf("wheelset_cone, proj_tol %g, fast %u: %d steps, %ld with a position-projection iteration, %ld without "
           "(second phi_d pass skipped), %ld contact Newton iterations\n",
           tol, fast, NSTEPS, moved, skipped, newton);
    ck_assert(skipped > 0); /* the case the saving is about does occur */
    if (_i % 2 == 1)
        ck_assert(moved > 0); /* and so does the other */
    rs_ws_free(&ws);
    rs_ws_free(&plain);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_step_work");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_wheelset_step_work, 0, 4);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
