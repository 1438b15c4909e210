/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of the IQ benchmark: statistics of fixed trial times (first 5 dropped, mean,
 * median, Mb/s, CPU per MB), the exact table and JSON text, config refusals, and one short
 * run against the in-process node emulator, also through the public ws_iq_bench. */
#include "harness.h"

#include "iq/host/bench.h"
#include "iq/node/node.h"
#include "util/err.h"

#include <pthread.h>
#include <stdlib.h>

static void test_stats(void)
{
	/* 8 trials: the first 5 (huge) are dropped; kept 1, 2, 3 ms; CPU 0.5 ms each. */
	int64_t ns[8] = {900000000, 900000000, 900000000, 900000000, 900000000,
			 3000000, 1000000, 2000000};
	int64_t cpu[8] = {9, 9, 9, 9, 9, 500000, 500000, 500000};
	ws_iq_bench_stat s;
	ws_iq_bench_stat_of(&s, ns, cpu, 8, 32768, 1);
	CHECK_DBL("avg ms", s.avg_ms, 2.0, 1e-12);
	CHECK_DBL("median ms", s.median_ms, 2.0, 1e-12);
	CHECK_DBL("min ms", s.min_ms, 1.0, 1e-12);
	CHECK_DBL("max ms", s.max_ms, 3.0, 1e-12);
	/* 32768 * 32 bits / 2 ms = 524.288 Mb/s */
	CHECK_DBL("avg mbps", s.avg_mbps, 524.288, 1e-9);
	CHECK_DBL("max mbps", s.max_mbps, 1048.576, 1e-9);
	CHECK_DBL("min mbps", s.min_mbps, 349.525333333, 1e-6);
	/* 1.5 ms of CPU for 3 * 131072 bytes = 0.393216 MB -> 3814.697 us/MB */
	CHECK_DBL("cpu", s.cpu_us_per_mb, 3814.697265625, 1e-6);
	/* Two buffers: time per buffer halves, Mb/s counts both. */
	ws_iq_bench_stat_of(&s, ns, cpu, 8, 32768, 2);
	CHECK_DBL("avg ms 2", s.avg_ms, 1.0, 1e-12);
	CHECK_DBL("avg mbps 2", s.avg_mbps, 1048.576, 1e-9);
}

static ws_iq_bench_row sample_row(void)
{
	ws_iq_bench_row r = {.samples = 32768, .trials = 1024, .kept = 1019, .buffers = 1};
	r.write = (ws_iq_bench_stat){.avg_ms = 2.33, .avg_mbps = 450.28, .min_ms = 2.0,
				     .median_ms = 2.3, .max_ms = 3.0, .min_mbps = 349.5,
				     .median_mbps = 455.9, .max_mbps = 524.3, .cpu_us_per_mb = 12.5};
	r.read = (ws_iq_bench_stat){.avg_ms = 1.86, .avg_mbps = 564.2};
	return r;
}

static void test_table(void)
{
	ws_iq_info in = {.serial = 6, .wl_major = 7, .wl_minor = 5, .wl_rev = 0, .packet_size = 8962};
	ws_iq_bench_head h;
	ws_iq_bench_head_from(&h, &in, 0);
	CHECK_STR("wlver", h.wlver, "7.5.0");
	CHECK_STR("serial", h.serial, "W3-a-00006");
	ws_iq_bench_row r = sample_row();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_iq_bench_table(f, &h, &r, 1);
	fclose(f);
	const char *want =
		"| ID | WLVER | Serial #   | Transport     | Pkt Size (B) | Num Samples | TX/RX Time (ms) | "
		"Num Trials | Avg Write IQ Time (ms) | Avg Transfer Speed (Mbps) | Avg Read IQ Time "
		"(ms) | Avg Transfer Speed (Mbps) |\n";
	CHECK("header", strncmp(buf, want, strlen(want)) == 0);
	const char *row = strrchr(buf, '\n');
	while (row > buf && row[-1] != '\n')
		row--;
	CHECK_STR("row", row,
		  "|  0 | 7.5.0 | W3-a-00006 | warpspeed UDP |         8962 |       32768 |     "
		  "       0.82 |       1024 |                   2.33 |                    450.28 |  "
		  "                1.86 |                    564.20 |\n");
	CHECK("serial header padded", strstr(buf, "| Serial #   | Transport     |") != NULL);
	free(buf);
}

