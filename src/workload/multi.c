/* SPDX-License-Identifier: BSD-2-Clause */
/* multi: the epoll worker threads of a multi-stream run; see multi.h.
 *
 * Sockets are non-blocking and level-triggered; a ready flow gets a bounded number of
 * calls per wake-up so that one fast flow cannot starve the others of its thread. The
 * deadline bounds every epoll_wait, so no thread sleeps past the end of the test. */
#include "workload/multi.h"

#include "measure/interim.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/pool.h"
#include "workload/udp_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* Calls per flow per turn, so that one thread's flows share it fairly. A sender that used
 * its turn without EAGAIN gets another at once, not at its next EPOLLOUT: the kernel
 * reports a TCP socket writable only below 2/3 of its send buffer, so waiting for that
 * kept the buffer between 2/3 and 2/3 + a turn's bytes, where a blocking sender (netperf,
 * the one-flow engine) keeps it full. RRUL's flows on gige-bloat held 3.15 MB each in
 * flight (of 4 MB buffers) and never overflowed its 100 ms queue, while netperf's did. */
#define CALLS_PER_WAKE 16
#define EVENTS         64

enum flow_phase { PH_SEND, PH_DRAIN, PH_RECV, PH_DONE, PH_FAILED };

static bool active(enum flow_phase ph) { return ph == PH_SEND || ph == PH_DRAIN || ph == PH_RECV; }

struct flow {
	ws_tcpio io;
	enum flow_phase phase;
	uint64_t moved, calls, limit;
	int64_t last_progress, end_ns;
	int error;
	uint32_t rcvlowat; /* receiver: the wake threshold the kernel kept */
	int unacked;       /* draining sender: the send queue at the last stall check */
	bool more;         /* sender: its last turn ended with the socket still taking data */
	uint64_t turn;     /* sender: the worker's round of its last turn */
	char why[80];
};

struct worker {
	const ws_multi_params *p;
	uint32_t id;
	struct flow *flows; /* all flows; this worker touches those with i % nthreads == id */
	char *buf;
	int64_t t0;
	int ep;
	uint32_t nmine;
	uint64_t round; /* run_loop's epoll rounds */
	ws_err err;     /* set when the thread could not start (pinning, epoll) */
};

static void fail_flow(struct flow *f, int ep, int fd, int code, const char *why)
{
	f->phase = PH_FAILED;
	f->error = code < 0 ? code : -code;
	f->end_ns = ws_clock_ns();
	snprintf(f->why, sizeof(f->why), "%s", why);
	epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
}

static void finish_flow(struct flow *f, int ep, int fd)
{
	f->phase = PH_DONE;
	f->end_ns = ws_clock_ns();
	epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
}

