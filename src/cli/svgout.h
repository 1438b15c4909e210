/* SPDX-License-Identifier: BSD-2-Clause */
/* svgout: --svg FILE on a client run: the chart that fits the test, written after it.
 *
 * What can be drawn is known from the options, so a run that has nothing to chart is
 * refused before it starts (exit 2), not after ten seconds of traffic. The chart is drawn
 * from the run's own --json document (written to memory and read back), so `--svg` and
 * `warpspeed plot` of the saved JSON give the same picture (report/charts.h). With
 * --sweep the whole sweep is one chart: throughput against the swept value. */
#ifndef WS_CLI_SVGOUT_H
#define WS_CLI_SVGOUT_H

#include "cli/options.h"

#include <stddef.h>

struct ws_err;
struct ws_json_interim;

/* Before the test, with --svg (its file is checked by cli/outfiles.h): whether the chosen
 * (or the fitting) chart can be drawn from this run; 0, or -WS_E_INVAL with err naming
 * what is charted and what the run lacks. */
int ws_cli_svg_rule(const ws_cli_options *o, struct ws_err *err);

/* After the test: the chart into o->svg. Returns 0, or 1 after a message on stderr. */
int ws_cli_svg_write(const ws_cli_options *o, const ws_test_result *res, int argc, char **argv,
		     const struct ws_json_interim *interim, size_t ninterim);

/* The chart of one JSON document (json, len bytes) into path: kind is an enum
 * ws_chart_kind (0: the one the document fits), label the series' name (NULL: the
 * chart's default). Returns 0, or 1 after a message on stderr. A sweep draws its document
 * this way. */
int ws_cli_svg_draw(const char *path, const char *json, size_t len, const char *label, int kind);

#endif
