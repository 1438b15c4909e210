/* SPDX-License-Identifier: BSD-2-Clause */
/* node_stream: Read IQ streaming of the node emulator; see node_stream.h for the model.
 *
 * Read IQ is the emulator's fast path and the reason it is never the bottleneck: each
 * packet is a 34-byte header plus iovecs straight into the RX chunks (the samples are
 * stored as wire words, so nothing is converted or copied), packets leave in sendmmsg
 * batches, and where the path allows, runs of equal-size packets go as one UDP GSO message
 * that the kernel segments. A full socket makes the node wait for POLLOUT rather than drop,
 * so the host's receive buffer is the only place packets are lost; a path that refuses GSO
 * turns it off for good and the stream carries on one packet per message. Pacing (one
 * packet per gap) models a board behind a slow link. */
#include "iq/node/node_stream.h"

#include "util/udp_gso.h"
#include "util/clock.h"

#include <errno.h>
#include <string.h>

/* A packet of the largest payload (65505 bytes, 32 of header) spans at most two chunks, so
 * three iovecs per packet are enough. */
_Static_assert((65505 - 32) / 4 < WS_NODE_CHUNK_SAMPLES, "a packet must fit in two chunks");

#define NODE_GSO_MAX_SEGS  64    /* UDP_MAX_SEGMENTS of older kernels */
#define NODE_GSO_MAX_BYTES 65000 /* one GSO send is one IP datagram before segmentation */

/* Fallbacks for C libraries older than the kernel feature (the PowerPC cross build). */
#ifndef SOL_UDP
#define SOL_UDP 17
#endif

void ws_node_read_refuse(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, uint16_t buffer,
			 uint32_t start, int not_ready)
{
	uint8_t buf[WS_WIRE_SAMPLE_PKT_HDR + 4 * WS_WIRE_NOT_READY_WORDS];
	uint32_t w[WS_WIRE_NOT_READY_WORDS];
	size_t nw = not_ready ? WS_WIRE_NOT_READY_WORDS : 0;
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * nw;
	ws_wire_transport t =
		ws_node_reply_transport(n, m, len, not_ready ? WS_WIRE_FLAG_NODE_NOT_READY : 0);
	ws_wire_cmd c = {.cmd = m->cmd.cmd,
			 .length = (uint16_t)(WS_WIRE_SAMPLE_HDR_LEN + 4 * nw),
			 .num_args = 1};
	unsigned rf = buffer ? (unsigned)__builtin_ctz(buffer) : 0;
	ws_wire_sample_hdr s = {.buffer = buffer,
				.flags = not_ready ? WS_WIRE_SFLAG_IQ_NOT_READY
						   : WS_WIRE_SFLAG_IQ_ERROR,
				.iq_id = rf < WS_NODE_MAX_RF ? (uint8_t)n->captures[rf] : 0,
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
	ws_node_send(n, p, buf, len);
}

/* Messages for stream packets [from, k): with GSO, runs of whole packets of seg bytes
 * (the last packet of a stream may be shorter and ends its run); else one per packet. */
static unsigned stream_msgs(ws_node *n, const ws_node_peer *p, unsigned from, unsigned k,
			    size_t seg)
{
	unsigned per = 1, nm = 0;
	if (n->gso) {
		per = (unsigned)(NODE_GSO_MAX_BYTES / seg);
		per = per > NODE_GSO_MAX_SEGS ? NODE_GSO_MAX_SEGS : per < 1 ? 1 : per;
	}
	for (unsigned i = from; i < k; nm++) {
		unsigned cnt = k - i < per ? k - i : per;
		struct msghdr *h = &n->smsg[nm].msg_hdr;
		*h = (struct msghdr){.msg_name = (void *)&p->addr,
				     .msg_namelen = sizeof p->addr,
				     .msg_iov = &n->siov[n->piov[i]],
				     .msg_iovlen = n->piov[i + cnt] - n->piov[i]};
		if (cnt > 1) {
			ws_udp_gso_cmsg(h, n->sctl[nm], (uint16_t)seg);
		}
		n->smsg_pkts[nm] = cnt;
		i += cnt;
	}
	return nm;
}

/* Sends stream packets [0, k) completely, waiting for room when the socket is full. A path
 * that refuses GSO (no checksum offload: EIO; a segment above the MTU: EMSGSIZE) turns GSO
 * off for good and the rest goes one packet per message, which the kernel may fragment. */
static int send_packets(ws_node *n, const ws_node_peer *p, unsigned k, size_t seg)
{
	unsigned from = 0;
	while (from < k) {
		unsigned nm = stream_msgs(n, p, from, k, seg), done = 0;
		while (done < nm) {
			if (ws_node_stopping(n))
				return -1;
			int r = sendmmsg(p->fd, n->smsg + done, nm - done, 0);
			if (r > 0) {
				for (int i = 0; i < r; i++)
					from += n->smsg_pkts[done + (unsigned)i];
				done += (unsigned)r;
				continue;
			}
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 &&
			    (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) {
				ws_node_wait_writable(n, p->fd, errno == ENOBUFS);
				continue;
			}
			if (r < 0 && n->gso &&
			    (errno == EINVAL || errno == EIO || errno == EMSGSIZE ||
			     errno == ENOPROTOOPT || errno == EOPNOTSUPP)) {
				n->gso = 0;
				n->info.gso = 0;
				ws_node_log(n, WS_NODE_LOG_INFO,
					    "UDP GSO refused (%s): Read IQ continues one "
					    "packet per message",
					    strerror(errno));
				break;
			}
			WS_NODE_BUMP(n, send_errors, 1);
			ws_node_log(n, WS_NODE_LOG_WARN, "Read IQ stream abandoned: sendmmsg: %s",
				    r < 0 ? strerror(errno) : "sent nothing");
			return -1;
		}
	}
	return 0;
}

/* Packet k's header for cnt samples from pos. */
static void packet_header(ws_node *n, const ws_node_stream *s, unsigned k, uint32_t cnt)
{
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)cnt;
	ws_wire_transport t = ws_node_reply_transport(n, &s->req, len, 0);
	ws_wire_cmd c = {.cmd = s->req.cmd.cmd,
			 .length = (uint16_t)(WS_WIRE_SAMPLE_HDR_LEN + 4 * cnt),
			 .num_args = 1};
	ws_wire_sample_hdr sh = {.buffer = (uint16_t)(1u << s->rf),
				 .iq_id = (uint8_t)n->captures[s->rf],
				 .start = (uint32_t)s->pos,
				 .count = cnt};
	uint8_t *h = n->shdr[k];
	h[0] = h[1] = 0;
	ws_wire_put_transport(h + WS_WIRE_OFF_TRANSPORT, WS_WIRE_TRANSPORT_LEN, &t);
	ws_wire_put_cmd(h + WS_WIRE_OFF_CMD, WS_WIRE_CMD_LEN, &c);
	ws_wire_put_sample_hdr(h + WS_WIRE_OFF_ARGS, WS_WIRE_SAMPLE_HDR_LEN, &sh);
}

