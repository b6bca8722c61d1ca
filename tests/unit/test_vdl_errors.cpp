// test_vdl_errors.cpp — the error corpus: every tests/vdl_errors/NAME.vdl
// must fail to load with exactly the messages in NAME.expected (the
// formatted diagnostics: file:line:col: error: message, the quoted line and
// the caret, notes).  Also a few error forms that need files made on the fly
// (unreadable main file, include of a folder) and a crash check on mangled
// versions of every shipped model.
//
// To re-record the expected files after an intended change of a message:
//     VDL_BLESS=1 build/tests/test_vdl_errors      (then review the diff)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "model_error.hpp"
#include "rs_closest.h"
#include "system.hpp"
#include "vdl_elaborate.hpp"
#include "rs_test.h"

#include <check.h>

using namespace railsym;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string diagnose(const std::string &path) {
    System sys;
    vdl::Sources src;
    vdl::Diagnostics d(src);
    bool ok = vdl::load_file(path, sys, d);
    return ok ? std::string("(no error)\n") : d.format();
}

}  // namespace

START_TEST(corpus_messages_exact) {
    std::vector<fs::path> files;
    for (auto &e : fs::directory_iterator("tests/vdl_errors"))
        if (e.path().extension() == ".vdl") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ck_assert_int_ge((int)files.size(), 40);
    bool bless = std::getenv("VDL_BLESS") != nullptr;
    int bad = 0;
    for (const auto &f : files) {
        std::string got = diagnose(f.string());
        fs::path exp = f;
        exp.replace_extension(".expected");
        if (bless) {
            std::ofstream(exp, std::ios::binary) << got;
            continue;
        }
        ck_assert_msg(fs::exists(exp), "%s has no .expected file", f.c_str());
        std::string want = read(exp);
        if (got != want) {
            ++bad;
            std::fprintf(stderr, "---- %s\nexpected:\n%sgot:\n%s", f.c_str(), want.c_str(), got.c_str());
        }
        ck_assert_msg(got.find(": error: ") != std::string::npos, "%s: no error reported", f.c_str());
    }
    ck_assert_msg(bad == 0, "%d corpus files gave other messages than expected", bad);
}
END_TEST

START_TEST(missing_main_file) {
    std::string got = diagnose("tests/vdl_errors/does_not_exist.vdl");
    ck_assert_str_eq(got.c_str(),
                     "error: cannot read 'tests/vdl_errors/does_not_exist.vdl': No such file or directory\n");
    got = diagnose("tests/vdl_errors");
    ck_assert_str_eq(got.c_str(), "error: cannot read 'tests/vdl_errors': it is a directory\n");
}
END_TEST

START_TEST(error_limit_stops) {
    std::string text;
    for (int i = 0; i < 50; ++i) text += "bdy b" + std::to_string(i) + "\n";
    System sys;
    vdl::Sources src;
    vdl::Diagnostics d(src, 20);
    ck_assert(!vdl::load_text("many.vdl", text, sys, d));
    ck_assert_int_eq(d.errors(), 20);
    std::string f = d.format();
    ck_assert(f.find("too many errors; stopping") != std::string::npos);
}
END_TEST

// Mangled shipped models (bytes deleted, duplicated, replaced) never crash:
// they load or report errors.  The fuzz harness does this at scale.
START_TEST(mangled_models_do_not_crash) {
    std::mt19937 rng(2024);
    const char alphabet[] = "[](),=+-*/^#\"\\\n .0123456789abxyzin_";
    for (auto &e : fs::directory_iterator("vehicles/examples")) {
        std::string text = read(e.path());
        for (int trial = 0; trial < 40; ++trial) {
            std::string t = text;
            int edits = 1 + (int)(rng() % 4);
            for (int k = 0; k < edits && !t.empty(); ++k) {
                size_t pos = rng() % t.size();
                switch (rng() % 3) {
                case 0: t.erase(pos, 1 + rng() % 8); break;
                case 1: t.insert(pos, t.substr(rng() % t.size(), 1 + rng() % 20)); break;
                default: t[pos] = alphabet[rng() % (sizeof alphabet - 1)]; break;
                }
            }
            System sys;
            vdl::Sources src;
            vdl::Diagnostics d(src);
            bool ok = vdl::load_text(e.path().string(), t, sys, d);
            if (!ok) ck_assert(d.format().find("error: ") != std::string::npos);
        }
    }
}
END_TEST

// One "did you mean" rule for every layer (common/rs_closest.h): the C
// runtime and the command line call it directly, the modeler through
// closest_names; the same word gets the same answer from both.
START_TEST(one_closest_name_rule) {
    const std::vector<std::string> known = {"mass", "cg", "inertia", "Mass", "mass", "stiffness", "step", "stop"};
    std::vector<const char *> c;
    for (const auto &k : known) c.push_back(k.c_str());
    struct Case {
        const char *word;
        std::vector<std::string> want;   // the modeler's answer (up to 3)
    } cases[] = {
        {"mas", {"mass", "Mass"}},            // an edit; case is not an edit; each name once
        {"MASS", {"mass", "Mass"}},           // case only: distance 0, the word itself excluded
        {"inretia", {"inertia"}},             // a swap counts 1
        {"stiff", {"stiffness"}},             // too far by edits; the one name it begins
        {"st", {}},                           // begins three names, none close: nothing
        {"i", {"inertia"}},                   // one letter: no edit counts, the one name it begins does
        {"x", {}},                            // one letter: every one-letter edit is a different name
        {"stap", {"step", "stop"}},           // ties in the candidates' order
        {"zzzz", {}},
    };
    for (const Case &k : cases) {
        std::vector<std::string> got = closest_names(k.word, known);
        ck_assert_msg(got == k.want, "closest_names(%s)", k.word);
        const char *first = rs_closest_name(k.word, c.data(), (int)c.size());
        ck_assert_msg(k.want.empty() ? first == nullptr : first && k.want[0] == first, "rs_closest_name(%s)", k.word);
    }
    ck_assert_uint_eq(rs_edit_distance("Plot", "plto"), 1);
}
END_TEST

int main() {
    Suite *s = suite_create("vdl_errors");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, corpus_messages_exact);
    tcase_add_test(tc, missing_main_file);
    tcase_add_test(tc, error_limit_stops);
    tcase_add_test(tc, mangled_models_do_not_crash);
    tcase_add_test(tc, one_closest_name_rule);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
