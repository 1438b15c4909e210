/* SPDX-License-Identifier: BSD-2-Clause */
/* echoports: the RRUL probes' UDP echo ports in TEST_ACK, written by the daemon and read
 * by the client, so that both ends of WS_F_PROBE_PORT live in one place.
 *
 * The daemon opens one UDP echo socket per UDP probe (WS_LUL_UDP_PROBES of them, each
 * served by a thread of its own) and names each in a WS_F_PROBE_PORT field, in probe
 * order. A daemon from before the echo thread per probe sent the field once, for one
 * socket that echoes every probe. Both pairings of versions work: the client takes 1 to
 * WS_LUL_UDP_PROBES ports and its i-th UDP probe uses port[i % n] (workload/lul_probe.h),
 * so with one port every probe goes to it; an older client reads only the first field,
 * and the daemon's first echo socket answers whatever probe reaches it, each datagram
 * with its own tag and mark (docs/protocol.md, "RRUL's probe ports"). */
#ifndef WS_SESSION_ECHOPORTS_H
#define WS_SESSION_ECHOPORTS_H

#include "ctl/tlv.h"
#include "net/addr.h"
#include "workload/lul_probe.h"

#include <stdint.h>

struct ws_err;

/* The daemon: one WS_F_PROBE_PORT per echo socket fds[0..n), in probe order. */
void ws_echoports_put(ws_tlv_writer *w, const int *fds, uint32_t n);

/* The client: the echo ports of a TEST_ACK into *echo (its address the data peer's,
 * peer). 1 to WS_LUL_UDP_PROBES ports are accepted; none, more, or a field that is not a
 * port from 1 to 65535 is -WS_E_PROTO, with a message naming the count and what is
 * accepted. test: the test's name, for the message. */
int ws_echoports_get(const ws_tlv_msg *ack, const ws_addr *peer, const char *test,
		     ws_lul_echo *echo, struct ws_err *err);

#endif
