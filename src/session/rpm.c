/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the responsiveness test, composed of warpspeed sessions; see rpm.h. */
#include "session/rpm.h"

#include "measure/hist.h"
#include "measure/interim.h"
#include "measure/rpm.h"
#include "net/tcpio.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define MAX_FLOWS (2 * WS_RPM_MAX_FLOWS)
#define NS        1e9

struct run;

/* One load flow: a TCP_STREAM (up) or TCP_MAERTS (down) session on its own thread. */
struct flow {
	struct run *run;
	pthread_t th;
	bool up;
	uint32_t n; /* 1.. within its direction */
	ws_client_config cfg;
	ws_test_spec spec;
	ws_interim *ip;
	int fd;            /* its data socket while it runs, else -1 (under run->mu) */
	_Atomic int state; /* 0 running, 1 ended, 2 failed */
	ws_err err;
	uint64_t last;
};

/* Samples of one kind of probe: start time (s since the run's start), one round trip
 * (ms) and, for foreign probes, the probe as timed (ms). */
struct samples {
	double *t, *v, *raw;
	size_t n, cap;
};

struct run {
	const ws_rpm_config *c;
	pthread_mutex_t mu;
	struct flow flows[MAX_FLOWS];
	uint32_t nflows, nup, ndown;
	_Atomic bool abort, stop;
	struct samples foreign, self; /* under mu */
	pthread_t probe_th;
	int probe_rc;
	uint64_t probe_count;
	ws_err probe_err;
	int64_t t0;
	char io_path[64]; /* under mu: the foreign probes' I/O path (probe_path) */
};

void ws_rpm_plan(double duration_s, double *idle_s, double *load_s, double *interval_s)
{
	*idle_s = duration_s / 10;
	*load_s = duration_s - *idle_s;
	double iv = *load_s / 15;
	*interval_s = iv < 0.1 ? 0.1 : iv > 1.0 ? 1.0 : iv;
}

static int push(struct samples *s, double t, double v, double raw)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		double *a = realloc(s->t, cap * sizeof(double));
		if (a)
			s->t = a;
		double *b = a ? realloc(s->v, cap * sizeof(double)) : NULL;
		if (b)
			s->v = b;
		double *c = b ? realloc(s->raw, cap * sizeof(double)) : NULL;
		if (c)
			s->raw = c;
		if (!c)
			return -ENOMEM;
		s->cap = cap;
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->raw[s->n] = raw;
	s->n++;
	return 0;
}

static void samples_free(struct samples *s)
{
	free(s->t);
	free(s->v);
	free(s->raw);
}

static double since(const struct run *r, int64_t ns) { return (double)(ns - r->t0) / NS; }

