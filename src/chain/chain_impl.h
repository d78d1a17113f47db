/* Inside the chain solver: the star in the chain's units (problem.c), piecewise-linear
 * value functions (pwl.c), one position's transform of a value function (stage.c), and
 * the two solvers (paper.c, select.c). Names are static or dls__chain_*; nothing here is
 * used outside src/chain. */
#ifndef DLSCHED_CHAIN_CHAIN_IMPL_H
#define DLSCHED_CHAIN_CHAIN_IMPL_H

#include <float.h>
#include <math.h>

#include "chain/chain.h"

/* ---------------------------------------------------------------------------------- */
/* Tolerances (relative), named once                                                  */

/* Two slopes that differ by less than this, relative, are one slope (collinear points are
 * merged, near-ties in a derivative are broken conservatively). */
#define DLS__CHAIN_SLOPE_TOL 0x1p-46
/* The check of a greedy decision accepts a downstream slope this much (relative) above
 * the position's link speed 1 / C: a tie, where either decision is optimal. */
#define DLS__CHAIN_CHECK_TOL 0x1p-40
/* Newton's iteration on the makespan stops when the load found is within this of V
 * (relative), or when a step moves the makespan by less than this. */
#define DLS__CHAIN_NEWTON_TOL 0x1p-50
/* A load within this (relative) of what a set of processors' limits hold is taken as held
 * (the rest is rounding, which settling the loads absorbs). */
#define DLS__CHAIN_CAP_TOL 0x1p-40
/* SELECT's heuristic: a load of at most this fraction of V is rounding noise (its
 * processor is left out). */
#define DLS__CHAIN_DUST 0x1p-40
/* A load below this fraction of V does not change the sum of the loads in double precision:
 * the answer gives none. */
#define DLS__CHAIN_LOAD_ULP 0x1p-53
/* Decisions whose value at Newton's last step is this much (relative) below V cannot reach
 * it. */
#define DLS__CHAIN_REACH_TOL 0x1p-30
/* SELECT's incumbent: the paper's LP of the first 1, 2, 4, ... positions, all of them up to
 * this many positions, beyond up to m / DLS__CHAIN_PREFIX_SHARE (select.c). */
#define DLS__CHAIN_PREFIX_ALL 1024
#define DLS__CHAIN_PREFIX_SHARE 16
/* Most Newton steps before the explicit chain takes over. */
#define DLS__CHAIN_NEWTON_MAX 200
/* Most rounds of checking (and changing) the decisions of PAPER's policy iteration before
 * the whole chain is made explicit. */
#define DLS__CHAIN_ROUNDS_MAX 40
/* Most changes of one stage's decision (all it can, or nothing) before the chain from it
 * on is made explicit. */
#define DLS__CHAIN_FLIPS_MAX 8
/* Policy iteration changes a decision when sigma C is past 1 by a factor 1 + margin: the
 * first margin, halved after each round that improves the makespan, 0 below the floor;
 * after a round that made it worse (undone), multiplied by the backoff, at least retry. */
#define DLS__CHAIN_FLIP_MARGIN 1.0
#define DLS__CHAIN_FLIP_MARGIN_MIN 0x1p-10
#define DLS__CHAIN_FLIP_BACKOFF 4.0
#define DLS__CHAIN_FLIP_RETRY 0x1p-7
/* When the first stage that fails the check has at most this many stages below it, the
 * chain from it is made explicit at once (cheaper than more rounds). */
#define DLS__CHAIN_EXPLICIT_CHEAP 64
/* Values below this fraction of the cap of a value function are compared on the cap's
 * scale when points are merged (a value near zero has no relative precision of its own). */
#define DLS__CHAIN_VALUE_FLOOR 0x1p-20
/* The windows of explicit value functions: relative slack for rounding. */
#define DLS__CHAIN_WINDOW_SLACK 0x1p-30
/* The marginal costs dT/dV are the slopes of f_1 this much (relative) either side of the
 * makespan, which carries rounding: pieces shorter than that are not seen. */
#define DLS__CHAIN_SLOPE_STEP 0x1p-40
/* The replay of the loads must give the chain's makespan within this (relative). */
#define DLS__CHAIN_AGREE_TOL 1e-9
/* Explicit value functions are capped a little above the load, so that their slope at the
 * makespan (the marginal cost) is still seen. */
#define DLS__CHAIN_VCAP (1 + 0x1p-20)
/* Most ulps a position's load is lowered by where rounding put its compute time past the
 * time it has (paper.c: cancellation in a + b alpha with a huge slope). */
