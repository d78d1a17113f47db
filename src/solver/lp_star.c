/* The star-network LP of Drozdowski and Wolniewicz (2003), built in memory through GLPK's C API.
 *
 * Formulation. The paper's constraint (1) sums every earlier send into each processor's
 * finishing constraint, which makes the matrix dense (O(m^2) nonzeros); at m = 1000 that
 * form already makes GLPK return wrong optima. Here the end of the k-th send is a variable,
 *     T_k = T_{k-1} + S_k + C_k alpha_k                      (send_k, T_0 = 0)
 *     T_k + a_kl + b_kl alpha_k <= Cmax   for each line l    (finish_k_l)
 *     sum_k alpha_k = V,  0 <= alpha_k <= B_k,  Cmax >= 0    (load)
 * which has O(m L) nonzeros and the same optimum.
 *
 * Scaling. Loads are solved in units of V/m and times in units of a typical processor's
 * time for such a share, so that every coefficient is near 1 (measured here: with raw
 * magnitudes GLPK's simplex lands 1e-7 off; normalised, on the reference to 1e-14); GLPK's
 * own scaling is applied on top.
 *
 * Checks. The answer is accepted only if the loads sum to V, the bounds hold, and the
 * makespan recomputed by replaying the loads equals the LP's, all within check_tol; else
 * the LP is solved again from its final basis with tight tolerances, and if the answer still
 * fails, the call reports a numerical failure instead of a wrong schedule.
 *
 * Limits. Every simplex run gets what is left of the call's iterations and time; the dual
 * simplex a quarter of the iterations left (GLPK falls back to its primal from the dual's
 * basis within it), the primal from a fresh basis the rest. Running out is reported with
 * DLS_ELIMIT, saying what was tried. The number of runs is bounded too: each drop removes a
 * processor, and re-adding is tried in at most DLS__LP_MAX_READD_ROUNDS rounds.
 *
 * Negligible processors. A processor whose link or compute time is many orders of
 * magnitude above the others' (a rate of 1e7 s per unit beside speeds of 1e9 units per
 * second, or a time line of slope 1e24) puts coefficients 1e16 to 1e33 apart in one matrix:
 * its basis matrices are singular to working precision, GLPK's dual simplex fails, and its
 * primal simplex cycles in phase I or oscillates between two bases "for numerical
 * instability", for millions of iterations. Such a processor can take next to nothing: a
 * simple distribution (loads in proportion to speed, within the limits) gives an upper
 * bound U on the LP's makespan, and a processor that cannot finish more than
 * DLS__LP_ZERO_LOAD_REL V by U, even sent first, gets no load in any schedule as good (up to
 * that amount). Its load is fixed to zero before solving and its coefficients are left out
 * of the matrix; it keeps its startup and its time at zero load, as the paper's LP charges
 * them. */
#include <config.h>

#include <float.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "solver/glpk_guard.h"
#include "solver/solver.h"
#include "solver/triplets.h"

/* Loads at or below this fraction of V count as "no load" when dropping processors. */
#define DLS__LP_ZERO_LOAD_REL 1e-12
/* The polished makespan must agree with the LP's within this relative amount. */
#define DLS__LP_POLISH_AGREE 1e-6
/* Relative dual-bound violation beyond which the optimum is solved again with tight
 * tolerances. */
#define DLS__LP_DUAL_TOL 1e-11
/* The most processors (positions used) given to GLPK's exact simplex: that of the rational
 * certificate (certificate.c), where it ends in seconds. */
#define DLS__LP_EXACT_MAX_POSITIONS 1000
/* Rounds of trying to bring back dropped processors. */
#define DLS__LP_MAX_READD_ROUNDS 4
/* Primal and dual feasibility tolerances of the repair re-solve (GLPK's default: 1e-7). */
#define DLS__LP_REPAIR_TOL 1e-10
/* The automatic iteration limit of one call: this many, plus DLS__LP_AUTO_ITERATIONS_PER
 * per row and column of the LP. A healthy solve takes about one iteration per processor
 * (tests/bench/bench_lp.c: 9696 at 10^4 processors), its re-solves after dropping
 * processors a few each; the stalls seen ran millions. */
#define DLS__LP_AUTO_ITERATIONS_BASE 10000ul
#define DLS__LP_AUTO_ITERATIONS_PER 20ul
/* The dual simplex's share of the iterations left, in each run (the rest is kept for the
 * primal from a fresh basis). */
#define DLS__LP_DUAL_SHARE 4
/* The coefficient range beyond which a failure message blames the platform's magnitudes. */
#define DLS__LP_WIDE_RANGE 1e12

typedef struct lp {
    glp_prob *P;
    size_t m, lines;
    double u, tau;            /* load and time units */
    double amin, amax;        /* smallest and largest |coefficient| */
    dls__glpk_guard *g;       /* NULL: no solving (exports) */
    const dls__star_opts *par;
    unsigned long it_limit;   /* simplex iterations of the whole call */
    unsigned solves;          /* simplex runs asked for */
    int limited;              /* the last failed run stopped at a limit */
    char tried[256];          /* what the last failed run tried */
} lp;

static int col_alpha(size_t k) { return (int)k + 1; }
static int col_T(const lp *L, size_t k) { return (int)(L->m + k) + 1; }
static int col_cmax(const lp *L) { return (int)(2 * L->m) + 1; }
static int row_send(size_t k) { return (int)k + 1; }
static int row_line(const lp *L, size_t l) { return (int)(L->m + l) + 1; }
static int row_load(const lp *L) { return (int)(L->m + L->lines) + 1; }

/* Room for the LP's triplets, reserved before GLPK is entered (no allocation inside it):
 * a send row has 3 entries per position (T_k, T_{k-1}, alpha_k), a finish row 3 per time
 * line (T_k, alpha_k, Cmax), and the load row 1 per position. */
static dls_status triplets_alloc(dls__triplets *t, const dls__star *st)
{
    dls__triplets_init(t);
    return dls__triplets_reserve(t, 3 * st->m + 3 * st->off[st->m] + st->m);
}

/* Builds the LP with loads in units of u and times in units of tau (1 and 1 for exports,
 * which also get names). The positions marked in fixed (NULL: none) get a load of zero and
 * no coefficients but the load row's. Call inside a GLPK guard. */
