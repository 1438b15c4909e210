/* SPDX-License-Identifier: BSD-2-Clause */
/* test_psk: the key file rules, the passphrase, the random source and the proof.
 *
 * Key files are real files in a fresh directory under /tmp, with real modes: 600 loads,
 * anything with a group or other bit is refused with a message that names the file, its
 * mode and the chmod that fixes it; one line end is stripped and no more; empty,
 * oversize, directory, symlink and FIFO are refused. The proof is checked byte-exact
 * against an independent HMAC (Python's hmac module) and for its sensitivity to the role,
 * to every nonce byte and to the binding. */
#include "harness.h"

#include "util/err.h"
#include "util/psk.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *path_of(const char *name)
{
	static char p[128];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static const char *write_key(const char *name, const void *data, size_t n, mode_t mode)
{
	const char *p = path_of(name);
	unlink(p);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n) {
		printf("  cannot write %s: %s\n", p, strerror(errno));
		exit(1);
	}
	close(fd);
	chmod(p, mode);
	return p;
}

/* The load must succeed with exactly these key bytes. */
static void load_ok(const char *t, const char *p, const void *want, size_t want_n)
{
	static ws_psk k;
	ws_err err = {0};
	int rc = ws_psk_load_file(p, &k, &err);
	if (rc != 0)
		printf("  %s: %s\n", p, err.msg);
	CHECK_INT(t, rc, 0);
	CHECK_U64(t, k.len, want_n);
	CHECK_MEM(t, k.key, want, want_n);
	char origin[160];
	snprintf(origin, sizeof(origin), "key file %s", p);
	CHECK_STR(t, k.origin, origin);
}

/* The load must fail with -WS_E_INVAL, leave the record as it was, and say msg_part. */
static void load_bad(const char *t, const char *p, int want_rc, const char *msg_part)
{
	static ws_psk k;
	ws_err err = {0};
	memset(&k, 0x5a, sizeof(k));
	k.len = 7;
	int rc = ws_psk_load_file(p, &k, &err);
	CHECK_INT(t, rc, want_rc);
	CHECK_INT(t, err.code, want_rc);
	CHECK_U64(t, k.len, 7);
	CHECK_INT(t, k.key[0], 0x5a);
	if (!strstr(err.msg, msg_part))
		printf("  %s: message [%s] lacks [%s]\n", p, err.msg, msg_part);
	CHECK(t, strstr(err.msg, msg_part) != NULL);
}

static void test_mode_600_loads(void)
{
	const char *t = "mode_600_loads";
	load_ok(t, write_key("k600", "s3cret", 6, 0600), "s3cret", 6);
	load_ok(t, write_key("k400", "s3cret", 6, 0400), "s3cret", 6);
}

static void test_group_other_refused(void)
{
	const char *t = "group_other_refused";
	static const mode_t modes[] = {0644, 0640, 0604, 0620, 0602, 0610, 0601};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char name[16], want[300];
		snprintf(name, sizeof(name), "k%o", (unsigned)modes[i]);
		const char *p = write_key(name, "s3cret", 6, modes[i]);
		/* The message names the file, its mode in octal and the fix. */
		snprintf(want, sizeof(want), "key file %s has mode %04o", p, (unsigned)modes[i]);
		load_bad(t, p, -WS_E_INVAL, want);
		load_bad(t, p, -WS_E_INVAL, "chmod 600");
	}
	/* The exact sentence, once. */
	static ws_psk k;
	ws_err err = {0};
	const char *p = write_key("k644", "s3cret", 6, 0644);
	CHECK_INT(t, ws_psk_load_file(p, &k, &err), -WS_E_INVAL);
	char want[300];
	snprintf(want, sizeof(want),
		 "key file %s has mode 0644, open to group or others; the key must be readable "
		 "by its owner only: chmod 600 %s",
		 p, p);
	CHECK_STR(t, err.msg, want);
}

