// descriptor.cpp — the rs_model descriptor as C99 source; default.scn.
//
// The text is assembled from the Function list and the model's symbols only,
// in their given order (slot order, function order), never from pointers or
// hashes: emitting twice gives the same bytes.
#include "descriptor.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "fn_table.hpp"
#include "rs_model.h"
#include "system.hpp"

namespace railsym {
namespace codegen {

namespace {

// Shortest decimal text that reads back as the same double ("0.3", not
// "0.29999999999999999"); '.0' added so C reads a double.
std::string c_num(double x, const std::string &what) {
    if (!std::isfinite(x)) throw std::invalid_argument("descriptor: " + what + " is not a finite number");
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, x);   // shortest round-trip form
    std::string s(buf, r.ptr);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

// A C string literal; characters outside printable ASCII as octal escapes
// (never hex: a hex escape swallows following hex digits).
std::string c_str(const std::string &s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            char b[8];
            std::snprintf(b, sizeof b, "\\%03o", c);
            o += b;
        } else {
            o += (char)c;
        }
    }
    return o + "\"";
}




int out_size(const Output &o) {
    switch (o.shape) {
    case Shape::Scalar: return 1;
    case Shape::Vector: return o.rows;
    case Shape::Dense: return o.rows * o.cols;
    case Shape::Sparse: return o.nnz();
    }
    return 0;
}

[[noreturn]] void bad(const std::string &model, const std::string &what) {
    throw std::invalid_argument("descriptor of model '" + model + "': " + what);
}

std::string int_array(const std::vector<int> &v) {
    std::ostringstream os;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i % 16 == 0) os << (i ? ",\n    " : "    ");
        else os << ", ";
        os << v[i];
    }
    return os.str();
}

std::string names_array(const std::string &cname, const std::vector<std::string> &names) {
    std::ostringstream os;
    os << "static const char *const " << cname << "[" << names.size() << "] = {\n";
    for (size_t i = 0; i < names.size(); ++i) os << "    " << c_str(names[i]) << (i + 1 < names.size() ? ",\n" : "\n");
    os << "};\n";
    return os.str();
}

// What one output of a function id must be: its shape and size.
struct Expect {
    Shape shape;
    int rows, cols;
};

// One function of the descriptor's table: its row of the ABI table and the
// generated function, whose out[k] is the runtime's out[k].
struct Entry {
    const FnSpec *spec;
    const Function *fn;
    std::vector<int> out_len;
};

// The sparse patterns the descriptor carries (nullptr: the model has none).
struct Patterns {
    const Output *M = nullptr, *phi_q = nullptr, *phi_d_q = nullptr, *ddelta_df = nullptr, *dnu_dqd = nullptr,
                 *wheel_jac = nullptr, *K = nullptr, *C = nullptr;
};

// Checks the functions against the ABI table and the model's sizes, and
// writes the descriptor's text from them, one section at a time.
class DescriptorWriter {
public:
    DescriptorWriter(const ModelSymbols &sym, const std::string &model, const std::vector<Function> &fns)
        : sym_(sym), model_(model), P_(c_identifier(model)), fns_(fns), n_q_((int)sym.q.size()),
          n_phi_((int)sym.phi.size()), nc_((int)sym.contacts.size()) {}

    std::string text() {
        check_symbols();
        collect_functions();
        write_head();
        write_names();
        write_initial_and_defaults();
        write_units();
        write_states();
        write_plugins();
        write_bodies();
        write_inertia_unchecked();
        write_patterns();
        write_contacts();
        write_function_table();
        write_model();
        return os_.str();
    }

private:
    [[noreturn]] void bad(const std::string &what) const { codegen::bad(model_, what); }

    const Function *find(const std::string &name) const {
        for (const Function &f : fns_)
            if (f.name == name) return &f;
        return nullptr;
    }

    void check_symbols() const {
        if (n_q_ == 0) bad("no coordinate");
        if (sym_.p_default.size() != sym_.p.size()) bad("one default value per parameter expected");
        for (const Function &f : fns_)
            if (f.name == "model") bad("a generated function may not be called 'model' (the descriptor's name)");
        const int n_s = (int)sym_.s.size(), n_u = (int)sym_.u.size();
        auto check_slot = [&](const ContactTableEntry &c, int v, int n, const char *what) {
            if (v < 0 || v >= n)
                bad("contact '" + c.name + "': " + what + " slot " + std::to_string(v) + " is outside 0.." +
                    std::to_string(n - 1));
        };
        for (const ContactTableEntry &c : sym_.contacts) {
            if (c.side != 1 && c.side != -1) bad("contact '" + c.name + "': side must be +1 or -1");
            for (int v : c.s_slot) check_slot(c, v, n_s, "auxiliary coordinate");
            for (const ContactTableEntry::Spline &sp : c.spline) {
                for (int v : sp.u_slot) check_slot(c, v, n_u, "spline input");
                check_slot(c, sp.s_slot, n_s, "spline selector");
            }
            for (int v : c.force_slot) check_slot(c, v, n_u, "creep force input");
            check_slot(c, c.phi_row, n_phi_, "normal constraint row");
        }
    }

