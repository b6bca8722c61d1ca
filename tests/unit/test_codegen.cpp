// test_codegen.cpp — the C code generator (codegen/*): generated derivatives
// against central finite differences of the generated values, gcc against
// libtcc, determinism, linear atom growth of a rotation chain, sparse
// patterns, no globals, op counts, and the invariant checks.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "atoms.hpp"
#include "codegen.hpp"
#include "compile_c.hpp"
#include "rotations.hpp"
#include "rs_test.h"

// Last: check.h defines a macro named `fail` that breaks C++ headers.
#include <check.h>

using namespace railsym;
using namespace railsym::codegen;
using railsym::testsupport::CompiledC;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// Input arrays for a generated function: one vector per slot, sized from the
// store's symbol counts (at least one entry so every pointer is valid).
struct Inputs {
    std::vector<double> v[RS_IN_COUNT];
    const double *ptr[RS_IN_COUNT];
    explicit Inputs(const Store &st) {
        for (int k = 0; k < RS_IN_COUNT; ++k)   // RS_IN_CACHE, no symbol kind: one unused entry
            v[k].assign((size_t)std::max(1, k < kNumSymKinds ? st.count(SymKind(k)) : 0), 0.0);
        sync();
    }
    void sync() {
        for (int k = 0; k < RS_IN_COUNT; ++k) ptr[k] = v[k].data();
    }
    SymValues values() const {
        SymValues s;
        for (int k = 0; k < kNumSymKinds; ++k) s.v[k] = v[k];
        return s;
    }
};

// Calls a generated function with one output array per output.
std::vector<std::vector<double>> call(rs_fn f, const Inputs &in, const Function &fn) {
    std::vector<std::vector<double>> out;
    std::vector<double *> optr;
    for (const Output &o : fn.outputs) out.emplace_back(o.values.size(), std::nan(""));
    for (auto &o : out) optr.push_back(o.data());
    ck_assert_int_eq(f(in.ptr, optr.data()), RS_ABI_OK);
    return out;
}

std::unique_ptr<CompiledC> must_compile(CompiledC::Via via, const std::string &src) {
    std::string err;
    auto c = CompiledC::compile(via, src, &err);
    ck_assert_msg(c != nullptr, "compilation failed: %s\n--- source ---\n%.4000s", err.c_str(), src.c_str());
    return c;
}

// ----------------------------------------------------------------------------
// The expression set: every operation and function, rational powers, abs.
// Domain (chosen away from every singularity and kink):
//   x in [0.3, 1.2], y in [0.4, 1.3] (coordinates), p in [0.5, 1.5] (parameter).
struct ExprModel {
    Store st;
    Ex x, y, p;
    std::vector<Ex> f;          // values
    std::vector<Ex> vars;       // x, y, p
    ExprModel() {
        x = st.coordinate("x");
        y = st.coordinate("y");
        p = st.parameter("p");
        vars = {x, y, p};
        f = {
            x + y * p,
            x - y * p,
            x * y,
            x / (y + p),
            -(x * y) + p,
            x * x * x - y,
            pow(x, -2) + pow(y, 4),
            pow(x, 3, 2) * p,                     // x^(3/2)
            pow(x, -2, 3) + y,                    // x^(−2/3)
            pow(x * y + 1.0, 1, 3),               // cube root
            pow(x, 7, 5) - pow(y, -3, 2),         // x^(7/5), y^(−3/2)
            pow(sin(x) + 2.0, -1, 2),             // 1/sqrt
            sin(x * y),
            cos(x + p),
            tan(x),
            atan2(y, x),
            atan2(x * x, y - 2.0),                // second quadrant
            sqrt(x * x + y * y),
            exp(-(x * y)),
            log(x + y * y),
            abs(x - 2.0),                         // negative argument
            abs(cos(x)) * p,                      // positive argument
            exp(sin(x)) * log(y),
            x / (1.0 + y * y) - p / (x * x),
            sin(x) * cos(y) - cos(x) * sin(y),
            st.num(5, 2) * x - st.num(1, 3) * y,
            tan(x * y / 2.0) / (1.0 + x),
            sqrt(x) * pow(y, 1, 4) + abs(x * y - 3.0),
            atan2(sin(x), cos(y)) * exp(p),
            log(p) * x / y / p,
        };
    }
    Function value_fn() const { return Function{"value", {Output::vector("f", f)}, "the values"}; }
    Function jac_fn() {
        std::vector<Ex> J;
        for (Ex e : f)
            for (Ex v : vars) J.push_back(st.diff(e, v));
        return Function{"jac", {Output::dense("J", (int)f.size(), (int)vars.size(), J)}, "df/d(x, y, p)"};
    }
};

