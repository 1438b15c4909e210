/* SPDX-License-Identifier: BSD-2-Clause */
/* rr_flow: the requester and responder of one flow of the epoll RR engine; see rr_flow.h,
 * rr.h for the wire, and docs/rr-multi.md for the open-loop schedule.
 *
 * A requester keeps a ring of the send times of its unresolved requests, oldest first (the
 * ring's size is the outstanding bound), so a response, which TCP returns in order and UDP
 * names by its tag, finds its origin in O(1); in open loop the origin is the request's
 * intended time, computed from its sequence number. One clock read per send call and one
 * per receive call. */
#include "workload/rr_flow.h"

#include "measure/interim.h"
#include "util/clock.h"
#include "workload/stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define CALLS_PER_WAKE 16 /* per flow and wake-up, so one busy flow cannot starve the rest */
#define END_MARKERS    3  /* UDP: zero-length datagrams sent at the end (any may be lost) */
#define ANSWERED       INT64_MIN

/* --- flow state ------------------------------------------------------------------- */

static void set_out(struct ws_rr_worker *w, struct ws_rr_flow *f, uint32_t i, bool on)
{
	if (f->want_out == on)
		return;
	f->want_out = on;
	/* a requester keeps reading while its write waits (else both ends could block on a
	 * full buffer); a responder stops reading until its responses are out (backpressure) */
	uint32_t out = w->c->client ? EPOLLIN | EPOLLOUT : EPOLLOUT;
	struct epoll_event ev = {.events = on ? out : EPOLLIN, .data.u32 = i};
	epoll_ctl(w->ep, EPOLL_CTL_MOD, f->fd, &ev);
}

static void end_flow(struct ws_rr_worker *w, struct ws_rr_flow *f, enum ws_rr_phase ph)
{
	f->phase = ph;
	f->end_ns = ws_clock_ns();
	w->nactive--;
	epoll_ctl(w->ep, EPOLL_CTL_DEL, f->fd, NULL);
}

