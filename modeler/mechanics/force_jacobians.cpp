// force_jacobians.cpp — see force_jacobians.hpp.
#include "force_jacobians.hpp"

namespace railsym {

void force_jacobians(System &sys, std::vector<Ex> &K, std::vector<Ex> &C)
{
    const std::vector<Ex> q = sys.coords();
    const std::vector<Ex> &d = sys.delta();
    const size_t n = q.size();
    Store &st = sys.store();
    std::vector<Ex> qd;
    for (const Ex &x : q) qd.push_back(sys.vel(x));
    K.assign(n * n, Ex());
    C.assign(n * n, Ex());
    // Row by row, columns ascending: a fixed order of differentiation, so the
    // atoms (and the generated text) are the same on every compile.
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            K[i * n + j] = st.neg(st.diff(d[i], q[j]));
            C[i * n + j] = st.neg(st.diff(d[i], qd[j]));
        }
}

}  // namespace railsym
