/*
 * test_train_alloc.c — a train step allocates nothing (1 and 3 threads,
 * outputs read too), and rs_train_create survives the failure of each of
 * its allocations with RS_E_NOMEM and no leak (the sanitizer pass checks
 * leaks); the injected allocator serves every allocation of rs_train,
 * rs_park and rs_krylov.
 *
 * The malloc family is interposed (tests/support/alloc_hook.c, linked into
 * this program): every allocation of the process passes through it.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_contact.h"
#include "rs_test.h"

/* ---- tests ------------------------------------------------------------- */

#define NV 12

static rs_krylov_method g_method = RS_KRYLOV_AUTO;   /* make_train's solver */

static int make_train(rs_train **tr, int threads, const rs_allocator *alloc, char *err, size_t errlen)
{
    rs_wagon veh[NV];
    rs_coupler cpl[NV - 1];
    static const double tt[2] = {0.0, 0.2}, ff[2] = {0.0, 3e5};
    rs_loco_default(&veh[0]);
    veh[0].traction_n = 2;
    veh[0].traction_t = tt;
    veh[0].traction_f = ff;
    for (int v = 1; v < NV; v++)
        rs_wagon_default(&veh[v]);
    for (int c = 0; c < NV - 1; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].slack = 0.02;
        cpl[c].k_buffer = 3e7;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.threads = threads;
    o.rebalance = 20;
    o.krylov.method = g_method;
    if (alloc)
        o.allocator = *alloc;
    return rs_train_create(tr, NV, veh, NULL, cpl, NULL, &o, err, errlen);
}

static void count_steps(int threads)
{
    rs_train *tr;
    char err[256];
    ck_assert_msg(make_train(&tr, threads, NULL, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 0.5), RS_OK);
    alloc_hook_calls = 0;
    alloc_hook_counting = 1;
    int st = RS_OK;
    double sum = 0;
    for (int i = 0; i < 500 && st == RS_OK; i++) {
        st = rs_train_step(tr);
        for (int c = 0; c < NV - 1; c++)
            sum += rs_train_coupler(tr, c, NULL);
    }
    alloc_hook_counting = 0;
    ck_assert_msg(st == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
    ck_assert_msg(alloc_hook_calls == 0, "%d threads: %ld allocator calls in 500 steps", threads, alloc_hook_calls);
    ck_assert(sum != 0);
    ck_assert_int_ge(rs_park_get_stats(rs_train_park(tr))->plans, threads > 1 ? 20 : 1);
    alloc_hook_counting = 1;   /* the proof counts only if the interposition works */
    void *volatile probe = malloc(16); /* volatile: the compiler must not elide the pair */
    alloc_hook_counting = 0;
    free(probe);
    ck_assert_int_eq(alloc_hook_calls, 1);
    rs_train_free(&tr);
}

/* Contact vehicles (rs_train_contact.h): the contact-point Newton, Hertz,
 * Kalker and the generated functions allocate nothing in a step either. */
static void count_contact_steps(int threads)
{
    char err[4096];
    rs_loaded *h = rs_load("generated/bogie", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.track = "vehicles/tracks/long_straight.trk";
    co.mu = 0.3;   /* the saturation's path too */
    rs_wagon veh[3];
    rs_coupler cpl[2];
    for (int v = 0; v < 3; v++) {
        rs_wagon_default(&veh[v]);
        veh[v].model = m;
        veh[v].port_x = 0;   /* x */
        veh[v].port_pitch = -1;
        veh[v].l_front = veh[v].l_rear = 2.0;
        veh[v].model_contact = &co;
        if (v < 2)
            rs_coupler_default(&cpl[v]);
    }
    veh[0].traction = 2e4;
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.threads = threads;
    o.rebalance = 20;
    o.krylov.method = RS_KRYLOV_GMRES;
    rs_train *tr;
    ck_assert_msg(rs_train_create(&tr, 3, veh, NULL, cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_train_start(tr, 0.0, 0.0, 3.0) == RS_OK, "%s", rs_train_error(tr));
    alloc_hook_calls = 0;
    alloc_hook_counting = 1;
    int st = RS_OK;
    for (int i = 0; i < 200 && st == RS_OK; i++)
        st = rs_train_step(tr);
    alloc_hook_counting = 0;
    ck_assert_msg(st == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
    ck_assert_msg(alloc_hook_calls == 0, "%d threads: %ld allocator calls in 200 steps of contact vehicles", threads,
                  alloc_hook_calls);
    rs_train_free(&tr);
    rs_unload(&h);
}

START_TEST(test_no_alloc_contact) { count_contact_steps(1); count_contact_steps(2); }
END_TEST

START_TEST(test_no_alloc_one_thread) { count_steps(1); }
END_TEST
START_TEST(test_no_alloc_three_threads) { count_steps(3); }
END_TEST
/* solver artificial (rs_artificial.h): its work space is made at create */
START_TEST(test_no_alloc_artificial)
{
    g_method = RS_KRYLOV_ARTIFICIAL;
    count_steps(1);
    count_steps(3);
    g_method = RS_KRYLOV_AUTO;
}
END_TEST

START_TEST(test_create_survives_each_failed_allocation)
{
    /* 1 thread, 2 threads, and solver artificial on 2 threads */
    for (int pass = 0; pass < 3; pass++) {
        const int threads = pass == 0 ? 1 : 2;
        g_method = pass == 2 ? RS_KRYLOV_ARTIFICIAL : RS_KRYLOV_AUTO;
        int ok = 0;
        for (long k = 0; k < 400 && !ok; k++) {
            rs_train *tr = (rs_train *)1;
            char err[256];
            alloc_hook_allocs = 0;
            alloc_hook_thread = pthread_self();
            alloc_hook_one_thread = 1;
            alloc_hook_fail_at = k;
            const int st = make_train(&tr, threads, NULL, err, sizeof err);
            alloc_hook_fail_at = -1;
            if (st == RS_OK) {
                ok = 1;
                ck_assert_int_gt(k, 10);
                ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 1.0), RS_OK);
                ck_assert_int_eq(rs_train_step(tr), RS_OK);
            } else {
                ck_assert_msg(st == RS_E_NOMEM, "%d threads, failing allocation %ld: %d (%s)", threads, k, st, err);
                ck_assert_ptr_null(tr);
            }
            rs_train_free(&tr);
        }
        ck_assert_msg(ok, "never succeeded");
    }
    g_method = RS_KRYLOV_AUTO;
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
    tally t = {0, 0};
    const rs_allocator a = {tally_alloc, tally_release, &t};
    rs_train *tr;
    char err[256];
    ck_assert_int_eq(make_train(&tr, 2, &a, err, sizeof err), RS_OK);
    ck_assert_int_gt(t.total, 20);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 1.0), RS_OK);
    rs_train_free(&tr);
    ck_assert_int_eq(t.live, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_alloc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_no_alloc_one_thread);
    tcase_add_test(tc, test_no_alloc_three_threads);
    tcase_add_test(tc, test_no_alloc_artificial);
    tcase_add_test(tc, test_no_alloc_contact);
    tcase_add_test(tc, test_create_survives_each_failed_allocation);
    tcase_add_test(tc, test_injected_allocator_is_used);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