// Random point in the domain above.
void random_point(std::mt19937 &g, const ExprModel &m, Inputs &in) {
    std::uniform_real_distribution<double> dx(0.3, 1.2), dy(0.4, 1.3), dp(0.5, 1.5);
    in.v[RS_IN_Q][(size_t)m.st.sym(m.x.id()).slot] = dx(g);
    in.v[RS_IN_Q][(size_t)m.st.sym(m.y.id()).slot] = dy(g);
    in.v[RS_IN_P][(size_t)m.st.sym(m.p.id()).slot] = dp(g);
}

double &slot_of(const ExprModel &m, Inputs &in, Ex v) {
    const SymInfo &s = m.st.sym(v.id());
    return in.v[int(s.kind)][(size_t)s.slot];
}

}  // namespace

// ---------------------------------------------------------------------------

START_TEST(test_covers_every_operation) {
    ExprModel m;
    ck_assert_int_ge((int)m.f.size(), 25);
    Function fv = m.value_fn();
    OpCount c = count_ops(m.st, fv);
    ck_assert(c.adds > 0 && c.muls > 0 && c.divs > 0);
    for (const char *name : {"sin", "cos", "tan", "atan2", "sqrt", "exp", "log", "fabs", "pow"})
        ck_assert_msg(c.calls.count(name) && c.calls.at(name) > 0, "no %s in the expression set", name);
    // Neg must appear as an atom somewhere (−(x·y)).
    bool has_neg = false;
    for (int id = 0; id < m.st.size(); ++id) has_neg |= m.st.node(id).op == Op::Neg;
    ck_assert(has_neg);
}
END_TEST

START_TEST(test_derivatives_vs_finite_differences) {
    ExprModel m;
    Function fv = m.value_fn(), fj = m.jac_fn();
    GeneratedCode code = generate_c(m.st, "fd", {fv, fj});
    auto cc = must_compile(CompiledC::Via::Gcc, code.source);
    rs_fn value = cc->fn("fd_value"), jac = cc->fn("fd_jac");
    ck_assert(value && jac);
    std::mt19937 g(2024);
    Inputs in(m.st);
    const size_t n = m.f.size(), nv = m.vars.size();
    for (int trial = 0; trial < 25; ++trial) {
        random_point(g, m, in);
        std::vector<double> J = call(jac, in, fj)[0];
        std::vector<double> f0 = call(value, in, fv)[0];
        // The compiled value agrees with the store's own evaluation.
        std::vector<double> ev = m.st.eval(m.f, in.values());
        for (size_t i = 0; i < n; ++i)
            ck_assert_msg(std::fabs(f0[i] - ev[i]) <= 1e-13 * std::max(1.0, std::fabs(ev[i])),
                          "value %zu: compiled %.17g, eval %.17g", i, f0[i], ev[i]);
        for (size_t k = 0; k < nv; ++k) {
            double &xk = slot_of(m, in, m.vars[k]);
            const double x0 = xk, h = 1e-5 * std::max(1.0, std::fabs(x0));
            xk = x0 + h;
            std::vector<double> fp = call(value, in, fv)[0];
            xk = x0 - h;
            std::vector<double> fm = call(value, in, fv)[0];
            xk = x0;
            for (size_t i = 0; i < n; ++i) {
                const double fd = (fp[i] - fm[i]) / (2 * h), d = J[i * nv + k];
                ck_assert_msg(std::fabs(fd - d) <= 1e-6 * std::max(std::fabs(d), 0.1),
                              "expression %zu (%s), d/d%s at x=%g y=%g p=%g: generated %.12g, "
                              "finite difference %.12g",
                              i, m.f[i].str().c_str(), m.st.sym(m.vars[k].id()).name.c_str(),
                              slot_of(m, in, m.x), slot_of(m, in, m.y), slot_of(m, in, m.p), d, fd);
            }
        }
    }
}
END_TEST

