/*
 * test_train_alloc.c — a train step allocates nothing (1 and 3 threads,
 * outputs read too), and rs_train_create survives the failure of each of
 * its allocations with RS_E_NOMEM and no leak (the sanitizer pass checks
 * leaks); the injected allocator serves every allocation of rs_train,
 * rs_park and rs_krylov.
 *
 * The malloc family is interposed as in test_rt_alloc.c: every allocation
 * of the process passes through the definitions below.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_contact.h"
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

static _Alignas(16) char arena[1 << 16];
static size_t arena_used;
static int resolving;

static volatile int counting;      /* count calls while set            */
static volatile long n_calls;      /* allocation-family calls counted  */
static volatile long fail_at = -1; /* fail the fail_at-th allocation   */
static volatile long n_allocs;     /* allocations seen since reset     */
/* Failures are injected on the thread that creates the train only: a pool
 * thread starting meanwhile allocates inside glibc and ASan (its stack
 * attributes), where a failure aborts the sanitizer instead of testing
 * rs_train_create; and which of the two allocates k-th is a race. */
static pthread_t injecting;

static void resolve(void)
{
    if (real_malloc || resolving)
        return;
    resolving = 1;
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
    resolving = 0;
}

static int in_arena(const void *p)
{
    return (const char *)p >= arena && (const char *)p < arena + sizeof arena;
}

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (arena_used + n > sizeof arena)
        return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

/* Counts one allocation; returns 1 if it must fail. */
static int note_alloc(void)
{
    if (counting)
        n_calls++;
    if (fail_at >= 0 && pthread_equal(pthread_self(), injecting) && n_allocs++ == fail_at) {
        errno = ENOMEM;   /* glibc's pthread_create asserts it */
        return 1;
    }
    return 0;
}

void *malloc(size_t n)
{
    resolve();
    if (!real_malloc)
        return arena_alloc(n);
    return note_alloc() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    resolve();
    if (!real_calloc)
        return arena_alloc(a * b); /* static arena is zeroed */
    return note_alloc() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    resolve();
    if (in_arena(p)) {
        void *q = malloc(n);
        if (q)
            memcpy(q, p, n); /* arena blocks are only dlsym's, small */
        return q;
    }
    return note_alloc() ? NULL : real_realloc(p, n);
}

void free(void *p)
{
    if (!p || in_arena(p))
        return;
    if (counting)
        n_calls++;
    resolve();
    real_free(p);
}

int posix_memalign(void **p, size_t al, size_t n)
{
    resolve();
    return note_alloc() ? 12 /* ENOMEM */ : real_posix_memalign(p, al, n);
}

void *aligned_alloc(size_t al, size_t n)
{
    resolve();
    return note_alloc() ? NULL : real_aligned_alloc(al, n);
}

/* ---- tests ------------------------------------------------------------- */

#define NV 12

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
    n_calls = 0;
    counting = 1;
    int st = RS_OK;
    double sum = 0;
    for (int i = 0; i < 500 && st == RS_OK; i++) {
        st = rs_train_step(tr);
        for (int c = 0; c < NV - 1; c++)
            sum += rs_train_coupler(tr, c, NULL);
    }
    counting = 0;
    ck_assert_msg(st == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
    ck_assert_msg(n_calls == 0, "%d threads: %ld allocator calls in 500 steps", threads, n_calls);
    ck_assert(sum != 0);
    ck_assert_int_ge(rs_park_get_stats(rs_train_park(tr))->plans, threads > 1 ? 20 : 1);
    counting = 1;   /* the proof counts only if the interposition works */
    void *probe = malloc(16);
    counting = 0;
    free(probe);
    ck_assert_int_eq(n_calls, 1);
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
    rs_tcontact_opts co;
    rs_tcontact_opts_default(&co);
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
    n_calls = 0;
    counting = 1;
    int st = RS_OK;
    for (int i = 0; i < 200 && st == RS_OK; i++)
        st = rs_train_step(tr);
    counting = 0;
    ck_assert_msg(st == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
    ck_assert_msg(n_calls == 0, "%d threads: %ld allocator calls in 200 steps of contact vehicles", threads,
                  n_calls);
    rs_train_free(&tr);
    rs_unload(&h);
}

START_TEST(test_no_alloc_contact) { count_contact_steps(1); count_contact_steps(2); }
END_TEST

START_TEST(test_no_alloc_one_thread) { count_steps(1); }
END_TEST
START_TEST(test_no_alloc_three_threads) { count_steps(3); }
END_TEST

START_TEST(test_create_survives_each_failed_allocation)
{
    for (int threads = 1; threads <= 2; threads++) {
        int ok = 0;
        for (long k = 0; k < 400 && !ok; k++) {
            rs_train *tr = (rs_train *)1;
            char err[256];
            n_allocs = 0;
            injecting = pthread_self();
            fail_at = k;
            const int st = make_train(&tr, threads, NULL, err, sizeof err);
            fail_at = -1;
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
    tcase_add_test(tc, test_no_alloc_contact);
    tcase_add_test(tc, test_create_survives_each_failed_allocation);
    tcase_add_test(tc, test_injected_allocator_is_used);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
