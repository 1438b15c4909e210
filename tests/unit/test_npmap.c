/* SPDX-License-Identifier: BSD-2-Clause */
/* test_npmap: warpspeed's spec as netperf's DO_OMNI request, and netserver's replies as the
 * remote side, against what netperf 2.7.0 and netserver really sent (tests/goldens/npwire/).
 *
 * Each captured netperf command line is parsed by warpspeed's own parser, mapped, encoded
 * and compared with netperf's request word by word (only the client's data port and
 * address differ: they come from the socket). The captured responses and results are
 * decoded and mapped: sizes, counts, elapsed time, congestion control, and CPU figures
 * only when the response echoed the CPU flag. Hostile values (NaN, out-of-range
 * utilisation, a nonzero serv_errno, port 0) are refused or marked unavailable. */
#include "harness.h"
#include "npwire.h"

#include "cli/options.h"
#include "session/npmap.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <netinet/in.h>

/* Words of the request that come from the client's data socket, not the command line
 * (netperf binds it before the request; warpspeed's TCP socket connects after it), and the
 * widths of netperf's own buffer rings (informational; warpspeed has no rings). */
#define W_SEND_WIDTH 6
#define W_RECV_WIDTH 12
#define W_NETPERF_PORT 27
#define W_NETPERF_IP 30
#define W_NETSERVER_IP 34

/* netperf sends an IPv6 address as four NATIVE words (docs/wire/netperf.md, Framing): the
 * captures come from a little-endian netperf, and a big-endian one (as this build, run
 * under qemu-ppc) sends each group of four bytes in the other order. */
static uint32_t as_sent_here(uint32_t captured, int family, int i)
{
	const uint16_t one = 1;
	bool big_endian = *(const uint8_t *)&one == 0;
	if (family != 6 || !big_endian || i < W_NETSERVER_IP || i >= W_NETSERVER_IP + 4)
		return captured;
	return captured >> 24 | (captured >> 8 & 0xff00) | (captured << 8 & 0xff0000) | captured << 24;
}