/* Shut every running load flow's data socket: its engine ends, its session fails. */
static void shut_all(struct run *r)
{
	pthread_mutex_lock(&r->mu);
	atomic_store(&r->abort, true);
	for (uint32_t i = 0; i < r->nflows; i++)
		if (r->flows[i].fd >= 0)
			shutdown(r->flows[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&r->mu);
}

static void on_data(void *ctx, const int *fds, uint32_t n, bool open)
{
	struct flow *f = ctx;
	pthread_mutex_lock(&f->run->mu);
	f->fd = open && n > 0 ? fds[0] : -1;
	if (f->fd >= 0 && atomic_load(&f->run->abort))
		shutdown(f->fd, SHUT_RDWR);
	pthread_mutex_unlock(&f->run->mu);
}

static void interim_cb(void *ctx, const ws_interim_sample *s)
{
	(void)ctx;
	(void)s;
}

static void *flow_main(void *arg)
{
	struct flow *f = arg;
	ws_test_result res;
	memset(&res, 0, sizeof(res));
	ws_client cl;
	ws_client_init(&cl, &f->cfg);
	int rc = ws_client_test(&cl, &f->spec, &res, &f->err);
	ws_client_close(&cl);
	ws_test_result_free(&res);
	atomic_store(&f->state, rc < 0 ? 2 : 1);
	return NULL;
}

/* Start one load flow that runs until end_ns. */
static int add_flow(struct run *r, bool up, int64_t end_ns, ws_err *err)
{
	if (r->nflows == MAX_FLOWS)
		return 0;
	struct flow *f = &r->flows[r->nflows];
	memset(f, 0, sizeof(*f));
	f->run = r;
	f->up = up;
	f->n = up ? r->nup + 1 : r->ndown + 1;
	f->fd = -1;
	f->spec = *r->c->base;
	f->spec.type = up ? WS_TEST_TCP_STREAM : WS_TEST_TCP_MAERTS;
	f->spec.run_type = WS_TEST_RPM;
	f->spec.end = WS_END_TIME;
	f->spec.streams = 1;
	double left = (double)(end_ns - ws_clock_ns()) / NS;
	f->spec.duration_s = left < 0.1 ? 0.1 : left;
	ws_interim_config ic = {
		.interval_s = 3600, .nflows = 1, .kind = WS_INTERIM_BYTES, .cb = interim_cb};
	if (ws_interim_create(&ic, &f->ip, err) < 0)
		return err->code;
	f->cfg = *r->c->client;
	f->cfg.interim = f->ip;
	f->cfg.on_data = on_data;
	f->cfg.data_ctx = f;
	f->cfg.on_start = NULL;
	f->cfg.needs_warpspeed = "-t RPM";
	int e = pthread_create(&f->th, NULL, flow_main, f);
	if (e) {
		ws_interim_free(f->ip);
		return ws_err_set(err, e, "load flow %u (%s): cannot start a thread: %s", f->n,
				  up ? "up" : "down", strerror(e));
	}
	r->nflows++;
	if (up)
		r->nup++;
	else
		r->ndown++;
	return 0;
}

static int add_flows(struct run *r, int64_t end_ns, ws_err *err)
{
	int rc = 0;
	if ((r->c->dir & WS_RPM_UP) && r->nup < r->c->max_flows)
		rc = add_flow(r, true, end_ns, err);
	if (rc == 0 && (r->c->dir & WS_RPM_DOWN) && r->ndown < r->c->max_flows)
		rc = add_flow(r, false, end_ns, err);
	return rc;
}

/* A foreign probe's I/O path, here/daemon as IO_PATH shows it ("-" for a side that
 * names none): the first probe's, "mixed" once a probe ran another (under mu). */
static void probe_path(struct run *r, const ws_test_result *res)
{
	char p[sizeof(r->io_path)];
	snprintf(p, sizeof(p), "%.30s/%.30s", res->local.io_path[0] ? res->local.io_path : "-",
		 res->remote.io_path[0] ? res->remote.io_path : "-");
	if (!r->io_path[0])
		snprintf(r->io_path, sizeof(r->io_path), "%s", p);
	else if (strcmp(r->io_path, p) != 0)
		snprintf(r->io_path, sizeof(r->io_path), "mixed");
}

/* Foreign probes, back to back at most probe_rate a second, until stop or a failure. */
static void *probe_main(void *arg)
{
	struct run *r = arg;
	ws_client_config cfg = *r->c->client;
	cfg.interim = NULL;
	cfg.on_start = NULL;
	cfg.on_data = NULL;
	cfg.needs_warpspeed = "-t RPM";
	ws_client cl;
	ws_client_init(&cl, &cfg);
	ws_test_spec s;
	ws_test_spec_init(&s);
	s.type = WS_TEST_TCP_CRR;
	s.run_type = WS_TEST_RPM;
	s.end = WS_END_TRANSACTIONS;
	s.end_count = 1;
	s.req_size = s.rsp_size = 1;
	s.family = r->c->base->family;
	s.engine = r->c->base->engine; /* --engine and --sqpoll apply to the probes too */
	s.sqpoll = r->c->base->sqpoll;
	int64_t period = (int64_t)(NS / r->c->probe_rate);
	int64_t next = ws_clock_ns();
	while (!atomic_load(&r->stop) && !atomic_load(&r->abort)) {
		int64_t t = ws_clock_ns();
		ws_test_result res;
		memset(&res, 0, sizeof(res));
		ws_err e;
		ws_err_clear(&e);
		int rc = ws_client_test(&cl, &s, &res, &e);
		if (rc == 0 && (!res.local.latency || res.local.transactions < 1))
			rc = ws_err_set(&e, WS_E_PROTO, "the probe made no transaction");
		if (rc < 0) {
			r->probe_rc = rc;
			r->probe_err = e;
			if (rc != -WS_E_PEER) /* a netserver: the message says it all */
				ws_err_prefix(&r->probe_err, "foreign probe %llu",
					      (unsigned long long)r->probe_count + 1);
			ws_test_result_free(&res);
			atomic_store(&r->abort, true);
			break;
		}
		double ms = ws_hist_mean(res.local.latency) / 1e6;
		r->probe_count++;
		pthread_mutex_lock(&r->mu);
		probe_path(r, &res);
		ws_test_result_free(&res);
		/* connect is one round trip, the transaction another */
		rc = push(&r->foreign, since(r, t), ms / 2, ms);
		pthread_mutex_unlock(&r->mu);
		if (rc < 0) {
			r->probe_rc = ws_err_set(&r->probe_err, ENOMEM, "no memory for probes");
			atomic_store(&r->abort, true);
			break;
		}
		next += period;
		int64_t now = ws_clock_ns();
		if (next < now)
			next = now;
		while (!atomic_load(&r->stop) && (now = ws_clock_ns()) < next)
			ws_clock_sleep_ns(next - now < 20000000 ? next - now : 20000000);
	}
	ws_client_close(&cl);
	return NULL;
}

/* Self probes: the smoothed RTT of each running load flow's socket (the receiver's own
 * estimate on a download, whose socket sends no data to time). */
static int sample_self(struct run *r, int64_t now)
{
	int rc = 0;
	pthread_mutex_lock(&r->mu);
	for (uint32_t i = 0; rc == 0 && i < r->nflows; i++) {
		ws_tcp_info ti;
		const struct flow *f = &r->flows[i];
		if (f->fd < 0 || ws_tcpio_info(f->fd, &ti) < 0)
			continue;
		uint32_t us = f->up ? ti.rtt_us : ti.rcv_rtt_us;
		if (us > 0)
			rc = push(&r->self, since(r, now), us / 1e3, us / 1e3);
	}
	pthread_mutex_unlock(&r->mu);
	return rc;
}

/* Trimmed mean of the samples that started in [from, to) seconds; *count gets how many.
 * raw: the foreign probes as timed instead of per round trip. */
static double window_tm(const struct samples *s, double from, double to, bool raw, uint64_t *count)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof(double));
	size_t n = 0;
	for (size_t i = 0; v && i < s->n; i++)
		if (s->t[i] >= from && s->t[i] < to)
			v[n++] = raw ? s->raw[i] : s->v[i];
	if (count)
		*count = n;
	double m = v ? ws_rpm_trimmed_mean(v, n, WS_RPM_TMP_KEEP) : 0;
	free(v);
	return m;
}

