/* SPDX-License-Identifier: BSD-2-Clause */
/* mptcp: Multipath TCP sockets, and what the kernel says became of them.
 *
 * --mptcp asks for IPPROTO_MPTCP data sockets at both ends. Whether the connection really
 * runs MPTCP is only known afterwards: a peer that does not answer MP_CAPABLE (a stock
 * netserver's plain TCP listener, a middlebox that strips the option) leaves a connection
 * that has fallen back to TCP on an MPTCP socket, which works and looks the same to send
 * and recv. Results must not hide that, so after a test the side reads the state back
 * (TCP_IS_MPTCP, MPTCP_INFO) and, while MPTCP is in use, each subflow's addresses and
 * TCP_INFO (MPTCP_FULL_INFO, Linux 6.5). The constants and layouts are defined here, as
 * the kernel's UAPI fixes them, because the C library's headers may predate them. */
#ifndef WS_NET_MPTCP_H
#define WS_NET_MPTCP_H

#include "model/result.h"

#include <stdbool.h>

struct ws_err;

/* The protocol argument of socket() for a TCP data socket: IPPROTO_MPTCP with --mptcp,
 * else 0. */
int ws_mptcp_proto(bool mptcp);

/* Whether this kernel makes MPTCP sockets at all (net.mptcp.enabled, CONFIG_MPTCP); when
 * not, err says why, for the message that refuses --mptcp before a test starts. */
int ws_mptcp_check(struct ws_err *err);

/* fd's state: "mptcp" (in use), "fallback" (an MPTCP socket whose connection fell back to
 * TCP), "tcp" (a plain TCP socket), or "" (neither, or unreadable); *subflows (may be NULL)
 * gets MPTCP_INFO's count of subflows, the initial one included (1 after a fallback). */
const char *ws_mptcp_state(int fd, uint32_t *subflows);

/* Read fd's state into res: mptcp_state ("mptcp", "fallback" or "tcp"), mptcp_subflows and,
 * while MPTCP is in use, the subflows (mptcp_sf, mptcp_nsf). Leaves res alone for a
 * socket that is not TCP. */
void ws_mptcp_record(int fd, ws_side_result *res);

/* Read fd's state again over an earlier ws_mptcp_record (a sender's, taken before its
 * half-close): the later figures are kept (every byte acknowledged by then) unless the
 * kernel has begun to tear the connection down (fewer subflows, or one disconnected,
 * with no remote port), in which case the earlier record stands. */
void ws_mptcp_update(int fd, ws_side_result *res);

/* ws_mptcp_update's choice: whether the later record is whole beside the earlier (the
 * same state, no fewer subflows, none disconnected). */
bool ws_mptcp_whole(const ws_side_result *earlier, const ws_side_result *later);

#endif