    // The outputs function id must have (not the combined ones).
    std::vector<Expect> expected(int id) const {
        const int n = n_q_, m = n_phi_, nc = nc_;
        switch (id) {
        case RS_FN_M: return {{Shape::Sparse, n, n}};
        case RS_FN_DELTA: return {{Shape::Vector, n, 1}};
        case RS_FN_PHI: case RS_FN_BETA: case RS_FN_GAMMA: return {{Shape::Vector, m, 1}};
        case RS_FN_PHI_Q: return {{Shape::Sparse, m, n}};
        case RS_FN_ENERGY: return {{Shape::Scalar, 1, 1}, {Shape::Scalar, 1, 1}};
        case RS_FN_OUTPUTS: return {{Shape::Vector, (int)sym_.outputs.size(), 1}};
        case RS_FN_CONSTANTS: return {{Shape::Vector, sym_.n_const, 1}};
        case RS_FN_DELTA_NK: return {{Shape::Vector, n, 1}};
        case RS_FN_PHI_D: case RS_FN_BETA_D: return {{Shape::Vector, 4 * nc, 1}};
        case RS_FN_PHI_D_Q: return {{Shape::Sparse, 4 * nc, n}};
        case RS_FN_PHI_D_S: return {{Shape::Dense, 4 * nc, 4}};
        case RS_FN_CREEP:
            return {{Shape::Vector, 3 * nc, 1}, {Shape::Vector, nc, 1}, {Shape::Vector, 3 * nc, 1},
                    {Shape::Sparse, n, 3 * nc}, {Shape::Sparse, 3 * nc, n}};
        case RS_FN_DELTA_JAC: return {{Shape::Sparse, n, n}, {Shape::Sparse, n, n}};
        case RS_FN_WHEEL:
            return {{Shape::Vector, 12 * nc, 1}, {Shape::Vector, 6 * nc, 1}, {Shape::Sparse, 6 * nc, n},
                    {Shape::Vector, 2 * nc, 1}};
        case RS_FN_POWER: return {{Shape::Vector, RS_POWER_COUNT, 1}};
        case RS_FN_PARAMS: return {{Shape::Vector, (int)sym_.p.size(), 1}};
        case RS_FN_ZDOT: return {{Shape::Vector, (int)sym_.z_slot.size(), 1}, {Shape::Vector, (int)sym_.z_slot.size(), 1}};
        case RS_FN_INERTIA: {
            const int nb = (int)sym_.inertia_bodies.size();
            return {{Shape::Vector, nb, 1}, {Shape::Vector, 6 * nb, 1}};
        }
        case RS_FN_BODY_POSE: return {{Shape::Vector, 12 * (int)sym_.bodies.size(), 1}};
        }
        return {};
    }

    // A separate function: outputs named and ordered as the ABI table says,
    // each of the shape and size the model's dimensions give.
    void check_outputs(const FnSpec &spec, const Function &f) const {
        const std::vector<Expect> want = expected(spec.id);
        if (f.outputs.size() != spec.outputs.size()) bad_outputs(spec, f);
        for (size_t k = 0; k < want.size(); ++k) {
            const Output &o = f.outputs[k];
            if (o.name != spec.outputs[k]) bad_outputs(spec, f);
            const Expect &e = want[k];
            const bool dense_ok = o.shape == e.shape &&
                                  (e.shape == Shape::Scalar || (o.rows == e.rows && o.cols == e.cols));
            if (!dense_ok)
                bad("output '" + o.name + "' of '" + f.name + "' is " + shape_name(o.shape) + " " +
                    std::to_string(o.rows) + "x" + std::to_string(o.cols) + ", expected " + shape_name(e.shape) +
                    " " + std::to_string(e.rows) + "x" + std::to_string(e.cols));
            if (o.shape == Shape::Sparse &&
                ((int)o.colptr.size() != o.cols + 1 || o.colptr[o.cols] != o.nnz() || (int)o.rowidx.size() != o.nnz()))
                bad("sparse output '" + o.name + "' of '" + f.name + "' is not a consistent " +
                    std::to_string(o.rows) + "x" + std::to_string(o.cols) + " compressed-column pattern");
        }
    }

    [[noreturn]] void bad_outputs(const FnSpec &spec, const Function &f) const {
        std::string want, got;
        for (const std::string &o : spec.outputs) want += (want.empty() ? "" : ", ") + o;
        for (const Output &o : f.outputs) got += (got.empty() ? "" : ", ") + o.name;
        bad("function '" + f.name + "' writes (" + got + "); the ABI (" + spec.id_name + ") wants (" + want +
            ") in this order");
    }

