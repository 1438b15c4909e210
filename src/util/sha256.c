/* SPDX-License-Identifier: BSD-2-Clause */
/* sha256: SHA-256 per FIPS 180-4 section 6.2, HMAC per RFC 2104; see sha256.h.
 *
 * Words are assembled from bytes with the big-endian helpers, so the same code is right
 * on PowerPC and on little-endian hosts and never loads through an unaligned pointer.
 * Rotations are only by the constants 2..25, so no shift reaches the word width. */
#include "util/sha256.h"

#include "util/bytes.h"

#include <string.h>

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
/* clang-format off */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};
/* clang-format on */

/* FIPS 180-4 5.3.3: the initial hash value. */
static const uint32_t H0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

#define ROTR(x, n)   (((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z)  (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x)     (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x)     (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x)     (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x)     (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

/* One 64-byte block into the hash state (FIPS 180-4 6.2.2). */
static void compress(uint32_t h[8], const uint8_t blk[WS_SHA256_BLOCK])
{
	uint32_t w[64];
	for (int t = 0; t < 16; t++)
		w[t] = ws_get_be32(blk + 4 * t);
	for (int t = 16; t < 64; t++)
		w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) + w[t - 16];

	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
	uint32_t e = h[4], f = h[5], g = h[6], k = h[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = k + BSIG1(e) + CH(e, f, g) + K[t] + w[t];
		uint32_t t2 = BSIG0(a) + MAJ(a, b, c);
		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += k;
}

void ws_sha256_init(ws_sha256_ctx *c)
{
	memcpy(c->h, H0, sizeof(c->h));
	c->len = 0;
	c->fill = 0;
}

void ws_sha256_update(ws_sha256_ctx *c, const void *p, size_t n)
{
	const uint8_t *in = p;
	if (!n)
		return; /* p may be NULL then; memcpy must not see it */
	c->len += n;
	if (c->fill) {
		size_t take = 64 - c->fill < n ? 64 - c->fill : n;
		memcpy(c->buf + c->fill, in, take);
		c->fill += take;
		in += take;
		n -= take;
		if (c->fill < 64)
			return;
		compress(c->h, c->buf);
		c->fill = 0;
	}
	for (; n >= 64; in += 64, n -= 64)
		compress(c->h, in);
	if (n) {
		memcpy(c->buf, in, n);
		c->fill = n;
	}
}

void ws_wipe(void *p, size_t n)
{
	volatile uint8_t *v = p;
	while (n--)
		*v++ = 0;
}

void ws_sha256_final(ws_sha256_ctx *c, uint8_t out[WS_SHA256_LEN])
{
	/* FIPS 180-4 5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the length in bits. The
	 * length is mod 2^64 bits, as the standard allows messages below 2^64 bits only. */
	uint64_t bits = c->len << 3;
	c->buf[c->fill++] = 0x80;
	if (c->fill > 56) {
		memset(c->buf + c->fill, 0, 64 - c->fill);
		compress(c->h, c->buf);
		c->fill = 0;
	}
	memset(c->buf + c->fill, 0, 56 - c->fill);
	ws_put_be64(c->buf + 56, bits);
	compress(c->h, c->buf);
	for (int i = 0; i < 8; i++)
		ws_put_be32(out + 4 * i, c->h[i]);
	ws_wipe(c, sizeof(*c));
}

void ws_sha256(const void *p, size_t n, uint8_t out[WS_SHA256_LEN])
{
	ws_sha256_ctx c;
	ws_sha256_init(&c);
	ws_sha256_update(&c, p, n);
	ws_sha256_final(&c, out);
}

void ws_hmac_sha256_init(ws_hmac_sha256_ctx *c, const void *key, size_t klen)
{
	uint8_t k0[WS_SHA256_BLOCK] = {0}, ipad[WS_SHA256_BLOCK];

	/* RFC 2104 section 2: a key longer than the block B = 64 is replaced by its hash,
	 * then the key is zero-padded to B bytes. */
	if (klen > sizeof(k0))
		ws_sha256(key, klen, k0);
	else if (klen)
		memcpy(k0, key, klen);
	for (size_t i = 0; i < sizeof(k0); i++) {
		ipad[i] = (uint8_t)(k0[i] ^ 0x36);
		c->opad[i] = (uint8_t)(k0[i] ^ 0x5c);
	}
	ws_sha256_init(&c->inner);
	ws_sha256_update(&c->inner, ipad, sizeof(ipad));
	ws_wipe(k0, sizeof(k0));
	ws_wipe(ipad, sizeof(ipad));
}

void ws_hmac_sha256_update(ws_hmac_sha256_ctx *c, const void *p, size_t n)
{
	ws_sha256_update(&c->inner, p, n);
}

void ws_hmac_sha256_final(ws_hmac_sha256_ctx *c, uint8_t out[WS_SHA256_LEN])
{
	uint8_t ih[WS_SHA256_LEN];
	ws_sha256_ctx outer;

	ws_sha256_final(&c->inner, ih);
	ws_sha256_init(&outer);
	ws_sha256_update(&outer, c->opad, sizeof(c->opad));
	ws_sha256_update(&outer, ih, sizeof(ih));
	ws_sha256_final(&outer, out);
	ws_wipe(ih, sizeof(ih));
	ws_wipe(c, sizeof(*c));
}

void ws_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		    uint8_t out[WS_SHA256_LEN])
{
	ws_hmac_sha256_ctx c;
	ws_hmac_sha256_init(&c, key, klen);
	ws_hmac_sha256_update(&c, msg, mlen);
	ws_hmac_sha256_final(&c, out);
}

int ws_ct_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t diff = 0;
	for (size_t i = 0; i < n; i++)
		diff |= (uint8_t)(x[i] ^ y[i]);
	/* 1 when diff == 0, computed without a branch: (diff - 1) >> 8 is all ones only
	 * for diff 0 in the 9+ bits of an unsigned int. */
	return (int)((((unsigned)diff - 1u) >> 8) & 1u);
}