START_TEST(test_gcc_and_tcc_agree) {
    ExprModel m;
    Function fv = m.value_fn(), fj = m.jac_fn();
    GeneratedCode code = generate_c(m.st, "both", {fv, fj});
    auto gc = must_compile(CompiledC::Via::Gcc, code.source);
    auto tc = must_compile(CompiledC::Via::Tcc, code.source);
    std::mt19937 g(7);
    Inputs in(m.st);
    for (int trial = 0; trial < 50; ++trial) {
        random_point(g, m, in);
        for (const Function *f : {&fv, &fj}) {
            const std::string name = "both_" + f->name;
            std::vector<double> a = call(gc->fn(name), in, *f)[0], b = call(tc->fn(name), in, *f)[0];
            for (size_t i = 0; i < a.size(); ++i)
                ck_assert_msg(std::fabs(a[i] - b[i]) <= 1e-13 * std::max(1.0, std::fabs(a[i])),
                              "%s[%zu]: gcc %.17g, tcc %.17g", name.c_str(), i, a[i], b[i]);
        }
    }
}
END_TEST

START_TEST(test_deterministic_text) {
    // Two stores built the same way give the same text, byte for byte.
    ExprModel a, b;
    GeneratedCode ca = generate_c(a.st, "det", {a.value_fn(), a.jac_fn()});
    GeneratedCode cb = generate_c(b.st, "det", {b.value_fn(), b.jac_fn()});
    ck_assert(ca.source == cb.source);
    ck_assert(ca.header == cb.header);
    // And generating twice from one store too.
    GeneratedCode ca2 = generate_c(a.st, "det", {a.value_fn(), a.jac_fn()});
    ck_assert(ca.source == ca2.source);
    ck_assert(ca.header == ca2.header);
}
END_TEST

