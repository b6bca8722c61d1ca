/*
 * test_rt_wheelset.c — checks of the runtime contact step on the generated
 * single wheelsets (generated/wheelset_cone: 1:40 cone on a 300 mm arc rail
 * head; generated/wheelset: S1002 on 60E1 1:40), loaded with libtcc.  Each
 * against an answer the code under test does not compute:
 *
 *  - energy: with the creep forces switched off (rs_options.contact_creep = 0,
 *    a frictionless contact: the normal forces are ideal constraint forces on
 *    a fixed track and do no work), the wheelset rolling at 10 m/s, released
 *    off centre and yawed, swaying on its lateral/yaw/vertical/roll springs,
 *    conserves the model's energy T + V (kinetic energy, gravity and the
 *    bushing's spring potential, as the generated `energy` function defines
 *    them) up to the integrator's error.  The IMEX Euler step (DESIGN.md: q̇
 *    explicit Euler, q by the trapezoid of the two velocities) is first
 *    order: its energy error over a fixed time is O(Δt) — for an oscillator
 *    of frequency ω the energy grows by the factor (1 + ω²Δt²/2) per step,
 *    e^{ω² Δt T / 2} over T.  The drift over 10 s at Δt and Δt/2 must halve
 *    (observed order log2(ratio) within [0.8, 1.25]) and stay small
 *    compared with the energy in the swaying.
 *  - C^K_qq by finite differences: at random valid states the runtime's
 *    creep matrix (D blockdiag(C_i/V_i) N assembled by rs_contact_creep) must
 *    equal −∂δ^K/∂q̇, obtained by central differences of the creep
 *    generalized force δ^K(q̇) = δ(q, q̇, f) − δ^NK(q, q̇) where δ is the
 *    generated `delta` with the creep-force inputs set to f and f is
 *    Kalker's linear law written out here (coefficients read from the
 *    reference table kalker_linear_coefficients.csv, linear in g on each
 *    branch, ν = 0.25 a table node; G = E/(2(1+ν))) applied to the
 *    creepages ν(q̇)/V from the generated `creep` function.  As in the step,
 *    V (which depends on q̇) and the Hertz ellipse (a, b from the normal
 *    force of the previous solve and the radii, which depend on q and s
 *    only) are frozen: the difference quotients see ν(q̇) only.  Nothing of
 *    ∂δ/∂f, ∂ν/∂q̇, rs_kalker or the C^K scatter is used by the reference.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_contact_ck.h"
#include "rs_load.h"
#include "rs_ws.h"
#include "rs_ws_impl.h" /* the C^K check evaluates functions at the workspace state */
#include "rs_test.h"
#include "rs_test_contact.h"

#define DIR_CONE "generated/wheelset_cone"
#define DIR_S1002 "generated/wheelset"

static rs_loaded *load(const char *dir)
{
    char err[2000];
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    return h;
}

static double urand(void) { return 2.0 * rand() / RAND_MAX - 1.0; }

static double param(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_int_eq(rs_model_find(rs_ws_model(ws), name, &v), RS_OK);
    return rs_ws_p(ws)[v.index];
}

static void set_param(rs_ws *ws, const char *name, double x)
{
    ck_assert_msg(rs_ws_set_param(ws, name, x) == RS_OK, "parameter %s", name);
}

/* max over the run of |E(t) − E(0)| (E = T + V) for 10 s at step dt; *E0
 * receives E(0), *Eosc the energy exchanged by the sway (max |V(t) − V(0)|:
 * what went from potential to kinetic energy and back), *final E(10) − E(0). */
