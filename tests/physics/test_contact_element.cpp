// test_contact_element.cpp — the wheel-rail contact element of the modeler
// (modeler/mechanics/contact.cpp, system_contact.cpp) on a single wheelset
// (tests/support/models_wheelset.cpp), checked against answers derived here
// without the code under test:
//   * closed-form contact geometry of a conical wheel (taper γ) on a rail
//     head z = γ u − u²/(2R) (inclined like the cone, so a centred wheelset
//     touches on the taping line), straight level track: the contact point
//     found by Newton on the generated φ^d (with the generated φ^d_s) must
//     sit where the geometry says, with the gap φ^n and the radii it says;
//   * classic kinematics: pure rolling has zero creepages and V = v; a yaw
//     angle ψ gives lateral creepage −ψ v; a lateral velocity ẏ gives ẏ;
//   * statics: each normal force is half the weight (N = −λ_n);
//   * finite differences for every Jacobian, γ_n along a quadratic path;
//   * generated C (gcc) equals store.eval.
// The spline inputs are filled here with cubics that are these shapes
// exactly, with non-zero break points u_bp so the shift is exercised.
#include <cmath>
#include <map>
#include <random>
#include <string>

#include "codegen.hpp"
#include "model_functions.hpp"
#include "compile_c.hpp"
#include "models.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;
using namespace railsym::models;

