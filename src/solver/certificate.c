/* The rational certificate of the star LP's optimum (lp_star.c's LP, in original units):
 *     minimise Cmax
 *     T_k = T_{k-1} + S_k + C_k alpha_k                      (send_k, T_0 = 0)
 *     T_k + a_l + b_l alpha_k <= Cmax   for each line l of k  (finish_l)
 *     sum_k alpha_k = V,  0 <= alpha_k <= B_k.
 * Its dual, with y_l >= 0 on the finish rows, mu on the load row and nu_k >= 0 on the
 * limits, R_k = sum_{j >= k} Y_j and Y_j = sum_{l of j} y_l:
 *     maximise sum_k S_k R_k + sum_l a_l y_l + mu V - sum_k B_k nu_k
 *     sum_l y_l = 1,   C_k R_k + sum_{l of k} b_l y_l + nu_k >= mu   for each k.
 * A primal point and a dual point that are both feasible and have the same objective prove
 * the optimum. Both are computed here in rational arithmetic (GMP) from the optimal basis
 * GLPK's exact simplex found (which loads are at a bound, which finish rows are tight), and
 * every constraint of both is then checked exactly. The platform's doubles are exact
 * rationals, so the number proven is the optimum of the LP dlsched builds, with no rounding
 * anywhere: GLPK's arithmetic only suggests where to look.
 *
 * Solving. Along the send chain every load is an affine form in a few unknowns: the
 * makespan and the loads no tight row determines (forward pass); the dual weights likewise
 * in mu and the weights of the rows beyond the first tight one of a processor (backward
 * pass). The rows left over make a small system in those unknowns, solved by Gauss-Jordan
 * elimination (unknowns it leaves free are set to 0: any solution that passes the checks
 * is a certificate); a second pass evaluates the point. Numbers grow along the chain (each
 * position multiplies the denominators by its C_k + b_l), so the work is quadratic in the
 * positions: DLS__CERT_MAX_POSITIONS bounds it.
 *
 * GMP ends the process when it cannot allocate (its documented behaviour: no error is
 * returned); the certificate is computed only on request (exact), and its size is bounded
 * in advance by the limits below. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver/solver.h"

static void free_strings(char **v, size_t n)
{
    if (v == NULL)
        return;
    for (size_t k = 0; k < n; k++)
        free(v[k]);
    free(v);
}

void dls__certificate_free(dls__certificate *c)
{
    if (c == NULL)
        return;
    free(c->makespan);
    free(c->load_price);
    free_strings(c->load, c->m);
    free_strings(c->weight, c->m);
    free_strings(c->limit_price, c->m);
    free(c->load_value);
    memset(c, 0, sizeof *c);
}

#ifndef HAVE_GMP

dls_status dls__lp_certify(const dls__star *st, const dls__lp_basis *basis, double seconds,
                           dls__certificate *out, dls_error *err)
{
    (void)st;
    (void)basis;
    (void)seconds;
    memset(out, 0, sizeof *out);
    return dls__fail(err, DLS_ENOTSUP, NULL, "no rational certificate: %s", DLS_GMP_WHY);
}

#else

#include <gmp.h>

/* The largest LP certified: the work grows with the square of the positions (33 s at 1000
 * on the reference machine, doc/BENCHMARKS.md); the time limit bounds it too. */
#define DLS__CERT_MAX_POSITIONS 1000
/* The most unknowns the small system may have (loads or dual weights the basis leaves
 * undetermined); a usual optimum has one or two. Elimination costs rows x unknowns^2. */
#define DLS__CERT_MAX_UNKNOWNS 64

/* An affine form c[0] + sum_j c[j+1] u_j over the unknowns u of a pass. */
typedef mpq_t *form;

