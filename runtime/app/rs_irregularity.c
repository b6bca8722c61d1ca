/*
 * rs_irregularity.c — track-irregularity spectra, their synthesis and the
 * table file (rs_irregularity.h; formulas and constants in docs/analyses.md).
 *
 * ERRI B176 (ORE B176 / ERRI B176 RP1, "Bogies with steered or steering
 * wheelsets", Utrecht 1989), as tabulated in W. Zhai, Vehicle–Track Coupled
 * Dynamics, Springer 2020, Sec. 3.2, Ω in rad/m:
 *   vertical level    S_v(Ω) = A_v Ωc² / ((Ω² + Ωr²)(Ω² + Ωc²))
 *   lateral alignment S_a(Ω) = A_a Ωc² / ((Ω² + Ωr²)(Ω² + Ωc²))
 *   cross level       S_c(Ω) = (A_v/b²) Ωc² Ω² / ((Ω² + Ωr²)(Ω² + Ωc²)(Ω² + Ωs²))  [rad²/(rad/m)]
 * Ωc = 0.8246, Ωr = 0.0206, Ωs = 0.4380 rad/m; A_a = 2.119e-7 (low) /
 * 6.125e-7 (high), A_v = 4.032e-7 (low) / 1.080e-6 (high) m·rad; b the half
 * distance of the rails.  The cross level here is a height difference
 * Δh = 2b θ, so its PSD is 4b² S_c = 4 A_v Ωc² Ω² / (…): b drops out.
 *
 * FRA (US Federal Railroad Administration track classes; V. K. Garg,
 * R. V. Dukkipati, Dynamics of Railway Vehicle Systems, Academic Press 1984,
 * Sec. 4.4; Zhai 2020, Sec. 3.2), A in cm²·rad/m, S in cm²/(rad/m), k = 0.25:
 *   vertical level    S_v(Ω) = k A_v Ωc² / (Ω² (Ω² + Ωc²))
 *   lateral alignment S_a(Ω) = k A_a Ωc² / (Ω² (Ω² + Ωc²))
 *   cross level, gauge S_c(Ω) = S_g(Ω) = 4 k A_v Ωc² / ((Ω² + Ωc²)(Ω² + Ωs²))
 * with per class (1..6) the constants of the table below.
 */
#define _POSIX_C_SOURCE 200809L /* rename */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_error.h"
#include "rs_irregularity.h"
#include "rs_status.h"

static const double TWO_PI = 6.283185307179586;

/* ERRI B176 */
static const double ERRI_WC = 0.8246, ERRI_WR = 0.0206, ERRI_WS = 0.4380;
static const double ERRI_AA[2] = {2.119e-7, 6.125e-7};   /* low, high; m·rad */
static const double ERRI_AV[2] = {4.032e-7, 1.080e-6};

/* FRA classes 1..6 */
static const double FRA_K = 0.25, FRA_WC = 0.8245;
static const double FRA_AV[6] = {1.2107, 1.0181, 0.6816, 0.5376, 0.2095, 0.0339};   /* cm²·rad/m */
static const double FRA_AA[6] = {3.3634, 1.2107, 0.4128, 0.3027, 0.0762, 0.0339};
static const double FRA_WS[6] = {0.6046, 0.9308, 0.8520, 1.1312, 0.8209, 0.4380};  /* rad/m */
static const double CM2 = 1e-4;   /* cm² -> m² */

static const char *const SPECTRA[] = {"erri-low", "erri-high", "fra1", "fra2", "fra3", "fra4", "fra5", "fra6"};
static const char *const KINDS[] = {"vertical", "lateral", "cross-level", "gauge"};

