/*
 * rs_critical.h — the critical speed of a rail vehicle (hunting stability):
 * the lowest speed above which a lateral disturbance no longer dies away.
 * The C side of `railsym critical-speed` (docs/sweeps.md).
 *
 *   rs_critical_config c;  rs_critical_config_default(&c);
 *   c.run.model_dir = "generated/wheelset_cone";  c.run.scenario = "hunt.scn";
 *   c.run.jobs = 4;  c.out_dir = "results/crit";  c.v_lo = 20;  c.v_hi = 80;
 *   rs_critical_result r;
 *   if (rs_critical_speed(&c, &r, err, sizeof err) == RS_OK) printf("%g m/s\n", r.v_crit);
 *   rs_critical_result_free(&r);
 *
 * Each speed V is one run of the scenario with
 *   initial F_dot = V        for every forward coordinate F (default: the
 *                            coordinates named x or ending in .x),
 *   initial S_dot = V / r    for every spin coordinate S (default: named spin
 *                            or ending in .spin), r = radius (default: the
 *                            parameter r0, the scenario's value if it sets it),
 *   initial L = offset       for the lateral coordinate L (default: the first
 *                            wheelset's, rs_critical_default_lateral), offset
 *                            2 mm;
 * the growth rate σ (1/s) and frequency of L's oscillation are fitted to its
 * extrema (rs_envelope.h): σ < 0 stable, σ >= 0 unstable.
 *
 * Search: round 1 runs max(2, jobs) speeds evenly spread over [v_lo, v_hi]
 * (both ends included: v_lo must be stable and v_hi unstable); every later
 * round runs `jobs` speeds evenly spread inside the bracket [highest stable
 * speed below the lowest unstable one, that unstable one], so the bracket
 * shrinks by jobs + 1 per round, until (hi − lo) <= tol · hi or max_rounds
 * rounds.  The runs of a round go out in parallel: each round is a sweep
 * (rs_sweep.h) in out_dir/roundNN/, on `jobs` threads, so an interrupted
 * search re-run with the same options resumes (finished runs are not redone).
 * The critical speed is where the straight line through (lo, σ_lo) and
 * (hi, σ_hi) crosses zero.
 *
 * A run that fails (e.g. the contact leaves the profile tables as the
 * oscillation grows) is rated from the results it wrote before failing (in
 * the CSV and the log) but has status failed and never ends a bracket: a
 * run stopped by a lift-off, a lost contact point or a solver is no
 * evidence of the vehicle's stability.  Stable runs below and only failed
 * ones above stop the search (RS_E_ARG, naming the failed run and why).
 * A finished run with too few extrema is an error (lengthen the duration).
 *
 * This is the `--bisection` of `railsym critical-speed`: one step, no step
 * error, runs judged by the sign of their rate (with the 1 %-per-period
 * floor below).  The command's default is rs_bifurcation.h, which
 * classifies every run and states the step's error.
 *
 * out_dir/critical_speed.csv: speed,rate,freq,status,round — every run,
 * sorted by speed (status stable, unstable or failed).
 */
#ifndef RS_CRITICAL_H
#define RS_CRITICAL_H

#include <stddef.h>
#include "rs_sweep.h"

typedef struct rs_critical_config {
    rs_sweep_config run;       /* model, loader, scenario, jobs, method, log,
                                  quiet (its out_dir is not used)                */
    const char *out_dir;       /* folder of the rounds and critical_speed.csv   */
    double v_lo, v_hi;         /* the bracket, m/s (0 < v_lo < v_hi)            */
    double tol;                /* relative bracket width to stop, default 0.005 */
    int max_rounds;            /* most rounds, the first included, default 10   */
    const char *lateral;       /* disturbed and measured coordinate (NULL: auto) */
    double offset;             /* its initial value, m, default 0.002           */
    const char *const *forward;  /* coordinates whose velocity is V (NULL: auto) */
    int n_forward;
    const char *const *spin;   /* coordinates whose velocity is V / radius       */
    int n_spin;                /* (spin == NULL: auto)                           */
    double radius;             /* m; 0: the parameter r0                         */
} rs_critical_config;

enum { RS_CRITICAL_STABLE = 0, RS_CRITICAL_UNSTABLE = 1, RS_CRITICAL_FAILED = 2 };

typedef struct rs_critical_point {
    double v;                  /* m/s                                          */
    double rate;               /* 1/s (NaN: too few extrema)                   */
    double freq;               /* Hz (NaN: too few extrema)                    */
    int status;                /* RS_CRITICAL_*                                    */
    int round;                 /* 1-based                                      */
    int run_failed;            /* the run stopped with an error (rated on its
                                  partial results)                            */
    char message[1024];        /* that error (the start of vNNNN.failed)       */
} rs_critical_point;

typedef struct rs_critical_result {
    double v_crit;             /* m/s, NaN when not bracketed                  */
    double freq_crit;          /* Hz at v_crit (interpolated), NaN if unknown   */
    double lo, hi;             /* the final bracket                            */
    int rounds;                /* rounds run                                   */
    int n;                     /* points, sorted by speed                      */
    rs_critical_point *pts;
    double radius;             /* the radius used (0: no spin coordinate)       */
    char lateral[128];         /* the coordinate measured                       */
    char set[512];             /* what each speed sets, e.g. "x_dot = V, spin_dot = V / 0.45" */
} rs_critical_result;

void rs_critical_config_default(rs_critical_config *c);

/* Runs the search.  RS_OK with r->v_crit when the bracket held a critical
 * speed; RS_E_ARG when it did not (v_lo already unstable, or v_hi still
 * stable: r holds the points and err says which way to move the range);
 * another error (bad names, model, scenario, folder) with the message in
 * err.  critical_speed.csv is written whenever any run finished.  Free r
 * with rs_critical_result_free in every case. */
int rs_critical_speed(const rs_critical_config *c, rs_critical_result *r, char *err, size_t errlen);

void rs_critical_result_free(rs_critical_result *r);

/* The lateral coordinate a hunting search disturbs and measures by default:
 * the first wheelset's — the coordinate `P.y` of the first wheel-rail
 * contact `P.W` (contact "front.ws1.left": "front.ws1.y"; "left": "y"), or
 * of its wheel body's prefix — since the wheelsets hunt and a car body on
 * its soft secondary suspension barely shows it; without contacts (or such
 * a coordinate), the first coordinate named y or ending in .y.  Its index
 * (-1: none), and in `why` (may be NULL) the reason, for the log. */
int rs_critical_default_lateral(const rs_model *m, char *why, size_t len);

/* The lateral coordinate of contact c's wheelset as the default above reads
 * it: `P.y` for the prefix P of the contact's name (k = 0) or of its wheel
 * body's (k = 1), "y" where that name has no prefix.  Its index, or -1 (no
 * such name or coordinate).  The bifurcation diagram finds the contact of a
 * lateral coordinate with it, so that the two agree. */
int rs_critical_contact_lateral(const rs_model *m, int c, int k);

#endif /* RS_CRITICAL_H */
