/* SPDX-License-Identifier: BSD-2-Clause */
/* sha256: SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104) and a constant-time compare.
 *
 * The daemon and the node authenticate peers with a pre-shared key, and the static
 * PowerPC and aarch64 builds link no crypto library, so the hash lives here, written
 * from the standard: streaming (any split of the input gives the same digest), byte
 * loads through src/util/bytes.h only (no unaligned casts, correct on big-endian), and
 * no shifts by the word width. ws_ct_equal compares MACs without an early exit. */
#ifndef WS_UTIL_SHA256_H
#define WS_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define WS_SHA256_LEN   32
#define WS_SHA256_BLOCK 64

/* The streaming context. Its typedef is ws_sha256_ctx, not ws_sha256: a typedef and a
 * function share C's one namespace of ordinary identifiers, and ws_sha256 names the
 * one-shot function below. The struct tag stays struct ws_sha256. */
typedef struct ws_sha256 {
	uint32_t h[8];
	uint64_t len;                 /* bytes hashed so far */
	uint8_t buf[WS_SHA256_BLOCK]; /* the partial block */
	size_t fill;                  /* bytes in buf */
} ws_sha256_ctx;

void ws_sha256_init(ws_sha256_ctx *c);
void ws_sha256_update(ws_sha256_ctx *c, const void *p, size_t n);
/* Writes the digest and wipes the context (init it again to reuse it). */
void ws_sha256_final(ws_sha256_ctx *c, uint8_t out[WS_SHA256_LEN]);
void ws_sha256(const void *p, size_t n, uint8_t out[WS_SHA256_LEN]);

/* HMAC-SHA256 in one call; a key longer than the 64-byte block is hashed first. */
void ws_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		    uint8_t out[WS_SHA256_LEN]);

/* The same HMAC over a message given in pieces (init, any number of updates, final);
 * final wipes the context, including the padded key it holds. */
typedef struct ws_hmac_sha256_ctx {
	ws_sha256_ctx inner;
	uint8_t opad[WS_SHA256_BLOCK]; /* key ^ 0x5c, kept for the outer hash */
} ws_hmac_sha256_ctx;

void ws_hmac_sha256_init(ws_hmac_sha256_ctx *c, const void *key, size_t klen);
void ws_hmac_sha256_update(ws_hmac_sha256_ctx *c, const void *p, size_t n);
void ws_hmac_sha256_final(ws_hmac_sha256_ctx *c, uint8_t out[WS_SHA256_LEN]);

/* 1 when the n bytes are equal, 0 when not; time depends on n only. */
int ws_ct_equal(const void *a, const void *b, size_t n);

/* Zero n bytes through a volatile pointer, so the stores are not dropped as dead. */
void ws_wipe(void *p, size_t n);

#endif