namespace {

const double kGamma = 1.0 / 40;   // cone taper
const double kR = 0.3;            // rail head radius
const double kUbpW = 0.004, kUbpR = -0.003, kUbpS = 1.5;   // break points of the test cubics

struct Fixture {
    std::unique_ptr<System> sys;
    std::map<std::string, codegen::Function> fn;
    std::vector<ContactTableEntry> table;
};
Fixture *g_fx = nullptr;   // built once in main(), inherited by Check's forked tests

System &S() { return *g_fx->sys; }
const codegen::Output &out(const char *fn, int k = 0) { return g_fx->fn.at(fn).outputs.at(k); }

int slot(const char *name) { return S().store().sym(S().symbol(name).id()).slot; }
void set_q(SymValues &v, const char *name, double x) { v.set(SymKind::Coord, slot(name), x); }
void set_qd(SymValues &v, const char *name, double x)
{
    v.set(SymKind::Vel, S().store().sym(S().store().dot(S().symbol(name)).id()).slot, x);
}
double P(const SymValues &v, const char *name) { return S().store().eval(S().symbol(name), v); }

// Spline inputs of every contact: cone f_w = −γ u (radius increase), rail
// head f_r = γ u − u²/(2R), track f_x = s, f_y = f_z = cant = 0; each written
// around its break point w as ((a t + b) t + c) t + d, t = u − w.
void fill_splines(SymValues &v)
{
    for (const ContactTableEntry &c : g_fx->table) {
        auto put = [&](int sp, double a, double b, double cc, double d, double w) {
            const double x[5] = {a, b, cc, d, w};
            for (int k = 0; k < 5; ++k) v.set(SymKind::Input, c.spline[sp].u_slot[k], x[k]);
        };
        double w = kUbpW;
        put(kSplineWheel, 0, 0, -kGamma, -kGamma * w, w);
        w = kUbpR;
        put(kSplineRail, 0, -1 / (2 * kR), kGamma - w / kR, kGamma * w - w * w / (2 * kR), w);
        put(kSplineTrackX, 0, 0, 1, kUbpS, kUbpS);
        put(kSplineTrackY, 0, 0, 0, 0, kUbpS);
        put(kSplineTrackZ, 0, 0, 0, 0, kUbpS);
        put(kSplineCant, 0, 0, 0, 0, kUbpS);
    }
}

SymValues base_state()
{
    SymValues v = S().defaults();
    fill_splines(v);
    return v;
}

double s_of(const SymValues &v, int contact, int k)
{
    return v.get(SymKind::Aux, g_fx->table[contact].s_slot[k]);
}

// Newton on φ^d(q, s) = 0 for s, contact by contact, with the generated φ^d
// and its 4×4 blocks φ^d_s.  Returns the iterations used (−1: no convergence).
int solve_contacts(SymValues &v)
{
    Store &st = S().store();
    for (int it = 0; it < 40; ++it) {
        std::vector<double> f = st.eval(out("phi_d").values, v);
        double worst = 0;
        for (double x : f) worst = std::max(worst, std::fabs(x));
        if (worst < 1e-14) return it;
        std::vector<double> J = st.eval(out("phi_d_s").values, v);
        for (size_t c = 0; c < g_fx->table.size(); ++c) {
            std::vector<double> A(J.begin() + 16 * c, J.begin() + 16 * (c + 1));
            std::vector<double> b(f.begin() + 4 * c, f.begin() + 4 * (c + 1));
            std::vector<double> ds = solve(A, b, 4);
            for (int k = 0; k < 4; ++k) {
                int sl = g_fx->table[c].s_slot[k];
                v.set(SymKind::Aux, sl, v.get(SymKind::Aux, sl) - ds[k]);
            }
        }
    }
    return -1;
}

// A sparse output's values expanded to a dense row-major matrix.
std::vector<double> dense(const codegen::Output &o, const std::vector<double> &vals)
{
    std::vector<double> d((size_t)o.rows * o.cols, 0.0);
    for (int j = 0; j < o.cols; ++j)
        for (int k = o.colptr[j]; k < o.colptr[j + 1]; ++k) d[(size_t)o.rowidx[k] * o.cols + j] = vals[k];
    return d;
}

// Central difference of the outputs `ex` with respect to one symbol value.
std::vector<double> fd(const std::vector<Ex> &ex, SymValues v, SymKind kind, int sl, double h)
{
    double x0 = v.get(kind, sl);
    v.set(kind, sl, x0 + h);
    std::vector<double> a = S().store().eval(ex, v);
    v.set(kind, sl, x0 - h);
    std::vector<double> b = S().store().eval(ex, v);
    for (size_t i = 0; i < a.size(); ++i) a[i] = (a[i] - b[i]) / (2 * h);
    return a;
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

}  // namespace

// ---------------------------------------------------------------- geometry

START_TEST(test_centred_on_taping_line)
{
    SymValues v = base_state();
    set_q(v, "x", 0.7);
    // Start away from the answer: Newton must bring s back.
    for (size_t c = 0; c < g_fx->table.size(); ++c) {
        const double s0[4] = {0.02, 0.003, 0.69, -0.002};
        for (int k = 0; k < 4; ++k) v.set(SymKind::Aux, g_fx->table[c].s_slot[k], s0[k]);
    }
    int it = solve_contacts(v);
    ck_assert_msg(it > 0 && it < 10, "Newton on phi_d: %d iterations", it);
    for (int c = 0; c < 2; ++c) {
        ck_assert_msg(near(s_of(v, c, kAuxThetaW), 0, 1e-12), "theta_w = %g", s_of(v, c, kAuxThetaW));
        ck_assert_msg(near(s_of(v, c, kAuxUW), 0, 1e-12), "u_w = %g", s_of(v, c, kAuxUW));
        ck_assert_msg(near(s_of(v, c, kAuxSR), 0.7, 1e-12), "s_r = %g", s_of(v, c, kAuxSR));
        ck_assert_msg(near(s_of(v, c, kAuxUR), 0, 1e-12), "u_r = %g", s_of(v, c, kAuxUR));
    }
    std::vector<double> pn = S().store().eval(out("phi_n").values, v);
    ck_assert_msg(near(pn[0], 0, 1e-13) && near(pn[1], 0, 1e-13), "phi_n = %g %g", pn[0], pn[1]);
    // Radii: the wheel in the rolling direction r0/cos(contact angle) =
    // r0 √(1+γ²); the cone is straight laterally (infinite radius); the rail
    // head's curvature −f''/(1+f'²)^{3/2} with f' = γ, f'' = −1/R.
    std::vector<double> R = S().store().eval(out("radii").values, v);
    double r0 = P(v, "r0");
    for (int c = 0; c < 2; ++c) {
        ck_assert_msg(near(R[3 * c], r0 * std::sqrt(1 + kGamma * kGamma), 1e-12), "Rx_w = %.15g", R[3 * c]);
        ck_assert_msg(std::isinf(R[3 * c + 1]), "Ry_w of a cone = %g", R[3 * c + 1]);
        ck_assert_msg(near(R[3 * c + 2], kR * std::pow(1 + kGamma * kGamma, 1.5), 1e-12), "Ry_r = %.15g",
                      R[3 * c + 2]);
    }
    // A lifted wheelset: the gap is the lift times the normal's vertical component.
    set_q(v, "z", 0.001);
    ck_assert_int_ge(solve_contacts(v), 0);
    pn = S().store().eval(out("phi_n").values, v);
    for (int c = 0; c < 2; ++c) ck_assert(near(pn[c], 0.001 / std::sqrt(1 + kGamma * kGamma), 1e-14));
}
END_TEST

// Lateral shift y with roll 0 and z = γ y: the left wheel touches, the right
// one is lifted.  In the outward lateral coordinate η and height Z of the
// cross-section, the cone's bottom line is (b0 ± y + u, z + γ u), the rail
// head touches at its origin (b0, 0) where its normal is (−γ, 1)/√(1+γ²);
// P_w = P_r + d n gives d = (z ∓ γ y)/√(1+γ²) and u_w = ∓y − γ d/√(1+γ²).
START_TEST(test_lateral_shift_rolling_radii)
{
    const double y = 0.004, g = kGamma, c = 1 / std::sqrt(1 + g * g);
    SymValues v = base_state();
    set_q(v, "y", y);
    set_q(v, "z", g * y);
    ck_assert_int_ge(solve_contacts(v), 0);
    std::vector<double> pn = S().store().eval(out("phi_n").values, v);
    double r0 = P(v, "r0");
    for (int k = 0; k < 2; ++k) {
        double sgn = k == 0 ? 1 : -1;   // left, right
        double d = (g * y - sgn * g * y) * c;
        double uw = -sgn * y - g * d * c;
        ck_assert_msg(near(pn[k], d, 1e-14), "side %d: gap %.12g, expected %.12g", k, pn[k], d);
        ck_assert_msg(near(s_of(v, k, kAuxUW), uw, 1e-13), "side %d: u_w %.12g, expected %.12g", k,
                      s_of(v, k, kAuxUW), uw);
        ck_assert(near(s_of(v, k, kAuxUR), 0, 1e-13));
        ck_assert(near(s_of(v, k, kAuxThetaW), 0, 1e-13));
        double fw = S().store().eval(S().contacts()[k].f_w, v);
        ck_assert_msg(near(fw, r0 - g * uw, 1e-14), "side %d: rolling radius", k);
    }
    // The left wheel (in contact) rolls on r0 + γ y exactly; the right one on
    // r0 − γ y up to the O(γ³ y) lateral offset of its lifted contact point.
    ck_assert(near(S().store().eval(S().contacts()[0].f_w, v), r0 + g * y, 1e-14));
    ck_assert(near(S().store().eval(S().contacts()[1].f_w, v), r0 - g * y, 3 * g * g * g * y));
}
END_TEST

// ---------------------------------------------------------------- creepages

START_TEST(test_pure_rolling_creepages)
{
    const double vx = 20.0, g = kGamma, c = 1 / std::sqrt(1 + g * g);
    SymValues v = base_state();
    ck_assert_int_ge(solve_contacts(v), 0);
    double r0 = P(v, "r0");
    set_qd(v, "x", vx);
    set_qd(v, "spin", vx / r0);
    std::vector<double> nu = S().store().eval(out("nu").values, v);
    std::vector<double> V = S().store().eval(out("V").values, v);
    for (int k = 0; k < 2; ++k) {
        double sgn = k == 0 ? 1 : -1;
        ck_assert_msg(near(nu[3 * k], 0, 1e-12) && near(nu[3 * k + 1], 0, 1e-12), "side %d: nu %g %g", k,
                      nu[3 * k], nu[3 * k + 1]);
        // Spin: ω = (v/r0) ŷ, n^r = (0, ∓γ, 1)/√(1+γ²) (tilted inwards).
        ck_assert_msg(near(nu[3 * k + 2], -sgn * g * c * vx / r0, 1e-12), "side %d: spin %g", k, nu[3 * k + 2]);
        ck_assert_msg(near(V[k], vx, 1e-12), "side %d: V = %.15g", k, V[k]);
    }
    // A lateral velocity slides both contacts along t_y^r = (0, 1, ±γ)/√(1+γ²).
    set_qd(v, "y", 0.1);
    nu = S().store().eval(out("nu").values, v);
    for (int k = 0; k < 2; ++k) ck_assert(near(nu[3 * k + 1], 0.1 * c, 1e-12));
}
END_TEST

// A yawed wheelset rolling forward: lateral creepage −ψ v (the classic
// kinematic relation, here to 1e-3: the exact value also carries the contact
// angle and the small shift of the contact point on the yawed cone, O(γ²)),
// longitudinal creepage of second order.
START_TEST(test_yaw_lateral_creepage)
{
    const double vx = 20.0, psi = 0.002;
    SymValues v = base_state();
    set_q(v, "yaw", psi);
    ck_assert_int_ge(solve_contacts(v), 0);
    double r0 = P(v, "r0");
    set_qd(v, "x", vx);
    set_qd(v, "spin", vx / r0);
    std::vector<double> nu = S().store().eval(out("nu").values, v);
    for (int k = 0; k < 2; ++k) {
        ck_assert_msg(std::fabs(nu[3 * k + 1] / (-psi * vx) - 1) < 1e-3, "side %d: lateral %g vs %g", k,
                      nu[3 * k + 1], -psi * vx);
        ck_assert_msg(std::fabs(nu[3 * k]) < 0.01 * psi * vx, "side %d: longitudinal %g", k, nu[3 * k]);
    }
}
END_TEST

// Prescribed forward motion x = v t: 5 coordinates; rolling at the driven
// speed is creepage-free, and the whole forward speed is the rheonomic part
// ν_t = ν − (∂ν/∂q̇) q̇ (docs/contact_element.md, "What the runtime does").
START_TEST(test_driven_wheelset)
{
    Fixture fx;
    WheelsetOptions o;
    o.driven = true;
    fx.sys = wheelset(o);
    for (codegen::Function &f : contact_functions(*fx.sys)) fx.fn.emplace(f.name, f);
    fx.table = fx.sys->contact_table();
    Fixture *saved = g_fx;
    g_fx = &fx;
    ck_assert_int_eq((int)S().coords().size(), 5);
    SymValues v = base_state();
    const double t = 0.3, vx = P(v, "v"), r0 = P(v, "r0");
    v.set(SymKind::Time, 0, t);
    for (const ContactTableEntry &c : fx.table) v.set(SymKind::Aux, c.s_slot[kAuxSR], 2.9);
    ck_assert_int_ge(solve_contacts(v), 0);
    set_qd(v, "spin", vx / r0);
    std::vector<double> nu = S().store().eval(out("nu").values, v);
    const codegen::Output &dn = out("dnu_dqd");
    std::vector<double> N = dense(dn, S().store().eval(dn.values, v));
    int spin_col = S().store().sym(S().symbol("spin").id()).slot;
    for (int k = 0; k < 2; ++k) {
        ck_assert(near(s_of(v, k, kAuxSR), vx * t, 1e-12));
        ck_assert(near(nu[3 * k], 0, 1e-12));
        double nu_t = nu[3 * k] - N[(size_t)(3 * k) * 5 + spin_col] * vx / r0;
        ck_assert_msg(near(nu_t, vx, 1e-12), "nu_t = %g", nu_t);
    }
    g_fx = saved;
}
END_TEST

// ---------------------------------------------------------------- statics

// Centred and at rest on the rails: q̈ = 0 and each wheel carries half the
// weight, N = −λ_n (docs/contact_element.md).
START_TEST(test_static_normal_forces)
{
    SymValues v = base_state();
    ck_assert_int_ge(solve_contacts(v), 0);
    Store &st = S().store();
    const int n = (int)S().coords().size();
    std::vector<double> M = st.eval(S().mass_matrix(), v), d = st.eval(S().delta(), v);
    std::vector<double> Jq = st.eval(S().phi_q(), v), ga = st.eval(S().gamma(), v);
    const int m = (int)ga.size();
    ck_assert_int_eq(m, 2);
    int N = n + m;
    std::vector<double> A((size_t)N * N, 0.0), b(N, 0.0);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) A[(size_t)i * N + j] = M[(size_t)i * n + j];
        for (int r = 0; r < m; ++r) A[(size_t)i * N + n + r] = Jq[(size_t)r * n + i];
        b[i] = d[i];
    }
    for (int r = 0; r < m; ++r) {
        for (int j = 0; j < n; ++j) A[(size_t)(n + r) * N + j] = Jq[(size_t)r * n + j];
        b[n + r] = ga[r];
    }
    std::vector<double> xs = solve(A, b, N);
    for (int i = 0; i < n; ++i) ck_assert_msg(near(xs[i], 0, 1e-9), "qdd[%d] = %g", i, xs[i]);
    // N acts along n^r, tilted by the contact angle atan γ: its vertical
    // components carry the weight, its lateral ones cancel.
    double W = P(v, "m_ws") * P(v, "g"), cosa = 1 / std::sqrt(1 + kGamma * kGamma);
    for (int r = 0; r < m; ++r)
        ck_assert_msg(near(-xs[n + r] * cosa, W / 2, 1e-9 * W), "N[%d] = %.10g", r, -xs[n + r]);
}
END_TEST

