// cmd_ops.cpp — `railsym ops MODEL.vdl|DIR [--json]`: the table of atoms
// and operations per generated function (seed 003, Table 2).  A folder is
// read from the report `railsym compile` wrote there (ops.txt / ops.json);
// a .vdl file is compiled in memory, nothing written.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli.hpp"
#include "vdl_compile.hpp"

namespace railsym {

int cmd_ops(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"json", 0, "", "print JSON instead of the table"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "MODEL.vdl|DIR");
    const std::string target = args.positional[0];
    const bool json = args.has("json");
    std::error_code ec;
    if (std::filesystem::is_directory(target, ec)) {
        std::string file = (std::filesystem::path(target) / (json ? "ops.json" : "ops.txt")).string();
        std::ifstream in(file, std::ios::binary);
        if (!in)
            throw cli::UserError("cannot read '" + file + "': is '" + target +
                                 "' a folder written by `railsym compile`?");
        std::ostringstream ss;
        ss << in.rdbuf();
        std::fputs(ss.str().c_str(), stdout);
        return cli::kExitOk;
    }
    if (!std::filesystem::exists(target, ec)) throw cli::UserError("cannot read '" + target + "': no such file or folder");
    vdl::CompiledModel cm;
    std::string errors;
    if (!vdl::compile_model(target, cm, errors)) {
        std::fputs(errors.c_str(), stderr);
        return cli::kExitUser;
    }
    std::fputs(cm.files[json ? "ops.json" : "ops.txt"].c_str(), stdout);
    return cli::kExitOk;
}

}  // namespace railsym
