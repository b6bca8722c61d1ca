// demo_rotations.cpp — the no-swell example: the product of N rotation
// matrices about x, y, z in turn, atomized.  Prints the op-count table for
// N = 10 … 60 and the Jacobian of the 60-product, then the generated C:
// written to DIR/rotations.{c,h} when a folder is given
// (demo_rotations [DIR]), otherwise summarized on stdout.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "atoms.hpp"
#include "codegen.hpp"
#include "rotations.hpp"

using namespace railsym;
using namespace railsym::codegen;

int main(int argc, char **argv) {
    if (argc > 2 || (argc == 2 && std::string(argv[1]) == "--help")) {
        std::fprintf(stderr, "usage: %s [DIR]   (writes DIR/rotations.c and DIR/rotations.h)\n", argv[0]);
        return 2;
    }
    Store st;
    const int nmax = 60;
    auto P = testsupport::rotation_products(st, nmax);

    std::vector<Function> fns;
    for (int n = 10; n <= nmax; n += 10)
        fns.push_back(Function{"R" + std::to_string(n), {Output::dense("R", 3, 3, P[n - 1])},
                               "product of " + std::to_string(n) + " rotations about x, y, z in turn"});
    std::vector<Ex> J;   // ∂R60/∂θ_k, 9 x 60
    for (const Ex &e : P[nmax - 1])
        for (int k = 1; k <= nmax; ++k) J.push_back(st.diff(e, st.find_symbol("th" + std::to_string(k))));
    fns.push_back(Function{"dR60", {Output::dense("J", 9, nmax, J)},
                           "derivatives of the entries of R60 (row-major) with respect to th1..th60"});

    std::vector<std::pair<std::string, OpCount>> rows;
    for (const Function &f : fns) rows.emplace_back(f.name, count_ops(st, f));
    std::printf("Product of N elementary rotations (axes x, y, z in turn, one angle each),\n"
                "built with hash-consed atoms.  Atoms grow linearly in N; GiNaC's expand()\n"
                "of the same product grows like the Fibonacci numbers (see make bench).\n\n");
    std::printf("%s\n", ops_table(rows).c_str());

    GeneratedCode code = generate_c(st, "rotations", fns);
    if (argc == 2) {
        const std::string dir = argv[1];
        std::ofstream(dir + "/rotations.c") << code.source;
        std::ofstream(dir + "/rotations.h") << code.header;
        std::printf("wrote %s/rotations.c (%zu bytes) and %s/rotations.h\n", dir.c_str(), code.source.size(),
                    dir.c_str());
        return 0;
    }
    std::printf("generated C: %zu bytes of source, %zu of header; the start of rotations_R10:\n\n",
                code.source.size(), code.header.size());
    std::istringstream src(code.source.substr(code.source.find("\n/*\n * rotations_R10")));
    std::string line;
    for (int i = 0; i < 32 && std::getline(src, line); ++i) std::printf("%s\n", line.c_str());
    std::printf("    ...\n");
    return 0;
}
