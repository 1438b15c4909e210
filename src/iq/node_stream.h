/* node_stream: the node emulator's Read IQ stream, and the node state it shares with node.c.
 *
 * The stream is the one place where the emulator must be fast, so it works on the node's
 * own batch arrays and RX buffers rather than through an interface: this header therefore
 * also carries the definition of struct ws_node and the few node.c helpers the stream
 * calls. Only node.c and node_stream.c include it; everyone else sees the opaque handle of
 * node.h. */
#ifndef WS_IQ_NODE_STREAM_H
#define WS_IQ_NODE_STREAM_H

#include "iq/node.h"
#include "iq/node_board.h"
#include "iq/wire.h"

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define WS_NODE_MAX_RF 4
#define WS_NODE_BATCH 64     /* datagrams per recvmmsg, stream packets per sendmmsg batch */
#define WS_NODE_SEEN_MAX 64  /* distinct unknown commands logged once each */
#define WS_NODE_CTL_LEN 64

typedef struct ws_node_buf {
	uint8_t *mem;       /* NULL until first touch */
	size_t bytes;
	uint32_t samples;
	uint32_t extent;    /* TX: one past the highest sample ever written */
	uint8_t *ready;     /* RX: bitmap of chunks that hold content */
	uint32_t captures;  /* RX: triggers that filled it; its Read IQ iq_id */
} ws_node_buf;

/* Where a reply goes: the socket the request came in on and its sender. */
typedef struct ws_node_peer {
	int fd;
	struct sockaddr_in addr;
} ws_node_peer;

struct ws_node {
	ws_node_config cfg;
	int fd, bfd, efd;
	int stop;
	ws_node_counters ctr;
	ws_node_info info;
	unsigned rf_mask;
	ws_node_buf tx[WS_NODE_MAX_RF], rx[WS_NODE_MAX_RF];
	uint32_t tx_length, rx_length;
	unsigned rx_enabled;
	int rx_enable_seen;
	ws_wire_csum csum;
	ws_node_board board;
	/* receive batch */
	uint8_t *rbuf;
	size_t slot_size;
	struct mmsghdr rmsg[WS_NODE_BATCH];
	struct iovec riov[WS_NODE_BATCH];
	struct sockaddr_in rfrom[WS_NODE_BATCH];
	uint64_t rctl[WS_NODE_BATCH][WS_NODE_CTL_LEN / 8];
	/* Read IQ stream batch: packet k is siov[2k] (header) + siov[2k+1] (samples); one
	 * message carries one packet, or with GSO a run of packets of one segment size. */
	int gso;
	uint8_t shdr[WS_NODE_BATCH][WS_WIRE_SAMPLE_PKT_HDR];
	struct iovec siov[2 * WS_NODE_BATCH];
	struct mmsghdr smsg[WS_NODE_BATCH];
	unsigned smsg_pkts[WS_NODE_BATCH];
	uint64_t sctl[WS_NODE_BATCH][CMSG_SPACE(sizeof(uint16_t)) / 8 + 1];
	uint32_t seen[WS_NODE_SEEN_MAX];
	unsigned n_seen;
};

/* Single writer (the node thread), relaxed atomic stores so other threads read whole values. */
#define WS_NODE_BUMP(n, field, v) \
	__atomic_store_n(&(n)->ctr.field, (n)->ctr.field + (v), __ATOMIC_RELAXED)

/* 1 once ws_node_stop was called (from any thread). */
static inline int ws_node_stopping(const ws_node *n)
{
	return __atomic_load_n(&n->stop, __ATOMIC_RELAXED);
}

/* ---- node.c ---- */

/* A one-line message to the configured log callback (none: nothing happens). */
void ws_node_log(ws_node *n, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Waits until fd can take more, or a stop, at most 100 ms; counts a send wait. nobufs: the
 * send failed with ENOBUFS. */
void ws_node_wait_writable(ws_node *n, int fd, int nobufs);

/* The transport header of any response to m of len bytes: src/dest swapped, seq kept. */
ws_wire_transport ws_node_reply_transport(const ws_node *n, const ws_wire_msg *m, size_t len,
					  uint16_t flags);

/* Makes RX samples [start, start+count) of interface rf hold content (maps the buffer,
 * writes the test signal into chunks never touched; with full_overwrite, chunks entirely
 * inside the range are left for the caller). 0, or -1 when the buffer cannot be mapped. */
int ws_node_rx_prepare(ws_node *n, int rf, uint32_t start, uint32_t count, int full_overwrite);

/* ---- node_stream.c ---- */

/* Streams RX samples [start, start+count) of interface rf (a mapped buffer; the range is
 * checked) to p as Read IQ sample packets of spp samples answering m, in sendmmsg batches
 * (UDP GSO while the path takes it), paced by cfg.pace_us. Waits for room rather than
 * dropping; a stop or a socket that fails for good abandons the stream (logged, counted). */
void ws_node_stream_range(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, int rf,
			  uint32_t start, uint32_t count, uint32_t spp);

#endif
