/* SPDX-License-Identifier: BSD-2-Clause */
/* test_options: the netperf command-line parser, option by option, with exact values.
 *
 * The Makefile links the CLI's modules (all but main.o) into unit tests; the parser never
 * prints, which is what makes it testable. */
#include "harness.h"
#include "cli_line.h"

#include "cli/options.h"
#include "cli/usage.h"
#include "util/err.h"

#include <string.h>

#include <stdlib.h>

/* A line that must fail with a message naming the option and the bad value. */
static void bad(const char *name, const char *line, const char *opt, const char *value)
{
	ws_cli_options o;
	ws_err err;
	int rc = parse_line(line, &o, &err);
	WS_T_REPORT(rc < 0, name, "'%s' returned %d, want an error", line, rc);
	WS_T_REPORT(err.code == rc, name, "err.code %d, rc %d", err.code, rc);
	WS_T_REPORT(strstr(err.msg, opt) != NULL, name, "'%s': message [%s] lacks '%s'", line,
		    err.msg, opt);
	WS_T_REPORT(strstr(err.msg, value) != NULL, name, "'%s': message [%s] lacks '%s'", line,
		    err.msg, value);
	if (getenv("WS_SHOW_MESSAGES"))
		printf("  %-28s -> %s\n", line, err.msg);
}

static void test_defaults(void)
{
	ws_cli_options o;
	ok("defaults", "", &o);
	CHECK_STR("defaults", o.remote_host, "localhost");
	CHECK_STR("defaults", o.local_host, "");
	CHECK_INT("defaults", o.ctl_port, 12865);
	CHECK_INT("defaults", o.local_ctl_port, 0);
	CHECK_INT("defaults", o.spec.type, WS_TEST_TCP_STREAM);
	CHECK_INT("defaults", o.spec.end, WS_END_TIME);
	CHECK_DBL("defaults", o.spec.duration_s, 10.0, 0);
	CHECK_INT("defaults", o.spec.family, WS_FAMILY_ANY);
	CHECK_INT("defaults", o.spec.local.cpu, -1);
	CHECK_INT("defaults", o.spec.remote.cpu, -1);
	CHECK("defaults", !o.spec.local.measure_cpu && !o.spec.remote.measure_cpu);
	CHECK_INT("defaults", o.print_headers, 1);
	CHECK_INT("defaults", o.verbosity, 1);
	CHECK_INT("defaults", o.format, 'm');
	CHECK("defaults", !o.format_given && !o.cpu_bind_given && !o.help && !o.version);
	CHECK_U64("defaults", o.global_given, 0);
	CHECK_U64("defaults", o.test_given, 0);
	CHECK_INT("defaults", o.spec.local.sndbuf, 0);
	CHECK_INT("defaults", o.spec.send_size, 0);
	CHECK_DBL("defaults", o.demo_interval_s, 0, 0);
	CHECK_STR("defaults", o.fill_file, "");
}

static void test_hosts(void)
{
	ws_cli_options o;
	ok("hosts", "-H 10.0.0.1", &o);
	CHECK_STR("hosts", o.remote_host, "10.0.0.1");
	CHECK_INT("hosts", o.remote_family, WS_FAMILY_ANY);
	CHECK("hosts", o.remote_host_given && ws_cli_given(&o, false, 'H'));
	ok("hosts", "-Hexample.org,6", &o);
	CHECK_STR("hosts", o.remote_host, "example.org");
	CHECK_INT("hosts", o.spec.family, WS_FAMILY_INET6);
	ok("hosts", "-H box,inet", &o);
	CHECK_INT("hosts", o.spec.family, WS_FAMILY_INET);
	/* ",family" alone keeps the default host, which becomes ::1 for IPv6 as in netperf. */
	ok("hosts", "-H ,inet6", &o);
	CHECK_STR("hosts", o.remote_host, "::1");
	CHECK_INT("hosts", o.spec.family, WS_FAMILY_INET6);
	ok("hosts", "-H box,", &o);
	CHECK_STR("hosts", o.remote_host, "box");
	CHECK_INT("hosts", o.spec.family, WS_FAMILY_ANY);
	ok("hosts", "-L 192.168.0.5", &o);
	CHECK_STR("hosts", o.local_host, "192.168.0.5");
	CHECK_STR("hosts", o.remote_host, "localhost");
	ok("hosts", "-L192.168.0.5,4", &o);
	CHECK_INT("hosts", o.local_family, WS_FAMILY_INET);
	CHECK_INT("hosts", o.spec.family, WS_FAMILY_INET);
	ok("hosts", "-L ,AF_INET6", &o);
	CHECK_STR("hosts", o.local_host, "");
	CHECK_INT("hosts", o.spec.family, WS_FAMILY_INET6);
}

static void test_ports(void)
{
	ws_cli_options o;
	ok("ports", "-p 12866", &o);
	CHECK_INT("ports", o.ctl_port, 12866);
	CHECK_INT("ports", o.local_ctl_port, 0); /* one value sets only the first */
	ok("ports", "-p12866,4000", &o);
	CHECK_INT("ports", o.ctl_port, 12866);
	CHECK_INT("ports", o.local_ctl_port, 4000);
	ok("ports", "-p ,4001", &o);
	CHECK_INT("ports", o.ctl_port, 12865);
	CHECK_INT("ports", o.local_ctl_port, 4001);
	ok("ports", "-p 65535,", &o);
	CHECK_INT("ports", o.ctl_port, 65535);
	CHECK_INT("ports", o.local_ctl_port, 0);
}

