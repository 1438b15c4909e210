/* SPDX-License-Identifier: BSD-2-Clause */
/* rr_uring: the io_uring request/response engine, TCP and UDP in closed loop, for one flow
 * or many; rr_multi.c runs it in place of the epoll loop when the side's engine is io_uring
 * (see docs/engines.md).
 *
 * Each worker thread owns one ring for all its flows. Every flow has one multishot receive
 * armed, which takes buffers from the thread's provided-buffer ring, so a response costs no
 * system call of its own to ask for; sends go from the thread's scratch buffer with
 * MSG_WAITALL and post no completion when they succeed, so the thread wakes for responses
 * (or requests) only, and the requests a batch of responses allows leave together. The
 * loop hands all that the last completions asked for,
 * across flows, to the kernel in one io_uring_enter, which also waits for the next
 * completions: with many flows a thread makes one system call per batch instead of one per
 * message and one per epoll_wait. The flows' state, the results and the housekeeping
 * (stall, end of test, time cap) are the epoll engine's (rr_flow.h).
 *
 * UDP: a request is a datagram sent from its own slot (its tag, then the shared payload),
 * untouched until the request is answered or given up; a response is matched, and a lost
 * request given up, by the epoll engine's functions; a responder answers from the buffer
 * the request arrived in and gives it back when the response's send completes. */
#include "workload/rr_flow.h"

#include "measure/interim.h"
#include "net/uring.h"
#include "util/clock.h"
#include "workload/stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define OP_RECV   1u
#define OP_SEND   2u
#define OP_RSP    3u /* UDP responder: a response sent from its request's buffer */
#define CQE_BATCH 256
#define BGID      1
/* Provided receive buffers: enough for every flow to have two in use, within a budget. */
#define BUFS_MIN    64u
#define BUFS_MAX    4096u
#define BUFS_BUDGET (8u << 20)

/* A UDP request in the ring: its tag and the shared payload, kept until it is resolved. */
struct udp_slot {
	struct msghdr mh;
	struct iovec iov[2];
	char tag[8];
};

struct ws_rr_uring {
	ws_uring ring;
	ws_uring_bufs bufs;
	struct udp_slot *slots; /* UDP requester: cap per flow of this worker */
	ws_uring_cqe cqe[CQE_BATCH];
};

static uint64_t tag(uint32_t i, unsigned op) { return (uint64_t)i << 8 | op; }

/* A UDP response's tag also names the provided buffer it is sent from. */
static uint64_t rsp_tag(uint32_t i, int buf)
{
	return (uint64_t)(uint32_t)buf << 40 | tag(i, OP_RSP);
}

static void end_flow(struct ws_rr_flow *f, struct ws_rr_worker *w, enum ws_rr_phase ph)
{
	f->phase = ph;
	f->end_ns = ws_clock_ns();
	w->nactive--;
}

static void fail(struct ws_rr_worker *w, struct ws_rr_flow *f, int code, const char *what)
{
	snprintf(f->why, sizeof(f->why), "io_uring %s: %.60s", what, strerror(code));
	f->error = -code;
	end_flow(f, w, PH_FAILED);
}

/* Queue what the flow owes. A send that succeeds posts no completion (ws_uring_send_all),
 * so a transaction costs one completion, its response's; the bytes count when queued, and a
 * send that fails fails the flow. Nothing queued is lost to the half-close: a requester
 * half-closes only once every request is answered, and a responder sees EOF only then. */
static void flush(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_flow *f = &w->c->flows[i];
	while (f->tx_left > 0 && ws_rr_live(f)) {
		uint32_t n = f->tx_left < WS_RR_SCRATCH ? (uint32_t)f->tx_left : WS_RR_SCRATCH;
		int rc = ws_uring_send_all(&w->ur->ring, f->fd, w->buf, n, tag(i, OP_SEND));
		if (rc < 0) {
			fail(w, f, -rc, "queueing a send");
			return;
		}
		f->tx_left -= n;
		f->bytes_sent += n;
		f->send_calls++;
	}
}

/* Requester: issue what the bound allows now; at the end, half-close once all is answered. */
static void pump(struct ws_rr_worker *w, uint32_t i, int64_t now, bool ended)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	if (!ws_rr_live(f))
		return;
	if (f->phase == PH_RUN && (ended || (c->counted && f->issued >= f->share)))
		f->phase = PH_COLLECT;
	while (f->phase == PH_RUN && f->pending < c->cap) {
		f->ring[f->issued % c->cap] = now;
		f->issued++;
		f->pending++;
		f->tx_left += c->p->spec->req_size;
		if (c->counted && f->issued >= f->share)
			f->phase = PH_COLLECT;
	}
	flush(w, i);
	if (f->phase == PH_COLLECT && f->pending == 0 && f->tx_left == 0) {
		if (shutdown(f->fd, SHUT_WR) < 0) {
			fail(w, f, errno, "half-close");
			return;
		}
		f->phase = PH_EOF;
		f->last_progress = now;
	}
}