static void test_line_end_stripped_once(void)
{
	const char *t = "line_end_stripped_once";
	load_ok(t, write_key("nl", "s3cret\n", 7, 0600), "s3cret", 6);
	load_ok(t, write_key("crlf", "s3cret\r\n", 8, 0600), "s3cret", 6);
	load_ok(t, write_key("nlnl", "s3cret\n\n", 8, 0600), "s3cret\n", 7);
	load_ok(t, write_key("cr", "s3cret\r", 7, 0600), "s3cret\r", 7);
	load_ok(t, write_key("crcrlf", "s3cret\r\r\n", 9, 0600), "s3cret\r", 7);
	load_ok(t, write_key("lfcr", "s3cret\n\r", 8, 0600), "s3cret\n\r", 8);
	load_ok(t, write_key("mid", "s3\ncr\r\net", 9, 0600), "s3\ncr\r\net", 9);
	load_ok(t, write_key("sp", " s3cret \n", 9, 0600), " s3cret ", 8);
	/* Binary keys keep every byte, NULs and 0xff included. */
	static const uint8_t bin[] = {0x00, 0xff, 0x0a, 0x0d, 0x00, 0x80, 0x7f, 0x01};
	load_ok(t, write_key("bin", bin, sizeof(bin), 0600), bin, sizeof(bin));
}

static void test_empty_refused(void)
{
	const char *t = "empty_refused";
	load_bad(t, write_key("empty", "", 0, 0600), -WS_E_INVAL, "holds no key");
	load_bad(t, write_key("nlonly", "\n", 1, 0600), -WS_E_INVAL, "holds no key");
	load_bad(t, write_key("crlfonly", "\r\n", 2, 0600), -WS_E_INVAL, "holds no key");
	load_bad(t, "", -WS_E_INVAL, "empty key file name");
	load_bad(t, NULL, -WS_E_INVAL, "empty key file name");
}

static void test_size_limit(void)
{
	const char *t = "size_limit";
	static uint8_t big[WS_PSK_MAX + 3];
	memset(big, 'k', sizeof(big));
	load_ok(t, write_key("max", big, WS_PSK_MAX, 0600), big, WS_PSK_MAX);
	big[WS_PSK_MAX] = '\r';
	big[WS_PSK_MAX + 1] = '\n';
	load_ok(t, write_key("maxcrlf", big, WS_PSK_MAX + 2, 0600), big, WS_PSK_MAX);
	big[WS_PSK_MAX] = '\n';
	load_ok(t, write_key("maxnl", big, WS_PSK_MAX + 1, 0600), big, WS_PSK_MAX);

	memset(big, 'k', sizeof(big));
	char want[64];
	snprintf(want, sizeof(want), "is %d bytes; a key is 1 to %d bytes", WS_PSK_MAX + 3,
		 WS_PSK_MAX);
	load_bad(t, write_key("over3", big, WS_PSK_MAX + 3, 0600), -WS_E_INVAL, want);
	/* One byte over, even with a line end after it (size passes fstat, not the key). */
	big[WS_PSK_MAX + 1] = '\n';
	load_bad(t, write_key("over1nl", big, WS_PSK_MAX + 2, 0600), -WS_E_INVAL,
		 "more than 4096 bytes");
	load_bad(t, write_key("over1", big, WS_PSK_MAX + 1, 0600), -WS_E_INVAL,
		 "more than 4096 bytes");
}

static void test_not_regular_refused(void)
{
	const char *t = "not_regular_refused";
	const char *d = path_of("adir");
	mkdir(d, 0700);
	load_bad(t, d, -WS_E_INVAL, "is not a regular file");

	const char *f = path_of("afifo");
	unlink(f);
	if (mkfifo(f, 0600) == 0) /* must not hang waiting for a writer */
		load_bad(t, f, -WS_E_INVAL, "is not a regular file");
	else
		printf("  mkfifo: %s (FIFO case not run)\n", strerror(errno));

	/* A symlink is refused even to a good 600 file: its mode is not what is read. */
	const char *target = write_key("target", "s3cret", 6, 0600);
	char tgt[128];
	snprintf(tgt, sizeof(tgt), "%s", target);
	const char *l = path_of("alink");
	unlink(l);
	CHECK_INT(t, symlink(tgt, l), 0);
	load_bad(t, l, -WS_E_INVAL, "is a symbolic link");

	load_bad(t, path_of("missing"), -ENOENT, "No such file");
	load_bad(t, path_of("missing"), -ENOENT, "opening key file ");
}

