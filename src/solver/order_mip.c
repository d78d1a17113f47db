/* The best send order of the star as a mixed-integer program, solved with GLPK's branch and
 * bound: an independent check of the exact order search on small platforms (Drozdowski
 * 1997 gives the positional formulation).
 *
 * Slots j = 1..m of the send sequence; for position i of the star (lines a_l + b_l x) and
 * slot j:
 *     x_ij in {0, 1}                     i is served j-th
 *     0 <= y_ij <= U_i x_ij               its load there, U_i = min(B_i, V)
 *     e_j = e_{j-1} + sum_i (S_i x_ij + C_i y_ij)     (send_j: slot j's send ends; e_0 = 0)
 *     e_j + a_l x_ij + b_l y_ij <= T                   (finish_ijl, each line l of i)
 *     e_m <= T                                         (last: compute times are >= 0)
 *     sum_i x_ij <= 1,  sum_i x_i,j+1 <= sum_i x_ij     (slot_j, fill_j: filled in order)
 *     sum_j x_ij = 1  (paper model: every processor served, charged S_i and max_l a_l even
 *                      with no load)
 *              <= 1  (selection: a processor not served costs nothing)
 *     sum_ij y_ij = V,  minimise T.
 * The textbook's finishing row is e_j + a_l x_ij + b_l y_ij <= T + M (1 - x_ij). Here M = 0
 * is valid: when x_ij = 0 the load y_ij is 0 too and the row reads e_j <= T, which every
 * schedule satisfies (the sends end one after the other, e_j <= e_m <= T, the `last` row).
 * So no big constant enters the matrix and the relaxation is as tight as the formulation
 * allows; a known makespan (`upper`) only bounds T from above, cutting the search.
 *
 * A processor served with no load is charged in both models; in selection the optimum
 * never needs one (leaving it out is never worse), so the optimum is that of the
 * selection model, and the answer leaves such processors out of its order.
 *
 * Numerics. Loads are in units of V/m and times in units of a typical processor's time for
 * such a share (as in lp_star.c), so that coefficients are near 1. As in mip.c, neither
 * GLPK's scaling nor its cuts are used (both were seen to give wrong optima on star
 * programs). GLPK prunes a node whose bound is within tol_obj (1 + |T|) of the incumbent:
 * DLS__ORDER_MIP_TOL_OBJ keeps that far below the tolerance of the check. Once branch and
 * bound is done, the binaries are fixed and the LP of the order found is solved again
 * with tight tolerances (DLS__ORDER_MIP_POLISH_TOL), so that the loads are that order's
 * optimum to rounding, not within the node LPs' feasibility tolerance (1e-7). The answer is
 * then replayed through the star (dls__replay), and a replay that departs from the MIP's
 * makespan by more than DLS__ORDER_MIP_AGREE fails the call.
 *
 * Reach, measured (50 random platforms each, startups 0 to 2 s, one or two memory levels,
 * limits): the worst of 4 to 8 processors took 4 to 240 ms, the median 1 to 22 ms; from 9
 * processors on, the paper model now and then needs more than 20 s (its relaxation's bound
 * stays near the sum of the startups that every order pays), selection a few seconds. */
#include <config.h>

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "solver/glpk_guard.h"
#include "solver/solver.h"
#include "solver/triplets.h"

/* GLPK's pruning tolerance (relative; its default 1e-7 would let the optimum be missed by
 * that much). */
#define DLS__ORDER_MIP_TOL_OBJ 1e-10
/* GLPK's integrality tolerance (its default is 1e-5). A binary x_ij at 1e-5 instead of 0
 * lets y_ij <= U_i x_ij carry 1e-5 of the load to a slot charged 1e-5 of a startup: a
 * leak measured at 1.1e-5 of the makespan with the default. */
#define DLS__ORDER_MIP_TOL_INT 1e-10
/* The feasibility and optimality tolerances of the last solve of the order's LP (GLPK's
 * defaults are 1e-7): the basis it stops at is then the optimal one for all but
 * near-degenerate ties, and its vertex exact to rounding. */
#define DLS__ORDER_MIP_POLISH_TOL 1e-11
/* The replayed makespan and the MIP's must agree within this (relative): the MIP's rows
 * hold within GLPK's feasibility tolerance, 1e-7 of the scaled values (the order's LP
 * solved again, when it worked, makes them agree to rounding). */
