/* SPDX-License-Identifier: BSD-2-Clause */
/* iqwrite: the Write IQ engine behind ws_iq_write and ws_iq_write_multi (see iqwrite.c).
 *
 * host.c owns the entry points and the lock and checks the arguments; this module only moves the
 * samples and keeps the AUTO write-mode state of the handle (acked_left, sticky). */
#ifndef WS_IQ_IQWRITE_H
#define WS_IQ_IQWRITE_H

#include "iq/host/hostio.h"

/* AUTO: clean acknowledged writes before FAST again, after a first fallback (a handle's
 * sticky starts here; each fallback in a row doubles it, a clean fast write halves it). */
#define WS_IQWRITE_STICKY 4

/* Writes count samples of src (format fmt) at sample start of every TX buffer in mask (one
 * Write IQ with that buffer bitmask), in the handle's write mode. The caller holds n->lock
 * and has checked mask, range and format against the node (ws_iq_write does). Returns 0
 * once every packet is verified (chunk checksum or per-packet acknowledgement), or a
 * negative code with err naming the node and what failed. */
int ws_iqwrite_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		   const void *src, ws_err *err);

/* The steps of one Write IQ pass, for the reply fuzzer (fuzz_iq_host_reply.c) and tests:
 * begin prepares a fast pass (acked 0: every packet in chunks and the PING behind them
 * sent) or an acknowledged write (acked 1: the first window sent, and its probe); step
 * sends more of an acknowledged write as the window opens; feed applies one datagram from
 * the node to the state (a pure function of the datagram and the state, no I/O: 1 when
 * it settled a chunk or acknowledged a packet, 2 on a fast pass's NOT_READY, 0 when it was
 * ignored and counted, or an error such as IQ_ERROR); done says whether nothing is
 * pending; end frees the state. On an offline handle nothing is sent and nothing sleeps. */
typedef struct ws_iqwrite_op ws_iqwrite_op;
int ws_iqwrite_begin(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		     const void *src, int acked, ws_iqwrite_op **out, ws_err *err);
int ws_iqwrite_step(ws_iq_node *n, ws_iqwrite_op *w, ws_err *err);
int ws_iqwrite_feed(ws_iq_node *n, ws_iqwrite_op *w, const uint8_t *b, size_t len, int trunc,
		    ws_err *err);
int ws_iqwrite_done(const ws_iqwrite_op *w);
void ws_iqwrite_end(ws_iqwrite_op *w);

#endif
