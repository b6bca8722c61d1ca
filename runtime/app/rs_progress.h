/*
 * rs_progress.h — the progress line of long runs ("t = 3.2 s of 10 s
 * (32%), 1.8x real time, ETA 4 s"), shared by the model driver and the
 * train runner.  Lines go to the caller's rs_log sink (rs_log.h) as
 * RS_LOG_PROGRESS, so a terminal can rewrite one in place; the command's
 * prefix ("railsym run: ") is the sink's.  A tick costs one clock read, so
 * it can be called every step.
 */
#ifndef RS_PROGRESS_H
#define RS_PROGRESS_H

#include "rs_log.h"

typedef struct rs_progress {
    rs_log log;
    int mode;              /* -1: after `after` s of wall time; 0 never; 1 always */
    double after, every;   /* s: first line after, then one line every            */
    double t0, t_end;      /* simulated span                                      */
    double wall0, next;    /* wall clock at the start, time of the next line      */
    int shown;
} rs_progress;

/* Starts the clock for a run over simulated [t0, t_end]; log NULL or its
 * fn NULL: no lines. */
void rs_progress_start(rs_progress *p, const rs_log *log, int mode, double after, double every, double t0,
                       double t_end);

/* The run has reached simulated time t: sends a line when one is due. */
void rs_progress_tick(rs_progress *p, double t);

/* Wall time since the start. */
double rs_progress_wall(const rs_progress *p);

/* Ends the run: when a progress line was shown, sends the closing line
 * "N steps to t = ... in ... s (...x real time)". */
void rs_progress_end(rs_progress *p, long steps, double t);

#endif /* RS_PROGRESS_H */