typedef struct cert {
    const dls__star *st;
    const dls__lp_basis *basis;
    size_t n;            /* unknowns of the pass (0 in an evaluation pass) */
    size_t used;         /* unknowns met so far */
    const mpq_t *value;  /* evaluation pass: the solved unknowns (nvalue of them) */
    size_t nvalue;
    form *rows;          /* the equations met (collecting pass), each = 0 */
    size_t nrows, caprows;
    double deadline;     /* CLOCK_MONOTONIC seconds */
    int late;            /* the deadline passed: the passes stop */
    mpq_t t, q, one, minus;
} cert;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether the time is up (checked once a position: a position costs far less). */
static int late(cert *w)
{
    if (!w->late && now() > w->deadline)
        w->late = 1;
    return w->late;
}

static form form_new(size_t n)
{
    form f = malloc((n + 1) * sizeof *f);
    if (f != NULL)
        for (size_t j = 0; j <= n; j++)
            mpq_init(f[j]);
    return f;
}

static void form_free(form f, size_t n)
{
    if (f == NULL)
        return;
    for (size_t j = 0; j <= n; j++)
        mpq_clear(f[j]);
    free(f);
}

static void form_zero(const cert *w, form f)
{
    for (size_t j = 0; j <= w->n; j++)
        mpq_set_ui(f[j], 0, 1);
}

/* f += s g */
static void form_addmul(cert *w, form f, const form g, const mpq_t s)
{
    for (size_t j = 0; j <= w->n; j++)
        if (mpq_sgn(g[j]) != 0) {
            mpq_mul(w->t, g[j], s);
            mpq_add(f[j], f[j], w->t);
        }
}

static void form_add_d(cert *w, form f, double x)
{
    mpq_set_d(w->t, x);
    mpq_add(f[0], f[0], w->t);
}

/* f = the next unknown: a variable when collecting, its value when evaluating. */
static void form_unknown(cert *w, form f)
{
    form_zero(w, f);
    if (w->value != NULL) {
        if (w->used < w->nvalue)
            mpq_set(f[0], w->value[w->used]);
    } else if (w->used < w->n) {
        mpq_set_ui(f[w->used + 1], 1, 1);
    }
    w->used++;
}

/* Records the equation f = 0 (collecting pass only). */
static void equation(cert *w, const form f)
{
    if (w->value != NULL || w->nrows >= w->caprows)
        return;
    for (size_t j = 0; j <= w->n; j++)
        mpq_set(w->rows[w->nrows][j], f[j]);
    w->nrows++;
}

static size_t first_tight(const dls__star *st, const dls__lp_basis *b, size_t k)
{
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
        if (b->tight[l])
            return l;
    return st->off[k + 1];
}

/* C_k + b_l == 0 (a free link and a flat line): that row cannot give the load */
static int flat(const dls__star *st, size_t k, size_t l) { return st->C[k] == -st->b[l]; }

/* The unknowns and equations of each pass, from the basis alone. */
static void count(const dls__star *st, const dls__lp_basis *b, size_t *pu, size_t *pe,
                  size_t *du, size_t *de)
{
    *pu = *du = 1; /* Cmax; mu */
    *pe = *de = 1; /* the load row; sum y = 1 */
    for (size_t k = 0; k < st->m; k++) {
        size_t t = 0, f = first_tight(st, b, k);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            t += b->tight[l] != 0;
        *pe += t;
        if (b->alpha[k] == 0) {
            *de += 1;
            if (t == 0 || flat(st, k, f))
                *pu += 1;
            *du += t == 0 ? 0 : flat(st, k, f) ? t : t - 1;
        } else {
            *du += t;
        }
    }
}

/* The forward pass over scratch forms x, T, sum, tmp; in an evaluation pass the loads go
 * to alpha (m) and Cmax to cmax_out. */
