/*
 * test_train_contact.c — compiled vehicles with compliant Hertzian
 * wheel-rail contact and creep in train mode (rs_train_contact.h,
 * docs/trains.md "Compliant wheel-rail contact"), on the two-axle bogie of
 * vehicles/examples/bogie.vdl (generated/bogie: 18 coordinates, 4 contacts,
 * S1002 wheels on 60E1 rails 1:40).
 *
 *   - c_H against the closed-form Hertz sphere-on-flat stiffness
 *     4/3 E* √R (a circular contact) — independent of rs_hertz's m, n;
 *   - static equilibrium: the four Hertz normal forces' vertical parts
 *     carry the weight (total mass from the parameters) to 1e-6, left and
 *     right equal by symmetry;
 *   - the Jacobians K, C against central differences of F: K_N exactly
 *     once the left-out geometric stiffness (itself taken by a second,
 *     independent difference of φ^n_q at frozen N) is added; C exactly
 *     without creep; with creep, the size of the left-out terms reported;
 *   - Krylov (GMRES and BiCGStab) against a direct KLU solve of the same
 *     assembled (M' − ΔJ) δq' = Q at sampled steps of a train with creep,
 *     to 1e-10 relative;
 *   - 1, 2, 4 threads bit-identical;
 *   - pulled from rest, the train accelerates at F/M, M including the
 *     wheelsets' spin inertia I_y/r², within 1 %.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/klu.h>

#include "rs_hertz.h"
#include "rs_krylov.h"
#include "rs_park.h"
#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_contact.h"
#include "rs_train_model.h"
#include "rs_test.h"
#include "rt_fixtures.h"

static rs_loaded *g_h;
static const rs_model *g_m;

static void load_once(void)
{
    if (g_m)
        return;
    g_h = rt_load("generated/bogie");
    g_m = rs_loaded_model(g_h);
}

static double par(const char *name) { return rt_param_default(g_m, name); }
static int qi(const char *name) { return rt_coord_index(g_m, name); }

#define NQ 18

static rs_compiled_vehicle *new_bogie(int creep, double c_damp)
{
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.creep = creep;
    co.c_damp = c_damp;
    rs_compiled_vehicle *v;
    char err[512];
    ck_assert_msg(rs_compiled_vehicle_create_contact(&v, g_m, NULL, NULL, &co, NULL, err, sizeof err) == RS_OK, "%s", err);
    return v;
}

/* The bogie at rest in equilibrium (frame x held at x0). */
static void bogie_static(rs_compiled_vehicle *v, double *q, double x0)
{
    memset(q, 0, NQ * sizeof(double));
    q[qi("x")] = x0;
    q[qi("front.x")] = x0;
    q[qi("rear.x")] = x0;
    int bad = -1;
    const int st = rs_compiled_vehicle_static(v, 0.0, q, qi("x"), &bad);
    ck_assert_msg(st == RS_OK, "static: %s (%d, coordinate %d) %s", rs_status_name(st), st, bad,
                  rs_train_wheel_contact_error(rs_compiled_vehicle_contact(v)));
}

START_TEST(test_hertz_sphere)
{
    /* a wheel of radius R in both directions on a flat rail: A = B = 1/(2R),
     * a sphere on a flat: N = 4/3 E* √R p^{3/2}, E* = E / (2 (1 − ν²)) */
    const double E = 2.1e11, nu = 0.28;
    const double Es = E / (2 * (1 - nu * nu));
    for (double R = 0.1; R < 1.0; R *= 2.1) {
        const double radii[3] = {R, R, INFINITY};
        const double c = rs_train_wheel_contact_hertz_stiffness(radii, E, nu, NULL, NULL);
        const double ref = 4.0 / 3.0 * Es * sqrt(R);
        ck_assert_msg(fabs(c - ref) <= 1e-9 * ref, "R %g: c_H %.12g, sphere %.12g", R, c, ref);
    }
    /* elliptical: c_H must not depend on the load the ellipse is taken at:
     * N = c_H p^{3/2} with p from the semi-axes at N = 1 and 1e5 N */
    const double radii[3] = {0.46, -0.33, 0.3};
    double a1, b1;
    const double c = rs_train_wheel_contact_hertz_stiffness(radii, E, nu, &a1, &b1);
    ck_assert(c > 1e10 && c < 1e12);
    printf("Hertz: S1002-like radii 0.46, -0.33, 0.3 m: c_H = %.4g N/m^1.5, a/b = %.4f\n", c, a1 / b1);
}
END_TEST

