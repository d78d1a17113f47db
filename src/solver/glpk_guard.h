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
 * writes numbers in the C locale whatever locale the host chose.
 *
 * Time. Every call has a deadline. The work passes what is left of it to each of GLPK's
 * solvers (dls__glpk_smcp: glp_simplex and glp_exact stop themselves with GLP_ETMLIM), but
 * some of GLPK's loops take no limit: the LPs that glp_intopt solves at each node of its
 * tree are given none. So GLPK always reports its progress (msg_lev GLP_MSG_ON, every
 * DLS__GLPK_POLL_MS where the caller sets the period) to the terminal hook, which is also
 * a watchdog: once the deadline is DLS__GLPK_GRACE_S behind, it longjmps out as the error
 * hook does, the environment is freed, and dls__glpk_call reports DLS_ELIMIT naming the
 * stage the work was at. */
#ifndef DLSCHED_GLPK_GUARD_H
#define DLSCHED_GLPK_GUARD_H

#include <glpk.h>
#include <setjmp.h>

#include "core/internal.h"

#define DLS__GLPK_OUTPUT_TAIL 400
/* How often GLPK's simplex reports its progress (ms), and so how often the watchdog looks
 * at the clock. GLPK's own default for the LPs of branch and bound is 5000 ms. */
#define DLS__GLPK_POLL_MS 200
/* The watchdog fires this long after the deadline: GLPK's own limits, which end a solve
 * with a clean status, come first. */
#define DLS__GLPK_GRACE_S 0.5

typedef struct dls__glpk_guard {
    jmp_buf env;
    int verbose;
    int stopped;                      /* the watchdog stopped GLPK */
    dls_progress_fn progress;         /* the caller's progress callback, or NULL */
    void *progress_data;
    double reported;                  /* when progress was last called (monotonic s) */
    double start, deadline;           /* monotonic seconds; deadline INFINITY: none */
    char stage[200];                  /* what the work is doing, for messages */
    char tail[DLS__GLPK_OUTPUT_TAIL];  /* the last GLPK output, for error messages */
} dls__glpk_guard;

/* The work done with GLPK: returns a status and fills err. It runs in GLPK's thread, must
 * create and delete its own problem objects (any left over are freed with the
 * environment), and may be abandoned at any GLPK call by an internal error or by the
 * watchdog, so it must not own memory that is not reachable from arg. g->tail holds
 * GLPK's last output, for messages; the work keeps g->stage up to date (dls__glpk_stage)
 * so that a watchdog's message says what was running. */
typedef struct dls__glpk_guard dls__glpk_guard_t;
typedef dls_status (*dls__glpk_work)(void *arg, dls__glpk_guard_t *g, dls_error *err);

/* Runs work(arg, err) in a thread with a GLPK environment of its own, for at most
 * time_limit seconds (> 0; INFINITY: no limit); doing names the work in error messages.
 * Returns the work's status, DLS_ESOLVER after an internal error of GLPK, DLS_ELIMIT when
 * the watchdog stopped GLPK (then *stopped, when not NULL, is set to 1; else 0), or
 * DLS_ENOMEM when no thread could be started. */
DLS__HIDDEN dls_status dls__glpk_call(int verbose, double time_limit, const char *doing,
                                     dls__glpk_work work, void *arg, int *stopped,
                                     dls_error *err);

/* Monotonic clock, seconds. */
DLS__HIDDEN double dls__glpk_now(void);
/* Seconds since the call started, and seconds left before its deadline (INFINITY: none;
 * <= 0: none left). */
DLS__HIDDEN double dls__glpk_elapsed(const dls__glpk_guard *g);
DLS__HIDDEN double dls__glpk_left(const dls__glpk_guard *g);
/* GLPK's tm_lim (ms) for what is left: INT_MAX without a deadline, else at least 1. */
DLS__HIDDEN int dls__glpk_tm_lim(const dls__glpk_guard *g);
/* Fills parm for one of GLPK's simplex solvers: glp_init_smcp, progress reported to the
 * hook (printed only when verbose) every DLS__GLPK_POLL_MS, the time left as tm_lim, and
 * at most it_lim iterations (INT_MAX and above: no limit). */
DLS__HIDDEN void dls__glpk_smcp(const dls__glpk_guard *g, glp_smcp *parm, unsigned long it_lim);
/* Has GLPK's progress reports (every DLS__GLPK_POLL_MS in a simplex) also call fn with the
 * part of the time limit used; a non-zero return stops GLPK as the watchdog does, and
 * dls__glpk_call reports DLS_ECANCELED. fn NULL: none. */
DLS__HIDDEN void dls__glpk_progress(dls__glpk_guard *g, dls_progress_fn fn, void *data);
/* Records what the work is doing now (printf format), for the watchdog's message. */
DLS__HIDDEN void dls__glpk_stage(dls__glpk_guard *g, const char *fmt, ...) DLS__PRINTF(2, 3);

/* The pieces dls__glpk_call is made of, for tests: silences GLPK (unless verbose) and
 * installs the hooks in the calling thread's environment, with no deadline; removes them;
 * after a longjmp from GLPK, frees the environment and records DLS_ESOLVER quoting GLPK's
 * last words. Locals changed after setjmp and read after a longjmp must be volatile. */
DLS__HIDDEN void dls__glpk_enter(dls__glpk_guard *g, int verbose);
DLS__HIDDEN void dls__glpk_leave(dls__glpk_guard *g);
DLS__HIDDEN dls_status dls__glpk_failed(dls__glpk_guard *g, dls_error *err, const char *doing);

#endif /* DLSCHED_GLPK_GUARD_H */
