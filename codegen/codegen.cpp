// codegen.cpp — writes atomized Functions as C99 source and header.
//
// Each Function becomes
//
//     int MODEL_FN(const double *const *in, double *const *out)
//     {
//         const double *restrict q = in[RS_IN_Q];   // only the slots it reads
//         double sink[N];                            // longest output
//         double *const o0 = out[0] ? out[0] : sink;
//         const double a0 = sin(q[0]);               // atoms, operands first
//         const double a1 = a0 * p[2];
//         o0[0] = a1;                                // right after its atom
//         ...
//         o0[3] = 0.0;                               // inputs, numbers: at the end
//         return RS_ABI_OK;
//     }
//
// Why this form: the atoms are written depth first from the outputs (each
// after the last of its operands, see emission_order), which depends only on
// the store and the function, so the text is reproducible byte for byte, and
// each output value is stored as soon as it exists.  gcc allocates
// registers in source order: in the store's creation order (ascending id)
// whole layers of kinematics were computed long before their uses and every
// output stayed live to the end, and gcc spilled thousands of values (the
// FEVE 3000's step: 11 % fewer machine instructions, 3 % less time this
// way).  `restrict` inputs tell it the stores do not change them; an
// unwanted output (NULL) goes to `sink`, so a store needs no test.  `const`
// locals warn about nothing; symbols and numbers are written inline because
// naming them would only add copies.  Sparse outputs are written in the
// order of their compressed-column pattern (Output::colptr/rowidx); the
// pattern itself is not emitted here: a model's descriptor carries each one
// once (descriptor.hpp), so the C has no globals at all.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen_impl.hpp"
#include "rs_abi.h"

