/* SPDX-License-Identifier: BSD-2-Clause */
/* test_tlv: the control frame codec checked against bytes written by hand from the
 * format at the top of tlv.h, every value type round-tripped, and every malformed shape
 * (truncation, lengths past the end or the limit, wrong magic or version) refused with
 * the documented code. A seeded garbage run compares ws_tlv_validate with a small
 * independent model of the format, and runs every getter on exactly-sized heap copies so
 * that ASan sees any read past the payload. */
#include "harness.h"

#include "ctl/tlv.h"
#include "util/err.h"

#include <errno.h>
#include <stdlib.h>

/* A frame parsed back into a message view (header checked, payload validated). */
static int parse_frame(const ws_tlv_writer *w, ws_tlv_msg *m, ws_err *err)
{
	uint8_t type;
	uint32_t len;
	if (w->len < WS_TLV_HDR_LEN)
		return -1;
	int rc = ws_tlv_parse_header(w->buf, &type, &len, err);
	if (rc < 0)
		return rc;
	if (len != w->len - WS_TLV_HDR_LEN)
		return -2;
	m->version = w->buf[4];
	m->type = type;
	m->payload = w->buf + WS_TLV_HDR_LEN;
	m->len = len;
	return ws_tlv_validate(m, err);
}

static void test_encoding_bytes(void)
{
	const char *t = "encoding_bytes";
	static const uint8_t want[] = {
		0x57, 0x53, 0x50, 0x44, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a,
		/* id 0x0102, U64, 0x1122334455667788 */
		0x01, 0x02, 0x01, 0x00, 0x00, 0x08, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		/* id 7, STR "hi" */
		0x00, 0x07, 0x04, 0x00, 0x00, 0x02, 0x68, 0x69,
		/* id 3, I64 -2 */
		0x00, 0x03, 0x02, 0x00, 0x00, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
		/* id 9, F64 1.0 */
		0x00, 0x09, 0x03, 0x00, 0x00, 0x08, 0x3f, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		/* id 0xabcd, BYTES de ad */
		0xab, 0xcd, 0x05, 0x00, 0x00, 0x02, 0xde, 0xad,
	};
	ws_tlv_writer w = {0};
	ws_err err = {0};
	static const uint8_t dead[] = {0xde, 0xad};
	ws_tlv_begin(&w, 4);
	ws_tlv_put_u64(&w, 0x0102, 0x1122334455667788ULL);
	ws_tlv_put_str(&w, 7, "hi");
	ws_tlv_put_i64(&w, 3, -2);
	ws_tlv_put_f64(&w, 9, 1.0);
	ws_tlv_put_bytes(&w, 0xabcd, dead, sizeof(dead));
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);
	CHECK_U64(t, w.len, sizeof(want));
	if (w.len == sizeof(want))
		CHECK_MEM(t, w.buf, want, sizeof(want));

	/* The header of an empty message: length 0, type kept. */
	ws_tlv_begin(&w, 9);
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);
	static const uint8_t empty[] = {0x57, 0x53, 0x50, 0x44, 0x01, 0x09, 0, 0, 0, 0, 0, 0};
	CHECK_U64(t, w.len, sizeof(empty));
	CHECK_MEM(t, w.buf, empty, sizeof(empty));
	ws_tlv_writer_free(&w);
	CHECK(t, w.buf == NULL && w.len == 0 && w.cap == 0);
}

