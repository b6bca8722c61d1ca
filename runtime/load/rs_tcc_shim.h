/*
 * rs_tcc_shim.h — the one place that knows libtcc's version differences.
 * tcc_relocate took (state, TCC_RELOCATE_AUTO) up to 0.9.27; newer libtcc
 * takes only the state.
 */
#ifndef RS_TCC_SHIM_H
#define RS_TCC_SHIM_H

#include <libtcc.h>

/* Relocates the compiled code into memory managed by the state; 0 or -1. */
int rs_tcc_relocate(TCCState *s);

#endif /* RS_TCC_SHIM_H */
