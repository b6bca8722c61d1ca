// test_dynamics.cpp — virtual power, M and δ of the modeler (modeler/mechanics/dynamics.cpp)
// against answers derived without it: hand-derived Lagrange equations,
// finite differences, a naive per-body partial-velocity sum, Euler's
// equations written by hand, and the energy balance d(T+V)/dt = dissipation.
#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "models.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;
using namespace railsym::models;

namespace {

bool close(double a, double b, double tol)
{
    return std::fabs(a - b) <= tol * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
}

double P(System &s, const SymValues &x, const char *name) { return s.store().eval(s.symbol(name), x); }

std::vector<std::unique_ptr<System>> all_examples()
{
    std::vector<std::unique_ptr<System>> v;
    v.push_back(pendulum());
    v.push_back(double_pendulum());
    v.push_back(free_body(true, true));
    v.push_back(spinning_top(false));
    v.push_back(spinning_top(true));
    v.push_back(four_bar(false));
    v.push_back(chain(5));
    return v;
}

}  // namespace

START_TEST(test_pendulum_lagrange)
{
    auto s = pendulum();
    std::mt19937 rng(1);
    const auto &M = s->mass_matrix();
    const auto &d = s->delta();
    for (int k = 0; k < 25; ++k) {
        SymValues x = random_state(*s, rng);
        x.set(SymKind::Param, 0, 0.5 + rng() % 100 / 50.0);   // vary m too
        double m = P(*s, x, "m"), l = P(*s, x, "l"), J = P(*s, x, "J"), g = P(*s, x, "g");
        double th = x.get(SymKind::Coord, 0);
        ck_assert(close(s->store().eval(M[0], x), J + m * l * l, 1e-12));
        ck_assert(close(s->store().eval(d[0], x), -m * g * l * std::sin(th), 1e-12));
    }
}
END_TEST

START_TEST(test_double_pendulum_lagrange)
{
    auto s = double_pendulum();
    std::mt19937 rng(2);
    std::vector<Ex> M = s->mass_matrix(), d = s->delta();
    for (int k = 0; k < 25; ++k) {
        SymValues x = random_state(*s, rng);
        double m1 = P(*s, x, "m1"), m2 = P(*s, x, "m2"), l1 = P(*s, x, "l1"), l2 = P(*s, x, "l2");
        double J1 = P(*s, x, "J1"), J2 = P(*s, x, "J2"), g = P(*s, x, "g");
        // Absolute angles a1 = th1, a2 = th1 + th2.  By hand:
        //   T = ½(m1+m2) l1² ȧ1² + ½ m2 l2² ȧ2² + m2 l1 l2 ȧ1 ȧ2 cos(a1−a2) + ½J1 ȧ1² + ½J2 ȧ2²
        //   V = −(m1+m2) g l1 cos a1 − m2 g l2 cos a2
        // and d/dt ∂T/∂ȧ − ∂T/∂a + ∂V/∂a = Ma ä − δa with:
        double a1 = x.get(SymKind::Coord, 0), a2 = a1 + x.get(SymKind::Coord, 1);
        double a1d = x.get(SymKind::Vel, 0), a2d = a1d + x.get(SymKind::Vel, 1);
        double c = std::cos(a1 - a2), sn = std::sin(a1 - a2);
        double Ma[2][2] = {{(m1 + m2) * l1 * l1 + J1, m2 * l1 * l2 * c}, {m2 * l1 * l2 * c, m2 * l2 * l2 + J2}};
        double da[2] = {-(m2 * l1 * l2 * a2d * a2d * sn + (m1 + m2) * g * l1 * std::sin(a1)),
                        -(-m2 * l1 * l2 * a1d * a1d * sn + m2 * g * l2 * std::sin(a2))};
        // Relative angles: a = Jq th with Jq = [[1,0],[1,1]]; M_th = Jqᵀ Ma Jq, δ_th = Jqᵀ δa.
        double Jq[2][2] = {{1, 0}, {1, 1}};
        for (int i = 0; i < 2; ++i) {
            double di = 0;
            for (int a = 0; a < 2; ++a) di += Jq[a][i] * da[a];
            ck_assert(close(s->store().eval(d[i], x), di, 1e-12));
            for (int j = 0; j < 2; ++j) {
                double mij = 0;
                for (int a = 0; a < 2; ++a)
                    for (int b = 0; b < 2; ++b) mij += Jq[a][i] * Ma[a][b] * Jq[b][j];
                ck_assert(close(s->store().eval(M[i * 2 + j], x), mij, 1e-12));
            }
        }
    }
}
END_TEST

