/* The multi-installment LP: the chunk sizes of a given sequence of installments, in which a
 * processor may appear several times, and the search over sequences that uses it as its
 * evaluator (issue 25).
 *
 * Formulation. Chunk k of the sequence goes to processor i = s_k; xi_k is its size, A_k
 * its arrival, F_k its finish; T the makespan. With j the previous chunk of processor i and
 * h the chunk W back (W = the chunks a processor with a limit may hold at once):
 *     A_k - C_i xi_k - A_{k-1} >= S_i                    (send_k: one send at a time)
 *     A_k - C_i xi_k - F_h     >= S_i                    (hold_k: the memory is free)
 *     F_k - A_k - b_l xi_k     >= a_l   for each line l  (arrive_k_l)
 *     F_k - F_j - b_l xi_k     >= a_l   for each line l  (after_k_l: in sequence)
 *     F_k - b_l xi_k           >= a_l + r_i              (release: the first chunk)
 *     sum of xi over the last W chunks of i up to k <= B_i   (window_k)
 *     T - F_k >= 0           for the last chunk of each processor
 *     sum_k xi_k = V,   xi_k >= 0,   T minimised.
 * Each chunk's time is the top of its processor's lines at its own size (in or out of core
 * on its own). Every chunk of the sequence is sent and computed, even at size zero: the LP
 * charges its startup and intercept, and the search removes such chunks. The optimum is the
 * makespan of the earliest-start timeline of its sizes (every constraint only pushes times
 * later), which the caller replays.
 *
 * Scaling: loads in units of V, times in units of the caller's time unit (a makespan
 * reached by some schedule), GLPK's scaling on top, as for the single-installment LP.
 *
 * The search (dls__mlp_solve with search): round-robin over the base order for 1, 2, ...
 * rounds while more rounds help, then local moves on the best sequence (remove a chunk,
 * swap two neighbours, insert a chunk of a processor earlier), each priced by the LP from
 * the previous optimal basis, first improvement, until no move helps or a limit (time,
 * LPs) is reached. Deterministic for the same input and limits on LPs. */
#include <config.h>

#include <glpk.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/grow.h"
#include "core/locale.h"
#include "solver/glpk_guard.h"
#include "solver/solver.h"
#include "solver/triplets.h"

/* A move must shorten the makespan by this relative amount to be kept (the LP's own
 * tolerances are 1e-7 relative to the scaled values). */
#define DLS__MLP_IMPROVE_REL 1e-7
/* Round-robin stops after this many rounds in a row that do not improve. */
#define DLS__MLP_STALE_ROUNDS 2
/* Chunks at or below this fraction of V count as empty and are removed. */
#define DLS__MLP_EMPTY_REL 1e-9
/* The answer's LP is solved again from its optimal basis with these primal and dual
 * feasibility tolerances (GLPK's default, 1e-7, leaves optima 1e-7 apart). */
#define DLS__MLP_POLISH_TOL 1e-10
/* Sequences of fewer than this many chunks are not worth enumerating: the search's own
 * moves reach them. */
#define DLS__MLP_EXHAUSTIVE_MIN_LENGTH 3
/* The LP's makespan and the timeline of its sizes agree within this (relative): the LP's
 * tolerances, 1e-7 on scaled values, summed along the chain of sends. */
#define DLS__MLP_AGREE 1e-5
/* An LP whose answer is not its sizes' timeline, or that GLPK's simplex fails on, is solved
 * again, each time more carefully: from a fresh basis; unscaled by GLPK's primal simplex
 * with tight tolerances (GLPK's scaling divides a row holding a link rate of 1e7 s per
 * unit or more by that rate, and its startup then falls within the feasibility tolerance:
 * the LP "forgot" it); last, with the chunks whose size costs more than DLS__MLP_DROP_RATIO
 * times the cheapest chunk's per unit (link, compute and return), or that can hold at most
 * DLS__MLP_DROP_REL V (see mark_zero), held at 0, which the answer says. (GLPK's exact simplex is no help here: it fails an assertion on these.) */
#define DLS__MLP_RETRY_FRESH 1
#define DLS__MLP_RETRY_UNSCALED 2
#define DLS__MLP_RETRY_DROP 3
#define DLS__MLP_DROP_RATIO 1e6
/* ... and the chunks that can hold at most this fraction of V (as DLS__MLP_ZERO_REL) */
#define DLS__MLP_DROP_REL 1e-9
/* A chunk that can hold at most this fraction of V in any schedule as short as a simple
 * one is fixed at 0 (see mark_zero). */
#define DLS__MLP_ZERO_REL 1e-12
/* Simplex iterations of one LP: this many plus this many per row and column. */
#define DLS__MLP_ITER_BASE 2000ul
#define DLS__MLP_ITER_PER 20ul

/* The work, reachable from the GLPK thread's argument (all memory here is owned by it, so
 * that an abandoned GLPK call leaks nothing). */
typedef struct mlp_work {
    const dls__mlp_spec *sp;
    dls__mlp_answer *ans;
    dls__glpk_guard *g;
    double u, tau;
    /* scratch for one LP */
    dls__triplets t;             /* the matrix, grown as the LPs need (see triplets.h) */
    size_t *prev, *back, *last;  /* previous chunk of the processor, the chunk W back, last
                                    chunk of each position (SIZE_MAX: none) */
    size_t cap_seq, cap_pos;
    size_t *cand;                /* a candidate sequence */
    size_t *best;                /* the best sequence */
    size_t *cand_id, *best_id;   /* the chunks' identities, for warm starts */
    size_t next_id;
    /* the basis of the best LP by chunk identity: SLOTS statuses per identity (0: none) */
    unsigned char *store;
    size_t cap_store;
    unsigned char *proc_stat;    /* makespan row of each position */
    unsigned char load_stat, T_stat;
    size_t slots;                /* statuses kept per chunk (slots_of) */
    size_t lmax;                 /* the most time lines of a processor */
    size_t *retord;              /* the chunks whose results return, in return order */
    size_t nret;
    /* the rows of the LP built last: chunk and slot of each (chunk SIZE_MAX: a makespan
     * row, slot = its position; or the load row, slot SIZE_MAX) */
    size_t *row_chunk, *row_slot;
    size_t cap_rows;
    double *bx;                  /* its sizes */
    size_t nbest;
    double bT;
    double *x;                   /* sizes of the last LP */
    double *fin;                 /* scratch of the replay */
    double *zero;                /* 1 where a chunk of the LP built last is fixed at 0 */
    int drop;                    /* build: hold the costliest chunks at 0 (RETRY_DROP) */
    size_t dropped, best_dropped; /* chunks so held in the last LP, in the best's */
    unsigned long iterations;
    unsigned lps, warm;
    int last_ret;                /* glp_simplex's return of the last run */
    int tight;                   /* polish: tight tolerances */
    double objective;            /* the LP's objective of the last evaluation (s) */
    double best_objective;       /* that of the best */
    int limited;                 /* a limit ended the search */
    int failed;                  /* an LP failed for another reason than infeasibility */
    char tried[200];
} mlp_work;

/* Arrays of one type that share a capacity, grown together to hold `need` elements each by
 * the project's policy (dls__grow); *cap becomes the least capacity obtained. -1 when out of
 * memory (*cap unchanged: the arrays grown so far keep their larger blocks). */
static int grow_sizes(size_t **const *arr, size_t count, size_t *cap, size_t need)
{
    size_t least = SIZE_MAX;
    for (size_t k = 0; k < count; k++) {
        size_t c = *cap;
        size_t *q = dls__grow(*arr[k], &c, need, sizeof **arr[k]);
        if (q == NULL)
            return -1;
        *arr[k] = q;
        least = c < least ? c : least;
    }
    *cap = least;
    return 0;
}

static int grow_doubles(double **const *arr, size_t count, size_t *cap, size_t need)
{
    size_t least = SIZE_MAX;
    for (size_t k = 0; k < count; k++) {
        size_t c = *cap;
        double *q = dls__grow(*arr[k], &c, need, sizeof **arr[k]);
        if (q == NULL)
            return -1;
        *arr[k] = q;
        least = c < least ? c : least;
    }
    *cap = least;
    return 0;
}

