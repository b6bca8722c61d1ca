/*
 * rs_track_window.h — statistics of a signal over sliding windows of track,
 * cut by the positions of its samples (docs/analyses.md): the windows
 * [s_a, s_a + window), s_a = s[0] + k step, while s_a + window <= s[n−1].
 * EN 14363 uses the rms over 100 m every 10 m (running stability) and the
 * mean over 2 m every 0.5 m (Y/Q).  Each window's value is that of the
 * samples inside it (the positions of a fixed-rate record are evenly spaced
 * at constant speed).
 *
 * Analysis of results, not part of a simulation step.
 */
#ifndef RS_TRACK_WINDOW_H
#define RS_TRACK_WINDOW_H

#include <stddef.h>

typedef enum { RS_TRACK_WINDOW_RMS, RS_TRACK_WINDOW_MEAN } rs_track_window_stat;

/* value[k] = the rms (or mean) of y over window k starting at start[k],
 * k < *nwin <= max.  s strictly increasing (metres), window, step > 0, the
 * record at least one window long. */
int rs_track_window(rs_track_window_stat stat, const double *y, const double *s, size_t n, double window,
                    double step, double *start, double *value, size_t max, size_t *nwin, char *err, size_t errlen);

#endif /* RS_TRACK_WINDOW_H */
