/* SPDX-License-Identifier: BSD-2-Clause */
/* probe: tell a warpspeed daemon from a stock netserver with one wait on a silent peer.
 *
 * netperf's protocol has no greeting: netserver reads toward a 656-byte message and says
 * nothing until it has one. So the client sends its warpspeed HELLO as always; a warpspeed
 * daemon answers at once. A peer still silent after a short wait (ws_probe_wait_ns) gets
 * zero bytes that complete a 656-byte message. Its type word is warpspeed's magic
 * (0x57535044), which no netperf version defines, so netserver answers "unknown request"
 * (serv_errno 998), changes nothing (no CPU binding, no test) and keeps the connection
 * usable: the answer names it, and the test goes on over netperf's protocol on the same
 * connection. A warpspeed daemon that answers only after the padding has the padding in
 * its stream, so the caller reconnects and greets it again without a probe. */
#ifndef WS_SESSION_PROBE_H
#define WS_SESSION_PROBE_H

#include <stddef.h>
#include <stdint.h>

struct ws_err;

enum ws_probe_found {
	WS_PROBE_WARPSPEED, /* something answered the HELLO in time: read it as a frame */
	WS_PROBE_NETSERVER, /* netserver's 998 reply was read: speak netperf's protocol */
	WS_PROBE_LATE,      /* a warpspeed frame came after the padding: reconnect, no probe */
	WS_PROBE_CLOSED,    /* closed after the padding without a byte: a netserver that
	                     * wants netperf's -Z passphrase first (it closes otherwise) */
};

/* The silence that makes the client pad: four connect times (the HELLO's round trip
 * and the daemon's work, with margin), at least 100 ms and at most 200 ms. */
int64_t ws_probe_wait_ns(int64_t connect_ns);

/* After a HELLO of hello_len bytes went out on fd: wait up to wait_ns for an answer; on
 * silence pad to 656 bytes and read the answer before deadline_ns. Fills *found and
 * returns 0, or a negative code: -WS_E_TIMEDOUT (silent even after the padding),
 * -WS_E_NOTWS (an answer that is neither warpspeed's nor netserver's, quoted), or the
 * socket's error. */
int ws_probe_peer(int fd, size_t hello_len, int64_t wait_ns, int64_t deadline_ns,
		  enum ws_probe_found *found, struct ws_err *err);

#endif
