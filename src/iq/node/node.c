/* SPDX-License-Identifier: BSD-2-Clause */
/* node: the WARP v3 / WARPLab 7.7.1 emulator engine's life cycle and loop; see node.h.
 *
 * One thread, like the board's MicroBlaze: a poll over the unicast socket, the broadcast
 * socket and a stop eventfd; datagrams arrive in recvmmsg batches. Each is first checked
 * against the allow list (denied: counted, dropped), then either answered at once
 * (node_cmd.c) or, when its source has a Read IQ stream running, held back until that
 * stream ends, so a source's requests are served in order, as the board would; a source
 * holds at most its share of the hold slots. Between batches the loop advances every
 * running stream by one turn (a quantum of bytes), least served first, each as its
 * source's rate cap and the total cap allow, and sleeps in poll until the next datagram or
 * the next stream's tokens. One source's pacing therefore never stalls another source,
 * and a few sources asking for gigabytes do not slow a host's short read (issue 27). This
 * file also creates and destroys the node. */
#include "iq/node/node_cmd.h"
#include "iq/node/node_stream.h"

#include "util/clock.h"
#include "util/err.h"
#include "util/features.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

uint32_t ws_node_test_sample(int rf, uint32_t i) { return ws_node_mem_signal_word(rf, i); }

void ws_node_config_default(ws_node_config *c)
{
	memset(c, 0, sizeof *c);
	c->serial = WS_NODE_DEFAULT_SERIAL;
	c->port = WS_NODE_DEFAULT_PORT;
	c->bcast_port = WS_NODE_DEFAULT_BCAST_PORT;
	c->rf = 2;
	c->max_payload = WS_NODE_DEFAULT_MAX_PAYLOAD;
	c->tx_samples = WS_NODE_DEFAULT_TX_SAMPLES;
	c->rx_samples = WS_NODE_DEFAULT_RX_SAMPLES;
	c->channel = WS_NODE_CHANNEL_LOOPBACK;
	c->sock_buf = 64 << 20;
	c->gso = 1;
	c->reply_rate_bps = WS_NODE_DEFAULT_REPLY_RATE;
	c->reply_burst = WS_NODE_DEFAULT_REPLY_BURST;
}

/* ---- held datagrams -------------------------------------------------------------------- */

static unsigned held_from(const ws_node *n, uint32_t addr)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n->n_held; i++)
		k += ws_node_peer_addr(&n->held[i].peer) == addr;
	return k;
}

/* The held datagram of the source holding the most (its newest), when that source holds
 * more than `than`; -1 otherwise. */
static int fattest_held(const ws_node *n, unsigned than)
{
	int best = -1;
	unsigned most = than;
	for (unsigned i = 0; i < n->n_held; i++) {
		unsigned k = held_from(n, ws_node_peer_addr(&n->held[i].peer));
		if (k > most ||
		    (k == most && best >= 0 &&
		     ws_node_peer_addr(&n->held[i].peer) ==
			     ws_node_peer_addr(&n->held[best].peer))) {
			most = k;
			best = (int)i;
		}
	}
	return best;
}

/* Keeps a copy of a datagram until its source's stream ends. A source holds at most
 * WS_NODE_HOLD_PER_SOURCE, and when all slots are taken the source holding the most gives
 * up its newest, so that each source keeps a fair share of the slots; what cannot be
 * held is dropped (backlog_drops). */
static void hold(ws_node *n, const ws_node_peer *p, const uint8_t *pkt, size_t len, int64_t arrival)
{
	unsigned mine = held_from(n, ws_node_peer_addr(p));
	if (mine >= WS_NODE_HOLD_PER_SOURCE) {
		WS_NODE_BUMP(n, backlog_drops, 1);
		return;
	}
	if (!n->n_free) {
		int v = fattest_held(n, mine + 1);
		if (v < 0) {
			WS_NODE_BUMP(n, backlog_drops, 1);
			return;
		}
		WS_NODE_BUMP(n, backlog_drops, 1);
		n->free_slots[n->n_free++] = n->held[v].slot;
		memmove(&n->held[v], &n->held[v + 1],
			(n->n_held - (unsigned)v - 1) * sizeof n->held[0]);
		n->n_held--;
	}
	unsigned slot = n->free_slots[--n->n_free];
	memcpy(n->hbuf + (size_t)slot * n->slot_size, pkt, len);
	n->held[n->n_held++] =
		(ws_node_held){.peer = *p, .arrival = arrival, .len = (uint32_t)len, .slot = slot};
	WS_NODE_BUMP(n, held, 1);
}

