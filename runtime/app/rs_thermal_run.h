/*
 * rs_thermal_run.h — a scenario's `thermal` model (rs_thermal_couple.h)
 * bound to a workspace: the power output, the damping parameter fed back
 * and the optional temperature parameter, by name; called by the driver at
 * the start and after every step (docs/coupled.md).
 */
#ifndef RS_THERMAL_RUN_H
#define RS_THERMAL_RUN_H

#include <stddef.h>
#include "rs_log.h"
#include "rs_thermal_couple.h"
#include "rs_ws.h"

typedef struct rs_thermal_run rs_thermal_run;

/* Binds spec to ws's model (unknown names: file:line, "did you mean") and
 * starts the grid through tr (NULL: in-process).  Sets the coefficient for
 * the first step. */
int rs_thermal_run_create(const rs_thermal_spec *spec, rs_ws *ws, const rs_thermal_transport *tr,
                          rs_thermal_run **out, char *err, size_t errlen);

/* After a step of dt (0 at the start): the power from the model's outputs
 * goes to the grid, the coefficient (and temperature) come back as
 * parameters.  No allocation. */
int rs_thermal_run_step(rs_thermal_run *r, rs_ws *ws, double dt, char *err, size_t errlen);

/* One line: mean temperature, coefficient, energy balance. */
void rs_thermal_run_summary(const rs_thermal_run *r, char *buf, size_t len);

void rs_thermal_run_free(rs_thermal_run **r);

#endif /* RS_THERMAL_RUN_H */
