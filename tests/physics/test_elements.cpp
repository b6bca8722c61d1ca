// test_elements.cpp — the suspension elements of docs/elements.md, each on a
// one-coordinate model (a mass on x, or a body rolling about x), against
// its definition written here by hand: tables (piecewise linear with linear
// extrapolation; the monotone C¹ spline's values at hand-computed Hermite
// points, its monotonicity and C¹ joins), the bump stop's clearance and
// cubic, the smoothed Coulomb law, the anti-roll bar's roll stiffness
// kt (2b/a)²; potentials against a numerical integral of the force; the
// Jacobians the generator takes (Store::diff, the same as delta_jac)
// against central differences; and the classic Coulomb-damped oscillator:
// a mass on a spring with a friction damper loses 4 F0/k of amplitude per
// cycle and stops within ±F0/k.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "system.hpp"
#include "vdl_elaborate.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;

namespace {

// A mass m = 2 on the ground x axis with `element` between O and G.
const char *kMass = "param m = 2\n"
                    "coord x\n"
                    "point G = O + [x, 0, 0] in ground\n"
                    "body b  mass m  cg G  inertia diag(1, 1, 1) in ground\n";

std::unique_ptr<System> load(const std::string &text)
{
    auto sys = std::make_unique<System>();
    vdl::Sources src;
    vdl::Diagnostics d(src);
    bool ok = vdl::load_text("elements.vdl", text, *sys, d);
    ck_assert_msg(ok, "%s", d.format().c_str());
    return sys;
}

struct OneDof {
    std::unique_ptr<System> sys;
    Ex d, dq, dv, V;
    explicit OneDof(const std::string &element) : sys(load(std::string(kMass) + element + "\n"))
    {
        Store &st = sys->store();
        Ex q = sys->coords()[0];
        d = sys->delta()[0];
        dq = st.diff(d, q);
        dv = st.diff(d, sys->vel(q));
        V = sys->potential_energy();
    }
    SymValues at(double x, double v) const
    {
        SymValues s = sys->defaults();
        s.set(SymKind::Coord, 0, x);
        s.set(SymKind::Vel, 0, v);
        return s;
    }
    double eval(Ex e, double x, double v) const { return sys->store().eval(e, at(x, v)); }
    // The element's tension: δ = −tension on the mass (no gravity).
    double tension(double x, double v) const { return -eval(d, x, v); }
};

// Piecewise linear through (xs, ys), straight on with the end slopes.
double interp(const std::vector<double> &xs, const std::vector<double> &ys, double x)
{
    size_t n = xs.size(), i = 0;
    if (x <= xs[0]) i = 0;
    else if (x >= xs[n - 1]) i = n - 2;
    else
        while (!(x >= xs[i] && x <= xs[i + 1])) ++i;
    return ys[i] + (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) * (x - xs[i]);
}

// Simpson's rule for ∫_0^x f.
template <class F>
double integral(F f, double x)
{
    const int n = 2000;
    double h = x / n, s = f(0) + f(x);
    for (int i = 1; i < n; ++i) s += (i % 2 ? 4 : 2) * f(i * h);
    return s * h / 3;
}

// ∂δ/∂x and ∂δ/∂ẋ against central differences at (x, v).
void check_jacobian(const OneDof &m, double x, double v)
{
    const double h = 1e-6;
    double fq = (m.eval(m.d, x + h, v) - m.eval(m.d, x - h, v)) / (2 * h);
    double fv = (m.eval(m.d, x, v + h) - m.eval(m.d, x, v - h)) / (2 * h);
    double aq = m.eval(m.dq, x, v), av = m.eval(m.dv, x, v);
    ck_assert_msg(std::fabs(aq - fq) <= 1e-6 * (1 + std::fabs(fq)), "d/dx at x=%g v=%g: %.9g vs FD %.9g", x, v, aq, fq);
    ck_assert_msg(std::fabs(av - fv) <= 1e-6 * (1 + std::fabs(fv)), "d/dv at x=%g v=%g: %.9g vs FD %.9g", x, v, av, fv);
}

const std::vector<double> kSamples = {-0.31, -0.1, -0.07, -0.02, 0.0, 0.013, 0.04, 0.05, 0.11, 0.2, 0.45};

}  // namespace

