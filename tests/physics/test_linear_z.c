/*
 * test_linear_z.c — `railsym linear` with internal states (series
 * spring–dampers, air springs: docs/linear.md "Internal states"), against
 * answers derived here by hand:
 *
 *   (a) vehicles/examples/zstate.vdl, mass 1: m ẍ = −k0 x − k z with the
 *       Maxwell node c ẋ_n = k z, z = x − x_n, i.e. ż = ẋ − (k/c) z.  In
 *       Laplace, z = c s x/(c s + k), so (m s² + k0)(c s + k) + k c s = 0:
 *           m c s³ + m k s² + (k0 + k) c s + k0 k = 0.
 *       Mass 2 on the air spring (k1 beside k2 in series with c) likewise:
 *           m c s³ + m k2 s² + (k1 + k2) c s + k1 k2 = 0.
 *       The six eigenvalues against the roots of the two cubics (found
 *       here by Durand–Kerner), to 1e-8 relative;
 *   (b) a quarter car whose body rests on an air spring over a wheelset
 *       driven by the vertical level a: the body's mc z̈c = −K(ω)(zc − a),
 *       K(ω) = k1 + k2 iωc/(k2 + iωc), so H = −ω² K/(K − mc ω²); the
 *       wheelset's own H = −ω²; to 1e-6 relative;
 *   (c) wheelset_cone with a yaw damper pair (c at ±bd) in series with a
 *       stiffness ks: its linear critical speed tends to the plain damper's
 *       as ks → ∞ (within 0.5 % at ks = 1e9 N/m) and to the undamped
 *       wheelset's as ks → 0 (within 0.5 % at ks = 1 N/m); at the mounts'
 *       usual 1e6 N/m (corner k/c at 8 Hz, hunting near 3 Hz) the series
 *       stiffness adds yaw stiffness too and the speed rises above both:
 *       checked against the plain damper model with the element's K(iω)
 *       at the critical frequency as a spring Re K beside a damper Im K/ω
 *       (at s = iω both have the same characteristic equation), 1e-4.
 */
#define _DEFAULT_SOURCE
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_linear.h"
#include "rs_linear_frf.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_test_linear.h"
#include "rs_ws.h"

#define PI 3.14159265358979323846

static char err[4000];
static char dir[64];

static void setup(void) { rs_test_mkdtemp(dir, sizeof dir, "/tmp/rs_linz_XXXXXX"); }

static void teardown(void) { rs_test_rmtree(dir); }

/* The roots of the cubic a3 s³ + a2 s² + a1 s + a0 (Durand–Kerner). */
static void cubic_roots(double a3, double a2, double a1, double a0, double complex r[3])
{
    const double complex c2 = a2 / a3, c1 = a1 / a3, c0 = a0 / a3;
    const double R = 1 + fmax(cabs(c2), fmax(cabs(c1), cabs(c0)));   /* every root within */
    for (int k = 0; k < 3; k++)
        r[k] = R * cexp(I * (0.4 + 2 * PI * k / 3));
    for (int it = 0; it < 500; it++)
        for (int k = 0; k < 3; k++) {
            double complex d = 1;
            for (int j = 0; j < 3; j++)
                if (j != k)
                    d *= r[k] - r[j];
            r[k] -= (((r[k] + c2) * r[k] + c1) * r[k] + c0) / d;
        }
}

