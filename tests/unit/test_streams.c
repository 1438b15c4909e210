/* SPDX-License-Identifier: BSD-2-Clause */
/* test_streams: per-flow statistics and Jain's fairness index with exact values. */
#include "harness.h"

#include "measure/streams.h"

#include <stdlib.h>

static void test_equal_flows(void)
{
	double v[4] = {100, 100, 100, 100};
	ws_stream_stats s;
	ws_stream_stats_of(v, 4, &s);
	CHECK_INT("equal", s.n, 4);
	CHECK_DBL("equal", s.jain, 1.0, 1e-12);
	CHECK_DBL("equal", s.min, 100, 0);
	CHECK_DBL("equal", s.median, 100, 0);
	CHECK_DBL("equal", s.sum, 400, 0);
}

static void test_one_flow_takes_all(void)
{
	double v[4] = {0, 0, 400, 0};
	ws_stream_stats s;
	ws_stream_stats_of(v, 4, &s);
	CHECK_DBL("starve", s.jain, 0.25, 1e-12); /* 1/n */
	CHECK_DBL("starve", s.max, 400, 0);
	CHECK_DBL("starve", s.min, 0, 0);
	CHECK_DBL("starve", s.median, 0, 0);
}

static void test_mixed(void)
{
	/* (1+2+3+4)^2 / (4 * (1+4+9+16)) = 100/120 */
	double v[4] = {4, 1, 3, 2};
	ws_stream_stats s;
	ws_stream_stats_of(v, 4, &s);
	CHECK_DBL("mixed", s.jain, 100.0 / 120.0, 1e-12);
	CHECK_DBL("mixed", s.median, 2.5, 0);
	CHECK_DBL("mixed", s.mean, 2.5, 0);
	CHECK_DBL("mixed", v[0], 4, 0); /* input untouched */
	double odd[3] = {9, 1, 5};
	ws_stream_stats_of(odd, 3, &s);
	CHECK_DBL("odd", s.median, 5, 0);
	ws_stream_stats_of(odd, 0, &s);
	CHECK_INT("empty", s.n, 0);
	CHECK_DBL("empty", s.jain, 0, 0);
}

static void test_rates(void)
{
	ws_flow_result f[3] = {
		{.bytes = 1000000000, .elapsed_ns = 2000000000},
		{.bytes = 500, .elapsed_ns = 1000000000, .error = -110},
		{.bytes = 250000000, .elapsed_ns = 500000000},
	};
	ws_side_result r = {.flows = f, .nflows = 3};
	double rates[3];
	uint32_t failed;
	uint32_t n = ws_stream_rates(&r, rates, &failed);
	CHECK_INT("rates", n, 2);
	CHECK_INT("rates", failed, 1);
	CHECK_DBL("rates", rates[0], 5e8, 1e-3);
	CHECK_DBL("rates", rates[1], 5e8, 1e-3);
}

int main(void)
{
	RUN(test_equal_flows);
	RUN(test_one_flow_takes_all);
	RUN(test_mixed);
	RUN(test_rates);
	TEST_MAIN_END();
}
