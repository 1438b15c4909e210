/* SPDX-License-Identifier: BSD-2-Clause */
/* test_json: the JSON writer (report/json.h) text for text, and the result mapping
 * (report/json_result.h) against the output-name getters it must agree with.
 *
 * Exact expected documents: compact and pretty layouts, empty containers, inline arrays,
 * every escape, UTF-8 kept or replaced byte by byte, the shortest round-trip numbers, null
 * for NaN and Infinity, integer extremes, misuse and write errors reported. */
#include "harness.h"

#include "cli/options.h"
#include "util/err.h"

#include "measure/hist.h"
#include "measure/latency.h"
#include "report/json.h"
#include "report/json_result.h"
#include "report/outputs.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

/* Run fn on a writer over a memory stream; returns the text (caller frees), *rc the
 * finish code. */
static char *capture(void (*fn)(ws_json *), int indent, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	ws_json j;
	ws_json_init(&j, f, indent);
	fn(&j);
	*rc = ws_json_finish(&j);
	fclose(f);
	return buf;
}

static void doc_nested(ws_json *j)
{
	ws_json_object_begin(j, NULL);
	ws_json_str(j, "a", "x");
	ws_json_int(j, "b", -3);
	ws_json_array_begin(j, "c");
	ws_json_uint(j, NULL, 1);
	ws_json_bool(j, NULL, true);
	ws_json_null(j, NULL);
	ws_json_object_begin(j, NULL);
	ws_json_object_end(j);
	ws_json_array_end(j);
	ws_json_array_begin(j, "empty");
	ws_json_array_end(j);
	ws_json_array_begin(j, "hist");
	ws_json_array_inline_begin(j, NULL);
	ws_json_uint(j, NULL, 10);
	ws_json_uint(j, NULL, 20);
	ws_json_array_end(j);
	ws_json_array_inline_begin(j, NULL);
	ws_json_array_end(j);
	ws_json_array_end(j);
	ws_json_str(j, "n", NULL);
	ws_json_object_end(j);
}

static void test_layout_compact(void)
{
	int rc = 1;
	char *t = capture(doc_nested, 0, &rc);
	CHECK_INT("compact", rc, 0);
	CHECK_STR("compact", t, "{\"a\":\"x\",\"b\":-3,\"c\":[1,true,null,{}],\"empty\":[],\"hist\":[[10,20],[]],\"n\":null}\n");
	free(t);
}

static void test_layout_pretty(void)
{
	int rc = 1;
	char *t = capture(doc_nested, 2, &rc);
	CHECK_INT("pretty", rc, 0);
	CHECK_STR("pretty", t,
		  "{\n"
		  "  \"a\": \"x\",\n"
		  "  \"b\": -3,\n"
		  "  \"c\": [\n"
		  "    1,\n"
		  "    true,\n"
		  "    null,\n"
		  "    {}\n"
		  "  ],\n"
		  "  \"empty\": [],\n"
		  "  \"hist\": [\n"
		  "    [10,20],\n"
		  "    []\n"
		  "  ],\n"
		  "  \"n\": null\n"
		  "}\n");
	free(t);
}

static const char *str_in;
static void doc_string(ws_json *j)
{
	ws_json_str(j, NULL, str_in);
}

static void check_escape(const char *name, const char *in, const char *want)
{
	int rc = 1;
	str_in = in;
	char *t = capture(doc_string, 0, &rc);
	CHECK_INT(name, rc, 0);
	char w[256];
	snprintf(w, sizeof(w), "\"%s\"\n", want);
	CHECK_STR(name, t, w);
	free(t);
}