static void fail(struct ws_rr_worker *w, struct ws_rr_flow *f, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail(struct ws_rr_worker *w, struct ws_rr_flow *f, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
	f->error = code < 0 ? code : -code;
	end_flow(w, f, PH_FAILED);
}

static bool transient(int e) { return e == EAGAIN || e == EWOULDBLOCK || e == EINTR; }

/* recv on a flow: the byte count, or -1 when there is nothing now or the flow failed (an
 * ICMP refusal on UDP is a lost datagram, not an error: the timeout deals with it). */
static ssize_t flow_recv(struct ws_rr_worker *w, struct ws_rr_flow *f, size_t n, int flags)
{
	ssize_t r = recv(f->fd, w->buf, n, flags);
	if (r < 0 && !transient(errno) && !(w->c->udp && errno == ECONNREFUSED))
		fail(w, f, -errno, "recv: %.70s", strerror(errno));
	return r;
}

static void record(struct ws_rr_worker *w, uint32_t i, int64_t lat)
{
	uint64_t v = lat > 0 ? (uint64_t)lat : 0;
	ws_hist_record(w->lat, v);
	ws_flowhist_record(&w->c->fh[i], v);
}

/* No more requests: TCP half-closes and waits for the responder's EOF; UDP sends the end
 * marker (a few times, as datagrams may be lost) and is done. */
static void finish_requests(struct ws_rr_worker *w, struct ws_rr_flow *f)
{
	if (!w->c->udp) {
		if (shutdown(f->fd, SHUT_WR) < 0) {
			fail(w, f, -errno, "could not half-close: %.60s", strerror(errno));
			return;
		}
		f->phase = PH_EOF;
		f->last_progress = ws_clock_ns();
		return;
	}
	for (int k = 0; k < END_MARKERS; k++)
		send(f->fd, w->buf, 0, 0);
	end_flow(w, f, PH_DONE);
}

void ws_rr_maybe_finish(struct ws_rr_worker *w, struct ws_rr_flow *f)
{
	if (f->phase == PH_RUN && w->c->counted && f->done >= f->share)
		f->phase = PH_COLLECT;
	if (f->phase == PH_COLLECT && f->pending == 0 && f->tx_left == 0)
		finish_requests(w, f);
}

/* --- requester: sending ----------------------------------------------------------- */

/* TCP: write what is owed, a bounded number of calls; now is the caller's clock read. */
static void tcp_flush(struct ws_rr_worker *w, struct ws_rr_flow *f, uint32_t i, int64_t now)
{
	for (int k = 0; k < CALLS_PER_WAKE && f->tx_left > 0; k++) {
		size_t n = f->tx_left < WS_RR_SCRATCH ? (size_t)f->tx_left : WS_RR_SCRATCH;
		ssize_t r = send(f->fd, w->buf, n, MSG_NOSIGNAL);
		if (r > 0) {
			f->tx_left -= (uint64_t)r;
			f->bytes_sent += (uint64_t)r;
			f->send_calls++;
			f->last_progress = now;
			continue;
		}
		if (r < 0 && transient(errno))
			break;
		fail(w, f, -errno, "send: %.70s", strerror(errno));
		return;
	}
	set_out(w, f, i, f->tx_left > 0);
}

bool ws_rr_may_issue(const struct ws_rr_ctx *c, const struct ws_rr_flow *f, uint64_t extra)
{
	return f->issued + extra - f->head < c->cap &&
		(!c->counted || f->done + f->pending + extra < f->share);
}

/* Stamp and send what may go now: in closed loop all the bound allows, in open loop what
 * is due (late ones at once). One clock read per send call. */
void ws_rr_pump(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	if (w->ur) { /* the io_uring engine sends through its ring */
		ws_rr_uring_pump(w, i);
		return;
	}
	if (f->phase != PH_RUN) {
		ws_rr_maybe_finish(w, f);
		return;
	}
	int64_t now = ws_clock_ns();
	if (!c->udp && f->tx_left > 0) {
		tcp_flush(w, f, i, now);
		if (f->tx_left > 0 || f->phase != PH_RUN)
			return;
	}
	/* Closed loop stops at the end; open loop sends, late if need be, every request the
	 * schedule called for before the end (trans_scheduled). */
	if (c->timed && !c->open && now >= c->p->end_ns) {
		f->phase = PH_COLLECT;
		ws_rr_maybe_finish(w, f);
		return;
	}
	uint64_t m = 0;
	while (ws_rr_may_issue(c, f, m) &&
	       (!c->open || ws_rr_intended(w, f, f->issued + m) <= now) &&
	       (!c->timed || !c->open || ws_rr_intended(w, f, f->issued + m) < c->p->end_ns)) {
		if (!c->udp) {
			m++;
			continue;
		}
		uint64_t seq = f->issued;
		for (uint32_t b = 0; b < c->tagn; b++) /* the low tagn bytes, big-endian */
			w->buf[b] = (char)(seq >> (8 * (c->tagn - 1 - b)));
		ssize_t r = send(f->fd, w->buf, c->p->spec->req_size, 0);
		if (r < 0 && (transient(errno) || errno == ENOBUFS)) {
			/* a full buffer says when it drains; ENOBUFS does not: the next tick retries */
			set_out(w, f, i, errno != ENOBUFS);
			return;
		}
		if (r < 0 && errno != ECONNREFUSED) { /* refused: the request is lost, times out */
			fail(w, f, -errno, "send: %.70s", strerror(errno));
			return;
		}
		set_out(w, f, i, false);
		if (c->open && now - ws_rr_intended(w, f, seq) > w->max_lag)
			w->max_lag = now - ws_rr_intended(w, f, seq);
		f->ring[seq % c->cap] = now;
		f->issued++;
		f->pending++;
		f->send_calls++;
		f->bytes_sent += r > 0 ? (uint64_t)r : 0;
		now = ws_clock_ns();
		if (c->timed && !c->open && now >= c->p->end_ns)
			break;
	}
	if (m > 0) { /* TCP: m requests in one write, all stamped with its time */
		if (c->open && now - ws_rr_intended(w, f, f->issued) > w->max_lag)
			w->max_lag = now - ws_rr_intended(w, f, f->issued);
		for (uint64_t k = 0; k < m; k++)
			f->ring[(f->issued + k) % c->cap] = now;
		f->issued += m;
		f->pending += m;
		f->tx_left += m * c->p->spec->req_size;
		tcp_flush(w, f, i, now);
	}
	if (f->phase == PH_RUN && c->open && c->timed &&
	    ws_rr_intended(w, f, f->issued) >= c->p->end_ns)
		f->phase = PH_COLLECT;
	if (f->phase == PH_RUN && c->open && !f->in_heap && ws_rr_may_issue(c, f, 0)) {
		f->due = ws_rr_intended(w, f, f->issued);
		if (!c->timed || f->due < c->p->end_ns) {
			ws_sched_push(&w->sched, f->due, i);
			f->in_heap = true;
		}
	}
	ws_rr_maybe_finish(w, f);
}

/* --- requester: receiving --------------------------------------------------------- */

static void tcp_responses(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	uint32_t rsp = c->p->spec->rsp_size;
	for (int k = 0; k < CALLS_PER_WAKE && f->phase != PH_FAILED && f->phase != PH_DONE; k++) {
		/* never read past the responses owed: extra bytes are the peer's error */
		uint64_t owed = (f->issued - f->head) * rsp - f->rx_off;
		size_t n = owed == 0 ? 1 : owed < WS_RR_SCRATCH ? (size_t)owed : WS_RR_SCRATCH;
		ssize_t r = flow_recv(w, f, n, 0);
		if (r < 0)
			return;
		if (r == 0) {
			if (f->phase == PH_EOF && f->rx_off == 0 && owed == 0)
				end_flow(w, f, PH_DONE);
			else
				fail(w, f, -WS_E_PROTO,
				     "the responder closed %u bytes into a %u-byte response to "
				     "%u-byte requests",
				     f->rx_off, rsp, c->p->spec->req_size);
			return;
		}
		int64_t now = ws_clock_ns();
		if (owed == 0) {
			fail(w, f, -WS_E_PROTO,
			     "the responder sent bytes beyond the %u-byte responses asked for",
			     rsp);
			return;
		}
		f->bytes_recv += (uint64_t)r;
		f->recv_calls++;
		f->last_progress = now;
		uint64_t got = (uint64_t)f->rx_off + (uint64_t)r;
		f->rx_off = (uint32_t)(got % rsp);
		for (uint64_t j = got / rsp; j > 0; j--, f->head++) {
			record(w, i,
			       now -
				       (c->open ? ws_rr_intended(w, f, f->head)
						: f->ring[f->head % c->cap]));
			f->done++;
			ws_interim_add(ws_interim_at(c->p->progress, i), 1);
			f->pending--;
		}
		ws_rr_pump(w, i);
		/* A short read drained the socket, and a read of all that was owed leaves only the
		 * requests just sent, whose answers cannot be there yet: either way another recv
		 * would be an EAGAIN, and the level-triggered epoll says when there is more. */
		if ((size_t)r < n || (uint64_t)r == owed)
			return;
	}
}

/* The oldest unresolved requests that timed out are lost (then retried by the loop). */
static void udp_expire(struct ws_rr_worker *w, struct ws_rr_flow *f, int64_t now)
{
	const struct ws_rr_ctx *c = w->c;
	while (f->head < f->issued) {
		int64_t t = f->ring[f->head % c->cap];
		if (t != ANSWERED && now - t < c->timeout)
			break;
		if (t != ANSWERED) {
			f->lost++;
			f->pending--;
		}
		f->head++;
	}
}

int ws_rr_udp_response(struct ws_rr_worker *w, uint32_t i, const char *buf, uint64_t len,
		       int64_t now)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	uint32_t rsp = c->p->spec->rsp_size;
	f->recv_calls++;
	if (len != rsp) {
		fail(w, f, -WS_E_PROTO, "a response of %llu bytes; expected %u",
		     (unsigned long long)len, rsp);
		return -1;
	}
	f->bytes_recv += len;
	uint64_t tag = 0;
	for (uint32_t b = 0; b < c->tagn; b++)
		tag = tag << 8 | (uint8_t)buf[b];
	/* the oldest unresolved request whose low bytes are the tag */
	uint64_t mask = c->tagn >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * c->tagn)) - 1;
	uint64_t s = f->head + ((tag - f->head) & mask);
	while (s < f->issued && f->ring[s % c->cap] == ANSWERED && mask != UINT64_MAX &&
	       s + mask + 1 > s)
		s += mask + 1;
	if (s < f->head || s >= f->issued || f->ring[s % c->cap] == ANSWERED) {
		f->late++; /* its transaction timed out already */
		return 0;
	}
	record(w, i, now - (c->open ? ws_rr_intended(w, f, s) : f->ring[s % c->cap]));
	f->ring[s % c->cap] = ANSWERED;
	f->done++;
	ws_interim_add(ws_interim_at(c->p->progress, i), 1);
	f->pending--;
	f->last_progress = now;
	udp_expire(w, f, now);
	return 1;
}

