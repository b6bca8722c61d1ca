/*
 * rs_alloc.h — the runtime's one allocation contract.
 *
 * Every allocation of the runtime itself (workspace, KLU pattern, fixed LU,
 * contact workspace, train layers) goes through rs_alloc / rs_free with the
 * caller's rs_allocator; KLU's own objects come from SuiteSparse's
 * configuration.  Set-up only: a step allocates nothing.
 *
 * The contract, stated once:
 *   - An injected allocator sets both alloc and release (ctx is theirs).
 *     If either is NULL, calloc/free are used instead.
 *   - alloc(ctx, size) returns size bytes aligned for any type, or NULL.
 *     It need NOT zero them (a pool or malloc will do): rs_alloc zeroes
 *     what it returns, so callers can rely on zeroed memory whatever the
 *     allocator (tests/unit/test_rt_alloc.c injects one that fills its
 *     blocks with garbage).
 *   - release(ctx, p) is called once for each non-NULL block, never with
 *     NULL.
 */
#ifndef RS_ALLOC_H
#define RS_ALLOC_H

#include <stddef.h>

typedef struct rs_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void (*release)(void *ctx, void *ptr);
    void *ctx;
} rs_allocator;

/* n × size bytes, zeroed, from `a` (a NULL, or either function NULL:
 * calloc).  n == 0 gives a valid one-element block, so an empty array is
 * still a pointer to free.  NULL when n × size overflows or the allocator
 * fails. */
void *rs_alloc(const rs_allocator *a, size_t n, size_t size);

/* Gives back a block of rs_alloc with the same `a` (p NULL: nothing). */
void rs_free(const rs_allocator *a, void *p);

#endif /* RS_ALLOC_H */