static void build(lp *L, const dls__star *st, double u, double tau, int names, dls__triplets *t,
                  const unsigned char *fixed)
{
    size_t m = st->m;
    L->m = m;
    L->lines = st->off[m];
    L->u = u;
    L->tau = tau;
    glp_prob *P = glp_create_prob();
    L->P = P;
    glp_set_prob_name(P, "dlsched_star");
    glp_set_obj_name(P, "makespan");
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, (int)(2 * m + 1));
    glp_add_rows(P, (int)(m + L->lines + 1));
    char name[64];
    for (size_t k = 0; k < m; k++) {
        int off = fixed && fixed[k];
        double bound = off ? 0 : st->B[k] / u;
        if (isfinite(bound))
            glp_set_col_bnds(P, col_alpha(k), bound > 0 ? GLP_DB : GLP_FX, 0, bound);
        else
            glp_set_col_bnds(P, col_alpha(k), GLP_LO, 0, 0);
        glp_set_col_bnds(P, col_T(L, k), GLP_LO, 0, 0);
        if (names) {
            snprintf(name, sizeof name, "alpha_%zu", k + 1);
            glp_set_col_name(P, col_alpha(k), name);
            snprintf(name, sizeof name, "T_%zu", k + 1);
            glp_set_col_name(P, col_T(L, k), name);
            snprintf(name, sizeof name, "send_%zu", k + 1);
            glp_set_row_name(P, row_send(k), name);
        }
        /* send_k: T_k - T_{k-1} - C_k alpha_k = S_k */
        glp_set_row_bnds(P, row_send(k), GLP_FX, st->S[k] / tau, st->S[k] / tau);
        dls__triplets_put(t, row_send(k), col_T(L, k), 1);
        if (k > 0)
            dls__triplets_put(t, row_send(k), col_T(L, k - 1), -1);
        if (!off)
            dls__triplets_put(t, row_send(k), col_alpha(k), -st->C[k] * u / tau);
        /* finish_k_l: T_k + b alpha_k - Cmax <= -a */
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            int r = row_line(L, l);
            glp_set_row_bnds(P, r, GLP_UP, 0, -st->a[l] / tau);
            if (names) {
                snprintf(name, sizeof name, "finish_%zu_%zu", k + 1, l - st->off[k] + 1);
                glp_set_row_name(P, r, name);
            }
            dls__triplets_put(t, r, col_T(L, k), 1);
            if (!off)
                dls__triplets_put(t, r, col_alpha(k), st->b[l] * u / tau);
            dls__triplets_put(t, r, col_cmax(L), -1);
        }
        dls__triplets_put(t, row_load(L), col_alpha(k), 1);
    }
    glp_set_col_bnds(P, col_cmax(L), GLP_LO, 0, 0); /* free Cmax troubles GLPK's methods */
    glp_set_obj_coef(P, col_cmax(L), 1);
    if (names) {
        glp_set_col_name(P, col_cmax(L), "Cmax");
        glp_set_row_name(P, row_load(L), "load");
    }
    glp_set_row_bnds(P, row_load(L), GLP_FX, st->V / u, st->V / u);
    dls_status loaded = dls__triplets_load(t, P);
    DLS__ASSERT(loaded == DLS_OK); /* the room was reserved: no put failed */
    L->amin = INFINITY;
    L->amax = 0;
    for (size_t i = 1; i <= t->n; i++) {
        L->amin = fmin(L->amin, fabs(t->ar[i]));
        L->amax = fmax(L->amax, fabs(t->ar[i]));
    }
}

/* The units: a share of V/n, and the median time a processor takes for it (send included),
 * over the n processors not fixed at zero load (negligible ones would drag the median to
 * their own magnitudes). Not inlined into the function that calls setjmp, whose registers
 * a longjmp clobbers. */
__attribute__((noinline)) static void units(const dls__star *st, const unsigned char *fixed,
                                            double *u, double *tau, double *scratch)
{
    size_t m = st->m, n = 0;
    for (size_t k = 0; k < m; k++)
        n += !fixed[k];
    if (n == 0)
        n = m, fixed = NULL;
    double share = st->V / (double)n;
    size_t i = 0;
    for (size_t k = 0; k < m; k++) {
        if (fixed && fixed[k])
            continue;
        double x = fmin(share, st->B[k]), top = 0;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            top = fmax(top, st->a[l] + st->b[l] * x);
        scratch[i++] = st->S[k] + st->C[k] * x + top;
    }
    dls__sort_doubles(scratch, n);
    double med = scratch[n / 2];
    *u = share;
    *tau = med > 0 && isfinite(med) ? med : 1;
}

/* Polishing. GLPK computes the basic solution in double precision through an LU factor of
 * the basis; with steep memory levels (b large, loads small) its error can reach 1e-7 of the
 * makespan. The basis, however, says exactly what the optimum is: which processors are at a
 * bound, and on which time line each of the others finishes with the makespan. Along the
 * send chain every load is then an affine function of the makespan C,
 *     alpha_k = (C - T_{k-1} - S_k - a_kl) / (C_k + b_kl),  T_k = T_{k-1} + S_k + C_k alpha_k,
 * so sum alpha_k = V gives C directly; carried in extended precision, this recovers the
 * vertex to rounding. The result is used only when it agrees with the LP's makespan. */
typedef struct affine {
    long double p, q; /* p + q C */
} affine;

static int polish(const lp *L, const dls__star *st, const unsigned char *active, double *alpha,
                  double *cmax)
{
    size_t m = st->m;
    affine T = {0, 0}, sum = {0, 0};
    int any = 0;
    /* first pass: the affine loads; alpha[k] is overwritten only at the end */
    for (size_t k = 0; k < m; k++) {
        if (!active[k])
            continue;
        affine x = {alpha[k], 0};
        if (glp_get_col_stat(L->P, col_alpha(k)) == GLP_BS) {
            size_t tight = 0, line = 0;
            for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
                if (glp_get_row_stat(L->P, row_line(L, l)) != GLP_BS) {
                    if (tight == 0)
                        line = l;
                    tight++;
                    if (tight == 2 && st->b[l] != st->b[line]) /* at a breakpoint */
                        x.p = (long double)(st->a[line] - st->a[l]) / (st->b[l] - st->b[line]);
                }
            if (tight == 1) {
                long double d = (long double)st->C[k] + st->b[line];
                x.p = (-T.p - st->S[k] - st->a[line]) / d;
                x.q = (1 - T.q) / d;
                any = 1;
            }
        }
        T.p += st->S[k] + st->C[k] * x.p;
        T.q += st->C[k] * x.q;
        sum.p += x.p;
        sum.q += x.q;
    }
    if (!any || !(sum.q > 0))
        return 0;
    long double C = (st->V - sum.p) / sum.q;
    if (!(fabsl(C - *cmax) <= DLS__LP_POLISH_AGREE * fabs(*cmax)))
        return 0;
    /* second pass: the loads at C */
    T.p = T.q = 0;
    for (size_t k = 0; k < m; k++) {
        if (!active[k])
            continue;
        if (glp_get_col_stat(L->P, col_alpha(k)) == GLP_BS) {
            size_t tight = 0, line = 0;
            for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
                if (glp_get_row_stat(L->P, row_line(L, l)) != GLP_BS) {
                    if (tight == 0)
                        line = l;
                    tight++;
                }
            if (tight == 1) {
                long double x = (C - T.p - st->S[k] - st->a[line]) / ((long double)st->C[k] + st->b[line]);
                alpha[k] = (double)x;
            }
        }
        T.p += st->S[k] + st->C[k] * (long double)alpha[k];
    }
    *cmax = (double)C;
    return 1;
}

