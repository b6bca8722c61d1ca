/*
 * test_irregularity.c — random track irregularities (runtime/app/
 * rs_irregularity.h):
 *  - the spectra at spot frequencies against the published formulas written
 *    out here from the constants (ERRI B176, FRA classes);
 *  - a synthesised profile's Welch PSD (rs_psd) against its target: in every
 *    octave band of the requested wavelengths the band's summed PSD is the
 *    target's within ±20 %; its variance is the integral of the target over
 *    the band (Simpson here) within 3 %;
 *  - the phase generator: splitmix64's published first output for seed 0;
 *  - the table file: the same seed gives the same bytes, another seed others;
 *  - an ERRI gauge spectrum and unknown names are refused with a message.
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_irregularity.h"
#include "rs_psd.h"
#include "rs_status.h"
#include "rs_test.h"

START_TEST(spot_values)
{
    char err[256];
    rs_irreg_spectrum lo = {RS_IRREG_ERRI_LOW, 0}, hi = {RS_IRREG_ERRI_HIGH, 0}, f4 = {RS_IRREG_FRA, 4};
    const double w = 0.5, wc = 0.8246, wr = 0.0206, ws = 0.438;
    double S;
    ck_assert_int_eq(rs_irreg_psd(&lo, RS_IRREG_VERTICAL, w, &S, err, sizeof err), RS_OK);
    double want = 4.032e-7 * wc * wc / ((w * w + wr * wr) * (w * w + wc * wc));
    ck_assert_double_eq_tol(S / want, 1, 1e-12);
    ck_assert_int_eq(rs_irreg_psd(&hi, RS_IRREG_LATERAL, w, &S, err, sizeof err), RS_OK);
    want = 6.125e-7 * wc * wc / ((w * w + wr * wr) * (w * w + wc * wc));
    ck_assert_double_eq_tol(S / want, 1, 1e-12);
    /* cross level as a height difference: (2b)² × (A_v/b²) Ωc² Ω² / (…), b = 0.75 m */
    ck_assert_int_eq(rs_irreg_psd(&lo, RS_IRREG_CROSS_LEVEL, w, &S, err, sizeof err), RS_OK);
    const double b = 0.75;
    want = 4 * b * b * (4.032e-7 / (b * b)) * wc * wc * w * w /
           ((w * w + wr * wr) * (w * w + wc * wc) * (w * w + ws * ws));
    ck_assert_double_eq_tol(S / want, 1, 1e-12);
    /* FRA class 4: A_v = 0.5376 cm² rad/m, Ωc = 0.8245, Ωs = 1.1312, k = 0.25; cm² -> m² */
    const double c = 0.8245;
    ck_assert_int_eq(rs_irreg_psd(&f4, RS_IRREG_VERTICAL, w, &S, err, sizeof err), RS_OK);
    ck_assert_double_eq_tol(S / (1e-4 * 0.25 * 0.5376 * c * c / (w * w * (w * w + c * c))), 1, 1e-12);
    ck_assert_int_eq(rs_irreg_psd(&f4, RS_IRREG_GAUGE, w, &S, err, sizeof err), RS_OK);
    ck_assert_double_eq_tol(S / (1e-4 * 4 * 0.25 * 0.5376 * c * c / ((w * w + c * c) * (w * w + 1.1312 * 1.1312))),
                            1, 1e-12);
    /* the worse class has more irregularity (FRA 1 > FRA 6) */
    rs_irreg_spectrum f1 = {RS_IRREG_FRA, 1}, f6 = {RS_IRREG_FRA, 6};
    double S1, S6;
    rs_irreg_psd(&f1, RS_IRREG_LATERAL, w, &S1, err, sizeof err);
    rs_irreg_psd(&f6, RS_IRREG_LATERAL, w, &S6, err, sizeof err);
    ck_assert(S1 > 50 * S6);
}
END_TEST

