// bench_atoms.cpp — figures of the atom store and the code generator.
//
//   atoms.created_per_s        atoms created per second (rotation chain and its derivatives)
//   codegen.time_s             generate_c of a big function (Jacobian of the 60-rotation product)
//   codegen.atoms              atoms of that function
//   rotations60.atoms / .ops   atoms and operations of the 60-rotation product
//   rotations_ginac.*          the contrast: the same product built with GiNaC and expand()ed,
//                              for the largest N whose expand() stays under half a second
// A benchmark prints figures; it never fails on time.
#include <chrono>
#include <cstdio>
#include <string>

#include <ginac/ginac.h>

#include "atoms.hpp"
#include "codegen.hpp"
#include "rotations.hpp"

using namespace railsym;
using namespace railsym::codegen;
using Clock = std::chrono::steady_clock;

static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Terms of the expanded entries of the N-rotation product built with GiNaC.
static long ginac_expand_terms(int n, double *expand_s) {
    using namespace GiNaC;
    matrix P = ex_to<matrix>(unit_matrix(3));
    for (int i = 1; i <= n; ++i) {
        symbol th("th" + std::to_string(i));
        ex c = cos(th), s = sin(th);
        matrix R = (i - 1) % 3 == 0   ? matrix{{1, 0, 0}, {0, c, -s}, {0, s, c}}
                   : (i - 1) % 3 == 1 ? matrix{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
                                      : matrix{{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
        P = P.mul(R);
    }
    Clock::time_point t0 = Clock::now();
    long terms = 0;
    for (unsigned i = 0; i < 3; ++i)
        for (unsigned j = 0; j < 3; ++j) {
            ex e = P(i, j).expand();
            terms += is_a<add>(e) ? (long)e.nops() : (e.is_zero() ? 0 : 1);
        }
    *expand_s = seconds_since(t0);
    return terms;
}

int main() {
    // Atoms created per second: a long rotation chain, then the derivatives
    // of its last row with respect to some angles (diff creates atoms too).
    {
        Store st;
        const int before = st.size();
        Clock::time_point t0 = Clock::now();
        auto P = testsupport::rotation_products(st, 3000);
        const std::vector<Ex> &R = P.back();
        for (int k = 1; k <= 3000; k += 150)
            for (int j = 6; j < 9; ++j) st.diff(R[j], st.find_symbol("th" + std::to_string(k)));
        const double dt = seconds_since(t0);
        std::printf("BENCH atoms.created_per_s %.0f 1/s\n", (st.size() - before) / dt);
        std::printf("BENCH atoms.created %d atoms\n", st.size() - before);
    }
    // The 60-rotation product and the generation of its Jacobian.
    {
        Store st;
        auto P = testsupport::rotation_products(st, 60);
        Function rot{"R60", {Output::dense("R", 3, 3, P.back())}, ""};
        OpCount c = count_ops(st, rot);
        std::printf("BENCH rotations60.atoms %ld atoms\n", c.atoms);
        std::printf("BENCH rotations60.ops %ld ops\n", c.total());

        std::vector<Ex> J;
        for (const Ex &e : P.back())
            for (int k = 1; k <= 60; ++k) J.push_back(st.diff(e, st.find_symbol("th" + std::to_string(k))));
        Function jac{"dR60", {Output::dense("J", 9, 60, J)}, ""};
        Clock::time_point t0 = Clock::now();
        GeneratedCode code = generate_c(st, "bench", {rot, jac});
        const double gen_s = seconds_since(t0);
        std::printf("BENCH codegen.time_s %.4f s\n", gen_s);
        std::printf("BENCH codegen.atoms %ld atoms\n", count_ops(st, jac).atoms);
        std::printf("BENCH codegen.source_bytes %zu bytes\n", code.source.size());
    }
    // The contrast: GiNaC's expand() on the same product, N growing until one
    // expand() takes half a second.  Terms grow like Fibonacci numbers (about
    // 1.6^N); atoms grow linearly.
    {
        int n = 0;
        long terms = 0;
        double expand_s = 0;
        for (int k = 4; k <= 60; ++k) {
            double s = 0;
            long t = ginac_expand_terms(k, &s);
            n = k;
            terms = t;
            expand_s = s;
            if (s > 0.5) break;
        }
        Store st;
        auto P = testsupport::rotation_products(st, n);
        OpCount c = count_ops(st, Function{"R", {Output::dense("R", 3, 3, P.back())}, ""});
        std::printf("BENCH rotations_ginac.n %d rotations\n", n);
        std::printf("BENCH rotations_ginac.expand_terms %ld terms\n", terms);
        std::printf("BENCH rotations_ginac.expand_s %.4f s\n", expand_s);
        std::printf("BENCH rotations_ginac.atoms %ld atoms\n", c.atoms);
    }
    return 0;
}
