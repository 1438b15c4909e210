/* SPDX-License-Identifier: BSD-2-Clause */
/* node_cmd: the node emulator's command handlers and dispatch; see node_cmd.h.
 *
 * Nothing a packet says is trusted: lengths come from the datagram, indices are checked
 * against the buffer before any memory is touched, and each rejection is counted. The
 * handlers are looked up in one table by command word; a Read IQ that passes its checks
 * becomes a stream (node_stream.c), and the optional board fidelity (receive slots,
 * per-packet store time, NOT_READY windows) is node_board.c, fed with the kernel's arrival
 * timestamps so it is exact however late the node reads. */
#include "iq/node/node_cmd.h"

#include "iq/node/node_stream.h"
#include "util/bytes.h"
#include "util/clock.h"

#include <stdio.h>
#include <string.h>

#define NODE_REPLY_WORDS 16

/* A response carrying nw argument words; sent only when the request asked for one. */
static void reply_words(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, const uint32_t *w,
			size_t nw, uint16_t flags)
{
	if (!(m->tr.flags & WS_WIRE_FLAG_ROBUST))
		return;
	uint8_t buf[WS_WIRE_OFF_ARGS + 4 * NODE_REPLY_WORDS];
	size_t len = WS_WIRE_OFF_ARGS + 4 * nw;
	ws_wire_transport t = ws_node_reply_transport(n, m, len, flags);
	ws_wire_cmd c = {.cmd = m->cmd.cmd, .length = (uint16_t)(4 * nw), .num_args = (uint16_t)nw};
	int r = ws_wire_build(buf, sizeof buf, &t, &c, w, nw);
	if (r > 0)
		ws_node_send(n, p, buf, (size_t)r);
}

/* ---- simple commands --------------------------------------------------------------------- */

void ws_node_reset(ws_node *n)
{
	n->tx_length = WS_NODE_DEFAULT_LENGTH < n->cfg.tx_samples ? WS_NODE_DEFAULT_LENGTH
								  : n->cfg.tx_samples;
	n->rx_length = WS_NODE_DEFAULT_LENGTH < n->cfg.rx_samples ? WS_NODE_DEFAULT_LENGTH
								  : n->cfg.rx_samples;
	n->rx_enabled = 0;
	n->rx_enable_seen = 0;
	ws_node_board_reset(&n->board);
}

static void cmd_node_info(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint32_t s = n->cfg.serial;
	uint32_t w[WS_WIRE_NODE_INFO_WORDS] = {
		s,
		WS_NODE_DNA_MSB,
		s,
		0x40D8u,                                            /* MAC 40:D8 (Mango OUI) */
		0x55042000u | ((s >> 8 & 0xFu) << 8) | (s & 0xFFu), /* :55:04:2x:xx */
		WS_WIRE_HW_V3 << 24 | WS_WIRE_WL_MAJOR << 16 | WS_WIRE_WL_MINOR << 8 |
			WS_WIRE_WL_REV,
		n->cfg.tx_samples,
		n->cfg.rx_samples,
		n->tx_length,
		n->rx_length,
		WS_NODE_TRIG_CORE_INFO,
		1,
		(uint32_t)n->cfg.rf,
	};
	reply_words(n, p, m, w, WS_WIRE_NODE_INFO_WORDS, 0);
}

/* Answers from the last argument actually present, never from the length fields: a lost IP
 * fragment on the board truncates the packet, and the reply must say how much arrived. */
static void cmd_payload_test(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint32_t present = (uint32_t)(m->args_len / 4);
	uint32_t last = present ? ws_get_be32(m->args + 4 * (present - 1)) : 0;
	if (last != present)
		WS_NODE_BUMP(n, malformed, 1);
	if (last > present)
		last = present;
	uint32_t w = 4 * last + 20;
	reply_words(n, p, m, &w, 1, 0);
}

/* TX_LENGTH / RX_LENGTH: [0, len] sets, [1] reads; the answer is [status, length]. */
static void cmd_length(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, uint32_t *len,
		       uint32_t max)
{
	uint32_t a[2] = {0};
	size_t na = ws_wire_get_words(m->args, m->args_len, a, 2);
	uint32_t w[2] = {WS_WIRE_STATUS_OK, 0};
	if (na >= 2 && a[0] == WS_WIRE_ARG_WRITE && a[1] >= 1 && a[1] <= max) {
		*len = a[1];
	} else if (!(na >= 1 && a[0] == WS_WIRE_ARG_READ)) {
		w[0] = WS_WIRE_STATUS_ERROR;
		if (na >= 2 && a[0] == WS_WIRE_ARG_WRITE)
			WS_NODE_BUMP(n, out_of_range, 1);
		else
			WS_NODE_BUMP(n, malformed, 1);
		WS_NODE_BUMP(n, error_replies, 1);
	}
	w[1] = *len;
	reply_words(n, p, m, w, 2, 0);
}