static void record(struct ws_rr_worker *w, uint32_t i, int64_t lat)
{
	uint64_t v = lat > 0 ? (uint64_t)lat : 0;
	ws_hist_record(w->lat, v);
	ws_flowhist_record(&w->c->fh[i], v);
}

/* n bytes of responses (requester) or requests (responder) arrived on flow i. */
static void on_bytes(struct ws_rr_worker *w, uint32_t i, uint32_t n, int64_t now)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	const ws_test_spec *s = c->p->spec;
	f->bytes_recv += n;
	f->recv_calls++;
	f->last_progress = now;
	f->rx_off += n;
	if (c->client) {
		while (f->rx_off >= s->rsp_size && f->pending > 0) {
			f->rx_off -= s->rsp_size;
			record(w, i, now - f->ring[f->done % c->cap]);
			f->done++;
			f->pending--;
			ws_interim_add(ws_interim_at(c->p->progress, i), 1);
		}
		return;
	}
	uint32_t whole = f->rx_off / s->req_size;
	f->rx_off -= whole * s->req_size;
	f->done += whole;
	f->tx_left += (uint64_t)whole * s->rsp_size;
	flush(w, i);
}

/* The peer closed: the requester's wait is over; the responder, which owes nothing then
 * (see flush), closes its half. */
static void on_eof(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_flow *f = &w->c->flows[i];
	if (w->c->client) {
		if (f->phase == PH_EOF)
			end_flow(f, w, PH_DONE);
		else
			fail(w, f, ECONNRESET, "the responder closed before the end");
		return;
	}
	f->eof = true;
	shutdown(f->fd, SHUT_WR);
	end_flow(f, w, PH_DONE);
}

/* A send's completion: it failed, or ended short (the peer went away). */
static void on_send_failed(struct ws_rr_worker *w, uint32_t i, int32_t res)
{
	struct ws_rr_flow *f = &w->c->flows[i];
	/* UDP: a refused or dropped datagram is a request lost, which its timeout gives up */
	if (w->c->udp && (res == -ECONNREFUSED || res == -ENOBUFS || res == -EAGAIN))
		return;
	if (ws_rr_live(f))
		fail(w, f, res < 0 ? -res : EPIPE, "send");
}

/* UDP requester: send what the bound allows, each request its own datagram from its slot
 * (its tag, then the shared payload), posting no completion when it succeeds; then end
 * the flow once all is answered or given up (rr_flow.c's end markers). */
static void udp_pump(struct ws_rr_worker *w, uint32_t i, int64_t now, bool ended)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	uint32_t req = c->p->spec->req_size;
	if (!ws_rr_live(f))
		return;
	if (f->phase == PH_RUN && (ended || (c->timed && now >= c->p->end_ns)))
		f->phase = PH_COLLECT;
	while (f->phase == PH_RUN && ws_rr_may_issue(c, f, 0)) {
		uint64_t seq = f->issued;
		struct udp_slot *sl =
			&w->ur->slots[(size_t)(i / c->nthreads) * c->cap + seq % c->cap];
		for (uint32_t b = 0; b < c->tagn; b++) /* the low tagn bytes, big-endian */
			sl->tag[b] = (char)(seq >> (8 * (c->tagn - 1 - b)));
		sl->iov[0] = (struct iovec){sl->tag, c->tagn};
		sl->iov[1] = (struct iovec){w->buf + c->tagn, req - c->tagn};
		sl->mh = (struct msghdr){.msg_iov = sl->iov, .msg_iovlen = 2};
		int rc = ws_uring_sendmsg(&w->ur->ring, f->fd, &sl->mh, tag(i, OP_SEND));
		if (rc < 0) {
			fail(w, f, -rc, "queueing a send");
			return;
		}
		ws_uring_link(&w->ur->ring, false, true);
		f->ring[seq % c->cap] = now;
		f->issued++;
		f->pending++;
		f->send_calls++;
		f->bytes_sent += req;
	}
	ws_rr_maybe_finish(w, f);
}

static void pump_any(struct ws_rr_worker *w, uint32_t i, int64_t now, bool ended)
{
	if (w->c->udp)
		udp_pump(w, i, now, ended);
	else
		pump(w, i, now, ended);
}

