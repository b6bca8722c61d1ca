// system.cpp — definitions and name lookups of a System, and its kinematic
// operators by name.  The equations are in dynamics.cpp.
#include "system.hpp"

#include <cmath>

namespace railsym {

System::System() : own_(new Store()), st_(own_.get()), bases_(*st_), points_(*st_, bases_)
{
    names_["ground"] = "base";
    names_["O"] = "point";
    frames_.push_back(Frame{"ground", PointTree::kOrigin, BaseTree::kGround});
}

System::System(Store &store) : st_(&store), bases_(*st_), points_(*st_, bases_)
{
    names_["ground"] = "base";
    names_["O"] = "point";
    frames_.push_back(Frame{"ground", PointTree::kOrigin, BaseTree::kGround});
}

// ---------------------------------------------------------------- symbols

namespace {
// The store throws AlgebraError when a name is reused with another kind; the
// model-building API speaks ModelError.
template <class F>
Ex declare(const std::string &what, const std::string &name, F make)
{
    if (name.empty()) throw ModelError(what + ": the name is empty");
    try {
        return make();
    } catch (const AlgebraError &e) {
        throw ModelError(what + " '" + name + "': " + e.what());
    }
}
}  // namespace

Ex System::param(const std::string &name, double v)
{
    Ex p = declare("parameter", name, [&] { return st_->parameter(name); });
    defaults_.set(SymKind::Param, st_->sym(p.id()).slot, v);
    changed();
    return p;
}

Ex System::coord(const std::string &name, double q0, double qd0)
{
    Ex q = declare("coordinate", name, [&] { return st_->coordinate(name); });
    defaults_.set(SymKind::Coord, st_->sym(q.id()).slot, q0);
    Ex qd = st_->dot(q);
    defaults_.set(SymKind::Vel, st_->sym(qd.id()).slot, qd0);
    changed();
    return q;
}

Ex System::aux(const std::string &name, double s0)
{
    Ex s = declare("auxiliary coordinate", name, [&] { return st_->auxiliary(name); });
    defaults_.set(SymKind::Aux, st_->sym(s.id()).slot, s0);
    changed();
    return s;
}

Ex System::input(const std::string &name, double v)
{
    Ex u = declare("input", name, [&] { return st_->input(name); });
    defaults_.set(SymKind::Input, st_->sym(u.id()).slot, v);
    return u;
}

Ex System::symbol(const std::string &name) const
{
    if (st_->has_symbol(name)) return st_->find_symbol(name);
    std::vector<std::string> known;
    for (const auto &s : st_->symbols()) known.push_back(s.name);
    throw ModelError("unknown symbol '" + name + "'" + did_you_mean(name, known) +
                     "; declare it as a parameter, coordinate or input first");
}

// ---------------------------------------------------------------- names

std::string System::kind_of(const std::string &name) const
{
    auto it = names_.find(name);
    return it == names_.end() ? "" : it->second;
}

void System::claim(const std::string &name, const std::string &kind)
{
    if (name.empty()) throw ModelError(kind + ": the name is empty");
    std::string k = kind_of(name);
    if (!k.empty())
        throw ModelError(kind + " '" + name + "': the name is already used by a " + k + "; choose another name");
    names_[name] = kind;
    changed();
}

int System::base(const std::string &name, const std::string &context) const { return bases_.find(name, context); }
int System::point(const std::string &name, const std::string &context) const { return points_.find(name, context); }

const Frame &System::frame(const std::string &name, const std::string &context) const
{
    for (const Frame &f : frames_)
        if (f.name == name) return f;
    std::vector<std::string> known;
    for (const Frame &f : frames_) known.push_back(f.name);
    throw ModelError(context + ": unknown frame '" + name + "'" + did_you_mean(name, known) +
                     "; define it with a point and a base first");
}

int System::body(const std::string &name, const std::string &context) const
{
    for (size_t i = 0; i < bodies_.size(); ++i)
        if (bodies_[i].name == name) return (int)i;
    std::vector<std::string> known;
    for (const Body &b : bodies_) known.push_back(b.name);
    throw ModelError(context + ": unknown body '" + name + "'" + did_you_mean(name, known));
}

std::vector<int> System::parameter_inertia_bodies() const
{
    std::vector<int> out;
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const Body &b = bodies_[i];
        bool numbers = b.mass.is_number(), params_only = (b.mass.kinds() & ~kind_bit(SymKind::Param)) == 0;
        for (const auto &row : b.inertia.m)
            for (const Ex &x : row) {
                numbers = numbers && x.is_number();
                params_only = params_only && (x.kinds() & ~kind_bit(SymKind::Param)) == 0;
            }
        // (all numbers: checked when compiled; a value that moves with the
        // state is no constant inertia and left to the mass matrix's check)
        if (!numbers && params_only) out.push_back((int)i);
    }
    return out;
}

