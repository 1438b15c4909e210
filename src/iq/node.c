/* node: the WARP v3 / WARPLab 7.7.1 emulator engine; see node.h for the model.
 *
 * One thread, one request at a time, like the board's MicroBlaze: a poll over the unicast
 * socket, the broadcast socket and a stop eventfd; datagrams arrive in recvmmsg batches and
 * are dispatched by command word. Nothing a packet says is trusted: lengths come from the
 * datagram, indices are checked against the buffer before any memory is touched, and each
 * rejection is counted. This file holds the node's state, its buffers, the dispatch and the
 * command handlers; a Read IQ that passes its checks is streamed by node_stream.c, and the
 * optional board fidelity (receive slots, per-packet store time, NOT_READY windows) is
 * node_board.c, fed with the kernel's arrival timestamps so it is exact however late the
 * node reads. */
#include "iq/node_stream.h"

#include "iq/wire.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/features.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define NODE_CHUNK_SHIFT 16 /* RX test signal is generated 64 Ki samples at a time */
#define NODE_REPLY_WORDS 16

void ws_node_log(ws_node *n, int level, const char *fmt, ...)
{
	if (!n->cfg.log)
		return;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	n->cfg.log(n->cfg.log_ctx, level, msg);
}

uint32_t ws_node_test_sample(int rf, uint32_t i)
{
	uint16_t iv = (uint16_t)(i * 7u + (uint32_t)rf * 1000u);
	return (uint32_t)iv << 16 | (uint16_t)~iv;
}

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
}

/* ---- buffers ---------------------------------------------------------------------------- */

static int buf_map(ws_node *n, ws_node_buf *b)
{
	if (b->mem)
		return 0;
	void *p = mmap(NULL, b->bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		WS_NODE_BUMP(n, alloc_failures, 1);
		ws_node_log(n, WS_NODE_LOG_WARN, "cannot map a buffer of %zu bytes: %s", b->bytes,
			    strerror(errno));
		return -1;
	}
	/* No MADV_HUGEPAGE: with THP defrag "madvise" each fault compacts memory, which made
	 * the first touch of a 128 MiB buffer ten times slower than 4 KiB faults. */
	b->mem = p;
	return 0;
}

static int chunk_ready(const ws_node_buf *b, uint32_t c)
{
	return b->ready[c >> 3] >> (c & 7) & 1;
}

static void chunk_set(ws_node_buf *b, uint32_t c)
{
	b->ready[c >> 3] |= (uint8_t)(1u << (c & 7));
}

/* Make RX samples [start, start+count) hold content: chunks never touched get the test
 * signal. full_overwrite says the caller rewrites the whole range at once, so chunks lying
 * entirely inside it need no signal. */
int ws_node_rx_prepare(ws_node *n, int rf, uint32_t start, uint32_t count, int full_overwrite)
{
	ws_node_buf *b = &n->rx[rf];
	if (buf_map(n, b) < 0)
		return -1;
	uint64_t end = (uint64_t)start + count;
	for (uint32_t c = start >> NODE_CHUNK_SHIFT; (uint64_t)c << NODE_CHUNK_SHIFT < end; c++) {
		if (chunk_ready(b, c))
			continue;
		uint64_t c0 = (uint64_t)c << NODE_CHUNK_SHIFT;
		uint64_t c1 = c0 + (1u << NODE_CHUNK_SHIFT);
		if (c1 > b->samples)
			c1 = b->samples;
		if (!(full_overwrite && c0 >= start && c1 <= end)) {
			uint8_t *dst = b->mem + c0 * 4;
			for (uint64_t i = c0; i < c1; i++, dst += 4)
				ws_put_be32(dst, ws_node_test_sample(rf, (uint32_t)i));
		}
		chunk_set(b, c);
	}
	return 0;
}

/* ---- replies ------------------------------------------------------------------------------ */

/* ENOBUFS (a full device queue) does not make poll block, so that case also sleeps a
 * little. */