START_TEST(test_table_spring)
{
    OneDof m("table lin = [[-0.1, -500], [0, 0], [0.05, 100], [0.2, 1000]]\n"
             "spring s  between O and G  k lin  along ex(ground)");
    const std::vector<double> xs = {-0.1, 0, 0.05, 0.2}, ys = {-500, 0, 100, 1000};
    for (double x : kSamples) {
        double want = interp(xs, ys, x);
        ck_assert_msg(std::fabs(m.tension(x, 0) - want) <= 1e-9 * (1 + std::fabs(want)), "T(%g) = %.12g, want %.12g", x,
                      m.tension(x, 0), want);
        double Vw = integral([&](double s) { return interp(xs, ys, s); }, x);
        ck_assert_msg(std::fabs(m.eval(m.V, x, 0) - Vw) <= 1e-6 * (1 + std::fabs(Vw)), "V(%g) = %.12g, want %.12g", x,
                      m.eval(m.V, x, 0), Vw);
        check_jacobian(m, x + 1e-4, 0.3);   // off the knots: the slope jumps there
    }
    // beyond the ends: the end segments' slopes 5000 and 6000 N/m
    ck_assert(std::fabs(m.tension(-1.1, 0) - (-500 - 5000)) < 1e-6);
    ck_assert(std::fabs(m.tension(1.2, 0) - (1000 + 6000)) < 1e-6);
}
END_TEST

START_TEST(test_spline_damper)
{
    OneDof m("table damping = [[-0.3, -9000], [-0.1, -5000], [0, 0], [0.1, 5000], [0.3, 9000]] spline\n"
             "damper d  between O and G  c damping  along ex(ground)");
    // By hand: secants 2e4, 5e4, 5e4, 2e4; Fritsch–Carlson slopes at the
    // points 0, 3e4, 5e4, 3e4, 0 (inside: (w1 + w2)/(w1/d0 + w2/d1) with
    // w1 = 2h1 + h0, w2 = h1 + 2h0; at the ends the three-point slope
    // ((2h0 + h1)d0 − h0 d1)/(h0 + h1) = 0).  At mid-segment (t = ½) the
    // Hermite basis is ½, h/8, ½, −h/8:
    //   T(−0.2) = ½(−9000) + 0.2/8·0 + ½(−5000) − 0.2/8·3e4 = −7750
    //   T(0.05) = 0 + 0.1/8·5e4 + ½·5000 − 0.1/8·3e4 = 2750
    const double pts[][2] = {{-0.3, -9000}, {-0.1, -5000}, {0, 0}, {0.1, 5000}, {0.3, 9000},
                             {-0.2, -7750}, {0.05, 2750}, {0.2, 7750}, {-0.05, -2750},
                             {0.5, 9000},   {-0.7, -9000}};   // outside: the end slope, 0 here
    for (const auto &p : pts)
        ck_assert_msg(std::fabs(m.tension(0, p[0]) - p[1]) < 1e-7, "T(%g) = %.12g, want %g", p[0], m.tension(0, p[0]),
                      p[1]);
    // monotone (never negative damping) and C¹: the slope at the points from
    // the left and the right agree with the hand slopes
    double prev = -1e300;
    for (int i = 0; i <= 1400; ++i) {
        double v = -0.35 + i * 0.0005, T = m.tension(0, v);
        ck_assert_msg(T >= prev - 1e-9, "not monotone at v = %g", v);
        prev = T;
    }
    const double knots[][2] = {{-0.1, 3e4}, {0, 5e4}, {0.1, 3e4}};
    for (const auto &k : knots) {
        double h = 1e-7;
        double left = (m.tension(0, k[0]) - m.tension(0, k[0] - h)) / h;
        double right = (m.tension(0, k[0] + h) - m.tension(0, k[0])) / h;
        ck_assert_msg(std::fabs(left - k[1]) < 1e-3 * k[1] && std::fabs(right - k[1]) < 1e-3 * k[1],
                      "slope at %g: %g | %g, want %g", k[0], left, right, k[1]);
        ck_assert_msg(std::fabs(-m.eval(m.dv, 0, k[0]) - k[1]) < 1e-6 * k[1], "C at %g", k[0]);
    }
    for (double v : kSamples) check_jacobian(m, 0.1, v + 1e-4);   // off the points: f'' jumps there
    ck_assert(m.eval(m.V, 0.3, 0.2) == 0);   // a damper has no potential
}
END_TEST

