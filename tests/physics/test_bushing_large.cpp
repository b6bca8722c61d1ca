// test_bushing_large.cpp — the large-angle rotational law of a bushing
// (`rotation large`, docs/elements.md "Bushings") on a body turning about a
// fixed point (yaw a, pitch b, roll c), checked against what the test
// computes by itself with plain doubles: rotation matrices, the axis-angle
// pose, the body's partial angular velocities by central differences of R,
// and the potential from the angle and axis taken out of R with acos:
//   - the torque at 30°, 90°, 150° about general axes, anisotropic and
//     isotropic kr, equals −∂V/∂ψ of V = ½ θᵀ Kr θ, θ = 2 tan(φ/2) n (by
//     central differences of V over small turns of the body), and the
//     closed form −(Kθ + ½ θ × Kθ + ¼ θ (θ·Kθ)) written here; V itself;
//   - at small angles and isotropic kr the large law is the small one to
//     second order: the torques' difference falls 8× when φ halves and is
//     k φ³/2 (tan/sin series written here); for unequal kr they differ by
//     the conservative law's −½ ψ × Kr ψ at second order, and by O(φ³)
//     beyond it;
//   - the Jacobians the generator emits (force_jacobians, the same as
//     delta_jac) equal central differences of δ, at rest (where the
//     Cayley vector's 1/(1 + tr R) must stay finite: K = diag(kz, ky, kx)
//     for this yaw-pitch-roll chain) and at 150°, with the damping matrix
//     Jᵀ Cr J at rest;
//   - a body on an isotropic rotational bushing swinging through ±120°,
//     RK4 on M q̈ = δ (evaluated here), keeps T + V: the drift falls ≥ 12×
//     when the step halves (4th order), and small beside V(120°); the same
//     with unequal kr (the motion then three-dimensional);
//   - power.other (what V misses) is 0 for the large law with unequal kr
//     and F1 on a turning body, and not for the small law there.
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "force_jacobians.hpp"
#include "power.hpp"
#include "system.hpp"
#include "vdl_elaborate.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;

