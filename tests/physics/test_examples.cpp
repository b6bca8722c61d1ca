// test_examples.cpp — the example models against physics and numerics
// derived without the modeler: the spinning top's steady precession
// (Goldstein's gyroscopic formula), the four-bar's constraint Jacobian and
// right-hand sides (finite differences along state paths), constraints with
// auxiliary coordinates, the chain's operation-count growth, and the
// generated C code against store evaluation.
#include <cmath>
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

bool close(double a, double b, double tol)
{
    return std::fabs(a - b) <= tol * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
}

double P(System &s, const SymValues &x, const char *name) { return s.store().eval(s.symbol(name), x); }

// State along q(τ) = q + q̇τ + ½q̈τ² (the same for s), t = t0 + τ.
SymValues along(System &S, const SymValues &x, double tau)
{
    SymValues y = x;
    Store &st = S.store();
    const SymKind kinds[2][3] = {{SymKind::Coord, SymKind::Vel, SymKind::Acc},
                                 {SymKind::Aux, SymKind::AuxVel, SymKind::AuxAcc}};
    for (const auto &k : kinds)
        for (int i = 0; i < st.count(k[0]); ++i) {
            double q = x.get(k[0], i), qd = x.get(k[1], i), qdd = x.get(k[2], i);
            y.set(k[0], i, q + qd * tau + 0.5 * qdd * tau * tau);
            y.set(k[1], i, qd + qdd * tau);
        }
    y.set(SymKind::Time, 0, x.get(SymKind::Time, 0) + tau);
    return y;
}

// φ_q and φ_s against central differences; β and γ against the first and
// second difference quotients of φ along a random path:
//   φ̇ = φ_q q̇ + φ_s ṡ − β,   φ̈ = φ_q q̈ + φ_s s̈ − γ.
void check_constraints(System &S, int seed)
{
    Store &st = S.store();
    const int n = st.count(SymKind::Coord), ns = st.count(SymKind::Aux);
    std::vector<Ex> phi = S.phi(), Jq = S.phi_q(), Js = S.phi_s(), be = S.beta(), ga = S.gamma();
    const int m = (int)phi.size();
    std::mt19937 rng(seed);
    for (int k = 0; k < 10; ++k) {
        SymValues x = random_state(S, rng);
        std::vector<double> jq = eval(S, Jq, x), js = eval(S, Js, x), b = eval(S, be, x), g = eval(S, ga, x);
        const double h = 1e-6;
        for (int j = 0; j < n + ns; ++j) {
            SymKind kk = j < n ? SymKind::Coord : SymKind::Aux;
            int slot = j < n ? j : j - n;
            SymValues xp = x, xm = x;
            xp.set(kk, slot, x.get(kk, slot) + h);
            xm.set(kk, slot, x.get(kk, slot) - h);
            std::vector<double> fp = eval(S, phi, xp), fm = eval(S, phi, xm);
            for (int i = 0; i < m; ++i) {
                double an = j < n ? jq[i * n + j] : js[i * ns + slot];
                ck_assert_msg(close(an, (fp[i] - fm[i]) / (2 * h), 1e-7), "phi_q[%d][%d]", i, j);
            }
        }
        const double hp = 1e-4;
        std::vector<double> f0 = eval(S, phi, x), fp = eval(S, phi, along(S, x, hp)), fm = eval(S, phi, along(S, x, -hp));
        for (int i = 0; i < m; ++i) {
            double v = -b[i], a = -g[i];
            for (int j = 0; j < n; ++j) {
                v += jq[i * n + j] * x.get(SymKind::Vel, j);
                a += jq[i * n + j] * x.get(SymKind::Acc, j);
            }
            for (int j = 0; j < ns; ++j) {
                v += js[i * ns + j] * x.get(SymKind::AuxVel, j);
                a += js[i * ns + j] * x.get(SymKind::AuxAcc, j);
            }
            ck_assert_msg(close(v, (fp[i] - fm[i]) / (2 * hp), 1e-7), "beta[%d]", i);
            ck_assert_msg(close(a, (fp[i] - 2 * f0[i] + fm[i]) / (hp * hp), 1e-5), "gamma[%d]: %g vs %g", i, a,
                          (fp[i] - 2 * f0[i] + fm[i]) / (hp * hp));
        }
    }
}

}  // namespace

