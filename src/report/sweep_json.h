/* SPDX-License-Identifier: BSD-2-Clause */
/* sweep_json: a sweep's results as one JSON document (--sweep with --json), in the shape
 * published as docs/schema/sweep.schema.json:
 *   {"type": "sweep", "schema_version": 1, "parameter": "m", "values": ["64", "1K"],
 *    "points": [{"value": "64", "x": 64, "result": {...}}, ...]}
 * Each point's "result" is that point's whole --json result document (result.schema.json),
 * or null with an "error" sentence when the point failed, so a harness (or a chart of
 * throughput against x) reads the sweep with the reader it has for single results. */
#ifndef WS_REPORT_SWEEP_JSON_H
#define WS_REPORT_SWEEP_JSON_H

#include <stddef.h>
#include <stdio.h>

#define WS_JSON_SWEEP_SCHEMA_VERSION 1

typedef struct ws_json_sweep_point {
	const char *value;  /* as typed in the list ("1K", "64:64") */
	double x;           /* its number: bytes (m, M, s, S; r's request), count, or rate */
	const char *result; /* the point's --json document text; NULL when it failed */
	const char *error;  /* why it failed (with result NULL) */
} ws_json_sweep_point;

/* The document for parameter's n points, pretty-printed to out. Returns 0 or a negative
 * errno when writing fails. */
int ws_json_sweep_write(FILE *out, const char *parameter, const ws_json_sweep_point *p, size_t n);

#endif
