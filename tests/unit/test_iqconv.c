/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the IQ sample conversions (iq/wire/iqconv.c): exact wire bytes for every format
 * in both directions (byte order: I high, big-endian), round-to-nearest with ties to even,
 * saturation, NaN and infinities, and the vectorized loops against a one-sample-at-a-time
 * reference over every int16 value, at every alignment and odd lengths (the loops' tails),
 * so that a vectorizer's or a clone's mistake shows as a wrong byte. */
#include "harness.h"

#include "iq/wire/iqconv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_cf32_to_wire(void)
{
	/* value * 32768: 0.5 / 32768 is 0.5 -> 0 (even), 1.5 -> 2, 2.5 -> 2, -0.5 -> 0,
	 * -1.5 -> -2; 32766.5 -> 32766, 32767.4 and above saturate at 32767, 1.0 too. */
	float in[20] = {
		0.5f / 32768, 1.5f / 32768, 2.5f / 32768, -0.5f / 32768, -1.5f / 32768,
		32766.5f / 32768, 32767.4f / 32768, 1.0f, -1.0f, -32768.6f / 32768,
		INFINITY, -INFINITY, NAN, -NAN, 3.0e38f, -3.0e38f, 0.49f / 32768,
		-0.51f / 32768, 1.0e-30f, -0.0f,
	};
	uint8_t out[40];
	memset(out, 0xAA, sizeof out);
	ws_iqconv_to_wire(out, WS_IQ_FMT_CF32, in, 0, 10);
	CHECK_U64("0.5, 1.5", be32(out), 0x00000002u);
	CHECK_U64("2.5, -0.5", be32(out + 4), 0x00020000u);
	CHECK_U64("-1.5, 32766.5", be32(out + 8), 0xFFFE7FFEu);
	CHECK_U64("32767.4, 1.0", be32(out + 12), 0x7FFF7FFFu);
	CHECK_U64("-1.0, -32768.6", be32(out + 16), 0x80008000u);
	CHECK_U64("+inf, -inf", be32(out + 20), 0x7FFF8000u);
	CHECK_U64("nan, -nan", be32(out + 24), 0x00000000u);
	CHECK_U64("huge", be32(out + 28), 0x7FFF8000u);
	CHECK_U64("0.49, -0.51", be32(out + 32), 0x0000FFFFu);
	CHECK_U64("tiny, -0", be32(out + 36), 0x00000000u);
	/* idx counts samples of the source: sample 3 is in[6], in[7]. */
	ws_iqconv_to_wire(out, WS_IQ_FMT_CF32, in, 3, 1);
	CHECK_U64("idx", be32(out), 0x7FFF7FFFu);
}

static void test_ci16(void)
{
	int16_t c[6] = {-2, 3, 32767, -32768, 0x1234, -0x5678};
	uint8_t out[12];
	ws_iqconv_to_wire(out, WS_IQ_FMT_CI16, c, 0, 3);
	const uint8_t want[12] = {0xFF, 0xFE, 0x00, 0x03, 0x7F, 0xFF, 0x80, 0x00,
				  0x12, 0x34, 0xA9, 0x88};
	CHECK_MEM("ci16 to wire", out, want, 12);
	int16_t back[6];
	ws_iqconv_from_wire(back, WS_IQ_FMT_CI16, 0, want, 3);
	CHECK_MEM("ci16 from wire", back, c, sizeof c);
	int16_t at[8] = {0};
	ws_iqconv_from_wire(at, WS_IQ_FMT_CI16, 2, want + 4, 1);
	CHECK_INT("from wire idx I", at[4], 32767);
	CHECK_INT("from wire idx Q", at[5], -32768);
	CHECK_INT("untouched", at[3] | at[6], 0);
}

static void test_cf32_from_wire(void)
{
	const uint8_t w[12] = {0x80, 0x00, 0x7F, 0xFF, 0x00, 0x01, 0xFF, 0xFF, 0x40, 0x00,
			       0xC0, 0x00};
	float f[6];
	ws_iqconv_from_wire(f, WS_IQ_FMT_CF32, 0, w, 3);
	CHECK_DBL("-1", f[0], -1.0, 0);
	CHECK_DBL("32767/32768", f[1], 32767.0 / 32768, 0);
	CHECK_DBL("1/32768", f[2], 1.0 / 32768, 0);
	CHECK_DBL("-1/32768", f[3], -1.0 / 32768, 0);
	CHECK_DBL("0.5", f[4], 0.5, 0);
	CHECK_DBL("-0.5", f[5], -0.5, 0);
}

static void test_be32(void)
{
	const uint8_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t d[12] = {0}, o[4];
	ws_iqconv_from_wire(d, WS_IQ_FMT_BE32, 1, w, 2);
	CHECK_MEM("be32 from wire at sample 1", d + 4, w, 8);
	CHECK_INT("be32 before", d[3], 0);
	ws_iqconv_to_wire(o, WS_IQ_FMT_BE32, d, 2, 1);
	CHECK_MEM("be32 to wire", o, w + 4, 4);
	CHECK_INT("sizes", (int)(ws_iq_format_size(WS_IQ_FMT_CI16) * 100 +
				 ws_iq_format_size(WS_IQ_FMT_CF32) * 10 +
				 ws_iq_format_size(WS_IQ_FMT_BE32)), 484);
	CHECK_INT("unknown size", (int)ws_iq_format_size((ws_iq_format)7), 0);
}

/* One half-sample at a time, as the first version of iqconv did (lrintf, clamps). */
static int16_t ref_sat(float x)
{
	if (!(x == x))
		return 0;
	float v = x * 32768.0f;
	if (v >= 32767.0f)
		return 32767;
	if (v <= -32768.0f)
		return -32768;
	return (int16_t)lrintf(v);
}

/* Every int16 value through every loop, at byte offsets 0..3 and odd lengths. */
static void test_against_reference(void)
{
	const uint32_t n = 32768 + 7; /* samples: 65550 halves, every int16 value and a tail */
	uint8_t *wire = malloc(4 * (size_t)n + 8), *back = malloc(4 * (size_t)n + 8);
	uint8_t *mem = malloc(8 * (size_t)n + 8);
	float *fl = malloc(8 * (size_t)n);
	int bad_ci = 0, bad_cf = 0, bad_to = 0, bad_round = 0;
	for (uint32_t i = 0; i < 2 * n; i++) {
		uint16_t v = (uint16_t)(i * 40503u); /* odd multiplier: a permutation */
		wire[2 * i] = (uint8_t)(v >> 8);
		wire[2 * i + 1] = (uint8_t)v;
	}
	for (unsigned off = 0; off < 4; off++) {
		uint32_t cnt = n - off;
		/* wire -> ci16 -> wire, unaligned destination */
		ws_iqconv_from_wire(mem + off, WS_IQ_FMT_CI16, 0, wire, cnt);
		for (uint32_t i = 0; i < 2 * cnt; i++) {
			int16_t got;
			memcpy(&got, mem + off + 2 * i, 2);
			bad_ci += got != (int16_t)(wire[2 * i] << 8 | wire[2 * i + 1]);
		}
		ws_iqconv_to_wire(back + off, WS_IQ_FMT_CI16, mem + off, 0, cnt);
		bad_ci += memcmp(back + off, wire, 4 * (size_t)cnt) != 0;
		/* wire -> cf32 -> wire */
		ws_iqconv_from_wire(mem + off, WS_IQ_FMT_CF32, 0, wire, cnt);
		for (uint32_t i = 0; i < 2 * cnt; i++) {
			float got;
			memcpy(&got, mem + off + 4 * i, 4);
			bad_cf += got != (float)(int16_t)(wire[2 * i] << 8 | wire[2 * i + 1]) / 32768.0f;
		}
		ws_iqconv_to_wire(back + off, WS_IQ_FMT_CF32, mem + off, 0, cnt);
		bad_to += memcmp(back + off, wire, 4 * (size_t)cnt) != 0;
	}
	/* Floats between the integers (halves, quarters, beyond the range) against lrintf. */
	for (uint32_t i = 0; i < 2 * n; i++)
		fl[i] = ((float)(int32_t)(i % 70000) - 35000.0f + (float)(i % 4) * 0.25f) / 32768.0f;
	ws_iqconv_to_wire(back, WS_IQ_FMT_CF32, fl, 0, n);
	for (uint32_t i = 0; i < 2 * n; i++)
		bad_round += (int16_t)(back[2 * i] << 8 | back[2 * i + 1]) != ref_sat(fl[i]);
	/* Bit patterns spread over all 2^32 (NaNs, infinities, subnormals, huge values, both
	 * signs) and the float neighbours of every rounding and clamping boundary. */
	int bad_bits = 0;
	for (uint32_t i = 0; i < 2 * n; i++) {
		uint32_t u = i * 2654435761u;
		memcpy(&fl[i], &u, 4);
	}
	static const float edge[] = {32767.0f, 32767.5f, 32768.0f, -32768.0f, -32768.5f,
				     -32769.0f, 0.5f, 1.5f, -0.5f, -1.5f, 0.0f};
	for (unsigned k = 0; k < sizeof edge / sizeof edge[0]; k++) {
		fl[3 * k] = nextafterf(edge[k], -INFINITY) / 32768.0f;
		fl[3 * k + 1] = edge[k] / 32768.0f;
		fl[3 * k + 2] = nextafterf(edge[k], INFINITY) / 32768.0f;
	}
	ws_iqconv_to_wire(back, WS_IQ_FMT_CF32, fl, 0, n);
	for (uint32_t i = 0; i < 2 * n; i++)
		bad_bits += (int16_t)(back[2 * i] << 8 | back[2 * i + 1]) != ref_sat(fl[i]);
	CHECK_INT("cf32 bit patterns and boundaries as lrintf", bad_bits, 0);
	CHECK_INT("ci16 both ways, every value, offsets 0..3", bad_ci, 0);
	CHECK_INT("cf32 from wire, every value", bad_cf, 0);
	CHECK_INT("cf32 to wire round trip", bad_to, 0);
	CHECK_INT("cf32 rounding and saturation as lrintf", bad_round, 0);
	free(wire);
	free(back);
	free(mem);
	free(fl);
}

/* Write IQ's packet by packet conversion with read-ahead over the whole buffer: the same
 * bytes as the reference at every packet size and start (blocks, tails, the last packets
 * whose read-ahead stops at the buffer's end), for any bit pattern; ci16 passes through. */
static void test_to_wire_ahead(void)
{
	const uint32_t n = 20000;
	float *fl = malloc(8 * (size_t)n);
	uint8_t *out = malloc(4 * (size_t)n), *ref = malloc(4 * (size_t)n);
	int bad = 0, bad_ci = 0;
	for (uint32_t i = 0; i < 2 * n; i++) {
		uint32_t u = i * 2654435761u;
		if (i % 3)
			fl[i] = ((float)(int32_t)(u % 80000) - 40000.0f + (float)(i % 4) * 0.25f) /
				32768.0f;
		else
			memcpy(&fl[i], &u, 4);
	}
	static const uint32_t spp[] = {1, 31, 32, 33, 356, 2232, 4999};
	for (unsigned k = 0; k < sizeof spp / sizeof spp[0]; k++) {
		memset(out, 0xAA, 4 * (size_t)n);
		for (uint32_t p = 0; p < n; p += spp[k]) {
			uint32_t c = n - p < spp[k] ? n - p : spp[k];
			ws_iqconv_to_wire_ahead(out + 4 * (size_t)p, WS_IQ_FMT_CF32, fl, p, c, n);
		}
		for (uint32_t i = 0; i < 2 * n; i++)
			bad += (int16_t)(out[2 * i] << 8 | out[2 * i + 1]) != ref_sat(fl[i]);
		ws_iqconv_to_wire(ref, WS_IQ_FMT_CI16, fl, 0, n / 2);
		ws_iqconv_to_wire_ahead(out, WS_IQ_FMT_CI16, fl, 0, n / 2, n / 2);
		bad_ci += memcmp(out, ref, 4 * (size_t)(n / 2)) != 0;
	}
	CHECK_INT("cf32 packet by packet with read-ahead, as lrintf", bad, 0);
	CHECK_INT("ci16 through the read-ahead entry", bad_ci, 0);
	free(fl);
	free(out);
	free(ref);
}

int main(void)
{
	RUN(test_cf32_to_wire);
	RUN(test_ci16);
	RUN(test_cf32_from_wire);
	RUN(test_be32);
	RUN(test_against_reference);
	RUN(test_to_wire_ahead);
	TEST_MAIN_END();
}
