/* iqwrite: the Write IQ engine behind ws_iq_write and ws_iq_write_multi (see iqwrite.c).
 *
 * host.c owns the entry points and the lock and checks the arguments; this module only moves the
 * samples and keeps the AUTO write-mode state of the handle (acked_left, sticky). */
#ifndef WS_IQ_IQWRITE_H
#define WS_IQ_IQWRITE_H

#include "iq/hostio.h"

/* AUTO: clean acknowledged writes before FAST again, after a first fallback (a handle's
 * sticky starts here; each fallback in a row doubles it, a clean fast write halves it). */
#define WS_IQWRITE_STICKY 4

/* Writes count samples of src (format fmt) at sample start of every TX buffer in mask (one
 * Write IQ with that buffer bitmask), in the handle's write mode. The caller holds n->lock
 * and has checked mask, range and format against the node (ws_iq_write does). Returns 0
 * once every packet is verified (chunk checksum or per-packet acknowledgement), or a
 * negative code with err naming the node and what failed. */
int ws_iqwrite_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		   ws_iq_format fmt, const void *src, ws_err *err);

#endif
