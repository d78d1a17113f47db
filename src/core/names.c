/* Enumeration names from their tables; the status and solution-status names. */
#include <config.h>

#include <string.h>

#include "core/names.h"

const char *dls__enum_name(const dls__enum_entry *t, size_t n, int v)
{
    for (size_t k = 0; k < n; k++)
        if (t[k].value == v)
            return t[k].text;
    return "unknown";
}

int dls__enum_parse(const dls__enum_entry *t, size_t n, const char *s, int *v)
{
    for (size_t k = 0; s != NULL && k < n; k++)
        if (strcmp(t[k].text, s) == 0) {
            *v = t[k].value;
            return 0;
        }
    return -1;
}

DLS__ENUM_NAMES(dls_solution_status, dls_solution_status, DLS_SOLUTION_STATUS_MAP)

/* the status list gives each code its symbol (EINVAL) and its description */
#define STATUS_SYMBOL_(name, value, text) {value, #name},
static const dls__enum_entry status_symbols_[] = {DLS_STATUS_MAP(STATUS_SYMBOL_)};
#undef STATUS_SYMBOL_

dls_status dls_status_from_name(const char *name, dls_status *out)
{
    int v;
    if (out == NULL || dls__enum_parse(status_symbols_, sizeof status_symbols_ /
                                                            sizeof status_symbols_[0],
                                       name, &v) != 0)
        return DLS_EINVAL;
    *out = (dls_status)v;
    return DLS_OK;
}
