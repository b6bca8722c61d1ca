// points.cpp — the points tree and its memoized position/velocity/acceleration operators.
#include "points.hpp"

namespace railsym {

PointTree::PointTree(Store &s, BaseTree &bases) : st_(&s), bt_(&bases)
{
    Node o;
    o.name = "O";
    o.base = BaseTree::kGround;
    o.r = v3_zero(s);
    nodes_.push_back(o);
    by_name_["O"] = 0;
}

int PointTree::lookup(const std::string &name) const
{
    auto it = by_name_.find(name);
    return it == by_name_.end() ? -1 : it->second;
}

std::vector<std::string> PointTree::names() const
{
    std::vector<std::string> v;
    for (const auto &n : nodes_) v.push_back(n.name);
    return v;
}

int PointTree::find(const std::string &name, const std::string &context) const
{
    int p = lookup(name);
    if (p >= 0) return p;
    throw ModelError(context + ": unknown point '" + name + "'" + did_you_mean(name, names()) +
                     "; define it first (points are defined from a parent point, starting at 'O')");
}

int PointTree::add(const std::string &name, int parent, int base, const V3 &r)
{
    if (name.empty()) throw ModelError("point: empty name");
    if (lookup(name) >= 0) throw ModelError("point '" + name + "' is already defined; choose another name");
    if (parent < 0 || parent >= size())
        throw ModelError("point '" + name + "': its parent point does not exist; define the parent first");
    if (base < 0 || base >= bt_->size())
        throw ModelError("point '" + name + "': its base does not exist; define the base first");
    for (const Ex &c : r)
        if (c.depends_on(SymKind::Vel) || c.depends_on(SymKind::Acc) || c.depends_on(SymKind::AuxVel) ||
            c.depends_on(SymKind::AuxAcc))
            throw ModelError("point '" + name + "': a position may not depend on velocities or accelerations");
    Node n;
    n.name = name;
    n.parent = parent;
    n.depth = nodes_[parent].depth + 1;
    n.base = base;
    n.r = r;
    nodes_.push_back(n);
    by_name_[name] = size() - 1;
    return size() - 1;
}

int PointTree::common_ancestor(int a, int b) const
{
    while (depth(a) > depth(b)) a = parent(a);
    while (depth(b) > depth(a)) b = parent(b);
    while (a != b) {
        a = parent(a);
        b = parent(b);
    }
    return a;
}

V3 PointTree::from_ancestor(int anc, int p, int in)
{
    if (p == anc) return v3_zero(*st_);
    auto key = std::make_tuple(anc, p, in);
    auto it = pos_memo_.find(key);
    if (it != pos_memo_.end()) return it->second;
    V3 r = railsym::add(from_ancestor(anc, parent(p), in), bt_->express(nodes_[p].r, nodes_[p].base, in));
    pos_memo_[key] = r;
    return r;
}

V3 PointTree::position(int from, int to, int in)
{
    int c = common_ancestor(from, to);
    return sub(from_ancestor(c, to, in), from_ancestor(c, from, in));
}

V3 PointTree::velocity(int p)
{
    if (p == kOrigin) return v3_zero(*st_);
    auto it = vel_memo_.find(p);
    if (it != vel_memo_.end()) return it->second;
    const Node &n = nodes_[p];
    int q = n.parent;
    V3 v = bt_->express(velocity(q), base(q), n.base);
    v = railsym::add(v, cross(bt_->omega(n.base), n.r));
    v = railsym::add(v, dt(n.r));
    vel_memo_[p] = v;
    return v;
}

V3 PointTree::acceleration(int p)
{
    if (p == kOrigin) return v3_zero(*st_);
    auto it = acc_memo_.find(p);
    if (it != acc_memo_.end()) return it->second;
    V3 v = velocity(p);
    V3 a = railsym::add(dt(v), cross(bt_->omega(base(p)), v));
    acc_memo_[p] = a;
    return a;
}

}  // namespace railsym
