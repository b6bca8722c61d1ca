// system.hpp — a multibody System: symbols, bases, points, frames, bodies,
// forces, constraints and outputs, and the equations built from them.
//
// Every element is named by a string and looked up by name; an unknown name
// throws ModelError naming the element being defined and suggesting the
// closest known names — the shape the description language (.vdl) needs.
// Names of bases, points, frames, bodies, forces, constraints and outputs
// share one namespace (so a message can always say what a name is); "ground"
// is both the root base and the ground frame (point "O", base "ground").
//
// Sign convention (docs/modeler.md):  the equations of motion are
//     E(q, q̇, q̈, t) = Σ over virtual movements q̇_j of the virtual power of
//                      the inertia forces and moments MINUS that of the
//                      applied forces and moments,
//     E = M q̈ − δ,   M = ∂E/∂q̈,   δ = −E|_{q̈=0},   so that   M q̈ = δ
// With constraints and multipliers λ:  M q̈ + φ_qᵀ λ = δ.
// Constraints φ(q, s, t) = 0:  φ_q q̇ + φ_s ṡ = β,  φ_q q̈ + φ_s s̈ = γ.
#ifndef RAILSYM_SYSTEM_HPP
#define RAILSYM_SYSTEM_HPP

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "contact.hpp"   // wheel-rail contact block (end of class System)
#include "forces.hpp"
#include "points.hpp"
#include "vectors.hpp"

namespace railsym {

// The contact quantities of a System (System::contact_equations), row-major,
// contact i owning its rows (or columns) [k·i, k·i + k) of each.
struct ContactEquations {
    int n_contacts = 0, n_coords = 0;
    std::vector<Ex> delta_nk;       // δ with every creep force input at 0 (n)
    std::vector<Ex> phi_n;          // normal gaps (nc)
    std::vector<Ex> phi_n_q;        // ∂φ^n/∂q (nc × n)
    std::vector<Ex> gamma_n, beta_n;// acceleration and velocity RHS of φ^n (nc)
    std::vector<Ex> phi_d;          // tangential constraints (4nc)
    std::vector<Ex> phi_d_q;        // ∂φ^d/∂q (4nc × n)
    std::vector<Ex> phi_d_s;        // each contact's 4×4 ∂φ^d/∂s block, stacked (4nc × 4)
    std::vector<Ex> beta_d;         // velocity RHS of φ^d (4nc)
    std::vector<Ex> nu, V, radii;   // creepage numerators (3nc), reference speeds (nc), radii (3nc)
    std::vector<Ex> ddelta_df;      // ∂δ/∂(f_x, f_y, m_z) (n × 3nc)
    std::vector<Ex> dnu_dqd;        // ∂ν/∂q̇ (3nc × n)
};

// The wheels of the contacts as rigid bodies of revolution, for the elastic
// mode (System::wheel_equations; docs/contact_element.md "Elastic mode"),
// row-major, ground components.
struct WheelEquations {
    std::vector<Ex> pose;           // per contact O_w (3), then R_ground_nsw row-major (9): 12 nc
    std::vector<Ex> vel;            // per contact v(O_w) (3), ω (3): 6 nc
    std::vector<Ex> jac;            // ∂vel/∂q̇ (6nc × n)
    std::vector<Ex> geom;           // per contact r0, rail offset h_r: 2 nc
};

struct Frame {
    std::string name;
    int point, base;
};

struct Body {
    std::string name;
    Ex mass;
    int cg;          // centre of mass point
    Tensor inertia;  // about the centre of mass, in any base in which it is known
    int base;        // the body's base: its angular velocity is this base's
    int frame;       // the attached frame (index into frames), -1 when given as a base
    // false: the description keeps an inertia that breaks the triangle
    // inequality on purpose (published data, `inertia_unchecked "WHY"`);
    // neither the compiler nor the runtime checks that inequality then (a
    // mass that is not positive or a negative moment is refused all the same).
    bool check_triangle = true;
};

struct NamedEx {
    std::string name;
    Ex value;
};

class System {
public:
    System();                       // owns its Store
    explicit System(Store &store);  // works in an existing Store
    System(const System &) = delete;
    System &operator=(const System &) = delete;

