/* SPDX-License-Identifier: BSD-2-Clause */
/* setup: what a side of a test sets up before the run starts, by the same rules on the
 * client and on the daemon: its data sockets' buffer sizes and options, and the file
 * that TCP_SENDFILE sends or that fills the send buffers (-F). The sessions call these
 * while they build the data connections; the run itself is workload/run.h. */
#ifndef WS_WORKLOAD_SETUP_H
#define WS_WORKLOAD_SETUP_H

#include "model/spec.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* The socket buffer sizes a side applies at setup: what the spec asks for, else 0 (the
 * system's default), except for UDP_STREAM's opt-in modes (--flow-control, --pace), whose
 * receiver gets a large default so a run on loopback keeps to the window. *force says
 * whether to exceed the sysctl limits when root, which is done only for such defaults,
 * never for explicit sizes. */
void ws_workload_buffers(const ws_test_spec *spec, bool is_client, uint32_t *sndbuf,
			 uint32_t *rcvbuf, int *force);

/* The harness options (net/sockopt.h) this side applies to its data sockets: its own -Y
 * and -y and -K values; on TCP, SO_KEEPALIVE (-S) on both sides, TCP_CORK (test option -C)
 * on the side that sends data (both for request/response tests) and TCP_MAXSEG (-G) on
 * the client only, before connect, as netperf does. */
struct ws_sockopt_req;
void ws_workload_sockopts(const ws_test_spec *spec, bool is_client, struct ws_sockopt_req *r);

/* Open the file TCP_SENDFILE sends (spec->fill_file, or a 16 MiB temporary file of random
 * bytes, already unlinked), or the -F source that fills the other tests' send buffers.
 * Returns an fd, or an error naming the file when it is missing, unreadable, empty, or not
 * a regular file (TCP_SENDFILE) or not a regular file, device or pipe (a fill source, as
 * netperf's fill file: -F /dev/urandom works); callers check this before connecting. */
int ws_workload_open_fill(const ws_test_spec *spec, struct ws_err *err);

#endif
