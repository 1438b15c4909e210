/* SPDX-License-Identifier: BSD-2-Clause */
/* test_iq_node: the emulator engine in a thread on 127.0.0.1, driven by a tiny host.
 *
 * The golden packets are written by hand from docs/wire/warplab.md (never captured
 * from the emulator), the round trips use random samples and the host-side checksum, and
 * the fuzz-style test throws 100,000 random and mutated datagrams at a node and then asks
 * it for a PING. */
#include "harness.h"

#include "iq/node/node.h"
#include "iq/wire/wire.h"
#include "util/clock.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct tnode {
	ws_node *node;
	pthread_t tid;
	int port, bport;
	int rc;
} tnode;

static void *tnode_run(void *arg)
{
	tnode *t = arg;
	t->rc = ws_node_run(t->node, NULL);
	return NULL;
}

static int tnode_start(tnode *t, ws_node_config *c)
{
	ws_err err;
	c->bind_addr = "127.0.0.1";
	c->port = 0;
	c->bcast_port = 0;
	c->sock_buf = 16 << 20;
	if (ws_node_create(c, &t->node, &err) < 0) {
		printf("  node create: %s\n", err.msg);
		return -1;
	}
	ws_node_info in;
	ws_node_get_info(t->node, &in);
	t->port = in.port;
	t->bport = in.bcast_port;
	return pthread_create(&t->tid, NULL, tnode_run, t) == 0 ? 0 : -1;
}

static void tnode_stop(tnode *t)
{
	ws_node_stop(t->node);
	pthread_join(t->tid, NULL);
	ws_node_destroy(t->node);
}

/* Triggers arrive on another socket than the reads that follow: wait until the node has
 * played the channel, so the test does not race the broadcast port. */
static void wait_triggers(const tnode *t, uint64_t want)
{
	ws_node_counters k;
	int64_t end = ws_clock_ns() + 2 * WS_NS_PER_SEC;
	do {
		ws_node_get_counters(t->node, &k);
		if (k.triggers >= want)
			return;
		ws_clock_sleep_ns(WS_NS_PER_MS);
	} while (ws_clock_ns() < end);
}

