/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the IQ transport's congestion window (src/iq/host/iqcc.c), driven with
 * hand-made loss patterns, with the exact window after each step: slow start from a small
 * window, a cut to 7/10 on an overflowing queue (a run of losses, losses of 1/16 of the
 * window in a round, a packet lost on its 4th send), one cut per round however many units
 * of that round report loss, growth by one packet per window afterwards (probing again),
 * a single random loss that costs nothing, and the bounds: never below the minimum nor above
 * the maximum, also when the maximum moves. */
#include "harness.h"

#include "iq/host/iqcc.h"

/* A sender of units of np packets: send k of them, end them in order with the given
 * losses; returns the window after the last. */
typedef struct sim {
	ws_iqcc c;
	uint32_t next; /* the next unit's number */
	uint32_t done; /* the next unit to end */
} sim;

static void sim_init(sim *s, uint32_t start, uint32_t lo, uint32_t hi)
{
	ws_iqcc_init(&s->c, start, lo, hi);
	s->next = s->done = 1;
}

static void sim_send(sim *s, uint32_t k) { s->next += k; }

/* The oldest unit in flight ends with got/lost/run/hard. */
static int sim_end(sim *s, uint32_t got, uint32_t lost, uint32_t run, int hard)
{
	return ws_iqcc_ended(&s->c, s->done++, got, lost, run, hard, s->next, 1000);
}

static void test_slow_start(void)
{
	sim s;
	sim_init(&s, 8, 4, 1000);
	CHECK_INT("start", s.c.win, 8);
	/* A round of 8 one-packet units delivered: 16, then 32, 64. */
	uint32_t want[] = {16, 32, 64, 128};
	for (int r = 0; r < 4; r++) {
		uint32_t w = s.c.win;
		sim_send(&s, w);
		for (uint32_t i = 0; i < w; i++)
			sim_end(&s, 1, 0, 0, 0);
		CHECK_INT("doubles per round", s.c.win, want[r]);
	}
	CHECK_INT("no cut", s.c.cuts, 0);
	CHECK_INT("least", s.c.least, 8);
	CHECK_INT("most", s.c.most, 128);
}

static void test_overflow_cut_once_then_probe(void)
{
	sim s;
	sim_init(&s, 40, 4, 1000);
	ws_iqcc_bound(&s.c, 1000);
	/* Four requests of 10 packets in flight; the queue takes 25: requests 3 and 4 lose
	 * their tails (5 and 10 packets, runs of 5 and 10). */
	sim_send(&s, 4);
	CHECK_INT("req 1 clean", sim_end(&s, 10, 0, 0, 0), 0);
	CHECK_INT("slow start", s.c.win, 50);
	CHECK_INT("req 2 clean", sim_end(&s, 10, 0, 0, 0), 0);
	CHECK_INT("slow start", s.c.win, 60);
	CHECK_INT("req 3 overflow cuts", sim_end(&s, 5, 5, 5, 0), 1);
	CHECK_INT("cut to 7/10", s.c.win, 42);
	CHECK_INT("ssthresh", s.c.ssthresh, 42);
	CHECK_INT("req 4, same round, no second cut", sim_end(&s, 0, 10, 10, 0), 0);
	CHECK_INT("kept", s.c.win, 42);
	CHECK_INT("one cut", s.c.cuts, 1);
	/* Probing: units sent after the cut grow it by one packet per window delivered. */
	sim_send(&s, 100);
	for (int i = 0; i < 41; i++)
		sim_end(&s, 1, 0, 0, 0);
	CHECK_INT("41 of 42 delivered: not yet", s.c.win, 42);
	sim_end(&s, 1, 0, 0, 0);
	CHECK_INT("a window delivered: + 1", s.c.win, 43);
	for (int i = 0; i < 43; i++)
		sim_end(&s, 1, 0, 0, 0);
	CHECK_INT("another: + 1", s.c.win, 44);
	/* The probe overflows again: a run of 3 lost one-packet units cuts. */
	CHECK_INT("lost 1", sim_end(&s, 0, 1, 1, 0), 0);
	CHECK_INT("lost 2", sim_end(&s, 0, 1, 1, 0), 0);
	CHECK_INT("lost 3 in a row", sim_end(&s, 0, 1, 1, 0), 1);
	CHECK_INT("44 * 7/10", s.c.win, 30);
	CHECK_INT("history: start and two cuts", s.c.nhist, 3);
	CHECK_INT("second cut from", s.c.hist[2].from, 44);
	CHECK_INT("second cut to", s.c.hist[2].to, 30);
	CHECK_INT("dated", s.c.hist[2].t_ns, 1000);
}

