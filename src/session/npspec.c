/* SPDX-License-Identifier: BSD-2-Clause */
/* npspec: netperf's test requests as warpspeed specs; see npspec.h. */
#include "session/npspec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

static void addr_words_text(const uint32_t w[4], uint32_t family, char *out, size_t n)
{
	uint8_t a[16];
	out[0] = '\0';
	if (!(w[0] | w[1] | w[2] | w[3]))
		return;
	if (family == 6) {
		ws_np_addr_to_in6(w, a);
		inet_ntop(AF_INET6, a, out, (socklen_t)n);
	} else {
		ws_np_addr_to_in4(w, a);
		inet_ntop(AF_INET, a, out, (socklen_t)n);
	}
}

/* The spec fields both request kinds share. */
static void common_spec(ws_test_spec *sp, int32_t cpu, int32_t sndbuf, int32_t rcvbuf,
			int32_t length, bool measure, uint32_t port, uint32_t family)
{
	ws_test_spec_init(sp);
	sp->remote.cpu = cpu;
	/* netperf sends -1 for the system default and 0 for -S 0 (set 0). */
	sp->remote.sndbuf = sndbuf > 0 ? (uint32_t)sndbuf : sndbuf == 0 ? WS_SOCKBUF_ZERO : 0;
	sp->remote.rcvbuf = rcvbuf > 0 ? (uint32_t)rcvbuf : rcvbuf == 0 ? WS_SOCKBUF_ZERO : 0;
	sp->remote.measure_cpu = measure;
	sp->remote.data_port = (uint16_t)port;
	sp->family = family == 4 ? WS_FAMILY_INET : family == 6 ? WS_FAMILY_INET6 : WS_FAMILY_ANY;
	/* A stock netperf compares its figures with a netserver's, so the TCP receiver wakes
	 * as netserver's does (the kernel's default), not at warpspeed's automatic threshold,
	 * which raises loopback TCP_STREAM above netserver's (docs/benchmarks.md) */
	sp->rcvlowat = 1;
	sp->end = WS_END_TIME;
	sp->duration_s = length > 0 ? (double)length : 0; /* 0: the caller sets the limit */
	if (length < 0) { /* a count test; INT32_MIN was refused by the codec */
		sp->end = WS_END_BYTES;
		sp->end_count = (uint64_t)(-(int64_t)length);
	}
}

/* A size netperf sends as u32 with 0xffffffff for "default": 0 here. */
static uint32_t size_or_default(uint32_t v) { return v == 0xffffffffu ? 0 : v; }

