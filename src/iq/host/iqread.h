/* SPDX-License-Identifier: BSD-2-Clause */
/* iqread: the Read IQ engine behind ws_iq_read (see iqread.c for how it works).
 *
 * host.c owns the entry points and the lock and checks the arguments; this module only moves the
 * samples, so the public entry point, its locking and its error conversion stay in one
 * place for every call of the API. */
#ifndef WS_IQ_IQREAD_H
#define WS_IQ_IQREAD_H

#include "iq/host/hostio.h"

/* Reads samples [start, start + count) of every RX buffer in mask into dst[0], dst[1], ...
 * (one per set bit, lowest first) in format fmt. The caller holds n->lock and has checked
 * mask, range and format against the node (ws_iq_read does). Drops stale datagrams first,
 * then pipelines requests until every packet is placed. Returns 0, or a negative code with
 * err naming the node, the buffer and what was missing; the destinations are then
 * unspecified. */
int ws_iqread_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		  void *const *dst, ws_err *err);

/* The steps of ws_iqread_run, for the reply fuzzer (fuzz_iq_host_reply.c) and tests: a
 * read's state (begin), requests sent while the window has room (fill), one datagram
 * from the node applied to the state (feed: a pure function of the datagram and the
 * state, no I/O; 1 when it placed samples or finished a request, 0 when it was ignored and
 * counted, or an error such as IQ_ERROR or too many NOT_READY), and the state freed (end).
 * On an offline handle nothing is sent and a NOT_READY does not hold back the next fill. */
typedef struct ws_iqread_op ws_iqread_op;
int ws_iqread_begin(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		    void *const *dst, ws_iqread_op **out, ws_err *err);
int ws_iqread_fill(ws_iq_node *n, ws_iqread_op *o, ws_err *err);
int ws_iqread_feed(ws_iq_node *n, ws_iqread_op *o, const uint8_t *b, size_t len, int trunc,
		   ws_err *err);
int ws_iqread_done(const ws_iqread_op *o);
void ws_iqread_end(ws_iqread_op *o);

/* ws_iqread_run that calls tick(op, ctx) before each wait for datagrams, on the calling
 * thread. A tick may point the rest of the read elsewhere (retarget); a non-zero return
 * stops the read with ECANCELED. For callers whose destination is not ready when the read
 * must start (the MEX transport stages wire words until Octave has made its array). */
typedef int (*ws_iqread_tick_fn)(ws_iqread_op *o, void *ctx);
int ws_iqread_run_tick(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		       ws_iq_format fmt, void *const *dst, ws_iqread_tick_fn tick, void *ctx,
		       ws_err *err);

/* From now on samples go to dst[0], dst[1], ... in format fmt; the packets already placed
 * (ws_iqread_placed) stay where they were, for the caller to move. */
void ws_iqread_retarget(ws_iqread_op *o, ws_iq_format fmt, void *const *dst);

/* Packets placed so far, of all buffers. */
uint64_t ws_iqread_got(const ws_iqread_op *o);

/* Whether packet p (of samples_per_packet samples from the read's start) of the read's
 * b-th buffer (lowest mask bit first) has been placed. */
int ws_iqread_placed(const ws_iqread_op *o, unsigned b, uint32_t p);

#endif
