/*
 * rs_team.c — ranges, barrier and pool of a chain solver's step.  See
 * rs_team.h.
 */
#include "rs_team.h"

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"

int rs_team_create(int n, int T, int spin, int **start, rs_barrier **bar, rs_pool **pool, const char *who, char *err,
                   size_t errlen)
{
    if (!(*start = rs_alloc(NULL, (size_t)T + 1, sizeof **start)))
        return rs_fail(err, errlen, RS_E_NOMEM, "%s: out of memory for the threads' ranges", who);
    if (rs_barrier_create(bar, T, spin) != RS_OK)
        return rs_fail(err, errlen, RS_E_NOMEM, "%s: out of memory for the barrier", who);
    const int st = rs_pool_create(pool, T, T, err, errlen);
    if (st != RS_OK)
        return st;
    /* the same split for the same n and T: the results do not depend on
     * anything else */
    for (int t = 0; t <= T; t++)
        (*start)[t] = (int)((long)n * t / T);
    return RS_OK;
}

void rs_team_free(int **start, rs_barrier **bar, rs_pool **pool)
{
    rs_pool_free(pool);
    rs_barrier_free(bar);
    rs_free(NULL, *start);
    *start = NULL;
}