static int host_sock(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int sz = 32 << 20;
	if (setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
		setsockopt(s, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bind(s, (struct sockaddr *)&a, sizeof a);
	return s;
}

static void host_send(int s, int port, const uint8_t *b, size_t len)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	sendto(s, b, len, 0, (struct sockaddr *)&a, sizeof a);
}

/* One datagram within ms milliseconds: its length, or -1. */
static int host_recv(int s, uint8_t *b, size_t cap, int ms)
{
	struct pollfd p = {.fd = s, .events = POLLIN};
	if (poll(&p, 1, ms) <= 0)
		return -1;
	return (int)recv(s, b, cap, 0);
}

static void host_drain(int s)
{
	uint8_t b[65536];
	while (host_recv(s, b, sizeof b, 0) >= 0)
		;
}

/* Send req to the unicast port and compare the one reply with want (NULL: no reply). */
static void golden(const char *name, int s, int port, const uint8_t *req, size_t rl,
		   const uint8_t *want, size_t wl)
{
	uint8_t got[65536];
	host_send(s, port, req, rl);
	int n = host_recv(s, got, sizeof got, want ? 2000 : 50);
	if (!want) {
		CHECK_INT(name, n, -1);
		return;
	}
	CHECK_INT(name, n, (int)wl);
	if (n == (int)wl)
		CHECK_MEM(name, got, want, wl);
}

#define GOLD(name, s, port, req, want) golden(name, s, port, req, sizeof req, want, sizeof want)

/* Host -> node transport header bytes: node 0, host 250. */
#define H2N(len, seq, flags) 0, 0, 0, 0, 0, 0xFA, 0, 1, 0, (len), 0, (seq), 0, (flags)
/* Node -> host: the reply transport header. */
#define N2H(len, seq, flags) 0, 0, 0, 0xFA, 0, 0, 0, 2, 0, (len), 0, (seq), (flags), 0

static void golden_node_group(int s, int port)
{
	static const uint8_t init_req[] = {H2N(8, 1, 1), 0, 0, 0, 1, 0, 0, 0, 0};
	static const uint8_t init_rsp[] = {N2H(0x16, 1, 0), 0, 0, 0, 1, 0, 0, 0, 0};
	GOLD("NODE_INITIALIZE", s, port, init_req, init_rsp);
	static const uint8_t info_req[] = {H2N(8, 2, 1), 0, 0, 0, 2, 0, 0, 0, 0};
	static const uint8_t info_rsp[] = {
		N2H(0x4A, 2, 0), 0, 0, 0, 2, 0, 0x34, 0, 0x0D,
		0, 0, 0, 6,             /* serial */
		0, 0xAB, 0xCD, 0xEF,    /* FPGA DNA msb */
		0, 0, 0, 6,             /* FPGA DNA lsb */
		0, 0, 0x40, 0xD8,       /* MAC[0..1] */
		0x55, 0x04, 0x20, 0x06, /* MAC[2..5] */
		3, 7, 7, 1,             /* WARP v3, WARPLab 7.7.1 */
		7, 0, 0, 0,             /* max TX samples 112 Mi */
		8, 0, 0, 0,             /* max RX samples 128 Mi */
		0, 0, 0x80, 0,          /* TX length 2^15 */
		0, 0, 0x80, 0,          /* RX length 2^15 */
		1, 4, 0, 0,             /* trigger manager info */
		0, 0, 0, 1,             /* interface groups */
		0, 0, 0, 2,             /* RF interfaces */
	};
	GOLD("NODE_INFO", s, port, info_req, info_rsp);
	static const uint8_t ping_req[] = {H2N(8, 3, 1), 0x10, 0, 0, 1, 0, 0, 0, 0};
	static const uint8_t ping_rsp[] = {N2H(0x16, 3, 0), 0x10, 0, 0, 1, 0, 0, 0, 0};
	GOLD("PING", s, port, ping_req, ping_rsp);
	static const uint8_t ping_quiet[] = {H2N(8, 18, 0), 0x10, 0, 0, 1, 0, 0, 0, 0};
	golden("PING without ROBUST", s, port, ping_quiet, sizeof ping_quiet, NULL, 0);
	static const uint8_t pay_req[] = {H2N(0x18, 4, 1), 0x10, 0, 0, 2, 0, 0x10, 0, 4,
					  0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};
	static const uint8_t pay_rsp[] = {N2H(0x1A, 4, 0), 0x10, 0, 0, 2, 0, 4, 0, 1,
					  0, 0, 0, 0x24};
	GOLD("PAYLOAD_SIZE_TEST", s, port, pay_req, pay_rsp);
	/* Truncated in flight (claims 4 args, 3 arrived): answered from what arrived. */
	static const uint8_t cut_req[] = {H2N(0x18, 4, 1), 0x10, 0, 0, 2, 0, 0x10, 0, 4,
					  0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3};
	static const uint8_t cut_rsp[] = {N2H(0x1A, 4, 0), 0x10, 0, 0, 2, 0, 4, 0, 1,
					  0, 0, 0, 0x20};
	GOLD("PAYLOAD_SIZE_TEST truncated", s, port, cut_req, cut_rsp);
	/* Addressed to the broadcast ID: answered, src is this node. */
	static const uint8_t bping_req[] = {0, 0, 0xFF, 0xFF, 0, 0xFA, 0, 1, 0, 8, 0, 19, 0, 1,
					    0x10, 0, 0, 1, 0, 0, 0, 0};
	static const uint8_t bping_rsp[] = {N2H(0x16, 19, 0), 0x10, 0, 0, 1, 0, 0, 0, 0};
	GOLD("PING to 0xFFFF", s, port, bping_req, bping_rsp);
	static const uint8_t other_req[] = {H2N(0x0C, 17, 1), 0x40, 0, 0, 1, 0, 4, 0, 1, 0, 0, 0, 3};
	static const uint8_t other_rsp[] = {N2H(0x16, 17, 0), 0x40, 0, 0, 1, 0, 0, 0, 0};
	GOLD("other group: plain ack", s, port, other_req, other_rsp);
}

static void golden_lengths(int s, int port)
{
	static const uint8_t txw_req[] = {H2N(0x10, 5, 1), 0x30, 0, 0, 2, 0, 8, 0, 2,
					  0, 0, 0, 0, 0, 1, 0, 0};
	static const uint8_t txw_rsp[] = {N2H(0x1E, 5, 0), 0x30, 0, 0, 2, 0, 8, 0, 2,
					  0, 0, 0, 0, 0, 1, 0, 0};
	GOLD("TX_LENGTH write", s, port, txw_req, txw_rsp);
	static const uint8_t txr_req[] = {H2N(0x0C, 6, 1), 0x30, 0, 0, 2, 0, 4, 0, 1, 0, 0, 0, 1};
	static const uint8_t txr_rsp[] = {N2H(0x1E, 6, 0), 0x30, 0, 0, 2, 0, 8, 0, 2,
					  0, 0, 0, 0, 0, 1, 0, 0};
	GOLD("TX_LENGTH read", s, port, txr_req, txr_rsp);
	static const uint8_t txb_req[] = {H2N(0x10, 7, 1), 0x30, 0, 0, 2, 0, 8, 0, 2,
					  0, 0, 0, 0, 7, 0, 0, 1};
	static const uint8_t txb_rsp[] = {N2H(0x1E, 7, 0), 0x30, 0, 0, 2, 0, 8, 0, 2,
					  0xFF, 0, 0, 0, 0, 1, 0, 0};
	GOLD("TX_LENGTH beyond max", s, port, txb_req, txb_rsp);
	static const uint8_t rxw_req[] = {H2N(0x10, 8, 1), 0x30, 0, 0, 0x0B, 0, 8, 0, 2,
					  0, 0, 0, 0, 0, 1, 0, 0};
	static const uint8_t rxw_rsp[] = {N2H(0x1E, 8, 0), 0x30, 0, 0, 0x0B, 0, 8, 0, 2,
					  0, 0, 0, 0, 0, 1, 0, 0};
	GOLD("RX_LENGTH write", s, port, rxw_req, rxw_rsp);
	static const uint8_t max_req[] = {H2N(0x0C, 9, 1), 0x30, 0, 0, 0x0D, 0, 4, 0, 1, 0, 0, 0, 1};
	static const uint8_t max_rsp[] = {N2H(0x22, 9, 0), 0x30, 0, 0, 0x0D, 0, 0x0C, 0, 3,
					  0, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0};
	GOLD("MAX_NUM_SAMPLES", s, port, max_req, max_rsp);
	static const uint8_t maxw_req[] = {H2N(0x0C, 10, 1), 0x30, 0, 0, 0x0D, 0, 4, 0, 1, 0, 0, 0, 0};
	static const uint8_t maxw_rsp[] = {N2H(0x22, 10, 0), 0x30, 0, 0, 0x0D, 0, 0x0C, 0, 3,
					   0xFF, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0};
	GOLD("MAX_NUM_SAMPLES write is an error", s, port, maxw_req, maxw_rsp);
}

static void golden_iq(int s, const tnode *t)
{
	int port = t->port, bport = t->bport;
	/* 7.7.1 Read IQ: command length 0, num_args 0, five words follow. RF_B before any
	 * trigger holds the test signal: i=5, rf=1 -> I = 1035 = 0x040B, Q = ~I. */
	static const uint8_t rb_req[] = {H2N(0x1C, 11, 0), 0x30, 0, 0, 9, 0, 0, 0, 0,
					 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0, 1};
	static const uint8_t rb_rsp[] = {N2H(0x2A, 11, 0), 0x30, 0, 0, 9, 0, 0x14, 0, 1,
					 0, 2, 0, 0, 0, 0, 0, 5, 0, 0, 0, 2,
					 0x04, 0x0B, 0xFB, 0xF4, 0x04, 0x12, 0xFB, 0xED};
	GOLD("READ_IQ test signal", s, port, rb_req, rb_rsp);
	static const uint8_t wr_req[] = {H2N(0x24, 12, 1), 0x30, 0, 0, 8, 0, 0x1C, 0, 1,
					 0, 1, 0x30, 9, 0, 0, 0, 0, 0, 0, 0, 4,
					 0, 1, 0, 2, 0x7F, 0xFF, 0x80, 0,
					 0x12, 0x34, 0x56, 0x78, 0xFF, 0xFF, 0, 1};
	/* checksum: start 0 then I^Q of 0xFFFF0001 = 0xFFFE -> s1 = s2 = 0xFFFE */
	static const uint8_t wr_rsp[] = {N2H(0x22, 12, 0), 0x30, 0, 0, 8, 0, 0x0C, 0, 3,
					 0, 0, 0, 0, 0, 0, 0, 9, 0xFF, 0xFE, 0xFF, 0xFE};
	GOLD("WRITE_IQ ack", s, port, wr_req, wr_rsp);
	static const uint8_t ck_req[] = {H2N(8, 13, 1), 0x30, 0, 0, 0x0C, 0, 0, 0, 0};
	static const uint8_t ck_rsp[] = {N2H(0x1A, 13, 0), 0x30, 0, 0, 0x0C, 0, 4, 0, 1,
					 0xFF, 0xFE, 0xFF, 0xFE};
	GOLD("WRITE_IQ_CHECKSUM", s, port, ck_req, ck_rsp);
	static const uint8_t trig[] = {0, 0, 0xFF, 0xFF, 0, 0xFA, 0, 0, 0, 4, 0, 14, 0, 0,
				       0, 0, 0, 1};
	golden("trigger is not answered", s, bport, trig, sizeof trig, NULL, 0);
	wait_triggers(t, 1);
	static const uint8_t ra_req[] = {H2N(0x1C, 15, 0), 0x30, 0, 0, 9, 0, 0, 0, 0,
					 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 16, 0, 0, 0, 1};
	static const uint8_t ra_rsp[] = {N2H(0x32, 15, 0), 0x30, 0, 0, 9, 0, 0x1C, 0, 1,
					 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4,
					 0, 1, 0, 2, 0x7F, 0xFF, 0x80, 0,
					 0x12, 0x34, 0x56, 0x78, 0xFF, 0xFF, 0, 1};
	GOLD("READ_IQ after trigger (loopback)", s, port, ra_req, ra_rsp);
	static const uint8_t re_req[] = {H2N(0x1C, 16, 0), 0x30, 0, 0, 9, 0, 0, 0, 0,
					 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 16, 0, 0, 0, 1};
	static const uint8_t re_rsp[] = {N2H(0x22, 16, 0), 0x30, 0, 0, 9, 0, 0x0C, 0, 1,
					 0, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	GOLD("READ_IQ of RF_C on a 2RF node: IQ_ERROR", s, port, re_req, re_rsp);
}

static void test_golden(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	golden_node_group(s, t.port);
	golden_lengths(s, t.port);
	golden_iq(s, &t);
	close(s);
	tnode_stop(&t);
	CHECK_INT("run rc", t.rc, 0);
}

/* ---- a tiny host ---------------------------------------------------------------------- */

static size_t sample_packet(uint8_t *b, uint16_t seq, uint16_t flags, uint32_t cmd,
			    const ws_wire_sample_hdr *sh, const uint32_t *samples)
{
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)sh->count;
	ws_wire_transport t = {.src_id = 250, .pkt_type = 1, .length = ws_wire_host_length(len),
			       .seq = seq, .flags = flags};
	ws_wire_cmd c = {.cmd = cmd, .length = (uint16_t)(12 + 4 * sh->count), .num_args = 1};
	ws_wire_build(b, 64, &t, &c, NULL, 0);
	ws_wire_put_sample_hdr(b + WS_WIRE_OFF_ARGS, 12, sh);
	for (uint32_t i = 0; i < sh->count; i++)
		ws_put_be32(b + WS_WIRE_OFF_SAMPLES + 4 * i, samples[i]);
	return len;
}

/* Write IQ in fast mode of x[0, n) at TX sample at; returns the ack status, or -1 without
 * an ack; *match says whether the node's checksum equals the host's. */
static int host_write_at(int s, int port, uint16_t mask, uint32_t at, const uint32_t *x,
			 uint32_t n, uint32_t spp, int *match)
{
	static uint8_t b[70000];
	ws_wire_csum cs;
	ws_wire_csum_reset(&cs);
	uint16_t seq = 100;
	for (uint32_t pos = 0; pos < n; pos += spp) {
		uint32_t cnt = n - pos < spp ? n - pos : spp;
		int last = pos + cnt >= n;
		ws_wire_sample_hdr sh = {
			.buffer = mask, .iq_id = 3, .start = at + pos, .count = cnt,
			.flags = (uint8_t)((pos == 0 ? WS_WIRE_SFLAG_CHECKSUM_RESET : 0) |
					   (last ? WS_WIRE_SFLAG_LAST_WRITE : 0))};
		ws_wire_csum_packet(&cs, at + pos, x[pos + cnt - 1]);
		size_t len = sample_packet(b, seq++, last ? WS_WIRE_FLAG_ROBUST : 0,
					   WS_WIRE_CMD_WRITE_IQ, &sh, x + pos);
		host_send(s, port, b, len);
	}
	int r = host_recv(s, b, sizeof b, 2000);
	if (r != 34)
		return -1;
	*match = ws_get_be32(b + 30) == ws_wire_csum_value(&cs);
	return (int)ws_get_be32(b + 22);
}

static int host_write(int s, int port, uint16_t mask, const uint32_t *x, uint32_t n,
		      uint32_t spp, int *match)
{
	return host_write_at(s, port, mask, 0, x, n, spp, match);
}

static void host_trigger(int s, int port)
{
	uint8_t b[32];
	ws_wire_transport t = {.dest_id = 0xFFFF, .src_id = 250, .pkt_type = 0, .length = 4};
	uint32_t ids = 1;
	int len = ws_wire_build(b, sizeof b, &t, NULL, &ids, 1);
	host_send(s, port, b, (size_t)len);
}

static void host_read_req(int s, int port, uint32_t buffer, uint32_t start, uint32_t n,
			  uint32_t spp)
{
	uint8_t b[64];
	ws_wire_transport t = {.src_id = 250, .pkt_type = 1, .length = 28, .seq = 77};
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_READ_IQ};
	uint32_t a[5] = {buffer, start, n, spp * 4, (n + spp - 1) / spp};
	int len = ws_wire_build(b, sizeof b, &t, &c, a, 5);
	host_send(s, port, b, (size_t)len);
}

