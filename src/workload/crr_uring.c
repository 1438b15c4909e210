/* SPDX-License-Identifier: BSD-2-Clause */
/* crr_uring: TCP_CRR's and TCP_CC's client on the io_uring engine; crr.c runs it in place
 * of its epoll loop when the side's engine is io_uring (see docs/engines.md).
 *
 * A transaction is one chain of linked operations on the ring: connect, send the request,
 * receive the whole response, receive the daemon's close (EOF), close. Each link starts
 * when the one before it succeeds, and a failure cancels the rest, so the kernel walks the
 * whole transaction while the thread waits; all but the receive of the daemon's close post
 * no completion when they succeed, so a transaction wakes the thread once. The worker's
 * flows' chains leave together in one io_uring_enter, which also waits for the next
 * completions: per transaction the thread
 * makes the socket(2) call (and the options crr.c sets on it) and a share of one enter,
 * where the epoll loop makes a connect, send, recv, recv, close and epoll_ctl calls. The
 * flows' state machine, the claim of transactions, port shortages, stalls, the cap and the
 * counts are crr.c's, so that the counts are the epoll engine's exactly.
 *
 * With its own local ports (-P lport, -p min,max) a connection may bind the port of the
 * one before it (one port: every connection), so that one must be gone first: there the
 * thread closes the descriptor itself when the daemon's close arrives, as the epoll client
 * does, and the chain has no close. A linked close runs only in the next io_uring_enter,
 * after that enter has issued the next chain's connect, which then finds the 4-tuple still
 * taken (EADDRNOTAVAIL). */
#include "workload/crr.h"

#include "net/uring.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OP_CONNECT = 1, OP_SEND, OP_RSP, OP_EOF, OP_CLOSE };
#define CHAIN_MAX 5 /* operations of one transaction */
#define CQE_BATCH 128
#define EOF_BUF   64 /* a byte more than the response is an error; any size would do */

struct crr_uring {
	ws_uring ring;
	char *rx; /* responses land here (contents unused; the request buffer is w->buf) */
	ws_uring_cqe cqe[CQE_BATCH];
};

static uint64_t tag(const struct cworker *w, const struct cflow *f, unsigned op)
{
	return (uint64_t)(f - w->c->flows) << 8 | op;
}

/* The connections bind ports of a -P/-p range: the thread closes each (see above). */
static bool own_close(const struct cworker *w)
{
	return w->c->p->bind_local && ws_addr_port(&w->c->p->local) != 0;
}

static void queue_failed(struct cworker *w, struct cflow *f, int rc)
{
	ws_crr_fail_flow(w, f, rc, "io_uring: cannot queue a TCP_CRR transaction: %s",
			 strerror(-rc));
}

void ws_crr_uring_start(struct cworker *w, struct cflow *f)
{
	const ws_rr_params *p = w->c->p;
	const ws_test_spec *spec = p->spec;
	ws_uring *r = &w->ur->ring;
	bool cc = spec->type == WS_TEST_TCP_CC;
	int rc = 0;
	if (ws_uring_space(r) < CHAIN_MAX) /* a chain must reach the kernel whole */
		rc = ws_uring_submit_wait(r, 0, 0);
	if (rc == 0)
		rc = ws_uring_connect(r, f->fd, &p->remote.ss, p->remote.len,
				      tag(w, f, OP_CONNECT));
	ws_uring_link(r, true, true);
	if (rc == 0 && !cc && spec->req_size > 0) {
		rc = ws_uring_send_all(r, f->fd, w->buf, spec->req_size, tag(w, f, OP_SEND));
		ws_uring_link(r, true, true);
	}
	if (rc == 0 && !cc && spec->rsp_size > 0) {
		rc = ws_uring_recv_all(r, f->fd, w->ur->rx, spec->rsp_size, tag(w, f, OP_RSP));
		ws_uring_link(r, true, true);
	}
	bool linked_close = !own_close(w);
	if (rc == 0) {
		rc = ws_uring_recv(r, f->fd, w->ur->rx, EOF_BUF, tag(w, f, OP_EOF));
		ws_uring_link(r, linked_close, false);
	}
	if (rc == 0 && linked_close) {
		rc = ws_uring_close_fd(r, f->fd, tag(w, f, OP_CLOSE));
		ws_uring_link(r, false, true);
	}
	if (rc < 0) {
		queue_failed(w, f, rc);
		return;
	}
	f->phase = cc || spec->rsp_size == 0 ? C_EOF : C_RECV; /* for the stall's message */
}

/* The request went out with the connect: count both once the daemon answers. */
static void answered(struct cworker *w, struct cflow *f)
{
	const ws_test_spec *spec = w->c->p->spec;
	if (!f->connected)
		ws_crr_connected(w, f);
	if (spec->type != WS_TEST_TCP_CC && spec->req_size > 0) {
		f->sent += spec->req_size;
		f->scalls++;
	}
}

/* The response's receive posts a completion only when it failed or ended short. */
static void on_rsp(struct cworker *w, struct cflow *f, int32_t res)
{
	const ws_test_spec *spec = w->c->p->spec;
	if (res < 0) {
		ws_crr_fail_flow(w, f, res, "receive of the %u-byte response: %s", spec->rsp_size,
				 strerror(-res));
		return;
	}
	/* the link broke: the close is ours */
	ws_crr_fail_flow(w, f, -WS_E_PROTO,
			 "the daemon closed the connection after %d of %u response bytes (request "
			 "%u bytes)",
			 res, spec->rsp_size, spec->req_size);
}