#define DLS__ORDER_MIP_AGREE 1e-6
/* upper is a makespan that some schedule reaches, computed by someone else in floating
 * point: T may go this much (relative) above it, so that its rounding cannot cut off the
 * schedule it comes from. */
#define DLS__ORDER_MIP_UPPER_SLACK 1e-9
/* In selection, loads at or below this fraction of V count as none (as in lp_star.c): the
 * processor is left out rather than charged for a rounding residue. */
#define DLS__ORDER_MIP_ZERO_LOAD_REL 1e-12
/* The relaxation before branch and bound: at most this many simplex iterations, plus this
 * many per row and column (as the LP's, lp_star.c). */
#define DLS__ORDER_MIP_ITERATIONS_BASE 10000ul
#define DLS__ORDER_MIP_ITERATIONS_PER 20ul

/* The layout of the program: columns x, y (m x m each, position-major), e (m), T. */
typedef struct layout {
    size_t m;
    int charge_all;
    double u, tau;      /* load and time units */
    double upper;       /* cutoff on T in time units, INFINITY: none */
    int ncols, nrows;
    dls__triplets t;    /* the matrix, its room reserved (nnz_bound) before GLPK runs */
} layout;

static int col_x(const layout *L, size_t i, size_t j) { return 1 + (int)(i * L->m + j); }
static int col_y(const layout *L, size_t i, size_t j)
{
    return 1 + (int)(L->m * L->m + i * L->m + j);
}
static int col_e(const layout *L, size_t j) { return 1 + (int)(2 * L->m * L->m + j); }
static int col_T(const layout *L) { return 1 + (int)(2 * L->m * L->m + L->m); }

/* What branch and bound found, kept outside GLPK's memory: when the watchdog stops GLPK
 * inside a node's LP (see glpk_guard.h), the incumbent so far is still known. */
typedef struct found {
    double *x, *y;      /* m x m each, scaled */
    double T;           /* scaled */
    int have;
    double bound;       /* best bound of the active nodes seen (scaled), -INFINITY: none */
} found;

/* The work done in GLPK's thread. */
typedef struct work {
    const dls__star *st;
    layout *L;
    found best;
    int status;         /* glp_mip_status, or 0 when branch and bound did not end */
    int ret;            /* glp_intopt's code */
    int relaxation_stopped;
    int polished;
    double *pol_y;      /* the order's LP solved again: loads (m x m, scaled), makespan */
    double pol_T;
} work;

static size_t nnz_bound(const dls__star *st)
{
    size_t m = st->m, lines = st->off[m] - st->off[0];
    /* send: e_j, e_j-1 and 2 per position; cap: 2; finish: 4 per line; slot, fill (2),
     * assign, load: 1 each per x or y; last: 2 */
    return m * (2 + 2 * m) + 2 * m * m + 4 * lines * m + m * m + 2 * m * m + m * m + m * m + 2;
}