/* Answers what addr's source sent while its stream ran, oldest first, until one of them
 * starts a new stream (the rest wait for that one). */
static void release(ws_node *n, uint32_t addr)
{
	for (unsigned i = 0; i < n->n_held && !ws_node_stream_busy(n, addr);) {
		ws_node_held h = n->held[i];
		if (ws_node_peer_addr(&h.peer) != addr) {
			i++;
			continue;
		}
		memmove(&n->held[i], &n->held[i + 1], (n->n_held - i - 1) * sizeof n->held[0]);
		n->n_held--;
		ws_node_handle(n, &h.peer, n->hbuf + (size_t)h.slot * n->slot_size, h.len,
			       h.arrival);
		n->free_slots[n->n_free++] = h.slot;
	}
}

/* One received datagram: counted, checked against the allow list, answered or held. */
static void receive(ws_node *n, const ws_node_peer *p, const uint8_t *pkt, size_t len,
		    int64_t arrival)
{
	WS_NODE_BUMP(n, rx_packets, 1);
	WS_NODE_BUMP(n, rx_bytes, len);
	uint32_t addr = ws_node_peer_addr(p);
	if (!ws_node_allow_match(&n->allow, addr)) {
		WS_NODE_BUMP(n, denied, 1);
		return;
	}
	if (n->n_streams && (ws_node_stream_busy(n, addr) || held_from(n, addr))) {
		hold(n, p, pkt, len, arrival);
		return;
	}
	ws_node_handle(n, p, pkt, len, arrival);
}

/* ---- streams --------------------------------------------------------------------------- */

/* Advances every running stream by one batch, round robin, and answers what was held for
 * the sources whose stream ended. Returns the ns until a stream can go on (0: at once), or
 * -1 when none runs. */
