/* SPDX-License-Identifier: BSD-2-Clause */
/* iqmem: conversions between wire words and MATLAB/Octave array memory; see iqmem.h.
 *
 * One loop per element type and direction, each with the stride as a parameter, so the
 * interleaved (stride 2) and planar (stride 1) layouts share the code. The read loops run
 * once per received packet and the write loops once per sent packet, inside the engines.
 * The layouts a MEX built for Octave (or MATLAB R2018a) reads into, interleaved complex
 * floats, int16 planes and raw words, have loops of their own written for the vectorizer
 * (iqvec.h): a Read IQ of 2^20 samples into Octave's complex double array spent 1.2 ms in
 * the byte-at-a-time loop, which the vectorizer did not take, and 0.2 ms in its own. */
#include "iq/wire/iqmem.h"

#include "iq/wire/iqvec.h"

#include "util/bytes.h"

int16_t ws_iqmem_trunc16(double x)
{
	if (x != x)
		return 0;
	if (x >= 1.0)
		return 32767;
	if (x < -1.0)
		return -32768;
	return (int16_t)(int32_t)(x * 32768.0); /* C truncates toward zero */
}

/* One loop per element type, on local pointers (a store through a double pointer could
 * otherwise alias the descriptor, which the compiler would reload for every sample). */
#define IQMEM_FROM(T, SCALE)                                                        \
	do {                                                                        \
		T *re = (T *)m->re + k, *im = m->im ? (T *)m->im + k : NULL;        \
		for (uint32_t i = 0; i < cnt; i++) {                                \
			const uint8_t *w = src + 4 * (size_t)i;                     \
			re[(size_t)i * s] = (T)((int16_t)(w[0] << 8 | w[1])) SCALE; \
		}                                                                   \
		for (uint32_t i = 0; im && i < cnt; i++) {                          \
			const uint8_t *w = src + 4 * (size_t)i;                     \
			im[(size_t)i * s] = (T)((int16_t)(w[2] << 8 | w[3])) SCALE; \
		}                                                                   \
	} while (0)

/* Interleaved complex (I, Q, I, Q...) is the wire's 16-bit halves in order: one
 * contiguous loop per element type. */
#define IQMEM_FROM_PAIRS(T, SCALE)          \
	for (size_t i = 0; i < halves; i++) \
	out[i] = (T)(int16_t)wire16(src + 2 * i) SCALE

IQ_CLONES static void pairs_f64(double *restrict out, const uint8_t *restrict src, size_t halves)
{
	IQMEM_FROM_PAIRS(double, *(1.0 / 32768.0));
}

IQ_CLONES static void pairs_f32(float *restrict out, const uint8_t *restrict src, size_t halves)
{
	IQMEM_FROM_PAIRS(float, *(1.0f / 32768.0f));
}

IQ_CLONES static void pairs_i16(int16_t *restrict out, const uint8_t *restrict src, size_t halves)
{
	IQMEM_FROM_PAIRS(int16_t, );
}

/* Octave's int16 reads: an I plane and a Q plane. */
IQ_CLONES static void planes_i16(int16_t *restrict re, int16_t *restrict im,
				 const uint8_t *restrict src, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		re[i] = (int16_t)wire16(src + 4 * i);
		im[i] = (int16_t)wire16(src + 4 * i + 2);
	}
}

IQ_CLONES static void words_u32(uint32_t *restrict out, const uint8_t *restrict src, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++)
		out[i] = wire32(src + 4 * i);
}

static int interleaved(const ws_iqmem *m, size_t es)
{
	return m->stride == 2 && m->im == (const uint8_t *)m->re + es;
}

