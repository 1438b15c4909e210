/* SPDX-License-Identifier: BSD-2-Clause */
/* run: one side of one test, from the START barrier to its result.
 *
 * The role each side plays comes from the test-type table (model/testtype.h: TCP_STREAM:
 * client sends, daemon receives; TCP_MAERTS: the reverse), so the client session and the
 * daemon call the same function and only say which side they are; this module keeps only
 * which engine runs each test type. CPU snapshots bracket the role here, once, for every
 * workload. */
#ifndef WS_WORKLOAD_RUN_H
#define WS_WORKLOAD_RUN_H

#include "model/result.h"
#include "workload/rr.h"
#include "workload/setup.h"

#include <stdbool.h>
#include <stddef.h>

struct ws_err;
struct ws_interim;

/* True when this build can run the test type at all. */
bool ws_workload_supported(enum ws_test_type t);

/* The TCP receiver's wake threshold (SO_RCVLOWAT) for a receive size: what --rcvlowat
 * asked for, else one receive size, at most 512 KiB, so that a receive call finds a full
 * buffer. A receiver woken per segment costs the sender a wake-up per segment, which on
 * loopback, where the sender's CPU is the bottleneck, shows in TCP_STREAM and TCP_MAERTS.
 * Higher is not better everywhere: several receive sizes slowed the epoll engine of
 * --streams and single streams of small sends, and --skip-rx-copy's 4 MiB calls ran
 * slower above 512 KiB (docs/benchmarks.md has the figures). The kernel still wakes the
 * receiver at the end of the data and when the window or memory runs short, so the
 * threshold never stalls a transfer. Kernels older than 5.0 get no automatic threshold
 * (ws_features_rcvlowat_safe). */
uint32_t ws_workload_rcvlowat(uint32_t asked, uint32_t recv_size);

/* Check that the CPUs this side would pin to (-T and --cpus / --remote-cpus) exist,
 * before any connection is made. */
int ws_workload_check_cpus(const ws_test_spec *spec, bool is_client, struct ws_err *err);

/* The user-space data buffers this side's role allocates, computed before anything is
 * allocated: one per worker thread for TCP (a worker's flows share its buffer; several
 * streams run on min(threads, streams) workers), one set per flow for UDP (a thread per
 * flow). Socket buffers are the kernel's memory, bounded by net.core.[rw]mem_max, and are
 * not counted. */
typedef struct ws_workload_cost {
	uint64_t bytes; /* in all */
	uint64_t each;  /* one buffer (UDP: one flow's batch) */
	uint32_t buffers;
	uint32_t threads; /* worker threads that run the flows */
	bool receive;     /* receive buffers, else send buffers */
	bool rr;          /* request/response: each buffer is a request and a response */
} ws_workload_cost;

/* setup holds the socket sizes applied at setup (sndbuf_set, rcvbuf_set), as for
 * ws_workload_run; it is not changed. */
void ws_workload_cost_of(const ws_test_spec *spec, bool is_client, const ws_side_result *setup,
			 ws_workload_cost *c);

/* "TCP_STREAM with 4 flows on 4 threads needs 4 GiB of buffers (4 receive buffers of
 * 1 GiB)", for the messages that refuse a test over a memory budget. */
void ws_workload_cost_describe(const ws_test_spec *spec, const ws_workload_cost *c, char *buf,
			       size_t bufsz);

/* Run this side's role on the connected data sockets (one per flow; flow i of the client
 * is flow i of the daemon). The caller has filled the socket size fields of *res at
 * setup; this fills the rest (bytes, calls, elapsed, CPU, sizes at the end, host
 * identity, and for several flows the per-flow and per-thread arrays, which
 * ws_side_result_free releases). The sockets are left open for the caller to close. */
int ws_workload_run(const ws_test_spec *spec, bool is_client, const int *fds, uint32_t nfds,
		    ws_side_result *res, struct ws_err *err);

/* ws_workload_run with a time cap: at cap_ns (monotonic; 0 = none) every engine ends its
 * role whatever the peer does and the run returns -WS_E_LIMIT ("stopped by the time cap
 * after 2.5 s, N bytes received"). The daemon's --max-duration. */
int ws_workload_run_capped(const ws_test_spec *spec, bool is_client, const int *fds, uint32_t nfds,
			   int64_t cap_ns, ws_side_result *res, struct ws_err *err);

/* TCP_CRR, one side, inside the same CPU bracket: no data connection exists beforehand.
 * endpoints gives where connections go (client: remote, bind_local, local) or come from
 * (daemon: listen_fd, expect_peer, wake_fd); the rest of ws_rr_params is filled here from
 * the spec (threads, CPUs, end, stall, cap_ns: the daemon's time cap, 0 = none). */
int ws_workload_run_crr(const ws_test_spec *spec, bool is_client, const ws_rr_params *endpoints,
			int64_t cap_ns, ws_side_result *res, struct ws_err *err);

/* The client's ws_workload_run with -D: the engine bumps interim's counters (one per flow,
 * measure/interim.h) and the reporter runs from right before the engine starts
 * (ws_interim_begin) to right after it returns (ws_interim_stop, which reports the last,
 * partial interval). TCP_CRR takes crr as ws_workload_run_crr does (and fds, nfds are
 * unused). interim NULL is ws_workload_run (or ws_workload_run_crr). */
int ws_workload_run_interim(const ws_test_spec *spec, const int *fds, uint32_t nfds,
			    const ws_rr_params *crr, struct ws_interim *interim,
			    ws_side_result *res, struct ws_err *err);

#endif