/* Simpson's rule of S over [a, b] (N even intervals). */
static double integral(const rs_irreg_spectrum *sp, rs_irreg_kind k, double a, double b)
{
    const int N = 4000;
    const double h = (b - a) / N;
    double s = 0;
    char err[256];
    for (int i = 0; i <= N; i++) {
        double S;
        ck_assert_int_eq(rs_irreg_psd(sp, k, a + h * i, &S, err, sizeof err), RS_OK);
        s += S * (i == 0 || i == N ? 1 : i % 2 ? 4 : 2);
    }
    return s * h / 3;
}

static void check_profile(rs_irreg_spectrum sp, rs_irreg_kind kind, uint64_t seed)
{
    rs_irreg_synth cfg = {sp, kind, 0.25, (size_t)1 << 17, 3, 70, seed};
    double *z = malloc(cfg.n * sizeof *z);
    char err[256];
    ck_assert_msg(rs_irreg_synthesize(&cfg, z, err, sizeof err) == RS_OK, "%s", err);
    /* variance against the target's integral over the band */
    double var = 0;
    for (size_t i = 0; i < cfg.n; i++) var += z[i] * z[i];
    var /= (double)cfg.n;
    const double want = integral(&sp, kind, 2 * M_PI / 70, 2 * M_PI / 3);
    printf("%s (family %d class %d): rms %.3f mm, variance / integral of target = %.4f\n",
           rs_irreg_kind_name(kind), (int)sp.family, sp.fra_class, 1e3 * sqrt(var), var / want);
    ck_assert_msg(fabs(var / want - 1) < 0.03, "variance %g, integral of the target %g", var, want);
    /* Welch PSD (in m²/(1/m) against f in 1/m) against 2π S(2πf), per octave */
    const size_t nseg = 8192, nb = rs_psd_bins(nseg);
    double *P = malloc(nb * sizeof *P);
    ck_assert_int_eq(rs_psd_welch(z, cfg.n, 1 / cfg.step, nseg, P, NULL, err, sizeof err), RS_OK);
    const double df = 1 / (cfg.step * (double)nseg);
    for (double lam = 3; lam < 70; lam *= 2) {
        const double lam_hi = fmin(2 * lam, 70);
        double got = 0, tgt = 0;
        int nbin = 0;
        for (size_t k = 1; k < nb; k++) {
            const double f = df * (double)k;
            if (f < 1 / lam_hi || f > 1 / lam) continue;
            double S;
            ck_assert_int_eq(rs_irreg_psd(&sp, kind, 2 * M_PI * f, &S, err, sizeof err), RS_OK);
            got += P[k];
            tgt += 2 * M_PI * S;
            nbin++;
        }
        printf("  octave %5.1f .. %5.1f m: %3d bins, Welch / target = %.3f\n", lam, lam_hi, nbin, got / tgt);
        ck_assert_msg(nbin >= 10 && fabs(got / tgt - 1) < 0.2, "octave %g .. %g m: Welch / target = %g (%d bins)",
                      lam, lam_hi, got / tgt, nbin);
    }
    free(P);
    free(z);
}

START_TEST(psd_matches_target)
{
    check_profile((rs_irreg_spectrum){RS_IRREG_ERRI_LOW, 0}, RS_IRREG_VERTICAL, 1);
    check_profile((rs_irreg_spectrum){RS_IRREG_ERRI_HIGH, 0}, RS_IRREG_LATERAL, 2);
    check_profile((rs_irreg_spectrum){RS_IRREG_ERRI_LOW, 0}, RS_IRREG_CROSS_LEVEL, 3);
    check_profile((rs_irreg_spectrum){RS_IRREG_FRA, 4}, RS_IRREG_VERTICAL, 4);
    check_profile((rs_irreg_spectrum){RS_IRREG_FRA, 6}, RS_IRREG_GAUGE, 5);
}
END_TEST

