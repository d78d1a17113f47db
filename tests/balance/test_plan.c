/* Tests of the move plans (dlsched/balance.h) against brute force: every pair of count
 * vectors with p <= 4 processors and n <= 6 elements, each layout's owner array built
 * element by element, the plan checked against it; random large cases against a walk over
 * the block boundaries (an independent computation of the same runs); then the edges
 * (p = 1, n = 0, empty blocks, counts near 2^53) and the refused inputs. */
#include "gen.h"

#define MAXP 4
#define MAXN 6

/* owner[e] for the 1-D block layout of counts d (n elements). */
static void owners(size_t p, const uint64_t *d, size_t *owner)
{
    size_t e = 0;
    for (size_t i = 0; i < p; i++)
        for (uint64_t k = 0; k < d[i]; k++)
            owner[e++] = i;
}

/* Checks a plan of small counts (n <= MAXN) against the owner arrays. */
static void check_small(size_t p, const uint64_t *before, const uint64_t *after, uint64_t n)
{
    dls_move_plan *plan = NULL;
    dls_error err;
    assert_ok(dls_move_plan_create(p, before, after, &plan, &err), &err);
    assert_int_equal(dls_move_plan_count(plan), p);
    size_t ob[MAXN], oa[MAXN];
    owners(p, before, ob);
    owners(p, after, oa);
    int covered[MAXN] = {0};
    uint64_t changed = 0;
    for (uint64_t e = 0; e < n; e++)
        changed += ob[e] != oa[e];
    assert_int_equal(dls_move_plan_moved(plan), changed);
    size_t nm = 99;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    if (changed == 0)
        assert_int_equal(nm, 0);
    uint64_t sum = 0;
    for (size_t k = 0; k < nm; k++) {
        assert_true(mv[k].count > 0);
        assert_true(mv[k].first + mv[k].count <= n);
        for (uint64_t e = mv[k].first; e < mv[k].first + mv[k].count; e++) {
            assert_int_equal(mv[k].from, ob[e]);
            assert_int_equal(mv[k].to, oa[e]);
            assert_false(covered[e]);
            covered[e] = 1;
        }
        if (k > 0) {
            uint64_t end = mv[k - 1].first + mv[k - 1].count;
            assert_true(mv[k - 1].first < mv[k].first);
            /* maximal runs: a transfer that continues the previous one would have merged */
            if (end == mv[k].first)
                assert_false(mv[k - 1].from == mv[k].from && mv[k - 1].to == mv[k].to);
        }
        for (size_t b = 0; b < sizeof mv[k].reserved; b++)
            assert_int_equal(mv[k].reserved[b], 0);
        sum += mv[k].count;
    }
    for (uint64_t e = 0; e < n; e++)
        assert_int_equal(covered[e], ob[e] != oa[e]);
    assert_int_equal(sum, changed);
    /* net crossing of boundary i: elements going from <= i to > i, minus the reverse */
    const int64_t *bd = dls_move_plan_boundaries(plan);
    if (p == 1)
        assert_null(bd);
    for (size_t i = 0; i + 1 < p; i++) {
        int64_t net = 0;
        for (uint64_t e = 0; e < n; e++)
            net += (ob[e] <= i && oa[e] > i) - (ob[e] > i && oa[e] <= i);
        assert_int_equal(bd[i], net);
    }
    const int64_t *ch = dls_move_plan_changes(plan);
    for (size_t i = 0; i < p; i++)
        assert_int_equal(ch[i], (int64_t)after[i] - (int64_t)before[i]);
    dls_move_plan_free(plan);
}

/* Every vector of p counts summing to n: calls fn(d) for each (d[k..p) filled in turn). */
typedef struct compositions {
    size_t p;
    uint64_t n;
    uint64_t d[MAXP];
} compositions;

static int next_composition(compositions *c)
{
    /* lexicographic successor among vectors summing to n, last entry determined */
    size_t p = c->p;
    if (p == 1)
        return 0;
    for (size_t k = p - 1; k-- > 0;) {
        uint64_t prefix = 0;
        for (size_t j = 0; j < k; j++)
            prefix += c->d[j];
        if (prefix + c->d[k] < c->n) {
            c->d[k]++;
            for (size_t j = k + 1; j + 1 < p; j++)
                c->d[j] = 0;
            c->d[p - 1] = c->n - prefix - c->d[k];
            return 1;
        }
    }
    return 0;
}

static void first_composition(compositions *c, size_t p, uint64_t n)
{
    c->p = p;
    c->n = n;
    memset(c->d, 0, sizeof c->d);
    c->d[p - 1] = n;
}

TEST(test_plan_brute_force)
{
    size_t pairs = 0;
    for (size_t p = 1; p <= MAXP; p++)
        for (uint64_t n = 0; n <= MAXN; n++) {
            compositions b, a;
            first_composition(&b, p, n);
            do {
                first_composition(&a, p, n);
                do {
                    check_small(p, b.d, a.d, n);
                    pairs++;
                } while (next_composition(&a));
            } while (next_composition(&b));
        }
    /* sum over p, n of C(n+p-1, p-1)^2: 7 + 140 + 1,596 + 11,934 */
    assert_int_equal(pairs, 7 + 140 + 1596 + 11934);
}

