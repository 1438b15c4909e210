/* SPDX-License-Identifier: BSD-2-Clause */
/* crr: TCP_CRR, a connection per transaction, as netperf measures the cost of short
 * connections: the requester's flows here, their setup and result in crr_client.c, the
 * responder in crr_serve.c; see rr.h and crr.h.
 *
 * Each flow of the client is a small state machine on a non-blocking socket (connect,
 * send the request, read the response, close), and a worker thread runs its share of the
 * flows: with one flow it waits in poll() on the one socket (the fewest system calls per
 * transaction), with several in one epoll set. One clock read when the connection is
 * started and one when the response is complete give the transaction's latency, so that
 * it counts connect + request + response, as netperf's does. The client closes first
 * (FIN, not RST: netperf's behaviour), so TIME_WAIT is the client's: the ports this costs,
 * and what happens when they run out, are in docs/rr.md "TCP_CRR and ephemeral ports".
 * After its last transaction the client makes one more connection and closes it without
 * sending (crr_client.c): the daemon's end marker (a connection that reaches EOF with no
 * byte read). */
#include "workload/crr.h"

#include "measure/hist.h"
#include "measure/interim.h"
#include "net/mptcp.h"
#include "net/sock.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/crr_serve.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

/* A run of failed connects for want of a local port (EADDRNOTAVAIL, EADDRINUSE) fails
 * the test after this long without one success: long enough for tcp_tw_reuse's 1 s rule
 * to free ports again, short enough that an exhausted range is named, not waited out. */
#define PORT_WAIT_NS (3 * WS_NS_PER_SEC)
/* After this many failures in a row, a worker pauses between attempts, from PAUSE_MIN_NS
 * doubling to PAUSE_MAX_NS, instead of spinning on the kernel's port search. */
#define RETRY_AT_ONCE 16
#define PAUSE_MIN_NS  (100 * WS_NS_PER_US)
#define PAUSE_MAX_NS  (50 * WS_NS_PER_MS)
/* How often a worker looks at all its flows (retries due, stalls, the cap). */
#define SCAN_NS (100 * WS_NS_PER_MS)
#define EVENTS  64

static bool mine_done(enum cphase ph) { return ph == C_DONE || ph == C_FAILED; }

void ws_crr_close_fd(struct cflow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->reg = 0; /* closing the only descriptor removes it from the epoll set */
}

void ws_crr_fail_flow(struct cworker *w, struct cflow *f, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
	ws_crr_close_fd(f);
	f->phase = C_FAILED;
	f->error = code;
	f->end_ns = ws_clock_ns();
	atomic_store(&w->c->abort, true);
}

/* Claim the next transaction: false when the test is over. */
static bool claim(struct cworker *w, int64_t now)
{
	const ws_rr_params *p = w->c->p;
	if (atomic_load_explicit(&w->c->abort, memory_order_relaxed))
		return false;
	if (p->end_count)
		return atomic_fetch_add_explicit(&w->c->issued, 1, memory_order_relaxed) <
			p->end_count;
	return now < p->end_ns;
}

/* -P lport (or -p min,max): netperf's way, each connection on the next port from lport up,
 * wrapping back to lport after 65535 (after max), so that a port is reused only after the
 * whole range (its TIME_WAIT is then old enough for tcp_tw_reuse, or over). The daemon's
 * port is skipped. */
static uint16_t next_port(struct crr_client *c)
{
	uint16_t first = ws_addr_port(&c->p->local), skip = ws_addr_port(&c->p->remote);
	uint32_t span = ws_local_port_last(first, c->p->local_port_max) + 1u - first;
	for (;;) {
		uint32_t k = atomic_fetch_add_explicit(&c->next_port, 1, memory_order_relaxed);
		uint16_t port = (uint16_t)(first + k % span);
		if (port != skip || span == 1)
			return port;
	}
}

static int bind_local(struct crr_client *c, int fd)
{
	const ws_rr_params *p = c->p;
	ws_addr a = p->local;
	int one = 1;
	if (ws_addr_port(&p->local)) {
		/* a port in TIME_WAIT from an earlier round can be bound again */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		ws_addr_set_port(&a, next_port(c));
	} else {
		/* the port is chosen at connect, by the 4-tuple, not reserved at bind */
		setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
	}
	return bind(fd, (const struct sockaddr *)&a.ss, a.len);
}

static void read_sysctl(const char *path, char *buf, size_t n)
{
	snprintf(buf, n, "?");
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)n, f))
		buf[strcspn(buf, "\n")] = '\0';
	for (char *s = buf; *s; s++)
		if (*s == '\t')
			*s = ' ';
	fclose(f);
}

