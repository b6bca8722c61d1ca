// test_vdl.cpp — the .vdl language against an independent second path:
// every example is checked against the same model built with the C++ API
// (tests/support/models.hpp), by value of M, δ (and φ, φ_q, γ) at random
// states; template expansion is checked against hand-written models; the
// compile pipeline against the committed generated/ folders.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "models.hpp"
#include "system.hpp"
#include "vdl_compile.hpp"
#include "cli.hpp"
#include "vdl_elaborate.hpp"
#include "vdl_units.hpp"
#include "rs_test.h"

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
    if (!ok) std::fprintf(stderr, "%s", d.format().c_str());
    ck_assert_msg(ok, "%s does not load", path.c_str());
    return sys;
}

std::unique_ptr<System> load_str(const std::string &text, std::string *errors = nullptr) {
    auto sys = std::make_unique<System>();
    vdl::Sources src;
    vdl::Diagnostics d(src);
    bool ok = vdl::load_text("mem.vdl", text, *sys, d);
    if (errors) *errors = d.format();
    if (!ok) {
        if (!errors) std::fprintf(stderr, "%s", d.format().c_str());
        return nullptr;
    }
    return sys;
}

// The state `x` of system `a` carried over to system `b` by symbol name,
// after renaming with `rename` (for hand-written twins of template models).
SymValues carry(System &a, const SymValues &x, System &b, std::string (*rename)(const std::string &) = nullptr) {
    SymValues y = b.defaults();
    for (const SymInfo &s : a.store().symbols()) {
        std::string n = rename ? rename(s.name) : s.name;
        ck_assert_msg(b.store().has_symbol(n), "symbol '%s' missing from the second model", n.c_str());
        const SymInfo &t = b.store().sym(b.store().find_symbol(n).id());
        ck_assert_int_eq((int)t.kind, (int)s.kind);
        y.set(t.kind, t.slot, x.get(s.kind, s.slot));
    }
    return y;
}

void expect_close(const std::vector<double> &a, const std::vector<double> &b, const char *what) {
    ck_assert_uint_eq(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        double tol = 1e-12 * (1.0 + std::fabs(a[i]));
        ck_assert_msg(std::fabs(a[i] - b[i]) <= tol, "%s[%zu]: %.17g vs %.17g", what, i, a[i], b[i]);
    }
}

// M, δ and (when there are constraints) φ, φ_q, γ of `ref` and `sys` agree
// at random states.  Coordinates must be in the same order in both.
void same_model(System &ref, System &sys, std::string (*rename)(const std::string &) = nullptr, int trials = 20) {
    ck_assert_uint_eq(ref.coords().size(), sys.coords().size());
    ck_assert_uint_eq(ref.constraints().size(), sys.constraints().size());
    for (size_t i = 0; i < ref.coords().size(); ++i) {
        std::string n = ref.store().sym(ref.coords()[i].id()).name;
        if (rename) n = rename(n);
        ck_assert_str_eq(n.c_str(), sys.store().sym(sys.coords()[i].id()).name.c_str());
    }
    std::mt19937 rng(12345);
    for (int k = 0; k < trials; ++k) {
        SymValues x = models::random_state(ref, rng);
        SymValues y = carry(ref, x, sys, rename);
        expect_close(ref.store().eval(ref.mass_matrix(), x), sys.store().eval(sys.mass_matrix(), y), "M");
        expect_close(ref.store().eval(ref.delta(), x), sys.store().eval(sys.delta(), y), "delta");
        if (!ref.constraints().empty()) {
            expect_close(ref.store().eval(ref.phi(), x), sys.store().eval(sys.phi(), y), "phi");
            expect_close(ref.store().eval(ref.phi_q(), x), sys.store().eval(sys.phi_q(), y), "phi_q");
            expect_close(ref.store().eval(ref.gamma(), x), sys.store().eval(sys.gamma(), y), "gamma");
        }
        SymValues d = sys.defaults();
        (void)d;
    }
    // Default values agree too.
    SymValues xd = ref.defaults();
    SymValues yd = sys.defaults();
    for (const SymInfo &s : ref.store().symbols()) {
        if (s.kind != SymKind::Param && s.kind != SymKind::Coord) continue;
        std::string n = rename ? rename(s.name) : s.name;
        const SymInfo &t = sys.store().sym(sys.store().find_symbol(n).id());
        ck_assert_msg(xd.get(s.kind, s.slot) == yd.get(t.kind, t.slot), "default of %s", n.c_str());
    }
}

