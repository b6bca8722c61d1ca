// test_power.cpp — the energy balance's power terms (modeler/mechanics/power.hpp)
// against answers computed without them: each term from the element's law
// with velocities by central differences of positions and rotation matrices
// (not the modeler's velocity operators), the balance d(T+V)/dt =
// P_inputs − P_damping + P_other along q̈ = M⁻¹δ, and the creep term
// −Σ f·ν against the creep forces' generalized force −(δ(f) − δ(0))·q̇.
#include <cmath>
#include <random>

#include "power.hpp"
#include "models.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;
using namespace railsym::models;

namespace {

const double kH = 1e-6;   // central-difference step along q + h q̇

void set_input(System &s, SymValues &x, const char *name, double v)
{
    x.set(SymKind::Input, s.store().sym(s.symbol(name).id()).slot, v);
}

// x moved along the motion by h: q + h q̇.
SymValues moved(System &s, const SymValues &x, double h)
{
    SymValues y = x;
    const int n = (int)s.coords().size();
    for (int i = 0; i < n; ++i) y.set(SymKind::Coord, i, x.get(SymKind::Coord, i) + h * x.get(SymKind::Vel, i));
    return y;
}

// Velocity of point P in ground components, by central differences.
std::array<double, 3> fd_velocity(System &s, const SymValues &x, const char *P)
{
    Vector r = s.position("O", P, "ground");
    SymValues xp = moved(s, x, kH), xm = moved(s, x, -kH);
    std::array<double, 3> v;
    for (int i = 0; i < 3; ++i) v[i] = (s.store().eval(r.c[i], xp) - s.store().eval(r.c[i], xm)) / (2 * kH);
    return v;
}

// Angular velocity of base B in ground components: ω̃ = Ṙ Rᵀ, R = R_ground_B
// and Ṙ by central differences.
std::array<double, 3> fd_omega(System &s, const SymValues &x, const char *B)
{
    M3 R = s.rotation(B, "ground");
    SymValues xp = moved(s, x, kH), xm = moved(s, x, -kH);
    double W[3][3] = {};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) {
                double Rd = (s.store().eval(R[i][k], xp) - s.store().eval(R[i][k], xm)) / (2 * kH);
                W[i][j] += Rd * s.store().eval(R[j][k], x);
            }
    return {W[2][1], W[0][2], W[1][0]};
}

double dot3(const std::array<double, 3> &a, const std::array<double, 3> &b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// A free body (6 coordinates, Euler angles z-y-x) with gravity, a bushing to
// ground at a body point A (translational stiffness and damping, rotational
// damping; no rotational stiffness, whose potential is the small-angle one),
// an input force u_f along the body's x at point C, an input torque u_t
// about the body's z, and a force written as an expression −(kw x + cw ẋ)
// along ground x at G (no potential: its position part is "other").
std::unique_ptr<System> driven_body(bool stiff_rotation = false)
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex z = S.store().zero();
    Ex m = S.param("m", 3.0), g = S.param("g", 9.81);
    Ex x = S.coord("x"), y = S.coord("y"), zc = S.coord("z");
    Ex psi = S.coord("psi"), theta = S.coord("theta"), phi = S.coord("phi");
    S.add_base("B1", "ground", Axis::Z, psi);
    S.add_base("B2", "B1", Axis::Y, theta);
    S.add_base("B", "B2", Axis::X, phi);
    S.add_point("G", "O", S.vec(x, y, zc, "ground"));
    M3 I{V3{S.param("Ixx", 0.5), S.param("Ixy", 0.05), S.param("Ixz", -0.03)},
         V3{S.param("Ixy", 0.05), S.param("Iyy", 0.8), S.param("Iyz", 0.02)},
         V3{S.param("Ixz", -0.03), S.param("Iyz", 0.02), S.param("Izz", 1.1)}};
    S.add_body("body", m, "G", I, "B", "B");
    S.add_gravity(S.vec(z, z, -g, "ground"));
    S.add_point("A", "G", S.vec(S.param("ax", 0.2), S.param("ay", -0.1), S.param("az", 0.3), "B"));
    S.add_frame("FA", "A", "B");
    std::array<Ex, 6> k{S.param("kx", 100.0), S.param("ky", 200.0), S.param("kz", 300.0), z, z, z};
    if (stiff_rotation) {
        // rotational stiffness: V = ½ k θ², θ = vee(skew R), is the
        // potential of the torque −k θ only for small angles
        k[3] = S.param("krx", 30.0), k[4] = S.param("kry", 20.0), k[5] = S.param("krz", 10.0);
    }
    S.add_bushing("mount", "ground", "FA", k,
                  {S.param("cx", 7.0), S.param("cy", 5.0), S.param("cz", 3.0), S.param("crx", 0.7),
                   S.param("cry", 0.4), S.param("crz", 0.9)},
                  "", "body");
    S.add_point("C", "G", S.vec(S.param("cxp", -0.3), S.param("cyp", 0.25), z, "B"));
    S.add_force("push", "C", S.vec(S.input("u_f"), z, z, "B"), "body");
    S.add_torque("twist", "body", S.vec(z, z, S.input("u_t"), "B"));
    S.add_force("written", "G", S.vec(-(S.param("kw", 40.0) * x + S.param("cw", 2.0) * S.vel(x)), z, z, "ground"),
                "body");
    return s;
}

