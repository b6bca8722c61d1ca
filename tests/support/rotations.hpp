// rotations.hpp — the "no swell" example shared by the codegen test, the
// benchmark and the demo: the product R1·R2·…·RN of elementary rotation
// matrices about the axes x, y, z in turn, each by its own angle symbol
// (a coordinate th1, th2, ...).  Header-only so every program can use it
// without a link dependency.
#ifndef RAILSYM_TESTS_ROTATIONS_HPP
#define RAILSYM_TESTS_ROTATIONS_HPP

#include <string>
#include <vector>

#include "atoms.hpp"

namespace railsym {
namespace testsupport {

// The elementary rotation about axis (0 = x, 1 = y, 2 = z) by angle a, as a
// row-major 3x3 matrix of atoms (zeros and ones are the store's numbers).
inline std::vector<Ex> elementary_rotation(Store &st, int axis, Ex a) {
    Ex c = cos(a), s = sin(a), o = st.one(), z = st.zero();
    switch (axis) {
    case 0: return {o, z, z, z, c, -s, z, s, c};
    case 1: return {c, z, s, z, o, z, -s, z, c};
    default: return {c, -s, z, s, c, z, z, z, o};
    }
}

inline std::vector<Ex> mat3_mul(const std::vector<Ex> &A, const std::vector<Ex> &B) {
    std::vector<Ex> C(9);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            Ex sum = A[3 * i] * B[j];
            for (int k = 1; k < 3; ++k) sum = sum + A[3 * i + k] * B[3 * k + j];
            C[3 * i + j] = sum;
        }
    return C;
}

// The products P_1 … P_nmax (P_N = R_1 ⋯ R_N, axis of R_i = (i−1) mod 3),
// each row-major 3x3, built in one store so P_N reuses P_{N−1}.
inline std::vector<std::vector<Ex>> rotation_products(Store &st, int nmax) {
    std::vector<std::vector<Ex>> out;
    std::vector<Ex> P;
    for (int i = 1; i <= nmax; ++i) {
        std::vector<Ex> R = elementary_rotation(st, (i - 1) % 3, st.coordinate("th" + std::to_string(i)));
        P = (i == 1) ? R : mat3_mul(P, R);
        out.push_back(P);
    }
    return out;
}

}  // namespace testsupport
}  // namespace railsym

#endif