static void udp_responses(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	for (int k = 0; k < CALLS_PER_WAKE && f->phase != PH_FAILED && f->phase != PH_DONE; k++) {
		ssize_t r = flow_recv(w, f, WS_RR_SCRATCH, MSG_TRUNC);
		if (r < 0)
			return;
		int got = ws_rr_udp_response(w, i, w->buf, (uint64_t)r, ws_clock_ns());
		if (got < 0)
			return;
		if (got == 0)
			continue;
		bool others = f->pending > 0;
		ws_rr_pump(w, i);
		if (!others) /* only requests sent just now are out: no reply can be queued yet */
			return;
	}
}

/* --- responder -------------------------------------------------------------------- */

/* TCP: answer every whole request, responses out before more is read; at EOF (on a request
 * boundary) the last responses go out and the write side closes. */
static void tcp_answer(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	uint32_t req = c->p->spec->req_size;
	for (int k = 0; k < CALLS_PER_WAKE && f->phase == PH_RUN; k++) {
		if (f->tx_left > 0) { /* responses a full send buffer held back */
			tcp_flush(w, f, i, ws_clock_ns());
			if (f->tx_left > 0 || f->phase != PH_RUN)
				return;
		}
		if (f->eof) {
			shutdown(f->fd, SHUT_WR);
			end_flow(w, f, PH_DONE);
			return;
		}
		ssize_t r = flow_recv(w, f, WS_RR_SCRATCH, 0);
		if (r < 0)
			return;
		if (r == 0) {
			if (f->rx_off != 0) {
				fail(w, f, -WS_E_PROTO,
				     "the requests ended %u bytes into a %u-byte request",
				     f->rx_off, req);
				return;
			}
			f->eof = true;
			continue;
		}
		f->last_progress = ws_clock_ns();
		f->bytes_recv += (uint64_t)r;
		f->recv_calls++;
		uint64_t got = (uint64_t)f->rx_off + (uint64_t)r;
		f->rx_off = (uint32_t)(got % req);
		f->done += got / req;
		f->tx_left += got / req * c->p->spec->rsp_size;
		/* answer at once: the requester waits for these, and no event would come for them
		 * if this call ended here with them unsent */
		tcp_flush(w, f, i, f->last_progress);
		if ((size_t)r < WS_RR_SCRATCH && f->tx_left == 0)
			return; /* drained (a short read): epoll reports what comes next, or the EOF */
	}
}

