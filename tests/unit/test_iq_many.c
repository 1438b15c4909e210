/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the many-node calls (ws_iq_read_many, ws_iq_write_many) and the many-node
 * benchmark: four node emulators on loopback, different data written to each at once,
 * triggered, read back at once and compared bit for bit; one node refusing its range
 * fails alone with a message naming it; bad arguments are refused; the benchmark gives one
 * row per node and an aggregate, and its table and JSON text are exact. */
#include "harness.h"

#include <warpspeed/iq.h>

#include "iq/host/bench.h"
#include "iq/node/node_thread.h"
#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NN 4
#define NS (1u << 17)

typedef struct four {
	ws_node_thread *t[NN];
	ws_iq_node *h[NN];
	int port[NN];
} four;

static int four_up(four *f)
{
	memset(f, 0, sizeof *f);
	for (int k = 0; k < NN; k++) {
		ws_node_config c;
		ws_err e;
		ws_node_builtin_config(&c, 2, 8964);
		c.tx_samples = c.rx_samples = NS;
		c.serial = 100 + (uint32_t)k;
		if (ws_node_thread_start(&c, &f->t[k], &e) < 0)
			return -1;
		ws_node_info ni;
		ws_node_get_info(ws_node_thread_node(f->t[k]), &ni);
		f->port[k] = ni.port;
		ws_iq_config hc;
		ws_iq_config_default(&hc);
		hc.addr = "127.0.0.1";
		hc.port = ni.port;
		ws_iq_error er;
		if (ws_iq_open(&hc, &f->h[k], &er) < 0)
			return -1;
	}
	return 0;
}

static void four_down(four *f)
{
	for (int k = 0; k < NN; k++) {
		ws_iq_close(f->h[k]);
		ws_node_thread_stop(f->t[k], NULL);
	}
}

static void test_roundtrip(void)
{
	four f;
	CHECK("four nodes up", four_up(&f) == 0);
	float *w[NN][2], *r[NN][2];
	ws_iq_many_item it[NN];
	for (int k = 0; k < NN; k++)
		for (int b = 0; b < 2; b++) {
			w[k][b] = malloc(8 * NS);
			r[k][b] = calloc(NS, 8);
			for (uint32_t i = 0; i < 2 * NS; i++) /* exact in cf32: int16 / 32768 */
				w[k][b][i] = (float)(int16_t)(i * 2654435761u + (uint32_t)k * 77 +
							      (uint32_t)b * 5) / 32768.0f;
		}
	for (int k = 0; k < NN; k++)
		it[k] = (ws_iq_many_item){.node = f.h[k], .rf_mask = WS_IQ_RF_A | WS_IQ_RF_B,
					  .count = NS, .src = (const void *const *)w[k]};
	ws_iq_error e;
	CHECK_INT("write many", ws_iq_write_many(it, NN, WS_IQ_FMT_CF32, &e), 0);
	CHECK_STR("write many clear", e.msg, "");
	for (int k = 0; k < NN; k++) {
		CHECK_INT("item ok", it[k].result, 0);
		CHECK("item timed", it[k].elapsed_ns > 0 && it[k].cpu_ns >= 0);
		CHECK("trigger", ws_iq_trigger(f.h[k], 1, &e) >= 0);
	}
	for (int k = 0; k < NN; k++)
		it[k] = (ws_iq_many_item){.node = f.h[k], .rf_mask = WS_IQ_RF_A | WS_IQ_RF_B,
					  .count = NS, .dst = (void *const *)r[k]};
	CHECK_INT("read many", ws_iq_read_many(it, NN, WS_IQ_FMT_CF32, &e), 0);
	int same = 0;
	for (int k = 0; k < NN; k++)
		for (int b = 0; b < 2; b++)
			same += memcmp(w[k][b], r[k][b], 8 * NS) == 0;
	CHECK_INT("bit-exact buffers of 4 nodes", same, 2 * NN);
	/* One node asked beyond its buffer fails alone; the others still read. */
	it[2].count = NS + 1;
	int rc = ws_iq_read_many(it, NN, WS_IQ_FMT_CF32, &e);
	CHECK_INT("one fails", rc, -WS_E_INVAL);
	CHECK_INT("others ok", it[0].result | it[1].result | it[3].result, 0);
	char want[160];
	snprintf(want, sizeof want, "ws_iq_read_many: 1 of 4 nodes failed; node 3 (127.0.0.1:%d): ",
		 f.port[2]);
	CHECK("names the node", strncmp(e.msg, want, strlen(want)) == 0);
	CHECK("says why", strstr(e.msg, it[2].err.msg) != NULL && it[2].err.msg[0]);
	it[1].node = NULL;
	CHECK_INT("no handle", ws_iq_read_many(it, NN, WS_IQ_FMT_CF32, &e), -EINVAL);
	CHECK_STR("no handle msg", e.msg, "ws_iq_read_many: item 1 has no node handle or no dst");
	CHECK_INT("none", ws_iq_write_many(it, 0, WS_IQ_FMT_CF32, &e), -EINVAL);
	CHECK_STR("none msg", e.msg, "ws_iq_write_many: 0 nodes: need 1..64");
	for (int k = 0; k < NN; k++)
		for (int b = 0; b < 2; b++) {
			free(w[k][b]);
			free(r[k][b]);
		}
	four_down(&f);
}

