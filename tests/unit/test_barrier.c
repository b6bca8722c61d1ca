/*
 * test_barrier.c — the barrier and the pool with more threads than cores
 * (the machine's cores, whatever they are: 16 threads), so that partners
 * are descheduled while others wait, and the waits go both ways: polling
 * (a large spin budget, which the barrier lowers and raises as waits end
 * asleep or not) and blocking at once (spin 0).
 *
 *   - every round each thread writes its slot (a plain int, not atomic) and
 *     counts its arrival; after the barrier every thread reads all slots
 *     and the count: all hold this round, none the next (nobody left
 *     early, nobody was late, and the writes are visible: the barrier is a
 *     full synchronization); a second barrier separates the reads from the
 *     next round's writes;
 *   - the pool: many short dynamic sections summing task numbers, each
 *     task run exactly once per section (an array of counts), with 16
 *     threads on however few cores;
 *   - a barrier of one thread returns at once; creation refuses n < 1.
 * Nothing here depends on time: the counts are exact whatever the
 * scheduling.
 */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_barrier.h"
#include "rs_pool.h"
#include "rs_status.h"
#include "rs_test.h"

enum { NT = 16, ROUNDS = 3000 };

typedef struct stress {
    rs_barrier *bar;
    int slot[NT];
    atomic_int arrived;
    atomic_int bad;     /* first bad round + 1, 0: none */
} stress;

typedef struct targ {
    stress *s;
    int me;
} targ;

static void *stress_thread(void *varg)
{
    const targ *a = varg;
    stress *s = a->s;
    for (int r = 0; r < ROUNDS; r++) {
        s->slot[a->me] = r;
        atomic_fetch_add_explicit(&s->arrived, 1, memory_order_relaxed);
        rs_barrier_wait(s->bar);
        int ok = atomic_load_explicit(&s->arrived, memory_order_relaxed) == (r + 1) * NT;
        for (int t = 0; t < NT; t++)
            ok = ok && s->slot[t] == r;
        if (!ok) {
            int none = 0;
            atomic_compare_exchange_strong(&s->bad, &none, r + 1);
        }
        rs_barrier_wait(s->bar);
    }
    return NULL;
}

static void run_stress(int spin)
{
    stress s;
    memset(&s, 0, sizeof s);
    atomic_init(&s.arrived, 0);
    atomic_init(&s.bad, 0);
    ck_assert_int_eq(rs_barrier_create(&s.bar, NT, spin), RS_OK);
    pthread_t tid[NT];
    targ args[NT];
    for (int t = 0; t < NT; t++) {
        args[t].s = &s;
        args[t].me = t;
        ck_assert_int_eq(pthread_create(&tid[t], NULL, stress_thread, &args[t]), 0);
    }
    for (int t = 0; t < NT; t++)
        pthread_join(tid[t], NULL);
    const int bad = atomic_load(&s.bad), arrived = atomic_load(&s.arrived);
    ck_assert_msg(bad == 0, "spin %d: round %d saw a thread early or late", spin, bad - 1);
    ck_assert_int_eq(arrived, ROUNDS * NT);
    /* only waits that are not the last arrival's may sleep; with spin 0
     * each of them sleeps unless the last arrival came in the nanoseconds
     * between its arrival and its one look at the generation, so thousands
     * of waits include sleeps (the blocking path ran) */
    const long sleeps = rs_barrier_sleeps(s.bar);
    printf("barrier: spin %d: %ld of %d waits slept\n", spin, sleeps, 2 * ROUNDS * (NT - 1));
    ck_assert_int_le(sleeps, (long)2 * ROUNDS * (NT - 1));
    if (spin == 0)
        ck_assert_int_ge(sleeps, 1);
    rs_barrier_free(&s.bar);
    ck_assert_ptr_null(s.bar);
}

START_TEST(test_stress_blocking) { run_stress(0); }
END_TEST

START_TEST(test_stress_polling) { run_stress(50000); }
END_TEST

START_TEST(test_stress_small_budget) { run_stress(100); }
END_TEST

START_TEST(test_one_thread_and_errors)
{
    rs_barrier *b = NULL;
    ck_assert_int_eq(rs_barrier_create(&b, 1, 1000), RS_OK);
    rs_barrier_wait(b);   /* returns at once: nobody else to wait for */
    rs_barrier_wait(b);
    ck_assert_int_eq(rs_barrier_sleeps(b), 0);
    rs_barrier_free(&b);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(rs_barrier_create(&b, 0, 10), RS_E_ARG);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(rs_barrier_create(NULL, 2, 10), RS_E_ARG);
    rs_barrier_free(&b);   /* NULL: nothing */
    rs_barrier_wait(NULL);
}
END_TEST

/* ---- the pool ---------------------------------------------------------- */

enum { NTASK = 37, SECTIONS = 2000 };

typedef struct count_job {
    atomic_int runs[NTASK];
    atomic_long sum;
    atomic_int bad_thread;
} count_job;

static void count_task(void *ctx, int task, int thread)
{
    count_job *j = ctx;
    atomic_fetch_add_explicit(&j->runs[task], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&j->sum, task, memory_order_relaxed);
    if (thread < 0 || thread >= NT)
        atomic_store(&j->bad_thread, 1);
}

START_TEST(test_pool_oversubscribed)
{
    char err[256];
    rs_pool *p = NULL;
    ck_assert_int_eq(rs_pool_create(&p, NT, NTASK, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_pool_threads(p), NT);
    count_job j;
    memset(&j, 0, sizeof j);
    double cost[NTASK];
    for (int k = 0; k < NTASK; k++)
        cost[k] = (double)((k * 7) % 11);
    ck_assert_int_eq(rs_pool_plan(p, NTASK, cost), RS_OK);
    for (int s = 0; s < SECTIONS; s++) {
        /* dynamic and planned sections alternate on the same threads */
        if (s % 2)
            ck_assert_int_eq(rs_pool_run(p, NTASK, count_task, &j), RS_OK);
        else
            ck_assert_int_eq(rs_pool_run_dynamic(p, NTASK, cost, count_task, &j), RS_OK);
        /* the caller returns after the join: every task of this section is counted */
        const int last = atomic_load(&j.runs[NTASK - 1]);
        ck_assert_int_eq(last, s + 1);
    }
    for (int k = 0; k < NTASK; k++) {
        const int runs = atomic_load(&j.runs[k]);
        ck_assert_int_eq(runs, SECTIONS);
    }
    const long sum = atomic_load(&j.sum);
    ck_assert_int_eq(sum, (long)SECTIONS * NTASK * (NTASK - 1) / 2);
    const int bad_thread = atomic_load(&j.bad_thread);
    ck_assert_int_eq(bad_thread, 0);
    rs_pool_free(&p);
    ck_assert_ptr_null(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("barrier");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_stress_blocking);
    tcase_add_test(tc, test_stress_polling);
    tcase_add_test(tc, test_stress_small_budget);
    tcase_add_test(tc, test_one_thread_and_errors);
    tcase_add_test(tc, test_pool_oversubscribed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