static glp_prob *build(const dls__star *st, layout *L)
{
    size_t m = st->m;
    double u = L->u, tau = L->tau;
    dls__triplets_clear(&L->t);
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, L->ncols);
    glp_add_rows(P, L->nrows);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            glp_set_col_kind(P, col_x(L, i, j), GLP_BV);
            double U = fmin(st->B[i], st->V) / u;
            glp_set_col_bnds(P, col_y(L, i, j), GLP_DB, 0, U);
        }
    for (size_t j = 0; j < m; j++)
        glp_set_col_bnds(P, col_e(L, j), GLP_LO, 0, 0);
    if (isfinite(L->upper))
        glp_set_col_bnds(P, col_T(L), GLP_DB, 0, L->upper);
    else
        glp_set_col_bnds(P, col_T(L), GLP_LO, 0, 0);
    glp_set_obj_coef(P, col_T(L), 1);

    int row = 0;
    /* send_j: e_j - e_j-1 - sum_i (S_i x_ij + C_i y_ij) = 0 */
    for (size_t j = 0; j < m; j++) {
        glp_set_row_bnds(P, ++row, GLP_FX, 0, 0);
        dls__triplets_put(&L->t, row, col_e(L, j), 1);
        if (j > 0)
            dls__triplets_put(&L->t, row, col_e(L, j - 1), -1);
        for (size_t i = 0; i < m; i++) {
            dls__triplets_put(&L->t, row, col_x(L, i, j), -st->S[i] / tau);
            dls__triplets_put(&L->t, row, col_y(L, i, j), -st->C[i] * u / tau);
        }
    }
    /* cap_ij: y_ij - U_i x_ij <= 0 */
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            glp_set_row_bnds(P, ++row, GLP_UP, 0, 0);
            dls__triplets_put(&L->t, row, col_y(L, i, j), 1);
            dls__triplets_put(&L->t, row, col_x(L, i, j), -fmin(st->B[i], st->V) / u);
        }
    /* finish_ijl: e_j + a_l x_ij + b_l y_ij - T <= 0 */
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            for (size_t l = st->off[i]; l < st->off[i + 1]; l++) {
                glp_set_row_bnds(P, ++row, GLP_UP, 0, 0);
                dls__triplets_put(&L->t, row, col_e(L, j), 1);
                dls__triplets_put(&L->t, row, col_x(L, i, j), st->a[l] / tau);
                dls__triplets_put(&L->t, row, col_y(L, i, j), st->b[l] * u / tau);
                dls__triplets_put(&L->t, row, col_T(L), -1);
            }
    /* last: e_m - T <= 0 */
    glp_set_row_bnds(P, ++row, GLP_UP, 0, 0);
    dls__triplets_put(&L->t, row, col_e(L, m - 1), 1);
    dls__triplets_put(&L->t, row, col_T(L), -1);
    /* slot_j: one processor at most (the paper's model fills every slot) */
    for (size_t j = 0; j < m; j++) {
        if (L->charge_all)
            glp_set_row_bnds(P, ++row, GLP_FX, 1, 1);
        else
            glp_set_row_bnds(P, ++row, GLP_UP, 0, 1);
        for (size_t i = 0; i < m; i++)
            dls__triplets_put(&L->t, row, col_x(L, i, j), 1);
    }
    /* fill_j (selection): sum_i x_i,j+1 - sum_i x_ij <= 0 */
    for (size_t j = 0; !L->charge_all && j + 1 < m; j++) {
        glp_set_row_bnds(P, ++row, GLP_UP, 0, 0);
        for (size_t i = 0; i < m; i++) {
            dls__triplets_put(&L->t, row, col_x(L, i, j + 1), 1);
            dls__triplets_put(&L->t, row, col_x(L, i, j), -1);
        }
    }
    /* assign_i: served once (paper), at most once (selection) */
    for (size_t i = 0; i < m; i++) {
        if (L->charge_all)
            glp_set_row_bnds(P, ++row, GLP_FX, 1, 1);
        else
            glp_set_row_bnds(P, ++row, GLP_UP, 0, 1);
        for (size_t j = 0; j < m; j++)
            dls__triplets_put(&L->t, row, col_x(L, i, j), 1);
    }
    /* load: sum y = V */
    glp_set_row_bnds(P, ++row, GLP_FX, st->V / u, st->V / u);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            dls__triplets_put(&L->t, row, col_y(L, i, j), 1);
    DLS__ASSERT(row == L->nrows);
    dls_status loaded = dls__triplets_load(&L->t, P);
    DLS__ASSERT(loaded == DLS_OK && L->t.n <= nnz_bound(st)); /* within the room reserved */
    return P;
}

static void read_point(glp_prob *P, const layout *L, int mip, found *f)
{
    size_t m = L->m;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            f->x[i * m + j] = mip ? glp_mip_col_val(P, col_x(L, i, j))
                                  : glp_get_col_prim(P, col_x(L, i, j));
            f->y[i * m + j] = mip ? glp_mip_col_val(P, col_y(L, i, j))
                                  : glp_get_col_prim(P, col_y(L, i, j));
        }
    f->T = mip ? glp_mip_obj_val(P) : glp_get_obj_val(P);
    f->have = 1;
}

static void callback(glp_tree *T, void *info)
{
    work *w = info;
    switch (glp_ios_reason(T)) {
    case GLP_IBINGO:
        read_point(glp_ios_get_prob(T), w->L, 1, &w->best);
        /* fall through */
    case GLP_ISELECT: {
        int node = glp_ios_best_node(T);
        if (node)
            w->best.bound = glp_ios_node_bound(T, node);
        break;
    }
    default:
        break;
    }
}

