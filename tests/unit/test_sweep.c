/* SPDX-License-Identifier: BSD-2-Clause */
/* test_sweep: the --sweep list parser (cli/sweep.h) with exact values and x, every error
 * message word for word, the refused combinations through the option parser, each point's
 * command line, and the sweep JSON document (report/sweep_json.h, json.h's embedding). */
#include "harness.h"
#include "cli_line.h"

#include "cli/sweep.h"
#include "report/sweep_json.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

static void good(const char *arg, size_t n, const char *const *value, const char *const *typed,
		 const double *x)
{
	ws_cli_sweep sw;
	ws_err err;
	ws_err_clear(&err);
	int rc = ws_cli_sweep_parse(arg, &sw, &err);
	WS_T_REPORT(rc == 0, arg, "failed: %s", err.msg);
	if (rc)
		return;
	CHECK_INT(arg, sw.n, n);
	for (size_t i = 0; i < n && i < sw.n; i++) {
		CHECK_STR(arg, sw.value[i], value[i]);
		CHECK_STR(arg, sw.typed[i], typed[i]);
		CHECK_DBL(arg, sw.x[i], x[i], 0);
	}
}

static void test_values(void)
{
	good("m=64,1K,64K", 3, (const char *[]){"64", "1K", "64K"}, (const char *[]){"64", "1K", "64K"},
	     (double[]){64, 1024, 65536});
	good("M=1", 1, (const char *[]){"1"}, (const char *[]){"1"}, (double[]){1});
	good("r=1:1,64:64,1K:16K,128", 4, (const char *[]){"1:1", "64:64", "1K:16K", "128"},
	     (const char *[]){"1,1", "64,64", "1K,16K", "128"}, (double[]){1, 64, 1024, 128});
	good("s=0,64K:128K", 2, (const char *[]){"0", "64K:128K"}, (const char *[]){"0", "64K,128K"},
	     (double[]){0, 65536});
	good("S=1G", 1, (const char *[]){"1G"}, (const char *[]){"1G"}, (double[]){1073741824.0});
	good("streams=1,2,10000", 3, (const char *[]){"1", "2", "10000"}, (const char *[]){"1", "2", "10000"},
	     (double[]){1, 2, 10000});
	good("threads=1,2:4", 2, (const char *[]){"1", "2:4"}, (const char *[]){"1", "2,4"}, (double[]){1, 2});
	good("rate=500,1k,2.5K,1m", 4, (const char *[]){"500", "1k", "2.5K", "1m"},
	     (const char *[]){"500", "1k", "2.5K", "1m"}, (double[]){500, 1000, 2500, 1e6});
	/* 64 values is the most. */
	char many[512] = "m=1";
	for (int i = 2; i <= WS_CLI_SWEEP_MAX_POINTS; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), ",%d", i);
	ws_cli_sweep sw;
	CHECK("64 values", ws_cli_sweep_parse(many, &sw, NULL) == 0 && sw.n == 64 && sw.x[63] == 64);
}

static void bad(const char *arg, const char *want)
{
	ws_cli_sweep sw;
	ws_err err;
	ws_err_clear(&err);
	int rc = ws_cli_sweep_parse(arg, &sw, &err);
	WS_T_REPORT(rc == -WS_E_INVAL, arg, "returned %d, want -WS_E_INVAL", rc);
	CHECK_STR(arg, err.msg, want);
}