START_TEST(test_bump_stop)
{
    OneDof m("bumpstop stop  between O and G  gap 0.03  k 2e4  k3 1e7  along ex(ground)");
    auto law = [](double x) {   // written out: zero inside ±gap, k e + k3 e³ beyond
        double e = x > 0.03 ? x - 0.03 : x < -0.03 ? x + 0.03 : 0.0;
        return 2e4 * e + 1e7 * e * e * e;
    };
    for (double x : kSamples) {
        ck_assert_msg(std::fabs(m.tension(x, 0) - law(x)) <= 1e-9 * (1 + std::fabs(law(x))), "T(%g)", x);
        double Vw = integral(law, x);
        ck_assert_msg(std::fabs(m.eval(m.V, x, 0) - Vw) <= 1e-6 * (1 + Vw), "V(%g) = %g, want %g", x,
                      m.eval(m.V, x, 0), Vw);
        check_jacobian(m, x + 1e-4, -0.2);
    }
    ck_assert(m.tension(0.02, 0) == 0 && m.tension(-0.029, 0) == 0);
    ck_assert(std::fabs(m.tension(0.05, 0) - 480) < 1e-9);       // 2e4·0.02 + 1e7·0.02³
    ck_assert(std::fabs(m.eval(m.V, 0.05, 0) - 4.4) < 1e-9);     // ½·2e4·0.02² + ¼·1e7·0.02⁴
    ck_assert(m.eval(m.dq, 0.0, 0) == 0);                         // no stiffness inside the clearance
}
END_TEST

START_TEST(test_friction_law)
{
    OneDof m("friction f  between O and G  force 10  v0 0.01  along ex(ground)");
    for (double v : kSamples) {
        double want = 10 * v / std::sqrt(v * v + 1e-4);
        ck_assert_msg(std::fabs(m.tension(0, v) - want) < 1e-12 * 10, "F(%g)", v);
        check_jacobian(m, 0.0, v);
    }
    ck_assert(std::fabs(m.tension(0, 0.01) - 10 / std::sqrt(2.0)) < 1e-12);
    ck_assert(std::fabs(-m.eval(m.dv, 0, 0) - 10 / 0.01) < 1e-9);   // the slope F0/v0 at rest
}
END_TEST

START_TEST(test_antiroll_stiffness)
{
    // A body rolling by th about x at C (height 1); the bar on ground, its
    // links vertical from R = (0, ±b, 0.4) to Q = C + (0, ±b, −0.4) in the
    // body: Δ = z_Ql − z_Qr = 2b sin th, V = ½ kt (2b sin th / a)².
    auto sys = load("param kt = 2e5, a = 0.35, b = 1.1\n"
                    "coord th\n"
                    "base B = rotate(ground, x, th)\n"
                    "point C = O + [0, 0, 1] in ground\n"
                    "body car  mass 1000  cg C  inertia diag(500, 500, 500) in B\n"
                    "point R_l = O + [0, b, 0.4] in ground\n"
                    "point R_r = O + [0, -b, 0.4] in ground\n"
                    "point Q_l = C + [0, b, -0.4] in B\n"
                    "point Q_r = C + [0, -b, -0.4] in B\n"
                    "antiroll arb  left R_l and Q_l  right R_r and Q_r  kt kt  arm a  along ez(ground)\n");
    Store &st = sys->store();
    Ex q = sys->coords()[0], d = sys->delta()[0], K = -st.diff(d, q), V = sys->potential_energy();
    const double kt = 2e5, a = 0.35, b = 1.1;
    for (double th : {0.0, 0.02, -0.1, 0.3}) {
        SymValues s = sys->defaults();
        s.set(SymKind::Coord, 0, th);
        double Vw = 0.5 * kt * std::pow(2 * b * std::sin(th) / a, 2);
        double dw = -kt * std::pow(2 * b / a, 2) * std::sin(th) * std::cos(th);   // −dV/dθ
        ck_assert_msg(std::fabs(st.eval(V, s) - Vw) <= 1e-9 * (1 + Vw), "V(%g)", th);
        ck_assert_msg(std::fabs(st.eval(d, s) - dw) <= 1e-9 * (1 + std::fabs(dw)), "delta(%g)", th);
    }
    SymValues s0 = sys->defaults();
    const double k_roll = kt * 4 * b * b / (a * a);   // 1.98e6 N m/rad
    ck_assert_msg(std::fabs(st.eval(K, s0) - k_roll) <= 1e-9 * k_roll, "roll stiffness %g, want %g", st.eval(K, s0),
                  k_roll);
}
END_TEST

