/*
 * bench_creep.c — cost of one creep force evaluation (forces and the 3×3
 * Jacobian) per contact patch, for the three laws of rs_creep.h: Kalker's
 * linear law, FASTSIM (default 20 × 20 grid, Hertzian bound) and Polach's
 * method.  Inputs vary per call across the transition to saturation, with
 * spin, so nothing is hoisted.  Prints the median over repetitions of
 * batches of calls:
 *   BENCH fastsim.us_per_patch <v> us
 *   BENCH polach.us_per_patch <v> us
 *   BENCH kalker.us_per_patch <v> us
 * Benchmarks never fail on time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rs_clock.h"
#include "rs_creep.h"
#include "rs_kalker.h"

#define BATCH 500
#define REPS 61

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
    static double xi[BATCH][3];
    const double a = 6e-3, b = 5e-3, nu = 0.28, mu = 0.3, N = 8e4;
    const double G = rs_kalker_shear_modulus(210e9, nu);
    double c[4];
    if (rs_kalker_coeffs(a / b, nu, c) < 0) {
        fprintf(stderr, "bench_creep: rs_kalker_coeffs failed\n");
        return 1;
    }
    /* creepages from 0.01 to 3 times the saturation creepage, in turning
     * directions, with spin of the same order */
    const double xsat = mu * N / (G * a * b * c[0]);
    for (int i = 0; i < BATCH; i++) {
        double k = 0.01 + 3.0 * i / BATCH, th = 0.37 * i;
        xi[i][0] = k * xsat * cos(th);
        xi[i][1] = k * xsat * sin(th);
        xi[i][2] = 0.3 * k * xsat / sqrt(a * b) * cos(1.3 * th);
    }
    const rs_creep_law laws[3] = {RS_CREEP_FASTSIM, RS_CREEP_POLACH, RS_CREEP_KALKER};
    const char *names[3] = {"fastsim", "polach", "kalker"};
    rs_creep_opts o;
    rs_creep_defaults(&o);
    for (int l = 0; l < 3; l++) {
        for (int r = 0; r < REPS; r++) {
            double t0 = rs_now_s(), acc = 0;
            for (int i = 0; i < BATCH; i++) {
                double f[3], J[9];
                if (rs_creep_forces(laws[l], a, b, G, c, mu, N, xi[i], &o, f, J) == 0)
                    acc += f[0] + f[1] + f[2] + J[0] + J[4] + J[8];
            }
            t[r] = (rs_now_s() - t0) / BATCH * 1e6;
            sink = acc;
        }
        printf("BENCH %s.us_per_patch %.3f us\n", names[l], median(t, REPS));
    }
    return 0;
}