int System::body_or_none(const std::string &name, const std::string &context) const
{
    return name.empty() ? -1 : body(name, context);
}

int System::base_of(const std::string &base_or_body, const std::string &context) const
{
    if (bases_.lookup(base_or_body) >= 0) return bases_.lookup(base_or_body);
    for (const Body &b : bodies_)
        if (b.name == base_or_body) return b.base;
    std::vector<std::string> known = bases_.names();
    for (const Body &b : bodies_) known.push_back(b.name);
    throw ModelError(context + ": '" + base_or_body + "' is neither a base nor a body" +
                     did_you_mean(base_or_body, known));
}

// ---------------------------------------------------------------- geometry

int System::add_base(const std::string &name, const std::string &parent, Axis axis, Ex angle)
{
    int p = bases_.find(parent, "base '" + name + "'");
    claim(name, "base");
    return bases_.add_rotation(name, p, axis, angle);
}

int System::add_base(const std::string &name, const std::string &parent, const V3 &axis, Ex angle)
{
    int p = bases_.find(parent, "base '" + name + "'");
    claim(name, "base");
    try {
        return bases_.add_rotation(name, p, axis, angle);
    } catch (...) {
        names_.erase(name);
        throw;
    }
}

int System::add_base_euler(const std::string &name, const std::string &parent, Ex e0, Ex e1, Ex e2, Ex e3)
{
    int p = bases_.find(parent, "base '" + name + "'");
    claim(name, "base");
    try {
        return bases_.add_euler(name, p, e0, e1, e2, e3);
    } catch (...) {
        names_.erase(name);
        throw;
    }
}

int System::add_base_matrix(const std::string &name, const std::string &parent, const M3 &R)
{
    int p = bases_.find(parent, "base '" + name + "'");
    claim(name, "base");
    try {
        return bases_.add_matrix(name, p, R);
    } catch (...) {
        names_.erase(name);
        throw;
    }
}

int System::add_point(const std::string &name, const std::string &parent, const Vector &r)
{
    int p = points_.find(parent, "point '" + name + "'");
    if (!r.valid() || r.bt != &bases_) throw ModelError("point '" + name + "': its position vector is empty");
    claim(name, "point");
    try {
        return points_.add(name, p, r.base, r.c);
    } catch (...) {
        names_.erase(name);
        throw;
    }
}

int System::add_frame(const std::string &name, const std::string &point, const std::string &base)
{
    std::string ctx = "frame '" + name + "'";
    int p = points_.find(point, ctx);
    int b = bases_.find(base, ctx);
    claim(name, "frame");
    frames_.push_back(Frame{name, p, b});
    return (int)frames_.size() - 1;
}

Vector System::vec(Ex x, Ex y, Ex z, const std::string &base) { return vec(V3{x, y, z}, base); }

Vector System::vec(const V3 &c, const std::string &base)
{
    return Vector(bases_, bases_.find(base, "vector"), c);
}

Tensor System::tensor(const M3 &m, const std::string &base)
{
    return Tensor(bases_, bases_.find(base, "tensor"), m);
}

Tensor System::diag(Ex a, Ex b, Ex c, const std::string &base) { return tensor(m3_diag(a, b, c), base); }

// ---------------------------------------------------------------- kinematics

M3 System::rotation(const std::string &from, const std::string &to)
{
    return bases_.rotation(bases_.find(from, "rotation"), bases_.find(to, "rotation"));
}

Vector System::position(const std::string &from, const std::string &to, const std::string &in)
{
    int b = bases_.find(in, "position");
    return Vector(bases_, b, points_.position(points_.find(from, "position"), points_.find(to, "position"), b));
}

// v_F(P) = d/dt|_F r_OF_P = v(P) − v(O_F) − ω_F × r_OF_P   (all relative to ground).
Vector System::velocity(int p, const Frame &f, int in)
{
    Vector v = ground_velocity(p).in(in);
    if (f.point == PointTree::kOrigin && f.base == BaseTree::kGround) return v;
    v = v - ground_velocity(f.point);
    if (f.base != BaseTree::kGround) {
        Vector r(bases_, in, points_.position(f.point, p, in));
        v = v - cross(omega_abs(f.base), r);
    }
    return v;
}

