/* SPDX-License-Identifier: BSD-2-Clause */
/* test_classic: the TCP STREAM family's and UDP_STREAM's classic output, the -v 2 detail
 * and the stderr warnings, compared whole, byte for byte,
 * against text written by hand in netperf's layouts (as netperf 2.7.0 prints them:
 * tests/goldens/netperf/). Byte counts are chosen
 * so that the figures come out as in netperf's own samples. */
#include "harness.h"

#include "model/result.h"
#include "report/classic.h"
#include "util/err.h"

#include <errno.h>
#include <stdlib.h>

#define SEC 1000000000LL

#define CPU_HEAD                                                                          \
	"Recv   Send    Send                          Utilization       Service Demand\n"     \
	"Socket Socket  Message  Elapsed              Send     Recv     Send    Recv\n"       \
	"Size   Size    Size     Time     Throughput  local    remote   local   remote\n"
#define CPU_UNITS_M "bytes  bytes   bytes    secs.    10^6bits/s  % S      % S      us/KB   us/KB\n\n"
/* netperf 2.7.0 names an unrequested side's method U (tests/goldens/grammar: -c, -C alone) */
#define CPU_UNITS_M_SU "bytes  bytes   bytes    secs.    10^6bits/s  % S      % U      us/KB   us/KB\n\n"
#define CPU_UNITS_M_US "bytes  bytes   bytes    secs.    10^6bits/s  % U      % S      us/KB   us/KB\n\n"
#define PLAIN_HEAD                                                                        \
	"Recv   Send    Send                          \n"                                     \
	"Socket Socket  Message  Elapsed              \n"                                     \
	"Size   Size    Size     Time     Throughput  \n"
#define PLAIN_UNITS_M "bytes  bytes   bytes    secs.    10^6bits/sec  \n\n"
#define BANNER_LO "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo\n"

/* A sample of netperf's own TCP_STREAM output: 262144-byte buffers and sends, 5 s, both sides
 * at 100% of 2 CPUs; 10733393750 bytes in 5 s is 17173.43 10^6bits/s. */
static void stream_result(ws_test_result *r)
{
	memset(r, 0, sizeof(*r));
	r->spec.type = WS_TEST_TCP_STREAM;
	snprintf(r->remote_host, sizeof(r->remote_host), "127.0.0.1");
	snprintf(r->remote_addr, sizeof(r->remote_addr), "127.0.0.1");
	r->family_used = WS_FAMILY_INET;
	ws_side_result *l = &r->local, *m = &r->remote;
	l->sndbuf_set = 262144;
	l->rcvbuf_set = 111111; /* decoys: must not appear in a STREAM row */
	l->send_size = 262144;
	l->bytes_sent = 10733393750ULL;
	l->elapsed_ns = 5 * SEC;
	m->rcvbuf_set = 262144;
	m->sndbuf_set = 222222;
	m->send_size = 333333;
	m->bytes_recv = 10733393750ULL;
	m->elapsed_ns = 5 * SEC;
	for (int i = 0; i < 2; i++) {
		ws_side_result *s = i ? m : l;
		s->cpu_measured = true;
		s->cpu_util = 100.0;
		s->cpu_method = 'S';
		s->ncpus = 2;
	}
}

static void expect_render(const char *name, const ws_test_result *r, const ws_classic_opts *o,
			  const char *want)
{
	ws_err err = {0};
	char *text = NULL;
	int rc = ws_classic_render_string(r, o, &text, &err);
	WS_T_REPORT(rc == 0, name, "render returned %d: %s", rc, err.msg);
	CHECK_STR(name, text, want);
	free(text);
}

static ws_classic_opts opts(bool c, bool C)
{
	ws_classic_opts o;
	ws_classic_opts_init(&o);
	o.local_cpu = c;
	o.remote_cpu = C;
	return o;
}

