/*
 * test_thermal.c — the damper's thermal grid (runtime/coupled/rs_thermal.h,
 * issue 25) against what does not come from it:
 *
 *   - a rod heated through its end by a constant flux q'' against the
 *     semi-infinite solid's exact transient (Carslaw & Jaeger §2.9)
 *         T − T0 = (q''/k) [2 √(γt/π) e^(−x²/4γt) − x erfc(x / 2√(γt))],
 *     and the error falling as dz² (second order in space);
 *   - energy: heat generated = stored + convected, within 0.1 %, for a tube
 *     with a varying power;
 *   - steady state of a thin tube (Biot ≪ 1): the mean temperature tends
 *     to T_amb + P / (h A), A the convecting area counted by hand;
 *   - the sub-step limit: C / Σ G computed by hand for a rod;
 *   - a grid cut into slabs with halos copied by hand gives the one-slab
 *     values bit for bit (what makes 1, 2, 3 MPI ranks identical);
 *   - the coefficient law c = c_ref exp(−β (T − t_ref)) by hand.
 */
#define _GNU_SOURCE   /* M_PI */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_status.h"
#include "rs_test.h"
#include "rs_thermal.h"
#include "rs_thermal_couple.h"

/* A rod of nz cells along z, insulated sides, steel. */
static rs_thermal_spec rod(int nz, double L)
{
    rs_thermal_spec s;
    rs_thermal_spec_default(&s);
    s.nx = s.ny = 1;
    s.nz = nz;
    s.length = L;
    s.radius = 0.01;
    s.bore = 0;
    s.convection = 0;
    s.initial = 20;
    s.beta = 0;
    s.heat = RS_THERMAL_HEAT_END;
    return s;
}

/* Max |T − exact| over the cells after time t with flux P/A at z = 0. */
static double rod_error(int nz, double *rise)
{
    const double L = 0.4, t_end = 60, P = 100, h = 0.005;
    rs_thermal_spec s = rod(nz, L);
    rs_thermal_slab *sl;
    char err[256];
    ck_assert_int_eq(rs_thermal_slab_create(&s, 0, nz, &sl, err, sizeof err), RS_OK);
    const rs_thermal_grid *g = rs_thermal_slab_grid(sl);
    ck_assert(h < g->dt_stable);
    double *loss = calloc((size_t)nz, sizeof *loss);
    const long n = lround(t_end / h);
    for (long i = 0; i < n; i++)
        rs_thermal_substep(sl, P, h, loss);
    const double gam = s.conductivity / (s.density * s.heat_capacity);
    const double q = P / (g->dx * g->dy), sq = sqrt(gam * t_end);
    double emax = 0;
    for (int k = 0; k < nz; k++) {
        const double x = (k + 0.5) * g->dz;
        const double exact = s.initial + q / s.conductivity *
                                             (2 * sq / sqrt(M_PI) * exp(-x * x / (4 * gam * t_end)) -
                                              x * erfc(x / (2 * sq)));
        emax = fmax(emax, fabs(rs_thermal_cell(sl, 0, 0, k) - exact));
    }
    *rise = q / s.conductivity * 2 * sq / sqrt(M_PI);   /* at the surface x = 0 */
    ck_assert_double_eq(loss[0], 0);   /* insulated */
    free(loss);
    rs_thermal_slab_free(&sl);
    return emax;
}

START_TEST(erfc_transient_second_order)
{
    double rise, e[3];
    const int nz[3] = {40, 80, 160};
    for (int i = 0; i < 3; i++)
        e[i] = rod_error(nz[i], &rise);
    /* hand check of the scale: 2 q''/k √(γt/π) with q'' = 100 W / (0.02 m)² */
    ck_assert_double_eq_tol(rise, 2 * 2.5e5 / 50 * sqrt(50.0 / (7850 * 460) * 60 / M_PI), 1e-9);
    printf("erfc transient: surface rise %.4g K; max errors %.3g, %.3g, %.3g K at nz = 40, 80, 160\n", rise, e[0],
           e[1], e[2]);
    ck_assert_msg(e[2] < 2e-3 * rise, "error %g K against a rise of %g K", e[2], rise);
    for (int i = 0; i < 2; i++) {
        const double order = log2(e[i] / e[i + 1]);
        ck_assert_msg(order > 1.8 && order < 2.3, "dz %d -> %d: errors %g, %g: order %g", nz[i], nz[i + 1], e[i],
                      e[i + 1], order);
    }
}
END_TEST

/* The damper's tube: 0.3 m, R 30 mm, bore 20 mm. */
static rs_thermal_spec tube(void)
{
    rs_thermal_spec s;
    rs_thermal_spec_default(&s);
    s.nx = s.ny = 10;
    s.nz = 12;
    s.length = 0.3;
    s.radius = 0.03;
    s.bore = 0.02;
    s.convection = 25;
    s.beta = 0.01;
    s.initial = 20;
    return s;
}

