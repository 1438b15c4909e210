/* SPDX-License-Identifier: BSD-2-Clause */
/* wsserve: a warpspeed client's session on the daemon; see wsserve.h. */
#include "session/wsserve.h"
#include "util/version.h"

#include "ctl/channel.h"
#include "ctl/msg.h"
#include "measure/cpu.h"
#include "model/lul.h"
#include "net/addr.h"
#include "net/mptcp.h"
#include "net/sock.h"
#include "net/sockopt.h"
#include "session/budget.h"
#include "session/ctlwatch.h"
#include "session/daemon_state.h"
#include "session/dataaccept.h"
#include "session/dmetrics.h"
#include "session/echoports.h"
#include "session/policy.h"
#include "session/slog.h"
#include "session/test_limits.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/run.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

#define DATA_CONNECT_TIMEOUT_NS (10 * WS_NS_PER_SEC)
/* Long enough for the client's -s wait (at most WS_MAX_START_WAIT_S) before START. */
#define START_TIMEOUT_NS ((WS_MAX_START_WAIT_S + 10) * WS_NS_PER_SEC)
#define SEND_TIMEOUT_NS  (5 * WS_NS_PER_SEC)
/* TCP_CC sends no end marker (a connection is a transaction): past the test's end, this
 * long without a new connection ends the daemon's side. */
#define CC_IDLE_END_NS (500 * WS_NS_PER_MS)
/* The accept queue of TCP_CRR's and TCP_CC's data listener (a connection per
 * transaction): as deep as the control listener's (daemon.c), so no SYN is dropped. */
#define CRR_BACKLOG 1024

/* --- one test -------------------------------------------------------------------- */

static void make_cookie(uint8_t *c)
{
	if (getrandom(c, WS_COOKIE_LEN, GRND_NONBLOCK) == WS_COOKIE_LEN)
		return;
	uint64_t t = (uint64_t)ws_clock_ns() ^ ((uint64_t)getpid() << 32);
	for (int i = 0; i < WS_COOKIE_LEN; i++) {
		t = t * 6364136223846793005ULL + 1442695040888963407ULL;
		c[i] = (uint8_t)(t >> 56);
	}
}

static int send_error(ws_session *s, int code, const char *text)
{
	ws_msg_put_error(&s->ch.tx, code, text);
	return ws_channel_send(&s->ch, ws_clock_ns() + SEND_TIMEOUT_NS, NULL);
}

/* Accept the n data connections of this session: each from the control peer's address,
 * carrying the cookie and its flow index, read in parallel (session/dataaccept.h). */
static int accept_flows(ws_session *s, const ws_test_spec *spec, int lfd, const uint8_t *cookie,
			uint32_t n, int *fds, ws_err *err)
{
	int64_t deadline = ws_clock_ns() + DATA_CONNECT_TIMEOUT_NS + (int64_t)n * 10 * WS_NS_PER_MS;
	char want[64];
	ws_addr_format(&s->peer, want, sizeof(want));
	if (spec->data_local[0]) /* test option -L: the client's data come from there */
		snprintf(want, sizeof(want), "%s", spec->data_local);
	unsigned strangers = 0;
	int rc =
		ws_data_accept(lfd, want, cookie, n, fds, deadline, s->d->wake[0], &strangers, err);
	if (strangers)
		ws_slog(s, "%u connection%s to the data port closed without the session's cookie",
			strangers, strangers == 1 ? "" : "s");
	return rc;
}

static int wait_start(ws_session *s, ws_err *err)
{
	ws_tlv_msg m;
	int rc = ws_channel_recv(&s->ch, &m, ws_clock_ns() + START_TIMEOUT_NS, err);
	if (rc < 0)
		return rc;
	if (m.type != WS_MSG_START)
		return ws_err_set(err, WS_E_PROTO, "expected START, got %s",
				  ws_msg_type_name(m.type));
	ws_tlv_begin(&s->ch.tx, WS_MSG_STARTED);
	return ws_channel_send(&s->ch, ws_clock_ns() + SEND_TIMEOUT_NS, err);
}

static void set_data_fds(ws_session *s, int *fds, uint32_t n)
{
	pthread_mutex_lock(&s->d->mu);
	s->data_fds = fds;
	s->ndata = n;
	pthread_mutex_unlock(&s->d->mu);
}