// ---------------------------------------------------------------- derivatives

// A state off every special position: random q, q̇ and s near a contact.
static SymValues random_contact_state(std::mt19937 &rng)
{
    std::uniform_real_distribution<double> U(-1, 1);
    SymValues v = base_state();
    const char *qn[6] = {"x", "y", "z", "roll", "yaw", "spin"};
    const double scale[6] = {2.0, 0.004, 0.001, 0.002, 0.003, 3.0};
    for (int i = 0; i < 6; ++i) {
        set_q(v, qn[i], scale[i] * U(rng));
        set_qd(v, qn[i], 5 * scale[i] * U(rng) + (i == 0 ? 10 : 0));
    }
    for (const ContactTableEntry &c : g_fx->table) {
        const double sc[4] = {0.05, 0.005, 0.05, 0.005};
        for (int k = 0; k < 4; ++k) {
            v.set(SymKind::Aux, c.s_slot[k], sc[k] * U(rng) + (k == kAuxSR ? v.get(SymKind::Coord, slot("x")) : 0));
            v.set(SymKind::AuxVel, c.s_slot[k], sc[k] * U(rng));
        }
    }
    for (const ContactTableEntry &c : g_fx->table)
        for (int k = 0; k < 3; ++k) v.set(SymKind::Input, c.force_slot[k], 1e3 * U(rng));
    return v;
}

