/* SPDX-License-Identifier: BSD-2-Clause */
/* hostio: the IQ host handle's socket and the checks every received datagram passes.
 *
 * One connected, non-blocking UDP socket per handle: the kernel then drops datagrams from
 * any other address and turns a closed port into ECONNREFUSED instead of a silent
 * timeout. Sends wait (bounded) for room rather than drop, receives come in recvmmsg
 * batches into the handle's slots, and every datagram passes one check (whole, from our
 * node to our host ID) before any engine looks at it. See hostio.h. */
#include "iq/host/hostio.h"

#include "util/clock.h"
#include "util/udp_gso.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define IQ_GSO_MAX_BYTES 65000 /* one GSO send is one IP datagram before segmentation */

const char *ws_iq_host_rf_name(unsigned bit)
{
	static const char *const names[4] = {"RF_A", "RF_B", "RF_C", "RF_D"};
	for (unsigned i = 0; i < 4; i++)
		if (bit == 1u << i)
			return names[i];
	return "RF_?";
}

int ws_iq_host_alloc(ws_iq_node *n, ws_err *err)
{
	/* A slot holds the largest datagram the node may send; the stage holds a batch of
	 * converted Write IQ packets end to end (header and samples, each at most a slot
	 * less 64 bytes, after a 30-byte offset), or one payload size test. */
	n->slot = (size_t)n->cfg.max_payload + 64;
	n->rx = malloc(n->slot * WS_IQ_HOST_BATCH);
	n->stage = malloc(n->slot * WS_IQ_HOST_BATCH);
	n->seq_pkt = calloc(65536, sizeof *n->seq_pkt);
	n->seq_op = calloc(65536, sizeof *n->seq_op);
	/* The windows start small: a handle finds its path's by growing them. */
	ws_iqcc_init(&n->rcc, WS_IQ_WIN_START, WS_IQ_WIN_MIN, UINT32_MAX);
	ws_iqcc_init(&n->wcc, WS_IQ_WIN_START, WS_IQ_WIN_MIN, WS_IQ_ACK_WINDOW_MAX);
	if (!n->rx || !n->stage || !n->seq_pkt || !n->seq_op)
		return ws_err_set(err, -ENOMEM, "iq: out of memory for the socket buffers");
	return 0;
}

void ws_iq_host_release(ws_iq_node *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
	free(n->rx);
	free(n->stage);
	free(n->seq_pkt);
	free(n->seq_op);
	n->rx = n->stage = NULL;
	n->seq_pkt = n->seq_op = NULL;
}

/* WARPLab's NOT_READY wait: (remaining bytes / 160) us + 100 us, the remaining air time of
 * the longer of the TX and RX buffers at 40 MS/s (160 bytes a microsecond). The six status
 * words are the firmware's byte pointers and lengths. */
static int64_t wait_for_bytes(uint64_t rem)
{
	return (int64_t)(rem * WS_NS_PER_US / 160) + 100 * WS_NS_PER_US;
}

int64_t ws_iq_host_not_ready_wait_ns(const uint32_t *w, size_t nw)
{
	uint64_t rem = 0;
	if (nw >= 6) {
		uint64_t tx = w[2] > w[1] ? (uint64_t)(w[2] - w[1]) : 0;
		uint64_t rx = w[5] > w[4] ? (uint64_t)(w[5] - w[4]) : 0;
		rem = tx > rx ? tx : rx;
	}
	return wait_for_bytes(rem);
}

int64_t ws_iq_host_not_ready_cap_ns(const ws_iq_node *n, const uint32_t *w, size_t nw)
{
	uint32_t big = n->info.max_tx_samples > n->info.max_rx_samples ? n->info.max_tx_samples
								       : n->info.max_rx_samples;
	if (big > WS_IQ_NOT_READY_MAX_SAMPLES) /* NODE_INFO comes from the network too */
		big = WS_IQ_NOT_READY_MAX_SAMPLES;
	int64_t wait = ws_iq_host_not_ready_wait_ns(w, nw);
	int64_t cap = wait_for_bytes(4 * (uint64_t)big);
	return wait < cap ? wait : cap;
}

void ws_iq_host_not_ready_pause(ws_iq_node *n, const uint32_t *w, size_t nw)
{
	if (!n->offline)
		ws_clock_sleep_ns(ws_iq_host_not_ready_cap_ns(n, w, nw));
}

static void set_buf(int fd, int force, int opt, int bytes)
{
	if (bytes > 0 && setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof bytes) < 0)
		setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof bytes);
}

int ws_iq_host_open_socket(ws_iq_node *n, ws_err *err)
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
				  "listens on that port",
				  n->name);
	errno = e;
	return ws_err_errno(err, "iq: socket I/O with %s", n->name);
}