std::string read(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::string tmpdir() {
    char tmpl[] = "/tmp/test_vdl_XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return d;
}

}  // namespace

// ---------------------------------------------------------------- examples

START_TEST(pendulum_matches_cpp) {
    auto ref = models::pendulum();
    auto sys = load("vehicles/examples/pendulum.vdl");
    same_model(*ref, *sys);
    // the output too
    std::mt19937 rng(7);
    SymValues x = models::random_state(*ref, rng);
    expect_close(ref->store().eval(std::vector<Ex>{ref->outputs()[0].value}, x),
                 sys->store().eval(std::vector<Ex>{sys->outputs()[0].value}, carry(*ref, x, *sys)), "height");
}
END_TEST

START_TEST(double_pendulum_matches_cpp) {
    auto ref = models::double_pendulum();
    same_model(*ref, *load("vehicles/examples/double_pendulum.vdl"));
}
END_TEST

START_TEST(free_body_matches_cpp) {
    auto ref = models::free_body(true, true);
    same_model(*ref, *load("vehicles/examples/free_body.vdl"));
}
END_TEST

START_TEST(spinning_top_matches_cpp) {
    auto ref = models::spinning_top();
    same_model(*ref, *load("vehicles/examples/spinning_top.vdl"));
}
END_TEST

START_TEST(four_bar_matches_cpp) {
    auto ref = models::four_bar();
    auto sys = load("vehicles/examples/four_bar.vdl");
    same_model(*ref, *sys);
    ck_assert_str_eq(sys->constraints()[0].name.c_str(), "close.x");
    ck_assert_str_eq(sys->constraints()[1].name.c_str(), "close.z");
}
END_TEST

// ---------------------------------------------------------------- templates

static std::string dot_to_underscore(const std::string &s) {
    std::string o = s;
    for (auto &c : o)
        if (c == '.') c = '_';
    return o;
}

START_TEST(template_names_are_prefixed) {
    auto sys = load("vehicles/examples/coupled_pendulums.vdl");
    ck_assert(sys->store().has_symbol("left.th"));
    ck_assert(sys->store().has_symbol("right.th"));
    ck_assert(sys->store().has_symbol("left.th_d"));
    ck_assert(sys->kind_of("left.bob") == "body");
    ck_assert(sys->kind_of("right.B") == "base");
    ck_assert(sys->kind_of("right.G") == "point");
    ck_assert(sys->kind_of("coupling") == "force");
    // default argument and explicit argument
    SymValues d = sys->defaults();
    ck_assert(d.get(SymKind::Coord, 0) == 0.1);
    ck_assert(d.get(SymKind::Coord, 1) == 0.0);
}
END_TEST

START_TEST(template_equals_hand_written) {
    // Coupled pendulums written out by hand, with '_' for '.'.
    const char *hand = R"(
param m = 1.0
param l = 1.0
param J = 0.01
param g = 9.81
param k = 20
param d = 0.5
point left_pivot  = O + [-d/2, 0, 0] in ground
point right_pivot = O + [ d/2, 0, 0] in ground
coord left_th = 0.1
base  left_B = rotate(ground, y, left_th)
point left_G = left_pivot + [0, 0, -l] in left_B
body  left_bob  mass m  cg left_G  inertia diag(J, J, J) in left_B
coord right_th
base  right_B = rotate(ground, y, right_th)
point right_G = right_pivot + [0, 0, -l] in right_B
body  right_bob  mass m  cg right_G  inertia diag(J, J, J) in right_B
gravity [0, 0, -g] in ground
spring coupling  between left_G of left_bob and right_G of right_bob  k k  length d
)";
    auto ref = load("vehicles/examples/coupled_pendulums.vdl");
    auto sys = load_str(hand);
    ck_assert_ptr_nonnull(sys.get());
    same_model(*ref, *sys, dot_to_underscore);
}
END_TEST

