/* SPDX-License-Identifier: BSD-2-Clause */
/* iqread: the Read IQ engine of the IQ host transport (ws_iq_read in include/warpspeed/iq.h).
 *
 * WARPLab's MEX host reads with stop-and-wait requests, detects loss with running sums and
 * re-requests everything from the first gap (go-back-N). This engine keeps the wire and
 * beats the speed: requests stay pipelined within a congestion window (iqcc.h) that starts
 * small and finds the queue in front of the slowest link, bounded by what the socket
 * receive buffer holds; every packet is checked against the request it answers (seq,
 * buffer, grid start, exact count and length) and placed once by a bitmap, and only the
 * missing runs are asked for again, found either when a later request overtakes an earlier
 * one or when a PING sent behind the last request comes back (the node serves one request
 * at a time, in order).
 * Silence sends a PING probe rather than repeating requests; NOT_READY waits as WARPLab
 * does. Retries are bounded, so a read that cannot complete fails and says why; nothing is
 * placed from a reply that does not match a request of the current call. */
#include "iq/host/iqread.h"

#include "iq/host/iqcc.h"
#include "iq/wire/iqconv.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IQ_MAX_OUT 64   /* Read IQ requests (and markers) in flight */
#define IQ_RETIRED 256  /* finished requests whose late packets are still welcome */
#define IQ_REQ_MAX 1024 /* packets in one request */

typedef struct rd_req {
	uint16_t seq;
	uint8_t b;      /* index into op buffers */
	uint8_t marker; /* a PING behind the requests */
	uint32_t p0, np, got;
	uint32_t no; /* its number in send order, from 1 (the window's unit) */
} rd_req;

typedef struct rd_run {
	uint32_t b, p0, np;
} rd_run;

struct ws_iqread_op {
	uint32_t start, count, spp, npkt;
	int nb;
	uint16_t rf[4];
	void *dst[4];
	ws_iq_format fmt;
	uint64_t *have; /* bitmap, nb * npkt bits */
	uint8_t *tries; /* requests per packet */
	uint64_t total, got;
	uint32_t fresh_b, fresh_p;
	rd_run *rep; /* ring of runs to ask again */
	size_t rep_head, rep_n, rep_cap;
	rd_req out[IQ_MAX_OUT];
	int nout;
	rd_req old[IQ_RETIRED];
	unsigned old_n;
	uint32_t out_pkts;
	ws_iqcc *cc;     /* the handle's Read IQ window (iqcc.h) */
	uint32_t req_no; /* requests sent */
	int64_t t0;      /* when the read began */
	int64_t resume_at;
	int not_ready;
	int not_ready_retire; /* retire() called for a NOT_READY: no loss */
};
typedef ws_iqread_op rd_op;

static int have_get(const rd_op *o, uint32_t b, uint32_t p)
{
	uint64_t i = (uint64_t)b * o->npkt + p;
	return (int)(o->have[i / 64] >> (i % 64) & 1);
}

static void have_set(rd_op *o, uint32_t b, uint32_t p)
{
	uint64_t i = (uint64_t)b * o->npkt + p;
	o->have[i / 64] |= 1ull << (i % 64);
}

static uint32_t pkt_samples(const rd_op *o, uint32_t p)
{
	uint64_t s = (uint64_t)p * o->spp;
	return o->count - s < o->spp ? (uint32_t)(o->count - s) : o->spp;
}

static int rep_push(ws_iq_node *n, rd_op *o, uint32_t b, uint32_t p0, uint32_t np, uint8_t *worst,
		    ws_err *err)
{
	for (uint32_t p = p0; p < p0 + np; p++) {
		uint8_t *t = &o->tries[(uint64_t)b * o->npkt + p];
		if (*t >= n->cfg.retries)
			return ws_err_set(
				err, WS_E_TIMEDOUT,
				"Read IQ of %s from %s: sample %u (packet %u) still missing "
				"after %d requests",
				ws_iq_host_rf_name(o->rf[b]), n->name, o->start + p * o->spp, p,
				*t);
		(*t)++;
		if (*t > *worst)
			*worst = *t;
	}
	if (o->rep_n == o->rep_cap) {
		size_t cap = o->rep_cap ? 2 * o->rep_cap : 64;
		rd_run *r = malloc(cap * sizeof *r);
		if (!r)
			return ws_err_set(err, -ENOMEM, "Read IQ: out of memory");
		for (size_t i = 0; i < o->rep_n; i++)
			r[i] = o->rep[(o->rep_head + i) % o->rep_cap];
		free(o->rep);
		o->rep = r;
		o->rep_head = 0;
		o->rep_cap = cap;
	}
	o->rep[(o->rep_head + o->rep_n++) % o->rep_cap] = (rd_run){b, p0, np};
	n->st.read_rerequests++;
	return 0;
}

