/*
 * test_stress_frame.c — a frame component: members in several directions
 * joined at shared nodes (`member NAME from … to …`, positions MEMBER:S;
 * docs/coupled.md "Frames"; issue 25).  A cart at rest (no pull, on its
 * spring at equilibrium) carries:
 *
 *   - an L: member a along x (1 m) clamped at a:0, member b along y
 *     (0.6 m) from a's tip, the tip load P at b's end, the frame's own
 *     weight on.  Statics by hand: at the clamp the bending moment about y
 *     is P La + w La²/2 + w Lb La (w = ρ A g), at b's root P Lb + w Lb²/2
 *     (the torsion of a changes neither); σ = M R / I at the top fibres,
 *     within 1e-6 after settling — the load goes round the corner;
 *   - an H (a bogie frame's plan): two side beams clamped at both ends,
 *     joined by two cross beams, the same load P at each side beam's
 *     middle: by symmetry the cross beams move rigidly (each end the same
 *     deflection and slope), so each side beam is a clamped-clamped beam
 *     with a central load: σ_top = +P L R/(8 I) at the ends, −P L R/(8 I) at
 *     the middle (1e-6); the cross beams' stress is 0 (1e-9 of it);
 *   - a second formulation: the cart example's straight link written as a
 *     frame of two collinear members gives the chain's stresses (1e-9), and
 *     so does a swinging arm (a rotating, accelerating frame);
 *   - `mpirun -np 2` runs a frame on rank 0: the in-process file;
 *   - refusals with file:line and the fix: a member's end between another
 *     member's nodes, a member joined to nothing, a position without its
 *     member.
 */
#define _GNU_SOURCE

#include <check.h>
#include <math.h>

#include "rs_test.h"
#include "rs_test_mpi.h"
#include "rs_test_scn.h"
#include "test_sweep_util.h"

static const char *kVdl =
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
    "output tip = [0, 0, -P] in ground         # N\n";

/* at rest: no pull, z at its equilibrium −m g / k */
static const char *kBase = "duration 0.3\nstep 1e-3\noutput 0.05\nmethod rk4\nparam F = 0\ninitial z = -0.01\n";

static rs_test_scn g_scn;   /* the scratch folder, the cart compiled there */

static void setup_model(void) { rs_test_scn_setup(&g_scn, "stress_frame", kBase, "cart", kVdl); }

/* Scenario NAME = kBase + extra, run into NAME.csv, log NAME.log. */
static int run_scn(const char *name, const char *extra)
{
    return rs_test_scn_run(&g_scn, name, extra, (rs_test_scn_opts){0});
}

static const double kPi = 3.14159265358979323846, kR = 0.02, kP = 100;

