/* SPDX-License-Identifier: BSD-2-Clause */
/* test_classic_rr: the classic TCP_RR, UDP_RR and TCP_CRR output against real netperf
 * 2.7.0's, byte for byte.
 *
 * Each golden case builds a result with the figures of tests/goldens/netperf/<name>.txt
 * (socket sizes, request/response sizes, the rate, CPU) and compares the whole rendered
 * text with the golden file as read from disk, after one explicit substitution for
 * warpspeed's documented difference in the banner: the IPv4 address is filled into the
 * parentheses netperf leaves empty (" : demo" is printed, as Debian's netperf does). For
 * -v 2 the golden is a prefix: warpspeed's own lines follow netperf's, and are checked exactly by the tests after the table. */
#include "harness.h"

#include "measure/hist.h"
#include "model/result.h"
#include "report/classic.h"
#include "report/classic_rr.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct gcase {
	const char *name;
	enum ws_test_type type;
	int verbosity;
	bool no_headers, c, C, v6, cpu_bind, nodelay;
	char fmt;         /* 0 = 'x', the CLI's default for RR */
	uint32_t req, rsp, burst;
	double figure;    /* the golden's rate: trans/s, or the -f unit for fk */
	uint64_t trans;   /* 0: one second's worth of figure */
	uint32_t lss, lsr, rss, rsr;
	double lutil, rutil; /* % with 2 CPUs each */
	bool remote_local_count; /* netperf's remote S.dem from the local count (CRR golden) */
	/* A golden figure that no whole number of transactions over a whole number of
	 * nanoseconds reproduces (netperf's float timer) is replaced by the nearest one. */
	const char *fix_from, *fix_to;
};

#define TCPB 16384, 131072, 16384, 131072
#define UDPB 212992, 212992, 212992, 212992