static int64_t serve_streams(ws_node *n)
{
	int64_t wait = -1;
	if (n->orphans) {
		/* A preempted stream's source may have datagrams held behind nothing. */
		n->orphans = 0;
		for (unsigned i = 0; i < n->n_held; i++) {
			uint32_t a = ws_node_peer_addr(&n->held[i].peer);
			if (!ws_node_stream_busy(n, a)) {
				release(n, a);
				i = (unsigned)-1; /* release reorders the table: start over */
			}
		}
	}
	/* Least served first: a stream that has sent less goes before one that has sent
	 * more (ties in round-robin order), so while the total cap is short a host's short
	 * read is not queued behind a few endless ones. */
	unsigned order[WS_NODE_STREAMS], no = 0;
	for (unsigned k = 0; k < WS_NODE_STREAMS && no < n->n_streams; k++) {
		unsigned i = (n->next_stream + k) % WS_NODE_STREAMS, j = no++;
		if (!n->streams[i].active) {
			no--;
			continue;
		}
		for (; j > 0 && n->streams[order[j - 1]].sent > n->streams[i].sent; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (unsigned k = 0; k < no; k++) {
		ws_node_stream *s = &n->streams[order[k]];
		if (!s->active)
			continue;
		int64_t w = ws_node_stream_step(n, s, ws_clock_ns());
		if (w < 0) {
			release(n, ws_node_peer_addr(&s->peer));
			if (!s->active)
				continue;
			w = 0; /* a held request started the next stream */
		}
		if (wait < 0 || w < wait)
			wait = w;
	}
	n->next_stream = (n->next_stream + 1) % WS_NODE_STREAMS;
	return wait;
}

void ws_node_feed(ws_node *n, const uint8_t *pkt, size_t len)
{
	ws_node_peer p = {.fd = n->fd};
	p.addr.sin_family = AF_INET;
	p.addr.sin_port = htons(1);
	p.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	n->uncapped = 1;
	receive(n, &p, pkt, len, 0);
	for (int64_t w; (w = serve_streams(n)) >= 0;)
		if (w > 0)
			ws_clock_sleep_ns(w);
	n->uncapped = 0;
}

/* ---- socket loop --------------------------------------------------------------------------- */

static int serve_one(void *ctx, const ws_node_rx_item *it)
{
	ws_node *n = ctx;
	ws_node_peer p = {.fd = it->sock ? n->bfd : n->fd, .addr = it->from};
	receive(n, &p, it->pkt, it->len, it->arrival);
	return ws_node_stopping(n);
}

/* Reads what the sockets hold, in arrival order across both, a bounded number of batches
 * so that neither the streams nor a stop starves; ready and poll_ns are what the poll
 * before it saw (node_rx.h). Returns 0, or -errno for a socket error that will not go
 * away (*bad: which socket). */
static int drain(ws_node *n, unsigned ready, int64_t poll_ns, int *bad)
{
	int fds[2] = {n->fd, n->bfd};
	for (int round = 0; round < 16 && !ws_node_stopping(n); round++) {
		int r = ws_node_rx_round(&n->rx, fds, round ? WS_NODE_RX_UNKNOWN : ready, poll_ns,
					 serve_one, n, bad);
		if (r <= 0 || n->n_streams)
			return r < 0 ? r : 0;
	}
	return 0;
}

/* Waits for a datagram, a stop, or wait_ns (-1: for ever). With --pace-us a wait shorter
 * than the timer slack is spun, so the gaps stay exact. Otherwise a positive wait is for
 * rate tokens, and it lasts at least WS_NODE_TOKEN_WAIT_NS: the tokens wait in the bucket,
 * and a node whose streams all want the total's next packet sleeps instead of spinning
 * (issue 27: 16 sources kept it spinning, and an honest host lost its CPU). */
static int wait_input(const ws_node *n, struct pollfd *p, nfds_t np, int64_t wait_ns)
{
	if (!n->cfg.pace_us && wait_ns > 0 && wait_ns < WS_NODE_TOKEN_WAIT_NS)
		wait_ns = WS_NODE_TOKEN_WAIT_NS;
	if (wait_ns > 0 && wait_ns < 100 * WS_NS_PER_US) {
		ws_clock_spin_until(ws_clock_ns() + wait_ns);
		wait_ns = 0;
	}
	struct timespec ts = {.tv_sec = (time_t)(wait_ns / WS_NS_PER_SEC),
			      .tv_nsec = (long)(wait_ns % WS_NS_PER_SEC)};
	return ppoll(p, np, wait_ns < 0 ? NULL : &ts, NULL);
}

int ws_node_run(ws_node *n, ws_err *err)
{
	if (n->fd < 0)
		return ws_err_set(err, WS_E_INVAL, "node: run: this node has no sockets");
	struct pollfd p[3] = {{.fd = n->efd, .events = POLLIN},
			      {.fd = n->fd, .events = POLLIN},
			      {.fd = n->bfd, .events = POLLIN}};
	nfds_t np = n->bfd >= 0 ? 3 : 2;
	while (!ws_node_stopping(n)) {
		int64_t wait = serve_streams(n);
		if (ws_node_rx_pending(&n->rx))
			wait = 0;
		if (n->loglimit.pending && (wait < 0 || wait > WS_NODE_LOG_WINDOW_NS))
			wait = WS_NODE_LOG_WINDOW_NS; /* a summary is due within a window */
		if (ws_node_stopping(n))
			break;
		int64_t poll_ns = ws_clock_wall_ns();
		if (wait_input(n, p, np, wait) < 0) {
			if (errno == EINTR)
				continue;
			return ws_err_errno(err, "node: poll");
		}
		if (n->loglimit.pending && n->cfg.log)
			ws_node_loglimit_flush(&n->loglimit, ws_clock_ns(), n->cfg.log,
					       n->cfg.log_ctx);
		unsigned ready = 0;
		int bad = 0;
		for (nfds_t i = 1; i < np; i++)
			ready |= p[i].revents & (POLLIN | POLLERR) ? 1u << (i - 1) : 0;
		if (!ready && !ws_node_rx_pending(&n->rx))
			continue;
		int r = drain(n, ready, poll_ns, &bad);
		if (r < 0) {
			errno = -r;
			return ws_err_errno(err, "node: recvmmsg on port %d",
					    bad ? n->info.bcast_port : n->info.port);
		}
	}
	if (n->loglimit.pending && n->cfg.log) /* the last summaries, whatever their window */
		ws_node_loglimit_flush(&n->loglimit, ws_clock_ns() + WS_NODE_LOG_WINDOW_NS,
				       n->cfg.log, n->cfg.log_ctx);
	return 0;
}

void ws_node_stop(ws_node *n)
{
	__atomic_store_n(&n->stop, 1, __ATOMIC_RELAXED);
	if (n->efd >= 0) {
		uint64_t one = 1;
		ssize_t r = write(n->efd, &one, sizeof one);
		(void)r;
	}
}

/* ---- creation ------------------------------------------------------------------------------ */

static void set_buf(int fd, int opt_force, int opt, int bytes)
{
	if (bytes <= 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, opt_force, &bytes, sizeof bytes) < 0)
		setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof bytes);
}