START_TEST(test_static_equilibrium)
{
    load_once();
    /* a contact model with delta_jac is a valid vehicle now */
    char msg[512];
    int ix = -1;
    ck_assert_msg(rs_compiled_vehicle_check_model(g_m, "x", NULL, &ix, NULL, msg, sizeof msg) == RS_OK, "%s", msg);
    ck_assert_int_eq(ix, qi("x"));
    rs_compiled_vehicle *v = new_bogie(1, 1e5);
    double q[NQ];
    bogie_static(v, q, 0.0);
    const rs_train_wheel_contact *tc = rs_compiled_vehicle_contact(v);
    /* the vertical parts of the normal forces: N cos α from the contact
     * base would need the normal; instead the vertical force balance is
     * read off F (independent of the contact law): F = 0 at equilibrium,
     * and the gap-normal φ^n_q row of z is cos α */
    const double mtot = par("m_f") + 2 * par("m_ws"), g = par("g");
    double fz = 0;
    double F[NQ] = {0}, K[NQ * NQ] = {0}, zero[NQ] = {0};
    ck_assert(rs_compiled_vehicle_eval(v, 0.0, q, zero, NULL, F, K, NULL) == RS_OK);
    double res = 0;
    for (int i = 0; i < NQ; i++)
        if (i != qi("x"))
            res = fmax(res, fabs(F[i]));
    for (int i = 0; i < rs_train_wheel_contact_count(tc); i++) {
        const rs_train_wheel_contact_point *p = rs_train_wheel_contact_point_get(tc, i);
        printf("static: %-12s pen %.6e m  N %.3f N  c_H %.4g  k_n %.4g\n", rs_train_wheel_contact_name(tc, i), p->pen, p->N,
               p->c_hertz, p->k_n);
        fz += p->N;
    }
    printf("static: residual %.3g N, sum N %.6f N, weight %.6f N\n", res, fz, mtot * g);
    /* vertical parts: N_i n_z,i with n_z,i = ∂φ^n_i/∂z of its wheelset by
     * central differences of the penetration (not from the law or F) */
    double vert = 0, side[2] = {0, 0}, Ns[8];
    for (int i = 0; i < rs_train_wheel_contact_count(tc); i++)
        Ns[i] = rs_train_wheel_contact_point_get(tc, i)->N;
    for (int i = 0; i < rs_train_wheel_contact_count(tc); i++) {
        const char *nm = rs_train_wheel_contact_name(tc, i);
        const int iz = qi(strncmp(nm, "front", 5) == 0 ? "front.z" : "rear.z");
        const double N = Ns[i], h = 1e-7;
        double pen[2];
        for (int k = 0; k < 2; k++) {
            double qq[NQ];
            memcpy(qq, q, sizeof qq);
            qq[iz] += k ? -h : h;
            double Ft[NQ] = {0};
            ck_assert(rs_compiled_vehicle_eval(v, 0.0, qq, zero, NULL, Ft, NULL, NULL) == RS_OK);
            pen[k] = rs_train_wheel_contact_point_get(tc, i)->pen;
        }
        const double nz = -(pen[0] - pen[1]) / (2 * h);
        vert += N * nz;
        side[strstr(nm, "left") ? 0 : 1] += N;
    }
    printf("static: sum N n_z %.9f N, weight %.9f N, rel. %.2e; left %.9f right %.9f N\n", vert, mtot * g,
           fabs(vert - mtot * g) / (mtot * g), side[0], side[1]);
    ck_assert_msg(fabs(vert - mtot * g) <= 1e-6 * mtot * g, "vertical contact forces %.9g vs weight %.9g", vert,
                  mtot * g);
    ck_assert_msg(fabs(side[0] - side[1]) <= 1e-9 * side[0], "left %.12g right %.12g", side[0], side[1]);
    for (int i = 0; i < rs_train_wheel_contact_count(tc); i++)   /* each wheel its quarter */
        ck_assert(fabs(Ns[i] - fz / 4) <= 1e-6 * fz);
    ck_assert(res <= 1e-6);
    rs_compiled_vehicle_free(&v);
}
END_TEST

