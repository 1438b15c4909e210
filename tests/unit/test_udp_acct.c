/* SPDX-License-Identifier: BSD-2-Clause */
/* test_udp_acct: the UDP_STREAM receiver's accounting against sequence numbers a hostile
 * or broken peer sends: the wrap at 2^64 (which once looped forever), jumps far ahead,
 * a reorder and a duplicate around them, and END totals that cannot be true, each with
 * exact counts. An alarm turns a hang into a failure. */
#include "harness.h"

#include "workload/udp_acct.h"

#include <unistd.h>

#define TAG 0x5EC0A11Cu
#define LEN 64

static int feed(ws_udp_acct *a, uint8_t kind, uint64_t seq)
{
	uint8_t d[LEN];
	memset(d, 0x11, sizeof(d));
	ws_udp_hdr h = {seq, TAG, kind};
	ws_udp_hdr_encode(d, &h);
	return ws_udp_acct_feed(a, d, sizeof(d));
}

#define COUNTS(name, a, uniq, lost, reord, dupl, jmp, hd)                       \
	do {                                                                     \
		CHECK_U64(name " unique", (a)->unique, uniq);                    \
		CHECK_U64(name " lost", ws_udp_acct_lost(a), lost);             \
		CHECK_U64(name " reordered", (a)->reordered, reord);             \
		CHECK_U64(name " dup", (a)->dup, dupl);                          \
		CHECK_U64(name " jumps", (a)->jumps, jmp);                       \
		CHECK_U64(name " head", (a)->head, hd);                          \
	} while (0)

static void test_wrap(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	for (uint64_t s = 0; s < 10; s++)
		feed(&a, WS_UDP_DATA, s);
	COUNTS("normal", &a, 10, 0, 0, 0, 0, 10);
	CHECK_INT("2^64-10 is data", feed(&a, WS_UDP_DATA, UINT64_MAX - 9), WS_UDP_DATA);
	CHECK_INT("2^64-1 is data", feed(&a, WS_UDP_DATA, UINT64_MAX), WS_UDP_DATA);
	COUNTS("two wrapping seqs", &a, 10, 0, 0, 0, 2, 10);
	for (uint64_t s = 10; s < 20; s++)
		feed(&a, WS_UDP_DATA, s);
	COUNTS("normal again", &a, 20, 0, 0, 0, 2, 20);
	/* a reorder: 22 before 21; then a duplicate of 21 */
	feed(&a, WS_UDP_DATA, 20);
	feed(&a, WS_UDP_DATA, 22);
	feed(&a, WS_UDP_DATA, 21);
	feed(&a, WS_UDP_DATA, 21);
	COUNTS("reorder, dup", &a, 23, 0, 1, 1, 2, 23);
	/* the last believable number ahead, and the first that is not */
	feed(&a, WS_UDP_DATA, 23 + WS_UDP_JUMP_MAX);
	COUNTS("jump limit", &a, 23, 0, 1, 1, 3, 23);
	feed(&a, WS_UDP_DATA, 23 + WS_UDP_JUMP_MAX - 1);
	COUNTS("just inside", &a, 24, WS_UDP_JUMP_MAX - 1, 1, 1, 3, 24 + WS_UDP_JUMP_MAX - 1);
	/* 2^62 and beyond are never believed, however far the head got */
	feed(&a, WS_UDP_DATA, WS_UDP_SEQ_LIMIT);
	CHECK_U64("seq limit", a.jumps, 4);
}

static void test_end_totals(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	for (uint64_t s = 0; s < 5; s++)
		feed(&a, WS_UDP_DATA, s);
	/* an END claiming 2^64-1 datagrams still ends the test, but its total is not used */
	CHECK_INT("end kind", feed(&a, WS_UDP_END, UINT64_MAX), WS_UDP_END);
	CHECK("end seen", a.end_seen);
	COUNTS("implausible end", &a, 5, 0, 0, 0, 1, 5);
	feed(&a, WS_UDP_END, 8);
	COUNTS("plausible end", &a, 5, 3, 0, 0, 1, 5);
	feed(&a, WS_UDP_END, WS_UDP_SEQ_LIMIT + 1);
	COUNTS("end past the limit", &a, 5, 3, 0, 0, 2, 5);
}

/* Many datagrams each just inside the jump bound: every call stays cheap and the head
 * grows only by what was fed. */
static void test_bounded_work(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	uint64_t s = 0;
	for (int i = 0; i < 100000; i++, s += WS_UDP_JUMP_MAX - 1)
		feed(&a, WS_UDP_DATA, s);
	CHECK_U64("head", a.head, s - (WS_UDP_JUMP_MAX - 1) + 1);
	CHECK_U64("unique", a.unique, 100000);
	CHECK_U64("jumps", a.jumps, 0);
}

/* A blasting sender may run more than WS_UDP_JUMP_MAX ahead of a stalled receiver: with
 * jump_max raised (as the receiver does without --flow-control) that datagram counts and
 * the head moves on; with the default it is a jump. */
static void test_blast_jump_max(void)
{
	const char *t = "blast_jump_max";
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	CHECK_U64(t, a.jump_max, WS_UDP_JUMP_MAX);
	feed(&a, WS_UDP_DATA, 0);
	feed(&a, WS_UDP_DATA, WS_UDP_JUMP_MAX + 5);
	CHECK_U64(t, a.jumps, 1);
	CHECK_U64(t, a.unique, 1);
	ws_udp_acct_init(&a, TAG);
	a.jump_max = WS_UDP_JUMP_MAX_BLAST;
	feed(&a, WS_UDP_DATA, 0);
	feed(&a, WS_UDP_DATA, WS_UDP_JUMP_MAX + 5);
	feed(&a, WS_UDP_DATA, WS_UDP_JUMP_MAX + 6);
	CHECK_U64(t, a.jumps, 0);
	CHECK_U64(t, a.unique, 3);
	CHECK_U64(t, a.head, WS_UDP_JUMP_MAX + 7);
	CHECK_U64(t, ws_udp_acct_lost(&a), WS_UDP_JUMP_MAX + 4);
	feed(&a, WS_UDP_DATA, WS_UDP_JUMP_MAX + 7 + WS_UDP_JUMP_MAX_BLAST);
	CHECK_U64(t, a.jumps, 1);
}

int main(void)
{
	alarm(20); /* the old accounting looped for ever on the wrap */
	RUN(test_wrap);
	RUN(test_end_totals);
	RUN(test_bounded_work);
	RUN(test_blast_jump_max);
	TEST_MAIN_END();
}
