/*
 * test_critical_speed.c — `railsym critical-speed` (issue 11, item 3): the
 * hunting critical speed of a suspended wheelset against an eigenvalue
 * analysis of its linearized equations, written here.
 *
 *   envelope   rs_envelope's rate and frequency of sampled damped sines
 *              A e^{σt} sin(ωt + φ) (the answer is σ and ω/2π); a decaying
 *              second mode (the transient) and a motion dying into noise;
 *              the rate/freq figures of a sweep on a CSV text
 *   linear     the test's own linear model: a free wheelset (k_y = k_ψ = 0)
 *              is unstable at every speed; with m, I → 0 it sways at
 *              Klingel's frequency V / (2π) · sqrt(λ / (r b))
 *   command    generated/wheelset_cone (1:40 cone on a 300 mm arc rail head,
 *              lateral and yaw springs of 1e5 to a carrier moving with x):
 *              the critical speed of `railsym critical-speed` at two steps
 *              against the root of the Routh–Hurwitz determinant of the
 *              linear model (3 % for the finer step, 1 % extrapolated to
 *              Δt → 0: the IMEX Euler step is first order, its error in the
 *              critical speed halves with the step); the hunting frequency
 *              at the critical speed against the eigenvalue's imaginary
 *              part; the CSV and the picture; a re-run redoes nothing; the
 *              command's errors and exit statuses
 *
 * The linear model (state y, ψ; Wickens 1965, e.g. Knothe & Stichel, Rail
 * Vehicle Dynamics, ch. 7; reference/contact.md "Wickens-type stability"):
 *
 *   m' ÿ + 2 f22 κ (κ ẏ/V − ψ) + 2 κ f23 ψ̇/V + (k_y + k_g) y = 0
 *   I ψ̈ + 2 (f11 b² + f33) ψ̇/V + 2 f11 b λ y / r − 2 f23 (κ ẏ/V − ψ)
 *        + I_y (V/r) ρ ẏ + k_ψ ψ = 0
 *
 * with every parameter derived here from the model's data, not from the
 * runtime:
 *   - contact geometry of a cone (taper γ) on a circular rail head (radius
 *     R, crown at b_r): the contact sits where the slopes match, Rγ inboard
 *     of the crown: b = b_r − R sin δ0, r = r0 + γ (b0 − b); a lateral shift
 *     y rolls the axle by ρ y, ρ = γ / (b − γ r), and the rolling radii
 *     differ by 2 λ y with λ = γ b_r / (b − γ r) (first-order cross-section
 *     geometry, worked out in docs/sweeps.md) — 2.6 % above γ;
 *   - creep coefficients f11 = G a b C11, f22 = G a b C22,
 *     f23 = G (ab)^{3/2} C23, f33 = G (ab)² C33 at the static load
 *     N = m g / (2 cos δ0): the Hertz ellipse from Johnson's exact relations
 *     (complete elliptic integrals by the AGM, the eccentricity by
 *     bisection), curvatures cos δ0 / r (wheel, rolling direction) and 1/R
 *     (rail); Kalker's C_ij from his published table (Kalker 1990, Table E.3,
 *     the rows of ../shared/reference/kalker_linear_coefficients.csv near
 *     a/b = 1.31), a parabola through 1/C in ν and linear in b/a;
 *   - roll coupling: the contact point moves laterally by ẏ + r ρ ẏ
 *     (κ = 1 + r ρ), roll inertia adds I_x ρ² to the mass, the normal forces
 *     tilt with the roll (gravitational stiffness k_g = m g ρ, 0.4 % of k_y);
 *   - gyroscopic yaw moment of the spinning axle, I_y Ω ρ ẏ (Ω = V / r): it
 *     raises the critical speed by 3.6 % here and cannot be left out.
 * Neglected: the gravitational yaw moment of the tilted normals (≈ m g b γ,
 * 0.2 % of k_ψ) and the lateral force of the gyroscopic load transfer
 * (< 0.1 %).  The test prints the critical speed of every simpler model
 * too, down to the plain Wickens model with f = G a b C11 on both axes.
 */
#define _GNU_SOURCE

#include <check.h>
#include <complex.h>
#include <dirent.h>
#include <math.h>

#include "rs_bifurcation.h"
#include "rs_critical.h"
#include "rs_load.h"
#include "rs_envelope.h"
#include "rs_limit_cycle.h"
#include "rs_status.h"
#include "rs_sweep.h"
#include "test_sweep_util.h"
#include "rs_linear.h"
#include "rs_test.h"

#define PI 3.14159265358979323846
#define MODEL "generated/wheelset_cone"

/* ================================================================ envelope */

START_TEST(envelope_of_damped_sines)
{
    const double sig[] = {-0.8, -0.05, 0.0, 0.3, 1.5};
    const double fr[] = {1.7, 0.9, 2.4};
    for (size_t i = 0; i < sizeof sig / sizeof sig[0]; i++)
        for (size_t j = 0; j < sizeof fr / sizeof fr[0]; j++) {
            const double w = 2 * PI * fr[j], dt = 0.002;
            enum { N = 2001 };
            static double t[N], y[N];
            for (int k = 0; k < N; k++) {
                t[k] = k * dt;
                y[k] = 0.003 * exp(sig[i] * t[k]) * sin(w * t[k] + 0.4);
            }
            rs_envelope e;
            ck_assert_int_eq(rs_envelope_of(t, y, N, &e), RS_OK);
            ck_assert_msg(fabs(e.rate - sig[i]) < 2e-4, "sigma %g f %g: rate %.6g", sig[i], fr[j], e.rate);
            ck_assert_msg(fabs(e.freq - fr[j]) < 1e-4 * fr[j], "sigma %g f %g: freq %.6g", sig[i], fr[j], e.freq);
            /* 4 s, two extrema per period, the first left out of the fit */
            ck_assert_int_ge(e.extrema, (int)(8 * fr[j]) - 1);
            ck_assert_int_eq(e.fitted, e.extrema - 1);
        }
}
END_TEST

START_TEST(envelope_transient_noise_and_too_few)
{
    enum { N = 3001 };
    static double t[N], y[N];
    /* a fast, heavily damped mode on top of the hunting mode */
    for (int k = 0; k < N; k++) {
        t[k] = k * 1e-3;
        y[k] = 0.002 * exp(-0.1 * t[k]) * cos(2 * PI * 1.6 * t[k]) + 0.002 * exp(-25 * t[k]) * cos(2 * PI * 5 * t[k]);
    }
    rs_envelope e;
    ck_assert_int_eq(rs_envelope_of(t, y, N, &e), RS_OK);
    ck_assert_msg(fabs(e.rate + 0.1) < 2e-3, "rate %.6g", e.rate);
    ck_assert_msg(fabs(e.freq - 1.6) < 2e-3, "freq %.6g", e.freq);
    /* a motion that dies into rounding noise: the fit stops at the floor */
    for (int k = 0; k < N; k++)
        y[k] = 1e-3 * exp(-8 * t[k]) * sin(2 * PI * 2 * t[k]) + 1e-15 * sin(2 * PI * 37 * t[k]);
    ck_assert_int_eq(rs_envelope_of(t, y, N, &e), RS_OK);
    ck_assert_msg(fabs(e.rate + 8) < 0.02, "rate %.6g", e.rate);
    ck_assert_msg(e.t_last < 2.0, "fitted into the noise up to %g s", e.t_last);
    /* fewer than three extrema after the first: no rate */
    for (int k = 0; k < N; k++)
        y[k] = 1e-3 * sin(2 * PI * 0.5 * t[k]);
    ck_assert_int_eq(rs_envelope_of(t, y, N, &e), RS_FEW_EXTREMA);
    ck_assert(isnan(e.rate) && isnan(e.freq));
}
END_TEST

