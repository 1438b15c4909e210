/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_stream: UDP_STREAM's entry points; see udp_stream.h. The sender role lives in
 * udp_tx.c, the receiver role in udp_rx.c, what both share in udp_sock.c. */
#include "workload/udp_stream.h"

#include "measure/interim.h"
#include "util/err.h"
#include "workload/udp_rx.h"
#include "workload/udp_tx.h"

uint64_t ws_udp_buffer_bytes(const ws_test_spec *spec, bool sender, uint32_t sndbuf_set)
{
	if (!sender)
		return ws_udp_rx_buffer_bytes(spec);
	uint32_t size;
	if (ws_udp_msg_size(spec, sndbuf_set, &size, NULL) < 0)
		return 0; /* refused before anything is allocated */
	return ws_udp_tx_buffer_bytes(spec, size);
}

int ws_udp_run_role_progress(const ws_test_spec *spec, bool sender, int fd, int fill_fd,
			     int64_t cap_ns, ws_interim_counter *progress, ws_side_result *res,
			     ws_err *err)
{
	res->io_path[0] = res->io_note[0] = '\0';
	res->send_size = res->recv_size = 0;
	return sender ? ws_udp_send_role(spec, fd, fill_fd, cap_ns, progress, res, err)
		      : ws_udp_recv_role(spec, fd, cap_ns, res, err);
}

int ws_udp_run_role(const ws_test_spec *spec, bool sender, int fd, int fill_fd, int64_t cap_ns,
		    ws_side_result *res, ws_err *err)
{
	return ws_udp_run_role_progress(spec, sender, fd, fill_fd, cap_ns, NULL, res, err);
}
