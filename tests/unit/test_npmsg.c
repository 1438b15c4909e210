/* SPDX-License-Identifier: BSD-2-Clause */
/* test_npmsg: the netperf 656-byte codec against messages captured from the real netperf
 * 2.7.0 and netserver (tests/goldens/npwire/, made by tests/goldens/capture-npwire.sh).
 * Every captured request and response is decoded, checked field by field where the value
 * is fixed by the command line, and encoded again to the same 656 bytes; requests are
 * also built from scratch and must match the capture byte for byte. Hand-built hostile
 * messages check the range checks, the NUL termination and the incremental reader. */
#include "harness.h"
#include "npwire.h"

#include "ctl/npmsg.h"
#include "ctl/npreader.h"
#include "util/bytes.h"
#include "util/err.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

static int little_endian_host(void)
{
	const uint32_t one = 1;
	uint8_t b;
	memcpy(&b, &one, 1);
	return b == 1;
}

/* A request built from netperf's defaults plus the given test, as netperf 2.7 builds it. */
static void base_req(ws_np_omni_req *r, uint32_t st, uint32_t proto, uint32_t dir, int32_t req,
		     int32_t rsp, uint32_t flags, int32_t len, uint32_t port)
{
	ws_np_omni_req_defaults(r);
	r->send_width = r->recv_width = 1;
	r->request_size = req;
	r->response_size = rsp;
	r->flags = flags;
	r->test_length = len;
	r->ipfamily = 4;
	r->socket_type = st;
	r->protocol = proto;
	r->direction = dir;
	r->netperf_port = port;
}

/* Decode the captured request, rebuild it from `want` (its client port and its own ring
 * widths taken from the capture: they follow the client host's socket buffer sizes) and
 * compare the 656 bytes both ways. */
static void check_req(const char *name, const uint8_t *msg, ws_np_omni_req *want)
{
	ws_np_omni_req got;
	ws_err err;
	uint8_t out[WS_NP_MSG_LEN];
	CHECK_INT(name, ws_np_decode_omni_req(msg, &got, &err), 0);
	want->netperf_port = got.netperf_port;
	want->send_width = got.send_width;
	want->recv_width = got.recv_width;
	ws_np_encode_omni_req(want, out);
	CHECK_MEM(name, out, msg, WS_NP_MSG_LEN);
	ws_np_encode_omni_req(&got, out);
	CHECK_MEM(name, out, msg, WS_NP_MSG_LEN);
	CHECK(name, got.netperf_port > 0 && got.netperf_port <= 65535);
}

/* Response and results: decode, then encode again: the same bytes except the results'
 * type word, which netserver sends byte-swapped (62 00 00 00). */
static void check_replies(const char *name, const capture *c, int first, ws_np_omni_rsp *rsp,
			  ws_np_omni_results *res)
{
	ws_err err;
	uint8_t out[WS_NP_MSG_LEN];
	CHECK(name, c->dir[first] == 'S' && c->dir[first + 1] == 'S');
	CHECK_INT(name, ws_np_decode_omni_rsp(c->m[first], rsp, &err), 0);
	ws_np_encode_omni_rsp(rsp, out);
	CHECK_MEM(name, out, c->m[first], WS_NP_MSG_LEN);
	CHECK_INT(name, ws_np_decode_omni_results(c->m[first + 1], res, &err), 0);
	ws_np_encode_omni_results(res, out);
	CHECK_MEM(name, out + 4, c->m[first + 1] + 4, WS_NP_MSG_LEN - 4);
	static const uint8_t swapped98[4] = {0x62, 0, 0, 0};
	CHECK_MEM(name, c->m[first + 1], swapped98, 4);
	CHECK_INT(name, rsp->serv_errno, 0);
	CHECK_INT(name, res->serv_errno, 0);
}