static void test_bench_many(void)
{
	four f;
	CHECK("four nodes up", four_up(&f) == 0);
	uint32_t sizes[2] = {1000, NS};
	ws_iq_bench_row rows[2 * NN], agg[2];
	ws_iq_bench_config bc = {.trials = 7, .sizes = sizes, .nsizes = 2, .rf_mask = 1,
				 .seed = 3, .fmt = WS_IQ_FMT_CF32};
	ws_err e;
	CHECK_INT("run many", ws_iq_bench_run_many(f.h, NN, &bc, rows, agg, &e), 0);
	CHECK_INT("row size-major", (int)rows[NN].samples, (int)NS);
	CHECK_INT("agg nodes", agg[1].nodes, NN);
	CHECK_INT("row nodes", rows[5].nodes, 1);
	CHECK("agg speed", agg[1].read.avg_mbps > 0 && agg[1].write.avg_mbps > 0);
	/* The aggregate's wall time is at least each node's own. */
	CHECK("agg slowest", agg[1].read.max_ms * 1.0001 >= rows[NN].read.min_ms);
	bc.fmt = (ws_iq_format)9;
	CHECK_INT("bad format", ws_iq_bench_run_many(f.h, NN, &bc, rows, agg, &e), -WS_E_INVAL);
	CHECK_STR("bad format msg", e.msg, "bench: sample format 9: need raw, ci16 or cf32");
	four_down(&f);
}

static void test_render_many(void)
{
	ws_iq_info in = {.serial = 6, .wl_major = 7, .wl_minor = 7, .wl_rev = 1, .packet_size = 8962};
	ws_iq_bench_head h[2];
	ws_iq_bench_head_from(&h[0], &in, 0);
	in.serial = 7;
	ws_iq_bench_head_from(&h[1], &in, 0);
	ws_iq_format fmt;
	CHECK_INT("parse cf32", ws_iq_bench_format_parse("cf32", &fmt), 0);
	CHECK_INT("parse raw", ws_iq_bench_format_parse("raw", &fmt) == 0 && fmt == WS_IQ_FMT_BE32, 1);
	CHECK_INT("parse bad", ws_iq_bench_format_parse("sigmf", &fmt), -WS_E_INVAL);
	ws_iq_bench_head_format(&h[0], WS_IQ_FMT_CF32);
	ws_iq_bench_head_format(&h[1], WS_IQ_FMT_CF32);
	ws_iq_bench_row rows[2], agg = {.samples = 4194304, .trials = 10, .kept = 5, .buffers = 1,
					.nodes = 2};
	for (int k = 0; k < 2; k++) {
		rows[k] = (ws_iq_bench_row){.samples = 4194304, .trials = 10, .kept = 5,
					    .buffers = 1, .nodes = 1};
		rows[k].write = (ws_iq_bench_stat){.avg_ms = 135.0 + k, .avg_mbps = 994.2 - k};
		rows[k].read = (ws_iq_bench_stat){.avg_ms = 134.5, .avg_mbps = 997.9};
	}
	agg.write = (ws_iq_bench_stat){.avg_ms = 136.5, .avg_mbps = 1966.4};
	agg.read = (ws_iq_bench_stat){.avg_ms = 135.0, .avg_mbps = 1988.2, .median_mbps = 1990};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_iq_bench_table_many(f, h, 2, rows, &agg, 1);
	fclose(f);
	const char *last = buf + len - 1;
	while (last > buf && last[-1] != '\n')
		last--;
	CHECK_STR("aggregate row", last,
		  "| all |     - |    2 nodes |          aggregate |         8962 |     4194304 |     "
		  "     104.86 |         10 |                 136.50 |                   1966.40 |   "
		  "             135.00 |                   1988.20 |\n");
	CHECK("node row", strstr(buf, "|   0 | 7.7.1 | W3-a-00007 | warpspeed UDP cf32 |") != NULL);
	free(buf);
	f = open_memstream(&buf, &len);
	ws_iq_bench_json_many(f, h, 2, rows, &agg, 1, NULL);
	fclose(f);
	CHECK("row format and node", strstr(buf, "\"buffers\": 1, \"format\": \"cf32\", \"node\": 2, \"junk\": 0, \"duplicates\": 0,\n")
				      != NULL);
	CHECK("aggregate", strstr(buf, "  \"aggregate\": {\n    \"nodes\": 2, \"samples\": 4194304, "
				  "\"format\": \"cf32\", \"trials\": 10, \"kept\": 5, \"buffers\": 1,\n"
				  "    \"write\": {\"avg_ms\": 136.5000, \"avg_mbps\": 1966.40,") != NULL);
	CHECK("aggregate read", strstr(buf, "    \"read\": {\"avg_ms\": 135.0000, \"avg_mbps\": "
				       "1988.20, \"min_ms\": 0.0000, \"median_ms\": 0.0000, \"max_ms\": "
				       "0.0000, \"min_mbps\": 0.00, \"median_mbps\": 1990.00,") != NULL);
	CHECK("by size", strstr(buf, "    \"by_size\": [\n      {\n        \"nodes\": 2,") != NULL);
	CHECK("ends", len > 8 && strcmp(buf + len - 8, "]\n  }\n}\n") == 0);
	free(buf);
}

