// fn_table.hpp — the model ABI's function table on the code generator's side:
// one row per function id of abi/rs_model.h (RS_FN_*), giving the generated
// function's name and its outputs in the order the runtime's out[] has them.
//
// This one table drives
//   - what a compiled model emits: a function whose name has no row is left
//     out of the generated C (runtime_functions());
//   - the outputs the model's functions are built with (model_functions.cpp,
//     contact_functions(): names and order from here, so the generated
//     function's out[k] is the runtime's out[k] and the descriptor points at
//     it directly, with no wrapper re-pointing outputs);
//   - the descriptor's function table (descriptor.cpp: fn[id] for each row
//     the model has).
// Names come from RS_FN_NAMES (abi/rs_model.h), the same list the runtime's
// messages use; the runtime itself reads the descriptor by id only.
#ifndef RAILSYM_FN_TABLE_HPP
#define RAILSYM_FN_TABLE_HPP

#include <string>
#include <vector>

#include "codegen.hpp"

namespace railsym {
namespace codegen {

struct FnSpec {
    int id;                            // RS_FN_*
    const char *id_name;               // "RS_FN_M": written into the descriptor
    std::string name;                  // RS_FN_NAMES[id]: the C function is MODEL_<name>
    // Names of out[0], out[1], ... in the runtime's order.  Empty for the
    // combined functions (stepfn.hpp), whose outputs are named after the
    // functions they come from and counted by the descriptor instead.
    std::vector<std::string> outputs;
    bool combined = false;             // RS_FN_STEP, _PROJ, _NEWTON, _STEP_CACHED
};

// All RS_FN_COUNT rows, indexed by id.
const std::vector<FnSpec> &fn_table();
// The row of a function name; nullptr when no id has that name.
const FnSpec *fn_spec(const std::string &name);
// The name of function id `id` (RS_FN_*).
const std::string &fn_name(int id);

// The functions of `fns` that have a row in the table, in their given
// order: what a compiled model emits.
std::vector<Function> runtime_functions(const std::vector<Function> &fns);

}  // namespace codegen
}  // namespace railsym

#endif