START_TEST(energy_balance)
{
    rs_thermal_spec s = tube();
    rs_thermal_couple *c;
    char err[256];
    ck_assert_int_eq(rs_thermal_couple_create(&s, 1000, NULL, &c, err, sizeof err), RS_OK);
    double coef;
    for (int i = 0; i < 4000; i++) {   /* 400 s of a power between 0 and 400 W */
        const double P = 200 * (1 + sin(0.05 * i));
        ck_assert_int_eq(rs_thermal_couple_step(c, P, 0.1, &coef, err, sizeof err), RS_OK);
    }
    rs_thermal_energy e;
    rs_thermal_couple_energy(c, &e);
    ck_assert(e.lost > 0.01 * e.generated);   /* the balance has all three terms */
    ck_assert_msg(fabs(e.generated - e.stored - e.lost) < 1e-3 * e.generated, "generated %g, stored %g, lost %g",
                  e.generated, e.stored, e.lost);
    /* and the stored heat is the hand sum C Σ (T − T0) over the cells */
    ck_assert(e.t_mean > 25);
    ck_assert_double_eq_tol(coef, 1000 * exp(-0.01 * (e.t_mean - 20)), 1e-9);
    rs_thermal_couple_free(&c);
}
END_TEST

START_TEST(steady_state_convection)
{
    rs_thermal_spec s = tube();
    s.nz = 6;
    s.convection = 200;   /* a shorter time constant */
    rs_thermal_couple *c;
    char err[256];
    ck_assert_int_eq(rs_thermal_couple_create(&s, 1000, NULL, &c, err, sizeof err), RS_OK);
    const rs_thermal_grid *g = rs_thermal_couple_grid(c);
    /* the convecting area by hand: count the exposed faces of the mask */
    double area = 0;
    int in[10][10];
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 10; i++) {
            const double x = -0.03 + (i + 0.5) * 0.006, y = -0.03 + (j + 0.5) * 0.006, r = hypot(x, y);
            in[j][i] = r <= 0.03 && r >= 0.02;
        }
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 10; i++) {
            if (!in[j][i])
                continue;
            const int nb[4][2] = {{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}};
            for (int f = 0; f < 4; f++) {
                const int a = nb[f][0], b = nb[f][1];
                if (a < 0 || b < 0 || a > 9 || b > 9 || !in[b][a])
                    area += 0.006 * 0.05 * 6;   /* a side face, all 6 planes */
            }
            area += 2 * 0.006 * 0.006;   /* both ends */
        }
    ck_assert_double_eq_tol(g->area, area, 1e-12);
    double coef;
    const double P = 50;
    for (int i = 0; i < 2000; i++)   /* 20000 s, about 12 time constants */
        ck_assert_int_eq(rs_thermal_couple_step(c, P, 10, &coef, err, sizeof err), RS_OK);
    rs_thermal_energy e;
    rs_thermal_couple_energy(c, &e);
    const double expect = s.ambient + P / (s.convection * area);
    /* Biot h d / k = 200 · 0.01 / 50 = 0.04: the tube is nearly isothermal */
    ck_assert_msg(fabs(e.t_mean - expect) < 0.02 * (expect - s.ambient), "mean %g C, lumped %g C", e.t_mean,
                  expect);
    rs_thermal_couple_free(&c);
}
END_TEST

START_TEST(stability_limit)
{
    rs_thermal_spec s = rod(10, 0.1);
    rs_thermal_grid g;
    char err[256];
    ck_assert_int_eq(rs_thermal_grid_make(&s, &g, err, sizeof err), RS_OK);
    /* an interior cell: two z faces k A/dz; C = ρ c A dz: C/ΣG = dz²/(2γ) */
    const double dz = 0.01, gam = 50.0 / (7850 * 460);
    ck_assert_double_eq_tol(g.dt_stable, dz * dz / (2 * gam), 1e-9 * g.dt_stable);
    ck_assert_int_eq(rs_thermal_substeps(&g, 2.5 * g.dt_stable), 3);
    ck_assert_int_eq(rs_thermal_substeps(&g, g.dt_stable), 1);
    /* at the limit the scheme stays bounded; at twice it blows up */
    rs_thermal_slab *sl;
    double loss[10] = {0};
    for (int twice = 0; twice < 2; twice++) {
        ck_assert_int_eq(rs_thermal_slab_create(&s, 0, 10, &sl, err, sizeof err), RS_OK);
        /* a spike in the middle: the worst case for the explicit scheme */
        rs_thermal_slab_plane(sl, 5)[0] = 100;
        for (int i = 0; i < 400; i++)
            rs_thermal_substep(sl, 0, (twice ? 2.2 : 1.0) * g.dt_stable, loss);
        double tmax = 0;
        for (int k = 0; k < 10; k++)
            tmax = fmax(tmax, fabs(rs_thermal_cell(sl, 0, 0, k)));
        if (twice)
            ck_assert_msg(tmax > 1e6, "2.2 x the limit should diverge: max %g", tmax);
        else
            ck_assert_msg(tmax <= 100, "at the limit: max %g", tmax);
        rs_thermal_slab_free(&sl);
    }
}
END_TEST

