/*
 * rs_status.h — status codes of the runtime, defined once.
 *
 * 0 is success, a positive code is a normal stop requested by the caller,
 * a negative code is an error.  Every function of the runtime that can fail
 * returns one of these; the library never exits, aborts or prints.
 */
#ifndef RS_STATUS_H
#define RS_STATUS_H

/* X(name, value, text) */
#define RS_STATUS_LIST(X)                                                     \
    X(RS_OK,             0, "ok")                                             \
    X(RS_STOPPED,        1, "stopped by the caller's callback")               \
    X(RS_E_ARG,         -1, "invalid argument")                               \
    X(RS_E_NOMEM,       -2, "out of memory")                                  \
    X(RS_E_MODEL,       -3, "invalid or incompatible model descriptor")       \
    X(RS_E_UNSUPPORTED, -4, "feature not supported by this runtime")          \
    X(RS_E_NONFINITE,   -5, "non-finite number (NaN or Inf)")                 \
    X(RS_E_SINGULAR,    -6, "singular system matrix")                         \
    X(RS_E_NOCONV,      -7, "projection did not converge")                    \
    X(RS_E_MODELFN,     -8, "a model function reported an error")             \
    X(RS_E_INPUT,       -9, "the input callback reported an error")           \
    X(RS_E_SOLVER,     -10, "sparse solver failure")                          \
    X(RS_E_NOTFOUND,   -11, "unknown name")                                   \
    X(RS_E_LOAD,       -12, "model loading failed")                           \
    X(RS_E_IO,         -13, "input/output error")                            \
    X(RS_E_LIFTOFF,    -14, "a wheel lifts off the rail (negative normal force)") \
    X(RS_E_PERM,       -15, "not permitted by the system (privileges or limits)") \
    X(RS_E_OFFTRACK,   -16, "a wheel ran off the end of its track")

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
