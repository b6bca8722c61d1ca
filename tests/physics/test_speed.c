/*
 * test_speed.c — the scenario line `speed V` (runtime/app/rs_speed.h) and
 * the track-relative result columns "<wheel body>.<q>_track"
 * (runtime/app/rs_track_rel.h); docs/scenario.md, "Running speed" and
 * "Track-relative results".
 *
 *   - straight track: `speed 30` on the S1002/60E1 wheelset starts rolling
 *     without slip (longitudinal creepages of the first rows near 0, where
 *     the nominal V / r0 leaves a slip of (r0 − r)/r0 and a jolt), and the
 *     run is byte-identical to the run with the hand-written `initial`
 *     lines of the velocities it set; the rolling radius V / ω it chose is
 *     the one the free run settles to (a second formulation: the dynamics);
 *   - a canted circular curve (the track file written here: R 300 m right,
 *     100 mm cant on 1.5 m, from the origin heading 0, so by hand
 *     c(s) = (R sin(s/R), −R(1 − cos(s/R))), ψ = −s/R, θ = asin(0.1/1.5)):
 *     the bogie's bodies start on the track with its heading and cant, yaw
 *     rate −V/R, the wheelsets' centres at R − h sin θ from the circle's
 *     centre (h their height along the canted up axis), their track-relative
 *     y, yaw, roll 0 where the ground values show the curve and the cant;
 *   - the transform alone: a wheelset put by hand at a known offset and
 *     rotation from the canted track frame (built here from R and θ) reads
 *     back that offset and rotation;
 *   - errors: file:line and the fix; a vehicle whose bodies the track does not
 *     reach: on a straight with a lateral irregularity from s = 0 (not
 *     straight, so `speed` places the bodies) the bogie at x = 0 has its
 *     rear wheelset at s = −1.28 m: refused naming that wheel body, its s,
 *     the track's start and the fix (the landing check's message blamed the
 *     model's coordinates before); past the end the same; and the elastic
 *     contact stops a wheel that runs more than 1 m past the track's end
 *     (RS_E_OFFTRACK naming contact, distance and fix; it ran on the end's
 *     cross-section silently before).
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_contact.h"
#include "rs_driver.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_track_rel.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_test_scn.h"

#define R_CURVE 300.0
#define CANT_H 0.100      /* m, on cant_base 1.5 m */
#define CANT_BASE 1.5

static char err[4000];
static char dir[] = "/tmp/rs_speed_XXXXXX";

static void write_file(const char *name, const char *text) { rs_test_write(dir, name, text); }

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file("arc.trk", "railsym-track 1\nname arc\ngauge 1.435\ninclination 1:40\ncant_base 1.500\n"
                          "curve 800 radius 300 right cant 100 mm\n");
}

static rs_test_csv tab_a, tab_b;

static void teardown(void)
{
    rs_test_csv_free(&tab_a);
    rs_test_csv_free(&tab_b);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(dir, "/tmp/rs_speed_XXXXXX");
}

/* Runs model folder `model` with scenario text `scn` (written as NAME)
 * into NAME.csv; returns the status (the message in err). */
static int run(const char *model, const char *name, const char *scn)
{
    return rs_test_drive_in(dir, name, scn, model, NULL, 0, err, sizeof err);
}

static void read_csv(const char *name, rs_test_csv *t) { rs_test_csv_read(t, "%s/%s.csv", dir, name); }

static double col(const rs_test_csv *t, int row, const char *name) { return rs_test_csv_at(t, row, name); }

/* 1 when the two results have the same bytes. */
static int same_file(const char *a, const char *b)
{
    char pa[600], pb[600];
    snprintf(pa, sizeof pa, "%s/%s.csv", dir, a);
    snprintf(pb, sizeof pb, "%s/%s.csv", dir, b);
    return sweep_same_file(pa, pb);
}

#define COLS "columns x x_dot spin_dot y yaw left.xi_x right.xi_x\n"

