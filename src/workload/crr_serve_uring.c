/* SPDX-License-Identifier: BSD-2-Clause */
/* crr_serve_uring: TCP_CRR's and TCP_CC's responder on the io_uring engine; crr_serve.c
 * runs it in place of its epoll loop when the daemon's engine is io_uring (the client asked
 * for it and this host runs it; docs/engines.md).
 *
 * Each worker thread keeps a few accepts armed on the shared listener in its one ring (the
 * kernel wakes one waiter per connection). An accepted connection from the client gets one
 * chain of linked operations: receive the whole request, send the whole response, close
 * (the responder closes first, as netserver and the epoll engine do). The receive and send
 * post no completion when they succeed, so a transaction costs two completions, its
 * accept's and its close's, and all the worker's connections' chains and re-armed accepts
 * go to the kernel in the io_uring_enter that also waits: where the epoll loop makes an
 * epoll_wait, accept4, recv, send and close per connection, this thread makes a share of
 * one enter. A request that ends early breaks the chain: at 0 bytes it is the client's end
 * marker, at fewer than asked a protocol error; the chain's close is then cancelled (with
 * no completion) and the descriptor closed here. The admission of a connection (the client's address only,
 * TCP_CC's whole transaction), the slots, the counts, the stall, end and cap rules are
 * crr_serve.c's, so both engines' results have the same fields. */
#include "workload/crr_serve.h"

#include "net/uring.h"
#include "util/clock.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { OP_ACCEPT = 1, OP_REQ, OP_RSP, OP_CLOSE, OP_WAKE, OP_END, OP_QUIET };
#define ACCEPTS   4 /* accepts armed per worker */
#define CHAIN_MAX 3 /* operations of one connection */
#define CQE_BATCH 128
#define TICK_NS   (100 * WS_NS_PER_MS)
/* At the worker's end, what is in flight is shut down and its completions awaited this
 * long, so every descriptor is closed once, by its owner. */
#define DRAIN_NS (200 * WS_NS_PER_MS)

struct crr_serve_uring {
	ws_uring ring;
	ws_addr peer[ACCEPTS]; /* each armed accept's peer address */
	bool armed[ACCEPTS];
	bool draining; /* the worker's end: no new connection is served */
	ws_uring_cqe cqe[CQE_BATCH];
};

static uint64_t tag(uint32_t i, unsigned op) { return (uint64_t)i << 8 | op; }

static void arm_accept(struct sworker *w, uint32_t k)
{
	struct crr_serve_uring *u = w->ur;
	memset(&u->peer[k], 0, sizeof(u->peer[k]));
	u->peer[k].len = sizeof(u->peer[k].ss);
	int rc = ws_uring_accept(&u->ring, w->s->p->listen_fd, &u->peer[k].ss, &u->peer[k].len,
				 tag(k, OP_ACCEPT));
	if (rc < 0)
		ws_crr_serve_fail(w, rc, "io_uring: cannot queue an accept: %s", strerror(-rc));
	u->armed[k] = rc == 0;
}

/* A descriptor closed on the ring, with no completion when it succeeds. */
static void close_quietly(struct sworker *w, int fd)
{
	if (ws_uring_close_fd(&w->ur->ring, fd, tag(0, OP_QUIET)) < 0)
		close(fd);
	else
		ws_uring_link(&w->ur->ring, false, true);
}

/* Queue connection i's chain: request, response, close. */
static void start_chain(struct sworker *w, uint32_t i)
{
	const ws_test_spec *spec = w->s->p->spec;
	ws_uring *r = &w->ur->ring;
	int fd = w->conns[i].fd, rc = 0;
	if (ws_uring_space(r) < CHAIN_MAX) /* a chain must reach the kernel whole */
		rc = ws_uring_submit_wait(r, 0, 0);
	if (rc == 0 && spec->req_size > 0) {
		rc = ws_uring_recv_all(r, fd, w->buf, spec->req_size, tag(i, OP_REQ));
		ws_uring_link(r, true, true);
	}
	if (rc == 0 && spec->rsp_size > 0) {
		rc = ws_uring_send_all(r, fd, w->buf, spec->rsp_size, tag(i, OP_RSP));
		ws_uring_link(r, true, true);
	}
	if (rc == 0)
		rc = ws_uring_close_fd(r, fd, tag(i, OP_CLOSE));
	if (rc < 0) {
		ws_crr_serve_fail(w, rc, "io_uring: cannot queue a TCP_CRR response: %s",
				  strerror(-rc));
		close(fd);
		ws_crr_serve_release(w, i);
	}
}

