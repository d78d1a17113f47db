/* GLPK in a thread of its own, silent and unable to abort (see glpk_guard.h). */
#include <config.h>

#include <errno.h>
#include <glpk.h>
#include <pthread.h>
#include <string.h>

#include "core/locale.h"
#include "solver/glpk_guard.h"

/* Keeps the end of GLPK's output instead of printing it. */
static int capture(void *info, const char *s)
{
    dls__glpk_guard *g = info;
    size_t have = strlen(g->tail), add = strlen(s);
    if (add >= DLS_GLPK_OUTPUT_TAIL) {
        s += add - (DLS_GLPK_OUTPUT_TAIL - 1);
        add = DLS_GLPK_OUTPUT_TAIL - 1;
    }
    if (have + add >= DLS_GLPK_OUTPUT_TAIL) {
        size_t drop = have + add - (DLS_GLPK_OUTPUT_TAIL - 1);
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

void dls__glpk_enter(dls__glpk_guard *g, int verbose)
{
    g->tail[0] = '\0';
    g->verbose = verbose;
    glp_term_out(GLP_ON);
    if (!verbose)
        glp_term_hook(capture, g);
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
    /* GLPK's message spans lines ("glp_...: what" then "Error detected in file ...") */
    size_t len = strlen(g->tail);
    while (len > 0 && (g->tail[len - 1] == '\n' || g->tail[len - 1] == ' '))
        g->tail[--len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (g->tail[i] == '\n')
            g->tail[i] = ' ';
    return dls__fail(err, DLS_ESOLVER, "%s: GLPK internal error%s%s", doing,
                     g->tail[0] ? ": " : "", g->tail);
}

typedef struct call {
    int verbose;
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
        c->status = dls__fail(c->err, DLS_ENOMEM, "%s: out of memory", c->doing);
        return NULL;
    }
    /* GLPK would create the environment at its first call, and abort() if that failed:
     * create it here, where a failure can be reported */
    int init = glp_init_env();
    if (init != 0 && init != 1) {
        c->status = init == 2 ? dls__fail(c->err, DLS_ENOMEM, "%s: out of memory", c->doing)
                              : dls__fail(c->err, DLS_ESOLVER, "%s: GLPK could not start "
                                          "(glp_init_env returned %d)", c->doing, init);
        dls__c_numeric_leave(&loc);
        return NULL;
    }
    dls__glpk_enter(&c->guard, c->verbose);
    if (setjmp(c->guard.env) != 0) {
        c->status = dls__glpk_failed(&c->guard, c->err, c->doing);
    } else {
        c->status = c->work(c->arg, &c->guard, c->err);
        dls__glpk_leave(&c->guard);
        glp_free_env(); /* this thread's environment: nothing is left behind */
    }
    dls__c_numeric_leave(&loc);
    return NULL;
}

dls_status dls__glpk_call(int verbose, const char *doing, dls__glpk_work work, void *arg,
                          dls_error *err)
{
    call c;
    memset(&c, 0, sizeof c);
    c.verbose = verbose;
    c.doing = doing;
    c.work = work;
    c.arg = arg;
    c.err = err;
    pthread_t t;
    int rc = pthread_create(&t, NULL, run, &c);
    if (rc != 0)
        return dls__fail(err, DLS_ENOMEM, "%s: cannot start a thread for GLPK: %s", doing,
                         strerror(rc));
    pthread_join(t, NULL);
    return c.status;
}