void ws_iqmem_from_wire(const ws_iqmem *m, uint64_t idx, const uint8_t *src, uint32_t cnt)
{
	size_t s = m->stride, k = (size_t)idx * s;
	if (m->elem == WS_IQMEM_F64 && interleaved(m, 8)) {
		pairs_f64((double *)m->re + k, src, 2 * (size_t)cnt);
	} else if (m->elem == WS_IQMEM_F32 && interleaved(m, 4)) {
		pairs_f32((float *)m->re + k, src, 2 * (size_t)cnt);
	} else if (m->elem == WS_IQMEM_I16 && interleaved(m, 2)) {
		pairs_i16((int16_t *)m->re + k, src, 2 * (size_t)cnt);
	} else if (m->elem == WS_IQMEM_I16 && s == 1 && m->im) {
		planes_i16((int16_t *)m->re + k, (int16_t *)m->im + k, src, cnt);
	} else if (m->elem == WS_IQMEM_U32 && s == 1) {
		words_u32((uint32_t *)m->re + k, src, cnt);
	} else if (m->elem == WS_IQMEM_U32) {
		uint32_t *o = (uint32_t *)m->re + k;
		for (uint32_t i = 0; i < cnt; i++)
			o[(size_t)i * s] = ws_get_be32(src + 4 * (size_t)i);
	} else if (m->elem == WS_IQMEM_F64) {
		IQMEM_FROM(double, *(1.0 / 32768.0));
	} else if (m->elem == WS_IQMEM_F32) {
		IQMEM_FROM(float, *(1.0f / 32768.0f));
	} else {
		IQMEM_FROM(int16_t, );
	}
}

/* ws_iqmem_trunc16 without branches, for the loops below (same result for every input:
 * the clamps and the NaN select happen on the scaled value, then C truncates toward
 * zero). */
#define IQMEM_TRUNC(x)                                                                  \
	((uint16_t)(int16_t)(int32_t)((x) != (x)                              ? 0.0     \
					      : (double)(x)*32768.0 > 32767.0 ? 32767.0 \
					      : (double)(x)*32768.0 < -32768.0          \
					      ? -32768.0                                \
					      : (double)(x)*32768.0))
#define IQMEM_AS_IS(x) ((uint16_t)(x))

/* Write IQ converts every packet it sends through here, so like the read loops these are
 * one loop per element type with the type's branch outside it: the interleaved complex
 * layout as one run of 16-bit halves, the others I then Q (Q = 0 for a real array). */
#define IQMEM_TO_PAIRS(T, CONV)                                \
	do {                                                   \
		const T *v = (const T *)m->re + k;             \
		for (size_t i = 0; i < 2 * (size_t)cnt; i++) { \
			uint16_t h = CONV(v[i]);               \
			out[2 * i] = (uint8_t)(h >> 8);        \
			out[2 * i + 1] = (uint8_t)h;           \
		}                                              \
	} while (0)
#define IQMEM_TO(T, CONV)                                                       \
	do {                                                                    \
		const T *re = (const T *)m->re + k, *im = (const T *)m->im + k; \
		for (uint32_t i = 0; i < cnt; i++) {                            \
			uint16_t h = CONV(re[(size_t)i * s]);                   \
			out[4 * (size_t)i] = (uint8_t)(h >> 8);                 \
			out[4 * (size_t)i + 1] = (uint8_t)h;                    \
			h = m->im ? CONV(im[(size_t)i * s]) : 0;                \
			out[4 * (size_t)i + 2] = (uint8_t)(h >> 8);             \
			out[4 * (size_t)i + 3] = (uint8_t)h;                    \
		}                                                               \
	} while (0)

void ws_iqmem_to_wire(uint8_t *out, const ws_iqmem *m, uint64_t idx, uint32_t cnt)
{
	size_t s = m->stride, k = (size_t)idx * s;
	if (m->elem == WS_IQMEM_U32) {
		const uint32_t *w = (const uint32_t *)m->re + k;
		for (uint32_t i = 0; i < cnt; i++)
			ws_put_be32(out + 4 * (size_t)i, w[(size_t)i * s]);
	} else if (m->elem == WS_IQMEM_F64 && interleaved(m, 8)) {
		IQMEM_TO_PAIRS(double, IQMEM_TRUNC);
	} else if (m->elem == WS_IQMEM_F32 && interleaved(m, 4)) {
		IQMEM_TO_PAIRS(float, IQMEM_TRUNC);
	} else if (m->elem == WS_IQMEM_I16 && interleaved(m, 2)) {
		IQMEM_TO_PAIRS(int16_t, IQMEM_AS_IS);
	} else if (m->elem == WS_IQMEM_F64) {
		IQMEM_TO(double, IQMEM_TRUNC);
	} else if (m->elem == WS_IQMEM_F32) {
		IQMEM_TO(float, IQMEM_TRUNC);
	} else {
		IQMEM_TO(int16_t, IQMEM_AS_IS);
	}
}
