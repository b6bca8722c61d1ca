// vdl_compile.cpp — model -> generated files, and the atomic folder write.
#include "vdl_compile.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "descriptor.hpp"
#include "fn_table.hpp"
#include "force_jacobians.hpp"
#include "hoist.hpp"
#include "json_text.hpp"
#include "model_functions.hpp"
#include "power.hpp"
#include "stepfn.hpp"
#include "system.hpp"
#include "vdl_elaborate.hpp"

namespace fs = std::filesystem;

namespace railsym {
namespace vdl {

namespace {

using codegen::json_num;
using codegen::json_str;

std::string symbols_json(const std::vector<SymbolInfo> &v, const char *value_key) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        s += (i ? ",\n    " : "\n    ");
        s += "{\"name\": " + json_str(v[i].name) + ", \"" + value_key + "\": " + json_num(v[i].value);
        if (!v[i].unit.empty()) s += ", \"unit\": " + json_str(v[i].unit);
        if (!v[i].comment.empty()) s += ", \"comment\": " + json_str(v[i].comment);
        s += "}";
    }
    return s + (v.empty() ? "]" : "\n  ]");
}

std::string names_json(const std::vector<std::string> &v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json_str(v[i]);
    return s + "]";
}

std::string ints_json(const std::vector<int> &v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// The contact table (System::contact_table()): slots inside each kind's input
// array, as the C descriptor's rs_contact entries carry them.
std::string contacts_json(const std::vector<ContactTableEntry> &table) {
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < table.size(); ++i) {
        const ContactTableEntry &c = table[i];
        os << (i ? ",\n    " : "\n    ") << "{\"name\": " << json_str(c.name) << ", \"wheel_body\": "
           << json_str(c.wheel_body) << ", \"side\": " << c.side
           << ", \"s_slot\": " << ints_json(std::vector<int>(c.s_slot.begin(), c.s_slot.end()))
           << ", \"force_slot\": " << ints_json(std::vector<int>(c.force_slot.begin(), c.force_slot.end()))
           << ", \"phi_row\": " << c.phi_row << ", \"mode\": \"" << (c.elastic ? "elastic" : "constraint")
           << "\",\n     \"splines\": [";
        for (int k = 0; k < kContactSplines; ++k) {
            const ContactTableEntry::Spline &sp = c.spline[k];
            os << (k ? ",\n                 " : "") << "{\"role\": " << json_str(sp.role)
               << ", \"file\": " << json_str(sp.file)
               << ", \"u_slot\": " << ints_json(std::vector<int>(sp.u_slot.begin(), sp.u_slot.end()))
               << ", \"s_slot\": " << sp.s_slot << "}";
        }
        os << "]}";
    }
    os << (table.empty() ? "]" : "\n  ]");
    return os.str();
}

// The unit of `name` among `names` (units parallel), "" when not listed.
std::string unit_of(const std::string &name, const std::vector<std::string> &names,
                    const std::vector<std::string> &units) {
    for (size_t i = 0; i < names.size() && i < units.size(); ++i)
        if (names[i] == name) return units[i];
    return "";
}

// ", "contact_root": "../.."": for a model with contacts written to out_dir,
// the working directory as seen from out_dir — the contact table's relative
// file names are relative to it, so a run from anywhere (or of the folder
// moved with its tree) finds them at out_dir/contact_root/NAME.  "" when the
// folder is not known or the model has no contacts.
std::string contact_root_json(System &sys, const std::string &out_dir) {
    if (out_dir.empty() || sys.contacts().empty()) return "";
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    if (ec) return "";
    fs::path root = cwd.lexically_relative(fs::absolute(out_dir, ec).lexically_normal());
    if (ec || root.empty()) return "";
    return ",\n  \"contact_root\": " + json_str(root.string());
}

// model.json: every symbol with its default or initial value, its unit (the
// descriptor's, `sym`) and its comment.
std::string descriptor(const ModelInfo &info, System &sys, const std::vector<codegen::Function> &fns,
                       const codegen::ModelSymbols &sym, const std::string &out_dir) {
    std::ostringstream os;
    std::vector<std::string> cons, outs, fnames;
    for (const auto &c : sys.constraints()) cons.push_back(c.name);
    for (const auto &o : sys.outputs()) outs.push_back(o.name);
    for (const auto &f : fns) fnames.push_back(f.name);
    std::string src = fs::path(info.files.empty() ? "" : info.files[0]).filename().string();
    // Symbols the description did not declare itself (a contact's auxiliary
    // coordinates and spline/force inputs) join the lists with their defaults.
    std::vector<SymbolInfo> aux = info.aux, inputs = info.inputs;
    auto complete = [&](std::vector<SymbolInfo> &v, SymKind kind) {
        const Store &st = sys.store();
        const SymValues d = sys.defaults();
        for (const Ex &e : st.symbols_of(kind)) {
            const SymInfo &si = st.sym(e.id());
            bool listed = false;
            for (const SymbolInfo &x : v) listed = listed || x.name == si.name;
            if (!listed) v.push_back(SymbolInfo{si.name, d.get(kind, si.slot), "", "", Loc{}});
        }
    };
    complete(aux, SymKind::Aux);
    complete(inputs, SymKind::Input);
    std::vector<SymbolInfo> params = info.params, coords = info.coords;
    for (SymbolInfo &x : params) x.unit = unit_of(x.name, sym.p, sym.p_units);
    for (SymbolInfo &x : coords) x.unit = unit_of(x.name, sym.q, sym.q_units);
    for (SymbolInfo &x : aux) x.unit = unit_of(x.name, sym.s, sym.s_units);
    for (SymbolInfo &x : inputs) x.unit = unit_of(x.name, sym.u, sym.u_units);
    os << "{\n  \"name\": " << json_str(info.name) << ",\n  \"c_prefix\": " << json_str(codegen::c_identifier(info.name))
       << ",\n  \"source\": " << json_str(src) << contact_root_json(sys, out_dir)
       << ",\n  \"sizes\": {\"q\": " << info.coords.size()
       << ", \"s\": " << aux.size() << ", \"p\": " << info.params.size() << ", \"u\": " << inputs.size()
       << ", \"constraints\": " << cons.size() << ", \"outputs\": " << outs.size() << "},\n"
       << "  \"params\": " << symbols_json(params, "default") << ",\n"
       << "  \"coords\": " << symbols_json(coords, "initial") << ",\n"
       << "  \"aux\": " << symbols_json(aux, "initial") << ",\n"
       << "  \"inputs\": " << symbols_json(inputs, "default") << ",\n"
       << "  \"constraints\": " << names_json(cons) << ",\n"
       << "  \"outputs\": " << names_json(outs) << ",\n"
       << "  \"output_units\": " << names_json(sym.output_units) << ",\n"
       << "  \"functions\": " << names_json(fnames);
    if (!sym.z_slot.empty()) {   // internal states: the inputs the runtime integrates
        std::vector<std::string> zn;
        for (int u : sym.z_slot) zn.push_back(sym.u[(size_t)u]);
        os << ",\n  \"states\": " << names_json(zn);
    }
    if (!sys.contacts().empty()) os << ",\n  \"contacts\": " << contacts_json(sys.contact_table());
    os << "\n}\n";
    return os.str();
}

std::string sparsity_json(const std::vector<codegen::Function> &fns) {
    std::ostringstream os;
    os << "{\n  \"format\": \"compressed columns (KLU): colptr has cols+1 entries, rowidx nnz\",\n  \"patterns\": [";
    bool first = true;
    for (const auto &f : fns)
        for (const auto &o : f.outputs) {
            if (o.shape != codegen::Shape::Sparse) continue;
            os << (first ? "\n" : ",\n") << "    {\"function\": " << json_str(f.name) << ", \"output\": "
               << json_str(o.name) << ", \"rows\": " << o.rows << ", \"cols\": " << o.cols << ", \"nnz\": " << o.nnz()
               << ",\n     \"colptr\": " << ints_json(o.colptr) << ",\n     \"rowidx\": " << ints_json(o.rowidx)
               << "}";
            first = false;
        }
    os << (first ? "]\n}\n" : "\n  ]\n}\n");
    return os.str();
}

// The units the description's comments give (vdl_units.hpp) join those the
// compiler knows (model_symbols); a comment that contradicts what the
// compiler knows (a rotation angle said to be in m) is an error at its line.
void apply_declared_units(const ModelInfo &info, codegen::ModelSymbols &sym, Diagnostics &diags) {
    auto apply = [&](const std::vector<SymbolInfo> &declared, const std::vector<std::string> &names,
                     std::vector<std::string> &units, const char *what) {
        for (const SymbolInfo &d : declared) {
            if (d.unit.empty()) continue;
            for (size_t i = 0; i < names.size(); ++i) {
                if (names[i] != d.name) continue;
                if (!units[i].empty() && units[i] != d.unit)
                    diags.error(d.loc, std::string(what) + " '" + d.name + "' is in " + units[i] +
                                           " (the compiler knows it), but its comment says " + d.unit +
                                           "; correct the comment");
                else
                    units[i] = d.unit;
            }
        }
    };
    apply(info.params, sym.p, sym.p_units, "parameter");
    apply(info.coords, sym.q, sym.q_units, "coordinate");
    apply(info.aux, sym.s, sym.s_units, "auxiliary coordinate");
    apply(info.inputs, sym.u, sym.u_units, "input");
    apply(info.outputs, sym.outputs, sym.output_units, "output");
}

}  // namespace

