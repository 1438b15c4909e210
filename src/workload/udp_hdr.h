/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_hdr: the 16-byte header that starts every UDP_STREAM datagram, and the per-test tag.
 *
 * UDP gives no delivery, order or end-of-stream signal, so every datagram carries a 64-bit
 * sequence number, a per-test tag, a kind (data, end marker, receiver feedback) and a
 * check. Both roles and the receiver's accounting (udp_acct) use this one codec, so the
 * byte layout lives in one place. */
#ifndef WS_WORKLOAD_UDP_HDR_H
#define WS_WORKLOAD_UDP_HDR_H

#include <stddef.h>
#include <stdint.h>

#define WS_UDP_HDR_LEN 16 /* bytes of header at the start of every datagram */

enum ws_udp_kind {
	WS_UDP_DATA = 0,    /* seq = the datagram's number, from 0 */
	WS_UDP_END = 1,     /* seq = datagrams sent in all */
	WS_UDP_ACK = 2,     /* receiver → sender: seq = highest data seq seen + 1; 8 more bytes:
			     * the window in datagrams */
	WS_UDP_END_ACK = 3, /* receiver → sender: END seen (or the receiver ended the test),
			     * seq = distinct datagrams received */
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

#endif