static void test_errors(void)
{
	bad("m", "'m' is not a sweep; expected NAME=V1,V2,... with NAME one of m, M, r, s, S, streams, threads, rate (e.g. m=64,1K,64K)");
	bad("", "'' is not a sweep; expected NAME=V1,V2,... with NAME one of m, M, r, s, S, streams, threads, rate (e.g. m=64,1K,64K)");
	bad("x=1", "'x' is not a sweep parameter; expected one of m, M, r, s, S, streams, threads, rate");
	bad("=1", "'' is not a sweep parameter; expected one of m, M, r, s, S, streams, threads, rate");
	bad("mm=1", "'mm' is not a sweep parameter; expected one of m, M, r, s, S, streams, threads, rate");
	bad("m=", "'m=' has no values; expected m=V1,V2,... with send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K");
	bad("m=1,,2", "'m=1,,2' has an empty value; expected values separated by single commas");
	bad("m=,1", "'m=,1' has an empty value; expected values separated by single commas");
	bad("m=1,", "'m=1,' has an empty value; expected values separated by single commas");
	bad("m=abc", "m value 'abc' is not valid; expected send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K");
	bad("m=0", "m value '0' is not valid; expected send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K");
	bad("m=2G", "m value '2G' is not valid; expected send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K");
	bad("m=1:2", "m value '1:2' is not valid; expected send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K");
	bad("M=-1", "M value '-1' is not valid; expected receive sizes from 1 to 1G bytes (K, M, G suffixes), e.g. M=1K,64K");
	static const char r_acc[] = "expected req[:rsp] with sizes from 1 to 1G bytes (K, M, G suffixes), e.g. r=1:1,64:64,1K:16K (64 alone is 64:64)";
	char want[1024];
	static const char *const r_bad[] = {"1:", ":1", "1:2:3", "1:0", "0:1", "1/1"};
	for (size_t i = 0; i < sizeof(r_bad) / sizeof(r_bad[0]); i++) {
		char arg[32];
		snprintf(arg, sizeof(arg), "r=64,%s", r_bad[i]);
		snprintf(want, sizeof(want), "r value '%s' is not valid; %s", r_bad[i], r_acc);
		bad(arg, want);
	}
	bad("s=64K:x", "s value '64K:x' is not valid; expected send[:recv] socket buffer sizes from 0 to 1G bytes, e.g. s=64K,256K or s=64K:128K");
	bad("S=-1", "S value '-1' is not valid; expected send[:recv] socket buffer sizes from 0 to 1G bytes, e.g. S=64K,256K or S=64K:128K");
	bad("streams=0", "streams value '0' is not valid; expected stream counts from 1 to 10000, e.g. streams=1,2,4,8");
	bad("streams=10001", "streams value '10001' is not valid; expected stream counts from 1 to 10000, e.g. streams=1,2,4,8");
	bad("streams=2:2", "streams value '2:2' is not valid; expected stream counts from 1 to 10000, e.g. streams=1,2,4,8");
	bad("threads=1:0", "threads value '1:0' is not valid; expected T[:remoteT] thread counts from 1 to 10000, e.g. threads=1,2,4");
	bad("rate=0", "rate value '0' is not valid; expected transactions/s per flow above 0 and at most 1e9, optionally with k or m, e.g. rate=1k,10k,100k");
	bad("rate=2g", "rate value '2g' is not valid; expected transactions/s per flow above 0 and at most 1e9, optionally with k or m, e.g. rate=1k,10k,100k");
	bad("m=123456789012345678901234567890123",
	    "m value '123456789012345678901234567890123' is too long; expected at most 31 characters");
	char many[512] = "m=1";
	for (int i = 2; i <= WS_CLI_SWEEP_MAX_POINTS + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), ",%d", i);
	snprintf(want, sizeof(want), "'%s' has more than 64 values; expected at most 64", many);
	bad(many, want);
}

/* Through the whole option parser: the combinations refused, and what a sweep leaves alone. */
static void line_bad(const char *line, const char *want)
{
	ws_cli_options o;
	ws_err err;
	int rc = parse_line(line, &o, &err);
	WS_T_REPORT(rc < 0, line, "accepted, want [%s]", want);
	CHECK_STR(line, err.msg, want);
}

static void test_combinations(void)
{
	ws_cli_options o;
	ok("sweep kept", "-l 1 --sweep m=64,1K -- -s 64K", &o);
	CHECK_STR("sweep kept", o.sweep ? o.sweep : "", "m=64,1K");
	CHECK_INT("sweep leaves -m", o.spec.send_size, 0);
	ok("sweep=", "--sweep=streams=1,2", &o);
	CHECK_STR("sweep=", o.sweep ? o.sweep : "", "streams=1,2");
	line_bad("--sweep m=64 -- -m 1K",
		 "option --sweep m and test option -m both set the send size; expected one of them (the sweep gives each point its value)");
	line_bad("-t TCP_RR --sweep r=1:1 -- -r 64",
		 "option --sweep r and test option -r both set the request and response sizes; expected one of them (the sweep gives each point its value)");
	line_bad("--sweep s=64K -- -s 1M",
		 "option --sweep s and test option -s both set the local socket buffers; expected one of them (the sweep gives each point its value)");
	line_bad("--streams 2 --sweep streams=1,2",
		 "option --sweep streams and option --streams both set the number of streams; expected one of them (the sweep gives each point its value)");
	line_bad("-t TCP_RR --rate 1k --sweep rate=1k,2k",
		 "option --sweep rate and option --rate both set the open-loop rate; expected one of them (the sweep gives each point its value)");
	line_bad("--sweep m=64 --json-lines", "option --sweep and --json-lines: a sweep is one document; expected --json");
	line_bad("--sweep m=1 --sweep m=2", "option --sweep: 'm=2' is a second sweep; expected one --sweep per run");
	line_bad("--sweep q=1", "option --sweep: 'q' is not a sweep parameter; expected one of m, M, r, s, S, streams, threads, rate");
	line_bad("--sweep", "option --sweep needs a value; expected --sweep NAME=V1,V2,...");
	/* -s before -- is netperf's wait, not the buffers: no clash with s=. */
	ok("global -s", "-s 1 --sweep s=64K", &o);
}

