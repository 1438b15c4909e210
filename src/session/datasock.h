/* SPDX-License-Identifier: BSD-2-Clause */
/* datasock: the client's data sockets, shared by both control protocols.
 *
 * Whether the peer is a warpspeed daemon or a stock netserver, the client builds its data
 * sockets the same way before the measured interval: the local address from -L or test
 * option -L and -P, the harness socket options before connect (TCP_MAXSEG must precede
 * the SYN), the socket sizes -s/-S ask for, and the options as the kernel applied them
 * recorded for -v 2. Only what follows the connect differs (warpspeed's cookie), so that
 * stays with each protocol. */
#ifndef WS_SESSION_DATASOCK_H
#define WS_SESSION_DATASOCK_H

#include "model/result.h"
#include "net/addr.h"
#include "session/client.h"
#include "workload/rr.h"

#include <stdint.h>

struct ws_err;

/* The local data address: test option -L, else -L, and test option -P, or the wildcard of
 * the peer's family. */
int ws_ds_local_addr(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *peer,
		     ws_addr *local, struct ws_err *err);

/* Close fds[0..n) that are open and mark them -1. */
void ws_ds_close_all(int *fds, uint32_t n);

/* UDP: one socket per flow (-P's port + flow index when -P was given), bound and with
 * the harness options applied, not yet connected; ports[i] is flow i's local port. The
 * setup sizes and socket options of the first are recorded in out->local. */
int ws_ds_open_udp(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *peer,
		   ws_test_result *out, int *fds, uint16_t *ports, struct ws_err *err);

/* TCP: connect flow `index` (of spec->streams) to data, before the measured interval;
 * returns the fd or a negative code. The setup sizes and socket options are recorded
 * from the first flow, and test option -D applied. */
int ws_ds_connect_tcp(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *data,
		      uint32_t index, ws_test_result *out, struct ws_err *err);

/* TCP_CRR makes its connections during the test: the setup only says where they go and
 * from where (-L, -P lport), and records the socket sizes that -s/-S give each of them,
 * from a socket that is never connected. */
int ws_ds_crr_endpoints(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *data,
			ws_test_result *out, ws_rr_params *ep, struct ws_err *err);

#endif