static void forward(cert *w, form cmax, form x, form T, form sum, form tmp, mpq_t *alpha)
{
    const dls__star *st = w->st;
    const dls__lp_basis *b = w->basis;
    w->used = 0;
    form_unknown(w, cmax);
    form_zero(w, T);
    form_zero(w, sum);
    for (size_t k = 0; k < st->m && !late(w); k++) {
        size_t f = first_tight(st, b, k);
        form_add_d(w, T, st->S[k]);
        form_zero(w, x);
        if (b->alpha[k] > 0) {
            mpq_set_d(x[0], st->B[k]);
        } else if (b->alpha[k] == 0 && f < st->off[k + 1] && !flat(st, k, f)) {
            /* (C_k + b_f) alpha = Cmax - T - a_f */
            form_addmul(w, x, cmax, w->one);
            form_addmul(w, x, T, w->minus);
            form_add_d(w, x, -st->a[f]);
            mpq_set_d(w->q, st->C[k]);
            mpq_set_d(w->t, st->b[f]);
            mpq_add(w->q, w->q, w->t);
            mpq_inv(w->q, w->q);
            for (size_t j = 0; j <= w->n; j++)
                mpq_mul(x[j], x[j], w->q);
        } else if (b->alpha[k] == 0) {
            form_unknown(w, x);
        }
        mpq_set_d(w->q, st->C[k]);
        form_addmul(w, T, x, w->q);
        form_addmul(w, sum, x, w->one);
        if (alpha != NULL)
            mpq_set(alpha[k], x[0]);
        /* every tight row: T_k + a_l + b_l alpha_k - Cmax = 0 (the one that gave the load is
         * then 0 = 0, which elimination drops) */
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            if (!b->tight[l])
                continue;
            form_zero(w, tmp);
            form_addmul(w, tmp, T, w->one);
            mpq_set_d(w->q, st->b[l]);
            form_addmul(w, tmp, x, w->q);
            form_add_d(w, tmp, st->a[l]);
            form_addmul(w, tmp, cmax, w->minus);
            equation(w, tmp);
        }
    }
    form_zero(w, tmp);
    form_addmul(w, tmp, sum, w->one);
    form_add_d(w, tmp, -st->V);
    equation(w, tmp);
}

/* The backward pass over scratch forms; in an evaluation pass the weights of the rows go to
 * y (lines) and mu to mu_out. */
static void backward(cert *w, form mu, form yf, form R, form Yk, form Bk, form tmp, mpq_t *y)
{
    const dls__star *st = w->st;
    const dls__lp_basis *b = w->basis;
    w->used = 0;
    form_unknown(w, mu);
    form_zero(w, R);
    for (size_t k = st->m; k-- > 0 && !late(w);) {
        size_t f = first_tight(st, b, k);
        int solve = b->alpha[k] == 0 && f < st->off[k + 1] && !flat(st, k, f);
        form_zero(w, Yk);
        form_zero(w, Bk);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            if (!b->tight[l] || (solve && l == f)) {
                if (y != NULL && !b->tight[l])
                    mpq_set_ui(y[l], 0, 1);
                continue;
            }
            form_unknown(w, yf);
            form_addmul(w, Yk, yf, w->one);
            mpq_set_d(w->q, st->b[l]);
            form_addmul(w, Bk, yf, w->q);
            if (y != NULL)
                mpq_set(y[l], yf[0]);
        }
        mpq_set_d(w->q, st->C[k]);
        if (solve) {
            /* (C_k + b_f) y_f = mu - C_k (R + Yk) - Bk */
            form_zero(w, yf);
            form_addmul(w, yf, mu, w->one);
            mpq_neg(w->t, w->q);
            mpq_set(w->q, w->t);
            form_addmul(w, yf, R, w->q);
            form_addmul(w, yf, Yk, w->q);
            form_addmul(w, yf, Bk, w->minus);
            mpq_set_d(w->q, st->C[k]);
            mpq_set_d(w->t, st->b[f]);
            mpq_add(w->q, w->q, w->t);
            mpq_inv(w->q, w->q);
            for (size_t j = 0; j <= w->n; j++)
                mpq_mul(yf[j], yf[j], w->q);
            form_addmul(w, Yk, yf, w->one);
            mpq_set_d(w->q, st->b[f]);
            form_addmul(w, Bk, yf, w->q);
            if (y != NULL)
                mpq_set(y[f], yf[0]);
        }
        form_addmul(w, R, Yk, w->one);
        if (b->alpha[k] == 0) {
            /* C_k R_k + Bk - mu = 0 */
            form_zero(w, tmp);
            mpq_set_d(w->q, st->C[k]);
            form_addmul(w, tmp, R, w->q);
            form_addmul(w, tmp, Bk, w->one);
            form_addmul(w, tmp, mu, w->minus);
            equation(w, tmp);
        }
    }
    /* sum y = R_1 = 1 */
    form_zero(w, tmp);
    form_addmul(w, tmp, R, w->one);
    mpq_sub(tmp[0], tmp[0], w->one);
    equation(w, tmp);
}

