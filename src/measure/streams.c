/* SPDX-License-Identifier: BSD-2-Clause */
/* streams: min/median/max and Jain's index over per-flow rates; see streams.h. */
#include "measure/streams.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void ws_stream_stats_of(const double *values, uint32_t n, ws_stream_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n == 0)
		return;
	double *v = malloc(n * sizeof(*v));
	double sum = 0, sq = 0;
	for (uint32_t i = 0; i < n; i++) {
		sum += values[i];
		sq += values[i] * values[i];
	}
	out->sum = sum;
	out->mean = sum / n;
	out->jain = sq > 0 ? sum * sum / ((double)n * sq) : 1.0;
	if (!v) { /* no memory for a sorted copy: min and max still come out */
		out->min = out->max = values[0];
		for (uint32_t i = 1; i < n; i++) {
			out->min = values[i] < out->min ? values[i] : out->min;
			out->max = values[i] > out->max ? values[i] : out->max;
		}
		out->median = out->mean;
		return;
	}
	memcpy(v, values, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	out->min = v[0];
	out->max = v[n - 1];
	out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
}

uint32_t ws_stream_rates(const ws_side_result *receiver, double *rates, uint32_t *failed)
{
	uint32_t n = 0;
	*failed = 0;
	for (uint32_t i = 0; i < receiver->nflows; i++) {
		const ws_flow_result *f = &receiver->flows[i];
		if (f->error) {
			(*failed)++;
			continue;
		}
		rates[n++] = f->elapsed_ns > 0 ? (double)f->bytes * 1e9 / (double)f->elapsed_ns : 0;
	}
	return n;
}