// Compares a Jacobian (dense row-major, rows × cols) with central differences
// of `f` in the symbols `cols` of kind `kind`.
static void check_jacobian(const char *what, const std::vector<double> &J, const std::vector<Ex> &f, const SymValues &v,
                    SymKind kind, const std::vector<int> &cols, double h, double tol)
{
    const int rows = (int)f.size(), nc = (int)cols.size();
    for (int j = 0; j < nc; ++j) {
        std::vector<double> col = fd(f, v, kind, cols[j], h);
        for (int i = 0; i < rows; ++i) {
            double a = J[(size_t)i * nc + j], b = col[i];
            ck_assert_msg(std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b)), "%s[%d][%d] = %.12g, fd %.12g",
                          what, i, j, a, b);
        }
    }
}

START_TEST(test_jacobians_finite_differences)
{
    std::mt19937 rng(7);
    Store &st = S().store();
    const int n = (int)S().coords().size();
    std::vector<int> qslots, qdslots;
    for (const Ex &q : S().coords()) {
        qslots.push_back(st.sym(q.id()).slot);
        qdslots.push_back(st.sym(st.dot(q).id()).slot);
    }
    for (int rep = 0; rep < 3; ++rep) {
        SymValues v = random_contact_state(rng);
        const codegen::Output &pnq = out("phi_n_qd"), &pdq = out("phi_d_q"), &dnu = out("dnu_dqd");
        check_jacobian("phi_n_qd", dense(pnq, st.eval(pnq.values, v)), out("phi_n").values, v, SymKind::Coord,
                       qslots, 1e-6, 1e-7);
        check_jacobian("phi_d_q", dense(pdq, st.eval(pdq.values, v)), out("phi_d").values, v, SymKind::Coord,
                       qslots, 1e-6, 1e-7);
        check_jacobian("dnu_dqd", dense(dnu, st.eval(dnu.values, v)), out("nu").values, v, SymKind::Vel, qdslots,
                       1e-3, 1e-8);
        // φ^d_s: one 4×4 block per contact, in that contact's own s.
        std::vector<double> Js = st.eval(out("phi_d_s").values, v);
        for (size_t c = 0; c < g_fx->table.size(); ++c) {
            std::vector<Ex> rows(out("phi_d").values.begin() + 4 * c, out("phi_d").values.begin() + 4 * (c + 1));
            std::vector<double> block(Js.begin() + 16 * c, Js.begin() + 16 * (c + 1));
            std::vector<int> cols(g_fx->table[c].s_slot.begin(), g_fx->table[c].s_slot.end());
            check_jacobian("phi_d_s", block, rows, v, SymKind::Aux, cols, 1e-6, 1e-7);
            // The other contact's s do not enter this contact's φ^d.
            std::vector<int> other(g_fx->table[1 - c].s_slot.begin(), g_fx->table[1 - c].s_slot.end());
            check_jacobian("phi_d_s (other contact)", std::vector<double>(16, 0.0), rows, v, SymKind::Aux, other,
                           1e-6, 1e-12);
        }
        // ∂δ/∂f: δ differentiated numerically in the force inputs; and δ is
        // affine in them: δ = δ^NK + (∂δ/∂f) f.
        const codegen::Output &ddf = out("ddelta_df");
        std::vector<double> D = dense(ddf, st.eval(ddf.values, v));
        std::vector<int> fslots;
        for (const ContactTableEntry &c : g_fx->table)
            for (int k = 0; k < 3; ++k) fslots.push_back(c.force_slot[k]);
        check_jacobian("ddelta_df", D, S().delta(), v, SymKind::Input, fslots, 1.0, 1e-8);
        std::vector<double> d = st.eval(S().delta(), v), dnk = st.eval(out("delta_nk").values, v);
        for (int i = 0; i < n; ++i) {
            double s = dnk[i];
            for (size_t j = 0; j < fslots.size(); ++j) s += D[i * fslots.size() + j] * v.get(SymKind::Input, fslots[j]);
            ck_assert_msg(std::fabs(s - d[i]) <= 1e-9 * std::max(1.0, std::fabs(d[i])), "delta[%d] %g vs %g", i, s,
                          d[i]);
        }
        // ν is linear in q̇ (no rheonomic terms in this model): ν = (∂ν/∂q̇) q̇.
        std::vector<double> N = dense(dnu, st.eval(dnu.values, v)), nu = st.eval(out("nu").values, v);
        for (int i = 0; i < dnu.rows; ++i) {
            double s = 0;
            for (int j = 0; j < n; ++j) s += N[(size_t)i * n + j] * v.get(SymKind::Vel, qdslots[j]);
            ck_assert(std::fabs(s - nu[i]) <= 1e-10 * std::max(1.0, std::fabs(nu[i])));
        }
    }
}
END_TEST

