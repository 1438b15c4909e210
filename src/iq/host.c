/* host: the IQ host transport's node handle behind include/warpspeed/iq.h.
 *
 * A WARPLab 7.7.1 node is driven over one connected UDP socket per handle. This file owns
 * that handle: it opens it (PING, a payload size test that survives one lost datagram,
 * NODE_INFO), runs acknowledged commands with bounded retries, sends triggers, keeps the
 * counters, and holds the send/receive helpers and sample conversions that the Read IQ
 * engine (iqread.c) and the Write IQ engine (iqwrite.c) share. Every public entry point is
 * here, so that each call takes the handle's mutex, checks its arguments against what the
 * node reported and turns the internal error into the caller's ws_iq_error in one place.
 * No globals: separate handles run in parallel in different threads. */
#include "iq/host.h"

#include "iq/iqread.h"
#include "iq/iqwrite.h"
#include "util/clock.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define IQ_MAX_WORDS 64    /* reply words we keep */
/* Read IQ bytes in flight unless configured: a node streams each request as fast as its
 * link takes it, so more in flight only fills switch (or tbf) queues; 2 MiB is 17 ms at
 * 1 Gb/s and 1.7 ms at 10 Gb/s, far above any LAN round trip. */
#define IQ_DEFAULT_WINDOW (2u << 20)

/* ---- errors and small helpers ------------------------------------------------------------ */

static int to_public(int rc, const ws_err *e, ws_iq_error *out)
{
	if (out) {
		out->code = rc < 0 ? rc : 0;
		snprintf(out->msg, sizeof out->msg, "%s", rc < 0 ? e->msg : "");
	}
	return rc;
}

const char *ws_iq_host_rf_name(unsigned bit)
{
	switch (bit) {
	case WS_IQ_RF_A: return "RF_A";
	case WS_IQ_RF_B: return "RF_B";
	case WS_IQ_RF_C: return "RF_C";
	case WS_IQ_RF_D: return "RF_D";
	default: return "RF_?";
	}
}

size_t ws_iq_format_size(ws_iq_format fmt)
{
	switch (fmt) {
	case WS_IQ_FMT_CI16: return 4;
	case WS_IQ_FMT_CF32: return 8;
	case WS_IQ_FMT_BE32: return 4;
	default: return 0;
	}
}

void ws_iq_config_default(ws_iq_config *c)
{
	*c = (ws_iq_config){
		.port = 9000, .host_id = WS_WIRE_HOST_ID_DEFAULT, .max_payload = 8964,
		.timeout_ms = 100, .cmd_tries = 3, .idle_ms = 10, .retries = 20,
		.rcvbuf = 64 << 20, .sndbuf = 512 << 10, .write_mode = WS_IQ_WRITE_AUTO,
	};
}

/* WARPLab's NOT_READY wait: (remaining bytes / 160) us + 100 us, the remaining air time of
 * the longer of the TX and RX buffers at 40 MS/s, from the six status words. */
int64_t ws_iq_host_not_ready_wait_ns(const uint32_t *w, size_t nw)
{
	uint64_t rem = 0;
	if (nw >= 6) {
		uint64_t tx = w[2] > w[1] ? (uint64_t)(w[2] - w[1]) : 0;
		uint64_t rx = w[5] > w[4] ? (uint64_t)(w[5] - w[4]) : 0;
		rem = 4 * (tx > rx ? tx : rx);
	}
	return (int64_t)(rem * WS_NS_PER_US / 160) + 100 * WS_NS_PER_US;
}

/* ---- socket I/O --------------------------------------------------------------------------- */

static void set_buf(int fd, int force, int opt, int bytes)
{
	if (bytes > 0 && setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof bytes) < 0)
		setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof bytes);
}

