/* SPDX-License-Identifier: BSD-2-Clause */
/* iq_node_bench: how fast the node emulator serves Read IQ and takes Write IQ, and at what
 * CPU cost per packet, measured with a minimal host loop on loopback.
 *
 * By default the node runs in a thread of this process (127.0.0.1, ephemeral ports), so
 * its thread CPU clock gives the emulator's own cost per packet; with --connect it drives
 * an external `warpspeed node` instead, and --check turns it into the round-trip checker
 * the integration test uses (PING, NODE_INFO, Write IQ, trigger, Read IQ, compare).
 *
 * The host loop is deliberately plain: Read IQ in stop-and-wait requests that fit the
 * receive buffer (as WARPLab's MEX host does), recvmmsg batches placed by start index;
 * Write IQ in sendmmsg batches of header + sample iovecs, only the last packet ROBUST,
 * the node's checksum compared with the host's. Figures are the median of --rounds rounds
 * after one warm-up round (which maps buffers and generates the RX test signal). */
#include "iq/node/node.h"
#include "iq/wire/wire.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/units.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH      64
#define SLOT       9216
#define MAX_ROUNDS 64

typedef struct host {
	int s;
	struct sockaddr_in node, bnode;
	uint32_t spp, payload;
	uint16_t seq;
	size_t chunk; /* samples per Read IQ request */
	uint8_t (*rx)[SLOT];
	uint8_t (*hdr)[WS_WIRE_SAMPLE_PKT_HDR];
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH][2];
} host;

typedef struct opts {
	uint32_t samples, payload;
	int rounds, check, have_connect, bport;
	uint16_t mask;
	struct sockaddr_in connect;
	double expect_read, expect_write;
} opts;

