/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_tx: UDP_STREAM's sender role; see udp_tx.h and, for the protocol, udp_stream.h.
 *
 * One loop around a chosen I/O path: sendmmsg batches by default, plain send with
 * no_batch, UDP_SEGMENT with gso; a path the kernel refuses falls back to the batched one
 * and the reason lands in io_note. The clock is read once per call, never per datagram.
 * The receiver's reports (window, END_ACK) and the kernel's refusals (the error queue)
 * are read between batches. */
#include "workload/udp_tx.h"

#include "measure/hist.h"
#include "measure/interim.h"
#include "util/bytes.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/features.h"
#include "workload/stream.h"
#include "workload/udp_sock.h"
#include "workload/udp_uring.h"

#include <errno.h>
#include <linux/errqueue.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TX_BATCH       64                   /* datagrams per sendmmsg */
#define GSO_MAX_SEGS   64                   /* the kernel's UDP_MAX_SEGMENTS */
#define WINDOW_INITIAL TX_BATCH             /* until the receiver's first report */
#define PROBE_NS       (200 * WS_NS_PER_MS) /* window full and no report: send anyway */
#define REPORT_EVERY   64                   /* blast: batches between reads of the reports */
#define PACE_SPIN_NS   (50 * WS_NS_PER_US)  /* --pace: the last stretch before a send is spun */
#define END_PHASE_NS   (2 * WS_NS_PER_SEC)  /* how long the sender repeats END */
/* The receiver's port refusing datagrams this long with no report in between: it is gone
 * (its daemon's time cap ended the test and its END_ACKs were lost, or it died). */
#define GONE_NS            (1 * WS_NS_PER_SEC)
#define NETPERF_END_DGRAMS 3 /* empty datagrams that end a netserver's test */

enum tx_path { TX_MMSG, TX_PLAIN, TX_GSO, TX_URING };

typedef struct udp_tx {
	int fd;
	uint32_t size, tag;
	enum tx_path path;
	uint8_t *payload; /* one message; TX_PLAIN writes its header into the first bytes */
	uint8_t *gso_buf; /* gso_segs messages back to back, each with its own header */
	uint32_t gso_segs;
	struct ws_udp_uring *ur; /* TX_URING (--engine io_uring): the ring and its slots */
#if WS_UDP_HAVE_MMSG
	uint8_t hdrs[TX_BATCH][WS_UDP_HDR_LEN];
	struct iovec iov[TX_BATCH][2];
	struct mmsghdr msgs[TX_BATCH];
#endif
	uint64_t seq;   /* data datagrams sent */
	uint64_t acked; /* the receiver's head at its last report */
	uint64_t window;
	int64_t last_report_ns;
	double pace_dps;  /* --pace: datagrams per second, 0 = not paced */
	uint32_t batches; /* blast mode: reports are read every REPORT_EVERY batches */
	bool end_acked, refused;
	int64_t refused_ns;   /* the first refusal since the receiver's last report, 0: none */
	bool dontroute_probe; /* SO_DONTROUTE is set until the first send gets through */
	ws_side_result *res;
	ws_interim_counter *progress; /* -D: the bytes sent, or NULL */
	ws_hist *lat;                 /* each send call's time (spec->call_latency), or NULL */
} udp_tx;

static enum tx_path default_tx_path(const ws_test_spec *spec, ws_side_result *res)
{
	if (spec->no_batch || !WS_UDP_HAVE_MMSG) {
		if (!spec->no_batch)
			ws_udp_note(res, "%s", "sendmmsg is not in this build; used send");
		return TX_PLAIN;
	}
	return TX_MMSG;
}

/* UDP_SEGMENT with segments of the message size, or the default path with a note. */
static int tx_try_gso(udp_tx *t, const ws_test_spec *spec, ws_err *err)
{
	uint32_t segs = WS_UDP_MAX_MSG / t->size;
	if (segs > GSO_MAX_SEGS)
		segs = GSO_MAX_SEGS;
	if (segs < 2) {
		ws_udp_note(t->res, "%s",
			    "UDP_SEGMENT skipped: a message this large leaves no room for two in "
			    "64 KiB");
		t->path = default_tx_path(spec, t->res);
		return 0;
	}
	if (ws_features_probe_udp_gso() != 1) {
		/* qemu-user, for one, passes the segment size unswapped on big-endian guests. */
		ws_udp_note(
			t->res, "%s",
			"UDP_SEGMENT does not segment correctly here (probe failed); fell back");
		t->path = default_tx_path(spec, t->res);
		return 0;
	}
	int v = (int)t->size;
	if (setsockopt(t->fd, SOL_UDP, UDP_SEGMENT, &v, sizeof(v)) < 0) {
		ws_udp_note(t->res, "UDP_SEGMENT refused by the kernel (%s); fell back",
			    strerror(errno));
		t->path = default_tx_path(spec, t->res);
		return 0;
	}
	t->gso_buf = ws_stream_alloc_pattern((size_t)segs * t->size);
	if (!t->gso_buf)
		return ws_err_set(err, ENOMEM, "no memory for a %u-byte UDP_SEGMENT buffer",
				  segs * t->size);
	t->gso_segs = segs;
	t->path = TX_GSO;
	return 0;
}

