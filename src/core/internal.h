/* Internal helpers shared by the library's source files (not installed). */
#ifndef DLSCHED_INTERNAL_H
#define DLSCHED_INTERNAL_H

#include <stdarg.h>
#include <math.h>
#include <stddef.h>

#include "dlsched.h"

#if defined(__GNUC__)
#define DLS__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define DLS__HIDDEN __attribute__((visibility("hidden")))
#else
#define DLS__PRINTF(f, a)
#define DLS__HIDDEN
#endif

/* Internal invariants: checked in debug builds (./configure --enable-debug, and the
 * sanitizer job of CI), where a broken one stops the program with its place; compiled to
 * nothing otherwise (the expression is still type-checked, never evaluated). They state
 * what the code relies on, never what an input may violate: inputs get status codes. */
#ifdef DLS_DEBUG
DLS__HIDDEN void dls__assert_fail(const char *expr, const char *file, int line,
                                 const char *func);
#define DLS__ASSERT(c) ((c) ? (void)0 : dls__assert_fail(#c, __FILE__, __LINE__, __func__))
#else
#define DLS__ASSERT(c) ((void)sizeof(!(c)))
#endif

/* Records a failure in err (if not NULL) and returns status. The message is ORIGIN ": "
 * then fmt's text (fmt's text alone for a NULL or empty origin), and dls_error::origin is
 * ORIGIN, given here and never read back from the text: a public function's name
 * ("dls_schedule_solve"), or a module's word ("lu") that the public caller above replaces
 * (dls__error_retag). An origin that is neither, or too long for the field, heads the
 * message but leaves the field empty. */
DLS__HIDDEN dls_status dls__fail(dls_error *err, dls_status status, const char *origin,
                                const char *fmt, ...) DLS__PRINTF(4, 5);

/* The same with a file position and a processor index (-1 for none). */
DLS__HIDDEN dls_status dls__fail_at(dls_error *err, dls_status status, int line, int column,
                                   long processor, const char *origin, const char *fmt, ...)
    DLS__PRINTF(7, 8);

/* The one out-of-memory failure: DLS_ENOMEM with "WHO: out of memory", WHO being the origin
 * (the public function, or the module word a caller above replaces, see dls__error_retag);
 * NULL for a bare "out of memory". */
DLS__HIDDEN dls_status dls__oom(dls_error *err, const char *who);

DLS__HIDDEN dls_status dls__vfail_at(dls_error *err, dls_status status, int line, int column,
                                    long processor, const char *origin, const char *fmt,
                                    va_list ap) DLS__PRINTF(7, 0);

/* err's message without its origin and ": " (all of it when it has none): with err->origin
 * as the origin, a failure passing err's on keeps both as they were. */
DLS__HIDDEN const char *dls__error_text(const dls_error *err);

/* A problem found in model data: which element (0-based), which of its fields, and a
 * sentence naming it 1-based, e.g. "speed point 3 has a negative speed (-2)". */
typedef struct dls__problem {
    size_t index;
    int field;
    char text[256];
} dls__problem;

/* Fields of dls__problem for points: size, speed, low, high; for lines: a, b;
 * for grids: the x array, the y array, a value. DLS__FIELD_WHOLE: the whole array. */
enum {
    DLS__FIELD_SIZE = 0,
    DLS__FIELD_SPEED = 1,
    DLS__FIELD_LOW = 2,
    DLS__FIELD_HIGH = 3,
    DLS__FIELD_A = 0,
    DLS__FIELD_B = 1,
    DLS__FIELD_GRID_X = 0,
    DLS__FIELD_GRID_Y = 1,
    DLS__FIELD_GRID_VALUE = 2,
    DLS__FIELD_WHOLE = 9
};

/* Validators used by both the model constructors and the platform reader, so that the
 * API and platform files accept exactly the same data. Return 0 when valid, 1 with *pb
 * filled otherwise. */
DLS__HIDDEN int dls__check_speed(double speed, dls__problem *pb);
DLS__HIDDEN int dls__check_points(size_t n, const double *size, const double *speed,
                                 const double *low, const double *high, dls__problem *pb);
DLS__HIDDEN int dls__check_lines(size_t n, const double *a, const double *b, dls__problem *pb);
DLS__HIDDEN int dls__check_grid(size_t nx, const double *x, size_t ny, const double *y,
                               const double *values, dls__problem *pb);
/* The input domain (DLS_DOMAIN_* in dlsched/model.h), after the checks above: 1 with *pb
 * filled (the element and field, and a sentence naming the value and the range) when a
 * number is outside it. */
DLS__HIDDEN int dls__domain_speed(double speed, dls__problem *pb);
DLS__HIDDEN int dls__domain_points(size_t n, const double *size, const double *speed,
                                  const double *low, const double *high, dls__problem *pb);
DLS__HIDDEN int dls__domain_lines(size_t n, const double *a, const double *b, dls__problem *pb);
DLS__HIDDEN int dls__domain_grid(size_t nx, const double *x, size_t ny, const double *y,
                                const double *values, dls__problem *pb);
