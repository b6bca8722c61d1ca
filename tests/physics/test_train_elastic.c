/*
 * test_train_elastic.c — the elastic wheel-rail contact (rs_elastic.h) for
 * compiled vehicles in train mode (rs_train_contact.h "Elastic mode",
 * docs/trains.md "Elastic contact in a train").
 *
 *   - a second formulation: a one-vehicle train of the cone wheelset
 *     (generated/wheelset_cone) with elastic contact, integrated by Park's
 *     method, against the same wheelset's single run with the elastic
 *     contact and the IMEX step (rs_ws), from the same state: the lateral
 *     motion agrees, and the difference shrinks with the step (both
 *     integrators converge to the one ODE M q̈ = δ^NK + Σ Jᵀ W; the IMEX
 *     step is first order, so the difference halves with Δt);
 *   - curved track: the bogie as a one-vehicle train on r300.trk (clothoid,
 *     cant ramp) against its single IMEX run: the difference shrinks with
 *     the step, and its wheelsets stay within the flangeway clearance of
 *     the track's centre line (rs_track_rel) while ground y shows the curve;
 *   - the FEVE 3000 (generated/feve3000, 8 contacts, now with delta_jac):
 *     its static equilibrium as a train vehicle carries the weight (the
 *     wheels' loads Q sum to 34 250.68 kg × 9.8 within 1 %), and a train of
 *     it rolls 0.5 s of its reference track at 23.7 m/s in elastic mode;
 *   - two coupled FEVEs: 1 and 2 threads bit-identical;
 *   - train files: `contact elastic|compliant` and `creep
 *     kalker|fastsim|polach` parse, wrong words give the documented
 *     messages, and a creep law other than Kalker's with the compliant
 *     contact is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_park.h"
#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_contact.h"
#include "rs_train_file.h"
#include "rs_track_rel.h"
#include "rs_train_model.h"
#include "rs_test.h"
#include "rt_fixtures.h"
#include "rs_test_train.h"
#include "test_sweep_util.h"

static rs_loaded *g_cone, *g_feve;
static double g_traction; /* on the first vehicle of make_train's trains [N] */

static const rs_model *cone(void)
{
    if (!g_cone)
        g_cone = rt_load("generated/wheelset_cone");
    return rs_loaded_model(g_cone);
}

static const rs_model *feve(void)
{
    if (!g_feve)
        g_feve = rt_load("generated/feve3000");
    return rs_loaded_model(g_feve);
}

