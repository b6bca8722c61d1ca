/*
 * test_elastic_validation.c — physics validations of the elastic
 * multi-point wheel-rail contact (rs_elastic.h; docs/contact.md "Elastic
 * contact: validation"), each against a closed-form answer the contact does
 * not compute:
 *
 *  - flange climb (Nadal 1908): a wheelset with independently rotating
 *    S1002 wheels on 60E1 1:40 (generated/climb, vehicles/examples/
 *    climb.vdl; then again with the wheels tied by a stiff torsion bushing,
 *    a solid axle) rolling at 5 m/s, its yaw held at ψ = 20 mrad, pushed
 *    against the left rail by a lateral force growing at 20 kN/s; μ = 0.3,
 *    FASTSIM.  The climb starts when the left wheel has risen 1 mm; its Y/Q
 *    then (and when its tread patch unloads, the flange carrying alone) is
 *    Nadal's (tan β − μ)/(1 + μ tan β) within 10 %, β the flange patch's
 *    contact angle (the largest p<j>.alpha, 70.1° for S1002 on 60E1 1:40);
 *  - the same rig's bounce at ψ = 5 mrad (issue 20): its creepages against
 *    the wheel's motion computed here from climb.vdl's kinematics, and,
 *    frictionless under a constant push, its energy, which may only fall:
 *    it does at ψ = 20 mrad, and jumps up at ψ = 0 on the conformal flange
 *    root (a known defect of the normal law, asserted so that a fix shows);
 *  - curving with cant deficiency: the two-axle bogie (generated/bogie: a
 *    free frame on two wheelsets; nothing but the rails carries a lateral
 *    force) runs vehicles/tracks/r300.trk (40 m straight, 60 m clothoid with
 *    a linear cant ramp, R 300 m right curve with 100 mm cant) at 19.3 m/s
 *    (≈ 89 mm cant deficiency), elastic, μ = 0.3, FASTSIM, Δt = 0.25 ms.  No
 *    step fails; on s = 100..150 m (20 m into the curve onwards) the leading
 *    outer wheel (front.left) is the only one with a flange patch (α > 60°),
 *    carries most of the guidance, and the mean of Σ σ Y (σ = +1 left, −1
 *    right: the rails' force on the bogie towards the curve's centre in the
 *    canted plane) equals m (V²/R cos φ − g sin φ), sin φ = h / 1.5 m, within
 *    2 %.  The leading outer wheel does not sit still on its flange: it
 *    chatters between flange root (≈ 28°) and flange (70°) at ≈ 50 Hz
 *    (docs/contact.md "Elastic contact: validation"), so the balance is
 *    checked on the mean and the flange contact on its share of the steps.
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_creep.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_profile.h"
#include "rs_test.h"
#include "rt_fixtures.h"
#include "rs_ws.h"

/* Exploration knobs (environment; the checks hold for the defaults only):
 * CLIMB_DT, CLIMB_PSI, CLIMB_RATE, CLIMB_V, CLIMB_LAW, CLIMB_CREEP,
 * CLIMB_THETA, CLIMB_KSCALE, CLIMB_TIME, CLIMB_Y0 (the Nadal runs' start);
 * CURVE_DT, CURVE_V, CURVE_LAW, CURVE_MU, CURVE_CREEP, CURVE_KSCALE,
 * CURVE_DAMP, CURVE_CPY, CURVE_CPZ;
 * RS_VERBOSE=1 (or 2) prints the runs. */
static double knob(const char *name, double def)
{
    const char *v = getenv(name);
    return v ? atof(v) : def;
}

static rs_var var(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_msg(rs_model_find(rs_ws_model(ws), name, &v) == RS_OK, "%s", name);
    return v;
}

static int q_index(rs_ws *ws, const char *name)
{
    rs_var v = var(ws, name);
    return v.index;
}

/* ---- flange climb ---------------------------------------------------------- */

#define MU 0.3
static int verbose;

/* One climb run: k_axle 0 independently rotating wheels, > 0 a solid axle
 * (the torsion bushing between the wheels).  Writes Y/Q of the left wheel
 * at the climb's start and when its tread unloads, and Nadal's limit at the
 * flange patch's contact angle then. */
/* The elastic contact's events (rs_options.contact_event) of one run: how
 * many, and the last. */
typedef struct event_log {
    int n;
    rs_contact_event last;
} event_log;

static int record_event(void *ctx, const rs_contact_event *e)
{
    event_log *l = ctx;
    l->n++;
    l->last = *e;
    return 0;
}

/* The climb rig (generated/climb) with options o, its yaw held at psi, the
 * wheels tied by the torsion bushing k_axle, c_axle (0: independent),
 * rolling at V; at = {y, z, rail offset b_r (NaN: climb.vdl's)} where it
 * starts, or NULL: the S1002 rig's, next to the left flange (y 6 mm: 0.2 mm
 * from it), 0.1 mm above the rails, climb.vdl's b_r; initialized. */
