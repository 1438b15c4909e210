/* SPDX-License-Identifier: BSD-2-Clause */
/* test_optsem: the option values whose meaning follows netperf 2.7.0 beyond their syntax:
 * socket buffers where -1 leaves the default and 0 asks for the kernel's minimum, negative
 * values after an option (-l -1000, -D -0.2), the x,y / x, / ,y forms with K/M/G and k/m/g
 * suffixes, and the options netperf takes on every test (-F, -m, -R). Each expectation was
 * checked against netperf 2.7.0 on loopback. */
#include "harness.h"
#include "cli_line.h"

#include "cli/conntest.h"
#include "cli/optvalue.h"
#include "cli/options.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static void bad(const char *name, const char *line, const char *want1, const char *want2)
{
	ws_cli_options o;
	ws_err err;
	int rc = parse_line(line, &o, &err);
	WS_T_REPORT(rc < 0, name, "'%s' returned %d, want an error", line, rc);
	WS_T_REPORT(strstr(err.msg, want1) != NULL, name, "'%s': [%s] lacks '%s'", line, err.msg, want1);
	WS_T_REPORT(strstr(err.msg, want2) != NULL, name, "'%s': [%s] lacks '%s'", line, err.msg, want2);
}

static void test_sockbuf_value(void)
{
	static const struct {
		const char *in;
		uint32_t want;
	} cases[] = {
		{"0", WS_SOCKBUF_ZERO}, {"-1", 0},         {"-5", 0},         {"-1K", 0},
		{"1", 1},               {"1K", 1024},      {"1k", 1000},      {"1M", 1048576},
		{"1m", 1000000},        {"1G", 1u << 30},  {"1g", 1000000000}, {"128K", 131072},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t v = 12345;
		ws_err err;
		ws_err_clear(&err);
		int rc = ws_cli_parse_sockbuf(cases[i].in, &v, &err);
		WS_T_REPORT(rc == 0, "sockbuf", "'%s': rc %d [%s]", cases[i].in, rc, err.msg);
		WS_T_REPORT(v == cases[i].want, "sockbuf", "'%s': %u, want %u", cases[i].in, v, cases[i].want);
	}
	static const char *const wrong[] = {"", "-", "x", "-x", "2G", "1Q", "--1", "1.5"};
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		uint32_t v;
		ws_err err;
		ws_err_clear(&err);
		int rc = ws_cli_parse_sockbuf(wrong[i], &v, &err);
		WS_T_REPORT(rc < 0, "sockbuf bad", "'%s' accepted", wrong[i]);
		WS_T_REPORT(strstr(err.msg, "socket buffer") && strstr(err.msg, "-1"), "sockbuf bad",
			    "'%s': message [%s] does not say what is accepted", wrong[i], err.msg);
	}
}

static void test_sockbuf_lines(void)
{
	ws_cli_options o;
	ok("-s -1", "-t TCP_RR -- -s -1", &o);
	CHECK_U64("-s -1", o.spec.local.sndbuf, 0);
	CHECK_U64("-s -1", o.spec.local.rcvbuf, 0);
	ok("-s 0", "-t TCP_RR -- -s 0", &o);
	CHECK_U64("-s 0", o.spec.local.sndbuf, WS_SOCKBUF_ZERO);
	CHECK_U64("-s 0", o.spec.local.rcvbuf, WS_SOCKBUF_ZERO);
	ok("-s 0,-1", "-- -s 0,-1", &o);
	CHECK_U64("-s 0,-1", o.spec.local.sndbuf, WS_SOCKBUF_ZERO);
	CHECK_U64("-s 0,-1", o.spec.local.rcvbuf, 0);
	ok("-S -1K,0", "-- -S -1K,0", &o);
	CHECK_U64("-S -1K,0", o.spec.remote.sndbuf, 0);
	CHECK_U64("-S -1K,0", o.spec.remote.rcvbuf, WS_SOCKBUF_ZERO);
	ok("-S 8k,", "-- -S 8k,", &o);
	CHECK_U64("-S 8k,", o.spec.remote.sndbuf, 8000);
	CHECK_U64("-S 8k,", o.spec.remote.rcvbuf, 0);
	ok("-s ,1M", "-- -s ,1M", &o);
	CHECK_U64("-s ,1M", o.spec.local.sndbuf, 0);
	CHECK_U64("-s ,1M", o.spec.local.rcvbuf, 1048576);
	ok("-s-1 attached", "-- -s-1", &o);
	CHECK_U64("-s-1 attached", o.spec.local.sndbuf, 0);
	bad("-s -x", "-- -s -x", "-s", "'-x'");
	bad("-s 3G", "-- -s 3G", "-s", "'3G'");
}