int ws_npspec_from_omni(const ws_np_omni_req *r, ws_np_test *t, ws_err *err)
{
	memset(t, 0, sizeof(*t));
	ws_test_spec *sp = &t->spec;
	common_spec(sp, r->cpu, r->send_buf_size, r->recv_buf_size, r->test_length,
		    (r->flags & WS_NP_F_MEASURE_CPU) != 0, r->data_port, r->ipfamily);
	t->flags = r->flags;
	t->cpu_rate = r->cpu_rate;
	t->send_width = r->send_width;
	t->recv_width = r->recv_width;
	t->send_size_asked = r->send_size;
	t->recv_size_asked = r->receive_size;
	t->client_port = (uint16_t)r->netperf_port;
	addr_words_text(r->netperf_ip, r->ipfamily, t->client_ip, sizeof(t->client_ip));
	addr_words_text(r->netserver_ip, r->ipfamily, sp->data_host, sizeof(sp->data_host));
	if (r->ipfamily == 7)
		return ws_err_set(err, EAFNOSUPPORT,
				  "address family 7 (RDS) is not supported; 0, 4 or 6 is");
	bool udp = r->socket_type == WS_NP_SOCK_DGRAM;
	if ((r->socket_type != WS_NP_SOCK_STREAM && !udp) ||
	    (r->protocol != 0 && r->protocol != (udp ? IPPROTO_UDP : IPPROTO_TCP)))
		return ws_err_set(err, EPROTONOSUPPORT,
				  "socket type %u protocol %u is not supported; TCP (1, 6) and UDP "
				  "(2, 17) are",
				  (unsigned)r->socket_type, (unsigned)r->protocol);
	bool rr = r->direction == (WS_NP_DIR_SEND | WS_NP_DIR_RECV);
	if (rr && (r->request_size < 1 || r->response_size < 1))
		return ws_err_set(err, EINVAL,
				  "request/response sizes %ld,%ld; at least 1 each is accepted",
				  (long)r->request_size, (long)r->response_size);
	/* netserver's direction is the client's reversed: it receives what the client sends */
	char dir = rr ? 'b' : r->direction == WS_NP_DIR_RECV ? 's' : 'r';
	if (r->flags & WS_NP_F_CONNECT_TEST)
		sp->type = udp || !rr ? 0 : WS_TEST_TCP_CRR;
	else if (ws_test_type_from_omni(dir, udp, &sp->type) < 0)
		sp->type = 0;
	if (!sp->type)
		return ws_err_set(
			err, EOPNOTSUPP, "a %s test with direction 0x%x%s is not supported",
			udp ? "UDP" : "TCP", (unsigned)r->direction,
			(r->flags & WS_NP_F_CONNECT_TEST) ? " and a connection per transaction"
							  : "");
	if (rr) {
		sp->req_size = (uint32_t)r->request_size;
		sp->rsp_size = (uint32_t)r->response_size;
		if (sp->end == WS_END_BYTES)
			sp->end = WS_END_TRANSACTIONS;
	} else {
		sp->send_size = size_or_default(r->send_size);
		sp->recv_size = size_or_default(r->receive_size);
	}
	sp->nodelay = (r->flags & WS_NP_F_NODELAY) != 0;
	sp->keepalive = (r->flags & WS_NP_F_KEEPALIVE) != 0;
	sp->udp_route = (r->flags & WS_NP_F_ROUTING) != 0;
	/* netperf's -R 0 (UDP_STREAM's default): netserver sets SO_DONTROUTE on its side too */
	sp->dontroute = !sp->udp_route && sp->type != WS_TEST_UDP_STREAM;
	sp->remote.tos = r->socket_tos > 0 ? r->socket_tos : 0;
	sp->remote.priority = r->socket_prio > 0 ? r->socket_prio : 0;
	snprintf(sp->remote.cong, sizeof(sp->remote.cong), "%s", r->cong_control);
	return 0;
}

int ws_npspec_from_legacy(const ws_np_stream_req *r, ws_np_test *t)
{
	memset(t, 0, sizeof(*t));
	ws_test_spec *sp = &t->spec;
	/* netperf 2.7.0 sends TCP_SENDFILE's length as seconds for -l N and as the byte count
	 * itself, positive, for -l -N, so the word cannot be read either way; netserver's
	 * receiver does not read it and receives until the sender closes. So does this one
	 * (length 0), under the daemon's --max-duration. */
	common_spec(sp, r->cpu, r->send_buf_size, r->recv_buf_size, 0, r->measure_cpu != 0,
		    r->data_port, r->ipfamily);
	t->legacy = true;
	t->cpu_rate = r->cpu_rate;
	sp->type = WS_TEST_TCP_STREAM; /* TCP_SENDFILE's receiver is TCP_STREAM's */
	sp->recv_size = r->receive_size > 0 ? (uint32_t)r->receive_size : 0;
	sp->nodelay = r->no_delay != 0;
	t->flags = (r->no_delay ? WS_NP_F_NODELAY : 0) | (r->measure_cpu ? WS_NP_F_MEASURE_CPU : 0);
	return 0;
}

int ws_npspec_from_cc(const ws_np_cc_req *r, ws_np_test *t)
{
	memset(t, 0, sizeof(*t));
	ws_test_spec *sp = &t->spec;
	common_spec(sp, r->cpu, r->send_buf_size, r->recv_buf_size, r->test_length,
		    r->measure_cpu != 0, r->data_port, r->ipfamily);
	t->cc = true;
	t->cpu_rate = r->cpu_rate;
	sp->type = WS_TEST_TCP_CC;
	if (sp->end == WS_END_BYTES)
		sp->end = WS_END_TRANSACTIONS;
	sp->req_size = r->request_size > 0 ? (uint32_t)r->request_size : 1; /* shown, never sent */
	sp->rsp_size = r->response_size > 0 ? (uint32_t)r->response_size : 1;
	sp->nodelay = r->no_delay != 0;
	t->flags = (r->no_delay ? WS_NP_F_NODELAY : 0) | (r->measure_cpu ? WS_NP_F_MEASURE_CPU : 0);
	return 0;
}
