/* SPDX-License-Identifier: BSD-2-Clause */
/* iqvec: what the vectorized IQ sample loops share (iqconv.c for the public formats,
 * iqmem.c for the MEX's array layouts).
 *
 * These loops run over every sample of every transfer, so they are written for the
 * compiler's vectorizer: wire halves and words loaded through memcpy (no alignment
 * assumed) and byte-swapped with shifts the compiler turns into one shuffle, and each loop
 * built for AVX-512 and AVX2 as well as the baseline where gcc can pick at load time. The
 * files that include this get the vectorizer's flags (VEC_FLAGS in the Makefile). Where
 * the byte order is not known at compile time the byte-by-byte helpers of util/bytes.h
 * are used: slower, right everywhere. */
#ifndef WS_IQ_IQVEC_H
#define WS_IQ_IQVEC_H

#include "util/bytes.h"

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IQ_LE 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define IQ_BE 1
#endif

/* On x86-64 with gcc, each conversion is also built for AVX2 and for AVX-512 (x86-64-v4)
 * and picked at load time (an ifunc): baseline SSE2 has no blend and no 8-wide lanes, and
 * the float to wire loop runs much faster with AVX2 and faster again with AVX-512
 * (bench/iqconv_bench; docs/benchmarks.md has the figures). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define IQ_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define IQ_CLONES
#endif

/* The wire's 16-bit half at p as host order. */
static inline uint16_t wire16(const uint8_t *p)
{
#if defined(IQ_LE) || defined(IQ_BE)
	uint16_t v;
	memcpy(&v, p, 2);
#ifdef IQ_LE
	v = (uint16_t)(v << 8 | v >> 8);
#endif
	return v;
#else
	return ws_get_be16(p);
#endif
}

/* The wire's 32-bit word at p as a host integer. */
static inline uint32_t wire32(const uint8_t *p)
{
#if defined(IQ_LE) || defined(IQ_BE)
	uint32_t v;
	memcpy(&v, p, 4);
#ifdef IQ_LE
	v = v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
#endif
	return v;
#else
	return ws_get_be32(p);
#endif
}

#endif