static void test_test_names(void)
{
	ws_cli_options o;
	ok("test names", "-t TCP_RR", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_TCP_RR);
	ok("test names", "-tTCP_SENDFILE", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_TCP_SENDFILE);
	ok("test names", "-t tcp_maerts", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_TCP_MAERTS);
	ok("test names", "-tudp_stream", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_UDP_STREAM);
	ok("test names", "-t Udp_Rr", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_UDP_RR);
	ok("test names", "-t TCP_CRR", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_TCP_CRR);
	ok("test names", "-t TCP_STREAM", &o);
	CHECK_INT("test names", o.spec.type, WS_TEST_TCP_STREAM);
}

static void test_length(void)
{
	ws_cli_options o;
	ok("length", "-l 20", &o);
	CHECK_INT("length", o.spec.end, WS_END_TIME);
	CHECK_DBL("length", o.spec.duration_s, 20.0, 0);
	ok("length", "-l3", &o);
	CHECK_DBL("length", o.spec.duration_s, 3.0, 0);
	ok("length", "-l -1000000", &o);
	CHECK_INT("length", o.spec.end, WS_END_BYTES);
	CHECK_U64("length", o.spec.end_count, 1000000);
	ok("length", "-l-4096 -t UDP_STREAM", &o);
	CHECK_INT("length", o.spec.end, WS_END_BYTES);
	CHECK_U64("length", o.spec.end_count, 4096);
	/* -t after -l still decides: RR tests count transactions. */
	ok("length", "-l -500 -t TCP_RR", &o);
	CHECK_INT("length", o.spec.end, WS_END_TRANSACTIONS);
	CHECK_U64("length", o.spec.end_count, 500);
	ok("length", "-t TCP_CRR -l-7", &o);
	CHECK_INT("length", o.spec.end, WS_END_TRANSACTIONS);
	CHECK_U64("length", o.spec.end_count, 7);
	/* The last -l wins, as in netperf. */
	ok("length", "-l -100 -l 5", &o);
	CHECK_INT("length", o.spec.end, WS_END_TIME);
	CHECK_DBL("length", o.spec.duration_s, 5.0, 0);
	CHECK_U64("length", o.spec.end_count, 0);
}

static void test_cpu(void)
{
	ws_cli_options o;
	ok("cpu", "-c", &o);
	CHECK("cpu", o.spec.local.measure_cpu && !o.spec.remote.measure_cpu);
	ok("cpu", "-C", &o);
	CHECK("cpu", !o.spec.local.measure_cpu && o.spec.remote.measure_cpu);
	/* The optional rate is consumed, so the words after it are still options. */
	ok("cpu", "-c 100 -C 200 -l 4", &o);
	CHECK("cpu", o.spec.local.measure_cpu && o.spec.remote.measure_cpu);
	CHECK_DBL("cpu", o.spec.duration_s, 4.0, 0);
	ok("cpu", "-c100 -C2.5", &o);
	CHECK("cpu", o.spec.local.measure_cpu && o.spec.remote.measure_cpu);
	ok("cpu", "-cC", &o);
	CHECK("cpu", o.spec.local.measure_cpu && o.spec.remote.measure_cpu);
	ok("cpu", "-C -- -m 1K", &o);
	CHECK("cpu", o.spec.remote.measure_cpu);
	CHECK_INT("cpu", o.spec.send_size, 1024);
}

static void test_output(void)
{
	ws_cli_options o;
	ok("output", "-P 0", &o);
	CHECK_INT("output", o.print_headers, 0);
	ok("output", "-P1", &o);
	CHECK_INT("output", o.print_headers, 1);
	CHECK("output", ws_cli_given(&o, false, 'P') && !ws_cli_given(&o, true, 'P'));
	ok("output", "-v 2", &o);
	CHECK_INT("output", o.verbosity, 2);
	ok("output", "-v0", &o);
	CHECK_INT("output", o.verbosity, 0);
	const char *units = "GMKgmkx";
	for (const char *u = units; *u; u++) {
		char line[16];
		snprintf(line, sizeof(line), "-t TCP_RR -f %c", *u);
		ok("output", line, &o);
		CHECK_INT("output", o.format, *u);
		CHECK("output", o.format_given);
	}
	ok("output", "-fK", &o);
	CHECK_INT("output", o.format, 'K');
	ok("output", "-t TCP_RR", &o);
	CHECK_INT("output", o.format, 'x');
	CHECK("output", !o.format_given);
	ok("output", "-t TCP_RR -f m", &o);
	CHECK_INT("output", o.format, 'm');
	ok("output", "-B mybrand", &o);
	CHECK_STR("output", o.brand, "mybrand");
	ok("output", "-Bx1", &o);
	CHECK_STR("output", o.brand, "x1");
}

