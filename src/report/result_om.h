/* SPDX-License-Identifier: BSD-2-Clause */
/* result_om: test results as metrics, for node_exporter's textfile collector
 * (--openmetrics FILE).
 *
 * People who already run Prometheus want benchmark figures next to their other metrics
 * without an exporter of their own: node_exporter reads every *.prom file of its textfile
 * directory in Prometheus text format 0.0.4, without timestamps. Each figure is a gauge in
 * base units (bytes per second, seconds, ratios) labelled with the test, the remote host
 * and the sizes (send_size and recv_size for a stream test, request_size and
 * response_size for a request/response test), and "run" (1, 2, ...) when one file holds
 * several results (--repeat). A figure that does not apply or was not measured has no
 * sample (CPU without -c/-C, latency of a stream test). The figures are read through the
 * output-name table (report/outputs.h) and measure/latency.h, as --json's are, so the
 * numbers are the ones the other outputs print. */
#ifndef WS_REPORT_RESULT_OM_H
#define WS_REPORT_RESULT_OM_H

#include "report/outputs.h"
#include "util/openmetrics.h"

#include <stddef.h>

/* The families for results c[0..n) into w (the caller finishes w). */
void ws_result_om_render(ws_om *w, const ws_report_ctx *c, size_t n);

#endif