/* Gauss-Jordan on the rows (n unknowns); value receives a solution, free unknowns 0.
 * Returns -1 when the rows contradict each other. */
static int solve_rows(cert *w, mpq_t *value)
{
    size_t n = w->n, r = 0;
    size_t *pivot_of = malloc((n + 1) * sizeof *pivot_of);
    if (pivot_of == NULL)
        return -2;
    for (size_t j = 1; j <= n; j++) {
        pivot_of[j] = (size_t)-1;
        size_t p = r;
        while (p < w->nrows && mpq_sgn(w->rows[p][j]) == 0)
            p++;
        if (p == w->nrows)
            continue;
        form tmp = w->rows[p];
        w->rows[p] = w->rows[r];
        w->rows[r] = tmp;
        mpq_inv(w->q, w->rows[r][j]);
        for (size_t c = 0; c <= n; c++)
            mpq_mul(w->rows[r][c], w->rows[r][c], w->q);
        for (size_t i = 0; i < w->nrows; i++) {
            if (i == r || mpq_sgn(w->rows[i][j]) == 0)
                continue;
            mpq_neg(w->q, w->rows[i][j]);
            form_addmul(w, w->rows[i], w->rows[r], w->q);
        }
        pivot_of[j] = r++;
    }
    int ok = 0;
    for (size_t i = r; i < w->nrows; i++)
        if (mpq_sgn(w->rows[i][0]) != 0)
            ok = -1;
    for (size_t j = 1; j <= n; j++) {
        if (pivot_of[j] == (size_t)-1)
            mpq_set_ui(value[j - 1], 0, 1);
        else
            mpq_neg(value[j - 1], w->rows[pivot_of[j]][0]);
    }
    free(pivot_of);
    return ok;
}

/* The decimal text of q ("p/q", or "p" when whole), in memory of our own. */
static char *qstr(const mpq_t q)
{
    size_t len = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
    char *s = malloc(len);
    if (s != NULL)
        mpq_get_str(s, 10, q);
    return s;
}

/* The work of one certificate, its GMP numbers in one place to be freed. */
typedef struct job {
    cert w;
    size_t pu, pe, du, de, width;
    form scratch[6];
    form *rows;
    mpq_t *value, *alpha, *y, *nu, *R;
    int inited; /* the numbers of the arrays above are initialised */
    mpq_t cmax, mu;
} job;

static int job_alloc(job *j, const dls__star *st)
{
    size_t m = st->m, lines = st->off[m];
    j->width = j->pu > j->du ? j->pu : j->du;
    size_t nrows = j->pe > j->de ? j->pe : j->de;
    j->rows = calloc(nrows, sizeof *j->rows);
    j->value = malloc(j->width * sizeof *j->value);
    j->alpha = malloc(m * sizeof *j->alpha);
    j->nu = malloc(m * sizeof *j->nu);
    j->R = malloc(m * sizeof *j->R);
    j->y = malloc((lines ? lines : 1) * sizeof *j->y);
    if (j->rows == NULL || j->value == NULL || j->alpha == NULL || j->nu == NULL ||
        j->R == NULL || j->y == NULL)
        return -1;
    for (size_t i = 0; i < nrows; i++)
        if ((j->rows[i] = form_new(j->width)) == NULL)
            return -1;
    for (size_t i = 0; i < 6; i++)
        if ((j->scratch[i] = form_new(j->width)) == NULL)
            return -1;
    j->w.caprows = nrows;
    for (size_t i = 0; i < j->width; i++)
        mpq_init(j->value[i]);
    for (size_t k = 0; k < m; k++) {
        mpq_init(j->alpha[k]);
        mpq_init(j->nu[k]);
        mpq_init(j->R[k]);
    }
    for (size_t l = 0; l < lines; l++)
        mpq_init(j->y[l]);
    j->inited = 1;
    j->w.rows = j->rows;
    return 0;
}