static rs_ws *climb_rig_at(const rs_model *m, const rs_options *o, double psi, double k_axle, double c_axle,
                           double V, const double *at)
{
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, o, &ws, err, sizeof err) == RS_OK, "%s", err);
    rt_set_param(ws, "psi", psi);
    rt_set_param(ws, "k_axle", k_axle);
    rt_set_param(ws, "c_axle", c_axle);
    if (at && !isnan(at[2]))
        rt_set_param(ws, "b_r", at[2]);
    const double r0 = rt_param(ws, "r0");
    ck_assert_int_eq(rs_ws_set_q(ws, "yaw", psi), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", at ? at[0] : 0.006), RS_OK); /* S1002: 6.2 mm from its flange */
    ck_assert_int_eq(rs_ws_set_q(ws, "z", at ? at[1] : 1e-4), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", V), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_l_dot", V / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_r_dot", V / r0), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

static rs_ws *climb_rig(const rs_model *m, const rs_options *o, double psi, double k_axle, double c_axle, double V)
{
    return climb_rig_at(m, o, psi, k_axle, c_axle, V, NULL);
}

/* The climb rig's options: the elastic contact at step dt, its creep
 * forces FASTSIM saturating at MU, or (creep 0) none, the law and μ left
 * at their defaults. */
static void climb_options(rs_options *o, double dt, int creep)
{
    rs_options_default(o);
    o->contact = rs_elastic_contact();
    o->dt = dt;
    if (creep) {
        o->contact_mu = MU;
        o->contact_law = RS_CREEP_FASTSIM;
    } else
        o->contact_creep = 0;
}

static void climb(const rs_model *m, double k_axle, double c_axle, double *yq_out, double *yq_flange_out,
                  double *nadal_out)
{
    const double dt = knob("CLIMB_DT", 1e-4);
    const double psi = knob("CLIMB_PSI", 0.02);
    const double rate = knob("CLIMB_RATE", 20e3);
    rs_options o;
    climb_options(&o, dt, 1);
    o.contact_law = (int)knob("CLIMB_LAW", o.contact_law);
    o.contact_creep = (int)knob("CLIMB_CREEP", o.contact_creep);
    o.contact_theta = knob("CLIMB_THETA", o.contact_theta);
    o.contact_k_scale = knob("CLIMB_KSCALE", o.contact_k_scale);
    o.contact_climb_time = knob("CLIMB_TIME", o.contact_climb_time);
    event_log ev = {0};
    o.contact_event = record_event;
    o.contact_event_ctx = &ev;
    /* started 2 mm inside the flangeway, not the rig's 0.2 mm: from 0.2 mm
     * the yawed wheel's flange root meets the rail at the first step
     * (Q 0.95 MN) and the rig bounces on one wheel; with the strip patch's
     * creep ellipse from its overlap (session 43) that bounce threw the
     * left flange onto its rail past the flank's steepest point at 0.058 s
     * (a derailment event, and a climb with it, before the ramp).  From
     * 2 mm it rolls into the flange by itself (Q 95 kN at the first step);
     * the ramp's climb is the same within 1 ms and 0.001 in Y/Q from
     * either start. */
    const double at[3] = {knob("CLIMB_Y0", 0.004), 1e-4, NAN};
    rs_ws *ws = climb_rig_at(m, &o, psi, k_axle, c_axle, knob("CLIMB_V", 5), at);
    const double b0 = rt_param(ws, "b0");
    const int iz = q_index(ws, "z"), iroll = q_index(ws, "roll"), iy = q_index(ws, "y");
    const rs_var vY = var(ws, "left.Y"), vQ = var(ws, "left.Q");
    double *q = rs_ws_q(ws);
    /* settle on the flange (F_y = 0: the yawed wheelset rolls into the left
     * rail by itself), then ramp F_y from F0 at RATE; the climb starts when
     * the left wheel has risen LIFT above its height at the ramp's start */
    const double t_ramp = 1.0, F0 = 20e3, LIFT = 1e-3;
    double lift_ref = NAN, yq = NAN, alpha = 0, t_climb = NAN, yq_flange = NAN, yq_peak = 0, lift = 0;
    const long n = lround((t_ramp + 60e3 / rate) / dt);
    for (long k = 0; k < n && isnan(t_climb); k++) {
        const double t = rs_ws_time(ws), F = t < t_ramp ? 0 : F0 + rate * (t - t_ramp);
        ck_assert_int_eq(rs_ws_set_u(ws, "F_y", F), RS_OK);
        ck_assert_msg(rs_step(ws) == RS_OK, "t %g: %s", t, rs_ws_error(ws));
        lift = q[iz] + b0 * sin(q[iroll]);
        const double Y = rs_ws_value(ws, vY, NULL), Q = rs_ws_value(ws, vQ, NULL);
        double al = 0; /* the flange patch: the largest contact angle */
        for (int j = 0; j < rs_elastic_patches(ws, 0); j++)
            al = fmax(al, rs_elastic_patch_get(ws, 0, j)->g.alpha);
        if (verbose && k % lround(0.05 / dt) == 0)
            printf("t %.3f F %.0f y %.5f lift %.5f  Y %.0f Q %.0f Y/Q %.4f alpha %.2f deg patches %d  right: Y %.0f Q %.0f\n",
                   t, F, q[iy], isnan(lift_ref) ? 0 : lift - lift_ref, Y, Q, Y / Q,
                   al * 180 / M_PI, rs_elastic_patches(ws, 0), rt_value(ws, "right.Y"), rt_value(ws, "right.Q"));
        if (t < t_ramp)
            continue;
        if (isnan(lift_ref))
            lift_ref = lift;
        yq_peak = fmax(yq_peak, Y / Q);
        if (lift - lift_ref > LIFT && rs_elastic_patches(ws, 0) > 0) {
            t_climb = t;
            yq = Y / Q;
            alpha = al;
        } else if (isnan(yq_flange) && rs_elastic_patches(ws, 0) == 1 && al > 1)
            yq_flange = Y / Q; /* the tread unloads: the wheel rides on its flange alone */
    }
    ck_assert_msg(!isnan(t_climb), "no climb up to F_y = %g N (lift %g m)", F0 + rate * (n * dt - t_ramp),
                  lift - lift_ref);
    const double tb = tan(alpha), nadal = (tb - MU) / (1 + MU * tb);
    printf("flange climb (%s, psi %g rad, mu %g, %s, dt %g, F_y rate %g N/s): climb at t %.3f s (lift %g m), "
           "Y/Q %.4f, flange angle %.3f deg, Nadal %.4f (ratio %.4f); Y/Q when the tread unloads %.4f, "
           "peak %.4f; axle twist %.3g mrad\n",
           k_axle > 0 ? "solid axle" : "independent wheels", psi, MU, o.contact_law == 1 ? "FASTSIM" : o.contact_law == 2 ? "Polach" : "Kalker sat.", dt, rate,
           t_climb, LIFT, yq, alpha * 180 / M_PI, nadal, yq / nadal, yq_flange, yq_peak,
           1e3 * (q[q_index(ws, "spin_l")] - q[q_index(ws, "spin_r")]));
    ck_assert_msg(alpha > 65 * M_PI / 180 && alpha < 75 * M_PI / 180, "flange angle %g deg", alpha * 180 / M_PI);
    /* the contact reported the climb itself: its last event is the left
     * wheel's flange climbing, during the force ramp and by the climb's
     * start, at Nadal's limit of the wheel's flange angle (the profile's
     * steepest slope, within 1 % of the patch's angle here).  (Earlier ones
     * come from the wheelset's first roll into the flange.) */
    const rs_contact_event *e = &ev.last;
    printf("last event: kind %d, contact %d, t %.4f s (Y/Q at the limit since %.4f s, climb_time %g s; ramp from "
           "%g s, climb at %.4f s), Y/Q %.4f, limit %.4f at %.2f deg (%d events)\n",
           e->kind, e->contact, e->t, e->t_start, o.contact_climb_time, t_ramp, t_climb, e->Y_Q, e->limit,
           e->alpha * 180 / M_PI, ev.n);
    /* the sustained criterion (rs_climb.h): reported contact_climb_time
     * after Y/Q reached the limit, at the step that completes it */
    ck_assert_msg(e->t - e->t_start >= o.contact_climb_time - 1e-9 &&
                      e->t - e->t_start < fmax(o.contact_climb_time, dt) + 1.5 * dt,
                  "event at %g s, limit held since %g s (climb_time %g s)", e->t, e->t_start,
                  o.contact_climb_time);
    /* with the literal criterion (CLIMB_TIME=0) the wheelset's first roll
     * into the flange adds 11 one-step exceedances; held 0.05 s they are no
     * climb: the ramp's climb is the only event */
    if (o.contact_climb_time >= 0.05)
        ck_assert_int_eq(ev.n, 1);
    ck_assert_msg(ev.n > 0 && e->kind == RS_EVENT_FLANGE_CLIMB && e->contact == 0 && e->t >= t_ramp &&
                      e->t <= t_climb + 1.5 * dt && e->Y_Q >= e->limit && fabs(e->limit - nadal) < 0.01 * nadal,
                  "events: %d, last kind %d contact %d at t %g (ramp %g, climb %g), Y/Q %g, limit %g (Nadal %g)",
                  ev.n, e->kind, e->contact, e->t, t_ramp, t_climb, e->Y_Q, e->limit, nadal);
    ck_assert_int_eq((int)rs_ws_stats(ws)->contact_events, ev.n);
    *yq_out = yq;
    *yq_flange_out = yq_flange;
    *nadal_out = nadal;
    rs_ws_free(&ws);
}

START_TEST(test_flange_climb_nadal)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    double yq, yq_flange, nadal;
    /* independently rotating wheels: the whole μ N acts up the flange */
    climb(rs_loaded_model(h), 0, 0, &yq, &yq_flange, &nadal);
    ck_assert_msg(fabs(yq / nadal - 1) < 0.10, "Y/Q %g at the climb vs Nadal %g", yq, nadal);
    ck_assert_msg(fabs(yq_flange / nadal - 1) < 0.10, "Y/Q %g when the tread unloads vs Nadal %g", yq_flange,
                  nadal);
    /* a solid axle (torsion bushing: twist < 0.1 mrad): at the climb the
     * right wheel is nearly unloaded and slips, the spin follows the flange
     * patch, whose longitudinal creepage stays small: Nadal again */
    climb(rs_loaded_model(h), 1e7, 1e4, &yq, &yq_flange, &nadal);
    ck_assert_msg(fabs(yq / nadal - 1) < 0.10, "solid axle: Y/Q %g at the climb vs Nadal %g", yq, nadal);
    rs_unload(&h);
}
END_TEST

/* ---- the bounce at a small angle of attack (issue 20) ------------------------ */

/* At ψ = 5 mrad the rig, F_y = 0, does not sit on its flange: the left wheel
 * hops (lift-off in 38 % of the steps over 1..2 s, Q up to 144 kN against
 * 24 kN), landing on the flange root (25–43°) and the flange (70°) in turn.
 * Two questions decide whether that is physics (docs/contact.md "Elastic
 * contact: validation", "The bounce at ψ = 5 mrad"): are the creepages
 * those of the wheel's motion, and where does the energy come from. */

/* The rig's kinematics written out from climb.vdl: B_yaw = rot(z, yaw),
 * B_nsw = rot(B_yaw's x, roll), wheel = rot(B_nsw's y, spin); the wheel
 * centre W = (x, y, r0 + z) + sg b0 e_y(B_nsw).  Gives W's velocity, the
 * wheel's angular velocity and the axle to the wheel's field side. */
static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double a[3], const double b[3], double r[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

typedef struct rig_idx {
    int x, y, z, roll, yaw, spin[2];
} rig_idx;

static void rig_wheel(const rig_idx *k, const double *q, const double *qd, int i, double b0, double vW[3],
                      double om[3], double a[3])
{
    const double sg = i == 0 ? 1 : -1, cy = cos(q[k->yaw]), sy = sin(q[k->yaw]);
    const double cr = cos(q[k->roll]), sr = sin(q[k->roll]);
    const double ex[3] = {cy, sy, 0}, ey[3] = {-sy * cr, cy * cr, sr};
    /* B_nsw turns at yaw' about z and roll' about B_yaw's x */
    double omn[3], lever[3];
    for (int c = 0; c < 3; c++) {
        omn[c] = qd[k->roll] * ex[c] + (c == 2 ? qd[k->yaw] : 0);
        om[c] = omn[c] + qd[k->spin[i]] * ey[c];
        lever[c] = sg * b0 * ey[c];
        a[c] = sg * ey[c];
    }
    double wl[3];
    cross3(omn, lever, wl);
    vW[0] = qd[k->x] + wl[0], vW[1] = qd[k->y] + wl[1], vW[2] = qd[k->z] + wl[2];
}

START_TEST(test_climb_creepages_by_hand)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    rs_options o;
    climb_options(&o, 1e-4, 1);
    rs_ws *ws = climb_rig(rs_loaded_model(h), &o, 0.005, 0, 0, 5);
    ck_assert_int_eq(rs_ws_set_u(ws, "F_y", 40e3), RS_OK);
    const rig_idx k = {q_index(ws, "x"), q_index(ws, "y"), q_index(ws, "z"), q_index(ws, "roll"),
                       q_index(ws, "yaw"), {q_index(ws, "spin_l"), q_index(ws, "spin_r")}};
    const double b0 = rt_param(ws, "b0"), r0 = rt_param(ws, "r0");
    rs_profile s1002;
    char err[300];
    ck_assert_msg(rs_profile_load(&s1002, "vehicles/profiles/s1002.prf", err, sizeof err) == RS_OK, "%s", err);
    const int nq = rs_ws_model(ws)->n_q;
    ck_assert_int_le(nq, 16);
    double q0[16], qd0[16], err_xi = 0, err_sp = 0, err_r = 0;
    int checked = 0, flange = 0, hint = 0;
    /* pushed onto its left flange by F_y 40 kN: 1 s to settle (one patch
     * over the flange root and flank, u_w −38.9..−30.8 mm, its point at
     * 47.7°; without the push the rig rests on the root at 34°), then
     * 0.2 s, every step: the results describe the step's start.  (The point
     * law bounced here, its flat-gap defect: docs/contact.md.) */
    for (long n = 0; n < 12000; n++) {
        memcpy(q0, rs_ws_q(ws), (size_t)nq * sizeof(double));
        memcpy(qd0, rs_ws_qd(ws), (size_t)nq * sizeof(double));
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        /* a step solved more than once may have taken a wheel's patches
         * again at its predicted end pose (the Newton correction,
         * docs/contact.md "Step size"): those describe that pose */
        if (n < 10000 || rs_elastic_step_solves(ws) > 1)
            continue;
        for (int i = 0; i < 2; i++) {
            double vW[3], om[3], a[3];
            rig_wheel(&k, q0, qd0, i, b0, vW, om, a);
            for (int j = 0; j < rs_elastic_patches(ws, i); j++) {
                const rs_elastic_patch *p = rs_elastic_patch_get(ws, i, j);
                if (!(p->N > 0))
                    continue;
                /* the contact point on the wheel's surface: u_w along the
                 * axle, r0 + z_w(u_w) from it */
                const double ua = dot3(p->r, a);
                double radial[3];
                for (int c = 0; c < 3; c++)
                    radial[c] = p->r[c] - ua * a[c];
                err_r = fmax(err_r, fabs(ua - p->g.u_w));
                err_r = fmax(err_r, fabs(sqrt(dot3(radial, radial)) - r0 -
                                         rs_profile_eval(&s1002, p->g.u_w, &hint, NULL, NULL)));
                /* the material velocity there (the rail is still), in the
                 * contact base: t_x the track's tangent (x) in the contact
                 * plane, t_y = n × t_x; reference speed as rs_elastic.c */
                double wr[3], vP[3], tx[3] = {1, 0, 0}, ty[3];
                cross3(om, p->r, wr);
                for (int c = 0; c < 3; c++) {
                    vP[c] = vW[c] + wr[c];
                    tx[c] -= p->n[0] * p->n[c];
                }
                const double ntx = sqrt(dot3(tx, tx));
                for (int c = 0; c < 3; c++)
                    tx[c] /= ntx;
                cross3(p->n, tx, ty);
                const double V = 0.5 * (sqrt(dot3(vW, vW)) + sqrt(dot3(wr, wr)));
                const double Veff = sqrt(V * V + o.contact_vmin * o.contact_vmin);
                const double xi[3] = {dot3(vP, tx) / Veff, dot3(vP, ty) / Veff, dot3(om, p->n) / Veff};
                err_xi = fmax(err_xi, fmax(fabs(xi[0] - p->xi[0]), fabs(xi[1] - p->xi[1])));
                err_sp = fmax(err_sp, fabs(xi[2] - p->xi[2]));
                checked++;
                if (i == 0 && p->g.alpha > 45 * M_PI / 180) {
                    /* the flange leads (ψ > 0): there the wheel's surface
                     * moves down, the wheel slides down the flange (ξ_y < 0,
                     * t_y up the flange) and friction pushes it up (f_y > 0):
                     * Nadal's mechanism */
                    ck_assert_msg(p->r[0] > 0 && vP[2] < 0 && xi[1] < 0 && p->f[1] > 0,
                                  "flange patch: lead %g m, v_z %g m/s, xi_y %g, f_y %g N", p->r[0], vP[2],
                                  xi[1], p->f[1]);
                    flange++;
                }
            }
        }
    }
    printf("climb rig at psi 5 mrad, 1.0..1.2 s: %d loaded patches (%d on the left flange); creepages against the "
           "wheel's motion by hand: largest difference %.3g (x, y), %.3g 1/m (spin); contact point off the wheel's "
           "surface by %.3g m\n", checked, flange, err_xi, err_sp, err_r);
    ck_assert_msg(err_xi < 1e-9 && err_sp < 1e-7, "creepages: %g, spin %g 1/m", err_xi, err_sp);
    ck_assert_msg(err_r < 1e-9, "contact point %g m off the wheel", err_r);
    ck_assert_int_gt(checked, 500);
    ck_assert_int_gt(flange, 10);
    rs_profile_free(&s1002);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* Frictionless (contact_creep 0), pushed left by a constant F_y = 30 kN
 * from t = 0, 1 s at Δt = 0.1 ms: nothing but the contact's normal forces,
 * gravity and the push act, so E = T + V + the patches' elastic energy
 * − F_y y may only fall (the normal damping and the step's θ = 1 take
 * energy out: θ 1 is stated, a check of implicit Euler's dissipation, not
 * of the law's default θ).  Returns the largest gain of E in one step;
 * *fall: E at the start less E at the end.  theta: rs_options.contact_theta
 * (0: the law's own). */
static double frictionless_gain(const rs_model *m, double psi, int normal, double theta, double *fall)
{
    rs_options o;
    climb_options(&o, 1e-4, 0);
    o.contact_normal = normal;
    o.contact_theta = theta;
    rs_ws *ws = climb_rig(m, &o, psi, 0, 0, 5);
    const double F = 30e3, *q = rs_ws_q(ws);
    const int iy = q_index(ws, "y");
    ck_assert_int_eq(rs_ws_set_u(ws, "F_y", F), RS_OK);
    double T, V, gain = 0;
    ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
    const double E0 = T + V + rs_elastic_energy(ws) - F * q[iy];
    double E = E0;
    for (long n = 0; n < 10000; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
        const double En = T + V + rs_elastic_energy(ws) - F * q[iy];
        ck_assert(isfinite(En));
        gain = fmax(gain, En - E);
        E = En;
    }
    *fall = E0 - E;
    rs_ws_free(&ws);
    return gain;
}

START_TEST(test_climb_frictionless_energy)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    double fall20, fall0, sfall20, sfall0;
    /* ψ = 20 mrad: the wheel settles on its flange (70°) alone */
    const double gain20 = frictionless_gain(rs_loaded_model(h), 0.02, RS_NORMAL_POINT, 1, &fall20);
    /* ψ = 0: it comes to the conformal flange root, where the gap is flat
     * to a micrometre from 38° to 70° (docs/contact.md) */
    const double gain0 = frictionless_gain(rs_loaded_model(h), 0, RS_NORMAL_POINT, 1, &fall0);
    /* the strip law: one energy, its gradient the force (docs/contact.md
     * "Normal law: strips"), at both angles */
    const double sgain20 = frictionless_gain(rs_loaded_model(h), 0.02, RS_NORMAL_STRIPS, 1, &sfall20);
    const double sgain0 = frictionless_gain(rs_loaded_model(h), 0, RS_NORMAL_STRIPS, 1, &sfall0);
    printf("the same with the strip law: %.3g J at psi 20 mrad (E fell by %.1f J), %.3g J at psi 0 (E fell by %.1f J)\n",
           sgain20, sfall20, sgain0, sfall0);
    ck_assert_msg(sgain20 < 1.0 && sfall20 > 50 && sgain0 < 1.0 && sfall0 > 50,
                  "strip law: one step gained %g J at psi 20 mrad, %g J at psi 0 (E fell by %g, %g J)", sgain20,
                  sgain0, sfall20, sfall0);
    /* The scenario's `theta 0.65` (docs/contact.md "θ for the strip law
     * (session 41)": the FEVE's flange-bounce peaks at 1 ms) does not damp
     * every step: at
     * ψ 20 mrad one step gains 1.46 J, where the flange and tread patches
     * merge under 600 kN (1.62 J at Δt 0.05 ms, 1.65 J at 0.025 ms: an
     * event, not the step's smooth error; θ 1 shows +0.03 to +0.06 J at
     * its merges, the only steps it gains).  Held: the run still loses
     * what θ 1 loses (the normal damping's work) and no step gains more
     * than 3 J, 2 % of that. */
    double dfall20;
    const double dgain20 = frictionless_gain(rs_loaded_model(h), 0.02, RS_NORMAL_STRIPS, 0.65, &dfall20);
    printf("strip law at theta 0.65: largest gain in one step %.3g J at psi 20 mrad (E fell by %.1f J)\n", dgain20,
           dfall20);
    ck_assert_msg(dgain20 < 3.0 && fabs(dfall20 - sfall20) < 0.05 * sfall20,
                  "strip law at theta 0.65: one step gained %g J, E fell by %g J (theta 1: %g J)", dgain20, dfall20,
                  sfall20);
    printf("climb rig frictionless, F_y 30 kN, 1 s: largest energy gain in one step %.3g J at psi 20 mrad "
           "(E fell by %.1f J), %.3g J at psi 0 (E fell by %.1f J)\n", gain20, fall20, gain0, fall0);
    ck_assert_msg(gain20 < 1.0 && fall20 > 50, "psi 20 mrad: one step gained %g J, E fell by %g J", gain20,
                  fall20);
    /* KNOWN DEFECT of the point law (RS_NORMAL_POINT, still the default;
     * the strip law above has it no more): at the conformal flange root the
     * normal forces are no gradient of an energy (a point per minimum of the
     * vertical gap, each pressed by its normal depth −g cos α: where the
     * deepest minimum moves from 70° to 38° within a step its N jumps 3.5×).
     * Steps gain up to 236 J (the hops of the ψ = 5 mrad rig come from
     * there).  When the normal law becomes conservative this check fails:
     * then hold ψ = 0 to the ψ = 20 mrad bound above. */
    ck_assert_msg(gain0 > 10.0, "psi 0: the largest one-step energy gain is %g J (the known defect is gone? "
                  "then check it as at psi 20 mrad)", gain0);
    rs_unload(&h);
}
END_TEST

/* ---- the angle of attack's effect, on a pair without a conformal root ------- */

/* The climb rig with the conical wheel cone_1in13_flange (1:13 tread, R 16 mm
 * root to 68°, a 71.6° flank) on arc_r160_corner: the wheel less curved
 * than the rail at every contact angle, no flat stretch of the gap in the
 * root (tests/tools/gen_profiles_flange.c; the flank against the gauge face
 * is one, docs/contact.md); rail offset 0.743771 m for the straight
 * track's gauge.  Starts on the root (y 10.6 mm, 1.25 mm up,
 * just above its rest), F_y = 0 for 1 s, then 20 kN + 20 kN/s.  The climb:
 * the left wheel 1 mm above where it was when its contact first reached
 * the flank (α > 71°).  Returns Y/Q then and Nadal's limit at the flank's
 * angle, the profile's steepest (the strip law's patch point, the overlap's
 * centroid, lies a little below it on the flank: 71.2°). */
/* The steepest angle of the wheel profile at PATH (its flank): Nadal's
 * flange angle, read off the profile's spline on a 10 µm grid. */
static double flank_angle(const char *path)
{
    rs_profile w;
    char err[300];
    ck_assert_msg(rs_profile_load(&w, path, err, sizeof err) == RS_OK, "%s", err);
    double al = 0, dz;
    int hint = 0;
    for (double y = w.y[0]; y <= w.y[w.n - 1]; y += 1e-5) {
        rs_profile_eval(&w, y, &hint, &dz, NULL);
        al = fmax(al, atan(fabs(dz)));
    }
    rs_profile_free(&w);
    return al;
}

static double climb_on_cone(const rs_model *m, double psi, double *nadal)
{
    rs_options o;
    climb_options(&o, 1e-4, 1);
    o.wheel_profile = "vehicles/profiles/cone_1in13_flange.prf";
    o.rail_profile = "vehicles/profiles/arc_r160_corner.prf";
    const double at[3] = {0.0106, 1.25e-3, 0.743771};
    rs_ws *ws = climb_rig_at(m, &o, psi, 0, 0, 5, at);
    const double flank = flank_angle(o.wheel_profile);
    const int iz = q_index(ws, "z"), iroll = q_index(ws, "roll");
    const double b0 = rt_param(ws, "b0"), *q = rs_ws_q(ws);
    double lift_flank = NAN, yq = NAN;
    for (long n = 0; n < 50000 && isnan(yq); n++) {
        const double t = rs_ws_time(ws);
        ck_assert_int_eq(rs_ws_set_u(ws, "F_y", t < 1 ? 0 : 20e3 + 20e3 * (t - 1)), RS_OK);
        ck_assert_msg(rs_step(ws) == RS_OK, "psi %g, t %g: %s", psi, t, rs_ws_error(ws));
        double al = 0;
        for (int j = 0; j < rs_elastic_patches(ws, 0); j++)
            al = fmax(al, rs_elastic_patch_get(ws, 0, j)->g.alpha);
        const double lift = q[iz] + b0 * sin(q[iroll]);
        if (t >= 1 && isnan(lift_flank) && al > 71 * M_PI / 180)
            lift_flank = lift;
        if (!isnan(lift_flank) && lift - lift_flank > 1e-3 && al > 0) {
            yq = rt_value(ws, "left.Y") / rt_value(ws, "left.Q");
            const double tb = tan(flank);
            *nadal = (tb - MU) / (1 + MU * tb);
            printf("cone_1in13_flange on arc_r160_corner, psi %g mrad: climb at t %.4f s (F_y %.0f N), Y/Q %.4f, "
                   "the patch at %.2f deg, Nadal %.4f at the flank's %.2f deg (ratio %.4f)\n", 1e3 * psi, t,
                   20e3 + 20e3 * (t - 1), yq, al * 180 / M_PI, *nadal, flank * 180 / M_PI, yq / *nadal);
        }
    }
    ck_assert_msg(!isnan(yq), "psi %g: no climb by F_y 100 kN", psi);
    rs_ws_free(&ws);
    return yq;
}

/* Nadal's limit is the large angle of attack's: there the flange's
 * friction is saturated, μ N all lateral, up the flange.  At a smaller
 * angle the flange contact's lateral creepage (≈ ψ tan β) no longer
 * saturates it and the wheel needs more Y/Q to climb (Wu & Wilson, ch. 8 of
 * Iwnicki's Handbook of Railway Vehicle Dynamics, 2006; TCRP Report 71
 * vol. 5, 2005; B. Marquis, JRC2011-56064).  On this pair: 1.0310 × Nadal
 * at 5 mrad, 1.0005 at 10 mrad (7.5 mrad: 1.0006).  Larger angles are not
 * taken: there the rig oscillates on its root after running into the
 * flange (docs/contact.md), and the climb comes within it. */
START_TEST(test_climb_angle_of_attack)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    double n5, n10;
    const double r5 = climb_on_cone(rs_loaded_model(h), 0.005, &n5) / n5;
    const double r10 = climb_on_cone(rs_loaded_model(h), 0.010, &n10) / n10;
    ck_assert_msg(fabs(r10 - 1) < 0.02, "psi 10 mrad: Y/Q %g x Nadal", r10);
    ck_assert_msg(r5 > r10 + 0.015 && r5 < 1.10, "psi 5 mrad: Y/Q %g x Nadal (10 mrad: %g)", r5, r10);
    rs_unload(&h);
}
END_TEST

/* ---- curving with cant deficiency ------------------------------------------- */

#define TRACK "vehicles/tracks/r300.trk"
#define R_CURVE 300.0     /* r300.trk: radius (m) */
#define CANT 0.100        /* its cant (m) over cant_base 1.5 m */
#define S_CURVE 80.0      /* s where the circular curve starts */

static rs_ws *bogie_ws(const rs_model *m, const rs_contact_ops *ops, double dt)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = ops;
    o.dt = dt;
    o.track_file = TRACK;
    if (ops == rs_elastic_contact()) { /* the constraint contact only places the wheels */
        o.contact_mu = knob("CURVE_MU", MU);
        o.contact_law = (int)knob("CURVE_LAW", RS_CREEP_FASTSIM);
        o.contact_k_scale = knob("CURVE_KSCALE", o.contact_k_scale);
        o.contact_creep = (int)knob("CURVE_CREEP", o.contact_creep);
        o.contact_damp = knob("CURVE_DAMP", o.contact_damp);
    }
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

START_TEST(test_curve_cant_deficiency)
{
    RS_REQUIRE_MODEL("bogie");
    rs_loaded *h = rt_load("generated/bogie");
    const rs_model *m = rs_loaded_model(h);
    const double dt = knob("CURVE_DT", 2.5e-4);
    const double V0 = knob("CURVE_V", 19.3);
    /* start from the constraint contact's projection: every wheel touching */
    rs_ws *c = bogie_ws(m, rs_wheel_rail_contact(), dt);
    ck_assert_msg(rs_ws_init(c) == RS_OK, "%s", rs_ws_error(c));
    rs_ws *ws = bogie_ws(m, rs_elastic_contact(), dt);
    const int nq = m->n_q;
    memcpy(rs_ws_q(ws), rs_ws_q(c), (size_t)nq * sizeof(double));
    rs_ws_free(&c);
    const double r0 = rt_param(ws, "r0");
    rt_set_param(ws, "cpy", knob("CURVE_CPY", rt_param(ws, "cpy")));
    rt_set_param(ws, "cpz", knob("CURVE_CPZ", rt_param(ws, "cpz")));
    const double mass = rt_param(ws, "m_f") + 2 * rt_param(ws, "m_ws"), g = rt_param(ws, "g");
    const char *fwd[3] = {"x_dot", "front.x_dot", "rear.x_dot"};
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(rs_ws_set_qd(ws, fwd[k], V0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "front.spin_dot", V0 / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "rear.spin_dot", V0 / r0), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    static const char *const names[4] = {"front.left", "front.right", "rear.left", "rear.right"};
    rs_var vY[4];
    for (int i = 0; i < 4; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "%s.Y", names[i]);
        vY[i] = var(ws, nm);
    }
    const double phi = asin(CANT / 1.5);
    const double *qd = rs_ws_qd(ws);
    const int ixd = q_index(ws, "x"), iyd = q_index(ws, "y");
    double s = 0, sumY = 0, sumM = 0, sumY0 = 0, alpha_other = 0;
    long n_avg = 0, n_flange = 0;
    const double s_avg0 = S_CURVE + 20, s_end = S_CURVE + 70;
    for (long k = 0; s < s_end; k++) {
        const double t = rs_ws_time(ws);
        ck_assert_msg(rs_step(ws) == RS_OK, "t %g s, s %g m: %s", t, s, rs_ws_error(ws));
        const double V = hypot(qd[ixd], qd[iyd]);
        s += V * dt;
        /* the rails' lateral force on the bogie towards the curve's centre
         * (right), in the canted plane: −Σ F·ĉ = Σ σ Y */
        double S = 0;
        for (int i = 0; i < 4; i++)
            S += (i % 2 == 0 ? 1 : -1) * rs_ws_value(ws, vY[i], NULL);
        const double Mreq = mass * (V * V / R_CURVE * cos(phi) - g * sin(phi));
        double al = 0, al_other = 0; /* largest contact angles: leading outer wheel, the others */
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < rs_elastic_patches(ws, i); j++) {
                const double a = rs_elastic_patch_get(ws, i, j)->g.alpha;
                if (i == 0)
                    al = fmax(al, a);
                else
                    al_other = fmax(al_other, a);
            }
        if (verbose && (k % lround(0.25 / dt) == 0 || (verbose > 1 && s > 120 && s < 121 && k % lround(0.0005 / dt) == 0)))
            printf("t %.4f s %.1f V %.3f  sigma Y %.0f  m a %.0f  front.left: patches %d alpha %.1f deg Y %.0f Q %.0f, "
                   "front.right Y %.0f, rear.left Y %.0f, rear.right Y %.0f\n",
                   t, s, V, S, Mreq, rs_elastic_patches(ws, 0), al * 180 / M_PI, rs_ws_value(ws, vY[0], NULL),
                   rt_value(ws, "front.left.Q"), rs_ws_value(ws, vY[1], NULL), rs_ws_value(ws, vY[2], NULL),
                   rs_ws_value(ws, vY[3], NULL));
        if (s >= s_avg0) {
            sumY += S;
            sumM += Mreq;
            sumY0 += rs_ws_value(ws, vY[0], NULL);
            n_avg++;
            n_flange += al > 60 * M_PI / 180;
            alpha_other = fmax(alpha_other, al_other);
        }
    }
    const double V = hypot(qd[ixd], qd[iyd]);
    const double d_cant = 1.5 * V * V / (g * R_CURVE) - CANT;
    printf("curve R %g m, cant %g mm, V %.2f -> %.2f m/s (cant deficiency %.1f mm at the end), dt %g: "
           "mean sigma Y %.1f N vs m (V^2/R cos phi - g sin phi) %.1f N (ratio %.4f) over s %g..%g m; "
           "leading outer wheel: flange patch (> 60 deg) in %.1f %% of the steps, mean Y %.0f N; "
           "the other wheels' largest contact angle %.1f deg\n",
           R_CURVE, CANT * 1e3, V0, V, d_cant * 1e3, dt, sumY / n_avg, sumM / n_avg, sumY / sumM, s_avg0, s_end,
           100.0 * n_flange / n_avg, sumY0 / n_avg, alpha_other * 180 / M_PI);
    ck_assert_msg(d_cant > 0.080 && d_cant < 0.100, "cant deficiency %g m", d_cant);
    ck_assert_msg(n_flange > n_avg / 10, "leading outer wheel on its flange in %ld of %ld steps", n_flange, n_avg);
    ck_assert_msg(alpha_other < 45 * M_PI / 180, "another wheel at a contact angle of %g deg",
                  alpha_other * 180 / M_PI);
    ck_assert_msg(sumY0 > 0.5 * sumY, "leading outer wheel's mean Y %g N of %g N", sumY0 / n_avg, sumY / n_avg);
    ck_assert_msg(fabs(sumY / sumM - 1) < 0.02, "sigma Y %g N vs m a %g N", sumY / n_avg, sumM / n_avg);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic_validation");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_flange_climb_nadal);
    tcase_add_test(tc, test_climb_creepages_by_hand);
    tcase_add_test(tc, test_climb_frictionless_energy);
    tcase_add_test(tc, test_climb_angle_of_attack);
    tcase_add_test(tc, test_curve_cant_deficiency);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    verbose = (int)knob("RS_VERBOSE", 0);
    return rs_test_run(suite());
}
