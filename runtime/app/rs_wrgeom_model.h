/*
 * rs_wrgeom_model.h — the contact geometry of a compiled model's wheelset,
 * for `railsym contact-geometry --model DIR` (docs/contact_geometry.md
 * "From a model").
 *
 * The model is loaded (libtcc) with its contact files where its model.json
 * says (contact_root; else the working directory), in a workspace of the
 * constraint contact, so the profiles are the very tables a run uses.  The
 * wheelset is the wheel body named (NULL: the first wheel body with a left
 * and a right contact); per side s (0 left, 1 right) of its pair:
 *   wheel, rail   the profiles (the rail as the model uses it: its file
 *                 carries any inclination); the sides may differ (a worn
 *                 rail on one side, unlike wheels);
 *   r0, h_r       RS_FN_WHEEL's geometry: nominal rolling radius and rail
 *                 offset (track centre line to the rail profile's origin);
 *   gauge_y       the rail's gauge point: the file's gauge_point, else 14 mm
 *                 below the top (rs_wrgeom_gauge_point, as the runtime's
 *                 gauge check finds it).  Where neither exists, gauge_found
 *                 is 0 and gauge_y is NAN;
 * and for the pair:
 *   d             half the distance between the two wheel centres (the
 *                 taping-line planes), from RS_FN_WHEEL's pose at the
 *                 model's initial state (a rigid wheelset: any state);
 *   flange_back   B = 2 d + y_min,l + y_min,r, y_min a wheel table's first y
 *                 (its flange back): the flange backs' distance;
 *   gauge         h_r,l + gauge_y,l + h_r,r + gauge_y,r: the gauge points'
 *                 distance.
 * rs_wrgeom centres the wheelset midway between the flange backs and the
 * track midway between the gauge points; the model centres both on the
 * wheel centres and its centre line.  Where the sides differ the two
 * lateral shifts differ by a constant (rs_wrgeom_model_y_offset).
 */
#ifndef RS_WRGEOM_MODEL_H
#define RS_WRGEOM_MODEL_H

#include <stddef.h>

#include "rs_profile.h"

typedef struct rs_wrgeom_model {
    struct rs_loaded *loaded;
    struct rs_ws *ws;
    const rs_profile *wheel[2], *rail[2];   /* [0] left, [1] right; owned by ws */
    const char *left, *right;         /* the pair's contact names           */
    const char *wheel_body;
    double r0[2], rail_offset[2], gauge_y[2];
    double d, flange_back, gauge;
    int gauge_found;                  /* both rails' gauge points found     */
} rs_wrgeom_model;

/* Loads DIR with libtcc (include_dir: where rs_abi.h is; NULL: "abi") and
 * takes wheel body `wheelset`'s pair (NULL: the first).  RS_OK, or a status
 * with a message naming the folder and what is wrong (no wheel-rail contact,
 * no wheel function, no such wheelset: the message lists the model's). */
int rs_wrgeom_model_open(const char *dir, const char *include_dir, const char *wheelset, rs_wrgeom_model *g,
                         char *err, size_t errlen);
void rs_wrgeom_model_close(rs_wrgeom_model *g);

/* The model's lateral shift at rs_wrgeom g's shift 0 (m), g initialised with
 * the model's gauge and flange back: the left wheel's taping line stands as
 * far from its rail's origin in both, so y_model = y + (d_l,g - d) -
 * (yr0_l,g - h_r,l).  0 for a symmetric pair. */
double rs_wrgeom_model_y_offset(const rs_wrgeom_model *m, const struct rs_wrgeom *g);

#endif /* RS_WRGEOM_MODEL_H */
