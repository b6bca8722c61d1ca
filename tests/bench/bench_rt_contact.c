/*
 * bench_rt_contact.c — cost of the runtime's per-step contact work, per
 * contact or per step of an 8-contact, 60-coordinate vehicle (the seed's
 * locomotive sizes), without a generated model (model function evaluation
 * is not included; see bench_rt_step / bench_contact_element for those):
 *   BENCH rt_contact.fill_ns        <v> ns   6 splines' slots of one contact
 *                                            (hinted look-up, drifting point)
 *   BENCH rt_contact.creep_block_ns <v> ns   Hertz + Kalker + C/V, one contact
 *   BENCH rt_contact.solve4_ns      <v> ns   one 4×4 contact-point solve
 *   BENCH rt_contact.ck_values_us   <v> us   C^K_qq = D blockdiag(C) N,
 *                                            60 coordinates, 8 contacts
 * Medians over repetitions of batches.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rs_contact.h"

#define REPS 51

static void *b_alloc(void *ctx, size_t n) { (void)ctx; return calloc(1, n); }
static void b_release(void *ctx, void *p) { (void)ctx; free(p); }
static const rs_allocator ALLOC = {b_alloc, b_release, NULL};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static volatile double sink;

static const int zero_colptr[64] = {0};

static void bench_fill(void)
{
    static rs_contact ct;
    static const char *const qn[] = {"x"}, *const sn[] = {"a", "b", "c", "d"};
    static const char *un[33];
    static char ub[33][8];
    rs_model m;
    memset(&m, 0, sizeof m);
    m.name = "bench";
    m.n_q = 1;
    m.n_s = 4;
    m.n_u = 33;
    m.n_phi = 1;
    m.q_names = qn;
    m.s_names = sn;
    for (int i = 0; i < 33; i++) {
        snprintf(ub[i], sizeof ub[i], "u%d", i);
        un[i] = ub[i];
    }
    m.u_names = un;
    m.n_contact = 1;
    m.contacts = &ct;
    m.phi_d_q_pattern = (rs_pattern){4, 1, zero_colptr, NULL};
    m.ddelta_df_pattern = (rs_pattern){1, 3, zero_colptr, NULL};
    m.dnu_dqd_pattern = (rs_pattern){3, 1, zero_colptr, NULL};
    m.fn[RS_FN_CREEP].n_out = 5;
    ct.name = "c";
    ct.wheel_body = "w";
    static const int sel[6] = {1, 3, 2, 2, 2, 2};
    static const char *const files[6] = {
        "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf",
        "vehicles/tracks/feve3000_reference.trk", "vehicles/tracks/feve3000_reference.trk",
        "vehicles/tracks/feve3000_reference.trk", "vehicles/tracks/feve3000_reference.trk"};
    for (int k = 0; k < 6; k++) {
        for (int j = 0; j < 5; j++)
            ct.spline[k].u_slot[j] = 5 * k + j;
        ct.spline[k].s_slot = sel[k];
        ct.spline[k].file = files[k];
    }
    for (int k = 0; k < 3; k++)
        ct.force_slot[k] = 30 + k;
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_contact_ws *c;
    char err[600];
    if (rs_contact_create(&m, &o, &ALLOC, &c, err, sizeof err)) {
        fprintf(stderr, "bench_rt_contact: %s\n", err);
        rs_contact_free(&c, &ALLOC);
        return;
    }
    double s[4] = {0, 0, 0, 0}, u[33], t[REPS];
    enum { BATCH = 2000 };
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns();
        for (int n = 0; n < BATCH; n++) {
            s[1] = 0.004 * sin(1e-3 * (r * BATCH + n)); /* hunting */
            s[3] = 0.9 * s[1];
            s[2] = 0.02 * (r * BATCH + n);              /* 20 m/s at 1 ms */
            rs_contact_fill(c, 0, s, u);
        }
        t[r] = (now_ns() - t0) / BATCH;
        sink = u[12];
    }
    printf("BENCH rt_contact.fill_ns %.1f ns\n", median(t, REPS));
    rs_contact_free(&c, &ALLOC);
}