static void cmd_max_samples(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint32_t a = 0;
	size_t na = ws_wire_get_words(m->args, m->args_len, &a, 1);
	uint32_t w[3] = {WS_WIRE_STATUS_OK, n->cfg.tx_samples, n->cfg.rx_samples};
	if (na < 1 || a != WS_WIRE_ARG_READ) {
		w[0] = WS_WIRE_STATUS_ERROR;
		WS_NODE_BUMP(n, malformed, 1);
		WS_NODE_BUMP(n, error_replies, 1);
	}
	reply_words(n, p, m, w, 3, 0);
}

static void cmd_buff_en(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, int rx)
{
	uint32_t a = 0;
	if (ws_wire_get_words(m->args, m->args_len, &a, 1) < 1) {
		WS_NODE_BUMP(n, malformed, 1);
	} else if (rx) {
		if (a & ~n->rf_mask)
			WS_NODE_BUMP(n, bad_buffer, 1);
		n->rx_enabled |= a & n->rf_mask;
		n->rx_enable_seen = 1;
	}
	reply_words(n, p, m, NULL, 0, 0);
}

static void cmd_other(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	WS_NODE_BUMP(n, other_commands, 1);
	unsigned i;
	for (i = 0; i < n->n_seen && n->seen[i] != m->cmd.cmd; i++)
		;
	if (i == n->n_seen && n->n_seen < WS_NODE_SEEN_MAX) {
		n->seen[n->n_seen++] = m->cmd.cmd;
		const char *g = ws_wire_group_name((uint8_t)(m->cmd.cmd >> 24));
		ws_node_log(n, WS_NODE_LOG_INFO,
			    "command 0x%08x (%s group) accepted with a plain acknowledgement%s",
			    m->cmd.cmd, g ? g : "unknown",
			    n->n_seen == WS_NODE_SEEN_MAX ? "; further new commands not logged"
							  : "");
	}
	reply_words(n, p, m, NULL, 0, 0);
}

/* ---- Write IQ ----------------------------------------------------------------------------- */

/* Checks a Write IQ packet; returns the sample header, or an error counted. */
static int write_check(ws_node *n, const ws_wire_msg *m, ws_wire_sample_hdr *s)
{
	if (ws_wire_get_sample_hdr(m->args, m->args_len, s) < 0) {
		WS_NODE_BUMP(n, malformed, 1);
		return -1;
	}
	uint64_t avail = (m->args_len - WS_WIRE_SAMPLE_HDR_LEN) / 4;
	if (s->count == 0 || s->count > avail) {
		WS_NODE_BUMP(n, malformed, 1);
		return -1;
	}
	if (s->buffer == 0 || (s->buffer & ~n->rf_mask)) {
		WS_NODE_BUMP(n, bad_buffer, 1);
		return -1;
	}
	if (s->start > n->cfg.tx_samples || s->count > n->cfg.tx_samples - s->start) {
		WS_NODE_BUMP(n, out_of_range, 1);
		return -1;
	}
	return 0;
}

static int write_store(ws_node *n, const ws_wire_msg *m, const ws_wire_sample_hdr *s)
{
	const uint8_t *src = m->args + WS_WIRE_SAMPLE_HDR_LEN;
	if (ws_node_mem_write(&n->mem, s->buffer, s->start, src, s->count) < 0) {
		ws_node_mem_failed(n);
		return -1;
	}
	if (s->flags & WS_WIRE_SFLAG_CHECKSUM_RESET)
		ws_wire_csum_reset(&n->csum);
	ws_wire_csum_packet(&n->csum, s->start, ws_get_be32(src + (size_t)s->count * 4 - 4));
	WS_NODE_BUMP(n, write_packets, 1);
	WS_NODE_BUMP(n, write_samples, s->count);
	return 0;
}

static void cmd_write_iq(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	ws_wire_sample_hdr s = {0};
	uint32_t w[3 + WS_WIRE_NOT_READY_WORDS];
	size_t nw = 3;
	uint16_t flags = 0;
	int64_t now = ws_clock_ns();
	int busy = ws_node_board_busy(&n->board, now);
	if (write_check(n, m, &s) < 0 || (!busy && write_store(n, m, &s) < 0)) {
		w[0] = WS_WIRE_WRITE_IQ_ERROR;
		if (m->tr.flags & WS_WIRE_FLAG_ROBUST)
			WS_NODE_BUMP(n, error_replies, 1);
	} else if (busy) {
		w[0] = WS_WIRE_WRITE_NOT_READY;
		ws_node_board_not_ready_words(&n->board, now, n->tx_length, n->rx_length, w + 3);
		nw += WS_WIRE_NOT_READY_WORDS;
		flags = WS_WIRE_FLAG_NODE_NOT_READY;
		if (m->tr.flags & WS_WIRE_FLAG_ROBUST)
			WS_NODE_BUMP(n, not_ready_replies, 1);
	} else {
		w[0] = WS_WIRE_WRITE_OK;
	}
	w[1] = s.iq_id;
	w[2] = ws_wire_csum_value(&n->csum);
	if (m->tr.flags & WS_WIRE_FLAG_ROBUST)
		WS_NODE_BUMP(n, write_acks, 1);
	reply_words(n, p, m, w, nw, flags);
}

