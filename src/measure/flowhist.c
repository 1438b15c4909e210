/* SPDX-License-Identifier: BSD-2-Clause */
/* flowhist: the coarse per-flow latency histogram; see flowhist.h for the bound and size. */
#include "measure/flowhist.h"

#include "measure/hist.h"

#include <string.h>

void ws_flowhist_init(ws_flowhist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

static unsigned flowhist_index(uint64_t ns)
{
	if (ns > WS_HIST_MAX_NS)
		ns = WS_HIST_MAX_NS;
	/* as hist.c: ns | 16 puts every value below 32 in octave 4 with shift 0 (index = ns) */
	unsigned e = 63u - (unsigned)__builtin_clzll(ns | (1u << WS_FLOWHIST_SUB_BITS));
	unsigned s = e - WS_FLOWHIST_SUB_BITS;
	return (s << WS_FLOWHIST_SUB_BITS) + (unsigned)(ns >> s);
}

static uint64_t flowhist_high(unsigned idx)
{
	if (idx < 2u << WS_FLOWHIST_SUB_BITS)
		return idx;
	unsigned s = (idx >> WS_FLOWHIST_SUB_BITS) - 1;
	uint64_t low = (uint64_t)(idx - (s << WS_FLOWHIST_SUB_BITS)) << s;
	return low + ((uint64_t)1 << s) - 1;
}

void ws_flowhist_record(ws_flowhist *h, uint64_t ns)
{
	uint32_t *b = &h->bucket[flowhist_index(ns)];
	if (*b != UINT32_MAX)
		(*b)++;
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

uint64_t ws_flowhist_percentile(const ws_flowhist *h, double p)
{
	if (h->count == 0)
		return 0;
	uint64_t rank = ws_hist_rank(h->count, p);
	if (rank <= 1)
		return h->min;
	if (rank >= h->count)
		return h->max;
	uint64_t run = 0;
	for (unsigned i = 0; i < WS_FLOWHIST_BUCKETS; i++) {
		run += h->bucket[i];
		if (run >= rank) {
			uint64_t v = flowhist_high(i);
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}
