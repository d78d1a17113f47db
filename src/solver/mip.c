/* Mixed-integer versions of the star schedule, solved with GLPK's branch and bound:
 * whole-unit loads, the exact (non-convex) shape of measured time functions, and the
 * choice of which processors to use (a processor sent nothing pays no startup).
 *
 * Per position k (send order), with U_k = min(limit_k, V):
 *     y_k in {0, 1}                   used (only when a startup or a time jump at 0 needs it)
 *     alpha_k <= U_k y_k
 *     T_k = T_{k-1} + S_k y_k + C_k alpha_k           (the sends, T_0 = 0)
 *     T_k + c_k <= Cmax
 * and the compute time c_k either
 *     c_k >= a_l y_k + b_l alpha_k     for each line l  (convex: time lines, envelopes, or a
 *                                                        convex piecewise-linear shape), or
 *     piecewise linear through breakpoints x_0 = 0 < ... < x_K = U_k, cut into maximal
 *     convex runs r with one binary each: sum_r w_kr = y_k, lo_r w_kr <= lambda_kr <=
 *     hi_r w_kr, alpha_k = sum_r lambda_kr, c_kr >= a_j w_kr + b_j lambda_kr for the
 *     segments j of run r, and c_k >= sum_r c_kr (a run is convex, so its segments' lines
 *     give its time exactly; cache effects make only a few runs).
 * A measured (points) model's time x / s(x) is approximated between its breakpoints by
 * chords within a relative tolerance, or, for whole-unit loads on a small range, taken at
 * every whole size (exact at the sizes that can occur). Without communication the sends
 * vanish and Cmax >= c_k: the problem of the geometric partitioners. */
#include <config.h>

#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/glpk_guard.h"
#include "core/grow.h"
#include "solver/solver.h"
#include "solver/triplets.h"

/* Recursion depth of the chord refinement (2^depth pieces per measured interval at most). */
#define DLS__MIP_MAX_REFINE_DEPTH 20
/* Integrality tolerance of the loads read back (GLPK's default is 1e-5). */
#define DLS__MIP_INT_TOL 1e-7
/* The automatic iteration limit of the relaxation: this many, plus DLS__MIP_AUTO_ITERATIONS_PER
 * per row and column (as the LP's, lp_star.c). */
#define DLS__MIP_AUTO_ITERATIONS_BASE 10000ul
#define DLS__MIP_AUTO_ITERATIONS_PER 20ul
/* Loads at or below this fraction of V count as none (as in lp_star.c). */
#define DLS__MIP_ZERO_LOAD_REL 1e-12

/* The compute-time description of one position. */
typedef struct shape {
    int convex;          /* lines suffice */
    size_t nl;           /* lines (convex) */
    double *a, *b;
    size_t K;            /* segments (non-convex): breakpoints x[0..K], times t[0..K] */
    double *x, *t;
    size_t R;            /* convex runs: run r spans breakpoints run[r] .. run[r + 1] */
    size_t *run;
    int jump;            /* the time jumps at 0+ (a line with a > 0): y is needed */
    double tol;          /* how far (relative) it may stand from the true time */
} shape;

static void shape_free(shape *s)
{
    free(s->a);
    free(s->b);
    free(s->x);
    free(s->t);
    free(s->run);
    memset(s, 0, sizeof *s);
}

/* A growing list of breakpoints. */
typedef struct pts {
    double *x, *t;
    size_t n, cap;
} pts;

static int pts_add(pts *p, double x, double t)
{
    /* parallel arrays: each grows to the same capacity, the shared one set when both did */
    size_t cx = p->cap, ct = p->cap;
    double *nx = dls__grow(p->x, &cx, p->n + 1, sizeof *nx);
    if (nx == NULL)
        return -1;
    p->x = nx;
    double *nt = dls__grow(p->t, &ct, p->n + 1, sizeof *nt);
    if (nt == NULL)
        return -1;
    p->t = nt;
    p->cap = cx;
    p->x[p->n] = x;
    p->t[p->n] = t;
    p->n++;
    return 0;
}

static double tm(const dls_model *m, double x) { return x > 0 ? dls_model_time(m, x) : 0; }

/* Adds the breakpoints inside (l, r] so that every chord is within tol of the time. */
static int refine(pts *p, const dls_model *m, double l, double tl, double r, double tr,
                  double tol, int depth, size_t budget)
{
    double mid = 0.5 * (l + r), tmid = tm(m, mid);
    double chord = 0.5 * (tl + tr);
    if (depth < DLS__MIP_MAX_REFINE_DEPTH && p->n < budget &&
        fabs(tmid - chord) > tol * fmax(tmid, 1e-300)) {
        if (refine(p, m, l, tl, mid, tmid, tol, depth + 1, budget) != 0)
            return -1;
        return refine(p, m, mid, tmid, r, tr, tol, depth + 1, budget);
    }
    return pts_add(p, r, tr);
}

/* The star's lines of position k: exact for time lines and constants, the envelope
 * otherwise. */
