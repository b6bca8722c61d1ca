// contact.cpp — geometry, constraints, creep forces and creep pieces of one
// wheel-rail contact (contact.hpp states the conventions; the derivations are
// in docs/contact_element.md).
#include "contact.hpp"

#include <cmath>

#include "system.hpp"

namespace railsym {

namespace {

const char *const kSplineNames[kContactSplines] = {"wheel", "rail", "track_x", "track_y", "track_z", "cant"};
const char *const kCoefNames[5] = {"a", "b", "c", "d", "u_bp"};
const char *const kAuxNames[4] = {"theta_w", "u_w", "s_r", "u_r"};

Ex norm3(const V3 &v) { return sqrt(dot(v, v)); }
V3 unit(const V3 &v) { return scale(1.0 / norm3(v), v); }

}  // namespace

const char *contact_spline_name(int k) { return (k >= 0 && k < kContactSplines) ? kSplineNames[k] : "?"; }
const char *contact_coef_name(int k) { return (k >= 0 && k < 5) ? kCoefNames[k] : "?"; }
const char *contact_aux_name(int k) { return (k >= 0 && k < 4) ? kAuxNames[k] : "?"; }

int contact_spline_aux(int spline)
{
    switch (spline) {
    case kSplineWheel: return kAuxUW;
    case kSplineRail: return kAuxUR;
    default: return kAuxSR;
    }
}

Ex contact_cubic(const std::array<Ex, 5> &c, Ex u)
{
    Ex t = u - c[4];
    return ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
}

int infer_contact_side(System &S, const std::string &wheel_body, const std::string &wheel_centre,
                       const std::string &wheel_base)
{
    const std::string ctx = "contact on '" + wheel_body + "' at '" + wheel_centre + "'";
    const Body &b = S.bodies()[S.body(wheel_body, ctx)];
    int wb = S.base(wheel_base, ctx), wc = S.point(wheel_centre, ctx);
    Ex y = S.points().position(b.cg, wc, wb)[1];
    double v = S.store().eval(y, S.defaults());
    if (!(std::fabs(v) > 0) || !std::isfinite(v))
        throw ModelError(ctx + ": the wheel centre is not beside the centre of mass along the axle (lateral "
                               "offset " + std::to_string(v) + " m), so the side of the wheel is unknown; "
                               "give the side explicitly");
    return v > 0 ? +1 : -1;
}

ContactElement build_contact(System &S, const ContactSpec &spec)
{
    Store &st = S.store();
    BaseTree &bt = S.bases();
    const std::string &nm = spec.name;
    const std::string ctx = "contact '" + nm + "'";
    ContactElement ce;
    ce.spec = spec;
    ce.body = S.body(spec.wheel_body, ctx + " (wheel body)");
    const Body &body = S.bodies()[ce.body];
    const int wb = S.base(spec.wheel_base, ctx + " (non-spinning wheel base)");
    const int wc = S.point(spec.wheel_centre, ctx + " (wheel centre)");
    Ex sg = st.num(spec.side);

    // ---- symbols: s, spline coefficients, creep forces (slot order fixed) ----
    for (int k = 0; k < 4; ++k) ce.s[k] = S.aux(nm + "." + kAuxNames[k], spec.s0[k]);
    for (int sp = 0; sp < kContactSplines; ++sp)
        for (int k = 0; k < 5; ++k) {
            // Defaults describe a straight level track along x (f_x(s) = s), a
            // cylindrical wheel of radius r0 and a flat rail: a consistent
            // geometry before the runtime fills the slots.
            double dflt = (sp == kSplineTrackX && k == 2) ? 1.0 : 0.0;
            ce.coef[sp][k] = S.input(nm + "." + kSplineNames[sp] + "." + kCoefNames[k], dflt);
        }
    const char *fnames[3] = {"fx", "fy", "mz"};
    for (int k = 0; k < 3; ++k) ce.force[k] = S.input(nm + "." + fnames[k], 0.0);

    const Ex thw = ce.s[kAuxThetaW], uw = ce.s[kAuxUW], sr = ce.s[kAuxSR], ur = ce.s[kAuxUR];

    // ---- wheel point: (−f_w sin θ_w, σ u_w, −f_w cos θ_w) in the non-spinning base ----
    ce.f_w = spec.r0 + contact_cubic(ce.coef[kSplineWheel], uw);
    Ex sw = sin(thw), cw = cos(thw);
    V3 rw{-(ce.f_w * sw), sg * uw, -(ce.f_w * cw)};
    ce.wheel_point = S.add_point(nm + ".Pw", spec.wheel_centre, Vector(bt, wb, rw));
    ce.tx_w = Vector(bt, wb, unit(diff(rw, thw)));
    ce.ty_w = Vector(bt, wb, scale(sg, unit(diff(rw, uw))));

    // ---- rail point: C(s_r) + σ (h_r + u_r) ĉ + f_r(u_r) n̂ in ground ----
    V3 C{contact_cubic(ce.coef[kSplineTrackX], sr), contact_cubic(ce.coef[kSplineTrackY], sr),
         contact_cubic(ce.coef[kSplineTrackZ], sr)};
    V3 Cd = diff(C, sr);
    V3 that = unit(Cd);
    // ĉ0 = ẑ × t̂ / |ẑ × t̂|: horizontal, to the left of the tangent;  n̂0 = t̂ × ĉ0.
    Ex hnorm = sqrt(that[0] * that[0] + that[1] * that[1]);
    V3 c0{-that[1] / hnorm, that[0] / hnorm, st.zero()};
    V3 n0 = cross(that, c0);
    Ex cant = contact_cubic(ce.coef[kSplineCant], sr);
    Ex ck = cos(cant), sk = sin(cant);
    V3 chat = add(scale(ck, c0), scale(sk, n0));
    V3 nhat = sub(scale(ck, n0), scale(sk, c0));
    Ex fr = contact_cubic(ce.coef[kSplineRail], ur);
    V3 rr = add(add(C, scale(sg * (spec.rail_offset + ur), chat)), scale(fr, nhat));
    ce.rail_point = S.add_point(nm + ".Pr", "O", Vector(bt, BaseTree::kGround, rr));
    V3 txr = unit(diff(rr, sr));
    V3 tyr = scale(sg, unit(diff(rr, ur)));
    ce.tx_r = Vector(bt, BaseTree::kGround, txr);
    ce.ty_r = Vector(bt, BaseTree::kGround, tyr);
    // Normalized: t_x^r ⟂ t_y^r exactly only where the cant does not vary.
    ce.n_r = Vector(bt, BaseTree::kGround, unit(cross(txr, tyr)));

    // ---- constraints ----
    ce.r = S.position(nm + ".Pr", nm + ".Pw", "ground");
    ce.phi_n = dot(ce.n_r, ce.r);
    ce.phi_d = {dot(ce.tx_r, ce.r), dot(ce.ty_r, ce.r), dot(ce.tx_w, ce.n_r), dot(ce.ty_w, ce.n_r)};

    // ---- creep forces on the wheel at P_w, reaction on the rail ----
    Vector F = ce.force[0] * ce.tx_r + ce.force[1] * ce.ty_r;
    S.add_force(nm + ".creep_force", nm + ".Pw", F, spec.wheel_body, nm + ".Pr", "");
    S.add_torque(nm + ".creep_torque", spec.wheel_body, ce.force[2] * ce.n_r, "ground");

    // ---- creepage numerators and reference speed ----
    // v of the wheel's material point at P_w: v(G) + ω × r(G→P_w), G the
    // body's centre of mass (a material point of the body).
    Vector w = S.omega_abs(body.base).in(wb);
    Vector rGP(bt, wb, S.points().position(body.cg, ce.wheel_point, wb));
    Vector vP = S.ground_velocity(body.cg) + cross(w, rGP);
    ce.nu = {dot(ce.tx_r, vP), dot(ce.ty_r, vP), dot(ce.n_r, w)};
    Vector rOP(bt, wb, rw);
    ce.V = 0.5 * (norm(S.ground_velocity(wc)) + norm(cross(w, rOP)));

    // ---- curvature radii (signed: positive where the body is convex) ----
    // Wheel, rolling direction: distance from the axis over the sine of the
    // angle between the normal and the axis (Meusnier); the seed's eq. (22)
    // writes the distance with e_y, a misprint for e_z (r·e_x, r·e_z span
    // the plane normal to the axis, so the distance is f_w).
    Vector ey(bt, wb, V3{st.zero(), st.one(), st.zero()});
    Ex ny = dot(ey, ce.n_r);
    ce.radii[0] = ce.f_w / sqrt(1.0 - ny * ny);
    // Lateral: −(1 + f'²)^{3/2} / f'' for both profiles (docs/contact.md).
    auto lateral = [&](Ex f, Ex u) {
        Ex d1 = st.diff(f, u), d2 = st.diff(d1, u);
        return -pow(1.0 + d1 * d1, 3, 2) / d2;
    };
    ce.radii[1] = lateral(ce.f_w, uw);
    ce.radii[2] = lateral(fr, ur);

    // ---- elastic mode: the wheel's pose and velocity in ground ----
    // O_w lies on the axle, so its velocity is the wheel body's material
    // velocity there whatever the spin.
    ce.wheel_o = S.position("O", spec.wheel_centre, "ground").c;
    ce.wheel_R = bt.rotation(wb, BaseTree::kGround);
    ce.wheel_v = S.ground_velocity(wc).in(BaseTree::kGround).c;
    ce.wheel_w = S.omega_abs(body.base).in(BaseTree::kGround).c;

    // ---- the normal constraint enters the dynamics ----
    S.add_constraint(nm + ".phi_n", ce.phi_n);
    ce.constraint = (int)S.constraints().size() - 1;
    return ce;
}

}  // namespace railsym
