/*
 * rs_rt.h — hard real-time pacing and evidence: a periodic loop on the
 * monotonic clock with absolute deadlines, step-time histograms, and the
 * best-effort system settings (memory locking, SCHED_FIFO, core pinning).
 * docs/realtime.md says how to get good figures and what they mean.
 *
 * An embedded loop (no driver, no allocation, no I/O):
 *
 *   static rs_realtime_loop L;                 // ~55 KB: static or heap, not a small stack
 *   rs_realtime_init(&L, 1e-3, RS_REALTIME_CPU_TIME);
 *   rs_realtime_start(&L);                     // tick 0 = now; deadline k = t0 + k·period
 *   for (;;) {
 *       rs_realtime_begin(&L);
 *       int st = rs_step(ws);            // the work of one period
 *       rs_realtime_end(&L);                   // step wall (and CPU) time -> histograms
 *       if (st) break;
 *       rs_realtime_wait(&L);                  // absolute sleep to the next deadline
 *   }
 *   rs_realtime_stats s; rs_realtime_get_stats(&L, &s);   // median, p99, p99.9, max, misses
 *
 * Deadlines.  Tick k's deadline is t0 + k·period, computed from k (never by
 * adding periods), so the schedule does not drift.  rs_realtime_wait_ticks(L, n)
 * advances n ticks at once (pacing once per output interval of n steps).
 * When the work ends after its deadline the period is a *miss*: the wait
 * returns at once without sleeping, and the schedule is kept (the next
 * deadlines do not move), so the loop catches up and simulated time stays
 * locked to the wall clock.  Sleeps are clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME), restarted on EINTR with the same deadline.
 *
 * Histograms.  Durations are recorded in integer nanoseconds in a fixed
 * log-linear histogram (HdrHistogram-like): exact below 128 ns, then 64
 * bins per power of two, so a reported quantile is within 1/128 (0.8 %) of
 * the exact nearest-rank value; min, max, count and sum are exact.  Values
 * up to 2^41 ns (~36 min) are resolved; larger ones go to the top bin (max
 * stays exact).  Recording is O(1) and allocation-free.
 *
 * Threads: a loop or histogram belongs to one thread.  Nothing here calls
 * exit, abort, malloc or prints; errors are rs_status codes.
 */
#ifndef RS_REALTIME_H
#define RS_REALTIME_H

#include <stddef.h>
#include <stdint.h>

#include "rs_status.h"

/* ---- histogram --------------------------------------------------------- */

#define RS_REALTIME_HIST_SUB 128          /* exact bins below this many ns        */
#define RS_REALTIME_HIST_MAX_EXP 40       /* highest power of two resolved (2^40) */
#define RS_REALTIME_HIST_BINS (64 * (RS_REALTIME_HIST_MAX_EXP - 6) + 128)

typedef struct rs_realtime_hist {
    uint64_t count;
    int64_t min_ns, max_ns;         /* exact; valid when count > 0          */
    double sum_ns;                  /* exact up to 2^53 ns in all           */
    uint64_t bin[RS_REALTIME_HIST_BINS];
} rs_realtime_hist;

void rs_realtime_hist_reset(rs_realtime_hist *h);

/* Records one duration (negative values count as 0). */
void rs_realtime_hist_add(rs_realtime_hist *h, int64_t ns);

/* The nearest-rank p-quantile (p in [0, 1]): the value of rank
 * max(1, ceil(p·count)) in sorted order, as the midpoint of its bin clamped
 * to [min, max] (rank 1 gives min, rank count gives max, exactly).  0 when
 * the histogram is empty. */
int64_t rs_realtime_hist_quantile(const rs_realtime_hist *h, double p);

/* Bin of a value and the values a bin holds, [*lo, *lo + *width). */
int rs_realtime_hist_bin_of(int64_t ns);
void rs_realtime_hist_bin_range(int bin, int64_t *lo, int64_t *width);

/* A histogram in microseconds. */
typedef struct rs_realtime_summary {
    long count;
    double min_us, mean_us, p50_us, p99_us, p999_us, max_us;
} rs_realtime_summary;

void rs_realtime_hist_summary(const rs_realtime_hist *h, rs_realtime_summary *s);

/* ---- the periodic loop ------------------------------------------------- */

/* Flags of rs_realtime_init. */
#define RS_REALTIME_CPU_TIME 1u   /* also record each step's thread CPU time (one
                               extra clock read of ~0.1-0.5 µs per mark)   */

