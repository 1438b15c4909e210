/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of trigger confirmation (issue 13 item 9) against the in-process node emulator
 * behind bench/iq_proxy.c, whose trigger counter is the test double of `warpspeed node`'s
 * (it counts the triggers it passes on and answers the query): a lost first trigger is
 * confirmed by a re-send and the data read back is the data written; a node that never
 * sees a trigger fails with the counter and the attempts named, within the budget; a node
 * without the query gets one trigger and an UNCONFIRMED result, and is not asked again;
 * the answer's decoding; and a trigger to another port that the node serves after the
 * first poll is found by a later poll. */
#include "harness.h"
#include "iq_bed.h"

#include "iq/host/iqtrigger.h"

/* A bed through proxy p with the host's trigger_port and budget_ms; 1 when it is up. */
static int up_with(bed *b, const px_cfg *p, int trigger_port, uint32_t budget_ms)
{
	ws_iq_config h;
	ws_iq_config_default(&h);
	h.trigger_port = trigger_port;
	h.budget_ms = budget_ms;
	int up = bed_up(b, NULL, p, &h) == 0 && b->h;
	CHECK("up", up);
	return up;
}

static void test_counter_words(void)
{
	ws_iq_reply r = {.w = {WS_IQ_TRIGGER_COUNTER_MAGIC, 1, 2}, .nw = 3};
	uint64_t c = 0;
	CHECK_INT("three words", ws_iq_cmd_trigger_count_of(&r, &c), 1);
	CHECK_U64("64-bit count", c, 0x100000002ull);
	r.w[1] = r.w[2] = 0xFFFFFFFFu;
	CHECK_INT("the top", ws_iq_cmd_trigger_count_of(&r, &c), 1);
	CHECK_U64("2^64 - 1", c, UINT64_MAX);
	r.nw = 0;
	CHECK_INT("an empty ack", ws_iq_cmd_trigger_count_of(&r, &c), 0);
	r.nw = 2;
	CHECK_INT("two words", ws_iq_cmd_trigger_count_of(&r, &c), 0);
	r.nw = 3;
	r.w[0] = 0x57535045u;
	CHECK_INT("another magic", ws_iq_cmd_trigger_count_of(&r, &c), 0);
	uint8_t b[32];
	CHECK_INT("packet", ws_iqtrigger_packet(b, sizeof b, 250, 7, 1), 18);
	CHECK_U64("trigger word", ws_get_be32(b + 14), 1);
	CHECK_INT("pkt_type 0", b[7], 0);
}

/* The first trigger is dropped: the counter stays, the trigger goes again, the read
 * returns what was written (at 5a0d583 it returned the test signal, exit 0). */
static void test_lost_first_trigger(void)
{
	px_cfg p = {.up = 1, .down = 1, .seed = 3, .drop_triggers = 1, .trigger_counter = 1};
	bed b;
	CHECK("up", bed_up(&b, NULL, &p, NULL) == 0);
	if (!b.h)
		return;
	uint32_t n = 1u << 18;
	int16_t *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
	fill_ci16(x, n, 77);
	ws_iq_error er;
	ws_iq_trigger_result res;
	CHECK("write", ws_iq_write(b.h, WS_IQ_RF_A, 0, n, WS_IQ_FMT_CI16, x, &er) == 0);
	CHECK_INT("confirmed", ws_iq_trigger_ex(b.h, 1, &res, &er), WS_IQ_TRIGGER_CONFIRMED);
	CHECK_INT("status", res.status, WS_IQ_TRIGGER_CONFIRMED);
	CHECK_INT("sent twice", res.sent, 2);
	CHECK_U64("before", res.before, 0);
	CHECK_U64("after", res.after, 1);
	CHECK_INT("the proxy dropped one", (int)b.proxy->triggers_dropped, 1);
	void *d[1] = {y};
	CHECK("read", ws_iq_read(b.h, WS_IQ_RF_A, 0, n, WS_IQ_FMT_CI16, d, &er) == 0);
	CHECK("read returns the written samples", memcmp(x, y, (size_t)n * 4) == 0);
	/* The next trigger goes through at once. */
	CHECK_INT("again", ws_iq_trigger_ex(b.h, 1, &res, &er), WS_IQ_TRIGGER_CONFIRMED);
	CHECK_INT("once", res.sent, 1);
	CHECK_U64("2", res.after, 2);
	ws_iq_stats s;
	ws_iq_get_stats(b.h, &s);
	CHECK_U64("triggers", s.triggers, 3);
	CHECK_U64("resends", s.trigger_resends, 1);
	CHECK_U64("unconfirmed", s.triggers_unconfirmed, 0);
	free(x);
	free(y);
	bed_down(&b);
}

