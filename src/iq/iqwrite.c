/* iqwrite: the Write IQ engine of the IQ host transport (ws_iq_write, ws_iq_write_multi).
 *
 * WARPLab writes in a fast mode whose only safety net is a checksum that, on a mismatch,
 * restarts the whole buffer one acknowledged packet at a time. This engine keeps the wire
 * and the checksum but narrows what a failure costs: packets go out in sendmmsg batches,
 * each batch a chunk verified by WARPLab's checksum in its one acknowledgement, and a PING
 * behind the last packet ends the wait at once. The fallback for a failed chunk
 * acknowledges every packet with the checksum reset per packet, pipelined, so each
 * acknowledgement proves one packet's placement and only unacknowledged packets are sent
 * again. AUTO mode stays acknowledged for a while after a fallback, because a path that
 * reorders fails long fast writes again and again. Retries are bounded; a write that
 * cannot complete fails and says why. */
#include "iq/iqwrite.h"

#include "iq/iqconv.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IQ_STICKY_MAX 256  /* AUTO: sticky doubles per fallback in a row, up to this */
#define IQ_ACK_WINDOW 512  /* acknowledged Write IQ packets in flight */
#define IQ_ACK_MIN 4       /* the least the acknowledged window shrinks to */
#define IQ_OVERTAKE 8      /* an ack this many sends later marks an unacked packet lost */
#define IQ_ACK_HARD_LOSS 4 /* sends of one packet that make its loss the path's doing */
#define IQ_SPIN_NS (200 * WS_NS_PER_US) /* pacing gaps below this are busy-waited */

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

/* Where converted packet k starts in the stage: converted packets lie end to end, header
 * and samples each, so that a packet is one iovec and a GSO run of them one iovec too (the
 * kernel copies one contiguous run instead of two pieces per packet; at 2^20 cf32 on
 * loopback sendmmsg took 3-13 % less time a write). The first packet's samples start on
 * a cache line. */
#define IQ_STAGE_OFF (64 - WS_WIRE_SAMPLE_PKT_HDR % 64)

/* Prepares packet p in slot k: raw words as header + sample iovecs (the samples straight
 * from the caller's buffer), a converted format as one iovec in the stage. Returns the
 * packet's last sample word. */
static uint32_t build_packet(ws_iq_node *n, const wr_op *o, uint32_t p, unsigned k,
			     uint16_t seq, int robust, int reset)
{
	uint32_t cnt = wr_samples(o, p);
	uint64_t idx = (uint64_t)p * o->spp;
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)cnt;
	ws_wire_transport t = ws_iq_host_tr(n, seq, robust ? WS_WIRE_FLAG_ROBUST : 0, len);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_WRITE_IQ, .length = (uint16_t)(12 + 4 * cnt),
			 .num_args = 1};
	ws_wire_sample_hdr sh = {
		.buffer = o->mask, .iq_id = o->iq_id, .start = (uint32_t)(o->start + idx),
		.count = cnt,
		.flags = (uint8_t)((reset ? WS_WIRE_SFLAG_CHECKSUM_RESET : 0) |
				   (p + 1 == o->npkt ? WS_WIRE_SFLAG_LAST_WRITE : 0))};
	int raw = o->fmt == WS_IQ_FMT_BE32;
	uint8_t *h = raw ? n->hdr[k]
			 : n->stage + IQ_STAGE_OFF +
				   (size_t)k * (WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)o->spp);
	ws_wire_build(h, WS_WIRE_SAMPLE_PKT_HDR, &t, &c, NULL, 0);
	ws_wire_put_sample_hdr(h + WS_WIRE_OFF_ARGS, WS_WIRE_SAMPLE_HDR_LEN, &sh);
	const uint8_t *data;
	if (raw) {
		data = (const uint8_t *)o->src + idx * 4;
		n->iov[k][0] = (struct iovec){.iov_base = h, .iov_len = WS_WIRE_SAMPLE_PKT_HDR};
		n->iov[k][1] = (struct iovec){.iov_base = (void *)data, .iov_len = 4 * (size_t)cnt};
	} else {
		data = h + WS_WIRE_SAMPLE_PKT_HDR;
		ws_iqconv_to_wire_ahead(h + WS_WIRE_SAMPLE_PKT_HDR, o->fmt, o->src, idx, cnt, o->count);
		n->iov[k][0] = (struct iovec){.iov_base = h, .iov_len = len};
		n->iov[k][1] = (struct iovec){.iov_base = NULL, .iov_len = 0};
	}
	n->mm[k].msg_hdr = (struct msghdr){.msg_iov = n->iov[k], .msg_iovlen = raw ? 2 : 1};
	return ws_get_be32(data + 4 * ((size_t)cnt - 1));
}