namespace railsym {
namespace codegen {

namespace {

// Per symbol kind: the local array name and the input slot (rs_abi.h).
// Indexed by SymKind; the order is fixed by the ABI.
static_assert(RS_IN_CACHE == kNumSymKinds && RS_IN_COUNT == kNumSymKinds + 1 && RS_IN_T == int(SymKind::Time) &&
                  RS_IN_Q == int(SymKind::Coord) && RS_IN_QD == int(SymKind::Vel) &&
                  RS_IN_QDD == int(SymKind::Acc) && RS_IN_S == int(SymKind::Aux) &&
                  RS_IN_SD == int(SymKind::AuxVel) && RS_IN_SDD == int(SymKind::AuxAcc) &&
                  RS_IN_P == int(SymKind::Param) && RS_IN_U == int(SymKind::Input) &&
                  RS_IN_CONST == int(SymKind::Const),
              "rs_abi.h input slots and railsym::SymKind must be in the same order");
struct KindC {
    const char *array, *slot;
};
const KindC kKindC[kNumSymKinds] = {
    {"t", "RS_IN_T"},   {"q", "RS_IN_Q"},     {"qd", "RS_IN_QD"}, {"qdd", "RS_IN_QDD"},
    {"s", "RS_IN_S"},   {"sd", "RS_IN_SD"},   {"sdd", "RS_IN_SDD"}, {"p", "RS_IN_P"},
    {"u", "RS_IN_U"},   {"k", "RS_IN_CONST"},
};

// A double literal: %.17g (enough digits to round-trip), always with '.' or
// 'e' so C reads it as a double.  std::to_chars does not depend on the locale.
std::string c_double(double x) {
    if (!std::isfinite(x))
        throw std::invalid_argument("codegen: a numeric constant does not fit in a double");
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

// Text safe inside a C block comment: no "*/", no control characters.
std::string comment_safe(const std::string &text) {
    std::string s;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '*' && i + 1 < text.size() && text[i + 1] == '/')
            s += "* ";
        else
            s += ((unsigned char)c < 0x20) ? ' ' : c;
    }
    return s;
}

std::string upper(std::string s) {
    for (char &c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return s;
}

class FunctionWriter {
public:
    FunctionWriter(const Store &st, const std::string &cname, const Function &f)
        : st_(st), cname_(cname), f_(f) {}

    void write(std::ostringstream &src, std::ostringstream &hdr) {
        const std::vector<int> needed = detail::needed_nodes(st_, f_);
        local_.assign(needed.empty() ? 0 : (size_t)needed.back() + 1, -1);
        bool used_kind[kNumSymKinds] = {};
        int nlocal = 0;
        // atoms read from the cache: in[RS_IN_CACHE][i]
        std::vector<int> cache_at(local_.size(), -1);
        for (size_t i = 0; i < f_.cached.size(); ++i)
            if (f_.cached[i] >= 0 && (size_t)f_.cached[i] < cache_at.size()) cache_at[(size_t)f_.cached[i]] = (int)i;
        bool any_cached = false;
        for (int id : needed) any_cached |= cache_at[(size_t)id] >= 0;
        const std::vector<int> order = emission_order(needed, cache_at);
        for (int id : needed)
            if (st_.node(id).op == Op::Sym) used_kind[int(st_.sym(id).kind)] = true;
        for (int id : order) local_[(size_t)id] = nlocal++;
        const OpCount ops = detail::count_function(st_, f_, needed);

        hdr << "/* " << cname_ << ":";
        for (size_t i = 0; i < f_.outputs.size(); ++i) {
            const Output &o = f_.outputs[i];
            hdr << (i ? "," : "") << " out[" << i << "] " << comment_safe(o.name) << " (" << shape_name(o.shape);
            if (o.shape != Shape::Scalar) hdr << " " << o.rows << "x" << o.cols;
            hdr << ")";
        }
        if (f_.outputs.empty()) hdr << " no outputs";
        hdr << " */\n";
        hdr << "int " << cname_ << "(const double *const *in, double *const *out);\n";
        write_comment(src, ops, used_kind, any_cached);

        src << "int " << cname_ << "(const double *const *in, double *const *out)\n{\n";
        bool any_in = false;
        for (int k = 0; k < kNumSymKinds; ++k) {
            if (!used_kind[k]) continue;
            src << "    const double *restrict " << kKindC[k].array << " = in[" << kKindC[k].slot
                << "];\n";
            any_in = true;
        }
        if (any_cached) {
            src << "    const double *restrict c = in[RS_IN_CACHE];   /* the step cache */\n";
            any_in = true;
        }
        if (!any_in) src << "    (void)in;\n";
        bool any_value = false;
        for (const Output &o : f_.outputs) any_value |= !o.values.empty();
        if (!any_value) src << "    (void)out;\n";
        std::vector<std::vector<std::pair<int, int>>> early(local_.size());
        for (size_t i = 0; i < f_.outputs.size(); ++i)
            for (size_t k = 0; k < f_.outputs[i].values.size(); ++k) {
                const int id = f_.outputs[i].values[k].id();
                if (is_early(id)) early[(size_t)id].push_back({(int)i, (int)k});
            }
        size_t sink_len = 0;
        for (const Output &o : f_.outputs) sink_len = std::max(sink_len, o.values.size());
        if (sink_len > 0) src << "    double sink[" << sink_len << "];\n";
        for (size_t i = 0; i < f_.outputs.size(); ++i)
            if (!f_.outputs[i].values.empty())
                src << "    double *const o" << i << " = out[" << i << "] ? out[" << i << "] : sink;   /* "
                    << comment_safe(f_.outputs[i].name) << " */\n";
        for (int id : order)
            if (local_[(size_t)id] >= 0) {
                if (cache_at[(size_t)id] >= 0)
                    src << "    const double a" << local_[(size_t)id] << " = c[" << cache_at[(size_t)id] << "];\n";
                else
                    src << "    const double a" << local_[(size_t)id] << " = " << expr(id) << ";\n";
                for (const auto &ik : early[(size_t)id])
                    src << "    o" << ik.first << "[" << ik.second << "] = a" << local_[(size_t)id] << ";\n";
            }
        for (size_t i = 0; i < f_.outputs.size(); ++i) {
            const Output &o = f_.outputs[i];
            for (size_t k = 0; k < o.values.size(); ++k)
                if (!is_early(o.values[k].id()))
                    src << "    o" << i << "[" << k << "] = " << value(o.values[k].id()) << ";\n";
        }
        src << "    return RS_ABI_OK;\n}\n";
    }

private:
    // The order the atoms are written in: depth first from the outputs, in
    // output order, each atom right after the last of its operands (post
    // order), the heavier operand (more atoms below it) walked first, as
    // Sethi and Ullman order an expression tree for fewest registers; the
    // cache's atoms where first used.  The C compiler allocates
    // registers in source order; the atoms' creation order (ascending id)
    // computes whole layers of kinematics long before their uses, so gcc
    // kept thousands of values live and spilled them.  Deterministic: it
    // depends only on the store and the function.
    std::vector<int> emission_order(const std::vector<int> &needed, const std::vector<int> &cache_at) const {
        std::vector<int> order;
        std::vector<double> weight(local_.size(), 0.0);   // atoms below each, shared ones again
        size_t n_atoms = 0;
        for (int id : needed) {   // ascending: operands first
            const Node &nd = st_.node(id);
            if (detail::is_leaf(nd.op)) continue;
            ++n_atoms;
            if (cache_at[(size_t)id] >= 0) continue;
            double w = 1 + weight[(size_t)nd.a];
            if (detail::is_binary(nd.op)) w += weight[(size_t)nd.b];
            weight[(size_t)id] = w;
        }
        std::vector<char> state(local_.size(), 0);   // 0 new, 1 on the stack, 2 written
        std::vector<std::pair<int, int>> stack;      // (atom, next operand to visit)
        auto visit = [&](int root) {
            if (root < 0 || (size_t)root >= state.size() || state[(size_t)root]) return;
            stack.push_back({root, 0});
            state[(size_t)root] = 1;
            while (!stack.empty()) {
                const int id = stack.back().first;
                const Node &nd = st_.node(id);
                const int nops = (detail::is_leaf(nd.op) || cache_at[(size_t)id] >= 0)
                                     ? 0 : (detail::is_binary(nd.op) ? 2 : 1);
                const int k = stack.back().second++;
                if (k < nops) {
                    // the heavier operand first (Sethi-Ullman): its values
                    // are dead before the lighter one's are made
                    const bool swap = nops == 2 && weight[(size_t)nd.b] > weight[(size_t)nd.a];
                    const int c = (k == 0) != swap ? nd.a : nd.b;
                    if (c >= 0 && (size_t)c < state.size() && !state[(size_t)c]) {
                        state[(size_t)c] = 1;
                        stack.push_back({c, 0});
                    }
                    continue;
                }
                stack.pop_back();
                state[(size_t)id] = 2;
                if (!detail::is_leaf(nd.op)) order.push_back(id);
            }
        };
        for (const Output &o : f_.outputs)
            for (const Ex &e : o.values) visit(e.id());
        if (order.size() != n_atoms)   // needed_nodes marks exactly what the outputs reach
            throw std::logic_error("codegen: function " + f_.name + ": " + std::to_string(n_atoms - order.size()) +
                                   " needed atom(s) not reached from its outputs");
        return order;
    }

    void write_comment(std::ostringstream &src, const OpCount &ops, const bool *used_kind, bool cached) const {
        src << "\n/*\n * " << cname_ << "\n";
        if (!f_.doc.empty()) {
            std::istringstream doc(f_.doc);
            std::string line;
            while (std::getline(doc, line)) src << " *   " << comment_safe(line) << "\n";
        }
        src << " * Outputs:" << (f_.outputs.empty() ? " none" : "") << "\n";
        for (size_t i = 0; i < f_.outputs.size(); ++i) {
            const Output &o = f_.outputs[i];
            src << " *   out[" << i << "]  " << comment_safe(o.name) << "  " << shape_name(o.shape);
            switch (o.shape) {
            case Shape::Scalar: break;
            case Shape::Vector: src << " [" << o.rows << "]"; break;
            case Shape::Dense: src << " " << o.rows << "x" << o.cols << ", row-major"; break;
            case Shape::Sparse:
                src << " " << o.rows << "x" << o.cols << ", " << o.nnz()
                    << " non-zeros, compressed-column order (pattern in the model's descriptor)";
                break;
            }
            src << "\n";
        }
        src << " * Inputs:";
        bool any = false;
        for (int k = 0; k < kNumSymKinds; ++k)
            if (used_kind[k]) {
                src << " " << kKindC[k].array;
                any = true;
            }
        if (cached) {
            src << " cache";
            any = true;
        }
        if (!any) src << " none";
        src << "\n * Atoms " << ops.atoms << ", operations " << ops.total() << " (add/sub "
            << ops.adds << ", mul " << ops.muls << ", div " << ops.divs;
        for (const auto &c : ops.calls) src << ", " << c.first << " " << c.second;
        src << ")\n */\n";
    }

    // A symbol, number or atom as an operand.
    bool is_early(int id) const {
        return id >= 0 && (size_t)id < local_.size() && local_[(size_t)id] >= 0;
    }

    std::string value(int id) const {
        const Node &nd = st_.node(id);
        if (nd.op == Op::Num) return c_double(st_.number_value(id));
        if (nd.op == Op::Sym) {
            const SymInfo &si = st_.sym(id);
            return std::string(kKindC[int(si.kind)].array) + "[" + std::to_string(si.slot) + "]";
        }
        return "a" + std::to_string(local_[(size_t)id]);
    }
    // The same, parenthesized when it starts with a minus sign, so that
    // `a - -1.5` or `-(-x)` never appear.
    std::string operand(int id) const {
        std::string s = value(id);
        return s[0] == '-' ? "(" + s + ")" : s;
    }

    std::string expr(int id) const {
        const Node &nd = st_.node(id);
        switch (nd.op) {
        case Op::Add: return operand(nd.a) + " + " + operand(nd.b);
        case Op::Sub: return operand(nd.a) + " - " + operand(nd.b);
        case Op::Mul: return operand(nd.a) + " * " + operand(nd.b);
        case Op::Div: return operand(nd.a) + " / " + operand(nd.b);
        case Op::Neg: return "-" + operand(nd.a);
        case Op::Pow: return "pow(" + value(nd.a) + ", " + value(nd.b) + ")";
        case Op::Atan2: return "atan2(" + value(nd.a) + ", " + value(nd.b) + ")";
        case Op::Sin: case Op::Cos: case Op::Tan: case Op::Sqrt: case Op::Exp: case Op::Log:
        case Op::Abs:
            return std::string(detail::c_call_name(nd.op)) + "(" + value(nd.a) + ")";
        case Op::Step: return "(" + operand(nd.a) + " >= 0.0 ? 1.0 : 0.0)";   // no libm call: C99, tcc
        case Op::Num: case Op::Sym: break;
        }
        throw std::logic_error("codegen: atom " + std::to_string(id) + " has an unknown operation");
    }

    const Store &st_;
    const std::string &cname_;
    const Function &f_;
    std::vector<int> local_;   // node id -> local atom number, -1 for leaves / unused
};

}  // namespace

std::string c_identifier(const std::string &name) {
    std::string s;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '_';
        s += ok ? c : '_';
    }
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) s = "rs_" + s;
    return s;
}

