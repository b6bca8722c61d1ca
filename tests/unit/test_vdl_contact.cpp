// test_vdl_contact.cpp — the .vdl `contact` statement and contact models
// through the compile pipeline:
//   * vehicles/examples/wheelset.vdl and wheelset_cone.vdl equal the C++
//     models::wheelset() (M, δ, φ, φ_q, γ, φ^d, ν, V, radii at random states
//     and random spline coefficients, symbols matched by name);
//   * the contact table's slots are the slots of the symbols it names, and
//     the files are resolved relative to the .vdl;
//   * the compiled folder (C code + descriptor) loads with libtcc and with
//     gcc (rs_load validates the descriptor), its contact table equals the
//     System's, and its generated phi_d and creep equal store.eval;
//   * errors of the statement, with exact messages.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "models.hpp"
#include "compile_c.hpp"
#include "system.hpp"
#include "vdl_compile.hpp"
#include "vdl_elaborate.hpp"

extern "C" {
#include "rs_load.h"
#include "rs_model.h"
#include "rs_test.h"
}

// check.h last: it defines a macro `fail` that clashes with C++ headers.
#include <check.h>

using namespace railsym;
namespace fs = std::filesystem;

namespace {

std::unique_ptr<System> load(const std::string &path) {
    auto sys = std::make_unique<System>();
    vdl::Sources src;
    vdl::Diagnostics d(src);
    bool ok = vdl::load_file(path, *sys, d);
    ck_assert_msg(ok, "%s does not load:\n%s", path.c_str(), d.format().c_str());
    return sys;
}

// Errors of a description written as if it were vehicles/examples/mem.vdl
// (so that "../profiles/..." resolves to the shipped files).
std::string errors_of(const std::string &text) {
    System sys;
    vdl::Sources src;
    vdl::Diagnostics d(src);
    vdl::load_text("vehicles/examples/mem.vdl", text, sys, d);
    return d.format();
}

// Random state (q, q̇, q̈, s, ṡ, s̈, t) and spline coefficients near their
// defaults (so the geometry stays a sensible wheel on a rail).
SymValues random_state(System &sys, std::mt19937 &rng) {
    SymValues x = models::random_state(sys, rng);
    std::uniform_real_distribution<double> u(-0.05, 0.05);
    for (int i = 0; i < sys.store().count(SymKind::Input); ++i)
        x.set(SymKind::Input, i, x.get(SymKind::Input, i) + u(rng));
    return x;
}

// x of `a` carried over to `b` by symbol name.
SymValues carry(System &a, const SymValues &x, System &b) {
    SymValues y = b.defaults();
    for (const SymInfo &s : a.store().symbols()) {
        ck_assert_msg(b.store().has_symbol(s.name), "symbol '%s' missing from the .vdl model", s.name.c_str());
        const SymInfo &t = b.store().sym(b.store().find_symbol(s.name).id());
        ck_assert_int_eq((int)t.kind, (int)s.kind);
        y.set(t.kind, t.slot, x.get(s.kind, s.slot));
    }
    return y;
}

void expect_close(const std::vector<double> &a, const std::vector<double> &b, const char *what, double rel = 1e-12) {
    ck_assert_uint_eq(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        ck_assert_msg(std::isfinite(a[i]), "%s[%zu] is not finite", what, i);
        ck_assert_msg(std::fabs(a[i] - b[i]) <= rel * (1.0 + std::fabs(a[i])), "%s[%zu]: %.17g vs %.17g", what, i,
                      a[i], b[i]);
    }
}

// The contact expressions of every contact, flattened: φ^d, ν, V, radii.
std::vector<Ex> contact_exprs(const System &sys) {
    std::vector<Ex> v;
    for (const ContactElement &c : sys.contacts()) {
        v.insert(v.end(), c.phi_d.begin(), c.phi_d.end());
        v.insert(v.end(), c.nu.begin(), c.nu.end());
        v.push_back(c.V);
        // R_y^w and R_y^r are ±inf on straight profiles: compare their reciprocals.
        v.push_back(c.radii[0]);
        v.push_back(1 / c.radii[1]);
        v.push_back(1 / c.radii[2]);
    }
    return v;
}

void same_wheelset(const char *path) {
    auto ref = models::wheelset();
    auto sys = load(path);
    ck_assert_uint_eq(ref->coords().size(), sys->coords().size());
    for (size_t i = 0; i < ref->coords().size(); ++i)
        ck_assert_str_eq(ref->store().sym(ref->coords()[i].id()).name.c_str(),
                         sys->store().sym(sys->coords()[i].id()).name.c_str());
    ck_assert_uint_eq(sys->contacts().size(), 2);
    ck_assert_str_eq(sys->contacts()[0].spec.name.c_str(), "left");
    ck_assert_int_eq(sys->contacts()[0].spec.side, 1);
    ck_assert_str_eq(sys->contacts()[1].spec.name.c_str(), "right");
    ck_assert_int_eq(sys->contacts()[1].spec.side, -1);
    ck_assert_uint_eq(ref->store().count(SymKind::Input), sys->store().count(SymKind::Input));
    ck_assert_uint_eq(ref->store().count(SymKind::Aux), sys->store().count(SymKind::Aux));
    std::mt19937 rng(2027);
    for (int k = 0; k < 10; ++k) {
        SymValues x = random_state(*ref, rng);
        SymValues y = carry(*ref, x, *sys);
        const Store &a = ref->store(), &b = sys->store();
        expect_close(a.eval(ref->mass_matrix(), x), b.eval(sys->mass_matrix(), y), "M");
        expect_close(a.eval(ref->delta(), x), b.eval(sys->delta(), y), "delta");
        expect_close(a.eval(ref->phi(), x), b.eval(sys->phi(), y), "phi");
        expect_close(a.eval(ref->phi_q(), x), b.eval(sys->phi_q(), y), "phi_q");
        expect_close(a.eval(ref->gamma(), x), b.eval(sys->gamma(), y), "gamma");
        expect_close(a.eval(contact_exprs(*ref), x), b.eval(contact_exprs(*sys), y), "contact");
    }
}

std::string tmpdir() {
    char t[] = "/tmp/test_vdl_contact_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(t));
    return t;
}

}  // namespace

