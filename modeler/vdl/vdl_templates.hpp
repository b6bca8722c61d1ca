// vdl_templates.hpp — template expansion: `use T inst(args)` becomes T's
// statements with every name declared inside T prefixed by the instance
// ("inst.y", nested: "front.ws1.y"), template parameters replaced by the
// argument expressions, and every other name left alone (it refers to the
// enclosing scope: the instance's parent, ultimately the top level).
//
// Name resolution inside a template body, for a name `a` or `a.rest`:
//   1. `a` is a template parameter: the argument replaces it (for `a.rest`
//      the argument must itself be a name, e.g. an instance passed by name);
//   2. `a` is declared in the body (any statement, or a `use` instance):
//      it becomes `PREFIX.a[.rest]`;
//   3. otherwise it is an outer name and stays as written.
// Expanded statements keep the locations of the template body and carry
// the chain of instances they came from (Stmt::trace) for messages.
#ifndef RAILSYM_VDL_TEMPLATES_HPP
#define RAILSYM_VDL_TEMPLATES_HPP

#include <vector>

#include "vdl_ast.hpp"
#include "vdl_error.hpp"

namespace railsym {
namespace vdl {

// The flat list of statements of the program (no Template, no Use left).
// Errors: unknown template, wrong argument count, a template that
// instantiates itself, duplicate template or instance names, and the limits
// of vdl_ast.hpp: instances nested deeper than kMaxTemplateDepth, more than
// `max_expanded` statements and instances produced by templates (statements
// written at the top level do not count), full instance names longer than
// kMaxInstanceName, expressions deepened past kMaxExprDepth by arguments.
std::vector<StmtP> expand_templates(const Program &prog, Diagnostics &diags, size_t max_expanded = kMaxExpanded);

}  // namespace vdl
}  // namespace railsym

#endif