static int open_socket(ws_iq_node *n, ws_err *err)
{
	n->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (n->fd < 0)
		return ws_err_errno(err, "iq: socket");
	set_buf(n->fd, SO_RCVBUFFORCE, SO_RCVBUF, n->cfg.rcvbuf);
	set_buf(n->fd, SO_SNDBUFFORCE, SO_SNDBUF, n->cfg.sndbuf);
	socklen_t sl = sizeof n->info.rcvbuf;
	getsockopt(n->fd, SOL_SOCKET, SO_RCVBUF, &n->info.rcvbuf, &sl);
	sl = sizeof n->info.sndbuf;
	getsockopt(n->fd, SOL_SOCKET, SO_SNDBUF, &n->info.sndbuf, &sl);
	/* Connected: the kernel drops datagrams from any other address, and a closed port
	 * comes back as ECONNREFUSED instead of a silent timeout. */
	if (connect(n->fd, (const struct sockaddr *)&n->peer, sizeof n->peer) < 0)
		return ws_err_errno(err, "iq: connect to %s", n->name);
	return 0;
}

static int sock_error(ws_iq_node *n, int e, ws_err *err)
{
	if (e == ECONNREFUSED)
		return ws_err_set(err, WS_E_REFUSED,
				  "node %s refused the packet (ICMP port unreachable): nothing "
				  "listens on that port", n->name);
	errno = e;
	return ws_err_errno(err, "iq: socket I/O with %s", n->name);
}

int ws_iq_host_send_one(ws_iq_node *n, const uint8_t *b, size_t len, ws_err *err)
{
	for (int i = 0; i < 1000; i++) {
		if (send(n->fd, b, len, 0) >= 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != ENOBUFS)
			return sock_error(n, errno, err);
		struct pollfd p = {.fd = n->fd, .events = POLLOUT};
		poll(&p, 1, 10);
	}
	return ws_err_set(err, WS_E_TIMEDOUT, "iq: send to %s: the socket stayed full", n->name);
}

int ws_iq_host_send_batch(ws_iq_node *n, unsigned k, ws_err *err)
{
	unsigned done = 0;
	int stuck = 0;
	while (done < k) {
		int r = sendmmsg(n->fd, n->mm + done, k - done, 0);
		if (r > 0) {
			done += (unsigned)r;
			stuck = 0;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN && errno != ENOBUFS)
			return sock_error(n, errno, err);
		if (++stuck > 1000)
			return ws_err_set(err, WS_E_TIMEDOUT, "iq: send to %s: the socket stayed full",
					  n->name);
		struct pollfd p = {.fd = n->fd, .events = POLLOUT};
		poll(&p, 1, 10);
		if (errno == ENOBUFS)
			ws_clock_sleep_ns(20 * WS_NS_PER_US);
	}
	return 0;
}

int ws_iq_host_recv_batch(ws_iq_node *n, int64_t wait_ns, ws_err *err)
{
	for (unsigned i = 0; i < WS_IQ_HOST_BATCH; i++) {
		n->iov[i][0] = (struct iovec){.iov_base = n->rx + i * n->slot, .iov_len = n->slot};
		n->mm[i].msg_hdr = (struct msghdr){.msg_iov = n->iov[i], .msg_iovlen = 1};
		n->mm[i].msg_len = 0;
	}
	for (;;) {
		int r = recvmmsg(n->fd, n->mm, WS_IQ_HOST_BATCH, MSG_DONTWAIT, NULL);
		if (r > 0)
			return r;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN)
			return sock_error(n, errno, err);
		if (wait_ns <= 0)
			return 0;
		struct pollfd p = {.fd = n->fd, .events = POLLIN};
		struct timespec ts = {.tv_sec = wait_ns / WS_NS_PER_SEC,
				      .tv_nsec = wait_ns % WS_NS_PER_SEC};
		int pr = ppoll(&p, 1, &ts, NULL);
		if (pr < 0 && errno != EINTR)
			return sock_error(n, errno, err);
		if (pr == 0)
			return 0;
		wait_ns = 0; /* one more non-blocking try after the wake-up */
		if (p.revents & (POLLERR | POLLIN))
			wait_ns = 1;
	}
}