// a_F(P) = a(P) − a(O_F) − α_F × r − ω_F × (ω_F × r) − 2 ω_F × v_F(P).
Vector System::acceleration(int p, const Frame &f, int in)
{
    Vector a = ground_acceleration(p).in(in);
    if (f.point == PointTree::kOrigin && f.base == BaseTree::kGround) return a;
    a = a - ground_acceleration(f.point);
    if (f.base != BaseTree::kGround) {
        Vector r(bases_, in, points_.position(f.point, p, in));
        Vector w = omega_abs(f.base).in(in);
        Vector al = Vector(bases_, f.base, bases_.alpha(f.base)).in(in);
        Vector vf = velocity(p, f, in);
        Ex two = st_->num(2);
        a = a - cross(al, r) - cross(w, cross(w, r)) - two * cross(w, vf);
    }
    return a;
}

Vector System::velocity(const std::string &point, const std::string &frame_name, const std::string &in)
{
    const Frame &f = frame(frame_name, "velocity of '" + point + "'");
    int b = in.empty() ? f.base : bases_.find(in, "velocity of '" + point + "'");
    return velocity(points_.find(point, "velocity"), f, b);
}

Vector System::acceleration(const std::string &point, const std::string &frame_name, const std::string &in)
{
    const Frame &f = frame(frame_name, "acceleration of '" + point + "'");
    int b = in.empty() ? f.base : bases_.find(in, "acceleration of '" + point + "'");
    return acceleration(points_.find(point, "acceleration"), f, b);
}

Vector System::omega(const std::string &base, const std::string &rel, const std::string &in)
{
    int b = bases_.find(base, "omega"), r = bases_.find(rel, "omega");
    int e = in.empty() ? r : bases_.find(in, "omega");
    return Vector(bases_, e, bases_.omega(b, r, e));
}

Vector System::alpha(const std::string &base, const std::string &rel, const std::string &in)
{
    int b = bases_.find(base, "alpha"), r = bases_.find(rel, "alpha");
    int e = in.empty() ? r : bases_.find(in, "alpha");
    return Vector(bases_, e, bases_.alpha(b, r, e));
}

// ---------------------------------------------------------------- bodies and forces

int System::add_body(const std::string &name, Ex mass, const std::string &cg, const M3 &inertia,
                     const std::string &inertia_base, const std::string &frame_name)
{
    std::string ctx = "body '" + name + "'";
    if (inertia_base.empty())
        throw ModelError(ctx + ": no inertia tensor base given; give the inertia as a 3×3 matrix in a base");
    int ib = bases_.lookup(inertia_base);
    if (ib < 0)
        throw ModelError(ctx + ": its inertia is given in unknown base '" + inertia_base + "'" +
                         did_you_mean(inertia_base, bases_.names()) + "; define the base first");
    return add_body(name, mass, cg, Tensor(bases_, ib, inertia), frame_name);
}

int System::add_body(const std::string &name, Ex mass, const std::string &cg, const Tensor &inertia,
                     const std::string &frame_name)
{
    std::string ctx = "body '" + name + "'";
    if (!mass.valid() || mass.store() != st_) throw ModelError(ctx + ": no mass given");
    if (mass.is_number() && !(st_->number_value(mass.id()) > 0))
        throw ModelError(ctx + ": mass " + mass.str() + " is not positive");
    if (!inertia.valid() || inertia.bt != &bases_)
        throw ModelError(ctx + ": no inertia tensor; give its inertia about the centre of mass in a base "
                               "(use a zero matrix for a point mass)");
    if (inertia.base < 0 || inertia.base >= bases_.size())
        throw ModelError(ctx + ": its inertia is given in a base that does not exist");
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < i; ++j)
            if (inertia.m[i][j] != inertia.m[j][i]) {
                bool both_num = inertia.m[i][j].is_number() && inertia.m[j][i].is_number();
                if (!both_num || std::fabs(st_->number_value(inertia.m[i][j].id()) -
                                           st_->number_value(inertia.m[j][i].id())) > 1e-12)
                    throw ModelError(ctx + ": its inertia tensor is not symmetric (entries " + std::to_string(i) +
                                     "," + std::to_string(j) + " and " + std::to_string(j) + "," +
                                     std::to_string(i) + " differ)");
            }
    int g = points_.find(cg, ctx + " (centre of mass)");
    int b = -1, fr = -1;
    for (size_t i = 0; i < frames_.size(); ++i)
        if (frames_[i].name == frame_name) {
            fr = (int)i;
            b = frames_[i].base;
        }
    if (b < 0) b = bases_.lookup(frame_name);
    if (b < 0) {
        std::vector<std::string> known = bases_.names();
        for (const Frame &f : frames_) known.push_back(f.name);
        throw ModelError(ctx + ": unknown frame or base '" + frame_name + "'" + did_you_mean(frame_name, known) +
                         "; the body moves with this base");
    }
    claim(name, "body");
    bodies_.push_back(Body{name, mass, g, inertia, b, fr});
    return (int)bodies_.size() - 1;
}