static void test_negative_values(void)
{
	ws_cli_options o;
	ok("-l -1000", "-l -1000", &o);
	CHECK_INT("-l -1000", o.spec.end, WS_END_BYTES);
	CHECK_U64("-l -1000", o.spec.end_count, 1000);
	ok("-l -1000 RR", "-t TCP_RR -l -1000", &o);
	CHECK_INT("-l -1000 RR", o.spec.end, WS_END_TRANSACTIONS);
	ok("-D -0.2", "-D -0.2 -t UDP_RR", &o);
	CHECK_DBL("-D -0.2", o.demo_interval_s, 0.2, 1e-12);
	CHECK("-D -0.2", o.demo_precise);
	ok("-D -0.2 then -l", "-D -0.2 -l 1", &o);
	CHECK_DBL("-D -0.2 then -l", o.spec.duration_s, 1, 0);
}

static void test_fill_everywhere(void)
{
	static const char *const tests[] = {"TCP_STREAM", "TCP_MAERTS", "TCP_SENDFILE", "UDP_STREAM",
					    "TCP_RR", "UDP_RR", "TCP_CRR"};
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		char line[128];
		ws_cli_options o;
		snprintf(line, sizeof(line), "-D -0.2 -t %s -F /dev/urandom", tests[i]);
		ok("-F", line, &o);
		CHECK_STR("-F", o.spec.fill_file, "/dev/urandom");
	}
}

static void test_routing(void)
{
	ws_cli_options o;
	ok("-R default", "-t UDP_STREAM", &o);
	CHECK("-R default", !o.spec.udp_route && !o.spec.dontroute);
	ok("-R 0", "-t TCP_RR -- -R 0", &o);
	CHECK("-R 0", o.spec.dontroute && !o.spec.udp_route);
	ok("-R 1", "-t UDP_STREAM -- -R 1", &o);
	CHECK("-R 1", !o.spec.dontroute && o.spec.udp_route);
	ok("-R 1 TCP_RR", "-t TCP_RR -- -R 1", &o);
	CHECK("-R 1 TCP_RR", !o.spec.dontroute);
	ok("-R0 attached", "-t TCP_CRR -- -R0", &o);
	CHECK("-R0 attached", o.spec.dontroute);
	ok("-R 2", "-t UDP_STREAM -- -R 2", &o); /* netperf's atoi: any nonzero allows routing */
	CHECK("-R 2", !o.spec.dontroute && o.spec.udp_route);
	bad("-R 1.5", "-- -R 1.5", "-R", "'1.5'");
	bad("-R x", "-- -R x", "-R", "0 (no routing");
}

/* netperf takes -m and -M on the RR tests; -m shows as LOCAL_SEND_SIZE, nothing else */
static void test_rr_sizes_accepted(void)
{
	ws_cli_options o;
	ok("RR -m", "-t TCP_RR -- -m 1024", &o);
	CHECK_U64("RR -m", o.spec.send_size, 1024);
	CHECK_U64("RR -m", o.spec.req_size, 1);
	ok("RR -M", "-t UDP_RR -- -M 100", &o);
	ok("CRR -m", "-t TCP_CRR -- -m 1K -r 64", &o);
	CHECK_U64("CRR -m", o.spec.req_size, 64);
	bad("sweep m RR", "-t TCP_RR --sweep m=64,128", "--sweep m", "-r sizes");
}

/* -t stream|dgram, -m/-M pairs and -p's port range (cli/testopts.c) */
static void test_pairs_socktype_ports(void)
{
	ws_cli_options o;
	ok("-t stream", "-t TCP_RR -- -t stream", &o);
	ok("-t dgram omni", "-t omni -- -t dgram -T udp", &o);
	CHECK("-t dgram omni", o.spec.type == WS_TEST_UDP_STREAM);
	bad("-t mismatch", "-t UDP_STREAM -- -t stream", "-t stream", "dgram");
	bad("-t word", "-- -t SOCK_STREAM", "'SOCK_STREAM'", "stream or dgram");
	ok("-m pair", "-t TCP_STREAM -- -m 1K,2K", &o);
	CHECK("-m pair", o.spec.send_size == 1024 && strstr(o.notes, "-m's remote half (2048)"));
	ok("-m ,x MAERTS", "-t TCP_MAERTS -- -m ,4K", &o);
	CHECK("-m ,x MAERTS", o.spec.send_size == 4096 && !o.notes[0]);
	ok("-M pair", "-t TCP_STREAM -- -M 1K,2K", &o);
	CHECK("-M pair", o.spec.recv_size == 1024 && strstr(o.notes, "-M's local half (2048)"));
	ok("-M ,x MAERTS", "-t TCP_MAERTS -- -M ,2K", &o);
	CHECK("-M ,x MAERTS", o.spec.recv_size == 2048);
	ok("-p range", "-t TCP_CRR -- -p 41000,41010", &o);
	CHECK("-p range", o.spec.local.data_port == 41000 && o.spec.local_port_max == 41010);
	ok("-p ,max", "-t TCP_CC -- -p ,41010", &o);
	CHECK("-p ,max", o.spec.local.data_port == 5000 && o.spec.local_port_max == 41010);
	ok("-p max<min", "-t TCP_CRR -- -p 41010,41000", &o);
	CHECK("-p max<min", o.spec.local.data_port == 41010 && o.spec.local_port_max == 41010);
	ok("-p stream", "-t TCP_STREAM -- -p 41000", &o);
	CHECK("-p stream", o.spec.local.data_port == 0 && strstr(o.notes, "-p has no effect on TCP_STREAM"));
	bad("-p 0", "-t TCP_CRR -- -p 0", "'0'", "1 to 65535");
}