/* What an earlier call leaves behind is late packets of a finished read. */
int ws_iq_host_drain_stale(ws_iq_node *n, ws_err *err)
{
	int r;
	while ((r = ws_iq_host_recv_batch(n, 0, err)) > 0)
		n->st.stale += (uint64_t)r;
	return r;
}

int ws_iq_host_reply(ws_iq_node *n, unsigned i, ws_wire_msg *m)
{
	const uint8_t *b = n->rx + (size_t)i * n->slot;
	if ((n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) || ws_wire_parse(b, n->mm[i].msg_len, m) < 0 ||
	    m->is_trigger) {
		n->st.malformed++;
		return -1;
	}
	if (m->tr.pkt_type != WS_WIRE_PKT_NODE_TO_HOST || m->tr.src_id != n->cfg.node_id ||
	    m->tr.dest_id != n->cfg.host_id) {
		n->st.wrong_node++;
		return -1;
	}
	return 0;
}

int ws_iq_host_send_ping(ws_iq_node *n, uint16_t *seq, ws_err *err)
{
	uint8_t buf[32];
	*seq = ws_iq_host_next_seq(n);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_PING};
	ws_wire_transport t = ws_iq_host_tr(n, *seq, WS_WIRE_FLAG_ROBUST, WS_WIRE_OFF_ARGS);
	int len = ws_wire_build(buf, sizeof buf, &t, &c, NULL, 0);
	return ws_iq_host_send_one(n, buf, (size_t)len, err);
}

/* ---- commands ----------------------------------------------------------------------------- */

typedef struct iq_reply {
	uint32_t w[IQ_MAX_WORDS];
	size_t nw;
	uint16_t flags;
	int64_t rtt_ns;
} iq_reply;

/* Waits for the answer to (seq, cmd) until deadline; 1 when found, 0 on timeout. */
static int wait_reply(ws_iq_node *n, uint16_t seq, uint32_t cmd, int64_t deadline, iq_reply *rep,
		      ws_err *err)
{
	for (;;) {
		int64_t left = deadline - ws_clock_ns();
		int r = ws_iq_host_recv_batch(n, left > 0 ? left : 0, err);
		if (r <= 0)
			return r;
		for (int i = 0; i < r; i++) {
			ws_wire_msg m;
			if (ws_iq_host_reply(n, (unsigned)i, &m) < 0)
				continue;
			if (m.tr.seq != seq || m.cmd.cmd != cmd) {
				n->st.wrong_seq++;
				continue;
			}
			rep->nw = ws_wire_get_words(m.args, m.args_len, rep->w, IQ_MAX_WORDS);
			rep->flags = m.tr.flags;
			return 1;
		}
	}
}

/* A ROBUST command with n words; retries with the same seq (the node's answers are
 * idempotent) cmd_tries times, each timeout_ms. */
static int command(ws_iq_node *n, uint32_t cmd, const uint32_t *args, size_t nargs,
		   iq_reply *rep, int tries, ws_err *err)
{
	uint8_t *b = n->stage; /* large enough for the payload size test */
	uint16_t seq = ws_iq_host_next_seq(n);
	ws_wire_cmd c = {.cmd = cmd, .length = (uint16_t)(4 * nargs), .num_args = (uint16_t)nargs};
	size_t len = WS_WIRE_OFF_ARGS + 4 * nargs;
	ws_wire_transport t = ws_iq_host_tr(n, seq, WS_WIRE_FLAG_ROBUST, len);
	int blen = ws_wire_build(b, WS_WIRE_OFF_ARGS + 4 * nargs, &t, &c, args, nargs);
	if (blen < 0)
		return ws_err_set(err, WS_E_INVAL, "iq: command 0x%08x: too many arguments", cmd);
	n->st.commands++;
	for (int i = 0; i < tries; i++) {
		if (i)
			n->st.command_retries++;
		int64_t t0 = ws_clock_ns();
		int r = ws_iq_host_send_one(n, b, (size_t)blen, err);
		if (r == 0)
			r = wait_reply(n, seq, cmd, t0 + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS,
				       rep, err);
		if (r < 0)
			return r;
		if (r > 0) {
			rep->rtt_ns = ws_clock_ns() - t0;
			return 0;
		}
		n->st.timeouts++;
	}
	const char *name = ws_wire_cmd_name(cmd);
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "node %s did not answer %s (0x%08x) in %d attempts of %u ms", n->name,
			  name ? name : "command", cmd, tries, n->cfg.timeout_ms);
}