    // A combined function: which of its outputs exist (2: no constraint, 4:
    // no contact, 9 with contacts; proj 7 or 8 with the cache; step_elastic
    // 6) and their lengths.
    void check_combined(const FnSpec &spec, const Function &f, size_t n_cache) const {
        const int nnzM = pat_.M->nnz(), nnzG = pat_.phi_q ? pat_.phi_q->nnz() : 0;
        const int nDq = pat_.phi_d_q ? pat_.phi_d_q->nnz() : 0, nDf = pat_.ddelta_df ? pat_.ddelta_df->nnz() : 0,
                  nNq = pat_.dnu_dqd ? pat_.dnu_dqd->nnz() : 0;
        const int nc = nc_;
        std::vector<int> lens;
        size_t count = 0;
        switch (spec.id) {
        case RS_FN_STEP: case RS_FN_STEP_CACHED:
            lens = {nnzM, n_q_, nnzG, n_phi_, 3 * nc, nc, 3 * nc, nDf, nNq};
            count = nc > 0 ? 9 : n_phi_ > 0 ? 4 : 2;
            if (spec.id == RS_FN_STEP_CACHED && nc == 0) bad("combined function 'step_cached' without contacts");
            break;
        case RS_FN_PROJ:
            lens = {4 * nc, n_phi_, nnzG, n_phi_, 16 * nc, nDq, 4 * nc, (int)n_cache};
            count = n_cache ? 8 : 7;
            break;
        case RS_FN_NEWTON:
            lens = {4 * nc, 16 * nc};
            count = 2;
            break;
        case RS_FN_STEP_ELASTIC:
            if (!pat_.wheel_jac) bad("combined function 'step_elastic' without the function 'wheel'");
            lens = {nnzM, n_q_, 12 * nc, 6 * nc, pat_.wheel_jac->nnz(), 2 * nc};
            count = 6;
            break;
        }
        if (spec.id != RS_FN_STEP && nc == 0) bad("combined function '" + f.name + "' without contacts");
        bool ok = f.outputs.size() == count;
        for (size_t k = 0; ok && k < count; ++k) ok = out_size(f.outputs[k]) == lens[k];
        if (!ok) bad("combined function '" + f.name + "' does not match the model's sizes");
    }

    // Every function with a row in the ABI table, in id order; the
    // required ones must be there; the patterns taken from them.
    void collect_functions() {
        for (const Function &f : fns_)
            if (!fn_spec(f.name)) bad("function '" + f.name + "' has no RS_FN_* id (codegen/fn_table.cpp)");
        auto required = [&](int id) {
            switch (id) {
            case RS_FN_M: case RS_FN_DELTA: return true;
            case RS_FN_PHI: case RS_FN_PHI_Q: case RS_FN_BETA: case RS_FN_GAMMA: return n_phi_ > 0;
            case RS_FN_OUTPUTS: return !sym_.outputs.empty();
            case RS_FN_CONSTANTS: return sym_.n_const > 0;
            case RS_FN_DELTA_NK: case RS_FN_PHI_D: case RS_FN_PHI_D_Q: case RS_FN_PHI_D_S: case RS_FN_BETA_D:
            case RS_FN_CREEP: case RS_FN_WHEEL: return nc_ > 0;
            }
            return false;
        };
        // separate functions first: the combined ones are checked against their patterns
        for (const FnSpec &spec : fn_table()) {
            if (spec.combined) continue;
            const Function *f = find(spec.name);
            if (!f) {
                if (required(spec.id)) bad("function '" + spec.name + "' is missing");
                continue;
            }
            if (n_phi_ == 0 && spec.id == RS_FN_PHI) bad("function 'phi' given but the model names no constraint");
            if (nc_ == 0 && spec.id == RS_FN_CREEP) bad("function 'creep' given but the model has no contact");
            check_outputs(spec, *f);
            switch (spec.id) {
            case RS_FN_M: pat_.M = &f->outputs[0]; break;
            case RS_FN_PHI_Q: pat_.phi_q = &f->outputs[0]; break;
            case RS_FN_PHI_D_Q: pat_.phi_d_q = &f->outputs[0]; break;
            case RS_FN_CREEP: pat_.ddelta_df = &f->outputs[3], pat_.dnu_dqd = &f->outputs[4]; break;
            case RS_FN_WHEEL: pat_.wheel_jac = &f->outputs[2]; break;
            case RS_FN_DELTA_JAC: pat_.K = &f->outputs[0], pat_.C = &f->outputs[1]; break;
            }
        }
        const Function *fsc = find(fn_name(RS_FN_STEP_CACHED)), *fpj = find(fn_name(RS_FN_PROJ));
        size_t n_cache = 0;
        if (fsc) {
            if (!fpj || fpj->outputs.size() != 8 || fpj->outputs[7].name != "cache" ||
                out_size(fpj->outputs[7]) != (int)fsc->cached.size())
                bad("step_cached without proj's cache output of its size");
            n_cache = fsc->cached.size();
        }
        for (const FnSpec &spec : fn_table())
            if (spec.combined)
                if (const Function *f = find(spec.name)) check_combined(spec, *f, n_cache);
        for (const FnSpec &spec : fn_table()) {
            const Function *f = find(spec.name);
            if (!f) continue;
            Entry e{&spec, f, {}};
            for (const Output &o : f->outputs) e.out_len.push_back(out_size(o));
            entries_.push_back(e);
        }
    }

