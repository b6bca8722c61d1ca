/*
 * rs_stats.h — what a workspace measured: step counters, Newton iterations,
 * residuals, phase timers (seed 003's Table 1) and the sparse LU's choice
 * (rs_ws_stats, rs_ws_klu_info).  Split from rs_ws.h so the solver layers
 * (rs_klu.c) can count into it without seeing the workspace.
 */
#ifndef RS_STATS_H
#define RS_STATS_H

#include "rs_options.h"   /* RS_KLU_CANDIDATES */

/* Phases of a step timed when rs_options.profile is set (seed 003, Table 1;
 * docs/runtime.md "Phase timers").  Each instant of rs_step belongs to
 * exactly one phase, so the phases add up to the step's time. */
typedef enum rs_phase {
    RS_PHASE_KALKER = 0,  /* creep function (ν, V, radii, ∂δ/∂f, ∂ν/∂q̇), Hertz
                             ellipse, Kalker coefficients, C^K_qq values   */
    RS_PHASE_SPLINE,      /* spline look-up: the coefficient input slots    */
    RS_PHASE_FUNCTIONS,   /* every other generated function: M, δ^NK, φ_q,
                             γ, φ, β, φ^d, φ^d_q, φ^d_s, β^d              */
    RS_PHASE_SOLVE,       /* dynamics solution: assembly, KLU refactor and
                             solve, lift-off check, creep forces            */
    RS_PHASE_INTEGRATION, /* q(t+Δt) and the s prediction                   */
    RS_PHASE_PROJECTION,  /* projections' own work: Newton updates, 4×4 and
                             KLU solves (their function evaluations and
                             look-ups are counted above)                    */
    RS_PHASE_OTHER,       /* the rest: input callback, state copies, checks */
    RS_PHASE_CONSTRAINTS, /* generated functions evaluated by the projections
                             and the contact Newton (φ, φ_q, β, φ^d, φ^d_s,
                             φ^d_q, β^d; RS_FN_PROJ, RS_FN_NEWTON): seed 003
                             Table 1's sixth row; "functions" keeps those of
                             the step's start                               */
    RS_PHASE_COUNT
} rs_phase;

/* "kalker", "spline", "functions", "solve", "integration", "projection",
 * "other", "constraints" (the order of rs_phase); NULL out of range. */
const char *rs_phase_name(int phase);

typedef struct rs_stats {
    long steps;            /* steps completed                               */
    long factors;          /* full KLU factorizations (klu_factor)          */
    long refactors;        /* numeric refactorizations (klu_refactor)       */
    long solves;           /* triangular solves                             */
    long proj_iters;       /* Newton iterations of position projection, total */
    int proj_iters_last;   /* ... in the last step                          */
    int proj_iters_max;    /* ... most in one step                          */
    long vel_projections;  /* velocity projections performed                */
    double rcond_last;     /* KLU's crude reciprocal condition, last factor */
    double pos_residual;   /* max |φ| after the last step                   */
    double vel_residual;   /* max |φ_q q̇ − β| after the last step           */
    long refactor_fallbacks; /* refactors whose pivots had degraded (or that
                              failed), redone by a full klu_factor          */
    double rgrowth_last;   /* reciprocal pivot growth of the last refactor
                              (when rgrowth_drop > 0)                      */
    long contact_iters;    /* Newton iterations on φ^d for s, total (contact) */
    int contact_iters_last;/* ... in the last step                          */
    int contact_iters_max; /* ... most in one step                          */
    long contact_events;   /* elastic contact events (rs_contact_event) seen */
    long contact_searches; /* global contact-point searches (Newton had lost
                              its root: a contact-point jump)                */
    long contact_jumps;    /* ... that moved a contact point to another root */
    double phase_s[RS_PHASE_COUNT]; /* seconds spent in each phase over all
                             steps (rs_options.profile; 0 otherwise)         */
    long dense_solves;     /* projections solved by the dense normal
                              equations (RS_FAST_DENSE_PROJ) instead of KLU */
    long lu_fixed_refactors; /* refactorizations done by the fixed-order LU
                              (RS_FAST_LU_FIXED; included in refactors)    */
    long step_cache_hits;  /* step starts that evaluated RS_FN_STEP_CACHED
                              from the cache (RS_FAST_STEP_CACHE)           */
    long contact_unchecked; /* elastic contact: steps that used all its
                              solves (a wheel meeting or leaving a patch
                              within the step), the last taken without its
                              check (rs_elastic.c elastic_after_solve)      */
} rs_stats;

/* The sparse LU's ordering, how it was chosen, and what each candidate
 * cost (rs_ws_klu_info). */
typedef struct rs_klu_info {
    int ordering;          /* rs_klu_ordering in use (never RS_KLU_AUTO)     */
    int btf;               /* BTF pre-ordering in use                       */
    int chosen;            /* 1: chosen by timing (AUTO, after rs_ws_init)  */
    int n, nnz;            /* order and entries of the system matrix        */
    int nblocks;           /* BTF blocks of the chosen analysis             */
    /* per candidate, index 2·ordering + btf (AUTO only, after rs_ws_init): */
    double cand_us[RS_KLU_CANDIDATES];   /* µs of one refactor + solve of the
                                            dynamics matrix (+ projection's), the
                                            fastest round; < 0: not tried or
                                            failed                           */
    double cand_flops[RS_KLU_CANDIDATES];/* flops of its factorization      */
    int cand_lu_nnz[RS_KLU_CANDIDATES];  /* entries of L + U                */
    int cand_fragile[RS_KLU_CANDIDATES]; /* pivots that may vanish as the
                                            mechanism moves (rs_klu.c)      */
} rs_klu_info;

#endif /* RS_STATS_H */