void ws_node_wait_writable(ws_node *n, int fd, int nobufs)
{
	WS_NODE_BUMP(n, send_waits, 1);
	struct pollfd p[2] = {{.fd = fd, .events = POLLOUT}, {.fd = n->efd, .events = POLLIN}};
	poll(p, 2, 100);
	if (nobufs)
		ws_clock_sleep_ns(20 * WS_NS_PER_US);
}

static void send_dgram(ws_node *n, const ws_node_peer *p, const uint8_t *buf, size_t len)
{
	WS_NODE_BUMP(n, tx_packets, 1);
	WS_NODE_BUMP(n, tx_bytes, len);
	if (p->fd < 0)
		return;
	for (int tries = 0; tries < 50 && !ws_node_stopping(n); tries++) {
		if (sendto(p->fd, buf, len, 0, (const struct sockaddr *)&p->addr, sizeof p->addr) >= 0)
			return;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS)
			break;
		ws_node_wait_writable(n, p->fd, errno == ENOBUFS);
	}
	WS_NODE_BUMP(n, send_errors, 1);
}

ws_wire_transport ws_node_reply_transport(const ws_node *n, const ws_wire_msg *m, size_t len,
					  uint16_t flags)
{
	ws_wire_transport t = {.dest_id = m->tr.src_id, .src_id = n->cfg.id,
			       .pkt_type = WS_WIRE_PKT_NODE_TO_HOST,
			       .length = ws_wire_node_length(len), .seq = m->tr.seq,
			       .flags = flags};
	return t;
}

/* A response carrying nw argument words; sent only when the request asked for one. */
static void reply_words(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m,
			const uint32_t *w, size_t nw, uint16_t flags)
{
	if (!(m->tr.flags & WS_WIRE_FLAG_ROBUST))
		return;
	uint8_t buf[WS_WIRE_OFF_ARGS + 4 * NODE_REPLY_WORDS];
	size_t len = WS_WIRE_OFF_ARGS + 4 * nw;
	ws_wire_transport t = ws_node_reply_transport(n, m, len, flags);
	ws_wire_cmd c = {.cmd = m->cmd.cmd, .length = (uint16_t)(4 * nw),
			 .num_args = (uint16_t)nw};
	int r = ws_wire_build(buf, sizeof buf, &t, &c, w, nw);
	if (r > 0)
		send_dgram(n, p, buf, (size_t)r);
}

/* ---- simple commands --------------------------------------------------------------------- */

static void node_reset(ws_node *n)
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
	size_t bytes = (size_t)s->count * 4;
	for (int rf = 0; rf < n->cfg.rf; rf++) {
		if (!(s->buffer >> rf & 1))
			continue;
		ws_node_buf *b = &n->tx[rf];
		if (buf_map(n, b) < 0)
			return -1;
		memcpy(b->mem + (size_t)s->start * 4, src, bytes);
		if (s->start + s->count > b->extent)
			b->extent = s->start + s->count;
	}
	if (s->flags & WS_WIRE_SFLAG_CHECKSUM_RESET)
		ws_wire_csum_reset(&n->csum);
	ws_wire_csum_packet(&n->csum, s->start, ws_get_be32(src + bytes - 4));
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

/* ---- Read IQ ------------------------------------------------------------------------------- */

