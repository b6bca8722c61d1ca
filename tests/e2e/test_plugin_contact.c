/*
 * test_plugin_contact.c — plugin Jacobians on a model with wheel-rail
 * contacts (docs/plugins.md "Implicit treatment"): the step matrix's extra
 * pattern is the union of the contact's (C^K_qq, or the elastic contact's
 * terms) and the plugins' (K_p, C_p), each adding its values through its
 * own map (runtime/core/rs_klu.c, rs_ws_plugin_jac.c).
 *
 * The model: the 1:40 conical wheelset of vehicles/examples/wheelset_cone.vdl
 * (two contacts, 20 m/s) with a lateral spring-damper from a point A that
 * follows the wheelset along the track, Lo = 10 m to its right, to the
 * wheelset's centre: once the built-in `spring`, once the same law as the
 * plugin of tests/support/plugins/spring_damper_plugin.c (f = k (L − Lo) +
 * c L̇, with or without its Jacobian).  L = √((y + Lo)² + z²), so the
 * spring acts on y (and, by (z/L)², negligibly on z).  Each check runs with
 * the constraint contact and with the elastic one.  Checked:
 *   - the union matrix: at a state of the run, the step matrix filled with
 *     M (and φ_q), plus the contact's terms, plus the plugin's, equals M
 *     plus the contact's own terms in its own pattern (its C^K_qq formed
 *     apart, or the elastic contact's dense term rs_elastic_step_matrix),
 *     plus Δt C_p + Δt²/2 K_p written out here from J = ∂L/∂q =
 *     ((y + Lo)/L, z/L) on (y, z), entry by entry over the dense matrix
 *     (1e-13 of its largest entry);
 *   - second formulation: without its Jacobian the plugin is explicit like
 *     the built-in spring, and the two trajectories agree to 1e-9 relative;
 *     with it, plugin and built-in spring are two first-order schemes (the
 *     spring implicit, resp. explicit: the IMEX step's other forces are
 *     explicit, docs/runtime.md), so they agree to O(Δt): their gap must
 *     halve as Δt halves (order 1 within [0.8, 1.25]) and be small;
 *   - a stiff plugin spring (k = 1e10 N/m on the 1 250 kg wheelset: ω Δt =
 *     2.8 at Δt = 1 ms, beyond the explicit limit 2), released 0.1 µm off
 *     centre (its force then 1 kN; more lifts a wheel): without its
 *     Jacobian the run blows up (a wheel lifts off, the patch search
 *     fails, or |y| grows past 10 mm); with it the run stays within the
 *     release offset and, once the reference's resolved oscillation has
 *     died out, follows the built-in spring's run at Δt = 10 µs (ω Δt =
 *     0.028: explicit and accurate there) within 1e-4 of the offset.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_contact_ck.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_plugin_load.h"
#include "rs_test.h"
#include "rs_ws.h"
#include "rs_ws_impl.h" /* the union check reads the step matrix's values */

#define LO 10.0   /* m, the spring's free length: A is Lo to the right */
#define NQ 6      /* x, y, z, roll, yaw, spin */

static char tmp[64];
static char root[256];

static const char *bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "./build/railsym";
}

static const char *cc(void)
{
    const char *c = getenv("CC");
    return c && *c ? c : "cc";
}

static void setup(void)
{
    strcpy(tmp, "/tmp/rs_plugin_ct_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s -std=c99 -Wall -Wextra -Werror -shared -fPIC -O2 -I abi -o '%s/libsd.so' "
             "tests/support/plugins/spring_damper_plugin.c -lm",
             cc(), tmp);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "test_plugin_contact: could not remove %s\n", tmp);
}

/* The wheelset with ELEMENT (a `spring` or `plugin` line between A and
 * O_ws of wheelset) compiled into tmp/NAME. */
