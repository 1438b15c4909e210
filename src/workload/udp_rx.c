/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_rx: UDP_STREAM's receiver role; see udp_rx.h and, for the protocol, udp_stream.h.
 *
 * One loop around recvmmsg batches (plain recv with no_batch, UDP_GRO with gro; a refused
 * GRO falls back and says so in io_note): each datagram (each GRO segment) goes through
 * the accounting of udp_acct, the sender gets a report every eighth of the window, and
 * the role ends on END, on the idle rule past the expected end, or at the daemon's cap. */
#include "workload/udp_rx.h"

#include "util/bytes.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/stream.h"
#include "workload/udp_sock.h"
#include "workload/udp_uring.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define RX_BATCH_MAX     64
#define RX_BATCH_BYTES   (2u << 20) /* receive buffers per batch, in all */
#define RX_GRO_BUF       65536      /* a GRO receive can hold up to 64 KiB */
#define RX_TIMEOUT_NS    (100 * WS_NS_PER_MS)
#define RX_GRACE_NS      (500 * WS_NS_PER_MS) /* past the expected end ... */
#define RX_IDLE_NS       (250 * WS_NS_PER_MS) /* ... this long without a datagram ends */
#define RX_BYTES_IDLE_NS (2 * WS_NS_PER_SEC)
#define RX_FLOWING_NS    (20 * WS_NS_PER_MS) /* data this recent: nap instead of blocking */
#ifndef RX_NAP_NS
#define RX_NAP_NS (250 * WS_NS_PER_US)
#endif

