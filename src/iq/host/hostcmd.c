/* SPDX-License-Identifier: BSD-2-Clause */
/* hostcmd: acknowledged commands with backoff to a time budget; see hostcmd.h.
 *
 * Each attempt of a command re-sends the same datagram (same seq: the node's answers are
 * idempotent) and then listens for the answer to any attempt until its wait ends, so a
 * node that answers late is never asked in vain and a lost datagram costs one wait. */
#include "iq/host/hostcmd.h"

#include "util/clock.h"

#include <stdio.h>
#include <string.h>

void ws_iq_backoff_plan(uint32_t timeout_ms, int tries, uint32_t budget_ms, ws_iq_backoff *b)
{
	uint64_t wait = timeout_ms ? timeout_ms : 1, ceil = wait * WS_IQ_BACKOFF_GROWTH;
	uint64_t left = budget_ms ? budget_ms : 1;
	int max = tries < 1 ? 1 : tries > WS_IQ_BACKOFF_MAX ? WS_IQ_BACKOFF_MAX : tries;
	memset(b, 0, sizeof *b);
	while (b->n < max && left > 0) {
		uint64_t w = wait < left ? wait : left;
		b->wait_ms[b->n++] = (uint32_t)w;
		b->total_ms += (uint32_t)w;
		left -= w;
		wait = wait * 2 < ceil ? wait * 2 : ceil;
	}
}

void ws_iq_backoff_of(const ws_iq_node *n, ws_iq_backoff *b)
{
	ws_iq_backoff_plan(n->cfg.timeout_ms, n->cfg.cmd_tries,
			   (uint32_t)(ws_iq_host_budget_ns(n) / WS_NS_PER_MS), b);
}