static void compile_model(const char *name, const char *element)
{
    char path[256], text[8192], cmd[1024];
    snprintf(text, sizeof text,
             "param m_ws = 1250\n"
             "param Ix = 700, Iy = 100\n"
             "param r0 = 0.45, b0 = 0.75, b_r = 0.75, g = 9.81\n"
             "param ky = 1e5, kyaw = 1e5\n"
             "coord x, y, z, roll, yaw, spin\n"
             "base B_yaw = rotate(ground, z, yaw)\n"
             "base B_nsw = rotate(B_yaw, x, roll)\n"
             "base B_ws  = rotate(B_nsw, y, spin)\n"
             "point O_ws = O + [x, y, r0 + z] in ground\n"
             "body wheelset  mass m_ws  cg O_ws  inertia diag(Ix, Iy, Ix) in B_nsw  frame B_ws\n"
             "point W_left  = O_ws + [0, b0, 0] in B_nsw\n"
             "point W_right = O_ws + [0, -b0, 0] in B_nsw\n"
             "gravity [0, 0, -g] in ground\n"
             "point C = O + [x, 0, r0] in ground\n"
             "frame carrier = C in ground\n"
             "frame axle = O_ws in B_nsw\n"
             "bushing suspension  between carrier and axle  k [0, ky, 0, 0, 0, kyaw]  c [0, 0, 0, 0, 0, 0]\n"
             "point A = O + [x, -%g, r0] in ground\n"
             "%s\n"
             "contact left   wheel wheelset  at W_left in B_nsw   side left   radius r0  offset b_r  "
             "profile \"%s/vehicles/profiles/cone_1in40.prf\"  rail \"%s/vehicles/profiles/arc_r300.prf\"  "
             "track \"%s/vehicles/tracks/straight.trk\"\n"
             "contact right  wheel wheelset  at W_right in B_nsw  side right  radius r0  offset b_r  "
             "profile \"%s/vehicles/profiles/cone_1in40.prf\"  rail \"%s/vehicles/profiles/arc_r300.prf\"  "
             "track \"%s/vehicles/tracks/straight.trk\"\n",
             LO, element, root, root, root, root, root, root);
    snprintf(path, sizeof path, "%s/%s.vdl", tmp, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "'%s' compile '%s' -o '%s/%s' >'%s/%s.log' 2>&1", bin(), path, tmp, name, tmp, name);
    ck_assert_msg(system(cmd) == 0, "%s failed (see %s/%s.log)", cmd, tmp, name);
}

/* The spring k, c as the built-in element (name "builtin") or as the
 * plugin with (jac 1) or without (jac 0) its Jacobian (name "plugin"). */
static void compile_pair(double k, double c, int jac)
{
    char line[512];
    snprintf(line, sizeof line, "spring s between A and O_ws of wheelset k %.17g c %.17g length %g", k, c, LO);
    compile_model("builtin", line);
    snprintf(line, sizeof line,
             "plugin s library \"%s/libsd.so\" between A and O_ws of wheelset params [%.17g, %.17g, %g, %d, 0]",
             tmp, k, c, LO, jac);
    compile_model("plugin", line);
}

typedef struct {
    rs_loaded *h;
    rs_plugin_set *ps;
    rs_ws *ws;
} run;

/* A run of tmp/NAME at Δt with the constraint (elastic 0) or the elastic
 * contact (its θ: rs_options.contact_theta, 0 the law's own), rolling at
 * 20 m/s, released y0 off the track centre. */
