/* SPDX-License-Identifier: BSD-2-Clause */
/* iq_proxy: a UDP impairment proxy between an IQ host and a node, for the faults netem
 * would give but this kernel lacks (reordering, duplication) and for deterministic loss.
 *
 * It listens on a loopback port for the host and relays each datagram to the node from one
 * upstream socket, and each answer back to the last host address seen. Per direction, with
 * a fixed seed (xorshift), it drops, duplicates, or holds a datagram back until the next
 * one has passed (reordering; a held datagram is released after 2 ms at most), and can
 * inject forged node answers (a corrupted copy with another seq, or from another node ID)
 * that a correct host must count and ignore. --mute-after N stops relaying node answers
 * after N of them, a node that stops answering mid-transfer. --drop-triggers N drops the
 * first N trigger datagrams from the host (a lost trigger, deterministically), and
 * --trigger-counter count answers warpspeed's trigger counter query (0x50575301, iq.h)
 * itself with the count of triggers it passed to the node, a test double of `warpspeed
 * node`'s counter (the query and its answer go through the same impairments);
 * --trigger-counter empty answers it with an empty acknowledgement, as a node without the
 * query does. --rate MBPS --queue BYTES [--burst BYTES] shapes node->host as tbf does: a
 * token bucket of BYTES burst refilled at MBPS, and a queue of at most --queue bytes in
 * front of it whose overflow is dropped (a switch port with small buffers: the loopback
 * stand-in of the testbed's shallow-queue bed). All static, so the
 * unit test can include this file with IQ_PROXY_NO_MAIN and run the proxy in a thread.
 *
 * usage: iq_proxy --node A.B.C.D:PORT [--listen PORT] [--loss PCT] [--dup PCT]
 *                 [--reorder PCT] [--bad-seq PCT] [--bad-id PCT] [--seed N]
 *                 [--dir both|up|down] [--mute-after N] [--drop-triggers N]
 *                 [--trigger-counter count|empty] [--rate MBPS --queue BYTES
 *                 [--burst BYTES]]
 * Prints "iq_proxy: listening on 127.0.0.1:PORT" on stderr, counters on SIGTERM/SIGINT. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PX_SLOT    65536
#define PX_HOLD_NS 2000000LL

typedef struct px_cfg {
	struct sockaddr_in node;
	int listen_port;           /* 0 = ephemeral */
	double loss, dup, reorder; /* probabilities 0..1, per datagram */
	double bad_seq, bad_id;    /* node->host only: forged copies */
	int up, down;              /* which directions are impaired */
	uint64_t seed;
	uint64_t mute_after;    /* 0 = never */
	uint64_t drop_triggers; /* the first N triggers from the host are dropped */
	int trigger_counter;    /* the counter query: 0 relay, 1 our count, 2 empty ack */
	double rate_bps;        /* node->host shaping: 0 = none */
	uint64_t queue, burst;  /* its queue limit and bucket, bytes */
} px_cfg;

#define PX_SHAPE_SLOTS 512 /* datagrams the shaper's queue can hold at most */

typedef struct px_shape {
	uint8_t *buf; /* PX_SHAPE_SLOTS slots of PX_SLOT bytes */
	size_t len[PX_SHAPE_SLOTS];
	size_t head, n;
	uint64_t bytes; /* queued */
	double tokens;  /* bytes */
	int64_t last_ns;
	uint64_t queued, overflow;
} px_shape;

typedef struct px_dir {
	uint64_t rng;
	uint8_t held[PX_SLOT];
	size_t held_len;
	int64_t held_at;
	uint64_t in, out, dropped, duped, reordered, forged;
} px_dir;

typedef struct px {
	px_cfg cfg;
	int hfd, nfd; /* host-facing, node-facing */
	struct sockaddr_in host;
	int have_host;
	volatile int stop;
	uint8_t buf[PX_SLOT];
	px_dir d[2]; /* 0 host->node, 1 node->host */
	uint64_t triggers_dropped, triggers_passed, counter_queries;
	px_shape sh;
} px;

#define PX_CMD_TRIGGER_COUNTER 0x50575301u

static uint32_t px_be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void px_put_be32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

/* A trigger: transport pkt_type 0 (pad 2 + 5 bytes in). */
static int px_is_trigger(const uint8_t *b, size_t len) { return len >= 18 && b[7] == 0; }

static int px_is_counter_query(const uint8_t *b, size_t len)
{
	return len >= 22 && b[7] == 1 && px_be32(b + 14) == PX_CMD_TRIGGER_COUNTER;
}

