/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_report: an RRUL run's result as text and JSON: the summary table laid out as
 * Flent's `-f summary` lays out its own (a row per series, by name: average, median,
 * 99th percentile, unit, data points), the -D lines as the series grow, and the "rrul"
 * member of the JSON result with every sample.
 *
 * The figures come from model/series.h (ws_series_stats_of) and the aggregates from
 * model/lul.h, so every form shows the same numbers. */
#ifndef WS_REPORT_LUL_REPORT_H
#define WS_REPORT_LUL_REPORT_H

#include "model/lul.h"
#include "report/json.h"

#include <stdio.h>

/* The summary: "Summary of NAME test run from TIME", the table (the measured series and
 * Flent's aggregates, sorted by name as Flent sorts them), then a line per probe that
 * lost requests (a probe that did not run is left out: the CLI says why, once), and the
 * reason the run stopped early. Returns 0, or -1 when out of memory. */
int ws_lul_summary_write(FILE *out, const ws_lul_result *r, const char *name);

/* -D: the samples each series gained since the last call, one line each
 * ("Interim result: TCP upload BE 941.23 Mbit/s at 0.400 s"); printed[] (one count per
 * series, zero at first) remembers where each series was. */
void ws_lul_interim_write(FILE *out, const ws_lul_result *r, size_t *printed);

/* The "rrul" member of the JSON result: the plan's settings, why the run stopped, every
 * series with its samples (t and value; a lost probe's value is null), its figures and
 * marks, and the aggregates. */
void ws_lul_json(ws_json *j, const ws_lul_result *r);

#endif