void System::add_gravity(const Vector &g, const std::string &name)
{
    if (!g.valid() || g.bt != &bases_) throw ModelError("gravity '" + name + "': empty vector");
    claim(name, "force");
    ForceElement f;
    f.name = name;
    f.kind = ForceKind::Gravity;
    f.vec = g;
    forces_.push_back(f);
}

// A unit vector along `axis` (ModelError when it is the zero vector).
static Vector unit_axis(const Vector &axis, const std::string &ctx)
{
    if (!axis.valid()) return axis;
    if (axis.c[0].is_zero() && axis.c[1].is_zero() && axis.c[2].is_zero())
        throw ModelError(ctx + ": its direction is the zero vector; give a direction such as ez(B)");
    return axis / norm(axis);
}

// An element between two different points, each on a body or the ground.
ForceElement System::two_point(const std::string &name, ForceKind kind, const std::string &ctx, const char *what,
                               const std::string &p1, const std::string &p2, const std::string &body1,
                               const std::string &body2) const
{
    ForceElement f;
    f.name = name;
    f.kind = kind;
    f.p1 = points_.find(p1, ctx);
    f.p2 = points_.find(p2, ctx);
    if (f.p1 == f.p2)
        throw ModelError(ctx + ": both ends are point '" + p1 + "'; " + what + " needs two different points");
    f.body1 = body_or_none(body1, ctx);
    f.body2 = body_or_none(body2, ctx);
    return f;
}

void System::add_spring_damper(const std::string &name, const std::string &p1, const std::string &p2, Ex k, Ex c,
                               Ex L0, const std::string &body1, const std::string &body2, const AxialLaw &law,
                               const Vector &axis)
{
    std::string ctx = "spring-damper '" + name + "'";
    ForceElement f = two_point(name, ForceKind::SpringDamper, ctx, "a spring", p1, p2, body1, body2);
    if (!k.valid() || !c.valid() || !L0.valid()) throw ModelError(ctx + ": stiffness, damping and free length are required");
    f.k = k;
    f.c = c;
    f.L0 = L0;
    f.law = law;
    f.axis = unit_axis(axis, ctx);
    claim(name, "force");
    // A series branch's state: an input the runtime integrates (rs_model.h
    // z_slot), not set by the user; 0 = its spring unloaded.
    if (law.ks.valid()) {
        if (!law.cs.valid()) throw ModelError(ctx + ": a series stiffness needs its damper");
        f.law.z = st_->input(name + ".z");
    }
    forces_.push_back(f);
}

void System::add_plugin(const Plugin &info, const std::string &p1, const std::string &p2, const std::string &body1,
                        const std::string &body2, const Vector &axis)
{
    const std::string &name = info.name;
    std::string ctx = "plugin '" + name + "'";
    ForceElement f = two_point(name, ForceKind::Plugin, ctx, "a plugin force", p1, p2, body1, body2);
    f.axis = unit_axis(axis, ctx);
    claim(name, "force");
    static const char *slot[5] = {".f", ".dfdx", ".dfdv", ".x_eval", ".v_eval"};
    for (int i = 0; i < 5; ++i) f.plug[(size_t)i] = st_->input(name + slot[i]);
    forces_.push_back(f);
    plugins_.push_back(info);
    Ex x, v;
    axial_kinematics(*this, f, x, v);
    add_output(name + ".x", x);
    add_output(name + ".v", v);
}

