// opcount.cpp — the operations a generated function evaluates.
//
// Conventions (docs/atoms.md): every atom is one elementary operation, since
// the store has already normalized x^2 into x*x and the like.  Add, Sub and
// Neg count as additions, Mul as a multiplication, Div as a division, Pow and
// each function as a call by its C name.  Symbols and numbers are read, not
// computed, and count nothing.  An atom shared by several outputs counts once.
#include <algorithm>

#include "codegen_impl.hpp"

namespace railsym {
namespace codegen {

OpCount detail::count_nodes(const Store &st, const std::vector<int> &nodes) {
    OpCount c;
    for (int id : nodes) {
        const Op op = st.node(id).op;
        if (detail::is_leaf(op)) continue;
        ++c.atoms;
        switch (op) {
        case Op::Add: case Op::Sub: case Op::Neg: ++c.adds; break;
        case Op::Mul: ++c.muls; break;
        case Op::Div: ++c.divs; break;
        default: ++c.calls[detail::c_call_name(op)]; break;
        }
    }
    return c;
}

OpCount detail::count_function(const Store &st, const Function &f, const std::vector<int> &needed) {
    OpCount c = detail::count_nodes(st, needed);
    if (f.cached.empty()) return c;
    // atoms read from the cache are loads, not operations
    std::vector<int> read;
    for (int id : f.cached)
        if (std::binary_search(needed.begin(), needed.end(), id)) read.push_back(id);
    const OpCount r = detail::count_nodes(st, read);
    c.atoms -= r.atoms;
    c.adds -= r.adds;
    c.muls -= r.muls;
    c.divs -= r.divs;
    for (const auto &k : r.calls)
        if ((c.calls[k.first] -= k.second) == 0) c.calls.erase(k.first);
    return c;
}

OpCount count_ops(const Store &st, const Function &f) {
    return detail::count_function(st, f, detail::needed_nodes(st, f));
}

}  // namespace codegen
}  // namespace railsym