typedef struct rs_realtime_loop {
    double period_s;           /* one tick                                  */
    unsigned flags;
    int64_t t0_ns;             /* CLOCK_MONOTONIC at rs_realtime_start            */
    long tick;                 /* ticks waited for so far                   */
    long waits;                /* rs_realtime_wait* calls                         */
    int64_t mark_wall_ns, mark_cpu_ns;   /* set by rs_realtime_begin              */
    long misses;               /* waits whose deadline had already passed   */
    int64_t lateness_max_ns;   /* worst (end of work − deadline) of a miss  */
    int64_t elapsed_ns;        /* from t0 to the end of the last wait/end   */
    rs_realtime_hist wall;           /* step wall time, rs_realtime_begin .. rs_realtime_end  */
    rs_realtime_hist cpu;            /* step thread CPU time (RS_REALTIME_CPU_TIME)     */
    rs_realtime_hist wake;           /* wake-up latency: return of the sleep −
                                  deadline (the OS's jitter, cyclictest's
                                  figure)                                   */
} rs_realtime_loop;

/* Sets the period (> 0 and finite, else RS_E_ARG) and flags; clears the
 * histograms and counters.  Starts nothing. */
int rs_realtime_init(rs_realtime_loop *L, double period_s, unsigned flags);

/* Tick 0 is now; the first deadline is one period later. */
void rs_realtime_start(rs_realtime_loop *L);

/* Marks the start and end of one step of work; rs_realtime_end records its wall
 * (and CPU) duration. */
void rs_realtime_begin(rs_realtime_loop *L);
void rs_realtime_end(rs_realtime_loop *L);

/* Waits for the deadline `ticks` (>= 1) periods after the last one waited
 * for: returns RS_OK after sleeping until it, RS_STOPPED (1) for a miss
 * (the deadline had passed: no sleep, the miss is counted), RS_E_ARG for
 * ticks < 1, RS_E_UNSUPPORTED when the clock cannot sleep. */
int rs_realtime_wait_ticks(rs_realtime_loop *L, long ticks);
int rs_realtime_wait(rs_realtime_loop *L);   /* rs_realtime_wait_ticks(L, 1) */

/* Nanoseconds of this thread's CPU time.  (Wall time: rs_now_ns of
 * rs_clock.h, CLOCK_MONOTONIC, the clock the deadlines are slept to.) */
int64_t rs_realtime_cpu_ns(void);

typedef struct rs_realtime_stats {
    double period_s;
    long ticks;                /* deadlines passed (waited for)             */
    long waits, misses;        /* rs_realtime_wait* calls, and those that missed  */
    double lateness_max_us;    /* worst lateness of a missed deadline       */
    double elapsed_s;          /* wall time from rs_realtime_start to the end     */
    rs_realtime_summary wall, cpu, wake;
} rs_realtime_stats;

void rs_realtime_get_stats(const rs_realtime_loop *L, rs_realtime_stats *s);

/* Writes the stats as machine-readable lines into buf, one per figure:
 *   RT <prefix>.<figure> <value> <unit>
 * figures: period_us, steps, waits, misses, lateness_max_us, elapsed_s,
 * step_{min,median,p99,p999,max,mean}_us, cpu_{…}_us (when recorded),
 * wake_{median,p99,p999,max}_us.  Returns the length it needed (snprintf's
 * convention). */
int rs_realtime_stats_lines(const rs_realtime_stats *s, const char *prefix, char *buf, size_t len);

/* A two-to-four-line human summary (same convention). */
int rs_realtime_stats_text(const rs_realtime_stats *s, char *buf, size_t len);

/* ---- best-effort system settings (Linux; elsewhere RS_E_UNSUPPORTED) ---- */

/* mlockall(MCL_CURRENT | MCL_FUTURE) and pre-faults `stack_bytes` of this
 * thread's stack, so no page fault hits a step.  RS_E_PERM when refused
 * (no CAP_IPC_LOCK and RLIMIT_MEMLOCK too small); err says what to do. */
int rs_realtime_lock_memory(size_t stack_bytes, char *err, size_t errlen);

/* SCHED_FIFO at `priority` (1..99) for the calling thread.  RS_E_PERM
 * without CAP_SYS_NICE / RLIMIT_RTPRIO; RS_E_ARG for a bad priority. */
int rs_realtime_set_fifo(int priority, char *err, size_t errlen);

/* Pins the calling thread to CPU `cpu`.  RS_E_ARG when the CPU does not
 * exist or is not in the allowed set (cgroup/cpuset); RS_E_PERM when
 * refused. */
int rs_realtime_pin_cpu(int cpu, char *err, size_t errlen);

/* munlockall (after rs_realtime_lock_memory). */
void rs_realtime_unlock_memory(void);

/* The calling thread's scheduling policy, priority and CPU affinity, saved
 * before the settings above and restored after a run (a library caller's
 * thread is left as it was). */
typedef struct rs_realtime_saved {
    int have_sched, policy, priority;
    int have_affinity;
    unsigned char affinity[128];   /* a cpu_set_t (1024 CPUs)               */
} rs_realtime_saved;

void rs_realtime_save(rs_realtime_saved *s);
void rs_realtime_restore(const rs_realtime_saved *s);

#endif /* RS_REALTIME_H */