/* Request q retired with lost of its packets missing, the longest run of them run, and
 * one of them now asked for worst times: the window's unit ended (iqcc.h says how a
 * window of requests to an unpaced node finds the queue in front of the slowest link). */
static void window_after(rd_op *o, const rd_req *q, uint32_t lost, uint32_t run, uint8_t worst)
{
	ws_iqcc_ended(o->cc, q->no, q->np - lost, lost, run, worst >= WS_IQCC_HARD_LOSS,
		      o->req_no + 1, ws_clock_ns() - o->t0);
}

/* A request is over (overtaken, marker passed, timed out): its missing runs are queued to
 * be asked again, and it moves to the ring of finished requests. A NOT_READY answer
 * retires the requests in flight without their missing packets counting as a loss. */
static int retire(ws_iq_node *n, rd_op *o, int j, ws_err *err)
{
	rd_req q = o->out[j];
	memmove(o->out + j, o->out + j + 1, (size_t)(o->nout - j - 1) * sizeof *o->out);
	o->nout--;
	if (q.marker)
		return 0;
	o->out_pkts -= q.np;
	o->old[o->old_n++ % IQ_RETIRED] = q;
	uint32_t p = q.p0, end = q.p0 + q.np, lost = 0, run = 0;
	uint8_t worst = 0;
	while (p < end) {
		while (p < end && have_get(o, q.b, p))
			p++;
		uint32_t s = p;
		while (p < end && !have_get(o, q.b, p))
			p++;
		if (p > s) {
			int r = rep_push(n, o, q.b, s, p - s, &worst, err);
			if (r < 0)
				return r;
			lost += p - s;
			run = p - s > run ? p - s : run;
		}
	}
	if (!o->not_ready_retire)
		window_after(o, &q, lost, run, worst);
	return 0;
}

