// test_kinematics.cpp — bases and points trees, vectors across bases, and the
// kinematic operators (modeler/kinematics/bases.*, points.*, vectors.*, modeler/mechanics/system.cpp),
// checked by value against finite differences along random state paths and
// against plain matrix algebra; and the model-building errors.
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

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A branched tree using every kind of base definition, time-dependent too.
struct Tree {
    System S;
    Tree()
    {
        Ex z = S.store().zero(), t = S.time();
        Ex q1 = S.coord("q1"), q2 = S.coord("q2"), q3 = S.coord("q3"), q4 = S.coord("q4"), q5 = S.coord("q5");
        Ex u = S.coord("u"), v = S.coord("v"), w = S.coord("w");
        S.add_base("B1", "ground", Axis::Z, q1);
        V3 n{S.store().num(1, 3), S.store().num(2, 3), S.store().num(2, 3)};
        S.add_base("B2", "B1", n, q2 + 0.3 * t);
        S.add_base_euler("B3", "ground", cos(u), sin(u) * cos(v), sin(u) * sin(v) * cos(w), sin(u) * sin(v) * sin(w));
        Ex c3 = cos(q3), s3 = sin(q3), c4 = cos(q4), s4 = sin(q4), o = S.store().one();
        M3 Rz{V3{c3, -s3, z}, V3{s3, c3, z}, V3{z, z, o}}, Rx{V3{o, z, z}, V3{z, c4, -s4}, V3{z, s4, c4}};
        S.add_base_matrix("B4", "B3", mul(Rz, Rx));
        S.add_base("B5", "B2", Axis::X, q5);
        S.add_point("P1", "O", S.vec(q1, S.store().one(), S.store().num(1, 2), "B1"));
        S.add_point("P2", "P1", S.vec(S.store().num(0.25), q2, 0.1 * t, "B2"));
        S.add_point("P3", "O", S.vec(S.store().one(), z, z, "B4"));
        S.add_point("P4", "P3", S.vec(z, S.store().num(0.5), q3, "B5"));
        S.add_frame("F1", "P1", "B2");
        S.add_frame("F2", "P3", "B4");
    }
};

const char *kBases[] = {"ground", "B1", "B2", "B3", "B4", "B5"};
const char *kPoints[] = {"O", "P1", "P2", "P3", "P4"};
const char *kFrames[] = {"ground", "F1", "F2"};

// The state at time offset tau along q(τ) = q + q̇ τ + ½ q̈ τ², t = t0 + τ.
SymValues along(const SymValues &x, int n, double tau)
{
    SymValues y = x;
    for (int i = 0; i < n; ++i) {
        double q = x.get(SymKind::Coord, i), qd = x.get(SymKind::Vel, i), qdd = x.get(SymKind::Acc, i);
        y.set(SymKind::Coord, i, q + qd * tau + 0.5 * qdd * tau * tau);
        y.set(SymKind::Vel, i, qd + qdd * tau);
    }
    y.set(SymKind::Time, 0, x.get(SymKind::Time, 0) + tau);
    return y;
}

std::vector<double> evalv(System &S, const V3 &v, const SymValues &x)
{
    return S.store().eval(std::vector<Ex>{v[0], v[1], v[2]}, x);
}
std::vector<double> evalm(System &S, const M3 &m, const SymValues &x)
{
    std::vector<Ex> e;
    for (auto &r : m)
        for (auto &c : r) e.push_back(c);
    return S.store().eval(e, x);
}

}  // namespace

START_TEST(test_rotations_compose)
{
    Tree T;
    std::mt19937 rng(11);
    for (int k = 0; k < 10; ++k) {
        SymValues x = random_state(T.S, rng);
        for (const char *a : kBases)
            for (const char *b : kBases) {
                std::vector<double> Rab = evalm(T.S, T.S.rotation(b, a), x);   // R_a_b
                // orthonormal
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) {
                        double d = 0;
                        for (int l = 0; l < 3; ++l) d += Rab[l * 3 + i] * Rab[l * 3 + j];
                        ck_assert(close(d, i == j ? 1 : 0, 1e-12));
                    }
                // R_a_b = R_a_ground · R_ground_b (plain matrix product of evaluated matrices)
                std::vector<double> Rag = evalm(T.S, T.S.rotation("ground", a), x);
                std::vector<double> Rgb = evalm(T.S, T.S.rotation(b, "ground"), x);
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) {
                        double d = 0;
                        for (int l = 0; l < 3; ++l) d += Rag[i * 3 + l] * Rgb[l * 3 + j];
                        ck_assert(close(d, Rab[i * 3 + j], 1e-12));
                    }
            }
    }
}
END_TEST

