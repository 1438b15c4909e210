/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the MEX sample layouts (iq/wire/iqmem.c) and their dispatch through iqconv:
 * exact values read into interleaved and planar complex double, single and int16 and raw
 * words, WARPLab's truncating float writes with their saturation edges, real-only writes
 * (Q = 0), and that a read touches only its own samples (the stride's neighbours stay).
 * The read loops (vectorized for the layouts Octave holds) against the plain arithmetic for
 * every 16-bit value, an odd count at an odd sample, with the memory either side intact. */
#include "harness.h"

#include "iq/wire/iqconv.h"
#include "iq/wire/iqmem.h"

#include <math.h>
#include <string.h>

static const uint8_t wire[8] = {0x80, 0x00, 0x7F, 0xFF, 0x00, 0x01, 0xFF, 0xFE};

static void test_read_layouts(void)
{
	double d[6] = {9, 9, 9, 9, 9, 9};
	ws_iqmem m = {.elem = WS_IQMEM_F64, .re = d + 2, .im = d + 3, .stride = 2};
	ws_iqconv_from_wire(&m, WS_IQ_FMT_MEM, 0, wire, 2);
	CHECK_DBL("f64 interleaved I0", d[2], -1.0, 0);
	CHECK_DBL("f64 interleaved Q0", d[3], 32767.0 / 32768, 0);
	CHECK_DBL("f64 interleaved I1", d[4], 1.0 / 32768, 0);
	CHECK_DBL("f64 interleaved Q1", d[5], -2.0 / 32768, 0);
	CHECK_DBL("f64 untouched before", d[1], 9, 0);
	float re[3] = {7, 7, 7}, im[3] = {7, 7, 7};
	m = (ws_iqmem){.elem = WS_IQMEM_F32, .re = re, .im = im, .stride = 1};
	ws_iqmem_from_wire(&m, 1, wire, 2);
	CHECK(("f32 planes"), re[0] == 7 && re[1] == -1.0f && im[1] == 32767.0f / 32768 &&
			       re[2] == 1.0f / 32768 && im[2] == -2.0f / 32768);
	int16_t s[4];
	m = (ws_iqmem){.elem = WS_IQMEM_I16, .re = s, .im = s + 1, .stride = 2};
	ws_iqmem_from_wire(&m, 0, wire, 2);
	CHECK(("i16 interleaved"), s[0] == -32768 && s[1] == 32767 && s[2] == 1 && s[3] == -2);
	uint32_t w[2];
	m = (ws_iqmem){.elem = WS_IQMEM_U32, .re = w, .stride = 1};
	ws_iqmem_from_wire(&m, 0, wire, 2);
	CHECK_U64("raw word 0", w[0], 0x80007FFFu);
	CHECK_U64("raw word 1", w[1], 0x0001FFFEu);
}

static void test_write_truncates(void)
{
	CHECK_INT("0.9 lsb truncates to 0", ws_iqmem_trunc16(0.9 / 32768), 0);
	CHECK_INT("-0.9 lsb truncates to 0", ws_iqmem_trunc16(-0.9 / 32768), 0);
	CHECK_INT("1.99 lsb to 1", ws_iqmem_trunc16(1.99 / 32768), 1);
	CHECK_INT("1.0 saturates", ws_iqmem_trunc16(1.0), 32767);
	CHECK_INT("just below 1", ws_iqmem_trunc16(32767.9 / 32768), 32767);
	CHECK_INT("-1.0 exact", ws_iqmem_trunc16(-1.0), -32768);
	CHECK_INT("below -1 saturates", ws_iqmem_trunc16(-1.5), -32768);
	CHECK_INT("nan", ws_iqmem_trunc16(NAN), 0);
	CHECK_INT("+inf", ws_iqmem_trunc16(INFINITY), 32767);
	CHECK_INT("-inf", ws_iqmem_trunc16(-INFINITY), -32768);
	double re[2] = {-1.0, 0.5}, im[2] = {32767.0 / 32768, -2.0 / 32768};
	uint8_t out[8];
	ws_iqmem m = {.elem = WS_IQMEM_F64, .re = re, .im = im, .stride = 1};
	ws_iqconv_to_wire(out, WS_IQ_FMT_MEM, &m, 0, 2);
	CHECK_MEM("f64 planes to wire", out, ((const uint8_t[]){0x80, 0, 0x7F, 0xFF, 0x40, 0,
								 0xFF, 0xFE}), 8);
	float f[2] = {0.25f, -0.25f};
	m = (ws_iqmem){.elem = WS_IQMEM_F32, .re = f, .stride = 1};
	ws_iqmem_to_wire(out, &m, 0, 2);
	CHECK_MEM("real-only f32: Q = 0", out, ((const uint8_t[]){0x20, 0, 0, 0, 0xE0, 0, 0, 0}), 8);
	uint32_t w = 0x12345678u;
	m = (ws_iqmem){.elem = WS_IQMEM_U32, .re = &w, .stride = 1};
	ws_iqmem_to_wire(out, &m, 0, 1);
	CHECK_MEM("raw word", out, ((const uint8_t[]){0x12, 0x34, 0x56, 0x78}), 4);
	int16_t s[4] = {1, -1, -32768, 32767};
	m = (ws_iqmem){.elem = WS_IQMEM_I16, .re = s, .im = s + 1, .stride = 2};
	ws_iqmem_to_wire(out, &m, 1, 1);
	CHECK_MEM("i16 interleaved sample 1", out, ((const uint8_t[]){0x80, 0, 0x7F, 0xFF}), 4);
}

/* The write loops (one per type and layout, branch-free clamps) against the reference
 * ws_iqmem_trunc16 for every edge value and random doubles and bit patterns, in each
 * layout and at an odd starting sample. */
static double edge_value(uint32_t i, uint64_t *rng)
{
	static const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.99998, 32767.0 / 32768,
				       32767.9 / 32768, -32768.0 / 32768, -1.00001, 1e300, -1e300,
				       0.5 / 32768, -0.5 / 32768, 1.5 / 32768, -1.5 / 32768};
	size_t ne = sizeof edges / sizeof edges[0];
	if (i < ne)
		return edges[i];
	if (i == ne)
		return NAN;
	if (i == ne + 1)
		return INFINITY;
	if (i == ne + 2)
		return -INFINITY;
	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	if (i % 3 == 0) {
		double d;
		memcpy(&d, rng, sizeof d); /* any bit pattern, NaNs and denormals included */
		return d;
	}
	return (double)(int64_t)(*rng % 8000001) / 2000000.0 - 2.0; /* -2 .. 2 */
}

