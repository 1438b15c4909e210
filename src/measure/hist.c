/* SPDX-License-Identifier: BSD-2-Clause */
/* hist: log-linear latency histogram; see hist.h for the layout and its error bound and
 * docs/latency.md for the percentile definition and how it relates to netperf's. */
#include "measure/hist.h"

#include <math.h>
#include <string.h>

void ws_hist_init(ws_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

unsigned ws_hist_index(uint64_t ns)
{
	/* v | 128 makes every value below 256 land in octave 7 with shift 0: index = v. */
	unsigned e = 63u - (unsigned)__builtin_clzll(ns | WS_HIST_SUB);
	unsigned s = e - WS_HIST_SUB_BITS;
	return (s << WS_HIST_SUB_BITS) + (unsigned)(ns >> s);
}

uint64_t ws_hist_bucket_low(unsigned idx)
{
	if (idx < 2 * WS_HIST_SUB)
		return idx;
	unsigned s = (idx >> WS_HIST_SUB_BITS) - 1;
	return (uint64_t)(idx - (s << WS_HIST_SUB_BITS)) << s;
}

uint64_t ws_hist_bucket_high(unsigned idx)
{
	if (idx < 2 * WS_HIST_SUB)
		return idx;
	unsigned s = (idx >> WS_HIST_SUB_BITS) - 1;
	return ws_hist_bucket_low(idx) + ((uint64_t)1 << s) - 1;
}

/* 64 x 64 -> 128-bit product, portable (no __int128 on 32-bit targets). */
static void mul64(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)a * b;
	*lo = (uint64_t)p;
	*hi = (uint64_t)(p >> 64);
#else
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	*lo = (mid << 32) | (ll & 0xffffffffu);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* acc (n limbs) += add (m limbs, m <= n), carries propagate; wraps only past n limbs. */
static void add_limbs(uint64_t *acc, unsigned n, const uint64_t *add, unsigned m)
{
	uint64_t carry = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = i < m ? add[i] : 0;
		uint64_t t = acc[i] + a;
		uint64_t c = t < a;
		acc[i] = t + carry;
		carry = c + (acc[i] < carry);
	}
}

static void add_sums(ws_hist *h, uint64_t ns, uint64_t n)
{
	uint64_t s[2], q[3], sq[2];
	mul64(ns, n, &s[0], &s[1]);
	add_limbs(h->sum, 2, s, 2);
	mul64(ns, ns, &sq[0], &sq[1]);
	/* (sq[1]:sq[0]) * n as three limbs */
	uint64_t l0, l1, h0, h1;
	mul64(sq[0], n, &l0, &l1);
	mul64(sq[1], n, &h0, &h1);
	q[0] = l0;
	q[1] = l1 + h0;
	q[2] = h1 + (q[1] < h0);
	add_limbs(h->sq, 3, q, 3);
}

void ws_hist_record(ws_hist *h, uint64_t ns)
{
	if (ns <= WS_HIST_MAX_NS)
		h->bucket[ws_hist_index(ns)]++;
	else
		h->overflow++;
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	uint64_t one = ns, sq[2];
	add_limbs(h->sum, 2, &one, 1);
	mul64(ns, ns, &sq[0], &sq[1]);
	add_limbs(h->sq, 3, sq, 2);
}

int ws_hist_record_n(ws_hist *h, uint64_t ns, uint64_t count, ws_err *err)
{
	if (count > UINT64_MAX - h->count)
		return ws_err_set(err, WS_E_INVAL,
				  "histogram: %llu more samples would pass the total of 2^64-1 "
				  "(have %llu)",
				  (unsigned long long)count, (unsigned long long)h->count);
	if (count == 0)
		return 0;
	if (ns <= WS_HIST_MAX_NS)
		h->bucket[ws_hist_index(ns)] += count;
	else
		h->overflow += count;
	h->count += count;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	add_sums(h, ns, count);
	return 0;
}

int ws_hist_merge(ws_hist *dst, const ws_hist *src, ws_err *err)
{
	if (src->count > UINT64_MAX - dst->count)
		return ws_err_set(err, WS_E_INVAL,
				  "histogram merge: %llu + %llu samples pass the total of 2^64-1",
				  (unsigned long long)dst->count, (unsigned long long)src->count);
	uint64_t s[2] = {src->sum[0], src->sum[1]};
	uint64_t q[3] = {src->sq[0], src->sq[1], src->sq[2]};
	for (unsigned i = 0; i < WS_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->overflow += src->overflow;
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	add_limbs(dst->sum, 2, s, 2);
	add_limbs(dst->sq, 3, q, 3);
	return 0;
}

uint64_t ws_hist_count(const ws_hist *h) { return h->count; }
uint64_t ws_hist_overflow(const ws_hist *h) { return h->overflow; }
uint64_t ws_hist_min(const ws_hist *h) { return h->count ? h->min : 0; }
uint64_t ws_hist_max(const ws_hist *h) { return h->count ? h->max : 0; }

static double limbs_to_double(const uint64_t *l, unsigned n)
{
	double d = 0;
	for (unsigned i = n; i-- > 0;)
		d = d * 18446744073709551616.0 + (double)l[i];
	return d;
}

double ws_hist_mean(const ws_hist *h)
{
	if (h->count == 0)
		return 0;
	return limbs_to_double(h->sum, 2) / (double)h->count;
}

double ws_hist_stddev(const ws_hist *h)
{
	if (h->count < 2)
		return 0;
	/* E[x^2] - E[x]^2 from the exact integer sums, in double: relative error about
	 * 2^-52 of E[x^2], so a spread far below 1e-8 of the mean is not resolved. */
	double n = (double)h->count, mean = ws_hist_mean(h);
	double var = limbs_to_double(h->sq, 3) / n - mean * mean;
	return var > 0 ? sqrt(var) : 0;
}

uint64_t ws_hist_rank(uint64_t count, double p)
{
	if (!(p > 0))
		p = 0;
	if (p > 100)
		p = 100;
	/* A rank within a relative 1e-12 above an integer is that integer, so that
	 * p = 100 * k / count gives rank k despite rounding in p. */
	double x = p * (double)count / 100.0 * (1 - 1e-12);
	uint64_t rank = x >= (double)count ? count : (uint64_t)x;
	if ((double)rank < x)
		rank++;
	return rank < 1 ? 1 : rank;
}

uint64_t ws_hist_percentile(const ws_hist *h, double p)
{
	if (h->count == 0)
		return 0;
	uint64_t rank = ws_hist_rank(h->count, p);
	if (rank <= 1)
		return h->min;
	if (rank >= h->count)
		return h->max;
	uint64_t run = 0;
	for (unsigned i = 0; i < WS_HIST_BUCKETS; i++) {
		run += h->bucket[i];
		if (run >= rank) {
			uint64_t v = ws_hist_bucket_high(i);
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max; /* the rank lies in the overflow bucket */
}

void ws_hist_decades(const ws_hist *h, uint64_t out[8][10], uint64_t *over)
{
	memset(out, 0, sizeof(uint64_t[8][10]));
	*over = h->overflow;
	for (unsigned i = 0; i < WS_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		uint64_t us = ws_hist_bucket_low(i) / 1000, step = 1;
		unsigned r = 0;
		while (r < 8 && us >= step * 10) {
			step *= 10;
			r++;
		}
		if (r == 8)
			*over += h->bucket[i];
		else
			out[r][us / step] += h->bucket[i];
	}
}