/* Reads the solution in original units, polishes it, and checks it; returns the largest
 * residual. */
/* The check of read_and_check on loads alpha (made to sum to V and clipped to their
 * bounds in place) and the makespan cmax: the worst relative violation. */
static double check_loads(const lp *L, const dls__star *st, const unsigned char *active,
                          double *alpha, double cmax)
{
    size_t m = st->m;
    /* a makespan far above the loads' own times (a processor's huge intercept or startup)
     * leaves GLPK's loads with an error of that magnitude: when they miss V by more than the
     * tolerance, they are scaled to sum to V, and the replay below says if that is right */
    double total = 0;
    for (size_t k = 0; k < m; k++)
        total += alpha[k];
    if (total > 0 && fabs(total - st->V) > L->par->check_tol * st->V)
        for (size_t k = 0; k < m; k++)
            alpha[k] *= st->V / total;
    double sum = 0, worst = 0;
    for (size_t k = 0; k < m; k++) {
        double x = alpha[k];
        double over = fmax(-x, isfinite(st->B[k]) ? x - st->B[k] : 0);
        worst = fmax(worst, over / st->V);
        alpha[k] = fmin(fmax(x, 0), st->B[k]);
        sum += x;
    }
    worst = fmax(worst, fabs(sum - st->V) / st->V);
    /* the LP's view: active processors are charged their startups even with no load */
    double replay = dls__replay(st, alpha, active, 1, 0, NULL, NULL, NULL, NULL, NULL);
    double scale = fmax(fabs(cmax), fabs(replay));
    if (scale > 0)
        worst = fmax(worst, fabs(replay - cmax) / scale);
    return worst;
}

static double read_and_check(const lp *L, const dls__star *st, const unsigned char *active,
                             double *alpha, double *cmax)
{
    size_t m = st->m;
    for (size_t k = 0; k < m; k++)
        alpha[k] = active[k] ? glp_get_col_prim(L->P, col_alpha(k)) * L->u : 0;
    *cmax = glp_get_col_prim(L->P, col_cmax(L)) * L->tau;
    if (!polish(L, st, active, alpha, cmax))
        return check_loads(L, st, active, alpha, *cmax);
    double worst = check_loads(L, st, active, alpha, *cmax);
    if (worst <= L->par->check_tol)
        return worst;
    /* the polish read a degenerate basis wrong (a load's time far below the startups, where
     * every line of a processor looks tight): GLPK's own values, if they are better */
    double *raw = malloc((m ? m : 1) * sizeof *raw);
    if (raw == NULL)
        return worst;
    for (size_t k = 0; k < m; k++)
        raw[k] = active[k] ? glp_get_col_prim(L->P, col_alpha(k)) * L->u : 0;
    double raw_cmax = glp_get_col_prim(L->P, col_cmax(L)) * L->tau;
    double raw_worst = check_loads(L, st, active, raw, raw_cmax);
    if (raw_worst < worst) {
        memcpy(alpha, raw, m * sizeof *raw);
        *cmax = raw_cmax;
        worst = raw_worst;
    }
    free(raw);
    return worst;
}

/* Largest relative violation of the dual bounds (reduced costs of the wrong sign): GLPK can
 * stop with "optimal" while one is off by 1e-9, leaving the makespan 1e-7 too high. */
static double dual_violation(const lp *L)
{
    double ae, re;
    int ai, ri;
    glp_check_kkt(L->P, GLP_SOL, GLP_KKT_DB, &ae, &ai, &re, &ri);
    return re;
}

/* Whether processor k (by position) can take at most DLS__LP_ZERO_LOAD_REL V in a schedule
 * of makespan ub or less when the sends before its own take `before` seconds at least:
 * finish_k_l says before + S_k + C_k x + a_l + b_l x <= T_k + a_l + b_l x <= Cmax <= ub.
 * ub is made a little larger for its own rounding. */
static int negligible(const dls__star *st, size_t k, double ub, double before)
{
    if (!(ub < INFINITY))
        return 0;
    ub *= 1 + 1e-9;
    double most = INFINITY;
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
        double room = ub - before - st->S[k] - st->a[l], slope = st->C[k] + st->b[l];
        if (slope > 0)
            most = fmin(most, room / slope);
        else if (room < 0)
            most = -1;
    }
    return most <= DLS__LP_ZERO_LOAD_REL * st->V;
}

/* The makespan of the best processor alone whose limit holds V (INFINITY when none can):
 * its send and its compute, one after the other. */
static double best_single(const dls__star *st)
{
    double best = INFINITY;
    for (size_t k = 0; k < st->m; k++) {
        if (!(st->B[k] >= st->V))
            continue;
        double t = -INFINITY;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            t = fmax(t, st->a[l] + st->b[l] * st->V);
        best = fmin(best, st->S[k] + st->C[k] * st->V + t);
    }
    return best;
}

/* Keeps in want only what leaves the other processors room for V within their limits
 * (else nothing is marked); returns how many are marked. */
static size_t leave_room(const dls__star *st, unsigned char *want)
{
    size_t count = 0;
    double room = 0;
    for (size_t k = 0; k < st->m; k++) {
        count += want[k];
        if (!want[k])
            room += st->B[k];
    }
    if (!(room >= st->V)) {
        memset(want, 0, st->m);
        return 0;
    }
    return count;
}

/* Puts processor k (by position) in the LP or takes it out: out, it is sent nothing (its
 * send row keeps T_k = T_{k-1}) and has no finishing constraint. A processor fixed at zero
 * load before solving keeps that load. */