static int64_t px_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double px_rand(px_dir *d)
{
	uint64_t x = d->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	d->rng = x;
	return (double)(x >> 11) / 9007199254740992.0;
}

static void px_bufs(int fd)
{
	int sz = 64 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof sz) < 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
}

/* Opens both sockets; returns the listening port or -1. */
static int px_open(px *p, const px_cfg *c)
{
	memset(p, 0, sizeof *p);
	p->cfg = *c;
	p->d[0].rng = c->seed * 2654435761u + 1;
	p->d[1].rng = c->seed * 40503u + 7;
	p->hfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	p->nfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->hfd < 0 || p->nfd < 0)
		return -1;
	if (c->rate_bps > 0) {
		p->sh.buf = malloc((size_t)PX_SHAPE_SLOTS * PX_SLOT);
		if (!p->sh.buf)
			return -1;
		p->sh.tokens = (double)c->burst;
		p->sh.last_ns = px_now();
	}
	px_bufs(p->hfd);
	px_bufs(p->nfd);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)c->listen_port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof a;
	if (bind(p->hfd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    getsockname(p->hfd, (struct sockaddr *)&a, &sl) < 0 ||
	    connect(p->nfd, (const struct sockaddr *)&c->node, sizeof c->node) < 0)
		return -1;
	return ntohs(a.sin_port);
}

static void px_close(px *p)
{
	free(p->sh.buf);
	p->sh.buf = NULL;
	if (p->hfd >= 0)
		close(p->hfd);
	if (p->nfd >= 0)
		close(p->nfd);
}

static int64_t px_now(void);

static void px_send_host(px *p, const uint8_t *b, size_t len)
{
	if (p->have_host)
		sendto(p->hfd, b, len, 0, (const struct sockaddr *)&p->host, sizeof p->host);
}

static void px_refill(px *p)
{
	px_shape *s = &p->sh;
	int64_t now = px_now();
	s->tokens += (double)(now - s->last_ns) * p->cfg.rate_bps / 8e9;
	if (s->tokens > (double)p->cfg.burst)
		s->tokens = (double)p->cfg.burst;
	s->last_ns = now;
}

/* Sends what the bucket allows from the head of the queue; returns ns until the next
 * datagram may go (-1: the queue is empty). */
static int64_t px_shape_drain(px *p)
{
	px_shape *s = &p->sh;
	px_refill(p);
	while (s->n && s->tokens >= (double)s->len[s->head]) {
		size_t l = s->len[s->head];
		s->tokens -= (double)l;
		px_send_host(p, s->buf + s->head * PX_SLOT, l);
		s->bytes -= l;
		s->head = (s->head + 1) % PX_SHAPE_SLOTS;
		s->n--;
	}
	if (!s->n)
		return -1;
	return (int64_t)(((double)s->len[s->head] - s->tokens) * 8e9 / p->cfg.rate_bps) + 1;
}

/* A datagram to the host through the shaper: queued, or dropped when the queue is full. */
static void px_shape_put(px *p, const uint8_t *b, size_t len)
{
	px_shape *s = &p->sh;
	px_shape_drain(p);
	if (!s->n && s->tokens >= (double)len) {
		s->tokens -= (double)len;
		px_send_host(p, b, len);
		return;
	}
	if (s->bytes + len > p->cfg.queue || s->n == PX_SHAPE_SLOTS) {
		s->overflow++;
		return;
	}
	size_t i = (s->head + s->n++) % PX_SHAPE_SLOTS;
	memcpy(s->buf + i * PX_SLOT, b, len);
	s->len[i] = len;
	s->bytes += len;
	s->queued++;
}

static void px_emit(px *p, int dir, const uint8_t *b, size_t len)
{
	if (dir == 0 && px_is_trigger(b, len))
		p->triggers_passed++;
	if (dir == 0)
		send(p->nfd, b, len, 0);
	else if (p->cfg.rate_bps > 0)
		px_shape_put(p, b, len);
	else
		px_send_host(p, b, len);
	p->d[dir].out++;
}

/* A forged answer: the datagram with its samples inverted and either the seq moved or
 * the source node ID changed; a host that placed it would return wrong samples. */
