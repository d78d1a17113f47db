/* Tests of platform files: reading the contract, located errors, and exact round trips. */
#include <locale.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"
#include "core/buf.h"
#include "io/platform_json.h"

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

/* A FIFO dir/fifo (its path in fifo) and a child process that writes `times` copies of the
 * n bytes of text into it and exits; returns the child (for waitpid). */
static pid_t fifo_writer(const char *dir, char *fifo, size_t size, const char *text, size_t n,
                         int times)
{
    snprintf(fifo, size, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        FILE *w = fopen(fifo, "wb");
        if (w) {
            for (int k = 0; k < times; k++)
                fwrite(text, 1, n, w);
            fclose(w);
        }
        _exit(0);
    }
    return child;
}

TEST(test_read_contract_example)
{
    dls_error err;
    dls_platform *p = test_example("cluster.json");
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

static void read_and_roundtrip(const char *path, void *data)
{
    (void)data;
    dls_error err;
    dls_platform *p;
    assert_ok(dls_platform_read_file(path, &p, &err), &err);
    roundtrip(p);
    dls_platform_free(p);
}

TEST(test_read_every_example)
{
    assert_true(test_each_json("examples", read_and_roundtrip, NULL) >= 3);
}

/* The rule for names: free text, but valid UTF-8 without control characters, at most
 * DLS_PLATFORM_NAME_MAX bytes; refused with its place in files, and by dls_platform_add
 * with the platform unchanged. */
TEST(test_name_rule)
{
    static const struct {
        const char *json, *where;
    } bad[] = {
        {"{\"processors\": [{\"name\": \"a b: c\\nd\", \"speed\": 1}]}", "U+000A"},
        {"{\"processors\": [{\"name\": \"tab\\there\", \"speed\": 1}]}", "U+0009"},
        {"{\"processors\": [{\"name\": \"del\\u007f\", \"speed\": 1}]}", "U+007F"},
        {"{\"processors\": [{\"name\": \"c1\\u0085\", \"speed\": 1}]}", "U+0085"},
    };
    dls_error err;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dls_platform *p = NULL;
        dls_error_clear(&err);
        assert_int_equal(dls_platform_read_string(bad[k].json, strlen(bad[k].json), "t.json", &p,
                                                  &err), DLS_EDATA);
        assert_null(p);
        assert_non_null(strstr(err.message, "t.json:1:"));
        assert_non_null(strstr(err.message, bad[k].where));
        assert_non_null(strstr(err.message, "control character"));
    }
    /* the API: same rule, the platform unchanged */
    dls_platform *p = test_platform_new();
    dls_model *m;
    assert_ok(dls_model_create_constant(1, &m, &err), &err);
    assert_ok(dls_platform_add(p, "ok", m, NULL, &err), &err);
    const char *refused[] = {"new\nline", "bad\xff", "\xc0\xaf", "\xed\xa0\x80", ""};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        assert_int_equal(dls_platform_add(p, refused[k], m, NULL, &err), DLS_EINVAL);
        assert_int_equal(dls_platform_count(p), 1);
    }
    char *longest = malloc(DLS_PLATFORM_NAME_MAX + 2);
    assert_non_null(longest);
    memset(longest, 'x', DLS_PLATFORM_NAME_MAX + 1);
    longest[DLS_PLATFORM_NAME_MAX + 1] = '\0';
    assert_int_equal(dls_platform_add(p, longest, m, NULL, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "bytes long"));
    longest[DLS_PLATFORM_NAME_MAX] = '\0'; /* exactly the longest allowed */
    assert_ok(dls_platform_add(p, longest, m, NULL, &err), &err);
    /* and every accepted name survives a write and a read */
    assert_ok(dls_platform_add(p, "a'b\"c\\d <&> ;: \xe2\x82\xac \xf0\x9f\x98\x80", m, NULL, &err), &err);
    char *text;
    assert_ok(dls_platform_to_string(p, &text, &err), &err);
    dls_platform *back = NULL;
    assert_ok(dls_platform_read_string(text, strlen(text), "back", &back, &err), &err);
    assert_true(dls_platform_equal(p, back));
    dls_free(text);
    dls_platform_free(back);
    free(longest);
    dls_model_free(m);
    dls_platform_free(p);
}