/* The sender's deadline (or byte share) is reached: half-close, then wait for EOF. */
static void start_drain(const ws_stream_params *io, struct flow *f, uint32_t i, int ep, int fd)
{
	ws_err e;
	bool sent = ws_tcpio_tx_finish(&f->io, ws_clock_ns() + WS_NS_PER_SEC, &e) == 0;
	if (sent && io->before_half_close)
		io->before_half_close(io->before_half_close_arg, fd);
	if (!sent || shutdown(fd, SHUT_WR) < 0) {
		fail_flow(f, ep, fd, -EIO, "could not finish sending");
		return;
	}
	f->phase = PH_DRAIN;
	f->last_progress = ws_clock_ns();
	f->unacked = -1;
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
	epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

static void on_send_ready(struct worker *w, uint32_t i, int ep, int64_t now, bool past_deadline)
{
	const ws_multi_params *p = w->p;
	struct flow *f = &w->flows[i];
	int fd = p->fds[i];
	f->more = false;
	f->turn = w->round;
	for (int k = 0; k < CALLS_PER_WAKE && f->phase == PH_SEND; k++) {
		size_t n = p->io.send_size;
		if (p->io.end == WS_END_BYTES && f->limit - f->moved < n)
			n = (size_t)(f->limit - f->moved);
		if (past_deadline || n == 0) {
			start_drain(&p->io, f, i, ep, fd);
			return;
		}
		ssize_t r = ws_tcpio_send(&f->io, n);
		if (r > 0) {
			f->moved += (uint64_t)r;
			ws_interim_add(ws_interim_at(p->io.progress, i), (uint64_t)r);
			f->calls++;
			f->last_progress = now;
			f->more = k == CALLS_PER_WAKE - 1;
			continue;
		}
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return;
		char why[80];
		snprintf(why, sizeof(why), "%.20s: %.56s", ws_tcpio_tx_name(&f->io),
			 f->io.note[0] ? f->io.note : strerror(errno));
		fail_flow(f, ep, fd, -errno, why);
		return;
	}
}

static void on_recv_ready(struct worker *w, uint32_t i, int ep, int64_t now)
{
	const ws_multi_params *p = w->p;
	struct flow *f = &w->flows[i];
	int fd = p->fds[i];
	size_t n = w->p->sender ? p->io.send_size : p->io.recv_size;
	for (int k = 0; k < CALLS_PER_WAKE; k++) {
		ssize_t r = ws_tcpio_recv(&f->io, n);
		if (r > 0) {
			if (!w->p->sender) {
				f->moved += (uint64_t)r;
				ws_interim_add(ws_interim_at(p->io.progress, i), (uint64_t)r);
				f->calls++;
			}
			f->last_progress = now;
			continue;
		}
		if (r == 0) {
			if (!w->p->sender)
				shutdown(fd, SHUT_WR); /* ends the sender's drain for this flow */
			finish_flow(f, ep, fd);
			return;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		char why[80];
		snprintf(why, sizeof(why), "%.20s: %.56s", ws_tcpio_rx_name(&f->io),
			 strerror(errno));
		fail_flow(f, ep, fd, -errno, why);
		return;
	}
}

static int setup_flows(struct worker *w, int ep)
{
	const ws_multi_params *p = w->p;
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads) {
		struct flow *f = &w->flows[i];
		int fd = p->fds[i];
		f->phase = p->sender ? PH_SEND : PH_RECV;
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		int rc = p->sender
			? ws_tcpio_tx_open(&f->io, fd, p->io.tx, w->buf, p->io.file_fd, &w->err)
			: ws_tcpio_rx_open(&f->io, fd, p->io.rx, w->buf, &w->err);
		if (rc < 0)
			return rc;
		f->io.file_span =
			ws_tcpio_sendfile_span(f->io.file_size, p->io.sndbuf, p->io.send_size);
		if (!p->sender) /* epoll then reports EPOLLIN once that much is queued */
			f->rcvlowat = ws_tcpio_rx_wake(&f->io, p->io.rcvlowat);
		struct epoll_event ev = {.events = p->sender ? EPOLLOUT : EPOLLIN, .data.u32 = i};
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
			return ws_err_errno(&w->err, "epoll_ctl for flow %u", i);
		w->nmine++;
	}
	return 0;
}

static uint32_t count_active(const struct worker *w)
{
	uint32_t n = 0;
	for (uint32_t i = w->id; i < w->p->nflows; i += w->p->nthreads)
		n += active(w->flows[i].phase);
	return n;
}

/* Flows that moved nothing for stall_ns fail, so a dead peer cannot hold the run; past the
 * test's end the limit is WS_STREAM_END_STALL_NS (see stream.c). A draining sender's
 * progress is its send queue shrinking. */
static void check_stalls(struct worker *w, int ep, int64_t now)
{
	const ws_multi_params *p = w->p;
	bool ended = p->io.end == WS_END_TIME &&
		now >= w->t0 + p->io.duration_ns + WS_STREAM_END_STALL_NS;
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads) {
		struct flow *f = &w->flows[i];
		if (ended && f->phase == PH_RECV &&
		    now - f->last_progress < WS_STREAM_END_STALL_NS) {
			/* the end-of-test stall limit holds for a sender that still trickles, too */
			fail_flow(f, ep, p->fds[i], -ETIMEDOUT,
				  "the sender was still sending past the end-of-test stall limit");
		} else if (f->phase == PH_DRAIN) {
			if (ws_tcpio_unacked_shrank(p->fds[i], &f->unacked))
				f->last_progress = now;
			if (now - f->last_progress >= WS_STREAM_END_STALL_NS)
				fail_flow(
					f, ep, p->fds[i], -ETIMEDOUT,
					"the receiver stopped reading (send queue not shrinking)");
		} else if (active(f->phase) &&
			   (now - f->last_progress > p->io.stall_ns ||
			    (ended && now - f->last_progress >= WS_STREAM_END_STALL_NS))) {
			fail_flow(f, ep, p->fds[i], -ETIMEDOUT,
				  "moved no data for the stall timeout");
		}
	}
}