static void test_cpu_both(void)
{
	ws_test_result r;
	stream_result(&r);
	ws_classic_opts o = opts(true, true);
	expect_render("netperf sample", &r, &o,
		      BANNER_LO CPU_HEAD CPU_UNITS_M
		      "262144 262144 262144    5.00       17173.43   100.00   100.00   0.954   0.954  \n");

	/* Different figures per side: each side's SD from its own bytes, CPUs and time.
	 * local: 45.5% of 4 CPUs, 5 s, 5 GiB sent -> 1.736; remote: 30.25% of 2, 5.1 s,
	 * 5 GiB received -> 0.589. 5 GiB in 5 s is 8589.93 10^6bits/s. */
	r.local.bytes_sent = r.remote.bytes_recv = 5368709120ULL;
	r.local.cpu_util = 45.5;
	r.local.ncpus = 4;
	r.remote.cpu_util = 30.25;
	r.remote.elapsed_ns = 5100000000LL;
	expect_render("own sides", &r, &o,
		      BANNER_LO CPU_HEAD CPU_UNITS_M
		      "262144 262144 262144    5.00       8589.93   45.50    30.25    1.736   0.589  \n");
}

static void test_cpu_one_side(void)
{
	ws_test_result r;
	stream_result(&r);
	ws_classic_opts o = opts(true, false);
	expect_render("-c only", &r, &o,
		      BANNER_LO CPU_HEAD CPU_UNITS_M_SU
		      "262144 262144 262144    5.00       17173.43   100.00   -1.00    0.954   -1.000 \n");
	o = opts(false, true);
	expect_render("-C only", &r, &o,
		      BANNER_LO CPU_HEAD CPU_UNITS_M_US
		      "262144 262144 262144    5.00       17173.43   -1.00    100.00   -1.000  0.954  \n");
	/* Asked for but the remote could not measure: netperf's -1 too. */
	o = opts(true, true);
	r.remote.cpu_measured = false;
	expect_render("unmeasured", &r, &o,
		      BANNER_LO CPU_HEAD CPU_UNITS_M
		      "262144 262144 262144    5.00       17173.43   100.00   -1.00    0.954   -1.000 \n");
}

static void test_plain(void)
{
	ws_test_result r;
	stream_result(&r);
	ws_classic_opts o = opts(false, false);
	expect_render("no cpu", &r, &o,
		      BANNER_LO PLAIN_HEAD PLAIN_UNITS_M
		      "262144 262144 262144    5.00     17173.43   \n");
	/* The -D sample's row: 131072 16384 16384, 8417125000 bytes in 5 s. */
	r.remote.rcvbuf_set = 131072;
	r.local.sndbuf_set = 16384;
	r.local.send_size = 16384;
	r.remote.bytes_recv = 8417125000ULL;
	expect_render("netperf -D sample", &r, &o,
		      BANNER_LO PLAIN_HEAD PLAIN_UNITS_M
		      "131072  16384  16384    5.00     13467.40   \n");
}

static void test_no_headers(void)
{
	ws_test_result r;
	stream_result(&r);
	ws_classic_opts o = opts(true, true);
	o.print_headers = false;
	o.cpu_bind = true; /* no banner, so no " : cpu bind" either */
	expect_render("-P 0 cpu", &r, &o,
		      "262144 262144 262144    5.00       17173.43   100.00   100.00   0.954   0.954  \n");
	o = opts(false, false);
	o.print_headers = false;
	expect_render("-P 0", &r, &o, "262144 262144 262144    5.00     17173.43   \n");
}

static void test_figure_of_merit(void)
{
	/* The -B sample: 3531892500 bytes in 3 s is 9418.38 10^6bits/s. */
	ws_test_result r;
	stream_result(&r);
	r.remote.bytes_recv = r.local.bytes_sent = 3531892500ULL;
	r.local.elapsed_ns = r.remote.elapsed_ns = 3 * SEC;
	ws_classic_opts o = opts(false, false);
	o.print_headers = false;
	o.verbosity = 0;
	o.brand = "mybrand";
	expect_render("-v 0 brand", &r, &o, "9418.38 mybrand\n");
	o.brand = NULL;
	expect_render("-v 0", &r, &o, "9418.38 \n");
	o.print_headers = true;
	expect_render("-v 0 -P 1", &r, &o, BANNER_LO "9418.38 \n");

	/* With CPU the figure is the service demand: local with -c, else remote.
	 * local 100% of 2 CPUs over 3 s and 3449113.77 KB: 1.740; remote 50% of 2: 0.870. */
	r.remote.cpu_util = 50.0;
	o = opts(true, true);
	o.print_headers = false;
	o.verbosity = 0;
	o.brand = "mybrand";
	expect_render("-v 0 -c -C", &r, &o, " 1.740 S mybrand\n");
	o.local_cpu = false;
	o.brand = NULL;
	expect_render("-v 0 -C", &r, &o, " 0.870 S \n");
}