RANDOM_TEST(test_random_roundtrips, 20, 300)
{
    static const char *const odd[] = {"a\"quote", "back\\slash", "sp ace", "\xc3\xa9t\xc3\xa9",
                                      "<&>;:'", "slash/", "\xf0\x9f\x98\x80"};
    dls_platform *p = test_platform_new();
    size_t np = 1 + test_below(r, 6);
    for (size_t i = 0; i < np; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%zu", odd[test_below(r, 7)], i);
        test_add(p, name, gen_awkward_model(r));
        if (test_below(r, 2))
            gen_limit(p, i, gen_awkward(r, 1e-3, 1e15));
        if (test_below(r, 2))
            gen_link(p, i, test_below(r, 3) ? gen_awkward(r, 0, 10) : 0,
                     gen_awkward(r, 0, 1e-3));
    }
    roundtrip(p);
    dls_platform_free(p);
}

TEST(test_write_file)
{
    dls_error err;
    char dir[] = "/tmp/dls_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.json", dir);
    dls_platform *p = test_platform_json(
        "{\"processors\": [{\"name\": \"a\", \"speed\": 0.1}]}");
    assert_ok(dls_platform_write_file(p, path, &err), &err);
    char *text = test_read_text(path);
    assert_non_null(strstr(text, "\"speed\": 0.1"));
    free(text);
    /* overwrite with another platform */
    dls_platform *q =
        test_platform_json("{\"processors\": [{\"name\": \"b\", \"time\": [[0, 1e-3]]}]}");
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
    dls_platform *empty = test_platform_new();
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