/* One sample packet without samples: the error or NOT_READY answer to a Read IQ. */
static void read_refuse(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, uint16_t buffer,
			uint32_t start, int not_ready)
{
	uint8_t buf[WS_WIRE_SAMPLE_PKT_HDR + 4 * WS_WIRE_NOT_READY_WORDS];
	uint32_t w[WS_WIRE_NOT_READY_WORDS];
	size_t nw = not_ready ? WS_WIRE_NOT_READY_WORDS : 0;
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * nw;
	ws_wire_transport t =
		ws_node_reply_transport(n, m, len, not_ready ? WS_WIRE_FLAG_NODE_NOT_READY : 0);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_READ_IQ,
			 .length = (uint16_t)(WS_WIRE_SAMPLE_HDR_LEN + 4 * nw), .num_args = 1};
	unsigned rf = buffer ? (unsigned)__builtin_ctz(buffer) : 0;
	ws_wire_sample_hdr s = {
		.buffer = buffer,
		.flags = not_ready ? WS_WIRE_SFLAG_IQ_NOT_READY : WS_WIRE_SFLAG_IQ_ERROR,
		.iq_id = rf < WS_NODE_MAX_RF ? (uint8_t)n->rx[rf].captures : 0,
		.start = start};
	if (not_ready) {
		ws_node_board_not_ready_words(&n->board, ws_clock_ns(), n->tx_length, n->rx_length,
					      w);
		WS_NODE_BUMP(n, not_ready_replies, 1);
	} else {
		WS_NODE_BUMP(n, error_replies, 1);
	}
	buf[0] = buf[1] = 0;
	ws_wire_put_transport(buf + WS_WIRE_OFF_TRANSPORT, WS_WIRE_TRANSPORT_LEN, &t);
	ws_wire_put_cmd(buf + WS_WIRE_OFF_CMD, WS_WIRE_CMD_LEN, &c);
	ws_wire_put_sample_hdr(buf + WS_WIRE_OFF_ARGS, WS_WIRE_SAMPLE_HDR_LEN, &s);
	ws_wire_put_words(buf + WS_WIRE_OFF_SAMPLES, 4 * nw, w, nw);
	send_dgram(n, p, buf, len);
}

static void cmd_read_iq(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	uint32_t a[5];
	WS_NODE_BUMP(n, read_requests, 1);
	if (ws_wire_get_words(m->args, m->args_len, a, 5) < 5) {
		WS_NODE_BUMP(n, malformed, 1);
		read_refuse(n, p, m, 0, 0, 0);
		return;
	}
	uint32_t buffer = a[0], start = a[1], count = a[2], bpp = a[3];
	uint32_t spp = bpp / 4;
	if (bpp % 4 || spp == 0 || (uint64_t)bpp + 32 > n->cfg.max_payload) {
		WS_NODE_BUMP(n, malformed, 1);
		read_refuse(n, p, m, (uint16_t)buffer, start, 0);
	} else if (buffer == 0 || (buffer & ~n->rf_mask)) {
		WS_NODE_BUMP(n, bad_buffer, 1);
		read_refuse(n, p, m, (uint16_t)buffer, start, 0);
	} else if (count == 0 || start > n->cfg.rx_samples || count > n->cfg.rx_samples - start) {
		WS_NODE_BUMP(n, out_of_range, 1);
		read_refuse(n, p, m, (uint16_t)buffer, start, 0);
	} else if (ws_node_board_busy(&n->board, ws_clock_ns())) {
		read_refuse(n, p, m, (uint16_t)buffer, start, 1);
	} else {
		/* A bitmask is served one buffer after another, RF_A first. */
		for (int rf = 0; rf < n->cfg.rf && !ws_node_stopping(n); rf++) {
			if (!(buffer >> rf & 1))
				continue;
			if (buf_map(n, &n->rx[rf]) < 0)
				read_refuse(n, p, m, (uint16_t)(1u << rf), start, 0);
			else
				ws_node_stream_range(n, p, m, rf, start, count, spp);
		}
	}
}

/* ---- trigger ------------------------------------------------------------------------------ */

/* The channel: each RX buffer enabled for capture (all when the host never enabled any)
 * receives the first L samples of the TX buffer of its interface, L being the longest of the
 * written TX extent and the TX and RX lengths, within both buffers. */