union rx_ctrl {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

typedef struct udp_rx {
	int fd;
	bool gro;
	uint32_t nmsg;
	size_t bufsize;
	uint8_t *bufs;
	struct iovec *iov;
	union rx_ctrl *ctrl;
#if WS_UDP_HAVE_MMSG
	struct mmsghdr *msgs;
#else
	struct msghdr *msgs;
#endif
	struct ws_udp_uring *ur; /* --engine io_uring: the ring; its datagrams are at ptrs */
	uint32_t size;           /* io_uring: longer datagrams were truncated */
	const uint8_t *ptrs[RX_BATCH_MAX];
	ws_udp_acct acct;
	uint64_t window, reported;
	bool any;
	int64_t first_ns, last_ns;
} udp_rx;

/* Datagrams that half the receive buffer holds, from the kernel's per-datagram charge. */
static uint64_t rx_window(uint32_t rcvbuf, uint32_t size)
{
	uint64_t charge = 4096 + (uint64_t)size;
	if (size <= 16384) {
		charge = 1024;
		while (charge < size + 512u)
			charge <<= 1;
		charge += 256;
	}
	uint64_t w = (rcvbuf ? rcvbuf : 212992u) / 2 / charge;
	return w < WS_UDP_WINDOW_MIN    ? WS_UDP_WINDOW_MIN
		: w > WS_UDP_WINDOW_MAX ? WS_UDP_WINDOW_MAX
					: w;
}

/* The receiver's buffers: nmsg of the returned size (a GRO receive can hold 64 KiB). */
static size_t rx_geometry(const ws_test_spec *spec, bool gro, uint32_t size, uint32_t *nmsg)
{
	size_t bufsize = gro ? RX_GRO_BUF : size;
	*nmsg = 1;
	if (!spec->no_batch && WS_UDP_HAVE_MMSG) {
		*nmsg = RX_BATCH_BYTES / (uint32_t)bufsize;
		*nmsg = *nmsg < 8 ? 8 : *nmsg > RX_BATCH_MAX ? RX_BATCH_MAX : *nmsg;
	}
	return bufsize;
}

static int rx_alloc(udp_rx *r, ws_err *err)
{
	r->bufs = ws_stream_alloc_pattern(r->bufsize * r->nmsg);
	r->iov = calloc(r->nmsg, sizeof(*r->iov));
	r->ctrl = calloc(r->nmsg, sizeof(*r->ctrl));
	r->msgs = calloc(r->nmsg, sizeof(*r->msgs));
	if (!r->bufs || !r->iov || !r->ctrl || !r->msgs)
		return ws_err_set(err, ENOMEM, "no memory for %u receive buffers of %zu bytes",
				  r->nmsg, r->bufsize);
	return 0;
}

static int rx_setup(udp_rx *r, const ws_test_spec *spec, int fd, ws_side_result *res, ws_err *err)
{
	r->fd = fd;
	struct sockaddr_storage me = {0}, peer = {0}; /* AF_UNIX pairs have no ports */
	socklen_t ml = sizeof(me), pl = sizeof(peer);
	getsockname(fd, (struct sockaddr *)&me, &ml);
	getpeername(fd, (struct sockaddr *)&peer, &pl);
	ws_udp_acct_init(&r->acct,
			 ws_udp_tag(ntohs(((struct sockaddr_in *)&peer)->sin_port),
				    ntohs(((struct sockaddr_in *)&me)->sin_port)));
	if (!spec->udp_flow_control) /* a blasting sender may run far ahead of a stalled receiver */
		r->acct.jump_max = WS_UDP_JUMP_MAX_BLAST;
	uint32_t size = spec->send_size ? spec->send_size : WS_UDP_MAX_MSG;
	if (spec->send_size && (size < WS_UDP_MIN_MSG || size > WS_UDP_MAX_MSG))
		return ws_udp_msg_size(spec, 0, &size, err);
	int one = 1;
	if (spec->gro) {
		if (setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) == 0)
			r->gro = true;
		else
			ws_udp_note(res, "UDP_GRO refused by the kernel (%s); fell back",
				    strerror(errno));
	}
	if (spec->engine == WS_ENGINE_IO_URING) { /* the engine table refuses --gro with it */
		r->size = size;
		r->bufsize = size;
		r->nmsg = RX_BATCH_MAX;
		res->recv_size = size;
		snprintf(res->io_path, sizeof(res->io_path), "io_uring");
		r->window = rx_window(res->rcvbuf_set, size);
		return ws_udp_uring_rx_open(&r->ur, fd, size, spec->sqpoll, err);
	}
	r->bufsize = rx_geometry(spec, r->gro, size, &r->nmsg);
	if (!spec->no_batch && !WS_UDP_HAVE_MMSG)
		ws_udp_note(res, "%s", "recvmmsg is not in this build; used recv");
	r->window = rx_window(res->rcvbuf_set, size);
	/* Short timeouts: the end-of-test idle check needs a finer tick than run.c's second. */
	struct timeval tv = {0, RX_TIMEOUT_NS / 1000};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	int rc = rx_alloc(r, err);
	for (uint32_t i = 0; rc == 0 && i < r->nmsg; i++)
		r->iov[i] = (struct iovec){r->bufs + i * r->bufsize, r->bufsize};
	res->recv_size = (uint32_t)r->bufsize;
	snprintf(res->io_path, sizeof(res->io_path), "%s%s", r->nmsg > 1 ? "recvmmsg" : "recv",
		 r->gro ? "+UDP_GRO" : "");
	return rc;
}

static struct msghdr *rx_hdr(udp_rx *r, uint32_t i)
{
#if WS_UDP_HAVE_MMSG
	return &r->msgs[i].msg_hdr;
#else
	return &r->msgs[i];
#endif
}

/* One receive call; returns datagrams received, or -1 with errno (EAGAIN: nothing came
 * within the socket timeout, or at once with MSG_DONTWAIT in flags). */
static int rx_receive(udp_rx *r, unsigned *lens, int flags)
{
	if (r->ur) /* waiting while datagrams flow is for a batch, up to a nap */
		return ws_udp_uring_recv(r->ur, r->ptrs, lens, RX_BATCH_MAX,
					 !(flags & MSG_DONTWAIT), RX_TIMEOUT_NS);
	for (uint32_t i = 0; i < r->nmsg; i++) {
		struct msghdr *m = rx_hdr(r, i);
		*m = (struct msghdr){.msg_iov = &r->iov[i], .msg_iovlen = 1};
		if (r->gro) {
			m->msg_control = r->ctrl[i].buf;
			m->msg_controllen = sizeof(r->ctrl[i].buf);
		}
	}
#if WS_UDP_HAVE_MMSG
	if (r->nmsg > 1) {
		int n = recvmmsg(r->fd, r->msgs, r->nmsg, flags | MSG_WAITFORONE, NULL);
		for (int i = 0; i < n; i++)
			lens[i] = r->msgs[i].msg_len;
		return n;
	}
#endif
	ssize_t n = recvmsg(r->fd, rx_hdr(r, 0), flags);
	if (n < 0)
		return -1;
	lens[0] = (unsigned)n;
	return 1;
}