/* Sends slots [0, k) as one sendmmsg at write_rate_bps: the handle's rate_next is when
 * the node's link has sent everything before them (fast chunks and acknowledged windows
 * alike); the batch goes once that is at most one full batch ahead, so a slower port
 * beyond a switch queues at most two batches (about 1.2 MB jumbo). */
static int send_rated(ws_iq_node *n, unsigned k, ws_err *err)
{
	int64_t *next = &n->rate_next;
	uint64_t bits = 0, full = (uint64_t)WS_IQ_HOST_BATCH * (n->info.packet_size + 42) * 8;
	for (unsigned i = 0; i < k; i++)
		bits += (n->iov[i][0].iov_len + n->iov[i][1].iov_len + 42) * 8;
	int64_t ahead = (int64_t)(full * WS_NS_PER_SEC / n->cfg.write_rate_bps);
	int64_t now = ws_clock_ns();
	if (*next - now > ahead)
		ws_clock_sleep_ns(*next - now - ahead);
	int r = ws_iq_host_send_batch(n, k, err);
	now = ws_clock_ns();
	*next = (*next > now ? *next : now) + (int64_t)(bits * WS_NS_PER_SEC / n->cfg.write_rate_bps);
	return r;
}

/* Sends slots [0, k): one sendmmsg, or one packet at a time on the pacing clock. */
static int send_slots(ws_iq_node *n, unsigned k, int64_t *next, ws_err *err)
{
	if (n->cfg.write_rate_bps && !n->cfg.pace_ns)
		return send_rated(n, k, err);
	if (!n->cfg.pace_ns)
		return ws_iq_host_send_batch(n, k, err);
	for (unsigned i = 0; i < k; i++) {
		int64_t now = ws_clock_ns();
		if (*next > now + IQ_SPIN_NS)
			ws_clock_sleep_ns(*next - now - IQ_SPIN_NS);
		ws_clock_spin_until(*next);
		n->mm[0] = n->mm[i];
		int r = ws_iq_host_send_batch(n, 1, err);
		if (r < 0)
			return r;
		*next = (*next > now ? *next : ws_clock_ns()) + (int64_t)n->cfg.pace_ns;
	}
	return 0;
}

/* Fast mode, in chunks: each sendmmsg batch of WS_IQ_HOST_BATCH packets starts with
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
		for (; k < WS_IQ_HOST_BATCH && p < o->npkt; k++, p++) {
			uint16_t seq = ws_iq_host_next_seq(n);
			int last = k + 1 == WS_IQ_HOST_BATCH || p + 1 == o->npkt;
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

/* One datagram during a fast pass: fast_ack's result, or 0 with *marker_back set when it
 * is the answer to the PING behind the last packet. */
static int fast_dgram(ws_iq_node *n, wr_op *o, fast_state *fs, uint16_t marker,
		      const uint8_t *b, size_t len, int trunc, int *marker_back, ws_err *err)
{
	ws_wire_msg m;
	if (ws_iq_host_check(n, b, len, trunc, &m) < 0)
		return 0;
	if (m.cmd.cmd == WS_WIRE_CMD_PING && m.tr.seq == marker) {
		*marker_back = 1;
		return 0;
	}
	if (m.cmd.cmd == WS_WIRE_CMD_WRITE_IQ)
		return fast_ack(n, o, fs, &m, err);
	n->st.wrong_seq++;
	return 0;
}

/* Collects chunk acknowledgements until all are in, the PING behind the last packet is
 * back, or timeout_ms passes without one; chunks still pending then count as failed. */
