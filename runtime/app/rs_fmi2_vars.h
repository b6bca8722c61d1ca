/*
 * rs_fmi2_vars.h — the variables of a model's FMU (docs/fmi.md), in one
 * order that the exporter (modelDescription.xml) and the adapter inside the
 * FMU (rs_fmi2.c) both read from here, so their value references agree.
 *
 * valueReference = position in this list:
 *   time (independent), the parameters, the user inputs (the model's
 *   `input`s but those a wheel-rail contact fills: spline coefficients and
 *   creep forces), then outputs: every coordinate, every velocity, every
 *   multiplier (lambda_<constraint>; under the elastic contact not those
 *   of the contacts' normal constraints, which it does not hold: their
 *   force is <contact>.N), every user output, and per contact its normal
 *   force N and the forces Y and Q (rs_ws.h RS_CONTACT_VAR_*).
 *   elastic: 1 when the FMU's workspace has the elastic contact.
 */
#ifndef RS_FMI2_VARS_H
#define RS_FMI2_VARS_H

#include <stddef.h>
#include "rs_ws.h"

enum { RS_FMI2_INDEPENDENT = 0, RS_FMI2_PARAMETER, RS_FMI2_INPUT, RS_FMI2_OUTPUT };

typedef struct rs_fmi2_var {
    int causality;   /* RS_FMI2_* */
    rs_var var;      /* the quantity (rs_ws_value, rs_model_find's names) */
} rs_fmi2_var;

/* 1 when input slot u is the user's (not filled by a contact or a plugin). */
int rs_fmi2_user_input(const rs_model *m, int u);

/* 1 when workspace ws has the elastic contact (the `elastic` below). */
int rs_fmi2_elastic(const rs_ws *ws);

/* How many variables the FMU of m has. */
int rs_fmi2_var_count(const rs_model *m, int elastic);

/* Variable vr (0 <= vr < rs_fmi2_var_count) into *v; RS_E_ARG otherwise. */
int rs_fmi2_var_at(const rs_model *m, int elastic, int vr, rs_fmi2_var *v);

/* Its name (rs_model_find's scheme) into buf. */
void rs_fmi2_var_name(const rs_model *m, const rs_fmi2_var *v, char *buf, size_t len);

#endif /* RS_FMI2_VARS_H */
