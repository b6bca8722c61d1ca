/*
 * rs_pool.c — see rs_pool.h.
 *
 * One barrier of `threads` parties carries every section: pass 1
 * releases the workers onto the published job, pass 2 joins them.  A
 * barrier wait is a full memory synchronization, so the job fields need no
 * atomics; only the dynamic rule's shared counter is atomic.  The barrier
 * (rs_barrier.h) spins briefly before it sleeps, so the short sections of
 * a train step (rs_park.h) do not pay a kernel round trip each.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rs_barrier.h"
#include "rs_clock.h"
#include "rs_error.h"
#include "rs_pool.h"
#include "rs_status.h"

enum { MODE_PLAN, MODE_DYNAMIC, MODE_PARALLEL };

/* Barrier polls before sleeping, at most (tens of microseconds; the
 * barrier lowers its budget when waits keep ending asleep, as on a busy
 * machine): a train step passes a dozen barriers, and a sleep and wake-up
 * costs 20 us. */
enum { POOL_SPIN = 50000 };

struct rs_pool {
    int threads, max_tasks;
    pthread_t *tid;            /* threads - 1 workers (thread 1..)              */
    int started;               /* workers actually started                       */
    rs_barrier *bar;
    int quit;
    /* start gate: workers wait here until every one of them exists (go = 1)
     * or creation failed (go = -1), so a pool never waits on a barrier that
     * cannot fill */
    pthread_mutex_t gate_mu;
    pthread_cond_t gate_cv;
    int have_gate;
    int go;

    /* the current section */
    int mode, n;
    rs_pool_fn fn;
    void *ctx;
    atomic_int next;           /* dynamic rule: next position in `order`        */
    int timing;

    int *order;                /* max_tasks: tasks by decreasing cost           */
    int *plan_thread;          /* max_tasks: thread of each task                */
    int *plan_list;            /* max_tasks: tasks grouped by thread            */
    int *plan_start;           /* threads + 1 offsets into plan_list            */
    int plan_n;                /* n of the current plan, -1: none               */
    double *load;              /* threads: planned load                         */
    double *seconds;           /* max_tasks: measured wall time                 */
};

static void run_task(rs_pool *p, int task, int thread)
{
    if (p->timing) {
        const double t0 = rs_now_s();
        p->fn(p->ctx, task, thread);
        p->seconds[task] = rs_now_s() - t0;
    } else {
        p->fn(p->ctx, task, thread);
    }
}

/* This thread's share of the current section. */
static void do_share(rs_pool *p, int thread)
{
    switch (p->mode) {
    case MODE_PLAN:
        for (int k = p->plan_start[thread]; k < p->plan_start[thread + 1]; k++)
            run_task(p, p->plan_list[k], thread);
        break;
    case MODE_DYNAMIC:
        for (;;) {
            const int k = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
            if (k >= p->n)
                break;
            run_task(p, p->order[k], thread);
        }
        break;
    default: /* MODE_PARALLEL: one call per thread, task = thread */
        p->fn(p->ctx, thread, thread);
        break;
    }
}

typedef struct worker_arg {
    rs_pool *p;
    int thread;
} worker_arg;

static void *worker(void *varg)
{
    rs_pool *p = ((worker_arg *)varg)->p;
    const int thread = ((worker_arg *)varg)->thread;
    free(varg);
    pthread_mutex_lock(&p->gate_mu);
    while (p->go == 0)
        pthread_cond_wait(&p->gate_cv, &p->gate_mu);
    const int go = p->go;
    pthread_mutex_unlock(&p->gate_mu);
    if (go < 0)
        return NULL;
    for (;;) {
        rs_barrier_wait(p->bar);
        if (p->quit)
            break;
        do_share(p, thread);
        rs_barrier_wait(p->bar);
    }
    return NULL;
}

/* Runs the published section on every thread and joins. */
static void section(rs_pool *p)
{
    if (p->threads > 1)
        rs_barrier_wait(p->bar);
    do_share(p, 0);
    if (p->threads > 1)
        rs_barrier_wait(p->bar);
}

