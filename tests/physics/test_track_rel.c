/*
 * test_track_rel.c — track-relative results for any body, not only wheels
 * (runtime/app/rs_track_rel.h, docs/results.md "Track-relative results"),
 * and the generated body pose they read (RS_FN_BODY_POSE):
 *
 *   - the pose of a two-body model written here (a car body with yaw, pitch,
 *     roll; an arm hinged to it about its y axis) against the composition
 *     of rotations and offsets written in the test;
 *   - that model, without contacts, on a canted circle (R 300 m right,
 *     100 mm cant on 1.5 m): the car put by hand at a lateral offset, a
 *     height and a roll from the track frame gives them back, and every
 *     column of both bodies matches the exact circle's frame computed here
 *     (arc length and offsets from the circle's centre, not the spline);
 *   - the bogie example placed on that curve at rest by `speed 0`: its frame
 *     (a body without wheels) has y_track equal to what is worked out by
 *     hand from the chord between its wheelsets, its suspension's lateral
 *     sag under the cant's share of its weight and `speed`'s placement
 *     (−2.5 mm, against 64 m of ground y), and roll_track ≈ 0 where the
 *     ground-frame roll is the cant (0.0667 rad) and the ground-frame
 *     offset from the centre line in plan is h sin θ (4 cm); every column
 *     matches the exact circle's frame; the wheel bodies' columns keep their
 *     meaning (wheel bodies first, then the others).
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_driver.h"
#include "rs_load.h"
#include "rs_track_rel.h"
#include "rs_ws.h"
#include "rs_test.h"
#include "rs_test_files.h"

#define R_CURVE 300.0
#define CANT_H 0.100 /* m, on cant_base 1.5 m */
#define CANT_BASE 1.5

static char err[4000];
static char dir[] = "/tmp/rs_track_rel_XXXXXX";

/* The two-body model: the car's centre of mass at (x, y, h1 + z), its base
 * Rz(yaw) Ry(pitch) Rx(roll); the arm hinged at J = C1 + R1 (a, 0, −b),
 * turned by th about the car's y axis, its centre of mass c below J. */
static const double h1 = 0.8, a_ = 1.3, b_ = 0.4, c_ = 0.25;
static const char kVdl[] = "param h1 = 0.8, a = 1.3, b = 0.4, c = 0.25   # m\n"
                           "coord x, y, z, roll, pitch, yaw, th\n"
                           "base B_yaw = rotate(ground, z, yaw)\n"
                           "base B_pitch = rotate(B_yaw, y, pitch)\n"
                           "base B1 = rotate(B_pitch, x, roll)\n"
                           "point C1 = O + [x, y, h1 + z] in ground\n"
                           "body car mass 1000 cg C1 inertia diag(500, 800, 900) in B1 frame B1\n"
                           "base B2 = rotate(B1, y, th)\n"
                           "point J = C1 + [a, 0, -b] in B1\n"
                           "point C2 = J + [0, 0, -c] in B2\n"
                           "body arm mass 10 cg C2 inertia diag(1, 2, 3) in B2 frame B2\n"
                           "gravity [0, 0, -9.81] in ground\n";

static void write_file(const char *name, const char *text) { rs_test_write(dir, name, text); }

static rs_loaded *two;   /* the two-body model, compiled once */

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file("arc.trk", "railsym-track 1\nname arc\ngauge 1.435\ninclination 1:40\ncant_base 1.500\n"
                          "curve 800 radius 300 right cant 100 mm\n");
    write_file("two.vdl", kVdl);
    ck_assert_msg(rs_test_sh("cd %s && %s compile two.vdl -o two > two.log 2>&1", dir, rs_test_bin()) == 0,
                  "compiling two.vdl failed (see %s/two.log)", dir);
    char path[600];
    snprintf(path, sizeof path, "%s/two", dir);
    two = rs_load(path, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(two != NULL, "%s", err);
}

static void teardown(void)
{
    rs_unload(&two);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(dir, "/tmp/rs_track_rel_XXXXXX");
}