START_TEST(l_frame_statics)
{
    setup_model();
    ck_assert_int_eq(run_scn("ell", "stress ell body cart member a from 0 0 0 to 1 0 0 elements 10 member b from 1 0 0 "
                                    "to 1 0.6 0 elements 6 section circle 0.02 damping 160 fix a:0 load tip at b:0.6 "
                                    "point top at a:0 fibre 0 0.02 point bot at a:0 fibre 0 -0.02 point corner at "
                                    "b:0 fibre 0 0.02\n"
                                    "columns ell.sigma_top ell.sigma_bot ell.sigma_corner"),
                     0);
    double x[3];
    rs_test_scn_last_row(&g_scn, "ell", x, 3);
    const double I = kPi * kR * kR * kR * kR / 4, w = 7850 * kPi * kR * kR * 9.81, La = 1, Lb = 0.6;
    const double top = (kP * La + w * La * La / 2 + w * Lb * La) * kR / I, corner = (kP * Lb + w * Lb * Lb / 2) * kR / I;
    printf("L frame: clamp %.10g Pa (hand %.10g), corner %.10g Pa (hand %.10g)\n", x[0], top, x[2], corner);
    ck_assert_msg(fabs(x[0] / top - 1) < 1e-6, "clamp top %.10g vs %.10g", x[0], top);
    ck_assert_msg(fabs(x[1] / -top - 1) < 1e-6, "clamp bottom %.10g vs %.10g", x[1], -top);
    ck_assert_msg(fabs(x[2] / corner - 1) < 1e-6, "corner %.10g vs %.10g", x[2], corner);
    char *text = rs_test_scn_read(&g_scn, "ell", "log");
    ck_assert_msg(strstr(text, "stress ell: 17 nodes"), "%s", text);   /* 11 + 7, one shared */
    free(text);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(h_frame_symmetric)
{
    setup_model();
    /* side beams along x at y = ±0.9 (2.4 m, nodes 0.3 m apart), cross beams along y at x = 0.9 and 1.5 */
    ck_assert_int_eq(
        run_scn("h", "stress bogie body cart section rect 0.04 0.03 gravity none damping 200 "
                     "member left from 0 0.9 0 to 2.4 0.9 0 elements 8 member right from 0 -0.9 0 to 2.4 -0.9 0 "
                     "elements 8 member front from 0.9 0.9 0 to 0.9 -0.9 0 elements 6 member rear from 1.5 0.9 0 to "
                     "1.5 -0.9 0 elements 6 fix left:0 fix left:2.4 fix right:0 fix right:2.4 load tip at left:1.2 "
                     "load tip at right:1.2 point lend at left:0 fibre 0 0.015 point lmid at left:1.2 fibre 0 0.015 "
                     "point rend at right:2.4 fibre 0 0.015 point cross at front:0.45 fibre 0 0.015\n"
                     "columns bogie.sigma_lend bogie.sigma_lmid bogie.sigma_rend bogie.sigma_cross"),
        0);
    double x[4];
    rs_test_scn_last_row(&g_scn, "h", x, 4);
    const double I2 = 0.04 * 0.03 * 0.03 * 0.03 / 12, L = 2.4, edge = kP * L / 8 * 0.015 / I2;
    printf("H frame: end %.10g, middle %.10g, other end %.10g Pa (hand +-%.10g); cross beam %.3g Pa\n", x[0], x[1],
           x[2], edge, x[3]);
    ck_assert_msg(fabs(x[0] / edge - 1) < 1e-6, "end %.10g vs %.10g", x[0], edge);
    ck_assert_msg(fabs(x[1] / -edge - 1) < 1e-6, "middle %.10g vs %.10g", x[1], -edge);
    ck_assert_msg(fabs(x[2] / edge - 1) < 1e-6, "other end %.10g vs %.10g", x[2], edge);
    ck_assert_msg(fabs(x[3]) < 1e-9 * edge, "the cross beam carries %g Pa", x[3]);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(collinear_members_are_the_chain)
{
    setup_model();
    const char *pts = "point top at %s0 fibre 0 0.02 point bot at %s0 fibre 0 -0.02 point mid at %s0.275 fibre 0 0.02\n"
                      "columns link.sigma_top link.sigma_bot link.sigma_mid";
    char chain[1024], frame[1024], p1[512], p2[512];
    snprintf(p1, sizeof p1, pts, "", "", "");
    snprintf(p2, sizeof p2, pts, "p:", "p:", "p:");
    snprintf(chain, sizeof chain,
             "stress link body cart from 0 0 0 to 0.5 0 0 section circle 0.02 elements 10 fix 0 load tip at 0.5 %s",
             p1);
    /* the same link as two members, the point 'mid' on the first of them: a 0.3 m member p and 0.2 m member q */
    snprintf(frame, sizeof frame,
             "stress link body cart section circle 0.02 member p from 0 0 0 to 0.3 0 0 elements 6 member q from "
             "0.3 0 0 to 0.5 0 0 elements 4 fix p:0 load tip at q:0.2 %s",
             p2);
    ck_assert_int_eq(run_scn("chain", chain), 0);
    ck_assert_int_eq(run_scn("frame", frame), 0);
    double a[3], b[3];
    rs_test_scn_last_row(&g_scn, "chain", a, 3);
    rs_test_scn_last_row(&g_scn, "frame", b, 3);
    double worst = 0;
    for (int i = 0; i < 3; i++) {
        ck_assert_msg(fabs(b[i] / a[i] - 1) < 1e-9, "point %d: frame %.12g, chain %.12g", i, b[i], a[i]);
        worst = fmax(worst, fabs(b[i] / a[i] - 1));
    }
    printf("collinear members: %.10g %.10g %.10g Pa, the chain's within %.2g\n", b[0], b[1], b[2], worst);
    /* and over mpirun -np 2 (the frame on rank 0) the same file */
    if (!rs_test_mpi_available("test_stress_frame")) {
        sweep_rm_rf(g_scn.dir);
        return;
    }
    char scn[700], ref[700];
    rs_test_scn_path(&g_scn, scn, sizeof scn, "frame", "scn");
    rs_test_scn_path(&g_scn, ref, sizeof ref, "frame", "csv");
    rs_test_mpi_run_equal(g_scn.dir, g_scn.model, scn, ref, 2, "stress link: 11 nodes");   /* 7 + 5, one shared */
    sweep_rm_rf(g_scn.dir);
}
END_TEST

/* A swinging arm (its frame rotates and accelerates: ω, α and the
 * centrifugal terms, the rotary inertia) as a chain and as a frame of two
 * collinear members, the same damping: the same stresses. */
START_TEST(swinging_arm_frame_is_the_chain)
{
    rs_test_scn_setup(&g_scn, "stress_frame", "duration 0.3\nstep 1e-3\noutput 0.05\nmethod rk4\n", "pend",
                      "param m = 5, L = 1, g = 9.81\n"
                      "coord th = 0.8\n"
                      "base B = rotate(ground, y, th)\n"
                      "point G = O + [L/2, 0, 0] in B\n"
                      "body arm mass m cg G inertia diag(0.01, m*L^2/12, m*L^2/12) in B\n"
                      "gravity [0, 0, -g] in ground\n"
                      "output arm_v = vel(O) in B\n"
                      "output arm_omega = omega(arm) in B\n"
                      "output arm_g = [0, 0, -g] in ground in B\n");
    static const char *const quiet[] = {"-q", NULL};
    static const char *const stmt[2] = {
        "stress s body arm from 0 0 0 to 1 0 0 section circle 0.02 damping 364 elements 10 fix 0 point top at 0 "
        "fibre 0 0.02 point side at 0.3 fibre 0.02 0 point ax at 0.45",
        "stress s body arm section circle 0.02 damping 364 member p from 0 0 0 to 0.4 0 0 elements 4 member q from "
        "0.4 0 0 to 1 0 0 elements 6 fix p:0 point top at p:0 fibre 0 0.02 point side at p:0.3 fibre 0.02 0 point "
        "ax at q:0.05"};
    double x[2][4];
    for (int k = 0; k < 2; k++) {
        char name[16], extra[1024];
        snprintf(name, sizeof name, "arm%d", k);
        snprintf(extra, sizeof extra, "%s\ncolumns th s.sigma_top s.sigma_side s.sigma_ax", stmt[k]);
        ck_assert_int_eq(rs_test_scn_run(&g_scn, name, extra, (rs_test_scn_opts){.args = quiet}), 0);
        rs_test_scn_last_row(&g_scn, name, x[k], 4);
    }
    ck_assert_msg(x[0][0] > 1.2, "the arm did not swing: th %g", x[0][0]);
    double worst = 0;
    for (int i = 1; i < 4; i++) {
        ck_assert_msg(x[0][i] != 0 && fabs(x[1][i] / x[0][i] - 1) < 1e-9, "point %d: frame %.12g, chain %.12g", i,
                      x[1][i], x[0][i]);
        worst = fmax(worst, fabs(x[1][i] / x[0][i] - 1));
    }
    printf("swinging arm: frame = chain within %.2g\n", worst);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(refusals)
{
    setup_model();
    static const struct {
        const char *extra, *msg;
    } bad[] = {
        {"stress t body cart section circle 0.02 member a from 0 0 0 to 1 0 0 elements 4 member b from 0.3 0 0 to "
         "0.3 0.5 0 elements 2 fix a:0",
         "bad.scn:7: stress t: member b's end lies on member a at 0.3 m, between its nodes (0.25 m apart): choose "
         "a's 'elements' so that a node lies there"},
        {"stress t body cart section circle 0.02 member a from 0 0 0 to 1 0 0 elements 4 member b from 0 1 0 to 1 "
         "1 0 elements 4 fix a:0 fix b:0",
         "bad.scn:7: stress t: member b is not joined to member a (members join where their nodes coincide): move "
         "its ends onto nodes of the others"},
        {"stress t body cart section circle 0.02 member a from 0 0 0 to 1 0 0 elements 4 fix 0",
         "bad.scn:7: stress: fix at 0: in a frame, say on which member: 'fix MEMBER:S'"},
        {"stress t body cart section circle 0.02 fix a:0 member a from 0 0 0 to 1 0 0",
         "bad.scn:7: stress: fix at 'a:0': no member 'a' declared before it; write 'member a from X Y Z to X Y Z' "
         "earlier in the statement"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        rs_test_scn_refused(&g_scn, "bad", bad[i].extra, (rs_test_scn_opts){0}, bad[i].msg);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

int main(void)
{
    rs_test_mpi_allow_root();
    Suite *s = suite_create("stress_frame");
    TCase *tc = tcase_create("stress_frame");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, l_frame_statics);
    tcase_add_test(tc, h_frame_symmetric);
    tcase_add_test(tc, collinear_members_are_the_chain);
    tcase_add_test(tc, swinging_arm_frame_is_the_chain);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
