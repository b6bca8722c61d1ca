// stepfn.hpp — combined functions: what one IMEX step evaluates at one state,
// in one atom set, so atoms shared between the separate functions are
// computed once (seed 003 §6's "reuse of atoms common to different exported
// functions"; docs/performance.md).
//
// step_functions() builds them from a model's finished function list (after
// constant hoisting, so they read the same k slots), as plain concatenations
// of outputs of the separate functions; code generation then evaluates each
// atom they reach once.  The separate functions stay in the list, for tools,
// tests and the runtime's other uses.
//
//   "step"      the start of an IMEX step, at (t, q, q̇, s, ṡ, u):
//               M (sparse), δ^NK (δ without contacts), φ_q (sparse), γ,
//               and with contacts creep's ν, V, radii, ∂δ/∂f, ∂ν/∂q̇.
//               By virtual power ∂δ/∂f = (∂ν/∂q̇)ᵀ (the creep forces act at
//               the wheel's material point P_w along t_x^r, t_y^r, n^r, and ν
//               is that point's velocity along the same vectors), so step
//               writes ∂δ/∂f from ∂ν/∂q̇'s atoms — after checking the
//               identity numerically at three random states (a model where
//               it fails keeps creep's own ∂δ/∂f atoms)
//   "proj"      (contacts only) the end of a step, at the converged contact
//               point: φ^d, φ, φ_q (sparse), β, φ^d_s, φ^d_q, β^d — the
//               convergence checks, the velocity projection and the ṡ
//               equation
//   "newton"    (contacts only) one contact-point Newton iteration: φ^d and
//               φ^d_s
//   "step_cached" (contacts only, when worth it) step's outputs, with the
//               atoms step shares with proj that depend on position-level
//               symbols only (q, s, p, k and `static_inputs`: the spline
//               coefficient slots the runtime fills from s) read from a
//               cache instead of computed: proj then has one more output,
//               "cache", the frontier of those atoms (Function::cached),
//               which the runtime passes to step_cached in RS_IN_CACHE
//               when the next step starts at the same q and s
//   "step_elastic" (contacts) the start of an IMEX step of the elastic
//               contact (the runtime's view without the normal constraints):
//               M (sparse), δ^NK, and the wheel function's pose, velocity,
//               velocity Jacobian (sparse) and geometry
// Output names are "<function>.<output>" of the functions they come from.
#ifndef RAILSYM_STEPFN_HPP
#define RAILSYM_STEPFN_HPP

#include <vector>

#include "codegen.hpp"

namespace railsym {
namespace codegen {

// The combined functions of `fns` (see above), in the order step, proj,
// newton, step_cached, step_elastic; empty when fns lacks M or δ.  `defaults` gives the parameter
// values of the numerical check (the constants function, when fns has one,
// turns them into the k slots).  Throws std::invalid_argument when a
// function it needs lacks the output it takes.
std::vector<Function> step_functions(const Store &st, const std::vector<Function> &fns,
                                     const SymValues &defaults,
                                     const std::vector<int> &static_inputs = {});

}  // namespace codegen
}  // namespace railsym

#endif
