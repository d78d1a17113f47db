/* The convex piecewise-linear envelope of a processing-time function (the divisible-load
 * LP of Drozdowski and Wolniewicz 2003 needs convex piecewise-linear time), and the exact deviation
 * it adds.
 *
 * On a piece where the speed is linear, s(x) = c + m x, the time is t(x) = x / (c + m x),
 * convex when c m <= 0 (t'' = -2 c m / s^3). Against a line e(x) = alpha + beta x, the
 * ratio g(x) = e(x) / t(x) = alpha c / x + (alpha m + beta c) + beta m x has at most one
 * interior extremum, at x* = sqrt(alpha c / (beta m)); so the largest relative deviation
 * |1 - g| on a piece is found exactly from its ends and x*. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/heap.h"
#include "core/sort.h"
#include "model/model_impl.h"

/* Defaults of dls_envelope_params. */
#define DLS__ENVELOPE_DEFAULT_REL_TOL 1e-4
#define DLS__ENVELOPE_DEFAULT_MAX_LINES 256
/* Intercepts of neighbouring pieces equal within this relative amount count as a kink
 * of zero angle when deciding whether the time function is convex (collinear points). */
#define DLS__ENVELOPE_KINK_REL_TOL 1e-12

void dls_envelope_params_init(dls_envelope_params *params)
{
    memset(params, 0, sizeof *params);
    params->rel_tol = DLS__ENVELOPE_DEFAULT_REL_TOL;
    params->max_lines = DLS__ENVELOPE_DEFAULT_MAX_LINES;
}

typedef struct piece {
    double u, v;   /* the piece is [u, v] */
    double c, m;   /* speed c + m x on it */
} piece;

typedef struct pt {
    double x, t;
} pt;

/* Speed of a points or constant model as c + m x on the piece containing (u, v). */
static void piece_speed(const dls_model *mo, double u, double v, double *c, double *m)
{
    if (mo->kind == DLS_MODEL_CONSTANT) {
        *c = mo->constant;
        *m = 0;
        return;
    }
    size_t n = mo->n;
    double mid = 0.5 * (u + v);
    if (n == 1 || mid <= mo->size[0]) {
        *c = mo->speed[0];
        *m = 0;
    } else if (mid >= mo->size[n - 1]) {
        *c = mo->speed[n - 1];
        *m = 0;
    } else {
        size_t k = dls__segment(mo->size, n, mid);
        double slope = (mo->speed[k + 1] - mo->speed[k]) / (mo->size[k + 1] - mo->size[k]);
        *m = slope;
        *c = mo->speed[k] - slope * mo->size[k];
    }
}

/* Largest |1 - g(x)| on [u, v] for time x / (c + m x) against alpha + beta x; *where gets
 * the size reaching it, *above the largest g(x) - 1 (the line above the time: 0 when
 * nowhere). u may be 0 only when alpha is 0 (the line through the origin). */
static double piece_deviation(double u, double v, double c, double m, double alpha, double beta,
                              double *where, double *above)
{
    *above = 0;
    double best = -1, at = v;
    double cand[3]; /* the ends (u only when > 0) and the interior extremum */
    int nc = 0;
    cand[nc++] = v;
    if (u > 0)
        cand[nc++] = u;
    double q = alpha * c / (beta * m);
    if (beta * m != 0 && q > 0) {
        double xs = sqrt(q);
        if (xs > u && xs < v)
            cand[nc++] = xs;
    }
    for (int i = 0; i < nc; i++) {
        double x = cand[i];
        double g = (alpha + beta * x) * (c + m * x) / x;
        double d = fabs(1 - g);
        *above = fmax(*above, g - 1);
        if (d > best) {
            best = d;
            at = x;
        }
    }
    if (u == 0) {
        /* limit at 0+: g -> beta c when alpha is 0 */
        double d = alpha == 0 ? fabs(1 - beta * c) : INFINITY;
        *above = fmax(*above, alpha == 0 ? beta * c - 1 : 0);
        if (d > best) {
            best = d;
            at = 0;
        }
    }
    *where = at;
    return best;
}

/* The knots of a speed model on [0, xmax]: 0, every point strictly inside, xmax. */
static size_t speed_knots(const dls_model *m, double xmax, double *knots)
{
    size_t k = 0;
    knots[k++] = 0;
    if (m->kind == DLS_MODEL_POINTS)
        for (size_t i = 0; i < m->n; i++)
            if (m->size[i] > 0 && m->size[i] < xmax)
                knots[k++] = m->size[i];
    knots[k++] = xmax;
    return k;
}