/* The runs of a plan computed another way: walk the union of both layouts' block
 * boundaries; each piece between two consecutive boundaries has one old and one new
 * owner, and consecutive pieces with the same pair (and no gap) form one run. Returns
 * the number of runs written to mv (at most 2p). */
static size_t walk_runs(size_t p, const uint64_t *before, const uint64_t *after,
                        dls_move *mv)
{
    size_t i = 0, j = 0, nm = 0;
    uint64_t pos = 0, endb = before[0], enda = after[0];
    for (;;) {
        while (i < p && endb == pos && i + 1 < p)
            endb += before[++i];
        while (j < p && enda == pos && j + 1 < p)
            enda += after[++j];
        uint64_t end = endb < enda ? endb : enda;
        if (end == pos)
            return nm; /* both at the total: done */
        if (i != j) {
            if (nm > 0 && mv[nm - 1].from == i && mv[nm - 1].to == j &&
                mv[nm - 1].first + mv[nm - 1].count == pos)
                mv[nm - 1].count += end - pos;
            else
                mv[nm++] = (dls_move){.from = i, .to = j, .first = pos, .count = end - pos};
        }
        pos = end;
    }
}

/* Random p up to 40 and counts up to 10^12 (often 0, often equal): the plan's transfers,
 * moved, boundaries and changes against the walk. */
TEST(test_plan_random_walk)
{
    test_rng r = test_rng_salted(3830);
    enum { P = 40 };
    uint64_t before[P], after[P];
    dls_move runs[2 * P];
    for (int c = 0; c < 2000; c++) {
        size_t p = 1 + (size_t)test_below(&r, P);
        uint64_t scale = c % 2 ? 10 : 1000000000000u, sb = 0, sa = 0;
        for (size_t i = 0; i < p; i++) {
            before[i] = test_below(&r, 3) == 0 ? 0 : test_below(&r, scale);
            after[i] = test_below(&r, 4) == 0 ? before[i] : test_below(&r, scale);
            sb += before[i];
            sa += after[i];
        }
        /* equal sums: the difference goes to (or comes from) a random processor */
        size_t k = (size_t)test_below(&r, p);
        if (sa < sb)
            after[k] += sb - sa;
        else
            before[k] += sa - sb;
        dls_move_plan *plan = NULL;
        dls_error err;
        assert_ok(dls_move_plan_create(p, before, after, &plan, &err), &err);
        size_t nr = walk_runs(p, before, after, runs), nm = 99;
        const dls_move *mv = dls_move_plan_moves(plan, &nm);
        assert_int_equal(nm, nr);
        uint64_t moved = 0;
        for (size_t m = 0; m < nm; m++) {
            assert_int_equal(mv[m].from, runs[m].from);
            assert_int_equal(mv[m].to, runs[m].to);
            assert_true(mv[m].first == runs[m].first && mv[m].count == runs[m].count);
            moved += runs[m].count;
        }
        assert_true(dls_move_plan_moved(plan) == moved);
        /* boundary i: the net flow over it is what the processors after it gained */
        const int64_t *bd = dls_move_plan_boundaries(plan), *ch = dls_move_plan_changes(plan);
        int64_t gained = 0;
        for (size_t i = p; i-- > 1;) {
            gained += (int64_t)after[i] - (int64_t)before[i];
            assert_true(bd[i - 1] == gained);
        }
        for (size_t i = 0; i < p; i++)
            assert_true(ch[i] == (int64_t)after[i] - (int64_t)before[i]);
        dls_move_plan_free(plan);
    }
}

/* Every element moves: each processor's block goes to the next one (a shift). */
TEST(test_plan_all_move)
{
    uint64_t before[3] = {2, 2, 0}, after[3] = {0, 2, 2};
    /* owners before 0 0 1 1, after 1 1 2 2: no element stays */
    uint64_t b2[2] = {4, 0}, a2[2] = {0, 4};
    dls_move_plan *plan = NULL;
    dls_error err;
    assert_ok(dls_move_plan_create(3, before, after, &plan, &err), &err);
    assert_true(dls_move_plan_moved(plan) == 4);
    size_t n3 = 0;
    const dls_move *m3 = dls_move_plan_moves(plan, &n3);
    assert_int_equal(n3, 2);
    assert_true(m3[0].from == 0 && m3[0].to == 1 && m3[0].first == 0 && m3[0].count == 2);
    assert_true(m3[1].from == 1 && m3[1].to == 2 && m3[1].first == 2 && m3[1].count == 2);
    dls_move_plan_free(plan);
    assert_ok(dls_move_plan_create(2, b2, a2, &plan, &err), &err);
    size_t nm = 0;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    assert_int_equal(nm, 1);
    assert_true(mv[0].from == 0 && mv[0].to == 1 && mv[0].first == 0 && mv[0].count == 4);
    assert_true(dls_move_plan_moved(plan) == 4);
    assert_true(dls_move_plan_boundaries(plan)[0] == 4);
    dls_move_plan_free(plan);
}

