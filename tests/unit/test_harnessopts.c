/* SPDX-License-Identifier: BSD-2-Clause */
/* test_harnessopts: the options harnesses pass (cli/harnessopts.c), their socket options
 * (net/sockopt.c) on real sockets, and their report lines (report/harness.c), with exact
 * values and messages. */
#include "harness.h"
#include "cli_line.h"

#include "cli/harnessopts.h"
#include "cli/options.h"
#include "net/sockopt.h"
#include "report/harness.h"
#include "util/err.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A line that must fail with exactly this message. */
static void bad(const char *name, const char *line, const char *msg)
{
	ws_cli_options o;
	ws_err err;
	int rc = parse_line(line, &o, &err);
	WS_T_REPORT(rc < 0, name, "'%s' returned %d, want an error", line, rc);
	CHECK_STR(name, err.msg, msg);
}

static void test_tos(void)
{
	const char *t = "tos";
	ws_cli_options o;
	ok(t, "-Y 0x10", &o);
	CHECK_INT(t, o.spec.local.tos, 16);
	CHECK_INT(t, o.spec.remote.tos, 16);
	ok(t, "-Y 0x10,af41", &o);
	CHECK_INT(t, o.spec.local.tos, 16);
	CHECK_INT(t, o.spec.remote.tos, 0x88);
	ok(t, "-Y ,EF", &o);
	CHECK_INT(t, o.spec.local.tos, 0);
	CHECK_INT(t, o.spec.remote.tos, 0xb8);
	ok(t, "-Y 010", &o); /* C notation, as netperf's strtol(..., 0) */
	CHECK_INT(t, o.spec.local.tos, 8);
	ok(t, "-Y46", &o);
	CHECK_INT(t, o.spec.local.tos, 46);
	ok(t, "-Y cs1,lowdelay", &o);
	CHECK_INT(t, o.spec.local.tos, 0x20);
	CHECK_INT(t, o.spec.remote.tos, 0x10);
	bad(t, "-Y foo",
	    "option -Y: 'foo' is not an IP_TOS value; expected a number from 0 to 255 (0x10, 020 or 16) or a name: af11..af43, cs0..cs7, ef, lowdelay, throughput, reliability");
	bad(t, "-Y 0x10,300",
	    "option -Y: '300' is not an IP_TOS value; expected a number from 0 to 255 (0x10, 020 or 16) or a name: af11..af43, cs0..cs7, ef, lowdelay, throughput, reliability");
	/* the whole table, as netperf's dscp.c has it */
	static const struct {
		const char *n;
		int v;
	} names[] = {{"af11", 0x28}, {"af12", 0x30}, {"af13", 0x38}, {"af21", 0x48}, {"af22", 0x50},
		     {"af23", 0x58}, {"af31", 0x68}, {"af32", 0x70}, {"af33", 0x78}, {"af41", 0x88},
		     {"af42", 0x90}, {"af43", 0x98}, {"cs0", 0}, {"cs1", 0x20}, {"cs2", 0x40},
		     {"cs3", 0x60}, {"cs4", 0x80}, {"cs5", 0xa0}, {"cs6", 0xc0}, {"cs7", 0xe0},
		     {"ef", 0xb8}, {"lowdelay", 0x10}, {"throughput", 0x08}, {"reliability", 0x04},
		     {"255", 255}, {"0xff", 255}, {"-1", -1}, {"256", -1}, {"", -1}, {"1x", -1}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK_INT(names[i].n, ws_sockopt_parse_tos(names[i].n), names[i].v);
}

static void test_priority_wait_keepalive(void)
{
	const char *t = "priority";
	ws_cli_options o;
	ok(t, "-y 3", &o);
	CHECK_INT(t, o.spec.local.priority, 3);
	CHECK_INT(t, o.spec.remote.priority, 3);
	ok(t, "-y 3,4", &o);
	CHECK_INT(t, o.spec.remote.priority, 4);
	bad(t, "-y x", "option -y: 'x' is not valid; expected an SO_PRIORITY from 0 to 2147483647 (above 6 needs CAP_NET_ADMIN)");
	ok(t, "-s 2.5", &o);
	CHECK_DBL(t, o.start_wait_s, 2.5, 0);
	bad(t, "-s 61", "option -s: '61' is not a wait; expected seconds from 0 to 60");
	ok(t, "-S", &o);
	CHECK(t, o.spec.keepalive);
	CHECK_STR(t, o.notes, "");
	ok(t, "-S -t UDP_STREAM", &o);
	CHECK_STR(t, o.notes, "-S: SO_KEEPALIVE is a TCP option; UDP_STREAM has no connection to keep alive, so it is not set\n");
}

/* Accepted with a note each, and the notes print as "warpspeed: note: ..." lines. */
static void test_notes(void)
{
	const char *t = "notes";
	ws_cli_options o;
	ok(t, "-b 4 -w 10", &o);
	CHECK_STR(t, o.notes,
		  "-b 4: packet burst size is not compiled in, as in Debian's netperf 2.7.0 (built without --enable-intervals); ignored (netperf's packets per -w interval; the first burst of TCP_RR and UDP_RR is the test option -b, after --). For paced UDP_STREAM use --pace RATE\n"
		  "-w 10: packet rate control is not compiled in, as in Debian's netperf 2.7.0 (built without --enable-intervals); ignored. For paced UDP_STREAM use --pace RATE\n");
	ok(t, "-a 8,8 -A 16", &o);
	CHECK(t, strstr(o.notes, "-a/-A 8,8: warpspeed's data buffers are page-aligned (4096 bytes)") != NULL);
	CHECK(t, strstr(o.notes, "-a/-A 16: ") != NULL);
	ok(t, "-W 4,4 -o 1 -O ,2 -k 1 -K 2 -d -d", &o);
	CHECK(t, strstr(o.notes, "-W 4,4: ") && strstr(o.notes, "-o/-O 1: ") && strstr(o.notes, "-o/-O ,2: ") &&
		       strstr(o.notes, "-k/-K 1: ") && strstr(o.notes, "-k/-K 2: "));
	const char *d = strstr(o.notes, "-d: ");
	CHECK(t, d && !strstr(d + 1, "-d: ")); /* one note however often -d is given */
	bad(t, "-b x", "option -b: 'x' is not valid; expected a burst size");
	bad(t, "-a 8,y", "option -a: 'y' is not valid; expected an alignment in bytes (K, M suffixes allowed)");
	/* netperf reads these with convert(): size suffixes (tests/goldens/grammar: -a 4K) */
	ok(t, "-a 4K -A 4k,1K -o 1k -O ,2K", &o);
	CHECK(t, strstr(o.notes, "-a/-A 4K: ") != NULL && strstr(o.notes, "-o/-O ,2K: ") != NULL);
	bad(t, "-a 2G", "option -a: '2G' is not valid; expected an alignment in bytes (K, M suffixes allowed)");
	bad(t, "-W 4K", "option -W: '4K' is not valid; expected a number of buffers");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ok(t, "-b 4", &o);
	ws_cli_print_notes(&o, f);
	fclose(f);
	CHECK_STR(t, text,
		  "warpspeed: note: -b 4: packet burst size is not compiled in, as in Debian's netperf 2.7.0 (built without --enable-intervals); ignored (netperf's packets per -w interval; the first burst of TCP_RR and UDP_RR is the test option -b, after --). For paced UDP_STREAM use --pace RATE\n");
	free(text);
}

static void test_test_options(void)
{
	const char *t = "test_options";
	ws_cli_options o;
	ok(t, "-- -K reno", &o);
	CHECK_STR(t, o.spec.local.cong, "reno");
	CHECK_STR(t, o.spec.remote.cong, "reno");
	ok(t, "-- -K reno,bbr -C -G 1000", &o);
	CHECK_STR(t, o.spec.remote.cong, "bbr");
	CHECK(t, o.spec.cork);
	CHECK_INT(t, o.spec.maxseg, 1000);
	bad(t, "-- -K ../x",
	    "test option -K: '../x' is not a congestion control name; expected a name like cubic or reno (letters, digits, '_', '-'; at most 15)");
	bad(t, "-- -G 87", "test option -G: '87' is not valid; expected an MSS from 88 to 65535 bytes");
	bad(t, "-t UDP_STREAM -- -C", "test option -C does not apply to UDP_STREAM; it applies to the TCP tests");
	bad(t, "-t UDP_RR -- -K reno", "test option -K does not apply to UDP_RR; it applies to the TCP tests");
	bad(t, "-t UDP_STREAM -- -G 1000", "test option -G does not apply to UDP_STREAM; it applies to the TCP tests");
	ok(t, "-- -H 192.0.2.7 -L 192.0.2.8", &o);
	CHECK_STR(t, o.spec.data_host, "192.0.2.7");
	CHECK_STR(t, o.spec.data_local, "192.0.2.8");
	ok(t, "-- -H ::1,6", &o);
	CHECK_STR(t, o.spec.data_host, "::1");
	CHECK_INT(t, o.spec.family, WS_FAMILY_INET6);
	bad(t, "-4 -- -L ::1,inet6",
	    "test options -H/-L ask for IPv6 data but the control connection is IPv4; expected one address family");
	bad(t, "-- -H a,7", "test option -H: '7' is not an address family; expected 4, 6, inet, inet6 or unspec");
}

static void test_udp_modes_and_format(void)
{
	const char *t = "udp_modes";
	ws_cli_options o;
	ok(t, "-t UDP_STREAM -- --pace 900m", &o);
	CHECK_DBL(t, o.spec.udp_pace_bps, 9e8, 0);
	CHECK(t, !o.spec.udp_flow_control);
	ok(t, "-t UDP_STREAM --flow-control --pace 2.5G", &o);
	CHECK_DBL(t, o.spec.udp_pace_bps, 2.5e9, 0);
	CHECK(t, o.spec.udp_flow_control);
	ok(t, "-t UDP_STREAM --pace=1000", &o);
	CHECK_DBL(t, o.spec.udp_pace_bps, 1000, 0);
	bad(t, "-t UDP_STREAM --pace 0",
	    "option --pace: '0' is not a rate; expected bits/s above 0 with an optional k, m, g or t (10^3 to 10^12), e.g. 900m, up to 10t");
	bad(t, "-t UDP_STREAM --pace 1x",
	    "option --pace: '1x' is not a rate; expected bits/s above 0 with an optional k, m, g or t (10^3 to 10^12), e.g. 900m, up to 10t");
	bad(t, "--flow-control", "--flow-control does not apply to TCP_STREAM; it applies to UDP_STREAM");
	/* -f x on a stream test: netperf's silent fallback to 10^6bits/s */
	ok(t, "-f x", &o);
	CHECK_INT(t, o.format, 'm');
	ok(t, "-t UDP_STREAM -f x", &o);
	CHECK_INT(t, o.format, 'm');
	ok(t, "-t TCP_RR -f x", &o);
	CHECK_INT(t, o.format, 'x');
}

/* Whether this process can set TCP_CONGESTION by name. Native Linux always can when the
 * host lists the name as available; qemu-user (Debian's 7.2) cannot: it passes every
 * SOL_TCP option as one byte-swapped 32-bit int, so a big-endian guest's "reno" reaches
 * the kernel as "oner" and is refused with ENOENT although the host lists reno. */
static bool cong_settable(const char *name)
{
	char have[256];
	ws_sockopt_cong_available(have, sizeof(have));
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok = fd >= 0 &&
		  setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, (socklen_t)strlen(name)) == 0;
	if (fd >= 0)
		close(fd);
	if (!ok && strstr(have, name))
		printf("  note: sockopt_apply: '%s' is listed in %s but setting it fails here "
		       "(qemu-user mangles SOL_TCP string options); the congestion-control checks "
		       "are skipped\n",
		       name, "/proc/sys/net/ipv4/tcp_available_congestion_control");
	return ok || !strstr(have, name);
}

