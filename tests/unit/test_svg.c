/* SPDX-License-Identifier: BSD-2-Clause */
/* test_svg: the SVG writer (report/svg.h) text for text: numbers in every locale, XML
 * escaping of hostile text (markup, quotes, control characters, invalid UTF-8, cuts at a
 * character boundary), superscripts, and a whole small document; then the chart
 * primitives' refusals and their escaping of labels. */
#include "harness.h"

#include "report/chart.h"
#include "report/svg.h"
#include "util/err.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_num(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{0, "0"}, {1.005, "1"}, {2.5, "2.5"}, {-0.004, "0"}, {3.14159, "3.14"},
		{123456.789, "123456.79"}, {-1.5, "-1.5"}, {-0.05, "-0.05"}, {10.1, "10.1"},
		{NAN, "0"}, {INFINITY, "0"}, {0.995, "1"},
	};
	char b[40];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ws_svg_num(cases[i].v, b, sizeof b);
		CHECK_STR("number", b, cases[i].want);
	}
	/* A decimal-comma locale changes nothing (if the system has one). */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
		ws_svg_num(2.25, b, sizeof b);
		CHECK_STR("number in a comma locale", b, "2.25");
		setlocale(LC_NUMERIC, "C");
	}
}

static void test_escape(void)
{
	char b[256];
	ws_svg_escape("a<b & \"c\" 'd'>", b, sizeof b);
	CHECK_STR("markup", b, "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
	ws_svg_escape("x\x01y\x1fz\tw\n", b, sizeof b);
	CHECK_STR("control characters dropped, tab and newline kept", b, "xyz\tw\n");
	ws_svg_escape("\xff\xc3\xa9\xe2\x82", b, sizeof b);
	CHECK_STR("invalid UTF-8 replaced byte by byte", b, "\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_INT("cut before an escape that does not fit", ws_svg_escape("&&&", b, 8), 5);
	CHECK_STR("cut", b, "&amp;");
	ws_svg_escape("ab\xc3\xa9", b, 4);
	CHECK_STR("cut at a character boundary", b, "ab");
	ws_svg_escape(NULL, b, sizeof b);
	CHECK_STR("NULL is empty", b, "");
}

static char *capture_doc(void (*fn)(ws_svg *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	ws_svg s;
	fn(&s, f);
	fclose(f);
	return buf;
}

static void small_doc(ws_svg *s, FILE *f)
{
	ws_svg_begin(s, f, 800, 500, "T<1>", "D & \"e\"");
	ws_svg_group(s, "g1");
	ws_svg_tooltip(s, "tip'");
	ws_svg_line(s, 1, 2.5, 3, 4, &(ws_svg_style){.stroke = "#000000", .width = 2, .dash = "4 2"});
	ws_svg_text(s, 10, 20, WS_SVG_END, 12, true, -90, "10^6bits/s");
	double xy[] = {0, 0, 1.234, 5.678};
	ws_svg_polyline(s, xy, 2, &(ws_svg_style){.stroke = "#0072b2"});
	ws_svg_end(s);
}

static void test_document(void)
{
	char *d = capture_doc(small_doc);
	CHECK_STR("document", d,
		  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"500\" viewBox=\"0 0 800 500\" "
		  "role=\"img\" aria-labelledby=\"title desc\" font-family=\"sans-serif\">\n"
		  "<title id=\"title\">T&lt;1&gt;</title>\n"
		  "<desc id=\"desc\">D &amp; &quot;e&quot;</desc>\n"
		  "<rect x=\"0\" y=\"0\" width=\"800\" height=\"500\" fill=\"#ffffff\"/>\n"
		  "<g class=\"g1\">\n"
		  "<title>tip&apos;</title>\n"
		  "<line x1=\"1\" y1=\"2.5\" x2=\"3\" y2=\"4\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n"
		  "<text x=\"10\" y=\"20\" font-size=\"12\" text-anchor=\"end\" fill=\"#000000\" font-weight=\"bold\" "
		  "transform=\"rotate(-90 10 20)\">10<tspan dy=\"-4.8\" font-size=\"9\">6</tspan><tspan dy=\"4.8\">bits/s</tspan></text>\n"
		  "<polyline points=\"0,0 1.23,5.68\" fill=\"none\" stroke=\"#0072b2\" stroke-linejoin=\"round\"/>\n"
		  "</g>\n"
		  "</svg>\n");
	free(d);
}

static void test_chart_refusals(void)
{
	ws_err e;
	FILE *f = fopen("/dev/null", "w");
	ws_chart c = {.title = "t", .nseries = 0};
	CHECK_INT("no series", ws_chart_line(f, &c, &e), -WS_E_INVAL);
	CHECK_STR("message", e.msg, "a line chart takes 1 to 16 series and at most 4 reference lines; got 0 and 0");
	ws_chart_heat h = {.title = "t", .nrows = 0, .ncols = 3};
	CHECK_INT("empty heatmap", ws_chart_heatmap(f, &h, &e), -WS_E_INVAL);
	ws_chart_bars b = {.title = "t", .ncat = 300, .nseries = 1};
	CHECK_INT("too many bars", ws_chart_bar(f, &b, &e), -WS_E_INVAL);
	fclose(f);
}

/* A series label with markup comes out escaped, and the desc is written from the data. */
static void hostile(ws_svg *s, FILE *f)
{
	(void)s;
	double x[] = {1, 2, 3}, y[] = {4, NAN, 6};
	ws_chart_series se = {.label = "</text><script>x</script>", .x = x, .y = y, .n = 3, .style = -1};
	ws_chart c = {.title = "a&b", .x = {.label = "X (s)"}, .y = {.label = "Y (us)", .from_zero = true},
		      .series = &se, .nseries = 1};
	ws_chart_line(f, &c, NULL);
}

static void test_chart_escapes(void)
{
	char *d = capture_doc(hostile);
	CHECK("no raw script", d && !strstr(d, "<script"));
	CHECK("label escaped", d && strstr(d, "&lt;/text&gt;&lt;script&gt;x&lt;/script&gt;"));
	CHECK("title escaped", d && strstr(d, "<title id=\"title\">a&amp;b</title>"));
	CHECK("desc from the data", d && strstr(d, "<desc id=\"desc\">Line chart: Y (us) against X (s). Series "
						  "&lt;/text&gt;&lt;script&gt;x&lt;/script&gt;: 3 points, from 4 to 6.</desc>"));
	CHECK("axis labels", d && strstr(d, ">X (s)</text>") && strstr(d, ">Y (us)</text>"));
	free(d);
}

/* A line chart as text. */
static char *render(const ws_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = ws_chart_line(f, c, NULL);
	fclose(f);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The markers (circles: series 0's style) drawn by the series, not the legend. */
static int series_markers(const char *svg)
{
	int n = 0;
	const char *p = svg ? strstr(svg, "<g class=\"series\">") : NULL;
	for (; p && (p = strstr(p, "<circle")); p++)
		n++;
	return n;
}

/* Points with no neighbour draw one marker each, not two (one for the lone point, one
 * of the "about eight"), and nothing where y is missing. */
static void test_markers_at_points(void)
{
	double x[] = {1, 2, 3, 4, 5, 6}, y[] = {10, NAN, 30, NAN, 50, 60};
	ws_chart_series se = {.label = "s", .x = x, .y = y, .n = 6, .style = 0};
	ws_chart c = {.title = "t", .x = {.label = "x"}, .y = {.label = "y"}, .series = &se, .nseries = 1};
	char *svg = render(&c);
	CHECK_INT("1, 3, 5, 6: four markers", series_markers(svg), 4);
	CHECK("one polyline, 5 to 6", svg && strstr(svg, "<polyline") && !strstr(strstr(svg, "<polyline") + 1, "<polyline"));
	free(svg);
	/* 100 points: about eight markers, all on points */
	double xs[100], ys[100];
	for (int i = 0; i < 100; i++)
		xs[i] = i, ys[i] = i % 7;
	se = (ws_chart_series){.label = "s", .x = xs, .y = ys, .n = 100, .style = 0};
	svg = render(&c);
	CHECK_INT("100 points: markers on every 13th", series_markers(svg), 8);
	free(svg);
	/* steps: one marker per interval, at its middle; with mark_every, only those points */
	double sx[] = {0, 1, 1, 2, 2, 3}, sy[] = {5, 5, 7, 7, 6, 6};
	se = (ws_chart_series){.label = "s", .x = sx, .y = sy, .n = 6, .steps = true, .style = 0};
	c.x = (ws_chart_axis){WS_SCALE_LINEAR, WS_TICK_NUMBER, 0, 3, false, "x", false};
	svg = render(&c);
	CHECK_INT("3 steps: 3 markers", series_markers(svg), 3);
	free(svg);
	se = (ws_chart_series){.label = "s", .x = xs, .y = ys, .n = 81, .mark_every = 40, .style = 0};
	c.x = (ws_chart_axis){0};
	c.x.label = "x";
	svg = render(&c);
	CHECK_INT("81 points, every 40th measured: 3 markers", series_markers(svg), 3);
	free(svg);
}

/* Tick labels, one scheme on every axis: 1k and 10k on a log axis, 1k .. 2.4k on a linear
 * one (200 steps: 800, 1k, 1.2k); never a plain 1000 or 2000. */
static void test_tick_scheme(void)
{
	double x[] = {1, 10000}, y[] = {0, 2500};
	ws_chart_series se = {.label = "s", .x = x, .y = y, .n = 2, .style = 0};
	ws_chart c = {.title = "t",
		      .x = {WS_SCALE_LOG10, WS_TICK_NUMBER, 1, 10000, false, "x", false},
		      .y = {WS_SCALE_LINEAR, WS_TICK_NUMBER, 0, 2500, false, "y", false},
		      .series = &se,
		      .nseries = 1};
	char *svg = render(&c);
	CHECK("x: 1k and 10k", svg && strstr(svg, ">1k</text>") && strstr(svg, ">10k</text>"));
	CHECK("y: 1.2k and 2k", svg && strstr(svg, ">1.2k</text>") && strstr(svg, ">2k</text>"));
	CHECK("no 1000, 2000", svg && !strstr(svg, ">1000</text>") && !strstr(svg, ">2000</text>"));
	free(svg);
}

int main(void)
{
	RUN(test_markers_at_points);
	RUN(test_tick_scheme);
	RUN(test_num);
	RUN(test_escape);
	RUN(test_document);
	RUN(test_chart_refusals);
	RUN(test_chart_escapes);
	TEST_MAIN_END();
}
