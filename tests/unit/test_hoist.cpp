// test_hoist.cpp — constant hoisting (codegen/hoist.*) on the shipped
// examples: after hoisting, every function evaluated with k computed by the
// `constants` function equals the same function before hoisting (the
// independent answer: the un-hoisted expressions), no per-step function still
// computes an atom of parameters only, and no function's op count grows.
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hoist.hpp"
#include "model_functions.hpp"
#include "system.hpp"
#include "vdl_elaborate.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;

namespace {

const char *const kExamples[] = {"pendulum", "double_pendulum", "spinning_top",
                                 "four_bar", "free_body",       "coupled_pendulums", "torque_free_body"};

std::unique_ptr<System> load_example(const std::string &name)
{
    auto sys = std::make_unique<System>();
    std::string path = "vehicles/examples/" + name + ".vdl";
    vdl::Sources src;
    vdl::Diagnostics d(src);
    bool ok = vdl::load_file(path, *sys, d);
    ck_assert_msg(ok, "%s does not load: %s", path.c_str(), d.format().c_str());
    return sys;
}

// Random values for every symbol kind a function may read, except Const.
SymValues random_state(const Store &st, std::mt19937 &rng)
{
    std::uniform_real_distribution<double> u(0.3, 1.7);
    SymValues v;
    for (const SymInfo &s : st.symbols())
        if (s.kind != SymKind::Const) v.set(s.kind, s.slot, u(rng));
    return v;
}

bool is_param_only_atom(const Store &st, int id)
{
    const Node &n = st.node(id);
    return n.op != Op::Num && n.op != Op::Sym && (n.kinds & ~kind_bit(SymKind::Param)) == 0;
}

}  // namespace

START_TEST(test_hoisted_functions_equal_originals)
{
    const std::string name = kExamples[_i];
    auto sys = load_example(name);
    Store &st = sys->store();
    std::vector<codegen::Function> fns = model_functions(*sys);
    const std::vector<codegen::Function> before = fns;   // Ex handles: the originals stay in the store
    codegen::Function constants = codegen::hoist_constants(st, fns);

    ck_assert_int_eq((int)constants.outputs.size(), 1);
    ck_assert_int_eq(constants.outputs[0].rows, st.count(SymKind::Const));

    std::mt19937 rng(1234);
    for (int trial = 0; trial < 10; ++trial) {
        SymValues v = random_state(st, rng);
        std::vector<double> k = st.eval(constants.outputs[0].values, v);
        for (size_t i = 0; i < k.size(); ++i) v.set(SymKind::Const, (int)i, k[i]);
        for (size_t f = 0; f < fns.size(); ++f)
            for (size_t o = 0; o < fns[f].outputs.size(); ++o) {
                std::vector<double> a = st.eval(before[f].outputs[o].values, v);
                std::vector<double> b = st.eval(fns[f].outputs[o].values, v);
                ck_assert_int_eq((int)a.size(), (int)b.size());
                for (size_t i = 0; i < a.size(); ++i)
                    ck_assert_msg(std::fabs(a[i] - b[i]) <= 1e-12 * (1 + std::fabs(a[i])),
                                  "%s.%s.%s[%zu]: %.17g before hoisting, %.17g after", name.c_str(),
                                  fns[f].name.c_str(), fns[f].outputs[o].name.c_str(), i, a[i], b[i]);
            }
    }
}
END_TEST

START_TEST(test_no_constant_atom_left_and_no_growth)
{
    const std::string name = kExamples[_i];
    auto sys = load_example(name);
    Store &st = sys->store();
    std::vector<codegen::Function> fns = model_functions(*sys);
    std::vector<long> ops_before;
    for (const auto &f : fns) ops_before.push_back(codegen::count_ops(st, f).total());
    codegen::hoist_constants(st, fns);
    for (size_t f = 0; f < fns.size(); ++f) {
        std::vector<int> roots;
        for (const auto &o : fns[f].outputs)
            for (Ex e : o.values) roots.push_back(e.id());
        for (int id : st.reachable(roots))
            ck_assert_msg(!is_param_only_atom(st, id), "%s.%s still computes a constant atom: %s", name.c_str(),
                          fns[f].name.c_str(), st.str(st.ex(id)).c_str());
        long after = codegen::count_ops(st, fns[f]).total();
        ck_assert_msg(after <= ops_before[f], "%s.%s grew from %ld to %ld operations", name.c_str(),
                      fns[f].name.c_str(), ops_before[f], after);
    }
}
END_TEST

START_TEST(test_hoisting_twice_adds_nothing)
{
    auto sys = load_example("double_pendulum");
    Store &st = sys->store();
    std::vector<codegen::Function> fns = model_functions(*sys);
    codegen::hoist_constants(st, fns);
    const int n_const = st.count(SymKind::Const);
    ck_assert_int_gt(n_const, 0);   // m1*l1^2 and friends exist in this model
    codegen::Function again = codegen::hoist_constants(st, fns);
    ck_assert_int_eq(st.count(SymKind::Const), n_const);
    ck_assert_int_eq(again.outputs[0].rows, n_const);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hoist");
    TCase *tc = tcase_create("hoist");
    tcase_set_timeout(tc, 60);
    const int n = (int)(sizeof kExamples / sizeof kExamples[0]);
    tcase_add_loop_test(tc, test_hoisted_functions_equal_originals, 0, n);
    tcase_add_loop_test(tc, test_no_constant_atom_left_and_no_growth, 0, n);
    tcase_add_test(tc, test_hoisting_twice_adds_nothing);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
