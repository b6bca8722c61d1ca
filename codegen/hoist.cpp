// hoist.cpp — see hoist.hpp.
#include "hoist.hpp"

#include <set>
#include <string>

namespace railsym {
namespace codegen {

namespace {
bool is_constant_atom(const Store &st, int id)
{
    const Node &n = st.node(id);
    if (n.op == Op::Num || n.op == Op::Sym) return false;   // leaves are read, not computed
    return (n.kinds & ~kind_bit(SymKind::Param)) == 0;
}
}  // namespace

Function hoist_constants(Store &st, std::vector<Function> &fns)
{
    std::vector<int> roots;
    for (const Function &f : fns)
        if (f.name != "constants")
            for (const Output &o : f.outputs)
                for (Ex v : o.values) roots.push_back(v.id());

    // The frontier, in ascending id order (deterministic slot numbering).
    std::set<int> frontier;
    for (int id : st.reachable(roots)) {
        const Node &n = st.node(id);
        if (n.op == Op::Num || n.op == Op::Sym || is_constant_atom(st, id)) continue;
        for (int c : {n.a, n.b})
            if (c >= 0 && is_constant_atom(st, c)) frontier.insert(c);
    }
    for (int r : roots)
        if (is_constant_atom(st, r)) frontier.insert(r);

    Substitution sub(st);
    for (int id : frontier) {
        // Named after the atom, so hoisting is idempotent and names are
        // unique; '$' keeps them apart from every name a .vdl can declare.
        Ex k = st.symbol("$k" + std::to_string(id), SymKind::Const);
        sub.set(st.ex(id), k);
    }
    for (Function &f : fns) {
        if (f.name == "constants") continue;
        for (Output &o : f.outputs)
            for (Ex &v : o.values) v = sub.apply(v);
    }

    std::vector<Ex> k_values((size_t)st.count(SymKind::Const), st.zero());
    for (const SymInfo &s : st.symbols())
        if (s.kind == SymKind::Const && s.name.size() > 2 && s.name.compare(0, 2, "$k") == 0)
            k_values[(size_t)s.slot] = st.ex(std::stoi(s.name.substr(2)));
    Function constants;
    constants.name = "constants";
    constants.doc = "Hoisted constants k[] from the parameters p; run when parameters change.";
    constants.outputs.push_back(Output::vector("k", k_values));
    return constants;
}

}  // namespace codegen
}  // namespace railsym