    void write_head() {
        os_ << "/* " << P_ << "_model.c — the rs_model descriptor of model '" << model_
            << "'; generated by railsym, do not edit.\n"
            << " * Names, default parameters, sparsity patterns and the function table the\n"
            << " * runtime uses (abi/rs_model.h, docs/abi.md).  C99; no globals but constants. */\n"
            << "#include \"rs_model.h\"\n\n";
        os_ << "/* The generated functions (" << P_ << ".c). */\n";
        for (const Entry &e : entries_)
            os_ << "int " << c_function_name(model_, e.fn->name) << "(const double *const *in, double *const *out);\n";
        os_ << "const rs_model *" << P_ << "_model(void);\n\n";
    }

    std::string names_or_null(const std::string &cname, const std::vector<std::string> &v) {
        if (v.empty()) return "0";
        os_ << names_array(cname, v);
        return cname;
    }

    void write_names() {
        os_ << "/* Names per symbol kind, in slot order. */\n";
        field("q_names", names_or_null("rsd_q_names", sym_.q));
        field("s_names", names_or_null("rsd_s_names", sym_.s));
        field("p_names", names_or_null("rsd_p_names", sym_.p));
        field("u_names", names_or_null("rsd_u_names", sym_.u));
        field("phi_names", names_or_null("rsd_phi_names", sym_.phi));
        field("output_names", names_or_null("rsd_output_names", sym_.outputs));
    }

    // A double array, one commented value per line; "0" when empty.
    std::string doubles(const std::string &cname, const char *doc, const std::vector<double> &v,
                        const std::vector<std::string> &names, const std::string &what) {
        if (v.empty()) return "0";
        os_ << "\n/* " << doc << " */\nstatic const double " << cname << "[" << v.size() << "] = {\n";
        for (size_t i = 0; i < v.size(); ++i)
            os_ << "    " << c_num(v[i], what + " '" + names[i] + "'") << (i + 1 < v.size() ? ",   /* " : "    /* ")
                << names[i] << " */\n";
        os_ << "};\n";
        return cname;
    }

    void write_initial_and_defaults() {
        field("p_default", doubles("rsd_p_default", "Default parameter values [SI].", sym_.p_default, sym_.p,
                                   "the default of parameter"));
        if (sym_.q0.size() != sym_.q.size() || sym_.qd0.size() != sym_.q.size())
            bad("one initial value and velocity per coordinate expected");
        last_fields_.push_back({"q0", doubles("rsd_q0", "Initial coordinates.", sym_.q0, sym_.q, "the initial value of")});
        last_fields_.push_back(
            {"qd0", doubles("rsd_qd0", "Initial velocities.", sym_.qd0, sym_.q, "the initial velocity of")});
    }

    // Units per kind: "" where unknown; an empty vector means all unknown.
    void write_units() {
        auto units = [&](const char *kind, const std::vector<std::string> &u, size_t n) {
            if (u.empty() || n == 0) return std::string("0");
            if (u.size() != n) bad(std::string("one unit per symbol of kind ") + kind + " expected");
            const std::string cname = std::string("rsd_") + kind + "_units";
            os_ << "static const char *const " << cname << "[" << n << "] = {";
            for (size_t i = 0; i < n; ++i) os_ << (i % 8 ? ", " : (i ? ",\n    " : "\n    ")) << c_str(u[i]);
            os_ << "\n};\n";
            return cname;
        };
        os_ << "\n/* Units per symbol kind, in slot order (\"\": unknown; docs/abi.md). */\n";
        last_fields_.push_back({"q_units", units("q", sym_.q_units, sym_.q.size())});
        last_fields_.push_back({"s_units", units("s", sym_.s_units, sym_.s.size())});
        last_fields_.push_back({"p_units", units("p", sym_.p_units, sym_.p.size())});
        last_fields_.push_back({"u_units", units("u", sym_.u_units, sym_.u.size())});
        last_fields_.push_back({"output_units", units("output", sym_.output_units, sym_.outputs.size())});
        char h[32];
        std::snprintf(h, sizeof h, "0x%016llxull", sym_.content_hash);
        last_fields_.push_back({"content_hash", h});
        if (!sym_.inertia_bodies.empty())   // (the others' descriptor stays as it was)
            last_fields_.push_back({"inertia_bodies", names_or_null("rsd_inertia_bodies", sym_.inertia_bodies)});
    }