void ws_iq_backoff_text(const ws_iq_backoff *b, char *out, size_t cap)
{
	size_t at = (size_t)snprintf(out, cap, "waits");
	for (int i = 0; i < b->n && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s %u", i ? "," : "", b->wait_ms[i]);
	if (at < cap)
		snprintf(out + at, cap - at, " ms");
}

int ws_iq_cmd_match(ws_iq_node *n, const uint8_t *b, size_t len, int trunc, uint16_t seq,
		    uint32_t cmd, ws_iq_reply *rep)
{
	ws_wire_msg m;
	if (ws_iq_host_check(n, b, len, trunc, &m) < 0)
		return 0;
	if (m.tr.seq != seq || m.cmd.cmd != cmd) {
		n->st.wrong_seq++;
		return 0;
	}
	rep->nw = ws_wire_get_words(m.args, m.args_len, rep->w, WS_IQ_CMD_MAX_WORDS);
	rep->flags = m.tr.flags;
	return 1;
}

/* Waits for the answer to (seq, cmd) until deadline; 1 when found, 0 on timeout. */
static int wait_reply(ws_iq_node *n, uint16_t seq, uint32_t cmd, int64_t deadline, ws_iq_reply *rep,
		      ws_err *err)
{
	for (;;) {
		int r = ws_iq_host_recv_until(n, deadline, err);
		if (r <= 0)
			return r;
		for (int i = 0; i < r; i++)
			if (ws_iq_cmd_match(n, n->rx + (size_t)i * n->slot, n->mm[i].msg_len,
					    (n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, seq, cmd,
					    rep))
				return 1;
	}
}

static const char *cmd_name(uint32_t cmd)
{
	const char *s =
		cmd == WS_IQ_CMD_TRIGGER_COUNTER ? "TRIGGER_COUNTER" : ws_wire_cmd_name(cmd);
	return s ? s : "command";
}

/* The error of a command that was never answered. */
static int not_answered(const ws_iq_node *n, const char *what, uint32_t cmd, const ws_iq_backoff *b,
			ws_err *err)
{
	char waits[WS_IQ_BACKOFF_MAX * 8];
	ws_iq_backoff_text(b, waits, sizeof waits);
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "node %s did not answer %s (0x%08x): %d attempt%s "
			  "over %.1f s (%s) (--timeout-ms, --retries, --budget-ms)",
			  n->name, what, cmd, b->n, b->n == 1 ? "" : "s", b->total_ms / 1e3, waits);
}

int ws_iq_cmd_sched(ws_iq_node *n, uint32_t cmd, const uint32_t *args, size_t nargs,
		    const ws_iq_backoff *b, ws_iq_reply *rep, ws_err *err)
{
	uint8_t *buf = n->stage; /* large enough for the payload size test */
	uint16_t seq = ws_iq_host_next_seq(n);
	ws_wire_cmd c = {.cmd = cmd, .length = (uint16_t)(4 * nargs), .num_args = (uint16_t)nargs};
	size_t len = WS_WIRE_OFF_ARGS + 4 * nargs;
	ws_wire_transport t = ws_iq_host_tr(n, seq, WS_WIRE_FLAG_ROBUST, len);
	int blen = ws_wire_build(buf, len, &t, &c, args, nargs);
	if (blen < 0)
		return ws_err_set(err, WS_E_INVAL, "iq: command 0x%08x: too many arguments", cmd);
	n->st.commands++;
	for (int i = 0; i < b->n; i++) {
		if (i)
			n->st.command_retries++;
		int64_t t0 = ws_clock_ns();
		int r = ws_iq_host_send_one(n, buf, (size_t)blen, err);
		if (r == 0)
			r = wait_reply(n, seq, cmd, t0 + (int64_t)b->wait_ms[i] * WS_NS_PER_MS, rep,
				       err);
		if (r < 0)
			return r;
		if (r > 0) {
			rep->rtt_ns = ws_clock_ns() - t0;
			return 0;
		}
		n->st.timeouts++;
	}
	return not_answered(n, cmd_name(cmd), cmd, b, err);
}

int ws_iq_cmd(ws_iq_node *n, uint32_t cmd, const uint32_t *args, size_t nargs, ws_iq_reply *rep,
	      ws_err *err)
{
	ws_iq_backoff b;
	ws_iq_backoff_of(n, &b);
	return ws_iq_cmd_sched(n, cmd, args, nargs, &b, rep, err);
}

int ws_iq_cmd_trigger_count_of(const ws_iq_reply *rep, uint64_t *count)
{
	if (rep->nw < 3 || rep->w[0] != WS_IQ_TRIGGER_COUNTER_MAGIC)
		return 0;
	*count = (uint64_t)rep->w[1] << 32 | rep->w[2];
	return 1;
}

/* ---- NODE_INFO ------------------------------------------------------------------------------ */

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

int ws_iq_cmd_node_info(ws_iq_node *n, ws_err *err)
{
	ws_iq_reply rep;
	int r = ws_iq_cmd(n, WS_WIRE_CMD_NODE_INFO, NULL, 0, &rep, err);
	if (r < 0)
		return r;
	if (rep.nw < WS_WIRE_NODE_INFO_WORDS) {
		n->st.malformed++;
		return ws_err_set(err, WS_E_PROTO,
				  "node %s: NODE_INFO answer has %zu words, "
				  "expected %d",
				  n->name, rep.nw, WS_WIRE_NODE_INFO_WORDS);
	}
	info_from_words(&n->info, rep.w);
	if (n->info.num_rf != 2 && n->info.num_rf != 4)
		return ws_err_set(err, WS_E_PROTO,
				  "node %s: NODE_INFO reports %u RF interfaces "
				  "(2 or 4 expected)",
				  n->name, n->info.num_rf);
	return 0;
}

/* ---- payload size test ------------------------------------------------------------------------ */

/* One PAYLOAD_SIZE_TEST datagram of payload bytes after the pad: the words 1..N. */
static int payload_send(ws_iq_node *n, uint32_t payload, uint16_t seq, ws_err *err)
{
	size_t nw = (payload - 20) / 4;
	uint8_t *b = n->stage;
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_PAYLOAD_SIZE_TEST,
			 .length = (uint16_t)(4 * nw),
			 .num_args = (uint16_t)nw};
	ws_wire_transport t = ws_iq_host_tr(n, seq, WS_WIRE_FLAG_ROBUST, WS_WIRE_OFF_ARGS + 4 * nw);
	ws_wire_build(b, WS_WIRE_OFF_ARGS, &t, &c, NULL, 0);
	for (size_t i = 0; i < nw; i++)
		ws_put_be32(b + WS_WIRE_OFF_ARGS + 4 * i, (uint32_t)(i + 1));
	return ws_iq_host_send_one(n, b, WS_WIRE_OFF_ARGS + 4 * nw, err);
}

