/* SPDX-License-Identifier: BSD-2-Clause */
/* rr_multi: the epoll request/response engine for many flows and for open loop; see rr.h
 * for the wire and docs/rr-multi.md for the schedule and its figures.
 *
 * Each worker thread (pool.h) owns the flows i with i % threads == its index, all on one
 * epoll set, non-blocking and level-triggered; what a flow does on an event is in
 * rr_flow.c. In open loop a request's latency runs from its intended time, so a stall of
 * the responder shows in every request it delayed (coordinated omission corrected, as
 * wrk2); due flows wait in a per-thread heap and the thread sleeps on epoll_pwait2 (ns) or,
 * before Linux 5.11, on a timerfd (sched.h). A flow that fails is recorded with its reason
 * and the others carry on. */
#include "workload/rr.h"

#include "util/clock.h"
#include "util/err.h"
#include "workload/pool.h"
#include "workload/rr_flow.h"
#include "workload/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EVENTS 64
/* Open loop keeps up to this many requests per flow outstanding (or 1 + burst if more), so
 * a short stall does not turn into sends late by the whole stall. */
#define OPEN_LOOP_OUTSTANDING 64u
/* The rings of all flows together: beyond this, the run is refused (flows x bound). */
#define MAX_RING_BYTES (256u << 20)

static void worker_run(void *ctx, ws_pool_thread *t)
{
	struct ws_rr_worker *w = (struct ws_rr_worker *)ctx + t->id;
	struct ws_rr_ctx *c = w->c;
	const ws_rr_params *p = c->p;
	/* The schedule runs from the common start: a thread that starts late sends late, and
	 * that shows as lag and latency, not as a shorter schedule. */
	w->base = p->start_ns > 0 ? p->start_ns : t->t0;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		c->flows[i].last_progress = t->t0;
		if (c->open) /* flows staggered over one period */
			c->flows[i].offset = (int64_t)((double)i * c->period / c->nflows);
	}
	if (c->client)
		for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
			ws_rr_pump(w, i);
	struct epoll_event ev[EVENTS];
	int64_t next_tick = t->t0 + c->tick;
	bool ended = false;
	int64_t spin_ns = (int64_t)p->spec->busy_poll_us * WS_NS_PER_US, idle_since = 0;
	while (w->nactive > 0) {
		int64_t deadline = ws_sched_next(&w->sched, next_tick);
		if (c->client && c->timed && !ended && p->end_ns < deadline)
			deadline = p->end_ns;
		/* --busy-poll: epoll with no wait, again and again, for up to busy_poll_us (0: no
		 * limit) of an idle spell before the thread sleeps */
		bool spin = p->spec->busy_poll &&
			(!spin_ns || !idle_since || ws_clock_ns() - idle_since < spin_ns);
		int n = ws_sched_wait(&w->sched, ev, EVENTS, spin ? 0 : deadline);
		if (p->spec->busy_poll)
			idle_since = n > 0 ? 0 : idle_since ? idle_since : ws_clock_ns();
		for (int k = 0; k < n; k++)
			ws_rr_on_event(w, &ev[k]);
		int64_t now = ws_clock_ns();
		while (ws_sched_due(&w->sched, now)) {
			uint32_t i = ws_sched_pop(&w->sched);
			c->flows[i].in_heap = false;
			ws_rr_pump(w, i);
		}
		if (c->client && c->timed && !ended && now >= p->end_ns) {
			ended = true; /* stop issuing; collect what is outstanding */
			for (uint32_t i = w->id; i < c->nflows; i += c->nthreads)
				ws_rr_pump(w, i);
		}
		if (now >= next_tick) {
			ws_rr_housekeeping(w, now);
			next_tick = now + c->tick;
		}
	}
}

