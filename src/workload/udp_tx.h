/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_tx: UDP_STREAM's sender role: blasting (netperf's way), --flow-control and --pace,
 * the I/O paths (sendmmsg, send, UDP_SEGMENT) and the END phase; the protocol and the
 * modes are described in udp_stream.h, which dispatches to this role. */
#ifndef WS_WORKLOAD_UDP_TX_H
#define WS_WORKLOAD_UDP_TX_H

#include "model/result.h"

#include <stdint.h>

struct ws_err;
struct ws_interim_counter;

/* The sender role of ws_udp_run_role_progress (udp_stream.h) on connected socket fd. */
int ws_udp_send_role(const ws_test_spec *spec, int fd, int fill_fd, int64_t cap_ns,
		     struct ws_interim_counter *progress, ws_side_result *res, struct ws_err *err);

/* The sender's user-space buffer bytes for messages of size bytes (with --gso, one
 * UDP_SEGMENT batch beside the message). */
uint64_t ws_udp_tx_buffer_bytes(const ws_test_spec *spec, uint32_t size);

#endif