static void play_channel(ws_node *n)
{
	unsigned mask = n->rx_enable_seen ? n->rx_enabled : n->rf_mask;
	uint32_t longest = n->tx_length > n->rx_length ? n->tx_length : n->rx_length;
	WS_NODE_BUMP(n, triggers, 1);
	for (int rf = 0; rf < n->cfg.rf; rf++) {
		if (!(mask >> rf & 1))
			continue;
		n->rx[rf].captures++;
		if (n->cfg.channel != WS_NODE_CHANNEL_LOOPBACK)
			continue;
		ws_node_buf *tx = &n->tx[rf];
		uint32_t len = tx->extent > longest ? tx->extent : longest;
		uint32_t cap = n->cfg.tx_samples < n->cfg.rx_samples ? n->cfg.tx_samples
								     : n->cfg.rx_samples;
		if (len > cap)
			len = cap;
		if (ws_node_rx_prepare(n, rf, 0, len, 1) < 0)
			continue;
		if (tx->mem)
			memcpy(n->rx[rf].mem, tx->mem, (size_t)len * 4);
		else
			memset(n->rx[rf].mem, 0, (size_t)len * 4);
	}
	ws_node_board_trigger(&n->board, longest);
}

/* ---- dispatch ------------------------------------------------------------------------------ */

static int addressed(const ws_node *n, uint16_t dest)
{
	if (dest == n->cfg.id || dest == WS_WIRE_ID_BROADCAST)
		return 1;
	return (dest & 0xFF00u) == 0xFF00u && (dest & n->cfg.group_bits) != 0;
}

static void dispatch(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m)
{
	switch (m->cmd.cmd) {
	case WS_WIRE_CMD_NODE_INITIALIZE:
		node_reset(n);
		reply_words(n, p, m, NULL, 0, 0);
		break;
	case WS_WIRE_CMD_NODE_INFO: cmd_node_info(n, p, m); break;
	case WS_WIRE_CMD_PING: reply_words(n, p, m, NULL, 0, 0); break;
	case WS_WIRE_CMD_PAYLOAD_SIZE_TEST: cmd_payload_test(n, p, m); break;
	case WS_WIRE_CMD_TX_LENGTH: cmd_length(n, p, m, &n->tx_length, n->cfg.tx_samples); break;
	case WS_WIRE_CMD_RX_LENGTH: cmd_length(n, p, m, &n->rx_length, n->cfg.rx_samples); break;
	case WS_WIRE_CMD_MAX_NUM_SAMPLES: cmd_max_samples(n, p, m); break;
	case WS_WIRE_CMD_WRITE_IQ: cmd_write_iq(n, p, m); break;
	case WS_WIRE_CMD_READ_IQ: cmd_read_iq(n, p, m); break;
	case WS_WIRE_CMD_WRITE_IQ_CHECKSUM: {
		uint32_t w = ws_wire_csum_value(&n->csum);
		reply_words(n, p, m, &w, 1, 0);
		break;
	}
	case WS_WIRE_CMD_TX_BUFF_EN: cmd_buff_en(n, p, m, 0); break;
	case WS_WIRE_CMD_RX_BUFF_EN: cmd_buff_en(n, p, m, 1); break;
	default: cmd_other(n, p, m); break;
	}
}

/* One datagram from peer p; arrival is its kernel receive time (wall clock ns) or 0. */
static void handle(ws_node *n, const ws_node_peer *p, const uint8_t *pkt, size_t len,
		   int64_t arrival)
{
	ws_wire_msg m;
	WS_NODE_BUMP(n, rx_packets, 1);
	WS_NODE_BUMP(n, rx_bytes, len);
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
		if ((m.tr.flags & WS_WIRE_FLAG_ROBUST) || m.cmd.cmd == WS_WIRE_CMD_READ_IQ)
			ws_node_board_wait_until(done, &n->stop);
	}
	dispatch(n, p, &m);
}

void ws_node_feed(ws_node *n, const uint8_t *pkt, size_t len)
{
	ws_node_peer p = {.fd = n->fd};
	p.addr.sin_family = AF_INET;
	p.addr.sin_port = htons(1);
	p.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	handle(n, &p, pkt, len, 0);
}

/* ---- socket loop --------------------------------------------------------------------------- */

static int64_t arrival_of(const struct msghdr *h)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR((struct msghdr *)h, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;
			memcpy(&ts, CMSG_DATA(c), sizeof ts);
			return (int64_t)ts.tv_sec * WS_NS_PER_SEC + ts.tv_nsec;
		}
	}
	return 0;
}