static void run_loop(struct worker *w, int ep)
{
	const ws_multi_params *p = w->p;
	int64_t deadline = w->t0 + p->io.duration_ns;
	struct epoll_event ev[EVENTS];
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads)
		w->flows[i].last_progress = w->t0;
	int64_t next_stall_check = w->t0 + WS_NS_PER_SEC;
	while (count_active(w) > 0) {
		int64_t now = ws_clock_ns();
		bool past = p->io.end == WS_END_TIME && now >= deadline;
		int ms = past || p->io.end != WS_END_TIME ? 100 : ws_clock_ms_until(deadline);
		if (ms > 100)
			ms = 100;
		bool more = false;
		for (uint32_t i = w->id; p->sender && !more && i < p->nflows; i += p->nthreads)
			more = w->flows[i].phase == PH_SEND && w->flows[i].more;
		int n = epoll_wait(ep, ev, EVENTS, more ? 0 : ms);
		now = ws_clock_ns();
		past = p->io.end == WS_END_TIME && now >= deadline;
		w->round++;
		for (int k = 0; k < n; k++) {
			uint32_t i = ev[k].data.u32;
			struct flow *f = &w->flows[i];
			if (f->phase == PH_SEND)
				on_send_ready(w, i, ep, now, past);
			else if (f->phase == PH_DRAIN || f->phase == PH_RECV)
				on_recv_ready(w, i, ep, now);
		}
		/* senders whose last turn ended with room left, and no EPOLLOUT this round */
		for (uint32_t i = w->id; more && i < p->nflows; i += p->nthreads)
			if (w->flows[i].phase == PH_SEND && w->flows[i].more &&
			    w->flows[i].turn != w->round)
				on_send_ready(w, i, ep, now, past);
		if (past && p->sender) /* flows that were not writable at the deadline */
			for (uint32_t i = w->id; i < p->nflows; i += p->nthreads)
				if (w->flows[i].phase == PH_SEND)
					on_send_ready(w, i, ep, now, true);
		if (p->io.cap_ns && now >= p->io.cap_ns) /* the time cap: every flow ends now */
			for (uint32_t i = w->id; i < p->nflows; i += p->nthreads)
				if (active(w->flows[i].phase))
					fail_flow(&w->flows[i], ep, p->fds[i], -WS_E_LIMIT,
						  "stopped by the time cap");
		if (now >= next_stall_check) {
			check_stalls(w, ep, now);
			next_stall_check = now + WS_NS_PER_SEC;
		}
	}
}

static void worker_setup(void *ctx, ws_pool_thread *t)
{
	struct worker *w = (struct worker *)ctx + t->id;
	const ws_multi_params *p = w->p;
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	/* Only the role's own size: a receiver never sends, a draining sender reads with its
	 * send size (ws_workload_cost_of counts the same). */
	size_t bsz = p->sender ? p->io.send_size : p->io.recv_size;
	w->buf = malloc(bsz ? bsz : 1);
	if (w->buf)
		memset(w->buf, 0x5a, bsz);
	if (w->ep < 0 || !w->buf)
		ws_err_set(&t->err, ENOMEM, "worker %u could not start", w->id);
	else if (p->sender && p->io.file_fd >= 0 && p->io.tx != WS_TX_SENDFILE &&
		 ws_stream_fill_from_file(w->buf, bsz, p->io.file_fd) < 0)
		ws_err_errno(&t->err, "cannot read the file that fills the send buffer (-F)");
	else if (setup_flows(w, w->ep) < 0)
		t->err = w->err;
}

static void worker_run(void *ctx, ws_pool_thread *t)
{
	struct worker *w = (struct worker *)ctx + t->id;
	w->t0 = t->t0;
	run_loop(w, w->ep);
}

static void worker_teardown(void *ctx, ws_pool_thread *t)
{
	struct worker *w = (struct worker *)ctx + t->id;
	const ws_multi_params *p = w->p;
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads)
		ws_tcpio_close(&w->flows[i].io);
	if (w->ep >= 0)
		close(w->ep);
	free(w->buf);
}

static const ws_pool_ops worker_ops = {worker_setup, worker_run, worker_teardown};

