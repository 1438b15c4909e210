/* SPDX-License-Identifier: BSD-2-Clause */
/* nodemetrics: the node's counters by name, for its --stats line and its --metrics.
 *
 * `warpspeed node` shows its counters two ways: a "name=value" line on stdout (--stats,
 * SIGUSR1, exit) and, with --metrics, Prometheus/OpenMetrics families on GET /metrics. One
 * table names every field of ws_node_counters once, with the family and label it feeds,
 * so the two can never disagree on what a counter is. The counters are read with
 * ws_node_get_counters (relaxed atomic loads of the node thread's stores), so a scrape
 * never stops the node. */
#ifndef WS_CLI_NODEMETRICS_H
#define WS_CLI_NODEMETRICS_H

#include "iq/node/node.h"
#include "util/openmetrics.h"

#include <stdio.h>

/* " name=value" for every counter, in the table's order. */
void ws_cli_node_counters_print(FILE *f, const ws_node_counters *c);

/* The node's families (a ws_metricsd_render_fn; ctx is the ws_node). */
void ws_cli_node_metrics_render(void *ctx, ws_om *w);

#endif
