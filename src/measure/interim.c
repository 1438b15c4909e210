/* SPDX-License-Identifier: BSD-2-Clause */
/* interim: the counters' allocation, the interval arithmetic and the reporter thread of
 * interim.h. The thread sleeps on absolute monotonic deadlines (no drift from the time a
 * sample takes) and is woken early only to stop. */
#include "measure/interim.h"

#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ws_interim {
	ws_interim_config cfg;
	ws_interim_counter *flows; /* cfg.nflows, cache-line aligned */
	ws_interim_clock *clocks;  /* [0] the aggregate, [1 + i] flow i */
	pthread_mutex_t mu;
	pthread_cond_t cv; /* stop; on CLOCK_MONOTONIC */
	bool begun, stopping, running;
	pthread_t thread;
};

void ws_interim_clock_init(ws_interim_clock *c, int64_t interval_ns, int64_t mono_ns,
			   int64_t wall_ns)
{
	*c = (ws_interim_clock){
		.start_ns = mono_ns,
		.wall_offset_ns = wall_ns - mono_ns,
		.interval_ns = interval_ns > 0 ? interval_ns : 1,
		.last_ns = mono_ns,
		.k = 1,
	};
}

int64_t ws_interim_clock_deadline(const ws_interim_clock *c)
{
	return c->start_ns + (int64_t)c->k * c->interval_ns;
}

int ws_interim_clock_step(ws_interim_clock *c, int64_t now_ns, uint64_t total, bool final,
			  ws_interim_sample *s)
{
	if (final ? now_ns <= c->last_ns : now_ns < ws_interim_clock_deadline(c))
		return 0;
	int64_t len = now_ns - c->last_ns;
	uint64_t units = total >= c->last_units ? total - c->last_units : 0;
	*s = (ws_interim_sample){
		.index = c->index,
		.flow = -1,
		.units = units,
		.interval_ns = len,
		.interval_s = (double)len / (double)WS_NS_PER_SEC,
		.rate = len > 0 ? (double)units * (double)WS_NS_PER_SEC / (double)len : 0.0,
		.ending_wall_ns = now_ns + c->wall_offset_ns,
		.final = final,
	};
	c->index++;
	c->last_ns = now_ns;
	c->last_units = total;
	/* The first deadline after now: a stalled reporter makes one long interval. */
	int64_t ahead = (now_ns - c->start_ns) / c->interval_ns + 1;
	c->k = ahead > (int64_t)c->k ? (uint32_t)ahead : c->k;
	return 1;
}

ws_interim_counter *ws_interim_flow(ws_interim *ip, uint32_t i)
{
	return ip && i < ip->cfg.nflows ? &ip->flows[i] : NULL;
}

int ws_interim_create(const ws_interim_config *cfg, ws_interim **out, ws_err *err)
{
	*out = NULL;
	if (!cfg || !cfg->cb)
		return ws_err_set(err, WS_E_INVAL,
				  "interim results: no callback to report them to");
	if (!(cfg->interval_s >= 0.001 && cfg->interval_s <= 86400))
		return ws_err_set(
			err, WS_E_INVAL,
			"interim results: interval %g s is out of range; expected 0.001 to 86400 s",
			cfg->interval_s);
	if (cfg->nflows < 1 || cfg->nflows > 65536)
		return ws_err_set(err, WS_E_INVAL,
				  "interim results: %u flows is out of range; expected 1 to 65536",
				  (unsigned)cfg->nflows);
	ws_interim *ip = calloc(1, sizeof(*ip));
	if (!ip)
		return ws_err_set(err, ENOMEM, "no memory for interim results");
	ip->cfg = *cfg;
	ip->flows = aligned_alloc(64, sizeof(ws_interim_counter) * cfg->nflows);
	ip->clocks = calloc((size_t)cfg->nflows + 1, sizeof(*ip->clocks));
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&ip->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&ip->mu, NULL);
	if (!ip->flows || !ip->clocks || rc) {
		free(ip->flows);
		free(ip->clocks);
		pthread_mutex_destroy(&ip->mu);
		if (!rc)
			pthread_cond_destroy(&ip->cv);
		free(ip);
		return ws_err_set(err, ENOMEM, "no memory for %u interim counters",
				  (unsigned)cfg->nflows);
	}
	for (uint32_t i = 0; i < cfg->nflows; i++)
		atomic_init(&ip->flows[i].units, 0);
	*out = ip;
	return 0;
}

