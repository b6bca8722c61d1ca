/*
 * test_linear.c — the linear stability analysis (runtime/app/rs_linear.h,
 * `railsym linear`, docs/linear.md) against answers it never computes:
 *
 *   - pendulum_frequency: generated/pendulum (a bob of mass m at l below the
 *     pivot, inertia J about its centre) linearized about its bottom has one
 *     undamped mode of f = √(m g l / (J + m l²)) / 2π, the compound
 *     pendulum's (√(g/L)/2π for J = 0), and damping ratio 0;
 *   - critical_speed_routh_hurwitz: generated/wheelset_cone (1:40 cones on
 *     R 300 mm rail heads, lateral and yaw springs ky, kyaw to a carrier)
 *     against the two-degree-of-freedom model written here,
 *         m ÿ + (2 f22 / V) ẏ + ky y − 2 f22 ψ = 0
 *         I ψ̈ + (2 f11 b² / V) ψ̇ + kyaw ψ + (2 f11 b λ / r0) y = 0
 *     with the roll the rails impose: a cone on a circular rail head (radius
 *     Rr) rolls the axle by φ = κ y, κ = λ / (b − λ (r0 + Rr)) (the wheel's
 *     contact point swings by r0 φ and the rail's by Rr φ: the rolling
 *     radii differ by 2 b φ = 2 λ (y + (r0 + Rr) φ)), so the conicity is
 *     λe = b κ (2.6 % above λ here), and the contact points move laterally
 *     by (1 + ε) y, ε = r0 κ: the lateral creepage is (1 + ε) ẏ / V − ψ and
 *     the lateral creep force acts on y with the factor (1 + ε):
 *         m ÿ + (2 f22 (1 + ε)² / V) ẏ + ky y − 2 f22 (1 + ε) ψ = 0
 *         I ψ̈ + (2 f11 b² / V) ψ̇ + kyaw ψ + (2 f11 b λe / r0) y = 0;
 *     plus the gyroscopic yaw moment of the spinning axle (spin inertia
 *     Iy, Ω = V / r0) rolling at φ̇ = κ ẏ, + Iy (V / r0) κ ẏ in the yaw
 *     equation (3.6 % of the critical speed: without it the gap was 3.6 %);
 *     whose characteristic quartic a4 s⁴ + … + a0 is stable while the
 *     Hurwitz determinant a1 a2 a3 − a0 a3² − a4 a1² > 0: its zero, found
 *     by bisection, is the critical speed.  f11 = G ab c11, f22 = G ab c22
 *     come from the Hertz ellipse at the static load N = m g / (2 cos γ)
 *     and Kalker's table (the runtime's rs_hertz / rs_kalker, computed here
 *     from the model's numbers).  Left out of the hand model, with their
 *     size: the spin creep (c23, (ab)^{1/2}/b ≈ 1 % of the lateral creep
 *     coupling), the gravitational stiffness (a cone on a circular rail
 *     head keeps its contact angle γ: the contact point stays at the rail
 *     where the slope is γ, so the normal forces' lateral resultant changes
 *     only through the load transfer, below 1 % of ky here), the roll
 *     inertia (roll is constrained); within 0.5 % (measured −0.10 %);
 *   - eigen_vs_simulation: the least-damped mode at 30 m/s (below the
 *     critical speed) against a run of the same model (rs_ws_create,
 *     rs_step) released 0.5 mm off centre: the period from the zero
 *     crossings of y, the damping ratio from the logarithmic decrement of
 *     its peaks: the frequency within 1 %, the damping ratio within 0.6 %
 *     (measured 0.34 %, IMEX's own O(ω dt) about 0.2 %; 0.83 % before the
 *     creep forces' variation with the normal loads was linearized);
 *   - pendulum_settles_before_linearizing: `equilibrium` moves the state to
 *     rest first (the bottom's frequency from th = 0.3); without it the
 *     distance from rest is the analytic angular acceleration;
 *   - coach_dominant_by_energy: generated/coach settled on its springs by
 *     the scenario's `equilibrium` from z = 0, at 80 and 100 m/s.
 *     At 80 m/s the least-damped mode is the car body's longitudinal one on
 *     the undamped secondary x springs: ranked by raw amplitude its leading
 *     coordinates were the wheel spins (radians, r0 = 0.46 m: a rolling
 *     wheelset turns 2.2 rad per metre it moves), by kinetic energy they
 *     are x coordinates; at 100 m/s hunting: lateral coordinates, no spin
 *     among the dominant ones.  Every mode's shares sum to 1;
 *   - creep_law_is_kalker: a scenario's `creep fastsim` gives the modes of
 *     `creep kalker` bit for bit (the analysis linearizes Kalker's law);
 *   - constraint_for_elastic_says_so: a scenario's `contact elastic` (or a
 *     description's `mode elastic`) without rs_linear_config.elastic is
 *     linearized with the constraint contact — the modes equal those of
 *     `contact constraint` bit for bit, and differ from the elastic ones —
 *     and the log says so once, naming where the elastic contact came from
 *     and the option that linearizes it; no note when the analysis already
 *     linearizes the runs' contact.  The runs' `normal` and `theta` lines
 *     (the elastic contact's) leave that analysis as it is.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_contact.h"
#include "rs_driver.h"
#include "rs_hertz.h"
#include "rs_kalker.h"
#include "rs_linear.h"
#include "rs_linear_frf.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_speed.h"
#include "rs_test.h"
#include "rs_test_decay.h"
#include "rs_test_linear.h"
#include "rt_fixtures.h"

#define PI 3.14159265358979323846
#define CONE "generated/wheelset_cone"

static char err[4000];

static void sweep(const char *dir, const char *set, double lo, double hi, int n, rs_linear_result *r)
{
    rs_linear_config c;
    rs_linear_config_default(&c);
    c.model_dir = dir;
    c.set_text = set;
    c.v_lo = lo;
    c.v_hi = hi;
    c.n_speeds = n;
    c.quiet = 1;
    const int st = rs_linear_sweep(&c, r, err, sizeof err);
    ck_assert_msg(st == RS_OK, "rs_linear_sweep: %s", err);
}

START_TEST(pendulum_frequency)
{
    rs_linear_result r;
    sweep("generated/pendulum", "initial th = 0", 0, 0, 0, &r);
    /* the model's numbers (vehicles/examples/pendulum.vdl) */
    const double m = 2.0, l = 0.8, J = 0.1, g = 9.81;
    const double f = sqrt(m * g * l / (J + m * l * l)) / (2 * PI);
    ck_assert_int_eq(r.n, 1);
    const rs_linear_modes *a = &r.at[0];
    ck_assert_int_eq(a->n_red, 1);
    ck_assert_int_eq(a->n, 1);
    ck_assert_int_eq(a->least, 0);
    ck_assert_msg(fabs(a->mode[0].freq - f) < 1e-9 * f, "f %.12g Hz, analytic %.12g Hz", a->mode[0].freq, f);
    ck_assert_msg(fabs(a->mode[0].zeta) < 1e-9, "zeta %g, undamped pendulum 0", a->mode[0].zeta);
    ck_assert_int_eq(a->mode[0].dom[0], 0);
    /* a heavier bob on the same rod: the parameter reaches the matrices */
    rs_linear_result_free(&r);
    sweep("generated/pendulum", "initial th = 0\nparam m = 8", 0, 0, 0, &r);
    const double f8 = sqrt(8 * g * l / (J + 8 * l * l)) / (2 * PI);
    ck_assert_msg(fabs(r.at[0].mode[0].freq - f8) < 1e-9 * f8, "m = 8: f %.12g Hz, analytic %.12g Hz",
                  r.at[0].mode[0].freq, f8);
    rs_linear_result_free(&r);
}
END_TEST

