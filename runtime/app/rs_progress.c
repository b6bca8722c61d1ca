/*
 * rs_progress.c — see rs_progress.h.
 */
#include <math.h>
#include <stdio.h>

#include "rs_clock.h"
#include "rs_progress.h"

void rs_progress_start(rs_progress *p, const rs_log *log, int mode, double after, double every, double t0,
                       double t_end)
{
    p->log = log ? *log : (rs_log){0};
    p->mode = mode;
    p->after = after;
    p->every = every;
    p->t0 = t0;
    p->t_end = t_end;
    p->shown = 0;
    p->next = 0.0;
    p->wall0 = rs_now_s();
}

static void fmt_duration(char *buf, size_t len, double s)
{
    if (s < 60)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 3600)
        snprintf(buf, len, "%d min %02d s", (int)(s / 60), (int)fmod(s, 60));
    else
        snprintf(buf, len, "%d h %02d min", (int)(s / 3600), (int)fmod(s / 60, 60));
}

double rs_progress_wall(const rs_progress *p) { return rs_now_s() - p->wall0; }

void rs_progress_tick(rs_progress *p, double t)
{
    if (p->mode == 0 || !p->log.fn)
        return;
    const double wall = rs_progress_wall(p);
    if (wall < p->next || (p->mode != 1 && wall < p->after))
        return;
    const double span = p->t_end - p->t0, done = t - p->t0;
    char eta[32] = "?";
    if (done > 0)
        fmt_duration(eta, sizeof eta, wall * (span - done) / done);
    rs_logf(&p->log, RS_LOG_PROGRESS, "t = %.4g s of %.4g s (%3.0f%%), %.3gx real time, ETA %s", t, p->t_end,
            span > 0 ? 100.0 * done / span : 100.0, wall > 0 ? done / wall : 0.0, eta);
    p->shown = 1;
    p->next = wall + p->every;
}

void rs_progress_end(rs_progress *p, long steps, double t)
{
    if (!p->shown)
        return;
    const double wall = rs_progress_wall(p);
    rs_logf(&p->log, RS_LOG_LINE, "%ld steps to t = %.6g s in %.3g s (%.3gx real time)", steps, t, wall,
            wall > 0 ? (t - p->t0) / wall : 0.0);
}
