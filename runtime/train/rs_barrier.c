/*
 * rs_barrier.c — see rs_barrier.h.
 *
 * Sense by generation: a thread reads the generation, arrives (atomic
 * count), and waits until the generation changes; the last to arrive resets
 * the count and opens the next generation.  The acquire/release pairs
 * (arrival RMWs, the generation store and loads) make the barrier a full
 * synchronization.
 *
 * Waiting: first polls the generation up to the current spin budget, then
 * blocks.  On Linux it blocks on the generation
 * word itself (futex): the last arrival pays a wake-up system call only
 * when someone sleeps (the sleeper count), and a sleeper that comes too
 * late finds the generation already changed (FUTEX_WAIT compares it in the
 * kernel).  Elsewhere a mutex and condition variable do the same.
 *
 * The budget adapts between SPIN_FLOOR and the configured spin: a wait
 * released while polling doubles it; a wait that slept halves it when the
 * sleep was long (LONG_SLEEP_NS: a partner that lost its core for a time
 * slice, or a long imbalance) and doubles it when it was short (the partner
 * came soon after this thread gave up: polling a little longer would have
 * saved the sleep and the wake-up).  On a busy machine the waits soon go to
 * sleep almost at once instead of burning the core a descheduled partner,
 * or another process, needs; on an idle machine the budget stays at its
 * maximum.  Without the second rule a budget that fell below the usual wait
 * (after one long wait) would never climb back: every wait would sleep.
 * Only the sleeping path reads the clock.
 *
 * No pause instruction in the poll: on the development machine (a VM) one
 * costs 130-280 ns against 0.3 ns for a plain poll, which would stretch the
 * default 50 000 polls from about 15 us to 10 ms.
 */
#define _GNU_SOURCE /* syscall */

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#define RS_BARRIER_FUTEX 1
#endif

#include "rs_barrier.h"
#include "rs_clock.h"
#include "rs_status.h"

/* Polls the budget never falls below: a partner that is running arrives
 * within a few of them, and they cost less than a wake-up. */
enum { SPIN_FLOOR = 64 };

/* A sleep longer than this is a partner descheduled or far behind (a time
 * slice is a millisecond or more); shorter ones are this thread's own
 * wake-up latency plus a partner that was nearly there. */
#define LONG_SLEEP_NS 200000LL

struct rs_barrier {
    int n, spin;
    atomic_int count;
    atomic_uint gen;           /* the futex word                                */
    atomic_int sleepers;       /* threads blocked (or about to block)           */
    atomic_int budget;         /* polls before blocking, SPIN_FLOOR..spin       */
    atomic_long sleeps;        /* waits that blocked, for tests and benches     */
#if !RS_BARRIER_FUTEX
    pthread_mutex_t mu;
    pthread_cond_t cv;
#endif
};

int rs_barrier_create(rs_barrier **out, int n, int spin)
{
    if (!out)
        return RS_E_ARG;
    *out = NULL;
    if (n < 1)
        return RS_E_ARG;
    rs_barrier *b = calloc(1, sizeof *b);
    if (!b)
        return RS_E_NOMEM;
    b->n = n;
    b->spin = spin < 0 ? 0 : spin;
    atomic_init(&b->count, 0);
    atomic_init(&b->gen, 0u);
    atomic_init(&b->sleepers, 0);
    atomic_init(&b->budget, b->spin);
    atomic_init(&b->sleeps, 0L);
#if !RS_BARRIER_FUTEX
    if (pthread_mutex_init(&b->mu, NULL) != 0) {
        free(b);
        return RS_E_NOMEM;
    }
    if (pthread_cond_init(&b->cv, NULL) != 0) {
        pthread_mutex_destroy(&b->mu);
        free(b);
        return RS_E_NOMEM;
    }
#endif
    *out = b;
    return RS_OK;
}

void rs_barrier_free(rs_barrier **pb)
{
    if (!pb || !*pb)
        return;
#if !RS_BARRIER_FUTEX
    pthread_cond_destroy(&(*pb)->cv);
    pthread_mutex_destroy(&(*pb)->mu);
#endif
    free(*pb);
    *pb = NULL;
}

long rs_barrier_sleeps(const rs_barrier *b)
{
    return b ? atomic_load_explicit(&b->sleeps, memory_order_relaxed) : 0;
}

/* Opens generation g + 1 and wakes the sleepers.  The sequentially
 * consistent store and load pair with the sleeper's increment and check
 * (block()): either the sleeper sees the new generation or this sees it
 * counted. */
static void release(rs_barrier *b, unsigned g)
{
#if RS_BARRIER_FUTEX
    atomic_store(&b->gen, g + 1u);
    if (atomic_load(&b->sleepers) > 0)
        syscall(SYS_futex, (unsigned *)&b->gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    pthread_mutex_lock(&b->mu);
    atomic_store(&b->gen, g + 1u);
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
#endif
}

/* Sleeps until the generation is no longer g. */
static void block(rs_barrier *b, unsigned g)
{
    atomic_fetch_add_explicit(&b->sleeps, 1, memory_order_relaxed);
#if RS_BARRIER_FUTEX
    atomic_fetch_add(&b->sleepers, 1);
    /* FUTEX_WAIT returns at once when the word is no longer g, and may
     * wake spuriously (EINTR, EAGAIN): the loop checks again. */
    while (atomic_load(&b->gen) == g)
        syscall(SYS_futex, (unsigned *)&b->gen, FUTEX_WAIT_PRIVATE, g, NULL, NULL, 0);
    atomic_fetch_sub(&b->sleepers, 1);
#else
    pthread_mutex_lock(&b->mu);
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == g)
        pthread_cond_wait(&b->cv, &b->mu);
    pthread_mutex_unlock(&b->mu);
#endif
}

/* The budget after a wait that says "poll longer" / "poll less". */
static int more(const rs_barrier *b, int budget)
{
    return budget > b->spin / 2 ? b->spin : 2 * budget;
}

static int less(const rs_barrier *b, int budget)
{
    const int floor = b->spin < SPIN_FLOOR ? b->spin : SPIN_FLOOR;
    return budget / 2 > floor ? budget / 2 : floor;
}

void rs_barrier_wait(rs_barrier *b)
{
    if (!b || b->n <= 1)
        return;
    /* The generation cannot change before this thread arrives, so reading
     * it first is safe. */
    const unsigned g = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) == b->n - 1) {
        /* Last to arrive: reset, then open the next generation.  No thread
         * arrives at the next one before it sees the new generation. */
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        release(b, g);
        return;
    }
    const int budget = atomic_load_explicit(&b->budget, memory_order_relaxed);
    for (int i = 0; i < budget; i++) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != g) {
            if (budget < b->spin)   /* released while polling: poll longer */
                atomic_store_explicit(&b->budget, more(b, budget), memory_order_relaxed);
            return;
        }
    }
    if (atomic_load_explicit(&b->gen, memory_order_acquire) != g)
        return;
    const long long t0 = rs_now_ns();
    block(b, g);
    const long long slept = rs_now_ns() - t0;
    /* The budget is shared by the team; races between threads updating it
     * only lose an update, never make it leave [floor, spin]. */
    atomic_store_explicit(&b->budget, slept > LONG_SLEEP_NS ? less(b, budget) : more(b, budget),
                          memory_order_relaxed);
}