static int gro_size(struct msghdr *m)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c))
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
			int v;
			memcpy(&v, CMSG_DATA(c), sizeof(v));
			return v;
		}
	return 0;
}

/* Account datagram i (walking its GRO segments); true when it held an END marker. */
static bool rx_account(udp_rx *r, uint32_t i, unsigned len)
{
	if (r->ur) {
		if (len > r->size) { /* truncated into a buffer of size + 1 */
			r->acct.bad++;
			return false;
		}
		return ws_udp_acct_feed(&r->acct, r->ptrs[i], len) == WS_UDP_END;
	}
	struct msghdr *m = rx_hdr(r, i);
	const uint8_t *p = r->iov[i].iov_base;
	if (m->msg_flags & MSG_TRUNC) {
		r->acct.bad++;
		return false;
	}
	int seg = r->gro ? gro_size(m) : 0;
	if (seg <= 0 || len <= (unsigned)seg)
		return ws_udp_acct_feed(&r->acct, p, len) == WS_UDP_END;
	bool end = false;
	for (unsigned off = 0; off < len; off += (unsigned)seg) {
		unsigned n = len - off < (unsigned)seg ? len - off : (unsigned)seg;
		end |= ws_udp_acct_feed(&r->acct, p + off, n) == WS_UDP_END;
	}
	return end;
}

static void rx_report(udp_rx *r, uint8_t kind, uint64_t seq)
{
	uint8_t buf[WS_UDP_ACK_LEN];
	ws_udp_hdr h = {seq, r->acct.tag, kind};
	ws_udp_hdr_encode(buf, &h);
	ws_put_be64(buf + WS_UDP_HDR_LEN, r->window);
	/* best effort: a lost report costs only pace, and the sender may be gone at the end */
	send(r->fd, buf, kind == WS_UDP_ACK ? WS_UDP_ACK_LEN : WS_UDP_HDR_LEN, MSG_DONTWAIT);
}

/* A socket shut down (by the session, when its client closed the control connection, or
 * by a stopping daemon) returns empty datagrams at once, which warpspeed's never are. */
static bool rx_shut(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLRDHUP};
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP));
}

/* After a call that received nothing: true when the test is over by the idle rule. */
static int rx_idle_end(const udp_rx *r, const ws_test_spec *spec, int64_t t0, int64_t now,
		       bool *done, ws_err *err)
{
	int64_t last = r->any ? r->last_ns : t0;
	if (spec->end == WS_END_BYTES) {
		if (r->any && now - last >= RX_BYTES_IDLE_NS)
			*done = true;
		else if (!r->any && now - t0 >= WS_UDP_STALL_NS)
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "no datagram from the UDP sender in %.0f s",
					  (double)WS_UDP_STALL_NS / WS_NS_PER_SEC);
		return 0;
	}
	int64_t expected_end = t0 + ws_test_spec_duration_ns(spec) + RX_GRACE_NS;
	if (now >= expected_end && now - last >= RX_IDLE_NS)
		*done = true;
	else if (now - last >= WS_UDP_STALL_NS) /* the protocol's rule: 10 s without data ends */
		return ws_err_set(err, WS_E_TIMEDOUT, "no datagram from the UDP sender in %.0f s",
				  (double)WS_UDP_STALL_NS / WS_NS_PER_SEC);
	return 0;
}

