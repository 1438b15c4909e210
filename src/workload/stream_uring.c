/* SPDX-License-Identifier: BSD-2-Clause */
/* stream_uring: TCP_STREAM and TCP_MAERTS on io_uring, one flow or many; see
 * stream_uring.h and docs/engines.md.
 *
 * Each worker thread owns one ring for its flows (i % threads == its index). A sender keeps
 * SEND_DEPTH writes of the send size in flight per flow, from the thread's buffer registered
 * with the ring (the kernel skips mapping the user pages on every call); a receiver has one
 * multishot receive armed per flow into the thread's provided-buffer ring, so the kernel
 * fills buffers as data comes without a request per call. All completions of a wake-up are
 * handled and their follow-ups go to the kernel in one io_uring_enter. The ending is the
 * epoll engine's: at the deadline (or the byte share) the sender half-closes once its
 * writes are back and waits for the receiver's EOF; the receiver half-closes at EOF.
 *
 * TCP_SENDFILE's sender has no write: io_uring has no sendfile, so each flow splices the
 * file through its own pipe, one chain at a time: a splice of up to the send size from the
 * file (at the flow's offset, wrapping where the epoll engine's sendfile does) into the pipe, linked to a splice from
 * the pipe into the socket, the first posting no completion when it succeeds. A socket
 * splice that ends short leaves the rest in the pipe, and the next chain is that rest. */
#include "workload/stream_uring.h"

#include "measure/interim.h"
#include "net/tcpio.h"
#include "net/uring.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef F_SETPIPE_SZ /* <fcntl.h> names them only for _GNU_SOURCE */
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#endif

#define OP_IO       1u /* a write (sender) or a receive */
#define OP_EOF      2u /* the draining sender's receive of the peer's EOF */
#define OP_FILL     3u /* TCP_SENDFILE: the splice from the file into the pipe */
#define SEND_DEPTH  2u
#define CQE_BATCH   256
#define BGID        1
#define BUFS_MIN    8u
#define BUFS_MAX    1024u
#define BUFS_BUDGET (32u << 20)
#define BUF_MAX     (256u << 10)

enum phase { PH_SEND, PH_DRAIN, PH_RECV, PH_DONE, PH_FAILED };

struct flow {
	int fd;
	enum phase phase;
	uint32_t inflight;
	uint64_t moved, calls, limit;
	int64_t last_progress, end_ns;
	int error;
	char why[80];
	int pipe[2];      /* TCP_SENDFILE: the flow's pipe, else -1 */
	uint32_t piped;   /* bytes in the pipe, not yet spliced into the socket */
	int64_t file_off; /* where the next splice from the file starts */
};

struct worker {
	const ws_multi_params *p;
	struct flow *flows;
	uint32_t id, nmine, nactive;
	char *buf;
	size_t bufsz;
	char eof_buf[64];
	bool sendfile;     /* the sender splices the file (TCP_SENDFILE) */
	int64_t file_size; /* where the splices from the file wrap (ws_tcpio_sendfile_span) */
	uint32_t pipe_cap; /* bytes a chain moves at most: the send size, or the pipe's size */
	ws_uring ring;
	ws_uring_bufs bufs;
	ws_uring_cqe cqe[CQE_BATCH];
};

static uint64_t tag(uint32_t i, unsigned op) { return (uint64_t)i << 8 | op; }

static bool live(const struct flow *f)
{
	return f->phase == PH_SEND || f->phase == PH_DRAIN || f->phase == PH_RECV;
}

static void end(struct worker *w, struct flow *f, enum phase ph)
{
	f->phase = ph;
	f->end_ns = ws_clock_ns();
	w->nactive--;
}

static void fail(struct worker *w, struct flow *f, int code, const char *what)
{
	snprintf(f->why, sizeof(f->why), "io_uring %s: %.60s", what,
		 code == WS_E_LIMIT ? "stopped by the time cap" : strerror(code));
	f->error = -code;
	end(w, f, PH_FAILED);
}