static double energy_drift(const rs_model *m, double dt, double *E0, double *Eosc, double *final)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.dt = dt;
    o.contact_creep = 0;
    o.proj_tol = 1e-10;  /* projections far below the drift measured */
    o.contact_tol = 1e-12;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    set_param(ws, "ky", 2e4);
    set_param(ws, "kz", 2e5);
    set_param(ws, "kroll", 5e4);
    set_param(ws, "kyaw", 2e4);
    const double v = 10, r0 = param(ws, "r0");
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", v), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", v / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "yaw", 0.001), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "y_dot", -0.01), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double T, V;
    ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
    *E0 = T + V;
    const double V0 = V;
    double drift = 0, osc = 0;
    const long n = lround(10.0 / dt);
    for (long k = 1; k <= n; k++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "dt %g: %s", dt, rs_ws_error(ws));
        ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
        drift = fmax(drift, fabs(T + V - *E0));
        osc = fmax(osc, fabs(V - V0));
    }
    *Eosc = osc;
    *final = T + V - *E0;
    const double *q = rs_ws_q(ws);
    printf("energy dt %g: y %.4g m yaw %.4g rad roll %.4g z %.4g, x %.6g m, contact iters/step "
           "%.2f, proj iters/step %.2f\n",
           dt, q[1], q[4], q[3], q[2], q[0],
           (double)rs_ws_stats(ws)->contact_iters / (double)n,
           (double)rs_ws_stats(ws)->proj_iters / (double)n);
    rs_ws_free(&ws);
    return drift;
}

START_TEST(test_energy_no_creep)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    rs_loaded *h = load(DIR_CONE);
    const rs_model *m = rs_loaded_model(h);
    const double dt = 1e-3;
    double E0, osc1, osc2, f1, f2;
    const double d1 = energy_drift(m, dt, &E0, &osc1, &f1);
    const double d2 = energy_drift(m, dt / 2, &E0, &osc2, &f2);
    const double p = log2(d1 / d2);
    printf("energy (cone wheelset, creep off, 10 s): E0 = %.9g J, energy exchanged %.4g J; "
           "max drift %.4g J at dt = %g s, %.4g J at dt/2 (ratio %.3f, order %.3f); "
           "E(10 s) - E0 %.4g, %.4g J\n",
           E0, osc1, d1, dt, d2, d1 / d2, p, f1, f2);
    (void)osc2;
    /* first order: the drift halves with the step */
    ck_assert_msg(p > 0.8 && p < 1.25, "observed order %.3f (drifts %g, %g J)", p, d1, d2);
    /* the exchanges are real and the drift small beside them */
    ck_assert_msg(osc1 > 0.05, "energy exchanged %g J: no real sway", osc1);
    ck_assert_msg(d2 < 0.1 * osc1, "drift %g J vs energy exchanged %g J", d2, osc1);
    rs_unload(&h);
}
END_TEST


/* ---- C^K_qq against finite differences of the creep force ------------- */

/* Kalker's table at ν = 0.25 from the reference CSV: rows of
 * (branch, g, a/b, C11, C22, C23, C33). */
typedef struct {
    int n;
    int ab[32];          /* 1: a/b branch, 0: b/a branch */
    double g[32], c[32][4];
} kalker_ref;

static int kalker_ref_load(kalker_ref *K)
{
    static const char *const paths[] = {"../shared/reference/kalker_linear_coefficients.csv",
                                        "/work/shared/reference/kalker_linear_coefficients.csv",
                                        "tests/data/kalker_linear_coefficients.csv"};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        FILE *f = fopen(paths[p], "r");
        if (!f)
            continue;
        char line[512];
        K->n = 0;
        while (fgets(line, sizeof line, f) && K->n < 32) {
            char br[16];
            double g, ab, v[12];
            if (sscanf(line, "%15[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf",
                       br, &g, &ab, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
                       &v[8], &v[9], &v[10], &v[11]) != 15)
                continue; /* the header */
            K->ab[K->n] = strcmp(br, "a/b") == 0;
            K->g[K->n] = g;
            for (int k = 0; k < 4; k++)
                K->c[K->n][k] = v[3 * k + 1]; /* the ν = 0.25 column of C11, C22, C23, C33 */
            K->n++;
        }
        fclose(f);
        printf("Kalker reference table: %s (%d rows)\n", paths[p], K->n);
        return K->n == 19 ? 0 : -1;
    }
    return -1;
}

/* C(a/b) at ν = 0.25: linear in g = min(a/b, b/a) between the two rows of
 * the branch that bracket it (g = 1 belongs to both branches). */
