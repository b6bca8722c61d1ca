/*
 * rs_plugin_load.h — opens the libraries of a model's user plugin forces
 * (abi/rs_plugin.h, docs/plugins.md) with dlopen and gives the tables
 * rs_options.plugins takes.  A library is refused at load time, with a
 * message naming the plugin and the file, when it cannot be opened, lacks
 * RS_PLUGIN_ENTRY_SYMBOL, returns no table or one without eval, or was
 * built for another RS_PLUGIN_ABI_VERSION.
 */
#ifndef RS_PLUGIN_LOAD_H
#define RS_PLUGIN_LOAD_H

#include <stddef.h>

#include "rs_model.h"
#include "rs_plugin.h"

typedef struct rs_plugin_set rs_plugin_set;

/* *out: NULL when m has no plugin (then RS_OK and nothing to close). */
int rs_plugin_set_open(const rs_model *m, rs_plugin_set **out, char *err, size_t errlen);
/* The same with each library taken from folder `dir` as NAME.so, NAME the
 * plugin's element name, instead of the path the description gave (an
 * FMU's resources/plugins/, where export-fmu copies them: docs/plugins.md). */
int rs_plugin_set_open_dir(const rs_model *m, const char *dir, rs_plugin_set **out, char *err, size_t errlen);
/* The tables, in the order of m->plugins (for rs_options.plugins). */
const rs_plugin_api *const *rs_plugin_set_tables(const rs_plugin_set *s);
/* Closes the libraries (after every workspace using them is freed). */
void rs_plugin_set_close(rs_plugin_set **s);

#endif
