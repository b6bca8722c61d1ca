/*
 * test_perf_equiv.c — the speed-ups of issue 9 change no result: the FEVE
 * 3000's demo run (vehicles/feve3000/demo.scn over generated/feve3000/
 * default.scn, 1 ms steps) over its first 2 s, with every optimisation on,
 * gives the body-centre path (x, y, z of the carbody) and the creep forces
 * (f_x, f_y, m_z of all 8 contacts) of the same run with them off, within
 * 1e-9 relative (per signal: max over the run of |a − b| over max |b|).
 *
 * The reference is computed independently of every optimisation: the model
 * compiled without constant hoisting (`railsym compile --no-hoist`, into a
 * temporary folder), the separate generated functions (rs_options.fast = 0:
 * no combined step/proj/newton functions, KLU projections, the original
 * C^K_qq kernel) and the COLAMD ordering AUTO chose before RS_KLU_AMD_SCHUR.
 * Against it: each optimisation alone (hoisting; the combined functions;
 * the dense projections; the C^K_qq kernel; the Schur ordering; the
 * fixed-order LU, in COLAMD's order and in the Schur ordering's; the step
 * cache with the combined functions) and all of them together, hoisted or
 * not; the step cache must also leave the run bit-identical.  The runs also take the same Newton
 * iterations.  Both models are compiled in memory by libtcc.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_contact.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_ws.h"
#include "rs_test.h"

#define DIR "generated/feve3000"
#define NSTEPS 2000 /* 2 s */
#define EVERY 10    /* compared every 10 ms */
#define NSIG (3 + 3 * 8)
#define NREC (NSTEPS / EVERY)

typedef struct run {
    double sig[NREC][NSIG];
    long contact_iters, proj_iters;
    long refactors, lu_fixed_refactors, fallbacks;
    long cache_hits;
} run;

static char nohoist_dir[64];