/* The sample packets answering host_read_req of one buffer, into x; returns the samples
 * received. */
static uint32_t host_collect(int s, uint32_t buffer, uint32_t n, uint32_t *x)
{
	static uint8_t b[70000];
	uint32_t got = 0;
	while (got < n) {
		int r = host_recv(s, b, sizeof b, 1000);
		ws_wire_sample_hdr sh;
		if (r < WS_WIRE_SAMPLE_PKT_HDR)
			break;
		ws_wire_get_sample_hdr(b + WS_WIRE_OFF_ARGS, 12, &sh);
		if (sh.buffer != buffer || ws_get_be16(b + 10) != 77 || sh.start >= n ||
		    sh.count > n - sh.start || (size_t)r != WS_WIRE_SAMPLE_PKT_HDR + 4 * sh.count)
			break;
		for (uint32_t i = 0; i < sh.count; i++)
			x[sh.start + i] = ws_get_be32(b + WS_WIRE_OFF_SAMPLES + 4 * i);
		got += sh.count;
	}
	return got;
}

/* Read IQ of one buffer into x; returns the samples received. */
static uint32_t host_read(int s, int port, uint32_t buffer, uint32_t n, uint32_t spp,
			  uint32_t *x)
{
	host_read_req(s, port, buffer, 0, n, spp);
	return host_collect(s, buffer, n, x);
}

