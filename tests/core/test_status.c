/* Tests of status codes, error records and version queries. */
#include "testutil.h"

#include "core/internal.h"

TEST(test_every_status_has_text_and_name)
{
#define CHECK_(name, value, text)                                   \
    assert_string_equal(dls_strerror(DLS_##name), text);            \
    assert_string_equal(dls_status_name(DLS_##name), #name);        \
    assert_int_equal(DLS_##name, value);
    DLS_STATUS_MAP(CHECK_)
#undef CHECK_
    assert_int_equal(DLS_OK, 0);
}

TEST(test_unknown_status)
{
    assert_string_equal(dls_strerror((dls_status)999), "unknown status");
    assert_string_equal(dls_status_name((dls_status)-5), "UNKNOWN");
}

TEST(test_error_clear)
{
    dls_error err;
    memset(&err, 0x5A, sizeof err);
    dls_error_clear(&err);
    assert_int_equal(err.status, DLS_OK);
    assert_int_equal(err.line, 0);
    assert_int_equal(err.column, 0);
    assert_int_equal(err.processor, -1);
    assert_string_equal(err.message, "");
    dls_error_clear(NULL); /* allowed */
}

TEST(test_error_filled_and_untouched_on_success)
{
    dls_error err;
    dls_model *m = NULL;
    assert_fails(dls_model_create_constant(-1, &m, &err), DLS_EINVAL, &err, "speed must be > 0");
    assert_null(m);
    /* success leaves the record alone */
    strcpy(err.message, "stale");
    assert_ok(dls_model_create_constant(1.5, &m, &err), &err);
    assert_string_equal(err.message, "stale");
    dls_model_free(m);
    /* a NULL record is allowed on failure */
    assert_int_equal(dls_model_create_constant(0, &m, NULL), DLS_EINVAL);
}

TEST(test_message_is_bounded)
{
    /* A very long processor name must not overflow the message buffer. */
    char name[2000];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    dls_platform *p = test_platform_new();
    dls_model *m;
    dls_error err;
    assert_non_null(p);
    assert_ok(dls_model_create_constant(1, &m, &err), &err);
    assert_ok(dls_platform_add(p, name, m, NULL, &err), &err);
    assert_int_equal(dls_platform_set_limit(p, 0, -1, &err), DLS_EINVAL);
    assert_true(strlen(err.message) < DLS_ERROR_MESSAGE_MAX);
    assert_int_equal(err.processor, 0);
    dls_model_free(m);
    dls_platform_free(p);
}

/* The origin is the argument given, never read back from the message (issue 37, item 4). */
TEST(test_origin_from_argument)
{
    dls_error err;
    dls__fail(&err, DLS_EINVAL, "dls_schedule_solve", "NULL %s", "platform");
    assert_string_equal(err.message, "dls_schedule_solve: NULL platform");
    assert_string_equal(err.origin, "dls_schedule_solve");
    dls__fail_at(&err, DLS_EDATA, 3, 4, 2, "lu", "group %d", 7);
    assert_string_equal(err.message, "lu: group 7");
    assert_string_equal(err.origin, "lu");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 4);
    assert_int_equal(err.processor, 2);
    dls__fail(&err, DLS_EINVAL, "", "plain text");
    assert_string_equal(err.message, "plain text");
    assert_string_equal(err.origin, "");
    /* text that merely looks like a name: no origin */
    dls__fail(&err, DLS_EIO, NULL, "%s: cannot open", "data");
    assert_string_equal(err.message, "data: cannot open");
    assert_string_equal(err.origin, "");
    dls__fail(&err, DLS_EIO, NULL, "dls_x: y");
    assert_string_equal(err.origin, "");
    /* an origin that is no name heads the message, but is not recorded */
    dls__oom(&err, "order mip");
    assert_string_equal(err.message, "order mip: out of memory");
    assert_string_equal(err.origin, "");
    dls__oom(&err, NULL);
    assert_string_equal(err.message, "out of memory");
    assert_string_equal(err.origin, "");
    /* nor one too long for the field */
    char name[DLS_ERROR_ORIGIN_MAX + 1];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    dls__fail(&err, DLS_EINVAL, name, "x");
    assert_string_equal(err.origin, "");
    assert_int_equal(strlen(err.message), DLS_ERROR_ORIGIN_MAX + 3);
}

/* A failure passed on keeps its origin; a module's word gives way to the public name. */
TEST(test_origin_passed_on_and_retagged)
{
    dls_error first, err;
    dls__fail(&first, DLS_ENUMERIC, "lu", "no order");
    assert_string_equal(dls__error_text(&first), "no order");
    dls__fail(&err, DLS_ENUMERIC, first.origin, "%s; then more", dls__error_text(&first));
    assert_string_equal(err.message, "lu: no order; then more");
    assert_string_equal(err.origin, "lu");
    /* err's own origin may be passed */
    dls__fail(&err, DLS_ENUMERIC, err.origin, "again");
    assert_string_equal(err.message, "lu: again");
    assert_string_equal(err.origin, "lu");
    dls__error_retag(&err, DLS_ENUMERIC, "dls_lu_distribute");
    assert_string_equal(err.message, "dls_lu_distribute: again");
    assert_string_equal(err.origin, "dls_lu_distribute");
    dls__fail(&err, DLS_EINVAL, NULL, "position 3");
    assert_string_equal(dls__error_text(&err), "position 3");
    dls__error_retag(&err, DLS_EINVAL, "dls_schedule_solve");
    assert_string_equal(err.message, "dls_schedule_solve: position 3");
    assert_string_equal(err.origin, "dls_schedule_solve");
}

TEST(test_version)
{
    assert_string_equal(dls_version(), DLS_VERSION_STRING);
    assert_int_equal(dls_version_number(), DLS_VERSION_NUMBER);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", DLS_VERSION_MAJOR, DLS_VERSION_MINOR, DLS_VERSION_PATCH);
    assert_string_equal(buf, dls_version());
    dls_free(NULL);
}

TEST_MAIN("status", test_every_status_has_text_and_name, test_unknown_status, test_error_clear,
          test_error_filled_and_untouched_on_success, test_message_is_bounded,
          test_origin_from_argument, test_origin_passed_on_and_retagged, test_version)