static int fast_collect(ws_iq_node *n, wr_op *o, fast_state *fs, uint16_t marker, ws_err *err)
{
	int64_t deadline = ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS;
	int marker_back = 0;
	while (fs->pending && !marker_back) {
		int64_t left = deadline - ws_clock_ns();
		int k = ws_iq_host_recv_batch(n, left > 0 ? left : 0, err);
		if (k < 0)
			return k;
		if (k == 0)
			break;
		for (int i = 0; i < k; i++) {
			int r = fast_dgram(n, o, fs, marker, n->rx + (size_t)i * n->slot,
					   n->mm[i].msg_len,
					   (n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, &marker_back,
					   err);
			if (r < 0 || r == 2)
				return r;
			if (r == 1)
				deadline = ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS;
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
		r = ws_iq_host_send_ping(n, &marker, err);
	if (r == 0)
		r = fast_collect(n, o, fs, marker, err);
	if (r == 2) {
		n->st.not_ready++;
		ws_iq_host_not_ready_pause(n, fs->nr, fs->nr_n);
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
	uint32_t win, win_acc;     /* packets allowed in flight; new acks since it grew */
	uint32_t cut_after;        /* the first send number after the last cut */
} ack_state;

static int ack_is(const ack_state *a, uint32_t p)
{
	return (int)(a->acked[p / 64] >> (p % 64) & 1);
}

static void queue_resend(ack_state *a, uint32_t p, uint32_t npkt)
{
	a->resend[(a->rs_head + a->rs_n++) % npkt] = p;
}

/* The window of an acknowledged write, as a read's (iqread.c): a host faster than the
 * slowest link on the way loses packets once the queue there is full, resends included
 * (the gige-jumbo bed with a 2 ms queue: "packet 73 not acknowledged after 20 sends" with
 * IQ_ACK_WINDOW packets in flight). Random loss is repaired fastest with the window kept
 * full: halving it at every loss held a 2^23 write through lossy-gige-jumbo (1 %) to
 * 834-837 Mb/s against 962-972 with the full window. So only a packet lost on its
 * IQ_ACK_HARD_LOSS-th send counts: then the window halves, once for the packets that
 * were in flight when it was seen, down to IQ_ACK_MIN; each window of new acks grows it
 * by one packet, up to IQ_ACK_WINDOW, which a path without such losses keeps. */
static void ack_window_cut(ws_iq_node *n, ack_state *a, uint32_t p, uint32_t lost_send_no)
{
	if (a->sends[p] < IQ_ACK_HARD_LOSS || lost_send_no < a->cut_after)
		return;
	a->win = a->win / 2 > IQ_ACK_MIN ? a->win / 2 : IQ_ACK_MIN;
	a->win_acc = 0;
	a->cut_after = a->send_no + 1;
	if (a->win < n->ack_win_least)
		n->ack_win_least = a->win;
}

static void ack_window_grow(ack_state *a)
{
	if (++a->win_acc >= a->win && a->win < IQ_ACK_WINDOW) {
		a->win_acc = 0;
		a->win++;
	}
}

/* Packets in flight that an ack sent IQ_OVERTAKE sends later has passed, or that a marker
 * came back behind, are lost: queue them again. */
static void find_lost(ws_iq_node *n, ack_state *a, uint32_t npkt, uint32_t upto)
{
	while (a->fl_n) {
		uint32_t *f = a->fly[a->fl_head];
		if (!ack_is(a, f[0]) && a->sent_no[f[0]] == f[1]) {
			if (f[1] >= upto)
				break;
			queue_resend(a, f[0], npkt);
			ack_window_cut(n, a, f[0], f[1]);
		}
		a->fl_head = (a->fl_head + 1) % IQ_ACK_WINDOW;
		a->fl_n--;
	}
}

static int ack_send(ws_iq_node *n, wr_op *o, ack_state *a, ws_err *err)
{
	unsigned k = 0;
	int64_t next = ws_clock_ns();
	while (k < WS_IQ_HOST_BATCH && a->fl_n < a->win &&
	       (a->rs_n || a->cursor < o->npkt)) {
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
		uint16_t seq = ws_iq_host_next_seq(n);
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
		ws_iq_host_not_ready_pause(n, w + 3, nw - 3);
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
	ack_window_grow(a);
	if (a->sent_no[p] > a->high)
		a->high = a->sent_no[p];
	return 1;
}

/* One datagram during an acknowledged write: 1 when it acknowledged a new packet or was
 * the probe's answer (which marks what was sent before the probe as lost), 0 when it was
 * ignored and counted, or an error. Packets passed by a later acknowledgement are queued
 * again. */
static int ack_dgram(ws_iq_node *n, wr_op *o, ack_state *a, const uint8_t *b, size_t len,
		     int trunc, ws_err *err)
{
	ws_wire_msg m;
	int r = 0;
	if (ws_iq_host_check(n, b, len, trunc, &m) < 0)
		return 0;
	if (m.cmd.cmd == WS_WIRE_CMD_PING && a->marker_no && m.tr.seq == a->marker) {
		find_lost(n, a, o->npkt, a->marker_no + 1);
		a->marker_no = 0;
		return 1;
	}
	if (m.cmd.cmd != WS_WIRE_CMD_WRITE_IQ)
		n->st.wrong_seq++;
	else
		r = ack_one(n, o, a, &m, err);
	if (r >= 0 && a->high > IQ_OVERTAKE)
		find_lost(n, a, o->npkt, a->high - IQ_OVERTAKE);
	return r;
}

static int ack_recv(ws_iq_node *n, wr_op *o, ack_state *a, int64_t wait, ws_err *err)
{
	int k = ws_iq_host_recv_batch(n, wait, err), progress = 0;
	if (k <= 0)
		return k;
	for (int i = 0; i < k; i++) {
		int r = ack_dgram(n, o, a, n->rx + (size_t)i * n->slot, n->mm[i].msg_len,
				  (n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, err);
		if (r < 0)
			return r;
		progress |= r;
	}
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
			int r = ws_iq_host_send_ping(n, &a->marker, err);
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
		int pr = ws_iq_host_send_ping(n, &a->marker, err);
		if (pr < 0)
			return pr;
		a->marker_no = a->send_no;
	}
	return 0;
}

static void ack_free(ack_state *a)
{
	free(a->acked);
	free(a->sent_no);
	free(a->sends);
	free(a->csum);
	free(a->resend);
	free(a->fly);
}

/* The state of an acknowledged write of every packet, or with done (chunk results of a
 * fast pass) of the packets whose chunk was not verified. */
static int ack_init(ws_iq_node *n, wr_op *o, ack_state *a, const uint8_t *done, ws_err *err)
{
	size_t np = o->npkt;
	memset(a, 0, sizeof *a);
	a->acked = calloc((np + 63) / 64, 8);
	a->sent_no = calloc(np, 4);
	a->sends = calloc(np, 1);
	a->csum = malloc(np * 4);
	a->resend = malloc(np * 4);
	a->fly = malloc(sizeof *a->fly * IQ_ACK_WINDOW);
	if (!a->acked || !a->sent_no || !a->sends || !a->csum || !a->resend || !a->fly)
		return ws_err_set(err, ENOMEM, "Write IQ: out of memory for %zu packets", np);
	for (uint32_t p = 0; p < np; p++) {
		uint8_t last[4];
		uint32_t cnt = wr_samples(o, p);
		ws_iqconv_to_wire(last, o->fmt, o->src, (uint64_t)p * o->spp + cnt - 1, 1);
		ws_wire_csum cs;
		ws_wire_csum_reset(&cs);
		ws_wire_csum_packet(&cs, o->start + p * o->spp, ws_get_be32(last));
		a->csum[p] = ws_wire_csum_value(&cs);
	}
	for (uint32_t p = 0; done && p < np; p++)
		if (done[p / WS_IQ_HOST_BATCH] == CH_GOOD) {
			a->acked[p / 64] |= 1ull << (p % 64);
			a->nacked++;
		}
	a->win = IQ_ACK_WINDOW;
	n->ack_win_least = a->win;
	n->op++;
	o->resends = 0;
	return 0;
}

static int write_acked(ws_iq_node *n, wr_op *o, const uint8_t *done, ws_err *err)
{
	ack_state a;
	int r = ack_init(n, o, &a, done, err);
	if (r == 0)
		r = ack_loop(n, o, &a, err);
	ack_free(&a);
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

static int fast_init(const wr_op *o, fast_state *fs, ws_err *err)
{
	*fs = (fast_state){.nchunks = (o->npkt + WS_IQ_HOST_BATCH - 1) / WS_IQ_HOST_BATCH};
	fs->csum = malloc(fs->nchunks * sizeof *fs->csum);
	fs->res = malloc(fs->nchunks);
	return fs->csum && fs->res ? 0 : ws_err_set(err, ENOMEM, "Write IQ: out of memory");
}

/* Fast, then acknowledged for the chunks that failed (WARPLab restarts the whole buffer
 * acknowledged, one packet at a time). */
static int write_fast_fallback(ws_iq_node *n, wr_op *o, ws_err *err)
{
	fast_state fs;
	int r = fast_init(o, &fs, err);
	if (r == 0)
		r = write_fast(n, o, &fs, err);
	if (r == WR_OK && n->sticky > WS_IQWRITE_STICKY)
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

static wr_op op_of(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		   ws_iq_format fmt, const void *src)
{
	wr_op o = {.mask = (uint16_t)mask, .iq_id = n->write_id++, .start = start,
		   .count = count, .spp = n->info.samples_per_packet, .fmt = fmt, .src = src};
	o.npkt = (uint32_t)(((uint64_t)count + o.spp - 1) / o.spp);
	return o;
}

int ws_iqwrite_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		   ws_iq_format fmt, const void *src, ws_err *err)
{
	wr_op o = op_of(n, mask, start, count, fmt, src);
	n->st.write_calls++;
	int r = ws_iq_host_drain_stale(n, err);
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

/* ---- the steps, for the reply fuzzer ---- */

struct ws_iqwrite_op {
	wr_op o;
	int acked;
	fast_state fs;
	uint16_t marker;
	int marker_back;
	ack_state a;
};

int ws_iqwrite_begin(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		     ws_iq_format fmt, const void *src, int acked, ws_iqwrite_op **out,
		     ws_err *err)
{
	ws_iqwrite_op *w = calloc(1, sizeof *w);
	*out = w;
	if (!w)
		return ws_err_set(err, ENOMEM, "Write IQ: out of memory");
	w->o = op_of(n, mask, start, count, fmt, src);
	w->acked = acked;
	if (acked) {
		int r = ack_init(n, &w->o, &w->a, NULL, err);
		return r < 0 ? r : ws_iqwrite_step(n, w, err);
	}
	int r = fast_init(&w->o, &w->fs, err);
	if (r < 0)
		return r;
	n->op++;
	memset(w->fs.res, CH_PENDING, w->fs.nchunks);
	w->fs.pending = w->fs.nchunks;
	r = fast_send(n, &w->o, &w->fs, err);
	return r < 0 ? r : ws_iq_host_send_ping(n, &w->marker, err);
}

int ws_iqwrite_step(ws_iq_node *n, ws_iqwrite_op *w, ws_err *err)
{
	if (!w->acked)
		return 0;
	int r = ack_send(n, &w->o, &w->a, err);
	if (r >= 0 && !w->a.marker_no && w->a.fl_n) {
		r = ws_iq_host_send_ping(n, &w->a.marker, err);
		w->a.marker_no = w->a.send_no;
	}
	return r < 0 ? r : 0;
}

int ws_iqwrite_feed(ws_iq_node *n, ws_iqwrite_op *w, const uint8_t *b, size_t len, int trunc,
		    ws_err *err)
{
	if (w->acked)
		return ws_iqwrite_done(w) ? 0 : ack_dgram(n, &w->o, &w->a, b, len, trunc, err);
	return fast_dgram(n, &w->o, &w->fs, w->marker, b, len, trunc, &w->marker_back, err);
}

int ws_iqwrite_done(const ws_iqwrite_op *w)
{
	return w->acked ? w->a.nacked == w->o.npkt : w->fs.pending == 0 || w->marker_back;
}

void ws_iqwrite_end(ws_iqwrite_op *w)
{
	if (!w)
		return;
	if (w->acked) {
		ack_free(&w->a);
	} else {
		free(w->fs.csum);
		free(w->fs.res);
	}
	free(w);
}