static void test_ipv6_banner(void)
{
	/* The -6 -T 0,1 sample: 3975041325 bytes in 2.01 s is 15821.06 10^6bits/s. */
	ws_test_result r;
	stream_result(&r);
	snprintf(r.remote_host, sizeof(r.remote_host), "::1");
	snprintf(r.remote_addr, sizeof(r.remote_addr), "::1");
	r.family_used = WS_FAMILY_INET6;
	r.remote.rcvbuf_set = 131072;
	r.local.sndbuf_set = 16384;
	r.local.send_size = 16384;
	r.remote.bytes_recv = 3975041325ULL;
	r.local.elapsed_ns = 2010000000LL;
	ws_classic_opts o = opts(false, false);
	o.cpu_bind = true;
	expect_render("ipv6", &r, &o,
		      "MIGRATED TCP STREAM TEST from ::0 (::) port 0 AF_INET6 to ::1 (::1) port 0 AF_INET6 : demo : cpu bind\n"
		      PLAIN_HEAD PLAIN_UNITS_M
		      "131072  16384  16384    2.01     15821.06   \n");
	/* Family not recorded: the address decides; "::" is the unspecified bind. */
	r.family_used = WS_FAMILY_ANY;
	snprintf(r.local_addr, sizeof(r.local_addr), "::");
	o.print_headers = true;
	o.cpu_bind = false;
	o.verbosity = 0;
	expect_render("ipv6 inferred", &r, &o,
		      "MIGRATED TCP STREAM TEST from ::0 (::) port 0 AF_INET6 to ::1 (::1) port 0 AF_INET6 : demo\n"
		      "15821.06 \n");
}

static void test_sendfile_banner_local_addr(void)
{
	ws_test_result r;
	stream_result(&r);
	r.spec.type = WS_TEST_TCP_SENDFILE;
	snprintf(r.remote_host, sizeof(r.remote_host), "peer.example");
	snprintf(r.remote_addr, sizeof(r.remote_addr), "192.0.2.7");
	snprintf(r.local_addr, sizeof(r.local_addr), "192.0.2.1");
	ws_classic_opts o = opts(false, false);
	o.verbosity = 0;
	expect_render("sendfile", &r, &o,
		      "TCP SENDFILE TEST from 192.0.2.1 (192.0.2.1) port 0 AF_INET to peer.example "
		      "(192.0.2.7) port 0 AF_INET : demo\n"
		      "17173.43 \n");
	/* test options -H and -L: netperf 2.7.0 names the data connection's ends instead */
	snprintf(r.spec.data_host, sizeof(r.spec.data_host), "data.example");
	snprintf(r.spec.data_local, sizeof(r.spec.data_local), "192.0.2.2");
	expect_render("sendfile -- -H -L", &r, &o,
		      "TCP SENDFILE TEST from 192.0.2.2 (192.0.2.2) port 0 AF_INET to data.example "
		      "(192.0.2.7) port 0 AF_INET : demo\n"
		      "17173.43 \n");
}

