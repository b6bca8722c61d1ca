/*
 * test_climb.c — the sustained flange-climbing criterion (rs_climb.h)
 * against step counts worked out by hand:
 *
 *   - Δt = 1 ms, t_min = 0.05 s: one step above Nadal's limit (a spike),
 *     and 49 steps above (0.049 s), are no climb; 50 steps are, at the
 *     50th step's end (t_min / Δt = 50: each step counts its whole Δt);
 *   - Δt = 0.1 ms: the same 0.05 s takes 500 steps (the count is in time,
 *     not in steps, despite the rounding of 500 sums of 1e-4);
 *   - a derailment is a climb at once, during an exceedance or not (the
 *     wheel did climb), said apart from a climb held t_min
 *     (RS_CLIMB_BY_DERAILMENT: the event line must not claim it held);
 *   - t_min = 0 (or ≤ Δt): every exceedance is a climb (the literal
 *     criterion of before);
 *   - hysteresis: a climb under way ends only 10 % below the limit, and
 *     a new one needs t_min again.
 */
#include <check.h>

#include "rs_climb.h"
#include "rs_test.h"

#define LIMIT 1.422 /* Nadal at 71.6°, μ 0.3 (the FEVE's flange) */

/* Runs n steps of dt with Y/Q = yq (exceeding when yq ≥ LIMIT), derail
 * flag as given; returns the 1-based step whose end starts a climb, or 0. */
static int run(rs_climb_state *s, int n, double yq, int derail, double dt, double t_min)
{
    int first = 0;
    for (int k = 1; k <= n; k++)
        if (rs_climb_update(s, yq, LIMIT, yq >= LIMIT, derail, dt, t_min, s) && !first)
            first = k;
    return first;
}

START_TEST(spike_is_no_climb_sustained_is)
{
    const double dt = 1e-3, t_min = RS_CLIMB_TIME_DEFAULT;
    rs_climb_state s = {0, 0};
    /* a spike: one step at Y/Q 1.6 between steps at 1.0 */
    ck_assert_int_eq(run(&s, 10, 1.0, 0, dt, t_min), 0);
    ck_assert_int_eq(run(&s, 1, 1.6, 0, dt, t_min), 0);
    ck_assert_int_eq(run(&s, 10, 1.0, 0, dt, t_min), 0);
    ck_assert(s.above == 0 && !s.climbing);
    /* 49 steps (0.049 s) above, then below: still none */
    ck_assert_int_eq(run(&s, 49, 1.5, 0, dt, t_min), 0);
    ck_assert_int_eq(run(&s, 1, 1.3, 0, dt, t_min), 0);
    ck_assert(!s.climbing);
    /* held: the 50th step's end is the climb, reported once */
    ck_assert_int_eq(run(&s, 80, 1.5, 0, dt, t_min), 50);
    ck_assert(s.climbing);
    /* Δt = 0.1 ms: 500 steps */
    rs_climb_state f = {0, 0};
    ck_assert_int_eq(run(&f, 800, 1.45, 0, 1e-4, t_min), 500);
}
END_TEST

START_TEST(derailment_and_literal)
{
    const double dt = 1e-3;
    rs_climb_state s = {0, 0};
    /* 10 steps above, then the contact passes the flange's steepest point */
    ck_assert_int_eq(run(&s, 10, 1.5, 0, dt, 0.05), 0);
    ck_assert_int_eq(run(&s, 1, 1.5, 1, dt, 0.05), 1);
    /* ... or with Y/Q below the limit (it oscillated about it), once */
    rs_climb_state d = {0, 0};
    ck_assert_int_eq(run(&d, 5, 1.0, 1, dt, 0.05), 1);
    ck_assert(d.climbing);
    /* what made each climb: the derailment before t_min (10 or 0 steps
     * above), the time held (the derailment at the 50th step too: held) */
    rs_climb_state a = {0, 0}, b = {0, 0}, c = {0, 0};
    ck_assert_int_eq(run(&a, 10, 1.5, 0, dt, 0.05), 0);
    ck_assert_int_eq(rs_climb_update(&a, 1.5, LIMIT, 1, 1, dt, 0.05, &a), RS_CLIMB_BY_DERAILMENT);
    ck_assert_int_eq(rs_climb_update(&b, 1.0, LIMIT, 0, 1, dt, 0.05, &b), RS_CLIMB_BY_DERAILMENT);
    ck_assert_int_eq(run(&c, 49, 1.5, 0, dt, 0.05), 0);
    ck_assert_int_eq(rs_climb_update(&c, 1.5, LIMIT, 1, 1, dt, 0.05, &c), RS_CLIMB_HELD);
    ck_assert_int_eq(rs_climb_update(&c, 1.5, LIMIT, 1, 1, dt, 0.05, &c), RS_CLIMB_NONE); /* under way */
    /* t_min 0, or below Δt: the first step above */
    rs_climb_state l = {0, 0};
    ck_assert_int_eq(run(&l, 3, 1.0, 0, dt, 0), 0);
    ck_assert_int_eq(run(&l, 3, 1.43, 0, dt, 0), 1);
    ck_assert_int_eq(rs_climb_update(&(rs_climb_state){0, 0}, 1.43, LIMIT, 1, 0, dt, 0, &l), RS_CLIMB_HELD);
    rs_climb_state m = {0, 0};
    ck_assert_int_eq(run(&m, 3, 1.43, 0, dt, 0.5 * dt), 1);
}
END_TEST

START_TEST(hysteresis)
{
    const double dt = 1e-3, t_min = 0.05;
    rs_climb_state s = {0, 0};
    ck_assert_int_eq(run(&s, 60, 1.5, 0, dt, t_min), 50);
    /* down to 0.95 × the limit and up again: the same climb, no event */
    ck_assert_int_eq(run(&s, 5, 0.95 * LIMIT, 0, dt, t_min), 0);
    ck_assert(s.climbing && s.above == 0);
    ck_assert_int_eq(run(&s, 60, 1.5, 0, dt, t_min), 0);
    /* below 0.9 × the limit: over; the next climb needs 0.05 s again */
    ck_assert_int_eq(run(&s, 1, 0.85 * LIMIT, 0, dt, t_min), 0);
    ck_assert(!s.climbing);
    ck_assert_int_eq(run(&s, 60, 1.5, 0, dt, t_min), 50);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("climb");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, spike_is_no_climb_sustained_is);
    tcase_add_test(tc, derailment_and_literal);
    tcase_add_test(tc, hysteresis);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