int rs_irreg_spectrum_parse(const char *name, rs_irreg_spectrum *sp, char *err, size_t errlen)
{
    for (int i = 0; i < 8; i++)
        if (strcmp(name, SPECTRA[i]) == 0) {
            sp->family = i == 0 ? RS_IRREG_ERRI_LOW : i == 1 ? RS_IRREG_ERRI_HIGH : RS_IRREG_FRA;
            sp->fra_class = i >= 2 ? i - 1 : 0;
            return RS_OK;
        }
    const char *c = rs_closest_name(name, SPECTRA, 8);
    return rs_fail(err, errlen, RS_E_NOTFOUND, "unknown spectrum '%s'%s%s%s: write erri-low, erri-high or "
                   "fra1 .. fra6", name, c ? " (did you mean '" : "", c ? c : "", c ? "'?)" : "");
}

int rs_irreg_kind_parse(const char *name, rs_irreg_kind *kind, char *err, size_t errlen)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, KINDS[i]) == 0) {
            *kind = (rs_irreg_kind)i;
            return RS_OK;
        }
    const char *c = rs_closest_name(name, KINDS, 4);
    return rs_fail(err, errlen, RS_E_NOTFOUND, "unknown irregularity '%s'%s%s%s: write vertical, lateral, "
                   "cross-level or gauge", name, c ? " (did you mean '" : "", c ? c : "", c ? "'?)" : "");
}

const char *rs_irreg_kind_name(rs_irreg_kind kind)
{
    return (unsigned)kind < 4 ? KINDS[kind] : "?";
}

int rs_irreg_psd(const rs_irreg_spectrum *sp, rs_irreg_kind kind, double w, double *S, char *err, size_t errlen)
{
    if (!(w > 0) || !isfinite(w))
        return rs_fail(err, errlen, RS_E_ARG, "spatial frequency %g rad/m: it must be positive", w);
    const double w2 = w * w;
    if (sp->family == RS_IRREG_ERRI_LOW || sp->family == RS_IRREG_ERRI_HIGH) {
        const int h = sp->family == RS_IRREG_ERRI_HIGH;
        const double wc2 = ERRI_WC * ERRI_WC, base = wc2 / ((w2 + ERRI_WR * ERRI_WR) * (w2 + wc2));
        switch (kind) {
        case RS_IRREG_VERTICAL: *S = ERRI_AV[h] * base; return RS_OK;
        case RS_IRREG_LATERAL: *S = ERRI_AA[h] * base; return RS_OK;
        case RS_IRREG_CROSS_LEVEL: *S = 4 * ERRI_AV[h] * base * w2 / (w2 + ERRI_WS * ERRI_WS); return RS_OK;
        case RS_IRREG_GAUGE: break;
        }
        return rs_fail(err, errlen, RS_E_UNSUPPORTED, "ERRI B176 publishes no %s spectrum: use fra1 .. fra6 "
                       "for gauge irregularities", rs_irreg_kind_name(kind));
    }
    if (sp->fra_class < 1 || sp->fra_class > 6)
        return rs_fail(err, errlen, RS_E_ARG, "FRA class %d: classes are 1 .. 6", sp->fra_class);
    const int c = sp->fra_class - 1;
    const double wc2 = FRA_WC * FRA_WC;
    switch (kind) {
    case RS_IRREG_VERTICAL: *S = CM2 * FRA_K * FRA_AV[c] * wc2 / (w2 * (w2 + wc2)); return RS_OK;
    case RS_IRREG_LATERAL: *S = CM2 * FRA_K * FRA_AA[c] * wc2 / (w2 * (w2 + wc2)); return RS_OK;
    case RS_IRREG_CROSS_LEVEL:
    case RS_IRREG_GAUGE:
        *S = CM2 * 4 * FRA_K * FRA_AV[c] * wc2 / ((w2 + wc2) * (w2 + FRA_WS[c] * FRA_WS[c]));
        return RS_OK;
    }
    return rs_fail(err, errlen, RS_E_ARG, "unknown irregularity kind %d", (int)kind);
}