/* No local port for a new connection: retry (at once, then with a growing pause), and
 * fail once the shortage has lasted PORT_WAIT_NS, naming the two settings that help. */
void ws_crr_port_pressure(struct cworker *w, struct cflow *f, int64_t now, int e)
{
	ws_crr_close_fd(f);
	w->connect_errors++;
	w->in_a_row++;
	if (!w->pressure_since)
		w->pressure_since = now;
	if (now - w->pressure_since > PORT_WAIT_NS) {
		char range[32], reuse[16];
		read_sysctl("/proc/sys/net/ipv4/ip_local_port_range", range, sizeof(range));
		read_sysctl("/proc/sys/net/ipv4/tcp_tw_reuse", reuse, sizeof(reuse));
		ws_crr_fail_flow(
			w, f, -EADDRNOTAVAIL,
			"no local port for a connection to %s for %.0f s (%s; %llu connects "
			"failed): every port of the range is taken by connections or TIME_WAIT; "
			"widen net.ipv4.ip_local_port_range (%s) or set net.ipv4.tcp_tw_reuse=1 "
			"(%s)",
			w->c->where, (double)PORT_WAIT_NS / WS_NS_PER_SEC, strerror(e),
			(unsigned long long)w->connect_errors, range, reuse);
		return;
	}
	int64_t pause = 0;
	if (w->in_a_row > RETRY_AT_ONCE) {
		uint32_t shift = w->in_a_row - RETRY_AT_ONCE;
		pause = shift > 9 ? PAUSE_MAX_NS : PAUSE_MIN_NS << shift;
		if (pause > PAUSE_MAX_NS)
			pause = PAUSE_MAX_NS;
	}
	f->phase = C_WAIT;
	f->retry_at = now + pause;
}

bool ws_crr_port_error(int e) { return e == EADDRNOTAVAIL || e == EADDRINUSE; }

/* Start the flow's claimed transaction: a socket, its options, a connect under way. */
static void open_conn(struct cworker *w, struct cflow *f)
{
	const ws_rr_params *p = w->c->p;
	const ws_test_spec *spec = p->spec;
	f->t0 = ws_clock_ns(); /* the transaction's first clock read: connect start */
	f->last = f->t0;
	/* io_uring waits in the kernel for a blocking socket; on a non-blocking one its
	 * operations end in -EAGAIN */
	int fd = socket(p->remote.ss.ss_family,
			SOCK_STREAM | SOCK_CLOEXEC | (w->ur ? 0 : SOCK_NONBLOCK),
			ws_mptcp_proto(spec->mptcp));
	if (fd < 0) {
		ws_crr_fail_flow(w, f, -errno, "socket: %s", strerror(errno));
		return;
	}
	f->fd = fd;
	f->connected = false;
	f->done = 0;
	if (spec->local.sndbuf || spec->local.rcvbuf)
		ws_sock_set_buffers(fd, spec->local.sndbuf, spec->local.rcvbuf, NULL);
	if (spec->nodelay)
		ws_sock_set_nodelay(fd, 1, NULL);
	if (spec->dontroute) /* -R 0, on every connection as netperf */
		setsockopt(fd, SOL_SOCKET, SO_DONTROUTE, &(int){1}, sizeof(int));
	if (p->bind_local && bind_local(w->c, fd) < 0) {
		int e = errno;
		if (ws_crr_port_error(e)) {
			ws_crr_port_pressure(w, f, f->t0, e);
			return;
		}
		char a[80];
		ws_addr_format_port(&p->local, a, sizeof(a));
		ws_crr_fail_flow(w, f, -e, "bind local address %s: %s", a, strerror(e));
		return;
	}
	if (w->ur) { /* the whole transaction is queued on the ring (crr_uring.c) */
		ws_crr_uring_start(w, f);
		return;
	}
	if (connect(fd, (const struct sockaddr *)&p->remote.ss, p->remote.len) < 0 &&
	    errno != EINPROGRESS) {
		int e = errno;
		if (ws_crr_port_error(e)) {
			ws_crr_port_pressure(w, f, f->t0, e);
			return;
		}
		w->connect_errors++;
		ws_crr_fail_flow(w, f, -e, "connect to %s: %s", w->c->where, strerror(e));
		return;
	}
	/* On loopback the handshake is usually done when connect returns: try the send at
	 * once; EAGAIN means it is still under way, and writable means connected. TCP_CC
	 * sends nothing: it waits for the daemon's close; an empty request (-c on TCP_MAERTS)
	 * waits for the response. */
	f->phase = spec->type == WS_TEST_TCP_CC || spec->req_size == 0 ? C_RECV : C_SEND;
}

