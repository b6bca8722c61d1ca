// dynamics.cpp — virtual power, mass matrix, δ, constraints and energy.
//
// The equations (sign convention, also in system.hpp and docs/modeler.md):
//   E_j = Σ_bodies (m a_G)·∂v_G/∂q̇_j + (dH_G/dt)·∂ω/∂q̇_j
//         − Σ_loads  F·∂v_P/∂q̇_j + T·∂ω_B/∂q̇_j
//   E = M q̈ − δ,   M = ∂E/∂q̈,   δ = −E|_{q̈=0}.
//
// How E is summed (why this shape): instead of forming every partial
// velocity ∂v_P/∂q̇_j (which for a chain of n bodies means n² vectors, and n³
// operations for M), the loads are accumulated backwards along the two trees,
// the way the backward pass of a recursive O(n) algorithm does:
//   v_P = Σ over point edges e on the path O→P of (ω_Be × r_e + ṙ_e),
//   ω_B = Σ over base edges on the path ground→B of ω_edge,
// so with F_sub(p) = all forces acting in the subtree of point p and
// T_sub(b) = all torques and moments r_e × F_sub(e) collected in the subtree
// of base b:
//   E_j = Σ_point edges  ∂r_e/∂q_j · F_sub(e)  +  Σ_base edges  ∂ω_edge/∂q̇_j · T_sub(b).
// Every edge costs O(1) atoms per coordinate it depends on, so E (and δ) is
// O(n) for a chain, and M = ∂E/∂q̈ (memoized differentiation of those sums)
// O(n²): the counts of the composite-rigid-body and Newton-Euler algorithms.
#include <algorithm>
#include <map>

#include "system.hpp"

namespace railsym {

namespace {

// Sum of vectors given in various bases, in base `target`: grouped by base
// first so each base's partial sum is converted once.
V3 sum_in(BaseTree &bt, const std::vector<Vector> &vs, int target)
{
    std::map<int, V3> groups;
    for (const Vector &v : vs) {
        auto it = groups.find(v.base);
        if (it == groups.end()) groups.emplace(v.base, v.c);
        else it->second = add(it->second, v.c);
    }
    V3 s = v3_zero(bt.store());
    for (const auto &g : groups) s = add(s, bt.express(g.second, g.first, target));
    return s;
}

// The symbols of kind k reachable from the components of v.
std::vector<int> symbols_in(const Store &st, const V3 &v, SymKind k)
{
    std::vector<int> out;
    std::vector<int> roots{v[0].id(), v[1].id(), v[2].id()};
    for (int id : st.reachable(roots))
        if (st.node(id).op == Op::Sym && st.sym(id).kind == k) out.push_back(id);
    return out;
}

}  // namespace

std::vector<Ex> System::generalized(const std::vector<PointLoad> &pl, const std::vector<BaseLoad> &bl)
{
    Store &st = *st_;
    std::vector<Ex> qs = coords();
    const int n = (int)qs.size();
    std::map<int, int> index;   // symbol node id (q or q̇) -> coordinate index
    for (int j = 0; j < n; ++j) {
        index[qs[j].id()] = j;
        index[st.dot(qs[j]).id()] = j;
    }
    std::vector<std::vector<Vector>> at_point(points_.size()), at_base(bases_.size());
    for (const PointLoad &l : pl) {
        if (l.body < 0) {
            at_point[l.point].push_back(l.F);
        } else {
            // Carried to the body's centre of mass: F at G plus the couple r_G_P × F.
            const Body &b = bodies_[l.body];
            at_point[b.cg].push_back(l.F);
            Vector r(bases_, l.F.base, points_.position(b.cg, l.point, l.F.base));
            at_base[b.base].push_back(cross(r, l.F));
        }
    }
    for (const BaseLoad &l : bl) at_base[l.base].push_back(l.T);

    std::vector<Ex> E(n, st.zero());
    // Point edges, leaves first (creation order is topological).
    for (int p = points_.size() - 1; p > 0; --p) {
        if (at_point[p].empty()) continue;
        int b = points_.base(p);
        V3 F = sum_in(bases_, at_point[p], b);
        if (is_zero(F)) continue;
        const V3 &r = points_.r(p);
        at_point[points_.parent(p)].push_back(Vector(bases_, b, F));
        for (int id : symbols_in(st, r, SymKind::Coord)) {
            int j = index.at(id);
            E[j] = E[j] + dot(diff(r, st.ex(id)), F);
        }
        at_base[b].push_back(Vector(bases_, b, cross(r, F)));
    }
    // Base edges, leaves first.
    for (int b = bases_.size() - 1; b > 0; --b) {
        if (at_base[b].empty()) continue;
        int pb = bases_.parent(b);
        V3 T = sum_in(bases_, at_base[b], pb);
        if (is_zero(T)) continue;
        at_base[pb].push_back(Vector(bases_, pb, T));
        const V3 &w = bases_.omega_edge(b);
        for (int id : symbols_in(st, w, SymKind::Vel)) {
            auto it = index.find(id);
            if (it == index.end()) continue;   // a velocity of an auxiliary coordinate: not a dynamic dof
            int j = it->second;
            E[j] = E[j] + dot(diff(w, st.ex(id)), T);
        }
    }
    return E;
}

void System::build()
{
    if (built_) return;
    Store &st = *st_;
    std::vector<PointLoad> pl;
    std::vector<BaseLoad> bl;
    // Inertia: m a_G at G, dH_G/dt on the body's base.  H is formed in the
    // inertia's base Bi (H = I ω), and dH/dt = Ḣ|_Bi + ω_Bi × H; this is exact
    // whenever I is constant in Bi — also for a base that does not turn with
    // the body, such as the non-spinning base of a symmetric wheelset.
    for (const Body &b : bodies_) {
        pl.push_back(PointLoad{b.cg, -1, b.mass * ground_acceleration(b.cg)});
        int bi = b.inertia.base;
        V3 w = bases_.express(bases_.omega(b.base), b.base, bi);
        V3 H = mul(b.inertia.m, w);
        V3 Hd = add(dt(H), cross(bases_.omega(bi), H));
        bl.push_back(BaseLoad{b.base, Vector(bases_, bi, Hd)});
    }
    // Applied loads enter with the opposite sign.
    std::vector<PointLoad> apl;
    std::vector<BaseLoad> abl;
    for (const ForceElement &f : forces_) force_loads(*this, f, apl, abl);
    for (PointLoad &l : apl) pl.push_back(PointLoad{l.point, l.body, -l.F});
    for (BaseLoad &l : abl) bl.push_back(BaseLoad{l.base, -l.T});
    E_ = generalized(pl, bl);

    std::vector<Ex> qs = coords();
    const int n = (int)qs.size();
    Substitution zero_acc(st);
    std::vector<Ex> qdd(n);
    for (int j = 0; j < n; ++j) {
        qdd[j] = st.dot(st.dot(qs[j]));
        zero_acc.set(qdd[j], st.zero());
    }
    M_.assign((size_t)n * n, st.zero());
    delta_.assign(n, st.zero());
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < n; ++k) M_[(size_t)i * n + k] = st.diff(E_[i], qdd[k]);
        delta_[i] = -zero_acc.apply(E_[i]);
    }
    built_ = true;
}