#define DLS__CHAIN_SHAVE_STEPS 8
/* Magnitudes, in the chain's units (see chain.h): beyond this a value is rejected, below
 * its inverse a rate or slope's time for the whole load is taken as 0. */
#define DLS__CHAIN_RANGE 0x1p500
/* With selection, a position whose startup and least time exceed the best single
 * processor's makespan by this much (relative) is never used (problem.c). */
#define DLS__CHAIN_HOPELESS_MARGIN 1e-9

/* ---------------------------------------------------------------------------------- */
/* The problem in the chain's units (problem.c)                                       */

typedef struct dls__cprob {
    const dls__star *st;
    size_t m;
    double V;                  /* the load (or the top of a curve's range), scaled */
    double lu, tu;             /* load unit and time unit (powers of two) */
    double *S, *C, *Bt, *amax; /* by position: startup, rate, min(limit, V), max intercept */
    double *a, *b, *w;         /* by line (st->off): intercept, slope, 1 / (C + b) */
    size_t flushed;            /* rates and slopes taken as 0 */
    size_t hopeless;           /* SELECT: positions never used (see problem.c), given no room */
    size_t single;             /* SELECT: the position fastest alone with the whole load (the
                                * hopeless rule's bound); m when none holds it */
    size_t max_lines;          /* most lines of one position */
    double capacity;           /* sum of the limits, in original units */
    dls__chain_paper_method paper_method; /* par->paper_method */
} dls__cprob;

/* Builds the problem of st for loads up to vmax (original units); checks the magnitudes.
 * par->platform names processors in messages. */
DLS__HIDDEN dls_status dls__cprob_build(const dls__star *st, double vmax,
                                       const dls__chain_params *par, dls__cprob *pb,
                                       dls_error *err);
DLS__HIDDEN void dls__cprob_free(dls__cprob *pb);
/* The name of position k for messages: the processor's name, or "position k". */
DLS__HIDDEN const char *dls__cprob_name(const dls__chain_params *par, const dls__star *st,
                                       size_t k, char *buf, size_t size);

/* The most load position p can take when Z >= amax seconds remain after the start of its
 * send (its send and its compute both within Z): min(Bt, min_l (Z - a_l) / (C + b_l)).
 * *slope (may be NULL) gets its derivative in Z: just right of Z when dir > 0 (among
 * near-ties the smallest slope), just left when dir < 0 (the largest, the conservative
 * side for the checks of paper.c), the binding line's when dir = 0. */
/* (inline: the evaluations of paper.c call it for every position, several times a
 * solve) */
static inline double dls__cprob_fill(const dls__cprob *pb, size_t p, double Z, int dir, double *slope)
{
    const dls__star *st = pb->st;
    double best = pb->Bt[p], s = 0;
    size_t lo = st->off[p], hi = st->off[p + 1];
    if (Z < pb->amax[p])
        Z = pb->amax[p]; /* rounding below the domain start */
    for (size_t l = lo; l < hi; l++) {
        double c = (Z - pb->a[l]) * pb->w[l]; /* NaN or INFINITY for unbounded lines */
        if (c < best) {
            best = c;
            s = pb->w[l];
        }
    }
    if (dir != 0) {
        /* near-ties: the right derivative is the smallest slope among them, the left one
         * the largest */
        double tol = DLS__CHAIN_SLOPE_TOL * fabs(best) + DBL_MIN;
        if (pb->Bt[p] <= best + tol)
            s = dir > 0 ? 0 : s;
        for (size_t l = lo; l < hi; l++) {
            double c = (Z - pb->a[l]) * pb->w[l];
            if (c <= best + tol && isfinite(pb->w[l]))
                s = dir > 0 ? fmin(s, pb->w[l]) : fmax(s, pb->w[l]);
        }
    }
    if (slope)
        *slope = s;
    return best;
}

/* The load position p computes in r seconds (v(r) of chain.h): points (r_j, alpha_j)
 * increasing in both, r_0 = amax, the last alpha = Bt, constant after. Storage for
 * max_lines + 2 points is the caller's. */
typedef struct dls__vcurve {
    size_t n;
    double *r, *al;
    /* what it was built for (the stage functions build it again only for another): NULL
     * when not built; zero both with the rest */
    const struct dls__cprob *pb;
    size_t p;
} dls__vcurve;
DLS__HIDDEN void dls__vcurve_build(const dls__cprob *pb, size_t p, dls__vcurve *vc);
DLS__HIDDEN double dls__vcurve_at(const dls__vcurve *vc, double r);