static void test_maerts_swap(void)
{
	/* The MAERTS sample: the daemon sends. Recv Socket is the local rcvbuf, Send Socket
	 * and Message the remote's; 4608652500 bytes received in 3 s is 12289.74. */
	ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.spec.type = WS_TEST_TCP_MAERTS;
	snprintf(r.remote_host, sizeof(r.remote_host), "127.0.0.1");
	snprintf(r.remote_addr, sizeof(r.remote_addr), "127.0.0.1");
	r.local.rcvbuf_set = 131072;
	r.local.sndbuf_set = 999999;
	r.local.send_size = 888888;
	r.local.bytes_recv = 4608652500ULL;
	r.local.bytes_sent = 77;
	r.local.elapsed_ns = 3 * SEC;
	r.remote.sndbuf_set = 16384;
	r.remote.rcvbuf_set = 777777;
	r.remote.send_size = 16384;
	r.remote.bytes_sent = 4608652500ULL;
	r.remote.bytes_recv = 66;
	r.remote.elapsed_ns = 3 * SEC;
	ws_classic_opts o = opts(false, false);
	expect_render("maerts", &r, &o,
		      "MIGRATED TCP MAERTS TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo\n"
		      PLAIN_HEAD PLAIN_UNITS_M
		      "131072  16384  16384    3.00     12289.74   \n");
	/* SD: local (receiver) from bytes_recv, remote (sender) from bytes_sent:
	 * 4500637.21 KB in 3 s at 100% of 1 CPU = 0.667 us/KB; remote 50% of 2 = 0.667. */
	r.local.cpu_measured = r.remote.cpu_measured = true;
	r.local.cpu_util = 100.0;
	r.local.ncpus = 1;
	r.remote.cpu_util = 50.0;
	r.remote.ncpus = 2;
	o = opts(true, true);
	o.print_headers = false;
	expect_render("maerts cpu", &r, &o,
		      "131072  16384  16384    3.00       12289.74   100.00   50.00    0.667   0.667  \n");
	/* with headers: the local side receives, the remote sends (netperf 2.7.0's words) */
	o.print_headers = true;
	o.local_cpu = false;
	expect_render("maerts -C", &r, &o,
		      "MIGRATED TCP MAERTS TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo\n"
		      "Recv   Send    Send                          Utilization       Service Demand\n"
		      "Socket Socket  Message  Elapsed              Recv     Send     Recv    Send\n"
		      "Size   Size    Size     Time     Throughput  local    remote   local   remote\n"
		      "bytes  bytes   bytes    secs.    10^6bits/s  % U      % S      us/KB   us/KB\n\n"
		      "131072  16384  16384    3.00       12289.74   -1.00    50.00    -1.000  0.667  \n");
}

static void test_units(void)
{
	ws_test_result r;
	stream_result(&r);
	r.remote.bytes_recv = 5368709120ULL; /* 5 GiB in 5 s */
	ws_classic_opts o = opts(false, false);
	o.fmt = 'G';
	expect_render("-f G", &r, &o,
		      BANNER_LO PLAIN_HEAD "bytes  bytes   bytes    secs.    GBytes/sec    \n\n"
		      "262144 262144 262144    5.00        1.00   \n");
	o = opts(true, true);
	o.fmt = 'G';
	o.print_headers = true;
	r.local.bytes_sent = 5368709120ULL;
	expect_render("-f G cpu", &r, &o,
		      BANNER_LO CPU_HEAD "bytes  bytes   bytes    secs.    GBytes/s    % S      % S      us/KB   us/KB\n\n"
		      "262144 262144 262144    5.00          1.00   100.00   100.00   1.907   1.907  \n");

	CHECK_STR("g", ws_classic_units_label('g'), "10^9bits");
	CHECK_STR("m", ws_classic_units_label('m'), "10^6bits");
	CHECK_STR("default", ws_classic_units_label(0), "10^6bits");
	CHECK_STR("k", ws_classic_units_label('k'), "10^3bits");
	CHECK_STR("G", ws_classic_units_label('G'), "GBytes");
	CHECK_STR("M", ws_classic_units_label('M'), "MBytes");
	CHECK_STR("K", ws_classic_units_label('K'), "KBytes");
	CHECK("x", ws_classic_units_label('x') == NULL);
	/* 1e9 bytes in 2 s: 4 10^9bits/s, 4000 10^6bits/s, 4e6 10^3bits/s, and in bytes
	 * 488281.25 KBytes/s, 476.837158203125 MBytes/s. */
	CHECK_DBL("g", ws_classic_throughput(1000000000, 2 * SEC, 'g'), 4.0, 1e-12);
	CHECK_DBL("m", ws_classic_throughput(1000000000, 2 * SEC, 'm'), 4000.0, 1e-9);
	CHECK_DBL("0", ws_classic_throughput(1000000000, 2 * SEC, 0), 4000.0, 1e-9);
	CHECK_DBL("k", ws_classic_throughput(1000000000, 2 * SEC, 'k'), 4e6, 1e-6);
	CHECK_DBL("K", ws_classic_throughput(1000000000, 2 * SEC, 'K'), 488281.25, 1e-6);
	CHECK_DBL("M", ws_classic_throughput(1000000000, 2 * SEC, 'M'), 476.837158203125, 1e-9);
	CHECK_DBL("G", ws_classic_throughput(1073741824, SEC, 'G'), 1.0, 1e-12);
	CHECK_DBL("zero time", ws_classic_throughput(1000, 0, 'm'), 0.0, 0.0);
	CHECK_DBL("bad fmt", ws_classic_throughput(1000, SEC, 'x'), 0.0, 0.0);
}

