/*
 * rs_barrier.c — see rs_barrier.h.
 *
 * Sense by generation: a thread reads the generation, arrives (atomic
 * count), and waits until the generation changes; the last to arrive resets
 * the count and opens the next generation under the mutex, so a thread that
 * decided to sleep cannot miss the wake-up.  The acquire/release pairs
 * (arrival RMWs, the generation store and loads) make the barrier a full
 * synchronization.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "rs_barrier.h"
#include "rs_status.h"

struct rs_barrier {
    int n, spin;
    atomic_int count;
    atomic_uint gen;
    pthread_mutex_t mu;
    pthread_cond_t cv;
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
    if (pthread_mutex_init(&b->mu, NULL) != 0) {
        free(b);
        return RS_E_NOMEM;
    }
    if (pthread_cond_init(&b->cv, NULL) != 0) {
        pthread_mutex_destroy(&b->mu);
        free(b);
        return RS_E_NOMEM;
    }
    *out = b;
    return RS_OK;
}

void rs_barrier_free(rs_barrier **pb)
{
    if (!pb || !*pb)
        return;
    pthread_cond_destroy(&(*pb)->cv);
    pthread_mutex_destroy(&(*pb)->mu);
    free(*pb);
    *pb = NULL;
}

void rs_barrier_wait(rs_barrier *b)
{
    if (!b || b->n <= 1)
        return;
    /* The generation cannot change before this thread arrives, so reading
     * it first is safe. */
    const unsigned g = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) == b->n - 1) {
        /* Last to arrive: reset, then open the next generation.  The mutex
         * makes the wake-up race-free with threads about to sleep. */
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        pthread_mutex_lock(&b->mu);
        atomic_store_explicit(&b->gen, g + 1u, memory_order_release);
        pthread_cond_broadcast(&b->cv);
        pthread_mutex_unlock(&b->mu);
        return;
    }
    for (int i = 0; i < b->spin; i++)
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != g)
            return;
    pthread_mutex_lock(&b->mu);
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == g)
        pthread_cond_wait(&b->cv, &b->mu);
    pthread_mutex_unlock(&b->mu);
}

