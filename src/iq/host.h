/* host: internal helpers of the IQ host transport (the public API is include/warpspeed/iq.h).
 *
 * A handle is shared by three files: host.c owns it (socket, commands, open/close, triggers,
 * the public entry points and their lock), iqread.c runs Read IQ and iqwrite.c Write IQ on
 * it. This header is what they share: the handle's fields, the send/receive helpers over
 * its batch slots, and the argument and error conventions. The sample conversions and
 * WARPLab's NOT_READY wait are also used by the file module, the benchmark and the unit
 * tests, which check them against exact values; nothing here is part of the installed
 * interface. */
#ifndef WS_IQ_HOST_H
#define WS_IQ_HOST_H

#include <warpspeed/iq.h>

#include "iq/wire.h"
#include "util/err.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define WS_IQ_HOST_BATCH 64 /* datagrams per sendmmsg / recvmmsg, and Write IQ chunk size */

struct ws_iq_node {
	pthread_mutex_t lock;
	int fd;
	struct sockaddr_in peer;
	ws_iq_config cfg;
	char name[40];             /* "a.b.c.d:port" for messages */
	ws_iq_info info;
	ws_iq_stats st;
	uint16_t seq;
	uint8_t write_id;
	int acked_left;            /* AUTO: writes still to do acknowledged */
	int sticky;                /* AUTO: acknowledged writes after the next fallback */
	uint32_t op;               /* call counter, owner tag of seq_op */
	size_t slot;               /* receive slot bytes */
	uint8_t *rx;               /* WS_IQ_HOST_BATCH receive slots */
	uint8_t *stage;            /* WS_IQ_HOST_BATCH converted sample payloads for Write IQ */
	uint32_t *seq_pkt, *seq_op; /* acknowledged writes: seq -> packet of call op */
	struct mmsghdr mm[WS_IQ_HOST_BATCH];
	struct iovec iov[WS_IQ_HOST_BATCH][2];
	uint8_t hdr[WS_IQ_HOST_BATCH][WS_WIRE_SAMPLE_PKT_HDR];
};

/* The next transport seq of the handle (wraps at 65536). */
static inline uint16_t ws_iq_host_next_seq(ws_iq_node *n)
{
	return ++n->seq;
}

/* The transport header of a host->node packet of len bytes after the pad. */
static inline ws_wire_transport ws_iq_host_tr(const ws_iq_node *n, uint16_t seq,
					      uint16_t flags, size_t len)
{
	return (ws_wire_transport){.dest_id = n->cfg.node_id, .src_id = n->cfg.host_id,
				   .pkt_type = WS_WIRE_PKT_HOST_TO_NODE,
				   .length = ws_wire_host_length(len), .seq = seq, .flags = flags};
}

/* "RF_A" .. "RF_D" for one buffer bit, "RF_?" for anything else. */
const char *ws_iq_host_rf_name(unsigned bit);

/* Sends one datagram, waiting (bounded) for room when the socket is full. 0 or an error
 * naming the node (ECONNREFUSED: nothing listens there). */
int ws_iq_host_send_one(ws_iq_node *n, const uint8_t *b, size_t len, ws_err *err);

/* Sends the prepared messages n->mm[0..k) completely, waiting (bounded) for room. */
int ws_iq_host_send_batch(ws_iq_node *n, unsigned k, ws_err *err);

/* Waits up to wait_ns for datagrams and receives a batch into the slots n->rx (slot i at
 * i * n->slot, length in n->mm[i].msg_len). Returns the number received (0 on timeout) or
 * a negative code. */
int ws_iq_host_recv_batch(ws_iq_node *n, int64_t wait_ns, ws_err *err);

/* Drops whatever an earlier call left in the socket, counted as stale. 0 or an error. */
int ws_iq_host_drain_stale(ws_iq_node *n, ws_err *err);

/* The common checks of received slot i: a whole node->host datagram from our node to our
 * host ID. Returns 0 with m filled (pointing into the slot), or -1 after counting why it is
 * ignored (malformed, wrong_node). */
int ws_iq_host_reply(ws_iq_node *n, unsigned i, ws_wire_msg *m);

/* Sends a ROBUST PING with a fresh seq (stored in *seq) and does not wait: its answer comes
 * back behind everything the node was asked before it. */
int ws_iq_host_send_ping(ws_iq_node *n, uint16_t *seq, ws_err *err);

/* WARPLab's wait after NOT_READY, in ns: (remaining bytes / 160) us + 100 us, remaining
 * bytes = 4 * the larger of (TX length - TX pointer) and (RX length - RX pointer) from the
 * six status words w[0..5] (fewer than six words: just the 100 us). */
int64_t ws_iq_host_not_ready_wait_ns(const uint32_t *w, size_t nw);

/* cnt samples of caller memory src (format fmt) starting at sample idx, as big-endian wire
 * words at out (4 * cnt bytes); CF32 rounds to nearest and saturates, NaN gives 0. */
void ws_iq_host_to_wire(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			uint32_t cnt);

/* cnt wire words at src into caller memory dst (format fmt) at sample idx. */
void ws_iq_host_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
			  uint32_t cnt);

#endif