static void set_active(lp *L, const dls__star *st, const unsigned char *fixed, size_t k, int on)
{
    double S = on ? st->S[k] / L->tau : 0;
    glp_set_row_bnds(L->P, row_send(k), GLP_FX, S, S);
    if (!on || (fixed && fixed[k])) {
        glp_set_col_bnds(L->P, col_alpha(k), GLP_FX, 0, 0);
    } else {
        double bound = st->B[k] / L->u;
        if (isfinite(bound))
            glp_set_col_bnds(L->P, col_alpha(k), bound > 0 ? GLP_DB : GLP_FX, 0, bound);
        else
            glp_set_col_bnds(L->P, col_alpha(k), GLP_LO, 0, 0);
    }
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
        if (on)
            glp_set_row_bnds(L->P, row_line(L, l), GLP_UP, 0, -st->a[l] / L->tau);
        else
            glp_set_row_bnds(L->P, row_line(L, l), GLP_FR, 0, 0);
    }
}

static const char *glpk_status_text(int s)
{
    switch (s) {
    case GLP_OPT: return "optimal";
    case GLP_FEAS: return "feasible, not optimal";
    case GLP_INFEAS: return "infeasible (intermediate)";
    case GLP_NOFEAS: return "no feasible solution";
    case GLP_UNBND: return "unbounded";
    default: return "undefined";
    }
}

/* What a return code of glp_simplex or glp_exact means. */
static const char *glpk_code_text(int ret)
{
    switch (ret) {
    case GLP_EITLIM: return "iteration limit reached";
    case GLP_ETMLIM: return "time limit reached";
    case GLP_EFAIL: return "numerical failure (a basis singular to working precision)";
    case GLP_ESING: return "initial basis singular";
    case GLP_ECOND: return "initial basis ill-conditioned";
    case GLP_EBOUND: return "incorrect bounds";
    case GLP_EBADB: return "invalid basis";
    case GLP_ENOPFS: return "no primal feasible solution";
    case GLP_ENODFS: return "no dual feasible solution";
    default: return "failed";
    }
}

/* The outcome of a simplex run. */
enum { RUN_OPTIMAL = 0, RUN_FAILED = 1, RUN_LIMIT = 2 };

/* Iterations left to the call (the problem's counter started at 0). */
static unsigned long iterations_left(const lp *L)
{
    unsigned long used = (unsigned long)glp_get_it_cnt(L->P);
    return L->it_limit > used ? L->it_limit - used : 0;
}

/* One method with at most it_lim iterations; when it does not reach an optimum, appends
 * what happened to L->tried. */
static int attempt(lp *L, int meth, unsigned long it_lim, double tol, const char *name)
{
    glp_smcp parm;
    dls__glpk_smcp(L->g, &parm, it_lim);
    parm.meth = meth;
    parm.presolve = GLP_OFF;
    if (tol > 0) {
        parm.tol_bnd = tol;
        parm.tol_dj = tol;
    }
    int before = glp_get_it_cnt(L->P);
    double t0 = dls__glpk_elapsed(L->g);
    int ret = glp_simplex(L->P, &parm);
    if (ret == 0 && glp_get_status(L->P) == GLP_OPT)
        return RUN_OPTIMAL;
    size_t len = strlen(L->tried);
    snprintf(L->tried + len, sizeof L->tried - len, "%s%s: %d iterations in %.2g s, %s",
             len ? "; then " : "", name, glp_get_it_cnt(L->P) - before,
             dls__glpk_elapsed(L->g) - t0,
             ret != 0 ? glpk_code_text(ret) : glpk_status_text(glp_get_status(L->P)));
    return ret == GLP_EITLIM || ret == GLP_ETMLIM ? RUN_LIMIT : RUN_FAILED;
}

/* One simplex run: the dual simplex (GLPK going on with its primal from the dual's basis
 * if the dual fails) with a share of the iterations left; when it fails or uses up its
 * share, the primal simplex from a fresh advanced basis with the rest. what names the LP
 * for the watchdog. On failure L->tried says what was tried, and L->limited whether a
 * limit ended it. */
static int simplex(lp *L, double tol, const char *what)
{
    L->tried[0] = '\0';
    L->limited = 0;
    L->solves++;
    dls__glpk_stage(L->g, "simplex run %u, on %s", L->solves, what);
    unsigned long left = iterations_left(L);
    if (left == 0 || dls__glpk_left(L->g) <= 0) {
        snprintf(L->tried, sizeof L->tried, "no %s left", left == 0 ? "iterations" : "time");
        L->limited = 1;
        return RUN_LIMIT;
    }
    unsigned long share = left / DLS__LP_DUAL_SHARE > 0 ? left / DLS__LP_DUAL_SHARE : 1;
    int r = attempt(L, GLP_DUALP, share, tol, "the dual simplex");
    if (r == RUN_OPTIMAL)
        return r;
    left = iterations_left(L);
    if (left == 0 || dls__glpk_left(L->g) <= 0) {
        L->limited = 1;
        return RUN_LIMIT;
    }
    glp_adv_basis(L->P, 0);
    r = attempt(L, GLP_PRIMAL, left, tol, "the primal simplex from a new basis");
    L->limited = r == RUN_LIMIT;
    return r;
}

/* Iterations used, and what the limits were, for messages. */
static int spent(const lp *L, char *buf, size_t size)
{
    return snprintf(buf, size, "%u simplex runs, %d of %lu iterations and %.3g of %.6g s in "
                    "all", L->solves, glp_get_it_cnt(L->P), L->it_limit,
                    dls__glpk_elapsed(L->g), L->par->time_limit);
}

/* The error of a run that did not reach an optimum: DLS_ELIMIT when a limit stopped it,
 * else DLS_ESOLVER; both say what was tried. */
static dls_status run_failed(const lp *L, const char *what, dls_error *err)
{
    char range[160] = "", used[160];
    if (L->amin > 0 && L->amax > DLS__LP_WIDE_RANGE * L->amin)
        snprintf(range, sizeof range, "; its coefficients span %.2g to %.2g, too far apart "
                 "for double precision", L->amin, L->amax);
    spent(L, used, sizeof used);
    if (L->limited)
        return dls__fail(err, DLS_ELIMIT, "schedule", "GLPK's simplex did not solve %s within "
                         "the limits (%s; %s)%s", what, L->tried, used, range);
    return dls__fail(err, DLS_ESOLVER, "schedule", "GLPK's simplex failed on %s (%s; %s)%s",
                     what, L->tried, used, range);
}