void ws_crr_connected(struct cworker *w, struct cflow *f)
{
	f->connected = true;
	if (!w->mptcp_state && w->c->p->spec->mptcp)
		w->mptcp_state = ws_mptcp_state(f->fd, &w->mptcp_subflows);
	w->connects++;
	w->pressure_since = 0;
	w->in_a_row = 0;
}

/* The response is complete: the second clock read. The connection is closed once the
 * daemon's close has arrived (netperf's order; see crr_serve.h). */
void ws_crr_complete(struct cworker *w, struct cflow *f)
{
	int64_t t1 = ws_clock_ns();
	uint64_t lat = t1 > f->t0 ? (uint64_t)(t1 - f->t0) : 0;
	ws_hist_record(w->hist, lat);
	if (f->hist)
		ws_hist_record(f->hist, lat);
	f->trans++;
	ws_interim_add(ws_interim_at(w->c->p->progress, (uint32_t)(f - w->c->flows)), 1);
	f->last = t1;
	f->phase = C_EOF;
}

/* After the response, EOF: a byte more means the daemon's response is longer than asked. */
static bool do_eof(struct cworker *w, struct cflow *f)
{
	const ws_test_spec *spec = w->c->p->spec;
	char extra[64];
	ssize_t r = recv(f->fd, extra, sizeof(extra), MSG_DONTWAIT);
	if (r == 0 || (r < 0 && errno == ECONNRESET)) {
		ws_crr_close_fd(f);
		f->phase = C_IDLE;
		return true;
	}
	if (r > 0) {
		f->trans--; /* not a transaction of the asked sizes after all */
		ws_crr_fail_flow(
			w, f, -WS_E_PROTO,
			"the daemon sent more than the %u-byte response (request %u bytes) "
			"before closing the connection",
			spec->rsp_size, spec->req_size);
	} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
		ws_crr_fail_flow(w, f, -errno, "waiting for the daemon's close: %s",
				 strerror(errno));
	}
	return false;
}

