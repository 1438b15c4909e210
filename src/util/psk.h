/* psk: the pre-shared key that daemon and client prove to each other, and its proofs.
 *
 * A key comes from a file the owner alone can read (-z FILE style options) or from a
 * passphrase given on the command line; either way it is held as raw bytes with a
 * sentence saying where it came from, for error messages. A proof is
 * HMAC-SHA256(key, "warpspeed-auth-v1 " role "\0" || nc || nd || bind): both nonces and
 * the caller's binding bytes (e.g. the session's addresses) are covered, and the role
 * string keeps a client's proof from being replayed as the daemon's. */
#ifndef WS_UTIL_PSK_H
#define WS_UTIL_PSK_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/sha256.h"

#define WS_PSK_MAX 4096
#define WS_NONCE_LEN 32

typedef struct ws_psk {
	uint8_t key[WS_PSK_MAX];
	size_t len;
	char origin[160];   /* "key file PATH" or "-Z passphrase" */
} ws_psk;

/* Load a key file: opened with O_NOFOLLOW (a symlink is refused, so the mode checked is
 * the mode of the file read), must be a regular file with no group/other permission bits
 * (st_mode & 077 == 0), 1..WS_PSK_MAX bytes after stripping one trailing "\n" or "\r\n".
 * The bytes are used as they are (binary keys allowed). */
int ws_psk_load_file(const char *path, ws_psk *k, struct ws_err *err);

/* The passphrase bytes (without the NUL) as the key; empty or over WS_PSK_MAX refused. */
int ws_psk_from_passphrase(const char *pass, ws_psk *k, struct ws_err *err);

/* Fill buf from the kernel's CSPRNG (getrandom), looping on short reads and EINTR. */
int ws_random_bytes(void *buf, size_t n, struct ws_err *err);

/* out = HMAC-SHA256(key, "warpspeed-auth-v1 " role "\0" || nc || nd || bind). */
void ws_psk_proof(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		  const uint8_t nd[WS_NONCE_LEN], const void *bind, size_t bind_len,
		  uint8_t out[WS_SHA256_LEN]);

/* Zero the key through a volatile pointer (not optimised away) and clear len. */
void ws_psk_wipe(ws_psk *k);

#endif
