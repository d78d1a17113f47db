/* The star problem of Drozdowski and Wolniewicz (2003) solved as a chain of value functions,
 * without an LP solver: the exact optimum of the paper's LP, the exact best set of processors for
 * the send order, and the makespan as a function of the load.
 *
 * The chain. Positions 1..m in send order; W is the time that remains between the start
 * of the send to position i and the makespan. f_i(W) is the largest load positions i..m
 * can finish in W, f_{m+1} = 0, and with r the time left once i's send has ended,
 *     f_i(W) = max over r of (W - S_i - r) / C_i + f_{i+1}(r)
 *              subject to 0 <= (W - S_i - r) / C_i <= v_i(r),
 * where v_i(r) = min(B_i, max load whose time t_i = max_l (a_l + b_l x) is at most r) is
 * what position i can compute while the later sends go on. The makespan is the least T
 * with f_1(T) >= V; a forward pass recovers the loads.
 *
 * Two models:
 * - DLS__CHAIN_PAPER: every position is charged its startup S_i and its smallest compute
 *   time max_l a_l, even with no load: exactly the LP of Drozdowski and Wolniewicz (2003)
 *   (lp/star.mod, and dls__lp_solve_star with drop_unused = 0). Every f_i is concave.
 * - DLS__CHAIN_SELECT: a position sent nothing costs nothing (no startup, no time):
 *   f_i(W) = max(f_{i+1}(W), the expression above), the exact best subset for the send
 *   order. f_i is no longer concave; its pieces can grow with m (the problem is NP-hard),
 *   so their number is bounded (max_pieces, max_work); past the bound the answer comes
 *   from a heuristic (the paper's LP, then the processors it gives nothing dropped), says
 *   exact = 0 and gives a lower bound on the optimum. It is never worse than the paper's
 *   LP.
 *
 * Magnitudes (the rule for the man page). The chain computes in a load unit (the power of
 * two nearest below V) and a time unit (the power of two nearest a typical time: the
 * larger of the sum of startups and V over the total speed), so that scaling adds no
 * rounding. In those units:
 * - a startup, an intercept |a|, or the time C V or b V that a rate or a slope gives the
 *   whole load, above 2^500 (about 3e150), is rejected with DLS_ERANGE and a message that
 *   names the processor, the value and the typical time; no double-precision method can
 *   combine it with the other processors' times;
 * - a rate C or slope b whose time for the whole load is below 2^-500 is taken as 0 (the
 *   change is far below the rounding of any makespan); the answer counts them.
 * Within these bounds the answers are exact to rounding (about 1e-13 relative). Processors
 * that are hopeless at this load (a link of 1e7 s per unit next to processors of 1e9
 * units per s, a time line of slope 1e24) are handled exactly: they get a load that is
 * exactly what the LP gives them (zero or next to zero), quickly.
 *
 * Cost. PAPER first tries the greedy decisions (every position takes all it can, or
 * nothing) with policy iteration (below) for at most DLS__CHAIN_GREEDY_ROUNDS rounds and
 * no explicit stage, after a probe of a few passes says most decisions hold: where the
 * link outruns the compute behind each position, and on any platform in order of
 * increasing rate, that proves the optimum in about 15 passes. Otherwise one backward
 * sweep builds every f_i with its points in a treap and each
 * position's transform (at most L + 2 affine maps on contiguous ranges of points, split at
 * rho and at the breakpoints of v) applied lazily: O(L log m) per position, O(m L log m)
 * in all, memory O(m L) (sweep.c). The makespan read off f_1 is polished by Newton's
 * iteration on the forward pass with the sweep's decisions fixed (a few passes), the loads
 * come from one forward pass, and the answer is taken only when their replay and one
 * backward pass of the slopes along the trajectory prove it; else policy iteration decides
 * (paper.c: each position takes all it can or nothing, decisions checked and changed,
 * stages that keep failing made explicit). The curve takes f_1 from the same sweep
 * (checked against the solver at two loads; else explicit value functions, O(m^2)
 * pieces, within max_work). See doc/BENCHMARKS.md. SELECT: explicit
 * value functions for every position, within the bounds above. */
#ifndef DLSCHED_CHAIN_CHAIN_H
#define DLSCHED_CHAIN_CHAIN_H

#include "star/star.h"