TEST(test_located_errors)
{
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
static void rejected_with_position(const char *path, void *data)
{
    (void)data;
    dls_error err;
    dls_error_clear(&err);
    dls_platform *p = NULL;
    dls_status st = dls_platform_read_file(path, &p, &err);
    if (st != DLS_EDATA && st != DLS_ESYNTAX)
        fail_msg("%s: status %s (%s)", path, dls_status_name(st), err.message);
    assert_null(p);
    assert_true(err.line >= 1);
    assert_true(err.column >= 1);
    assert_true(strncmp(err.message, path, strlen(path)) == 0);
}

TEST(test_bad_corpus)
{
    assert_true(test_each_json("tests/data/bad", rejected_with_position, NULL) >= 30);
}

/* What the writer gives for the platform read from json (both in the current locale). */
static char *written(const char *json)
{
    dls_platform *p = test_platform_json(json);
    char *text;
    dls_error err;
    assert_ok(dls_platform_to_string(p, &text, &err), &err);
    dls_platform_free(p);
    return text;
}

TEST(test_output_shape)
{
    char *text = written("{\"processors\": [{\"name\": \"a\", \"speed\": 2.5e9, \"limit\": 3, "
                         "\"link\": {\"startup\": 0, \"rate\": 1e-6}}]}");
    /* one processor per line, shortest exact numbers (whole ones as a person writes
     * them), keys in contract order */
    assert_non_null(strstr(text, "{\"name\": \"a\", \"speed\": 2.5e9, \"limit\": 3, \"link\": "
                                 "{\"startup\": 0, \"rate\": 1e-6}}"));
    dls_free(text);
    /* each number in its own shortest form, beside one that needs 17 digits */
    text = written("{\"processors\": [{\"name\": \"b\", \"time\": [[60, 0.001]], "
                   "\"link\": {\"startup\": 5e-5, \"rate\": 0.30000000000000004}}]}");
    assert_non_null(strstr(text, "\"time\": [[60, 0.001]], \"link\": {\"startup\": 5e-5, "
                                 "\"rate\": 0.30000000000000004}}"));
    dls_free(text);
    dls_error err;
    assert_fails(dls_platform_to_string(NULL, &text, &err), DLS_EINVAL, &err, "NULL");
}

/* The format's version (issue 34): a file without "version" is of version 1 and is
 * written back without one; version 2 is kept; a platform built through the API or copied
 * from one is of the current version. A version-1 processor named as the older `dlsched
 * bench` named its kernels' measurements, with measured points, is named unusual (its
 * speeds counted operations); the same in version 2 is not. */
TEST(test_format_version)
{
    dls_error err;
    const char *body = "\"processors\": [{\"name\": \"host-gemm-rows\", \"speed\": "
                       "{\"points\": [[8, 1.6e10], [1000, 4.6e10]]}}]}";
    char text[256], *out;
    for (int version = 1; version <= 2; version++) {
        snprintf(text, sizeof text, version == 1 ? "{%s" : "{\"version\": 2, %s", body);
        dls_platform *p = test_platform_json(text);
        assert_int_equal(dls_platform_format(p), version);
        assert_ok(dls_platform_to_string(p, &out, &err), &err);
        assert_int_equal(strstr(out, "\"version\": 2") != NULL, version == 2);
        dls_free(out);
        char why[512];
        size_t n = dls_platform_unusual(p, 0, why, sizeof why);
        assert_int_equal(n, version == 1);
        if (version == 1)
            assert_non_null(strstr(why, "measured by an older `dlsched bench`"));
        dls_platform *c;
        assert_ok(dls_platform_copy(p, &c, &err), &err);
        assert_int_equal(dls_platform_format(c), version);
        dls_platform_free(c);
        dls_platform_free(p);
    }
    dls_platform *p;
    assert_ok(dls_platform_create(&p, &err), &err);
    assert_int_equal(dls_platform_format(p), DLS_PLATFORM_FORMAT);
    assert_int_equal(dls_platform_format(NULL), 0);
    dls_platform_free(p);
}

/* The limits of the readers (dlsched/platform.h). Each error is reached with small limits
 * passed to the readers' internal form, and the file size also with the real limit on a
 * sparse file (no disk blocks, no memory): inputs of gigabytes are never built. */
static dls__limits small_limits(void)
{
    dls__limits lim = dls__platform_limits;
    lim.processors = 3;
    lim.points = 4;
    lim.lines = 2;
    lim.grid_cells = 6;
    lim.file_bytes = 600;
    return lim;
}

/* text fails under lim with DLS_ELIMIT at line:column, its message containing part. */
static void over_limit(const char *text, const dls__limits *lim, int line, int column,
                       const char *part)
{
    dls_error err;
    dls_platform *pl = NULL;
    assert_fails(dls__platform_read_string_within(text, strlen(text), "lim.json", lim, &pl,
                                                  &err),
                 DLS_ELIMIT, &err, part);
    assert_null(pl);
    if (line > 0) {
        if (err.line != line || err.column != column)
            fail_msg("%s: at %d:%d, expected %d:%d", err.message, err.line, err.column, line,
                     column);
        char where[32];
        snprintf(where, sizeof where, "lim.json:%d:%d: ", line, column);
        assert_non_null(strstr(err.message, where));
    }
}

TEST(test_reader_limits)
{
    dls__limits lim = small_limits();
    dls_error err;
    dls_platform *pl;
    /* at the limits: read */
    const char *ok = "{\"processors\": [\n"
                     "  {\"name\": \"a\", \"speed\": {\"points\": [[1, 2], [2, 3], [3, 4], [4, 5]]}},\n"
                     "  {\"name\": \"b\", \"time\": [[0, 1], [-1, 2]]},\n"
                     "  {\"name\": \"c\", \"speed2d\": {\"x\": [1, 2], \"y\": [1, 2, 3], "
                     "\"values\": [[1, 1, 1], [1, 1, 1]]}}]}";
    assert_ok(dls__platform_read_string_within(ok, strlen(ok), "lim.json", &lim, &pl, &err),
              &err);
    assert_int_equal(dls_platform_count(pl), 3);
    dls_platform_free(pl);
    /* one more of each */
    over_limit("{\"processors\": [\n  {\"name\": \"a\", \"speed\": 1}, {\"name\": \"b\", "
               "\"speed\": 1},\n  {\"name\": \"c\", \"speed\": 1}, {\"name\": \"d\", \"speed\": 1}]}",
               &lim, 1, 16, "\"processors\" has 4 processors, more than the 3 dlsched reads");
    over_limit("{\"processors\": [\n  {\"name\": \"a\", \"speed\": {\"points\":\n"
               "    [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6]]}}]}",
               &lim, 3, 5, "processor \"a\": \"points\" has 5 points, more than the 4");
    over_limit("{\"processors\": [{\"name\": \"b\", \"time\": [[0, 1], [-1, 2], [-3, 3]]}]}", &lim,
               1, 39, "processor \"b\": \"time\" has 3 lines, more than the 2");
    over_limit("{\"processors\": [{\"name\": \"c\", \"speed2d\": {\"x\": [1, 2, 3], \"y\": [1, 2, 3],"
               " \"values\": [[1, 1, 1], [1, 1, 1], [1, 1, 1]]}}]}",
               &lim, 1, 42, "\"speed2d\" has 3 x 3 values, more than the 6 of a 2-D grid");
    /* the text's size: one byte over */
    char big[602];
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big, ok, strlen(ok));
    assert_ok(dls__platform_read_string_within(big, 600, "lim.json", &lim, &pl, &err), &err);
    dls_platform_free(pl);
    over_limit(big, &lim, 0, 0, "lim.json: the platform is 601 bytes (601 bytes), more than "
               "the 600 (600 bytes) dlsched reads");

    /* files: a regular file one byte over, a stream over, and at the limit */
    char dir[] = "/tmp/dls_limits_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/p.json", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(big, 1, 601, f);
    fclose(f);
    assert_fails(dls__platform_read_file_within(path, &lim, &pl, &err), DLS_ELIMIT, &err,
                 "the file is 601 bytes");
    assert_int_equal(truncate(path, 600), 0);
    assert_ok(dls__platform_read_file_within(path, &lim, &pl, &err), &err);
    dls_platform_free(pl);
    char fifo[128];
    pid_t child = fifo_writer(dir, fifo, sizeof fifo, big, 601, 4);
    assert_fails(dls__platform_read_file_within(fifo, &lim, &pl, &err), DLS_ELIMIT, &err,
                 "the stream holds at least 601 bytes");
    int status;
    waitpid(child, &status, 0);
    unlink(fifo);

    /* the real limit, on a sparse file of 1 GiB and one byte: no block is written */
    assert_int_equal(truncate(path, (off_t)DLS_PLATFORM_FILE_MAX + 1), 0);
    assert_fails(dls_platform_read_file(path, &pl, &err), DLS_ELIMIT, &err,
                 "the file is 1073741825 bytes (1 GiB), more than the 1073741824 (1 GiB) "
                 "dlsched reads");
    assert_int_equal(truncate(path, (off_t)3435973837), 0);
    assert_fails(dls_platform_read_file(path, &pl, &err), DLS_ELIMIT, &err,
                 "the file is 3435973837 bytes (3.2 GiB)");
    unlink(path);
    rmdir(dir);
    /* the documented values */
    assert_int_equal(DLS_PLATFORM_FILE_MAX, 1073741824u);
    assert_int_equal(DLS_PLATFORM_MAX_PROCESSORS, 10000000u);
    assert_int_equal(dls__platform_limits.processors, DLS_PLATFORM_MAX_PROCESSORS);
    assert_int_equal(dls__platform_limits.points, DLS_PLATFORM_MAX_POINTS);
    assert_int_equal(dls__platform_limits.lines, DLS_PLATFORM_MAX_LINES);
    assert_int_equal(dls__platform_limits.grid_cells, DLS_PLATFORM_MAX_GRID_CELLS);
}

