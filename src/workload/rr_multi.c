/* rr_multi: the epoll request/response engine for many flows and for open loop; see rr.h
 * for the wire and docs/rr-multi.md for the schedule and its figures.
 *
 * Each worker thread (pool.h) owns the flows i with i % threads == its index, all on one
 * epoll set, non-blocking and level-triggered. A requester flow keeps a ring of the send
 * times of its unresolved requests (oldest first; the ring's size is the outstanding bound),
 * so a response, which TCP returns in order and UDP names by its tag, finds its origin in
 * O(1). In open loop a request's origin is its intended time, computed from its sequence
 * number, so a stall of the responder shows in the latency of every request it delayed
 * (coordinated omission corrected, as wrk2); due flows wait in a per-thread min-heap and
 * the thread sleeps on epoll_pwait2 (ns) or, before Linux 5.11, on a timerfd. A flow that
 * fails is recorded with its reason and the others carry on. */
#include "workload/rr.h"

#include "measure/flowhist.h"
#include "measure/hist.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/pool.h"
#include "workload/sched.h"
#include "workload/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define EVENTS 64
#define CALLS_PER_WAKE 16
#define SCRATCH (64 * 1024)
#define END_MARKERS 3
/* Open loop keeps up to this many requests per flow outstanding (or 1 + burst if more), so
 * a short stall does not turn into sends late by the whole stall. */
#define OPEN_LOOP_OUTSTANDING 64u
/* The rings of all flows together: beyond this, the run is refused (flows x bound). */
#define MAX_RING_BYTES (256u << 20)
#define ANSWERED INT64_MIN

enum phase { PH_RUN, PH_COLLECT, PH_EOF, PH_DONE, PH_FAILED };

struct rflow {
	int fd;
	enum phase phase;
	bool want_out, in_heap, eof;
	uint32_t rx_off;         /* bytes into the current response (requester) / request */
	uint64_t share;          /* counted: this flow's transactions */
	uint64_t issued, head;   /* requests begun; the oldest unresolved one */
	uint64_t pending;        /* requests neither answered nor lost */
	uint64_t done, lost, late;
	uint64_t tx_left;        /* TCP: request (requester) or response (responder) bytes owed */
	int64_t offset, due;     /* open loop: this flow's stagger; intended time of `issued` */
	int64_t last_progress, end_ns;
	uint64_t bytes_sent, bytes_recv, send_calls, recv_calls;
	int64_t *ring;           /* cap send times; ANSWERED marks a UDP hole */
	int error;
	char why[80];
};

struct ctx;

struct rworker {
	struct ctx *c;
	uint32_t id, nmine, nactive;
	int ep;
	ws_sched sched;           /* open loop: flows waiting for their next due time */
	int64_t base;             /* the open-loop schedule's origin */
	int64_t max_lag;
	char *buf;
	ws_hist *lat;
	ws_err err;
};

struct ctx {
	const ws_rr_params *p;
	struct rflow *flows;
	ws_flowhist *fh;          /* requester: one per flow */
	struct rworker *w;
	uint32_t nflows, nthreads, cap, tagn;
	bool client, udp, open, timed, counted;
	double period;            /* open loop: ns between a flow's requests */
	int64_t timeout, tick;
};

/* --- timing ----------------------------------------------------------------------- */

static int64_t intended(const struct rworker *w, const struct rflow *f, uint64_t k)
{
	return w->base + f->offset + (int64_t)((double)k * w->c->period);
}

/* --- flow state ------------------------------------------------------------------- */

static void set_out(struct rworker *w, struct rflow *f, uint32_t i, bool on)
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

static void end_flow(struct rworker *w, struct rflow *f, enum phase ph)
{
	f->phase = ph;
	f->end_ns = ws_clock_ns();
	w->nactive--;
	epoll_ctl(w->ep, EPOLL_CTL_DEL, f->fd, NULL);
}