/* Room for sequences of n chunks in every array sized by chunks (all of one capacity). */
static int reserve(mlp_work *w, size_t n)
{
    if (n <= w->cap_seq)
        return 0;
    size_t **const sz[] = {&w->prev, &w->back, &w->cand, &w->best, &w->cand_id, &w->best_id,
                           &w->retord};
    double **const db[] = {&w->bx, &w->x, &w->fin, &w->zero};
    size_t c_sz = w->cap_seq, c_db = w->cap_seq;
    if (grow_sizes(sz, sizeof sz / sizeof *sz, &c_sz, n) != 0
        || grow_doubles(db, sizeof db / sizeof *db, &c_db, n) != 0)
        return -1;
    w->cap_seq = c_sz < c_db ? c_sz : c_db;
    return 0;
}

/* The most time lines of a processor. */
static size_t lines_most(const dls__star *st)
{
    size_t most = 1;
    for (size_t k = 0; k < st->m; k++)
        if (st->off[k + 1] - st->off[k] > most)
            most = st->off[k + 1] - st->off[k];
    return most;
}

/* Basis statuses kept per chunk ("slots"): 3 columns (size, arrival, finish), send, hold,
 * 2 per line (arrive, after or release), window, and for a chunk whose results return:
 * its return row, the row after the previous return, the row after the last send, and
 * the return's column. */
enum { SLOT_COLS = 3, SLOT_SEND = 3, SLOT_HOLD = 4, SLOT_LINES = 5 };
static size_t slot_arrive(size_t line) { return SLOT_LINES + 2 * line; }
static size_t slot_after(size_t line) { return SLOT_LINES + 2 * line + 1; }
static size_t slot_window(const mlp_work *w) { return SLOT_LINES + 2 * w->lmax; }
static size_t slot_ret(const mlp_work *w) { return slot_window(w) + 1; }
static size_t slot_retseq(const mlp_work *w) { return slot_window(w) + 2; }
static size_t slot_port(const mlp_work *w) { return slot_window(w) + 3; }
static size_t slot_retcol(const mlp_work *w) { return slot_window(w) + 4; }
static size_t slots_of(const dls__star *st) { return SLOT_LINES + 2 * lines_most(st) + 5; }

/* Whether the results of a chunk of position i return to the originator. */
static int returns(const dls__mlp_spec *sp, size_t i)
{
    return sp->ret_frac != NULL && sp->ret_frac[i] > 0;
}

static int col_xi(size_t k) { return (int)(3 * k) + 1; }
static int col_A(size_t k) { return (int)(3 * k) + 2; }
static int col_F(size_t k) { return (int)(3 * k) + 3; }

static void put(mlp_work *w, int i, int j, double v) { dls__triplets_put(&w->t, i, j, v); }

/* A size's coefficient, left out for a chunk fixed at 0 (see mark_zero). */
static void put_x(mlp_work *w, int i, size_t k, double v)
{
    if (w->zero[k] == 0)
        put(w, i, col_xi(k), v);
}

static double replay_lines(const mlp_work *w, const size_t *seq, size_t n, const double *x,
                           double *fin);

/* Seconds a unit of chunk size costs on processor i at most: its link, its steepest time
 * line and its return. */
static double unit_cost(const mlp_work *w, size_t i)
{
    const dls__mlp_spec *sp = w->sp;
    const dls__star *st = sp->st;
    double slope = st->C[i];
    for (size_t l = st->off[i]; l < st->off[i + 1]; l++)
        slope = fmax(slope, st->C[i] + st->b[l]);
    if (returns(sp, i))
        slope += sp->ret_C[i] * sp->ret_frac[i];
    return slope;
}

/* The timeline of a simple sizing of seq in w->x, or INFINITY where it breaks a limit or a
 * window: the load spread over the chunks of processor `only` (SIZE_MAX: over every chunk
 * in proportion to its processor's speed, its link and its return counted). */
static double simple_sizing(mlp_work *w, const size_t *seq, size_t n, size_t only)
{
    const dls__mlp_spec *sp = w->sp;
    const dls__star *st = sp->st;
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = seq[k];
        double slope = unit_cost(w, i);
        w->x[k] = only == SIZE_MAX ? (slope > 0 ? 1 / slope : 0) : i == only;
        sum += w->x[k];
    }
    if (!(sum > 0 && isfinite(sum)))
        return INFINITY;
    for (size_t k = 0; k < n; k++) {
        w->x[k] *= st->V / sum;
        size_t i = seq[k], held = 0;
        double window = 0;
        for (size_t h = k; h != SIZE_MAX && held < sp->window; h = w->prev[h], held++)
            window += w->x[h];
        if (!(w->x[k] <= st->B[i]) || (sp->window > 1 && !(window <= st->B[i])))
            return INFINITY;
    }
    return replay_lines(w, seq, n, w->x, w->fin);
}

/* Chunks that can take next to nothing (as lp_star.c's negligible processors): with U the
 * makespan of a simple sizing, a chunk that cannot hold more than DLS__MLP_ZERO_REL V and
 * still end (its result back) by U, even with nothing sent before it but the startups, is
 * fixed at 0 and its size's coefficients (a link of 1e8 s per unit, a return of 1e12 s per
 * unit) are left out of the matrix, where GLPK's scaling made rows lose their startups. */
static void mark_zero(mlp_work *w, const size_t *seq, size_t n)
{
    const dls__mlp_spec *sp = w->sp;
    const dls__star *st = sp->st;
    double cheapest = INFINITY;
    for (size_t k = 0; k < n; k++) {
        w->zero[k] = 0;
        double c = unit_cost(w, seq[k]);
        if (c > 0)
            cheapest = fmin(cheapest, c);
    }
    w->dropped = 0;
    if (w->drop)
        for (size_t k = 0; k < n; k++)
            if (unit_cost(w, seq[k]) > DLS__MLP_DROP_RATIO * cheapest) {
                w->zero[k] = 1;
                w->dropped++;
            }
    double U = simple_sizing(w, seq, n, SIZE_MAX);
    for (size_t k = 0; k < n; k++)
        if (w->prev[k] == SIZE_MAX) /* a processor's first chunk: all of it on this one */
            U = fmin(U, simple_sizing(w, seq, n, seq[k]));
    if (!(U < INFINITY))
        return;
    U *= 1 + 1e-9;
    double before = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = seq[k];
        double most = INFINITY, R = 0, D = 0;
        if (returns(sp, i)) {
            R = sp->ret_S[i];
            D = sp->ret_C[i] * sp->ret_frac[i];
        }
        for (size_t l = st->off[i]; l < st->off[i + 1]; l++) {
            double room = U - before - st->S[i] - st->a[l] - R, slope = st->C[i] + st->b[l] + D;
            if (slope > 0)
                most = fmin(most, room / slope);
            else if (room < 0)
                most = -1;
        }
        if (most <= DLS__MLP_ZERO_REL * st->V && !w->zero[k])
            w->zero[k] = 1;
        else if (w->drop && most <= DLS__MLP_DROP_REL * st->V && !w->zero[k]) {
            w->zero[k] = 1;
            w->dropped++;
        }
        before += st->S[i];
    }
}

/* The previous chunk of each chunk's processor, the one W back, each processor's last, and
 * the chunks whose results return in return order (w->prev, w->back, w->last, w->retord;
 * the caller reserved room for n chunks and m positions). */
static void link_chunks(mlp_work *w, const size_t *seq, size_t n)
{
    for (size_t i = 0; i < w->sp->st->m; i++)
        w->last[i] = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        w->prev[k] = w->last[seq[k]];
        w->last[seq[k]] = k;
    }
    for (size_t k = 0; k < n; k++) {
        size_t h = k;
        for (size_t d = 0; d < w->sp->window && h != SIZE_MAX; d++)
            h = w->prev[h];
        w->back[k] = h;
    }
    /* the chunks whose results return, in return order */
    const dls__mlp_spec *sp = w->sp;
    w->nret = 0;
    for (size_t j = 0; j < n; j++) {
        size_t k = sp->ret_perm != NULL ? sp->ret_perm[j] : sp->ret_lifo ? n - 1 - j : j;
        if (returns(sp, seq[k]))
            w->retord[w->nret++] = k;
    }
}

/* Whether the limits let seq (linked by link_chunks) hold V, decided without the simplex:
 * a chunk holds at most its processor's limit B, and with a window of W > 1 chunks any W
 * of them in a row hold B together, so a processor of c chunks holds B ceil(c / W) at most
 * (B at every W-th chunk reaches it). The LP's other rows only push times later: it is
 * feasible exactly when this holds, and GLPK's "no feasible solution" on such an LP is its
 * rounding (coefficients many decades apart), not an answer. */
