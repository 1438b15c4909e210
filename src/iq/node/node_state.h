/* SPDX-License-Identifier: BSD-2-Clause */
/* node_state: the node emulator's state and the reply primitives all its parts share.
 *
 * The node is split by concern (sockets and loop in node.c, commands in node_cmd.c, the
 * Read IQ stream in node_stream.c, memory in node_mem.c, allow lists and rate caps in
 * node_allow.c / node_rate.c, board fidelity in node_board.c); the parts that work on the
 * node itself need its definition, which lives here, below all of them, together with the
 * few helpers every part calls (log, counters, the transport header of a reply, sending a
 * small answer under the source's rate cap). Only the files of src/iq/node/ include it; everyone else
 * sees the opaque handle of node.h. */
#ifndef WS_IQ_NODE_STATE_H
#define WS_IQ_NODE_STATE_H

#include "iq/node/node.h"
#include "iq/node/node_allow.h"
#include "iq/node/node_board.h"
#include "iq/node/node_log.h"
#include "iq/node/node_mem.h"
#include "iq/node/node_rate.h"
#include "iq/node/node_rx.h"
#include "iq/wire/wire.h"

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define WS_NODE_MAX_RF          4
#define WS_NODE_BATCH           64 /* datagrams per recvmmsg, stream packets per sendmmsg batch */
#define WS_NODE_QUANTUM         (512u << 10) /* bytes a stream sends per turn of the round robin */
#define WS_NODE_TOKEN_WAIT_NS   250000       /* the least sleep for rate tokens: 31 KB at 1 Gb/s */
#define WS_NODE_SEEN_MAX        64           /* distinct unknown commands logged once each */
#define WS_NODE_STREAMS         64           /* Read IQ streams served at once (one per source) */
#define WS_NODE_HOLD_MAX        64 /* datagrams held behind their source's stream, in all */
#define WS_NODE_HOLD_PER_SOURCE 16

/* Where a reply goes: the socket the request came in on and its sender. */
typedef struct ws_node_peer {
	int fd;
	struct sockaddr_in addr;
} ws_node_peer;

/* A Read IQ being answered: RX samples [start, start+count) of each buffer in mask, one
 * after another, RF_A first; pos/end walk the current buffer rf. */
typedef struct ws_node_stream {
	int active;
	ws_node_peer peer;
	ws_wire_msg req; /* the request's headers (args not kept) */
	unsigned mask;
	int rf;
	uint32_t start, count, spp;
	uint64_t pos, end;
	ws_node_bucket *bucket; /* pinned while the stream lasts; NULL without a cap */
	int64_t next_ns;        /* earliest next packet (--pace-us) */
	uint64_t sent;          /* bytes sent so far: the least served go first, the most
				   * served yields its slot */
	int capped;             /* under the rate caps (not ws_node_feed) */
} ws_node_stream;

/* A datagram that arrived while its source had a stream running. */
typedef struct ws_node_held {
	ws_node_peer peer;
	int64_t arrival;
	uint32_t len;
	unsigned slot; /* its bytes: hbuf + slot * slot_size */
} ws_node_held;

struct ws_node {
	ws_node_config cfg;
	int fd, bfd, efd;
	int stop;
	int uncapped; /* ws_node_feed: replies are not rate-capped */
	ws_node_counters ctr;
	ws_node_info info;
	unsigned rf_mask;
	ws_node_mem mem;
	uint32_t captures[WS_NODE_MAX_RF]; /* triggers that filled each RX buffer: its iq_id */
	uint32_t tx_length, rx_length;
	unsigned rx_enabled;
	int rx_enable_seen;
	ws_wire_csum csum;
	ws_node_board board;
	ws_node_allow allow;
	ws_node_rate rate;
	/* receive batches of both sockets, served in arrival order */
	ws_node_rx rx;
	size_t slot_size;
	/* held datagrams, in arrival order */
	uint8_t *hbuf;
	ws_node_held held[WS_NODE_HOLD_MAX];
	unsigned n_held;
	unsigned free_slots[WS_NODE_HOLD_MAX], n_free;
	/* Read IQ streams, and one sendmmsg batch: packet k is siov[piov[k]] (header) and one
	 * or two sample iovecs (a packet may cross a chunk), up to siov[piov[k + 1]]; one
	 * message carries one packet, or with GSO a run of packets of one segment size. */
	ws_node_stream streams[WS_NODE_STREAMS];
	unsigned n_streams, next_stream;
	int orphans; /* a stream was cut: held datagrams may have no stream */
	int gso;
	uint8_t shdr[WS_NODE_BATCH][WS_WIRE_SAMPLE_PKT_HDR];
	struct iovec siov[3 * WS_NODE_BATCH];
	unsigned piov[WS_NODE_BATCH + 1];
	struct mmsghdr smsg[WS_NODE_BATCH];
	unsigned smsg_pkts[WS_NODE_BATCH];
	uint64_t sctl[WS_NODE_BATCH][CMSG_SPACE(sizeof(uint16_t)) / 8 + 1];
	uint32_t seen[WS_NODE_SEEN_MAX];
	unsigned n_seen;
	ws_node_loglimit loglimit; /* a few lines per second per cause, then a summary */
};

/* Single writer (the node thread), relaxed atomic stores so other threads read whole values. */
#define WS_NODE_BUMP(n, field, v) \
	__atomic_store_n(&(n)->ctr.field, (n)->ctr.field + (v), __ATOMIC_RELAXED)

/* 1 once ws_node_stop was called (from any thread). */
static inline int ws_node_stopping(const ws_node *n)
{
	return __atomic_load_n(&n->stop, __ATOMIC_RELAXED);
}

/* The source address of p in host order. */
static inline uint32_t ws_node_peer_addr(const ws_node_peer *p)
{
	return ntohl(p->addr.sin_addr.s_addr);
}

/* After a node_mem call failed: counts it (alloc_failures, or mem_refused when the budget
 * refused it) and logs it. */
void ws_node_mem_failed(ws_node *n);

/* A one-line message to the configured log callback (none: nothing happens), at most
 * WS_NODE_LOG_PER_WINDOW a second from one call site (fmt), then a summary (node_log.h). */
void ws_node_log(ws_node *n, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Waits until fd can take more, or a stop, at most 100 ms; counts a send wait. nobufs: the
 * send failed with ENOBUFS. */
void ws_node_wait_writable(ws_node *n, int fd, int nobufs);

/* The transport header of any response to m of len bytes: src/dest swapped, seq kept. */
ws_wire_transport ws_node_reply_transport(const ws_node *n, const ws_wire_msg *m, size_t len,
					  uint16_t flags);

/* Sends one small answer to p, if the source's bucket allows (above the small-answer
 * slack; counted rate_drops otherwise) and charges it. Without sockets it is only
 * counted. */
void ws_node_send(ws_node *n, const ws_node_peer *p, const uint8_t *buf, size_t len);

#endif