static int host_open(host *h, const opts *o)
{
	h->s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int sz = 256 << 20;
	if (setsockopt(h->s, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
		setsockopt(h->s, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	if (setsockopt(h->s, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof sz) < 0)
		setsockopt(h->s, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
	int got;
	socklen_t sl = sizeof got;
	getsockopt(h->s, SOL_SOCKET, SO_RCVBUF, &got, &sl);
	h->spp = ws_wire_samples_per_packet(o->payload);
	h->payload = o->payload;
	/* A loopback skb costs about twice its payload in buffer accounting; keep each request
	 * to a third of the buffer (whole packets). */
	h->chunk = (size_t)got / 3 / (h->spp * 4 * 2) * h->spp;
	if (h->chunk < h->spp)
		h->chunk = h->spp;
	h->rx = malloc(sizeof *h->rx * BATCH);
	h->hdr = malloc(sizeof *h->hdr * BATCH);
	return h->rx && h->hdr && h->s >= 0 ? 0 : -1;
}

static int host_recv(host *h, uint8_t *b, size_t cap, int ms)
{
	struct pollfd p = {.fd = h->s, .events = POLLIN};
	if (poll(&p, 1, ms) <= 0)
		return -1;
	return (int)recv(h->s, b, cap, 0);
}

static void host_send(host *h, const struct sockaddr_in *to, const uint8_t *b, size_t len)
{
	sendto(h->s, b, len, 0, (const struct sockaddr *)to, sizeof *to);
}

/* A command with words; returns the reply length (reply in b) or -1. */
static int host_cmd(host *h, uint32_t cmd, const uint32_t *w, size_t nw, uint8_t *b, size_t cap)
{
	uint8_t req[128];
	ws_wire_transport t = {.src_id = WS_WIRE_HOST_ID_DEFAULT,
			       .pkt_type = 1,
			       .length = (uint16_t)(8 + 4 * nw),
			       .seq = ++h->seq,
			       .flags = WS_WIRE_FLAG_ROBUST};
	ws_wire_cmd c = {.cmd = cmd, .length = (uint16_t)(4 * nw), .num_args = (uint16_t)nw};
	int len = ws_wire_build(req, sizeof req, &t, &c, w, nw);
	for (int tries = 0; tries < 5; tries++) {
		host_send(h, &h->node, req, (size_t)len);
		int64_t end = ws_clock_ns() + 500 * WS_NS_PER_MS;
		int r;
		while ((r = host_recv(h, b, cap, ws_clock_ms_until(end))) >= 0)
			if (r >= 22 && ws_get_be16(b + 10) == h->seq && ws_get_be32(b + 14) == cmd)
				return r;
	}
	return -1;
}

/* Read IQ of [start, start+count) of one buffer into dst (wire words); samples received. */
static uint32_t read_chunk(host *h, uint16_t buffer, uint32_t start, uint32_t count, uint8_t *dst)
{
	uint8_t req[64];
	ws_wire_transport t = {
		.src_id = WS_WIRE_HOST_ID_DEFAULT, .pkt_type = 1, .length = 28, .seq = ++h->seq};
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_READ_IQ};
	uint32_t a[5] = {buffer, start, count, h->spp * 4, (count + h->spp - 1) / h->spp};
	int len = ws_wire_build(req, sizeof req, &t, &c, a, 5);
	host_send(h, &h->node, req, (size_t)len);
	for (int i = 0; i < BATCH; i++) {
		h->iov[i][0] = (struct iovec){.iov_base = h->rx[i], .iov_len = SLOT};
		h->mm[i].msg_hdr = (struct msghdr){.msg_iov = h->iov[i], .msg_iovlen = 1};
	}
	uint32_t got = 0;
	while (got < count) {
		struct pollfd p = {.fd = h->s, .events = POLLIN};
		if (poll(&p, 1, 2000) <= 0) /* a first read maps and fills the RX buffer */
			break;
		int r = recvmmsg(h->s, h->mm, BATCH, MSG_DONTWAIT, NULL);
		for (int i = 0; i < r; i++) {
			const uint8_t *b = h->rx[i];
			uint32_t st = ws_get_be32(b + 26), n = ws_get_be32(b + 30);
			if (h->mm[i].msg_len < WS_WIRE_SAMPLE_PKT_HDR ||
			    ws_get_be16(b + 10) != h->seq || st < start || n > count ||
			    st - start > count - n ||
			    h->mm[i].msg_len != WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)n)
				continue;
			memcpy(dst + (size_t)(st - start) * 4, b + WS_WIRE_SAMPLE_PKT_HDR,
			       (size_t)n * 4);
			got += n;
		}
	}
	return got;
}

static uint32_t read_all(host *h, uint16_t buffer, uint32_t n, uint8_t *dst)
{
	uint32_t got = 0;
	for (uint32_t pos = 0; pos < n; pos += (uint32_t)h->chunk) {
		uint32_t cnt = n - pos < h->chunk ? n - pos : (uint32_t)h->chunk;
		got += read_chunk(h, buffer, pos, cnt, dst + (size_t)pos * 4);
	}
	return got;
}

/* Write IQ of n wire words from src; returns 1 when acknowledged with status 0 and a
 * matching checksum, 0 otherwise. */
static int write_all(host *h, uint16_t mask, uint32_t n, const uint8_t *src)
{
	ws_wire_csum cs;
	ws_wire_csum_reset(&cs);
	uint32_t pos = 0;
	uint16_t last_seq = 0;
	while (pos < n) {
		unsigned k;
		for (k = 0; k < BATCH && pos < n; k++) {
			uint32_t cnt = n - pos < h->spp ? n - pos : h->spp;
			int last = pos + cnt >= n;
			size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)cnt;
			ws_wire_transport t = {.src_id = WS_WIRE_HOST_ID_DEFAULT,
					       .pkt_type = 1,
					       .length = ws_wire_host_length(len),
					       .seq = ++h->seq,
					       .flags = last ? WS_WIRE_FLAG_ROBUST : 0};
			ws_wire_cmd c = {.cmd = WS_WIRE_CMD_WRITE_IQ,
					 .length = (uint16_t)(12 + 4 * cnt),
					 .num_args = 1};
			/* clang-format off */
			ws_wire_sample_hdr sh = {
				.buffer = mask, .start = pos, .count = cnt,
				.flags = (uint8_t)((pos == 0 ? WS_WIRE_SFLAG_CHECKSUM_RESET : 0) |
						   (last ? WS_WIRE_SFLAG_LAST_WRITE : 0))};
			ws_wire_build(h->hdr[k], WS_WIRE_SAMPLE_PKT_HDR, &t, &c, NULL, 0);
			ws_wire_put_sample_hdr(h->hdr[k] + WS_WIRE_OFF_ARGS, 12, &sh);
			ws_wire_csum_packet(&cs, pos, ws_get_be32(src + 4 * ((size_t)pos + cnt - 1)));
			h->iov[k][0] = (struct iovec){h->hdr[k], WS_WIRE_SAMPLE_PKT_HDR};
			h->iov[k][1] = (struct iovec){(void *)(src + 4 * (size_t)pos), 4 * (size_t)cnt};
			h->mm[k].msg_hdr = (struct msghdr){.msg_name = &h->node,
							   .msg_namelen = sizeof h->node,
							   .msg_iov = h->iov[k], .msg_iovlen = 2};
			pos += cnt;
			last_seq = h->seq;
		}
		for (unsigned done = 0; done < k;) {
			int r = sendmmsg(h->s, h->mm + done, k - done, 0);
			if (r < 0 && errno != EINTR && errno != ENOBUFS && errno != EAGAIN)
				return 0;
			done += r > 0 ? (unsigned)r : 0;
		}
	}
	uint8_t b[256];
	int64_t end = ws_clock_ns() + 2 * WS_NS_PER_SEC;
	int r;
	while ((r = host_recv(h, b, sizeof b, ws_clock_ms_until(end))) >= 0) {
		if (r >= 34 && ws_get_be16(b + 10) == last_seq &&
		    ws_get_be32(b + 14) == WS_WIRE_CMD_WRITE_IQ)
			return ws_get_be32(b + 22) == 0 &&
			       ws_get_be32(b + 30) == ws_wire_csum_value(&cs);
	}
	return 0;
}

static void trigger(host *h)
{
	uint8_t b[32];
	ws_wire_transport t = {.dest_id = 0xFFFF, .src_id = WS_WIRE_HOST_ID_DEFAULT, .length = 4,
			       .seq = ++h->seq};
	uint32_t ids = 1;
	int len = ws_wire_build(b, sizeof b, &t, NULL, &ids, 1);
	host_send(h, &h->bnode, b, (size_t)len);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int64_t thread_cpu_ns(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * WS_NS_PER_SEC + ts.tv_nsec;
}

/* ---- the check mode ----------------------------------------------------------------------- */

static int check(host *h, const opts *o)
{
	uint8_t b[256];
	int ok = 1;
	uint32_t n = o->samples;
	int r = host_cmd(h, WS_WIRE_CMD_PING, NULL, 0, b, sizeof b);
	printf("%s ping\n", r == 22 ? "PASS" : "FAIL");
	ok &= r == 22;
	r = host_cmd(h, WS_WIRE_CMD_NODE_INFO, NULL, 0, b, sizeof b);
	int info_ok = r == 22 + 52 && ws_get_be32(b + 22 + 20) == 0x03070701;
	printf("%s node_info%s\n", info_ok ? "PASS" : "FAIL", info_ok ? "" : ": bad reply");
	ok &= info_ok;
	uint8_t *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
	srand(1);
	for (size_t i = 0; i < (size_t)n * 4; i++)
		x[i] = (uint8_t)rand();
	int w = write_all(h, o->mask, n, x);
	printf("%s write_iq%s\n", w ? "PASS" : "FAIL", w ? "" : ": no ack or checksum mismatch");
	ok &= w;
	trigger(h);
	ws_clock_sleep_ns(50 * WS_NS_PER_MS); /* the trigger goes to another port */
	for (int rf = 0; rf < 4; rf++) {
		if (!(o->mask >> rf & 1))
			continue;
		memset(y, 0, (size_t)n * 4);
		uint32_t got = read_all(h, (uint16_t)(1u << rf), n, y);
		int same = got == n && memcmp(x, y, (size_t)n * 4) == 0;
		printf("%s read_iq_rf%c%s\n", same ? "PASS" : "FAIL", 'a' + rf,
		       same ? "" : ": samples differ after write + trigger");
		ok &= same;
	}
	free(x);
	free(y);
	return ok ? 0 : 1;
}

/* ---- the benchmark ------------------------------------------------------------------------ */

typedef struct node_thr {
	ws_node *node;
	pthread_t tid;
	clockid_t cpu;
} node_thr;
/* clang-format on */

static void *node_main(void *arg)
{
	ws_node_run(((node_thr *)arg)->node, NULL);
	return NULL;
}

static int bench(host *h, const opts *o, node_thr *nt)
{
	uint32_t n = o->samples, pkts = (n + h->spp - 1) / h->spp;
	uint8_t *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
	double rgbps[MAX_ROUNDS], wgbps[MAX_ROUNDS], rcpu[MAX_ROUNDS], wcpu[MAX_ROUNDS];
	double hr[MAX_ROUNDS], hw[MAX_ROUNDS];
	int lost = 0, bad = 0;
	for (size_t i = 0; i < (size_t)n * 4; i++)
		x[i] = (uint8_t)(i * 2654435761u >> 13);
	for (int r = -1; r < o->rounds; r++) {
		int64_t c0 = nt ? thread_cpu_ns(nt->cpu) : 0, t0 = ws_clock_ns();
		int64_t h0 = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);
		uint32_t got = read_all(h, WS_WIRE_RF_A, n, y);
		int64_t t1 = ws_clock_ns(), c1 = nt ? thread_cpu_ns(nt->cpu) : 0;
		int64_t h1 = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);
		int ok = write_all(h, WS_WIRE_RF_A, n, x);
		int64_t t2 = ws_clock_ns(), c2 = nt ? thread_cpu_ns(nt->cpu) : 0;
		int64_t h2 = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);
		if (getenv("IQ_BENCH_VERBOSE"))
			fprintf(stderr, "round %d: read %u/%u in %.1f ms, write %s in %.1f ms\n", r,
				got, n, (t1 - t0) / 1e6, ok ? "ok" : "FAILED", (t2 - t1) / 1e6);
		if (r < 0)
			continue;
		lost += got != n;
		bad += !ok;
		rgbps[r] = (double)n * 32 / (double)(t1 - t0);
		wgbps[r] = (double)n * 32 / (double)(t2 - t1);
		rcpu[r] = (double)(c1 - c0) / pkts / 1000;
		wcpu[r] = (double)(c2 - c1) / pkts / 1000;
		hr[r] = (double)(h1 - h0) / pkts / 1000;
		hw[r] = (double)(h2 - h1) / pkts / 1000;
	}
	double mr = median(rgbps, o->rounds), mw = median(wgbps, o->rounds);
	printf("read  %u samples x %d rounds, payload %u (%u samples/pkt): median %.2f Gb/s IQ, "
	       "node CPU %.2f us/packet (host %.2f), incomplete rounds %d\n",
	       n, o->rounds, o->payload, h->spp, mr, nt ? median(rcpu, o->rounds) : 0.0,
	       median(hr, o->rounds), lost);
	printf("write %u samples x %d rounds, payload %u (%u samples/pkt): median %.2f Gb/s IQ, "
	       "node CPU %.2f us/packet (host %.2f), checksum failures %d\n",
	       n, o->rounds, o->payload, h->spp, mw, nt ? median(wcpu, o->rounds) : 0.0,
	       median(hw, o->rounds), bad);
	free(x);
	free(y);
	if (lost || bad || mr < o->expect_read || mw < o->expect_write)
		return 1;
	return 0;
}