/* The data sockets of one test, opened before TEST_ACK: a TCP listener (accepted sockets
 * inherit its buffers) whose port goes in TEST_ACK, or for UDP one socket per flow,
 * connected to the client's socket of that flow so that only its datagrams arrive. */
typedef struct data_setup {
	int lfd;  /* TCP listener, or -1 */
	int *fds; /* one per flow, -1 until open */
	uint32_t n;
	uint32_t ntcp; /* of which TCP connections to accept: n, or for RRUL n - 1, the last
	                * being the probes' UDP echo socket */
} data_setup;

static void close_setup(data_setup *d)
{
	if (d->lfd >= 0)
		close(d->lfd);
	for (uint32_t i = 0; d->fds && i < d->n; i++)
		if (d->fds[i] >= 0)
			close(d->fds[i]);
	free(d->fds);
	d->fds = NULL;
	d->lfd = -1;
}

static int open_udp_flows(ws_session *s, const ws_test_spec *spec, const ws_tlv_msg *req,
			  const ws_addr *local, data_setup *d, ws_side_result *res, ws_err *err)
{
	uint32_t snd, rcv;
	int force;
	ws_workload_buffers(spec, false, &snd, &rcv, &force);
	uint16_t *ports = calloc(d->n, sizeof(*ports));
	if (!ports)
		return ws_err_set(err, ENOMEM, "no memory for %u ports", d->n);
	int rc = ws_msg_get_ports(req, WS_F_CLIENT_PORT, ports, d->n);
	if (rc != (int)d->n)
		rc = ws_err_set(err, WS_E_PROTO,
				"a UDP test request needs one client port per stream (%u)", d->n);
	else
		rc = 0;
	ws_addr client = s->peer;
	if (ws_addr_family(local) == AF_INET) /* -- -H a.b.c.d, control on a dual-stack socket */
		ws_addr_unmap_v4(&client);
	if (rc == 0 && spec->data_local[0]) /* test option -L: the client's data address */
		rc = ws_addr_resolve(spec->data_local, 0, 0, 0, &client, err);
	if (rc == 0 && spec->data_local[0])
		rc = ws_daemon_check_udp_peer(s, &client, spec->data_local, err);
	for (uint32_t i = 0; rc == 0 && i < d->n; i++) {
		ws_addr mine = *local, peer = client;
		if (spec->remote.data_port)
			ws_addr_set_port(&mine, (uint16_t)(spec->remote.data_port + i));
		d->fds[i] = ws_sock_udp(&mine, snd, rcv, force, i ? NULL : &res->sndbuf_set,
					i ? NULL : &res->rcvbuf_set, NULL, err);
		rc = d->fds[i] < 0 ? d->fds[i] : 0;
		ws_addr_set_port(&peer, ports[i]);
		if (rc == 0)
			rc = ws_sock_udp_connect(d->fds[i], &peer, err);
	}
	free(ports);
	return rc;
}

/* The harness options (-Y -y -S -K -C remote values) on every data socket of the test,
 * logged as read back so that an operator (and the tests) can see what took effect. */
static int apply_sockopts(ws_session *s, const ws_test_spec *spec, const int *fds, uint32_t n,
			  ws_err *err)
{
	ws_sockopt_req r;
	ws_sockopt_applied a;
	ws_workload_sockopts(spec, false, &r);
	bool asked = r.tos > 0 || r.priority > 0 || r.keepalive || r.cork || r.dontroute ||
		(r.cong && r.cong[0]);
	for (uint32_t i = 0; asked && i < n; i++) {
		int rc = ws_sockopt_apply(fds[i], &r, i ? NULL : &a, err);
		if (rc < 0) {
			ws_err_prefix(err, "remote data socket");
			return rc;
		}
	}
	if (asked && n) {
		char what[160];
		ws_sockopt_describe(&a, what, sizeof(what));
		ws_slog(s, "data socket options: %s", what);
	}
	return 0;
}

