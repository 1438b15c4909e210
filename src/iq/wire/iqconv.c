/* SPDX-License-Identifier: BSD-2-Clause */
/* iqconv: IQ samples between caller memory and the node's wire words; see iqconv.h.
 *
 * The node's sample is one big-endian 32-bit word (I high, Q low, Fix16_15); callers hold
 * interleaved int16 or float. Read IQ, Write IQ and the file module convert through here.
 * These loops run over every sample of every transfer, so they are written for the
 * compiler's vectorizer (gcc -O2 -fopt-info-vec reports them on x86-64 and aarch64):
 * 16-bit loads and stores through memcpy (no alignment assumed), a byte swap as two shifts,
 * saturation as branch-free selects, and round-to-nearest by adding and subtracting
 * 1.5 * 2^23 instead of a call to lrintf, which gives the same result in the default
 * rounding mode for every clamped value. Where the byte order is not known at compile time
 * the byte-by-byte helpers of util/bytes.h are used: slower, right everywhere. */
#include "iq/wire/iqconv.h"

#include "iq/wire/iqmem.h"
#include "iq/wire/iqvec.h"

#include "util/bytes.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define IQ_ROUND_MAGIC 12582912.0f /* 1.5 * 2^23: see sat16 */

size_t ws_iq_format_size(ws_iq_format fmt)
{
	static const size_t size[3] = {4, 8, 4}; /* CI16, CF32, BE32 */
	return (unsigned)fmt < 3 ? size[fmt] : 0;
}

static inline void put_wire16(uint8_t *p, uint16_t v)
{
#if defined(IQ_LE) || defined(IQ_BE)
#ifdef IQ_LE
	v = (uint16_t)(v << 8 | v >> 8);
#endif
	memcpy(p, &v, 2);
#else
	ws_put_be16(p, v);
#endif
}

/* x * 32768 rounded to nearest (ties to even), saturated to int16; NaN gives 0.
 *
 * Written so that each step is one vector instruction (with AVX2 about twice as fast, see
 * docs/benchmarks.md, as the float compares and selects that
 * gcc turns into compare, and, blend chains because min/max of floats differ from the C
 * ternaries on NaN). The clamps work on the float's bits as integers: a non-negative
 * float's bits order like the float, so a signed min with the bits of 32767.0 clamps the
 * top (negative floats have negative bits as int32 and pass); as unsigned numbers a
 * negative float's bits grow with its magnitude above those of every non-negative one, so
 * an unsigned min with the bits of -32768.0 clamps the bottom. NaN is made +0.0 first.
 * Rounding adds 1.5 * 2^23: for |v| <= 2^22 the sum's exponent is fixed and its low
 * mantissa bits are v rounded to an integer in the current (nearest-even) mode, so the
 * sum's low 16 bits are the int16 result in two's complement, with no conversion
 * instruction at all. Needs IEEE binary32 floats evaluated in float (FLT_EVAL_METHOD 0);
 * elsewhere lrintf does the rounding. */
#if FLT_EVAL_METHOD == 0 && FLT_MANT_DIG == 24 && FLT_MAX_EXP == 128
#define IQ_F32_HI 0x46FFFE00  /* bits of 32767.0f */
#define IQ_F32_LO 0xC7000000u /* bits of -32768.0f */
static inline int16_t sat16(float x)
{
	float v = x * 32768.0f;
	int32_t b;
	uint32_t u;
	memcpy(&b, &v, 4);
	b &= -(int32_t)(x == x);
	b = b < IQ_F32_HI ? b : IQ_F32_HI;
	u = (uint32_t)b;
	u = u < IQ_F32_LO ? u : IQ_F32_LO;
	memcpy(&v, &u, 4);
	v += IQ_ROUND_MAGIC;
	memcpy(&u, &v, 4);
	return (int16_t)(uint16_t)u;
}
#else
static inline int16_t sat16(float x)
{
	float v = x * 32768.0f;
	v = v > 32767.0f ? 32767.0f : v;
	v = v < -32768.0f ? -32768.0f : v;
	v = x == x ? v : 0.0f;
	return (int16_t)lrintf(v);
}
#endif