static int seq_holds(const mlp_work *w, const size_t *seq, size_t n)
{
    const dls__star *st = w->sp->st;
    size_t W = w->sp->window > 1 ? w->sp->window : 1;
    double capacity = 0;
    for (size_t k = 0; k < n; k++) {
        if (w->last[seq[k]] != k)
            continue; /* each processor once, at its last chunk */
        size_t c = 0;
        for (size_t h = k; h != SIZE_MAX; h = w->prev[h])
            c++;
        capacity += fmin(st->V, st->B[seq[k]] * (double)((c + W - 1) / W));
    }
    return dls__holds(capacity, st->V);
}

/* The LP being built: its problem, whether rows and columns get names (an export), and
 * the row added last. */
typedef struct mlp_build {
    mlp_work *w;
    glp_prob *P;
    int names;
    int row;
} mlp_build;

/* Adds a row of the given bounds for basis slot `slot` of chunk `chunk` (SIZE_MAX: a
 * makespan row, slot its position, or the load row, slot SIZE_MAX), named in an export. */
DLS__PRINTF(7, 8)
static void new_row(mlp_build *b, size_t chunk, size_t slot, int type, double lo, double up,
                    const char *fmt, ...)
{
    mlp_work *w = b->w;
    b->row = glp_add_rows(b->P, 1);
    glp_set_row_bnds(b->P, b->row, type, lo, up);
    if ((size_t)b->row < w->cap_rows) {
        w->row_chunk[b->row] = chunk;
        w->row_slot[b->row] = slot;
    }
    if (b->names) {
        char name[64];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
        glp_set_row_name(b->P, b->row, name);
    }
}

/* Names column col in an export. */
DLS__PRINTF(3, 4)
static void name_col(const mlp_build *b, int col, const char *fmt, ...)
{
    if (!b->names)
        return;
    char name[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    glp_set_col_name(b->P, col, name);
}

/* Room for the LP of n chunks on m positions, and the chunks linked (link_chunks). -1
 * when out of memory. */
static int build_prepare(mlp_work *w, const size_t *seq, size_t n)
{
    size_t m = w->sp->st->m;
    if (reserve(w, n) != 0)
        return -1;
    size_t **const last[] = {&w->last};
    if (m > w->cap_pos && grow_sizes(last, 1, &w->cap_pos, m) != 0)
        return -1;
    /* every slot but the 3 columns' may be a row, plus the makespan rows and the load */
    size_t rows_most = n * (w->slots - SLOT_COLS) + m + 2;
    size_t **const rows[] = {&w->row_chunk, &w->row_slot};
    if (rows_most > w->cap_rows && grow_sizes(rows, 2, &w->cap_rows, rows_most) != 0)
        return -1;
    link_chunks(w, seq, n);
    return 0;
}

/* The columns of chunk k: its size (fixed at 0 where mark_zero says), arrival, finish. */
static void chunk_columns(mlp_build *b, const size_t *seq, size_t k)
{
    const mlp_work *w = b->w;
    const dls__star *st = w->sp->st;
    size_t i = seq[k];
    double cap = fmin(st->B[i], st->V) / w->u;
    glp_set_col_bnds(b->P, col_xi(k), cap > 0 && !w->zero[k] ? GLP_DB : GLP_FX, 0,
                     w->zero[k] ? 0 : cap);
    glp_set_col_bnds(b->P, col_A(k), GLP_LO, 0, 0);
    glp_set_col_bnds(b->P, col_F(k), GLP_LO, 0, 0);
    name_col(b, col_xi(k), "x_%zu", k + 1);
    name_col(b, col_A(k), "A_%zu", k + 1);
    name_col(b, col_F(k), "F_%zu", k + 1);
}

/* The rows of chunk k: its send after the previous one's, its hold (a limited processor
 * holds W chunks at once: it arrives after the chunk W back finished), per time line its
 * arrival and its start after the processor's previous chunk (or its release), and its
 * window's load. */
static void chunk_rows(mlp_build *b, const size_t *seq, size_t k)
{
    mlp_work *w = b->w;
    const dls__mlp_spec *sp = w->sp;
    const dls__star *st = sp->st;
    size_t i = seq[k];
    double u = w->u, tau = w->tau;
    double S = st->S[i] / tau, C = st->C[i] * u / tau;
    new_row(b, k, SLOT_SEND, GLP_LO, S, 0, "send_%zu", k + 1);
    put(w, b->row, col_A(k), 1);
    put_x(w, b->row, k, -C);
    if (k > 0)
        put(w, b->row, col_A(k - 1), -1);
    if (isfinite(st->B[i]) && w->back[k] != SIZE_MAX) {
        new_row(b, k, SLOT_HOLD, GLP_LO, S, 0, "hold_%zu", k + 1);
        put(w, b->row, col_A(k), 1);
        put_x(w, b->row, k, -C);
        put(w, b->row, col_F(w->back[k]), -1);
    }
    double r = sp->release != NULL ? sp->release[i] / tau : 0;
    for (size_t l = st->off[i]; l < st->off[i + 1]; l++) {
        double a = st->a[l] / tau, bl = st->b[l] * u / tau;
        size_t line = l - st->off[i];
        new_row(b, k, slot_arrive(line), GLP_LO, a, 0, "arrive_%zu_%zu", k + 1, line + 1);
        put(w, b->row, col_F(k), 1);
        put(w, b->row, col_A(k), -1);
        put_x(w, b->row, k, -bl);
        if (w->prev[k] != SIZE_MAX) {
            new_row(b, k, slot_after(line), GLP_LO, a, 0, "after_%zu_%zu", k + 1, line + 1);
            put(w, b->row, col_F(k), 1);
            put(w, b->row, col_F(w->prev[k]), -1);
            put_x(w, b->row, k, -bl);
        } else if (r > 0) {
            new_row(b, k, slot_after(line), GLP_LO, a + r, 0, "release_%zu_%zu", k + 1,
                    line + 1);
            put(w, b->row, col_F(k), 1);
            put_x(w, b->row, k, -bl);
        }
    }
    if (isfinite(st->B[i]) && w->prev[k] != SIZE_MAX && sp->window > 1) {
        new_row(b, k, slot_window(w), GLP_UP, 0, st->B[i] / u, "window_%zu", k + 1);
        size_t h = k;
        for (size_t d = 0; d < sp->window && h != SIZE_MAX; d++, h = w->prev[h])
            put_x(w, b->row, h, 1);
    }
}

/* Results returned: each after its computation, one at a time in return order, and with
 * one port after the last send; return_k ends at RB_k, the column after T for the j-th
 * return, and the makespan waits for the last. */
static void return_rows(mlp_build *b, const size_t *seq, size_t n, int colT)
{
    mlp_work *w = b->w;
    const dls__mlp_spec *sp = w->sp;
    double u = w->u, tau = w->tau;
    for (size_t j = 0; j < w->nret; j++) {
        size_t k = w->retord[j], i = seq[k];
        int col = colT + 1 + (int)j;
        double R = sp->ret_S[i] / tau, D = sp->ret_C[i] * sp->ret_frac[i] * u / tau;
        glp_set_col_bnds(b->P, col, GLP_LO, 0, 0);
        name_col(b, col, "RB_%zu", k + 1);
        new_row(b, k, slot_ret(w), GLP_LO, R, 0, "return_%zu", k + 1);
        put(w, b->row, col, 1);
        put(w, b->row, col_F(k), -1);
        put_x(w, b->row, k, -D);
        if (j > 0) {
            new_row(b, k, slot_retseq(w), GLP_LO, R, 0, "return_after_%zu", k + 1);
            put(w, b->row, col, 1);
            put(w, b->row, col - 1, -1);
            put_x(w, b->row, k, -D);
        } else if (!sp->two_port) {
            new_row(b, k, slot_port(w), GLP_LO, R, 0, "return_port_%zu", k + 1);
            put(w, b->row, col, 1);
            put(w, b->row, col_A(n - 1), -1);
            put_x(w, b->row, k, -D);
        }
        if (j + 1 == w->nret) {
            /* a makespan row of its own, after the positions' */
            new_row(b, SIZE_MAX, sp->st->m, GLP_LO, 0, 0, "makespan_returns");
            put(w, b->row, colT, 1);
            put(w, b->row, col, -1);
        }
    }
}

/* The makespan T after each position's last chunk, and the load V in the sizes. */
static void makespan_and_load_rows(mlp_build *b, size_t n, int colT)
{
    mlp_work *w = b->w;
    const dls__star *st = w->sp->st;
    for (size_t i = 0; i < st->m; i++)
        if (w->last[i] != SIZE_MAX) {
            new_row(b, SIZE_MAX, i, GLP_LO, 0, 0, "makespan_%zu", i + 1);
            put(w, b->row, colT, 1);
            put(w, b->row, col_F(w->last[i]), -1);
        }
    new_row(b, SIZE_MAX, SIZE_MAX, GLP_FX, st->V / w->u, st->V / w->u, "load");
    for (size_t k = 0; k < n; k++)
        put_x(w, b->row, k, 1);
}

/* Builds the LP of seq (positions, n chunks) into a new problem: columns x_k, A_k, F_k per
 * chunk (col_xi, col_A, col_F), then T, then RB per return. names: row and column names,
 * and the whole model (an export: no chunk fixed at 0). Returns NULL when out of memory. */
static glp_prob *build(mlp_work *w, const size_t *seq, size_t n, int names)
{
    if (build_prepare(w, seq, n) != 0)
        return NULL;
    glp_prob *P = glp_create_prob();
    mlp_build b = {w, P, names, 0};
    glp_set_obj_dir(P, GLP_MIN);
    if (names) {
        glp_set_prob_name(P, "dlsched_installments");
        glp_set_obj_name(P, "makespan");
        for (size_t k = 0; k < n; k++)
            w->zero[k] = 0;
    } else {
        mark_zero(w, seq, n);
    }
    glp_add_cols(P, (int)(3 * n + 1 + w->nret));
    int colT = (int)(3 * n) + 1;
    glp_set_col_bnds(P, colT, GLP_LO, 0, 0);
    glp_set_obj_coef(P, colT, 1);
    name_col(&b, colT, "T");
    dls__triplets_clear(&w->t);
    for (size_t k = 0; k < n; k++) {
        chunk_columns(&b, seq, k);
        chunk_rows(&b, seq, k);
    }
    return_rows(&b, seq, n, colT);
    makespan_and_load_rows(&b, n, colT);
    /* the triplets grow inside GLPK's thread: their memory is the work's (see triplets.h) */
    if (dls__triplets_load(&w->t, P) != DLS_OK) {
        glp_delete_prob(P);
        return NULL;
    }
    return P;
}

/* The statuses of the identities' basis store (grown to hold identity id). */
static unsigned char *stored(mlp_work *w, size_t id)
{
    size_t need = (id + 1) * w->slots;
    if (need > w->cap_store) {
        size_t c = w->cap_store ? w->cap_store : 1024;
        while (c < need)
            c *= 2;
        unsigned char *q = realloc(w->store, c);
        if (q == NULL)
            return NULL;
        memset(q + w->cap_store, 0, c - w->cap_store);
        w->store = q;
        w->cap_store = c;
    }
    return w->store + id * w->slots;
}

/* Gives P the basis of the store, through the chunks' identities (new rows basic, new
 * columns at their lower bounds), balanced to as many basic variables as rows. Returns 1
 * when a stored basis was used. */
static int warm_basis(mlp_work *w, glp_prob *P, const size_t *ids, size_t n)
{
    int rows = glp_get_num_rows(P), cols = glp_get_num_cols(P), basic = 0, known = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char *b = stored(w, ids[k]);
        for (int c = 0; c < SLOT_COLS; c++) {
            int stt = b != NULL && b[c] ? b[c] : GLP_NL;
            known += b != NULL && b[c];
            glp_set_col_stat(P, (int)(3 * k) + c + 1, stt);
        }
    }
    int colT = (int)(3 * n) + 1;
    glp_set_col_stat(P, colT, w->T_stat ? w->T_stat : GLP_BS);
    for (size_t j = 0; j < w->nret; j++) {
        unsigned char *b = stored(w, ids[w->retord[j]]);
        int stt = b != NULL && b[slot_retcol(w)] ? b[slot_retcol(w)] : GLP_BS;
        glp_set_col_stat(P, colT + 1 + (int)j, stt);
    }
    for (int r = 1; r <= rows; r++) {
        size_t ck = w->row_chunk[r], sl = w->row_slot[r];
        int stt = GLP_BS;
        if (ck != SIZE_MAX) {
            unsigned char *b = stored(w, ids[ck]);
            if (b != NULL && b[sl])
                stt = b[sl];
        } else if (sl == SIZE_MAX) {
            stt = w->load_stat ? w->load_stat : GLP_BS;
        } else if (w->proc_stat[sl]) {
            stt = w->proc_stat[sl];
        }
        glp_set_row_stat(P, r, stt);
    }
    if (known == 0)
        return 0;
    for (int r = 1; r <= rows; r++)
        basic += glp_get_row_stat(P, r) == GLP_BS;
    for (int c = 1; c <= cols; c++)
        basic += glp_get_col_stat(P, c) == GLP_BS;
    /* too many basic variables: columns leave the basis (the sizes first); too few: rows
     * enter it */
    for (int c = 1; c <= cols && basic > rows; c++)
        if (glp_get_col_stat(P, c) == GLP_BS) {
            glp_set_col_stat(P, c, GLP_NL);
            basic--;
        }
    for (int r = rows; r >= 1 && basic < rows; r--)
        if (glp_get_row_stat(P, r) != GLP_BS) {
            glp_set_row_stat(P, r, GLP_BS);
            basic++;
        }
    return 1;
}

