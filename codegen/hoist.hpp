// hoist.hpp — constant hoisting: atoms that depend on parameters only move
// out of the per-step functions into one `constants` function.
//
// A parameter sweep changes p between runs, never during one, so every atom
// whose value depends on parameters (and numbers) only is the same at every
// step.  hoist_constants() finds the largest such sub-expressions the
// functions use (the "frontier": constant atoms that are an operand of a
// non-constant atom, or an output entry themselves), gives each a symbol of
// kind Const (slot i of the RS_IN_CONST input, "k[i]" in C), substitutes those
// symbols into every function, and returns the function `constants` that
// computes k from p.  The runtime runs it when parameters change
// (rs_ws_update_constants), so the step reads k instead of recomputing.
#ifndef RAILSYM_HOIST_HPP
#define RAILSYM_HOIST_HPP

#include <vector>

#include "codegen.hpp"

namespace railsym {
namespace codegen {

// Rewrites `fns` in place and returns the `constants` function (output "k",
// a vector of Store::count(SymKind::Const) entries in slot order).  Call it
// once per model, after all functions are built.  Functions named
// "constants" are left alone.
Function hoist_constants(Store &st, std::vector<Function> &fns);

}  // namespace codegen
}  // namespace railsym

#endif