/* TCP_SENDFILE: queue the flow's next chain of up to n bytes (see the top). */
static int queue_splices(struct worker *w, uint32_t i, uint64_t n)
{
	struct flow *f = &w->flows[i];
	ws_uring *r = &w->ring;
	int rc = 0;
	if (f->piped == 0) {
		if (f->file_off >= w->file_size)
			f->file_off = 0;
		n = n < w->pipe_cap ? n : w->pipe_cap;
		n = (int64_t)n < w->file_size - f->file_off
			? n
			: (uint64_t)(w->file_size - f->file_off);
		if (ws_uring_space(r) < 2) /* a chain must reach the kernel whole */
			rc = ws_uring_submit_wait(r, 0, 0);
		if (rc == 0)
			rc = ws_uring_splice(r, w->p->io.file_fd, f->file_off, f->pipe[1],
					     (uint32_t)n, tag(i, OP_FILL));
		if (rc < 0)
			return rc;
		ws_uring_link(r, true, true);
		f->file_off += (int64_t)n;
		f->piped = (uint32_t)n;
	}
	return ws_uring_splice(r, f->pipe[0], -1, f->fd, f->piped, tag(i, OP_IO));
}

/* Sender: top the flow's writes up to SEND_DEPTH (TCP_SENDFILE: one chain), or half-close
 * once the end is reached and the writes are back. */
static void feed(struct worker *w, uint32_t i, bool past)
{
	const ws_multi_params *p = w->p;
	struct flow *f = &w->flows[i];
	uint32_t depth = w->sendfile ? 1 : SEND_DEPTH;
	while (f->phase == PH_SEND && f->inflight < depth) {
		uint64_t n = p->io.send_size;
		if (p->io.end == WS_END_BYTES) {
			uint64_t queued = f->moved +
				(w->sendfile ? f->piped : (uint64_t)f->inflight * p->io.send_size);
			n = queued >= f->limit ? 0 : f->limit - queued < n ? f->limit - queued : n;
		}
		if ((past || n == 0) && f->piped == 0)
			break;
		int rc = w->sendfile
			? queue_splices(w, i, n)
			: ws_uring_write_fixed(&w->ring, f->fd, w->buf, (uint32_t)n, tag(i, OP_IO));
		if (rc < 0) {
			fail(w, f, -rc, "queueing a write");
			return;
		}
		f->inflight++;
	}
	bool over = past || (p->io.end == WS_END_BYTES && f->moved >= f->limit);
	if (f->phase == PH_SEND && over && f->inflight == 0) {
		if (p->io.before_half_close)
			p->io.before_half_close(p->io.before_half_close_arg, f->fd);
		if (shutdown(f->fd, SHUT_WR) < 0) {
			fail(w, f, errno, "half-close");
			return;
		}
		f->phase = PH_DRAIN;
		f->last_progress = ws_clock_ns();
		int rc = ws_uring_recv(&w->ring, f->fd, w->eof_buf, sizeof(w->eof_buf),
				       tag(i, OP_EOF));
		if (rc < 0)
			fail(w, f, -rc, "queueing the EOF receive");
	}
}

static void on_cqe(struct worker *w, const ws_uring_cqe *e, int64_t now, bool past)
{
	const ws_multi_params *p = w->p;
	uint32_t i = (uint32_t)(e->data >> 8);
	struct flow *f = &w->flows[i];
	int buf = ws_uring_cqe_buf(e);
	if (buf >= 0)
		ws_uring_bufs_recycle(&w->bufs, buf);
	if (p->sender && (e->data & 0xff) == OP_IO)
		f->inflight--;
	if (!live(f))
		return;
	if ((e->data & 0xff) == OP_FILL) { /* failed, or short: the file shrank */
		fail(w, f, e->res < 0 ? -e->res : EIO, "splice from the file (-F)");
		return;
	}
	if (e->res > 0 && w->sendfile)
		f->piped -= (uint32_t)e->res;
	if ((e->data & 0xff) == OP_EOF) { /* the receiver's EOF (or stray bytes: read on) */
		if (e->res == 0)
			end(w, f, PH_DONE);
		else if (e->res < 0)
			fail(w, f, -e->res, "receive of the EOF");
		else if (ws_uring_recv(&w->ring, f->fd, w->eof_buf, sizeof(w->eof_buf),
				       tag(i, OP_EOF)) < 0)
			fail(w, f, EBUSY, "queueing the EOF receive");
		return;
	}
	if (e->res < 0 && e->res != -ENOBUFS) {
		fail(w, f, -e->res, p->sender ? "write" : "recv");
		return;
	}
	if (e->res > 0) {
		f->moved += (uint64_t)e->res;
		f->calls++;
		f->last_progress = now;
		ws_interim_add(ws_interim_at(p->io.progress, i), (uint64_t)e->res);
	}
	if (p->sender) {
		feed(w, i, past);
		return;
	}
	if (e->res == 0) { /* EOF: the sender is done; our half-close ends its drain */
		shutdown(f->fd, SHUT_WR);
		end(w, f, PH_DONE);
		return;
	}
	if (!ws_uring_cqe_more(e) &&
	    ws_uring_recv_multishot(&w->ring, f->fd, &w->bufs, tag(i, OP_IO)) < 0)
		fail(w, f, EBUSY, "re-arming recv");
}

