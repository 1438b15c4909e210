/* SPDX-License-Identifier: BSD-2-Clause */
/* test_node_attack: the node emulator's costs under hostile but valid requests (issue 13
 * item 7, issue 17 item 1c) and the warpspeed-only trigger counter query (issue 13 item 9).
 *
 * It uses only the node API that existed at 5a0d583 (ws_node_feed, the config, the
 * counters; the query's words are spelled out here), so the same file builds against that
 * commit and fails there: a 66-byte Write IQ at the end of TX plus one trigger committed
 * 1.8 GiB and took seconds; after a 2^24 write every trigger copied 64 MiB per interface;
 * the query got an empty acknowledgement. */
#include "harness.h"

#include "iq/node/node.h"
#include "iq/wire/wire.h"
#include "util/bytes.h"
#include "util/clock.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define CMD_TRIGGER_COUNT 0x50575301u /* node.h: WS_NODE_CMD_TRIGGER_COUNT */

static long vmrss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static size_t write_pkt(uint8_t *b, uint16_t mask, uint32_t start, uint32_t count,
			const uint8_t *samples)
{
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)count;
	ws_wire_transport t = {.src_id = 250, .pkt_type = WS_WIRE_PKT_HOST_TO_NODE,
			       .length = ws_wire_host_length(len)};
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_WRITE_IQ, .length = (uint16_t)(12 + 4 * count),
			 .num_args = 1};
	ws_wire_sample_hdr sh = {.buffer = mask, .start = start, .count = count};
	ws_wire_build(b, WS_WIRE_OFF_ARGS, &t, &c, NULL, 0);
	ws_wire_put_sample_hdr(b + WS_WIRE_OFF_ARGS, 12, &sh);
	memcpy(b + WS_WIRE_OFF_SAMPLES, samples, 4 * (size_t)count);
	return len;
}

static const uint8_t trigger_pkt[] = {0, 0, 0xFF, 0xFF, 0, 250, 0, 0, 0, 4, 0, 0, 0, 0,
				      0, 0, 0, 1};

static ws_node *feed_node(void)
{
	ws_node_config c;
	ws_node *n = NULL;
	ws_err err;
	ws_node_config_default(&c);
	c.port = -1;
	if (ws_node_create(&c, &n, &err) < 0)
		printf("  create: %s\n", err.msg);
	return n;
}

/* 66 bytes at the end of TX, one trigger: bounded memory and time. */
static void test_end_write_trigger(void)
{
	ws_node *n = feed_node();
	if (!n) {
		CHECK("create", 0);
		return;
	}
	uint8_t b[128], s[32] = {0x12, 0x34};
	size_t len = write_pkt(b, 0x3, WS_NODE_DEFAULT_TX_SAMPLES - 8, 8, s);
	CHECK_INT("a 66-byte Write IQ", (int)len, 66);
	long before = vmrss_kb();
	ws_node_feed(n, b, len);
	int64_t t0 = ws_clock_ns();
	ws_node_feed(n, trigger_pkt, sizeof trigger_pkt);
	int64_t dt = ws_clock_ns() - t0;
	long grew = vmrss_kb() - before;
	ws_node_counters k;
	ws_node_get_counters(n, &k);
	printf("  write at the end of TX + trigger: RSS +%ld KiB, trigger %.3f ms\n", grew,
	       dt / 1e6);
	CHECK_U64("stored", k.write_packets, 1);
	CHECK_U64("triggered", k.triggers, 1);
	CHECK("RSS grew less than 64 MiB", grew < 64 * 1024);
	CHECK("the trigger took under 50 ms", dt < 50 * WS_NS_PER_MS);
	ws_node_destroy(n);
}