/* Collects payload test answers until deadline: best[c] = the node's answer to candidate
 * c (any round: every round reuses the candidate's seq). Returns 1 once the first
 * (largest) candidate is answered, 2 when only smaller ones were answered this round (the
 * node serves in order and the largest is sent first, so after a short grace for a
 * reordered path it was lost or too large), 0 when nothing came, or an error. */
static int payload_collect(ws_iq_node *n, const uint16_t *seq, uint32_t *best, int nc,
			   int64_t deadline, ws_err *err)
{
	int smaller = 0;
	for (;;) {
		int r = ws_iq_host_recv_until(n, deadline, err);
		if (r <= 0)
			return r < 0 ? r : smaller ? 2 : 0;
		for (int i = 0; i < r; i++) {
			ws_wire_msg m;
			uint32_t w;
			if (ws_iq_host_reply(n, (unsigned)i, &m) < 0)
				continue;
			int c = 0;
			while (c < nc &&
			       (m.tr.seq != seq[c] || m.cmd.cmd != WS_WIRE_CMD_PAYLOAD_SIZE_TEST))
				c++;
			if (c == nc || ws_wire_get_words(m.args, m.args_len, &w, 1) < 1) {
				n->st.wrong_seq++;
				continue;
			}
			best[c] = w;
			if (c == 0)
				return 1;
			if (!smaller) {
				int64_t grace =
					ws_clock_ns() + WS_IQ_PAYLOAD_GRACE_MS * WS_NS_PER_MS;
				deadline = grace < deadline ? grace : deadline;
			}
			smaller = 1;
		}
	}
}

/* Jumbo first as WARPLab does, but every candidate in each round so that one lost datagram
 * does not shrink the packets for good: the largest candidate wins if it is answered
 * within the handle's schedule before smaller ones were answered without it in
 * WS_IQ_PAYLOAD_MISSES rounds (a 1500-byte path then costs a few round trips, not the
 * budget); the node's answer says how much arrived. */
int ws_iq_cmd_payload_test(ws_iq_node *n, ws_err *err)
{
	uint32_t cand[3] = {n->cfg.max_payload, 1468, 548}, best[3] = {0};
	uint16_t seq[3];
	int nc = 1, round, misses = 0;
	ws_iq_backoff b;
	ws_iq_backoff_of(n, &b);
	for (int c = 1; c < 3; c++)
		if (cand[c] < n->cfg.max_payload)
			cand[nc++] = cand[c];
	for (int c = 0; c < nc; c++)
		seq[c] = ws_iq_host_next_seq(n);
	n->st.commands++;
	for (round = 0; round < b.n && !best[0] && misses < WS_IQ_PAYLOAD_MISSES; round++) {
		for (int c = 0; c < nc; c++) {
			int r = payload_send(n, cand[c], seq[c], err);
			if (r < 0)
				return r;
		}
		int r = payload_collect(n, seq, best, nc,
					ws_clock_ns() + (int64_t)b.wait_ms[round] * WS_NS_PER_MS,
					err);
		if (r < 0)
			return r;
		misses += r == 2;
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
	char waits[WS_IQ_BACKOFF_MAX * 8];
	ws_iq_backoff_text(&b, waits, sizeof waits);
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "node %s answered PING but no payload size test "
			  "(tried %u, 1468 and 548 bytes): %d rounds over %.1f s (%s) "
			  "(--timeout-ms, --retries, --budget-ms)",
			  n->name, n->cfg.max_payload, b.n, b.total_ms / 1e3, waits);
}
