/* SPDX-License-Identifier: BSD-2-Clause */
/* psk: the pre-shared key that daemon and client prove to each other, and its proofs.
 *
 * A key comes from a file the owner alone can read (--psk-file) or from a passphrase
 * given on the command line (netperf's -Z, a cleartext secret); either way it is held as
 * raw bytes with a phrase saying where it came from, for messages. A proof is
 * HMAC-SHA256(key, "warpspeed-auth-v1 " role "\0" || nc || nd || bind): both nonces and
 * the caller's binding bytes (e.g. the session's addresses) are covered, and the role
 * string keeps a client's proof from being replayed as the daemon's. */
#ifndef WS_UTIL_PSK_H
#define WS_UTIL_PSK_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include <stdbool.h>
#include "util/sha256.h"

#define WS_PSK_MAX   4096
#define WS_NONCE_LEN 32

typedef struct ws_psk {
	uint8_t key[WS_PSK_MAX];
	size_t len;
	char origin[160];  /* "key file PATH" or "-Z passphrase" */
	bool cleartext_ok; /* typed as -Z: netperf sends it in clear, so may we; a key file's
			     * key is proven, never sent */
} ws_psk;

/* Load a key file: opened with O_NOFOLLOW (a symlink is refused, so the mode checked is
 * the mode of the file read) and O_NONBLOCK (a FIFO cannot hang the open), then fstat on
 * the descriptor: it must be a regular file with no group/other permission bits
 * (st_mode & 077 == 0), holding 1..WS_PSK_MAX bytes after one trailing "\n" or "\r\n"
 * is stripped. The bytes are used as they are (binary keys allowed). Returns 0, or
 * -WS_E_INVAL for a file refused by these rules and -errno when it cannot be opened or
 * read; k is written only on success. */
int ws_psk_load_file(const char *path, ws_psk *k, struct ws_err *err);

/* The passphrase bytes (without the NUL) as the key; empty, NULL or over WS_PSK_MAX
 * refused with -WS_E_INVAL, k then untouched. */
int ws_psk_from_passphrase(const char *pass, ws_psk *k, struct ws_err *err);

/* Fill buf from the kernel's CSPRNG (getrandom, blocking until it is seeded), looping on
 * short reads and EINTR; /dev/urandom where getrandom is missing (ENOSYS or an old
 * libc). Returns 0 or a negative code with the reason. */
int ws_random_bytes(void *buf, size_t n, struct ws_err *err);

/* out = HMAC-SHA256(key, "warpspeed-auth-v1 " role "\0" || nc || nd || bind); role NULL
 * counts as "", bind may be NULL when bind_len is 0. Compare proofs with ws_ct_equal. */
void ws_psk_proof(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		  const uint8_t nd[WS_NONCE_LEN], const void *bind, size_t bind_len,
		  uint8_t out[WS_SHA256_LEN]);

/* Zero the whole key buffer through a volatile pointer (not optimised away), len = 0. */
void ws_psk_wipe(ws_psk *k);

#endif