    // Internal states: only in models that have them (the others' descriptor
    // stays as it was).
    void write_states() {
        const size_t n = sym_.z_slot.size();
        if (n == 0) return;
        std::vector<std::string> names, units;
        for (int u : sym_.z_slot) {
            if (u < 0 || (size_t)u >= sym_.u.size()) bad("an internal state's input slot is out of range");
            names.push_back(sym_.u[(size_t)u]);
            units.push_back(sym_.u_units.empty() ? "" : sym_.u_units[(size_t)u]);
        }
        os_ << "\n/* Internal states z (docs/elements.md): input slot, name, unit, initial value. */\n"
            << "static const int rsd_z_slot[" << n << "] = {" << int_array(sym_.z_slot).substr(4) << "};\n"
            << "static const char *const rsd_z_names[" << n << "] = {";
        for (size_t i = 0; i < n; ++i) os_ << (i ? ", " : "") << c_str(names[i]);
        os_ << "};\nstatic const char *const rsd_z_units[" << n << "] = {";
        for (size_t i = 0; i < n; ++i) os_ << (i ? ", " : "") << c_str(units[i]);
        os_ << "};\n";
        last_fields_.push_back({"n_z", std::to_string(n)});
        last_fields_.push_back({"z_slot", "rsd_z_slot"});
        last_fields_.push_back({"z_names", "rsd_z_names"});
        last_fields_.push_back({"z_units", "rsd_z_units"});
        last_fields_.push_back({"z0", doubles("rsd_z0", "Initial internal states.", sym_.z0, names, "the initial value of")});
    }

    // User plugin forces: only in models that have them.
    void write_plugins() {
        const size_t n = sym_.plugins.size();
        if (n == 0) return;
        std::string table;
        for (size_t i = 0; i < n; ++i) {
            const ModelSymbols::Plugin &g = sym_.plugins[i];
            for (int k = 0; k < 5; ++k)
                if (g.u_slot[k] < 0 || (size_t)g.u_slot[k] >= sym_.u.size()) bad("a plugin's input slot is out of range");
            if (g.out_x < 0 || g.out_v < 0 || (size_t)g.out_x >= sym_.outputs.size() ||
                (size_t)g.out_v >= sym_.outputs.size())
                bad("a plugin's output is out of range");
            std::string par = "0";
            if (!g.params.empty()) {
                par = "rsd_plugin_param" + std::to_string(i);
                os_ << "\n/* Parameters of plugin '" << g.name << "'. */\nstatic const double " << par << "["
                    << g.params.size() << "] = {";
                for (size_t j = 0; j < g.params.size(); ++j)
                    os_ << (j ? ", " : "") << c_num(g.params[j], "parameter of plugin '" + g.name + "'");
                os_ << "};\n";
            }
            table += "    {" + c_str(g.name) + ", " + c_str(g.library) + ", " + std::to_string(g.params.size()) + ", " +
                     par + ", " + std::to_string(g.n_state) + ", {";
            for (int k = 0; k < 5; ++k) table += (k ? ", " : "") + std::to_string(g.u_slot[k]);
            table += "}, " + std::to_string(g.out_x) + ", " + std::to_string(g.out_v) + "},\n";
        }
        os_ << "\n/* User plugin forces (abi/rs_plugin.h): name, library, params, states, input slots\n"
               " * f, dfdx, dfdv, x_eval, v_eval, outputs x, v. */\n"
            << "static const rs_model_plugin rsd_plugins[" << n << "] = {\n" << table << "};\n";
        last_fields_.push_back({"n_plugin", std::to_string(n)});
        last_fields_.push_back({"plugins", "rsd_plugins"});
    }

    // Every body's name: the rows of RS_FN_BODY_POSE (only with it).
    void write_bodies() {
        bool has_pose = false;
        for (const Function &f : fns_) has_pose = has_pose || f.name == fn_name(RS_FN_BODY_POSE);
        if (!has_pose || sym_.bodies.empty()) return;
        last_fields_.push_back({"n_body", std::to_string(sym_.bodies.size())});
        last_fields_.push_back({"body_names", names_or_null("rsd_body_names", sym_.bodies)});
    }

    // Which of inertia_bodies say `inertia_unchecked` (version 14): only in
    // models that have one (the others' descriptor stays as it was).
    void write_inertia_unchecked() {
        if (sym_.inertia_unchecked.size() != sym_.inertia_bodies.size())
            bad("one inertia_unchecked flag per body of inertia_bodies expected");
        bool any = false;
        for (int u : sym_.inertia_unchecked) any = any || u != 0;
        if (!any) return;
        os_ << "\n/* Per entry of inertia_bodies: 1 where the description says inertia_unchecked\n"
               " * (the runtime skips the triangle inequality for it, nothing else). */\n"
            << "static const int rsd_inertia_unchecked[" << sym_.inertia_unchecked.size() << "] = {"
            << int_array(sym_.inertia_unchecked).substr(4) << "};\n";
        last_fields_.push_back({"inertia_unchecked", "rsd_inertia_unchecked"});
    }