/* After one 2^24 write, a 2^15 write + trigger round costs what it did before it. */
static void test_trigger_after_big_write(void)
{
	ws_node *n = feed_node();
	if (!n) {
		CHECK("create", 0);
		return;
	}
	static uint8_t b[9000], s[2232 * 4];
	for (uint32_t pos = 0; pos < (1u << 24); pos += 2232) {
		uint32_t cnt = (1u << 24) - pos < 2232 ? (1u << 24) - pos : 2232;
		ws_node_feed(n, b, write_pkt(b, 0x1, pos, cnt, s));
	}
	int64_t t0 = ws_clock_ns();
	for (int round = 0; round < 10; round++) {
		for (uint32_t pos = 0; pos < (1u << 15); pos += 2232) {
			uint32_t cnt = (1u << 15) - pos < 2232 ? (1u << 15) - pos : 2232;
			ws_node_feed(n, b, write_pkt(b, 0x1, pos, cnt, s));
		}
		ws_node_feed(n, trigger_pkt, sizeof trigger_pkt);
	}
	int64_t dt = ws_clock_ns() - t0;
	ws_node_counters k;
	ws_node_get_counters(n, &k);
	printf("  10 rounds of a 2^15 write + trigger after a 2^24 write: %.3f ms\n", dt / 1e6);
	CHECK_U64("triggers", k.triggers, 10);
	/* 5a0d583: each trigger copied 2 x 64 MiB (RF_A from TX, RF_B zeroed), > 100 ms. */
	CHECK("10 rounds under 40 ms", dt < 40 * WS_NS_PER_MS);
	ws_node_destroy(n);
}

/* ---- the trigger counter query, byte for byte, on a real socket ---------------------- */

typedef struct qnode {
	ws_node *node;
	pthread_t tid;
} qnode;

static void *qnode_run(void *arg)
{
	ws_node_run(((qnode *)arg)->node, NULL);
	return NULL;
}

static int recv_within(int s, uint8_t *b, size_t cap, int ms)
{
	struct pollfd p = {.fd = s, .events = POLLIN};
	return poll(&p, 1, ms) == 1 ? (int)recv(s, b, cap, 0) : -1;
}

static void test_trigger_count_query(void)
{
	ws_node_config c;
	ws_err err;
	qnode q;
	ws_node_config_default(&c);
	c.bind_addr = "127.0.0.1";
	c.port = 0;
	c.bcast_port = -1;
	c.tx_samples = c.rx_samples = 1u << 16;
	if (ws_node_create(&c, &q.node, &err) < 0) {
		printf("  create: %s\n", err.msg);
		CHECK("create", 0);
		return;
	}
	ws_node_info in;
	ws_node_get_info(q.node, &in);
	pthread_create(&q.tid, NULL, qnode_run, &q);
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)in.port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	connect(s, (struct sockaddr *)&a, sizeof a);
	for (int i = 0; i < 3; i++)
		send(s, trigger_pkt, sizeof trigger_pkt, 0);
	/* ROBUST request, no arguments: dest 0, src 250, type 1, length 8, seq 0x4242. */
	static const uint8_t req[] = {0, 0, 0, 0, 0, 250, 0, 1, 0, 8, 0x42, 0x42, 0, 1,
				      0x50, 0x57, 0x53, 0x01, 0, 0, 0, 0};
	static const uint8_t want[] = {0, 0, 0, 250, 0, 0, 0, 2, 0, 34, 0x42, 0x42, 0, 0,
				       0x50, 0x57, 0x53, 0x01, 0, 12, 0, 3,
				       0x57, 0x53, 0x50, 0x44, 0, 0, 0, 0, 0, 0, 0, 3};
	uint8_t got[256];
	send(s, req, sizeof req, 0);
	int r = recv_within(s, got, sizeof got, 2000);
	CHECK_INT("reply length", r, (int)sizeof want);
	if (r == (int)sizeof want)
		CHECK_MEM("reply [WSPD, 0, 3] byte-exact", got, want, sizeof want);
	CHECK_U64("the command word", ws_get_be32(req + 14), CMD_TRIGGER_COUNT);
	/* Without ROBUST: no answer, as for every command but Read IQ. */
	uint8_t quiet[sizeof req];
	memcpy(quiet, req, sizeof req);
	quiet[13] = 0;
	send(s, quiet, sizeof quiet, 0);
	CHECK_INT("no answer without ROBUST", recv_within(s, got, sizeof got, 100), -1);
	close(s);
	ws_node_stop(q.node);
	pthread_join(q.tid, NULL);
	ws_node_destroy(q.node);
}

int main(void)
{
	RUN(test_end_write_trigger);
	RUN(test_trigger_after_big_write);
	RUN(test_trigger_count_query);
	TEST_MAIN_END();
}
