/*
 * rs_bifurcation.h — the non-linear critical speed the standard way:
 * a bifurcation diagram from constant-speed runs and a ramp-down
 * (docs/critical_speed.md).  The C side of `railsym critical-speed
 * --bifurcation`.
 *
 *   rs_bifurcation_config c;  rs_bifurcation_config_default(&c);
 *   c.model_dir = "generated/wheelset_cone";  c.scenario = "hunt.scn";
 *   c.v_lo = 30;  c.v_hi = 50;  c.out_dir = "results/bif";
 *   rs_bifurcation_result r;
 *   rs_bifurcation_run(&c, &r, err, sizeof err);   // r.summary says what was found
 *   rs_bifurcation_result_free(&r);
 *
 * Every run is in this process, one workspace per run: the scenario's
 * parameters and initial state, the lateral coordinate L (default y or
 * *.y) set to the disturbance, the vehicle settled on its rails there (the
 * static equilibrium of the scenario's `equilibrium` coordinates, L held;
 * with elastic contact always), the running speed V applied as `speed V`
 * does (rs_speed.h: forward velocities V, spins rolling without slip), and
 * the forward velocities held at V after every step (a constant-speed
 * drive: the hunting motion's dissipation would otherwise slow the vehicle
 * down).  Each run lasts the scenario's duration with its step.
 *
 * 1. Diagram: n_speeds speeds evenly over [v_lo, v_hi], each run from a
 *    small (`small`, default 0.5 mm) and a large (`large`, default 80 % of
 *    the flangeway clearance: rs_flangeway.h) disturbance: two branches.  Each run is classified (rs_limit_cycle.h:
 *    decaying, growing, limit cycle of amplitude A, unclear); a run that
 *    fails (the contact lifts off or leaves its tables as the motion grows)
 *    is kept, rated on what it computed, and marked failed.
 * 2. Loss of stability of the small branch: the lowest grid speed whose
 *    small disturbance grows (significantly: rs_limit_cycle.h), above a
 *    grid speed where it decays (a small disturbance that grew onto a
 *    limit cycle of more than twice its size counts as growing; a failed
 *    run never counts either way: failed grid runs between the two are
 *    skipped, a failed refinement run stops the refinement, a failed run at
 *    Δt/2 leaves the step's error unknown, each said in the summary).
 *    Then regula falsi (Illinois) on the rate
 *    σ(V) of small-disturbance runs inside that bracket, until it is
 *    narrower than tol · V or after max_refine runs; v_lin is where the
 *    line through the bracket's (V, σ) crosses zero.  Without such a pair
 *    there is no crossing to report, and the summary says what was found
 *    instead (every disturbance decays; limit cycles of amplitude A at
 *    the speeds ...; unclear runs; already growing at v_lo).
 * 3. Ramp-down: from the large disturbance at v_hi, after the scenario's
 *    duration at v_hi (the large limit cycle), the speed falls at ramp_rate
 *    m/s per second (default 0.5), held every step.  The oscillation has
 *    died out at the first extremum of L smaller than die_fraction (default
 *    0.1) of the amplitude at the ramp's start; v_ramp is the speed at the
 *    extremum before it.  No ramp when the large disturbance at v_hi
 *    neither grows nor keeps a limit cycle.
 * 4. Step independence (two_steps, default 1): 2 and 3 again with the step
 *    halved; the answers at Δt and Δt/2 and the first-order (Richardson)
 *    extrapolation 2 V(Δt/2) − V(Δt), whose error estimate is
 *    |V(Δt/2) − V(Δt)|.
 *
 * Files in out_dir: bifurcation.csv (speed,branch,offset,class,amplitude_mm,
 * rate,rate_se,freq,change,failed; branch 0 small, 1 large; every run at
 * Δt, the refinement runs as branch 0), ramp_down.csv (time,speed,
 * amplitude_mm: each extremum of the ramp at Δt), summary.txt (the
 * summary).
 */
#ifndef RS_BIFURCATION_H
#define RS_BIFURCATION_H

#include <stddef.h>

#include "rs_load.h"
#include "rs_limit_cycle.h"
#include "rs_log.h"