static void test_cpu_bind(void)
{
	ws_cli_options o;
	ok("cpu bind", "-T 1", &o);
	CHECK_INT("cpu bind", o.spec.local.cpu, 1);
	CHECK_INT("cpu bind", o.spec.remote.cpu, 1); /* a single value sets both */
	CHECK("cpu bind", o.cpu_bind_given);
	ok("cpu bind", "-T0,3", &o);
	CHECK_INT("cpu bind", o.spec.local.cpu, 0);
	CHECK_INT("cpu bind", o.spec.remote.cpu, 3);
	ok("cpu bind", "-T 2,", &o);
	CHECK_INT("cpu bind", o.spec.local.cpu, 2);
	CHECK_INT("cpu bind", o.spec.remote.cpu, -1);
	ok("cpu bind", "-T ,5", &o);
	CHECK_INT("cpu bind", o.spec.local.cpu, -1);
	CHECK_INT("cpu bind", o.spec.remote.cpu, 5);
	CHECK("cpu bind", o.cpu_bind_given);
}

static void test_flags_and_misc(void)
{
	ws_cli_options o;
	ok("misc", "-4", &o);
	CHECK_INT("misc", o.spec.family, WS_FAMILY_INET);
	CHECK_INT("misc", o.local_family, WS_FAMILY_INET);
	ok("misc", "-6", &o);
	CHECK_INT("misc", o.spec.family, WS_FAMILY_INET6);
	CHECK_STR("misc", o.remote_host, "::1");
	ok("misc", "-6 -H 10.1.1.1", &o);
	CHECK_STR("misc", o.remote_host, "10.1.1.1");
	ok("misc", "-F /dev/shm/10meg.bin", &o);
	CHECK_STR("misc", o.fill_file, "/dev/shm/10meg.bin");
	CHECK_STR("misc", o.remote_fill_file, ""); /* one value sets only the first */
	ok("misc", "-Flocal.bin,remote.bin", &o);
	CHECK_STR("misc", o.fill_file, "local.bin");
	CHECK_STR("misc", o.remote_fill_file, "remote.bin");
	ok("misc", "-n 4", &o);
	CHECK_INT("misc", o.ncpus, 4);
	ok("misc", "-n16", &o);
	CHECK_INT("misc", o.ncpus, 16);
	ok("misc", "-D", &o);
	CHECK_DBL("misc", o.demo_interval_s, 1.0, 0);
	ok("misc", "-D 0.5", &o);
	CHECK_DBL("misc", o.demo_interval_s, 0.5, 0);
	ok("misc", "-D2,10m", &o);
	CHECK_DBL("misc", o.demo_interval_s, 2.0, 0);
	CHECK_U64("misc", o.demo_units, 10000000);
	ok("misc", "-D -H far", &o);
	CHECK_DBL("misc", o.demo_interval_s, 1.0, 0);
	CHECK_STR("misc", o.remote_host, "far");
	CHECK("misc", !o.demo_precise);
	/* netperf's negative interval (precise timing), separate and attached, and '+' */
	ok("misc", "-D -0.5 -H far", &o);
	CHECK_DBL("misc", o.demo_interval_s, 0.5, 0);
	CHECK("misc", o.demo_precise);
	CHECK_STR("misc", o.remote_host, "far");
	ok("misc", "-D-0.25,1m", &o);
	CHECK_DBL("misc", o.demo_interval_s, 0.25, 0);
	CHECK("misc", o.demo_precise);
	CHECK_U64("misc", o.demo_units, 1000000);
	ok("misc", "-D +2", &o);
	CHECK_DBL("misc", o.demo_interval_s, 2.0, 0);
	CHECK("misc", !o.demo_precise);
}

static void test_help_version(void)
{
	ws_cli_options o;
	ok("help", "-h", &o);
	CHECK("help", o.help && !o.version);
	ok("help", "--help", &o);
	CHECK("help", o.help);
	/* Help stops parsing: what follows is not checked. */
	ok("help", "-h -Q", &o);
	CHECK("help", o.help);
	ok("help", "-hQ", &o);
	CHECK("help", o.help);
	ok("help", "-ch", &o);
	CHECK("help", o.help && o.spec.local.measure_cpu);
	ok("help", "-V", &o);
	CHECK("help", o.version && !o.help);
	ok("help", "--version", &o);
	CHECK("help", o.version);
	const char *u = ws_cli_usage();
	CHECK("help", strstr(u, "-H host[,family]") != NULL);
	CHECK("help", strstr(u, "Test options (after --)") != NULL);
	CHECK("help", strstr(u, "-s send[,recv]") != NULL);
	CHECK("help", strstr(u, "2 bad usage") != NULL);
	CHECK("help", u[strlen(u) - 1] == '\n');
}

