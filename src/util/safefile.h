/* SPDX-License-Identifier: BSD-2-Clause */
/* safefile: the one way warpspeed writes a file a user named (issue 27).
 *
 * Output paths come from command lines and scripts that may run as root in directories
 * other users can write, so a name can be a planted symbolic link, a device, a FIFO, a
 * directory, or a file whose mode keeps it private. Every writer (IQ files and SigMF
 * pairs, --json-file, --svg, plot and mesh output) goes through this module so that one
 * rule holds everywhere: a regular file (or a new name) is written to a fresh temporary
 * file beside it, created with O_CREAT|O_EXCL|O_NOFOLLOW under a unique random name, given
 * the old file's mode, fsynced, renamed over the target and the directory fsynced, so a
 * failed run never leaves a half-written file under the real name and nothing is written
 * through a link we did not make; a FIFO or a character device (/dev/null, a pipe made
 * with mkfifo) is written in place as a stream, opened without blocking (a FIFO with no
 * reader is an error, not a hang) and never created, truncated or replaced; "-" is
 * standard output when the caller allows it; a symbolic link, a directory, a block device
 * or a socket is refused with an error naming it and what is accepted. Input files are
 * opened without blocking too, and only regular files are read. */
#ifndef WS_UTIL_SAFEFILE_H
#define WS_UTIL_SAFEFILE_H

#include <stdio.h>

struct ws_err;

#define WS_SAFEFILE_PATH_MAX 4096

/* Flags of ws_safefile_open. */
enum {
	WS_SAFEFILE_DASH = 1, /* "-" is standard output */
};

typedef struct ws_safefile {
	FILE *f;    /* write here (binary, fully buffered); NULL when not open */
	int stream; /* written in place: standard output, a FIFO or a character device */
	int mode;   /* the mode the replaced file had (given to the new one), or -1 */
	char path[WS_SAFEFILE_PATH_MAX];
	char tmp[WS_SAFEFILE_PATH_MAX]; /* the temporary file ("" when streaming) */
} ws_safefile;

/* Opens path for writing by the rule above (before any slow work, so a bad name costs
 * nothing): a regular file or a missing name gets a temporary file beside it; a FIFO or a
 * character device is opened in place, without blocking. 0, or a negative code with err
 * naming the path, what it is and what is accepted ("'x' is a symbolic link: ..."), and
 * nothing created. */
int ws_safefile_open(ws_safefile *sf, const char *path, unsigned flags, struct ws_err *err);

/* Whether ws_safefile_open would open path now, for a command line checked before any
 * work while the file is written only at the end: a missing name or a regular file gets a
 * temporary file beside it, created and removed at once; a FIFO or a character device is
 * checked for write permission only (opening a FIFO would show its reader a writer that
 * came and went). 0, or a negative code with err as ws_safefile_open's; nothing stays. */
int ws_safefile_check(const char *path, unsigned flags, struct ws_err *err);

/* Flushes and ends a file opened by ws_safefile_open: a temporary file is given its mode,
 * fsynced, renamed over the target and its directory fsynced. 0, or a negative code with
 * err naming the file; on error the temporary file is removed and the target is as it
 * was. sf is closed either way. */
int ws_safefile_commit(ws_safefile *sf, struct ws_err *err);

/* Closes sf and removes its temporary file; the target is as it was. No-op when closed. */
void ws_safefile_abort(ws_safefile *sf);

/* Opens an input file without ever blocking on it (O_NONBLOCK, then fstat), so a FIFO
 * with no writer cannot hang the caller: a regular file only; anything else is refused
 * with err naming it ("<what> '<path>' is a FIFO: ..."). Returns the descriptor (blocking
 * again, close-on-exec) with *size set, or a negative code. */
int ws_safefile_open_read(const char *path, const char *what, long long *size, struct ws_err *err);

#endif