/* The LP of the order found: the binaries fixed, solved again by the simplex, then once
 * more with tight tolerances from its basis. Sets w->polished when both reach an optimum.
 * (Not glp_exact: it reads each coefficient as a nearby simple fraction, within 1e-9
 * relative, so its optimum is that of a slightly different LP, measured 1.4e-10 off here.) */
static void polish(glp_prob *P, work *w, const dls__glpk_guard *g)
{
    const layout *L = w->L;
    size_t m = L->m;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            double v = w->best.x[i * m + j] > 0.5 ? 1 : 0;
            glp_set_col_kind(P, col_x(L, i, j), GLP_CV);
            glp_set_col_bnds(P, col_x(L, i, j), GLP_FX, v, v);
        }
    glp_smcp sm;
    dls__glpk_smcp(g, &sm, DLS__ORDER_MIP_ITERATIONS_BASE);
    glp_adv_basis(P, 0);
    if (glp_simplex(P, &sm) != 0 || glp_get_status(P) != GLP_OPT)
        return;
    dls__glpk_smcp(g, &sm, DLS__ORDER_MIP_ITERATIONS_BASE);
    sm.tol_bnd = DLS__ORDER_MIP_POLISH_TOL;
    sm.tol_dj = DLS__ORDER_MIP_POLISH_TOL;
    if (glp_simplex(P, &sm) != 0 || glp_get_status(P) != GLP_OPT)
        return;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            w->pol_y[i * m + j] = glp_get_col_prim(P, col_y(L, i, j));
    w->pol_T = glp_get_obj_val(P);
    w->polished = 1;
}

static dls_status solve(void *arg, dls__glpk_guard *g, dls_error *err)
{
    work *w = arg;
    layout *L = w->L;
    dls__glpk_stage(g, "building the order MIP");
    glp_prob *P = build(w->st, L);
    /* the relaxation first: branch and bound without presolve starts from its basis */
    glp_smcp sm;
    unsigned long its = DLS__ORDER_MIP_ITERATIONS_BASE +
                        DLS__ORDER_MIP_ITERATIONS_PER * (unsigned long)(L->nrows + L->ncols);
    dls__glpk_smcp(g, &sm, its);
    dls__glpk_stage(g, "the order MIP's relaxation (simplex)");
    glp_adv_basis(P, 0);
    int ret = glp_simplex(P, &sm);
    if (ret == GLP_ETMLIM) {
        glp_delete_prob(P);
        w->relaxation_stopped = 1;
        return DLS_OK;
    }
    if (ret != 0 || glp_get_status(P) != GLP_OPT) {
        int s = glp_get_status(P), n = glp_get_it_cnt(P);
        glp_delete_prob(P);
        if (ret == 0 && s == GLP_NOFEAS) {
            w->status = GLP_NOFEAS;
            return DLS_OK;
        }
        return dls__fail(err, ret == GLP_EITLIM ? DLS_ELIMIT : DLS_ESOLVER, NULL,
                         "order mip: the relaxation failed (glp_simplex returned %d after %d "
                         "iterations, status %d)", ret, n, s);
    }
    /* no bound from branch and bound yet: the relaxation's */
    w->best.bound = glp_get_obj_val(P);
    glp_iocp io;
    glp_init_iocp(&io);
    /* progress goes to the guard's hook, the watchdog of the node LPs (no limit of their
     * own) */
    io.msg_lev = GLP_MSG_ON;
    io.out_frq = DLS__GLPK_POLL_MS;
    io.presolve = GLP_OFF;
    io.tol_obj = DLS__ORDER_MIP_TOL_OBJ;
    io.tol_int = DLS__ORDER_MIP_TOL_INT;
    io.tm_lim = dls__glpk_tm_lim(g);
    io.br_tech = GLP_BR_DTH;
    io.bt_tech = GLP_BT_BLB;
    io.cb_func = callback;
    io.cb_info = w;
    dls__glpk_stage(g, "the order MIP's branch and bound");
    ret = glp_intopt(P, &io);
    w->ret = ret;
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_ENOPFS && ret != GLP_ENODFS) {
        glp_delete_prob(P);
        return dls__fail(err, DLS_ESOLVER, NULL, "order mip: glp_intopt failed (code %d)", ret);
    }
    w->status = glp_mip_status(P);
    if (w->status == GLP_OPT || w->status == GLP_FEAS) {
        read_point(P, L, 1, &w->best);
        dls__glpk_stage(g, "the LP of the order found");
        polish(P, w, g);
    }
    glp_delete_prob(P);
    return DLS_OK;
}

