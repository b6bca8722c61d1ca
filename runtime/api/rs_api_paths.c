/*
 * rs_api_paths.c — see rs_api_paths.h.  Compiled alone by
 * scripts/install.sh too, with -DRS_API_ABI_DIR="\"PREFIX/include/railsym\"":
 * keep it free of other headers but its own.
 */
#include <stddef.h>

#include "rs_api_paths.h"

const char *rs_api_installed_abi_dir(void)
{
#ifdef RS_API_ABI_DIR
    return RS_API_ABI_DIR;
#else
    return NULL;
#endif
}