static int open_udp(ws_node *n, struct in_addr addr, int port, int reuse, int *bound, ws_err *err)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ws_err_errno(err, "node: socket");
	int one = 1;
	if (reuse)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	set_buf(fd, SO_RCVBUFFORCE, SO_RCVBUF, n->cfg.sock_buf);
	set_buf(fd, SO_SNDBUFFORCE, SO_SNDBUF, n->cfg.sock_buf);
	/* Arrival times order the two sockets' datagrams (node_rx.h) and feed the board's
	 * slot model. */
	if ((n->cfg.rx_slots || n->cfg.bcast_port >= 0) &&
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) == 0)
		n->info.timestamps = 1;
	struct sockaddr_in sa = {
		.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = addr};
	socklen_t sl = sizeof sa;
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		int r = ws_err_errno(err, "node: bind %s:%d", inet_ntoa(addr), port);
		close(fd);
		return r;
	}
	getsockname(fd, (struct sockaddr *)&sa, &sl);
	*bound = ntohs(sa.sin_port);
	return fd;
}

/* Broadcasts are addressed to the subnet's broadcast address, not the node's, so the
 * broadcast socket of a node bound to one interface's address listens on any address
 * (the allow list still applies), except for a loopback node, which stays on loopback. */
static int open_sockets(ws_node *n, const ws_node_config *c, struct in_addr addr, ws_err *err)
{
	struct in_addr any = {.s_addr = htonl(INADDR_ANY)};
	n->fd = open_udp(n, addr, c->port, 0, &n->info.port, err);
	if (n->fd < 0)
		return n->fd;
	if (c->bcast_port >= 0) {
		struct in_addr baddr = (ntohl(addr.s_addr) >> 24) == 127 ? addr : any;
		n->bfd = open_udp(n, baddr, c->bcast_port, 1, &n->info.bcast_port, err);
		if (n->bfd < 0)
			return n->bfd;
	}
	/* Arrival order across the two sockets needs arrival stamps from the first datagram. */
	if (n->bfd >= 0 && n->info.timestamps)
		n->info.timestamps = ws_node_rx_wait_stamps(2 * WS_NS_PER_SEC);
	socklen_t sl = sizeof n->info.rcvbuf;
	getsockopt(n->fd, SOL_SOCKET, SO_RCVBUF, &n->info.rcvbuf, &sl);
	sl = sizeof n->info.sndbuf;
	getsockopt(n->fd, SOL_SOCKET, SO_SNDBUF, &n->info.sndbuf, &sl);
	n->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (n->efd < 0)
		return ws_err_errno(err, "node: eventfd");
	return 0;
}

