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

#include "workload/rr.h"

#include <stdatomic.h>
#include <stddef.h>

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

#endif