/* ---- open / info / close ------------------------------------------------------------------ */

static void info_from_words(ws_iq_info *in, const uint32_t *w)
{
	in->serial = w[0];
	in->dna_msb = w[1];
	in->dna_lsb = w[2];
	in->mac[0] = (uint8_t)(w[3] >> 8);
	in->mac[1] = (uint8_t)w[3];
	for (int i = 0; i < 4; i++)
		in->mac[2 + i] = (uint8_t)(w[4] >> (24 - 8 * i));
	in->hw_version = w[5] >> 24;
	in->wl_major = w[5] >> 16 & 0xFF;
	in->wl_minor = w[5] >> 8 & 0xFF;
	in->wl_rev = w[5] & 0xFF;
	in->max_tx_samples = w[6];
	in->max_rx_samples = w[7];
	in->tx_length = w[8];
	in->rx_length = w[9];
	in->trig_info = w[10];
	in->num_ifc_groups = w[11];
	in->num_rf = w[12];
}

static int get_info(ws_iq_node *n, ws_err *err)
{
	iq_reply rep;
	int r = command(n, WS_WIRE_CMD_NODE_INFO, NULL, 0, &rep, n->cfg.cmd_tries, err);
	if (r < 0)
		return r;
	if (rep.nw < WS_WIRE_NODE_INFO_WORDS) {
		n->st.malformed++;
		return ws_err_set(err, WS_E_PROTO, "node %s: NODE_INFO answer has %zu words, "
				  "expected %d", n->name, rep.nw, WS_WIRE_NODE_INFO_WORDS);
	}
	info_from_words(&n->info, rep.w);
	if (n->info.num_rf != 2 && n->info.num_rf != 4)
		return ws_err_set(err, WS_E_PROTO, "node %s: NODE_INFO reports %u RF interfaces "
				  "(2 or 4 expected)", n->name, n->info.num_rf);
	return 0;
}

/* One PAYLOAD_SIZE_TEST datagram of payload bytes after the pad: the words 1..N. */
static int payload_send(ws_iq_node *n, uint32_t payload, uint16_t seq, ws_err *err)
{
	size_t nw = (payload - 20) / 4;
	uint8_t *b = n->stage;
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_PAYLOAD_SIZE_TEST, .length = (uint16_t)(4 * nw),
			 .num_args = (uint16_t)nw};
	ws_wire_transport t = ws_iq_host_tr(n, seq, WS_WIRE_FLAG_ROBUST, WS_WIRE_OFF_ARGS + 4 * nw);
	ws_wire_build(b, WS_WIRE_OFF_ARGS, &t, &c, NULL, 0);
	for (size_t i = 0; i < nw; i++)
		ws_put_be32(b + WS_WIRE_OFF_ARGS + 4 * i, (uint32_t)(i + 1));
	return ws_iq_host_send_one(n, b, WS_WIRE_OFF_ARGS + 4 * nw, err);
}

/* Collects payload test answers until deadline: best[c] = the node's answer to candidate
 * c (any round: every round reuses the candidate's seq). */
