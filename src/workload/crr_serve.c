/* SPDX-License-Identifier: BSD-2-Clause */
/* crr_serve: TCP_CRR's responder; see crr_serve.h. */
#include "workload/crr_serve.h"

#include "net/mptcp.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define EVENTS 64
/* Connections accepted per wake-up of the listener, so one worker does not take them all. */
#define ACCEPTS_PER_WAKE 8
/* After the end marker, connections still open (their EOF in flight) get this long. */
#define END_GRACE_NS (1 * WS_NS_PER_SEC)
#define TICK_MS      100
/* epoll tags below the connection slots */
enum { TAG_LISTEN, TAG_WAKE, TAG_END, TAG_CONN };

void ws_crr_thread_times(int64_t *user, int64_t *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	*user = (int64_t)ru.ru_utime.tv_sec * WS_NS_PER_SEC + (int64_t)ru.ru_utime.tv_usec * 1000;
	*sys = (int64_t)ru.ru_stime.tv_sec * WS_NS_PER_SEC + (int64_t)ru.ru_stime.tv_usec * 1000;
}

int ws_crr_run_threads(void *(*fn)(void *), void *args, size_t size, uint32_t n, atomic_bool *stop,
		       const char *role, ws_err *err)
{
	pthread_t *t = malloc(n * sizeof(*t));
	if (!t)
		return ws_err_set(err, ENOMEM, "no memory for %u %s threads", n, role);
	uint32_t started = 0;
	int rc = 0;
	for (; started < n; started++)
		if (pthread_create(&t[started], NULL, fn, (char *)args + started * size) != 0) {
			atomic_store(stop, true);
			rc = ws_err_set(err, EAGAIN, "could not start %s worker thread %u of %u",
					role, started, n);
			break;
		}
	for (uint32_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	return rc;
}

int ws_crr_serve_fail(struct sworker *w, int code, const char *fmt, ...)
{
	if (w->err.code == 0) {
		va_list ap;
		va_start(ap, fmt);
		char msg[WS_ERR_MSG_MAX];
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		ws_err_set(&w->err, code, "%s", msg);
	}
	atomic_store(&w->s->failed, true);
	return -1;
}

uint32_t ws_crr_serve_slot(struct sworker *w)
{
	if (w->free_head == UINT32_MAX) {
		uint32_t ncap = w->cap ? w->cap * 2 : 16;
		struct sconn *n = realloc(w->conns, ncap * sizeof(*n));
		if (!n)
			return UINT32_MAX;
		for (uint32_t i = w->cap; i < ncap; i++)
			n[i] = (struct sconn){.fd = -1,
					      .phase = S_FREE,
					      .next_free = i + 1 < ncap ? i + 1 : UINT32_MAX};
		w->free_head = w->cap;
		w->conns = n;
		w->cap = ncap;
	}
	uint32_t i = w->free_head;
	w->free_head = w->conns[i].next_free;
	return i;
}

void ws_crr_serve_release(struct sworker *w, uint32_t i)
{
	w->conns[i] = (struct sconn){.fd = -1, .phase = S_FREE, .next_free = w->free_head};
	w->free_head = i;
	w->live--;
}

static void conn_close(struct sworker *w, uint32_t i)
{
	close(w->conns[i].fd);
	ws_crr_serve_release(w, i);
}

void ws_crr_serve_count(struct sworker *w)
{
	w->trans++;
	if (w->s->p->idle_end_ns)
		atomic_fetch_add_explicit(&w->s->served, 1, memory_order_relaxed);
}

void ws_crr_serve_end_marker(struct sworker *w, int64_t now)
{
	struct crr_server *s = w->s;
	if (atomic_exchange(&s->ending, true))
		return;
	atomic_store(&s->ending_at, now);
	ssize_t r = write(s->endpipe[1], "e", 1);
	(void)r;
}

static void want_events(struct sworker *w, uint32_t i, uint32_t events)
{
	struct sconn *c = &w->conns[i];
	struct epoll_event ev = {.events = events, .data.u64 = TAG_CONN + (uint64_t)i};
	if (epoll_ctl(w->ep, c->reg ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev) < 0) {
		ws_crr_serve_fail(w, -errno, "epoll_ctl: %s", strerror(errno));
		conn_close(w, i);
		return;
	}
	c->reg = true;
}

/* Send (the rest of) the response; on a full socket wait for EPOLLOUT. */
static void respond(struct sworker *w, uint32_t i, int64_t now)
{
	const ws_test_spec *spec = w->s->p->spec;
	struct sconn *c = &w->conns[i];
	if (spec->rsp_size == 0) { /* -c on TCP_STREAM: the message is in, close */
		ws_crr_serve_count(w);
		conn_close(w, i);
		return;
	}
	for (;;) {
		ssize_t r =
			send(c->fd, w->buf, spec->rsp_size - c->done, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (r > 0) {
			c->done += (uint32_t)r;
			w->sent += (uint64_t)r;
			w->scalls++;
			c->last = now;
			if (c->done < spec->rsp_size)
				continue;
			/* the responder closes first, as netserver does: the FIN follows the
			 * response, and TIME_WAIT stays here, not on the client's ports */
			ws_crr_serve_count(w);
			conn_close(w, i);
			return;
		}
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			bool first = c->phase != S_RSP;
			c->phase = S_RSP;
			if (first)
				want_events(w, i, EPOLLOUT); /* (which closes it on failure) */
			return;
		}
		if (errno == EPIPE || errno == ECONNRESET) { /* the client gave up on this one */
			conn_close(w, i);
			return;
		}
		ws_crr_serve_fail(w, -errno, "send of the %u-byte TCP_CRR response: %s",
				  spec->rsp_size, strerror(errno));
		conn_close(w, i);
		return;
	}
}

static void serve(struct sworker *w, uint32_t i, int64_t now)
{
	const ws_test_spec *spec = w->s->p->spec;
	struct sconn *c = &w->conns[i];
	if (c->phase == S_RSP) {
		respond(w, i, now);
		return;
	}
	for (;;) {
		ssize_t r = recv(c->fd, w->buf, spec->req_size - c->done, MSG_DONTWAIT);
		if (r > 0) {
			c->done += (uint32_t)r;
			w->recvd += (uint64_t)r;
			w->rcalls++;
			c->last = now;
			if (c->done < spec->req_size)
				continue;
			w->connects++;
			c->done = 0;
			respond(w, i, now);
			return;
		}
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return;
		if (r == 0 && c->done == 0) { /* closed before sending a byte: the end marker */
			ws_crr_serve_end_marker(w, now);
			conn_close(w, i);
			return;
		}
		if (r == 0)
			ws_crr_serve_fail(w, WS_E_PROTO,
					  "a TCP_CRR connection closed after %u of %u request "
					  "bytes (response "
					  "%u bytes)",
					  c->done, spec->req_size, spec->rsp_size);
		else
			ws_crr_serve_fail(w, -errno, "receive of a %u-byte TCP_CRR request: %s",
					  spec->req_size, strerror(errno));
		conn_close(w, i);
		return;
	}
}

enum crr_admit ws_crr_serve_admit(struct sworker *w, int fd, const ws_addr *peer, int64_t now,
				  uint32_t *slot)
{
	const ws_rr_params *p = w->s->p;
	char a[64];
	ws_addr_format(peer, a, sizeof(a));
	if (strcmp(a, w->s->want) != 0) { /* not the client's address: not served */
		w->strangers++;
		return ADMIT_STRANGER;
	}
	atomic_store_explicit(&w->s->last_activity, now, memory_order_relaxed);
	if (!w->mptcp_state && p->spec->mptcp)
		w->mptcp_state = ws_mptcp_state(fd, &w->mptcp_subflows);
	if (p->spec->type == WS_TEST_TCP_CC) { /* no request, no response: close at once */
		w->connects++;
		w->trans++;
		atomic_fetch_add_explicit(&w->s->served, 1, memory_order_relaxed);
		return ADMIT_DONE;
	}
	uint32_t i = ws_crr_serve_slot(w);
	if (i == UINT32_MAX) {
		ws_crr_serve_fail(w, ENOMEM, "no memory for another TCP_CRR connection");
		return ADMIT_STRANGER;
	}
	w->conns[i] = (struct sconn){.fd = fd, .phase = S_REQ, .last = now};
	w->live++;
	*slot = i;
	return ADMIT_SERVE;
}

bool ws_crr_serve_accept_failed(struct sworker *w, int e)
{
	if (e == EAGAIN || e == EWOULDBLOCK || e == EINTR || e == ECONNABORTED)
		return false;
	if (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM)
		ws_crr_serve_fail(w, -e,
				  "accept of a TCP_CRR connection: %s (the daemon's descriptor "
				  "or memory limit)",
				  strerror(e));
	else
		ws_crr_serve_fail(w, -e, "accept of a TCP_CRR connection: %s", strerror(e));
	return true;
}

static void accept_some(struct sworker *w, int64_t now)
{
	const ws_rr_params *p = w->s->p;
	for (int k = 0; k < ACCEPTS_PER_WAKE; k++) {
		ws_addr peer;
		memset(&peer, 0, sizeof(peer));
		peer.len = sizeof(peer.ss);
		int fd = accept4(p->listen_fd, (struct sockaddr *)&peer.ss, &peer.len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			ws_crr_serve_accept_failed(w, errno);
			return;
		}
		uint32_t i;
		enum crr_admit what = ws_crr_serve_admit(w, fd, &peer, now, &i);
		if (what != ADMIT_SERVE) {
			close(fd);
			if (what == ADMIT_DONE || !w->err.code)
				continue;
			return;
		}
		if (p->spec->req_size == 0) { /* -c on TCP_MAERTS: the response at once */
			w->connects++;
			respond(w, i, now); /* (a full socket: it waits for EPOLLOUT) */
			continue;
		}
		/* The request often arrived with the handshake's last ACK: serve it now, and
		 * only a connection that must wait joins the epoll set. */
		serve(w, i, now);
		if (w->conns[i].fd == fd && !w->conns[i].reg)
			want_events(w, i, EPOLLIN);
	}
}

/* idle_end_ns: the end of a client that sends no end marker (see rr.h). */
static void idle_end(struct sworker *w, int64_t now)
{
	const ws_rr_params *p = w->s->p;
	if (w->live)
		return;
	int64_t last = atomic_load_explicit(&w->s->last_activity, memory_order_relaxed);
	if (p->end_count &&
	    atomic_load_explicit(&w->s->served, memory_order_relaxed) >= p->end_count)
		ws_crr_serve_end_marker(w, now);
	else if (!p->end_count && p->end_ns && now >= p->end_ns && now - last >= p->idle_end_ns)
		ws_crr_serve_end_marker(w, last);
}

/* Once a second: connections idle for stall_ns are dropped (the client's side times them
 * out itself); no new connection for stall_ns fails the test. */
static void check_idle(struct sworker *w, int64_t now)
{
	const ws_rr_params *p = w->s->p;
	for (uint32_t i = 0; i < w->cap; i++)
		if (w->conns[i].phase != S_FREE && w->conns[i].phase != S_DROP &&
		    now - w->conns[i].last > p->stall_ns) {
			if (w->ur)
				ws_crr_serve_uring_drop(w, i);
			else
				conn_close(w, i);
		}
	int64_t last = atomic_load_explicit(&w->s->last_activity, memory_order_relaxed);
	if (now - last > p->stall_ns)
		ws_crr_serve_fail(
			w, WS_E_TIMEDOUT,
			"no TCP_CRR connection from the client (%s) for %.0f s, and no end marker",
			w->s->want, (double)p->stall_ns / WS_NS_PER_SEC);
}

static int add_fd(struct sworker *w, int fd, uint64_t tag, uint32_t events)
{
	struct epoll_event ev = {.events = events, .data.u64 = tag};
	return epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &ev);
}