static dls_status shape_of_lines(const dls__star *st, size_t k, shape *s, dls_error *err)
{
    size_t nl = st->off[k + 1] - st->off[k];
    s->convex = 1;
    s->nl = nl;
    s->a = malloc(nl * sizeof *s->a);
    s->b = malloc(nl * sizeof *s->b);
    if (s->a == NULL || s->b == NULL) {
        shape_free(s);
        return dls__oom(err, "mip");
    }
    for (size_t l = 0; l < nl; l++) {
        s->a[l] = st->a[st->off[k] + l];
        s->b[l] = st->b[st->off[k] + l];
        s->jump |= s->a[l] > 0;
    }
    return DLS_OK;
}

/* The breakpoints of the true time of m up to U, after (0, 0): every whole size when
 * integer on a small range, else the measured sizes inside (0, U), U, and chords refined
 * in between. -1 when out of memory. */
static int sample_time(const dls_model *m, double U, const dls__mip_spec *sp, pts *p)
{
    int bad = 0;
    if (sp->integer && U <= DLS__MIP_WHOLE_SIZES) {
        for (double x = 1; !bad && x <= U; x++)
            bad = pts_add(p, x, tm(m, x));
        return bad;
    }
    size_t np;
    const double *size;
    dls_model_get_points(m, &np, &size, NULL, NULL, NULL);
    double l = 0, tl = 0;
    for (size_t q = 0; !bad && q <= np; q++) {
        double r = q < np ? size[q] : U;
        if (r <= l)
            continue;
        if (r > U)
            r = U;
        /* below the first point the speed is constant: the time is a line */
        int straight = q == 0 || q == np;
        if (straight)
            bad = pts_add(p, r, tm(m, r));
        else
            bad = refine(p, m, l, tl, r, tm(m, r), sp->shape_tol, 0, sp->max_binaries);
        l = r;
        tl = p->t[p->n - 1];
        if (r >= U)
            break;
    }
    return bad;
}

/* Whether the breakpoints' slopes never drop. */
static int slopes_rise(const pts *p)
{
    int convex = 1;
    for (size_t j = 2; j < p->n && convex; j++) {
        double s0 = (p->t[j - 1] - p->t[j - 2]) / (p->x[j - 1] - p->x[j - 2]);
        double s1 = (p->t[j] - p->t[j - 1]) / (p->x[j] - p->x[j - 1]);
        convex = s1 >= s0;
    }
    return convex;
}

/* A convex shape: the chords between breakpoints are its lines (the first through 0). */
static dls_status shape_of_chords(const pts *p, shape *s, dls_error *err)
{
    s->convex = 1;
    s->nl = p->n > 1 ? p->n - 1 : 1;
    s->a = malloc(s->nl * sizeof *s->a);
    s->b = malloc(s->nl * sizeof *s->b);
    if (s->a == NULL || s->b == NULL) {
        shape_free(s);
        return dls__oom(err, "mip");
    }
    for (size_t j = 1; j < p->n; j++) {
        s->b[j - 1] = (p->t[j] - p->t[j - 1]) / (p->x[j] - p->x[j - 1]);
        s->a[j - 1] = p->t[j - 1] - s->b[j - 1] * p->x[j - 1];
    }
    if (p->n == 1) {
        s->a[0] = 0;
        s->b[0] = 0;
    }
    return DLS_OK;
}

/* A non-convex shape: the segments between breakpoints (s takes p's arrays), in convex
 * runs, a new run wherever the slope drops. */
static dls_status shape_of_runs(pts *p, shape *s, dls_error *err)
{
    s->K = p->n - 1;
    s->x = p->x;
    s->t = p->t;
    p->x = p->t = NULL;
    s->run = malloc((s->K + 1) * sizeof *s->run);
    if (s->run == NULL) {
        shape_free(s);
        return dls__oom(err, "mip");
    }
    s->run[0] = 0;
    s->R = 0;
    for (size_t j = 2; j <= s->K; j++) {
        double s0 = (s->t[j - 1] - s->t[j - 2]) / (s->x[j - 1] - s->x[j - 2]);
        double s1 = (s->t[j] - s->t[j - 1]) / (s->x[j] - s->x[j - 1]);
        if (s1 < s0)
            s->run[++s->R] = j - 1;
    }
    s->run[++s->R] = s->K;
    return DLS_OK;
}

/* The shape of position k: its lines, or its true time as breakpoints when exact. */
static dls_status build_shape(const dls__star *st, size_t k, const dls__mip_spec *sp,
                              shape *s, dls_error *err)
{
    memset(s, 0, sizeof *s);
    const dls_model *m = st->model[k];
    double U = fmin(st->B[k], st->V);
    int points = dls_model_get_kind(m) == DLS_MODEL_POINTS;
    s->tol = dls_model_get_kind(m) == DLS_MODEL_POINTS ? st->envelope_above : 0;
    if (!sp->exact_shape || !points)
        return shape_of_lines(st, k, s, err);
    pts p = {NULL, NULL, 0, 0};
    int bad = pts_add(&p, 0, 0);
    s->tol = sp->integer && U <= DLS__MIP_WHOLE_SIZES ? 0 : sp->shape_tol;
    if (!bad)
        bad = sample_time(m, U, sp, &p);
    dls_status res = bad ? dls__oom(err, "mip")
                         : slopes_rise(&p) ? shape_of_chords(&p, s, err)
                                           : shape_of_runs(&p, s, err);
    free(p.x);
    free(p.t);
    return res;
}