START_TEST(generator)
{
    rs_irreg_rng r;
    rs_irreg_rng_seed(&r, 0);
    /* splitmix64's first outputs from state 0 (its reference implementation) */
    ck_assert_uint_eq(r.s[0], 0xe220a8397b1dcdafu);
    ck_assert_uint_eq(r.s[1], 0x6e789e6aa1b965f4u);
    double mean = 0;
    for (int i = 0; i < 100000; i++) {
        const double u = rs_irreg_rng_uniform(&r);
        ck_assert(u >= 0 && u < 1);
        mean += u;
    }
    ck_assert_double_eq_tol(mean / 100000, 0.5, 0.005);
}
END_TEST

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *b = malloc(*len + 1);
    ck_assert_uint_eq(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void write_profile(const char *path, uint64_t seed)
{
    rs_irreg_synth cfg = {{RS_IRREG_ERRI_LOW, 0}, RS_IRREG_LATERAL, 0.25, 4000, 3, 70, seed};
    double z[4000];
    char err[256];
    ck_assert_int_eq(rs_irreg_synthesize(&cfg, z, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_irreg_write_table(path, "test\nsecond line", 10, cfg.step, z, cfg.n, err, sizeof err), RS_OK);
}

START_TEST(same_seed_same_bytes)
{
    char a[64], b[64], c[64];
    snprintf(a, sizeof a, "/tmp/rs_irreg_a_%d.csv", (int)getpid());
    snprintf(b, sizeof b, "/tmp/rs_irreg_b_%d.csv", (int)getpid());
    snprintf(c, sizeof c, "/tmp/rs_irreg_c_%d.csv", (int)getpid());
    write_profile(a, 42);
    write_profile(b, 42);
    write_profile(c, 43);
    size_t la, lb, lc;
    char *A = slurp(a, &la), *B = slurp(b, &lb), *C = slurp(c, &lc);
    ck_assert_uint_eq(la, lb);
    ck_assert(memcmp(A, B, la) == 0);
    ck_assert(la != lc || memcmp(A, C, la) != 0);
    ck_assert(strncmp(A, "# test\n# second line\ns,value\n10.000000,", 39) == 0);
    free(A);
    free(B);
    free(C);
    unlink(a);
    unlink(b);
    unlink(c);
}
END_TEST

START_TEST(refusals)
{
    char err[256];
    rs_irreg_spectrum sp;
    rs_irreg_kind k;
    double S;
    ck_assert_int_eq(rs_irreg_spectrum_parse("fra7", &sp, err, sizeof err), RS_E_NOTFOUND);
    ck_assert_msg(strstr(err, "did you mean 'fra1'") != NULL, "%s", err);
    ck_assert_int_eq(rs_irreg_spectrum_parse("erri-high", &sp, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_irreg_psd(&sp, RS_IRREG_GAUGE, 1, &S, err, sizeof err), RS_E_UNSUPPORTED);
    ck_assert_msg(strstr(err, "fra1 .. fra6") != NULL, "%s", err);
    ck_assert_int_eq(rs_irreg_kind_parse("crosslevel", &k, err, sizeof err), RS_E_NOTFOUND);
    ck_assert_msg(strstr(err, "cross-level") != NULL, "%s", err);
    rs_irreg_synth cfg = {{RS_IRREG_ERRI_LOW, 0}, RS_IRREG_VERTICAL, 1, 1000, 3, 70, 1};
    double z[1000];
    ck_assert_int_eq(rs_irreg_synthesize(&cfg, z, err, sizeof err), RS_E_ARG);   /* 3 m < 4 steps */
    ck_assert_msg(strstr(err, "under 4 steps") != NULL, "%s", err);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("irregularity");
    TCase *tc = tcase_create("spectra");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, spot_values);
    tcase_add_test(tc, psd_matches_target);
    tcase_add_test(tc, generator);
    tcase_add_test(tc, same_seed_same_bytes);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
