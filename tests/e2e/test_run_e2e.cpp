// test_run_e2e.cpp — modeler -> code generator -> descriptor -> runtime, end
// to end.  Models built with the C++ API are generated to C with their
// rs_model descriptor (codegen/descriptor.hpp), compiled by gcc with the
// strict flags and by libtcc, validated by the runtime, and simulated:
//   - the pendulum's period against the complete elliptic integral (RK4),
//   - M and δ through the descriptor against the modeler's own evaluation,
//   - the four-bar (constraints: φ_q pattern) keeps its residual below the
//     tolerance, both loaders giving the same trajectory,
//   - a cart pushed by an input follows x = F t² / (2 m) with RK4,
//   - `railsym run DIR` writes the CSV (default.scn applied) and
//     `railsym plot` draws it as a PNG.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "model_functions.hpp"
#include "codegen.hpp"
#include "descriptor.hpp"
#include "compile_c.hpp"
#include "models.hpp"
#include "vdl_compile.hpp"

extern "C" {
#include "rs_driver.h"
#include "rs_runtime.h"
#include "rs_contact.h"
#include "rs_test.h"
}

// Last: check.h defines a macro named `fail` that breaks C++ headers.
#include <check.h>

namespace railsym {
int cmd_run(int argc, char **argv);
int cmd_plot(int argc, char **argv);
}  // namespace railsym

using namespace railsym;
using railsym::testsupport::CompiledC;
namespace fs = std::filesystem;

