/*
 * rs_alloc.c — see rs_alloc.h.
 */
#include <stdlib.h>
#include <string.h>

#include "rs_alloc.h"

/* An allocator is used only whole: half of one would free with the wrong
 * function. */
static int injected(const rs_allocator *a)
{
    return a && a->alloc && a->release;
}

void *rs_alloc(const rs_allocator *a, size_t n, size_t size)
{
    if (n == 0)
        n = 1;
    if (size == 0)
        size = 1;
    if (n > (size_t)-1 / size)
        return NULL;
    if (!injected(a))
        return calloc(n, size);
    void *p = a->alloc(a->ctx, n * size);
    if (p)   /* the contract does not ask the allocator to zero: we do */
        memset(p, 0, n * size);
    return p;
}

void rs_free(const rs_allocator *a, void *p)
{
    if (!p)
        return;
    if (injected(a))
        a->release(a->ctx, p);
    else
        free(p);
}