static void test_round_trip(void)
{
	const char *t = "round_trip";
	static const uint8_t blob[] = {0, 1, 2, 0xff, 0};
	const double minus_zero = -0.0;
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_begin(&w, 200);
	ws_tlv_put_u64(&w, 1, UINT64_MAX);
	ws_tlv_put_u64(&w, 2, 0);
	ws_tlv_put_i64(&w, 3, -1234567890123LL);
	ws_tlv_put_i64(&w, 4, INT64_MIN);
	ws_tlv_put_f64(&w, 5, minus_zero);
	ws_tlv_put_f64(&w, 6, 1e-300);
	ws_tlv_put_f64(&w, 7, -3.25);
	ws_tlv_put_str(&w, 8, "warpspeed 0.1.0");
	ws_tlv_put_str(&w, 9, "");
	ws_tlv_put_bytes(&w, 10, blob, sizeof(blob));
	ws_tlv_put_bytes(&w, 11, NULL, 0);
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);

	ws_tlv_msg m;
	CHECK_INT(t, parse_frame(&w, &m, &err), 0);
	CHECK_INT(t, m.type, 200);
	CHECK_INT(t, m.version, WS_TLV_VERSION);

	uint64_t u = 7;
	CHECK_INT(t, ws_tlv_get_u64(&m, 1, &u), 0);
	CHECK_U64(t, u, UINT64_MAX);
	CHECK_INT(t, ws_tlv_get_u64(&m, 2, &u), 0);
	CHECK_U64(t, u, 0);
	int64_t s = 0;
	CHECK_INT(t, ws_tlv_get_i64(&m, 3, &s), 0);
	CHECK_INT(t, s, -1234567890123LL);
	CHECK_INT(t, ws_tlv_get_i64(&m, 4, &s), 0);
	CHECK(t, s == INT64_MIN);

	double d = 99;
	CHECK_INT(t, ws_tlv_get_f64(&m, 5, &d), 0);
	CHECK(t, d == 0.0 && signbit(d)); /* -0.0 keeps its sign bit */
	CHECK_INT(t, ws_tlv_get_f64(&m, 6, &d), 0);
	CHECK(t, d == 1e-300);
	CHECK_INT(t, ws_tlv_get_f64(&m, 7, &d), 0);
	CHECK(t, d == -3.25);

	char buf[32] = "junk";
	CHECK_INT(t, ws_tlv_get_str(&m, 8, buf, sizeof(buf)), 0);
	CHECK_STR(t, buf, "warpspeed 0.1.0");
	CHECK_INT(t, ws_tlv_get_str(&m, 9, buf, sizeof(buf)), 0);
	CHECK_STR(t, buf, "");

	const uint8_t *p = NULL;
	uint16_t n = 0;
	CHECK_INT(t, ws_tlv_get_bytes(&m, 10, &p, &n), 0);
	CHECK_INT(t, n, sizeof(blob));
	if (p && n == sizeof(blob))
		CHECK_MEM(t, p, blob, sizeof(blob));
	CHECK(t, p >= m.payload && p + n <= m.payload + m.len);
	CHECK_INT(t, ws_tlv_get_bytes(&m, 11, &p, &n), 0);
	CHECK_INT(t, n, 0);

	/* Absent: 1, value untouched. */
	u = 42;
	CHECK_INT(t, ws_tlv_get_u64(&m, 12, &u), 1);
	CHECK_U64(t, u, 42);
	s = 43;
	CHECK_INT(t, ws_tlv_get_i64(&m, 0, &s), 1);
	CHECK_INT(t, s, 43);
	d = 4.5;
	CHECK_INT(t, ws_tlv_get_f64(&m, 0xffff, &d), 1);
	CHECK(t, d == 4.5);
	snprintf(buf, sizeof(buf), "keep");
	CHECK_INT(t, ws_tlv_get_str(&m, 13, buf, sizeof(buf)), 1);
	CHECK_STR(t, buf, "keep");
	CHECK_INT(t, ws_tlv_get_bytes(&m, 14, &p, &n), 1);
	ws_tlv_writer_free(&w);
}

/* Builds a raw payload field by hand, so the tests can express shapes the writer
 * would never produce. Returns the new offset. */