/* ---- Read IQ and the trigger ------------------------------------------------------------ */

/* READ_IQ, and READ_RSSI in the same form over the RSSI buffers' words (issue 33). */
static void cmd_read_iq(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint32_t a[5];
	uint64_t size = m->cmd.cmd == WS_WIRE_CMD_READ_RSSI ? WS_NODE_RSSI_WORDS(n->cfg.rx_samples)
							    : n->cfg.rx_samples;
	WS_NODE_BUMP(n, read_requests, 1);
	if (ws_wire_get_words(m->args, m->args_len, a, 5) < 5) {
		WS_NODE_BUMP(n, malformed, 1);
		ws_node_read_refuse(n, p, m, 0, 0, 0);
		return;
	}
	uint32_t buffer = a[0], start = a[1], count = a[2], bpp = a[3];
	uint32_t spp = bpp / 4;
	if (bpp % 4 || spp == 0 || (uint64_t)bpp + 32 > n->cfg.max_payload) {
		WS_NODE_BUMP(n, malformed, 1);
		ws_node_read_refuse(n, p, m, (uint16_t)buffer, start, 0);
	} else if (buffer == 0 || (buffer & ~n->rf_mask)) {
		WS_NODE_BUMP(n, bad_buffer, 1);
		ws_node_read_refuse(n, p, m, (uint16_t)buffer, start, 0);
	} else if (count == 0 || start > size || count > size - start) {
		WS_NODE_BUMP(n, out_of_range, 1);
		ws_node_read_refuse(n, p, m, (uint16_t)buffer, start, 0);
	} else if (ws_node_board_busy(&n->board, ws_clock_ns())) {
		ws_node_read_refuse(n, p, m, (uint16_t)buffer, start, 1);
	} else {
		ws_node_stream_start(n, p, m, buffer, start, count, spp);
	}
}

/* The channel: each RX buffer enabled for capture (all when the host never enabled any)
 * receives the first L samples of the TX buffer of its interface, L being the longest of the
 * written TX extent and the TX and RX lengths, within both buffers. node_mem makes that
 * O(chunks): the RX chunks come to reference the TX chunks. */
static void play_channel(ws_node *n)
{
	unsigned mask = n->rx_enable_seen ? n->rx_enabled : n->rf_mask;
	uint32_t longest = n->tx_length > n->rx_length ? n->tx_length : n->rx_length;
	WS_NODE_BUMP(n, triggers, 1);
	for (int rf = 0; rf < n->cfg.rf; rf++) {
		if (!(mask >> rf & 1))
			continue;
		n->captures[rf]++;
		if (n->cfg.channel != WS_NODE_CHANNEL_LOOPBACK)
			continue;
		uint32_t len = n->mem.tx_extent[rf] > longest ? n->mem.tx_extent[rf] : longest;
		uint32_t cap = n->cfg.tx_samples < n->cfg.rx_samples ? n->cfg.tx_samples
								     : n->cfg.rx_samples;
		if (len > cap)
			len = cap;
		if (ws_node_mem_capture(&n->mem, rf, len) < 0)
			ws_node_mem_failed(n);
	}
	ws_node_board_trigger(&n->board, longest);
}

/* warpspeed only (a board answers it with a plain acknowledgement): the trigger counter,
 * so that a host can tell whether an unacknowledged trigger arrived. */
static void cmd_trigger_count(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint64_t t = n->ctr.triggers;
	uint32_t w[3] = {WS_NODE_TRIGGER_COUNT_MAGIC, (uint32_t)(t >> 32), (uint32_t)t};
	reply_words(n, p, m, w, 3, 0);
}

/* ---- dispatch ------------------------------------------------------------------------------ */

static int addressed(const ws_node *n, uint16_t dest)
{
	if (dest == n->cfg.id || dest == WS_WIRE_ID_BROADCAST)
		return 1;
	return (dest & 0xFF00u) == 0xFF00u && (dest & n->cfg.group_bits) != 0;
}

static void cmd_initialize(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	ws_node_reset(n);
	reply_words(n, p, m, NULL, 0, 0);
}

static void cmd_empty(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	reply_words(n, p, m, NULL, 0, 0);
}

