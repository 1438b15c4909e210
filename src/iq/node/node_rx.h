/* SPDX-License-Identifier: BSD-2-Clause */
/* node_rx: the node's receive side, both sockets served in arrival order.
 *
 * A board has one Ethernet port: a trigger broadcast to port 10000 and the Read IQ sent to
 * port 9000 right after it are served in the order they arrived, so the read returns what
 * the trigger captured. The emulator has two sockets, and a loop that empties one before
 * the other reorders them (issue 17, 1a: 7 of 53 roundtrips read stale RX data). This
 * module reads a recvmmsg batch from the unicast socket and then from the broadcast one,
 * with the kernel's receive timestamps (SO_TIMESTAMPNS), and hands the datagrams over
 * merged by arrival time. A datagram is held back (copied aside) only when the other
 * socket's batch came back full, so that socket may still queue an earlier one. With no
 * broadcast socket it is the plain batch loop. It knows nothing about the protocol. */
#ifndef WS_IQ_NODE_RX_H
#define WS_IQ_NODE_RX_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define WS_NODE_RX_BATCH   64 /* datagrams per recvmmsg and socket */
#define WS_NODE_RX_CTL_LEN 64

/* One datagram: the socket index (0 unicast, 1 broadcast), sender, bytes, kernel receive
 * time (wall clock ns, 0 when the kernel gave none). */
typedef struct ws_node_rx_item {
	int sock;
	struct sockaddr_in from;
	const uint8_t *pkt;
	size_t len;
	int64_t arrival;
} ws_node_rx_item;

/* Called for each datagram in arrival order; returns non-zero to stop serving (a stop:
 * the rest of the round is dropped). */
typedef int (*ws_node_rx_fn)(void *ctx, const ws_node_rx_item *it);

/* A socket's receive batch and the datagrams read from it but not yet served. */
typedef struct ws_node_rx_sock {
	uint8_t *buf, *dbuf; /* batch slots; held-back slots */
	struct mmsghdr msg[WS_NODE_RX_BATCH];
	struct iovec iov[WS_NODE_RX_BATCH];
	struct sockaddr_in from[WS_NODE_RX_BATCH];
	uint64_t ctl[WS_NODE_RX_BATCH][WS_NODE_RX_CTL_LEN / 8];
	ws_node_rx_item seq[2 * WS_NODE_RX_BATCH]; /* this round: held back, then fresh */
	unsigned n_seq, n_held;
	int full; /* the socket may hold more than was read */
} ws_node_rx_sock;

typedef struct ws_node_rx {
	size_t slot_size; /* bytes per datagram slot (one more than accepted) */
	int nsock;        /* 1, or 2 with a broadcast socket */
	ws_node_rx_sock s[2];
	uint64_t held_back; /* datagrams copied aside to wait for the other socket */
} ws_node_rx;

/* Allocates the slots for nsock sockets (1 or 2). Returns 0 or -1 (out of memory);
 * ws_node_rx_free is safe either way. */
int ws_node_rx_init(ws_node_rx *rx, int nsock, size_t slot_size);
void ws_node_rx_free(ws_node_rx *rx);

/* One round: reads a batch from fds[0], then from fds[1] (when nsock is 2), and calls fn
 * for every datagram that can be served in arrival order. ready is what the poll just
 * before found readable (bit 0: fds[0], bit 1: fds[1]) and poll_ns the wall-clock time
 * that poll began; WS_NODE_RX_UNKNOWN when no poll came just before (fds[1] is then always
 * read). Returns 1 when a socket may hold more (its batch was full), 0 otherwise, or
 * -errno for a socket error that will not go away, with *bad = the index of that socket. */
#define WS_NODE_RX_UNKNOWN (~0u)
int ws_node_rx_round(ws_node_rx *rx, const int *fds, unsigned ready, int64_t poll_ns,
		     ws_node_rx_fn fn, void *ctx, int *bad);

/* Datagrams held back for the next round: the caller must not sleep while there are any. */
static inline unsigned ws_node_rx_pending(const ws_node_rx *rx)
{
	return rx->s[0].n_held + rx->s[1].n_held;
}

/* Waits, at most budget_ns, until the kernel stamps datagrams when they arrive rather than
 * when they are read: it turns arrival stamping on some time after the first socket asks
 * for it (a deferred static key, tens of ms on a loaded machine), and until then every
 * datagram carries its read time, which orders a unicast batch before a broadcast one
 * read after it. Probes with a private loopback socket. Returns 1 once stamping is on, 0
 * when the budget ran out or loopback is unusable. */
int ws_node_rx_wait_stamps(int64_t budget_ns);

/* The kernel receive time of a received message (SCM_TIMESTAMPNS), or 0. */
int64_t ws_node_rx_arrival(const struct msghdr *h);

#endif