static void run_demo(const rs_model *m, unsigned fast, int ordering, run *r)
{
    char err[2000];
    rs_scenario base, top;
    rs_scenario_init(&base);
    rs_scenario_init(&top);
    rs_binding *b = NULL;
    ck_assert_msg(rs_scenario_read(DIR "/default.scn", &base, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_read("vehicles/feve3000/demo.scn", &top, err, sizeof err) == RS_OK,
                  "%s", err);
    ck_assert_int_eq(rs_scenario_overlay(&base, &top), RS_OK);
    ck_assert_msg(rs_scenario_bind(&base, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    o.fast = fast;
    o.klu_ordering = ordering;
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    /* the steps' refactorizations: rs_ws_init's initial projection, to
     * round-off, refactors before the fixed-order LU exists */
    const long refactors0 = rs_ws_stats(ws)->refactors, fixed0 = rs_ws_stats(ws)->lu_fixed_refactors;
    int iq[3];
    const char *qn[3] = {"x", "y", "z"};
    for (int k = 0; k < 3; k++) {
        rs_var v;
        ck_assert_int_eq(rs_model_find(m, qn[k], &v), RS_OK);
        iq[k] = v.index;
    }
    ck_assert_int_eq(m->n_contact, 8);
    for (int n = 1; n <= NSTEPS; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        if (n % EVERY)
            continue;
        double *s = r->sig[n / EVERY - 1];
        for (int k = 0; k < 3; k++)
            s[k] = rs_ws_q(ws)[iq[k]];
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++)
                s[3 + 3 * i + k] = rs_ws_u(ws)[m->contacts[i].force_slot[k]];
    }
    r->contact_iters = rs_ws_stats(ws)->contact_iters;
    r->proj_iters = rs_ws_stats(ws)->proj_iters;
    r->refactors = rs_ws_stats(ws)->refactors - refactors0;
    r->lu_fixed_refactors = rs_ws_stats(ws)->lu_fixed_refactors - fixed0;
    r->fallbacks = rs_ws_stats(ws)->refactor_fallbacks;
    r->cache_hits = rs_ws_stats(ws)->step_cache_hits;
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
}

/* Worst relative difference over the signals; prints it with `what`. */
static double compare(const run *a, const run *ref, const char *what)
{
    double worst = 0;
    int at = 0;
    for (int k = 0; k < NSIG; k++) {
        double d = 0, mag = 0;
        for (int t = 0; t < NREC; t++) {
            d = fmax(d, fabs(a->sig[t][k] - ref->sig[t][k]));
            mag = fmax(mag, fabs(ref->sig[t][k]));
        }
        ck_assert(mag > 0); /* every signal moves: a creep force of 0 would test nothing */
        if (d / mag > worst) {
            worst = d / mag;
            at = k;
        }
    }
    printf("feve3000 2 s, %-40s vs reference: worst relative difference %.2e (signal %d)\n", what,
           worst, at);
    return worst;
}

START_TEST(optimisations_change_no_result)
{
    char err[2000];
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_load_options lo;
    rs_load_options_default(&lo);
    lo.model_name = "feve3000";
    rs_loaded *hn = rs_load_ex(nohoist_dir, RS_LOAD_TCC, &lo, err, sizeof err);
    ck_assert_msg(hn != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h), *mn = rs_loaded_model(hn);
    ck_assert_int_gt(m->n_const, 0);   /* hoisted */
    ck_assert_int_eq(mn->n_const, 0);  /* not */
    ck_assert_ptr_nonnull(m->fn[RS_FN_STEP].fn);
    ck_assert_ptr_nonnull(m->fn[RS_FN_PROJ].fn);
    ck_assert_ptr_nonnull(m->fn[RS_FN_NEWTON].fn);

    static run ref, r;
    run_demo(mn, 0, RS_KLU_COLAMD, &ref);
    const struct {
        int hoisted;
        unsigned fast;
        int ordering;
        const char *what;
    } cases[] = {
        {1, 0, RS_KLU_COLAMD, "hoisting alone"},
        {0, RS_FAST_STEP_FN, RS_KLU_COLAMD, "combined functions alone"},
        {0, RS_FAST_DENSE_PROJ, RS_KLU_COLAMD, "dense projections alone"},
        {0, RS_FAST_CK, RS_KLU_COLAMD, "C^K_qq kernel alone"},
        {0, 0, RS_KLU_AMD_SCHUR, "Schur ordering alone"},
        {0, RS_FAST_LU_FIXED, RS_KLU_COLAMD, "fixed-order LU alone"},
        {0, RS_FAST_LU_FIXED, RS_KLU_AMD_SCHUR, "fixed-order LU, Schur ordering"},
        {1, RS_FAST_STEP_FN | RS_FAST_STEP_CACHE, RS_KLU_COLAMD, "step cache (+ combined functions)"},
        {0, RS_FAST_ALL, RS_KLU_AUTO, "all but hoisting"},
        {1, RS_FAST_ALL, RS_KLU_AUTO, "all (the default)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        run_demo(cases[c].hoisted ? m : mn, cases[c].fast, cases[c].ordering, &r);
        ck_assert_msg(compare(&r, &ref, cases[c].what) <= 1e-9, "%s changes the run",
                      cases[c].what);
        ck_assert_int_eq(r.contact_iters, ref.contact_iters);
        ck_assert_int_eq(r.proj_iters, ref.proj_iters);
        /* the fixed-order LU did every refactorization, with no fallback */
        if (cases[c].fast & RS_FAST_LU_FIXED) {
            ck_assert_int_gt(r.refactors, 0);
            ck_assert_int_eq(r.lu_fixed_refactors, r.refactors);
            ck_assert_int_eq(r.fallbacks, 0);
        } else {
            ck_assert_int_eq(r.lu_fixed_refactors, 0);
        }
        /* the step cache served every step but the first (init's proj is
         * not the combined one) and the few whose q projection moved q */
        if ((cases[c].fast & (RS_FAST_STEP_FN | RS_FAST_STEP_CACHE)) ==
            (RS_FAST_STEP_FN | RS_FAST_STEP_CACHE))
            ck_assert_int_gt(r.cache_hits, NSTEPS / 2);
        else
            ck_assert_int_eq(r.cache_hits, 0);
    }
    /* the cache changes no bit: the same atoms, the same operations */
    static run a;
    run_demo(m, RS_FAST_STEP_FN, RS_KLU_COLAMD, &a);
    run_demo(m, RS_FAST_STEP_FN | RS_FAST_STEP_CACHE, RS_KLU_COLAMD, &r);
    ck_assert_int_gt(r.cache_hits, NSTEPS / 2);
    ck_assert_msg(memcmp(a.sig, r.sig, sizeof a.sig) == 0, "the step cache changes a bit of the run");
    printf("feve3000 2 s, step cache: %ld of %d steps from the cache, bit-identical to without\n",
           r.cache_hits, NSTEPS);
    rs_unload(&hn);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    if (!rs_test_need_model("test_perf_equiv", "feve3000"))
        return EXIT_FAILURE;
    const char *bin = getenv("RAILSYM_BIN");
    if (!bin || !*bin)
        bin = "build/railsym";
    snprintf(nohoist_dir, sizeof nohoist_dir, "/tmp/railsym_nohoist_XXXXXX");
    if (!mkdtemp(nohoist_dir)) {
        perror("test_perf_equiv: mkdtemp");
        return EXIT_FAILURE;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' compile vehicles/feve3000/feve3000.vdl --no-hoist -o '%s/m'",
             bin, nohoist_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_perf_equiv: %s failed\n", cmd);
        return EXIT_FAILURE;
    }
    strcat(nohoist_dir, "/m");

    Suite *s = suite_create("perf_equiv");
    TCase *tc = tcase_create("feve3000");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, optimisations_change_no_result);
    suite_add_tcase(s, tc);
    const int failed = rs_test_run(s) != EXIT_SUCCESS;
    snprintf(cmd, sizeof cmd, "rm -rf '%.*s'", (int)(strlen(nohoist_dir) - 2), nohoist_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_perf_equiv: could not remove %s\n", nohoist_dir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