static int payload_collect(ws_iq_node *n, const uint16_t *seq, uint32_t *best, int nc,
			   int64_t deadline, ws_err *err)
{
	for (;;) {
		int64_t left = deadline - ws_clock_ns();
		int r = ws_iq_host_recv_batch(n, left > 0 ? left : 0, err);
		if (r <= 0)
			return r;
		for (int i = 0; i < r; i++) {
			ws_wire_msg m;
			uint32_t w;
			if (ws_iq_host_reply(n, (unsigned)i, &m) < 0)
				continue;
			int c = 0;
			while (c < nc && (m.tr.seq != seq[c] ||
					  m.cmd.cmd != WS_WIRE_CMD_PAYLOAD_SIZE_TEST))
				c++;
			if (c == nc || ws_wire_get_words(m.args, m.args_len, &w, 1) < 1) {
				n->st.wrong_seq++;
				continue;
			}
			best[c] = w;
			if (c == 0)
				return 0;
		}
	}
}

/* PAYLOAD_SIZE_TEST, jumbo first as WARPLab does, but every candidate in each round so
 * that one lost datagram does not shrink the packets for good: the largest candidate
 * answered within max(cmd_tries, 3) + 2 rounds wins; the node's answer says how much
 * arrived. */
static int payload_test(ws_iq_node *n, ws_err *err)
{
	uint32_t cand[3] = {n->cfg.max_payload, 1468, 548}, best[3] = {0};
	uint16_t seq[3];
	int nc = 1, rounds = (n->cfg.cmd_tries > 3 ? n->cfg.cmd_tries : 3) + 2;
	for (int c = 1; c < 3; c++)
		if (cand[c] < n->cfg.max_payload)
			cand[nc++] = cand[c];
	for (int c = 0; c < nc; c++)
		seq[c] = ws_iq_host_next_seq(n);
	n->st.commands++;
	for (int round = 0; round < rounds && !best[0]; round++) {
		for (int c = 0; c < nc; c++) {
			int r = best[c] ? 0 : payload_send(n, cand[c], seq[c], err);
			if (r < 0)
				return r;
		}
		int r = payload_collect(n, seq, best, nc,
					ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS, err);
		if (r < 0)
			return r;
		if (round)
			n->st.command_retries++;
	}
	for (int c = 0; c < nc; c++) {
		uint32_t got = best[c] < cand[c] ? best[c] : cand[c];
		uint32_t spp = ws_wire_samples_per_packet(got);
		if (!spp)
			continue;
		n->info.max_payload = got;
		n->info.samples_per_packet = spp;
		n->info.packet_size = WS_WIRE_SAMPLE_PKT_HDR + 4 * spp;
		return 0;
	}
	return ws_err_set(err, WS_E_TIMEDOUT, "node %s answered PING but no payload size test "
			  "(tried %u, 1468 and 548 bytes, %d rounds of %u ms)", n->name,
			  n->cfg.max_payload, rounds, n->cfg.timeout_ms);
}

static int check_config(const ws_iq_config *c, struct sockaddr_in *sa, ws_err *err)
{
	if (!c->addr || inet_pton(AF_INET, c->addr, &sa->sin_addr) != 1)
		return ws_err_set(err, WS_E_INVAL, "iq: node address '%s' is not an IPv4 address "
				  "(a.b.c.d)", c->addr ? c->addr : "(none)");
	if (c->port < 1 || c->port > 65535)
		return ws_err_set(err, WS_E_INVAL, "iq: node port %d is not 1..65535", c->port);
	if (c->trigger_port < 0 || c->trigger_port > 65535)
		return ws_err_set(err, WS_E_INVAL, "iq: trigger port %d is not 0..65535",
				  c->trigger_port);
	if (c->max_payload < 68 || c->max_payload > 65505)
		return ws_err_set(err, WS_E_INVAL, "iq: max payload %u is not 68..65505",
				  c->max_payload);
	if (c->timeout_ms < 1 || c->idle_ms < 1 || c->retries < 1 || c->cmd_tries < 1)
		return ws_err_set(err, WS_E_INVAL, "iq: timeouts, retries and command tries must "
				  "be at least 1");
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)c->port);
	return 0;
}