static int open_data(ws_session *s, const ws_test_spec *spec, const ws_tlv_msg *req, data_setup *d,
		     ws_side_result *res, ws_err *err)
{
	ws_addr local;
	ws_sock_local_addr(s->ch.fd, &local);
	if (spec->data_host[0]) { /* test option -H: this daemon's data address */
		int arc = ws_addr_resolve(spec->data_host, 0, 0, 0, &local, err);
		if (arc < 0)
			return arc;
	} else if (spec->mptcp && !ws_test_type_udp(spec->type)) {
		/* A peer joins further subflows to this host's other addresses (ADD_ADDR), and a
		 * join needs a listener on the address it arrives at: the wildcard. The first
		 * subflow still proves the session's cookie from the client's address. */
		int arc = ws_addr_resolve(NULL, 0, ws_addr_family(&local) == AF_INET6 ? 6 : 4, 1,
					  &local, err);
		if (arc < 0)
			return arc;
	}
	ws_addr_set_port(&local, spec->remote.data_port);
	uint32_t snd, rcv;
	int force;
	ws_workload_buffers(spec, false, &snd, &rcv, &force);
	res->sndbuf_req = snd;
	res->rcvbuf_req = rcv;
	d->lfd = -1;
	d->n = d->ntcp = spec->streams;
	if (ws_test_type_lul(spec->type)) /* RRUL: an echo socket per UDP probe */
		d->n += WS_LUL_UDP_PROBES;
	d->fds = malloc(d->n * sizeof(*d->fds));
	if (!d->fds)
		return ws_err_set(err, ENOMEM, "no memory for %u data sockets", d->n);
	for (uint32_t i = 0; i < d->n; i++)
		d->fds[i] = -1;
	if (ws_test_type_udp(spec->type))
		return open_udp_flows(s, spec, req, &local, d, res, err);
	int backlog = spec->streams + 4 > 4096 ? 4096 : (int)spec->streams + 4;
	if (ws_test_type_connects(spec->type)) /* a connection per transaction: never drop a SYN */
		backlog = CRR_BACKLOG;
	d->lfd = ws_sock_listen_proto(&local, -1, snd, rcv, backlog, ws_mptcp_proto(spec->mptcp),
				      err);
	if (d->lfd < 0)
		return d->lfd;
	/* RRUL: the probes' echo sockets, on the data address, any ports */
	for (uint32_t i = d->ntcp; i < d->n; i++) {
		ws_addr_set_port(&local, 0);
		d->fds[i] = ws_sock_udp(&local, 0, 0, 0, NULL, NULL, NULL, err);
		if (d->fds[i] < 0)
			return d->fds[i];
	}
	ws_sock_get_buffers(d->lfd, &res->sndbuf_set, &res->rcvbuf_set);
	return 0;
}

static void put_ports(ws_tlv_writer *w, const data_setup *d)
{
	ws_addr bound;
	if (d->lfd >= 0) {
		ws_sock_local_addr(d->lfd, &bound);
		ws_tlv_put_u64(w, WS_F_DATA_PORT, ws_addr_port(&bound));
		ws_echoports_put(w, d->fds + d->ntcp, d->n - d->ntcp); /* RRUL: one per probe */
		return;
	}
	for (uint32_t i = 0; i < d->n; i++) {
		ws_sock_local_addr(d->fds[i], &bound);
		ws_tlv_put_u64(w, WS_F_DATA_PORT, ws_addr_port(&bound));
	}
}

/* TCP_CRR: no connection is accepted at setup; after START the listener goes to the
 * workload, which accepts a connection per transaction from the client's address. The
 * listener is the session's data fd meanwhile, so that a stopping daemon shuts it down. */
static int run_crr(ws_session *s, const ws_test_spec *spec, data_setup *d, uint64_t charged,
		   ws_side_result *res, ws_err *err)
{
	set_data_fds(s, &d->lfd, 1);
	int rc = wait_start(s, err);
	int64_t cap = ws_limits_cap_ns(s->d->cfg.max_duration_s, ws_clock_ns());
	ws_rr_params ep = {.listen_fd = d->lfd, .expect_peer = s->peer, .wake_fd = s->d->wake[0]};
	/* every connection is a transaction, and no end marker comes (TCP_CC; an empty
	 * request, -c on TCP_MAERTS, where a marker would be answered as one more) */
	if (ws_test_type_family(spec->type) == WS_TF_CC || spec->req_size == 0)
		ep.idle_end_ns = CC_IDLE_END_NS;
	if (rc == 0) {
		ws_ctlwatch w;
		ws_session_watch_start(s, &w);
		rc = ws_workload_run_crr(spec, false, &ep, cap, res, err);
		rc = ws_session_watch_end(s, &w, ws_test_type_name(spec->type), rc, err);
	}
	if (rc == -WS_E_LIMIT)
		ws_limits_explain_cap(s->d->cfg.max_duration_s, err);
	set_data_fds(s, NULL, 0);
	close_setup(d);
	ws_budget_release(&s->d->budget, charged);
	return rc;
}