static void test_random_loss_kept(void)
{
	sim s;
	sim_init(&s, 100, 4, 100);
	/* One packet lost per round of 100: random, never a cut. */
	for (int r = 0; r < 5; r++) {
		sim_send(&s, 100);
		for (int i = 0; i < 100; i++)
			CHECK_INT("no cut", sim_end(&s, i == 37 ? 0 : 1, i == 37, i == 37, 0), 0);
	}
	CHECK_INT("window whole", s.c.win, 100);
	/* Two isolated losses in a round of 100 are below 1/16 of it: kept. */
	sim_send(&s, 100);
	for (int i = 0; i < 100; i++)
		sim_end(&s, i % 50 == 3 ? 0 : 1, i % 50 == 3, i % 50 == 3, 0);
	CHECK_INT("2 of 100 kept", s.c.cuts, 0);
	/* Seven isolated losses in a round of 100 (7 * 16 >= 100) cut. */
	sim_send(&s, 100);
	int cut = 0;
	for (int i = 0; i < 100; i++)
		cut += sim_end(&s, i % 14 == 5 ? 0 : 1, i % 14 == 5, i % 14 == 5, 0);
	CHECK_INT("7 of 100 cut once", cut, 1);
	CHECK_INT("to 70", s.c.win, 70);
}

static void test_hard_loss_and_bounds(void)
{
	sim s;
	sim_init(&s, 6, 4, 50);
	sim_send(&s, 10);
	CHECK_INT("a packet lost on its 4th send cuts", sim_end(&s, 0, 1, 1, 1), 1);
	CHECK_INT("6 * 7/10 = 4", s.c.win, 4);
	/* Every round overflows: never below the minimum. */
	for (int r = 0; r < 5; r++) {
		sim_send(&s, 4);
		s.done = s.next - 4;
		sim_end(&s, 0, 1, 1, 1);
		s.done = s.next;
		CHECK_INT("at the minimum", s.c.win, 4);
	}
	CHECK_INT("cuts counted", s.c.cuts, 6);
	CHECK_INT("least", s.c.least, 4);
	/* Clean rounds from 4: slow start is over (ssthresh 4): + 1 per window. */
	for (int r = 0; r < 3; r++) {
		uint32_t w = s.c.win;
		sim_send(&s, w);
		for (uint32_t i = 0; i < w; i++)
			sim_end(&s, 1, 0, 0, 0);
	}
	CHECK_INT("4 -> 5 -> 6 -> 7", s.c.win, 7);
	/* Never above the maximum: lowering it brings the window down at once. */
	ws_iqcc_bound(&s.c, 5);
	CHECK_INT("bound lowered", s.c.win, 5);
	for (int r = 0; r < 20; r++) {
		sim_send(&s, 5);
		for (int i = 0; i < 5; i++)
			sim_end(&s, 1, 0, 0, 0);
	}
	CHECK_INT("held at the bound", s.c.win, 5);
	ws_iqcc_bound(&s.c, 2);
	CHECK_INT("a bound below the minimum is the minimum", s.c.win, 4);
	/* A start outside the bounds is clamped. */
	ws_iqcc_init(&s.c, 1, 4, 9);
	CHECK_INT("start below", s.c.win, 4);
	ws_iqcc_init(&s.c, 100, 4, 9);
	CHECK_INT("start above", s.c.win, 9);
	ws_iqcc_mark(&s.c);
	CHECK_INT("mark: one point", s.c.nhist, 1);
	CHECK_INT("mark: no cuts", s.c.cuts, 0);
}

static void test_history_bounded(void)
{
	sim s;
	sim_init(&s, 1000, 4, 1000);
	for (int k = 0; k < WS_IQCC_HIST + 10; k++) {
		sim_send(&s, 3);
		s.done = s.next - 3;
		sim_end(&s, 0, 5, 5, 0);
		s.done = s.next;
	}
	CHECK_INT("kept", s.c.nhist, WS_IQCC_HIST);
	CHECK_INT("not kept, counted", s.c.hist_lost, 11);
	CHECK_INT("the minimum", s.c.win, 4);
}

int main(void)
{
	RUN(test_slow_start);
	RUN(test_overflow_cut_once_then_probe);
	RUN(test_random_loss_kept);
	RUN(test_hard_loss_and_bounds);
	RUN(test_history_bounded);
	TEST_MAIN_END();
}