// γ_n and β_n: along the path q(t) = q + q̇ t + ½ q̈ t², s likewise,
// d²φ_n/dt² = φ_n,q q̈ + φ_n,s s̈ − γ_n and dφ_n/dt = φ_n,q q̇ + φ_n,s ṡ − β_n.
START_TEST(test_gamma_beta_along_path)
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> U(-1, 1);
    Store &st = S().store();
    SymValues v = random_contact_state(rng);
    std::vector<std::pair<int, int>> vars;   // (kind of position, slot)
    for (const Ex &q : S().coords()) vars.push_back({int(SymKind::Coord), st.sym(q.id()).slot});
    for (const Ex &s : S().auxs()) vars.push_back({int(SymKind::Aux), st.sym(s.id()).slot});
    std::vector<double> acc;
    for (size_t i = 0; i < vars.size(); ++i) acc.push_back(U(rng));
    auto at = [&](double t) {
        SymValues w = v;
        for (size_t i = 0; i < vars.size(); ++i) {
            SymKind k = SymKind(vars[i].first);
            SymKind kd = SymKind(vars[i].first + 1);
            w.set(k, vars[i].second, v.get(k, vars[i].second) + v.get(kd, vars[i].second) * t + 0.5 * acc[i] * t * t);
        }
        return st.eval(out("phi_n").values, w);
    };
    const double h = 1e-4;
    std::vector<double> p0 = at(0), pp = at(h), pm = at(-h);
    std::vector<double> gam = st.eval(out("gamma_n").values, v), bet = st.eval(out("beta_n").values, v);
    // φ_n,q q̈ + φ_n,s s̈ and φ_n,q q̇ + φ_n,s ṡ by differences in each variable.
    std::vector<Ex> phin = out("phi_n").values;
    std::vector<double> Jacc(phin.size(), 0.0), Jvel(phin.size(), 0.0);
    for (size_t i = 0; i < vars.size(); ++i) {
        std::vector<double> col = fd(phin, v, SymKind(vars[i].first), vars[i].second, 1e-6);
        for (size_t r = 0; r < phin.size(); ++r) {
            Jacc[r] += col[r] * acc[i];
            Jvel[r] += col[r] * v.get(SymKind(vars[i].first + 1), vars[i].second);
        }
    }
    for (size_t r = 0; r < phin.size(); ++r) {
        double second = (pp[r] - 2 * p0[r] + pm[r]) / (h * h), first = (pp[r] - pm[r]) / (2 * h);
        ck_assert_msg(std::fabs(second - (Jacc[r] - gam[r])) < 1e-4 * std::max(1.0, std::fabs(second)),
                      "phi_n'' %.10g vs %.10g", second, Jacc[r] - gam[r]);
        ck_assert_msg(std::fabs(first - (Jvel[r] - bet[r])) < 1e-6 * std::max(1.0, std::fabs(first)),
                      "phi_n' %.10g vs %.10g", first, Jvel[r] - bet[r]);
        ck_assert(bet[r] == 0.0);   // no time in a fixed track: scleronomic
    }
}
END_TEST