static double working_ms(double f, double s)
{
	return f > 0 && s > 0 ? (f + s) / 2 : f > 0 ? f : s;
}

/* The latest moving average over up to MAD values of x[0..n). */
static double last_avg(const double *x, size_t n)
{
	if (n == 0)
		return 0;
	unsigned m = n < WS_RPM_MAD ? (unsigned)n : WS_RPM_MAD;
	return ws_rpm_moving_avg(x, n - 1, m);
}

/* Per-interval figures of the load phase. */
struct intervals {
	double *up, *down, *tot, *lat;
	size_t n, cap;
};

static void figures(struct run *r, const struct intervals *iv, double load_from, double iv_s,
		    ws_rpm_result *out)
{
	size_t k = iv->n;
	double to = load_from + (double)k * iv_s;
	double from = k >= WS_RPM_MAD ? to - WS_RPM_MAD * iv_s : load_from;
	if (k == 0)
		to = 1e300; /* ended before one interval: whatever was measured under load */
	pthread_mutex_lock(&r->mu);
	out->idle_latency_ms = window_tm(&r->foreign, -1, load_from, false, &out->idle_probes);
	out->foreign_ms = window_tm(&r->foreign, from, to, false, &out->foreign_probes);
	out->foreign_connect_rr_ms = window_tm(&r->foreign, from, to, true, NULL);
	out->self_ms = window_tm(&r->self, from, to, false, &out->self_probes);
	window_tm(&r->foreign, load_from, 1e300, false, &out->foreign_total);
	out->self_total = r->self.n;
	snprintf(out->probe_io_path, sizeof(out->probe_io_path), "%s", r->io_path);
	pthread_mutex_unlock(&r->mu);
	out->working_latency_ms = working_ms(out->foreign_ms, out->self_ms);
	out->rpm = ws_rpm_of(out->working_latency_ms / 1e3);
	out->goodput_up_mbps = last_avg(iv->up, k);
	out->goodput_down_mbps = last_avg(iv->down, k);
	out->stable = ws_rpm_stable(iv->lat, k, WS_RPM_MAD, WS_RPM_SDT, NULL);
	out->intervals = (uint32_t)k;
}

static int iv_push(struct intervals *iv, double up, double down, double lat)
{
	if (iv->n == iv->cap) {
		size_t cap = iv->cap ? iv->cap * 2 : 64;
		double **a[] = {&iv->up, &iv->down, &iv->tot, &iv->lat};
		for (int i = 0; i < 4; i++) {
			double *p = realloc(*a[i], cap * sizeof(double));
			if (!p)
				return -ENOMEM;
			*a[i] = p;
		}
		iv->cap = cap;
	}
	iv->up[iv->n] = up;
	iv->down[iv->n] = down;
	iv->tot[iv->n] = up + down;
	iv->lat[iv->n] = lat;
	iv->n++;
	return 0;
}

