/* Where a value sits in a JSON text: jansson parses platform files but keeps no positions,
 * so errors found after parsing are located by walking the text again along the path of
 * the offending value. */
#ifndef DLSCHED_JSON_LOCATE_H
#define DLSCHED_JSON_LOCATE_H

#include <stddef.h>

#include "core/internal.h"

/* One step of a path: an object member (key != NULL) or an array element (index). */
typedef struct dls__jstep {
    const char *key;
    size_t index;
} dls__jstep;

/* Finds, in the valid JSON text of len bytes, the value at path[0..depth) or, when at_key
 * is set and the last step is a member, that member's key. Sets the 1-based line and
 * column (in characters). When the path cannot be followed to its end, gives the position
 * of the deepest value reached. Returns 0 when the whole path was found, -1 otherwise. */
DLS__HIDDEN int dls__json_locate(const char *text, size_t len, const dls__jstep *path,
                                size_t depth, int at_key, int *line, int *column);

#endif /* DLSCHED_JSON_LOCATE_H */