/* Material per contact (rs_train_wheel_contact_opts.E_each, nu_each: a
 * train file's 'contact_E CONTACT = E', 'contact_nu CONTACT = NU'): the
 * front left wheel at half Young's modulus, the rear right one at Poisson
 * ratio 0.  Each contact's c_H is Hertz's for its own E* = E / (2 (1 − ν²))
 * (test_hertz_sphere's law: c_H ∝ E* at fixed curvatures), the others'
 * unchanged; the static equilibrium still carries the weight. */
START_TEST(test_material_per_contact)
{
    load_once();
    const double E = 2.1e11, nu = 0.28, E_each[4] = {E / 2, NAN, NAN, NAN}, nu_each[4] = {NAN, NAN, NAN, 0};
    const double ratio[4] = {0.5, 1, 1, 1 - nu * nu};
    double cH[2][4], q[NQ], zero[NQ] = {0};
    /* run 1 (the materials) finds its equilibrium; run 0 (steel) is
     * evaluated in the same pose, so that the curvatures are the same */
    for (int run = 1; run >= 0; run--) {
        rs_train_wheel_contact_opts co;
        rs_train_wheel_contact_opts_default(&co);
        if (run) {
            co.E_each = E_each;
            co.nu_each = nu_each;
        }
        rs_compiled_vehicle *v;
        char err[512];
        ck_assert_msg(rs_compiled_vehicle_create_contact(&v, g_m, NULL, NULL, &co, NULL, err, sizeof err) == RS_OK,
                      "%s", err);
        double F[NQ];
        if (run)
            bogie_static(v, q, 0.0);
        ck_assert(rs_compiled_vehicle_eval(v, 0.0, q, zero, NULL, F, NULL, NULL) == RS_OK);
        const rs_train_wheel_contact *tc = rs_compiled_vehicle_contact(v);
        ck_assert_int_eq(rs_train_wheel_contact_count(tc), 4);
        for (int i = 0; i < 4; i++)
            cH[run][i] = rs_train_wheel_contact_point_get(tc, i)->c_hertz;
        rs_compiled_vehicle_free(&v);
    }
    for (int i = 0; i < 4; i++) {
        printf("material per contact: contact %d: c_H ratio %.7f (E* ratio %.7f)\n", i, cH[1][i] / cH[0][i], ratio[i]);
        ck_assert_msg(fabs(cH[1][i] / cH[0][i] - ratio[i]) < 1e-12 * ratio[i], "contact %d: c_H ratio %g, want %g", i,
                      cH[1][i] / cH[0][i], ratio[i]);
    }
}
END_TEST

/* A perturbed running state: the bogie from its equilibrium at 10 m/s,
 * the front wheelset 2 mm to the left and yawed 1 mrad, small velocities. */
static void running_state(rs_compiled_vehicle *v, double *q, double *qd, int perturbed)
{
    bogie_static(v, q, 0.0);
    const double V = 10.0, r0 = par("r0");
    memset(qd, 0, NQ * sizeof(double));
    qd[qi("x")] = qd[qi("front.x")] = qd[qi("rear.x")] = V;
    qd[qi("front.spin")] = qd[qi("rear.spin")] = V / r0;
    unsigned char fix[NQ] = {0};
    fix[qi("x")] = 1;
    int bad;
    ck_assert(rs_compiled_vehicle_steady(v, 0.0, q, qd, fix, &bad) == RS_OK);   /* pure rolling: ν = 0 */
    if (!perturbed)
        return;
    qd[qi("front.spin")] *= 1.001;   /* 0.1 % longitudinal creep */
    q[qi("front.y")] += 2e-3;
    q[qi("front.yaw")] += 1e-3;
    qd[qi("front.y")] = 0.01;
    qd[qi("front.z")] = -0.002;
    qd[qi("rear.roll")] = 0.003;
}

static double max_abs(const double *a, int n)
{
    double w = 0;
    for (int i = 0; i < n; i++)
        w = isnan(a[i]) ? INFINITY : fmax(w, fabs(a[i]));
    return w;
}

/* −∂F/∂q (which = 0) or −∂F/∂q̇ (which = 1) by central differences,
 * column-major; also, for which = 0, the left-out terms taken apart by
 * differences at frozen normal forces: Kg = −Σ N_i ∂φ^n_q,i/∂q (geometric)
 * and Kc = −Σ φ^n_q,i (p_i^{3/2} ∂c_H,i/∂q − c_N ∂φ^n_q,i/∂q q̇) (c_H's
 * variation, the damper's geometric part). */
