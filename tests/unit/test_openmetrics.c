/* SPDX-License-Identifier: BSD-2-Clause */
/* test_openmetrics: the exposition writer (util/openmetrics.h), exact text in both formats. */
#include "harness.h"

#include "util/err.h"
#include "util/openmetrics.h"

#include <math.h>

/* The same families in a given format; the text in w. */
static int build(ws_om *w, enum ws_om_format fmt)
{
	ws_om_init(w, fmt);
	ws_om_label t[] = {{"test", "TCP_RR"}, {"outcome", "ok"}};
	ws_om_family(w, "ws_tests", WS_OM_COUNTER, NULL, "Tests run.");
	ws_om_sample_u64(w, t, 2, 3);
	ws_om_family(w, "ws_received_bytes", WS_OM_COUNTER, "bytes", "Bytes \"in\" \\ out\nnext");
	ws_om_sample_u64(w, NULL, 0, 18446744073709551615ull);
	ws_om_family(w, "ws_active", WS_OM_GAUGE, NULL, "Active.");
	ws_om_label odd[] = {{"host", "a\"b\\c\nd\x01\xc3\xa9"}};
	ws_om_sample(w, odd, 1, 0.1);
	ws_om_family(w, "ws_build", WS_OM_INFO, NULL, "Build.");
	ws_om_label v[] = {{"version", "1.2"}};
	ws_om_sample(w, v, 1, 7);
	ws_om_family(w, "ws_duration_seconds", WS_OM_HISTOGRAM, "seconds", "Durations.");
	double le[] = {0.5, 1, 2.5};
	uint64_t n[] = {1, 0, 2, 1};
	ws_om_label h[] = {{"test", "TCP_RR"}};
	ws_om_histogram(w, h, 1, le, 3, n, 9.25);
	return ws_om_finish(w, NULL);
}

static void test_prometheus(void)
{
	ws_om w;
	CHECK_INT("rc", build(&w, WS_OM_PROMETHEUS), 0);
	CHECK_STR("text", w.buf,
		  "# HELP ws_tests_total Tests run.\n"
		  "# TYPE ws_tests_total counter\n"
		  "ws_tests_total{test=\"TCP_RR\",outcome=\"ok\"} 3\n"
		  "# HELP ws_received_bytes_total Bytes \"in\" \\\\ out\\nnext\n"
		  "# TYPE ws_received_bytes_total counter\n"
		  "ws_received_bytes_total 18446744073709551615\n"
		  "# HELP ws_active Active.\n"
		  "# TYPE ws_active gauge\n"
		  "ws_active{host=\"a\\\"b\\\\c\\nd???\"} 0.1\n"
		  "# HELP ws_build_info Build.\n"
		  "# TYPE ws_build_info gauge\n"
		  "ws_build_info{version=\"1.2\"} 1\n"
		  "# HELP ws_duration_seconds Durations.\n"
		  "# TYPE ws_duration_seconds histogram\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"0.5\"} 1\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"1.0\"} 1\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"2.5\"} 3\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"+Inf\"} 4\n"
		  "ws_duration_seconds_count{test=\"TCP_RR\"} 4\n"
		  "ws_duration_seconds_sum{test=\"TCP_RR\"} 9.25\n");
	CHECK_STR("content type", ws_om_content_type(WS_OM_PROMETHEUS),
		  "text/plain; version=0.0.4; charset=utf-8");
	ws_om_free(&w);
}

static void test_openmetrics(void)
{
	ws_om w;
	CHECK_INT("rc", build(&w, WS_OM_OPENMETRICS), 0);
	CHECK_STR("text", w.buf,
		  "# HELP ws_tests Tests run.\n"
		  "# TYPE ws_tests counter\n"
		  "ws_tests_total{test=\"TCP_RR\",outcome=\"ok\"} 3\n"
		  "# HELP ws_received_bytes Bytes \\\"in\\\" \\\\ out\\nnext\n"
		  "# TYPE ws_received_bytes counter\n"
		  "# UNIT ws_received_bytes bytes\n"
		  "ws_received_bytes_total 18446744073709551615\n"
		  "# HELP ws_active Active.\n"
		  "# TYPE ws_active gauge\n"
		  "ws_active{host=\"a\\\"b\\\\c\\nd???\"} 0.1\n"
		  "# HELP ws_build Build.\n"
		  "# TYPE ws_build info\n"
		  "ws_build_info{version=\"1.2\"} 1\n"
		  "# HELP ws_duration_seconds Durations.\n"
		  "# TYPE ws_duration_seconds histogram\n"
		  "# UNIT ws_duration_seconds seconds\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"0.5\"} 1\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"1.0\"} 1\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"2.5\"} 3\n"
		  "ws_duration_seconds_bucket{test=\"TCP_RR\",le=\"+Inf\"} 4\n"
		  "ws_duration_seconds_count{test=\"TCP_RR\"} 4\n"
		  "ws_duration_seconds_sum{test=\"TCP_RR\"} 9.25\n"
		  "# EOF\n");
	CHECK_STR("content type", ws_om_content_type(WS_OM_OPENMETRICS),
		  "application/openmetrics-text; version=1.0.0; charset=utf-8");
	ws_om_free(&w);
}

