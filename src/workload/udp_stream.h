/* udp_stream: UDP_STREAM's sender and receiver roles, and the receiver's accounting.
 *
 * UDP gives no delivery, order or end-of-stream signal, so every datagram carries a 16-byte
 * header: a 64-bit sequence number, a per-test tag, a kind (data, end marker, receiver
 * feedback) and a check. The receiver counts received, lost, reordered and duplicated
 * datagrams separately with a sliding bitmap over recent sequence numbers, and ignores
 * (counts as bad) anything malformed or from another test. The sender ends with several
 * spaced END markers that carry the number of datagrams it sent; the receiver also ends on
 * its own after an idle gap past the expected end, so a lost END never hangs a test.
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

#include "ctl/spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;

#define WS_UDP_HDR_LEN 16     /* bytes of header at the start of every datagram */
#define WS_UDP_MIN_MSG WS_UDP_HDR_LEN
#define WS_UDP_MAX_MSG 65507  /* the largest IPv4 UDP payload */
#define WS_UDP_WINDOW 4096    /* sequence numbers the receiver's bitmap remembers */

enum ws_udp_kind {
	WS_UDP_DATA = 0,    /* seq = the datagram's number, from 0 */
	WS_UDP_END = 1,     /* seq = datagrams sent in all */
	WS_UDP_ACK = 2,     /* receiver → sender: seq = highest data seq seen + 1; 8 more bytes:
			     * the window in datagrams */
	WS_UDP_END_ACK = 3, /* receiver → sender: END seen, seq = distinct datagrams received */
};

typedef struct ws_udp_hdr {
	uint64_t seq;
	uint32_t tag;
	uint8_t kind; /* enum ws_udp_kind */
} ws_udp_hdr;

/* Write h as the first WS_UDP_HDR_LEN bytes at p (big-endian, with its check). */
void ws_udp_hdr_encode(uint8_t *p, const ws_udp_hdr *h);

/* Parse the header of a datagram of len bytes. Returns 0 and fills *h, or -1 when the
 * datagram is shorter than a header, its check or version does not match, its kind is
 * unknown, or its tag differs from tag. */
int ws_udp_hdr_decode(const uint8_t *p, size_t len, uint32_t tag, ws_udp_hdr *h);

/* The per-test tag both ends derive from the connected socket pair's ports, so datagrams
 * from an earlier test on the same ports are told apart. */
uint32_t ws_udp_tag(uint16_t sender_port, uint16_t receiver_port);

/* The receiver's accounting. Counters:
 *   unique     distinct data datagrams received (late arrivals included, duplicates not)
 *   reordered  data datagrams that arrived after a higher sequence number
 *   dup        data datagrams whose sequence number was already received
 *   bad        datagrams that were malformed, truncated or carried another tag
 * Sequence numbers more than WS_UDP_WINDOW below the highest seen cannot be told apart
 * from duplicates; they count as reordered (late) arrivals. */
typedef struct ws_udp_acct {
	uint32_t tag;
	uint64_t head;       /* highest data sequence number seen + 1 */
	uint64_t unique, bytes, reordered, dup, bad;
	bool end_seen;
	uint64_t end_total;  /* datagrams the sender said it sent (END) */
	uint64_t bits[WS_UDP_WINDOW / 64]; /* seen flags of [head - WS_UDP_WINDOW, head) */
} ws_udp_acct;

void ws_udp_acct_init(ws_udp_acct *a, uint32_t tag);

/* Account one received datagram of len bytes (a whole datagram, or one GRO segment).
 * Returns its kind (enum ws_udp_kind) or -1 when it was counted as bad. bytes counts the
 * lengths of distinct data datagrams. */
int ws_udp_acct_feed(ws_udp_acct *a, const void *dgram, size_t len);

/* Datagrams sent but never received: the END marker's total (or, without one, the highest
 * sequence number seen + 1) minus the distinct datagrams received, never below 0. */
uint64_t ws_udp_acct_lost(const ws_udp_acct *a);

/* The message size the sender uses: spec->send_size, or when 0 netperf's default, the
 * send buffer size sndbuf_set capped at WS_UDP_MAX_MSG. Returns 0, or -WS_E_INVAL with a
 * message naming the size and the accepted range (WS_UDP_MIN_MSG..WS_UDP_MAX_MSG). */
int ws_udp_msg_size(const ws_test_spec *spec, uint32_t sndbuf_set, uint32_t *size,
		    struct ws_err *err);

/* Run the UDP_STREAM sender (sender) or receiver on a connected datagram socket fd. The
 * caller has filled the setup sizes of *res (sndbuf_set is the sender's default message
 * size); this fills send_size/recv_size, bytes, calls, the datagram counters, elapsed_ns,
 * io_path and io_note (why a requested path fell back). ENOBUFS and ECONNREFUSED on send
 * are counted in send_errors and the sender keeps going. fill_fd (-1 for none) is the -F
 * file whose bytes fill the sender's payloads after the header. Returns 0 or a negative
 * code with *err filled; the counters are valid either way. */
int ws_udp_run_role(const ws_test_spec *spec, bool sender, int fd, int fill_fd, ws_side_result *res,
		    struct ws_err *err);

#endif
