/* SPDX-License-Identifier: BSD-2-Clause */
/* node_state: the reply primitives shared by the node emulator's parts; see node_state.h.
 *
 * Every datagram the node sends other than Read IQ sample packets leaves through
 * ws_node_send, which is where the per-source rate cap meets small answers: they are
 * never delayed (an answer to a PING must not wait behind a stream's pacing), but a
 * source deep in debt gets none, so a flood of small requests cannot be reflected either. */
#include "iq/node/node_state.h"

#include "util/clock.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>

void ws_node_log(ws_node *n, int level, const char *fmt, ...)
{
	if (!n->cfg.log)
		return;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (ws_node_loglimit_admit(&n->loglimit, fmt, level, msg, ws_clock_ns(), n->cfg.log,
				   n->cfg.log_ctx))
		n->cfg.log(n->cfg.log_ctx, level, msg);
}

void ws_node_mem_failed(ws_node *n)
{
	int budget = n->mem.refused > n->ctr.mem_refused;
	__atomic_store_n(&n->ctr.alloc_failures, n->mem.alloc_failures, __ATOMIC_RELAXED);
	__atomic_store_n(&n->ctr.mem_refused, n->mem.refused, __ATOMIC_RELAXED);
	if (budget)
		ws_node_log(n, WS_NODE_LOG_WARN,
			    "sample memory full (--max-memory %llu bytes): a %zu-byte chunk "
			    "refused, its Write IQ answered IQ_ERROR",
			    (unsigned long long)n->info.max_memory, WS_NODE_CHUNK_BYTES);
	else
		ws_node_log(n, WS_NODE_LOG_WARN, "cannot map a %zu-byte chunk of sample memory",
			    WS_NODE_CHUNK_BYTES);
}

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

ws_wire_transport ws_node_reply_transport(const ws_node *n, const ws_wire_msg *m, size_t len,
					  uint16_t flags)
{
	ws_wire_transport t = {.dest_id = m->tr.src_id,
			       .src_id = n->cfg.id,
			       .pkt_type = WS_WIRE_PKT_NODE_TO_HOST,
			       .length = ws_wire_node_length(len),
			       .seq = m->tr.seq,
			       .flags = flags};
	return t;
}

void ws_node_send(ws_node *n, const ws_node_peer *p, const uint8_t *buf, size_t len)
{
	ws_node_bucket *b = NULL;
	if (n->rate.rate_bps && !n->uncapped) {
		int64_t now = ws_clock_ns();
		b = ws_node_rate_get(&n->rate, ws_node_peer_addr(p), now);
		if (!b || !ws_node_rate_small_ok(&n->rate, b, now)) {
			WS_NODE_BUMP(n, rate_drops, 1);
			return;
		}
	}
	ws_node_rate_charge(b, len);
	if (!n->uncapped)
		ws_node_rate_spent(&n->rate, len);
	WS_NODE_BUMP(n, tx_packets, 1);
	WS_NODE_BUMP(n, tx_bytes, len);
	if (p->fd < 0)
		return;
	for (int tries = 0; tries < 50 && !ws_node_stopping(n); tries++) {
		if (sendto(p->fd, buf, len, 0, (const struct sockaddr *)&p->addr, sizeof p->addr) >=
		    0)
			return;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS)
			break;
		ws_node_wait_writable(n, p->fd, errno == ENOBUFS);
	}
	WS_NODE_BUMP(n, send_errors, 1);
}
