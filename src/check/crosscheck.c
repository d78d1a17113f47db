/* The LP and the geometric partitioners checking each other (see dlsched/crosscheck.h). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "model/model_impl.h"
#include "core/grow.h"
#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"
#include "solver/solver.h"
#include "star/star.h"

/* The envelopes of the cross-check: tight enough that convex speed models agree with the
 * geometric optimum far within the default tolerance. */
#define DLS__CHECK_ENVELOPE_TOL 3e-8
#define DLS__CHECK_ENVELOPE_LINES 16384
/* Largest tolerance a caller may ask for. */
#define DLS__CHECK_MAX_TOL 1e-3
/* Bisection on the common finishing time stops at adjacent doubles or after this many
 * halvings. */
#define DLS__CHECK_MAX_BISECTIONS 4000
/* Relative size at which a time function's value just after 0 is read. */
#define DLS__CHECK_NEAR_ZERO 1e-12
/* Makespans of whole-unit distributions under the same time functions are compared to
 * this relative amount (the same values, up to the order of the evaluations). */
#define DLS__CHECK_INTEGER_RTOL 1e-12
/* The order check's MIP has a row per processor, place and time line: beyond this many
 * lines in all (speed models' envelopes have thousands) it stands aside. */
#define DLS__CHECK_ORDER_MAX_LINES 64

void dls_crosscheck_params_init(dls_crosscheck_params *p)
{
    memset(p, 0, sizeof *p);
    dls_schedule_params_init(&p->schedule);
    p->schedule.envelope.rel_tol = DLS__CHECK_ENVELOPE_TOL;
    p->schedule.envelope.max_lines = DLS__CHECK_ENVELOPE_LINES;
    p->rel_tol = 1e-7;
    dls_mip_params_init(&p->mip);
    p->mip.integer = 1;
    p->mip.exact_shape = 1;
    p->mip.rel_gap = 0;
}

DLS__ENUM_NAMES(dls_check_kind, dls_check_kind, DLS_CHECK_KIND_MAP)

/* Bytes of a check's sentence. */
#define DLS__CHECK_DETAIL_BYTES 768

/* One check while it runs: the public record's figures and its sentence. */
typedef struct check_item {
    int ran, agree, proven_side;
    double first, second, rel_diff, extra;
    char detail[DLS__CHECK_DETAIL_BYTES];
} check_item;

struct dls_crosscheck {
    check_item item[DLS_CHECK_COUNT];
    dls_check_result pub[DLS_CHECK_COUNT];  /* detail points into item */
    int all_agree;
};

static double rel(double a, double b) { return b != 0 ? (a - b) / b : (a == 0 ? 0 : INFINITY); }

/* A disagreement with its proof: the side `side` (1 first, 2 second) holds a witness, a
 * distribution whose makespan `has` (replayed by a method of its own) contradicts the
 * other side's claim `claim` (an optimum it is below, or a bound it is above). */
static void refuted(check_item *r, int side, const char *witness, double has,
                    const char *claim, double claimed)
{
    r->agree = 0;
    r->proven_side = side;
    size_t n = strlen(r->detail);
    snprintf(r->detail + n, sizeof r->detail - n, "; %s, %.12g s, refutes %s of %.12g s: "
             "the %s side is wrong", witness, has, claim, claimed,
             side == 1 ? "second" : "first");
}

/* The sizes a processor can take within a time T: a union of intervals, because a time
 * that dips (a speed rising faster than the size) lets a larger share finish sooner than a
 * smaller one. Pieces of a points model between its sizes have a monotone time (the speed
 * is linear there, so x / s(x) moves one way); elsewhere the time is nondecreasing. */
typedef struct ivl {
    double lo, hi;
} ivl;

typedef struct ivls {
    ivl *v;
    size_t n, cap;
} ivls;

static int ivls_add(ivls *s, double lo, double hi)
{
    ivl *nv = dls__grow(s->v, &s->cap, s->n + 1, sizeof *nv);
    if (nv == NULL)
        return -1;
    s->v = nv;
    s->v[s->n].lo = lo;
    s->v[s->n].hi = hi;
    s->n++;
    return 0;
}

/* Largest (increasing) or smallest (decreasing) x in [u, v] with time(x) <= T, by bisection
 * on a monotone piece whose end on the good side qualifies. */