static int parse(const char *line, ws_cli_options *o)
{
	char buf[512], *argv[32];
	int argc = 0;
	snprintf(buf, sizeof(buf), "warpspeed %s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	ws_err err;
	int rc = ws_cli_parse(argc, argv, o, &err);
	if (rc < 0)
		printf("  cannot parse '%s': %s\n", line, err.msg);
	return rc;
}

static uint32_t word(const uint8_t *m, int i)
{
	return (uint32_t)m[4 * i] << 24 | (uint32_t)m[4 * i + 1] << 16 | (uint32_t)m[4 * i + 2] << 8 | m[4 * i + 3];
}

/* The netperf command line a capture was made with, from its first line ("# name: netperf
 * ARGS (netperf exit 0)"), with the relay's port name made a number for the parser. */
static int command_of(const char *name, char *out, size_t n)
{
	const char *root = getenv("WS_ROOT");
	char path[1024], line[512];
	snprintf(path, sizeof(path), "%s%stests/goldens/npwire/%s.hex", root ? root : "", root ? "/" : "", name);
	FILE *f = fopen(path, "r");
	char *p = f && fgets(line, sizeof(line), f) ? strstr(line, ": netperf ") : NULL;
	char *e = p ? strstr(p, " (netperf exit") : NULL;
	if (f)
		fclose(f);
	if (!e)
		return -1;
	*e = 0;
	char *relay = strstr(p, "RELAY");
	if (relay)
		memcpy(relay, "12865", 5);
	snprintf(out, n, "%s", p + strlen(": netperf "));
	return 0;
}

/* The request built from the command line of capture `name` against its first message. */
static void request_matches(const char *name, int family, const char *data_host)
{
	capture c;
	ws_cli_options o;
	char line[512];
	if (load(name, &c) < 0 || c.n < 1 || command_of(name, line, sizeof(line)) < 0 || parse(line, &o) < 0) {
		CHECK(name, 0);
		return;
	}
	ws_addr dh, *dhp = NULL;
	if (data_host) {
		memset(&dh, 0, sizeof(dh));
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&dh.ss;
		a->sin6_family = AF_INET6;
		inet_pton(AF_INET6, data_host, &a->sin6_addr);
		dh.len = sizeof(*a);
		dhp = &dh;
	}
	ws_np_omni_req r;
	ws_npmap_request(&o.spec, family, NULL, dhp, &r);
	uint8_t m[WS_NP_MSG_LEN];
	ws_np_encode_omni_req(&r, m);
	for (int i = 0; i < ws_np_conv_words(WS_NP_DO_OMNI); i++) {
		if (i == W_SEND_WIDTH || i == W_RECV_WIDTH || i == W_NETPERF_PORT ||
		    (i >= W_NETPERF_IP && i < W_NETPERF_IP + 4))
			continue;
		uint32_t want = as_sent_here(word(c.m[0], i), family, i);
		WS_T_REPORT(word(m, i) == want, name, "word %d (byte %d) = 0x%08x, netperf sent 0x%08x", i,
			    4 * i, word(m, i), want);
	}
	CHECK_MEM(name, m + 160, c.m[0] + 160, WS_NP_MSG_LEN - 160);
}

static void test_requests_match_netperf(void)
{
	request_matches("tcp_stream", 4, NULL);
	request_matches("tcp_maerts", 4, NULL);
	request_matches("tcp_rr", 4, NULL);
	request_matches("tcp_crr", 4, NULL);
	request_matches("udp_rr", 4, NULL);
	request_matches("udp_stream", 4, NULL);
	request_matches("tcp_stream_cC", 4, NULL);
	request_matches("tcp_rr_count", 4, NULL);
	request_matches("tcp_stream_count", 4, NULL);
	request_matches("tcp_rr_T01_r", 4, NULL);
	request_matches("tcp_rr_6", 6, "::1");
}

/* Decode capture `name`'s response (message 1) and results (message 2) and map them. */
static int replies(const char *name, const char *line, ws_cli_options *o, ws_np_omni_rsp *rsp,
		   ws_np_omni_results *res, ws_side_result *remote)
{
	capture c;
	ws_err err;
	memset(remote, 0, sizeof(*remote));
	if (load(name, &c) < 0 || c.n < 3 || parse(line, o) < 0 || ws_np_decode_omni_rsp(c.m[1], rsp, &err) < 0 ||
	    ws_np_decode_omni_results(c.m[2], res, &err) < 0) {
		CHECK(name, 0);
		return -1;
	}
	int rc = ws_npmap_response(rsp, &o->spec, remote, &err);
	CHECK_INT(name, rc, 0);
	bool echoed = o->spec.remote.measure_cpu && (rsp->flags & WS_NP_F_MEASURE_CPU);
	rc = ws_npmap_results(res, &o->spec, echoed, remote, &err);
	CHECK_INT(name, rc, 0);
	return 0;
}

static void test_stream_replies(void)
{
	ws_cli_options o;
	ws_np_omni_rsp rsp;
	ws_np_omni_results res;
	ws_side_result r;
	if (replies("tcp_stream_cC", "-t TCP_STREAM -l 1 -c -C", &o, &rsp, &res, &r) == 0) {
		CHECK_U64("cC setup", r.rcvbuf_set, (uint32_t)rsp.recv_buf_size);
		CHECK_U64("cC setup", r.recv_size, (uint32_t)rsp.receive_size);
		CHECK_U64("cC bytes", r.bytes_recv, res.bytes_received);
		CHECK("cC bytes", r.bytes_recv > 0);
		CHECK_U64("cC calls", r.recv_calls, res.recv_calls);
		CHECK_DBL("cC elapsed", (double)r.elapsed_ns / 1e9, 1.0, 0.1);
		CHECK("cC cpu measured", r.cpu_measured);
		CHECK_INT("cC method", r.cpu_method, 'S');
		CHECK("cC ncpus", r.ncpus >= 1);
		CHECK("cC util", r.cpu_util > 0 && r.cpu_util <= 100);
		CHECK("cC netperf's rule", r.sd_local_basis);
		CHECK_STR("cC cong", r.cong_set, res.cong_control);
		CHECK("cC retrans", r.tcp_retrans_valid && !r.tcp_info_valid);
	}
	if (replies("tcp_stream", "-t TCP_STREAM -l 1", &o, &rsp, &res, &r) == 0) {
		CHECK("no -C: unmeasured", !r.cpu_measured);
		CHECK_DBL("no -C: util", r.cpu_util, -1.0, 0);
		CHECK("no -C: bytes", r.bytes_recv > 0);
	}
	if (replies("udp_stream", "-t UDP_STREAM -l 1 -- -m 1472", &o, &rsp, &res, &r) == 0) {
		CHECK_U64("udp dgrams", r.dgrams_recv, res.recv_calls);
		CHECK_U64("udp bytes", r.bytes_recv, 1472ull * res.recv_calls);
		CHECK("udp retrans unknown", !r.tcp_retrans_valid);
	}
}

static void test_rr_replies(void)
{
	ws_cli_options o;
	ws_np_omni_rsp rsp;
	ws_np_omni_results res;
	ws_side_result r;
	if (replies("tcp_rr", "-t TCP_RR -l 1", &o, &rsp, &res, &r) == 0) {
		CHECK_U64("rr trans", r.transactions, res.trans_received);
		CHECK("rr trans", r.transactions > 0);
		CHECK_U64("rr bytes", r.bytes_sent, r.transactions);
		CHECK_INT("rr no connects", r.connects, 0);
	}
	if (replies("tcp_crr", "-t TCP_CRR -l 1", &o, &rsp, &res, &r) == 0) {
		CHECK("crr trans", r.transactions > 0);
		CHECK_U64("crr connects", r.connects, r.transactions);
	}
	if (replies("udp_rr_cC", "-t UDP_RR -l 1 -c -C", &o, &rsp, &res, &r) == 0) {
		CHECK("udp_rr cpu", r.cpu_measured && r.ncpus >= 1);
		CHECK_U64("udp_rr trans", r.transactions, res.trans_received);
	}
}

static void test_hostile_replies(void)
{
	ws_test_spec s;
	ws_test_spec_init(&s);
	s.remote.measure_cpu = true;
	ws_side_result r;
	ws_err err;
	ws_np_omni_rsp rsp;
	memset(&rsp, 0, sizeof(rsp));
	rsp.data_port = 0;
	CHECK_INT("port 0", ws_npmap_response(&rsp, &s, &r, &err), -WS_E_PROTO);
	CHECK("port 0 named", strstr(err.msg, "data port 0; expected 1 to 65535") != NULL);
	rsp.data_port = 70000;
	CHECK_INT("port 70000", ws_npmap_response(&rsp, &s, &r, &err), -WS_E_PROTO);
	rsp.data_port = 5000;
	rsp.serv_errno = 98;
	CHECK_INT("refused", ws_npmap_response(&rsp, &s, &r, &err), -WS_E_REMOTE);
	CHECK("refused named", strstr(err.msg, "its error 98 (") != NULL);
	rsp.serv_errno = -7;
	CHECK_INT("negative errno", ws_npmap_response(&rsp, &s, &r, &err), -WS_E_REMOTE);

	ws_np_omni_results res;
	memset(&res, 0, sizeof(res));
	res.elapsed_time = NAN;
	res.cpu_util = 250.0f;
	res.num_cpus = 2;
	res.cpu_method = 8;
	memset(&r, 0, sizeof(r));
	CHECK_INT("garbage", ws_npmap_results(&res, &s, true, &r, &err), 0);
	CHECK_INT("NaN elapsed", r.elapsed_ns, 0);
	CHECK("250% util unmeasured", !r.cpu_measured && r.cpu_util < 0);
	res.cpu_util = 50.0f;
	res.cpu_user = NAN;
	CHECK_INT("NaN user", ws_npmap_results(&res, &s, true, &r, &err), 0);
	CHECK("NaN user unmeasured", !r.cpu_measured);
	res.cpu_user = 10.0f;
	res.num_cpus = 0;
	CHECK_INT("0 cpus", ws_npmap_results(&res, &s, true, &r, &err), 0);
	CHECK("0 cpus unmeasured", !r.cpu_measured);
	res.num_cpus = 4;
	res.elapsed_time = 1e30f;
	CHECK_INT("sane", ws_npmap_results(&res, &s, true, &r, &err), 0);
	CHECK("sane measured", r.cpu_measured && r.ncpus == 4);
	CHECK_INT("huge elapsed", r.elapsed_ns, 0);
	CHECK_INT("unknown method", ws_npmap_cpu_method(99), 'U');
	CHECK_INT("proc stat", ws_npmap_cpu_method(8), 'S');
	res.serv_errno = 104;
	CHECK_INT("results errno", ws_npmap_results(&res, &s, true, &r, &err), -WS_E_REMOTE);
}

static void test_check_refuses(void)
{
	ws_test_spec s;
	ws_err err;
	ws_test_spec_init(&s);
	CHECK_INT("plain", ws_npmap_check(&s, &err), 0);
	s.zerocopy = true; /* TCP_STREAM: the client sends */
	CHECK_INT("zerocopy local", ws_npmap_check(&s, &err), 0);
	s.type = WS_TEST_TCP_MAERTS;
	CHECK_INT("zerocopy remote", ws_npmap_check(&s, &err), -WS_E_PEER);
	CHECK_STR("zerocopy remote", err.msg,
		  "--zerocopy on the daemon's (sending) side needs a warpspeed daemon (warpspeed serve); the peer is a stock netserver");
	ws_test_spec_init(&s);
	s.streams = 2; /* a netserver child per flow */
	CHECK_INT("streams", ws_npmap_check(&s, &err), 0);
	s.type = WS_TEST_TCP_CRR;
	CHECK_INT("crr streams", ws_npmap_check(&s, &err), -WS_E_PEER);
	ws_test_spec_init(&s);
	s.streams = 4;
	s.local_threads = 2;
	CHECK_INT("local threads", ws_npmap_check(&s, &err), 0);
	s.remote_threads = 2; /* --threads 2,2: was silently ignored */
	CHECK_INT("remote threads", ws_npmap_check(&s, &err), -WS_E_PEER);
	CHECK_STR("remote threads", err.msg,
		  "--threads L,R with R above 1 (netserver serves each connection in a process of its own) needs a warpspeed daemon (warpspeed serve); the peer is a stock netserver");
	ws_test_spec_init(&s);
	s.skip_rx_copy = true;
	CHECK_INT("skip-rx-copy remote", ws_npmap_check(&s, &err), -WS_E_PEER);
	s.type = WS_TEST_TCP_MAERTS;
	CHECK_INT("skip-rx-copy local", ws_npmap_check(&s, &err), 0);
	ws_test_spec_init(&s);
	s.type = WS_TEST_UDP_RR;
	s.rate = 1000;
	CHECK_INT("udp_rr rate", ws_npmap_check(&s, &err), -WS_E_PEER);
	s.type = WS_TEST_TCP_RR;
	CHECK_INT("tcp_rr rate", ws_npmap_check(&s, &err), 0);
	s.end = WS_END_TRANSACTIONS;
	s.end_count = 2147483648ull;
	CHECK_INT("count beyond 2^31", ws_npmap_check(&s, &err), -WS_E_PEER);
	s.end_count = 2147483647ull;
	CHECK_INT("count 2^31-1", ws_npmap_check(&s, &err), 0);
}

/* --streams: three netserver children merged into one remote side. */
static void test_merge(void)
{
	ws_test_spec s;
	ws_test_spec_init(&s); /* TCP_STREAM: the daemon receives */
	s.streams = 3;
	ws_side_result into, f[3];
	memset(&into, 0, sizeof(into));
	into.flows = calloc(3, sizeof(*into.flows));
	into.nflows = 3;
	for (int i = 0; i < 3; i++) {
		memset(&f[i], 0, sizeof(f[i]));
		f[i].bytes_recv = 1000u * (i + 1);
		f[i].recv_calls = 10u * (i + 1);
		f[i].elapsed_ns = 1000000000LL + i;
		f[i].cpu_measured = true;
		f[i].cpu_util = 10.0 * (i + 1);
		f[i].cpu_user = f[i].cpu_system = f[i].cpu_softirq = 1.0;
		f[i].ncpus = 4;
		f[i].rcvbuf_set = 131072;
		f[i].tcp_retrans = (uint64_t)i;
		f[i].tcp_retrans_valid = true;
		ws_npmap_merge(&into, &f[i], &s, (uint32_t)i);
	}
	CHECK_U64("bytes", into.bytes_recv, 6000);
	CHECK_U64("calls", into.recv_calls, 60);
	CHECK_INT("elapsed: the longest", into.elapsed_ns, 1000000002LL);
	CHECK_DBL("cpu: the mean", into.cpu_util, 20.0, 1e-9);
	CHECK("cpu measured", into.cpu_measured && into.ncpus == 4);
	CHECK_U64("retrans", into.tcp_retrans, 3);
	CHECK("retrans valid", into.tcp_retrans_valid);
	CHECK_INT("nflows kept", into.nflows, 3);
	CHECK_U64("flow 2 bytes", into.flows[2].bytes, 3000);
	CHECK_U64("flow 1 calls", into.flows[1].calls, 20);
	CHECK_INT("flow 2 thread", into.flows[2].thread, 2);
	/* one flow without CPU figures: the aggregate has none */
	f[1].cpu_measured = false;
	ws_npmap_merge(&into, &f[0], &s, 0);
	ws_npmap_merge(&into, &f[1], &s, 1);
	CHECK("cpu unmeasured", !into.cpu_measured && into.cpu_util < 0);
	free(into.flows);
}

int main(void)
{
	RUN(test_requests_match_netperf);
	RUN(test_stream_replies);
	RUN(test_rr_replies);
	RUN(test_hostile_replies);
	RUN(test_check_refuses);
	RUN(test_merge);
	TEST_MAIN_END();
}
