// model_dir.cpp — see model_dir.hpp.
#include "model_dir.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <unistd.h>

#include "cli.hpp"
#include "descriptor.hpp"
#include "rs_load.h"
#include "rs_options.h"
#include "vdl_compile.hpp"

extern "C" {
#include "rs_status.h"
#include "rs_temp.h"
}

namespace fs = std::filesystem;

namespace railsym {

TempDir::~TempDir()
{
    if (!path.empty()) {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    for (const std::string &p : tracked_) rs_temp_forget(p.c_str());
}

void TempDir::make(const std::string &prefix)
{
    char dir[RS_TEMP_PATH_MAX], err[512];
    if (rs_temp_dir(nullptr, prefix.c_str(), 0, dir, sizeof dir, err, sizeof err) != RS_OK)
        throw cli::UserError(err);
    path = dir;
    tracked_.push_back(path);
}

void TempDir::track(const std::string &p)
{
    char err[512];
    if (rs_temp_add(p.c_str(), err, sizeof err) != RS_OK) throw cli::UserError(err);
    tracked_.push_back(p);
}

bool ends_with(const std::string &s, const std::string &tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

int loader_option(const cli::Args &args)
{
    const std::string loader = args.value("loader", "tcc");
    if (loader == "tcc") return RS_LOAD_TCC;
    if (loader == "dlopen") return RS_LOAD_DLOPEN;
    throw cli::UsageError("--loader must be tcc or dlopen, not '" + loader + "'");
}

int method_option(const cli::Args &args, int fallback)
{
    if (!args.has("method")) return fallback;
    const std::string m = args.value("method");
    if (m == "imex") return RS_IMEX_EULER;
    if (m == "rk4") return RS_RK4;
    throw cli::UsageError("--method must be imex or rk4, not '" + m + "'");
}

std::string abi_dir()
{
    if (const char *e = std::getenv("RAILSYM_ABI_DIR"); e && *e) return e;
    std::error_code ec;
    if (fs::exists("abi/rs_model.h", ec)) return "abi";
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        for (fs::path p = exe.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
            if (fs::exists(p / "abi" / "rs_model.h", ec)) return (p / "abi").string();
            // an installed railsym (make install): PREFIX/bin/railsym, PREFIX/include/railsym/
            if (fs::exists(p / "include" / "railsym" / "rs_model.h", ec))
                return (p / "include" / "railsym").string();
        }
    return "abi";
}

std::string compile_to_temp(const std::string &vdl, TempDir &tmp, const std::string &verb)
{
    tmp.make("railsym-" + verb);
    const std::string dir = tmp.path + "/" + codegen::c_identifier(fs::path(vdl).stem().string());
    vdl::CompiledModel cm;
    std::string errors;
    if (!vdl::compile_model(vdl, cm, errors, nullptr, true, true, dir)) {
        std::fputs(errors.c_str(), stderr);
        throw cli::UserError(vdl + " not compiled; nothing to " + verb);
    }
    if (!cm.files.count(codegen::descriptor_file_name(cm.name)))
        throw cli::UserError("the compiler of this build does not emit the model descriptor (" +
                             codegen::descriptor_file_name(cm.name) + "): " + verb + " a compiled folder instead");
    // Registered before they exist, so a signal at any moment finds them
    // (write_folder itself removes its hidden .NAME.tmp-PID when interrupted).
    for (const auto &f : cm.files) tmp.track(dir + "/" + f.first);
    tmp.track(dir);
    std::string err;
    if (!vdl::write_folder(dir, cm.files, err)) throw cli::UserError(err);
    return dir;
}

}  // namespace railsym