static void point(const char *line, size_t i, const char *want)
{
	char buf[512], *argv[64], *save = NULL;
	int argc = 0;
	snprintf(buf, sizeof(buf), "warpspeed %s", line);
	for (char *t = strtok_r(buf, " ", &save); t && argc < 63; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	ws_cli_options o;
	ws_err err;
	if (ws_cli_parse(argc, argv, &o, &err) < 0 || !o.sweep) {
		WS_T_REPORT(0, line, "parse failed: %s", err.msg);
		return;
	}
	ws_cli_sweep sw;
	CHECK(line, ws_cli_sweep_parse(o.sweep, &sw, NULL) == 0);
	char pb[WS_CLI_SWEEP_BUF], **pv = NULL, joined[512] = "";
	int pc = 0;
	CHECK(line, ws_cli_sweep_point_argv(&sw, i, argc, argv, o.sweep, pb, &pc, &pv) == 0);
	for (int k = 0; pv && k < pc; k++)
		snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%s", k ? " " : "", pv[k]);
	CHECK_STR(line, joined, want);
	CHECK(line, pv && pv[pc] == NULL);
	free(pv);
}

static void test_point_argv(void)
{
	point("-l 1 --sweep m=64,1K", 1, "warpspeed -l 1 -- -m 1K");
	point("--sweep=m=64,1K -l 1 -- -s 64K", 0, "warpspeed -l 1 -- -s 64K -m 64");
	point("-t TCP_RR --sweep r=1:1,64:128 -- -o", 1, "warpspeed -t TCP_RR -- -o -r 64,128");
	point("-H 127.0.0.1 --sweep streams=1,4", 1, "warpspeed -H 127.0.0.1 --streams=4");
	point("-- -m 1K --sweep threads=1:2", 0, "warpspeed -- -m 1K --threads=1,2");
	point("-t TCP_RR --sweep rate=1k,10k -c", 1, "warpspeed -t TCP_RR -c --rate=10k");
}

static void test_json_doc(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	ws_json_sweep_point p[2] = {
		{"64", 64, "{\n  \"a\": [\n    1\n  ]\n}\n", NULL},
		{"1K", 1024, NULL, "no \"daemon\""},
	};
	CHECK_INT("json doc", ws_json_sweep_write(m, "m", p, 2), 0);
	fclose(m);
	CHECK_STR("json doc", text ? text : "",
		  "{\n"
		  "  \"type\": \"sweep\",\n"
		  "  \"schema_version\": 1,\n"
		  "  \"parameter\": \"m\",\n"
		  "  \"values\": [\n"
		  "    \"64\",\n"
		  "    \"1K\"\n"
		  "  ],\n"
		  "  \"points\": [\n"
		  "    {\n"
		  "      \"value\": \"64\",\n"
		  "      \"x\": 64,\n"
		  "      \"result\": {\n"
		  "        \"a\": [\n"
		  "          1\n"
		  "        ]\n"
		  "      }\n"
		  "    },\n"
		  "    {\n"
		  "      \"value\": \"1K\",\n"
		  "      \"x\": 1024,\n"
		  "      \"result\": null,\n"
		  "      \"error\": \"no \\\"daemon\\\"\"\n"
		  "    }\n"
		  "  ]\n"
		  "}\n");
	free(text);
}

int main(void)
{
	RUN(test_values);
	RUN(test_errors);
	RUN(test_combinations);
	RUN(test_point_argv);
	RUN(test_json_doc);
	TEST_MAIN_END();
}