typedef struct cell {
    double p, q;   /* a sub-piece whose chord we use */
    double c, m;
    double err;    /* relative chord error */
    double split;  /* where the error is largest */
} cell;

static void cell_measure(cell *ce)
{
    double tp = ce->p / (ce->c + ce->m * ce->p), tq = ce->q / (ce->c + ce->m * ce->q);
    double beta = (tq - tp) / (ce->q - ce->p);
    double alpha = tp - beta * ce->p;
    double above;
    ce->err = piece_deviation(ce->p, ce->q, ce->c, ce->m, alpha, beta, &ce->split, &above);
    if (!(ce->split > ce->p && ce->split < ce->q))
        ce->split = 0.5 * (ce->p + ce->q);
}

/* The pieces of the time function between consecutive knots, with the speed c + m x on
 * each; counts in *ncurved the curved convex ones (c m < 0). Returns whether the time
 * function is convex on the whole range. */
static int make_pieces(const dls_model *mo, const double *knots, size_t np, piece *pieces,
                       size_t *ncurved)
{
    int convex = 1;
    *ncurved = 0;
    for (size_t i = 0; i < np; i++) {
        piece *pc = &pieces[i];
        pc->u = knots[i];
        pc->v = knots[i + 1];
        piece_speed(mo, pc->u, pc->v, &pc->c, &pc->m);
        if (pc->c * pc->m > 0)
            convex = 0;
        else if (pc->c * pc->m < 0)
            (*ncurved)++;
        /* kink at u: the slope of t jumps from c_prev / s^2 to c / s^2 */
        if (i > 0) {
            double cp = pieces[i - 1].c, cc = pc->c;
            if (cp > cc + DLS__ENVELOPE_KINK_REL_TOL * fmax(fabs(cp), fabs(cc)))
                convex = 0;
        }
    }
    return convex;
}

/* One cell per curved piece, then the worst cell split until every one is within rel_tol
 * or `budget` splits are spent: a max-heap of cell indices by error (heap, of capcells
 * entries like cells) keeps this O(L log L) for L lines. Sets *ncells; returns whether the
 * budget stopped the refinement. */
static int refine_cells(const piece *pieces, size_t np, cell *cells, size_t capcells,
                        size_t *heap, size_t budget, double rel_tol, size_t *ncells)
{
    size_t n = 0;
    dls__heap h;
    dls__heap_init(&h, heap, capcells, &cells[0].err, sizeof *cells,
                   DLS__HEAP_MAX | DLS__HEAP_TIES_FREE);
    for (size_t i = 0; i < np; i++) {
        if (pieces[i].c * pieces[i].m < 0) {
            cell *ce = &cells[n++];
            ce->p = pieces[i].u;
            ce->q = pieces[i].v;
            ce->c = pieces[i].c;
            ce->m = pieces[i].m;
            cell_measure(ce);
        }
    }
    for (size_t i = 0; i < n; i++)
        dls__heap_push(&h, i);
    int truncated = 0;
    while (h.size > 0) {
        size_t worst = dls__heap_top(&h);
        if (!(cells[worst].err > rel_tol))
            break;
        if (budget == 0) {
            truncated = 1;
            break;
        }
        DLS__ASSERT(n < capcells); /* every split spends one of the budget's cells */
        dls__heap_pop(&h);
        cell *w = &cells[worst];
        cell *nw = &cells[n++];
        *nw = *w;
        nw->p = w->split;
        w->q = w->split;
        cell_measure(w);
        cell_measure(nw);
        dls__heap_push(&h, worst);
        dls__heap_push(&h, n - 1);
        budget--;
    }
    *ncells = n;
    return truncated;
}

/* The lower convex hull of the time function sampled at the ns sizes xs (sorted here and
 * their repeats dropped); returns its number of vertices, written to hull. */
static size_t lower_hull(const dls_model *mo, double *xs, size_t ns, pt *hull)
{
    dls__sort_doubles(xs, ns);
    size_t nh = 0;
    for (size_t i = 0; i < ns; i++) {
        if (i > 0 && xs[i] == xs[i - 1])
            continue;
        pt b = {xs[i], xs[i] == 0 ? 0.0 : dls_model_time(mo, xs[i])};
        while (nh >= 2) {
            pt o = hull[nh - 2], a = hull[nh - 1];
            double cross = (a.x - o.x) * (b.t - o.t) - (a.t - o.t) * (b.x - o.x);
            if (cross > 0)
                break;
            nh--;
        }
        hull[nh++] = b;
    }
    return nh;
}

