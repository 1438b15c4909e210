/* SPDX-License-Identifier: BSD-2-Clause */
/* rr: the single-flow, closed-loop request/response engine (TCP_RR, UDP_RR), both roles,
 * on blocking sockets; see rr.h for the wire conventions.
 *
 * One flow in closed loop is a send and a receive per transaction, which is what netperf
 * does and the fastest path there is: no poll, no epoll, the socket timeouts (set by
 * workload/run.c, or here for UDP_RR's loss timeout) wake a blocked call to check the
 * stall and cap rules. The requester reads the monotonic clock exactly once per send and
 * once per complete response, and nothing else on the hot path (the issue's budget is
 * under 2% of trans/s for the clock; there is deliberately no knob to add reads). The
 * responder reads no clock per transaction: it notices progress by its counters when a
 * timeout wakes it, and checks the cap every 1024 transactions. With a first burst the
 * send times sit in a fixed table of 1 + burst slots allocated before the loop. */
#include "workload/rr.h"

#include "measure/hist.h"
#include "measure/interim.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

/* The responder checks the cap and the end-of-test rule once per this many transactions. */
#define CHECK_EVERY 1024u
/* UDP_RR's requester wakes at least this often to check the stall rule. */
#define UDP_TICK_NS WS_NS_PER_SEC
/* A spinning receive (--busy-poll) checks the stall and cap rules once per this many empty
 * receives (a few milliseconds), as a blocking one does when its timeout wakes it. */
#define SPIN_CHECK_EVERY 4096u
/* Zero-length end markers sent at the end of UDP_RR (each may be lost). */
#define END_MARKERS 3

/* One outstanding UDP_RR transaction: its tag's sequence number and send time. TCP_RR
 * uses only sent (responses come back in order). */
typedef struct rr_slot {
	uint64_t seq;
	int64_t sent;
	bool busy;
} rr_slot;

/* The state of one role: the buffers, the counters and the rules' clocks. */
typedef struct rr_run {
	const ws_rr_params *p;
	const ws_test_spec *s;
	int fd;
	unsigned char *req, *rsp; /* the request and the response buffer */
	uint64_t issued, done;    /* requests sent, transactions completed */
	int64_t t0, last;         /* the role's start, the last progress */
	/* --busy-poll: a receive asks again at once for up to spin_ns (0: without a limit)
	 * before it sleeps; spin_t0 is when the current wait began (0: not waiting), spent
	 * that it has used its budget and now sleeps. */
	bool spin, spent;
	int64_t spin_ns, spin_t0;
	uint32_t spins; /* empty receives while spinning */
	uint64_t seen;  /* bytes moved when `last` was last updated on a wake-up */
	ws_side_result *res;
} rr_run;

static unsigned char *alloc_buffers(const ws_test_spec *s)
{
	size_t n = (size_t)s->req_size + s->rsp_size;
	unsigned char *b = NULL;
	if (posix_memalign((void **)&b, 64, n) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) /* a pattern, not zeros, as the stream engine */
		b[i] = (unsigned char)(i * 131u + 7u);
	return b;
}

void ws_rr_fill(const ws_rr_params *p, void *buf, size_t n)
{
	if (!p->fill || !p->fill_len)
		return;
	for (size_t at = 0; at < n; at += p->fill_len)
		memcpy((char *)buf + at, p->fill, n - at < p->fill_len ? n - at : p->fill_len);
}

/* The requester issues another request: not past the deadline, not beyond the count. */
static bool may_issue(const rr_run *r, int64_t now, uint64_t in_flight)
{
	if (r->p->end_count)
		return r->done + in_flight < r->p->end_count;
	return now < r->p->end_ns;
}

/* The flags of the next receive: MSG_DONTWAIT while --busy-poll spins. */
static int recv_flags(const rr_run *r) { return r->spin && !r->spent ? MSG_DONTWAIT : 0; }

/* An empty non-blocking receive (flags from recv_flags): true to ask again at once, the
 * budget unspent and no rule due (checked every SPIN_CHECK_EVERY empty receives); false
 * when the caller should run its wait rules, as a timed-out blocking receive does. */