static int tx_setup(udp_tx *t, const ws_test_spec *spec, int fd, int fill_fd, ws_side_result *res,
		    ws_err *err)
{
	t->fd = fd;
	t->res = res;
	t->window = WINDOW_INITIAL;
	t->last_report_ns = ws_clock_ns();
	int rc = ws_udp_msg_size(spec, res->sndbuf_set, &t->size, err);
	if (rc < 0)
		return rc;
	int one = 1;
	/* ICMP errors also on the error queue: sendmmsg swallows the ECONNREFUSED of a
	 * receiver that is gone (it returns the datagrams sent before it), the queue keeps it
	 * (tx_read_errqueue). One of the two fails by the socket's family; that is expected. */
	(void)setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	(void)setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one));
	if (!spec->udp_route) {
		if (setsockopt(fd, SOL_SOCKET, SO_DONTROUTE, &one, sizeof(one)) < 0)
			return ws_err_errno(err, "setsockopt SO_DONTROUTE on the UDP data socket");
		t->dontroute_probe = true;
	}
	struct sockaddr_storage me = {0}, peer = {0}; /* AF_UNIX pairs have no ports */
	socklen_t ml = sizeof(me), pl = sizeof(peer);
	getsockname(fd, (struct sockaddr *)&me, &ml);
	getpeername(fd, (struct sockaddr *)&peer, &pl);
	/* sin_port and sin6_port sit at the same offset */
	t->tag = ws_udp_tag(ntohs(((struct sockaddr_in *)&me)->sin_port),
			    ntohs(((struct sockaddr_in *)&peer)->sin_port));
	t->payload = ws_stream_alloc_pattern(t->size);
	if (!t->payload)
		return ws_err_set(err, ENOMEM, "no memory for a %u-byte message", t->size);
	if (spec->engine == WS_ENGINE_IO_URING) /* the engine table refuses --gso with it */
		t->path = TX_URING;
	else if (spec->gso)
		rc = tx_try_gso(t, spec, err);
	else
		t->path = default_tx_path(spec, res);
	/* -F: the file's bytes, each datagram's first bytes replaced by its header. */
	if (rc == 0 && fill_fd >= 0 &&
	    (ws_stream_fill_from_file(t->payload, t->size, fill_fd) < 0 ||
	     (t->gso_buf &&
	      ws_stream_fill_from_file(t->gso_buf, (size_t)t->gso_segs * t->size, fill_fd) < 0)))
		rc = ws_err_errno(err, "cannot read the file that fills the datagrams (-F)");
	if (rc == 0 && t->path == TX_URING)
		rc = ws_udp_uring_tx_open(&t->ur, fd, t->payload, t->size, TX_BATCH, spec->sqpoll,
					  err);
#if WS_UDP_HAVE_MMSG
	for (int i = 0; i < TX_BATCH; i++) {
		t->iov[i][0] = (struct iovec){t->hdrs[i], WS_UDP_HDR_LEN};
		t->iov[i][1] =
			(struct iovec){t->payload + WS_UDP_HDR_LEN, t->size - WS_UDP_HDR_LEN};
		t->msgs[i].msg_hdr = (struct msghdr){.msg_iov = t->iov[i], .msg_iovlen = 2};
	}
#endif
	return rc;
}

static const char *tx_path_name(enum tx_path p)
{
	return p == TX_GSO      ? "sendmsg+UDP_SEGMENT"
		: p == TX_MMSG  ? "sendmmsg"
		: p == TX_URING ? "io_uring"
				: "send";
}

static void tx_refused(udp_tx *t);