static void fd_jac(rs_compiled_vehicle *v, const double *q, const double *qd, int which, double c_damp, double *J, double *Kg,
                   double *Kc)
{
    /* for which = 1 (and c_N = 0): Kg = the left-out creep term
     * Σ_i (D_i f_i) ∂V_eff,i/∂q̇ / V_eff,i (C_b = C_m / V_eff varies with q̇) */
    const rs_train_wheel_contact *tc = rs_compiled_vehicle_contact(v);
    const int nc = rs_train_wheel_contact_count(tc);
    double F0[NQ] = {0};
    ck_assert(rs_compiled_vehicle_eval(v, 0.0, q, qd, NULL, F0, NULL, NULL) == RS_OK);
    double N0[8], G0[8][NQ], pen0[8], gen0[8][NQ], V0[8];
    for (int i = 0; i < nc; i++) {
        rs_train_wheel_contact_creep_gen(tc, i, gen0[i]);
        V0[i] = rs_train_wheel_contact_point_get(tc, i)->v_eff;
        N0[i] = rs_train_wheel_contact_point_get(tc, i)->N;
        pen0[i] = fmax(rs_train_wheel_contact_point_get(tc, i)->pen, 0.0);
        memcpy(G0[i], rs_train_wheel_contact_gap_q(tc, i), sizeof G0[i]);
    }
    for (int b = 0; b < NQ; b++) {
        const double h = which ? 1e-5 : 2e-8;   /* p ≈ 2e-5 m: (h/p)² small */
        double Fp[NQ] = {0}, Fm[NQ] = {0}, Gp[8][NQ], Gm[8][NQ], cp[8], cm[8], Vp[8], Vm[8];
        double x[NQ], xd[NQ];
        for (int k = 0; k < 2; k++) {
            memcpy(x, q, sizeof x);
            memcpy(xd, qd, sizeof xd);
            (which ? xd : x)[b] += k ? -h : h;
            ck_assert(rs_compiled_vehicle_eval(v, 0.0, x, xd, NULL, k ? Fm : Fp, NULL, NULL) == RS_OK);
            for (int i = 0; i < nc; i++) {
                memcpy(k ? Gm[i] : Gp[i], rs_train_wheel_contact_gap_q(tc, i), sizeof Gp[i]);
                (k ? cm : cp)[i] = rs_train_wheel_contact_point_get(tc, i)->c_hertz;
                (k ? Vm : Vp)[i] = rs_train_wheel_contact_point_get(tc, i)->v_eff;
            }
        }
        for (int a = 0; a < NQ; a++) {
            J[a + b * NQ] = -(Fp[a] - Fm[a]) / (2 * h);
            if (which && Kg) {
                double w = 0;
                for (int i = 0; i < nc; i++)
                    if (V0[i] > 0)
                        w += gen0[i][a] * (Vp[i] - Vm[i]) / (2 * h) / V0[i];
                Kg[a + b * NQ] = w;
            }
            if (!which) {
                double g = 0, c = 0;
                for (int i = 0; i < nc; i++) {
                    g -= N0[i] * (Gp[i][a] - Gm[i][a]) / (2 * h);
                    c -= G0[i][a] * pen0[i] * sqrt(pen0[i]) * (cp[i] - cm[i]) / (2 * h);
                    /* the damper's ṗ = −φ^n_q q̇ moves with φ^n_q too */
                    double gdot = 0;
                    for (int j = 0; j < NQ; j++)
                        gdot += (Gp[i][j] - Gm[i][j]) / (2 * h) * qd[j];
                    if (N0[i] > 0)
                        c += c_damp * G0[i][a] * gdot;
                }
                Kg[a + b * NQ] = g;
                Kc[a + b * NQ] = c;
            }
        }
    }
    /* leave the instance's contact points at the state */
    double Ft[NQ] = {0};
    ck_assert(rs_compiled_vehicle_eval(v, 0.0, q, qd, NULL, Ft, NULL, NULL) == RS_OK);
}