static void kalker_ref_coeffs(const kalker_ref *K, double a_over_b, double c[4])
{
    const int ab = a_over_b <= 1;
    const double g = ab ? a_over_b : 1 / a_over_b;
    ck_assert_msg(g >= 0.1 && g <= 1, "a/b = %g outside the table", a_over_b);
    int lo = -1, hi = -1;
    for (int r = 0; r < K->n; r++) {
        if (K->ab[r] != ab && K->g[r] != 1.0)
            continue;
        if (K->g[r] <= g && (lo < 0 || K->g[r] > K->g[lo]))
            lo = r;
        if (K->g[r] >= g && (hi < 0 || K->g[r] < K->g[hi]))
            hi = r;
    }
    ck_assert(lo >= 0 && hi >= 0);
    const double w = K->g[hi] > K->g[lo] ? (g - K->g[lo]) / (K->g[hi] - K->g[lo]) : 0;
    for (int k = 0; k < 4; k++)
        c[k] = K->c[lo][k] + w * (K->c[hi][k] - K->c[lo][k]);
}

enum { NCMAX = 8, NQMAX = 32 };

/* The creep generalized force δ^K(q̇) = δ(q, q̇, f) − δ^NK(q, q̇) at the
 * workspace's q, s, with f = Kalker(ν(q̇) / Veff) over the frozen Veff, a, b. */
static void creep_force(rs_ws *ws, const double *qd, const kalker_ref *K, const double *Veff,
                        const double *a, const double *b, double G, double *dk)
{
    const rs_model *m = ws->model;
    double nu[3 * NCMAX], V[NCMAX], d0[NQMAX];
    rs_ws_bind(ws, ws->t, ws->q, qd);
    double *out[RS_FN_MAX_OUT] = {nu, V};
    ck_assert_int_eq(m->fn[RS_FN_CREEP].fn(ws->in, out), 0);
    for (int i = 0; i < m->n_contact; i++) {
        const rs_contact *ct = &m->contacts[i];
        double C[4];
        kalker_ref_coeffs(K, a[i] / b[i], C);
        const double ab = a[i] * b[i], ab15 = pow(ab, 1.5);
        const double xi[3] = {nu[3 * i] / Veff[i], nu[3 * i + 1] / Veff[i], nu[3 * i + 2] / Veff[i]};
        /* Kalker's linear law (../shared/reference/contact.md) */
        ws->u[ct->force_slot[0]] = -G * ab * C[0] * xi[0];
        ws->u[ct->force_slot[1]] = -G * ab * C[1] * xi[1] - G * ab15 * C[2] * xi[2];
        ws->u[ct->force_slot[2]] = G * ab15 * C[2] * xi[1] - G * ab * ab * C[3] * xi[2];
    }
    out[0] = dk;
    out[1] = NULL;
    ck_assert_int_eq(m->fn[RS_FN_DELTA].fn(ws->in, out), 0);
    for (int i = 0; i < m->n_contact; i++)
        for (int k = 0; k < 3; k++)
            ws->u[m->contacts[i].force_slot[k]] = 0;
    out[0] = d0;
    ck_assert_int_eq(m->fn[RS_FN_DELTA].fn(ws->in, out), 0);
    for (int j = 0; j < m->n_q; j++)
        dk[j] -= d0[j];
}

/* Compares the runtime's C^K_qq with −∂δ^K/∂q̇ at `nstates` random states of
 * the model in `dir`; lateral offsets up to y_max. */