START_TEST(wheelset_matches_cpp) { same_wheelset("vehicles/examples/wheelset.vdl"); }
END_TEST

START_TEST(wheelset_cone_matches_cpp) { same_wheelset("vehicles/examples/wheelset_cone.vdl"); }
END_TEST

// Every slot of the table is the slot of the symbol of that name; the files
// are the shipped ones, resolved from the .vdl's folder.
START_TEST(contact_table_slots_are_the_symbols) {
    auto sys = load("vehicles/examples/wheelset.vdl");
    const Store &st = sys->store();
    auto slot = [&](const std::string &n, SymKind k) {
        ck_assert_msg(st.has_symbol(n), "no symbol '%s'", n.c_str());
        const SymInfo &s = st.sym(st.find_symbol(n).id());
        ck_assert_int_eq((int)s.kind, (int)k);
        return s.slot;
    };
    std::vector<ContactTableEntry> table = sys->contact_table();
    ck_assert_uint_eq(table.size(), 2);
    const char *aux[4] = {"theta_w", "u_w", "s_r", "u_r"};
    const char *coef[5] = {"a", "b", "c", "d", "u_bp"};
    const char *role[6] = {"wheel", "rail", "track_x", "track_y", "track_z", "cant"};
    const int selector[6] = {1, 3, 2, 2, 2, 2};   // u_w, u_r, s_r ×4
    const char *file[6] = {"vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf",
                           "vehicles/tracks/straight.trk", "vehicles/tracks/straight.trk",
                           "vehicles/tracks/straight.trk", "vehicles/tracks/straight.trk"};
    for (size_t i = 0; i < table.size(); ++i) {
        const ContactTableEntry &c = table[i];
        ck_assert_str_eq(c.wheel_body.c_str(), "wheelset");
        ck_assert_int_eq(c.phi_row, (int)i);
        // Named locals: ck_assert_str_eq keeps the pointers beyond the full expression.
        const std::string phi_name = sys->constraints()[c.phi_row].name, want_phi = c.name + ".phi_n";
        ck_assert_str_eq(phi_name.c_str(), want_phi.c_str());
        for (int k = 0; k < 4; ++k) ck_assert_int_eq(c.s_slot[k], slot(c.name + "." + aux[k], SymKind::Aux));
        for (int sp = 0; sp < 6; ++sp) {
            ck_assert_str_eq(c.spline[sp].role.c_str(), role[sp]);
            ck_assert_str_eq(c.spline[sp].file.c_str(), file[sp]);
            ck_assert_int_eq(c.spline[sp].s_slot, c.s_slot[selector[sp]]);
            for (int k = 0; k < 5; ++k)
                ck_assert_int_eq(c.spline[sp].u_slot[k], slot(c.name + "." + role[sp] + "." + coef[k], SymKind::Input));
        }
        const char *f[3] = {"fx", "fy", "mz"};
        for (int k = 0; k < 3; ++k) ck_assert_int_eq(c.force_slot[k], slot(c.name + "." + f[k], SymKind::Input));
    }
}
END_TEST

