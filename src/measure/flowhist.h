/* SPDX-License-Identifier: BSD-2-Clause */
/* flowhist: a coarse per-flow latency histogram, small enough to keep one per flow for
 * 10000 flows.
 *
 * The full histogram (hist.h, 2^-7 bucket bound) is 31 KiB; one per flow would be 310 MiB
 * at WS_MAX_STREAMS. A flow's own p50/p99 only has to tell flows apart, so this one keeps 16
 * sub-buckets per octave (every bucket spans less than 1/16 = 6.25% of its values), 544
 * buckets of 32-bit counts: 2.2 KiB a flow, 22 MiB for 10000 flows. Counts saturate at
 * 2^32-1 (a flow would need 4 billion round trips in one bucket); min, max and count are
 * exact. Values above WS_HIST_MAX_NS land in the top bucket. The thread's full histogram
 * still gets every sample, so the aggregate percentiles keep the fine bound. */
#ifndef WS_MEASURE_FLOWHIST_H
#define WS_MEASURE_FLOWHIST_H

#include <stdint.h>

#define WS_FLOWHIST_SUB_BITS 4
#define WS_FLOWHIST_BUCKETS  544 /* (36 - 4 + 2) octaves of 16, covering 0 .. 2^37 ns */

typedef struct ws_flowhist {
	uint32_t bucket[WS_FLOWHIST_BUCKETS];
	uint64_t count;
	uint64_t min, max; /* exact; min is UINT64_MAX while empty */
} ws_flowhist;

void ws_flowhist_init(ws_flowhist *h);
void ws_flowhist_record(ws_flowhist *h, uint64_t ns);
/* The rank rule of ws_hist_percentile (docs/latency.md): rank = max(1, ceil(p/100 * count));
 * rank 1 gives min, rank count gives max, else the highest value of the rank's bucket clamped
 * to [min, max]. 0 when empty. Saturated buckets make a rank past them read as max. */
uint64_t ws_flowhist_percentile(const ws_flowhist *h, double p);

#endif