START_TEST(zstate_eigenvalues)
{
    const double m = 10, k0 = 2.0e5, c = 2.0e3, k = 1.0e6, k1 = 3.0e5, k2 = 6.0e5, ca = 3.0e3;
    double complex roots[6];
    cubic_roots(m * c, m * k, (k0 + k) * c, k0 * k, roots);
    cubic_roots(m * ca, m * k2, (k1 + k2) * ca, k1 * k2, roots + 3);
    rs_loaded *h = rs_load("generated/zstate", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_options o;
    rs_options_default(&o);
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(rs_ws_init(ws), 0);
    rs_linear_modes md;
    ck_assert_msg(rs_linear_modes_at(ws, &md, err, sizeof err) == 0, "%s", err);
    /* each cubic: one real root and a pair, listed once */
    int want = 0;
    for (int i = 0; i < 6; i++)
        want += cimag(roots[i]) >= -1e-9 * cabs(roots[i]);
    ck_assert_int_eq(md.n, want);
    for (int i = 0; i < 6; i++) {
        if (cimag(roots[i]) < -1e-9 * cabs(roots[i]))
            continue;
        double best = INFINITY;
        for (int j = 0; j < md.n; j++)
            best = fmin(best, cabs(md.mode[j].re + I * md.mode[j].im - roots[i]) / cabs(roots[i]));
        printf("zstate root %d: %.10g%+.10gi, nearest eigenvalue off by %.3g relative\n", i, creal(roots[i]),
               cimag(roots[i]), best);
        ck_assert_msg(best < 1e-8, "root %g%+gi of the hand cubic: nearest eigenvalue %.3g relative away",
                      creal(roots[i]), cimag(roots[i]), best);
    }
    rs_linear_modes_free(&md);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* the wheelset of test_linear_frf's quarter car, with %s for the folder */
#define WHEELSET_VDL                                                                                               \
    "param m_ws = 1250\nparam Ix = 700, Iy = 100\nparam r0 = 0.45\nparam b0 = 0.75\nparam b_r = 0.75\n"          \
    "param g = 9.81\nparam ky = 1e5, kyaw = 1e5\n"                                                                  \
    "base B_yaw = rotate(ground, z, yaw)\nbase B_nsw = rotate(B_yaw, x, roll)\nbase B_ws = rotate(B_nsw, y, spin)\n" \
    "point O_ws = O + [x, y, r0 + z] in ground\n"                                                                   \
    "body wheelset mass m_ws cg O_ws inertia diag(Ix, Iy, Ix) in B_nsw frame B_ws\n"                               \
    "point W_left = O_ws + [0, b0, 0] in B_nsw\npoint W_right = O_ws + [0, -b0, 0] in B_nsw\n"                     \
    "gravity [0, 0, -g] in ground\n"                                                                                \
    "point C = O + [x, 0, r0] in ground\nframe carrier = C in ground\nframe axle = O_ws in B_nsw\n"                 \
    "bushing suspension between carrier and axle k [0, ky, 0, 0, 0, kyaw]\n"                                        \
    "contact left wheel wheelset at W_left in B_nsw side left radius r0 offset b_r profile \"%s/vehicles/profiles/" \
    "cone_1in40.prf\" rail \"%s/vehicles/profiles/arc_r300.prf\" track \"%s/vehicles/tracks/straight.trk\"\n"       \
    "contact right wheel wheelset at W_right in B_nsw side right radius r0 offset b_r profile \"%s/vehicles/"       \
    "profiles/cone_1in40.prf\" rail \"%s/vehicles/profiles/arc_r300.prf\" track \"%s/vehicles/tracks/"             \
    "straight.trk\"\n"

static void wheelset_model(const char *name, const char *coords, const char *extra)
{
    char cwd[1024], vdl[12000];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    int k = snprintf(vdl, sizeof vdl, "%s\n", coords);
    k += snprintf(vdl + k, sizeof vdl - k, WHEELSET_VDL, cwd, cwd, cwd, cwd, cwd, cwd);
    snprintf(vdl + k, sizeof vdl - k, "%s", extra);
    rs_test_compile(dir, name, vdl);
}

START_TEST(airspring_quarter_car)
{
    const double mc = 4000, k1 = 3e5, k2 = 6e5, ca = 2e4, V = 25;
    wheelset_model("quarter_air", "coord x, y, z, roll, yaw, spin, zc",
                   "param mc = 4000, k_1 = 3e5, k_2 = 6e5, c_a = 2e4, hc = 1.2\n"
                   "point O_c = O + [x, 0, r0 + hc + zc] in ground\n"
                   "body car mass mc cg O_c inertia diag(100, 100, 100) in ground\n"
                   "point Q = O + [x, 0, r0 + z] in ground\n"
                   "airspring air between O_c and Q k1 k_1 k2 k_2 c c_a length hc\n");
    char model[700];
    snprintf(model, sizeof model, "%s/quarter_air", dir);
    const double fr[5] = {0.3, 1.1, 2.2, 5, 15};
    const char *outs[] = {"zc", "z"};
    for (int k = 0; k < 5; k++) {
        rs_linear_frf_config c;
        memset(&c, 0, sizeof c);
        rs_linear_config_default(&c.lin);
        c.lin.model_dir = model;
        c.lin.set_text = "initial x_dot = 25\ninitial spin_dot = 55.5555555555556\n";
        c.lin.v_lo = c.lin.v_hi = V;
        c.lin.n_speeds = 1;
        c.lin.quiet = 1;
        c.f_lo = c.f_hi = fr[k];
        c.n_f = 1;
        c.outputs = outs;
        c.n_outputs = 2;
        rs_linear_frf r;
        ck_assert_msg(rs_linear_frf_run(&c, &r, err, sizeof err) == 0, "%s", err);
        int jv = -1;
        for (int j = 0; j < r.n_in; j++)
            if (r.in[j] == RS_FRF_VERTICAL)
                jv = j;
        ck_assert_int_ge(jv, 0);
        const double w = 2 * PI * fr[k];
        const double complex K = k1 + k2 * I * w * ca / (k2 + I * w * ca);
        const double complex want = -w * w * K / (K - mc * w * w);
        const size_t e0 = (size_t)0 * r.n_in + jv, e1 = (size_t)1 * r.n_in + jv;
        const double complex got = r.re[e0] + I * r.im[e0], wsH = r.re[e1] + I * r.im[e1];
        printf("air-spring quarter car %5.2f Hz: |H| %.9g (hand %.9g), phase %.6f deg (hand %.6f)\n", fr[k],
               cabs(got), cabs(want), carg(got) * 180 / PI, carg(want) * 180 / PI);
        ck_assert_msg(cabs(got - want) < 1e-6 * cabs(want), "%g Hz: H = %g%+gi, hand %g%+gi", fr[k], creal(got),
                      cimag(got), creal(want), cimag(want));
        ck_assert_msg(cabs(wsH + w * w) < 1e-6 * w * w, "%g Hz: the wheelset's H %g%+gi, hand %g", fr[k],
                      creal(wsH), cimag(wsH), -w * w);
        rs_linear_frf_free(&r);
    }
}
END_TEST

/* The least-damped mode's damping ratio of model folder `model` at V with
 * the scenario line `set`, and its frequency into *f. */
static double zeta_at(const char *model, const char *set, double V, double *f)
{
    rs_linear_opened o;
    double z;
    rs_ws *ws = rs_test_linear_least(&o, model, set, 0, V, f, &z);
    rs_ws_free(&ws);
    rs_linear_close(&o);
    return z;
}

/* The linear critical speed by bisection on the damping ratio (to 1e-5
 * m/s) from the first crossing of a scan of 10..150 m/s; the hunting
 * frequency there into *f. */
static double v_crit(const char *model, const char *set, double *f)
{
    double lo = 10, hi = 10;
    ck_assert_msg(zeta_at(model, set, lo, f) > 0, "%s: unstable at 10 m/s", model);
    for (double V = 20; V <= 150; V += 10) {
        if (zeta_at(model, set, V, f) <= 0) {
            hi = V;
            break;
        }
        lo = V;
    }
    ck_assert_msg(hi > lo, "%s: no critical speed below 150 m/s", model);
    while (hi - lo > 1e-5) {
        const double mid = 0.5 * (lo + hi);
        if (zeta_at(model, set, mid, f) > 0)
            lo = mid;
        else
            hi = mid;
    }
    zeta_at(model, set, 0.5 * (lo + hi), f);
    return 0.5 * (lo + hi);
}

#define YAW_DAMPER_POINTS                                                                                          \
    "param cd = 2e4, bd = 1.0, Ld = 0.5\n"                                                                          \
    "point Pl = O + [x - Ld, bd, r0] in ground\npoint Pr = O + [x - Ld, -bd, r0] in ground\n"                     \
    "point Ql = O_ws + [0, bd, 0] in B_nsw\npoint Qr = O_ws + [0, -bd, 0] in B_nsw\n"

START_TEST(yaw_damper_in_series)
{
    const char *coords = "coord x, y, z, roll, yaw, spin";
    /* the plain damper, with a spring kd beside it (0 unless set) */
    wheelset_model("plain", coords,
                   YAW_DAMPER_POINTS "param kd = 0\n"
                                     "damper ydl between Pl and Ql c cd\ndamper ydr between Pr and Qr c cd\n"
                                     "spring ysl between Pl and Ql k kd length Ld\n"
                                     "spring ysr between Pr and Qr k kd length Ld\n");
    wheelset_model("series", coords,
                   YAW_DAMPER_POINTS "param ks = 1e6\n"
                                     "damper ydl between Pl and Ql c cd series k ks\n"
                                     "damper ydr between Pr and Qr c cd series k ks\n");
    char plain[700], series[700], set[200];
    snprintf(plain, sizeof plain, "%s/plain", dir);
    snprintf(series, sizeof series, "%s/series", dir);
    double f_plain, f_none, f_stiff, f_mid, f_soft, f_eq;
    const double v_plain = v_crit(plain, NULL, &f_plain), v_none = v_crit(plain, "param cd = 0\n", &f_none);
    const double v_stiff = v_crit(series, "param ks = 1e9\n", &f_stiff), v_mid = v_crit(series, NULL, &f_mid);
    const double v_soft = v_crit(series, "param ks = 1\n", &f_soft);
    /* At the critical speed s = iω is an eigenvalue, and there the Maxwell
     * element is exactly a spring Re K beside a damper Im K/ω,
     * K = ks iωc/(ks + iωc): the plain model with those has its critical
     * speed at the same V and ω. */
    const double w = 2 * PI * f_mid, cd = 2e4, ks = 1e6;
    const double complex K = ks * I * w * cd / (ks + I * w * cd);
    snprintf(set, sizeof set, "param cd = %.17g\nparam kd = %.17g\n", cimag(K) / w, creal(K));
    const double v_eq = v_crit(plain, set, &f_eq);
    printf("yaw damper: critical speed (m/s, Hz): plain %.5f %.4f; series ks = 1e9: %.5f %.4f, 1e6: %.5f %.4f, "
           "1: %.5f %.4f; no damper %.5f %.4f; 1e6's equivalent spring %.6g N/m + damper %.6g N s/m: %.5f %.4f\n",
           v_plain, f_plain, v_stiff, f_stiff, v_mid, f_mid, v_soft, f_soft, v_none, f_none, creal(K),
           cimag(K) / w, v_eq, f_eq);
    ck_assert_msg(fabs(v_plain - v_none) > 0.05 * v_none, "the damper must matter for the test to mean something");
    ck_assert_msg(fabs(v_stiff - v_plain) < 0.005 * v_plain, "stiff mounts %g m/s, plain damper %g m/s", v_stiff,
                  v_plain);
    ck_assert_msg(fabs(v_soft - v_none) < 0.005 * v_none, "soft mounts %g m/s, no damper %g m/s", v_soft, v_none);
    ck_assert_msg(fabs(v_eq - v_mid) < 1e-4 * v_mid && fabs(f_eq - f_mid) < 1e-4 * f_mid,
                  "ks = 1e6 N/m: %g m/s at %g Hz; its equivalent parallel spring-damper: %g m/s at %g Hz", v_mid,
                  f_mid, v_eq, f_eq);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear_z");
    TCase *tc = tcase_create("linear_z");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, zstate_eigenvalues);
    tcase_add_test(tc, airspring_quarter_car);
    tcase_add_test(tc, yaw_damper_in_series);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
