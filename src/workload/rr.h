/* SPDX-License-Identifier: BSD-2-Clause */
/* rr: the request/response workloads (TCP_RR, UDP_RR, TCP_CRR), both roles.
 *
 * This header is the contract between the engines and the session layer. The client plays
 * the requester (it times every transaction into a histogram); the daemon the responder.
 * One flow in closed loop runs on blocking sockets (the fastest path: a recv and a send
 * per transaction, as netperf); many flows, or an open-loop rate, run on the epoll engine
 * of rr_multi.c, one epoll set per worker thread; TCP_CRR runs in crr.c because it makes
 * its own connections.
 *
 * On the wire (the data sockets), warpspeed's RR is netperf's, so a stock netperf client
 * and netserver can be either peer (issue 16):
 *  - TCP_RR: a request is req_size raw bytes, a response rsp_size raw bytes; the requester
 *    keeps 1 + burst requests outstanding. The end is the requester's half-close; the
 *    responder answers what it has received and ends at EOF.
 *  - UDP_RR: one datagram of req_size bytes per request, one of rsp_size per response. The
 *    responder copies the first min(8, req_size, rsp_size) bytes of a request into its
 *    response (the tag; the rest is filler). warpspeed's requester puts a transaction tag
 *    there (the low bytes of a 64-bit sequence number, big-endian), so a reply that comes
 *    after its timeout is recognised and discarded instead of being taken for the next
 *    transaction's. A zero-length datagram from the requester is the end marker (sent a few
 *    times); the responder also ends after WS_STREAM_END_STALL_NS of silence past the
 *    test's end.
 *  - TCP_CRR: per transaction, connect, send the request, read the response, close. The
 *    responder closes first, after its response (netserver's order: TIME_WAIT stays on
 *    the responder); the requester reads that EOF, then closes. A connection that closes
 *    before sending a request byte is warpspeed's end marker (docs/rr.md).
 * A response of the wrong size (UDP), or a byte stream that does not end on a response
 * boundary at EOF (TCP), fails the test with a message naming both sizes. */
#ifndef WS_WORKLOAD_RR_H
#define WS_WORKLOAD_RR_H

#include "model/result.h"
#include "net/addr.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;
struct ws_interim_counter;

/* UDP_RR: a transaction with no reply after this is counted lost and retried (-e). */
#define WS_RR_DEFAULT_TIMEOUT_NS (100 * 1000000LL)

/* The parameters of one side of an RR test, filled by workload/run.c from the spec. */
typedef struct ws_rr_params {
	const ws_test_spec *spec;
	bool is_client; /* requester, else responder */
	bool udp;       /* UDP_RR */
	const int *fds; /* connected data sockets, one per flow (not TCP_CRR) */
	uint32_t nfds;
	uint32_t threads; /* worker threads for the flows (1 for one flow) */
	const int *cpus;  /* CPUs the worker threads are pinned to in turn, or NULL */
	uint32_t ncpus;
	int64_t start_ns;   /* the common start (monotonic) */
	int64_t end_ns;     /* WS_END_TIME: when the requester stops issuing; 0 otherwise */
	uint64_t end_count; /* WS_END_TRANSACTIONS: transactions in all (split over flows) */
	int64_t stall_ns;   /* no progress for this long is an error */
	int64_t cap_ns;     /* the daemon's time cap (ws_stream_capped), 0 = none */
	/* TCP_CRR only: where the connections go (client) or come from (daemon). */
	int listen_fd;   /* daemon: the session's data listener; -1 otherwise */
	ws_addr remote;  /* client: the daemon's data address */
	bool bind_local; /* client: bind each connection to `local` (-L, -P lport) */
	ws_addr local;
	uint16_t local_port_max; /* client: the last port of the -p range (0: 65535) */
	ws_addr expect_peer;     /* daemon: only connections from this address are served
	                          * (the control peer's, any port) */
	int wake_fd;             /* daemon: readable when the daemon stops, or -1 */
	/* TCP_CRR daemon only, 0 = off: end cleanly without an end marker, as at one, once
	 * no connection is open and either end_count transactions were served (a count test)
	 * or end_ns has passed and no connection arrived for this long. A stock netperf sends
	 * no end marker (netserver ends on a timer). */
	int64_t idle_end_ns;
	/* -D (client only; NULL = none): interim counters, one per flow (measure/interim.h).
	 * An engine adds each completed transaction of flow i with the one line
	 * ws_interim_add(ws_interim_at(p->progress, i), 1); TCP_CRR's flows likewise. */
	struct ws_interim_counter *progress;
	/* -F (client only; NULL = warpspeed's pattern): the first bytes of the fill file, which
	 * the engines repeat over their request buffers (ws_rr_fill), as netperf fills its
	 * send ring from the file. Read once before the test, so a device such as /dev/urandom
	 * costs one read of what the requests need. */
	const unsigned char *fill;
	size_t fill_len;
	/* The engine this side resolved (never auto; run.c) and io_uring's --sqpoll. */
	enum ws_engine engine;
	bool sqpoll;
} ws_rr_params;

/* Repeat p->fill over buf[0..n) when there is one; leave buf alone otherwise. */
void ws_rr_fill(const ws_rr_params *p, void *buf, size_t n);

/* One flow, closed loop, blocking (TCP_RR, UDP_RR). Fills transactions, bytes, calls,
 * elapsed, and on the client the latency histogram and the UDP loss counts. */
int ws_rr_run(const ws_rr_params *p, ws_side_result *res, struct ws_err *err);

/* Many flows on p->threads epoll workers, or any flow count in open loop (spec->rate > 0).
 * Adds per-flow and per-thread arrays, and for open loop trans_scheduled and max_lag_ns,
 * with latency measured from each request's intended send time. */
int ws_rr_multi_run(const ws_rr_params *p, ws_side_result *res, struct ws_err *err);

/* TCP_CRR, any flow count: a connection per transaction. */
int ws_crr_run(const ws_rr_params *p, ws_side_result *res, struct ws_err *err);

#endif
