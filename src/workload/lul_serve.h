/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_serve: the daemon's half of a latency-under-load run (RRUL; the method is in
 * workload/lul_client.h): it answers each connection's greeting, runs the directions
 * opposite the client's and echoes the probes, UDP datagrams back to their sender with the
 * mark they arrived with (written into the reply too, so the client learns what reached
 * the daemon) and the TCP probe's bytes on its connection, until the client closes that. */
#ifndef WS_WORKLOAD_LUL_SERVE_H
#define WS_WORKLOAD_LUL_SERVE_H

#include "model/result.h"

#include <stdint.h>

struct ws_err;

/* The daemon's half: fds[0..nfds-WS_LUL_UDP_PROBES) the accepted TCP connections, the
 * last WS_LUL_UDP_PROBES the UDP echo sockets, one per UDP probe, each served by a thread
 * of its own (as is the TCP probe). cap_ns: the daemon's time cap (0 = none). */
int ws_lul_serve_run(const ws_test_spec *spec, const int *fds, uint32_t nfds, int64_t cap_ns,
		     ws_side_result *res, struct ws_err *err);

#endif