/* The domain of a whole model (any kind). */
struct dls_model;
DLS__HIDDEN int dls__domain_model(const struct dls_model *m, dls__problem *pb);
/* Of a limit (INFINITY: none) and of a link; text receives the sentence. */
DLS__HIDDEN int dls__domain_limit(double limit, char *text, size_t size);
DLS__HIDDEN int dls__domain_link(double startup, double rate, char *text, size_t size);
/* Whether a value that may be 0 (a release time, a return's fraction, startup or rate) is
 * outside the domain: 1 with text "the WHAT V is outside ...". */
DLS__HIDDEN int dls__domain_value(double v, const char *what, char *text, size_t size);
/* Of a load (a total amount of work): finite, > 0 and in [DLS_DOMAIN_MIN, DLS_DOMAIN_MAX];
 * DLS_EINVAL with "FN: the load ..." otherwise. */
DLS__HIDDEN dls_status dls__domain_load(double load, const char *fn, dls_error *err);

/* Output files (file_atomic.c). dls__write_output writes len bytes to path without ever
 * destroying what the path names: a regular file or a new path is replaced atomically (a
 * temporary file beside it, synced, renamed, the directory synced; the mode and owner of
 * the file replaced are kept, a new file gets 0666 less the umask); a symbolic link is
 * followed and its target replaced; a character device, FIFO or socket is written to as a
 * stream; a directory or block device is refused. A destination that cannot be written
 * is DLS_EIO, data that could not be written to it DLS_EWRITE, both with the path and the
 * system's reason. */
DLS__HIDDEN dls_status dls__write_output(const char *path, const char *data, size_t len,
                                        dls_error *err);

/* A scratch file in $TMPDIR (or the system's temporary directory) for writers that need a
 * file name (GLPK's): dls__scratch_create makes an empty one and gives its name (to pass
 * to dls__scratch_take or dls__scratch_remove, which free it); dls__scratch_take appends
 * its content to out and removes it. */
struct dls__buf;
DLS__HIDDEN dls_status dls__scratch_create(char **name, dls_error *err);
DLS__HIDDEN dls_status dls__scratch_take(char *name, struct dls__buf *out, dls_error *err);
DLS__HIDDEN void dls__scratch_remove(char *name);

/* Refuses (DLS_EINVAL) a parameter struct whose reserved bytes (r, n of them) are not all
 * zero: its fields are of another version, or it was not filled by its init function. fn
 * names the public function, type the struct. */
DLS__HIDDEN dls_status dls__check_reserved(const unsigned char *r, size_t n, const char *fn,
                                          const char *type, dls_error *err);
#define DLS__CHECK_RESERVED(par, fn, type, err) \
    dls__check_reserved((par)->reserved, sizeof (par)->reserved, (fn), #type, (err))

/* Puts the public function's name fn at the head of a failure's message, as the API policy
 * wants: code shared by several public calls tags its messages with its module's word
 * ("lu: ...", "mip: ..."), which fn replaces; a message from another public call made
 * inside gets fn in front of it. Returns status; does nothing for DLS_OK or a NULL err. */
DLS__HIDDEN dls_status dls__error_retag(dls_error *err, dls_status status, const char *fn);

/* Appends a line to a growing note (NULL: none yet); losing it when out of memory is
 * accepted, since notes are advice. */
/* Whether a capacity (a sum of limits) holds `need` under the tolerance rule (DLS_REL_TOL). */
static inline int dls__holds(double capacity, double need)
{
    return capacity >= need - DLS_REL_TOL * need;
}

/* Whether x is within `limit` under the rule. */
static inline int dls__within(double x, double limit)
{
    return x <= limit + DLS_REL_TOL * fabs(limit);
}

/* The whole units a limit holds under the same rule: the integer just above it when the limit
 * is within the rule of it (428.99999999999994 holds 429), else the integer below. */
static inline double dls__whole_units(double limit)
{
    double up = ceil(limit);
    return up - limit <= DLS_REL_TOL * limit ? up : floor(limit);
}

DLS__HIDDEN void dls__note_add(char **note, const char *fmt, ...) DLS__PRINTF(2, 3);

/* Shortest number of significant digits (1..17) that reads back as exactly v: the least
 * precision of %g that does (1 for 300000). */
DLS__HIDDEN int dls__shortest_digits(double v);
/* v as a person writes it, in the fewest digits that read back as exactly v: a whole
 * number below 10^6 in all its digits (60, 300000), else %g's shortest form with a plain
 * exponent (5e-5, 2.5e9, 0.30000000000000004). Returns buf (40 bytes are enough). */
DLS__HIDDEN const char *dls__shortest_text(double v, char *buf, size_t size);

/* JSON text that jansson wrote with 17 digits, its reals rewritten in place in the
 * shortest form that reads back as the same double (5e-5, not 5.0000000000000002e-5;
 * 60, not 60.0), strings and integers untouched; returns text. */
DLS__HIDDEN char *dls__json_shortest_reals(char *text);

/* Significant digits of numbers in messages (%.10g): enough for any figure a user types. */
#define DLS__MESSAGE_DIGITS 10

/* Significant digits at which %.*g writes both a and b in full (at least
 * DLS__MESSAGE_DIGITS), so that a message comparing them shows why ("at most
 * 2999.9999999999995, less than 3000"). */
DLS__HIDDEN int dls__distinct_digits(double a, double b);

#endif /* DLSCHED_INTERNAL_H */
