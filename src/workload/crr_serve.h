/* SPDX-License-Identifier: BSD-2-Clause */
/* crr_serve: TCP_CRR's responder, the daemon's half of crr.c.
 *
 * The daemon accepts the client's connections on the session's data listener and serves
 * each one transaction: it reads req_size bytes, sends rsp_size bytes and closes first,
 * as netserver does (so TIME_WAIT stays on the daemon, whose state accepts a new SYN on an
 * old 4-tuple, and the client's ports are free again at once; docs/rr.md). Worker threads (remote_threads, at most one per flow)
 * each own an epoll set holding the shared listener (EPOLLEXCLUSIVE, so one wakes per
 * connection), the daemon's wake pipe and their own connections. Only connections from
 * the control peer's address are served; others are closed at once and counted in
 * connect_errors ("refused strangers" on this side). The test ends at the client's end
 * marker, a connection from the client's address that closes before sending a byte;
 * without one, no connection for stall_ns fails the test, and the cap stops it. */
#ifndef WS_WORKLOAD_CRR_SERVE_H
#define WS_WORKLOAD_CRR_SERVE_H

#include "util/err.h"
#include "workload/rr.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;

/* Serve until the end marker (0), the stall or cap rule, the wake fd, or a connection that
 * breaks the protocol (a request cut short: an error naming the sizes). Fills transactions, connects (served), connect_errors (strangers), bytes, calls,
 * elapsed (start to the end marker), and with several threads the per-thread array. */
int ws_crr_serve(const ws_rr_params *p, ws_side_result *res, struct ws_err *err);

/* Both roles' workers: run fn on n threads, thread i on (char *)args + i * size, and join
 * them. When a thread cannot start, *stop is set (the started ones end early), they are
 * joined, and -EAGAIN is returned naming the role ("client", "server"). */
int ws_crr_run_threads(void *(*fn)(void *), void *args, size_t size, uint32_t n, atomic_bool *stop,
		       const char *role, struct ws_err *err);

/* The calling thread's CPU time (RUSAGE_THREAD), for both roles' workers. */
void ws_crr_thread_times(int64_t *user_ns, int64_t *sys_ns);

/* The responder's state, shared by its two engines: crr_serve.c (epoll) and
 * crr_serve_uring.c (io_uring, when the side's engine is io_uring). Internal to workload/. */
enum sphase { S_FREE, S_REQ, S_RSP, S_DROP };

struct sconn {
	int fd;
	enum sphase phase; /* io_uring: S_REQ while its chain runs, S_DROP once dropped */
	bool reg;          /* in the worker's epoll set */
	uint32_t done;
	int64_t last;
	uint32_t next_free;
};

struct crr_server {
	const ws_rr_params *p;
	uint32_t nthreads;
	int endpipe[2]; /* written once at the end marker: every worker wakes */
	atomic_bool ending, failed;
	_Atomic int64_t ending_at, last_activity;
	_Atomic uint64_t served; /* transactions, all workers (for idle_end_ns) */
	char want[64];           /* the client's address, as ws_addr_format writes it */
};

struct sworker {
	struct crr_server *s;
	uint32_t id;
	int ep;
	char *buf;
	uint32_t bufsz;
	struct sconn *conns;
	uint32_t cap, live, free_head;
	uint64_t trans, connects, strangers, sent, recvd, scalls, rcalls;
	int64_t user_ns, sys_ns;
	int cpu;
	ws_err err;
	const char *mptcp_state; /* --mptcp: of the first connection served (net/mptcp.h) */
	uint32_t mptcp_subflows;
	struct crr_serve_uring *ur; /* the io_uring engine's ring, else NULL */
};

/* What becomes of an accepted connection (ws_crr_serve_admit). */
enum crr_admit { ADMIT_STRANGER, ADMIT_DONE, ADMIT_SERVE };

/* crr_serve.c's steps, shared with crr_serve_uring.c: the worker's first failure (the test
 * fails); a connection slot (UINT32_MAX: no memory) and its return, the descriptor left to
 * the caller; the end marker seen; an accepted connection from peer (a stranger, to be
 * closed and counted; TCP_CC's whole transaction, counted, to be closed; or one to serve,
 * recorded in a slot *slot); the loop's checks after each wake-up (idle end, the end
 * marker's grace, the cap, once a second the stalls): true when the worker is done. */
int ws_crr_serve_fail(struct sworker *w, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint32_t ws_crr_serve_slot(struct sworker *w);
void ws_crr_serve_release(struct sworker *w, uint32_t i);
void ws_crr_serve_end_marker(struct sworker *w, int64_t now);
enum crr_admit ws_crr_serve_admit(struct sworker *w, int fd, const ws_addr *peer, int64_t now,
				  uint32_t *slot);
bool ws_crr_serve_checks(struct sworker *w, int64_t now, int64_t *next_check);
/* An accept that failed with errno e: false when harmless (try again), else the test fails
 * naming it. */
bool ws_crr_serve_accept_failed(struct sworker *w, int e);
/* A transaction served (the response sent, or the request in when there is none). */
void ws_crr_serve_count(struct sworker *w);

/* crr_serve_uring.c: the io_uring engine's worker loop (sets w->ur up, serves, tears it
 * down, cancelling what is in flight before crr_serve.c closes the connections), and the
 * drop of a connection that stalled (its chain ends and the slot is freed later). */
void ws_crr_serve_uring_main(struct sworker *w);
void ws_crr_serve_uring_drop(struct sworker *w, uint32_t i);

#endif
