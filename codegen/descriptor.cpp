// descriptor.cpp — the rs_model descriptor as C99 source; default.scn.
//
// The text is assembled from the Function list and the model's symbols only,
// in their given order (slot order, function order), never from pointers or
// hashes: emitting twice gives the same bytes.
#include "descriptor.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

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

const Function *find_fn(const std::vector<Function> &fns, const std::string &name) {
    for (const Function &f : fns)
        if (f.name == name) return &f;
    return nullptr;
}

int find_out(const Function &f, const std::string &name) {
    for (size_t i = 0; i < f.outputs.size(); ++i)
        if (f.outputs[i].name == name) return (int)i;
    return -1;
}

int find_sparse(const Function &f) {
    for (size_t i = 0; i < f.outputs.size(); ++i)
        if (f.outputs[i].shape == Shape::Sparse) return (int)i;
    return -1;
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

// One entry of the runtime's function table.
struct Entry {
    std::string id;                      // "RS_FN_M", ...
    std::string tag;                     // short name used in static identifiers
    std::string target;                  // the generated C function
    const Function *fn = nullptr;
    // Retargeting: runtime out[k] is generated output map[k] (whole array).
    std::vector<int> map;
    // Gathering (gather == true): every generated output is written into
    // runtime out[0] at its offset.
    bool gather = false;
    std::vector<int> out_len;
    std::vector<std::string> out_names;

    bool direct() const {
        if (gather) return fn->outputs.size() == 1 && fn->outputs[0].shape != Shape::Sparse;
        if (map.size() != fn->outputs.size()) return false;
        for (size_t k = 0; k < map.size(); ++k)
            if (map[k] != (int)k) return false;
        return true;
    }
};

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
    m.n_k = st.count(SymKind::Const);
    for (const NamedEx &c : sys.constraints()) m.phi.push_back(c.name);
    m.contacts = sys.contact_table();
    const SymValues d = sys.defaults();
    for (size_t i = 0; i < m.p.size(); ++i) m.p_default.push_back(d.get(SymKind::Param, (int)i));
    return m;
}

std::vector<Function> runtime_contact_functions(const std::vector<Function> &contact_fns) {
    std::vector<Function> out;
    for (const char *name : {"delta_nk", "phi_d", "phi_d_q", "phi_d_s", "beta_d", "creep"})
        if (const Function *f = find_fn(contact_fns, name)) out.push_back(*f);
    return out;
}

std::string descriptor_file_name(const std::string &model) { return c_identifier(model) + "_model.c"; }

std::string emit_descriptor_c(const System &sys, const std::string &model, const std::vector<Function> &fns) {
    return emit_descriptor_c(model_symbols(sys), model, fns);
}