/* The star of positions idx[0..n) of st, in that order, in arrays of its own. */
static int substar(const dls__star *st, const size_t *idx, size_t n, dls__star *sub)
{
    memset(sub, 0, sizeof *sub);
    size_t lines = 0;
    for (size_t k = 0; k < n; k++)
        lines += st->off[idx[k] + 1] - st->off[idx[k]];
    sub->m = n;
    sub->V = st->V;
    sub->proc = malloc((n + 1) * sizeof *sub->proc);
    sub->S = malloc((n + 1) * sizeof *sub->S);
    sub->C = malloc((n + 1) * sizeof *sub->C);
    sub->B = malloc((n + 1) * sizeof *sub->B);
    sub->off = malloc((n + 1) * sizeof *sub->off);
    sub->a = malloc((lines + 1) * sizeof *sub->a);
    sub->b = malloc((lines + 1) * sizeof *sub->b);
    sub->from_speed = calloc(n + 1, sizeof *sub->from_speed);
    sub->model = malloc((n + 1) * sizeof *sub->model);
    if (!sub->proc || !sub->S || !sub->C || !sub->B || !sub->off || !sub->a || !sub->b ||
        !sub->from_speed || !sub->model) {
        dls__star_free(sub);
        return -1;
    }
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = idx[k];
        sub->proc[k] = st->proc ? st->proc[i] : i;
        sub->S[k] = st->S[i];
        sub->C[k] = st->C[i];
        sub->B[k] = st->B[i];
        sub->from_speed[k] = st->from_speed ? st->from_speed[i] : 0;
        sub->model[k] = st->model ? st->model[i] : NULL;
        sub->off[k] = at;
        for (size_t l = st->off[i]; l < st->off[i + 1]; l++, at++) {
            sub->a[at] = st->a[l];
            sub->b[at] = st->b[l];
        }
    }
    sub->off[n] = at;
    return 0;
}

/* The processor a message names: its platform index when the star has one. */
static long proc_of(const dls__star *st, size_t i) { return st->proc ? (long)st->proc[i] : (long)i; }

static dls_status check_args(const dls__star *st, int charge_all, double time_limit,
                             double upper, dls_error *err)
{
    if (st == NULL)
        return dls__fail(err, DLS_EINVAL, NULL, "order mip: the star is NULL");
    if (st->m == 0)
        return dls__fail(err, DLS_EINVAL, NULL, "order mip: the star has no processor");
    if (st->m > DLS__ORDER_MIP_MAX_POSITIONS)
        return dls__fail(err, DLS_ELIMIT, NULL,
                         "order mip: %zu processors, more than the %d the MIP "
                         "takes (%zu binaries)", st->m, DLS__ORDER_MIP_MAX_POSITIONS,
                         st->m * st->m);
    if (charge_all != 0 && charge_all != 1)
        return dls__fail(err, DLS_EINVAL, NULL, "order mip: charge_all must be 0 or 1, not %d",
                         charge_all);
    if (!(time_limit > 0 && time_limit <= DLS_TIME_LIMIT_MAX))
        return dls__fail(err, DLS_EINVAL, NULL,
                         "order mip: time_limit must be seconds in (0, %g], " "not %.10g",
                         DLS_TIME_LIMIT_MAX, time_limit);
    if (!(upper > 0))
        return dls__fail(err, DLS_EINVAL, NULL, "order mip: upper must be a makespan > 0 or "
                         "INFINITY, not %.10g", upper);
    if (!(st->V > 0 && isfinite(st->V)))
        return dls__fail(err, DLS_EINVAL, NULL, "order mip: the load must be finite and > 0, not "
                         "%.10g", st->V);
    for (size_t i = 0; i < st->m; i++) {
        if (!(st->S[i] >= 0 && isfinite(st->S[i]) && st->C[i] >= 0 && isfinite(st->C[i])))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, proc_of(st, i), NULL,
                                "order mip: position %zu "
                                "(processor %ld) has a link of startup %.10g s and rate %.10g "
                                "s per unit: both must be finite and >= 0", i, proc_of(st, i),
                                st->S[i], st->C[i]);
        if (!(st->B[i] > 0))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, proc_of(st, i), NULL,
                                "order mip: position %zu "
                                "(processor %ld) has the limit %.10g: it must be > 0 or "
                                "INFINITY", i, proc_of(st, i), st->B[i]);
        if (st->off[i + 1] <= st->off[i])
            return dls__fail_at(err, DLS_EINVAL, 0, 0, proc_of(st, i), NULL,
                                "order mip: position %zu "
                                "(processor %ld) has no time line (build the star with lines)", i,
                                proc_of(st, i));
        for (size_t l = st->off[i]; l < st->off[i + 1]; l++)
            if (!(isfinite(st->a[l]) && st->b[l] >= 0 && isfinite(st->b[l])))
                return dls__fail_at(err, DLS_EINVAL, 0, 0, proc_of(st, i), NULL, "order mip: "
                                    "position %zu (processor %ld) has the time line %.10g + "
                                    "%.10g x: a must be finite, b finite and >= 0", i,
                                    proc_of(st, i), st->a[l], st->b[l]);
    }
    return DLS_OK;
}

