/* SPDX-License-Identifier: BSD-2-Clause */
/* latency: the summary statistics of a request/response test's round trips, in
 * microseconds, computed once from a ws_hist.
 *
 * The classic -v 2 line, the -j output selectors (MIN_LATENCY .. P99_LATENCY and the new
 * P99.9/P99.99 ones) and JSON all print these figures; they read them from one
 * ws_latency_stats so that no two outputs can disagree on a definition. Percentiles are
 * hist.h's (docs/latency.md: the smallest recorded value v such that at least p% of the
 * samples are <= v, overstated by at most 0.78%, with P0 = min and P100 = max exact);
 * min, max, mean and stddev are exact (population stddev). Nanoseconds become
 * microseconds by one division by 1000 in double, which is exact to 2^-52 relative. */
#ifndef WS_MEASURE_LATENCY_H
#define WS_MEASURE_LATENCY_H

#include <stdint.h>

#include "measure/hist.h"

/* The percentiles warpspeed reports, in the order of the fields p[] below. */
#define WS_LATENCY_NPCT 5
extern const double ws_latency_pcts[WS_LATENCY_NPCT]; /* 50, 90, 99, 99.9, 99.99 */

typedef struct ws_latency_stats {
	uint64_t count;    /* samples, overflow included */
	uint64_t overflow; /* samples above WS_HIST_MAX_NS (100 s): in count/max/mean only */
	double min_us, max_us, mean_us, stddev_us;
	double p50_us, p90_us, p99_us, p999_us, p9999_us;
} ws_latency_stats;

/* Fill s from h. h NULL or empty gives count 0 and every figure 0 (callers print "no
 * samples" rather than a 0 latency; see ws_latency_stats.count). */
void ws_latency_stats_of(const struct ws_hist *h, ws_latency_stats *s);

/* The percentile p (0..100, clamped) of h in microseconds; 0 for NULL or empty. */
double ws_latency_percentile_us(const struct ws_hist *h, double p);

/* The i-th entry of ws_latency_pcts read from s (i < WS_LATENCY_NPCT, else 0). */
double ws_latency_stats_pct(const ws_latency_stats *s, unsigned i);

#endif