static void run_server(struct sworker *w)
{
	struct crr_server *s = w->s;
	const ws_rr_params *p = s->p;
	/* one worker wakes per pending connection where the kernel can (4.5+) */
	if (add_fd(w, p->listen_fd, TAG_LISTEN, EPOLLIN | EPOLLEXCLUSIVE) < 0 &&
	    add_fd(w, p->listen_fd, TAG_LISTEN, EPOLLIN) < 0) {
		ws_crr_serve_fail(w, -errno, "epoll_ctl for the data listener: %s",
				  strerror(errno));
		return;
	}
	if ((p->wake_fd >= 0 && add_fd(w, p->wake_fd, TAG_WAKE, EPOLLIN) < 0) ||
	    add_fd(w, s->endpipe[0], TAG_END, EPOLLIN) < 0) {
		ws_crr_serve_fail(w, -errno, "epoll_ctl: %s", strerror(errno));
		return;
	}
	struct epoll_event ev[EVENTS];
	int64_t next_check = ws_clock_ns() + WS_NS_PER_SEC;
	while (!atomic_load_explicit(&s->failed, memory_order_relaxed)) {
		int n = epoll_wait(w->ep, ev, EVENTS, TICK_MS);
		int64_t now = ws_clock_ns();
		for (int k = 0; k < n && w->err.code == 0; k++) {
			uint64_t tag = ev[k].data.u64;
			if (tag == TAG_LISTEN)
				accept_some(w, now);
			else if (tag == TAG_WAKE)
				ws_crr_serve_fail(w, ECANCELED, "the daemon is stopping");
			else if (tag == TAG_END) /* seen: stop waking on it */
				epoll_ctl(w->ep, EPOLL_CTL_DEL, s->endpipe[0], NULL);
			else if (w->conns[tag - TAG_CONN].phase != S_FREE)
				serve(w, (uint32_t)(tag - TAG_CONN), now);
		}
		if (w->err.code || ws_crr_serve_checks(w, now, &next_check))
			return;
	}
}

