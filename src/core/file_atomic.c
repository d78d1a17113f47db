/* Writing an output file so that it never destroys what it replaces.
 *
 * A regular file (or a new path) is replaced atomically: the bytes go to a temporary file
 * beside it, which is synced and renamed over it, and the directory is synced, so that a
 * reader sees the old file or the whole new one, never a part. The new file keeps the
 * mode (and, where allowed, the owner) of the one it replaces; a new one gets 0666 less
 * the umask, as any program's output does. A symbolic link is followed: its target is
 * replaced, and the link stays a link. A character device, a FIFO or a socket is written
 * to directly, as a stream: renaming a file over /dev/null or over a pipe that a reader
 * waits on would destroy it. Block devices and directories are refused.
 *
 * A destination that cannot be written at all (no such directory, no permission, a
 * directory) is DLS_EIO; data that could not be written to an accepted destination (a
 * full device, an I/O error) is DLS_EWRITE. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/internal.h"

/* Symbolic links followed before giving up, as the kernel does (ELOOP). */
#define MAX_LINKS 40
/* Names tried for a temporary file before giving up. */
#define TEMP_TRIES 100

/* The path a chain of symbolic links ends at (the path itself when it is not a link);
 * the target need not exist. NULL with errno set on failure. */
static char *resolve_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur != NULL; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
            return cur; /* not a link (or nothing there): this is where to write */
        if (hops == MAX_LINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        size_t cap = sb.st_size > 0 ? (size_t)sb.st_size + 1 : PATH_MAX;
        char *link = malloc(cap);
        ssize_t n = link ? readlink(cur, link, cap) : -1;
        if (n < 0 || (size_t)n >= cap) {
            int e = link == NULL ? ENOMEM : n < 0 ? errno : ENAMETOOLONG;
            free(link);
            free(cur);
            errno = e;
            return NULL;
        }
        link[n] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (link[0] == '/' || slash == NULL) {
            next = link; /* absolute, or relative to the current directory */
        } else {
            /* relative to the link's own directory */
            size_t dir = (size_t)(slash - cur) + 1;
            next = malloc(dir + (size_t)n + 1);
            if (next != NULL) {
                memcpy(next, cur, dir);
                memcpy(next + dir, link, (size_t)n + 1);
            }
            free(link);
        }
        free(cur);
        cur = next;
        if (cur == NULL)
            errno = ENOMEM;
    }
    return NULL;
}