static void test_test_options(void)
{
	ws_cli_options o;
	ok("test opts", "-- -s 64K", &o);
	CHECK_U64("test opts", o.spec.local.sndbuf, 65536);
	CHECK_U64("test opts", o.spec.local.rcvbuf, 65536);
	CHECK_U64("test opts", o.spec.remote.sndbuf, 0);
	ok("test opts", "-- -s32K,64K -S 1000,2000", &o);
	CHECK_U64("test opts", o.spec.local.sndbuf, 32768);
	CHECK_U64("test opts", o.spec.local.rcvbuf, 65536);
	CHECK_U64("test opts", o.spec.remote.sndbuf, 1000);
	CHECK_U64("test opts", o.spec.remote.rcvbuf, 2000);
	ok("test opts", "-- -s 8K, -S ,16K", &o);
	CHECK_U64("test opts", o.spec.local.sndbuf, 8192);
	CHECK_U64("test opts", o.spec.local.rcvbuf, 0);
	CHECK_U64("test opts", o.spec.remote.sndbuf, 0);
	CHECK_U64("test opts", o.spec.remote.rcvbuf, 16384);
	ok("test opts", "-- -S4k", &o);
	CHECK_U64("test opts", o.spec.remote.sndbuf, 4000);
	CHECK_U64("test opts", o.spec.remote.rcvbuf, 4000);
	ok("test opts", "-- -m 16K -M 1024", &o);
	CHECK_U64("test opts", o.spec.send_size, 16384);
	CHECK_U64("test opts", o.spec.recv_size, 1024);
	ok("test opts", "-- -m1 -M1k", &o);
	CHECK_U64("test opts", o.spec.send_size, 1);
	CHECK_U64("test opts", o.spec.recv_size, 1000);
	ok("test opts", "-- -D", &o);
	CHECK("test opts", o.spec.nodelay);
	CHECK_DBL("test opts", o.demo_interval_s, 0, 0); /* not the global -D */
	CHECK("test opts", ws_cli_given(&o, true, 'D') && !ws_cli_given(&o, false, 'D'));
	/* -n/-N: connected UDP sockets, what warpspeed uses anyway; accepted on any test */
	ok("test opts", "-t UDP_STREAM -- -n -N", &o);
	ok("test opts", "-t TCP_RR -- -N", &o);
	/* -u: the UUID the outputs name; netperf takes any text of up to 36 characters */
	ok("test opts", "-t TCP_RR -- -u 12345678-1234-1234-1234-123456789abc", &o);
	CHECK("test opts", o.uuid && !strcmp(o.uuid, "12345678-1234-1234-1234-123456789abc"));
	ok("test opts", "-t TCP_RR -- -u abc", &o);
	CHECK("test opts", o.uuid && !strcmp(o.uuid, "abc"));
	ok("test opts", "-- -P 5001", &o);
	CHECK_INT("test opts", o.spec.local.data_port, 5001);
	CHECK_INT("test opts", o.spec.remote.data_port, 5001);
	CHECK_INT("test opts", o.print_headers, 1); /* not the global -P */
	ok("test opts", "-- -P5001,6001", &o);
	CHECK_INT("test opts", o.spec.local.data_port, 5001);
	CHECK_INT("test opts", o.spec.remote.data_port, 6001);
	ok("test opts", "-- -P ,7000", &o);
	CHECK_INT("test opts", o.spec.local.data_port, 0);
	CHECK_INT("test opts", o.spec.remote.data_port, 7000);
	ok("test opts", "-- -6", &o);
	CHECK_INT("test opts", o.spec.family, WS_FAMILY_INET6);
	ok("test opts", "-6 -- -4", &o);
	CHECK_INT("test opts", o.spec.family, WS_FAMILY_INET);
	ok("test opts", "-- -Ds 1K", &o);
	CHECK("test opts", o.spec.nodelay);
	CHECK_U64("test opts", o.spec.local.sndbuf, 1024);
	ok("test opts", "-t UDP_STREAM -- -m 65507", &o);
	CHECK_U64("test opts", o.spec.send_size, 65507);
}

static void test_io_paths(void)
{
	ws_cli_options o;
	ok("io", "-t TCP_STREAM -- --zerocopy --skip-rx-copy", &o);
	CHECK("io", o.spec.zerocopy && o.spec.skip_rx_copy);
	CHECK("io", !o.spec.splice && !o.spec.gso && !o.spec.gro && !o.spec.no_batch);
	ok("io", "--gso -t UDP_STREAM -- --gro --no-mmsg --route -m 1472", &o);
	CHECK("io", o.spec.gso && o.spec.gro && o.spec.no_batch && o.spec.udp_route);
	CHECK("io", !o.spec.zerocopy && !o.spec.skip_rx_copy);
	CHECK_INT("io", o.spec.send_size, 1472);
	ok("io", "--splice", &o);
	CHECK("io", o.spec.splice);
	bad("io", "-t TCP_SENDFILE -- --zerocopy", "--zerocopy",
	    "--zerocopy does not apply to TCP_SENDFILE; it applies to TCP_STREAM and TCP_MAERTS");
	bad("io", "-t UDP_STREAM --skip-rx-copy", "--skip-rx-copy",
	    "--skip-rx-copy does not apply to UDP_STREAM; it applies to the TCP stream tests");
	bad("io", "-- --gro", "--gro", "--gro does not apply to TCP_STREAM; it applies to UDP_STREAM");
	bad("io", "-t TCP_MAERTS -- --route", "--route", "--route does not apply to TCP_MAERTS");
	bad("io", "-- --splice --skip-rx-copy", "--splice", "two ways to receive; expected one of them");
	ok("io", "-t TCP_MAERTS -- --zerocopy --rcvlowat 64K", &o);
	ok("io", "-t TCP_SENDFILE -- --splice", &o);
	CHECK_U64("io", o.spec.rcvlowat, 0);
	ok("io", "-- --rcvlowat 256K", &o);
	CHECK_U64("io", o.spec.rcvlowat, 262144);
	ok("io", "--rcvlowat=1", &o);
	CHECK_U64("io", o.spec.rcvlowat, 1);
	bad("io", "-- --rcvlowat 0", "--rcvlowat", "'0' is too small: must be at least 1");
	bad("io", "-- --rcvlowat 2G", "--rcvlowat", "'2G' is too large");
	bad("io", "-- --rcvlowat", "--rcvlowat", "needs a value");
	ok("io", "-t TCP_SENDFILE -F /dev/shm/10meg.bin", &o);
	CHECK_STR("io", o.spec.fill_file, "/dev/shm/10meg.bin");
	bad("io", "-- --zerocopy=1", "unknown option", "'--zerocopy=1'");
	bad("io", "-tUDP_STREAM -- -m 8", "-m", "8 is not a UDP_STREAM message size; expected 16 to 65507");
	ok("io", "-tUDP_STREAM -- -m 16", &o);
	ok("streams", "--streams 8 --threads 2,4 --cpus 0,1 -- --remote-cpus 1", &o);
	CHECK_INT("streams", o.spec.streams, 8);
	CHECK_INT("streams", o.spec.local_threads, 2);
	CHECK_INT("streams", o.spec.remote_threads, 4);
	CHECK_STR("streams", o.spec.local_cpus, "0,1");
	CHECK_STR("streams", o.spec.remote_cpus, "1");
	ok("streams", "--streams=3 --threads=3", &o);
	CHECK_INT("streams", o.spec.remote_threads, 3);
	bad("streams", "--streams", "--streams", "needs a value");
	bad("streams", "--cpus 0,,1", "--cpus", "'0,,1'");
}

