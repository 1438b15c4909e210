/* SPDX-License-Identifier: BSD-2-Clause */
/* test_node_mem: the node's copy-on-write chunk memory against a flat reference model.
 *
 * The model is what the node did before chunks: flat TX and RX arrays, a trigger copies
 * TX [0, L) into RX. Random writes at random offsets and sizes (many across chunk edges,
 * many into chunks RX still shares), random triggers with L at and off chunk edges, on
 * buffer sizes that are not whole chunks, must read back bit-exactly. Then the costs: a
 * write at the very end of TX plus a trigger maps a handful of chunks, and a trigger after
 * a 2^24-sample write takes no longer than one after a tiny write (no O(samples) copy).
 * And the budget: one sample per chunk, triggers and rewrites (issue 27) never map more
 * than max_bytes, refuse what is beyond, and ws_node_mem_need fits a full board. */
#include "harness.h"

#include "iq/node/node.h"
#include "iq/node/node_mem.h"
#include "util/bytes.h"
#include "util/clock.h"

#include <stdlib.h>

#define TXS 300007u /* not a whole number of chunks */
#define RXS 200003u

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

typedef struct model {
	uint32_t *tx[2], *rx[2], extent[2];
} model;

static int check_all(ws_node_mem *m, const model *r, const char *what)
{
	static uint8_t buf[4 * TXS];
	for (int rf = 0; rf < 2; rf++) {
		for (int tx = 0; tx < 2; tx++) {
			uint32_t n = tx ? TXS : RXS;
			const uint32_t *want = tx ? r->tx[rf] : r->rx[rf];
			if (ws_node_mem_read(m, tx, rf, 0, n, buf) < 0)
				return 0;
			for (uint32_t i = 0; i < n; i++) {
				if (ws_get_be32(buf + 4 * i) == want[i])
					continue;
				printf("  %s: %s rf %d sample %u is %08x, want %08x\n", what,
				       tx ? "TX" : "RX", rf, i, ws_get_be32(buf + 4 * i), want[i]);
				return 0;
			}
		}
	}
	return 1;
}

static void test_cow_model(void)
{
	ws_node_mem m;
	model r;
	CHECK_INT("init", ws_node_mem_init(&m, 2, TXS, RXS, 0), 0);
	for (int rf = 0; rf < 2; rf++) {
		r.tx[rf] = calloc(TXS, 4);
		r.rx[rf] = malloc(RXS * 4);
		r.extent[rf] = 0;
		for (uint32_t i = 0; i < RXS; i++)
			r.rx[rf][i] = ws_node_test_sample(rf, i);
	}
	CHECK("fresh buffers read as zero TX and the test signal", check_all(&m, &r, "fresh"));
	CHECK_U64("nothing mapped but the signal", m.blocks, 2 * WS_NODE_SIGNAL_BLOCKS);
	static uint8_t src[4 * 70000];
	int ok = 1;
	for (int op = 0; op < 400 && ok; op++) {
		uint32_t kind = rnd() % 4;
		if (kind < 3) {
			/* Write: sizes up to one chunk and more, often right at a chunk edge. */
			uint32_t count = 1 + rnd() % 70000;
			uint32_t start = rnd() % 3 == 0 ? (rnd() % 19) * WS_NODE_CHUNK_SAMPLES - count / 2
							: rnd() % TXS;
			if (start >= TXS)
				start = rnd() % TXS;
			if (count > TXS - start)
				count = TXS - start;
			unsigned mask = 1 + rnd() % 3;
			for (uint32_t i = 0; i < count; i++)
				ws_put_be32(src + 4 * i, rnd() ^ (uint32_t)op << 24);
			ok &= ws_node_mem_write(&m, mask, start, src, count) == 0;
			for (int rf = 0; rf < 2; rf++) {
				if (!(mask >> rf & 1))
					continue;
				for (uint32_t i = 0; i < count; i++)
					r.tx[rf][start + i] = ws_get_be32(src + 4 * i);
				if (start + count > r.extent[rf])
					r.extent[rf] = start + count;
			}
		} else {
			/* Trigger with L at a chunk edge, just off one, or anywhere. */
			uint32_t pick = rnd() % 3;
			uint32_t len = pick == 0 ? (1 + rnd() % 13) * WS_NODE_CHUNK_SAMPLES
				       : pick == 1 ? (1 + rnd() % 13) * WS_NODE_CHUNK_SAMPLES + 1
						   : 1 + rnd() % RXS;
			if (len > RXS)
				len = RXS;
			int rf = (int)(rnd() % 2);
			ok &= ws_node_mem_capture(&m, rf, len) == 0;
			memcpy(r.rx[rf], r.tx[rf], (size_t)len * 4);
		}
		if (op % 25 == 24 || op < 10)
			ok &= check_all(&m, &r, "after an operation");
	}
	CHECK("400 random writes and triggers read back bit-exactly", ok);
	CHECK("final state bit-exact", check_all(&m, &r, "final"));
	for (int rf = 0; rf < 2; rf++)
		CHECK_U64("extent", m.tx_extent[rf], r.extent[rf]);
	/* At most every TX and RX chunk, each a private block, plus zero and signals. */
	CHECK("blocks bounded by the chunks",
	      m.blocks <= 2 * (m.tx_chunks + m.rx_chunks) + 1 + 2 * WS_NODE_SIGNAL_BLOCKS);
	ws_node_mem_free(&m);
	CHECK_U64("free unmaps everything", m.blocks, 0);
	for (int rf = 0; rf < 2; rf++) {
		free(r.tx[rf]);
		free(r.rx[rf]);
	}
}

