/* SPDX-License-Identifier: BSD-2-Clause */
/* iqcc: the congestion window of the IQ host transport's Read IQ and acknowledged Write IQ.
 *
 * A node answers a Read IQ request as fast as its link takes the packets, unpaced, and an
 * acknowledged write goes out as fast as the host can send: whatever the window lets into
 * flight arrives at the slowest link's queue in one burst. A window larger than that queue
 * loses the excess at every turn (re-requests included), a smaller one leaves the link idle.
 * This module finds the size between: it starts small, doubles per window delivered (slow
 * start), grows by one packet per window delivered once it has been cut (probing), and cuts
 * to 7/10 when a round shows a queue overflowing: a run of 3 packets lost in a row, losses
 * of at least 2 packets and 1/16 of the window within one round, or one packet lost
 * WS_IQCC_HARD_LOSS times in a row. A single loss in a round is random loss and costs
 * nothing: it is repaired faster with the window kept. It is a pure state machine of
 * counts (no clock reads, no I/O), so that tests can drive it with hand-made loss
 * patterns; the engines (iqread.c, iqack.c) number what they send in send order ("units":
 * a request of packets, or one packet) and report each unit's end. */
#ifndef WS_IQ_IQCC_H
#define WS_IQ_IQCC_H

#include <stdint.h>

#define WS_IQCC_HARD_LOSS 4  /* sends of one packet, all lost: the path's doing, not chance */
#define WS_IQCC_RUN       3  /* packets lost in a row: a queue overflowed */
#define WS_IQCC_FRAC      16 /* losses of 1/16 of the window in a round: a queue overflowed */
#define WS_IQCC_HIST      48 /* window changes kept for the report (cuts and their peaks) */

/* One point of the window's history: at t_ns (the caller's clock, ns since the transfer
 * began) the window went from `from` to `to` packets. */
typedef struct ws_iqcc_point {
	int64_t t_ns;
	uint32_t from, to;
} ws_iqcc_point;

typedef struct ws_iqcc {
	uint32_t win;       /* packets allowed in flight */
	uint32_t lo, hi;    /* bounds: never below lo nor above hi */
	uint32_t ssthresh;  /* below it the window doubles per round; above it, + 1 */
	uint32_t acc;       /* packets delivered since the last + 1 */
	uint32_t cut_after; /* units numbered below this were in flight at the last cut */
	uint32_t round_end; /* the first unit of the next round */
	uint32_t round_lost;
	uint32_t last_lost, run; /* the last lost unit's number; packets lost in a row */
	uint32_t least, most;    /* extremes since init */
	uint64_t cuts;
	uint64_t marks;     /* ws_iqcc_mark calls: a transfer that used the window began */
	uint32_t nhist;     /* points recorded (at most WS_IQCC_HIST kept) */
	uint32_t hist_lost; /* points not kept for want of room */
	ws_iqcc_point hist[WS_IQCC_HIST];
} ws_iqcc;

/* Starts at start packets (clamped to [lo, hi]), with lo >= 1 and hi >= lo. */
void ws_iqcc_init(ws_iqcc *c, uint32_t start, uint32_t lo, uint32_t hi);

/* A transfer begins (its units are numbered from 1 again): starts a new report (history,
 * extremes, cuts) at the current window, which is kept, so that a handle's next transfer
 * goes on from what the last one found. */
void ws_iqcc_mark(ws_iqcc *c);

/* Moves the upper bound (a window above it comes down to it). */
void ws_iqcc_bound(ws_iqcc *c, uint32_t hi);

/* Unit `no` (units are numbered from 1 in send order) ended: `got` of its packets arrived,
 * `lost` did not, `run` is its longest run of lost packets, and hard is non-zero when one
 * of its packets has now been lost WS_IQCC_HARD_LOSS times. next is the number the next
 * unit sent will get; now_ns dates a cut in the history. Units sent before the last cut
 * (no < cut_after) neither cut again nor grow the window: they were sent into the queue
 * that overflowed. Returns 1 when this unit cut the window, else 0. */
int ws_iqcc_ended(ws_iqcc *c, uint32_t no, uint32_t got, uint32_t lost, uint32_t run, int hard,
		  uint32_t next, int64_t now_ns);

#endif