/* The daemon's close, which follows its response at once: the transaction's end (its
 * second clock read; the chain got here, so the whole response came). The chain's close
 * follows a clean one; after a reset (a failure that breaks the link), or where the chain
 * has no close (own_close), the descriptor is closed here. */
static void on_eof(struct cworker *w, struct cflow *f, int32_t res)
{
	const ws_test_spec *spec = w->c->p->spec;
	bool plain = spec->type == WS_TEST_TCP_CC || spec->rsp_size == 0;
	if (res < 0 && res != -ECONNRESET) {
		ws_crr_fail_flow(w, f, res, "waiting for the daemon's close: %s", strerror(-res));
		return;
	}
	bool linked_close = !own_close(w);
	if (res > 0) {
		if (linked_close)
			f->fd = -1; /* the chain closes it */
		ws_crr_fail_flow(
			w, f, -WS_E_PROTO,
			spec->type == WS_TEST_TCP_CC
				? "the daemon sent data on a TCP_CC connection"
				: "the daemon sent more than the %u-byte response (request "
				  "%u bytes) before closing the connection",
			spec->rsp_size, spec->req_size);
		return;
	}
	answered(w, f);
	if (!plain) {
		f->recvd += spec->rsp_size;
		f->rcalls++;
	}
	ws_crr_complete(w, f);
	if (res < 0 || !linked_close)
		ws_crr_close_fd(f);
	f->fd = -1;
	f->phase = C_IDLE;
}

static void on_connect(struct cworker *w, struct cflow *f, int32_t res, int64_t now)
{
	if (ws_crr_port_error(-res)) {
		ws_crr_port_pressure(w, f, now, -res);
		return;
	}
	w->connect_errors++;
	ws_crr_fail_flow(w, f, res, "connect to %s: %s", w->c->where, strerror(-res));
}

static void on_cqe(struct cworker *w, const ws_uring_cqe *e, int64_t now)
{
	struct cflow *f = &w->c->flows[e->data >> 8];
	unsigned op = (unsigned)(e->data & 0xff);
	/* a link after a failure (reported by its own completion), or a flow that ended */
	if (e->res == -ECANCELED || f->fd < 0 || (f->phase != C_RECV && f->phase != C_EOF))
		return;
	switch (op) {
	case OP_CONNECT:
		on_connect(w, f, e->res, now);
		break;
	case OP_SEND:
		ws_crr_fail_flow(w, f, e->res < 0 ? e->res : -EPIPE,
				 "send of the %u-byte request: %s", w->c->p->spec->req_size,
				 strerror(e->res < 0 ? -e->res : EPIPE));
		break;
	case OP_RSP:
		on_rsp(w, f, e->res);
		break;
	case OP_EOF:
		on_eof(w, f, e->res);
		break;
	default: /* a failed close: the descriptor is gone either way */
		break;
	}
}

static void run(struct cworker *w)
{
	struct crr_client *c = w->c;
	int64_t now = ws_clock_ns(), next_scan = 0, wake = 0;
	for (;;) {
		int64_t until = ws_crr_tick(w, now, &next_scan, &wake);
		if (until == 0)
			return;
		int rc = ws_uring_submit_wait(&w->ur->ring, 1, until > now ? until - now : 1);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
			for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
				if (c->flows[i].phase != C_DONE && c->flows[i].phase != C_FAILED)
					ws_crr_fail_flow(w, &c->flows[i], rc, "io_uring_enter: %s",
							 strerror(-rc));
			return;
		}
		now = ws_clock_ns();
		unsigned n;
		while ((n = ws_uring_reap(&w->ur->ring, w->ur->cqe, CQE_BATCH)) > 0)
			for (unsigned k = 0; k < n; k++) {
				struct cflow *f = &c->flows[w->ur->cqe[k].data >> 8];
				on_cqe(w, &w->ur->cqe[k], now);
				/* the next transaction, or a retry after a port shortage, queued
				 * at once (a retry that must pause wakes the scan when due) */
				if (f->phase == C_IDLE || f->phase == C_WAIT)
					ws_crr_step(w, f, 0, now);
				if (f->phase == C_WAIT && f->retry_at < wake)
					wake = f->retry_at;
				if (f->phase == C_DONE || f->phase == C_FAILED)
					next_scan = now;
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

void ws_crr_uring_main(struct cworker *w)
{
	struct crr_client *c = w->c;
	const ws_test_spec *spec = c->p->spec;
	uint32_t mine = c->nflows / c->nthreads + (w->id < c->nflows % c->nthreads);
	uint32_t rx = spec->rsp_size > EOF_BUF ? spec->rsp_size : EOF_BUF;
	w->ur = calloc(1, sizeof(*w->ur));
	if (w->ur) {
		w->ur->ring.fd = -1;
		w->ur->rx = malloc(rx);
	}
	if (!w->ur || !w->ur->rx) {
		ws_err_set(&w->err, ENOMEM, "client worker %u: no memory for its io_uring", w->id);
		atomic_store(&c->abort, true);
	} else if (ws_uring_open(&w->ur->ring, pow2_at_least(CHAIN_MAX * mine + 8), c->p->sqpoll,
				 &w->err) < 0) {
		atomic_store(&c->abort, true);
	} else {
		run(w);
	}
	/* the ring's close cancels what is in flight, before crr.c closes the sockets */
	if (w->ur) {
		ws_uring_close(&w->ur->ring);
		free(w->ur->rx);
		free(w->ur);
		w->ur = NULL;
	}
}