/* The next buffer of s's mask from rf on, or the end of the stream (returns 0). */
static int next_buffer(ws_node *n, ws_node_stream *s, int rf)
{
	for (; rf < n->cfg.rf; rf++) {
		if (s->mask >> rf & 1) {
			s->rf = rf;
			s->pos = s->start;
			s->end = (uint64_t)s->start + s->count;
			return 1;
		}
	}
	return 0;
}

static void stream_end(ws_node *n, ws_node_stream *s)
{
	if (s->bucket)
		s->bucket->pinned = 0;
	s->active = 0;
	n->n_streams--;
}

int ws_node_stream_busy(const ws_node *n, uint32_t addr)
{
	for (unsigned i = 0; n->n_streams && i < WS_NODE_STREAMS; i++)
		if (n->streams[i].active && ws_node_peer_addr(&n->streams[i].peer) == addr)
			return 1;
	return 0;
}

void ws_node_stream_start(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, unsigned mask,
			  uint32_t start, uint32_t count, uint32_t spp)
{
	int64_t now = ws_clock_ns();
	ws_node_bucket *b = NULL;
	if (n->rate.rate_bps && !n->uncapped) {
		b = ws_node_rate_get(&n->rate, ws_node_peer_addr(p), now);
		if (!b) {
			WS_NODE_BUMP(n, rate_drops, 1);
			return;
		}
	}
	ws_node_stream *s = NULL, *fat = NULL;
	for (unsigned i = 0; i < WS_NODE_STREAMS && !s; i++) {
		ws_node_stream *t = &n->streams[i];
		if (!t->active)
			s = t;
		else if (!fat || t->sent > fat->sent)
			fat = t;
	}
	if (!s) {
		/* Every slot streams to another source: the stream that has sent the most
		 * yields, so that a new source is never locked out by a few old ones; its
		 * host sees the rest as lost and asks again. */
		WS_NODE_BUMP(n, preempted, 1);
		stream_end(n, fat);
		n->orphans = 1;
		s = fat;
	}
	if (b)
		b->pinned = 1;
	*s = (ws_node_stream){.active = 1,
			      .peer = *p,
			      .req = *m,
			      .mask = mask,
			      .start = start,
			      .count = count,
			      .spp = spp,
			      .bucket = b,
			      .next_ns = now,
			      .capped = !n->uncapped};
	s->req.args = NULL;
	s->req.args_len = 0;
	next_buffer(n, s, 0);
	n->n_streams++;
}