/* Solves the LP as it stands and checks the answer, solving again with tight tolerances
 * when GLPK's duals or the answer's residual call for it. what names the LP. */
static dls_status solve_checked(lp *L, const dls__star *st, dls__lp_answer *ans,
                                const char *what, dls_error *err)
{
    if (simplex(L, 0, what) != RUN_OPTIMAL)
        return run_failed(L, what, err);
    if (dual_violation(L) > DLS__LP_DUAL_TOL) {
        /* not quite optimal: again from the final basis, with tight tolerances */
        if (simplex(L, DLS__LP_REPAIR_TOL, what) != RUN_OPTIMAL)
            return run_failed(L, what, err);
    }
    double residual = read_and_check(L, st, ans->active, ans->alpha, &ans->cmax);
    if (residual > L->par->check_tol) {
        /* repair: again from the final basis, with tight tolerances */
        int r = simplex(L, DLS__LP_REPAIR_TOL, what);
        if (r == RUN_LIMIT)
            return run_failed(L, what, err);
        if (r == RUN_OPTIMAL)
            residual = read_and_check(L, st, ans->active, ans->alpha, &ans->cmax);
        if (residual > L->par->check_tol)
            return dls__fail(err, DLS_ENUMERIC, "schedule", "the LP's answer fails its checks "
                             "(relative residual %.3g > %.3g: loads, bounds or replayed "
                             "makespan), even after a re-solve with tight tolerances",
                             residual, L->par->check_tol);
    }
    ans->residual = fmax(ans->residual, residual);
    return DLS_OK;
}

/* Gives column alpha_k all its coefficients (full) or only the load row's. */
static void set_column(lp *L, const dls__star *st, size_t k, int full, int *row, double *val)
{
    int n = 0;
    if (full) {
        if (st->C[k] != 0) {
            row[++n] = row_send(k);
            val[n] = -st->C[k] * L->u / L->tau;
        }
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            if (st->b[l] != 0) {
                row[++n] = row_line(L, l);
                val[n] = st->b[l] * L->u / L->tau;
            }
    }
    row[++n] = row_load(L);
    val[n] = 1;
    glp_set_mat_col(L->P, col_alpha(k), n, row, val);
}

/* After a solve, which of the processors are negligible (see the top of this file): those
 * that can take next to nothing by the makespan just found, an upper bound on every later
 * LP's optimum (dropping idle processors keeps the answer feasible, and a processor comes
 * back only when it shortens the makespan). The paper's LP's own test, with every earlier
 * startup charged, does not hold once processors are dropped: a processor it marked that
 * this test does not gets its coefficients back. The LP is scaled again after a change.
 * want: m bytes; row, val: room for the most lines of a processor + 2, 1-based. Returns
 * how many processors changed. */
static size_t refix(lp *L, const dls__star *st, unsigned char *fixed, const dls__lp_answer *ans,
                    unsigned char *want, int *row, double *val)
{
    size_t m = st->m, changed = 0;
    for (size_t k = 0; k < m; k++)
        want[k] = !(ans->alpha[k] > DLS__LP_ZERO_LOAD_REL * st->V) &&
                  negligible(st, k, ans->cmax, 0);
    leave_room(st, want);
    for (size_t k = 0; k < m; k++) {
        if (want[k] == fixed[k])
            continue;
        fixed[k] = want[k];
        set_column(L, st, k, !fixed[k], row, val);
        set_active(L, st, fixed, k, ans->active[k]);
        changed++;
    }
    if (changed > 0)
        glp_scale_prob(L->P, GLP_SF_AUTO);
    return changed;
}

/* Removes the startups of the processors that got no load; returns how many. */
static size_t drop_idle(lp *L, const dls__star *st, const unsigned char *fixed,
                        dls__lp_answer *ans)
{
    size_t dropped = 0;
    for (size_t k = 0; k < st->m; k++) {
        if (!ans->active[k] || ans->alpha[k] > DLS__LP_ZERO_LOAD_REL * st->V)
            continue;
        set_active(L, st, fixed, k, 0);
        ans->active[k] = 0;
        ans->alpha[k] = 0;
        dropped++;
    }
    return dropped;
}

/* A processor may have got nothing only because the startups of other idle ones before it
 * delayed it: tries, one at a time, those that could now finish before the makespan, and
 * keeps those that shorten it. *added receives how many were kept. Negligible processors
 * (fixed) are not tried: with no load they can only add their startup. */
static dls_status readd_round(lp *L, const dls__star *st, const unsigned char *fixed,
                              dls__lp_answer *ans, size_t *added, dls_error *err)
{
    const dls__star_opts *par = L->par;
    char what[96];
    *added = 0;
    for (size_t k = 0; k < st->m; k++) {
        if (ans->active[k] || (fixed && fixed[k]))
            continue;
        double prev_end = 0; /* end of the send before k in the current schedule */
        for (size_t j = 0; j < k; j++)
            if (ans->active[j])
                prev_end += st->S[j] + st->C[j] * ans->alpha[j];
        double start_cost = 0;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            start_cost = fmax(start_cost, st->a[l]);
        if (!(prev_end + st->S[k] + start_cost < ans->cmax))
            continue;
        double before = ans->cmax, cm = 0;
        set_active(L, st, fixed, k, 1);
        ans->active[k] = 1;
        snprintf(what, sizeof what, "the LP with processor %zu of the send order back", k + 1);
        int r = simplex(L, 0, what);
        if (r == RUN_LIMIT)
            return run_failed(L, what, err);
        int better = r == RUN_OPTIMAL &&
                     read_and_check(L, st, ans->active, ans->alpha, &cm) <= par->check_tol &&
                     cm < before * (1 - par->check_tol) &&
                     ans->alpha[k] > DLS__LP_ZERO_LOAD_REL * st->V;
        if (better) {
            ans->cmax = cm;
            ++*added;
            continue;
        }
        set_active(L, st, fixed, k, 0);
        ans->active[k] = 0;
        snprintf(what, sizeof what, "the LP after trying processor %zu of the send order",
                 k + 1);
        if (simplex(L, 0, what) != RUN_OPTIMAL)
            return run_failed(L, what, err);
        if (read_and_check(L, st, ans->active, ans->alpha, &ans->cmax) > par->check_tol)
            return dls__fail(err, DLS_ESOLVER, "schedule", "GLPK's answer fails its checks "
                             "after trying processor %zu of the send order", k + 1);
    }
    return DLS_OK;
}

/* The star of the positions the LP keeps (active), in sub (arrays of st's sizes, allocated
 * by kept_alloc); sub->proc gives each its platform index. */
