/* Tests of locating values in JSON text by their path. */
#include "io/json_locate.h"
#include "testutil.h"

static void expect(const char *text, const dls__jstep *path, size_t depth, int at_key, int found,
                   int line, int column)
{
    int l = -1, c = -1;
    int r = dls__json_locate(text, strlen(text), path, depth, at_key, &l, &c);
    if (r != (found ? 0 : -1) || l != line || c != column)
        fail_msg("locate gave %d at %d:%d, expected %d at %d:%d", r, l, c, found ? 0 : -1, line,
                 column);
}

TEST(test_simple_paths)
{
    const char *t = "{\"a\": [10, 20, {\"b\": \"x\"}],\n \"c\": {\"d\": [[1, 2], [3, 4]]}}";
    dls__jstep p1[] = {{"a", 0}, {NULL, 1}};
    expect(t, p1, 2, 0, 1, 1, 12);
    dls__jstep p2[] = {{"a", 0}, {NULL, 2}, {"b", 0}};
    expect(t, p2, 3, 0, 1, 1, 22);
    expect(t, p2, 3, 1, 1, 1, 17); /* the key itself */
    dls__jstep p3[] = {{"c", 0}, {"d", 0}, {NULL, 1}, {NULL, 0}};
    expect(t, p3, 4, 0, 1, 2, 23);
    expect(t, p3, 0, 0, 1, 1, 1); /* the root */
}

TEST(test_not_found_gives_deepest)
{
    const char *t = "{\"a\": [10, 20]}";
    dls__jstep p1[] = {{"a", 0}, {NULL, 5}};
    expect(t, p1, 2, 0, 0, 1, 7);
    dls__jstep p2[] = {{"zz", 0}};
    expect(t, p2, 1, 0, 0, 1, 1);
    dls__jstep p3[] = {{"a", 0}, {"k", 0}}; /* a member of an array */
    expect(t, p3, 2, 0, 0, 1, 7);
}

TEST(test_escapes_and_unicode)
{
    /* keys with escapes must match their decoded form; columns count characters */
    const char *t = "{\"\\u00e9t\\u00e9\": 1, \"q\\\"k\": [\"\\u00e9\xc3\xa9]\", 7], \"\xf0\x9f\x98\x80\": 3}";
    dls__jstep p1[] = {{"\xc3\xa9t\xc3\xa9", 0}};
    expect(t, p1, 1, 0, 1, 1, 19);
    dls__jstep p2[] = {{"q\"k", 0}, {NULL, 1}};
    expect(t, p2, 2, 0, 1, 1, 43);
    dls__jstep p3[] = {{"\xf0\x9f\x98\x80", 0}};
    expect(t, p3, 1, 0, 1, 1, 52);
    dls__jstep p4[] = {{"\xf0\x9f\x98\x80", 0}};
    const char *surrogates = "{\"\\ud83d\\ude00\": 5}";
    expect(surrogates, p4, 1, 0, 1, 1, 18);
}

TEST(test_whitespace_and_lines)
{
    const char *t = "\n\n  {\r\n\t\"k\"  :\n\n      [ 1 ,\n 2 ] }";
    dls__jstep p[] = {{"k", 0}, {NULL, 1}};
    expect(t, p, 2, 0, 1, 7, 2);
    dls__jstep pk[] = {{"k", 0}};
    expect(t, pk, 1, 1, 1, 4, 2);
}

TEST_MAIN("json_locate", test_simple_paths, test_not_found_gives_deepest,
          test_escapes_and_unicode, test_whitespace_and_lines)