static double piece_edge(const dls_model *m, double u, double v, double T, int increasing)
{
    double good = increasing ? u : v, bad = increasing ? v : u;
    for (int it = 0; it < DLS__CHECK_MAX_BISECTIONS; it++) {
        double mid = good + (bad - good) / 2;
        if (mid == good || mid == bad)
            break;
        if (dls_model_time(m, mid) <= T)
            good = mid;
        else
            bad = mid;
    }
    return good;
}

/* The sizes in [0, cap] of model m finishing within T, appended to out (sorted). */
static int feasible_sizes(const dls_model *m, double cap, double T, ivls *out)
{
    out->n = 0;
    if (ivls_add(out, 0, 0) != 0) /* nothing to do takes no time */
        return -1;
    size_t np = 0;
    const double *size = NULL;
    if (dls_model_get_kind(m) == DLS_MODEL_POINTS)
        dls_model_get_points(m, &np, &size, NULL, NULL, NULL);
    double u = 0;
    for (size_t q = 0; q <= np && u < cap; q++) {
        double v = q < np ? fmin(size[q], cap) : cap;
        if (v <= u)
            continue;
        /* the piece (u, v]: before the first size and after the last the speed is
         * constant, the time increasing */
        double tu = u > 0 ? dls_model_time(m, u) : 0, tv = dls_model_time(m, v);
        int increasing = q == 0 || q == np || tv >= tu;
        double lo, hi;
        /* the time just after u (a time-line model jumps at 0) */
        double tstart = u > 0 ? tu : dls_model_time(m, v * DLS__CHECK_NEAR_ZERO);
        if (increasing) {
            if (!(tstart <= T)) {
                lo = hi = NAN;
            } else {
                lo = u;
                hi = tv <= T ? v : piece_edge(m, u, v, T, 1);
            }
        } else {
            if (!(tv <= T))
                lo = hi = NAN;
            else {
                hi = v;
                lo = tu <= T ? u : piece_edge(m, u, v, T, 0);
            }
        }
        if (!isnan(lo)) {
            ivl *last = &out->v[out->n - 1];
            if (lo <= last->hi)
                last->hi = fmax(last->hi, hi);
            else if (ivls_add(out, lo, hi) != 0)
                return -1;
        }
        u = v;
    }
    return 0;
}

/* Whether V lies in the sum of the processors' feasible sets within T (sums of interval
 * unions, merged as they grow). */
static int reachable(const dls_platform *pl, double V, int use_limits, double T, ivls *acc,
                     ivls *one, ivls *next, int *failed)
{
    acc->n = 0;
    if (ivls_add(acc, 0, 0) != 0)
        return *failed = 1, 0;
    for (size_t i = 0; i < pl->n; i++) {
        double cap = fmin(V, use_limits ? pl->procs[i].limit : INFINITY);
        if (feasible_sizes(pl->procs[i].model, cap, T, one) != 0)
            return *failed = 1, 0;
        next->n = 0;
        for (size_t a = 0; a < acc->n; a++)
            for (size_t b = 0; b < one->n; b++)
                if (ivls_add(next, acc->v[a].lo + one->v[b].lo,
                             fmin(V, acc->v[a].hi + one->v[b].hi)) != 0)
                    return *failed = 1, 0;
        /* sort by lower end (few intervals: insertion sort) and merge */
        for (size_t a = 1; a < next->n; a++) {
            ivl x = next->v[a];
            size_t b = a;
            while (b > 0 && next->v[b - 1].lo > x.lo) {
                next->v[b] = next->v[b - 1];
                b--;
            }
            next->v[b] = x;
        }
        acc->n = 0;
        for (size_t a = 0; a < next->n; a++) {
            if (next->v[a].lo > V)
                break;
            if (acc->n > 0 && next->v[a].lo <= acc->v[acc->n - 1].hi)
                acc->v[acc->n - 1].hi = fmax(acc->v[acc->n - 1].hi, next->v[a].hi);
            else if (ivls_add(acc, next->v[a].lo, next->v[a].hi) != 0)
                return *failed = 1, 0;
        }
    }
    for (size_t a = 0; a < acc->n; a++)
        if (acc->v[a].lo <= V && V <= acc->v[a].hi)
            return 1;
    return 0;
}

/* The continuous optimum without communication: the smallest time T within which the
 * processors' shares can add up to V. With nondecreasing times every processor takes the
 * most it finishes within T (all finishing together); with times that dip, the shares are
 * searched among the sizes that finish within T. NaN when out of memory. */
