/* SPDX-License-Identifier: BSD-2-Clause */
/* json_result: a test result as JSON (--json, --json-lines), in the shape published as
 * docs/schema/result.schema.json (described in docs/json.md).
 *
 * Harnesses want every figure, not a selection, and want it typed: one document holds the
 * spec, both sides (sizes, bytes, calls, CPU, thread CPU, service demand, I/O path,
 * UDP and RR counts, TCP_INFO, per-stream and per-thread rows), the throughput, the
 * latency statistics and histogram, confidence, the interim samples, the command line and
 * both ends' software. Figures that the output selectors also print are read through the
 * same getters (report/outputs.h) and latency through measure/latency.h, so the JSON can
 * never disagree with -o/-O/-k. A figure that does not apply or was not measured is null
 * (never netperf's -1 sentinels, never NaN). */
#ifndef WS_REPORT_JSON_RESULT_H
#define WS_REPORT_JSON_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/outputs.h"

/* The schema version the documents declare ("schema_version"); raised when a field changes
 * meaning or goes away (adding a field raises it too, as the schema is strict). */
#define WS_JSON_SCHEMA_VERSION 1

/* One interim sample (-D): the place where section 4's interim helper puts its figures
 * (one per measure/interim.h sample: flow, index, units by kind, the CLI's figure in
 * -f units, the interval's end on the wall clock, final). The document's "interim" array
 * holds these in order; --json-lines prints each as an "interval" object when it ends. */
typedef struct ws_json_interim {
	uint32_t index;    /* the sample's number within its stream (or the aggregate), from 0 */
	int32_t stream;    /* -1 = the aggregate, else the flow index */
	double start_s;    /* interval start, seconds since the test started */
	double end_s;      /* interval end */
	double throughput; /* in units */
	const char *units; /* the THROUGHPUT_UNITS text ("10^6bits/s", "Trans/s") */
	uint64_t bytes;    /* moved in the interval (stream tests; 0 for RR) */
	uint64_t transactions;  /* RR tests (0 for stream tests) */
	int64_t ending_wall_ns; /* the interval's end, CLOCK_REALTIME ns (netperf's "ending at") */
	bool final;             /* the last, partial interval */
} ws_json_interim;

/* The whole document for c (c->r required; c->conf, c->lat, c->command_line may be NULL).
 * interim[0..ninterim) are the interim samples (NULL/0: none). summary false: --json's
 * pretty-printed document with "type": "result"; true: --json-lines' one-line summary
 * object, "type": "summary". Returns 0 or a negative errno when writing fails. */
int ws_json_result_write(FILE *out, const ws_report_ctx *c, const ws_json_interim *interim,
			 size_t ninterim, bool summary);

/* One --json-lines interval object ("type": "interval") on one line. Returns 0 or a
 * negative errno. */
int ws_json_interval_write(FILE *out, const ws_json_interim *iv);

#endif