static void test_tcp_rr(void)
{
	capture c;
	ws_np_omni_req want;
	ws_np_omni_rsp rsp;
	ws_np_omni_results res;
	if (load("tcp_rr", &c) < 0 || c.n != 3) {
		CHECK("tcp_rr", 0);
		return;
	}
	CHECK_INT("tcp_rr", ws_np_type(c.m[0]), WS_NP_DO_OMNI);
	CHECK_INT("tcp_rr", ws_np_word1(c.m[0]), -1);
	base_req(&want, WS_NP_SOCK_STREAM, 6, 6, 1, 1, WS_NP_F_ROUTING, 1, 0);
	check_req("tcp_rr", c.m[0], &want);
	check_replies("tcp_rr", &c, 1, &rsp, &res);
	CHECK_INT("tcp_rr", rsp.receive_size, 1);
	CHECK_INT("tcp_rr", rsp.send_size, 1);
	CHECK_INT("tcp_rr", rsp.flags, 0);
	CHECK(rsp.data_port > 0 ? "tcp_rr" : "tcp_rr port", rsp.data_port > 0);
	CHECK_INT("tcp_rr", rsp.socket_prio, -1);
	CHECK_INT("tcp_rr", rsp.socket_tos, -1);
	/* 1-byte transactions: as many bytes and calls as transactions, both ways. */
	CHECK("tcp_rr", res.trans_received > 1000);
	CHECK_U64("tcp_rr", res.bytes_received, res.trans_received);
	CHECK_U64("tcp_rr", res.bytes_sent, res.trans_received);
	CHECK_INT("tcp_rr", res.recv_calls, res.trans_received);
	CHECK_INT("tcp_rr", res.send_calls, res.trans_received);
	CHECK("tcp_rr", res.elapsed_time > 0.9f && res.elapsed_time < 1.5f);
	CHECK_INT("tcp_rr", res.cpu_method, 0);
	CHECK("tcp_rr", res.cong_control[0] != '\0');
}

static void test_tcp_rr_options(void)
{
	capture c;
	ws_np_omni_req want;
	ws_np_omni_rsp rsp;
	ws_np_omni_results res;
	if (load("tcp_rr_T01_r", &c) < 0 || c.n != 3) {
		CHECK("tcp_rr_T01_r", 0);
		return;
	}
	/* -T 0,1 -- -r 64,1024 -S 64K,32K -P ,port -D */
	CHECK_INT("tcp_rr_T01_r", ws_np_word1(c.m[0]), 1);
	base_req(&want, WS_NP_SOCK_STREAM, 6, 6, 64, 1024, WS_NP_F_ROUTING | WS_NP_F_NODELAY, 1, 0);
	want.cpu = 1;
	want.send_buf_size = 65536;
	want.recv_buf_size = 32768;
	ws_np_omni_req got;
	ws_err err;
	CHECK_INT("tcp_rr_T01_r", ws_np_decode_omni_req(c.m[0], &got, &err), 0);
	want.data_port = got.data_port;
	CHECK("tcp_rr_T01_r", got.data_port > 0);
	check_req("tcp_rr_T01_r", c.m[0], &want);
	check_replies("tcp_rr_T01_r", &c, 1, &rsp, &res);
	CHECK_INT("tcp_rr_T01_r", rsp.data_port, got.data_port);
	CHECK_INT("tcp_rr_T01_r", rsp.receive_size, 64);
	CHECK_INT("tcp_rr_T01_r", rsp.send_size, 1024);
	CHECK_INT("tcp_rr_T01_r", rsp.recv_buf_size, 65536); /* Linux doubles 32K */
	CHECK_INT("tcp_rr_T01_r", rsp.flags, WS_NP_F_NODELAY);
	CHECK_U64("tcp_rr_T01_r", res.bytes_received, 64ull * res.trans_received);
	CHECK_U64("tcp_rr_T01_r", res.bytes_sent, 1024ull * res.trans_received);
}