static void on_accept(struct sworker *w, uint32_t k, int32_t res, int64_t now)
{
	struct crr_serve_uring *u = w->ur;
	u->armed[k] = false;
	if (u->draining) { /* an accept that beat its cancel: closed now, not queued */
		if (res >= 0)
			close(res);
		return;
	}
	if (res < 0) {
		if (res != -ECANCELED && !ws_crr_serve_accept_failed(w, -res))
			arm_accept(w, k);
		return;
	}
	uint32_t i;
	enum crr_admit what = ws_crr_serve_admit(w, res, &u->peer[k], now, &i);
	if (what != ADMIT_SERVE)
		close_quietly(w, res);
	else
		start_chain(w, i);
	if (!w->err.code)
		arm_accept(w, k);
}

/* The request's receive and the response's send post a completion only when they failed
 * or ended short, and then the rest of the chain is cancelled without completions (the
 * kernel's rule for IOSQE_CQE_SKIP_SUCCESS in a link): the chain's close never runs, so
 * the descriptor is closed here, at once. */
static void chain_broken(struct sworker *w, uint32_t i)
{
	close(w->conns[i].fd);
	ws_crr_serve_release(w, i);
}

static void on_req(struct sworker *w, uint32_t i, int32_t res, int64_t now)
{
	const ws_test_spec *spec = w->s->p->spec;
	bool dropped = w->conns[i].phase == S_DROP;
	chain_broken(w, i);
	if (dropped)
		return;
	if (res == 0) /* closed before sending a byte: the end marker */
		ws_crr_serve_end_marker(w, now);
	else if (res > 0)
		ws_crr_serve_fail(w, WS_E_PROTO,
				  "a TCP_CRR connection closed after %d of %u request bytes "
				  "(response %u bytes)",
				  res, spec->req_size, spec->rsp_size);
	else
		ws_crr_serve_fail(w, res, "receive of a %u-byte TCP_CRR request: %s",
				  spec->req_size, strerror(-res));
}

static void on_rsp(struct sworker *w, uint32_t i, int32_t res)
{
	int e = res < 0 ? -res : EPIPE;
	bool dropped = w->conns[i].phase == S_DROP;
	chain_broken(w, i);
	/* the client gave up, or the daemon shut it down at its end */
	if (dropped || e == EPIPE || e == ECONNRESET)
		return;
	ws_crr_serve_fail(w, -e, "send of the %u-byte TCP_CRR response: %s",
			  w->s->p->spec->rsp_size, strerror(e));
}

/* The chain's end: a transaction served (a chain that broke before its close posts no
 * close; see chain_broken). */
static void on_close(struct sworker *w, uint32_t i, int32_t res)
{
	const ws_test_spec *spec = w->s->p->spec;
	struct sconn *c = &w->conns[i];
	if (res >= 0 && c->phase != S_DROP) {
		w->connects++;
		if (spec->req_size > 0) {
			w->recvd += spec->req_size;
			w->rcalls++;
		}
		if (spec->rsp_size > 0) {
			w->sent += spec->rsp_size;
			w->scalls++;
		}
		ws_crr_serve_count(w);
	}
	ws_crr_serve_release(w, i);
}

static void on_cqe(struct sworker *w, const ws_uring_cqe *e, int64_t now)
{
	uint32_t i = (uint32_t)(e->data >> 8);
	switch (e->data & 0xff) {
	case OP_ACCEPT:
		on_accept(w, i, e->res, now);
		break;
	case OP_REQ:
		on_req(w, i, e->res, now);
		break;
	case OP_RSP:
		on_rsp(w, i, e->res);
		break;
	case OP_CLOSE:
		on_close(w, i, e->res);
		break;
	case OP_WAKE:
		if (e->res >= 0)
			ws_crr_serve_fail(w, ECANCELED, "the daemon is stopping");
		break;
	default: /* the end pipe's poll (it only wakes the loop), a quiet close that failed */
		break;
	}
}