std::string c_function_name(const std::string &model_name, const std::string &fn_name) {
    return c_identifier(model_name) + "_" + c_identifier(fn_name);
}

GeneratedCode generate_c(const Store &st, const std::string &model_name,
                         const std::vector<Function> &fns) {
    const std::string model = c_identifier(model_name);
    // Every file-scope name must be unique after sanitizing.
    std::set<std::string> globals;
    auto claim = [&](const std::string &n, const std::string &what) {
        if (!globals.insert(n).second)
            throw std::invalid_argument("codegen: model " + model_name + ": " + what +
                                        " gives the C name " + n + " twice");
    };
    for (const Function &f : fns) {
        const std::string cname = c_function_name(model_name, f.name);
        claim(cname, "function " + f.name);
        std::set<std::string> outs;
        for (const Output &o : f.outputs) {
            if (!outs.insert(c_identifier(o.name)).second)
                throw std::invalid_argument("codegen: function " + f.name + ": output name " +
                                            o.name + " used twice");
        }
    }

    std::ostringstream src, hdr;
    const std::string guard = "RAILSYM_GEN_" + upper(model) + "_H";
    hdr << "/* " << model << ".h — generated by railsym; do not edit.\n"
        << " * Functions follow rs_abi.h: int f(const double *const *in, double *const *out). */\n"
        << "#ifndef " << guard << "\n#define " << guard << "\n\n#include \"rs_abi.h\"\n\n"
        << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
    src << "/* " << model << " — generated by railsym; do not edit.\n"
        << " * C99; no globals; see rs_abi.h. */\n"
        << "#include <math.h>\n#include \"rs_abi.h\"\n";
    for (const Function &f : fns) {
        const std::string cname = c_function_name(model_name, f.name);
        hdr << "\n";
        FunctionWriter(st, cname, f).write(src, hdr);
    }
    hdr << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
    return GeneratedCode{hdr.str(), src.str()};
}

}  // namespace codegen
}  // namespace railsym