/* The layout, computed before GLPK is entered. */
typedef struct layout {
    size_t m;
    int *c_alpha, *c_T, *c_c, *c_y;  /* column of each position's variables (c_y 0: none) */
    int *c_w;                        /* first run binary (then R of them), first lambda, */
    int *c_l, *c_r;                  /* first run time */
    int c_cmax, ncols, nrows, binaries;
    double u, tau;                   /* load and time units */
    unsigned char *skip;             /* positions given no load before solving */
    /* the most load each position can take in an answer as good as a known one (INFINITY:
     * unknown): the big-M of alpha <= U y, tight so that a used flag of 1e-7 (integral
     * for GLPK) cannot carry a load of its own */
    double *most;
} layout;

/* What the callback sees, kept outside GLPK's memory: when the watchdog stops GLPK (see
 * glpk_guard.h), the incumbent so far is still known. */
typedef struct cb_data {
    const double *start;  /* incumbent to offer, by column (1-based), or NULL */
    int offered;
    double bound;         /* best bound seen (scaled) */
    const layout *L;
    double *best;         /* the incumbent's loads by position (scaled; 0 when unused) */
    int have_best;
    double best_obj;      /* its objective (scaled) */
} cb_data;

static void callback(glp_tree *T, void *info)
{
    cb_data *d = info;
    switch (glp_ios_reason(T)) {
    case GLP_IHEUR:
        if (d->start && !d->offered) {
            d->offered = 1;
            glp_ios_heur_sol(T, d->start);
        }
        break;
    case GLP_IBINGO: {
        glp_prob *P = glp_ios_get_prob(T);
        const layout *L = d->L;
        for (size_t k = 0; k < L->m; k++)
            d->best[k] = L->c_y[k] && glp_mip_col_val(P, L->c_y[k]) < 0.5
                             ? 0
                             : glp_mip_col_val(P, L->c_alpha[k]);
        d->best_obj = glp_mip_obj_val(P);
        d->have_best = 1;
    }
        /* fall through */
    case GLP_ISELECT: {
        int best = glp_ios_best_node(T);
        if (best)
            d->bound = glp_ios_node_bound(T, best);
        break;
    }
    default:
        break;
    }
}

/* The rows of a convex processor: b alpha + a y - c <= 0 per line (a on the right
 * without y). row is the last row used. */
static void convex_rows(glp_prob *P, const shape *s, const layout *L, size_t k, dls__triplets *t,
                        int *row)
{
    int ca = L->c_alpha[k], cy = L->c_y[k];
    for (size_t l = 0; l < s->nl; l++) {
        double rhs = cy ? 0 : -s->a[l] / L->tau;
        glp_set_row_bnds(P, ++*row, GLP_UP, 0, rhs);
        if (!L->skip[k])
            dls__triplets_put(t, *row, ca, s->b[l] * L->u / L->tau);
        if (cy)
            dls__triplets_put(t, *row, cy, s->a[l] / L->tau);
        dls__triplets_put(t, *row, L->c_c[k], -1);
    }
}

/* A position left out (mark_negligible): the rows its shape was counted for, free and
 * empty (its coefficients, decades off the others', stay out of the matrix), and the
 * columns of its convex runs fixed at 0. */
static void skip_rows(glp_prob *P, const shape *s, const layout *L, size_t k, int *row)
{
    size_t n = s->convex ? s->nl : 3 + 2 * s->R + s->K;
    for (size_t j = 0; j < n; j++)
        glp_set_row_bnds(P, ++*row, GLP_FR, 0, 0);
    for (size_t r = 0; !s->convex && r < s->R; r++) {
        glp_set_col_kind(P, L->c_w[k] + (int)r, GLP_BV);
        glp_set_col_bnds(P, L->c_w[k] + (int)r, GLP_FX, 0, 0);
        glp_set_col_bnds(P, L->c_l[k] + (int)r, GLP_FX, 0, 0);
        glp_set_col_bnds(P, L->c_r[k] + (int)r, GLP_FX, 0, 0);
    }
}

/* The rows of a processor whose measured time is kept non-convex: one binary per convex
 * run; sum w = y, alpha = sum lambda, c >= sum c_r, then each run's bounds and lines. */
