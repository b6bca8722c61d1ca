/*
 * rs_params.h — dependent parameters outside a workspace (docs/vdl.md
 * "Parameters"): the one rule rs_ws_set_param applies, for whoever holds a
 * model's parameter vector itself (a train's compiled vehicles).
 */
#ifndef RS_PARAMS_H
#define RS_PARAMS_H

#include "rs_model.h"
#include "rs_status.h"

/* Each parameter the description declares as an expression of others
 * (RS_FN_PARAMS) and that was not set (set[i] == 0; set NULL: none was) is
 * recomputed from p, repeated until nothing changes (a chain a -> b -> c
 * settles in one pass per link: at most n_p + 1 passes).  in: the model's
 * input slots with in[RS_IN_P] == p (NULL: built here, every other slot an
 * empty array; RS_FN_PARAMS reads p only); scratch: n_p doubles.  RS_OK
 * (also for a model without dependent parameters), or RS_E_MODELFN when
 * the generated function fails (no message: the caller names the model). */
int rs_params_follow(const rs_model *m, const double *const *in, double *p, const double *set, double *scratch);

#endif /* RS_PARAMS_H */