static void roundtrip(uint32_t payload, uint16_t mask, int gso)
{
	enum { N = 1 << 15 };
	static uint32_t x[N], y[N];
	ws_node_config c;
	ws_node_config_default(&c);
	c.max_payload = payload;
	c.gso = gso;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	uint32_t spp = ws_wire_samples_per_packet(payload);
	srand(payload + mask);
	for (int i = 0; i < N; i++)
		x[i] = (uint32_t)rand() << 16 ^ (uint32_t)rand();
	int match = 0;
	CHECK_INT("write ack status", host_write(s, t.port, mask, x, N, spp, &match), 0);
	CHECK("checksum matches", match);
	host_trigger(s, t.bport);
	wait_triggers(&t, 1);
	for (uint32_t rf = 0; rf < 2; rf++) {
		if (!(mask >> rf & 1))
			continue;
		memset(y, 0, sizeof y);
		CHECK_INT("read count", host_read(s, t.port, 1u << rf, N, spp, y), N);
		CHECK_MEM("samples identical", y, x, sizeof x);
	}
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK_U64("write packets", k.write_packets, (N + spp - 1) / spp);
	CHECK_U64("triggers", k.triggers, 1);
	close(s);
	tnode_stop(&t);
}

static void test_roundtrip_jumbo_a(void) { roundtrip(8964, WS_WIRE_RF_A, 1); }
static void test_roundtrip_jumbo_ab(void) { roundtrip(8964, WS_WIRE_RF_A | WS_WIRE_RF_B, 1); }
static void test_roundtrip_1500_a(void) { roundtrip(1468, WS_WIRE_RF_A, 1); }
static void test_roundtrip_1500_ab(void) { roundtrip(1468, WS_WIRE_RF_A | WS_WIRE_RF_B, 1); }
static void test_roundtrip_no_gso(void) { roundtrip(8964, WS_WIRE_RF_A | WS_WIRE_RF_B, 0); }

