/* SPDX-License-Identifier: BSD-2-Clause */
/* test_meshopts: `warpspeed mesh`'s command line: the mesh's options, the netperf part
 * read by the client's parser, and the netperf options a mesh refuses, with their exact
 * messages. */
#include "harness.h"

#include "cli_line.h"

#include "cli/meshopts.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static ws_cli_mesh_options o;

static int parse(const char *line, ws_err *err)
{
	char *argv[64];
	int argc = split_line("mesh", line, argv);
	ws_err_clear(err);
	return ws_cli_mesh_parse(argc, argv, &o, err);
}

static void test_defaults(void)
{
	ws_err err;
	CHECK_INT("empty", parse("", &err), 0);
	CHECK_INT("all", o.pairs, WS_MESH_ALL);
	CHECK(("no json"), o.json_path == NULL && o.bind_addr == NULL && o.bind_if == NULL);
	CHECK_INT("port", o.port, 0);
	CHECK_INT("family", o.family, 0);
	CHECK_INT("TCP_STREAM", o.net.spec.type, WS_TEST_TCP_STREAM);
	CHECK_DBL("10 s", o.net.spec.duration_s, 10, 0);
}

static void test_mesh_options(void)
{
	ws_err err;
	CHECK_INT("full", parse("--pairs=all-to-all --json out.json --bind-addr 127.0.0.%r --port 7000 -6 "
				"--max-memory 1K --max-sessions 3 --max-duration 2.5 -t TCP_RR -l -100 -- -r 64,64", &err), 0);
	CHECK_INT("pairs", o.pairs, WS_MESH_ALL_TO_ALL);
	CHECK_STR("json", o.json_path, "out.json");
	CHECK_STR("bind-addr", o.bind_addr, "127.0.0.%r");
	CHECK_INT("port", o.port, 7000);
	CHECK_INT("family", o.family, 6);
	CHECK_INT("spec family", o.net.spec.family, WS_FAMILY_INET6);
	CHECK_U64("memory", o.max_memory, 1024);
	CHECK_INT("sessions", o.max_sessions, 3);
	CHECK_DBL("duration", o.max_duration_s, 2.5, 0);
	CHECK_INT("TCP_RR", o.net.spec.type, WS_TEST_TCP_RR);
	CHECK_U64("transactions", o.net.spec.end_count, 100);
	CHECK_INT("request", o.net.spec.req_size, 64);
	CHECK_INT("netperf -4", parse("--bind-if eth1 -4 -t UDP_STREAM", &err), 0);
	CHECK_STR("bind-if", o.bind_if, "eth1");
	CHECK_INT("-4 in the netperf part", parse("-4 -t TCP_STREAM", &err), 0);
	CHECK_INT("family from netperf", o.family, 4);
	CHECK_INT("help", parse("--pairs ring -h", &err), 0);
	CHECK(("help"), o.help);
	CHECK_INT("netperf help", parse("-t TCP_RR -h", &err), 0);
	CHECK(("netperf help"), o.help);
	/* Options in any order before -- (issue 29): mesh options after netperf ones. */
	CHECK_INT("any order", parse("--pairs all -l 1 --json F -t TCP_RR --bind-addr=10.0.0.%r "
				     "--json-file G -- -r 8", &err), 0);
	CHECK_STR("any order: json-file, the last", o.json_path, "G");
	CHECK_STR("any order: bind-addr", o.bind_addr, "10.0.0.%r");
	CHECK_DBL("any order: -l", o.net.spec.duration_s, 1, 0);
	CHECK_INT("any order: -t", o.net.spec.type, WS_TEST_TCP_RR);
	CHECK_INT("any order: -r", o.net.spec.req_size, 8);
	CHECK_INT("-l -4 stays netperf's", parse("-l -4", &err), 0);
	CHECK_U64("-l -4: four bytes", o.net.spec.end_count, 4);
	CHECK_INT("-l -4: no family", o.family, 0);
}

static void test_refused(void)
{
	static const struct {
		const char *line, *msg;
	} bad[] = {
		{"--pairs star", "option --pairs: 'star' is not a schedule; expected all, ring, matching or all-to-all"},
		{"--pairs", "option --pairs needs a value; expected --pairs all|ring|matching|all-to-all"},
		{"--port 70000", NULL},
		{"--max-memory 0", "option --max-memory: 0 bytes would refuse every test; expected a size like 512M"},
		{"--bind-addr 10.0.0.%r --bind-if eth0",
		 "options --bind-addr and --bind-if both choose the data address; expected one of them"},
		{"-H otherhost", "option -H does not apply to warpspeed mesh: the mesh tests every rank's daemon in turn"},
		{"-p 5000", "option -p does not apply to warpspeed mesh: every rank's daemon port is --port (or any free port, told over MPI)"},
		{"-i 10,3", "option -i does not apply to warpspeed mesh: a cell is one test (run the mesh again for more samples)"},
		{"-- -H 10.0.0.1", "test option -H does not apply to warpspeed mesh: the data addresses are the ranks' (--bind-addr, --bind-if)"},
		{"-t TCP_RR -- -o THROUGHPUT",
		 "the output selectors (-o/-O/-k) do not apply to warpspeed mesh: it prints a matrix; expected --json FILE for every figure of it"},
		{"-t TCP_RR --json", "option --json needs a value; expected --json FILE"},
		{"-t TCP_RR --json-lines",
		 "option --json-lines does not apply to warpspeed mesh: it writes one matrix; expected --json FILE or --json-file FILE (- for stdout) before --"},
		{"--peer netserver", "option --peer does not apply to warpspeed mesh: every rank runs a warpspeed daemon"},
		{"-6 -t TCP_STREAM -4", "the mesh's -6 and the netperf part's -4 disagree; expected one address family"},
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		ws_err err;
		WS_T_REPORT(parse(bad[k].line, &err) < 0, bad[k].line, "accepted");
		if (bad[k].msg)
			CHECK_STR(bad[k].line, err.msg, bad[k].msg);
	}
}

int main(void)
{
	RUN(test_defaults);
	RUN(test_mesh_options);
	RUN(test_refused);
	TEST_MAIN_END();
}