int ws_iq_host_send_one(ws_iq_node *n, const uint8_t *b, size_t len, ws_err *err)
{
	if (n->offline)
		return 0;
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

/* After a send that did not go: a real error, or a full socket waited on (at most 1000
 * times in a row, 10 ms each). Returns 0 to try again or the error. */
static int send_wait(ws_iq_node *n, int *stuck, ws_err *err)
{
	int e = errno;
	if (e != EAGAIN && e != ENOBUFS)
		return sock_error(n, e, err);
	if (++*stuck > 1000)
		return ws_err_set(err, WS_E_TIMEDOUT, "iq: send to %s: the socket stayed full",
				  n->name);
	struct pollfd p = {.fd = n->fd, .events = POLLOUT};
	poll(&p, 1, 10);
	if (e == ENOBUFS)
		ws_clock_sleep_ns(20 * WS_NS_PER_US);
	return 0;
}

/* Bytes of the packet in slot i. */
static size_t pkt_len(const ws_iq_node *n, unsigned i)
{
	return n->iov[i][0].iov_len + n->iov[i][1].iov_len;
}

/* Messages for slots [from, k) as UDP GSO runs: consecutive packets of the first one's
 * length (a shorter one, the last of a write, ends its run), at most IQ_GSO_MAX_BYTES per
 * message (one IP datagram before segmentation). A run's iovecs are the slots' own,
 * copied to n->giov with the ones adjacent in memory merged: raw words are header +
 * caller's samples (two per packet), converted packets lie end to end in the stage (one
 * per run). Returns the number of messages in n->gmm. */
static unsigned gso_msgs(ws_iq_node *n, unsigned from, unsigned k)
{
	unsigned nm = 0, ni = 0;
	for (unsigned i = from; i < k; nm++) {
		size_t seg = pkt_len(n, i), total = seg;
		unsigned cnt = 1;
		while (i + cnt < k && total + pkt_len(n, i + cnt) <= IQ_GSO_MAX_BYTES &&
		       pkt_len(n, i + cnt) <= seg) {
			total += pkt_len(n, i + cnt);
			if (pkt_len(n, i + cnt++) < seg)
				break;
		}
		struct iovec *v = n->giov + ni;
		size_t nv = 0;
		for (unsigned j = i; j < i + cnt; j++)
			for (size_t x = 0; x < n->mm[j].msg_hdr.msg_iovlen; x++) {
				const struct iovec *e = &n->iov[j][x];
				if (nv &&
				    (uint8_t *)v[nv - 1].iov_base + v[nv - 1].iov_len ==
					    e->iov_base)
					v[nv - 1].iov_len += e->iov_len;
				else
					v[nv++] = *e;
			}
		ni += (unsigned)nv;
		struct msghdr *h = &n->gmm[nm].msg_hdr;
		*h = (struct msghdr){.msg_iov = v, .msg_iovlen = nv};
		if (cnt > 1)
			ws_udp_gso_cmsg(h, n->gctl[nm], (uint16_t)seg);
		n->gpk[nm] = cnt;
		i += cnt;
	}
	return nm;
}

/* Whether slots [0, k) are the packets build_packet laid out (one or two iovecs of their
 * own slot each), which a GSO run can send as one message. */
static int gso_fits(const ws_iq_node *n, unsigned k)
{
	if (n->gso_off || k < 2)
		return 0;
	for (unsigned i = 0; i < k; i++)
		if (n->mm[i].msg_hdr.msg_iov != n->iov[i] || n->mm[i].msg_hdr.msg_iovlen < 1 ||
		    n->mm[i].msg_hdr.msg_iovlen > 2)
			return 0;
	return 1;
}

/* Sends slots [0, k) as GSO runs; returns how many packets went (all, or fewer when the
 * path refused GSO, which then stays off for the handle), or an error. */
static int send_gso(ws_iq_node *n, unsigned k, ws_err *err)
{
	unsigned sent = 0;
	int stuck = 0;
	while (sent < k) {
		unsigned nm = gso_msgs(n, sent, k);
		int r = sendmmsg(n->fd, n->gmm, nm, 0);
		if (r > 0) {
			for (int m = 0; m < r; m++)
				sent += n->gpk[m];
			stuck = 0;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 &&
		    (errno == EIO || errno == EMSGSIZE || errno == EINVAL || errno == EOPNOTSUPP)) {
			n->gso_off = 1; /* no checksum offload or a segment above the MTU */
			return (int)sent;
		}
		if ((r = send_wait(n, &stuck, err)) < 0)
			return r;
	}
	return (int)sent;
}

int ws_iq_host_send_batch(ws_iq_node *n, unsigned k, ws_err *err)
{
	unsigned done = n->offline ? k : 0;
	if (!n->offline && gso_fits(n, k)) {
		int r = send_gso(n, k, err);
		if (r < 0)
			return r;
		done = (unsigned)r;
	}
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
		if ((r = send_wait(n, &stuck, err)) < 0)
			return r;
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
	while (!n->offline) {
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
	return 0;
}

int ws_iq_host_recv_until(ws_iq_node *n, int64_t deadline, ws_err *err)
{
	int64_t left = deadline - ws_clock_ns();
	return left > 0 ? ws_iq_host_recv_batch(n, left, err) : 0;
}

int64_t ws_iq_host_budget_ns(const ws_iq_node *n)
{
	return (int64_t)(n->cfg.budget_ms ? n->cfg.budget_ms : WS_IQ_BUDGET_DEFAULT_MS) *
		WS_NS_PER_MS;
}

void ws_iq_host_junk_note(const ws_iq_node *n, const ws_iq_stats *from, char *buf, size_t cap)
{
	const ws_iq_stats *s = &n->st;
	unsigned long long mal = s->malformed - from->malformed,
			   node = s->wrong_node - from->wrong_node,
			   seq = s->wrong_seq - from->wrong_seq, stale = s->stale - from->stale;
	snprintf(buf, cap,
		 "%llu junk datagrams (malformed %llu, wrong node %llu, wrong seq %llu, "
		 "stale %llu) and %llu duplicates",
		 mal + node + seq + stale, mal, node, seq, stale,
		 (unsigned long long)(s->read_dup_packets - from->read_dup_packets));
}

void ws_iq_host_junk_append(const ws_iq_node *n, const ws_iq_stats *from, ws_err *err)
{
	const ws_iq_stats *s = &n->st;
	if (!err ||
	    s->malformed + s->wrong_node + s->wrong_seq + s->stale + s->read_dup_packets ==
		    from->malformed + from->wrong_node + from->wrong_seq + from->stale +
			    from->read_dup_packets)
		return;
	char note[200];
	size_t len = strlen(err->msg);
	ws_iq_host_junk_note(n, from, note, sizeof note);
	snprintf(err->msg + len, sizeof err->msg - len, "; meanwhile %s", note);
}

/* What an earlier call leaves behind is late packets of a finished read. */
int ws_iq_host_drain_stale(ws_iq_node *n, ws_err *err)
{
	int r;
	while ((r = ws_iq_host_recv_batch(n, 0, err)) > 0)
		n->st.stale += (uint64_t)r;
	return r;
}

int ws_iq_host_check(ws_iq_node *n, const uint8_t *b, size_t len, int trunc, ws_wire_msg *m)
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

int ws_iq_host_reply(ws_iq_node *n, unsigned i, ws_wire_msg *m)
{
	return ws_iq_host_check(n, n->rx + (size_t)i * n->slot, n->mm[i].msg_len,
				(n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, m);
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

/* ---- the windows' bounds ---- */

void ws_iq_host_bounds(ws_iq_node *n)
{
	uint64_t pkt = n->info.packet_size ? n->info.packet_size : 1;
	/* A datagram costs its truesize in the receive buffer, about payload + 1 KiB on
	 * loopback and veth, and the kernel reports twice what was asked. */
	uint64_t hold = n->info.rcvbuf ? (uint64_t)n->info.rcvbuf / 2 / (pkt + 1024) * pkt
				       : UINT64_MAX; /* no socket (the fuzzers' handle) */
	uint64_t span = (uint64_t)n->rtt_ns + (uint64_t)n->cfg.stall_budget_ms * WS_NS_PER_MS;
	uint64_t need = n->rate_Bps / 1000 * span / 1000000; /* bytes in flight over the span */
	uint64_t w = n->cfg.window ? n->cfg.window
				   : (need > WS_IQ_DEFAULT_WINDOW ? need : WS_IQ_DEFAULT_WINDOW);
	if (w > hold)
		w = hold;
	if (w < pkt)
		w = pkt;
	n->info.window = (uint32_t)(w > UINT32_MAX ? UINT32_MAX : w);
	ws_iqcc_bound(&n->rcc, (uint32_t)(n->info.window / pkt));
	uint64_t a = need / pkt;
	a = a < WS_IQ_ACK_WINDOW           ? WS_IQ_ACK_WINDOW
		: a > WS_IQ_ACK_WINDOW_MAX ? WS_IQ_ACK_WINDOW_MAX
					   : a;
	n->ack_hi = (uint32_t)a;
	ws_iqcc_bound(&n->wcc, n->ack_hi);
	/* The send buffer is what the link drains while the sending thread is off the CPU:
	 * grown (never below cfg.sndbuf, never above WS_IQ_SNDBUF_MAX) when it holds less
	 * than 3/4 of the span's bytes; the kernel reports twice what was asked. */
	uint64_t snd = need < WS_IQ_SNDBUF_MAX ? need : WS_IQ_SNDBUF_MAX;
	if (n->fd >= 0 && snd > (uint64_t)n->cfg.sndbuf && snd > (uint64_t)n->info.sndbuf / 2 &&
	    snd * 3 / 4 > (uint64_t)n->info.sndbuf / 2) {
		set_buf(n->fd, SO_SNDBUFFORCE, SO_SNDBUF, (int)snd);
		socklen_t sl = sizeof n->info.sndbuf;
		getsockopt(n->fd, SOL_SOCKET, SO_SNDBUF, &n->info.sndbuf, &sl);
	}
}

void ws_iq_host_note_rate(ws_iq_node *n, uint64_t bytes, int64_t ns)
{
	if (ns >= WS_NS_PER_MS)
		n->rate_Bps = bytes * 1000 / (uint64_t)(ns / 1000 ? ns / 1000 : 1) * 1000;
}