START_TEST(straight_rolls_without_slip)
{
    const double V = 30;
    ck_assert_msg(run("generated/wheelset", "speed.scn", "duration 0.1\nstep 1e-4\noutput 0.001\nspeed 30\n" COLS) ==
                      RS_OK, "%s", err);
    read_csv("speed.scn", &tab_a);
    const double w0 = col(&tab_a, 0, "spin_dot");
    ck_assert_double_eq(col(&tab_a, 0, "x_dot"), V);
    /* the nominal radius r0 = 0.45 m: S1002 on 60E1 1:40 touches a little
     * off its taping line, so the chosen radius differs, but by < 1 mm */
    const double r = V / w0;
    printf("speed 30: spin %.12f rad/s, rolling radius %.9f m (r0 0.45)\n", w0, r);
    ck_assert_msg(fabs(r - 0.45) < 1e-3 && fabs(r - 0.45) > 1e-6, "r = %.9f", r);
    /* no slip at the start: |ξ_x| of the first rows below 1e-7 (the slip
     * V / r0 leaves is (r0 − r)/r0, about 2e-4 here); with it the creep
     * force stays below ~C ξ ≈ 1 N on 1250 kg: the speed holds to 1e-4 m/s
     * over the 0.1 s */
    for (int i = 1; i <= 5; i++)
        ck_assert_msg(fabs(col(&tab_a, i, "left.xi_x")) < 1e-7 && fabs(col(&tab_a, i, "right.xi_x")) < 1e-7,
                      "row %d: xi_x %g %g", i, col(&tab_a, i, "left.xi_x"), col(&tab_a, i, "right.xi_x"));
    for (int i = 0; i < tab_a.nrow; i++)
        ck_assert_msg(fabs(col(&tab_a, i, "x_dot") - V) < 1e-4, "t %g: x_dot %.9f", col(&tab_a, i, "time"),
                      col(&tab_a, i, "x_dot"));
    /* the radius the free run settles to (x_dot / spin_dot at the end) */
    const int last = tab_a.nrow - 1;
    const double r_end = col(&tab_a, last, "x_dot") / col(&tab_a, last, "spin_dot");
    ck_assert_msg(fabs(r_end - r) < 1e-8, "settled radius %.12f vs %.12f", r_end, r);

    /* the hand-written equivalent: the same bytes */
    char text[600];
    snprintf(text, sizeof text, "duration 0.1\nstep 1e-4\noutput 0.001\ninitial x_dot = 30\ninitial spin_dot = %.17g\n"
             COLS, w0);
    ck_assert_msg(run("generated/wheelset", "hand.scn", text) == RS_OK, "%s", err);
    ck_assert(same_file("speed.scn", "hand.scn"));

    /* the nominal V / r0 by hand: the slip and the jolt this test would
     * catch (so the checks above can fail) */
    snprintf(text, sizeof text, "duration 0.01\nstep 1e-4\noutput 0.001\ninitial x_dot = 30\ninitial spin_dot = %.17g\n"
             COLS, V / 0.45);
    ck_assert_msg(run("generated/wheelset", "nominal.scn", text) == RS_OK, "%s", err);
    read_csv("nominal.scn", &tab_b);
    ck_assert_msg(fabs(col(&tab_b, 1, "left.xi_x")) > 1e-5, "nominal slip %g", col(&tab_b, 1, "left.xi_x"));
    ck_assert_msg(fabs(col(&tab_b, 10, "x_dot") - V) > 1e-4, "nominal x_dot %.9f", col(&tab_b, 10, "x_dot"));
}
END_TEST

/* An `initial` line in a lower layer (the model's default.scn sets every
 * velocity to 0) is overridden; one in the same file is a contradiction. */
