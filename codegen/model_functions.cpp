// model_functions.cpp — a System's equations as the codegen::Function sets
// of model_functions.hpp.
//
// Function names (fixed: tests, the CLI and the runtime rely on them):
//   M        outputs M (dense n×n, row-major) and M_sparse (compressed columns)
//   delta    δ (n)
//   phi, phi_q (dense + phi_q_sparse), phi_s, beta, gamma   when there are constraints
//   energy   kinetic, potential (scalars)
//   outputs  one scalar per user output, by its name
#include "model_functions.hpp"

#include "force_jacobians.hpp"
#include "power.hpp"

namespace railsym {

std::vector<codegen::Function> model_functions(System &sys)
{
    using codegen::Function;
    using codegen::Output;
    std::vector<Function> fns;
    const int n = (int)sys.coords().size();
    const int m = (int)sys.constraints().size();
    const int ns = (int)sys.auxs().size();

    Function fm{"M", {}, "mass matrix M = dE/dq'' (M q'' = delta)"};
    fm.outputs.push_back(Output::dense("M", n, n, sys.mass_matrix()));
    fm.outputs.push_back(Output::sparse("M_sparse", n, n, sys.mass_matrix()));
    fns.push_back(fm);

    Function fd{"delta", {}, "generalized forces delta = -E(q'' = 0)"};
    fd.outputs.push_back(Output::vector("delta", sys.delta()));
    fns.push_back(fd);

    if (m > 0) {
        fns.push_back(Function{"phi", {Output::vector("phi", sys.phi())}, "constraints phi(q, s, t)"});
        std::vector<Ex> pq = sys.phi_q();
        Function fq{"phi_q", {}, "constraint Jacobian d(phi)/dq"};
        fq.outputs.push_back(Output::dense("phi_q", m, n, pq));
        fq.outputs.push_back(Output::sparse("phi_q_sparse", m, n, pq));
        fns.push_back(fq);
        if (ns > 0)
            fns.push_back(Function{"phi_s", {Output::dense("phi_s", m, ns, sys.phi_s())}, "d(phi)/ds"});
        fns.push_back(Function{"beta", {Output::vector("beta", sys.beta())}, "velocity RHS: phi_q q' + phi_s s' = beta"});
        fns.push_back(Function{"gamma", {Output::vector("gamma", sys.gamma())},
                               "acceleration RHS: phi_q q'' + phi_s s'' = gamma"});
    }

    Function fe{"energy", {}, "kinetic and potential energy"};
    fe.outputs.push_back(Output::scalar("kinetic", sys.kinetic_energy()));
    fe.outputs.push_back(Output::scalar("potential", sys.potential_energy()));
    fns.push_back(fe);

    if (!sys.outputs().empty()) {
        Function fo{"outputs", {}, "user outputs"};
        for (const NamedEx &o : sys.outputs()) fo.outputs.push_back(Output::scalar(o.name, o.value));
        fns.push_back(fo);
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

    fns.push_back(Function{"delta_nk", {Output::vector("delta_nk", e.delta_nk)},
                           "delta with the creep force inputs (fx, fy, mz of every contact) set to zero"});
    fns.push_back(Function{"phi_n", {Output::vector("phi_n", phin)},
                           "normal contact constraints n_r . r(Pr->Pw), one per contact (a gap)"});
    fns.push_back(Function{"phi_n_qd", {Output::sparse("phi_n_qd", nc, n, phin_q)},
                           "d(phi_n)/dq = d(phi_n')/dq', contacts x coordinates"});
    fns.push_back(Function{"gamma_n", {Output::vector("gamma_n", gamn)},
                           "acceleration RHS of phi_n: phi_n_q q'' + phi_n_s s'' = gamma_n"});
    fns.push_back(Function{"beta_n", {Output::vector("beta_n", betn)},
                           "velocity RHS of phi_n: phi_n_q q' + phi_n_s s' = beta_n"});
    fns.push_back(Function{"phi_d", {Output::vector("phi_d", phid)},
                           "tangential contact constraints, 4 per contact: tx_r.r, ty_r.r, tx_w.n_r, ty_w.n_r"});
    fns.push_back(Function{"phi_d_q", {Output::sparse("phi_d_q", 4 * nc, n, phid_q)},
                           "d(phi_d)/dq, 4 rows per contact"});
    fns.push_back(Function{"phi_d_s", {Output::dense("phi_d_s", 4 * nc, 4, phid_s)},
                           "d(phi_d)/ds: the 4x4 diagonal block of each contact, stacked;\n"
                           "columns theta_w, u_w, s_r, u_r of that contact"});
    fns.push_back(Function{"beta_d", {Output::vector("beta_d", betd)},
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
    Function creep{"creep", {}, "nu, V, radii, ddelta_df, dnu_dqd in one call (atoms shared)"};
    creep.outputs.push_back(Output::vector("nu", nu));
    creep.outputs.push_back(Output::vector("V", V));
    creep.outputs.push_back(Output::vector("radii", radii));
    creep.outputs.push_back(Output::sparse("ddelta_df", n, 3 * nc, ddf));
    creep.outputs.push_back(Output::sparse("dnu_dqd", 3 * nc, n, dnu));
    fns.push_back(creep);
    return fns;
}

codegen::Function power_function(System &sys)
{
    return codegen::Function{"power", {codegen::Output::vector("power", power_terms(sys))},
                             "energy-balance power terms: inputs, damping (dissipated), creep (dissipated),\n"
                             "other (position forces V misses): d(T+V)/dt = inputs - damping - creep + other"};
}

codegen::Function force_jacobian_function(System &sys)
{
    std::vector<Ex> K, C;
    force_jacobians(sys, K, C);
    const int n = (int)sys.coords().size();
    codegen::Function f{"delta_jac", {},
                        "force Jacobians K = -d(delta)/dq, C = -d(delta)/dq' (inputs and s held fixed)"};
    f.outputs.push_back(codegen::Output::sparse("K", n, n, K));
    f.outputs.push_back(codegen::Output::sparse("C", n, n, C));
    return f;
}

}  // namespace railsym