// Steady precession of a symmetric top (Goldstein, Classical Mechanics, §5.7):
// with θ̇ = 0, spin rate p = φ̇ and precession Ω = ψ̇,
//   (I1 − I3) cos θ Ω² − I3 p Ω + m g l = 0,   I1 = A + m l² (about the pivot), I3 = C.
// The model's δ_θ(Ω) at q̈ = 0 is scanned for sign changes and its roots found
// by bisection, then compared with the two roots of the quadratic.
START_TEST(test_spinning_top_precession)
{
    for (int variant = 0; variant < 2; ++variant) {
        auto s = spinning_top(variant == 1);
        Store &st = s->store();
        SymValues x = s->defaults();
        const double th = 0.4, p = 100.0;
        x.set(SymKind::Coord, 1, th);
        x.set(SymKind::Vel, 1, 0.0);
        x.set(SymKind::Vel, 2, p);
        std::vector<Ex> d = s->delta();
        auto f = [&](double W) {
            SymValues y = x;
            y.set(SymKind::Vel, 0, W);
            return st.eval(d[1], y);
        };
        double m = P(*s, x, "m"), l = P(*s, x, "l"), A = P(*s, x, "A"), C = P(*s, x, "C"), g = P(*s, x, "g");
        double I1 = A + m * l * l, I3 = C, a = (I1 - I3) * std::cos(th), b = -I3 * p, c = m * g * l;
        double disc = std::sqrt(b * b - 4 * a * c);
        double roots[2] = {(-b - disc) / (2 * a), (-b + disc) / (2 * a)};
        std::vector<double> found;
        double prev = f(0.1);
        for (double W = 0.1; W < 200; W += 0.1) {
            double cur = f(W + 0.1);
            if ((prev < 0) != (cur < 0)) {
                double lo = W, hi = W + 0.1;
                for (int it = 0; it < 200; ++it) {
                    double mid = 0.5 * (lo + hi);
                    if ((f(lo) < 0) == (f(mid) < 0)) lo = mid;
                    else hi = mid;
                }
                found.push_back(0.5 * (lo + hi));
            }
            prev = cur;
        }
        ck_assert_int_eq((int)found.size(), 2);
        for (int i = 0; i < 2; ++i)
            ck_assert_msg(close(found[i], roots[i], 1e-9), "precession %g, formula %g", found[i], roots[i]);
        // At the steady state the other two equations hold too (ψ̈ = φ̈ = 0).
        SymValues y = x;
        y.set(SymKind::Vel, 0, found[0]);
        ck_assert(std::fabs(st.eval(d[0], y)) < 1e-12);
        ck_assert(std::fabs(st.eval(d[2], y)) < 1e-12);
    }
}
END_TEST

START_TEST(test_four_bar_constraints)
{
    auto s = four_bar(false);
    check_constraints(*s, 21);
    auto d = four_bar(true);   // rheonomic driver: β ≠ 0
    check_constraints(*d, 22);
    SymValues x = d->defaults();
    ck_assert(close(d->store().eval(d->beta()[2], x), P(*d, x, "w"), 1e-15));
}
END_TEST

// A constraint with an auxiliary coordinate and explicit time: φ_s, β, γ.
START_TEST(test_constraint_with_auxiliary)
{
    auto s = pendulum();
    Ex sa = s->aux("s");
    Ex t = s->time();
    Vector r = s->position("O", "G", "ground");
    s->add_constraint("slide", r[0] - sa * sa * (1.0 + 0.1 * t) + sin(sa * t));
    check_constraints(*s, 23);
}
END_TEST