static void test_sizes(void)
{
	ws_cli_options o;
	ok("sizes", "-- -s 128K", &o);
	CHECK_U64("sizes", o.spec.local.sndbuf, 131072);
	ok("sizes", "-- -m 10m", &o);
	CHECK_U64("sizes", o.spec.send_size, 10000000);
	ok("sizes", "-- -m 0", &o); /* netperf's default size, as no -m */
	CHECK_U64("sizes", o.spec.send_size, 0);
	ok("sizes", "-tUDP_STREAM -- -m 0", &o);
	CHECK_U64("sizes", o.spec.send_size, 0);
	ok("sizes", "-- -S 1G", &o);
	CHECK_U64("sizes", o.spec.remote.sndbuf, 1073741824);
	CHECK_U64("sizes", o.spec.remote.rcvbuf, 1073741824);
	ok("sizes", "-- -M 2M", &o);
	CHECK_U64("sizes", o.spec.recv_size, 2097152);
}

static void test_seed_lines(void)
{
	ws_cli_options o;
	ok("seed", "-H 127.0.0.1 -c -C -- -s 128K -S 128K", &o);
	CHECK_STR("seed", o.remote_host, "127.0.0.1");
	CHECK("seed", o.spec.local.measure_cpu && o.spec.remote.measure_cpu);
	CHECK_U64("seed", o.spec.local.sndbuf, 131072);
	CHECK_U64("seed", o.spec.local.rcvbuf, 131072);
	CHECK_U64("seed", o.spec.remote.sndbuf, 131072);
	CHECK_U64("seed", o.spec.remote.rcvbuf, 131072);
	CHECK_INT("seed", o.spec.type, WS_TEST_TCP_STREAM);
	CHECK_DBL("seed", o.spec.duration_s, 10.0, 0);

	ok("seed", "-H 10.42.43.2 -c -C -tTCP_SENDFILE -F /dev/shm/10meg.bin", &o);
	CHECK_STR("seed", o.remote_host, "10.42.43.2");
	CHECK("seed", o.spec.local.measure_cpu && o.spec.remote.measure_cpu);
	CHECK_INT("seed", o.spec.type, WS_TEST_TCP_SENDFILE);
	CHECK_STR("seed", o.fill_file, "/dev/shm/10meg.bin");

	ok("seed", "-H 192.168.1.1 -T0,0 -P 0 -l 120", &o);
	CHECK_STR("seed", o.remote_host, "192.168.1.1");
	CHECK_INT("seed", o.spec.local.cpu, 0);
	CHECK_INT("seed", o.spec.remote.cpu, 0);
	CHECK("seed", o.cpu_bind_given);
	CHECK_INT("seed", o.print_headers, 0);
	CHECK_INT("seed", o.spec.end, WS_END_TIME);
	CHECK_DBL("seed", o.spec.duration_s, 120.0, 0);
	CHECK("seed", !o.spec.local.measure_cpu && !o.spec.remote.measure_cpu);
	CHECK_U64("seed", o.test_given, 0);
}

static void test_errors_required(void)
{
	bad("errors", "-Q", "unknown option -Q", "-Q");
	bad("errors", "-t FOO", "-t", "'FOO'");
	bad("errors", "-t TCP_FOO", "TCP_STREAM, TCP_MAERTS, TCP_SENDFILE, UDP_STREAM, TCP_RR, UDP_RR, TCP_CRR",
	    "'TCP_FOO'");
	bad("errors", "-l abc", "-l", "'abc'");
	bad("errors", "-l 0", "-l", "'0'");
	bad("errors", "-- -s 12Q", "-s", "'12Q'");
	bad("errors", "-T a,b", "-T", "'a'");
	bad("errors", "-P 2", "-P", "'2'");
	bad("errors", "-v 7", "-v", "'7'");
	bad("errors", "-f z", "-f", "'z'");
	bad("errors", "-H", "-H", "host[,family]");
	bad("errors", "-tUDP_STREAM -- -m 70000", "-m", "70000");
	bad("errors", "-- -u 1234567890123456789012345678901234567", "-u", "'1234567890123456789012345678901234567'");
}

