/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_acct: the UDP_STREAM receiver's accounting of the datagrams it was fed.
 *
 * Sequence numbers come from the peer, so nothing here trusts them: the sliding bitmap
 * over recent sequence numbers is cleared by at most one window's worth per datagram, a
 * number implausibly far ahead is counted as a jump and never walked over, the head never
 * wraps, and lost/expected are computed so that they cannot wrap either. Every call costs
 * at most O(WS_UDP_WINDOW / 64) word operations whatever the datagram says. */
#ifndef WS_WORKLOAD_UDP_ACCT_H
#define WS_WORKLOAD_UDP_ACCT_H

#include "workload/udp_hdr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_UDP_WINDOW 4096 /* sequence numbers the receiver's bitmap remembers */

/* A data datagram whose sequence number is this far or farther beyond the head (the
 * highest seen + 1) is a jump: 16 times the largest flow-control window the receiver ever
 * grants (65536 datagrams), far more than a sender can have in flight beyond the receiver's
 * last report. */
#define WS_UDP_JUMP_MAX (1ull << 20)
/* The same bound for a sender that blasts (no flow control, netperf's UDP_STREAM): it may
 * run any distance ahead of a receiver that was scheduled out, so only a number that no
 * run could reach is implausible: 2^40 datagrams, hours at 100 Gbit/s of the smallest. */
#define WS_UDP_JUMP_MAX_BLAST (1ull << 40)
/* No sequence number (data or END total) at or above this is believed, so that head and
 * the counters derived from it stay far from wrapping (2^62 datagrams is decades at any
 * line rate). */
#define WS_UDP_SEQ_LIMIT (1ull << 62)

/* Counters:
 *   unique     distinct data datagrams received (late arrivals included, duplicates not)
 *   reordered  data datagrams that arrived after a higher sequence number
 *   dup        data datagrams whose sequence number was already received
 *   bad        datagrams that were malformed, truncated or carried another tag
 *   jumps      datagrams (data or END) whose sequence number was implausible: at least
 *              jump_max (WS_UDP_JUMP_MAX unless set) beyond the head, or at least WS_UDP_SEQ_LIMIT; they are
 *              counted only here and change nothing else
 * Sequence numbers more than WS_UDP_WINDOW below the highest seen cannot be told apart
 * from duplicates; they count as reordered (late) arrivals. */
typedef struct ws_udp_acct {
	uint32_t tag;
	uint64_t head; /* highest data sequence number seen + 1, < WS_UDP_SEQ_LIMIT */
	uint64_t unique, bytes, reordered, dup, bad, jumps;
	bool end_seen;
	uint64_t end_total; /* datagrams the sender said it sent (END), when plausible */
	uint64_t jump_max;  /* WS_UDP_JUMP_MAX (ws_udp_acct_init), or WS_UDP_JUMP_MAX_BLAST */
	uint64_t bits[WS_UDP_WINDOW / 64]; /* seen flags of [head - WS_UDP_WINDOW, head) */
} ws_udp_acct;

void ws_udp_acct_init(ws_udp_acct *a, uint32_t tag);

/* Account one received datagram of len bytes (a whole datagram, or one GRO segment).
 * Returns its kind (enum ws_udp_kind) or -1 when it was counted as bad. bytes counts the
 * lengths of distinct data datagrams. An END marker ends the test even when its total is
 * a jump (the total is then not believed). */
int ws_udp_acct_feed(ws_udp_acct *a, const void *dgram, size_t len);

/* Datagrams sent but never received: the END marker's total (or, without a believable
 * one, the highest sequence number seen + 1) minus the distinct datagrams received, never
 * below 0. */
uint64_t ws_udp_acct_lost(const ws_udp_acct *a);

#endif
