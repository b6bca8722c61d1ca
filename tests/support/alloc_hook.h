/*
 * alloc_hook.h — the malloc family interposed, for the tests that prove a
 * step allocates nothing and that creation survives each failed allocation
 * (tests/unit/test_rt_alloc.c, tests/unit/test_train_alloc.c).
 *
 * tests/support/alloc_hook.c defines malloc, calloc, realloc, free,
 * posix_memalign and aligned_alloc, so every allocation of the process — the
 * runtime's, KLU's, libc's — passes through them; they forward to the next
 * definition (libc's, or the sanitizer's) found with dlsym(RTLD_NEXT).
 * dlsym itself may allocate before the forwarders are known: those requests
 * are served from a small static arena.
 *
 * Because it replaces the allocator of the whole program, alloc_hook.c is
 * not linked into every test program like the other tests/support/ files:
 * the Makefile links it into the programs that include this header only.
 */
#ifndef ALLOC_HOOK_H
#define ALLOC_HOOK_H

#include <pthread.h>

extern volatile int alloc_hook_counting;  /* count calls while set             */
extern volatile long alloc_hook_calls;    /* allocation-family calls counted   */
extern volatile long alloc_hook_fail_at;  /* fail the fail_at-th allocation (-1: none) */
extern volatile long alloc_hook_allocs;   /* allocations seen since reset      */

/* When set, failures are injected (and allocations numbered) on
 * alloc_hook_thread only: a pool thread starting meanwhile allocates inside
 * glibc and ASan (its stack attributes), where a failure aborts the
 * sanitizer instead of testing the code under test; and which of two
 * threads allocates k-th is a race. */
extern volatile int alloc_hook_one_thread;
extern pthread_t alloc_hook_thread;

/* Finds the forwarders now (the first allocation does it otherwise). */
void alloc_hook_resolve(void);

#endif /* ALLOC_HOOK_H */