static void test_errors_more(void)
{
	bad("errors+", "-H -c", "-H", "'-c'");
	bad("errors+", "-l", "-l", "secs");
	bad("errors+", "-l --", "-l", "-l secs");
	bad("errors+", "-l 99999999999", "-l", "99999999999");
	bad("errors+", "-l 1.5", "-l", "'1.5'");
	bad("errors+", "-- -M 0", "-M", "'0'");
	bad("errors+", "-- -s 2G", "-s", "'2G'");
	bad("errors+", "-- -m 1025M", "-m", "'1025M'");
	bad("errors+", "-- -s 1K,x", "-s", "'x'");
	bad("errors+", "-- -s 1,2,3", "-s", "'1,2,3'");
	bad("errors+", "-- -P 70000", "-P", "'70000'");
	bad("errors+", "-T 70000", "-T", "'70000'");
	bad("errors+", "-T ,", "-T", "','");
	bad("errors+", "-T 1,x", "-T", "'x' in '1,x'");
	bad("errors+", "-p 0", "-p", "'0'");
	bad("errors+", "-p 80,x", "-p", "'x'");
	bad("errors+", "-H box,7", "-H", "'7'");
	bad("errors+", "-H box,4 -L here,6", "-L", "IPv6");
	bad("errors+", "-n 0", "-n", "'0'");
	bad("errors+", "-f mm", "-f", "'mm'");
	bad("errors+", "-D 0", "-D", "'0'");
	bad("errors+", "-cz", "unknown option -z", "'-cz'");
	bad("errors+", "-c abc", "unexpected argument", "'abc'");
	bad("errors+", "stray", "unexpected argument", "'stray'");
	bad("errors+", "--bogus", "unknown option", "'--bogus'");
	bad("errors+", "-- --nosuch", "unknown option", "'--nosuch'");
	bad("errors+", "-- -Q", "unknown test option -Q", "only test options");
	bad("errors+", "-- -m", "-m", "bytes");
	bad("errors+", "-I 97", "-I", "97");
	bad("errors+", "-I 99,0", "-I", "'0'");
	bad("errors+", "-i x", "-i", "'x'");
	bad("errors+", "-- -H", "-H", "needs a value");
	bad("errors+", "-tUDP_STREAM -- -m 65508", "-m", "65508");
}

/* A line that must fail with exactly this message. */
static void bad_exact(const char *name, const char *line, const char *msg)
{
	ws_cli_options o;
	ws_err err;
	int rc = parse_line(line, &o, &err);
	WS_T_REPORT(rc == -WS_E_INVAL, name, "'%s' returned %d, want %d", line, rc, -WS_E_INVAL);
	WS_T_REPORT(strcmp(err.msg, msg) == 0, name, "'%s': message\n   [%s]\n want [%s]", line, err.msg, msg);
}

/* The request/response options: netperf's -r (a single value sets both, as netperf 2.7's
 * TCP_RR -- -r 64 runs 64,64), -b, -e; warpspeed's --rate; the defaults. */
static void test_rr_options(void)
{
	const char *t = "rr options";
	ws_cli_options o;
	ok(t, "-t TCP_RR", &o);
	CHECK_INT(t, o.spec.req_size, 1);
	CHECK_INT(t, o.spec.rsp_size, 1);
	CHECK_INT(t, o.spec.burst, 0);
	CHECK_INT(t, o.format, 'x');
	CHECK(t, o.spec.rate == 0 && o.spec.rr_timeout_ns == 0);
	ok(t, "-t TCP_RR -- -r 64", &o);
	CHECK_INT(t, o.spec.req_size, 64);
	CHECK_INT(t, o.spec.rsp_size, 64);
	ok(t, "-t TCP_RR -- -r 64,1K", &o);
	CHECK_INT(t, o.spec.req_size, 64);
	CHECK_INT(t, o.spec.rsp_size, 1024);
	ok(t, "-t TCP_RR -- -r ,2k", &o);
	CHECK_INT(t, o.spec.req_size, 1);
	CHECK_INT(t, o.spec.rsp_size, 2000);
	ok(t, "-t TCP_RR -- -r 1G,1", &o);
	CHECK_INT(t, o.spec.req_size, 1u << 30);
	ok(t, "-t UDP_RR -- -r 65507 -b 4 -e 0.25", &o);
	CHECK_INT(t, o.spec.req_size, 65507);
	CHECK_INT(t, o.spec.rsp_size, 65507);
	CHECK_INT(t, o.spec.burst, 4);
	CHECK_U64(t, (uint64_t)o.spec.rr_timeout_ns, 250000000u);
	ok(t, "-t UDP_RR -- -e 0.0005", &o);
	CHECK_U64(t, (uint64_t)o.spec.rr_timeout_ns, 500000u);
	ok(t, "-t TCP_RR -- -b10000", &o);
	CHECK_INT(t, o.spec.burst, 10000);
	ok(t, "-t TCP_RR --rate 2500", &o);
	CHECK_DBL(t, o.spec.rate, 2500.0, 0);
	ok(t, "-t UDP_RR -- --rate=1.5k", &o);
	CHECK_DBL(t, o.spec.rate, 1500.0, 0);
	ok(t, "--rate 2m -t TCP_RR", &o);
	CHECK_DBL(t, o.spec.rate, 2e6, 0);
	ok(t, "-t TCP_RR -l -1000", &o);
	CHECK_INT(t, o.spec.end, WS_END_TRANSACTIONS);
	CHECK_U64(t, o.spec.end_count, 1000);
	ok(t, "-t TCP_RR -- -s 64K -S 128K,1M -D -P 5000,6000 -6", &o);
	CHECK(t, o.spec.nodelay);
	CHECK_INT(t, o.spec.local.sndbuf, 65536);
	CHECK_INT(t, o.spec.remote.rcvbuf, 1u << 20);
}