/* Stalls, the end-of-test limit and the time cap, once a second. */
static void checks(struct worker *w, int64_t now, int64_t t0)
{
	const ws_multi_params *p = w->p;
	bool ended =
		p->io.end == WS_END_TIME && now >= t0 + p->io.duration_ns + WS_STREAM_END_STALL_NS;
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads) {
		struct flow *f = &w->flows[i];
		if (!live(f))
			continue;
		if (p->io.cap_ns && now >= p->io.cap_ns)
			fail(w, f, WS_E_LIMIT, "run");
		else if (now - f->last_progress > p->io.stall_ns ||
			 (ended && now - f->last_progress >= WS_STREAM_END_STALL_NS))
			fail(w, f, ETIMEDOUT, "flow moved no data for the stall timeout; run");
	}
}

static void worker_run(void *ctx, ws_pool_thread *t)
{
	struct worker *w = (struct worker *)ctx + t->id;
	const ws_multi_params *p = w->p;
	int64_t deadline = t->t0 + p->io.duration_ns;
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads) {
		w->flows[i].last_progress = t->t0;
		if (p->sender)
			feed(w, i, false);
	}
	int64_t next_check = t->t0 + WS_NS_PER_SEC;
	bool was_past = false;
	while (w->nactive > 0) {
		int64_t now = ws_clock_ns();
		int64_t until = next_check;
		if (p->io.end == WS_END_TIME && !was_past && deadline < until)
			until = deadline;
		int rc = ws_uring_submit_wait(&w->ring, 1, until > now ? until - now : 1);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
			for (uint32_t i = w->id; i < p->nflows; i += p->nthreads)
				if (live(&w->flows[i]))
					fail(w, &w->flows[i], -rc, "enter");
			break;
		}
		now = ws_clock_ns();
		bool past = p->io.end == WS_END_TIME && now >= deadline;
		unsigned n;
		while ((n = ws_uring_reap(&w->ring, w->cqe, CQE_BATCH)) > 0)
			for (unsigned k = 0; k < n; k++)
				on_cqe(w, &w->cqe[k], now, past);
		if (past && !was_past && p->sender) /* flows whose writes were all out */
			for (uint32_t i = w->id; i < p->nflows; i += p->nthreads)
				feed(w, i, true);
		was_past = past;
		if (now >= next_check) {
			checks(w, now, t->t0);
			next_check = now + WS_NS_PER_SEC;
		}
	}
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t v = 1;
	while (v < n)
		v <<= 1;
	return v;
}

/* TCP_SENDFILE: the file's size, and a pipe per flow of the send size where the kernel
 * allows (else its own size, which then bounds a chain). */
