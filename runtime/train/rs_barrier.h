/*
 * rs_barrier.h — a reusable barrier for a fixed team of threads that polls
 * a bounded, adaptive number of times before it blocks (a futex on Linux,
 * a condition variable elsewhere).
 *
 * A pthread barrier always sleeps in the kernel, which costs microseconds
 * per pass; a train step passes a barrier between each of its parallel
 * sections (three per Krylov iteration), so the wait is usually short and
 * polling wins.  On a busy machine a partner is often descheduled for a
 * whole time slice, and polling for it burns the core it needs: the poll
 * budget halves after each wait that slept long (a partner a time slice
 * late) and doubles (up to `spin`) after each released while polling or
 * after a short sleep, so on an oversubscribed machine waiting threads give
 * their cores up almost at once, and on an idle one they keep polling.
 *
 * Opaque: it holds C11 atomics, which C++ code including runtime headers
 * cannot see.  No allocation after rs_barrier_create.
 */
#ifndef RS_BARRIER_H
#define RS_BARRIER_H

typedef struct rs_barrier rs_barrier;

/* A barrier for n >= 1 threads; `spin` polls before sleeping (>= 0).
 * RS_OK, RS_E_ARG or RS_E_NOMEM. */
int rs_barrier_create(rs_barrier **b, int n, int spin);
void rs_barrier_free(rs_barrier **b);

/* Returns when all n threads have called it (n == 1: at once).  A full
 * memory synchronization: what any thread wrote before it is visible to all
 * after it. */
void rs_barrier_wait(rs_barrier *b);

/* Waits so far that had to block (all threads together). */
long rs_barrier_sleeps(const rs_barrier *b);

#endif /* RS_BARRIER_H */
