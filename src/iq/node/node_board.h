/* SPDX-License-Identifier: BSD-2-Clause */
/* node_board: the node emulator's optional board-fidelity model (see node_board.c).
 *
 * A real WARP v3 board holds a few packets at a time, stores Write IQ packets one by one and
 * answers NOT_READY while a trigger's buffers play; the emulator is faster than all that
 * unless asked to behave like the board. The model is plain state and arithmetic on times
 * the caller passes in: it sends nothing and counts nothing, so node_cmd.c decides what a
 * refusal means on the wire and which counter it bumps. */
#ifndef WS_IQ_NODE_BOARD_H
#define WS_IQ_NODE_BOARD_H

#include "iq/node/node.h"

#include <stdint.h>

typedef struct ws_node_board {
	uint32_t rx_slots;      /* receive slots, 0 = unlimited (no admission model) */
	uint32_t per_packet_us; /* time to store one Write IQ packet */
	int not_ready;          /* answer NOT_READY while a trigger's window lasts */
	uint32_t not_ready_us;  /* that window; 0 = the air time of the longer buffer */
	int64_t *slot_done;     /* completion times of packets holding a slot (FIFO ring) */
	uint32_t slot_head, slot_count;
	int64_t last_done;
	int64_t busy_from_ns, busy_until_ns; /* the NOT_READY window (monotonic ns) */
} ws_node_board;

/* Sets up the model from the fidelity fields of c (rx_slots, per_packet_us, not_ready,
 * not_ready_us), with no window open. Returns 0, or -1 when the slot ring (rx_slots
 * entries) cannot be allocated; ws_node_board_free is safe either way. */
int ws_node_board_init(ws_node_board *b, const ws_node_config *c);

/* Releases the slot ring; the struct may be initialised again. */
void ws_node_board_free(ws_node_board *b);

/* NODE_INITIALIZE: ends any NOT_READY window. */
void ws_node_board_reset(ws_node_board *b);

/* A trigger played buffers of longest samples: opens the NOT_READY window (not_ready_us,
 * or that many samples of air time at WS_NODE_SAMPLE_RATE) when not_ready is on. */
void ws_node_board_trigger(ws_node_board *b, uint32_t longest);

/* 1 while the NOT_READY window lasts at monotonic time now (never when not_ready is off). */
int ws_node_board_busy(const ws_node_board *b, int64_t now);

/* The six NOT_READY status words at now, in the firmware's units (bytes): TX status,
 * pointer, length, RX status, pointer, length. Status 1 = running; a pointer word is the
 * byte offset of the sample playing + 4 (the sample advances at 40 MS/s from the trigger
 * and stops at the last one), a length word is 4 * the buffer's samples (the register's
 * (length + 1) << 2). tx_length / rx_length are in samples. */
void ws_node_board_not_ready_words(const ws_node_board *b, int64_t now, uint32_t tx_length,
				   uint32_t rx_length, uint32_t *w);

/* Admits a packet that arrived at wall-clock time t (rx_slots must be non-zero). Returns 0
 * when all slots are still held, i.e. the board would have dropped it; otherwise 1 with
 * *done = when the board would have finished it (write_iq: one per_packet_us store after
 * the packets before it). */
int ws_node_board_admit(ws_node_board *b, int write_iq, int64_t t, int64_t *done);

/* Sleeps until the wall clock reaches t, in steps of at most 10 ms so that *stop (read
 * atomically, set by another thread) ends the wait promptly. */
void ws_node_board_wait_until(int64_t t, const int *stop);

#endif