START_TEST(test_coulomb_oscillator)
{
    // m ẍ = −k x − F0 ẋ/√(ẋ² + v0²), x(0) = A0, ẋ(0) = 0; m = 2, k = 200
    // (ω = 10 rad/s), F0 = 2: the amplitude falls by 4 F0/k = 0.04 m per
    // cycle (2 F0/k per half cycle, each half cycle a harmonic arc about
    // ±F0/k) until it is below F0/k, where the mass sticks.
    OneDof m("spring s  between O and G  k 200  along ex(ground)\n"
             "friction f  between O and G  force 2  v0 1e-4  along ex(ground)");
    const double mass = 2, k = 200, F0 = 2, dt = 2e-5;
    double x = 0.305, v = 0;
    auto acc = [&](double xx, double vv) { return m.eval(m.d, xx, vv) / mass; };
    std::vector<double> peaks;   // |x| at each velocity reversal
    double v_prev = 0;
    for (long n = 0; n < 250000; ++n) {   // 5 s
        double k1x = v, k1v = acc(x, v);
        double k2x = v + 0.5 * dt * k1v, k2v = acc(x + 0.5 * dt * k1x, v + 0.5 * dt * k1v);
        double k3x = v + 0.5 * dt * k2v, k3v = acc(x + 0.5 * dt * k2x, v + 0.5 * dt * k2v);
        double k4x = v + dt * k3v, k4v = acc(x + dt * k3x, v + dt * k3v);
        x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
        v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        if (n > 0 && v * v_prev < 0 && std::fabs(x) > F0 / k) peaks.push_back(std::fabs(x));
        v_prev = v;
    }
    // from 0.305: reversals at 0.285, 0.265 … 0.025 (fourteen above
    // F0/k = 0.01), the next one at 0.005, inside the band, where it sticks
    ck_assert_int_eq((int)peaks.size(), 14);
    for (size_t i = 0; i + 2 < peaks.size(); ++i) {
        double per_cycle = peaks[i] - peaks[i + 2];
        ck_assert_msg(std::fabs(per_cycle - 4 * F0 / k) <= 0.01 * 4 * F0 / k, "cycle %zu: %.6f m, want %.6f m", i,
                      per_cycle, 4 * F0 / k);
    }
    // stuck: within the band ±F0/k, and (nearly) still
    ck_assert_msg(std::fabs(std::fabs(x) - 0.005) <= 5e-4, "x = %g at the end, want ±0.005", x);
    ck_assert_msg(std::fabs(v) < 1e-3, "v = %g at the end", v);
    printf("Coulomb oscillator: %zu reversals, amplitude loss per cycle %.6f m (4 F0/k = %.6f m), rest at x = %.5f m\n",
           peaks.size(), peaks[0] - peaks[2], 4 * F0 / k, x);
}
END_TEST

static Suite *suite()
{
    Suite *s = suite_create("elements");
    TCase *tc = tcase_create("laws");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_table_spring);
    tcase_add_test(tc, test_spline_damper);
    tcase_add_test(tc, test_bump_stop);
    tcase_add_test(tc, test_friction_law);
    tcase_add_test(tc, test_antiroll_stiffness);
    tcase_add_test(tc, test_coulomb_oscillator);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
