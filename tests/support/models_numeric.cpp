// models_numeric.cpp — random states, evaluation and small dense linear algebra for the modeler tests.
#include "models.hpp"

#include <cmath>

namespace railsym {
namespace models {

SymValues random_state(System &sys, std::mt19937 &rng)
{
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    SymValues x = sys.defaults();
    Store &st = sys.store();
    for (SymKind k : {SymKind::Coord, SymKind::Vel, SymKind::Acc, SymKind::Aux, SymKind::AuxVel, SymKind::AuxAcc})
        for (int i = 0; i < st.count(k); ++i) x.set(k, i, u(rng));
    x.set(SymKind::Time, 0, u(rng));
    return x;
}

std::vector<double> eval(System &sys, const std::vector<Ex> &v, const SymValues &x)
{
    return sys.store().eval(v, x);
}

std::vector<double> solve(std::vector<double> A, std::vector<double> b, int n)
{
    for (int c = 0; c < n; ++c) {
        int p = c;
        for (int r = c + 1; r < n; ++r)
            if (std::fabs(A[r * n + c]) > std::fabs(A[p * n + c])) p = r;
        for (int j = 0; j < n; ++j) std::swap(A[c * n + j], A[p * n + j]);
        std::swap(b[c], b[p]);
        for (int r = c + 1; r < n; ++r) {
            double f = A[r * n + c] / A[c * n + c];
            for (int j = c; j < n; ++j) A[r * n + j] -= f * A[c * n + j];
            b[r] -= f * b[c];
        }
    }
    std::vector<double> x(n);
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int j = r + 1; j < n; ++j) s -= A[r * n + j] * x[j];
        x[r] = s / A[r * n + r];
    }
    return x;
}

bool positive_definite(const std::vector<double> &A, int n)
{
    std::vector<double> L(A.size(), 0.0);
    for (int j = 0; j < n; ++j) {
        double d = A[j * n + j];
        for (int k = 0; k < j; ++k) d -= L[j * n + k] * L[j * n + k];
        if (!(d > 0)) return false;
        L[j * n + j] = std::sqrt(d);
        for (int i = j + 1; i < n; ++i) {
            double s = A[i * n + j];
            for (int k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
            L[i * n + j] = s / L[j * n + j];
        }
    }
    return true;
}

}  // namespace models
}  // namespace railsym