static void run_rows(glp_prob *P, const shape *s, const layout *L, size_t k, dls__triplets *t,
                     int *row)
{
    double u = L->u, tau = L->tau;
    int rw = ++*row, ra = ++*row, rc = ++*row;
    glp_set_row_bnds(P, rw, GLP_FX, 0, 0);
    dls__triplets_put(t, rw, L->c_y[k], -1);
    glp_set_row_bnds(P, ra, GLP_FX, 0, 0);
    dls__triplets_put(t, ra, L->c_alpha[k], -1);
    glp_set_row_bnds(P, rc, GLP_UP, 0, 0);
    dls__triplets_put(t, rc, L->c_c[k], -1);
    for (size_t r = 0; r < s->R; r++) {
        int cw = L->c_w[k] + (int)r, cl = L->c_l[k] + (int)r, cr = L->c_r[k] + (int)r;
        double lo = s->x[s->run[r]] / u, hi = s->x[s->run[r + 1]] / u;
        glp_set_col_kind(P, cw, GLP_BV);
        glp_set_col_bnds(P, cl, GLP_LO, 0, 0);
        glp_set_col_bnds(P, cr, GLP_LO, 0, 0);
        dls__triplets_put(t, rw, cw, 1);
        dls__triplets_put(t, ra, cl, 1);
        dls__triplets_put(t, rc, cr, 1);
        /* lo w - lambda <= 0 and lambda - hi w <= 0 */
        glp_set_row_bnds(P, ++*row, GLP_UP, 0, 0);
        dls__triplets_put(t, *row, cw, lo);
        dls__triplets_put(t, *row, cl, -1);
        glp_set_row_bnds(P, ++*row, GLP_UP, 0, 0);
        dls__triplets_put(t, *row, cl, 1);
        dls__triplets_put(t, *row, cw, -hi);
        /* each segment's line: a w + b lambda - c_r <= 0 */
        for (size_t j = s->run[r] + 1; j <= s->run[r + 1]; j++) {
            double b = (s->t[j] - s->t[j - 1]) / (s->x[j] - s->x[j - 1]);
            double a = s->t[j - 1] - b * s->x[j - 1];
            glp_set_row_bnds(P, ++*row, GLP_UP, 0, 0);
            dls__triplets_put(t, *row, cw, a / tau);
            dls__triplets_put(t, *row, cl, b * u / tau);
            dls__triplets_put(t, *row, cr, -1);
        }
    }
}

/* The columns and rows of position k: its load (whole when integer), its used flag, its
 * send (with communication) and its finish before Cmax, then its time. */
static void position_rows(glp_prob *P, const dls__star *st, const dls__mip_spec *sp,
                          const shape *s, const layout *L, size_t k, dls__triplets *t, int *row)
{
    double u = L->u, tau = L->tau;
    /* whole loads need whole bounds (GLPK refuses others) */
    double Ureal = fmin(fmin(st->B[k], st->V), L->most[k]);
    double U = (sp->integer ? floor(Ureal) : Ureal) / u;
    int ca = L->c_alpha[k], cy = L->c_y[k], skip = L->skip[k];
    if (skip)
        U = 0;
    glp_set_col_bnds(P, ca, U > 0 ? GLP_DB : GLP_FX, 0, U);
    if (sp->integer)
        glp_set_col_kind(P, ca, GLP_IV);
    if (cy) {
        glp_set_col_kind(P, cy, GLP_BV);
        if (skip)
            glp_set_col_bnds(P, cy, GLP_FX, 0, 0);
        /* alpha_k - U y_k <= 0 */
        glp_set_row_bnds(P, ++*row, GLP_UP, 0, 0);
        dls__triplets_put(t, *row, ca, 1);
        dls__triplets_put(t, *row, cy, -U);
    }
    glp_set_col_bnds(P, L->c_c[k], GLP_LO, 0, 0);
    if (sp->communication) {
        glp_set_col_bnds(P, L->c_T[k], GLP_LO, 0, 0);
        /* T_k - T_{k-1} - S_k y_k - C_k alpha_k = 0 (S_k on the right without y) */
        double rhs = cy || skip ? 0 : st->S[k] / tau;
        glp_set_row_bnds(P, ++*row, GLP_FX, rhs, rhs);
        dls__triplets_put(t, *row, L->c_T[k], 1);
        if (k > 0)
            dls__triplets_put(t, *row, L->c_T[k - 1], -1);
        if (cy && !skip) /* a skipped position's startup, decades off, stays out too */
            dls__triplets_put(t, *row, cy, -st->S[k] / tau);
        if (!skip)
            dls__triplets_put(t, *row, ca, -st->C[k] * u / tau);
        /* T_k + c_k - Cmax <= 0 */
        glp_set_row_bnds(P, ++*row, GLP_UP, 0, 0);
        dls__triplets_put(t, *row, L->c_T[k], 1);
    } else {
        glp_set_row_bnds(P, ++*row, GLP_UP, 0, 0);
    }
    dls__triplets_put(t, *row, L->c_c[k], 1);
    dls__triplets_put(t, *row, L->c_cmax, -1);
    if (skip)
        skip_rows(P, s, L, k, row);
    else if (s->convex)
        convex_rows(P, s, L, k, t, row);
    else
        run_rows(P, s, L, k, t, row);
}

