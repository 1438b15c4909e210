/* SPDX-License-Identifier: BSD-2-Clause */
/* test_sha256: the hash, the MAC and the compare the PSK authentication rests on.
 *
 * SHA-256 is checked against the FIPS 180-4 / NIST example messages, each hashed in one
 * call and again fed in every two-way split and byte by byte, plus the million 'a' in
 * uneven chunks and the lengths around the 56-byte padding boundary. HMAC-SHA256 is
 * checked against all seven RFC 4231 cases, plus keys of exactly one block and one byte
 * more (where "hash the key first" starts), one-shot and streamed. */
#include "harness.h"

#include "util/sha256.h"

#include <stdlib.h>

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;
	for (; hex[0] && hex[1] && n < cap; hex += 2) {
		char b[3] = {hex[0], hex[1], 0};
		out[n++] = (uint8_t)strtoul(b, NULL, 16);
	}
	return n;
}

static void check_digest(const char *t, const uint8_t got[WS_SHA256_LEN], const char *want_hex)
{
	uint8_t want[WS_SHA256_LEN];
	CHECK_INT(t, unhex(want_hex, want, sizeof(want)), WS_SHA256_LEN);
	CHECK_MEM(t, got, want, WS_SHA256_LEN);
}

/* One-shot, every split into two updates, and one byte per update. */
static void sha_all_ways(const char *t, const void *msg, size_t n, const char *want_hex)
{
	uint8_t out[WS_SHA256_LEN];
	ws_sha256(msg, n, out);
	check_digest(t, out, want_hex);

	const uint8_t *m = msg;
	for (size_t cut = 0; cut <= n; cut++) {
		ws_sha256_ctx c;
		ws_sha256_init(&c);
		ws_sha256_update(&c, m, cut);
		ws_sha256_update(&c, m + cut, n - cut);
		ws_sha256_final(&c, out);
		check_digest(t, out, want_hex);
	}
	ws_sha256_ctx c;
	ws_sha256_init(&c);
	for (size_t i = 0; i < n; i++)
		ws_sha256_update(&c, m + i, 1);
	ws_sha256_final(&c, out);
	check_digest(t, out, want_hex);
}

/* FIPS 180-4 examples (NIST CSRC "Examples with intermediate values", SHA256.pdf and
 * SHA2_Additional): the empty message, "abc" (one block), the 448-bit message (the
 * length field no longer fits: two blocks) and the 896-bit message. */