TEST(test_plan_single_processor)
{
    uint64_t d[1] = {7};
    dls_move_plan *plan = NULL;
    dls_error err;
    assert_ok(dls_move_plan_create(1, d, d, &plan, &err), &err);
    size_t nm = 5;
    assert_null(dls_move_plan_moves(plan, &nm));
    assert_int_equal(nm, 0);
    assert_int_equal(dls_move_plan_moved(plan), 0);
    assert_null(dls_move_plan_boundaries(plan));
    assert_int_equal(dls_move_plan_changes(plan)[0], 0);
    dls_move_plan_free(plan);
    dls_move_plan_free(NULL);
}

TEST(test_plan_empty_middle)
{
    /* the middle blocks are empty before and after: elements jump over them */
    uint64_t before[4] = {6, 0, 0, 0}, after[4] = {0, 0, 0, 6};
    dls_move_plan *plan = NULL;
    dls_error err;
    assert_ok(dls_move_plan_create(4, before, after, &plan, &err), &err);
    size_t nm = 0;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    assert_int_equal(nm, 1);
    assert_int_equal(mv[0].from, 0);
    assert_int_equal(mv[0].to, 3);
    assert_int_equal(mv[0].first, 0);
    assert_int_equal(mv[0].count, 6);
    const int64_t *bd = dls_move_plan_boundaries(plan);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(bd[i], 6);
    dls_move_plan_free(plan);
}

/* Counts near 2^53 (the largest n): exact arithmetic, no overflow in the signs. */
TEST(test_plan_huge_counts)
{
    const uint64_t M = DLS_PARTITION_MAX_ELEMENTS;
    uint64_t before[3] = {M - 3, 1, 2}, after[3] = {1, 2, M - 3};
    dls_move_plan *plan = NULL;
    dls_error err;
    assert_ok(dls_move_plan_create(3, before, after, &plan, &err), &err);
    /* owners: before [0, M-3) on 0, M-3 on 1, [M-2, M) on 2; after 0 on 0, [1, 3) on 1,
     * [3, M) on 2: elements 1..2 go 0 -> 1, 3..M-4 go 0 -> 2, M-3 goes 1 -> 2 */
    size_t nm = 0;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    assert_int_equal(nm, 3);
    assert_true(mv[0].from == 0 && mv[0].to == 1 && mv[0].first == 1 && mv[0].count == 2);
    assert_true(mv[1].from == 0 && mv[1].to == 2 && mv[1].first == 3 && mv[1].count == M - 6);
    assert_true(mv[2].from == 1 && mv[2].to == 2 && mv[2].first == M - 3 && mv[2].count == 1);
    assert_true(dls_move_plan_moved(plan) == M - 3);
    const int64_t *bd = dls_move_plan_boundaries(plan);
    assert_true(bd[0] == (int64_t)(M - 4));
    assert_true(bd[1] == (int64_t)(M - 5));
    const int64_t *ch = dls_move_plan_changes(plan);
    assert_true(ch[0] == -(int64_t)(M - 4) && ch[1] == 1 && ch[2] == (int64_t)(M - 5));
    dls_move_plan_free(plan);
    /* one past the largest total is refused */
    uint64_t big[2] = {M, 1}, big2[2] = {1, M};
    dls_move_plan *keep = (dls_move_plan *)&plan;
    dls_move_plan *out = keep;
    assert_fails(dls_move_plan_create(2, big, big2, &out, &err), DLS_EINVAL, &err,
                 "dls_move_plan_create");
    assert_ptr_equal(out, keep);
}

TEST(test_plan_refused)
{
    uint64_t a[3] = {1, 2, 3}, b[3] = {3, 2, 2};
    dls_error err;
    dls_move_plan *keep = (dls_move_plan *)&err, *out = keep;
    assert_fails(dls_move_plan_create(0, a, a, &out, &err), DLS_EINVAL, &err,
                 "dls_move_plan_create");
    assert_ptr_equal(out, keep);
    assert_fails(dls_move_plan_create(3, NULL, a, &out, &err), DLS_EINVAL, &err, "NULL");
    assert_ptr_equal(out, keep);
    assert_fails(dls_move_plan_create(3, a, NULL, &out, &err), DLS_EINVAL, &err, "NULL");
    assert_ptr_equal(out, keep);
    assert_fails(dls_move_plan_create(3, a, a, NULL, &err), DLS_EINVAL, &err, "NULL");
    /* sums 6 and 7: the message names both */
    assert_fails(dls_move_plan_create(3, a, b, &out, &err), DLS_EINVAL, &err, "6");
    assert_non_null(strstr(err.message, "7"));
    assert_non_null(strstr(err.message, "dls_move_plan_create"));
    assert_ptr_equal(out, keep);
}

TEST_MAIN("balance_plan", test_plan_brute_force, test_plan_random_walk, test_plan_all_move,
          test_plan_single_processor,
          test_plan_empty_middle, test_plan_huge_counts, test_plan_refused)
