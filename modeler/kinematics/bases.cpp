// bases.cpp — the bases tree and its memoized rotation and angular-velocity operators.
#include "bases.hpp"

#include <cmath>

namespace railsym {

namespace {

bool all_numbers(const M3 &m)
{
    for (const auto &row : m)
        for (const Ex &e : row)
            if (!e.is_number()) return false;
    return true;
}

double num_value(const Ex &e) { return e.store()->number_value(e.id()); }

}  // namespace

BaseTree::BaseTree(Store &s) : st_(&s)
{
    Node g;
    g.name = "ground";
    g.R = m3_identity(s);
    g.w_parent = v3_zero(s);
    g.w_self = v3_zero(s);
    nodes_.push_back(g);
    by_name_["ground"] = 0;
}

int BaseTree::lookup(const std::string &name) const
{
    auto it = by_name_.find(name);
    return it == by_name_.end() ? -1 : it->second;
}

std::vector<std::string> BaseTree::names() const
{
    std::vector<std::string> v;
    for (const auto &n : nodes_) v.push_back(n.name);
    return v;
}

int BaseTree::find(const std::string &name, const std::string &context) const
{
    int b = lookup(name);
    if (b >= 0) return b;
    throw ModelError(context + ": unknown base '" + name + "'" + did_you_mean(name, names()) +
                     "; define it first (bases are defined from a parent base, starting at 'ground')");
}

void BaseTree::check_new_name(const std::string &name, int parent) const
{
    if (name.empty()) throw ModelError("base: empty name");
    if (lookup(name) >= 0) throw ModelError("base '" + name + "' is already defined; choose another name");
    // Parents must already exist, so a definition can never close a cycle.
    if (parent < 0 || parent >= size())
        throw ModelError("base '" + name + "': parent base index " + std::to_string(parent) +
                         " does not exist; define the parent first");
}

int BaseTree::add_node(const std::string &name, int parent, const M3 &R, const V3 &w_parent, const V3 &w_self)
{
    check_new_name(name, parent);
    Node n;
    n.name = name;
    n.parent = parent;
    n.depth = nodes_[parent].depth + 1;
    n.R = R;
    n.w_parent = w_parent;
    n.w_self = w_self;
    nodes_.push_back(n);
    by_name_[name] = size() - 1;
    return size() - 1;
}

int BaseTree::add_rotation(const std::string &name, int parent, Axis axis, Ex angle)
{
    check_new_name(name, parent);
    Store &s = *st_;
    // Written out per axis so the matrix has its five structural zeros and
    // ones (the general Rodrigues formula would leave c + (1 − c) unfolded).
    Ex c = cos(angle), sn = sin(angle), z = s.zero(), o = s.one();
    M3 R;
    V3 n;
    switch (axis) {
    case Axis::X: R = M3{V3{o, z, z}, V3{z, c, -sn}, V3{z, sn, c}}; n = V3{o, z, z}; break;
    case Axis::Y: R = M3{V3{c, z, sn}, V3{z, o, z}, V3{-sn, z, c}}; n = V3{z, o, z}; break;
    case Axis::Z: R = M3{V3{c, -sn, z}, V3{sn, c, z}, V3{z, z, o}}; n = V3{z, z, o}; break;
    }
    V3 w = scale(s.dt(angle), n);   // the axis has the same components in both bases
    return add_node(name, parent, R, w, w);
}

int BaseTree::add_rotation(const std::string &name, int parent, const V3 &n, Ex angle)
{
    check_new_name(name, parent);
    Store &s = *st_;
    if (n[0].is_number() && n[1].is_number() && n[2].is_number()) {
        double x = num_value(n[0]), y = num_value(n[1]), z = num_value(n[2]);
        double len = std::sqrt(x * x + y * y + z * z);
        if (std::fabs(len - 1.0) > 1e-9)
            throw ModelError("base '" + name + "': rotation axis [" + std::to_string(x) + ", " + std::to_string(y) +
                             ", " + std::to_string(z) + "] has length " + std::to_string(len) +
                             "; give a unit vector");
    }
    // Rodrigues: R = c I + s [n]× + (1 − c) n nᵀ.
    Ex c = cos(angle), sn = sin(angle), omc = 1.0 - c;
    M3 R;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) R[i][j] = omc * n[i] * n[j] + (i == j ? c : s.zero());
    R[0][1] = R[0][1] - sn * n[2];
    R[0][2] = R[0][2] + sn * n[1];
    R[1][0] = R[1][0] + sn * n[2];
    R[1][2] = R[1][2] - sn * n[0];
    R[2][0] = R[2][0] - sn * n[1];
    R[2][1] = R[2][1] + sn * n[0];
    V3 w = scale(s.dt(angle), n);
    return add_node(name, parent, R, w, w);
}