static void check_ck_fd(const char *dir, int nstates, double y_max, unsigned seed)
{
    kalker_ref K;
    ck_assert_msg(kalker_ref_load(&K) == 0, "cannot read kalker_linear_coefficients.csv");
    rs_loaded *h = load(dir);
    const rs_model *m = rs_loaded_model(h);
    const int nq = m->n_q, nc = m->n_contact;
    ck_assert(nq <= NQMAX && nc <= NCMAX);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.contact_nu = 0.25; /* a node of the table: the ν interpolation is exact */
    const double G = o.contact_E / (2 * (1 + o.contact_nu));
    srand(seed);
    for (int st = 0; st < nstates; st++) {
        rs_ws *ws;
        char err[600];
        ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
        const double r0 = param(ws, "r0");
        const double v = 5 + 25 * (double)rand() / RAND_MAX;
        ck_assert_int_eq(rs_ws_set_q(ws, "x", 100 * (double)rand() / RAND_MAX), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "y", y_max * urand()), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "yaw", 2e-3 * urand()), RS_OK);
        ck_assert_int_eq(rs_ws_set_q(ws, "spin", 6 * urand()), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", v), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", v / r0 * (1 + 0.01 * urand())), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "y_dot", 0.02 * urand()), RS_OK);
        ck_assert_int_eq(rs_ws_set_qd(ws, "yaw_dot", 0.005 * urand()), RS_OK);
        /* s from φ^d, q and q̇ projected onto φ^n, normal forces λ */
        ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
        for (int n = 0; n < 3; n++) /* a few steps: λ from a solve with creep */
            ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));

        /* the runtime's C^K_qq at this state */
        rs_contact_ws *c = ws->ct;
        rs_ws_bind(ws, ws->t, ws->q, ws->qd);
        rs_contact_fill(c, -1, ws->s, ws->u);
        ck_assert_msg(rs_contact_creep(ws) == RS_OK, "%s", rs_ws_error(ws));
        if (ws->opt.fast & RS_FAST_CK) {
            /* the step adds C^K straight into K's values (rs_contact_add_ck):
             * form it in its own pattern here, and check that the step's way
             * puts the same values at K's positions */
            rs_ck_plan_values(&c->ckp, c->Dv, c->Nv, c->Cb, c->CKv);
            memset(ws->sys.Ax, 0, (size_t)ws->sys.nnz * sizeof(double));
            rs_contact_add_ck(ws, 1.0);
            for (int p = 0; p < c->ck_colptr[nq]; p++)
                ck_assert_double_eq(ws->sys.Ax[ws->sys.map_X[p]], c->CKv[p]);
        }
        double CK[NQMAX][NQMAX] = {{0}};
        for (int j = 0; j < nq; j++)
            for (int p = c->ck_colptr[j]; p < c->ck_colptr[j + 1]; p++)
                CK[c->ck_rowind[p]][j] = c->CKv[p];
        double Veff[NCMAX], a[NCMAX], b[NCMAX];
        for (int i = 0; i < nc; i++) {
            Veff[i] = sqrt(c->V[i] * c->V[i] + o.contact_vmin * o.contact_vmin); /* frozen */
            a[i] = c->a[i]; /* frozen ellipse */
            b[i] = c->b[i];
            ck_assert(a[i] > 0 && b[i] > 0);
        }
        /* −∂δ^K/∂q̇ by central differences (δ^K is linear in q̇ once V is
         * frozen, so the step size only matters through rounding) */
        double FD[NQMAX][NQMAX], qd[NQMAX], dp[NQMAX], dm[NQMAX], scale = 0;
        for (int j = 0; j < nq; j++) {
            memcpy(qd, ws->qd, (size_t)nq * sizeof(double));
            const double hstep = 1e-3 * (1 + fabs(qd[j]));
            qd[j] += hstep;
            creep_force(ws, qd, &K, Veff, a, b, G, dp);
            qd[j] -= 2 * hstep;
            creep_force(ws, qd, &K, Veff, a, b, G, dm);
            for (int r = 0; r < nq; r++) {
                FD[r][j] = -(dp[r] - dm[r]) / (2 * hstep);
                scale = fmax(scale, fabs(FD[r][j]));
            }
        }
        double worst = 0;
        int wr = 0, wj = 0;
        for (int r = 0; r < nq; r++)
            for (int j = 0; j < nq; j++)
                if (fabs(CK[r][j] - FD[r][j]) > worst) {
                    worst = fabs(CK[r][j] - FD[r][j]);
                    wr = r;
                    wj = j;
                }
        printf("%s state %d: y %+.5f m, yaw %+.5f, v %.2f m/s, a/b %.3f %.3f, N %.0f %.0f N: "
               "max |C^K_qq| %.4g, max |C^K - FD| %.3g (%s, %s_dot)\n",
               dir, st, ws->q[1], ws->q[4], ws->qd[0], a[0] / b[0], a[1] / b[1],
               -ws->lambda[m->contacts[0].phi_row], -ws->lambda[m->contacts[1].phi_row], scale,
               worst, m->q_names[wr], m->q_names[wj]);
        ck_assert_msg(scale > 1e3, "C^K_qq nearly zero: %g", scale);
        ck_assert_msg(worst <= 1e-7 * scale, "C^K_qq[%s][%s] = %.10g, FD %.10g", m->q_names[wr],
                      m->q_names[wj], CK[wr][wj], FD[wr][wj]);
        rs_ws_free(&ws);
    }
    rs_unload(&h);
}