static double continuous_optimum(const dls_platform *pl, double V, int use_limits)
{
    size_t p = pl->n;
    int monotone = 1;
    double hi = 0;
    for (size_t i = 0; i < p; i++) {
        double cap = fmin(V, use_limits ? pl->procs[i].limit : INFINITY);
        if (cap > 0)
            hi = fmax(hi, dls_model_time(pl->procs[i].model, cap));
        monotone &= !(pl->procs[i].model->increasing_to < cap);
    }
    ivls acc = {NULL, 0, 0}, one = {NULL, 0, 0}, next = {NULL, 0, 0};
    int failed = 0;
    double lo = 0;
    for (int it = 0; it < DLS__CHECK_MAX_BISECTIONS && !failed; it++) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break;
        int ok;
        if (monotone) {
            double got = 0;
            for (size_t i = 0; i < p; i++)
                got += dls_model_size_for_time(pl->procs[i].model, mid,
                                               use_limits ? pl->procs[i].limit : INFINITY);
            ok = got >= V;
        } else {
            ok = reachable(pl, V, use_limits, mid, &acc, &one, &next, &failed);
        }
        if (ok)
            hi = mid;
        else
            lo = mid;
    }
    free(acc.v);
    free(one.v);
    free(next.v);
    return failed ? NAN : hi;
}

static dls_status zero_communication(const dls_platform *pl, double V,
                                     const dls_crosscheck_params *par, check_item *r,
                                     dls_error *err)
{
    dls_platform *flat;
    dls_status st = dls_platform_copy(pl, &flat, err);
    if (st != DLS_OK)
        return st;
    for (size_t i = 0; st == DLS_OK && i < flat->n; i++)
        st = dls_platform_set_link(flat, i, 0, 0, err);
    if (st != DLS_OK) {
        dls_platform_free(flat);
        return st;
    }
    dls_schedule *s;
    st = dls_schedule_solve(flat, V, &par->schedule, &s, err);
    if (st != DLS_OK) {
        dls_platform_free(flat);
        return st;
    }
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        snprintf(r->detail, sizeof r->detail, "skipped: the limits cannot hold the load");
        dls_schedule_free(s);
        dls_platform_free(flat);
        return DLS_OK;
    }
    /* convexity and the envelopes' deviation, on the sizes that matter */
    int convex = 1;
    double dev = 0;
    long worst = -1;
    for (size_t i = 0; i < pl->n; i++) {
        double xmax = fmin(V, par->schedule.use_limits ? pl->procs[i].limit : INFINITY);
        dls_model *env;
        dls_envelope_info info;
        st = dls_model_convex_envelope(pl->procs[i].model, xmax, &par->schedule.envelope, &env,
                                       &info, err);
        if (st != DLS_OK) {
            dls_schedule_free(s);
            dls_platform_free(flat);
            return st;
        }
        dls_model_free(env);
        if (!info.convex) {
            convex = 0;
            if (info.max_rel_dev > dev || worst < 0) {
                dev = info.max_rel_dev;
                worst = (long)i;
            }
        }
    }
    r->ran = 1;
    r->first = dls_schedule_lp_makespan(s);
    r->second = continuous_optimum(pl, V, par->schedule.use_limits);
    if (isnan(r->second)) {
        dls_schedule_free(s);
        dls_platform_free(flat);
        return dls__oom(err, "crosscheck");
    }
    r->rel_diff = rel(r->first, r->second);
    r->extra = dev;
    /* both sides are reached by a distribution (the schedule's loads; each processor's
     * size for the geometric time): the shorter refutes the other's claim */
    r->agree = 1;
    if (convex) {
        snprintf(r->detail, sizeof r->detail, "convex times: the schedule gives %.12g s, the "
                 "geometric continuous optimum %.12g s (relative difference %.3g, tolerance "
                 "%.3g)", r->first, r->second, r->rel_diff, par->rel_tol);
        if (r->rel_diff < -par->rel_tol)
            refuted(r, 1, "the schedule's distribution", r->first,
                    "the geometric continuous optimum", r->second);
    } else {
        snprintf(r->detail, sizeof r->detail, "processor \"%s\" has a time that is not convex "
                 "(its envelope departs from it by up to %.3g%%): the schedule's %.12g s must be a "
                 "lower bound of the geometric optimum %.12g s; gap %.3g%%",
                 pl->procs[worst].name, 100 * dev, r->first, r->second, -100 * r->rel_diff);
    }
    if (r->rel_diff > par->rel_tol)
        refuted(r, 2, "the geometric distribution (each processor's size for that time)",
                r->second, convex ? "the schedule's claimed optimum"
                                  : "the schedule's lower bound (on the envelopes)", r->first);
    dls_schedule_free(s);
    dls_platform_free(flat);
    return DLS_OK;
}

