/*
 * rs_fmi2_layout.h — the file names inside an FMU's resources/ folder, as
 * `railsym export-fmu` writes them and the FMU's instance set-up
 * (rs_instance_create_fmu) reads them (docs/fmi.md, "What the FMU holds").
 * A header of its own: the adapter (rs_fmi2.c) uses the instance set-up,
 * which must not include the adapter's header.
 */
#ifndef RS_FMI2_LAYOUT_H
#define RS_FMI2_LAYOUT_H

#define RS_FMI2_SCENARIO "scenario.scn"   /* the scenario of the export      */
#define RS_FMI2_CONTACT_DIR "contact"     /* the model's profiles and tracks,
                                             by the contact table's relative
                                             names                          */
#define RS_FMI2_PLUGIN_DIR "plugins"      /* the plugins' libraries, NAME.so */
#define RS_FMI2_FILES_DIR "files"         /* the scenario's track and profile
                                             files: files/KEYWORD/NAME      */

#endif /* RS_FMI2_LAYOUT_H */