/* Keeps the basis of P (the optimum of the LP of ids) in the store. */
static void keep_basis(mlp_work *w, glp_prob *P, const size_t *ids, size_t n)
{
    int rows = glp_get_num_rows(P);
    for (size_t k = 0; k < n; k++) {
        unsigned char *b = stored(w, ids[k]);
        if (b == NULL)
            return;
        memset(b, 0, w->slots);
        for (int c = 0; c < SLOT_COLS; c++)
            b[c] = (unsigned char)glp_get_col_stat(P, (int)(3 * k) + c + 1);
    }
    int colT = (int)(3 * n) + 1;
    w->T_stat = (unsigned char)glp_get_col_stat(P, colT);
    for (size_t j = 0; j < w->nret; j++) {
        unsigned char *b = stored(w, ids[w->retord[j]]);
        if (b != NULL)
            b[slot_retcol(w)] = (unsigned char)glp_get_col_stat(P, colT + 1 + (int)j);
    }
    for (int r = 1; r <= rows; r++) {
        size_t ck = w->row_chunk[r], sl = w->row_slot[r];
        unsigned char stt = (unsigned char)glp_get_row_stat(P, r);
        if (ck != SIZE_MAX) {
            unsigned char *b = stored(w, ids[ck]);
            if (b != NULL)
                b[sl] = stt;
        } else if (sl == SIZE_MAX) {
            w->load_stat = stt;
        } else {
            w->proc_stat[sl] = stt;
        }
    }
}

/* One simplex run with method meth; 1 when it ended (optimal or infeasible). */
static int run(mlp_work *w, glp_prob *P, int meth, unsigned long it)
{
    glp_smcp parm;
    dls__glpk_smcp(w->g, &parm, it);
    parm.meth = meth;
    parm.presolve = GLP_OFF;
    if (w->tight) {
        parm.tol_bnd = DLS__MLP_POLISH_TOL;
        parm.tol_dj = DLS__MLP_POLISH_TOL;
    }
    int before = glp_get_it_cnt(P);
    int ret = glp_simplex(P, &parm);
    w->iterations += (unsigned long)(glp_get_it_cnt(P) - before);
    w->last_ret = ret;
    return ret == 0 && (glp_get_status(P) == GLP_OPT || glp_get_status(P) == GLP_NOFEAS);
}

/* The careful solve of an LP whose answer was off (see DLS__MLP_RETRY_UNSCALED): unscaled,
 * GLPK's primal simplex with tight tolerances from an advanced basis. 1 when solved. */
static int run_careful(mlp_work *w, glp_prob *P, unsigned long it)
{
    int tight = w->tight;
    w->tight = 1;
    glp_adv_basis(P, 0);
    int ok = run(w, P, GLP_PRIMAL, it);
    w->tight = tight;
    return ok;
}

/* Solves the LP of seq (identities ids): returns the makespan (s), INFINITY when the
 * sequence cannot hold the load, NAN when the simplex failed or a limit stopped it
 * (w->limited, w->failed and w->tried say which). keep: keep its basis. Sizes in w->x. */
