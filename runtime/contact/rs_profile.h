/*
 * rs_profile.h — wheel and rail profile files (format in docs/contact.md).
 *
 *   # comment (anywhere; also after data on a line)
 *   railsym-profile 1            first non-comment line: format and version
 *   name S1002                   [A-Za-z0-9_.-]+, at most 63 characters
 *   kind wheel                   wheel | rail
 *   units m                      metres (the only unit accepted)
 *   gauge_point -0.0359 -0.0139  optional, rails only: gauge measuring point
 *   top_point 0.0075 0.0001      optional, rails only: top of rail
 *   -0.070 0.0095                the table: y z, one point a line,
 *   ...                          y strictly increasing, at least 4 points
 *
 * y is the lateral coordinate, positive towards the FIELD side (away from the
 * track centre) for wheel and rail alike.  For a wheel z is the radius
 * increase over the nominal rolling radius (positive = larger radius; the
 * nominal radius is a vehicle parameter, not part of the file); for a rail z
 * is the height, positive up.  The profile is a not-a-knot cubic spline
 * through the points (rs_spline.h).
 *
 * Errors never crash and never print: the functions return a negative code
 * and write "file:line: message" (with what to do) into the caller's buffer.
 */
#ifndef RS_PROFILE_H
#define RS_PROFILE_H

#include <stddef.h>

#include "rs_spline.h"

/* Functions return RS_OK, or RS_E_ARG (NULL argument), RS_E_IO (cannot open
 * or read the file), RS_E_SYNTAX (bad header, keyword or number), RS_E_TABLE
 * (table checks: order, count, NaN/Inf), RS_E_NOMEM: rs_status.h's codes. */
#include "rs_status.h"

enum { RS_PROFILE_WHEEL = 1, RS_PROFILE_RAIL = 2 };

#define RS_PROFILE_NAME_MAX 64
#define RS_PROFILE_FILE_MAX (16L * 1024 * 1024)   /* larger files are refused */

typedef struct rs_profile {
    char   name[RS_PROFILE_NAME_MAX];
    int    kind;            /* RS_PROFILE_WHEEL or RS_PROFILE_RAIL          */
    int    n;               /* number of points                             */
    double *y, *z;          /* the table (m), n each                        */
    int    has_gauge;       /* gauge_point given                            */
    double gauge_y, gauge_z;
    int    has_top;         /* top_point given                              */
    double top_y, top_z;
    rs_spline spline;       /* z(y)                                         */
} rs_profile;

/* Read and check a profile file, fit its spline.  On error *p is empty (safe
 * to free) and err holds "path:line: message". */
int rs_profile_load(rs_profile *p, const char *path, char *err, size_t errlen);

/* The same from text in memory (len bytes; NUL bytes are rejected); fname is
 * used in messages only. */
int rs_profile_parse(rs_profile *p, const char *text, size_t len,
                     const char *fname, char *err, size_t errlen);

void rs_profile_free(rs_profile *p);

/* z(y) and its derivatives (may be NULL); hint as in rs_spline_find. */
double rs_profile_eval(const rs_profile *p, double y, int *hint,
                       double *dz, double *d2z);

#endif /* RS_PROFILE_H */