/* ------------------------------------------------------------------ PRNG */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void rs_irreg_rng_seed(rs_irreg_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rs_irreg_rng_next(rs_irreg_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double rs_irreg_rng_uniform(rs_irreg_rng *r)
{
    return (double)(rs_irreg_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ------------------------------------------------------------- synthesis */

int rs_irreg_synthesize(const rs_irreg_synth *cfg, double *z, char *err, size_t errlen)
{
    const double ds = cfg->step;
    const size_t n = cfg->n;
    if (!(ds > 0) || !isfinite(ds))
        return rs_fail(err, errlen, RS_E_ARG, "step %g m: it must be a positive length", ds);
    if (n < 8 || n % 2 || n > ((size_t)1 << 30))
        return rs_fail(err, errlen, RS_E_ARG, "%zu samples: write an even number from 8 to 2^30", n);
    const double L = ds * (double)n;
    if (!(cfg->lambda_min >= 4 * ds))
        return rs_fail(err, errlen, RS_E_ARG, "shortest wavelength %g m is under 4 steps (%g m): shorten the step "
                       "or lengthen the wavelength", cfg->lambda_min, 4 * ds);
    if (!(cfg->lambda_max > cfg->lambda_min) || !(cfg->lambda_max <= L))
        return rs_fail(err, errlen, RS_E_ARG, "wavelengths %g .. %g m: the longest must exceed the shortest and "
                       "fit in the profile's %g m", cfg->lambda_min, cfg->lambda_max, L);
    const size_t nb = n / 2 + 1;
    fftw_complex *X = fftw_malloc(nb * sizeof *X);
    double *out = fftw_malloc(n * sizeof *out);
    if (!X || !out) {
        fftw_free(X);
        fftw_free(out);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    }
    const double dw = TWO_PI / L, wlo = TWO_PI / cfg->lambda_max, whi = TWO_PI / cfg->lambda_min;
    rs_irreg_rng rng;
    rs_irreg_rng_seed(&rng, cfg->seed);
    int rc = RS_OK;
    for (size_t k = 0; k < nb; k++) {
        X[k][0] = X[k][1] = 0;
        const double w = dw * (double)k;
        /* a tolerance of 1e-9 ΔΩ keeps a band edge on a grid line inside */
        if (k == 0 || k == nb - 1 || w < wlo - 1e-9 * dw || w > whi + 1e-9 * dw) continue;
        double S;
        rc = rs_irreg_psd(&cfg->spectrum, cfg->kind, w, &S, err, errlen);
        if (rc) break;
        const double a = sqrt(2 * S * dw), phi = TWO_PI * rs_irreg_rng_uniform(&rng);
        /* c2r gives Σ X_k e^{+iΩ_k s} + conjugates = Σ 2|X_k| cos(Ω_k s + φ_k) */
        X[k][0] = 0.5 * a * cos(phi);
        X[k][1] = 0.5 * a * sin(phi);
    }
    if (rc == RS_OK) {
        fftw_plan p = fftw_plan_dft_c2r_1d((int)n, X, out, FFTW_ESTIMATE);
        fftw_execute(p);
        fftw_destroy_plan(p);
        memcpy(z, out, n * sizeof *z);
    }
    fftw_free(X);
    fftw_free(out);
    return rc;
}

int rs_irreg_write_table(const char *path, const char *comment, double s0, double step, const double *z,
                         size_t n, char *err, size_t errlen)
{
    const size_t pl = strlen(path);
    char *tmp = malloc(pl + 5);
    if (!tmp) return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    memcpy(tmp, path, pl);
    memcpy(tmp + pl, ".tmp", 5);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int rc = rs_fail(err, errlen, RS_E_IO, "cannot write '%s': check that its folder exists and is writable",
                         tmp);
        free(tmp);
        return rc;
    }
    if (comment)
        for (const char *p = comment; *p;) {
            const char *e = strchr(p, '\n');
            const size_t len = e ? (size_t)(e - p) : strlen(p);
            fprintf(f, "# %.*s\n", (int)len, p);
            p += len + (e ? 1 : 0);
        }
    fprintf(f, "s,value\n");
    for (size_t j = 0; j < n; j++)
        fprintf(f, "%.6f,%.9e\n", s0 + step * (double)j, z[j]);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        free(tmp);
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s' (disk full?)", path);
    }
    free(tmp);
    return RS_OK;
}