/* The earliest-start makespan of sizes x for seq (n chunks) in the LP's own model (its
 * lines, window and release times): what the LP's optimum must equal. Uses w->prev and
 * w->back as build() left them for this sequence, and fin (n) as scratch. */
static double replay_lines(const mlp_work *w, const size_t *seq, size_t n, const double *x,
                           double *fin)
{
    const dls__star *st = w->sp->st;
    double link = 0, makespan = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = seq[k];
        double start = link;
        if (isfinite(st->B[i]) && w->back[k] != SIZE_MAX && fin[w->back[k]] > start)
            start = fin[w->back[k]];
        double arrive = start + st->S[i] + st->C[i] * x[k];
        link = arrive;
        double cs = arrive;
        if (w->prev[k] != SIZE_MAX)
            cs = fmax(cs, fin[w->prev[k]]);
        else if (w->sp->release != NULL)
            cs = fmax(cs, w->sp->release[i]);
        double t = -INFINITY;
        for (size_t l = st->off[i]; l < st->off[i + 1]; l++)
            t = fmax(t, st->a[l] + st->b[l] * x[k]);
        fin[k] = cs + t;
        makespan = fmax(makespan, fin[k]);
    }
    /* the results, in return order (w->retord as build() left it) */
    double port = w->sp->two_port ? 0 : link, back = 0;
    for (size_t j = 0; j < w->nret; j++) {
        size_t k = w->retord[j], i = seq[k];
        double start = fmax(fmax(fin[k], back), port);
        back = start + w->sp->ret_S[i] + w->sp->ret_C[i] * w->sp->ret_frac[i] * x[k];
        makespan = fmax(makespan, back);
    }
    return makespan;
}


/* Whether a limit (time, LPs) forbids another LP; if so, says which in w->tried. */
static int at_limit(mlp_work *w)
{
    if (dls__glpk_left(w->g) <= 0) {
        w->limited = 1;
        snprintf(w->tried, sizeof w->tried, "no time left");
        return 1;
    }
    if (w->sp->max_lps > 0 && w->lps >= w->sp->max_lps) {
        w->limited = 1;
        snprintf(w->tried, sizeof w->tried, "%u LPs solved, the limit", w->lps);
        return 1;
    }
    return 0;
}

/* Whether an LP may be solved again, more carefully, after try `retried`. */
static int may_retry(const mlp_work *w, int retried)
{
    return retried < DLS__MLP_RETRY_DROP && dls__glpk_left(w->g) > 0;
}

/* The simplex on P, as try `retried` asks: scaled, from the stored basis of ids (NULL:
 * none), then a fresh one, dual then primal; or carefully (run_careful). 1 when it ended. */
static int solve_lp(mlp_work *w, glp_prob *P, const size_t *ids, size_t n, int retried)
{
    dls__glpk_guard *g = w->g;
    unsigned long it = DLS__MLP_ITER_BASE + DLS__MLP_ITER_PER * (unsigned long)(
                                               glp_get_num_rows(P) + glp_get_num_cols(P));
    if (!(retried < DLS__MLP_RETRY_UNSCALED || retried == DLS__MLP_RETRY_DROP))
        return run_careful(w, P, it);
    int ok = 0;
    glp_scale_prob(P, GLP_SF_AUTO);
    if (ids != NULL && warm_basis(w, P, ids, n)) {
        ok = run(w, P, GLP_DUALP, it);
        w->warm += ok;
    }
    if (!ok && dls__glpk_left(g) > 0) {
        glp_adv_basis(P, 0);
        ok = run(w, P, GLP_DUALP, it);
    }
    if (!ok && dls__glpk_left(g) > 0 && w->last_ret != GLP_ETMLIM) {
        glp_adv_basis(P, 0);
        ok = run(w, P, GLP_PRIMAL, it);
    }
    return ok;
}

/* The makespan of P's optimum, its sizes in w->x: at least 0 and summing to V, the largest
 * chunk taking the LP's rounding (within its limit). The basis is kept for keep_ids (NULL:
 * not kept). *again when the LP is to be solved again. */
static double optimum(mlp_work *w, glp_prob *P, const size_t *seq, size_t n, int retried,
                      const size_t *keep_ids, int *again)
{
    double sum = 0;
    size_t top = 0;
    for (size_t k = 0; k < n; k++) {
        w->x[k] = fmax(0, glp_get_col_prim(P, col_xi(k))) * w->u;
        sum += w->x[k];
        if (w->x[k] > w->x[top])
            top = k;
    }
    const dls__star *st = w->sp->st;
    double fixed = w->x[top] + (st->V - sum);
    if (fixed >= 0 && fixed <= fmin(st->B[seq[top]], st->V))
        w->x[top] = fixed;
    double T = glp_get_obj_val(P) * w->tau;
    w->objective = T;
    /* the LP's answer must be its sizes' timeline: a warm start from a basis GLPK
     * misjudged has been seen to end "optimal" far off; such an answer is solved
     * again from a fresh basis */
    double R = replay_lines(w, seq, n, w->x, w->fin);
    if (!(fabs(R - T) <= DLS__MLP_AGREE * fmax(R, T)) && may_retry(w, retried)) {
        *again = 1;
        return NAN;
    }
    /* agreeing, or as the last resort: the sizes' own timeline, a schedule that holds, is
     * the answer, and the LP's makespan (w->objective) beside it says by how much they
     * differ */
    T = R;
    if (keep_ids != NULL && !isnan(T))
        keep_basis(w, P, keep_ids, n);
    return T;
}

/* What the simplex's end on P says: the makespan, INFINITY when the LP is infeasible, NAN
 * when it did not end (w->limited or w->failed say why, w->tried how). *again when the
 * LP is to be solved again, more carefully. */
static double outcome(mlp_work *w, glp_prob *P, const size_t *seq, size_t n, int ok,
                      int retried, const size_t *keep_ids, int *again)
{
    if (ok && glp_get_status(P) == GLP_NOFEAS && seq_holds(w, seq, n)) {
        /* a feasible LP GLPK called infeasible: solved again, more carefully */
        if (may_retry(w, retried)) {
            *again = 1;
            return NAN;
        }
        w->failed = 1;
        snprintf(w->tried, sizeof w->tried, "GLPK's simplex found no feasible solution to "
                 "the LP of %zu chunks, which the limits hold", n);
        return NAN;
    }
    if (ok && glp_get_status(P) == GLP_NOFEAS)
        return INFINITY;
    if (ok)
        return optimum(w, P, seq, n, retried, keep_ids, again);
    if (w->last_ret == GLP_ETMLIM || dls__glpk_left(w->g) <= 0) {
        w->limited = 1;
        snprintf(w->tried, sizeof w->tried, "time limit reached in an LP of %zu chunks", n);
        return NAN;
    }
    if (may_retry(w, retried)) {
        /* GLPK's simplex failed (a singular or ill-conditioned basis), or stalled past its
         * iterations (automatic, many times what a healthy LP takes): more carefully */
        *again = 1;
        return NAN;
    }
    w->failed = 1; /* a stall past the iterations too: numerical, as a failure */
    snprintf(w->tried, sizeof w->tried, "GLPK's simplex ended with code %d, status %d on "
             "an LP of %zu chunks", w->last_ret, glp_get_status(P), n);
    return NAN;
}

/* The makespan of the LP of seq (n chunks; ids: their identities for a warm start, NULL:
 * none; keep: its basis kept for them), solved again more carefully as long as the LP
 * says to (retried: the tries so far). NAN when it did not end; *nomem when out of memory. */
static double evaluate_at(mlp_work *w, const size_t *seq, const size_t *ids, size_t n, int keep,
                          int *nomem, int retried)
{
    if (at_limit(w))
        return NAN;
    dls__glpk_stage(w->g, "the multi-installment LP of %zu chunks (LP %u)", n, w->lps + 1);
    w->drop = retried == DLS__MLP_RETRY_DROP;
    glp_prob *P = build(w, seq, n, 0);
    w->drop = 0;
    if (P == NULL) {
        *nomem = 1;
        return NAN;
    }
    w->lps++;
    int ok = solve_lp(w, P, ids, n, retried), again = 0;
    double T = outcome(w, P, seq, n, ok, retried, keep ? ids : NULL, &again);
    glp_delete_prob(P);
    if (again)
        return evaluate_at(w, seq, NULL, n, 0, nomem, retried + 1);
    return T;
}