static void do_send(struct cworker *w, struct cflow *f, int64_t now)
{
	const ws_test_spec *spec = w->c->p->spec;
	ssize_t r = send(f->fd, w->buf, spec->req_size - f->done, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (r > 0) {
		if (!f->connected)
			ws_crr_connected(w, f);
		f->done += (uint32_t)r;
		f->sent += (uint64_t)r;
		f->scalls++;
		f->last = now;
		if (f->done == spec->req_size) {
			f->phase = C_RECV;
			f->done = 0;
			if (spec->rsp_size == 0) /* -c on TCP_STREAM: sent, then the close */
				ws_crr_complete(w, f);
		}
		return;
	}
	int e = errno;
	if (r < 0 && (e == EAGAIN || e == EWOULDBLOCK || e == EINTR))
		return;
	if (!f->connected) {
		w->connect_errors++;
		ws_crr_fail_flow(w, f, -e, "connect to %s: %s", w->c->where, strerror(e));
	} else {
		ws_crr_fail_flow(w, f, -e, "send of the %u-byte request: %s", spec->req_size,
				 strerror(e));
	}
}

/* TCP_CC's transaction: connected, then the daemon's close (EOF) and ours. */
static bool cc_recv(struct cworker *w, struct cflow *f)
{
	char extra[64];
	ssize_t r = recv(f->fd, extra, sizeof(extra), MSG_DONTWAIT);
	int e = errno;
	if (r < 0 && (e == EAGAIN || e == EWOULDBLOCK || e == EINTR))
		return false;
	if (r < 0 && e == ECONNRESET) /* connected, then closed with a reset: a close too */
		r = 0;
	if (r < 0) {
		w->connect_errors++;
		ws_crr_fail_flow(w, f, -e, "connect to %s: %s", w->c->where, strerror(e));
		return false;
	}
	if (r > 0) {
		ws_crr_fail_flow(w, f, -WS_E_PROTO, "the daemon sent data on a TCP_CC connection");
		return false;
	}
	if (!f->connected)
		ws_crr_connected(w, f);
	ws_crr_complete(w, f);
	ws_crr_close_fd(f);
	f->phase = C_IDLE;
	return true;
}

/* Returns true when the flow should be stepped again now (the response completed). */
static bool do_recv(struct cworker *w, struct cflow *f, int64_t now)
{
	const ws_test_spec *spec = w->c->p->spec;
	if (spec->type == WS_TEST_TCP_CC)
		return cc_recv(w, f);
	for (;;) {
		ssize_t r = recv(f->fd, w->buf, spec->rsp_size - f->done, MSG_DONTWAIT);
		if (r > 0) {
			if (!f->connected) /* an empty request: the response says connected */
				ws_crr_connected(w, f);
			f->done += (uint32_t)r;
			f->recvd += (uint64_t)r;
			f->rcalls++;
			f->last = now;
			if (f->done < spec->rsp_size)
				continue;
			ws_crr_complete(w, f);
			return do_eof(w, f); /* the FIN usually came with the response */
		}
		if (r == 0) {
			ws_crr_fail_flow(
				w, f, -WS_E_PROTO,
				"the daemon closed the connection after %u of %u response bytes "
				"(request %u bytes)",
				f->done, spec->rsp_size, spec->req_size);
			return false;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return false;
		ws_crr_fail_flow(w, f, -errno, "receive of the %u-byte response: %s",
				 spec->rsp_size, strerror(errno));
		return false;
	}
}

/* Advance a flow as far as it goes without blocking; `ready` says its socket was
 * reported ready (0 at a scan). */
void ws_crr_step(struct cworker *w, struct cflow *f, uint32_t ready, int64_t now)
{
	for (;;) {
		switch (f->phase) {
		case C_IDLE:
			if (!claim(w, now)) {
				f->phase = C_DONE;
				f->end_ns = now;
				return;
			}
			open_conn(w, f);
			ready = 0;
			break;
		case C_WAIT:
			/* also past the end of a timed test: the claimed transaction is completed
			 * like one in flight, or the shortage fails the test after PORT_WAIT_NS (a
			 * test that ends quietly with no port would report a rate of nothing) */
			if (now < f->retry_at)
				return;
			open_conn(w, f);
			ready = 0;
			break;
		case C_SEND:
			do_send(w, f, now);
			if (f->phase == C_SEND)
				return; /* the socket is not writable yet */
			ready = 0;
			break;
		case C_RECV:
			if (!ready)
				return; /* the response cannot be there yet: wait for it */
			if (!do_recv(w, f, now))
				return;
			now = f->last;
			break;
		case C_EOF:
			if (!ready || !do_eof(w, f))
				return;
			break;
		default:
			return;
		}
	}
}

static uint32_t wanted(const struct cflow *f)
{
	if (f->fd < 0)
		return 0;
	return f->phase == C_SEND                         ? EPOLLOUT
		: f->phase == C_RECV || f->phase == C_EOF ? EPOLLIN
							  : 0;
}

static void sync_reg(struct cworker *w, struct cflow *f, uint32_t i)
{
	uint32_t want = wanted(f);
	if (w->ep < 0 || want == f->reg)
		return;
	struct epoll_event ev = {.events = want, .data.u32 = i};
	int op = !f->reg ? EPOLL_CTL_ADD : !want ? EPOLL_CTL_DEL : EPOLL_CTL_MOD;
	if (epoll_ctl(w->ep, op, f->fd, &ev) < 0) {
		ws_crr_fail_flow(w, f, -errno, "epoll_ctl: %s", strerror(errno));
		return;
	}
	f->reg = want;
}

/* Every SCAN_NS: retries that are due, stalls, the cap. Returns the flows still running
 * and lowers *wake to the earliest retry. */
static uint32_t scan(struct cworker *w, int64_t now, int64_t *wake)
{
	struct crr_client *c = w->c;
	const ws_rr_params *p = c->p;
	uint32_t left = 0;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		struct cflow *f = &c->flows[i];
		if (f->phase == C_IDLE || f->phase == C_WAIT)
			ws_crr_step(w, f, 0, now);
		if ((f->phase == C_SEND || f->phase == C_RECV || f->phase == C_EOF) &&
		    now - f->last > p->stall_ns)
			ws_crr_fail_flow(w, f, -WS_E_TIMEDOUT,
					 "a transaction made no progress for %.0f s (%s)",
					 (double)p->stall_ns / WS_NS_PER_SEC,
					 f->phase == C_SEND && !f->connected ? "connecting"
						 : f->phase == C_SEND        ? "sending the request"
						 : f->phase == C_RECV
						 ? "waiting for the response"
						 : "waiting for the daemon's close");
		if (p->cap_ns && now >= p->cap_ns && !mine_done(f->phase))
			ws_crr_fail_flow(w, f, -WS_E_LIMIT, "stopped by the time cap");
		if (!mine_done(f->phase) && atomic_load_explicit(&c->abort, memory_order_relaxed)) {
			ws_crr_close_fd(f); /* another flow failed: this one ends where it is */
			f->phase = C_DONE;
			f->end_ns = now;
		}
		if (f->phase == C_WAIT && f->retry_at < *wake)
			*wake = f->retry_at;
		sync_reg(w, f, i);
		left += !mine_done(f->phase);
	}
	return left;
}

int64_t ws_crr_tick(struct cworker *w, int64_t now, int64_t *next_scan, int64_t *wake)
{
	if (now >= *next_scan || now >= *wake) {
		*wake = now + SCAN_NS;
		if (scan(w, now, wake) == 0)
			return 0;
		*next_scan = now + SCAN_NS;
	}
	return *wake < *next_scan ? *wake : *next_scan;
}

static int ms_until(int64_t t, int64_t now)
{
	if (t <= now)
		return 0;
	return (int)((t - now + WS_NS_PER_MS - 1) / WS_NS_PER_MS);
}

static void run_worker(struct cworker *w)
{
	struct crr_client *c = w->c;
	uint32_t mine = 0;
	struct cflow *only = NULL;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads, mine++)
		only = &c->flows[i];
	int64_t now = ws_clock_ns(), next_scan = 0, wake = 0;
	struct epoll_event ev[EVENTS];
	for (;;) {
		int64_t until = ws_crr_tick(w, now, &next_scan, &wake);
		if (until == 0)
			return;
		int ms = ms_until(until, now);
		if (mine == 1) {
			/* one flow: poll() on its socket, the cheapest wait */
			struct pollfd pf = {
				.fd = only->fd,
				.events = (short)(only->phase == C_SEND ? POLLOUT : POLLIN)};
			bool waits = only->fd >= 0 &&
				(only->phase == C_SEND || only->phase == C_RECV ||
				 only->phase == C_EOF);
			int n = poll(&pf, waits ? 1 : 0, ms);
			now = ws_clock_ns();
			if (n > 0)
				ws_crr_step(w, only, (uint32_t)pf.revents, now);
			if (mine_done(only->phase))
				next_scan = now;
			continue;
		}
		int n = epoll_wait(w->ep, ev, EVENTS, ms);
		now = ws_clock_ns();
		for (int k = 0; k < n; k++) {
			uint32_t i = ev[k].data.u32;
			struct cflow *f = &c->flows[i];
			ws_crr_step(w, f, ev[k].events, now);
			sync_reg(w, f, i);
			if (mine_done(f->phase))
				next_scan = now;
		}
	}
}

