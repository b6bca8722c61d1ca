/*
 * rs_cores.c — see rs_cores.h.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S, CPU_ALLOC */

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_cores.h"

/* CPUs in the affinity mask; 0 when it cannot be read.  The set grows
 * until the kernel's mask fits (EINVAL: the set is smaller than the
 * kernel's CPU count).  Off Linux (no sched_getaffinity): the CPUs online. */
static int affinity_cpus(void)
{
#if !defined(__linux__)
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < INT_MAX ? (int)n : 0;
#else
    for (int n = 1024; n <= (1 << 20); n *= 2) {
        cpu_set_t *set = CPU_ALLOC((size_t)n);
        if (!set)
            return 0;
        const size_t size = CPU_ALLOC_SIZE((size_t)n);
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(0, size, set) == 0) {
            const int count = CPU_COUNT_S(size, set);
            CPU_FREE(set);
            return count;
        }
        const int why = errno;
        CPU_FREE(set);
        if (why != EINVAL)
            return 0;
    }
    return 0;
#endif
}

int rs_cores_parse_cpu_max(const char *text)
{
    if (!text)
        return -1;
    char quota[32], extra[2];
    long long period = 0;
    const int got = sscanf(text, "%31s %lld %1s", quota, &period, extra);
    if (got != 2 || period <= 0)
        return -1;
    if (strcmp(quota, "max") == 0)
        return 0;
    char *end = NULL;
    errno = 0;
    const long long q = strtoll(quota, &end, 10);
    if (errno || *end != '\0' || q <= 0)
        return -1;
    const long long cores = q / period + (q % period != 0);
    return cores > INT_MAX ? INT_MAX : (int)cores;
}

/* The first line of a small file into buf; 0, or -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    const int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

/* Lowers *limit to the quota of the cpu.max at `dir`/cpu.max, if any. */
static void v2_quota(const char *dir, int *limit)
{
    char path[4300], line[128];
    snprintf(path, sizeof path, "%s/cpu.max", dir);
    if (read_line(path, line, sizeof line) != 0)
        return;
    const int c = rs_cores_parse_cpu_max(line);
    if (c > 0 && (*limit == 0 || c < *limit))
        *limit = c;
}

/* The cores allowed by cgroup CPU quotas, 0 when none is set.  cgroup v2:
 * the process's own cgroup (the "0::PATH" line of /proc/self/cgroup) and
 * each ancestor up to the mount root, since a parent's quota binds its
 * children too.  cgroup v1: the cpu controller's files at its mount root
 * (what a container sees as its own). */
static int quota_cores(void)
{
    int limit = 0;
    char line[4096], dir[4200];
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "0::", 3) != 0)
                continue;
            line[strcspn(line, "\n")] = '\0';
            snprintf(dir, sizeof dir, "/sys/fs/cgroup%s", strcmp(line + 3, "/") == 0 ? "" : line + 3);
            for (;;) {
                v2_quota(dir, &limit);
                char *slash = strrchr(dir, '/');
                if (!slash || slash - dir < (long)strlen("/sys/fs/cgroup"))
                    break;
                *slash = '\0';
            }
            break;
        }
        fclose(f);
    }
    char q[64], p[64], text[160];
    if (read_line("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", q, sizeof q) == 0 &&
        read_line("/sys/fs/cgroup/cpu/cpu.cfs_period_us", p, sizeof p) == 0) {
        q[strcspn(q, "\n")] = '\0';
        p[strcspn(p, "\n")] = '\0';
        /* v1 says "-1" where v2 says "max" */
        snprintf(text, sizeof text, "%s %s", strcmp(q, "-1") == 0 ? "max" : q, p);
        const int c = rs_cores_parse_cpu_max(text);
        if (c > 0 && (limit == 0 || c < limit))
            limit = c;
    }
    return limit;
}

int rs_cores_usable(void)
{
    int cores = affinity_cpus();
    const int quota = quota_cores();
    if (quota > 0 && (cores <= 0 || quota < cores))
        cores = quota;
    return cores >= 1 ? cores : 1;
}

int rs_cores_cap(int requested, int *cores)
{
    const int usable = rs_cores_usable();
    if (cores)
        *cores = usable;
    if (requested < 1)
        return 1;
    return requested < usable ? requested : usable;
}
