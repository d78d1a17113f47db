/* Files replaced atomically: written beside the destination under a temporary name, then
 * renamed over it, so that a reader sees either the old file or the whole new one. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"

dls_status dls__temp_beside(const char *path, char **tmp, int *fd, dls_error *err)
{
    size_t len = strlen(path);
    char *name = malloc(len + 16);
    if (name == NULL)
        return dls__fail(err, DLS_ENOMEM, "%s: out of memory", path);
    snprintf(name, len + 16, "%s.tmp.XXXXXX", path); /* mkstemp's template */
    int f = mkstemp(name);
    if (f < 0) {
        dls_status st = dls__fail(err, DLS_EIO, "%s: cannot create a temporary file next to it: "
                                  "%s", path, strerror(errno));
        free(name);
        return st;
    }
    /* mkstemp creates the file for its owner only; what we write is for everyone to read */
    if (fchmod(f, 0644) != 0) {
        dls_status st = dls__fail(err, DLS_EIO, "%s: chmod failed: %s", path, strerror(errno));
        close(f);
        unlink(name);
        free(name);
        return st;
    }
    *tmp = name;
    *fd = f;
    return DLS_OK;
}

dls_status dls__temp_publish(char *tmp, const char *path, dls_error *err)
{
    dls_status st = DLS_OK;
    if (rename(tmp, path) != 0) {
        st = dls__fail(err, DLS_EIO, "%s: rename failed: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return st;
}

void dls__temp_discard(char *tmp)
{
    unlink(tmp);
    free(tmp);
}

dls_status dls__write_file_atomic(const char *path, const char *data, size_t len, dls_error *err)
{
    char *tmp;
    int fd;
    dls_status st = dls__temp_beside(path, &tmp, &fd, err);
    if (st != DLS_OK)
        return st;
    const char *step = NULL;
    int saved = 0;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            step = "write";
            saved = errno;
            break;
        }
        done += (size_t)w;
    }
    if (step == NULL && fsync(fd) != 0) {
        step = "fsync";
        saved = errno;
    }
    if (close(fd) != 0 && step == NULL) {
        step = "close";
        saved = errno;
    }
    if (step != NULL) {
        dls__temp_discard(tmp);
        return dls__fail(err, DLS_EIO, "%s: %s failed: %s", path, step, strerror(saved));
    }
    return dls__temp_publish(tmp, path, err);
}