/* The partitioner's integer distribution of V: its makespan (*geo) and whether it is
 * proven optimal; *skip (the reason in r->detail) when there is none to check. */
static dls_status partition_side(const dls_platform *pl, double V,
                                 const dls_crosscheck_params *par, check_item *r, double *geo,
                                 int *proven, int *skip, dls_error *err)
{
    *skip = 1;
    if (V != floor(V) || V > (double)DLS_PARTITION_MAX_ELEMENTS) {
        snprintf(r->detail, sizeof r->detail, "skipped: the load %.10g is not a whole number",
                 V);
        return DLS_OK;
    }
    dls_partition_params pp;
    dls_partition_params_init(&pp);
    pp.use_limits = par->schedule.use_limits;
    dls_partition *part;
    dls_status st = dls_partition_solve(pl, (uint64_t)V, &pp, &part, err);
    if (st != DLS_OK)
        return st;
    if (dls_partition_status(part) == DLS_SOLUTION_INFEASIBLE) {
        snprintf(r->detail, sizeof r->detail, "skipped: the limits cannot hold the load");
        dls_partition_free(part);
        return DLS_OK;
    }
    *geo = dls_partition_makespan(part);
    *proven = dls_partition_status(part) == DLS_SOLUTION_OPTIMAL;
    *skip = 0;
    dls_partition_free(part);
    return DLS_OK;
}

/* The integer MIP's parameters: whole loads, exact shapes, no communication, bounded by
 * the partitioner's makespan geo. */
static void integer_spec(const dls_crosscheck_params *par, double geo, dls__mip_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->integer = 1;
    sp->exact_shape = 1;
    sp->communication = 0;
    sp->time_limit = par->mip.time_limit;
    sp->iteration_limit = par->schedule.iteration_limit;
    sp->rel_gap = par->mip.rel_gap;
    sp->shape_tol = par->mip.shape_tol;
    sp->max_binaries = par->mip.max_binaries;
    sp->time_unit = geo;
    sp->upper_bound = geo; /* the partitioner's distribution reaches it */
    sp->progress = par->mip.progress;
    sp->progress_data = par->mip.progress_data;
}

/* No answer is no contradiction: branch and bound ran out of time, or GLPK found no
 * integer point; and the MIP cannot be infeasible (its makespan is free and the limits
 * hold the load: the partitioner distributed it), so GLPK saying so is its own numerical
 * failure. The check proves nothing either way. */
static void integer_no_answer(check_item *r, const dls__mip_answer *ma, double geo)
{
    snprintf(r->detail, sizeof r->detail, "skipped: the MIP found no integer distribution "
             "(%s, %.3f s); the partitioner's takes %.12g s",
             ma->time_limited ? "time limit"
             : ma->status == DLS_SOLUTION_INFEASIBLE
                 ? "GLPK's branch and bound called it infeasible, which it cannot be: a "
                   "numerical failure"
                 : "GLPK's branch and bound gave none",
             ma->seconds, geo);
}

/* The partitioner's makespan geo (proven optimal or not) against the MIP's answer ma on
 * star: the detail, and a refutation where one side's distribution contradicts the
 * other's claim. */
static void integer_judge(check_item *r, const dls_crosscheck_params *par,
                          const dls__star *star, const dls__mip_answer *ma, double geo,
                          int proven)
{
    r->ran = 1;
    r->first = geo;
    r->extra = ma->seconds;
    /* the MIP's own distribution replayed (real loads when it relaxed whole ones: no
     * distribution of whole loads then, only its bound) */
    double mk = NAN;
    if (!ma->relaxed) {
        mk = 0;
        for (size_t k = 0; k < star->m; k++)
            if (ma->alpha[k] > 0)
                mk = fmax(mk, dls_model_time(star->model[k], ma->alpha[k]));
    }
    double tol = DLS__CHECK_INTEGER_RTOL + ma->model_tol;
    double bound = ma->bound / (1 + ma->model_tol);
    r->second = ma->relaxed ? bound : mk;
    r->rel_diff = rel(geo, r->second);
    int optimal = ma->status == DLS_SOLUTION_OPTIMAL && !ma->relaxed;
    const char *what = ma->relaxed ? "bound (whole loads solved as real past 2^20)"
                       : optimal   ? "optimum" : "best within the time limit";
    char tolnote[96] = "";
    if (ma->model_tol > 0)
        snprintf(tolnote, sizeof tolnote, ", over 1 + %.3g for the chords of measured times",
                 ma->model_tol);
    snprintf(r->detail, sizeof r->detail, "the partitioner's integer %s %.12g s (%s), the "
             "MIP's %s %.12g s (GLPK's bound %.12g s%s; %.3f s of branch and bound)",
             proven ? "optimum" : "distribution", geo,
             proven ? "proven: the shape assumption holds" : "not proven: a speed shape breaks "
             "the assumption", what, r->second, ma->bound, tolnote, ma->seconds);
    /* agreement is the absence of a contradiction, and a contradiction needs a witness: a
     * distribution (replayed here) below a claimed optimum, or above a claimed bound */
    r->agree = 1;
    if (optimal && mk > geo * (1 + tol))
        refuted(r, 1, "the partitioner's distribution", geo, "the MIP's claimed optimum", mk);
    else if (proven && isfinite(mk) && mk < geo * (1 - tol))
        refuted(r, 2, "the MIP's distribution", mk, "the partitioner's claimed optimum", geo);
    else if (isfinite(bound) && bound > geo * (1 + par->rel_tol + ma->model_tol))
        refuted(r, 1, "the partitioner's distribution", geo, "the MIP's bound", bound);
}

