/*
 * bench_patch.c — cost of rs_patch_find (every contact patch of one wheel
 * on one rail) as the elastic contact calls it once per wheel and step:
 * S1002 on 60E1 1:40, r0 = 0.46 m, over a sweep of poses across the
 * flangeway (lateral shift −10 … +10 mm from the centred position, yaw
 * −0.02 … 0.02 rad, the wheel 50 µm below its rigid contact height), tread
 * contact, flange contact and two-point contact included.  The poses vary
 * slowly from call to call, as in a simulation, and each wheel keeps its
 * spline hints.  Prints the median over repetitions of a batch of all poses:
 *   BENCH contact.search_us_per_wheel <v> us
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rs_clock.h"
#include "rs_patch.h"

#define POSES 400
#define REPS 101
#define R0 0.46

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile double sink;

/* the rigid contact height without yaw, by brute force (set-up only) */
static double rigid_cz(const rs_profile *w, const rs_profile *r, double cy)
{
    double gmin = INFINITY;
    int hw = 0, hr = 0;
    for (double u = w->y[0]; u <= w->y[w->n - 1]; u += 2e-5) {
        const double y = cy + u;
        if (y < r->y[0] || y > r->y[r->n - 1])
            continue;
        const double g = -(R0 + rs_profile_eval(w, u, &hw, NULL, NULL)) - rs_profile_eval(r, y, &hr, NULL, NULL);
        if (g < gmin)
            gmin = g;
    }
    return -gmin;
}

int main(void)
{
    rs_profile w, r;
    char err[512];
    if (rs_profile_load(&w, "vehicles/profiles/s1002.prf", err, sizeof err) != RS_OK
        || rs_profile_load(&r, "vehicles/profiles/60e1_1in40.prf", err, sizeof err) != RS_OK) {
        fprintf(stderr, "bench_patch: %s (run from the repository root)\n", err);
        return 1;
    }
    static double c[POSES][3], a[POSES][3];
    for (int i = 0; i < POSES; i++) {
        const double s = (double)i / (POSES - 1);
        const double cy = -0.003 - 0.010 + 0.020 * s;
        const double psi = 0.02 * sin(2 * 3.14159265358979 * s);
        c[i][0] = 0;
        c[i][1] = cy;
        c[i][2] = rigid_cz(&w, &r, cy) - 5e-5;
        a[i][0] = -sin(psi);
        a[i][1] = cos(psi);
        a[i][2] = 0;
    }
    rs_patch_opts o;
    rs_patch_defaults(&o);
    o.r0 = R0;
    rs_patch_hint h = {.wheel = 0, .rail = 0};
    rs_patch p[RS_PATCH_MAX];
    int n, hist[RS_PATCH_MAX + 1] = {0};
    for (int i = 0; i < POSES; i++) {
        if (rs_patch_find(&w, &r, c[i], a[i], &o, &h, p, RS_PATCH_MAX, &n) != RS_OK) {
            fprintf(stderr, "bench_patch: search failed at pose %d\n", i);
            return 1;
        }
        hist[n]++;
    }
    static double t[REPS];
    for (int k = 0; k < REPS; k++) {
        double acc = 0;
        const double t0 = rs_now_s();
        for (int i = 0; i < POSES; i++) {
            rs_patch_find(&w, &r, c[i], a[i], &o, &h, p, RS_PATCH_MAX, &n);
            acc += n ? p[0].pen : 0;
        }
        t[k] = (rs_now_s() - t0) / POSES * 1e6;
        sink = acc;
    }
    qsort(t, REPS, sizeof t[0], cmp);
    printf("poses: %d with 0, %d with 1, %d with 2, %d with 3+ patches\n", hist[0], hist[1], hist[2],
           POSES - hist[0] - hist[1] - hist[2]);
    printf("fastest batch: %.3f us per wheel\n", t[0]);
    printf("BENCH contact.search_us_per_wheel %.3f us\n", t[REPS / 2]);
    rs_profile_free(&w);
    rs_profile_free(&r);
    return 0;
}