bool ws_crr_serve_checks(struct sworker *w, int64_t now, int64_t *next_check)
{
	struct crr_server *s = w->s;
	const ws_rr_params *p = s->p;
	if (p->idle_end_ns && !atomic_load(&s->ending))
		idle_end(w, now);
	if (atomic_load(&s->ending) &&
	    (w->live == 0 || now - atomic_load(&s->ending_at) > END_GRACE_NS))
		return true;
	if (p->cap_ns && now >= p->cap_ns) {
		ws_crr_serve_fail(w, WS_E_LIMIT, "stopped by the time cap");
		return true;
	}
	if (now >= *next_check) {
		check_idle(w, now);
		*next_check = now + WS_NS_PER_SEC;
	}
	return w->err.code != 0;
}

static void *worker_main(void *arg)
{
	struct sworker *w = arg;
	const ws_test_spec *spec = w->s->p->spec;
	int64_t u0, s0, u1, s1;
	ws_crr_thread_times(&u0, &s0);
	w->bufsz = spec->req_size > spec->rsp_size ? spec->req_size : spec->rsp_size;
	w->buf = malloc(w->bufsz);
	bool uring = w->s->p->engine == WS_ENGINE_IO_URING;
	w->ep = uring ? -1 : epoll_create1(EPOLL_CLOEXEC);
	if (!w->buf || (!uring && w->ep < 0))
		ws_crr_serve_fail(w, ENOMEM, "server worker %u could not start", w->id);
	else if (w->cpu >= 0 && ws_affinity_pin_self(w->cpu, &w->err) < 0)
		atomic_store(&w->s->failed, true);
	if (w->buf)
		memset(w->buf, 'y', w->bufsz);
	if (w->err.code == 0 && uring)
		ws_crr_serve_uring_main(w);
	else if (w->err.code == 0)
		run_server(w);
	for (uint32_t i = 0; i < w->cap; i++)
		if (w->conns[i].phase != S_FREE)
			conn_close(w, i);
	free(w->conns);
	free(w->buf);
	if (w->ep >= 0)
		close(w->ep);
	ws_crr_thread_times(&u1, &s1);
	w->user_ns = u1 - u0;
	w->sys_ns = s1 - s0;
	return NULL;
}

