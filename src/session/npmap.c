/* SPDX-License-Identifier: BSD-2-Clause */
/* npmap: spec to DO_OMNI request, response and results to the remote side; see npmap.h. */
#include "session/npmap.h"

#include "model/testtype.h"
#include "util/err.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

/* The longest elapsed time believed from a peer: a day past netperf's own limits. */
#define MAX_ELAPSED_S 1e7

int ws_npmap_check(const ws_test_spec *s, ws_err *err)
{
	bool remote_sends = ws_test_type_role(s->type, false) == WS_ROLE_SENDER;
	bool remote_receives = !remote_sends && !ws_test_type_transacts(s->type);
	const struct {
		bool on;
		const char *what;
	} rows[] = {
		{s->streams > 1 && ws_test_type_connects(s->type),
		 "--streams with TCP_CRR or TCP_CC (one data port for all flows)"},
		{s->remote_cpus[0] != 0, "--remote-cpus"},
		{s->remote_threads > 1,
		 "--threads L,R with R above 1 (netserver serves each connection in a process of "
		 "its own)"},
		{s->zerocopy && remote_sends, "--zerocopy on the daemon's (sending) side"},
		{s->skip_rx_copy && remote_receives,
		 "--skip-rx-copy on the daemon's (receiving) side"},
		{s->splice && remote_receives, "--splice on the daemon's (receiving) side"},
		{s->rcvlowat && remote_receives, "--rcvlowat on the daemon's (receiving) side"},
		{s->gro, "--gro (the daemon receives)"},
		{s->udp_flow_control, "--flow-control (the receiver's reports)"},
		{s->rate > 0 && s->type == WS_TEST_UDP_RR, "--rate with UDP_RR (tagged replies)"},
		{s->end != WS_END_TIME && s->end_count > INT32_MAX,
		 "-l -N beyond 2147483647 (netperf's 32-bit length)"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].on)
			return ws_err_set(err, WS_E_PEER,
					  "%s needs a warpspeed daemon (warpspeed serve); the peer "
					  "is a stock netserver",
					  rows[i].what);
	return 0;
}

static void addr_words(const ws_addr *a, uint32_t w[4])
{
	memset(w, 0, 4 * sizeof(w[0]));
	if (!a)
		return;
	if (a->ss.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&a->ss;
		ws_np_addr_from_in4((const uint8_t *)&in->sin_addr, w);
	} else if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->ss;
		ws_np_addr_from_in6(in6->sin6_addr.s6_addr, w);
	}
}

static int32_t size_or_default(uint32_t v)
{
	return v == WS_SOCKBUF_ZERO ? 0 : v && v <= INT32_MAX ? (int32_t)v : -1;
}