static uint64_t total_of(ws_interim *ip, uint32_t i)
{
	return atomic_load_explicit(&ip->flows[i].units, memory_order_relaxed);
}

/* Sample every clock at now (they share their deadlines, so they fire together) and
 * report: the aggregate first, then each flow. Called with ip->mu not held. */
static void sample_all(ws_interim *ip, int64_t now, bool final)
{
	uint64_t sum = 0;
	uint32_t n = ip->cfg.nflows;
	uint64_t *totals = n > 1 ? malloc(sizeof(uint64_t) * n) : NULL;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t = total_of(ip, i);
		sum += t;
		if (totals)
			totals[i] = t;
	}
	ws_interim_sample s;
	if (!ws_interim_clock_step(&ip->clocks[0], now, sum, final, &s)) {
		free(totals);
		return;
	}
	s.kind = ip->cfg.kind;
	ip->cfg.cb(ip->cfg.ctx, &s);
	for (uint32_t i = 0; ip->cfg.per_flow && totals && i < n; i++) {
		if (ws_interim_clock_step(&ip->clocks[1 + i], now, totals[i], final, &s)) {
			s.kind = ip->cfg.kind;
			s.flow = (int32_t)i;
			ip->cfg.cb(ip->cfg.ctx, &s);
		}
	}
	free(totals);
}

static struct timespec ts_of(int64_t ns)
{
	return (struct timespec){.tv_sec = ns / WS_NS_PER_SEC, .tv_nsec = ns % WS_NS_PER_SEC};
}

static void *reporter(void *arg)
{
	ws_interim *ip = arg;
	pthread_mutex_lock(&ip->mu);
	while (!ip->stopping) {
		struct timespec dl = ts_of(ws_interim_clock_deadline(&ip->clocks[0]));
		int rc = pthread_cond_timedwait(&ip->cv, &ip->mu, &dl);
		if (ip->stopping || rc != ETIMEDOUT)
			continue;
		pthread_mutex_unlock(&ip->mu);
		sample_all(ip, ws_clock_ns(), false);
		pthread_mutex_lock(&ip->mu);
	}
	pthread_mutex_unlock(&ip->mu);
	return NULL;
}

int ws_interim_begin(ws_interim *ip, int64_t mono_ns, int64_t wall_ns, ws_err *err)
{
	if (!ip)
		return 0;
	ws_interim_stop(ip, 0); /* a begin without a stop: end the previous run first */
	int64_t ns = (int64_t)(ip->cfg.interval_s * (double)WS_NS_PER_SEC + 0.5);
	for (uint32_t i = 0; i <= ip->cfg.nflows; i++) {
		ws_interim_clock_init(&ip->clocks[i], ns, mono_ns, wall_ns);
		ip->clocks[i].last_units = i ? total_of(ip, i - 1) : 0;
	}
	for (uint32_t i = 0; i < ip->cfg.nflows; i++)
		ip->clocks[0].last_units += total_of(ip, i);
	ip->stopping = false;
	ip->begun = true;
	int rc = pthread_create(&ip->thread, NULL, reporter, ip);
	if (rc) {
		ip->begun = false;
		return ws_err_set(err, -rc, "cannot start the interim results thread (error %d)",
				  rc);
	}
	ip->running = true;
	return 0;
}

void ws_interim_stop(ws_interim *ip, int64_t until_ns)
{
	if (!ip)
		return;
	pthread_mutex_lock(&ip->mu);
	ip->stopping = true;
	pthread_cond_broadcast(&ip->cv);
	pthread_mutex_unlock(&ip->mu);
	if (ip->running)
		pthread_join(ip->thread, NULL);
	ip->running = false;
	int64_t now = ws_clock_ns();
	if (ip->begun)
		sample_all(ip, until_ns > 0 && until_ns < now ? until_ns : now, true);
	ip->begun = false;
}

void ws_interim_free(ws_interim *ip)
{
	if (!ip)
		return;
	ws_interim_stop(ip, 0);
	pthread_cond_destroy(&ip->cv);
	pthread_mutex_destroy(&ip->mu);
	free(ip->flows);
	free(ip->clocks);
	free(ip);
}
