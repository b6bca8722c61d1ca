/*
 * test_rt_alloc.c — a step allocates nothing; workspace creation survives
 * the failure of each of its allocations without leaking.
 *
 * The malloc family is interposed (tests/support/alloc_hook.c, linked into
 * this program): every allocation of the process passes through it.
 */
#define _XOPEN_SOURCE 700 /* realpath (rs_test_files.h) */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "alloc_hook.h"
#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rt_fixtures.h"
#include "rs_test.h"
#include "rs_test_files.h"

/* ---- tests ------------------------------------------------------------- */

static void count_steps(const rs_model *m, rs_method meth, int with_outputs)
{
    rs_ws *ws = rt_ws_new(m, meth, 1e-3, 1e-6);
    if (m == rt_fourbar_model())
        rt_fourbar_assemble(rs_ws_p(ws), 0.6, rs_ws_q(ws));
    else if (m == rt_cartpend_model()) {
        rs_ws_q(ws)[0] = 0.8;
        rs_ws_q(ws)[1] = -0.6;
    } else
        rs_ws_q(ws)[0] = 2.0;
    rs_ws_qd(ws)[0] = 0.5;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double out[4], T, V, pos, vel;
    alloc_hook_calls = 0;
    alloc_hook_counting = 1;
    int st = RS_OK;
    for (int i = 0; i < 1000 && st == RS_OK; i++) {
        st = rs_step(ws);
        if (with_outputs && st == RS_OK) {
            st = rs_ws_outputs(ws, out);
            if (st == RS_OK)
                st = rs_ws_energy(ws, &T, &V);
            if (st == RS_OK)
                st = rs_ws_residuals(ws, &pos, &vel);
        }
    }
    alloc_hook_counting = 0;
    ck_assert_msg(st == RS_OK, "%s", rs_ws_error(ws));
    ck_assert_msg(alloc_hook_calls == 0, "%s: %ld allocator calls in 1000 steps", m->name, alloc_hook_calls);
    /* the proof counts only if the interposition works at all */
    alloc_hook_counting = 1;
    void *volatile probe = malloc(16); /* volatile: the compiler must not elide the pair */
    alloc_hook_counting = 0;
    free(probe);
    ck_assert_int_eq(alloc_hook_calls, 1);
    rs_ws_free(&ws);
}

START_TEST(test_no_alloc_pendulum_imex) { count_steps(rt_pendulum_model(), RS_IMEX_EULER, 1); }
END_TEST
START_TEST(test_no_alloc_cartpend_imex) { count_steps(rt_cartpend_model(), RS_IMEX_EULER, 1); }
END_TEST
START_TEST(test_no_alloc_fourbar_imex) { count_steps(rt_fourbar_model(), RS_IMEX_EULER, 1); }
END_TEST
START_TEST(test_no_alloc_fourbar_rk4) { count_steps(rt_fourbar_model(), RS_RK4, 0); }
END_TEST
START_TEST(test_no_alloc_cartpend_rk4) { count_steps(rt_cartpend_model(), RS_RK4, 0); }
END_TEST

/* Steps ws n times counting the allocator's calls (alloc_hook_calls),
 * each step with the energies and powers if energy; every step must
 * succeed. */
static void count_step_allocs(rs_ws *ws, int n, int energy)
{
    double T, V, P[RS_POWER_COUNT];
    alloc_hook_calls = 0;
    alloc_hook_counting = 1;
    int st = RS_OK;
    for (int i = 0; i < n && st == RS_OK; i++)
        if ((st = rs_step(ws)) == RS_OK && energy && (st = rs_ws_energy(ws, &T, &V)) == RS_OK)
            st = rs_ws_power(ws, P);
    alloc_hook_counting = 0;
    ck_assert_msg(st == RS_OK, "%s", rs_ws_error(ws));
}

/* generated/bogie loaded into *h with the contact ops (and the phase
 * timers if profile), rolling at 20 m/s, the front wheelset 0.2 mm off
 * centre; initialized. */