/* The units: a share of V/m, and the median time a processor takes for it, send included
 * (lp_star.c's choice). */
static void units(const dls__star *st, double *scratch, double *u, double *tau)
{
    size_t m = st->m;
    double share = st->V / (double)m;
    for (size_t i = 0; i < m; i++) {
        double x = fmin(share, st->B[i]), top = 0;
        for (size_t l = st->off[i]; l < st->off[i + 1]; l++)
            top = fmax(top, st->a[l] + st->b[l] * x);
        scratch[i] = st->S[i] + st->C[i] * x + top;
    }
    dls__sort_doubles(scratch, m);
    double med = scratch[m / 2];
    *u = share;
    *tau = med > 0 && isfinite(med) ? med : 1;
}

/* The order read from the MIP's x, slot by slot (placed, np positions; in: 1 for each
 * placed), and its loads from y, within the limits. */
static dls_status read_order(const dls__star *st, const work *w, const double *y,
                             dls__order_mip_answer *ans, size_t *placed, size_t *np,
                             unsigned char *in, dls_error *err)
{
    const layout *L = w->L;
    size_t m = st->m;
    *np = 0;
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++)
            if (w->best.x[i * m + j] > 0.5) {
                if (in[i])
                    return dls__fail_at(err, DLS_ENUMERIC, 0, 0, proc_of(st, i), NULL,
                                        "order mip: "
                                        "the MIP serves position %zu (processor %ld) twice", i,
                                        proc_of(st, i));
                in[i] = 1;
                placed[(*np)++] = i;
                ans->load[i] = fmax(0, fmin(y[i * m + j] * L->u, fmin(st->B[i], st->V)));
            }
    if (*np == 0 || (L->charge_all && *np != m))
        return dls__fail(err, DLS_ENUMERIC, NULL,
                         "order mip: the MIP's answer serves %zu of the %zu " "processors", *np, m);
    return DLS_OK;
}

/* The loads cleaned: in selection a rounding residue is no load (the processor is left
 * out); the residue of the solver's rounding of their sum goes to the largest. */
static void clean_order_loads(const dls__star *st, const layout *L, const size_t *placed,
                              size_t np, dls__order_mip_answer *ans)
{
    if (!L->charge_all)
        for (size_t k = 0; k < np; k++)
            if (ans->load[placed[k]] <= DLS__ORDER_MIP_ZERO_LOAD_REL * st->V)
                ans->load[placed[k]] = 0;
    double sum = 0;
    size_t big = placed[0];
    for (size_t k = 0; k < np; k++) {
        sum += ans->load[placed[k]];
        if (ans->load[placed[k]] > ans->load[big])
            big = placed[k];
    }
    double fix = st->V - sum, nb = ans->load[big] + fix;
    if (nb >= 0 && nb <= fmin(st->B[big], st->V))
        ans->load[big] = nb;
}

/* The replay of the MIP's own model (every processor it placed charged, load or not)
 * agrees with its makespan T (x: scratch of np loads). */