START_TEST(test_code_form) {
    Store st;
    Ex x = st.coordinate("x"), p = st.parameter("p"), q = st.parameter("q");
    Ex a = sin(x) * p;
    std::vector<Function> fns = {
        Function{"direct", {Output::scalar("sym", p), Output::scalar("three", st.num(3)),
                            Output::scalar("third", st.num(1, 3)), Output::scalar("neg", st.num(-5, 4))},
                 ""},
        Function{"shared", {Output::vector("v", {a, a * a, a + 1.0})}, "an atom used three times"},
        Function{"params_only", {Output::scalar("pq", p / q)}, ""},
        Function{"empty", {}, "no outputs"},
    };
    GeneratedCode c = generate_c(st, "form", fns);
    const std::string &s = c.source;
    // Symbols and numbers written inline, numbers always as doubles.
    ck_assert(contains(s, "o0[0] = p[0];"));
    ck_assert(contains(s, "o1[0] = 3.0;"));
    ck_assert(contains(s, "o2[0] = 0.33333333333333331;"));
    ck_assert(contains(s, "o3[0] = -1.25;"));
    // An unwanted (NULL) output goes to the sink; an atom's output value is
    // stored right after the atom.
    ck_assert(contains(s, "double *const o0 = out[0] ? out[0] : sink;"));
    ck_assert(contains(s, "const double a1 = p[0] * a0;\n    o0[0] = a1;") ||
              contains(s, "const double a1 = a0 * p[0];\n    o0[0] = a1;"));
    // Each atom once, locals renumbered from 0 per function, operands first.
    ck_assert(contains(s, "const double a0 = sin(q[0]);"));
    ck_assert(contains(s, "const double a1 = p[0] * a0;") || contains(s, "const double a1 = a0 * p[0];"));
    std::string shared = s.substr(s.find("int form_shared("));
    shared = shared.substr(0, shared.find("\n}\n"));
    size_t count_sin = 0;
    for (size_t pos = shared.find("sin("); pos != std::string::npos; pos = shared.find("sin(", pos + 1)) ++count_sin;
    ck_assert_int_eq((int)count_sin, 1);
    // Only the input slots a function reads get a pointer.
    std::string po = s.substr(s.find("int form_params_only("));
    po = po.substr(0, po.find("\n}\n"));
    ck_assert(contains(po, "const double *restrict p = in[RS_IN_P];"));
    ck_assert(!contains(po, "RS_IN_Q"));
    // Header: guard and prototypes.
    ck_assert(contains(c.header, "#ifndef RAILSYM_GEN_FORM_H"));
    ck_assert(contains(c.header, "int form_shared(const double *const *in, double *const *out);"));
    ck_assert(contains(c.header, "int form_empty(const double *const *in, double *const *out);"));
    // Header comment lists the outputs with their out[] index.
    ck_assert(contains(s, "out[2]  third  scalar"));
    // NULL outputs are skipped; the rest is written.
    auto cc = must_compile(CompiledC::Via::Gcc, s);
    double in_q[1] = {0.5}, in_p[2] = {2.0, 4.0}, zero[1] = {0};
    const double *in[RS_IN_COUNT] = {zero, in_q, zero, zero, zero, zero, zero, in_p, zero, zero};
    double v[3] = {0, 0, 0}, third = 0;
    double *out[4] = {nullptr, nullptr, &third, nullptr};
    ck_assert_int_eq(cc->fn("form_direct")(in, out), RS_ABI_OK);
    ck_assert(third == 1.0 / 3.0);
    double *out2[1] = {v};
    ck_assert_int_eq(cc->fn("form_shared")(in, out2), RS_ABI_OK);
    const double A = std::sin(0.5) * 2.0;
    ck_assert(std::fabs(v[0] - A) < 1e-15 && std::fabs(v[1] - A * A) < 1e-15 && std::fabs(v[2] - A - 1) < 1e-15);
    ck_assert_int_eq(cc->fn("form_empty")(in, out2), RS_ABI_OK);
    // Names are sanitized to C identifiers.
    GeneratedCode odd = generate_c(st, "my-model 2", {Function{"f.x", {Output::scalar("y", p)}, ""}});
    ck_assert(contains(odd.source, "int my_model_2_f_x("));
    must_compile(CompiledC::Via::Gcc, odd.source);
    const std::string id3d = c_identifier("3d");   // kept alive: ck_assert_str_eq keeps the pointer
    ck_assert_str_eq(id3d.c_str(), "rs_3d");
}
END_TEST

START_TEST(test_op_counts_by_hand) {
    Store st;
    Ex x = st.coordinate("x"), y = st.coordinate("y");
    // sin(x)·y + x/y: one add, one mul, one div, one sin: 4 atoms.
    Ex s = sin(x);
    Function f{"f", {Output::scalar("a", s * y + x / y), Output::scalar("b", s)}, ""};
    OpCount c = count_ops(st, f);
    ck_assert_int_eq(c.atoms, 4);
    ck_assert_int_eq(c.adds, 1);
    ck_assert_int_eq(c.muls, 1);
    ck_assert_int_eq(c.divs, 1);
    ck_assert_int_eq((int)c.calls.size(), 1);
    ck_assert_int_eq(c.calls["sin"], 1);
    ck_assert_int_eq(c.total(), 4);
    // x^(2/3) is one pow call; −x one add; |x| one fabs; x^3 two muls.
    Function g{"g", {Output::vector("v", {pow(x, 2, 3), -x, abs(x), pow(x, 3)})}, ""};
    OpCount d = count_ops(st, g);
    ck_assert_int_eq(d.calls["pow"], 1);
    ck_assert_int_eq(d.calls["fabs"], 1);
    ck_assert_int_eq(d.adds, 1);
    ck_assert_int_eq(d.muls, 2);
    ck_assert_int_eq(d.atoms, 5);
    // The reports carry the same numbers.
    std::string table = ops_table({{"f", c}, {"g", d}});
    ck_assert(contains(table, "function"));
    ck_assert(contains(table, "sin 1"));
    std::string json = ops_json({{"f", c}, {"g", d}});
    ck_assert(contains(json, "{\"name\": \"f\", \"atoms\": 4, \"operations\": 4, \"adds\": 1, \"muls\": 1, "
                             "\"divs\": 1, \"calls\": {\"sin\": 1}}"));
    ck_assert(contains(json, "\"pow\": 1"));
}
END_TEST