static dls_status integer_mip(const dls_platform *pl, double V, const dls_crosscheck_params *par,
                              check_item *r, dls_error *err)
{
    double geo = NAN;
    int proven = 0, skip;
    dls_status st = partition_side(pl, V, par, r, &geo, &proven, &skip, err);
    if (st != DLS_OK || skip)
        return st;
    /* the MIP takes measured models at their true time and time lines as they are: the
     * star's envelopes are not used, so they need not be the cross-check's tight ones */
    dls__star_opts loose = dls__star_opts_from_params(&par->schedule);
    dls_envelope_params_init(&loose.envelope);
    dls__star star;
    char *note = NULL;
    st = dls__star_build(pl, V, &loose, 1, &star, &note, err);
    free(note);
    if (st != DLS_OK)
        return st;
    dls__mip_spec sp;
    integer_spec(par, geo, &sp);
    dls__mip_answer ma;
    dls_error quiet;
    st = dls__mip_solve_star(&star, &sp, &ma, &quiet);
    if (st == DLS_ELIMIT) {
        snprintf(r->detail, sizeof r->detail, "skipped: %.480s", quiet.message);
        st = DLS_OK;
    } else if (st != DLS_OK) {
        st = dls__fail(err, st, quiet.origin, "%s", dls__error_text(&quiet));
    } else {
        if (ma.status != DLS_SOLUTION_OPTIMAL && ma.status != DLS_SOLUTION_FEASIBLE)
            integer_no_answer(r, &ma, geo);
        else
            integer_judge(r, par, &star, &ma, geo, proven);
        free(ma.alpha);
    }
    dls__star_free(&star);
    return st;
}

static dls_status replay_check(const dls_platform *pl, double V, const dls_crosscheck_params *par,
                               check_item *r, dls_error *err)
{
    dls_schedule *s;
    dls_status st = dls_schedule_solve(pl, V, &par->schedule, &s, err);
    if (st != DLS_OK)
        return st;
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        snprintf(r->detail, sizeof r->detail, "skipped: the limits cannot hold the load");
        dls_schedule_free(s);
        return DLS_OK;
    }
    dls__star star; /* zeroed by the build, even when it fails */
    char *note = NULL;
    dls__star_opts so = dls__star_opts_from_params(&par->schedule);
    st = dls__star_build(pl, V, &so, 1, &star, &note, err);
    free(note);
    double *alpha = st == DLS_OK ? malloc(star.m * sizeof *alpha) : NULL;
    if (st == DLS_OK && alpha == NULL)
        st = dls__oom(err, "crosscheck");
    dls_schedule *ev = NULL;
    if (st == DLS_OK)
        st = dls_schedule_evaluate(pl, dls_schedule_loads(s), &par->schedule, &ev, err);
    if (st == DLS_OK) {
        const double *loads = dls_schedule_loads(s);
        for (size_t k = 0; k < star.m; k++)
            alpha[k] = loads[star.proc[k]];
        /* the LP's own time lines; the paper's LP charges kept processors with no load */
        double lines = dls__replay(&star, alpha, NULL, !par->schedule.drop_unused, 0, NULL,
                                   NULL, NULL, NULL, NULL);
        r->ran = 1;
        r->first = dls_schedule_lp_makespan(s);
        r->second = lines;
        r->rel_diff = rel(r->first, r->second);
        r->extra = dls_schedule_makespan(ev);
        r->agree = 1;
        snprintf(r->detail, sizeof r->detail, "the schedule's makespan %.12g s, its loads replayed "
                 "%.12g s (relative difference %.3g); under the true models %.12g s", r->first,
                 r->second, r->rel_diff, r->extra);
        if (fabs(r->rel_diff) > par->rel_tol)
            refuted(r, 2, "the replay of its loads (the timeline computed again)", r->second,
                    "the schedule's makespan", r->first);
    }
    dls_schedule_free(ev);
    dls_schedule_free(s);
    free(alpha);
    dls__star_free(&star);
    return st;
}