typedef enum dls__chain_mode {
    DLS__CHAIN_PAPER = 0,  /* the paper's LP: every position charged */
    DLS__CHAIN_SELECT = 1  /* the best subset of positions for the send order */
} dls__chain_mode;

/* PAPER's methods (paper.c): AUTO tries policy iteration without explicit stages for a
 * few passes and takes the sweep where it cannot prove its answer; SWEEP and POLICY (with
 * explicit tails where it must) run one alone. All three are exact. */
typedef enum dls__chain_paper_method {
    DLS__CHAIN_PAPER_AUTO = 0,
    DLS__CHAIN_PAPER_SWEEP = 1,
    DLS__CHAIN_PAPER_POLICY = 2
} dls__chain_paper_method;

/* Smallest bound on one value function's pieces that makes sense (a few stages). */
#define DLS__CHAIN_MIN_PIECES 16
/* Default bound on the pieces of one position's value function (SELECT). */
#define DLS__CHAIN_DEFAULT_MAX_PIECES 4096
/* Default bound on the pieces of all value functions together (SELECT), per position and
 * time line, and its floor: small platforms are always solved exactly. */
#define DLS__CHAIN_DEFAULT_WORK_PER_LINE 4
#define DLS__CHAIN_DEFAULT_MIN_WORK 200000

typedef struct dls__chain_params {
    dls__chain_mode mode;       /* default DLS__CHAIN_SELECT */
    /* SELECT: most pieces one value function may have; >= 16; default
     * DLS__CHAIN_DEFAULT_MAX_PIECES */
    size_t max_pieces;
    /* SELECT: most pieces of all value functions together; 0 (default): the larger of
     * DLS__CHAIN_DEFAULT_MIN_WORK and DLS__CHAIN_DEFAULT_WORK_PER_LINE per time line and
     * position */
    size_t max_work;
    /* for processor names in messages; may be NULL (positions are named then) */
    const dls_platform *platform;
    /* how PAPER's LPs are solved (also those SELECT solves): DLS__CHAIN_PAPER_AUTO
     * (default), or one method alone, for tests that check each against the LP solvers */
    dls__chain_paper_method paper_method;
} dls__chain_params;

DLS__HIDDEN void dls__chain_params_init(dls__chain_params *par);

typedef struct dls__chain_answer {
    double *alpha;            /* loads by position (st->m), summing to V; NULL if infeasible */
    double makespan;          /* s: the replay of alpha (charge_unused = 1 in PAPER, 0 in
                                 SELECT); INFINITY when infeasible */
    double chain_makespan;    /* s: the least T with f_1(T) >= V, before the replay (the
                                 replay itself when not exact) */
    double paper_makespan;    /* s: the paper's LP (SELECT computes it too); NaN if not */
    double lower_bound;       /* s: a lower bound on the optimum of the mode (= makespan
                                 when exact) */
    int exact;                /* 1: proven optimal for the mode; 0: SELECT's heuristic */
    int infeasible;           /* 1: the limits hold less than V */
    double capacity;          /* sum of the limits (INFINITY when one has none) */
    size_t used;              /* positions given a load */
    size_t pieces_total;      /* pieces of all explicit value functions built */
    size_t pieces_max;        /* most pieces of one */
    size_t explicit_stages;   /* positions solved through explicit value functions */
    unsigned passes;          /* passes over the positions' models: Newton's evaluations,
                                 forward passes and backward checks (PAPER's, and those of
                                 the paper's LPs that SELECT solves); explicit stages are
                                 counted apart (explicit_stages, pieces_total) */
    unsigned rounds;          /* PAPER: checks of the greedy decisions */
    size_t flushed;           /* rates and slopes taken as 0 (magnitude rule) */
    double slope_left, slope_right; /* dT/dV at V from the left and the right (s/unit) */
} dls__chain_answer;

/* Solves the star st (its load st->V) in the mode of par (NULL: defaults). On success ans
 * owns alpha (free with dls__chain_answer_free); on failure ans holds nothing to free.
 * Returns DLS_OK (also when infeasible: ans->infeasible), DLS_EINVAL for bad parameters,
 * DLS_ERANGE for magnitudes beyond the rule above, DLS_ENUMERIC when the replayed makespan
 * disagrees with the chain's, DLS_ENOMEM. */
DLS__HIDDEN dls_status dls__chain_solve(const dls__star *st, const dls__chain_params *par,
                                       dls__chain_answer *ans, dls_error *err);
