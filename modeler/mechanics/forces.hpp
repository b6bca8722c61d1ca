// forces.hpp — force elements and the loads they put on points and bases.
//
// A force element (gravity, spring-damper, bushing, applied force or torque,
// any force/torque expression) is stored as its definition; when the
// equations are built it is turned into loads:
//   PointLoad: a force F acting at a point — at the tree point itself, or, when
//              a body is named, at the material point of that body that
//              coincides with it (the load is then carried to the body's
//              centre of mass as F plus the couple r_G_P × F, which is what
//              "attached to the body" means for a point defined on other
//              bases, e.g. a wheel contact point held in a non-spinning base);
//   BaseLoad:  a torque T acting on a base (a body's base).
// and into a potential energy (gravity, springs, bushings) for energy().
#ifndef RAILSYM_FORCES_HPP
#define RAILSYM_FORCES_HPP

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "table.hpp"
#include "vectors.hpp"

namespace railsym {

class System;

enum class ForceKind { Gravity, SpringDamper, Bushing, Force, Torque, AntiRoll, Plugin };

// The law of a SpringDamper (docs/elements.md), a function of the deflection
// d (L − L0 along the line P1→P2, or the component along `axis` minus L0) and
// its rate ḋ:
//   tension = elastic(d) + damping(ḋ) + friction(ḋ), pulling P1 and P2 together
//   elastic  = k d, or ktab(d); a bump stop (stop): of e = d − gap beyond
//              +gap, d + gap below −gap, 0 between: k e + k3 e³, or ktab(e)
//   damping  = c ḋ, or ctab(ḋ)
//   friction = f0 ḋ / √(ḋ² + v0²) (when f0 is set)
//   series   = ks z (when ks is set): a stiffness ks in series with a damper
//              cs (a Maxwell branch; docs/elements.md "Elements with an
//              internal state").  z is the series spring's deflection, a
//              first-order state (an input symbol NAME.z the runtime
//              integrates): cs (ḋ − ż) = ks z, so ż = ḋ − (ks/cs) z.
struct AxialLaw {
    std::shared_ptr<const Table> ktab, ctab;
    bool stop = false;
    Ex gap, k3;
    Ex f0, v0;
    Ex ks, cs, z;
};
struct ForceElement {
    std::string name;
    ForceKind kind;
    Vector vec;                    // Gravity: g; Force: F; Torque: T
    int point = -1, body = -1;     // Force: where it acts (body -1: the tree point)
    int base = -1;                 // Torque: the base it acts on
    int reaction_point = -1, reaction_body = -1, reaction_base = -1;   // −F / −T, optional
    int p1 = -1, p2 = -1, body1 = -1, body2 = -1;                      // SpringDamper
    Ex k, c, L0;                                                       // SpringDamper
    int f1 = -1, f2 = -1;                                              // Bushing frames
    std::array<Ex, 6> kb, cb;      // Bushing: stiffness/damping, x y z then rx ry rz
    bool large_rotation = false;   // Bushing: the Cayley law (`rotation large`, docs/elements.md "Bushings")
    AxialLaw law;                  // SpringDamper: beyond k, c (above)
    Vector axis;                   // SpringDamper, AntiRoll: unit direction (invalid: the line P1→P2)
    int p3 = -1, p4 = -1, body3 = -1, body4 = -1;   // AntiRoll: the right link (p1, p2: the left one)
    Ex arm;                        // AntiRoll: the arms' length; k: the bar's torsion stiffness
    // Plugin (abi/rs_plugin.h): the inputs f, dfdx, dfdv, x_eval, v_eval the
    // runtime writes; tension f + dfdx (x − x_eval) + dfdv (v − v_eval).
    std::array<Ex, 5> plug;
};

// A Plugin's (or any axial element's) deflection x and its rate v, as the
// element's tension multiplies them (p1, p2, axis of f).
void axial_kinematics(System &sys, const ForceElement &f, Ex &x, Ex &v);

// Whether the element has a potential energy (force_potential) in V.
bool force_has_potential(const ForceElement &f);

struct PointLoad {
    int point;
    int body;      // -1: the tree point; else the body's material point there
    Vector F;
};
struct BaseLoad {
    int base;
    Vector T;
};

// Appends the loads of one element.
void force_loads(System &sys, const ForceElement &f, std::vector<PointLoad> &pl, std::vector<BaseLoad> &bl);
// Its potential energy (zero for non-conservative elements).
Ex force_potential(System &sys, const ForceElement &f);

// A SpringDamper with a series branch (law.ks valid): its state's rate
// ż = ḋ − (ks/cs) z, ∂ż/∂z = −ks/cs, and the series damper's dissipated
// power cs (ḋ − ż)² = (ks z)²/cs.
struct NodeRate {
    Ex z, zdot, dzdot_dz, dissipation;
    Ex force, rate;   // the branch's tension ks z and the element's ḋ
};
NodeRate force_node_rate(System &sys, const ForceElement &f);
// Every element's state, in the order of the elements (the model's z).
std::vector<NodeRate> node_rates(System &sys);

}  // namespace railsym

#endif