int rs_pool_create(rs_pool **pool, int threads, int max_tasks, char *err, size_t errlen)
{
    if (pool)
        *pool = NULL;
    if (!pool || threads < 1 || threads > 4096 || max_tasks < 0)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_pool_create: threads must be in 1..4096 (got %d), max_tasks >= 0 (got %d)",
                       threads, max_tasks);
    rs_pool *p = calloc(1, sizeof *p);
    if (!p)
        goto nomem;
    p->threads = threads;
    p->max_tasks = max_tasks;
    p->plan_n = -1;
    const size_t nt = (size_t)max_tasks + 1;   /* never a zero-size allocation */
    p->order = calloc(nt, sizeof *p->order);
    p->plan_thread = calloc(nt, sizeof *p->plan_thread);
    p->plan_list = calloc(nt, sizeof *p->plan_list);
    p->seconds = calloc(nt, sizeof *p->seconds);
    p->plan_start = calloc((size_t)threads + 1, sizeof *p->plan_start);
    p->load = calloc((size_t)threads, sizeof *p->load);
    p->tid = calloc((size_t)threads, sizeof *p->tid);
    if (!p->order || !p->plan_thread || !p->plan_list || !p->seconds || !p->plan_start || !p->load || !p->tid)
        goto nomem;
    if (threads > 1) {
        if (rs_barrier_create(&p->bar, threads, POOL_SPIN) != 0)
            goto nomem;
        if (pthread_mutex_init(&p->gate_mu, NULL) != 0)
            goto nomem;
        if (pthread_cond_init(&p->gate_cv, NULL) != 0) {
            pthread_mutex_destroy(&p->gate_mu);
            goto nomem;
        }
        p->have_gate = 1;
        for (int t = 1; t < threads; t++) {
            worker_arg *a = malloc(sizeof *a);
            if (!a)
                goto nomem;
            a->p = p;
            a->thread = t;
            if (pthread_create(&p->tid[t], NULL, worker, a) != 0) {
                free(a);
                goto nomem;
            }
            p->started++;
        }
        pthread_mutex_lock(&p->gate_mu);
        p->go = 1;
        pthread_cond_broadcast(&p->gate_cv);
        pthread_mutex_unlock(&p->gate_mu);
    }
    *pool = p;
    return RS_OK;
nomem:
    rs_fail(err, errlen, RS_E_NOMEM,
            "rs_pool_create: out of memory or threads for a pool of %d threads", threads);
    rs_pool_free(&p);
    return RS_E_NOMEM;
}

void rs_pool_free(rs_pool **pool)
{
    if (!pool || !*pool)
        return;
    rs_pool *p = *pool;
    if (p->started) {
        if (p->go > 0) {
            p->quit = 1;
            rs_barrier_wait(p->bar);
        } else {
            /* creation failed midway: the gate sends the started workers home */
            pthread_mutex_lock(&p->gate_mu);
            p->go = -1;
            pthread_cond_broadcast(&p->gate_cv);
            pthread_mutex_unlock(&p->gate_mu);
        }
        for (int t = 1; t <= p->started; t++)
            pthread_join(p->tid[t], NULL);
    }
    if (p->have_gate) {
        pthread_cond_destroy(&p->gate_cv);
        pthread_mutex_destroy(&p->gate_mu);
    }
    rs_barrier_free(&p->bar);
    free(p->order);
    free(p->plan_thread);
    free(p->plan_list);
    free(p->seconds);
    free(p->plan_start);
    free(p->load);
    free(p->tid);
    free(p);
    *pool = NULL;
}

int rs_pool_threads(const rs_pool *p) { return p->threads; }
int rs_pool_max_tasks(const rs_pool *p) { return p->max_tasks; }
void rs_pool_set_timing(rs_pool *p, int on) { p->timing = on != 0; }
const double *rs_pool_task_seconds(const rs_pool *p) { return p->seconds; }

