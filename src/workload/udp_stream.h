/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_stream: UDP_STREAM's sender and receiver roles (sender: udp_tx, receiver: udp_rx,
 * shared: udp_sock, header: udp_hdr, accounting: udp_acct).
 *
 * UDP gives no delivery, order or end-of-stream signal, so every datagram carries a 16-byte
 * header: a 64-bit sequence number, a per-test tag, a kind (data, end marker, receiver
 * feedback) and a check. The receiver counts received, lost, reordered and duplicated
 * datagrams separately with a sliding bitmap over recent sequence numbers, and ignores
 * (counts as bad) anything malformed or from another test. The sender ends with several
 * spaced END markers that carry the number of datagrams it sent; the receiver also ends on
 * its own after an idle gap past the expected end, so a lost END never hangs a test.
 *
 * Sending modes. By default the sender blasts, as netperf does: no flow control, no pacing,
 * so a sender faster than its receiver shows loss in the receiver's count. Two modes are
 * opt-in: --flow-control (spec->udp_flow_control, below) and --pace RATE
 * (spec->udp_pace_bps: the sender keeps to RATE bits/s from its start, batches catching up
 * when late, spinning the last 50 us before a send); both may be combined.
 *
 * Flow control: the receiver reports its progress (highest sequence number seen) and a
 * window sized to half its receive buffer every eighth of that window; the sender keeps no
 * more than that window of datagrams ahead of the last report. A sender faster than its
 * receiver (the usual case on loopback, where the sender's CPU also runs the delivery) is
 * thereby held to what the receiver sustains instead of filling its queue and dropping:
 * loss that still happens (a lost datagram is never resent) is reported, never hidden.
 * While datagrams flow, the receiver naps briefly on an empty queue instead of blocking on
 * the socket, so that the sender does not pay a wakeup per datagram.
 *
 * SO_DONTROUTE (netperf's UDP_STREAM default, off with spec->udp_route) is set for the first
 * datagram only: once it went out the peer is proven on-link, and keeping the flag would
 * cost a route lookup per datagram.
 *
 * Elapsed time: the sender's runs from its start to its last data datagram (the END phase
 * is excluded); the receiver's from its first data datagram to its last, so neither the
 * wait for the first datagram nor the END handshake dilutes the receive rate. */
#ifndef WS_WORKLOAD_UDP_STREAM_H
#define WS_WORKLOAD_UDP_STREAM_H

#include "model/result.h"
#include "workload/udp_acct.h"
#include "workload/udp_sock.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;
struct ws_interim_counter;

/* ws_udp_msg_size, WS_UDP_MIN_MSG and WS_UDP_MAX_MSG: udp_sock.h. */

/* The user-space buffer bytes one flow's role allocates (the sender's message, and its
 * UDP_SEGMENT batch with --gso; the receiver's batch of receive buffers), for the daemon's
 * memory budget. sndbuf_set is as for ws_udp_msg_size. */
uint64_t ws_udp_buffer_bytes(const ws_test_spec *spec, bool sender, uint32_t sndbuf_set);

/* Run the UDP_STREAM sender (sender) or receiver on a connected datagram socket fd. The
 * caller has filled the setup sizes of *res (sndbuf_set is the sender's default message
 * size); this fills send_size/recv_size, bytes, calls, the datagram counters, elapsed_ns,
 * io_path and io_note (why a requested path fell back). ENOBUFS and ECONNREFUSED on send
 * are counted in send_errors and the sender keeps going. fill_fd (-1 for none) is the -F
 * file whose bytes fill the sender's payloads after the header. Returns 0 or a negative
 * code with *err filled; the counters are valid either way. cap_ns (0 = none) is the
 * monotonic time at which the role ends with ws_stream_capped's error whatever the peer
 * does; a receiver so ended sends END_ACK, and a sender stops on an END_ACK. A timed
 * receiver ends at its duration + WS_STREAM_END_STALL_NS at the latest. */
int ws_udp_run_role(const ws_test_spec *spec, bool sender, int fd, int fill_fd, int64_t cap_ns,
		    ws_side_result *res, struct ws_err *err);

/* ws_udp_run_role with -D's counter of this flow (measure/interim.h; NULL = none): the
 * sender adds the bytes of the datagrams it sent. The receiver does not count: it runs on
 * the daemon (the client of UDP_STREAM always sends), which reports no interim results. */
int ws_udp_run_role_progress(const ws_test_spec *spec, bool sender, int fd, int fill_fd,
			     int64_t cap_ns, struct ws_interim_counter *progress,
			     ws_side_result *res, struct ws_err *err);

#endif