namespace {

using M = std::array<double, 9>;   // row-major
using V = std::array<double, 3>;

const double kPi = 3.14159265358979323846;

M mmul(const M &a, const M &b)
{
    M c{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
    return c;
}
M mtr(const M &a)
{
    M t{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t[3 * i + j] = a[3 * j + i];
    return t;
}
M rot_axis(int axis, double a)
{
    double c = std::cos(a), s = std::sin(a);
    if (axis == 0) return M{1, 0, 0, 0, c, -s, 0, s, c};
    if (axis == 1) return M{c, 0, s, 0, 1, 0, -s, 0, c};
    return M{c, -s, 0, s, c, 0, 0, 0, 1};
}
// R_ground_B of the model's chain: yaw a about z, pitch b about y, roll c about x.
M chain(const V &q) { return mmul(mmul(rot_axis(2, q[0]), rot_axis(1, q[1])), rot_axis(0, q[2])); }
// Rodrigues' formula for a rotation by phi about the unit axis n.
M axis_angle(V n, double phi)
{
    double c = std::cos(phi), s = std::sin(phi);
    M r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r[3 * i + j] = (i == j ? c : 0.0) + (1 - c) * n[i] * n[j];
    r[1] -= s * n[2], r[2] += s * n[1], r[3] += s * n[2], r[5] -= s * n[0], r[6] -= s * n[1], r[7] += s * n[0];
    return r;
}
// Yaw, pitch, roll of R = Rz(a) Ry(b) Rx(c) (|b| < 90°).
V chain_angles(const M &r) { return V{std::atan2(r[3], r[0]), -std::asin(r[6]), std::atan2(r[7], r[8])}; }
V unit(V v)
{
    double l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return V{v[0] / l, v[1] / l, v[2] / l};
}
double vdot(const V &a, const V &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
V vcross(const V &a, const V &b)
{
    return V{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// V = ½ θᵀ K θ with θ = 2 tan(φ/2) n, the angle from acos and the axis from
// the skew part (not the modeler's rational formula).
double potential_of(const M &r, const V &k)
{
    double phi = std::acos(std::max(-1.0, std::min(1.0, (r[0] + r[4] + r[8] - 1) / 2)));
    if (phi == 0) return 0;
    V n = unit(V{r[7] - r[5], r[2] - r[6], r[3] - r[1]});
    double t = 2 * std::tan(phi / 2);
    return 0.5 * t * t * (k[0] * n[0] * n[0] + k[1] * n[1] * n[1] + k[2] * n[2] * n[2]);
}

// The elastic torque on the body (ground components) as −∂V/∂ψ: V after a
// turn ε about ground axis i, R → exp(ε e_i×) R, by central differences.
V torque_by_gradient(const M &r, const V &k)
{
    V t{};
    const double h = 1e-6;
    for (int i = 0; i < 3; ++i) {
        V e{};
        e[i] = 1;
        t[i] = -(potential_of(mmul(axis_angle(e, h), r), k) - potential_of(mmul(axis_angle(e, -h), r), k)) / (2 * h);
    }
    return t;
}

// J_j = ∂ω/∂q̇_j in ground components: [J_j]× = (∂R/∂q_j) Rᵀ, by central differences.
M partial_omegas(const V &q)
{
    M jac{};   // column j = J_j
    const double h = 1e-6;
    M rt = mtr(chain(q));
    for (int j = 0; j < 3; ++j) {
        V qp = q, qm = q;
        qp[j] += h, qm[j] -= h;
        M rp = chain(qp), rm = chain(qm), d{};
        for (int e = 0; e < 9; ++e) d[e] = (rp[e] - rm[e]) / (2 * h);
        M w = mmul(d, rt);
        jac[0 + j] = w[7], jac[3 + j] = w[2], jac[6 + j] = w[3];
    }
    return jac;
}

// Solves a x = b (3×3, Cramer).
V solve3(const M &a, const V &b)
{
    auto det = [](const M &m) {
        return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
    };
    double d = det(a);
    V x{};
    for (int c = 0; c < 3; ++c) {
        M ac = a;
        for (int r = 0; r < 3; ++r) ac[3 * r + c] = b[r];
        x[c] = det(ac) / d;
    }
    return x;
}

std::string model(const V &k, const V &c, const char *law)
{
    char buf[1200];
    std::snprintf(buf, sizeof buf,
                  "coord a, b, c\n"
                  "base B = rotate(rotate(rotate(ground, z, a), y, b), x, c)\n"
                  "body s  mass 1  cg O  frame B  inertia [[2.0, 0.1, -0.2], [0.1, 1.5, 0.05], [-0.2, 0.05, 1.0]] in B\n"
                  "frame FB = O in B\n"
                  "bushing rot  between ground and FB of s  k [0, 0, 0, %.17g, %.17g, %.17g]  "
                  "c [0, 0, 0, %.17g, %.17g, %.17g]%s%s\n",
                  k[0], k[1], k[2], c[0], c[1], c[2], law[0] ? "  rotation " : "", law);
    return buf;
}

struct Rig {
    std::unique_ptr<System> sys;
    std::vector<Ex> roots;   // M (9), δ (3), V
    explicit Rig(const V &k, const V &c = V{}, const char *law = "large") : sys(std::make_unique<System>())
    {
        vdl::Sources src;
        vdl::Diagnostics d(src);
        bool ok = vdl::load_text("bushing.vdl", model(k, c, law), *sys, d);
        ck_assert_msg(ok, "%s", d.format().c_str());
        roots = sys->mass_matrix();
        for (const Ex &e : sys->delta()) roots.push_back(e);
        roots.push_back(sys->potential_energy());
    }
    SymValues at(const V &q, const V &qd) const
    {
        SymValues s = sys->defaults();
        for (int j = 0; j < 3; ++j) {
            s.set(SymKind::Coord, j, q[j]);
            s.set(SymKind::Vel, j, qd[j]);
        }
        return s;
    }
    std::vector<double> eval(const V &q, const V &qd = V{}) const { return sys->store().eval(roots, at(q, qd)); }
    V delta(const V &q, const V &qd = V{}) const
    {
        std::vector<double> r = eval(q, qd);
        return V{r[9], r[10], r[11]};
    }
    // The torque on the body (ground components) behind δ at rest: δ = Jᵀ T.
    V torque(const V &q) const { return solve3(mtr(partial_omegas(q)), delta(q)); }
};

struct Pose {
    double deg;
    V axis;
};
const Pose kPoses[] = {{30, {0.3, -0.5, 0.8}}, {90, {-0.6, 0.2, 0.4}}, {150, {0.5, 0.7, -0.3}}};

void check_torque(const V &k)
{
    Rig rig(k);
    for (const Pose &p : kPoses) {
        V n = unit(p.axis);
        double phi = p.deg * kPi / 180;
        M r = axis_angle(n, phi);
        V q = chain_angles(r);
        ck_assert(std::fabs(q[1]) < 1.4);   // away from the chain's gimbal lock
        V got = rig.torque(q);
        V grad = torque_by_gradient(r, k);
        double t = 2 * std::tan(phi / 2);
        V th{t * n[0], t * n[1], t * n[2]}, kth{k[0] * th[0], k[1] * th[1], k[2] * th[2]};
        V tk = vcross(th, kth);
        double s = 0.25 * vdot(th, kth), scale = 0;
        for (int i = 0; i < 3; ++i) scale = std::max(scale, std::fabs(grad[i]));
        for (int i = 0; i < 3; ++i) {
            double closed = -(kth[i] + 0.5 * tk[i] + s * th[i]);
            ck_assert_msg(std::fabs(got[i] - grad[i]) < 1e-6 * scale, "%g deg, T[%d] = %.12g, -dV/dpsi %.12g", p.deg,
                          i, got[i], grad[i]);
            ck_assert_msg(std::fabs(got[i] - closed) < 1e-8 * scale, "%g deg, T[%d] = %.12g, closed form %.12g", p.deg,
                          i, got[i], closed);
        }
        double v = rig.eval(q)[12], vdef = 0.5 * vdot(th, kth);
        ck_assert_msg(std::fabs(v - vdef) < 1e-10 * vdef, "%g deg: V %.15g, expected %.15g", p.deg, v, vdef);
    }
}

START_TEST(torque_is_the_gradient_anisotropic) { check_torque(V{40, 70, 25}); }
END_TEST

START_TEST(torque_is_the_gradient_isotropic)
{
    // Isotropic: the torque is −k (1 + |θ|²/4) θ, along the axis, of size
    // 2k tan(φ/2)/cos²(φ/2) (a scalar check besides the vector one).
    const double k = 50;
    check_torque(V{k, k, k});
    Rig rig(V{k, k, k});
    for (const Pose &p : kPoses) {
        V n = unit(p.axis);
        double phi = p.deg * kPi / 180;
        V t = rig.torque(chain_angles(axis_angle(n, phi)));
        double want = -2 * k * std::tan(phi / 2) / (std::cos(phi / 2) * std::cos(phi / 2));
        ck_assert_msg(std::fabs(vdot(t, n) - want) < 1e-8 * std::fabs(want), "%g deg: %.12g vs %.12g", p.deg,
                      vdot(t, n), want);
        ck_assert(std::fabs(vdot(t, t) - want * want) < 1e-8 * want * want);
    }
}
END_TEST

START_TEST(small_angles_agree_to_second_order)
{
    // Isotropic kr: the two laws agree to second order, the difference
    // falls 8× when φ halves.  Large 2k tan(φ/2)/cos²(φ/2) = k (φ + φ³/3 + …),
    // small k sin φ = k (φ − φ³/6 + …): they differ by k φ³/2 about n.
    const V kiso{50, 50, 50}, k{40, 70, 25};
    V n = unit(V{0.3, -0.5, 0.8});
    Rig il(kiso, V{}, "large"), is(kiso, V{}, "small"), al(k, V{}, "large"), as(k, V{}, "small");
    auto diff = [&](const Rig &large, const Rig &small, const V &kk, double phi, bool cross_term) {
        V q = chain_angles(axis_angle(n, phi));
        V tl = large.torque(q), ts = small.torque(q), d{};
        // For unequal kr the conservative law has the second-order term
        // −½ ψ × Kr ψ (ψ = φ n) that the small law lacks (below).
        V psi{phi * n[0], phi * n[1], phi * n[2]}, kp{kk[0] * psi[0], kk[1] * psi[1], kk[2] * psi[2]};
        V c = vcross(psi, kp);
        for (int i = 0; i < 3; ++i) d[i] = tl[i] - ts[i] + (cross_term ? 0.5 * c[i] : 0.0);
        return std::sqrt(vdot(d, d));
    };
    double d1 = diff(il, is, kiso, 0.1, false), d2 = diff(il, is, kiso, 0.05, false), d3 = diff(il, is, kiso, 0.025, false);
    ck_assert_msg(d1 / d2 > 7.5 && d1 / d2 < 8.5 && d2 / d3 > 7.8 && d2 / d3 < 8.2,
                  "differences %g %g %g: ratios %g %g, expected 8 (third order)", d1, d2, d3, d1 / d2, d2 / d3);
    const double phi = 0.02;
    V q = chain_angles(axis_angle(n, phi));
    double dt = vdot(il.torque(q), n) - vdot(is.torque(q), n), want = -50 * phi * phi * phi / 2;
    ck_assert_msg(std::fabs(dt - want) < 1e-3 * std::fabs(want), "difference %.9g, k phi^3/2 = %.9g", dt, want);
    // Unequal kr: no conservative law can agree with the small one to
    // second order, since the small law's −Kr θ is not a gradient at that
    // order (½ ψ × Kr ψ is the gradient of no function); the difference is
    // −½ ψ × Kr ψ + O(φ³): it falls 4× when φ halves, and what is left
    // after that term falls 8×.
    double a1 = diff(al, as, k, 0.1, false), a2 = diff(al, as, k, 0.05, false);
    ck_assert_msg(a1 / a2 > 3.8 && a1 / a2 < 4.2, "anisotropic differences %g %g: ratio %g, expected 4", a1, a2, a1 / a2);
    double r1 = diff(al, as, k, 0.1, true), r2 = diff(al, as, k, 0.05, true), r3 = diff(al, as, k, 0.025, true);
    ck_assert_msg(r1 / r2 > 7.5 && r1 / r2 < 8.5 && r2 / r3 > 7.8 && r2 / r3 < 8.2,
                  "anisotropic remainders %g %g %g: ratios %g %g, expected 8", r1, r2, r3, r1 / r2, r2 / r3);
}
END_TEST

void check_jacobians(const Rig &rig, const V &q, const V &qd)
{
    std::vector<Ex> K, C;
    force_jacobians(*rig.sys, K, C);
    std::vector<double> kv = rig.sys->store().eval(K, rig.at(q, qd)), cv = rig.sys->store().eval(C, rig.at(q, qd));
    const double h = 1e-6;
    for (int j = 0; j < 3; ++j) {
        V qp = q, qm = q, vp = qd, vm = qd;
        qp[j] += h, qm[j] -= h, vp[j] += h, vm[j] -= h;
        V dp = rig.delta(qp, qd), dm = rig.delta(qm, qd), ep = rig.delta(q, vp), em = rig.delta(q, vm);
        for (int i = 0; i < 3; ++i) {
            double kfd = -(dp[i] - dm[i]) / (2 * h), cfd = -(ep[i] - em[i]) / (2 * h);
            ck_assert(std::isfinite(kv[3 * i + j]) && std::isfinite(cv[3 * i + j]));
            ck_assert_msg(std::fabs(kv[3 * i + j] - kfd) < 1e-6 * std::max(1.0, std::fabs(kfd)), "K[%d][%d] %.10g fd %.10g",
                          i, j, kv[3 * i + j], kfd);
            ck_assert_msg(std::fabs(cv[3 * i + j] - cfd) < 1e-6 * std::max(1.0, std::fabs(cfd)), "C[%d][%d] %.10g fd %.10g",
                          i, j, cv[3 * i + j], cfd);
        }
    }
}

START_TEST(jacobians_match_central_differences)
{
    const V k{40, 70, 25}, c{3, 5, 2};
    Rig rig(k, c);
    // At rest: J = [e_z, e_y, e_x] for (a, b, c), so K = diag(kz, ky, kx),
    // C = diag(cz, cy, cx); finite, no 0/0 at zero rotation.
    std::vector<Ex> K, C;
    force_jacobians(*rig.sys, K, C);
    std::vector<double> kv = rig.sys->store().eval(K, rig.at(V{}, V{})), cv = rig.sys->store().eval(C, rig.at(V{}, V{}));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            ck_assert_double_eq_tol(kv[3 * i + j], i == j ? k[2 - i] : 0.0, 1e-12);
            ck_assert_double_eq_tol(cv[3 * i + j], i == j ? c[2 - i] : 0.0, 1e-12);
        }
    check_jacobians(rig, V{}, V{});
    check_jacobians(rig, chain_angles(axis_angle(unit(V{0.5, 0.7, -0.3}), 150 * kPi / 180)), V{0.4, -0.3, 0.7});
    check_jacobians(rig, chain_angles(axis_angle(unit(V{-0.6, 0.2, 0.4}), 90 * kPi / 180)), V{-1.1, 0.2, 0.5});
    // The damping torque −Cr ω: at rest in velocity −∂δ/∂q̇ = Jᵀ Cr J (the
    // inertia's velocity terms are quadratic in q̇), J from R here.
    V q = chain_angles(axis_angle(unit(V{0.3, -0.5, 0.8}), 90 * kPi / 180));
    cv = rig.sys->store().eval(C, rig.at(q, V{}));
    M jac = partial_omegas(q);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double want = 0;
            for (int e = 0; e < 3; ++e) want += jac[3 * e + i] * c[e] * jac[3 * e + j];
            ck_assert_msg(std::fabs(cv[3 * i + j] - want) < 1e-7, "C[%d][%d] %.10g, Jt Cr J %.10g", i, j, cv[3 * i + j], want);
        }
}
END_TEST

// RK4 on M q̈ = δ from rest at 120° about a general axis, to t_end; returns
// the largest |E − E0| and the largest angle reached on the way.
struct Swing {
    double drift, e0, max_deg, max_pitch, min_along;   // min_along: least θ·n0 (θ = 2 tan(φ/2) n)
};
Swing swing(const Rig &rig, double h, double t_end)
{
    struct S {
        V q, v;
    };
    auto accel = [&](const S &s, double *energy) {
        std::vector<double> r = rig.eval(s.q, s.v);
        M m{};
        for (int e = 0; e < 9; ++e) m[e] = r[e];
        if (energy) {
            double t = 0;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) t += 0.5 * s.v[i] * m[3 * i + j] * s.v[j];
            *energy = t + r[12];
        }
        return solve3(m, V{r[9], r[10], r[11]});
    };
    auto add = [](const S &s, const S &d, double f) {
        S o = s;
        for (int i = 0; i < 3; ++i) o.q[i] += f * d.q[i], o.v[i] += f * d.v[i];
        return o;
    };
    auto rate = [&](const S &s) { return S{s.v, accel(s, nullptr)}; };
    const V n0 = unit(V{0.25, 0.3, 0.9});   // mostly yaw: the pitch stays clear of ±90°
    S s{chain_angles(axis_angle(n0, 120 * kPi / 180)), V{}};
    Swing out{0, 0, 0, 0, 1e300};
    accel(s, &out.e0);
    int n = (int)std::lround(t_end / h);
    for (int step = 0; step < n; ++step) {
        S k1 = rate(s), k2 = rate(add(s, k1, h / 2)), k3 = rate(add(s, k2, h / 2)), k4 = rate(add(s, k3, h));
        for (int i = 0; i < 3; ++i) {
            s.q[i] += h / 6 * (k1.q[i] + 2 * k2.q[i] + 2 * k3.q[i] + k4.q[i]);
            s.v[i] += h / 6 * (k1.v[i] + 2 * k2.v[i] + 2 * k3.v[i] + k4.v[i]);
        }
        double e;
        accel(s, &e);
        out.drift = std::max(out.drift, std::fabs(e - out.e0));
        M r = chain(s.q);
        double phi = std::acos(std::max(-1.0, std::min(1.0, (r[0] + r[4] + r[8] - 1) / 2)));
        out.max_deg = std::max(out.max_deg, phi * 180 / kPi);
        out.max_pitch = std::max(out.max_pitch, std::fabs(s.q[1]));
        if (phi < kPi * 0.99) {
            double t = 2 * std::tan(phi / 2);
            V n = unit(V{r[7] - r[5], r[2] - r[6], r[3] - r[1]});
            out.min_along = std::min(out.min_along, t * vdot(n, n0));
        }
    }
    return out;
}

START_TEST(swing_through_120_degrees_conserves_energy)
{
    // Isotropic kr: V depends on φ only (V = 2k tan²(φ/2)), so from rest at
    // 120° the body turns back and forth within |φ| ≤ 120°.
    Rig rig(V{50, 50, 50});
    const double t_end = 1.5;
    Swing a = swing(rig, 4e-3, t_end), b = swing(rig, 2e-3, t_end);
    ck_assert_msg(std::fabs(a.e0 - 2 * 50 * 3.0) < 1e-9, "V(120 deg) = %.12g, 2k tan^2(60 deg) = 300", a.e0);
    ck_assert_msg(a.max_pitch < 1.45, "pitch %g reached the chain's gimbal lock", a.max_pitch);
    ck_assert_msg(a.max_deg > 119.9 && a.max_deg < 120.01, "largest angle %g deg", a.max_deg);
    // through the rest pose to the other side: θ·n0 from +2 tan 60° = 3.46 to below −2 tan 55°
    ck_assert_msg(a.min_along < -2 * std::tan(55 * kPi / 180), "least theta.n0 %g", a.min_along);
    fprintf(stderr, "swing: E0 %.6g, drift %.3g (h) %.3g (h/2), ratio %.2f, least theta.n0 %.4f, max pitch %.3f\n",
            a.e0, a.drift, b.drift, a.drift / b.drift, a.min_along, a.max_pitch);
    ck_assert_msg(b.drift < 1e-6 * a.e0, "energy drift %g of %g", b.drift, a.e0);
    ck_assert_msg(a.drift / b.drift > 12, "drift %g (h) and %g (h/2): ratio %g, RK4 expects 16", a.drift, b.drift,
                  a.drift / b.drift);
}
END_TEST

START_TEST(anisotropic_swing_conserves_energy)
{
    // Unequal kr: the torque is still the exact gradient of ½ θᵀ Kr θ, so
    // T + V is kept all the same (here from rest at 120°, the body wanders
    // in three dimensions); V(120°) = ½ θᵀ Kr θ, θ = 2 tan 60° n0.
    const V k{40, 70, 25};
    Rig rig(k);
    Swing a = swing(rig, 4e-3, 1.5), b = swing(rig, 2e-3, 1.5);
    V n0 = unit(V{0.25, 0.3, 0.9});
    double t = 2 * std::tan(kPi / 3), v0 = 0.5 * t * t * (k[0] * n0[0] * n0[0] + k[1] * n0[1] * n0[1] + k[2] * n0[2] * n0[2]);
    ck_assert_msg(std::fabs(a.e0 - v0) < 1e-9 * v0, "V(120 deg) = %.12g, expected %.12g", a.e0, v0);
    ck_assert_msg(a.max_pitch < 1.45, "pitch %g reached the chain's gimbal lock", a.max_pitch);
    ck_assert_msg(b.drift < 1e-6 * a.e0, "energy drift %g of %g", b.drift, a.e0);
    ck_assert_msg(a.drift / b.drift > 12, "drift %g (h) and %g (h/2): ratio %g, RK4 expects 16", a.drift, b.drift,
                  a.drift / b.drift);
    fprintf(stderr, "anisotropic swing: E0 %.6g, drift %.3g (h) %.3g (h/2), ratio %.2f, max pitch %.3f\n", a.e0,
            a.drift, b.drift, a.drift / b.drift, a.max_pitch);
}
END_TEST

START_TEST(power_other_is_zero_with_a_turning_first_frame)
{
    // The bushing between a turntable (yaw e) and the body: F1's base turns.
    // power.other = Q(F_k)·q̇ + dV/dt is what V misses: 0 for the large law
    // (its torque is the exact gradient), not for the small one at 100°.
    auto build = [](const char *law) {
        auto sys = std::make_unique<System>();
        vdl::Sources src;
        vdl::Diagnostics d(src);
        std::string text = std::string("coord e, a, b, c\n"
                                       "base T = rotate(ground, z, e)\n"
                                       "body tt  mass 1  cg O  frame T  inertia diag(1, 1, 1.5) in T\n"
                                       "frame FT = O in T\n"
                                       "base B = rotate(rotate(rotate(ground, z, a), y, b), x, c)\n"
                                       "body s  mass 1  cg O  frame B  inertia diag(2, 1.5, 1) in B\n"
                                       "frame FB = O in B\n"
                                       "bushing rot  between FT of tt and FB of s  k [0, 0, 0, 40, 70, 25]  rotation ") +
                           law + "\n";
        bool ok = vdl::load_text("turntable.vdl", text, *sys, d);
        ck_assert_msg(ok, "%s", d.format().c_str());
        return sys;
    };
    V n = unit(V{0.5, 0.7, -0.3});
    V q = chain_angles(mmul(rot_axis(2, 0.4), axis_angle(n, 100 * kPi / 180)));   // 100° from the turntable at e = 0.4
    const double qv[4] = {0.4, q[0], q[1], q[2]}, vv[4] = {0.9, -0.7, 0.5, 1.3};
    double other[2];
    const char *laws[2] = {"large", "small"};
    for (int l = 0; l < 2; ++l) {
        auto sys = build(laws[l]);
        Ex p = power_terms(*sys)[kPowerOther];
        SymValues x = sys->defaults();
        for (int j = 0; j < 4; ++j) {
            x.set(SymKind::Coord, j, qv[j]);
            x.set(SymKind::Vel, j, vv[j]);
        }
        other[l] = sys->store().eval(p, x);
    }
    fprintf(stderr, "power.other at 100 deg, F1 turning: large %.3g W, small %.3g W\n", other[0], other[1]);
    ck_assert_msg(std::fabs(other[0]) < 1e-10, "large law: power.other %g", other[0]);
    ck_assert_msg(std::fabs(other[1]) > 1.0, "small law: power.other %g, expected far from 0 at 100 deg", other[1]);
}
END_TEST

}  // namespace

int main(void)
{
    Suite *s = suite_create("bushing_large");
    TCase *tc = tcase_create("law");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, torque_is_the_gradient_anisotropic);
    tcase_add_test(tc, torque_is_the_gradient_isotropic);
    tcase_add_test(tc, small_angles_agree_to_second_order);
    tcase_add_test(tc, jacobians_match_central_differences);
    tcase_add_test(tc, swing_through_120_degrees_conserves_energy);
    tcase_add_test(tc, anisotropic_swing_conserves_energy);
    tcase_add_test(tc, power_other_is_zero_with_a_turning_first_frame);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
