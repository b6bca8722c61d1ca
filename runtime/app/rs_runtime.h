/*
 * rs_runtime.h — everything a program that runs railsym models includes.
 * The embedded subset (no loaders) is rs_ws.h alone.
 */
#ifndef RS_RUNTIME_H
#define RS_RUNTIME_H

#include "rs_abi.h"
#include "rs_model.h"
#include "rs_status.h"
#include "rs_ws.h"
#include "rs_load.h"
#include "rs_results.h"

#endif /* RS_RUNTIME_H */