static dls_status check_own(const dls__star *st, const work *w, double T,
                            const dls__order_mip_answer *ans, const size_t *placed, size_t np,
                            double *x, dls_error *err)
{
    const layout *L = w->L;
    dls__star sub;
    memset(&sub, 0, sizeof sub);
    if (substar(st, placed, np, &sub) != 0) {
        dls__star_free(&sub);
        return dls__oom(err, "order mip");
    }
    for (size_t k = 0; k < np; k++)
        x[k] = ans->load[placed[k]];
    double own = dls__replay(&sub, x, NULL, 1, 0, NULL, NULL, NULL, NULL, NULL);
    dls__star_free(&sub);
    /* GLPK's tolerances are absolute in the time unit: unpolished, the MIP's rows may miss
     * by that much however small T is */
    double scale = fmax(fabs(own), fabs(T));
    if (!w->polished)
        scale = fmax(scale, L->tau);
    if (!(fabs(own - T) <= DLS__ORDER_MIP_AGREE * scale))
        return dls__fail(err, DLS_ENUMERIC, NULL, "order mip: the order and loads found replay to "
                         "%.17g s, the MIP says %.17g s (difference %.3g of %.6g s, beyond %g)",
                         own, T, fabs(own - T), scale, DLS__ORDER_MIP_AGREE);
    return DLS_OK;
}

/* The schedule: the placed processors (in selection, those sent a load) in ans->order and
 * its replay in ans->makespan, then the others in position order, with no load. */
static dls_status order_schedule(const dls__star *st, const layout *L, double T,
                                 const size_t *placed, size_t np, double *x, unsigned char *in,
                                 dls__order_mip_answer *ans, dls_error *err)
{
    size_t m = st->m, used = 0;
    for (size_t k = 0; k < np; k++)
        if (L->charge_all || ans->load[placed[k]] > 0)
            ans->order[used++] = placed[k];
    ans->count = used;
    for (size_t k = 0; k < used; k++)
        x[k] = ans->load[ans->order[k]];
    dls__star sub;
    memset(&sub, 0, sizeof sub);
    if (substar(st, ans->order, used, &sub) != 0) {
        dls__star_free(&sub);
        return dls__oom(err, "order mip");
    }
    ans->makespan = dls__replay(&sub, x, NULL, L->charge_all, 0, NULL, NULL, NULL, NULL, NULL);
    dls__star_free(&sub);
    /* leaving out a processor sent nothing never costs; an optimum it improves was none */
    if (ans->status == DLS_SOLUTION_OPTIMAL &&
        ans->makespan < T - DLS__ORDER_MIP_AGREE * fabs(T))
        return dls__fail(err, DLS_ENUMERIC, NULL,
                         "order mip: the MIP's optimum %.17g s is not one: "
                         "without the processors it sends nothing the schedule replays to "
                         "%.17g s", T, ans->makespan);
    memset(in, 0, m);
    for (size_t k = 0; k < used; k++)
        in[ans->order[k]] = 1;
    for (size_t i = 0, at = used; i < m; i++)
        if (!in[i]) {
            ans->order[at++] = i;
            ans->load[i] = 0;
        }
    return DLS_OK;
}

/* The answer from what GLPK found: the order, clean loads, the replays and their checks. */
static dls_status finish(const dls__star *st, const work *w, dls__order_mip_answer *ans,
                         dls_error *err)
{
    const layout *L = w->L;
    size_t m = st->m, np = 0;
    const double *y = w->polished ? w->pol_y : w->best.y;
    double T = (w->polished ? w->pol_T : w->best.T) * L->tau;
    ans->mip_makespan = w->best.T * L->tau;
    ans->polished = w->polished;
    size_t *placed = malloc(m * sizeof *placed); /* slot by slot, the position placed there */
    unsigned char *in = calloc(m, 1);
    double *x = calloc(m, sizeof *x);
    dls_status res = DLS_OK;
    if (placed == NULL || in == NULL || x == NULL)
        res = dls__oom(err, "order mip");
    if (res == DLS_OK)
        res = read_order(st, w, y, ans, placed, &np, in, err);
    if (res == DLS_OK) {
        clean_order_loads(st, L, placed, np, ans);
        res = check_own(st, w, T, ans, placed, np, x, err);
    }
    if (res == DLS_OK)
        res = order_schedule(st, L, T, placed, np, x, in, ans, err);
    free(placed);
    free(in);
    free(x);
    return res;
}

