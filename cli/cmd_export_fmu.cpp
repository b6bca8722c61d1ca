// cmd_export_fmu.cpp — `railsym export-fmu MODEL_DIR|MODEL.vdl [--scenario S]
// [-o NAME.fmu]`: an FMI 2.0 Co-Simulation FMU of a compiled model and a
// scenario (docs/fmi.md).
//
// The FMU is a zip (made by the `zip` command) of modelDescription.xml
// (fmu_description.cpp), binaries/linux64/<id>.so compiled here with the
// system cc from sources/ (the model's C, runtime/core, runtime/contact,
// common/, the scenario reader and the adapter runtime/app/rs_fmi2.c, all
// copied into sources/ so the FMU rebuilds elsewhere), and resources/ (the
// scenario, the model's default.scn, the profile and track files the run
// reads, the plugins' libraries as resources/plugins/NAME.so).  The start
// values are those of the instance the FMU sets up from these resources
// (rs_instance_create_fmu).  The runtime sources are taken from the tree
// beside abi/.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.hpp"
#include "fmu_description.hpp"
#include "fmu_files.hpp"
#include "model_dir.hpp"

extern "C" {
#include "rs_driver.h"
#include "rs_fmi2.h"
#include "rs_fmi2_vars.h"
#include "rs_instance.h"
#include "rs_load.h"
#include "rs_plugin_load.h"
#include "rs_scenario.h"
}

namespace fs = std::filesystem;