static void test_write_loops_match_reference(void)
{
	enum { N = 4099 };
	static double d[2 * N];
	static float f[2 * N];
	static uint8_t got[4 * N], want[4 * N];
	uint64_t rng = 0x9E3779B97F4A7C15ull;
	for (uint32_t i = 0; i < 2 * N; i++) {
		d[i] = edge_value(i % 997 == 0 ? 0 : i, &rng);
		f[i] = (float)d[i];
	}
	for (int single = 0; single <= 1; single++)
		for (int layout = 0; layout < 3; layout++) { /* interleaved, planes, real */
			uint8_t *base = single ? (uint8_t *)f : (uint8_t *)d;
			size_t es = single ? 4 : 8;
			ws_iqmem m = {.elem = single ? WS_IQMEM_F32 : WS_IQMEM_F64, .re = base,
				      .stride = layout == 0 ? 2 : 1};
			if (layout == 0)
				m.im = base + es;
			else if (layout == 1)
				m.im = base + N * es;
			uint32_t idx = 3, cnt = N - 5;
			ws_iqmem_to_wire(got, &m, idx, cnt);
			for (uint32_t i = 0; i < cnt; i++) {
				size_t j = (size_t)(idx + i) * m.stride;
				double re = single ? f[j] : d[j];
				double im = layout == 2 ? 0.0
					    : layout == 0 ? (single ? f[j + 1] : d[j + 1])
							  : (single ? f[N + j] : d[N + j]);
				uint16_t I = (uint16_t)ws_iqmem_trunc16(re);
				uint16_t Q = layout == 2 ? 0 : (uint16_t)ws_iqmem_trunc16(im);
				want[4 * i] = (uint8_t)(I >> 8);
				want[4 * i + 1] = (uint8_t)I;
				want[4 * i + 2] = (uint8_t)(Q >> 8);
				want[4 * i + 3] = (uint8_t)Q;
			}
			char name[64];
			snprintf(name, sizeof name, "%s %s", single ? "f32" : "f64",
				 layout == 0 ? "interleaved" : layout == 1 ? "planes" : "real");
			CHECK_MEM(name, got, want, 4 * (size_t)cnt);
		}
}

