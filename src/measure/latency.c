/* SPDX-License-Identifier: BSD-2-Clause */
/* latency: round-trip summary statistics from a ws_hist; see latency.h. */
#include "measure/latency.h"

#include <string.h>

const double ws_latency_pcts[WS_LATENCY_NPCT] = {50.0, 90.0, 99.0, 99.9, 99.99};

static double ns_to_us(double ns) { return ns / 1000.0; }

double ws_latency_percentile_us(const ws_hist *h, double p)
{
	if (!h || ws_hist_count(h) == 0)
		return 0.0;
	return ns_to_us((double)ws_hist_percentile(h, p));
}

void ws_latency_stats_of(const ws_hist *h, ws_latency_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (!h || ws_hist_count(h) == 0)
		return;
	s->count = ws_hist_count(h);
	s->overflow = ws_hist_overflow(h);
	s->min_us = ns_to_us((double)ws_hist_min(h));
	s->max_us = ns_to_us((double)ws_hist_max(h));
	s->mean_us = ns_to_us(ws_hist_mean(h));
	s->stddev_us = ns_to_us(ws_hist_stddev(h));
	double *p[WS_LATENCY_NPCT] = {&s->p50_us, &s->p90_us, &s->p99_us, &s->p999_us,
				      &s->p9999_us};
	for (unsigned i = 0; i < WS_LATENCY_NPCT; i++)
		*p[i] = ws_latency_percentile_us(h, ws_latency_pcts[i]);
}

double ws_latency_stats_pct(const ws_latency_stats *s, unsigned i)
{
	const double v[WS_LATENCY_NPCT] = {s->p50_us, s->p90_us, s->p99_us, s->p999_us,
					   s->p9999_us};
	return i < WS_LATENCY_NPCT ? v[i] : 0.0;
}