static void test_json(void)
{
	ws_iq_info in = {.serial = 6, .wl_major = 7, .wl_minor = 7, .wl_rev = 1, .packet_size = 8962};
	ws_iq_bench_head h;
	ws_iq_bench_head_from(&h, &in, 3);
	ws_iq_bench_row r = sample_row();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_iq_bench_json(f, &h, &r, 1, NULL);
	fclose(f);
	CHECK("id", strstr(buf, "{\"id\": 3, \"wlver\": \"7.7.1\", \"serial\": \"W3-a-00006\", "
				"\"transport\": \"warpspeed UDP\", \"pkt_size\": 8962, \"samples\": "
				"32768, \"txrx_time_ms\": 0.8192, \"trials\": 1024, \"kept\": 1019") != NULL);
	CHECK("write", strstr(buf, "\"write\": {\"avg_ms\": 2.3300, \"avg_mbps\": 450.28, \"min_ms\": "
				   "2.0000, \"median_ms\": 2.3000, \"max_ms\": 3.0000, \"min_mbps\": "
				   "349.50, \"median_mbps\": 455.90, \"max_mbps\": 524.30, "
				   "\"cpu_us_per_mb\": 12.50},") != NULL);
	CHECK("ends", len > 4 && strcmp(buf + len - 4, "]\n}\n") == 0);
	free(buf);
}

static void *node_main(void *a)
{
	ws_node_run(a, NULL);
	return NULL;
}

static void test_run(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.bind_addr = "127.0.0.1";
	c.port = 0;
	c.bcast_port = -1;
	c.tx_samples = c.rx_samples = 1u << 17;
	ws_node *node;
	ws_err e;
	CHECK("node", ws_node_create(&c, &node, &e) == 0);
	ws_node_info ni;
	ws_node_get_info(node, &ni);
	pthread_t t;
	pthread_create(&t, NULL, node_main, node);
	ws_iq_config hc;
	ws_iq_config_default(&hc);
	hc.addr = "127.0.0.1";
	hc.port = ni.port;
	ws_iq_node *h;
	ws_iq_error er;
	CHECK("open", ws_iq_open(&hc, &h, &er) == 0);
	uint32_t sizes[2] = {1000, 1u << 17};
	ws_iq_bench_row rows[2];
	ws_iq_bench_trial tr[2 * 2 * 7];
	memset(tr, 0xff, sizeof tr);
	ws_iq_bench_config bc = {
		.trials = 7, .sizes = sizes, .nsizes = 2, .rf_mask = 3, .seed = 1, .trial_out = tr};
	CHECK_INT("run", ws_iq_bench_run(h, &bc, rows, &e), 0);
	int filled = 1;
	for (int i = 0; i < 28; i++)
		filled &= tr[i].ns > 0 && tr[i].nivcsw >= 0 && tr[i].wait_ns >= 0 &&
			  tr[i].disturbed == ws_iq_bench_disturbed(tr[i].nivcsw, tr[i].wait_ns);
	CHECK("every trial filled and labelled", filled);
	/* The trials are the times the figures come from: size 2's reads are tr[21..28). */
	int64_t lo = tr[26].ns < tr[27].ns ? tr[26].ns : tr[27].ns;
	CHECK_DBL("read min from trials", rows[1].read.min_ms, (double)lo / 1e6 / 2, 1e-9);
	CHECK_INT("kept", rows[1].kept, 2);
	CHECK_INT("buffers", rows[1].buffers, 2);
	CHECK("write speed", rows[1].write.avg_mbps > 0 && rows[1].write.min_ms <= rows[1].write.max_ms);
	CHECK("read speed", rows[1].read.median_mbps > 0);
	bc.trials = 5;
	CHECK_INT("5 trials", ws_iq_bench_run(h, &bc, rows, &e), -WS_E_INVAL);
	CHECK_STR("5 trials msg", e.msg, "bench: 5 trials: need 6..100000 (the first 5 are dropped, "
		  "as wl_benchmark does)");
	bc.trials = 6;
	sizes[1] = (1u << 17) + 1;
	CHECK_INT("too big", ws_iq_bench_run(h, &bc, rows, &e), -WS_E_INVAL);
	CHECK_STR("too big msg", e.msg, "bench: 131073 samples: the node's buffers hold 1..131072 "
		  "(TX 131072, RX 131072)");
	/* The public entry point: one size, ws_iq_error instead of ws_err. */
	ws_iq_bench_row row;
	CHECK_INT("ws_iq_bench", ws_iq_bench(h, WS_IQ_RF_B, 1000, 6, WS_IQ_FMT_CF32, &row, &er), 0);
	CHECK_INT("ws_iq_bench ok code", er.code, 0);
	CHECK_STR("ws_iq_bench ok msg", er.msg, "");
	CHECK_INT("ws_iq_bench samples", row.samples, 1000);
	CHECK_INT("ws_iq_bench kept", row.kept, 1);
	CHECK_INT("ws_iq_bench buffers", row.buffers, 1);
	CHECK("ws_iq_bench speeds", row.write.avg_mbps > 0 && row.read.avg_mbps > 0);
	CHECK_INT("ws_iq_bench 5 trials", ws_iq_bench(h, 1, 1000, 5, WS_IQ_FMT_CI16, &row, &er),
		  -WS_E_INVAL);
	CHECK_INT("ws_iq_bench 5 trials code", er.code, -WS_E_INVAL);
	CHECK_STR("ws_iq_bench 5 trials msg", er.msg, "bench: 5 trials: need 6..100000 (the first "
		  "5 are dropped, as wl_benchmark does)");
	CHECK_INT("ws_iq_bench no RF_C", ws_iq_bench(h, WS_IQ_RF_C, 1000, 6, WS_IQ_FMT_CI16, &row,
						     NULL), -WS_E_INVAL);
	ws_iq_close(h);
	ws_node_stop(node);
	pthread_join(t, NULL);
	ws_node_destroy(node);
}