double par(System &s, const SymValues &x, const char *name) { return s.store().eval(s.symbol(name), x); }

}  // namespace

// Each term from the element laws, velocities by differences.
START_TEST(test_terms_by_element_law)
{
    auto s = driven_body();
    Store &st = s->store();
    const std::vector<Ex> P = power_terms(*s);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> U(-1, 1);
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
        SymValues x = random_state(*s, rng);
        set_input(*s, x, "u_f", 5 * U(rng));
        set_input(*s, x, "u_t", 3 * U(rng));
        const std::array<double, 3> vA = fd_velocity(*s, x, "A"), vC = fd_velocity(*s, x, "C");
        const std::array<double, 3> w = fd_omega(*s, x, "B");
        M3 R = s->rotation("B", "ground");
        const std::array<double, 3> ex{st.eval(R[0][0], x), st.eval(R[1][0], x), st.eval(R[2][0], x)};
        const std::array<double, 3> ez{st.eval(R[0][2], x), st.eval(R[1][2], x), st.eval(R[2][2], x)};
        const double xd = x.get(SymKind::Vel, 0), xq = x.get(SymKind::Coord, 0);
        const double u_f = par(*s, x, "u_f"), u_t = par(*s, x, "u_t");
        // bushing from the ground frame: x = r(O→A), ẋ = v_A, rotation rate ω_B
        const char *cn[3] = {"cx", "cy", "cz"}, *crn[3] = {"crx", "cry", "crz"};
        double damp = par(*s, x, "cw") * xd * xd;
        for (int i = 0; i < 3; ++i)
            damp += par(*s, x, cn[i]) * vA[i] * vA[i] + par(*s, x, crn[i]) * w[i] * w[i];
        const double in = u_f * dot3(ex, vC) + u_t * dot3(ez, w);
        const double other = -par(*s, x, "kw") * xq * xd;
        const double got[4] = {st.eval(P[kPowerInputs], x), st.eval(P[kPowerDamping], x), st.eval(P[kPowerCreep], x),
                               st.eval(P[kPowerOther], x)};
        const double want[4] = {in, damp, 0.0, other};
        for (int i = 0; i < 4; ++i) {
            const double e = std::fabs(got[i] - want[i]) / std::max(1.0, std::fabs(want[i]));
            worst = std::max(worst, e);
            ck_assert_msg(e < 1e-7, "term %d: %.12g, by the element law %.12g", i, got[i], want[i]);
        }
    }
    fprintf(stderr, "power terms of a driven, damped free body vs element laws: worst relative error %.2e\n", worst);
}
END_TEST