/* The options on real (unconnected) sockets, read back by getsockopt. */
static void test_sockopt_apply(void)
{
	const char *t = "sockopt_apply";
	bool cong = cong_settable("reno");
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ws_sockopt_req r = {.tos = 0x10, .priority = 3, .cong = cong ? "reno" : NULL, .keepalive = true,
			    .cork = true, .maxseg = 1000, .tcp = true};
	ws_sockopt_applied a;
	ws_err err;
	ws_err_clear(&err);
	CHECK_INT(t, ws_sockopt_apply(fd, &r, &a, &err), 0);
	CHECK_INT(t, a.tos, 0x10);
	CHECK_INT(t, a.priority, 3);
	if (cong)
		CHECK_STR(t, a.cong, "reno");
	CHECK(t, a.keepalive && a.cork);
	char line[160];
	ws_sockopt_describe(&a, line, sizeof(line));
	CHECK(t, strncmp(line, "tos 0x10 priority 3 keepalive cork maxseg ", 42) == 0);
	if (cong)
		CHECK(t, strstr(line, " cc reno") != NULL);
	r = (ws_sockopt_req){.cong = "nosuchcc", .tcp = true};
	CHECK(t, ws_sockopt_apply(fd, &r, &a, &err) < 0);
	char have[256];
	ws_sockopt_cong_available(have, sizeof(have));
	char want[512];
	snprintf(want, sizeof(want),
		 "TCP congestion control 'nosuchcc' is not available on this host; expected one of: %s (/proc/sys/net/ipv4/tcp_available_congestion_control)",
		 have);
	if (getuid() != 0 || have[0]) /* root may autoload a module of that name: then EPERM/ENOENT differ */
		CHECK_STR(t, err.msg, want);
	close(fd);
	/* UDP: TOS and priority only; the TCP options are not touched */
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd >= 0) {
		r = (ws_sockopt_req){.tos = 0xb8, .priority = 2, .cong = "reno", .keepalive = true};
		CHECK_INT(t, ws_sockopt_apply(fd, &r, &a, &err), 0);
		CHECK_INT(t, a.tos, 0xb8); /* IPV6_TCLASS on an IPv6 socket */
		CHECK_INT(t, a.priority, 2);
		CHECK_STR(t, a.cong, "");
		CHECK(t, !a.keepalive);
		close(fd);
	}
}