/* ---------------------------------------------------------------------------------- */
/* Piecewise-linear functions (pwl.c)                                                 */

/* A nondecreasing function on [x[0], inf): points (x, y) with x nondecreasing, linear
 * between points of different x, `tail` the slope after the last point. Two points with
 * the same x are a jump (left limit, then the value: functions are upper semicontinuous).
 * Points may live in a caller's arena (cap = 0: not owned). */
typedef struct dls__pwl {
    size_t n, cap;
    double *x, *y;
    double tail;
} dls__pwl;

DLS__HIDDEN void dls__pwl_free(dls__pwl *f);
/* Appends a point; -1 when out of memory. */
DLS__HIDDEN int dls__pwl_push(dls__pwl *f, double x, double y);
/* Value at x (the upper value at a jump); -INFINITY before the domain. */
DLS__HIDDEN double dls__pwl_at(const dls__pwl *f, double x);
/* The limit of f from the left at x (below f(x) where f jumps at x). */
DLS__HIDDEN double dls__pwl_left_limit(const dls__pwl *f, double x);
/* Slope just right of x, and just left of x (x inside the domain). */
DLS__HIDDEN double dls__pwl_slope_right(const dls__pwl *f, double x);
DLS__HIDDEN double dls__pwl_slope_left(const dls__pwl *f, double x);
/* Index of the last point with x[i] <= x (0 when x < x[0]). */
DLS__HIDDEN size_t dls__pwl_find(const dls__pwl *f, double x);
/* The least x with f(x) >= v, or INFINITY. */
DLS__HIDDEN double dls__pwl_reach(const dls__pwl *f, double v);
/* Caps the values at vcap, drops what lies beyond wmax (keeping one point at or past it,
 * the slope of the last piece as tail), and merges collinear points and empty jumps. */
DLS__HIDDEN void dls__pwl_finish(dls__pwl *f, double vcap, double wmax);
/* out = max(A, B shifted right by shift): the upper envelope, with its jumps. */
DLS__HIDDEN int dls__pwl_max2(const dls__pwl *A, const dls__pwl *B, double shift,
                             dls__pwl *out);

/* ---------------------------------------------------------------------------------- */
/* One position's transform (stage.c)                                                 */

/* PAPER: f = the value function of position p above g (concave, on [g->x[0], inf)), with
 * rmin = max(amax_p, g->x[0]); *rho gets where the slope of g falls to 1 / C_p (clamped
 * to rmin; INFINITY when it does not within g): the rest gets exactly rho when it can. */
DLS__HIDDEN int dls__stage_paper(const dls__cprob *pb, size_t p, const dls__pwl *g, double vcap,
                                double wmax, dls__vcurve *vc, dls__pwl *f, double *rho);
/* SELECT: f = max(g, position p used above g), g on [g->x[0], inf) with jumps;
 * scratch[0..1] are work functions. */
DLS__HIDDEN int dls__stage_select(const dls__cprob *pb, size_t p, const dls__pwl *g,
                                 double vcap, double wmax, dls__vcurve *vc, dls__pwl *f,
                                 dls__pwl *scratch);

/* CHARGED (the best-order search): f = position p above g in the paper's model (charged
 * its startup and its smallest compute time even with no load), g any nondecreasing
 * function with jumps; f->n = 0 when p cannot be charged within wmax. scratch[0..4] are
 * work functions. */
DLS__HIDDEN int dls__stage_charged(const dls__cprob *pb, size_t p, const dls__pwl *g,
                                  double vcap, double wmax, dls__vcurve *vc, dls__pwl *f,
                                  dls__pwl *scratch);
/* The forward step of position k above g when W remains at the start of its send: the most
 * load k and the rest finish, k's load *alpha and the time *r left when k's send ends (the
 * right end, k sent nothing, when nothing is better); -INFINITY when k cannot be charged
 * within W. */
DLS__HIDDEN double dls__stage_forward(const dls__cprob *pb, size_t k, const dls__pwl *g,
                                     double W, double *alpha, double *r);

/* ---------------------------------------------------------------------------------- */
/* The solvers                                                                       */

/* Positions in send order that form the chain: all of them (pos NULL) or a subset. */
typedef struct dls__chain {
    const dls__cprob *pb;
    size_t n;
    const size_t *pos;     /* position of each stage (NULL: stage k is position k) */
} dls__chain;

static inline size_t dls__chain_pos(const dls__chain *c, size_t k)
{
    return c->pos ? c->pos[k] : k;
}

