/* SPDX-License-Identifier: BSD-2-Clause */
/* node_rx: both node sockets read in batches and served in arrival order; see node_rx.h.
 *
 * Why reading the unicast socket first is enough for the common case: a host sends the
 * trigger before the read, so by the time the read is in the unicast batch the trigger is
 * already queued on the broadcast socket, which is read next; the merge by timestamp then
 * puts it first. What can still be queued unseen is only behind a batch that came back
 * full, so a datagram later than the last one of a full batch on the other socket waits
 * (copied aside, at most a batch per socket) for the next round. A round with nothing from
 * the broadcast socket costs one recvmmsg that returns EAGAIN. */
#include "iq/node/node_rx.h"

#include "util/clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int64_t ws_node_rx_arrival(const struct msghdr *h)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR((struct msghdr *)h, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;
			memcpy(&ts, CMSG_DATA(c), sizeof ts);
			return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		}
	}
	return 0;
}

/* The message headers of slots [0, k): the kernel rewrites their name and control
 * lengths, so only the slots a read filled are set again. */
static void reset_slots(ws_node_rx *rx, ws_node_rx_sock *S, unsigned k)
{
	for (unsigned i = 0; i < k; i++) {
		S->iov[i] = (struct iovec){.iov_base = S->buf + i * rx->slot_size,
					   .iov_len = rx->slot_size};
		S->msg[i].msg_hdr = (struct msghdr){.msg_name = &S->from[i],
						    .msg_namelen = sizeof S->from[i],
						    .msg_iov = &S->iov[i],
						    .msg_iovlen = 1,
						    .msg_control = S->ctl[i],
						    .msg_controllen = sizeof S->ctl[i]};
	}
}

/* Appends up to vlen fresh datagrams of fd to S->seq. Returns how many were read (0 when
 * the socket is empty or the error passes), or -errno. */
static int read_batch(ws_node_rx *rx, int sock, int fd, unsigned vlen)
{
	ws_node_rx_sock *S = &rx->s[sock];
	int r = recvmmsg(fd, S->msg, vlen, MSG_DONTWAIT, NULL);
	if (r < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ENOMEM ||
		    errno == ENOBUFS || errno == ECONNREFUSED)
			return 0;
		return -errno;
	}
	for (int i = 0; i < r; i++) {
		struct msghdr *h = &S->msg[i].msg_hdr;
		if (h->msg_namelen != sizeof S->from[i] || S->from[i].sin_family != AF_INET)
			continue;
		/* MSG_TRUNC: beyond any payload accepted; the slot's length says so. */
		size_t len = h->msg_flags & MSG_TRUNC ? rx->slot_size : S->msg[i].msg_len;
		S->seq[S->n_seq++] = (ws_node_rx_item){.sock = sock,
						       .from = S->from[i],
						       .pkt = S->iov[i].iov_base,
						       .len = len,
						       .arrival = ws_node_rx_arrival(h)};
	}
	reset_slots(rx, S, (unsigned)r);
	return r;
}

int ws_node_rx_init(ws_node_rx *rx, int nsock, size_t slot_size)
{
	memset(rx, 0, sizeof *rx);
	rx->slot_size = slot_size;
	rx->nsock = nsock;
	for (int s = 0; s < nsock; s++) {
		rx->s[s].buf = malloc(slot_size * WS_NODE_RX_BATCH);
		/* Only a two-socket node holds datagrams back. */
		rx->s[s].dbuf = nsock > 1 ? malloc(slot_size * WS_NODE_RX_BATCH) : NULL;
		if (!rx->s[s].buf || (nsock > 1 && !rx->s[s].dbuf))
			return -1;
		reset_slots(rx, &rx->s[s], WS_NODE_RX_BATCH);
	}
	return 0;
}

void ws_node_rx_free(ws_node_rx *rx)
{
	for (int s = 0; s < 2; s++) {
		free(rx->s[s].buf);
		free(rx->s[s].dbuf);
		rx->s[s].buf = rx->s[s].dbuf = NULL;
	}
}

/* Keeps S->seq[k..n_seq) for the next round: the held-back slots move down, fresh ones are
 * copied in after them. */
static void hold_back(ws_node_rx *rx, ws_node_rx_sock *S, unsigned k)
{
	unsigned n = 0;
	for (unsigned i = k; i < S->n_seq; i++, n++) {
		uint8_t *to = S->dbuf + n * rx->slot_size;
		if (i < S->n_held) {
			memmove(to, S->seq[i].pkt, S->seq[i].len);
		} else {
			memcpy(to, S->seq[i].pkt, S->seq[i].len);
			rx->held_back++;
		}
		S->seq[n] = S->seq[i];
		S->seq[n].pkt = to;
	}
	S->n_held = n;
}