/* ---- 3×3 helpers, row-major ---- */
static void rot(char axis, double a, double R[3][3])
{
    const double c = cos(a), s = sin(a);
    memset(R, 0, 9 * sizeof(double));
    if (axis == 'x') {
        R[0][0] = 1;
        R[1][1] = c, R[1][2] = -s, R[2][1] = s, R[2][2] = c;
    } else if (axis == 'y') {
        R[1][1] = 1;
        R[0][0] = c, R[0][2] = s, R[2][0] = -s, R[2][2] = c;
    } else {
        R[2][2] = 1;
        R[0][0] = c, R[0][1] = -s, R[1][0] = s, R[1][1] = c;
    }
}

static void mul(const double A[3][3], const double B[3][3], double C[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j];
}

static void apply(const double A[3][3], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = A[i][0] * v[0] + A[i][1] * v[1] + A[i][2] * v[2];
}

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The two bodies' poses by composition: C1, R1 (car), C2, R2 (arm). */
static void compose(const double q[7], double C1[3], double R1[3][3], double C2[3], double R2[3][3])
{
    double Rz[3][3], Ry[3][3], Rx[3][3], Rzy[3][3], Rth[3][3];
    rot('z', q[5], Rz);
    rot('y', q[4], Ry);
    rot('x', q[3], Rx);
    mul(Rz, Ry, Rzy);
    mul(Rzy, Rx, R1);
    rot('y', q[6], Rth);
    mul(R1, Rth, R2);
    C1[0] = q[0], C1[1] = q[1], C1[2] = h1 + q[2];
    const double rJ[3] = {a_, 0, -b_}, rC[3] = {0, 0, -c_};
    double dJ[3], dC[3];
    apply(R1, rJ, dJ);
    apply(R2, rC, dC);
    for (int k = 0; k < 3; k++)
        C2[k] = C1[k] + dJ[k] + dC[k];
}