// For every example: M symmetric positive definite, and M equal to central
// differences of E with respect to q̈ (E is linear in q̈).
START_TEST(test_mass_matrix_all_examples)
{
    std::mt19937 rng(3);
    for (auto &s : all_examples()) {
        const int n = (int)s->coords().size();
        std::vector<Ex> M = s->mass_matrix(), E = s->equations();
        for (int k = 0; k < 10; ++k) {
            SymValues x = random_state(*s, rng);
            std::vector<double> Mv = eval(*s, M, x);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < i; ++j) ck_assert(close(Mv[i * n + j], Mv[j * n + i], 1e-12));
            ck_assert_msg(positive_definite(Mv, n), "M not positive definite");
            const double h = 1e-3;
            for (int j = 0; j < n; ++j) {
                SymValues xp = x, xm = x;
                xp.set(SymKind::Acc, j, x.get(SymKind::Acc, j) + h);
                xm.set(SymKind::Acc, j, x.get(SymKind::Acc, j) - h);
                std::vector<double> Ep = eval(*s, E, xp), Em = eval(*s, E, xm);
                for (int i = 0; i < n; ++i) ck_assert(close((Ep[i] - Em[i]) / (2 * h), Mv[i * n + j], 1e-8));
            }
            // and E = M q̈ − δ at this state
            std::vector<double> Ev = eval(*s, E, x), dv = eval(*s, s->delta(), x);
            for (int i = 0; i < n; ++i) {
                double r = -dv[i];
                for (int j = 0; j < n; ++j) r += Mv[i * n + j] * x.get(SymKind::Acc, j);
                ck_assert(close(Ev[i], r, 1e-10));
            }
        }
    }
}
END_TEST

// The grouped backward recursion equals the textbook sum over bodies of
// (m a_G − m g)·∂v_G/∂q̇_j + (I α + ω × I ω)·∂ω/∂q̇_j, formed here directly
// (gravity-only models, inertia given in the body base).
START_TEST(test_grouped_equals_naive_virtual_power)
{
    std::vector<std::unique_ptr<System>> ms;
    ms.push_back(double_pendulum());
    ms.push_back(free_body(true, false));
    ms.push_back(spinning_top(false));
    ms.push_back(chain(4));
    std::mt19937 rng(4);
    for (auto &s : ms) {
        Store &st = s->store();
        std::vector<Ex> qs = s->coords();
        const int n = (int)qs.size();
        const ForceElement &grav = s->forces().at(0);
        std::vector<Ex> naive(n, st.zero());
        for (const Body &b : s->bodies()) {
            Vector v = s->ground_velocity(b.cg).in(BaseTree::kGround);
            Vector a = s->ground_acceleration(b.cg).in(BaseTree::kGround);
            Vector f = b.mass * a - b.mass * grav.vec;
            Vector w = s->omega_abs(b.base);               // body base components
            Vector al(s->bases(), b.base, dt(w.c));
            Vector Iw = b.inertia * w;
            Vector mom = b.inertia * al + cross(w, Iw);
            for (int j = 0; j < n; ++j) {
                Ex qd = st.dot(qs[j]);
                naive[j] = naive[j] + dot(f.c, diff(v.c, qd)) + dot(mom.in(b.base).c, diff(w.c, qd));
            }
        }
        const std::vector<Ex> &E = s->equations();
        for (int k = 0; k < 10; ++k) {
            SymValues x = random_state(*s, rng);
            std::vector<double> a = eval(*s, E, x), b = eval(*s, naive, x);
            for (int i = 0; i < n; ++i) ck_assert(close(a[i], b[i], 1e-10));
        }
    }
}
END_TEST

