/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_rx: UDP_STREAM's receiver role: the I/O paths (recvmmsg, recv, UDP_GRO), the
 * accounting of every datagram (udp_acct), the reports to a flow-controlled sender and
 * the end rules; the protocol is described in udp_stream.h, which dispatches to this role. */
#ifndef WS_WORKLOAD_UDP_RX_H
#define WS_WORKLOAD_UDP_RX_H

#include "model/result.h"

#include <stdint.h>

struct ws_err;

/* The receiver role of ws_udp_run_role (udp_stream.h) on connected socket fd. */
int ws_udp_recv_role(const ws_test_spec *spec, int fd, int64_t cap_ns, ws_side_result *res,
		     struct ws_err *err);

/* The receiver's user-space buffer bytes (its batch of receive buffers). */
uint64_t ws_udp_rx_buffer_bytes(const ws_test_spec *spec);

#endif