static void test_errors(void)
{
	ws_test_result r;
	stream_result(&r);
	ws_classic_opts o = opts(false, false);
	ws_err err = {0};
	char *text = (char *)&err; /* must be reset to NULL */
	o.fmt = 'x';
	CHECK_INT("bad fmt", ws_classic_render_string(&r, &o, &text, &err), -WS_E_INVAL);
	CHECK("no text", text == NULL);
	CHECK("names -f", strstr(err.msg, "-f 'x'") != NULL);

	/* A type with no layout (the RR family has its own: test_classic_rr). */
	o.fmt = 'm';
	r.spec.type = (enum ws_test_type)99;
	char buf[256];
	memset(buf, 0, sizeof(buf));
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	CHECK_INT("no layout", ws_classic_render(&r, &o, f, &err), -WS_E_INVAL);
	fclose(f);
	CHECK_STR("nothing written", buf, "");
	CHECK("names the test", strstr(err.msg, "unknown (99)") != NULL);

	/* NULL options mean netperf's defaults. */
	r.spec.type = WS_TEST_TCP_STREAM;
	expect_render("defaults", &r, NULL,
		      BANNER_LO PLAIN_HEAD PLAIN_UNITS_M
		      "262144 262144 262144    5.00     17173.43   \n");
}

/* ---- UDP_STREAM ------------------------------------------------------------------------ */

#define UDP_BANNER "MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo\n"
#define UDP_CPU_HEAD                                                                     \
	"Socket  Message  Elapsed      Messages                   CPU      Service\n"       \
	"Size    Size     Time         Okay Errors   Throughput   Util     Demand\n"        \
	"bytes   bytes    secs            #      #   10^6bits/sec % SS     us/KB\n\n"
#define UDP_PLAIN_HEAD                                                                   \
	"Socket  Message  Elapsed      Messages                \n"                          \
	"Size    Size     Time         Okay Errors   Throughput\n"                          \
	"bytes   bytes    secs            #      #   10^6bits/sec\n\n"

/* netperf's `-t UDP_STREAM -c -C -- -m 1472` sample: 946353 datagrams of 1472 bytes sent
 * and 858590 received over 5.0002 s, 80.75% of 2 CPUs on both ends. The sender's service
 * demand (from its own bytes) is netperf's 5.936; the receiver's, from the bytes it got,
 * is 6.543 where netperf charges the sender's count to both. */
static void udp_result(ws_test_result *r)
{
	memset(r, 0, sizeof(*r));
	r->spec.type = WS_TEST_UDP_STREAM;
	snprintf(r->remote_host, sizeof(r->remote_host), "127.0.0.1");
	snprintf(r->remote_addr, sizeof(r->remote_addr), "127.0.0.1");
	r->family_used = WS_FAMILY_INET;
	ws_side_result *l = &r->local, *m = &r->remote;
	l->sndbuf_set = 212992;
	l->rcvbuf_set = 111111; /* decoys */
	l->send_size = 1472;
	l->dgrams_sent = 946353;
	l->bytes_sent = 946353ULL * 1472;
	l->elapsed_ns = 5000200000LL;
	m->rcvbuf_set = 212992;
	m->sndbuf_set = 222222;
	m->dgrams_recv = 858590;
	m->dgrams_lost = 946353 - 858590;
	m->bytes_recv = 858590ULL * 1472;
	m->elapsed_ns = 5000200000LL;
	for (int i = 0; i < 2; i++) {
		ws_side_result *s = i ? m : l;
		s->cpu_measured = true;
		s->cpu_util = 80.75;
		s->cpu_method = 'S';
		s->ncpus = 2;
	}
}

