/* SPDX-License-Identifier: BSD-2-Clause */
/* rr_flow: one flow of the epoll request/response engine (rr_multi.c): its state and
 * what it does on an event, a due time or a housekeeping tick, as requester or responder.
 *
 * rr_multi.c owns the threads, the epoll sets and the run; this module owns the protocol
 * of one flow (rr.h's wire conventions), so that the per-flow state machines can be read
 * apart from the scaffolding. Internal to the engine: nothing outside rr_multi.c uses it. */
#ifndef WS_WORKLOAD_RR_FLOW_H
#define WS_WORKLOAD_RR_FLOW_H

#include "measure/flowhist.h"
#include "measure/hist.h"
#include "util/err.h"
#include "workload/pool.h"
#include "workload/rr.h"
#include "workload/sched.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>

/* Each worker's I/O buffer: the largest UDP datagram fits. */
#define WS_RR_SCRATCH (64 * 1024)

/* A flow issues (or answers) in RUN; a requester then collects what is outstanding, and a
 * TCP one waits for the responder's EOF after its half-close. */
enum ws_rr_phase { PH_RUN, PH_COLLECT, PH_EOF, PH_DONE, PH_FAILED };

/* One flow, requester or responder. */
struct ws_rr_flow {
	int fd;
	enum ws_rr_phase phase;
	bool want_out, in_heap, eof;
	bool tx_busy;          /* io_uring: a send of this flow is in the ring */
	uint32_t rx_off;       /* bytes into the current response (requester) / request */
	uint64_t share;        /* counted: this flow's transactions */
	uint64_t issued, head; /* requests begun; the oldest unresolved one */
	uint64_t pending;      /* requests neither answered nor lost */
	uint64_t done, lost, late;
	uint64_t tx_left;    /* TCP: request (requester) or response (responder) bytes owed */
	int64_t offset, due; /* open loop: this flow's stagger; intended time of `issued` */
	int64_t last_progress, end_ns;
	uint64_t bytes_sent, bytes_recv, send_calls, recv_calls;
	int64_t *ring; /* cap send times, by sequence number mod cap; INT64_MIN marks
	                          * an answered UDP request behind the oldest unresolved one */
	int error;
	char why[80];
};

struct ws_rr_ctx;

/* One worker thread's share: the flows i with i % nthreads == id. */
struct ws_rr_worker {
	struct ws_rr_ctx *c;
	uint32_t id, nmine, nactive;
	int ep;
	ws_sched sched; /* open loop: flows waiting for their next due time */
	int64_t base;   /* the open-loop schedule's origin */
	int64_t max_lag;
	char *buf;
	ws_hist *lat;
	ws_err err;
	struct ws_rr_uring *ur; /* the io_uring engine's ring and buffers (rr_uring.c) */
};

/* The run, shared read-only by the workers (each writes only its own flows). */
struct ws_rr_ctx {
	const ws_rr_params *p;
	struct ws_rr_flow *flows;
	ws_flowhist *fh; /* requester: one per flow */
	struct ws_rr_worker *w;
	uint32_t nflows, nthreads;
	uint32_t cap;  /* the outstanding bound per flow, the ring's size */
	uint32_t tagn; /* UDP tag bytes: min(8, req_size, rsp_size) */
	bool client, udp, open, timed, counted;
	double period;   /* open loop: ns between a flow's requests */
	int64_t timeout; /* UDP: a request unanswered this long is lost */
	int64_t tick;    /* housekeeping period */
};

static inline int64_t ws_rr_intended(const struct ws_rr_worker *w, const struct ws_rr_flow *f,
				     uint64_t k)
{
	return w->base + f->offset + (int64_t)((double)k * w->c->period);
}

static inline bool ws_rr_live(const struct ws_rr_flow *f)
{
	return f->phase == PH_RUN || f->phase == PH_COLLECT || f->phase == PH_EOF;
}

/* Requester: send what may go now (closed loop: what the bound allows; open loop: what is
 * due), or move on to the end; called at the start, when a due time comes, and at the end. */
void ws_rr_pump(struct ws_rr_worker *w, uint32_t i);
/* An epoll event of flow e->data.u32. */
void ws_rr_on_event(struct ws_rr_worker *w, const struct epoll_event *e);
/* UDP timeouts, stall and end-of-test limits, the time cap, for this worker's flows. */
void ws_rr_housekeeping(struct ws_rr_worker *w, int64_t now);

/* The io_uring engine's worker (rr_uring.c): setup, loop and teardown for ws_pool_run,
 * over the same flows, workers and context as the epoll one. */
extern const ws_pool_ops ws_rr_uring_ops;

/* What both engines share of a UDP requester (the io_uring one queues its own sends):
 * may the flow have extra more requests out; end it once all is answered or given up
 * (the end markers, then done); account a response of len bytes at buf (its tag names the
 * request): 1 answered, 0 late (given up already), -1 the flow failed. */
bool ws_rr_may_issue(const struct ws_rr_ctx *c, const struct ws_rr_flow *f, uint64_t extra);
void ws_rr_maybe_finish(struct ws_rr_worker *w, struct ws_rr_flow *f);
int ws_rr_udp_response(struct ws_rr_worker *w, uint32_t i, const char *buf, uint64_t len,
		       int64_t now);
/* The io_uring engine's ws_rr_pump (a requester's housekeeping re-issues through it). */
void ws_rr_uring_pump(struct ws_rr_worker *w, uint32_t i);

#endif
