/*
 * test_stress_reaction.c — a closing constraint's force as a load of a
 * `stress` component (`load reaction CONSTRAINT at S`, docs/coupled.md;
 * issue 25).
 *
 * The mechanism: two links in the x-z plane, link1 pinned to ground at O
 * (th1), link2 pinned to link1's tip P1 (th2, relative), link2's tip P2
 * held at the ground point D by `constraint hold = pos(D, P2)`: no degree
 * of freedom left, the weights of the links held statically.  The coupler
 * link2 carries a round steel component from P1 (clamped: the reaction of
 * its own pin is the support) to P2, loaded by the constraint's force at
 * its tip.
 *
 *   - statics by hand (below, independent of the run): the moments of
 *     link2 about P1 and of both links about O give the force F of the
 *     constraint on link2 at P2; in link2's base F = (f1, 0, f3) and the
 *     cantilever of length L gives at the clamp σ = f1/A ∓ f3 L R / I at
 *     the top and bottom fibres, and f1/A on the side fibre at mid-span:
 *     the run's stresses after settling within 1e-6;
 *   - second formulations: the closure written the other way round,
 *     `pos(P2, D)` (λ changes sign, the fit finds the other end), and the
 *     same statics written in the .vdl as a vector output in link2's base
 *     and given as `load OUTPUT at S` to a second component beside the
 *     first: the same stresses (1e-9);
 *   - `mpirun -np 3 … --mpi` gives the in-process file bit for bit;
 *   - refusals with file:line and the fix: a constraint that does not act
 *     on the component's body (named with the bodies it joins), an unknown
 *     constraint (closest name), a vector constraint that is not the
 *     position difference of two body-fixed points, a scalar constraint.
 */
#define _GNU_SOURCE

#include <check.h>
#include <math.h>

#include "rs_status.h"
#include "rs_stress.h"
#include "rs_test.h"
#include "rs_test_mpi.h"
#include "rs_test_scn.h"
#include "test_sweep_util.h"

#define TH1 0.3
#define TH2 -1.2

/* %s: the closure (a constraint statement), then extra lines */
static const char *kVdl =
    "# two links pinned in a chain, the tip of the second held at a ground point\n"
    "param a = 1.0, b = 0.8, m1 = 2, m2 = 3, g = 9.81\n"
    "param th1_0 = 0.3, th2_0 = -1.2\n"
    "coord th1 = 0.3, th2 = -1.2\n"
    "base B1 = rotate(ground, y, th1)\n"
    "base B2 = rotate(B1, y, th2)\n"
    "point P1 = O + [a, 0, 0] in B1\n"
    "point P2 = P1 + [b, 0, 0] in B2\n"
    "point G1 = O + [a/2, 0, 0] in B1\n"
    "point G2 = P1 + [b/2, 0, 0] in B2\n"
    "point D = O + [a*cos(th1_0) + b*cos(th1_0 + th2_0), 0, -a*sin(th1_0) - b*sin(th1_0 + th2_0)] in ground\n"
    "body link1 mass m1 cg G1 inertia diag(0.01, m1*a^2/12, m1*a^2/12) in B1\n"
    "body link2 mass m2 cg G2 inertia diag(0.01, m2*b^2/12, m2*b^2/12) in B2\n"
    "gravity [0, 0, -g] in ground\n"
    "%s\n"
    "output link2_v = vel(P1) in B2\n"
    "output link2_w = omega(link2) in B2\n"
    "output link1_v = vel(O) in B1\n"
    "output link1_w = omega(link1) in B1\n"
    "%s";

/* The statics of the hand calculation in the test, written in the .vdl
 * (Cramer's rule on the two moment equations): the force on link2 at P2. */
static const char *kStaticsOutput =
    "output ux = b*cos(th1 + th2)\n"
    "output uz = -b*sin(th1 + th2)\n"
    "output r0 = -b/2*cos(th1 + th2)*m2*g\n"
    "output r1 = -(a*cos(th1)*m2*g + a/2*cos(th1)*m1*g)\n"
    "output det = -uz*a*cos(th1) + ux*(-a*sin(th1))\n"
    "output F_hold = [(-r0*a*cos(th1) + ux*r1)/det, 0, (uz*r1 - (-a*sin(th1))*r0)/det] in ground in B2\n";

