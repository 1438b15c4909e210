/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_iq_host_reply: libFuzzer target for the IQ host's handling of what a node sends back.
 *
 * A node is untrusted input to the host: its Read IQ sample packets (NOT_READY with its six
 * status words, IQ_ERROR, wrong buffers, starts off the grid, counts and lengths that
 * disagree), Write IQ acknowledgements with their checksums, command answers and stray
 * datagrams all go through pure functions of (datagram, transfer state): ws_iqread_feed,
 * ws_iqwrite_feed and ws_iq_cmd_match. This target drives them on an offline handle (no
 * socket: requests are recorded but not sent, NOT_READY does not sleep) from one input:
 *   byte 0   scenario: 0 Read IQ, 1 fast Write IQ, 2 acknowledged Write IQ, 3 commands
 *   bytes 1-6 buffer mask, start (u16), count - 1 (u16, at most 4096 samples), format
 *   then records [fix u8][sel u8][len u16 BE][len bytes], each one datagram. fix bit 0 makes
 *   the transport header a node->host one for this host, bit 1 gives it the seq of one of
 *   the requests sent (sel picks which), bit 2 the scenario's command, bit 3 (Read IQ) a
 *   sample header for the request's buffer at a packet start sel picks; in scenario 3, sel
 *   is the seq's offset and its top bit asks for the trigger counter instead of PING.
 * Each datagram is copied into an exactly-sized heap block so ASan sees any read past its
 * end; after each one the transfer sends what its window allows (offline). Deterministic:
 * the handle is built afresh per input with a fixed seq. */
#include "iq/host/host.h"
#include "iq/host/iqread.h"
#include "iq/host/iqwrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ws_iq_node *fake_node(void)
{
	ws_iq_node *n = calloc(1, sizeof *n);
	if (!n)
		abort();
	ws_iq_config_default(&n->cfg);
	n->cfg.max_payload = 1468;
	n->cfg.retries = 4;
	n->fd = -1;
	n->offline = 1;
	n->seq = 1000;
	n->sticky = 4;
	snprintf(n->name, sizeof n->name, "fuzz");
	n->info = (ws_iq_info){.max_payload = 1468, .samples_per_packet = 356,
			       .packet_size = WS_WIRE_SAMPLE_PKT_HDR + 4 * 356, .num_rf = 4,
			       .max_tx_samples = 1u << 16, .max_rx_samples = 1u << 16,
			       .window = 8 * (WS_WIRE_SAMPLE_PKT_HDR + 4 * 356)};
	if (ws_iq_host_alloc(n, NULL) < 0)
		abort();
	return n;
}

static void free_node(ws_iq_node *n)
{
	ws_iq_host_release(n);
	free(n);
}

typedef struct fuzz_xfer {
	int kind;
	unsigned mask;
	uint32_t start, count;
	ws_iq_format fmt;
	uint16_t first_seq;
	ws_iqread_op *rd;
	ws_iqwrite_op *wr;
} fuzz_xfer;

/* Applies the record's fixes to datagram d (len bytes). */
static void fix_up(const ws_iq_node *n, const fuzz_xfer *x, uint8_t fix, uint8_t sel, uint8_t *d,
		   size_t len)
{
	static const uint32_t cmd[4] = {WS_WIRE_CMD_READ_IQ, WS_WIRE_CMD_WRITE_IQ,
					WS_WIRE_CMD_WRITE_IQ, WS_WIRE_CMD_PING};
	if ((fix & 1) && len >= WS_WIRE_OFF_CMD) {
		d[0] = d[1] = 0;
		ws_put_be16(d + 2, n->cfg.host_id);
		ws_put_be16(d + 4, n->cfg.node_id);
		d[7] = WS_WIRE_PKT_NODE_TO_HOST;
	}
	if ((fix & 2) && len >= WS_WIRE_OFF_CMD) {
		uint32_t span = (uint16_t)(n->seq - x->first_seq) + 1u; /* 65536: none sent */
		ws_put_be16(d + 10, (uint16_t)(x->first_seq + sel % span));
	}
	if ((fix & 4) && len >= WS_WIRE_OFF_ARGS)
		ws_put_be32(d + WS_WIRE_OFF_CMD, cmd[x->kind]);
	if ((fix & 8) && x->kind == 0 && len >= WS_WIRE_SAMPLE_PKT_HDR) {
		uint32_t spp = n->info.samples_per_packet, np = (x->count + spp - 1) / spp;
		uint32_t p = sel % np, cnt = x->count - p * spp < spp ? x->count - p * spp : spp;
		ws_wire_sample_hdr s = {.buffer = (uint16_t)(x->mask & -x->mask),
					.start = x->start + p * spp, .count = cnt};
		ws_wire_put_sample_hdr(d + WS_WIRE_OFF_ARGS, WS_WIRE_SAMPLE_HDR_LEN, &s);
	}
}

