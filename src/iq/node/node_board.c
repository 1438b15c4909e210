/* SPDX-License-Identifier: BSD-2-Clause */
/* node_board: the optional board-fidelity model of the node emulator.
 *
 * Benchmarks against the emulator should fail where a real board would: a host that sends
 * faster than the board's receive slots drain loses packets, one that writes faster than
 * the board stores them waits, and one that reads or writes while a trigger's buffers play
 * gets NOT_READY. This module models exactly those three things and nothing else. Slot
 * admission runs on the kernel's arrival timestamps (wall clock), so the model stays exact
 * however late the node's thread reads a packet; the NOT_READY window runs on the monotonic
 * clock from the trigger. Off (all zero) by default: the emulator is then never the
 * bottleneck. */
#include "iq/node/node_board.h"

#include "util/clock.h"

#include <stdlib.h>

int ws_node_board_init(ws_node_board *b, const ws_node_config *c)
{
	*b = (ws_node_board){.rx_slots = c->rx_slots,
			     .per_packet_us = c->per_packet_us,
			     .not_ready = c->not_ready,
			     .not_ready_us = c->not_ready_us};
	if (b->rx_slots)
		b->slot_done = calloc(b->rx_slots, sizeof *b->slot_done);
	return b->rx_slots && !b->slot_done ? -1 : 0;
}

void ws_node_board_free(ws_node_board *b)
{
	free(b->slot_done);
	b->slot_done = NULL;
}

void ws_node_board_reset(ws_node_board *b) { b->busy_until_ns = 0; }

void ws_node_board_trigger(ws_node_board *b, uint32_t longest)
{
	if (!b->not_ready)
		return;
	int64_t now = ws_clock_ns();
	int64_t win = b->not_ready_us ? (int64_t)b->not_ready_us * WS_NS_PER_US
				      : (int64_t)longest * WS_NS_PER_SEC / WS_NODE_SAMPLE_RATE;
	b->busy_from_ns = now;
	b->busy_until_ns = now + win;
}

int ws_node_board_busy(const ws_node_board *b, int64_t now)
{
	return b->not_ready && now < b->busy_until_ns;
}

/* The board's registers count bytes: the pointer holds the byte offset of the sample
 * playing (0 .. 4 * (length - 1)) and the length register holds samples - 1; the firmware
 * reports offset + 4 and (length + 1) << 2, so both words are bytes and the pointer word
 * reaches the length word when the buffer has played. Saturated at the largest multiple of
 * 4 in 32 bits, which only a buffer of 2^30 samples (beyond any board) reaches. */
static uint32_t bytes_word(uint64_t samples)
{
	uint64_t b = samples << 2;
	return b > 0xFFFFFFFCu ? 0xFFFFFFFCu : (uint32_t)b;
}

static void buffer_words(uint64_t done, uint32_t length, uint32_t *w)
{
	uint64_t at = length ? (done < length - 1u ? done : length - 1u) : 0;
	w[0] = 1;
	w[1] = bytes_word(at + 1);
	w[2] = bytes_word(length);
}

void ws_node_board_not_ready_words(const ws_node_board *b, int64_t now, uint32_t tx_length,
				   uint32_t rx_length, uint32_t *w)
{
	int64_t since = now > b->busy_from_ns ? now - b->busy_from_ns : 0;
	uint64_t done = (uint64_t)since * (WS_NODE_SAMPLE_RATE / 1000000u) / 1000u;
	buffer_words(done, tx_length, w);
	buffer_words(done, rx_length, w + 3);
}

int ws_node_board_admit(ws_node_board *b, int write_iq, int64_t t, int64_t *done)
{
	uint32_t slots = b->rx_slots;
	while (b->slot_count && b->slot_done[b->slot_head] <= t) {
		b->slot_head = (b->slot_head + 1) % slots;
		b->slot_count--;
	}
	if (b->slot_count >= slots)
		return 0;
	int64_t cost = write_iq ? (int64_t)b->per_packet_us * WS_NS_PER_US : 0;
	*done = (t > b->last_done ? t : b->last_done) + cost;
	b->last_done = *done;
	b->slot_done[(b->slot_head + b->slot_count) % slots] = *done;
	b->slot_count++;
	return 1;
}

void ws_node_board_wait_until(int64_t t, const int *stop)
{
	int64_t left;
	while (!__atomic_load_n(stop, __ATOMIC_RELAXED) && (left = t - ws_clock_wall_ns()) > 0)
		ws_clock_sleep_ns(left < 10 * WS_NS_PER_MS ? left : 10 * WS_NS_PER_MS);
}
