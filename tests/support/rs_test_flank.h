/* rs_test_flank.h — the flank of a wheel profile's flange read straight
 * from its file's points, for the event tests (test_derailment,
 * test_train_events): independent of the runtime's spline. */
#ifndef RS_TEST_FLANK_H
#define RS_TEST_FLANK_H

#include <check.h>
#include <math.h>
#include <stdio.h>

/* The flank of the flange from the profile's points (y towards the field
 * side, z the radius increase; the flange at y < 0): the steepest slope
 * −dz/dy of a segment between two points, the outer end (towards the flange
 * tip) of the segments within 0.1 % of it (the straight flank), and the outer
 * end of those within 2 % (the documented "steepest point nearest the flange
 * tip"). */
typedef struct rs_test_flank {
    double slope, y_flank, y_band;
} rs_test_flank;

static inline rs_test_flank rs_test_read_flank(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static double y[4096], z[4096];
    int n = 0;
    char line[256];
    while (fgets(line, sizeof line, f) && n < 4096)
        if (line[0] != '#' && sscanf(line, "%lf %lf", &y[n], &z[n]) == 2)
            n++;
    fclose(f);
    ck_assert_int_gt(n, 100);
    rs_test_flank fl = {0, NAN, NAN};
    for (int i = 0; i + 1 < n && y[i + 1] <= 0; i++)
        fl.slope = fmax(fl.slope, -(z[i + 1] - z[i]) / (y[i + 1] - y[i]));
    for (int i = 0; i + 1 < n && y[i + 1] <= 0; i++) { /* y increasing: from the tip inwards */
        const double s = -(z[i + 1] - z[i]) / (y[i + 1] - y[i]);
        if (isnan(fl.y_band) && s >= 0.98 * fl.slope)
            fl.y_band = y[i];
        if (isnan(fl.y_flank) && s >= 0.999 * fl.slope)
            fl.y_flank = y[i];
    }
    return fl;
}

#endif /* RS_TEST_FLANK_H */
