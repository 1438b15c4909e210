/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the responsiveness test's result (model/rpm.h) as people and scripts read it.
 *
 * Four forms, all from the one field list: the short human block of -P 1; the RPM figure
 * alone on one line (-P 0 -v 0, as netperf prints its figure of merit alone); the output
 * names of -o (CSV), -O (columns) and -k (NAME=value); and the JSON document (type
 * "rpm", docs/schema/result.schema.json) with every figure and the series behind them. */
#ifndef WS_REPORT_RPM_H
#define WS_REPORT_RPM_H

#include "model/rpm.h"

#include <stdbool.h>
#include <stdio.h>

struct ws_err;

/* The human block: idle and working latency, the probes, goodput, flows, RPM. */
void ws_rpm_render(const ws_rpm_result *r, FILE *out);

/* What a complete run's figures do not say by themselves, for stderr: the idle phase
 * ended with fewer than WS_RPM_IDLE_MIN probes, or no foreign probe finished in the
 * window, so the working latency is the self probes' alone (docs/rpm.md). Writes up to
 * two lines ("note: ..." without the program's name) into buf; returns how many. */
int ws_rpm_notes(const ws_rpm_result *r, char *buf, size_t n);

/* The RPM figure alone: "1234.56\n". */
void ws_rpm_render_figure(const ws_rpm_result *r, FILE *out);

/* Check an output list ("RPM,RPM_WORKING_LATENCY"; NULL or "all" = every figure; "?"
 * passes) before the run: -WS_E_INVAL naming the first unknown name and every accepted
 * one (report/figlist.h). */
int ws_rpm_outputs_check(const char *list, struct ws_err *err);

/* Every output name, one a line (-o ?). Returns 0 or -1 when the write failed. */
int ws_rpm_outputs_names(FILE *out);

/* The selected figures: mode 1 -o (CSV: a line of names when headers, then the values),
 * 2 -O (names and values in columns), 3 -k (NAME=value per line). */
void ws_rpm_render_outputs(const ws_rpm_result *r, const char *list, int mode, bool headers,
			   FILE *out);

/* The Flent file's name of the run (Flent 2.1.1 has no responsiveness test; docs/flent.md):
 * "rrul_be", whose plots show the goodput sums and every "Ping (ms) *" series. */
#define WS_RPM_FLENT_NAME "rrul_be"

/* The run's series as the Flent file names them, in out (which borrows r's samples and
 * room, WS_RPM_FLENT_SERIES series, from buf): the goodput sums as they are ("TCP upload
 * sum", "TCP download sum"), the probes as "Ping (ms) Foreign" and "Ping (ms) Self". */
#define WS_RPM_FLENT_SERIES 4
void ws_rpm_flent_view(const ws_rpm_result *r, ws_series buf[WS_RPM_FLENT_SERIES],
		       ws_series_set *out);

/* The JSON document; command_line may be NULL. Returns 0 or -1 when the write failed. */
int ws_rpm_json_write(const ws_rpm_result *r, const char *command_line, FILE *out);

#endif
