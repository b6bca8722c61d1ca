/*
 * test_stress_run.c — a component's stress model beside a run (`stress` in
 * the scenario, docs/coupled.md; issue 25) through `railsym run`:
 *
 *   - one way: the vehicle's columns are byte for byte the same with and
 *     without the stress model;
 *   - a cart pulled along −x at a = F/m, a round link clamped to it along
 *     x with a weight P at its tip, gravity on: after the start's
 *     transient has died away (the damping 2 ω₁), at the clamp the bending
 *     stress (σ_top − σ_bot)/2 = (P L + ρ A g L²/2) R / I (the lumped
 *     weights have the distributed weight's moment there) and on the axis
 *     at an element's middle σ = ρ a (L − s) (the mass beyond it pulled
 *     along), written here from beam theory;
 *   - `mpirun -np 1|2|3 --oversubscribe railsym run … --mpi`, with a
 *     thermal model beside it, gives the in-process results bit for bit;
 *   - a misspelt output, point or missing clamp is refused with file:line
 *     and the fix, before any result file.
 */
#define _GNU_SOURCE

#include <check.h>
#include <math.h>

#include "rs_test.h"
#include "rs_test_mpi.h"
#include "rs_test_scn.h"
#include "test_sweep_util.h"

static const char *kVdl =
    "# a cart pulled along -x, sprung vertically; a link clamped to it carries a tip load\n"
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
    "output p_d = c*z_d^2                      # W\n";

static const char *kBase = "duration 0.2\nstep 1e-3\noutput 0.01\nmethod rk4\n";

#define LINK "stress link body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0 load tip at 0.5 "
#define POINTS "point top at 0 fibre 0 0.02 point bot at 0 fibre 0 -0.02 point mid at 0.275"

static rs_test_scn g_scn;   /* the scratch folder, the cart compiled there */

static void setup_model(void) { rs_test_scn_setup(&g_scn, "stress", kBase, "cart", kVdl); }

static const char *const kQ[] = {"-q", NULL};
static const rs_test_scn_opts kQuiet = {.args = kQ};

START_TEST(one_way_changes_nothing)
{
    setup_model();
    char a[700], b[700];
    rs_test_scn_path(&g_scn, a, sizeof a, "plain", "csv");
    rs_test_scn_path(&g_scn, b, sizeof b, "stress", "csv");
    ck_assert_int_eq(rs_test_scn_run(&g_scn, "plain", "columns x z x_dot z_dot", kQuiet), 0);
    ck_assert_int_eq(rs_test_scn_run(&g_scn, "stress", LINK POINTS "\ncolumns x z x_dot z_dot", kQuiet), 0);
    ck_assert_msg(sweep_same_file(a, b), "%s and %s differ", a, b);
    /* and the stress columns were there to be had */
    ck_assert_int_eq(rs_test_scn_run(&g_scn, "stress", LINK POINTS "\ncolumns x z link.sigma_top", kQuiet), 0);
    char *text = sweep_slurp(b, NULL);
    ck_assert_msg(strncmp(text, "time,x,z,link.sigma_top\n", 24) == 0, "%s", text);
    free(text);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(cart_link_against_beam_theory)
{
    setup_model();
    char out[700], units[700];
    rs_test_scn_path(&g_scn, out, sizeof out, "cart", "csv");
    rs_test_scn_path(&g_scn, units, sizeof units, "cart.units", "csv");
    /* z at its equilibrium −m g / k: the cart only accelerates along x */
    ck_assert_int_eq(rs_test_scn_run(&g_scn, "cart",
                                     "initial z = -0.01\n" LINK POINTS
                                     "\ncolumns x link.sigma_top link.sigma_bot link.sigma_mid",
                                     kQuiet),
                     0);
    FILE *f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,x,link.sigma_top,link.sigma_bot,link.sigma_mid\n");
    double t, x, top = NAN, bot = NAN, mid = NAN;
    int rows = 0;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf\n", &t, &x, &top, &bot, &mid) == 5)
        if (rows++ == 0)
            ck_assert(top == 0 && bot == 0 && mid == 0);   /* it starts unstressed */
    fclose(f);
    ck_assert_int_eq(rows, 21);
    const double pi = 3.14159265358979323846, rho = 7850, R = 0.02, L = 0.5, A = pi * R * R;
    const double I = pi * R * R * R * R / 4, a = 200.0 / 50, P = 100, g = 9.81;
    const double bend = (P * L + rho * A * g * L * L / 2) * R / I, axial = rho * a * (L - 0.275);
    printf("cart link: bending %.9g Pa (beam theory %.9g), axial %.9g Pa (%.9g)\n", (top - bot) / 2, bend, mid,
           axial);
    ck_assert_msg(fabs((top - bot) / 2 / bend - 1) < 1e-6, "bending %g vs %g", (top - bot) / 2, bend);
    ck_assert_msg(fabs(mid / axial - 1) < 1e-6, "axial %g vs %g", mid, axial);
    char *text = sweep_slurp(units, NULL);
    ck_assert_msg(strstr(text, "\ns,,Pa,Pa,Pa\n") || strstr(text, "\ns,m,Pa,Pa,Pa\n"), "%s", text);
    free(text);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(refusals)
{
    setup_model();
    static const struct {
        const char *extra, *msg;
    } bad[] = {
        {"stress link body car from 0 0 0 to 0.5 0 0 section circle 0.02 fix 0",
         "bad.scn:5: stress link: unknown output 'car_v.x' for the frame's velocity (did you mean 'cart_v.x'?)"},
        {LINK "point top at 0\ncolumns link.sigma_tpo",
         "bad.scn:6: unknown column 'link.sigma_tpo': the columns of stress link are link.sigma_POINT, its points "
         "top (line 5)"},
        {"stress link body cart from 0 0 0 to 0.5 0 0 section circle 0.02",
         "bad.scn:5: stress: the component needs a clamped node to hold it in the body's frame: add 'fix S'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        rs_test_scn_refused(&g_scn, "bad", bad[i].extra, kQuiet, bad[i].msg);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(mpi_ranks_identical)
{
    if (!rs_test_mpi_available("test_stress_run"))
        return;
    setup_model();
    char scn[700], ref[700];
    rs_test_scn_path(&g_scn, scn, sizeof scn, "both", "scn");
    rs_test_scn_path(&g_scn, ref, sizeof ref, "ref", "csv");
    /* z oscillates (no 'initial'), and a damper's thermal grid runs beside it */
    ck_assert_int_eq(rs_test_scn_run(&g_scn, "both",
                                     LINK POINTS "\nthermal c power p_d beta 0.01 grid 6 6 6 length 0.05 radius 0.01 "
                                                 "bore 0.006\ncolumns x z link.sigma_top link.sigma_bot "
                                                 "link.sigma_mid c",
                                     (rs_test_scn_opts){.out = ref, .args = kQ}),
                     0);
    rs_test_mpi_run_equals(g_scn.dir, g_scn.model, scn, ref, 3, "stress link: 11 nodes");
    sweep_rm_rf(g_scn.dir);
}
END_TEST

int main(void)
{
    rs_test_mpi_allow_root();
    Suite *s = suite_create("stress_run");
    TCase *tc = tcase_create("stress");
    tcase_set_timeout(tc, 180);
    tcase_add_test(tc, one_way_changes_nothing);
    tcase_add_test(tc, cart_link_against_beam_theory);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, mpi_ranks_identical);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
