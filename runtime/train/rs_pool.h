/*
 * rs_pool.h — a persistent thread pool for fork-join parallel sections,
 * balanced by the greedy longest-first rule (seed 000, §2.3 and §3).
 *
 *   rs_pool *p;  rs_pool_create(&p, 4, 256, err, sizeof err);
 *   rs_pool_plan(p, n, cost);              // sort by cost, least-loaded thread
 *   rs_pool_run(p, n, fn, ctx);            // fn(ctx, task, thread) for every task, then join
 *   rs_pool_plan(p, n, rs_pool_task_seconds(p));   // re-balance on measured costs
 *   rs_pool_run_dynamic(p, n, cost, fn, ctx);      // or: heaviest first to the next free thread
 *   rs_pool_parallel(p, fn, ctx);          // fn(ctx, thread, thread) once on each thread
 *   rs_pool_free(&p);
 *
 * The threads are created once and wait between sections.  A section is
 * two passes through one barrier: the caller publishes the job, every
 * thread (the caller is thread 0 and works too) passes the barrier, runs
 * its share, and passes it again; the caller returns after the second
 * pass, so everything written by the tasks is visible to it.
 *
 * Balancing (both from the seed):
 *   - static plan (rs_pool_plan): tasks sorted by decreasing cost; each goes
 *     to the thread with the least total so far (the first N to one thread
 *     each).  The plan stays until planned again, so a long run of sections
 *     (a train's steps) keeps each task on the same thread; plan again from
 *     rs_pool_task_seconds() when the measured costs drift.
 *   - dynamic (rs_pool_run_dynamic): tasks sorted by decreasing cost; each
 *     thread that becomes free takes the next one (an atomic counter).  For
 *     long tasks whose costs are uncertain (the variants of a sweep).
 *
 * No allocation after rs_pool_create: the plan, the order and the measured
 * times live in arrays of max_tasks entries; sorting is an in-place heap
 * sort (qsort may allocate).  Sections must not be started from two threads
 * at once, nor from inside a task.
 */
#ifndef RS_POOL_H
#define RS_POOL_H

#include <stddef.h>

typedef struct rs_pool rs_pool;

/* One task of a section: `task` in [0, n), `thread` in [0, threads). */
typedef void (*rs_pool_fn)(void *ctx, int task, int thread);

/* Creates a pool of `threads` threads (the caller counts as one, so
 * threads - 1 are started; 1 runs everything in the caller) able to run
 * sections of up to max_tasks tasks.  Returns RS_OK, RS_E_ARG or RS_E_NOMEM
 * (message in err, which may be NULL). */
int rs_pool_create(rs_pool **pool, int threads, int max_tasks, char *err, size_t errlen);

/* Stops and joins the threads, frees the pool, sets *pool = NULL. */
void rs_pool_free(rs_pool **pool);

int rs_pool_threads(const rs_pool *p);
int rs_pool_max_tasks(const rs_pool *p);

/* Measures the wall time of each task in the following sections (default
 * off: two clock reads per task). */
void rs_pool_set_timing(rs_pool *p, int on);

/* Greedy longest-first static plan of n tasks with the given costs (NULL:
 * all equal, i.e. round robin).  Ties are broken by the task index, so a
 * plan is deterministic.  Returns RS_OK or RS_E_ARG (n out of range). */
int rs_pool_plan(rs_pool *p, int n, const double *cost);

/* The thread the current plan gives `task` (-1 if none), and the planned
 * load of `thread` (the sum of its tasks' costs). */
int rs_pool_plan_thread(const rs_pool *p, int task);
double rs_pool_plan_load(const rs_pool *p, int thread);

/* Runs fn for every task of the current plan (which must have been made
 * for the same n) and returns when all are done.  RS_OK or RS_E_ARG. */
int rs_pool_run(rs_pool *p, int n, rs_pool_fn fn, void *ctx);

/* Runs fn for tasks 0..n-1, heaviest first (cost NULL: in index order),
 * each to the next free thread.  RS_OK or RS_E_ARG. */
int rs_pool_run_dynamic(rs_pool *p, int n, const double *cost, rs_pool_fn fn, void *ctx);

/* Runs fn(ctx, t, t) once on each thread t: a parallel section whose tasks
 * schedule their own work (a sweep's workers).  Returns RS_OK. */
int rs_pool_parallel(rs_pool *p, rs_pool_fn fn, void *ctx);

/* Wall time [s] of each task in the last section run with timing on
 * (max_tasks entries; tasks not run keep their previous value). */
const double *rs_pool_task_seconds(const rs_pool *p);

/* The order of tasks by decreasing cost, ties by index (the order both
 * balancing rules use): writes n indices into `order` and sorts in place
 * with a heap sort, so it never allocates. */
void rs_pool_sort_by_cost(int n, const double *cost, int *order);

#endif /* RS_POOL_H */