static rs_ws *two_ws(const char *track)
{
    rs_options o;
    rs_options_default(&o);
    o.track_file = track;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(rs_loaded_model(two), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

/* The generated pose against the composition, at states far from zero. */
START_TEST(pose_matches_composition)
{
    const rs_model *m = rs_loaded_model(two);
    ck_assert_int_eq(m->n_body, 2);
    ck_assert_str_eq(m->body_names[0], "car");
    ck_assert_str_eq(m->body_names[1], "arm");
    ck_assert_int_eq(m->fn[RS_FN_BODY_POSE].out_len[0], 24);
    rs_ws *ws = two_ws(NULL);
    const double states[3][7] = {{0, 0, 0, 0, 0, 0, 0},
                                 {12.5, -3.25, 0.04, 0.3, -0.2, 2.5, 0.7},
                                 {-1, 2, -0.5, -1.1, 0.9, -2.9, -2.2}};
    for (int k = 0; k < 3; k++) {
        memcpy(rs_ws_q(ws), states[k], sizeof states[k]);
        double pose[24], C1[3], R1[3][3], C2[3], R2[3][3];
        ck_assert_int_eq(rs_ws_body_pose(ws, pose), RS_OK);
        compose(states[k], C1, R1, C2, R2);
        double e = 0;
        for (int i = 0; i < 3; i++) {
            e = fmax(e, fabs(pose[i] - C1[i]));
            e = fmax(e, fabs(pose[12 + i] - C2[i]));
            for (int j = 0; j < 3; j++) {
                e = fmax(e, fabs(pose[3 + 3 * i + j] - R1[i][j]));
                e = fmax(e, fabs(pose[15 + 3 * i + j] - R2[i][j]));
            }
        }
        printf("body pose, state %d: largest difference from the composition %.3g\n", k, e);
        ck_assert_msg(e < 1e-13, "state %d: %g", k, e);
    }
    rs_ws_free(&ws);
}
END_TEST

/* The six columns of a point P with forward axis e1 and lateral axis e2 on
 * the exact canted circle of arc.trk (centre (0, −R), starting at O heading
 * +x, turning right; cant θ raises the left, outer rail): s = R φ with φ
 * the angle from the centre, the horizontal left normal h = (sin φ, cos φ,
 * 0) points outwards, t = (cos φ, −sin φ, 0), ĉ = cos θ h + sin θ ẑ,
 * n̂ = cos θ ẑ − sin θ h; P − c(s) = (|P − centre| − R) h + P_z ẑ. */
static void on_circle(const double P[3], const double e1[3], const double e2[3], double v[RS_TREL_COUNT])
{
    const double th = asin(CANT_H / CANT_BASE);
    const double dx = P[0], dy = P[1] + R_CURVE, phi = atan2(dx, dy), off = hypot(dx, dy) - R_CURVE;
    const double t[3] = {cos(phi), -sin(phi), 0}, h[3] = {sin(phi), cos(phi), 0};
    const double lat[3] = {cos(th) * h[0], cos(th) * h[1], sin(th)};
    const double up[3] = {-sin(th) * h[0], -sin(th) * h[1], cos(th)};
    v[RS_TREL_S] = R_CURVE * phi;
    v[RS_TREL_Y] = off * cos(th) + P[2] * sin(th);
    v[RS_TREL_Z] = -off * sin(th) + P[2] * cos(th);
    v[RS_TREL_YAW] = atan2(dot(e1, lat), dot(e1, t));
    v[RS_TREL_PITCH] = atan2(-dot(e1, up), dot(e1, t));
    v[RS_TREL_ROLL] = atan2(dot(e2, up), dot(e2, lat));
}

/* Column k of a matrix. */
static void column(const double R[3][3], int k, double v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = R[i][k];
}

/* The car put by hand at s0 = 150 m: its centre of mass at c + y_o ĉ + h n̂,
 * yaw ψ + a, roll θ + b; the arm turned by th. */
START_TEST(any_body_on_a_canted_curve)
{
    char trk[600];
    snprintf(trk, sizeof trk, "%s/arc.trk", dir);
    rs_ws *ws = two_ws(trk);
    const rs_model *m = rs_loaded_model(two);
    rs_track_rel *tr;
    ck_assert_msg(rs_track_rel_open(ws, &tr, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_track_rel_has_track(tr), 1);
    ck_assert_int_eq(rs_track_rel_n_bodies(m), 2);
    ck_assert_int_eq(rs_track_rel_n_wheel_bodies(m), 0);
    ck_assert_str_eq(rs_track_rel_body(m, 0), "car");
    ck_assert_str_eq(rs_track_rel_body(m, 1), "arm");
    ck_assert_str_eq(rs_track_rel_body(m, 2), "");
    int b, k;
    ck_assert_int_eq(rs_track_rel_find(m, "arm.pitch_track", &b, &k), RS_OK);
    ck_assert(b == 1 && k == RS_TREL_PITCH);
    ck_assert_int_eq(rs_track_rel_find(m, "arm.pitch_trak", &b, &k), RS_E_NOTFOUND);

    const double th = asin(CANT_H / CANT_BASE), s0 = 150, psi = -s0 / R_CURVE;
    const double c[3] = {R_CURVE * sin(s0 / R_CURVE), -R_CURVE * (1 - cos(s0 / R_CURVE)), 0};
    const double hv[3] = {-sin(psi), cos(psi), 0};
    const double lat[3] = {cos(th) * hv[0], cos(th) * hv[1], sin(th)};
    const double up[3] = {-sin(th) * hv[0], -sin(th) * hv[1], cos(th)};
    const struct {
        double y_o, h, b, a, pitch, arm;
    } cases[] = {{0, 0.9, 0, 0, 0, 0},         {0.004, 0.9, 0, 0, 0, 0},   {0, 1.1, 0.002, 0, 0, 0.3},
                 {-0.02, 0.85, 0.01, 0, 0, -0.4}, {0.01, 0.95, 0.003, 0.004, 0.002, 0.5}};
    for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
        double q[7], P[3];
        for (int j = 0; j < 3; j++)
            P[j] = c[j] + cases[n].y_o * lat[j] + cases[n].h * up[j];
        q[0] = P[0], q[1] = P[1], q[2] = P[2] - h1;
        q[3] = th + cases[n].b, q[4] = cases[n].pitch, q[5] = psi + cases[n].a, q[6] = cases[n].arm;
        memcpy(rs_ws_q(ws), q, sizeof q);
        ck_assert_int_eq(rs_track_rel_update(tr, ws), RS_OK);
        double C1[3], R1[3][3], C2[3], R2[3][3];
        compose(q, C1, R1, C2, R2);
        const double *Cs[2] = {C1, C2};
        const double(*Rs[2])[3] = {(const double(*)[3])R1, (const double(*)[3])R2};
        for (int body = 0; body < 2; body++) {
            double e1[3], e2[3], want[RS_TREL_COUNT];
            column(Rs[body], 0, e1);
            column(Rs[body], 1, e2);
            on_circle(Cs[body], e1, e2, want);
            printf("case %zu %s:", n, body ? "arm" : "car");
            for (int j = 0; j < RS_TREL_COUNT; j++) {
                const double got = rs_track_rel_value(tr, body, j);
                printf(" %s %.9f", rs_track_rel_suffix(j), got);
                /* the fitted splines follow the circle to ~1e-7 m */
                ck_assert_msg(fabs(got - want[j]) < (j == RS_TREL_S ? 1e-5 : 1e-6), "case %zu body %d %s: %.9f vs %.9f",
                              n, body, rs_track_rel_suffix(j), got, want[j]);
            }
            printf("\n");
        }
        if (cases[n].a == 0 && cases[n].pitch == 0) {
            /* a pure lateral, vertical and roll offset reads back as given */
            ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_S) - s0) < 1e-5, "case %zu s", n);
            ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_Y) - cases[n].y_o) < 1e-7, "case %zu y", n);
            ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_Z) - cases[n].h) < 1e-7, "case %zu z", n);
            ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_ROLL) - cases[n].b) < 1e-7, "case %zu roll", n);
            ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_YAW)) < 1e-7, "case %zu yaw", n);
            ck_assert_msg(fabs(rs_track_rel_value(tr, 0, RS_TREL_PITCH)) < 1e-7, "case %zu pitch", n);
        }
        if (n == 0) {
            /* centred: the ground frame sees the cant (roll θ, the centre of
             * mass h sin θ inwards in plan), the track frame nothing */
            const double inward = R_CURVE - hypot(C1[0], C1[1] + R_CURVE);
            printf("centred car: ground roll %.6f rad, %.6f m inwards in plan; y_track %.3g m, roll_track %.3g rad\n",
                   q[3], inward, rs_track_rel_value(tr, 0, RS_TREL_Y), rs_track_rel_value(tr, 0, RS_TREL_ROLL));
            ck_assert(fabs(inward - 0.9 * sin(th)) < 1e-9);
            ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_Y)) < 1e-7);
            ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_ROLL)) < 1e-7);
        }
    }
    rs_track_rel_free(&tr);
    rs_ws_free(&ws);
}
END_TEST

