/*
 * rs_wrgeom_model.h — the contact geometry of a compiled model's wheelset,
 * for `railsym contact-geometry --model DIR` (docs/contact_geometry.md
 * "From a model").
 *
 * The model is loaded (libtcc) with its contact files where its model.json
 * says (contact_root; else the working directory), in a workspace of the
 * constraint contact, so the profiles are the very tables a run uses.  The
 * wheelset is the first wheel body with a left and a right contact; from
 * its pair:
 *   wheel, rail   the two profiles (the rail as the model uses it: its file
 *                 carries any inclination);
 *   r0, h_r       RS_FN_WHEEL's geometry: nominal rolling radius and rail
 *                 offset (track centre line to the rail profile's origin);
 *   d             half the distance between the two wheel centres (the
 *                 taping-line planes), from RS_FN_WHEEL's pose at the
 *                 model's initial state (a rigid wheelset: any state);
 *   flange_back   B = 2 (d + y_min), y_min the wheel table's first y (its
 *                 flange back), as rs_wrgeom places the wheels;
 *   gauge_y       the rail's gauge point: the file's gauge_point, else 14 mm
 *                 below the top (rs_wrgeom_gauge_point, as the runtime's gauge
 *                 check finds it); gauge = 2 (h_r + gauge_y).  Where neither
 *                 exists, gauge_found is 0 and gauge_y is NAN.
 * Both sides of the pair must carry the same profiles, radius and offset.
 */
#ifndef RS_WRGEOM_MODEL_H
#define RS_WRGEOM_MODEL_H

#include <stddef.h>

#include "rs_profile.h"

typedef struct rs_wrgeom_model {
    struct rs_loaded *loaded;
    struct rs_ws *ws;
    const rs_profile *wheel, *rail;   /* owned by ws                        */
    const char *left, *right;         /* the pair's contact names           */
    const char *wheel_body;
    double r0, rail_offset, d, flange_back, gauge_y, gauge;
    int gauge_found;
} rs_wrgeom_model;

/* Loads DIR with libtcc (include_dir: where rs_abi.h is; NULL: "abi").
 * RS_OK, or a status with a message naming the folder and what is wrong
 * (no wheel-rail contact, no wheel function, sides that differ, ...). */
int rs_wrgeom_model_open(const char *dir, const char *include_dir, rs_wrgeom_model *g, char *err, size_t errlen);
void rs_wrgeom_model_close(rs_wrgeom_model *g);

#endif /* RS_WRGEOM_MODEL_H */
