/* SPDX-License-Identifier: BSD-2-Clause */
/* test_series: named time series grow, find their names, count lost probes and give
 * exact summary figures over the samples that were measured. */
#include "harness.h"

#include "model/series.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void grow_and_find(void)
{
	const char *n = "grow_and_find";
	ws_series_set set = {0};
	int up = ws_series_add(&set, "TCP upload BE", WS_SERIES_UP, NULL, 0);
	int ping = ws_series_add(&set, "Ping (ms) UDP EF", WS_SERIES_PROBE, "udp", 0xb8);
	CHECK_INT(n, up, 0);
	CHECK_INT(n, ping, 1);
	for (int i = 0; i < 1000; i++) /* past the first few reallocations */
		CHECK_INT(n, ws_series_push(&set, up, i * 0.2, 100.0 + i), 0);
	CHECK_INT(n, (int)set.s[up].n, 1000);
	CHECK_DBL(n, set.s[up].t[999], 199.8, 1e-9);
	CHECK_DBL(n, set.s[up].v[999], 1099.0, 0);
	CHECK_INT(n, ws_series_find(&set, "Ping (ms) UDP EF"), 1);
	CHECK_INT(n, ws_series_find(&set, "Ping (ms) UDP"), -1);
	CHECK_STR(n, set.s[ping].probe, "udp");
	CHECK_INT(n, set.s[ping].tos, 0xb8);
	char long_name[80];
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[79] = 0;
	errno = 0;
	CHECK_INT(n, ws_series_add(&set, long_name, WS_SERIES_UP, NULL, 0), -1);
	CHECK_INT(n, errno, EINVAL);
	CHECK_INT(n, (int)set.n, 2);
	ws_series_free(&set);
	CHECK_INT(n, (int)set.n, 0);
	CHECK(n, set.s == NULL);
}

static void stats_skip_lost(void)
{
	const char *n = "stats_skip_lost";
	ws_series_set set = {0};
	int p = ws_series_add(&set, "Ping (ms) UDP BE", WS_SERIES_PROBE, "udp", 0);
	/* 1..100 ms, with three probes lost among them */
	for (int i = 1; i <= 100; i++) {
		ws_series_push(&set, p, i * 0.2, (double)i);
		if (i % 40 == 0)
			ws_series_push(&set, p, i * 0.2 + 0.1, NAN);
	}
	ws_series_push(&set, p, 30.0, NAN);
	ws_series_stats st;
	ws_series_stats_of(&set.s[p], &st);
	CHECK_INT(n, (int)st.samples, 100);
	CHECK_INT(n, (int)st.lost, 3);
	CHECK_DBL(n, st.mean, 50.5, 1e-12);
	CHECK_DBL(n, st.median, 50.5, 1e-12);
	CHECK_DBL(n, st.p99, 99.01, 1e-9); /* rank 0.99 x 99 = 98.01: 99 + 0.01 x (100 - 99) */
	CHECK_DBL(n, st.min, 1.0, 0);
	CHECK_DBL(n, st.max, 100.0, 0);
	int e = ws_series_add(&set, "Ping (ms) ICMP", WS_SERIES_PROBE, "icmp", 0);
	ws_series_stats_of(&set.s[e], &st);
	CHECK_INT(n, (int)st.samples, 0);
	CHECK_DBL(n, st.median, 0, 0);
	ws_series_push(&set, e, 0.1, 7.0);
	ws_series_stats_of(&set.s[e], &st);
	CHECK_DBL(n, st.median, 7.0, 0);
	CHECK_DBL(n, st.p99, 7.0, 0);
	ws_series_free(&set);
}

int main(void)
{
	RUN(grow_and_find);
	RUN(stats_skip_lost);
	TEST_MAIN_END();
}