    std::string pattern(const char *tag, const Output &o) {
        os_ << "\n/* Pattern of " << tag << " (" << o.rows << " x " << o.cols << ", " << o.nnz()
            << " non-zeros), compressed columns. */\n";
        os_ << "static const int rsd_" << tag << "_colptr[" << o.colptr.size() << "] = {\n" << int_array(o.colptr)
            << "\n};\n";
        std::string rows = "0";
        if (o.nnz() > 0) {
            os_ << "static const int rsd_" << tag << "_rowind[" << o.rowidx.size() << "] = {\n"
                << int_array(o.rowidx) << "\n};\n";
            rows = std::string("rsd_") + tag + "_rowind";
        }
        return "{" + std::to_string(o.rows) + ", " + std::to_string(o.cols) + ", rsd_" + tag + "_colptr, " + rows +
               "}";
    }

    // Each pattern once: the functions' values follow them.
    void write_patterns() {
        field("M_pattern", pattern("M", *pat_.M));
        field("phi_q_pattern", pat_.phi_q ? pattern("phi_q", *pat_.phi_q) : "{0, " + std::to_string(n_q_) + ", 0, 0}");
        if (nc_ > 0) {
            tail_fields_.push_back({"phi_d_q_pattern", pattern("phi_d_q", *pat_.phi_d_q)});
            tail_fields_.push_back({"ddelta_df_pattern", pattern("ddelta_df", *pat_.ddelta_df)});
            tail_fields_.push_back({"dnu_dqd_pattern", pattern("dnu_dqd", *pat_.dnu_dqd)});
            tail_fields_.push_back({"wheel_jac_pattern", pattern("wheel_jac", *pat_.wheel_jac)});
        }
        if (pat_.K) {
            jac_fields_.push_back({"K_pattern", pattern("K", *pat_.K)});
            jac_fields_.push_back({"C_pattern", pattern("C", *pat_.C)});
        }
    }

    void write_contacts() {
        if (nc_ == 0) return;
        os_ << "\n/* Wheel-rail contacts (docs/contact_element.md): s slots of theta_w, u_w, s_r,\n"
            << " * u_r; per spline (wheel, rail, track_x, track_y, track_z, cant) the u slots of\n"
            << " * a, b, c, d, u_bp, the s slot selecting the segment and the file; u slots of\n"
            << " * fx, fy, mz; the row of phi_n in phi; 1 when the description makes it elastic. */\n"
            << "static const rs_contact rsd_contacts[" << nc_ << "] = {\n";
        for (const ContactTableEntry &c : sym_.contacts) {
            os_ << "    {" << c_str(c.name) << ", " << c_str(c.wheel_body) << ", " << c.side << ", {"
                << int_array(std::vector<int>(c.s_slot.begin(), c.s_slot.end())).substr(4) << "},\n     {";
            for (int k = 0; k < kContactSplines; ++k) {
                const ContactTableEntry::Spline &sp = c.spline[k];
                os_ << (k ? ",\n      " : "") << "{{"
                    << int_array(std::vector<int>(sp.u_slot.begin(), sp.u_slot.end())).substr(4) << "}, "
                    << sp.s_slot << ", " << c_str(sp.file) << "}";
            }
            os_ << "},\n     {" << int_array(std::vector<int>(c.force_slot.begin(), c.force_slot.end())).substr(4)
                << "}, " << c.phi_row << ", " << (c.elastic ? 1 : 0) << "},\n";
        }
        os_ << "};\n";
    }

    // The generated functions themselves, their outputs in the runtime's
    // order (fn_table.hpp): no wrapper between the runtime and them.
    void write_function_table() {
        os_ << "\n/* Shapes of what each function writes (out[k] as the runtime passes it). */\n";
        for (const Entry &e : entries_) {
            const std::string tag = "rsd_" + e.spec->name;
            os_ << "static const int " << tag << "_len[" << e.out_len.size() << "] = {"
                << int_array(e.out_len).substr(4) << "};\n";
            os_ << "static const char *const " << tag << "_outs[" << e.out_len.size() << "] = {";
            for (size_t k = 0; k < e.fn->outputs.size(); ++k) os_ << (k ? ", " : "") << c_str(e.fn->outputs[k].name);
            os_ << "};\n";
        }
    }

