/* The sandbox of `dlsched validate` (tool/validate_run.c): a scheduler under test runs in a
 * temporary folder of its own that holds copies of the suite's files, with its output
 * captured and bounded, under a time limit; its plan is read only if it is a regular file
 * of bounded size; the folder is removed afterwards, whatever the scheduler left there.
 * Private to cmd_validate.c. */
#ifndef DLS_TOOL_VALIDATE_H
#define DLS_TOOL_VALIDATE_H

#include <stddef.h>
#include <sys/types.h>

/* Longest path of the temporary folder ($TMPDIR/dlsched-validate-XXXXXX) and its files. */
#define VALIDATE_PATH_MAX 4096
/* Seconds between SIGTERM at the time limit and SIGKILL for a scheduler that goes on. */
#define VALIDATE_TERM_GRACE_S 1.0
/* Bytes of the scheduler's last line of output kept for the report. */
#define VALIDATE_LAST_LINE_MAX 160

/* One instance's temporary folder: made by validate_box_open(), left by _close(). */
typedef struct validate_box {
    char path[VALIDATE_PATH_MAX - 64]; /* room left for the names of its files */
    int fd; /* the folder, opened when made: what the scheduler does to its name is seen */
    dev_t dev;
    ino_t ino;
} validate_box;

/* Makes the folder ($TMPDIR, else /tmp). 0, or -1 with the reason in why. */
int validate_box_open(validate_box *b, char *why, size_t size);
/* Whether the folder is still at its path, the one made (the scheduler did not remove,
 * move or replace it). */
int validate_box_intact(const validate_box *b);
/* Writes a read-only file NAME of the folder holding len bytes; its path in path.
 * 0, or -1 with the reason in why. */
int validate_box_put(const validate_box *b, const char *name, const char *bytes, size_t len,
                     char *path, size_t path_size, char *why, size_t size);
/* Removes the folder and everything in it (no link followed, folders made writable first,
 * at most VALIDATE_CLEAN_MAX entries), and whatever else the scheduler put at its path.
 * 0, or -1 with what is left in why. */
int validate_box_close(validate_box *b, char *why, size_t size);

/* Reads the regular file at path (relative to the folder dirfd, or AT_FDCWD) into *out
 * (malloc'd, NUL-terminated), at most max bytes; follow: whether a symbolic link is taken
 * (the suite's files) or refused (a plan must be a file the scheduler wrote). Never blocks
 * (a FIFO or a device is refused before it is opened). 0, or -1 with the reason in why
 * ("is a FIFO, not a regular file"), to follow the file's name. */
int validate_read_file(int dirfd, const char *path, int follow, size_t max, char **out,
                       size_t *len, char *why, size_t size);

/* Runs cmd through /bin/sh in a process group of its own, standard input /dev/null, its
 * standard output and error into a pipe of which only the last line is kept (never
 * dlsched's own output). At the time limit the group gets SIGTERM, then SIGKILL after
 * VALIDATE_TERM_GRACE_S; whatever the group still runs when the shell ends is killed.
 * Returns 0 when it exited 0, 1 when it failed, 2 when stopped at the time limit (why
 * says how, with the last line it wrote). */
int validate_run(const char *cmd, double limit, char *why, size_t size);

#endif
