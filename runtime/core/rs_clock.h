/*
 * rs_clock.h — the runtime's one clock: monotonic time, in seconds for the
 * wall times of runs, phases and variants, in nanoseconds where a
 * real-time loop counts deadlines.  Every reading of elapsed time in the
 * runtime goes through here (the phase timers, KLU's ordering trials, the
 * real-time pacer, sweeps, pools, progress lines), so that all of them
 * agree and a port to a target without POSIX clocks changes one file.
 *
 * Where CLOCK_MONOTONIC exists it is that clock (the real-time pacer sleeps
 * to absolute deadlines on it with clock_nanosleep, so the two must be the
 * same); otherwise C11's timespec_get, and lacking that the processor time
 * of clock().  The origin is arbitrary: only differences mean anything.
 * No allocation, thread-safe, plain C99.
 */
#ifndef RS_CLOCK_H
#define RS_CLOCK_H

#include <stdint.h>

/* Monotonic time in nanoseconds. */
int64_t rs_now_ns(void);

/* The same clock in seconds. */
double rs_now_s(void);

#endif /* RS_CLOCK_H */