START_TEST(test_jacobians)
{
    load_once();
    double q[NQ], qd[NQ];
    static double K[NQ * NQ], C[NQ * NQ], J[NQ * NQ], Kg[NQ * NQ], Kc[NQ * NQ], D[NQ * NQ];
    /* frictionless: K (K_δ + K_N) and C (C_δ + c_N φ^n_qᵀφ^n_q); with
     * creep: C^K, exact at pure rolling (ν = 0), and at a perturbed state */
    for (int run = 0; run < 3; run++) {
        const int creep = run > 0, perturbed = run != 1;
        /* run 1 without the normal damper: N (so C_b) then does not depend on q̇ */
        rs_compiled_vehicle *v = new_bogie(creep, run == 1 ? 0.0 : 1e5);
        running_state(v, q, qd, perturbed);
        memset(K, 0, sizeof K);
        memset(C, 0, sizeof C);
        double F[NQ] = {0};
        ck_assert(rs_compiled_vehicle_eval(v, 0.0, q, qd, NULL, F, K, C) == RS_OK);
        fd_jac(v, q, qd, 0, run == 1 ? 0.0 : 1e5, J, Kg, Kc);
        const double kn = max_abs(K, NQ * NQ);
        for (int k = 0; k < NQ * NQ; k++)
            D[k] = J[k] - K[k];
        const double raw = max_abs(D, NQ * NQ) / kn;
        for (int k = 0; k < NQ * NQ; k++)
            D[k] = J[k] - K[k] - Kg[k] - Kc[k];
        const double full = max_abs(D, NQ * NQ) / kn;
        printf("jacobian (creep %d, %s): K vs central FD: max|FD - K| / max|K| = %.2e; geometric term %.2e, "
               "dc_H and damper terms %.2e of max|K|; after adding both: %.2e\n",
               creep, perturbed ? "perturbed" : "rolling", raw, max_abs(Kg, NQ * NQ) / kn, max_abs(Kc, NQ * NQ) / kn, full);
        fd_jac(v, q, qd, 1, run == 1 ? 0.0 : 1e5, J, Kg, NULL);
        const double cn = max_abs(C, NQ * NQ);
        for (int k = 0; k < NQ * NQ; k++)
            D[k] = J[k] - C[k];
        const double cdiff = max_abs(D, NQ * NQ) / cn;
        for (int k = 0; k < NQ * NQ; k++)
            D[k] = J[k] - C[k] - Kg[k];
        const double cfull = max_abs(D, NQ * NQ) / cn;
        printf("jacobian (creep %d, %s): C vs central FD: max|FD - C| / max|C| = %.2e; left-out creep term "
               "(C_b through V) %.2e; after adding it: %.2e\n",
               creep, perturbed ? "perturbed" : "rolling", cdiff, max_abs(Kg, NQ * NQ) / cn, cfull);
        if (!creep)
            ck_assert_msg(full <= 1e-6, "K_N: %.3g", full);
        else   /* the left-out creep terms stay small next to the contact stiffness */
            ck_assert_msg(raw <= 2e-2, "K with creep: %.3g", raw);
        ck_assert_msg(cfull <= 1e-6, "C: %.3g", cfull);
        rs_compiled_vehicle_free(&v);
    }
}
END_TEST

/* ---------------------------------------------------------------- trains */

static const char *const k_track = "vehicles/tracks/long_straight.trk";

/* nb bogies (frame x the coupler's port, no pitch port), traction F on the
 * first, no rolling resistance; vehicle 1's front wheelset starts 2 mm to
 * the left (dy) so that the run has lateral creep. */