bool compile_model(const std::string &path, CompiledModel &out, std::string &errors, const Progress &progress,
                   bool hoist, bool jacobians, const std::string &out_dir) {
    Sources src;
    Diagnostics diags(src);
    System sys;
    ModelInfo info;
    if (progress) progress("reading and elaborating " + path, 0);
    if (!load_file(path, sys, diags, &info)) {
        errors = diags.format();
        return false;
    }
    out.name = info.name;
    std::vector<codegen::Function> fns;
    try {
        if (progress) progress("building the equations of motion", sys.store().size());
        fns = model_functions(sys);
        // Wheel-rail contacts: the functions the runtime's table uses, added
        // before hoisting so their parameter-only atoms join the shared constants.
        // Exact force Jacobians K, C for implicit (train) integration
        // (docs/trains.md), for every model: for contact models they are δ's
        // derivatives with the creep force inputs and s held fixed; the runtime
        // adds the contact forces' parts (compliant or elastic).  For feve3000
        // (8 contacts) they add about 30 % to the generated C and its load time
        // (docs/trains.md "Force Jacobians").
        if (!sys.contacts().empty()) {
            for (codegen::Function &f : codegen::runtime_contact_functions(contact_functions(sys)))
                fns.push_back(std::move(f));
        }
        if (jacobians) fns.push_back(force_jacobian_function(sys));
        // The energy balance's power terms (power.hpp), built last so the
        // atoms of every other function keep their order.
        fns.push_back(power_function(sys));
        // Internal states' rates (series branches), after every function the
        // models without them have, so those stay byte-identical.
        if (!node_rates(sys).empty()) fns.push_back(zdot_function(sys));
        // Only what the runtime's function table has an id for is compiled
        // (fn_table.hpp): phi_s, say, is left out.
        fns = codegen::runtime_functions(fns);
        // Atoms of parameters only are computed once per parameter set, not per step.
        if (hoist) {
            codegen::Function constants = codegen::hoist_constants(sys.store(), fns);
            if (sys.store().count(SymKind::Const) > 0) fns.push_back(constants);
        }
        // Dependent parameters (`param dz = m*g/k`): built after hoisting, so
        // that they read p itself, never the constants computed from it.
        if (!sys.param_exprs().empty()) fns.push_back(params_function(sys));
        // Masses and inertias made of parameters, checked by the runtime for
        // each parameter set (built after hoisting too: they read p alone).
        if (!sys.parameter_inertia_bodies().empty()) fns.push_back(inertia_function(sys));
        // Every body's pose in ground, for track-relative results (built
        // after hoisting and last of the separate functions: it reads p, and
        // every other function's C stays as it was).
        if (!sys.bodies().empty()) fns.push_back(body_pose_function(sys));
        // One atom set per stage of a step (codegen/stepfn.hpp).
        // The spline coefficients: inputs the runtime sets from s alone.
        std::vector<int> spline_inputs;
        if (!sys.contacts().empty())
            for (const ContactTableEntry &c : sys.contact_table())
                for (const ContactTableEntry::Spline &sp : c.spline)
                    spline_inputs.insert(spline_inputs.end(), sp.u_slot.begin(), sp.u_slot.end());
        for (codegen::Function &f : codegen::step_functions(sys.store(), fns, sys.defaults(), spline_inputs))
            fns.push_back(std::move(f));
        if (progress) progress("counting operations", sys.store().size());
        for (const auto &f : fns) out.ops.emplace_back(f.name, codegen::count_ops(sys.store(), f));
        if (progress) progress("generating C code", sys.store().size());
        codegen::GeneratedCode code = codegen::generate_c(sys.store(), info.name, fns);
        std::string cname = codegen::c_identifier(info.name);
        out.files[cname + ".h"] = code.header;
        out.files[cname + ".c"] = code.source;
        // model.json first: the descriptor carries the hash of its bytes
        codegen::ModelSymbols sym = codegen::model_symbols(sys);
        apply_declared_units(info, sym, diags);
        if (!diags.ok()) {
            errors = diags.format();
            return false;
        }
        out.files["model.json"] = descriptor(info, sys, fns, sym, out_dir);
        sym.content_hash = codegen::fnv1a64(out.files["model.json"]);
        out.files[codegen::descriptor_file_name(info.name)] = codegen::emit_descriptor_c(sym, info.name, fns);
        out.files["default.scn"] = codegen::emit_default_scenario(sys, info.name);
    } catch (const ModelError &e) {
        errors = path + ": error: " + e.what() + "\n";
        return false;
    } catch (const AlgebraError &e) {
        errors = path + ": error: invalid arithmetic while building the equations: " + e.what() + "\n";
        return false;
    } catch (const std::invalid_argument &e) {
        errors = path + ": error: " + e.what() + "\n";
        return false;
    }
    out.files["ops.txt"] = codegen::ops_table(out.ops);
    out.files["ops.json"] = codegen::ops_json(out.ops);
    out.files["sparsity.json"] = sparsity_json(fns);
    out.atoms = sys.store().size();
    return true;
}