static void fail(struct rworker *w, struct rflow *f, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail(struct rworker *w, struct rflow *f, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
	f->error = code < 0 ? code : -code;
	end_flow(w, f, PH_FAILED);
}

static bool transient(int e)
{
	return e == EAGAIN || e == EWOULDBLOCK || e == EINTR;
}

static void record(struct rworker *w, uint32_t i, int64_t lat)
{
	uint64_t v = lat > 0 ? (uint64_t)lat : 0;
	ws_hist_record(w->lat, v);
	ws_flowhist_record(&w->c->fh[i], v);
}

/* No more requests: TCP half-closes and waits for the responder's EOF; UDP sends the end
 * marker (a few times, as datagrams may be lost) and is done. */
static void finish_requests(struct rworker *w, struct rflow *f)
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

static void maybe_finish(struct rworker *w, struct rflow *f)
{
	if (f->phase == PH_RUN && w->c->counted && f->done >= f->share)
		f->phase = PH_COLLECT;
	if (f->phase == PH_COLLECT && f->pending == 0 && f->tx_left == 0)
		finish_requests(w, f);
}

/* --- requester: sending ----------------------------------------------------------- */

/* TCP: write what is owed, a bounded number of calls; now is the caller's clock read. */
static void tcp_flush(struct rworker *w, struct rflow *f, uint32_t i, int64_t now)
{
	for (int k = 0; k < CALLS_PER_WAKE && f->tx_left > 0; k++) {
		size_t n = f->tx_left < SCRATCH ? (size_t)f->tx_left : SCRATCH;
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

static bool may_issue(const struct ctx *c, const struct rflow *f, uint64_t extra)
{
	return f->issued + extra - f->head < c->cap && (!c->counted || f->done + f->pending + extra < f->share);
}

/* Stamp and send what may go now: in closed loop all the bound allows, in open loop what
 * is due (late ones at once). One clock read per send call. */
static void pump(struct rworker *w, uint32_t i)
{
	struct ctx *c = w->c;
	struct rflow *f = &c->flows[i];
	if (f->phase != PH_RUN) {
		maybe_finish(w, f);
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
		maybe_finish(w, f);
		return;
	}
	uint64_t m = 0;
	while (may_issue(c, f, m) &&
	       (!c->open || intended(w, f, f->issued + m) <= now) &&
	       (!c->timed || !c->open || intended(w, f, f->issued + m) < c->p->end_ns)) {
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
		if (c->open && now - intended(w, f, seq) > w->max_lag)
			w->max_lag = now - intended(w, f, seq);
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
		if (c->open && now - intended(w, f, f->issued) > w->max_lag)
			w->max_lag = now - intended(w, f, f->issued);
		for (uint64_t k = 0; k < m; k++)
			f->ring[(f->issued + k) % c->cap] = now;
		f->issued += m;
		f->pending += m;
		f->tx_left += m * c->p->spec->req_size;
		tcp_flush(w, f, i, now);
	}
	if (f->phase == PH_RUN && c->open && c->timed && intended(w, f, f->issued) >= c->p->end_ns)
		f->phase = PH_COLLECT;
	if (f->phase == PH_RUN && c->open && !f->in_heap && may_issue(c, f, 0)) {
		f->due = intended(w, f, f->issued);
		if (!c->timed || f->due < c->p->end_ns) {
			ws_sched_push(&w->sched, f->due, i);
			f->in_heap = true;
		}
	}
	maybe_finish(w, f);
}

/* --- requester: receiving --------------------------------------------------------- */

static void tcp_responses(struct rworker *w, uint32_t i)
{
	struct ctx *c = w->c;
	struct rflow *f = &c->flows[i];
	uint32_t rsp = c->p->spec->rsp_size;
	for (int k = 0; k < CALLS_PER_WAKE && f->phase != PH_FAILED && f->phase != PH_DONE; k++) {
		/* never read past the responses owed: extra bytes are the peer's error */
		uint64_t owed = (f->issued - f->head) * rsp - f->rx_off;
		size_t n = owed == 0 ? 1 : owed < SCRATCH ? (size_t)owed : SCRATCH;
		ssize_t r = recv(f->fd, w->buf, n, 0);
		if (r < 0 && transient(errno))
			return;
		if (r < 0) {
			fail(w, f, -errno, "recv: %.70s", strerror(errno));
			return;
		}
		if (r == 0) {
			if (f->phase == PH_EOF && f->rx_off == 0 && owed == 0)
				end_flow(w, f, PH_DONE);
			else
				fail(w, f, -WS_E_PROTO, "the responder closed %u bytes into a %u-byte response to %u-byte requests",
				     f->rx_off, rsp, c->p->spec->req_size);
			return;
		}
		int64_t now = ws_clock_ns();
		if (owed == 0) {
			fail(w, f, -WS_E_PROTO, "the responder sent bytes beyond the %u-byte responses asked for", rsp);
			return;
		}
		f->bytes_recv += (uint64_t)r;
		f->recv_calls++;
		f->last_progress = now;
		uint64_t got = (uint64_t)f->rx_off + (uint64_t)r;
		f->rx_off = (uint32_t)(got % rsp);
		for (uint64_t j = got / rsp; j > 0; j--, f->head++) {
			record(w, i, now - (c->open ? intended(w, f, f->head) : f->ring[f->head % c->cap]));
			f->done++;
			f->pending--;
		}
		pump(w, i);
	}
}

/* The oldest unresolved requests that timed out are lost (then retried by the loop). */
static void udp_expire(struct rworker *w, struct rflow *f, int64_t now)
{
	const struct ctx *c = w->c;
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

static void udp_responses(struct rworker *w, uint32_t i)
{
	struct ctx *c = w->c;
	struct rflow *f = &c->flows[i];
	uint32_t rsp = c->p->spec->rsp_size;
	for (int k = 0; k < CALLS_PER_WAKE && f->phase != PH_FAILED && f->phase != PH_DONE; k++) {
		ssize_t r = recv(f->fd, w->buf, SCRATCH, MSG_TRUNC);
		if (r < 0 && (transient(errno) || errno == ECONNREFUSED))
			return;
		if (r < 0) {
			fail(w, f, -errno, "recv: %.70s", strerror(errno));
			return;
		}
		int64_t now = ws_clock_ns();
		f->recv_calls++;
		if ((uint64_t)r != rsp) {
			fail(w, f, -WS_E_PROTO, "a response of %zd bytes; expected %u", r, rsp);
			return;
		}
		f->bytes_recv += (uint64_t)r;
		uint64_t tag = 0;
		for (uint32_t b = 0; b < c->tagn; b++)
			tag = tag << 8 | (uint8_t)w->buf[b];
		/* the oldest unresolved request whose low bytes are the tag */
		uint64_t mask = c->tagn >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * c->tagn)) - 1;
		uint64_t s = f->head + ((tag - f->head) & mask);
		while (s < f->issued && f->ring[s % c->cap] == ANSWERED && mask != UINT64_MAX && s + mask + 1 > s)
			s += mask + 1;
		if (s >= f->issued || f->ring[s % c->cap] == ANSWERED) {
			f->late++; /* its transaction timed out already */
			continue;
		}
		record(w, i, now - (c->open ? intended(w, f, s) : f->ring[s % c->cap]));
		f->ring[s % c->cap] = ANSWERED;
		f->done++;
		f->pending--;
		f->last_progress = now;
		udp_expire(w, f, now);
		pump(w, i);
	}
}

/* --- responder -------------------------------------------------------------------- */

/* TCP: answer every whole request, responses out before more is read; at EOF (on a request
 * boundary) the last responses go out and the write side closes. */
static void tcp_answer(struct rworker *w, uint32_t i)
{
	struct ctx *c = w->c;
	struct rflow *f = &c->flows[i];
	uint32_t req = c->p->spec->req_size;
	for (int k = 0; k < CALLS_PER_WAKE && f->phase == PH_RUN; k++) {
		if (f->tx_left > 0) {
			tcp_flush(w, f, i, ws_clock_ns());
			if (f->tx_left > 0 || f->phase != PH_RUN)
				return;
		}
		if (f->eof) {
			shutdown(f->fd, SHUT_WR);
			end_flow(w, f, PH_DONE);
			return;
		}
		ssize_t r = recv(f->fd, w->buf, SCRATCH, 0);
		if (r < 0 && transient(errno))
			return;
		if (r < 0) {
			fail(w, f, -errno, "recv: %.70s", strerror(errno));
			return;
		}
		if (r == 0) {
			if (f->rx_off != 0) {
				fail(w, f, -WS_E_PROTO, "the requests ended %u bytes into a %u-byte request", f->rx_off, req);
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
	}
}

/* UDP: echo the tag (the request's first bytes) in a response of rsp_size; a zero-length
 * datagram is the end marker. A response the kernel refuses is dropped: the requester's
 * timeout retries it. */
static void udp_answer(struct rworker *w, uint32_t i)
{
	struct ctx *c = w->c;
	struct rflow *f = &c->flows[i];
	for (int k = 0; k < CALLS_PER_WAKE && f->phase == PH_RUN; k++) {
		ssize_t r = recv(f->fd, w->buf, SCRATCH, MSG_TRUNC);
		if (r < 0 && (transient(errno) || errno == ECONNREFUSED))
			return;
		if (r < 0) {
			fail(w, f, -errno, "recv: %.70s", strerror(errno));
			return;
		}
		f->last_progress = ws_clock_ns();
		f->recv_calls++;
		if (r == 0) {
			end_flow(w, f, PH_DONE);
			return;
		}
		if ((uint64_t)r != c->p->spec->req_size) {
			fail(w, f, -WS_E_PROTO, "a request of %zd bytes; expected %u", r, c->p->spec->req_size);
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

static bool live(const struct rflow *f)
{
	return f->phase == PH_RUN || f->phase == PH_COLLECT || f->phase == PH_EOF;
}

static void requester_checks(struct rworker *w, uint32_t i, int64_t now)
{
	const struct ctx *c = w->c;
	struct rflow *f = &c->flows[i];
	const int64_t stall = c->p->stall_ns;
	if (f->phase == PH_RUN && c->timed && now - c->p->end_ns >= WS_STREAM_END_STALL_NS)
		f->phase = PH_COLLECT; /* open loop, still blocked: the rest of the schedule is dropped */
	if (c->udp && f->phase != PH_EOF) {
		udp_expire(w, f, now);
		if (f->phase == PH_COLLECT && c->timed && now - c->p->end_ns >= WS_STREAM_END_STALL_NS) {
			f->lost += f->pending; /* unanswered at the collection limit */
			f->pending = 0;
		}
		pump(w, i);
	} else if (f->phase == PH_COLLECT && c->timed && now - c->p->end_ns >= WS_STREAM_END_STALL_NS) {
		fail(w, f, -ETIMEDOUT, "%llu responses still outstanding %lld s after the end",
		     (unsigned long long)f->pending, (long long)(WS_STREAM_END_STALL_NS / WS_NS_PER_SEC));
	} else if (f->phase == PH_EOF && now - f->last_progress >= WS_STREAM_END_STALL_NS) {
		fail(w, f, -ETIMEDOUT, "the responder did not close after the requester's half-close");
	}
	if (live(f) && (f->pending > 0 || f->tx_left > 0) && stall > 0 && now - f->last_progress > stall)
		fail(w, f, -ETIMEDOUT, "no response for the stall timeout (%lld ms)", (long long)(stall / WS_NS_PER_MS));
}

static void responder_checks(struct rworker *w, struct rflow *f, int64_t now)
{
	const ws_rr_params *p = w->c->p;
	bool quiet = now - f->last_progress >= WS_STREAM_END_STALL_NS;
	if (p->end_ns > 0 && now >= p->end_ns + WS_STREAM_END_STALL_NS && quiet) {
		if (w->c->udp) /* every end marker was lost: silence ends the flow */
			end_flow(w, f, PH_DONE);
		else
			fail(w, f, -ETIMEDOUT, "the requester neither sent nor closed past the end-of-test stall limit");
	} else if (p->stall_ns > 0 && now - f->last_progress > p->stall_ns) {
		fail(w, f, -ETIMEDOUT, "no request for the stall timeout (%lld ms)", (long long)(p->stall_ns / WS_NS_PER_MS));
	}
}

static void housekeeping(struct rworker *w, int64_t now)
{
	struct ctx *c = w->c;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		struct rflow *f = &c->flows[i];
		if (!live(f))
			continue;
		if (c->p->cap_ns && now >= c->p->cap_ns)
			fail(w, f, -WS_E_LIMIT, "stopped by the time cap");
		else if (c->client)
			requester_checks(w, i, now);
		else
			responder_checks(w, f, now);
	}
}

static void on_event(struct rworker *w, const struct epoll_event *e)
{
	struct ctx *c = w->c;
	uint32_t i = e->data.u32;
	if (!live(&c->flows[i]))
		return; /* ended earlier in this batch */
	if (!c->client) {
		(c->udp ? udp_answer : tcp_answer)(w, i);
		return;
	}
	if (e->events & EPOLLOUT)
		pump(w, i);
	if (live(&c->flows[i]) && (e->events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
		(c->udp ? udp_responses : tcp_responses)(w, i);
}

static void worker_run(void *ctx, ws_pool_thread *t)
{
	struct rworker *w = (struct rworker *)ctx + t->id;
	struct ctx *c = w->c;
	const ws_rr_params *p = c->p;
	w->base = p->start_ns > t->t0 ? p->start_ns : t->t0;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		c->flows[i].last_progress = t->t0;
		if (c->open) /* flows staggered over one period */
			c->flows[i].offset = (int64_t)((double)i * c->period / c->nflows);
	}
	if (c->client)
		for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
			pump(w, i);
	struct epoll_event ev[EVENTS];
	int64_t next_tick = t->t0 + c->tick;
	bool ended = false;
	while (w->nactive > 0) {
		int64_t deadline = ws_sched_next(&w->sched, next_tick);
		if (c->client && c->timed && !ended && p->end_ns < deadline)
			deadline = p->end_ns;
		int n = ws_sched_wait(&w->sched, ev, EVENTS, deadline);
		for (int k = 0; k < n; k++)
			on_event(w, &ev[k]);
		int64_t now = ws_clock_ns();
		while (ws_sched_due(&w->sched, now)) {
			uint32_t i = ws_sched_pop(&w->sched);
			c->flows[i].in_heap = false;
			pump(w, i);
		}
		if (c->client && c->timed && !ended && now >= p->end_ns) {
			ended = true; /* stop issuing; collect what is outstanding */
			for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
				pump(w, i);
		}
		if (now >= next_tick) {
			housekeeping(w, now);
			next_tick = now + c->tick;
		}
	}
}

static void worker_setup(void *ctx, ws_pool_thread *t)
{
	struct rworker *w = (struct rworker *)ctx + t->id;
	struct ctx *c = w->c;
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	w->buf = malloc(SCRATCH);
	w->lat = c->client ? malloc(sizeof(*w->lat)) : NULL;
	if (w->ep < 0 || !w->buf || (c->client && !w->lat)) {
		ws_err_set(&t->err, ENOMEM, "worker %u could not start", w->id);
		return;
	}
	memset(w->buf, 0x5a, SCRATCH);
	if (w->lat)
		ws_hist_init(w->lat);
	if (ws_sched_init(&w->sched, w->ep, c->nflows / c->nthreads + 1, &t->err) < 0)
		return;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		int fd = c->flows[i].fd;
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
		if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 || epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
			ws_err_errno(&t->err, "flow %u (fd %d) cannot join epoll", i, fd);
			return;
		}
		w->nmine++;
	}
	w->nactive = w->nmine;
}

static void worker_teardown(void *ctx, ws_pool_thread *t)
{
	struct rworker *w = (struct rworker *)ctx + t->id;
	if (w->ep >= 0)
		close(w->ep);
	ws_sched_free(&w->sched);
	free(w->buf);
}

static const ws_pool_ops rr_ops = {worker_setup, worker_run, worker_teardown};

/* --- the run ---------------------------------------------------------------------- */

/* Open loop, timed: requests k >= 0 with intended time before the end. */
static uint64_t scheduled(const struct rworker *w, const struct rflow *f, int64_t end)
{
	int64_t span = end - (w->base + f->offset);
	if (span <= 0)
		return 0;
	uint64_t n = (uint64_t)((double)span / w->c->period);
	while (intended(w, f, n) < end)
		n++;
	while (n > 0 && intended(w, f, n - 1) >= end)
		n--;
	return n;
}

static void collect(const struct ctx *c, const ws_pool_thread *th, int64_t t0, ws_side_result *res)
{
	int64_t last = t0;
	for (uint32_t i = 0; i < c->nflows; i++) {
		const struct rflow *f = &c->flows[i];
		const struct rworker *w = &c->w[i % c->nthreads];
		ws_flow_result *fr = &res->flows[i];
		int64_t end = f->end_ns ? f->end_ns : ws_clock_ns();
		last = end > last ? end : last;
		*fr = (ws_flow_result){.bytes = f->bytes_sent + f->bytes_recv, .calls = f->send_calls + f->recv_calls,
				       .elapsed_ns = end - t0, .thread = i % c->nthreads,
				       .error = f->phase == PH_FAILED ? f->error : 0,
				       .transactions = f->done, .trans_lost = f->lost};
		snprintf(fr->why, sizeof(fr->why), "%s", f->phase == PH_FAILED ? f->why : "");
		if (c->client) {
			fr->lat_p50_ns = ws_flowhist_percentile(&c->fh[i], 50);
			fr->lat_p99_ns = ws_flowhist_percentile(&c->fh[i], 99);
			if (c->open)
				res->trans_scheduled += c->counted ? f->share : scheduled(w, f, c->p->end_ns);
		}
		res->bytes_sent += f->bytes_sent;
		res->bytes_recv += f->bytes_recv;
		res->send_calls += f->send_calls;
		res->recv_calls += f->recv_calls;
		res->transactions += f->done;
		res->trans_lost += f->lost;
		res->late_replies += f->late;
	}
	for (uint32_t t = 0; t < c->nthreads; t++) {
		res->threads[t] = (ws_thread_result){.user_ns = th[t].user_ns, .sys_ns = th[t].sys_ns,
						     .cpu = th[t].cpu, .flows = c->w[t].nmine};
		res->thread_user_ns += th[t].user_ns;
		res->thread_sys_ns += th[t].sys_ns;
		if (c->w[t].max_lag > res->max_lag_ns)
			res->max_lag_ns = c->w[t].max_lag;
		if (res->latency && c->w[t].lat)
			ws_hist_merge(res->latency, c->w[t].lat, NULL);
	}
	res->elapsed_ns = last - t0;
	res->send_size = c->client ? c->p->spec->req_size : c->p->spec->rsp_size;
	res->recv_size = c->client ? c->p->spec->rsp_size : c->p->spec->req_size;
	snprintf(res->io_path, sizeof(res->io_path), "epoll");
}

/* The shape of the run, from the spec; refuses what it cannot bound. */
static int plan(struct ctx *c, const ws_rr_params *p, ws_err *err)
{
	const ws_test_spec *s = p->spec;
	if (p->nfds == 0 || !p->fds)
		return ws_err_set(err, WS_E_INVAL, "no data sockets for the request/response flows");
	c->p = p;
	c->nflows = p->nfds;
	c->nthreads = p->threads == 0 ? 1 : p->threads > p->nfds ? p->nfds : p->threads;
	c->client = p->is_client;
	c->udp = p->udp;
	c->open = s->rate > 0;
	c->counted = s->end == WS_END_TRANSACTIONS;
	c->timed = !c->counted;
	if (c->client && c->timed && p->end_ns <= 0)
		return ws_err_set(err, WS_E_INVAL, "a timed request/response run needs its end time");
	c->period = c->open ? 1e9 / s->rate : 0;
	c->cap = 1 + s->burst;
	if (c->open && c->cap < OPEN_LOOP_OUTSTANDING)
		c->cap = OPEN_LOOP_OUTSTANDING;
	c->timeout = s->rr_timeout_ns > 0 ? s->rr_timeout_ns : WS_RR_DEFAULT_TIMEOUT_NS;
	c->tick = 100 * WS_NS_PER_MS;
	if (c->udp && c->client) /* loss is noticed within a quarter of the timeout */
		c->tick = c->timeout / 4 < WS_NS_PER_MS ? WS_NS_PER_MS : c->timeout / 4 < c->tick ? c->timeout / 4 : c->tick;
	c->tagn = s->req_size < s->rsp_size ? s->req_size : s->rsp_size;
	if (c->tagn > 8)
		c->tagn = 8;
	if (c->client && (uint64_t)c->nflows * c->cap * sizeof(int64_t) > MAX_RING_BYTES)
		return ws_err_set(err, WS_E_INVAL,
				  "%u flows with %u requests outstanding each need %llu MiB of send times; at most %u MiB: use fewer flows or a smaller burst",
				  c->nflows, c->cap, (unsigned long long)((uint64_t)c->nflows * c->cap * 8 >> 20), MAX_RING_BYTES >> 20);
	return 0;
}

static int verdict(const struct ctx *c, int64_t t0, const ws_side_result *res, ws_err *err)
{
	uint32_t done = 0, first_failed = 0;
	bool capped = false, any_failed = false;
	for (uint32_t i = 0; i < c->nflows; i++) {
		const struct rflow *f = &c->flows[i];
		done += f->phase == PH_DONE;
		capped |= f->phase == PH_FAILED && f->error == -WS_E_LIMIT;
		if (f->phase == PH_FAILED && !any_failed) {
			any_failed = true;
			first_failed = i;
		}
	}
	if (capped)
		return ws_stream_capped(t0, res->bytes_recv, "received", err);
	if (done == 0)
		return ws_err_set(err, EIO, "every one of the %u flows failed; the first (flow %u): %s", c->nflows,
				  first_failed, c->flows[first_failed].why);
	return 0;
}

int ws_rr_multi_run(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	struct ctx c = {0};
	int rc = plan(&c, p, err);
	if (rc < 0)
		return rc;
	c.flows = calloc(c.nflows, sizeof(*c.flows));
	c.w = calloc(c.nthreads, sizeof(*c.w));
	ws_pool_thread *th = calloc(c.nthreads, sizeof(*th));
	int64_t *rings = c.client ? calloc((size_t)c.nflows * c.cap, sizeof(*rings)) : NULL;
	c.fh = c.client ? malloc(c.nflows * sizeof(*c.fh)) : NULL;
	res->flows = calloc(c.nflows, sizeof(*res->flows));
	res->threads = calloc(c.nthreads, sizeof(*res->threads));
	res->latency = c.client ? malloc(sizeof(*res->latency)) : NULL;
	if (!c.flows || !c.w || !th || !res->flows || !res->threads ||
	    (c.client && (!rings || !c.fh || !res->latency))) {
		rc = ws_err_set(err, ENOMEM, "no memory for %u request/response flows", c.nflows);
		ws_side_result_free(res);
		res->latency = NULL; /* ws_side_result_free leaves it dangling */
		goto out;
	}
	res->nflows = c.nflows;
	res->nthreads = c.nthreads;
	if (res->latency)
		ws_hist_init(res->latency);
	for (uint32_t i = 0; i < c.nflows; i++) {
		struct rflow *f = &c.flows[i];
		f->fd = p->fds[i];
		f->share = p->end_count / c.nflows + (i < p->end_count % c.nflows ? 1 : 0);
		f->ring = rings ? rings + (size_t)i * c.cap : NULL;
		if (c.fh)
			ws_flowhist_init(&c.fh[i]);
	}
	for (uint32_t t = 0; t < c.nthreads; t++)
		c.w[t] = (struct rworker){.c = &c, .id = t, .ep = -1, .sched = {.tfd = -1}};
	uint32_t started;
	int64_t t0;
	rc = ws_pool_run(c.nthreads, p->cpus, p->ncpus, &rr_ops, c.w, th, &started, &t0, err);
	if (started == c.nthreads)
		collect(&c, th, t0, res);
	if (rc == 0)
		rc = verdict(&c, t0, res, err);
out:
	for (uint32_t t = 0; c.w && t < c.nthreads; t++)
		free(c.w[t].lat);
	free(c.flows);
	free(c.w);
	free(th);
	free(rings);
	free(c.fh);
	return rc;
}
