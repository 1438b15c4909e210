/* SPDX-License-Identifier: BSD-2-Clause */
/* test_npspec: netperf's DO_OMNI and legacy DO_TCP_STREAM requests as the daemon's specs
 * (session/npspec.c): each of the six omni test kinds from netperf's direction, socket
 * type and flags, defaults and counts, addresses, what the replies echo, and each request
 * that is refused with the reason. */
#include "harness.h"

#include "session/npspec.h"

#include <errno.h>
#include <netinet/in.h>

/* An omni request as netperf 2.7.0 sends it for -t NAME with defaults: -l 10, no sizes. */
static ws_np_omni_req req(uint32_t sock, uint32_t dir, int32_t rq, int32_t rs, uint32_t flags)
{
	ws_np_omni_req r;
	memset(&r, 0, sizeof(r));
	r.cpu = -1;
	r.send_buf_size = r.recv_buf_size = -1;
	r.send_size = r.receive_size = 0xffffffffu;
	r.request_size = rq;
	r.response_size = rs;
	r.flags = flags;
	r.test_length = 10;
	r.ipfamily = 4;
	r.socket_type = sock;
	r.protocol = sock == WS_NP_SOCK_DGRAM ? IPPROTO_UDP : IPPROTO_TCP;
	r.direction = dir;
	return r;
}

static void test_kinds(void)
{
	static const struct {
		const char *name;
		uint32_t sock, dir, flags;
		int32_t rq, rs;
		int type;
	} k[] = {
		{"TCP_STREAM", WS_NP_SOCK_STREAM, WS_NP_DIR_RECV, 0, -1, -1, WS_TEST_TCP_STREAM},
		{"TCP_MAERTS", WS_NP_SOCK_STREAM, WS_NP_DIR_SEND, 0, -1, -1, WS_TEST_TCP_MAERTS},
		{"TCP_RR", WS_NP_SOCK_STREAM, WS_NP_DIR_SEND | WS_NP_DIR_RECV, 0, 1, 1, WS_TEST_TCP_RR},
		{"TCP_CRR", WS_NP_SOCK_STREAM, WS_NP_DIR_SEND | WS_NP_DIR_RECV, WS_NP_F_CONNECT_TEST, 1,
		 1, WS_TEST_TCP_CRR},
		{"UDP_STREAM", WS_NP_SOCK_DGRAM, WS_NP_DIR_RECV, 0, -1, -1, WS_TEST_UDP_STREAM},
		{"UDP_RR", WS_NP_SOCK_DGRAM, WS_NP_DIR_SEND | WS_NP_DIR_RECV, 0, 1, 1, WS_TEST_UDP_RR},
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		ws_np_omni_req r = req(k[i].sock, k[i].dir, k[i].rq, k[i].rs, k[i].flags);
		ws_np_test t;
		ws_err e = {0};
		CHECK_INT(k[i].name, ws_npspec_from_omni(&r, &t, &e), 0);
		CHECK_INT(k[i].name, (int)t.spec.type, k[i].type);
		CHECK_INT(k[i].name, (int)t.spec.end, WS_END_TIME);
		CHECK_DBL(k[i].name, t.spec.duration_s, 10.0, 0);
		CHECK_INT(k[i].name, (int)t.spec.remote.sndbuf, 0);
		CHECK_INT(k[i].name, (int)t.spec.send_size, 0); /* 0xffffffff: the default */
		CHECK_INT(k[i].name, (int)t.spec.rcvlowat, 1);
		CHECK_INT(k[i].name, t.legacy, 0);
	}
}

