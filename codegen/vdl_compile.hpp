// vdl_compile.hpp — a .vdl model to the files of its generated/ folder, and
// the atomic write of that folder (what `railsym compile` and `railsym ops`
// share).
//
// The folder DIR holds
//   MODEL.c, MODEL.h    the generated functions (codegen::generate_c)
//   ops.txt, ops.json   atoms and operations per function (seed 003 Table 2)
//   sparsity.json       the compressed-column patterns of the sparse outputs
//   model.json          the descriptor: sizes, and names, defaults and
//                       comments of every parameter, coordinate, auxiliary
//                       coordinate and input; constraint and output names
// Everything is deterministic (no dates, no absolute paths), so compiling
// twice gives byte-identical folders.
#ifndef RAILSYM_VDL_COMPILE_HPP
#define RAILSYM_VDL_COMPILE_HPP

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "codegen.hpp"

namespace railsym {
namespace vdl {

struct CompiledModel {
    std::string name;                                   // model name (file stem)
    std::map<std::string, std::string> files;          // file name in DIR -> contents
    std::vector<std::pair<std::string, codegen::OpCount>> ops;
    long atoms = 0;                                     // atoms in the store
};

// Progress messages: phase name and atom count so far.
using Progress = std::function<void(const std::string &phase, long atoms)>;

// Compiles the model.  On a user error (diagnostics, or a ModelError while
// building the equations) returns false with the formatted messages in
// `errors`.
// hoist = false keeps parameter-only atoms inside every function (no
// constants function, no k slots): the unoptimized reference that
// `railsym compile --no-hoist` writes (docs/performance.md).
// jacobians = false leaves out the force Jacobians (delta_jac: K, C for
// trains' implicit integration), which cost the FEVE 3000 about as much
// compile time as everything else (`railsym compile --no-jacobians`).
// out_dir, the folder the files will be written to (empty: not known), gives
// model.json's "contact_root": the working directory (which the contact
// table's relative file names are relative to) as seen from that folder.
bool compile_model(const std::string &path, CompiledModel &out, std::string &errors,
                   const Progress &progress = nullptr, bool hoist = true, bool jacobians = true,
                   const std::string &out_dir = "");

// Writes `files` into `dir` atomically: into a fresh temporary folder next
// to it, then renamed into place (an existing `dir` is replaced).  On
// failure nothing is left behind (the temporary folder is removed, an
// existing `dir` is kept) and the message says what failed.
bool write_folder(const std::string &dir, const std::map<std::string, std::string> &files, std::string &error);

}  // namespace vdl
}  // namespace railsym

#endif