    void write_model() {
        os_ << "\nstatic const rs_model rsd_model = {\n"
            << "    .magic = RS_MODEL_MAGIC,\n"
            << "    .version = RS_MODEL_VERSION,\n"
            << "    .name = " << c_str(P_) << ",\n"
            << "    .n_q = " << n_q_ << ",\n"
            << "    .n_s = " << sym_.s.size() << ",\n"
            << "    .n_p = " << sym_.p.size() << ",\n"
            << "    .n_u = " << sym_.u.size() << ",\n"
            << "    .n_const = " << sym_.n_const << ",\n"
            << "    .n_phi = " << n_phi_ << ",\n"
            << "    .n_out = " << sym_.outputs.size() << ",\n";
        for (const auto &f : fields_) os_ << "    ." << f.first << " = " << f.second << ",\n";
        os_ << "    .fn = {\n";
        for (const Entry &e : entries_)
            os_ << "        [" << e.spec->id_name << "] = {" << c_function_name(model_, e.fn->name) << ", "
                << e.out_len.size() << ", rsd_" << e.spec->name << "_len, rsd_" << e.spec->name << "_outs},\n";
        os_ << "    },\n";
        if (nc_ > 0) os_ << "    .n_contact = " << nc_ << ",\n" << "    .contacts = rsd_contacts,\n";
        for (const auto &f : tail_fields_) os_ << "    ." << f.first << " = " << f.second << ",\n";
        for (const auto &f : jac_fields_) os_ << "    ." << f.first << " = " << f.second << ",\n";
        for (const auto &f : last_fields_) os_ << "    ." << f.first << " = " << f.second << ",\n";
        os_ << "};\n\n";
        os_ << "const rs_model *" << P_ << "_model(void)\n{\n    return &rsd_model;\n}\n";
    }

    void field(const char *name, const std::string &value) { fields_.push_back({name, value}); }

    const ModelSymbols &sym_;
    const std::string &model_;
    const std::string P_;
    const std::vector<Function> &fns_;
    const int n_q_, n_phi_, nc_;
    Patterns pat_;
    std::vector<Entry> entries_;
    std::ostringstream os_;
    // rs_model fields in declaration order: before .fn, after .contacts, last
    std::vector<std::pair<std::string, std::string>> fields_, tail_fields_, jac_fields_, last_fields_;
};

}  // namespace

ModelSymbols model_symbols(const System &sys) {
    const std::vector<Ex> q = sys.coords();
    if (q.empty()) throw std::invalid_argument("descriptor: the model has no coordinate");
    const Store &st = *q[0].store();
    ModelSymbols m;
    auto names = [&](SymKind k) {
        std::vector<std::string> v;
        for (const Ex &e : st.symbols_of(k)) v.push_back(st.sym(e.id()).name);
        return v;
    };
    m.q = names(SymKind::Coord);
    m.s = names(SymKind::Aux);
    m.p = names(SymKind::Param);
    m.u = names(SymKind::Input);
    m.n_const = st.count(SymKind::Const);
    for (const NamedEx &c : sys.constraints()) m.phi.push_back(c.name);
    for (const NamedEx &o : sys.outputs()) m.outputs.push_back(o.name);
    m.contacts = sys.contact_table();
    for (int b : sys.parameter_inertia_bodies()) {
        m.inertia_bodies.push_back(sys.bodies()[(size_t)b].name);
        m.inertia_unchecked.push_back(sys.bodies()[(size_t)b].check_triangle ? 0 : 1);
    }
    for (const Body &b : sys.bodies()) m.bodies.push_back(b.name);
    const SymValues d = sys.defaults();
    for (size_t i = 0; i < m.p.size(); ++i) m.p_default.push_back(d.get(SymKind::Param, (int)i));
    for (size_t i = 0; i < m.q.size(); ++i) {
        m.q0.push_back(d.get(SymKind::Coord, (int)i));
        m.qd0.push_back(d.get(SymKind::Vel, (int)i));
    }
    // Units the modeler knows (see descriptor.hpp); "" elsewhere.
    m.q_units.assign(m.q.size(), "");
    m.s_units.assign(m.s.size(), "");
    m.p_units.assign(m.p.size(), "");
    m.u_units.assign(m.u.size(), "");
    m.output_units.assign(m.outputs.size(), "");
    for (const ForceElement &f : sys.forces())
        if (f.law.ks.valid()) {   // a series branch's state: its spring's deflection
            const int slot = st.sym(f.law.z.id()).slot;
            m.z_slot.push_back(slot);
            m.z0.push_back(d.get(SymKind::Input, slot));
            m.u_units[(size_t)slot] = "m";
        }
    for (const System::Plugin &g : sys.plugins()) {   // slots and outputs by the names add_plugin gave them
        ModelSymbols::Plugin e;
        e.name = g.name;
        e.library = g.library;
        e.params = g.params;
        e.n_state = g.n_state;
        static const char *const slot[5] = {".f", ".dfdx", ".dfdv", ".x_eval", ".v_eval"};
        static const char *const unit[5] = {"N", "N/m", "N s/m", "m", "m/s"};
        for (int k = 0; k < 5; ++k)
            for (size_t i = 0; i < m.u.size(); ++i)
                if (m.u[i] == g.name + slot[k]) {
                    e.u_slot[k] = (int)i;
                    m.u_units[i] = unit[k];
                }
        for (size_t i = 0; i < m.outputs.size(); ++i) {
            if (m.outputs[i] == g.name + ".x") e.out_x = (int)i, m.output_units[i] = "m";
            if (m.outputs[i] == g.name + ".v") e.out_v = (int)i, m.output_units[i] = "m/s";
        }
        m.plugins.push_back(e);
    }
    const BaseTree &bt = sys.bases();
    for (int b = 1; b < bt.size(); ++b)
        for (const Ex &w : bt.omega_edge(b))   // θ̇·axis: a bare q̇ is a rotation angle's rate
            if (w.valid() && w.is_symbol() && st.sym(w.id()).kind == SymKind::Vel)
                m.q_units[(size_t)st.sym(w.id()).slot] = "rad";
    for (const ContactTableEntry &c : m.contacts) {
        static const char *const s_unit[4] = {"rad", "m", "m", "m"};   // θ_w, u_w, s_r, u_r
        static const char *const f_unit[3] = {"N", "N", "N m"};        // f_x, f_y, m_z
        for (int k = 0; k < 4; ++k)
            if (c.s_slot[k] >= 0 && (size_t)c.s_slot[k] < m.s_units.size()) m.s_units[(size_t)c.s_slot[k]] = s_unit[k];
        for (int k = 0; k < 3; ++k)
            if (c.force_slot[k] >= 0 && (size_t)c.force_slot[k] < m.u_units.size())
                m.u_units[(size_t)c.force_slot[k]] = f_unit[k];
        // Spline segment coefficients of value(u) = ((a t + b) t + c) t + d,
        // t = u − u_bp (contact_cubic): every abscissa is in m, every value in
        // m except the cant's, in rad.
        static const char *const coef_m[5] = {"m^-2", "m^-1", "1", "m", "m"};
        static const char *const coef_rad[5] = {"rad/m^3", "rad/m^2", "rad/m", "rad", "m"};
        for (int k = 0; k < kContactSplines; ++k) {
            const char *const *cu = std::string(contact_spline_name(k)) == "cant" ? coef_rad : coef_m;
            for (int j = 0; j < 5; ++j) {
                const int slot = c.spline[(size_t)k].u_slot[(size_t)j];
                if (slot >= 0 && (size_t)slot < m.u_units.size()) m.u_units[(size_t)slot] = cu[j];
            }
        }
    }
    return m;
}