static int parse_addr(const char *s, struct sockaddr_in *a)
{
	char ip[64];
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof ip)
		return -1;
	memcpy(ip, s, (size_t)(colon - s));
	ip[colon - s] = 0;
	*a = (struct sockaddr_in){.sin_family = AF_INET,
				  .sin_port = htons((uint16_t)atoi(colon + 1))};
	return inet_pton(AF_INET, ip, &a->sin_addr) == 1 ? 0 : -1;
}

static int parse(int argc, char **argv, opts *o)
{
	static const struct option lo[] = {
		{"samples", 1, NULL, 's'},      {"rounds", 1, NULL, 'r'},
		{"max-payload", 1, NULL, 'p'},  {"connect", 1, NULL, 'c'},
		{"bcast-port", 1, NULL, 'b'},   {"check", 0, NULL, 'k'},
		{"mask", 1, NULL, 'm'},         {"expect-read", 1, NULL, 'R'},
		{"expect-write", 1, NULL, 'W'}, {NULL, 0, NULL, 0}};
	*o = (opts){.samples = 1u << 25, .payload = 8964, .rounds = 5, .mask = 1};
	int c;
	uint64_t v;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			if (ws_units_parse_size(optarg, &v, NULL) < 0 || v < 1 || v > (1u << 27))
				return -1;
			o->samples = (uint32_t)v;
			break;
		case 'r':
			o->rounds = atoi(optarg);
			break;
		case 'p':
			o->payload = (uint32_t)atoi(optarg);
			break;
		case 'c':
			if (parse_addr(optarg, &o->connect) < 0)
				return -1;
			o->have_connect = 1;
			break;
		case 'b':
			o->bport = atoi(optarg);
			break;
		case 'k':
			o->check = 1;
			break;
		case 'm':
			o->mask = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'R':
			o->expect_read = atof(optarg);
			break;
		case 'W':
			o->expect_write = atof(optarg);
			break;
		default:
			return -1;
		}
	}
	if (o->rounds < 1 || o->rounds > MAX_ROUNDS || o->payload < 48 || o->payload > 8964 ||
	    !o->mask || o->mask > 15)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	opts o;
	if (parse(argc, argv, &o) < 0) {
		fprintf(stderr,
			"usage: iq_node_bench [--samples N (<=128M)] [--rounds 1..64] "
			"[--max-payload 48..8964] [--connect A.B.C.D:PORT --bcast-port P "
			"[--check] [--mask 1..15]] [--expect-read GBPS] [--expect-write GBPS]\n");
		return 2;
	}
	host h = {0};
	if (host_open(&h, &o) < 0)
		return 1;
	node_thr nt = {0};
	if (o.have_connect) {
		h.node = h.bnode = o.connect;
		h.bnode.sin_port =
			htons((uint16_t)(o.bport ? o.bport : WS_NODE_DEFAULT_BCAST_PORT));
	} else {
		ws_node_config c;
		ws_err err;
		ws_node_config_default(&c);
		c.bind_addr = "127.0.0.1";
		c.port = 0;
		c.bcast_port = 0;
		c.max_payload = o.payload;
		c.rf = o.mask > 3 ? 4 : 2;
		/* This measures the engine, so no per-source reply cap (a node's default is
		 * the board's 1 Gb/s); said on stderr. */
		c.reply_rate_bps = 0;
		if (ws_node_create(&c, &nt.node, &err) < 0) {
			fprintf(stderr, "iq_node_bench: %s\n", err.msg);
			return 1;
		}
		ws_node_info in;
		ws_node_get_info(nt.node, &in);
		fprintf(stderr, "iq_node_bench: in-process node on 127.0.0.1:%d, reply cap off\n",
			in.port);
		h.node = (struct sockaddr_in){.sin_family = AF_INET,
					      .sin_port = htons((uint16_t)in.port),
					      .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		h.bnode = h.node;
		h.bnode.sin_port = htons((uint16_t)in.bcast_port);
		pthread_create(&nt.tid, NULL, node_main, &nt);
		pthread_getcpuclockid(nt.tid, &nt.cpu);
	}
	int rc = o.check ? check(&h, &o) : bench(&h, &o, o.have_connect ? NULL : &nt);
	if (nt.node) {
		ws_node_counters k;
		ws_node_get_counters(nt.node, &k);
		printf("node: read packets %llu, write packets %llu, send waits %llu, send errors "
		       "%llu, malformed %llu\n",
		       (unsigned long long)k.read_packets, (unsigned long long)k.write_packets,
		       (unsigned long long)k.send_waits, (unsigned long long)k.send_errors,
		       (unsigned long long)k.malformed);
		ws_node_stop(nt.node);
		pthread_join(nt.tid, NULL);
		ws_node_destroy(nt.node);
	}
	close(h.s);
	free(h.rx);
	free(h.hdr);
	return rc;
}
