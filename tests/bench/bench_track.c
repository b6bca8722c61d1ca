/*
 * bench_track.c — track geometry: time to read and build the shipped tracks
 * (knots, fit, refinement) and to evaluate the spline track with a hint
 * along a simulated run (the per-step cost the contact look-up pays).
 * Prints `BENCH track.<figure> <value> <unit>`.
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rs_track.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    const char *names[] = { "feve3000_reference", "curve", "straight" };
    rs_track t;
    char err[512], path[256];
    for (int f = 0; f < 3; f++) {
        snprintf(path, sizeof path, "vehicles/tracks/%s.trk", names[f]);
        double best = 1e30;
        for (int rep = 0; rep < 5; rep++) {
            double t0 = now();
            if (rs_track_load(&t, path, err, sizeof err)) {
                fprintf(stderr, "%s\n", err);
                return 1;
            }
            double dt = now() - t0;
            if (dt < best) best = dt;
            if (rep < 4) rs_track_free(&t);
        }
        printf("BENCH track.build_ms_%s %.3f ms\n", names[f], 1e3 * best);
        printf("BENCH track.knots_%s %d count\n", names[f], t.f[0].n);
        if (f > 0) rs_track_free(&t);
        else {
            /* a run at 23.7 m/s, 1 ms steps, 8 contacts each with its hint */
            enum { BATCH = 20000, REPS = 51 };
            double med[REPS], sink = 0.0;
            for (int r = 0; r < REPS; r++) {
                int hint[8] = { 0 };
                double t0 = now();
                for (int i = 0; i < BATCH; i++) {
                    double s = t.s_begin + 10.0 + 0.0237 * i;
                    for (int c = 0; c < 8; c++) {
                        rs_track_point p;
                        rs_track_eval(&t, s + 1.5 * c, &hint[c], &p);
                        sink += p.pos[1];
                    }
                }
                med[r] = (now() - t0) / (8.0 * BATCH);
            }
            qsort(med, REPS, sizeof med[0], cmp);
            printf("BENCH track.eval_ns %.1f ns\n", 1e9 * med[REPS / 2]);
            if (sink == 12345.0) printf("#\n");
            rs_track_free(&t);
        }
    }
    return 0;
}