/* The exact largest relative deviation of the nl lines (la, lb) from the time function,
 * on every elementary interval between knots and hull vertices; *at gets where. */
static double envelope_deviation(const piece *pieces, size_t np, const pt *hull, size_t nl,
                                 const double *la, const double *lb, double xmax, double *at,
                                 double *above)
{
    double dev = 0, u = 0;
    *above = 0;
    size_t ip = 0, jh = 0;
    *at = xmax;
    while (u < xmax) {
        while (ip + 1 < np && pieces[ip].v <= u)
            ip++;
        while (jh + 1 < nl && hull[jh + 1].x <= u)
            jh++;
        double v = fmin(pieces[ip].v, hull[jh + 1].x);
        if (!(v > u))
            break;
        double where, up;
        double d = piece_deviation(u, v, pieces[ip].c, pieces[ip].m, la[jh], lb[jh], &where,
                                   &up);
        *above = fmax(*above, up);
        if (d > dev) {
            dev = d;
            *at = where;
        }
        u = v;
    }
    return dev;
}

/* Envelope of a constant or points model. */
static dls_status speed_envelope(const dls_model *mo, double xmax, const dls_envelope_params *par,
                                 dls_model **out, dls_envelope_info *info, double *dev_above,
                                 dls_error *err)
{
    dls_status st = DLS_ENOMEM;
    size_t nmax = (mo->kind == DLS_MODEL_POINTS ? mo->n : 0) + 2;
    double *knots = malloc(nmax * sizeof *knots), *xs = NULL, *la = NULL, *lb = NULL;
    piece *pieces = malloc(nmax * sizeof *pieces);
    cell *cells = NULL;
    size_t *heap = NULL;
    pt *hull = NULL;
    if (knots == NULL || pieces == NULL)
        goto done;
    size_t nk = speed_knots(mo, xmax, knots), np = nk - 1, ncurved;
    int convex = make_pieces(mo, knots, np, pieces, &ncurved);

    /* Sample budget: every knot, plus refinement of curved convex pieces. */
    size_t budget = par->max_lines + 1 > nk ? par->max_lines + 1 - nk : 0;
    size_t ncells, capcells = ncurved + budget;
    cells = malloc((capcells ? capcells : 1) * sizeof *cells);
    heap = malloc((capcells ? capcells : 1) * sizeof *heap);
    if (cells == NULL || heap == NULL)
        goto done;
    int truncated = refine_cells(pieces, np, cells, capcells, heap, budget, par->rel_tol, &ncells);

    /* Candidate points: knots and cell ends, then their lower convex hull. */
    size_t ns = 0;
    xs = malloc((nk + 2 * ncells) * sizeof *xs);
    hull = malloc((nk + 2 * ncells) * sizeof *hull);
    if (xs == NULL || hull == NULL)
        goto done;
    for (size_t i = 0; i < nk; i++)
        xs[ns++] = knots[i];
    for (size_t i = 0; i < ncells; i++) {
        xs[ns++] = cells[i].p;
        xs[ns++] = cells[i].q;
    }
    size_t nh = lower_hull(mo, xs, ns, hull);
    if (nh < 2) { /* cannot happen: the origin and xmax are always on the hull */
        st = dls__fail(err, DLS_ENUMERIC, "dls_model_convex_envelope", "degenerate hull");
        goto done;
    }
    DLS__ASSERT(hull[0].x == 0 && hull[0].t == 0); /* so the first line has la = 0 */
    size_t nl = nh - 1;
    la = malloc(nl * sizeof *la);
    lb = malloc(nl * sizeof *lb);
    if (la == NULL || lb == NULL)
        goto done;
    for (size_t j = 0; j < nl; j++) {
        lb[j] = (hull[j + 1].t - hull[j].t) / (hull[j + 1].x - hull[j].x);
        la[j] = j == 0 ? 0.0 : hull[j].t - lb[j] * hull[j].x;
    }
    double dev_at, above, dev = envelope_deviation(pieces, np, hull, nl, la, lb, xmax, &dev_at,
                                                   &above);

    st = dls_model_create_time_lines(nl, la, lb, out, err);
    if (st == DLS_OK && info != NULL) {
        memset(info, 0, sizeof *info);
        info->max_rel_dev = dev;
        info->at = dev_at;
        info->convex = convex;
        info->lines = nl;
        info->truncated = truncated;
    }
    if (st == DLS_OK && dev_above != NULL)
        *dev_above = above;
done:
    if (st == DLS_ENOMEM)
        dls__oom(err, "dls_model_convex_envelope");
    free(knots);
    free(pieces);
    free(cells);
    free(heap);
    free(xs);
    free(hull);
    free(la);
    free(lb);
    return st;
}

