/* The sandbox of `dlsched validate` (declared in tool.h): the scheduler under test is a program
 * of the user's, and may do anything to the files it is handed and to the folder it writes
 * in. Nothing it does may hang validate, reach dlsched's standard output, change the suite
 * or leave files behind: it gets copies in a folder of its own, its output goes to a pipe
 * that is drained and bounded, its process group is killed when it is done or past its
 * time, and its plan is read only as a regular file of bounded size. */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

/* Entries (files and folders, counted each time they are looked at) the removal of one
 * folder may go through: a scheduler that makes more leaves them, with a warning. */
#define VALIDATE_CLEAN_MAX ((size_t)1000000)
/* How often a running scheduler is looked at, in milliseconds. */
#define VALIDATE_POLL_MS 2
/* Bytes of the scheduler's output read at one look (then the clock is looked at). */
#define VALIDATE_DRAIN_MAX ((size_t)1 << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *file_type(mode_t m)
{
    if (S_ISDIR(m))
        return "a folder";
    if (S_ISLNK(m))
        return "a symbolic link";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a file";
}

int validate_box_open(validate_box *b, char *why, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        tmp = "/tmp";
    b->fd = -1;
    if ((size_t)snprintf(b->path, sizeof b->path, "%s/dlsched-validate-XXXXXX", tmp) >=
        sizeof b->path) {
        snprintf(why, size, "TMPDIR is too long (%zu bytes)", strlen(tmp));
        return -1;
    }
    if (mkdtemp(b->path) == NULL) {
        snprintf(why, size, "cannot make a temporary folder in %s: %s", tmp, strerror(errno));
        return -1;
    }
    struct stat st;
    b->fd = open(b->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (b->fd < 0 || fstat(b->fd, &st) != 0) {
        snprintf(why, size, "cannot open the temporary folder %s: %s", b->path, strerror(errno));
        if (b->fd >= 0)
            close(b->fd);
        b->fd = -1;
        rmdir(b->path);
        return -1;
    }
    b->dev = st.st_dev;
    b->ino = st.st_ino;
    return 0;
}

int validate_box_intact(const validate_box *b)
{
    struct stat st;
    return lstat(b->path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_dev == b->dev &&
           st.st_ino == b->ino;
}

int validate_box_put(const validate_box *b, const char *name, const char *bytes, size_t len,
                     char *path, size_t path_size, char *why, size_t size)
{
    if ((size_t)snprintf(path, path_size, "%s/%s", b->path, name) >= path_size) {
        snprintf(why, size, "the path of the copy of %s is too long", name);
        return -1;
    }
    /* read-only: a scheduler that writes through it by mistake fails, and sees why */
    int fd = openat(b->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0400);
    if (fd < 0) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t at = 0; at < len;) {
        ssize_t w = write(fd, bytes + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        at += (size_t)w;
    }
    if (close(fd) != 0) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* One pass over the folder fd: removes its files and empty folders. Returns the opened
 * fd of a sub-folder that is not empty (to go down into), -2 when the folder is empty, -1
 * when something cannot be removed or the budget is spent. */
static int sweep(int fd, size_t *budget)
{
    int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (d == NULL) {
        if (dfd >= 0)
            close(dfd);
        return -1;
    }
    int down = -2, failed = 0;
    struct dirent *e;
    while (down == -2 && !failed && (e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        if (*budget == 0) {
            failed = 1;
            break;
        }
        --*budget;
        struct stat st;
        if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; /* gone already */
        if (!S_ISDIR(st.st_mode)) {
            failed = unlinkat(fd, name, 0) != 0 && errno != ENOENT;
            continue;
        }
        if (unlinkat(fd, name, AT_REMOVEDIR) == 0)
            continue;
        /* a folder the scheduler made unreadable or unwritable: ours to remove all the same
         * (it is a folder, not a link: fchmodat cannot follow one) */
        fchmodat(fd, name, S_IRWXU, 0);
        down = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        failed = down < 0;
    }
    closedir(d);
    return failed ? -1 : down;
}

/* Empties the folder top, depth first without recursion (a tree may be deeper than the
 * open files allow), going back up through ".." checked against the folder come from, so
 * that a folder moved meanwhile cannot lead out of the tree. 0, or -1. */
static int empty_folder(int top, size_t *budget)
{
    typedef struct ident {
        dev_t dev;
        ino_t ino;
    } ident;
    ident *up = NULL;
    size_t depth = 0, cap = 0;
    int fd = openat(top, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = -1;
    fchmod(top, S_IRWXU);
    while (fd >= 0) {
        int r = sweep(fd, budget);
        struct stat st;
        if (r >= 0) {
            if (depth == cap) {
                cap = cap ? 2 * cap : 16;
                ident *grown = realloc(up, cap * sizeof *up);
                if (grown == NULL || fstat(fd, &st) != 0) {
                    free(grown ? grown : up);
                    up = NULL;
                    close(r);
                    break;
                }
                up = grown;
            } else if (fstat(fd, &st) != 0) {
                close(r);
                break;
            }
            up[depth++] = (ident){st.st_dev, st.st_ino};
            close(fd);
            fd = r;
            continue;
        }
        if (r == -1)
            break;
        if (depth == 0) {
            rc = 0;
            break;
        }
        int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        depth--;
        if (parent < 0 || fstat(parent, &st) != 0 || st.st_dev != up[depth].dev ||
            st.st_ino != up[depth].ino) {
            if (parent >= 0)
                close(parent);
            break;
        }
        close(fd);
        fd = parent;
    }
    if (fd >= 0)
        close(fd);
    free(up);
    return rc;
}

int validate_box_close(validate_box *b, char *why, size_t size)
{
    if (b->fd < 0)
        return 0;
    size_t budget = VALIDATE_CLEAN_MAX;
    int rc = empty_folder(b->fd, &budget);
    close(b->fd);
    b->fd = -1;
    struct stat st;
    /* nothing at the path: the scheduler removed (or moved) it */
    if (lstat(b->path, &st) == 0) {
        if (S_ISDIR(st.st_mode) && (st.st_dev != b->dev || st.st_ino != b->ino)) {
            /* a folder of the scheduler's under our name: removed the same way */
            int fd = open(b->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0 || empty_folder(fd, &budget) != 0)
                rc = -1;
            if (fd >= 0)
                close(fd);
        }
        if ((S_ISDIR(st.st_mode) ? rmdir(b->path) : unlink(b->path)) != 0)
            rc = -1;
    }
    if (rc != 0)
        snprintf(why, size, "could not remove all of the temporary folder %s (more than %zu "
                 "entries, or some that cannot be removed)", b->path, VALIDATE_CLEAN_MAX);
    return rc;
}

int validate_read_file(int dirfd, const char *path, int follow, size_t max, char **out,
                       size_t *len, char *why, size_t size)
{
    struct stat st;
    if (fstatat(dirfd, path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0) {
        snprintf(why, size, "%s", errno == ENOENT ? "does not exist" : strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, size, "is %s, not a regular file", file_type(st.st_mode));
        return -1;
    }
    if ((uintmax_t)st.st_size > (uintmax_t)max) {
        snprintf(why, size, "holds %jd bytes, more than the %zu bytes allowed", (intmax_t)st.st_size,
                 max);
        return -1;
    }
    /* O_NONBLOCK: should it have become a FIFO since, the open does not wait */
    int fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, size, "%s", fd < 0 ? strerror(errno) : "is not a regular file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char *buf = malloc(max + 1);
    size_t n = 0;
    int err = buf == NULL ? ENOMEM : 0;
    while (err == 0 && n <= max) {
        ssize_t r = read(fd, buf + n, max + 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            err = errno;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (err != 0 || n > max) { /* n > max: it grew since */
        if (err != 0)
            snprintf(why, size, "%s", strerror(err));
        else
            snprintf(why, size, "holds more than the %zu bytes allowed", max);
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* The last line of the scheduler's output, kept as it comes: printable ASCII, the rest '?'. */
typedef struct last_line {
    char done[VALIDATE_LAST_LINE_MAX + 1]; /* the last complete line that was not empty */
    char cur[VALIDATE_LAST_LINE_MAX + 1];  /* the line being written */
    size_t n;
} last_line;

static void last_line_add(last_line *l, const char *p, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)p[k];
        if (c == '\n' || c == '\r') {
            if (l->n > 0) {
                memcpy(l->done, l->cur, l->n);
                l->done[l->n] = '\0';
            }
            l->n = 0;
        } else if (l->n < VALIDATE_LAST_LINE_MAX) {
            l->cur[l->n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
    }
}

static const char *last_line_get(last_line *l)
{
    if (l->n > 0) {
        l->cur[l->n] = '\0';
        return l->cur;
    }
    return l->done;
}

/* Reads what the pipe holds now (at most VALIDATE_DRAIN_MAX bytes); -1 at its end. */
static int drain(int fd, last_line *l)
{
    char buf[4096];
    for (size_t got = 0; got < VALIDATE_DRAIN_MAX;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r > 0) {
            last_line_add(l, buf, (size_t)r);
            got += (size_t)r;
        } else if (r == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
            return -1;
        } else if (errno != EINTR) {
            break;
        }
    }
    return 0;
}

/* The child: its own process group, /dev/null in, the pipe out; the shell. */
static void child(const char *cmd, int out)
{
    setpgid(0, 0);
    /* dispositions and the mask dlsched may have changed go back to the defaults */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    int in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(126); /* never with dlsched's own output */
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

/* Waits for the shell under the time limit, reading its output; leaves it a zombie (so its
 * process group id is not reused) and returns 1 when it was stopped at the limit, 0 when
 * it ended, -1 when it was lost. */
static int supervise(pid_t pid, int *pipe_fd, double limit, last_line *l)
{
    double deadline = now() + limit, kill_at = 0;
    int stopped = 0;
    for (;;) {
        if (*pipe_fd >= 0 && drain(*pipe_fd, l) != 0) {
            close(*pipe_fd);
            *pipe_fd = -1;
        }
        siginfo_t si;
        si.si_pid = 0;
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0) {
            if (si.si_pid == pid)
                return stopped;
        } else if (errno != EINTR) {
            return -1;
        }
        double t = now();
        if (!stopped && t >= deadline) {
            kill(-pid, SIGTERM);
            stopped = 1;
            kill_at = t + VALIDATE_TERM_GRACE_S;
        } else if (stopped && kill_at > 0 && t >= kill_at) {
            kill(-pid, SIGKILL); /* it ignored SIGTERM */
            kill_at = 0;
        }
        struct pollfd p = {*pipe_fd, POLLIN, 0};
        if (*pipe_fd >= 0)
            poll(&p, 1, VALIDATE_POLL_MS);
        else {
            /* a named timespec: SMPI's nanosleep is a macro of two arguments */
            struct timespec nap = {0, VALIDATE_POLL_MS * 1000000L};
            nanosleep(&nap, NULL);
        }
    }
}

int validate_run(const char *cmd, double limit, char *why, size_t size)
{
    int p[2];
    if (pipe(p) != 0) {
        snprintf(why, size, "cannot start the scheduler: %s", strerror(errno));
        return 1;
    }
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    pid_t pid = fork();
    if (pid == 0)
        child(cmd, p[1]);
    close(p[1]);
    if (pid < 0) {
        snprintf(why, size, "cannot start the scheduler: %s", strerror(errno));
        close(p[0]);
        return 1;
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    last_line l;
    memset(&l, 0, sizeof l);
    int fd = p[0];
    int stopped = supervise(pid, &fd, limit, &l), lost = errno;
    /* what the scheduler left running (in the background, or ignoring SIGTERM) goes with it,
     * before it can touch its folder or the plan again */
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (fd >= 0) {
        drain(fd, &l);
        close(fd);
    }
    const char *said = last_line_get(&l);
    char tail[VALIDATE_LAST_LINE_MAX + 32] = "";
    if (said[0] != '\0')
        snprintf(tail, sizeof tail, " (its last line: \"%s\")", said);
    if (stopped < 0) {
        snprintf(why, size, "lost the scheduler: %s%s", strerror(lost), tail);
        return 1;
    }
    if (stopped) {
        snprintf(why, size, "stopped after the time limit of %g s%s", limit, tail);
        return 2;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status))
        snprintf(why, size, "the scheduler died of signal %d%s", WTERMSIG(status), tail);
    else
        snprintf(why, size, "the scheduler exited with status %d%s", WEXITSTATUS(status), tail);
    return 1;
}