/* Without a track: the straight level track along ground x. */
START_TEST(any_body_on_the_default_track)
{
    rs_ws *ws = two_ws(NULL);
    rs_track_rel *tr;
    ck_assert_msg(rs_track_rel_open(ws, &tr, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_track_rel_has_track(tr), 0);
    const double q[7] = {7, 0.02, 0.01, 0.03, -0.01, 0.05, 0.2};
    memcpy(rs_ws_q(ws), q, sizeof q);
    ck_assert_int_eq(rs_track_rel_update(tr, ws), RS_OK);
    double C1[3], R1[3][3], C2[3], R2[3][3];
    compose(q, C1, R1, C2, R2);
    /* s = x, y and z the ground ones; the angles of Rz Ry Rx read back */
    ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_S) - 7) < 1e-15);
    ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_Y) - 0.02) < 1e-15);
    ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_Z) - (h1 + 0.01)) < 1e-15);
    ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_YAW) - 0.05) < 1e-15);
    /* e1 = (cos ψ cos φ, sin ψ cos φ, −sin φ): pitch atan2(sin φ, cos ψ cos φ), nose down + */
    ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_PITCH) - atan2(sin(-0.01), cos(0.05) * cos(-0.01))) < 1e-15);
    ck_assert(fabs(rs_track_rel_value(tr, 1, RS_TREL_S) - C2[0]) < 1e-15);
    ck_assert(fabs(rs_track_rel_value(tr, 1, RS_TREL_Z) - C2[2]) < 1e-15);
    /* the car's roll: atan2(e2·ẑ, e2·ŷ) of Rz(ψ) Ry(φ) Rx(ρ)'s second column */
    const double e2y = cos(0.05) * cos(0.03) + sin(0.05) * sin(-0.01) * sin(0.03);
    const double e2z = cos(-0.01) * sin(0.03);
    ck_assert(fabs(rs_track_rel_value(tr, 0, RS_TREL_ROLL) - atan2(e2z, e2y)) < 1e-15);
    rs_track_rel_free(&tr);
    rs_ws_free(&ws);
}
END_TEST

