// model_dir.hpp — what the commands that run models (run, sweep,
// critical-speed) share: turning MODEL.vdl into a compiled folder, finding
// the abi/ headers, and the --loader and --method options.
#ifndef RAILSYM_MODEL_DIR_HPP
#define RAILSYM_MODEL_DIR_HPP

#include <string>
#include <vector>

#include "cli.hpp"

namespace railsym {

// --loader tcc|dlopen (default tcc) as an rs_loader value; UsageError for
// another word.
int loader_option(const cli::Args &args);
// --method imex|rk4 as an rs_method value, or `fallback` when not given;
// UsageError for another word.
int method_option(const cli::Args &args, int fallback);

// A temporary folder removed when the command is over, whatever happened:
// by the destructor, or on SIGINT/SIGTERM/SIGHUP by the handler of
// signals.hpp, which removes the paths registered with track() (rs_temp.h).
struct TempDir {
    std::string path;
    TempDir() = default;
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    ~TempDir();
    // Creates $TMPDIR/PREFIX-PID-XXXXXX (removing those of dead processes
    // first) and registers it; UserError when it cannot.
    void make(const std::string &prefix);
    // Registers a file or folder inside `path`, before it is created.
    void track(const std::string &p);
private:
    std::vector<std::string> tracked_;
};

bool ends_with(const std::string &s, const std::string &tail);

// Where rs_abi.h and rs_model.h are, for the loaders' compilers:
// $RAILSYM_ABI_DIR, ./abi, or abi/ beside an ancestor of the executable
// (build/railsym -> abi/), or include/railsym/ of an installed prefix, so
// the commands work from any working directory of a checkout or install.
std::string abi_dir();

// Compiles MODEL.vdl into tmp/<model>/ and returns that folder; `verb` names
// what the command does with it ("run", "sweep") in messages.  Throws
// cli::UserError with the compiler's diagnostics printed first.
std::string compile_to_temp(const std::string &vdl, TempDir &tmp, const std::string &verb);

}  // namespace railsym

#endif