/* Channel none keeps the test signal; RX_BUFF_EN limits which RX buffers capture. */
static void test_channel_and_enable(void)
{
	enum { N = 4096 };
	static uint32_t x[N], y[N];
	for (int i = 0; i < N; i++)
		x[i] = 0x11110000u + (uint32_t)i;
	for (int ch = 0; ch < 2; ch++) {
		ws_node_config c;
		ws_node_config_default(&c);
		c.channel = ch ? WS_NODE_CHANNEL_NONE : WS_NODE_CHANNEL_LOOPBACK;
		tnode t;
		if (tnode_start(&t, &c) < 0) {
			CHECK("start", 0);
			return;
		}
		int s = host_sock();
		int match;
		CHECK_INT("write", host_write(s, t.port, 3, x, N, 2232, &match), 0);
		uint8_t en[] = {H2N(0x0C, 1, 1), 0x30, 0, 0, 5, 0, 4, 0, 1, 0, 0, 0, 2};
		uint8_t ack[64];
		host_send(s, t.port, en, sizeof en);
		CHECK_INT("RX_BUFF_EN ack", host_recv(s, ack, sizeof ack, 2000), 22);
		host_trigger(s, t.port); /* the unicast port takes triggers too */
		CHECK_INT("read A", host_read(s, t.port, 1, N, 2232, y), N);
		CHECK_U64("A not enabled: signal", y[N - 1], ws_node_test_sample(0, N - 1));
		CHECK_INT("read B", host_read(s, t.port, 2, N, 2232, y), N);
		if (ch)
			CHECK_U64("none: B keeps signal", y[7], ws_node_test_sample(1, 7));
		else
			CHECK_MEM("loopback: B = TX B", y, x, sizeof x);
		close(s);
		tnode_stop(&t);
	}
}

/* Copy-on-write through the wire: RX chunks share TX chunks after a trigger, so writes
 * into TX (at chunk edges, inside a chunk, at several sizes) must not show in RX until the
 * next trigger, and then exactly. The reference is a flat copy of what was written. */
static void test_cow_roundtrip(void)
{
	enum { N = 3 * 65536 + 4321 };
	static uint32_t tx[N], y[N], x[N], rx[N];
	static const struct {
		uint32_t at, n;
	} writes[] = {{0, N}, {65536 - 100, 200}, {70000, 5000}, {131072, 65536}, {5, 1}, {N - 7, 7}};
	ws_node_config c;
	ws_node_config_default(&c);
	c.tx_samples = c.rx_samples = N;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	uint64_t trig = 0;
	for (size_t w = 0; w < sizeof writes / sizeof writes[0]; w++) {
		for (uint32_t i = 0; i < writes[w].n; i++)
			x[i] = tx[writes[w].at + i] = 0x01000000u * (uint32_t)(w + 1) + i;
		int match = 0;
		CHECK_INT("write", host_write_at(s, t.port, 1, writes[w].at, x, writes[w].n, 2232,
						 &match), 0);
		CHECK("checksum", match);
		if (w) {
			CHECK_INT("read before the trigger", host_read(s, t.port, 1, N, 2232, y), N);
			CHECK_MEM("RX still holds the last capture", y, rx, sizeof rx);
		}
		host_trigger(s, t.bport);
		wait_triggers(&t, ++trig);
		memcpy(rx, tx, sizeof rx);
		CHECK_INT("read after the trigger", host_read(s, t.port, 1, N, 2232, y), N);
		CHECK_MEM("RX = TX after the trigger", y, rx, sizeof rx);
	}
	close(s);
	tnode_stop(&t);
}

/* A host under its cap loses nothing: a 4 MiB read at 200 Mb/s, beyond the 1 MiB burst,
 * is paced, not cut, and takes about (4 MiB - burst) / rate. */
static void test_paced_read(void)
{
	enum { N = 1 << 20 };
	static uint32_t y[N];
	ws_node_config c;
	ws_node_config_default(&c);
	c.reply_rate_bps = 200000000;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	int64_t t0 = ws_clock_ns();
	CHECK_INT("every sample arrives", host_read(s, t.port, 2, N, 2232, y), N);
	double ms = (ws_clock_ns() - t0) / 1e6;
	CHECK_U64("the test signal", y[N - 1], ws_node_test_sample(1, N - 1));
	double want = (4.0 * N * (1 + 34.0 / 8928) - (1 << 20)) * 8 / 200e6 * 1e3;
	printf("  4 MiB at 200 Mb/s with a 1 MiB burst: %.1f ms (cap: %.1f ms)\n", ms, want);
	CHECK("paced to the cap, within 15%", ms > want * 0.85 && ms < want * 1.15 + 20);
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK("the stream waited for tokens", k.rate_waits > 0);
	CHECK_U64("nothing dropped", k.rate_drops + k.backlog_drops, 0);
	close(s);
	tnode_stop(&t);
}

/* A source's requests are served in order: a trigger it sends while its Read IQ streams
 * (paced by a 100 Mb/s cap, so it really arrives meanwhile) is held until the stream
 * ended, so the read shows the old RX content, and the trigger is not lost. */