// The compiled folder loads (gcc and libtcc; rs_load validates the
// descriptor), carries the System's contact table, and its phi_d and creep
// give what the store evaluates.
START_TEST(compiled_descriptor_loads_and_agrees) {
    const char *path = "vehicles/examples/wheelset_cone.vdl";
    vdl::CompiledModel cm;
    std::string errors;
    ck_assert_msg(vdl::compile_model(path, cm, errors), "%s", errors.c_str());
    const std::string dir = tmpdir() + "/wheelset_cone";
    ck_assert_msg(vdl::write_folder(dir, cm.files, errors), "%s", errors.c_str());
    auto sys = load(path);
    std::vector<ContactTableEntry> table = sys->contact_table();
    const std::string inc = testsupport::abi_include_dir();
    for (rs_loader kind : {RS_LOAD_TCC, RS_LOAD_DLOPEN}) {
        rs_load_options lo;
        rs_load_options_default(&lo);
        lo.include_dir = inc.c_str();
        if (kind == RS_LOAD_DLOPEN) lo.cflags = "-std=c99 -O1 -fPIC -Wall -Wextra -Werror";
        char err[4096];
        rs_loaded *h = rs_load_ex(dir.c_str(), kind, &lo, err, sizeof err);
        ck_assert_msg(h != nullptr, "%s", err);
        const rs_model *m = rs_loaded_model(h);
        ck_assert_int_eq(m->n_contact, 2);
        ck_assert_int_eq(m->n_s, 8);
        for (int i = 0; i < 2; ++i) {
            const rs_contact &c = m->contacts[i];
            const ContactTableEntry &t = table[i];
            ck_assert_str_eq(c.name, t.name.c_str());
            ck_assert_str_eq(c.wheel_body, t.wheel_body.c_str());
            ck_assert_int_eq(c.side, t.side);
            ck_assert_int_eq(c.phi_row, t.phi_row);
            for (int k = 0; k < 4; ++k) ck_assert_int_eq(c.s_slot[k], t.s_slot[k]);
            for (int k = 0; k < 3; ++k) ck_assert_int_eq(c.force_slot[k], t.force_slot[k]);
            for (int sp = 0; sp < RS_SPLINE_COUNT; ++sp) {
                ck_assert_str_eq(c.spline[sp].file, t.spline[sp].file.c_str());
                ck_assert_int_eq(c.spline[sp].s_slot, t.spline[sp].s_slot);
                for (int k = 0; k < 5; ++k) ck_assert_int_eq(c.spline[sp].u_slot[k], t.spline[sp].u_slot[k]);
            }
        }
        ck_assert_int_eq(m->fn[RS_FN_CREEP].n_out, 5);
        ck_assert_int_eq(m->fn[RS_FN_PHI_D_S].out_len[0], 32);
        ck_assert_int_eq(m->phi_d_q_pattern.nrow, 8);

        // Evaluate phi_d, creep (ν, V) and delta_nk at a random state.
        std::mt19937 rng(99);
        SymValues x = random_state(*sys, rng);
        const Store &st = sys->store();
        auto arr = [&](SymKind k) {
            std::vector<double> v(std::max(1, st.count(k)));
            for (int i = 0; i < st.count(k); ++i) v[i] = x.get(k, i);
            return v;
        };
        std::vector<double> t = {x.get(SymKind::Time, 0)}, q = arr(SymKind::Coord), qd = arr(SymKind::Vel),
                            qdd = arr(SymKind::Acc), s = arr(SymKind::Aux), sd = arr(SymKind::AuxVel),
                            sdd = arr(SymKind::AuxAcc), p = arr(SymKind::Param), u = arr(SymKind::Input);
        std::vector<double> kc(std::max(1, m->n_const));
        const double *in[RS_IN_COUNT] = {0};
        in[RS_IN_T] = t.data(), in[RS_IN_Q] = q.data(), in[RS_IN_QD] = qd.data(), in[RS_IN_QDD] = qdd.data();
        in[RS_IN_S] = s.data(), in[RS_IN_SD] = sd.data(), in[RS_IN_SDD] = sdd.data(), in[RS_IN_P] = p.data();
        in[RS_IN_U] = u.data(), in[RS_IN_CONST] = kc.data();
        double *ko[1] = {kc.data()};
        ck_assert_int_eq(m->fn[RS_FN_CONSTANTS].fn(in, ko), 0);
        std::vector<double> phid(8), nu(6), V(2), radii(6), ddf(m->ddelta_df_pattern.colptr[6]),
            dnu(m->dnu_dqd_pattern.colptr[6]), dnk(6);
        double *o1[1] = {phid.data()};
        ck_assert_int_eq(m->fn[RS_FN_PHI_D].fn(in, o1), 0);
        double *o5[5] = {nu.data(), V.data(), radii.data(), ddf.data(), dnu.data()};
        ck_assert_int_eq(m->fn[RS_FN_CREEP].fn(in, o5), 0);
        double *o2[1] = {dnk.data()};
        ck_assert_int_eq(m->fn[RS_FN_DELTA_NK].fn(in, o2), 0);
        std::vector<Ex> e_phid, e_nu, e_V;
        for (const ContactElement &c : sys->contacts()) {
            e_phid.insert(e_phid.end(), c.phi_d.begin(), c.phi_d.end());
            e_nu.insert(e_nu.end(), c.nu.begin(), c.nu.end());
            e_V.push_back(c.V);
        }
        expect_close(st.eval(e_phid, x), phid, "phi_d", 1e-10);
        expect_close(st.eval(e_nu, x), nu, "nu", 1e-10);
        expect_close(st.eval(e_V, x), V, "V", 1e-10);
        expect_close(st.eval(sys->delta_nk(), x), dnk, "delta_nk", 1e-10);
        rs_unload(&h);
    }
    fs::remove_all(fs::path(dir).parent_path());
}
END_TEST

