/* rs_tcc_shim.c — see rs_tcc_shim.h. */
#include "rs_tcc_shim.h"

int rs_tcc_relocate(TCCState *s)
{
#ifdef TCC_RELOCATE_AUTO
    return tcc_relocate(s, TCC_RELOCATE_AUTO);
#else
    return tcc_relocate(s);
#endif
}