static int retire_before(ws_iq_node *n, rd_op *o, int j, ws_err *err)
{
	for (int i = 0; i < j; i++) {
		int r = retire(n, o, 0, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int send_request(ws_iq_node *n, rd_op *o, uint32_t b, uint32_t p0, uint32_t np, ws_err *err)
{
	uint8_t buf[64];
	uint16_t seq = ws_iq_host_next_seq(n);
	uint64_t first = (uint64_t)p0 * o->spp;
	uint64_t ns = (uint64_t)np * o->spp;
	if (ns > o->count - first)
		ns = o->count - first;
	uint32_t a[5] = {o->rf[b], (uint32_t)(o->start + first), (uint32_t)ns, o->spp * 4, np};
	/* 7.7.1 sends the command header with length 0 and num_args 0. */
	ws_wire_cmd c = {.cmd = n->read_cmd ? n->read_cmd : WS_WIRE_CMD_READ_IQ};
	ws_wire_transport t = ws_iq_host_tr(n, seq, 0, WS_WIRE_OFF_ARGS + 20);
	int len = ws_wire_build(buf, sizeof buf, &t, &c, a, 5);
	int r = ws_iq_host_send_one(n, buf, (size_t)len, err);
	if (r < 0)
		return r;
	o->out[o->nout++] =
		(rd_req){.seq = seq, .b = (uint8_t)b, .p0 = p0, .np = np, .no = ++o->req_no};
	o->out_pkts += np;
	n->st.read_requests++;
	return 0;
}

static int send_marker(ws_iq_node *n, rd_op *o, ws_err *err)
{
	uint16_t seq;
	int r = ws_iq_host_send_ping(n, &seq, err);
	if (r == 0)
		o->out[o->nout++] = (rd_req){.seq = seq, .marker = 1};
	return r;
}

/* Fills the window: missing runs first, then fresh packets; a marker behind the last. */
static int fill_requests(ws_iq_node *n, rd_op *o, ws_err *err)
{
	for (;;) {
		uint32_t b, p0, np;
		if (o->nout >= IQ_MAX_OUT - 1)
			break;
		/* Four requests to a window: one finished makes room for the next while three
		 * keep the node busy. The room is filled exactly once half a request fits, so
		 * that a small window is not a quarter empty. */
		uint32_t win = o->cc->win, most = win / 4 ? win / 4 : 1;
		if (most > IQ_REQ_MAX)
			most = IQ_REQ_MAX;
		uint32_t room = win > o->out_pkts ? win - o->out_pkts : 0;
		if (o->out_pkts && room < (most + 1) / 2)
			return 0;
		if (o->out_pkts && most > room)
			most = room;
		if (o->rep_n) {
			rd_run *r = &o->rep[o->rep_head];
			b = r->b;
			p0 = r->p0;
			np = r->np < most ? r->np : most;
		} else if (o->fresh_b < (uint32_t)o->nb) {
			b = o->fresh_b;
			p0 = o->fresh_p;
			np = o->npkt - p0 < most ? o->npkt - p0 : most;
		} else {
			break;
		}
		int r = send_request(n, o, b, p0, np, err);
		if (r < 0)
			return r;
		if (o->rep_n) {
			rd_run *q = &o->rep[o->rep_head];
			q->p0 += np;
			q->np -= np;
			if (q->np == 0) {
				o->rep_head = (o->rep_head + 1) % o->rep_cap;
				o->rep_n--;
			}
		} else if ((o->fresh_p += np) == o->npkt) {
			o->fresh_b++;
			o->fresh_p = 0;
		}
	}
	if (o->nout && !o->out[o->nout - 1].marker && o->nout < IQ_MAX_OUT)
		return send_marker(n, o, err);
	return 0;
}

static int find_req(const rd_op *o, uint16_t seq, const rd_req **q)
{
	for (int j = 0; j < o->nout; j++)
		if (o->out[j].seq == seq) {
			*q = &o->out[j];
			return j;
		}
	unsigned k = o->old_n < IQ_RETIRED ? o->old_n : IQ_RETIRED;
	for (unsigned i = 0; i < k; i++)
		if (o->old[i].seq == seq) {
			*q = &o->old[i];
			return -1;
		}
	*q = NULL;
	return -1;
}

/* The NOT_READY answer of a live request: wait as WARPLab does, then ask again. */
static int read_not_ready(ws_iq_node *n, rd_op *o, const ws_wire_msg *m, ws_err *err)
{
	uint32_t w[6];
	size_t nw = m->args_len >= WS_WIRE_SAMPLE_HDR_LEN
		? ws_wire_get_words(m->args + WS_WIRE_SAMPLE_HDR_LEN,
				    m->args_len - WS_WIRE_SAMPLE_HDR_LEN, w, 6)
		: 0;
	n->st.not_ready++;
	if (++o->not_ready > n->cfg.retries)
		return ws_err_set(err, WS_E_TIMEDOUT,
				  "Read IQ from %s: the node was still not "
				  "ready after %d NOT_READY answers",
				  n->name, o->not_ready - 1);
	o->resume_at = ws_clock_ns() + ws_iq_host_not_ready_cap_ns(n, w, nw);
	o->not_ready_retire = 1;
	while (o->nout) {
		int r = retire(n, o, 0, err);
		if (r < 0) {
			o->not_ready_retire = 0;
			return r;
		}
	}
	o->not_ready_retire = 0;
	/* Requests already served go again: forget what they were asked. */
	return 0;
}

/* One sample packet. Returns 1 when it added samples, 0 when ignored, or an error. */
static int read_packet(ws_iq_node *n, rd_op *o, const ws_wire_msg *m, size_t len, ws_err *err)
{
	const rd_req *q;
	int j = find_req(o, m->tr.seq, &q);
	ws_wire_sample_hdr s;
	if (!q) {
		n->st.wrong_seq++;
		return 0;
	}
	if (ws_wire_get_sample_hdr(m->args, m->args_len, &s) < 0 || s.buffer != o->rf[q->b]) {
		n->st.malformed++;
		return 0;
	}
	if (s.flags & WS_WIRE_SFLAG_IQ_ERROR)
		return ws_err_set(err, WS_E_REMOTE,
				  "Read IQ of %s [%u, +%u) from %s: the node "
				  "answered IQ_ERROR (buffer or range refused)",
				  ws_iq_host_rf_name(s.buffer), o->start + q->p0 * o->spp,
				  q->np * o->spp, n->name);
	if (s.flags & WS_WIRE_SFLAG_IQ_NOT_READY)
		return j >= 0 ? read_not_ready(n, o, m, err) : 0;
	uint64_t rel = (uint64_t)s.start - o->start;
	if (s.start < o->start || rel % o->spp || rel / o->spp < q->p0 ||
	    rel / o->spp >= (uint64_t)q->p0 + q->np) {
		n->st.malformed++;
		return 0;
	}
	uint32_t p = (uint32_t)(rel / o->spp);
	if (s.count != pkt_samples(o, p) || len != WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)s.count) {
		n->st.malformed++;
		return 0;
	}
	if (have_get(o, q->b, p)) {
		n->st.read_dup_packets++;
	} else {
		have_set(o, q->b, p);
		n->last_iq_id = s.iq_id;
		ws_iqconv_from_wire(o->dst[q->b], o->fmt, (uint64_t)p * o->spp,
				    m->args + WS_WIRE_SAMPLE_HDR_LEN, s.count);
		o->got++;
		n->st.read_packets++;
		if (j >= 0)
			o->out[j].got++;
	}
	if (j < 0)
		return 1;
	int r = retire_before(n, o, j, err); /* overtaken: the node serves in order */
	if (r == 0 && o->out[0].got == o->out[0].np)
		r = retire(n, o, 0, err);
	return r < 0 ? r : 1;
}

int ws_iqread_feed(ws_iq_node *n, ws_iqread_op *o, const uint8_t *b, size_t len, int trunc,
		   ws_err *err)
{
	ws_wire_msg m;
	if (ws_iq_host_check(n, b, len, trunc, &m) < 0)
		return 0;
	if (m.cmd.cmd == (n->read_cmd ? n->read_cmd : WS_WIRE_CMD_READ_IQ))
		return read_packet(n, o, &m, len, err);
	if (m.cmd.cmd == WS_WIRE_CMD_PING) {
		for (int j = 0; j < o->nout; j++)
			if (o->out[j].marker && o->out[j].seq == m.tr.seq) {
				int r = retire_before(n, o, j, err);
				if (r == 0)
					r = retire(n, o, 0, err);
				return r < 0 ? r : 1; /* the node is alive */
			}
	}
	n->st.wrong_seq++;
	return 0;
}

int ws_iqread_fill(ws_iq_node *n, ws_iqread_op *o, ws_err *err)
{
	if (!n->offline && ws_clock_ns() < o->resume_at)
		return 0;
	return fill_requests(n, o, err);
}

int ws_iqread_done(const ws_iqread_op *o) { return o->got == o->total; }

/* The read made no progress for the budget (--budget-ms): how far it got. */
static int stalled(ws_iq_node *n, const rd_op *o, ws_err *err)
{
	n->st.timeouts++;
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "Read IQ from %s: no progress for %lld ms "
			  "(--budget-ms): %llu of %llu packets",
			  n->name, (long long)(ws_iq_host_budget_ns(n) / WS_NS_PER_MS),
			  (unsigned long long)o->got, (unsigned long long)o->total);
}

/* Requests and receives until every packet is placed. Bounded three ways: retries per
 * packet, idle timeouts in a row, and the budget: a monotonic deadline that only a new
 * packet placed (or a NOT_READY wait, itself bounded by retries) moves, so a node that
 * answers with junk or duplicates cannot keep the read alive. */
static int read_loop(ws_iq_node *n, rd_op *o, ws_iqread_tick_fn tick, void *ctx, ws_err *err)
{
	int idle = 0;
	int64_t idle_ns = (int64_t)n->cfg.idle_ms * WS_NS_PER_MS;
	int64_t budget = ws_iq_host_budget_ns(n), stall = ws_clock_ns() + budget;
	while (o->got < o->total) {
		int64_t now = ws_clock_ns(), wait = idle_ns;
		int r = 0;
		if (o->resume_at + budget > stall)
			stall = o->resume_at + budget; /* a NOT_READY wait is the node's answer */
		if (now >= stall)
			return stalled(n, o, err);
		if (tick && tick(o, ctx) != 0)
			return ws_err_set(err, ECANCELED,
					  "Read IQ from %s: stopped by the caller "
					  "after %llu of %llu packets",
					  n->name, (unsigned long long)o->got,
					  (unsigned long long)o->total);
		if (now >= o->resume_at)
			r = fill_requests(n, o, err);
		else
			wait = o->resume_at - now;
		if (r < 0)
			return r;
		int k = ws_iq_host_recv_until(n, now + wait < stall ? now + wait : stall, err);
		if (k < 0)
			return k;
		if (k == 0 && ws_clock_ns() < o->resume_at)
			continue;
		if (k == 0) {
			n->st.timeouts++;
			if (++idle > n->cfg.retries)
				return ws_err_set(
					err, WS_E_TIMEDOUT,
					"Read IQ from %s: the node stopped answering (%llu "
					"of %llu packets after %d timeouts of %u ms)",
					n->name, (unsigned long long)o->got,
					(unsigned long long)o->total, idle - 1, n->cfg.idle_ms);
			/* Probe instead of asking for everything again: the PING comes back
			 * behind whatever the node is still busy with, and then retires the
			 * requests before it. */
			while (o->nout >= IQ_MAX_OUT)
				if ((r = retire(n, o, 0, err)) < 0)
					return r;
			if ((r = send_marker(n, o, err)) < 0)
				return r;
			continue;
		}
		uint64_t got = o->got;
		for (int i = 0; i < k; i++) {
			r = ws_iqread_feed(n, o, n->rx + (size_t)i * n->slot, n->mm[i].msg_len,
					   (n->mm[i].msg_hdr.msg_flags & MSG_TRUNC) != 0, err);
			if (r < 0)
				return r;
			if (r > 0)
				idle = 0;
		}
		if (o->got > got) /* new samples: a duplicate or a PING's answer is no progress */
			stall = ws_clock_ns() + budget;
	}
	return 0;
}

void ws_iqread_end(ws_iqread_op *o)
{
	if (!o)
		return;
	free(o->have);
	free(o->tries);
	free(o->rep);
	free(o);
}

int ws_iqread_begin(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		    void *const *dst, ws_iqread_op **out, ws_err *err)
{
	rd_op *o = calloc(1, sizeof *o);
	*out = NULL;
	if (!o)
		return ws_err_set(err, ENOMEM, "Read IQ: out of memory");
	*o = (rd_op){.start = start, .count = count, .spp = n->info.samples_per_packet, .fmt = fmt};
	o->npkt = (uint32_t)(((uint64_t)count + o->spp - 1) / o->spp);
	for (unsigned bit = 1; bit <= 8; bit <<= 1)
		if (mask & bit) {
			o->rf[o->nb] = (uint16_t)bit;
			o->dst[o->nb] = dst[o->nb];
			o->nb++;
		}
	o->total = (uint64_t)o->nb * o->npkt;
	o->have = calloc((o->total + 63) / 64, 8);
	o->tries = calloc(o->total, 1);
	ws_iq_host_bounds(n);
	o->cc = &n->rcc;
	ws_iqcc_mark(o->cc);
	o->t0 = ws_clock_ns();
	if (!o->have || !o->tries) {
		unsigned long long total = o->total;
		ws_iqread_end(o);
		return ws_err_set(err, ENOMEM, "Read IQ: out of memory for %llu packets", total);
	}
	*out = o;
	return 0;
}

int ws_iqread_run_tick(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		       ws_iq_format fmt, void *const *dst, ws_iqread_tick_fn tick, void *ctx,
		       ws_err *err)
{
	ws_iqread_op *o;
	int r = ws_iqread_begin(n, mask, start, count, fmt, dst, &o, err);
	n->st.read_calls++;
	ws_iq_stats from = n->st;
	if (r == 0 && (r = ws_iq_host_drain_stale(n, err)) >= 0)
		r = read_loop(n, o, tick, ctx, err);
	if (r < 0)
		ws_iq_host_junk_append(n, &from, err);
	else
		ws_iq_host_note_rate(n, (uint64_t)count * 4 * (uint64_t)o->nb,
				     ws_clock_ns() - o->t0);
	ws_iqread_end(o);
	return r < 0 ? r : 0;
}

int ws_iqread_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		  void *const *dst, ws_err *err)
{
	return ws_iqread_run_tick(n, mask, start, count, fmt, dst, NULL, NULL, err);
}

void ws_iqread_retarget(ws_iqread_op *o, ws_iq_format fmt, void *const *dst)
{
	o->fmt = fmt;
	for (int b = 0; b < o->nb; b++)
		o->dst[b] = dst[b];
}

uint64_t ws_iqread_got(const ws_iqread_op *o) { return o->got; }

int ws_iqread_placed(const ws_iqread_op *o, unsigned b, uint32_t p)
{
	return b < (unsigned)o->nb && p < o->npkt && have_get(o, b, p);
}