namespace railsym {

namespace {

// The runtime's files the FMU's binary is built from, beside abi/: whole
// folders, and the scenario reader and the adapter from runtime/app.
// runtime/coupled: the scenario reader parses `thermal` (rs_thermal_spec.c).
const char *const kFolders[] = {"abi", "runtime/core", "runtime/contact", "common", "runtime/coupled"};
const char *const kAppFiles[] = {"rs_scenario.c",    "rs_scenario.h",    "rs_scenario_load.c", "rs_speed.c",
                                 "rs_speed.h",       "rs_track_rel.c",   "rs_track_rel.h",     "rs_fmi2.c",
                                 "rs_fmi2.h",        "rs_fmi2_api.h",    "rs_fmi2_layout.h",   "rs_fmi2_vars.c",
                                 "rs_fmi2_vars.h",   "rs_equilibrium.c", "rs_equilibrium.h",   "rs_instance.c",
                                 "rs_instance.h"};
// the scenario's `equilibrium` (rs_equilibrium) solves with rs_krylov's dense LU
const char *const kTrainFiles[] = {"rs_krylov.c", "rs_krylov.h", "rs_barrier.c", "rs_barrier.h"};
// the adapter opens the plugins' libraries from resources/ (dlopen)
const char *const kLoadFiles[] = {"rs_plugin_load.c", "rs_plugin_load.h"};

// The full path of `prog` on PATH, or "".
std::string which(const std::string &prog)
{
    const char *path = std::getenv("PATH");
    std::stringstream ss(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        const std::string p = (dir.empty() ? "." : dir) + "/" + prog;
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    return "";
}

// Runs argv in folder `cwd` (no shell); its output goes to `log`.  Returns
// the exit status (-1: it could not run).
int run_in(const std::string &cwd, const std::vector<std::string> &argv, const std::string &log)
{
    std::vector<char *> a;
    for (const auto &s : argv) a.push_back(const_cast<char *>(s.c_str()));
    a.push_back(nullptr);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (chdir(cwd.c_str()) != 0 || !std::freopen(log.c_str(), "w", stdout) || dup2(1, 2) < 0) _exit(127);
        execvp(a[0], a.data());
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string hex64(unsigned long long v)
{
    char b[20];
    std::snprintf(b, sizeof b, "%016llx", v);
    return b;
}

}  // namespace

int cmd_export_fmu(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"scenario", 's', "FILE", "duration, step, parameters, initial state, inputs (the FMU's start values)"},
        {"out", 'o', "NAME.fmu", "the FMU to write (default: <model>.fmu)"},
        {"keep", 0, "DIR", "also leave the unzipped FMU in DIR (for inspection)"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "MODEL_DIR|MODEL.vdl");
    const std::string target = args.positional[0];
    std::error_code ec;
    if (!fs::exists(target, ec)) throw cli::UserError("cannot read '" + target + "': no such file or folder");

    // the tools and the sources, before any work
    const std::string zip = which("zip");
    if (zip.empty())
        throw cli::UserError("the 'zip' command is not on PATH; an FMU is a zip file: install it "
                             "(Debian: apt-get install zip)");
    const std::string cc = std::getenv("CC") && *std::getenv("CC") ? std::getenv("CC") : "cc";
    if (which(cc).empty())
        throw cli::UserError("the C compiler '" + cc + "' is not on PATH (set CC, or apt-get install gcc)");
    const fs::path root = fs::absolute(fs::path(abi_dir())).parent_path();
    if (!fs::exists(root / "runtime/core/rs_ws.c", ec) || !fs::exists(root / "runtime/app/rs_fmi2.c", ec))
        throw cli::UserError("export-fmu builds the FMU from railsym's runtime sources, which are not beside '" +
                             abi_dir() + "': run it from a railsym source tree, or set RAILSYM_ABI_DIR to its abi/");

    TempDir tmp;
    std::string dir;
    if (fs::is_directory(target, ec)) dir = target;
    else if (ends_with(target, ".vdl")) dir = compile_to_temp(target, tmp, "export");
    else throw cli::UserError("'" + target + "' is neither a model folder (from `railsym compile`) nor a .vdl file");
    char name_buf[256];
    rs_driver_model_name(dir.c_str(), name_buf, sizeof name_buf);
    const std::string id = name_buf;
    const fs::path model_c = fs::path(dir) / (id + ".c"), model_d = fs::path(dir) / (id + "_model.c");
    if (!fs::exists(model_c, ec) || !fs::exists(model_d, ec))
        throw cli::UserError("'" + dir + "' has no '" + id + ".c' and '" + id +
                             "_model.c': compile the model again with `railsym compile MODEL.vdl -o " + dir + "`");
    const std::string scenario = args.value("scenario");
    const std::string out = fs::absolute(args.value("out", id + ".fmu")).string();
    if (!ends_with(out, ".fmu")) throw cli::UsageError("--out must name a .fmu file, not '" + out + "'");

    // the scenario: what an FMU carries of it must be self-contained
    rs_scenario scn;
    rs_scenario_init(&scn);
    char err[2048];
    if (rs_scenario_load(dir.c_str(), 1, scenario.empty() ? nullptr : scenario.c_str(), nullptr, &scn, err,
                         sizeof err)) {
        rs_scenario_free(&scn);
        throw cli::UserError(err);
    }
    struct ScnGuard { rs_scenario *s; ~ScnGuard() { rs_scenario_free(s); } } scn_guard{&scn};
    if (scn.thermal)   // the FMU steps the vehicle alone (docs/coupled.md)
        throw cli::UserError(std::string(scn.thermal_spec.file) + ":" + std::to_string(scn.thermal_spec.line) +
                             ": 'thermal' is not supported by export-fmu: export without it and couple the "
                             "thermal model in the importing tool");
    if (scn.stress)   // likewise: the FMU has no stress columns
        throw cli::UserError(std::string(scn.stress_spec[0].file) + ":" + std::to_string(scn.stress_spec[0].line) +
                             ": 'stress' is not supported by export-fmu: export without it and compute the "
                             "component's stresses in the importing tool");
    std::string scn_text;
    if (!scenario.empty()) {
        scn_text = fmu_read_text(scenario);
        std::istringstream lines(scn_text);
        std::string line;
        for (int no = 1; std::getline(lines, line); no++) {
            std::istringstream words(line);   // `input NAME file ...`
            std::string kw, name, how;
            if (!(words >> kw >> name >> how) || kw != "input" || how != "file") continue;
            throw cli::UserError(scenario + ":" + std::to_string(no) +
                                 ": an input read from a file is not supported by export-fmu: give the table "
                                 "in the scenario ('input NAME table' ... 'end'), or set the input through FMI");
        }
    }

    // the model, the scenario bound to it (its options: which contact files
    // the run uses) and the plugins' libraries (their files)
    rs_load_options lo;
    rs_load_options_default(&lo);
    const std::string include = abi_dir();
    lo.include_dir = include.c_str();
    lo.model_name = id.c_str();
    char msg[2048];
    rs_loaded *h = rs_load_ex(dir.c_str(), RS_LOAD_TCC, &lo, msg, sizeof msg);
    if (!h) throw cli::UserError("cannot load model folder '" + dir + "': " + msg);
    struct LoadGuard { rs_loaded **h; ~LoadGuard() { rs_unload(h); } } load_guard{&h};
    const rs_model *m = rs_loaded_model(h);
    rs_binding *b = nullptr;
    if (rs_scenario_bind(&scn, m, &b, err, sizeof err)) throw cli::UserError(err);
    struct BindGuard { rs_binding **b; ~BindGuard() { rs_binding_free(b); } } bind_guard{&b};
    rs_options opt;
    rs_options_default(&opt);
    rs_binding_options(b, &opt);
    rs_plugin_set *plugins = nullptr;
    if (rs_plugin_set_open(m, &plugins, err, sizeof err)) throw cli::UserError(err);
    struct PluginGuard { rs_plugin_set **p; ~PluginGuard() { rs_plugin_set_close(p); } } plugin_guard{&plugins};
    char contact_dir[4096] = ".";
    if (m->n_contact && !rs_driver_contact_dir(dir.c_str(), contact_dir, sizeof contact_dir))
        std::snprintf(contact_dir, sizeof contact_dir, ".");

    // the folder to zip
    TempDir stage;
    stage.make("railsym-fmu");
    const fs::path top = stage.path;
    const fs::path src = top / "sources", res = top / "resources", bin = top / "binaries" / "linux64";
    fs::create_directories(src, ec);
    fs::create_directories(res, ec);
    fs::create_directories(bin, ec);
    for (const char *folder : kFolders)
        for (const auto &e : fs::directory_iterator(root / folder)) {
            const std::string ext = e.path().extension().string();
            if (ext == ".c" || ext == ".h") fmu_copy_into(e.path(), src / e.path().filename());
        }
    for (const char *f : kAppFiles) fmu_copy_into(root / "runtime/app" / f, src / f);
    for (const char *f : kTrainFiles) fmu_copy_into(root / "runtime/train" / f, src / f);
    for (const char *f : kLoadFiles) fmu_copy_into(root / "runtime/load" / f, src / f);
    fmu_copy_into(model_c, src / model_c.filename());
    fmu_copy_into(model_d, src / model_d.filename());
    if (fs::exists(fs::path(dir) / (id + ".h"), ec)) fmu_copy_into(fs::path(dir) / (id + ".h"), src / (id + ".h"));

    // resources: the contact files the run uses (fmu_files.cpp) and the
    // scenario layers, their file statements naming the copies
    const fs::path def = fs::path(dir) / "default.scn";
    std::string def_text;
    if (fs::exists(def, ec)) def_text = fmu_read_text(def);
    FmuLayer layers[2] = {{def.string(), &def_text}, {scenario, &scn_text}};
    const FmuContactSource where = {contact_dir, dir, ends_with(target, ".vdl") ? target : ""};
    fmu_copy_contact_files(m, &opt, scn, where, res, layers, scenario.empty() ? 1 : 2);
    if (!def_text.empty()) fmu_write_text(res / "default.scn", def_text);
    fmu_write_text(res / RS_FMI2_SCENARIO, scn_text.empty() ? "# no scenario: the model's default.scn\n" : scn_text);

    for (int i = 0; i < m->n_plugin; i++) {
        Dl_info info;   // the file the table lives in: the library as loaded
        if (!dladdr(static_cast<const void *>(rs_plugin_set_tables(plugins)[i]), &info) || !info.dli_fname)
            throw cli::UserError("plugin '" + std::string(m->plugins[i].name) + "': cannot find the file of its "
                                 "library '" + m->plugins[i].library + "' to copy into the FMU");
        fmu_copy_into(info.dli_fname, res / RS_FMI2_PLUGIN_DIR / (std::string(m->plugins[i].name) + ".so"));
    }

    // the start values: the instance the FMU sets up at fmi2Instantiate, set
    // up here from the resources just written (rs_instance_create_fmu)
    rs_instance inst{};
    struct InstGuard { rs_instance *in; ~InstGuard() { rs_instance_free(in); } } inst_guard{&inst};
    if (rs_instance_create_fmu(&inst, m, res.c_str(), nullptr, nullptr, msg, sizeof msg))
        throw cli::UserError(std::string("the FMU's instance, set up from its resources: ") + msg);
    rs_ws *ws = inst.ws;

    // the guid: the model's content and the scenario's
    const std::string both = def_text + "\n--\n" + scn_text;
    const std::string h1 = hex64(m->content_hash), h2 = hex64(rs_fnv1a64(both.data(), both.size()));
    const std::string guid = "{" + h1.substr(0, 8) + "-" + h1.substr(8, 4) + "-" + h1.substr(12, 4) + "-" +
                             h2.substr(0, 4) + "-" + h2.substr(4, 12) + "}";
    fmu_write_text(src / "rs_fmi2_entry.c",
               "/* rs_fmi2_entry.c — written by railsym export-fmu: the model and guid of this FMU. */\n"
               "#include \"rs_fmi2.h\"\n\n"
               "const rs_model *" + id + "_model(void);\n\n"
               "const rs_model *rs_fmi2_model(void) { return " + id + "_model(); }\n"
               "const char *rs_fmi2_guid(void) { return \"" + guid + "\"; }\n");
    fmu_write_text(src / "BUILD.txt",
               "Built by railsym export-fmu with:\n"
               "  cc -std=c11 -O2 -fPIC -shared -fvisibility=hidden -Wl,--no-undefined -I sources \\\n"
               "     -o binaries/linux64/" + id + ".so sources/*.c -lklu -lm -lpthread -ldl\n"
               "Needs SuiteSparse KLU (Debian: libsuitesparse-dev).\n");

    FmuExperiment ex;
    ex.start = 0;
    ex.stop = rs_binding_duration(b);
    ex.step = rs_binding_output(b) > rs_binding_step(b) ? rs_binding_output(b) : rs_binding_step(b);
    fmu_write_text(top / "modelDescription.xml", fmu_description(m, ws, id, guid, ex, true));

    // the binary
    std::vector<std::string> cmd = {cc, "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
                                    "-Wl,--no-undefined", "-I", "sources", "-o", "binaries/linux64/" + id + ".so"};
    // extra flags for the binary (the tests' sanitizer pass: the adapter
    // instrumented like the process that loads it)
    if (const char *extra = std::getenv("RAILSYM_FMU_CFLAGS")) {
        std::istringstream words(extra);
        for (std::string w; words >> w;) cmd.push_back(w);
    }
    std::vector<std::string> cfiles;
    for (const auto &e : fs::directory_iterator(src))
        if (e.path().extension() == ".c") cfiles.push_back("sources/" + e.path().filename().string());
    std::sort(cfiles.begin(), cfiles.end());
    cmd.insert(cmd.end(), cfiles.begin(), cfiles.end());
    cmd.insert(cmd.end(), {"-lklu", "-lm", "-lpthread", "-ldl"});
    const std::string log = (top / "cc.log").string();   // outside what is zipped
    if (run_in(top.string(), cmd, log) != 0) {
        std::string text;
        try { text = fmu_read_text(log); } catch (...) {}
        std::fputs(text.c_str(), stderr);
        throw cli::UserError("compiling the FMU's binary with '" + cc + "' failed (messages above)");
    }
    fs::remove(log, ec);

    // the zip
    fs::remove(out, ec);
    const std::string zlog = (top / "zip.log").string();
    if (run_in(top.string(), {zip, "-q", "-r", "-X", out, "modelDescription.xml", "binaries", "sources", "resources"},
               zlog) != 0) {
        std::string text;
        try { text = fmu_read_text(zlog); } catch (...) {}
        std::fputs(text.c_str(), stderr);
        throw cli::UserError("zip could not write '" + out + "'");
    }
    fs::remove(zlog, ec);
    const std::string keep = args.value("keep");
    if (!keep.empty()) {
        fs::remove_all(keep, ec);
        fs::copy(top, keep, fs::copy_options::recursive, ec);
        if (ec) throw cli::UserError("cannot copy the FMU's folder to '" + keep + "': " + ec.message());
    }
    std::fprintf(stderr, "railsym export-fmu: %s: %d variables, internal step %g s -> %s\n", id.c_str(),
                 rs_fmi2_var_count(m, rs_fmi2_elastic(ws)), rs_binding_step(b), out.c_str());
    return cli::kExitOk;
}

}  // namespace railsym