static void test_escaping(void)
{
	check_escape("quote", "a\"b\\c/", "a\\\"b\\\\c/");
	check_escape("controls", "\b\f\n\r\t", "\\b\\f\\n\\r\\t");
	check_escape("other controls", "\x01\x1f\x7f", "\\u0001\\u001f\x7f");
	check_escape("utf8 kept", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	check_escape("invalid byte", "a\xff" "b", "a\\ufffdb");
	check_escape("lone continuation", "\x80", "\\ufffd");
	check_escape("overlong", "\xc0\x80", "\\ufffd\\ufffd");
	check_escape("overlong 3", "\xe0\x80\xaf", "\\ufffd\\ufffd\\ufffd");
	check_escape("surrogate", "\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd");
	check_escape("above U+10FFFF", "\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd");
	check_escape("truncated at end", "x\xe2\x82", "x\\ufffd\\ufffd");
	check_escape("empty", "", "");
}

static void check_num(const char *name, double v, const char *want)
{
	char b[40];
	ws_json_format_double(v, b, sizeof(b));
	CHECK_STR(name, b, want);
}

static void test_numbers(void)
{
	check_num("zero", 0.0, "0");
	check_num("negative zero", -0.0, "-0");
	check_num("one", 1.0, "1");
	check_num("tenth", 0.1, "0.1");
	check_num("third", 1.0 / 3.0, "0.3333333333333333");
	check_num("needs 17", 0.1 + 0.2, "0.30000000000000004");
	check_num("denormal", 5e-324, "4.94065645841247e-324");
	check_num("big", 1e300, "1e+300");
	check_num("max", 1.7976931348623157e308, "1.7976931348623157e+308");
	check_num("rate", 6231.916514856032, "6231.916514856032");
	check_num("nan", NAN, "null");
	check_num("inf", INFINITY, "null");
	check_num("-inf", -INFINITY, "null");
	/* Every double printed reads back to itself. */
	double x = 1.0;
	int bad = 0;
	for (int i = 0; i < 2000; i++, x = x * 1.37 + 0.001) {
		char b[40];
		ws_json_format_double(x, b, sizeof(b));
		bad += strtod(b, NULL) != x;
	}
	CHECK_INT("round trip", bad, 0);
	char small[8];
	CHECK_INT("small buffer", ws_json_format_double(1.5, small, sizeof(small)), 0);
}

static void doc_ints(ws_json *j)
{
	ws_json_array_begin(j, NULL);
	ws_json_int(j, NULL, INT64_MIN);
	ws_json_int(j, NULL, INT64_MAX);
	ws_json_uint(j, NULL, UINT64_MAX);
	ws_json_double(j, NULL, NAN);
	ws_json_double(j, NULL, 2.5);
	ws_json_array_end(j);
}

static void test_integers(void)
{
	int rc = 1;
	char *t = capture(doc_ints, 0, &rc);
	CHECK_INT("ints", rc, 0);
	CHECK_STR("ints", t, "[-9223372036854775808,9223372036854775807,18446744073709551615,null,2.5]\n");
	free(t);
}

/* A decimal-comma locale must not leak into the numbers (skipped where none is installed). */
static void test_locale(void)
{
	const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE"};
	const char *got = NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !got; i++)
		got = setlocale(LC_NUMERIC, names[i]);
	if (!got) {
		printf("SKIP test_locale: no decimal-comma locale installed (tried de_DE.UTF-8, fr_FR.UTF-8)\n");
		return;
	}
	check_num("decimal comma locale", 2.5, "2.5");
	setlocale(LC_NUMERIC, "C");
}

static void doc_unclosed(ws_json *j) { ws_json_object_begin(j, NULL); }
static void doc_two(ws_json *j)
{
	ws_json_int(j, NULL, 1);
	ws_json_int(j, NULL, 2);
}
static void doc_bad_end(ws_json *j)
{
	ws_json_int(j, NULL, 1);
	ws_json_array_end(j);
}
static void doc_none(ws_json *j) { (void)j; }
static void doc_deep(ws_json *j)
{
	for (int i = 0; i < WS_JSON_MAX_DEPTH + 1; i++)
		ws_json_array_begin(j, NULL);
	for (int i = 0; i < WS_JSON_MAX_DEPTH + 1; i++)
		ws_json_array_end(j);
}

static void test_misuse(void)
{
	void (*docs[])(ws_json *) = {doc_unclosed, doc_two, doc_bad_end, doc_none, doc_deep};
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		int rc = 0;
		free(capture(docs[i], 0, &rc));
		CHECK_INT("misuse", rc, -EINVAL);
	}
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		ws_json j;
		ws_json_init(&j, full, 0);
		ws_json_str(&j, NULL, "x");
		CHECK_INT("/dev/full", ws_json_finish(&j), -EIO);
		fclose(full);
	}
}

/* ---- the result mapping ------------------------------------------------------------------- */

static char *result_json(const ws_report_ctx *c, bool summary)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = f ? ws_json_result_write(f, c, NULL, 0, summary) : -1;
	if (f)
		fclose(f);
	CHECK_INT("result write", rc, 0);
	return buf;
}