static int check_config(const ws_node_config *c, ws_err *err)
{
	if (c->rf != 2 && c->rf != 4)
		return ws_err_set(err, WS_E_INVAL, "node: rf: %d interfaces not supported (2 or 4)",
				  c->rf);
	if (c->max_payload < 48 || c->max_payload > 65505)
		return ws_err_set(err, WS_E_INVAL, "node: max payload %u out of range (48..65505)",
				  c->max_payload);
	if (c->tx_samples < 1 || c->tx_samples > WS_NODE_MAX_SAMPLES || c->rx_samples < 1 ||
	    c->rx_samples > WS_NODE_MAX_SAMPLES)
		return ws_err_set(err, WS_E_INVAL,
				  "node: buffer sizes %u TX / %u RX samples out of range (1..%u)",
				  c->tx_samples, c->rx_samples, WS_NODE_MAX_SAMPLES);
	if (c->port < -1 || c->port > 65535 || c->bcast_port < -1 || c->bcast_port > 65535)
		return ws_err_set(err, WS_E_INVAL,
				  "node: ports %d/%d out of range (0..65535, -1 for none)", c->port,
				  c->bcast_port);
	if (c->channel != WS_NODE_CHANNEL_LOOPBACK && c->channel != WS_NODE_CHANNEL_NONE)
		return ws_err_set(err, WS_E_INVAL, "node: channel %d unknown", c->channel);
	if (c->rx_slots > 4096 || c->per_packet_us > 1000000 || c->pace_us > 1000000 ||
	    c->not_ready_us > 60000000)
		return ws_err_set(err, WS_E_INVAL,
				  "node: fidelity settings out of range (rx slots <= 4096, "
				  "per-packet and pace <= 1 s, not-ready <= 60 s)");
	if (c->reply_rate_bps &&
	    (c->reply_rate_bps < WS_NODE_RATE_MIN_BPS || c->reply_rate_bps > WS_NODE_RATE_MAX_BPS))
		return ws_err_set(err, WS_E_INVAL,
				  "node: reply rate %llu bit/s out of range (1k..1000g bit/s, or "
				  "off)",
				  (unsigned long long)c->reply_rate_bps);
	if (c->reply_total_bps && c->reply_total_bps != WS_NODE_TOTAL_OFF &&
	    (c->reply_total_bps < WS_NODE_RATE_MIN_BPS ||
	     c->reply_total_bps > WS_NODE_RATE_MAX_BPS))
		return ws_err_set(
			err, WS_E_INVAL,
			"node: total reply rate %llu bit/s out of range (1k..1000g bit/s, "
			"or off)",
			(unsigned long long)c->reply_total_bps);
	uint64_t least = ws_node_mem_least(c->rf, c->tx_samples, c->rx_samples);
	if (c->max_memory && c->max_memory < least)
		return ws_err_set(
			err, WS_E_INVAL,
			"node: max memory %llu bytes is below the %llu that the buffer "
			"tables and 64 chunks of %u samples need (at least that; the "
			"default, what the buffers can ever need, is %llu)",
			(unsigned long long)c->max_memory, (unsigned long long)least,
			WS_NODE_CHUNK_SAMPLES,
			(unsigned long long)ws_node_mem_need(c->rf, c->tx_samples, c->rx_samples));
	if (c->reply_burst < WS_NODE_RATE_MIN_BURST || c->reply_burst > WS_NODE_RATE_MAX_BURST)
		return ws_err_set(err, WS_E_INVAL,
				  "node: reply burst %u bytes out of range (1K..256M)",
				  c->reply_burst);
	return 0;
}

static int alloc_state(ws_node *n, ws_err *err)
{
	n->rf_mask = (1u << n->cfg.rf) - 1;
	n->info.max_memory = n->cfg.max_memory
		? n->cfg.max_memory
		: ws_node_mem_need(n->cfg.rf, n->cfg.tx_samples, n->cfg.rx_samples);
	if (ws_node_mem_init(&n->mem, n->cfg.rf, n->cfg.tx_samples, n->cfg.rx_samples,
			     n->info.max_memory) < 0)
		return ws_err_set(err, ENOMEM, "node: out of memory for buffer tables");
	/* One byte more than the largest accepted datagram, so a longer one is seen as such. */
	n->slot_size = (size_t)n->cfg.max_payload + WS_WIRE_PAD_LEN + 1;
	int rx = ws_node_rx_init(&n->rx, n->cfg.bcast_port >= 0 ? 2 : 1, n->slot_size);
	n->hbuf = malloc(n->slot_size * WS_NODE_HOLD_MAX);
	for (unsigned i = 0; i < WS_NODE_HOLD_MAX; i++)
		n->free_slots[n->n_free++] = i;
	int board = ws_node_board_init(&n->board, &n->cfg);
	if (rx < 0 || !n->hbuf || board < 0)
		return ws_err_set(err, ENOMEM, "node: out of memory for receive buffers");
	ws_node_rate_init(&n->rate, n->cfg.reply_rate_bps, n->cfg.reply_burst);
	uint64_t total = n->cfg.reply_total_bps ? n->cfg.reply_total_bps : n->cfg.reply_rate_bps;
	ws_node_rate_set_total(&n->rate, total == WS_NODE_TOTAL_OFF ? 0 : total);
	return 0;
}

