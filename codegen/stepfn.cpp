// stepfn.cpp — see stepfn.hpp.
#include "stepfn.hpp"

#include <algorithm>
#include <set>

#include <cmath>
#include <random>
#include <stdexcept>

#include "codegen_impl.hpp"

namespace railsym {
namespace codegen {

namespace {

const Function *find(const std::vector<Function> &fns, const std::string &name) {
    for (const Function &f : fns)
        if (f.name == name) return &f;
    return nullptr;
}

// Appends output `out` of function `fn` (the first sparse one when out is
// empty) to g, renamed "fn.out".
void take(Function &g, const std::vector<Function> &fns, const std::string &fn, const std::string &out) {
    const Function *f = find(fns, fn);
    if (!f) throw std::invalid_argument("combined function " + g.name + ": function '" + fn + "' is missing");
    for (const Output &o : f->outputs)
        if (out.empty() ? o.shape == Shape::Sparse : o.name == out) {
            Output c = o;
            c.name = fn + "." + o.name;
            g.outputs.push_back(std::move(c));
            return;
        }
    throw std::invalid_argument("combined function " + g.name + ": function '" + fn + "' has no output '" +
                                (out.empty() ? std::string("(sparse)") : out) + "'");
}

const Output *output(const std::vector<Function> &fns, const std::string &fn, const std::string &out) {
    if (const Function *f = find(fns, fn))
        for (const Output &o : f->outputs)
            if (o.name == out) return &o;
    return nullptr;
}

// ∂δ/∂f as the transpose of ∂ν/∂q̇ (same atoms), when the two patterns are
// transposes of each other and the values agree at three random states;
// otherwise creep's own output.
Output ddelta_df(const Store &st, const std::vector<Function> &fns, const SymValues &defaults) {
    const Output *D = output(fns, "creep", "ddelta_df"), *N = output(fns, "creep", "dnu_dqd");
    if (!D || !N || D->shape != Shape::Sparse || N->shape != Shape::Sparse)
        throw std::invalid_argument("combined function step: creep lacks ddelta_df or dnu_dqd");
    Output T = *D;
    if (D->rows != N->cols || D->cols != N->rows || D->nnz() != N->nnz()) return T;
    // position of each N entry (row r, column c) by (r, c)
    std::vector<int> at((size_t)N->rows * (size_t)N->cols, -1);
    for (int c = 0; c < N->cols; ++c)
        for (int k = N->colptr[c]; k < N->colptr[c + 1]; ++k) at[(size_t)N->rowidx[k] * N->cols + c] = k;
    for (int c = 0; c < D->cols; ++c)
        for (int k = D->colptr[c]; k < D->colptr[c + 1]; ++k) {
            const int kn = at[(size_t)c * N->cols + D->rowidx[k]];   // N(c, row)
            if (kn < 0) return T;
            T.values[(size_t)k] = N->values[(size_t)kn];
        }
    // the check: consistent constants from the parameters, random states
    SymValues v = defaults;
    if (const Function *kf = find(fns, "constants")) {
        const std::vector<double> kv = st.eval(kf->outputs.at(0).values, v);
        for (size_t i = 0; i < kv.size(); ++i) v.set(SymKind::Const, (int)i, kv[i]);
    }
    std::mt19937 rng(20240917u);
    std::uniform_real_distribution<double> u(-0.1, 0.1);
    for (int round = 0; round < 3; ++round) {
        for (SymKind k : {SymKind::Time, SymKind::Coord, SymKind::Vel, SymKind::Aux, SymKind::AuxVel, SymKind::Input})
            for (int i = 0; i < st.count(k); ++i) v.set(k, i, u(rng) + (k == SymKind::Vel ? 1.0 : 0.0));
        const std::vector<double> a = st.eval(D->values, v), b = st.eval(T.values, v);
        for (size_t i = 0; i < a.size(); ++i)
            if (!(std::fabs(a[i] - b[i]) <= 1e-9 * (1.0 + std::fabs(a[i])))) return *D;
    }
    return T;
}

// The cache proj leaves for the next step's step (docs/performance.md item 8):
// the atoms both evaluate that depend on position-level symbols only (q, s,
// p, k and the inputs in static_inputs, which the runtime sets from s), cut
// at the frontier step needs: those step reads from its other atoms or
// writes as outputs.  Ascending atom ids.  Empty when the loads and stores
// would cost more than the operations saved (fewer than 2 per cached value).
std::vector<int> step_cache(const Store &st, const Function &step, const Function &proj,
                            const std::vector<int> &static_inputs) {
    const std::vector<int> ns = detail::needed_nodes(st, step), np = detail::needed_nodes(st, proj);
    const std::set<int> statics(static_inputs.begin(), static_inputs.end());
    std::vector<char> pos((size_t)st.size(), 0), in_proj((size_t)st.size(), 0), shared((size_t)st.size(), 0);
    for (int id : np) {   // ascending: operands first
        const Node &nd = st.node(id);
        in_proj[(size_t)id] = 1;
        if (nd.op == Op::Num) {
            pos[(size_t)id] = 1;
        } else if (nd.op == Op::Sym) {
            const SymInfo &si = st.sym(id);
            pos[(size_t)id] = si.kind == SymKind::Coord || si.kind == SymKind::Aux || si.kind == SymKind::Param ||
                              si.kind == SymKind::Const || (si.kind == SymKind::Input && statics.count(si.slot));
        } else {
            pos[(size_t)id] = pos[(size_t)nd.a] && (!detail::is_binary(nd.op) || pos[(size_t)nd.b]);
        }
    }
    long saved = 0;
    for (int id : ns)
        if (in_proj[(size_t)id] && pos[(size_t)id] && !detail::is_leaf(st.node(id).op)) {
            shared[(size_t)id] = 1;
            ++saved;
        }
    std::set<int> frontier;
    for (int id : ns) {
        const Node &nd = st.node(id);
        if (shared[(size_t)id] || detail::is_leaf(nd.op)) continue;
        if (shared[(size_t)nd.a]) frontier.insert(nd.a);
        if (detail::is_binary(nd.op) && shared[(size_t)nd.b]) frontier.insert(nd.b);
    }
    for (const Output &o : step.outputs)
        for (const Ex &e : o.values)
            if (shared[(size_t)e.id()]) frontier.insert(e.id());
    std::vector<int> out(frontier.begin(), frontier.end());
    if (saved < 2 * (long)out.size()) out.clear();
    return out;
}

}  // namespace

std::vector<Function> step_functions(const Store &st, const std::vector<Function> &fns,
                                     const SymValues &defaults, const std::vector<int> &static_inputs) {
    std::vector<Function> out;
    if (!find(fns, "M") || !find(fns, "delta")) return out;
    const bool constrained = find(fns, "phi") != nullptr;
    const bool contact = find(fns, "creep") != nullptr;

    Function step{"step", {},
                  "everything the start of one IMEX step evaluates, in one atom set:\n"
                  "M, delta_nk (delta without contacts), phi_q, gamma and the creep pieces"};
    take(step, fns, "M", "");
    if (contact)
        take(step, fns, "delta_nk", "delta_nk");
    else
        take(step, fns, "delta", "delta");
    if (constrained) {
        take(step, fns, "phi_q", "");
        take(step, fns, "gamma", "gamma");
    }
    if (contact) {
        for (const char *o : {"nu", "V", "radii"}) take(step, fns, "creep", o);
        step.outputs.push_back(ddelta_df(st, fns, defaults));
        step.outputs.back().name = "creep.ddelta_df";
        take(step, fns, "creep", "dnu_dqd");
    }
    if (!contact) {
        out.push_back(std::move(step));
        return out;
    }

    Function proj{"proj", {},
                  "the end of one IMEX step at the converged contact point, in one atom set:\n"
                  "phi_d, phi, phi_q, beta, phi_d_s, phi_d_q, beta_d"};
    take(proj, fns, "phi_d", "phi_d");
    take(proj, fns, "phi", "phi");
    take(proj, fns, "phi_q", "");
    take(proj, fns, "beta", "beta");
    take(proj, fns, "phi_d_s", "phi_d_s");
    take(proj, fns, "phi_d_q", "phi_d_q");
    take(proj, fns, "beta_d", "beta_d");

    const std::vector<int> cache = step_cache(st, step, proj, static_inputs);
    Function step_cached{"step_cached", step.outputs,
                         "step, reading the atoms it shares with proj (position level: q, s, p, k\n"
                         "and the spline inputs) from the cache proj wrote at the same q and s"};
    if (!cache.empty()) {
        std::vector<Ex> values;
        for (int id : cache) values.emplace_back(const_cast<Store *>(&st), id);
        proj.outputs.push_back(Output::vector("cache", values));
        proj.doc += ",\nand the cache for step_cached";
        step_cached.cached = cache;
    }
    out.push_back(std::move(step));
    out.push_back(std::move(proj));

    Function newton{"newton", {}, "one contact-point Newton iteration, in one atom set: phi_d, phi_d_s"};
    take(newton, fns, "phi_d", "phi_d");
    take(newton, fns, "phi_d_s", "phi_d_s");
    out.push_back(std::move(newton));
    if (!cache.empty()) out.push_back(std::move(step_cached));

    // the elastic contact's step start: no normal constraints, no creep
    // pieces; the wheels' kinematics instead (RS_FN_WHEEL), whose rotations
    // M and δ^NK compute too
    if (find(fns, "wheel")) {
        Function step_elastic{"step_elastic", {},
                              "the start of one IMEX step of the elastic contact, in one atom set:\n"
                              "M, delta_nk and the wheels' pose, velocity, velocity Jacobian and geometry"};
        take(step_elastic, fns, "M", "");
        take(step_elastic, fns, "delta_nk", "delta_nk");
        for (const char *o : {"wheel_pose", "wheel_vel", "wheel_jac", "wheel_geom"}) take(step_elastic, fns, "wheel", o);
        out.push_back(std::move(step_elastic));
    }
    return out;
}

}  // namespace codegen
}  // namespace railsym
