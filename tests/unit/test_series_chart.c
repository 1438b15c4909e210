/* SPDX-License-Identifier: BSD-2-Clause */
/* test_series_chart: the "all" chart of synthetic runs: the three panels in order (and
 * only those with series), every series' Flent name in the legend, the sum lines drawn
 * from the grid, one cross per lost probe with its time, and the refusals (no series, too
 * many, no step). The SVG is parsed as XML and rendered in Chromium by
 * tests/integration/flent_file.sh. */
#include "harness.h"

#include "report/series_chart.h"
#include "util/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *chart_of(const ws_series_set *set, int *rc, ws_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = ws_series_chart_all(f, set, "RRUL test", err);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t c = 0;
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		c++;
	return c;
}

static void rrul_shape(void)
{
	const char *n = "rrul_shape";
	ws_series_set set = {.step_s = 0.5, .length_s = 2};
	static const char *const names[] = {"TCP upload BE", "TCP upload EF", "TCP download BE",
					    "TCP download EF"};
	for (int f = 0; f < 4; f++) {
		int i = ws_series_add(&set, names[f], f < 2 ? WS_SERIES_UP : WS_SERIES_DOWN, NULL,
				      0);
		for (int k = 1; k <= 4; k++)
			ws_series_push(&set, i, k * 0.5, 10.0 * (f + 1));
	}
	int be = ws_series_add(&set, "Ping (ms) UDP BE", WS_SERIES_PROBE, "udp", 0);
	int ef = ws_series_add(&set, "Ping (ms) UDP EF", WS_SERIES_PROBE, "udp", 0xb8);
	for (int k = 0; k <= 4; k++) {
		ws_series_push(&set, be, k * 0.5, k == 1 || k == 3 ? NAN : 2.0);
		ws_series_push(&set, ef, k * 0.5, k == 4 ? NAN : 1.0);
	}
	int rc;
	ws_err err = {0};
	char *svg = chart_of(&set, &rc, &err);
	CHECK_INT(n, rc, 0);
	CHECK(n, strncmp(svg, "<?xml", 5) == 0);
	const char *up = strstr(svg, "<g class=\"panel-upload\">");
	const char *down = strstr(svg, "<g class=\"panel-download\">");
	const char *lat = strstr(svg, "<g class=\"panel-latency\">");
	CHECK(n, up && down && lat && up < down && down < lat);
	CHECK(n, strstr(svg, ">Upload (Mbit/s)</text>") && strstr(svg, ">Latency (ms)</text>"));
	CHECK(n, strstr(svg, ">Time since the start (s)</text>"));
	const char *legend = strstr(svg, "<g class=\"legend\">");
	CHECK(n, legend && legend < up);
	for (int f = 0; f < 4; f++) {
		char want[64];
		snprintf(want, sizeof want, ">%s</text>", names[f]);
		CHECK(n, legend && strstr(legend, want) && strstr(legend, want) < up);
	}
	CHECK(n, strstr(legend, ">Ping (ms) UDP EF</text>") < up);
	/* sums of two flows each, drawn as lines of their own */
	CHECK(n, strstr(legend, ">TCP upload sum</text>") && strstr(legend, ">TCP download sum</text>"));
	CHECK_INT(n, (int)count(svg, "<g class=\"series sum\">"), 2);
	CHECK(n, strstr(svg, "<title>TCP upload sum</title>") > up);
	/* three lost probes: three crosses, all in the latency panel, with their times */
	CHECK_INT(n, (int)count(svg, "<g class=\"lost\">"), 3);
	CHECK(n, strstr(svg, "<g class=\"lost\">") > lat);
	CHECK(n, strstr(svg, "<title>Ping (ms) UDP BE: probe lost at 0.5 s</title>"));
	CHECK(n, strstr(svg, "<title>Ping (ms) UDP BE: probe lost at 1.5 s</title>"));
	CHECK(n, strstr(svg, "<title>Ping (ms) UDP EF: probe lost at 2 s</title>"));
	CHECK(n, strstr(svg, ">x lost probe (3)</text>"));
	CHECK(n, strstr(svg, "4 flows, 2 probe series, lost probes: 3"));
	CHECK(n, strstr(svg, "TCP upload sum: 5 points, from 30 to 30."));
	free(svg);
	ws_series_free(&set);
}

static void upload_only(void)
{
	const char *n = "upload_only";
	ws_series_set set = {.step_s = 1};
	int i = ws_series_add(&set, "TCP upload::1", WS_SERIES_UP, NULL, 0);
	ws_series_push(&set, i, 1, 5);
	ws_series_push(&set, i, 2, 6);
	int p = ws_series_add(&set, "Ping (ms) ICMP", WS_SERIES_PROBE, "icmp", 0);
	ws_series_push(&set, p, 0, 1);
	int rc;
	ws_err err = {0};
	char *svg = chart_of(&set, &rc, &err);
	CHECK_INT(n, rc, 0);
	CHECK(n, strstr(svg, "panel-upload") && strstr(svg, "panel-latency"));
	CHECK(n, !strstr(svg, "panel-download"));
	CHECK(n, !strstr(svg, "TCP upload sum")); /* one flow: no sum */
	CHECK(n, !strstr(svg, "class=\"lost\""));
	free(svg);
	ws_series_free(&set);
}

static void refusals(void)
{
	const char *n = "refusals";
	ws_series_set set = {.step_s = 1};
	int rc;
	ws_err err = {0};
	char *svg = chart_of(&set, &rc, &err);
	CHECK_INT(n, rc, -WS_E_INVAL);
	CHECK_STR(n, err.msg, "the all chart takes 1 to 24 series; got 0");
	free(svg);
	for (int i = 0; i < 25; i++) {
		char name[32];
		snprintf(name, sizeof name, "TCP upload::%d", i + 1);
		ws_series_push(&set, ws_series_add(&set, name, WS_SERIES_UP, NULL, 0), 1, 1);
	}
	svg = chart_of(&set, &rc, &err);
	CHECK_INT(n, rc, -WS_E_INVAL);
	CHECK_STR(n, err.msg, "the all chart takes 1 to 24 series; got 25");
	free(svg);
	set.n = 2;
	set.step_s = 0;
	svg = chart_of(&set, &rc, &err);
	CHECK(n, rc < 0 && strstr(err.msg, "positive step"));
	free(svg);
	set.n = 25;
	ws_series_free(&set);
}

int main(void)
{
	RUN(rrul_shape);
	RUN(upload_only);
	RUN(refusals);
	TEST_MAIN_END();
}
