// codegen_impl.hpp — private helpers shared by the codegen/*.cpp files.
#ifndef RAILSYM_CODEGEN_IMPL_HPP
#define RAILSYM_CODEGEN_IMPL_HPP

#include <string>
#include <vector>

#include "codegen.hpp"

namespace railsym {
namespace codegen {
namespace detail {

// True for the operation nodes that take two operands (a and b).
bool is_binary(Op op);
// True for Num and Sym, the leaves that are written inline, never as atoms.
inline bool is_leaf(Op op) { return op == Op::Num || op == Op::Sym; }

// Every node id the outputs of f reach (leaves included), ascending, which is
// dependency order; atoms in f.cached are included but not their operands
// (unless reached otherwise).  Checks the invariants code generation relies on and
// throws std::logic_error when one is broken: every output entry is a valid
// Ex of this store, every operand id exists and is smaller than its atom's,
// and every Pow exponent is a number.  Also checks the output shapes
// (std::invalid_argument).
std::vector<int> needed_nodes(const Store &st, const Function &f);

// The op count of the given nodes (as needed_nodes returns them).
OpCount count_nodes(const Store &st, const std::vector<int> &nodes);
// The op count of f, given its needed_nodes: atoms f reads from its cache
// (Function::cached) are not counted.
OpCount count_function(const Store &st, const Function &f, const std::vector<int> &needed);

// Checks that the sizes of an output match its shape and that a sparse
// pattern is a valid compressed-column pattern; throws std::invalid_argument.
void check_output_shape(const Output &o, const std::string &fn_name);

// The C name of a function node (sin, ..., fabs) or "pow" for Pow.
const char *c_call_name(Op op);

}  // namespace detail
}  // namespace codegen
}  // namespace railsym

#endif