/* Whether the broadcast socket can go unread this round: poll found it empty and the
 * unicast socket not, and every fresh unicast datagram was queued before poll looked (the
 * first one was there when it looked; later ones only if stamped before poll began), so
 * an earlier broadcast would have been seen. Saves a recvmmsg (about 1 us) per round of a
 * Write IQ stream. */
static int skip_second(const ws_node_rx *rx, unsigned ready, int64_t poll_ns)
{
	const ws_node_rx_sock *A = &rx->s[0];
	if (ready != 1 || A->n_held || rx->s[1].n_held || A->n_seq == 0)
		return 0;
	for (unsigned i = 1; i < A->n_seq; i++)
		if (A->seq[i].arrival == 0 || A->seq[i].arrival >= poll_ns)
			return 0;
	return 1;
}

int ws_node_rx_round(ws_node_rx *rx, const int *fds, unsigned ready, int64_t poll_ns,
		     ws_node_rx_fn fn, void *ctx, int *bad)
{
	for (int s = 0; s < rx->nsock; s++) {
		ws_node_rx_sock *S = &rx->s[s];
		if (s == 1 && skip_second(rx, ready, poll_ns)) {
			S->n_seq = 0;
			S->full = 0;
			continue;
		}
		unsigned vlen = WS_NODE_RX_BATCH - S->n_held;
		S->n_seq = S->n_held;
		S->full = 1; /* no room to read: as good as full */
		if (vlen) {
			int r = read_batch(rx, s, fds[s], vlen);
			if (r < 0) {
				*bad = s;
				return r;
			}
			S->full = (unsigned)r == vlen;
		}
	}
	ws_node_rx_sock *A = &rx->s[0], *B = rx->nsock > 1 ? &rx->s[1] : NULL;
	unsigned i = 0, j = 0, nb = B ? B->n_seq : 0;
	/* A datagram may go only when the other socket cannot still queue an earlier one. */
	int64_t cut_a = B && B->full && nb ? B->seq[nb - 1].arrival : INT64_MAX;
	int64_t cut_b = A->full && A->n_seq ? A->seq[A->n_seq - 1].arrival : INT64_MAX;
	while (i < A->n_seq || j < nb) {
		int take_a = j >= nb || (i < A->n_seq && A->seq[i].arrival <= B->seq[j].arrival);
		const ws_node_rx_item *it = take_a ? &A->seq[i] : &B->seq[j];
		if (it->arrival > (take_a ? cut_a : cut_b))
			break;
		if (fn(ctx, it)) {
			A->n_held = 0;
			if (B)
				B->n_held = 0;
			return 0;
		}
		if (take_a)
			i++;
		else
			j++;
	}
	if (B) {
		hold_back(rx, A, i);
		hold_back(rx, B, j);
	}
	return A->full || (B && B->full);
}

/* One probe: a datagram to itself, read 200 us later; stamped on arrival when its stamp is
 * older than the read. 1, 0, or -1 when the socket gave nothing back. */
static int probe_once(int fd, const struct sockaddr_in *self)
{
	uint8_t b[4] = {0}, ctl[WS_NODE_RX_CTL_LEN];
	if (sendto(fd, b, sizeof b, 0, (const struct sockaddr *)self, sizeof *self) < 0)
		return -1;
	ws_clock_sleep_ns(200 * WS_NS_PER_US);
	struct pollfd p = {.fd = fd, .events = POLLIN};
	if (poll(&p, 1, 100) != 1)
		return -1;
	int64_t before = ws_clock_wall_ns();
	struct iovec iov = {.iov_base = b, .iov_len = sizeof b};
	struct msghdr h = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
	if (recvmsg(fd, &h, MSG_DONTWAIT) < 0)
		return -1;
	int64_t t = ws_node_rx_arrival(&h);
	return t > 0 && t < before - 100 * WS_NS_PER_US;
}

int ws_node_rx_wait_stamps(int64_t budget_ns)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), one = 1, on = 0;
	struct sockaddr_in self = {.sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof self;
	if (fd < 0)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) == 0 &&
	    bind(fd, (struct sockaddr *)&self, sizeof self) == 0 &&
	    getsockname(fd, (struct sockaddr *)&self, &sl) == 0) {
		int64_t end = ws_clock_ns() + budget_ns;
		int r;
		while ((r = probe_once(fd, &self)) == 0 && ws_clock_ns() < end)
			;
		on = r == 1;
	}
	close(fd);
	return on;
}
