/* SPDX-License-Identifier: BSD-2-Clause */
/* multi: many flows over a few threads, each thread an epoll loop over its share.
 *
 * netperf runs one connection per process and its users add up skewed numbers from
 * copies started by hand; here all flows of a side start at one barrier and stop at one
 * deadline, each worker thread owns the flows i with i % threads == its index, and the
 * result keeps every flow's bytes and end time and every thread's CPU time. A flow that
 * fails is recorded with its reason and the others carry on. The same loop is the sender
 * (send until the deadline, half-close, wait for the peer's close) or the receiver (read
 * until EOF, then half-close so the sender's drain ends). */
#ifndef WS_WORKLOAD_MULTI_H
#define WS_WORKLOAD_MULTI_H

#include "model/result.h"
#include "workload/stream.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

typedef struct ws_multi_params {
	const int *fds; /* connected TCP sockets, one per flow */
	uint32_t nflows;
	uint32_t nthreads; /* 1..nflows */
	const int *cpus;   /* pin thread t to cpus[t % ncpus]; NULL/0 = no pinning */
	int ncpus;
	bool sender;
	/* Sizes, end condition, stall timer and I/O paths, as for one stream (fd unused); a
	 * byte count is split over the flows. */
	ws_stream_params io;
	bool sqpoll; /* the io_uring engine (stream_uring.h): --sqpoll */
} ws_multi_params;

/* Run the flows; fills res's totals, elapsed_ns (barrier to last flow's end), io_path,
 * thread CPU sums, and allocates res->flows and res->threads. Returns 0 when at least one
 * flow completed (failed flows are in res->flows), or an error when none could run. */
int ws_multi_run(const ws_multi_params *p, ws_side_result *res, struct ws_err *err);

/* UDP_STREAM over several flows: one thread per flow, each running the UDP engine on
 * its own connected socket pair, all released by one barrier. (The UDP engine's flow
 * control and end handshake are per socket, so flows do not share a thread.) Fills the
 * same totals and arrays as ws_multi_run; the datagram counters are summed. */
int ws_multi_run_udp(const ws_test_spec *spec, bool sender, const int *fds, uint32_t nflows,
		     int fill_fd, const int *cpus, int ncpus, int64_t cap_ns,
		     struct ws_interim_counter *progress, ws_side_result *res, struct ws_err *err);

#endif