static void kept_fill(const dls__star *st, const unsigned char *active, dls__star *sub,
                      size_t *pos)
{
    size_t i = 0, l = 0;
    sub->V = st->V;
    sub->off[0] = 0;
    for (size_t k = 0; k < st->m; k++) {
        if (!active[k])
            continue;
        sub->S[i] = st->S[k];
        sub->C[i] = st->C[k];
        sub->B[i] = st->B[k];
        sub->proc[i] = st->proc[k];
        for (size_t j = st->off[k]; j < st->off[k + 1]; j++, l++) {
            sub->a[l] = st->a[j];
            sub->b[l] = st->b[j];
        }
        pos[i++] = k;
        sub->off[i] = l;
    }
    sub->m = i;
}

static int kept_alloc(const dls__star *st, dls__star *sub)
{
    size_t m = st->m ? st->m : 1, lines = st->off[st->m] ? st->off[st->m] : 1;
    memset(sub, 0, sizeof *sub);
    sub->S = malloc(m * sizeof *sub->S);
    sub->C = malloc(m * sizeof *sub->C);
    sub->B = malloc(m * sizeof *sub->B);
    sub->proc = malloc(m * sizeof *sub->proc);
    sub->off = malloc((m + 1) * sizeof *sub->off);
    sub->a = malloc(lines * sizeof *sub->a);
    sub->b = malloc(lines * sizeof *sub->b);
    return sub->S && sub->C && sub->B && sub->proc && sub->off && sub->a && sub->b ? 0 : -1;
}

static void kept_free(dls__star *sub)
{
    free(sub->S);
    free(sub->C);
    free(sub->B);
    free(sub->proc);
    free(sub->off);
    free(sub->a);
    free(sub->b);
    memset(sub, 0, sizeof *sub);
}

/* The optimal basis as the rational certificate reads it (certificate.c). */
static void read_basis(const lp *E, const dls__star *X, dls__lp_basis *b)
{
    for (size_t k = 0; k < X->m; k++) {
        int stat = glp_get_col_stat(E->P, col_alpha(k));
        b->alpha[k] = (signed char)(stat == GLP_BS ? 0 : stat == GLP_NU ? 1 : -1);
    }
    for (size_t l = 0; l < X->off[X->m]; l++)
        b->tight[l] = glp_get_row_stat(E->P, row_line(E, l)) != GLP_BS;
}

/* Confirms the optimum with GLPK's exact (rational) simplex, on the LP of the positions
 * kept written in the platform's own numbers (no scaling, no position left out as
 * negligible), so that its optimal basis is the exact one, which the rational certificate
 * then reads. It starts from the floating-point optimum's basis. t2: triplets for the
 * LP. */
static dls_status certify(lp *L, const dls__star *st, dls__lp_answer *ans, dls__triplets *t2,
                          dls_error *err)
{
    const dls__star_opts *par = L->par;
    char used[160];
    ans->exact = -1;
    unsigned long left = iterations_left(L);
    if (left == 0 || dls__glpk_left(L->g) <= 0) {
        spent(L, used, sizeof used);
        return dls__fail(err, DLS_ELIMIT, "schedule", "no %s left for the exact (rational) "
                         "simplex (%s)", left == 0 ? "iterations" : "time", used);
    }
    dls__star *X = &ans->kept;
    size_t *pos = ans->kept_pos;
    kept_fill(st, ans->active, X, pos);
    if (X->m > DLS__LP_EXACT_MAX_POSITIONS)
        /* GLPK's exact simplex looks at no clock in its first rational factorization (past
         * 130 s at 10^4 processors, beyond any time limit); the certificate stops here too */
        return dls__fail(err, DLS_ELIMIT, "schedule", "the exact (rational) simplex is run on "
                         "at most %d processors, not %zu: its first factorization could not "
                         "be stopped at the time limit", DLS__LP_EXACT_MAX_POSITIONS, X->m);
    lp E;
    memset(&E, 0, sizeof E);
    E.g = L->g;
    E.par = par;
    dls__triplets_clear(t2);
    dls__glpk_stage(L->g, "the LP in the platform's numbers, for the exact simplex");
    build(&E, X, 1, 1, 0, t2, NULL);
    /* the floating-point optimum's basis, position by position */
    for (size_t i = 0; i < X->m; i++) {
        size_t k = pos[i];
        glp_set_col_stat(E.P, col_alpha(i), glp_get_col_stat(L->P, col_alpha(k)));
        glp_set_col_stat(E.P, col_T(&E, i), glp_get_col_stat(L->P, col_T(L, k)));
        glp_set_row_stat(E.P, row_send(i), glp_get_row_stat(L->P, row_send(k)));
        for (size_t j = 0; j < X->off[i + 1] - X->off[i]; j++)
            glp_set_row_stat(E.P, row_line(&E, X->off[i] + j),
                             glp_get_row_stat(L->P, row_line(L, st->off[k] + j)));
    }
    glp_set_col_stat(E.P, col_cmax(&E), glp_get_col_stat(L->P, col_cmax(L)));
    glp_set_row_stat(E.P, row_load(&E), glp_get_row_stat(L->P, row_load(L)));
    glp_smcp parm;
    dls__glpk_smcp(L->g, &parm, left);
    dls__glpk_stage(L->g, "the exact (rational) simplex");
    double t0 = dls__glpk_elapsed(L->g);
    int ret = glp_exact(E.P, &parm);
    if (ret == GLP_EBADB || ret == GLP_ESING) {
        /* the basis does not carry over (a position the LP had fixed): start afresh */
        glp_std_basis(E.P);
        ret = glp_exact(E.P, &parm);
    }
    int its = glp_get_it_cnt(E.P);
    L->solves++;
    if (ret == GLP_EITLIM || ret == GLP_ETMLIM) {
        double secs = dls__glpk_elapsed(L->g) - t0;
        spent(L, used, sizeof used);
        glp_delete_prob(E.P);
        return dls__fail(err, DLS_ELIMIT, "schedule", "the exact (rational) simplex did not "
                         "finish within the limits (%d iterations in %.2g s, %s; %s)", its,
                         secs, glpk_code_text(ret), used);
    }
    double exact = glp_get_obj_val(E.P);
    int status = glp_get_status(E.P);
    if (ret != 0 || status != GLP_OPT) {
        glp_delete_prob(E.P);
        return dls__fail(err, DLS_ENUMERIC, "schedule", "the exact (rational) simplex did not "
                         "confirm the optimum (%s)", ret != 0 ? glpk_code_text(ret)
                                                      : glpk_status_text(status));
    }
    /* GLPK's exact simplex reports its optimum as a double that can be off the true one by
     * more than check_tol (on one processor with lines 933 s apart at the load, by 1.2e-9:
     * its KKT report shows the load row missed by 1.3e-5): its basis is what is used, and
     * the certificate (certificate.c) rebuilds the optimum from it exactly. */
    ans->exact_cmax = exact;
    read_basis(&E, X, &ans->basis);
    glp_delete_prob(E.P);
    ans->exact = 1;
    return DLS_OK;
}