std::vector<Function> runtime_contact_functions(const std::vector<Function> &contact_fns) {
    return runtime_functions(contact_fns);
}

unsigned long long fnv1a64(const std::string &bytes) {
    unsigned long long h = 0xcbf29ce484222325ull;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string descriptor_file_name(const std::string &model) { return c_identifier(model) + "_model.c"; }

std::string emit_descriptor_c(const System &sys, const std::string &model, const std::vector<Function> &fns) {
    return emit_descriptor_c(model_symbols(sys), model, fns);
}

std::string emit_descriptor_c(const ModelSymbols &sym, const std::string &model, const std::vector<Function> &fns) {
    return DescriptorWriter(sym, model, fns).text();
}

std::string emit_default_scenario(const System &sys, const std::string &model) {
    const std::vector<Ex> q = sys.coords();
    if (q.empty()) throw std::invalid_argument("default scenario: the model has no coordinate");
    const Store &st = *q[0].store();
    const SymValues d = sys.defaults();
    std::ostringstream os;
    os << "# default.scn — initial state and inputs of model '" << model << "' as its\n"
       << "# description gives them; generated by railsym, do not edit.  `railsym run`\n"
       << "# reads this first; a --scenario file overrides any line (docs/scenario.md).\n";
    for (const Ex &e : st.symbols_of(SymKind::Coord)) {
        const SymInfo &s = st.sym(e.id());
        os << "initial " << s.name << " = " << c_num(d.get(SymKind::Coord, s.slot), "initial " + s.name) << "\n";
    }
    for (const Ex &e : st.symbols_of(SymKind::Coord)) {
        const SymInfo &s = st.sym(e.id());
        os << "initial " << s.name << "_dot = " << c_num(d.get(SymKind::Vel, s.slot), "initial " + s.name + "_dot")
           << "\n";
    }
    // An element's internal state (an input the step integrates) is state:
    // `initial`; the scenario reader refuses it as an `input`.
    std::set<int> states;
    for (const ForceElement &f : sys.forces())
        if (f.law.ks.valid()) states.insert(f.law.z.id());
    for (const Ex &e : st.symbols_of(SymKind::Input)) {
        const SymInfo &s = st.sym(e.id());
        os << (states.count(e.id()) ? "initial " : "input ") << s.name << " = "
           << c_num(d.get(SymKind::Input, s.slot), "input " + s.name) << "\n";
    }
    return os.str();
}

}  // namespace codegen
}  // namespace railsym
