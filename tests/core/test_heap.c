/* Tests of the internal binary heap (src/core/heap.h) that the partitioners and the
 * envelope share. */
#include "testutil.h"

#include "core/heap.h"

TEST(test_min_heap_pops_by_key_then_index)
{
    const double key[6] = {3, 1, 2, 1, 0.5, 3};
    size_t item[6];
    dls__heap h;
    dls__heap_init(&h, item, 6, key, sizeof *key, DLS__HEAP_MIN);
    for (size_t i = 0; i < 6; i++)
        dls__heap_push(&h, i);
    const size_t want[6] = {4, 1, 3, 2, 0, 5}; /* equal keys: the smaller index first */
    for (size_t k = 0; k < 6; k++)
        assert_int_equal(dls__heap_pop(&h), want[k]);
    assert_int_equal(h.size, 0);
}

TEST(test_max_heap_built_in_bulk)
{
    const double key[5] = {2, 7, 7, 1, 9};
    size_t item[5];
    dls__heap h;
    dls__heap_init(&h, item, 5, key, sizeof *key, DLS__HEAP_MAX);
    for (size_t i = 5; i-- > 0;)
        dls__heap_append(&h, i);
    dls__heap_build(&h);
    assert_int_equal(dls__heap_top(&h), 4);
    const size_t want[5] = {4, 1, 2, 0, 3};
    for (size_t k = 0; k < 5; k++)
        assert_int_equal(dls__heap_pop(&h), want[k]);
    dls__heap_push(&h, 3);
    dls__heap_clear(&h);
    assert_int_equal(h.size, 0);
}

/* Keys in a field of records, as the envelope keeps them; equal keys in any order. */
TEST(test_keys_in_records)
{
    struct rec {
        int other;
        double err;
    } r[4] = {{0, 0.25}, {0, 0.75}, {0, 0.5}, {0, 0.75}};
    size_t item[4];
    dls__heap h;
    dls__heap_init(&h, item, 4, &r[0].err, sizeof *r, DLS__HEAP_MAX | DLS__HEAP_TIES_FREE);
    for (size_t i = 0; i < 4; i++)
        dls__heap_push(&h, i);
    size_t a = dls__heap_pop(&h), b = dls__heap_pop(&h);
    assert_true((a == 1 && b == 3) || (a == 3 && b == 1));
    assert_int_equal(dls__heap_pop(&h), 2);
    assert_int_equal(dls__heap_pop(&h), 0);
}

TEST_MAIN("heap", test_min_heap_pops_by_key_then_index, test_max_heap_built_in_bulk,
          test_keys_in_records)