int BaseTree::add_euler(const std::string &name, int parent, Ex e0, Ex e1, Ex e2, Ex e3)
{
    check_new_name(name, parent);
    if (e0.is_number() && e1.is_number() && e2.is_number() && e3.is_number()) {
        double n2 = 0;
        for (Ex e : {e0, e1, e2, e3}) n2 += num_value(e) * num_value(e);
        if (std::fabs(n2 - 1.0) > 1e-9)
            throw ModelError("base '" + name + "': Euler parameters have squared norm " + std::to_string(n2) +
                             "; they must satisfy e0²+e1²+e2²+e3² = 1");
    }
    Store &s = *st_;
    Ex a = e0 * e0, b = e1 * e1, c = e2 * e2, d = e3 * e3;
    M3 R{V3{a + b - c - d, 2.0 * (e1 * e2 - e0 * e3), 2.0 * (e1 * e3 + e0 * e2)},
         V3{2.0 * (e1 * e2 + e0 * e3), a - b + c - d, 2.0 * (e2 * e3 - e0 * e1)},
         V3{2.0 * (e1 * e3 - e0 * e2), 2.0 * (e2 * e3 + e0 * e1), a - b - c + d}};
    // ω (parent components) = 2 (e0 ė − ė0 e + e × ė); body components use − e × ė.
    V3 e{e1, e2, e3};
    V3 ed{s.dt(e1), s.dt(e2), s.dt(e3)};
    Ex e0d = s.dt(e0);
    V3 base = sub(scale(e0, ed), scale(e0d, e));
    V3 exed = cross(e, ed);
    V3 wp = scale(s.num(2), add(base, exed));
    V3 ws = scale(s.num(2), sub(base, exed));
    return add_node(name, parent, R, wp, ws);
}

int BaseTree::add_matrix(const std::string &name, int parent, const M3 &R)
{
    check_new_name(name, parent);
    if (all_numbers(R)) {
        double m[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) m[i][j] = num_value(R[i][j]);
        double worst = 0;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                double d = 0;
                for (int k = 0; k < 3; ++k) d += m[k][i] * m[k][j];
                worst = std::max(worst, std::fabs(d - (i == j ? 1.0 : 0.0)));
            }
        double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        if (worst > 1e-9)
            throw ModelError("base '" + name + "': the rotation matrix is not orthonormal (|RᵀR − I| = " +
                             std::to_string(worst) + "); give a rotation matrix (columns: the new base's unit axes in the parent)");
        if (det < 0)
            throw ModelError("base '" + name + "': the rotation matrix has determinant " + std::to_string(det) +
                             " (a reflection); give a right-handed rotation");
    }
    // [ω]× = Ṙ Rᵀ in parent components, Rᵀ Ṙ in own components; the skew part
    // is taken so round-off in a nearly orthonormal R does not leak in.
    M3 Rd = dt(R);
    V3 wp = vee_skew(mul(Rd, transpose(R)));
    V3 ws = vee_skew(mul(transpose(R), Rd));
    return add_node(name, parent, R, wp, ws);
}

int BaseTree::common_ancestor(int a, int b) const
{
    while (depth(a) > depth(b)) a = parent(a);
    while (depth(b) > depth(a)) b = parent(b);
    while (a != b) {
        a = parent(a);
        b = parent(b);
    }
    return a;
}

bool BaseTree::is_ancestor(int anc, int b) const
{
    while (depth(b) > depth(anc)) b = parent(b);
    return b == anc;
}

M3 BaseTree::to_ancestor(int b, int anc)
{
    if (b == anc) return m3_identity(*st_);
    if (parent(b) == anc) return edge(b);
    auto key = std::make_pair(b, anc);
    auto it = anc_memo_.find(key);
    if (it != anc_memo_.end()) return it->second;
    if (!is_ancestor(anc, b))
        throw ModelError("internal: base '" + name(anc) + "' is not an ancestor of '" + name(b) + "'");
    M3 r = mul(to_ancestor(parent(b), anc), edge(b));
    anc_memo_[key] = r;
    return r;
}

M3 BaseTree::rotation(int from, int to)
{
    if (from == to) return m3_identity(*st_);
    auto key = std::make_pair(from, to);
    auto it = rot_memo_.find(key);
    if (it != rot_memo_.end()) return it->second;
    int c = common_ancestor(from, to);
    M3 r;
    if (c == to) r = to_ancestor(from, to);
    else if (c == from) r = transpose(to_ancestor(to, from));
    else r = mul(transpose(to_ancestor(to, c)), to_ancestor(from, c));
    rot_memo_[key] = r;
    return r;
}

V3 BaseTree::express(const V3 &v, int from, int to)
{
    if (from == to || is_zero(v)) return v;
    if (parent(from) == to) return mul(edge(from), v);
    if (parent(to) == from) return mul_t(edge(to), v);
    return mul(rotation(from, to), v);
}

M3 BaseTree::express_tensor(const M3 &t, int from, int to)
{
    if (from == to) return t;
    M3 R = rotation(from, to);
    return mul(mul(R, t), transpose(R));
}

V3 BaseTree::omega(int b)
{
    if (b == kGround) return v3_zero(*st_);
    auto it = omega_memo_.find(b);
    if (it != omega_memo_.end()) return it->second;
    V3 w = add(mul_t(edge(b), omega(parent(b))), nodes_[b].w_self);
    omega_memo_[b] = w;
    return w;
}

V3 BaseTree::alpha(int b)
{
    auto it = alpha_memo_.find(b);
    if (it != alpha_memo_.end()) return it->second;
    V3 a = dt(omega(b));
    alpha_memo_[b] = a;
    return a;
}

V3 BaseTree::omega(int b, int rel, int in)
{
    if (rel == b) return v3_zero(*st_);
    V3 wb = express(omega(b), b, in);
    if (rel == kGround) return wb;
    return sub(wb, express(omega(rel), rel, in));
}

V3 BaseTree::alpha(int b, int rel, int in)
{
    if (rel == b) return v3_zero(*st_);
    V3 ab = express(alpha(b), b, in);
    if (rel == kGround) return ab;
    V3 wr = express(omega(rel), rel, in), wb = express(omega(b), b, in);
    return sub(sub(ab, express(alpha(rel), rel, in)), cross(wr, wb));
}

}  // namespace railsym