// ---------------------------------------------------------------- errors

namespace {
const char *const kHead =
    "param r0 = 0.45, b0 = 0.75, b_r = 0.75\n"
    "coord y, spin\n"
    "base B_nsw = rotate(ground, x, 0*y)\n"
    "base B_ws = rotate(B_nsw, y, spin)\n"
    "point O_ws = O + [0, y, r0] in ground\n"
    "body ws mass 1000 cg O_ws inertia diag(1, 2, 1) in B_nsw frame B_ws\n"
    "point W_left = O_ws + [0, b0, 0] in B_nsw\n";
const char *const kFiles =
    " profile \"../profiles/cone_1in40.prf\" rail \"../profiles/arc_r300.prf\" track \"../tracks/straight.trk\"";
}  // namespace

// Without `side`, the side comes from where the wheel centre lies; an
// offset point is accepted as the centre.
START_TEST(side_inferred) {
    auto sys = std::make_unique<System>();
    vdl::Sources src;
    vdl::Diagnostics d(src);
    std::string text = std::string(kHead) + "contact l wheel ws at W_left in B_nsw radius r0 offset b_r" + kFiles +
                       "\ncontact r wheel ws at (O_ws + [0, -b0, 0] in B_nsw) in B_nsw radius r0 offset b_r" + kFiles + "\n";
    ck_assert_msg(vdl::load_text("vehicles/examples/mem.vdl", text, *sys, d), "%s", d.format().c_str());
    ck_assert_int_eq(sys->contacts()[0].spec.side, 1);
    ck_assert_int_eq(sys->contacts()[1].spec.side, -1);
    ck_assert_str_eq(sys->contacts()[1].spec.wheel_centre.c_str(), "r/centre");
}
END_TEST

