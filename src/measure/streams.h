/* SPDX-License-Identifier: BSD-2-Clause */
/* streams: summary statistics over the flows of a multi-stream run.
 *
 * A user of many streams wants to know whether the aggregate hides a starving flow:
 * min, median and max per-stream throughput and Jain's fairness index
 * (sum x)^2 / (n * sum x^2), which is 1 when all flows got the same and 1/n when one
 * flow got everything. Pure functions over plain arrays, so they are tested alone. */
#ifndef WS_MEASURE_STREAMS_H
#define WS_MEASURE_STREAMS_H

#include "model/result.h"

#include <stdint.h>

typedef struct ws_stream_stats {
	uint32_t n;                         /* flows counted (completed ones) */
	uint32_t failed;                    /* flows that failed, not counted in the figures */
	double min, median, max, mean, sum; /* per-flow rates, in the caller's unit */
	double jain;                        /* fairness index in (0, 1]; 0 when n == 0 */
} ws_stream_stats;

/* Statistics of n values (any unit). Does not modify values. */
void ws_stream_stats_of(const double *values, uint32_t n, ws_stream_stats *out);

/* Per-flow rates in bytes/s of the side that received (flows[i].bytes over that flow's own
 * elapsed time), failed flows excluded and counted. rates must hold nflows entries; the
 * number of rates written is returned. */
uint32_t ws_stream_rates(const ws_side_result *receiver, double *rates, uint32_t *failed);

#endif
