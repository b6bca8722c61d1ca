/*
 * test_elastic.c — the elastic multi-point contact (rs_elastic.h) in the
 * IMEX step, on the generated single wheelsets (generated/wheelset_cone:
 * 1:40 cone on a 300 mm arc rail head; generated/wheelset: S1002 on 60E1
 * 1:40), each against an answer the elastic contact does not compute:
 *
 *  - statics: a wheelset at rest settles with its rails carrying its weight,
 *    Q_left + Q_right = m g (vertical force balance), equally by symmetry,
 *    and every patch's normal force is Hertz's law of its approach,
 *    N = c_H p^{3/2} written out here (at rest the damping adds nothing);
 *  - energy: with creep and normal damping off the contact is conservative
 *    (its potential 2/5 c_H p^{5/2} per patch); T + V + V_contact of a
 *    wheelset rolling, swaying and bouncing on its patches drifts only by
 *    the integrator's error, which is first order: the drift over a fixed
 *    time halves with the step;
 *  - a second formulation: as the contact stiffness is scaled up, the
 *    elastic wheelset's lateral motion approaches the constraint contact's
 *    (the seed's formulation) — the difference shrinks monotonically;
 *  - lift-off is a state: a wheelset dropped from above the rails runs
 *    without error, with no patch until it lands.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rt_fixtures.h"
#include "rs_ws.h"

#define DIR_CONE "generated/wheelset_cone"
#define DIR_S1002 "generated/wheelset"

static double theta = 1.0; /* rs_options.contact_theta of make() */
static const double *g_E_each, *g_nu_each; /* rs_options.contact_E_each, _nu_each of make() */

static rs_ws *make(const rs_model *m, const rs_contact_ops *ops, double dt, double k_scale, int creep,
                   double damp)
{
    rs_options o;
    rs_options_default(&o);
    o.contact_theta = theta;
    o.contact = ops;
    o.dt = dt;
    o.contact_k_scale = k_scale;
    o.contact_creep = creep;
    o.contact_damp = damp;
    o.contact_E_each = g_E_each;
    o.contact_nu_each = g_nu_each;
    o.proj_tol = 1e-10;
    o.contact_tol = 1e-12;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

/* ---- statics ------------------------------------------------------------ */

START_TEST(test_static_load)
{
    RS_REQUIRE_MODEL("wheelset");
    rs_loaded *h = rt_load(DIR_S1002);
    rs_ws *ws = make(rs_loaded_model(h), rs_elastic_contact(), 1e-4, 1, 1, 1e5);
    const double mg = rt_param(ws, "m_ws") * rt_param(ws, "g");
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int k = 0; k < 3000; k++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    const double QL = rt_value(ws, "left.Q"), QR = rt_value(ws, "right.Q");
    printf("static: Q left %.2f N, right %.2f N, m g %.2f N; patches %d + %d\n", QL, QR, mg,
           rs_elastic_patches(ws, 0), rs_elastic_patches(ws, 1));
    ck_assert_msg(fabs(QL + QR - mg) < 1e-3 * mg, "Q sum %g vs m g %g", QL + QR, mg);
    ck_assert_msg(fabs(QL - QR) < 1e-3 * mg, "Q left %g right %g", QL, QR);
    /* each patch's force is Hertz's law of its approach (damping at rest: 0) */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < rs_elastic_patches(ws, i); j++) {
            const rs_elastic_patch *p = rs_elastic_patch_get(ws, i, j);
            const double N = p->c_hertz * pow(p->g.pen, 1.5);
            ck_assert_msg(fabs(p->N - N) < 1e-3 * N + 1e-6, "patch N %g, Hertz %g", p->N, N);
        }
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* ---- energy --------------------------------------------------------------- */

/* The constraint contact's state after its initial projection (the wheels
 * touching the rails) for the given y and yaw: where the elastic runs start
 * (at z = 0 with y ≠ 0 one wheel would sit deep in its rail). */
static void touching(const rs_model *m, double y, double yaw, double *z, double *roll)
{
    rs_ws *ws = make(m, rs_wheel_rail_contact(), 1e-4, 1, 1, 0);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", y), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "yaw", yaw), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    *z = rs_ws_q(ws)[2];
    *roll = rs_ws_q(ws)[3];
    rs_ws_free(&ws);
}

/* max |E(t) − E(0)| over 0.5 s, E = T + V + contact potential; *Efin the
 * change at the end. */
static double energy_drift(const rs_model *m, double dt, double *Eosc, double *Efin)
{
    double z, roll;
    touching(m, 0.003, 0.001, &z, &roll);
    rs_ws *ws = make(m, rs_elastic_contact(), dt, 1, 0, 0);
    rt_set_param(ws, "ky", 2e4);
    rt_set_param(ws, "kz", 2e5);
    rt_set_param(ws, "kroll", 5e4);
    rt_set_param(ws, "kyaw", 2e4);
    const double v = 10, r0 = rt_param(ws, "r0");
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", v), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", v / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "yaw", 0.001), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "z", z - 2e-5), RS_OK); /* pressed in: it bounces */
    ck_assert_int_eq(rs_ws_set_q(ws, "roll", roll), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "y_dot", -0.01), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double T, V;
    ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
    const double E0 = T + V + rs_elastic_energy(ws), V0 = V;
    double drift = 0, osc = 0;
    const long n = lround(0.5 / dt);
    for (long k = 1; k <= n; k++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "dt %g: %s", dt, rs_ws_error(ws));
        ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
        *Efin = T + V + rs_elastic_energy(ws) - E0;
        drift = fmax(drift, fabs(*Efin));
        osc = fmax(osc, fabs(V - V0));
    }
    *Eosc = osc;
    rs_ws_free(&ws);
    return drift;
}