START_TEST(precedence_and_errors)
{
    ck_assert_int_ne(run("generated/wheelset", "both.scn", "duration 0.01\nspeed 20\ninitial x_dot = 20\n"), RS_OK);
    ck_assert_msg(strstr(err, "both.scn:3: 'initial x_dot = 20' contradicts 'speed 20' (line 2)"), "%s", err);
    ck_assert_msg(run("generated/wheelset", "y.scn", "duration 0.01\noutput 0.01\nspeed 20\ninitial y = 0.001\n"
                                                     "columns x_dot y\n") == RS_OK, "%s", err);
    read_csv("y.scn", &tab_a);
    ck_assert_double_eq(col(&tab_a, 0, "x_dot"), 20);   /* over default.scn's 0 */
    /* a position speed leaves on straight track (the initialization's
     * projection onto the contact constraints moves it by ~1 µm) */
    ck_assert_msg(fabs(col(&tab_a, 0, "y") - 0.001) < 1e-5, "y %.9f", col(&tab_a, 0, "y"));
    /* layers: a lower layer's velocity is overridden, a higher one's refused */
    rs_loaded *hdl = rs_load("generated/wheelset", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(hdl != NULL, "%s", err);
    for (int k = 0; k < 2; k++) {
        static const char kSpeed[] = "speed 20\n", kInit[] = "initial x_dot = 3\n";
        rs_scenario lo, hi;
        ck_assert_int_eq(rs_scenario_parse(k ? kSpeed : kInit, strlen(k ? kSpeed : kInit), "lo.scn", &lo, err,
                                           sizeof err), RS_OK);
        ck_assert_int_eq(rs_scenario_parse(k ? kInit : kSpeed, strlen(k ? kInit : kSpeed), "hi.scn", &hi, err,
                                           sizeof err), RS_OK);
        ck_assert_int_eq(rs_scenario_overlay(&lo, &hi), RS_OK);
        rs_binding *b = NULL;
        const int st = rs_scenario_bind(&lo, rs_loaded_model(hdl), &b, err, sizeof err);
        if (k == 0)
            ck_assert_msg(st == RS_OK, "%s", err);
        else
            ck_assert_msg(st != RS_OK && strstr(err, "hi.scn:1: 'initial x_dot = 3' contradicts 'speed 20' (lo.scn:1)"),
                          "%s", err);
        rs_binding_free(&b);
        rs_scenario_free(&lo);
        rs_scenario_free(&hi);
    }
    rs_unload(&hdl);
    ck_assert_int_ne(run("generated/pendulum", "p.scn", "duration 0.01\nspeed 3\n"), RS_OK);
    ck_assert_msg(strstr(err, "p.scn:2: 'speed 3': model 'pendulum' has no forward coordinate"), "%s", err);
    ck_assert_int_ne(run("generated/wheelset", "n.scn", "duration 0.01\nspeed -1\n"), RS_OK);
    ck_assert_msg(strstr(err, "n.scn:2: speed must be >= 0 m/s"), "%s", err);
    ck_assert_int_ne(run("generated/wheelset", "nan.scn", "speed nan\n"), RS_OK);
    ck_assert_msg(strstr(err, "nan.scn:1: 'nan' is not a number"), "%s", err);
    ck_assert_int_ne(run("generated/wheelset", "twice.scn", "speed 1\nspeed 2\n"), RS_OK);
    ck_assert_msg(strstr(err, "twice.scn:2: 'speed' is given twice (first at line 1)"), "%s", err);
    ck_assert_int_ne(run("generated/wheelset", "col.scn", "duration 0.01\ncolumns wheelset.y_trak\n"), RS_OK);
    ck_assert_msg(strstr(err, "col.scn:2: unknown column 'wheelset.y_trak' (did you mean 'wheelset.y_track'?)"),
                  "%s", err);
}
END_TEST

/* The bogie on the canted circle at s = 200 m: placement by hand. */
START_TEST(curve_starts_on_track)
{
    const double V = 20, th = asin(CANT_H / CANT_BASE), a_wb = 1.28, r0 = 0.46;
    ck_assert_msg(run("generated/bogie", "curve.scn",
                      "duration 0.02\nstep 1e-3\noutput 0.01\ntrack \"arc.trk\"\nspeed 20\n"
                      "initial x = 200\ninitial front.x = 200\ninitial rear.x = 200\n"
                      "columns x y yaw roll yaw_dot front.x front.y front.z front.yaw front.roll front.yaw_dot "
                      "rear.x rear.y rear.z rear.yaw rear.roll front.ws.s_track front.ws.y_track front.ws.z_track "
                      "front.ws.yaw_track front.ws.roll_track front.ws.pitch_track rear.ws.y_track rear.ws.yaw_track "
                      "rear.ws.roll_track front.left.xi_x front.right.xi_x\n") == RS_OK, "%s", err);
    read_csv("curve.scn", &tab_a);
    /* the frame: heading and cant at s = 200 m, yaw rate V κ = −V/R */
    ck_assert_msg(fabs(col(&tab_a, 0, "yaw") + 200 / R_CURVE) < 1e-8, "yaw %.12f", col(&tab_a, 0, "yaw"));
    ck_assert_msg(fabs(col(&tab_a, 0, "roll") - th) < 1e-8, "roll %.12f vs %.12f", col(&tab_a, 0, "roll"), th);
    ck_assert_msg(fabs(col(&tab_a, 0, "yaw_dot") + V / R_CURVE) < 1e-7, "yaw_dot %.12f", col(&tab_a, 0, "yaw_dot"));
    /* the wheelsets at s = 200 ± a_wb (their x is dx + <ws>.x) */
    const char *ws[2] = {"front", "rear"};
    for (int k = 0; k < 2; k++) {
        char n[64];
        const double s = 200 + (k == 0 ? a_wb : -a_wb), dx = k == 0 ? a_wb : -a_wb;
        snprintf(n, sizeof n, "%s.yaw", ws[k]);
        ck_assert_msg(fabs(col(&tab_a, 0, n) + s / R_CURVE) < 1e-8, "%s %.12f vs %.12f", n, col(&tab_a, 0, n),
                      -s / R_CURVE);
        /* its centre (dx + x, y, r0 + z): on the canted track's centre at
         * height h along n̂ (h cos θ = r0 + z above the level rail tops),
         * in plan h sin θ inwards from the circle of radius R */
        snprintf(n, sizeof n, "%s.x", ws[k]);
        const double cx = dx + col(&tab_a, 0, n);
        snprintf(n, sizeof n, "%s.y", ws[k]);
        const double cy = col(&tab_a, 0, n);
        snprintf(n, sizeof n, "%s.z", ws[k]);
        const double h = (r0 + col(&tab_a, 0, n)) / cos(th);
        const double dist = hypot(cx, cy + R_CURVE), want = R_CURVE - h * sin(th);
        printf("curve: %s wheelset %.9f m from the centre (R − h sin θ = %.9f), heading %.9f at s = %.2f\n", ws[k],
               dist, want, atan2(cx, cy + R_CURVE), s);
        ck_assert_msg(fabs(dist - want) < 1e-5, "%s: %.9f vs %.9f", ws[k], dist, want);
        ck_assert_msg(fabs(atan2(cx, cy + R_CURVE) - s / R_CURVE) < 1e-7, "%s: angle %.12f", ws[k],
                      atan2(cx, cy + R_CURVE));
        /* track-relative: centred, square, level with the cant, where the
         * ground y moved tens of metres and the ground roll is θ */
        snprintf(n, sizeof n, "%s.ws.y_track", ws[k]);
        ck_assert_msg(fabs(col(&tab_a, 0, n)) < 1e-6, "%s %g", n, col(&tab_a, 0, n));
        snprintf(n, sizeof n, "%s.ws.yaw_track", ws[k]);
        ck_assert_msg(fabs(col(&tab_a, 0, n)) < 1e-9, "%s %g", n, col(&tab_a, 0, n));
        snprintf(n, sizeof n, "%s.ws.roll_track", ws[k]);
        ck_assert_msg(fabs(col(&tab_a, 0, n)) < 1e-6, "%s %g", n, col(&tab_a, 0, n));
        snprintf(n, sizeof n, "%s.roll", ws[k]);
        ck_assert_msg(fabs(col(&tab_a, 0, n) - th) < 1e-6, "%s %.12f vs %.12f", n, col(&tab_a, 0, n), th);
    }
    ck_assert_msg(fabs(col(&tab_a, 0, "front.ws.s_track") - (200 + a_wb)) < 1e-6, "s %.9f",
                  col(&tab_a, 0, "front.ws.s_track"));
    ck_assert_msg(fabs(col(&tab_a, 0, "front.ws.z_track") - (r0 + col(&tab_a, 0, "front.z")) / cos(th)) < 1e-6,
                  "z_track %.9f", col(&tab_a, 0, "front.ws.z_track"));
    ck_assert(fabs(col(&tab_a, 0, "front.y")) > 60);   /* the ground frame sees the curve */
}
END_TEST

/* The transform alone: the wheelset (coordinates x, y, z, yaw, roll of its
 * centre (x, y, r0 + z), base Rz(yaw) Rx(roll)) put by hand at s = 150 m of
 * the canted circle with offsets y_o, h, roll b, then yaw a. */
START_TEST(transform_reads_back_offsets)
{
    write_file("t.scn", "track \"arc.trk\"\n");
    char sp[600];
    snprintf(sp, sizeof sp, "%s/t.scn", dir);
    rs_scenario s;
    ck_assert_msg(rs_scenario_read(sp, &s, err, sizeof err) == RS_OK, "%s", err);
    rs_loaded *hdl = rs_load("generated/wheelset", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(hdl != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(hdl);
    rs_binding *b;
    ck_assert_msg(rs_scenario_bind(&s, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    rs_track_rel *tr;
    ck_assert_msg(rs_track_rel_open(ws, &tr, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_track_rel_n_bodies(m), 1);
    ck_assert_str_eq(rs_track_rel_body(m, 0), "wheelset");

    const double R = R_CURVE, th = asin(CANT_H / CANT_BASE), s0 = 150, psi = -s0 / R, r0 = 0.45;
    /* the canted frame by hand: t, h = ẑ × t, ĉ = cos θ h + sin θ ẑ,
     * n̂ = t × ĉ = cos θ ẑ − sin θ h */
    const double c[3] = {R * sin(s0 / R), -R * (1 - cos(s0 / R)), 0};
    const double hv[3] = {-sin(psi), cos(psi), 0};
    const double lat[3] = {cos(th) * hv[0], cos(th) * hv[1], sin(th)};
    const double up[3] = {-sin(th) * hv[0], -sin(th) * hv[1], cos(th)};
    const struct { double y_o, h, b, a; } cases[] = {{0.004, 0.47, 0.002, 0}, {-0.01, 0.44, 0, 0.003},
                                                     {0, 0.45, 0, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double P[3];
        for (int j = 0; j < 3; j++)
            P[j] = c[j] + cases[k].y_o * lat[j] + cases[k].h * up[j];
        double *q = rs_ws_q(ws);
        ck_assert_int_eq(rs_ws_set_q(ws, "x", P[0]), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "y", P[1]), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "z", P[2] - r0), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "yaw", psi + cases[k].a), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "roll", th + cases[k].b), RS_OK);
        (void)q;
        ck_assert_int_eq(rs_track_rel_update(tr, ws), RS_OK);
        /* Rz(ψ + a) Rx(θ + b) in the frame Rz(ψ) Rx(θ) is
         * Rx(−θ) Rz(a) Rx(θ + b) (with a = 0 the roll b alone): its forward
         * and axle columns e1, e2 give the angles as defined */
        const double a = cases[k].a, tb = th + cases[k].b;
        const double Rzx[3][3] = {{cos(a), -sin(a) * cos(tb), sin(a) * sin(tb)},
                                  {sin(a), cos(a) * cos(tb), -cos(a) * sin(tb)},
                                  {0, sin(tb), cos(tb)}};   /* Rz(a) Rx(θ + b) */
        double Rr[3][3];   /* Rx(−θ) · Rzx */
        for (int j = 0; j < 3; j++) {
            Rr[0][j] = Rzx[0][j];
            Rr[1][j] = cos(th) * Rzx[1][j] + sin(th) * Rzx[2][j];
            Rr[2][j] = -sin(th) * Rzx[1][j] + cos(th) * Rzx[2][j];
        }
        const double yaw = atan2(Rr[1][0], Rr[0][0]), pitch = atan2(-Rr[2][0], Rr[0][0]);
        const double roll = atan2(Rr[2][1], Rr[1][1]);
        printf("transform %zu: s %.9f y %.9f z %.9f roll %.9f pitch %.9f yaw %.9f\n", k,
               rs_track_rel_value(tr, 0, RS_TREL_S), rs_track_rel_value(tr, 0, RS_TREL_Y),
               rs_track_rel_value(tr, 0, RS_TREL_Z), rs_track_rel_value(tr, 0, RS_TREL_ROLL),
               rs_track_rel_value(tr, 0, RS_TREL_PITCH), rs_track_rel_value(tr, 0, RS_TREL_YAW));
        /* the fitted splines follow the circle to ~1e-7 m (docs/contact.md) */
        ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_S) - s0) < 1e-5, "case %zu s", k);
        ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_Y) - cases[k].y_o) < 1e-6, "case %zu y", k);
        ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_Z) - cases[k].h) < 1e-6, "case %zu z", k);
        ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_ROLL) - roll) < 1e-7, "case %zu roll", k);
        if (a == 0)
            ck_assert_msg(fabs(roll - cases[k].b) < 1e-15, "case %zu: roll %g", k, roll);
        ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_YAW) - yaw) < 1e-7, "case %zu yaw", k);
        ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_PITCH) - pitch) < 1e-7, "case %zu pitch", k);
    }
    rs_track_rel_free(&tr);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&s);
    rs_unload(&hdl);
}
END_TEST