/* One solve for the solvers check: the makespan of the solver and model asked. */
static dls_status solver_makespan(const dls_platform *pl, double V,
                                  const dls_crosscheck_params *par, dls_star_solver solver,
                                  int drop_unused, double *makespan, dls_error *err)
{
    dls_schedule_params sp = par->schedule;
    sp.solver = solver;
    sp.drop_unused = drop_unused;
    sp.exact = 0;
    dls_schedule *s;
    dls_status st = dls_schedule_solve(pl, V, &sp, &s, err);
    if (st != DLS_OK)
        return st;
    *makespan = dls_schedule_lp_makespan(s);
    dls_schedule_free(s);
    return DLS_OK;
}

/* The chain against GLPK: the paper's LP equal, the chain's exact selection no longer than
 * GLPK's heuristic one. */
static dls_status solvers_check(const dls_platform *pl, double V,
                                const dls_crosscheck_params *par, check_item *r,
                                dls_error *err)
{
    double mk[2][2]; /* [solver][drop_unused] */
    dls_star_solver solvers[2] = {DLS_SOLVER_CHAIN, DLS_SOLVER_GLPK};
    for (int k = 0; k < 2; k++)
        for (int drop = 0; drop < 2; drop++) {
            dls_status st = solver_makespan(pl, V, par, solvers[k], drop, &mk[k][drop], err);
            if (st != DLS_OK)
                return st;
        }
    if (!isfinite(mk[0][0]) || !isfinite(mk[1][0])) {
        snprintf(r->detail, sizeof r->detail, "skipped: the limits cannot hold the load");
        return DLS_OK;
    }
    r->ran = 1;
    r->first = mk[0][0];
    r->second = mk[1][0];
    r->rel_diff = rel(r->first, r->second);
    r->extra = rel(mk[0][1], mk[1][1]);
    r->agree = 1;
    snprintf(r->detail, sizeof r->detail, "the paper's LP: the chain %.12g s, GLPK %.12g s "
             "(relative difference %.3g); with selection: the chain %.12g s, GLPK %.12g s "
             "(the chain %s)", r->first, r->second, r->rel_diff, mk[0][1], mk[1][1],
             r->extra < -par->rel_tol ? "better: GLPK's selection is a heuristic"
             : r->extra <= par->rel_tol ? "the same" : "WORSE, although exact");
    /* every makespan here is its loads' replay: the shorter refutes the other's optimum */
    if (r->rel_diff > par->rel_tol)
        refuted(r, 2, "GLPK's loads for the paper's LP", r->second,
                "the chain's claimed optimum", r->first);
    else if (r->rel_diff < -par->rel_tol)
        refuted(r, 1, "the chain's loads for the paper's LP", r->first,
                "GLPK's claimed optimum", r->second);
    else if (r->extra > par->rel_tol)
        refuted(r, 2, "GLPK's loads with its set of processors", mk[1][1],
                "the chain's claimed best set", mk[0][1]);
    return DLS_OK;
}