START_TEST(test_energy_order)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    rs_loaded *h = rt_load(DIR_CONE);
    double osc1, osc2, f1, f2, f3;
    const double dt = 1e-4;
    /* the trapezoidal rule for the contact stiffness: conservative */
    theta = 0.5;
    const double d1 = energy_drift(rs_loaded_model(h), dt, &osc1, &f1);
    const double d2 = energy_drift(rs_loaded_model(h), dt / 2, &osc2, &f2);
    const double p = log2(d1 / d2);
    printf("elastic energy (creep and damping off, 0.5 s, theta 0.5): drift %.4g J at dt %g, %.4g J "
           "at dt/2 (order %.3f); energy exchanged %.4g J\n", d1, dt, d2, p, osc1);
    ck_assert_msg(p > 0.75 && p < 1.35, "observed order %.3f (drifts %g, %g J)", p, d1, d2);
    ck_assert_msg(osc1 > 0.05, "energy exchanged %g J: no real motion", osc1);
    ck_assert_msg(d2 < 0.1 * osc1, "drift %g J vs energy exchanged %g J", d2, osc1);
    /* the default (theta 1) damps the contact's vibration: it only loses
     * energy, at most what the bounce started with (the contact potential
     * beyond the static approach, well below the energy exchanged) */
    theta = 1.0;
    energy_drift(rs_loaded_model(h), dt, &osc2, &f3);
    printf("theta 1: energy change %.4g J over 0.5 s\n", f3);
    ck_assert_msg(f3 < d1 && f3 > -0.5 * osc1, "theta 1: energy change %g J", f3);
    (void)f1, (void)f2;
    rs_unload(&h);
}
END_TEST

/* ---- a second formulation: the constraint contact ------------------------ */

/* y(t) every 10 ms over 1 s of a swaying wheelset rolling at 10 m/s, at a
 * step small enough that the two formulations' discretization errors stay
 * below the differences the stiffness makes. */
#define SWAY_DT 2.5e-5
static void sway(const rs_model *m, const rs_contact_ops *ops, double k_scale, double y[101])
{
    double z, roll;
    touching(m, 0.002, 0, &z, &roll);
    rs_ws *ws = make(m, ops, SWAY_DT, k_scale, 1, 1e5);
    ck_assert_int_eq(rs_ws_set_q(ws, "z", z), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "roll", roll), RS_OK);
    rt_set_param(ws, "ky", 2e5);
    rt_set_param(ws, "kyaw", 2e5);
    const double v = 10, r0 = rt_param(ws, "r0");
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", v), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", v / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.002), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    y[0] = rs_ws_q(ws)[1];
    for (int k = 1; k <= 100; k++) {
        for (int j = 0; j < 400; j++)
            ck_assert_msg(rs_step(ws) == RS_OK, "k_scale %g: %s", k_scale, rs_ws_error(ws));
        y[k] = rs_ws_q(ws)[1];
    }
    rs_ws_free(&ws);
}

