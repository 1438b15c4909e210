/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_rdpipe: a Read IQ that starts before its output array exists.
 *
 * Octave copies every array a MEX makes when the MEX returns it, after the transfer, where
 * nothing can hide the copy (a 2^25-sample complex double read: 512 MiB made, then copied;
 * reads fell to 35 % of GbE). An array that Octave itself made (mexCallMATLAB) is returned
 * as it is, but making it costs about as much (zeros, then complex), and before the read
 * it would hold up the wire for that long. So the read starts at once on a thread of its
 * own, keeping the node's wire words in a stage, while the MEX's own thread has Octave
 * make the array; once it is there the read carries on straight into it and the MEX's
 * thread converts what was staged, while the rest arrives, helped by the read thread once
 * its read is over. Buffers after the first start
 * once the array exists, so the stage is one buffer of wire words (4 bytes per sample).
 * Plain C, no MEX calls: nothing here can raise, and the thread never touches Octave. */
#ifndef WLMEX_RDPIPE_H
#define WLMEX_RDPIPE_H

#include "iq/host/hostio.h"
#include "iq/wire/iqmem.h"

#include <stddef.h>
#include <stdint.h>

typedef struct wlmex_rdpipe wlmex_rdpipe;

/* What the read of one buffer left for the MEX's warnings and IQ-ID tracker. */
typedef struct wlmex_rdbuf {
	int iq_id;                 /* the last packet's IQ ID, -1 if none was placed */
	ws_iq_stats before, after; /* the handle's counters around the buffer's read */
	uint32_t packets, staged;  /* its packets, and how many of them went to the stage */
} wlmex_rdbuf;

/* Starts reading N samples from start of each RX buffer bufs[0..nb) in turn (one
 * interface bit each) from node n, on a thread. 0, or an error (out of memory, no
 * thread) with nothing started. */
int wlmex_rdpipe_start(wlmex_rdpipe **out, ws_iq_node *n, const uint32_t *bufs, size_t nb,
		       uint32_t start, uint32_t N, ws_err *err);

/* Waits until the first packets have arrived (or the read ended), at most wait_ms: making
 * the array costs CPU, and taken from a node and a read that are only starting it costs
 * wire time (a 2^20-sample read on the gige-jumbo bed: median 35.2 ms when the array was
 * made at once, 33.2 ms when made 2-5 ms later). */
void wlmex_rdpipe_wait_flowing(wlmex_rdpipe *p, int wait_ms);

/* Gives the destinations (dst[b] for buffer b), moves what was staged into them while the
 * rest arrives, waits for the end and frees the pipe. info[0..nb) is filled for the
 * buffers read. 0, or the read's error (the destinations are then unspecified). */
int wlmex_rdpipe_finish(wlmex_rdpipe *p, const ws_iqmem *dst, wlmex_rdbuf *info, ws_err *err);

/* Stops the read, waits for its thread and frees the pipe (the array could not be made). */
void wlmex_rdpipe_cancel(wlmex_rdpipe *p);

#endif