/* The whole program; NULL when the triplets ran out of memory. */
static glp_prob *build(const dls__star *st, const dls__mip_spec *sp, const shape *sh,
                       const layout *L, dls__triplets *t)
{
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, L->ncols);
    if (L->nrows > 0)
        glp_add_rows(P, L->nrows);
    int row = 0;
    for (size_t k = 0; k < st->m; k++)
        position_rows(P, st, sp, &sh[k], L, k, t, &row);
    /* the load */
    glp_set_row_bnds(P, ++row, GLP_FX, st->V / L->u, st->V / L->u);
    for (size_t k = 0; k < st->m; k++)
        dls__triplets_put(t, row, L->c_alpha[k], 1);
    DLS__ASSERT(row == L->nrows);
    glp_set_col_bnds(P, L->c_cmax, GLP_LO, 0, 0);
    glp_set_obj_coef(P, L->c_cmax, 1);
    /* the triplets grow inside GLPK's thread: their memory is the caller's (see triplets.h) */
    if (dls__triplets_load(t, P) != DLS_OK) {
        glp_delete_prob(P);
        return NULL;
    }
    /* no glp_scale_prob: with GLPK's scaling, branch and bound was seen to prove wrong
     * optima on these programs (the same program unscaled, and glpsol and lp_solve on it,
     * agree); the units u and tau already bring the coefficients near 1 */
    return P;
}

/* Branch and bound from the relaxation's basis, offering the incumbent; returns
 * glp_intopt's code, or -1 when it failed. */
static int branch_and_bound(glp_prob *P, const dls__glpk_guard *g, const dls__mip_spec *sp,
                            cb_data *cb)
{
    glp_iocp io;
    glp_init_iocp(&io);
    /* progress goes to the guard's hook (printed only when verbose), which is also the
     * watchdog of the LPs GLPK solves at each node, to which it gives no time limit */
    io.msg_lev = GLP_MSG_ON;
    io.out_frq = DLS__GLPK_POLL_MS;
    io.presolve = GLP_OFF;
    io.mip_gap = sp->rel_gap;
    io.tol_int = DLS__MIP_INT_TOL;
    io.tm_lim = dls__glpk_tm_lim(g);
    io.cb_func = callback;
    io.cb_info = cb;
    /* no cuts: GLPK's MIR cuts were seen to cut off the optimum of these programs */
    io.br_tech = GLP_BR_DTH;
    io.bt_tech = GLP_BT_BLB;
    int ret = glp_intopt(P, &io);
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_EMIPGAP && ret != GLP_ENOPFS &&
        ret != GLP_ENODFS)
        return -1 - ret;
    return ret;
}

/* The answer from the solved program. */
static void read_answer(glp_prob *P, const dls__star *st, const layout *L, int ret,
                        const cb_data *cb, dls__mip_answer *ans)
{
    int s = glp_mip_status(P);
    double u = L->u, tau = L->tau;
    if (s == GLP_OPT || s == GLP_FEAS) {
        ans->status = s == GLP_OPT ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
        ans->time_limited = ret == GLP_ETMLIM;
        ans->objective = glp_mip_obj_val(P) * tau;
        ans->bound = s == GLP_OPT ? ans->objective
                                  : (isfinite(cb->bound) ? cb->bound * tau : 0);
        for (size_t k = 0; k < st->m; k++)
            ans->alpha[k] = glp_mip_col_val(P, L->c_alpha[k]) * u;
        /* a processor the MIP does not use gets nothing, not a rounding residue (which
         * would cost it its startup in the replay) */
        for (size_t k = 0; k < st->m; k++)
            if (L->c_y[k] && glp_mip_col_val(P, L->c_y[k]) < 0.5)
                ans->alpha[k] = 0;
    } else if (s == GLP_NOFEAS) {
        ans->status = DLS_SOLUTION_INFEASIBLE;
    } else {
        ans->status = DLS_SOLUTION_NOT_FOUND;
        ans->time_limited = ret == GLP_ETMLIM;
        ans->bound = isfinite(cb->bound) ? cb->bound * tau : 0;
    }
}

static dls_status run(const dls__star *st, const dls__mip_spec *sp, shape *sh, layout *L,
                      dls__triplets *t, cb_data *cb, dls__glpk_guard *g, dls__mip_answer *ans,
                      dls_error *err)
{
    dls__glpk_stage(g, "building the MIP");
    glp_prob *P = build(st, sp, sh, L, t);
    if (P == NULL)
        return dls__oom(err, "mip");
    /* the relaxation first, so that branch and bound (without presolve) may take the
     * incumbent in the original columns */
    glp_smcp sm;
    unsigned long its = sp->iteration_limit > 0
                            ? sp->iteration_limit
                            : DLS__MIP_AUTO_ITERATIONS_BASE +
                                  DLS__MIP_AUTO_ITERATIONS_PER *
                                      (unsigned long)(L->nrows + L->ncols);
    dls__glpk_smcp(g, &sm, its);
    dls__glpk_stage(g, "the MIP's relaxation (simplex)");
    glp_adv_basis(P, 0);
    int ret = glp_simplex(P, &sm);
    if (ret == GLP_ESING || ret == GLP_ECOND) {
        /* the advanced basis came out singular (big-M rows beside unit rows): once more
         * from the standard one (every column at a bound) */
        glp_std_basis(P);
        ret = glp_simplex(P, &sm);
    }
    if (ret == GLP_ETMLIM) {
        /* no answer within the time limit: a result, as when branch and bound runs out */
        glp_delete_prob(P);
        ans->status = DLS_SOLUTION_NOT_FOUND;
        ans->time_limited = 1;
        ans->bound = 0;
        return DLS_OK;
    }
    if (ret != 0 || glp_get_status(P) != GLP_OPT) {
        int s = glp_get_status(P), n = glp_get_it_cnt(P);
        glp_delete_prob(P);
        if (ret == 0 && s == GLP_NOFEAS) {
            ans->status = DLS_SOLUTION_INFEASIBLE;
            return DLS_OK;
        }
        /* past the caller's limit, a limit; past the automatic one (many times what a
         * healthy solve takes), GLPK's numerical trouble, which other methods answer */
        if (ret == GLP_EITLIM)
            return dls__fail(err, sp->iteration_limit > 0 ? DLS_ELIMIT : DLS_ESOLVER, "mip",
                             "GLPK's simplex did not solve the MIP's relaxation within "
                             "%lu iterations (%.3g s)", its, dls__glpk_elapsed(g));
        return dls__fail(err, DLS_ESOLVER, "mip", "the relaxation failed (glp_simplex returned "
                         "%d after %d iterations)", ret, n);
    }
    dls__glpk_stage(g, "GLPK's branch and bound");
    ret = branch_and_bound(P, g, sp, cb);
    if (ret < 0) {
        glp_delete_prob(P);
        return dls__fail(err, DLS_ESOLVER, "mip", "glp_intopt failed (code %d)", -1 - ret);
    }
    read_answer(P, st, L, ret, cb, ans);
    glp_delete_prob(P);
    return DLS_OK;
}