/* The best order against the MIP for the order (src/solver/order_mip.c). */
static dls_status order_check(const dls_platform *pl, double V, const dls_crosscheck_params *par,
                              check_item *r, dls_error *err)
{
    if (pl->n > DLS_CHECK_ORDER_MAX) {
        snprintf(r->detail, sizeof r->detail, "skipped: %zu processors, more than the %d the "
                 "order MIP takes", pl->n, DLS_CHECK_ORDER_MAX);
        return DLS_OK;
    }
    dls_schedule_params sp = par->schedule;
    sp.order = DLS_ORDER_BEST;
    sp.sequence = NULL;
    sp.sequence_count = 0;
    sp.exact = 0;
    dls_schedule *s;
    dls_status st = dls_schedule_solve(pl, V, &sp, &s, err);
    if (st != DLS_OK)
        return st;
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        snprintf(r->detail, sizeof r->detail, "skipped: the limits cannot hold the load");
        dls_schedule_free(s);
        return DLS_OK;
    }
    dls_schedule_solver_info si;
    dls_schedule_get_solver_info(s, &si, NULL);
    double best = dls_schedule_lp_makespan(s);
    dls_schedule_free(s);
    /* the MIP searches the order itself: the star in the platform's order */
    dls__star_opts so = dls__star_opts_from_params(&par->schedule);
    so.order = DLS_ORDER_GIVEN;
    so.sequence = NULL;
    so.sequence_count = 0;
    dls__star star;
    char *note = NULL;
    st = dls__star_build(pl, V, &so, 1, &star, &note, err);
    free(note);
    if (st != DLS_OK)
        return st;
    size_t lines = star.off[star.m];
    if (lines > DLS__CHECK_ORDER_MAX_LINES) {
        snprintf(r->detail, sizeof r->detail, "skipped: %zu time lines (memory levels and the "
                 "envelopes of speed models), more than the %d the order MIP takes", lines,
                 DLS__CHECK_ORDER_MAX_LINES);
        dls__star_free(&star);
        return DLS_OK;
    }
    dls__order_mip_answer ma;
    st = dls__order_mip_solve(&star, !sp.drop_unused, par->mip.time_limit, INFINITY, &ma, err);
    dls__star_free(&star);
    if (st != DLS_OK) {
        dls__order_mip_answer_free(&ma);
        return st;
    }
    const char *how = dls_order_method_name(si.order_method);
    if (ma.status == DLS_SOLUTION_OPTIMAL) {
        r->ran = 1;
        r->first = best;
        r->second = ma.makespan;
        r->rel_diff = rel(best, ma.makespan);
        r->extra = ma.seconds;
        /* a search that does not claim the best order may only be worse */
        r->agree = 1;
        snprintf(r->detail, sizeof r->detail, "the best order (%s%s) %.12g s, the order MIP "
                 "%.12g s (relative difference %.3g, %.3f s)", how,
                 si.order_optimal ? ", proven" : ", not proven", best, ma.makespan,
                 r->rel_diff, ma.seconds);
        if (r->rel_diff < -par->rel_tol)
            refuted(r, 1, "the best order's schedule", best, "the order MIP's claimed optimum",
                    ma.makespan);
        else if (si.order_optimal && r->rel_diff > par->rel_tol)
            refuted(r, 2, "the order MIP's schedule (its order and loads replayed)",
                    ma.makespan, "the search's claim of the best order", best);
    } else if (ma.status == DLS_SOLUTION_FEASIBLE) {
        r->ran = 1;
        r->first = best;
        r->second = ma.makespan;
        r->rel_diff = rel(best, ma.makespan);
        r->extra = ma.seconds;
        /* the MIP's bound holds every order: the best order's makespan is above it, and a
         * proven one at most its incumbent */
        r->agree = 1;
        snprintf(r->detail, sizeof r->detail, "the best order (%s) %.12g s; the order MIP "
                 "stopped at its time limit with %.12g s and a bound of %.12g s (%.3f s)", how,
                 best, ma.makespan, ma.bound, ma.seconds);
        if (best < ma.bound * (1 - par->rel_tol))
            refuted(r, 1, "the best order's schedule", best, "the order MIP's bound",
                    ma.bound);
        else if (si.order_optimal && r->rel_diff > par->rel_tol)
            refuted(r, 2, "the order MIP's schedule (its order and loads replayed)",
                    ma.makespan, "the search's claim of the best order", best);
    } else {
        snprintf(r->detail, sizeof r->detail, "skipped: the order MIP found no order within its "
                 "time limit (%.3f s)", ma.seconds);
    }
    dls__order_mip_answer_free(&ma);
    return DLS_OK;
}

/* A check whose solver could not answer (GLPK's simplex defeated by coefficients many
 * decades apart, an iteration limit, an answer that failed its own checks) proves nothing
 * either way: it is reported as not run, with what failed, and the other checks go on.
 * Other failures (memory, bad input) stop the cross-check. */
static dls_status inconclusive(dls_status st, const char *what, check_item *r, dls_error *err)
{
    if (st != DLS_ESOLVER && st != DLS_ELIMIT && st != DLS_ENUMERIC)
        return st;
    r->ran = 0;
    r->agree = 0;
    r->first = r->second = r->rel_diff = r->extra = NAN;
    snprintf(r->detail, sizeof r->detail, "skipped: the %s check's solver failed: %.440s",
             what, err != NULL ? err->message : "no message");
    if (err != NULL)
        dls_error_clear(err);
    return DLS_OK;
}

