/* host: the WARPLab 7.7.1 IQ host transport behind include/warpspeed/iq.h.
 *
 * WARPLab's MEX host reads with stop-and-wait requests, detects loss with running sums and
 * re-requests everything from the first gap (go-back-N), and writes in a fast mode whose
 * only safety net is a checksum that, on a mismatch, restarts the whole buffer one
 * acknowledged packet at a time. This module keeps the wire and beats the speed: Read IQ
 * requests stay pipelined within the socket receive buffer, every packet is checked against
 * the request it answers and placed by a bitmap, and only the missing runs are asked for
 * again, found either when a later request overtakes an earlier one or when a PING sent
 * behind the last request comes back (the node serves one request at a time, in order).
 * Write IQ goes out in sendmmsg batches, each batch a chunk verified by WARPLab's checksum
 * in its one acknowledgement; the fallback for a failed chunk acknowledges every packet
 * with the checksum reset per packet, so each acknowledgement proves one packet's placement
 * and only unacknowledged packets are sent again. Nothing is placed from a reply that does not match
 * a request of the current call; a call that cannot complete within its bounded retries
 * fails and says why. One mutex per handle, no globals. */
#include "iq/host.h"

#include "iq/wire.h"
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

#define IQ_BATCH 64
#define IQ_MAX_OUT 64      /* Read IQ requests (and markers) in flight */
#define IQ_RETIRED 256     /* finished requests whose late packets are still welcome */
#define IQ_STICKY 4        /* AUTO: clean acknowledged writes before FAST again */
#define IQ_STICKY_MAX 256  /* ... doubled per fallback in a row, up to this */
#define IQ_ACK_WINDOW 512  /* acknowledged Write IQ packets in flight */
#define IQ_OVERTAKE 8      /* an ack this many sends later marks an unacked packet lost */
#define IQ_MAX_WORDS 64    /* reply words we keep */
#define IQ_SPIN_NS (200 * WS_NS_PER_US)
/* Read IQ bytes in flight unless configured: a node streams each request as fast as its
 * link takes it, so more in flight only fills switch (or tbf) queues; 2 MiB is 17 ms at
 * 1 Gb/s and 1.7 ms at 10 Gb/s, far above any LAN round trip. */
#define IQ_DEFAULT_WINDOW (2u << 20)

struct ws_iq_node {
	pthread_mutex_t lock;
	int fd;
	struct sockaddr_in peer;
	ws_iq_config cfg;
	char name[40];             /* "a.b.c.d:port" for messages */
	ws_iq_info info;
	ws_iq_stats st;
	uint16_t seq;
	uint8_t write_id;
	int acked_left;            /* AUTO: writes still to do acknowledged */
	int sticky;                /* AUTO: acknowledged writes after the next fallback */
	uint32_t op;               /* call counter, owner tag of seq_op */
	size_t slot;               /* receive slot bytes */
	uint8_t *rx;               /* IQ_BATCH receive slots */
	uint8_t *stage;            /* IQ_BATCH converted sample payloads for Write IQ */
	uint32_t *seq_pkt, *seq_op; /* acknowledged writes: seq -> packet of call op */
	struct mmsghdr mm[IQ_BATCH];
	struct iovec iov[IQ_BATCH][2];
	uint8_t hdr[IQ_BATCH][WS_WIRE_SAMPLE_PKT_HDR];
};

/* ---- errors and small helpers ------------------------------------------------------------ */

static int to_public(int rc, const ws_err *e, ws_iq_error *out)
{
	if (out) {
		out->code = rc < 0 ? rc : 0;
		snprintf(out->msg, sizeof out->msg, "%s", rc < 0 ? e->msg : "");
	}
	return rc;
}

static const char *rf_name(unsigned bit)
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

/* Sends one datagram, waiting for room when the socket is full. */
static int send_one(ws_iq_node *n, const uint8_t *b, size_t len, ws_err *err)
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

/* Sends mm[0..k) completely. */
static int send_batch(ws_iq_node *n, unsigned k, ws_err *err)
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

/* Waits up to wait_ns for datagrams and receives a batch into the slots. Returns the
 * number received (0 on timeout) or a negative code. */