static rs_train *bogie_train(int nb, double F, double dy, int threads, rs_krylov_method meth, double tol,
                             double *y0, unsigned char *yset)
{
    static rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.track = k_track;
    rs_wagon w[16];
    rs_coupler c[16];
    ck_assert(nb <= 16);
    memset(y0, 0, NQ * sizeof(double));
    memset(yset, 0, NQ);
    y0[qi("front.y")] = dy;
    yset[qi("front.y")] = 1;
    for (int v = 0; v < nb; v++) {
        rs_wagon_default(&w[v]);
        w[v].model = g_m;
        w[v].port_x = qi("x");
        w[v].port_pitch = -1;
        w[v].r0 = 0.0;
        w[v].l_front = w[v].l_rear = 2.0;
        w[v].model_contact = &co;
        if (v == 1 && dy != 0.0) {
            w[v].init_q = y0;
            w[v].init_q_set = yset;
        }
        if (v < nb - 1)
            rs_coupler_default(&c[v]);
    }
    w[0].traction = F;
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = threads;
    o.probe = 0;   /* the team on every step (no serial probe): its bits are what is compared */
    o.rebalance = 10;
    o.krylov.method = meth;
    o.krylov.tol = tol;
    o.krylov.maxiter = 400;
    rs_train *tr;
    char err[512];
    ck_assert_msg(rs_train_create(&tr, nb, w, NULL, c, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
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

/* KLU on the dense expansion of the assembled block system (the layout of
 * rs_krylov.h: diagonal blocks and pieces, column-major). */
static void klu_direct(const rs_block_matrix *A, const double *b, double *x, double *asym)
{
    const int n = rs_block_matrix_n(A);
    double *Dn = calloc((size_t)n * n, sizeof(double));
    ck_assert(Dn);
    for (int k = 0; k < rs_block_matrix_nblocks(A); k++) {
        const int o = rs_block_matrix_offset(A, k), m = rs_block_matrix_bsize(A, k);
        const double *D = rs_block_matrix_diag_c(A, k);
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++)
                Dn[(o + i) + (size_t)(o + j) * n] += D[i + j * m];
    }
    for (int k = 0; k < rs_block_matrix_npieces(A); k++) {
        const rs_block_matrix_piece_spec *p = rs_block_matrix_piece_spec_of(A, k);
        const double *P = rs_block_matrix_piece((rs_block_matrix *)A, k);
        const int orow = rs_block_matrix_offset(A, p->rb), ocol = rs_block_matrix_offset(A, p->cb);
        for (int j = 0; j < p->nc; j++)
            for (int i = 0; i < p->nr; i++)
                Dn[(orow + p->ri[i]) + (size_t)(ocol + p->ci[j]) * n] += P[i + j * p->nr];
    }
    double num = 0, den = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            num = fmax(num, fabs(Dn[i + (size_t)j * n] - Dn[j + (size_t)i * n]));
            den = fmax(den, fabs(Dn[i + (size_t)j * n]));
        }
    *asym = num / den;
    int *Ap = calloc((size_t)n + 1, sizeof(int)), *Ai = calloc((size_t)n * n, sizeof(int));
    double *Ax = calloc((size_t)n * n, sizeof(double));
    ck_assert(Ap && Ai && Ax);
    int nnz = 0;
    for (int j = 0; j < n; j++) {
        Ap[j] = nnz;
        for (int i = 0; i < n; i++)
            if (Dn[i + (size_t)j * n] != 0.0) {
                Ai[nnz] = i;
                Ax[nnz++] = Dn[i + (size_t)j * n];
            }
    }
    Ap[n] = nnz;
    memcpy(x, b, (size_t)n * sizeof(double));
    klu_common cm;
    klu_defaults(&cm);
    klu_symbolic *sym = klu_analyze(n, Ap, Ai, &cm);
    ck_assert(sym);
    klu_numeric *nm = klu_factor(Ap, Ai, Ax, sym, &cm);
    ck_assert(nm);
    ck_assert(klu_solve(sym, nm, n, 1, x, &cm));
    klu_free_numeric(&nm, &cm);
    klu_free_symbolic(&sym, &cm);
    free(Ap);
    free(Ai);
    free(Ax);
    free(Dn);
}

START_TEST(test_krylov_vs_klu)
{
    load_once();
    const rs_krylov_method meth[2] = {RS_KRYLOV_GMRES, RS_KRYLOV_BICGSTAB};
    for (int k = 0; k < 2; k++) {
        double y0[NQ];
        unsigned char ys[NQ];
        rs_train *tr = bogie_train(4, 2e4, 2e-3, 2, meth[k], 1e-13, y0, ys);
        start(tr, 10.0);
        rs_park *pk = rs_train_park(tr);
        const int n = rs_park_n(pk);
        double *xd = calloc((size_t)n, sizeof(double));
        double worst = 0, asym = 0;
        long it0 = 0;
        for (int s = 1; s <= 100; s++) {
            step(tr);
            if (s % 20)
                continue;
            const rs_block_matrix *A;
            const double *b, *x;
            rs_park_last_system(pk, &A, &b, &x);
            klu_direct(A, b, xd, &asym);
            double num = 0, den = 0;
            for (int i = 0; i < n; i++) {
                num = fmax(num, fabs(x[i] - xd[i]));
                den = fmax(den, fabs(xd[i]));
            }
            worst = fmax(worst, num / den);
            ck_assert_msg(num <= 1e-10 * den, "step %d: |x - x_klu| %.3g, |x_klu| %.3g", s, num, den);
        }
        const rs_park_stats *st = rs_park_get_stats(pk);
        it0 = st->krylov_iters;
        printf("krylov vs KLU (%s, 4 bogies, 72 coordinates, 10 m/s with creep, tol 1e-13): 5 sampled steps, "
               "max |x - x_klu|/|x_klu| = %.2e; |A - A^T|/|A| = %.2e; %.2f iterations per step\n",
               k ? "BiCGStab" : "GMRES", worst, asym, (double)it0 / (double)st->steps);
        ck_assert(asym > 1e-8);   /* creep makes it non-symmetric */
        free(xd);
        rs_train_free(&tr);
    }
}
END_TEST

START_TEST(test_threads_identical)
{
    load_once();
    const int nb = 6, nsteps = 150;
    double *ref = NULL;
    size_t nbytes = 0;
    for (int th = 1; th <= 4; th *= 2) {
        double y0[NQ];
        unsigned char ys[NQ];
        rs_train *tr = bogie_train(nb, 3e4, 2e-3, th, RS_KRYLOV_GMRES, 1e-8, y0, ys);
        start(tr, 5.0);
        for (int s = 0; s < nsteps; s++)
            step(tr);
        rs_park *pk = rs_train_park(tr);
        const int n = rs_park_n(pk);
        nbytes = (size_t)n * sizeof(double);
        double *cur = malloc(2 * nbytes);
        memcpy(cur, rs_park_q(pk), nbytes);
        memcpy(cur + n, rs_park_qd(pk), nbytes);
        if (!ref)
            ref = cur;
        else {
            ck_assert_msg(memcmp(ref, cur, 2 * nbytes) == 0, "%d threads differ from 1", th);
            free(cur);
        }
        rs_train_free(&tr);
    }
    printf("threads: %d bogies, %d steps with creep: 1, 2, 4 threads bit-identical\n", nb, nsteps);
    free(ref);
}
END_TEST

START_TEST(test_pulled_from_rest)
{
    load_once();
    const int nb = 5;
    const double F = 2e4;
    double y0[NQ];
    unsigned char ys[NQ];
    rs_train *tr = bogie_train(nb, F, 0.0, 1, RS_KRYLOV_AUTO, 1e-8, y0, ys);
    start(tr, 0.0);
    /* M: every body's mass moves with the train; each wheelset also spins
     * up, adding I_y / r² (rolling radius r ≈ r0 at the centred contact) */
    const double r0 = par("r0");
    const double Mv = par("m_f") + 2 * par("m_ws") + 2 * par("Iwy") / (r0 * r0);
    const double a_ref = F / (nb * Mv);
    double v1[16];
    const int s1 = 1000, s2 = 2000;
    for (int s = 1; s <= s2; s++) {
        step(tr);
        if (s == s1)
            for (int v = 0; v < nb; v++)
                v1[v] = rs_train_v(tr, v);
    }
    double worst = 0;
    for (int v = 0; v < nb; v++) {
        const double a = (rs_train_v(tr, v) - v1[v]) / ((s2 - s1) * 1e-3);
        worst = fmax(worst, fabs(a - a_ref) / a_ref);
    }
    const rs_park_stats *st = rs_park_get_stats(rs_train_park(tr));
    printf("pulled from rest: %d bogies, F = %g N: a = F/M = %.6f m/s^2 (M with spin inertia %.1f kg per bogie); "
           "worst |a - F/M|/(F/M) over 1-2 s = %.2e; %.2f Krylov iterations per step\n",
           nb, F, a_ref, Mv, worst, (double)st->krylov_iters / (double)st->steps);
    ck_assert_msg(worst <= 0.01, "acceleration off by %.3g", worst);
    rs_train_free(&tr);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_contact");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_hertz_sphere);
    tcase_add_test(tc, test_material_per_contact);
    tcase_add_test(tc, test_static_equilibrium);
    tcase_add_test(tc, test_jacobians);
    tcase_add_test(tc, test_krylov_vs_klu);
    tcase_add_test(tc, test_threads_identical);
    tcase_add_test(tc, test_pulled_from_rest);
    suite_add_tcase(s, tc);
    const int nf = rs_test_run_nofork(s) != EXIT_SUCCESS;
    if (g_h)
        rs_unload(&g_h);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