static rs_train *make_train(const rs_model *m, int nv, const rs_train_wheel_contact_opts *co, double h, int threads,
                            const double *y0, const unsigned char *yset, int pitch, const double *v0,
                            const unsigned char *vset)
{
    rs_wagon w[4];
    rs_coupler c[4];
    ck_assert(nv <= 4);
    for (int v = 0; v < nv; v++) {
        rs_wagon_default(&w[v]);
        w[v].model = m;
        w[v].port_x = rt_coord_index(m, "x");
        w[v].port_pitch = pitch ? rt_coord_index(m, "pitch") : -1;
        w[v].r0 = 0.0;
        w[v].model_contact = co;
        if (!pitch)
            w[v].l_front = w[v].l_rear = 0.0;
        if (y0) {
            w[v].init_q = y0;
            w[v].init_q_set = yset;
        }
        if (v0) {
            w[v].init_qd = v0;
            w[v].init_qd_set = vset;
        }
        if (v < nv - 1)
            rs_coupler_default(&c[v]);
    }
    w[0].traction = g_traction;
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = h;
    o.threads = threads;
    o.probe = 0;   /* the team on every step (no serial probe): its bits are what is compared */
    o.rebalance = 10;
    o.krylov.method = RS_KRYLOV_GMRES;
    o.krylov.tol = 1e-10;
    o.krylov.maxiter = 400;
    rs_train *tr;
    char err[1024];
    ck_assert_msg(rs_train_create(&tr, nv, w, NULL, c, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    return tr;
}

static void start(rs_train *tr, double v0)
{
    const int st = rs_train_start(tr, 0.0, 0.0, v0);
    ck_assert_msg(st == RS_OK, "start: %s: %s", rs_status_name(st), rs_train_error(tr));
}

static void step(rs_train *tr)
{
    const int st = rs_train_step(tr);
    ck_assert_msg(st == RS_OK, "step: %s: %s", rs_status_name(st), rs_park_error(rs_train_park(tr)));
}

/* ---- the second formulation ------------------------------------------- */

/* Max |y_train − y_IMEX| over the run and max |y_IMEX| (lateral, m), at
 * step h for T seconds, both from the train's start (static equilibrium
 * 2 mm to the left, steady rolling at 10 m/s). */
static void compare_cone(double h, double T, double *diff, double *amp)
{
    const rs_model *m = cone();
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.mode = RS_TRAIN_CONTACT_ELASTIC;
    double y0[16] = {0};
    unsigned char ys[16] = {0};
    const int iy = rt_coord_index(m, "y"), n = m->n_q;
    y0[iy] = 2e-3;
    ys[iy] = 1;
    rs_train *tr = make_train(m, 1, &co, h, 1, y0, ys, 0, NULL, NULL);
    start(tr, 10.0);
    rs_park *pk = rs_train_park(tr);
    ck_assert_int_eq(rs_park_n(pk), n);
    rs_ws *ws = rt_single_run_ws(m, &co, h, rs_park_q(pk), rs_park_qd(pk));
    *diff = *amp = 0;
    const double ystart = rs_ws_q(ws)[iy];
    const int ns = (int)lround(T / h);
    for (int k = 0; k < ns; k++) {
        step(tr);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        *diff = fmax(*diff, fabs(rs_park_q(pk)[iy] - rs_ws_q(ws)[iy]));
        *amp = fmax(*amp, fabs(rs_ws_q(ws)[iy] - ystart));
    }
    rs_ws_free(&ws);
    rs_train_free(&tr);
}

START_TEST(test_second_formulation)
{
    const double T = 0.5;
    double d[3], a[3];
    const double hs[3] = {4e-4, 2e-4, 1e-4};
    for (int k = 0; k < 3; k++) {
        compare_cone(hs[k], T, &d[k], &a[k]);
        printf("second formulation: cone wheelset, %.1f s at 10 m/s, h = %.0e s: max |y_train - y_IMEX| = %.3e m "
               "(%.2f %% of the lateral motion max |y - y0| = %.3e m)\n",
               T, hs[k], d[k], 100 * d[k] / a[k], a[k]);
    }
    /* the difference shrinks with the step (first order: ~ halves) and is
     * a small part of the motion at the finest step */
    ck_assert_msg(d[1] < 0.7 * d[0] && d[2] < 0.7 * d[1], "no convergence: %g, %g, %g", d[0], d[1], d[2]);
    ck_assert_msg(d[2] < 0.02 * a[2], "difference %g of amplitude %g", d[2], a[2]);
}
END_TEST

/* ---- curved track in a train --------------------------------------------- */

/* The bogie (generated/bogie) as a one-vehicle train with the elastic
 * contact on vehicles/tracks/r300.trk (straight to s = 20 m, then a 60 m
 * clothoid to R 300 m right with a linear cant ramp), from x = 10 m at
 * 15 m/s for T s, against its single IMEX run from the train's start
 * state.  Max |y_train − y_IMEX| of the frame, and its y at the end; the
 * track's own lateral offset there, *y_track (the clothoid's y = −u³/(6 R L),
 * u = s − 20, to first order in the small heading; the frame's ground y
 * lies further in by the cant's tilt of its height), and the wheelsets'
 * lateral offsets from the track frame at their places, y_rel[2]. */
static void compare_curve(double h, double T, double *diff, double *y_end, double *y_track, double *y_rel)
{
    static rs_loaded *hb;
    if (!hb)
        hb = rt_load("generated/bogie");
    const rs_model *m = rs_loaded_model(hb);
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.mode = RS_TRAIN_CONTACT_ELASTIC;
    co.track = "vehicles/tracks/r300.trk";
    co.mu = 0.3;
    rs_train *tr = make_train(m, 1, &co, h, 1, NULL, NULL, 0, NULL, NULL);
    const double V = 15, x0 = 10;
    const int st = rs_train_start(tr, 0.0, x0, V);
    ck_assert_msg(st == RS_OK, "start: %s: %s", rs_status_name(st), rs_train_error(tr));
    rs_park *pk = rs_train_park(tr);
    const int iy = rt_coord_index(m, "y"), ix = rt_coord_index(m, "x");
    rs_ws *ws = rt_single_run_ws(m, &co, h, rs_park_q(pk), rs_park_qd(pk));   /* on co's track */
    *diff = 0;
    const int ns = (int)lround(T / h);
    for (int k = 0; k < ns; k++) {
        step(tr);
        ck_assert_msg(rs_step(ws) == RS_OK, "t %g: %s", rs_ws_time(ws), rs_ws_error(ws));
        *diff = fmax(*diff, fabs(rs_park_q(pk)[iy] - rs_ws_q(ws)[iy]));
    }
    *y_end = rs_park_q(pk)[iy];
    const double u = rs_park_q(pk)[ix] - 20;   /* arc length past the clothoid's start (heading small) */
    *y_track = u > 0 ? -u * u * u / (6 * 300.0 * 60.0) : 0;
    /* the wheelsets relative to the (canted) track frame at their place
     * (rs_track_rel, tested on its own in test_speed) */
    rs_track_rel *trel;
    char err[600];
    ck_assert_msg(rs_track_rel_open(ws, &trel, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_track_rel_update(trel, ws), RS_OK);
    ck_assert_int_eq(rs_track_rel_n_wheel_bodies(m), 2);
    for (int b = 0; b < 2; b++)
        y_rel[b] = rs_track_rel_value(trel, b, RS_TREL_Y);
    rs_track_rel_free(&trel);
    rs_ws_free(&ws);
    rs_train_free(&tr);
}

START_TEST(test_curve_in_a_train)
{
    const double T = 2.5;
    double d[2], y[2], yt[2], yr[2][2];
    const double hs[2] = {2e-4, 1e-4};
    for (int k = 0; k < 2; k++) {
        compare_curve(hs[k], T, &d[k], &y[k], &yt[k], yr[k]);
        printf("curve in a train: bogie on r300.trk, %.1f s at 15 m/s from x = 10 m, h = %.0e s: max |y_train - "
               "y_IMEX| = %.3e m; frame y at the end %.4f m (the clothoid's %.4f m); wheelsets from the track "
               "frame %.2f, %.2f mm\n", T, hs[k], d[k], y[k], yt[k], 1e3 * yr[k][0], 1e3 * yr[k][1]);
    }
    /* the bogie is in the curve (ground y about the clothoid's, the frame
     * lower by the cant's tilt of its 0.6 m), its wheelsets within the
     * flangeway clearance (about ±7 mm for S1002/60E1) of the track, and
     * the two formulations converge */
    ck_assert_msg(yt[1] < -0.1, "the run did not reach the curve (track y %g)", yt[1]);
    ck_assert_msg(fabs(y[1] - yt[1]) < 0.03, "frame y %g, track %g", y[1], yt[1]);
    ck_assert_msg(fabs(yr[1][0]) < 0.009 && fabs(yr[1][1]) < 0.009, "wheelsets %g, %g m from the track", yr[1][0],
                  yr[1][1]);
    ck_assert_msg(d[1] < 0.7 * d[0], "no convergence: %g then %g", d[0], d[1]);
    ck_assert_msg(d[1] < 1e-3, "train and single run differ by %g m", d[1]);
}
END_TEST

/* ---- the FEVE 3000 ----------------------------------------------------- */

static void feve_opts(rs_train_wheel_contact_opts *co)
{
    rs_train_wheel_contact_opts_default(co);
    co->mode = RS_TRAIN_CONTACT_ELASTIC;
    co->mu = 0.3; /* the reference run's friction (demo.scn) */
}

START_TEST(test_feve_static)
{
    const rs_model *m = feve();
    char msg[512];
    ck_assert_msg(m->fn[RS_FN_DELTA_JAC].fn != NULL, "feve3000 has no delta_jac");
    ck_assert_msg(rs_compiled_vehicle_check_model(m, "x", "pitch", NULL, NULL, msg, sizeof msg) == RS_OK, "%s", msg);
    rs_train_wheel_contact_opts co;
    feve_opts(&co);
    rs_compiled_vehicle *v;
    ck_assert_msg(rs_compiled_vehicle_create_contact(&v, m, NULL, NULL, &co, NULL, msg, sizeof msg) == RS_OK, "%s",
                  msg);
    rs_train_wheel_contact *tc = rs_compiled_vehicle_contact(v);
    ck_assert(rs_train_wheel_contact_elastic(tc));
    const int n = m->n_q;
    double *q = calloc((size_t)n, sizeof(double)), *qd = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++)
        q[i] = m->q0 ? m->q0[i] : 0.0;
    int bad = -1;
    const int st = rs_compiled_vehicle_static(v, 0.0, q, rt_coord_index(m, "x"), &bad);
    ck_assert_msg(st == RS_OK, "static: %s (coordinate %d) %s", rs_status_name(st), bad,
                  rs_train_wheel_contact_error(tc));
    double *F = calloc((size_t)n, sizeof(double));
    ck_assert(rs_compiled_vehicle_eval(v, 0.0, q, qd, NULL, F, NULL, NULL) == RS_OK);
    /* the masses of docs/feve3000.md (the reference's), not the model's */
    const double W = 34250.68 * 9.8;
    double sumQ = 0, res = 0;
    for (int i = 0; i < n; i++)
        if (i != rt_coord_index(m, "x"))
            res = fmax(res, fabs(F[i]));
    for (int i = 0; i < rs_train_wheel_contact_count(tc); i++) {
        const rs_train_wheel_contact_point *p = rs_train_wheel_contact_point_get(tc, i);
        ck_assert_msg(p->N > 0, "%s carries nothing", rs_train_wheel_contact_name(tc, i));
        sumQ += p->Q;
    }
    printf("feve3000 static (elastic, train vehicle): sum Q = %.2f N, weight %.2f N (%.2e), residual %.2e N\n", sumQ,
           W, sumQ / W - 1, res);
    ck_assert_msg(fabs(sumQ - W) < 1e-2 * W, "sum Q %g vs weight %g", sumQ, W);
    free(q);
    free(qd);
    free(F);
    rs_compiled_vehicle_free(&v);
}
END_TEST

START_TEST(test_feve_train_run)
{
    const rs_model *m = feve();
    rs_train_wheel_contact_opts co;
    feve_opts(&co);
    const double v0 = 23.7, T = 0.5;
    double qd0[64];
    unsigned char qds[64];
    rt_feve_rotors(m, v0, qd0, qds);
    rs_train *tr = make_train(m, 1, &co, 1e-3, 1, NULL, NULL, 1, qd0, qds);
    start(tr, v0);
    const double x0 = rs_train_x(tr, 0);
    for (int k = 0; k < (int)lround(T / 1e-3); k++)
        step(tr);
    rs_park *pk = rs_train_park(tr);
    for (int i = 0; i < rs_park_n(pk); i++)
        ck_assert_msg(isfinite(rs_park_q(pk)[i]) && isfinite(rs_park_qd(pk)[i]), "coordinate %d not finite", i);
    const double dx = rs_train_x(tr, 0) - x0;
    printf("feve3000 train (elastic): %.1f s at %.1f m/s: moved %.4f m (%.4f expected), v %.4f m/s, y %.3e m\n", T,
           v0, dx, v0 * T, rs_train_v(tr, 0), rs_park_q(pk)[rt_coord_index(m, "y")]);
    ck_assert_msg(fabs(dx - v0 * T) < 0.01 * v0 * T, "moved %g m", dx);
    rs_train_free(&tr);
}
END_TEST

START_TEST(test_feve_threads_identical)
{
    const rs_model *m = feve();
    rs_train_wheel_contact_opts co;
    feve_opts(&co);
    const int nsteps = 60;
    double *ref = NULL;
    size_t nbytes = 0;
    for (int th = 1; th <= 2; th++) {
        double qd0[64];
        unsigned char qds[64];
        rt_feve_rotors(m, 10.0, qd0, qds);
        g_traction = 2e4;
        rs_train *tr = make_train(m, 2, &co, 1e-3, th, NULL, NULL, 1, qd0, qds);
        g_traction = 0;
        start(tr, 10.0);
        for (int s = 0; s < nsteps; s++)
            step(tr);
        rs_park *pk = rs_train_park(tr);
        const int n = rs_park_n(pk);
        nbytes = (size_t)n * sizeof(double);
        double *cur = malloc(2 * nbytes);
        memcpy(cur, rs_park_q(pk), nbytes);
        memcpy(cur + n, rs_park_qd(pk), nbytes);
        if (!ref) {
            ref = cur;
        } else {
            ck_assert_msg(memcmp(ref, cur, 2 * nbytes) == 0, "%d threads differ from 1", th);
            free(cur);
        }
        rs_train_free(&tr);
    }
    printf("threads: 2 coupled FEVE 3000 (elastic), %d steps: 1 and 2 threads bit-identical\n", nsteps);
    free(ref);
}
END_TEST

/* ---- train files ------------------------------------------------------- */

START_TEST(test_train_file_lines)
{
    const char *ok = "duration 0.01\n"
                     "vehicle w model generated/wheelset_cone\n"
                     "  contact elastic\n"
                     "  creep fastsim\n"
                     "  contact_mu = 0.3\n"
                     "end\n"
                     "vehicle c model generated/wheelset_cone\n"
                     "  contact compliant\n"
                     "end\n"
                     "order\n  w\n  c\nend\n";
    rs_train_spec *s;
    char err[2048];
    ck_assert_msg(rs_train_spec_parse(ok, "t.train", &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(s->nv, 2);
    ck_assert_int_eq(s->veh[0].model_contact->mode, RS_TRAIN_CONTACT_ELASTIC);
    ck_assert_int_eq(s->veh[0].model_contact->law, 1);
    ck_assert_int_eq(s->veh[1].model_contact->mode, RS_TRAIN_CONTACT_COMPLIANT);
    ck_assert_int_eq(s->veh[1].model_contact->law, 0);
    rs_train_spec_free(&s);
    rs_test_train_parse_bad("vehicle w model generated/wheelset_cone\n  contact elastc\nend\norder\n  w\nend\n",
              "t.train:2: vehicle 'w': 'elastc' is not a contact mode (the compliant single-point contact or the "
              "elastic multi-patch one) (did you mean 'elastic'?): write 'contact compliant' or 'contact elastic'");
    rs_test_train_parse_bad("vehicle w model generated/wheelset_cone\n  creep kalkr\nend\norder\n  w\nend\n",
              "t.train:2: vehicle 'w': 'kalkr' is not a creep law (did you mean 'kalker'?): write 'creep kalker', "
              "'creep fastsim' or 'creep polach'");
    rs_test_train_parse_bad("vehicle w model generated/wheelset_cone\n  contact\nend\norder\n  w\nend\n",
              "t.train:2: vehicle 'w': write 'contact compliant' or 'contact elastic' (one word)");
    /* FASTSIM with the compliant contact: refused when the vehicle is made */
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.mode = RS_TRAIN_CONTACT_COMPLIANT;
    co.law = 1;
    co.mu = 0.3;
    rs_compiled_vehicle *v = NULL;
    ck_assert_int_eq(rs_compiled_vehicle_create_contact(&v, cone(), NULL, NULL, &co, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "choose the elastic contact ('contact elastic') for FASTSIM or Polach"), "%s", err);
    printf("vehicle: %s\n", err);
    /* the description's mode when the train file names none: the cone
     * wheelset's contacts are constraint-mode, so compliant */
    rs_train_wheel_contact_opts_default(&co);
    ck_assert(rs_compiled_vehicle_create_contact(&v, cone(), NULL, NULL, &co, NULL, err, sizeof err) == RS_OK);
    ck_assert(!rs_train_wheel_contact_elastic(rs_compiled_vehicle_contact(v)));
    rs_compiled_vehicle_free(&v);
}
END_TEST

/* `railsym compile --no-jacobians` leaves delta_jac out (a quicker
 * compile), and such a model is refused as a train vehicle with the fix. */
/* The shipped example vehicles/trains/feve3000.train: two FEVE 3000 in
 * multiple unit, elastic contact with FASTSIM, 0.1 s of it: both run at the
 * train's 23.7 m/s (x grows by V t within the coupler's slack and the
 * rolling resistance's slowing, r0 g t = 1.5e-3 × 9.81 × 0.1 s), and the
 * lead's eight normal forces carry its weight (34 250.68 kg; N is normal to
 * the contact plane, within the contact angles' 1 %). */
START_TEST(test_feve_example_train)
{
    char dir[512], out[600];
    sweep_scratch(dir, sizeof dir, "feve_train");
    snprintf(out, sizeof out, "%s/feve.csv", dir);
    rs_train_run_cfg cfg = {"vehicles/trains/feve3000.train", out, 1, "set duration = 0.1\n", NULL, 0, {0}, 0};
    rs_train_run_report rep;
    char err[2048];
    ck_assert_msg(rs_train_run(&cfg, &rep, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rep.nv, 2);
    FILE *f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    static char head[1 << 16], line[1 << 16], last[1 << 16];
    ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
    while (fgets(line, sizeof line, f))
        memcpy(last, line, sizeof line);
    fclose(f);
    /* columns by name */
    double vals[512];
    char *names[512];
    int nc = 0;
    for (char *save = NULL, *t = strtok_r(head, ",\n", &save); t && nc < 512; t = strtok_r(NULL, ",\n", &save))
        names[nc++] = t;
    int nv = 0;
    for (char *save = NULL, *t = strtok_r(last, ",\n", &save); t && nv < 512; t = strtok_r(NULL, ",\n", &save))
        vals[nv++] = strtod(t, NULL);
    ck_assert_int_eq(nv, nc);
    double x_lead = NAN, x_feve = NAN, sumN = 0;
    for (int i = 0; i < nc; i++) {
        if (!strcmp(names[i], "lead1.x"))
            x_lead = vals[i];
        if (!strcmp(names[i], "feve1.x"))
            x_feve = vals[i];
        const size_t l = strlen(names[i]);
        if (l > 2 && !strcmp(names[i] + l - 2, ".N"))
            sumN += vals[i];
    }
    const double W = 34250.68 * 9.81, t = vals[0];
    printf("feve3000.train: t %.3f s, lead x %.4f m (V t = %.4f), feve x %.4f m, lead sum N %.0f N, weight %.0f N\n", t,
           x_lead, 23.7 * t, x_feve, sumN, W);
    ck_assert_msg(fabs(t - 0.1) < 1e-9, "last row at %g s", t);
    ck_assert_msg(fabs(x_lead - 23.7 * t) < 0.01, "lead at %g m", x_lead);
    ck_assert_msg(fabs((x_lead - x_feve) - 14.0) < 0.02, "the vehicles %g m apart (14 m coupled)", x_lead - x_feve);
    ck_assert_msg(sumN > 0.98 * W && sumN < 1.02 * W, "sum N %g, weight %g", sumN, W);
    sweep_rm_rf(dir);
}
END_TEST

START_TEST(test_no_jacobians_refused)
{
    char dir[512], out[600], log[700];
    sweep_scratch(dir, sizeof dir, "nojac");
    snprintf(out, sizeof out, "%s/wheelset_cone", dir);
    snprintf(log, sizeof log, "%s/compile.log", dir);
    char *argv[] = {(char *)sweep_railsym_bin(), "compile", "vehicles/examples/wheelset_cone.vdl", "-o", out,
                    "--no-jacobians", NULL};
    ck_assert_int_eq(sweep_run(argv, log), 0);
    rs_loaded *h = rt_load(out);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_ptr_null(m->fn[RS_FN_DELTA_JAC].fn);
    ck_assert_ptr_nonnull(cone()->fn[RS_FN_DELTA_JAC].fn);   /* the default compile has them */
    rs_compiled_vehicle *v = NULL;
    char err[1024];
    ck_assert_int_eq(rs_compiled_vehicle_create(&v, m, NULL, NULL, NULL, err, sizeof err), RS_E_MODEL);
    ck_assert_msg(strstr(err, "no force Jacobians") && strstr(err, "without --no-jacobians"), "%s", err);
    rs_unload(&h);
    sweep_rm_rf(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_elastic");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_train_file_lines);
    tcase_add_test(tc, test_no_jacobians_refused);
    tcase_add_test(tc, test_second_formulation);
    tcase_add_test(tc, test_curve_in_a_train);
    tcase_add_test(tc, test_feve_static);
    tcase_add_test(tc, test_feve_train_run);
    tcase_add_test(tc, test_feve_threads_identical);
    tcase_add_test(tc, test_feve_example_train);
    suite_add_tcase(s, tc);
    const int nf = rs_test_run_nofork(s) != EXIT_SUCCESS;
    if (g_cone)
        rs_unload(&g_cone);
    if (g_feve)
        rs_unload(&g_feve);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