START_TEST(test_converges_to_constraint)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    rs_loaded *h = rt_load(DIR_CONE);
    const rs_model *m = rs_loaded_model(h);
    double yc[101], ye[101];
    sway(m, rs_wheel_rail_contact(), 1, yc);
    const double scales[4] = {1, 10, 100, 1000};
    double e[4];
    for (int s = 0; s < 4; s++) {
        sway(m, rs_elastic_contact(), scales[s], ye);
        e[s] = 0;
        for (int k = 0; k <= 100; k++)
            e[s] = fmax(e[s], fabs(ye[k] - yc[k]));
        printf("elastic vs constraint, stiffness x%g: max |y_e - y_c| = %.4g m (y0 = 2 mm)\n", scales[s],
               e[s]);
    }
    ck_assert_msg(e[1] < e[0] && e[2] < e[1] && e[3] < e[2], "no convergence: %g %g %g %g", e[0], e[1],
                  e[2], e[3]);
    ck_assert_msg(e[3] < 0.2 * e[0], "x1000 (%g m) not clearly closer than x1 (%g m)", e[3], e[0]);
    ck_assert_msg(e[3] < 1e-3 * 0.002, "x1000 still %g m from the constraint contact", e[3]);
    rs_unload(&h);
}
END_TEST

/* ---- lift-off --------------------------------------------------------------- */

START_TEST(test_liftoff_is_a_state)
{
    RS_REQUIRE_MODEL("wheelset");
    rs_loaded *h = rt_load(DIR_S1002);
    double z0, roll;
    touching(rs_loaded_model(h), 0, 0, &z0, &roll);
    rs_ws *ws = make(rs_loaded_model(h), rs_elastic_contact(), 1e-4, 1, 1, 1e5);
    ck_assert_int_eq(rs_ws_set_q(ws, "z", z0 + 0.005), RS_OK); /* 5 mm above the rails */
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    int first = -1, landed = 0;
    for (int k = 0; k < 1500; k++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        const int np = rs_elastic_patches(ws, 0) + rs_elastic_patches(ws, 1);
        if (np > 0 && first < 0)
            first = k;
        landed += np > 0;
    }
    /* free fall over 5 mm takes sqrt(2 h / g) = 31.93 ms: the first step
     * whose start state touches is the 320th (index 319) */
    printf("lift-off: first patch at step index %d (free fall: 319), %d steps with patches\n", first, landed);
    ck_assert_msg(first >= 318 && first <= 320, "first contact at step %d (319 expected)", first);
    ck_assert_int_gt(landed, 0);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* ---- material per contact ------------------------------------------------ */

/* The cone wheelset at rest, twice: steel everywhere, then the left wheel's
 * contact (0) at half Young's modulus and the right one's (1) at Poisson
 * ratio 0.  Hertz (Johnson, Contact Mechanics, §4.2): with equal materials
 * E* = E / (2 (1 − ν²)); for fixed curvatures the constant of N = c_H p^{3/2}
 * is proportional to E*, and the semi-axes are a ∝ (N / E*)^{1/3}.  The
 * cone's curvature is zero across the profile and the 300 mm rail arc's is
 * constant, so the curvatures do not change between the runs: the ratios
 * are E*'s alone. */
START_TEST(test_material_per_contact)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    rs_loaded *h = rt_load(DIR_CONE);
    const double E = 2.1e11, nu = 0.28, E_each[2] = {E / 2, NAN}, nu_each[2] = {NAN, 0.0};
    const double estar_ratio[2] = {0.5, (1 - nu * nu) / 1.0};   /* E*_B / E*_A, left and right */
    rs_elastic_patch pa[2], pb[2];
    for (int run = 0; run < 2; run++) {
        g_E_each = run ? E_each : NULL;
        g_nu_each = run ? nu_each : NULL;
        rs_ws *ws = make(rs_loaded_model(h), rs_elastic_contact(), 1e-4, 1, 1, 1e5);
        g_E_each = g_nu_each = NULL;
        ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
        for (int k = 0; k < 3000; k++)
            ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        for (int i = 0; i < 2; i++) {
            ck_assert_int_eq(rs_elastic_patches(ws, i), 1);
            (run ? pb : pa)[i] = *rs_elastic_patch_get(ws, i, 0);
        }
        rs_ws_free(&ws);
    }
    for (int i = 0; i < 2; i++) {
        const double cr = pb[i].c_hertz / pa[i].c_hertz;
        const double ar = pb[i].a / pa[i].a, want_a = cbrt(pb[i].N / pa[i].N / estar_ratio[i]);
        printf("material per contact: %s wheel: c_H ratio %.6f (E* ratio %.6f), a ratio %.6f ((N ratio / E* "
               "ratio)^1/3 %.6f), N %.1f -> %.1f N\n", i ? "right" : "left", cr, estar_ratio[i], ar, want_a,
               pa[i].N, pb[i].N);
        ck_assert_msg(fabs(cr - estar_ratio[i]) < 1e-4 * estar_ratio[i], "c_H ratio %g, want %g", cr, estar_ratio[i]);
        ck_assert_msg(fabs(ar - want_a) < 1e-4 * want_a, "a ratio %g, want %g", ar, want_a);
    }
    /* a bad value names the contact */
    const double bad[2] = {NAN, 0.5};
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_elastic_contact();
    o.contact_nu_each = bad;
    rs_ws *ws = NULL;
    char err[600];
    ck_assert_int_eq(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "contact 'right'") && strstr(err, "Poisson ratio 0.5"), "%s", err);
    rs_unload(&h);
}
END_TEST

