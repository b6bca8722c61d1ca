// test_run_examples.cpp — every shipped example with a scenario
// (vehicles/examples/NAME.vdl + NAME.scn) goes the whole way: the .vdl
// elaborated into a System, generated to C with its descriptor and
// default.scn, loaded by libtcc, its scenario bound (every name in it must
// exist in the model) and run to the end.  Checks against the physics:
// conservative examples run with RK4 keep their energy, and the four-bar's
// constraint residual stays below the scenario's tolerance.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codegen.hpp"
#include "model_functions.hpp"
#include "descriptor.hpp"
#include "compile_c.hpp"
#include "system.hpp"
#include "vdl_compile.hpp"
#include "vdl_elaborate.hpp"
#include "vdl_error.hpp"

extern "C" {
#include "rs_driver.h"
#include "rs_runtime.h"
#include "rs_contact.h"
#include "rs_test.h"
}

// Last: check.h defines a macro named `fail` that breaks C++ headers.
#include <check.h>

using namespace railsym;
namespace fs = std::filesystem;

namespace {

const char *const kExamples[] = {"pendulum", "double_pendulum", "spinning_top", "four_bar",
                                 "coupled_pendulums", "free_body", "torque_free_body"};

// vehicles/examples/NAME.vdl -> DIR/NAME with the generated functions, the
// descriptor and default.scn (what `railsym compile` writes once it emits
// the descriptor).
std::string build_folder(const std::string &name, const std::string &tmp) {
    const std::string vdl = "vehicles/examples/" + name + ".vdl";
    vdl::Sources src;
    vdl::Diagnostics diags(src);
    System sys;
    vdl::ModelInfo info;
    ck_assert_msg(vdl::load_file(vdl, sys, diags, &info), "%s", diags.format().c_str());
    std::vector<codegen::Function> fns = model_functions(sys);
    codegen::GeneratedCode code = codegen::generate_c(sys.store(), name, fns);
    std::map<std::string, std::string> files;
    files[name + ".c"] = code.source;
    files[codegen::descriptor_file_name(name)] = codegen::emit_descriptor_c(sys, name, fns);
    files["default.scn"] = codegen::emit_default_scenario(sys, name);
    std::string dir = tmp + "/" + name, err;
    ck_assert_msg(vdl::write_folder(dir, files, err), "%s", err.c_str());
    return dir;
}

struct Tmp {
    std::string dir;
    Tmp() {
        char t[] = "/tmp/rs_examples_XXXXXX";
        ck_assert_ptr_nonnull(mkdtemp(t));
        dir = t;
    }
    ~Tmp() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

}  // namespace

START_TEST(test_example_runs) {
    const std::string name = kExamples[_i];
    const std::string scn = "vehicles/examples/" + name + ".scn";
    ck_assert_msg(access(scn.c_str(), R_OK) == 0, "%s is missing", scn.c_str());
    Tmp tmp;
    const std::string dir = build_folder(name, tmp.dir);
    const std::string out = tmp.dir + "/" + name + ".csv";

    // The scenario as `railsym run DIR --scenario FILE` reads it.
    rs_scenario s, top;
    char err[2048];
    ck_assert_msg(rs_scenario_read((dir + "/default.scn").c_str(), &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_read(scn.c_str(), &top, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_scenario_overlay(&s, &top), RS_OK);
    rs_scenario_free(&top);
    rs_load_options lo;
    rs_load_options_default(&lo);
    const std::string inc = testsupport::abi_include_dir();
    lo.include_dir = inc.c_str();
    rs_loaded *h = rs_load_ex(dir.c_str(), RS_LOAD_TCC, &lo, err, sizeof err);
    ck_assert_msg(h != nullptr, "%s", err);
    const rs_model *m = rs_loaded_model(h);

    rs_run_config c;
    rs_run_config_default(&c);
    c.out = out.c_str();
    c.progress = 0;
    rs_run_report rep;
    ck_assert_msg(rs_driver_simulate(m, &s, &c, &rep, err, sizeof err) == RS_OK, "%s: %s", name.c_str(), err);
    const long want_rows = std::lround(rs_scenario_duration(&s) / rs_scenario_output(&s)) + 1;
    ck_assert_int_eq(rep.rows, want_rows);

    // The same run again, step by step, to check the physics.
    rs_binding *b;
    ck_assert_int_eq(rs_scenario_bind(&s, m, &b, err, sizeof err), RS_OK);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    rs_ws *ws;
    ck_assert_int_eq(rs_ws_create(m, &o, &ws, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_binding_apply(b, ws, err, sizeof err), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double T0, V0;
    ck_assert_int_eq(rs_ws_energy(ws, &T0, &V0), RS_OK);
    const long n = std::lround(rs_scenario_duration(&s) / rs_scenario_step(&s));
    double worst = 0;
    for (long k = 0; k < n; ++k) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        double pos, vel;
        ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
        worst = std::fmax(worst, std::fmax(pos, vel));
    }
    double T1, V1;
    ck_assert_int_eq(rs_ws_energy(ws, &T1, &V1), RS_OK);
    const double E0 = T0 + V0, E1 = T1 + V1;
    // Conservative examples under RK4: energy kept to 1e-6 relative (of the
    // larger of |E| and T, so a zero total does not make it vacuous).
    const bool conservative = name != "four_bar" && name != "free_body";
    if (conservative && o.method == RS_RK4)
        ck_assert_msg(std::fabs(E1 - E0) <= 1e-6 * std::fmax(std::fabs(E0), std::fmax(T0, T1)),
                      "%s: energy %.12g -> %.12g", name.c_str(), E0, E1);
    if (m->n_phi > 0) ck_assert_msg(worst <= o.proj_tol, "%s: residual %g", name.c_str(), worst);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_unload(&h);
    rs_scenario_free(&s);
}
END_TEST

static Suite *examples_suite() {
    Suite *s = suite_create("run_examples");
    TCase *t = tcase_create("examples");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, test_example_runs, 0, (int)(sizeof kExamples / sizeof kExamples[0]));
    suite_add_tcase(s, t);
    return s;
}

RS_TEST_MAIN(examples_suite)
