/*
 * rs_assert.h — RS_ASSERT(cond): an internal invariant of the runtime, a
 * condition that only a bug in railsym can make false (a caller's bad
 * argument is RS_E_ARG, bad input a message; neither is an RS_ASSERT).
 *
 * The runtime never exits, aborts or prints, so a broken invariant must
 * not either: when cond is false the enclosing function returns
 * RS_E_INTERNAL, which the caller reports like any status.  RS_ASSERT can
 * therefore be used only in a function returning an rs_status (int), and
 * only where nothing needs releasing on the way out.
 *
 * A build with RS_DEBUG defined (-DRS_DEBUG, never a release library) also
 * runs assert(cond) first, so that a debugger stops where the invariant
 * broke instead of where the status surfaces.
 *
 * cond is evaluated once in release builds and twice with RS_DEBUG: keep
 * it free of side effects.  Plain C99.
 */
#ifndef RS_ASSERT_H
#define RS_ASSERT_H

#include "rs_status.h"

#if defined(RS_DEBUG)
#include <assert.h>
#define RS_ASSERT(cond)                 \
    do {                                \
        assert(cond);                   \
        if (!(cond))                    \
            return RS_E_INTERNAL;       \
    } while (0)
#else
#define RS_ASSERT(cond)                 \
    do {                                \
        if (!(cond))                    \
            return RS_E_INTERNAL;       \
    } while (0)
#endif

#endif /* RS_ASSERT_H */