static void test_udp_cpu(void)
{
	ws_test_result r;
	udp_result(&r);
	ws_classic_opts o = opts(true, true);
	expect_render("udp sample", &r, &o,
		      UDP_BANNER UDP_CPU_HEAD
		      "212992    1472   5.00       946353      0     2228.8     80.75    5.936 \n"
		      "212992           5.00       858590            2022.1     80.75    6.543 \n\n");
	/* -c only: the receiver (remote) row gets netperf's -1; errors in their column. */
	r.local.send_errors = 17;
	o = opts(true, false);
	expect_render("udp -c", &r, &o,
		      UDP_BANNER
		      "Socket  Message  Elapsed      Messages                   CPU      Service\n"
		      "Size    Size     Time         Okay Errors   Throughput   Util     Demand\n"
		      "bytes   bytes    secs            #      #   10^6bits/sec % SU     us/KB\n\n"
		      "212992    1472   5.00       946353     17     2228.8     80.75    5.936 \n"
		      "212992           5.00       858590            2022.1     -1.00    -1.000\n\n");
	o = opts(false, true);
	o.print_headers = false;
	expect_render("udp -C -P 0", &r, &o,
		      "212992    1472   5.00       946353     17     2228.8     -1.00    -1.000\n"
		      "212992           5.00       858590            2022.1     80.75    6.543 \n\n");
}

static void test_udp_plain(void)
{
	/* The layout of netperf's default UDP_STREAM: 9214 datagrams of 65507 bytes in 10 s
	 * on both ends is 482.87 10^6bits/s. The rows use each end's own interval. */
	ws_test_result r;
	udp_result(&r);
	r.local.send_size = 65507;
	r.local.dgrams_sent = r.remote.dgrams_recv = 9214;
	r.local.bytes_sent = r.remote.bytes_recv = 9214ULL * 65507;
	r.remote.dgrams_lost = 0;
	r.local.elapsed_ns = r.remote.elapsed_ns = 10 * SEC;
	ws_classic_opts o = opts(false, false);
	expect_render("udp plain", &r, &o,
		      UDP_BANNER UDP_PLAIN_HEAD
		      "212992   65507   10.00        9214      0     482.87\n"
		      "212992           10.00        9214            482.87\n\n");
	r.remote.elapsed_ns = 9 * SEC; /* receiver's first-to-last interval */
	r.remote.dgrams_recv = 9000;
	r.remote.bytes_recv = 9000ULL * 65507;
	o.print_headers = false;
	expect_render("udp -P 0", &r, &o,
		      "212992   65507   10.00        9214      0     482.87\n"
		      "212992           9.00         9000            524.06\n\n");
	o.fmt = 'M';
	expect_render("udp -f M", &r, &o,
		      "212992   65507   10.00        9214      0      57.56\n"
		      "212992           9.00         9000             62.47\n\n");
	o = opts(false, false);
	o.fmt = 'g';
	expect_render("udp -f g headers", &r, &o,
		      UDP_BANNER
		      "Socket  Message  Elapsed      Messages                \n"
		      "Size    Size     Time         Okay Errors   Throughput\n"
		      "bytes   bytes    secs            #      #   10^9bits/sec\n\n"
		      "212992   65507   10.00        9214      0       0.48\n"
		      "212992           9.00         9000              0.52\n\n");
}

static void test_udp_figure(void)
{
	ws_test_result r;
	udp_result(&r);
	ws_classic_opts o = opts(false, false);
	o.verbosity = 0;
	o.print_headers = false;
	o.brand = "b";
	/* The receiver's throughput: 858590 x 1472 bytes over 5.0002 s. */
	expect_render("udp -v 0", &r, &o, "2022.07 b\n");
	o = opts(true, true);
	o.verbosity = 0;
	o.print_headers = false;
	expect_render("udp -v 0 -c -C", &r, &o, " 5.936 S \n");
	o.local_cpu = false;
	expect_render("udp -v 0 -C", &r, &o, " 6.543 S \n");
}