static int alloc_buffers(ws_iq_node *n, ws_err *err)
{
	/* A slot holds the largest datagram the node may send; the stage holds a batch of
	 * converted Write IQ payloads, or one payload size test. */
	n->slot = (size_t)n->cfg.max_payload + 64;
	n->rx = malloc(n->slot * WS_IQ_HOST_BATCH);
	n->stage = malloc(n->slot * WS_IQ_HOST_BATCH);
	n->seq_pkt = calloc(65536, sizeof *n->seq_pkt);
	n->seq_op = calloc(65536, sizeof *n->seq_op);
	if (!n->rx || !n->stage || !n->seq_pkt || !n->seq_op)
		return ws_err_set(err, -ENOMEM, "iq: out of memory for the socket buffers");
	return 0;
}

/* Read IQ window: what the receive buffer holds (a datagram costs its truesize, about
 * payload + 1 KiB on loopback and veth, and the kernel reports twice what was asked),
 * at most the configured window or IQ_DEFAULT_WINDOW. */
static void size_window(ws_iq_node *n)
{
	uint64_t per = (uint64_t)n->info.packet_size + 1024;
	uint64_t w = (uint64_t)n->info.rcvbuf / 2 / per * n->info.packet_size;
	uint64_t cap = n->cfg.window ? n->cfg.window : IQ_DEFAULT_WINDOW;
	if (cap < w)
		w = cap;
	if (w < n->info.packet_size)
		w = n->info.packet_size;
	n->info.window = (uint32_t)(w > UINT32_MAX ? UINT32_MAX : w);
}

int ws_iq_open(const ws_iq_config *c, ws_iq_node **out, ws_iq_error *perr)
{
	ws_err e = {0}, *err = &e;
	struct sockaddr_in sa = {0};
	*out = NULL;
	int r = check_config(c, &sa, err);
	if (r < 0)
		return to_public(r, err, perr);
	ws_iq_node *n = calloc(1, sizeof *n);
	if (!n)
		return to_public(ws_err_set(err, -ENOMEM, "iq: out of memory"), err, perr);
	n->cfg = *c;
	n->cfg.addr = NULL; /* not kept: the caller owns the string */
	n->peer = sa;
	n->fd = -1;
	n->seq = (uint16_t)(ws_clock_ns() >> 10); /* a fresh start per handle */
	n->sticky = WS_IQWRITE_STICKY;
	snprintf(n->name, sizeof n->name, "%s:%d", c->addr, c->port);
	pthread_mutex_init(&n->lock, NULL);
	iq_reply rep;
	if ((r = alloc_buffers(n, err)) < 0 || (r = open_socket(n, err)) < 0 ||
	    (r = command(n, WS_WIRE_CMD_PING, NULL, 0, &rep, c->cmd_tries, err)) < 0 ||
	    (r = payload_test(n, err)) < 0 || (r = get_info(n, err)) < 0) {
		ws_iq_close(n);
		return to_public(r, err, perr);
	}
	size_window(n);
	*out = n;
	return to_public(0, err, perr);
}

void ws_iq_close(ws_iq_node *n)
{
	if (!n)
		return;
	if (n->fd >= 0)
		close(n->fd);
	pthread_mutex_destroy(&n->lock);
	free(n->rx);
	free(n->stage);
	free(n->seq_pkt);
	free(n->seq_op);
	free(n);
}

void ws_iq_get_info(ws_iq_node *n, ws_iq_info *out)
{
	pthread_mutex_lock(&n->lock);
	*out = n->info;
	pthread_mutex_unlock(&n->lock);
}

void ws_iq_get_stats(ws_iq_node *n, ws_iq_stats *out)
{
	pthread_mutex_lock(&n->lock);
	*out = n->st;
	pthread_mutex_unlock(&n->lock);
}

int64_t ws_iq_ping(ws_iq_node *n, ws_iq_error *perr)
{
	ws_err e = {0};
	iq_reply rep;
	pthread_mutex_lock(&n->lock);
	int r = ws_iq_host_drain_stale(n, &e);
	if (r >= 0)
		r = command(n, WS_WIRE_CMD_PING, NULL, 0, &rep, n->cfg.cmd_tries, &e);
	pthread_mutex_unlock(&n->lock);
	if (r < 0)
		return to_public(r, &e, perr);
	to_public(0, &e, perr);
	return rep.rtt_ns > 0 ? rep.rtt_ns : 1;
}