static const struct gcase cases[] = {
	{"tcp_rr", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 164550.07, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_4", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 191402.23, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_cC", WS_TEST_TCP_RR, 1, false, true, true, false, false, false, 0, 1, 1, 0, 177665.33, 0, TCPB, 100, 100, false, NULL, NULL},
	{"tcp_rr_v0", WS_TEST_TCP_RR, 0, false, false, false, false, false, false, 0, 1, 1, 0, 176142.53, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_P0", WS_TEST_TCP_RR, 1, true, false, false, false, false, false, 0, 1, 1, 0, 171999.69, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_P0_v0", WS_TEST_TCP_RR, 0, true, false, false, false, false, false, 0, 1, 1, 0, 187975.22, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_v2", WS_TEST_TCP_RR, 2, false, false, false, false, false, false, 0, 1, 1, 0, 158793.094, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_burst4", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 4, 189604.19, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_nodelay", WS_TEST_TCP_RR, 1, false, false, false, false, false, true, 0, 1, 1, 0, 200698.52, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_r64_1024", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 0, 64, 1024, 0, 178615.98, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_6", WS_TEST_TCP_RR, 1, false, false, false, true, false, false, 0, 1, 1, 0, 179237.48, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_fk", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 'k', 1, 1, 0, 2602.75, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_fx", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 'x', 1, 1, 0, 186851.43, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_T00", WS_TEST_TCP_RR, 1, false, false, false, false, true, false, 0, 1, 1, 0, 181258.79, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_count", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 173973.56, 1000, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_rr_j", WS_TEST_TCP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 178771.67, 0, TCPB, 0, 0, false, NULL, NULL},
	{"udp_rr", WS_TEST_UDP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 206088.13, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_6", WS_TEST_UDP_RR, 1, false, false, false, true, false, false, 0, 1, 1, 0, 214731.40, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_P0", WS_TEST_UDP_RR, 1, true, false, false, false, false, false, 0, 1, 1, 0, 212686.03, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_T00", WS_TEST_UDP_RR, 1, false, false, false, false, true, false, 0, 1, 1, 0, 234587.27, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_burst4", WS_TEST_UDP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 4, 371598.79, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_cC", WS_TEST_UDP_RR, 1, false, true, true, false, false, false, 0, 1, 1, 0, 227119.49, 0, UDPB, 100, 100, false, NULL, NULL},
	{"udp_rr_count", WS_TEST_UDP_RR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 249376.57, 1000, UDPB, 0, 0, false, "249376.57", "249376.56"},
	{"udp_rr_fk", WS_TEST_UDP_RR, 1, false, false, false, false, false, false, 'k', 1, 1, 0, 3559.58, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_r64_1024", WS_TEST_UDP_RR, 1, false, false, false, false, false, false, 0, 64, 1024, 0, 210780.87, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_v0", WS_TEST_UDP_RR, 0, false, false, false, false, false, false, 0, 1, 1, 0, 226624.68, 0, UDPB, 0, 0, false, NULL, NULL},
	{"udp_rr_v2", WS_TEST_UDP_RR, 2, false, false, false, false, false, false, 0, 1, 1, 0, 217220.33, 0, UDPB, 0, 0, false, NULL, NULL},
	{"tcp_crr", WS_TEST_TCP_CRR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 37762.39, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_6", WS_TEST_TCP_CRR, 1, false, false, false, true, false, false, 0, 1, 1, 0, 30087.63, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_P0", WS_TEST_TCP_CRR, 1, true, false, false, false, false, false, 0, 1, 1, 0, 39396.95, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_T00", WS_TEST_TCP_CRR, 1, false, false, false, false, true, false, 0, 1, 1, 0, 42450.41, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_cC", WS_TEST_TCP_CRR, 1, false, true, true, false, false, false, 0, 1, 1, 0, 36963.96, 0, TCPB, 99.5045, 458.62, true, NULL, NULL},
	{"tcp_crr_count", WS_TEST_TCP_CRR, 1, false, false, false, false, false, false, 0, 1, 1, 0, 51652.89, 1000, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_nodelay", WS_TEST_TCP_CRR, 1, false, false, false, false, false, true, 0, 1, 1, 0, 39647.70, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_r64_1024", WS_TEST_TCP_CRR, 1, false, false, false, false, false, false, 0, 64, 1024, 0, 38731.10, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_v0", WS_TEST_TCP_CRR, 0, false, false, false, false, false, false, 0, 1, 1, 0, 42283.71, 0, TCPB, 0, 0, false, NULL, NULL},
	{"tcp_crr_v2", WS_TEST_TCP_CRR, 2, false, false, false, false, false, false, 0, 1, 1, 0, 44722.58, 0, TCPB, 0, 0, false, NULL, NULL},
};

static char *slurp(const char *name)
{
	const char *root = getenv("WS_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s%stests/goldens/netperf/%s.txt", root ? root : "",
		 root ? "/" : "", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 16);
	size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

/* In place on the first line only: "X" -> "Y" once (Y may be longer: buf has room). */
static void subst_first_line(char *buf, const char *from, const char *to)
{
	char *nl = strchr(buf, '\n');
	char *at = strstr(buf, from);
	if (!at || (nl && at > nl))
		return;
	size_t fl = strlen(from), tl = strlen(to);
	memmove(at + tl, at + fl, strlen(at + fl) + 1);
	memcpy(at, to, tl);
}

/* In place anywhere: the first "from" -> "to" of the same length. */
static void subst_same(char *buf, const char *from, const char *to)
{
	char *at = from ? strstr(buf, from) : NULL;
	if (at && strlen(to) == strlen(from))
		memcpy(at, to, strlen(to));
}

/* The golden as warpspeed must print it. */
static void expected_of(char *golden)
{
	if (strncmp(golden, "MIGRATED", 8) != 0)
		return; /* -P 0: no banner */
	subst_first_line(golden, "127.0.0.1 ()", "127.0.0.1 (127.0.0.1)");
}

static void build(const struct gcase *g, ws_test_result *r, ws_classic_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->spec.type = g->type;
	r->spec.req_size = g->req;
	r->spec.rsp_size = g->rsp;
	r->spec.burst = g->burst;
	r->spec.nodelay = g->nodelay;
	r->spec.streams = 1;
	r->family_used = g->v6 ? WS_FAMILY_INET6 : WS_FAMILY_INET;
	snprintf(r->remote_host, sizeof(r->remote_host), "%s", g->v6 ? "::1" : "127.0.0.1");
	snprintf(r->remote_addr, sizeof(r->remote_addr), "%s", g->v6 ? "::1" : "127.0.0.1");
	snprintf(r->local_addr, sizeof(r->local_addr), "%s", g->v6 ? "::" : "0.0.0.0");
	double tps = g->fmt == 'k' ? g->figure * 1000.0 / 8.0 / (double)(g->req + g->rsp)
				   : g->figure;
	uint64_t t = g->trans ? g->trans : (uint64_t)llround(tps);
	int64_t ns = llround((double)t * 1e9 / tps);
	ws_side_result *l = &r->local, *m = &r->remote;
	l->sndbuf_set = g->lss;
	l->rcvbuf_set = g->lsr;
	m->sndbuf_set = g->rss;
	m->rcvbuf_set = g->rsr;
	l->transactions = t;
	l->elapsed_ns = ns;
	/* The server counts the requests it answered over its own interval: one more here,
	 * a little longer, so that a renderer reading the wrong side shows. */
	m->transactions = g->remote_local_count ? t : t + 7;
	m->elapsed_ns = g->remote_local_count ? ns : ns + 1000;
	if (g->c || g->C) {
		l->cpu_measured = m->cpu_measured = true;
		l->cpu_method = m->cpu_method = 'S';
		l->ncpus = m->ncpus = 2;
		l->cpu_util = g->lutil;
		m->cpu_util = g->rutil;
	}
	ws_classic_opts_init(o);
	o->verbosity = g->verbosity;
	o->print_headers = !g->no_headers;
	o->local_cpu = g->c;
	o->remote_cpu = g->C;
	o->fmt = g->fmt ? g->fmt : 'x';
	o->cpu_bind = g->cpu_bind;
}

static void test_goldens(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct gcase *g = &cases[i];
		char *want = slurp(g->name);
		WS_T_REPORT(want != NULL, g->name, "cannot read the golden %s.txt (WS_ROOT=%s)",
			    g->name, getenv("WS_ROOT") ? getenv("WS_ROOT") : "unset, cwd");
		if (!want)
			continue;
		expected_of(want);
		subst_same(want, g->fix_from, g->fix_to);
		ws_test_result r;
		ws_classic_opts o;
		build(g, &r, &o);
		ws_err err = {0};
		char *got = NULL;
		int rc = ws_classic_render_string(&r, &o, &got, &err);
		WS_T_REPORT(rc == 0, g->name, "render returned %d: %s", rc, err.msg);
		if (got && g->verbosity >= 2) /* netperf's part is a prefix; the rest is ours */
			got[strlen(want) < strlen(got) ? strlen(want) : strlen(got)] = 0;
		CHECK_STR(g->name, got, want);
		free(got);
		free(want);
	}
}

/* A plain TCP_RR result of 10000 transactions in 1 s with a histogram of known round trips. */
static ws_hist lat;

static void small_result(ws_test_result *r, enum ws_test_type t)
{
	memset(r, 0, sizeof(*r));
	r->spec.type = t;
	r->spec.req_size = r->spec.rsp_size = 1;
	r->spec.streams = 1;
	r->family_used = WS_FAMILY_INET;
	snprintf(r->remote_host, sizeof(r->remote_host), "127.0.0.1");
	snprintf(r->remote_addr, sizeof(r->remote_addr), "127.0.0.1");
	snprintf(r->local_addr, sizeof(r->local_addr), "0.0.0.0");
	r->local.sndbuf_set = r->remote.sndbuf_set = 16384;
	r->local.rcvbuf_set = r->remote.rcvbuf_set = 131072;
	r->local.transactions = 10000;
	r->local.elapsed_ns = 1000000000LL;
	r->remote.transactions = 10000;
	r->remote.elapsed_ns = 1000000000LL;
	/* 9990 round trips of 100 ns (bucket 100), 9 of 25 us, one of 1.5 s */
	ws_hist_init(&lat);
	ws_hist_record_n(&lat, 100, 9990, NULL);
	ws_hist_record_n(&lat, 25000, 9, NULL);
	ws_hist_record(&lat, 1500000000ull);
	r->local.latency = &lat;
}

static char *render(const ws_test_result *r, int verbosity)
{
	ws_classic_opts o;
	ws_classic_opts_init(&o);
	o.fmt = 'x';
	o.verbosity = verbosity;
	char *text = NULL;
	ws_err err = {0};
	if (ws_classic_render_string(r, &o, &text, &err) != 0)
		return NULL;
	return text;
}

#define BANNER_RR0                                                                        \
	"MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to "    \
	"127.0.0.1 (127.0.0.1) port 0 AF_INET : demo : first burst 0\n"
#define HEAD_RR                                                                           \
	"Local /Remote\n"                                                                 \
	"Socket Size   Request  Resp.   Elapsed  Trans.\n"                                \
	"Send   Recv   Size     Size    Time     Rate         \n"                         \
	"bytes  Bytes  bytes    bytes   secs.    per sec   \n\n"
#define ROWS_10K                                                                          \
	"16384  131072 1        1       1.00     10000.00   \n"                           \
	"16384  131072\n"

/* -v 2: netperf's block, then the decade histogram (25 us in TEN_USEC column 2, 1.5 s in
 * UNIT_SEC column 1, 100 ns in UNIT_USEC column 0), then warpspeed's statistics: P99.9 is
 * rank 9990, still a 100 ns sample; P99.99 is rank 9999, a 25 us one, read as its bucket's
 * top 25087 ns (128 ns buckets from 16384 ns); mean 1501224000 ns / 10000. */
static void test_v2_extras(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_TCP_RR);
	char *got = render(&r, 2);
	CHECK_STR("v2", got,
		  BANNER_RR0 HEAD_RR ROWS_10K
		  "Alignment      Offset         RoundTrip  Trans    Throughput\n"
		  "Local  Remote  Local  Remote  Latency    Rate     10^6bits/s\n"
		  "Send   Recv    Send   Recv    usec/Tran  per sec  Outbound   Inbound\n"
		  "    8      0       0      0   100.000   10000.000 0.080     0.080 \n"
		  "\n"
		  "Histogram of request/response times\n"
		  "UNIT_USEC     : 9990:    0:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  "TEN_USEC      :    0:    0:    9:    0:    0:    0:    0:    0:    0:    0\n"
		  "HUNDRED_USEC  :    0:    0:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  "UNIT_MSEC     :    0:    0:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  "TEN_MSEC      :    0:    0:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  "HUNDRED_MSEC  :    0:    0:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  "UNIT_SEC      :    0:    1:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  "TEN_SEC       :    0:    0:    0:    0:    0:    0:    0:    0:    0:    0\n"
		  ">100_SECS: 0\n"
		  "HIST_TOTAL:      10000\n"
		  "\n"
		  "Round trips (us): min 0.100 mean 150.122 p50 0.100 p90 0.100 p99 0.100 p99.9 "
		  "0.100 p99.99 25.087 max 1500000.000 stddev 14999.249 (10000 samples)\n");
	free(got);
}

/* UDP_RR -v 2 prints no netperf block (as 2.7.0), then the histogram, the statistics and
 * its loss counts; the loss line closes the output at -v 2 and follows the table at -v 1. */
static void test_udp_loss(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_UDP_RR);
	r.local.latency = NULL;
	r.local.trans_lost = 25;
	r.local.late_replies = 3;
	r.remote.transactions = 10020;
	r.local.sndbuf_set = r.local.rcvbuf_set = r.remote.sndbuf_set = r.remote.rcvbuf_set = 212992;
	char *got = render(&r, 1);
	CHECK_STR("udp loss v1", got,
		  "MIGRATED UDP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to "
		  "127.0.0.1 (127.0.0.1) port 0 AF_INET : demo : first burst 0\n" HEAD_RR
		  "212992 212992 1        1       1.00     10000.00   \n"
		  "212992 212992\n"
		  "25 transactions lost (0.25% of 10025 attempted); they are in neither the rate "
		  "nor the latency figures\n");
	free(got);
	got = render(&r, 2);
	const char *tail = "\nRound trips (us): no samples\n"
			   "UDP_RR transactions: completed 10000, lost 25, late replies discarded "
			   "3; the server answered 10020\n"
			   "25 transactions lost (0.25% of 10025 attempted); they are in neither "
			   "the rate nor the latency figures\n";
	CHECK("udp loss v2", got && strlen(got) > strlen(tail) &&
				     strcmp(got + strlen(got) - strlen(tail), tail) == 0);
	CHECK("udp loss v2", got && strstr(got, "212992 212992\n\nHistogram of request/response "
						"times\nUNIT_USEC     :    0:"));
	CHECK("udp loss v2", got && !strstr(got, "Alignment"));
	free(got);
	/* -v 0 keeps the figure alone on stdout; the loss goes to the warnings. */
	got = render(&r, 0);
	CHECK_STR("udp loss v0", got,
		  "MIGRATED UDP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to "
		  "127.0.0.1 (127.0.0.1) port 0 AF_INET : demo : first burst 0\n10000.00 \n");
	free(got);
}

