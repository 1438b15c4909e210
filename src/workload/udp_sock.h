/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_sock: what both UDP_STREAM roles (udp_tx.c, udp_rx.c) share: the message size
 * rule, the UDP offload option names that older C library headers lack (the PowerPC cross
 * toolchain's), whether the batched calls exist in this build, the bounds of the window
 * the receiver reports and the length of its report, the stall limit, and the note a role
 * leaves on its result when a requested I/O path fell back. */
#ifndef WS_WORKLOAD_UDP_SOCK_H
#define WS_WORKLOAD_UDP_SOCK_H

#include "model/result.h"
#include "util/clock.h"
#include "workload/udp_acct.h"

#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <sys/socket.h>

struct ws_err;

#define WS_UDP_MIN_MSG WS_UDP_HDR_LEN
#define WS_UDP_MAX_MSG 65507 /* the largest IPv4 UDP payload */

#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
#if defined(__linux__) && defined(MSG_WAITFORONE)
#define WS_UDP_HAVE_MMSG 1
#else
#define WS_UDP_HAVE_MMSG 0
#endif

#define WS_UDP_ACK_LEN    (WS_UDP_HDR_LEN + 8) /* a report: header + the receiver's window */
#define WS_UDP_WINDOW_MIN 16u                  /* datagrams; the receiver reports within these */
#define WS_UDP_WINDOW_MAX 65536u
#define WS_UDP_STALL_NS   (10 * WS_NS_PER_SEC) /* no progress this long ends a role */

/* The message size the sender uses: spec->send_size, or when 0 netperf's default, the
 * send buffer size sndbuf_set capped at WS_UDP_MAX_MSG. Returns 0, or -WS_E_INVAL with a
 * message naming the size and the accepted range (WS_UDP_MIN_MSG..WS_UDP_MAX_MSG). */
int ws_udp_msg_size(const ws_test_spec *spec, uint32_t sndbuf_set, uint32_t *size,
		    struct ws_err *err);

/* Sets res->io_note (why a requested path fell back), printf-style. */
__attribute__((format(printf, 2, 3))) void ws_udp_note(ws_side_result *res, const char *fmt, ...);

#endif