/* A canted curve on a gradient (20 permille from s = 20 m: dz/ds = sin γ =
 * 0.02, s the arc length, docs/contact.md): the
 * track frame pitches by γ as well, which a wheelset (yaw and roll, no
 * pitch: its spin takes it) cannot follow.  `speed` turns its axle onto the
 * canted lateral ĉ, whose height is sin θ cos γ (by hand from the file's
 * numbers): roll asin(sin θ cos γ), track-relative yaw and roll 0, and its
 * horizontal forward axis, in the plane of t and n̂, pitched from t by
 * atan(tan γ / cos θ) (n̂_z = cos θ cos γ).  The frame, which has a pitch
 * coordinate, pitches nose up by γ with the track, so its bushings carry
 * the wheelsets as on level track.  (Heading and cant alone left the
 * wheelsets yawed by about γ θ from the track and refused them as "did not
 * land", and a level frame would lift a wheel off.) */
START_TEST(curve_on_gradient_starts_on_track)
{
    write_file("hill.trk", "railsym-track 1\nname hill\ngauge 1.435\ninclination 1:40\ncant_base 1.500\n"
                           "gradient 20 permille ramp 20\ncurve 800 radius 300 right cant 100 mm\n");
    ck_assert_msg(run("generated/bogie", "hill.scn",
                      "duration 0.02\nstep 1e-3\noutput 0.01\ntrack \"hill.trk\"\nspeed 20\n"
                      "initial x = 200\ninitial front.x = 200\ninitial rear.x = 200\n"
                      "columns pitch front.roll rear.roll front.ws.y_track front.ws.yaw_track front.ws.roll_track "
                      "front.ws.pitch_track rear.ws.yaw_track rear.ws.roll_track\n") == RS_OK, "%s", err);
    read_csv("hill.scn", &tab_a);
    const double gam = asin(0.020), th = asin(CANT_H / CANT_BASE), roll = asin(sin(th) * cos(gam));
    printf("gradient: roll %.9f (by hand %.9f, the cant %.9f), yaw_track %.3g, pitch_track %.9f (γ %.9f)\n",
           col(&tab_a, 0, "front.roll"), roll, th, col(&tab_a, 0, "front.ws.yaw_track"),
           col(&tab_a, 0, "front.ws.pitch_track"), gam);
    for (int k = 0; k < 2; k++) {
        const char *w = k ? "rear" : "front";
        char n[64];
        snprintf(n, sizeof n, "%s.roll", w);
        ck_assert_msg(fabs(col(&tab_a, 0, n) - roll) < 1e-6, "%s %.12f vs %.12f", n, col(&tab_a, 0, n), roll);
        snprintf(n, sizeof n, "%s.ws.yaw_track", w);
        ck_assert_msg(fabs(col(&tab_a, 0, n)) < 1e-7, "%s %g", n, col(&tab_a, 0, n));
        snprintf(n, sizeof n, "%s.ws.roll_track", w);
        ck_assert_msg(fabs(col(&tab_a, 0, n)) < 1e-6, "%s %g", n, col(&tab_a, 0, n));
    }
    ck_assert_msg(fabs(col(&tab_a, 0, "front.ws.y_track")) < 1e-6, "y_track %g", col(&tab_a, 0, "front.ws.y_track"));
    const double ws_pitch = atan(tan(gam) / cos(th));
    ck_assert_msg(fabs(fabs(col(&tab_a, 0, "front.ws.pitch_track")) - ws_pitch) < 1e-6, "pitch_track %.9f vs %.9f",
                  col(&tab_a, 0, "front.ws.pitch_track"), ws_pitch);
    ck_assert_msg(fabs(col(&tab_a, 0, "pitch") + gam) < 1e-6, "frame pitch %.9f vs %.9f", col(&tab_a, 0, "pitch"),
                  -gam);
}
END_TEST