/* Close one interval that ended at now: goodput per direction from the flows' byte
 * counters, the interval's working latency from its probes. */
static int end_interval(struct run *r, struct intervals *iv, double from, double to, double iv_s)
{
	double bytes[2] = {0, 0};
	for (uint32_t i = 0; i < r->nflows; i++) {
		struct flow *f = &r->flows[i];
		ws_interim_counter *c = ws_interim_flow(f->ip, 0);
		uint64_t u = c ? atomic_load_explicit(&c->units, memory_order_relaxed) : 0;
		bytes[f->up] += (double)(u >= f->last ? u - f->last : u);
		f->last = u;
	}
	pthread_mutex_lock(&r->mu);
	double lat = working_ms(window_tm(&r->foreign, from, to, false, NULL),
				window_tm(&r->self, from, to, false, NULL));
	pthread_mutex_unlock(&r->mu);
	if (lat <= 0 && iv->n)
		lat = iv->lat[iv->n - 1]; /* no probe came back in this one */
	return iv_push(iv, bytes[1] * 8 / iv_s / 1e6, bytes[0] * 8 / iv_s / 1e6, lat);
}

/* The first failed load flow, as the run's reason. */
static const struct flow *failed_flow(const struct run *r)
{
	for (uint32_t i = 0; i < r->nflows; i++)
		if (atomic_load(&r->flows[i].state) == 2)
			return &r->flows[i];
	return NULL;
}

static void sleep_until(int64_t t)
{
	int64_t now = ws_clock_ns();
	if (t > now)
		ws_clock_sleep_ns(t - now);
}

/* The load phase: add flows until goodput saturates, sample self probes, close
 * intervals; returns 0 at the end of the phase or the error that stopped it. */
static int load_phase(struct run *r, struct intervals *iv, double iv_s, int64_t load_t0,
		      int64_t load_end, ws_rpm_result *out, ws_err *err)
{
	int64_t iv_ns = (int64_t)(iv_s * NS), period = (int64_t)(NS / r->c->probe_rate);
	int rc = add_flows(r, load_end, err);
	int64_t next_iv = load_t0 + iv_ns, next_self = ws_clock_ns() + period;
	while (rc == 0 && next_iv <= load_end + iv_ns / 2) {
		sleep_until(next_self < next_iv ? next_self : next_iv);
		int64_t now = ws_clock_ns();
		const struct flow *bad = failed_flow(r);
		if (bad) {
			*err = bad->err;
			ws_err_prefix(err, "load flow %u (%s) failed", bad->n,
				      bad->up ? "up" : "down");
			return err->code;
		}
		if (atomic_load(&r->abort))
			return -EINTR; /* the probe's error is the reason */
		if (now >= next_self) {
			if (sample_self(r, now) < 0)
				return ws_err_set(err, ENOMEM, "no memory for probes");
			next_self = next_self + period > now ? next_self + period : now + period;
		}
		if (now < next_iv)
			continue;
		double to = since(r, next_iv);
		if (end_interval(r, iv, to - iv_s, to, iv_s) < 0)
			return ws_err_set(err, ENOMEM, "no memory for intervals");
		next_iv += iv_ns;
		if (!out->saturated &&
		    ws_rpm_stable(iv->tot, iv->n, WS_RPM_MAD, WS_RPM_SDT, NULL)) {
			out->saturated = true;
			out->saturated_at_s = (double)iv->n * iv_s;
		}
		if (!out->saturated && next_iv < load_end)
			rc = add_flows(r, load_end, err);
	}
	return rc;
}

static int series_fill(struct run *r, const struct intervals *iv, double load_from, double iv_s,
		       ws_rpm_result *out)
{
	ws_series_set *set = &out->series;
	set->step_s = iv_s;
	set->length_s = r->c->duration_s;
	int up = ws_series_add(set, "TCP upload sum", WS_SERIES_UP, "", 0);
	int down = ws_series_add(set, "TCP download sum", WS_SERIES_DOWN, "", 0);
	int fp = ws_series_add(set, "Foreign probe", WS_SERIES_PROBE, "connect", 0);
	int sp = ws_series_add(set, "Self probe", WS_SERIES_PROBE, "tcp", 0);
	if (up < 0 || down < 0 || fp < 0 || sp < 0)
		return -ENOMEM;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < iv->n; i++) {
		double t = load_from + (double)(i + 1) * iv_s;
		rc = ws_series_push(set, up, t, iv->up[i]);
		if (rc == 0)
			rc = ws_series_push(set, down, t, iv->down[i]);
	}
	for (size_t i = 0; rc == 0 && i < r->foreign.n; i++)
		rc = ws_series_push(set, fp, r->foreign.t[i], r->foreign.v[i]);
	for (size_t i = 0; rc == 0 && i < r->self.n; i++)
		rc = ws_series_push(set, sp, r->self.t[i], r->self.v[i]);
	return rc < 0 ? -ENOMEM : 0;
}