/* ---- the track's gauge ---------------------------------------------------- */

/* The wheelset places its 60E1 gauge points 0.7175 m from the centre line
 * (gauge 1.435 m); a metre-gauge track file is an error in both modes, with
 * the offset that would match: 0.5 − y_g = 0.535535 m. */
START_TEST(test_gauge_mismatch)
{
    RS_REQUIRE_MODEL("wheelset");
    rs_loaded *h = rt_load(DIR_S1002);
    const rs_contact_ops *modes[2] = {rs_wheel_rail_contact(), rs_elastic_contact()};
    for (int k = 0; k < 2; k++) {
        rs_options o;
        rs_options_default(&o);
        o.contact = modes[k];
        o.track_file = "vehicles/tracks/straight_metre.trk";
        rs_ws *ws;
        char err[600];
        ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
        const int st = rs_ws_init(ws) ? 1 : rs_step(ws);
        printf("gauge check (%s): %s\n", k ? "elastic" : "constraint", rs_ws_error(ws));
        ck_assert_int_ne(st, RS_OK);
        ck_assert_msg(strstr(rs_ws_error(ws), "gauge of 1.4350 m") &&
                          strstr(rs_ws_error(ws), "says gauge 1.0000 m") &&
                          strstr(rs_ws_error(ws), "set the rail offset to 0.535535 m"),
                      "%s", rs_ws_error(ws));
        rs_ws_free(&ws);
        /* checked again at every initialization: a workspace that started
         * on the standard gauge, then given a rail offset of a metre gauge */
        o.track_file = NULL;
        ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
        ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
        rt_set_param(ws, "b_r", 0.535535);
        ck_assert_int_ne(rs_ws_init(ws), RS_OK);
        ck_assert_msg(strstr(rs_ws_error(ws), "gauge"), "%s", rs_ws_error(ws));
        printf("gauge check again (%s): %s\n", k ? "elastic" : "constraint", rs_ws_error(ws));
        rs_ws_free(&ws);
    }
    rs_unload(&h);
}
END_TEST

/* ---- a worn rail on one side ---------------------------------------------- */

/* rail_profile_right replaces the right rails only.  The cone wheelset
 * (1:40 cone on 300 mm arc heads) with a 160 mm arc head on the right (the
 * FEVE rail: no gauge_point; by the 14-mm rule its gauge point is 26.3 mm
 * in from the crown, so at the model's 0.75 m offset the gauge is 1.44746 m
 * and the test's track says so; the 300 mm table does not reach 14 mm down,
 * so the left is not checked) touches each head where the
 * arc's slope equals the cone's, u_r = −R tan γ (γ = atan 1/40 corrected by
 * the wheelset's small roll): −7.50 mm on the left, −4.00 mm on the right. */
