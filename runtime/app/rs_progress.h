/*
 * rs_progress.h — the progress line of long runs ("railsym run: t = 3.2 s
 * of 10 s (32%), 1.8x real time, ETA 4 s"), shared by the model driver and
 * the train runner.  On a terminal the line is rewritten in place (\r); in
 * a log file each update is a line of its own.  A tick costs one clock
 * read, so it can be called every step.
 */
#ifndef RS_PROGRESS_H
#define RS_PROGRESS_H

#include <stdio.h>

typedef struct rs_progress {
    FILE *log;
    int mode;              /* -1: after `after` s of wall time; 0 never; 1 always */
    double after, every;   /* s: first line after, then one line every            */
    double t0, t_end;      /* simulated span                                      */
    double wall0, next;    /* wall clock at the start, time of the next line      */
    int tty, shown;
} rs_progress;

/* Starts the clock for a run over simulated [t0, t_end]; log NULL: stderr. */
void rs_progress_start(rs_progress *p, FILE *log, int mode, double after, double every, double t0,
                       double t_end);

/* The run has reached simulated time t: prints a line when one is due. */
void rs_progress_tick(rs_progress *p, double t);

/* Wall time since the start. */
double rs_progress_wall(const rs_progress *p);

/* Ends the run: when a progress line was shown, ends it (terminal) and
 * prints "railsym run: N steps to t = ... in ... s (...x real time)". */
void rs_progress_end(rs_progress *p, long steps, double t);

#endif /* RS_PROGRESS_H */