// ---------------------------------------------------------------- generated C

START_TEST(test_generated_c_matches_eval)
{
    std::mt19937 rng(3);
    Store &st = S().store();
    // Every function of the model, the System's and the contact ones, in one
    // file: compiles warning-free (-Werror) and agrees with the store.
    std::vector<codegen::Function> fns = model_functions(S());
    for (const codegen::Function &f : contact_functions(S())) fns.push_back(f);
    codegen::GeneratedCode gc = codegen::generate_c(st, "ws", fns);
    std::string err;
    auto cc = testsupport::CompiledC::gcc(gc.header + gc.source, &err);
    ck_assert_msg(cc != nullptr, "gcc: %s", err.c_str());
    SymValues v = random_contact_state(rng);
    std::vector<std::vector<double>> in(kNumSymKinds);
    for (int k = 0; k < kNumSymKinds; ++k) {
        in[k].assign(std::max(1, st.count(SymKind(k))), 0.0);
        for (int i = 0; i < st.count(SymKind(k)); ++i) in[k][i] = v.get(SymKind(k), i);
    }
    const double *inp[kNumSymKinds];
    for (int k = 0; k < kNumSymKinds; ++k) inp[k] = in[k].data();
    for (const codegen::Function &f : fns) {
        rs_fn fp = cc->fn(codegen::c_function_name("ws", f.name));
        ck_assert(fp != nullptr);
        std::vector<std::vector<double>> res;
        std::vector<double *> outp;
        for (const codegen::Output &o : f.outputs) res.emplace_back(o.values.size() + 1, 0.0);
        for (auto &r : res) outp.push_back(r.data());
        ck_assert_int_eq(fp(inp, outp.data()), 0);
        for (size_t k = 0; k < f.outputs.size(); ++k) {
            std::vector<double> ref = st.eval(f.outputs[k].values, v);
            for (size_t i = 0; i < ref.size(); ++i)
                ck_assert_msg(res[k][i] == ref[i] ||   // infinite radii of straight profiles
                                  std::fabs(res[k][i] - ref[i]) <= 1e-12 * std::max(1.0, std::fabs(ref[i])),
                              "%s.%s[%zu]: C %.17g, eval %.17g", f.name.c_str(), f.outputs[k].name.c_str(), i,
                              res[k][i], ref[i]);
        }
    }
}
END_TEST

