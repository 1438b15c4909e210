/* SPDX-License-Identifier: BSD-2-Clause */
/* gen_corpus_ctl: writes the seed frames of fuzz_ctl_frame into a directory.
 *
 * The seeds are real messages built with the codec itself (HELLO, a full TEST_REQ, a full
 * RESULT, an ERROR, an empty BYE), so that the fuzzer starts from inputs that pass the
 * header check and reach the field tables instead of having to discover the magic.
 * It is not built by make; regenerate the committed corpus with
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/gen_corpus_ctl.c \
 *      build/libwarpspeed.a -pthread -lm -o build/gen_corpus_ctl
 *   build/gen_corpus_ctl tests/fuzz/corpus_ctl */
#include "ctl/msg.h"
#include "ctl/tlv.h"
#include "model/result.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static int write_seed(const char *dir, const char *name, ws_tlv_writer *w)
{
	char path[512];
	ws_err err;
	if (ws_tlv_finish(w, &err) < 0) {
		fprintf(stderr, "gen_corpus_ctl: %s: %s\n", name, err.msg);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(w->buf, 1, w->len, f) != w->len || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus_ctl DIR\n");
		return 2;
	}
	const char *dir = argv[1];
	ws_tlv_writer w = {0};
	int bad = 0;

	ws_tlv_begin(&w, WS_MSG_HELLO);
	ws_tlv_put_u64(&w, WS_F_PROTO, 1);
	ws_tlv_put_str(&w, WS_F_SOFTWARE, "warpspeed 0.1.0");
	bad |= write_seed(dir, "hello", &w);

	ws_test_spec s;
	ws_test_spec_init(&s);
	s.type = WS_TEST_TCP_RR;
	s.end = WS_END_TRANSACTIONS;
	s.end_count = 1000;
	s.send_size = 1;
	s.recv_size = 1;
	s.nodelay = true;
	s.family = WS_FAMILY_INET6;
	s.local.sndbuf = 131072;
	s.remote.rcvbuf = 262144;
	s.local.cpu = 0;
	s.remote.measure_cpu = true;
	s.remote.data_port = 12866;
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	ws_msg_put_spec(&w, &s);
	bad |= write_seed(dir, "test_req", &w);

	ws_side_result r;
	memset(&r, 0, sizeof(r));
	r.sndbuf_set = 16384;
	r.rcvbuf_set = 131072;
	r.bytes_recv = 10733393750ULL;
	r.recv_calls = 163840;
	r.elapsed_ns = 5000000000LL;
	r.cpu_measured = true;
	r.cpu_util = 51.5;
	r.cpu_method = 'S';
	r.ncpus = 2;
	r.cpu_bound_to = -1;
	snprintf(r.hostname, sizeof(r.hostname), "node1");
	snprintf(r.boot_id, sizeof(r.boot_id), "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
	ws_tlv_begin(&w, WS_MSG_RESULT);
	ws_msg_put_side(&w, &r);
	bad |= write_seed(dir, "result", &w);

	ws_msg_put_error(&w, -WS_E_LIMIT, "the daemon is busy: 4 sessions are running");
	bad |= write_seed(dir, "error", &w);

	ws_tlv_begin(&w, WS_MSG_TEST_ACK);
	ws_tlv_put_u64(&w, WS_F_DATA_PORT, 40000);
	ws_tlv_put_bytes(&w, WS_F_COOKIE, "0123456789abcdef", WS_COOKIE_LEN);
	ws_tlv_put_f64(&w, WS_F_MAX_DURATION, 3600.0);
	bad |= write_seed(dir, "test_ack", &w);

	ws_tlv_begin(&w, WS_MSG_BYE);
	bad |= write_seed(dir, "bye", &w);

	ws_tlv_writer_free(&w);
	return bad ? 1 : 0;
}