static void test_source_order(void)
{
	enum { N = 1 << 18 };
	static uint32_t x[N], y[N];
	ws_node_config c;
	ws_node_config_default(&c);
	c.reply_rate_bps = 100000000;
	c.reply_burst = 1024;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	for (uint32_t i = 0; i < N; i++)
		x[i] = 0x5A000000u + i;
	int match = 0;
	CHECK_INT("write", host_write(s, t.port, 1, x, N, 2232, &match), 0);
	host_read_req(s, t.port, 1, 0, N, 2232);
	ws_clock_sleep_ns(10 * WS_NS_PER_MS);
	host_trigger(s, t.bport);
	uint32_t got = host_collect(s, 1, N, y);
	CHECK_INT("the whole stream", (int)got, N);
	CHECK_U64("read before the held trigger: the test signal", y[N - 1],
		  ws_node_test_sample(0, N - 1));
	wait_triggers(&t, 1);
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK("the trigger was held", k.held >= 1);
	CHECK_U64("and then played", k.triggers, 1);
	CHECK_INT("read after it", host_read(s, t.port, 1, N, 2232, y), N);
	CHECK_MEM("RX = TX", y, x, sizeof x);
	close(s);
	tnode_stop(&t);
}

static void test_signal(void)
{
	CHECK_U64("rf0 i0", ws_node_test_sample(0, 0), 0x0000FFFF);
	CHECK_U64("rf1 i5", ws_node_test_sample(1, 5), 0x040BFBF4);
	CHECK_U64("rf3 i10000 wraps", ws_node_test_sample(3, 10000), 0x1D28E2D7);
}

/* ---- robustness --------------------------------------------------------------------------- */

static int ping(int s, int port, int tries)
{
	static const uint8_t req[] = {H2N(8, 0x55, 1), 0x10, 0, 0, 1, 0, 0, 0, 0};
	uint8_t b[65536];
	for (int i = 0; i < tries; i++) {
		host_send(s, port, req, sizeof req);
		int64_t end = ws_clock_ns() + 200 * WS_NS_PER_MS;
		int r;
		while ((r = host_recv(s, b, sizeof b, ws_clock_ms_until(end))) >= 0)
			if (r == 22 && ws_get_be16(b + 10) == 0x55 &&
			    ws_get_be32(b + 14) == WS_WIRE_CMD_PING)
				return 1;
	}
	return 0;
}