static void bench_creep_solve(void)
{
    double t[REPS], Cb[9], a, b;
    enum { BATCH = 2000 };
    const double radii[3] = {0.46, -0.319, 0.3};
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns();
        for (int n = 0; n < BATCH; n++)
            rs_contact_creep_block(60e3 + n, radii, 20.0, 2.1e11, 0.28, 0.01, Cb, &a, &b);
        t[r] = (now_ns() - t0) / BATCH;
        sink = Cb[0];
    }
    printf("BENCH rt_contact.creep_block_ns %.1f ns\n", median(t, REPS));
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns();
        for (int n = 0; n < BATCH; n++) {
            double A[16] = {0.1, 0, 1, 0, 0, 1, 0, 0.2, 1, 0.3, 0.01, 0, 0, 0, 0.5, 1};
            double x[4] = {1, 2, 3, 4 + n};
            rs_contact_solve4(A, x);
            sink = x[0];
        }
        t[r] = (now_ns() - t0) / BATCH;
    }
    printf("BENCH rt_contact.solve4_ns %.1f ns\n", median(t, REPS));
}

static void bench_ck(void)
{
    enum { NQ = 60, NC = 8, BATCH = 200 };
    /* each contact's wheelset: 6 coordinates; D and N touch those 6 */
    static int Dp[3 * NC + 1], Di[3 * NC * 6], Np_[NQ + 1], Ni[NQ * 3 * NC];
    static double Dv[3 * NC * 6], Nv[NQ * 3 * NC], Cb[9 * NC], CKv[NQ * NQ];
    static int colptr[NQ + 1], rowind[NQ * NQ], mark[NQ], pos[NQ];
    int p = 0;
    for (int col = 0; col < 3 * NC; col++) {
        Dp[col] = p;
        int ws = (col / 3) / 2; /* two contacts per wheelset */
        for (int k = 0; k < 6; k++) {
            Di[p] = 6 * ws + k;
            Dv[p++] = 0.1 * (k + 1);
        }
    }
    Dp[3 * NC] = p;
    p = 0;
    for (int j = 0; j < NQ; j++) {
        Np_[j] = p;
        int ws = j / 6;
        for (int r = 0; r < 3 * NC; r++)
            if ((r / 3) / 2 == ws) {
                Ni[p] = r;
                Nv[p++] = 0.2;
            }
    }
    Np_[NQ] = p;
    for (int k = 0; k < 9 * NC; k++)
        Cb[k] = 1e5 * (k % 4);
    rs_model m;
    memset(&m, 0, sizeof m);
    m.n_q = NQ;
    m.n_contact = NC;
    m.ddelta_df_pattern = (rs_pattern){NQ, 3 * NC, Dp, Di};
    m.dnu_dqd_pattern = (rs_pattern){3 * NC, NQ, Np_, Ni};
    int nnz;
    rs_contact_ck_pattern(&m.ddelta_df_pattern, &m.dnu_dqd_pattern, colptr, rowind, NQ * NQ,
                          &nnz, mark);
    rs_contact_ws c;
    memset(&c, 0, sizeof c);
    c.nc = NC;
    c.nq = NQ;
    c.model = &m;
    c.ck_colptr = colptr;
    c.ck_rowind = rowind;
    c.CKv = CKv;
    c.pos = pos;
    c.Cb = Cb;
    c.Dv = Dv;
    c.Nv = Nv;
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns();
        for (int n = 0; n < BATCH; n++)
            rs_contact_ck_values(&c);
        t[r] = (now_ns() - t0) / BATCH / 1e3;
        sink = CKv[0];
    }
    printf("BENCH rt_contact.ck_values_us %.3f us\n", median(t, REPS));
    printf("BENCH rt_contact.ck_nnz %d entries\n", nnz);
}

int main(void)
{
    bench_fill();
    bench_creep_solve();
    bench_ck();
    return 0;
}