/* The RX chunk shares the TX block after a trigger; a write into TX copies it first, so
 * RX keeps what was captured, and a later trigger sees the new TX. */
static void test_cow_exact(void)
{
	ws_node_mem m;
	uint8_t w[16], got[16];
	ws_node_mem_init(&m, 2, 4 * WS_NODE_CHUNK_SAMPLES, 4 * WS_NODE_CHUNK_SAMPLES, 0);
	for (int i = 0; i < 4; i++)
		ws_put_be32(w + 4 * i, 0xA0000000u + (uint32_t)i);
	ws_node_mem_write(&m, 1, 100, w, 4);
	CHECK_INT("capture 2 chunks", ws_node_mem_capture(&m, 0, 2 * WS_NODE_CHUNK_SAMPLES), 0);
	/* tx chunk 0 (shared with rx), zero block; no copy made */
	CHECK_U64("blocks after capture: one TX chunk, the zero chunk", m.blocks, 2);
	for (int i = 0; i < 4; i++)
		ws_put_be32(w + 4 * i, 0xB0000000u + (uint32_t)i);
	ws_node_mem_write(&m, 1, 102, w, 4);
	CHECK_U64("write into a shared chunk copies it", m.blocks, 3);
	ws_node_mem_read(&m, 0, 0, 100, 4, got);
	CHECK_U64("RX keeps the capture", ws_get_be32(got + 8), 0xA0000002u);
	ws_node_mem_read(&m, 1, 0, 100, 4, got);
	CHECK_U64("TX has the new word", ws_get_be32(got + 8), 0xB0000000u);
	ws_node_mem_read(&m, 0, 0, 2 * WS_NODE_CHUNK_SAMPLES, 4, got);
	CHECK_U64("RX beyond L keeps the signal", ws_get_be32(got),
		  ws_node_test_sample(0, 2 * WS_NODE_CHUNK_SAMPLES));
	ws_node_mem_read(&m, 0, 0, WS_NODE_CHUNK_SAMPLES + 5, 4, got);
	CHECK_U64("RX of a never-written TX chunk is 0", ws_get_be32(got), 0);
	ws_node_mem_capture(&m, 0, 2 * WS_NODE_CHUNK_SAMPLES);
	ws_node_mem_read(&m, 0, 0, 100, 4, got);
	CHECK_U64("second capture sees the new TX", ws_get_be32(got + 12), 0xB0000001u);
	CHECK_U64("the old block went away (left: TX chunk 0, zero, RF_A signal)", m.blocks, 3);
	ws_node_mem_free(&m);
}

/* Issue 13 item 7: 66 bytes at the end of TX and one trigger used to commit 1.8 GiB. */
static void test_end_write_is_cheap(void)
{
	ws_node_mem m;
	uint32_t txs = WS_NODE_DEFAULT_TX_SAMPLES, rxs = WS_NODE_DEFAULT_RX_SAMPLES;
	uint8_t w[32] = {1, 2, 3, 4};
	ws_node_mem_init(&m, 2, txs, rxs, 0);
	ws_node_mem_write(&m, 3, txs - 8, w, 8);
	int64_t t0 = ws_clock_ns();
	ws_node_mem_capture(&m, 0, txs);
	ws_node_mem_capture(&m, 1, txs);
	int64_t dt = ws_clock_ns() - t0;
	printf("  capture of 2 x 112 Mi samples after a write at the end: %.3f ms, %llu blocks\n",
	       dt / 1e6, (unsigned long long)m.blocks);
	CHECK_U64("two TX chunks and the zero chunk", m.blocks, 3);
	CHECK("two 112M-sample triggers under 20 ms", dt < 20 * WS_NS_PER_MS);
	uint8_t got[32];
	ws_node_mem_read(&m, 0, 1, txs - 8, 8, got);
	CHECK_MEM("RX end = TX end", got, w, 32);
	ws_node_mem_free(&m);
}

