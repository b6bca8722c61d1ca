/*
 * rs_climb.h — the flange-climbing criterion of the elastic contact's
 * events (rs_contact_event, docs/runtime.md "Events"): Nadal's limit held
 * for a minimum time.
 *
 * Nadal's quotient Y/Q ≥ (tan β − μ)/(1 + μ tan β) is a quasi-static
 * balance: a wheel climbs only if it holds long enough for the wheel to
 * rise over the flange.  Practice therefore judges Y/Q over a minimum time
 * or distance — JNR's rule lets Y/Q exceed the limit for less than 0.05 s,
 * EN 14363 evaluates Y/Q as a 2 m sliding mean — so a spike of one step
 * (an impact, a patch jumping between flange root and flange) is no climb.
 * Here: a climb starts when Y/Q has stayed at or above the limit, on the
 * flange, for t_min (rs_options.contact_climb_time, default 0.05 s); each
 * step that ends above the limit counts its whole Δt; one that ends below
 * starts the count again.  t_min ≤ Δt: every exceedance is a climb (the
 * literal criterion).  A derailment (the contact past the flange's
 * steepest point) is a climb at once if none is under way, whatever Y/Q:
 * the wheel did climb (the climb is reported first).  A climb ends when
 * Y/Q falls 10 % below the limit and the wheel is not derailed
 * (hysteresis).
 *
 * State: two numbers per wheel, no allocation, O(1) per step.
 */
#ifndef RS_CLIMB_H
#define RS_CLIMB_H

#define RS_CLIMB_TIME_DEFAULT 0.05 /* s: JNR's 0.05 s */

typedef struct rs_climb_state {
    double above;  /* time Y/Q has been at/above the limit, on the flange (s) */
    int climbing;  /* a climb under way (reported once)                      */
} rs_climb_state;

/* What rs_climb_update says of a step: no climb starts, or one starts
 * because Y/Q held the limit for t_min, or because the wheel derailed
 * before it had (the derailment shows the climb; Y/Q was at the limit for
 * less than t_min, or not at all: an event's t − t_start < t_min then). */
enum { RS_CLIMB_NONE = 0, RS_CLIMB_HELD = 1, RS_CLIMB_BY_DERAILMENT = 2 };

/* From s (the state after the previous step) to *next after a step of dt
 * ending with Y/Q = yq (NaN-free), Nadal's limit `limit`, `exceed` (1 when
 * the criterion applies: flange contact, μ > 0, Q > 0, and yq ≥ limit) and
 * `derail` (the derailment criterion holds).  Returns RS_CLIMB_HELD or
 * RS_CLIMB_BY_DERAILMENT when a climb starts at this step's end (the event
 * to report), else RS_CLIMB_NONE.  s and next may be the same. */
int rs_climb_update(const rs_climb_state *s, double yq, double limit, int exceed, int derail, double dt,
                    double t_min, rs_climb_state *next);

#endif
