// bench_chain.cpp — operation counts of M and δ for the N-link spatial chain
// (tests/support/models_linkage.cpp), beside the published operation counts
// of Featherstone's recursive algorithms for an N-joint revolute chain.
//
// Prints, for N in {1, 2, 5, 10, 20, 30}:
//   BENCH chain<N>.ops_m / ops_delta        operations (+ − × ÷ and calls) of the generated M and δ
//   BENCH chain<N>.atoms_m / atoms_delta    atoms evaluated by each
//   BENCH chain<N>.featherstone_crba_ops    composite-rigid-body algorithm, M only
//   BENCH chain<N>.featherstone_rnea_ops    recursive Newton-Euler, one inverse-dynamics call (δ)
//   BENCH chain<N>.build_s                  symbolic time to build the system and M, δ
//
// Featherstone's per-chain costs are those tabulated in R. Featherstone and
// D. Orin, "Robot dynamics: equations and algorithms", IEEE ICRA 2000
// (Table: cost of the RNEA, CRBA and ABA for a general n-joint serial robot
// with revolute joints), also in R. Featherstone, "Rigid Body Dynamics
// Algorithms", Springer 2008, ch. 10:
//   RNEA: (93n − 69) multiplications + (81n − 66) additions
//   CRBA: (10n² + 22n − 32) multiplications + (6n² + 37n − 43) additions
// Those are hand-optimized numeric algorithms with symbolic constants folded;
// ours are generated from the general virtual-power formulation with every
// inertia entry a run-time parameter.
#include <chrono>
#include <cstdio>

#include "codegen.hpp"
#include "models.hpp"

using namespace railsym;

int main()
{
    for (int N : {1, 2, 5, 10, 20, 30}) {
        auto t0 = std::chrono::steady_clock::now();
        auto s = models::chain(N);
        codegen::Function fm{"M", {codegen::Output::dense("M", N, N, s->mass_matrix())}, ""};
        codegen::Function fd{"delta", {codegen::Output::vector("delta", s->delta())}, ""};
        double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        codegen::OpCount cm = codegen::count_ops(s->store(), fm), cd = codegen::count_ops(s->store(), fd);
        long n = N;
        long crba = (10 * n * n + 22 * n - 32) + (6 * n * n + 37 * n - 43);
        long rnea = (93 * n - 69) + (81 * n - 66);
        if (crba < 0) crba = 0;   // the formulas are meant for n >= 2
        if (rnea < 0) rnea = 0;
        std::printf("BENCH chain%d.ops_m %ld ops\n", N, cm.total());
        std::printf("BENCH chain%d.atoms_m %ld atoms\n", N, cm.atoms);
        std::printf("BENCH chain%d.ops_delta %ld ops\n", N, cd.total());
        std::printf("BENCH chain%d.atoms_delta %ld atoms\n", N, cd.atoms);
        std::printf("BENCH chain%d.featherstone_crba_ops %ld ops\n", N, crba);
        std::printf("BENCH chain%d.featherstone_rnea_ops %ld ops\n", N, rnea);
        std::printf("BENCH chain%d.build_s %.4f s\n", N, build);
    }
    return 0;
}