/* What a solve of one chain returns (loads by stage, scaled). */
typedef struct dls__chain_result {
    double T;                       /* makespan, scaled */
    double slope_left, slope_right; /* df_1/dT at T from either side */
    size_t pieces_total, pieces_max, explicit_stages;
    unsigned passes, rounds;
    int infeasible;
    int unproven;                   /* PAPER: the sweep's answer, its check failed (see
                                       DLS__CHAIN_FALLBACK_MAX) */
} dls__chain_result;

/* PAPER (paper.c): the exact optimum for load vload of the chain c; alpha by stage. */
DLS__HIDDEN dls_status dls__paper_solve(const dls__chain *c, double vload, double *alpha,
                                       dls__chain_result *res, dls_error *err);
/* PAPER's value functions in one backward sweep with lazy maps (sweep.c): f_1 (values
 * capped at vcap, times up to wmax as dls__pwl_finish drops them) and each stage's rho (by
 * stage; INFINITY: it takes nothing). pieces_total sums the points of every f_k, pieces_max
 * is the most of one. -1 when out of memory. */
DLS__HIDDEN int dls__paper_sweep(const dls__chain *c, double vcap, double wmax, double *rho,
                                dls__pwl *f1, size_t *pieces_total, size_t *pieces_max);
/* The sweep's answer is taken when the replay of its loads (in the chain's units) finishes
 * within this (relative) of its makespan and sums to V within it; else policy iteration
 * solves the chain. */
#define DLS__CHAIN_PROOF_TOL 0x1p-36
/* The proof's check at a position that sits at rho reads the rest's slope along the
 * trajectory; where the trajectory passes within rounding of a kink of a later position
 * (a memory level switching, a window's end), it reads the slope of the wrong side, which
 * the chain's contractions make differ from the right one by little: a slope this much
 * (relative) below 1 / C is such a kink, not a wrong rho. */
#define DLS__CHAIN_KINK_TOL 0x1p-20
/* A sweep whose proof fails falls back to policy iteration (exact, but O(m^2) in the worst
 * case) on chains of at most this many positions; on longer ones its answer is returned
 * marked as not proven. */
#define DLS__CHAIN_FALLBACK_MAX 20000
/* Most passes of the polish of the sweep's makespan (Newton's iteration on the forward
 * pass with the sweep's decisions fixed; paper.c). */
#define DLS__CHAIN_POLISH_MAX 8
/* AUTO: before the sweep, policy iteration gets this many rounds without explicit stages
 * (paper.c): where every position takes all it can or nothing at the optimum (any platform
 * whose link outruns the compute behind it, any platform in order of increasing rate) it
 * proves the answer in one round of a few passes; where it cannot, the sweep decides, and
 * the try has cost a few passes. */
#define DLS__CHAIN_GREEDY_ROUNDS 2
/* The try starts only when, after this many of Newton's steps, at most this fraction of
 * the greedy decisions fail the check (paper.c: paper_greedy_probe; a few fail there and
 * pass at the root; on platforms that need the sweep, a third to a half fail). */
#define DLS__CHAIN_PROBE_STEPS 2
#define DLS__CHAIN_PROBE_FAILS (1.0 / 32)
/* PAPER's explicit value function f_1 of the whole chain, values capped at vcap, times up
 * to wmax (the curve): from the sweep, taken when the least time where it reaches vcap and
 * vcap / 2 agrees with dls__paper_solve's (proven) makespans there within
 * DLS__CHAIN_PROOF_TOL; else stage by stage (stage.c, O(m^2) pieces, bounded by max_work:
 * DLS_ELIMIT past it). *pieces: the pieces of the value functions built (the sweep's: the
 * points of every f_k, as dls__paper_sweep counts them). */
DLS__HIDDEN dls_status dls__paper_function(const dls__chain *c, double vcap, double wmax,
                                          size_t max_work, dls__pwl *f1, size_t *pieces,
                                          dls_error *err);
/* SELECT (select.c): the exact best subset within the bounds of par, else the heuristic;
 * *exact says which, *lower gets a lower bound on the optimum (scaled). */
DLS__HIDDEN dls_status dls__select_solve(const dls__cprob *pb, const dls__chain_params *par,
                                        double *alpha, dls__chain_result *res, int *exact,
                                        double *lower, double *paper_T, dls_error *err);
DLS__HIDDEN dls_status dls__select_function(const dls__cprob *pb, double vcap, double wmax,
                                           size_t max_pieces, size_t max_work, dls__pwl *f1,
                                           size_t *pieces, dls_error *err);

#endif /* DLSCHED_CHAIN_CHAIN_IMPL_H */
