/*
 * rs_team.h — the threads of a chain solver's step (seed 002: rs_chain.h,
 * rs_hmm.h): T threads over n bodies in contiguous ranges, thread t owning
 * bodies start[t] .. start[t+1]−1, so that it exchanges only its boundary
 * bodies with threads t ± 1; a barrier between the phases inside a
 * section, and a pool of T threads (T tasks at most) that starts the
 * sections.
 *
 * The pieces are the solvers' own fields (their step code reads start[],
 * bar and pool directly); this sets them up and frees them, once.
 */
#ifndef RS_TEAM_H
#define RS_TEAM_H

#include <stddef.h>

#include "rs_barrier.h"
#include "rs_pool.h"

/* Allocates start[0..T] with the ranges of n bodies over T threads, a
 * barrier of T threads (spin as rs_barrier_create) and a pool of T threads.
 * On failure RS_E_NOMEM (or the pool's status), a message beginning with
 * WHO in err, and what was made is left for rs_team_free. */
int rs_team_create(int n, int T, int spin, int **start, rs_barrier **bar, rs_pool **pool, const char *who, char *err,
                   size_t errlen);

/* Stops the pool, frees the barrier and the ranges; sets all three NULL. */
void rs_team_free(int **start, rs_barrier **bar, rs_pool **pool);

#endif /* RS_TEAM_H */
