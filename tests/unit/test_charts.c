/* SPDX-License-Identifier: BSD-2-Clause */
/* test_charts: which chart a document gets (report/charts.h), the figures the charts
 * read from it (the spectrum's percentiles by docs/latency.md's rule, the IQ ceiling,
 * units), and the refusals, each with its exact message. */
#include "harness.h"

#include "report/charts.h"
#include "report/svg.h"
#include "util/err.h"
#include "util/json_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The chart of one document as text (NULL on failure, e then holds the message). */
static char *draw(const char *json, enum ws_chart_kind k, ws_err *e)
{
	ws_jdoc d;
	if (ws_json_read(json, strlen(json), NULL, &d, e) < 0)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_chart_input in = {&d, "doc"};
	ws_chart_opts o = {.kind = k};
	int rc = ws_chart_docs(f, &in, 1, &o, e);
	fclose(f);
	ws_jdoc_free(&d);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int kind(const char *json, enum ws_chart_kind *k, ws_err *e)
{
	ws_jdoc d;
	int rc = ws_json_read(json, strlen(json), NULL, &d, e);
	if (rc == 0)
		rc = ws_chart_kind_of(&d, k, e);
	ws_jdoc_free(&d);
	return rc;
}

static const char rr_doc[] =
	"{\"type\":\"result\",\"test\":\"TCP_RR\",\"throughput\":{\"value\":1,\"units\":\"Trans/s\"},"
	"\"latency\":{\"count\":10,\"overflow\":0,\"min_us\":1,\"max_us\":10,\"p50_us\":5,"
	"\"histogram\":[[1000,1000,1],[2000,2000,1],[3000,3000,1],[4000,4000,1],[4960,5000,1],"
	"[6000,6000,1],[7000,7000,1],[8000,8000,1],[9000,9000,1],[10000,10000,1]]},"
	"\"interim\":[],\"local\":{\"streams\":[]},\"remote\":{\"streams\":[]}}";

static void test_kinds(void)
{
	enum ws_chart_kind k = WS_CHART_AUTO;
	ws_err e;
	CHECK_INT("rr", kind(rr_doc, &k, &e), 0);
	CHECK_INT("rr: spectrum", k, WS_CHART_SPECTRUM);
	CHECK_INT("interim", kind("{\"type\":\"summary\",\"interim\":[{}],\"latency\":{\"count\":5}}", &k, &e), 0);
	CHECK_INT("interim first", k, WS_CHART_INTERIM);
	CHECK_INT("streams", kind("{\"type\":\"result\",\"interim\":[],\"remote\":{\"streams\":[{},{}]}}", &k, &e), 0);
	CHECK_INT("streams: bars", k, WS_CHART_STREAMS);
	CHECK_INT("sweep", kind("{\"type\":\"sweep\"}", &k, &e), 0);
	CHECK_INT("sweep kind", k, WS_CHART_SWEEP);
	CHECK_INT("mesh", kind("{\"type\":\"mesh\"}", &k, &e), 0);
	CHECK_INT("mesh kind", k, WS_CHART_MESH);
	CHECK_INT("iq bench (no type)", kind("{\"rows\":[]}", &k, &e), 0);
	CHECK_INT("iq kind", k, WS_CHART_IQ);
	CHECK_INT("stream result", kind("{\"type\":\"result\",\"test\":\"TCP_STREAM\",\"interim\":[],\"latency\":null}", &k, &e),
		  -WS_E_INVAL);
	CHECK_STR("nothing to chart", e.msg,
		  "this TCP_STREAM result has nothing to chart: charts show latency percentiles (TCP_RR, "
		  "UDP_RR, TCP_CRR), throughput over time (-D) or per-stream throughput (--streams N); "
		  "for throughput against a size use --sweep");
	CHECK_INT("other type", kind("{\"type\":\"interval\"}", &k, &e), -WS_E_INVAL);
	CHECK_STR("other type message", e.msg, "a document of type \"interval\"; charts are drawn from "
		  "result, summary, sweep, mesh and iq bench documents");
	CHECK_INT("array", kind("[]", &k, &e), -WS_E_INVAL);
	CHECK_INT("parse names", ws_chart_kind_parse("histogram", &k, &e), 0);
	CHECK_INT("histogram", k, WS_CHART_HISTOGRAM);
	CHECK_INT("bad name", ws_chart_kind_parse("pie", &k, &e), -WS_E_INVAL);
	CHECK_STR("bad name message", e.msg, "'pie' is not a chart; expected auto, spectrum, histogram, "
		  "interim, streams, sweep, iq or mesh");
}

static void test_spectrum(void)
{
	ws_err e;
	char *svg = draw(rr_doc, WS_CHART_AUTO, &e);
	CHECK("drawn", svg != NULL);
	/* rank ceil(0.5 x 10) = 5: the fifth bucket's top, 5000 ns; P99: rank 10 = max. */
	CHECK("percentiles by docs/latency.md", svg && strstr(svg, ">TCP_RR, 10 round trips: P50 5.0 us, "
							 "P99 10.0 us, P99.99 10.0 us, max 10.0 us</text>"));
	CHECK("nines ticks", svg && strstr(svg, ">99.999%</text>") && strstr(svg, ">90%</text>"));
	CHECK("axis label", svg && strstr(svg, ">Round-trip latency (us)</text>"));
	free(svg);
	svg = draw(rr_doc, WS_CHART_HISTOGRAM, &e);
	CHECK("histogram", svg && strstr(svg, ">Round trips (% of samples)</text>"));
	free(svg);
	svg = draw(rr_doc, WS_CHART_INTERIM, &e);
	CHECK("no interim", svg == NULL);
	CHECK_STR("no interim message", e.msg, "doc has no interim samples (run with -D SECONDS)");
	svg = draw(rr_doc, WS_CHART_MESH, &e);
	CHECK_STR("wrong kind", e.msg, "doc is a result document, which draws spectrum, histogram, "
		  "interim or streams, not mesh");
}

static void test_mesh_sweep(void)
{
	ws_err e;
	char *svg = draw("{\"type\":\"mesh\",\"ranks\":2,\"units\":\"10^6bits/s\",\"cells\":"
			 "[{\"src\":0,\"dst\":1,\"throughput\":5},{\"src\":1,\"dst\":0,\"throughput\":null,"
			 "\"error\":\"refused <x>\"}]}", WS_CHART_AUTO, &e);
	CHECK("mesh drawn", svg != NULL);
	CHECK("failed cell tooltip", svg && strstr(svg, "<title>sender (src rank) 1 to receiver (dst rank) 0: "
						    "failed: refused &lt;x&gt;</title>"));
	free(svg);
	svg = draw("{\"type\":\"mesh\",\"ranks\":2,\"cells\":[{\"src\":0,\"dst\":2,\"throughput\":5}]}",
		   WS_CHART_AUTO, &e);
	CHECK("bad rank", svg == NULL);
	CHECK_STR("bad rank message", e.msg, "mesh cell 0 goes from rank 0 to rank 2; the mesh has ranks 0 to 1");
	svg = draw("{\"type\":\"sweep\",\"parameter\":\"m\",\"points\":[{\"x\":1024,\"result\":{\"throughput\":"
		   "{\"value\":10,\"units\":\"10^6bits/s\"}}},{\"x\":4096,\"result\":{\"throughput\":{\"value\":20,"
		   "\"units\":\"10^6bits/s\"}}}]}", WS_CHART_AUTO, &e);
	CHECK("sweep: binary ticks", svg && strstr(svg, ">1K</text>") && strstr(svg, ">2K</text>") &&
				     strstr(svg, ">4K</text>"));
	free(svg);
	svg = draw("{\"type\":\"sweep\",\"parameter\":\"q\",\"points\":[{\"x\":1}]}", WS_CHART_AUTO, &e);
	CHECK_STR("bad parameter", e.msg, "'q' is not a swept parameter; expected m, M, r, s, S, streams, threads or rate");
}

static void test_figures(void)
{
	CHECK_DBL("GbE jumbo ceiling", ws_chart_iq_ceiling(1000, 8962), 1000.0 * 8928 / 9028, 1e-9);
	CHECK_DBL("GbE 1500 MTU", ws_chart_iq_ceiling(1000, 1458), 1000.0 * 1424 / 1524, 1e-9);
	CHECK_DBL("no link", ws_chart_iq_ceiling(0, 8962), 0, 0);
	CHECK_DBL("MBytes/s", ws_chart_unit_bits("MBytes/s"), 8.0 * 1048576, 0);
	CHECK_DBL("Trans/s", ws_chart_unit_bits("Trans/s"), -1, 0);
	CHECK_DBL("unknown", ws_chart_unit_bits("furlongs"), 0, 0);
	const char *iq = "{\"rows\":[{\"samples\":32768,\"pkt_size\":8962,\"node\":1,"
			 "\"write\":{\"avg_mbps\":900},\"read\":{\"avg_mbps\":950}}]}";
	ws_jdoc d;
	ws_err e;
	ws_json_read(iq, strlen(iq), NULL, &d, &e);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_chart_input in = {&d, "bed"};
	ws_chart_opts o = {.reference_warplab = true, .link_mbps = 1000};
	CHECK_INT("iq with reference", ws_chart_docs(f, &in, 1, &o, &e), 0);
	fclose(f);
	CHECK("ceiling line", buf && strstr(buf, ">ceiling 988.9 Mb/s (1000 Mb/s link, 8962-byte packets)</text>"));
	CHECK("one ceiling: WARPLab's is the same", buf && !strstr(buf, "WARPLab's GbE ceiling"));
	CHECK("MEX series", buf && strstr(buf, ">WARPLab MEX Read</text>"));
	CHECK("published figure in desc", buf && strstr(buf, "33554432 samples 976.47."));
	CHECK("2^25 tick", buf && strstr(buf, ">2<tspan dy=\"-4.8\" font-size=\"9\">25</tspan></text>"));
	free(buf);
	ws_jdoc_free(&d);
}

/* The cx of each marker the series draw (not the legend's), at most max. */
static int marker_xs(const char *svg, double *cx, int max)
{
	int n = 0;
	const char *p = svg ? strstr(svg, "<g class=\"series\">") : NULL;
	for (; p && (p = strstr(p, "<circle cx=\"")) && n < max; p++)
		cx[n++] = strtod(p + strlen("<circle cx=\""), NULL);
	return n;
}

/* Markers only where a value was measured. The interim chart draws each interval as a
 * step (two corners); its one marker sits at the step's middle, not on the corners (it
 * drew 6 for 3 intervals). The spectrum's curve is 201 points between the percentiles;
 * its markers sit on 0%, 90%, 99%, ... 99.999%, where the axis labels them (it drew 8
 * at 0, 0.65, 1.3, ... nines). */
static void test_markers(void)
{
	ws_err e;
	char *svg = draw("{\"type\":\"result\",\"test\":\"TCP_STREAM\",\"interim\":["
			 "{\"start_s\":0,\"end_s\":1,\"throughput\":10,\"units\":\"10^6bits/s\"},"
			 "{\"start_s\":1,\"end_s\":2,\"throughput\":20,\"units\":\"10^6bits/s\"},"
			 "{\"start_s\":2,\"end_s\":3,\"throughput\":30,\"units\":\"10^6bits/s\"}],"
			 "\"local\":{\"streams\":[]},\"remote\":{\"streams\":[]}}",
			 WS_CHART_INTERIM, &e);
	double cx[16], px[8];
	int n = marker_xs(svg, cx, 16), np = 0;
	CHECK_INT("interim: one marker per interval", n, 3);
	const char *pl = svg ? strstr(svg, "<polyline points=\"") : NULL;
	for (const char *q = pl ? pl + strlen("<polyline points=\"") : NULL; q && np < 8 && *q != '"';) {
		char *end;
		px[np++] = strtod(q, &end);
		strtod(end + 1, &end); /* its y */
		q = *end == ' ' ? end + 1 : NULL;
	}
	CHECK_INT("interim: 6 corners", np, 6);
	for (int i = 0; i < 3 && n == 3 && np == 6; i++)
		CHECK_DBL("interim: marker at the interval's middle", cx[i], (px[2 * i] + px[2 * i + 1]) / 2, 0.011);
	free(svg);

	svg = draw(rr_doc, WS_CHART_SPECTRUM, &e);
	n = marker_xs(svg, cx, 16);
	CHECK_INT("spectrum: a marker per nine", n, 6);
	for (int i = 0; i < n; i++) {
		char at[64], v[32];
		ws_svg_num(cx[i], v, sizeof v);
		snprintf(at, sizeof at, "<text x=\"%s\"", v);
		CHECK("spectrum: marker under a nines label", svg && strstr(svg, at));
	}
	free(svg);
	svg = draw(rr_doc, WS_CHART_HISTOGRAM, &e);
	CHECK_INT("histogram: one marker, on the peak", marker_xs(svg, cx, 16), 1);
	free(svg);
}

int main(void)
{
	RUN(test_markers);
	RUN(test_kinds);
	RUN(test_spectrum);
	RUN(test_mesh_sweep);
	RUN(test_figures);
	TEST_MAIN_END();
}