int ws_iq_node_info(ws_iq_node *n, ws_iq_info *out, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = ws_iq_host_drain_stale(n, &e);
	if (r >= 0)
		r = get_info(n, &e);
	if (r >= 0 && out)
		*out = n->info;
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

/* ---- sample conversion -------------------------------------------------------------------- */

void ws_iq_host_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
			  uint32_t cnt)
{
	if (fmt == WS_IQ_FMT_BE32) {
		memcpy((uint8_t *)dst + idx * 4, src, (size_t)cnt * 4);
	} else if (fmt == WS_IQ_FMT_CI16) {
		int16_t *o = (int16_t *)dst + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			o[i] = (int16_t)ws_get_be16(src + 2 * i);
	} else {
		float *o = (float *)dst + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			o[i] = (float)(int16_t)ws_get_be16(src + 2 * i) * (1.0f / 32768.0f);
	}
}

static int16_t sat16(float x)
{
	if (!(x == x))
		return 0;
	float v = x * 32768.0f;
	if (v >= 32767.0f)
		return 32767;
	if (v <= -32768.0f)
		return -32768;
	return (int16_t)lrintf(v);
}

/* cnt samples of caller memory from index idx as wire words at out. */
static void wire_samples(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			 uint32_t cnt)
{
	if (fmt == WS_IQ_FMT_CI16) {
		const int16_t *s = (const int16_t *)src + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			ws_put_be16(out + 2 * i, (uint16_t)s[i]);
	} else {
		const float *s = (const float *)src + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			ws_put_be16(out + 2 * i, (uint16_t)sat16(s[i]));
	}
}

void ws_iq_host_to_wire(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			uint32_t cnt)
{
	if (fmt == WS_IQ_FMT_BE32)
		memcpy(out, (const uint8_t *)src + idx * 4, (size_t)cnt * 4);
	else
		wire_samples(out, fmt, src, idx, cnt);
}

/* ---- argument checks ---------------------------------------------------------------------- */

static int check_range(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		       ws_iq_format fmt, int tx, ws_err *err)
{
	unsigned have = n->info.num_rf >= 4 ? 0xFu : 0x3u;
	uint32_t max = tx ? n->info.max_tx_samples : n->info.max_rx_samples;
	const char *what = tx ? "Write IQ" : "Read IQ";
	if (mask == 0 || (mask & ~have))
		return ws_err_set(err, WS_E_INVAL, "%s: buffer mask 0x%x names interfaces the node "
				  "lacks (it has %u: mask within 0x%x)", what, mask, n->info.num_rf,
				  have);
	if (ws_iq_format_size(fmt) == 0)
		return ws_err_set(err, WS_E_INVAL, "%s: unknown sample format %d", what, (int)fmt);
	if (count == 0 || start > max || count > max - start)
		return ws_err_set(err, WS_E_INVAL, "%s: samples [%u, %u + %u) are beyond the "
				  "node's %s buffer of %u samples", what, start, start, count,
				  tx ? "TX" : "RX", max);
	return 0;
}

/* ---- Read IQ and Write IQ (the engines are iqread.c and iqwrite.c) ------------------------ */

int ws_iq_read(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
	       ws_iq_format fmt, void *const *dst, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, 0, &e);
	if (r == 0)
		r = ws_iqread_run(n, rf_mask, start, count, fmt, dst, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r, &e, perr);
}

