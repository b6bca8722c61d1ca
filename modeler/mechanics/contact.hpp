// contact.hpp — the wheel-rail contact element (seed 003 §3, DESIGN.md
// "Wheel-rail contact"; docs/contact_element.md is the reference for what the
// runtime reads: functions, output order, input-slot layout).
//
// One contact point per wheel.  Per contact the element creates
//   * 4 auxiliary coordinates s = (θ_w, u_w, s_r, u_r)  (names NAME.theta_w,
//     NAME.u_w, NAME.s_r, NAME.u_r),
//   * 6 cubic splines, each ((a t + b) t + c) t + d with t = u − u_bp and its
//     5 coefficients as inputs NAME.<spline>.{a,b,c,d,u_bp}: the wheel profile
//     (in u_w), the rail profile (in u_r), the track centre line x, y, z and
//     the cant (in s_r),
//   * 3 creep-force inputs NAME.fx, NAME.fy, NAME.mz acting on the wheel body
//     at the wheel point in the contact base (t_x^r, t_y^r, n^r),
//   * the points NAME.Pw (on the wheel) and NAME.Pr (on the rail), the normal
//     constraint NAME.phi_n (added to the System's constraints), and the
//     expressions φ^d, ν, V and the curvature radii.
//
// Conventions (docs/contact_element.md states them with the reasons):
//   * ground: x along the track, y to the left, z up;
//   * side σ = +1 left, −1 right.  u_w and u_r are the abscissae of the
//     profile files themselves (positive towards the field side), so the
//     runtime looks segments up directly; the element mirrors them (σ u);
//   * wheel point, relative to the wheel centre in the non-spinning base:
//     (−f_w sin θ_w, σ u_w, −f_w cos θ_w), f_w = r0 + f_wheel(u_w): the seed's
//     eq. (6) with θ measured from the bottom (θ_seed = θ_w + π/2), so the
//     contact of a rolling wheel sits at θ_w ≈ 0;
//   * rail point: C(s_r) + σ (h_r + u_r) ĉ + f_rail(u_r) n̂ with the track
//     base (t̂, ĉ, n̂) tilted by the cant about t̂ (positive cant raises the
//     left rail), h_r the lateral offset of the rail profile's origin;
//   * contact base: t_x^r = ∂r_r/∂s_r, t_y^r = σ ∂r_r/∂u_r (normalized: both
//     sides point it to the left), n^r = t_x^r × t_y^r normalized: up, from
//     the rail into the wheel, on both sides;
//   * φ^n = n^r·r(P_r→P_w) is a gap (> 0: separated).  With the System's
//     M q̈ + φ_qᵀ λ = δ, the normal force on the wheel is N = −λ_n.
#ifndef RAILSYM_CONTACT_HPP
#define RAILSYM_CONTACT_HPP

#include <array>
#include <string>
#include <vector>

#include "vectors.hpp"