static void test_udp_detail(void)
{
	ws_test_result r;
	udp_result(&r);
	r.remote.cpu_measured = r.local.cpu_measured = false;
	snprintf(r.local.io_path, sizeof(r.local.io_path), "sendmmsg");
	snprintf(r.local.io_note, sizeof(r.local.io_note), "UDP_SEGMENT refused by the kernel (Invalid argument); fell back");
	snprintf(r.remote.io_path, sizeof(r.remote.io_path), "recvmmsg+UDP_GRO");
	r.remote.dgrams_reordered = 3;
	r.remote.dgrams_dup = 2;
	r.remote.bad_dgrams = 1;
	r.remote.dgrams_jumps = 5;
	r.local.send_errors = 4;
	ws_classic_opts o = opts(false, false);
	o.verbosity = 2;
	o.print_headers = false;
	expect_render("udp -v 2", &r, &o,
		      "212992    1472   5.00       946353      4    2228.76\n"
		      "212992           5.00       858590           2022.07\n\n"
		      "I/O path: local sendmmsg, remote recvmmsg+UDP_GRO\n"
		      "I/O note (local): UDP_SEGMENT refused by the kernel (Invalid argument); fell back\n"
		      "UDP datagrams: sent 946353, received 858590, lost 87763, reordered 3, duplicated 2, "
		      "bad 1, send errors 4, jumps 5\n"
		      "UDP sending: blast (netperf's: no flow control, no pacing)\n");
}

static void test_tcp_detail(void)
{
	/* netperf's `-v 2 -- -m 64K` sample: 4412014592 bytes in 67322 sends of 64 KiB, and
	 * in 33842 receives, over 3.00894 s; MSS 65483. warpspeed's lines follow. */
	ws_test_result r;
	stream_result(&r);
	r.remote.rcvbuf_set = 131072;
	r.local.sndbuf_set = 16384;
	r.local.send_size = 65536;
	r.local.bytes_sent = r.remote.bytes_recv = 4412014592ULL;
	r.local.send_calls = 67322;
	r.remote.recv_calls = 33842;
	r.local.elapsed_ns = 3008940000LL;
	r.local.tcp_info_valid = true;
	r.local.tcp_mss = 65483;
	r.local.tcp_retrans = 41;
	r.local.tcp_rtt_us = 25;
	r.local.tcp_rttvar_us = 7;
	r.local.tcp_snd_cwnd = 10;
	r.local.zc_sends = 67000;
	r.local.zc_copied = 12;
	snprintf(r.local.io_path, sizeof(r.local.io_path), "sendmsg+MSG_ZEROCOPY");
	snprintf(r.remote.io_path, sizeof(r.remote.io_path), "recv");
	ws_classic_opts o = opts(false, false);
	o.verbosity = 2;
	expect_render("tcp -v 2", &r, &o,
		      BANNER_LO PLAIN_HEAD PLAIN_UNITS_M
		      "131072  16384  65536    3.01     11730.42   \n"
		      "\n"
		      "Alignment      Offset         Bytes    Bytes       Sends   Bytes    Recvs\n"
		      "Local  Remote  Local  Remote  Xfered   Per                 Per\n"
		      "Send   Recv    Send   Recv             Send (avg)          Recv (avg)\n"
		      "    8       8      0       0 4412014592  65536.00     67322   130370.98  33842\n"
		      "\n"
		      "Maximum\n"
		      "Segment\n"
		      "Size (bytes)\n"
		      " 65483\n"
		      "\n"
		      "I/O path: local sendmsg+MSG_ZEROCOPY, remote recv\n"
		      "Zerocopy sends (local): 67000, of which the kernel copied 12\n"
		      "TCP_INFO (local): retransmissions 41, RTT 25 us, rttvar 7 us, MSS 65483, cwnd 10\n");
	/* No TCP_INFO anywhere: MSS -1 as netperf prints an unknown one; no calls, no NaN. */
	r.local.tcp_info_valid = false;
	r.local.zc_sends = 0;
	r.local.send_calls = r.remote.recv_calls = 0;
	r.local.io_path[0] = r.remote.io_path[0] = '\0';
	o.print_headers = false;
	expect_render("tcp -v 2 bare", &r, &o,
		      "131072  16384  65536    3.01     11730.42   \n"
		      "\n"
		      "Alignment      Offset         Bytes    Bytes       Sends   Bytes    Recvs\n"
		      "Local  Remote  Local  Remote  Xfered   Per                 Per\n"
		      "Send   Recv    Send   Recv             Send (avg)          Recv (avg)\n"
		      "    8       8      0       0 4412014592    0.00         0     0.00      0\n"
		      "\n"
		      "Maximum\n"
		      "Segment\n"
		      "Size (bytes)\n"
		      "    -1\n"
		      "\n"
		      "I/O path: local -, remote -\n");
}

