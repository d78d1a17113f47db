/* The names of every public enumeration, generated from its X-macro list: one table a
 * list, and two small functions (name, parse) that read it. The public
 * dls_<enum>_name() / dls_<enum>_from_name() pairs are defined with
 * DLS__ENUM_NAMES(type, prefix_of_functions, MAP) in the module that owns the enum. */
#ifndef DLSCHED_CORE_NAMES_H
#define DLSCHED_CORE_NAMES_H

#include <stddef.h>

#include "core/internal.h"

typedef struct dls__enum_entry {
    int value;
    const char *text;
} dls__enum_entry;

/* The text of v in the table, "unknown" when v is not in it. */
DLS__HIDDEN const char *dls__enum_name(const dls__enum_entry *t, size_t n, int v);

/* The value whose text is s; 0, or -1 when none (or s NULL). */
DLS__HIDDEN int dls__enum_parse(const dls__enum_entry *t, size_t n, const char *s, int *v);

#define DLS__ENUM_ENTRY_(name, value, text) {value, text},

/* Defines `const char *fn_name(type)` and `dls_status fn_from_name(const char *, type *)`
 * for the enum of the X-macro list MAP. */
#define DLS__ENUM_NAMES(type, fn, MAP)                                                     \
    static const dls__enum_entry fn##_table_[] = {MAP(DLS__ENUM_ENTRY_)};                  \
    const char *fn##_name(type v)                                                          \
    {                                                                                      \
        return dls__enum_name(fn##_table_, sizeof fn##_table_ / sizeof fn##_table_[0],     \
                              (int)v);                                                     \
    }                                                                                      \
    dls_status fn##_from_name(const char *name, type *out)                                 \
    {                                                                                      \
        int v;                                                                             \
        if (out == NULL ||                                                                 \
            dls__enum_parse(fn##_table_, sizeof fn##_table_ / sizeof fn##_table_[0], name, \
                            &v) != 0)                                                      \
            return DLS_EINVAL;                                                             \
        *out = (type)v;                                                                    \
        return DLS_OK;                                                                     \
    }

#endif /* DLSCHED_CORE_NAMES_H */