// Free rigid body, no forces: δ and M q̈ − δ against Euler's equations in body
// axes, I ω̇ + ω × I ω = τ, mapped to the coordinates by hand.
START_TEST(test_free_body_euler)
{
    auto s = free_body(false, false);
    std::mt19937 rng(5);
    std::vector<Ex> E = s->equations(), d = s->delta();
    for (int k = 0; k < 20; ++k) {
        SymValues x = random_state(*s, rng);
        double m = P(*s, x, "m");
        double I[3][3] = {{P(*s, x, "Ixx"), P(*s, x, "Ixy"), P(*s, x, "Ixz")},
                          {P(*s, x, "Ixy"), P(*s, x, "Iyy"), P(*s, x, "Iyz")},
                          {P(*s, x, "Ixz"), P(*s, x, "Iyz"), P(*s, x, "Izz")}};
        for (int with_acc = 0; with_acc < 2; ++with_acc) {
            double q[6], qd[6], qdd[6];
            for (int i = 0; i < 6; ++i) {
                q[i] = x.get(SymKind::Coord, i);
                qd[i] = x.get(SymKind::Vel, i);
                qdd[i] = with_acc ? x.get(SymKind::Acc, i) : 0.0;
            }
            // Body-axis angular velocity of yaw (z) - pitch (y) - roll (x) angles: ω = Jw(th, ph) ȧ.
            auto Jw = [](double th, double ph, double J[3][3]) {
                double st = std::sin(th), ct = std::cos(th), sp = std::sin(ph), cp = std::cos(ph);
                double t[3][3] = {{-st, 0, 1}, {ct * sp, cp, 0}, {ct * cp, -sp, 0}};
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) J[i][j] = t[i][j];
            };
            auto omega_at = [&](double t, double w[3]) {
                double J[3][3], a[3], ad[3];
                for (int i = 0; i < 3; ++i) {
                    a[i] = q[3 + i] + qd[3 + i] * t + 0.5 * qdd[3 + i] * t * t;
                    ad[i] = qd[3 + i] + qdd[3 + i] * t;
                }
                Jw(a[1], a[2], J);
                for (int i = 0; i < 3; ++i) w[i] = J[i][0] * ad[0] + J[i][1] * ad[1] + J[i][2] * ad[2];
            };
            double w[3], wp[3], wm[3], wd[3];
            const double h = 1e-5;
            omega_at(0, w);
            omega_at(h, wp);
            omega_at(-h, wm);
            for (int i = 0; i < 3; ++i) wd[i] = (wp[i] - wm[i]) / (2 * h);
            double Iw[3], Iwd[3], tau[3];
            for (int i = 0; i < 3; ++i) {
                Iw[i] = I[i][0] * w[0] + I[i][1] * w[1] + I[i][2] * w[2];
                Iwd[i] = I[i][0] * wd[0] + I[i][1] * wd[1] + I[i][2] * wd[2];
            }
            tau[0] = Iwd[0] + w[1] * Iw[2] - w[2] * Iw[1];
            tau[1] = Iwd[1] + w[2] * Iw[0] - w[0] * Iw[2];
            tau[2] = Iwd[2] + w[0] * Iw[1] - w[1] * Iw[0];
            double J[3][3];
            Jw(q[4], q[5], J);
            double hand[6];
            for (int i = 0; i < 3; ++i) hand[i] = m * qdd[i];
            for (int a = 0; a < 3; ++a) hand[3 + a] = J[0][a] * tau[0] + J[1][a] * tau[1] + J[2][a] * tau[2];
            SymValues y = x;
            for (int i = 0; i < 6; ++i) y.set(SymKind::Acc, i, qdd[i]);
            std::vector<double> Ev = eval(*s, E, y), dv = eval(*s, d, y);
            for (int i = 0; i < 6; ++i) {
                ck_assert_msg(close(Ev[i], hand[i], 1e-8), "E[%d] = %g, Euler %g", i, Ev[i], hand[i]);
                if (!with_acc) ck_assert(close(-dv[i], hand[i], 1e-8));
            }
        }
    }
}
END_TEST

// d(T + V)/dt along the motion q̈ = M⁻¹ δ (or with the constraint forces of
// the four-bar) equals the power of the non-conservative forces: zero
// without dampers, −c L̇² with the four-bar's damper (L̇ by finite differences).
START_TEST(test_energy_balance)
{
    std::mt19937 rng(6);
    std::vector<std::unique_ptr<System>> ms;
    ms.push_back(pendulum());
    ms.push_back(double_pendulum());
    ms.push_back(free_body(true, true));
    ms.push_back(spinning_top(true));
    ms.push_back(chain(3));
    for (auto &s : ms) {
        Store &st = s->store();
        const int n = (int)s->coords().size();
        Ex Pw = st.dt(s->kinetic_energy() + s->potential_energy());
        for (int k = 0; k < 10; ++k) {
            SymValues x = random_state(*s, rng);
            std::vector<double> qdd = solve(eval(*s, s->mass_matrix(), x), eval(*s, s->delta(), x), n);
            for (int i = 0; i < n; ++i) x.set(SymKind::Acc, i, qdd[i]);
            double T = st.eval(s->kinetic_energy(), x);
            ck_assert_msg(std::fabs(st.eval(Pw, x)) < 1e-10 * std::max(1.0, T), "dE/dt = %g", st.eval(Pw, x));
        }
    }
}
END_TEST

