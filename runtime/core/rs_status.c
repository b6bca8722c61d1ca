/* rs_status.c — texts of the status codes listed once in rs_status.h. */
#include "rs_status.h"

const char *rs_status_str(int status)
{
    switch (status) {
#define RS_STATUS_CASE(name, value, text) case value: return text;
    RS_STATUS_LIST(RS_STATUS_CASE)
#undef RS_STATUS_CASE
    }
    return "unknown status";
}

const char *rs_status_name(int status)
{
    switch (status) {
#define RS_STATUS_CASE(name, value, text) case value: return #name;
    RS_STATUS_LIST(RS_STATUS_CASE)
#undef RS_STATUS_CASE
    }
    return "RS_UNKNOWN";
}