static void test_bad_packets(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.max_payload = 1468;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	uint8_t b[65536] = {0};
	host_send(s, t.port, b, 5);                           /* too short */
	host_send(s, t.port, b, 13);                          /* no whole transport header */
	host_send(s, t.port, b, 1471);                        /* beyond max payload */
	static const uint8_t other_dest[] = {0, 0, 0, 7, 0, 0xFA, 0, 1, 0, 8, 0, 1, 0, 1,
					     0x10, 0, 0, 1, 0, 0, 0, 0};
	golden("other node ID ignored", s, t.port, other_dest, sizeof other_dest, NULL, 0);
	static const uint8_t n2h[] = {0, 0, 0, 0, 0, 0xFA, 0, 2, 0, 8, 0, 1, 0, 1,
				      0x10, 0, 0, 1, 0, 0, 0, 0};
	golden("node->host type ignored", s, t.port, n2h, sizeof n2h, NULL, 0);
	/* Write IQ claiming 5 samples with 4 present, robust: IQ_ERROR status. */
	static const uint8_t wshort[] = {H2N(0x24, 2, 1), 0x30, 0, 0, 8, 0, 0x1C, 0, 1,
					 0, 1, 0x30, 1, 0, 0, 0, 0, 0, 0, 0, 5,
					 0, 1, 0, 2, 0, 1, 0, 2, 0, 1, 0, 2, 0, 1, 0, 2};
	static const uint8_t werr[] = {N2H(0x22, 2, 0), 0x30, 0, 0, 8, 0, 0x0C, 0, 3,
				       0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
	GOLD("WRITE_IQ count beyond packet", s, t.port, wshort, werr);
	static const uint8_t wbuf[] = {H2N(0x18, 3, 1), 0x30, 0, 0, 8, 0, 0x10, 0, 1,
				       0, 4, 0x30, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 2};
	static const uint8_t wbuf_rsp[] = {N2H(0x22, 3, 0), 0x30, 0, 0, 8, 0, 0x0C, 0, 3,
					   0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
	GOLD("WRITE_IQ to RF_C of a 2RF node", s, t.port, wbuf, wbuf_rsp);
	static const uint8_t wrange[] = {H2N(0x18, 4, 1), 0x30, 0, 0, 8, 0, 0x10, 0, 1,
					 0, 1, 0x30, 1, 0x07, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 2};
	static const uint8_t wrange_rsp[] = {N2H(0x22, 4, 0), 0x30, 0, 0, 8, 0, 0x0C, 0, 3,
					     0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
	GOLD("WRITE_IQ past the TX buffer", s, t.port, wrange, wrange_rsp);
	/* Read IQ beyond the RX buffer, and with packets larger than the payload allows. */
	host_read_req(s, t.port, 1, (1u << 27) - 1, 2, 356);
	CHECK_INT("read out of range answered", host_recv(s, b, sizeof b, 2000), 34);
	CHECK_INT("IQ_ERROR flag", b[24], WS_WIRE_SFLAG_IQ_ERROR);
	host_read_req(s, t.port, 1, 0, 4000, 2232);
	CHECK_INT("read bpp too big answered", host_recv(s, b, sizeof b, 2000), 34);
	CHECK_INT("IQ_ERROR flag 2", b[24], WS_WIRE_SFLAG_IQ_ERROR);
	static const uint8_t rshort[] = {H2N(0x0C, 5, 0), 0x30, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1};
	host_send(s, t.port, rshort, sizeof rshort);
	CHECK_INT("read without its five words answered", host_recv(s, b, sizeof b, 2000), 34);
	CHECK("still answers PING", ping(s, t.port, 3));
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK_U64("malformed", k.malformed, 5); /* 5 B, 13 B, short write, bpp, short read */
	CHECK_U64("oversize", k.oversize, 1);
	CHECK_U64("not for us", k.not_for_us, 2);
	CHECK_U64("bad buffer", k.bad_buffer, 1);
	CHECK_U64("out of range", k.out_of_range, 2);
	CHECK_U64("error replies", k.error_replies, 6);
	CHECK_U64("no write stored", k.write_packets, 0);
	close(s);
	tnode_stop(&t);
}

static void test_not_ready(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.not_ready = 1;
	c.not_ready_us = 300000;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	uint8_t b[65536];
	static uint32_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	host_trigger(s, t.bport);
	wait_triggers(&t, 1);
	host_read_req(s, t.port, 1, 0, 8, 2232);
	CHECK_INT("NOT_READY read reply", host_recv(s, b, sizeof b, 2000), 34 + 24);
	CHECK_U64("transport flag", ws_get_be16(b + 12), WS_WIRE_FLAG_NODE_NOT_READY);
	CHECK_INT("sample flag", b[24], WS_WIRE_SFLAG_IQ_NOT_READY);
	/* Bytes, as the firmware reports: 2^15 samples are (length register + 1) << 2. */
	CHECK_U64("tx length word", ws_get_be32(b + 34 + 8), 131072);
	CHECK_U64("rx length word", ws_get_be32(b + 34 + 20), 131072);
	uint32_t ptr = ws_get_be32(b + 34 + 4);
	CHECK("tx pointer word: byte offset + 4", ptr % 4 == 0 && ptr >= 4 && ptr <= 131072);
	int match;
	/* The NOT_READY ack is 34 + 24 bytes, which host_write does not take: -1. */
	CHECK_INT("write NOT_READY", host_write(s, t.port, 1, x, 8, 2232, &match), -1);
	ws_clock_sleep_ns(320 * WS_NS_PER_MS);
	uint32_t y[8];
	CHECK_INT("read after the window", host_read(s, t.port, 1, 8, 2232, y), 8);
	CHECK_INT("write after the window", host_write(s, t.port, 1, x, 8, 2232, &match), 0);
	CHECK("checksum", match);
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK_U64("not ready replies", k.not_ready_replies, 2);
	close(s);
	tnode_stop(&t);
}

/* The board's 5 receive slots and 95 us per packet drop most of a burst. */
static void test_board_slots(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.rx_slots = 5;
	c.per_packet_us = 95;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	enum { BURST = 40 };
	static uint8_t b[BURST][9000];
	static uint32_t x[2232];
	struct mmsghdr mm[BURST];
	struct iovec iov[BURST];
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)t.port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	for (int i = 0; i < BURST; i++) {
		ws_wire_sample_hdr sh = {.buffer = 1, .start = (uint32_t)i * 2232, .count = 2232,
					 .flags = i == 0 ? WS_WIRE_SFLAG_CHECKSUM_RESET : 0};
		iov[i] = (struct iovec){.iov_base = b[i],
					.iov_len = sample_packet(b[i], (uint16_t)i, 0,
								 WS_WIRE_CMD_WRITE_IQ, &sh, x)};
		mm[i].msg_hdr = (struct msghdr){.msg_name = &a, .msg_namelen = sizeof a,
						.msg_iov = &iov[i], .msg_iovlen = 1};
	}
	/* One sendmmsg: the burst arrives within a few microseconds, as from a fast host. */
	CHECK_INT("burst sent", sendmmsg(s, mm, BURST, 0), BURST);
	ws_clock_sleep_ns(100 * WS_NS_PER_MS); /* unacknowledged writes are handled at once */
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK("burst overflowed the slots", k.slot_drops > 0);
	CHECK("first five stored", k.write_packets >= 5);
	CHECK_U64("stored + dropped", k.write_packets + k.slot_drops, BURST);
	int64_t t0 = ws_clock_ns();
	CHECK("still answers PING", ping(s, t.port, 5));
	CHECK("ping not delayed once the slots drained", ws_clock_ns() - t0 < 150 * WS_NS_PER_MS);
	close(s);
	tnode_stop(&t);
}

/* ---- fuzz-style --------------------------------------------------------------------------- */

static uint32_t rnd(uint64_t *st)
{
	*st = *st * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*st >> 33);
}

/* A valid request of a random kind, then 0..4 random byte changes, maybe truncated. */
static size_t fuzz_packet(uint64_t *st, uint8_t *b)
{
	static const uint32_t cmds[] = {1, 2, 0x10000001, 0x10000002, 0x30000002, 0x3000000B,
					0x3000000D, 0x30000008, 0x30000009, 0x3000000C,
					0x30000004, 0x30000005, 0x40000003, 0x20000007};
	size_t len;
	uint32_t kind = rnd(st) % 16;
	if (kind == 0) { /* pure noise */
		len = rnd(st) % 300;
		for (size_t i = 0; i < len; i++)
			b[i] = (uint8_t)rnd(st);
		return len;
	}
	if (kind == 1) { /* trigger */
		ws_wire_transport t = {.dest_id = 0xFFFF, .src_id = 250, .length = 4};
		uint32_t ids = rnd(st);
		len = (size_t)ws_wire_build(b, 64, &t, NULL, &ids, 1);
	} else {
		uint32_t cmd = cmds[rnd(st) % (sizeof cmds / sizeof cmds[0])];
		uint32_t a[40];
		size_t na = rnd(st) % 8;
		for (size_t i = 0; i < na; i++)
			a[i] = rnd(st) % 4 ? rnd(st) % 8 : rnd(st);
		if (cmd == WS_WIRE_CMD_READ_IQ) {
			uint32_t r[5] = {1u << (rnd(st) % 4), rnd(st) % 70000, rnd(st) % 3000,
					 4 * (1 + rnd(st) % 2232), 1};
			memcpy(a, r, sizeof r);
			na = 5;
		} else if (cmd == WS_WIRE_CMD_WRITE_IQ) {
			uint32_t cnt = rnd(st) % 30;
			a[0] = (rnd(st) % 16) << 16 | (rnd(st) % 256) << 8 | rnd(st) % 256;
			a[1] = rnd(st) % 70000;
			a[2] = cnt;
			for (uint32_t i = 0; i < cnt; i++)
				a[3 + i] = rnd(st);
			na = 3 + cnt;
		}
		ws_wire_transport t = {.src_id = 250, .pkt_type = 1, .seq = (uint16_t)rnd(st),
				       .flags = (uint16_t)(rnd(st) % 2)};
		ws_wire_cmd c = {.cmd = cmd, .length = (uint16_t)(4 * na), .num_args = (uint16_t)na};
		len = (size_t)ws_wire_build(b, 256, &t, &c, a, na);
	}
	for (uint32_t m = rnd(st) % 5; m > 0; m--)
		b[rnd(st) % len] = (uint8_t)rnd(st);
	if (rnd(st) % 8 == 0)
		len = rnd(st) % (len + 1);
	return len;
}

static void test_fuzz_100k(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.rf = 4;
	c.tx_samples = c.rx_samples = 1 << 16;
	tnode t;
	if (tnode_start(&t, &c) < 0) {
		CHECK("start", 0);
		return;
	}
	int s = host_sock();
	enum { TOTAL = 100000, BATCH = 64 };
	static uint8_t pk[BATCH][300];
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)t.port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	uint64_t st = 12345;
	int sent = 0;
	while (sent < TOTAL) {
		int nb = TOTAL - sent < BATCH ? TOTAL - sent : BATCH;
		for (int i = 0; i < nb; i++) {
			iov[i] = (struct iovec){.iov_base = pk[i], .iov_len = fuzz_packet(&st, pk[i])};
			mm[i].msg_hdr = (struct msghdr){.msg_name = &a, .msg_namelen = sizeof a,
							.msg_iov = &iov[i], .msg_iovlen = 1};
		}
		int r = sendmmsg(s, mm, (unsigned)nb, 0);
		if (r <= 0)
			break;
		sent += r;
		if (sent % 4096 < BATCH) {
			host_drain(s);
			/* Let the node catch up, so a slow host (qemu, a loaded CI box) does not
			 * overflow its socket and the check below stays meaningful. */
			ws_node_counters kc;
			for (int w = 0; w < 2000; w++) {
				ws_node_get_counters(t.node, &kc);
				if (kc.rx_packets + 4096 >= (uint64_t)sent)
					break;
				usleep(1000);
			}
		}
	}
	CHECK_INT("sent", sent, TOTAL);
	host_drain(s);
	CHECK("answers PING afterwards", ping(s, t.port, 20));
	ws_node_counters k;
	ws_node_get_counters(t.node, &k);
	CHECK("node saw most packets", k.rx_packets > TOTAL / 2);
	CHECK("malformed counted", k.malformed > 0);
	CHECK_U64("no allocation failure", k.alloc_failures, 0);
	close(s);
	tnode_stop(&t);
	CHECK_INT("run rc", t.rc, 0);
}

