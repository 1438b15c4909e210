/* SPDX-License-Identifier: BSD-2-Clause */
/* test_hist: the latency histogram's layout, error bound, percentiles, sums, merge and
 * netperf decade table, against exact expected values. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "measure/hist.h"

static ws_hist ha, hb, hc;

/* highest equivalent value of v is within v * 2^-7 above v, and at or above v */
static int within(uint64_t v)
{
	uint64_t hi = ws_hist_bucket_high(ws_hist_index(v));
	uint64_t lo = ws_hist_bucket_low(ws_hist_index(v));
	return lo <= v && hi >= v && (hi - v) <= (v >> 7);
}

static void test_edges(void)
{
	const uint64_t vals[] = {0, 1, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025,
				 (1ull << 20) - 1, 1ull << 20, (1ull << 20) + 1, (1ull << 36) - 1,
				 1ull << 36, WS_HIST_MAX_NS};
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		ws_hist_init(&ha);
		ws_hist_record(&ha, vals[i]);
		CHECK("edges", within(vals[i]));
		CHECK_U64("edges", ws_hist_min(&ha), vals[i]);
		CHECK_U64("edges", ws_hist_max(&ha), vals[i]);
		CHECK_U64("edges", ws_hist_percentile(&ha, 50), vals[i]);
		CHECK_U64("edges", ws_hist_overflow(&ha), 0);
	}
	CHECK_INT("edges", ws_hist_index(255), 255);
	CHECK_INT("edges", ws_hist_index(256), 256);
	CHECK_INT("edges", ws_hist_index(257), 256);
	CHECK_U64("edges", ws_hist_bucket_high(256), 257);
	CHECK_INT("edges", ws_hist_index(WS_HIST_MAX_NS), 3898 /* 29*128 + (1e11 >> 29) */);
	CHECK_U64("edges", ws_hist_bucket_high(WS_HIST_BUCKETS - 1), (1ull << 37) - 1);
	const uint64_t big[] = {WS_HIST_MAX_NS + 1, UINT64_MAX};
	for (size_t i = 0; i < 2; i++) {
		ws_hist_init(&ha);
		ws_hist_record(&ha, big[i]);
		CHECK_U64("edges", ws_hist_overflow(&ha), 1);
		CHECK_U64("edges", ws_hist_count(&ha), 1);
		CHECK_U64("edges", ws_hist_max(&ha), big[i]);
		CHECK_U64("edges", ws_hist_percentile(&ha, 99), big[i]);
	}
	CHECK_DBL("edges", ws_hist_mean(&ha), 18446744073709551615.0, 0);
}

static void test_bound_sweep(void)
{
	int bad = 0;
	for (uint64_t v = 0; v < 70000; v++)
		bad += !within(v);
	for (uint64_t v = WS_HIST_MAX_NS - 100000; v <= WS_HIST_MAX_NS; v++)
		bad += !within(v);
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 1000000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t v = 1 + (x >> (27 + (x & 31))) % WS_HIST_MAX_NS;
		bad += !within(v);
	}
	CHECK_INT("bound", bad, 0);
	/* the bound is tight: the first value of a width-2^29 bucket */
	uint64_t v = 1ull << 36;
	CHECK_U64("bound", ws_hist_bucket_high(ws_hist_index(v)) - v, (v >> 7) - 1);
}

static void test_uniform(void)
{
	ws_hist_init(&ha);
	const uint64_t n = 100000;
	for (uint64_t v = 1; v <= n; v++)
		ws_hist_record(&ha, v);
	CHECK_U64("uniform", ws_hist_count(&ha), n);
	CHECK_DBL("uniform", ws_hist_mean(&ha), (n + 1) / 2.0, 1e-9);
	CHECK_DBL("uniform", ws_hist_stddev(&ha), sqrt(((double)n * n - 1) / 12.0), 1e-6);
	const double ps[] = {1, 10, 50, 90, 99, 99.9};
	for (size_t i = 0; i < 6; i++) {
		uint64_t want = (uint64_t)(ps[i] * 1000 + 0.5); /* exact: p% of 100000 */
		uint64_t got = ws_hist_percentile(&ha, ps[i]);
		uint64_t hi = ws_hist_bucket_high(ws_hist_index(want));
		CHECK_U64("uniform", got, hi < n ? hi : n);
		CHECK("uniform", got >= want && got - want <= want >> 7);
	}
	CHECK_U64("uniform", ws_hist_percentile(&ha, 0), 1);
	CHECK_U64("uniform", ws_hist_percentile(&ha, 100), n);
	CHECK_U64("uniform", ws_hist_percentile(&ha, 50), 50175); /* bucket 49920..50175 */
}

static void test_two_point(void)
{
	ws_hist_init(&ha);
	int e = ws_hist_record_n(&ha, 20000, 98, NULL) | ws_hist_record_n(&ha, 5000000, 2, NULL);
	CHECK_INT("twopoint", e, 0);
	CHECK_U64("twopoint", ws_hist_percentile(&ha, 50), 20095); /* 19968..20095 */
	CHECK_U64("twopoint", ws_hist_percentile(&ha, 98), 20095);
	CHECK_U64("twopoint", ws_hist_percentile(&ha, 99), 5000000); /* clamped to max */
	double mean = (98 * 20000.0 + 2 * 5000000.0) / 100;
	CHECK_DBL("twopoint", ws_hist_mean(&ha), mean, 1e-9);
	double var = (98 * 20000.0 * 20000 + 2 * 5e6 * 5e6) / 100 - mean * mean;
	CHECK_DBL("twopoint", ws_hist_stddev(&ha), sqrt(var), 1e-6);
}

