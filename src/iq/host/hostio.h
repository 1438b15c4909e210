/* SPDX-License-Identifier: BSD-2-Clause */
/* hostio: the IQ host handle and its link to the node (the public API is include/warpspeed/iq.h).
 *
 * Every part of the host transport (commands in hostcmd.c, triggers in iqtrigger.c, Read IQ
 * in iqread.c, Write IQ in iqwrite.c, the entry points in host.c) works on one handle and
 * its one connected UDP socket. This module is what they all stand on: the handle's
 * fields, the socket, the send/receive helpers over its batch slots, and the common check
 * of a received datagram (a pure function of the datagram and the handle's IDs, so the
 * fuzzer can feed it). Nothing here is part of the installed interface. */
#ifndef WS_IQ_HOSTIO_H
#define WS_IQ_HOSTIO_H

#include <warpspeed/iq.h>

#include "iq/host/iqcc.h"
#include "iq/wire/wire.h"
#include "util/err.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define WS_IQ_HOST_BATCH 64 /* datagrams per sendmmsg / recvmmsg, and Write IQ chunk size */
#define WS_IQ_DEFAULT_WINDOW \
	(2u << 20)                 /* Read IQ bytes in flight at most, before a rate is known */
#define WS_IQ_ACK_WINDOW     512u  /* acknowledged Write IQ packets, likewise */
#define WS_IQ_ACK_WINDOW_MAX 8192u /* acknowledged Write IQ packets in flight at most */
#define WS_IQ_SNDBUF_MAX     (64u << 20) /* the most the stall budget grows SO_SNDBUF to */
#define WS_IQ_WIN_START      8u          /* packets: where a handle's windows start */
#define WS_IQ_WIN_MIN        4u          /* packets: the least a window shrinks to */

#define WS_IQ_BUDGET_DEFAULT_MS 2000 /* cfg.budget_ms when 0 */
/* The most a NOT_READY pause can be: the air time of WARP v3's largest buffer (2^27
 * samples, 3.36 s at 40 MS/s), whatever size a node claims in NODE_INFO. */
#define WS_IQ_NOT_READY_MAX_SAMPLES (1u << 27)

/* Whether the node answers the trigger counter query (WS_IQ_CMD_TRIGGER_COUNTER). */
enum { WS_IQ_TRIGQ_UNKNOWN = 0, WS_IQ_TRIGQ_YES = 1, WS_IQ_TRIGQ_NO = 2 };

struct ws_iq_node {
	pthread_mutex_t lock;
	int fd;
	struct sockaddr_in peer;
	ws_iq_config cfg;
	char name[40]; /* "a.b.c.d:port" for messages */
	ws_iq_info info;
	ws_iq_stats st;
	uint16_t seq;
	uint8_t write_id;
	int acked_left;    /* AUTO: writes still to do acknowledged */
	int sticky;        /* AUTO: acknowledged writes after the next fallback */
	ws_iqcc rcc, wcc;  /* Read IQ and acknowledged Write IQ windows, kept across calls */
	int64_t rtt_ns;    /* PING round trip at open (0 = not measured) */
	uint64_t rate_Bps; /* payload bytes per second of the last read or write (0 = none) */
	uint32_t ack_hi;   /* acknowledged Write IQ packets in flight at most, now */
	int trig_query;    /* WS_IQ_TRIGQ_*: learned on the first trigger */
	int offline;       /* no socket: sends succeed without sending, receives
				      and pauses return at once (the fuzzers' handle) */
	uint32_t op;       /* call counter, owner tag of seq_op */
	uint32_t read_cmd; /* Read IQ command: 0 = READ_IQ; the MEX's READ_RSSI */
	int last_iq_id;    /* iq_id of the last Read IQ packet placed, -1 = none */
	int64_t rate_next; /* write_rate_bps: when the node's link has sent all so far */
	size_t slot;       /* receive slot bytes */
	uint8_t *rx;       /* WS_IQ_HOST_BATCH receive slots */
	uint8_t *stage;    /* WS_IQ_HOST_BATCH converted Write IQ packets, end to end */
	uint32_t *seq_pkt, *seq_op; /* acknowledged writes: seq -> packet of call op */
	struct mmsghdr mm[WS_IQ_HOST_BATCH];
	struct iovec iov[WS_IQ_HOST_BATCH][2];
	int gso_off; /* the path refused a UDP GSO send: one packet per message */
	struct mmsghdr gmm[WS_IQ_HOST_BATCH];    /* GSO messages of a send batch */
	struct iovec giov[2 * WS_IQ_HOST_BATCH]; /* their iovecs (adjacent ones merged) */
	unsigned gpk[WS_IQ_HOST_BATCH];          /* packets in each */
	uint64_t gctl[WS_IQ_HOST_BATCH][4];      /* their UDP_SEGMENT control messages (32 B) */
	uint8_t hdr[WS_IQ_HOST_BATCH][WS_WIRE_SAMPLE_PKT_HDR];
};

/* The next transport seq of the handle (wraps at 65536). */
static inline uint16_t ws_iq_host_next_seq(ws_iq_node *n) { return ++n->seq; }

/* The transport header of a host->node packet of len bytes after the pad. */
static inline ws_wire_transport ws_iq_host_tr(const ws_iq_node *n, uint16_t seq, uint16_t flags,
					      size_t len)
{
	return (ws_wire_transport){.dest_id = n->cfg.node_id,
				   .src_id = n->cfg.host_id,
				   .pkt_type = WS_WIRE_PKT_HOST_TO_NODE,
				   .length = ws_wire_host_length(len),
				   .seq = seq,
				   .flags = flags};
}

