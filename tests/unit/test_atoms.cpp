// test_atoms.cpp — the atom store (modeler/algebra/atoms.*): hash-consing, folding,
// exact numbers, symbol kinds, calculus, substitution, evaluation, errors and
// the GiNaC bridge.  Every check compares with an independent answer: an atom
// built another way, plain C++ arithmetic, or GiNaC's own evaluation.
#include <cmath>
#include <random>
#include <string>

#include "atoms.hpp"
#include "rs_test.h"

// Last: check.h defines a macro named `fail` that breaks C++ headers.
#include <check.h>

using namespace railsym;

namespace {

// Relative-or-absolute closeness.
bool close(double a, double b, double tol = 1e-12) {
    return std::fabs(a - b) <= tol * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A small model used by several tests: x is a coordinate, r a parameter.
struct Fixture {
    Store st;
    Ex x, xd, xdd, y, r, m, u, t;
    Fixture() {
        x = st.coordinate("x");
        xd = st.dot(x);
        xdd = st.dot(xd);
        y = st.coordinate("y");
        r = st.parameter("r");
        m = st.parameter("m");
        u = st.input("u");
        t = st.time();
    }
    // Random values for every symbol, filled in `v` and returned as a struct
    // of plain doubles for the independent formulas.
    SymValues random(std::mt19937 &g, double lo = -2.0, double hi = 2.0) {
        std::uniform_real_distribution<double> d(lo, hi);
        SymValues v;
        for (const SymInfo &s : st.symbols()) v.set(s.kind, s.slot, d(g));
        return v;
    }
    double val(const SymValues &v, Ex e) const { return v.get(st.sym(e.id()).kind, st.sym(e.id()).slot); }
};

}  // namespace

// ------------------------------------------------------------ hash-consing --

START_TEST(test_hash_consing_commutative) {
    Fixture f;
    Ex a = (f.x + f.r) * sin(f.y);
    int size_after_first = f.st.size();
    long hits_before = f.st.hits();
    Ex b = sin(f.y) * (f.r + f.x);   // same expression, operands swapped at every level
    ck_assert_int_eq(a.id(), b.id());
    ck_assert_int_eq(f.st.size(), size_after_first);   // nothing new was created
    ck_assert(f.st.hits() > hits_before);
    ck_assert_int_eq((f.x * f.y).id(), (f.y * f.x).id());
    ck_assert_int_eq((f.x + f.y).id(), (f.y + f.x).id());
    // Non-commutative operations keep their order.
    ck_assert_int_ne((f.x - f.y).id(), (f.y - f.x).id());
    ck_assert_int_ne((f.x / f.y).id(), (f.y / f.x).id());
    ck_assert_int_ne(atan2(f.x, f.y).id(), atan2(f.y, f.x).id());
    // Same function of the same atom: same atom.
    ck_assert_int_eq(cos(f.x * f.y).id(), cos(f.y * f.x).id());
    ck_assert_int_eq(pow(f.x, 2, 3).id(), pow(f.x, 4, 6).id());
}
END_TEST

START_TEST(test_folding_rules) {
    Fixture f;
    Ex x = f.x, y = f.y, z = sin(f.x) + f.r;   // z: a compound atom
    for (Ex e : {x, z}) {
        ck_assert(e * 1.0 == e);
        ck_assert(1.0 * e == e);
        ck_assert(e + 0.0 == e);
        ck_assert(0.0 + e == e);
        ck_assert(e - 0.0 == e);
        ck_assert((e * 0.0).is_zero());
        ck_assert((0.0 * e).is_zero());
        ck_assert((e - e).is_zero());
        ck_assert((e / e).is_one());
        ck_assert((0.0 / e).is_zero());
        ck_assert(e / 1.0 == e);
        ck_assert(-(-e) == e);
        ck_assert((-e) * (-y) == e * y);        // the two negations cancel
        ck_assert((-e) / (-y) == e / y);
        ck_assert((-e) * y == -(e * y));        // negation pulled outwards
        ck_assert(e * (-y) == -(e * y));
        ck_assert((-e) / y == -(e / y));
        ck_assert(e / (-y) == -(e / y));
        ck_assert(-(-(-e)) == -e);
        ck_assert(e - (-y) == e + y);
        ck_assert(pow(e, 1) == e);
        ck_assert(pow(e, 0).is_one());
    }
    // Numeric constant folding, exactly.
    Store &s = f.st;
    ck_assert(s.num(2) + s.num(3) == s.num(5));
    ck_assert(s.num(2) * s.num(3) == s.num(6));
    ck_assert(s.num(7) - s.num(9) == s.num(-2));
    ck_assert(s.num(1) / s.num(3) == s.num(1, 3));
    ck_assert(-s.num(4) == s.num(-4));
    ck_assert(pow(s.num(2), 10) == s.num(1024));
    ck_assert(pow(s.num(4), 1, 2) == s.num(2));
    ck_assert(pow(s.num(8), -2, 3) == s.num(1, 4));
    ck_assert(sqrt(s.num(9, 4)) == s.num(3, 2));
    ck_assert(abs(s.num(-5)) == s.num(5));
    ck_assert(sin(s.zero()).is_zero());
    ck_assert(cos(s.zero()).is_one());
    ck_assert(exp(s.zero()).is_one());
    ck_assert(log(s.one()).is_zero());
    // Numbers inside products are folded: 2·(3·x) = 6·x.
    ck_assert(2.0 * (3.0 * x) == 6.0 * x);
    // Integer powers become products (every atom elementary): x^2 = x·x.
    ck_assert(pow(x, 2) == x * x);
    ck_assert(pow(x, -1) == 1.0 / x);
}
END_TEST

START_TEST(test_exact_rationals) {
    Store s;
    Ex third = s.num(1, 3);
    ck_assert(third * 3.0 == s.one());   // exact: no 0.999…
    ck_assert(s.num(1, 3) + s.num(1, 6) == s.num(1, 2));
    ck_assert(s.num(2, 4) == s.num(1, 2));
    ck_assert(s.num(0.5) == s.num(1, 2));
    // A double is taken at its exact binary value: 0.1 = 3602879701896397 / 2^55.
    ck_assert(s.number(s.num(0.1).id()) == GiNaC::numeric(3602879701896397L) / GiNaC::numeric(36028797018963968L));
    ck_assert(s.num(0.1) != s.num(1, 10));
    ck_assert(close(s.number_value(third.id()), 1.0 / 3.0, 0));
    // An irrational result stays an atom with the right value.
    Ex r2 = pow(s.num(2), 1, 2);
    ck_assert(!r2.is_number());
    ck_assert(close(s.eval(r2, SymValues()), std::sqrt(2.0)));
    ck_assert(r2 * r2 != s.num(2));   // no simplification beyond the rules: r2·r2 stays a product
    ck_assert(close(s.eval(r2 * r2, SymValues()), 2.0));
}
END_TEST

START_TEST(test_symbol_kinds) {
    Fixture f;
    Store &s = f.st;
    ck_assert(f.x.node().op == Op::Sym);
    ck_assert(s.sym(f.x.id()).kind == SymKind::Coord);
    ck_assert(s.sym(f.xd.id()).kind == SymKind::Vel);
    ck_assert(s.sym(f.xdd.id()).kind == SymKind::Acc);
    ck_assert(s.sym(f.r.id()).kind == SymKind::Param);
    ck_assert(s.sym(f.u.id()).kind == SymKind::Input);
    ck_assert(s.sym(f.t.id()).kind == SymKind::Time);
    ck_assert_int_eq(s.sym(f.x.id()).slot, 0);
    ck_assert_int_eq(s.sym(f.y.id()).slot, 1);
    ck_assert_int_eq(s.sym(f.m.id()).slot, 1);
    ck_assert_int_eq(s.count(SymKind::Coord), 2);
    ck_assert_int_eq(s.count(SymKind::Param), 2);
    ck_assert(s.symbols_of(SymKind::Coord)[1] == f.y);
    ck_assert(s.find_symbol("r") == f.r);
    ck_assert(s.parameter("r") == f.r);   // asking again returns the same symbol
    Ex sa = s.auxiliary("sw");
    ck_assert(s.sym(s.dot(sa).id()).kind == SymKind::AuxVel);
    ck_assert(s.sym(s.dot(s.dot(sa)).id()).kind == SymKind::AuxAcc);
    // Dependency kind sets.
    Ex e = f.r * sin(f.x) + f.xd;
    ck_assert_uint_eq(e.kinds(), kind_bit(SymKind::Param) | kind_bit(SymKind::Coord) | kind_bit(SymKind::Vel));
    ck_assert(e.depends_on(SymKind::Coord));
    ck_assert(!e.depends_on(SymKind::Acc));
    ck_assert_uint_eq((f.r * f.m + 2.0).kinds(), kind_bit(SymKind::Param));   // parameter-only: hoistable
    ck_assert_uint_eq(s.num(3).kinds(), 0u);
    ck_assert_uint_eq((f.t * f.u).kinds(), kind_bit(SymKind::Time) | kind_bit(SymKind::Input));
    // A name used with another kind is an error.
    bool threw = false;
    try {
        s.symbol("r", SymKind::Coord);
    } catch (const AlgebraError &) {
        threw = true;
    }
    ck_assert(threw);
}
END_TEST

// ---------------------------------------------------------------- calculus --

START_TEST(test_diff_values) {
    Fixture f;
    std::mt19937 g(11);
    const Ex x = f.x, y = f.y, r = f.r;
    Ex e = r * sin(x * y) + exp(x) / (1.0 + y * y) + atan2(y, x) + pow(x * x + 1.0, 1, 3);
    Ex dx = f.st.diff(e, x), dy = f.st.diff(e, y), dr = f.st.diff(e, r);
    ck_assert(f.st.diff(e, f.m).is_zero());   // does not depend on m
    ck_assert(f.st.diff(e, f.xd).is_zero());
    for (int k = 0; k < 20; ++k) {
        SymValues v = f.random(g);
        double X = f.val(v, x), Y = f.val(v, y), R = f.val(v, r);
        double ex = R * Y * std::cos(X * Y) + std::exp(X) / (1 + Y * Y) - Y / (X * X + Y * Y) +
                    (2 * X / 3) * std::pow(X * X + 1, -2.0 / 3);
        double ey = R * X * std::cos(X * Y) - std::exp(X) * 2 * Y / ((1 + Y * Y) * (1 + Y * Y)) +
                    X / (X * X + Y * Y);
        double er = std::sin(X * Y);
        ck_assert_msg(close(f.st.eval(dx, v), ex, 1e-12), "d/dx %g vs %g", f.st.eval(dx, v), ex);
        ck_assert_msg(close(f.st.eval(dy, v), ey, 1e-12), "d/dy %g vs %g", f.st.eval(dy, v), ey);
        ck_assert(close(f.st.eval(dr, v), er, 1e-12));
    }
    // Memoized: asking again creates nothing and returns the same atom.
    int size = f.st.size();
    ck_assert(f.st.diff(e, x) == dx);
    ck_assert_int_eq(f.st.size(), size);
}
END_TEST

START_TEST(test_dt_chain_rule) {
    Fixture f;
    std::mt19937 g(12);
    const Ex x = f.x, xd = f.xd, xdd = f.xdd, y = f.y, r = f.r, t = f.t;
    Ex yd = f.st.dot(y);
    // e = sin(x)·ẋ² + r·y·t + r²
    Ex e = sin(x) * xd * xd + r * y * t + r * r;
    Ex de = f.st.dt(e);
    ck_assert(f.st.dt(r * r).is_zero());   // parameters do not move
    for (int k = 0; k < 20; ++k) {
        SymValues v = f.random(g);
        double X = f.val(v, x), XD = f.val(v, xd), XDD = f.val(v, xdd), Y = f.val(v, y), YD = f.val(v, yd),
               R = f.val(v, r), T = f.val(v, t);
        double want = std::cos(X) * XD * XD * XD + std::sin(X) * 2 * XD * XDD + R * YD * T + R * Y;
        ck_assert_msg(close(f.st.eval(de, v), want, 1e-12), "dt %g vs %g", f.st.eval(de, v), want);
    }
    int size = f.st.size();
    ck_assert(f.st.dt(e) == de);
    ck_assert_int_eq(f.st.size(), size);
    // dt(x) is the velocity symbol itself.
    ck_assert(f.st.dt(x) == xd);
    ck_assert(f.st.dt(t).is_one());
}
END_TEST

START_TEST(test_substitution) {
    Fixture f;
    Store &s = f.st;
    Ex e = f.r * sin(f.x) + cos(f.x) * f.y;
    Substitution sub(s);
    sub.set(f.x, 2.0 * f.m);
    Ex got = sub.apply(e);
    // The same expression built directly is the same atom (hash-consing).
    Ex want = f.r * sin(2.0 * f.m) + cos(2.0 * f.m) * f.y;
    ck_assert_int_eq(got.id(), want.id());
    // Memoized: applying again (or to a sub-expression) creates nothing.
    int size = s.size();
    ck_assert(sub.apply(e) == got);
    ck_assert(sub.apply(sin(f.x)) == sin(2.0 * f.m));
    ck_assert_int_eq(s.size(), size);
    // Untouched expressions come back unchanged.
    ck_assert(sub.apply(f.r * f.y) == f.r * f.y);
    // Numerically equal to evaluating with x = 2m.
    std::mt19937 g(13);
    for (int k = 0; k < 10; ++k) {
        SymValues v = f.random(g);
        SymValues w = v;
        w.set(SymKind::Coord, s.sym(f.x.id()).slot, 2.0 * f.val(v, f.m));
        ck_assert(close(s.eval(got, v), s.eval(e, w)));
    }
    // Substituting zero folds: r·sin(0) + cos(0)·y = y.
    Substitution z(s);
    z.set(f.x, s.zero());
    ck_assert(z.apply(e) == f.y);
}
END_TEST

START_TEST(test_eval_plain_math) {
    Fixture f;
    std::mt19937 g(14);
    const Ex x = f.x, y = f.y, r = f.r;
    Ex e = tan(x) - log(1.0 + x * x) * abs(y) + sqrt(r * r + 1.0) / exp(y) - pow(2.0 + cos(x), -2, 3) +
           atan2(-y, x) * pow(x, 5);
    for (int k = 0; k < 20; ++k) {
        SymValues v = f.random(g);
        double X = f.val(v, x), Y = f.val(v, y), R = f.val(v, r);
        double want = std::tan(X) - std::log(1 + X * X) * std::fabs(Y) + std::sqrt(R * R + 1) / std::exp(Y) -
                      std::pow(2 + std::cos(X), -2.0 / 3) + std::atan2(-Y, X) * std::pow(X, 5);
        ck_assert_msg(close(f.st.eval(e, v), want, 1e-13), "%g vs %g", f.st.eval(e, v), want);
    }
    // Several roots at once, sharing the work.
    SymValues v = f.random(g);
    std::vector<double> both = f.st.eval({sin(x), cos(x)}, v);
    ck_assert(close(both[0] * both[0] + both[1] * both[1], 1.0));
}
END_TEST


// Random expression trees: the store's normalized atoms must evaluate to what
// the same tree gives in plain double arithmetic.  This catches sign and
// operand-order mistakes in the normalization rules that hand-picked cases
// miss.  `scale` bounds the intermediate magnitudes, for the tolerance.
namespace {
struct TreeGen {
    Store &st;
    std::mt19937 &g;
    Ex x, y, p;
    double xv, yv, pv;
    struct R {
        Ex e;
        double v, scale;
    };
    R leaf() {
        switch (g() % 5) {
        case 0: return {x, xv, std::fabs(xv)};
        case 1: return {y, yv, std::fabs(yv)};
        case 2: return {p, pv, std::fabs(pv)};
        case 3: {
            long n = (long)(g() % 7) - 3, d = 1 + (long)(g() % 3);
            return {st.num(n, d), (double)n / d, std::fabs((double)n / d)};
        }
        default: return {st.zero(), 0, 0};
        }
    }
    static R mk(Ex e, double v, double sc) { return R{e, v, std::max(sc, std::fabs(v))}; }
    R gen(int depth) {
        if (depth == 0 || g() % 4 == 0) return leaf();
        const unsigned op = g() % 12;
        R a = gen(depth - 1);
        switch (op) {
        case 0: { R b = gen(depth - 1); return mk(a.e + b.e, a.v + b.v, std::max(a.scale, b.scale)); }
        case 1: { R b = gen(depth - 1); return mk(a.e - b.e, a.v - b.v, std::max(a.scale, b.scale)); }
        case 2: {
            R b = gen(depth - 1);
            return mk(a.e * b.e, a.v * b.v, std::max({a.scale, b.scale, a.scale * b.scale}));
        }
        case 3: {
            R b = gen(depth - 1);
            if (std::fabs(b.v) < 0.05) return a;
            return mk(a.e / b.e, a.v / b.v, std::max({a.scale, b.scale, a.scale / std::fabs(b.v)}));
        }
        case 4: return mk(-a.e, -a.v, a.scale);
        case 5: return mk(sin(a.e), std::sin(a.v), a.scale);
        case 6: return mk(cos(a.e), std::cos(a.v), a.scale);
        case 7: {
            R b = gen(depth - 1);
            if (std::fabs(b.v + 3.0) < 0.05) return a;
            return mk(atan2(a.e, b.e + 3.0), std::atan2(a.v, b.v + 3.0), std::max(a.scale, b.scale + 3));
        }
        case 8: return mk(sqrt(a.e * a.e + 1.0), std::sqrt(a.v * a.v + 1), a.scale * a.scale + 1);
        case 9: return mk(abs(a.e), std::fabs(a.v), a.scale);
        case 10: {
            const int n = (int)(g() % 7) - 3;
            if (n == 0 || std::fabs(a.v) < 0.05) return a;
            return mk(pow(a.e, n), std::pow(a.v, n), std::pow(std::max(a.scale, 1 / std::fabs(a.v)), std::abs(n)));
        }
        default:
            return mk(pow(a.e * a.e + 1.0, 2, 3), std::pow(a.v * a.v + 1, 2.0 / 3), a.scale * a.scale + 1);
        }
    }
};
}  // namespace

START_TEST(test_random_trees_vs_plain_math) {
    std::mt19937 g(16);
    int checked = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        Store st;
        TreeGen tg{st, g, st.coordinate("x"), st.coordinate("y"), st.parameter("p"), 0.7, 1.3, -0.4};
        SymValues v;
        v.set(SymKind::Coord, 0, tg.xv);
        v.set(SymKind::Coord, 1, tg.yv);
        v.set(SymKind::Param, 0, tg.pv);
        TreeGen::R r = tg.gen(5);
        if (!std::isfinite(r.v) || r.scale > 1e6) continue;
        const double got = st.eval(r.e, v);
        ck_assert_msg(std::fabs(got - r.v) <= 1e-11 * std::max(1.0, r.scale),
                      "trial %d: store %.17g, plain %.17g for %s", trial, got, r.v, r.e.str().c_str());
        ++checked;
    }
    ck_assert_int_gt(checked, 2500);
}
END_TEST

