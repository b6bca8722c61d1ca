/*
 * alloc_hook.c — the malloc family interposed (alloc_hook.h says why and
 * who links it).
 */
#define _GNU_SOURCE
#include "alloc_hook.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

volatile int alloc_hook_counting;
volatile long alloc_hook_calls;
volatile long alloc_hook_fail_at = -1;
volatile long alloc_hook_allocs;
volatile int alloc_hook_one_thread;
pthread_t alloc_hook_thread;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

static _Alignas(16) char arena[1 << 16];
static size_t arena_used;
static int resolving;

void alloc_hook_resolve(void)
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
    if (alloc_hook_counting)
        alloc_hook_calls++;
    if (alloc_hook_fail_at < 0)
        return 0;
    if (alloc_hook_one_thread && !pthread_equal(pthread_self(), alloc_hook_thread))
        return 0;
    if (alloc_hook_allocs++ != alloc_hook_fail_at)
        return 0;
    errno = ENOMEM; /* as libc's would; glibc's pthread_create asserts it */
    return 1;
}

void *malloc(size_t n)
{
    alloc_hook_resolve();
    if (!real_malloc)
        return arena_alloc(n);
    return note_alloc() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    alloc_hook_resolve();
    if (!real_calloc)
        return arena_alloc(a * b); /* static arena is zeroed */
    return note_alloc() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    alloc_hook_resolve();
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
    if (alloc_hook_counting)
        alloc_hook_calls++;
    alloc_hook_resolve();
    real_free(p);
}

int posix_memalign(void **p, size_t al, size_t n)
{
    alloc_hook_resolve();
    return note_alloc() ? ENOMEM : real_posix_memalign(p, al, n);
}

void *aligned_alloc(size_t al, size_t n)
{
    alloc_hook_resolve();
    return note_alloc() ? NULL : real_aligned_alloc(al, n);
}