typedef struct lp_work {
    const dls__star *st;
    const dls__star_opts *par;
    double u, tau;
    dls__triplets *t;
    dls__triplets *t2;                /* the exact simplex's LP (exact only) */
    unsigned char *fixed;        /* negligible positions (m) */
    unsigned char *want;         /* m */
    int *row;                    /* 1-based: the most lines of a processor + 2 */
    double *val;
    dls__lp_answer *ans;
} lp_work;

/* The automatic iteration limit for an LP of this many rows and columns. */
static unsigned long auto_iterations(size_t rows, size_t cols)
{
    return DLS__LP_AUTO_ITERATIONS_BASE + DLS__LP_AUTO_ITERATIONS_PER * (unsigned long)(rows + cols);
}

/* Everything done with GLPK, inside the guard set up by dls__lp_solve_star(): the paper's
 * LP, then (drop_unused) the processors that got nothing removed and re-added in rounds. */
static dls_status run_lp(const lp_work *w, dls__glpk_guard *g, dls_error *err)
{
    const dls__star *st = w->st;
    const dls__star_opts *par = w->par;
    dls__lp_answer *ans = w->ans;
    lp L;
    memset(&L, 0, sizeof L);
    L.g = g;
    L.par = par;
    dls__glpk_stage(g, "building the LP");
    build(&L, st, w->u, w->tau, 0, w->t, w->fixed);
    L.it_limit = par->iteration_limit > 0
                     ? par->iteration_limit
                     : auto_iterations(st->m + st->off[st->m] + 1, 2 * st->m + 1);
    dls__glpk_stage(g, "scaling the LP");
    glp_scale_prob(L.P, GLP_SF_AUTO);
    glp_adv_basis(L.P, 0);
    dls_status result = DLS_OK;
    unsigned readds = 0;
    const char *what = "the paper's LP";
    for (;;) {
        result = solve_checked(&L, st, ans, what, err);
        if (result != DLS_OK)
            break;
        if (ans->paper_cmax == 0)
            ans->paper_cmax = ans->cmax; /* the first optimum: the paper's LP */
        if (!par->drop_unused)
            break;
        what = "the LP without its idle processors";
        size_t changed = refix(&L, st, w->fixed, ans, w->want, w->row, w->val);
        if (drop_idle(&L, st, w->fixed, ans) > 0 || changed > 0)
            continue; /* solve without their startups, or with the columns changed */
        if (readds >= DLS__LP_MAX_READD_ROUNDS)
            break;
        readds++;
        size_t added;
        result = readd_round(&L, st, w->fixed, ans, &added, err);
        if (result != DLS_OK || added == 0)
            break;
    }
    if (result == DLS_OK && par->exact)
        result = certify(&L, st, ans, w->t2, err);
    if (result == DLS_OK) {
        int ae_ind, re_ind;
        double ae_max, re_max;
        glp_check_kkt(L.P, GLP_SOL, GLP_KKT_PE, &ae_max, &ae_ind, &re_max, &re_ind);
        ans->kkt_pe = re_max;
        glp_check_kkt(L.P, GLP_SOL, GLP_KKT_DE, &ae_max, &ae_ind, &re_max, &re_ind);
        ans->kkt_de = re_max;
    }
    ans->iterations = (unsigned)glp_get_it_cnt(L.P);
    ans->solves = L.solves;
    glp_delete_prob(L.P);
    return result;
}

static dls_status lp_work_run(void *arg, dls__glpk_guard *g, dls_error *err)
{
    const lp_work *w = arg;
    dls__glpk_progress(g, w->par->progress, w->par->progress_data);
    return run_lp(arg, g, err);
}

/* A simple distribution for an upper bound on the LP's optimum: loads in proportion to
 * each processor's speed per unit (1 / (C_k + its steepest line)), within the limits (those
 * of the processors that reach theirs shared among the others, by water-filling). The
 * limits hold V (the caller checked). x receives loads by position; w and order are
 * scratch of m each. */
void dls__simple_distribution(const dls__star *st, double *x, double *w, dls__keyed *order)
{
    size_t m = st->m;
    double cmin = INFINITY;
    for (size_t k = 0; k < m; k++) {
        double c = st->C[k];
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            c = fmax(c, st->C[k] + st->b[l]);
        w[k] = c;
        if (c > 0)
            cmin = fmin(cmin, c);
    }
    /* a processor that costs nothing per unit weighs 1000 times the cheapest other */
    double eps = isfinite(cmin) ? 1e-3 * cmin : 1;
    for (size_t k = 0; k < m; k++) {
        w[k] = fmax(1 / (w[k] + eps), DBL_MIN);
        order[k].key = st->B[k] > 0 ? st->B[k] / w[k] : 0;
        order[k].index = k;
    }
    dls__keyed_sort(order, m);
    /* x[k] temporarily holds the weights of the processors from order i on */
    double rest = 0;
    for (size_t i = m; i-- > 0;) {
        rest += w[order[i].index];
        x[order[i].index] = rest;
    }
    double R = st->V;
    size_t i = 0;
    for (; i < m; i++) {
        size_t k = order[i].index;
        double level = R / x[k];
        if (!(order[i].key < level))
            break;
        x[k] = st->B[k];
        R -= st->B[k];
    }
    if (i < m) {
        double level = fmax(R, 0) / x[order[i].index];
        for (; i < m; i++) {
            size_t k = order[i].index;
            x[k] = fmin(w[k] * level, st->B[k]);
        }
    }
}

void dls__lp_answer_free(dls__lp_answer *ans)
{
    kept_free(&ans->kept);
    free(ans->kept_pos);
    free(ans->alpha);
    free(ans->active);
    free(ans->basis.alpha);
    free(ans->basis.tight);
}