// ---------------------------------------------------------------- table, names, errors

START_TEST(test_contact_table_and_names)
{
    const std::vector<ContactTableEntry> &t = g_fx->table;
    ck_assert_int_eq((int)t.size(), 2);
    ck_assert(t[0].name == "left" && t[0].side == 1 && t[1].name == "right" && t[1].side == -1);
    Store &st = S().store();
    for (const ContactTableEntry &c : t) {
        for (int k = 0; k < 4; ++k)
            ck_assert_int_eq(c.s_slot[k], slot((c.name + "." + contact_aux_name(k)).c_str()));
        for (int sp = 0; sp < kContactSplines; ++sp) {
            for (int k = 0; k < 5; ++k) {
                std::string nm = c.name + "." + contact_spline_name(sp) + "." + contact_coef_name(k);
                ck_assert_msg(st.sym(st.find_symbol(nm).id()).kind == SymKind::Input, "%s", nm.c_str());
                ck_assert_int_eq(c.spline[sp].u_slot[k], slot(nm.c_str()));
            }
            ck_assert_int_eq(c.spline[sp].s_slot, c.s_slot[contact_spline_aux(sp)]);
        }
        ck_assert_int_eq(c.force_slot[0], slot((c.name + ".fx").c_str()));
        ck_assert_int_eq(c.force_slot[2], slot((c.name + ".mz").c_str()));
        ck_assert(S().constraints()[c.phi_row].name == c.name + ".phi_n");
    }
    // The side from the geometry, for front ends that do not name it.
    ck_assert_int_eq(infer_contact_side(S(), "wheelset", "W_left", "B_nsw"), 1);
    ck_assert_int_eq(infer_contact_side(S(), "wheelset", "W_right", "B_nsw"), -1);
    bool threw = false;
    try {
        infer_contact_side(S(), "wheelset", "O_ws", "B_nsw");
    } catch (const ModelError &) {
        threw = true;
    }
    ck_assert(threw);
    // Sizes of the outputs: 2 contacts, 6 coordinates.
    ck_assert_int_eq((int)out("phi_d").values.size(), 8);
    ck_assert_int_eq(out("phi_d_s").rows * out("phi_d_s").cols, 32);
    ck_assert_int_eq(out("ddelta_df").rows, 6);
    ck_assert_int_eq(out("ddelta_df").cols, 6);
    ck_assert_int_eq(out("dnu_dqd").rows, 6);
    ck_assert_int_eq((int)out("radii").values.size(), 6);
}
END_TEST