static void worker_setup(void *ctx, ws_pool_thread *t)
{
	struct ws_rr_worker *w = (struct ws_rr_worker *)ctx + t->id;
	struct ws_rr_ctx *c = w->c;
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	w->buf = malloc(WS_RR_SCRATCH);
	w->lat = c->client ? malloc(sizeof(*w->lat)) : NULL;
	if (w->ep < 0 || !w->buf || (c->client && !w->lat)) {
		ws_err_set(&t->err, ENOMEM, "worker %u could not start", w->id);
		return;
	}
	memset(w->buf, 0x5a, WS_RR_SCRATCH);
	if (c->client)
		ws_rr_fill(c->p, w->buf, WS_RR_SCRATCH);
	if (w->lat)
		ws_hist_init(w->lat);
	if (ws_sched_init(&w->sched, w->ep, c->nflows / c->nthreads + 1, true, &t->err) < 0)
		return;
	for (uint32_t i = w->id; i < c->nflows; i += c->nthreads) {
		int fd = c->flows[i].fd;
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
		if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 ||
		    epoll_ctl(w->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
			ws_err_errno(&t->err, "flow %u (fd %d) cannot join epoll", i, fd);
			return;
		}
		w->nmine++;
	}
	w->nactive = w->nmine;
}

static void worker_teardown(void *ctx, ws_pool_thread *t)
{
	struct ws_rr_worker *w = (struct ws_rr_worker *)ctx + t->id;
	if (w->ep >= 0)
		close(w->ep);
	ws_sched_free(&w->sched);
	free(w->buf);
}

static const ws_pool_ops rr_ops = {worker_setup, worker_run, worker_teardown};

/* --- the run ---------------------------------------------------------------------- */

/* Open loop, timed: requests k >= 0 with intended time before the end. */
static uint64_t scheduled(const struct ws_rr_worker *w, const struct ws_rr_flow *f, int64_t end)
{
	int64_t span = end - (w->base + f->offset);
	if (span <= 0)
		return 0;
	uint64_t n = (uint64_t)((double)span / w->c->period);
	while (ws_rr_intended(w, f, n) < end)
		n++;
	while (n > 0 && ws_rr_intended(w, f, n - 1) >= end)
		n--;
	return n;
}