static void cmd_tx_length(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	cmd_length(n, p, m, &n->tx_length, n->cfg.tx_samples);
}

static void cmd_rx_length(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	cmd_length(n, p, m, &n->rx_length, n->cfg.rx_samples);
}

static void cmd_checksum(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint32_t w = ws_wire_csum_value(&n->csum);
	reply_words(n, p, m, &w, 1, 0);
}

static void cmd_tx_buff_en(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	cmd_buff_en(n, p, m, 0);
}

static void cmd_rx_buff_en(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	cmd_buff_en(n, p, m, 1);
}

typedef void (*cmd_fn)(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m);

/* The name is the command's in the counters (by_command) and in --metrics. */
static const struct {
	uint32_t cmd;
	cmd_fn fn;
	const char *name;
} commands[] = {
	{WS_WIRE_CMD_NODE_INITIALIZE, cmd_initialize, "node_initialize"},
	{WS_WIRE_CMD_NODE_INFO, cmd_node_info, "node_info"},
	{WS_WIRE_CMD_PING, cmd_empty, "ping"},
	{WS_WIRE_CMD_PAYLOAD_SIZE_TEST, cmd_payload_test, "payload_size_test"},
	{WS_WIRE_CMD_TX_LENGTH, cmd_tx_length, "tx_length"},
	{WS_WIRE_CMD_RX_LENGTH, cmd_rx_length, "rx_length"},
	{WS_WIRE_CMD_MAX_NUM_SAMPLES, cmd_max_samples, "max_num_samples"},
	{WS_WIRE_CMD_WRITE_IQ, cmd_write_iq, "write_iq"},
	{WS_WIRE_CMD_READ_IQ, cmd_read_iq, "read_iq"},
	{WS_WIRE_CMD_READ_RSSI, cmd_read_iq, "read_rssi"},
	{WS_WIRE_CMD_WRITE_IQ_CHECKSUM, cmd_checksum, "write_iq_checksum"},
	{WS_WIRE_CMD_TX_BUFF_EN, cmd_tx_buff_en, "tx_buff_en"},
	{WS_WIRE_CMD_RX_BUFF_EN, cmd_rx_buff_en, "rx_buff_en"},
	{WS_NODE_CMD_TRIGGER_COUNT, cmd_trigger_count, "trigger_count"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])
_Static_assert(NCOMMANDS + 1 == WS_NODE_CMD_KINDS, "WS_NODE_CMD_KINDS: the table and other");

const char *ws_node_command_name(unsigned i)
{
	return i < NCOMMANDS ? commands[i].name : i == NCOMMANDS ? "other" : NULL;
}

static void dispatch(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	size_t i = 0;
	while (i < NCOMMANDS && commands[i].cmd != m->cmd.cmd)
		i++;
	WS_NODE_BUMP(n, by_command[i], 1);
	if (i < NCOMMANDS)
		commands[i].fn(n, p, m);
	else
		cmd_other(n, p, m);
}

/* One datagram from peer p; arrival is its kernel receive time (wall clock ns) or 0. */
void ws_node_handle(ws_node *n, const ws_node_peer *p, const uint8_t *pkt, size_t len,
		    int64_t arrival)
{
	ws_wire_msg m;
	if (len > (size_t)n->cfg.max_payload + WS_WIRE_PAD_LEN) {
		WS_NODE_BUMP(n, oversize, 1);
		return;
	}
	if (ws_wire_parse(pkt, len, &m) < 0) {
		WS_NODE_BUMP(n, malformed, 1);
		return;
	}
	if (m.is_trigger) {
		if (m.trigger_ids && addressed(n, m.tr.dest_id))
			play_channel(n);
		else
			WS_NODE_BUMP(n, not_for_us, 1);
		return;
	}
	if (m.tr.pkt_type != WS_WIRE_PKT_HOST_TO_NODE || !addressed(n, m.tr.dest_id)) {
		WS_NODE_BUMP(n, not_for_us, 1);
		return;
	}
	WS_NODE_BUMP(n, commands, 1);
	if (n->cfg.rx_slots) {
		/* The board drops what finds no free slot and answers only after storing. */
		int64_t done, t = arrival ? arrival : ws_clock_wall_ns();
		if (!ws_node_board_admit(&n->board, m.cmd.cmd == WS_WIRE_CMD_WRITE_IQ, t, &done)) {
			WS_NODE_BUMP(n, slot_drops, 1);
			return;
		}
		if ((m.tr.flags & WS_WIRE_FLAG_ROBUST) || m.cmd.cmd == WS_WIRE_CMD_READ_IQ ||
		    m.cmd.cmd == WS_WIRE_CMD_READ_RSSI)
			ws_node_board_wait_until(done, &n->stop);
	}
	dispatch(n, p, &m);
}
