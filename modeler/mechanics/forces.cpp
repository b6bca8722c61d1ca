// forces.cpp — loads and potentials of the force elements.
#include "forces.hpp"

#include "system.hpp"

namespace railsym {

namespace {

// Spring geometry: r = r_P1_P2 in P2's native base, L = |r|, L̇ = u·(v2 − v1).
struct SpringState {
    Vector r, u;
    Ex L, Ld;
};

SpringState spring_state(System &sys, const ForceElement &f)
{
    PointTree &pt = sys.points();
    BaseTree &bt = sys.bases();
    int e = pt.base(f.p2);
    SpringState s;
    s.r = Vector(bt, e, pt.position(f.p1, f.p2, e));
    if (s.r.c[0].is_zero() && s.r.c[1].is_zero() && s.r.c[2].is_zero())   // two names for one place
        throw ModelError("spring-damper '" + f.name + "': its two points coincide in every pose (length "
                         "identically 0, no direction for the force); give the spring two points apart, or "
                         "use a bushing for a joint of zero length");
    s.L = norm(s.r);
    s.u = s.r / s.L;
    Vector vrel = sys.ground_velocity(f.p2).in(e) - sys.ground_velocity(f.p1);
    s.Ld = dot(s.u, vrel);
    return s;
}

struct BushingState {
    Vector x, xd, th, w;   // all in B1
};

BushingState bushing_state(System &sys, const ForceElement &f)
{
    BaseTree &bt = sys.bases();
    PointTree &pt = sys.points();
    const Frame &a = sys.frame_at(f.f1), &b = sys.frame_at(f.f2);
    BushingState s;
    s.x = Vector(bt, a.base, pt.position(a.point, b.point, a.base));
    s.xd = dt_in_base(s.x);   // derivative in B1: the velocity of O2 seen from frame 1
    s.th = Vector(bt, a.base, vee_skew(bt.rotation(b.base, a.base)));
    s.w = Vector(bt, a.base, bt.omega(b.base, a.base, a.base));
    return s;
}

Vector diag_times(const std::array<Ex, 6> &d, int off, const Vector &v)
{
    return Vector(*v.bt, v.base, V3{d[off] * v.c[0], d[off + 1] * v.c[1], d[off + 2] * v.c[2]});
}

}  // namespace

void force_loads(System &sys, const ForceElement &f, std::vector<PointLoad> &pl, std::vector<BaseLoad> &bl)
{
    switch (f.kind) {
    case ForceKind::Gravity:
        for (const Body &b : sys.bodies()) pl.push_back(PointLoad{b.cg, -1, b.mass * f.vec});
        break;
    case ForceKind::SpringDamper: {
        SpringState s = spring_state(sys, f);
        Ex tension = f.k * (s.L - f.L0) + f.c * s.Ld;
        Vector F2 = -(tension * s.u);   // on P2, towards P1 when in tension
        pl.push_back(PointLoad{f.p2, f.body2, F2});
        pl.push_back(PointLoad{f.p1, f.body1, -F2});
        break;
    }
    case ForceKind::Bushing: {
        BushingState s = bushing_state(sys, f);
        const Frame &a = sys.frame_at(f.f1), &b = sys.frame_at(f.f2);
        Vector F = -(diag_times(f.kb, 0, s.x) + diag_times(f.cb, 0, s.xd));
        Vector T = -(diag_times(f.kb, 3, s.th) + diag_times(f.cb, 3, s.w));
        pl.push_back(PointLoad{b.point, f.body2, F});
        pl.push_back(PointLoad{a.point, f.body1, -F});
        int b2 = f.body2 >= 0 ? sys.bodies()[f.body2].base : b.base;
        int b1 = f.body1 >= 0 ? sys.bodies()[f.body1].base : a.base;
        bl.push_back(BaseLoad{b2, T});
        bl.push_back(BaseLoad{b1, -T});
        break;
    }
    case ForceKind::Force:
        pl.push_back(PointLoad{f.point, f.body, f.vec});
        if (f.reaction_point >= 0) pl.push_back(PointLoad{f.reaction_point, f.reaction_body, -f.vec});
        break;
    case ForceKind::Torque:
        bl.push_back(BaseLoad{f.base, f.vec});
        if (f.reaction_base >= 0) bl.push_back(BaseLoad{f.reaction_base, -f.vec});
        break;
    }
}

Ex force_potential(System &sys, const ForceElement &f)
{
    Store &st = sys.store();
    Ex V = st.zero();
    switch (f.kind) {
    case ForceKind::Gravity:
        // V = −Σ m g·r_O_G (zero at the origin).
        for (const Body &b : sys.bodies()) {
            Vector r(sys.bases(), f.vec.base, sys.points().position(PointTree::kOrigin, b.cg, f.vec.base));
            V = V - b.mass * dot(f.vec, r);
        }
        break;
    case ForceKind::SpringDamper: {
        SpringState s = spring_state(sys, f);
        Ex d = s.L - f.L0;
        V = 0.5 * f.k * d * d;
        break;
    }
    case ForceKind::Bushing: {
        // Exact for the translational part; for the rotational part the
        // potential of the small-angle law (½ kθ θ², θ = vee(skew R)).
        BushingState s = bushing_state(sys, f);
        for (int i = 0; i < 3; ++i) {
            V = V + 0.5 * f.kb[i] * s.x.c[i] * s.x.c[i];
            V = V + 0.5 * f.kb[3 + i] * s.th.c[i] * s.th.c[i];
        }
        break;
    }
    case ForceKind::Force:
    case ForceKind::Torque:
        break;
    }
    return V;
}

}  // namespace railsym
