// stepfn.cpp — see stepfn.hpp.
#include "stepfn.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

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

}  // namespace

std::vector<Function> step_functions(const Store &st, const std::vector<Function> &fns,
                                     const SymValues &defaults) {
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
    out.push_back(std::move(step));
    if (!contact) return out;

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
    out.push_back(std::move(proj));

    Function newton{"newton", {}, "one contact-point Newton iteration, in one atom set: phi_d, phi_d_s"};
    take(newton, fns, "phi_d", "phi_d");
    take(newton, fns, "phi_d_s", "phi_d_s");
    out.push_back(std::move(newton));
    return out;
}

}  // namespace codegen
}  // namespace railsym