static size_t raw_field(uint8_t *p, size_t off, uint16_t id, uint8_t type, uint16_t len,
			const void *val, size_t vlen)
{
	ws_put_be16(p + off, id);
	p[off + 2] = type;
	p[off + 3] = 0;
	ws_put_be16(p + off + 4, len);
	if (vlen)
		memcpy(p + off + 6, val, vlen);
	return off + 6 + vlen;
}

static void test_unknown_and_duplicates(void)
{
	const char *t = "unknown_and_duplicates";
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_begin(&w, 1);
	ws_tlv_put_str(&w, 500, "a field from a newer peer");
	ws_tlv_put_bytes(&w, 501, "xyz", 3);
	ws_tlv_put_u64(&w, 1, 111);
	ws_tlv_put_u64(&w, 1, 222);
	ws_tlv_put_str(&w, 2, "first");
	ws_tlv_put_str(&w, 2, "second");
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);
	ws_tlv_msg m;
	CHECK_INT(t, parse_frame(&w, &m, &err), 0);
	uint64_t u = 0;
	CHECK_INT(t, ws_tlv_get_u64(&m, 1, &u), 0);
	CHECK_U64(t, u, 111);
	char buf[16];
	CHECK_INT(t, ws_tlv_get_str(&m, 2, buf, sizeof(buf)), 0);
	CHECK_STR(t, buf, "first");
	ws_tlv_writer_free(&w);

	/* An unknown value type (99) of any length is skipped by validate and by the getters. */
	uint8_t pl[64];
	uint8_t v8[8];
	ws_put_be64(v8, 5);
	size_t off = raw_field(pl, 0, 40, 99, 3, "abc", 3);
	off = raw_field(pl, off, 41, WS_TLV_U64, 8, v8, 8);
	ws_tlv_msg r = {.version = 1, .type = 1, .payload = pl, .len = (uint32_t)off};
	CHECK_INT(t, ws_tlv_validate(&r, &err), 0);
	u = 0;
	CHECK_INT(t, ws_tlv_get_u64(&r, 41, &u), 0);
	CHECK_U64(t, u, 5);
}

static void test_wrong_type_or_length(void)
{
	const char *t = "wrong_type_or_length";
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_begin(&w, 1);
	ws_tlv_put_u64(&w, 1, 5);
	ws_tlv_put_str(&w, 2, "text");
	ws_tlv_put_f64(&w, 3, 2.0);
	ws_tlv_put_bytes(&w, 4, "ab", 2);
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);
	ws_tlv_msg m;
	CHECK_INT(t, parse_frame(&w, &m, &err), 0);
	int64_t s = 77;
	uint64_t u = 78;
	double d = 79;
	char buf[16];
	const uint8_t *p;
	uint16_t n;
	CHECK_INT(t, ws_tlv_get_i64(&m, 1, &s), -WS_E_PROTO); /* u64 read as i64 */
	CHECK_INT(t, s, 77);
	CHECK_INT(t, ws_tlv_get_f64(&m, 1, &d), -WS_E_PROTO);
	CHECK_INT(t, ws_tlv_get_u64(&m, 2, &u), -WS_E_PROTO); /* str read as u64 */
	CHECK_U64(t, u, 78);
	CHECK_INT(t, ws_tlv_get_bytes(&m, 2, &p, &n), -WS_E_PROTO);
	CHECK_INT(t, ws_tlv_get_u64(&m, 3, &u), -WS_E_PROTO);
	CHECK_INT(t, ws_tlv_get_str(&m, 4, buf, sizeof(buf)), -WS_E_PROTO);
	CHECK_INT(t, ws_tlv_get_str(&m, 1, buf, sizeof(buf)), -WS_E_PROTO);
	ws_tlv_writer_free(&w);

	/* A fixed-size type with 4 or 9 bytes: refused by validate and by the getter. */
	uint8_t pl[32], v[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
	for (int i = 0; i < 3; i++) {
		static const uint8_t types[] = {WS_TLV_U64, WS_TLV_I64, WS_TLV_F64};
		for (int k = 0; k < 2; k++) {
			uint16_t len = k ? 9 : 4;
			size_t off = raw_field(pl, 0, 7, types[i], len, v, len);
			ws_tlv_msg r = {.version = 1, .payload = pl, .len = (uint32_t)off};
			err.code = 0;
			CHECK_INT(t, ws_tlv_validate(&r, &err), -WS_E_PROTO);
			CHECK_INT(t, err.code, -WS_E_PROTO);
			CHECK(t, strstr(err.msg, "field 7") != NULL);
			u = 1;
			s = 1;
			d = 1;
			CHECK(t, ws_tlv_get_u64(&r, 7, &u) < 0);
			CHECK(t, ws_tlv_get_i64(&r, 7, &s) < 0);
			CHECK(t, ws_tlv_get_f64(&r, 7, &d) < 0);
			CHECK(t, u == 1 && s == 1 && d == 1);
		}
	}
}

