// fn_table.cpp — see fn_table.hpp.
#include "fn_table.hpp"

#include "rs_model.h"

namespace railsym {
namespace codegen {

namespace {

std::vector<FnSpec> build() {
    static const char *const names[RS_FN_COUNT] = RS_FN_NAMES;
    struct Row {
        int id;
        const char *id_name;
        std::vector<std::string> outputs;
        bool combined;
    };
    // Output names and order: the contract of abi/rs_model.h's RS_FN_* list.
    const Row rows[] = {
        {RS_FN_M, "RS_FN_M", {"M"}, false},
        {RS_FN_DELTA, "RS_FN_DELTA", {"delta"}, false},
        {RS_FN_PHI, "RS_FN_PHI", {"phi"}, false},
        {RS_FN_PHI_Q, "RS_FN_PHI_Q", {"phi_q"}, false},
        {RS_FN_BETA, "RS_FN_BETA", {"beta"}, false},
        {RS_FN_GAMMA, "RS_FN_GAMMA", {"gamma"}, false},
        {RS_FN_ENERGY, "RS_FN_ENERGY", {"kinetic", "potential"}, false},
        {RS_FN_OUTPUTS, "RS_FN_OUTPUTS", {"outputs"}, false},
        {RS_FN_CONSTANTS, "RS_FN_CONSTANTS", {"k"}, false},
        {RS_FN_DELTA_NK, "RS_FN_DELTA_NK", {"delta_nk"}, false},
        {RS_FN_PHI_D, "RS_FN_PHI_D", {"phi_d"}, false},
        {RS_FN_PHI_D_Q, "RS_FN_PHI_D_Q", {"phi_d_q"}, false},
        {RS_FN_PHI_D_S, "RS_FN_PHI_D_S", {"phi_d_s"}, false},
        {RS_FN_BETA_D, "RS_FN_BETA_D", {"beta_d"}, false},
        {RS_FN_CREEP, "RS_FN_CREEP", {"nu", "V", "radii", "ddelta_df", "dnu_dqd"}, false},
        {RS_FN_DELTA_JAC, "RS_FN_DELTA_JAC", {"K", "C"}, false},
        {RS_FN_STEP, "RS_FN_STEP", {}, true},
        {RS_FN_PROJ, "RS_FN_PROJ", {}, true},
        {RS_FN_NEWTON, "RS_FN_NEWTON", {}, true},
        {RS_FN_POWER, "RS_FN_POWER", {"power"}, false},
        {RS_FN_STEP_CACHED, "RS_FN_STEP_CACHED", {}, true},
        {RS_FN_WHEEL, "RS_FN_WHEEL", {"wheel_pose", "wheel_vel", "wheel_jac", "wheel_geom"}, false},
        {RS_FN_STEP_ELASTIC, "RS_FN_STEP_ELASTIC", {}, true},
        {RS_FN_PARAMS, "RS_FN_PARAMS", {"p"}, false},
        {RS_FN_ZDOT, "RS_FN_ZDOT", {"zdot", "dzdot_dz"}, false},
        {RS_FN_INERTIA, "RS_FN_INERTIA", {"mass", "inertia"}, false},
        {RS_FN_BODY_POSE, "RS_FN_BODY_POSE", {"pose"}, false},
    };
    static_assert(sizeof rows / sizeof rows[0] == RS_FN_COUNT, "one row per RS_FN_* id");
    std::vector<FnSpec> t(RS_FN_COUNT);
    for (const Row &r : rows) t[(size_t)r.id] = FnSpec{r.id, r.id_name, names[r.id], r.outputs, r.combined};
    return t;
}

}  // namespace

const std::vector<FnSpec> &fn_table() {
    static const std::vector<FnSpec> t = build();
    return t;
}

const FnSpec *fn_spec(const std::string &name) {
    for (const FnSpec &s : fn_table())
        if (s.name == name) return &s;
    return nullptr;
}

const std::string &fn_name(int id) { return fn_table().at((size_t)id).name; }

std::vector<Function> runtime_functions(const std::vector<Function> &fns) {
    std::vector<Function> out;
    for (const Function &f : fns)
        if (fn_spec(f.name)) out.push_back(f);
    return out;
}

}  // namespace codegen
}  // namespace railsym