void *ws_crr_worker_main(void *arg)
{
	struct cworker *w = arg;
	const ws_rr_params *p = w->c->p;
	int64_t u0, s0, u1, s1;
	ws_crr_thread_times(&u0, &s0);
	uint32_t bsz =
		p->spec->req_size > p->spec->rsp_size ? p->spec->req_size : p->spec->rsp_size;
	w->buf = malloc(bsz);
	w->hist = malloc(sizeof(*w->hist));
	w->ep = p->engine != WS_ENGINE_IO_URING &&
			w->c->nflows / w->c->nthreads + (w->id < w->c->nflows % w->c->nthreads) > 1
		? epoll_create1(EPOLL_CLOEXEC)
		: -1;
	if (!w->buf || !w->hist) {
		ws_err_set(&w->err, ENOMEM, "client worker %u: no memory for %u-byte buffers",
			   w->id, bsz);
	} else {
		memset(w->buf, 'x', bsz);
		ws_rr_fill(p, w->buf, bsz);
		ws_hist_init(w->hist);
		if (w->cpu >= 0)
			ws_affinity_pin_self(w->cpu, &w->err);
	}
	if (w->err.code == 0 && p->engine == WS_ENGINE_IO_URING)
		ws_crr_uring_main(w);
	else if (w->err.code == 0)
		run_worker(w);
	else
		atomic_store(&w->c->abort, true);
	for (uint32_t i = w->id; i < w->c->nflows; i += w->c->nthreads)
		ws_crr_close_fd(&w->c->flows[i]);
	if (w->ep >= 0)
		close(w->ep);
	free(w->buf);
	ws_crr_thread_times(&u1, &s1);
	w->user_ns = u1 - u0;
	w->sys_ns = s1 - s0;
	return NULL;
}