static int fill_server(struct crr_server *s, struct sworker *w, ws_side_result *res, ws_err *err)
{
	const ws_rr_params *p = s->p;
	int rc = 0;
	for (uint32_t t = 0; t < s->nthreads; t++) {
		res->transactions += w[t].trans;
		res->connects += w[t].connects;
		res->connect_errors += w[t].strangers;
		if (w[t].mptcp_state && !res->mptcp_state[0]) {
			snprintf(res->mptcp_state, sizeof(res->mptcp_state), "%s",
				 w[t].mptcp_state);
			res->mptcp_subflows = w[t].mptcp_subflows;
		}
		res->bytes_sent += w[t].sent;
		res->bytes_recv += w[t].recvd;
		res->send_calls += w[t].scalls;
		res->recv_calls += w[t].rcalls;
		res->thread_user_ns += w[t].user_ns;
		res->thread_sys_ns += w[t].sys_ns;
		/* the first failure is the cause; "stopping" and the cap are said by the others */
		if (w[t].err.code && (rc == 0 || rc == -ECANCELED)) {
			*err = w[t].err;
			rc = w[t].err.code;
		}
	}
	int64_t end = atomic_load(&s->ending) ? atomic_load(&s->ending_at) : ws_clock_ns();
	res->elapsed_ns = end - p->start_ns;
	res->send_size = p->spec->rsp_size;
	res->recv_size = p->spec->req_size;
	if (p->engine == WS_ENGINE_IO_URING)
		snprintf(res->io_path, sizeof(res->io_path), "io_uring");
	if (rc == -WS_E_LIMIT)
		ws_err_set(err, WS_E_LIMIT,
			   "stopped by the time cap after %.1f s, %llu transactions",
			   (double)res->elapsed_ns / WS_NS_PER_SEC,
			   (unsigned long long)res->transactions);
	if (s->nthreads > 1 || p->spec->streams > 1) {
		res->threads = calloc(s->nthreads, sizeof(*res->threads));
		if (!res->threads)
			return rc ? rc
				  : ws_err_set(err, ENOMEM, "no memory for %u thread results",
					       s->nthreads);
		res->nthreads = s->nthreads;
		for (uint32_t t = 0; t < s->nthreads; t++)
			res->threads[t] = (ws_thread_result){
				.user_ns = w[t].user_ns, .sys_ns = w[t].sys_ns, .cpu = w[t].cpu};
	}
	return rc;
}

