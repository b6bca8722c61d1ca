/*
 * test_stress_multi.c — several `stress` statements in one run (issue 25,
 * docs/coupled.md "Several components"):
 *
 *   - two components on the cart of test_stress_run (the round link along
 *     x, a rectangular arm along y), each in one run with the other: every
 *     one of its columns is, character for character, its column in the
 *     run with it alone (the components share nothing but the outputs);
 *   - the vehicle's columns are byte for byte those of the run without;
 *   - `mpirun -np 1|2|3 --oversubscribe railsym run … --mpi` with both
 *     components gives the in-process file bit for bit (both beams split
 *     over the same workers, stepped in turn);
 *   - a second component of the same name is refused with both lines; a
 *     later layer (--set) replaces the component of its name and adds a
 *     new one.
 */
#define _GNU_SOURCE

#include <check.h>
#include <math.h>

#include "rs_test.h"
#include "rs_test_mpi.h"
#include "test_sweep_util.h"

static const char *kVdl =
    "# a cart pulled along -x, sprung vertically; components clamped to it carry a tip load\n"
    "param m = 50, F = 200, k = 49050, c = 300, P = 100, g = 9.81\n"
    "coord x, z\n"
    "point G = O + [x, 0, z] in ground\n"
    "body cart mass m cg G inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "force pull on cart at G = [-F, 0, 0] in ground\n"
    "force lift on cart at G = [0, 0, -k*z - c*z_d] in ground\n"
    "output cart_v = vel(G) in ground          # m/s\n"
    "output cart_omega = omega(cart) in ground # rad/s\n"
    "output cart_g = [0, 0, -g] in ground      # m/s^2\n"
    "output tip = [0, 0, -P] in ground         # N\n"
    "output side = [30, 0, 0] in ground        # N\n";

/* z oscillates (no 'initial'): the frames' accelerations vary */
static const char *kBase = "duration 0.1\nstep 1e-3\noutput 0.01\nmethod rk4\n";

#define LINK                                                                                                  \
    "stress link body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0 load tip at 0.5 point " \
    "top at 0 fibre 0 0.02 point bot at 0 fibre 0 -0.02 point mid at 0.275"
#define ARM                                                                                                    \
    "stress arm body cart from 0 0 0 to 0 0.3 0 section rect 0.03 0.02 elements 6 fix 0 load side at 0.3 load " \
    "tip at 0.15 point root at 0 fibre 0.01 0.01 point half at 0.15 fibre -0.015 0"
#define LINK_COLS "link.sigma_top link.sigma_bot link.sigma_mid"
#define ARM_COLS "arm.sigma_root arm.sigma_half"

static char g_dir[512], g_model[600];

static int run(const char *const *argv, const char *log) { return sweep_run((char **)argv, log); }

static void setup_model(void)
{
    sweep_scratch(g_dir, sizeof g_dir, "stress_multi");
    char vdl[700];
    snprintf(vdl, sizeof vdl, "%s/cart.vdl", g_dir);
    snprintf(g_model, sizeof g_model, "%s/cart", g_dir);
    sweep_write(vdl, kVdl);
    const char *argv[] = {sweep_railsym_bin(), "compile", vdl, "-o", g_model, NULL};
    ck_assert_int_eq(run(argv, NULL), 0);
}

static void scn_path(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s.scn", g_dir, name); }

/* Writes scenario NAME (kBase + extra); runs it to OUT with set[0], set[1]
 * as --set statements (set NULL: none); 0 when ok. */
static int run_scn(const char *name, const char *extra, const char *out, const char *const *set, const char *log)
{
    char scn[700], text[4096];
    scn_path(scn, sizeof scn, name);
    snprintf(text, sizeof text, "%s%s\n", kBase, extra);
    sweep_write(scn, text);
    const char *argv[] = {sweep_railsym_bin(), "run", g_model, "-s", scn, "-o", out, "-q",
                          set ? "--set" : NULL, set ? set[0] : NULL, "--set", set ? set[1] : NULL, NULL};
    return run(argv, log);
}

/* The text of column `col` of CSV `path`, every row joined by '\n'. */
static char *column(const char *path, const char *col)
{
    char *text = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(text);
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    ck_assert_ptr_nonnull(line);
    int idx = -1, k = 0;
    for (char *c = line, *e; idx < 0 && c; c = e ? e + 1 : NULL, k++) {
        e = strchr(c, ',');
        const size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == strlen(col) && strncmp(c, col, n) == 0)
            idx = k;
    }
    ck_assert_msg(idx >= 0, "%s has no column %s", path, col);
    size_t cap = strlen(path) + 1 + 64 * 1024, len = 0;
    char *out = calloc(cap, 1);
    for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c = line;
        for (int j = 0; j < idx && c; j++)
            c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
        ck_assert_ptr_nonnull(c);
        const size_t n = strchr(c, ',') ? (size_t)(strchr(c, ',') - c) : strlen(c);
        ck_assert(len + n + 2 < cap);
        memcpy(out + len, c, n);
        len += n;
        out[len++] = '\n';
    }
    free(text);
    return out;
}

static void same_column(const char *a, const char *b, const char *col)
{
    char *x = column(a, col), *y = column(b, col);
    ck_assert_msg(strcmp(x, y) == 0, "column %s: %s and %s differ", col, a, b);
    ck_assert_msg(strspn(x, "0\n") < strlen(x), "column %s is all zero: the check would be empty", col);
    free(x);
    free(y);
}

