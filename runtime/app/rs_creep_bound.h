/*
 * rs_creep_bound.h — does a run's elastic contact bound its creep forces?
 *
 * Kalker's linear law (rs_options.contact_law 0) with no friction
 * (rs_options_mu = 0) gives creep forces proportional to the creepage,
 * without the friction limit μN.  On a tread that is a fair
 * approximation; in flange contact the creepages are large and the forces
 * are not: on coach_curve.scn a patch's lateral creep force reached 4 times
 * its normal force and the leading outer wheel jumped between tread and
 * flange every 10 ms (Q 16 to 179 kN; docs/vdl.md "A passenger coach").
 * The run goes on (it is what the scenario asked for); the driver logs
 * the line this writes once, before the first step.
 */
#ifndef RS_CREEP_BOUND_H
#define RS_CREEP_BOUND_H

#include <stddef.h>

#include "rs_model.h"
#include "rs_options.h"

/* The number of contacts of m whose creep forces are unbounded under opt:
 * opt->contact the elastic contact, creep on (contact_creep), Kalker's
 * linear law and friction 0 for that contact.  When it is > 0 and msg is
 * not NULL, writes the warning (no newline, no prefix): the model, how
 * many contacts and the first one's name, and the fix (`friction MU`, or
 * `creep fastsim` with `friction MU`).  0 and msg untouched otherwise. */
int rs_creep_unbounded(const rs_model *m, const rs_options *opt, char *msg, size_t len);

#endif /* RS_CREEP_BOUND_H */