START_TEST(test_sparse_pattern) {
    Store st;
    Ex x = st.coordinate("x"), y = st.coordinate("y"), p = st.parameter("p");
    Ex Z = st.zero();
    // 4x3, row-major; (3,1) is x − x, structurally zero after folding.
    std::vector<Ex> A = {
        x,  Z,       p * y,   //
        Z,  Z,       sin(x),  //
        y,  cos(y),  Z,       //
        Z,  x - x,   st.num(2),
    };
    Output o = Output::sparse("A", 4, 3, A);
    // Compressed columns by hand: col 0 rows {0, 2}; col 1 row {2}; col 2 rows {0, 1, 3}.
    const std::vector<int> colptr = {0, 2, 3, 6}, rowidx = {0, 2, 2, 0, 1, 3};
    ck_assert(o.colptr == colptr);
    ck_assert(o.rowidx == rowidx);
    ck_assert_int_eq(o.nnz(), 6);
    ck_assert(o.values[0] == x && o.values[1] == y && o.values[2] == cos(y) && o.values[3] == p * y &&
              o.values[4] == sin(x) && o.values[5] == st.num(2));
    Function f{"jac", {Output::scalar("s", x * y), o}, ""};
    GeneratedCode c = generate_c(st, "sp", {f});
    // The pattern is the descriptor's (emitted once, descriptor.hpp): the
    // functions' C exports no copy of it.
    ck_assert(!contains(c.header, "colptr") && !contains(c.source, "colptr"));
    ck_assert(!contains(c.header, "rowidx") && !contains(c.source, "rowidx"));
    ck_assert(contains(c.header, "out[1] A (sparse 4x3)"));
    // Header and source agree: one translation unit with both compiles cleanly.
    must_compile(CompiledC::Via::Gcc, c.header + c.source);
    for (auto via : {CompiledC::Via::Gcc, CompiledC::Via::Tcc}) {
        auto cc = must_compile(via, c.source);
        ck_assert(cc->symbol("sp_jac_A_colptr") == nullptr && cc->symbol("sp_jac_A_nnz") == nullptr);
        Inputs in(st);
        in.v[RS_IN_Q] = {0.7, -1.1};
        in.v[RS_IN_P] = {3.0};
        in.sync();
        std::vector<double> vals = call(cc->fn("sp_jac"), in, f)[1];
        const double X = 0.7, Y = -1.1, P = 3.0;
        const double want[6] = {X, Y, std::cos(Y), P * Y, std::sin(X), 2.0};
        for (int k = 0; k < 6; ++k) ck_assert_msg(std::fabs(vals[k] - want[k]) < 1e-15, "value %d", k);
        // A NULL output is skipped (its values go to the function's sink):
        // the other output is written all the same, the NULL one untouched.
        double sparse_only[6];
        double *out_null[2] = {nullptr, sparse_only};
        ck_assert_int_eq(cc->fn("sp_jac")(in.ptr, out_null), RS_ABI_OK);
        for (int k = 0; k < 6; ++k) ck_assert(sparse_only[k] == vals[k]);
        double scalar_only = std::nan("");
        double *out_null2[2] = {&scalar_only, nullptr};
        ck_assert_int_eq(cc->fn("sp_jac")(in.ptr, out_null2), RS_ABI_OK);
        ck_assert(std::fabs(scalar_only - X * Y) < 1e-15);
    }
    // An all-zero sparse output is still valid C.
    Function e{"e", {Output::sparse("Z", 2, 2, {Z, Z, Z, Z})}, ""};
    GeneratedCode ce = generate_c(st, "sp0", {e});
    auto cc0 = must_compile(CompiledC::Via::Gcc, ce.source);
    ck_assert(cc0->fn("sp0_e") != nullptr);
    ck_assert(cc0->symbol("sp0_e_Z_nnz") == nullptr);
}
END_TEST