void ws_rr_uring_pump(struct ws_rr_worker *w, uint32_t i)
{
	int64_t now = ws_clock_ns();
	pump_any(w, i, now, w->c->timed && now >= w->c->p->end_ns);
}

/* UDP responder: a request answered from its own buffer, which stays out of the ring until
 * the response's send completes (on_rsp_sent); a zero-length datagram is the end marker. */
static bool udp_answer(struct ws_rr_worker *w, uint32_t i, int32_t len, int buf, int64_t now)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	const ws_test_spec *s = c->p->spec;
	f->last_progress = now;
	f->recv_calls++;
	if (len == 0) {
		end_flow(f, w, PH_DONE);
		return false;
	}
	if (buf < 0 || (uint32_t)len != s->req_size) {
		snprintf(f->why, sizeof(f->why), "a request of %d bytes; expected %u", len,
			 s->req_size);
		f->error = -WS_E_PROTO;
		end_flow(f, w, PH_FAILED);
		return false;
	}
	f->bytes_recv += (uint64_t)len;
	int rc = ws_uring_send(&w->ur->ring, f->fd, ws_uring_bufs_at(&w->ur->bufs, buf),
			       s->rsp_size, rsp_tag(i, buf));
	if (rc < 0) {
		fail(w, f, -rc, "queueing a response");
		return false;
	}
	return true;
}

/* A UDP response's send completed: its buffer goes back; a refused or dropped one is the
 * requester's loss to give up, as the epoll engine's. */
static void on_rsp_sent(struct ws_rr_worker *w, const ws_uring_cqe *e)
{
	uint32_t i = (uint32_t)(e->data >> 8);
	struct ws_rr_flow *f = &w->c->flows[i];
	ws_uring_bufs_recycle(&w->ur->bufs, (int)(e->data >> 40));
	if (!ws_rr_live(f))
		return;
	if (e->res >= 0) {
		f->bytes_sent += (uint64_t)e->res;
		f->send_calls++;
		f->done++;
	} else if (e->res != -ECONNREFUSED && e->res != -ENOBUFS && e->res != -EAGAIN) {
		fail(w, f, -e->res, "send");
	}
}

/* A datagram (or a receive's error) on a UDP flow; true when its buffer is kept. */
static bool on_datagram(struct ws_rr_worker *w, uint32_t i, int32_t res, int buf, int64_t now)
{
	struct ws_rr_flow *f = &w->c->flows[i];
	if (res < 0) { /* out of buffers: re-armed; refused: a loss the timeout deals with */
		if (res != -ENOBUFS && res != -ECONNREFUSED)
			fail(w, f, -res, "recv");
		return false;
	}
	if (!w->c->client)
		return udp_answer(w, i, res, buf, now);
	const char *p = buf >= 0 ? ws_uring_bufs_at(&w->ur->bufs, buf) : "";
	ws_rr_udp_response(w, i, p, (uint64_t)res, now);
	return false;
}

static int arm_recv(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_flow *f = &w->c->flows[i];
	return ws_uring_recv_multishot(&w->ur->ring, f->fd, &w->ur->bufs, tag(i, OP_RECV));
}

static void on_recv(struct ws_rr_worker *w, const ws_uring_cqe *e, int64_t now)
{
	uint32_t i = (uint32_t)(e->data >> 8);
	struct ws_rr_flow *f = &w->c->flows[i];
	int buf = ws_uring_cqe_buf(e);
	bool keep = false; /* a UDP responder's buffer goes back once its response is out */
	if (ws_rr_live(f)) {
		if (w->c->udp)
			keep = on_datagram(w, i, e->res, buf, now);
		else if (e->res > 0)
			on_bytes(w, i, (uint32_t)e->res, now);
		else if (e->res == 0)
			on_eof(w, i);
		else if (e->res !=
			 -ENOBUFS) /* out of buffers: re-armed below, once some are back */
			fail(w, f, -e->res, "recv");
	}
	if (buf >= 0 && !keep)
		ws_uring_bufs_recycle(&w->ur->bufs, buf);
	/* TCP's EOF ends the receive; a UDP datagram of 0 bytes is a message */
	if (ws_rr_live(f) && !ws_uring_cqe_more(e) && (w->c->udp || e->res != 0)) {
		int rc = arm_recv(w, i);
		if (rc < 0)
			fail(w, f, -rc, "re-arming recv");
	}
}