void dls__order_mip_answer_free(dls__order_mip_answer *ans)
{
    if (ans == NULL)
        return;
    free(ans->order);
    free(ans->load);
    ans->order = NULL;
    ans->load = NULL;
    ans->count = 0;
}

dls_status dls__order_mip_solve(const dls__star *st, int charge_all, double time_limit,
                                double upper, dls__order_mip_answer *ans, dls_error *err)
{
    if (ans == NULL)
        return dls__fail(err, DLS_EINVAL, NULL, "order mip: the answer is NULL");
    memset(ans, 0, sizeof *ans);
    ans->status = DLS_SOLUTION_NONE;
    ans->makespan = ans->mip_makespan = ans->bound = NAN;
    dls_status res = check_args(st, charge_all, time_limit, upper, err);
    if (res != DLS_OK)
        return res;
    size_t m = st->m;
    ans->m = m;
    ans->order = malloc(m * sizeof *ans->order);
    ans->load = calloc(m, sizeof *ans->load);
    layout L;
    memset(&L, 0, sizeof L);
    L.m = m;
    L.charge_all = charge_all;
    L.ncols = (int)(2 * m * m + m + 1);
    L.nrows = (int)(m + m * m + (st->off[m] - st->off[0]) * m + 1 + m +
                    (charge_all ? 0 : m - 1) + m + 1);
    dls__triplets_init(&L.t);
    dls_status roomy = dls__triplets_reserve(&L.t, nnz_bound(st));
    work w;
    memset(&w, 0, sizeof w);
    w.st = st;
    w.L = &L;
    w.best.x = calloc(m * m, sizeof(double));
    w.best.y = calloc(m * m, sizeof(double));
    w.best.bound = -INFINITY;
    w.pol_y = calloc(m * m, sizeof(double));
    double *scratch = malloc(m * sizeof *scratch);
    if (!ans->order || !ans->load || roomy != DLS_OK || !w.best.x || !w.best.y ||
        !w.pol_y || !scratch) {
        res = dls__oom(err, "order mip");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        ans->order[i] = i;
    units(st, scratch, &L.u, &L.tau);
    L.upper = isfinite(upper) ? upper * (1 + DLS__ORDER_MIP_UPPER_SLACK) / L.tau : INFINITY;
    ans->binaries = m * m;
    ans->rows = (size_t)L.nrows;
    ans->cols = (size_t)L.ncols;

    double t0 = dls__glpk_now();
    int stopped = 0;
    dls_error quiet;
    res = dls__glpk_call(0, time_limit, "order mip", solve, &w, &stopped, &quiet);
    ans->seconds = dls__glpk_now() - t0;
    if (stopped) {
        /* the watchdog stopped GLPK inside a node's LP: the outcome of the time limit, with
         * the incumbent the callback kept */
        res = DLS_OK;
        w.status = w.best.have ? GLP_FEAS : GLP_UNDEF;
        w.ret = GLP_ETMLIM;
    } else if (res != DLS_OK) {
        if (err != NULL)
            *err = quiet;
        goto done;
    }
    ans->time_limited = w.relaxation_stopped || w.ret == GLP_ETMLIM;
    double bound = isfinite(w.best.bound) ? fmax(0, w.best.bound * L.tau) : 0;
    if (w.status == GLP_OPT || w.status == GLP_FEAS) {
        ans->status = w.status == GLP_OPT ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
        res = finish(st, &w, ans, err);
        ans->bound = ans->status == DLS_SOLUTION_OPTIMAL ? ans->mip_makespan
                                                         : fmin(bound, ans->mip_makespan);
    } else if (w.status == GLP_NOFEAS) {
        ans->status = DLS_SOLUTION_INFEASIBLE;
    } else {
        ans->status = DLS_SOLUTION_NOT_FOUND;
        ans->bound = w.relaxation_stopped ? 0 : bound;
    }
done:
    dls__triplets_free(&L.t);
    free(w.best.x);
    free(w.best.y);
    free(w.pol_y);
    free(scratch);
    if (res != DLS_OK || ans->count == 0) {
        /* no schedule: nothing served, nothing loaded */
        ans->count = 0;
        ans->makespan = NAN;
        if (ans->load)
            memset(ans->load, 0, m * sizeof *ans->load);
    }
    return res;
}