START_TEST(test_no_globals) {
    ExprModel m;
    std::vector<Ex> A(9, m.st.zero());
    A[0] = m.x;
    A[4] = sin(m.y);
    A[8] = m.p;
    Function fs{"s", {Output::sparse("A", 3, 3, A)}, ""};
    GeneratedCode code = generate_c(m.st, "ng", {m.value_fn(), m.jac_fn(), fs});
    std::string err;
    std::string nm = testsupport::gcc_object_nm(code.source, &err);
    ck_assert_msg(!nm.empty(), "%s", err.c_str());
    // Each line: [address] type name.  Allowed: code (T/t), read-only data
    // (R/r), undefined references (U).  Anything else (D d B b C G g S s V
    // ...) is writable or common data: a global.
    std::istringstream lines(nm);
    std::string line;
    int rodata = 0, text = 0;
    while (std::getline(lines, line)) {
        std::istringstream w(line);
        std::vector<std::string> tok;
        for (std::string t; w >> t;) tok.push_back(t);
        if (tok.size() < 2) continue;
        const std::string &type = tok[tok.size() - 2], &name = tok.back();
        ck_assert_msg(type == "T" || type == "t" || type == "R" || type == "r" || type == "U",
                      "generated code defines %s of type %s (writable data?)", name.c_str(), type.c_str());
        rodata += type == "R";
        text += type == "T";
    }
    ck_assert_int_eq(text, 3);
    // No data at all: a sparse output's pattern lives once, in the model's
    // descriptor (descriptor.hpp), not as exported arrays beside the code.
    ck_assert_int_eq(rodata, 0);
}
END_TEST

START_TEST(test_invalid_atom_is_caught) {
    Store st, other;
    Ex x = st.coordinate("x");
    Ex o = other.coordinate("o");
    auto expect_logic = [&](const Function &f, const char *what) {
        try {
            generate_c(st, "bad", {f});
        } catch (const std::logic_error &e) {
            ck_assert_msg(!dynamic_cast<const std::invalid_argument *>(&e), "%s: wrong exception type", what);
            ck_assert_msg(contains(e.what(), "atom id"), "%s: message '%s'", what, e.what());
            return;
        }
        ck_abort_msg("%s: no std::logic_error", what);
    };
    expect_logic(Function{"f", {Output::vector("v", {x, Ex(&st, st.size() + 7)})}, ""}, "id past the end");
    expect_logic(Function{"f", {Output::scalar("v", Ex(&st, -3))}, ""}, "negative id");
    expect_logic(Function{"f", {Output::scalar("v", o)}, ""}, "atom of another store");
    expect_logic(Function{"f", {Output::scalar("v", Ex())}, ""}, "default Ex");
    bool threw = false;
    try {
        count_ops(st, Function{"f", {Output::scalar("v", Ex(&st, st.size()))}, ""});
    } catch (const std::logic_error &) {
        threw = true;
    }
    ck_assert(threw);
    // Caller mistakes are invalid_argument: duplicate names, shapes that do not fit.
    threw = false;
    try {
        generate_c(st, "m", {Function{"f", {Output::scalar("a", x)}, ""}, Function{"f", {}, ""}});
    } catch (const std::invalid_argument &) {
        threw = true;
    }
    ck_assert(threw);
    threw = false;
    try {
        Output::dense("D", 2, 2, {x, x, x});
    } catch (const std::invalid_argument &) {
        threw = true;
    }
    ck_assert(threw);
    threw = false;
    try {
        Output bad = Output::vector("v", {x, x});
        bad.rows = 3;
        generate_c(st, "m", {Function{"f", {bad}, ""}});
    } catch (const std::invalid_argument &) {
        threw = true;
    }
    ck_assert(threw);
}
END_TEST