START_TEST(each_as_alone)
{
    setup_model();
    char both[700], link[700], arm[700], plain[700], vehicle[700];
    snprintf(both, sizeof both, "%s/both.csv", g_dir);
    snprintf(link, sizeof link, "%s/link.csv", g_dir);
    snprintf(arm, sizeof arm, "%s/arm.csv", g_dir);
    snprintf(plain, sizeof plain, "%s/plain.csv", g_dir);
    snprintf(vehicle, sizeof vehicle, "%s/vehicle.csv", g_dir);
    ck_assert_int_eq(run_scn("both", LINK "\n" ARM "\ncolumns x z " LINK_COLS " " ARM_COLS, both, NULL, NULL), 0);
    ck_assert_int_eq(run_scn("link", LINK "\ncolumns x " LINK_COLS, link, NULL, NULL), 0);
    ck_assert_int_eq(run_scn("arm", ARM "\ncolumns z " ARM_COLS, arm, NULL, NULL), 0);
    static const char *const lc[] = {"link.sigma_top", "link.sigma_bot", "link.sigma_mid"};
    static const char *const ac[] = {"arm.sigma_root", "arm.sigma_half"};
    for (int i = 0; i < 3; i++)
        same_column(both, link, lc[i]);
    for (int i = 0; i < 2; i++)
        same_column(both, arm, ac[i]);
    /* the header names both, statement by statement, without columns too */
    ck_assert_int_eq(run_scn("all", LINK "\n" ARM, both, NULL, NULL), 0);
    char *text = sweep_slurp(both, NULL);
    ck_assert_msg(strstr(text, ",link.sigma_top,link.sigma_bot,link.sigma_mid,arm.sigma_root,arm.sigma_half\n"),
                  "%.300s", text);
    free(text);
    /* one way, with two: the vehicle's columns unchanged */
    ck_assert_int_eq(run_scn("plain", "columns x z x_dot z_dot", plain, NULL, NULL), 0);
    ck_assert_int_eq(run_scn("vehicle", LINK "\n" ARM "\ncolumns x z x_dot z_dot", vehicle, NULL, NULL), 0);
    ck_assert_msg(sweep_same_file(plain, vehicle), "%s and %s differ", plain, vehicle);
    sweep_rm_rf(g_dir);
}
END_TEST

START_TEST(names_and_layers)
{
    setup_model();
    char out[700], log[700];
    snprintf(out, sizeof out, "%s/bad.csv", g_dir);
    snprintf(log, sizeof log, "%s/bad.log", g_dir);
    /* the same name twice: both lines named, no results file */
    ck_assert_int_ne(run_scn("bad", LINK "\n" LINK, out, NULL, log), 0);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(text, "bad.scn:6: stress: a second component named 'link' (line 5 has one): give each its "
                               "own name, its columns are 'link.sigma_POINT'"),
                  "%s", text);
    free(text);
    ck_assert_int_ne(access(out, F_OK), 0);
    /* a column of neither component names the one it starts with */
    ck_assert_int_ne(run_scn("bad", LINK "\n" ARM "\ncolumns arm.sigma_tip", out, NULL, log), 0);
    text = sweep_slurp(log, NULL);
    ck_assert_msg(strstr(text, "bad.scn:7: unknown column 'arm.sigma_tip': the columns of stress arm are "
                               "arm.sigma_POINT, its points root, half (line 6)"),
                  "%s", text);
    free(text);
    /* --set over the scenario: 'link' replaced (its point 'mid' moved to
     * 0.025), 'arm' added; equal to the scenario that says so */
    char layered[700], direct[700];
    snprintf(layered, sizeof layered, "%s/layered.csv", g_dir);
    snprintf(direct, sizeof direct, "%s/direct.csv", g_dir);
    const char *link2 = "stress link body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0 load tip "
                        "at 0.5 point top at 0 fibre 0 0.02 point bot at 0 fibre 0 -0.02 point mid at 0.025";
    const char *const set[] = {link2, ARM};
    ck_assert_int_eq(run_scn("layered", LINK "\ncolumns x " LINK_COLS " " ARM_COLS, layered, set, NULL), 0);
    char scn2[2048];
    snprintf(scn2, sizeof scn2, "%s\n%s\ncolumns x " LINK_COLS " " ARM_COLS, link2, ARM);
    ck_assert_int_eq(run_scn("direct", scn2, direct, NULL, NULL), 0);
    ck_assert_msg(sweep_same_file(layered, direct), "%s and %s differ", layered, direct);
    sweep_rm_rf(g_dir);
}
END_TEST

START_TEST(mpi_ranks_identical)
{
    if (!rs_test_mpi_available("test_stress_multi"))
        return;
    setup_model();
    char scn[700], ref[700];
    scn_path(scn, sizeof scn, "both");
    snprintf(ref, sizeof ref, "%s/ref.csv", g_dir);
    ck_assert_int_eq(run_scn("both", LINK "\n" ARM "\ncolumns x z " LINK_COLS " " ARM_COLS, ref, NULL, NULL), 0);
    rs_test_mpi_run_equals(g_dir, g_model, scn, ref, 3, "stress link: 11 nodes");
    char log[700];
    snprintf(log, sizeof log, "%s/mpi3.log", g_dir);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(text && strstr(text, "stress arm: 7 nodes"), "%s", text ? text : "");
    free(text);
    sweep_rm_rf(g_dir);
}
END_TEST

int main(void)
{
    rs_test_mpi_allow_root();
    Suite *s = suite_create("stress_multi");
    TCase *tc = tcase_create("stress_multi");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, each_as_alone);
    tcase_add_test(tc, names_and_layers);
    tcase_add_test(tc, mpi_ranks_identical);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
