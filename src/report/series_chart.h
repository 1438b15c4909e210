/* SPDX-License-Identifier: BSD-2-Clause */
/* series_chart: the "all" chart of a latency-under-load run (RRUL, tcp_nup, ...): goodput
 * up and down over time above latency over time, from a ws_series_set, in one SVG.
 *
 * Bufferbloat shows as the latency panel rising while the throughput panels fill, so the
 * three share one time axis and are stacked: upload (one line per flow and their sum),
 * download (the same) and latency (one line per probe series, with a mark on the top
 * edge of the panel wherever a probe was lost, so a loss is seen, not just a gap). A
 * panel with no series is left out. Series keep their Flent names in the legend, and a
 * flow keeps its colour, dash and marker in both directions (BE up and BE down alike).
 * The sums are taken on the series' common grid (report/series_grid.h), as the Flent
 * file's are. Data in, SVG out: writes to the caller's FILE; errors in ws_err. */
#ifndef WS_REPORT_SERIES_CHART_H
#define WS_REPORT_SERIES_CHART_H

#include "model/series.h"

#include <stdio.h>

struct ws_err;

/* At most this many series (the legend's room). */
#define WS_SERIES_CHART_MAX 24

/* The chart of set, titled title (NULL: "Latency under load"). 0, or a negative code with
 * err set: no series or more than WS_SERIES_CHART_MAX, a step that is not positive, no
 * memory, a write error. */
int ws_series_chart_all(FILE *out, const ws_series_set *set, const char *title, struct ws_err *err);

#endif