static void test_truncation(void)
{
	const char *t = "truncation";
	ws_err err = {0};
	uint8_t pl[64];
	uint8_t v8[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	size_t off = raw_field(pl, 0, 1, WS_TLV_U64, 8, v8, 8);

	/* 1..5 bytes of a second field header after a complete field. */
	for (uint32_t extra = 1; extra < WS_TLV_FIELD_HDR_LEN; extra++) {
		memset(pl + off, 0, extra);
		ws_tlv_msg m = {.version = 1, .payload = pl, .len = (uint32_t)off + extra};
		err.code = 0;
		CHECK_INT(t, ws_tlv_validate(&m, &err), -WS_E_PROTO);
		CHECK(t, strstr(err.msg, "truncated field header at offset 14") != NULL);
		uint64_t u = 0;
		/* The complete field before the stub is still readable; a later id is absent. */
		CHECK_INT(t, ws_tlv_get_u64(&m, 1, &u), 0);
		CHECK_U64(t, u, 0x0102030405060708ULL);
		CHECK(t, ws_tlv_get_u64(&m, 2, &u) != 0);
	}

	/* A string field claiming 10 bytes with only 3 present. */
	size_t off2 = raw_field(pl, off, 2, WS_TLV_STR, 10, "abc", 3);
	ws_tlv_msg m = {.version = 1, .payload = pl, .len = (uint32_t)off2};
	err.code = 0;
	CHECK_INT(t, ws_tlv_validate(&m, &err), -WS_E_PROTO);
	CHECK(t, strstr(err.msg, "field 2 claims 10 bytes but only 3 remain") != NULL);
	char buf[32];
	CHECK_INT(t, ws_tlv_get_str(&m, 2, buf, sizeof(buf)), -WS_E_PROTO);
	/* A field behind the broken one cannot be found: the walk stops with an error. */
	uint64_t u = 0;
	CHECK_INT(t, ws_tlv_get_u64(&m, 3, &u), -WS_E_PROTO);

	/* Maximum claimed length 0xffff in a tiny payload. */
	off2 = raw_field(pl, 0, 9, WS_TLV_BYTES, 0xffff, NULL, 0);
	m.len = (uint32_t)off2;
	CHECK_INT(t, ws_tlv_validate(&m, &err), -WS_E_PROTO);
	const uint8_t *p;
	uint16_t n;
	CHECK_INT(t, ws_tlv_get_bytes(&m, 9, &p, &n), -WS_E_PROTO);

	/* Empty payload: valid, everything absent. */
	ws_tlv_msg e = {.version = 1, .payload = NULL, .len = 0};
	CHECK_INT(t, ws_tlv_validate(&e, &err), 0);
	CHECK_INT(t, ws_tlv_get_u64(&e, 1, &u), 1);
}

static void test_header(void)
{
	const char *t = "header";
	ws_err err = {0};
	uint8_t h[WS_TLV_HDR_LEN] = {0x57, 0x53, 0x50, 0x44, 0x01, 0x06, 0, 0, 0x00, 0x00, 0x01, 0x02};
	uint8_t type = 0;
	uint32_t len = 0;
	CHECK_INT(t, ws_tlv_parse_header(h, &type, &len, &err), 0);
	CHECK_INT(t, type, 6);
	CHECK_U64(t, len, 0x102);

	/* Exactly the limit is accepted, one more byte is not. */
	ws_put_be32(h + 8, WS_TLV_MAX_PAYLOAD);
	CHECK_INT(t, ws_tlv_parse_header(h, &type, &len, &err), 0);
	CHECK_U64(t, len, 1048576);
	ws_put_be32(h + 8, WS_TLV_MAX_PAYLOAD + 1);
	len = 5;
	type = 5;
	CHECK_INT(t, ws_tlv_parse_header(h, &type, &len, &err), -WS_E_PROTO);
	CHECK_INT(t, err.code, -WS_E_PROTO);
	CHECK(t, strstr(err.msg, "1048577") != NULL && strstr(err.msg, "1048576") != NULL);
	CHECK_U64(t, len, 5);
	CHECK_INT(t, type, 5);
	ws_put_be32(h + 8, 0xffffffffu);
	CHECK_INT(t, ws_tlv_parse_header(h, &type, &len, &err), -WS_E_PROTO);
	ws_put_be32(h + 8, 0);

	/* Wrong magic: "not warpspeed", whatever the rest says. */
	uint8_t bad[WS_TLV_HDR_LEN];
	memcpy(bad, h, sizeof(bad));
	bad[3] = 0x45; /* "WSPE" */
	CHECK_INT(t, ws_tlv_parse_header(bad, &type, &len, &err), -WS_E_NOTWS);
	CHECK_INT(t, err.code, -WS_E_NOTWS);
	CHECK(t, strstr(err.msg, "0x57535045") != NULL);
	memcpy(bad, "HTTP/1.1 400", 12);
	CHECK_INT(t, ws_tlv_parse_header(bad, &type, &len, &err), -WS_E_NOTWS);

	/* Wrong version: a protocol error naming both versions. */
	memcpy(bad, h, sizeof(bad));
	bad[4] = 2;
	err.code = 0;
	CHECK_INT(t, ws_tlv_parse_header(bad, &type, &len, &err), -WS_E_PROTO);
	CHECK_STR(t, err.msg,
		  "control protocol version 2 is not supported; this side speaks version 1");
	bad[4] = 0;
	CHECK_INT(t, ws_tlv_parse_header(bad, &type, &len, &err), -WS_E_PROTO);
	CHECK(t, strstr(err.msg, "version 0") != NULL);

	/* A NULL ws_err is allowed. */
	CHECK_INT(t, ws_tlv_parse_header(bad, &type, &len, NULL), -WS_E_PROTO);
}

static void test_overflow(void)
{
	const char *t = "overflow";
	ws_err err = {0};
	ws_tlv_writer w = {0};
	uint8_t *big = calloc(1, 70000);
	CHECK(t, big != NULL);
	if (!big)
		return;

	/* One field longer than a u16 length can say. */
	ws_tlv_begin(&w, 1);
	ws_tlv_put_bytes(&w, 1, big, 65536);
	CHECK(t, w.overflow);
	CHECK_INT(t, ws_tlv_finish(&w, &err), -EMSGSIZE);
	CHECK_INT(t, err.code, -EMSGSIZE);
	CHECK(t, strstr(err.msg, "1048576") != NULL);

	/* begin clears the overflow; 65535 bytes is the largest field. */
	ws_tlv_begin(&w, 1);
	CHECK(t, !w.overflow);
	ws_tlv_put_bytes(&w, 1, big, 65535);
	CHECK_INT(t, ws_tlv_finish(&w, NULL), 0);
	CHECK_U64(t, w.len, WS_TLV_HDR_LEN + 6 + 65535);

	/* A payload of exactly 1 MiB: 15 fields of 65535 bytes and one of 65455. */
	ws_tlv_begin(&w, 2);
	for (int i = 0; i < 15; i++)
		ws_tlv_put_bytes(&w, (uint16_t)i, big, 65535);
	ws_tlv_put_bytes(&w, 15, big, 65455);
	CHECK(t, !w.overflow);
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);
	CHECK_U64(t, w.len, WS_TLV_HDR_LEN + WS_TLV_MAX_PAYLOAD);
	CHECK_U64(t, ws_get_be32(w.buf + 8), 1048576);
	ws_tlv_msg m;
	CHECK_INT(t, parse_frame(&w, &m, &err), 0);
	const uint8_t *p;
	uint16_t n = 0;
	CHECK_INT(t, ws_tlv_get_bytes(&m, 15, &p, &n), 0);
	CHECK_INT(t, n, 65455);

	/* One more empty field (6 bytes) passes the limit; later fields are dropped too. */
	ws_tlv_put_u64(&w, 16, 1);
	CHECK(t, w.overflow);
	CHECK_INT(t, ws_tlv_finish(&w, &err), -EMSGSIZE);
	size_t len_after = w.len;
	ws_tlv_put_str(&w, 17, "x");
	CHECK_U64(t, w.len, len_after);
	CHECK_INT(t, ws_tlv_finish(&w, &err), -EMSGSIZE);

	/* The writer is reusable after an overflow. */
	ws_tlv_begin(&w, 3);
	ws_tlv_put_u64(&w, 1, 9);
	CHECK_INT(t, ws_tlv_finish(&w, &err), 0);
	CHECK_U64(t, w.len, WS_TLV_HDR_LEN + 14);
	free(big);
	ws_tlv_writer_free(&w);
}

