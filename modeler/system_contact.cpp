// system_contact.cpp — System methods of the wheel-rail contact element:
// adding contacts, the contact table, δ^NK and the contact functions.
//
// Function names and output order are a contract with the runtime
// (docs/contact_element.md); contact i always owns rows/columns
// [k·i, k·i + k) of an output with k entries per contact.
#include <cmath>

#include "codegen.hpp"
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

std::vector<codegen::Function> System::contact_functions()
{
    using codegen::Function;
    using codegen::Output;
    std::vector<Function> fns;
    const int nc = (int)contacts_.size();
    if (nc == 0) return fns;
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

    std::vector<Ex> phin, phin_q, gamn, betn, phid, phid_q, phid_s, betd, nu, V, radii, dnu;
    std::vector<Ex> ddf((size_t)n * 3 * nc, st.zero());   // n × 3nc, row-major
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

    fns.push_back(Function{"delta_nk", {Output::vector("delta_nk", delta_nk())},
                           "delta with the creep force inputs (fx, fy, mz of every contact) set to zero"});
    fns.push_back(Function{"phi_n", {Output::vector("phi_n", phin)},
                           "normal contact constraints n_r . r(Pr->Pw), one per contact (a gap)"});
    fns.push_back(Function{"phi_n_qd", {Output::sparse("phi_n_qd", nc, n, phin_q)},
                           "d(phi_n)/dq = d(phi_n')/dq', contacts x coordinates"});
    fns.push_back(Function{"gamma_n", {Output::vector("gamma_n", gamn)},
                           "acceleration RHS of phi_n: phi_n_q q'' + phi_n_s s'' = gamma_n"});
    fns.push_back(Function{"beta_n", {Output::vector("beta_n", betn)},
                           "velocity RHS of phi_n: phi_n_q q' + phi_n_s s' = beta_n"});
    fns.push_back(Function{"phi_d", {Output::vector("phi_d", phid)},
                           "tangential contact constraints, 4 per contact: tx_r.r, ty_r.r, tx_w.n_r, ty_w.n_r"});
    fns.push_back(Function{"phi_d_q", {Output::sparse("phi_d_q", 4 * nc, n, phid_q)},
                           "d(phi_d)/dq, 4 rows per contact"});
    fns.push_back(Function{"phi_d_s", {Output::dense("phi_d_s", 4 * nc, 4, phid_s)},
                           "d(phi_d)/ds: the 4x4 diagonal block of each contact, stacked;\n"
                           "columns theta_w, u_w, s_r, u_r of that contact"});
    fns.push_back(Function{"beta_d", {Output::vector("beta_d", betd)},
                           "velocity RHS of phi_d: phi_d_q q' + phi_d_s s' = beta_d"});
    fns.push_back(Function{"nu", {Output::vector("nu", nu)},
                           "creepage numerators, 3 per contact: v(Pw).tx_r, v(Pw).ty_r, omega.n_r"});
    fns.push_back(Function{"V", {Output::vector("V", V)},
                           "reference speed per contact: (|v(Ow)| + |omega x r(Ow->Pw)|)/2"});
    fns.push_back(Function{"radii", {Output::vector("radii", radii)},
                           "signed curvature radii, 3 per contact: wheel rolling Rx_w, wheel lateral Ry_w,\n"
                           "rail lateral Ry_r (positive convex; a straight profile gives +-inf)"});
    fns.push_back(Function{"ddelta_df", {Output::sparse("ddelta_df", n, 3 * nc, ddf)},
                           "d(delta)/d(fx, fy, mz): coordinates x 3 columns per contact"});
    fns.push_back(Function{"dnu_dqd", {Output::sparse("dnu_dqd", 3 * nc, n, dnu)},
                           "d(nu)/dq': 3 rows per contact x coordinates"});
    Function creep{"creep", {}, "nu, V, radii, ddelta_df, dnu_dqd in one call (atoms shared)"};
    creep.outputs.push_back(Output::vector("nu", nu));
    creep.outputs.push_back(Output::vector("V", V));
    creep.outputs.push_back(Output::vector("radii", radii));
    creep.outputs.push_back(Output::sparse("ddelta_df", n, 3 * nc, ddf));
    creep.outputs.push_back(Output::sparse("dnu_dqd", 3 * nc, n, dnu));
    fns.push_back(creep);
    return fns;
}

}  // namespace railsym
