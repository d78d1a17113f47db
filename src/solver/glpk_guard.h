/* Embedding GLPK without touching the host program's GLPK.
 *
 * GLPK keeps one environment per thread (thread-local storage): its terminal hook, error
 * hook, terminal switch and every problem object. It has no getter for the hooks, so a
 * library that sets them cannot give the host's back. dlsched therefore never calls GLPK
 * in the caller's thread: dls__glpk_call runs the work in a thread of its own, whose
 * environment is fresh, and frees that environment when the work is done. The host's
 * hooks, its terminal setting and its problem objects are never seen, and an internal
 * error of GLPK frees only dlsched's environment.
 *
 * Inside that thread GLPK prints nothing unless asked (its output is kept for error
 * messages), calls the error hook instead of abort() (the hook must not return, so it
 * longjmps back, and dls__glpk_call reports DLS_ESOLVER with GLPK's last words), and
 * writes numbers in the C locale whatever locale the host chose. */
#ifndef DLSCHED_GLPK_GUARD_H
#define DLSCHED_GLPK_GUARD_H

#include <setjmp.h>

#include "core/internal.h"

#define DLS_GLPK_OUTPUT_TAIL 400

typedef struct dls__glpk_guard {
    jmp_buf env;
    int verbose;
    char tail[DLS_GLPK_OUTPUT_TAIL];  /* the last GLPK output, for error messages */
} dls__glpk_guard;

/* The work done with GLPK: returns a status and fills err. It runs in GLPK's thread, must
 * create and delete its own problem objects (any left over are freed with the
 * environment), and may be abandoned at any GLPK call by an internal error, so it must
 * not own memory that is not reachable from arg. g->tail holds GLPK's last output, for
 * messages. */
typedef struct dls__glpk_guard dls__glpk_guard_t;
typedef dls_status (*dls__glpk_work)(void *arg, const dls__glpk_guard_t *g, dls_error *err);

/* Runs work(arg, err) in a thread with a GLPK environment of its own; doing names the
 * work in error messages. Returns the work's status, DLS_ESOLVER after an internal error
 * of GLPK, or DLS_ENOMEM when no thread could be started. */
DLS_HIDDEN dls_status dls__glpk_call(int verbose, const char *doing, dls__glpk_work work,
                                     void *arg, dls_error *err);

/* The pieces dls__glpk_call is made of, for tests: silences GLPK (unless verbose) and
 * installs the error hook in the calling thread's environment; removes them; after a
 * longjmp from GLPK, frees the environment and records DLS_ESOLVER quoting GLPK's last
 * words. Locals changed after setjmp and read after a longjmp must be volatile. */
DLS_HIDDEN void dls__glpk_enter(dls__glpk_guard *g, int verbose);
DLS_HIDDEN void dls__glpk_leave(dls__glpk_guard *g);
DLS_HIDDEN dls_status dls__glpk_failed(dls__glpk_guard *g, dls_error *err, const char *doing);

#endif /* DLSCHED_GLPK_GUARD_H */
