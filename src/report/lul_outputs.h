/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_outputs: the -o / -O / -k output names of -t RRUL and RRUL_BE, in one table.
 *
 * A harness that drives every other test with -o or -k reads an RRUL run the same way:
 * the upload and download sums (Flent's "TCP upload sum" and "TCP download sum",
 * averaged over the run), the probes' latency (Flent's "Ping (ms) avg" and each probe's
 * series: average, median, 99th percentile and lost probes), the idle latency measured
 * before the flows start (--delay) and why the run stopped. The table below is the one
 * list of these names; report/figlist.h checks, lists and prints from it. */
#ifndef WS_REPORT_LUL_OUTPUTS_H
#define WS_REPORT_LUL_OUTPUTS_H

#include "model/lul.h"

#include <stdbool.h>
#include <stdio.h>

struct ws_err;

/* Check an output list (NULL or "all" = every name, "?" passes) before the run:
 * -WS_E_INVAL naming the first unknown name and every accepted one. */
int ws_lul_outputs_check(const char *list, struct ws_err *err);

/* Every output name, one a line (-o ?). Returns 0 or -1 when the write failed. */
int ws_lul_outputs_names(FILE *out);

/* The selected figures of r: mode 1 -o (CSV), 2 -O (columns), 3 -k (NAME=value). A
 * figure the run has no value for (a probe that did not run, no --delay for the idle
 * latency) is empty. Returns 0, or -1 when out of memory (nothing printed). */
int ws_lul_render_outputs(const ws_lul_result *r, const char *list, int mode, bool headers,
			  FILE *out);

#endif