DLS__HIDDEN void dls__chain_answer_free(dls__chain_answer *ans);

/* The makespan as a function of the load, T(V), for loads in [v_lo, v_hi]: the points
 * where it bends (where the set of processors used or a binding memory level or limit
 * changes), with T linear between consecutive points. */
typedef struct dls__chain_curve {
    size_t n;                 /* points, >= 2 (the ends v_lo and v_hi included) */
    double *load;             /* increasing, load[0] = v_lo, load[n-1] = v_hi */
    double *makespan;         /* T at each load */
    int exact;                /* 1: exact for the mode */
    size_t pieces_total;      /* pieces of the explicit value functions built */
} dls__chain_curve;

/* Builds the curve of the mode of par over [v_lo, v_hi] (0 < v_lo < v_hi, within the
 * capacity) through explicit value functions for every position; st->V is not used.
 * Returns DLS_ELIMIT when they need more than max_work pieces (both modes), DLS_EINVAL for
 * a range beyond the capacity. */
DLS__HIDDEN dls_status dls__chain_curve_build(const dls__star *st, const dls__chain_params *par,
                                             double v_lo, double v_hi, dls__chain_curve *cv,
                                             dls_error *err);
DLS__HIDDEN void dls__chain_curve_free(dls__chain_curve *cv);

/* The best send order, exactly (order.c): a dynamic programme over the sets of positions
 * served last, for stars of at most this many positions (2^m value functions kept). */
#define DLS__CHAIN_ORDER_MAX 22
/* Default bound on the points of all its value functions together (16 bytes each): 2^23,
 * 128 MiB; par->max_work replaces it when set. */
#define DLS__CHAIN_ORDER_MAX_POINTS ((size_t)1 << 23)

/* The best send order of st's positions for the mode of par (PAPER: every position
 * charged; SELECT: the best set of positions too), with value functions cut to times
 * below t_upper (s: a known order's makespan, which bounds the optimum). seq (st->m
 * entries) gets the positions in the best order, the *n_used first ones used (SELECT: the
 * others after them, sent nothing), *T the optimum (s; solving the order found gives it
 * within rounding), *points the points of value functions built. deadline: the clock
 * (dls__clock_now) past which it stops. Returns DLS_OK; DLS_ELIMIT when the points pass
 * their bound (par->max_work, else DLS__CHAIN_ORDER_MAX_POINTS) or the deadline passes, or
 * rounding leaves no order below t_upper; DLS_EINVAL for m of 0 or above
 * DLS__CHAIN_ORDER_MAX; DLS_ERANGE for magnitudes beyond the chain's rule; DLS_ENOMEM. */
DLS__HIDDEN dls_status dls__chain_best_order(const dls__star *st, const dls__chain_params *par,
                                            double t_upper, double deadline, size_t *seq,
                                            size_t *n_used, double *T, size_t *points,
                                            dls_error *err);

/* Orders priced through the value functions of an incumbent order's suffixes (order.c):
 * an order that agrees with the incumbent from position `from` on needs only the stages
 * before it (the local search's moves change a few neighbouring positions). The functions
 * are cut at t_upper (s); a makespan above it reads INFINITY. The same stage functions as
 * the exact selection (SELECT) and the paper's model (PAPER), hence the same makespans
 * within rounding, where the value functions stay within their bound on points. */
typedef struct dls__chain_suffix dls__chain_suffix;
DLS__HIDDEN dls_status dls__chain_suffix_create(const dls__star *st, const dls__chain_params *par,
                                               double t_upper, dls__chain_suffix **out,
                                               dls_error *err);
/* Makes pos (st->m positions) the incumbent, its functions built; *T its makespan (s).
 * DLS_ELIMIT past the selection's bounds on pieces (par->max_pieces in one, par->max_work
 * or its default in all, as dls__chain_solve): the object cannot price then. */
DLS__HIDDEN dls_status dls__chain_suffix_set(dls__chain_suffix *cs, const size_t *pos,
                                            double *T, dls_error *err);
/* The makespan (s) of pos, equal to the incumbent at positions from..m-1. */
DLS__HIDDEN dls_status dls__chain_suffix_price(dls__chain_suffix *cs, const size_t *pos,
                                              size_t from, double *T, dls_error *err);
DLS__HIDDEN void dls__chain_suffix_free(dls__chain_suffix *cs);

#endif /* DLSCHED_CHAIN_CHAIN_H */