/* `equilibrium` with `speed` on a curve solves the positions and keeps the
 * rolling state's velocities: the yaw rate V/R of every body (ψ = −s/R on
 * a right-hand circle of R 1000 m, by hand) and the forward velocity along the
 * heading.  (It used to zero the velocities of every solved coordinate, so
 * the bodies started with no yaw rate and ẏ = 0 while x went on along the
 * curve's heading.) */
START_TEST(equilibrium_keeps_rolling_state_on_curve)
{
    const double V = 20, R = 1000;   /* 20 mm cant: at rest the wheelsets find their place on the treads */
    write_file("mild.trk", "railsym-track 1\nname mild\ngauge 1.435\ninclination 1:40\ncant_base 1.500\n"
                           "curve 800 radius 1000 right cant 20 mm\n");
    ck_assert_msg(run("generated/bogie", "eq.scn",
                      "duration 0.05\nstep 1e-3\noutput 0.01\ntrack \"mild.trk\"\nspeed 20\nequilibrium y z roll pitch yaw front.z front.roll rear.z rear.roll\n"
                      "initial x = 200\ninitial front.x = 200\ninitial rear.x = 200\n"
                      "columns x_dot y_dot yaw yaw_dot front.yaw_dot rear.yaw_dot front.ws.y_track\n") == RS_OK,
                  "%s", err);
    read_csv("eq.scn", &tab_a);
    /* the first row: the state the run starts from (afterwards the
     * wheelsets, centred on the treads where a curve wants a rolling-radius
     * difference, steer: creep, not this test's business) */
    const double psi = col(&tab_a, 0, "yaw");
    printf("equilibrium on the curve: yaw %.9f (−200/R %.9f), yaw_dot %.9f, y_dot %.9f (V sin ψ %.9f)\n", psi,
           -200 / R, col(&tab_a, 0, "yaw_dot"), col(&tab_a, 0, "y_dot"), V * sin(psi));
    ck_assert_msg(fabs(psi + 200 / R) < 1e-4, "yaw %.9f", psi);
    static const char *const rates[] = {"yaw_dot", "front.yaw_dot", "rear.yaw_dot"};
    for (int k = 0; k < 3; k++)
        ck_assert_msg(fabs(col(&tab_a, 0, rates[k]) + V / R) < 1e-8, "%s %.12f vs %.12f", rates[k],
                      col(&tab_a, 0, rates[k]), -V / R);
    const double psi0 = -200 / R;   /* the track's heading at the frame's s = 200 m */
    ck_assert_msg(fabs(col(&tab_a, 0, "y_dot") - V * sin(psi0)) < 1e-9, "y_dot %.12f vs V sin ψ %.12f",
                  col(&tab_a, 0, "y_dot"), V * sin(psi0));
    ck_assert_msg(fabs(col(&tab_a, 0, "x_dot") - V * cos(psi0)) < 1e-9, "x_dot %.12f", col(&tab_a, 0, "x_dot"));
}
END_TEST