/* One call on the current path for up to n datagrams; returns how many left, or -1. */
static int tx_send(udp_tx *t, uint32_t n)
{
	ws_udp_hdr h = {t->seq, t->tag, WS_UDP_DATA};
	t->res->send_syscalls++;
	if (t->path == TX_GSO) {
		uint32_t k = n < t->gso_segs ? n : t->gso_segs;
		for (uint32_t i = 0; i < k; i++, h.seq++)
			ws_udp_hdr_encode(t->gso_buf + (size_t)i * t->size, &h);
		ssize_t r = send(t->fd, t->gso_buf, (size_t)k * t->size, 0);
		return r < 0 ? -1 : (int)k;
	}
	if (t->path == TX_URING) {
		/* a batch of writes, one io_uring_enter; a failure after some went out is
		 * counted here, and the failed datagram is the next call's first */
		uint32_t refused = 0, failed = 0;
		int k = ws_udp_uring_send(t->ur, t->seq, t->tag, n < TX_BATCH ? n : TX_BATCH,
					  &refused, &failed);
		t->res->send_errors += failed;
		for (uint32_t i = 0; i < refused; i++)
			tx_refused(t);
		return k;
	}
#if WS_UDP_HAVE_MMSG
	if (t->path == TX_MMSG) {
		uint32_t k = n < TX_BATCH ? n : TX_BATCH;
		for (uint32_t i = 0; i < k; i++, h.seq++)
			ws_udp_hdr_encode(t->hdrs[i], &h);
		return sendmmsg(t->fd, t->msgs, k, 0);
	}
#endif
	ws_udp_hdr_encode(t->payload, &h);
	return send(t->fd, t->payload, t->size, 0) < 0 ? -1 : 1;
}

/* A refusal (ICMP port unreachable) noted: the receiver may be gone (see GONE_NS). */
static void tx_refused(udp_tx *t)
{
	t->res->send_errors++;
	t->refused = true;
	if (!t->refused_ns)
		t->refused_ns = ws_clock_ns();
}