namespace {

struct Generated {
    std::string name;
    std::map<std::string, std::string> files;
    std::string single_tu;   // generated functions + descriptor, for CompiledC
};

Generated generate(System &sys, const std::string &name) {
    std::vector<codegen::Function> fns = model_functions(sys);
    codegen::GeneratedCode code = codegen::generate_c(sys.store(), name, fns);
    Generated g;
    g.name = name;
    std::string desc = codegen::emit_descriptor_c(sys, name, fns);
    ck_assert(desc == codegen::emit_descriptor_c(sys, name, fns));   // deterministic
    g.files[name + ".c"] = code.source;
    g.files[name + ".h"] = code.header;
    g.files[codegen::descriptor_file_name(name)] = desc;
    g.files["default.scn"] = codegen::emit_default_scenario(sys, name);
    g.single_tu = code.source + "\n" + desc;
    return g;
}

// A fresh temporary folder, removed at the end of the test.
struct Tmp {
    std::string dir;
    Tmp() {
        char t[] = "/tmp/rs_e2e_XXXXXX";
        ck_assert_ptr_nonnull(mkdtemp(t));
        dir = t;
    }
    ~Tmp() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

std::string write(const Generated &g, const Tmp &tmp) {
    std::string dir = tmp.dir + "/" + g.name, err;
    ck_assert_msg(vdl::write_folder(dir, g.files, err), "%s", err.c_str());
    return dir;
}

rs_loaded *load(const std::string &dir, rs_loader kind) {
    rs_load_options o;
    rs_load_options_default(&o);
    std::string inc = testsupport::abi_include_dir();
    o.include_dir = inc.c_str();
    char err[4096];
    rs_loaded *h = rs_load_ex(dir.c_str(), kind, &o, err, sizeof err);
    ck_assert_msg(h != nullptr, "load %s: %s", dir.c_str(), err);
    return h;
}

rs_ws *new_ws(const rs_model *m, rs_method method, double dt) {
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.method = method;
    o.dt = dt;
    rs_ws *ws = nullptr;
    char err[512];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

// Complete elliptic integral of the first kind by the arithmetic-geometric mean.
double ellip_k(double k) {
    double a = 1, b = std::sqrt(1 - k * k);
    for (int i = 0; i < 40 && std::fabs(a - b) > 1e-16 * a; ++i) {
        double an = 0.5 * (a + b);
        b = std::sqrt(a * b);
        a = an;
    }
    return M_PI / (2 * a);
}

rs_model_fn descriptor_fn(const CompiledC &c, const std::string &name) {
    const void *p = c.symbol(name + "_model");
    ck_assert_ptr_nonnull(p);
    return reinterpret_cast<rs_model_fn>(const_cast<void *>(p));
}

}  // namespace

// The descriptor compiles warning-free with gcc's strict flags and with
// libtcc, and the runtime accepts it, naming every symbol.
START_TEST(test_descriptor_compiles_and_validates) {
    for (int which = 0; which < 2; ++which) {
        auto sys = which == 0 ? models::pendulum() : models::four_bar();
        Generated g = generate(*sys, which == 0 ? "pendulum" : "four_bar");
        for (auto via : {CompiledC::Via::Gcc, CompiledC::Via::Tcc}) {
            std::string err;
            auto c = CompiledC::compile(via, g.single_tu, &err);
            ck_assert_msg(c != nullptr, "%s", err.c_str());
            const rs_model *m = descriptor_fn(*c, g.name)();
            char msg[512];
            ck_assert_msg(rs_model_validate(m, msg, sizeof msg) == RS_OK, "%s", msg);
            ck_assert_str_eq(m->name, g.name.c_str());
            if (which == 0) {
                ck_assert_int_eq(m->n_q, 1);
                ck_assert_str_eq(m->q_names[0], "th");
                ck_assert_int_eq(m->n_p, 4);
                const char *pn[] = {"m", "l", "J", "g"};
                const double pd[] = {2.0, 0.8, 0.1, 9.81};
                for (int i = 0; i < 4; ++i) {
                    ck_assert_str_eq(m->p_names[i], pn[i]);
                    ck_assert_double_eq(m->p_default[i], pd[i]);
                }
                ck_assert_int_eq(m->n_out, 1);
                ck_assert_str_eq(m->output_names[0], "height");
                ck_assert_int_eq(m->n_phi, 0);
            } else {
                ck_assert_int_eq(m->n_q, 3);
                ck_assert_int_eq(m->n_phi, 2);
                ck_assert_str_eq(m->phi_names[0], "close_x");
                ck_assert(m->fn[RS_FN_PHI_Q].fn != nullptr);
            }
        }
        // default.scn: the description's initial state, in scenario form
        rs_scenario s;
        char err[512];
        ck_assert_int_eq(rs_scenario_parse(g.files["default.scn"].c_str(), g.files["default.scn"].size(), "default.scn", &s, err, sizeof err), RS_OK);
        ck_assert_int_eq(s.n_initial, 2 * (which == 0 ? 1 : 3));
        ck_assert_double_eq(s.initial[0].value, which == 0 ? 0.3 : 1.0);
        rs_scenario_free(&s);
    }
}
END_TEST

// M (in its pattern order) and δ through the descriptor's table equal the
// modeler's evaluation of the same expressions at random states.
START_TEST(test_functions_through_descriptor) {
    auto sys = models::four_bar();
    Generated g = generate(*sys, "four_bar");
    std::string err;
    auto c = CompiledC::gcc(g.single_tu, &err);
    ck_assert_msg(c != nullptr, "%s", err.c_str());
    const rs_model *m = descriptor_fn(*c, "four_bar")();
    std::mt19937 rng(7);
    const int n = m->n_q;
    for (int trial = 0; trial < 5; ++trial) {
        SymValues x = models::random_state(*sys, rng);
        std::vector<double> slot[RS_IN_COUNT];
        slot[RS_IN_CACHE].assign(1, 0.0);   // no symbol kind; not read by M or delta
        for (int k = 0; k < kNumSymKinds; ++k) {
            slot[k].assign(std::max(1, sys->store().count(SymKind(k))), 0.0);
            for (size_t i = 0; i < slot[k].size(); ++i) slot[k][i] = x.get(SymKind(k), (int)i);
        }
        const double *in[RS_IN_COUNT];
        for (int k = 0; k < RS_IN_COUNT; ++k) in[k] = slot[k].data();
        std::vector<double> Mv(m->M_pattern.colptr[n]), d(n);
        double *outM[1] = {Mv.data()}, *outd[1] = {d.data()};
        ck_assert_int_eq(m->fn[RS_FN_M].fn(in, outM), 0);
        ck_assert_int_eq(m->fn[RS_FN_DELTA].fn(in, outd), 0);
        std::vector<double> Mref = models::eval(*sys, sys->mass_matrix(), x);
        std::vector<double> dref = models::eval(*sys, sys->delta(), x);
        for (int j = 0; j < n; ++j)
            for (int k = m->M_pattern.colptr[j]; k < m->M_pattern.colptr[j + 1]; ++k) {
                const int i = m->M_pattern.rowind[k];
                ck_assert_double_eq_tol(Mv[k], Mref[i * n + j], 1e-12 * (1 + std::fabs(Mref[i * n + j])));
            }
        for (int i = 0; i < n; ++i) ck_assert_double_eq_tol(d[i], dref[i], 1e-12 * (1 + std::fabs(dref[i])));
    }
}
END_TEST

// The compound pendulum released from 2.5 rad: period 4 K(sin(θ0/2)) / ω0,
// ω0² = m g l / (m l² + J), measured with RK4 at Δt = 1 ms to 1e-6.
START_TEST(test_pendulum_period) {
    auto sys = models::pendulum();
    Generated g = generate(*sys, "pendulum");
    Tmp tmp;
    std::string dir = write(g, tmp);
    rs_loaded *h = load(dir, RS_LOAD_TCC);
    const rs_model *m = rs_loaded_model(h);
    const double th0 = 2.5, M = 2.0, l = 0.8, J = 0.1, grav = 9.81;
    const double w0 = std::sqrt(M * grav * l / (M * l * l + J));
    const double T = 4 * ellip_k(std::sin(th0 / 2)) / w0;
    const double dt = 1e-3;
    rs_ws *ws = new_ws(m, RS_RK4, dt);
    rs_ws_q(ws)[0] = th0;
    ck_assert_int_eq(rs_ws_init(ws), RS_OK);
    double prev_t = 0, prev_v = 0, period = -1;
    while (rs_ws_time(ws) < 1.5 * T) {
        ck_assert_int_eq(rs_step(ws), RS_OK);
        const double t = rs_ws_time(ws), v = rs_ws_qd(ws)[0];
        // θ̇ < 0 on the way down, > 0 on the way back: the period ends where
        // it turns from positive to non-positive (θ⃛ = 0 there, so linear
        // interpolation is exact to O(Δt³)).
        if (t > 0.75 * T && prev_v > 0 && v <= 0) {
            period = prev_t + dt * prev_v / (prev_v - v);
            break;
        }
        prev_t = t;
        prev_v = v;
    }
    ck_assert_msg(period > 0, "no full period seen");
    ck_assert_msg(std::fabs(period / T - 1) < 1e-6, "period %.12g, exact %.12g", period, T);
    // energy through the descriptor's energy entry stays put
    double Tk, V;
    ck_assert_int_eq(rs_ws_energy(ws, &Tk, &V), RS_OK);
    ck_assert_double_eq_tol(Tk + V, -M * grav * l * std::cos(th0), 1e-8);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

// The four-bar through both loaders: residual below the tolerance after
// every step and the same trajectory to 1e-12.
START_TEST(test_four_bar_loaders_agree) {
    auto sys = models::four_bar();
    Generated g = generate(*sys, "four_bar");
    Tmp tmp;
    std::string dir = write(g, tmp);
    std::vector<double> q0 = models::four_bar_closure(*sys, 1.0);
    std::vector<double> end[2];
    const rs_loader kinds[2] = {RS_LOAD_TCC, RS_LOAD_DLOPEN};
    for (int k = 0; k < 2; ++k) {
        rs_loaded *h = load(dir, kinds[k]);
        rs_ws *ws = new_ws(rs_loaded_model(h), RS_IMEX_EULER, 1e-3);
        for (int i = 0; i < 3; ++i) rs_ws_q(ws)[i] = q0[i];
        ck_assert_int_eq(rs_ws_init(ws), RS_OK);
        for (int s = 0; s < 500; ++s) {
            ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
            double pos, vel;
            ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
            ck_assert_msg(pos <= 1e-6 && vel <= 1e-6, "step %d: residuals %g %g", s, pos, vel);
        }
        end[k].assign(rs_ws_q(ws), rs_ws_q(ws) + 3);
        ck_assert(std::fabs(end[k][0] - q0[0]) > 1e-3);   // it moved
        rs_ws_free(&ws);
        rs_unload(&h);
    }
    for (int i = 0; i < 3; ++i) ck_assert_double_eq_tol(end[0][i], end[1][i], 1e-12);
}
END_TEST

// Inputs reach the generated code: a cart pushed by F from the scenario
// moves as x = F t² / (2 m) (RK4 is exact on a quadratic).
START_TEST(test_input_from_scenario) {
    System S;
    Ex z = S.store().zero();
    Ex m = S.param("m", 4.0);
    Ex x = S.coord("x");
    Ex F = S.input("F", 0.0);
    S.add_point("G", "O", S.vec(x, z, z, "ground"));
    S.add_body("cart", m, "G", S.diag(S.store().one(), S.store().one(), S.store().one(), "ground"), "ground");
    S.add_force("push", "G", S.vec(F, z, z, "ground"), "cart");
    S.add_output("x_twice", 2 * x);
    Generated g = generate(S, "cart");
    Tmp tmp;
    std::string dir = write(g, tmp);
    const std::string out = tmp.dir + "/cart.csv", scn = tmp.dir + "/push.scn";
    std::ofstream(scn) << "duration 2\nstep 0.01\noutput 0.5\nmethod rk4\nparam m = 2\ninput F = 3\n"
                          "columns x x_dot x_twice\n";
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = dir.c_str();
    c.scenario = scn.c_str();
    c.out = out.c_str();
    std::string inc = testsupport::abi_include_dir();
    c.include_dir = inc.c_str();
    char err[2048];
    ck_assert_msg(rs_driver_run(&c, nullptr, err, sizeof err) == RS_OK, "%s", err);
    std::ifstream in(out);
    std::string line;
    std::getline(in, line);
    ck_assert_str_eq(line.c_str(), "time,x,x_dot,x_twice");
    int rows = 0;
    while (std::getline(in, line)) {
        double t, xv, v, x2;
        ck_assert_int_eq(std::sscanf(line.c_str(), "%lg,%lg,%lg,%lg", &t, &xv, &v, &x2), 4);
        ck_assert_double_eq_tol(xv, 3 * t * t / (2 * 2), 1e-12);
        ck_assert_double_eq_tol(v, 3 * t / 2, 1e-12);
        ck_assert_double_eq_tol(x2, 2 * xv, 1e-14);
        ++rows;
    }
    ck_assert_int_eq(rows, 5);
}
END_TEST

namespace {
int call(int (*cmd)(int, char **), std::vector<std::string> args) {
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return cmd((int)args.size(), argv.data());
}
bool contains(const std::string &s, const std::string &p) { return s.find(p) != std::string::npos; }
}  // namespace

// `railsym run DIR` and `railsym plot`, called as the command calls them.
START_TEST(test_run_and_plot_commands) {
    auto sys = models::pendulum();
    Generated g = generate(*sys, "pendulum");
    Tmp tmp;
    std::string dir = write(g, tmp);
    const std::string out = tmp.dir + "/res/pendulum.csv";
    ck_assert_int_eq(call(cmd_run, {"run", dir, "--out", out, "--quiet"}), 0);
    std::ifstream in(out);
    std::string header, first;
    std::getline(in, header);
    std::getline(in, first);
    ck_assert_str_eq(header.c_str(), "time,th,th_dot,height");
    double t, th;
    ck_assert_int_eq(std::sscanf(first.c_str(), "%lg,%lg", &t, &th), 2);
    ck_assert_double_eq(t, 0);
    ck_assert_double_eq(th, 0.3);   // from the folder's default.scn

    // usage and user errors
    try {
        call(cmd_run, {"run", dir, "--loader", "gcc"});
        ck_abort_msg("--loader gcc accepted");
    } catch (const cli::UsageError &e) {
        ck_assert_str_eq(e.what(), "--loader must be tcc or dlopen, not 'gcc'");
    }
    try {
        call(cmd_run, {"run", tmp.dir + "/nothing"});
        ck_abort_msg("missing folder accepted");
    } catch (const cli::UserError &e) {
        ck_assert(contains(e.what(), "no such file or folder"));
    }
    try {
        call(cmd_run, {"run", tmp.dir});   // a folder without a descriptor
        ck_abort_msg("folder without descriptor accepted");
    } catch (const cli::UserError &e) {
        ck_assert_msg(contains(e.what(), "has no model descriptor"), "%s", e.what());
    }

    const std::string png = tmp.dir + "/th.png";
    if (!std::getenv("RAILSYM_GNUPLOT"))
        RS_REQUIRE_PROGRAM("/usr/bin/gnuplot", "install it: make deps (Debian package gnuplot-nox), "
                                               "or set RAILSYM_GNUPLOT to the program");
    ck_assert_int_eq(call(cmd_plot, {"plot", out, "th", "th_dot", "-o", png}), 0);
    std::ifstream p(png, std::ios::binary);
    char sig[8] = {};
    p.read(sig, 8);
    ck_assert_msg(std::string(sig, 8) == "\x89PNG\r\n\x1a\n", "not a PNG");
    ck_assert(fs::file_size(png) > 1000);
    try {
        call(cmd_plot, {"plot", out, "th_dto", "-o", png});
        ck_abort_msg("unknown column accepted");
    } catch (const cli::UserError &e) {
        std::string want = "'" + out + "' has no column 'th_dto' (did you mean 'th_dot'?); its columns: time, th, "
                           "th_dot, height";
        ck_assert_str_eq(e.what(), want.c_str());
    }
    try {
        call(cmd_plot, {"plot", out, "th"});
        ck_abort_msg("missing -o accepted");
    } catch (const cli::UsageError &e) {
        ck_assert(contains(e.what(), "missing -o FILE.png"));
    }
    setenv("RAILSYM_GNUPLOT", "/nonexistent/gnuplot", 1);
    try {
        call(cmd_plot, {"plot", out, "th", "-o", png});
        ck_abort_msg("missing gnuplot not reported");
    } catch (const cli::UserError &e) {
        ck_assert(contains(e.what(), "is not an executable program"));
    }
    unsetenv("RAILSYM_GNUPLOT");
}
END_TEST

static Suite *e2e_suite() {
    Suite *s = suite_create("run_e2e");
    TCase *t = tcase_create("e2e");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_descriptor_compiles_and_validates);
    tcase_add_test(t, test_functions_through_descriptor);
    tcase_add_test(t, test_pendulum_period);
    tcase_add_test(t, test_four_bar_loaders_agree);
    tcase_add_test(t, test_input_from_scenario);
    tcase_add_test(t, test_run_and_plot_commands);
    suite_add_tcase(s, t);
    return s;
}

RS_TEST_MAIN(e2e_suite)
