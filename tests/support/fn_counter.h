/*
 * fn_counter.h — counts the calls of a model's generated functions, for the
 * tests that check how much work a step does (test_rt_step_work,
 * test_elastic_step): rs_fn_counter_wrap(copy) points each function of a
 * copy of a descriptor at a wrapper that counts into rs_fn_calls[id] and
 * calls the original.  One counted model at a time (the counters and the
 * originals are globals of the test program).
 */
#ifndef RS_FN_COUNTER_H
#define RS_FN_COUNTER_H

#include "rs_model.h"

#define RS_FN_COUNTER_MAX 32 /* wrappers: at least RS_FN_COUNT (checked) */

extern long rs_fn_calls[RS_FN_COUNTER_MAX];

/* Replaces every function of *counted (a copy of a descriptor) by its
 * counting wrapper. */
void rs_fn_counter_wrap(rs_model *counted);

#endif /* RS_FN_COUNTER_H */