START_TEST(test_energy_balance_constrained_damped)
{
    auto s = four_bar(false);
    Store &st = s->store();
    Ex Pw = st.dt(s->kinetic_energy() + s->potential_energy());
    Ex L = norm(s->position("anchor", "G2", "ground"));
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < 10; ++k) {
        SymValues x = s->defaults();
        std::vector<double> q = four_bar_closure(*s, 0.5 + u(rng));
        for (int i = 0; i < 3; ++i) x.set(SymKind::Coord, i, q[i]);
        // q̇ in the null space of φ_q: q̇ = (free th1 rate) then solve for the other two.
        std::vector<double> J = eval(*s, s->phi_q(), x);
        double w1 = u(rng);
        std::vector<double> A{J[1], J[2], J[4], J[5]}, b{-J[0] * w1, -J[3] * w1};
        std::vector<double> r = solve(A, b, 2);
        x.set(SymKind::Vel, 0, w1);
        x.set(SymKind::Vel, 1, r[0]);
        x.set(SymKind::Vel, 2, r[1]);
        // [M φ_qᵀ; φ_q 0] [q̈; λ] = [δ; γ]
        std::vector<double> M = eval(*s, s->mass_matrix(), x), d = eval(*s, s->delta(), x);
        std::vector<double> g = eval(*s, s->gamma(), x);
        std::vector<double> K(25, 0.0), rhs(5, 0.0);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) K[i * 5 + j] = M[i * 3 + j];
            for (int c = 0; c < 2; ++c) K[i * 5 + 3 + c] = K[(3 + c) * 5 + i] = J[c * 3 + i];
            rhs[i] = d[i];
        }
        rhs[3] = g[0];
        rhs[4] = g[1];
        std::vector<double> sol = solve(K, rhs, 5);
        for (int i = 0; i < 3; ++i) x.set(SymKind::Acc, i, sol[i]);
        // L̇ by central differences along q + h q̇.
        const double h = 1e-6;
        SymValues xp = x, xm = x;
        for (int i = 0; i < 3; ++i) {
            xp.set(SymKind::Coord, i, q[i] + h * x.get(SymKind::Vel, i));
            xm.set(SymKind::Coord, i, q[i] - h * x.get(SymKind::Vel, i));
        }
        double Ld = (st.eval(L, xp) - st.eval(L, xm)) / (2 * h);
        double c = P(*s, x, "c");
        double expect = -c * Ld * Ld;
        ck_assert_msg(std::fabs(st.eval(Pw, x) - expect) < 1e-6 * std::max(1.0, std::fabs(expect)),
                      "dE/dt = %g, expected %g", st.eval(Pw, x), expect);
    }
}
END_TEST

// δ is −E at q̈ = 0 and the applied generalized forces enter with the sign of
// the convention: for the pendulum, gravity alone gives −m g l sin θ.
START_TEST(test_sign_convention)
{
    auto s = pendulum();
    std::mt19937 rng(8);
    SymValues x = random_state(*s, rng);
    double Q = s->store().eval(s->applied_generalized_forces()[0], x);
    double m = P(*s, x, "m"), l = P(*s, x, "l"), g = P(*s, x, "g");
    ck_assert(close(Q, -m * g * l * std::sin(x.get(SymKind::Coord, 0)), 1e-12));
}
END_TEST

static Suite *dynamics_suite()
{
    Suite *s = suite_create("dynamics");
    TCase *tc = tcase_create("lagrange");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_pendulum_lagrange);
    tcase_add_test(tc, test_double_pendulum_lagrange);
    tcase_add_test(tc, test_sign_convention);
    tcase_add_test(tc, test_free_body_euler);
    suite_add_tcase(s, tc);
    tc = tcase_create("structure");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mass_matrix_all_examples);
    tcase_add_test(tc, test_grouped_equals_naive_virtual_power);
    tcase_add_test(tc, test_energy_balance);
    tcase_add_test(tc, test_energy_balance_constrained_damped);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(dynamics_suite)