static void open_run(run *r, const char *name, int elastic, double theta, double dt, double y0)
{
    char dir[256], err[2000];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    r->h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(r->h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(r->h);
    ck_assert_int_eq(m->n_q, NQ);
    r->ps = NULL;
    if (m->n_plugin > 0)
        ck_assert_msg(rs_plugin_set_open(m, &r->ps, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.dt = dt;
    o.contact = elastic ? rs_elastic_contact() : rs_wheel_rail_contact();
    o.contact_theta = theta;
    o.plugins = r->ps ? rs_plugin_set_tables(r->ps) : NULL;
    ck_assert_msg(rs_ws_create(m, &o, &r->ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_ws_set_qd(r->ws, "x_dot", 20.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(r->ws, "spin_dot", 20.0 / 0.45), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(r->ws, "y", y0), RS_OK);
    ck_assert_msg(rs_ws_init(r->ws) == RS_OK, "%s", rs_ws_error(r->ws));
}

static void close_run(run *r)
{
    rs_ws_free(&r->ws);
    if (r->ps)
        rs_plugin_set_close(&r->ps);
    rs_unload(&r->h);
}

/* The system matrix's A block as dense n_q × n_q (column-major). */
static void dense_A(const rs_ws *ws, double *A)
{
    const rs_klu_system *S = &ws->sys;
    memset(A, 0, sizeof(double) * NQ * NQ);
    for (int j = 0; j < NQ; j++)
        for (int p = S->Ap[j]; p < S->Ap[j + 1]; p++)
            if (S->Ai[p] < NQ)
                A[NQ * j + S->Ai[p]] = S->Ax[p];
}

/* The union matrix against its parts, written apart (see the top). */
START_TEST(union_matrix_is_the_sum)
{
    const int elastic = _i;
    const double k = 3e6, c = 2e4, h = 1e-3;
    compile_pair(k, c, 1);
    run r;
    open_run(&r, "plugin", elastic, 0, h, 2e-3);
    for (int i = 0; i < 20; i++)
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
    rs_ws *ws = r.ws;
    ck_assert(ws->plug_implicit);
    ck_assert_int_gt(ws->sys.nnz_X[RS_KLU_EXTRA_CONTACT], 0);
    ck_assert_int_gt(ws->sys.nnz_X[RS_KLU_EXTRA_PLUGIN_K], 0);
    /* the plugin's slots at the current state (as a step's start does) */
    rs_ws_bind(ws, ws->t, ws->q, ws->qd);
    ck_assert_msg(rs_ws_plugin_eval(ws) == RS_OK, "%s", rs_ws_error(ws));
    ck_assert(ws->plug_jac_now);

    /* the step's assembly: M, then the contact's terms, then the plugin's */
    double A0[NQ * NQ], A1[NQ * NQ], A2[NQ * NQ], CT[NQ * NQ];
    rs_klu_system_fill(&ws->sys, ws->Mv, ws->Gv, h);
    dense_A(ws, A0);
    ws->cops->add_ck(ws, h);
    dense_A(ws, A1);
    ck_assert_msg(rs_ws_plugin_jac_add(ws, h) == RS_OK, "%s", rs_ws_error(ws));
    dense_A(ws, A2);

    /* the contact's own terms in its own pattern */
    if (elastic) {
        rs_elastic_step_matrix(ws, h, CT);
    } else {
        rs_contact_ws *ct = ws->ct;
        rs_ck_plan_values(&ct->ckp, ct->Dv, ct->Nv, ct->Cb, ct->CKv);
        memset(CT, 0, sizeof CT);
        for (int j = 0; j < NQ; j++)
            for (int p = ct->ck_colptr[j]; p < ct->ck_colptr[j + 1]; p++)
                CT[NQ * j + ct->ck_rowind[p]] = h * ct->CKv[p];
    }
    /* the plugin's by hand: h C_p + h²/2 K_p with C_p = c J Jᵀ and K_p =
     * −∂δ/∂q of δ = −(k (L − Lo) + c v) J: J (k J + c ∂v/∂q)ᵀ (the force's
     * dependence on the pose; f ∂J/∂q stays explicit, as f does), where
     * J = ∂L/∂q on y (1), z (2), v = L̇ = J q̇ */
    const double y = ws->q[1], z = ws->q[2], L = sqrt((y + LO) * (y + LO) + z * z);
    const double yd = ws->qd[1], zd = ws->qd[2];
    double J[NQ] = {0}, dv[NQ] = {0};
    J[1] = (y + LO) / L;
    J[2] = z / L;
    const double v = J[1] * yd + J[2] * zd;
    dv[1] = yd / L - v * (y + LO) / (L * L);
    dv[2] = zd / L - v * z / (L * L);
    double big = 0, worst_ct = 0, worst_pl = 0;
    for (int e = 0; e < NQ * NQ; e++)
        big = fmax(big, fabs(A2[e]));
    for (int j = 0; j < NQ; j++)
        for (int i = 0; i < NQ; i++) {
            const int e = NQ * j + i;
            const double pl = h * c * J[i] * J[j] + 0.5 * h * h * J[i] * (k * J[j] + c * dv[j]);
            worst_ct = fmax(worst_ct, fabs(A1[e] - A0[e] - CT[e]));
            worst_pl = fmax(worst_pl, fabs(A2[e] - A1[e] - pl));
        }
    ck_assert_msg(worst_ct <= 1e-13 * big, "%s: contact's part off by %g (largest entry %g)",
                  elastic ? "elastic" : "constraint", worst_ct, big);
    ck_assert_msg(worst_pl <= 1e-13 * big, "%s: plugin's part off by %g (largest entry %g)",
                  elastic ? "elastic" : "constraint", worst_pl, big);
    /* both parts are there: neither is negligible against M */
    double ct_max = 0;
    for (int e = 0; e < NQ * NQ; e++)
        ct_max = fmax(ct_max, fabs(CT[e]));
    ck_assert_msg(ct_max > 1e-3 * big && h * c + 0.5 * h * h * k > 1e-3 * big,
                  "a part is negligible: contact %g, plugin %g, largest %g", ct_max,
                  h * c + 0.5 * h * h * k, big);
    close_run(&r);
}
END_TEST

/* The elastic contact places the wheelset by its initial height only
 * (docs/runtime.md "Elastic contact"): it then settles on its Hertz
 * springs, bouncing by tenths of a millimetre at first, a transient that
 * the step (θ = 1) damps differently at each Δt.  To compare Δt on the
 * spring's motion alone, the run first settles on the centre (y = 0, where
 * the lateral spring is at rest) for 0.1 s, then y jumps to y0. */
static int settle_then_release(run *r, int elastic, double dt, double y0)
{
    if (!elastic)
        return RS_OK;
    ck_assert_int_eq(rs_ws_set_q(r->ws, "y", 0.0), RS_OK);
    int st = RS_OK;
    for (int i = 0; i < (int)lround(0.1 / dt) && st == RS_OK; i++)
        st = rs_step(r->ws);
    ck_assert_int_eq(rs_ws_set_q(r->ws, "y", y0), RS_OK);
    return st;
}

/* y of the two runs over T at Δt: the largest gap relative to y0.  The
 * elastic contact at θ = 1, stated: the comparison counts on its damping of
 * the settling (above); θ 0.65 (the scenario's `theta`) leaves more of it at
 * 0.1 s, differently at each Δt (the gap's order from 0.5 to 0.25 ms 1.34
 * instead of 1). */
static double gap(int elastic, double dt, double T, double y0)
{
    run a, b;
    open_run(&a, "builtin", elastic, 1, dt, y0);
    open_run(&b, "plugin", elastic, 1, dt, y0);
    ck_assert_msg(settle_then_release(&a, elastic, dt, y0) == RS_OK, "%s", rs_ws_error(a.ws));
    ck_assert_msg(settle_then_release(&b, elastic, dt, y0) == RS_OK, "%s", rs_ws_error(b.ws));
    double worst = 0;
    const int n = (int)lround(T / dt);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(rs_step(a.ws) == RS_OK, "%s", rs_ws_error(a.ws));
        ck_assert_msg(rs_step(b.ws) == RS_OK, "%s", rs_ws_error(b.ws));
        worst = fmax(worst, fabs(rs_ws_q(a.ws)[1] - rs_ws_q(b.ws)[1]) / y0);
    }
    close_run(&a);
    close_run(&b);
    return worst;
}

/* Second formulation: the built-in spring (explicit in the IMEX step)
 * against the plugin without its Jacobian (explicit too: equal to
 * rounding) and with it (implicit: apart by O(Δt), the gap halving with
 * Δt).  k = 3e6 N/m, c = 2e4 N s/m: ω Δt ≤ 0.05, resolved. */
START_TEST(trajectory_against_builtin)
{
    const int elastic = _i;
    const double k = 3e6, c = 2e4, y0 = 2e-3, T = 0.2;
    compile_pair(k, c, 0);
    const double same = gap(elastic, 1e-3, T, y0);
    ck_assert_msg(same <= 1e-9, "%s: explicit plugin vs built-in spring: %.3g relative",
                  elastic ? "elastic" : "constraint", same);
    compile_pair(k, c, 1);
    double g[3];
    for (int l = 0; l < 3; l++)
        g[l] = gap(elastic, 1e-3 / (1 << l), T, y0);
    for (int l = 0; l < 2; l++) {
        const double order = log2(g[l] / g[l + 1]);
        fprintf(stderr, "test_plugin_contact: %s, implicit plugin vs built-in spring, dt %g -> %g: gap %.3g -> %.3g "
                "(of y0), order %.3f\n", elastic ? "elastic" : "constraint", 1e-3 / (1 << l), 1e-3 / (2 << l), g[l],
                g[l + 1], order);
        ck_assert_msg(order > 0.8 && order < 1.25, "order %.3f (gaps %g, %g)", order, g[l], g[l + 1]);
    }
    ck_assert_msg(g[0] < 0.1, "gap at 1 ms: %g of y0", g[0]);
}
END_TEST

/* The stiff plugin spring at Δt = 1 ms (see the top).  The reference
 * samples y every millisecond.  Its spring mode (ω = 2 830 1/s, 450 Hz)
 * is resolved and lightly damped (the spring's c and the lateral creep:
 * it halves about every 10 ms, so it is below 1e-6 of y0 after 0.2 s); the
 * 1 ms step does not resolve it and damps it within a few steps (docs/
 * plugins.md: |λ| ≈ 0.4 per step at a = Δt² k/m = 8).  From 0.2 s on, both
 * rest on what remains, the slow equilibrium the contacts and the
 * suspension hold (y ≈ −4e-10 m), and agree there within 1e-4 of y0. */
START_TEST(stiff_plugin_stable_with_jacobian)
{
    enum { NT = 300 };
    const int elastic = _i;
    const double k = 1e10, c = 2e4, y0 = 1e-7;
    const char *mode = elastic ? "elastic" : "constraint";
    double ref[NT + 1];
    compile_pair(k, c, 0);
    run a;
    open_run(&a, "builtin", elastic, 0, 1e-5, y0);
    ck_assert_msg(settle_then_release(&a, elastic, 1e-5, y0) == RS_OK, "%s", rs_ws_error(a.ws));
    for (int i = 1; i <= NT; i++) {
        for (int s = 0; s < 100; s++)
            ck_assert_msg(rs_step(a.ws) == RS_OK, "reference: %s", rs_ws_error(a.ws));
        ref[i] = rs_ws_q(a.ws)[1];
    }
    close_run(&a);
    for (int jac = 0; jac < 2; jac++) {
        compile_pair(k, c, jac);
        run b;
        open_run(&b, "plugin", elastic, 0, 1e-3, y0);
        double amp = 0, worst = 0;
        int failed = settle_then_release(&b, elastic, 1e-3, y0) != RS_OK;
        for (int i = 1; i <= NT && !failed; i++) {
            failed = rs_step(b.ws) != RS_OK;
            if (failed)
                break;
            const double y = rs_ws_q(b.ws)[1];
            amp = fmax(amp, fabs(y));
            if (i >= 200)
                worst = fmax(worst, fabs(y - ref[i]));
        }
        if (jac) {
            ck_assert_msg(!failed, "%s, with the Jacobian: %s", mode, rs_ws_error(b.ws));
            fprintf(stderr, "test_plugin_contact: %s, stiff, with the Jacobian: |y| <= %.3g m (released at %g), "
                    "off the reference by %.3g m from 0.2 s on; y(0.3 s) = %.3g (%.3g)\n", mode, amp, y0, worst,
                    rs_ws_q(b.ws)[1], ref[NT]);
            ck_assert_msg(amp <= y0 * (1 + 1e-6), "%s, with the Jacobian: |y| reached %g (released at %g)", mode,
                          amp, y0);
            ck_assert_msg(worst <= 1e-4 * y0, "%s, with the Jacobian: off the reference by %g m", mode, worst);
        } else {
            if (failed)
                fprintf(stderr, "test_plugin_contact: %s, stiff, without the Jacobian: %s\n", mode,
                        rs_ws_error(b.ws));
            ck_assert_msg(failed || amp > 1e-2, "%s, without the Jacobian the run stayed bounded (%g): not stiff",
                          mode, amp);
        }
        close_run(&b);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plugin_contact");
    TCase *tc = tcase_create("plugin_contact");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, union_matrix_is_the_sum, 0, 2);
    tcase_add_loop_test(tc, trajectory_against_builtin, 0, 2);
    tcase_add_loop_test(tc, stiff_plugin_stable_with_jacobian, 0, 2);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
