/* SPDX-License-Identifier: BSD-2-Clause */
/* psk: loading the pre-shared key, the kernel's random bytes, and the proof; see psk.h.
 *
 * The key file is opened with O_NOFOLLOW and checked with fstat on the open descriptor,
 * so the file whose mode is checked is the file that is read: a symlink is refused (a
 * link can point anywhere, and its own mode says nothing about the target), and
 * O_NONBLOCK keeps a FIFO put in the key's place from hanging the open before fstat
 * refuses it as not a regular file. */
#include "util/psk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define WS_HAVE_GETRANDOM 1
#endif
#endif
#ifndef WS_HAVE_GETRANDOM
#define WS_HAVE_GETRANDOM 0
#endif

#define PROOF_LABEL "warpspeed-auth-v1 "

/* Room for the largest key plus the "\r\n" that is stripped, plus one byte that shows
 * the file is longer still. */
#define READ_MAX (WS_PSK_MAX + 3)

static int read_all(int fd, uint8_t *buf, size_t cap, size_t *got, const char *path, ws_err *err)
{
	size_t n = 0;
	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ws_err_errno(err, "reading key file %s", path);
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*got = n;
	return 0;
}

/* Drop one trailing "\n" or "\r\n", the line end an editor or `echo` leaves. */
static size_t strip_line_end(const uint8_t *buf, size_t n)
{
	if (n && buf[n - 1] == '\n') {
		n--;
		if (n && buf[n - 1] == '\r')
			n--;
	}
	return n;
}

static int check_file(int fd, const char *path, ws_err *err)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return ws_err_errno(err, "key file %s: fstat", path);
	if (!S_ISREG(st.st_mode))
		return ws_err_set(err, WS_E_INVAL,
				  "key file %s is not a regular file (file type %06o); give a "
				  "plain file holding the key",
				  path, (unsigned)(st.st_mode & S_IFMT));
	if (st.st_mode & 077)
		return ws_err_set(err, WS_E_INVAL,
				  "key file %s has mode %04o, open to group or others; the key "
				  "must be readable by its owner only: chmod 600 %s",
				  path, (unsigned)(st.st_mode & 07777), path);
	if (st.st_size > (off_t)(WS_PSK_MAX + 2))
		return ws_err_set(err, WS_E_INVAL,
				  "key file %s is %lld bytes; a key is 1 to %d bytes (plus one "
				  "trailing newline)",
				  path, (long long)st.st_size, WS_PSK_MAX);
	return 0;
}

int ws_psk_load_file(const char *path, ws_psk *k, ws_err *err)
{
	if (!path || !*path)
		return ws_err_set(err, WS_E_INVAL,
				  "empty key file name; give the path of a "
				  "file holding the key");
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return ws_err_set(err, WS_E_INVAL,
				  "key file %s is a symbolic link; give the path of the file "
				  "itself, so its own mode (600) is what is checked",
				  path);
	if (fd < 0)
		return ws_err_errno(err, "opening key file %s", path);

	uint8_t buf[READ_MAX];
	size_t n = 0;
	int rc = check_file(fd, path, err);
	if (rc == 0)
		rc = read_all(fd, buf, sizeof(buf), &n, path, err);
	close(fd);
	if (rc == 0) {
		n = strip_line_end(buf, n);
		if (n == 0)
			rc = ws_err_set(err, WS_E_INVAL,
					"key file %s holds no key (empty, or a newline only); "
					"put 1 to %d bytes of key in it",
					path, WS_PSK_MAX);
		else if (n > WS_PSK_MAX) /* the file grew after fstat */
			rc = ws_err_set(err, WS_E_INVAL,
					"key file %s holds more than %d bytes; a key is 1 to %d "
					"bytes",
					path, WS_PSK_MAX, WS_PSK_MAX);
	}
	if (rc == 0) {
		memcpy(k->key, buf, n);
		k->len = n;
		snprintf(k->origin, sizeof(k->origin), "key file %s", path);
		k->cleartext_ok = false;
	}
	ws_wipe(buf, sizeof(buf));
	return rc;
}

int ws_psk_from_passphrase(const char *pass, ws_psk *k, ws_err *err)
{
	size_t n = pass ? strnlen(pass, WS_PSK_MAX + 1) : 0;
	if (n == 0)
		return ws_err_set(err, WS_E_INVAL, "empty -Z passphrase; give 1 to %d characters",
				  WS_PSK_MAX);
	if (n > WS_PSK_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "-Z passphrase is longer than %d characters; give 1 to %d "
				  "(or a longer key in a key file with --psk-file)",
				  WS_PSK_MAX, WS_PSK_MAX);
	memcpy(k->key, pass, n);
	k->len = n;
	snprintf(k->origin, sizeof(k->origin), "-Z passphrase");
	k->cleartext_ok = true;
	return 0;
}

/* /dev/urandom, for a libc without getrandom or a kernel older than 3.17. */
static int urandom_bytes(uint8_t *p, size_t n, ws_err *err)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ws_err_errno(err, "random bytes: no getrandom and no /dev/urandom");
	size_t got = 0;
	int rc = read_all(fd, p, n, &got, "/dev/urandom", err);
	close(fd);
	if (rc == 0 && got != n)
		rc = ws_err_set(err, EIO, "random bytes: /dev/urandom gave %zu of %zu bytes", got,
				n);
	return rc;
}

int ws_random_bytes(void *buf, size_t n, ws_err *err)
{
	uint8_t *p = buf;
#if WS_HAVE_GETRANDOM
	size_t got = 0;
	while (got < n) {
		ssize_t r = getrandom(p + got, n - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ENOSYS)
			return urandom_bytes(p + got, n - got, err);
		if (r < 0)
			return ws_err_errno(err, "random bytes: getrandom");
		if (r == 0)
			return ws_err_set(err, EIO, "random bytes: getrandom returned nothing");
		got += (size_t)r;
	}
	return 0;
#else
	return urandom_bytes(p, n, err);
#endif
}

void ws_psk_proof(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		  const uint8_t nd[WS_NONCE_LEN], const void *bind, size_t bind_len,
		  uint8_t out[WS_SHA256_LEN])
{
	ws_hmac_sha256_ctx c;
	if (!role)
		role = "";
	ws_hmac_sha256_init(&c, k->key, k->len);
	ws_hmac_sha256_update(&c, PROOF_LABEL, sizeof(PROOF_LABEL) - 1);
	ws_hmac_sha256_update(&c, role, strlen(role) + 1); /* with its NUL */
	ws_hmac_sha256_update(&c, nc, WS_NONCE_LEN);
	ws_hmac_sha256_update(&c, nd, WS_NONCE_LEN);
	ws_hmac_sha256_update(&c, bind, bind_len);
	ws_hmac_sha256_final(&c, out);
}

void ws_psk_wipe(ws_psk *k)
{
	ws_wipe(k->key, sizeof(k->key));
	k->len = 0;
}