/* The sweep's rate and freq figures read the same extrema from a CSV. */
START_TEST(rate_and_freq_figures_of_a_csv)
{
    rs_sweep_spec *s;
    char err[512];
    ck_assert_int_eq(rs_sweep_spec_create(&s), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_figure(s, "rate:y", err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_figure(s, "freq:y", err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_sweep_spec_figure(s, "max:x", err, sizeof err), RS_OK);
    ck_assert_str_eq(rs_sweep_spec_figure_name(s, 0), "rate(y)");
    size_t cap = 200000, len = 0;
    char *csv = malloc(cap);
    len += (size_t)snprintf(csv + len, cap - len, "time,x,y\n");
    for (int k = 0; k <= 1500; k++) {
        const double tk = k * 0.002;
        len += (size_t)snprintf(csv + len, cap - len, "%.17g,%d,%.17g\n", tk, k,
                                0.002 * exp(-0.37 * tk) * sin(2 * PI * 1.3 * tk));
    }
    double fig[3];
    ck_assert_int_eq(rs_sweep_figures_of_csv(s, csv, len, fig, err, sizeof err), RS_OK);
    ck_assert_msg(fabs(fig[0] + 0.37) < 2e-4, "rate %.6g", fig[0]);
    ck_assert_msg(fabs(fig[1] - 1.3) < 2e-4, "freq %.6g", fig[1]);
    ck_assert(fig[2] == 1500);
    free(csv);
    rs_sweep_spec_free(&s);
}
END_TEST

/* ================================================================ linear model */

/* The model's data (vehicles/examples/wheelset_cone.vdl, the profiles and
 * the runtime's default E and ν), set again in the test's scenario. */
static const double m_ws = 1250, Ix = 700, Iy = 100, r0 = 0.45, b0 = 0.75, b_r = 0.75, grav = 9.81;
static const double ky = 1e5, kyaw = 1e5;
static const double gam = 1.0 / 40, R_rail = 0.3;   /* cone_1in40.prf, arc_r300.prf */
static const double E_young = 2.1e11, nu = 0.28;

typedef struct lin {
    double m, Iz, ky, kpsi;           /* mass (with roll inertia), yaw inertia, springs */
    double f11, f22, f23, f33;        /* creep coefficients per wheel                  */
    double b, r, lambda;              /* contact half distance, rolling radius, conicity */
    double kappa, kg, gyro;           /* roll coupling, gravitational stiffness,
                                         I_y ρ / r (gyroscopic yaw per unit V ẏ)       */
    double a, bb, C[4], rho;          /* for the report                                */
} lin;

/* K(e), E(e) by the arithmetic-geometric mean. */
static void elliptic(double e, double *K, double *E)
{
    double a = 1, b = sqrt(1 - e * e), c = e, s = 0.5 * e * e, p = 0.5;
    for (int n = 0; n < 60 && fabs(c) > 1e-17; n++) {
        const double an = 0.5 * (a + b), bn = sqrt(a * b);
        c = 0.5 * (a - b);
        a = an;
        b = bn;
        p *= 2;
        s += p * c * c;
    }
    *K = PI / (2 * a);
    *E = *K * (1 - s);
}

/* Hertz semi-axes (Johnson §4.2): A < B the curvature half sums; a (along
 * the smaller sum) >= b.  B/A = ((a/b)² E − K) / (K − E), e² = 1 − (b/a)²;
 * m³ = 2E / (π (1 − e²)), n = m sqrt(1 − e²). */
static void hertz(double A, double B, double N, double *a, double *b)
{
    double lo = 1e-9, hi = 1 - 1e-15;
    for (int i = 0; i < 200; i++) {
        const double e = 0.5 * (lo + hi);
        double K, E;
        elliptic(e, &K, &E);
        const double ratio = (E / (1 - e * e) - K) / (K - E);
        if (ratio < B / A)
            lo = e;
        else
            hi = e;
    }
    const double e = 0.5 * (lo + hi);
    double K, E;
    elliptic(e, &K, &E);
    const double m = cbrt(2 * E / (PI * (1 - e * e))), n = m * sqrt(1 - e * e);
    const double c = cbrt(1.5 * N * (1 - nu * nu) / (E_young * (A + B)));
    *a = m * c;
    *b = n * c;
}

/* Kalker 1990, Table E.3, branch b/a (a > b): rows b/a = 1, 0.9, 0.8, 0.7,
 * 0.6; C11, C22, C23, C33 at ν = 0, 0.25, 0.5. */
static const double kG[5] = {1, 0.9, 0.8, 0.7, 0.6};
static const double kT[5][4][3] = {
    {{3.4, 4.12, 5.2}, {3.4, 3.67, 3.98}, {1.33, 1.47, 1.63}, {1.21, 1.19, 1.16}},
    {{3.51, 4.22, 5.3}, {3.51, 3.81, 4.16}, {1.44, 1.59, 1.77}, {1.16, 1.11, 1.06}},
    {{3.65, 4.36, 5.42}, {3.65, 3.99, 4.39}, {1.58, 1.75, 1.94}, {1.1, 1.04, 0.954}},
    {{3.82, 4.54, 5.58}, {3.82, 4.21, 4.67}, {1.76, 1.95, 2.18}, {1.05, 0.965, 0.852}},
    {{4.06, 4.78, 5.8}, {4.06, 4.5, 5.04}, {2.01, 2.23, 2.5}, {1.01, 0.892, 0.751}}};

static double in_nu(const double c[3])
{
    const double l0 = (nu - 0.25) * (nu - 0.5) / 0.125, l1 = -nu * (nu - 0.5) / 0.0625,
                 l2 = nu * (nu - 0.25) / 0.125;
    return 1 / (l0 / c[0] + l1 / c[1] + l2 / c[2]);
}

static void kalker(double a_over_b, double C[4])
{
    const double g = 1 / a_over_b;
    ck_assert_msg(g <= 1 && g >= 0.6, "b/a = %g outside the embedded rows", g);
    int i = 0;
    while (i < 3 && g < kG[i + 1])
        i++;
    const double w = (kG[i] - g) / (kG[i] - kG[i + 1]);
    for (int k = 0; k < 4; k++)
        C[k] = (1 - w) * in_nu(kT[i][k]) + w * in_nu(kT[i + 1][k]);
}

/* Levels of the model, each adding to the one before:
 *   0  Wickens as in reference/contact.md: f = G a b C11 on both axes,
 *      nominal γ, b0, r0
 *   1  f22 = G a b C22 for the lateral creep
 *   2  the contact geometry of the cone on the arc: b, r, λ
 *   3  spin creep: f23, f33
 *   4  roll coupling: κ, k_g, roll inertia
 *   5  gyroscopic yaw moment (the complete model) */
static void lin_setup(lin *L, int level)
{
    memset(L, 0, sizeof *L);
    const double d0 = atan(gam);
    const double b = b_r - R_rail * sin(d0), r = r0 + gam * (b0 - b);
    const double rho = gam / (b - gam * r);
    const double N = m_ws * grav / (2 * cos(d0));
    double a, bb;
    hertz(cos(d0) / (2 * r), 1 / (2 * R_rail), N, &a, &bb);
    kalker(a / bb, L->C);
    const double G = E_young / (2 * (1 + nu));
    L->a = a;
    L->bb = bb;
    L->rho = rho;
    L->m = m_ws;
    L->Iz = Ix;
    L->ky = ky;
    L->kpsi = kyaw;
    L->kappa = 1;
    L->f11 = L->f22 = G * a * bb * L->C[0];
    L->b = b0;
    L->r = r0;
    L->lambda = gam;
    if (level >= 1)
        L->f22 = G * a * bb * L->C[1];
    if (level >= 2) {
        L->b = b;
        L->r = r;
        L->lambda = gam * b_r / (b - gam * r);
    }
    if (level >= 3) {
        L->f23 = G * pow(a * bb, 1.5) * L->C[2];
        L->f33 = G * a * a * bb * bb * L->C[3];
    }
    if (level >= 4) {
        L->kappa = 1 + r * rho;
        L->kg = m_ws * grav * rho;
        L->m = m_ws + Ix * rho * rho;
    }
    if (level >= 5)
        L->gyro = Iy * rho / r;
}

/* det(M s² + C s + K) = c[4] s⁴ + ... + c[0]. */
static void char_poly(const lin *L, double V, double c[5])
{
    const double M11 = L->m, M22 = L->Iz;
    const double C11 = 2 * L->f22 * L->kappa * L->kappa / V, C12 = 2 * L->kappa * L->f23 / V;
    const double C21 = -2 * L->f23 * L->kappa / V + L->gyro * V, C22 = 2 * (L->f11 * L->b * L->b + L->f33) / V;
    const double K11 = L->ky + L->kg, K12 = -2 * L->f22 * L->kappa;
    const double K21 = 2 * L->f11 * L->b * L->lambda / L->r, K22 = L->kpsi + 2 * L->f23;
    c[4] = M11 * M22;
    c[3] = M11 * C22 + C11 * M22;
    c[2] = M11 * K22 + C11 * C22 + K11 * M22 - C12 * C21;
    c[1] = C11 * K22 + K11 * C22 - C12 * K21 - K12 * C21;
    c[0] = K11 * K22 - K12 * K21;
}

/* Routh–Hurwitz for a quartic with c[4] > 0: stable iff every c[i] > 0 and
 * c1 (c2 c3 − c1 c4) − c0 c3² > 0.  Returns that determinant, or −1 when a
 * coefficient is not positive. */
static double hurwitz(const lin *L, double V)
{
    double c[5];
    char_poly(L, V, c);
    for (int i = 0; i < 5; i++)
        if (!(c[i] > 0))
            return -1;
    return c[1] * (c[2] * c[3] - c[1] * c[4]) - c[0] * c[3] * c[3];
}

/* The roots (Durand–Kerner): the largest real part and its |imaginary part|. */
static double max_real(const lin *L, double V, double *imag)
{
    double c[5];
    char_poly(L, V, c);
    double complex z[4];
    for (int k = 0; k < 4; k++)
        z[k] = 10 * cpow(0.4 + 0.9 * I, k);
    for (int it = 0; it < 3000; it++)
        for (int k = 0; k < 4; k++) {
            double complex p = c[4], d = c[4];
            for (int j = 3; j >= 0; j--)
                p = p * z[k] + c[j];
            for (int j = 0; j < 4; j++)
                if (j != k)
                    d *= z[k] - z[j];
            z[k] -= p / d;
        }
    double best = -INFINITY;
    for (int k = 0; k < 4; k++)
        if (creal(z[k]) > best) {
            best = creal(z[k]);
            *imag = fabs(cimag(z[k]));
        }
    return best;
}

/* The speed where the Hurwitz determinant changes sign, by bisection in
 * [lo, hi] (stable at lo, unstable at hi); NaN if not bracketed. */
static double lin_critical(const lin *L, double lo, double hi)
{
    if (!(hurwitz(L, lo) > 0) || hurwitz(L, hi) > 0)
        return NAN;
    for (int i = 0; i < 100; i++) {
        const double mid = 0.5 * (lo + hi);
        if (hurwitz(L, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

START_TEST(linear_model_sanity)
{
    lin L;
    lin_setup(&L, 5);
    /* a free wheelset hunts at every speed */
    L.ky = L.kpsi = 0;
    for (double V = 1; V < 300; V *= 1.7) {
        double im;
        ck_assert_msg(max_real(&L, V, &im) > 0, "free wheelset stable at %g m/s", V);
        ck_assert(!(hurwitz(&L, V) > 0));
    }
    /* no inertia, no springs: Klingel's kinematic sway, ω = V sqrt(λ/(r b)) */
    lin_setup(&L, 2);
    L.ky = L.kpsi = 0;
    L.m = L.Iz = 1e-6;
    double im;
    const double re = max_real(&L, 10, &im);
    const double w = 10 * sqrt(L.lambda / (L.r * L.b));
    ck_assert_msg(fabs(im - w) < 1e-4 * w && fabs(re) < 1e-4 * w, "root %g%+gi, Klingel %g", re, im, w);
    /* the suspended wheelset: stable below, unstable above, a crossing pair */
    lin_setup(&L, 5);
    const double vc = lin_critical(&L, 5, 200);
    ck_assert(isfinite(vc));
    ck_assert(max_real(&L, 0.99 * vc, &im) < 0);
    ck_assert(max_real(&L, 1.01 * vc, &im) > 0);
    ck_assert(fabs(max_real(&L, vc, &im)) < 1e-6 && im > 1);
}
END_TEST

/* ================================================================ command */

/* Runs `railsym critical-speed` on the wheelset with step dt; the critical
 * speed and frequency it prints. */
static int run_critical_with(const char *dir, const char *tag, double dt, const char *extra, const char *lines,
                             double *vc, double *fc, char *log, size_t loglen)
{
    char scn[600], out[600];
    snprintf(scn, sizeof scn, "%s/%s.scn", dir, tag);
    snprintf(out, sizeof out, "%s/%s", dir, tag);
    snprintf(log, loglen, "%s/%s.log", dir, tag);
    char text[1024];
    snprintf(text, sizeof text,
             "duration 3\nstep %.17g\noutput 0.002\nmethod imex\n"
             "param m_ws = %.17g\nparam Ix = %.17g\nparam Iy = %.17g\nparam r0 = %.17g\nparam b0 = %.17g\n"
             "param b_r = %.17g\nparam g = %.17g\nparam ky = %.17g\nparam kyaw = %.17g\n"
             "columns y yaw\n%s",
             dt, m_ws, Ix, Iy, r0, b0, b_r, grav, ky, kyaw, lines);
    sweep_write(scn, text);
    char *argv[] = {(char *)sweep_railsym_bin(), "critical-speed", MODEL, "--scenario", scn, "--range", "30:50",
                    "--bisection", "--jobs", "2", "--tol", "0.003", "--out", out, (char *)extra, NULL};
    const int st = sweep_run(argv, log);
    char *s = sweep_slurp(log, NULL);
    const char *p = s ? strstr(s, "critical speed: ") : NULL;
    const char *q = s ? strstr(s, "hunting frequency ") : NULL;
    *vc = p ? strtod(p + strlen("critical speed: "), NULL) : NAN;
    *fc = q ? strtod(q + strlen("hunting frequency "), NULL) : NAN;
    if (st != 0 || !p)
        fprintf(stderr, "railsym critical-speed (%s) exited %d:\n%s\n", tag, st, s ? s : "");
    free(s);
    return st;
}

static int run_critical(const char *dir, const char *tag, double dt, const char *extra, double *vc, double *fc,
                        char *log, size_t loglen)
{
    return run_critical_with(dir, tag, dt, extra, "", vc, fc, log, loglen);
}

START_TEST(critical_speed_matches_eigenvalues)
{
    static const char *what[] = {"Wickens, f = G a b C11, gamma, b0, r0", "+ f22 = G a b C22",
                                 "+ cone-on-arc contact geometry", "+ spin creep f23, f33",
                                 "+ roll coupling, gravitational stiffness", "+ gyroscopic yaw moment"};
    lin L;
    double vlin[6];
    for (int level = 0; level <= 5; level++) {
        lin_setup(&L, level);
        vlin[level] = lin_critical(&L, 5, 200);
        printf("critical speed, linear model %d (%s): %.4f m/s\n", level, what[level], vlin[level]);
    }
    printf("  b = %.6f m, r = %.6f m, lambda = %.6f (gamma %.4f), roll %.5f rad/m, a = %.4g m, b = %.4g m "
           "(a/b %.4f), C11 %.4f C22 %.4f C23 %.4f C33 %.4f, f11 %.4g N, f22 %.4g N, f23 %.4g N m, f33 %.4g N m^2\n",
           L.b, L.r, L.lambda, gam, L.rho, L.a, L.bb, L.a / L.bb, L.C[0], L.C[1], L.C[2], L.C[3], L.f11, L.f22,
           L.f23, L.f33);
    const double vc = vlin[5];
    double im;
    ck_assert(fabs(max_real(&L, vc, &im)) < 1e-6);
    const double fc = im / (2 * PI);

    char dir[512], log[700];
    sweep_scratch(dir, sizeof dir, "crit");
    double v1, f1, v2, f2;
    ck_assert_int_eq(run_critical(dir, "dt4", 4e-4, NULL, &v1, &f1, log, sizeof log), 0);
    ck_assert_int_eq(run_critical(dir, "dt2", 2e-4, NULL, &v2, &f2, log, sizeof log), 0);
    const double vx = 2 * v2 - v1, fx = 2 * f2 - f1;   /* first order: Richardson */
    printf("critical speed, railsym critical-speed: %.4f m/s (dt 4e-4), %.4f m/s (dt 2e-4), %.4f m/s "
           "extrapolated; eigenvalues %.4f m/s: %+.2f %%, %+.2f %%, %+.2f %%\n",
           v1, v2, vx, vc, 100 * (v1 - vc) / vc, 100 * (v2 - vc) / vc, 100 * (vx - vc) / vc);
    printf("hunting frequency at the critical speed: %.4f Hz (dt 2e-4), %.4f Hz extrapolated; eigenvalue %.4f Hz\n",
           f2, fx, fc);
    ck_assert_msg(fabs(v2 - vc) <= 0.03 * vc, "critical speed %.4f m/s, eigenvalues %.4f m/s", v2, vc);
    ck_assert_msg(fabs(vx - vc) <= 0.01 * vc, "extrapolated %.4f m/s, eigenvalues %.4f m/s", vx, vc);
    ck_assert_msg(fabs(f2 - fc) <= 0.03 * fc, "frequency %.4f Hz, eigenvalue %.4f Hz", f2, fc);
    /* `railsym linear` (rs_linear: the generated M, delta_jac and the
     * contact linearized by the runtime, no simulation) against the same
     * Routh–Hurwitz root of the Wickens model written here.  Measured:
     * −0.06 % in speed and in frequency.  What the model here neglects
     * (head comment: the gravitational yaw moment, 0.2 % of k_ψ, and the
     * gyroscopic load transfer's lateral force, < 0.1 %) is worth less than
     * 0.3 % of either; 0.3 % is also five times what is measured, and well
     * below what the model's main terms move the speed by (the printed
     * levels: contact geometry −1.6 %, roll coupling +1.0 %, gyroscopic
     * moment +3.6 %; the spin creep only −0.05 %), so losing one of those
     * from the linearization fails the test. */
    rs_linear_config lc;
    rs_linear_config_default(&lc);
    lc.model_dir = "generated/wheelset_cone";
    lc.v_lo = 30;
    lc.v_hi = 50;
    lc.n_speeds = 41;
    lc.quiet = 1;
    rs_linear_result lr;
    char lerr[2000];
    ck_assert_msg(rs_linear_sweep(&lc, &lr, lerr, sizeof lerr) == RS_OK, "rs_linear_sweep: %s", lerr);
    printf("critical speed, railsym linear: %.4f m/s at %.4f Hz; Routh-Hurwitz %.4f m/s at %.4f Hz: %+.2f %%, %+.2f %%\n",
           lr.v_crit, lr.f_crit, vc, fc, 100 * (lr.v_crit - vc) / vc, 100 * (lr.f_crit - fc) / fc);
    ck_assert_msg(fabs(lr.v_crit - vc) <= 0.003 * vc, "railsym linear %.4f m/s, Routh-Hurwitz %.4f m/s", lr.v_crit, vc);
    ck_assert_msg(fabs(lr.f_crit - fc) <= 0.003 * fc, "railsym linear %.4f Hz, eigenvalue %.4f Hz", lr.f_crit, fc);
    rs_linear_result_free(&lr);
    /* first order in the step: the finer step is closer, by about half */
    ck_assert_msg(fabs(v2 - vc) < fabs(v1 - vc) && fabs(v2 - vc) > 0.3 * fabs(v1 - vc),
                  "not first order: %.4f, %.4f, %.4f", v1, v2, vc);

    /* The same search with the elastic contact (`contact elastic`: Hertz's
     * force-approach law per patch instead of the normal constraint, linear
     * Kalker creep per patch).  Hunting is a lateral and yaw motion that the
     * normal compliance hardly touches: the same eigenvalues within the same
     * bounds, and within 1 % of the constraint mode's answer at the same
     * step, yet not equal to it (the scenario's mode was used). */
    double e1, g1, e2, g2;
    ck_assert_int_eq(run_critical_with(dir, "el4", 4e-4, "--no-plot", "contact elastic\n", &e1, &g1, log, sizeof log), 0);
    ck_assert_int_eq(run_critical_with(dir, "el2", 2e-4, "--no-plot", "contact elastic\n", &e2, &g2, log, sizeof log), 0);
    const double ex = 2 * e2 - e1;
    printf("critical speed, elastic contact: %.4f m/s (dt 4e-4), %.4f m/s (dt 2e-4), %.4f m/s extrapolated: "
           "%+.2f %%, %+.2f %%, %+.2f %% from the eigenvalues, %+.3f %% from the constraint mode at dt 2e-4; "
           "%.4f Hz\n", e1, e2, ex, 100 * (e1 - vc) / vc, 100 * (e2 - vc) / vc, 100 * (ex - vc) / vc,
           100 * (e2 - v2) / v2, g2);
    ck_assert_msg(fabs(e2 - vc) <= 0.03 * vc, "elastic: critical speed %.4f m/s, eigenvalues %.4f m/s", e2, vc);
    ck_assert_msg(fabs(ex - vc) <= 0.01 * vc, "elastic: extrapolated %.4f m/s, eigenvalues %.4f m/s", ex, vc);
    ck_assert_msg(fabs(e2 - v2) <= 0.01 * v2 && e2 != v2, "elastic %.6f m/s, constraint %.6f m/s", e2, v2);
    ck_assert_msg(fabs(g2 - fc) <= 0.03 * fc, "elastic: frequency %.4f Hz, eigenvalue %.4f Hz", g2, fc);

    /* the CSV: every run, sorted by speed, stable below, unstable above */
    char path[700];
    snprintf(path, sizeof path, "%s/dt2/critical_speed.csv", dir);
    char *csv = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert(strncmp(csv, "speed,rate,freq,status,round\n", 29) == 0);
    int rows = 0;
    double prev = 0;
    for (char *line = strchr(csv, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        char *e;
        const double v = strtod(line, &e);
        const double rate = strtod(e + 1, &e);
        ck_assert(v > prev);
        ck_assert_msg((rate < 0) == (v < v2), "%.6g m/s: rate %g, critical %g", v, rate, v2);
        ck_assert_ptr_nonnull(strstr(line, rate < 0 ? ",stable," : ",unstable,"));
        prev = v;
        rows++;
    }
    ck_assert_int_ge(rows, 6);
    free(csv);
    /* the plot is part of the answer: without gnuplot the test fails */
    if (!getenv("RAILSYM_GNUPLOT"))
        RS_REQUIRE_PROGRAM("/usr/bin/gnuplot", "install it: make deps (Debian package gnuplot-nox), "
                                               "or set RAILSYM_GNUPLOT to the program");
    {
        snprintf(path, sizeof path, "%s/dt2/critical_speed.png", dir);
        struct stat st;
        ck_assert_int_eq(stat(path, &st), 0);
        ck_assert_int_gt(st.st_size, 1000);
    }

    /* a re-run finds every run done: same answer, no result rewritten */
    snprintf(path, sizeof path, "%s/dt2/round01/v0001.csv", dir);
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    double v3, f3;
    ck_assert_int_eq(run_critical(dir, "dt2", 2e-4, "--no-plot", &v3, &f3, log, sizeof log), 0);
    ck_assert(v3 == v2 && f3 == f2);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert(before.st_ino == after.st_ino && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec &&
              before.st_mtim.tv_sec == after.st_mtim.tv_sec);
    sweep_rm_rf(dir);
}
END_TEST

/* Errors: usage (2), input (1) with file:line or the name and a suggestion,
 * and a range that brackets nothing (1, saying which way to move it). */
START_TEST(command_errors)
{
    char dir[512], scn[600], bad[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "criterr");
    snprintf(scn, sizeof scn, "%s/ok.scn", dir);
    snprintf(bad, sizeof bad, "%s/bad.scn", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/err.log", dir);
    sweep_write(scn, "duration 3\nstep 1e-3\noutput 0.002\ncolumns y\n");
    sweep_write(bad, "duration 2\nstepp 1e-3\n");
    const char *bin = sweep_railsym_bin();
    struct {
        const char *args[12];
        int status;
        const char *want;
    } cases[] = {
        {{"critical-speed", MODEL, NULL}, 2, "missing --scenario"},
        {{"critical-speed", MODEL, "-s", scn, "--range", "40", NULL}, 2, "write LO:HI"},
        {{"critical-speed", MODEL, "-s", scn, "--range", "50:40", NULL}, 2, "0 < LO < HI"},
        {{"critical-speed", MODEL, "-s", scn, "--bisection", "--jobs", "0", NULL}, 2, "--jobs"},
        {{"critical-speed", MODEL, "-s", scn, "--jobs", "2", NULL}, 2, "--jobs is an option of --bisection"},
        {{"critical-speed", MODEL, "-s", scn, "--bisection", "--large", "0.005", NULL}, 2,
         "--large is an option of the bifurcation diagram"},
        {{"critical-speed", MODEL, "-s", bad, "-o", out, NULL}, 1, "bad.scn:2: unknown statement 'stepp'"},
        {{"critical-speed", MODEL, "-s", scn, "--lateral", "yy", "-o", out, NULL}, 1, "did you mean 'y'?"},
        {{"critical-speed", "tests/no-such-model", "-s", scn, NULL}, 1, "no such file"},
        {{"critical-speed", MODEL, "-s", scn, "--bisection", "--range", "45:50", "-o", out, "-q", NULL}, 1,
         "already unstable at the lowest speed 45 m/s"},
        /* the 60 m/s run grows off the profile tables at t = 1.64 s: failed,
         * which is no verdict (it used to count as "already unstable") */
        {{"critical-speed", MODEL, "-s", scn, "--bisection", "--range", "60:80", "-o", out, "-q", NULL}, 1,
         "the run at the lowest speed 60 m/s failed (model 'wheelset_cone': simulation failed"},
        {{"critical-speed", MODEL, "-s", scn, "--bisection", "--range", "25:30", "-o", out, "-q", NULL}, 1,
         "still stable at the highest speed 30 m/s"},
        {{"critical-speed", "--help", NULL}, 0, "usage: railsym critical-speed MODEL.vdl|DIR --scenario FILE"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *argv[16];
        int n = 0;
        argv[n++] = (char *)bin;
        for (int j = 0; cases[k].args[j]; j++)
            argv[n++] = (char *)cases[k].args[j];
        argv[n] = NULL;
        char o2[700];
        snprintf(o2, sizeof o2, "%s%zu", out, k);
        for (int j = 0; j < n; j++)
            if (argv[j] == out)
                argv[j] = o2;
        const int st = sweep_run(argv, log);
        char *text = sweep_slurp(log, NULL);
        ck_assert_msg(st == cases[k].status && text && strstr(text, cases[k].want), "case %zu: exit %d, want %d "
                      "and \"%s\":\n%s", k, st, cases[k].status, cases[k].want, text ? text : "");
        free(text);
    }
    sweep_rm_rf(dir);
}
END_TEST

/* The classifier of rs_limit_cycle.h on sines whose envelope is known:
 * constant (a limit cycle of amplitude A), decaying, growing, growing by
 * less than the 1 % per period floor (a limit cycle: noise level), dying
 * into rounding noise. */
START_TEST(limit_cycle_classes)
{
    struct {
        double sigma, f;
        int cls;
    } cases[] = {{0, 2, RS_LC_LIMIT_CYCLE},     {-0.5, 2, RS_LC_DECAYING}, {0.5, 2, RS_LC_GROWING},
                 {0.01, 2, RS_LC_LIMIT_CYCLE},  /* e^{0.005} − 1 = 0.5 % per period < 1 % */
                 {0.03, 2, RS_LC_GROWING},      /* 1.5 % per period */
                 {-8, 2, RS_LC_DECAYING}};
    rs_lc_options o;
    rs_lc_options_default(&o);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rs_peaks p;
        rs_peaks_init(&p);
        const double A = 0.003, T = 6, dt = 1e-3;
        for (int k = 0; k <= (int)(T / dt); k++) {
            const double t = k * dt;
            rs_peaks_add(&p, t, A * exp(cases[i].sigma * t) * sin(2 * PI * cases[i].f * t + 0.3));
        }
        rs_lc c;
        ck_assert_int_eq(rs_lc_classify(&p, 0, T, &o, &c), RS_OK);
        rs_peaks_free(&p);
        ck_assert_msg(c.cls == cases[i].cls, "sigma %g: %s, want %s (change %g)", cases[i].sigma, rs_lc_name(c.cls),
                      rs_lc_name(cases[i].cls), c.change);
        if (cases[i].sigma > -1) {
            /* the rate of the second half, its error bar, the peak of the last 3 periods */
            ck_assert_msg(fabs(c.rate - cases[i].sigma) < 1e-3 && c.rate_se < 1e-3, "rate %g ± %g", c.rate,
                          c.rate_se);
            ck_assert_msg(fabs(c.freq - cases[i].f) < 1e-3, "freq %g", c.freq);
            /* the largest peak of the window: its last (growing) or first
             * (decaying) one, within half a period of the window's edge */
            const double sg = cases[i].sigma, edge = sg >= 0 ? T : T - o.periods / cases[i].f;
            const double want = A * exp(sg * edge), slack = exp(fabs(sg) / (2 * cases[i].f)) * 1.002;
            ck_assert_msg(c.amp < want * slack && c.amp > want / slack, "amplitude %g, want %g", c.amp, want);
        } else {
            ck_assert(c.amp < 1e-6);
        }
    }
}
END_TEST

/* A run's words (rs_bifurcation_describe) follow its class, never a
 * noise-level rate for a limit cycle (issue 22): synthetic peaks of known
 * envelope — a logistic growth from the 0.5 mm disturbance onto 3 mm
 * (settled by mid-run: a limit cycle that grew), the same cycle started
 * at 3 mm (stayed) and at 10 mm (shrank), a growing and a decaying sine —
 * classified by rs_limit_cycle.h, then worded. */
START_TEST(limit_cycle_run_words)
{
    struct {
        int kind;   /* 0 logistic 0.5 -> 3 mm, 1 constant 3 mm, 2 logistic 10 -> 3 mm, 3 e^{+0.5t}, 4 e^{-0.5t} */
        double offset;
        const char *want;
    } cases[] = {
        {0, 0.0005, "grew from 0.5 mm onto a limit cycle of amplitude 3 mm, 2 Hz (its peaks steady"},
        {1, 0.003, "stayed on a limit cycle of amplitude 3 mm, 2 Hz, from 3 mm"},
        {2, 0.01, "shrank from 10 mm onto a limit cycle of amplitude 3 mm, 2 Hz"},
        {3, 0.003, "grows (rate +0.5 "},
        {4, 0.003, "decays (rate -0.5 "},
    };
    rs_lc_options o;
    rs_lc_options_default(&o);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rs_peaks p;
        rs_peaks_init(&p);
        const double T = 6, dt = 1e-3, A = 0.003;
        for (int k = 0; k <= (int)(T / dt); k++) {
            const double t = k * dt;
            const double a0 = cases[i].kind == 2 ? 0.01 : 0.0005;
            const double env = cases[i].kind == 1   ? A
                               : cases[i].kind == 3 ? A * exp(0.5 * t)
                               : cases[i].kind == 4 ? A * exp(-0.5 * t)
                                                    : A / (1 + (A / a0 - 1) * exp(-4 * t));
            rs_peaks_add(&p, t, env * sin(2 * PI * 2 * t + 0.3));
        }
        rs_bifurcation_point pt;
        memset(&pt, 0, sizeof pt);
        pt.v = 50;
        pt.offset = cases[i].offset;
        ck_assert_int_eq(rs_lc_classify(&p, 0, T, &o, &pt.lc), RS_OK);
        rs_peaks_free(&p);
        char words[600];
        rs_bifurcation_describe(&pt, o.change_tol, words, sizeof words);
        printf("%s: %s\n", rs_lc_name(pt.lc.cls), words);
        ck_assert_msg(strstr(words, cases[i].want), "case %zu: \"%s\", want \"%s\"", i, words, cases[i].want);
        if (cases[i].kind <= 2)   /* a limit cycle: no rate in its words */
            ck_assert_msg(!strstr(words, "rate"), "%s", words);
        pt.failed = 1;
        pt.t_fail = 2.5;
        snprintf(pt.message, sizeof pt.message, "contact lifted off");
        rs_bifurcation_describe(&pt, o.change_tol, words, sizeof words);
        ck_assert_msg(strstr(words, "; the run failed at t = 2.5 s: contact lifted off"), "%s", words);
    }
    /* no oscillation to fit, yet L ends at 1 m (the elastic bogie's 5 mm
     * start at 80 m/s, wheelset gone sideways without a failure): said so,
     * never "decays to nothing" (rs_bifurcation.c marks it stuck, unclear) */
    rs_bifurcation_point pt;
    memset(&pt, 0, sizeof pt);
    pt.offset = 0.005;
    pt.l_end = 1.057;
    pt.stuck = 1;
    pt.lc.cls = RS_LC_UNCLEAR;
    pt.lc.rate = pt.lc.rate_se = pt.lc.freq = NAN;
    char words[600];
    rs_bifurcation_describe(&pt, 0.01, words, sizeof words);
    ck_assert_msg(strstr(words, "has no verdict (no oscillation to fit, yet it ends at 1057 mm from the centre, "
                                "started at 5 mm: held off-centre, not decayed)"), "%s", words);
}
END_TEST

/* The coach (generated/coach, elastic contact, FASTSIM at mu 0.3:
 * coach_hunt.scn, for 3 s), disturbed and measured on its first wheelset:
 * at 60 m/s the 0.5 mm disturbance grows onto a hunting limit cycle
 * (1.66 mm, 5.65 Hz); the verdict must say so — "already unstable at
 * 60 m/s: ... grew from 0.5 mm onto a limit cycle of amplitude A mm, F Hz"
 * — not a rate of ~1e-5 ± 1e-4 1/s read off the cycle (the old wording).
 * Before the equilibrium's noise test the runs did not start (the solve
 * with front.ws1.y held stalled at ~1e-2 N).  Loose bounds, for a verdict
 * that is about the wording: the amplitude above twice the 0.5 mm start
 * (it grew) and below 7 mm (the cycles are flange-bounded at 6.2–6.9 mm
 * from 80 to 200 m/s), the frequency 4–7 Hz (the linear hunting mode:
 * 4.91 Hz at 93.5 m/s).  No --lateral: the first wheelset's y is measured
 * (it was the car body's y, the first coordinate named y), and the log
 * says so.
 *
 * Then the bounded creep (issue 22, session 37): at 120 and 130 m/s every
 * run, 0.5 mm or the default large start, ends on a limit cycle on the
 * flange, none fails.  Its amplitude lies beyond the flangeway clearance
 * the log states (6.26 mm, from the rigid profiles' contact geometry: the
 * contact angle reaches 45 deg there) and less than 1 mm beyond it
 * (measured 6.745–6.766 mm: the Hertzian approach and the roll under the
 * flange force, which the rigid clearance leaves out; 1 mm is twice that).
 * With Kalker's linear law unbounded (coach_hunt.scn before session 37)
 * all four runs derailed within 0.5 s (the 0.5 mm ones after growing to
 * 8 mm): the unbounded flange creep forces push the wheels over their
 * flanges.
 *
 * These figures are the point normal law's, which the runs state
 * (`normal point`): its linear critical speed is 67.06 m/s.  The strip law
 * (the default) hunts faster at the centre and its coach is stable far
 * higher (linear 95.44 m/s; test_linear_elastic's
 * coach_strips_against_runs): at 60 and 70 m/s every disturbance decays
 * (coach_strips_decays_below). */
START_TEST(coach_limit_cycle_verdict)
{
    RS_REQUIRE_MODEL("coach");
    char dir[512], out[600], log[700];
    sweep_scratch(dir, sizeof dir, "coachbif");
    snprintf(out, sizeof out, "%s/bif", dir);
    snprintf(log, sizeof log, "%s/bif.log", dir);
    char *argv[] = {(char *)sweep_railsym_bin(), "critical-speed", "generated/coach", "--scenario",
                    "vehicles/examples/coach_hunt.scn", "--bifurcation", "--range", "60:70", "--speeds", "2",
                    "--large", "0.006", "--ramp-rate", "0", "--one-step", "--set",
                    "duration 3", "--set", "normal point", "--no-plot", "--out", out, NULL};
    const int st = sweep_run(argv, log);
    char *text = sweep_slurp(log, NULL);
    ck_assert_ptr_nonnull(text);
    printf("%s", text);
    ck_assert_int_eq(st, 1);
    /* no --lateral: the first wheelset's, said in the log */
    ck_assert_msg(strstr(text, "model 'coach': the hunting motion is measured on 'front.ws1.y', the first "
                               "wheelset's lateral coordinate (contact 'front.ws1.left')"), "%s", text);
    const char *key = "already unstable at the lowest speed 60 m/s: the small disturbance (front.ws1.y = 0.5 mm) "
                      "grew from 0.5 mm onto a limit cycle of amplitude ";
    const char *p = strstr(text, key);
    ck_assert_msg(p != NULL, "%s", text);
    char *e;
    const double amp = strtod(p + strlen(key), &e);
    ck_assert(strncmp(e, " mm, ", 5) == 0);
    const double f = strtod(e + 5, NULL);
    ck_assert_msg(amp > 1.0 && amp < 7.0 && f > 4.0 && f < 7.0, "amplitude %g mm, %g Hz", amp, f); /* 1.66, 5.65 */
    const char *eol = strchr(p, '\n');
    ck_assert_msg(!memmem(p, eol ? (size_t)(eol - p) : strlen(p), "rate", 4), "%s", p);
    free(text);

    /* on the flange at 120 and 130 m/s, bounded */
    snprintf(out, sizeof out, "%s/flange", dir);
    snprintf(log, sizeof log, "%s/flange.log", dir);
    char *argv2[] = {(char *)sweep_railsym_bin(), "critical-speed", "generated/coach", "--scenario",
                     "vehicles/examples/coach_hunt.scn", "--range", "120:130", "--speeds", "2", "--ramp-rate", "0",
                     "--one-step", "--set", "duration 3", "--set", "normal point", "--no-plot", "--out", out, NULL};
    sweep_run(argv2, log);
    text = sweep_slurp(log, NULL);
    ck_assert_ptr_nonnull(text);
    printf("%s", text);
    const char *ckey = "% of the flangeway clearance of contact 'front.ws1.left', ";
    const char *c = strstr(text, ckey);
    ck_assert_msg(c != NULL, "%s", text);
    const double clear_mm = strtod(c + strlen(ckey), NULL);
    ck_assert_msg(clear_mm > 6.0 && clear_mm < 6.5, "clearance %g mm", clear_mm); /* 6.26 */
    ck_assert_msg(!strstr(text, "failed"), "%s", text);
    int cycles = 0;
    for (const char *q = text; (q = strstr(q, "limit cycle of amplitude ")) != NULL; q++) {
        const char *bol = q;
        while (bol > text && bol[-1] != '\n')
            bol--;
        if (!strstr(bol, "m/s, front.ws1.y = ") || strstr(bol, "m/s, front.ws1.y = ") > q)
            continue;   /* the summary line repeats the first run's words */
        const double a = strtod(q + strlen("limit cycle of amplitude "), NULL);
        ck_assert_msg(a > clear_mm && a < clear_mm + 1.0, "amplitude %g mm, clearance %g mm", a, clear_mm);
        cycles++;
    }
    ck_assert_msg(cycles == 4, "%d runs on a limit cycle, want 4:\n%s", cycles, text);
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* The strip law's counterpart: the same runs at 60 and 70 m/s, far below
 * its linear critical speed (95.44 m/s, test_linear_elastic), decay from
 * both disturbances, and no loss of stability is reported.  Measured
 * (session 43): at 60 m/s both decay to nothing — the 6 mm one to 2.7 µm by
 * mid-run, which the classifier read as "unclear" (rate −1.1 ± 1.2 1/s over
 * the settled state's own residual) until a run's noise floor became a
 * thousandth of its disturbance (rs_bifurcation.c RS_BIF_DIED); at 70 m/s
 * the 0.5 mm one at −3.90 1/s, 4.87 Hz, the 6 mm one at −4.26 1/s,
 * 4.91 Hz. */
START_TEST(coach_strips_decays_below)
{
    RS_REQUIRE_MODEL("coach");
    char dir[512], out[600], log[700];
    sweep_scratch(dir, sizeof dir, "coachstrips");
    snprintf(out, sizeof out, "%s/bif", dir);
    snprintf(log, sizeof log, "%s/bif.log", dir);
    char *argv[] = {(char *)sweep_railsym_bin(), "critical-speed", "generated/coach", "--scenario",
                    "vehicles/examples/coach_hunt.scn", "--bifurcation", "--range", "60:70", "--speeds", "2",
                    "--large", "0.006", "--ramp-rate", "0", "--one-step", "--set", "duration 3", "--set",
                    "normal strips", "--no-plot", "--out", out, NULL};
    sweep_run(argv, log);
    char *text = sweep_slurp(log, NULL);
    ck_assert_ptr_nonnull(text);
    printf("%s", text);
    int runs = 0;
    for (const char *q = text; (q = strstr(q, " m/s, front.ws1.y = ")) != NULL; q++) {
        const char *eol = strchr(q, '\n');
        const size_t len = eol ? (size_t)(eol - q) : strlen(q);
        ck_assert_msg(memmem(q, len, ": decaying: ", 12) != NULL, "%.*s", (int)len, q);
        runs++;
    }
    ck_assert_msg(runs == 4, "%d runs, want 4:\n%s", runs, text);
    ck_assert_msg(strstr(text, "no loss of stability found in 60..70 m/s"), "%s", text);
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* The default hunting coordinate (rs_critical_default_lateral): the first
 * wheelset's y, by the first contact's name, on models whose first
 * coordinate named y is not a wheelset's (the coach: the car body's y;
 * the bogie: the frame's); "y" on a lone wheelset; the first y-named
 * coordinate, with the reason, on a model without contacts. */
START_TEST(default_lateral_is_the_first_wheelset)
{
    static const struct {
        const char *model, *want, *why;
    } cases[] = {
        {"coach", "front.ws1.y", "the first wheelset's lateral coordinate (contact 'front.ws1.left')"},
        {"bogie", "front.y", "the first wheelset's lateral coordinate (contact 'front.left')"},
        {"two_axle_wagon", "ws1.y", "(contact 'ws1.left')"},
        {"wheelset_cone", "y", "(contact 'left')"},
        {"free_body", "y", "the model has no wheel-rail contact"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char dir[300], err[1024], why[300];
        snprintf(dir, sizeof dir, "generated/%s", cases[k].model);
        rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
        ck_assert_msg(h != NULL, "%s: %s", dir, err);
        const rs_model *m = rs_loaded_model(h);
        const int i = rs_critical_default_lateral(m, why, sizeof why);
        ck_assert_msg(i >= 0 && strcmp(m->q_names[i], cases[k].want) == 0 && strstr(why, cases[k].why),
                      "%s: %s (%s), want %s", cases[k].model, i >= 0 ? m->q_names[i] : "none", why, cases[k].want);
        rs_unload(&h);
    }
}
END_TEST

/* Runs `railsym critical-speed ARGS... --out DIR/TAG` (args NULL-ended),
 * its output into DIR/TAG.log; the exit status, the output in *text (the
 * test fails if there is none; free it), echoed for the test's log. */
static int run_cli(const char *dir, const char *tag, const char *const args[], char **text)
{
    char out[600], log[700];
    snprintf(out, sizeof out, "%s/%s", dir, tag);
    snprintf(log, sizeof log, "%s/%s.log", dir, tag);
    const char *argv[40];
    size_t n = 0;
    argv[n++] = sweep_railsym_bin();
    argv[n++] = "critical-speed";
    for (size_t k = 0; args[k]; k++) {
        ck_assert(n + 3 < sizeof argv / sizeof argv[0]);
        argv[n++] = args[k];
    }
    argv[n++] = "--out";
    argv[n++] = out;
    argv[n] = NULL;
    const int st = sweep_run((char *const *)argv, log);
    *text = sweep_slurp(log, NULL);
    ck_assert_msg(*text != NULL, "no output in %s", log);
    printf("%s (exit %d):\n%s", tag, st, *text);
    return st;
}

/* The constraint contact's runs that stop where a wheel lifts off (here at
 * once: generated/wheelset with gravity reversed, g = −9.81) are its
 * single-point limit, not the vehicle's: each run's line says the run
 * failed and has no verdict, the lift-off message and the summary say to
 * use elastic contact. */
START_TEST(constraint_liftoff_says_use_elastic)
{
    RS_REQUIRE_MODEL("wheelset");
    char dir[512], scn[600];
    sweep_scratch(dir, sizeof dir, "lift");
    snprintf(scn, sizeof scn, "%s/lift.scn", dir);
    sweep_write(scn, "duration 0.01\nstep 1e-4\ncontact constraint\nparam g = -9.81\n");
    const char *args[] = {"generated/wheelset", "--scenario", scn, "--bifurcation", "--range", "20:30", "--speeds",
                          "2", "--ramp-rate", "0", "--one-step", "--no-plot", NULL};
    char *text;
    run_cli(dir, "bif", args, &text);
    ck_assert_msg(strstr(text, "20 m/s, y = 0.5 mm: unclear: has no verdict (too few peaks to fit); the run failed "
                               "at t = 0 s: ") &&
                      strstr(text, "lifts off: normal force N = ") &&
                      strstr(text, "cannot represent it (a wheel on tread and flange at once") &&
                      strstr(text, "use elastic contact"), "%s", text);
    ck_assert_msg(strstr(text, "4 run(s) stopped where a wheel lifted off or its contact point left the profile "
                               "tables: the constraint contact (one point per wheel)") &&
                      strstr(text, "run the diagram with elastic contact ('contact elastic' in the scenario"),
                  "%s", text);
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* Issue 22: a failed run is never a bracket's end.  generated/bogie with
 * its constraint contact over 10..80 m/s: the run at 80 m/s stops at
 * t = 0.27 s where a wheel lifts off (the single-point contact's limit).
 * The bisection used to take it as the unstable end and answer a speed
 * (25.3 m/s here; "20.459 m/s" in the audit, whose upper end failed at
 * t = 0.024 s); now it stops, naming the failed run and why, and the CSV
 * keeps it as failed.  The bifurcation diagram (the default) says each
 * failed run failed, leaves it out and reports no loss of stability. */
START_TEST(failed_run_ends_no_bracket)
{
    RS_REQUIRE_MODEL("bogie");
    char dir[512], path[700];
    sweep_scratch(dir, sizeof dir, "critfail");
    const char *bis[] = {"generated/bogie", "--scenario", "vehicles/examples/bogie.scn", "--range", "10:80",
                         "--bisection", "--no-plot", NULL};
    char *text;
    const int st = run_cli(dir, "bis", bis, &text);
    ck_assert_msg(st == 1 && !strstr(text, "critical speed: ") &&
                      strstr(text, "no bracket: stable up to 10 m/s, and the run at 80 m/s failed (") &&
                      strstr(text, "lifts off") &&
                      strstr(text, "a failed run is no evidence of instability and never ends a bracket"),
                  "exit %d:\n%s", st, text);
    free(text);
    snprintf(path, sizeof path, "%s/bis/critical_speed.csv", dir);
    text = sweep_slurp(path, NULL);
    ck_assert_msg(text && strstr(text, "\n80,") && strstr(strstr(text, "\n80,"), ",failed,"), "%s", text ? text : "");
    free(text);

    const char *bif[] = {"generated/bogie", "--scenario", "vehicles/examples/bogie.scn", "--range", "10:80",
                         "--speeds", "2", "--one-step", "--ramp-rate", "0", "--no-plot", NULL};
    const int st2 = run_cli(dir, "bif", bif, &text);
    ck_assert_msg(st2 == 1 && !strstr(text, "loss of stability (") &&
                      strstr(text, "80 m/s, front.y = 0.5 mm: unclear: has no verdict (too few peaks to fit); the run "
                                   "failed at t = ") &&
                      strstr(text, "no loss of stability found in 10..80 m/s; ") &&
                      strstr(text, "; 1 small-disturbance run(s) failed, left out (a failed run is no evidence of "
                                   "growth and ends no bracket): the first at 80 m/s, at t = "),
                  "exit %d:\n%s", st2, text);
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* A derailment ends a diagram's run, whatever the scenario says: the
 * elastic bogie (bogie.scn has no friction) at 75 and 80 m/s hunts into its
 * flanges and a wheel passes the flange's steepest point.  Before, the
 * elastic contact's event was only counted: the runs read "grows" or
 * "unclear ... held off-centre" with the bogie metres beside the track. */
START_TEST(derailed_run_fails)
{
    RS_REQUIRE_MODEL("bogie");
    char dir[512];
    sweep_scratch(dir, sizeof dir, "critderail");
    const char *args[] = {"generated/bogie", "--scenario", "vehicles/examples/bogie.scn", "--set", "contact elastic",
                          "--range", "75:80", "--speeds", "2", "--no-plot", NULL};
    char *text;
    const int st = run_cli(dir, "bif", args, &text);
    ck_assert_msg(strstr(text, "the run failed at t = ") &&
                      strstr(text, "derailment (the contact passed the flange's steepest point)") &&
                      strstr(text, "no Nadal's limit: friction 0") && !strstr(text, "held off-centre") &&
                      strstr(text, "ramp-down: the large disturbance at 80 m/s failed"),
                  "exit %d:\n%s", st, text);
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* Issue 22: the bifurcation's default large disturbance lies inside the
 * flangeway.  The old fixed 10 mm exceeded S1002/60E1's clearance: every
 * large run started pressed into the flange and failed.  Now: 80 % of the
 * clearance, computed from the model's profiles and wheel positions and
 * said in the log.  Checked against `railsym contact-geometry` on the two
 * profile files with the standard track (gauge 1435 mm at the 60E1 1:40
 * file's gauge point, flange back 1360 mm, r0 0.46 m: what bogie.vdl's
 * b0 = 0.75, b_r = 0.753035, r0 = 0.46 encode): the first shift, on a
 * 0.01 mm grid, whose left contact angle reaches 45 deg (the contact jumps
 * from the flange root, 35 deg, to the flank, 70 deg, there).  A flangeless
 * cone (generated/wheelset_cone) keeps 10 mm and says why. */
START_TEST(default_large_within_flangeway)
{
    RS_REQUIRE_MODEL("bogie");
    char dir[512], log[700], path[700], prefix[600];
    sweep_scratch(dir, sizeof dir, "flangeway");
    snprintf(prefix, sizeof prefix, "%s/cg", dir);
    snprintf(log, sizeof log, "%s/cg.log", dir);
    char *cg[] = {(char *)sweep_railsym_bin(), "contact-geometry", "vehicles/profiles/s1002.prf",
                  "vehicles/profiles/60e1_1in40.prf", "--shift", "-0.008:0.008:1601", "--out", prefix, NULL};
    ck_assert_int_eq(sweep_run(cg, log), 0);
    snprintf(path, sizeof path, "%s_geometry.csv", prefix);
    char *csv = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(csv);
    double y45 = NAN, y_prev = NAN;
    for (char *line = strchr(csv, '\n') + 1; line && *line && isnan(y45);
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        double f[8];   /* y_m,dr_m,roll_rad,z_m,left_wheel_y_m,left_rail_y_m,left_radius_m,left_angle_rad */
        char *p = line;
        for (int k = 0; k < 8; k++) {
            f[k] = strtod(p, &p);
            p++;
        }
        if (f[0] >= 0 && f[7] >= PI / 4)
            y45 = f[0];
        y_prev = f[0];
    }
    (void)y_prev;
    free(csv);
    ck_assert(isfinite(y45));

    const char *bif[] = {"generated/bogie", "--scenario", "vehicles/examples/bogie.scn", "--range", "10:11",
                         "--speeds", "2", "--one-step", "--ramp-rate", "0", "--no-plot", NULL};
    char *text;
    run_cli(dir, "bif", bif, &text);
    const char *key = "large disturbance: ";
    const char *p = strstr(text, key);
    ck_assert_msg(p, "%s", text);
    char *e;
    const double large_mm = strtod(p + strlen(key), &e);
    const char *key2 = " mm, 80 % of the flangeway clearance of contact 'front.left', ";
    ck_assert_msg(strncmp(e, key2, strlen(key2)) == 0, "%s", p);
    const double y_mm = strtod(e + strlen(key2), NULL);
    printf("flangeway: %.4f mm (contact-geometry: 45 deg between %.2f and %.2f mm); large disturbance %.4f mm\n",
           y_mm, 1e3 * y45 - 0.01, 1e3 * y45, large_mm);
    /* the clearance lies in the contact-geometry grid cell where 45 deg is
     * crossed (printed to 3 digits: 0.005 mm) */
    ck_assert_msg(y_mm > 1e3 * y45 - 0.01 - 0.005 && y_mm <= 1e3 * y45 + 0.005, "%.4f mm, grid %.2f mm", y_mm,
                  1e3 * y45);
    ck_assert_msg(fabs(large_mm - 0.8 * 1e3 * y45) < 0.02 && large_mm < 1e3 * y45, "large %.4f mm", large_mm);
    free(text);
    /* the diagram's large branch starts there, and runs */
    snprintf(path, sizeof path, "%s/bif/bifurcation.csv", dir);
    csv = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(csv);
    const char *row = strstr(csv, "\n10,1,");
    ck_assert_msg(row, "%s", csv);
    const double off = strtod(row + strlen("\n10,1,"), &e);
    ck_assert_msg(fabs(1e3 * off - large_mm) < 1e-3 && strncmp(e, ",decaying,", 10) == 0, "%s", row);
    free(csv);

    /* a cone without a flange: 10 mm, and why */
    snprintf(path, sizeof path, "%s/cone.scn", dir);
    sweep_write(path, "duration 0.2\nstep 1e-3\n");
    const char *cone[] = {MODEL, "--scenario", path, "--range", "10:11", "--speeds", "2", "--one-step", "--ramp-rate",
                          "0", "--no-plot", NULL};
    run_cli(dir, "cone", cone, &text);
    ck_assert_msg(strstr(text, "large disturbance: 10 mm, the wheel of contact 'left' has no flange (its rigid "
                               "contact leaves the profile tables at a shift of "), "%s", text);
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

/* Runs `railsym critical-speed --bifurcation` on the sprung cone wheelset;
 * the exit status, the output in *text (free it). */
static int run_bifurcation(const char *dir, const char *tag, const char *range, const char *speeds, char **text)
{
    char scn[600], out[600], log[700];
    snprintf(scn, sizeof scn, "%s/%s.scn", dir, tag);
    snprintf(out, sizeof out, "%s/%s", dir, tag);
    snprintf(log, sizeof log, "%s/%s.log", dir, tag);
    char body[1024];
    snprintf(body, sizeof body,
             "duration 3\nstep 2e-4\noutput 0.002\nmethod imex\n"
             "param m_ws = %.17g\nparam Ix = %.17g\nparam Iy = %.17g\nparam r0 = %.17g\nparam b0 = %.17g\n"
             "param b_r = %.17g\nparam g = %.17g\nparam ky = %.17g\nparam kyaw = %.17g\n",
             m_ws, Ix, Iy, r0, b0, b_r, grav, ky, kyaw);
    sweep_write(scn, body);
    char *argv[] = {(char *)sweep_railsym_bin(), "critical-speed", MODEL, "--scenario", scn, "--range", (char *)range,
                    "--speeds", (char *)speeds, "--bifurcation", "--ramp-rate", "0", "--no-plot", "-q", "--out",
                    out, NULL};
    const int st = sweep_run(argv, log);
    *text = sweep_slurp(log, NULL);
    fprintf(stderr, "railsym critical-speed --bifurcation %s (exit %d):\n%s", range, st, *text ? *text : "");
    return st;
}

/* The loss of stability from constant-speed runs at dt = 0.2 ms and 0.1 ms,
 * extrapolated (first order) to dt -> 0, against the eigenvalues: within
 * 0.5 %, closer than the dt answer; the step's error printed beside it.
 * Then ranges where it must not report a critical speed: one where every
 * rate is below the 1 %-per-period floor (39.1..39.5 m/s straddles the
 * crossing, |σ| < 0.015 1/s: noise level by the rule), and a stable one. */
START_TEST(bifurcation_matches_eigenvalues)
{
    lin L;
    lin_setup(&L, 5);
    const double vc = lin_critical(&L, 5, 200);
    char dir[512];
    sweep_scratch(dir, sizeof dir, "bif");
    char *text;
    ck_assert_int_eq(run_bifurcation(dir, "grid", "30:50", "5", &text), 0);
    const char *p = strstr(text, "extrapolated to dt -> 0: ");
    const char *q = strstr(text, "loss of stability (small disturbance, y = 0.5 mm): ");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(q);
    char *e;
    const double vx = strtod(p + strlen("extrapolated to dt -> 0: "), &e);
    ck_assert(strncmp(e, " m/s +- ", 8) == 0);
    const double verr = strtod(e + 8, NULL);
    const double v1 = strtod(q + strlen("loss of stability (small disturbance, y = 0.5 mm): "), NULL);
    printf("bifurcation: loss of stability %.4f m/s (dt 2e-4), extrapolated %.4f +- %.3f m/s; eigenvalues %.4f m/s: "
           "%+.2f %%, %+.2f %%\n", v1, vx, verr, vc, 100 * (v1 - vc) / vc, 100 * (vx - vc) / vc);
    ck_assert_msg(fabs(vx - vc) <= 0.005 * vc, "extrapolated %.4f m/s, eigenvalues %.4f m/s", vx, vc);
    ck_assert(fabs(vx - vc) < fabs(v1 - vc));
    ck_assert(verr > 0 && verr < 0.02 * vc);
    free(text);
    /* the diagram: both branches at every grid speed */
    char path[700];
    snprintf(path, sizeof path, "%s/grid/bifurcation.csv", dir);
    char *csv = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert(strncmp(csv, "speed,branch,offset,class,amplitude_mm,", 39) == 0);
    ck_assert_ptr_nonnull(strstr(csv, "\n30,0,0.0005,decaying,"));
    ck_assert_ptr_nonnull(strstr(csv, "\n30,1,0.01,decaying,"));
    ck_assert_ptr_nonnull(strstr(csv, "\n45,0,0.0005,growing,"));
    free(csv);

    ck_assert_int_eq(run_bifurcation(dir, "noise", "39.1:39.5", "3", &text), 1);
    ck_assert_ptr_nonnull(strstr(text, "no loss of stability found in 39.1..39.5 m/s; small limit cycles of amplitude"));
    ck_assert_ptr_null(strstr(text, "loss of stability (small"));
    free(text);
    /* the bisection on the same range refuses the noise-level crossing too */
    {
        char scn[600], out[600], log[700];
        snprintf(scn, sizeof scn, "%s/noise.scn", dir);
        snprintf(out, sizeof out, "%s/bisect", dir);
        snprintf(log, sizeof log, "%s/bisect.log", dir);
        char *argv[] = {(char *)sweep_railsym_bin(), "critical-speed", MODEL, "--scenario", scn, "--range", "39.1:39.5",
                        "--bisection", "--jobs", "2", "--no-plot", "-q", "--out", out, NULL};
        ck_assert_int_eq(sweep_run(argv, log), 1);
        text = sweep_slurp(log, NULL);
        ck_assert_msg(text && strstr(text, "no loss of stability found in 39.1..39.5 m/s: the rates") &&
                      !strstr(text, "critical speed: "), "%s", text ? text : "");
        free(text);
    }
    ck_assert_int_eq(run_bifurcation(dir, "stable", "20:30", "2", &text), 1);
    ck_assert_ptr_nonnull(strstr(text, "no loss of stability found in 20..30 m/s: every small disturbance decays"));
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("critical_speed");
    TCase *env = tcase_create("envelope");
    tcase_add_test(env, envelope_of_damped_sines);
    tcase_add_test(env, envelope_transient_noise_and_too_few);
    tcase_add_test(env, rate_and_freq_figures_of_a_csv);
    tcase_add_test(env, limit_cycle_classes);
    tcase_add_test(env, limit_cycle_run_words);
    suite_add_tcase(s, env);
    TCase *lm = tcase_create("linear");
    tcase_add_test(lm, linear_model_sanity);
    tcase_add_test(lm, default_lateral_is_the_first_wheelset);
    suite_add_tcase(s, lm);
    TCase *cmd = tcase_create("command");
    tcase_set_timeout(cmd, 240);
    tcase_add_test(cmd, critical_speed_matches_eigenvalues);
    tcase_add_test(cmd, command_errors);
    tcase_add_test(cmd, bifurcation_matches_eigenvalues);
    tcase_add_test(cmd, coach_limit_cycle_verdict);
    tcase_add_test(cmd, coach_strips_decays_below);
    tcase_add_test(cmd, constraint_liftoff_says_use_elastic);
    suite_add_tcase(s, cmd);
    TCase *fail = tcase_create("failed_and_flangeway");
    tcase_set_timeout(fail, 60);
    tcase_add_test(fail, failed_run_ends_no_bracket);
    tcase_add_test(fail, default_large_within_flangeway);
    tcase_add_test(fail, derailed_run_fails);
    suite_add_tcase(s, fail);
    return rs_test_run(s);
}