static double evaluate(mlp_work *w, const size_t *seq, const size_t *ids, size_t n, int keep,
                       int *nomem)
{
    return evaluate_at(w, seq, ids, n, keep, nomem, 0);
}


/* Keeps seq (n chunks, identities ids, sizes w->x) as the best when it is better by the
 * margin. */
static int offer(mlp_work *w, const size_t *seq, const size_t *ids, size_t n, double T)
{
    if (!(T < w->bT * (1 - DLS__MLP_IMPROVE_REL)) && !(isinf(w->bT) && isfinite(T)))
        return 0;
    if (reserve(w, n) != 0)
        return 0;
    memmove(w->best, seq, n * sizeof *seq);
    memmove(w->best_id, ids, n * sizeof *ids);
    memcpy(w->bx, w->x, n * sizeof *w->x);
    w->nbest = n;
    w->bT = T;
    w->best_objective = w->objective; /* the LP that priced it (T is its sizes' replay) */
    w->best_dropped = w->dropped;
    return 1;
}

/* Prices the candidate w->cand / w->cand_id (n chunks) and keeps it when better. */
static int try_candidate(mlp_work *w, size_t n, int *nomem)
{
    double T = evaluate(w, w->cand, w->cand_id, n, 0, nomem);
    if (!offer(w, w->cand, w->cand_id, n, T))
        return 0;
    /* the basis of the new best, for the next warm starts */
    evaluate(w, w->best, w->best_id, w->nbest, 1, nomem);
    return 1;
}

/* Removes the empty chunks of the best sequence and prices it again. */
static void clean(mlp_work *w, int *nomem)
{
    size_t n = 0;
    for (size_t k = 0; k < w->nbest; k++)
        if (w->bx[k] > DLS__MLP_EMPTY_REL * w->sp->st->V) {
            w->cand_id[n] = w->best_id[k];
            w->cand[n++] = w->best[k];
        }
    if (n == w->nbest || n == 0)
        return;
    double T = evaluate(w, w->cand, w->cand_id, n, 1, nomem);
    if (isfinite(T) && T <= w->bT * (1 + DLS__MLP_IMPROVE_REL)) {
        /* never worse: keep the shorter sequence even at an equal makespan */
        memcpy(w->best, w->cand, n * sizeof *w->cand);
        memcpy(w->best_id, w->cand_id, n * sizeof *w->cand_id);
        memcpy(w->bx, w->x, n * sizeof *w->x);
        w->nbest = n;
        w->bT = T;
        w->best_objective = w->objective;
    }
}

/* The best sequence with a chunk of position i inserted at `at`, into cand. */
static void with_insert(mlp_work *w, size_t at, size_t i)
{
    size_t n = w->nbest;
    memcpy(w->cand, w->best, at * sizeof *w->cand);
    memcpy(w->cand_id, w->best_id, at * sizeof *w->cand_id);
    w->cand[at] = i;
    w->cand_id[at] = w->next_id++;
    memcpy(w->cand + at + 1, w->best + at, (n - at) * sizeof *w->cand);
    memcpy(w->cand_id + at + 1, w->best_id + at, (n - at) * sizeof *w->cand_id);
}

static int stopped(const mlp_work *w, const int *nomem)
{
    return w->limited || w->failed || *nomem;
}

/* The local moves, first improvement, until none helps or a limit: per chunk, remove it,
 * swap it with the next, insert one more chunk of its processor halfway back to the
 * processor's previous chunk; per processor of the platform, one more chunk at the end
 * and at the start. */
static void local_search(mlp_work *w, int *nomem)
{
    const dls__mlp_spec *sp = w->sp;
    size_t m = sp->st->m;
    int improved = 1;
    while (improved && !stopped(w, nomem)) {
        improved = 0;
        for (size_t q = 0; q < w->nbest && !stopped(w, nomem); q++) {
            size_t n = w->nbest;
            if (reserve(w, n + 1) != 0) {
                *nomem = 1;
                return;
            }
            if (n > 1) {
                memcpy(w->cand, w->best, q * sizeof *w->cand);
                memcpy(w->cand_id, w->best_id, q * sizeof *w->cand_id);
                memcpy(w->cand + q, w->best + q + 1, (n - q - 1) * sizeof *w->cand);
                memcpy(w->cand_id + q, w->best_id + q + 1, (n - q - 1) * sizeof *w->cand_id);
                if (try_candidate(w, n - 1, nomem)) {
                    improved = 1;
                    clean(w, nomem);
                    continue;
                }
            }
            if (q + 1 < n && w->best[q] != w->best[q + 1]) {
                memcpy(w->cand, w->best, n * sizeof *w->cand);
                memcpy(w->cand_id, w->best_id, n * sizeof *w->cand_id);
                w->cand[q] = w->best[q + 1];
                w->cand[q + 1] = w->best[q];
                w->cand_id[q] = w->best_id[q + 1];
                w->cand_id[q + 1] = w->best_id[q];
                if (try_candidate(w, n, nomem)) {
                    improved = 1;
                    clean(w, nomem);
                    continue;
                }
            }
            if (n + 1 <= sp->max_chunks) {
                size_t i = w->best[q], from = 0;
                for (size_t k = q; k-- > 0;)
                    if (w->best[k] == i) {
                        from = k + 1;
                        break;
                    }
                with_insert(w, from + (q - from) / 2, i);
                if (try_candidate(w, n + 1, nomem)) {
                    improved = 1;
                    clean(w, nomem);
                    continue;
                }
            }
        }
        for (size_t i = 0; i < m && !stopped(w, nomem); i++) {
            for (int end = 0; end < 2 && !stopped(w, nomem); end++) {
                size_t n = w->nbest;
                if (n + 1 > sp->max_chunks || reserve(w, n + 1) != 0)
                    break;
                with_insert(w, end ? n : 0, i);
                if (try_candidate(w, n + 1, nomem)) {
                    improved = 1;
                    clean(w, nomem);
                }
            }
        }
    }
}

/* Every sequence of 1 .. len chunks over the m positions, in lexicographic order by
 * length (the caller checked that there are at most exhaustive_max of them). */
static void exhaustive(mlp_work *w, size_t len, int *nomem)
{
    size_t m = w->sp->st->m;
    for (size_t n = 1; n <= len && !stopped(w, nomem); n++) {
        if (reserve(w, n) != 0) {
            *nomem = 1;
            return;
        }
        for (size_t k = 0; k < n; k++)
            w->cand[k] = 0;
        for (;;) {
            for (size_t k = 0; k < n; k++)
                w->cand_id[k] = w->next_id++;
            double T = evaluate(w, w->cand, NULL, n, 0, nomem);
            if (stopped(w, nomem))
                return;
            offer(w, w->cand, w->cand_id, n, T);
            size_t k = n;
            while (k > 0 && w->cand[k - 1] == m - 1)
                w->cand[--k] = 0;
            if (k == 0)
                break;
            w->cand[k - 1]++;
        }
    }
}

/* The longest length whose sequences (of 1 .. length chunks over m positions) number at
 * most `most`, capped at cap; 0 when even length 1 is too many. */
static size_t exhaustive_length(size_t m, size_t most, size_t cap)
{
    size_t len = 0;
    double count = 0, power = 1;
    while (len < cap) {
        power *= (double)m;
        if (count + power > (double)most)
            break;
        count += power;
        len++;
    }
    return len;
}

/* The answer where GLPK's simplex fails on a feasible LP after every retry (coefficients
 * too many decades apart for its doubles): seq sized by the best of simple_sizing's rules
 * (in proportion to the processors' speeds, or all on one processor's chunks), its
 * timeline replayed exactly; the answer's note says it is no optimum. 1 when a rule holds
 * the load within the limits. */
static int fallback_sizing(mlp_work *w, const size_t *seq, size_t n)
{
    size_t **const last[] = {&w->last};
    if (reserve(w, n) != 0 ||
        (w->sp->st->m > w->cap_pos && grow_sizes(last, 1, &w->cap_pos, w->sp->st->m) != 0))
        return 0;
    link_chunks(w, seq, n);
    double best = simple_sizing(w, seq, n, SIZE_MAX);
    size_t rule = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        if (w->prev[k] != SIZE_MAX)
            continue; /* each processor once, at its first chunk */
        double T = simple_sizing(w, seq, n, seq[k]);
        if (T < best) {
            best = T;
            rule = seq[k];
        }
    }
    if (!(best < INFINITY))
        return 0;
    w->bT = simple_sizing(w, seq, n, rule);
    memmove(w->best, seq, n * sizeof *seq);
    memcpy(w->bx, w->x, n * sizeof *w->x);
    w->nbest = n;
    w->best_objective = w->bT; /* no LP: the replay */
    w->best_dropped = 0;
    return 1;
}