/* The address to bind, NULL meaning 127.0.0.1. */
static int bind_address(ws_node *n, const ws_node_config *c, struct in_addr *addr, ws_err *err)
{
	const char *bind_addr = c->bind_addr ? c->bind_addr : WS_NODE_DEFAULT_BIND;
	if (inet_pton(AF_INET, bind_addr, addr) != 1)
		return ws_err_set(err, WS_E_INVAL,
				  "node: bind address '%s' is not an IPv4 address (a.b.c.d, "
				  "0.0.0.0 for all)",
				  bind_addr);
	inet_ntop(AF_INET, addr, n->info.bind_addr, sizeof n->info.bind_addr);
	return 0;
}

/* The allow list: the one given, or the default for the bound address; and the cap. Done
 * after binding, so an address of no interface is named by the bind error. */
static int exposure(ws_node *n, const ws_node_config *c, struct in_addr addr, ws_err *err)
{
	int r = c->allow ? ws_node_allow_parse(c->allow, &n->allow, err)
			 : ws_node_allow_default(ntohl(addr.s_addr), &n->allow, err);
	if (r < 0) {
		ws_err_prefix(err, "node");
		return r;
	}
	ws_node_allow_format(&n->allow, n->info.allow, sizeof n->info.allow);
	n->info.reply_rate_bps = c->reply_rate_bps;
	n->info.reply_burst = c->reply_burst;
	n->info.reply_total_bps = n->rate.total_bps;
	return 0;
}

int ws_node_create(const ws_node_config *c, ws_node **out, ws_err *err)
{
	*out = NULL;
	int r = check_config(c, err);
	if (r < 0)
		return r;
	ws_node *n = calloc(1, sizeof *n);
	if (!n)
		return ws_err_set(err, ENOMEM, "node: out of memory");
	n->cfg = *c;
	n->cfg.bind_addr = NULL;
	n->cfg.allow = NULL;
	/* The probe catches a kernel path that accepts UDP_SEGMENT but segments wrongly
	 * (qemu-user on a big-endian guest passes the size unswapped). */
	n->gso = n->info.gso = c->gso && !c->pace_us && ws_features_probe_udp_gso() == 1;
	n->fd = n->bfd = n->efd = -1;
	n->info.port = n->info.bcast_port = -1;
	ws_node_reset(n);
	struct in_addr addr;
	r = alloc_state(n, err);
	if (r == 0)
		r = bind_address(n, c, &addr, err);
	if (r == 0 && c->port >= 0)
		r = open_sockets(n, c, addr, err);
	if (r == 0)
		r = exposure(n, c, addr, err);
	if (r < 0) {
		ws_node_destroy(n);
		return r;
	}
	*out = n;
	return 0;
}

void ws_node_get_counters(const ws_node *n, ws_node_counters *out)
{
	const uint64_t *src = (const uint64_t *)&n->ctr;
	uint64_t *dst = (uint64_t *)out;
	for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void ws_node_get_info(const ws_node *n, ws_node_info *out) { *out = n->info; }

void ws_node_destroy(ws_node *n)
{
	if (!n)
		return;
	ws_node_mem_free(&n->mem);
	if (n->fd >= 0)
		close(n->fd);
	if (n->bfd >= 0)
		close(n->bfd);
	if (n->efd >= 0)
		close(n->efd);
	ws_node_rx_free(&n->rx);
	free(n->hbuf);
	ws_node_board_free(&n->board);
	free(n);
}
