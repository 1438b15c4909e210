/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_acct: the UDP_STREAM receiver's accounting; see udp_acct.h. */
#include "workload/udp_acct.h"

#include <string.h>

#define WIN_WORDS (WS_UDP_WINDOW / 64)

static bool bit_test(const ws_udp_acct *a, uint64_t seq)
{
	return (a->bits[(seq / 64) % WIN_WORDS] >> (seq % 64)) & 1u;
}

static void bit_set(ws_udp_acct *a, uint64_t seq)
{
	a->bits[(seq / 64) % WIN_WORDS] |= 1ull << (seq % 64);
}

void ws_udp_acct_init(ws_udp_acct *a, uint32_t tag)
{
	memset(a, 0, sizeof(*a));
	a->tag = tag;
	a->jump_max = WS_UDP_JUMP_MAX;
}

/* True when seq is too far ahead of head to be believed (see WS_UDP_JUMP_MAX). */
static bool implausible(const ws_udp_acct *a, uint64_t seq)
{
	return seq >= WS_UDP_SEQ_LIMIT || (seq >= a->head && seq - a->head >= a->jump_max);
}

/* Slide the window so that head becomes seq + 1: the slots of [head, seq] drop their old
 * meaning. A gap of a window or more clears the bitmap at once, so the loop runs at most
 * WIN_WORDS times whatever the gap. */
static void slide(ws_udp_acct *a, uint64_t seq)
{
	uint64_t gap = seq - a->head + 1;
	if (gap >= WS_UDP_WINDOW) {
		memset(a->bits, 0, sizeof(a->bits));
	} else {
		for (uint64_t s = a->head; s <= seq;) {
			uint64_t bit = s % 64, n = 64 - bit;
			if (n > seq - s + 1)
				n = seq - s + 1;
			uint64_t mask = n == 64 ? ~0ull : ((1ull << n) - 1) << bit;
			a->bits[(s / 64) % WIN_WORDS] &= ~mask;
			s += n;
		}
	}
	a->head = seq + 1;
}

static void account_data(ws_udp_acct *a, uint64_t seq, size_t len)
{
	if (implausible(a, seq)) {
		a->jumps++;
		return;
	}
	if (seq >= a->head) {
		slide(a, seq);
	} else if (a->head - seq <= WS_UDP_WINDOW && bit_test(a, seq)) {
		a->dup++;
		return;
	} else {
		a->reordered++;
	}
	bit_set(a, seq);
	a->unique++;
	a->bytes += len;
}

int ws_udp_acct_feed(ws_udp_acct *a, const void *dgram, size_t len)
{
	ws_udp_hdr h;
	if (ws_udp_hdr_decode(dgram, len, a->tag, &h) < 0) {
		a->bad++;
		return -1;
	}
	if (h.kind == WS_UDP_END) {
		if (implausible(a, h.seq))
			a->jumps++;
		else if (!a->end_seen || h.seq > a->end_total)
			a->end_total = h.seq;
		a->end_seen = true;
	} else if (h.kind == WS_UDP_DATA) {
		account_data(a, h.seq, len);
	}
	return h.kind;
}

uint64_t ws_udp_acct_lost(const ws_udp_acct *a)
{
	uint64_t expected = a->end_seen && a->end_total ? a->end_total : a->head;
	return expected > a->unique ? expected - a->unique : 0;
}