/* Labels, the summary, the note and the JSON of fixed trials. */
static void test_disturb(void)
{
	CHECK_INT("1 ms is not", ws_iq_bench_disturbed(9, 1000000), 0);
	CHECK_INT("over 1 ms is", ws_iq_bench_disturbed(0, 1000001), 1);
	CHECK_INT("unknown wait, no switch", ws_iq_bench_disturbed(0, -1), 0);
	CHECK_INT("unknown wait, a switch", ws_iq_bench_disturbed(1, -1), 1);
	ws_iq_bench_trial t[12] = {0};
	for (int i = 0; i < 12; i++)
		t[i] = (ws_iq_bench_trial){.ns = 1000000 * (i + 1), .nivcsw = i % 2, .wait_ns = 1000};
	t[3] = (ws_iq_bench_trial){
		.ns = 9000000, .nivcsw = 3, .wait_ns = 4100000, .disturbed = 1, .retries = 2};
	t[11] = (ws_iq_bench_trial){.ns = 8000000,
				    .nivcsw = -1,
				    .wait_ns = -1,
				    .disturbed = 1,
				    .retries = 5,
				    .win_used = 1,
				    .win_start = 8,
				    .win_least = 8,
				    .win_most = 44,
				    .win_end = 30,
				    .win_cuts = 2};
	ws_iq_bench_disturb d;
	ws_iq_bench_disturb_of(&d, t, 12);
	CHECK_INT("trials", d.trials, 12);
	CHECK_INT("disturbed", d.disturbed, 2);
	CHECK_INT("max wait", d.max_wait_ns, 4100000);
	CHECK_INT("switches", d.nivcsw, 4 + 3); /* 1 at i = 1, 5, 7, 9; t[3] 3; t[11] unknown */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_iq_bench_disturb_note(f, &d);
	fclose(f);
	CHECK_STR("note", buf,
		  "disturbed trials: 2 of 12 (off CPU up to 4.10 ms, involuntary context "
		  "switches: 7; disturbed = a transferring thread waited over 1 ms for a CPU)\n");
	free(buf);
	ws_iq_info in = {.serial = 6, .wl_major = 7, .wl_minor = 7, .wl_rev = 1, .packet_size = 8962};
	ws_iq_bench_head h;
	ws_iq_bench_head_from(&h, &in, 3);
	ws_iq_bench_row r = sample_row();
	r.trials = 6;
	r.kept = 1;
	f = open_memstream(&buf, &len);
	ws_iq_bench_json(f, &h, &r, 1, t);
	fclose(f);
	CHECK("trial 4 of write", strstr(buf, "{\"trial\": 4, \"kept\": false, \"ms\": 9.0000, "
					      "\"nivcsw\": 3, \"off_cpu_ms\": 4.1000, "
					      "\"disturbed\": true, \"resends\": 2, "
					      "\"window\": null}") != NULL);
	CHECK("kept read trial unknown", strstr(buf, "{\"trial\": 6, \"kept\": true, \"ms\": "
						     "8.0000, \"nivcsw\": null, \"off_cpu_ms\": "
						     "null, \"disturbed\": true, \"rerequests\": "
						     "5, \"window\": {\"start\": 8, \"least\": 8, "
						     "\"most\": 44, \"end\": 30, \"cuts\": 2}}]},\n") !=
						     NULL);
	CHECK("summary", strstr(buf, "\"disturbed\": {\"trials\": 12, \"disturbed\": 2, "
				     "\"max_off_cpu_ms\": 4.1000, \"nivcsw\": 7, "
				     "\"threshold_ms\": 1.000}\n    }\n") != NULL);
	free(buf);
}

int main(void)
{
	RUN(test_stats);
	RUN(test_disturb);
	RUN(test_table);
	RUN(test_json);
	RUN(test_run);
	TEST_MAIN_END();
}