const std::vector<Ex> &System::equations()
{
    build();
    return E_;
}
const std::vector<Ex> &System::mass_matrix()
{
    build();
    return M_;
}
const std::vector<Ex> &System::delta()
{
    build();
    return delta_;
}

std::vector<Ex> System::applied_generalized_forces()
{
    std::vector<PointLoad> pl;
    std::vector<BaseLoad> bl;
    for (const ForceElement &f : forces_) force_loads(*this, f, pl, bl);
    return generalized(pl, bl);
}

// ---------------------------------------------------------------- constraints

std::vector<Ex> System::phi()
{
    std::vector<Ex> v;
    for (const NamedEx &c : constraints_) v.push_back(c.value);
    return v;
}

std::vector<Ex> System::phi_q()
{
    std::vector<Ex> qs = coords(), out;
    for (const NamedEx &c : constraints_)
        for (const Ex &q : qs) out.push_back(st_->diff(c.value, q));
    return out;
}

std::vector<Ex> System::phi_s()
{
    std::vector<Ex> ss = auxs(), out;
    for (const NamedEx &c : constraints_)
        for (const Ex &s : ss) out.push_back(st_->diff(c.value, s));
    return out;
}

// φ̇ = φ_q q̇ + φ_s ṡ + φ_t, so φ_t is φ̇ with q̇ = ṡ = 0, and β = −φ_t.
std::vector<Ex> System::beta()
{
    Substitution zero_vel(*st_);
    for (const Ex &q : coords()) zero_vel.set(st_->dot(q), st_->zero());
    for (const Ex &s : auxs()) zero_vel.set(st_->dot(s), st_->zero());
    std::vector<Ex> out;
    for (const NamedEx &c : constraints_) out.push_back(-zero_vel.apply(st_->dt(c.value)));
    return out;
}

// φ̈ = φ_q q̈ + φ_s s̈ + (the rest), so γ = −(φ̈ with q̈ = s̈ = 0).
std::vector<Ex> System::gamma()
{
    Substitution zero_acc(*st_);
    for (const Ex &q : coords()) zero_acc.set(st_->dot(st_->dot(q)), st_->zero());
    for (const Ex &s : auxs()) zero_acc.set(st_->dot(st_->dot(s)), st_->zero());
    std::vector<Ex> out;
    for (size_t k = 0; k < constraints_.size(); ++k) {
        const ContactElement *ce = nullptr;
        for (const ContactElement &c : contacts_)
            if (c.constraint == (int)k) ce = &c;
        if (ce) {
            // φ^n = n_r · r with r = P_w − P_r.  On the constraint manifold
            // (φ^n = φ^d = 0) r = 0, and at consistent velocities ṙ = 0, so
            // φ̈^n = n_r · r̈: the second derivatives of the rail normal drop out.
            Ex acc = st_->zero();
            for (int i = 0; i < 3; ++i) acc = acc + ce->n_r[i] * st_->dt(st_->dt(ce->r[i]));
            out.push_back(-zero_acc.apply(acc));
        } else {
            out.push_back(-zero_acc.apply(st_->dt(st_->dt(constraints_[k].value))));
        }
    }
    return out;
}

// ---------------------------------------------------------------- energy

Ex System::kinetic_energy()
{
    Ex T = st_->zero();
    for (const Body &b : bodies_) {
        V3 v = points_.velocity(b.cg);
        int bi = b.inertia.base;
        V3 w = bases_.express(bases_.omega(b.base), b.base, bi);
        T = T + 0.5 * (b.mass * dot(v, v) + dot(w, mul(b.inertia.m, w)));
    }
    return T;
}

Ex System::potential_energy()
{
    Ex V = st_->zero();
    for (const ForceElement &f : forces_) V = V + force_potential(*this, f);
    return V;
}

}  // namespace railsym