// A chain of 5 wagons on a straight line, each coupled to the previous one
// by a spring-damper: written once as a template, and out by hand.
static std::string wagon_chain_template() {
    std::string s = R"(
param m = 20000      # kg
param k = 1e6        # N/m
param c = 1e4        # N s/m
param L = 12         # m
template wagon(prev, x0)
  coord x = x0
  point G = O + [x, 0, 0] in ground
  body car  mass m  cg G  inertia diag(1, 1, 1) in ground
  spring coupler  between prev and G  k k  c c  length L
end
coord x0
point G0 = O + [x0, 0, 0] in ground
body loco  mass 2*m  cg G0  inertia diag(1, 1, 1) in ground
use wagon w1(G0, -12)
)";
    for (int i = 2; i <= 5; ++i)
        s += "use wagon w" + std::to_string(i) + "(w" + std::to_string(i - 1) + ".G, " + std::to_string(-12 * i) + ")\n";
    return s;
}

static std::string wagon_chain_hand() {
    std::string s = R"(
param m = 20000
param k = 1e6
param c = 1e4
param L = 12
coord x0
point G0 = O + [x0, 0, 0] in ground
body loco  mass 2*m  cg G0  inertia diag(1, 1, 1) in ground
)";
    std::string prev = "G0";
    for (int i = 1; i <= 5; ++i) {
        std::string w = "w" + std::to_string(i);
        s += "coord " + w + "_x = " + std::to_string(-12 * i) + "\n";
        s += "point " + w + "_G = O + [" + w + "_x, 0, 0] in ground\n";
        s += "body " + w + "_car  mass m  cg " + w + "_G  inertia diag(1, 1, 1) in ground\n";
        s += "spring " + w + "_coupler  between " + prev + " and " + w + "_G  k k  c c  length L\n";
        prev = w + "_G";
    }
    return s;
}

START_TEST(five_wagon_chain_template_equals_hand) {
    auto ref = load_str(wagon_chain_template());
    auto hand = load_str(wagon_chain_hand());
    ck_assert_ptr_nonnull(ref.get());
    ck_assert_ptr_nonnull(hand.get());
    ck_assert_uint_eq(ref->coords().size(), 6);
    same_model(*ref, *hand, dot_to_underscore);
    ck_assert(ref->store().has_symbol("w5.x"));
    ck_assert(ref->kind_of("w3.coupler") == "force");
}
END_TEST

START_TEST(nested_templates) {
    const char *text = R"(
param r = 0.45
template wheelset(parent, dx)
  coord z
  point C = parent + [dx, 0, z] in ground
  body ws  mass 1000  cg C  inertia diag(1, 2, 1) in ground
end
template bogie(dx)
  coord z
  point C = O + [dx, 0, r + z] in ground
  body frame_  mass 2000  cg C  inertia diag(1, 2, 3) in ground
  use wheelset ws1(C, 1.2)
  use wheelset ws2(C, -1.2)
  spring s1  between C and ws1.C  k 1e6
end
use bogie front(5)
use bogie rear(-5)
output zf = front.ws1.z + rear.ws2.z
)";
    auto sys = load_str(text);
    ck_assert_ptr_nonnull(sys.get());
    const char *names[] = {"front.z", "front.ws1.z", "front.ws2.z", "rear.z", "rear.ws1.z", "rear.ws2.z"};
    ck_assert_uint_eq(sys->coords().size(), 6);
    for (int i = 0; i < 6; ++i)
        ck_assert_str_eq(sys->store().sym(sys->coords()[i].id()).name.c_str(), names[i]);
    ck_assert(sys->kind_of("rear.ws2.ws") == "body");
    ck_assert(sys->kind_of("front.s1") == "force");
}
END_TEST

// ---------------------------------------------------------------- includes