std::string emit_descriptor_c(const ModelSymbols &sym, const std::string &model, const std::vector<Function> &fns) {
    const std::string P = c_identifier(model);
    const int n_q = (int)sym.q.size(), n_phi = (int)sym.phi.size();
    if (n_q == 0) bad(model, "no coordinate");
    if (sym.p_default.size() != sym.p.size()) bad(model, "one default value per parameter expected");
    for (const Function &f : fns)
        if (f.name == "model") bad(model, "a generated function may not be called 'model' (the descriptor's name)");

    auto need = [&](const std::string &name) -> const Function & {
        const Function *f = find_fn(fns, name);
        if (!f) bad(model, "function '" + name + "' is missing");
        return *f;
    };
    auto need_out = [&](const Function &f, const std::string &name, Shape shape, int len) {
        int j = find_out(f, name);
        if (j < 0) bad(model, "function '" + f.name + "' has no output '" + name + "'");
        const Output &o = f.outputs[j];
        if (o.shape != shape || out_size(o) != len)
            bad(model, "output '" + name + "' of '" + f.name + "' is " + shape_name(o.shape) + " of " +
                           std::to_string(out_size(o)) + " values, expected " + shape_name(shape) + " of " +
                           std::to_string(len));
        return j;
    };
    auto need_sparse = [&](const Function &f, int rows, int cols) {
        int j = find_sparse(f);
        if (j < 0) bad(model, "function '" + f.name + "' has no sparse output (the runtime needs its pattern)");
        const Output &o = f.outputs[j];
        if (o.rows != rows || o.cols != cols || (int)o.colptr.size() != cols + 1 || o.colptr[cols] != o.nnz() ||
            (int)o.rowidx.size() != o.nnz())
            bad(model, "sparse output '" + o.name + "' of '" + f.name + "' is not a consistent " +
                           std::to_string(rows) + "x" + std::to_string(cols) + " compressed-column pattern");
        return j;
    };

    auto need_sparse_named = [&](const Function &f, const std::string &name, int rows, int cols) {
        const int j = find_out(f, name);
        if (j < 0 || f.outputs[j].shape != Shape::Sparse)
            bad(model, "function '" + f.name + "' has no sparse output '" + name + "'");
        const Output &o = f.outputs[j];
        if (o.rows != rows || o.cols != cols || (int)o.colptr.size() != cols + 1 || o.colptr[cols] != o.nnz() ||
            (int)o.rowidx.size() != o.nnz())
            bad(model, "sparse output '" + name + "' of '" + f.name + "' is not a consistent " +
                           std::to_string(rows) + "x" + std::to_string(cols) + " compressed-column pattern");
        return j;
    };

    std::vector<Entry> entries;
    auto retarget = [&](const char *id, const char *tag, const Function &f, std::vector<int> map,
                        std::vector<std::string> names) {
        Entry e;
        e.id = id;
        e.tag = tag;
        e.fn = &f;
        e.target = c_function_name(model, f.name);
        e.map = std::move(map);
        for (int j : e.map) e.out_len.push_back(out_size(f.outputs[j]));
        e.out_names = std::move(names);
        entries.push_back(e);
    };

    // M and its pattern.
    const Function &fM = need("M");
    const int jM = need_sparse(fM, n_q, n_q);
    const Output &oM = fM.outputs[jM];
    retarget("RS_FN_M", "M", fM, {jM}, {"M"});
    // δ
    const Function &fd = need("delta");
    retarget("RS_FN_DELTA", "delta", fd, {need_out(fd, "delta", Shape::Vector, n_q)}, {"delta"});
    // constraints
    const Output *oG = nullptr;
    if (n_phi > 0) {
        const Function &fp = need("phi");
        retarget("RS_FN_PHI", "phi", fp, {need_out(fp, "phi", Shape::Vector, n_phi)}, {"phi"});
        const Function &fq = need("phi_q");
        const int jG = need_sparse(fq, n_phi, n_q);
        oG = &fq.outputs[jG];
        retarget("RS_FN_PHI_Q", "phi_q", fq, {jG}, {"phi_q"});
        const Function &fb = need("beta");
        retarget("RS_FN_BETA", "beta", fb, {need_out(fb, "beta", Shape::Vector, n_phi)}, {"beta"});
        const Function &fg = need("gamma");
        retarget("RS_FN_GAMMA", "gamma", fg, {need_out(fg, "gamma", Shape::Vector, n_phi)}, {"gamma"});
    } else if (find_fn(fns, "phi")) {
        bad(model, "function 'phi' given but the model names no constraint");
    }
    // energy (optional)
    if (const Function *fe = find_fn(fns, "energy"))
        retarget("RS_FN_ENERGY", "energy", *fe,
                 {need_out(*fe, "kinetic", Shape::Scalar, 1), need_out(*fe, "potential", Shape::Scalar, 1)},
                 {"kinetic", "potential"});
    // user outputs and hoisted constants: every output gathered into out[0]
    std::vector<std::string> out_names;
    auto gather = [&](const char *id, const char *tag, const Function &f, std::vector<std::string> *names) {
        Entry e;
        e.id = id;
        e.tag = tag;
        e.fn = &f;
        e.target = c_function_name(model, f.name);
        e.gather = true;
        int total = 0;
        for (const Output &o : f.outputs) {
            if (o.shape == Shape::Sparse) bad(model, "output '" + o.name + "' of '" + f.name + "' may not be sparse");
            const int len = out_size(o);
            if (names) {
                if (len == 1) names->push_back(o.name);
                else
                    for (int i = 0; i < len; ++i) names->push_back(o.name + "_" + std::to_string(i));
            }
            total += len;
        }
        e.out_len = {total};
        e.out_names = {tag};
        entries.push_back(e);
        return total;
    };
    if (const Function *fo = find_fn(fns, "outputs")) gather("RS_FN_OUTPUTS", "outputs", *fo, &out_names);
    if (sym.n_k > 0) {
        const Function &fk = need("constants");
        if (gather("RS_FN_CONSTANTS", "constants", fk, nullptr) != sym.n_k)
            bad(model, "function 'constants' writes a number of values other than the " + std::to_string(sym.n_k) +
                           " hoisted constants");
    }

    // wheel-rail contacts: the table, their functions and three patterns
    const int nc = (int)sym.contacts.size();
    const Output *oDq = nullptr, *oDf = nullptr, *oNq = nullptr;
    if (nc > 0) {
        const int n_s = (int)sym.s.size(), n_u = (int)sym.u.size();
        auto check_slot = [&](const ContactTableEntry &c, int v, int n, const char *what) {
            if (v < 0 || v >= n)
                bad(model, "contact '" + c.name + "': " + what + " slot " + std::to_string(v) + " is outside 0.." +
                               std::to_string(n - 1));
        };
        for (const ContactTableEntry &c : sym.contacts) {
            if (c.side != 1 && c.side != -1) bad(model, "contact '" + c.name + "': side must be +1 or -1");
            for (int v : c.s_slot) check_slot(c, v, n_s, "auxiliary coordinate");
            for (const ContactTableEntry::Spline &sp : c.spline) {
                for (int v : sp.u_slot) check_slot(c, v, n_u, "spline input");
                check_slot(c, sp.s_slot, n_s, "spline selector");
            }
            for (int v : c.force_slot) check_slot(c, v, n_u, "creep force input");
            check_slot(c, c.phi_row, n_phi, "normal constraint row");
        }
        const Function &fdn = need("delta_nk");
        retarget("RS_FN_DELTA_NK", "delta_nk", fdn, {need_out(fdn, "delta_nk", Shape::Vector, n_q)}, {"delta_nk"});
        const Function &fpd = need("phi_d");
        retarget("RS_FN_PHI_D", "phi_d", fpd, {need_out(fpd, "phi_d", Shape::Vector, 4 * nc)}, {"phi_d"});
        const Function &fpq = need("phi_d_q");
        const int jDq = need_sparse_named(fpq, "phi_d_q", 4 * nc, n_q);
        oDq = &fpq.outputs[jDq];
        retarget("RS_FN_PHI_D_Q", "phi_d_q", fpq, {jDq}, {"phi_d_q"});
        const Function &fps = need("phi_d_s");
        retarget("RS_FN_PHI_D_S", "phi_d_s", fps, {need_out(fps, "phi_d_s", Shape::Dense, 16 * nc)}, {"phi_d_s"});
        const Function &fbd = need("beta_d");
        retarget("RS_FN_BETA_D", "beta_d", fbd, {need_out(fbd, "beta_d", Shape::Vector, 4 * nc)}, {"beta_d"});
        const Function &fc = need("creep");
        const int jDf = need_sparse_named(fc, "ddelta_df", n_q, 3 * nc);
        const int jNq = need_sparse_named(fc, "dnu_dqd", 3 * nc, n_q);
        oDf = &fc.outputs[jDf];
        oNq = &fc.outputs[jNq];
        retarget("RS_FN_CREEP", "creep", fc,
                 {need_out(fc, "nu", Shape::Vector, 3 * nc), need_out(fc, "V", Shape::Vector, nc),
                  need_out(fc, "radii", Shape::Vector, 3 * nc), jDf, jNq},
                 {"nu", "V", "radii", "ddelta_df", "dnu_dqd"});
    } else if (find_fn(fns, "creep")) {
        bad(model, "function 'creep' given but the model has no contact");
    }
    // force Jacobians (optional)
    const Output *oK = nullptr, *oC = nullptr;
    if (const Function *fj = find_fn(fns, "delta_jac")) {
        const int jK = need_sparse_named(*fj, "K", n_q, n_q), jC = need_sparse_named(*fj, "C", n_q, n_q);
        oK = &fj->outputs[jK];
        oC = &fj->outputs[jC];
        retarget("RS_FN_DELTA_JAC", "delta_jac", *fj, {jK, jC}, {"K", "C"});
    }

    // combined functions (codegen/stepfn.hpp): their outputs are already in
    // the runtime's order; only the sizes are checked
    auto combined = [&](const char *id, const char *tag, std::vector<int> lens, std::vector<std::string> names) {
        const Function *f = find_fn(fns, tag);
        if (!f) return;
        lens.resize(std::min(lens.size(), f->outputs.size()));
        bool ok = f->outputs.size() == (size_t)(nc > 0 ? names.size() : n_phi > 0 ? 4 : 2) &&
                  (nc > 0 || std::string(tag) == "step") && (nc > 0 || std::string(tag) != "step_cached");
        for (size_t k = 0; ok && k < f->outputs.size(); ++k) ok = out_size(f->outputs[k]) == lens[k];
        if (!ok) bad(model, std::string("combined function '") + tag + "' does not match the model's sizes");
        std::vector<int> map;
        for (size_t k = 0; k < f->outputs.size(); ++k) map.push_back((int)k);
        names.resize(f->outputs.size());
        retarget(id, tag, *f, map, names);
    };
    const int nnzG = oG ? oG->nnz() : 0;
    combined("RS_FN_STEP", "step",
             {oM.nnz(), n_q, nnzG, n_phi, 3 * nc, nc, 3 * nc, oDf ? oDf->nnz() : 0, oNq ? oNq->nnz() : 0},
             {"M", nc > 0 ? "delta_nk" : "delta", "phi_q", "gamma", "nu", "V", "radii", "ddelta_df", "dnu_dqd"});
    // with step_cached, proj writes the cache as out[7]
    const Function *fsc = find_fn(fns, "step_cached");
    const Function *fpj = find_fn(fns, "proj");
    std::vector<int> proj_lens = {4 * nc, n_phi, nnzG, n_phi, 16 * nc, oDq ? oDq->nnz() : 0, 4 * nc};
    std::vector<std::string> proj_names = {"phi_d", "phi", "phi_q", "beta", "phi_d_s", "phi_d_q", "beta_d"};
    if (fsc) {
        if (!fpj || fpj->outputs.size() != 8 || fpj->outputs[7].name != "cache" ||
            out_size(fpj->outputs[7]) != (int)fsc->cached.size())
            bad(model, "step_cached without proj's cache output of its size");
        proj_lens.push_back((int)fsc->cached.size());
        proj_names.push_back("cache");
    }
    combined("RS_FN_PROJ", "proj", proj_lens, proj_names);
    combined("RS_FN_NEWTON", "newton", {4 * nc, 16 * nc}, {"phi_d", "phi_d_s"});
    combined("RS_FN_STEP_CACHED", "step_cached",
             {oM.nnz(), n_q, nnzG, n_phi, 3 * nc, nc, 3 * nc, oDf ? oDf->nnz() : 0, oNq ? oNq->nnz() : 0},
             {"M", "delta_nk", "phi_q", "gamma", "nu", "V", "radii", "ddelta_df", "dnu_dqd"});
    // energy-balance power terms (optional; modeler/mechanics/power.hpp)
    if (const Function *fw = find_fn(fns, "power"))
        retarget("RS_FN_POWER", "power", *fw, {need_out(*fw, "power", Shape::Vector, 4)}, {"power"});

    // ------------------------------------------------------------ the text
    std::ostringstream os;
    os << "/* " << P << "_model.c — the rs_model descriptor of model '" << model
       << "'; generated by railsym, do not edit.\n"
       << " * Names, default parameters, sparsity patterns and the function table the\n"
       << " * runtime uses (abi/rs_model.h).  C99; no globals but constants. */\n"
       << "#include \"rs_model.h\"\n\n";

    os << "/* The generated functions (" << P << ".c). */\n";
    for (const Entry &e : entries)
        os << "int " << e.target << "(const double *const *in, double *const *out);\n";
    os << "const rs_model *" << P << "_model(void);\n\n";

    auto names_or_null = [&](const std::string &cname, const std::vector<std::string> &v) {
        if (v.empty()) return std::string("0");
        os << names_array(cname, v);
        return cname;
    };
    os << "/* Names per symbol kind, in slot order. */\n";
    const std::string qn = names_or_null("rsd_q_names", sym.q);
    const std::string sn = names_or_null("rsd_s_names", sym.s);
    const std::string pn = names_or_null("rsd_p_names", sym.p);
    const std::string un = names_or_null("rsd_u_names", sym.u);
    const std::string cn = names_or_null("rsd_phi_names", sym.phi);
    const std::string on = names_or_null("rsd_output_names", out_names);
    std::string pd = "0";
    if (!sym.p.empty()) {
        os << "\n/* Default parameter values [SI]. */\nstatic const double rsd_p_default[" << sym.p.size() << "] = {\n";
        for (size_t i = 0; i < sym.p.size(); ++i)
            os << "    " << c_num(sym.p_default[i], "the default of parameter '" + sym.p[i] + "'")
               << (i + 1 < sym.p.size() ? ",   /* " : "    /* ") << sym.p[i] << " */\n";
        os << "};\n";
        pd = "rsd_p_default";
    }

    auto pattern = [&](const char *tag, const Output &o) {
        os << "\n/* Pattern of " << tag << " (" << o.rows << " x " << o.cols << ", " << o.nnz()
           << " non-zeros), compressed columns. */\n";
        os << "static const int rsd_" << tag << "_colptr[" << o.colptr.size() << "] = {\n" << int_array(o.colptr)
           << "\n};\n";
        std::string rows = "0";
        if (o.nnz() > 0) {
            os << "static const int rsd_" << tag << "_rowind[" << o.rowidx.size() << "] = {\n"
               << int_array(o.rowidx) << "\n};\n";
            rows = std::string("rsd_") + tag + "_rowind";
        }
        return "{" + std::to_string(o.rows) + ", " + std::to_string(o.cols) + ", rsd_" + tag + "_colptr, " + rows +
               "}";
    };
    const std::string patM = pattern("M", oM);
    const std::string patG = oG ? pattern("phi_q", *oG) : "{0, " + std::to_string(n_q) + ", 0, 0}";

    std::string patDq, patDf, patNq;
    if (nc > 0) {
        patDq = pattern("phi_d_q", *oDq);
        patDf = pattern("ddelta_df", *oDf);
        patNq = pattern("dnu_dqd", *oNq);
        os << "\n/* Wheel-rail contacts (docs/contact_element.md): s slots of theta_w, u_w, s_r,\n"
           << " * u_r; per spline (wheel, rail, track_x, track_y, track_z, cant) the u slots of\n"
           << " * a, b, c, d, u_bp, the s slot selecting the segment and the file; u slots of\n"
           << " * fx, fy, mz; the row of phi_n in phi. */\n"
           << "static const rs_contact rsd_contacts[" << nc << "] = {\n";
        for (const ContactTableEntry &c : sym.contacts) {
            os << "    {" << c_str(c.name) << ", " << c_str(c.wheel_body) << ", " << c.side << ", {"
               << int_array(std::vector<int>(c.s_slot.begin(), c.s_slot.end())).substr(4) << "},\n     {";
            for (int k = 0; k < kContactSplines; ++k) {
                const ContactTableEntry::Spline &sp = c.spline[k];
                os << (k ? ",\n      " : "") << "{{"
                   << int_array(std::vector<int>(sp.u_slot.begin(), sp.u_slot.end())).substr(4) << "}, " << sp.s_slot
                   << ", " << c_str(sp.file) << "}";
            }
            os << "},\n     {" << int_array(std::vector<int>(c.force_slot.begin(), c.force_slot.end())).substr(4)
               << "}, " << c.phi_row << "},\n";
        }
        os << "};\n";
    }

    std::string patK, patC;
    if (oK) {
        patK = pattern("K", *oK);
        patC = pattern("C", *oC);
    }

    os << "\n/* Wrappers where the runtime's out[] differs from the generated function's. */\n";
    for (const Entry &e : entries) {
        if (e.direct()) continue;
        const Function &f = *e.fn;
        const size_t n = f.outputs.size();
        os << "static int rsd_" << e.tag << "(const double *const *in, double *const *out)\n{\n";
        if (e.gather) {
            os << "    double *const y = out[0];\n";
            os << "    double *const o[" << n << "] = {\n";
            int off = 0;
            for (size_t j = 0; j < n; ++j) {
                os << "        y ? y + " << off << " : 0" << (j + 1 < n ? ",\n" : "\n");
                off += out_size(f.outputs[j]);
            }
            os << "    };\n";
        } else {
            os << "    double *const o[" << n << "] = {";
            for (size_t j = 0; j < n; ++j) {
                std::string v = "0";
                for (size_t k = 0; k < e.map.size(); ++k)
                    if (e.map[k] == (int)j) v = "out[" + std::to_string(k) + "]";
                os << (j ? ", " : "") << v;
            }
            os << "};\n";
        }
        os << "    return " << e.target << "(in, o);\n}\n\n";
    }

    os << "/* Shapes of what each function writes for the runtime. */\n";
    for (const Entry &e : entries) {
        os << "static const int rsd_" << e.tag << "_len[" << e.out_len.size() << "] = {" << int_array(e.out_len).substr(4)
           << "};\n";
        os << "static const char *const rsd_" << e.tag << "_outs[" << e.out_names.size() << "] = {";
        for (size_t k = 0; k < e.out_names.size(); ++k) os << (k ? ", " : "") << c_str(e.out_names[k]);
        os << "};\n";
    }

    os << "\nstatic const rs_model rsd_model = {\n"
       << "    .magic = RS_MODEL_MAGIC,\n"
       << "    .version = RS_MODEL_VERSION,\n"
       << "    .name = " << c_str(P) << ",\n"
       << "    .n_q = " << n_q << ",\n"
       << "    .n_s = " << sym.s.size() << ",\n"
       << "    .n_p = " << sym.p.size() << ",\n"
       << "    .n_u = " << sym.u.size() << ",\n"
       << "    .n_k = " << sym.n_k << ",\n"
       << "    .n_phi = " << n_phi << ",\n"
       << "    .n_out = " << out_names.size() << ",\n"
       << "    .q_names = " << qn << ",\n"
       << "    .s_names = " << sn << ",\n"
       << "    .p_names = " << pn << ",\n"
       << "    .u_names = " << un << ",\n"
       << "    .phi_names = " << cn << ",\n"
       << "    .output_names = " << on << ",\n"
       << "    .p_default = " << pd << ",\n"
       << "    .M_pattern = " << patM << ",\n"
       << "    .phi_q_pattern = " << patG << ",\n"
       << "    .fn = {\n";
    for (const Entry &e : entries)
        os << "        [" << e.id << "] = {" << (e.direct() ? e.target : "rsd_" + e.tag) << ", " << e.out_len.size()
           << ", rsd_" << e.tag << "_len, rsd_" << e.tag << "_outs},\n";
    os << "    },\n";
    if (nc > 0)
        os << "    .n_contact = " << nc << ",\n"
           << "    .contacts = rsd_contacts,\n"
           << "    .phi_d_q_pattern = " << patDq << ",\n"
           << "    .ddelta_df_pattern = " << patDf << ",\n"
           << "    .dnu_dqd_pattern = " << patNq << ",\n";
    if (oK) os << "    .K_pattern = " << patK << ",\n" << "    .C_pattern = " << patC << ",\n";
    os << "};\n\n";
    os << "const rs_model *" << P << "_model(void)\n{\n    return &rsd_model;\n}\n";
    return os.str();
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
    for (const Ex &e : st.symbols_of(SymKind::Input)) {
        const SymInfo &s = st.sym(e.id());
        os << "input " << s.name << " = " << c_num(d.get(SymKind::Input, s.slot), "input " + s.name) << "\n";
    }
    return os.str();
}

}  // namespace codegen
}  // namespace railsym