namespace {

// SIGINT, SIGTERM and SIGHUP held back while the folder is written and
// swapped in, so that an interrupt cannot leave a half-written hidden folder
// (or the old folder moved aside): the writer asks pending() between files,
// removes what it wrote and returns; the destructor lets the signal through,
// with whatever action the program set (the default one ends the process).
class HoldSignals {
public:
    HoldSignals() {
        sigemptyset(&set_);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGTERM);
        sigaddset(&set_, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &set_, &old_);
    }
    ~HoldSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    HoldSignals(const HoldSignals &) = delete;
    HoldSignals &operator=(const HoldSignals &) = delete;
    bool pending() const {
        sigset_t p;
        if (sigpending(&p) != 0) return false;
        return sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGTERM) == 1 || sigismember(&p, SIGHUP) == 1;
    }
private:
    sigset_t set_, old_;
};

// Removes, in `parent`, the hidden folders ".NAME.tmp-PID" that a compile of
// the same NAME left when it was killed (SIGKILL, a crash): only that exact
// pattern, only for a PID that no longer runs.
void remove_stale_tmp(const fs::path &parent, const std::string &name) {
    const std::string head = "." + name + ".tmp-";
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string f = it->path().filename().string();
        if (f.size() <= head.size() || f.compare(0, head.size(), head) != 0) continue;
        const std::string digits = f.substr(head.size());
        if (digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
        const long pid = std::stol(digits);
        if (pid <= 1 || pid == (long)getpid()) continue;
        if (!(kill((pid_t)pid, 0) == -1 && errno == ESRCH)) continue;
        std::error_code e2;
        if (fs::is_directory(fs::symlink_status(it->path(), e2))) fs::remove_all(it->path(), e2);
    }
}

}  // namespace