/* A text the reader refuses with status want at line:column, the message holding part. */
static void refused_at(const char *text, size_t len, dls_status want, int line, int column,
                       const char *part)
{
    dls_error err;
    dls_platform *p = NULL;
    assert_fails(dls_platform_read_string(text, len, "h.json", &p, &err), want, &err, part);
    assert_null(p);
    char head[64];
    snprintf(head, sizeof head, "h.json:%d:%d: ", line, column);
    if (strncmp(err.message, head, strlen(head)) != 0)
        fail_msg("expected \"%s...\", got \"%s\"", head, err.message);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, column);
}

/* "{"processors": [{"name": "a", "speed": " + depth '[' + depth ']' + "}]}" */
static char *nested(size_t depth)
{
    const char *head = "{\"processors\": [{\"name\": \"a\", \"speed\": ", *tail = "}]}";
    size_t h = strlen(head), t = strlen(tail);
    char *text = malloc(h + 2 * depth + t + 1);
    assert_non_null(text);
    memcpy(text, head, h);
    memset(text + h, '[', depth);
    memset(text + h + depth, ']', depth);
    memcpy(text + h + 2 * depth, tail, t + 1);
    return text;
}

/* Hostile texts and files: each refused with a status and, for a text, its position. */
TEST(test_hostile_inputs)
{
    /* truncated: in a number, in a string, after a value */
    const char *whole = "{\"processors\": [{\"name\": \"cpu0\", \"speed\": 2.5e9}]}";
    refused_at(whole, 44, DLS_ESYNTAX, 1, 44, "malformed JSON: invalid token near '2.'");
    refused_at(whole, 30, DLS_ESYNTAX, 1, 30, "malformed JSON: premature end of input");
    refused_at(whole, strlen(whole) - 1, DLS_ESYNTAX, 1, 49, "'}' expected near end of file");
    refused_at(whole, 0, DLS_ESYNTAX, 1, 1, "'[' or '{' expected near end of file");
    /* invalid UTF-8: in a name, in a value the reader would skip, an overlong form */
    const char *bad_name = "{\"processors\": [{\"name\": \"a\xff\", \"speed\": 1}]}";
    refused_at(bad_name, strlen(bad_name), DLS_ESYNTAX, 1, 27, "unable to decode byte 0xff");
    const char *bad_skipped = "{\"processors\": [{\"name\": \"a\", \"speed\": 1, "
                              "\"x\": \"\xc3\x28\"}]}";
    refused_at(bad_skipped, strlen(bad_skipped), DLS_ESYNTAX, 1, 48, "unable to decode");
    const char *overlong = "{\"processors\": [{\"name\": \"\xc0\xaf\", \"speed\": 1}]}";
    refused_at(overlong, strlen(overlong), DLS_ESYNTAX, 1, 26, "unable to decode");
    /* deep nesting: past jansson's 2048 levels, and far past simdjson's */
    for (size_t depth = 3000; depth <= 300000; depth *= 100) {
        char *text = nested(depth);
        refused_at(text, strlen(text), DLS_ESYNTAX, 1, 2085, "maximum parsing depth");
        free(text);
    }
    /* huge numbers: past the doubles (refused), below them (zero: not a speed), a long
     * integer (a double) */
    const char *over = "{\"processors\": [{\"name\": \"a\", \"speed\": -1e400}]}";
    refused_at(over, strlen(over), DLS_ESYNTAX, 1, 45, "real number overflow");
    const char *under = "{\"processors\": [{\"name\": \"a\", \"speed\": 1e-400}]}";
    refused_at(under, strlen(under), DLS_EDATA, 1, 40, "processor \"a\": speed must be > 0");
    const char *big = "{\"processors\": [{\"name\": \"a\", \"speed\": 123456789012345678901234567890}]}";
    dls_error err;
    dls_platform *p = NULL;
    assert_ok(dls_platform_read_string(big, strlen(big), "h.json", &p, &err), &err);
    assert_rel(dls_model_constant_speed(dls_platform_model(p, 0)), 1.2345678901234568e29, 1e-15);
    dls_platform_free(p);

    /* a duplicate name among many processors (the name index rebuilt on the way) */
    const size_t n = 5000, dup = 1234;
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "{\"processors\": [\n");
    for (size_t i = 0; i < n; i++)
        dls__buf_put(&b, "  {\"name\": \"node%05zu\", \"speed\": %zu},\n", i, i + 1);
    dls__buf_put(&b, "  {\"name\": \"node%05zu\", \"speed\": 1}]}\n", dup);
    assert_false(b.failed);
    char want[96];
    snprintf(want, sizeof want, "processor \"node%05zu\": duplicate name: processor #%zu is "
             "also called \"node%05zu\"", dup, dup + 1, dup);
    refused_at(b.s, b.len, DLS_EDATA, (int)n + 2, 12, want);
    assert_fails(dls_platform_read_string(b.s, b.len, "h.json", &p, &err), DLS_EDATA, &err,
                 want);
    assert_int_equal(err.processor, (long)n);
    dls__buf_free(&b);

    /* a directory, and a FIFO whose writer sends a truncated text */
    char dir[] = "/tmp/dls_hostile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    p = NULL;
    assert_fails(dls_platform_read_file(dir, &p, &err), DLS_EIO, &err, dir);
    assert_non_null(strstr(err.message, "Is a directory"));
    assert_null(p);
    char fifo[128];
    pid_t child = fifo_writer(dir, fifo, sizeof fifo, whole, 44, 1);
    assert_fails(dls_platform_read_file(fifo, &p, &err), DLS_ESYNTAX, &err, "malformed JSON");
    assert_int_equal(strncmp(err.message, fifo, strlen(fifo)), 0);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 44);
    int status;
    waitpid(child, &status, 0);
    unlink(fifo);
    rmdir(dir);
}

