// power.cpp — see power.hpp.
#include "power.hpp"

#include <set>

namespace railsym {

namespace {

// One load set per power term.
struct Loads {
    std::vector<PointLoad> pl;
    std::vector<BaseLoad> bl;
};

Vector substituted(Substitution &s, const Vector &v)
{
    return Vector(*v.bt, v.base, V3{s.apply(v.c[0]), s.apply(v.c[1]), s.apply(v.c[2])});
}

// Q(loads)·q̇: the loads' power, through the same sums as δ.
Ex power_of(System &sys, const Loads &l)
{
    Store &st = sys.store();
    const std::vector<Ex> Q = sys.generalized_forces(l.pl, l.bl);
    const std::vector<Ex> qs = sys.coords();
    Ex P = st.zero();
    for (size_t j = 0; j < qs.size(); ++j) P = P + Q[j] * st.dot(qs[j]);
    return P;
}

}  // namespace

std::vector<Ex> power_terms(System &sys)
{
    Store &st = sys.store();
    // Inputs a contact owns (spline coefficients, creep forces) are no user
    // input; the creep elements are accounted for by f·ν.
    std::set<int> contact_inputs;
    std::set<std::string> creep_elements;
    for (const ContactElement &c : sys.contacts()) {
        for (const auto &sp : c.coef)
            for (const Ex &e : sp) contact_inputs.insert(e.id());
        for (const Ex &e : c.force) contact_inputs.insert(e.id());
        creep_elements.insert(c.spec.name + ".creep_force");
        creep_elements.insert(c.spec.name + ".creep_torque");
    }
    // The series branches' states z are no user input either: a state with
    // its own rate (forces.hpp NodeRate).
    const std::vector<NodeRate> nodes = node_rates(sys);
    for (const NodeRate &n : nodes) contact_inputs.insert(n.z.id());
    Substitution no_u(st), no_u_v(st);
    for (const Ex &u : st.symbols_of(SymKind::Input))
        if (!contact_inputs.count(u.id())) {
            no_u.set(u, st.zero());
            no_u_v.set(u, st.zero());
        }
    for (const Ex &q : sys.coords()) no_u_v.set(st.dot(q), st.zero());
    for (const Ex &s : sys.auxs()) no_u_v.set(st.dot(s), st.zero());

    Loads in, damp, other;
    Ex dV = st.zero();   // Σ dV_e/dt of the elements with a potential
    for (const ForceElement &f : sys.forces()) {
        if (creep_elements.count(f.name)) continue;
        std::vector<PointLoad> pl;
        std::vector<BaseLoad> bl;
        force_loads(sys, f, pl, bl);
        // Gravity, springs and bushings have a potential V_e in V; their
        // position part's power is −dV_e/dt only where V_e is its exact
        // potential (not for a small-angle bushing's rotation beyond small
        // angles, or an anisotropic bushing whose first frame turns), so `other` gets
        // Q(F_k)·q̇ + dV_e/dt: what V misses, zero where it is exact.
        if (force_has_potential(f))
            dV = dV + st.dt(no_u.apply(force_potential(sys, f)));
        for (const PointLoad &l : pl) {
            Vector F0 = substituted(no_u, l.F), Fk = substituted(no_u_v, l.F);
            in.pl.push_back(PointLoad{l.point, l.body, l.F - F0});
            damp.pl.push_back(PointLoad{l.point, l.body, F0 - Fk});
            other.pl.push_back(PointLoad{l.point, l.body, Fk});
        }
        for (const BaseLoad &l : bl) {
            Vector T0 = substituted(no_u, l.T), Tk = substituted(no_u_v, l.T);
            in.bl.push_back(BaseLoad{l.base, l.T - T0});
            damp.bl.push_back(BaseLoad{l.base, T0 - Tk});
            other.bl.push_back(BaseLoad{l.base, Tk});
        }
    }
    std::vector<Ex> P(kPowerTerms, st.zero());
    P[kPowerInputs] = power_of(sys, in);
    P[kPowerDamping] = -power_of(sys, damp);
    Ex creep = st.zero();
    for (const ContactElement &c : sys.contacts())
        for (int k = 0; k < 3; ++k) creep = creep + c.force[k] * c.nu[k];
    P[kPowerCreep] = -creep;
    // A series branch: its load ks z has the power −ks z ḋ (in `other`);
    // its spring's energy ½ ks z² changes at ks z ż (dV above took the
    // input z's rate as 0), and ks z (ḋ − ż) = cs (ḋ − ż)² is what the
    // series damper dissipates (damping).  So other gets
    // ks z ż + ks z (ḋ − ż) = ks z ḋ, and stays 0 in sum.
    for (const NodeRate &n : nodes) {
        P[kPowerDamping] = P[kPowerDamping] + n.dissipation;
        dV = dV + n.force * n.rate;
    }
    P[kPowerOther] = power_of(sys, other) + dV;
    return P;
}

}  // namespace railsym