static void test_string_limits(void)
{
	const char *t = "string_limits";
	ws_err err = {0};
	uint8_t pl[64];
	size_t off = raw_field(pl, 0, 1, WS_TLV_STR, 5, "ab\0cd", 5);
	off = raw_field(pl, off, 2, WS_TLV_STR, 5, "abcde", 5);
	ws_tlv_msg m = {.version = 1, .payload = pl, .len = (uint32_t)off};
	CHECK_INT(t, ws_tlv_validate(&m, &err), 0);
	char buf[16];
	snprintf(buf, sizeof(buf), "keep");
	CHECK_INT(t, ws_tlv_get_str(&m, 1, buf, sizeof(buf)), -WS_E_PROTO); /* embedded NUL */
	CHECK_INT(t, ws_tlv_get_str(&m, 2, buf, 5), -WS_E_PROTO);          /* needs 6 with NUL */
	CHECK_INT(t, ws_tlv_get_str(&m, 2, buf, 0), -WS_E_PROTO);
	CHECK_STR(t, buf, "keep");
	CHECK_INT(t, ws_tlv_get_str(&m, 2, buf, 6), 0); /* exactly fits */
	CHECK_STR(t, buf, "abcde");
	/* A trailing NUL inside the value is still an embedded NUL. */
	off = raw_field(pl, 0, 3, WS_TLV_STR, 3, "ab\0", 3);
	m.len = (uint32_t)off;
	CHECK_INT(t, ws_tlv_get_str(&m, 3, buf, sizeof(buf)), -WS_E_PROTO);
}