/* A CSV of one run: its header's names and its first row. */
static int ncol;
static char names[64][80];
static double row0[64];

static double col(const char *name)
{
    for (int k = 0; k < ncol; k++)
        if (strcmp(names[k], name) == 0)
            return row0[k];
    ck_abort_msg("no column '%s'", name);
    return NAN;
}

static void read_first_row(const char *path)
{
    char line[8192];
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ncol = 0;
    for (char *tok = strtok(line, ",\n"); tok && ncol < 64; tok = strtok(NULL, ",\n"))
        snprintf(names[ncol++], sizeof names[0], "%s", tok);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    char *p = line;
    for (int k = 0; k < ncol; k++) {
        row0[k] = strtod(p, &p);
        if (*p == ',')
            p++;
    }
    fclose(f);
}

/* Through a scenario and the driver: a model without contacts has the
 * columns (on the straight track, or on a scenario's `track`), and a
 * misspelt one is named. */
START_TEST(columns_of_a_model_without_contacts)
{
    char sp[600], out[600], model[600];
    snprintf(model, sizeof model, "%s/two", dir);
    snprintf(out, sizeof out, "%s/two.csv", dir);
    snprintf(sp, sizeof sp, "%s/two.scn", dir);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = model;
    c.scenario = sp;
    c.out = out;
    c.progress = 0;
    write_file("two.scn", "duration 0.002\nstep 1e-3\noutput 0.001\ninitial y = 0.02\ninitial th = 0.2\n"
                          "columns car.y_track car.roll_track arm.pitch_track arm.z_track\n");
    ck_assert_msg(rs_driver_run(&c, NULL, err, sizeof err) == RS_OK, "%s", err);
    read_first_row(out);
    /* the car level at y = 0.02; the arm turned by th about its y axis,
     * its centre of mass h1 − b − c cos th above the track */
    ck_assert_msg(fabs(col("car.y_track") - 0.02) < 1e-15, "%.17g", col("car.y_track"));
    ck_assert_msg(fabs(col("car.roll_track")) < 1e-15, "%.17g", col("car.roll_track"));
    ck_assert_msg(fabs(col("arm.pitch_track") - 0.2) < 1e-15, "%.17g", col("arm.pitch_track"));
    ck_assert_msg(fabs(col("arm.z_track") - (h1 - b_ - c_ * cos(0.2))) < 1e-15, "%.17g", col("arm.z_track"));

    /* a scenario's track line gives such a model its track (the canted
     * curve): the level car at y = 0.02 reads the circle's values */
    char text[1200];
    snprintf(text, sizeof text,
             "duration 0.002\nstep 1e-3\noutput 0.001\ntrack \"%s/arc.trk\"\ninitial y = 0.02\n"
             "initial th = 0.2\ncolumns car.y_track car.z_track car.roll_track arm.roll_track\n", dir);
    write_file("two.scn", text);
    ck_assert_msg(rs_driver_run(&c, NULL, err, sizeof err) == RS_OK, "%s", err);
    read_first_row(out);
    {
        const double q[7] = {0, 0.02, 0, 0, 0, 0, 0.2};
        double C1[3], R1[3][3], C2[3], R2[3][3], e1[3], e2[3], want[RS_TREL_COUNT], want2[RS_TREL_COUNT];
        compose(q, C1, R1, C2, R2);
        column(R1, 0, e1);
        column(R1, 1, e2);
        on_circle(C1, e1, e2, want);
        column(R2, 0, e1);
        column(R2, 1, e2);
        on_circle(C2, e1, e2, want2);
        ck_assert_msg(fabs(col("car.y_track") - want[RS_TREL_Y]) < 1e-6, "%.9f vs %.9f", col("car.y_track"),
                      want[RS_TREL_Y]);
        ck_assert_msg(fabs(col("car.z_track") - want[RS_TREL_Z]) < 1e-6, "%.9f", col("car.z_track"));
        ck_assert_msg(fabs(col("car.roll_track") - want[RS_TREL_ROLL]) < 1e-6, "%.9f", col("car.roll_track"));
        ck_assert_msg(fabs(col("arm.roll_track") - want2[RS_TREL_ROLL]) < 1e-6, "%.9f", col("arm.roll_track"));
        /* the cant shows: level in the ground, rolled against the track */
        ck_assert(fabs(want[RS_TREL_ROLL] + asin(CANT_H / CANT_BASE)) < 1e-12);
    }

    write_file("two.scn", "duration 0.002\ncolumns arm.pitch_trak\n");
    ck_assert_int_ne(rs_driver_run(&c, NULL, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, "two.scn:2: unknown column 'arm.pitch_trak' (did you mean 'arm.pitch_track'?)"), "%s",
                  err);
}
END_TEST