int ws_iq_write(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
		ws_iq_format fmt, const void *src, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, 1, &e);
	if (r == 0)
		r = ws_iqwrite_run(n, rf_mask, start, count, fmt, src, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

int ws_iq_write_multi(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
		      ws_iq_format fmt, const void *const *src, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, 1, &e), i = 0;
	for (unsigned bit = 1; r == 0 && bit <= 8; bit <<= 1)
		if (rf_mask & bit) {
			r = ws_iqwrite_run(n, bit, start, count, fmt, src[i++], &e);
			if (r < 0)
				ws_err_prefix(&e, "%s", ws_iq_host_rf_name(bit));
		}
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

/* ---- buffers and triggers ----------------------------------------------------------------- */

int ws_iq_enable(ws_iq_node *n, unsigned tx_mask, unsigned rx_mask, ws_iq_error *perr)
{
	ws_err e = {0};
	iq_reply rep;
	int r = 0;
	pthread_mutex_lock(&n->lock);
	unsigned have = n->info.num_rf >= 4 ? 0xFu : 0x3u;
	if ((tx_mask | rx_mask) & ~have)
		r = ws_err_set(&e, WS_E_INVAL, "enable: mask 0x%x names interfaces the node lacks "
			       "(within 0x%x)", (tx_mask | rx_mask) & ~have, have);
	if (r == 0)
		r = ws_iq_host_drain_stale(n, &e);
	uint32_t tx = tx_mask, rx = rx_mask;
	if (r >= 0 && tx_mask)
		r = command(n, WS_WIRE_CMD_TX_BUFF_EN, &tx, 1, &rep, n->cfg.cmd_tries, &e);
	if (r >= 0 && rx_mask)
		r = command(n, WS_WIRE_CMD_RX_BUFF_EN, &rx, 1, &rep, n->cfg.cmd_tries, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

static int trigger_packet(uint8_t *buf, size_t cap, uint16_t host_id, uint16_t seq,
			  uint32_t ids)
{
	ws_wire_transport t = {.dest_id = WS_WIRE_ID_BROADCAST, .src_id = host_id,
			       .pkt_type = WS_WIRE_PKT_TRIGGER, .length = 4, .seq = seq};
	return ws_wire_build(buf, cap, &t, NULL, &ids, 1);
}

int ws_iq_trigger(ws_iq_node *n, uint32_t ids, ws_iq_error *perr)
{
	ws_err e = {0};
	uint8_t buf[32];
	int r;
	pthread_mutex_lock(&n->lock);
	int len = trigger_packet(buf, sizeof buf, n->cfg.host_id, ws_iq_host_next_seq(n), ids);
	if (!n->cfg.trigger_port || n->cfg.trigger_port == n->cfg.port) {
		r = ws_iq_host_send_one(n, buf, (size_t)len, &e);
	} else {
		struct sockaddr_in to = n->peer;
		to.sin_port = htons((uint16_t)n->cfg.trigger_port);
		r = sendto(n->fd, buf, (size_t)len, 0, (const struct sockaddr *)&to, sizeof to) < 0
			    ? ws_err_errno(&e, "trigger: send to port %d of %s", n->cfg.trigger_port,
					   n->name)
			    : 0;
	}
	pthread_mutex_unlock(&n->lock);
	return to_public(r, &e, perr);
}

int ws_iq_trigger_broadcast(const char *addr, int port, uint16_t host_id, uint32_t ids,
			    ws_iq_error *perr)
{
	ws_err e = {0};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	if (!addr || inet_pton(AF_INET, addr, &to.sin_addr) != 1 || port < 1 || port > 65535)
		return to_public(ws_err_set(&e, WS_E_INVAL, "trigger: '%s' port %d is not an IPv4 "
					    "address a.b.c.d with a port 1..65535",
					    addr ? addr : "(none)", port), &e, perr);
	uint8_t buf[32];
	int len = trigger_packet(buf, sizeof buf, host_id, 0, ids);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), one = 1, r = 0;
	if (fd < 0)
		return to_public(ws_err_errno(&e, "trigger: socket"), &e, perr);
	setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof one);
	if (sendto(fd, buf, (size_t)len, 0, (const struct sockaddr *)&to, sizeof to) < 0)
		r = ws_err_errno(&e, "trigger: send to %s:%d", addr, port);
	close(fd);
	return to_public(r, &e, perr);
}