static void expect_warnings(const char *name, const ws_test_result *r, int count, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_INT(name, ws_classic_warnings(r, "warpspeed", f), count);
	fclose(f);
	CHECK_STR(name, buf, want);
	free(buf);
}

static void test_warnings(void)
{
	ws_test_result r;
	stream_result(&r);
	expect_warnings("none", &r, 0, "");
	/* Linux doubles what it grants: 128K asked and 262144 reported is not a clamp. */
	r.local.sndbuf_req = 131072;
	r.local.sndbuf_set = 262144;
	r.remote.rcvbuf_req = 8388608;
	r.remote.rcvbuf_set = 425984;
	r.local.rcvbuf_req = 4194304;
	r.local.rcvbuf_set = 4194304; /* exactly the request: rmem_max halved it, but not below */
	r.remote.sndbuf_req = 1048576;
	r.remote.sndbuf_set = 425984;
	expect_warnings("clamped", &r, 2,
			"warpspeed: warning: the remote receive buffer was clamped to 425984 bytes "
			"(asked 8388608); raise net.core.rmem_max\n"
			"warpspeed: warning: the remote send buffer was clamped to 425984 bytes "
			"(asked 1048576); raise net.core.wmem_max\n");
	ws_test_result u;
	udp_result(&u);
	u.remote.dgrams_reordered = 5;
	u.remote.dgrams_dup = 1;
	u.remote.bad_dgrams = 3;
	expect_warnings("udp loss", &u, 2,
			"warpspeed: warning: UDP_STREAM lost 87763 of 946353 datagrams (9.274%); "
			"reordered 5, duplicated 1\n"
			"warpspeed: warning: the receiver ignored 3 datagrams that were malformed or "
			"not from this test\n");
	/* Everything lost: 100%, never more, and no division by zero when nothing was sent. */
	u.remote.dgrams_recv = 0;
	u.remote.dgrams_lost = 10;
	u.remote.bad_dgrams = 0;
	expect_warnings("udp all lost", &u, 1,
			"warpspeed: warning: UDP_STREAM lost 10 of 10 datagrams (100.000%); "
			"reordered 5, duplicated 1\n");
	u.remote.dgrams_lost = 0;
	u.remote.dgrams_jumps = 2;
	expect_warnings("udp jumps", &u, 1,
			"warpspeed: warning: the receiver ignored 2 datagrams whose sequence numbers "
			"were implausibly far ahead (jumps)\n");
	u.remote.dgrams_jumps = 0;
	expect_warnings("udp nothing", &u, 0, "");
	CHECK_INT("null", ws_classic_warnings(NULL, "warpspeed", stdout), -EINVAL);
}

int main(void)
{
	RUN(test_cpu_both);
	RUN(test_cpu_one_side);
	RUN(test_plain);
	RUN(test_no_headers);
	RUN(test_figure_of_merit);
	RUN(test_ipv6_banner);
	RUN(test_sendfile_banner_local_addr);
	RUN(test_maerts_swap);
	RUN(test_units);
	RUN(test_errors);
	RUN(test_udp_cpu);
	RUN(test_udp_plain);
	RUN(test_udp_figure);
	RUN(test_udp_detail);
	RUN(test_tcp_detail);
	RUN(test_warnings);
	TEST_MAIN_END();
}