static int recv_batch(ws_iq_node *n, int64_t wait_ns, ws_err *err)
{
	for (unsigned i = 0; i < IQ_BATCH; i++) {
		n->iov[i][0] = (struct iovec){.iov_base = n->rx + i * n->slot, .iov_len = n->slot};
		n->mm[i].msg_hdr = (struct msghdr){.msg_iov = n->iov[i], .msg_iovlen = 1};
		n->mm[i].msg_len = 0;
	}
	for (;;) {
		int r = recvmmsg(n->fd, n->mm, IQ_BATCH, MSG_DONTWAIT, NULL);
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

/* Drops whatever an earlier call left in the socket (late packets of a finished read). */
static int drain_stale(ws_iq_node *n, ws_err *err)
{
	int r;
	while ((r = recv_batch(n, 0, err)) > 0)
		n->st.stale += (uint64_t)r;
	return r;
}

/* Common checks of a node->host datagram: headers present, from our node, to us.
 * Returns 0 with m filled, or -1 after counting why it is ignored. */
static int check_reply(ws_iq_node *n, const uint8_t *b, size_t len, int trunc, ws_wire_msg *m)
{
	if (trunc || ws_wire_parse(b, len, m) < 0 || m->is_trigger) {
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

static uint16_t next_seq(ws_iq_node *n)
{
	return ++n->seq;
}

static ws_wire_transport host_tr(const ws_iq_node *n, uint16_t seq, uint16_t flags, size_t len)
{
	return (ws_wire_transport){.dest_id = n->cfg.node_id, .src_id = n->cfg.host_id,
				   .pkt_type = WS_WIRE_PKT_HOST_TO_NODE,
				   .length = ws_wire_host_length(len), .seq = seq, .flags = flags};
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
		int r = recv_batch(n, left > 0 ? left : 0, err);
		if (r <= 0)
			return r;
		for (int i = 0; i < r; i++) {
			const uint8_t *b = n->rx + (size_t)i * n->slot;
			ws_wire_msg m;
			if (check_reply(n, b, n->mm[i].msg_len,
					n->mm[i].msg_hdr.msg_flags & MSG_TRUNC, &m) < 0)
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
	uint16_t seq = next_seq(n);
	ws_wire_cmd c = {.cmd = cmd, .length = (uint16_t)(4 * nargs), .num_args = (uint16_t)nargs};
	size_t len = WS_WIRE_OFF_ARGS + 4 * nargs;
	ws_wire_transport t = host_tr(n, seq, WS_WIRE_FLAG_ROBUST, len);
	int blen = ws_wire_build(b, WS_WIRE_OFF_ARGS + 4 * nargs, &t, &c, args, nargs);
	if (blen < 0)
		return ws_err_set(err, WS_E_INVAL, "iq: command 0x%08x: too many arguments", cmd);
	n->st.commands++;
	for (int i = 0; i < tries; i++) {
		if (i)
			n->st.command_retries++;
		int64_t t0 = ws_clock_ns();
		int r = send_one(n, b, (size_t)blen, err);
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
	ws_wire_transport t = host_tr(n, seq, WS_WIRE_FLAG_ROBUST, WS_WIRE_OFF_ARGS + 4 * nw);
	ws_wire_build(b, WS_WIRE_OFF_ARGS, &t, &c, NULL, 0);
	for (size_t i = 0; i < nw; i++)
		ws_put_be32(b + WS_WIRE_OFF_ARGS + 4 * i, (uint32_t)(i + 1));
	return send_one(n, b, WS_WIRE_OFF_ARGS + 4 * nw, err);
}

/* Collects payload test answers until deadline: best[c] = the node's answer to candidate
 * c (any round: every round reuses the candidate's seq). */
static int payload_collect(ws_iq_node *n, const uint16_t *seq, uint32_t *best, int nc,
			   int64_t deadline, ws_err *err)
{
	for (;;) {
		int64_t left = deadline - ws_clock_ns();
		int r = recv_batch(n, left > 0 ? left : 0, err);
		if (r <= 0)
			return r;
		for (int i = 0; i < r; i++) {
			ws_wire_msg m;
			const uint8_t *b = n->rx + (size_t)i * n->slot;
			uint32_t w;
			if (check_reply(n, b, n->mm[i].msg_len,
					n->mm[i].msg_hdr.msg_flags & MSG_TRUNC, &m) < 0)
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
		seq[c] = next_seq(n);
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
	n->rx = malloc(n->slot * IQ_BATCH);
	n->stage = malloc(n->slot * IQ_BATCH);
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
	n->sticky = IQ_STICKY;
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
	int r = drain_stale(n, &e);
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
	int r = drain_stale(n, &e);
	if (r >= 0)
		r = get_info(n, &e);
	if (r >= 0 && out)
		*out = n->info;
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

/* ---- sample conversion -------------------------------------------------------------------- */

/* cnt wire words at src into caller memory at sample index idx. */
static void place_samples(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
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

void ws_iq_host_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
			  uint32_t cnt)
{
	place_samples(dst, fmt, idx, src, cnt);
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

/* ---- Read IQ ------------------------------------------------------------------------------ */

typedef struct rd_req {
	uint16_t seq;
	uint8_t b;           /* index into op buffers */
	uint8_t marker;      /* a PING behind the requests */
	uint32_t p0, np, got;
} rd_req;

typedef struct rd_run {
	uint32_t b, p0, np;
} rd_run;

typedef struct rd_op {
	uint32_t start, count, spp, npkt;
	int nb;
	uint16_t rf[4];
	void *dst[4];
	ws_iq_format fmt;
	uint64_t *have;      /* bitmap, nb * npkt bits */
	uint8_t *tries;      /* requests per packet */
	uint64_t total, got;
	uint32_t fresh_b, fresh_p;
	rd_run *rep;         /* ring of runs to ask again */
	size_t rep_head, rep_n, rep_cap;
	rd_req out[IQ_MAX_OUT];
	int nout;
	rd_req old[IQ_RETIRED];
	unsigned old_n;
	uint32_t req_pkts, win_pkts, out_pkts;
	int64_t resume_at;
	int not_ready;
} rd_op;

static int have_get(const rd_op *o, uint32_t b, uint32_t p)
{
	uint64_t i = (uint64_t)b * o->npkt + p;
	return (int)(o->have[i / 64] >> (i % 64) & 1);
}

static void have_set(rd_op *o, uint32_t b, uint32_t p)
{
	uint64_t i = (uint64_t)b * o->npkt + p;
	o->have[i / 64] |= 1ull << (i % 64);
}

static uint32_t pkt_samples(const rd_op *o, uint32_t p)
{
	uint64_t s = (uint64_t)p * o->spp;
	return o->count - s < o->spp ? (uint32_t)(o->count - s) : o->spp;
}

static int rep_push(ws_iq_node *n, rd_op *o, uint32_t b, uint32_t p0, uint32_t np, ws_err *err)
{
	for (uint32_t p = p0; p < p0 + np; p++) {
		uint8_t *t = &o->tries[(uint64_t)b * o->npkt + p];
		if (*t >= n->cfg.retries)
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "Read IQ of %s from %s: sample %u (packet %u) still missing "
					  "after %d requests", rf_name(o->rf[b]), n->name,
					  o->start + p * o->spp, p, *t);
		(*t)++;
	}
	if (o->rep_n == o->rep_cap) {
		size_t cap = o->rep_cap ? 2 * o->rep_cap : 64;
		rd_run *r = malloc(cap * sizeof *r);
		if (!r)
			return ws_err_set(err, -ENOMEM, "Read IQ: out of memory");
		for (size_t i = 0; i < o->rep_n; i++)
			r[i] = o->rep[(o->rep_head + i) % o->rep_cap];
		free(o->rep);
		o->rep = r;
		o->rep_head = 0;
		o->rep_cap = cap;
	}
	o->rep[(o->rep_head + o->rep_n++) % o->rep_cap] = (rd_run){b, p0, np};
	n->st.read_rerequests++;
	return 0;
}

/* A request is over (overtaken, marker passed, timed out): its missing runs are queued to
 * be asked again, and it moves to the ring of finished requests. */
static int retire(ws_iq_node *n, rd_op *o, int j, ws_err *err)
{
	rd_req q = o->out[j];
	memmove(o->out + j, o->out + j + 1, (size_t)(o->nout - j - 1) * sizeof *o->out);
	o->nout--;
	if (q.marker)
		return 0;
	o->out_pkts -= q.np;
	o->old[o->old_n++ % IQ_RETIRED] = q;
	uint32_t p = q.p0, end = q.p0 + q.np;
	while (p < end) {
		while (p < end && have_get(o, q.b, p))
			p++;
		uint32_t s = p;
		while (p < end && !have_get(o, q.b, p))
			p++;
		if (p > s) {
			int r = rep_push(n, o, q.b, s, p - s, err);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int retire_before(ws_iq_node *n, rd_op *o, int j, ws_err *err)
{
	for (int i = 0; i < j; i++) {
		int r = retire(n, o, 0, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int send_request(ws_iq_node *n, rd_op *o, uint32_t b, uint32_t p0, uint32_t np,
			ws_err *err)
{
	uint8_t buf[64];
	uint16_t seq = next_seq(n);
	uint64_t first = (uint64_t)p0 * o->spp;
	uint64_t ns = (uint64_t)np * o->spp;
	if (ns > o->count - first)
		ns = o->count - first;
	uint32_t a[5] = {o->rf[b], (uint32_t)(o->start + first), (uint32_t)ns, o->spp * 4, np};
	/* 7.7.1 sends the command header with length 0 and num_args 0. */
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_READ_IQ};
	ws_wire_transport t = host_tr(n, seq, 0, WS_WIRE_OFF_ARGS + 20);
	int len = ws_wire_build(buf, sizeof buf, &t, &c, a, 5);
	int r = send_one(n, buf, (size_t)len, err);
	if (r < 0)
		return r;
	o->out[o->nout++] = (rd_req){.seq = seq, .b = (uint8_t)b, .p0 = p0, .np = np};
	o->out_pkts += np;
	n->st.read_requests++;
	return 0;
}

static int send_marker(ws_iq_node *n, rd_op *o, ws_err *err)
{
	uint8_t buf[32];
	uint16_t seq = next_seq(n);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_PING};
	ws_wire_transport t = host_tr(n, seq, WS_WIRE_FLAG_ROBUST, WS_WIRE_OFF_ARGS);
	int len = ws_wire_build(buf, sizeof buf, &t, &c, NULL, 0);
	int r = send_one(n, buf, (size_t)len, err);
	if (r == 0)
		o->out[o->nout++] = (rd_req){.seq = seq, .marker = 1};
	return r;
}

/* Fills the window: missing runs first, then fresh packets; a marker behind the last. */
static int fill_requests(ws_iq_node *n, rd_op *o, ws_err *err)
{
	for (;;) {
		uint32_t b, p0, np;
		if (o->nout >= IQ_MAX_OUT - 1)
			break;
		if (o->rep_n) {
			rd_run *r = &o->rep[o->rep_head];
			b = r->b;
			p0 = r->p0;
			np = r->np < o->req_pkts ? r->np : o->req_pkts;
		} else if (o->fresh_b < (uint32_t)o->nb) {
			b = o->fresh_b;
			p0 = o->fresh_p;
			np = o->npkt - p0 < o->req_pkts ? o->npkt - p0 : o->req_pkts;
		} else {
			break;
		}
		if (o->out_pkts && o->out_pkts + np > o->win_pkts)
			return 0;
		int r = send_request(n, o, b, p0, np, err);
		if (r < 0)
			return r;
		if (o->rep_n) {
			rd_run *q = &o->rep[o->rep_head];
			q->p0 += np;
			q->np -= np;
			if (q->np == 0) {
				o->rep_head = (o->rep_head + 1) % o->rep_cap;
				o->rep_n--;
			}
		} else if ((o->fresh_p += np) == o->npkt) {
			o->fresh_b++;
			o->fresh_p = 0;
		}
	}
	if (o->nout && !o->out[o->nout - 1].marker && o->nout < IQ_MAX_OUT)
		return send_marker(n, o, err);
	return 0;
}

static int find_req(const rd_op *o, uint16_t seq, const rd_req **q)
{
	for (int j = 0; j < o->nout; j++)
		if (o->out[j].seq == seq) {
			*q = &o->out[j];
			return j;
		}
	unsigned k = o->old_n < IQ_RETIRED ? o->old_n : IQ_RETIRED;
	for (unsigned i = 0; i < k; i++)
		if (o->old[i].seq == seq) {
			*q = &o->old[i];
			return -1;
		}
	*q = NULL;
	return -1;
}

/* The NOT_READY answer of a live request: wait as WARPLab does, then ask again. */
static int read_not_ready(ws_iq_node *n, rd_op *o, const ws_wire_msg *m, ws_err *err)
{
	uint32_t w[6];
	size_t nw = m->args_len >= WS_WIRE_SAMPLE_HDR_LEN
			    ? ws_wire_get_words(m->args + WS_WIRE_SAMPLE_HDR_LEN,
						m->args_len - WS_WIRE_SAMPLE_HDR_LEN, w, 6)
			    : 0;
	n->st.not_ready++;
	if (++o->not_ready > n->cfg.retries)
		return ws_err_set(err, WS_E_TIMEDOUT, "Read IQ from %s: the node was still not "
				  "ready after %d NOT_READY answers", n->name, o->not_ready - 1);
	o->resume_at = ws_clock_ns() + ws_iq_host_not_ready_wait_ns(w, nw);
	while (o->nout) {
		int r = retire(n, o, 0, err);
		if (r < 0)
			return r;
	}
	/* Requests already served go again: forget what they were asked. */
	return 0;
}

/* One sample packet. Returns 1 when it added samples, 0 when ignored, or an error. */
static int read_packet(ws_iq_node *n, rd_op *o, const ws_wire_msg *m, size_t len, ws_err *err)
{
	const rd_req *q;
	int j = find_req(o, m->tr.seq, &q);
	ws_wire_sample_hdr s;
	if (!q) {
		n->st.wrong_seq++;
		return 0;
	}
	if (ws_wire_get_sample_hdr(m->args, m->args_len, &s) < 0 || s.buffer != o->rf[q->b]) {
		n->st.malformed++;
		return 0;
	}
	if (s.flags & WS_WIRE_SFLAG_IQ_ERROR)
		return ws_err_set(err, WS_E_REMOTE, "Read IQ of %s [%u, +%u) from %s: the node "
				  "answered IQ_ERROR (buffer or range refused)", rf_name(s.buffer),
				  o->start + q->p0 * o->spp, q->np * o->spp, n->name);
	if (s.flags & WS_WIRE_SFLAG_IQ_NOT_READY)
		return j >= 0 ? read_not_ready(n, o, m, err) : 0;
	uint64_t rel = (uint64_t)s.start - o->start;
	if (s.start < o->start || rel % o->spp || rel / o->spp < q->p0 ||
	    rel / o->spp >= (uint64_t)q->p0 + q->np) {
		n->st.malformed++;
		return 0;
	}
	uint32_t p = (uint32_t)(rel / o->spp);
	if (s.count != pkt_samples(o, p) || len != WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)s.count) {
		n->st.malformed++;
		return 0;
	}
	if (have_get(o, q->b, p)) {
		n->st.read_dup_packets++;
	} else {
		have_set(o, q->b, p);
		place_samples(o->dst[q->b], o->fmt, (uint64_t)p * o->spp,
			      m->args + WS_WIRE_SAMPLE_HDR_LEN, s.count);
		o->got++;
		n->st.read_packets++;
		if (j >= 0)
			o->out[j].got++;
	}
	if (j < 0)
		return 1;
	int r = retire_before(n, o, j, err); /* overtaken: the node serves in order */
	if (r == 0 && o->out[0].got == o->out[0].np)
		r = retire(n, o, 0, err);
	return r < 0 ? r : 1;
}

static int read_dgram(ws_iq_node *n, rd_op *o, unsigned i, ws_err *err)
{
	const uint8_t *b = n->rx + (size_t)i * n->slot;
	ws_wire_msg m;
	if (check_reply(n, b, n->mm[i].msg_len, n->mm[i].msg_hdr.msg_flags & MSG_TRUNC, &m) < 0)
		return 0;
	if (m.cmd.cmd == WS_WIRE_CMD_READ_IQ)
		return read_packet(n, o, &m, n->mm[i].msg_len, err);
	if (m.cmd.cmd == WS_WIRE_CMD_PING) {
		for (int j = 0; j < o->nout; j++)
			if (o->out[j].marker && o->out[j].seq == m.tr.seq) {
				int r = retire_before(n, o, j, err);
				if (r == 0)
					r = retire(n, o, 0, err);
				return r < 0 ? r : 1; /* the node is alive */
			}
	}
	n->st.wrong_seq++;
	return 0;
}

static int read_loop(ws_iq_node *n, rd_op *o, ws_err *err)
{
	int idle = 0;
	int64_t idle_ns = (int64_t)n->cfg.idle_ms * WS_NS_PER_MS;
	while (o->got < o->total) {
		int64_t now = ws_clock_ns(), wait = idle_ns;
		int r = 0;
		if (now >= o->resume_at)
			r = fill_requests(n, o, err);
		else
			wait = o->resume_at - now;
		if (r < 0)
			return r;
		int k = recv_batch(n, wait, err);
		if (k < 0)
			return k;
		if (k == 0 && ws_clock_ns() < o->resume_at)
			continue;
		if (k == 0) {
			n->st.timeouts++;
			if (++idle > n->cfg.retries)
				return ws_err_set(err, WS_E_TIMEDOUT,
						  "Read IQ from %s: the node stopped answering (%llu "
						  "of %llu packets after %d timeouts of %u ms)", n->name,
						  (unsigned long long)o->got,
						  (unsigned long long)o->total, idle - 1, n->cfg.idle_ms);
			/* Probe instead of asking for everything again: the PING comes back
			 * behind whatever the node is still busy with, and then retires the
			 * requests before it. */
			while (o->nout >= IQ_MAX_OUT)
				if ((r = retire(n, o, 0, err)) < 0)
					return r;
			if ((r = send_marker(n, o, err)) < 0)
				return r;
			continue;
		}
		for (int i = 0; i < k; i++) {
			r = read_dgram(n, o, (unsigned)i, err);
			if (r < 0)
				return r;
			if (r > 0)
				idle = 0;
		}
	}
	return 0;
}

static int read_call(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		     ws_iq_format fmt, void *const *dst, ws_err *err)
{
	int r = check_range(n, mask, start, count, fmt, 0, err);
	if (r < 0)
		return r;
	rd_op *o = calloc(1, sizeof *o);
	if (!o)
		return ws_err_set(err, -ENOMEM, "Read IQ: out of memory");
	*o = (rd_op){.start = start, .count = count, .spp = n->info.samples_per_packet,
		     .fmt = fmt};
	o->npkt = (uint32_t)(((uint64_t)count + o->spp - 1) / o->spp);
	for (unsigned bit = 1; bit <= 8; bit <<= 1)
		if (mask & bit) {
			o->rf[o->nb] = (uint16_t)bit;
			o->dst[o->nb] = dst[o->nb];
			o->nb++;
		}
	o->total = (uint64_t)o->nb * o->npkt;
	o->have = calloc((o->total + 63) / 64, 8);
	o->tries = calloc(o->total, 1);
	o->win_pkts = n->info.window / n->info.packet_size;
	o->req_pkts = o->win_pkts / 4 ? o->win_pkts / 4 : 1;
	if (o->req_pkts > 1024)
		o->req_pkts = 1024;
	if (!o->have || !o->tries)
		r = ws_err_set(err, -ENOMEM, "Read IQ: out of memory for %llu packets",
			       (unsigned long long)o->total);
	n->st.read_calls++;
	if (r == 0 && (r = drain_stale(n, err)) >= 0)
		r = read_loop(n, o, err);
	free(o->have);
	free(o->tries);
	free(o->rep);
	free(o);
	return r < 0 ? r : 0;
}

int ws_iq_read(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
	       ws_iq_format fmt, void *const *dst, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = read_call(n, rf_mask, start, count, fmt, dst, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r, &e, perr);
}

/* ---- Write IQ ----------------------------------------------------------------------------- */

typedef struct wr_op {
	uint16_t mask;
	uint8_t iq_id;
	uint32_t start, count, spp, npkt;
	ws_iq_format fmt;
	const void *src;
	int resends;          /* acknowledged mode: packets sent again */
} wr_op;

enum { WR_OK = 0, WR_MISMATCH = 1 };
enum { CH_PENDING = 0, CH_GOOD = 1, CH_BAD = 2 };

static uint32_t wr_samples(const wr_op *o, uint32_t p)
{
	uint64_t s = (uint64_t)p * o->spp;
	return o->count - s < o->spp ? (uint32_t)(o->count - s) : o->spp;
}

/* Prepares packet p in slot k (header + sample iovecs); returns its last sample word. */
static uint32_t build_packet(ws_iq_node *n, const wr_op *o, uint32_t p, unsigned k,
			     uint16_t seq, int robust, int reset)
{
	uint32_t cnt = wr_samples(o, p);
	uint64_t idx = (uint64_t)p * o->spp;
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)cnt;
	ws_wire_transport t = host_tr(n, seq, robust ? WS_WIRE_FLAG_ROBUST : 0, len);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_WRITE_IQ, .length = (uint16_t)(12 + 4 * cnt),
			 .num_args = 1};
	ws_wire_sample_hdr sh = {
		.buffer = o->mask, .iq_id = o->iq_id, .start = (uint32_t)(o->start + idx),
		.count = cnt,
		.flags = (uint8_t)((reset ? WS_WIRE_SFLAG_CHECKSUM_RESET : 0) |
				   (p + 1 == o->npkt ? WS_WIRE_SFLAG_LAST_WRITE : 0))};
	ws_wire_build(n->hdr[k], WS_WIRE_SAMPLE_PKT_HDR, &t, &c, NULL, 0);
	ws_wire_put_sample_hdr(n->hdr[k] + WS_WIRE_OFF_ARGS, WS_WIRE_SAMPLE_HDR_LEN, &sh);
	const uint8_t *data;
	if (o->fmt == WS_IQ_FMT_BE32) {
		data = (const uint8_t *)o->src + idx * 4;
	} else {
		uint8_t *st = n->stage + (size_t)k * 4 * o->spp;
		wire_samples(st, o->fmt, o->src, idx, cnt);
		data = st;
	}
	n->iov[k][0] = (struct iovec){.iov_base = n->hdr[k], .iov_len = WS_WIRE_SAMPLE_PKT_HDR};
	n->iov[k][1] = (struct iovec){.iov_base = (void *)data, .iov_len = 4 * (size_t)cnt};
	n->mm[k].msg_hdr = (struct msghdr){.msg_iov = n->iov[k], .msg_iovlen = 2};
	return ws_get_be32(data + 4 * ((size_t)cnt - 1));
}

/* Sends slots [0, k): one sendmmsg, or one packet at a time on the pacing clock. */
static int send_slots(ws_iq_node *n, unsigned k, int64_t *next, ws_err *err)
{
	if (!n->cfg.pace_ns)
		return send_batch(n, k, err);
	for (unsigned i = 0; i < k; i++) {
		int64_t now = ws_clock_ns();
		if (*next > now + IQ_SPIN_NS)
			ws_clock_sleep_ns(*next - now - IQ_SPIN_NS);
		ws_clock_spin_until(*next);
		n->mm[0] = n->mm[i];
		int r = send_batch(n, 1, err);
		if (r < 0)
			return r;
		*next = (*next > now ? *next : ws_clock_ns()) + (int64_t)n->cfg.pace_ns;
	}
	return 0;
}

static int send_ping_marker(ws_iq_node *n, uint16_t *seq, ws_err *err)
{
	uint8_t buf[32];
	*seq = next_seq(n);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_PING};
	ws_wire_transport t = host_tr(n, *seq, WS_WIRE_FLAG_ROBUST, WS_WIRE_OFF_ARGS);
	int len = ws_wire_build(buf, sizeof buf, &t, &c, NULL, 0);
	return send_one(n, buf, (size_t)len, err);
}

/* Fast mode, in chunks: each sendmmsg batch of IQ_BATCH packets starts with
 * CHECKSUM_RESET and ends with the only ROBUST packet of the batch, so the node's
 * acknowledgement carries WARPLab's checksum of exactly that chunk. A lost, duplicated or
 * reordered packet then costs one chunk sent again, not the whole buffer, and the wire is
 * still WARPLab's (flags and ROBUST are per packet). */
typedef struct fast_state {
	uint32_t nchunks, pending;
	uint32_t *csum;            /* host checksum of each chunk */
	uint8_t *res;              /* 0 pending, 1 verified, 2 failed */
	uint32_t nr[WS_WIRE_NOT_READY_WORDS];
	size_t nr_n;
} fast_state;

static int fast_send(ws_iq_node *n, wr_op *o, fast_state *fs, ws_err *err)
{
	int64_t next = ws_clock_ns();
	for (uint32_t c = 0, p = 0; c < fs->nchunks; c++) {
		ws_wire_csum cs;
		ws_wire_csum_reset(&cs);
		unsigned k = 0;
		for (; k < IQ_BATCH && p < o->npkt; k++, p++) {
			uint16_t seq = next_seq(n);
			int last = k + 1 == IQ_BATCH || p + 1 == o->npkt;
			uint32_t w = build_packet(n, o, p, k, seq, last, k == 0);
			ws_wire_csum_packet(&cs, o->start + p * o->spp, w);
			if (last) {
				n->seq_pkt[seq] = c;
				n->seq_op[seq] = n->op;
			}
		}
		fs->csum[c] = ws_wire_csum_value(&cs);
		int r = send_slots(n, k, &next, err);
		if (r < 0)
			return r;
		n->st.write_packets += k;
	}
	return 0;
}

/* One chunk acknowledgement. Returns 1 when it settled a chunk, 0 if ignored, 2 on
 * NOT_READY (words kept in fs), or an error. */
static int fast_ack(ws_iq_node *n, wr_op *o, fast_state *fs, const ws_wire_msg *m,
		    ws_err *err)
{
	uint32_t w[3 + WS_WIRE_NOT_READY_WORDS];
	size_t nw = ws_wire_get_words(m->args, m->args_len, w, 3 + WS_WIRE_NOT_READY_WORDS);
	uint32_t c = n->seq_pkt[m->tr.seq];
	if (n->seq_op[m->tr.seq] != n->op || c >= fs->nchunks || fs->res[c] != CH_PENDING) {
		n->st.wrong_seq++;
		return 0;
	}
	if (nw < 3 || w[1] != o->iq_id) {
		n->st.malformed++;
		return 0;
	}
	if (w[0] == WS_WIRE_WRITE_IQ_ERROR)
		return ws_err_set(err, WS_E_REMOTE, "Write IQ to %s: the node answered IQ_ERROR",
				  n->name);
	if (w[0] == WS_WIRE_WRITE_NOT_READY) {
		fs->nr_n = nw - 3;
		memcpy(fs->nr, w + 3, fs->nr_n * 4);
		return 2;
	}
	fs->res[c] = w[0] == WS_WIRE_WRITE_OK && w[2] == fs->csum[c] ? CH_GOOD : CH_BAD;
	if (fs->res[c] == CH_BAD)
		n->st.checksum_mismatches++;
	fs->pending--;
	return 1;
}

/* Collects chunk acknowledgements until all are in, the PING behind the last packet is
 * back, or timeout_ms passes without one; chunks still pending then count as failed. */
static int fast_collect(ws_iq_node *n, wr_op *o, fast_state *fs, uint16_t marker, ws_err *err)
{
	int64_t deadline = ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS;
	int marker_back = 0;
	while (fs->pending && !marker_back) {
		int64_t left = deadline - ws_clock_ns();
		int k = recv_batch(n, left > 0 ? left : 0, err);
		if (k < 0)
			return k;
		if (k == 0)
			break;
		for (int i = 0; i < k; i++) {
			ws_wire_msg m;
			const uint8_t *b = n->rx + (size_t)i * n->slot;
			if (check_reply(n, b, n->mm[i].msg_len,
					n->mm[i].msg_hdr.msg_flags & MSG_TRUNC, &m) < 0)
				continue;
			if (m.cmd.cmd == WS_WIRE_CMD_PING && m.tr.seq == marker) {
				marker_back = 1;
				continue;
			}
			int r = m.cmd.cmd == WS_WIRE_CMD_WRITE_IQ ? fast_ack(n, o, fs, &m, err) : 0;
			if (r < 0 || r == 2)
				return r;
			if (r == 1)
				deadline = ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS;
			else if (m.cmd.cmd != WS_WIRE_CMD_WRITE_IQ)
				n->st.wrong_seq++;
		}
	}
	for (uint32_t c = 0; c < fs->nchunks; c++)
		if (fs->res[c] == CH_PENDING) {
			fs->res[c] = CH_BAD;
			fs->pending--;
		}
	return 0;
}

/* One pass of fast mode: WR_OK, WR_MISMATCH (fs->res says which chunks failed), 2 after
 * NOT_READY (WARPLab's wait done, restart), or an error. */
static int fast_pass(ws_iq_node *n, wr_op *o, fast_state *fs, ws_err *err)
{
	n->op++;
	memset(fs->res, CH_PENDING, fs->nchunks);
	fs->pending = fs->nchunks;
	uint16_t marker;
	int r = fast_send(n, o, fs, err);
	if (r == 0)
		r = send_ping_marker(n, &marker, err);
	if (r == 0)
		r = fast_collect(n, o, fs, marker, err);
	if (r == 2) {
		n->st.not_ready++;
		ws_clock_sleep_ns(ws_iq_host_not_ready_wait_ns(fs->nr, fs->nr_n));
		return 2;
	}
	if (r < 0)
		return r;
	for (uint32_t c = 0; c < fs->nchunks; c++)
		if (fs->res[c] != CH_GOOD)
			return WR_MISMATCH;
	return WR_OK;
}

/* ---- acknowledged Write IQ ---- */

typedef struct ack_state {
	uint64_t *acked;           /* bitmap */
	uint32_t *sent_no;         /* send number of the latest copy of each packet */
	uint8_t *sends;
	uint32_t *csum;            /* per-packet checksum (reset + one packet) */
	uint32_t *resend;          /* ring of packets to send again */
	size_t rs_head, rs_n;
	uint32_t (*fly)[2];        /* ring of (packet, send number) in send order */
	size_t fl_head, fl_n;
	uint32_t cursor, nacked, send_no, high;
	uint16_t marker;
	uint32_t marker_no;        /* send number the marker follows; 0 = none out */
} ack_state;

static int ack_is(const ack_state *a, uint32_t p)
{
	return (int)(a->acked[p / 64] >> (p % 64) & 1);
}

static void queue_resend(ack_state *a, uint32_t p, uint32_t npkt)
{
	a->resend[(a->rs_head + a->rs_n++) % npkt] = p;
}

/* Packets in flight that an ack sent IQ_OVERTAKE sends later has passed, or that a marker
 * came back behind, are lost: queue them again. */
static void find_lost(ack_state *a, uint32_t npkt, uint32_t upto)
{
	while (a->fl_n) {
		uint32_t *f = a->fly[a->fl_head];
		if (!ack_is(a, f[0]) && a->sent_no[f[0]] == f[1]) {
			if (f[1] >= upto)
				break;
			queue_resend(a, f[0], npkt);
		}
		a->fl_head = (a->fl_head + 1) % IQ_ACK_WINDOW;
		a->fl_n--;
	}
}

static int ack_send(ws_iq_node *n, wr_op *o, ack_state *a, ws_err *err)
{
	unsigned k = 0;
	int64_t next = ws_clock_ns();
	while (k < IQ_BATCH && a->fl_n < IQ_ACK_WINDOW && (a->rs_n || a->cursor < o->npkt)) {
		uint32_t p;
		if (a->rs_n) {
			p = a->resend[a->rs_head];
			a->rs_head = (a->rs_head + 1) % o->npkt;
			a->rs_n--;
			if (ack_is(a, p))
				continue;
			o->resends++;
			n->st.write_resends++;
		} else {
			p = a->cursor++;
			if (ack_is(a, p))
				continue;
		}
		if (a->sends[p]++ >= n->cfg.retries)
			return ws_err_set(err, WS_E_TIMEDOUT, "Write IQ to %s: packet %u (sample %u) "
					  "not acknowledged after %d sends", n->name, p,
					  o->start + p * o->spp, n->cfg.retries);
		uint16_t seq = next_seq(n);
		n->seq_pkt[seq] = p;
		n->seq_op[seq] = n->op;
		build_packet(n, o, p, k++, seq, 1, 1);
		a->sent_no[p] = ++a->send_no;
		uint32_t *f = a->fly[(a->fl_head + a->fl_n++) % IQ_ACK_WINDOW];
		f[0] = p;
		f[1] = a->send_no;
	}
	if (k) {
		int r = send_slots(n, k, &next, err);
		if (r < 0)
			return r;
		n->st.write_packets += k;
	}
	return (int)k;
}

/* One acknowledgement. Returns 1 if it acknowledged a new packet, 0 if ignored. */
static int ack_one(ws_iq_node *n, wr_op *o, ack_state *a, const ws_wire_msg *m, ws_err *err)
{
	uint32_t w[3 + WS_WIRE_NOT_READY_WORDS];
	size_t nw = ws_wire_get_words(m->args, m->args_len, w, 3 + WS_WIRE_NOT_READY_WORDS);
	uint32_t p = n->seq_pkt[m->tr.seq];
	if (n->seq_op[m->tr.seq] != n->op || p >= o->npkt) {
		n->st.wrong_seq++;
		return 0;
	}
	if (nw < 3 || w[1] != o->iq_id) {
		n->st.malformed++;
		return 0;
	}
	if (w[0] == WS_WIRE_WRITE_IQ_ERROR)
		return ws_err_set(err, WS_E_REMOTE, "Write IQ to %s: the node answered IQ_ERROR "
				  "for packet %u", n->name, p);
	if (w[0] == WS_WIRE_WRITE_NOT_READY) {
		n->st.not_ready++;
		ws_clock_sleep_ns(ws_iq_host_not_ready_wait_ns(w + 3, nw - 3));
		if (!ack_is(a, p))
			queue_resend(a, p, o->npkt);
		return 0;
	}
	if (w[0] != WS_WIRE_WRITE_OK || w[2] != a->csum[p]) {
		n->st.checksum_mismatches++;
		return 0;
	}
	if (ack_is(a, p))
		return 0;
	a->acked[p / 64] |= 1ull << (p % 64);
	a->nacked++;
	if (a->sent_no[p] > a->high)
		a->high = a->sent_no[p];
	return 1;
}

static int ack_recv(ws_iq_node *n, wr_op *o, ack_state *a, int64_t wait, ws_err *err)
{
	int k = recv_batch(n, wait, err), progress = 0;
	if (k <= 0)
		return k;
	for (int i = 0; i < k; i++) {
		ws_wire_msg m;
		const uint8_t *b = n->rx + (size_t)i * n->slot;
		if (check_reply(n, b, n->mm[i].msg_len, n->mm[i].msg_hdr.msg_flags & MSG_TRUNC,
				&m) < 0)
			continue;
		if (m.cmd.cmd == WS_WIRE_CMD_PING && a->marker_no && m.tr.seq == a->marker) {
			find_lost(a, o->npkt, a->marker_no + 1);
			a->marker_no = 0;
			progress = 1;
			continue;
		}
		if (m.cmd.cmd != WS_WIRE_CMD_WRITE_IQ) {
			n->st.wrong_seq++;
			continue;
		}
		int r = ack_one(n, o, a, &m, err);
		if (r < 0)
			return r;
		progress |= r;
	}
	if (a->high > IQ_OVERTAKE)
		find_lost(a, o->npkt, a->high - IQ_OVERTAKE);
	return progress ? 1 : 2;
}

static int ack_loop(ws_iq_node *n, wr_op *o, ack_state *a, ws_err *err)
{
	int idle = 0;
	int64_t idle_ns = (int64_t)n->cfg.idle_ms * WS_NS_PER_MS;
	while (a->nacked < o->npkt) {
		int sent = ack_send(n, o, a, err);
		if (sent < 0)
			return sent;
		if (!sent && !a->marker_no && a->fl_n) {
			int r = send_ping_marker(n, &a->marker, err);
			if (r < 0)
				return r;
			a->marker_no = a->send_no;
		}
		int r = ack_recv(n, o, a, sent ? 0 : idle_ns, err);
		if (r < 0)
			return r;
		if (r > 0) {
			idle = r == 1 ? 0 : idle;
			continue;
		}
		if (sent)
			continue;
		n->st.timeouts++;
		if (++idle > n->cfg.retries)
			return ws_err_set(err, WS_E_TIMEDOUT, "Write IQ to %s: the node stopped "
					  "answering (%u of %u packets acknowledged after %d timeouts "
					  "of %u ms)", n->name, a->nacked, o->npkt, idle - 1,
					  n->cfg.idle_ms);
		/* Probe: the PING's answer marks what was sent before it as lost. */
		int pr = send_ping_marker(n, &a->marker, err);
		if (pr < 0)
			return pr;
		a->marker_no = a->send_no;
	}
	return 0;
}

/* Acknowledged Write IQ of every packet, or with done (chunk results of a fast pass)
 * only of the packets whose chunk was not verified. */
static int write_acked(ws_iq_node *n, wr_op *o, const uint8_t *done, ws_err *err)
{
	ack_state a = {0};
	size_t np = o->npkt;
	a.acked = calloc((np + 63) / 64, 8);
	a.sent_no = calloc(np, 4);
	a.sends = calloc(np, 1);
	a.csum = malloc(np * 4);
	a.resend = malloc(np * 4);
	a.fly = malloc(sizeof *a.fly * IQ_ACK_WINDOW);
	int r = 0;
	if (!a.acked || !a.sent_no || !a.sends || !a.csum || !a.resend || !a.fly)
		r = ws_err_set(err, -ENOMEM, "Write IQ: out of memory for %zu packets", np);
	for (uint32_t p = 0; r == 0 && p < np; p++) {
		uint8_t last[4];
		uint32_t cnt = wr_samples(o, p);
		ws_iq_host_to_wire(last, o->fmt, o->src, (uint64_t)p * o->spp + cnt - 1, 1);
		ws_wire_csum cs;
		ws_wire_csum_reset(&cs);
		ws_wire_csum_packet(&cs, o->start + p * o->spp, ws_get_be32(last));
		a.csum[p] = ws_wire_csum_value(&cs);
	}
	for (uint32_t p = 0; r == 0 && done && p < np; p++)
		if (done[p / IQ_BATCH] == CH_GOOD) {
			a.acked[p / 64] |= 1ull << (p % 64);
			a.nacked++;
		}
	n->op++;
	o->resends = 0;
	if (r == 0)
		r = ack_loop(n, o, &a, err);
	free(a.acked);
	free(a.sent_no);
	free(a.sends);
	free(a.csum);
	free(a.resend);
	free(a.fly);
	return r;
}

static int write_fast(ws_iq_node *n, wr_op *o, fast_state *fs, ws_err *err)
{
	for (int tries = 0;; tries++) {
		int r = fast_pass(n, o, fs, err);
		if (r != 2)
			return r;
		if (tries >= n->cfg.retries)
			return ws_err_set(err, WS_E_TIMEDOUT, "Write IQ to %s: the node was still not "
					  "ready after %d NOT_READY answers", n->name, tries + 1);
	}
}

/* Fast, then acknowledged for the chunks that failed (WARPLab restarts the whole buffer
 * acknowledged, one packet at a time). */
static int write_fast_fallback(ws_iq_node *n, wr_op *o, ws_err *err)
{
	fast_state fs = {.nchunks = (o->npkt + IQ_BATCH - 1) / IQ_BATCH};
	fs.csum = malloc(fs.nchunks * sizeof *fs.csum);
	fs.res = malloc(fs.nchunks);
	int r = fs.csum && fs.res ? write_fast(n, o, &fs, err)
				  : ws_err_set(err, -ENOMEM, "Write IQ: out of memory");
	if (r == WR_OK && n->sticky > IQ_STICKY)
		n->sticky /= 2;
	if (r == WR_MISMATCH) {
		/* A path that reorders (a veth pair whose queue runs on both CPUs does) fails
		 * fast writes again and again: AUTO stays acknowledged longer after each
		 * fallback in a row. */
		n->st.write_fallbacks++;
		if (n->cfg.write_mode == WS_IQ_WRITE_AUTO) {
			n->acked_left = n->sticky;
			n->sticky = n->sticky * 2 > IQ_STICKY_MAX ? IQ_STICKY_MAX : n->sticky * 2;
		}
		r = write_acked(n, o, fs.res, err);
		if (r < 0)
			ws_err_prefix(err, "after a checksum mismatch of the fast write");
	}
	free(fs.csum);
	free(fs.res);
	return r;
}

static int write_one(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		     ws_iq_format fmt, const void *src, ws_err *err)
{
	wr_op o = {.mask = (uint16_t)mask, .iq_id = n->write_id++, .start = start,
		   .count = count, .spp = n->info.samples_per_packet, .fmt = fmt, .src = src};
	o.npkt = (uint32_t)(((uint64_t)count + o.spp - 1) / o.spp);
	n->st.write_calls++;
	int r = drain_stale(n, err);
	if (r < 0)
		return r;
	ws_iq_write_mode mode = n->cfg.write_mode;
	if (mode == WS_IQ_WRITE_ACKED || (mode == WS_IQ_WRITE_AUTO && n->acked_left > 0)) {
		r = write_acked(n, &o, NULL, err);
		if (r == 0 && mode == WS_IQ_WRITE_AUTO)
			n->acked_left = o.resends ? n->sticky : n->acked_left - 1;
		return r;
	}
	return write_fast_fallback(n, &o, err);
}

int ws_iq_write(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
		ws_iq_format fmt, const void *src, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, 1, &e);
	if (r == 0)
		r = write_one(n, rf_mask, start, count, fmt, src, &e);
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
			r = write_one(n, bit, start, count, fmt, src[i++], &e);
			if (r < 0)
				ws_err_prefix(&e, "%s", rf_name(bit));
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
		r = drain_stale(n, &e);
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
	int len = trigger_packet(buf, sizeof buf, n->cfg.host_id, next_seq(n), ids);
	if (!n->cfg.trigger_port || n->cfg.trigger_port == n->cfg.port) {
		r = send_one(n, buf, (size_t)len, &e);
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