    Store &store() { return *st_; }
    BaseTree &bases() { return bases_; }
    const BaseTree &bases() const { return bases_; }
    PointTree &points() { return points_; }

    // ---- symbols (asking again for an existing name returns it) ----
    Ex param(const std::string &name, double default_value = 0.0);
    // A parameter whose default is an expression of other parameters
    // (`param dz = m*g/k`): the runtime recomputes it when they change
    // (codegen's `params` function, RS_FN_PARAMS), in declaration order.
    void param_expr(Ex p, Ex value) { param_exprs_.emplace_back(p, value); }
    const std::vector<std::pair<Ex, Ex>> &param_exprs() const { return param_exprs_; }
    Ex coord(const std::string &name, double q0 = 0.0, double qd0 = 0.0);   // returns q
    Ex aux(const std::string &name, double s0 = 0.0);                        // returns s
    Ex input(const std::string &name, double default_value = 0.0);
    Ex time() { return st_->time(); }
    Ex vel(Ex q) { return st_->dot(q); }            // q̇ of q (or ṡ of s)
    Ex acc(Ex q) { return st_->dot(st_->dot(q)); }  // q̈ of q
    Ex symbol(const std::string &name) const;       // any symbol; ModelError with suggestion
    std::vector<Ex> coords() const { return st_->symbols_of(SymKind::Coord); }
    std::vector<Ex> auxs() const { return st_->symbols_of(SymKind::Aux); }
    // Default values of parameters and inputs, initial q, q̇, s (others zero).
    SymValues defaults() const { return defaults_; }

    // ---- geometry ----
    int add_base(const std::string &name, const std::string &parent, Axis axis, Ex angle);
    int add_base(const std::string &name, const std::string &parent, const V3 &axis_in_parent, Ex angle);
    int add_base_euler(const std::string &name, const std::string &parent, Ex e0, Ex e1, Ex e2, Ex e3);
    int add_base_matrix(const std::string &name, const std::string &parent, const M3 &R_parent_new);
    int add_point(const std::string &name, const std::string &parent, const Vector &r);
    int add_frame(const std::string &name, const std::string &point, const std::string &base);
    int base(const std::string &name, const std::string &context = "lookup") const;
    int point(const std::string &name, const std::string &context = "lookup") const;
    const Frame &frame(const std::string &name, const std::string &context = "lookup") const;
    const Frame &frame_at(int index) const { return frames_.at(index); }
    Vector vec(Ex x, Ex y, Ex z, const std::string &base);
    Vector vec(const V3 &c, const std::string &base);
    Tensor tensor(const M3 &m, const std::string &base);
    Tensor diag(Ex a, Ex b, Ex c, const std::string &base);

    // ---- kinematic operators by name ("" for `in` means the natural base) ----
    M3 rotation(const std::string &from, const std::string &to);                  // R_to_from
    Vector position(const std::string &from, const std::string &to, const std::string &in = "ground");
    // Velocity / acceleration of a point relative to a frame: derivatives, taken
    // in the frame's base, of the position from the frame's point.  `in` ""
    // means the frame's base.
    Vector velocity(const std::string &point, const std::string &frame = "ground", const std::string &in = "");
    Vector acceleration(const std::string &point, const std::string &frame = "ground", const std::string &in = "");
    // Angular velocity / acceleration of a base relative to another (derivative
    // taken in `rel`); `in` "" means `rel`.
    Vector omega(const std::string &base, const std::string &rel = "ground", const std::string &in = "");
    Vector alpha(const std::string &base, const std::string &rel = "ground", const std::string &in = "");
    // Index-based forms (the dynamics uses them).
    Vector velocity(int point, const Frame &f, int in);
    Vector acceleration(int point, const Frame &f, int in);
    Vector ground_velocity(int point) { return Vector(bases_, points_.base(point), points_.velocity(point)); }
    Vector ground_acceleration(int point) { return Vector(bases_, points_.base(point), points_.acceleration(point)); }
    Vector omega_abs(int b) { return Vector(bases_, b, bases_.omega(b)); }

