/* SPDX-License-Identifier: BSD-2-Clause */
/* npserve: a stock netperf client's session on the daemon; see npserve.h. */
#include "session/npserve.h"

#include "session/npspec.h"

#include "ctl/npmsg.h"
#include "ctl/npreader.h"
#include "measure/cpu.h"
#include "net/addr.h"
#include "net/sock.h"
#include "net/sockopt.h"
#include "session/daemon_state.h"
#include "session/policy.h"
#include "session/budget.h"
#include "session/ctlwatch.h"
#include "session/dmetrics.h"
#include "session/slog.h"
#include "session/test_limits.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/rr.h"
#include "workload/run.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SEND_TIMEOUT_NS (5 * WS_NS_PER_SEC)
/* netserver waits in accept until its padded timer; a data connection comes at once. */
#define DATA_CONNECT_TIMEOUT_NS (10 * WS_NS_PER_SEC)
/* TCP_CRR: netperf sends no end marker; past the test's end, this long without a new
 * connection ends the test (netserver waits for its test length + 4 s timer). */
#define CRR_IDLE_END_NS (500 * WS_NS_PER_MS)
/* UDP_STREAM without its zero-length end datagrams (lost): past a timed test's end, or
 * in a count test at any time, this long without a datagram ends the test. */
#define UDP_END_QUIET_NS (1 * WS_NS_PER_SEC)
#define UDP_QUIET_NS     (10 * WS_NS_PER_SEC)
#define UDP_TICK_MS      100
#define SYSINFO_TEXT     ",Deprecated,Deprecated,Deprecated,Deprecated"

/* What a test leaves for the results. */
typedef struct np_run {
	ws_side_result res;
	char cong[16]; /* TCP_CONGESTION of the data connection at the end */
} np_run;

static void slog(ws_session *s, const char *what) { ws_slog(s, "%s", what); }

/* A malformed message: counted daemon-wide, logged; the caller closes the connection. */
static void malformed(ws_session *s, const char *why)
{
	pthread_mutex_lock(&s->d->mu);
	unsigned long long n = ++s->d->np_bad;
	pthread_mutex_unlock(&s->d->mu);
	char t[WS_ERR_MSG_MAX + 96];
	snprintf(t, sizeof(t), "malformed message (%llu since start): %s; connection closed", n,
		 why);
	slog(s, t);
}

static int send_msg(ws_session *s, const uint8_t *msg, ws_err *err)
{
	return ws_sock_write_all(s->ch.fd, msg, WS_NP_MSG_LEN, ws_clock_ns() + SEND_TIMEOUT_NS,
				 err);
}

static void send_error(ws_session *s, int32_t type, int32_t serv_errno)
{
	uint8_t m[WS_NP_MSG_LEN];
	ws_np_encode_error(type, serv_errno, m);
	send_msg(s, m, NULL);
}

/* The next message: 1 with msg filled, 0 when the client closed between messages, or a
 * negative code (a message cut short by EOF: -WS_E_PROTO; the idle timeout; the daemon
 * stopping, which shuts the socket down and so reads as EOF). */
static int read_msg(ws_session *s, ws_np_reader *rd, ws_err *err)
{
	int64_t deadline = ws_session_idle_deadline(s);
	for (;;) {
		int rc = ws_np_reader_read(rd, s->ch.fd, err);
		if (rc == 1)
			return 1;
		if (rc == -ECONNRESET && !rd->got)
			return 0;
		if (rc ==
		    -ECONNRESET) { /* cut short: the reader's message stays, the code is ours */
			if (err)
				err->code = -WS_E_PROTO;
			return -WS_E_PROTO;
		}
		if (rc < 0)
			return rc;
		int64_t left = deadline - ws_clock_ns();
		if (left <= 0)
			return ws_session_idle_explain(s, err);
		struct pollfd p = {.fd = s->ch.fd, .events = POLLIN};
		int ms = left / WS_NS_PER_MS > 1000 ? 1000 : (int)(left / WS_NS_PER_MS) + 1;
		if (poll(&p, 1, ms) < 0 && errno != EINTR)
			return ws_err_errno(err, "poll");
	}
}