/* Issue 17 item 1c: after one 2^24 write every trigger copied 64 MiB. */
static void test_trigger_cost_flat(void)
{
	ws_node_mem m;
	uint32_t big = 1u << 24;
	uint8_t *src = calloc(big, 4);
	ws_node_mem_init(&m, 2, WS_NODE_DEFAULT_TX_SAMPLES, WS_NODE_DEFAULT_RX_SAMPLES, 0);
	ws_node_mem_write(&m, 1, 0, src, 1u << 15);
	int64_t t0 = ws_clock_ns();
	for (int i = 0; i < 10; i++)
		ws_node_mem_capture(&m, 0, 1u << 15);
	int64_t small = ws_clock_ns() - t0;
	ws_node_mem_write(&m, 1, 0, src, big);
	t0 = ws_clock_ns();
	for (int i = 0; i < 10; i++) {
		ws_node_mem_write(&m, 1, 0, src, 1u << 15); /* the next 2^15 round trip */
		ws_node_mem_capture(&m, 0, big);
	}
	int64_t after = ws_clock_ns() - t0;
	printf("  10 triggers: %.3f ms after a 2^15 write, %.3f ms (with a 2^15 rewrite each) "
	       "after a 2^24 write\n", small / 1e6, after / 1e6);
	/* A copy of 64 MiB takes > 5 ms even on fast memory; 10 of them > 50 ms. */
	CHECK("10 write+trigger rounds after a 2^24 write take under 20 ms", after < 20 * WS_NS_PER_MS);
	ws_node_mem_free(&m);
	free(src);
}

/* Writes one sample into every TX chunk of both interfaces; returns the writes refused. */
static unsigned sparse_round(ws_node_mem *m, uint32_t txs)
{
	uint8_t w[4] = {1, 2, 3, 4};
	unsigned refused = 0;
	for (uint32_t pos = 0; pos < txs; pos += WS_NODE_CHUNK_SAMPLES)
		refused += ws_node_mem_write(m, 3, pos, w, 1) < 0;
	return refused;
}

static void test_budget(void)
{
	enum { TX = 512 * WS_NODE_CHUNK_SAMPLES, RX = 512 * WS_NODE_CHUNK_SAMPLES };
	ws_node_mem m;
	uint64_t max = ws_node_mem_least(2, TX, RX) + 36 * WS_NODE_CHUNK_BYTES; /* 100 chunks */
	CHECK_INT("init", ws_node_mem_init(&m, 2, TX, RX, max), 0);
	unsigned worst = 0;
	for (int round = 0; round < 3; round++) {
		CHECK("a round is refused in part", sparse_round(&m, TX) > 0);
		for (int rf = 0; rf < 2; rf++)
			ws_node_mem_capture(&m, rf, TX);
		uint64_t mapped = ws_node_mem_mapped(&m);
		if (mapped > max)
			worst++;
	}
	CHECK_INT("never more than the budget mapped", (int)worst, 0);
	CHECK("refusals counted", m.refused > 0);
	CHECK_U64("the system refused nothing", m.alloc_failures, 0);
	ws_node_mem_free(&m);
	/* The default fits the worst case of a full board: every TX chunk written, captured,
	 * rewritten (RX and TX all distinct), with the test signal read first. */
	enum { T2 = 40 * WS_NODE_CHUNK_SAMPLES + 5, R2 = 50 * WS_NODE_CHUNK_SAMPLES + 7 };
	static uint8_t big[4 * WS_NODE_CHUNK_SAMPLES];
	const uint8_t *p;
	CHECK_INT("init", ws_node_mem_init(&m, 2, T2, R2, ws_node_mem_need(2, T2, R2)), 0);
	for (int rf = 0; rf < 2; rf++)
		ws_node_mem_rx_span(&m, rf, 0, 1, &p);
	int ok = 1;
	for (int round = 0; round < 2; round++) {
		for (uint32_t pos = 0; pos < T2; pos += WS_NODE_CHUNK_SAMPLES) {
			uint32_t n = T2 - pos < WS_NODE_CHUNK_SAMPLES ? T2 - pos : WS_NODE_CHUNK_SAMPLES;
			ok &= ws_node_mem_write(&m, 3, pos, big, n) == 0;
		}
		for (int rf = 0; rf < 2; rf++)
			ok &= ws_node_mem_capture(&m, rf, T2) == 0;
	}
	CHECK("a full board fits the default budget", ok && m.refused == 0);
	ws_node_mem_free(&m);
}

int main(void)
{
	RUN(test_cow_model);
	RUN(test_cow_exact);
	RUN(test_end_write_is_cheap);
	RUN(test_trigger_cost_flat);
	RUN(test_budget);
	TEST_MAIN_END();
}
