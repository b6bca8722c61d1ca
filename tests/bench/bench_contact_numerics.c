/*
 * bench_contact_numerics.c — cost of one call of the contact numerics, as a
 * step of a simulation makes them: the Hertz ellipse (exact m, n),
 * Kalker's coefficients plus the creep matrix, and a spline evaluation with
 * a hint on the S1002 profile with the contact point drifting slowly.
 * Prints the median over repetitions of batches of calls:
 *   BENCH contact.hertz_ns <v> ns
 *   BENCH contact.kalker_ns <v> ns
 *   BENCH contact.spline_eval_ns <v> ns
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rs_hertz.h"
#include "rs_kalker.h"
#include "rs_profile.h"

#define BATCH 2000
#define REPS 101

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static volatile double sink;

int main(void)
{
    static double t[REPS];
    /* inputs vary per call so nothing is hoisted: curvature sums of a wheel
     * of r = 0.46 m on rail heads of 0.2 .. 1 m lateral radius */
    static double Bs[BATCH], Ns[BATCH];
    for (int i = 0; i < BATCH; i++) {
        Bs[i] = 0.5 / (0.2 + 0.8 * i / BATCH);
        Ns[i] = 5e4 + 50.0 * i;
    }
    double A = 0.5 / 0.46;

    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns(), acc = 0;
        for (int i = 0; i < BATCH; i++) {
            rs_hertz_ellipse el;
            if (rs_hertz_ellipse_compute(Ns[i], 210e9, 0.27, A, Bs[i], &el) == 0)
                acc += el.a;
        }
        t[r] = (now_ns() - t0) / BATCH;
        sink = acc;
    }
    printf("BENCH contact.hertz_ns %.1f ns\n", median(t, REPS));

    double G = rs_kalker_shear_modulus(210e9, 0.27);
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns(), acc = 0;
        for (int i = 0; i < BATCH; i++) {
            double c[4], Cm[9], a = 6e-3, b = 4e-3 + 4e-6 * i;
            rs_kalker_coeffs(a / b, 0.27, c);
            rs_kalker_creep_matrix(a, b, G, c, Cm);
            acc += Cm[0] + Cm[5] + Cm[8];
        }
        t[r] = (now_ns() - t0) / BATCH;
        sink = acc;
    }
    printf("BENCH contact.kalker_ns %.1f ns\n", median(t, REPS));

    rs_profile p;
    char err[512];
    if (rs_profile_load(&p, "vehicles/profiles/s1002.prf", err, sizeof err) != 0) {
        fprintf(stderr, "bench_contact_numerics: %s\n", err);
        return 1;
    }
    int hint = 0;
    double u = 0.0, du = 2e-6;      /* a lateral drift of 2 µm per call */
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns(), acc = 0;
        for (int i = 0; i < BATCH; i++) {
            double d1, d2;
            acc += rs_profile_eval(&p, u, &hint, &d1, &d2) + d1 + d2;
            u += du;
            if (u > 0.01 || u < -0.01)
                du = -du;
        }
        t[r] = (now_ns() - t0) / BATCH;
        sink = acc;
    }
    printf("BENCH contact.spline_eval_ns %.1f ns\n", median(t, REPS));
    rs_profile_free(&p);
    return 0;
}