dls_status dls__lp_solve_star(const dls__star *st, const dls__star_opts *par,
                              dls__lp_answer *ans, dls_error *err)
{
    size_t m = st->m, most = 0;
    for (size_t k = 0; k < m; k++)
        if (st->off[k + 1] - st->off[k] > most)
            most = st->off[k + 1] - st->off[k];
    dls__triplets t, t2;
    dls__triplets_init(&t);
    dls__triplets_init(&t2);
    int exact_ok = 1;
    ans->alpha = malloc(m * sizeof *ans->alpha);
    ans->active = malloc(m);
    if (par->exact) {
        /* what the exact simplex and the certificate need, allocated before GLPK runs */
        ans->basis.alpha = malloc(m ? m : 1);
        ans->basis.tight = malloc(st->off[m] ? st->off[m] : 1);
        ans->kept_pos = malloc((m ? m : 1) * sizeof *ans->kept_pos);
        exact_ok = ans->basis.alpha != NULL && ans->basis.tight != NULL && ans->kept_pos != NULL &&
                   kept_alloc(st, &ans->kept) == 0 && triplets_alloc(&t2, st) == 0;
    }
    unsigned char *fixed = calloc(m, 1), *want = malloc(m);
    int *row = malloc((most + 3) * sizeof *row);
    double *val = malloc((most + 3) * sizeof *val);
    double *scratch = malloc(2 * m * sizeof *scratch);
    dls__keyed *order = malloc(m * sizeof *order);
    dls_status result = DLS_OK;
    if (triplets_alloc(&t, st) != 0 || ans->alpha == NULL || ans->active == NULL ||
        !exact_ok ||
        fixed == NULL || want == NULL || row == NULL || val == NULL || scratch == NULL ||
        order == NULL)
        result = dls__oom(err, "schedule");
    if (result == DLS_OK) {
        memset(ans->active, 1, m);
        /* the makespan of a simple distribution bounds the paper's LP, which charges every
         * startup: a processor cannot start before all the startups ahead of it */
        dls__simple_distribution(st, scratch, scratch + m, order);
        double ub = dls__replay(st, scratch, NULL, 1, 0, NULL, NULL, NULL, NULL, NULL);
        double before = 0;
        for (size_t k = 0; k < m; k++) {
            fixed[k] = (unsigned char)negligible(st, k, ub, before);
            before += st->S[k];
        }
        if (par->drop_unused) {
            /* With selection, the best processor alone bounds the answer: a processor that
             * cannot finish a share within it is never used, although the paper's LP, whose
             * makespan its startup of 10^18 s may set, would give it one (and dropping the
             * unused afterwards would keep it) */
            double ub_sel = best_single(st);
            for (size_t k = 0; k < m; k++)
                if (!fixed[k] && negligible(st, k, ub_sel, 0)) {
                    fixed[k] = 2;
                    ans->hopeless++;
                }
        }
        if (leave_room(st, fixed) == 0)
            ans->hopeless = 0;
        double u, tau;
        units(st, fixed, &u, &tau, scratch);
        lp_work w = {st, par, u, tau, &t, &t2, fixed, want, row, val, ans};
        result = dls__glpk_call(par->verbose, par->time_limit, "schedule", lp_work_run, &w,
                                NULL, err);
        ans->negligible = 0;
        ans->first_negligible = m;
        for (size_t k = m; k-- > 0;)
            if (fixed[k]) {
                ans->negligible++;
                ans->first_negligible = k;
            }
    }
    dls__triplets_free(&t);
    dls__triplets_free(&t2);
    free(fixed);
    free(want);
    free(row);
    free(val);
    free(scratch);
    free(order);
    return result;
}

void dls__export_units(const dls__star *st, double *u, double *tau)
{
    /* the platform's own units where it is safe: readable files */
    double share = st->V / (double)st->m, least = INFINITY, sum_s = 0, speed = 0;
    for (size_t k = 0; k < st->m; k++) {
        double bmin = INFINITY;
        if (st->C[k] > 0)
            least = fmin(least, st->C[k]);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            if (st->b[l] > 0)
                least = fmin(least, st->b[l]);
            bmin = fmin(bmin, st->b[l]);
        }
        sum_s += st->S[k];
        speed += 1 / (st->C[k] + bmin);
    }
    int e;
    *u = 1;
    if (!(share <= DLS__EXPORT_SHARE_MAX && least >= DLS__EXPORT_COEF_MIN)) {
        frexp(share, &e); /* a power of two (exact scaling) nearest the mean share */
        *u = ldexp(1.0, e - 1);
    }
    /* the typical time, as the chain takes it: the startups, or V over the total speed */
    double typical = fmax(sum_s, st->V / speed);
    *tau = 1;
    if (isfinite(typical) && typical > 0 &&
        !(typical >= DLS__EXPORT_TIME_MIN && typical <= DLS__EXPORT_TIME_MAX)) {
        frexp(typical, &e);
        *tau = ldexp(1.0, e - 1);
    }
}

typedef struct named_work {
    const dls__star *st;
    dls_export_format format;
    const char *path;
    dls__triplets t;
} named_work;

static dls_status named_run(void *arg, dls__glpk_guard *g, dls_error *err)
{
    named_work *w = arg;
    lp L;
    memset(&L, 0, sizeof L);
    double u, tau;
    dls__export_units(w->st, &u, &tau);
    build(&L, w->st, u, tau, 1, &w->t, NULL);
    /* the units in the file's first line (the writers put the problem's name there; GLPK's
     * format reads a name without spaces) */
    char name[160];
    snprintf(name, sizeof name, "dlsched_star_loads_in_units_of_%.17g_times_in_units_of_%.17g_s",
             u, tau);
    glp_set_prob_name(L.P, name);
    int ret = w->format == DLS_EXPORT_LP ? glp_write_lp(L.P, NULL, w->path)
                                         : glp_write_prob(L.P, 0, w->path);
    glp_delete_prob(L.P);
    if (ret != 0)
        return dls__fail(err, DLS_EIO, NULL, "GLPK could not write the LP: %s", g->tail);
    return DLS_OK;
}

dls_status dls__lp_write_named(const dls__star *st, int verbose, dls_export_format format,
                               const char *path, dls_error *err)
{
    named_work w = {st, format, path, {0}};
    if (triplets_alloc(&w.t, st) != 0) {
        dls__triplets_free(&w.t);
        return dls__oom(err, NULL);
    }
    /* writing takes time in proportion to the LP's size: no limit */
    dls_status rc = dls__glpk_call(verbose, INFINITY, "export", named_run, &w, NULL, err);
    dls__triplets_free(&w.t);
    return rc;
}