static void collect(const struct ws_rr_ctx *c, const ws_pool_thread *th, int64_t t0,
		    ws_side_result *res)
{
	int64_t last = t0;
	for (uint32_t i = 0; i < c->nflows; i++) {
		const struct ws_rr_flow *f = &c->flows[i];
		const struct ws_rr_worker *w = &c->w[i % c->nthreads];
		ws_flow_result *fr = &res->flows[i];
		int64_t end = f->end_ns ? f->end_ns : ws_clock_ns();
		last = end > last ? end : last;
		*fr = (ws_flow_result){.bytes = f->bytes_sent + f->bytes_recv,
				       .calls = f->send_calls + f->recv_calls,
				       .elapsed_ns = end - t0,
				       .thread = i % c->nthreads,
				       .error = f->phase == PH_FAILED ? f->error : 0,
				       .transactions = f->done,
				       .trans_lost = f->lost};
		snprintf(fr->why, sizeof(fr->why), "%s", f->phase == PH_FAILED ? f->why : "");
		if (c->client) {
			fr->lat_p50_ns = ws_flowhist_percentile(&c->fh[i], 50);
			fr->lat_p99_ns = ws_flowhist_percentile(&c->fh[i], 99);
			if (c->open)
				res->trans_scheduled +=
					c->counted ? f->share : scheduled(w, f, c->p->end_ns);
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
		res->threads[t] = (ws_thread_result){.user_ns = th[t].user_ns,
						     .sys_ns = th[t].sys_ns,
						     .cpu = th[t].cpu,
						     .flows = c->w[t].nmine};
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
	const char *engine = ws_engine_name(c->p->engine == WS_ENGINE_IO_URING ? WS_ENGINE_IO_URING
									       : WS_ENGINE_EPOLL);
	snprintf(res->io_path, sizeof(res->io_path), "%s%s", engine,
		 c->p->spec->busy_poll ? "+busy-poll" : "");
	snprintf(res->engine, sizeof(res->engine), "%s", engine);
}

/* The shape of the run, from the spec; refuses what it cannot bound. */
static int plan(struct ws_rr_ctx *c, const ws_rr_params *p, ws_err *err)
{
	const ws_test_spec *s = p->spec;
	if (p->nfds == 0 || !p->fds)
		return ws_err_set(err, WS_E_INVAL,
				  "no data sockets for the request/response flows");
	c->p = p;
	c->nflows = p->nfds;
	c->nthreads = p->threads == 0 ? 1 : p->threads > p->nfds ? p->nfds : p->threads;
	c->client = p->is_client;
	c->udp = p->udp;
	c->open = s->rate > 0;
	c->counted = s->end == WS_END_TRANSACTIONS;
	c->timed = !c->counted;
	if (c->client && c->timed && p->end_ns <= 0)
		return ws_err_set(err, WS_E_INVAL,
				  "a timed request/response run needs its end time");
	c->period = c->open ? 1e9 / s->rate : 0;
	c->cap = 1 + s->burst;
	if (c->open && c->cap < OPEN_LOOP_OUTSTANDING)
		c->cap = OPEN_LOOP_OUTSTANDING;
	c->timeout = s->rr_timeout_ns > 0 ? s->rr_timeout_ns : WS_RR_DEFAULT_TIMEOUT_NS;
	c->tick = 100 * WS_NS_PER_MS;
	if (c->udp && c->client) /* loss is noticed within a quarter of the timeout */
		c->tick = c->timeout / 4 < WS_NS_PER_MS ? WS_NS_PER_MS
			: c->timeout / 4 < c->tick      ? c->timeout / 4
							: c->tick;
	c->tagn = s->req_size < s->rsp_size ? s->req_size : s->rsp_size;
	if (c->tagn > 8)
		c->tagn = 8;
	if (s->netperf_peer) /* netserver answers from its own buffer: the oldest in flight */
		c->tagn = 0;
	if (c->client && (uint64_t)c->nflows * c->cap * sizeof(int64_t) > MAX_RING_BYTES)
		return ws_err_set(err, WS_E_INVAL,
				  "%u flows with %u requests outstanding each need %llu MiB of "
				  "send times; at most %u MiB: use fewer flows or a smaller burst",
				  c->nflows, c->cap,
				  (unsigned long long)((uint64_t)c->nflows * c->cap * 8 >> 20),
				  MAX_RING_BYTES >> 20);
	return 0;
}

static int verdict(const struct ws_rr_ctx *c, int64_t t0, const ws_side_result *res, ws_err *err)
{
	uint32_t done = 0, first_failed = 0;
	bool capped = false, any_failed = false;
	for (uint32_t i = 0; i < c->nflows; i++) {
		const struct ws_rr_flow *f = &c->flows[i];
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
		return ws_err_set(err, EIO,
				  "every one of the %u flows failed; the first (flow %u): %s",
				  c->nflows, first_failed, c->flows[first_failed].why);
	return 0;
}

int ws_rr_multi_run(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	struct ws_rr_ctx c = {0};
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
		struct ws_rr_flow *f = &c.flows[i];
		f->fd = p->fds[i];
		f->share = p->end_count / c.nflows + (i < p->end_count % c.nflows ? 1 : 0);
		f->ring = rings ? rings + (size_t)i * c.cap : NULL;
		if (c.fh)
			ws_flowhist_init(&c.fh[i]);
	}
	for (uint32_t t = 0; t < c.nthreads; t++)
		c.w[t] = (struct ws_rr_worker){.c = &c, .id = t, .ep = -1, .sched = {.tfd = -1}};
	uint32_t started;
	int64_t t0;
	const ws_pool_ops *ops = p->engine == WS_ENGINE_IO_URING ? &ws_rr_uring_ops : &rr_ops;
	rc = ws_pool_run(c.nthreads, p->cpus, p->ncpus, ops, c.w, th, &started, &t0, err);
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