/* UDP: echo the tag (the request's first bytes) in a response of rsp_size; a zero-length
 * datagram is the end marker. A response the kernel refuses is dropped: the requester's
 * timeout retries it. */
static void udp_answer(struct ws_rr_worker *w, uint32_t i)
{
	struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	for (int k = 0; k < CALLS_PER_WAKE && f->phase == PH_RUN; k++) {
		ssize_t r = flow_recv(w, f, WS_RR_SCRATCH, MSG_TRUNC);
		if (r < 0)
			return;
		f->last_progress = ws_clock_ns();
		f->recv_calls++;
		if (r == 0) {
			end_flow(w, f, PH_DONE);
			return;
		}
		if ((uint64_t)r != c->p->spec->req_size) {
			fail(w, f, -WS_E_PROTO, "a request of %zd bytes; expected %u", r,
			     c->p->spec->req_size);
			return;
		}
		f->bytes_recv += (uint64_t)r;
		ssize_t s = send(f->fd, w->buf, c->p->spec->rsp_size, 0);
		if (s < 0 && !transient(errno) && errno != ENOBUFS && errno != ECONNREFUSED) {
			fail(w, f, -errno, "send: %.70s", strerror(errno));
			return;
		}
		if (s > 0) {
			f->bytes_sent += (uint64_t)s;
			f->send_calls++;
			f->done++;
		}
	}
}