static void test_passphrase(void)
{
	const char *t = "passphrase";
	static ws_psk k;
	ws_err err = {0};
	CHECK_INT(t, ws_psk_from_passphrase("hunter2 with spaces", &k, &err), 0);
	CHECK_U64(t, k.len, 19);
	CHECK_MEM(t, k.key, "hunter2 with spaces", 19);
	CHECK_STR(t, k.origin, "-Z passphrase");

	CHECK_INT(t, ws_psk_from_passphrase("", &k, &err), -WS_E_INVAL);
	CHECK(t, strstr(err.msg, "empty -Z passphrase") != NULL);
	CHECK_INT(t, ws_psk_from_passphrase(NULL, &k, &err), -WS_E_INVAL);

	static char longp[WS_PSK_MAX + 2];
	memset(longp, 'p', WS_PSK_MAX);
	CHECK_INT(t, ws_psk_from_passphrase(longp, &k, &err), 0);
	CHECK_U64(t, k.len, WS_PSK_MAX);
	longp[WS_PSK_MAX] = 'p';
	CHECK_INT(t, ws_psk_from_passphrase(longp, &k, &err), -WS_E_INVAL);
	CHECK(t, strstr(err.msg, "longer than 4096") != NULL);
	CHECK(t, strstr(err.msg, "--psk-file") != NULL);
}

static void test_random_bytes(void)
{
	const char *t = "random_bytes";
	uint8_t a[WS_NONCE_LEN + 1], b[WS_NONCE_LEN + 1], zero[WS_NONCE_LEN] = {0};
	ws_err err = {0};
	a[WS_NONCE_LEN] = 0xee;
	CHECK_INT(t, ws_random_bytes(a, WS_NONCE_LEN, &err), 0);
	CHECK_INT(t, ws_random_bytes(b, WS_NONCE_LEN, &err), 0);
	CHECK_INT(t, a[WS_NONCE_LEN], 0xee); /* nothing written past n */
	CHECK(t, memcmp(a, b, WS_NONCE_LEN) != 0);
	CHECK(t, memcmp(a, zero, WS_NONCE_LEN) != 0);
	CHECK_INT(t, ws_random_bytes(a, 0, &err), 0);

	/* A large request is looped to completion: the last block is filled too. */
	static uint8_t big[1 << 20];
	CHECK_INT(t, ws_random_bytes(big, sizeof(big), &err), 0);
	CHECK(t, memcmp(big + sizeof(big) - WS_NONCE_LEN, zero, WS_NONCE_LEN) != 0);
}

/* A passphrase key and the nonces 0..31 (client) and 32..63 (daemon). */
static void proof_inputs(const char *t, ws_psk *k, const char *pass, uint8_t nc[WS_NONCE_LEN],
			 uint8_t nd[WS_NONCE_LEN])
{
	CHECK_INT(t, ws_psk_from_passphrase(pass, k, NULL), 0);
	for (int i = 0; i < WS_NONCE_LEN; i++) {
		nc[i] = (uint8_t)i;
		nd[i] = (uint8_t)(WS_NONCE_LEN + i);
	}
}

/* Expected values from Python:
 * hmac.new(b"correct horse battery staple",
 *          b"warpspeed-auth-v1 client\0" + bytes(range(32)) + bytes(range(32, 64))
 *          + b"127.0.0.1:12865", hashlib.sha256).hexdigest()
 * and the same for role "daemon" with an empty binding. */