typedef struct rs_bifurcation_config {
    const char *model_dir;      /* generated folder                              */
    const rs_model *model;      /* or a model already loaded (model_dir still
                                   locates the contact files)                    */
    rs_loader loader;
    const char *include_dir;
    const char *scenario;       /* duration, step, parameters of every run       */
    int use_default_scenario;   /* default 1                                      */
    const char *set_text;
    int method;                 /* -1: the scenario's                            */
    const char *lateral;        /* NULL: y or *.y                                 */
    const char *out_dir;
    double v_lo, v_hi;          /* m/s                                            */
    int n_speeds;               /* grid, default 5                                */
    double small;               /* small disturbance, m, default 0.0005           */
    double large;               /* large disturbance, m; 0 (default): 80 % of the
                                   flangeway clearance of L's wheelset
                                   (rs_flangeway.h), 10 mm without contacts      */
    double tol;                 /* relative bracket width, default 0.002          */
    int max_refine;             /* refinement runs per step size, default 10      */
    double ramp_rate;           /* m/s per s, default 0.5                         */
    double die_fraction;        /* default 0.1                                    */
    int ramp;                   /* run the ramp-down, default 1                   */
    int two_steps;              /* Δt and Δt/2, default 1                         */
    rs_lc_options lc;
    rs_log log;
    int quiet;
} rs_bifurcation_config;

typedef struct rs_bifurcation_point {
    double v, offset;
    int branch;                 /* 0 small, 1 large                               */
    rs_lc lc;
    int failed;                 /* the run stopped with an error at t_fail        */
    double t_fail;
    int status;                 /* the failed run's RS_E_* (0: none)              */
    char message[512];
    double l_end;               /* L at the run's end (m)                         */
    int stuck;                  /* no oscillation to fit, yet |l_end| at least half
                                   the disturbance: class unclear, not decaying
                                   (e.g. a wheelset held on one flange)           */
} rs_bifurcation_point;

typedef struct rs_bifurcation_result {
    int n;
    rs_bifurcation_point *pts;  /* every run at Δt, in the order run             */
    double dt;
    int crossing;               /* 1: the small branch loses stability in range  */
    double v_lin[2], freq_lin;  /* at Δt and Δt/2 (NaN: none)                     */
    double v_lin_x, v_lin_err;  /* extrapolated, and its error estimate          */
    int ramped;                 /* 1: the ramp-down found where it dies out       */
    double v_ramp[2], v_ramp_x, v_ramp_err, amp_ramp;   /* amp_ramp: m, at its start */
    double large;               /* the large disturbance used (m)                 */
    double flangeway;           /* the clearance it came from (m; NaN: --large,
                                   or none found)                                 */
    int flange;                 /* 1: that clearance is the flange's; 0: the
                                   profile tables' end (no flange)               */
    char lateral[128];
    char summary[2048];         /* the verdict, several lines                     */
} rs_bifurcation_result;

void rs_bifurcation_config_default(rs_bifurcation_config *c);

/* What a run did, in words, by its class (never a noise-level rate for a
 * limit cycle): "decays (rate σ ± se 1/s)", "grows (rate σ ± se 1/s,
 * +c % per period)", "grew from D mm onto a limit cycle of amplitude A mm,
 * F Hz (...)" (or "shrank from ...", or "stayed on a limit cycle of
 * amplitude A mm, F Hz, from D mm"), "is unclear (...)", then "; the run failed at
 * t = T s: MSG" for a failed run.  change_tol: rs_lc_options.change_tol. */
void rs_bifurcation_describe(const rs_bifurcation_point *p, double change_tol, char *buf, size_t len);

/* Runs 1–4.  RS_OK whenever the runs could be made (the verdict, crossing
 * or none, is in r); an error for bad names, model, scenario, folder.
 * Free r with rs_bifurcation_result_free in every case. */
int rs_bifurcation_run(const rs_bifurcation_config *c, rs_bifurcation_result *r, char *err, size_t errlen);

void rs_bifurcation_result_free(rs_bifurcation_result *r);

#endif /* RS_BIFURCATION_H */