int ws_crr_serve(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	if (p->listen_fd < 0)
		return ws_err_set(err, WS_E_INVAL, "TCP_CRR server: no data listener");
	uint32_t flows = p->spec->streams ? p->spec->streams : 1;
	struct crr_server s = {.p = p, .endpipe = {-1, -1}};
	s.nthreads = p->threads < 1 ? 1 : p->threads > flows ? flows : p->threads;
	ws_addr_format(&p->expect_peer, s.want, sizeof(s.want));
	atomic_store(&s.last_activity, p->start_ns);
	/* accept_some takes what is queued and must not wait for more */
	int fl = fcntl(p->listen_fd, F_GETFL);
	if (fl < 0 || fcntl(p->listen_fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return ws_err_errno(err, "fcntl on the data listener");
	if (pipe2(s.endpipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return ws_err_errno(err, "pipe");
	struct sworker *w = calloc(s.nthreads, sizeof(*w));
	int rc = w ? 0 : ws_err_set(err, ENOMEM, "no memory for %u server workers", s.nthreads);
	for (uint32_t t = 0; rc == 0 && t < s.nthreads; t++)
		w[t] = (struct sworker){.s = &s,
					.id = t,
					.ep = -1,
					.free_head = UINT32_MAX,
					.cpu = p->ncpus ? p->cpus[t % p->ncpus] : -1};
	if (rc == 0)
		rc = ws_crr_run_threads(worker_main, w, sizeof(*w), s.nthreads, &s.failed, "server",
					err);
	if (rc == 0)
		rc = fill_server(&s, w, res, err);
	free(w);
	close(s.endpipe[0]);
	close(s.endpipe[1]);
	return rc;
}