/* Every trigger is dropped: -WS_E_TIMEDOUT naming the counter and the attempts, after the
 * budget and not much more. */
static void test_trigger_never_seen(void)
{
	px_cfg p = {.up = 1, .down = 1, .seed = 3, .drop_triggers = UINT64_MAX,
		    .trigger_counter = 1};
	bed b;
	if (!up_with(&b, &p, 0, 500))
		return;
	ws_iq_error er;
	ws_iq_trigger_result res;
	int64_t t0 = ws_clock_ns();
	CHECK_INT("fails", ws_iq_trigger_ex(b.h, 1, &res, &er), -WS_E_TIMEDOUT);
	int64_t ms = (ws_clock_ns() - t0) / WS_NS_PER_MS;
	char want[300];
	snprintf(want, sizeof want, "node 127.0.0.1:%d did not see the trigger: its trigger "
		 "counter stayed at 0 after 3 triggers over 0.5 s (waits 100, 200, 200 ms) "
		 "(--timeout-ms, --retries, --budget-ms)", b.port);
	CHECK_STR("message", er.msg, want);
	CHECK_INT("sent", res.sent, 3);
	CHECK_INT("all dropped", (int)b.proxy->triggers_dropped, 3);
	CHECK("within the budget", ms >= 500 && ms < 800);
	bed_down(&b);
}

/* A node that answers the query with an empty acknowledgement (WARPLab, an older node):
 * one trigger, UNCONFIRMED (1), and the next trigger does not ask again. */
static void test_no_counter(void)
{
	px_cfg p = {.up = 1, .down = 1, .seed = 3, .trigger_counter = 2};
	bed b;
	CHECK("up", bed_up(&b, NULL, &p, NULL) == 0);
	if (!b.h)
		return;
	ws_iq_error er;
	ws_iq_trigger_result res;
	ws_iq_stats s0, s1;
	CHECK_INT("unconfirmed", ws_iq_trigger_ex(b.h, 1, &res, &er), WS_IQ_TRIGGER_UNCONFIRMED);
	CHECK_STR("not an error", er.msg, "");
	CHECK_INT("status", res.status, WS_IQ_TRIGGER_UNCONFIRMED);
	CHECK_INT("sent once", res.sent, 1);
	CHECK_INT("one query", (int)b.proxy->counter_queries, 1);
	ws_iq_get_stats(b.h, &s0);
	CHECK_INT("plain call too", ws_iq_trigger(b.h, 1, &er), WS_IQ_TRIGGER_UNCONFIRMED);
	ws_iq_get_stats(b.h, &s1);
	CHECK_U64("no second query", s1.commands, s0.commands);
	CHECK_INT("still one query", (int)b.proxy->counter_queries, 1);
	CHECK_U64("unconfirmed counted", s1.triggers_unconfirmed, 2);
	bed_down(&b);
}

/* A trigger to another port (trigger_port: straight to the node, around the proxy that
 * counts): the proxy's counter never moves, so this is the never-seen case with the
 * trigger port named; and the poll does ask several times per trigger. */
static void test_trigger_port_polls(void)
{
	px_cfg p = {.up = 1, .down = 1, .seed = 3, .trigger_counter = 1};
	bed b;
	if (!up_with(&b, &p, -1, 100)) /* -1: the bed's convention for the node's own port */
		return;
	ws_iq_error er;
	ws_iq_trigger_result res;
	CHECK_INT("not seen by the double", ws_iq_trigger_ex(b.h, 1, &res, &er), -WS_E_TIMEDOUT);
	CHECK_INT("one trigger in 100 ms", res.sent, 1);
	CHECK("polled a few times", b.proxy->counter_queries >= 4);
	bed_down(&b);
}

int main(void)
{
	RUN(test_counter_words);
	RUN(test_lost_first_trigger);
	RUN(test_trigger_never_seen);
	RUN(test_no_counter);
	RUN(test_trigger_port_polls);
	TEST_MAIN_END();
}