/* The given sequence's LP (no search). */
static void run_given(mlp_work *w, int *nomem)
{
    const dls__mlp_spec *sp = w->sp;
    if (reserve(w, sp->nseq) != 0)
        *nomem = 1;
    double T = *nomem ? NAN : evaluate(w, sp->seq, NULL, sp->nseq, 0, nomem);
    w->bT = T; /* NAN: the LP did not end (a limit, a failure) */
    if (!isnan(T)) {
        memcpy(w->best, sp->seq, sp->nseq * sizeof *sp->seq);
        memcpy(w->bx, w->x, sp->nseq * sizeof *w->x);
        w->nbest = sp->nseq;
        w->bT = T;
        w->best_objective = w->objective;
    }
}

/* Round-robin over the base order: r rounds of it, r = 1, 2, ..., until a limit, or
 * DLS__MLP_STALE_ROUNDS rounds without a better answer (without a cap on rounds). */
static void round_robin(mlp_work *w, int *nomem)
{
    const dls__mlp_spec *sp = w->sp;
    unsigned stale = 0;
    for (unsigned r = 1; !stopped(w, nomem); r++) {
        if (sp->max_rounds > 0 && r > sp->max_rounds)
            break;
        size_t n = (size_t)r * sp->nbase;
        if (n > sp->max_chunks || reserve(w, n) != 0)
            break;
        for (size_t k = 0; k < n; k++) {
            w->cand[k] = sp->base[k % sp->nbase];
            w->cand_id[k] = w->next_id++;
        }
        double T = evaluate(w, w->cand, NULL, n, 0, nomem);
        if (isnan(T))
            break;
        w->ans->rounds = r;
        if (offer(w, w->cand, w->cand_id, n, T)) {
            w->ans->best_rounds = r;
            stale = 0;
        } else if (isfinite(w->bT) && ++stale >= DLS__MLP_STALE_ROUNDS && sp->max_rounds == 0) {
            break;
        }
    }
}

/* The search: the round-robin, every short sequence on a small platform, then the best
 * cleaned and improved by local moves. */
static void run_search(mlp_work *w, int *nomem)
{
    const dls__mlp_spec *sp = w->sp;
    dls__mlp_answer *ans = w->ans;
    round_robin(w, nomem);
    size_t len = exhaustive_length(sp->st->m, sp->exhaustive_max, sp->max_chunks);
    if (len >= DLS__MLP_EXHAUSTIVE_MIN_LENGTH || (len > 0 && len == sp->max_chunks)) {
        int limited = w->limited;
        w->limited = 0;
        exhaustive(w, len, nomem);
        ans->exhaustive_length = len;
        ans->exact = len == sp->max_chunks && !stopped(w, nomem);
        w->limited |= limited;
    }
    if (isfinite(w->bT) && !*nomem && !w->failed && !ans->exact) {
        double before = w->bT;
        /* a limit met by the round-robin still leaves the best priced */
        int limited = w->limited;
        w->limited = 0;
        clean(w, nomem);
        if (sp->moves && !limited) {
            evaluate(w, w->best, w->best_id, w->nbest, 1, nomem);
            local_search(w, nomem);
        }
        w->limited |= limited;
        ans->search_gain = before > 0 ? 1 - w->bT / before : 0;
    }
}

/* The answer polished: its LP again, from its own basis, with tight tolerances (a limit
 * reached already leaves it as it is). */
static void polish_best(mlp_work *w, int *nomem)
{
    const dls__mlp_spec *sp = w->sp;
    int limited = w->limited, failed = w->failed;
    w->limited = w->failed = 0;
    unsigned max_lps = w->lps + 2;
    if (sp->search)
        evaluate(w, w->best, w->best_id, w->nbest, 1, nomem);
    w->tight = 1;
    dls__mlp_spec relaxed = *sp;
    relaxed.max_lps = max_lps;
    w->sp = &relaxed;
    double T = evaluate(w, w->best, sp->search ? w->best_id : NULL, w->nbest, 0, nomem);
    w->sp = sp;
    if (isfinite(T)) {
        memcpy(w->bx, w->x, w->nbest * sizeof *w->x);
        w->bT = T;
        w->best_objective = w->objective;
    }
    w->limited = limited;
    w->failed = failed;
}

/* The answer's counts, its error when there is no answer, and its note. */
static dls_status mlp_report(mlp_work *w, int nomem, int fallback, dls_error *err)
{
    const dls__mlp_spec *sp = w->sp;
    dls__mlp_answer *ans = w->ans;
    ans->lps = w->lps;
    ans->warm = w->warm;
    ans->iterations = w->iterations;
    ans->time_limited = w->limited;
    ans->seconds = dls__glpk_elapsed(w->g);
    if (nomem)
        return dls__oom(err, "installments");
    if (isnan(w->bT) || (isinf(w->bT) && sp->search)) {
        if (w->limited)
            return dls__fail(err, DLS_ELIMIT, "installments", "no sequence was sized within the "
                             "limits (%s)", w->tried);
        if (w->failed)
            return dls__fail(err, DLS_ESOLVER, "installments", "%s", w->tried);
        return dls__fail(err, DLS_ERANGE, "installments", "no sequence of at most %zu chunks "
                         "tried holds the load within the limits", sp->max_chunks);
    }
    if (fallback)
        snprintf(ans->note, sizeof ans->note, "GLPK's simplex could not solve the LP (%s): "
                 "the chunks are sized by a simple rule (in proportion to the speeds, or on "
                 "one processor), and their timeline is replayed; not an optimum", w->tried);
    else if (w->failed && sp->search)
        snprintf(ans->note, sizeof ans->note, "the search stopped early: %s", w->tried);
    else if (w->limited && sp->search)
        snprintf(ans->note, sizeof ans->note, "the search stopped at a limit: %s", w->tried);
    else if (w->best_dropped > 0)
        snprintf(ans->note, sizeof ans->note, "GLPK could not solve the LP with every chunk: "
                 "%zu chunks whose unit costs more than %g times the cheapest chunk's (link, "
                 "compute and return), or that could hold at most %g of the load, were held "
                 "at zero load", w->best_dropped, DLS__MLP_DROP_RATIO, DLS__MLP_DROP_REL);
    ans->makespan = w->bT;
    ans->objective = isnan(w->best_objective) ? w->bT : w->best_objective;
    return DLS_OK;
}

static dls_status mlp_run(void *arg, dls__glpk_guard *g, dls_error *err)
{
    mlp_work *w = arg;
    const dls__mlp_spec *sp = w->sp;
    w->g = g;
    dls__glpk_progress(g, sp->progress, sp->progress_data);
    int nomem = 0;
    w->bT = INFINITY;
    w->best_objective = NAN;
    if (!sp->search)
        run_given(w, &nomem);
    else
        run_search(w, &nomem);
    int fallback = 0;
    if (!nomem && w->failed && !w->limited && !isfinite(w->bT)) {
        /* GLPK failed on every LP: the sequence (or the round-robin's first) sized simply */
        const size_t *seq = sp->search ? sp->base : sp->seq;
        size_t n = sp->search ? sp->nbase : sp->nseq;
        fallback = n > 0 && fallback_sizing(w, seq, n);
    }
    if (!nomem && isfinite(w->bT) && w->nbest > 0 && !fallback)
        polish_best(w, &nomem);
    return mlp_report(w, nomem, fallback, err);
}

static void work_free(mlp_work *w)
{
    dls__triplets_free(&w->t);
    free(w->prev);
    free(w->back);
    free(w->last);
    free(w->cand);
    free(w->best);
    free(w->bx);
    free(w->x);
    free(w->fin);
    free(w->zero);
    free(w->cand_id);
    free(w->retord);
    free(w->best_id);
    free(w->store);
    free(w->proc_stat);
    free(w->row_chunk);
    free(w->row_slot);
}

void dls__mlp_answer_free(dls__mlp_answer *ans)
{
    free(ans->seq);
    free(ans->x);
    ans->seq = NULL;
    ans->x = NULL;
}

