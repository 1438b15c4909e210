/* SPDX-License-Identifier: BSD-2-Clause */
/* test_ratelog: the log limiter (util/ratelog.h): a burst, then the steady rate, the
 * count of lines held back and its summary. */
#include "harness.h"

#include "util/clock.h"
#include "util/ratelog.h"

static void test_burst_then_rate(void)
{
	ws_ratelog r;
	int64_t t = 1000 * WS_NS_PER_SEC;
	ws_ratelog_init(&r, 10, 1.0, t);
	unsigned long long held = 99, out = 0;
	for (int i = 0; i < 100000; i++)
		out += ws_ratelog_take(&r, t, &held);
	CHECK_U64("a burst of 10 at once", out, 10);
	/* 5 s of a flood, one line a millisecond: one more line a second */
	for (int i = 1; i <= 5000; i++)
		if (ws_ratelog_take(&r, t + i * WS_NS_PER_MS, &held))
			out++;
	CHECK_U64("then 1 a second", out, 15);
	CHECK_U64("the last line through says how many were held", held, 999);
	CHECK_U64("nothing pending right after", ws_ratelog_drain(&r), 0);
	CHECK(">= 1 line held", !ws_ratelog_take(&r, t + 5000 * WS_NS_PER_MS, &held));
	CHECK_U64("drain", ws_ratelog_drain(&r), 1);
	CHECK_U64("total", r.total, 100000 - 10 + 4995 + 1);
	/* quiet for a minute: the burst is back, not 60 lines */
	out = 0;
	for (int i = 0; i < 100; i++)
		out += ws_ratelog_take(&r, t + 65 * WS_NS_PER_SEC, &held);
	CHECK_U64("burst refills to 10 only", out, 10);
}

static void test_summary(void)
{
	ws_ratelog r;
	ws_ratelog_init(&r, 10, 1.0, 0);
	char t[160];
	ws_ratelog_summary(&r, 12345, t, sizeof(t));
	CHECK_STR("summary", t, "... 12,345 more like this (held back: at most 10 lines at once, then 1 per second)");
	ws_ratelog_summary(&r, 999, t, sizeof(t));
	CHECK_STR("no comma", t, "... 999 more like this (held back: at most 10 lines at once, then 1 per second)");
	ws_ratelog_summary(&r, 1234567, t, 12);
	CHECK_STR("truncated safely", t, "... 1,234,5");
}

int main(void)
{
	RUN(test_burst_then_rate);
	RUN(test_summary);
	TEST_MAIN_END();
}