/* One sendmmsg batch of s, at most limit bytes (the last packet may pass it). Returns the
 * bytes sent, 0 with *unmapped set when the first packet's samples could not be mapped, or
 * -1 when the socket failed for good. */
static int64_t send_batch(ws_node *n, ws_node_stream *s, uint64_t limit, int *unmapped)
{
	unsigned batch = n->cfg.pace_us ? 1 : WS_NODE_BATCH, k = 0, iv = 0;
	uint64_t bytes = 0;
	size_t seg = WS_WIRE_SAMPLE_PKT_HDR + (size_t)s->spp * 4;
	int failed = 0, rssi = s->req.cmd.cmd == WS_WIRE_CMD_READ_RSSI;
	while (k < batch && s->pos < s->end && bytes < limit) {
		uint32_t cnt = (uint32_t)(s->end - s->pos < s->spp ? s->end - s->pos : s->spp);
		unsigned iv0 = iv;
		n->piov[k] = iv;
		n->siov[iv++] =
			(struct iovec){.iov_base = n->shdr[k], .iov_len = WS_WIRE_SAMPLE_PKT_HDR};
		/* spp < one chunk, so a packet spans at most two chunks. */
		for (uint32_t got = 0; got < cnt;) {
			const uint8_t *src;
			uint32_t at = (uint32_t)s->pos + got;
			uint32_t span = rssi
				? ws_node_mem_rssi_span(&n->mem, s->rf, at, cnt - got, &src)
				: ws_node_mem_rx_span(&n->mem, s->rf, at, cnt - got, &src);
			if (!span) {
				failed = 1;
				break;
			}
			n->siov[iv++] = (struct iovec){.iov_base = (void *)src,
						       .iov_len = (size_t)span * 4};
			got += span;
		}
		if (failed) {
			iv = iv0;
			break;
		}
		packet_header(n, s, k, cnt);
		bytes += WS_WIRE_SAMPLE_PKT_HDR + (uint64_t)cnt * 4;
		s->pos += cnt;
		k++;
	}
	n->piov[k] = iv;
	if (k && s->peer.fd >= 0 && send_packets(n, &s->peer, k, seg) < 0)
		return -1;
	ws_node_rate_charge(s->bucket, bytes);
	if (s->capped)
		ws_node_rate_spent(&n->rate, bytes);
	s->sent += bytes;
	WS_NODE_BUMP(n, tx_packets, k);
	WS_NODE_BUMP(n, tx_bytes, bytes);
	WS_NODE_BUMP(n, read_packets, k);
	*unmapped = failed && k == 0;
	return (int64_t)bytes;
}

int64_t ws_node_stream_step(ws_node *n, ws_node_stream *s, int64_t now)
{
	if (ws_node_stopping(n)) {
		stream_end(n, s);
		return -1;
	}
	if (n->cfg.pace_us && s->next_ns > now)
		return s->next_ns - now;
	/* A turn is one quantum of bytes whatever the packet size, so sources are served
	 * byte for byte alike; paced, it is one packet. */
	uint64_t limit = n->cfg.pace_us ? 1 : WS_NODE_QUANTUM;
	if (s->capped) {
		uint64_t allow = ws_node_rate_allowance(&n->rate, s->bucket, now);
		if (!allow) {
			WS_NODE_BUMP(n, rate_waits, 1);
			return ws_node_rate_wait(&n->rate, s->bucket, now);
		}
		if (allow < limit)
			limit = allow;
	}
	for (uint64_t done = 0; done < limit && s->pos < s->end;) {
		int unmapped = 0;
		int64_t b = send_batch(n, s, limit - done, &unmapped);
		if (b < 0) {
			stream_end(n, s);
			return -1;
		}
		if (unmapped) {
			/* The test signal could not be mapped: this buffer is refused, the rest
			 * served. */
			ws_node_mem_failed(n);
			ws_node_read_refuse(n, &s->peer, &s->req, (uint16_t)(1u << s->rf),
					    (uint32_t)s->pos, 0);
			s->pos = s->end;
			break;
		}
		if (s->pos >= s->end)
			WS_NODE_BUMP(n, read_samples, s->count);
		if (b == 0 || n->cfg.pace_us)
			break;
		done += (uint64_t)b;
	}
	if (s->pos >= s->end && !next_buffer(n, s, s->rf + 1)) {
		stream_end(n, s);
		return -1;
	}
	if (n->cfg.pace_us) {
		s->next_ns += (int64_t)n->cfg.pace_us * WS_NS_PER_US;
		return s->next_ns > now ? s->next_ns - now : 0;
	}
	return 0;
}