static void recv_reset(ws_node *n)
{
	for (unsigned i = 0; i < WS_NODE_BATCH; i++) {
		n->riov[i] = (struct iovec){.iov_base = n->rbuf + i * n->slot_size,
					    .iov_len = n->slot_size};
		n->rmsg[i].msg_hdr = (struct msghdr){.msg_name = &n->rfrom[i],
						     .msg_namelen = sizeof n->rfrom[i],
						     .msg_iov = &n->riov[i],
						     .msg_iovlen = 1,
						     .msg_control = n->rctl[i],
						     .msg_controllen = sizeof n->rctl[i]};
	}
}

/* Reads what fd holds, a bounded number of batches so neither socket nor a stop starves.
 * Returns 0, or -errno for a socket error that will not go away. */
static int drain(ws_node *n, int fd)
{
	for (int round = 0; round < 16 && !ws_node_stopping(n); round++) {
		recv_reset(n);
		int r = recvmmsg(fd, n->rmsg, WS_NODE_BATCH, MSG_DONTWAIT, NULL);
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
			    errno == ENOMEM || errno == ENOBUFS || errno == ECONNREFUSED)
				return 0;
			return -errno;
		}
		for (int i = 0; i < r && !ws_node_stopping(n); i++) {
			struct msghdr *h = &n->rmsg[i].msg_hdr;
			ws_node_peer p = {.fd = fd, .addr = n->rfrom[i]};
			size_t len = n->rmsg[i].msg_len;
			if (h->msg_flags & MSG_TRUNC) /* beyond any payload we accept */
				len = n->slot_size;
			if (h->msg_namelen != sizeof p.addr || p.addr.sin_family != AF_INET)
				continue;
			handle(n, &p, n->riov[i].iov_base, len, arrival_of(h));
		}
		if (r < WS_NODE_BATCH)
			return 0;
	}
	return 0;
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
		if (poll(p, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			return ws_err_errno(err, "node: poll");
		}
		for (nfds_t i = 1; i < np; i++) {
			if (!(p[i].revents & (POLLIN | POLLERR)))
				continue;
			int r = drain(n, p[i].fd);
			if (r < 0) {
				errno = -r;
				return ws_err_errno(err, "node: recvmmsg on port %d",
						    i == 1 ? n->info.port : n->info.bcast_port);
			}
		}
	}
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

static int open_udp(ws_node *n, struct in_addr addr, int port, int reuse, int *bound,
		    ws_err *err)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ws_err_errno(err, "node: socket");
	int one = 1;
	if (reuse)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	set_buf(fd, SO_RCVBUFFORCE, SO_RCVBUF, n->cfg.sock_buf);
	set_buf(fd, SO_SNDBUFFORCE, SO_SNDBUF, n->cfg.sock_buf);
	if (n->cfg.rx_slots &&
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) == 0)
		n->info.timestamps = 1;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr = addr};
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
 * broadcast socket listens on any address, except for a loopback node, which stays on
 * loopback. */