START_TEST(contact_errors) {
    struct Case {
        const char *stmt, *want;
    } cases[] = {
        {"contact left wheel ws at W_left in B_nsw side up radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:47: error: the side of contact 'left' is 'left' or 'right', found 'up'\n"},
        {"contact left wheel wss at W_left in B_nsw side left radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:20: error: unknown name 'wss'; did you mean 'ws'?\n"},
        {"contact left wheel ws at W_lft in B_nsw side left radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:26: error: unknown name 'W_lft'; did you mean 'W_left'?\n"},
        {"contact left wheel ws at W_left in B_nswx side left radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:36: error: unknown name 'B_nswx'; did you mean 'B_nsw'?\n"},
        {"contact left wheel ws at W_left side left radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:26: error: expected the wheel centre in the non-spinning wheelset base: "
         "POINT in BASE, found a point 'W_left'\n"},
        {"contact left wheel ws at W_left in B_nsw side left offset b_r",
         "vehicles/examples/mem.vdl:8:9: error: contact 'left' needs 'radius ...'\n"},
        {"contact left wheel ws at W_left in B_nsw side left radius r0",
         "vehicles/examples/mem.vdl:8:9: error: contact 'left' needs 'offset ...'\n"},
        {"contact left wheel ws at W_left in B_nsw sde left radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:42: error: unexpected 'sde' in 'contact left'; did you mean 'side'?\n"},
        {"contact left wheel ws at O_ws in B_nsw radius r0 offset b_r",
         "vehicles/examples/mem.vdl:8:9: error: contact on 'ws' at 'O_ws': the wheel centre is not beside the centre "
         "of mass along the axle (lateral offset 0.000000 m), so the side of the wheel is unknown; give the side "
         "explicitly\n"},
    };
    for (const Case &c : cases) {
        std::string got = errors_of(std::string(kHead) + c.stmt + kFiles + "\n");
        // first line only (the quoted source line and caret follow)
        got = got.substr(0, got.find('\n') + 1);
        ck_assert_str_eq(got.c_str(), c.want);
    }
    // Files: missing, not in quotes, missing clause.
    std::string pre = std::string(kHead) + "contact left wheel ws at W_left in B_nsw side left radius r0 offset b_r";
    std::string got = errors_of(pre + " profile \"../profiles/s1003.prf\" rail \"../profiles/arc_r300.prf\" track "
                                      "\"../tracks/straight.trk\"\n");
    got = got.substr(0, got.find('\n') + 1);
    ck_assert_str_eq(got.c_str(),
                     "vehicles/examples/mem.vdl:8:81: error: cannot find the wheel profile '../profiles/s1003.prf' "
                     "(looked for 'vehicles/profiles/s1003.prf')\n");
    got = errors_of(pre + " profile s1002 rail \"../profiles/arc_r300.prf\" track \"../tracks/straight.trk\"\n");
    got = got.substr(0, got.find('\n') + 1);
    ck_assert_str_eq(got.c_str(),
                     "vehicles/examples/mem.vdl:8:81: error: the wheel profile is a file name in quotes: profile "
                     "\"FILE\", found 's1002'\n");
    got = errors_of(pre + " profile \"../profiles/cone_1in40.prf\" track \"../tracks/straight.trk\"\n");
    got = got.substr(0, got.find('\n') + 1);
    ck_assert_str_eq(got.c_str(),
                     "vehicles/examples/mem.vdl:8:9: error: contact 'left' needs 'rail ...'\n");
    got = errors_of(pre + " profile \"../profiles/cone_1in40.prf\" rail \"../profiles/arc_r300.prf\" track "
                          "\"../tracks\"\n");
    got = got.substr(0, got.find('\n') + 1);
    ck_assert_str_eq(got.c_str(),
                     "vehicles/examples/mem.vdl:8:148: error: cannot find the track '../tracks' (looked for "
                     "'vehicles/tracks')\n");
    // Two contacts of one name.
    got = errors_of(pre + kFiles + "\n" + "contact left wheel ws at W_left in B_nsw side left radius r0 offset b_r" +
                    kFiles + "\n");
    got = got.substr(0, got.find('\n') + 1);
    ck_assert_str_eq(got.c_str(),
                     "vehicles/examples/mem.vdl:9:9: error: 'left' is already defined\n");
}
END_TEST

static Suite *suite() {
    Suite *s = suite_create("vdl_contact");
    TCase *tc = tcase_create("wheelset");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, wheelset_matches_cpp);
    tcase_add_test(tc, wheelset_cone_matches_cpp);
    tcase_add_test(tc, contact_table_slots_are_the_symbols);
    tcase_add_test(tc, compiled_descriptor_loads_and_agrees);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, side_inferred);
    tcase_add_test(tc, contact_errors);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
