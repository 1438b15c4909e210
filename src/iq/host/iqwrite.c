/* SPDX-License-Identifier: BSD-2-Clause */
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
 * cannot complete fails and says why. The acknowledged engine is iqack.c; the packets
 * both send are built and sent by iqwpkt.c. */
#include "iq/host/iqwrite.h"

#include "iq/host/iqack.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IQ_STICKY_MAX 256 /* AUTO: sticky doubles per fallback in a row, up to this */

enum { WR_OK = 0, WR_MISMATCH = 1 };

/* Fast mode, in chunks: each sendmmsg batch of WS_IQ_HOST_BATCH packets starts with
 * CHECKSUM_RESET and ends with the only ROBUST packet of the batch, so the node's
 * acknowledgement carries WARPLab's checksum of exactly that chunk. A lost, duplicated or
 * reordered packet then costs one chunk sent again, not the whole buffer, and the wire is
 * still WARPLab's (flags and ROBUST are per packet). */
typedef struct fast_state {
	uint32_t nchunks, pending;
	uint32_t *csum; /* host checksum of each chunk */
	uint8_t *res;   /* 0 pending, 1 verified, 2 failed */
	uint32_t nr[WS_WIRE_NOT_READY_WORDS];
	size_t nr_n;
} fast_state;

static int fast_send(ws_iq_node *n, ws_iqw_op *o, fast_state *fs, ws_err *err)
{
	int64_t next = ws_clock_ns();
	for (uint32_t c = 0, p = 0; c < fs->nchunks; c++) {
		ws_wire_csum cs;
		ws_wire_csum_reset(&cs);
		unsigned k = 0;
		for (; k < WS_IQ_HOST_BATCH && p < o->npkt; k++, p++) {
			uint16_t seq = ws_iq_host_next_seq(n);
			int last = k + 1 == WS_IQ_HOST_BATCH || p + 1 == o->npkt;
			uint32_t w = ws_iqw_build(n, o, p, k, seq, last, k == 0);
			ws_wire_csum_packet(&cs, o->start + p * o->spp, w);
			if (last) {
				n->seq_pkt[seq] = c;
				n->seq_op[seq] = n->op;
			}
		}
		fs->csum[c] = ws_wire_csum_value(&cs);
		int r = ws_iqw_send(n, k, &next, err);
		if (r < 0)
			return r;
		n->st.write_packets += k;
	}
	return 0;
}

/* One chunk acknowledgement. Returns 1 when it settled a chunk, 0 if ignored, 2 on
 * NOT_READY (words kept in fs), or an error. */
static int fast_ack(ws_iq_node *n, ws_iqw_op *o, fast_state *fs, const ws_wire_msg *m, ws_err *err)
{
	uint32_t c = n->seq_pkt[m->tr.seq];
	if (n->seq_op[m->tr.seq] != n->op || c >= fs->nchunks ||
	    fs->res[c] != WS_IQACK_CHUNK_PENDING) {
		n->st.wrong_seq++;
		return 0;
	}
	uint32_t w[3 + WS_WIRE_NOT_READY_WORDS];
	int nw = ws_iqw_ack_words(n, o, m, w, -1, err);
	if (nw <= 0)
		return nw;
	if (w[0] == WS_WIRE_WRITE_NOT_READY) {
		fs->nr_n = (size_t)nw - 3;
		memcpy(fs->nr, w + 3, fs->nr_n * 4);
		return 2;
	}
	fs->res[c] = w[0] == WS_WIRE_WRITE_OK && w[2] == fs->csum[c] ? WS_IQACK_CHUNK_GOOD
								     : WS_IQACK_CHUNK_BAD;
	if (fs->res[c] == WS_IQACK_CHUNK_BAD)
		n->st.checksum_mismatches++;
	fs->pending--;
	return 1;
}

/* One datagram during a fast pass: fast_ack's result, or 0 with *marker_back set when it
 * is the answer to the PING behind the last packet. */