static void fill_rr(ws_test_result *r, ws_hist *h)
{
	memset(r, 0, sizeof(*r));
	r->spec.type = WS_TEST_TCP_RR;
	r->spec.duration_s = 2;
	r->spec.streams = 1;
	r->spec.req_size = 64;
	r->spec.rsp_size = 1024;
	r->spec.local.cpu = r->spec.remote.cpu = -1;
	r->local.elapsed_ns = r->remote.elapsed_ns = 2000000000;
	r->local.transactions = 50001;
	r->local.cpu_bound_to = r->remote.cpu_bound_to = -1;
	ws_hist_init(h);
	ws_hist_record(h, 1000);
	ws_hist_record(h, 1000);
	ws_hist_record(h, 300);
	r->local.latency = h;
}

static void test_result_rr(void)
{
	static ws_test_result r;
	static ws_hist h;
	fill_rr(&r, &h);
	ws_report_ctx c = {.r = &r, .command_line = "warpspeed -t TCP_RR", .want_stats = true};
	char *t = result_json(&c, true);
	CHECK("one line", t && strchr(t, '\n') == t + strlen(t) - 1);
	CHECK("type summary", t && strncmp(t, "{\"type\":\"summary\",\"schema_version\":1,", 37) == 0);
	/* The figure of merit is exactly what THROUGHPUT prints (25000.5 trans/s). */
	CHECK("throughput", t && strstr(t, "\"throughput\":{\"value\":25000.5,\"units\":\"Trans/s\",\"elapsed_s\":2,"
					    "\"transaction_rate\":25000.5,\"mean_round_trip_us\":39.99920001599968,"
					    "\"fairness\":1}"));
	CHECK("histogram", t && strstr(t, "\"histogram\":[[300,301,1],[1000,1003,2]]"));
	/* measure/latency.h's figures: 300 ns and 2 x 1000 ns; P50 is the top of 1000's bucket
	 * clamped to the maximum. */
	CHECK("latency stats", t && strstr(t, "\"latency\":{\"count\":3,\"overflow\":0,\"min_us\":0.3,"
					      "\"mean_us\":0.7666666666666666,\"stddev_us\":0.3299831645537221,"
					      "\"p50_us\":1,\"p90_us\":1,\"p99_us\":1,\"p99_9_us\":1,\"p99_99_us\":1,\"max_us\":1,"));
	CHECK("no cpu", t && strstr(t, "\"cpu\":null,\"thread_cpu\""));
	CHECK("rr counts", t && strstr(t, "\"rr\":{\"transactions\":50001,\"lost\":0,"));
	CHECK("no udp", t && strstr(t, "\"udp\":null"));
	CHECK("confidence", t && strstr(t, "\"confidence\":null,\"interim\":[]}"));
	CHECK("command line", t && strstr(t, "\"command_line\":\"warpspeed -t TCP_RR\""));
	CHECK("no NaN", t && !strstr(t, "nan") && !strstr(t, ":inf") && !strstr(t, "Infinity"));
	if (getenv("TEST_JSON_DUMP"))
		fputs(t, stdout);
	free(t);
	/* --json: the same document pretty-printed, type "result". */
	t = result_json(&c, false);
	CHECK("pretty", t && strncmp(t, "{\n  \"type\": \"result\",\n  \"schema_version\": 1,\n", 44) == 0);
	free(t);
}

static void test_result_stream_cpu(void)
{
	static ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.spec.type = WS_TEST_TCP_STREAM;
	r.spec.streams = 1;
	r.spec.local.cpu = r.spec.remote.cpu = -1;
	r.local.elapsed_ns = r.remote.elapsed_ns = 1000000000;
	r.local.bytes_sent = r.remote.bytes_recv = 125000000; /* 1000 10^6bits/s */
	r.local.cpu_measured = true;
	r.local.cpu_util = 50;
	r.local.cpu_user = NAN;
	r.local.ncpus = 2;
	r.local.cpu_bound_to = r.remote.cpu_bound_to = -1;
	ws_report_ctx c = {.r = &r, .local_cpu = true, .want_stats = true};
	char *t = result_json(&c, true);
	CHECK("stream tput", t && strstr(t, "\"throughput\":{\"value\":1000,\"units\":\"10^6bits/s\","));
	CHECK("NaN is null", t && strstr(t, "\"cpu\":{\"util\":50,\"user\":null,"));
	/* The service demand is LOCAL_SD's value. */
	int i = ws_out_find("LOCAL_SD");
	ws_out_value v;
	ws_out_value_of(ws_out_at((size_t)i), &c, &v);
	char sd[160], num[40];
	ws_json_format_double(v.d, num, sizeof(num));
	snprintf(sd, sizeof(sd), "\"service_demand\":%s,\"service_demand_units\":\"usec/KB\"", num);
	CHECK("sd", t && v.d > 0 && strstr(t, sd));
	CHECK("remote cpu null", t && strstr(t, "\"remote\":{") && strstr(strstr(t, "\"remote\":{\"hostname\""), "\"cpu\":null"));
	CHECK("latency null", t && strstr(t, "\"latency\":null"));
	free(t);
}

