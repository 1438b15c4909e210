/* SPDX-License-Identifier: BSD-2-Clause */
/* openmetrics: metrics as Prometheus text (format 0.0.4) or OpenMetrics 1.0 text, built
 * into a buffer.
 *
 * The daemon's and the node's /metrics and the client's --openmetrics files all speak the
 * text formats that Prometheus, promtool and node_exporter's textfile collector read. The
 * two formats differ in small ways that are easy to get wrong by hand: OpenMetrics names a
 * counter's family without "_total" and its samples with it, declares units with # UNIT
 * (the family name must end in "_<unit>"), escapes '"' in HELP and ends with "# EOF";
 * Prometheus 0.0.4 names the family after the sample, has no UNIT line and no end marker.
 * So callers describe each family once (OpenMetrics-style name, type, unit, help) and this
 * module writes either form, escapes label values and HELP, prints numbers in a form both
 * parsers take (+Inf, NaN, exact integers, "1.0"-style le bounds) and rejects names that
 * no parser would take. It never prints: the text is in w->buf; the first misuse is kept
 * and returned by ws_om_finish. */
#ifndef WS_UTIL_OPENMETRICS_H
#define WS_UTIL_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;

enum ws_om_format {
	WS_OM_PROMETHEUS,  /* text/plain; version=0.0.4 */
	WS_OM_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
};

enum ws_om_type { WS_OM_COUNTER, WS_OM_GAUGE, WS_OM_HISTOGRAM, WS_OM_INFO };

#define WS_OM_NAME_MAX 128
#define WS_OM_TEXT_MAX (4u << 20) /* the text never grows past this: an error instead */

typedef struct ws_om_label {
	const char *name, *value;
} ws_om_label;

typedef struct ws_om {
	enum ws_om_format fmt;
	char *buf; /* the text, NUL-terminated (NULL while empty) */
	size_t len, cap;
	int rc;        /* the first error (negative), 0 while none */
	char why[200]; /* what it was */
	enum ws_om_type type;
	char family[WS_OM_NAME_MAX]; /* the current family ("" before the first) */
} ws_om;

void ws_om_init(ws_om *w, enum ws_om_format fmt);
void ws_om_free(ws_om *w);

/* The Content-Type header of a format. */
const char *ws_om_content_type(enum ws_om_format fmt);

/* A family: its OpenMetrics name (a counter's without "_total", an info's without
 * "_info"), type, unit (NULL: none; else name must end in "_" unit) and help text (any
 * bytes; escaped). Its samples follow; families must not repeat. */
void ws_om_family(ws_om *w, const char *name, enum ws_om_type t, const char *unit,
		  const char *help);

/* One sample of the current counter, gauge or info family (an info's value is 1). */
void ws_om_sample(ws_om *w, const ws_om_label *l, size_t nl, double v);
/* The same with an exact integer value (counters past 2^53 stay exact). */
void ws_om_sample_u64(ws_om *w, const ws_om_label *l, size_t nl, uint64_t v);

/* One histogram of the current histogram family: le[0..nb) the upper bounds (ascending,
 * finite), count[0..nb] the observations per bucket, not cumulative (count[nb]: above the
 * last bound), sum their sum. Written as cumulative _bucket lines, +Inf, _count, _sum. */
void ws_om_histogram(ws_om *w, const ws_om_label *l, size_t nl, const double *le, size_t nb,
		     const uint64_t *count, double sum);

/* Ends the text (OpenMetrics: "# EOF"). Returns 0, or the first error with err naming it
 * (the text is then not to be served). */
int ws_om_finish(ws_om *w, struct ws_err *err);

/* A number as both formats write it: "NaN", "+Inf", "-Inf", an integer without a fraction
 * when it is one below 2^53, else the shortest text that reads back the same. le: a bound,
 * written with a fraction ("1.0") as OpenMetrics' canonical form asks. */
void ws_om_number(double v, bool le, char *buf, size_t n);

#endif
