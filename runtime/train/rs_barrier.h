/*
 * rs_barrier.h — a reusable barrier for a fixed team of threads that spins
 * a bounded number of polls before it sleeps on a condition variable.
 *
 * A pthread barrier always sleeps in the kernel, which costs microseconds
 * per pass; a train step passes a barrier between each of its parallel
 * sections (three per Krylov iteration), so the wait is usually short and
 * spinning wins.  Bounded spinning keeps the cost low when a thread is
 * descheduled (an oversubscribed machine) or a wait is long (a sweep).
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

#endif /* RS_BARRIER_H */