static int sendfile_setup(struct worker *w, uint32_t mine, ws_err *err)
{
	const ws_multi_params *p = w->p;
	struct stat st;
	if (fstat(p->io.file_fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return ws_err_set(err, WS_E_INVAL, "TCP_SENDFILE needs a regular, non-empty file");
	w->file_size = ws_tcpio_sendfile_span(st.st_size, p->io.sndbuf, p->io.send_size);
	w->pipe_cap = p->io.send_size;
	for (uint32_t i = w->id, k = 0; k < mine; i += p->nthreads, k++) {
		struct flow *f = &w->flows[i];
		if (pipe2(f->pipe, O_CLOEXEC) < 0)
			return ws_err_errno(err, "pipe for TCP_SENDFILE's splices");
		fcntl(f->pipe[1], F_SETPIPE_SZ, (int)p->io.send_size);
		int got = fcntl(f->pipe[1], F_GETPIPE_SZ);
		if (got > 0 && (uint32_t)got < w->pipe_cap)
			w->pipe_cap = (uint32_t)got;
	}
	return 0;
}

static void worker_setup(void *ctx, ws_pool_thread *t)
{
	struct worker *w = (struct worker *)ctx + t->id;
	const ws_multi_params *p = w->p;
	w->ring.fd = -1;
	/* the writes have no MSG_NOSIGNAL: a reset peer is -EPIPE here, not the process's end */
	sigset_t pipe;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, NULL);
	uint32_t mine = (p->nflows + p->nthreads - 1 - w->id) / p->nthreads;
	w->bufsz = p->sender ? p->io.send_size : 1;
	w->buf = malloc(w->bufsz);
	if (!w->buf) {
		ws_err_set(&t->err, ENOMEM, "worker %u could not start", w->id);
		return;
	}
	memset(w->buf, 0x5a, w->bufsz);
	w->sendfile = p->sender && p->io.tx == WS_TX_SENDFILE;
	if (w->sendfile && sendfile_setup(w, mine, &t->err) < 0)
		return;
	if (!w->sendfile && p->sender && p->io.file_fd >= 0 &&
	    ws_stream_fill_from_file(w->buf, w->bufsz, p->io.file_fd) < 0) {
		ws_err_errno(&t->err, "cannot read the file that fills the send buffer (-F)");
		return;
	}
	if (ws_uring_open(&w->ring, pow2_at_least(SEND_DEPTH * mine + 8), p->sqpoll, &t->err) < 0)
		return;
	if (p->sender && !w->sendfile) {
		if (ws_uring_register_buffer(&w->ring, w->buf, w->bufsz, &t->err) < 0)
			return;
	} else {
		uint32_t size = p->io.recv_size < BUF_MAX ? p->io.recv_size : BUF_MAX;
		uint32_t count = pow2_at_least(4 * mine);
		count = count < BUFS_MIN ? BUFS_MIN : count > BUFS_MAX ? BUFS_MAX : count;
		while (count > BUFS_MIN && (uint64_t)count * size > BUFS_BUDGET)
			count >>= 1;
		if (ws_uring_bufs_open(&w->ring, &w->bufs, BGID, count, size, &t->err) < 0)
			return;
	}
	for (uint32_t i = w->id; i < p->nflows; i += p->nthreads) {
		struct flow *f = &w->flows[i];
		f->fd = p->fds[i];
		f->phase = p->sender ? PH_SEND : PH_RECV;
		if (!p->sender) {
			if (p->io.rcvlowat > 1) /* as the epoll engine: wake at a receive's worth */
				setsockopt(f->fd, SOL_SOCKET, SO_RCVLOWAT,
					   &(int){(int)p->io.rcvlowat}, sizeof(int));
			int rc = ws_uring_recv_multishot(&w->ring, f->fd, &w->bufs, tag(i, OP_IO));
			if (rc < 0) {
				ws_err_set(&t->err, -rc, "flow %u: cannot arm its io_uring receive",
					   i);
				return;
			}
		}
		w->nmine++;
	}
	w->nactive = w->nmine;
}

static void worker_teardown(void *ctx, ws_pool_thread *t)
{
	struct worker *w = (struct worker *)ctx + t->id;
	ws_uring_bufs_close(&w->ring, &w->bufs);
	ws_uring_close(&w->ring);
	for (uint32_t i = w->id; i < w->p->nflows; i += w->p->nthreads)
		for (int k = 0; k < 2; k++)
			if (w->flows[i].pipe[k] >= 0)
				close(w->flows[i].pipe[k]);
	free(w->buf);
	w->buf = NULL;
}

static const ws_pool_ops ops = {worker_setup, worker_run, worker_teardown};

static void collect(const ws_multi_params *p, const ws_pool_thread *th, const struct worker *w,
		    const struct flow *flows, int64_t t0, ws_side_result *res)
{
	int64_t last = t0;
	for (uint32_t i = 0; i < p->nflows; i++) {
		const struct flow *f = &flows[i];
		int64_t end_ns = f->end_ns ? f->end_ns : ws_clock_ns();
		last = end_ns > last ? end_ns : last;
		if (res->flows)
			res->flows[i] = (ws_flow_result){
				.bytes = f->moved,
				.calls = f->calls,
				.elapsed_ns = end_ns - t0,
				.thread = i % p->nthreads,
				.error = f->phase == PH_FAILED ? f->error : 0,
			};
		if (res->flows && f->phase == PH_FAILED)
			snprintf(res->flows[i].why, sizeof(res->flows[i].why), "%s", f->why);
		*(p->sender ? &res->bytes_sent : &res->bytes_recv) += f->moved;
		*(p->sender ? &res->send_calls : &res->recv_calls) += f->calls;
	}
	for (uint32_t t = 0; t < p->nthreads; t++) {
		if (res->threads)
			res->threads[t] = (ws_thread_result){.user_ns = th[t].user_ns,
							     .sys_ns = th[t].sys_ns,
							     .cpu = th[t].cpu,
							     .flows = w[t].nmine};
		res->thread_user_ns += th[t].user_ns;
		res->thread_sys_ns += th[t].sys_ns;
	}
	res->elapsed_ns = last - t0;
	snprintf(res->io_path, sizeof(res->io_path), "io_uring");
	snprintf(res->engine, sizeof(res->engine), "io_uring");
	res->rcvlowat = p->sender ? 0 : p->io.rcvlowat;
}

int ws_stream_uring_run(const ws_multi_params *p, bool arrays, ws_side_result *res, ws_err *err)
{
	struct flow *flows = calloc(p->nflows, sizeof(*flows));
	struct worker *w = calloc(p->nthreads, sizeof(*w));
	ws_pool_thread *th = calloc(p->nthreads, sizeof(*th));
	if (arrays) {
		res->flows = calloc(p->nflows, sizeof(*res->flows));
		res->threads = calloc(p->nthreads, sizeof(*res->threads));
	}
	if (!flows || !w || !th || (arrays && (!res->flows || !res->threads))) {
		free(flows);
		free(w);
		free(th);
		ws_side_result_free(res);
		return ws_err_set(err, ENOMEM, "no memory for %u flows", p->nflows);
	}
	if (arrays) {
		res->nflows = p->nflows;
		res->nthreads = p->nthreads;
	}
	for (uint32_t i = 0; i < p->nflows; i++)
		flows[i].pipe[0] = flows[i].pipe[1] = -1;
	for (uint32_t i = 0; i < p->nflows; i++)
		flows[i].limit =
			p->io.byte_limit / p->nflows + (i < p->io.byte_limit % p->nflows ? 1 : 0);
	for (uint32_t t = 0; t < p->nthreads; t++)
		w[t] = (struct worker){.p = p, .id = t, .flows = flows};
	uint32_t started;
	int64_t t0;
	int rc = ws_pool_run(p->nthreads, p->cpus, p->ncpus > 0 ? (uint32_t)p->ncpus : 0, &ops, w,
			     th, &started, &t0, err);
	if (started == p->nthreads)
		collect(p, th, w, flows, t0, res);
	uint32_t done = 0, first_failed = 0;
	bool capped = false, failed = false;
	for (uint32_t i = 0; i < p->nflows; i++) {
		done += flows[i].phase == PH_DONE;
		capped |= flows[i].phase == PH_FAILED && flows[i].error == -WS_E_LIMIT;
		if (flows[i].phase == PH_FAILED && !failed) {
			failed = true;
			first_failed = i;
		}
	}
	if (rc == 0 && capped)
		rc = ws_stream_capped(t0, p->sender ? res->bytes_sent : res->bytes_recv,
				      p->sender ? "sent" : "received", err);
	else if (rc == 0 && done == 0)
		rc = ws_err_set(err, EIO, "every one of the %u flows failed; the first: %s",
				p->nflows, flows[first_failed].why);
	free(flows);
	free(w);
	free(th);
	return rc;
}
