/* SPDX-License-Identifier: BSD-2-Clause */
/* ws_json_sample: JSON documents of built results, for the schema test (tests/integration/
 * json.sh). A real run cannot produce every shape on demand (a latency histogram with an
 * overflow, four streams on two threads, confidence, interim samples, a NaN figure), so
 * this prints them from a result filled by hand, through the same writer the client uses.
 *
 * Usage: ws_json_sample rr|stream|lines   (rr: TCP_RR with every optional part filled;
 * stream: a UDP_STREAM with CPU NaN parts and no latency; lines: --json-lines' two
 * interval objects and the summary). */
#include "measure/confidence.h"
#include "measure/hist.h"
#include "report/json_result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void side_common(ws_side_result *s, const char *host)
{
	s->sndbuf_set = s->sndbuf_end = 16384;
	s->rcvbuf_set = s->rcvbuf_end = 131072;
	s->elapsed_ns = 1000000000;
	s->cpu_measured = true;
	s->cpu_util = 12.5;
	s->cpu_user = 2.5;
	s->cpu_system = 9.0;
	s->cpu_softirq = 1.0;
	s->cpu_method = 'S';
	s->ncpus = 2;
	s->thread_user_ns = 1000000;
	s->thread_sys_ns = 2000000;
	s->cpu_bound_to = -1;
	snprintf(s->hostname, sizeof(s->hostname), "%s", host);
}

static int rr(ws_test_result *r, ws_hist *h, ws_flow_result *fl, ws_thread_result *th)
{
	r->spec.type = WS_TEST_TCP_RR;
	r->spec.end = WS_END_TIME;
	r->spec.duration_s = 1;
	r->spec.req_size = r->spec.rsp_size = 1;
	r->spec.streams = 4;
	r->spec.local_threads = r->spec.remote_threads = 2;
	r->spec.local.cpu = r->spec.remote.cpu = -1;
	r->spec.local.measure_cpu = r->spec.remote.measure_cpu = true;
	side_common(&r->local, "a \"quoted\" host");
	side_common(&r->remote, "b\xff");
	ws_hist_init(h);
	for (uint64_t ns = 20000; ns < 60000; ns += 97)
		ws_hist_record(h, ns);
	ws_hist_record(h, 200000000000ull); /* 200 s: the overflow bucket */
	r->local.latency = h;
	r->local.transactions = r->remote.transactions = 40000;
	r->local.bytes_sent = r->local.bytes_recv = 40000;
	r->local.tcp_info_valid = true;
	r->local.tcp_mss = 65483;
	r->local.tcp_rtt_us = 30;
	for (uint32_t i = 0; i < 4; i++) {
		fl[i] = (ws_flow_result){.bytes = 10000, .calls = 10000, .elapsed_ns = 1000000000,
					 .thread = i % 2, .transactions = 10000, .lat_p50_ns = 30000,
					 .lat_p99_ns = 55000};
		if (i < 2)
			th[i] = (ws_thread_result){.user_ns = 500000, .sys_ns = 1000000, .cpu = (int32_t)i, .flows = 2};
	}
	snprintf(fl[3].why, sizeof(fl[3].why), "connection reset");
	fl[3].error = -104;
	r->local.flows = fl;
	r->local.nflows = 4;
	r->local.threads = th;
	r->local.nthreads = 2;
	return 0;
}

static void stream(ws_test_result *r)
{
	r->spec.type = WS_TEST_UDP_STREAM;
	r->spec.duration_s = 1;
	r->spec.streams = 1;
	r->spec.local.cpu = r->spec.remote.cpu = -1;
	r->spec.local.measure_cpu = true;
	side_common(&r->local, "vm");
	side_common(&r->remote, "vm");
	r->local.cpu_user = NAN; /* a figure gone wrong is null, never NaN */
	r->local.cpu_util = INFINITY;
	r->local.bytes_sent = r->remote.bytes_recv = 1000000;
	r->local.dgrams_sent = 1000;
	r->remote.dgrams_recv = 990;
	r->remote.dgrams_lost = 10;
	snprintf(r->local.io_path, sizeof(r->local.io_path), "sendmmsg");
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	static ws_test_result r;
	static ws_hist h;
	ws_flow_result fl[4];
	ws_thread_result th[2];
	memset(&r, 0, sizeof(r));
	snprintf(r.remote_host, sizeof(r.remote_host), "127.0.0.1");
	snprintf(r.remote_addr, sizeof(r.remote_addr), "127.0.0.1");
	snprintf(r.local_addr, sizeof(r.local_addr), "0.0.0.0");
	snprintf(r.peer_software, sizeof(r.peer_software), "warpspeed test");
	r.family_used = WS_FAMILY_INET;
	ws_confidence conf = {.asked = true, .max_iterations = 10, .min_iterations = 3, .level = 99,
			      .width = 5.0, .iterations = 4, .met = true, .throughput_width = 1.25,
			      .local_cpu_width = -1, .remote_cpu_width = 3.5};
	ws_json_interim iv[2] = {
		{.index = 0, .stream = -1, .start_s = 0, .end_s = 0.5, .throughput = 20000, .units = "Trans/s",
		 .transactions = 10000, .ending_wall_ns = 1764636000500000000},
		{.index = 1, .stream = -1, .start_s = 0.5, .end_s = 1.0, .throughput = 19000.5, .units = "Trans/s",
		 .transactions = 9500, .ending_wall_ns = 1764636001000000000, .final = true},
	};
	ws_report_ctx c = {.r = &r, .command_line = "warpspeed -t TCP_RR --json", .want_stats = true,
			   .local_cpu = true, .remote_cpu = true};
	int rc;
	if (!strcmp(what, "rr")) {
		rr(&r, &h, fl, th);
		c.conf = &conf;
		rc = ws_json_result_write(stdout, &c, iv, 2, false);
	} else if (!strcmp(what, "stream")) {
		stream(&r);
		c.remote_cpu = false;
		rc = ws_json_result_write(stdout, &c, NULL, 0, false);
	} else if (!strcmp(what, "lines")) {
		rr(&r, &h, fl, th);
		rc = ws_json_interval_write(stdout, &iv[0]);
		if (rc == 0)
			rc = ws_json_interval_write(stdout, &iv[1]);
		if (rc == 0)
			rc = ws_json_result_write(stdout, &c, iv, 2, true);
	} else {
		fprintf(stderr, "usage: ws_json_sample rr|stream|lines\n");
		return 2;
	}
	return rc < 0 ? 1 : 0;
}
