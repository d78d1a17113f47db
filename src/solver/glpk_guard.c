/* GLPK's error hook and terminal output, handled so that the caller's process never sees
 * GLPK print or abort (see glpk_guard.h). */
#include <config.h>

#include <glpk.h>
#include <string.h>

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
    g->old_term = glp_term_out(GLP_ON);
    if (!verbose)
        glp_term_hook(capture, g);
    glp_error_hook(on_error, g);
}

void dls__glpk_leave(dls__glpk_guard *g)
{
    glp_error_hook(NULL, NULL);
    if (!g->verbose)
        glp_term_hook(NULL, NULL);
    glp_term_out(g->old_term);
}

dls_status dls__glpk_failed(dls__glpk_guard *g, dls_error *err, const char *doing)
{
    /* GLPK's state is unusable after an error: free its environment (it is recreated on
     * the next call) */
    glp_free_env();
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    glp_term_out(g->old_term);
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