static void test_geometric(void)
{
	ws_hist_init(&ha);
	/* 10^k ns recorded 10 - k times for k = 0..9 */
	uint64_t v = 1, total = 0;
	double sum = 0;
	for (int k = 0; k <= 9; k++, v *= 10) {
		ws_hist_record_n(&ha, v, 10 - k, NULL);
		total += 10 - k, sum += (10 - k) * (double)v;
	}
	CHECK_U64("geometric", ws_hist_count(&ha), total);
	CHECK_DBL("geometric", ws_hist_mean(&ha), sum / total, 1e-6);
	CHECK_U64("geometric", ws_hist_percentile(&ha, 100.0 * 10 / 55), 1);
	CHECK_U64("geometric", ws_hist_percentile(&ha, 100.0 * 19 / 55), 10); /* 10 ones, 9 tens */
	CHECK_U64("geometric", ws_hist_percentile(&ha, 100.0 * 54 / 55),
		  ws_hist_bucket_high(ws_hist_index(100000000)));
}

static void fill(ws_hist *h, uint64_t seed, int n)
{
	for (int i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		ws_hist_record(h, (seed >> 20) % (WS_HIST_MAX_NS * 2));
	}
}

static void test_merge(void)
{
	ws_hist_init(&ha), ws_hist_init(&hb), ws_hist_init(&hc);
	fill(&ha, 1, 5000), fill(&hb, 2, 7000), fill(&hc, 1, 5000), fill(&hc, 2, 7000);
	CHECK_INT("merge", ws_hist_merge(&ha, &hb, NULL), 0);
	CHECK_MEM("merge", &ha, &hc, sizeof ha); /* buckets, count, min, max, sums */
	CHECK_DBL("merge", ws_hist_stddev(&ha), ws_hist_stddev(&hc), 0);
	ws_hist_init(&hb);
	CHECK_INT("merge", ws_hist_merge(&ha, &hb, NULL), 0);
	CHECK_MEM("merge", &ha, &hc, sizeof ha);
	CHECK_INT("merge", ws_hist_merge(&hb, &hc, NULL), 0);
	CHECK_MEM("merge", &hb, &hc, sizeof hb);
	ws_hist_init(&ha), ws_hist_init(&hb);
	for (int i = 0; i < 1000; i++)
		ws_hist_record(&ha, 123456789);
	ws_hist_record_n(&hb, 123456789, 1000, NULL);
	CHECK_MEM("merge", &ha, &hb, sizeof ha);
	ws_err err;
	ws_hist_record_n(&hb, UINT64_MAX, UINT64_MAX - 1000, NULL); /* sums stay exact */
	CHECK_U64("merge", ws_hist_count(&hb), UINT64_MAX);
	CHECK_INT("merge", ws_hist_record_n(&hb, 1, 1, &err), -WS_E_INVAL);
	CHECK_INT("merge", ws_hist_merge(&hb, &ha, &err), -WS_E_INVAL);
	CHECK_U64("merge", ws_hist_count(&hb), UINT64_MAX);
}

static void test_empty_one(void)
{
	ws_hist_init(&ha);
	CHECK_U64("empty", ws_hist_count(&ha), 0);
	CHECK_U64("empty", ws_hist_min(&ha), 0);
	CHECK_U64("empty", ws_hist_max(&ha), 0);
	CHECK_U64("empty", ws_hist_percentile(&ha, 50), 0);
	CHECK_DBL("empty", ws_hist_mean(&ha), 0, 0);
	CHECK_DBL("empty", ws_hist_stddev(&ha), 0, 0);
	ws_hist_record(&ha, 777777);
	CHECK_U64("one", ws_hist_percentile(&ha, 0), 777777);
	CHECK_U64("one", ws_hist_percentile(&ha, 100), 777777);
	CHECK_U64("one", ws_hist_percentile(&ha, -5), 777777);
	CHECK_DBL("one", ws_hist_mean(&ha), 777777, 0);
	CHECK_DBL("one", ws_hist_stddev(&ha), 0, 0);
}

static void test_decades(void)
{
	static const struct { uint64_t ns, n; int row, col; } s[] = {
		{500, 3, 0, 0},        {1500, 2, 0, 1},      {8999, 1, 0, 8},
		{9000, 4, 0, 8} /* bucket 8960..9023: counted below the 9 us edge */,
		{9024, 5, 0, 9},       {15000, 6, 1, 1},     {250000, 7, 2, 2},
		{5500000, 8, 3, 5},    {55000000, 9, 4, 5},  {550000000, 10, 5, 5},
		{5500000000ull, 11, 6, 5}, {55000000000ull, 12, 7, 5},
		{5000000000ull, 1, 6, 4} /* bucket from 4999610368: below the 5 s edge */,
	};
	uint64_t want[8][10] = {{0}}, got[8][10], over;
	ws_hist_init(&ha);
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
		ws_hist_record_n(&ha, s[i].ns, s[i].n, NULL);
		want[s[i].row][s[i].col] += s[i].n;
	}
	ws_hist_record_n(&ha, 200000000000ull, 13, NULL);
	ws_hist_decades(&ha, got, &over);
	CHECK_MEM("decades", got, want, sizeof want);
	CHECK_U64("decades", over, 13);
	CHECK_U64("decades", got[0][8], 5);
}

int main(void)
{
	RUN(test_edges);
	RUN(test_bound_sweep);
	RUN(test_uniform);
	RUN(test_two_point);
	RUN(test_geometric);
	RUN(test_merge);
	RUN(test_empty_one);
	RUN(test_decades);
	TEST_MAIN_END();
}