// --------------------------------------------------------------- bad input --

START_TEST(test_bad_input) {
    Fixture f;
    Store &s = f.st;
    auto expect = [](const char *what, const std::string &part, auto fn) {
        try {
            fn();
        } catch (const AlgebraError &e) {
            ck_assert_msg(contains(e.what(), part), "%s: message '%s' lacks '%s'", what, e.what(), part.c_str());
            return;
        }
        ck_abort_msg("%s: no AlgebraError", what);
    };
    // Division by a symbolic zero: y − y folds to 0.
    expect("x/(y-y)", "division by zero", [&] { return f.x / (f.y - f.y); });
    expect("x/(y-y) names x", "x", [&] { return f.x / (f.y - f.y); });
    expect("sin(x)/(r*0)", "sin(x)", [&] { return sin(f.x) / (f.r * 0.0); });
    expect("log 0", "log(0)", [&] { return log(s.zero()); });
    expect("log -3", "log(-3)", [&] { return log(s.num(-3)); });
    expect("log -1/2", "log(-1/2)", [&] { return log(s.num(-1, 2)); });
    expect("sqrt -4", "sqrt(-4)", [&] { return sqrt(s.num(-4)); });
    expect("(-8)^(1/3)", "-8", [&] { return pow(s.num(-8), 1, 3); });
    expect("0^-1", "division by zero", [&] { return pow(s.zero(), -1); });
    expect("diff wrt x+y", "x", [&] { return s.diff(f.x * f.y, f.x + f.y); });
    expect("diff wrt x+y", "not a symbol", [&] { return s.diff(f.x * f.y, f.x + f.y); });
    expect("diff wrt 2", "2", [&] { return s.diff(f.x * f.y, s.num(2)); });
    expect("diff wrt invalid", "not a symbol", [&] { return s.diff(f.x, Ex()); });
    expect("invalid operand", "invalid", [&] { return f.x + Ex(); });
    Store other;
    Ex o = other.parameter("o");
    expect("two stores", "different stores", [&] { return f.x + o; });
}
END_TEST