/* --- the worker loop -------------------------------------------------------------- */

static void requester_checks(struct ws_rr_worker *w, uint32_t i, int64_t now)
{
	const struct ws_rr_ctx *c = w->c;
	struct ws_rr_flow *f = &c->flows[i];
	const int64_t stall = c->p->stall_ns;
	if (f->phase == PH_RUN && c->timed && now - c->p->end_ns >= WS_STREAM_END_STALL_NS)
		f->phase =
			PH_COLLECT; /* open loop, still blocked: the rest of the schedule is dropped */
	if (c->udp && f->phase != PH_EOF) {
		udp_expire(w, f, now);
		if (f->phase == PH_COLLECT && c->timed &&
		    now - c->p->end_ns >= WS_STREAM_END_STALL_NS) {
			f->lost += f->pending; /* unanswered at the collection limit */
			f->pending = 0;
		}
		ws_rr_pump(w, i);
	} else if (f->phase == PH_COLLECT && c->timed &&
		   now - c->p->end_ns >= WS_STREAM_END_STALL_NS) {
		fail(w, f, -ETIMEDOUT, "%llu responses still outstanding %lld s after the end",
		     (unsigned long long)f->pending,
		     (long long)(WS_STREAM_END_STALL_NS / WS_NS_PER_SEC));
	} else if (f->phase == PH_EOF && now - f->last_progress >= WS_STREAM_END_STALL_NS) {
		fail(w, f, -ETIMEDOUT,
		     "the responder did not close after the requester's half-close");
	}
	if (ws_rr_live(f) && (f->pending > 0 || f->tx_left > 0) && stall > 0 &&
	    now - f->last_progress > stall)
		fail(w, f, -ETIMEDOUT, "no response for the stall timeout (%lld ms)",
		     (long long)(stall / WS_NS_PER_MS));
}

static void responder_checks(struct ws_rr_worker *w, struct ws_rr_flow *f, int64_t now)
{
	const ws_rr_params *p = w->c->p;
	bool quiet = now - f->last_progress >= WS_STREAM_END_STALL_NS;
	if (p->end_ns > 0 && now >= p->end_ns + WS_STREAM_END_STALL_NS && quiet) {
		if (w->c->udp) /* every end marker was lost: silence ends the flow */
			end_flow(w, f, PH_DONE);
		else
			fail(w, f, -ETIMEDOUT,
			     "the requester neither sent nor closed past the end-of-test stall "
			     "limit");
	} else if (p->stall_ns > 0 && now - f->last_progress > p->stall_ns) {
		fail(w, f, -ETIMEDOUT, "no request for the stall timeout (%lld ms)",
		     (long long)(p->stall_ns / WS_NS_PER_MS));
	}
}

void ws_rr_housekeeping(struct ws_rr_worker *w, int64_t now)
{
	struct ws_rr_ctx *c = w->c;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		struct ws_rr_flow *f = &c->flows[i];
		if (!ws_rr_live(f))
			continue;
		if (c->p->cap_ns && now >= c->p->cap_ns)
			fail(w, f, -WS_E_LIMIT, "stopped by the time cap");
		else if (c->client)
			requester_checks(w, i, now);
		else
			responder_checks(w, f, now);
	}
}

void ws_rr_on_event(struct ws_rr_worker *w, const struct epoll_event *e)
{
	struct ws_rr_ctx *c = w->c;
	uint32_t i = e->data.u32;
	if (!ws_rr_live(&c->flows[i]))
		return; /* ended earlier in this batch */
	if (!c->client) {
		(c->udp ? udp_answer : tcp_answer)(w, i);
		return;
	}
	if (e->events & EPOLLOUT)
		ws_rr_pump(w, i);
	if (ws_rr_live(&c->flows[i]) && (e->events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
		(c->udp ? udp_responses : tcp_responses)(w, i);
}