/* run_test once the test's descriptors are charged. */
static int run_charged(ws_session *s, const ws_test_spec *spec, const ws_tlv_msg *req,
		       ws_side_result *res, ws_err *err)
{
	data_setup d = {.lfd = -1};
	int rc = open_data(s, spec, req, &d, res, err);
	uint64_t charged = 0;
	if (rc == 0)
		rc = ws_daemon_charge_test(s->d, spec, res, &charged, err);
	uint8_t cookie[WS_COOKIE_LEN];
	make_cookie(cookie);
	if (rc == 0) {
		ws_tlv_begin(&s->ch.tx, WS_MSG_TEST_ACK);
		put_ports(&s->ch.tx, &d);
		ws_tlv_put_bytes(&s->ch.tx, WS_F_COOKIE, cookie, sizeof(cookie));
		ws_msg_put_side(&s->ch.tx, res);
		rc = ws_channel_send(&s->ch, ws_clock_ns() + SEND_TIMEOUT_NS, err);
	}
	if (rc == 0 && ws_test_type_connects(spec->type))
		return run_crr(s, spec, &d, charged, res, err);
	if (rc == 0 && d.lfd >= 0) {
		rc = accept_flows(s, spec, d.lfd, cookie, d.ntcp, d.fds, err);
		/* MPTCP joins an extra path with a SYN to this listener's port at an address
		 * the daemon announced, often after the flows are accepted: the listener stays
		 * until the test ends (close_setup) or a late join is refused (ECONNREFUSED).
		 * Nothing more is accepted from it; the kernel attaches joins itself. */
		if (!spec->mptcp) {
			close(d.lfd);
			d.lfd = -1;
		}
		for (uint32_t i = 0; rc == 0 && spec->nodelay && i < d.ntcp; i++)
			ws_sock_set_nodelay(d.fds[i], 1, NULL);
	}
	if (rc == 0)
		rc = apply_sockopts(s, spec, d.fds, d.ntcp, err);
	if (rc == 0) {
		set_data_fds(s, d.fds, d.n);
		rc = wait_start(s, err);
		int64_t cap = ws_limits_cap_ns(s->d->cfg.max_duration_s, ws_clock_ns());
		if (rc == 0) {
			ws_ctlwatch w;
			ws_session_watch_start(s, &w);
			rc = ws_workload_run_capped(spec, false, d.fds, d.n, cap, res, err);
			rc = ws_session_watch_end(s, &w, ws_test_type_name(spec->type), rc, err);
		}
		if (rc == -WS_E_LIMIT)
			ws_limits_explain_cap(s->d->cfg.max_duration_s, err);
		set_data_fds(s, NULL, 0);
	}
	close_setup(&d);
	ws_budget_release(&s->d->budget, charged);
	return rc;
}

/* Check the request, charge its descriptors, set up the data sockets, pass the barrier,
 * run the role. Returns the result in *res; any failure is also reported to the client as
 * ERROR by the caller. */
static int run_test(ws_session *s, const ws_test_spec *spec, const ws_tlv_msg *req,
		    ws_side_result *res, ws_err *err)
{
	memset(res, 0, sizeof(*res));
	res->cpu_bound_to = spec->remote.cpu;
	int rc = ws_daemon_check_test(s->d, spec, err);
	uint64_t nfd = ws_fdbudget_cost(spec, false);
	if (rc == 0)
		rc = ws_fdbudget_charge(&s->d->fds, spec, nfd, err);
	if (rc < 0)
		return rc;
	rc = run_charged(s, spec, req, res, err);
	ws_fdbudget_release(&s->d->fds, nfd);
	return rc;
}