/* Bad request/response values, and options that the chosen test would ignore: exact
 * messages, each naming the option, the value or the test, and what is accepted. */
static void test_rr_errors(void)
{
	const char *t = "rr errors";
	bad_exact(t, "-t TCP_RR -- -r 0",
		  "test option -r: '0' is not a request size; expected req[,rsp] with sizes from 1 to 1G bytes (at most 65507 for UDP_RR), e.g. 64 or 1K,64K");
	bad_exact(t, "-t TCP_RR -- -r 64,0",
		  "test option -r: '0' is not a response size; expected req[,rsp] with sizes from 1 to 1G bytes (at most 65507 for UDP_RR), e.g. 64 or 1K,64K");
	bad_exact(t, "-t TCP_RR -- -r 2G",
		  "test option -r: '2G' is not a request size; expected req[,rsp] with sizes from 1 to 1G bytes (at most 65507 for UDP_RR), e.g. 64 or 1K,64K");
	bad_exact(t, "-t UDP_RR -- -r 64,65508",
		  "test option -r: 64,65508 is too large for UDP_RR; expected request and response sizes from 1 to 65507 bytes (the largest UDP payload)");
	bad_exact(t, "--json out.json", "unexpected argument 'out.json' after --json, which writes to standard output; expected --json-file out.json for a file");
	bad_exact(t, "-t TCP_RR -- -b -1", "test option -b: '-1' is not valid; expected a first burst from 0 to 10000");
	bad_exact(t, "-t TCP_RR -- -b 10001", "test option -b: '10001' is not valid; expected a first burst from 0 to 10000");
	bad_exact(t, "-t UDP_RR -- -e 0",
		  "test option -e: '0' is not a receive timeout; expected seconds from 0.000001 to 3600 (fractions allowed, e.g. 0.05)");
	bad_exact(t, "-t TCP_RR --rate 0",
		  "option --rate: '0' is not a rate; expected transactions/s per flow above 0 and at most 1e+09, optionally with k or m (10^3, 10^6), e.g. 10000 or 10k");
	bad_exact(t, "-t TCP_RR --rate 5x",
		  "option --rate: '5x' is not a rate; expected transactions/s per flow above 0 and at most 1e+09, optionally with k or m (10^3, 10^6), e.g. 10000 or 10k");
	bad_exact(t, "-t TCP_RR --rate 2000m",
		  "option --rate: '2000m' is not a rate; expected transactions/s per flow above 0 and at most 1e+09, optionally with k or m (10^3, 10^6), e.g. 10000 or 10k");
	/* stream-only options with RR tests */
	bad_exact(t, "-t TCP_RR --gso", "--gso does not apply to TCP_RR; it applies to UDP_STREAM");
	bad_exact(t, "-t UDP_RR -- --gro", "--gro does not apply to UDP_RR; it applies to UDP_STREAM");
	bad_exact(t, "-t TCP_RR -- --zerocopy",
		  "--zerocopy does not apply to TCP_RR; it applies to TCP_STREAM and TCP_MAERTS (sendfile never copies)");
	bad_exact(t, "-t TCP_CRR --splice", "--splice does not apply to TCP_CRR; it applies to the TCP stream tests");
	bad_exact(t, "-t TCP_RR --skip-rx-copy", "--skip-rx-copy does not apply to TCP_RR; it applies to the TCP stream tests");
	bad_exact(t, "-t TCP_RR --rcvlowat 1K", "--rcvlowat does not apply to TCP_RR; it applies to the TCP stream tests");
	/* RR-only options with stream tests */
	bad_exact(t, "-t TCP_STREAM -- -r 64", "test option -r does not apply to TCP_STREAM; it applies to TCP_RR, UDP_RR, TCP_CRR and TCP_CC (TCP_MSS takes it and ignores it, as netperf)");
	bad_exact(t, "-- -b 2", "test option -b does not apply to TCP_STREAM; it applies to TCP_RR and UDP_RR (TCP_CC and TCP_MSS take it and ignore it, as netperf)");
	bad_exact(t, "-t TCP_CRR -- -b 2", "test option -b does not apply to TCP_CRR; it applies to TCP_RR and UDP_RR (TCP_CC and TCP_MSS take it and ignore it, as netperf)");
	bad_exact(t, "-t TCP_RR -- -e 1", "test option -e does not apply to TCP_RR; it applies to UDP_RR");
	bad_exact(t, "-t TCP_STREAM --rate 10", "--rate does not apply to TCP_STREAM; it applies to TCP_RR and UDP_RR");
	/* netperf's global -b is another option: accepted with a note (as Debian's netperf, built
	 * without intervals), pointing at the test option */
	ws_cli_options o;
	ok(t, "-b 4", &o);
	CHECK(t, strstr(o.notes, "the first burst of TCP_RR and UDP_RR is the test option -b, after --") != NULL);
	/* what netperf takes on TCP_CC and TCP_MSS and ignores: accepted, one note each */
	ok(t, "-t TCP_MSS -- -b 1 -r 64", &o);
	CHECK(t, strstr(o.notes, "-b has no effect on TCP_MSS (netperf ignores it too)") != NULL);
	CHECK(t, strstr(o.notes, "-r has no effect on TCP_MSS (netperf ignores it too)") != NULL);
	ok(t, "-t TCP_CC -- -b 1 -m 1K", &o);
	CHECK(t, strstr(o.notes, "-m has no effect on TCP_CC (netperf ignores it too)") != NULL);
	ok(t, "-t TCP_CC -- -r 64", &o);
	CHECK(t, strstr(o.notes, "no effect") == NULL);
}

