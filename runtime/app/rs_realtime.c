/*
 * rs_rt.c — see rs_rt.h.
 *
 * Invariants: nothing here allocates, prints or exits; every function that
 * runs inside a loop (begin, end, wait, hist_add) is O(1) apart from the
 * sleep itself.  The histogram layout (bin_of / bin_range) is the one
 * documented in rs_rt.h; the tests check quantiles against exact ones.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#else
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "rs_clock.h"
#include "rs_error.h"
#include "rs_realtime.h"

/* ---- histogram --------------------------------------------------------- */

/* Values below 2^(RS_REALTIME_HIST_MAX_EXP+1) are resolved. */
#define HIST_LIMIT ((int64_t)1 << (RS_REALTIME_HIST_MAX_EXP + 1))

static int msb64(uint64_t v) /* v > 0 */
{
#if defined(__GNUC__)
    return 63 - __builtin_clzll(v);
#else
    int r = 0;
    while (v >>= 1)
        r++;
    return r;
#endif
}

int rs_realtime_hist_bin_of(int64_t ns)
{
    if (ns < 0)
        ns = 0;
    if (ns >= HIST_LIMIT)
        ns = HIST_LIMIT - 1;
    if (ns < RS_REALTIME_HIST_SUB)
        return (int)ns;
    /* ns in [2^b, 2^(b+1)), b >= 7: bins of width 2^e, e = b − 6, and the
     * mantissa ns >> e in [64, 128): bin 64 e + mantissa, contiguous with
     * the exact bins (b = 7 starts at 128). */
    const int e = msb64((uint64_t)ns) - 6;
    return 64 * e + (int)(ns >> e);
}

void rs_realtime_hist_bin_range(int bin, int64_t *lo, int64_t *width)
{
    if (bin < RS_REALTIME_HIST_SUB) {
        *lo = bin;
        *width = 1;
        return;
    }
    const int e = bin / 64 - 1;
    *lo = (int64_t)(bin - 64 * e) << e;
    *width = (int64_t)1 << e;
}

void rs_realtime_hist_reset(rs_realtime_hist *h)
{
    memset(h, 0, sizeof *h);
}

void rs_realtime_hist_add(rs_realtime_hist *h, int64_t ns)
{
    if (ns < 0)
        ns = 0;
    if (h->count == 0 || ns < h->min_ns)
        h->min_ns = ns;
    if (h->count == 0 || ns > h->max_ns)
        h->max_ns = ns;
    h->count++;
    h->sum_ns += (double)ns;
    h->bin[rs_realtime_hist_bin_of(ns)]++;
}

int64_t rs_realtime_hist_quantile(const rs_realtime_hist *h, double p)
{
    if (h->count == 0)
        return 0;
    if (!(p > 0))
        p = 0;
    if (p > 1)
        p = 1;
    /* nearest rank: the smallest r with r >= p·count, at least 1 */
    uint64_t r = (uint64_t)ceil(p * (double)h->count);
    if (r < 1)
        r = 1;
    if (r >= h->count)
        return h->max_ns;
    if (r == 1)
        return h->min_ns;
    uint64_t cum = 0;
    for (int b = 0; b < RS_REALTIME_HIST_BINS; b++) {
        cum += h->bin[b];
        if (cum >= r) {
            int64_t lo, w;
            rs_realtime_hist_bin_range(b, &lo, &w);
            int64_t v = lo + w / 2; /* middle of the bin: within w/2 <= lo/128 of any member */
            if (v < h->min_ns)
                v = h->min_ns;
            if (v > h->max_ns)
                v = h->max_ns;
            return v;
        }
    }
    return h->max_ns; /* not reached: the bins add up to count */
}

