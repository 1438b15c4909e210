/* SPDX-License-Identifier: BSD-2-Clause */
/* safefile: writing the files users name, one rule for all; see safefile.h.
 *
 * The target is looked at once with lstat (never followed) and classified: a missing
 * name or a regular file is replaced through a temporary file of our own, created
 * exclusively and without following links, so a name planted beside the target can only
 * make the creation fail and be retried under another random name; a FIFO or a character
 * device is opened in place without O_CREAT or O_TRUNC and checked to still be what lstat
 * saw; anything else is refused. rename() replaces a link planted at the target after the
 * check rather than following it, so the check and the rename need no lock. */
#include "util/safefile.h"

#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define SF_TRIES 64 /* temporary names tried before giving up */

/* 64 unpredictable bits for a temporary name: the kernel's, or a mix of the clock, the
 * process and a counter when getrandom has nothing (the exclusive create keeps it safe
 * either way; unpredictability only keeps others from blocking the name). */
static uint64_t name_bits(void)
{
	static _Atomic uint64_t counter;
	uint64_t x;
	if (getrandom(&x, sizeof x, GRND_NONBLOCK) == (ssize_t)sizeof x)
		return x;
	x = (uint64_t)ws_clock_ns() ^ (uint64_t)getpid() << 32 ^ ++counter * 0x9E3779B97F4A7C15ull;
	x ^= x >> 30;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 27;
	return x;
}

/* The directory part of path into dir ("." when there is none). */
static void dir_of(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, cap, ".");
	else if (slash == path)
		snprintf(dir, cap, "/");
	else
		snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

static const char *kind_name(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	return S_ISREG(m) ? "a regular file" : "not a file";
}

static int refuse(const char *path, mode_t m, unsigned flags, ws_err *err)
{
	const char *dash = flags & WS_SAFEFILE_DASH ? ", or - for standard output" : "";
	if (S_ISLNK(m))
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is a symbolic link: warpspeed does not "
				  "write through links it did not make (name the file itself%s)",
				  path, dash);
	if (S_ISDIR(m))
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is a directory: give a file name (a new "
				  "or regular file, a FIFO or a character device%s)",
				  path, dash);
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is %s: warpspeed writes a new or regular file, "
			  "or a FIFO or character device in place%s",
			  path, kind_name(m), dash);
}

static int open_file(ws_safefile *sf, int fd, ws_err *err)
{
	sf->f = fdopen(fd, "wb");
	if (!sf->f) {
		int r = ws_err_errno(err, "'%s'", sf->path);
		close(fd);
		if (sf->tmp[0])
			unlink(sf->tmp);
		sf->tmp[0] = 0;
		return r;
	}
	return 0;
}

/* A FIFO or character device, written where it is. */
static int open_stream(ws_safefile *sf, const struct stat *seen, ws_err *err)
{
	int fd = open(sf->path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO)
		return ws_err_set(
			err, ENXIO,
			"'%s' is a FIFO with no reader: warpspeed writes a "
			"FIFO in place and does not wait for one (start the reader first)",
			sf->path);
	if (fd < 0)
		return ws_err_errno(err, "cannot write '%s'", sf->path);
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_dev != seen->st_dev || st.st_ino != seen->st_ino ||
	    (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))) {
		close(fd);
		return ws_err_set(err, WS_E_INVAL, "'%s' changed while it was opened; not written",
				  sf->path);
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int r = ws_err_errno(err, "'%s'", sf->path);
		close(fd);
		return r;
	}
	sf->stream = 1;
	return open_file(sf, fd, err);
}

/* A fresh temporary file beside the target (which is regular or missing). */
static int open_temp(ws_safefile *sf, const struct stat *old, ws_err *err)
{
	char dir[WS_SAFEFILE_PATH_MAX];
	const char *slash = strrchr(sf->path, '/');
	const char *base = slash ? slash + 1 : sf->path;
	dir_of(sf->path, dir, sizeof dir);
	for (int i = 0; i < SF_TRIES; i++) {
		int n = snprintf(sf->tmp, sizeof sf->tmp, "%.*s.%s.%016llx.tmp",
				 (int)(base - sf->path), sf->path, base,
				 (unsigned long long)name_bits());
		if (n < 0 || (size_t)n >= sizeof sf->tmp) {
			sf->tmp[0] = 0;
			return ws_err_set(err, WS_E_INVAL, "file name '%s' is too long", sf->path);
		}
		/* A private file while it fills when the old one was; 0666 less the umask for a
		 * new name, as any program's new file. */
		int fd = open(sf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			      old ? 0600 : 0666);
		if (fd >= 0) {
			if (old) {
				sf->mode = (int)(old->st_mode & 0777);
				if (fchown(fd, old->st_uid, old->st_gid) < 0) {
					/* not ours to give away: the new file stays ours */
				}
			}
			return open_file(sf, fd, err);
		}
		if (errno != EEXIST) {
			sf->tmp[0] = 0;
			return ws_err_errno(err,
					    "cannot create a file in directory '%s' (for '%s')",
					    dir, sf->path);
		}
	}
	sf->tmp[0] = 0;
	return ws_err_set(err, WS_E_INVAL,
			  "cannot create a temporary file in directory '%s' "
			  "(for '%s'): %d names were taken",
			  dir, sf->path, SF_TRIES);
}