dls_status dls__mlp_solve(const dls__mlp_spec *sp, dls__mlp_answer *ans, dls_error *err)
{
    mlp_work w;
    memset(&w, 0, sizeof w);
    memset(ans, 0, sizeof *ans);
    w.sp = sp;
    w.ans = ans;
    w.u = sp->st->V;
    w.tau = sp->time_unit > 0 && isfinite(sp->time_unit) ? sp->time_unit : 1;
    w.slots = slots_of(sp->st);
    w.lmax = lines_most(sp->st);
    w.proc_stat = calloc(sp->st->m + 1, 1);
    if (w.proc_stat == NULL)
        return dls__oom(err, "installments");
    dls_status rc = dls__glpk_call(sp->verbose, sp->time_limit, "installments", mlp_run, &w,
                                   NULL, err);
    if (rc == DLS_OK && isfinite(w.bT)) {
        ans->seq = malloc((w.nbest ? w.nbest : 1) * sizeof *ans->seq);
        ans->x = malloc((w.nbest ? w.nbest : 1) * sizeof *ans->x);
        if (ans->seq == NULL || ans->x == NULL) {
            dls__mlp_answer_free(ans);
            rc = dls__oom(err, "installments");
        } else {
            memcpy(ans->seq, w.best, w.nbest * sizeof *w.best);
            memcpy(ans->x, w.bx, w.nbest * sizeof *w.bx);
            ans->n = w.nbest;
        }
    } else if (rc == DLS_OK) {
        ans->makespan = INFINITY; /* the sequence cannot hold the load */
    }
    work_free(&w);
    return rc;
}

typedef struct mlp_export {
    mlp_work *w;
    dls_export_format format;
    const char *path;         /* GLPK's writers: the scratch file */
    dls__buf *out;            /* MathProg: the text */
} mlp_export;

/* A MathProg model of the problem as built: one variable per column, one constraint per
 * row, with their names (every coefficient written to 17 digits). */
static void write_mathprog(glp_prob *P, dls__buf *o, int *ind, double *val)
{
    int nc = glp_get_num_cols(P), nr = glp_get_num_rows(P);
    dls__buf_put(o, "# The multi-installment LP of dlsched (issue 25): loads in units, times in "
                    "seconds.\n");
    for (int j = 1; j <= nc; j++) {
        double ub = glp_get_col_ub(P, j);
        int type = glp_get_col_type(P, j);
        if (type == GLP_FX)
            dls__buf_put(o, "var %s = %.17g;\n", glp_get_col_name(P, j), ub);
        else if (type == GLP_DB)
            dls__buf_put(o, "var %s >= 0, <= %.17g;\n", glp_get_col_name(P, j), ub);
        else
            dls__buf_put(o, "var %s >= 0;\n", glp_get_col_name(P, j));
    }
    dls__buf_put(o, "minimize makespan: T;\n");
    for (int i = 1; i <= nr; i++) {
        int len = glp_get_mat_row(P, i, ind, val);
        dls__buf_put(o, "s.t. %s:", glp_get_row_name(P, i));
        for (int t = 1; t <= len; t++)
            dls__buf_put(o, " %s %.17g * %s", val[t] < 0 ? "-" : (t > 1 ? "+" : ""),
                         fabs(val[t]), glp_get_col_name(P, ind[t]));
        int type = glp_get_row_type(P, i);
        if (type == GLP_FX)
            dls__buf_put(o, " = %.17g;\n", glp_get_row_lb(P, i));
        else if (type == GLP_UP)
            dls__buf_put(o, " <= %.17g;\n", glp_get_row_ub(P, i));
        else
            dls__buf_put(o, " >= %.17g;\n", glp_get_row_lb(P, i));
    }
    dls__buf_put(o, "solve;\nprintf \"makespan %%.17g\\n\", T;\nend;\n");
}

/* Free MPS of the problem as built, every number to 17 digits (GLPK's writer keeps 12
 * characters of each, 1e-7 relative). */
static void write_mps(glp_prob *P, dls__buf *o, int *ind, double *val)
{
    int nc = glp_get_num_cols(P), nr = glp_get_num_rows(P);
    dls__buf_put(o, "* The multi-installment LP of dlsched (issue 25): loads in units, times in "
                    "seconds\nNAME dlsched_installments\nROWS\n N makespan\n");
    for (int i = 1; i <= nr; i++) {
        int type = glp_get_row_type(P, i);
        dls__buf_put(o, " %s %s\n", type == GLP_FX ? "E" : type == GLP_UP ? "L" : "G",
                     glp_get_row_name(P, i));
    }
    dls__buf_put(o, "COLUMNS\n");
    for (int j = 1; j <= nc; j++) {
        const char *name = glp_get_col_name(P, j);
        if (glp_get_obj_coef(P, j) != 0)
            dls__buf_put(o, " %s makespan %.17g\n", name, glp_get_obj_coef(P, j));
        int len = glp_get_mat_col(P, j, ind, val);
        for (int t = 1; t <= len; t++)
            dls__buf_put(o, " %s %s %.17g\n", name, glp_get_row_name(P, ind[t]), val[t]);
    }
    dls__buf_put(o, "RHS\n");
    for (int i = 1; i <= nr; i++) {
        int type = glp_get_row_type(P, i);
        double rhs = type == GLP_UP ? glp_get_row_ub(P, i) : glp_get_row_lb(P, i);
        if (rhs != 0)
            dls__buf_put(o, " RHS %s %.17g\n", glp_get_row_name(P, i), rhs);
    }
    dls__buf_put(o, "BOUNDS\n");
    for (int j = 1; j <= nc; j++) {
        int type = glp_get_col_type(P, j);
        if (type == GLP_DB)
            dls__buf_put(o, " UP BND %s %.17g\n", glp_get_col_name(P, j), glp_get_col_ub(P, j));
        else if (type == GLP_FX)
            dls__buf_put(o, " FX BND %s %.17g\n", glp_get_col_name(P, j), glp_get_col_ub(P, j));
    }
    dls__buf_put(o, "ENDATA\n");
}

static dls_status mlp_export_run(void *arg, dls__glpk_guard *g, dls_error *err)
{
    mlp_export *e = arg;
    e->w->g = g;
    glp_prob *P = build(e->w, e->w->sp->seq, e->w->sp->nseq, 1);
    if (P == NULL)
        return dls__oom(err, "installments");
    int rc = 0;
    if (e->format == DLS_EXPORT_MATHPROG || e->format == DLS_EXPORT_MPS) {
        /* the longest row or column */
        size_t most = (size_t)glp_get_num_cols(P) + (size_t)glp_get_num_rows(P) + 1;
        int *ind = malloc(most * sizeof *ind);
        double *val = malloc(most * sizeof *val);
        if (ind == NULL || val == NULL)
            e->out->failed = 1;
        else if (e->format == DLS_EXPORT_MPS)
            write_mps(P, e->out, ind, val);
        else
            write_mathprog(P, e->out, ind, val);
        free(ind);
        free(val);
    } else if (e->format == DLS_EXPORT_LP) {
        rc = glp_write_lp(P, NULL, e->path);
    } else {
        rc = glp_write_prob(P, 0, e->path);
    }
    glp_delete_prob(P);
    if (rc != 0)
        return dls__fail(err, DLS_EIO, NULL, "GLPK could not write the LP: %s", g->tail);
    return DLS_OK;
}


dls_status dls__mlp_text(const dls__mlp_spec *sp, dls_export_format format, dls__buf *out,
                         dls_error *err)
{
    mlp_work w;
    memset(&w, 0, sizeof w);
    w.sp = sp;
    w.u = 1;
    w.tau = 1;
    w.slots = slots_of(sp->st);
    w.lmax = lines_most(sp->st);
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, NULL);
    char *scratch = NULL;
    dls_status rc = DLS_OK;
    if (format != DLS_EXPORT_MATHPROG && format != DLS_EXPORT_MPS)
        rc = dls__scratch_create(&scratch, err);
    if (rc == DLS_OK) {
        mlp_export e = {&w, format, scratch, out};
        /* writing takes time in proportion to the LP's size: no limit */
        rc = dls__glpk_call(sp->verbose, INFINITY, "export", mlp_export_run, &e, NULL, err);
        if (scratch != NULL) {
            if (rc == DLS_OK)
                rc = dls__scratch_take(scratch, out, err);
            else
                dls__scratch_remove(scratch);
        }
    }
    dls__c_numeric_leave(&loc);
    work_free(&w);
    if (rc == DLS_OK && out->failed)
        rc = dls__oom(err, NULL);
    return rc;
}