bool write_folder(const std::string &dir_in, const std::map<std::string, std::string> &files, std::string &error) {
    std::error_code ec;
    fs::path dir = fs::path(dir_in);
    if (dir.filename().empty()) dir = dir.parent_path();   // "out/" -> "out"
    fs::path parent = dir.parent_path();
    if (parent.empty()) parent = ".";
    fs::create_directories(parent, ec);
    if (ec) {
        error = "cannot create folder '" + parent.string() + "': " + ec.message();
        return false;
    }
    remove_stale_tmp(parent, dir.filename().string());
    HoldSignals hold;
    std::string tag = std::to_string((long)getpid());
    fs::path tmp = parent / ("." + dir.filename().string() + ".tmp-" + tag);
    fs::remove_all(tmp, ec);
    if (!fs::create_directory(tmp, ec) || ec) {
        error = "cannot create folder '" + tmp.string() + "': " + (ec ? ec.message() : std::string("it exists"));
        return false;
    }
    auto cleanup = [&]() {
        std::error_code e2;
        fs::remove_all(tmp, e2);
    };
    for (const auto &f : files) {
        fs::path p = tmp / f.first;
        std::FILE *fp = std::fopen(p.string().c_str(), "wb");
        if (!fp) {
            error = "cannot write '" + (dir / f.first).string() + "': " + std::strerror(errno);
            cleanup();
            return false;
        }
        size_t n = std::fwrite(f.second.data(), 1, f.second.size(), fp);
        int flush_err = std::fflush(fp);
        int saved = errno;
        int close_err = std::fclose(fp);
        if (n != f.second.size() || flush_err != 0 || close_err != 0) {
            error = "cannot write '" + (dir / f.first).string() + "': " + std::strerror(saved ? saved : errno);
            cleanup();
            return false;
        }
        if (hold.pending()) {
            error = "interrupted by a signal while writing '" + dir.string() + "': nothing written";
            cleanup();
            return false;
        }
    }
    // Move an existing folder aside, put the new one in place, drop the old.
    fs::path old = parent / ("." + dir.filename().string() + ".old-" + tag);
    bool had_old = fs::exists(dir, ec);
    if (had_old) {
        if (!fs::is_directory(dir, ec)) {
            error = "'" + dir.string() + "' exists and is not a folder";
            cleanup();
            return false;
        }
        fs::remove_all(old, ec);
        fs::rename(dir, old, ec);
        if (ec) {
            error = "cannot replace '" + dir.string() + "': " + ec.message();
            cleanup();
            return false;
        }
    }
    fs::rename(tmp, dir, ec);
    if (ec) {
        error = "cannot rename '" + tmp.string() + "' to '" + dir.string() + "': " + ec.message();
        std::error_code e2;
        if (had_old) fs::rename(old, dir, e2);
        cleanup();
        return false;
    }
    if (had_old) fs::remove_all(old, ec);
    return true;
}

}  // namespace vdl
}  // namespace railsym