static void job_free(job *j, const dls__star *st)
{
    size_t m = st->m, lines = st->off[m];
    size_t nrows = j->pe > j->de ? j->pe : j->de;
    if (j->rows != NULL)
        for (size_t i = 0; i < nrows; i++)
            form_free(j->rows[i], j->width);
    free(j->rows);
    for (size_t i = 0; i < 6; i++)
        form_free(j->scratch[i], j->width);
    if (j->inited) {
        for (size_t i = 0; i < j->width; i++)
            mpq_clear(j->value[i]);
        for (size_t k = 0; k < m; k++) {
            mpq_clear(j->alpha[k]);
            mpq_clear(j->nu[k]);
            mpq_clear(j->R[k]);
        }
        for (size_t l = 0; l < lines; l++)
            mpq_clear(j->y[l]);
    }
    free(j->value);
    free(j->alpha);
    free(j->nu);
    free(j->R);
    free(j->y);
}

/* One pass: collect the equations in n unknowns, solve them, evaluate. dual picks the
 * backward pass. */
static dls_status pass(job *j, int dual, size_t n, dls_error *err)
{
    cert *w = &j->w;
    form *s = j->scratch;
    w->n = n;
    w->value = NULL;
    w->nrows = 0;
    for (size_t i = 0; i < w->caprows; i++)
        for (size_t c = 0; c <= j->width; c++)
            mpq_set_ui(j->rows[i][c], 0, 1);
    if (dual)
        backward(w, s[0], s[1], s[2], s[3], s[4], s[5], NULL);
    else
        forward(w, s[0], s[1], s[2], s[3], s[4], NULL);
    if (w->late)
        return DLS_ELIMIT;
    int rc = solve_rows(w, j->value);
    if (rc == -2)
        return dls__oom(err, "certificate");
    if (rc != 0)
        return dls__fail(err, DLS_ENUMERIC, NULL, "no rational certificate: the optimal basis's "
                         "%s rows contradict each other", dual ? "dual" : "primal");
    w->n = 0;
    w->value = j->value;
    w->nvalue = n;
    if (dual) {
        backward(w, s[0], s[1], s[2], s[3], s[4], s[5], j->y);
        mpq_set(j->mu, s[0][0]);
    } else {
        forward(w, s[0], s[1], s[2], s[3], s[4], j->alpha);
        mpq_set(j->cmax, s[0][0]);
    }
    return w->late ? DLS_ELIMIT : DLS_OK;
}

/* The primal point checked: bounds, every finish row, the load. What it breaks (NULL:
 * nothing), at the position *at (m: the whole). */
static const char *check_primal(job *j, const dls__star *st, size_t *at)
{
    cert *w = &j->w;
    size_t m = st->m;
    mpq_t T, a, sum;
    mpq_inits(T, a, sum, NULL);
    const char *what = NULL;
    for (size_t k = 0; k < m && what == NULL && !late(w); k++) {
        *at = k;
        mpq_set_d(w->q, st->S[k]);
        mpq_add(T, T, w->q);
        mpq_set_d(w->q, st->C[k]);
        mpq_mul(w->q, w->q, j->alpha[k]);
        mpq_add(T, T, w->q);
        mpq_add(sum, sum, j->alpha[k]);
        if (mpq_sgn(j->alpha[k]) < 0) {
            what = "a negative load";
            break;
        }
        if (isfinite(st->B[k])) {
            mpq_set_d(w->q, st->B[k]);
            if (mpq_cmp(j->alpha[k], w->q) > 0) {
                what = "a load above its limit";
                break;
            }
        }
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            mpq_set_d(a, st->b[l]);
            mpq_mul(a, a, j->alpha[k]);
            mpq_set_d(w->q, st->a[l]);
            mpq_add(a, a, w->q);
            mpq_add(a, a, T);
            if (mpq_cmp(a, j->cmax) > 0) {
                what = "a finish after the makespan";
                break;
            }
        }
    }
    mpq_set_d(w->q, st->V);
    if (what == NULL && !mpq_equal(sum, w->q)) {
        what = "loads that do not sum to the load";
        *at = m;
    }
    mpq_clears(T, a, sum, NULL);
    return what;
}