/* The other tests: the request built from scratch, and the replies re-encoded. */
static void test_each_test(void)
{
	static const struct {
		const char *name;
		uint32_t st, proto, dir;
		int32_t req, rsp;
		uint32_t flags;
		int32_t len;
	} t[] = {
		{"tcp_stream", 1, 6, 4, -1, -1, 0x20, 1},
		{"tcp_stream_cC", 1, 6, 4, -1, -1, 0x28, 1},
		{"tcp_maerts", 1, 6, 2, -1, -1, 0x20, 1},
		{"tcp_rr_count", 1, 6, 6, 1, 1, 0x20, -1000},
		{"tcp_crr", 1, 6, 6, 1, 1, 0x24, 1},
		{"udp_rr", 2, 17, 6, 1, 1, 0x20, 1},
		{"udp_rr_cC", 2, 17, 6, 1, 1, 0x28, 1},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		capture c;
		ws_np_omni_req want;
		ws_np_omni_rsp rsp;
		ws_np_omni_results res;
		if (load(t[i].name, &c) < 0 || c.n != 3) {
			CHECK(t[i].name, 0);
			continue;
		}
		base_req(&want, t[i].st, t[i].proto, t[i].dir, t[i].req, t[i].rsp, t[i].flags,
			 t[i].len, 0);
		if (t[i].flags & WS_NP_F_MEASURE_CPU)
			want.cpu_rate = 0.0f; /* -C without a rate: the daemon calibrates */
		check_req(t[i].name, c.m[0], &want);
		check_replies(t[i].name, &c, 1, &rsp, &res);
		if (t[i].flags & WS_NP_F_MEASURE_CPU) {
			ws_err err;
			CHECK_INT(t[i].name, rsp.flags, WS_NP_F_MEASURE_CPU);
			CHECK_DBL(t[i].name, rsp.cpu_rate, 100.0, 0);
			CHECK_INT(t[i].name, res.cpu_method, WS_NP_CPU_PROC_STAT);
			CHECK_INT(t[i].name, ws_np_results_check_cpu(&res, &err), 0);
			CHECK_INT(t[i].name, res.num_cpus, sysconf(_SC_NPROCESSORS_ONLN) > 0 ? res.num_cpus : 0);
		}
		if (t[i].proto == 17)
			CHECK_INT(t[i].name, res.transport_retrans, -1);
		if (t[i].dir == 4 && t[i].proto == 6)
			CHECK(t[i].name, res.bytes_received > 0 && res.bytes_sent == 0);
		if (t[i].dir == 2)
			CHECK(t[i].name, res.bytes_sent > 0 && res.bytes_received == 0);
		if (t[i].len == -1000)
			CHECK_INT(t[i].name, res.trans_received, 1000);
	}
}

static void test_udp_stream_count(void)
{
	capture c;
	ws_np_omni_req want;
	ws_np_omni_rsp rsp;
	ws_np_omni_results res;
	if (load("udp_stream", &c) == 0 && c.n == 3) {
		/* -- -m 1472: the client's own send size does not travel; UDP_STREAM clears 0x20. */
		base_req(&want, 2, 17, 4, -1, -1, 0, 1, 0);
		check_req("udp_stream", c.m[0], &want);
		check_replies("udp_stream", &c, 1, &rsp, &res);
		CHECK("udp_stream", res.bytes_received % 1472 == 0 && res.recv_calls > 0);
	} else {
		CHECK("udp_stream", 0);
	}
	if (load("tcp_stream_count", &c) == 0 && c.n == 3) {
		base_req(&want, 1, 6, 4, -1, -1, 0x20, -1000000, 0);
		check_req("tcp_stream_count", c.m[0], &want);
		check_replies("tcp_stream_count", &c, 1, &rsp, &res);
		CHECK_U64("tcp_stream_count", res.bytes_received, 1015808); /* 62 sends of 16 KiB */
	} else {
		CHECK("tcp_stream_count", 0);
	}
}