/* xorshift64*: a fixed-seed generator, so a failure reproduces. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* The format written independently from tlv.h: 0 when every field fits and every
 * fixed-size type has 8 bytes, -1 otherwise. */
static int model_valid(const uint8_t *p, size_t len)
{
	size_t off = 0;
	while (off < len) {
		if (len - off < 6)
			return -1;
		size_t n = ((size_t)p[off + 4] << 8) | p[off + 5];
		uint8_t ty = p[off + 2];
		if (off + 6 + n > len)
			return -1;
		if ((ty == 1 || ty == 2 || ty == 3) && n != 8)
			return -1;
		off += 6 + n;
	}
	return 0;
}

/* Random payloads built mostly from plausible field headers, so that both valid and
 * broken messages are frequent. */
static size_t random_payload(uint64_t *s, uint8_t *p, size_t cap)
{
	size_t len = 0, want = next_rand(s) % cap;
	while (len < want) {
		uint64_t r = next_rand(s);
		if (r % 8 == 0 || want - len < 6) { /* raw noise */
			p[len++] = (uint8_t)(r >> 8);
			continue;
		}
		uint16_t id = (uint16_t)((r >> 8) % 6);
		uint8_t ty = (uint8_t)((r >> 16) % 7);
		uint16_t n = (r >> 24) % 4 ? (ty >= 1 && ty <= 3 ? 8 : (uint16_t)((r >> 32) % 12))
					   : (uint16_t)((r >> 32) % 20);
		ws_put_be16(p + len, id);
		p[len + 2] = ty;
		p[len + 3] = (uint8_t)((r >> 40) % 16 == 0);
		ws_put_be16(p + len + 4, n);
		len += 6;
		for (uint16_t i = 0; i < n && len < cap; i++)
			p[len++] = (uint8_t)next_rand(s);
	}
	return len;
}