static void px_forge(px *p, const uint8_t *b, size_t len, int kind)
{
	uint8_t f[PX_SLOT];
	memcpy(f, b, len);
	for (size_t i = 34; i < len; i++)
		f[i] = (uint8_t)~f[i];
	if (len >= 14) {
		if (kind == 0) {
			f[10] ^= 0x5A; /* seq, high byte */
		} else {
			f[4] ^= 0x01; /* src node ID, low byte */
		}
	}
	px_emit(p, 1, f, len);
	p->d[1].forged++;
}

static void px_release(px *p, int dir)
{
	px_dir *d = &p->d[dir];
	if (d->held_len) {
		px_emit(p, dir, d->held, d->held_len);
		d->held_len = 0;
	}
}

static void px_relay(px *p, int dir, const uint8_t *b, size_t len);

/* The answer of `warpspeed node` to the trigger counter query: [WSPD, count high, low]. */
static void px_answer_counter(px *p, const uint8_t *q)
{
	uint8_t a[34] = {0};
	memcpy(a + 2, q + 4, 2);   /* dest = the query's src */
	memcpy(a + 4, q + 2, 2);   /* src = the node ID the query named */
	a[7] = 2;                  /* node -> host */
	a[9] = 32;                 /* length: payload + 2 */
	memcpy(a + 10, q + 10, 2); /* seq */
	memcpy(a + 14, q + 14, 4); /* cmd */
	a[19] = 12;
	a[21] = 3;
	px_put_be32(a + 22, 0x57535044u);
	px_put_be32(a + 26, (uint32_t)(p->triggers_passed >> 32));
	px_put_be32(a + 30, (uint32_t)p->triggers_passed);
	p->counter_queries++;
	if (p->cfg.trigger_counter == 2) { /* an empty acknowledgement */
		a[9] = 20;
		a[19] = a[21] = 0;
		px_relay(p, 1, a, 22);
		return;
	}
	px_relay(p, 1, a, sizeof a);
}

static void px_relay(px *p, int dir, const uint8_t *b, size_t len)
{
	px_dir *d = &p->d[dir];
	int impair = dir == 0 ? p->cfg.up : p->cfg.down;
	d->in++;
	if (dir == 0 && px_is_trigger(b, len) && p->triggers_dropped < p->cfg.drop_triggers) {
		p->triggers_dropped++;
		d->dropped++;
		return;
	}
	if (dir == 1 && p->cfg.mute_after && d->in > p->cfg.mute_after) {
		d->dropped++;
		return;
	}
	if (impair && px_rand(d) < p->cfg.loss) {
		d->dropped++;
		return;
	}
	if (dir == 0 && p->cfg.trigger_counter && px_is_counter_query(b, len)) {
		px_answer_counter(p, b);
		return;
	}
	if (dir == 1 && impair && px_rand(d) < p->cfg.bad_seq)
		px_forge(p, b, len, 0);
	if (dir == 1 && impair && px_rand(d) < p->cfg.bad_id)
		px_forge(p, b, len, 1);
	if (impair && !d->held_len && px_rand(d) < p->cfg.reorder) {
		memcpy(d->held, b, len);
		d->held_len = len;
		d->held_at = px_now();
		d->reordered++;
		return;
	}
	px_emit(p, dir, b, len);
	if (impair && px_rand(d) < p->cfg.dup) {
		px_emit(p, dir, b, len);
		d->duped++;
	}
	px_release(p, dir);
}

static void px_run(px *p)
{
	struct pollfd f[2] = {{.fd = p->hfd, .events = POLLIN}, {.fd = p->nfd, .events = POLLIN}};
	while (!p->stop) {
		int64_t next = p->cfg.rate_bps > 0 ? px_shape_drain(p) : -1;
		struct timespec ts = {0, next >= 0 && next < 1000000 ? (long)next : 1000000};
		ppoll(f, 2, &ts, NULL);
		for (int dir = 0; dir < 2; dir++) {
			px_dir *d = &p->d[dir];
			if (d->held_len && px_now() - d->held_at > PX_HOLD_NS)
				px_release(p, dir);
		}
		for (int burst = 0; burst < 256; burst++) {
			struct sockaddr_in from;
			socklen_t fl = sizeof from;
			ssize_t r = recvfrom(p->hfd, p->buf, sizeof p->buf, MSG_DONTWAIT,
					     (struct sockaddr *)&from, &fl);
			int got = 0;
			if (r >= 0) {
				p->host = from;
				p->have_host = 1;
				px_relay(p, 0, p->buf, (size_t)r);
				got = 1;
			}
			r = recv(p->nfd, p->buf, sizeof p->buf, MSG_DONTWAIT);
			if (r >= 0) {
				px_relay(p, 1, p->buf, (size_t)r);
				got = 1;
			}
			if (!got)
				break;
		}
	}
}