namespace railsym {

class System;

// The splines of one contact, in the order of their input slots.
enum ContactSpline { kSplineWheel = 0, kSplineRail, kSplineTrackX, kSplineTrackY, kSplineTrackZ, kSplineCant };
constexpr int kContactSplines = 6;
// "wheel", "rail", "track_x", "track_y", "track_z", "cant" (the middle part of the input names).
const char *contact_spline_name(int spline);
// The coefficient names in slot order: "a", "b", "c", "d", "u_bp".
const char *contact_coef_name(int coef);
// The auxiliary coordinates of one contact, in slot order.
enum ContactAux { kAuxThetaW = 0, kAuxUW, kAuxSR, kAuxUR };
const char *contact_aux_name(int aux);   // "theta_w", "u_w", "s_r", "u_r"
// Which auxiliary coordinate selects each spline's segment.
int contact_spline_aux(int spline);      // wheel: u_w; rail: u_r; track and cant: s_r

// What the user gives to define a contact (System::add_contact).
struct ContactSpec {
    std::string name;           // element name; prefixes every symbol, point, force
    std::string wheel_body;     // the body the wheel belongs to (creep forces act on it)
    std::string wheel_centre;   // a point on the wheel axis, in the plane of the taping line
    std::string wheel_base;     // the wheelset's non-spinning base: its y axis is the wheel axis
    int side = +1;              // +1: left wheel (field side towards +y), −1: right wheel
    Ex r0;                      // nominal rolling radius (wheel radius at u_w = 0)
    Ex rail_offset;             // lateral distance of the rail profile's origin from the track centre line (> 0)
    std::array<double, 4> s0{}; // initial θ_w, u_w, s_r, u_r
    bool elastic = false;       // the mode the description chooses (the runtime may override):
                                // false: constraint contact (seed 003); true: elastic multi-point
    // Files the description names: copied into the contact table for the
    // runtime, which fits the splines; the modeler never reads them.
    std::string wheel_profile, rail_profile, track;
};

// One contact as built: its symbols, points and expressions.
struct ContactElement {
    ContactSpec spec;
    int body = -1;                                      // index in System::bodies()
    int wheel_point = -1, rail_point = -1;              // points NAME.Pw, NAME.Pr
    int constraint = -1;                                // row of φ^n in System::constraints()
    std::array<Ex, 4> s;                                // θ_w, u_w, s_r, u_r
    std::array<std::array<Ex, 5>, kContactSplines> coef;   // a, b, c, d, u_bp per spline
    std::array<Ex, 3> force;                            // fx, fy, mz
    Ex f_w;                                             // wheel radius at u_w
    Vector tx_r, ty_r, n_r;                             // contact base (ground components)
    Vector tx_w, ty_w;                                  // wheel tangents (wheel base components)
    Vector r;                                           // r(P_r → P_w), ground components
    Ex phi_n;
    std::array<Ex, 4> phi_d;
    std::array<Ex, 3> nu;                               // v(P_w)·t_x^r, v(P_w)·t_y^r, ω·n^r
    Ex V;                                               // ½(|v(O_w)| + |ω × r(O_w→P_w)|)
    std::array<Ex, 3> radii;                            // R_x^w, R_y^w, R_y^r (signed)
    // Elastic mode (docs/contact_element.md "Elastic mode"): the wheel as a
    // rigid body of revolution, ground components.
    V3 wheel_o;                                         // wheel centre O_w
    M3 wheel_R;                                         // R_ground_nsw: columns e_x, e_y (axle), e_z
    V3 wheel_v, wheel_w;                                // v(O_w), ω of the wheel body
};

// The contact table of a model: what the runtime needs to fill the input
// slots of one contact and to read its results.  A descriptor emitter prints
// it as is; every index is a slot inside its kind's input array.
struct ContactTableEntry {
    std::string name;
    std::string wheel_body;
    int side = +1;
    std::array<int, 4> s_slot{};        // s slots of θ_w, u_w, s_r, u_r
    struct Spline {
        std::string role;               // contact_spline_name()
        std::string file;               // profile or track file ("" when none given)
        std::array<int, 5> u_slot{};    // u slots of a, b, c, d, u_bp
        int s_slot = -1;                // the s slot whose value selects the segment
    };
    std::array<Spline, kContactSplines> spline;
    std::array<int, 3> force_slot{};    // u slots of fx, fy, mz
    int phi_row = -1;                   // row of φ^n in System::phi() (multiplier λ_n)
    bool elastic = false;               // ContactSpec::elastic
};

// Builds the geometry, constraints, forces and creep expressions of one
// contact into `sys` (System::add_contact calls it after checking names).
ContactElement build_contact(System &sys, const ContactSpec &spec);

// The side of a wheel from where its centre lies: the lateral (y) component,
// in the non-spinning base, of the vector from the body's centre of mass to
// the wheel centre, evaluated at the System's default values: > 0 gives +1
// (left), < 0 gives −1 (right); zero or not finite throws ModelError.  For
// front ends that do not name the side (the .vdl `contact` statement).
int infer_contact_side(System &sys, const std::string &wheel_body, const std::string &wheel_centre,
                       const std::string &wheel_base);

// The cubic ((a t + b) t + c) t + d, t = u − u_bp, of 5 coefficients.
Ex contact_cubic(const std::array<Ex, 5> &c, Ex u);

}  // namespace railsym

#endif