static const char *kBase = "duration 0.25\nstep 1e-3\noutput 0.05\nmethod imex\ntolerance 1e-10\n";

#define COUPLER(NAME, LOAD)                                                                                      \
    "stress " NAME " body link2 from 0 0 0 to 0.8 0 0 section circle 0.01 elements 8 fix 0 load " LOAD       \
    " at 0.8 point top at 0 fibre 0 0.01 point bot at 0 fibre 0 -0.01 point side at 0.4 fibre 0.01 0 velocity " \
    "link2_v omega link2_w gravity none\n"

static rs_test_scn g_scn;   /* the scratch folder; its models are compiled by each test */

/* A fresh scratch folder for a test's models and runs. */
static void setup(void) { rs_test_scn_setup(&g_scn, "stress_reaction", kBase, NULL, NULL); }

/* Compiles the model NAME with the closure and extra lines. */
static void compile(const char *name, const char *closure, const char *extra)
{
    char text[4096];
    snprintf(text, sizeof text, kVdl, closure, extra);
    rs_test_compile(g_scn.dir, name, text);
}

/* Runs model MODEL with scenario kBase + extra (written to NAME.scn) into
 * NAME.csv; its log into NAME.log.  Returns the exit status. */
static int run_scn(const char *model, const char *name, const char *extra)
{
    return rs_test_scn_run(&g_scn, name, extra, (rs_test_scn_opts){.model = model});
}

/* The hand calculation: the force (Fx, Fz), ground, of the constraint on
 * link2 at P2, from the moment balances about the pins (y components,
 * (p × f)_y = p_z f_x − p_x f_z):
 *   link2 about P1:  u × F + (G2 − P1) × W2 = 0,         u = P2 − P1
 *   both about O:    P2 × F + G1 × W1 + G2 × W2 = 0     (the pin at O is
 *                    the only other force on the pair; equivalently link1
 *                    about O with the pin force −F − W2 of link2 at P1). */
static void statics(double *Fx, double *Fz)
{
    const double a = 1.0, b = 0.8, m1 = 2, m2 = 3, g = 9.81, th = TH1 + TH2;
    const double p1x = a * cos(TH1), p1z = -a * sin(TH1);
    const double ux = b * cos(th), uz = -b * sin(th);
    const double g1x = a / 2 * cos(TH1), g2x = p1x + b / 2 * cos(th);
    const double p2x = p1x + ux, p2z = p1z + uz;
    /* uz Fx − ux Fz = −(G2 − P1)_x m2 g;  p2z Fx − p2x Fz = −(g1x m1 + g2x m2) g   (W = −m g ez) */
    const double A00 = uz, A01 = -ux, A10 = p2z, A11 = -p2x;
    const double r0 = -(g2x - p1x) * m2 * g, r1 = -(g1x * m1 + g2x * m2) * g;
    const double det = A00 * A11 - A01 * A10;
    *Fx = (r0 * A11 - A01 * r1) / det;
    *Fz = (A00 * r1 - A10 * r0) / det;
}