static void test_ipv6_words(void)
{
	capture c;
	ws_np_omni_req got;
	ws_err err;
	if (load("tcp_rr_6", &c) < 0 || c.n != 3) {
		CHECK("tcp_rr_6", 0);
		return;
	}
	CHECK_INT("tcp_rr_6", ws_np_decode_omni_req(c.m[0], &got, &err), 0);
	CHECK_INT("tcp_rr_6", got.ipfamily, 6);
	/* Captured on a little-endian host: ::1 goes out as ... 01 00 00 00 in both words. */
	static const uint8_t tail[4] = {1, 0, 0, 0};
	CHECK_MEM("tcp_rr_6", c.m[0] + 132, tail, 4);
	CHECK_MEM("tcp_rr_6", c.m[0] + 148, tail, 4);
	uint8_t a[16], loop6[16] = {0};
	loop6[15] = 1;
	ws_np_addr_to_in6(got.netperf_ip, a);
	if (little_endian_host()) {
		CHECK_MEM("tcp_rr_6", a, loop6, 16);
	} else {
		static const uint8_t swapped[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
		CHECK_MEM("tcp_rr_6", a, swapped, 16); /* netperf's own cross-endian behaviour */
	}
	uint32_t w[4];
	ws_np_addr_from_in6(a, w);
	CHECK_MEM("tcp_rr_6", w, got.netperf_ip, 16);
	/* IPv4: 127.0.0.1 is the word 0x7f000001, network order on the wire. */
	const uint8_t lo4[4] = {127, 0, 0, 1};
	uint8_t back[4];
	ws_np_addr_from_in4(lo4, w);
	CHECK_U64("in4", w[0], 0x7f000001u);
	CHECK_INT("in4", w[1] | w[2] | w[3], 0);
	ws_np_addr_to_in4(w, back);
	CHECK_MEM("in4", back, lo4, 4);
}

static void test_iterations_and_passphrase(void)
{
	capture c;
	ws_err err;
	if (load("tcp_rr_i3", &c) == 0 && c.n == 9) {
		for (int i = 0; i < 9; i += 3) {
			ws_np_omni_req r;
			CHECK_INT("tcp_rr_i3", c.dir[i], 'C');
			CHECK_INT("tcp_rr_i3", ws_np_decode_omni_req(c.m[i], &r, &err), 0);
			CHECK_INT("tcp_rr_i3", ws_np_type(c.m[i + 1]), WS_NP_OMNI_RESPONSE);
		}
	} else {
		CHECK("tcp_rr_i3", 0);
	}
	if (load("tcp_rr_Z", &c) == 0 && c.n == 4) {
		uint8_t out[WS_NP_MSG_LEN];
		char text[64];
		CHECK_INT("tcp_rr_Z", ws_np_encode_passphrase("sesame", out, &err), 0);
		CHECK_MEM("tcp_rr_Z", out, c.m[0], WS_NP_MSG_LEN);
		CHECK_INT("tcp_rr_Z", ws_np_decode_passphrase(c.m[0], text, sizeof(text), &err), 0);
		CHECK_STR("tcp_rr_Z", text, "sesame");
		CHECK_INT("tcp_rr_Z", ws_np_type(c.m[1]), WS_NP_DO_OMNI);
	} else {
		CHECK("tcp_rr_Z", 0);
	}
	/* A wrong passphrase: netserver closes without a reply, even to the next request. */
	if (load("passphrase_wrong", &c) == 0 && c.n == 3) {
		CHECK_INT("passphrase_wrong", c.dir[1], 'C');
		CHECK_INT("passphrase_wrong", c.dir[2], 'E');
	} else {
		CHECK("passphrase_wrong", 0);
	}
	/* Passphrase limits: 647 characters fit, 648 do not; an unterminated one is refused. */
	uint8_t m[WS_NP_MSG_LEN];
	char big[700], out[700];
	memset(big, 'p', sizeof(big));
	big[WS_NP_PASSPHRASE_MAX] = '\0';
	CHECK_INT("passphrase max", ws_np_encode_passphrase(big, m, &err), 0);
	CHECK_INT("passphrase max", ws_np_decode_passphrase(m, out, sizeof(out), &err), 0);
	CHECK_INT("passphrase max", strlen(out), WS_NP_PASSPHRASE_MAX);
	CHECK_INT("passphrase small out", ws_np_decode_passphrase(m, out, 8, &err), -WS_E_PROTO);
	CHECK_INT("passphrase small out", out[0], 0);
	big[WS_NP_PASSPHRASE_MAX] = 'p';
	big[WS_NP_PASSPHRASE_MAX + 1] = '\0';
	CHECK_INT("passphrase over", ws_np_encode_passphrase(big, m, &err), -WS_E_INVAL);
	memset(m + 8, 'x', WS_NP_MSG_LEN - 8);
	CHECK_INT("passphrase unterminated", ws_np_decode_passphrase(m, out, sizeof(out), &err),
		  -WS_E_PROTO);
	CHECK(err.msg, strstr(err.msg, "not terminated") != NULL);
}

static void test_misc_replies(void)
{
	capture c;
	ws_err err;
	uint8_t out[WS_NP_MSG_LEN];
	if (load("misc", &c) < 0 || c.n != 8) {
		CHECK("misc", 0);
		return;
	}
	/* NODE_IDENTIFY in a fresh child: type 0, serv_errno 998, every other byte zero. */
	ws_np_encode_error(0, WS_NP_ERRNO_UNKNOWN, out);
	CHECK_MEM("998 reply", out, c.m[1], WS_NP_MSG_LEN);
	/* SYSINFO: the text from byte 8; netserver's word 1 is a raw leftover (e6 03 00 00). */
	char text[128];
	ws_np_encode_sysinfo_reply(0, ",Deprecated,Deprecated,Deprecated,Deprecated", out);
	CHECK_MEM("sysinfo", out, c.m[3], 4);
	CHECK_MEM("sysinfo", out + 8, c.m[3] + 8, WS_NP_MSG_LEN - 8);
	CHECK_INT("sysinfo", ws_np_decode_sysinfo_reply(c.m[3], text, sizeof(text), &err), 0);
	CHECK_STR("sysinfo", text, ",Deprecated,Deprecated,Deprecated,Deprecated");
	/* CPU_CALIBRATE: f32 100.0 at 8 and the CPU count at 12, all converted; netserver
	 * left the earlier 998 in word 1, which a client must take as an error. */
	float rate;
	int32_t n;
	static const uint8_t hundred[4] = {0x42, 0xc8, 0, 0};
	CHECK_MEM("calibrate", c.m[5] + 8, hundred, 4);
	CHECK_INT("calibrate", ws_np_decode_calibrate_reply(c.m[5], &rate, &n, &err), -WS_E_REMOTE);
	int32_t ncpu = (int32_t)ws_get_be32(c.m[5] + 12);
	ws_np_encode_calibrate_reply(100.0f, ncpu, out);
	CHECK_MEM("calibrate", out, c.m[5], 4);
	CHECK_MEM("calibrate", out + 8, c.m[5] + 8, 8);
	CHECK_INT("calibrate", ws_np_decode_calibrate_reply(out, &rate, &n, &err), 0);
	CHECK_DBL("calibrate", rate, 100.0, 0);
	CHECK_INT("calibrate", n, ncpu);
	ws_np_encode_calibrate_reply(NAN, 2, out);
	CHECK_INT("calibrate nan", ws_np_decode_calibrate_reply(out, &rate, &n, &err), -WS_E_PROTO);
	ws_np_encode_calibrate_reply(100.0f, 0, out);
	CHECK_INT("calibrate 0 cpus", ws_np_decode_calibrate_reply(out, &rate, &n, &err),
		  -WS_E_PROTO);
	/* An unknown type (1234): 998 again, the connection still answering. */
	CHECK_INT("unknown", ws_np_word1(c.m[7]), WS_NP_ERRNO_UNKNOWN);
	CHECK_INT("conv", ws_np_conv_words(WS_NP_DO_OMNI), 40);
	CHECK_INT("conv", ws_np_conv_words(WS_NP_OMNI_RESPONSE), 20);
	CHECK_INT("conv", ws_np_conv_words(WS_NP_OMNI_RESULTS), 29);
	CHECK_INT("conv", ws_np_conv_words(WS_NP_PASSPHRASE), 2);
	CHECK_INT("conv", ws_np_conv_words(WS_NP_CPU_CALIBRATE), 164);
	CHECK("legacy", ws_np_is_legacy_request(10) && ws_np_is_legacy_request(94) &&
			       !ws_np_is_legacy_request(97) && !ws_np_is_legacy_request(11));
	CHECK_STR("name", ws_np_type_name(13), "DO_TCP_RR");
	CHECK_STR("name", ws_np_type_name(-5), "unknown");
}

/* TCP_SENDFILE: netperf 2.7.0 sends the legacy DO_TCP_STREAM, every word converted. */
static void test_legacy_stream(void)
{
	static const struct {
		const char *name;
		int32_t sbuf, rbuf, rsize, cpu;
	} t[] = {
		{"tcp_sendfile", -1, -1, 0, 0},
		/* -c -C -- -m 32K -M 64K -s 96K -S 48K: -S sets both remote buffers */
		{"tcp_sendfile_cC", 49152, 49152, 65536, 1},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		capture c;
		ws_err err;
		uint8_t out[WS_NP_MSG_LEN];
		if (load(t[i].name, &c) < 0 || c.n != 3) {
			CHECK(t[i].name, 0);
			continue;
		}
		ws_np_stream_req want = {.cpu = -1, .send_buf_size = t[i].sbuf, .recv_buf_size = t[i].rbuf,
					 .receive_size = t[i].rsize, .recv_alignment = 8,
					 .measure_cpu = t[i].cpu, .test_length = 1, .ipfamily = 4};
		ws_np_stream_req got;
		CHECK_INT(t[i].name, ws_np_type(c.m[0]), WS_NP_DO_TCP_STREAM);
		CHECK_INT(t[i].name, ws_np_decode_stream_req(c.m[0], &got, &err), 0);
		ws_np_encode_stream_req(&want, out);
		CHECK_MEM(t[i].name, out, c.m[0], WS_NP_MSG_LEN);
		ws_np_stream_rsp rsp;
		CHECK_INT(t[i].name, ws_np_decode_stream_rsp(c.m[1], &rsp, &err), 0);
		ws_np_encode_stream_rsp(&rsp, out);
		CHECK_MEM(t[i].name, out, c.m[1], WS_NP_MSG_LEN);
		CHECK(t[i].name, rsp.data_port > 0);
		CHECK_INT(t[i].name, rsp.measure_cpu, t[i].cpu);
		ws_np_stream_results res;
		CHECK_INT(t[i].name, ws_np_decode_stream_results(c.m[2], &res, &err), 0);
		ws_np_encode_stream_results(&res, out);
		CHECK_MEM(t[i].name, out + 4, c.m[2] + 4, WS_NP_MSG_LEN - 4);
		CHECK(t[i].name, res.bytes_received > 1e6 && res.recv_calls > 0);
		CHECK(t[i].name, res.elapsed_time > 0.9f && res.elapsed_time < 1.5f);
		if (t[i].cpu) {
			CHECK_INT(t[i].name, rsp.recv_buf_size, 2 * 49152); /* Linux doubles it */
			CHECK_INT(t[i].name, rsp.receive_size, 65536);
			CHECK_DBL(t[i].name, rsp.cpu_rate, 100.0, 0);
			CHECK_INT(t[i].name, res.cpu_method, WS_NP_CPU_PROC_STAT);
			CHECK(t[i].name, res.num_cpus >= 1 && res.cpu_util > 0 && res.cpu_util <= 100);
		}
	}
	uint8_t m[WS_NP_MSG_LEN];
	ws_np_stream_results r = {.bytes_received = -1.0}, back;
	ws_err err;
	ws_np_encode_stream_results(&r, m);
	CHECK_INT("stream results negative", ws_np_decode_stream_results(m, &back, &err), -WS_E_PROTO);
	ws_np_stream_req q = {.data_port = 70000};
	ws_np_encode_stream_req(&q, m);
	ws_np_stream_req got_q;
	CHECK_INT("stream port", ws_np_decode_stream_req(m, &got_q, &err), -WS_E_PROTO);
}

/* Hostile values: each refused with a message naming the value and what is accepted. */
static void test_range_checks(void)
{
	ws_np_omni_req r, got;
	uint8_t m[WS_NP_MSG_LEN];
	ws_err err;
	base_req(&r, 1, 6, 4, -1, -1, 0x20, 1, 40000);
	ws_np_encode_omni_req(&r, m);
	CHECK_INT("ok", ws_np_decode_omni_req(m, &got, &err), 0);

	ws_put_be32(m + 88, 65536);
	CHECK_INT("port", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	CHECK(err.msg, strstr(err.msg, "65536") && strstr(err.msg, "0..65535"));
	ws_np_encode_omni_req(&r, m);
	ws_put_be32(m + 108, 0xffffffffu);
	CHECK_INT("client port", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_np_encode_omni_req(&r, m);
	ws_put_be32(m + 60, 0x7fc00000u); /* NaN */
	CHECK_INT("rate nan", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_put_be32(m + 60, 0xbf800000u); /* -1.0 */
	CHECK_INT("rate neg", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_np_encode_omni_req(&r, m);
	ws_put_be32(m + 64, 0x80000000u);
	CHECK_INT("length", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_np_encode_omni_req(&r, m);
	ws_put_be32(m + 92, 5);
	CHECK_INT("family", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_np_encode_omni_req(&r, m);
	ws_put_be32(m + 104, 8);
	CHECK_INT("direction", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_put_be32(m + 104, 0);
	CHECK_INT("direction 0", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	ws_np_encode_omni_req(&r, m);
	ws_put_be32(m, WS_NP_OMNI_RESPONSE);
	CHECK_INT("type", ws_np_decode_omni_req(m, &got, &err), -WS_E_PROTO);
	CHECK(err.msg, strstr(err.msg, "OMNI_RESPONSE") != NULL);

	/* Strings filled to the brim come out truncated and terminated. */
	ws_np_encode_omni_req(&r, m);
	memset(m + 160, 'c', 16 + 32);
	CHECK_INT("strings", ws_np_decode_omni_req(m, &got, &err), 0);
	CHECK_INT("strings", strlen(got.cong_control), 15);
	CHECK_INT("strings", strlen(got.fill_file), 31);
	ws_np_omni_results res;
	memset(m, 0xff, sizeof(m));
	CHECK_INT("results", ws_np_decode_omni_results(m, &res, &err), 0);
	CHECK_INT("results", strlen(res.cong_control), 15);
	CHECK_INT("results", strlen(res.bus), 31);
	CHECK_U64("results", res.bytes_received, UINT64_MAX);
	CHECK_INT("results cpu", ws_np_results_check_cpu(&res, &err), -WS_E_PROTO);
	ws_np_omni_rsp rsp;
	memset(m, 0, sizeof(m));
	ws_put_be32(m, WS_NP_OMNI_RESPONSE);
	ws_put_be32(m + 52, 70000);
	CHECK_INT("rsp port", ws_np_decode_omni_rsp(m, &rsp, &err), -WS_E_PROTO);
	ws_put_be32(m + 4, 13); /* an error reply: serv_errno is all that counts */
	CHECK_INT("rsp errno", ws_np_decode_omni_rsp(m, &rsp, &err), 0);
	CHECK_INT("rsp errno", rsp.serv_errno, 13);
	memset(m, 0xff, sizeof(m));
	ws_put_be32(m, WS_NP_OMNI_RESPONSE);
	ws_put_be32(m + 4, 0);
	ws_put_be32(m + 52, 1);
	CHECK_INT("rsp strings", ws_np_decode_omni_rsp(m, &rsp, &err), -WS_E_PROTO); /* NaN rate */
	CHECK_INT("rsp strings", strlen(rsp.cpu_model), 79);
	CHECK_INT("rsp strings", strlen(rsp.system_model), 32);
}

/* The reader: a message in pieces, two messages in one write, a short message then EOF. */
static void test_reader(void)
{
	int sv[2];
	ws_np_reader rd;
	ws_err err;
	uint8_t a[WS_NP_MSG_LEN], two[2 * WS_NP_MSG_LEN];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
		CHECK("socketpair", 0);
		return;
	}
	ws_np_encode_error(0, WS_NP_ERRNO_UNKNOWN, a);
	ws_np_reader_init(&rd);
	CHECK_INT("reader empty", ws_np_reader_read(&rd, sv[0], &err), 0);
	CHECK_INT("reader", write(sv[1], a, 100), 100);
	CHECK_INT("reader part", ws_np_reader_read(&rd, sv[0], &err), 0);
	CHECK_INT("reader", write(sv[1], a + 100, WS_NP_MSG_LEN - 100), WS_NP_MSG_LEN - 100);
	CHECK_INT("reader whole", ws_np_reader_read(&rd, sv[0], &err), 1);
	CHECK_MEM("reader whole", rd.buf, a, WS_NP_MSG_LEN);
	ws_np_encode_calibrate_reply(1.0f, 3, two);
	ws_np_encode_error(7, 8, two + WS_NP_MSG_LEN);
	CHECK_INT("reader", write(sv[1], two, sizeof(two)), (int)sizeof(two));
	CHECK_INT("reader first", ws_np_reader_read(&rd, sv[0], &err), 1);
	CHECK_INT("reader first", ws_np_type(rd.buf), WS_NP_CPU_CALIBRATE);
	CHECK_INT("reader second", ws_np_reader_read(&rd, sv[0], &err), 1);
	CHECK_INT("reader second", ws_np_type(rd.buf), 7);
	ws_np_reader_prime(&rd, a, 4);
	CHECK_INT("reader", write(sv[1], a + 4, 10), 10);
	close(sv[1]);
	CHECK_INT("reader eof", ws_np_reader_read(&rd, sv[0], &err), -ECONNRESET);
	CHECK(err.msg, strstr(err.msg, "after 14 bytes of a 656-byte message") != NULL);
	close(sv[0]);
}

int main(void)
{
	RUN(test_tcp_rr);
	RUN(test_tcp_rr_options);
	RUN(test_each_test);
	RUN(test_udp_stream_count);
	RUN(test_ipv6_words);
	RUN(test_iterations_and_passphrase);
	RUN(test_misc_replies);
	RUN(test_legacy_stream);
	RUN(test_range_checks);
	RUN(test_reader);
	TEST_MAIN_END();
}