static void worker_run(void *ctx, ws_pool_thread *t)
{
	struct ws_rr_worker *w = (struct ws_rr_worker *)ctx + t->id;
	struct ws_rr_ctx *c = w->c;
	const ws_rr_params *p = c->p;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
		c->flows[i].last_progress = t->t0;
	bool ended = false;
	if (c->client)
		for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
			pump_any(w, i, t->t0, false);
	int64_t next_tick = t->t0 + c->tick;
	while (w->nactive > 0) {
		int64_t now = ws_clock_ns();
		int64_t until = next_tick;
		if (c->client && c->timed && !ended && p->end_ns < until)
			until = p->end_ns;
		int rc = ws_uring_submit_wait(&w->ur->ring, 1, until > now ? until - now : 1);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
			for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
				if (ws_rr_live(&c->flows[i]))
					fail(w, &c->flows[i], -rc, "enter");
			break;
		}
		unsigned n;
		now = ws_clock_ns();
		while ((n = ws_uring_reap(&w->ur->ring, w->ur->cqe, CQE_BATCH)) > 0) {
			for (unsigned k = 0; k < n; k++) {
				const ws_uring_cqe *e = &w->ur->cqe[k];
				uint32_t i = (uint32_t)(e->data >> 8);
				if ((e->data & 0xff) == OP_SEND)
					on_send_failed(w, i, e->res);
				else if ((e->data & 0xff) == OP_RSP)
					on_rsp_sent(w, e);
				else
					on_recv(w, e, now);
				if (c->client && (e->data & 0xff) == OP_RECV)
					pump_any(w, i, now, ended);
			}
		}
		if (c->client && c->timed && !ended && now >= p->end_ns) {
			ended = true; /* stop issuing; collect what is outstanding */
			for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
				pump_any(w, i, now, true);
		}
		if (now >= next_tick) {
			ws_rr_housekeeping(w, now);
			next_tick = now + c->tick;
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

static void worker_setup(void *ctx, ws_pool_thread *t)
{
	struct ws_rr_worker *w = (struct ws_rr_worker *)ctx + t->id;
	struct ws_rr_ctx *c = w->c;
	const ws_test_spec *s = c->p->spec;
	w->ur = calloc(1, sizeof(*w->ur));
	w->buf = malloc(WS_RR_SCRATCH);
	w->lat = c->client ? malloc(sizeof(*w->lat)) : NULL;
	if (!w->ur || !w->buf || (c->client && !w->lat)) {
		ws_err_set(&t->err, ENOMEM, "worker %u could not start", w->id);
		return;
	}
	w->ur->ring.fd = -1;
	memset(w->buf, 0x5a, WS_RR_SCRATCH);
	if (c->client)
		ws_rr_fill(c->p, w->buf, WS_RR_SCRATCH);
	if (w->lat)
		ws_hist_init(w->lat);
	uint32_t mine = (c->nflows + c->nthreads - 1 - w->id) / c->nthreads;
	uint32_t big = s->req_size > s->rsp_size ? s->req_size : s->rsp_size;
	uint32_t size = big < 1024 ? 1024 : big > 65536 ? 65536 : pow2_at_least(big);
	uint32_t count = pow2_at_least(4 * mine);
	count = count < BUFS_MIN ? BUFS_MIN : count > BUFS_MAX ? BUFS_MAX : count;
	while (count > BUFS_MIN && (uint64_t)count * size > BUFS_BUDGET)
		count >>= 1;
	if (c->udp && c->client) {
		w->ur->slots = calloc((size_t)mine * c->cap, sizeof(*w->ur->slots));
		if (!w->ur->slots) {
			ws_err_set(&t->err, ENOMEM, "worker %u: no memory for %u requests", w->id,
				   mine * c->cap);
			return;
		}
	}
	/* room for every flow's receive and a bound's worth of sends without a submit */
	uint32_t depth = c->udp ? mine * (c->cap + 1) : 2 * mine;
	if (ws_uring_open(&w->ur->ring, pow2_at_least(depth + 8), c->p->sqpoll, &t->err) < 0 ||
	    ws_uring_bufs_open(&w->ur->ring, &w->ur->bufs, BGID, count, size, &t->err) < 0)
		return;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		int rc = arm_recv(w, i);
		if (rc < 0) {
			ws_err_set(&t->err, -rc, "flow %u: cannot arm its io_uring receive", i);
			return;
		}
		w->nmine++;
	}
	w->nactive = w->nmine;
}

static void worker_teardown(void *ctx, ws_pool_thread *t)
{
	struct ws_rr_worker *w = (struct ws_rr_worker *)ctx + t->id;
	if (w->ur) {
		ws_uring_bufs_close(&w->ur->ring, &w->ur->bufs);
		ws_uring_close(&w->ur->ring);
		free(w->ur->slots);
		free(w->ur);
		w->ur = NULL;
	}
	free(w->buf);
	w->buf = NULL;
}

const ws_pool_ops ws_rr_uring_ops = {worker_setup, worker_run, worker_teardown};