static bool spin_again(rr_run *r, int flags)
{
	if (!(flags & MSG_DONTWAIT))
		return false;
	if (r->spin_ns) {
		int64_t now = ws_clock_ns();
		if (!r->spin_t0)
			r->spin_t0 = now;
		if (now - r->spin_t0 >= r->spin_ns) {
			r->spent = true; /* sleep in the next receive, as SO_BUSY_POLL does */
			return true;
		}
	}
	return ++r->spins % SPIN_CHECK_EVERY != 0;
}

/* Data arrived: the next wait spins again. */
static void spin_reset(rr_run *r)
{
	r->spent = false;
	r->spin_t0 = 0;
}

/* Bytes that moved since the last wake-up are progress (a 1G response on a slow link, a
 * responder's requests), noticed when a timeout wakes the role rather than timed on the
 * hot path; the stall clock thus starts at most one socket timeout late. */
static void note_progress(rr_run *r, int64_t now)
{
	uint64_t moved = r->res->bytes_recv + r->res->bytes_sent;
	if (moved != r->seen) {
		r->seen = moved;
		r->last = now;
	}
}

/* A blocked call timed out (EAGAIN): the cap, the stall rule and, past a timed test's
 * end, the shorter end-of-test stall rule. `what` names what the role was waiting for. */
static int check_wait(rr_run *r, int64_t now, const char *what, ws_err *err)
{
	const ws_rr_params *p = r->p;
	if (p->cap_ns && now >= p->cap_ns)
		return ws_stream_capped(r->t0, r->res->bytes_recv, "received", err);
	note_progress(r, now);
	int64_t quiet = now - r->last;
	if (p->end_ns && now >= p->end_ns + WS_STREAM_END_STALL_NS &&
	    quiet >= WS_STREAM_END_STALL_NS)
		return ws_err_set(
			err, WS_E_TIMEDOUT,
			"%s: nothing for %.1f s, and the test should have ended %.1f s ago", what,
			(double)quiet / WS_NS_PER_SEC, (double)(now - p->end_ns) / WS_NS_PER_SEC);
	if (quiet >= p->stall_ns)
		return ws_err_set(err, WS_E_TIMEDOUT, "%s: nothing for %.1f s", what,
				  (double)quiet / WS_NS_PER_SEC);
	return 0;
}

static bool timed_out(void) { return errno == EAGAIN || errno == EWOULDBLOCK; }

/* ---- TCP_RR ------------------------------------------------------------------------ */

/* What the requester waits for, for the stall messages. */
static void tcp_waiting(const rr_run *r, size_t got, char *buf, size_t n)
{
	snprintf(buf, n,
		 "waiting for a response of %u bytes (-r %u,%u), %zu received, %llu request%s "
		 "outstanding",
		 r->s->rsp_size, r->s->req_size, r->s->rsp_size, got,
		 (unsigned long long)(r->issued - r->done), r->issued - r->done == 1 ? "" : "s");
}

/* Send all n bytes of buf, under the stall and cap rules. */
static int send_all(rr_run *r, const unsigned char *buf, size_t n, ws_err *err)
{
	size_t off = 0;
	while (off < n) {
		ssize_t w = send(r->fd, buf + off, n - off, MSG_NOSIGNAL);
		if (w > 0) {
			off += (size_t)w;
			r->res->bytes_sent += (uint64_t)w;
			r->res->send_calls++;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && timed_out()) {
			char what[160];
			snprintf(what, sizeof(what),
				 "the peer stopped reading: %zu of %zu bytes sent (-r %u,%u)", off,
				 n, r->s->req_size, r->s->rsp_size);
			int rc = check_wait(r, ws_clock_ns(), what, err);
			if (rc < 0)
				return rc;
			continue;
		}
		return ws_err_errno(err, "send on the data connection");
	}
	return 0;
}

/* Read exactly n bytes. Returns 1 when done, 0 at a clean EOF before any byte (only when
 * eof_ok), or a negative error (an EOF in the middle names both sizes). */
