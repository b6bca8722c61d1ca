/*
 * test_feve3000_run.c — seed 003's reference run of the FEVE 3000
 * locomotive (vehicles/feve3000/demo.scn over feve3000_reference.trk,
 * issue 8): it completes over the whole track, every step's projections
 * converge (a step that does not fails the run), no wheel lifts off, the
 * contact-point Newton works harder in the curves than on the first straight
 * (the seed's Fig. 14), the saturated creep forces stay within μ N, and the
 * hunting wavelength on the final straight is reported next to Klingel's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_contact.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_ws_impl.h"
#include "rs_test.h"

#define DIR "generated/feve3000"
#define SCN "vehicles/feve3000/demo.scn"
#define MAX_CROSS 64

START_TEST(reference_run)
{
    char err[2000];
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    rs_scenario base, top;
    ck_assert_msg(rs_scenario_read(DIR "/default.scn", &base, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_read(SCN, &top, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_scenario_overlay(&base, &top), RS_OK);
    rs_binding *b = NULL;
    ck_assert_msg(rs_scenario_bind(&base, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    ck_assert(o.contact_mu > 0);   /* the demo saturates creep (docs/feve3000.md) */
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));

    rs_var vx, vuw;
    ck_assert_int_eq(rs_model_find(m, "x", &vx), RS_OK);
    ck_assert_int_eq(rs_model_find(m, "front.wf.right.u_w", &vuw), RS_OK);
    const long nsteps = lround(rs_binding_duration(b) / o.dt);
    long it_curve = 0, n_curve = 0, it_straight = 0, n_straight = 0;
    double worst_ratio = 0, min_N = INFINITY, uw_sum = 0;
    int n_uw = 0;
    long n_over = 0;
    static double uw[20000], xs[20000];
    for (long n = 0; n < nsteps; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "step %ld: %s", n, rs_ws_error(ws));
        const double x = rs_ws_value(ws, vx, NULL);
        const int iters = rs_ws_stats(ws)->contact_iters_last;
        if (x > 10 && x < 45) /* first straight, on the full irregularity */
            it_straight += iters, n_straight++;
        else if (x > 95 && x < 275) /* both curves' arcs and the reversal */
            it_curve += iters, n_curve++;
        for (int i = 0; i < m->n_contact; i++) {
            const double N = -rs_ws_lambda(ws)[m->contacts[i].phi_row];
            const double *f = ws->ct->f + 3 * i;
            min_N = fmin(min_N, N);
            const double ratio = hypot(f[0], f[1]) / (o.contact_mu * N);
            worst_ratio = fmax(worst_ratio, ratio);
            n_over += ratio > 1.05;
        }
        if (x > 330 && n_uw < 20000) { /* final straight: hunting */
            uw[n_uw] = rs_ws_value(ws, vuw, NULL);
            xs[n_uw] = x;
            uw_sum += uw[n_uw++];
        }
    }
    const double x_end = rs_ws_value(ws, vx, NULL);
    const double mean_straight = (double)it_straight / n_straight;
    const double mean_curve = (double)it_curve / n_curve;
    printf("feve3000 reference run: %ld steps to x = %.1f m, min N %.0f N, contact Newton "
           "iterations per step %.3f on the first straight, %.3f in the curves, max |f_t| / "
           "(mu N) %.4f, above 1.05 in %ld of %ld contact-steps\n",
           nsteps, x_end, min_N, mean_straight, mean_curve, worst_ratio, n_over,
           nsteps * m->n_contact);
    ck_assert_msg(x_end > 460, "the run ended at x = %g m, short of the final straight", x_end);
    ck_assert(min_N > 0);
    ck_assert_msg(mean_curve > 1.2 * mean_straight, "Newton iterations: curves %g vs straight %g",
                  mean_curve, mean_straight);
    /* the saturation factor comes from the step's start state (lagged), so
     * the force of the implicit step may exceed μ N where N or the creepage
     * change fast within a step (flange impacts: up to ~30 % for a few
     * steps); almost everywhere it is within 5 % */
    ck_assert_msg(worst_ratio < 1.5, "creep force %g x mu N", worst_ratio);
    ck_assert_msg(n_over < 0.005 * nsteps * m->n_contact, "creep force above 1.05 mu N in %ld "
                  "contact-steps", n_over);

    /* Hunting wavelength: mean distance between upward crossings of the
     * front wheelset's contact point u_w through its mean, against Klingel's
     * 2 pi sqrt(r0 b0 / gamma) for the 1:13 cone (b0: half the distance of
     * the taping-line contact points) and the rigid bogie's
     * lambda_K sqrt(1 + (a / b0)^2) (a: half wheelbase). */
    const double mean = uw_sum / n_uw;
    double xc[MAX_CROSS];
    int nc = 0;
    for (int k = 1; k < n_uw && nc < MAX_CROSS; k++)
        if (uw[k - 1] < mean && uw[k] >= mean)
            xc[nc++] = xs[k - 1] + (mean - uw[k - 1]) / (uw[k] - uw[k - 1]) * (xs[k] - xs[k - 1]);
    ck_assert_msg(nc >= 3, "no hunting on the final straight (%d crossings)", nc);
    const double wl = (xc[nc - 1] - xc[0]) / (nc - 1);
    const double r0 = 0.5, b0 = 0.535 - 0.0122, gamma = 1.0 / 13, a = 1.0925;
    const double klingel = 2 * 3.14159265358979323846 * sqrt(r0 * b0 / gamma);
    const double bogie = klingel * sqrt(1 + (a / b0) * (a / b0));
    printf("feve3000 hunting on the final straight: wavelength %.2f m (%d cycles); Klingel, "
           "wheelset %.2f m, rigid bogie %.2f m\n",
           wl, nc - 1, klingel, bogie);
    ck_assert_msg(wl > klingel && wl < 2 * bogie, "hunting wavelength %g m", wl);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&base);
    rs_scenario_free(&top);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    if (!rs_test_need_model("test_feve3000_run", "feve3000"))
        return EXIT_FAILURE;
    Suite *s = suite_create("feve3000_run");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, reference_run);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