static dls_status dls_crosscheck_run_impl(const dls_platform *platform, double load,
                                          const dls_crosscheck_params *params, dls_crosscheck **out,
                                          dls_error *err)
{
    dls_crosscheck_params defaults;
    if (params == NULL) {
        dls_crosscheck_params_init(&defaults);
        params = &defaults;
    }
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_crosscheck_run", "NULL argument");
    dls_status rst = DLS__CHECK_RESERVED(params, "dls_crosscheck_run", dls_crosscheck_params,
                                         err);
    if (rst != DLS_OK)
        return rst;
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_crosscheck_run", "the platform has no processor");
    dls_status lst = dls__domain_load(load, "dls_crosscheck_run", err);
    if (lst != DLS_OK)
        return lst;
    if (!(params->rel_tol > 0 && params->rel_tol <= DLS__CHECK_MAX_TOL))
        return dls__fail(err, DLS_EINVAL, "dls_crosscheck_run", "rel_tol must be in (0, %g], not "
                         "%.10g", DLS__CHECK_MAX_TOL, params->rel_tol);
    dls_status pst = dls__mip_params_check(&params->mip, err);
    if (pst != DLS_OK)
        return pst;
    for (size_t i = 0; i < platform->n; i++)
        if (platform->procs[i].two_d)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_crosscheck_run", "processor "
                                "\"%s\" has a 2-D model; the checks need 1-D time functions",
                                platform->procs[i].name);
    dls_crosscheck *c = calloc(1, sizeof *c);
    if (c == NULL)
        return dls__oom(err, "dls_crosscheck_run");
    check_item *r = c->item;
    for (int k = 0; k < DLS_CHECK_COUNT; k++)
        r[k].first = r[k].second = r[k].rel_diff = r[k].extra = NAN;
    dls_status st = zero_communication(platform, load, params, &r[DLS_CHECK_ZERO_COMMUNICATION],
                                       err);
    st = inconclusive(st, "zero communication", &r[DLS_CHECK_ZERO_COMMUNICATION], err);
    if (st == DLS_OK)
        st = inconclusive(integer_mip(platform, load, params, &r[DLS_CHECK_INTEGER_MIP], err),
                          "integer MIP", &r[DLS_CHECK_INTEGER_MIP], err);
    if (st == DLS_OK)
        st = inconclusive(replay_check(platform, load, params, &r[DLS_CHECK_REPLAY], err),
                          "replay", &r[DLS_CHECK_REPLAY], err);
    if (st == DLS_OK)
        st = inconclusive(solvers_check(platform, load, params, &r[DLS_CHECK_SOLVERS], err),
                          "solvers", &r[DLS_CHECK_SOLVERS], err);
    if (st == DLS_OK)
        st = inconclusive(order_check(platform, load, params, &r[DLS_CHECK_ORDER], err),
                          "order", &r[DLS_CHECK_ORDER], err);
    if (st != DLS_OK) {
        free(c);
        return st;
    }
    c->all_agree = 1;
    for (int k = 0; k < DLS_CHECK_COUNT; k++) {
        c->all_agree &= !r[k].ran || r[k].agree;
        dls_check_result *p = &c->pub[k];
        p->kind = (dls_check_kind)k;
        p->ran = r[k].ran;
        p->agree = r[k].agree;
        p->first = r[k].first;
        p->second = r[k].second;
        p->rel_diff = r[k].rel_diff;
        p->extra = r[k].extra;
        p->detail = r[k].detail;
        p->proven_side = r[k].ran && !r[k].agree ? r[k].proven_side : 0;
    }
    *out = c;
    return DLS_OK;
}

dls_status dls_crosscheck_run(const dls_platform *platform, double load,
                              const dls_crosscheck_params *params, dls_crosscheck **out,
                              dls_error *err)
{
    dls_status st = dls_crosscheck_run_impl(platform, load, params, out, err);
    return dls__error_retag(err, st, "dls_crosscheck_run");
}

void dls_crosscheck_free(dls_crosscheck *c)
{
    free(c);
}

int dls_crosscheck_all_agree(const dls_crosscheck *c)
{
    return c->all_agree;
}

const dls_check_result *dls_crosscheck_result(const dls_crosscheck *c, dls_check_kind kind)
{
    if (c == NULL || (int)kind < 0 || (int)kind >= DLS_CHECK_COUNT)
        return NULL;
    return &c->pub[kind];
}