START_TEST(test_add_contact_errors)
{
    auto sp = wheelset();
    System &W = *sp;
    ContactSpec c;
    c.name = "extra";
    c.wheel_body = "wheelset";
    c.wheel_centre = "W_left";
    c.wheel_base = "B_nsw";
    c.r0 = W.symbol("r0");
    c.rail_offset = W.symbol("b_r");
    auto throws = [&](ContactSpec s, const char *needle) {
        try {
            W.add_contact(s);
        } catch (const ModelError &e) {
            ck_assert_msg(std::string(e.what()).find(needle) != std::string::npos, "message: %s", e.what());
            return;
        }
        ck_abort_msg("no error for %s", needle);
    };
    ContactSpec s = c;
    s.side = 0;
    throws(s, "side must be");
    s = c;
    s.wheel_body = "wheelsett";
    throws(s, "did you mean 'wheelset'");
    s = c;
    s.wheel_base = "B_nsv";
    throws(s, "B_nsw");
    s = c;
    s.name = "left";
    throws(s, "already used");
    s = c;
    s.r0 = Ex();
    throws(s, "rolling radius");
    W.add_contact(c);   // the valid one still goes in after the failures
    ck_assert_int_eq((int)W.contacts().size(), 3);
}
END_TEST

static Suite *contact_suite()
{
    Suite *s = suite_create("contact_element");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_centred_on_taping_line);
    tcase_add_test(tc, test_lateral_shift_rolling_radii);
    tcase_add_test(tc, test_pure_rolling_creepages);
    tcase_add_test(tc, test_yaw_lateral_creepage);
    tcase_add_test(tc, test_driven_wheelset);
    tcase_add_test(tc, test_static_normal_forces);
    tcase_add_test(tc, test_jacobians_finite_differences);
    tcase_add_test(tc, test_gamma_beta_along_path);
    tcase_add_test(tc, test_generated_c_matches_eval);
    tcase_add_test(tc, test_contact_table_and_names);
    tcase_add_test(tc, test_add_contact_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main()
{
    Fixture fx;
    fx.sys = wheelset();
    for (codegen::Function &f : contact_functions(*fx.sys)) fx.fn.emplace(f.name, f);
    fx.table = fx.sys->contact_table();
    g_fx = &fx;
    const int failed = rs_test_run(contact_suite()) != EXIT_SUCCESS;
    g_fx = nullptr;
    return failed == 0 ? 0 : 1;
}
