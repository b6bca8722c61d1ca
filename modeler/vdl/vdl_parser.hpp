// vdl_parser.hpp — .vdl text to a syntax tree, with includes spliced in.
//
// Grammar (docs/vdl.md has the full version with examples):
//
//   program  := { statement NEWLINE }
//   statement:= include STRING
//             | param NAME = expr {, NAME = expr}
//             | (coord | aux | input) NAME [= expr] {, NAME [= expr]}
//             | (base | point | frame | constraint | output) NAME = expr
//             | body NAME clause...        mass E  cg P  inertia T  [frame F]
//             | gravity expr
//             | spring NAME clause...      between P [of B] and Q [of B]  k E  [c E]  [length E]
//             | bushing NAME clause...     between F [of B] and G [of B]  k V6  [c V6]  [rotation small|large]
//             | force NAME clause... = V   on BODY  at P  [reaction BODY [at Q]]
//             | torque NAME clause... = V  on BODY  [reaction BODY]
//             | contact NAME clause...     wheel BODY  at P  profile S  rail S  track S
//             | template NAME ( [NAME [= expr] {, ...}] ) NEWLINE {statement} end
//             | use TEMPLATE INSTANCE ( [expr {, expr}] )
//   expr     := sum;  sum := product {(+|-) product};  product := unary {(*|/) unary}
//   unary    := (-|+) unary | power;  power := postfix [(^|**) unary]
//   postfix  := primary [in NAME];  primary := NUMBER | NAME | NAME(args) | (expr)
//             | [args] | STRING
//
// Errors go to Diagnostics; parsing resumes at the next line, so one run
// reports several.  Nothing here throws to the caller except TooManyErrors.
#ifndef RAILSYM_VDL_PARSER_HPP
#define RAILSYM_VDL_PARSER_HPP

#include <string>

#include "vdl_ast.hpp"
#include "vdl_error.hpp"

namespace railsym {
namespace vdl {

// Parses the file at `path` and every file it includes (paths relative to
// the including file; each file spliced once; cycles reported with the
// chain).  A file that cannot be read is reported at the include (or with no
// location for the main file).
Program parse_file(const std::string &path, Diagnostics &diags);

// Parses text given in memory (tests, the fuzz harness); includes are
// resolved relative to the directory of `path`.
Program parse_text(const std::string &path, const std::string &text, Diagnostics &diags);

}  // namespace vdl
}  // namespace railsym

#endif
