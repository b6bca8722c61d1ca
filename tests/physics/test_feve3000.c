/*
 * test_feve3000.c — the FEVE 3000 locomotive (issue 8, vehicles/feve3000/,
 * generated/feve3000/): its sizes, the symmetry and positive definiteness of
 * M at states along a run, and static equilibrium — the 8 normal forces sum
 * to the total weight (from the masses of ../shared/reference/feve3000.md
 * §2.5, written here independently of the model) and left/right loads agree.
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

static rs_loaded *load(void)
{
    char err[2000];
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    return h;
}

/* A workspace in the model's initial state (its default.scn). */
static rs_ws *workspace(const rs_model *m, double dt)
{
    char err[2000];
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.dt = dt;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    rs_scenario s;
    rs_binding *b = NULL;
    ck_assert_msg(rs_scenario_read(DIR "/default.scn", &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_bind(&s, m, &b, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    rs_binding_free(&b);
    rs_scenario_free(&s);
    return ws;
}

/* A workspace rolling at 20 m/s, 3 mm off centre (wheels and rotors at
 * their rolling speeds), initialized. */
static rs_ws *rolling(const rs_model *m)
{
    rs_ws *ws = workspace(m, 1e-3);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", 20.0), RS_OK);
    static const char *const spins[4] = {"front.wf.spin_dot", "front.wr.spin_dot",
                                         "rear.wf.spin_dot", "rear.wr.spin_dot"};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(rs_ws_set_qd(ws, spins[i], 40.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "motor_f.rotor_dot", -170.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "motor_r.rotor_dot", -170.0), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

START_TEST(sizes)
{
    rs_loaded *h = load();
    const rs_model *m = rs_loaded_model(h);
    /* seed 003 §3.1's structure (the authors' v8.2): 6 carbody + 2 slider
     * yaws + 2 × 3 bogie + 4 × 3 wheelset + 2 × 2 motor coordinates */
    ck_assert_int_eq(m->n_q, 6 + 2 + 6 + 12 + 4);
    ck_assert_int_eq(m->n_contact, 8);
    ck_assert_int_eq(m->n_s, 32);
    ck_assert_int_eq(m->n_phi, 8);
    rs_unload(&h);
}
END_TEST

/* Dense M from its CSC values; 1 if symmetric to 1e-9 relative and
 * Cholesky succeeds (positive definite). */
static int m_sym_pd(const rs_model *m, const double *Mv, double *asym)
{
    enum { N = 64 };
    const int n = m->n_q;
    static double A[N][N];
    memset(A, 0, sizeof A);
    double big = 0;
    for (int j = 0; j < n; j++)
        for (int k = m->M_pattern.colptr[j]; k < m->M_pattern.colptr[j + 1]; k++) {
            A[m->M_pattern.rowind[k]][j] = Mv[k];
            big = fmax(big, fabs(Mv[k]));
        }
    *asym = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            *asym = fmax(*asym, fabs(A[i][j] - A[j][i]) / big);
    for (int j = 0; j < n; j++) {
        double d = A[j][j];
        for (int k = 0; k < j; k++)
            d -= A[j][k] * A[j][k];
        if (!(d > 0))
            return 0;
        A[j][j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = A[i][j];
            for (int k = 0; k < j; k++)
                s -= A[i][k] * A[j][k];
            A[i][j] = s / A[j][j];
        }
    }
    return 1;
}

START_TEST(mass_matrix_along_a_run)
{
    rs_loaded *h = load();
    const rs_model *m = rs_loaded_model(h);
    rs_ws *ws = rolling(m);
    for (int n = 0; n < 600; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        if (n % 100 == 0) {
            double asym;
            ck_assert_msg(m_sym_pd(m, ws->Mv, &asym), "M not positive definite at step %d", n);
            ck_assert_msg(asym < 1e-12, "M not symmetric at step %d: %g", n, asym);
        }
    }
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

/* φ^n of every contact at (q + τ q̇, s + τ ṡ), the spline slots held (a
 * straight line in (q, s): its second derivative at τ = 0 is φ̈^n with
 * q̈ = s̈ = 0, i.e. −γ). */
static void phi_along(rs_ws *ws, double tau, double *phi)
{
    const rs_model *m = ws->model;
    static double q[64], s[64];
    for (int i = 0; i < m->n_q; i++)
        q[i] = ws->q[i] + tau * ws->qd[i];
    for (int i = 0; i < m->n_s; i++)
        s[i] = ws->s[i] + tau * ws->sd[i];
    const double *s_keep = ws->in[RS_IN_S];
    ws->in[RS_IN_S] = s;
    rs_ws_bind(ws, ws->t, q, ws->qd);
    ck_assert_int_eq(rs_ws_call(ws, RS_FN_PHI, phi, NULL), RS_OK);
    ws->in[RS_IN_S] = s_keep;
}

/* The generated γ (the modeler writes γ^n = −n_r · r̈ at q̈ = s̈ = 0, exact
 * where the contact constraints hold: docs/modeler.md) against a central
 * difference of φ^n itself along the motion, at states of a run over the
 * reference track (curves, irregularities: the rail normal turns). */
START_TEST(gamma_is_the_second_derivative_of_phi_n)
{
    rs_loaded *h = load();
    const rs_model *m = rs_loaded_model(h);
    rs_ws *ws = rolling(m);
    double worst = 0, scale = 0;
    for (int n = 1; n <= 800; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        if (n % 100)
            continue;
        for (int i = 0; i < m->n_contact; i++)
            rs_contact_fill(ws->ct, i, ws->s, ws->u);
        double g[8], p0[8], pp[8], pm[8], pp2[8], pm2[8];
        rs_ws_bind(ws, ws->t, ws->q, ws->qd);
        ck_assert_int_eq(rs_ws_call(ws, RS_FN_GAMMA, g, NULL), RS_OK);
        const double tau = 2e-4;
        phi_along(ws, 0, p0);
        phi_along(ws, tau, pp);
        phi_along(ws, -tau, pm);
        phi_along(ws, 2 * tau, pp2);
        phi_along(ws, -2 * tau, pm2);
        for (int c = 0; c < 8; c++) {
            /* fourth-order central second difference */
            const double d2 = (-pp2[c] + 16 * pp[c] - 30 * p0[c] + 16 * pm[c] - pm2[c]) / (12 * tau * tau);
            worst = fmax(worst, fabs(g[c] + d2));
            scale = fmax(scale, fabs(d2));
        }
    }
    printf("gamma vs the second difference of phi_n along the motion: worst %.3g m/s^2 (|gamma| up to %.3g)\n",
           worst, scale);
    ck_assert(scale > 1e-3);   /* the check sees real curvature terms */
    ck_assert_msg(worst < 1e-5 * scale + 1e-6, "gamma differs from -phi_n'' by %g", worst);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

START_TEST(static_equilibrium)
{
    rs_loaded *h = load();
    const rs_model *m = rs_loaded_model(h);
    rs_ws *ws = workspace(m, 1e-3);
    /* Dynamic relaxation from the model's initial state (near equilibrium):
     * more suspension damping settles the vehicle at rest faster; the
     * static loads do not depend on damping. */
    ck_assert_int_eq(rs_ws_set_param(ws, "C_S1", 3e4), RS_OK);
    ck_assert_int_eq(rs_ws_set_param(ws, "C_S2", 6e4), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int n = 0; n < 4000; n++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    /* total mass from feve3000.md §2.5: carbody, 2 sliders, 2 bogie frames,
     * 4 wheelsets, 8 axle boxes, 2 motor housings, 2 rotors */
    const double mass = 22608 + 2 * 461 + 2 * 1507.86 + 4 * 1222 + 8 * 67.72 + 2 * 568.8 +
                        2 * 568.8;
    ck_assert_double_eq_tol(mass, 34250.68, 1e-9);
    const double W = mass * 9.8;
    double sumN = 0, sumNz = 0, N[8];
    for (int i = 0; i < 8; i++) {
        const rs_contact *c = &m->contacts[i];
        N[i] = -rs_ws_lambda(ws)[c->phi_row];
        sumN += N[i];
        /* the vertical component: the rail normal is tilted by the contact
         * angle; the cone's (1/13) is small but not negligible at 0.1 % */
        sumNz += N[i] / sqrt(1.0 + 1.0 / 169.0);
        printf("feve3000 statics: %-16s N = %10.2f N\n", c->name, N[i]);
    }
    printf("feve3000 statics: sum N = %.2f N, sum N cos(alpha) = %.2f N, weight %.2f N "
           "(%.4f %%)\n", sumN, sumNz, W, 100 * (sumNz - W) / W);
    ck_assert_msg(fabs(sumNz - W) < 1e-3 * W, "sum %g vs weight %g", sumNz, W);
    /* contacts come in right/left pairs per wheelset: equal by symmetry */
    for (int i = 0; i < 8; i += 2)
        ck_assert_msg(fabs(N[i] - N[i + 1]) < 1e-3 * N[i], "%s %g vs %s %g", m->contacts[i].name,
                      N[i], m->contacts[i + 1].name, N[i + 1]);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    if (!rs_test_need_model("test_feve3000", "feve3000"))
        return EXIT_FAILURE;
    Suite *s = suite_create("feve3000");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, sizes);
    tcase_add_test(tc, mass_matrix_along_a_run);
    tcase_add_test(tc, static_equilibrium);
    tcase_add_test(tc, gamma_is_the_second_derivative_of_phi_n);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