/* The daemon's limits, as for a warpspeed client; also pins the session to -T's CPU. */
static int check_test(ws_session *s, ws_np_test *t, ws_err *err)
{
	ws_daemon *d = s->d;
	ws_test_spec *sp = &t->spec;
	if (sp->end == WS_END_TIME && sp->duration_s == 0)
		sp->duration_s = d->cfg.max_duration_s; /* -l 0: until the client stops */
	if (sp->remote.cpu < -1)
		return ws_err_set(err, EINVAL,
				  "CPU %d (-T ,N); -1 (none) or a CPU number is accepted",
				  sp->remote.cpu);
	return ws_daemon_check_test(d, sp, err); /* the daemon's one policy */
}

/* --- the data sockets --------------------------------------------------------------- */

/* A TCP listener or a UDP socket connected to the client's data port. netserver ignores
 * a failed bind to the asked port and takes any; so does this, and the log says so. */
static int open_data(ws_session *s, const ws_np_test *t, ws_side_result *res, ws_err *err)
{
	const ws_test_spec *sp = &t->spec;
	ws_addr local;
	ws_sock_local_addr(s->ch.fd, &local);
	if (sp->data_host[0] && ws_addr_resolve(sp->data_host, 0, 0, 1, &local, err) < 0)
		return -WS_E_INVAL;
	ws_addr_set_port(&local, sp->remote.data_port);
	bool udp = ws_test_type_udp(sp->type);
	int fd = -1;
	for (int tries = 0; tries < 2 && fd < 0; tries++) {
		if (udp)
			fd = ws_sock_udp(&local, sp->remote.sndbuf, sp->remote.rcvbuf, 0, NULL,
					 NULL, NULL, err);
		else
			fd = ws_sock_listen(&local, -1, sp->remote.sndbuf, sp->remote.rcvbuf,
					    ws_test_type_connects(sp->type) ? 1024 : 5, err);
		if (fd < 0 && tries == 0 && sp->remote.data_port) {
			char t2[WS_ERR_MSG_MAX + 64];
			snprintf(t2, sizeof(t2),
				 "data port %u: %s; using any port, as netserver does",
				 sp->remote.data_port, err->msg);
			slog(s, t2);
			ws_addr_set_port(&local, 0);
		} else if (fd < 0) {
			return fd;
		}
	}
	ws_sock_get_buffers(fd, &res->sndbuf_set, &res->rcvbuf_set);
	res->sndbuf_req = sp->remote.sndbuf;
	res->rcvbuf_req = sp->remote.rcvbuf;
	if (!udp)
		return fd;
	ws_addr client = s->peer;
	int rc = 0;
	if (t->client_ip[0] && ws_addr_resolve(t->client_ip, 0, 0, 0, &client, err) == 0)
		rc = ws_daemon_check_udp_peer(s, &client, t->client_ip, err);
	client = s->peer; /* the connection's own address family */
	ws_addr_set_port(&client, t->client_port);
	if (rc == 0 && t->client_port == 0)
		rc = ws_err_set(err, EINVAL, "a UDP test without the client's data port");
	if (rc == 0)
		rc = ws_sock_udp_connect(fd, &client, err);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* The client's data connection: from the control connection's host only. */
static int accept_data(ws_session *s, int lfd, ws_err *err)
{
	int64_t deadline = ws_clock_ns() + DATA_CONNECT_TIMEOUT_NS;
	for (;;) {
		ws_addr peer;
		int fd = ws_sock_accept(lfd, &peer, deadline, s->d->wake[0], err);
		if (fd < 0) {
			ws_err_prefix(err, "the netperf data connection");
			return fd;
		}
		if (ws_addr_same_host(&peer, &s->peer))
			return fd;
		close(fd); /* a stranger: keep waiting */
	}
}

static void set_data_fd(ws_session *s, int *fd)
{
	pthread_mutex_lock(&s->d->mu);
	s->data_fds = fd;
	s->ndata = fd ? 1 : 0;
	pthread_mutex_unlock(&s->d->mu);
}

/* --- UDP_STREAM's receiver ---------------------------------------------------------- */

/* netperf's datagrams carry no header (warpspeed's UDP_STREAM engine needs its own), so
 * this is a plain receiver: datagrams until a zero-length one, the end of a timed test
 * plus UDP_END_QUIET_NS of silence, a count reached, the cap or the daemon stopping. One
 * blocking recv per datagram, as netserver's; the socket's timeout is the tick at which
 * the other ends are checked. */
static int udp_receive(ws_session *s, const ws_test_spec *sp, int fd, int64_t cap_ns,
		       ws_side_result *res, ws_err *err)
{
	enum { BUF = 65536 };
	char *buf = malloc(BUF);
	if (!buf)
		return ws_err_set(err, ENOMEM, "no memory for a UDP receive buffer");
	int rc = ws_sock_set_timeouts(fd, UDP_TICK_MS * WS_NS_PER_MS, err);
	int64_t start = ws_clock_ns(), last = start, stop = 0;
	int64_t end = ws_test_spec_deadline(sp, start);
	uint64_t seen = 0; /* datagrams at the last quiet tick */
	while (rc == 0) {
		ssize_t n = recv(fd, buf, BUF, 0);
		if (n > 0) {
			res->bytes_recv += (uint64_t)n;
			res->recv_calls++;
			if (sp->end == WS_END_BYTES && res->bytes_recv >= sp->end_count) {
				stop = ws_clock_ns();
				break;
			}
			continue;
		}
		if (n == 0) { /* netperf's end: three zero-length datagrams */
			stop = ws_clock_ns();
			break;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNREFUSED) {
			rc = ws_err_errno(err, "UDP receive");
			break;
		}
		/* a quiet tick: whether it ends the test */
		int64_t now = ws_clock_ns();
		if (res->recv_calls != seen) /* the last one came before this tick's wait */
			last = now - UDP_TICK_MS * WS_NS_PER_MS;
		seen = res->recv_calls;
		struct pollfd p = {.fd = s->d->wake[0], .events = POLLIN};
		if (cap_ns && now >= cap_ns)
			rc = ws_err_set(err, WS_E_LIMIT,
					"stopped by the time cap after %.1f s, %llu bytes received",
					(double)(now - start) / WS_NS_PER_SEC,
					(unsigned long long)res->bytes_recv);
		else if (poll(&p, 1, 0) > 0)
			rc = ws_err_set(err, ECANCELED, "the daemon is stopping");
		else if ((end && now >= end && now - last >= UDP_END_QUIET_NS) ||
			 now - last >= UDP_QUIET_NS)
			break;
	}
	res->elapsed_ns = (stop ? stop : last) - start;
	res->recv_size = BUF;
	snprintf(res->io_path, sizeof(res->io_path), "recv");
	free(buf);
	return rc;
}

/* The CPU bracket around udp_receive (the engines of ws_workload_run have their own). */
static int run_udp_stream(ws_session *s, const ws_test_spec *sp, int fd, int64_t cap_ns,
			  ws_side_result *res, ws_err *err)
{
	ws_cpu_snapshot *snap = malloc(2 * sizeof(*snap));
	if (!snap)
		return ws_err_set(err, ENOMEM, "no memory for CPU snapshots");
	int rc = sp->remote.measure_cpu ? ws_cpu_snapshot_take(&snap[0], err) : 0;
	if (rc == 0)
		rc = udp_receive(s, sp, fd, cap_ns, res, err);
	if (rc == 0 && sp->remote.measure_cpu && (rc = ws_cpu_snapshot_take(&snap[1], err)) == 0)
		rc = ws_cpu_fill_side(res, &snap[0], &snap[1], err);
	free(snap);
	ws_sock_get_buffers(fd, &res->sndbuf_end, &res->rcvbuf_end);
	return rc;
}

/* --- one test ----------------------------------------------------------------------- */

static int32_t width(uint32_t asked, uint32_t buf, uint32_t size)
{
	if (asked)
		return (int32_t)asked;
	return size ? (int32_t)(buf / size + 1) : 1;
}

static void send_response(ws_session *s, const ws_np_test *t, const ws_side_result *setup,
			  uint16_t port, ws_err *err, int *rc)
{
	const ws_test_spec *sp = &t->spec;
	bool measure = sp->remote.measure_cpu;
	float rate = measure ? (t->cpu_rate > 0 ? t->cpu_rate : 100.0f) : 0.0f;
	uint8_t m[WS_NP_MSG_LEN];
	if (t->cc) {
		ws_np_cc_rsp r = {
			.recv_buf_size = (int32_t)setup->rcvbuf_set,
			.no_delay = sp->nodelay,
			.measure_cpu = measure,
			.send_buf_size = (int32_t)setup->sndbuf_set,
			.data_port = port,
			.cpu_rate = rate,
		};
		ws_np_encode_cc_rsp(&r, m);
	} else if (t->legacy) {
		ws_np_stream_rsp r = {
			.recv_buf_size = (int32_t)setup->rcvbuf_set,
			.receive_size =
				(int32_t)(sp->recv_size ? sp->recv_size : setup->rcvbuf_set),
			.no_delay = sp->nodelay,
			.measure_cpu = measure,
			.send_buf_size = (int32_t)setup->sndbuf_set,
			.data_port = port,
			.cpu_rate = rate,
		};
		ws_np_encode_stream_rsp(&r, m);
	} else {
		bool rr = ws_test_type_transacts(sp->type);
		enum ws_role role = ws_test_type_role(sp->type, false);
		uint32_t rsz = sp->recv_size ? sp->recv_size : setup->rcvbuf_set;
		uint32_t ssz = sp->send_size ? sp->send_size : setup->sndbuf_set;
		ws_np_omni_rsp r = {
			.recv_buf_size = (int32_t)setup->rcvbuf_set,
			.receive_size = rr                 ? (int32_t)sp->req_size
				: role == WS_ROLE_RECEIVER ? (int32_t)rsz
							   : (int32_t)t->recv_size_asked,
			.recv_width =
				width(t->recv_width, setup->rcvbuf_set, rr ? sp->req_size : rsz),
			.send_buf_size = (int32_t)setup->sndbuf_set,
			.send_size = rr                  ? (int32_t)sp->rsp_size
				: role == WS_ROLE_SENDER ? (int32_t)ssz
							 : (int32_t)t->send_size_asked,
			.send_width =
				width(t->send_width, setup->sndbuf_set, rr ? sp->rsp_size : ssz),
			.flags = t->flags & (WS_NP_F_NODELAY | WS_NP_F_MEASURE_CPU),
			.cpu_rate = rate,
			.data_port = port,
			.socket_prio = sp->remote.priority > 0 ? sp->remote.priority : -1,
			.socket_tos = sp->remote.tos > 0 ? sp->remote.tos : -1,
		};
		ws_np_encode_omni_rsp(&r, m);
	}
	*rc = send_msg(s, m, err);
}

static void send_results(ws_session *s, const ws_np_test *t, const np_run *run, ws_err *err,
			 int *rc)
{
	const ws_side_result *r = &run->res;
	const ws_test_spec *sp = &t->spec;
	bool cpu = sp->remote.measure_cpu && r->cpu_measured;
	bool rr = ws_test_type_transacts(sp->type);
	uint64_t units = rr ? r->transactions : r->bytes_recv + r->bytes_sent;
	float sd = cpu ? (float)ws_cpu_service_demand(r->cpu_util, r->ncpus, r->elapsed_ns, units,
						      rr ? 1 : 1024)
		       : 0;
	uint8_t m[WS_NP_MSG_LEN];
	if (t->cc) {
		ws_np_cc_results x = {
			.bytes_received =
				(uint32_t)(r->transactions * (sp->req_size + sp->rsp_size)),
			.trans_received = (uint32_t)r->transactions,
			.elapsed_time = (float)r->elapsed_ns / WS_NS_PER_SEC,
			.cpu_util = cpu ? (float)r->cpu_util : 0,
			.serv_dem = sd,
			.cpu_method = cpu ? WS_NP_CPU_PROC_STAT : 0,
			.num_cpus = r->ncpus ? r->ncpus : ws_cpu_online_count(),
		};
		ws_np_encode_cc_results(&x, m);
	} else if (t->legacy) {
		ws_np_stream_results x = {
			.bytes_received = (double)r->bytes_recv,
			.recv_calls = (uint32_t)r->recv_calls,
			.elapsed_time = (float)r->elapsed_ns / WS_NS_PER_SEC,
			.cpu_util = cpu ? (float)r->cpu_util : 0,
			.serv_dem = sd,
			.cpu_method = cpu ? WS_NP_CPU_PROC_STAT : 0,
			.num_cpus = cpu ? r->ncpus : 0,
			.recv_buf_size = (int32_t)r->rcvbuf_end,
			.send_buf_size = (int32_t)r->sndbuf_end,
		};
		ws_np_encode_stream_results(&x, m);
	} else {
		bool tcp_one = !ws_test_type_udp(sp->type) && !ws_test_type_connects(sp->type);
		ws_np_omni_results x = {
			.bytes_received = r->bytes_recv,
			.recv_calls = (uint32_t)r->recv_calls,
			.recv_buf_size = (int32_t)r->rcvbuf_end,
			.bytes_sent = r->bytes_sent,
			.send_calls = (uint32_t)r->send_calls,
			.send_buf_size = (int32_t)r->sndbuf_end,
			.trans_received = (uint32_t)r->transactions,
			.elapsed_time = (float)r->elapsed_ns / WS_NS_PER_SEC,
			.cpu_util = cpu ? (float)r->cpu_util : 0,
			.cpu_user = cpu ? (float)r->cpu_user : 0,
			.cpu_system = cpu ? (float)r->cpu_system : 0,
			.cpu_softirq = cpu ? (float)r->cpu_softirq : 0,
			.serv_dem = sd,
			.cpu_method = cpu ? WS_NP_CPU_PROC_STAT : 0,
			.num_cpus = cpu ? r->ncpus : 0,
			.peak_cpu_id = -1,
			.transport_retrans =
				tcp_one && r->tcp_info_valid ? (int32_t)r->tcp_retrans : -1,
		};
		if (tcp_one && (t->flags & WS_NP_F_ROUTING))
			snprintf(x.cong_control, sizeof(x.cong_control), "%s", run->cong);
		ws_np_encode_omni_results(&x, m);
	}
	*rc = send_msg(s, m, err);
}

static void apply_sockopts(const ws_test_spec *sp, int fd, ws_err *err, int *rc)
{
	ws_sockopt_req r;
	ws_workload_sockopts(sp, false, &r);
	if (r.tos > 0 || r.priority > 0 || r.keepalive || r.cork || r.dontroute ||
	    (r.cong && r.cong[0]))
		*rc = ws_sockopt_apply(fd, &r, NULL, err);
}

/* After the response: the data phase, on warpspeed's engines. */
static int run_data(ws_session *s, const ws_np_test *t, int *dfd, np_run *run, ws_err *err)
{
	const ws_test_spec *sp = &t->spec;
	int64_t cap = ws_limits_cap_ns(s->d->cfg.max_duration_s, ws_clock_ns());
	int rc = 0;
	if (ws_test_type_connects(sp->type)) {
		ws_rr_params ep = {.listen_fd = *dfd,
				   .expect_peer = s->peer,
				   .wake_fd = s->d->wake[0],
				   .idle_end_ns = CRR_IDLE_END_NS};
		return ws_workload_run_crr(sp, false, &ep, cap, &run->res, err);
	}
	if (sp->type == WS_TEST_UDP_STREAM)
		return run_udp_stream(s, sp, *dfd, cap, &run->res, err);
	if (!ws_test_type_udp(sp->type)) {
		int fd = accept_data(s, *dfd, err);
		if (fd < 0)
			return fd;
		pthread_mutex_lock(&s->d->mu); /* the control watch may shut *dfd down */
		int listener = *dfd;
		*dfd = fd;
		pthread_mutex_unlock(&s->d->mu);
		close(listener);
		if (sp->nodelay)
			ws_sock_set_nodelay(fd, 1, NULL);
		apply_sockopts(sp, fd, err, &rc);
	}
	if (rc == 0)
		rc = ws_workload_run_capped(sp, false, dfd, 1, cap, &run->res, err);
	if (!ws_test_type_udp(sp->type)) {
		socklen_t n = sizeof(run->cong) - 1;
		if (getsockopt(*dfd, IPPROTO_TCP, TCP_CONGESTION, run->cong, &n) < 0)
			run->cong[0] = '\0';
	}
	return rc;
}

static int32_t reply_type(const ws_np_test *t)
{
	return t->cc        ? WS_NP_TCP_CC_RESPONSE
		: t->legacy ? WS_NP_TCP_STREAM_RESPONSE
			    : WS_NP_OMNI_RESPONSE;
}

/* serve_test without the bookkeeping of time outside tests. */
static int serve_test_run(ws_session *s, ws_np_test *t, const char *name, int rc, ws_err *err)
{
	np_run run;
	memset(&run, 0, sizeof(run));
	run.res.cpu_bound_to = t->spec.remote.cpu;
	if (rc == 0)
		rc = check_test(s, t, err);
	uint64_t nfd = rc == 0 ? ws_fdbudget_cost(&t->spec, true) : 0;
	bool no_fds = rc == 0 && ws_fdbudget_charge(&s->d->fds, &t->spec, nfd, err) < 0;
	if (no_fds)
		rc = -WS_E_LIMIT;
	if (rc < 0)
		nfd = 0;
	int dfd = rc == 0 ? open_data(s, t, &run.res, err) : -1;
	if (rc == 0 && dfd < 0)
		rc = dfd;
	/* a count test's sender stops after whole sends, as netserver's (-l -N: >= N bytes) */
	ws_test_spec *sp = &t->spec;
	uint32_t ssz = sp->send_size ? sp->send_size : run.res.sndbuf_set;
	if (rc == 0 && sp->type == WS_TEST_TCP_MAERTS && sp->end == WS_END_BYTES && ssz)
		sp->end_count = (sp->end_count + ssz - 1) / ssz * ssz;
	uint64_t charged = 0;
	if (rc == 0)
		rc = ws_daemon_charge_test(s->d, &t->spec, &run.res, &charged, err);
	if (rc < 0) {
		char line[WS_ERR_MSG_MAX + 64];
		int e = no_fds ? EMFILE
			       : ws_np_errno(err->code); /* netperf: "Too many open files" */
		snprintf(line, sizeof(line), "%s refused (remote error %d): %s",
			 name ? name : "test", e, err->msg);
		slog(s, line);
		ws_dmetrics_test(s->d->cfg.metrics, t->spec.type, no_fds ? -WS_E_LIMIT : rc, NULL);
		if (dfd >= 0)
			close(dfd);
		ws_fdbudget_release(&s->d->fds, nfd);
		send_error(s, reply_type(t), e);
		return 0; /* netperf exits on the error; the connection stays usable meanwhile */
	}
	pthread_mutex_lock(&s->d->mu);
	s->test = name;
	pthread_mutex_unlock(&s->d->mu);
	ws_addr bound;
	ws_sock_local_addr(dfd, &bound);
	send_response(s, t, &run.res, ws_addr_port(&bound), err, &rc);
	set_data_fd(s, &dfd);
	if (rc == 0) {
		ws_ctlwatch w;
		ws_session_watch_start(s, &w);
		rc = run_data(s, t, &dfd, &run, err);
		rc = ws_session_watch_end(s, &w, name, rc, err);
	}
	if (rc == -WS_E_LIMIT)
		ws_limits_explain_cap(s->d->cfg.max_duration_s, err);
	set_data_fd(s, NULL);
	close(dfd);
	ws_budget_release(&s->d->budget, charged);
	ws_fdbudget_release(&s->d->fds, nfd);
	pthread_mutex_lock(&s->d->mu);
	s->test = NULL;
	pthread_mutex_unlock(&s->d->mu);
	ws_dmetrics_test(s->d->cfg.metrics, t->spec.type, rc, &run.res);
	char line[WS_ERR_MSG_MAX + 160];
	if (rc < 0) {
		snprintf(line, sizeof(line), "%s failed (remote error %d): %s", name,
			 ws_np_errno(err->code), err->msg);
		slog(s, line);
		send_error(s, reply_type(t), ws_np_errno(err->code));
		ws_side_result_free(&run.res);
		return -1;
	}
	send_results(s, t, &run, err, &rc);
	snprintf(line, sizeof(line), "%s %.2f s, %llu bytes received, %llu sent%s%s", name,
		 (double)run.res.elapsed_ns / WS_NS_PER_SEC, (unsigned long long)run.res.bytes_recv,
		 (unsigned long long)run.res.bytes_sent,
		 rc < 0 ? "; the results could not be sent: " : "", rc < 0 ? err->msg : "");
	slog(s, line);
	ws_side_result_free(&run.res);
	return rc < 0 ? -1 : 0;
}

/* One DO_OMNI, DO_TCP_STREAM or DO_TCP_CC: checks, response, data phase, results. Returns 0 to go on
 * serving, negative to close the connection (after an error reply, as netserver exits). */
static int serve_test(ws_session *s, ws_np_test *t, int rc, ws_err *err)
{
	const char *name = ws_test_type_name(t->spec.type);
	if (t->legacy)
		name = "TCP_SENDFILE or TCP_MSS (legacy TCP_STREAM)";
	ws_session_test_begins(s);
	rc = serve_test_run(s, t, name, rc, err);
	ws_session_test_ends(s);
	return rc;
}

/* --- the session -------------------------------------------------------------------- */

/* One message. Returns 0 to read the next, negative to close the connection. */
static int on_message(ws_session *s, const uint8_t *msg)
{
	int32_t type = ws_np_type(msg);
	ws_err err;
	ws_err_clear(&err);
	uint8_t m[WS_NP_MSG_LEN];
	ws_np_test t;
	char why[WS_ERR_MSG_MAX + 64];
	switch (type) {
	case WS_NP_DO_OMNI: {
		ws_np_omni_req r;
		int rc = ws_np_decode_omni_req(msg, &r, &err);
		if (rc < 0) {
			malformed(s, err.msg);
			send_error(s, WS_NP_OMNI_RESPONSE, EINVAL);
			return -1;
		}
		return serve_test(s, &t, ws_npspec_from_omni(&r, &t, &err), &err);
	}
	case WS_NP_DO_TCP_STREAM: {
		ws_np_stream_req r;
		if (ws_np_decode_stream_req(msg, &r, &err) < 0) {
			malformed(s, err.msg);
			send_error(s, WS_NP_TCP_STREAM_RESPONSE, EINVAL);
			return -1;
		}
		return serve_test(s, &t, ws_npspec_from_legacy(&r, &t), &err);
	}
	case WS_NP_DO_TCP_CC: {
		ws_np_cc_req r;
		if (ws_np_decode_cc_req(msg, &r, &err) < 0) {
			malformed(s, err.msg);
			send_error(s, WS_NP_TCP_CC_RESPONSE, EINVAL);
			return -1;
		}
		return serve_test(s, &t, ws_npspec_from_cc(&r, &t), &err);
	}
	case WS_NP_CPU_CALIBRATE:
		/* /proc/stat needs no calibration: netserver's Linux answer */
		ws_np_encode_calibrate_reply((float)ws_cpu_rate(), (int32_t)ws_cpu_online_count(),
					     m);
		return send_msg(s, m, NULL) < 0 ? -1 : 0;
	case WS_NP_DO_SYSINFO:
		ws_np_encode_sysinfo_reply(0, SYSINFO_TEXT, m);
		return send_msg(s, m, NULL) < 0 ? -1 : 0;
	case WS_NP_PASSPHRASE:
		return 0; /* checked (or ignored) before the session; no reply */
	case WS_NP_DEBUG_OK:
	case WS_NP_OMNI_RESPONSE:
	case WS_NP_OMNI_RESULTS:
	case WS_NP_SYSINFO_RESPONSE:
	case WS_NP_TCP_STREAM_RESPONSE:
	case WS_NP_TCP_STREAM_RESULTS:
	case WS_NP_TCP_CC_RESPONSE:
		snprintf(why, sizeof(why),
			 "a message of type %s (%ld) sent to the daemon; only a daemon sends it",
			 ws_np_type_name(type), (long)type);
		malformed(s, why);
		return -1;
	default:
		break;
	}
	if (ws_np_is_legacy_request(type)) {
		snprintf(why, sizeof(why),
			 "legacy request %s (type %ld) refused with remote error %d: only the "
			 "omni tests (netperf 2.7's), TCP_SENDFILE, TCP_MSS and TCP_CC are served",
			 ws_np_type_name(type), (long)type, EOPNOTSUPP);
		slog(s, why);
		send_error(s, type + 1, EOPNOTSUPP);
		return 0;
	}
	snprintf(why, sizeof(why), "unknown message type %ld answered with remote error %d",
		 (long)type, WS_NP_ERRNO_UNKNOWN);
	slog(s, why);
	send_error(s, 0, WS_NP_ERRNO_UNKNOWN);
	return 0;
}

void ws_npserve_session(ws_session *s)
{
	ws_np_reader rd;
	ws_np_reader_init(&rd);
	ws_np_reader_prime(&rd, s->np_first, sizeof(s->np_first));
	int rc = on_message(s, rd.buf);
	while (rc == 0) {
		ws_err err;
		ws_err_clear(&err);
		int r = read_msg(s, &rd, &err);
		if (r == 0)
			break; /* the client is done */
		if (r < 0) {
			if (r == -WS_E_PROTO)
				malformed(s, err.msg);
			else
				slog(s, err.msg);
			break;
		}
		rc = on_message(s, rd.buf);
	}
}
