/* SPDX-License-Identifier: BSD-2-Clause */
/* svgout: the client's --svg; see svgout.h. */
#include "cli/svgout.h"

#include "cli/outprint.h"
#include "cli/personality.h"
#include "model/testtype.h"
#include "report/charts.h"
#include "util/err.h"
#include "util/json_read.h"

#include <stdio.h>
#include <stdlib.h>

/* The chart --svg draws for these options: the one asked for, else -D's samples, then
 * the streams, then RR latency. */
static enum ws_chart_kind chosen(const ws_cli_options *o)
{
	if (o->svg_chart)
		return (enum ws_chart_kind)o->svg_chart;
	if (o->demo_interval_s > 0)
		return WS_CHART_INTERIM;
	if (o->spec.streams > 1)
		return WS_CHART_STREAMS;
	if (ws_test_type_transacts(o->spec.type))
		return WS_CHART_SPECTRUM;
	return WS_CHART_AUTO;
}

int ws_cli_svg_rule(const ws_cli_options *o, ws_err *err)
{
	/* its one chart, drawn by cli/lul.c or cli/rpm.c */
	if (ws_test_type_lul(o->spec.type) || o->spec.type == WS_TEST_RPM)
		return o->svg_chart
			? ws_err_set(
				  err, WS_E_INVAL,
				  "-t %s draws one chart, throughput up and down above "
				  "latency; --svg-chart %s is not for it (expected no --svg-chart)",
				  ws_test_type_name(o->spec.type),
				  ws_chart_kind_name((enum ws_chart_kind)o->svg_chart))
			: 0;
	if (o->sweep) /* one chart of the whole sweep, drawn by cli/sweeprun.c */
		return o->svg_chart
			? ws_err_set(err, WS_E_INVAL,
				     "with --sweep, --svg draws throughput against the swept "
				     "value; --svg-chart %s draws one run",
				     ws_chart_kind_name((enum ws_chart_kind)o->svg_chart))
			: 0;
	enum ws_chart_kind k = chosen(o);
	bool rr = ws_test_type_transacts(o->spec.type);
	const char *need = NULL;
	if (k == WS_CHART_AUTO)
		need = "--svg draws latency percentiles (-t TCP_RR, UDP_RR or TCP_CRR), throughput "
		       "over "
		       "time (-D SECONDS) or per-stream throughput (--streams N); this run has "
		       "none of "
		       "them (for throughput against a size, use --sweep)";
	else if ((k == WS_CHART_SPECTRUM || k == WS_CHART_HISTOGRAM) && !rr)
		need = "--svg-chart spectrum and histogram draw round-trip latency, which -t "
		       "TCP_RR, "
		       "UDP_RR or TCP_CRR measure";
	else if (k == WS_CHART_INTERIM && !(o->demo_interval_s > 0))
		need = "--svg-chart interim draws -D's interim samples; add -D SECONDS";
	else if (k == WS_CHART_STREAMS && o->spec.streams < 2)
		need = "--svg-chart streams draws one bar per flow; add --streams N (N >= 2)";
	if (need)
		return ws_err_set(err, WS_E_INVAL, "%s (test %s)", need,
				  ws_test_type_name(o->spec.type));
	return 0;
}

struct chart_body {
	const ws_jdoc *doc;
	const char *label;
	int kind;
};

static int chart_body(FILE *f, const void *arg, ws_err *err)
{
	const struct chart_body *b = arg;
	ws_chart_input in = {b->doc, b->label};
	ws_chart_opts co = {.kind = (enum ws_chart_kind)b->kind};
	return ws_chart_docs(f, &in, 1, &co, err);
}

int ws_cli_svg_draw(const char *path, const char *json, size_t len, const char *label, int kind)
{
	ws_err err;
	ws_err_clear(&err);
	ws_jdoc doc = {0};
	int status = 0;
	if (ws_json_read(json, len, NULL, &doc, &err) < 0) {
		ws_cli_eprintf("--svg %s: %s\n", path, err.msg);
		status = 1;
	} else {
		struct chart_body b = {&doc, label, kind};
		status = ws_cli_write_file("--svg", path, chart_body, &b);
	}
	ws_jdoc_free(&doc);
	return status;
}

int ws_cli_svg_write(const ws_cli_options *o, const ws_test_result *res, int argc, char **argv,
		     const struct ws_json_interim *interim, size_t ninterim)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = mem ? ws_cli_json_write(mem, o, res, argc, argv, interim, ninterim, false) : -1;
	if (mem && fclose(mem) != 0)
		rc = -1;
	int status;
	if (rc < 0) {
		ws_cli_eprintf("--svg %s: could not build the run's JSON document for the chart\n",
			       o->svg);
		status = 1;
	} else {
		status = ws_cli_svg_draw(o->svg, text, len, ws_test_type_name(o->spec.type),
					 chosen(o));
	}
	free(text);
	return status;
}