void rs_realtime_hist_summary(const rs_realtime_hist *h, rs_realtime_summary *s)
{
    memset(s, 0, sizeof *s);
    s->count = (long)h->count;
    if (!h->count)
        return;
    s->min_us = 1e-3 * (double)h->min_ns;
    s->max_us = 1e-3 * (double)h->max_ns;
    s->mean_us = 1e-3 * h->sum_ns / (double)h->count;
    s->p50_us = 1e-3 * (double)rs_realtime_hist_quantile(h, 0.5);
    s->p99_us = 1e-3 * (double)rs_realtime_hist_quantile(h, 0.99);
    s->p999_us = 1e-3 * (double)rs_realtime_hist_quantile(h, 0.999);
}

/* ---- clocks and the loop ------------------------------------------------ */

static int64_t ts_ns(const struct timespec *ts)
{
    return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

int64_t rs_realtime_cpu_ns(void)
{
    struct timespec ts;
#if defined(CLOCK_THREAD_CPUTIME_ID)
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return ts_ns(&ts);
#endif
    return 0;
}

int rs_realtime_init(rs_realtime_loop *L, double period_s, unsigned flags)
{
    if (!L || !(period_s > 0) || !isfinite(period_s) || period_s > 1e6)
        return RS_E_ARG;
    memset(L, 0, sizeof *L);
    L->period_s = period_s;
    L->flags = flags;
    return RS_OK;
}

void rs_realtime_start(rs_realtime_loop *L)
{
    L->t0_ns = rs_now_ns();
    L->tick = 0;
}

void rs_realtime_begin(rs_realtime_loop *L)
{
    L->mark_wall_ns = rs_now_ns();
    if (L->flags & RS_REALTIME_CPU_TIME)
        L->mark_cpu_ns = rs_realtime_cpu_ns();
}

void rs_realtime_end(rs_realtime_loop *L)
{
    const int64_t now = rs_now_ns();
    if (L->flags & RS_REALTIME_CPU_TIME)
        rs_realtime_hist_add(&L->cpu, rs_realtime_cpu_ns() - L->mark_cpu_ns);
    rs_realtime_hist_add(&L->wall, now - L->mark_wall_ns);
    L->elapsed_ns = now - L->t0_ns;
}

int rs_realtime_wait_ticks(rs_realtime_loop *L, long ticks)
{
    if (ticks < 1)
        return RS_E_ARG;
    L->tick += ticks;
    L->waits++;
    /* from the tick count, so the schedule never drifts */
    const int64_t deadline = L->t0_ns + (int64_t)llround((double)L->tick * L->period_s * 1e9);
    int64_t now = rs_now_ns();
    if (now > deadline) {
        L->misses++;
        if (now - deadline > L->lateness_max_ns)
            L->lateness_max_ns = now - deadline;
        L->elapsed_ns = now - L->t0_ns;
        return RS_STOPPED;
    }
    struct timespec ts;
    ts.tv_sec = (time_t)(deadline / 1000000000);
    ts.tv_nsec = (long)(deadline % 1000000000);
    int rc;
    /* absolute: an interrupted sleep restarts towards the same deadline */
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR) {
    }
    if (rc != 0)
        return RS_E_UNSUPPORTED;
    now = rs_now_ns();
    rs_realtime_hist_add(&L->wake, now - deadline);
    L->elapsed_ns = now - L->t0_ns;
    return RS_OK;
}

int rs_realtime_wait(rs_realtime_loop *L)
{
    return rs_realtime_wait_ticks(L, 1);
}

void rs_realtime_get_stats(const rs_realtime_loop *L, rs_realtime_stats *s)
{
    memset(s, 0, sizeof *s);
    s->period_s = L->period_s;
    s->ticks = L->tick;
    s->waits = L->waits;
    s->misses = L->misses;
    s->lateness_max_us = 1e-3 * (double)L->lateness_max_ns;
    s->elapsed_s = 1e-9 * (double)L->elapsed_ns;
    rs_realtime_hist_summary(&L->wall, &s->wall);
    rs_realtime_hist_summary(&L->cpu, &s->cpu);
    rs_realtime_hist_summary(&L->wake, &s->wake);
}

/* ---- formatting --------------------------------------------------------- */

