/*
 * test_klingel.c — the kinematic oscillation of a free wheelset (issue 7):
 * conical wheels of taper γ on rails, no suspension, rolling slowly, sway
 * laterally with Klingel's wavelength L = 2π sqrt(r0 b0 / γ) (Klingel 1883;
 * e.g. Knothe & Stichel, Rail Vehicle Dynamics, §3).  The whole pipeline is
 * under test: generated/wheelset_cone (1:40 cone on a 300 mm arc rail head,
 * r0 = 0.45 m, b0 = 0.75 m, compiled from vehicles/examples/wheelset_cone.vdl),
 * the runtime contact step with Hertz and Kalker creep, and `railsym run`.
 * The answer is the closed-form wavelength, which the code never computes.
 * Distances are measured along x between zero crossings of y.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include "rs_test.h"

static const char *railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "build/railsym";
}

#define MAXROWS 20000

START_TEST(klingel_wavelength)
{
    const double r0 = 0.45, b0 = 0.75, gamma = 1.0 / 40.0, v = 5.0;
    const double pi = 3.14159265358979323846;
    const double klingel = 2.0 * pi * sqrt(r0 * b0 / gamma);

    char dir[] = "/tmp/railsym_klingel_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char scn[300], csv[300], cmd[1200];
    snprintf(scn, sizeof scn, "%s/klingel.scn", dir);
    snprintf(csv, sizeof csv, "%s/klingel.csv", dir);
    FILE *f = fopen(scn, "w");
    ck_assert_ptr_nonnull(f);
    /* No lateral or yaw suspension: the kinematic motion alone.  Rolling
     * without slip: spin rate v / r0. */
    fprintf(f, "duration 12\nstep 1e-3\noutput 0.005\nmethod imex\n"
               "param ky = 0\nparam kyaw = 0\n"
               "initial x_dot = %.17g\ninitial spin_dot = %.17g\ninitial y = 0.002\n"
               "columns x y yaw\n", v, v / r0);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run generated/wheelset_cone --scenario %s --out %s --quiet 2>&1",
             railsym_bin(), scn, csv);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char out[4096];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "railsym run failed:\n%s", out);

    f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_msg(strncmp(line, "time,x,y,yaw", 12) == 0, "unexpected header: %s", line);
    static double xs[MAXROWS], ys[MAXROWS];
    int rows = 0;
    while (rows < MAXROWS && fgets(line, sizeof line, f)) {
        double t, x, y, yaw;
        ck_assert_int_eq(sscanf(line, "%lf,%lf,%lf,%lf", &t, &x, &y, &yaw), 4);
        xs[rows] = x;
        ys[rows] = y;
        rows++;
    }
    fclose(f);
    ck_assert_int_gt(rows, 2000);

    double cross[64];
    int nc = 0;
    double ymax = 0;
    for (int i = 1; i < rows && nc < 64; i++) {
        if (fabs(ys[i]) > ymax)
            ymax = fabs(ys[i]);
        if (ys[i - 1] * ys[i] < 0)
            cross[nc++] = xs[i - 1] + (xs[i] - xs[i - 1]) * ys[i - 1] / (ys[i - 1] - ys[i]);
    }
    /* 60 m of track: at least four crossings, two full waves. */
    ck_assert_msg(nc >= 4, "only %d zero crossings of y in %.1f m", nc, xs[rows - 1]);
    ck_assert_msg(ymax < 0.004, "the sway grew to %.4g m: not a kinematic oscillation", ymax);
    for (int i = 0; i + 2 < nc; i++) {
        double L = cross[i + 2] - cross[i];
        printf("klingel: wave %d: %.4f m (Klingel %.4f m, %+.2f %%)\n", i, L, klingel,
               100 * (L - klingel) / klingel);
        ck_assert_msg(fabs(L - klingel) <= 0.02 * klingel, "wavelength %.4f m, Klingel %.4f m", L, klingel);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("klingel");
    TCase *tc = tcase_create("klingel");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, klingel_wavelength);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
