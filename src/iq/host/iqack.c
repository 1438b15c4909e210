/* SPDX-License-Identifier: BSD-2-Clause */
/* iqack: acknowledged Write IQ, the fallback of iqwrite.c's fast engine and its mode of
 * its own (WS_IQ_WRITE_ACKED).
 *
 * Every packet carries CHECKSUM_RESET and ROBUST, so the node acknowledges each with
 * WARPLab's checksum of that packet alone: an acknowledgement proves one packet's
 * placement. The packets go out pipelined in a window; a packet that a later
 * acknowledgement overtakes, or that a PING marker comes back behind, is lost and queued
 * again, and only packets never acknowledged are sent again. Each packet gets a bounded
 * number of sends, and a node that stops answering ends the write with the reason. */
#include "iq/host/iqack.h"

#include "iq/wire/iqconv.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IQ_OVERTAKE 8 /* an ack this many sends later marks an unacked packet lost */

static int ack_is(const ws_iqack *a, uint32_t p) { return (int)(a->acked[p / 64] >> (p % 64) & 1); }

static void queue_resend(ws_iqack *a, uint32_t p, uint32_t npkt)
{
	a->resend[(a->rs_head + a->rs_n++) % npkt] = p;
}

/* The window of an acknowledged write is a read's (iqcc.h), one packet to a unit: a host
 * faster than the slowest link on the way loses packets once the queue there is full,
 * resends included (the gige-jumbo bed with a 2 ms queue: "packet 73 not acknowledged
 * after 20 sends" with 512 packets in flight and no window). Each send is a unit, numbered
 * by its send number; an acknowledgement ends it delivered, a loss ends it lost (a loss
 * on a packet's WS_IQCC_HARD_LOSS-th send is hard). */
static void ack_window(ws_iq_node *n, ws_iqack *a, uint32_t p, uint32_t no, int lost)
{
	ws_iqcc_ended(&n->wcc, no, !lost, lost != 0, lost != 0,
		      lost && a->sends[p] >= WS_IQCC_HARD_LOSS, a->send_no + 1,
		      ws_clock_ns() - a->t0);
}

/* Packets in flight that an ack sent IQ_OVERTAKE sends later has passed, or that a marker
 * came back behind, are lost: queue them again. */
static void find_lost(ws_iq_node *n, ws_iqack *a, uint32_t npkt, uint32_t upto)
{
	while (a->fl_n) {
		uint32_t *f = a->fly[a->fl_head];
		if (!ack_is(a, f[0]) && a->sent_no[f[0]] == f[1]) {
			if (f[1] >= upto)
				break;
			queue_resend(a, f[0], npkt);
			ack_window(n, a, f[0], f[1], 1);
		}
		a->fl_head = (a->fl_head + 1) % a->fly_cap;
		a->fl_n--;
	}
}

static int ack_send(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, ws_err *err)
{
	unsigned k = 0;
	int64_t next = ws_clock_ns();
	while (k < WS_IQ_HOST_BATCH && a->fl_n < n->wcc.win && a->fl_n < a->fly_cap &&
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
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "Write IQ to %s: packet %u (sample %u) "
					  "not acknowledged after %d sends",
					  n->name, p, o->start + p * o->spp, n->cfg.retries);
		uint16_t seq = ws_iq_host_next_seq(n);
		n->seq_pkt[seq] = p;
		n->seq_op[seq] = n->op;
		ws_iqw_build(n, o, p, k++, seq, 1, 1);
		a->sent_no[p] = ++a->send_no;
		uint32_t *f = a->fly[(a->fl_head + a->fl_n++) % a->fly_cap];
		f[0] = p;
		f[1] = a->send_no;
	}
	if (k) {
		int r = ws_iqw_send(n, k, &next, err);
		if (r < 0)
			return r;
		n->st.write_packets += k;
	}
	return (int)k;
}