/* ---- API ------------------------------------------------------------------------------------ */

static void test_api(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	ws_node *n = NULL;
	ws_err err;
	c.rf = 3;
	CHECK_INT("rf 3 refused", ws_node_create(&c, &n, &err), -WS_E_INVAL);
	CHECK("message names it", strstr(err.msg, "rf") != NULL);
	c.rf = 2;
	c.max_payload = 40;
	CHECK_INT("payload 40 refused", ws_node_create(&c, &n, &err), -WS_E_INVAL);
	c.max_payload = 8964;
	c.bind_addr = "localhost";
	CHECK_INT("bad bind refused", ws_node_create(&c, &n, &err), -WS_E_INVAL);
	c.bind_addr = NULL;
	c.port = -1;
	CHECK_INT("feed-only node", ws_node_create(&c, &n, &err), 0);
	CHECK_INT("run needs sockets", ws_node_run(n, &err), -WS_E_INVAL);
	static const uint8_t req[] = {H2N(8, 3, 1), 0x10, 0, 0, 1, 0, 0, 0, 0};
	ws_node_feed(n, req, sizeof req);
	ws_node_counters k;
	ws_node_get_counters(n, &k);
	CHECK_U64("fed", k.rx_packets, 1);
	CHECK_U64("answered (counted only)", k.tx_packets, 1);
	ws_node_destroy(n);
	ws_node_destroy(NULL);
}

int main(void)
{
	RUN(test_signal);
	RUN(test_api);
	RUN(test_golden);
	RUN(test_roundtrip_jumbo_a);
	RUN(test_roundtrip_jumbo_ab);
	RUN(test_roundtrip_1500_a);
	RUN(test_roundtrip_1500_ab);
	RUN(test_roundtrip_no_gso);
	RUN(test_channel_and_enable);
	RUN(test_cow_roundtrip);
	RUN(test_paced_read);
	RUN(test_source_order);
	RUN(test_bad_packets);
	RUN(test_not_ready);
	RUN(test_board_slots);
	RUN(test_fuzz_100k);
	TEST_MAIN_END();
}
