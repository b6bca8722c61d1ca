// model_functions.hpp — the generated functions of a model: a System's
// equations (modeler/mechanics) packed as codegen::Function sets.
//
// Function names and output order are a contract with the runtime (the
// RS_FN_* ids of abi/rs_model.h, docs/contact_element.md):
//   model_functions    M (dense and M_sparse), delta, phi, phi_q (dense and
//                      phi_q_sparse), phi_s, beta, gamma (with constraints),
//                      energy (kinetic, potential), outputs (user outputs)
//   contact_functions  delta_nk, phi_n, phi_n_qd, gamma_n, beta_n, phi_d,
//                      phi_d_q, phi_d_s, beta_d, nu, V, radii, ddelta_df,
//                      dnu_dqd, and `creep` (the last five in one function);
//                      empty without contacts
//   power_function     "power": the energy balance's four terms (power.hpp)
//   force_jacobian_function  "delta_jac": K = −∂δ/∂q, C = −∂δ/∂q̇, sparse
//                      (force_jacobians.hpp)
#ifndef RAILSYM_MODEL_FUNCTIONS_HPP
#define RAILSYM_MODEL_FUNCTIONS_HPP

#include <vector>

#include "codegen.hpp"
#include "system.hpp"

namespace railsym {

std::vector<codegen::Function> model_functions(System &sys);
std::vector<codegen::Function> contact_functions(System &sys);
codegen::Function power_function(System &sys);
// "params" (RS_FN_PARAMS): every parameter, the dependent ones from their
// expressions (System::param_exprs); only for models that have one.
codegen::Function params_function(System &sys);
// "zdot": the internal states' rates ż and ∂ż_i/∂z_i (forces.hpp NodeRate),
// for a model with series branches (rs_model.h RS_FN_ZDOT).
codegen::Function zdot_function(System &sys);
// "inertia" (RS_FN_INERTIA): mass and the six components (xx, yy, zz, xy,
// xz, yz, in the base the description gives them) of each body of
// System::parameter_inertia_bodies(), from the parameters alone; only for
// models that have such a body.
codegen::Function inertia_function(System &sys);
// "body_pose" (RS_FN_BODY_POSE): every body's centre of mass and rotation
// matrix R_ground_body in ground, 12 per body in System::bodies()' order,
// from q and p; for results only (track-relative columns), never in a step.
codegen::Function body_pose_function(System &sys);
codegen::Function force_jacobian_function(System &sys);

}  // namespace railsym

#endif