// ω of b relative to a in a's components equals vee(Ṙ Rᵀ), R = R_a_b, Ṙ by
// central differences; α (derivative taken in a) equals the difference
// quotient of those components.
START_TEST(test_angular_velocity_and_acceleration)
{
    Tree T;
    const int n = (int)T.S.coords().size();
    std::mt19937 rng(12);
    const double h = 1e-5;
    for (int k = 0; k < 5; ++k) {
        SymValues x = random_state(T.S, rng);
        for (const char *a : kBases)
            for (const char *b : kBases) {
                M3 R = T.S.rotation(b, a);
                std::vector<double> R0 = evalm(T.S, R, x), Rp = evalm(T.S, R, along(x, n, h)),
                                    Rm = evalm(T.S, R, along(x, n, -h));
                double W[3][3];
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) {
                        W[i][j] = 0;
                        for (int l = 0; l < 3; ++l) W[i][j] += (Rp[i * 3 + l] - Rm[i * 3 + l]) / (2 * h) * R0[j * 3 + l];
                    }
                double wfd[3] = {W[2][1], W[0][2], W[1][0]};
                Vector w = T.S.omega(b, a);
                std::vector<double> wv = evalv(T.S, w.c, x);
                for (int i = 0; i < 3; ++i) ck_assert_msg(close(wv[i], wfd[i], 1e-7), "omega %s/%s", b, a);
                // expressed elsewhere: same vector
                std::vector<double> wg = evalv(T.S, T.S.omega(b, a, "B4").in(a).c, x);
                for (int i = 0; i < 3; ++i) ck_assert(close(wg[i], wv[i], 1e-12));
                std::vector<double> wp = evalv(T.S, w.c, along(x, n, h)), wm = evalv(T.S, w.c, along(x, n, -h));
                std::vector<double> al = evalv(T.S, T.S.alpha(b, a).c, x);
                for (int i = 0; i < 3; ++i) ck_assert_msg(close(al[i], (wp[i] - wm[i]) / (2 * h), 1e-7), "alpha %s/%s", b, a);
            }
    }
}
END_TEST

// Velocity and acceleration of every point relative to every frame equal the
// first and second difference quotients of the position from the frame's
// point, in the frame's base components.
START_TEST(test_point_velocity_acceleration)
{
    Tree T;
    const int n = (int)T.S.coords().size();
    std::mt19937 rng(13);
    const double h = 1e-4;
    for (int k = 0; k < 5; ++k) {
        SymValues x = random_state(T.S, rng);
        for (const char *fname : kFrames)
            for (const char *p : kPoints) {
                const Frame &f = T.S.frame(fname);
                std::string fb = T.S.bases().name(f.base), fp = T.S.points().name(f.point);
                V3 r = T.S.position(fp, p, fb).c;
                std::vector<double> r0 = evalv(T.S, r, x), rp = evalv(T.S, r, along(x, n, h)),
                                    rm = evalv(T.S, r, along(x, n, -h));
                std::vector<double> v = evalv(T.S, T.S.velocity(p, fname).c, x);
                std::vector<double> a = evalv(T.S, T.S.acceleration(p, fname).c, x);
                for (int i = 0; i < 3; ++i) {
                    ck_assert_msg(close(v[i], (rp[i] - rm[i]) / (2 * h), 1e-7), "v %s in %s", p, fname);
                    ck_assert_msg(close(a[i], (rp[i] - 2 * r0[i] + rm[i]) / (h * h), 1e-5), "a %s in %s: %g vs %g", p,
                                  fname, a[i], (rp[i] - 2 * r0[i] + rm[i]) / (h * h));
                }
                // another base of expression: the same vector
                std::vector<double> v4 = evalv(T.S, T.S.velocity(p, fname, "B5").in(fb).c, x);
                for (int i = 0; i < 3; ++i) ck_assert(close(v4[i], v[i], 1e-12));
            }
    }
}
END_TEST