START_TEST(include_relative_and_once) {
    std::string d = tmpdir();
    fs::create_directories(d + "/parts");
    write(d + "/parts/params.vdl", "param g = 9.81\n");
    write(d + "/parts/geom.vdl", "include \"params.vdl\"\nparam l = 2\n");
    write(d + "/main.vdl",
          "include \"parts/geom.vdl\"\ninclude \"parts/params.vdl\"\ncoord th\nbase B = rotate(ground, y, th)\n"
          "point G = O + [0, 0, -l] in B\nbody b mass 1 cg G inertia diag(1,1,1) in B\ngravity [0,0,-g] in ground\n");
    auto sys = load(d + "/main.vdl");
    ck_assert(sys->store().has_symbol("g"));
    ck_assert(sys->store().has_symbol("l"));
    fs::remove_all(d);
}
END_TEST

START_TEST(include_cycle_reported_with_chain) {
    std::string d = tmpdir();
    write(d + "/a.vdl", "param a = 1\ninclude \"b.vdl\"\n");
    write(d + "/b.vdl", "param b = 1\ninclude \"a.vdl\"\n");
    System sys;
    vdl::Sources src;
    vdl::Diagnostics diags(src);
    ck_assert(!vdl::load_file(d + "/a.vdl", sys, diags));
    std::string msg = diags.format();
    std::string want = d + "/b.vdl:2:9: error: include cycle: a.vdl -> b.vdl -> a.vdl\n";
    ck_assert_msg(msg.rfind(want, 0) == 0, "got: %s", msg.c_str());
    fs::remove_all(d);
}
END_TEST

// ---------------------------------------------------------------- compile

// Units from declaration comments (vdl_units.hpp): leading fields that are
// unit expressions, one for all names or one each; free text is no unit; a
// non-SI unit and a wrong count are errors.
START_TEST(units_from_comments) {
    using V = std::vector<std::string>;
    ck_assert(vdl::leading_units("m, bogie pivot spacing") == V({"m"}));
    ck_assert(vdl::leading_units("N/m, N s/m: each spring") == V({"N/m", "N s/m"}));
    ck_assert(vdl::leading_units("kg m^2 (about z too)") == V({"kg m^2"}));
    ck_assert(vdl::leading_units("m/s^2") == V({"m/s^2"}));
    ck_assert(vdl::leading_units("N  m*s/rad, x") == V({"N m*s/rad"}));
    ck_assert(vdl::leading_units("1: teeth") == V({"1"}));
    ck_assert(vdl::leading_units("teeth of the pinion") == V());
    ck_assert(vdl::leading_units("m_c*g/(4*k)") == V());
    ck_assert(vdl::leading_units("") == V());
    ck_assert(vdl::leading_units("m^x") == V());
    bool threw = false;
    try {
        vdl::leading_units("kN/m, primary");
    } catch (const std::invalid_argument &e) {
        threw = std::string(e.what()).find("'kN'") != std::string::npos;
    }
    ck_assert(threw);
    ck_assert(vdl::units_per_name(V({"m"}), 3) == V({"m", "m", "m"}));
    ck_assert(vdl::units_per_name(V({"m", "rad"}), 2) == V({"m", "rad"}));
    ck_assert(vdl::units_per_name(V(), 2) == V({"", ""}));
    threw = false;
    try {
        vdl::units_per_name(V({"m", "rad"}), 3);
    } catch (const std::invalid_argument &) {
        threw = true;
    }
    ck_assert(threw);
}
END_TEST

