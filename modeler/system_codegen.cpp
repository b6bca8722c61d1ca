// system_codegen.cpp — a System's equations as codegen::Function sets.
//
// Function names (fixed: tests, the CLI and the runtime rely on them):
//   M        outputs M (dense n×n, row-major) and M_sparse (compressed columns)
//   delta    δ (n)
//   phi, phi_q (dense + phi_q_sparse), phi_s, beta, gamma   when there are constraints
//   energy   kinetic, potential (scalars)
//   outputs  one scalar per user output, by its name
#include "codegen.hpp"
#include "system.hpp"

namespace railsym {

std::vector<codegen::Function> System::functions()
{
    using codegen::Function;
    using codegen::Output;
    std::vector<Function> fns;
    const int n = (int)coords().size();
    const int m = (int)constraints_.size();
    const int ns = (int)auxs().size();

    Function fm{"M", {}, "mass matrix M = dE/dq'' (M q'' = delta)"};
    fm.outputs.push_back(Output::dense("M", n, n, mass_matrix()));
    fm.outputs.push_back(Output::sparse("M_sparse", n, n, mass_matrix()));
    fns.push_back(fm);

    Function fd{"delta", {}, "generalized forces delta = -E(q'' = 0)"};
    fd.outputs.push_back(Output::vector("delta", delta()));
    fns.push_back(fd);

    if (m > 0) {
        fns.push_back(Function{"phi", {Output::vector("phi", phi())}, "constraints phi(q, s, t)"});
        std::vector<Ex> pq = phi_q();
        Function fq{"phi_q", {}, "constraint Jacobian d(phi)/dq"};
        fq.outputs.push_back(Output::dense("phi_q", m, n, pq));
        fq.outputs.push_back(Output::sparse("phi_q_sparse", m, n, pq));
        fns.push_back(fq);
        if (ns > 0)
            fns.push_back(Function{"phi_s", {Output::dense("phi_s", m, ns, phi_s())}, "d(phi)/ds"});
        fns.push_back(Function{"beta", {Output::vector("beta", beta())}, "velocity RHS: phi_q q' + phi_s s' = beta"});
        fns.push_back(Function{"gamma", {Output::vector("gamma", gamma())},
                               "acceleration RHS: phi_q q'' + phi_s s'' = gamma"});
    }

    Function fe{"energy", {}, "kinetic and potential energy"};
    fe.outputs.push_back(Output::scalar("kinetic", kinetic_energy()));
    fe.outputs.push_back(Output::scalar("potential", potential_energy()));
    fns.push_back(fe);

    if (!outputs_.empty()) {
        Function fo{"outputs", {}, "user outputs"};
        for (const NamedEx &o : outputs_) fo.outputs.push_back(Output::scalar(o.name, o.value));
        fns.push_back(fo);
    }
    return fns;
}

}  // namespace railsym
