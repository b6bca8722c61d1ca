/*
 * rs_api_paths.h — where an installed railsym keeps the ABI headers that
 * the loaders compile a model folder against (railsym_options.abi_dir).
 *
 * The build does not know where it will be installed: this module is its
 * own object (rs_api_paths.c.o) in the library, and scripts/install.sh
 * compiles it again with RS_API_ABI_DIR set to PREFIX/include/railsym and
 * replaces that member of the installed librailsym.a.
 */
#ifndef RS_API_PATHS_H
#define RS_API_PATHS_H

/* The installed ABI header folder, or NULL in a library that was not
 * installed (the build's). */
const char *rs_api_installed_abi_dir(void);

#endif /* RS_API_PATHS_H */