/* snprintf into buf at *n, tracking the length needed. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void put(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(*n < len ? buf + *n : NULL, *n < len ? len - *n : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n += (size_t)k;
}

static void put_summary(char *buf, size_t len, size_t *n, const char *prefix, const char *what,
                        const rs_realtime_summary *m, int full)
{
    if (full) {
        put(buf, len, n, "RT %s.%s_min_us %.3f us\n", prefix, what, m->min_us);
        put(buf, len, n, "RT %s.%s_mean_us %.3f us\n", prefix, what, m->mean_us);
    }
    put(buf, len, n, "RT %s.%s_median_us %.3f us\n", prefix, what, m->p50_us);
    put(buf, len, n, "RT %s.%s_p99_us %.3f us\n", prefix, what, m->p99_us);
    put(buf, len, n, "RT %s.%s_p999_us %.3f us\n", prefix, what, m->p999_us);
    put(buf, len, n, "RT %s.%s_max_us %.3f us\n", prefix, what, m->max_us);
}

int rs_realtime_stats_lines(const rs_realtime_stats *s, const char *prefix, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    if (!prefix || !*prefix)
        prefix = "rt";
    put(buf, len, &n, "RT %s.period_us %.3f us\n", prefix, s->period_s * 1e6);
    put(buf, len, &n, "RT %s.steps %ld count\n", prefix, s->wall.count);
    put(buf, len, &n, "RT %s.waits %ld count\n", prefix, s->waits);
    put(buf, len, &n, "RT %s.misses %ld count\n", prefix, s->misses);
    put(buf, len, &n, "RT %s.lateness_max_us %.3f us\n", prefix, s->lateness_max_us);
    put(buf, len, &n, "RT %s.elapsed_s %.6f s\n", prefix, s->elapsed_s);
    put_summary(buf, len, &n, prefix, "step", &s->wall, 1);
    if (s->cpu.count)
        put_summary(buf, len, &n, prefix, "cpu", &s->cpu, 1);
    put_summary(buf, len, &n, prefix, "wake", &s->wake, 0);
    return (int)n;
}

int rs_realtime_stats_text(const rs_realtime_stats *s, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    put(buf, len, &n,
        "real time: %ld steps, period %.4g ms, %ld deadlines, %ld missed (%.3g %%)",
        s->wall.count, s->period_s * 1e3, s->waits, s->misses,
        s->waits ? 100.0 * (double)s->misses / (double)s->waits : 0.0);
    if (s->misses)
        put(buf, len, &n, ", worst %.1f us late", s->lateness_max_us);
    put(buf, len, &n, "\n  step wall us: median %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
        s->wall.p50_us, s->wall.p99_us, s->wall.p999_us, s->wall.max_us);
    if (s->cpu.count)
        put(buf, len, &n, "  step cpu  us: median %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
            s->cpu.p50_us, s->cpu.p99_us, s->cpu.p999_us, s->cpu.max_us);
    if (s->wake.count)
        put(buf, len, &n, "  wake-up latency us: median %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
            s->wake.p50_us, s->wake.p99_us, s->wake.p999_us, s->wake.max_us);
    return (int)n;
}

/* ---- system settings ---------------------------------------------------- */

#if defined(__linux__)
static int sys_fail(int err_no, char *err, size_t errlen, const char *what, const char *fix)
{
    const int st = (err_no == EPERM || err_no == EACCES || err_no == ENOMEM) ? RS_E_PERM
                   : err_no == EINVAL                                     ? RS_E_ARG
                                                                          : RS_E_UNSUPPORTED;
    return rs_fail(err, errlen, st, "%s: %s%s%s", what, strerror(err_no), st == RS_E_PERM ? "; " : "",
                   st == RS_E_PERM ? fix : "");
}

/* Touches `bytes` of stack below the caller so its pages are resident. */
static void prefault_stack(size_t bytes)
{
    enum { CHUNK = 4096 };
    volatile unsigned char page[CHUNK];
    for (size_t i = 0; i < CHUNK; i += 64)
        page[i] = 0;
    if (bytes > CHUNK)
        prefault_stack(bytes - CHUNK);
    (void)page[0];
}