static int recv_exact(rr_run *r, unsigned char *buf, size_t n, bool eof_ok, ws_err *err)
{
	size_t got = 0;
	while (got < n) {
		int flags = recv_flags(r);
		ssize_t k = recv(r->fd, buf + got, n - got, flags);
		if (k > 0) {
			spin_reset(r);
			got += (size_t)k;
			r->res->bytes_recv += (uint64_t)k;
			r->res->recv_calls++;
			continue;
		}
		if (k == 0 && got == 0 && eof_ok)
			return 0;
		if (k == 0 && r->p->is_client)
			return ws_err_set(
				err, WS_E_PROTO,
				"the responder closed the data connection with %llu request%s "
				"outstanding, %zu of %zu bytes of a response received (-r %u,%u)",
				(unsigned long long)(r->issued - r->done),
				r->issued - r->done == 1 ? "" : "s", got, n, r->s->req_size,
				r->s->rsp_size);
		if (k == 0)
			return ws_err_set(err, WS_E_PROTO,
					  "the requester closed the data connection in the middle "
					  "of a request: %zu of %zu bytes received (-r %u,%u)",
					  got, n, r->s->req_size, r->s->rsp_size);
		if (errno == EINTR)
			continue;
		if (!timed_out())
			return ws_err_errno(err, "receive on the data connection");
		if (spin_again(r, flags))
			continue;
		char what[200];
		int64_t now = ws_clock_ns();
		if (r->p->is_client) {
			tcp_waiting(r, got, what, sizeof(what));
		} else {
			snprintf(what, sizeof(what),
				 "waiting for a request of %zu bytes (-r %u,%u) after %llu "
				 "transactions",
				 n, r->s->req_size, r->s->rsp_size, (unsigned long long)r->done);
		}
		int rc = check_wait(r, now, what, err);
		if (rc < 0)
			return rc;
	}
	return 1;
}

/* After the half-close: the responder closes once it has answered everything, and any
 * byte still arriving is a response the requester did not ask for. */
static int tcp_wait_eof(rr_run *r, ws_err *err)
{
	unsigned char extra[256];
	int64_t since = ws_clock_ns();
	uint64_t surplus = 0;
	for (;;) {
		ssize_t k = recv(r->fd, extra, sizeof(extra), 0);
		if (k > 0) {
			surplus += (uint64_t)k;
			continue;
		}
		if (k == 0)
			break;
		if (errno == EINTR)
			continue;
		if (!timed_out())
			return ws_err_errno(err, "receive on the data connection at the end");
		int64_t now = ws_clock_ns();
		if (r->p->cap_ns && now >= r->p->cap_ns)
			return ws_stream_capped(r->t0, r->res->bytes_recv, "received", err);
		if (now - since >= WS_STREAM_END_STALL_NS)
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "the responder did not close the data connection within "
					  "%.1f s of the end",
					  (double)WS_STREAM_END_STALL_NS / WS_NS_PER_SEC);
	}
	if (surplus)
		return ws_err_set(err, WS_E_PROTO,
				  "the responder sent %llu bytes more than %llu responses of %u "
				  "bytes (-r %u,%u): its responses are not %u bytes long",
				  (unsigned long long)surplus, (unsigned long long)r->done,
				  r->s->rsp_size, r->s->req_size, r->s->rsp_size, r->s->rsp_size);
	return 0;
}

static int tcp_requester(rr_run *r, rr_slot *slots, uint32_t nslots, ws_hist *h, int64_t *t_end,
			 ws_err *err)
{
	int64_t now = r->t0;
	int rc = 0;
	/* netperf's first burst: 1 + burst requests out before the first response. */
	while (rc == 0 && r->issued - r->done < nslots && may_issue(r, now, r->issued - r->done)) {
		now = ws_clock_ns();
		slots[r->issued % nslots].sent = now;
		rc = send_all(r, r->req, r->s->req_size, err);
		r->issued++;
	}
	*t_end = now;
	while (rc == 0 && r->done < r->issued) {
		rc = recv_exact(r, r->rsp, r->s->rsp_size, false, err);
		if (rc < 0)
			break;
		rc = 0;
		now = ws_clock_ns();
		ws_hist_record(h, (uint64_t)(now - slots[r->done % nslots].sent));
		r->done++;
		ws_interim_add(r->p->progress, 1);
		r->last = *t_end = now;
		if (r->p->cap_ns && now >= r->p->cap_ns)
			return ws_stream_capped(r->t0, r->res->bytes_recv, "received", err);
		if (!may_issue(r, now, r->issued - r->done))
			continue;
		now = ws_clock_ns();
		slots[r->issued % nslots].sent = now;
		rc = send_all(r, r->req, r->s->req_size, err);
		r->issued++;
	}
	if (rc == 0 && shutdown(r->fd, SHUT_WR) < 0)
		rc = ws_err_errno(err, "shutdown of the data connection");
	if (rc == 0)
		rc = tcp_wait_eof(r, err);
	return rc;
}