IQ_CLONES void ws_iqconv_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
				   uint32_t cnt)
{
	size_t n = 2 * (size_t)cnt;
	if (fmt == WS_IQ_FMT_MEM) {
		ws_iqmem_from_wire(dst, idx, src, cnt);
	} else if (fmt == WS_IQ_FMT_BE32) {
		memcpy((uint8_t *)dst + idx * 4, src, (size_t)cnt * 4);
	} else if (fmt == WS_IQ_FMT_CI16) {
		uint8_t *o = (uint8_t *)dst + idx * 4;
		for (size_t i = 0; i < n; i++) {
			int16_t v = (int16_t)wire16(src + 2 * i);
			memcpy(o + 2 * i, &v, 2);
		}
	} else {
		uint8_t *o = (uint8_t *)dst + idx * 8;
		for (size_t i = 0; i < n; i++) {
			float v = (float)(int16_t)wire16(src + 2 * i) * (1.0f / 32768.0f);
			memcpy(o + 4 * i, &v, 4);
		}
	}
}

/* Write IQ converts a packet at a time from a caller buffer that the transport has just
 * pushed out of the caches (between two writes the kernel's socket buffers and the node's
 * copies pass through them), so cf32's 8 source bytes per sample come from memory and the
 * loop waits on loads. It runs in blocks of IQ_BLOCK floats, each prefetching the four
 * cache lines IQ_AHEAD bytes ahead, with the non-temporal hint (measured no worse than
 * the others; it is meant to keep the stream from displacing the stage that the kernel
 * reads next); a prefetch never passes the end of the caller's buffer (total samples).
 * Blocks beat one plain loop, and blocks with the prefetch 8192 bytes ahead beat both;
 * 4096 and 16384 bytes ahead did no better (docs/benchmarks.md has the figures). */
#if defined(__GNUC__)
#define IQ_PREFETCH_NTA(p) __builtin_prefetch((p), 0, 0)
#else
#define IQ_PREFETCH_NTA(p) ((void)(p))
#endif
#define IQ_BLOCK 64   /* floats: 256 bytes of source, four cache lines */
#define IQ_AHEAD 8192 /* bytes of source prefetched ahead */

static inline void f32_to_wire(uint8_t *out, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		float v;
		memcpy(&v, s + 4 * i, 4);
		put_wire16(out + 2 * i, (uint16_t)sat16(v));
	}
}

IQ_CLONES void ws_iqconv_to_wire_ahead(uint8_t *out, ws_iq_format fmt, const void *src,
				       uint64_t idx, uint32_t cnt, uint64_t total)
{
	size_t n = 2 * (size_t)cnt;
	if (fmt == WS_IQ_FMT_CF32) {
		const uint8_t *s = (const uint8_t *)src + idx * 8;
		size_t i = 0, left = total > idx ? (size_t)(total - idx) * 8 : 0; /* bytes at s */
		for (; i + IQ_BLOCK <= n; i += IQ_BLOCK) {
			if (4 * i + IQ_AHEAD + 4 * IQ_BLOCK <= left) {
				const uint8_t *a = s + 4 * i + IQ_AHEAD;
				IQ_PREFETCH_NTA(a);
				IQ_PREFETCH_NTA(a + 64);
				IQ_PREFETCH_NTA(a + 128);
				IQ_PREFETCH_NTA(a + 192);
			}
			f32_to_wire(out + 2 * i, s + 4 * i, IQ_BLOCK);
		}
		f32_to_wire(out + 2 * i, s + 4 * i, n - i);
		return;
	}
	ws_iqconv_to_wire(out, fmt, src, idx, cnt);
}

IQ_CLONES void ws_iqconv_to_wire(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
				 uint32_t cnt)
{
	size_t n = 2 * (size_t)cnt;
	if (fmt == WS_IQ_FMT_MEM) {
		ws_iqmem_to_wire(out, src, idx, cnt);
	} else if (fmt == WS_IQ_FMT_BE32) {
		memcpy(out, (const uint8_t *)src + idx * 4, (size_t)cnt * 4);
	} else if (fmt == WS_IQ_FMT_CI16) {
		const uint8_t *s = (const uint8_t *)src + idx * 4;
		for (size_t i = 0; i < n; i++) {
			int16_t v;
			memcpy(&v, s + 2 * i, 2);
			put_wire16(out + 2 * i, (uint16_t)v);
		}
	} else {
		ws_iqconv_to_wire_ahead(out, fmt, src, idx, cnt, idx + cnt);
	}
}