static int fast_dgram(ws_iq_node *n, ws_iqw_op *o, fast_state *fs, uint16_t marker,
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
static int fast_collect(ws_iq_node *n, ws_iqw_op *o, fast_state *fs, uint16_t marker, ws_err *err)
{
	int64_t deadline = ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS;
	int marker_back = 0;
	while (fs->pending && !marker_back) {
		int k = ws_iq_host_recv_until(n, deadline, err);
		if (k < 0)
			return k;
		if (k == 0)
			break;
		for (int i = 0; i < k; i++) {
			int r = fast_dgram(
				n, o, fs, marker, n->rx + (size_t)i * n->slot, n->mm[i].msg_len,
				(n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, &marker_back, err);
			if (r < 0 || r == 2)
				return r;
			if (r == 1)
				deadline =
					ws_clock_ns() + (int64_t)n->cfg.timeout_ms * WS_NS_PER_MS;
		}
	}
	for (uint32_t c = 0; c < fs->nchunks; c++)
		if (fs->res[c] == WS_IQACK_CHUNK_PENDING) {
			fs->res[c] = WS_IQACK_CHUNK_BAD;
			fs->pending--;
		}
	return 0;
}

/* One pass of fast mode: WR_OK, WR_MISMATCH (fs->res says which chunks failed), 2 after
 * NOT_READY (WARPLab's wait done, restart), or an error. */
static int fast_pass(ws_iq_node *n, ws_iqw_op *o, fast_state *fs, ws_err *err)
{
	n->op++;
	memset(fs->res, WS_IQACK_CHUNK_PENDING, fs->nchunks);
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
		if (fs->res[c] != WS_IQACK_CHUNK_GOOD)
			return WR_MISMATCH;
	return WR_OK;
}

static int write_acked(ws_iq_node *n, ws_iqw_op *o, const uint8_t *done, ws_err *err)
{
	ws_iqack a;
	int r = ws_iqack_init(n, o, &a, done, err);
	if (r == 0)
		r = ws_iqack_run(n, o, &a, err);
	ws_iqack_free(&a);
	return r;
}

static int write_fast(ws_iq_node *n, ws_iqw_op *o, fast_state *fs, ws_err *err)
{
	for (int tries = 0;; tries++) {
		int r = fast_pass(n, o, fs, err);
		if (r != 2)
			return r;
		if (tries >= n->cfg.retries)
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "Write IQ to %s: the node was still not "
					  "ready after %d NOT_READY answers",
					  n->name, tries + 1);
	}
}

static int fast_init(const ws_iqw_op *o, fast_state *fs, ws_err *err)
{
	*fs = (fast_state){.nchunks = (o->npkt + WS_IQ_HOST_BATCH - 1) / WS_IQ_HOST_BATCH};
	fs->csum = malloc(fs->nchunks * sizeof *fs->csum);
	fs->res = malloc(fs->nchunks);
	return fs->csum && fs->res ? 0 : ws_err_set(err, ENOMEM, "Write IQ: out of memory");
}

/* Fast, then acknowledged for the chunks that failed (WARPLab restarts the whole buffer
 * acknowledged, one packet at a time). */
static int write_fast_fallback(ws_iq_node *n, ws_iqw_op *o, ws_err *err)
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

static ws_iqw_op op_of(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		       ws_iq_format fmt, const void *src)
{
	ws_iqw_op o = {.mask = (uint16_t)mask,
		       .iq_id = n->write_id++,
		       .start = start,
		       .count = count,
		       .spp = n->info.samples_per_packet,
		       .fmt = fmt,
		       .src = src};
	o.npkt = (uint32_t)(((uint64_t)count + o.spp - 1) / o.spp);
	return o;
}

int ws_iqwrite_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		   const void *src, ws_err *err)
{
	ws_iqw_op o = op_of(n, mask, start, count, fmt, src);
	n->st.write_calls++;
	ws_iq_stats from = n->st;
	int r = ws_iq_host_drain_stale(n, err);
	if (r < 0)
		return r;
	ws_iq_write_mode mode = n->cfg.write_mode;
	int64_t t0 = ws_clock_ns();
	if (mode == WS_IQ_WRITE_ACKED || (mode == WS_IQ_WRITE_AUTO && n->acked_left > 0)) {
		r = write_acked(n, &o, NULL, err);
		if (r == 0 && mode == WS_IQ_WRITE_AUTO)
			n->acked_left = o.resends ? n->sticky : n->acked_left - 1;
	} else {
		r = write_fast_fallback(n, &o, err);
	}
	if (r < 0)
		ws_iq_host_junk_append(n, &from, err);
	else
		ws_iq_host_note_rate(n, (uint64_t)count * 4, ws_clock_ns() - t0);
	return r;
}

/* ---- the steps, for the reply fuzzer ---- */

struct ws_iqwrite_op {
	ws_iqw_op o;
	int acked;
	fast_state fs;
	uint16_t marker;
	int marker_back;
	ws_iqack a;
};

int ws_iqwrite_begin(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		     const void *src, int acked, ws_iqwrite_op **out, ws_err *err)
{
	ws_iqwrite_op *w = calloc(1, sizeof *w);
	*out = w;
	if (!w)
		return ws_err_set(err, ENOMEM, "Write IQ: out of memory");
	w->o = op_of(n, mask, start, count, fmt, src);
	w->acked = acked;
	if (acked) {
		int r = ws_iqack_init(n, &w->o, &w->a, NULL, err);
		return r < 0 ? r : ws_iqwrite_step(n, w, err);
	}
	int r = fast_init(&w->o, &w->fs, err);
	if (r < 0)
		return r;
	n->op++;
	memset(w->fs.res, WS_IQACK_CHUNK_PENDING, w->fs.nchunks);
	w->fs.pending = w->fs.nchunks;
	r = fast_send(n, &w->o, &w->fs, err);
	return r < 0 ? r : ws_iq_host_send_ping(n, &w->marker, err);
}

int ws_iqwrite_step(ws_iq_node *n, ws_iqwrite_op *w, ws_err *err)
{
	return w->acked ? ws_iqack_step(n, &w->o, &w->a, err) : 0;
}

int ws_iqwrite_feed(ws_iq_node *n, ws_iqwrite_op *w, const uint8_t *b, size_t len, int trunc,
		    ws_err *err)
{
	if (w->acked)
		return ws_iqwrite_done(w) ? 0 : ws_iqack_feed(n, &w->o, &w->a, b, len, trunc, err);
	return fast_dgram(n, &w->o, &w->fs, w->marker, b, len, trunc, &w->marker_back, err);
}

int ws_iqwrite_done(const ws_iqwrite_op *w)
{
	return w->acked ? ws_iqack_done(&w->a, &w->o) : w->fs.pending == 0 || w->marker_back;
}

void ws_iqwrite_end(ws_iqwrite_op *w)
{
	if (!w)
		return;
	if (w->acked) {
		ws_iqack_free(&w->a);
	} else {
		free(w->fs.csum);
		free(w->fs.res);
	}
	free(w);
}