static void test_open_loop(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_TCP_RR);
	r.spec.rate = 5000;
	r.spec.streams = 2;
	r.local.trans_scheduled = 10002;
	r.local.max_lag_ns = 150000; /* 150 us, under the 200 us interval: held */
	char *got = render(&r, 1);
	CHECK_STR("open loop", got,
		  BANNER_RR0 HEAD_RR ROWS_10K
		  "Open loop: asked 10000.00 trans/s (5000.00 per flow, 2 flows), achieved 10000.00; "
		  "10000 of 10002 scheduled completed; schedule held (max lag 150.000 us, interval "
		  "200.000 us)\n");
	free(got);
	r.local.max_lag_ns = 200001;
	got = render(&r, 1);
	CHECK("open loop slipped", got && strstr(got, "schedule slipped (max lag 200.001 us"));
	free(got);
}

/* Per-flow rows and TCP_CRR's connection counts at -v 2, after netperf's CRR block. */
static void test_crr_flows(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_TCP_CRR);
	r.local.latency = NULL;
	r.local.connects = 10000;
	r.local.connect_errors = 2;
	r.remote.connects = 10000;
	ws_flow_result flows[2];
	memset(flows, 0, sizeof(flows));
	flows[0] = (ws_flow_result){.transactions = 6000, .elapsed_ns = 1000000000LL, .thread = 0,
				    .lat_p50_ns = 41000, .lat_p99_ns = 95500};
	flows[1] = (ws_flow_result){.transactions = 4000, .elapsed_ns = 800000000LL, .thread = 1,
				    .lat_p50_ns = 52000, .lat_p99_ns = 120000, .trans_lost = 0,
				    .error = -110};
	snprintf(flows[1].why, sizeof(flows[1].why), "timed out");
	r.local.flows = flows;
	r.local.nflows = 2;
	char *got = render(&r, 2);
	CHECK("crr v2", got && strstr(got, "16384  131072\n\nAlignment      Offset\n"
					   "Local  Remote  Local  Remote\n"
					   "Send   Recv    Send   Recv\n"
					   "    8      8       0      0\n"
					   "\nHistogram of connect/request/response/close times\n"));
	const char *tail = "\nRound trips (us): no samples\n"
			   "TCP_CRR connections: made 10000, failed 2; the server accepted 10000\n"
			   "\nFlow   Thread Transactions     Trans/s      P50 us     P99 us     Lost\n"
			   "0      0      6000             6000.00      41.000     95.500     0\n"
			   "1      1      4000             5000.00      52.000     120.000    0  "
			   "FAILED: timed out\n";
	CHECK_STR("crr v2 tail", got && strlen(got) > strlen(tail) ? got + strlen(got) - strlen(tail) : got,
		  tail);
	free(got);
}

