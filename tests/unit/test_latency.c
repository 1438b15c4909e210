/* SPDX-License-Identifier: BSD-2-Clause */
/* test_latency: ws_latency_stats from known histograms, exact expected values worked out
 * by hand from hist.h's layout (a value's bucket and its highest equivalent value). */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "measure/latency.h"

static ws_hist h;

static void test_empty(void)
{
	ws_latency_stats s;
	memset(&s, 0xff, sizeof(s));
	ws_latency_stats_of(NULL, &s);
	CHECK_U64("empty", s.count, 0);
	CHECK_DBL("empty", s.p99_us, 0, 0);
	CHECK_DBL("empty", s.max_us, 0, 0);
	ws_hist_init(&h);
	memset(&s, 0xff, sizeof(s));
	ws_latency_stats_of(&h, &s);
	CHECK_U64("empty", s.count, 0);
	CHECK_U64("empty", s.overflow, 0);
	CHECK_DBL("empty", s.min_us, 0, 0);
	CHECK_DBL("empty", s.mean_us, 0, 0);
	CHECK_DBL("empty", s.p9999_us, 0, 0);
	CHECK_DBL("empty", ws_latency_percentile_us(&h, 50), 0, 0);
	CHECK_DBL("empty", ws_latency_percentile_us(NULL, 50), 0, 0);
}

/* 1..200 ns: below 256 ns every value has its own bucket, so the percentiles are the
 * order statistics themselves: rank ceil(p/100 * 200). */
static void test_uniform_exact(void)
{
	ws_hist_init(&h);
	for (uint64_t v = 1; v <= 200; v++)
		ws_hist_record(&h, v);
	ws_latency_stats s;
	ws_latency_stats_of(&h, &s);
	CHECK_U64("uniform", s.count, 200);
	CHECK_U64("uniform", s.overflow, 0);
	CHECK_DBL("uniform", s.min_us, 0.001, 0);
	CHECK_DBL("uniform", s.max_us, 0.200, 0);
	CHECK_DBL("uniform", s.mean_us, 0.1005, 1e-15);
	/* population stddev of 1..n is sqrt((n^2 - 1) / 12) */
	CHECK_DBL("uniform", s.stddev_us, sqrt(39999.0 / 12.0) / 1000.0, 1e-12);
	CHECK_DBL("uniform", s.p50_us, 0.100, 0);
	CHECK_DBL("uniform", s.p90_us, 0.180, 0);
	CHECK_DBL("uniform", s.p99_us, 0.198, 0);
	CHECK_DBL("uniform", s.p999_us, 0.200, 0);  /* rank ceil(199.8) = 200 = max */
	CHECK_DBL("uniform", s.p9999_us, 0.200, 0);
	for (unsigned i = 0; i < WS_LATENCY_NPCT; i++)
		CHECK_DBL("uniform", ws_latency_stats_pct(&s, i),
			  ws_latency_percentile_us(&h, ws_latency_pcts[i]), 0);
	CHECK_DBL("uniform", ws_latency_stats_pct(&s, WS_LATENCY_NPCT), 0, 0);
	CHECK_DBL("uniform", ws_latency_percentile_us(&h, 0), 0.001, 0);
	CHECK_DBL("uniform", ws_latency_percentile_us(&h, 100), 0.200, 0);
	CHECK_DBL("uniform", ws_latency_percentile_us(&h, 250), 0.200, 0); /* clamped */
}

/* 999 round trips of 10 us and one of 5 s. 10000 ns lies in octave [8192, 16384), whose
 * sub-buckets are 64 ns wide: bucket 9984..10047, so every percentile whose rank falls
 * among the 999 reads 10.047 us; rank 1000 (P99.99 of 1000 samples: ceil(999.9)) is the
 * exact max. */
static void test_tail(void)
{
	ws_hist_init(&h);
	CHECK_INT("tail", ws_hist_record_n(&h, 10000, 999, NULL), 0);
	ws_hist_record(&h, 5000000000ull);
	ws_latency_stats s;
	ws_latency_stats_of(&h, &s);
	CHECK_U64("tail", s.count, 1000);
	CHECK_DBL("tail", s.min_us, 10.0, 0);
	CHECK_DBL("tail", s.max_us, 5000000.0, 0);
	CHECK_DBL("tail", s.p50_us, 10.047, 1e-12);
	CHECK_DBL("tail", s.p90_us, 10.047, 1e-12);
	CHECK_DBL("tail", s.p99_us, 10.047, 1e-12);
	CHECK_DBL("tail", s.p999_us, 10.047, 1e-12);
	CHECK_DBL("tail", s.p9999_us, 5000000.0, 0);
	CHECK_DBL("tail", s.mean_us, 5009.99, 1e-9);
	double m = 5009990.0, ex2 = (999.0 * 1e8 + 2.5e19) / 1000.0;
	CHECK_DBL("tail", s.stddev_us, sqrt(ex2 - m * m) / 1000.0, 1e-6);
}

/* A round trip above 100 s is counted in overflow, count, max and mean, and a rank that
 * lands on it reads max. */
static void test_overflow(void)
{
	ws_hist_init(&h);
	ws_hist_record(&h, 1000);
	ws_hist_record(&h, 1000);
	ws_hist_record(&h, 200000000000ull);
	ws_latency_stats s;
	ws_latency_stats_of(&h, &s);
	CHECK_U64("overflow", s.count, 3);
	CHECK_U64("overflow", s.overflow, 1);
	CHECK_DBL("overflow", s.min_us, 1.0, 0);
	CHECK_DBL("overflow", s.max_us, 200000000.0, 0);
	CHECK_DBL("overflow", s.p50_us, 1.003, 1e-12); /* rank 2: bucket 1000..1003 (4 ns wide) */
	CHECK_DBL("overflow", s.p99_us, 200000000.0, 0);
	CHECK_DBL("overflow", s.mean_us, (2000.0 + 2e11) / 3.0 / 1000.0, 1e-6);
}

int main(void)
{
	RUN(test_empty);
	RUN(test_uniform_exact);
	RUN(test_tail);
	RUN(test_overflow);
	TEST_MAIN_END();
}