/* Every 16-bit value once as I or Q (-32768 and 32767 included), in an odd number of
 * samples placed from an odd sample, through each read layout; sentinels either side. */
static void test_read_loops_match_reference(void)
{
	enum { N = 32769, AT = 3, PAD = 8 };
	static uint8_t w[4 * N];
	static double d[2 * (N + AT + PAD)];
	static float f[2 * (N + AT + PAD)];
	static int16_t s[2 * (N + AT + PAD)];
	static uint32_t u[N + AT + PAD];
	for (uint32_t h = 0; h < 2 * N; h++) { /* half h holds the value h mod 65536 */
		w[2 * h] = (uint8_t)(h >> 8);
		w[2 * h + 1] = (uint8_t)h;
	}
	const size_t tot = 2 * (N + AT + PAD);
	for (int layout = 0; layout < 4; layout++) { /* f64, f32, i16 interleaved; i16 planes */
		for (size_t i = 0; i < tot; i++) {
			d[i] = 99.0;
			f[i] = 99.0f;
			s[i] = 99;
		}
		ws_iqmem m = {.stride = 2};
		if (layout == 0)
			m = (ws_iqmem){WS_IQMEM_F64, d, d + 1, 2};
		else if (layout == 1)
			m = (ws_iqmem){WS_IQMEM_F32, f, f + 1, 2};
		else if (layout == 2)
			m = (ws_iqmem){WS_IQMEM_I16, s, s + 1, 2};
		else
			m = (ws_iqmem){WS_IQMEM_I16, s, s + tot / 2, 1};
		ws_iqmem_from_wire(&m, AT, w, N);
		size_t bad = 0, first = 0;
		for (size_t i = 0; i < tot / 2; i++) /* sample i of the array */
			for (int q = 0; q < 2; q++) {
				int in = i >= AT && i < AT + N;
				int16_t v = (int16_t)(uint16_t)(2 * (i - AT) + (size_t)q);
				size_t j = layout == 3 ? i + (size_t)q * tot / 2 : 2 * i + (size_t)q;
				int ok = layout == 0   ? d[j] == (in ? v / 32768.0 : 99.0)
					 : layout == 1 ? f[j] == (in ? (float)v / 32768.0f : 99.0f)
						       : s[j] == (in ? v : 99);
				if (!ok && bad++ == 0)
					first = j;
			}
		char name[96];
		snprintf(name, sizeof name, "read layout %d: all values, odd count (first bad %zu)",
			 layout, first);
		CHECK_U64(name, bad, 0);
	}
	for (size_t i = 0; i < N + AT + PAD; i++)
		u[i] = 0xA5A5A5A5u;
	ws_iqmem m = {.elem = WS_IQMEM_U32, .re = u, .stride = 1};
	ws_iqmem_from_wire(&m, AT, w, N);
	size_t bad = 0;
	for (size_t i = 0; i < N + AT + PAD; i++) {
		uint32_t h = 2 * (uint32_t)(i - AT);
		uint32_t want = i >= AT && i < AT + N ? (h & 0xFFFF) << 16 | ((h + 1) & 0xFFFF)
						      : 0xA5A5A5A5u;
		bad += u[i] != want;
	}
	CHECK_U64("raw words: all values, odd count, sentinels", bad, 0);
}

int main(void)
{
	RUN(test_read_layouts);
	RUN(test_read_loops_match_reference);
	RUN(test_write_truncates);
	RUN(test_write_loops_match_reference);
	TEST_MAIN_END();
}