START_TEST(slabs_bit_identical)
{
    rs_thermal_spec s = tube();
    s.nz = 9;
    rs_thermal_slab *one, *part[3];
    char err[256];
    ck_assert_int_eq(rs_thermal_slab_create(&s, 0, 9, &one, err, sizeof err), RS_OK);
    const int cut[4] = {0, 2, 6, 9};
    for (int p = 0; p < 3; p++)
        ck_assert_int_eq(rs_thermal_slab_create(&s, cut[p], cut[p + 1], &part[p], err, sizeof err), RS_OK);
    const rs_thermal_grid *g = rs_thermal_slab_grid(one);
    const size_t nxy = (size_t)g->nx * g->ny;
    double l1[9] = {0}, lp[9] = {0};
    for (int i = 0; i < 300; i++) {
        for (int p = 0; p < 3; p++) {   /* the halo exchange, by hand */
            if (p > 0)
                memcpy(rs_thermal_slab_plane(part[p], cut[p] - 1), rs_thermal_slab_plane(part[p - 1], cut[p] - 1),
                       nxy * sizeof(double));
            if (p < 2)
                memcpy(rs_thermal_slab_plane(part[p], cut[p + 1]), rs_thermal_slab_plane(part[p + 1], cut[p + 1]),
                       nxy * sizeof(double));
        }
        const double P = 300 + 100 * sin(0.1 * i), h = 0.9 * g->dt_stable;
        rs_thermal_substep(one, P, h, l1);
        for (int p = 0; p < 3; p++)
            rs_thermal_substep(part[p], P, h, lp + cut[p]);
    }
    for (int k = 0; k < 9; k++) {
        const rs_thermal_slab *sp = part[k < 2 ? 0 : k < 6 ? 1 : 2];
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++) {
                const double a = rs_thermal_cell(one, i, j, k), b = rs_thermal_cell(sp, i, j, k);
                ck_assert(memcmp(&a, &b, sizeof a) == 0);
            }
        ck_assert(memcmp(&l1[k], &lp[k], sizeof(double)) == 0);
    }
    ck_assert(rs_thermal_cell(one, 5, 0, 4) > 20);   /* it did heat up */
    rs_thermal_slab_free(&one);
    for (int p = 0; p < 3; p++)
        rs_thermal_slab_free(&part[p]);
}
END_TEST

START_TEST(coefficient_law)
{
    rs_thermal_spec s;
    rs_thermal_spec_default(&s);
    s.beta = 0.01;
    s.t_ref = 20;
    /* 50 K above the reference: e^−0.5 = 0.60653066 */
    ck_assert_double_eq_tol(rs_thermal_coefficient(&s, 4000, 70), 4000 * 0.60653066, 1e-4);
    ck_assert_double_eq_tol(rs_thermal_coefficient(&s, 4000, 20), 4000, 1e-12);
    s.beta = 0;
    ck_assert(rs_thermal_coefficient(&s, 4000, 123.4) == 4000);   /* exactly: no feedback */
}
END_TEST

START_TEST(statement_errors)
{
    rs_thermal_spec s;
    char err[512];
    const char *ok[] = {"thermal", "c_d", "power", "p_d", "beta", "0.01", "grid", "4", "4", "8", "heat", "end"};
    ck_assert_int_eq(rs_thermal_spec_parse(ok, 12, "a.scn", 3, &s, err, sizeof err), RS_OK);
    ck_assert_int_eq(s.nz, 8);
    ck_assert_int_eq(s.heat, RS_THERMAL_HEAT_END);
    ck_assert_double_eq(s.initial, s.ambient);
    const char *nobeta[] = {"thermal", "c_d", "power", "p_d"};
    ck_assert_int_eq(rs_thermal_spec_parse(nobeta, 4, "a.scn", 3, &s, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "a.scn:3:") && strstr(err, "beta"), "%s", err);
    const char *word[] = {"thermal", "c_d", "power", "p_d", "beta", "0", "radus", "0.1"};
    ck_assert_int_eq(rs_thermal_spec_parse(word, 8, "a.scn", 4, &s, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "a.scn:4:") && strstr(err, "'radus'"), "%s", err);
    const char *bore[] = {"thermal", "c_d", "power", "p_d", "beta", "0", "bore", "0.05"};
    ck_assert_int_eq(rs_thermal_spec_parse(bore, 8, "a.scn", 5, &s, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "bore"), "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("thermal");
    TCase *tc = tcase_create("grid");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, erfc_transient_second_order);
    tcase_add_test(tc, energy_balance);
    tcase_add_test(tc, steady_state_convection);
    tcase_add_test(tc, stability_limit);
    tcase_add_test(tc, slabs_bit_identical);
    tcase_add_test(tc, coefficient_law);
    tcase_add_test(tc, statement_errors);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
