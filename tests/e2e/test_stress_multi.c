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
#include "rs_test_scn.h"
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

static rs_test_scn g_scn;   /* the scratch folder, the cart compiled there */

static void setup_model(void) { rs_test_scn_setup(&g_scn, "stress_multi", kBase, "cart", kVdl); }

static const char *const kQ[] = {"-q", NULL};
static const rs_test_scn_opts kQuiet = {.args = kQ};

/* Writes scenario NAME (kBase + extra); runs it quietly to OUT with
 * set[0], set[1] as --set statements (set NULL: none), its log NAME.log;
 * 0 when ok. */
static int run_scn(const char *name, const char *extra, const char *out, const char *const *set)
{
    const char *args[] = {"-q", set ? "--set" : NULL, set ? set[0] : NULL, "--set", set ? set[1] : NULL, NULL};
    return rs_test_scn_run(&g_scn, name, extra, (rs_test_scn_opts){.out = out, .args = args});
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
    rs_test_scn_path(&g_scn, both, sizeof both, "both", "csv");
    rs_test_scn_path(&g_scn, link, sizeof link, "link", "csv");
    rs_test_scn_path(&g_scn, arm, sizeof arm, "arm", "csv");
    rs_test_scn_path(&g_scn, plain, sizeof plain, "plain", "csv");
    rs_test_scn_path(&g_scn, vehicle, sizeof vehicle, "vehicle", "csv");
    ck_assert_int_eq(run_scn("both", LINK "\n" ARM "\ncolumns x z " LINK_COLS " " ARM_COLS, both, NULL), 0);
    ck_assert_int_eq(run_scn("link", LINK "\ncolumns x " LINK_COLS, link, NULL), 0);
    ck_assert_int_eq(run_scn("arm", ARM "\ncolumns z " ARM_COLS, arm, NULL), 0);
    static const char *const lc[] = {"link.sigma_top", "link.sigma_bot", "link.sigma_mid"};
    static const char *const ac[] = {"arm.sigma_root", "arm.sigma_half"};
    for (int i = 0; i < 3; i++)
        same_column(both, link, lc[i]);
    for (int i = 0; i < 2; i++)
        same_column(both, arm, ac[i]);
    /* the header names both, statement by statement, without columns too */
    ck_assert_int_eq(run_scn("all", LINK "\n" ARM, both, NULL), 0);
    char *text = sweep_slurp(both, NULL);
    ck_assert_msg(strstr(text, ",link.sigma_top,link.sigma_bot,link.sigma_mid,arm.sigma_root,arm.sigma_half\n"),
                  "%.300s", text);
    free(text);
    /* one way, with two: the vehicle's columns unchanged */
    ck_assert_int_eq(run_scn("plain", "columns x z x_dot z_dot", plain, NULL), 0);
    ck_assert_int_eq(run_scn("vehicle", LINK "\n" ARM "\ncolumns x z x_dot z_dot", vehicle, NULL), 0);
    ck_assert_msg(sweep_same_file(plain, vehicle), "%s and %s differ", plain, vehicle);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(names_and_layers)
{
    setup_model();
    /* the same name twice: both lines named, no results file */
    rs_test_scn_refused(&g_scn, "bad", LINK "\n" LINK, kQuiet,
                        "bad.scn:6: stress: a second component named 'link' (line 5 has one): give each its own name, "
                        "its columns are 'link.sigma_POINT'");
    /* a column of neither component names the one it starts with */
    rs_test_scn_refused(&g_scn, "bad", LINK "\n" ARM "\ncolumns arm.sigma_tip", kQuiet,
                        "bad.scn:7: unknown column 'arm.sigma_tip': the columns of stress arm are arm.sigma_POINT, its "
                        "points root, half (line 6)");
    /* --set over the scenario: 'link' replaced (its point 'mid' moved to
     * 0.025), 'arm' added; equal to the scenario that says so */
    char layered[700], direct[700];
    rs_test_scn_path(&g_scn, layered, sizeof layered, "layered", "csv");
    rs_test_scn_path(&g_scn, direct, sizeof direct, "direct", "csv");
    const char *link2 = "stress link body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0 load tip "
                        "at 0.5 point top at 0 fibre 0 0.02 point bot at 0 fibre 0 -0.02 point mid at 0.025";
    const char *const set[] = {link2, ARM};
    ck_assert_int_eq(run_scn("layered", LINK "\ncolumns x " LINK_COLS " " ARM_COLS, layered, set), 0);
    char scn2[2048];
    snprintf(scn2, sizeof scn2, "%s\n%s\ncolumns x " LINK_COLS " " ARM_COLS, link2, ARM);
    ck_assert_int_eq(run_scn("direct", scn2, direct, NULL), 0);
    ck_assert_msg(sweep_same_file(layered, direct), "%s and %s differ", layered, direct);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(mpi_ranks_identical)
{
    if (!rs_test_mpi_available("test_stress_multi"))
        return;
    setup_model();
    char scn[700], ref[700];
    rs_test_scn_path(&g_scn, scn, sizeof scn, "both", "scn");
    rs_test_scn_path(&g_scn, ref, sizeof ref, "ref", "csv");
    ck_assert_int_eq(run_scn("both", LINK "\n" ARM "\ncolumns x z " LINK_COLS " " ARM_COLS, ref, NULL), 0);
    rs_test_mpi_run_equals(g_scn.dir, g_scn.model, scn, ref, 3, "stress link: 11 nodes");
    char *text = rs_test_scn_read(&g_scn, "mpi3", "log");
    ck_assert_msg(text && strstr(text, "stress arm: 7 nodes"), "%s", text ? text : "");
    free(text);
    sweep_rm_rf(g_scn.dir);
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