static void test_fields(void)
{
	ws_np_omni_req r = req(WS_NP_SOCK_STREAM, WS_NP_DIR_SEND | WS_NP_DIR_RECV, 64, 1024,
			       WS_NP_F_NODELAY | WS_NP_F_MEASURE_CPU);
	r.test_length = -5000; /* -l -5000: 5000 transactions */
	r.cpu = 1;
	r.send_buf_size = 65536;
	r.data_port = 40000;
	r.netperf_port = 40001;
	r.send_width = 3;
	r.cpu_rate = 2.5f;
	r.socket_tos = 0x10;
	snprintf(r.cong_control, sizeof(r.cong_control), "reno");
	const uint8_t cli[4] = {192, 0, 2, 7}, srv[4] = {127, 0, 0, 1};
	ws_np_addr_from_in4(cli, r.netperf_ip);
	ws_np_addr_from_in4(srv, r.netserver_ip);
	ws_np_test t;
	CHECK_INT("rr", ws_npspec_from_omni(&r, &t, NULL), 0);
	CHECK_INT("count", (int)t.spec.end, WS_END_TRANSACTIONS);
	CHECK_U64("count", t.spec.end_count, 5000);
	CHECK_INT("sizes", (int)t.spec.req_size, 64);
	CHECK_INT("sizes", (int)t.spec.rsp_size, 1024);
	CHECK_INT("cpu", t.spec.remote.cpu, 1);
	CHECK_INT("measure", t.spec.remote.measure_cpu, 1);
	CHECK_INT("sndbuf", (int)t.spec.remote.sndbuf, 65536);
	CHECK_INT("port", t.spec.remote.data_port, 40000);
	CHECK_INT("client port", t.client_port, 40001);
	CHECK_STR("client ip", t.client_ip, "192.0.2.7");
	CHECK_STR("data host", t.spec.data_host, "127.0.0.1");
	CHECK_INT("nodelay", t.spec.nodelay, 1);
	CHECK_INT("tos", t.spec.remote.tos, 0x10);
	CHECK_STR("cong", t.spec.remote.cong, "reno");
	CHECK_INT("width", (int)t.send_width, 3);
	CHECK_DBL("rate", t.cpu_rate, 2.5, 0);
	CHECK_INT("family", (int)t.spec.family, WS_FAMILY_INET);

	ws_np_omni_req s = req(WS_NP_SOCK_STREAM, WS_NP_DIR_RECV, -1, -1, 0);
	s.test_length = -1048576; /* -l -1M: bytes */
	s.receive_size = 32768;
	CHECK_INT("stream count", ws_npspec_from_omni(&s, &t, NULL), 0);
	CHECK_INT("stream count", (int)t.spec.end, WS_END_BYTES);
	CHECK_U64("stream count", t.spec.end_count, 1048576);
	CHECK_INT("recv size", (int)t.spec.recv_size, 32768);
	CHECK_INT("recv size asked", (int)t.recv_size_asked, 32768);
}

static void test_refused(void)
{
	static const struct {
		const char *name;
		uint32_t sock, proto, dir, flags, family;
		int32_t rq;
		int code;
		const char *says;
	} k[] = {
		{"RDS", WS_NP_SOCK_STREAM, IPPROTO_TCP, WS_NP_DIR_RECV, 0, 7, -1, -EAFNOSUPPORT,
		 "address family 7 (RDS) is not supported; 0, 4 or 6 is"},
		{"SCTP", WS_NP_SOCK_STREAM, 132, WS_NP_DIR_RECV, 0, 4, -1, -EPROTONOSUPPORT,
		 "socket type 1 protocol 132 is not supported; TCP (1, 6) and UDP (2, 17) are"},
		{"RR size 0", WS_NP_SOCK_STREAM, IPPROTO_TCP, WS_NP_DIR_SEND | WS_NP_DIR_RECV, 0, 4, 0,
		 -EINVAL, "request/response sizes 0,1; at least 1 each is accepted"},
		{"UDP_MAERTS", WS_NP_SOCK_DGRAM, IPPROTO_UDP, WS_NP_DIR_SEND, 0, 4, -1, -EOPNOTSUPP,
		 "a UDP test with direction 0x2 is not supported"},
		{"UDP_CRR", WS_NP_SOCK_DGRAM, IPPROTO_UDP, WS_NP_DIR_SEND | WS_NP_DIR_RECV,
		 WS_NP_F_CONNECT_TEST, 4, 1, -EOPNOTSUPP,
		 "a UDP test with direction 0x6 and a connection per transaction is not supported"},
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		ws_np_omni_req r = req(k[i].sock, k[i].dir, k[i].rq, 1, k[i].flags);
		r.protocol = k[i].proto;
		r.ipfamily = k[i].family;
		ws_np_test t;
		ws_err e = {0};
		CHECK_INT(k[i].name, ws_npspec_from_omni(&r, &t, &e), k[i].code);
		CHECK_STR(k[i].name, e.msg, k[i].says);
	}
}

static void test_legacy(void)
{
	ws_np_stream_req r;
	memset(&r, 0, sizeof(r));
	r.cpu = -1;
	r.recv_buf_size = 131072;
	r.receive_size = 8192;
	r.test_length = 3;
	r.no_delay = 1;
	r.measure_cpu = 1;
	r.ipfamily = 4;
	ws_np_test t;
	CHECK_INT("legacy", ws_npspec_from_legacy(&r, &t), 0);
	CHECK_INT("legacy", t.legacy, 1);
	CHECK_INT("legacy type", (int)t.spec.type, WS_TEST_TCP_STREAM);
	CHECK_INT("legacy rcvbuf", (int)t.spec.remote.rcvbuf, 131072);
	CHECK_INT("legacy recv size", (int)t.spec.recv_size, 8192);
	/* -l 3 and -l -3 both arrive as 3: received until the sender closes, as netserver */
	CHECK_INT("legacy end", (int)t.spec.end, WS_END_TIME);
	CHECK_DBL("legacy length", t.spec.duration_s, 0.0, 0);
	CHECK_INT("legacy flags", (int)t.flags, WS_NP_F_NODELAY | WS_NP_F_MEASURE_CPU);
}

int main(void)
{
	RUN(test_kinds);
	RUN(test_fields);
	RUN(test_refused);
	RUN(test_legacy);
	TEST_MAIN_END();
}
