/* Embedding GLPK safely: no terminal output unless asked for, and no abort() on its
 * internal errors.
 *
 * GLPK reports internal errors (invalid arguments, failed assertions) through glp_error,
 * which calls abort() unless an error hook is installed; the hook must not return, so it
 * longjmps back to the caller, which must then free GLPK's whole environment (every problem
 * object of the thread becomes invalid). Use:
 *
 *     dls__glpk_guard g;
 *     dls__glpk_enter(&g, verbose);
 *     if (setjmp(g.env) != 0)
 *         return dls__glpk_failed(&g, err, "what was being done");
 *     ... GLPK calls ...
 *     dls__glpk_leave(&g);
 *
 * Locals changed after setjmp and read after a longjmp must be volatile. */
#ifndef DLSCHED_GLPK_GUARD_H
#define DLSCHED_GLPK_GUARD_H

#include <setjmp.h>

#include "core/internal.h"

#define DLS_GLPK_OUTPUT_TAIL 400

typedef struct dls__glpk_guard {
    jmp_buf env;
    int old_term;                     /* glp_term_out's previous setting */
    int verbose;
    char tail[DLS_GLPK_OUTPUT_TAIL];  /* the last GLPK output, for error messages */
} dls__glpk_guard;

/* Silences GLPK (unless verbose) and installs the error hook. */
DLS_HIDDEN void dls__glpk_enter(dls__glpk_guard *g, int verbose);

/* Removes the hook and restores the terminal output setting. */
DLS_HIDDEN void dls__glpk_leave(dls__glpk_guard *g);

/* After a longjmp from GLPK: frees its environment, restores the settings, and records a
 * DLS_ESOLVER error quoting GLPK's last words. */
DLS_HIDDEN dls_status dls__glpk_failed(dls__glpk_guard *g, dls_error *err, const char *doing);

#endif /* DLSCHED_GLPK_GUARD_H */
