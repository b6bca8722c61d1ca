// inertia_check.hpp — is a body's mass and inertia tensor physically
// possible?  For the values known when a model is compiled (literal numbers):
// a mass must be positive, an inertia tensor symmetric, its principal
// moments (eigenvalues) non-negative, and each at most the sum of the other
// two (triangle inequality: A + B >= C, since A = ∫(y²+z²)dm, ... so that
// A + B - C = 2∫z²dm >= 0).
#ifndef RAILSYM_INERTIA_CHECK_HPP
#define RAILSYM_INERTIA_CHECK_HPP

#include <array>
#include <string>

namespace railsym {

using Mat3d = std::array<std::array<double, 3>, 3>;

// The eigenvalues of the symmetric matrix m (its upper triangle is used),
// ascending, by cyclic Jacobi rotations (at most 50 sweeps; a 3×3 converges
// in a handful).
std::array<double, 3> principal_moments(const Mat3d &m);

// "" when a body of this inertia (kg m², about the centre of mass) can
// exist; else the reason and the fix, for a message.  triangle false skips
// the triangle inequality (a description's `inertia_unchecked`).
std::string inertia_problem(const Mat3d &m, bool triangle = true);

// "" for a positive finite mass; else the reason and the fix.
std::string mass_problem(double mass);

}  // namespace railsym

#endif