/* The bogie at rest, centred on the canted curve at s = 200 m by `speed 0`. */
START_TEST(bogie_frame_centred_on_canted_curve)
{
    RS_REQUIRE_MODEL("bogie");
    char sp[600], out[600];
    write_file("bogie.scn", "duration 0.002\nstep 1e-3\noutput 0.001\ntrack \"arc.trk\"\nspeed 0\n"
                            "initial x = 200\ninitial front.x = 200\ninitial rear.x = 200\n"
                            "columns x y z roll pitch yaw frame.s_track frame.y_track frame.z_track frame.roll_track "
                            "frame.pitch_track frame.yaw_track front.ws.y_track front.ws.roll_track\n");
    snprintf(sp, sizeof sp, "%s/bogie.scn", dir);
    snprintf(out, sizeof out, "%s/bogie.csv", dir);
    rs_run_config c;
    rs_run_config_default(&c);
    c.model_dir = "generated/bogie";
    c.scenario = sp;
    c.out = out;
    c.progress = 0;
    ck_assert_msg(rs_driver_run(&c, NULL, err, sizeof err) == RS_OK, "%s", err);
    read_first_row(out);

    /* the bogie's description (vehicles/examples/bogie.vdl) */
    const double m_f = 2615, g = 9.81, kpy = 3.884e6, kpz = 1.22e6, h_f = 0.60, a_wb = 1.28;
    const double th = asin(CANT_H / CANT_BASE);
    /* The frame's roll and yaw are the track's at its place; its x, y, z
     * the minimum of the potential energy there (rs_speed.h), less the
     * shift that minimum has on straight track.  By hand, in the frame's
     * canted axes (its two bushings: lateral stiffness 2 kpy, vertical
     * 2 kpz each):
     *   - the wheelsets stand on the circle at s ± a_wb, the axle boxes on
     *     the frame's chord: the frame sits a_wb²/(2R) inwards in plan
     *     (the midpoint of a chord), −a_wb²/(2R) cos θ along ĉ;
     *   - the cant's share of its weight, m_f g sin θ along −ĉ, moves it
     *     m_f g sin θ / (4 kpy) towards the low rail;
     *   - on straight track it sags m_f g / (4 kpz) (ground z), which
     *     `speed` gives back on the curve along ground z, +sin θ of it
     *     along ĉ.
     * So the frame centred between its wheelsets is 2.5 mm inside the
     * centre line: the geometry of a chord, not an error of placement. */
    const double chord = a_wb * a_wb / (2 * R_CURVE);
    const double want_y = -chord * cos(th) - m_f * g * sin(th) / (4 * kpy) + m_f * g / (4 * kpz) * sin(th);
    const double P[3] = {col("x"), col("y"), h_f + col("z")};
    double Rz[3][3], Ry[3][3], Rx[3][3], Rzy[3][3], R[3][3], e1[3], e2[3], want[RS_TREL_COUNT];
    rot('z', col("yaw"), Rz);
    rot('y', col("pitch"), Ry);
    rot('x', col("roll"), Rx);
    mul(Rz, Ry, Rzy);
    mul(Rzy, Rx, R);
    column(R, 0, e1);
    column(R, 1, e2);
    on_circle(P, e1, e2, want);
    const double inward = R_CURVE - hypot(P[0], P[1] + R_CURVE);
    printf("bogie frame at rest on the canted curve: ground y %.6f m, roll %.6f rad, %.6f m inwards in plan; "
           "s_track %.6f y_track %.6g (hand %.6g) z_track %.6f roll_track %.3g pitch_track %.3g yaw_track %.3g\n",
           P[1], col("roll"), inward, col("frame.s_track"), col("frame.y_track"), want_y, col("frame.z_track"),
           col("frame.roll_track"), col("frame.pitch_track"), col("frame.yaw_track"));
    ck_assert_msg(fabs(col("frame.y_track") - want_y) < 2e-6, "y_track %.9g vs %.9g", col("frame.y_track"), want_y);
    ck_assert_msg(fabs(col("frame.roll_track")) < 1e-6, "roll_track %g", col("frame.roll_track"));
    ck_assert_msg(fabs(col("frame.yaw_track")) < 1e-6, "yaw_track %g", col("frame.yaw_track"));
    ck_assert_msg(fabs(col("frame.pitch_track")) < 1e-6, "pitch_track %g", col("frame.pitch_track"));
    for (int j = 0; j < RS_TREL_COUNT; j++) {
        char n[64];
        snprintf(n, sizeof n, "frame.%s", rs_track_rel_suffix(j));
        ck_assert_msg(fabs(col(n) - want[j]) < (j == RS_TREL_S ? 1e-5 : 1e-6), "%s %.9f vs the circle's %.9f", n,
                      col(n), want[j]);
    }
    /* the ground frame shows the curve and the cant */
    ck_assert_msg(fabs(col("roll") - th) < 1e-9, "roll %.12f", col("roll"));
    ck_assert_msg(fabs(P[1]) > 60, "y %g", P[1]);
    ck_assert_msg(inward > 0.03, "inward %.9f", inward);
    /* the wheel bodies as before */
    ck_assert_msg(fabs(col("front.ws.y_track")) < 1e-6, "front.ws.y_track %g", col("front.ws.y_track"));
    ck_assert_msg(fabs(col("front.ws.roll_track")) < 1e-6, "front.ws.roll_track %g", col("front.ws.roll_track"));

    /* the body list: wheel bodies first, in contact order, then the others */
    rs_loaded *h = rs_load("generated/bogie", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_int_eq(rs_track_rel_n_bodies(m), 3);
    ck_assert_int_eq(rs_track_rel_n_wheel_bodies(m), 2);
    ck_assert_str_eq(rs_track_rel_body(m, 0), "front.ws");
    ck_assert_str_eq(rs_track_rel_body(m, 1), "rear.ws");
    ck_assert_str_eq(rs_track_rel_body(m, 2), "frame");
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("track_rel");
    TCase *tc = tcase_create("any body");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, pose_matches_composition);
    tcase_add_test(tc, any_body_on_a_canted_curve);
    tcase_add_test(tc, any_body_on_the_default_track);
    tcase_add_test(tc, columns_of_a_model_without_contacts);
    tcase_add_test(tc, bogie_frame_centred_on_canted_curve);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