/* The ICMP errors queued for earlier sends (IP_RECVERR): each refusal counts. */
static void tx_read_errqueue(udp_tx *t)
{
	for (int i = 0; i < 256; i++) {
		uint8_t data[64];
		union {
			struct cmsghdr align;
			char buf[256];
		} ctl;
		struct iovec iov = {.iov_base = data, .iov_len = sizeof(data)};
		struct msghdr m = {.msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = ctl.buf,
				   .msg_controllen = sizeof(ctl.buf)};
		if (recvmsg(t->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (!((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)))
				continue;
			struct sock_extended_err ee;
			if (c->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			if (ee.ee_errno == ECONNREFUSED)
				tx_refused(t);
		}
	}
}

/* Read the receiver's reports; wait up to wait_ms for the first when asked. */
static void tx_read_reports(udp_tx *t, int wait_ms)
{
	if (wait_ms > 0) {
		struct pollfd pfd = {.fd = t->fd, .events = POLLIN};
		if (poll(&pfd, 1, wait_ms) <= 0)
			return;
	}
	uint8_t buf[64];
	for (;;) {
		ssize_t r = recv(t->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECONNREFUSED) /* an ICMP error for an earlier send */
				tx_refused(t);
			tx_read_errqueue(t);
			return;
		}
		ws_udp_hdr h;
		if (ws_udp_hdr_decode(buf, (size_t)r, t->tag, &h) < 0) {
			t->res->bad_dgrams++;
			continue;
		}
		t->refused_ns = 0; /* the receiver is there */
		if (h.kind == WS_UDP_END_ACK) {
			t->end_acked = true;
		} else if (h.kind == WS_UDP_ACK && r >= WS_UDP_ACK_LEN) {
			uint64_t w = ws_get_be64(buf + WS_UDP_HDR_LEN);
			t->window = w < WS_UDP_WINDOW_MIN ? WS_UDP_WINDOW_MIN
				: w > WS_UDP_WINDOW_MAX   ? WS_UDP_WINDOW_MAX
							  : w;
			if (h.seq > t->acked)
				t->acked = h.seq > t->seq ? t->seq : h.seq;
			t->last_report_ns = ws_clock_ns();
		}
	}
}

/* How many datagrams the window lets out now (0: wait for a report). */
static uint32_t tx_window_room(udp_tx *t, int64_t now)
{
	uint64_t ahead = t->seq - t->acked;
	if (ahead > t->window / 2) {
		tx_read_reports(t, 0);
		ahead = t->seq - t->acked;
	}
	if (ahead < t->window)
		return t->window - ahead > TX_BATCH ? TX_BATCH : (uint32_t)(t->window - ahead);
	if (now - t->last_report_ns >= PROBE_NS) {
		/* Reports lost or the receiver is gone: let one batch through, never stall. */
		t->last_report_ns = now;
		return TX_BATCH;
	}
	tx_read_reports(t, 1);
	return 0;
}

/* --pace: how many datagrams the rate allows now, at most want (0: slept until the next
 * one is due, the caller loops). The schedule runs from the role's start, so a late call
 * catches up in batches instead of drifting. */
static uint32_t tx_pace_room(udp_tx *t, int64_t t0, int64_t now, uint32_t want)
{
	double due = (double)(now - t0) * t->pace_dps / (double)WS_NS_PER_SEC + 1.0;
	if ((double)t->seq < due) {
		double room = due - (double)t->seq;
		return room < (double)want ? (uint32_t)room : want;
	}
	int64_t next = t0 + (int64_t)((double)t->seq * (double)WS_NS_PER_SEC / t->pace_dps);
	if (next - now > PACE_SPIN_NS)
		ws_clock_sleep_ns(next - now - PACE_SPIN_NS);
	ws_clock_spin_until(next);
	return 0;
}

/* How many datagrams go out in the next call: netperf's blast by default (reports are
 * read now and then only, for an END_ACK that ends the test early), the receiver's window
 * with --flow-control, and the rate with --pace. */
static uint32_t tx_room(udp_tx *t, const ws_test_spec *spec, int64_t t0, int64_t now)
{
	uint32_t n = TX_BATCH;
	if (spec->udp_flow_control)
		n = tx_window_room(t, now);
	else if (++t->batches % REPORT_EVERY == 0)
		tx_read_reports(t, 0);
	if (n && t->pace_dps > 0)
		n = tx_pace_room(t, t0, now, n);
	return n;
}

/* netperf keeps SO_DONTROUTE for the whole test so that a UDP flood cannot leave the local
 * network. The first datagram has now proven the peer on-link under it; keeping it would
 * cost a route lookup per datagram (a socket with SO_DONTROUTE never uses its connected
 * route cache; about a third of the send rate on loopback), so it is cleared. */
static void tx_route_proven(udp_tx *t)
{
	int zero = 0;
	setsockopt(t->fd, SOL_SOCKET, SO_DONTROUTE, &zero, sizeof(zero));
	t->dontroute_probe = false;
}

/* A failed send: counted and survived, a fallback, or the end of the role. */
static int tx_failed(udp_tx *t, const ws_test_spec *spec, int64_t last_progress, ws_err *err)
{
	int e = errno;
	if (e == EINTR)
		return 0;
	if (e == ECONNREFUSED) {
		tx_refused(t);
		return 0;
	}
	if (e == ENOBUFS) {
		t->res->send_errors++;
		ws_clock_sleep_ns(20000); /* the device queue is full: let it drain */
		return 0;
	}
	if (e == EAGAIN || e == EWOULDBLOCK) {
		if (ws_clock_ns() - last_progress >= WS_UDP_STALL_NS)
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "the UDP sender could not send for %.0f s",
					  (double)WS_UDP_STALL_NS / WS_NS_PER_SEC);
		return 0;
	}
	if (t->path == TX_GSO && (e == EINVAL || e == EOPNOTSUPP || e == EIO)) {
		int zero = 0;
		setsockopt(t->fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof(zero));
		ws_udp_note(t->res, "UDP_SEGMENT send failed (%s); fell back", strerror(e));
		t->path = default_tx_path(spec, t->res);
		return 0;
	}
	if (t->path == TX_MMSG && e == ENOSYS) {
		ws_udp_note(t->res, "%s", "sendmmsg is not supported by this kernel; used send");
		t->path = TX_PLAIN;
		return 0;
	}
	if (t->dontroute_probe && e == ENETUNREACH)
		return ws_err_set(
			err, WS_E_INVAL,
			"the UDP_STREAM peer is not on a directly connected network (SO_DONTROUTE, "
			"netperf's default); add --route to let the datagrams be routed");
	errno = e;
	return ws_err_errno(err, "%s of a %u-byte datagram on the UDP data socket",
			    tx_path_name(t->path), t->size);
}

/* END markers, spaced 1, 2, 4 ... 100 ms, until the receiver confirms or gives up. A
 * netserver knows no END: it ends on an empty datagram, of which netperf sends three. */