// Positions between any two points through the common ancestor, and vector
// algebra across bases, against the same computed in ground with plain math.
START_TEST(test_positions_and_vector_algebra)
{
    Tree T;
    std::mt19937 rng(14);
    SymValues x = random_state(T.S, rng);
    for (const char *a : kPoints)
        for (const char *b : kPoints) {
            std::vector<double> rab = evalv(T.S, T.S.position(a, b, "ground").c, x);
            std::vector<double> ra = evalv(T.S, T.S.position("O", a, "ground").c, x);
            std::vector<double> rb = evalv(T.S, T.S.position("O", b, "ground").c, x);
            for (int i = 0; i < 3; ++i) ck_assert(close(rab[i], rb[i] - ra[i], 1e-12));
        }
    Store &st = T.S.store();
    Vector u = T.S.vec(st.num(1), T.S.symbol("q2"), st.num(3), "B5");
    Vector w = T.S.vec(T.S.symbol("u"), st.num(-2), st.num(0.5), "B4");
    std::vector<double> ug = evalv(T.S, u.in("ground").c, x), wg = evalv(T.S, w.in("ground").c, x);
    std::vector<double> s = evalv(T.S, (u + w).in("ground").c, x);
    std::vector<double> c = evalv(T.S, cross(u, w).in("ground").c, x);
    double d = st.eval(dot(u, w), x), dd = 0;
    for (int i = 0; i < 3; ++i) {
        ck_assert(close(s[i], ug[i] + wg[i], 1e-12));
        dd += ug[i] * wg[i];
    }
    ck_assert(close(d, dd, 1e-12));
    double cg[3] = {ug[1] * wg[2] - ug[2] * wg[1], ug[2] * wg[0] - ug[0] * wg[2], ug[0] * wg[1] - ug[1] * wg[0]};
    for (int i = 0; i < 3; ++i) ck_assert(close(c[i], cg[i], 1e-12));
    // result lands in the first operand's base
    ck_assert_int_eq((u + w).base, T.S.base("B5"));
    // tensor · vector across bases: (R I Rᵀ) w_g equals I applied in its own base
    Tensor I = T.S.tensor(M3{V3{st.num(2), st.num(0.1), st.zero()}, V3{st.num(0.1), st.num(3), st.zero()},
                             V3{st.zero(), st.zero(), st.num(4)}},
                          "B2");
    std::vector<double> Iw = evalv(T.S, (I * w).in("ground").c, x);
    std::vector<double> Iw2 = evalv(T.S, (I.in(T.S.base("ground")) * w).c, x);
    for (int i = 0; i < 3; ++i) ck_assert(close(Iw[i], Iw2[i], 1e-12));
}
END_TEST

// Memoization: asking twice creates no new atoms, and a chain's rotation to
// ground costs O(1) new atoms per level.
START_TEST(test_memoized_sharing)
{
    auto s = chain(10);
    Store &st = s->store();
    s->rotation("B10", "ground");
    int before = st.size();
    s->rotation("B10", "ground");
    s->velocity("G10");
    int mid = st.size();
    s->velocity("G10");
    ck_assert_int_eq(st.size(), mid);
    ck_assert(mid >= before);
    // the cost of R_ground_Bn per added level is constant: equal increments
    auto cost = [](int n) {
        auto c = chain(n);
        int b = c->store().size();
        c->rotation("B" + std::to_string(n), "ground");
        return c->store().size() - b;
    };
    int c10 = cost(10), c20 = cost(20), c30 = cost(30);
    ck_assert_msg(c30 - c20 <= (c20 - c10) * 11 / 10 + 10, "rotation chain cost grows superlinearly: %d %d %d", c10,
                  c20, c30);
}
END_TEST

static std::string error_of(const std::function<void()> &f)
{
    try {
        f();
    } catch (const ModelError &e) {
        return e.what();
    }
    return "";
}