/* `equilibrium` in the scenario: the modes are about the state the model
 * rests in.  The pendulum started at th = 0.3 rad settles at the bottom and
 * gives the bottom's frequency; without the line it is linearized where it
 * stands, and the sweep reports how far that is from rest: the bob's
 * angular acceleration m g l sin 0.3 / (J + m l²). */
START_TEST(pendulum_settles_before_linearizing)
{
    const double m = 2.0, l = 0.8, J = 0.1, g = 9.81;
    const double f = sqrt(m * g * l / (J + m * l * l)) / (2 * PI);
    rs_linear_result r;
    sweep("generated/pendulum", "initial th = 0.3\nequilibrium", 0, 0, 0, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_msg(fabs(r.at[0].mode[0].freq - f) < 1e-9 * f, "f %.12g Hz, at the bottom %.12g Hz", r.at[0].mode[0].freq,
                  f);
    ck_assert_msg(r.at[0].rest_acc < 1e-9, "at rest: %g", r.at[0].rest_acc);
    rs_linear_result_free(&r);
    sweep("generated/pendulum", "initial th = 0.3", 0, 0, 0, &r);
    const double acc = m * g * l * sin(0.3) / (J + m * l * l);
    ck_assert_int_eq(r.at[0].rest_at, 0);
    ck_assert_msg(fabs(r.at[0].rest_acc - acc) < 1e-9 * acc, "rest_acc %.12g, analytic %.12g", r.at[0].rest_acc, acc);
    ck_assert_msg(fabs(r.at[0].mode[0].freq - f) > 1e-3 * f, "about th = 0.3 the frequency differs: %g", r.at[0].mode[0].freq);
    rs_linear_result_free(&r);
}
END_TEST

/* The hand model of wheelset_cone (vehicles/examples/wheelset_cone.vdl). */
typedef struct hand {
    double m, I, ky, kyaw, b, lam, r0, f11, f22;
    double Iy;   /* the axle's spin inertia (gyroscopic coupling) */
} hand;

static hand hand_model(void)
{
    hand h = {1250, 700, 1e5, 1e5, 0.75, 1.0 / 40.0, 0.45, 0, 0, 100};
    const double g = 9.81, E = 2.1e11, nu = 0.28;   /* the runtime's default steel */
    const double gam = atan(h.lam);
    const double N = h.m * g / (2 * cos(gam));
    /* principal radii: wheel along the rolling direction r0 / cos γ (a cone's
     * normal section), across ∞ (a straight generatrix); rail across 0.3 m,
     * along ∞ */
    double A, B, c[4];
    rs_hertz_curvature_sums(h.r0 / cos(gam), INFINITY, INFINITY, 0.3, &A, &B);
    rs_hertz_ellipse el;
    ck_assert_int_eq(rs_hertz_ellipse_compute(N, E, nu, A, B, &el), 0);
    ck_assert_int_ge(rs_kalker_coeffs(el.a / el.b, nu, c), 0);
    const double G = E / (2 * (1 + nu));
    /* the contact points: where the rail head's slope is γ, Rr sin γ inside
     * the crown at b_r = 0.75 m (the arm of the longitudinal creep forces) */
    h.b = 0.75 - 0.3 * sin(gam);
    h.f11 = G * el.a * el.b * c[0];
    h.f22 = G * el.a * el.b * c[1];
    return h;
}

/* The Hurwitz determinant Δ3 of the hand model's quartic at speed V. */
static double hurwitz(const hand *h, double V)
{
    /* the roll the rails impose, φ = κ y, and what it does (header comment) */
    const double Rr = 0.3, kappa = h->lam / (h->b - h->lam * (h->r0 + Rr));
    const double lam_e = h->b * kappa, eps = h->r0 * kappa;
    const double cy = 2 * h->f22 * (1 + eps) * (1 + eps) / V, cp = 2 * h->f11 * h->b * h->b / V;
    const double a4 = h->m * h->I, a3 = h->m * cp + h->I * cy, a2 = h->m * h->kyaw + h->I * h->ky + cy * cp;
    /* the gyroscopic yaw moment of the spinning axle (Ω = V / r0) rolling
     * at φ̇ = κ ẏ: + Iy (V / r0) κ ẏ in the yaw equation, which adds
     * 2 f22 (1 + ε) Iy V κ / r0 to a1 (hand->Iy = 0: without it) */
    const double gyro = h->Iy * V * kappa / h->r0;
    const double a1 = cy * h->kyaw + cp * h->ky + 2 * h->f22 * (1 + eps) * gyro;
    const double a0 = h->ky * h->kyaw + 4 * h->f11 * h->f22 * (1 + eps) * h->b * lam_e / h->r0;
    return a1 * a2 * a3 - a0 * a3 * a3 - a4 * a1 * a1;
}

/* The zero of Δ3 by bisection (stable at 5 m/s, unstable at 200). */
static double hand_critical(const hand *h)
{
    double lo = 5, hi = 200;
    ck_assert(hurwitz(h, lo) > 0 && hurwitz(h, hi) < 0);
    while (hi - lo > 1e-9 * hi) {
        const double mid = 0.5 * (lo + hi);
        if (hurwitz(h, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

START_TEST(critical_speed_routh_hurwitz)
{
    const hand h = hand_model();
    hand h0 = h;
    h0.Iy = 0;
    const double v_hand = hand_critical(&h), v_nogyro = hand_critical(&h0);

    rs_linear_result r;
    sweep(CONE, NULL, 20, 60, 9, &r);
    ck_assert_msg(!isnan(r.v_crit), "no critical speed found in 20..60 m/s");
    printf("wheelset_cone: linear critical speed %.5g m/s (%.4g Hz), Routh-Hurwitz hand model %.5g m/s (%+.2f %%), "
           "without the gyroscopic term %.5g m/s (%+.2f %%) (f11 %.4g N, f22 %.4g N)\n", r.v_crit, r.f_crit, v_hand,
           100 * (r.v_crit - v_hand) / v_hand, v_nogyro, 100 * (r.v_crit - v_nogyro) / v_nogyro, h.f11, h.f22);
    /* Measured: 39.653 m/s against 39.692 m/s (−0.10 %).  The gap of 3.6 %
     * this test used to allow 4.5 % for (38.28 m/s) was a modelling
     * difference, not the linearization: the hand model lacked the
     * gyroscopic yaw moment of the spinning axle, which the full model has
     * (as test_critical_speed.c's model, where it is worth 3.6 % too).
     * Still left out here, found in the full model's matrices: a yaw
     * stiffness of 4.6e3 N m/rad from the steady spin-creep forces (K_f
     * with f0 ≠ 0), a lateral one of 850 N/m (the normal forces' geometric
     * stiffness through the imposed roll), the spin creep; about 1–2 %
     * each, cancelling here to 0.1 %.  0.5 %: five times what is measured,
     * below any one of those terms, so losing one from the linearization
     * (or the gyroscopic term) fails the test. */
    ck_assert_msg(fabs(r.v_crit - v_hand) < 0.005 * v_hand, "critical speed %.6g m/s, hand model %.6g m/s",
                  r.v_crit, v_hand);
    /* the least-damped mode is the hunting one: lateral first, yaw second */
    const rs_linear_modes *a = &r.at[r.n - 1];
    ck_assert_str_eq(r.q_names[a->mode[a->least].dom[0]], "y");
    ck_assert_str_eq(r.q_names[a->mode[a->least].dom[1]], "yaw");
    rs_linear_result_free(&r);
}
END_TEST

/* A workspace of wheelset_cone as `railsym linear` makes it, at speed V. */
static rs_ws *cone_ws(const rs_model *m, double V, rs_binding **b, double dt)
{
    rs_scenario s;
    rs_scenario_init(&s);
    ck_assert_msg(rs_scenario_load(CONE, 1, NULL, NULL, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(rs_scenario_bind(&s, m, b, err, sizeof err) == 0, "%s", err);
    rs_scenario_free(&s);
    rs_options opt;
    rs_options_default(&opt);
    rs_binding_options(*b, &opt);
    static char cdir[4096];
    if (rs_driver_contact_dir(CONE, cdir, sizeof cdir))
        opt.contact_dir = cdir;
    opt.contact = rs_wheel_rail_contact();
    opt.method = RS_IMEX_EULER;
    opt.dt = dt;
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(m, &opt, &ws, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(rs_binding_apply(*b, ws, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(rs_speed_apply(ws, V, err, sizeof err) == 0, "%s", err);
    return ws;
}

START_TEST(eigen_vs_simulation)
{
    const double V = 30;
    rs_loaded *h = rt_load(CONE);
    const rs_model *m = rs_loaded_model(h);
    rs_binding *b = NULL;
    rs_ws *ws = cone_ws(m, V, &b, 1e-4);
    ck_assert_int_eq(rs_ws_init(ws), 0);
    double f_lin, z_lin;
    rs_test_least_mode(ws, &f_lin, &z_lin);
    rs_ws_free(&ws);
    rs_binding_free(&b);

    /* the run: released 0.5 mm off centre (small: the creep stays linear) */
    /* IMEX Euler damps the oscillation by O(ω dt): 2 % at 1e-4 s, well
     * below 1 % at 2e-5 s */
    const double dt = 2e-5;
    ws = cone_ws(m, V, &b, dt);
    const int iy = rt_coord_index(m, "y");
    rs_ws_q(ws)[iy] = 5e-4;
    ck_assert_msg(rs_ws_init(ws) == 0, "%s", rs_ws_error(ws));
    /* measured after the fast modes died out (t > 0.5 s) */
    const rs_test_decay d = rs_test_decay_run(ws, iy, 0.0, 6.0, dt, 0.5);
    const double f_sim = d.freq, z_sim = d.zeta;
    printf("wheelset_cone at %g m/s: linear %.5g Hz, zeta %.5g; simulation %.5g Hz, zeta %.5g\n", V, f_lin, z_lin,
           f_sim, z_sim);
    ck_assert_msg(fabs(f_sim - f_lin) < 0.01 * f_lin, "frequency: linear %.6g Hz, simulated %.6g Hz", f_lin,
                  f_sim);
    /* 0.6 %: measured 0.34 %; without the creep forces' variation with the
     * normal loads (rs_linear_load.c) 0.83 % */
    ck_assert_msg(fabs(z_sim - z_lin) < 0.006 * z_lin, "damping ratio: linear %.6g, simulated %.6g", z_lin, z_sim);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_unload(&h);
}
END_TEST

/* the name ends in ".SUFFIX" or is SUFFIX */
static int coord_is(const char *name, const char *suffix)
{
    const size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0 && (n == k || name[n - k - 1] == '.');
}

/* The analysis linearizes Kalker's law whatever the scenario's `creep`
 * (rs_linear_ws_at): a scenario written for the non-linear runs, with
 * `creep fastsim` (coach_hunt.scn), gives the same modes as `creep kalker`
 * at the same friction, since FASTSIM's slope at zero creepage is
 * Kalker's.  It used to stop: the constraint contact the analysis uses
 * refused FASTSIM. */
START_TEST(creep_law_is_kalker)
{
    rs_linear_result rk, rf;
    sweep(CONE, "friction 0.3\ncreep kalker", 30, 50, 3, &rk);
    sweep(CONE, "friction 0.3\ncreep fastsim", 30, 50, 3, &rf);
    ck_assert_int_eq(rk.n, 3);
    ck_assert_int_eq(rf.n, 3);
    for (int i = 0; i < rk.n; i++) {
        const rs_linear_mode *a = &rk.at[i].mode[rk.at[i].least], *b = &rf.at[i].mode[rf.at[i].least];
        ck_assert_msg(a->re == b->re && a->im == b->im, "%g m/s: kalker %.17g%+.17gi, fastsim %.17g%+.17gi",
                      rk.at[i].speed, a->re, a->im, b->re, b->im);
    }
    ck_assert_msg(rk.v_crit == rf.v_crit, "kalker %.17g m/s, fastsim %.17g m/s", rk.v_crit, rf.v_crit);
    printf("wheelset_cone, friction 0.3: linear critical speed %.5g m/s with either creep law\n", rk.v_crit);
    rs_linear_result_free(&rk);
    rs_linear_result_free(&rf);
}
END_TEST

START_TEST(coach_dominant_by_energy)
{
    rs_linear_result r;
    /* from z = 0 (the springs unloaded, the wheels carrying their own
     * weight only): the sweep settles the coach on its springs first */
    sweep("generated/coach", "equilibrium", 80, 100, 2, &r);
    ck_assert_int_eq(r.n, 2);
    for (int i = 0; i < r.n; i++)
        ck_assert_msg(r.at[i].rest_acc < 1e-6, "%g m/s: not at rest (%g at %d)", r.at[i].speed, r.at[i].rest_acc,
                      r.at[i].rest_at);
    for (int i = 0; i < r.n; i++)
        for (int k = 0; k < r.at[i].n; k++) {
            const rs_linear_mode *md = &r.at[i].mode[k];
            double sum = 0;
            ck_assert_ptr_nonnull(md->share);
            for (int j = 0; j < r.n_q; j++)
                sum += md->share[j];
            ck_assert_msg(fabs(sum - 1) < 1e-9, "mode %d at %g m/s: shares sum to %.12g", k + 1, r.at[i].speed, sum);
        }
    char text[512];
    const rs_linear_modes *a = &r.at[0];
    const rs_linear_mode *lon = &a->mode[a->least];
    rs_linear_dominant_text(lon, (const char *const *)r.q_names, r.n_q, text, sizeof text);
    printf("coach at 80 m/s: least damped %.4g Hz (%s)\n", lon->freq, text);
    ck_assert_msg(lon->freq > 0.9 && lon->freq < 1.2, "the longitudinal mode near 1.05 Hz: %g Hz", lon->freq);
    for (int d = 0; d < RS_LINEAR_DOM; d++) {
        ck_assert_int_ge(lon->dom[d], 0);
        ck_assert_msg(coord_is(r.q_names[lon->dom[d]], "x"), "80 m/s: %s", text);
    }
    a = &r.at[1];
    const rs_linear_mode *hunt = &a->mode[a->least];
    rs_linear_dominant_text(hunt, (const char *const *)r.q_names, r.n_q, text, sizeof text);
    printf("coach at 100 m/s: least damped %.4g Hz, zeta %.4g (%s)\n", hunt->freq, hunt->zeta, text);
    ck_assert_msg(hunt->zeta < 0 && hunt->freq > 4 && hunt->freq < 6, "hunting near 5 Hz, unstable: %g Hz, zeta %g",
                  hunt->freq, hunt->zeta);
    for (int d = 0; d < RS_LINEAR_DOM; d++) {
        ck_assert_int_ge(hunt->dom[d], 0);
        const char *q = r.q_names[hunt->dom[d]];
        ck_assert_msg(coord_is(q, "y") || coord_is(q, "yaw"), "100 m/s: %s", text);
    }
    rs_linear_result_free(&r);
}
END_TEST

/* The log lines of a sweep, joined by newlines, and the notes among them. */
static char logged[8192];
static void keep_line(void *ctx, rs_log_kind kind, const char *text)
{
    (void)ctx;
    (void)kind;
    const size_t n = strlen(logged);
    snprintf(logged + n, sizeof logged - n, "%s\n", text);
}

static int notes_logged(void)
{
    int n = 0;
    for (const char *p = logged; (p = strstr(p, "note: ")); p++)
        n++;
    return n;
}

/* The 6 m/s modes of dir with set (elastic: rs_linear_config.elastic) and
 * the number of notes its log holds. */
static int notes_of(const char *dir, const char *set, int elastic, rs_linear_result *r)
{
    rs_linear_config c;
    rs_linear_config_default(&c);
    c.model_dir = dir;
    c.set_text = set;
    c.v_lo = c.v_hi = 6;
    c.n_speeds = 1;
    c.quiet = 1;
    c.elastic = elastic;
    c.log.fn = keep_line;
    logged[0] = '\0';
    ck_assert_msg(rs_linear_sweep(&c, r, err, sizeof err) == RS_OK, "%s: %s", dir, err);
    return notes_logged();
}

static int same_modes(const rs_linear_result *a, const rs_linear_result *b)
{
    const rs_linear_modes *x = &a->at[0], *y = &b->at[0];
    if (x->n != y->n)
        return 0;
    for (int k = 0; k < x->n; k++)
        if (x->mode[k].freq != y->mode[k].freq || x->mode[k].zeta != y->mode[k].zeta)
            return 0;
    return 1;
}

START_TEST(constraint_for_elastic_says_so)
{
    rs_linear_result plain, said, elastic;
    ck_assert_int_eq(notes_of("generated/wheelset", "contact constraint", 0, &plain), 0);
    ck_assert_int_eq(notes_of("generated/wheelset", "contact elastic", 0, &said), 1);
    printf("%s", logged);
    ck_assert_msg(strstr(logged, "the scenario says 'contact elastic'") && strstr(logged, "--elastic"), "%s", logged);
    ck_assert_msg(same_modes(&plain, &said), "the note's analysis is the constraint contact's");
    /* the elastic runs' own settings (normal law, θ) do not stop it: the
     * constraint contact refused `normal point` (session 42) */
    rs_linear_result_free(&said);
    ck_assert_int_eq(notes_of("generated/wheelset", "contact elastic\nnormal point\ntheta 0.8", 0, &said), 1);
    ck_assert_msg(same_modes(&plain, &said), "with 'normal point' and 'theta 0.8': not the constraint contact's");
    ck_assert_int_eq(notes_of("generated/wheelset", "contact elastic", 1, &elastic), 0);
    ck_assert_msg(!same_modes(&plain, &elastic), "--elastic linearizes another contact");
    rs_linear_result_free(&plain);
    rs_linear_result_free(&said);
    rs_linear_result_free(&elastic);
    /* frequency responses: always the constraint contact, noted */
    for (int k = 0; k < 2; k++) {
        rs_linear_frf_config fc;
        memset(&fc, 0, sizeof fc);
        rs_linear_config_default(&fc.lin);
        fc.lin.model_dir = "generated/wheelset";
        fc.lin.set_text = k ? "contact elastic" : "contact constraint";
        fc.lin.v_lo = fc.lin.v_hi = 6;
        fc.lin.n_speeds = 1;
        fc.lin.quiet = 1;
        fc.lin.log.fn = keep_line;
        fc.f_lo = fc.f_hi = 1;
        fc.n_f = 1;
        rs_linear_frf fr;
        logged[0] = '\0';
        ck_assert_msg(rs_linear_frf_run(&fc, &fr, err, sizeof err) == RS_OK, "frf: %s", err);
        rs_linear_frf_free(&fr);
        ck_assert_int_eq(notes_logged(), k);
    }
    ck_assert_msg(strstr(logged, "frequency responses linearize the constraint contact"), "%s", logged);
    /* the description's mode, the scenario silent */
    ck_assert_int_eq(notes_of("generated/wheelset_flange", NULL, 0, &said), 1);
    ck_assert_msg(strstr(logged, "the model's contacts say 'mode elastic'"), "%s", logged);
    ck_assert_int_eq(notes_of("generated/wheelset_flange", "contact constraint", 0, &plain), 0);
    ck_assert_msg(same_modes(&plain, &said), "wheelset_flange: the constraint contact either way");
    rs_linear_result_free(&plain);
    rs_linear_result_free(&said);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear");
    TCase *tc = tcase_create("linear");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, pendulum_frequency);
    tcase_add_test(tc, pendulum_settles_before_linearizing);
    tcase_add_test(tc, critical_speed_routh_hurwitz);
    tcase_add_test(tc, eigen_vs_simulation);
    tcase_add_test(tc, coach_dominant_by_energy);
    tcase_add_test(tc, creep_law_is_kalker);
    tcase_add_test(tc, constraint_for_elastic_says_so);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