__attribute__((unused)) static int px_parse_addr(const char *s, struct sockaddr_in *a)
{
	char ip[64];
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof ip)
		return -1;
	memcpy(ip, s, (size_t)(colon - s));
	ip[colon - s] = 0;
	int port = atoi(colon + 1);
	*a = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	return port > 0 && port < 65536 && inet_pton(AF_INET, ip, &a->sin_addr) == 1 ? 0 : -1;
}

#ifndef IQ_PROXY_NO_MAIN
static px g_px; /* a program, not library code: the signal handler needs it */

static void px_on_signal(int sig)
{
	(void)sig;
	g_px.stop = 1;
}

int main(int argc, char **argv)
{
	px_cfg c = {.up = 1, .down = 1, .seed = 1};
	int have_node = 0;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			goto usage;
		if (!strcmp(o, "--node"))
			have_node = px_parse_addr(v, &c.node) == 0;
		else if (!strcmp(o, "--listen"))
			c.listen_port = atoi(v);
		else if (!strcmp(o, "--loss"))
			c.loss = atof(v) / 100;
		else if (!strcmp(o, "--dup"))
			c.dup = atof(v) / 100;
		else if (!strcmp(o, "--reorder"))
			c.reorder = atof(v) / 100;
		else if (!strcmp(o, "--bad-seq"))
			c.bad_seq = atof(v) / 100;
		else if (!strcmp(o, "--bad-id"))
			c.bad_id = atof(v) / 100;
		else if (!strcmp(o, "--seed"))
			c.seed = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--mute-after"))
			c.mute_after = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--drop-triggers"))
			c.drop_triggers = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--trigger-counter") && !strcmp(v, "count"))
			c.trigger_counter = 1;
		else if (!strcmp(o, "--trigger-counter") && !strcmp(v, "empty"))
			c.trigger_counter = 2;
		else if (!strcmp(o, "--rate"))
			c.rate_bps = atof(v) * 1e6;
		else if (!strcmp(o, "--queue"))
			c.queue = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--burst"))
			c.burst = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--dir")) {
			c.up = strcmp(v, "down") != 0;
			c.down = strcmp(v, "up") != 0;
		} else
			goto usage;
		i++;
	}
	if (!have_node || (c.rate_bps > 0 && !c.queue))
		goto usage;
	if (c.rate_bps > 0 && c.burst < PX_SLOT)
		c.burst = PX_SLOT; /* the bucket must take the largest datagram */
	int port = px_open(&g_px, &c);
	if (port < 0) {
		fprintf(stderr, "iq_proxy: cannot open sockets: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGTERM, px_on_signal);
	signal(SIGINT, px_on_signal);
	fprintf(stderr, "iq_proxy: listening on 127.0.0.1:%d\n", port);
	px_run(&g_px);
	for (int d = 0; d < 2; d++)
		fprintf(stderr,
			"iq_proxy: %s in %llu out %llu dropped %llu duplicated %llu "
			"reordered %llu forged %llu\n",
			d ? "node->host" : "host->node", (unsigned long long)g_px.d[d].in,
			(unsigned long long)g_px.d[d].out, (unsigned long long)g_px.d[d].dropped,
			(unsigned long long)g_px.d[d].duped,
			(unsigned long long)g_px.d[d].reordered,
			(unsigned long long)g_px.d[d].forged);
	fprintf(stderr,
		"iq_proxy: triggers passed %llu dropped %llu, counter queries answered "
		"%llu\n",
		(unsigned long long)g_px.triggers_passed, (unsigned long long)g_px.triggers_dropped,
		(unsigned long long)g_px.counter_queries);
	if (c.rate_bps > 0)
		fprintf(stderr, "iq_proxy: shaper queued %llu, dropped %llu at a full queue\n",
			(unsigned long long)g_px.sh.queued, (unsigned long long)g_px.sh.overflow);
	px_close(&g_px);
	return 0;
usage:
	fprintf(stderr,
		"usage: iq_proxy --node A.B.C.D:PORT [--listen PORT] [--loss PCT] "
		"[--dup PCT] [--reorder PCT] [--bad-seq PCT] [--bad-id PCT] [--seed N] "
		"[--dir both|up|down] [--mute-after N] [--drop-triggers N] "
		"[--trigger-counter count|empty] [--rate MBPS --queue BYTES [--burst BYTES]]\n");
	return 2;
}
#endif