/* One datagram into the transfer; 1 to go on, 0 when it ended. */
static int feed(ws_iq_node *n, fuzz_xfer *x, const uint8_t *d, size_t len, uint8_t sel)
{
	ws_err e;
	int r;
	if (x->kind == 0) {
		r = ws_iqread_feed(n, x->rd, d, len, sel & 1, &e);
		if (r >= 0 && !ws_iqread_done(x->rd))
			r = ws_iqread_fill(n, x->rd, &e);
		return r >= 0 && !ws_iqread_done(x->rd);
	}
	if (x->kind <= 2) {
		r = ws_iqwrite_feed(n, x->wr, d, len, sel & 1, &e);
		if (r >= 0 && !ws_iqwrite_done(x->wr))
			r = ws_iqwrite_step(n, x->wr, &e);
		return r >= 0 && !ws_iqwrite_done(x->wr);
	}
	/* Commands: the answer to one seq, its trigger counter, and the NOT_READY cap. */
	ws_iq_reply rep;
	uint64_t c;
	if (ws_iq_cmd_match(n, d, len, 0, (uint16_t)(x->first_seq + sel),
			    sel & 0x80 ? WS_IQ_CMD_TRIGGER_COUNTER : WS_WIRE_CMD_PING, &rep)) {
		if (rep.nw > WS_IQ_CMD_MAX_WORDS)
			abort();
		ws_iq_cmd_trigger_count_of(&rep, &c);
		if (ws_iq_host_not_ready_cap_ns(n, rep.w, rep.nw < 6 ? rep.nw : 6) >
		    ws_iq_host_not_ready_wait_ns((const uint32_t[6]){0, 0, 4u << 16, 0, 0, 0}, 6))
			abort();
	}
	return 1;
}

static int begin(ws_iq_node *n, fuzz_xfer *x, void **buf)
{
	ws_err e;
	size_t bytes = (size_t)x->count * ws_iq_format_size(x->fmt) * 4;
	*buf = calloc(1, bytes);
	if (!*buf)
		abort();
	x->first_seq = (uint16_t)(n->seq + 1);
	if (x->kind == 0) {
		void *dst[4];
		for (int b = 0; b < 4; b++)
			dst[b] = (uint8_t *)*buf + (size_t)b * (bytes / 4);
		if (ws_iqread_begin(n, x->mask, x->start, x->count, x->fmt, dst, &x->rd, &e) < 0)
			return -1;
		return ws_iqread_fill(n, x->rd, &e);
	}
	if (x->kind <= 2)
		return ws_iqwrite_begin(n, x->mask, x->start, x->count, x->fmt, *buf, x->kind == 2,
					&x->wr, &e);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 7)
		return 0;
	fuzz_xfer x = {.kind = data[0] % 4, .mask = (data[1] & 0xFu) ? data[1] & 0xFu : 1u,
		       .start = ws_get_be16(data + 2), .count = (ws_get_be16(data + 4) & 0xFFFu) + 1,
		       .fmt = (ws_iq_format)(data[6] % 3)};
	x.start %= (1u << 16) - x.count + 1; /* within the buffers, as ws_iq_read checks */
	ws_iq_node *n = fake_node();
	void *buf = NULL;
	size_t at = 7;
	int go = begin(n, &x, &buf) >= 0;
	while (go && at + 4 <= size) {
		uint8_t fix = data[at], sel = data[at + 1];
		size_t len = ws_get_be16(data + at + 2);
		at += 4;
		if (len > size - at)
			len = size - at;
		uint8_t *d = malloc(len ? len : 1);
		if (!d)
			abort();
		memcpy(d, data + at, len);
		at += len;
		fix_up(n, &x, fix, sel, d, len);
		go = feed(n, &x, d, len, sel);
		free(d);
	}
	ws_iqread_end(x.rd);
	ws_iqwrite_end(x.wr);
	free(buf);
	free_node(n);
	return 0;
}