static void test_garbage(void)
{
	const char *t = "garbage";
	uint64_t seed = 0x5eed5eed12345678ULL;
	uint8_t scratch[256];
	int valid = 0, mismatches = 0, bad_bounds = 0, bad_rc = 0;
	for (int iter = 0; iter < 10000; iter++) {
		size_t len = random_payload(&seed, scratch, sizeof(scratch));
		/* An exactly-sized heap copy: any read past the end is an ASan report. */
		uint8_t *p = malloc(len ? len : 1);
		if (!p)
			break;
		memcpy(p, scratch, len);
		ws_tlv_msg m = {.version = 1, .type = 1, .payload = p, .len = (uint32_t)len};
		ws_err err = {0};
		int rc = ws_tlv_validate(&m, &err);
		int want = model_valid(p, len);
		if ((rc == 0) != (want == 0) || (rc != 0 && rc != -WS_E_PROTO))
			mismatches++;
		valid += rc == 0;
		for (uint16_t id = 0; id < 6; id++) {
			uint64_t u;
			int64_t s;
			double d;
			char str[8];
			const uint8_t *b = NULL;
			uint16_t n = 0;
			int r[5] = {ws_tlv_get_u64(&m, id, &u), ws_tlv_get_i64(&m, id, &s),
				    ws_tlv_get_f64(&m, id, &d), ws_tlv_get_str(&m, id, str, sizeof(str)),
				    ws_tlv_get_bytes(&m, id, &b, &n)};
			for (int k = 0; k < 5; k++)
				if (r[k] != 0 && r[k] != 1 && r[k] != -WS_E_PROTO)
					bad_rc++;
			if (r[4] == 0 && (b < p || b + n > p + len))
				bad_bounds++;
			if (r[3] == 0 && strlen(str) >= sizeof(str))
				bad_bounds++;
		}
		free(p);
	}
	CHECK_INT(t, mismatches, 0);
	CHECK_INT(t, bad_bounds, 0);
	CHECK_INT(t, bad_rc, 0);
	/* The generator must exercise both outcomes, or the run proves little. */
	CHECK(t, valid > 1000);
	CHECK(t, valid < 9000);
}

int main(void)
{
	RUN(test_encoding_bytes);
	RUN(test_round_trip);
	RUN(test_unknown_and_duplicates);
	RUN(test_wrong_type_or_length);
	RUN(test_truncation);
	RUN(test_header);
	RUN(test_overflow);
	RUN(test_string_limits);
	RUN(test_garbage);
	TEST_MAIN_END();
}