/* Creates a new temporary file "<path>.tmp.<random>" with mode 0666 less the umask. */
static int create_temp(const char *path, char **tmp)
{
    size_t len = strlen(path) + 32;
    char *name = malloc(len);
    if (name == NULL) {
        errno = ENOMEM;
        return -1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid() << 20 ^
                 (uint64_t)(uintptr_t)name;
    for (int k = 0; k < TEMP_TRIES; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift: different names, not secrets */
        snprintf(name, len, "%s.tmp.%06llx", path, (unsigned long long)(x & 0xffffff));
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp = name;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(name);
    errno = e;
    return -1;
}

static int write_all(int fd, const char *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* Syncs the directory holding path, so that a rename in it survives a crash. File
 * systems that cannot sync a directory (EINVAL) are not an error. */
static int sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? strdup(".") : strndup(path, slash == path ? 1 : (size_t)(slash - path));
    if (dir == NULL)
        return 0; /* the data is written and renamed: only durability is at stake */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return 0;
    int rc = fsync(fd) != 0 && errno != EINVAL && errno != EROFS ? -1 : 0;
    close(fd);
    return rc;
}

/* A device, FIFO or socket: write straight to it. */
static dls_status write_stream(const char *path, const char *target, const char *data,
                               size_t len, dls_error *err)
{
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return dls__fail(err, DLS_EIO, NULL, "%s: cannot open for writing: %s", path,
                         strerror(errno));
    int rc = write_all(fd, data, len);
    int e = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0)
        return dls__fail(err, DLS_EWRITE, NULL, "%s: write failed: %s", path, strerror(e));
    return DLS_OK;
}

/* A regular file or a new path: a temporary file beside it, then a rename. old is the
 * file replaced (NULL for a new one). */
static dls_status replace(const char *path, const char *target, const struct stat *old,
                          const char *data, size_t len, dls_error *err)
{
    char *tmp;
    int fd = create_temp(target, &tmp);
    if (fd < 0)
        return dls__fail(err, DLS_EIO, NULL, "%s: cannot create a temporary file next to it: %s",
                         path, strerror(errno));
    const char *step = NULL;
    if (old != NULL) {
        /* the new file is the old one's successor: same permissions, same owner when we
         * may give it (only root may, and failing that is no reason to fail) */
        if (fchmod(fd, old->st_mode & 07777) != 0)
            step = "chmod";
        else if (fchown(fd, old->st_uid, old->st_gid) != 0)
            errno = 0;
    }
    if (step == NULL && write_all(fd, data, len) != 0)
        step = "write";
    if (step == NULL && fsync(fd) != 0)
        step = "fsync";
    int e = errno;
    if (close(fd) != 0 && step == NULL) {
        step = "close";
        e = errno;
    }
    if (step == NULL && rename(tmp, target) != 0) {
        step = "rename";
        e = errno;
    }
    if (step != NULL) {
        unlink(tmp);
        free(tmp);
        return dls__fail(err, DLS_EWRITE, NULL, "%s: %s failed: %s", path, step, strerror(e));
    }
    free(tmp);
    if (sync_dir(target) != 0)
        return dls__fail(err, DLS_EWRITE, NULL, "%s: syncing its directory failed: %s", path,
                         strerror(errno));
    return DLS_OK;
}

dls_status dls__write_output(const char *path, const char *data, size_t len, dls_error *err)
{
    if (path == NULL || path[0] == '\0')
        return dls__fail(err, DLS_EINVAL, NULL, "an output path must not be empty");
    char *target = resolve_links(path);
    if (target == NULL)
        return dls__fail(err, DLS_EIO, NULL, "%s: cannot follow the symbolic link: %s", path,
                         strerror(errno));
    struct stat sb;
    dls_status st;
    if (stat(target, &sb) != 0) {
        if (errno == ENOENT)
            st = replace(path, target, NULL, data, len, err);
        else
            st = dls__fail(err, DLS_EIO, NULL, "%s: %s", path, strerror(errno));
    } else if (S_ISREG(sb.st_mode)) {
        st = replace(path, target, &sb, data, len, err);
    } else if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)) {
        st = write_stream(path, target, data, len, err);
    } else if (S_ISDIR(sb.st_mode)) {
        st = dls__fail(err, DLS_EIO, NULL, "%s: is a directory", path);
    } else {
        st = dls__fail(err, DLS_EIO, NULL,
                       "%s: is a block device or another special file: dlsched "
                       "writes to regular files, character devices, FIFOs and sockets only", path);
    }
    free(target);
    return st;
}

dls_status dls_write_output(const char *path, const void *data, size_t len, dls_error *err)
{
    if (data == NULL && len > 0)
        return dls__fail(err, DLS_EINVAL, "dls_write_output", "NULL data of %zu bytes", len);
    dls_status st = dls__write_output(path, data != NULL ? data : "", len, err);
    return dls__error_retag(err, st, "dls_write_output");
}

/* ---------------------------------------------------------------------------------- */
/* Scratch files for writers that want a file name (GLPK's)                            */

dls_status dls__scratch_create(char **name, dls_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || dir[0] == '\0')
        dir = P_tmpdir;
    size_t len = strlen(dir) + 32;
    char *n = malloc(len);
    if (n == NULL)
        return dls__oom(err, NULL);
    snprintf(n, len, "%s/dlsched.XXXXXX", dir);
    int fd = mkstemp(n); /* owner-only: the scratch file is read back, then removed */
    if (fd < 0) {
        dls_status st = dls__fail(err, DLS_EIO, NULL, "%s: cannot create a scratch file: %s", dir,
                                  strerror(errno));
        free(n);
        return st;
    }
    close(fd);
    *name = n;
    return DLS_OK;
}

dls_status dls__scratch_take(char *name, dls__buf *out, dls_error *err)
{
    dls_status st = DLS_OK;
    FILE *f = fopen(name, "rb");
    if (f == NULL) {
        st = dls__fail(err, DLS_EIO, NULL, "%s: cannot read the scratch file back: %s", name,
                       strerror(errno));
    } else {
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
            dls__buf_add(out, chunk, n);
        if (ferror(f))
            st = dls__fail(err, DLS_EIO, NULL, "%s: reading the scratch file failed", name);
        else if (out->failed)
            st = dls__oom(err, NULL);
        fclose(f);
    }
    dls__scratch_remove(name);
    return st;
}

void dls__scratch_remove(char *name)
{
    unlink(name);
    free(name);
}