static void tx_end(udp_tx *t, const ws_test_spec *spec)
{
	if (spec->netperf_peer) {
		for (int i = 0; i < NETPERF_END_DGRAMS; i++)
			(void)send(t->fd, "", 0, 0);
		return;
	}
	uint8_t buf[WS_UDP_HDR_LEN];
	ws_udp_hdr h = {t->seq, t->tag, WS_UDP_END};
	ws_udp_hdr_encode(buf, &h);
	int64_t start = ws_clock_ns();
	int gap_ms = 1;
	while (!t->end_acked && !t->refused && ws_clock_ns() - start < END_PHASE_NS) {
		send(t->fd, buf, sizeof(buf), MSG_DONTWAIT);
		tx_read_reports(t, gap_ms);
		gap_ms = gap_ms * 2 > 100 ? 100 : gap_ms * 2;
	}
}

int ws_udp_send_role(const ws_test_spec *spec, int fd, int fill_fd, int64_t cap_ns,
		     ws_interim_counter *progress, ws_side_result *res, ws_err *err)
{
	udp_tx *t = calloc(1, sizeof(*t));
	if (!t)
		return ws_err_set(err, ENOMEM, "no memory for the UDP sender");
	t->progress = progress;
	t->lat = spec->call_latency ? res->latency : NULL;
	int rc = tx_setup(t, spec, fd, fill_fd, res, err);
	if (rc == 0 && spec->udp_pace_bps > 0)
		t->pace_dps = spec->udp_pace_bps / 8.0 / (double)t->size;
	int64_t t0 = ws_clock_ns(), now = t0, last = t0;
	int64_t deadline = t0 + ws_test_spec_duration_ns(spec);
	bool by_bytes = spec->end == WS_END_BYTES;
	/* datagrams to send, rounded up without wrapping for a count near 2^64 */
	uint64_t limit = by_bytes && t->size
		? spec->end_count / t->size + (spec->end_count % t->size != 0)
		: 0;
	while (rc == 0) {
		/* END_ACK before the end: the receiver ended the test (its time cap) */
		if ((by_bytes ? t->seq >= limit : now >= deadline) || t->end_acked)
			break;
		if (cap_ns && now >= cap_ns) {
			rc = ws_stream_capped(t0, t->seq * t->size, "sent", err);
			break;
		}
		if (t->refused_ns && now - t->refused_ns >= GONE_NS) {
			/* The control channel carries why (the daemon's result), if it can. */
			t->refused = true;
			ws_udp_note(
				res,
				"the receiver's port refused datagrams for %.0f s with no report: "
				"it is gone; stopped sending",
				(double)GONE_NS / WS_NS_PER_SEC);
			break;
		}
		uint32_t n = tx_room(t, spec, t0, now);
		if (by_bytes && n > limit - t->seq)
			n = (uint32_t)(limit - t->seq);
		int64_t before = t->lat ? ws_clock_ns() : 0;
		int sent = n ? tx_send(t, n) : 0;
		if (n && sent < 0)
			rc = tx_failed(t, spec, last, err);
		now = ws_clock_ns();
		if (t->lat && sent > 0)
			ws_hist_record(t->lat, (uint64_t)(now - before));
		if (sent > 0) {
			t->seq += (uint64_t)sent;
			ws_interim_add(t->progress, (uint64_t)sent * t->size);
			last = now;
			if (t->dontroute_probe)
				tx_route_proven(t);
		}
	}
	res->elapsed_ns = last - t0;
	if (rc == 0)
		tx_end(t, spec);
	res->send_size = t->size;
	res->dgrams_sent = t->seq;
	res->send_calls = t->seq; /* netperf's send calls: one per datagram */
	res->bytes_sent = t->seq * t->size;
	snprintf(res->io_path, sizeof(res->io_path), "%s", tx_path_name(t->path));
	ws_udp_uring_close(t->ur);
	free(t->payload);
	free(t->gso_buf);
	free(t);
	return rc;
}

uint64_t ws_udp_tx_buffer_bytes(const ws_test_spec *spec, uint32_t size)
{
	uint64_t segs = spec->gso ? WS_UDP_MAX_MSG / size : 0;
	if (segs > GSO_MAX_SEGS)
		segs = GSO_MAX_SEGS;
	return (uint64_t)size * (1 + (segs >= 2 ? segs : 0));
}
