/*
 * rs_cores.h — how many cores this process may use, so that a request for
 * more threads than that is capped instead of oversubscribing the machine.
 *
 *   int cores;
 *   const int used = rs_cores_cap(64, &cores);   // 2 on a 2-core machine
 *
 * The count is the number of CPUs in the process's affinity mask
 * (sched_getaffinity: taskset, cpusets, a container's CPU set), lowered by a
 * cgroup CPU quota where one is set: cgroup v2 `cpu.max` ("QUOTA PERIOD" or
 * "max PERIOD") of the process's cgroup and its ancestors, or cgroup v1
 * `cpu.cfs_quota_us` / `cpu.cfs_period_us`; a quota allows
 * ceil(QUOTA / PERIOD) cores.  Barrier-synchronized workers beyond that
 * count wait for each other's time slices: a train step on 64 threads of a
 * 2-core machine ran 20 times slower than on one.
 *
 * Nothing here prints or allocates more than a CPU set; it reads at most a
 * few small files of /proc and /sys.
 */
#ifndef RS_CORES_H
#define RS_CORES_H

/* Cores this process may use now, >= 1 (1 when nothing can be read). */
int rs_cores_usable(void);

/* The text of a cgroup v2 cpu.max file ("150000 100000\n"): the cores the
 * quota allows, ceil(QUOTA / PERIOD) >= 1; 0 for no limit ("max PERIOD");
 * -1 for text it does not understand (a missing period, a quota or period
 * <= 0, trailing words). */
int rs_cores_parse_cpu_max(const char *text);

/* The threads to run for a request of `requested` (>= 1): at most the
 * usable cores.  *cores (may be NULL) receives rs_cores_usable(). */
int rs_cores_cap(int requested, int *cores);

#endif /* RS_CORES_H */
