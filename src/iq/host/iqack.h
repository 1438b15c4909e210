/* SPDX-License-Identifier: BSD-2-Clause */
/* iqack: acknowledged Write IQ (see iqack.c), the per-packet acknowledged engine behind
 * WS_IQ_WRITE_ACKED and the fast engine's fallback (iqwrite.c). */
#ifndef WS_IQ_IQACK_H
#define WS_IQ_IQACK_H

#include "iq/host/iqwpkt.h"

/* A fast pass's result per chunk of WS_IQ_HOST_BATCH packets; ws_iqack_init takes the
 * chunks marked GOOD as acknowledged already. */
enum { WS_IQACK_CHUNK_PENDING = 0, WS_IQACK_CHUNK_GOOD = 1, WS_IQACK_CHUNK_BAD = 2 };

/* The state of one acknowledged write. */
typedef struct ws_iqack {
	uint64_t *acked;   /* bitmap */
	uint32_t *sent_no; /* send number of the latest copy of each packet */
	uint8_t *sends;
	uint32_t *csum;   /* per-packet checksum (reset + one packet) */
	uint32_t *resend; /* ring of packets to send again */
	size_t rs_head, rs_n;
	uint32_t (*fly)[2]; /* ring of (packet, send number) in send order */
	size_t fl_head, fl_n;
	uint32_t cursor, nacked, send_no, high;
	uint16_t marker;
	uint32_t marker_no; /* send number the marker follows; 0 = none out */
	uint32_t fly_cap;   /* entries of fly: the window's bound when the write began */
	int64_t t0;         /* when the write began (the window's history) */
} ws_iqack;

/* Prepares the state for every packet of o, or with done (a fast pass's chunk results)
 * for the packets whose chunk was not verified; starts a new operation on the handle. 0,
 * or ENOMEM with err set (ws_iqack_free is still needed). */
int ws_iqack_init(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, const uint8_t *done, ws_err *err);
/* Sends, collects and resends until every packet is acknowledged (0) or a packet runs out
 * of sends, the node stops answering or answers IQ_ERROR (a negative code, err says). */
int ws_iqack_run(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, ws_err *err);
/* The steps of ws_iqack_run without waiting, for ws_iqwrite_step/feed (the reply fuzzer):
 * step sends what the window allows and the marker behind it; feed applies one datagram
 * (1 when it acknowledged a packet or was the marker's answer, 0 when ignored and counted,
 * or an error); done says whether every packet is acknowledged. */
int ws_iqack_step(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, ws_err *err);
int ws_iqack_feed(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, const uint8_t *b, size_t len, int trunc,
		  ws_err *err);
int ws_iqack_done(const ws_iqack *a, const ws_iqw_op *o);
void ws_iqack_free(ws_iqack *a);

#endif