int rs_realtime_lock_memory(size_t stack_bytes, char *err, size_t errlen)
{
    if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
        return sys_fail(errno, err, errlen, "mlockall",
                        "run as root, give the program CAP_IPC_LOCK, or raise the "
                        "memlock limit (ulimit -l unlimited, /etc/security/limits.conf)");
    if (stack_bytes > (size_t)1 << 24)
        stack_bytes = (size_t)1 << 24;
    prefault_stack(stack_bytes);
    return RS_OK;
}

int rs_realtime_set_fifo(int priority, char *err, size_t errlen)
{
    const int lo = sched_get_priority_min(SCHED_FIFO), hi = sched_get_priority_max(SCHED_FIFO);
    if (priority < lo || priority > hi)
        return rs_fail(err, errlen, RS_E_ARG, "SCHED_FIFO priority %d is outside %d..%d", priority, lo, hi);
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    sp.sched_priority = priority;
    const int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    if (rc != 0)
        return sys_fail(rc, err, errlen, "SCHED_FIFO",
                        "run as root, give the program CAP_SYS_NICE, or raise RLIMIT_RTPRIO "
                        "(ulimit -r); in a container, it also needs --cap-add=SYS_NICE");
    return RS_OK;
}

int rs_realtime_pin_cpu(int cpu, char *err, size_t errlen)
{
    const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (cpu < 0 || cpu >= CPU_SETSIZE || (ncpu > 0 && cpu >= ncpu))
        return rs_fail(err, errlen, RS_E_ARG, "CPU %d does not exist (this machine has %ld)", cpu, ncpu);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    const int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (rc != 0) {
        if (rc == EINVAL)
            return rs_fail(err, errlen, RS_E_ARG, "CPU %d is not in this process's allowed set "
                           "(cpuset/cgroup or taskset): choose another", cpu);
        return sys_fail(rc, err, errlen, "CPU affinity", "check the cgroup's cpuset");
    }
    return RS_OK;
}
void rs_realtime_unlock_memory(void)
{
    munlockall();
}

void rs_realtime_save(rs_realtime_saved *s)
{
    memset(s, 0, sizeof *s);
    struct sched_param sp;
    if (pthread_getschedparam(pthread_self(), &s->policy, &sp) == 0) {
        s->have_sched = 1;
        s->priority = sp.sched_priority;
    }
    _Static_assert(sizeof(cpu_set_t) <= sizeof s->affinity, "cpu_set_t fits");
    cpu_set_t set;
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) == 0) {
        s->have_affinity = 1;
        memcpy(s->affinity, &set, sizeof set);
    }
}

void rs_realtime_restore(const rs_realtime_saved *s)
{
    if (s->have_sched) {
        struct sched_param sp;
        memset(&sp, 0, sizeof sp);
        sp.sched_priority = s->priority;
        pthread_setschedparam(pthread_self(), s->policy, &sp);
    }
    if (s->have_affinity) {
        cpu_set_t set;
        memcpy(&set, s->affinity, sizeof set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
}
#else
void rs_realtime_unlock_memory(void) {}

void rs_realtime_save(rs_realtime_saved *s)
{
    memset(s, 0, sizeof *s);
}

void rs_realtime_restore(const rs_realtime_saved *s)
{
    (void)s;
}

static int unsupported(char *err, size_t errlen, const char *what)
{
    return rs_fail(err, errlen, RS_E_UNSUPPORTED, "%s is not supported on this system (Linux only)", what);
}

int rs_realtime_lock_memory(size_t stack_bytes, char *err, size_t errlen)
{
    (void)stack_bytes;
    return unsupported(err, errlen, "memory locking");
}

int rs_realtime_set_fifo(int priority, char *err, size_t errlen)
{
    (void)priority;
    return unsupported(err, errlen, "SCHED_FIFO");
}

int rs_realtime_pin_cpu(int cpu, char *err, size_t errlen)
{
    (void)cpu;
    return unsupported(err, errlen, "CPU pinning");
}
#endif