// Chain of N links, N = 8, 16, 32.  Write ops(N) = r(N) N².  A quadratic
// count with lower-order terms has r(N) → constant with increments that at
// least halve at each doubling of N; any N³ part makes them grow.  So the test
// fails when M's increments do not shrink (M faster than C·N²) or when δ's r
// grows (δ faster than quadratic; it is linear in fact, r halves).
START_TEST(test_chain_op_growth)
{
    const int Ns[] = {8, 16, 32};
    double rm[3], rd[3];
    for (int i = 0; i < 3; ++i) {
        int N = Ns[i];
        auto s = chain(N);
        codegen::Function fm{"M", {codegen::Output::dense("M", N, N, s->mass_matrix())}, ""};
        codegen::Function fd{"delta", {codegen::Output::vector("delta", s->delta())}, ""};
        rm[i] = codegen::count_ops(s->store(), fm).total() / double(N * N);
        rd[i] = codegen::count_ops(s->store(), fd).total() / double(N * N);
    }
    ck_assert_msg(rm[2] - rm[1] <= 0.75 * (rm[1] - rm[0]) + 0.5, "M ops/N^2: %g %g %g", rm[0], rm[1], rm[2]);
    ck_assert_msg(rd[2] <= rd[1] && rd[1] <= rd[0], "delta ops/N^2: %g %g %g", rd[0], rd[1], rd[2]);
    ck_assert_msg(rd[2] <= 0.6 * rd[1], "delta is no longer O(N): ops/N^2 %g %g %g", rd[0], rd[1], rd[2]);
}
END_TEST

// The generated C (gcc, strict flags) computes what store.eval computes.
START_TEST(test_codegen_matches_eval)
{
    auto s = four_bar(true);
    s->add_output("tip_x", s->position("O", "P3", "ground")[0]);
    Store &st = s->store();
    std::vector<codegen::Function> fns = model_functions(*s);
    codegen::GeneratedCode code = codegen::generate_c(st, "fourbar", fns);
    std::string err;
    auto cc = testsupport::CompiledC::gcc(code.source, &err);
    ck_assert_msg(cc != nullptr, "compile failed: %s", err.c_str());
    std::mt19937 rng(31);
    for (int k = 0; k < 5; ++k) {
        SymValues x = random_state(*s, rng);
        std::vector<std::vector<double>> arrays(RS_IN_COUNT);
        const double *in[RS_IN_COUNT];
        for (int i = 0; i < RS_IN_COUNT; ++i) {
            if (i < kNumSymKinds) arrays[i] = x.v[i];   // RS_IN_CACHE: no symbol kind
            arrays[i].resize(std::max<size_t>(arrays[i].size(), 1) + 64, 0.0);
            in[i] = arrays[i].data();
        }
        for (const auto &f : fns) {
            rs_fn fn = cc->fn(codegen::c_function_name("fourbar", f.name));
            ck_assert_msg(fn != nullptr, "function %s missing", f.name.c_str());
            std::vector<std::vector<double>> outs;
            std::vector<double *> outp;
            for (const auto &o : f.outputs) outs.emplace_back(o.values.size() + 1, 0.0);
            for (auto &o : outs) outp.push_back(o.data());
            ck_assert_int_eq(fn(in, outp.data()), RS_ABI_OK);
            for (size_t oi = 0; oi < f.outputs.size(); ++oi) {
                std::vector<double> ref = st.eval(f.outputs[oi].values, x);
                for (size_t i = 0; i < ref.size(); ++i)
                    ck_assert_msg(close(outs[oi][i], ref[i], 1e-12), "%s.%s[%zu]: %g vs %g", f.name.c_str(),
                                  f.outputs[oi].name.c_str(), i, outs[oi][i], ref[i]);
            }
        }
    }
}
END_TEST

static Suite *examples_suite()
{
    Suite *s = suite_create("examples");
    TCase *tc = tcase_create("physics");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_spinning_top_precession);
    tcase_add_test(tc, test_four_bar_constraints);
    tcase_add_test(tc, test_constraint_with_auxiliary);
    suite_add_tcase(s, tc);
    tc = tcase_create("generated");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_chain_op_growth);
    tcase_add_test(tc, test_codegen_matches_eval);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(examples_suite)