    // ---- bodies, forces, constraints, outputs ----
    // `frame` names a frame or a base (the body's base: its angular velocity).
    int add_body(const std::string &name, Ex mass, const std::string &cg, const Tensor &inertia,
                 const std::string &frame);
    int add_body(const std::string &name, Ex mass, const std::string &cg, const M3 &inertia,
                 const std::string &inertia_base, const std::string &frame);
    int body(const std::string &name, const std::string &context = "lookup") const;
    void set_inertia_unchecked(int body) { bodies_.at((size_t)body).check_triangle = false; }
    // The bodies whose mass or inertia depend on parameters: the runtime
    // checks them for each parameter set (RS_FN_INERTIA; the triangle
    // inequality only where check_triangle); literal values are checked when
    // compiled.
    std::vector<int> parameter_inertia_bodies() const;
    const std::vector<Body> &bodies() const { return bodies_; }
    void add_gravity(const Vector &g, const std::string &name = "gravity");
    // Linear spring-damper along the line P1→P2: tension k (L − L0) + c L̇,
    // pulling the points together when positive.  body1/body2 "" : the tree points.
    // `law` adds what a linear law lacks (tables, a bump stop's clearance, dry
    // friction: forces.hpp AxialLaw); a valid `axis` (any length, normalized
    // here) makes the element act along it instead of along P1→P2.
    void add_spring_damper(const std::string &name, const std::string &p1, const std::string &p2, Ex k, Ex c,
                           Ex L0, const std::string &body1 = "", const std::string &body2 = "",
                           const AxialLaw &law = AxialLaw(), const Vector &axis = Vector());
    // Anti-roll bar (docs/elements.md): a torsion bar of stiffness kt with
    // two arms of length `arm`, linked to the other body by two links along
    // `axis`: left link P1→P2, right link P3→P4 (bodies as for springs).
    // Potential ½ kt (Δ/arm)², Δ = axis·r_P1_P2 − axis·r_P3_P4.
    void add_antiroll(const std::string &name, const std::array<std::string, 4> &points,
                      const std::array<std::string, 4> &bodies, Ex kt, Ex arm, const Vector &axis);
    // Linear bushing between frames F1 and F2 (small relative rotation):
    // displacement x = r_O1_O2 and rotation θ = vee(skew(R_B1_B2)) in B1, rates
    // in B1; F = −(k ∘ x + c ∘ ẋ) on F2 at O2, −F on F1 at O1; the torque
    // likewise on the bases.  k, c: x y z rx ry rz.  large_rotation: θ the
    // Cayley vector 2 tan(φ/2) n and the torque −∂(½ θᵀ Kr θ)/∂ψ instead
    // (docs/elements.md "Bushings").
    void add_bushing(const std::string &name, const std::string &f1, const std::string &f2,
                     const std::array<Ex, 6> &k, const std::array<Ex, 6> &c, const std::string &body1 = "",
                     const std::string &body2 = "", bool large_rotation = false);
    // A force F acting at `point` (on `body`'s material point there when given);
    // optional reaction −F at `reaction_point` (on `reaction_body`).
    void add_force(const std::string &name, const std::string &point, const Vector &F, const std::string &body = "",
                   const std::string &reaction_point = "", const std::string &reaction_body = "");
    // A torque T acting on a base or a body's base; optional reaction −T.
    void add_torque(const std::string &name, const std::string &on, const Vector &T,
                    const std::string &reaction_on = "");
    // A force computed by a user's library (abi/rs_plugin.h, docs/plugins.md)
    // along P1→P2 (or `axis`): inputs NAME.f, NAME.dfdx, NAME.dfdv,
    // NAME.x_eval, NAME.v_eval the runtime writes, outputs NAME.x, NAME.v it
    // reads them from.
    struct Plugin {
        std::string name, library;
        std::vector<double> params;
        int n_state = 0;
    };
    void add_plugin(const Plugin &info, const std::string &p1, const std::string &p2, const std::string &body1,
                    const std::string &body2, const Vector &axis = Vector());
    const std::vector<Plugin> &plugins() const { return plugins_; }
    const std::vector<ForceElement> &forces() const { return forces_; }
    void add_constraint(const std::string &name, Ex phi);
    void add_output(const std::string &name, Ex value);
    const std::vector<NamedEx> &constraints() const { return constraints_; }
    const std::vector<NamedEx> &outputs() const { return outputs_; }

