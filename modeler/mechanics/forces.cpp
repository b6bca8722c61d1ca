// forces.cpp — loads and potentials of the force elements.
#include "forces.hpp"

#include "system.hpp"

namespace railsym {

namespace {

// Axial geometry of a pair of points: the direction u the force acts along
// (the line P1→P2, or the element's axis), the deflection coordinate x (the
// length L, or the component of r_P1_P2 along the axis) and its rate ẋ =
// u·(v2 − v1), the rate whose product with the tension is the loads' power.
struct SpringState {
    Vector r, u;
    Ex L, Ld;
};

SpringState axial_state(System &sys, const std::string &name, int p1, int p2, const Vector &axis)
{
    PointTree &pt = sys.points();
    BaseTree &bt = sys.bases();
    int e = pt.base(p2);
    SpringState s;
    s.r = Vector(bt, e, pt.position(p1, p2, e));
    if (axis.valid()) {   // along a direction: the points may coincide
        s.u = axis;
        s.L = dot(axis, s.r);
        s.Ld = sys.store().dt(s.L);   // with the axis' own turning (its couple, axis_couple)
        return s;
    }
    if (s.r.c[0].is_zero() && s.r.c[1].is_zero() && s.r.c[2].is_zero())   // two names for one place
        throw ModelError("spring-damper '" + name + "': its two points coincide in every pose (length "
                         "identically 0, no direction for the force); give the spring two points apart, 'along' "
                         "a direction, or use a bushing for a joint of zero length");
    s.L = norm(s.r);
    s.u = s.r / s.L;
    Vector vrel = sys.ground_velocity(p2).in(e) - sys.ground_velocity(p1);   // after u: the atoms' order as before
    s.Ld = dot(s.u, vrel);
    return s;
}

SpringState spring_state(System &sys, const ForceElement &f) { return axial_state(sys, f.name, f.p1, f.p2, f.axis); }

// A direction fixed in a moving base makes the element a guide mounted on
// that base: the pair ±F along u at two points a distance r apart is a couple
// the guide passes to its base, tension·(r × u).  With it the loads are
// exactly −∂V/∂q (δd = u·δr + (δθ × u)·r) and the rate ḋ = d(u·r)/dt the
// damping multiplies is the one whose product with the tension is their
// power.  Nothing for a ground direction.
void axis_couple(const Vector &axis, const Vector &r, Ex tension, std::vector<BaseLoad> &bl)
{
    if (axis.base == BaseTree::kGround) return;
    bl.push_back(BaseLoad{axis.base, tension * cross(r.in(axis.base), axis)});
}

// The bump stop's deflection beyond its clearance (0 within ±gap).
Ex beyond_gap(const AxialLaw &law, Ex d) { return ramp(d - law.gap) - ramp(-d - law.gap); }

// tension of a SpringDamper (forces.hpp AxialLaw).
Ex axial_tension(System &sys, const ForceElement &f, const SpringState &s)
{
    Store &st = sys.store();
    const AxialLaw &law = f.law;
    // The linear law as it always was written (the atoms' order, hence the
    // generated C of existing models, stays the same).
    if (!law.stop && !law.ktab && !law.ctab && !law.f0.valid() && !law.ks.valid())
        return f.k * (s.L - f.L0) + f.c * s.Ld;
    Ex d = s.L - f.L0;
    Ex T = st.zero();
    if (law.stop) {
        Ex e = beyond_gap(law, d);
        T = law.ktab ? table_value(st, *law.ktab, e) : f.k * e + law.k3 * e * e * e;
    } else {
        T = law.ktab ? table_value(st, *law.ktab, d) : f.k * d;
    }
    T = T + (law.ctab ? table_value(st, *law.ctab, s.Ld) : f.c * s.Ld);
    if (law.f0.valid()) T = T + law.f0 * s.Ld / sqrt(s.Ld * s.Ld + law.v0 * law.v0);
    if (law.ks.valid()) T = T + law.ks * law.z;
    return T;
}

// ½ k d² and its kin: the integral of the elastic part from d = 0.
Ex axial_potential(System &sys, const ForceElement &f, const SpringState &s)
{
    Store &st = sys.store();
    const AxialLaw &law = f.law;
    Ex d = s.L - f.L0;
    if (law.stop) {   // ∫_0^d elastic = ∫_0^e (the integrand is 0 inside the gap, de = dd beyond)
        Ex e = beyond_gap(law, d);
        if (law.ktab) return table_integral(st, *law.ktab, e);
        Ex e2 = e * e;
        return 0.5 * f.k * e2 + 0.25 * law.k3 * e2 * e2;
    }
    Ex series = law.ks.valid() ? 0.5 * law.ks * law.z * law.z : st.zero();   // the node's spring
    if (law.ktab) return table_integral(st, *law.ktab, d) + series;
    if (law.ks.valid()) return 0.5 * f.k * d * d + series;
    return 0.5 * f.k * d * d;
}

// The anti-roll bar's twist times the arm: Δ = x_left − x_right, the bar
// turns by Δ / arm (docs/elements.md).
struct AntiRollState {
    SpringState left, right;
    Ex delta;
};

AntiRollState antiroll_state(System &sys, const ForceElement &f)
{
    AntiRollState a;
    a.left = axial_state(sys, f.name, f.p1, f.p2, f.axis);
    a.right = axial_state(sys, f.name, f.p3, f.p4, f.axis);
    a.delta = a.left.L - a.right.L;
    return a;
}

// The bushing's measures, all in B1.  th is the rotation measure of F2's
// base relative to F1's: vee(skew R) = sin φ n for the small-angle law, the
// Cayley (Gibbs) vector 2 tan(φ/2) n for `rotation large` (φ, n: R's angle
// and axis; n has the same components in B1 and B2).
struct BushingState {
    Vector x, xd, th, w;
};

// 2 vee(R − Rᵀ)/(1 + tr R) = 4 vee_skew(R)/(1 + tr R) = 2 tan(φ/2) n: a
// rational function of R's entries (no square root, no inverse cosine), so
// it and all its derivatives are finite at rest (tr R = 3) and for every
// |φ| < π; it equals φ n + φ³/12 n + O(φ⁵).
V3 cayley_vector(const M3 &R)
{
    V3 s = vee_skew(R);
    Ex den = 1.0 + R[0][0] + R[1][1] + R[2][2];
    return V3{4.0 * s[0] / den, 4.0 * s[1] / den, 4.0 * s[2] / den};
}

BushingState bushing_state(System &sys, const ForceElement &f)
{
    BaseTree &bt = sys.bases();
    PointTree &pt = sys.points();
    const Frame &a = sys.frame_at(f.f1), &b = sys.frame_at(f.f2);
    BushingState s;
    s.x = Vector(bt, a.base, pt.position(a.point, b.point, a.base));
    s.xd = dt_in_base(s.x);   // derivative in B1: the velocity of O2 seen from frame 1
    M3 R = bt.rotation(b.base, a.base);   // R_B1_B2
    s.th = Vector(bt, a.base, f.large_rotation ? cayley_vector(R) : vee_skew(R));
    s.w = Vector(bt, a.base, bt.omega(b.base, a.base, a.base));
    return s;
}

Vector diag_times(const std::array<Ex, 6> &d, int off, const Vector &v)
{
    return Vector(*v.bt, v.base, V3{d[off] * v.c[0], d[off + 1] * v.c[1], d[off + 2] * v.c[2]});
}

// The elastic torque on F2 of the large-angle law: minus the gradient of
// V = ½ θᵀ Kr θ (θ the Cayley vector) with respect to a small rotation δψ
// of F2 relative to F1 (in B1).  With Ṙ Rᵀ = [ω]× (ω relative, in B1) the
// Cayley vector moves as θ̇ = H ω, H = I − ½[θ]× + ¼ θθᵀ, so δV = (Kr θ)ᵀ H δψ
// and T = −Hᵀ Kr θ = −(Kr θ + ½ θ × Kr θ + ¼ θ (θ·Kr θ)): exact for any
// diagonal Kr, isotropic or not (docs/elements.md "Bushings").
Vector cayley_torque(const std::array<Ex, 6> &k, const Vector &th)
{
    const V3 &t = th.c;
    V3 kt{k[3] * t[0], k[4] * t[1], k[5] * t[2]};
    V3 tk = cross(t, kt);
    Ex tkt = 0.25 * dot(t, kt);
    V3 T;
    for (int i = 0; i < 3; ++i) T[i] = -(kt[i] + 0.5 * tk[i] + tkt * t[i]);
    return Vector(*th.bt, th.base, T);
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
        Ex tension = axial_tension(sys, f, s);
        Vector F2 = -(tension * s.u);   // on P2, towards P1 when in tension
        pl.push_back(PointLoad{f.p2, f.body2, F2});
        pl.push_back(PointLoad{f.p1, f.body1, -F2});
        if (f.axis.valid()) axis_couple(f.axis, s.r, tension, bl);
        break;
    }
    case ForceKind::Plugin: {   // the tension the runtime's plugin call linearized (rs_plugin.h)
        SpringState s = spring_state(sys, f);
        Ex tension = f.plug[0] + f.plug[1] * (s.L - f.plug[3]) + f.plug[2] * (s.Ld - f.plug[4]);
        Vector F2 = -(tension * s.u);
        pl.push_back(PointLoad{f.p2, f.body2, F2});
        pl.push_back(PointLoad{f.p1, f.body1, -F2});
        if (f.axis.valid()) axis_couple(f.axis, s.r, tension, bl);
        break;
    }
    case ForceKind::Bushing: {
        BushingState s = bushing_state(sys, f);
        const Frame &a = sys.frame_at(f.f1), &b = sys.frame_at(f.f2);
        Vector F = -(diag_times(f.kb, 0, s.x) + diag_times(f.cb, 0, s.xd));
        Vector T = f.large_rotation ? cayley_torque(f.kb, s.th) - diag_times(f.cb, 3, s.w)
                                    : -(diag_times(f.kb, 3, s.th) + diag_times(f.cb, 3, s.w));
        pl.push_back(PointLoad{b.point, f.body2, F});
        pl.push_back(PointLoad{a.point, f.body1, -F});
        int b2 = f.body2 >= 0 ? sys.bodies()[f.body2].base : b.base;
        int b1 = f.body1 >= 0 ? sys.bodies()[f.body1].base : a.base;
        bl.push_back(BaseLoad{b2, T});
        bl.push_back(BaseLoad{b1, -T});
        break;
    }
    case ForceKind::AntiRoll: {
        // The bar's torque k Δ/arm is carried by the links as ±k Δ/arm²:
        // it pushes the left link's points apart and the right one's together.
        AntiRollState a = antiroll_state(sys, f);
        Ex tension = f.k * a.delta / (f.arm * f.arm);
        Vector FL = -(tension * f.axis), FR = tension * f.axis;
        pl.push_back(PointLoad{f.p2, f.body2, FL});
        pl.push_back(PointLoad{f.p1, f.body1, -FL});
        pl.push_back(PointLoad{f.p4, f.body4, FR});
        pl.push_back(PointLoad{f.p3, f.body3, -FR});
        axis_couple(f.axis, a.left.r, tension, bl);
        axis_couple(f.axis, a.right.r, -tension, bl);
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

void axial_kinematics(System &sys, const ForceElement &f, Ex &x, Ex &v)
{
    SpringState s = spring_state(sys, f);
    x = s.L;
    v = s.Ld;
}

bool force_has_potential(const ForceElement &f)
{
    return f.kind == ForceKind::Gravity || f.kind == ForceKind::SpringDamper || f.kind == ForceKind::Bushing ||
           f.kind == ForceKind::AntiRoll;
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
    case ForceKind::SpringDamper: V = axial_potential(sys, f, spring_state(sys, f)); break;
    case ForceKind::AntiRoll: {
        AntiRollState a = antiroll_state(sys, f);
        V = 0.5 * f.k * a.delta * a.delta / (f.arm * f.arm);
        break;
    }
    case ForceKind::Bushing: {
        // ½ k x² + ½ kθ θ²: exact for the translational part and for the
        // large-angle law (θ the Cayley vector, its torque is the gradient);
        // for the small-angle law (θ = vee(skew R)) not beyond small angles.
        BushingState s = bushing_state(sys, f);
        for (int i = 0; i < 3; ++i) {
            V = V + 0.5 * f.kb[i] * s.x.c[i] * s.x.c[i];
            V = V + 0.5 * f.kb[3 + i] * s.th.c[i] * s.th.c[i];
        }
        break;
    }
    case ForceKind::Force:
    case ForceKind::Torque:
    case ForceKind::Plugin:   // its force is an input: no potential
        break;
    }
    return V;
}

NodeRate force_node_rate(System &sys, const ForceElement &f)
{
    const AxialLaw &law = f.law;
    if (f.kind != ForceKind::SpringDamper || !law.ks.valid())
        throw ModelError("element '" + f.name + "' has no internal state");
    SpringState s = spring_state(sys, f);
    NodeRate r;
    r.z = law.z;
    r.dzdot_dz = -law.ks / law.cs;
    r.zdot = s.Ld + r.dzdot_dz * law.z;
    r.force = law.ks * law.z;   // = cs (ḋ − ż), the series damper's force
    r.rate = s.Ld;
    r.dissipation = r.force * r.force / law.cs;
    return r;
}

std::vector<NodeRate> node_rates(System &sys)
{
    std::vector<NodeRate> r;
    for (const ForceElement &f : sys.forces())
        if (f.kind == ForceKind::SpringDamper && f.law.ks.valid()) r.push_back(force_node_rate(sys, f));
    return r;
}

}  // namespace railsym