int ws_safefile_open(ws_safefile *sf, const char *path, unsigned flags, ws_err *err)
{
	memset(sf, 0, sizeof *sf);
	sf->mode = -1;
	if (strlen(path) >= sizeof sf->path || !*path)
		return ws_err_set(err, WS_E_INVAL, "file name '%s' is %s", path,
				  *path ? "too long" : "empty");
	snprintf(sf->path, sizeof sf->path, "%s", path);
	if ((flags & WS_SAFEFILE_DASH) && !strcmp(path, "-")) {
		fflush(stdout); /* what was printed before stays before the data */
		int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return ws_err_errno(err, "standard output");
		sf->stream = 1;
		return open_file(sf, fd, err);
	}
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			return ws_err_errno(err, "cannot write '%s'", path);
		return open_temp(sf, NULL, err);
	}
	if (S_ISREG(st.st_mode))
		return open_temp(sf, &st, err);
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
		return open_stream(sf, &st, err);
	return refuse(path, st.st_mode, flags, err);
}

int ws_safefile_check(const char *path, unsigned flags, ws_err *err)
{
	struct stat st;
	if ((flags & WS_SAFEFILE_DASH) && !strcmp(path, "-"))
		return 0;
	if (*path && lstat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		return access(path, W_OK) == 0 ? 0 : ws_err_errno(err, "cannot write '%s'", path);
	ws_safefile sf;
	int rc = ws_safefile_open(&sf, path, flags, err);
	ws_safefile_abort(&sf);
	return rc;
}

void ws_safefile_abort(ws_safefile *sf)
{
	if (sf->f)
		fclose(sf->f);
	sf->f = NULL;
	if (sf->tmp[0])
		unlink(sf->tmp);
	sf->tmp[0] = 0;
}

static int fsync_dir(const char *path, ws_err *err)
{
	char dir[WS_SAFEFILE_PATH_MAX];
	dir_of(path, dir, sizeof dir);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return ws_err_errno(err, "'%s' written, but its directory '%s' could not be synced",
				    path, dir);
	int r = fsync(fd) < 0 && errno != EINVAL
		? ws_err_errno(err, "'%s' written, but syncing its directory '%s' failed", path,
			       dir)
		: 0;
	close(fd);
	return r;
}

int ws_safefile_commit(ws_safefile *sf, ws_err *err)
{
	if (!sf->f)
		return ws_err_set(err, WS_E_INVAL, "'%s' is not open", sf->path);
	int e = 0, fd = fileno(sf->f);
	errno = 0;
	if (fflush(sf->f) != 0 || ferror(sf->f))
		e = errno ? errno : EIO;
	else if (!sf->stream &&
		 ((sf->mode >= 0 && fchmod(fd, (mode_t)sf->mode) < 0) || fsync(fd) < 0))
		e = errno;
	if (fclose(sf->f) != 0 && !e)
		e = errno;
	sf->f = NULL;
	if (e) {
		errno = e;
		int r = ws_err_errno(err, "writing '%s'", sf->path);
		ws_safefile_abort(sf);
		return r;
	}
	if (sf->stream)
		return 0;
	if (rename(sf->tmp, sf->path) < 0) {
		int r = ws_err_errno(err, "cannot replace '%s'", sf->path);
		ws_safefile_abort(sf);
		return r;
	}
	sf->tmp[0] = 0;
	return fsync_dir(sf->path, err);
}

int ws_safefile_open_read(const char *path, const char *what, long long *size, ws_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ws_err_errno(err, "%s '%s'", what, path);
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int r = ws_err_errno(err, "%s '%s'", what, path);
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ws_err_set(err, WS_E_INVAL,
				  "%s '%s' is %s: warpspeed reads regular files "
				  "only (their size is checked before they are read)",
				  what, path, kind_name(st.st_mode));
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int r = ws_err_errno(err, "%s '%s'", what, path);
		close(fd);
		return r;
	}
	*size = (long long)st.st_size;
	return fd;
}