/* a before b in the order: larger cost first, then smaller index. */
static int heavier(const double *cost, int a, int b)
{
    const double ca = cost ? cost[a] : 0.0, cb = cost ? cost[b] : 0.0;
    if (ca != cb)
        return ca > cb;
    return a < b;
}

static void sift_down(int *h, int start, int end, const double *cost)
{
    int root = start;
    for (;;) {
        int child = 2 * root + 1;
        if (child >= end)
            return;
        /* A min-heap in the "heavier" order puts the lightest at the top,
         * so extracting to the back leaves the heaviest first. */
        if (child + 1 < end && heavier(cost, h[child], h[child + 1]))
            child++;
        if (!heavier(cost, h[root], h[child]))
            return;
        const int tmp = h[root];
        h[root] = h[child];
        h[child] = tmp;
        root = child;
    }
}

void rs_pool_sort_by_cost(int n, const double *cost, int *order)
{
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int start = n / 2 - 1; start >= 0; start--)
        sift_down(order, start, n, cost);
    for (int end = n - 1; end > 0; end--) {
        const int tmp = order[0];
        order[0] = order[end];
        order[end] = tmp;
        sift_down(order, 0, end, cost);
    }
}

int rs_pool_plan(rs_pool *p, int n, const double *cost)
{
    if (n < 0 || n > p->max_tasks)
        return RS_E_ARG;
    rs_pool_sort_by_cost(n, cost, p->order);
    int *count = p->plan_start;   /* tasks per thread, then offsets */
    for (int t = 0; t <= p->threads; t++)
        count[t] = 0;
    for (int t = 0; t < p->threads; t++)
        p->load[t] = 0.0;
    for (int k = 0; k < n; k++) {
        const int task = p->order[k];
        int best = 0;   /* least load; ties: fewer tasks, then lower index */
        for (int t = 1; t < p->threads; t++)
            if (p->load[t] < p->load[best] || (p->load[t] == p->load[best] && count[t + 1] < count[best + 1]))
                best = t;
        p->plan_thread[task] = best;
        p->load[best] += cost ? cost[task] : 1.0;
        count[best + 1]++;
    }
    for (int t = 0; t < p->threads; t++)
        count[t + 1] += count[t];
    /* Each thread's list in the sorted order (heaviest first): one walk of
     * the order per thread, so no scratch array is needed. */
    for (int t = 0; t < p->threads; t++) {
        int w = count[t];
        for (int k = 0; k < n; k++)
            if (p->plan_thread[p->order[k]] == t)
                p->plan_list[w++] = p->order[k];
    }
    p->plan_n = n;
    return RS_OK;
}

int rs_pool_plan_thread(const rs_pool *p, int task)
{
    if (p->plan_n < 0 || task < 0 || task >= p->plan_n)
        return -1;
    return p->plan_thread[task];
}

double rs_pool_plan_load(const rs_pool *p, int thread)
{
    if (thread < 0 || thread >= p->threads)
        return 0.0;
    return p->load[thread];
}

int rs_pool_run(rs_pool *p, int n, rs_pool_fn fn, void *ctx)
{
    if (!fn || n != p->plan_n)
        return RS_E_ARG;
    p->mode = MODE_PLAN;
    p->n = n;
    p->fn = fn;
    p->ctx = ctx;
    section(p);
    return RS_OK;
}

int rs_pool_run_dynamic(rs_pool *p, int n, const double *cost, rs_pool_fn fn, void *ctx)
{
    if (!fn || n < 0 || n > p->max_tasks)
        return RS_E_ARG;
    rs_pool_sort_by_cost(n, cost, p->order);
    p->mode = MODE_DYNAMIC;
    p->n = n;
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->next, 0);
    section(p);
    return RS_OK;
}

int rs_pool_parallel(rs_pool *p, rs_pool_fn fn, void *ctx)
{
    if (!fn)
        return RS_E_ARG;
    p->mode = MODE_PARALLEL;
    p->n = p->threads;
    p->fn = fn;
    p->ctx = ctx;
    section(p);
    return RS_OK;
}