START_TEST(test_ck_finite_differences)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    RS_REQUIRE_MODEL("wheelset");
    check_ck_fd(DIR_CONE, 4, 0.004, 3);
    check_ck_fd(DIR_S1002, 3, 0.0002, 5);
}
END_TEST

/* ---- S1002 on 60E1 1:40 off centre: contact jumps --------------------- *
 * The wheelset released 3 mm off centre at 20 m/s: its contact points jump
 * where a root of φ^d disappears (docs/runtime.md "Contact jumps"); the
 * search over u_w keeps the run going with |φ^n| and |φ^d| < 1e-6 every step
 * (φ^d from the generated function, evaluated here). */
START_TEST(test_s1002_off_centre)
{
    RS_REQUIRE_MODEL("wheelset");
    rs_loaded *h = load(DIR_S1002);
    const rs_model *m = rs_loaded_model(h);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.dt = 1e-3;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    const double v = 20, r0 = param(ws, "r0");
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", v), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", v / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.003), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double worst = 0, worst_d = 0, ymin = 1, ymax = -1, uw_min = 1, uw_max = -1;
    long jumps0 = rs_ws_stats(ws)->contact_jumps;
    double tmax = 0;
    for (int n = 0; n < 1000; n++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        clock_gettime(CLOCK_MONOTONIC, &t1);
        tmax = fmax(tmax, (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) * 1e-3);
        double pos, vel;
        ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
        worst = fmax(worst, pos);
        worst_d = fmax(worst_d, rs_test_phi_d_max(ws));
        ymin = fmin(ymin, rs_ws_q(ws)[1]);
        ymax = fmax(ymax, rs_ws_q(ws)[1]);
        const double uw = rs_ws_s(ws)[m->contacts[0].s_slot[1]];
        uw_min = fmin(uw_min, uw);
        uw_max = fmax(uw_max, uw);
    }
    const rs_stats *st = rs_ws_stats(ws);
    printf("S1002/60E1 released 3 mm off centre, 1 s at 20 m/s: max |phi_n| %.3g, max |phi_d| "
           "%.3g, y in [%.4g, %.4g] m, left u_w in [%.4g, %.4g] m, searches %ld, jumps %ld "
           "(%ld during the run), contact Newton iterations %.2f per step, longest step %.0f us "
           "(libtcc)\n",
           worst, worst_d, ymin, ymax, uw_min, uw_max, st->contact_searches, st->contact_jumps,
           st->contact_jumps - jumps0, (double)st->contact_iters / (double)st->steps, tmax);
    ck_assert_msg(st->contact_jumps > jumps0, "no contact jump: the search was not exercised");
    ck_assert_msg(worst < 1e-6, "max |phi_n| %g", worst);
    ck_assert_msg(worst_d < 1e-6, "max |phi_d| %g", worst_d);
    ck_assert(rs_ws_q(ws)[0] > 19.9 && rs_ws_q(ws)[0] < 20.1);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_wheelset");
    TCase *tc = tcase_create("wheelset");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_energy_no_creep);
    tcase_add_test(tc, test_ck_finite_differences);
    tcase_add_test(tc, test_s1002_off_centre);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
