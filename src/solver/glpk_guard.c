/* GLPK in a thread of its own, silent and unable to abort (see glpk_guard.h). */
#include <config.h>

#include <errno.h>
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/locale.h"
#include "solver/glpk_guard.h"

double dls__glpk_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double dls__glpk_elapsed(const dls__glpk_guard *g)
{
    return dls__glpk_now() - g->start;
}

double dls__glpk_left(const dls__glpk_guard *g)
{
    return isfinite(g->deadline) ? g->deadline - dls__glpk_now() : INFINITY;
}

int dls__glpk_tm_lim(const dls__glpk_guard *g)
{
    double ms = 1000 * dls__glpk_left(g);
    if (!(ms < (double)INT_MAX))
        return INT_MAX;
    return ms >= 1 ? (int)ms : 1;
}

void dls__glpk_smcp(const dls__glpk_guard *g, glp_smcp *parm, unsigned long it_lim)
{
    glp_init_smcp(parm);
    /* reported to the hook, which prints it only when verbose and watches the clock */
    parm->msg_lev = GLP_MSG_ON;
    parm->out_frq = DLS__GLPK_POLL_MS;
    parm->tm_lim = dls__glpk_tm_lim(g);
    parm->it_lim = it_lim < (unsigned long)INT_MAX ? (int)it_lim : INT_MAX;
}

void dls__glpk_stage(dls__glpk_guard *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->stage, sizeof g->stage, fmt, ap);
    va_end(ap);
}

/* Keeps the end of GLPK's output instead of printing it (unless verbose), and stops GLPK
 * once the deadline is well past. */
void dls__glpk_progress(dls__glpk_guard *g, dls_progress_fn fn, void *data)
{
    g->progress = fn;
    g->progress_data = data;
    g->reported = g->start;
}

static int on_output(void *info, const char *s)
{
    dls__glpk_guard *g = info;
    double now = dls__glpk_now();
    if (isfinite(g->deadline) && now > g->deadline + DLS__GLPK_GRACE_S) {
        g->stopped = 1;
        longjmp(g->env, 2);
    }
    if (g->progress != NULL && now - g->reported >= 1e-3 * DLS__GLPK_POLL_MS) {
        g->reported = now;
        double part = isfinite(g->deadline) ? (now - g->start) / (g->deadline - g->start) : 0;
        if (g->progress(part < 1 ? part : 1, g->progress_data) != 0)
            longjmp(g->env, 3);
    }
    if (g->verbose)
        return 0; /* GLPK prints it */
    size_t have = strlen(g->tail), add = strlen(s);
    if (add >= DLS__GLPK_OUTPUT_TAIL) {
        s += add - (DLS__GLPK_OUTPUT_TAIL - 1);
        add = DLS__GLPK_OUTPUT_TAIL - 1;
    }
    if (have + add >= DLS__GLPK_OUTPUT_TAIL) {
        size_t drop = have + add - (DLS__GLPK_OUTPUT_TAIL - 1);
        memmove(g->tail, g->tail + drop, have - drop + 1);
        have -= drop;
    }
    memcpy(g->tail + have, s, add + 1);
    return 1; /* handled: GLPK prints nothing */
}

static void on_error(void *info)
{
    dls__glpk_guard *g = info;
    longjmp(g->env, 1);
}

/* Installs the hooks; the deadline is the caller's to set (none here). */
void dls__glpk_enter(dls__glpk_guard *g, int verbose)
{
    g->tail[0] = '\0';
    g->stage[0] = '\0';
    g->verbose = verbose;
    g->stopped = 0;
    g->start = dls__glpk_now();
    g->deadline = INFINITY;
    g->progress = NULL;
    g->progress_data = NULL;
    g->reported = g->start;
    glp_term_out(GLP_ON);
    glp_term_hook(on_output, g);
    glp_error_hook(on_error, g);
}

void dls__glpk_leave(dls__glpk_guard *g)
{
    (void)g;
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
}

dls_status dls__glpk_failed(dls__glpk_guard *g, dls_error *err, const char *doing)
{
    /* GLPK's state is unusable after an error: free its environment */
    glp_free_env();
    /* GLPK's message spans two lines ("glp_...: what" then "Error detected in file ...");
     * the progress reports before them are left out */
    size_t len = strlen(g->tail);
    while (len > 0 && (g->tail[len - 1] == '\n' || g->tail[len - 1] == ' '))
        g->tail[--len] = '\0';
    size_t from = len, lines = 0;
    while (from > 0 && !(g->tail[from - 1] == '\n' && ++lines == 2))
        from--;
    char *msg = g->tail + from;
    for (char *c = msg; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return dls__fail(err, DLS_ESOLVER, doing, "GLPK internal error%s%s", msg[0] ? ": " : "", msg);
}

typedef struct call {
    int verbose;
    double time_limit;
    const char *doing;
    dls__glpk_work work;
    void *arg;
    dls_error *err;
    dls_status status;
    dls__glpk_guard guard;
} call;

static void *run(void *p)
{
    call *c = p;
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0) {
        c->status = dls__oom(c->err, c->doing);
        return NULL;
    }
    /* GLPK would create the environment at its first call, and abort() if that failed:
     * create it here, where a failure can be reported */
    int init = glp_init_env();
    if (init != 0 && init != 1) {
        c->status = init == 2 ? dls__oom(c->err, c->doing)
                              : dls__fail(c->err, DLS_ESOLVER, c->doing, "GLPK could not start "
                                          "(glp_init_env returned %d)", init);
        dls__c_numeric_leave(&loc);
        return NULL;
    }
    dls__glpk_enter(&c->guard, c->verbose);
    c->guard.deadline = c->guard.start + c->time_limit;
    int jumped = setjmp(c->guard.env);
    if (jumped == 2) {
        /* the watchdog: GLPK's state is abandoned, as after an internal error */
        glp_free_env();
        dls__glpk_guard *g = &c->guard;
        c->status = dls__fail(c->err, DLS_ELIMIT, c->doing, "stopped by the time limit of %.6g s "
                              "(after %.3g s), inside GLPK%s%s", c->time_limit,
                              dls__glpk_elapsed(g), g->stage[0] ? ": " : "", g->stage);
    } else if (jumped == 3) {
        /* the caller's progress callback asked to stop: abandoned as by the watchdog */
        glp_free_env();
        c->status = dls__fail(c->err, DLS_ECANCELED, c->doing, "canceled by the progress callback "
                              "(after %.3g s)", dls__glpk_elapsed(&c->guard));
    } else if (jumped != 0) {
        c->status = dls__glpk_failed(&c->guard, c->err, c->doing);
    } else {
        c->status = c->work(c->arg, &c->guard, c->err);
        dls__glpk_leave(&c->guard);
        glp_free_env(); /* this thread's environment: nothing is left behind */
    }
    dls__c_numeric_leave(&loc);
    return NULL;
}

dls_status dls__glpk_call(int verbose, double time_limit, const char *doing,
                          dls__glpk_work work, void *arg, int *stopped, dls_error *err)
{
    DLS__ASSERT(time_limit > 0);
    call c;
    memset(&c, 0, sizeof c);
    c.verbose = verbose;
    c.time_limit = time_limit;
    c.doing = doing;
    c.work = work;
    c.arg = arg;
    c.err = err;
    pthread_t t;
    int rc = pthread_create(&t, NULL, run, &c);
    if (rc != 0)
        return dls__fail(err, DLS_ENOMEM, doing, "cannot start a thread for GLPK: %s",
                         strerror(rc));
    pthread_join(t, NULL);
    if (stopped)
        *stopped = c.guard.stopped;
    return c.status;
}