START_TEST(test_rail_profile_per_side)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    rs_loaded *h = rt_load(DIR_CONE);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_elastic_contact();
    o.dt = 1e-4;
    o.rail_profile_right = "vehicles/profiles/arc_r160_corner.prf";
    /* straight.trk with the gauge this rail makes (straight, no cant: the
     * gauge line changes nothing else) */
    char trk[] = "/tmp/rs_per_side_XXXXXX";
    const int fd = mkstemp(trk);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs("railsym-track 1\nname straight_wide\ngauge 1.44746\ninclination 1:40\n"
          "origin x -10 y 0 z 0 heading 0 s -10\nstraight 2010\n", f);
    fclose(f);
    o.track_file = trk;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int k = 0; k < 2000; k++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    const rs_elastic_patch *l = rs_elastic_patch_get(ws, 0, 0), *r = rs_elastic_patch_get(ws, 1, 0);
    ck_assert_ptr_nonnull(l);
    ck_assert_ptr_nonnull(r);
    const double roll = rs_ws_q(ws)[3];
    printf("per-side rails: left u_r %.3f mm (R 300), right u_r %.3f mm (R 160), roll %.2e rad\n",
           l->g.u_r * 1e3, r->g.u_r * 1e3, roll);
    /* the roll tilts each wheel's cone against its rail by ±roll */
    ck_assert_msg(fabs(l->g.u_r + 0.300 * tan(atan(1.0 / 40) - roll)) < 0.3e-3, "left u_r %g", l->g.u_r);
    ck_assert_msg(fabs(r->g.u_r + 0.160 * tan(atan(1.0 / 40) + roll)) < 0.3e-3, "right u_r %g", r->g.u_r);
    rs_ws_free(&ws);
    rs_unload(&h);
    unlink(trk);
}
END_TEST

/* ---- a pair the search cannot serve ---------------------------------------- */

/* S1002's flange (up to 70° of slope) on a 300 mm arc head that ends at
 * 36 mm (7° of slope): a flange contact would run off the rail table.
 * Refused at initialization, naming the contact, both profiles and the fix. */
START_TEST(test_rail_too_narrow_for_the_flange)
{
    RS_REQUIRE_MODEL("wheelset");
    rs_loaded *h = rt_load(DIR_S1002);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_elastic_contact();
    o.rail_profile = "vehicles/profiles/arc_r300.prf";
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_ne(rs_ws_init(ws), RS_OK);
    printf("narrow rail: %s\n", rs_ws_error(ws));
    ck_assert_msg(strstr(rs_ws_error(ws), "initialization") && strstr(rs_ws_error(ws), "contact 'left'") &&
                      strstr(rs_ws_error(ws), "S1002") && strstr(rs_ws_error(ws), "arc_r300") &&
                      strstr(rs_ws_error(ws), "extend the rail profile"),
                  "%s", rs_ws_error(ws));
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST


/* A rail without gauge_point (the FEVE's arc_r160_corner): its gauge point
 * by the 14-mm rule is 26.27 mm in from the crown (contact-geometry's
 * measure), so the model's 0.535 m rail offsets make a gauge of
 * 2 (0.535 - 0.02627) = 1.0175 m.  A metre-gauge track is refused, naming
 * the file's line and both gauges; the FEVE's own track (1.01746) passes. */
START_TEST(test_gauge_derived_14mm)
{
    RS_REQUIRE_MODEL("feve3000");
    rs_loaded *h = rt_load("generated/feve3000");
    const char *trk[2] = {"vehicles/tracks/straight_metre.trk", "vehicles/tracks/feve3000_straight.trk"};
    for (int k = 0; k < 2; k++) {
        rs_options o;
        rs_options_default(&o);
        o.contact = rs_elastic_contact();
        o.track_file = trk[k];
        rs_ws *ws;
        char err[600];
        ck_assert_msg(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err) == RS_OK, "%s", err);
        const int st = rs_ws_init(ws);
        printf("derived gauge check (%s): %s\n", trk[k], st ? rs_ws_error(ws) : "ok");
        if (k == 0) {
            ck_assert_int_ne(st, RS_OK);
            ck_assert_msg(strstr(rs_ws_error(ws), "gauge of 1.0175 m (gauge point 14 mm below the top") &&
                              strstr(rs_ws_error(ws), "says gauge 1.0000 m (vehicles/tracks/straight_metre.trk:") &&
                              strstr(rs_ws_error(ws), "set the rail offset to 0.5262") &&
                              strstr(rs_ws_error(ws), "'gauge 1.0174"),
                          "%s", rs_ws_error(ws));
        } else {
            ck_assert_msg(st == RS_OK, "%s", rs_ws_error(ws));
        }
        rs_ws_free(&ws);
    }
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_static_load);
    tcase_add_test(tc, test_energy_order);
    tcase_add_test(tc, test_converges_to_constraint);
    tcase_add_test(tc, test_liftoff_is_a_state);
    tcase_add_test(tc, test_material_per_contact);
    tcase_add_test(tc, test_gauge_mismatch);
    tcase_add_test(tc, test_gauge_derived_14mm);
    tcase_add_test(tc, test_rail_profile_per_side);
    tcase_add_test(tc, test_rail_too_narrow_for_the_flange);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