// The descriptor carries them: model.json and the C descriptor's unit arrays;
// a rotation angle said to be in m is refused at its line.
START_TEST(units_reach_the_descriptor) {
    std::string d = tmpdir();
    write(d + "/u.vdl",
          "param m = 2, l = 0.5      # kg, m\n"
          "param g = 9.81            # m/s^2\n"
          "coord th                  # rad, swing angle\n"
          "base B = rotate(ground, y, th)\n"
          "point G = O + [0, 0, -l] in B\n"
          "body b mass m cg G inertia diag(0, 0, 0) in B\n"
          "gravity [0, 0, -g] in ground\n"
          "output height = z(pos(O, G))   # m\n");
    vdl::CompiledModel cm;
    std::string errors;
    ck_assert_msg(vdl::compile_model(d + "/u.vdl", cm, errors), "%s", errors.c_str());
    const std::string &js = cm.files["model.json"];
    ck_assert(js.find("{\"name\": \"l\", \"default\": 0.5, \"unit\": \"m\"") != std::string::npos);
    ck_assert(js.find("{\"name\": \"g\", \"default\": 9.81, \"unit\": \"m/s^2\"") != std::string::npos);
    ck_assert(js.find("\"output_units\": [\"m\"]") != std::string::npos);
    const std::string &c = cm.files["u_model.c"];
    ck_assert_msg(c.find("rsd_p_units[3] = {\n    \"kg\", \"m\", \"m/s^2\"\n}") != std::string::npos, "%s", c.c_str());
    ck_assert(c.find("rsd_q_units[1] = {\n    \"rad\"\n}") != std::string::npos);
    ck_assert(c.find("rsd_output_units[1] = {\n    \"m\"\n}") != std::string::npos);
    // the compiler knows th is a rotation angle: a comment saying m is wrong
    write(d + "/w.vdl",
          "param l = 0.5   # m\n"
          "coord th        # m\n"
          "base B = rotate(ground, y, th)\n"
          "point G = O + [0, 0, -l] in B\n"
          "body b mass 1 cg G inertia diag(0, 0, 0) in B\n");
    ck_assert(!vdl::compile_model(d + "/w.vdl", cm, errors));
    ck_assert_msg(errors.find("w.vdl:2:7: error: coordinate 'th' is in rad (the compiler knows it), but its "
                              "comment says m") != std::string::npos, "%s", errors.c_str());
    fs::remove_all(d);
}
END_TEST

// A spring between two names of one place has no direction: refused at
// compile time, naming the spring (it would give NaN in every step).
START_TEST(zero_length_spring_refused) {
    std::string d = tmpdir();
    write(d + "/z.vdl",
          "point A = O + [0, 0, 1] in ground\n"
          "point B = O + [0, 0, 1] in ground\n"
          "body b mass 1 cg A inertia diag(1, 1, 1) in ground\n"
          "spring s between A and B k 10\n");
    vdl::CompiledModel cm;
    std::string errors;
    ck_assert(!vdl::compile_model(d + "/z.vdl", cm, errors));
    ck_assert_msg(errors.find("spring-damper 's': its two points coincide in every pose") != std::string::npos,
                  "%s", errors.c_str());
    fs::remove_all(d);
}
END_TEST

START_TEST(failed_compile_leaves_no_folder) {
    std::string d = tmpdir();
    write(d + "/bad.vdl", "param m = 1\nbody b mass m cg Nowhere inertia diag(1,1,1) in ground\n");
    vdl::CompiledModel cm;
    std::string errors;
    ck_assert(!vdl::compile_model(d + "/bad.vdl", cm, errors));
    ck_assert_msg(errors.find("bad.vdl:2:18: error: unknown name 'Nowhere'") != std::string::npos, "%s",
                  errors.c_str());
    // through the command as well
    std::string out = d + "/out";
    std::string a0 = "compile", a1 = d + "/bad.vdl", a2 = "-o", a3 = out;
    char *argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), nullptr};
    extern int cmd_compile_for_test(int, char **);
    ck_assert_int_eq(cmd_compile_for_test(4, argv), 1);
    ck_assert(!fs::exists(out));
    // and nothing else was left next to it (no temporary folder)
    int n = 0;
    for (auto &e : fs::directory_iterator(d)) (void)e, ++n;
    ck_assert_int_eq(n, 1);
    fs::remove_all(d);
}
END_TEST

