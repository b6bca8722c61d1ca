/*
 * rs_clock.c — see rs_clock.h.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <time.h>

#include "rs_clock.h"

int64_t rs_now_ns(void)
{
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
#elif defined(TIME_UTC)
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
#else
    return (int64_t)((double)clock() * (1e9 / (double)CLOCKS_PER_SEC));
#endif
}

double rs_now_s(void)
{
    return 1e-9 * (double)rs_now_ns();
}