/* One acknowledgement. Returns 1 if it acknowledged a new packet, 0 if ignored. */
static int ack_one(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, const ws_wire_msg *m, ws_err *err)
{
	uint32_t p = n->seq_pkt[m->tr.seq];
	if (n->seq_op[m->tr.seq] != n->op || p >= o->npkt) {
		n->st.wrong_seq++;
		return 0;
	}
	uint32_t w[3 + WS_WIRE_NOT_READY_WORDS];
	int nw = ws_iqw_ack_words(n, o, m, w, p, err);
	if (nw <= 0)
		return nw;
	if (w[0] == WS_WIRE_WRITE_NOT_READY) {
		n->st.not_ready++;
		ws_iq_host_not_ready_pause(n, w + 3, (size_t)nw - 3);
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
	ack_window(n, a, p, a->sent_no[p], 0);
	if (a->sent_no[p] > a->high)
		a->high = a->sent_no[p];
	return 1;
}

/* One datagram during an acknowledged write: 1 when it acknowledged a new packet or was
 * the probe's answer (which marks what was sent before the probe as lost), 0 when it was
 * ignored and counted, or an error. Packets passed by a later acknowledgement are queued
 * again. */
int ws_iqack_feed(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, const uint8_t *b, size_t len, int trunc,
		  ws_err *err)
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

static int ack_recv(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, int64_t wait, ws_err *err)
{
	int k = ws_iq_host_recv_batch(n, wait, err), progress = 0;
	if (k <= 0)
		return k;
	for (int i = 0; i < k; i++) {
		int r = ws_iqack_feed(n, o, a, n->rx + (size_t)i * n->slot, n->mm[i].msg_len,
				      (n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, err);
		if (r < 0)
			return r;
		progress |= r;
	}
	return progress ? 1 : 2;
}

/* Bounded by resends per packet, idle timeouts in a row, and the budget: a monotonic
 * deadline that only a new acknowledgement moves, so junk cannot keep the write alive. */
int ws_iqack_run(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, ws_err *err)
{
	int idle = 0;
	int64_t idle_ns = (int64_t)n->cfg.idle_ms * WS_NS_PER_MS;
	int64_t budget = ws_iq_host_budget_ns(n), stall = ws_clock_ns() + budget;
	while (a->nacked < o->npkt) {
		uint32_t acked = a->nacked;
		if (ws_clock_ns() >= stall) {
			n->st.timeouts++;
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "Write IQ to %s: no progress for %lld ms "
					  "(--budget-ms): %u of %u packets acknowledged",
					  n->name, (long long)(budget / WS_NS_PER_MS), a->nacked,
					  o->npkt);
		}
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
		if (a->nacked > acked)
			stall = ws_clock_ns() + budget;
		if (r > 0) {
			idle = r == 1 ? 0 : idle;
			continue;
		}
		if (sent)
			continue;
		n->st.timeouts++;
		if (++idle > n->cfg.retries)
			return ws_err_set(
				err, WS_E_TIMEDOUT,
				"Write IQ to %s: the node stopped "
				"answering (%u of %u packets acknowledged after %d timeouts "
				"of %u ms)",
				n->name, a->nacked, o->npkt, idle - 1, n->cfg.idle_ms);
		/* Probe: the PING's answer marks what was sent before it as lost. */
		int pr = ws_iq_host_send_ping(n, &a->marker, err);
		if (pr < 0)
			return pr;
		a->marker_no = a->send_no;
	}
	return 0;
}

void ws_iqack_free(ws_iqack *a)
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
int ws_iqack_init(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, const uint8_t *done, ws_err *err)
{
	size_t np = o->npkt;
	memset(a, 0, sizeof *a);
	a->acked = calloc((np + 63) / 64, 8);
	a->sent_no = calloc(np, 4);
	a->sends = calloc(np, 1);
	a->csum = malloc(np * 4);
	a->resend = malloc(np * 4);
	ws_iq_host_bounds(n);
	a->fly_cap = n->ack_hi;
	a->fly = malloc(sizeof *a->fly * a->fly_cap);
	if (!a->acked || !a->sent_no || !a->sends || !a->csum || !a->resend || !a->fly)
		return ws_err_set(err, ENOMEM, "Write IQ: out of memory for %zu packets", np);
	for (uint32_t p = 0; p < np; p++) {
		uint8_t last[4];
		uint32_t cnt = ws_iqw_samples(o, p);
		ws_iqconv_to_wire(last, o->fmt, o->src, (uint64_t)p * o->spp + cnt - 1, 1);
		ws_wire_csum cs;
		ws_wire_csum_reset(&cs);
		ws_wire_csum_packet(&cs, o->start + p * o->spp, ws_get_be32(last));
		a->csum[p] = ws_wire_csum_value(&cs);
	}
	for (uint32_t p = 0; done && p < np; p++)
		if (done[p / WS_IQ_HOST_BATCH] == WS_IQACK_CHUNK_GOOD) {
			a->acked[p / 64] |= 1ull << (p % 64);
			a->nacked++;
		}
	ws_iqcc_mark(&n->wcc);
	a->t0 = ws_clock_ns();
	n->op++;
	o->resends = 0;
	return 0;
}

int ws_iqack_step(ws_iq_node *n, ws_iqw_op *o, ws_iqack *a, ws_err *err)
{
	int r = ack_send(n, o, a, err);
	if (r >= 0 && !a->marker_no && a->fl_n) {
		r = ws_iq_host_send_ping(n, &a->marker, err);
		a->marker_no = a->send_no;
	}
	return r < 0 ? r : 0;
}

int ws_iqack_done(const ws_iqack *a, const ws_iqw_op *o) { return a->nacked == o->npkt; }