void System::add_antiroll(const std::string &name, const std::array<std::string, 4> &points,
                          const std::array<std::string, 4> &bodies, Ex kt, Ex arm, const Vector &axis)
{
    std::string ctx = "anti-roll bar '" + name + "'";
    ForceElement f;
    f.name = name;
    f.kind = ForceKind::AntiRoll;
    int *p[4] = {&f.p1, &f.p2, &f.p3, &f.p4}, *b[4] = {&f.body1, &f.body2, &f.body3, &f.body4};
    for (int i = 0; i < 4; ++i) {
        *p[i] = points_.find(points[i], ctx);
        *b[i] = body_or_none(bodies[i], ctx);
    }
    if (!kt.valid() || !arm.valid() || !axis.valid())
        throw ModelError(ctx + ": the torsion stiffness, the arm length and the links' direction are required");
    if (arm.is_zero()) throw ModelError(ctx + ": the arm length is 0; give the arms' length (m)");
    f.k = kt;
    f.arm = arm;
    f.axis = unit_axis(axis, ctx);
    claim(name, "force");
    forces_.push_back(f);
}

void System::add_bushing(const std::string &name, const std::string &f1, const std::string &f2,
                         const std::array<Ex, 6> &k, const std::array<Ex, 6> &c, const std::string &body1,
                         const std::string &body2, bool large_rotation)
{
    std::string ctx = "bushing '" + name + "'";
    ForceElement f;
    f.name = name;
    f.kind = ForceKind::Bushing;
    const Frame &a = frame(f1, ctx), &b = frame(f2, ctx);
    if (f1 == f2) throw ModelError(ctx + ": both ends are frame '" + f1 + "'; a bushing needs two different frames");
    for (size_t i = 0; i < frames_.size(); ++i) {
        if (&frames_[i] == &a) f.f1 = (int)i;
        if (&frames_[i] == &b) f.f2 = (int)i;
    }
    for (int i = 0; i < 6; ++i)
        if (!k[i].valid() || !c[i].valid()) throw ModelError(ctx + ": 6 stiffness and 6 damping values are required");
    f.kb = k;
    f.cb = c;
    f.large_rotation = large_rotation;
    f.body1 = body_or_none(body1, ctx);
    f.body2 = body_or_none(body2, ctx);
    claim(name, "force");
    forces_.push_back(f);
}

void System::add_force(const std::string &name, const std::string &point, const Vector &F, const std::string &body,
                       const std::string &reaction_point, const std::string &reaction_body)
{
    std::string ctx = "force '" + name + "'";
    if (!F.valid() || F.bt != &bases_) throw ModelError(ctx + ": empty force vector");
    ForceElement f;
    f.name = name;
    f.kind = ForceKind::Force;
    f.vec = F;
    f.point = points_.find(point, ctx);
    f.body = body_or_none(body, ctx);
    if (!reaction_point.empty()) {
        f.reaction_point = points_.find(reaction_point, ctx + " (reaction)");
        if (f.reaction_point == f.point && f.body == body_or_none(reaction_body, ctx))
            throw ModelError(ctx + ": the force and its reaction act at the same point '" + point +
                             "' of the same body; they would cancel");
    }
    f.reaction_body = body_or_none(reaction_body, ctx);
    claim(name, "force");
    forces_.push_back(f);
}

void System::add_torque(const std::string &name, const std::string &on, const Vector &T,
                        const std::string &reaction_on)
{
    std::string ctx = "torque '" + name + "'";
    if (!T.valid() || T.bt != &bases_) throw ModelError(ctx + ": empty torque vector");
    ForceElement f;
    f.name = name;
    f.kind = ForceKind::Torque;
    f.vec = T;
    f.base = base_of(on, ctx);
    if (!reaction_on.empty()) {
        f.reaction_base = base_of(reaction_on, ctx + " (reaction)");
        if (f.reaction_base == f.base)
            throw ModelError(ctx + ": the torque and its reaction act on the same base; they would cancel");
    }
    claim(name, "force");
    forces_.push_back(f);
}

void System::add_constraint(const std::string &name, Ex phi)
{
    if (!phi.valid() || phi.store() != st_) throw ModelError("constraint '" + name + "': empty expression");
    if (phi.depends_on(SymKind::Vel) || phi.depends_on(SymKind::Acc) || phi.depends_on(SymKind::AuxVel) ||
        phi.depends_on(SymKind::AuxAcc))
        throw ModelError("constraint '" + name + "': φ must depend on q, s, t, parameters and inputs only "
                         "(velocity constraints are not supported)");
    claim(name, "constraint");
    constraints_.push_back(NamedEx{name, phi});
}

void System::add_output(const std::string &name, Ex value)
{
    if (!value.valid() || value.store() != st_) throw ModelError("output '" + name + "': empty expression");
    claim(name, "output");
    outputs_.push_back(NamedEx{name, value});
}

}  // namespace railsym