/* The dual point checked, filling R and nu: weights, R, the limits' prices, every load's
 * reduced cost, the objective. What it breaks (NULL: nothing), at the position *at (m:
 * the whole). */
static const char *check_dual(job *j, const dls__star *st, size_t *at)
{
    cert *w = &j->w;
    size_t m = st->m;
    mpq_t sum, D, Bk;
    mpq_inits(sum, D, Bk, NULL);
    const char *what = NULL;
    for (size_t k = m; what == NULL && !late(w) && k-- > 0;) {
        *at = k;
        mpq_set_ui(Bk, 0, 1);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            if (mpq_sgn(j->y[l]) < 0)
                what = "a negative dual weight";
            mpq_add(sum, sum, j->y[l]);
            mpq_set_d(w->q, st->b[l]);
            mpq_mul(w->q, w->q, j->y[l]);
            mpq_add(Bk, Bk, w->q);
            mpq_set_d(w->q, st->a[l]);
            mpq_mul(w->q, w->q, j->y[l]);
            mpq_add(D, D, w->q);
        }
        mpq_set(j->R[k], sum);
        /* reduced cost C_k R_k + Bk - mu; at the limit, nu_k takes up what is negative */
        mpq_set_d(w->q, st->C[k]);
        mpq_mul(w->q, w->q, sum);
        mpq_add(Bk, Bk, w->q);
        mpq_sub(Bk, Bk, j->mu);
        mpq_set_ui(j->nu[k], 0, 1);
        if (mpq_sgn(Bk) < 0 && j->w.basis->alpha[k] > 0 && isfinite(st->B[k])) {
            mpq_neg(j->nu[k], Bk);
            mpq_set_d(w->q, st->B[k]);
            mpq_mul(w->q, w->q, j->nu[k]);
            mpq_sub(D, D, w->q);
        } else if (mpq_sgn(Bk) < 0 && what == NULL) {
            what = "a load whose reduced cost is negative";
        }
        mpq_set_d(w->q, st->S[k]);
        mpq_mul(w->q, w->q, sum);
        mpq_add(D, D, w->q);
    }
    if (what == NULL && mpq_cmp(sum, w->one) != 0) {
        what = "dual weights that do not sum to 1";
        *at = m;
    }
    if (what == NULL) {
        mpq_set_d(w->q, st->V);
        mpq_mul(w->q, w->q, j->mu);
        mpq_add(D, D, w->q);
        if (!mpq_equal(D, j->cmax)) {
            what = "a dual objective other than the makespan";
            *at = m;
        }
    }
    mpq_clears(sum, D, Bk, NULL);
    return what;
}

/* Checks both points exactly; fills R and nu. */
static dls_status check(job *j, const dls__star *st, dls_error *err)
{
    size_t at = 0;
    const char *what = check_primal(j, st, &at);
    if (what == NULL)
        what = check_dual(j, st, &at);
    if (j->w.late && what == NULL)
        return DLS_ELIMIT;
    if (what == NULL)
        return DLS_OK;
    if (at < st->m)
        return dls__fail(err, DLS_ENUMERIC, NULL,
                         "no rational certificate: the optimal basis gives "
                         "%s (processor at position %zu of the send order)", what, at + 1);
    return dls__fail(err, DLS_ENUMERIC, NULL,
                     "no rational certificate: the optimal basis gives %s", what);
}

