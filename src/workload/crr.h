/* SPDX-License-Identifier: BSD-2-Clause */
/* crr: the client side of TCP_CRR and TCP_CC, shared by its two files: crr.c runs each
 * flow's state machine on a worker thread, crr_client.c sets the flows and workers up,
 * runs them and gathers the result. Internal to workload/; the API is rr.h's ws_crr_run. */
#ifndef WS_WORKLOAD_CRR_H
#define WS_WORKLOAD_CRR_H

#include "measure/hist.h"
#include "util/err.h"
#include "workload/rr.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum cphase { C_IDLE, C_WAIT, C_SEND, C_RECV, C_EOF, C_DONE, C_FAILED };

struct cflow {
	int fd;
	enum cphase phase;
	bool connected; /* the connect completed (else a send error is the connect's) */
	uint32_t done;  /* bytes of the request sent, or of the response received */
	uint32_t reg;   /* the events registered in the worker's epoll set, 0 = none */
	int64_t t0, last, retry_at, end_ns;
	uint64_t trans, sent, recvd, scalls, rcalls;
	int32_t error;
	char why[400];
	ws_hist *hist; /* this flow's round trips, when there are few flows */
};

struct crr_client {
	const ws_rr_params *p;
	struct cflow *flows;
	uint32_t nflows, nthreads;
	atomic_uint_fast64_t issued; /* transactions claimed (-l -N) */
	atomic_uint next_port;       /* -P lport: the next local port to try */
	atomic_bool abort;           /* a flow failed: the others stop */
	char where[80];              /* the daemon's data address, for messages */
};

struct cworker {
	struct crr_client *c;
	uint32_t id;
	int ep; /* epoll set with several flows, else -1 */
	char *buf;
	ws_hist *hist;
	uint64_t connects, connect_errors;
	int64_t pressure_since; /* first port failure since the last connect, 0 = none */
	uint32_t in_a_row;
	int64_t user_ns, sys_ns;
	int cpu;
	ws_err err;
	struct crr_uring *ur; /* the io_uring engine's ring and buffers, else NULL */
	/* --mptcp: what became of this worker's first connection (net/mptcp.h) */
	const char *mptcp_state;
	uint32_t mptcp_subflows;
};

/* A worker thread's body (arg: its struct cworker): runs its share of the flows until
 * they are done, the test's end or an abort, then records its thread times. */
void *ws_crr_worker_main(void *arg);

/* A connect that failed for want of a local port (EADDRNOTAVAIL, EADDRINUSE). */
bool ws_crr_port_error(int e);

/* crr.c's steps, shared with crr_uring.c. The flow's descriptor closed (and out of the
 * epoll set); the flow failed (the others abort); a port shortage (retry or fail); the
 * connection up; the response complete (a transaction counted, its latency recorded);
 * the flow advanced as far as it goes without blocking (ready: the socket's epoll events,
 * 0 when not reported); the worker's periodic pass over its flows when due (*next_scan, or
 * *wake, the earliest retry): returns when to wait until, or 0 when its flows are done. */
void ws_crr_close_fd(struct cflow *f);
void ws_crr_fail_flow(struct cworker *w, struct cflow *f, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ws_crr_port_pressure(struct cworker *w, struct cflow *f, int64_t now, int e);
void ws_crr_connected(struct cworker *w, struct cflow *f);
void ws_crr_complete(struct cworker *w, struct cflow *f);
void ws_crr_step(struct cworker *w, struct cflow *f, uint32_t ready, int64_t now);
int64_t ws_crr_tick(struct cworker *w, int64_t now, int64_t *next_scan, int64_t *wake);

/* crr_uring.c: the io_uring engine's worker loop (sets w->ur up, runs the flows, tears it
 * down), and the start of a flow's transaction on the ring once its socket is open. */
void ws_crr_uring_main(struct cworker *w);
void ws_crr_uring_start(struct cworker *w, struct cflow *f);

#endif