/* write_rate_bps paces Write IQ: 2^19 samples are 235 jumbo packets in chunks of 64, 64,
 * 64 and 43, 46 ms each at 100 Mb/s for a full one (9004-byte frames). A batch goes once
 * the link has at most one batch left, so the chunks go at 0, 0, 46 and 92 ms: a paced
 * write takes at least 92 ms (unpaced on loopback: a few ms). Only a lower bound is
 * checked (a loaded machine only adds time); the data still arrives whole. */
static void test_write_rate(void)
{
	ws_node_config c;
	ws_node_thread *t;
	ws_err e;
	ws_node_builtin_config(&c, 2, 8964);
	c.tx_samples = c.rx_samples = 1u << 19;
	CHECK("node", ws_node_thread_start(&c, &t, &e) == 0);
	ws_node_info ni;
	ws_node_get_info(ws_node_thread_node(t), &ni);
	ws_iq_config hc;
	ws_iq_config_default(&hc);
	hc.addr = "127.0.0.1";
	hc.port = ni.port;
	hc.write_rate_bps = 100000000;
	ws_iq_node *h;
	ws_iq_error er;
	CHECK("open", ws_iq_open(&hc, &h, &er) == 0);
	uint32_t n = 1u << 19;
	int16_t *w = malloc(4 * (size_t)n), *r = malloc(4 * (size_t)n);
	for (uint32_t i = 0; i < 2 * n; i++)
		w[i] = (int16_t)(i * 40503u);
	const void *src[1] = {w};
	void *dst[1] = {r};
	ws_iq_many_item it = {.node = h, .rf_mask = WS_IQ_RF_A, .count = n, .src = src};
	CHECK_INT("paced write", ws_iq_write_many(&it, 1, WS_IQ_FMT_CI16, &er), 0);
	CHECK("took its time", it.elapsed_ns >= 90000000);
	CHECK("trigger", ws_iq_trigger(h, 1, &er) >= 0);
	CHECK_INT("read", ws_iq_read(h, WS_IQ_RF_A, 0, n, WS_IQ_FMT_CI16, dst, &er), 0);
	CHECK("whole", memcmp(w, r, 4 * (size_t)n) == 0);
	free(w);
	free(r);
	ws_iq_close(h);
	ws_node_thread_stop(t, NULL);
}

int main(void)
{
	RUN(test_roundtrip);
	RUN(test_write_rate);
	RUN(test_bench_many);
	RUN(test_render_many);
	TEST_MAIN_END();
}