// d(T + V)/dt along q̈ = M⁻¹ δ equals P_inputs − P_damping + P_other, also
// where V is not exactly the potential of an element's position forces (the
// rotational bushing: P_other then holds the difference).
START_TEST(test_balance_along_motion)
{
    auto s = driven_body(_i == 1);
    Store &st = s->store();
    const int n = (int)s->coords().size();
    const std::vector<Ex> P = power_terms(*s);
    Ex dE = st.dt(s->kinetic_energy() + s->potential_energy());
    std::mt19937 rng(12);
    std::uniform_real_distribution<double> U(-1, 1);
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
        SymValues x = random_state(*s, rng);
        set_input(*s, x, "u_f", 5 * U(rng));
        set_input(*s, x, "u_t", 3 * U(rng));
        std::vector<double> qdd = solve(eval(*s, s->mass_matrix(), x), eval(*s, s->delta(), x), n);
        for (int i = 0; i < n; ++i) x.set(SymKind::Acc, i, qdd[i]);
        const double lhs = st.eval(dE, x);
        const double rhs = st.eval(P[kPowerInputs], x) - st.eval(P[kPowerDamping], x) + st.eval(P[kPowerOther], x);
        const double e = std::fabs(lhs - rhs) / std::max(1.0, std::fabs(lhs));
        worst = std::max(worst, e);
        ck_assert_msg(e < 1e-10, "d(T+V)/dt = %.12g, power terms %.12g", lhs, rhs);
    }
    fprintf(stderr, "d(T+V)/dt vs inputs - damping + other on the free body: worst relative error %.2e\n", worst);
}
END_TEST

// Wheelset with contacts: −Σ f·ν (slip velocities of the wheel's material
// point) equals −Q_creep·q̇, Q_creep = δ(f) − δ(f = 0) the creep forces'
// generalized force; the creep elements count neither as inputs nor as other.
START_TEST(test_creep_power)
{
    auto s = wheelset();
    Store &st = s->store();
    const int n = (int)s->coords().size();
    const std::vector<Ex> P = power_terms(*s);
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> U(-1, 1);
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
        SymValues x = random_state(*s, rng);
        SymValues x0 = x;
        for (const ContactElement &c : s->contacts())
            for (int j = 0; j < 3; ++j) {
                const int slot = st.sym(c.force[j].id()).slot;
                x.set(SymKind::Input, slot, 1e4 * U(rng));
                x0.set(SymKind::Input, slot, 0.0);
            }
        std::vector<double> d = eval(*s, s->delta(), x), d0 = eval(*s, s->delta(), x0);
        double Pq = 0;
        for (int j = 0; j < n; ++j) Pq -= (d[j] - d0[j]) * x.get(SymKind::Vel, j);
        const double got = st.eval(P[kPowerCreep], x);
        const double e = std::fabs(got - Pq) / std::max(1.0, std::fabs(Pq));
        worst = std::max(worst, e);
        ck_assert_msg(e < 1e-10, "creep power %.12g, -Q_creep q' %.12g", got, Pq);
        for (int t : {kPowerInputs, kPowerDamping, kPowerOther})
            ck_assert_msg(st.eval(P[t], x) == st.eval(P[t], x0), "creep forces leaked into term %d: %g vs %g", t,
                          st.eval(P[t], x), st.eval(P[t], x0));
    }
    fprintf(stderr, "creep power -f.nu vs -Q_creep.q' on the wheelset: worst relative error %.2e\n", worst);
}
END_TEST

int main()
{
    Suite *s = suite_create("power");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_terms_by_element_law);
    tcase_add_loop_test(tc, test_balance_along_motion, 0, 2);
    tcase_add_test(tc, test_creep_power);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