static bool reap(struct sworker *w)
{
	unsigned n, seen = 0;
	int64_t now = ws_clock_ns();
	while ((n = ws_uring_reap(&w->ur->ring, w->ur->cqe, CQE_BATCH)) > 0)
		for (unsigned k = 0; k < n; k++, seen++)
			on_cqe(w, &w->ur->cqe[k], now);
	return seen > 0;
}

static void run(struct sworker *w)
{
	struct crr_server *s = w->s;
	const ws_rr_params *p = s->p;
	ws_uring *r = &w->ur->ring;
	if ((p->wake_fd >= 0 && ws_uring_poll(r, p->wake_fd, POLLIN, tag(0, OP_WAKE)) < 0) ||
	    ws_uring_poll(r, s->endpipe[0], POLLIN, tag(0, OP_END)) < 0) {
		ws_crr_serve_fail(w, EBUSY, "io_uring: cannot queue the daemon's wake-ups");
		return;
	}
	for (uint32_t k = 0; k < ACCEPTS && !w->err.code; k++)
		arm_accept(w, k);
	int64_t next_check = ws_clock_ns() + WS_NS_PER_SEC;
	while (!w->err.code && !atomic_load_explicit(&s->failed, memory_order_relaxed)) {
		int rc = ws_uring_submit_wait(r, 1, TICK_NS);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
			ws_crr_serve_fail(w, rc, "io_uring_enter: %s", strerror(-rc));
			return;
		}
		reap(w);
		if (ws_crr_serve_checks(w, ws_clock_ns(), &next_check))
			return;
	}
}

/* Cancel the accepts and shut what is open, then take the completions until every
 * descriptor the ring holds is accounted for (or DRAIN_NS passed). */
static void drain(struct sworker *w)
{
	struct crr_serve_uring *u = w->ur;
	u->draining = true;
	for (uint32_t k = 0; k < ACCEPTS; k++)
		if (u->armed[k])
			ws_uring_cancel(&u->ring, tag(k, OP_ACCEPT), tag(0, OP_QUIET));
	for (uint32_t i = 0; i < w->cap; i++)
		if (w->conns[i].phase == S_REQ)
			ws_crr_serve_uring_drop(w, i);
	int64_t until = ws_clock_ns() + DRAIN_NS;
	for (;;) {
		bool busy = w->live > 0;
		for (uint32_t k = 0; k < ACCEPTS; k++)
			busy |= u->armed[k];
		int64_t now = ws_clock_ns();
		if (!busy || now >= until)
			return;
		ws_uring_submit_wait(&u->ring, 1, until - now);
		reap(w);
	}
}

void ws_crr_serve_uring_drop(struct sworker *w, uint32_t i)
{
	w->conns[i].phase = S_DROP; /* its receive (EOF) or send (EPIPE) ends the chain */
	shutdown(w->conns[i].fd, SHUT_RDWR);
}

void ws_crr_serve_uring_main(struct sworker *w)
{
	const ws_rr_params *p = w->s->p;
	uint32_t flows = p->spec->streams ? p->spec->streams : 1;
	uint32_t mine = flows / w->s->nthreads + 1;
	w->ur = calloc(1, sizeof(*w->ur));
	if (!w->ur) {
		ws_crr_serve_fail(w, ENOMEM, "server worker %u: no memory for its io_uring", w->id);
		return;
	}
	w->ur->ring.fd = -1;
	/* (the kernel rounds the size up to a power of two) */
	if (ws_uring_open(&w->ur->ring, CHAIN_MAX * mine + ACCEPTS + 8, p->sqpoll, &w->err) < 0) {
		atomic_store(&w->s->failed, true);
	} else {
		run(w);
		drain(w);
	}
	/* what is left is cancelled by the ring's close; crr_serve.c closes the connections */
	ws_uring_close(&w->ur->ring);
	free(w->ur);
	w->ur = NULL;
}