/* Service demand per side: each from its own transactions, CPUs and interval. */
static void test_cpu_sides(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_TCP_RR);
	r.local.cpu_measured = r.remote.cpu_measured = true;
	r.local.cpu_method = r.remote.cpu_method = 'S';
	r.local.cpu_util = 50.0;
	r.local.ncpus = 4;       /* 0.5 * 4 * 1e6 us / 10000 = 200 us/Tr */
	r.remote.cpu_util = 25.0;
	r.remote.ncpus = 2;
	r.remote.transactions = 20000; /* 0.25 * 2 * 1e6 / 20000 = 25 us/Tr */
	ws_classic_opts o;
	ws_classic_opts_init(&o);
	o.fmt = 'x';
	o.local_cpu = o.remote_cpu = true;
	char *got = NULL;
	CHECK_INT("cpu", ws_classic_render_string(&r, &o, &got, NULL), 0);
	CHECK_STR("cpu", got,
		  BANNER_RR0 "Local /Remote\n"
		  "Socket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\n"
		  "Send   Recv   Size    Size   Time    Rate     local  remote local   remote\n"
		  "bytes  bytes  bytes   bytes  secs.   per sec  % S    % S    us/Tr   us/Tr\n\n"
		  "16384  131072 1       1      1.00    10000.00  50.00  25.00  200.000  25.000 \n"
		  "16384  131072\n");
	free(got);
	/* -v 0 with -C only: the remote service demand, as netperf picks it. */
	o.verbosity = 0;
	o.local_cpu = false;
	CHECK_INT("cpu v0", ws_classic_render_string(&r, &o, &got, NULL), 0);
	CHECK_STR("cpu v0", got, BANNER_RR0 "25.000 S \n");
	free(got);
	/* -f k: netperf's Tput header and, as netperf, service demand per KB of both
	 * directions: 20000 bytes = 19.53125 KB; local 0.5 * 4 * 1e6 / 19.53125 = 102400,
	 * remote (40000 bytes of its 20000) 0.25 * 2 * 1e6 / 39.0625 = 12800. */
	o.verbosity = 1;
	o.local_cpu = true;
	o.fmt = 'k';
	CHECK_INT("cpu fk", ws_classic_render_string(&r, &o, &got, NULL), 0);
	CHECK_STR("cpu fk", got,
		  BANNER_RR0 "Local /Remote\n"
		  "Socket Size   Request Resp.  Elapsed Tput     CPU    CPU    S.dem   S.dem\n"
		  "Send   Recv   Size    Size   Time    10^3bits local  remote local   remote\n"
		  "bytes  bytes  bytes   bytes  secs.   per sec  % S    % S    us/Tr   us/Tr\n\n"
		  "16384  131072 1       1      1.00    160.00  50.00  25.00  102400.000  12800.000 \n"
		  "16384  131072\n");
	free(got);
	o.fmt = 'x';
	/* -c only: netperf's -1 for the side not measured. */
	o.verbosity = 1;
	o.local_cpu = true;
	o.remote_cpu = false;
	o.print_headers = false;
	CHECK_INT("cpu -c", ws_classic_render_string(&r, &o, &got, NULL), 0);
	CHECK_STR("cpu -c", got,
		  "16384  131072 1       1      1.00    10000.00  50.00  -1.00  200.000  -1.000 \n"
		  "16384  131072\n");
	free(got);
}