static void test_nist_vectors(void)
{
	const char *t = "nist_vectors";
	sha_all_ways(t, "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha_all_ways(t, "abc", 3,
		     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	CHECK_INT(t, strlen(m448) * 8, 448);
	sha_all_ways(t, m448, strlen(m448),
		     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
			   "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	CHECK_INT(t, strlen(m896) * 8, 896);
	sha_all_ways(t, m896, strlen(m896),
		     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* One million 'a' (the NIST long message), fed in chunks of 1, 7, 63, 64, 65, 1000 and
 * 4097 bytes in turn so that every buffer state meets every chunk shape. */
static void test_million_a(void)
{
	const char *t = "million_a";
	static uint8_t chunk[4097];
	static const size_t sizes[] = {1, 7, 63, 64, 65, 1000, 4097};
	memset(chunk, 'a', sizeof(chunk));
	ws_sha256_ctx c;
	ws_sha256_init(&c);
	size_t left = 1000000, k = 0;
	while (left) {
		size_t n = sizes[k++ % (sizeof(sizes) / sizeof(sizes[0]))];
		if (n > left)
			n = left;
		ws_sha256_update(&c, chunk, n);
		left -= n;
	}
	CHECK_U64(t, c.len, 1000000);
	uint8_t out[WS_SHA256_LEN];
	ws_sha256_final(&c, out);
	check_digest(t, out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* 55 bytes pad in one block, 56..63 need a second; 64 and 65 straddle a whole block.
 * Digests from coreutils sha256sum (e.g. `head -c 56 /dev/zero | tr '\0' a | sha256sum`). */
static void test_padding_boundary(void)
{
	const char *t = "padding_boundary";
	static const struct {
		size_t n;
		const char *hex;
	} cases[] = {
		{55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
		{56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
		{63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
		{64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
		{65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
	};
	uint8_t a[65];
	memset(a, 'a', sizeof(a));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		sha_all_ways(t, a, cases[i].n, cases[i].hex);
}

/* Unaligned input must hash the same as aligned input (no word loads from p). */
static void test_unaligned_input(void)
{
	const char *t = "unaligned_input";
	uint8_t buf[64 * 3 + 8], ref[WS_SHA256_LEN], out[WS_SHA256_LEN];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	for (size_t off = 1; off < 8; off++) {
		memmove(buf + off, buf, 64 * 3);
		ws_sha256(buf + off, 64 * 3, out);
		memmove(buf, buf + off, 64 * 3);
		ws_sha256(buf, 64 * 3, ref);
		CHECK_MEM(t, out, ref, WS_SHA256_LEN);
	}
}

static void test_final_wipes_context(void)
{
	const char *t = "final_wipes_context";
	ws_sha256_ctx c;
	uint8_t out[WS_SHA256_LEN], zero[sizeof(c)];
	memset(zero, 0, sizeof(zero));
	ws_sha256_init(&c);
	ws_sha256_update(&c, "secret key material", 19);
	ws_sha256_final(&c, out);
	CHECK_MEM(t, &c, zero, sizeof(c));
}

struct hmac_case {
	const char *key_hex; /* NULL: key_fill repeated key_n times */
	uint8_t key_fill;
	size_t key_n;
	const char *data_hex; /* NULL: data_fill repeated data_n times */
	uint8_t data_fill;
	size_t data_n;
	const char *mac_hex;
	size_t mac_n; /* compared bytes: 16 for the truncated case 5 */
};

/* RFC 4231 section 4.2 to 4.8 (https://www.rfc-editor.org/rfc/rfc4231#section-4),
 * HMAC-SHA-256 lines, typed from the RFC's hex; found with the search tool and
 * cross-checked against several published test suites holding the same seven values
 * (e.g. the phkdf package's test/HMAC.hs on hackage.haskell.org). Case 5 is given in the
 * RFC truncated to 128 bits, and is compared so. */
static const struct hmac_case rfc4231[] = {
	/* 4.2 Test Case 1: key 0x0b x 20, "Hi There" */
	{NULL, 0x0b, 20, "4869205468657265", 0, 0,
	 "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 32},
	/* 4.3 Test Case 2: key "Jefe", "what do ya want for nothing?" */
	{"4a656665", 0, 0, "7768617420646f2079612077616e7420666f72206e6f7468696e673f", 0, 0,
	 "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 32},
	/* 4.4 Test Case 3: key 0xaa x 20, data 0xdd x 50 */
	{NULL, 0xaa, 20, NULL, 0xdd, 50,
	 "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 32},
	/* 4.5 Test Case 4: key 0x01..0x19, data 0xcd x 50 */
	{"0102030405060708090a0b0c0d0e0f10111213141516171819", 0, 0, NULL, 0xcd, 50,
	 "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 32},
	/* 4.6 Test Case 5: key 0x0c x 20, "Test With Truncation", 128-bit output */
	{NULL, 0x0c, 20, "546573742057697468205472756e636174696f6e", 0, 0,
	 "a3b6167473100ee06e0c796c2955552b", 16},
	/* 4.7 Test Case 6: key 0xaa x 131 (hashed first),
	 * "Test Using Larger Than Block-Size Key - Hash Key First" */
	{NULL, 0xaa, 131,
	 "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a"
	 "65204b6579202d2048617368204b6579204669727374",
	 0, 0, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", 32},
	/* 4.8 Test Case 7: key 0xaa x 131, "This is a test using a larger than block-size
	 * key and a larger than block-size data. The key needs to be hashed before being
	 * used by the HMAC algorithm." */
	{NULL, 0xaa, 131,
	 "5468697320697320612074657374207573696e672061206c6172676572207468"
	 "616e20626c6f636b2d73697a65206b657920616e642061206c61726765722074"
	 "68616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565"
	 "647320746f20626520686173686564206265666f7265206265696e6720757365"
	 "642062792074686520484d414320616c676f726974686d2e",
	 0, 0, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", 32},
};

static size_t fill_or_hex(const char *hex, uint8_t fill, size_t n, uint8_t *out, size_t cap)
{
	if (hex)
		return unhex(hex, out, cap);
	memset(out, fill, n);
	return n;
}

static void test_rfc4231(void)
{
	const char *t = "rfc4231";
	for (size_t i = 0; i < sizeof(rfc4231) / sizeof(rfc4231[0]); i++) {
		const struct hmac_case *hc = &rfc4231[i];
		uint8_t key[200], data[200], want[WS_SHA256_LEN], out[WS_SHA256_LEN];
		size_t kn = fill_or_hex(hc->key_hex, hc->key_fill, hc->key_n, key, sizeof(key));
		size_t dn = fill_or_hex(hc->data_hex, hc->data_fill, hc->data_n, data,
					sizeof(data));
		CHECK_INT(t, unhex(hc->mac_hex, want, sizeof(want)), hc->mac_n);

		ws_hmac_sha256(key, kn, data, dn, out);
		if (memcmp(out, want, hc->mac_n) != 0)
			printf("  RFC 4231 test case %zu differs\n", i + 1);
		CHECK_MEM(t, out, want, hc->mac_n);

		/* The same MAC with the message streamed in three pieces. */
		ws_hmac_sha256_ctx c;
		memset(out, 0, sizeof(out));
		ws_hmac_sha256_init(&c, key, kn);
		ws_hmac_sha256_update(&c, data, dn / 3);
		ws_hmac_sha256_update(&c, data + dn / 3, dn / 3);
		ws_hmac_sha256_update(&c, data + 2 * (dn / 3), dn - 2 * (dn / 3));
		ws_hmac_sha256_final(&c, out);
		CHECK_MEM(t, out, want, hc->mac_n);
	}
}

/* A 64-byte key is used as it is, a 65-byte key is hashed first; the two sides of that
 * boundary. MACs from Python's hmac module:
 * hmac.new(bytes(range(64)), b"key at the block boundary", hashlib.sha256). */
static void test_hmac_block_boundary(void)
{
	const char *t = "hmac_block_boundary";
	const char *msg = "key at the block boundary";
	uint8_t key[65], out[WS_SHA256_LEN];
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)i;
	ws_hmac_sha256(key, 64, msg, strlen(msg), out);
	check_digest(t, out, "24646c23e2030ff78a32e4815dcd66c5948f0eec39319d4336ea0bfba908965e");
	ws_hmac_sha256(key, 65, msg, strlen(msg), out);
	check_digest(t, out, "ce311ed6ad5570ca99b07c37350a412c528a9405b4cb4888a71a24a9402a9193");
}

static void test_ct_equal(void)
{
	const char *t = "ct_equal";
	uint8_t a[WS_SHA256_LEN], b[WS_SHA256_LEN];
	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(0xa5 ^ i);
	memcpy(b, a, sizeof(b));
	CHECK_INT(t, ws_ct_equal(a, b, sizeof(a)), 1);
	CHECK_INT(t, ws_ct_equal(a, b, 0), 1);
	/* Every single-bit difference, at every position, is seen. */
	for (size_t i = 0; i < sizeof(a); i++)
		for (int bit = 0; bit < 8; bit++) {
			b[i] ^= (uint8_t)(1u << bit);
			CHECK_INT(t, ws_ct_equal(a, b, sizeof(a)), 0);
			b[i] ^= (uint8_t)(1u << bit);
		}
	/* All bits differing (diff 0xff) and a difference beyond n that must not count. */
	memset(b, 0, sizeof(b));
	memset(a, 0xff, sizeof(a));
	CHECK_INT(t, ws_ct_equal(a, b, sizeof(a)), 0);
	memcpy(b, a, sizeof(b));
	b[31] = 0;
	CHECK_INT(t, ws_ct_equal(a, b, 31), 1);
	CHECK_INT(t, ws_ct_equal(a, b, 32), 0);
}

int main(void)
{
	RUN(test_nist_vectors);
	RUN(test_million_a);
	RUN(test_padding_boundary);
	RUN(test_unaligned_input);
	RUN(test_final_wipes_context);
	RUN(test_rfc4231);
	RUN(test_hmac_block_boundary);
	RUN(test_ct_equal);
	TEST_MAIN_END();
}
