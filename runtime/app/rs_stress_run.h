/*
 * rs_stress_run.h — a scenario's `stress` models (rs_stress_couple.h), one
 * per statement, bound to a workspace and advanced together after every
 * step (each in turn, each its own beam: a component's numbers are those
 * of its run alone): the frame's velocity, angular velocity and gravity and
 * the loads' forces, each a vector output of the model (NAME.x, .y, .z),
 * read after every step; the points' stresses as result columns
 * "<name>.sigma_<point>" (Pa).  One way: nothing is written back to the
 * workspace (docs/coupled.md).
 */
#ifndef RS_STRESS_RUN_H
#define RS_STRESS_RUN_H

#include <stddef.h>
#include "rs_results.h"
#include "rs_stress_couple.h"
#include "rs_ws.h"

typedef struct rs_stress_run rs_stress_run;

/* Binds the n specs (1 ≤ n ≤ RS_STRESS_MODELS, names unique: the
 * scenario checks) to ws's model (unknown outputs: file:line, "did you
 * mean") and starts their beams through tr (NULL: in-process); reads the
 * frames' motion at the start. */
int rs_stress_run_create(const rs_stress_spec *spec, int n, rs_ws *ws, const rs_stress_transport *tr,
                         rs_stress_run **out, char *err, size_t errlen);

/* After a step of dt (0 at the start).  No allocation. */
int rs_stress_run_step(rs_stress_run *r, rs_ws *ws, double dt, char *err, size_t errlen);

/* The result columns of every component, statement by statement, and
 * their current values. */
const rs_results_extra *rs_stress_run_columns(const rs_stress_run *r);

/* The number of components, and one line for component i: nodes,
 * sub-steps, the points' last stresses. */
int rs_stress_run_count(const rs_stress_run *r);
void rs_stress_run_summary(const rs_stress_run *r, int i, char *buf, size_t len);

void rs_stress_run_free(rs_stress_run **r);

#endif /* RS_STRESS_RUN_H */