// ------------------------------------------------------------ GiNaC bridge --

START_TEST(test_ginac_round_trip) {
    Fixture f;
    Store &s = f.st;
    std::mt19937 g(15);
    const Ex x = f.x, y = f.y, r = f.r;
    std::vector<Ex> exprs = {
        r * sin(x * y) - cos(y) / (x * x + 2.0),
        pow(x * x + 1.0, 3, 2) + pow(y * y + 1.0, -2, 3),
        atan2(y, x + 3.0) * exp(-y) + log(r * r + 1.0),
        sqrt(abs(x) + 1.0) * tan(y / 3.0) - s.num(1, 7) * x,
    };
    for (Ex e : exprs) {
        GiNaC::ex ge = s.to_ginac(e);
        Ex back = s.from_ginac(ge);
        for (int k = 0; k < 10; ++k) {
            SymValues v = f.random(g);
            // GiNaC's own numeric evaluation as the independent answer.
            GiNaC::exmap m;
            for (const SymInfo &si : s.symbols())
                m[s.to_ginac(s.ex(si.id))] = GiNaC::numeric(v.get(si.kind, si.slot));
            double gv = GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(ge.subs(m))).to_double();
            ck_assert_msg(close(s.eval(e, v), gv, 1e-12), "to_ginac: %g vs %g", s.eval(e, v), gv);
            ck_assert_msg(close(s.eval(back, v), gv, 1e-12), "from_ginac: %g vs %g", s.eval(back, v), gv);
        }
    }
    // A GiNaC expression written by hand.
    GiNaC::symbol gx("x"), gr("r");
    GiNaC::ex h = GiNaC::pow(gx, 3) * gr + GiNaC::sin(gx) / (1 + GiNaC::pow(gr, 2));
    Ex he = s.from_ginac(h);
    SymValues v = f.random(g);
    double X = f.val(v, x), R = f.val(v, r);
    ck_assert(close(s.eval(he, v), X * X * X * R + std::sin(X) / (1 + R * R)));
    // Unknown symbols are rejected with their name.
    bool threw = false;
    try {
        s.from_ginac(GiNaC::symbol("nope") + 1);
    } catch (const AlgebraError &e) {
        threw = contains(e.what(), "nope");
    }
    ck_assert(threw);
}
END_TEST

static Suite *atoms_suite() {
    Suite *s = suite_create("atoms");
    TCase *tc = tcase_create("algebra");
    tcase_add_test(tc, test_hash_consing_commutative);
    tcase_add_test(tc, test_folding_rules);
    tcase_add_test(tc, test_exact_rationals);
    tcase_add_test(tc, test_symbol_kinds);
    suite_add_tcase(s, tc);
    tc = tcase_create("calculus");
    tcase_add_test(tc, test_diff_values);
    tcase_add_test(tc, test_dt_chain_rule);
    tcase_add_test(tc, test_substitution);
    tcase_add_test(tc, test_eval_plain_math);
    tcase_add_test(tc, test_random_trees_vs_plain_math);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors_and_bridge");
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_ginac_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(atoms_suite)
