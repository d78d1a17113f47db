/* A wall-clock guard for calls that once hung: a call that is still running after the
 * guard's seconds ends the test program with the name of what it was doing, instead of the
 * suite timing out without saying which input hung. Times themselves are measured by the
 * benchmarks (tests/bench), never asserted: the guard is far above what the calls take. */
#ifndef DLSCHED_TEST_GUARD_H
#define DLSCHED_TEST_GUARD_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char test_guarded_[1024];

static void test_guard_alarm_(int sig)
{
    (void)sig;
    static const char head[] = "FAIL: still running after the wall-clock guard: ";
    ssize_t w = write(2, head, sizeof head - 1);
    w = write(2, test_guarded_, strlen(test_guarded_));
    w = write(2, "\n", 1);
    (void)w;
    _exit(1);
}

/* Starts the guard: `what` on `path` must end within `seconds`. */
static inline void test_guard(const char *what, const char *path, unsigned seconds)
{
    snprintf(test_guarded_, sizeof test_guarded_, "%.100s %.900s", what, path);
    signal(SIGALRM, test_guard_alarm_);
    alarm(seconds);
}

static inline void test_unguard(void)
{
    alarm(0);
}

#endif /* DLSCHED_TEST_GUARD_H */