/* Makes loads read from the solver exact: whole numbers when integer, and a sum of V. */
static void clean_loads(const dls__star *st, int integer, double *alpha)
{
    size_t m = st->m, big = 0;
    double sum = 0;
    for (size_t k = 0; k < m; k++) {
        double x = fmax(0, fmin(alpha[k], st->B[k]));
        if (integer)
            x = nearbyint(x);
        alpha[k] = x;
        sum += x;
        if (alpha[k] > alpha[big])
            big = k;
    }
    /* the rounding residue goes to the largest load (within its bound) */
    double fix = st->V - sum;
    if (fix != 0 && alpha[big] + fix >= 0 && alpha[big] + fix <= st->B[big])
        alpha[big] += fix;
}

static void layout_free(layout *L)
{
    free(L->c_alpha);
    free(L->c_T);
    free(L->c_c);
    free(L->c_y);
    free(L->c_w);
    free(L->c_l);
    free(L->c_r);
    free(L->skip);
    free(L->most);
}

static int layout_alloc(layout *L, size_t m)
{
    memset(L, 0, sizeof *L);
    L->m = m;
    L->c_alpha = malloc(m * sizeof(int));
    L->c_T = malloc(m * sizeof(int));
    L->c_c = malloc(m * sizeof(int));
    L->c_y = malloc(m * sizeof(int));
    L->c_w = malloc(m * sizeof(int));
    L->c_l = malloc(m * sizeof(int));
    L->c_r = malloc(m * sizeof(int));
    L->skip = calloc(m, 1);
    L->most = malloc(m * sizeof(double));
    for (size_t k = 0; L->most && k < m; k++)
        L->most[k] = INFINITY;
    return L->c_alpha && L->c_T && L->c_c && L->c_y && L->c_w && L->c_l && L->c_r && L->skip &&
                   L->most
               ? 0
               : -1;
}

/* Each position's time shape, and where its variables and rows go. */
static dls_status plan_layout(const dls__star *st, const dls__mip_spec *sp, shape *sh,
                              layout *L, dls_error *err)
{
    int col = 0, rows = 0, bin = 0;
    for (size_t k = 0; k < st->m; k++) {
        dls_status res = build_shape(st, k, sp, &sh[k], err);
        if (res != DLS_OK)
            return res;
        int need_y = !sh[k].convex || sh[k].jump || (sp->communication && st->S[k] > 0);
        L->c_alpha[k] = ++col;
        L->c_T[k] = sp->communication ? ++col : 0;
        L->c_c[k] = ++col;
        L->c_y[k] = need_y ? ++col : 0;
        bin += need_y;
        rows += need_y + (sp->communication ? 2 : 1);
        if (sh[k].convex) {
            rows += (int)sh[k].nl;
            L->c_w[k] = L->c_l[k] = L->c_r[k] = 0;
        } else {
            int R = (int)sh[k].R;
            L->c_w[k] = col + 1;
            L->c_l[k] = col + 1 + R;
            L->c_r[k] = col + 1 + 2 * R;
            col += 3 * R;
            bin += R;
            rows += 3 + 2 * R + (int)sh[k].K;
        }
    }
    L->c_cmax = ++col;
    L->ncols = col;
    L->nrows = rows + 1;
    L->binaries = bin;
    /* the units: a load of about V / m and a typical makespan near 1, so that the loads'
     * coefficients in the time rows (C u / tau, b u / tau) are near 1. Whole loads must
     * stay in units (GLPK's integer columns): the time unit is then the typical makespan
     * over V / m, the time of about one unit; with the makespan as unit, the loads'
     * reduced costs (about m / V) fell below GLPK's dual tolerance (1e-7) from
     * V / m = 10^7 on, and the relaxation stopped "optimal" at any basis */
    double share = st->V / (double)st->m;
    L->u = sp->integer ? 1 : share;
    L->tau = sp->time_unit > 0 && isfinite(sp->time_unit) ? sp->time_unit : 1;
    if (sp->integer)
        L->tau /= share;
    return DLS_OK;
}

