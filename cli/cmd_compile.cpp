// cmd_compile.cpp — `railsym compile MODEL.vdl [-o DIR]`.
//
// Compiles the model in memory (codegen/vdl_compile.hpp), then writes the
// folder atomically: a failed compile, or one that cannot write, leaves no
// DIR (and an existing DIR untouched).  Diagnostics go to stderr as
// file:line:col messages; exit 0 ok, 1 user error, 2 bad usage.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli.hpp"
#include "model_dir.hpp"
#include "vdl_compile.hpp"

extern "C" {
#include "rs_driver.h"
#include "rs_load.h"
}

namespace railsym {

namespace {

// Prints phases on stderr once a compile has run for more than a second or
// two, so short compiles stay quiet and long ones show they are alive.
struct ProgressPrinter {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    bool verbose = false;
    bool shown = false;
    void operator()(const std::string &phase, long atoms) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!verbose && s < 2.0) return;
        std::fprintf(stderr, "railsym compile: [%6.1f s] %s (%ld atoms)\n", s, phase.c_str(), atoms);
        shown = true;
    }
};

}  // namespace

int cmd_compile(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"output", 'o', "DIR", "output folder (default: generated/<model>/)"},
        {"verbose", 'v', "", "print every phase of the compile"},
        {"no-hoist", 0, "", "no constants function: parameter-only atoms stay in every function"},
        {"no-jacobians", 0, "", "no force Jacobians (delta_jac): a quicker compile; the model cannot be a train vehicle"},
        {"native", 0, "", "also build the shared object `run --loader dlopen` uses, into the user's cache"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "MODEL.vdl");
    const std::string model = args.positional[0];
    std::error_code ec;
    if (!std::filesystem::exists(model, ec))
        throw cli::UserError("cannot read '" + model + "': no such file");
    if (std::filesystem::is_directory(model, ec))
        throw cli::UserError("'" + model + "' is a folder; give the .vdl file to compile");

    ProgressPrinter pp;
    pp.verbose = args.has("verbose");
    vdl::CompiledModel cm;
    std::string errors;
    // the folder is known before compiling: model.json records where the
    // contact files are from it (the model's name is the file's stem)
    std::string dir = args.value("output", "generated/" + std::filesystem::path(model).stem().string());
    bool ok = vdl::compile_model(model, cm, errors, [&](const std::string &ph, long atoms) { pp(ph, atoms); },
                                 !args.has("no-hoist"), !args.has("no-jacobians"), dir);
    if (!ok) {
        std::fputs(errors.c_str(), stderr);
        std::fprintf(stderr, "railsym compile: %s not compiled; nothing written\n", model.c_str());
        return cli::kExitUser;
    }
    pp("writing " + dir, cm.atoms);
    std::string err;
    if (!vdl::write_folder(dir, cm.files, err)) throw cli::UserError(err + "; nothing written");
    if (args.has("native")) {
        // the options `railsym run --loader dlopen` loads with, so that its
        // run finds this object in the cache (runtime/load/rs_so_cache.c)
        pp("building the native library (cc)", cm.atoms);
        const std::string include = abi_dir();
        char name[256], msg[4096];
        rs_load_options lo;
        rs_load_options_default(&lo);
        lo.include_dir = include.c_str();
        lo.model_name = rs_driver_model_name(dir.c_str(), name, sizeof name);
        rs_loaded *h = rs_load_ex(dir.c_str(), RS_LOAD_DLOPEN, &lo, msg, sizeof msg);
        if (!h) throw cli::UserError(dir + " is written, but its native library was not built: " + msg);
        rs_unload(&h);
    }
    if (pp.shown || pp.verbose) std::fprintf(stderr, "railsym compile: done\n");
    return cli::kExitOk;
}

}  // namespace railsym