/* A model whose bodies `speed` cannot place on a curve: the FEVE 3000's
 * bogies yaw relative to the car body, so its wheelsets miss the track. */
START_TEST(relative_coordinates_refused_on_curve)
{
    ck_assert_int_ne(run("generated/feve3000", "feve.scn", "duration 0.01\ntrack \"arc.trk\"\nspeed 10\n"
                                                         "initial x = 100\n"), RS_OK);
    ck_assert_msg(strstr(err, "feve.scn:3: 'speed 10': the track is not straight and level (a curve, cant, gradient or "
                              "irregularity), and wheel body 'front.wf.ws' did not land"),
                  "%s", err);
}
END_TEST

START_TEST(bodies_off_the_track_named)
{
    write_file("irr.trk", "railsym-track 1\nname irr\ngauge 1.435\ninclination 1:40\nstraight 60\n"
                          "irregularity lateral sine amplitude 0.002 wavelength 20 taper 2\n");
    const char *scn = "duration 0.01\nstep 1e-3\ntrack \"irr.trk\"\nspeed 20\n"
                      "initial x = %g\ninitial front.x = %g\ninitial rear.x = %g\n";
    char text[400];
    snprintf(text, sizeof text, scn, 0.0, 0.0, 0.0);
    ck_assert_int_eq(run("generated/bogie", "start.scn", text), RS_E_VALUE);
    ck_assert_msg(strstr(err, "'speed' would put wheel body 'rear.ws' (coordinate 'rear.x') at s = -1.28 m, 1.28 m "
                              "before the start of track 'irr' (s = 0 .. 60 m,") &&
                      strstr(err, "Start the track earlier"),
                  "%s", err);
    snprintf(text, sizeof text, scn, 59.0, 59.0, 59.0);
    ck_assert_int_eq(run("generated/bogie", "end.scn", text), RS_E_VALUE);
    ck_assert_msg(strstr(err, "wheel body 'front.ws' (coordinate 'front.x') at s = 60.28 m, 0.28 m past the end of "
                              "track 'irr'") && strstr(err, "Lengthen the track"),
                  "%s", err);
    /* inside: it runs */
    snprintf(text, sizeof text, scn, 20.0, 20.0, 20.0);
    ck_assert_msg(run("generated/bogie", "in.scn", text) == RS_OK, "%s", err);
    /* the elastic contact past the end: 10 m/s from x = 55 m, the front
     * wheels at 56.28 m reach 61 m after 0.47 s */
    write_file("end.trk", "railsym-track 1\nname short\ngauge 1.435\ninclination 1:40\nstraight 60\n");
    ck_assert_int_eq(run("generated/bogie", "el.scn",
                         "duration 1\nstep 1e-3\ncontact elastic\ntrack \"end.trk\"\nspeed 10\n"
                         "initial x = 55\ninitial front.x = 55\ninitial rear.x = 55\n"),
                     RS_E_OFFTRACK);
    ck_assert_msg(strstr(err, "ran off the end of its track: at t = 0.47") &&
                      strstr(err, "past the end of track 'short' (s = 0 .. 60 m), more than 1 m (shorten the run's "
                                  "duration or lengthen the track"),
                  "%s", err);
}
END_TEST

int main(void)
{
    if (!rs_test_need_model("test_speed", "wheelset") || !rs_test_need_model("test_speed", "bogie") ||
        !rs_test_need_model("test_speed", "feve3000"))
        return EXIT_FAILURE;
    Suite *s = suite_create("speed");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, straight_rolls_without_slip);
    tcase_add_test(tc, precedence_and_errors);
    tcase_add_test(tc, curve_starts_on_track);
    tcase_add_test(tc, curve_on_gradient_starts_on_track);
    tcase_add_test(tc, equilibrium_keeps_rolling_state_on_curve);
    tcase_add_test(tc, transform_reads_back_offsets);
    tcase_add_test(tc, relative_coordinates_refused_on_curve);
    tcase_add_test(tc, bodies_off_the_track_named);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