/* The windows' upper bounds from the rate the handle last measured x (its RTT + the stall
 * budget, cfg.stall_budget_ms): so much is in flight that the link keeps draining while
 * the host's thread is off the CPU for the budget. A read's window is at least
 * WS_IQ_DEFAULT_WINDOW and never more than half of the SO_RCVBUF granted holds (the
 * memory it costs; cfg.window, when set, is the bound instead); an acknowledged write's
 * is WS_IQ_ACK_WINDOW .. WS_IQ_ACK_WINDOW_MAX packets; SO_SNDBUF grows to the same bytes
 * (cfg.sndbuf .. WS_IQ_SNDBUF_MAX), so that a fast write keeps the link busy too. Sets
 * info.window, info.sndbuf, n->ack_hi and the windows' bounds. */
void ws_iq_host_bounds(ws_iq_node *n);

/* A transfer of bytes of payload took ns: the rate the next bounds are taken from
 * (transfers shorter than 1 ms say more about latency than rate, and are not kept). */
void ws_iq_host_note_rate(ws_iq_node *n, uint64_t bytes, int64_t ns);

/* "RF_A" .. "RF_D" for one buffer bit, "RF_?" for anything else. */
const char *ws_iq_host_rf_name(unsigned bit);

/* Allocates the handle's slots and seq tables for datagrams up to cfg.max_payload. */
int ws_iq_host_alloc(ws_iq_node *n, ws_err *err);

/* Frees what ws_iq_host_alloc and ws_iq_host_open_socket made (not the handle itself). */
void ws_iq_host_release(ws_iq_node *n);

/* Creates the non-blocking socket, asks for cfg's buffer sizes (recording what was
 * granted in n->info) and connects it to n->peer. */
int ws_iq_host_open_socket(ws_iq_node *n, ws_err *err);

/* Sends one datagram, waiting (bounded) for room when the socket is full. 0 or an error
 * naming the node (ECONNREFUSED: nothing listens there). */
int ws_iq_host_send_one(ws_iq_node *n, const uint8_t *b, size_t len, ws_err *err);

/* Sends the prepared messages n->mm[0..k) completely, waiting (bounded) for room. */
int ws_iq_host_send_batch(ws_iq_node *n, unsigned k, ws_err *err);

/* Waits up to wait_ns for datagrams and receives a batch into the slots n->rx (slot i at
 * i * n->slot, length in n->mm[i].msg_len). Returns the number received (0 on timeout) or
 * a negative code. */
int ws_iq_host_recv_batch(ws_iq_node *n, int64_t wait_ns, ws_err *err);

/* ws_iq_host_recv_batch waiting at most until deadline (ws_clock_ns): 0 at once, without
 * receiving, once it has passed, so that a node that never stops sending cannot keep a
 * wait loop going past its deadline. */
int ws_iq_host_recv_until(ws_iq_node *n, int64_t deadline, ws_err *err);

/* budget_ms in ns (WS_IQ_BUDGET_DEFAULT_MS when 0): the most time a command takes, and the
 * most a transfer goes without progress (a new sample packet placed, a new acknowledgement);
 * what a hostile or broken node sends besides (junk, duplicates) never extends it. */
int64_t ws_iq_host_budget_ns(const ws_iq_node *n);

/* Datagrams that were no answer of the current call (malformed, wrong node, wrong seq,
 * stale) and duplicate sample packets, counted since the snapshot from: for the error of
 * a transfer that ran out of budget, "1200 junk datagrams (malformed 1200, wrong node 0,
 * wrong seq 0, stale 0) and 0 duplicates". */
void ws_iq_host_junk_note(const ws_iq_node *n, const ws_iq_stats *from, char *buf, size_t cap);

/* Appends "; meanwhile <ws_iq_host_junk_note>" to a transfer's error, when anything but
 * answers came since from (a run of junk explains a timeout). */
void ws_iq_host_junk_append(const ws_iq_node *n, const ws_iq_stats *from, ws_err *err);

/* Drops whatever an earlier call left in the socket, counted as stale. 0 or an error. */
int ws_iq_host_drain_stale(ws_iq_node *n, ws_err *err);

/* The common checks of one received datagram b[0..len) (trunc: the kernel cut it): a
 * whole node->host message from our node ID to our host ID. Returns 0 with m filled
 * (pointing into b), or -1 after counting why it is ignored (malformed, wrong_node). */
int ws_iq_host_check(ws_iq_node *n, const uint8_t *b, size_t len, int trunc, ws_wire_msg *m);

/* ws_iq_host_check of received slot i. */
int ws_iq_host_reply(ws_iq_node *n, unsigned i, ws_wire_msg *m);

/* Sends a ROBUST PING with a fresh seq (stored in *seq) and does not wait: its answer comes
 * back behind everything the node was asked before it. */
int ws_iq_host_send_ping(ws_iq_node *n, uint16_t *seq, ws_err *err);

/* The pause after a NOT_READY answer with status words w[0..nw): WARPLab's wait, but never
 * longer than the node's larger buffer takes to play out (the words come from the
 * network); slept unless offline. */
void ws_iq_host_not_ready_pause(ws_iq_node *n, const uint32_t *w, size_t nw);

/* ws_iq_host_not_ready_wait_ns within what the node's buffers (n->info) can need. */
int64_t ws_iq_host_not_ready_cap_ns(const ws_iq_node *n, const uint32_t *w, size_t nw);

/* WARPLab's wait after NOT_READY, in ns: (remaining bytes / 160) us + 100 us, remaining
 * bytes = the larger of (TX length - TX pointer) and (RX length - RX pointer) from the six
 * status words w[0..5], which the firmware reports in bytes (fewer than six words: just the
 * 100 us). */
int64_t ws_iq_host_not_ready_wait_ns(const uint32_t *w, size_t nw);

#endif