void ws_npmap_request(const ws_test_spec *s, int family, const ws_addr *client,
		      const ws_addr *data_host, ws_np_omni_req *r)
{
	ws_np_omni_req_defaults(r);
	bool udp = ws_test_type_udp(s->type), rr = ws_test_type_transacts(s->type);
	r->cpu = s->remote.cpu >= 0 ? s->remote.cpu : -1;
	r->send_buf_size = size_or_default(s->remote.sndbuf);
	r->recv_buf_size = size_or_default(s->remote.rcvbuf);
	/* -m and -M size the side that sends or receives, whichever end that is; netperf sends
	 * -1 for the daemon's role it does not play (and for TCP_MAERTS keeps -m to itself, so
	 * that there a netserver sends its default size while warpspeed's -m sets it). */
	enum ws_role daemon = ws_test_type_role(s->type, false);
	if (!rr && daemon == WS_ROLE_SENDER)
		r->send_size = (uint32_t)size_or_default(s->send_size);
	if (!rr && daemon == WS_ROLE_RECEIVER)
		r->receive_size = (uint32_t)size_or_default(s->recv_size);
	r->request_size = rr ? size_or_default(s->req_size) : -1;
	r->response_size = rr ? size_or_default(s->rsp_size) : -1;
	/* A TCP_CRR with an empty half is netperf's -c on a stream test: sent as netperf sends
	 * it, a connection test in one direction (the netserver reads or writes one message
	 * per connection, then closes) */
	bool one_way = s->type == WS_TEST_TCP_CRR && (s->req_size == 0 || s->rsp_size == 0);
	if (one_way) {
		daemon = s->req_size ? WS_ROLE_RECEIVER : WS_ROLE_SENDER;
		rr = false;
		r->request_size = r->response_size = -1;
		if (daemon == WS_ROLE_SENDER)
			r->send_size = s->rsp_size;
	}
	uint32_t f = 0;
	if (!s->dontroute && !(s->type == WS_TEST_UDP_STREAM && !s->udp_route))
		f |= WS_NP_F_ROUTING;
	if (s->nodelay)
		f |= WS_NP_F_NODELAY;
	if (ws_test_type_family(s->type) == WS_TF_CRR)
		f |= WS_NP_F_CONNECT_TEST;
	if (s->remote.measure_cpu)
		f |= WS_NP_F_MEASURE_CPU;
	if (s->keepalive && !udp)
		f |= WS_NP_F_KEEPALIVE;
	r->flags = f;
	r->cpu_rate = 0.0f;
	if (s->end == WS_END_TIME) {
		double len = ceil(s->duration_s);
		r->test_length = len < 1 ? 1 : len > INT32_MAX ? INT32_MAX : (int32_t)len;
	} else {
		r->test_length = -(int32_t)(s->end_count > INT32_MAX ? INT32_MAX : s->end_count);
	}
	/* one way, a count is of bytes to the netserver, as netperf's -l -bytes on a stream */
	uint64_t msg = (uint64_t)s->req_size + s->rsp_size;
	if (one_way && s->end != WS_END_TIME)
		r->test_length = s->end_count * msg > INT32_MAX ? -INT32_MAX
								: -(int32_t)(s->end_count * msg);
	r->data_port = s->remote.data_port;
	r->ipfamily = family == 6 ? 6 : 4;
	r->socket_type = udp ? WS_NP_SOCK_DGRAM : WS_NP_SOCK_STREAM;
	r->protocol = udp ? IPPROTO_UDP : IPPROTO_TCP;
	r->direction = rr                  ? (WS_NP_DIR_SEND | WS_NP_DIR_RECV)
		: daemon == WS_ROLE_SENDER ? WS_NP_DIR_SEND
					   : WS_NP_DIR_RECV;
	r->netperf_port = client ? ws_addr_port(client) : 0;
	addr_words(client, r->netperf_ip);
	addr_words(data_host, r->netserver_ip);
	r->socket_prio = s->remote.priority ? s->remote.priority : -1;
	r->socket_tos = s->remote.tos ? s->remote.tos : -1;
	snprintf(r->cong_control, sizeof(r->cong_control), "%s", s->remote.cong);
}

static uint32_t nonneg(int32_t v) { return v > 0 ? (uint32_t)v : 0; }

int ws_npmap_response(const ws_np_omni_rsp *rsp, const ws_test_spec *s, ws_side_result *remote,
		      ws_err *err)
{
	if (rsp->serv_errno != 0)
		return ws_err_set(
			err, WS_E_REMOTE, "the netserver refused the test: its error %d (%s)",
			(int)rsp->serv_errno,
			rsp->serv_errno > 0 && rsp->serv_errno < 4096 ? strerror(rsp->serv_errno)
								      : "not an errno");
	if (rsp->data_port == 0 || rsp->data_port > 65535)
		return ws_err_set(
			err, WS_E_PROTO,
			"the netserver's OMNI response names data port %u; expected 1 to 65535",
			(unsigned)rsp->data_port);
	remote->sndbuf_req = s->remote.sndbuf;
	remote->rcvbuf_req = s->remote.rcvbuf;
	remote->rcvbuf_set = nonneg(rsp->recv_buf_size);
	remote->sndbuf_set = nonneg(rsp->send_buf_size);
	remote->recv_size = nonneg(rsp->receive_size);
	remote->send_size = nonneg(rsp->send_size);
	remote->cpu_bound_to = s->remote.cpu; /* netserver pins whenever asked (word 1) */
	remote->sd_local_basis = true;        /* netperf's rule for the daemon's service demand */
	remote->tos_set = s->remote.tos ? s->remote.tos : -1;
	remote->priority_set = s->remote.priority ? s->remote.priority : -1;
	return 0;
}

static bool plausible_pct(float v) { return isfinite(v) && v >= -0.5f && v <= 100.5f; }

static double clamp_pct(float v) { return v < 0 ? 0.0 : v > 100 ? 100.0 : (double)v; }

char ws_npmap_cpu_method(uint32_t method)
{
	/* netperf's numbering (netlib) and the letters its tables print */
	static const char letters[] = "UIPTLRNKSCEMO";
	return method < sizeof(letters) - 1 ? letters[method] : 'U';
}