START_TEST(write_folder_atomic) {
    std::string d = tmpdir();
    std::string err;
    ck_assert(vdl::write_folder(d + "/m", {{"a.txt", "one"}}, err));
    ck_assert(read(d + "/m/a.txt") == "one");
    ck_assert(vdl::write_folder(d + "/m", {{"b.txt", "two"}}, err));   // replaces
    ck_assert(!fs::exists(d + "/m/a.txt"));
    ck_assert(read(d + "/m/b.txt") == "two");
    // a file name that cannot be created: nothing written, old folder kept
    ck_assert(!vdl::write_folder(d + "/m", {{"x.txt", "x"}, {"no/such/dir.txt", "y"}}, err));
    ck_assert_msg(err.find("cannot write") != std::string::npos, "%s", err.c_str());
    ck_assert(read(d + "/m/b.txt") == "two");
    int n = 0;
    for (auto &e : fs::directory_iterator(d)) (void)e, ++n;
    ck_assert_int_eq(n, 1);
    // a parent that cannot be created
    write(d + "/file", "x");
    ck_assert(!vdl::write_folder(d + "/file/sub/m", {{"a", "b"}}, err));
    fs::remove_all(d);
}
END_TEST

// Every shipped model (the examples and the FEVE 3000 locomotive) recompiles
// byte for byte into its committed folder.
START_TEST(generated_examples_are_up_to_date) {
    int n = 0;
    std::vector<fs::path> vdls;
    for (auto &e : fs::directory_iterator("vehicles/examples")) vdls.push_back(e.path());
    vdls.push_back("vehicles/feve3000/feve3000.vdl");
    vdls.push_back("vehicles/trains/freight_wagon.vdl");
    for (const fs::path &vdl : vdls) {
        if (vdl.extension() != ".vdl") continue;
        ++n;
        vdl::CompiledModel cm;
        std::string errors;
        const std::string dir = "generated/" + vdl.stem().string();
        ck_assert_msg(vdl::compile_model(vdl.string(), cm, errors, nullptr, true, true, dir), "%s", errors.c_str());
        ck_assert_msg(fs::is_directory(dir), "%s is missing: run build/railsym compile %s", dir.c_str(),
                      vdl.c_str());
        int files = 0;
        for (auto &f : fs::directory_iterator(dir)) (void)f, ++files;
        ck_assert_int_eq(files, (int)cm.files.size());
        for (const auto &f : cm.files)
            ck_assert_msg(read(dir + "/" + f.first) == f.second, "%s/%s differs from a fresh compile of %s",
                          dir.c_str(), f.first.c_str(), vdl.c_str());
    }
    ck_assert_int_ge(n, 7);
}
END_TEST

static Suite *suite() {
    Suite *s = suite_create("vdl");
    TCase *tc = tcase_create("examples");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pendulum_matches_cpp);
    tcase_add_test(tc, double_pendulum_matches_cpp);
    tcase_add_test(tc, free_body_matches_cpp);
    tcase_add_test(tc, spinning_top_matches_cpp);
    tcase_add_test(tc, four_bar_matches_cpp);
    suite_add_tcase(s, tc);
    tc = tcase_create("templates");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, template_names_are_prefixed);
    tcase_add_test(tc, template_equals_hand_written);
    tcase_add_test(tc, five_wagon_chain_template_equals_hand);
    tcase_add_test(tc, nested_templates);
    tcase_add_test(tc, include_relative_and_once);
    tcase_add_test(tc, include_cycle_reported_with_chain);
    suite_add_tcase(s, tc);
    tc = tcase_create("compile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, units_from_comments);
    tcase_add_test(tc, units_reach_the_descriptor);
    tcase_add_test(tc, zero_length_spring_refused);
    tcase_add_test(tc, failed_compile_leaves_no_folder);
    tcase_add_test(tc, write_folder_atomic);
    tcase_add_test(tc, generated_examples_are_up_to_date);
    suite_add_tcase(s, tc);
    return s;
}

// cmd_compile lives in the library (cli/cmd_compile.cpp); it may throw
// cli errors, which the real dispatcher turns into exit statuses.
namespace railsym {
int cmd_compile(int argc, char **argv);
}
int cmd_compile_for_test(int argc, char **argv) {
    try {
        return railsym::cmd_compile(argc, argv);
    } catch (const railsym::cli::UserError &) {
        return 1;
    } catch (const railsym::cli::UsageError &) {
        return 2;
    }
}

RS_TEST_MAIN(suite)