static int rx_loop(udp_rx *r, const ws_test_spec *spec, int64_t cap_ns, ws_side_result *res,
		   ws_err *err)
{
	unsigned lens[RX_BATCH_MAX];
	int64_t t0 = ws_clock_ns();
	/* the end-of-test stall limit: a sender that keeps trickling cannot hold a timed test */
	int64_t hard_end = t0 + ws_test_spec_duration_ns(spec) + WS_STREAM_END_STALL_NS;
	bool done = false;
	int rc = 0;
	while (!done && rc == 0) {
		/* While datagrams flow, an empty queue means a short nap, not a blocking wait: a
		 * receiver asleep on the socket makes the sender pay a wakeup per datagram. */
		bool flowing = r->any && ws_clock_ns() - r->last_ns < RX_FLOWING_NS;
		int n = rx_receive(r, lens, flowing ? MSG_DONTWAIT : 0);
		if (n < 0 && flowing && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (!r->ur) /* io_uring's receive napped waiting for a batch */
				ws_clock_sleep_ns(RX_NAP_NS);
			continue;
		}
		int64_t now = ws_clock_ns();
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNREFUSED)
			return ws_err_errno(err, "receive on the UDP data socket");
		if (n > 0 && lens[0] == 0 && rx_shut(r->fd))
			return ws_err_set(err, ECANCELED,
					  "the UDP data socket was shut down (the control "
					  "connection closed, or the daemon is stopping)");
		if (n > 0) {
			res->recv_syscalls++;
			uint64_t before = r->acct.unique;
			for (int i = 0; i < n; i++)
				done |= rx_account(r, (uint32_t)i, lens[i]);
			if (r->acct.unique != before) {
				if (!r->any)
					r->first_ns = now;
				r->any = true;
				r->last_ns = now;
			}
			/* Reports pace a flow-controlled sender. A blasting one reads its socket
			 * only now and then (every 64 batches), so reports every few datagrams
			 * would fill its receive buffer and the END_ACK of a daemon's time cap
			 * would find it full (a -l -N client then ran a second past the cap,
			 * until its refusal rule stopped it): it gets the first one only. */
			if ((spec->udp_flow_control &&
			     r->acct.head - r->reported >= r->window / 8) ||
			    (r->reported == 0 && r->acct.head)) {
				r->reported = r->acct.head;
				rx_report(r, WS_UDP_ACK, r->acct.head);
			}
		} else {
			rc = rx_idle_end(r, spec, t0, now, &done, err);
		}
		if (spec->end != WS_END_BYTES && now >= hard_end)
			done = true;
		if (cap_ns && now >= cap_ns && rc == 0 && !done)
			rc = ws_stream_capped(t0, r->acct.bytes, "received", err);
	}
	/* END_ACK also tells a sender still sending (the cap ended the test) to stop */
	if (r->acct.end_seen || rc == -WS_E_LIMIT)
		for (int i = 0; i < 3; i++)
			rx_report(r, WS_UDP_END_ACK, r->acct.unique);
	/* One datagram (or none) spans no interval: fall back to the role's own. */
	res->elapsed_ns = r->acct.unique > 1 ? r->last_ns - r->first_ns : ws_clock_ns() - t0;
	return rc;
}

int ws_udp_recv_role(const ws_test_spec *spec, int fd, int64_t cap_ns, ws_side_result *res,
		     ws_err *err)
{
	udp_rx *r = calloc(1, sizeof(*r));
	if (!r)
		return ws_err_set(err, ENOMEM, "no memory for the UDP receiver");
	int rc = rx_setup(r, spec, fd, res, err);
	if (rc == 0)
		rc = rx_loop(r, spec, cap_ns, res, err);
	res->dgrams_recv = r->acct.unique;
	res->dgrams_lost = ws_udp_acct_lost(&r->acct);
	res->dgrams_reordered = r->acct.reordered;
	res->dgrams_dup = r->acct.dup;
	/* netperf's receive calls: one per datagram (recvmmsg and GRO take many per call) */
	res->recv_calls = res->dgrams_recv + res->dgrams_dup;
	res->bad_dgrams = r->acct.bad;
	res->dgrams_jumps = r->acct.jumps;
	res->bytes_recv = r->acct.bytes;
	ws_udp_uring_close(r->ur);
	free(r->bufs);
	free(r->iov);
	free(r->ctrl);
	free(r->msgs);
	free(r);
	return rc;
}

uint64_t ws_udp_rx_buffer_bytes(const ws_test_spec *spec)
{
	uint32_t size = WS_UDP_MAX_MSG, nmsg;
	if (spec->send_size >= WS_UDP_MIN_MSG && spec->send_size <= WS_UDP_MAX_MSG)
		size = spec->send_size;
	if (spec->engine == WS_ENGINE_IO_URING) /* auto keeps epoll for UDP_STREAM */
		return ws_udp_uring_rx_bytes(size);
	size_t bufsize = rx_geometry(spec, spec->gro, size, &nmsg);
	return (uint64_t)bufsize * nmsg;
}
