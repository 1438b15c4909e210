/* SPDX-License-Identifier: BSD-2-Clause */
/* iqwpkt: the packets of a Write IQ pass (see iqwpkt.c), shared by the fast engine
 * (iqwrite.c) and the acknowledged one (iqack.c). */
#ifndef WS_IQ_IQWPKT_H
#define WS_IQ_IQWPKT_H

#include "iq/host/hostio.h"

/* One Write IQ of count samples of src (format fmt) at sample start of the TX buffers in
 * mask, in npkt packets of spp samples (the last may be shorter), under IQ ID iq_id. */
typedef struct ws_iqw_op {
	uint16_t mask;
	uint8_t iq_id;
	uint32_t start, count, spp, npkt;
	ws_iq_format fmt;
	const void *src;
	int resends; /* acknowledged mode: packets sent again */
} ws_iqw_op;

/* The samples in packet p. */
uint32_t ws_iqw_samples(const ws_iqw_op *o, uint32_t p);
/* Builds packet p into send slot k with seq, ROBUST and CHECKSUM_RESET as asked (and
 * LAST_WRITE on the last packet). Returns the packet's last sample word, which WARPLab's
 * checksum takes. */
uint32_t ws_iqw_build(ws_iq_node *n, const ws_iqw_op *o, uint32_t p, unsigned k, uint16_t seq,
		      int robust, int reset);
/* Sends slots [0, k): one sendmmsg (paced by the handle's write_rate_bps when set), or one
 * packet at a time on the pacing clock *next when the handle has pace_ns. */
int ws_iqw_send(ws_iq_node *n, unsigned k, int64_t *next, ws_err *err);
/* The words of a Write IQ acknowledgement m for o, into w (room for 3 +
 * WS_WIRE_NOT_READY_WORDS): their number (status, IQ ID, checksum, then NOT_READY's status
 * words), 0 when it is too short or for another IQ ID (counted as malformed), or
 * -WS_E_REMOTE with err set when the node answered IQ_ERROR (naming packet pkt, or none
 * when pkt is negative: a chunk's acknowledgement). */
int ws_iqw_ack_words(ws_iq_node *n, const ws_iqw_op *o, const ws_wire_msg *m, uint32_t *w,
		     int64_t pkt, ws_err *err);

#endif
