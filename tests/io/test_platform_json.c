/* Tests of platform files: reading the contract, located errors, and exact round trips. */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static dls_platform *parse(const char *text, dls_error *err)
{
    dls_platform *p = NULL;
    assert_ok(dls_platform_read_string(text, strlen(text), "t.json", &p, err), err);
    return p;
}

static void roundtrip(const dls_platform *p)
{
    dls_error err;
    char *text;
    assert_ok(dls_platform_to_string(p, &text, &err), &err);
    dls_platform *q = NULL;
    dls_status st = dls_platform_read_string(text, strlen(text), "roundtrip", &q, &err);
    if (st != DLS_OK)
        fail_msg("written platform does not read back: %s\n%s", err.message, text);
    if (!dls_platform_equal(p, q))
        fail_msg("written platform reads back different:\n%s", text);
    dls_platform_free(q);
    dls_free(text);
}

static void test_read_contract_example(void **state)
{
    (void)state;
    dls_error err;
    dls_platform *p;
    assert_ok(dls_platform_read_file(TOP_SRCDIR "/examples/cluster.json", &p, &err), &err);
    assert_int_equal(dls_platform_count(p), 4);
    assert_string_equal(dls_platform_name(p, 0), "cpu0");
    assert_rel(dls_model_constant_speed(dls_platform_model(p, 0)), 2.5e9, 0);
    const dls_model *node7 = dls_platform_model(p, 1);
    assert_int_equal(dls_model_get_kind(node7), DLS_MODEL_POINTS);
    assert_rel(dls_model_speed(node7, 4e7), 2e8, 0);
    assert_rel(dls_platform_limit(p, 1), 5e7, 0);
    const dls_model *w1 = dls_platform_model(p, 2);
    assert_rel(dls_model_time(w1, 2), 11, 0);
    double s, c;
    assert_ok(dls_platform_link(p, 2, &s, &c), &err);
    assert_rel(s, 1, 0);
    assert_rel(c, 1, 0);
    const dls_model *gpu = dls_platform_model(p, 3);
    assert_rel(dls_model_speed2d(gpu, 8192, 64), 5e9, 0);
    roundtrip(p);
    dls_platform_free(p);
}

static void test_read_every_example(void **state)
{
    (void)state;
    DIR *d = opendir(TOP_SRCDIR "/examples");
    assert_non_null(d);
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/examples/%s", TOP_SRCDIR, e->d_name);
        dls_error err;
        dls_platform *p;
        assert_ok(dls_platform_read_file(path, &p, &err), &err);
        roundtrip(p);
        dls_platform_free(p);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 3);
}

static void test_random_roundtrips(void **state)
{
    (void)state;
    test_rng r;
    test_rng_init(&r, 20);
    dls_error err;
    static const char *const odd[] = {"a\"quote", "back\\slash", "tab\there", "\xc3\xa9t\xc3\xa9",
                                      "new\nline", "slash/", "\xf0\x9f\x98\x80"};
    for (int trial = 0; trial < 300; trial++) {
        dls_platform *p = dls_platform_create();
        size_t np = 1 + test_below(&r, 6);
        for (size_t i = 0; i < np; i++) {
            char name[64];
            snprintf(name, sizeof name, "%s%zu", odd[test_below(&r, 7)], i);
            dls_model *m = gen_awkward_model(&r);
            assert_ok(dls_platform_add(p, name, m, NULL, &err), &err);
            dls_model_free(m);
            if (test_below(&r, 2))
                assert_ok(dls_platform_set_limit(p, i, gen_awkward(&r, 1e-3, 1e15), &err), &err);
            if (test_below(&r, 2))
                assert_ok(dls_platform_set_link(p, i, test_below(&r, 3) ? gen_awkward(&r, 0, 10) : 0,
                                                gen_awkward(&r, 0, 1e-3), &err),
                          &err);
        }
        roundtrip(p);
        dls_platform_free(p);
    }
}