START_TEST(statics_by_hand)
{
    setup();
    compile("two", "constraint hold = pos(D, P2)", "");
    ck_assert_int_eq(run_scn("two", "two", COUPLER("coupler", "reaction hold")
                                           "columns th1 th2 coupler.sigma_top coupler.sigma_bot coupler.sigma_side"),
                     0);
    double x[5];
    rs_test_scn_last_row(&g_scn, "two", x, 5);
    ck_assert_msg(x[0] == TH1 && x[1] == TH2, "the mechanism moved: %.17g %.17g", x[0], x[1]);
    double Fx, Fz;
    statics(&Fx, &Fz);
    const double pi = 3.14159265358979323846, th = TH1 + TH2, R = 0.01, L = 0.8;
    const double A = pi * R * R, I = pi * R * R * R * R / 4;
    /* link2's base: e1 = (cos th, 0, −sin th), e3 = (sin th, 0, cos th) */
    const double f1 = Fx * cos(th) - Fz * sin(th), f3 = Fx * sin(th) + Fz * cos(th);
    const double top = f1 / A - f3 * L * R / I, bot = f1 / A + f3 * L * R / I, side = f1 / A;
    printf("two links: F = (%.9g, %.9g) N; top %.9g Pa (hand %.9g), bot %.9g (%.9g), side %.9g (%.9g)\n", Fx, Fz,
           x[2], top, x[3], bot, x[4], side);
    ck_assert_msg(fabs(x[2] / top - 1) < 1e-6, "top %.9g vs %.9g", x[2], top);
    ck_assert_msg(fabs(x[3] / bot - 1) < 1e-6, "bot %.9g vs %.9g", x[3], bot);
    ck_assert_msg(fabs(x[4] / side - 1) < 1e-6, "side %.9g vs %.9g", x[4], side);
    /* the summary says where the fit found the force to act: P2, b/2 ahead of link2's centre of mass */
    char *text = rs_test_scn_read(&g_scn, "two", "log");
    ck_assert_msg(strstr(text, "reaction hold from ground: -lambda at [0.4, 0, "), "%s", text);
    free(text);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(second_formulations)
{
    setup();
    compile("two", "constraint hold = pos(D, P2)", kStaticsOutput);
    compile("rev", "constraint hold = pos(P2, D)", "");
    const char *cols = "columns lambda_hold.x lambda_hold.z c1.sigma_top c1.sigma_bot c1.sigma_side";
    char scn[2048];
    snprintf(scn, sizeof scn, "%s%s%s c2.sigma_top c2.sigma_bot c2.sigma_side", COUPLER("c1", "reaction hold"),
             COUPLER("c2", "F_hold"), cols);
    ck_assert_int_eq(run_scn("two", "two", scn), 0);
    snprintf(scn, sizeof scn, "%s%s", COUPLER("c1", "reaction hold"), cols);
    ck_assert_int_eq(run_scn("rev", "rev", scn), 0);
    double x[8], y[5];
    rs_test_scn_last_row(&g_scn, "two", x, 8);
    rs_test_scn_last_row(&g_scn, "rev", y, 5);
    ck_assert_msg(x[0] != 0 && fabs(y[0] / x[0] + 1) < 1e-9 && fabs(y[1] / x[1] + 1) < 1e-9,
                  "the reversed closure's multipliers: %g %g vs %g %g", y[0], y[1], x[0], x[1]);
    for (int i = 0; i < 3; i++) {
        ck_assert_msg(fabs(y[2 + i] / x[2 + i] - 1) < 1e-9, "pos(P2, D), point %d: %.12g vs %.12g", i, y[2 + i],
                      x[2 + i]);
        ck_assert_msg(fabs(x[5 + i] / x[2 + i] - 1) < 1e-9, "the output formulation, point %d: %.12g vs %.12g", i,
                      x[5 + i], x[2 + i]);
    }
    char *text = rs_test_scn_read(&g_scn, "rev", "log");
    ck_assert_msg(strstr(text, "reaction hold from ground: +lambda at [0.4, 0, "), "%s", text);
    free(text);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(mpi_three_ranks)
{
    if (!rs_test_mpi_available("test_stress_reaction")) {
        return;
    }
    setup();
    compile("two", "constraint hold = pos(D, P2)", "");
    ck_assert_int_eq(run_scn("two", "two", COUPLER("coupler", "reaction hold") "columns coupler.sigma_top"), 0);
    char scn[700], model[700], ref[700];
    rs_test_scn_path(&g_scn, scn, sizeof scn, "two", "scn");
    snprintf(model, sizeof model, "%s/two", g_scn.dir);
    rs_test_scn_path(&g_scn, ref, sizeof ref, "two", "csv");
    rs_test_mpi_run_equal(g_scn.dir, model, scn, ref, 3, "stress coupler: 9 nodes");
    sweep_rm_rf(g_scn.dir);
}
END_TEST

START_TEST(refusals)
{
    setup();
    compile("two", "constraint hold = pos(D, P2)", "");
    /* a vector closure that is not a difference of body-fixed points: the
     * same configuration, a ground point that moves with th1 */
    compile("odd", "constraint hold = pos(D, P2) + [0, 0, 0.1*(th1 - th1_0)] in ground", "");
    /* a scalar constraint: link2 held at its angle */
    compile("lock", "constraint lock = th2 - th2_0\nconstraint fix1 = th1 - th1_0", "");
    static const struct {
        const char *model, *extra, *msg;
    } bad[] = {
        {"two",
         "stress arm body link1 from 0 0 0 to 1 0 0 section circle 0.01 elements 4 fix 0 load reaction hold at 1 "
         "velocity link1_v omega link1_w gravity none",
         "bad.scn:6: stress arm: constraint 'hold' joins link2 and ground, not body link1: a reaction load is the "
         "force of a constraint on the component's own body (the reaction of link1's joint to its parent is the "
         "'fix' support)"},
        {"two", COUPLER("coupler", "reaction hlod"),
         "bad.scn:6: stress coupler: unknown constraint 'hlod' for a reaction load (did you mean 'hold'?)"},
        {"odd", COUPLER("coupler", "reaction hold"),
         "bad.scn:6: stress coupler: constraint 'hold' is not the position difference of two points fixed on "
         "bodies (ground components, 'constraint hold = pos(A, P)'): its reaction on link2 is not a force at one "
         "point; give it as a vector output with 'load OUTPUT at S'"},
        {"lock", COUPLER("coupler", "reaction lock"),
         "bad.scn:6: stress coupler: constraint 'lock' is not a vector closing constraint (rows lock.x/.y/.z): "
         "'load reaction' takes one written 'constraint lock = pos(A, P)' in the .vdl; give another force as a "
         "vector output with 'load OUTPUT at S'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        rs_test_scn_refused(&g_scn, "bad", bad[i].extra, (rs_test_scn_opts){.model = bad[i].model}, bad[i].msg);
    sweep_rm_rf(g_scn.dir);
}
END_TEST

/* The statement's forms: `load reaction NAME at S`; an output that is
 * itself named reaction stays an output; a reaction without a name. */
START_TEST(statement_forms)
{
    const char *tok[] = {"stress", "c", "body", "link2", "from", "0", "0", "0", "to", "1", "0", "0", "section",
                         "circle", "0.01", "elements", "4", "fix", "0", "load", "reaction", "hold", "at", "1",
                         "load", "reaction", "at", "0.5", "load", "F", "at", "0.25"};
    const int n = (int)(sizeof tok / sizeof tok[0]);
    rs_stress_spec s;
    char err[512];
    ck_assert_int_eq(rs_stress_spec_parse(tok, n, "c.scn", 2, &s, err, sizeof err), RS_OK);
    ck_assert_int_eq(s.n_load, 3);
    ck_assert(s.load[0].reaction && strcmp(s.load[0].output, "hold") == 0 && s.load[0].s == 1);
    ck_assert(!s.load[1].reaction && strcmp(s.load[1].output, "reaction") == 0 && s.load[1].s == 0.5);
    ck_assert(!s.load[2].reaction && strcmp(s.load[2].output, "F") == 0);
    const char *bad[] = {"stress", "c", "body", "link2", "from", "0", "0", "0", "to", "1", "0", "0", "section",
                         "circle", "0.01", "fix", "0", "load", "reaction", "hold", "1"};
    ck_assert_int_ne(rs_stress_spec_parse(bad, 21, "c.scn", 2, &s, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, "c.scn:2: stress: 'load' needs an output and a position: 'load OUT at S' or 'load "
                              "reaction CONSTRAINT at S'"),
                  "%s", err);
}
END_TEST

int main(void)
{
    rs_test_mpi_allow_root();
    Suite *s = suite_create("stress_reaction");
    TCase *tc = tcase_create("stress_reaction");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, statement_forms);
    tcase_add_test(tc, statics_by_hand);
    tcase_add_test(tc, second_formulations);
    tcase_add_test(tc, mpi_three_ranks);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