int ws_npmap_results(const ws_np_omni_results *res, const ws_test_spec *s, bool cpu_echoed,
		     ws_side_result *remote, ws_err *err)
{
	if (res->serv_errno != 0)
		return ws_err_set(err, WS_E_REMOTE,
				  "the netserver reported its error %d (%s) at the end of the test",
				  (int)res->serv_errno,
				  res->serv_errno > 0 && res->serv_errno < 4096
					  ? strerror(res->serv_errno)
					  : "not an errno");
	remote->bytes_recv = res->bytes_received;
	remote->recv_calls = res->recv_calls;
	remote->bytes_sent = res->bytes_sent;
	remote->send_calls = res->send_calls;
	remote->recv_syscalls = res->recv_calls; /* netserver moves one message per call */
	remote->send_syscalls = res->send_calls;
	remote->rcvbuf_end = nonneg(res->recv_buf_size);
	remote->sndbuf_end = nonneg(res->send_buf_size);
	if (ws_test_type_transacts(s->type))
		remote->transactions = res->trans_received;
	if (ws_test_type_connects(
		    s->type)) /* netserver's connect test: a connection per transaction */
		remote->connects = res->trans_received;
	if (s->type == WS_TEST_UDP_STREAM)
		remote->dgrams_recv = res->recv_calls;
	double el = res->elapsed_time;
	remote->elapsed_ns =
		isfinite(el) && el > 0 && el <= MAX_ELAPSED_S ? (int64_t)(el * 1e9) : 0;
	snprintf(remote->cong_set, sizeof(remote->cong_set), "%s", res->cong_control);
	if (res->transport_retrans >= 0) { /* -1: UDP, TCP_CRR, or not known */
		remote->tcp_retrans = (uint64_t)res->transport_retrans;
		remote->tcp_retrans_valid = true;
	}
	remote->cpu_measured = false;
	remote->cpu_util = remote->cpu_user = remote->cpu_system = remote->cpu_softirq = -1.0;
	remote->cpu_method = ws_npmap_cpu_method(res->cpu_method);
	if (cpu_echoed && ws_np_results_check_cpu(res, NULL) == 0 && plausible_pct(res->cpu_util) &&
	    plausible_pct(res->cpu_user) && plausible_pct(res->cpu_system) &&
	    plausible_pct(res->cpu_softirq)) {
		remote->cpu_measured = true;
		remote->cpu_util = clamp_pct(res->cpu_util);
		remote->cpu_user = clamp_pct(res->cpu_user);
		remote->cpu_system = clamp_pct(res->cpu_system);
		remote->cpu_softirq = clamp_pct(res->cpu_softirq);
		remote->ncpus = res->num_cpus;
	}
	return 0;
}

void ws_npmap_merge(ws_side_result *into, const ws_side_result *flow, const ws_test_spec *s,
		    uint32_t i)
{
	if (i == 0) {
		ws_flow_result *keep = into->flows;
		uint32_t n = into->nflows;
		*into = *flow;
		into->flows = keep;
		into->nflows = n;
	} else {
		into->bytes_sent += flow->bytes_sent;
		into->bytes_recv += flow->bytes_recv;
		into->send_calls += flow->send_calls;
		into->recv_calls += flow->recv_calls;
		into->transactions += flow->transactions;
		into->connects += flow->connects;
		into->dgrams_recv += flow->dgrams_recv;
		into->tcp_retrans += flow->tcp_retrans;
		into->tcp_retrans_valid = into->tcp_retrans_valid && flow->tcp_retrans_valid;
		if (flow->elapsed_ns > into->elapsed_ns)
			into->elapsed_ns = flow->elapsed_ns;
		/* every netserver child measured the same host: their mean */
		if (into->cpu_measured && flow->cpu_measured) {
			into->cpu_util = (into->cpu_util * i + flow->cpu_util) / (i + 1);
			into->cpu_user = (into->cpu_user * i + flow->cpu_user) / (i + 1);
			into->cpu_system = (into->cpu_system * i + flow->cpu_system) / (i + 1);
			into->cpu_softirq = (into->cpu_softirq * i + flow->cpu_softirq) / (i + 1);
		} else if (into->cpu_measured) {
			into->cpu_measured = false;
			into->cpu_util = into->cpu_user = into->cpu_system = into->cpu_softirq =
				-1.0;
		}
	}
	if (i < into->nflows) {
		bool sends = ws_test_type_role(s->type, false) == WS_ROLE_SENDER;
		ws_flow_result *f = &into->flows[i];
		memset(f, 0, sizeof(*f));
		f->bytes = sends ? flow->bytes_sent : flow->bytes_recv;
		f->calls = sends ? flow->send_calls : flow->recv_calls;
		f->elapsed_ns = flow->elapsed_ns;
		f->thread = i; /* a netserver child per flow */
		f->transactions = flow->transactions;
	}
}