static void test_write_file(void **state)
{
    (void)state;
    dls_error err;
    char dir[] = "/tmp/dls_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.json", dir);
    dls_platform *p = parse("{\"processors\": [{\"name\": \"a\", \"speed\": 0.1}]}", &err);
    assert_ok(dls_platform_write_file(p, path, &err), &err);
    char *text = read_text(path);
    assert_non_null(strstr(text, "\"speed\": 0.1"));
    free(text);
    /* overwrite with another platform */
    dls_platform *q = parse("{\"processors\": [{\"name\": \"b\", \"time\": [[0, 1e-3]]}]}", &err);
    assert_ok(dls_platform_write_file(q, path, &err), &err);
    dls_platform *back;
    assert_ok(dls_platform_read_file(path, &back, &err), &err);
    assert_true(dls_platform_equal(q, back));
    dls_platform_free(back);
    /* nothing but the file is left behind */
    DIR *d = opendir(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            files++;
    closedir(d);
    assert_int_equal(files, 1);
    /* a directory that does not exist */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/missing/out.json", dir);
    assert_fails(dls_platform_write_file(p, bad, &err), DLS_EIO, &err, "missing/out.json");
    assert_fails(dls_platform_write_file(p, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_platform *empty = dls_platform_create();
    assert_fails(dls_platform_write_file(empty, path, &err), DLS_EINVAL, &err, "no processor");
    /* the failed writes left the file as it was */
    assert_ok(dls_platform_read_file(path, &back, &err), &err);
    assert_true(dls_platform_equal(q, back));
    dls_platform_free(back);
    dls_platform_free(empty);
    dls_platform_free(p);
    dls_platform_free(q);
    unlink(path);
    rmdir(dir);
}

static void test_located_errors(void **state)
{
    (void)state;
    dls_error err;
    dls_platform *p = NULL;
    const char *text = "{\n"
                       "  \"processors\": [\n"
                       "    {\"name\": \"cpu0\", \"speed\": 2.5e9},\n"
                       "    {\"name\": \"gpu0\",\n"
                       "     \"speed\": {\"points\": [[1, 2], [2, 3], [3, -4]]}}\n"
                       "  ]\n"
                       "}\n";
    assert_fails(dls_platform_read_string(text, strlen(text), "platform.json", &p, &err),
                 DLS_EDATA, &err,
                 "platform.json:5:47: processor \"gpu0\": speed point 3 has a negative speed");
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 47);
    assert_int_equal(err.processor, 1);
    assert_null(p);

    const char *typo = "{\"processors\": [{\"name\": \"n\", \"speed\": 1, \"limt\": 5}]}";
    assert_fails(dls_platform_read_string(typo, strlen(typo), NULL, &p, &err), DLS_EDATA, &err,
                 "<string>:1:43: processor \"n\": unknown key \"limt\"");
    assert_non_null(strstr(err.message, "did you mean \"limit\""));

    const char *syntax = "{\"processors\": [\n  {\"name\": \"n\" \"speed\": 1}]}";
    assert_fails(dls_platform_read_string(syntax, strlen(syntax), "s.json", &p, &err), DLS_ESYNTAX,
                 &err, "s.json:2:");
    assert_int_equal(err.line, 2);

    const char *unnamed = "{\"processors\": [{\"speed\": 1}]}";
    assert_fails(dls_platform_read_string(unnamed, strlen(unnamed), "u.json", &p, &err), DLS_EDATA,
                 &err, "u.json:1:17: processor #1: has no \"name\"");

    const char *dup = "{\"processors\": [{\"name\": \"a\", \"speed\": 1}, {\"name\": \"a\", \"speed\": 2}]}";
    assert_fails(dls_platform_read_string(dup, strlen(dup), "d.json", &p, &err), DLS_EDATA, &err,
                 "processor #1 is also called \"a\"");

    assert_fails(dls_platform_read_file("/nonexistent/dir/p.json", &p, &err), DLS_EIO, &err,
                 "/nonexistent/dir/p.json: cannot open");
    assert_fails(dls_platform_read_file(NULL, &p, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_platform_read_string(NULL, 0, NULL, &p, &err), DLS_EINVAL, &err, "NULL");
    assert_null(p);
}

/* Every malformed file of the command-line suite is rejected by the API too, with a
 * position. */
static void test_bad_corpus(void **state)
{
    (void)state;
    DIR *d = opendir(TOP_SRCDIR "/tests/data/bad");
    assert_non_null(d);
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/data/bad/%s", TOP_SRCDIR, e->d_name);
        dls_error err;
        dls_error_clear(&err);
        dls_platform *p = NULL;
        dls_status st = dls_platform_read_file(path, &p, &err);
        if (st != DLS_EDATA && st != DLS_ESYNTAX)
            fail_msg("%s: status %s (%s)", e->d_name, dls_status_name(st), err.message);
        assert_null(p);
        assert_true(err.line >= 1);
        assert_true(err.column >= 1);
        assert_true(strncmp(err.message, path, strlen(path)) == 0);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 30);
}

static void test_output_shape(void **state)
{
    (void)state;
    dls_error err;
    dls_platform *p = parse("{\"processors\": [{\"name\": \"a\", \"speed\": 2.5e9, \"limit\": 3,"
                            " \"link\": {\"startup\": 0, \"rate\": 1e-6}}]}",
                            &err);
    char *text;
    assert_ok(dls_platform_to_string(p, &text, &err), &err);
    /* one processor per line, shortest exact numbers, keys in contract order */
    assert_non_null(strstr(text, "{\"name\": \"a\", \"speed\": 2.5e9, \"limit\": 3.0, \"link\": "
                                 "{\"startup\": 0.0, \"rate\": 1e-6}}"));
    dls_free(text);
    assert_fails(dls_platform_to_string(NULL, &text, &err), DLS_EINVAL, &err, "NULL");
    dls_platform_free(p);
}

int main(int argc, char **argv)
{
    test_init_seed(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_contract_example),
        cmocka_unit_test(test_read_every_example),
        cmocka_unit_test(test_random_roundtrips),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_located_errors),
        cmocka_unit_test(test_bad_corpus),
        cmocka_unit_test(test_output_shape),
    };
    return cmocka_run_group_tests_name("platform_json", tests, NULL, NULL);
}