    // ---- equations (built on first use; any later definition rebuilds) ----
    const std::vector<Ex> &equations();       // E, one per coordinate (slot order)
    const std::vector<Ex> &mass_matrix();     // M, n×n row-major
    const std::vector<Ex> &delta();           // δ
    std::vector<Ex> phi();                    // φ, m
    std::vector<Ex> phi_q();                  // m×n row-major
    std::vector<Ex> phi_s();                  // m×ns row-major
    std::vector<Ex> beta();                   // −φ_t
    std::vector<Ex> gamma();                  // −(φ̈ at q̈ = s̈ = 0)
    Ex kinetic_energy();
    Ex potential_energy();
    // Virtual-power generalized forces of the applied loads alone (Σ F·∂v/∂q̇_j
    // + T·∂ω/∂q̇_j), for checks.
    std::vector<Ex> applied_generalized_forces();
    // Generalized forces of any load set (the sums δ is made of), e.g. one
    // class of force elements for the power terms (power.hpp).
    std::vector<Ex> generalized_forces(const std::vector<PointLoad> &pl, const std::vector<BaseLoad> &bl)
    {
        return generalized(pl, bl);
    }

    // Element kind of a name ("base", "point", ...), "" when unknown.
    std::string kind_of(const std::string &name) const;

private:
    void claim(const std::string &name, const std::string &kind);
    void changed() { built_ = false; }
    int body_or_none(const std::string &name, const std::string &context) const;
    ForceElement two_point(const std::string &name, ForceKind kind, const std::string &ctx, const char *what,
                           const std::string &p1, const std::string &p2, const std::string &body1,
                           const std::string &body2) const;
    int base_of(const std::string &base_or_body, const std::string &context) const;
    void build();
    std::vector<Ex> generalized(const std::vector<PointLoad> &pl, const std::vector<BaseLoad> &bl);

    std::unique_ptr<Store> own_;
    Store *st_;
    BaseTree bases_;
    PointTree points_;
    SymValues defaults_;
    std::vector<std::pair<Ex, Ex>> param_exprs_; // dependent parameter -> its expression
    std::map<std::string, std::string> names_;   // element name -> kind
    std::vector<Frame> frames_;
    std::vector<Body> bodies_;
    std::vector<ForceElement> forces_;
    std::vector<Plugin> plugins_;
    std::vector<NamedEx> constraints_, outputs_;

    bool built_ = false;
    std::vector<Ex> E_, M_, delta_;

    // ==== wheel-rail contacts (modeler/mechanics/contact.hpp, system_contact.cpp) ====
public:
    // Adds one contact element (creates its s, inputs, points Pw/Pr, creep
    // force and torque, and the constraint φ^n); returns its index.
    int add_contact(const ContactSpec &spec);
    const std::vector<ContactElement> &contacts() const { return contacts_; }
    // Slots of every contact, for the runtime's descriptor.
    std::vector<ContactTableEntry> contact_table() const;
    // δ with every creep force input set to zero.
    std::vector<Ex> delta_nk();
    // Every quantity of the contacts' constraints and creep
    // (docs/contact_element.md), stacked contact by contact; empty vectors
    // when the model has no contacts.  codegen's contact_functions() packs
    // them into generated functions.
    ContactEquations contact_equations();
    WheelEquations wheel_equations();

private:
    std::vector<ContactElement> contacts_;
    // ==== end of wheel-rail contacts ====
};

}  // namespace railsym

#endif
