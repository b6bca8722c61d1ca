// force_jacobians.hpp — exact Jacobians of the generalized forces δ of a
// System, for implicit integrators that linearize M q̈ = δ(q, q̇, t) about a
// predicted state (the Park method of the train mode, seed 000 §2.2):
//
//     K = −∂δ/∂q      C = −∂δ/∂q̇        (n × n each)
//
// by atomized differentiation of δ (Store::diff, memoized per atom and
// symbol), so they include everything δ holds: gravity, springs, dampers,
// bushings, written forces and the velocity terms of the inertia forces.
// Inputs u (creep force symbols, traction, spline coefficients) and auxiliary
// coordinates s are held fixed: their effects are not part of K or C.
#ifndef RAILSYM_FORCE_JACOBIANS_HPP
#define RAILSYM_FORCE_JACOBIANS_HPP

#include "system.hpp"

namespace railsym {

// K and C, row-major n × n (as sparse generated outputs:
// force_jacobian_function, codegen/model_functions.hpp); K = −∂δ/∂q, C = −∂δ/∂q̇ (positive for a spring
// or a damper pulling back).
void force_jacobians(System &sys, std::vector<Ex> &K, std::vector<Ex> &C);

}  // namespace railsym

#endif