static void collect(const ws_multi_params *p, const ws_pool_thread *th, const struct worker *w,
		    struct flow *flows, int64_t t0, ws_side_result *res)
{
	for (uint32_t i = 0; i < p->nflows; i++) {
		ws_flow_result *fr = &res->flows[i];
		struct flow *f = &flows[i];
		fr->bytes = f->moved;
		fr->calls = f->calls;
		fr->elapsed_ns = (f->end_ns ? f->end_ns : ws_clock_ns()) - t0;
		fr->thread = i % p->nthreads;
		fr->error = f->phase == PH_FAILED ? f->error : 0;
		snprintf(fr->why, sizeof(fr->why), "%s", f->phase == PH_FAILED ? f->why : "");
		if (p->sender) {
			res->bytes_sent += f->moved;
			res->send_calls += f->calls;
		} else {
			res->bytes_recv += f->moved;
			res->recv_calls += f->calls;
		}
		res->zc_sends += f->io.zc_sends;
		res->zc_copied += f->io.zc_copied;
	}
	for (uint32_t t = 0; t < p->nthreads; t++) {
		res->threads[t] = (ws_thread_result){.user_ns = th[t].user_ns,
						     .sys_ns = th[t].sys_ns,
						     .cpu = th[t].cpu,
						     .flows = w[t].nmine};
		res->thread_user_ns += th[t].user_ns;
		res->thread_sys_ns += th[t].sys_ns;
	}
	const ws_tcpio *io0 = &flows[0].io;
	snprintf(res->io_path, sizeof(res->io_path), "%s",
		 p->sender ? ws_tcpio_tx_name(io0) : ws_tcpio_rx_name(io0));
	snprintf(res->io_note, sizeof(res->io_note), "%s", io0->note);
	res->rcvlowat = p->sender ? 0 : flows[0].rcvlowat;
}

int ws_multi_run(const ws_multi_params *p, ws_side_result *res, ws_err *err)
{
	struct flow *flows = calloc(p->nflows, sizeof(*flows));
	struct worker *w = calloc(p->nthreads, sizeof(*w));
	ws_pool_thread *th = calloc(p->nthreads, sizeof(*th));
	res->flows = calloc(p->nflows, sizeof(*res->flows));
	res->threads = calloc(p->nthreads, sizeof(*res->threads));
	if (!flows || !w || !th || !res->flows || !res->threads) {
		free(flows);
		free(w);
		free(th);
		ws_side_result_free(res);
		return ws_err_set(err, ENOMEM, "no memory for %u flows", p->nflows);
	}
	res->nflows = p->nflows;
	res->nthreads = p->nthreads;
	for (uint32_t i = 0; i < p->nflows; i++)
		flows[i].limit =
			p->io.byte_limit / p->nflows + (i < p->io.byte_limit % p->nflows ? 1 : 0);
	for (uint32_t t = 0; t < p->nthreads; t++)
		w[t] = (struct worker){.p = p, .id = t, .flows = flows, .ep = -1};
	uint32_t started;
	int64_t t0;
	int rc = ws_pool_run(p->nthreads, p->cpus, p->ncpus > 0 ? (uint32_t)p->ncpus : 0,
			     &worker_ops, w, th, &started, &t0, err);
	res->elapsed_ns = ws_clock_ns() - t0;
	if (started == p->nthreads)
		collect(p, th, w, flows, t0, res);
	uint32_t done = 0;
	bool capped = false;
	for (uint32_t i = 0; i < p->nflows; i++) {
		done += flows[i].phase == PH_DONE;
		capped |= flows[i].phase == PH_FAILED && flows[i].error == -WS_E_LIMIT;
	}
	free(flows);
	free(w);
	free(th);
	if (rc == 0 && capped)
		rc = ws_stream_capped(t0, p->sender ? res->bytes_sent : res->bytes_recv,
				      p->sender ? "sent" : "received", err);
	else if (rc == 0 && done == 0)
		rc = ws_err_set(err, EIO, "every one of the %u flows failed; the first: %s",
				p->nflows, res->flows[0].why);
	return rc;
}

/* --- UDP: a thread per flow ------------------------------------------------------- */

struct udp_flow {
	const ws_test_spec *spec;
	bool sender;
	int fd;
	int fill_fd;
	int cpu;
	int64_t cap_ns;
	ws_gate *gate;
	pthread_t thread;
	ws_side_result res;
	ws_err err;
	int rc;
	int64_t user_ns, sys_ns;
	ws_interim_counter *progress; /* -D: this flow's counter, or NULL */
};

static void *udp_flow_main(void *arg)
{
	struct udp_flow *f = arg;
	if (f->cpu >= 0)
		f->rc = ws_affinity_pin_self(f->cpu, &f->err);
	ws_gate_wait(f->gate);
	int64_t u0, s0, u1, s1;
	ws_thread_cpu_ns(&u0, &s0);
	if (f->rc == 0)
		f->rc = ws_udp_run_role_progress(f->spec, f->sender, f->fd, f->fill_fd, f->cap_ns,
						 f->progress, &f->res, &f->err);
	ws_thread_cpu_ns(&u1, &s1);
	f->user_ns = u1 - u0;
	f->sys_ns = s1 - s0;
	return NULL;
}