static void test_proof_exact(void)
{
	const char *t = "proof_exact";
	static ws_psk k;
	uint8_t nc[WS_NONCE_LEN], nd[WS_NONCE_LEN], out[WS_SHA256_LEN];
	proof_inputs(t, &k, "correct horse battery staple", nc, nd);
	ws_psk_proof(&k, "client", nc, nd, "127.0.0.1:12865", 15, out);
	static const uint8_t client[WS_SHA256_LEN] = {
		0xed, 0x4b, 0x62, 0x1e, 0x3d, 0x36, 0x0d, 0x70, 0x10, 0xff, 0xfb,
		0xd3, 0x96, 0xd4, 0xb9, 0x2e, 0xb1, 0xcc, 0x47, 0x9d, 0x35, 0x71,
		0x87, 0x03, 0x02, 0xa0, 0x73, 0x6c, 0xbc, 0xbe, 0x6a, 0x0a,
	};
	CHECK_MEM(t, out, client, WS_SHA256_LEN);
	ws_psk_proof(&k, "daemon", nc, nd, NULL, 0, out);
	static const uint8_t daemon[WS_SHA256_LEN] = {
		0x5d, 0x74, 0x9e, 0xc6, 0xdd, 0x0c, 0xa5, 0x7e, 0x8b, 0xcf, 0x27,
		0x09, 0x4d, 0xf6, 0xb7, 0xdf, 0x71, 0xb7, 0x86, 0x25, 0xed, 0xb8,
		0x3f, 0x92, 0xb6, 0x6c, 0x2e, 0x2c, 0xbc, 0xe7, 0x97, 0x22,
	};
	CHECK_MEM(t, out, daemon, WS_SHA256_LEN);
	CHECK_INT(t, ws_ct_equal(out, daemon, WS_SHA256_LEN), 1);
}

static void test_proof_sensitivity(void)
{
	const char *t = "proof_sensitivity";
	static ws_psk k;
	uint8_t nc[WS_NONCE_LEN], nd[WS_NONCE_LEN], ref[WS_SHA256_LEN], out[WS_SHA256_LEN];
	proof_inputs(t, &k, "s3cret", nc, nd);
	ws_psk_proof(&k, "client", nc, nd, "bind", 4, ref);

	/* Same inputs, same proof. */
	ws_psk_proof(&k, "client", nc, nd, "bind", 4, out);
	CHECK_MEM(t, out, ref, WS_SHA256_LEN);

	/* The role, and where the role ends (the NUL), are covered. */
	ws_psk_proof(&k, "daemon", nc, nd, "bind", 4, out);
	CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);
	ws_psk_proof(&k, "clien", nc, nd, "bind", 4, out);
	CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);

	/* Every byte of each nonce (one bit flipped) changes the proof. */
	for (int i = 0; i < WS_NONCE_LEN; i++) {
		nc[i] ^= 0x01;
		ws_psk_proof(&k, "client", nc, nd, "bind", 4, out);
		CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);
		nc[i] ^= 0x01;
		nd[i] ^= 0x80;
		ws_psk_proof(&k, "client", nc, nd, "bind", 4, out);
		CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);
		nd[i] ^= 0x80;
	}
	/* Swapping the nonces changes it (order matters). */
	ws_psk_proof(&k, "client", nd, nc, "bind", 4, out);
	CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);

	/* The binding and its length are covered. */
	ws_psk_proof(&k, "client", nc, nd, "bine", 4, out);
	CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);
	ws_psk_proof(&k, "client", nc, nd, "bind", 3, out);
	CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);

	/* And the key. */
	static ws_psk k2;
	CHECK_INT(t, ws_psk_from_passphrase("s3creu", &k2, NULL), 0);
	ws_psk_proof(&k2, "client", nc, nd, "bind", 4, out);
	CHECK(t, memcmp(out, ref, WS_SHA256_LEN) != 0);
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static void test_wipe(void)
{
	const char *t = "wipe";
	static ws_psk k;
	static const uint8_t zero[WS_PSK_MAX];
	CHECK_INT(t, ws_psk_from_passphrase("s3cret", &k, NULL), 0);
	memset(k.key + 6, 0x77, sizeof(k.key) - 6);
	ws_psk_wipe(&k);
	CHECK_U64(t, k.len, 0);
	CHECK_MEM(t, k.key, zero, WS_PSK_MAX);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ws-test-psk-XXXXXX");
	alarm(20); /* a key open that blocks (a FIFO) fails the run instead of hanging it */
	if (!mkdtemp(dir)) {
		printf("FAIL mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(test_mode_600_loads);
	RUN(test_group_other_refused);
	RUN(test_line_end_stripped_once);
	RUN(test_empty_refused);
	RUN(test_size_limit);
	RUN(test_not_regular_refused);
	RUN(test_passphrase);
	RUN(test_random_bytes);
	RUN(test_proof_exact);
	RUN(test_proof_sensitivity);
	RUN(test_wipe);
	if (nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS) != 0)
		printf("  could not remove %s: %s\n", dir, strerror(errno));
	TEST_MAIN_END();
}