/* A platform read from a file keeps its names and models in its own store: editing it
 * (another model, a removal, an addition) frees nothing twice and loses no name. */
TEST(test_edit_read_platform)
{
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "{\"processors\": [\n");
    for (int i = 0; i < 300; i++)
        dls__buf_put(&b, "  {\"name\": \"p%d\", \"time\": [[0, %d], [-%d, %d]]}%s\n", i, i + 1,
                     i + 1, 2 * (i + 1), i < 299 ? "," : "");
    dls__buf_put(&b, "]}\n");
    assert_false(b.failed);
    dls_error err;
    dls_platform *p;
    assert_ok(dls_platform_read_string(b.s, b.len, "e.json", &p, &err), &err);
    dls__buf_free(&b);
    assert_int_equal(dls_platform_count(p), 300);
    dls_model *m;
    assert_ok(dls_model_create_constant(7, &m, &err), &err);
    assert_ok(dls_platform_set_model(p, 10, m, &err), &err);
    assert_ok(dls_platform_set_model(p, 10, m, &err), &err); /* the copy of the API's, replaced */
    assert_ok(dls_platform_remove(p, 3, &err), &err);
    assert_ok(dls_platform_remove(p, 0, &err), &err);
    assert_ok(dls_platform_add(p, "p3", m, NULL, &err), &err);
    assert_fails(dls_platform_add(p, "p299", m, NULL, &err), DLS_EINVAL, &err, "already exists");
    dls_model_free(m);
    assert_int_equal(dls_platform_count(p), 299);
    size_t i;
    for (int k = 0; k < 300; k++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", k);
        assert_int_equal(dls_platform_find(p, name, &i), k != 0);
        if (k == 0)
            continue;
        assert_string_equal(dls_platform_name(p, i), name);
        if (k == 10)
            assert_rel(dls_model_constant_speed(dls_platform_model(p, i)), 7, 0);
        else if (k != 3)
            assert_int_equal(dls_model_count(dls_platform_model(p, i)), 2);
    }
    dls_platform *c;
    assert_ok(dls_platform_copy(p, &c, &err), &err);
    assert_true(dls_platform_equal(p, c));
    dls_platform_free(c);
    dls_platform_free(p);
}

/* The shortest numbers of the writer (issue 36) are read and written in the C locale,
 * whatever the caller's: a decimal comma never reaches the file. */
TEST(test_output_locale)
{
    const char *comma = test_decimal_comma_or_skip();
    if (comma == NULL)
        return;
    char *text = written("{\"processors\": [{\"name\": \"a\", \"speed\": 2.5, \"link\": "
                         "{\"startup\": 5e-5, \"rate\": 0.30000000000000004}}]}");
    assert_non_null(strstr(text, "\"speed\": 2.5, \"link\": {\"startup\": 5e-5, \"rate\": "
                                 "0.30000000000000004}"));
    test_decimal_comma_kept();
    dls_free(text);
}

TEST_MAIN("platform_json", test_read_contract_example, test_read_every_example, test_name_rule,
          test_random_roundtrips, test_write_file, test_located_errors, test_bad_corpus,
          test_output_shape, test_format_version, test_reader_limits, test_hostile_inputs, test_edit_read_platform,
          test_output_locale)