/* The responder's periodic check on a busy connection: the cap, and a requester still
 * sending well past a timed test's end. */
static int busy_check(rr_run *r, ws_err *err)
{
	int64_t now = ws_clock_ns();
	if (r->p->cap_ns && now >= r->p->cap_ns)
		return ws_stream_capped(r->t0, r->res->bytes_recv, "received", err);
	if (r->p->end_ns && now >= r->p->end_ns + WS_STREAM_END_STALL_NS)
		return ws_err_set(err, WS_E_TIMEDOUT,
				  "the requester was still sending requests %.1f s after the "
				  "test's end (the end-of-test stall limit)",
				  (double)(now - r->p->end_ns) / WS_NS_PER_SEC);
	return 0;
}

static int tcp_responder(rr_run *r, int64_t *t_end, ws_err *err)
{
	for (;;) {
		int rc = recv_exact(r, r->req, r->s->req_size, true, err);
		if (rc <= 0) {
			*t_end = ws_clock_ns();
			/* Everything is answered: end the requester's wait for EOF now rather than
			 * when the caller gets round to closing the socket. */
			if (rc == 0)
				shutdown(r->fd, SHUT_WR);
			return rc;
		}
		rc = send_all(r, r->rsp, r->s->rsp_size, err);
		if (rc < 0)
			return rc;
		if ((++r->done % CHECK_EVERY) == 0 && (rc = busy_check(r, err)) < 0)
			return rc;
	}
}

/* ---- UDP_RR ------------------------------------------------------------------------ */

/* The tag: the low tagn bytes of seq, big-endian, at the start of the datagram. */
static void put_tag(unsigned char *b, unsigned tagn, uint64_t seq)
{
	for (unsigned i = 0; i < tagn; i++)
		b[i] = (unsigned char)(seq >> (8 * (tagn - 1 - i)));
}

static bool tag_is(const unsigned char *b, unsigned tagn, uint64_t seq)
{
	for (unsigned i = 0; i < tagn; i++)
		if (b[i] != (unsigned char)(seq >> (8 * (tagn - 1 - i))))
			return false;
	return true;
}

/* Send one request in slot i with a new tag. A refused or dropped send is not an error:
 * the transaction then times out and is retried, like a datagram lost on the way. */
static void udp_issue(rr_run *r, rr_slot *slot, unsigned tagn, uint64_t *next_seq)
{
	slot->seq = (*next_seq)++;
	slot->busy = true;
	put_tag(r->req, tagn, slot->seq);
	slot->sent = ws_clock_ns();
	ssize_t w = send(r->fd, r->req, r->s->req_size, 0);
	r->issued++;
	if (w == (ssize_t)r->s->req_size) {
		r->res->bytes_sent += (uint64_t)w;
		r->res->send_calls++;
	} else {
		r->res->send_errors++;
	}
}

/* Time out the slots past their deadline (counted lost, retried while the test runs);
 * returns the next deadline among those still busy, or INT64_MAX. */
static int64_t udp_expire(rr_run *r, rr_slot *slots, uint32_t nslots, int64_t now, int64_t timeout,
			  unsigned tagn, uint64_t *next_seq, uint32_t *busy)
{
	int64_t next = INT64_MAX;
	for (uint32_t i = 0; i < nslots; i++) {
		if (!slots[i].busy)
			continue;
		if (now - slots[i].sent >= timeout) {
			r->res->trans_lost++;
			slots[i].busy = false;
			(*busy)--;
			if (may_issue(r, now, *busy)) {
				udp_issue(r, &slots[i], tagn, next_seq);
				(*busy)++;
			}
		}
		if (slots[i].busy && slots[i].sent + timeout < next)
			next = slots[i].sent + timeout;
	}
	return next;
}