static void test_defaults_and_errors(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_TCP_RR);
	char *got = NULL;
	ws_err err = {0};
	/* NULL options are netperf's RR defaults: -f x, -v 1, headers. */
	CHECK_INT("defaults", ws_classic_render_string(&r, NULL, &got, &err), 0);
	CHECK_STR("defaults", got, BANNER_RR0 HEAD_RR ROWS_10K);
	free(got);
	ws_classic_opts o;
	ws_classic_opts_init(&o);
	o.fmt = 'q';
	CHECK_INT("bad fmt", ws_classic_render_string(&r, &o, &got, &err), -WS_E_INVAL);
	CHECK("bad fmt", got == NULL && strstr(err.msg, "-f 'q'") && strstr(err.msg, "x (transactions/s)"));
	r.spec.type = WS_TEST_TCP_STREAM;
	CHECK_INT("not rr", ws_classic_rr_render(&r, NULL, stdout, &err), -WS_E_INVAL);
	CHECK("not rr", strstr(err.msg, "TCP_STREAM") != NULL);
	CHECK("handles", ws_classic_rr_handles(WS_TEST_UDP_RR) && !ws_classic_rr_handles(WS_TEST_UDP_STREAM));
}

static char *warnings_of(const ws_test_result *r, int *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*n = f ? ws_classic_warnings(r, "warpspeed", f) : -1;
	if (f)
		fclose(f);
	return buf;
}

