/* SPDX-License-Identifier: BSD-2-Clause */
/* hist_bench: the cost of one ws_hist_record against one clock_gettime(CLOCK_MONOTONIC),
 * printed as one line, so the latency engine's per-transaction overhead is a number. */
#include <stdio.h>
#include <time.h>

#include "measure/hist.h"

static ws_hist h;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(void)
{
	enum { N = 20000000 };
	ws_hist_init(&h);
	uint64_t x = 88172645463325252ull, sink = 0;
	double t0 = now();
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		ws_hist_record(&h, x >> 28); /* up to 68.7 s */
	}
	double t1 = now();
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		sink += x >> 28;
	}
	double t2 = now();
	for (int i = 0; i < N; i++)
		sink += (uint64_t)now();
	double t3 = now();
	printf("hist_bench: record %.2f ns (rng %.2f ns), clock_gettime %.2f ns, count %llu%s\n",
	       (t1 - t0 - (t2 - t1)) / N, (t2 - t1) / N, (t3 - t2) / N,
	       (unsigned long long)ws_hist_count(&h), sink == 1 ? " " : "");
	return 0;
}