static rs_ws *rolling_bogie(rs_loaded **h, const rs_contact_ops *contact, int profile)
{
    char err[2000];
    *h = rs_load("generated/bogie", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(*h != NULL, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = contact;
    o.profile = profile;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(rs_loaded_model(*h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    static const char *const vel[] = {"x_dot", "front.x_dot", "rear.x_dot"};
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(rs_ws_set_qd(ws, vel[k], 20.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "front.spin_dot", 20.0 / 0.46), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "rear.spin_dot", 20.0 / 0.46), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "front.y", 2e-4), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

/* The model of the VDL text compiled into a fresh folder made from templ
 * (into dir, len bytes), loaded. */
static rs_loaded *compile_and_load(char *dir, size_t len, const char *templ, const char *vdl)
{
    char path[PATH_MAX], err[2000];
    rs_test_mkdtemp(dir, len, templ);
    rs_test_compile(dir, "m", vdl);
    snprintf(path, sizeof path, "%s/m", dir);
    rs_loaded *h = rs_load(path, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    return h;
}

/* The contact step (generated/bogie: 4 contacts, creep, Hertz, Kalker,
 * contact-point Newton) with the phase timers on allocates nothing either;
 * the model is loaded (libtcc) before counting starts. */
START_TEST(test_no_alloc_contact_bogie)
{
    RS_REQUIRE_MODEL("bogie");
    rs_loaded *h;
    rs_ws *ws = rolling_bogie(&h, rs_wheel_rail_contact(), 1);
    count_step_allocs(ws, 1000, 1);
    ck_assert_msg(alloc_hook_calls == 0, "bogie: %ld allocator calls in 1000 contact steps", alloc_hook_calls);
    ck_assert(rs_ws_stats(ws)->phase_s[RS_PHASE_KALKER] > 0);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* ... nor does the elastic contact's step (the same bogie: every patch,
 * Hertz and Kalker per patch, the contact term straight into the system
 * matrix, the patch search's bound tables made at initialization and its
 * per-interval ranges kept in the hint as the searches need them). */
START_TEST(test_no_alloc_contact_elastic)
{
    RS_REQUIRE_MODEL("bogie");
    rs_loaded *h;
    rs_ws *ws = rolling_bogie(&h, rs_elastic_contact(), 0);
    count_step_allocs(ws, 300, 0);
    int patches = 0;
    for (int i = 0; i < rs_loaded_model(h)->n_contact; i++)
        patches += rs_elastic_patches(ws, i);
    ck_assert_msg(alloc_hook_calls == 0, "bogie, elastic: %ld allocator calls in 300 steps", alloc_hook_calls);
    ck_assert_int_ge(patches, rs_loaded_model(h)->n_contact); /* every wheel in contact */
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* A plugin spring-damper with its Jacobian, treated implicitly by the IMEX
 * step (two force-Jacobian evaluations and the extra matrix values per
 * step: runtime/core/rs_ws_plugin_jac.c): still no allocation.  The model
 * is compiled here; its table is this file's (no library is loaded). */
static int sd_eval(void *ctx, const rs_plugin_in *in, rs_plugin_out *out)
{
    (void)ctx;
    out->f = 800 * (in->x - 1) + 4 * in->v;
    out->dfdx = 800;
    out->dfdv = 4;
    out->has_jac = 1;
    return RS_PLUGIN_OK;
}

START_TEST(test_no_alloc_plugin_implicit)
{
    char dir[64], err[2000];
    rs_loaded *h = compile_and_load(dir, sizeof dir, "/tmp/rs_alloc_plugin_XXXXXX",
                                    "coord x = 1.3\npoint A = O + [0, 0, 0] in ground\npoint P = O + [x, 0, 0] in "
                                    "ground\nbody b mass 2 cg P inertia diag(1, 1, 1) in ground frame ground\nplugin s "
                                    "library \"/nonexistent/libsd.so\" between A and P of b\n");
    static const rs_plugin_api api = {RS_PLUGIN_ABI_VERSION, 0, sd_eval, 0, 0};
    const rs_plugin_api *tables[1] = {&api};
    rs_options o;
    rs_options_default(&o);
    o.plugins = tables;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    rs_ws_q(ws)[0] = 1.3;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    count_step_allocs(ws, 1000, 0);
    ck_assert_msg(alloc_hook_calls == 0, "plugin: %ld allocator calls in 1000 implicit steps", alloc_hook_calls);
    rs_ws_free(&ws);
    rs_unload(&h);
    ck_assert_int_eq(rs_test_sh("rm -rf '%s'", dir), 0);
}
END_TEST

/* The same on a model with wheel-rail contacts: the conical wheelset of
 * vehicles/examples (included) with a lateral plugin spring-damper from a
 * point 10 m to its right (f = 1e6 (x − 10) + 1e3 v, its Jacobian given),
 * so the step adds the contact's terms and the plugin's to the union
 * pattern (rs_klu_system_build): no allocation, in constraint (_i = 0) and
 * elastic (_i = 1) mode. */
static int lateral_eval(void *ctx, const rs_plugin_in *in, rs_plugin_out *out)
{
    (void)ctx;
    out->f = 1e6 * (in->x - 10) + 1e3 * in->v;
    out->dfdx = 1e6;
    out->dfdv = 1e3;
    out->has_jac = 1;
    return RS_PLUGIN_OK;
}

START_TEST(test_no_alloc_plugin_implicit_contact)
{
    char dir[64], cwd[256], vdl[1024], err[2000];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(vdl, sizeof vdl,
             "include \"%s/vehicles/examples/wheelset_cone.vdl\"\npoint A = O + [x, -10, r0] in ground\nplugin s "
             "library \"/nonexistent/libsd.so\" between A and O_ws of wheelset\n",
             cwd);
    rs_loaded *h = compile_and_load(dir, sizeof dir, "/tmp/rs_alloc_plugin_ct_XXXXXX", vdl);
    static const rs_plugin_api api = {RS_PLUGIN_ABI_VERSION, 0, lateral_eval, 0, 0};
    const rs_plugin_api *tables[1] = {&api};
    rs_options o;
    rs_options_default(&o);
    o.plugins = tables;
    o.contact = _i ? rs_elastic_contact() : rs_wheel_rail_contact();
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 20.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", 20.0 / 0.45), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.002), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    count_step_allocs(ws, 1000, 0);
    ck_assert_msg(alloc_hook_calls == 0, "plugin on contacts (%s): %ld allocator calls in 1000 implicit steps",
                  _i ? "elastic" : "constraint", alloc_hook_calls);
    rs_ws_free(&ws);
    rs_unload(&h);
    ck_assert_int_eq(rs_test_sh("rm -rf '%s'", dir), 0);
}
END_TEST

/* ... nor do the contact-point searches of the S1002 wheelset released
 * off centre (its contact points jump several times in 1 s). */
START_TEST(test_no_alloc_contact_search)
{
    RS_REQUIRE_MODEL("wheelset");
    char err[2000];
    rs_loaded *h = rs_load("generated/wheelset", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 20.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", 20.0 / 0.45), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    const long scans = rs_ws_stats(ws)->contact_searches;
    count_step_allocs(ws, 1000, 0);
    ck_assert_msg(alloc_hook_calls == 0, "wheelset: %ld allocator calls in 1000 contact steps", alloc_hook_calls);
    ck_assert_msg(rs_ws_stats(ws)->contact_searches > scans, "no contact-point search happened");
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

START_TEST(test_create_survives_each_failed_allocation)
{
    /* Fail allocation k = 0, 1, 2, ... of rs_ws_create (its own and KLU's)
     * until it succeeds: each failure is RS_E_NOMEM, leaves *ws NULL, and
     * leaks nothing (the sanitizer build checks the leaks). */
    const rs_model *models[3] = {rt_pendulum_model(), rt_cartpend_model(), rt_fourbar_model()};
    for (int mi = 0; mi < 3; mi++) {
        int ok = 0;
        for (long k = 0; k < 200 && !ok; k++) {
            rs_ws *ws = (rs_ws *)1;
            char err[200];
            alloc_hook_allocs = 0;
            alloc_hook_fail_at = k;
            int st = rs_ws_create(models[mi], NULL, &ws, err, sizeof err);
            alloc_hook_fail_at = -1;
            if (st == RS_OK) {
                ok = 1;
                ck_assert_int_gt(k, 2);
            } else {
                ck_assert_msg(st == RS_E_NOMEM, "%s, failing allocation %ld: %s (%s)",
                              models[mi]->name, k, rs_status_name(st), err);
                ck_assert_ptr_null(ws);
            }
            rs_ws_free(&ws);
        }
        ck_assert_msg(ok, "%s: never succeeded", models[mi]->name);
    }
}
END_TEST

typedef struct tally {
    long live, total;
} tally;

static void *tally_alloc(void *ctx, size_t n)
{
    tally *t = ctx;
    t->live++;
    t->total++;
    return calloc(1, n);
}

static void tally_release(void *ctx, void *p)
{
    tally *t = ctx;
    t->live--;
    free(p);
}

START_TEST(test_injected_allocator_is_used)
{
    /* The runtime's own allocations go through rs_allocator, all paired. */
    tally t = {0, 0};
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.allocator = (rs_allocator){tally_alloc, tally_release, &t};
    rs_ws *ws = NULL;
    char err[200];
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_OK);
    ck_assert_int_gt(t.total, 2);
    ck_assert_int_gt(t.live, 2); /* set-up scratch may already be released */
    rs_ws_free(&ws);
    ck_assert_int_eq(t.live, 0);
}
END_TEST

/* An allocator that hands out garbage, as a pool or malloc may: the
 * contract (rs_alloc.h) does not ask it to zero, rs_alloc does. */
static void *garbage_alloc(void *ctx, size_t n)
{
    tally *t = ctx;
    t->live++;
    t->total++;
    void *p = malloc(n);
    if (p)
        memset(p, 0xA5, n);
    return p;
}

static void run_fourbar(const rs_allocator *a, double q[3])
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.method = RS_IMEX_EULER;
    o.dt = 1e-3;
    o.proj_tol = 1e-10;
    if (a)
        o.allocator = *a;
    rs_ws *ws = NULL;
    char err[256];
    ck_assert_msg(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    rt_fourbar_assemble(rs_ws_p(ws), 0.6, rs_ws_q(ws));
    rs_ws_qd(ws)[0] = 0.5;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int i = 0; i < 300; i++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    memcpy(q, rs_ws_q(ws), 3 * sizeof *q);
    rs_ws_free(&ws);
}

START_TEST(test_allocator_need_not_zero)
{
    tally t = {0, 0};
    const rs_allocator g = {garbage_alloc, tally_release, &t};
    /* rs_alloc zeroes whatever the allocator gives, empty arrays included */
    static const size_t sizes[] = {0, 1, 7, 64, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned char *b = rs_alloc(&g, sizes[i], 1);
        ck_assert_ptr_nonnull(b);
        for (size_t k = 0; k < (sizes[i] ? sizes[i] : 1); k++)
            ck_assert_uint_eq(b[k], 0);
        rs_free(&g, b);
    }
    ck_assert_int_eq(t.total, 5);
    ck_assert_int_eq(t.live, 0);
    /* overflow of n × size: NULL, the allocator not called */
    ck_assert_ptr_null(rs_alloc(&g, (size_t)-1 / 2, 4));
    ck_assert_int_eq(t.total, 5);
    /* half an allocator is none: calloc/free, its alloc never called */
    const rs_allocator half = {garbage_alloc, NULL, &t};
    double *d = rs_alloc(&half, 8, sizeof *d);
    ck_assert_ptr_nonnull(d);
    ck_assert(d[7] == 0.0);
    rs_free(&half, d);
    ck_assert_int_eq(t.total, 5);
    rs_free(&g, NULL);
    ck_assert_int_eq(t.live, 0);
    /* a workspace built from garbage blocks runs bit for bit like one
     * built from calloc: nothing in the runtime reads memory it did not set
     * or rs_alloc did not zero */
    double q_calloc[3], q_garbage[3];
    run_fourbar(NULL, q_calloc);
    run_fourbar(&g, q_garbage);
    ck_assert_int_gt(t.total, 7);
    ck_assert_int_eq(t.live, 0);
    ck_assert_mem_eq(q_calloc, q_garbage, sizeof q_calloc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_alloc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_no_alloc_pendulum_imex);
    tcase_add_test(tc, test_no_alloc_cartpend_imex);
    tcase_add_test(tc, test_no_alloc_fourbar_imex);
    tcase_add_test(tc, test_no_alloc_fourbar_rk4);
    tcase_add_test(tc, test_no_alloc_cartpend_rk4);
    tcase_add_test(tc, test_no_alloc_contact_bogie);
    tcase_add_test(tc, test_no_alloc_contact_elastic);
    tcase_add_test(tc, test_no_alloc_contact_search);
    tcase_add_test(tc, test_no_alloc_plugin_implicit);
    tcase_add_loop_test(tc, test_no_alloc_plugin_implicit_contact, 0, 2);
    tcase_add_test(tc, test_create_survives_each_failed_allocation);
    tcase_add_test(tc, test_injected_allocator_is_used);
    tcase_add_test(tc, test_allocator_need_not_zero);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