/* Every output name the mapping reads exists (a renamed one would silently give null). */
static void test_names_exist(void)
{
	const char *names[] = {"THROUGHPUT", "THROUGHPUT_UNITS", "ELAPSED_TIME", "TRANSACTION_RATE",
			       "RT_LATENCY", "FAIRNESS", "SD_UNITS", "PROTOCOL", "DIRECTION"};
	const char *side[] = {"_CPU_UTIL", "_CPU_PERCENT_USER", "_CPU_PERCENT_SYSTEM",
			      "_CPU_PERCENT_SWINTR", "_SD", "_THREAD_CPU"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		WS_T_REPORT(ws_out_find(names[i]) >= 0, "names", "%s is not in the table", names[i]);
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++)
		for (int l = 0; l < 2; l++) {
			char n[64];
			snprintf(n, sizeof(n), "%s%s", l ? "LOCAL" : "REMOTE", side[i]);
			WS_T_REPORT(ws_out_find(n) >= 0, "names", "%s is not in the table", n);
		}
}

static void test_interval(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_json_interim iv = {.index = 3, .stream = -1, .start_s = 0, .end_s = 0.25, .throughput = 940.5,
			      .units = "10^6bits/s", .bytes = 29390625, .ending_wall_ns = 1764636000250000000,
			      .final = true};
	CHECK_INT("interval", f ? ws_json_interval_write(f, &iv) : -1, 0);
	if (f)
		fclose(f);
	CHECK_STR("interval", buf,
		  "{\"type\":\"interval\",\"schema_version\":1,\"index\":3,\"stream\":null,\"start_s\":0,"
		  "\"end_s\":0.25,\"throughput\":940.5,\"units\":\"10^6bits/s\",\"bytes\":29390625,"
		  "\"transactions\":0,\"ending_unix_ns\":1764636000250000000,\"final\":true}\n");
	free(buf);
}

/* The options: --json, --json-lines (before or after --), and refused with a selector. */
static int parse(int argc, char **argv, ws_cli_options *o, ws_err *err)
{
	ws_err_clear(err);
	return ws_cli_parse(argc, argv, o, err);
}

static void test_options(void)
{
	static ws_cli_options o;
	ws_err err;
	char *a1[] = {"warpspeed", "--json", NULL};
	CHECK_INT("--json", parse(2, a1, &o, &err), 0);
	CHECK_INT("--json", o.json, 1);
	char *a2[] = {"warpspeed", "-t", "TCP_RR", "--", "--json-lines", NULL};
	CHECK_INT("--json-lines after --", parse(5, a2, &o, &err), 0);
	CHECK_INT("--json-lines", o.json, 2);
	char *a3[] = {"warpspeed", NULL};
	CHECK_INT("default", parse(1, a3, &o, &err), 0);
	CHECK_INT("default", o.json, 0);
	char *a4[] = {"warpspeed", "--json", "--", "-k", "THROUGHPUT", NULL};
	CHECK("with -k", parse(5, a4, &o, &err) < 0);
	CHECK_STR("with -k", err.msg,
		  "option --json and the output selectors (-o/-O/-k) both choose the output; expected one of them");
	char *a5[] = {"warpspeed", "--json=1", NULL};
	CHECK("a switch takes no value", parse(2, a5, &o, &err) < 0);
}

int main(void)
{
	RUN(test_layout_compact);
	RUN(test_layout_pretty);
	RUN(test_escaping);
	RUN(test_numbers);
	RUN(test_integers);
	RUN(test_locale);
	RUN(test_misuse);
	RUN(test_result_rr);
	RUN(test_result_stream_cpu);
	RUN(test_names_exist);
	RUN(test_interval);
	RUN(test_options);
	TEST_MAIN_END();
}