/* -Z (netperf's passphrase) and --psk-file give the key; only one of them. */
/* -i/-I/-r: parsed here, netperf's rules applied by measure/confidence (test_confidence). */
static void test_confidence_options(void)
{
	ws_cli_options o;
	ok("conf", "-i 5,4 -I 95,10 -r", &o);
	CHECK("conf asked", o.conf.asked);
	CHECK_INT("conf max", o.conf.max_iterations, 5);
	CHECK_INT("conf min", o.conf.min_iterations, 4);
	CHECK_INT("conf level", o.conf.level, 95);
	CHECK_DBL("conf width", o.conf.width, 10.0, 0);
	CHECK("conf -r", o.conf.throughput_only);
	ok("conf I first", "-I 95 -i 4", &o);
	CHECK_INT("I first max", o.conf.max_iterations, 4);
	CHECK_INT("I first level", o.conf.level, 95);
	ok("conf i alone", "-i3,2", &o);
	CHECK_INT("i alone min", o.conf.min_iterations, 3);
	CHECK_INT("i alone level", o.conf.level, 99);
	CHECK_DBL("i alone width", o.conf.width, 5.0, 0);
	ok("conf none", "-l 1", &o);
	CHECK("conf none", !o.conf.asked);
	CHECK_INT("conf none max", o.conf.max_iterations, 1);
}

static void test_key_options(void)
{
	const char *t = "key_options";
	ws_cli_options o;
	ok(t, "-H box", &o);
	CHECK(t, o.psk_pass == NULL && o.psk_file == NULL);
	ok(t, "-H box -Z sesame", &o);
	CHECK_STR(t, o.psk_pass, "sesame");
	ok(t, "-Zsesame", &o);
	CHECK_STR(t, o.psk_pass, "sesame");
	ok(t, "--psk-file /etc/lab.key -H box", &o);
	CHECK_STR(t, o.psk_file, "/etc/lab.key");
	ok(t, "-H box -- --psk-file=/k -m 1K", &o);
	CHECK_STR(t, o.psk_file, "/k");
	bad(t, "-Z", "-Z", "passphrase");
	bad(t, "--psk-file", "--psk-file", "FILE");
	bad(t, "-Z a --psk-file /k", "-Z and option --psk-file", "expected one of them");
}

/* Empty and oversized values cannot be written in a space-split line. */
static void test_errors_argv(void)
{
	ws_cli_options o;
	ws_err err;
	char *empty_host[] = {"warpspeed", "-H", "", NULL};
	CHECK("errors argv", ws_cli_parse(3, empty_host, &o, &err) < 0);
	CHECK("errors argv", strstr(err.msg, "-H") != NULL);
	static char longhost[WS_HOST_MAX + 2];
	memset(longhost, 'a', sizeof(longhost) - 1);
	char *long_host[] = {"warpspeed", "-H", longhost, NULL};
	CHECK("errors argv", ws_cli_parse(3, long_host, &o, &err) < 0);
	CHECK("errors argv", strstr(err.msg, "too long") != NULL);
	char *dash[] = {"warpspeed", "-", NULL};
	CHECK("errors argv", ws_cli_parse(2, dash, &o, &err) < 0);
	CHECK("errors argv", strstr(err.msg, "'-'") != NULL);
	/* A NULL ws_err is allowed. */
	char *q[] = {"warpspeed", "-Q", NULL};
	CHECK("errors argv", ws_cli_parse(2, q, &o, NULL) < 0);
}

int main(void)
{
	RUN(test_defaults);
	RUN(test_hosts);
	RUN(test_ports);
	RUN(test_test_names);
	RUN(test_length);
	RUN(test_cpu);
	RUN(test_output);
	RUN(test_cpu_bind);
	RUN(test_flags_and_misc);
	RUN(test_help_version);
	RUN(test_test_options);
	RUN(test_io_paths);
	RUN(test_sizes);
	RUN(test_seed_lines);
	RUN(test_errors_required);
	RUN(test_errors_more);
	RUN(test_errors_argv);
	RUN(test_key_options);
	RUN(test_confidence_options);
	RUN(test_rr_options);
	RUN(test_rr_errors);
	TEST_MAIN_END();
}
