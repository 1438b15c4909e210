/* SPDX-License-Identifier: BSD-2-Clause */
/* iqwpkt: the packets of a Write IQ pass, shared by the fast engine (iqwrite.c) and the
 * acknowledged one (iqack.c): each packet built into a send slot of the handle (raw words
 * gathered from the caller's buffer, other formats converted into the stage), and the
 * slots sent in one sendmmsg, at the handle's write rate or one by one on WARPLab's
 * pacing clock. */
#include "iq/host/iqwpkt.h"

#include "iq/wire/iqconv.h"
#include "util/clock.h"

#define IQ_SPIN_NS (200 * WS_NS_PER_US) /* pacing gaps below this are busy-waited */

uint32_t ws_iqw_samples(const ws_iqw_op *o, uint32_t p)
{
	uint64_t s = (uint64_t)p * o->spp;
	return o->count - s < o->spp ? (uint32_t)(o->count - s) : o->spp;
}

/* Where converted packet k starts in the stage: converted packets lie end to end, header
 * and samples each, so that a packet is one iovec and a GSO run of them one iovec too (the
 * kernel copies one contiguous run instead of two pieces per packet, which took sendmmsg
 * less time a write: docs/benchmarks.md). The first packet's samples start on a cache
 * line. */
#define IQ_STAGE_OFF (64 - WS_WIRE_SAMPLE_PKT_HDR % 64)

/* Prepares packet p in slot k: raw words as header + sample iovecs (the samples straight
 * from the caller's buffer), a converted format as one iovec in the stage. Returns the
 * packet's last sample word. */
uint32_t ws_iqw_build(ws_iq_node *n, const ws_iqw_op *o, uint32_t p, unsigned k, uint16_t seq,
		      int robust, int reset)
{
	uint32_t cnt = ws_iqw_samples(o, p);
	uint64_t idx = (uint64_t)p * o->spp;
	size_t len = WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)cnt;
	ws_wire_transport t = ws_iq_host_tr(n, seq, robust ? WS_WIRE_FLAG_ROBUST : 0, len);
	ws_wire_cmd c = {
		.cmd = WS_WIRE_CMD_WRITE_IQ, .length = (uint16_t)(12 + 4 * cnt), .num_args = 1};
	ws_wire_sample_hdr sh = {
		.buffer = o->mask,
		.iq_id = o->iq_id,
		.start = (uint32_t)(o->start + idx),
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
		ws_iqconv_to_wire_ahead(h + WS_WIRE_SAMPLE_PKT_HDR, o->fmt, o->src, idx, cnt,
					o->count);
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
	*next = (*next > now ? *next : now) +
		(int64_t)(bits * WS_NS_PER_SEC / n->cfg.write_rate_bps);
	return r;
}

/* Sends slots [0, k): one sendmmsg, or one packet at a time on the pacing clock. */
int ws_iqw_send(ws_iq_node *n, unsigned k, int64_t *next, ws_err *err)
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

int ws_iqw_ack_words(ws_iq_node *n, const ws_iqw_op *o, const ws_wire_msg *m, uint32_t *w,
		     int64_t pkt, ws_err *err)
{
	size_t nw = ws_wire_get_words(m->args, m->args_len, w, 3 + WS_WIRE_NOT_READY_WORDS);
	if (nw < 3 || w[1] != o->iq_id) {
		n->st.malformed++;
		return 0;
	}
	if (w[0] == WS_WIRE_WRITE_IQ_ERROR && pkt < 0)
		return ws_err_set(err, WS_E_REMOTE, "Write IQ to %s: the node answered IQ_ERROR",
				  n->name);
	if (w[0] == WS_WIRE_WRITE_IQ_ERROR)
		return ws_err_set(err, WS_E_REMOTE,
				  "Write IQ to %s: the node answered IQ_ERROR "
				  "for packet %lld",
				  n->name, (long long)pkt);
	return (int)nw;
}