static void test_numbers(void)
{
	char b[40];
	const struct {
		double v;
		bool le;
		const char *want;
	} c[] = {
		{NAN, false, "NaN"},       {INFINITY, false, "+Inf"}, {-INFINITY, true, "-Inf"},
		{0, false, "0"},           {0, true, "0.0"},          {-3, false, "-3"},
		{1e15, false, "1000000000000000"},
		{0.1, false, "0.1"},       {1e-9, false, "1e-09"},    {1.0 / 3, false, "0.33333333333333331"},
		{1e17, false, "1e+17"},
		{0.30000000000000004, false, "0.30000000000000004"},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ws_om_number(c[i].v, c[i].le, b, sizeof(b));
		CHECK_STR("ws_om_number", b, c[i].want);
	}
}

/* Misuse is refused with a reason, and nothing after it is written. */
static void test_refusals(void)
{
	const struct {
		const char *name, *unit;
		enum ws_om_type t;
		const char *why;
	} bad[] = {
		{"9lives", NULL, WS_OM_GAUGE, "'9lives' is not a metric name"},
		{"a-b", NULL, WS_OM_GAUGE, "'a-b' is not a metric name"},
		{"x_total", NULL, WS_OM_COUNTER, "without its suffix"},
		{"x_info", NULL, WS_OM_INFO, "without its suffix"},
		{"x_seconds", "bytes", WS_OM_GAUGE, "must end in _bytes"},
		{"bytes", "bytes", WS_OM_GAUGE, "must end in _bytes"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ws_om w;
		ws_err e;
		ws_om_init(&w, WS_OM_OPENMETRICS);
		ws_om_family(&w, bad[i].name, bad[i].t, bad[i].unit, "h");
		CHECK(bad[i].name, ws_om_finish(&w, &e) == -WS_E_INVAL);
		CHECK(bad[i].why, strstr(e.msg, bad[i].why) != NULL);
		CHECK(bad[i].name, w.buf == NULL);
		ws_om_free(&w);
	}
	ws_om w;
	ws_err e;
	ws_om_init(&w, WS_OM_PROMETHEUS);
	ws_om_label l[] = {{"__x", "1"}};
	ws_om_family(&w, "g", WS_OM_GAUGE, NULL, "h");
	ws_om_sample(&w, l, 1, 1);
	CHECK_INT("reserved label", ws_om_finish(&w, &e), -WS_E_INVAL);
	ws_om_free(&w);
	ws_om_init(&w, WS_OM_PROMETHEUS);
	ws_om_label le[] = {{"le", "1"}};
	double b[] = {1, 1};
	uint64_t n[] = {0, 0, 0};
	ws_om_family(&w, "h", WS_OM_HISTOGRAM, NULL, "h");
	ws_om_histogram(&w, le, 1, b, 1, n, 0);
	CHECK_INT("le label", ws_om_finish(&w, &e), -WS_E_INVAL);
	ws_om_free(&w);
	ws_om_init(&w, WS_OM_PROMETHEUS);
	ws_om_family(&w, "h", WS_OM_HISTOGRAM, NULL, "h");
	ws_om_histogram(&w, NULL, 0, b, 2, n, 0);
	CHECK_INT("bounds that do not rise", ws_om_finish(&w, &e), -WS_E_INVAL);
	ws_om_free(&w);
	ws_om_init(&w, WS_OM_PROMETHEUS);
	ws_om_family(&w, "c", WS_OM_COUNTER, NULL, "h");
	ws_om_sample(&w, NULL, 0, -1);
	CHECK_INT("negative count", ws_om_finish(&w, &e), -WS_E_INVAL);
	ws_om_free(&w);
	ws_om_init(&w, WS_OM_PROMETHEUS);
	ws_om_sample(&w, NULL, 0, 1);
	CHECK_INT("sample before a family", ws_om_finish(&w, &e), -WS_E_INVAL);
	ws_om_free(&w);
	ws_om_init(&w, WS_OM_OPENMETRICS);
	CHECK_INT("empty", ws_om_finish(&w, NULL), 0);
	CHECK_STR("empty text", w.buf, "# EOF\n");
	ws_om_free(&w);
}

int main(void)
{
	RUN(test_prometheus);
	RUN(test_openmetrics);
	RUN(test_numbers);
	RUN(test_refusals);
	TEST_MAIN_END();
}
