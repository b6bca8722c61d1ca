/*
 * rs_instance.h — one instance of a loaded model run from a bound
 * scenario, set up the way `railsym run` sets up its workspace: the
 * scenario's options, the contact implementation its mode asks for, the
 * model's plugin libraries, the workspace with the scenario applied, and
 * inputs that a caller may set on top of the scenario's tables.
 *
 * What the embedding API (runtime/api/rs_api.c, railsym.h) and the FMU
 * (rs_fmi2.c) share of their instances; each keeps what differs (where the
 * contact files and plugin libraries are, what a contact event does, when
 * the static equilibrium is solved).  The FMU is built from copies of the
 * runtime's files (cli/cmd_export_fmu.cpp, kAppFiles): this file may only
 * use what is copied there (core, contact, the scenario reader, the plugin
 * loader, the equilibrium), not the driver.
 */
#ifndef RS_INSTANCE_H
#define RS_INSTANCE_H

#include <stddef.h>

#include "rs_options.h"
#include "rs_plugin_load.h"
#include "rs_scenario.h"
#include "rs_ws.h"

/* What differs between the instances' set-ups. */
typedef struct rs_instance_config {
    /* the folder of the contacts' profile and track files: contact_dir in
     * place of the scenario's; else default_contact_dir when the scenario
     * names none; else the scenario's (NULL, NULL: the scenario's) */
    const char *contact_dir;
    const char *default_contact_dir;
    /* the plugins' libraries: NULL, where the description says; else the
     * copies DIR/NAME.so (an FMU's resources/plugins) */
    const char *plugin_dir;
    /* what a wheel-rail event does (rs_options.contact_event) */
    int (*contact_event)(void *ctx, const struct rs_contact_event *e);
    void *contact_event_ctx;
} rs_instance_config;

typedef struct rs_instance {
    const rs_model *m;
    rs_binding *b;           /* the bound scenario (owned) */
    rs_ws *ws;
    rs_plugin_set *plugins;  /* the model's plugin libraries (docs/plugins.md) */
    rs_input_fn scn_input;   /* the scenario's input tables (or NULL) */
    void *scn_ctx;
    double *u_val;           /* n_u: values the caller set, over the scenario's */
    unsigned char *u_set;    /* n_u: 1 where such a value was set */
    double *out;             /* n_out: room for the user outputs at a state */
    double dt;               /* the step the scenario gives */
    char *dirs;              /* rs_instance_create_fmu's folders (owned) */
} rs_instance;

/* Sets up *in (zeroed or freed before) for model m and the scenario bound
 * to it, b, which *in takes over (freed by rs_instance_free, also when this
 * fails).  The instance must not move after: it is the input callback's
 * context.  Messages name the model; on failure the caller frees *in. */
int rs_instance_create(rs_instance *in, const rs_model *m, rs_binding *b, const rs_instance_config *c, char *err,
                       size_t errlen);

/* The set-up of an FMU's instance (rs_fmi2.c) from the FMU's resources
 * folder res: its scenario RS_FMI2_SCENARIO over its default.scn, bound to
 * m; the contact files under res/RS_FMI2_CONTACT_DIR, the plugins' copies
 * res/RS_FMI2_PLUGIN_DIR/NAME.so; wheel-rail events to event(ctx) (NULL:
 * none).  export-fmu sets one up from the folder it is about to zip, so the
 * start values it writes are this set-up's.  On failure the caller frees
 * *in. */
int rs_instance_create_fmu(rs_instance *in, const rs_model *m, const char *res,
                           int (*event)(void *ctx, const struct rs_contact_event *e), void *ctx, char *err,
                           size_t errlen);

/* Frees what *in holds (the workspace before the plugin libraries: its
 * release hooks are in them) and zeroes it. */
void rs_instance_free(rs_instance *in);

/* The scenario's static equilibrium (`equilibrium` in the scenario), as
 * `railsym run` solves it before its first step; RS_OK when it asks for
 * none.  The solver's message into err. */
int rs_instance_equilibrium(rs_instance *in, char *err, size_t errlen);

/* A saved state: the inputs set (u_val, u_set), then the workspace's copy
 * (rs_ws_state.h).  Its size, 0 when the workspace has no copy (a contact
 * implementation without one). */
size_t rs_instance_state_size(const rs_instance *in);
/* Into buf (len >= rs_instance_state_size): rs_ws_state_save's status. */
int rs_instance_state_save(const rs_instance *in, void *buf, size_t len);
/* From buf: RS_E_ARG, and nothing changed of the inputs, when len bytes
 * are not a state of this model. */
int rs_instance_state_restore(rs_instance *in, const void *buf, size_t len);

#endif /* RS_INSTANCE_H */
