/*
 * rs_irregularity.h — random track irregularities from published spectra
 * (docs/analyses.md, "Track irregularities"): the PSDs of ERRI B176 (low
 * and high level) and of the US FRA track classes 1–6, a synthesis of a
 * profile from a spectrum (band-limited by wavelength, reproducible from a
 * seed), and the table file the track reader takes (docs/contact.md:
 * `irregularity KIND table FILE`).
 *
 * Every spectrum here is one-sided in the spatial angular frequency Ω (rad/m):
 * S(Ω) in m²/(rad/m), variance σ² = ∫ S(Ω) dΩ over Ω > 0.  Cross level is the
 * height of the left rail minus the right one in metres (the track reader's
 * `cant` irregularity), gauge the deviation of the gauge in metres.
 *
 * Analysis and file generation, not part of a simulation step: it allocates.
 * One thread at a time: FFTW's planner (fftw_plan_*) is not thread-safe.
 */
#ifndef RS_IRREGULARITY_H
#define RS_IRREGULARITY_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    RS_IRREG_VERTICAL,     /* vertical level (longitudinal level) */
    RS_IRREG_LATERAL,      /* lateral alignment */
    RS_IRREG_CROSS_LEVEL,  /* left minus right rail height */
    RS_IRREG_GAUGE         /* gauge deviation */
} rs_irreg_kind;

typedef enum {
    RS_IRREG_ERRI_LOW,     /* ERRI B176, low level of irregularity */
    RS_IRREG_ERRI_HIGH,    /* ERRI B176, high level */
    RS_IRREG_FRA           /* FRA class 1..6 (rs_irreg_spectrum.fra_class) */
} rs_irreg_family;

typedef struct {
    rs_irreg_family family;
    int fra_class;         /* 1..6 for RS_IRREG_FRA */
} rs_irreg_spectrum;

/* "erri-low", "erri-high", "fra1".."fra6" -> *sp; RS_E_NOTFOUND with the
 * closest name otherwise. */
int rs_irreg_spectrum_parse(const char *name, rs_irreg_spectrum *sp, char *err, size_t errlen);
/* "vertical", "lateral", "cross-level", "gauge" -> *kind. */
int rs_irreg_kind_parse(const char *name, rs_irreg_kind *kind, char *err, size_t errlen);
const char *rs_irreg_kind_name(rs_irreg_kind kind);

/* S(Ω) in m²/(rad/m), one-sided, at Ω > 0 rad/m.  RS_E_UNSUPPORTED for a
 * kind the spectrum does not publish (ERRI B176 has no gauge spectrum), with
 * the message in err; *S is set on RS_OK only. */
int rs_irreg_psd(const rs_irreg_spectrum *sp, rs_irreg_kind kind, double omega, double *S, char *err,
                 size_t errlen);

/* The documented generator of the phases: splitmix64 (Steele, Lea, Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014) seeds
 * xoshiro256** (Blackman, Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 47(4), 2021). */
typedef struct { uint64_t s[4]; } rs_irreg_rng;
void rs_irreg_rng_seed(rs_irreg_rng *r, uint64_t seed);
uint64_t rs_irreg_rng_next(rs_irreg_rng *r);
double rs_irreg_rng_uniform(rs_irreg_rng *r);   /* in [0, 1), 53 bits */

typedef struct {
    rs_irreg_spectrum spectrum;
    rs_irreg_kind kind;
    double step;           /* sample spacing Δs, m */
    size_t n;              /* samples (even); the profile is periodic over n Δs */
    double lambda_min;     /* shortest wavelength kept, m (>= 4 Δs) */
    double lambda_max;     /* longest wavelength kept, m (<= n Δs) */
    uint64_t seed;
} rs_irreg_synth;

/* z[0..n): the sum of cosines z(s_j) = Σ_k a_k cos(Ω_k s_j + φ_k), s_j = j Δs,
 * over Ω_k = 2πk/(nΔs) inside [2π/λmax, 2π/λmin], a_k = √(2 S(Ω_k) ΔΩ),
 * φ_k uniform on [0, 2π) from the seed in increasing k; evaluated by one
 * inverse real FFT.  Same arguments, same bytes. */
int rs_irreg_synthesize(const rs_irreg_synth *cfg, double *z, char *err, size_t errlen);

/* Writes "s,value" rows (s = s0 + j Δs, value in metres) after '#' comment
 * lines of `comment` (may be NULL; several lines separated by '\n'), the
 * format of `irregularity KIND table FILE`.  Written under FILE.tmp and
 * renamed when complete. */
int rs_irreg_write_table(const char *path, const char *comment, double s0, double step, const double *z,
                         size_t n, char *err, size_t errlen);

#endif /* RS_IRREGULARITY_H */