static void sum_udp(const struct udp_flow *f, uint32_t i, ws_side_result *res)
{
	const ws_side_result *r = &f->res;
	res->bytes_sent += r->bytes_sent;
	res->bytes_recv += r->bytes_recv;
	res->send_calls += r->send_calls;
	res->recv_calls += r->recv_calls;
	res->send_syscalls += r->send_syscalls;
	res->recv_syscalls += r->recv_syscalls;
	res->dgrams_sent += r->dgrams_sent;
	res->dgrams_recv += r->dgrams_recv;
	res->dgrams_lost += r->dgrams_lost;
	res->dgrams_reordered += r->dgrams_reordered;
	res->dgrams_dup += r->dgrams_dup;
	res->send_errors += r->send_errors;
	res->bad_dgrams += r->bad_dgrams;
	res->dgrams_jumps += r->dgrams_jumps;
	if (r->elapsed_ns > res->elapsed_ns)
		res->elapsed_ns = r->elapsed_ns;
	res->flows[i] = (ws_flow_result){
		.bytes = f->sender ? r->bytes_sent : r->bytes_recv,
		.calls = f->sender ? r->send_calls : r->recv_calls,
		.elapsed_ns = r->elapsed_ns,
		.thread = i,
		.error = f->rc,
	};
	if (f->rc)
		snprintf(res->flows[i].why, sizeof(res->flows[i].why), "%s", f->err.msg);
	res->threads[i] = (ws_thread_result){
		.user_ns = f->user_ns, .sys_ns = f->sys_ns, .cpu = f->cpu, .flows = 1};
	res->thread_user_ns += f->user_ns;
	res->thread_sys_ns += f->sys_ns;
}

int ws_multi_run_udp(const ws_test_spec *spec, bool sender, const int *fds, uint32_t nflows,
		     int fill_fd, const int *cpus, int ncpus, int64_t cap_ns,
		     ws_interim_counter *progress, ws_side_result *res, ws_err *err)
{
	struct udp_flow *f = calloc(nflows, sizeof(*f));
	res->flows = calloc(nflows, sizeof(*res->flows));
	res->threads = calloc(nflows, sizeof(*res->threads));
	if (!f || !res->flows || !res->threads) {
		free(f);
		ws_side_result_free(res);
		return ws_err_set(err, ENOMEM, "no memory for %u flows", nflows);
	}
	ws_gate g;
	ws_gate_init(&g, nflows + 1);
	uint32_t started = 0;
	for (; started < nflows; started++) {
		struct udp_flow *u = &f[started];
		*u = (struct udp_flow){.spec = spec,
				       .sender = sender,
				       .fd = fds[started],
				       .fill_fd = fill_fd,
				       .cap_ns = cap_ns,
				       .gate = &g,
				       .progress = ws_interim_at(progress, started),
				       .cpu = ncpus > 0 ? cpus[started % (uint32_t)ncpus] : -1};
		u->res.sndbuf_set = res->sndbuf_set;
		u->res.rcvbuf_set = res->rcvbuf_set;
		if (pthread_create(&u->thread, NULL, udp_flow_main, u) != 0) {
			ws_gate_shrink(&g, started + 1);
			break;
		}
	}
	int64_t t0 = ws_clock_ns();
	ws_gate_wait(&g);
	for (uint32_t i = 0; i < started; i++)
		pthread_join(f[i].thread, NULL);
	uint32_t done = 0, capped = 0;
	res->nflows = res->nthreads = nflows;
	for (uint32_t i = 0; i < started; i++) {
		sum_udp(&f[i], i, res);
		done += f[i].rc == 0;
		capped += f[i].rc == -WS_E_LIMIT;
	}
	res->send_size = f[0].res.send_size;
	res->recv_size = f[0].res.recv_size;
	snprintf(res->io_path, sizeof(res->io_path), "%s", f[0].res.io_path);
	snprintf(res->io_note, sizeof(res->io_note), "%s", f[0].res.io_note);
	ws_gate_destroy(&g);
	int rc = 0;
	if (started < nflows)
		rc = ws_err_set(err, EAGAIN, "could not start thread %u of %u", started, nflows);
	else if (capped)
		rc = ws_stream_capped(t0, sender ? res->bytes_sent : res->bytes_recv,
				      sender ? "sent" : "received", err);
	else if (done == 0)
		rc = ws_err_set(err, EIO, "every one of the %u flows failed; the first: %s", nflows,
				f[0].err.msg);
	free(f);
	return rc;
}
