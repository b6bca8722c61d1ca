// model_functions.cpp — a System's equations as the codegen::Function sets
// of model_functions.hpp.
//
// Names and outputs of the functions the runtime calls come from the ABI's
// function table (fn_table.hpp), so every generated function writes its
// outputs in the runtime's out[] order:
//   M        M (sparse, compressed columns)
//   delta    δ (n)
//   phi, phi_q (sparse), beta, gamma   when there are constraints;
//            phi_s (dense) besides, for tools and tests (no RS_FN_* id:
//            compiled models leave it out)
//   energy   kinetic, potential (scalars)
//   outputs  one vector of the user outputs, in their order
#include "model_functions.hpp"

#include <stdexcept>

#include "fn_table.hpp"
#include "force_jacobians.hpp"
#include "power.hpp"
#include "rs_model.h"

namespace railsym {

std::vector<codegen::Function> model_functions(System &sys)
{
    using codegen::Function;
    using codegen::Output;
    std::vector<Function> fns;
    const int n = (int)sys.coords().size();
    const int m = (int)sys.constraints().size();
    const int ns = (int)sys.auxs().size();

    using codegen::fn_name;
    // out(id, k): the name of out[k] of function id, from the ABI's table.
    auto out = [](int id, size_t k) { return codegen::fn_table()[(size_t)id].outputs.at(k); };

    fns.push_back(Function{fn_name(RS_FN_M), {Output::sparse(out(RS_FN_M, 0), n, n, sys.mass_matrix())},
                           "mass matrix M = dE/dq'' (M q'' = delta), compressed columns"});
    fns.push_back(Function{fn_name(RS_FN_DELTA), {Output::vector(out(RS_FN_DELTA, 0), sys.delta())},
                           "generalized forces delta = -E(q'' = 0)"});

    if (m > 0) {
        fns.push_back(Function{fn_name(RS_FN_PHI), {Output::vector(out(RS_FN_PHI, 0), sys.phi())},
                               "constraints phi(q, s, t)"});
        fns.push_back(Function{fn_name(RS_FN_PHI_Q), {Output::sparse(out(RS_FN_PHI_Q, 0), m, n, sys.phi_q())},
                               "constraint Jacobian d(phi)/dq, compressed columns"});
        if (ns > 0)
            fns.push_back(Function{"phi_s", {Output::dense("phi_s", m, ns, sys.phi_s())}, "d(phi)/ds"});
        fns.push_back(Function{fn_name(RS_FN_BETA), {Output::vector(out(RS_FN_BETA, 0), sys.beta())},
                               "velocity RHS: phi_q q' + phi_s s' = beta"});
        fns.push_back(Function{fn_name(RS_FN_GAMMA), {Output::vector(out(RS_FN_GAMMA, 0), sys.gamma())},
                               "acceleration RHS: phi_q q'' + phi_s s'' = gamma"});
    }

    fns.push_back(Function{fn_name(RS_FN_ENERGY),
                           {Output::scalar(out(RS_FN_ENERGY, 0), sys.kinetic_energy()),
                            Output::scalar(out(RS_FN_ENERGY, 1), sys.potential_energy())},
                           "kinetic and potential energy"});

    if (!sys.outputs().empty()) {
        std::vector<Ex> v;
        std::string doc = "user outputs:";
        for (const NamedEx &o : sys.outputs()) {
            v.push_back(o.value);
            doc += " " + o.name;
        }
        fns.push_back(Function{fn_name(RS_FN_OUTPUTS), {Output::vector(out(RS_FN_OUTPUTS, 0), v)}, doc});
    }
    return fns;
}

std::vector<codegen::Function> contact_functions(System &sys)
{
    using codegen::Function;
    using codegen::Output;
    std::vector<Function> fns;
    const ContactEquations e = sys.contact_equations();
    const int nc = e.n_contacts, n = e.n_coords;
    if (nc == 0) return fns;
    const std::vector<Ex> &phin = e.phi_n, &phin_q = e.phi_n_q, &gamn = e.gamma_n, &betn = e.beta_n,
                          &phid = e.phi_d, &phid_q = e.phi_d_q, &phid_s = e.phi_d_s, &betd = e.beta_d,
                          &nu = e.nu, &V = e.V, &radii = e.radii, &dnu = e.dnu_dqd, &ddf = e.ddelta_df;

    using codegen::fn_name;
    fns.push_back(Function{fn_name(RS_FN_DELTA_NK), {Output::vector("delta_nk", e.delta_nk)},
                           "delta with the creep force inputs (fx, fy, mz of every contact) set to zero"});
    fns.push_back(Function{"phi_n", {Output::vector("phi_n", phin)},
                           "normal contact constraints n_r . r(Pr->Pw), one per contact (a gap)"});
    fns.push_back(Function{"phi_n_qd", {Output::sparse("phi_n_qd", nc, n, phin_q)},
                           "d(phi_n)/dq = d(phi_n')/dq', contacts x coordinates"});
    fns.push_back(Function{"gamma_n", {Output::vector("gamma_n", gamn)},
                           "acceleration RHS of phi_n: phi_n_q q'' + phi_n_s s'' = gamma_n"});
    fns.push_back(Function{"beta_n", {Output::vector("beta_n", betn)},
                           "velocity RHS of phi_n: phi_n_q q' + phi_n_s s' = beta_n"});
    fns.push_back(Function{fn_name(RS_FN_PHI_D), {Output::vector("phi_d", phid)},
                           "tangential contact constraints, 4 per contact: tx_r.r, ty_r.r, tx_w.n_r, ty_w.n_r"});
    fns.push_back(Function{fn_name(RS_FN_PHI_D_Q), {Output::sparse("phi_d_q", 4 * nc, n, phid_q)},
                           "d(phi_d)/dq, 4 rows per contact"});
    fns.push_back(Function{fn_name(RS_FN_PHI_D_S), {Output::dense("phi_d_s", 4 * nc, 4, phid_s)},
                           "d(phi_d)/ds: the 4x4 diagonal block of each contact, stacked;\n"
                           "columns theta_w, u_w, s_r, u_r of that contact"});
    fns.push_back(Function{fn_name(RS_FN_BETA_D), {Output::vector("beta_d", betd)},
                           "velocity RHS of phi_d: phi_d_q q' + phi_d_s s' = beta_d"});
    fns.push_back(Function{"nu", {Output::vector("nu", nu)},
                           "creepage numerators, 3 per contact: v(Pw).tx_r, v(Pw).ty_r, omega.n_r"});
    fns.push_back(Function{"V", {Output::vector("V", V)},
                           "reference speed per contact: (|v(Ow)| + |omega x r(Ow->Pw)|)/2"});
    fns.push_back(Function{"radii", {Output::vector("radii", radii)},
                           "signed curvature radii, 3 per contact: wheel rolling Rx_w, wheel lateral Ry_w,\n"
                           "rail lateral Ry_r (positive convex; a straight profile gives +-inf)"});
    fns.push_back(Function{"ddelta_df", {Output::sparse("ddelta_df", n, 3 * nc, ddf)},
                           "d(delta)/d(fx, fy, mz): coordinates x 3 columns per contact"});
    fns.push_back(Function{"dnu_dqd", {Output::sparse("dnu_dqd", 3 * nc, n, dnu)},
                           "d(nu)/dq': 3 rows per contact x coordinates"});
    // creep: the outputs in the ABI table's order
    const std::vector<std::string> &co = codegen::fn_table()[RS_FN_CREEP].outputs;
    Function creep{fn_name(RS_FN_CREEP), {}, "nu, V, radii, ddelta_df, dnu_dqd in one call (atoms shared)"};
    for (const std::string &o : co) {
        if (o == "nu") creep.outputs.push_back(Output::vector(o, nu));
        else if (o == "V") creep.outputs.push_back(Output::vector(o, V));
        else if (o == "radii") creep.outputs.push_back(Output::vector(o, radii));
        else if (o == "ddelta_df") creep.outputs.push_back(Output::sparse(o, n, 3 * nc, ddf));
        else if (o == "dnu_dqd") creep.outputs.push_back(Output::sparse(o, 3 * nc, n, dnu));
        else throw std::logic_error("contact_functions: the ABI's creep output '" + o + "' is unknown here");
    }
    fns.push_back(creep);
    // wheel: the elastic mode's kinematics, outputs in the ABI table's order
    auto out = [](int id, size_t k) { return codegen::fn_table()[(size_t)id].outputs.at(k); };
    const WheelEquations w = sys.wheel_equations();
    fns.push_back(Function{fn_name(RS_FN_WHEEL),
                           {Output::vector(out(RS_FN_WHEEL, 0), w.pose), Output::vector(out(RS_FN_WHEEL, 1), w.vel),
                            Output::sparse(out(RS_FN_WHEEL, 2), 6 * nc, n, w.jac),
                            Output::vector(out(RS_FN_WHEEL, 3), w.geom)},
                           "elastic contact: per wheel O_w and R_ground_nsw (12), v(O_w) and omega (6),\n"
                           "d(v, omega)/dq' (6 rows per contact), r0 and rail offset (2)"});
    return fns;
}

codegen::Function params_function(System &sys)
{
    std::vector<Ex> p = sys.store().symbols_of(SymKind::Param);
    std::string doc = "dependent parameters from the others (the rest copied):";
    for (const auto &pe : sys.param_exprs()) {
        p.at((size_t)sys.store().sym(pe.first.id()).slot) = pe.second;
        doc += " " + sys.store().sym(pe.first.id()).name;
    }
    return codegen::Function{codegen::fn_name(RS_FN_PARAMS), {codegen::Output::vector("p", p)}, doc};
}

codegen::Function zdot_function(System &sys)
{
    std::vector<Ex> zd, dz;
    for (const NodeRate &n : node_rates(sys)) {
        zd.push_back(n.zdot);
        dz.push_back(n.dzdot_dz);
    }
    return codegen::Function{codegen::fn_name(RS_FN_ZDOT),
                             {codegen::Output::vector("zdot", zd), codegen::Output::vector("dzdot_dz", dz)},
                             "internal states: zdot = a(t, q, q') + b z per state, and b = d(zdot)/dz"};
}

codegen::Function inertia_function(System &sys)
{
    std::vector<Ex> mass, inertia;
    std::string doc = "mass and inertia (xx, yy, zz, xy, xz, yz) of the bodies whose values are parameters:";
    for (int b : sys.parameter_inertia_bodies()) {
        const Body &body = sys.bodies()[(size_t)b];
        mass.push_back(body.mass);
        const auto &m = body.inertia.m;
        for (Ex x : {m[0][0], m[1][1], m[2][2], m[0][1], m[0][2], m[1][2]}) inertia.push_back(x);
        doc += " " + body.name;
    }
    return codegen::Function{codegen::fn_name(RS_FN_INERTIA),
                             {codegen::Output::vector("mass", mass), codegen::Output::vector("inertia", inertia)},
                             doc};
}

codegen::Function body_pose_function(System &sys)
{
    std::vector<Ex> pose;
    std::string doc = "per body its centre of mass in ground (3) and R_ground_body row-major (9):";
    for (const Body &body : sys.bodies()) {
        const V3 r = sys.points().position(PointTree::kOrigin, body.cg, BaseTree::kGround);
        const M3 R = sys.bases().rotation(body.base, BaseTree::kGround);   // columns: the body's axes
        for (int k = 0; k < 3; ++k) pose.push_back(r[k]);
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) pose.push_back(R[i][k]);
        doc += " " + body.name;
    }
    return codegen::Function{codegen::fn_name(RS_FN_BODY_POSE), {codegen::Output::vector("pose", pose)}, doc};
}

codegen::Function power_function(System &sys)
{
    return codegen::Function{codegen::fn_name(RS_FN_POWER), {codegen::Output::vector("power", power_terms(sys))},
                             "energy-balance power terms: inputs, damping (dissipated), creep (dissipated),\n"
                             "other (position forces V misses): d(T+V)/dt = inputs - damping - creep + other"};
}

codegen::Function force_jacobian_function(System &sys)
{
    std::vector<Ex> K, C;
    force_jacobians(sys, K, C);
    const int n = (int)sys.coords().size();
    codegen::Function f{codegen::fn_name(RS_FN_DELTA_JAC), {},
                        "force Jacobians K = -d(delta)/dq, C = -d(delta)/dq' (inputs and s held fixed)"};
    f.outputs.push_back(codegen::Output::sparse("K", n, n, K));
    f.outputs.push_back(codegen::Output::sparse("C", n, n, C));
    return f;
}

}  // namespace railsym
