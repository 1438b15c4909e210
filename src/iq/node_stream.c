/* node_stream: Read IQ streaming of the node emulator.
 *
 * Read IQ is the emulator's fast path and the reason it is never the bottleneck: each
 * packet is a 34-byte header plus an iovec straight into the RX buffer (the samples are
 * stored as wire words, so nothing is converted or copied), packets leave in sendmmsg
 * batches, and where the path allows, runs of equal-size packets go as one UDP GSO message
 * that the kernel segments. A full socket makes the node wait for POLLOUT rather than drop,
 * so the host's receive buffer is the only place packets are lost; a path that refuses GSO
 * turns it off for good and the stream carries on one packet per message. Pacing (one
 * packet per gap) models a board behind a slow link. */
#include "iq/node_stream.h"

#include "util/clock.h"

#include <errno.h>
#include <netinet/udp.h>
#include <string.h>

#define NODE_GSO_MAX_SEGS 64     /* UDP_MAX_SEGMENTS of older kernels */
#define NODE_GSO_MAX_BYTES 65000 /* one GSO send is one IP datagram before segmentation */

/* Fallbacks for C libraries older than the kernel feature (the PowerPC cross build). */
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef SOL_UDP
#define SOL_UDP 17
#endif

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
		*h = (struct msghdr){.msg_name = (void *)&p->addr, .msg_namelen = sizeof p->addr,
				     .msg_iov = &n->siov[2 * i], .msg_iovlen = 2 * cnt};
		if (cnt > 1) {
			h->msg_control = n->sctl[nm];
			h->msg_controllen = CMSG_SPACE(sizeof(uint16_t));
			struct cmsghdr *c = CMSG_FIRSTHDR(h);
			c->cmsg_level = SOL_UDP;
			c->cmsg_type = UDP_SEGMENT;
			c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
			uint16_t gs = (uint16_t)seg;
			memcpy(CMSG_DATA(c), &gs, sizeof gs);
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
			if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) {
				ws_node_wait_writable(n, p->fd, errno == ENOBUFS);
				continue;
			}
			if (r < 0 && n->gso && (errno == EINVAL || errno == EIO || errno == EMSGSIZE ||
						errno == ENOPROTOOPT || errno == EOPNOTSUPP)) {
				n->gso = 0;
				n->info.gso = 0;
				ws_node_log(n, WS_NODE_LOG_INFO,
					    "UDP GSO refused (%s): Read IQ continues one "
					    "packet per message", strerror(errno));
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

/* Headers of the stream's packets, with the fields that vary filled in by stream_range. */
static void stream_prepare(ws_node *n, const ws_wire_msg *m, int rf)
{
	ws_wire_transport t = ws_node_reply_transport(n, m, 0, 0);
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_READ_IQ, .num_args = 1};
	ws_wire_sample_hdr s = {.buffer = (uint16_t)(1u << rf),
				.iq_id = (uint8_t)n->rx[rf].captures};
	for (unsigned k = 0; k < WS_NODE_BATCH; k++) {
		uint8_t *h = n->shdr[k];
		h[0] = h[1] = 0;
		ws_wire_put_transport(h + WS_WIRE_OFF_TRANSPORT, WS_WIRE_TRANSPORT_LEN, &t);
		ws_wire_put_cmd(h + WS_WIRE_OFF_CMD, WS_WIRE_CMD_LEN, &c);
		ws_wire_put_sample_hdr(h + WS_WIRE_OFF_ARGS, WS_WIRE_SAMPLE_HDR_LEN, &s);
		n->siov[2 * k] = (struct iovec){.iov_base = h, .iov_len = WS_WIRE_SAMPLE_PKT_HDR};
	}
}

void ws_node_stream_range(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, int rf,
			  uint32_t start, uint32_t count, uint32_t spp)
{
	const uint8_t *base = n->rx[rf].mem;
	uint64_t pos = start, end = (uint64_t)start + count;
	unsigned batch = n->cfg.pace_us ? 1 : WS_NODE_BATCH;
	int64_t next = ws_clock_ns();
	size_t seg = WS_WIRE_SAMPLE_PKT_HDR + (size_t)spp * 4;
	stream_prepare(n, m, rf);
	while (pos < end) {
		unsigned k;
		uint64_t bytes = 0;
		uint64_t bend = pos + (uint64_t)batch * spp < end ? pos + (uint64_t)batch * spp : end;
		/* Fill untouched chunks just ahead of the stream, so the first packet leaves at
		 * once even when a large range of a fresh buffer is read. */
		ws_node_rx_prepare(n, rf, (uint32_t)pos, (uint32_t)(bend - pos), 0);
		for (k = 0; k < batch && pos < end; k++) {
			uint32_t cnt = (uint32_t)(end - pos < spp ? end - pos : spp);
			uint8_t *h = n->shdr[k];
			ws_put_be16(h + 8, ws_wire_node_length(WS_WIRE_SAMPLE_PKT_HDR + 4 * cnt));
			ws_put_be16(h + WS_WIRE_OFF_CMD + 4,
					(uint16_t)(WS_WIRE_SAMPLE_HDR_LEN + 4 * cnt));
			ws_put_be32(h + WS_WIRE_OFF_ARGS + 4, (uint32_t)pos);
			ws_put_be32(h + WS_WIRE_OFF_ARGS + 8, cnt);
			n->siov[2 * k + 1] = (struct iovec){.iov_base = (void *)(base + pos * 4),
							    .iov_len = (size_t)cnt * 4};
			bytes += WS_WIRE_SAMPLE_PKT_HDR + (uint64_t)cnt * 4;
			pos += cnt;
		}
		if (p->fd >= 0 && send_packets(n, p, k, seg) < 0)
			return;
		WS_NODE_BUMP(n, tx_packets, k);
		WS_NODE_BUMP(n, tx_bytes, bytes);
		WS_NODE_BUMP(n, read_packets, k);
		if (n->cfg.pace_us) {
			next += (int64_t)n->cfg.pace_us * WS_NS_PER_US;
			ws_clock_spin_until(next);
		}
	}
	WS_NODE_BUMP(n, read_samples, count);
}