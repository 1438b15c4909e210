/* SPDX-License-Identifier: BSD-2-Clause */
/* test_node_log: the node's per-cause log bound (issue 27: one line per refused packet).
 *
 * A cause repeated 10000 times in 2.5 s writes 3 lines per 1-s window and one summary per
 * window that left lines out, naming how many and the last one; another cause is not
 * held back by the first; the flush writes a summary once its window has passed and not
 * before. */
#include "harness.h"

#include "iq/node/node_log.h"

typedef struct sink {
	unsigned lines, summaries;
	char last[256];
} sink;

static void out(void *ctx, int level, const char *msg)
{
	sink *k = ctx;
	(void)level;
	k->lines++;
	k->summaries += strncmp(msg, "... ", 4) == 0;
	snprintf(k->last, sizeof k->last, "%s", msg);
}

#define S 1000000000ll

static void test_bound(void)
{
	static ws_node_loglimit l;
	sink k = {0};
	static const char a[] = "cause a %d", b[] = "cause b";
	int64_t t = 5 * S;
	unsigned written = 0;
	for (int i = 0; i < 10000; i++, t += S / 4000) {
		char msg[32];
		snprintf(msg, sizeof msg, "cause a %d", i);
		if (ws_node_loglimit_admit(&l, a, 2, msg, t, out, &k))
			out(&k, 2, msg), written++;
	}
	/* Windows start at 5.0, 6.0, 7.0 s (t ends at 7.5 s): 3 lines each. */
	CHECK_INT("three lines per window", (int)written, 9);
	CHECK_INT("a summary for each window that left lines out", (int)k.summaries, 2);
	CHECK_INT("one pending", (int)l.pending, 1);
	CHECK_INT("another cause is written", ws_node_loglimit_admit(&l, b, 2, b, t, out, &k), 1);
	ws_node_loglimit_flush(&l, t, out, &k);
	CHECK_INT("no summary before its window passed", (int)k.summaries, 2);
	ws_node_loglimit_flush(&l, t + S, out, &k);
	CHECK_INT("then one", (int)k.summaries, 3);
	printf("  %s\n", k.last);
	CHECK("naming the count and the last", strstr(k.last, "... 1997 more like this in ") &&
						      strstr(k.last, ": cause a 9999"));
	CHECK_INT("nothing pending", (int)l.pending, 0);
}

/* More causes than groups share the last group: still bounded. */
static void test_many_causes(void)
{
	static ws_node_loglimit l;
	static char fmts[40][8];
	sink k = {0};
	unsigned written = 0;
	for (int r = 0; r < 100; r++)
		for (int i = 0; i < 40; i++)
			written += (unsigned)ws_node_loglimit_admit(&l, fmts[i], 2, "x", S, out, &k);
	CHECK("bounded", written <= WS_NODE_LOG_KEYS * WS_NODE_LOG_PER_WINDOW);
}

int main(void)
{
	RUN(test_bound);
	RUN(test_many_causes);
	TEST_MAIN_END();
}