static int open_sockets(ws_node *n, const ws_node_config *c, ws_err *err)
{
	struct in_addr any = {.s_addr = htonl(INADDR_ANY)}, addr = any;
	if (c->bind_addr && inet_pton(AF_INET, c->bind_addr, &addr) != 1)
		return ws_err_set(err, WS_E_INVAL,
				  "node: bind address '%s' is not an IPv4 address (a.b.c.d)",
				  c->bind_addr);
	n->fd = open_udp(n, addr, c->port, 0, &n->info.port, err);
	if (n->fd < 0)
		return n->fd;
	if (c->bcast_port >= 0) {
		struct in_addr baddr = (ntohl(addr.s_addr) >> 24) == 127 ? addr : any;
		n->bfd = open_udp(n, baddr, c->bcast_port, 1, &n->info.bcast_port, err);
		if (n->bfd < 0)
			return n->bfd;
	}
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
	if (c->tx_samples < 1 || c->tx_samples > WS_NODE_MAX_SAMPLES ||
	    c->rx_samples < 1 || c->rx_samples > WS_NODE_MAX_SAMPLES)
		return ws_err_set(err, WS_E_INVAL,
				  "node: buffer sizes %u TX / %u RX samples out of range (1..%u)",
				  c->tx_samples, c->rx_samples, WS_NODE_MAX_SAMPLES);
	if (c->port < -1 || c->port > 65535 || c->bcast_port < -1 || c->bcast_port > 65535)
		return ws_err_set(err, WS_E_INVAL,
				  "node: ports %d/%d out of range (0..65535, -1 for none)",
				  c->port, c->bcast_port);
	if (c->channel != WS_NODE_CHANNEL_LOOPBACK && c->channel != WS_NODE_CHANNEL_NONE)
		return ws_err_set(err, WS_E_INVAL, "node: channel %d unknown", c->channel);
	if (c->rx_slots > 4096 || c->per_packet_us > 1000000 || c->pace_us > 1000000 ||
	    c->not_ready_us > 60000000)
		return ws_err_set(err, WS_E_INVAL,
				  "node: fidelity settings out of range (rx slots <= 4096, "
				  "per-packet and pace <= 1 s, not-ready <= 60 s)");
	return 0;
}

static int alloc_state(ws_node *n, ws_err *err)
{
	n->rf_mask = (1u << n->cfg.rf) - 1;
	for (int rf = 0; rf < n->cfg.rf; rf++) {
		n->tx[rf].samples = n->cfg.tx_samples;
		n->tx[rf].bytes = (size_t)n->cfg.tx_samples * 4;
		n->rx[rf].samples = n->cfg.rx_samples;
		n->rx[rf].bytes = (size_t)n->cfg.rx_samples * 4;
		size_t chunks = ((size_t)n->cfg.rx_samples + (1u << NODE_CHUNK_SHIFT) - 1) >>
				NODE_CHUNK_SHIFT;
		n->rx[rf].ready = calloc((chunks + 7) / 8, 1);
		if (!n->rx[rf].ready)
			return ws_err_set(err, ENOMEM, "node: out of memory for buffer state");
	}
	/* One byte more than the largest accepted datagram, so a longer one is seen as such. */
	n->slot_size = (size_t)n->cfg.max_payload + WS_WIRE_PAD_LEN + 1;
	n->rbuf = malloc(n->slot_size * WS_NODE_BATCH);
	int board = ws_node_board_init(&n->board, &n->cfg);
	if (!n->rbuf || board < 0)
		return ws_err_set(err, ENOMEM, "node: out of memory for receive buffers");
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
	/* The probe catches a kernel path that accepts UDP_SEGMENT but segments wrongly
	 * (qemu-user on a big-endian guest passes the size unswapped). */
	n->gso = n->info.gso = c->gso && !c->pace_us && ws_features_probe_udp_gso() == 1;
	n->fd = n->bfd = n->efd = -1;
	n->info.port = n->info.bcast_port = -1;
	node_reset(n);
	r = alloc_state(n, err);
	if (r == 0 && c->port >= 0)
		r = open_sockets(n, c, err);
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

void ws_node_get_info(const ws_node *n, ws_node_info *out)
{
	*out = n->info;
}

void ws_node_destroy(ws_node *n)
{
	if (!n)
		return;
	for (int rf = 0; rf < WS_NODE_MAX_RF; rf++) {
		if (n->tx[rf].mem)
			munmap(n->tx[rf].mem, n->tx[rf].bytes);
		if (n->rx[rf].mem)
			munmap(n->rx[rf].mem, n->rx[rf].bytes);
		free(n->rx[rf].ready);
	}
	if (n->fd >= 0)
		close(n->fd);
	if (n->bfd >= 0)
		close(n->bfd);
	if (n->efd >= 0)
		close(n->efd);
	free(n->rbuf);
	ws_node_board_free(&n->board);
	free(n);
}