START_TEST(test_rotation_chain_grows_linearly) {
    const int nmax = 60;
    Store st;
    std::vector<std::vector<Ex>> P = testsupport::rotation_products(st, nmax);
    std::vector<double> atoms(nmax + 1, 0.0);
    for (int n = 1; n <= nmax; ++n)
        atoms[n] = (double)count_ops(st, Function{"R", {Output::dense("R", 3, 3, P[n - 1])}, ""}).atoms;
    // Least squares on N = 10..60: linear fit, then a quadratic fit.
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, t0 = 0, t1 = 0, t2 = 0;
    for (int n = 10; n <= nmax; ++n) {
        const double N = n, a = atoms[n];
        s0 += 1; s1 += N; s2 += N * N; s3 += N * N * N; s4 += N * N * N * N;
        t0 += a; t1 += a * N; t2 += a * N * N;
    }
    const double slope = (s0 * t1 - s1 * t0) / (s0 * s2 - s1 * s1);
    const double icpt = (t0 - slope * s1) / s0;
    // Quadratic fit a ≈ c0 + c1 N + c2 N² by the normal equations (Cramer).
    const double M[3][3] = {{s0, s1, s2}, {s1, s2, s3}, {s2, s3, s4}}, r[3] = {t0, t1, t2};
    auto det3 = [](const double m[3][3]) {
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    double M2[3][3];
    std::memcpy(M2, M, sizeof M);
    for (int i = 0; i < 3; ++i) M2[i][2] = r[i];
    const double c2 = det3(M2) / det3(M);
    double max_resid = 0;
    for (int n = 10; n <= nmax; ++n) max_resid = std::max(max_resid, std::fabs(atoms[n] - (icpt + slope * n)));
    // A rotation about one axis changes two columns: a few dozen atoms, not more.
    ck_assert_msg(slope > 5 && slope < 40, "slope %g atoms per rotation", slope);
    // Super-linear growth would show as c2·N² comparable to slope·N at N = 60.
    ck_assert_msg(std::fabs(c2) * nmax * nmax < 0.01 * slope * nmax, "quadratic coefficient %g (slope %g)", c2, slope);
    ck_assert_msg(max_resid < 0.02 * atoms[nmax], "residual %g of %g", max_resid, atoms[nmax]);
    // Period-3 increments (axes cycle x, y, z) are constant once the chain is long.
    for (int n = 13; n <= nmax; ++n)
        ck_assert_msg(atoms[n] - atoms[n - 3] == atoms[n - 3] - atoms[n - 6], "growth changes at N = %d", n);
    // The generated code of the 60-product computes the product: compare with
    // the store's evaluation at a random point (gcc).
    Function f{"R60", {Output::dense("R", 3, 3, P[nmax - 1])}, ""};
    auto cc = must_compile(CompiledC::Via::Gcc, generate_c(st, "rot", {f}).source);
    Inputs in(st);
    std::mt19937 g(3);
    std::uniform_real_distribution<double> d(-3, 3);
    for (double &v : in.v[RS_IN_Q]) v = d(g);
    std::vector<double> R = call(cc->fn("rot_R60"), in, f)[0];
    std::vector<double> ev = st.eval(P[nmax - 1], in.values());
    double orth = 0;   // RᵀR = I for a rotation
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int k = 0; k < 3; ++k) s += R[3 * k + i] * R[3 * k + j];
            orth = std::max(orth, std::fabs(s - (i == j)));
            ck_assert(std::fabs(R[3 * i + j] - ev[3 * i + j]) < 1e-13);
        }
    ck_assert_msg(orth < 1e-12, "R60 not orthogonal: %g", orth);
}
END_TEST

static Suite *codegen_suite() {
    Suite *s = suite_create("codegen");
    TCase *tc = tcase_create("numbers");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_covers_every_operation);
    tcase_add_test(tc, test_derivatives_vs_finite_differences);
    tcase_add_test(tc, test_gcc_and_tcc_agree);
    tcase_add_test(tc, test_rotation_chain_grows_linearly);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_deterministic_text);
    tcase_add_test(tc, test_code_form);
    tcase_add_test(tc, test_op_counts_by_hand);
    tcase_add_test(tc, test_sparse_pattern);
    tcase_add_test(tc, test_no_globals);
    tcase_add_test(tc, test_invalid_atom_is_caught);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(codegen_suite)