static int udp_requester(rr_run *r, rr_slot *slots, uint32_t nslots, ws_hist *h, int64_t *t_end,
			 ws_err *err)
{
	const ws_test_spec *s = r->s;
	int64_t timeout = s->rr_timeout_ns ? s->rr_timeout_ns : WS_RR_DEFAULT_TIMEOUT_NS;
	/* The receive timeout is the loss timeout, so that with one transaction in flight a
	 * lost one is noticed on time at no cost per transaction. */
	int64_t tick = timeout < UDP_TICK_NS ? timeout : UDP_TICK_NS;
	struct timeval tv = {.tv_sec = tick / WS_NS_PER_SEC,
			     .tv_usec = (tick % WS_NS_PER_SEC) / 1000};
	if (tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_usec = 1; /* 0 would mean no timeout at all */
	if (setsockopt(r->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return ws_err_errno(err, "UDP_RR: setsockopt SO_RCVTIMEO");
	unsigned tagn = s->req_size < s->rsp_size ? s->req_size : s->rsp_size;
	if (tagn > 8)
		tagn = 8;
	/* netserver answers from its own buffer, not with the request's bytes: no tag to
	 * match, so a reply is taken for the oldest transaction in flight, as netperf does. */
	if (s->netperf_peer)
		tagn = 0;
	uint64_t next_seq = 1;
	uint32_t busy = 0;
	int64_t now = r->t0;
	*t_end = now;
	for (uint32_t i = 0; i < nslots && may_issue(r, now, busy); i++, busy++)
		udp_issue(r, &slots[i], tagn, &next_seq);
	int64_t next_deadline = r->t0 + timeout;
	while (busy) {
		int flags = recv_flags(r);
		ssize_t k = recv(r->fd, r->rsp, s->rsp_size, MSG_TRUNC | flags);
		now = ws_clock_ns();
		if (k >= 0)
			spin_reset(r);
		else if (timed_out() && spin_again(r, flags))
			continue;
		if (k >= 0 && (size_t)k != s->rsp_size)
			return ws_err_set(err, WS_E_PROTO,
					  "UDP_RR: a response of %zd bytes; expected %u (-r %u,%u)",
					  k, s->rsp_size, s->req_size, s->rsp_size);
		if (k > 0) {
			r->res->bytes_recv += (uint64_t)k;
			r->res->recv_calls++;
			uint32_t i = 0;
			while (i < nslots && !(slots[i].busy && tag_is(r->rsp, tagn, slots[i].seq)))
				i++;
			if (i == nslots) {
				r->res->late_replies++;
			} else {
				ws_hist_record(h, (uint64_t)(now - slots[i].sent));
				r->done++;
				ws_interim_add(r->p->progress, 1);
				r->last = *t_end = now;
				slots[i].busy = false;
				busy--;
				if (may_issue(r, now, busy)) {
					udp_issue(r, &slots[i], tagn, &next_seq);
					busy++;
				}
			}
		} else if (errno != EINTR && errno != ECONNREFUSED && !timed_out()) {
			return ws_err_errno(err, "UDP_RR: receive on the data socket");
		}
		if (now >= next_deadline) {
			uint64_t lost = r->res->trans_lost;
			next_deadline =
				udp_expire(r, slots, nslots, now, timeout, tagn, &next_seq, &busy);
			/* The wait for a lost transaction is time the test spent, as in the
			 * many-flow engine: a last request lost does not shorten the run. */
			if (r->res->trans_lost != lost)
				*t_end = now;
		}
		if (r->p->cap_ns && now >= r->p->cap_ns)
			return ws_stream_capped(r->t0, r->res->bytes_recv, "received", err);
		if (busy && now - r->last >= r->p->stall_ns)
			return ws_err_set(
				err, WS_E_TIMEDOUT,
				"UDP_RR: no response for %.1f s: %u request%s of %u bytes "
				"outstanding, %llu transactions lost so far (-r %u,%u, -e %.3f)",
				(double)(now - r->last) / WS_NS_PER_SEC, busy, busy == 1 ? "" : "s",
				s->req_size, (unsigned long long)r->res->trans_lost, s->req_size,
				s->rsp_size, (double)timeout / WS_NS_PER_SEC);
	}
	for (int i = 0; i < END_MARKERS; i++)
		(void)send(r->fd, r->req, 0, 0);
	return 0;
}

static int udp_responder(rr_run *r, int64_t *t_end, ws_err *err)
{
	const ws_test_spec *s = r->s;
	unsigned tagn = s->req_size < s->rsp_size ? s->req_size : s->rsp_size;
	if (tagn > 8)
		tagn = 8;
	for (;;) {
		int flags = recv_flags(r);
		ssize_t k = recv(r->fd, r->req, s->req_size, MSG_TRUNC | flags);
		if (k >= 0)
			spin_reset(r);
		if (k == 0) { /* the end marker */
			*t_end = ws_clock_ns();
			return 0;
		}
		if (k > 0 && (size_t)k != s->req_size)
			return ws_err_set(err, WS_E_PROTO,
					  "UDP_RR: a request of %zd bytes; expected %u (-r %u,%u)",
					  k, s->req_size, s->req_size, s->rsp_size);
		if (k > 0) {
			r->res->bytes_recv += (uint64_t)k;
			r->res->recv_calls++;
			memcpy(r->rsp, r->req, tagn);
			ssize_t w = send(r->fd, r->rsp, s->rsp_size, 0);
			if (w == (ssize_t)s->rsp_size) {
				r->res->bytes_sent += (uint64_t)w;
				r->res->send_calls++;
			} else {
				r->res->send_errors++;
			}
			int rc;
			if ((++r->done % CHECK_EVERY) == 0 && (rc = busy_check(r, err)) < 0)
				return rc;
			continue;
		}
		if (errno == EINTR || errno == ECONNREFUSED)
			continue;
		if (!timed_out())
			return ws_err_errno(err, "UDP_RR: receive on the data socket");
		if (spin_again(r, flags))
			continue;
		int64_t now = ws_clock_ns();
		note_progress(r, now);
		/* A timed test whose end markers were all lost ends on the silence after it. */
		if (r->p->end_ns && now >= r->p->end_ns + WS_STREAM_END_STALL_NS &&
		    now - r->last >= WS_STREAM_END_STALL_NS) {
			*t_end = r->last;
			return 0;
		}
		char what[160];
		snprintf(what, sizeof(what),
			 "UDP_RR: waiting for a request of %u bytes (-r %u,%u) after %llu "
			 "transactions",
			 s->req_size, s->req_size, s->rsp_size, (unsigned long long)r->done);
		int rc = check_wait(r, now, what, err);
		if (rc < 0)
			return rc;
	}
}

/* ---- entry ------------------------------------------------------------------------- */

int ws_rr_run(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	const ws_test_spec *s = p->spec;
	if (p->nfds != 1)
		return ws_err_set(err, WS_E_INVAL,
				  "the single-flow RR engine got %u sockets; expected 1", p->nfds);
	uint32_t nslots = s->burst + 1;
	rr_run r = {.p = p, .s = s, .fd = p->fds[0], .res = res};
	unsigned char *buf = alloc_buffers(s);
	rr_slot *slots = p->is_client ? calloc(nslots, sizeof(*slots)) : NULL;
	ws_hist *h = p->is_client ? malloc(sizeof(*h)) : NULL;
	if (!buf || (p->is_client && (!slots || !h))) {
		free(buf);
		free(slots);
		free(h);
		return ws_err_set(err, ENOMEM,
				  "no memory for the request/response buffers (-r %u,%u)",
				  s->req_size, s->rsp_size);
	}
	r.req = buf;
	r.rsp = buf + s->req_size;
	if (p->is_client)
		ws_rr_fill(p, r.req, s->req_size);
	if (h) {
		ws_hist_init(h);
		free(res->latency);
		res->latency = h;
	}
	/* The requester sends requests and receives responses; the responder the reverse. */
	res->send_size = p->is_client ? s->req_size : s->rsp_size;
	res->recv_size = p->is_client ? s->rsp_size : s->req_size;
	/* --busy-poll: every receive returns at once and the loop asks again, so the thread
	 * never sleeps; an empty receive takes the path of a socket timeout (a clock read and
	 * the stall rules), which is cheap beside the system call. */
	r.spin = s->busy_poll;
	r.spin_ns = (int64_t)s->busy_poll_us * WS_NS_PER_US;
	snprintf(res->io_path, sizeof(res->io_path), "%s",
		 s->busy_poll ? "send/recv+busy-poll" : "send/recv");
	r.t0 = r.last = ws_clock_ns();
	int64_t t_end = r.t0;
	int rc;
	if (p->is_client)
		rc = p->udp ? udp_requester(&r, slots, nslots, h, &t_end, err)
			    : tcp_requester(&r, slots, nslots, h, &t_end, err);
	else
		rc = p->udp ? udp_responder(&r, &t_end, err) : tcp_responder(&r, &t_end, err);
	res->transactions = r.done;
	res->elapsed_ns = (rc == 0 && r.done ? t_end : ws_clock_ns()) - r.t0;
	free(slots);
	free(buf);
	return rc;
}