int ws_rpm_run(const ws_rpm_config *c, ws_rpm_result *out, ws_err *err)
{
	memset(out, 0, sizeof(*out));
	out->dir = c->dir;
	out->probe_rate = c->probe_rate;
	out->max_flows = c->max_flows;
	out->saturated_at_s = -1;
	snprintf(out->remote_host, sizeof(out->remote_host), "%s", c->client->host);
	double idle_s, load_s, iv_s;
	ws_rpm_plan(c->duration_s, &idle_s, &load_s, &iv_s);
	out->interval_s = iv_s;
	struct run *r = calloc(1, sizeof(*r));
	if (!r)
		return ws_err_set(err, ENOMEM, "no memory for the RPM run");
	r->c = c;
	pthread_mutex_init(&r->mu, NULL);
	r->t0 = ws_clock_ns();
	out->series.start_unix_ns = ws_clock_wall_ns(); /* the Flent file's and summary's TIME */
	int rc = 0, e = pthread_create(&r->probe_th, NULL, probe_main, r);
	if (e) {
		pthread_mutex_destroy(&r->mu);
		free(r);
		return ws_err_set(err, e, "cannot start the probe thread: %s", strerror(e));
	}
	/* idle: foreign probes alone, a tenth of the run and WS_RPM_IDLE_MIN probes */
	int64_t idle_end = r->t0 + (int64_t)(idle_s * NS);
	int64_t idle_cap = r->t0 + (int64_t)(3 * idle_s * NS);
	for (;;) {
		int64_t now = ws_clock_ns();
		pthread_mutex_lock(&r->mu);
		size_t n = r->foreign.n;
		pthread_mutex_unlock(&r->mu);
		if (atomic_load(&r->abort) || (now >= idle_end && n >= WS_RPM_IDLE_MIN) ||
		    now >= idle_cap)
			break;
		ws_clock_sleep_ns(5000000);
	}
	int64_t load_t0 = ws_clock_ns();
	double load_from = since(r, load_t0);
	out->idle_s = load_from;
	/* the load phase keeps its planned length (and so its 15 intervals) when the idle
	 * phase waited longer for its probes */
	int64_t load_end = load_t0 + (int64_t)(load_s * NS);
	struct intervals iv = {0};
	if (!atomic_load(&r->abort))
		rc = load_phase(r, &iv, iv_s, load_t0, load_end, out, err);
	out->load_s = since(r, ws_clock_ns()) - load_from;
	atomic_store(&r->stop, true);
	pthread_join(r->probe_th, NULL);
	if (r->probe_rc < 0 && (rc == 0 || rc == -EINTR)) {
		*err = r->probe_err;
		rc = r->probe_rc;
	}
	if (rc < 0)
		shut_all(r);
	for (uint32_t i = 0; i < r->nflows; i++) {
		pthread_join(r->flows[i].th, NULL);
		ws_interim_free(r->flows[i].ip);
	}
	/* a flow that failed after the last interval, before its end */
	const struct flow *bad = rc == 0 ? failed_flow(r) : NULL;
	if (bad) {
		*err = bad->err;
		ws_err_prefix(err, "load flow %u (%s) failed", bad->n, bad->up ? "up" : "down");
		rc = err->code;
	}
	out->flows_up = r->nup;
	out->flows_down = r->ndown;
	figures(r, &iv, load_from, iv_s, out);
	if (rc == 0 && out->idle_probes == 0)
		rc = ws_err_set(err, WS_E_TIMEDOUT, "no idle probe came back in %.1f s",
				3 * idle_s);
	if (rc == 0 && out->working_latency_ms <= 0)
		rc = ws_err_set(err, WS_E_TIMEDOUT, "no probe came back under load");
	if (series_fill(r, &iv, load_from, iv_s, out) < 0 && rc == 0)
		rc = ws_err_set(err, ENOMEM, "no memory for the series");
	if (rc < 0)
		snprintf(out->error, sizeof(out->error), "%s", err->msg);
	free(iv.up);
	free(iv.down);
	free(iv.tot);
	free(iv.lat);
	samples_free(&r->foreign);
	samples_free(&r->self);
	pthread_mutex_destroy(&r->mu);
	free(r);
	return rc;
}