START_TEST(test_bad_input)
{
    System S;
    Store &st = S.store();
    Ex z = st.zero(), o = st.one(), q = S.coord("q");
    S.add_base("wheel_base", "ground", Axis::Z, q);
    S.add_point("hub", "O", S.vec(o, z, z, "wheel_base"));
    std::string e;
    e = error_of([&] { S.add_base("B", "wheel_bse", Axis::X, q); });
    ck_assert_msg(contains(e, "base 'B'") && contains(e, "unknown base 'wheel_bse'") && contains(e, "did you mean 'wheel_base'"), "%s", e.c_str());
    e = error_of([&] { S.add_point("P", "hbu", S.vec(o, z, z, "ground")); });
    ck_assert_msg(contains(e, "point 'P'") && contains(e, "did you mean 'hub'"), "%s", e.c_str());
    e = error_of([&] { S.add_point("hub", "O", S.vec(o, z, z, "ground")); });
    ck_assert_msg(contains(e, "'hub'") && contains(e, "already used by a point"), "%s", e.c_str());
    e = error_of([&] { S.add_base_matrix("M", "ground", M3{V3{o, o, z}, V3{z, o, z}, V3{z, z, o}}); });
    ck_assert_msg(contains(e, "base 'M'") && contains(e, "not orthonormal"), "%s", e.c_str());
    ck_assert_int_eq(S.bases().lookup("M"), -1);   // nothing half-defined left behind
    e = error_of([&] { S.add_base_matrix("M", "ground", M3{V3{-o, z, z}, V3{z, o, z}, V3{z, z, o}}); });
    ck_assert_msg(contains(e, "reflection"), "%s", e.c_str());
    e = error_of([&] { S.add_base("A", "ground", V3{o, o, z}, q); });
    ck_assert_msg(contains(e, "base 'A'") && contains(e, "unit vector"), "%s", e.c_str());
    e = error_of([&] { S.add_base_euler("E", "ground", o, o, z, z); });
    ck_assert_msg(contains(e, "base 'E'") && contains(e, "Euler parameters"), "%s", e.c_str());
    e = error_of([&] { S.add_body("b", o, "hub", Tensor(), "wheel_base"); });
    ck_assert_msg(contains(e, "body 'b'") && contains(e, "no inertia"), "%s", e.c_str());
    e = error_of([&] { S.add_body("b", o, "hub", m3_diag(o, o, o), "wheel_bas", "wheel_base"); });
    ck_assert_msg(contains(e, "body 'b'") && contains(e, "unknown base 'wheel_bas'") && contains(e, "did you mean 'wheel_base'"), "%s", e.c_str());
    e = error_of([&] { S.add_body("b", o, "hub", m3_diag(o, o, o), "ground", "nowhere"); });
    ck_assert_msg(contains(e, "body 'b'") && contains(e, "unknown frame or base 'nowhere'"), "%s", e.c_str());
    e = error_of([&] { S.add_body("b", -o, "hub", m3_diag(o, o, o), "ground", "ground"); });
    ck_assert_msg(contains(e, "not positive"), "%s", e.c_str());
    e = error_of([&] { S.add_spring_damper("s", "hub", "hub", o, o, o); });
    ck_assert_msg(contains(e, "spring-damper 's'") && contains(e, "two different points"), "%s", e.c_str());
    e = error_of([&] { S.add_bushing("bu", "ground", "groudn", {z, z, z, z, z, z}, {z, z, z, z, z, z}); });
    ck_assert_msg(contains(e, "bushing 'bu'") && contains(e, "did you mean 'ground'"), "%s", e.c_str());
    e = error_of([&] { S.add_torque("t", "wheel_base", S.vec(o, z, z, "ground"), "wheel_base"); });
    ck_assert_msg(contains(e, "torque 't'") && contains(e, "same base"), "%s", e.c_str());
    e = error_of([&] { S.add_constraint("c", S.vel(q)); });
    ck_assert_msg(contains(e, "constraint 'c'"), "%s", e.c_str());
    e = error_of([&] { S.symbol("qq"); });
    ck_assert_msg(contains(e, "unknown symbol 'qq'") && contains(e, "did you mean 'q'"), "%s", e.c_str());
    S.param("k", 1.0);
    e = error_of([&] { S.coord("k"); });
    ck_assert_msg(contains(e, "coordinate 'k'"), "%s", e.c_str());
    // a cycle cannot be expressed: parents must exist, so "ground" can never get a parent
    e = error_of([&] { S.add_base("ground", "wheel_base", Axis::X, q); });
    ck_assert_msg(contains(e, "already used"), "%s", e.c_str());
}
END_TEST

static Suite *kinematics_suite()
{
    Suite *s = suite_create("kinematics");
    TCase *tc = tcase_create("operators");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rotations_compose);
    tcase_add_test(tc, test_angular_velocity_and_acceleration);
    tcase_add_test(tc, test_point_velocity_acceleration);
    tcase_add_test(tc, test_positions_and_vector_algebra);
    tcase_add_test(tc, test_memoized_sharing);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(kinematics_suite)