/* Test option -c, netperf's connection test: what each test becomes (netperf 2.7.0: TCP_RR
 * -c runs connection per transaction under TCP_RR's banner, TCP_STREAM -c a connection per
 * 16384-byte send, -t omni -- -c is "OMNI Connection TEST", UDP fails at the netserver). */
static void test_conntest(void)
{
	ws_cli_options o;
	ws_test_spec run;
	ok("-c rr", "-t TCP_RR -l -100 -- -c -b 3", &o);
	CHECK("-c rr converts", ws_cli_conn_spec(&o, &run));
	CHECK("-c rr crr", run.type == WS_TEST_TCP_CRR && run.req_size == 1 && run.rsp_size == 1);
	CHECK_U64("-c rr no burst", run.burst, 0);
	CHECK_U64("-c rr count", run.end_count, 100);
	ok("-c stream", "-t TCP_STREAM -l -4097 -- -c -m 1024", &o);
	CHECK("-c stream converts", ws_cli_conn_spec(&o, &run));
	CHECK("-c stream crr", run.type == WS_TEST_TCP_CRR && run.end == WS_END_TRANSACTIONS);
	CHECK_U64("-c stream request", run.req_size, 1024);
	CHECK_U64("-c stream response", run.rsp_size, 0);
	CHECK_U64("-c stream messages", run.end_count, 5);
	ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.spec = run;
	ws_cli_conn_view(&o, &r);
	CHECK("-c stream view", r.spec.type == WS_TEST_TCP_STREAM && r.spec.end == WS_END_BYTES);
	CHECK_U64("-c stream view bytes", r.spec.end_count, 4097);
	ok("-c maerts", "-t TCP_MAERTS -l 2 -- -c -m 512", &o);
	CHECK("-c maerts converts", ws_cli_conn_spec(&o, &run));
	CHECK("-c maerts sizes", run.req_size == 0 && run.rsp_size == 512);
	ok("-c omni", "-t omni -- -c", &o);
	CHECK("-c omni cc", o.spec.type == WS_TEST_TCP_CC && !ws_cli_conn_spec(&o, &run));
	ok("-c omni rr", "-t omni -- -d rr -c", &o);
	CHECK("-c omni rr crr", o.spec.type == WS_TEST_TCP_CRR);
	ok("-c omni send", "-t omni -- -c -d send", &o);
	CHECK("-c omni send", o.spec.type == WS_TEST_TCP_STREAM && ws_cli_conn_spec(&o, &run));
	ok("-c crr", "-t TCP_CRR -- -c", &o);
	CHECK("-c crr unchanged", !ws_cli_conn_spec(&o, &run) && run.type == WS_TEST_TCP_CRR);
	ok("-c without", "-t TCP_RR", &o);
	CHECK("no -c", !ws_cli_conn_spec(&o, &run) && run.type == WS_TEST_TCP_RR);
	bad("-c udp", "-t UDP_STREAM -- -c", "-c does not apply to UDP_STREAM", "TCP_STREAM");
	bad("-c udp rr", "-t UDP_RR -- -c", "UDP_RR", "TCP_RR");
	bad("-c omni udp", "-t omni -- -c -T udp", "UDP_STREAM", "-t omni");
	bad("-c sendfile", "-t TCP_SENDFILE -- -c", "TCP_SENDFILE", "TCP_MAERTS");
}

int main(void)
{
	RUN(test_sockbuf_value);
	RUN(test_sockbuf_lines);
	RUN(test_negative_values);
	RUN(test_fill_everywhere);
	RUN(test_routing);
	RUN(test_rr_sizes_accepted);
	RUN(test_pairs_socktype_ports);
	RUN(test_conntest);
	TEST_MAIN_END();
}
