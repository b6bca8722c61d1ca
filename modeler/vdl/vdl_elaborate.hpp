// vdl_elaborate.hpp — expanded .vdl statements to a modeler System, and the
// front door of the description language (parse + expand + elaborate).
//
// Elaboration walks the statements in order (a name is usable after the
// statement that declares it), evaluating each expression to a typed value:
// scalar (an atom), vector (with its base), tensor, point (possibly with an
// offset), base, frame, body.  A type mismatch, an unknown name (with the
// closest known names), a duplicate definition (with a note at the first)
// or a ModelError from the modeler becomes a diagnostic at the statement's
// location; elaboration then goes on with the next statement, and names
// whose definition failed are remembered so they do not cause a cascade of
// "unknown name" errors.
#ifndef RAILSYM_VDL_ELABORATE_HPP
#define RAILSYM_VDL_ELABORATE_HPP

#include <string>
#include <vector>

#include "system.hpp"
#include "vdl_ast.hpp"
#include "vdl_error.hpp"

namespace railsym {
namespace vdl {

// One declared symbol, for the model descriptor.
struct SymbolInfo {
    std::string name;
    double value = 0.0;     // default (param, input) or initial value (coord, aux)
    std::string comment;    // the trailing comment of its line (a unit, say)
    std::string unit;       // its unit from that comment (vdl_units.hpp), "" unknown
    Loc loc;                // where it is declared
};

struct ModelInfo {
    std::string name;       // the model's name: the main file's stem
    std::vector<SymbolInfo> params, coords, aux, inputs, outputs;   // outputs: value 0
    std::vector<std::string> files;   // every file read, main file first
};

// Elaborates into `sys`; returns diags.ok().
bool elaborate(const std::vector<StmtP> &stmts, System &sys, Diagnostics &diags, ModelInfo *info = nullptr);

// Parses `path` (with includes), expands templates and elaborates.  Returns
// true when there were no errors; messages are in diags (diags.format()).
bool load_file(const std::string &path, System &sys, Diagnostics &diags, ModelInfo *info = nullptr);
// The same for text in memory, as if read from `path`.
bool load_text(const std::string &path, const std::string &text, System &sys, Diagnostics &diags,
               ModelInfo *info = nullptr);

// The model name of a path: its file name without the .vdl extension.
std::string model_name_of(const std::string &path);

}  // namespace vdl
}  // namespace railsym

#endif
