// system_contact.cpp — System methods of the wheel-rail contact element:
// adding contacts, the contact table, δ^NK and the contact equations
// (codegen/model_functions.cpp packs them into the generated functions).
//
// Contact i always owns rows/columns [k·i, k·i + k) of a quantity with k
// entries per contact (docs/contact_element.md).
#include <cmath>

#include "system.hpp"

namespace railsym {

int System::add_contact(const ContactSpec &spec)
{
    const std::string &nm = spec.name;
    if (nm.empty()) throw ModelError("contact: the name is empty");
    const std::string ctx = "contact '" + nm + "'";
    if (spec.side != 1 && spec.side != -1)
        throw ModelError(ctx + ": side must be +1 (left wheel) or -1 (right wheel), not " +
                         std::to_string(spec.side));
    if (!spec.r0.valid() || spec.r0.store() != st_)
        throw ModelError(ctx + ": no nominal rolling radius r0 given");
    if (!spec.rail_offset.valid() || spec.rail_offset.store() != st_)
        throw ModelError(ctx + ": no rail offset (lateral distance of the rail profile origin from the "
                               "track centre line) given");
    if (spec.r0.is_number() && !(st_->number_value(spec.r0.id()) > 0))
        throw ModelError(ctx + ": the rolling radius r0 = " + spec.r0.str() + " is not positive");
    for (double v : spec.s0)
        if (!std::isfinite(v)) throw ModelError(ctx + ": an initial contact coordinate is not finite");
    // Check every reference before anything is created, so that a failed
    // definition leaves no element behind (symbols stay in the store).
    body(spec.wheel_body, ctx + " (wheel body)");
    point(spec.wheel_centre, ctx + " (wheel centre)");
    base(spec.wheel_base, ctx + " (non-spinning wheel base)");
    for (const char *suffix : {".Pw", ".Pr", ".creep_force", ".creep_torque", ".phi_n"}) {
        std::string k = kind_of(nm + suffix);
        if (!k.empty())
            throw ModelError(ctx + ": the name '" + nm + suffix + "' it needs is already used by a " + k +
                             "; choose another contact name");
    }
    for (int k = 0; k < 4; ++k) {
        std::string s = nm + "." + contact_aux_name(k);
        if (st_->has_symbol(s))
            throw ModelError(ctx + ": the symbol '" + s + "' it needs already exists; choose another contact name");
    }
    claim(nm, "contact");
    contacts_.push_back(build_contact(*this, spec));
    changed();
    return (int)contacts_.size() - 1;
}

std::vector<ContactTableEntry> System::contact_table() const
{
    std::vector<ContactTableEntry> out;
    auto slot = [&](const Ex &e) { return st_->sym(e.id()).slot; };
    for (const ContactElement &c : contacts_) {
        ContactTableEntry t;
        t.name = c.spec.name;
        t.wheel_body = c.spec.wheel_body;
        t.side = c.spec.side;
        for (int k = 0; k < 4; ++k) t.s_slot[k] = slot(c.s[k]);
        for (int sp = 0; sp < kContactSplines; ++sp) {
            ContactTableEntry::Spline &s = t.spline[sp];
            s.role = contact_spline_name(sp);
            s.file = sp == kSplineWheel ? c.spec.wheel_profile
                     : sp == kSplineRail ? c.spec.rail_profile
                                         : c.spec.track;
            for (int k = 0; k < 5; ++k) s.u_slot[k] = slot(c.coef[sp][k]);
            s.s_slot = slot(c.s[contact_spline_aux(sp)]);
        }
        for (int k = 0; k < 3; ++k) t.force_slot[k] = slot(c.force[k]);
        t.phi_row = c.constraint;
        t.elastic = c.spec.elastic;
        out.push_back(t);
    }
    return out;
}

std::vector<Ex> System::delta_nk()
{
    Substitution zero_f(*st_);
    for (const ContactElement &c : contacts_)
        for (const Ex &f : c.force) zero_f.set(f, st_->zero());
    std::vector<Ex> out;
    for (const Ex &d : delta()) out.push_back(zero_f.apply(d));
    return out;
}

ContactEquations System::contact_equations()
{
    ContactEquations e;
    const int nc = (int)contacts_.size();
    e.n_contacts = nc;
    e.n_coords = (int)coords().size();
    if (nc == 0) return e;
    Store &st = *st_;
    const std::vector<Ex> qs = coords();
    const int n = (int)qs.size();
    std::vector<Ex> qds;
    for (const Ex &q : qs) qds.push_back(st.dot(q));

    // Velocity and acceleration right-hand sides of a constraint (as System::beta/gamma).
    Substitution zero_vel(st), zero_acc(st);
    for (const Ex &q : qs) {
        zero_vel.set(st.dot(q), st.zero());
        zero_acc.set(st.dot(st.dot(q)), st.zero());
    }
    for (const Ex &s : auxs()) {
        zero_vel.set(st.dot(s), st.zero());
        zero_acc.set(st.dot(st.dot(s)), st.zero());
    }

    std::vector<Ex> &phin = e.phi_n, &phin_q = e.phi_n_q, &gamn = e.gamma_n, &betn = e.beta_n,
                    &phid = e.phi_d, &phid_q = e.phi_d_q, &phid_s = e.phi_d_s, &betd = e.beta_d,
                    &nu = e.nu, &V = e.V, &radii = e.radii, &dnu = e.dnu_dqd, &ddf = e.ddelta_df;
    ddf.assign((size_t)n * 3 * nc, st.zero());   // n × 3nc, row-major
    const std::vector<Ex> &d = delta();
    for (int i = 0; i < nc; ++i) {
        const ContactElement &c = contacts_[i];
        phin.push_back(c.phi_n);
        for (const Ex &q : qs) phin_q.push_back(st.diff(c.phi_n, q));
        gamn.push_back(-zero_acc.apply(st.dt(st.dt(c.phi_n))));
        betn.push_back(-zero_vel.apply(st.dt(c.phi_n)));
        for (int r = 0; r < 4; ++r) {
            const Ex &p = c.phi_d[r];
            phid.push_back(p);
            for (const Ex &q : qs) phid_q.push_back(st.diff(p, q));
            for (int k = 0; k < 4; ++k) phid_s.push_back(st.diff(p, c.s[k]));
            betd.push_back(-zero_vel.apply(st.dt(p)));
        }
        for (int k = 0; k < 3; ++k) {
            nu.push_back(c.nu[k]);
            radii.push_back(c.radii[k]);
            for (const Ex &qd : qds) dnu.push_back(st.diff(c.nu[k], qd));
            for (int j = 0; j < n; ++j) ddf[(size_t)j * 3 * nc + 3 * i + k] = st.diff(d[j], c.force[k]);
        }
        V.push_back(c.V);
    }

    e.delta_nk = delta_nk();
    return e;
}

WheelEquations System::wheel_equations()
{
    WheelEquations w;
    Store &st = *st_;
    std::vector<Ex> qds;
    for (const Ex &q : coords()) qds.push_back(st.dot(q));
    for (const ContactElement &c : contacts_) {
        for (int k = 0; k < 3; ++k) w.pose.push_back(c.wheel_o[k]);
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k) w.pose.push_back(c.wheel_R[r][k]);
        for (int k = 0; k < 3; ++k) w.vel.push_back(c.wheel_v[k]);
        for (int k = 0; k < 3; ++k) w.vel.push_back(c.wheel_w[k]);
        w.geom.push_back(c.spec.r0);
        w.geom.push_back(c.spec.rail_offset);
    }
    for (const Ex &v : w.vel)
        for (const Ex &qd : qds) w.jac.push_back(st.diff(v, qd));
    return w;
}

}  // namespace railsym