static void test_report(void)
{
	const char *t = "report";
	ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.local.tcp_info_valid = true;
	r.local.tcp_rto_us = 204000;
	r.local.tcp_ato_us = 40000;
	r.local.tcp_pmtu = 65535;
	r.local.tcp_rcv_ssthresh = 65495;
	r.local.tcp_rtt_us = 17;
	r.local.tcp_rttvar_us = 5;
	r.local.tcp_snd_ssthresh = 2147483647;
	r.local.tcp_snd_cwnd = 18;
	r.local.tcp_reordering = 8;
	r.local.tcp_retrans = 3;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK_INT(t, ws_report_tcp_info_dump(&r, f), 1);
	fclose(f);
	/* netperf 2.7.0's DUMP_TCP_INFO form, "tpci_snd_cwnd" and all */
	CHECK_STR(t, text,
		  "tcpi_rto 204000 tcpi_ato 40000 tcpi_pmtu 65535 tcpi_rcv_ssthresh 65495\n"
		  "tcpi_rtt 17 tcpi_rttvar 5 tcpi_snd_ssthresh 2147483647 tpci_snd_cwnd 18\n"
		  "tcpi_reordering 8 tcpi_total_retrans 3\n");
	free(text);
	r.local.tcp_info_valid = false;
	f = open_memstream(&text, &len);
	CHECK_INT(t, ws_report_tcp_info_dump(&r, f), 0);
	fclose(f);
	CHECK_STR(t, text, "");
	free(text);
	char mode[160];
	ws_report_udp_mode(&r.spec, mode, sizeof(mode));
	CHECK_STR(t, mode, "blast (netperf's: no flow control, no pacing)");
	r.spec.udp_pace_bps = 9e8;
	ws_report_udp_mode(&r.spec, mode, sizeof(mode));
	CHECK_STR(t, mode, "paced to 900.00 10^6bits/s (--pace)");
	r.spec.udp_flow_control = true;
	ws_report_udp_mode(&r.spec, mode, sizeof(mode));
	CHECK_STR(t, mode, "flow control (the receiver's window, --flow-control) + paced to 900.00 10^6bits/s (--pace)");
	/* the -v 2 line of the local data socket */
	r.spec.type = WS_TEST_TCP_STREAM;
	r.spec.local.tos = 0x10;
	r.spec.keepalive = true;
	r.local.tos_set = 0x10;
	r.local.priority_set = -1;
	r.local.keepalive_set = true;
	r.local.maxseg_set = 1448;
	snprintf(r.local.cong_set, sizeof(r.local.cong_set), "%s", "cubic");
	f = open_memstream(&text, &len);
	ws_report_harness_detail(&r, f);
	fclose(f);
	CHECK_STR(t, text, "Data socket options (local): IP_TOS 0x10 SO_KEEPALIVE 1 TCP_MAXSEG 1448 TCP_CONGESTION cubic\n");
	free(text);
}

int main(void)
{
	RUN(test_tos);
	RUN(test_priority_wait_keepalive);
	RUN(test_notes);
	RUN(test_test_options);
	RUN(test_udp_modes_and_format);
	RUN(test_sockopt_apply);
	RUN(test_report);
	TEST_MAIN_END();
}
