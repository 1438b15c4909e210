/* SPDX-License-Identifier: BSD-2-Clause */
/* hist: the latency histogram of the request/response family, log-linear (HdrHistogram
 * class), fixed size, O(1) record with no floating point and no division.
 *
 * Layout: values 0..255 ns have one bucket each; above, every power-of-two octave
 * [2^e, 2^(e+1)) is split into 128 equal sub-buckets of width 2^(e-7). A value's bucket
 * therefore spans less than 2^-7 (0.78%) of the value: the highest value equivalent to
 * any v is within v * 2^-7 above it, the exact bound from 1 ns to 100 s. Values above
 * WS_HIST_MAX_NS (100 s) are counted in an overflow bucket, in count, max and the sums.
 * Mean and stddev come from exact integer sums (128-bit sum, 192-bit sum of squares,
 * held in 64-bit limbs), which cannot overflow for fewer than 2^64 samples of any value.
 * No locking: each flow or thread owns one histogram and merges at the end. */
#ifndef WS_MEASURE_HIST_H
#define WS_MEASURE_HIST_H

#include <stdint.h>

#include "util/err.h"

#define WS_HIST_SUB_BITS 7
#define WS_HIST_SUB      (1u << WS_HIST_SUB_BITS) /* 128 sub-buckets per octave */
#define WS_HIST_MAX_NS   100000000000ull          /* 100 s; above: overflow */
#define WS_HIST_TOP_EXP  36                       /* floor(log2(100 s in ns)) */
#define WS_HIST_BUCKETS  ((WS_HIST_TOP_EXP - WS_HIST_SUB_BITS + 2) * WS_HIST_SUB) /* 3968 */

typedef struct ws_hist {
	uint64_t bucket[WS_HIST_BUCKETS];
	uint64_t overflow; /* samples above WS_HIST_MAX_NS */
	uint64_t count;
	uint64_t min, max; /* exact; min is UINT64_MAX while empty */
	uint64_t sum[2];   /* sum of values, little-endian 64-bit limbs */
	uint64_t sq[3];    /* sum of squares, little-endian 64-bit limbs */
} ws_hist;

void ws_hist_init(ws_hist *h);
void ws_hist_record(ws_hist *h, uint64_t ns);
/* count copies of ns; -WS_E_INVAL (nothing recorded) if the total would pass 2^64-1. */
int ws_hist_record_n(ws_hist *h, uint64_t ns, uint64_t count, ws_err *err);
/* dst += src, exact (one layout); -WS_E_INVAL (dst unchanged) on total count overflow. */
int ws_hist_merge(ws_hist *dst, const ws_hist *src, ws_err *err);

uint64_t ws_hist_count(const ws_hist *h);
uint64_t ws_hist_overflow(const ws_hist *h);
uint64_t ws_hist_min(const ws_hist *h);  /* 0 when empty */
uint64_t ws_hist_max(const ws_hist *h);  /* 0 when empty */
double ws_hist_mean(const ws_hist *h);   /* 0 when empty */
double ws_hist_stddev(const ws_hist *h); /* population (divides by n); 0 below 2 samples */
/* docs/latency.md: rank = max(1, ceil(p/100 * count)); rank 1 gives min, rank count
 * gives max (a rank within 1e-12 above an integer is that integer), else the highest value equivalent to the rank's bucket clamped to [min, max];
 * the rank in the overflow bucket gives max. p outside [0,100] is clamped; empty: 0. */
uint64_t ws_hist_percentile(const ws_hist *h, double p);
/* That rank rule alone, 1..count for count > 0 (shared with measure/flowhist.h). */
uint64_t ws_hist_rank(uint64_t count, double p);

/* Layout helpers (for tests and renderers). */
unsigned ws_hist_index(uint64_t ns); /* ns <= WS_HIST_MAX_NS */
uint64_t ws_hist_bucket_low(unsigned idx);
uint64_t ws_hist_bucket_high(unsigned idx);

/* netperf's "Histogram of request/response times": row r (UNIT_USEC .. TEN_SEC), column c
 * counts samples of [c*10^r, (c+1)*10^r) whole microseconds; *over counts 100 s and more.
 * A bucket is placed by its lowest value, so a sample less than one bucket width (< 0.78%)
 * above a column edge that is not a bucket edge is counted in the column below. */
void ws_hist_decades(const ws_hist *h, uint64_t out[8][10], uint64_t *over);

#endif