/* The time of the non-convex shape s at x > 0, and the run holding x. */
static double shape_time(const shape *s, double x, size_t *run)
{
    size_t r = 0;
    while (r + 1 < s->R && s->x[s->run[r + 1]] < x)
        r++;
    size_t j = s->run[r] + 1;
    while (j < s->run[r + 1] && s->x[j] < x)
        j++;
    double sl = (s->t[j] - s->t[j - 1]) / (s->x[j] - s->x[j - 1]);
    *run = r;
    return s->t[j - 1] + sl * (x - s->x[j - 1]);
}

/* The incumbent sp->start in columns (1-based): loads, sends, times, used flags and
 * segments; NULL when out of memory. */
static double *start_columns(const dls__star *st, const dls__mip_spec *sp, const shape *sh,
                             const layout *L)
{
    double *start = calloc((size_t)L->ncols + 1, sizeof *start);
    if (start == NULL)
        return NULL;
    double clock = 0, worst = 0;
    for (size_t k = 0; k < st->m; k++) {
        double x = sp->start[k];
        int used = x > 0;
        start[L->c_alpha[k]] = x / L->u;
        if (L->c_y[k])
            start[L->c_y[k]] = used;
        if (sp->communication && (used || !L->c_y[k]))
            clock += (L->c_y[k] ? used : 1) * st->S[k] + st->C[k] * x;
        if (sp->communication)
            start[L->c_T[k]] = clock / L->tau;
        double c = 0;
        if (sh[k].convex) {
            for (size_t l = 0; l < sh[k].nl; l++)
                c = fmax(c, (L->c_y[k] ? used : 1) * sh[k].a[l] + sh[k].b[l] * x);
        } else if (used) {
            size_t r;
            c = shape_time(&sh[k], x, &r);
            start[L->c_w[k] + (int)r] = 1;
            start[L->c_l[k] + (int)r] = x / L->u;
            start[L->c_r[k] + (int)r] = c / L->tau;
        }
        start[L->c_c[k]] = c / L->tau;
        worst = fmax(worst, (sp->communication ? clock : 0) + c);
    }
    start[L->c_cmax] = worst / L->tau;
    return start;
}

/* The least time of shape s for a load of at least `small` (its lines at small when
 * convex, else the least of its chords from small on: measured times need not increase). */
static double least_time(const shape *s, double small)
{
    if (s->convex) {
        double t = -INFINITY;
        for (size_t l = 0; l < s->nl; l++)
            t = fmax(t, s->a[l] + s->b[l] * small);
        return t;
    }
    double t = INFINITY;
    for (size_t j = 0; j + 1 <= s->K; j++) {
        double x0 = s->x[j], x1 = s->x[j + 1];
        if (x1 < small)
            continue;
        double at = fmax(x0, small), w = x1 > x0 ? (at - x0) / (x1 - x0) : 0;
        t = fmin(t, fmin(s->t[j] + (s->t[j + 1] - s->t[j]) * w, s->t[j + 1]));
    }
    return t;
}

/* Positions that cannot take a unit (whole loads), or 1e-12 of V (real loads), in any
 * answer as good as ub (the start's makespan, or a makespan known to be reached): they get
 * no load and lose their coefficients, which can lie 1e16 and more from the others' (a
 * link of 1e7 s per unit beside speeds of 1e9 units per second, a memory level of 2^31 s
 * per unit) and make the relaxation singular or branch and bound endless. The bound: with
 * a load x >= small, Cmax >= T_k + c_k >= S_k + C_k x + t_k(x) (no S and C without
 * communication), t_k at least the shape's least time from small on. Nothing is marked
 * when the others could not hold V. */
static void mark_negligible(const dls__star *st, const dls__mip_spec *sp, const shape *sh,
                            layout *L, double ub)
{
    if (!(ub < INFINITY))
        return;
    ub *= 1 + 1e-9;
    double small = sp->integer ? 1 : DLS__MIP_ZERO_LOAD_REL * st->V, room = 0;
    for (size_t k = 0; k < st->m; k++) {
        double S = sp->communication ? st->S[k] : 0, C = sp->communication ? st->C[k] : 0;
        double most = INFINITY;
        if (sh[k].convex) {
            for (size_t l = 0; l < sh[k].nl; l++) {
                double slope = C + sh[k].b[l], left = ub - S - sh[k].a[l];
                if (slope > 0)
                    most = fmin(most, left / slope);
                else if (left < 0)
                    most = -1;
            }
            L->skip[k] = sp->integer ? most < small : most <= small;
            /* a little above, so that rounding in the bound never cuts the optimum */
            L->most[k] = most * (1 + 1e-9) + (sp->integer ? 1 : 0);
        } else {
            L->skip[k] = S + C * small + least_time(&sh[k], small) > ub;
        }
        if (!L->skip[k])
            room += fmin(st->B[k], st->V);
    }
    if (!(room >= st->V)) {
        memset(L->skip, 0, st->m);
        for (size_t k = 0; k < st->m; k++)
            L->most[k] = INFINITY;
    }
}

