/* Tests of locating values in JSON text by their path. */
#include "io/json_locate.h"
#include "testutil.h"

/* One lookup: the path (depth steps of it), whether the key itself is wanted, and the
 * expected answer: found (or the deepest position reached) at line:column. */
typedef struct lookup {
    dls__jstep path[4];
    size_t depth;
    int at_key, found, line, column;
} lookup;

static void expect_all(const char *text, const lookup *cases, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const lookup *c = &cases[k];
        int l = -1, col = -1;
        int r = dls__json_locate(text, strlen(text), c->path, c->depth, c->at_key, &l, &col);
        if (r != (c->found ? 0 : -1) || l != c->line || col != c->column)
            fail_msg("case %zu: locate gave %d at %d:%d, expected %d at %d:%d", k, r, l, col,
                     c->found ? 0 : -1, c->line, c->column);
    }
}

#define EXPECT_ALL(text, cases) expect_all(text, cases, sizeof cases / sizeof cases[0])

TEST(test_simple_paths)
{
    static const lookup cases[] = {
        {{{"a", 0}, {NULL, 1}}, 2, 0, 1, 1, 12},
        {{{"a", 0}, {NULL, 2}, {"b", 0}}, 3, 0, 1, 1, 22},
        {{{"a", 0}, {NULL, 2}, {"b", 0}}, 3, 1, 1, 1, 17}, /* the key itself */
        {{{"c", 0}, {"d", 0}, {NULL, 1}, {NULL, 0}}, 4, 0, 1, 2, 23},
        {{{"c", 0}, {"d", 0}, {NULL, 1}, {NULL, 0}}, 0, 0, 1, 1, 1}, /* the root */
    };
    EXPECT_ALL("{\"a\": [10, 20, {\"b\": \"x\"}],\n \"c\": {\"d\": [[1, 2], [3, 4]]}}", cases);
}

TEST(test_not_found_gives_deepest)
{
    static const lookup cases[] = {
        {{{"a", 0}, {NULL, 5}}, 2, 0, 0, 1, 7},
        {{{"zz", 0}}, 1, 0, 0, 1, 1},
        {{{"a", 0}, {"k", 0}}, 2, 0, 0, 1, 7}, /* a member of an array */
    };
    EXPECT_ALL("{\"a\": [10, 20]}", cases);
}

TEST(test_escapes_and_unicode)
{
    /* keys with escapes must match their decoded form; columns count characters */
    static const lookup cases[] = {
        {{{"\xc3\xa9t\xc3\xa9", 0}}, 1, 0, 1, 1, 19},
        {{{"q\"k", 0}, {NULL, 1}}, 2, 0, 1, 1, 43},
        {{{"\xf0\x9f\x98\x80", 0}}, 1, 0, 1, 1, 52},
    };
    EXPECT_ALL("{\"\\u00e9t\\u00e9\": 1, \"q\\\"k\": [\"\\u00e9\xc3\xa9]\", 7], "
               "\"\xf0\x9f\x98\x80\": 3}",
               cases);
    static const lookup surrogates[] = {{{{"\xf0\x9f\x98\x80", 0}}, 1, 0, 1, 1, 18}};
    EXPECT_ALL("{\"\\ud83d\\ude00\": 5}", surrogates);
}

TEST(test_whitespace_and_lines)
{
    static const lookup cases[] = {
        {{{"k", 0}, {NULL, 1}}, 2, 0, 1, 7, 2},
        {{{"k", 0}}, 1, 1, 1, 4, 2},
    };
    EXPECT_ALL("\n\n  {\r\n\t\"k\"  :\n\n      [ 1 ,\n 2 ] }", cases);
}

TEST_MAIN("json_locate", test_simple_paths, test_not_found_gives_deepest,
          test_escapes_and_unicode, test_whitespace_and_lines)