/* Envelope of a time model on (0, xmax]: the lines that are on top somewhere there, from
 * left to right. */
static dls_status lines_envelope(const dls_model *mo, double xmax, dls_model **out,
                                 dls_envelope_info *info, dls_error *err)
{
    size_t n = mo->n;
    double *la = malloc(n * sizeof *la), *lb = malloc(n * sizeof *lb);
    if (la == NULL || lb == NULL) {
        free(la);
        free(lb);
        return dls__oom(err, "dls_model_convex_envelope");
    }
    /* top line at 0+: largest intercept, then largest slope */
    size_t cur = 0;
    for (size_t l = 1; l < n; l++)
        if (mo->a[l] > mo->a[cur] || (mo->a[l] == mo->a[cur] && mo->b[l] > mo->b[cur]))
            cur = l;
    size_t nl = 0;
    double x = 0;
    for (;;) {
        la[nl] = mo->a[cur];
        lb[nl] = mo->b[cur];
        nl++;
        /* next line to overtake: earliest crossing after x among steeper lines */
        size_t next = n;
        double best = INFINITY;
        for (size_t l = 0; l < n; l++) {
            if (mo->b[l] <= mo->b[cur])
                continue;
            double cross = (mo->a[cur] - mo->a[l]) / (mo->b[l] - mo->b[cur]);
            if (cross < x)
                cross = x;
            if (cross < best || (cross == best && next < n && mo->b[l] > mo->b[next])) {
                best = cross;
                next = l;
            }
        }
        if (next == n || !(best < xmax))
            break;
        x = best;
        cur = next;
    }
    dls_status st = dls_model_create_time_lines(nl, la, lb, out, err);
    if (st == DLS_OK && info != NULL) {
        memset(info, 0, sizeof *info);
        info->max_rel_dev = 0;
        info->at = xmax;
        info->convex = 1;
        info->lines = nl;
        info->truncated = 0;
    }
    free(la);
    free(lb);
    return st;
}

dls_status dls_model_convex_envelope(const dls_model *model, double xmax,
                                     const dls_envelope_params *params, dls_model **out,
                                     dls_envelope_info *info, dls_error *err)
{
    return dls__model_envelope(model, xmax, params, out, info, NULL, err);
}

dls_status dls__model_envelope(const dls_model *model, double xmax,
                               const dls_envelope_params *params, dls_model **out,
                               dls_envelope_info *info, double *above, dls_error *err)
{
    if (above != NULL)
        *above = 0; /* time lines: their own lines, 0 either way */
    dls_envelope_params defaults;
    if (model == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_model_convex_envelope", "NULL argument");
    if (params == NULL) {
        dls_envelope_params_init(&defaults);
        params = &defaults;
    }
    dls_status rs = DLS__CHECK_RESERVED(params, "dls_model_convex_envelope",
                                        dls_envelope_params, err);
    if (rs != DLS_OK)
        return rs;
    if (!isfinite(xmax) || xmax <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_model_convex_envelope", "xmax must be a finite "
                         "number > 0, not %.10g", xmax);
    if (!(params->rel_tol > 0 && params->rel_tol < 1))
        return dls__fail(err, DLS_EINVAL, "dls_model_convex_envelope", "rel_tol must be in "
                         "(0, 1), not %.10g", params->rel_tol);
    if (params->max_lines < 2)
        return dls__fail(err, DLS_EINVAL, "dls_model_convex_envelope", "max_lines must be >= 2, "
                         "not %zu", params->max_lines);
    switch (model->kind) {
    case DLS_MODEL_CONSTANT:
    case DLS_MODEL_POINTS:
        return speed_envelope(model, xmax, params, out, info, above, err);
    case DLS_MODEL_TIME_LINES:
        return lines_envelope(model, xmax, out, info, err);
    case DLS_MODEL_SPEED2D:
        break;
    }
    return dls__fail(err, DLS_ENOTSUP, "dls_model_convex_envelope", "a 2-D speed model has no "
                     "time function of one size; take a section with dls_model_section() first");
}