typedef struct mip_work {
    const dls__star *st;
    const dls__mip_spec *sp;
    shape *sh;
    layout *L;
    dls__triplets *t;
    cb_data cb;
    dls__mip_answer *ans;
} mip_work;

static dls_status mip_work_run(void *arg, dls__glpk_guard *g, dls_error *err)
{
    mip_work *w = arg;
    /* GLPK's progress reports (every DLS__GLPK_POLL_MS, branch and bound's included) call
     * the caller's progress callback, which may cancel */
    dls__glpk_progress(g, w->sp->progress, w->sp->progress_data);
    return run(w->st, w->sp, w->sh, w->L, w->t, &w->cb, g, w->ans, err);
}

/* Builds and solves the program with GLPK, timing it. When the watchdog stopped GLPK past
 * the time limit (inside the LP of a node), the answer is the incumbent so far, or none:
 * the outcome of a time limit, not a failure. best: m doubles of scratch. */
static dls_status guarded_run(const dls__star *st, const dls__mip_spec *sp, shape *sh,
                              layout *L, dls__triplets *t, double *start, double *best,
                              dls__mip_answer *ans, dls_error *err)
{
    double t0 = dls__glpk_now();
    mip_work w = {st, sp, sh, L, t, {start, 0, -INFINITY, L, best, 0, NAN}, ans};
    int stopped = 0;
    dls_error quiet;
    dls_status res = dls__glpk_call(sp->verbose, sp->time_limit, "mip", mip_work_run, &w,
                                    &stopped, &quiet);
    ans->seconds = dls__glpk_now() - t0;
    if (stopped) {
        ans->time_limited = 1;
        ans->bound = isfinite(w.cb.bound) ? w.cb.bound * L->tau : 0;
        if (w.cb.have_best) {
            ans->status = DLS_SOLUTION_FEASIBLE;
            ans->objective = w.cb.best_obj * L->tau;
            for (size_t k = 0; k < st->m; k++)
                ans->alpha[k] = best[k] * L->u;
        } else {
            ans->status = DLS_SOLUTION_NOT_FOUND;
        }
        return DLS_OK;
    }
    if (res != DLS_OK && err != NULL)
        *err = quiet;
    return res;
}

dls_status dls__mip_solve_star(const dls__star *st, const dls__mip_spec *spec,
                               dls__mip_answer *ans, dls_error *err)
{
    size_t m = st->m;
    memset(ans, 0, sizeof *ans);
    ans->status = DLS_SOLUTION_NOT_FOUND;
    ans->objective = ans->bound = NAN;
    /* whole loads past DLS_MIP_INTEGER_MAX: real loads (a relaxation, its bound still a
     * bound of the integer problem), rounded by the caller */
    dls__mip_spec relaxed;
    if (spec->integer && st->V > DLS_MIP_INTEGER_MAX) {
        relaxed = *spec;
        relaxed.integer = 0;
        spec = &relaxed;
        ans->relaxed = 1;
    }
    const dls__mip_spec *sp = spec;
    shape *sh = calloc(m, sizeof *sh);
    layout L;
    int laid = layout_alloc(&L, m);
    ans->alpha = calloc(m, sizeof *ans->alpha);
    dls__triplets t;
    dls__triplets_init(&t);
    double *start = NULL, *best = malloc(m * sizeof *best);
    dls_status res = DLS_OK;
    if (!sh || laid != 0 || !ans->alpha || !best)
        res = dls__oom(err, "mip");
    if (res == DLS_OK)
        res = plan_layout(st, sp, sh, &L, err);
    if (res == DLS_OK) {
        ans->binaries = (size_t)L.binaries;
        ans->cols = (size_t)L.ncols;
        ans->rows = (size_t)L.nrows;
        if ((size_t)L.binaries > sp->max_binaries)
            res = dls__fail(err, DLS_ELIMIT, "mip", "the program needs %d binary variables, more "
                            "than the cap of %zu", L.binaries, sp->max_binaries);
    }
    if (res == DLS_OK && sp->start && (start = start_columns(st, sp, sh, &L)) == NULL)
        res = dls__oom(err, "mip");
    if (res == DLS_OK)
        mark_negligible(st, sp, sh, &L,
                        fmin(start ? start[L.c_cmax] * L.tau : INFINITY,
                             sp->upper_bound > 0 ? sp->upper_bound : INFINITY));
    if (res == DLS_OK)
        res = guarded_run(st, sp, sh, &L, &t, start, best, ans, err);
    if (res == DLS_OK && (ans->status == DLS_SOLUTION_OPTIMAL ||
                          ans->status == DLS_SOLUTION_FEASIBLE))
        clean_loads(st, sp->integer, ans->alpha);
    for (size_t k = 0; sh && k < m; k++) {
        ans->model_tol = fmax(ans->model_tol, sh[k].tol);
        shape_free(&sh[k]);
    }
    free(sh);
    layout_free(&L);
    dls__triplets_free(&t);
    free(start);
    free(best);
    if (res != DLS_OK) {
        free(ans->alpha);
        ans->alpha = NULL;
    }
    return res;
}