static void handle_test(ws_session *s, const ws_tlv_msg *m)
{
	ws_test_spec spec;
	ws_side_result res;
	memset(&res, 0, sizeof(res));
	ws_err err;
	ws_err_clear(&err);
	int rc = ws_msg_get_spec(m, &spec, &err);
	const char *name = ws_test_type_name(spec.type);
	pthread_mutex_lock(&s->d->mu);
	s->test = rc == 0 ? name : NULL;
	pthread_mutex_unlock(&s->d->mu);
	ws_session_test_begins(s);
	if (rc == 0)
		rc = run_test(s, &spec, m, &res, &err);
	ws_session_test_ends(s);
	if (name) /* a part of a larger run (RPM's flows and probes) counts under the run */
		ws_dmetrics_test(s->d->cfg.metrics, spec.run_type ? spec.run_type : spec.type, rc,
				 &res);
	pthread_mutex_lock(&s->d->mu);
	s->test = NULL;
	pthread_mutex_unlock(&s->d->mu);
	if (rc < 0) {
		ws_slog(s, "%s failed: %s", name ? name : "test", err.msg);
		send_error(s, err.code, err.msg);
		ws_side_result_free(&res);
		return;
	}
	ws_tlv_begin(&s->ch.tx, WS_MSG_RESULT);
	ws_msg_put_side(&s->ch.tx, &res);
	ws_channel_send(&s->ch, ws_clock_ns() + SEND_TIMEOUT_NS, NULL);
	snprintf(s->pending, sizeof(s->pending), "%s %.2f s, %llu bytes received, %llu sent", name,
		 (double)res.elapsed_ns / WS_NS_PER_SEC, (unsigned long long)res.bytes_recv,
		 (unsigned long long)res.bytes_sent);
	ws_side_result_free(&res);
}

/* Log the last test with the client's verdict: confirmed (BYE or a next test) or not. */
static void log_pending(ws_session *s, bool confirmed)
{
	if (!s->pending[0])
		return;
	ws_slog(s, "%s, %s", s->pending,
		confirmed ? "ok"
			  : "the client left without confirming (its side of the test failed)");
	s->pending[0] = '\0';
}

/* --- one session ----------------------------------------------------------------- */

/* The session was admitted by the pre-session phase: say so. */
static int hello_ack(ws_session *s, ws_err *err)
{
	ws_daemon *d = s->d;
	ws_tlv_begin(&s->ch.tx, WS_MSG_HELLO_ACK);
	ws_tlv_put_u64(&s->ch.tx, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
	ws_tlv_put_str(&s->ch.tx, WS_F_SOFTWARE, ws_version_software());
	ws_tlv_put_u64(&s->ch.tx, WS_F_NCPUS, (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	ws_tlv_put_f64(&s->ch.tx, WS_F_MAX_DURATION, d->cfg.max_duration_s);
	ws_tlv_put_u64(&s->ch.tx, WS_F_SESSION_ID, s->id);
	if (s->authed)
		ws_tlv_put_bytes(&s->ch.tx, WS_F_PROOF, s->proof, sizeof(s->proof));
	return ws_channel_send(&s->ch, ws_clock_ns() + SEND_TIMEOUT_NS, err);
}

void ws_wsserve_session(ws_session *s)
{
	ws_err err;
	ws_err_clear(&err);
	int rc = hello_ack(s, &err);
	for (; rc == 0;) {
		ws_tlv_msg m;
		rc = ws_channel_recv(&s->ch, &m, ws_session_idle_deadline(s), &err);
		if (rc == -WS_E_TIMEDOUT)
			ws_session_idle_explain(s, &err);
		if (rc < 0) {
			bool quiet =
				rc == -ECONNRESET || s->pending[0]; /* the line below says it */
			log_pending(s, false);
			if (!quiet)
				ws_slog(s, "closed: %s", err.msg);
			break;
		}
		log_pending(s, m.type == WS_MSG_BYE || m.type == WS_MSG_TEST_REQ);
		if (m.type == WS_MSG_BYE)
			break;
		if (m.type == WS_MSG_TEST_REQ) {
			handle_test(s, &m);
			continue;
		}
		char t[96];
		snprintf(t, sizeof(t), "unexpected message type %u (%s) here", m.type,
			 ws_msg_type_name(m.type));
		send_error(s, WS_E_PROTO, t);
	}
}