static void test_warnings(void)
{
	ws_test_result r;
	small_result(&r, WS_TEST_UDP_RR);
	int n;
	char *got = warnings_of(&r, &n); /* 1.5 s is inside the histogram's range */
	CHECK_INT("none", n, 0);
	CHECK_STR("none", got, "");
	free(got);
	r.local.trans_lost = 4;
	r.local.late_replies = 1;
	ws_hist_record(&lat, 150000000000ull); /* 150 s: overflow */
	r.spec.rate = 10000;
	r.local.max_lag_ns = 250000;
	got = warnings_of(&r, &n);
	CHECK_INT("all", n, 3);
	CHECK_STR("all", got,
		  "warpspeed: warning: UDP_RR lost 4 transactions (no reply within the timeout; "
		  "each was retried), and discarded late replies\n"
		  "warpspeed: warning: 1 round trips took over 100 s: they are in the count, mean "
		  "and max, and every percentile that falls on them reads the max\n"
		  "warpspeed: warning: the open-loop schedule slipped: a request went out 250.000 us "
		  "late, more than the 100.000 us between requests; the latency figures count from "
		  "the intended send times\n");
	free(got);
	small_result(&r, WS_TEST_TCP_CRR);
	r.local.connects = 98;
	r.local.connect_errors = 2;
	r.local.rcvbuf_req = 1000000; /* the shared clamp warning applies to RR too */
	r.local.rcvbuf_set = 425984;
	got = warnings_of(&r, &n);
	CHECK_INT("crr", n, 2);
	CHECK_STR("crr", got,
		  "warpspeed: warning: the local receive buffer was clamped to 425984 bytes (asked "
		  "1000000); raise net.core.rmem_max\n"
		  "warpspeed: warning: 2 of 100 connects failed (ephemeral ports exhausted, or "
		  "refused)\n");
	free(got);
}

int main(void)
{
	RUN(test_goldens);
	RUN(test_v2_extras);
	RUN(test_udp_loss);
	RUN(test_open_loop);
	RUN(test_crr_flows);
	RUN(test_cpu_sides);
	RUN(test_defaults_and_errors);
	RUN(test_warnings);
	TEST_MAIN_END();
}