static dls_status output(job *j, const dls__star *st, dls__certificate *out, dls_error *err)
{
    size_t m = st->m;
    out->m = m;
    out->makespan = qstr(j->cmax);
    out->load_price = qstr(j->mu);
    out->makespan_value = mpq_get_d(j->cmax);
    out->load = calloc(m, sizeof *out->load);
    out->weight = calloc(m, sizeof *out->weight);
    out->limit_price = calloc(m, sizeof *out->limit_price);
    out->load_value = malloc((m ? m : 1) * sizeof *out->load_value);
    int bad = out->makespan == NULL || out->load_price == NULL || out->load == NULL ||
              out->weight == NULL || out->limit_price == NULL || out->load_value == NULL;
    mpq_t Y;
    mpq_init(Y);
    for (size_t k = 0; k < m && !bad; k++) {
        mpq_set_ui(Y, 0, 1);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            mpq_add(Y, Y, j->y[l]);
        out->load[k] = qstr(j->alpha[k]);
        out->load_value[k] = mpq_get_d(j->alpha[k]);
        out->weight[k] = qstr(Y);
        out->limit_price[k] = qstr(j->nu[k]);
        bad = out->load[k] == NULL || out->weight[k] == NULL || out->limit_price[k] == NULL;
    }
    mpq_clear(Y);
    if (bad) {
        dls__certificate_free(out);
        return dls__oom(err, "certificate");
    }
    return DLS_OK;
}

dls_status dls__lp_certify(const dls__star *st, const dls__lp_basis *basis, double seconds,
                           dls__certificate *out, dls_error *err)
{
    memset(out, 0, sizeof *out);
    if (st->m > DLS__CERT_MAX_POSITIONS)
        return dls__fail(err, DLS_ELIMIT, NULL,
                         "no rational certificate: %zu processors, more than "
                         "the %d it is computed for (its work grows with the square)", st->m,
                         DLS__CERT_MAX_POSITIONS);
    for (size_t k = 0; k < st->m; k++)
        if (basis->alpha[k] > 0 && !isfinite(st->B[k]))
            return dls__fail(err, DLS_ENUMERIC, NULL,
                             "no rational certificate: the basis puts the "
                             "processor at position %zu at a limit it does not have", k + 1);
    job j;
    memset(&j, 0, sizeof j);
    count(st, basis, &j.pu, &j.pe, &j.du, &j.de);
    if (j.pu > DLS__CERT_MAX_UNKNOWNS || j.du > DLS__CERT_MAX_UNKNOWNS)
        return dls__fail(err, DLS_ELIMIT, NULL,
                         "no rational certificate: the optimal basis leaves "
                         "%zu unknowns, more than the %d solved for", j.pu > j.du ? j.pu : j.du,
                         DLS__CERT_MAX_UNKNOWNS);
    j.w.st = st;
    j.w.basis = basis;
    j.w.deadline = now() + seconds;
    mpq_inits(j.w.t, j.w.q, j.w.one, j.w.minus, j.cmax, j.mu, NULL);
    mpq_set_si(j.w.one, 1, 1);
    mpq_set_si(j.w.minus, -1, 1);
    dls_status rc = DLS_OK;
    if (job_alloc(&j, st) != 0)
        rc = dls__oom(err, "certificate");
    if (rc == DLS_OK)
        rc = pass(&j, 0, j.pu, err);
    if (rc == DLS_OK)
        rc = pass(&j, 1, j.du, err);
    if (rc == DLS_OK)
        rc = check(&j, st, err);
    if (rc == DLS_OK)
        rc = output(&j, st, out, err);
    if (rc == DLS_ELIMIT)
        rc = dls__fail(err, DLS_ELIMIT, NULL, "no rational certificate within %g s (the time "
                       "limit) for %zu processors: its numbers grow with the processors",
                       seconds, st->m);
    job_free(&j, st);
    mpq_clears(j.w.t, j.w.q, j.w.one, j.w.minus, j.cmax, j.mu, NULL);
    return rc;
}

#endif /* HAVE_GMP */
