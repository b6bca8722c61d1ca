/*
 * rs_status.h — status codes of the runtime, defined once.
 *
 * 0 is success, a positive code is a success with a remark (the caller
 * stopped the run, a table was extrapolated, ...), a negative code is an
 * error.  Every function of the runtime that can fail returns one of these,
 * contact, track, profile and spline functions included (they used to have
 * their own lists, whose values collided with these); the library never
 * exits, aborts or prints.  Each value and each text is distinct
 * (tests/unit/test_rt_errors.c, test_status_strings, checks it): add a code here, never a module
 * list of its own.
 */
#ifndef RS_STATUS_H
#define RS_STATUS_H

/* X(name, value, text) */
#define RS_STATUS_LIST(X)                                                     \
    X(RS_OK,             0, "ok")                                             \
    X(RS_STOPPED,        1, "stopped by the caller's callback")               \
    X(RS_ASYMPTOTE,      2, "outside the table: slender-ellipse asymptotes used") \
    X(RS_CLAMPED,        3, "outside the table: held at its last row")        \
    X(RS_FEW_EXTREMA,    4, "too few extrema to fit a rate")                  \
    X(RS_E_ARG,         -1, "invalid argument")                               \
    X(RS_E_NOMEM,       -2, "out of memory")                                  \
    X(RS_E_MODEL,       -3, "invalid or incompatible model descriptor")       \
    X(RS_E_UNSUPPORTED, -4, "feature not supported by this runtime")          \
    X(RS_E_NONFINITE,   -5, "non-finite number (NaN or Inf)")                 \
    X(RS_E_SINGULAR,    -6, "singular system matrix")                         \
    X(RS_E_NOCONV,      -7, "an iteration did not converge")                    \
    X(RS_E_MODELFN,     -8, "a model function reported an error")             \
    X(RS_E_INPUT,       -9, "the input callback reported an error")           \
    X(RS_E_SOLVER,     -10, "sparse solver failure")                          \
    X(RS_E_NOTFOUND,   -11, "unknown name")                                   \
    X(RS_E_LOAD,       -12, "model loading failed")                           \
    X(RS_E_IO,         -13, "input/output error")                            \
    X(RS_E_LIFTOFF,    -14, "a wheel lifts off the rail (negative normal force)") \
    X(RS_E_PERM,       -15, "not permitted by the system (privileges or limits)") \
    X(RS_E_OFFTRACK,   -16, "a wheel ran off the end of its track")       \
    X(RS_E_SYNTAX,     -17, "syntax error in an input file")               \
    X(RS_E_VALUE,      -18, "value out of range or inconsistent")          \
    X(RS_E_TABLE,      -19, "bad table: order, count or non-finite number") \
    X(RS_E_ORDER,      -20, "abscissae not strictly increasing")           \
    X(RS_E_FIT,        -21, "splines miss the geometry beyond tolerance")  \
    X(RS_E_NONHERTZ,   -22, "contact is not Hertzian (conformal or saddle)") \
    X(RS_E_INTERNAL,   -23, "internal invariant broken (a bug in railsym)") \
    X(RS_E_DERAILED,   -24, "a wheel climbed its flange or derailed (the run was told to stop)")

typedef enum rs_status {
#define RS_STATUS_ENUM(name, value, text) name = value,
    RS_STATUS_LIST(RS_STATUS_ENUM)
#undef RS_STATUS_ENUM
} rs_status;

/* A static string describing the code ("unknown status" for other values). */
const char *rs_status_str(int status);

/* The enumerator's name, e.g. "RS_E_SINGULAR". */
const char *rs_status_name(int status);

#endif /* RS_STATUS_H */
