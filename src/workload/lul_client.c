/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_client: the client's half of an RRUL run, and the sampling of its flows; see lul_client.h. */
#include "workload/lul_client.h"

#include "measure/interim.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/lul_load.h"
#include "workload/lul_probe.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* Greet every connection, in the plan's order; the last is the TCP probe's. */
static int greet_all(const ws_lul_client_params *p, ws_lul_result *out, ws_err *err)
{
	const ws_lul_plan *pl = &out->plan;
	uint32_t nflows = pl->nup + pl->ndown;
	for (uint32_t i = 0; i <= nflows; i++) {
		enum ws_lul_role role = i < pl->nup ? WS_LUL_ROLE_UP
			: i < nflows                ? WS_LUL_ROLE_DOWN
						    : WS_LUL_ROLE_PROBE;
		int tos = i < nflows ? pl->item[i].tos : 0, l, r;
		int rc = ws_lul_greet(p->fds[i], role, tos, pl->delay_s, &l, &r, err);
		if (rc < 0)
			return rc;
		if (i < nflows) {
			out->tos_local[i] = l;
			out->tos_remote[i] = r;
		}
		for (uint32_t k = nflows; i == nflows && k < nflows + pl->nprobes; k++)
			if (strcmp(pl->item[k].probe, "tcp") == 0) {
				out->tos_local[k] = l;
				out->tos_remote[k] = r;
			}
	}
	return 0;
}

static int make_series(ws_lul_result *out, double length_s)
{
	const ws_lul_plan *pl = &out->plan;
	out->set.step_s = pl->step_s;
	out->set.length_s = length_s;
	out->set.delay_s = pl->delay_s;
	for (uint32_t i = 0; i < pl->nup + pl->ndown + pl->nprobes; i++) {
		const ws_lul_item *it = &pl->item[i];
		if (ws_series_add(&out->set, it->name, it->kind, it->probe[0] ? it->probe : NULL,
				  it->tos) < 0)
			return -1;
		out->tos_local[i] = out->tos_remote[i] = -1;
	}
	return 0;
}

/* The flows' counters every step, as Mbit/s over the step, until the test's length or an
 * early stop; ends the run early (why) when the probes find the daemon gone. */
static void sample(const ws_lul_client_params *p, ws_lul_result *out, ws_interim_counter *ctr,
		   pthread_mutex_t *mu, int64_t t0, ws_lul_probes *ps, atomic_bool *stop)
{
	const ws_lul_plan *pl = &out->plan;
	uint32_t nflows = pl->nup + pl->ndown;
	uint64_t *last = calloc(nflows ? nflows : 1, sizeof(*last));
	int64_t step = (int64_t)(pl->step_s * WS_NS_PER_SEC);
	int64_t len = ws_test_spec_duration_ns(p->spec);
	if (!last)
		return;
	int64_t t_run = t0 + (int64_t)pl->delay_s * WS_NS_PER_SEC; /* the flows' start */
	for (int64_t k = 1; (k - 1) * step < len && !atomic_load(stop); k++) {
		int64_t at = t_run + k * step, end = k * step > len ? t_run + len : at;
		while (ws_clock_ns() < end && !atomic_load(stop) && !ps->why[0])
			ws_clock_sleep_ns(end - ws_clock_ns() > 20 * WS_NS_PER_MS
						  ? 20 * WS_NS_PER_MS
						  : end - ws_clock_ns());
		if (ps->why[0])
			break;
		double dt = (double)(end - (t_run + (k - 1) * step)) / WS_NS_PER_SEC;
		pthread_mutex_lock(mu);
		for (uint32_t i = 0; i < nflows; i++) {
			uint64_t u = atomic_load_explicit(&ctr[i].units, memory_order_relaxed);
			ws_series_push(&out->set, (int)i, (double)(end - t0) / WS_NS_PER_SEC,
				       dt > 0 ? (double)(u - last[i]) * 8 / 1e6 / dt : 0);
			last[i] = u;
		}
		if (p->tick)
			p->tick(p->tick_ctx, out);
		pthread_mutex_unlock(mu);
	}
	free(last);
}

/* An early end: every load connection shut down, so both directions end at once. */
static void stop_load(const ws_lul_client_params *p, const ws_lul_plan *pl, atomic_bool *stop)
{
	atomic_store(stop, true);
	for (uint32_t i = 0; i < pl->nup + pl->ndown; i++)
		shutdown(p->fds[i], SHUT_RDWR);
}

int ws_lul_client_run(const ws_lul_client_params *p, ws_lul_result *out, ws_side_result *res,
		      ws_err *err)
{
	const ws_lul_plan *pl = &out->plan;
	uint32_t nflows = pl->nup + pl->ndown;
	int64_t delay = (int64_t)pl->delay_s * WS_NS_PER_SEC;
	int rc =
		make_series(out,
			    (double)(ws_test_spec_duration_ns(p->spec) + 2 * delay) / WS_NS_PER_SEC)
		? ws_err_set(err, ENOMEM, "no memory for the series")
		: 0;
	if (rc == 0)
		rc = greet_all(p, out, err);
	ws_lul_probes ps;
	memset(&ps, 0, sizeof(ps));
	if (rc == 0)
		rc = ws_lul_probes_open(&ps, pl, out, p->fds[nflows], &p->echo, err);
	if (rc < 0)
		return rc;
	ws_interim_counter *ctr = aligned_alloc(64, (nflows + 1) * sizeof(*ctr));
	if (!ctr) {
		ws_lul_probes_close(&ps);
		return ws_err_set(err, ENOMEM, "no memory for the flows' counters");
	}
	memset(ctr, 0, (nflows + 1) * sizeof(*ctr));
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	atomic_bool stop = false;
	ps.mu = &mu;
	ps.stop = &stop;
	ps.duration_ns = ws_test_spec_duration_ns(p->spec) + 2 * delay;
	ws_lul_load up, down;
	memset(&up, 0, sizeof(up));
	memset(&down, 0, sizeof(down));
	int64_t t0 = ws_clock_ns();
	out->set.start_unix_ns = ws_clock_wall_ns();
	ps.t0_ns = t0;
	pthread_t pt;
	bool probing = pthread_create(&pt, NULL, ws_lul_probes_main, &ps) == 0;
	if (!probing)
		rc = ws_err_set(err, EAGAIN, "could not start the probes' thread");
	while (rc == 0 && ws_clock_ns() < t0 + delay && !ps.why[0]) /* the probes alone first */
		ws_clock_sleep_ns(10 * WS_NS_PER_MS);
	if (rc == 0)
		rc = ws_lul_load_start(&up, p->fds, pl->nup, true, p->spec, 0, ctr, err);
	if (rc == 0)
		rc = ws_lul_load_start(&down, p->fds + pl->nup, pl->ndown, false, p->spec, 0,
				       ctr + pl->nup, err);
	if (rc == 0)
		sample(p, out, ctr, &mu, t0, &ps, &stop);
	if (rc < 0 || ps.why[0])
		stop_load(p, pl, &stop);
	ws_err e1, e2;
	ws_err_clear(&e1);
	ws_err_clear(&e2);
	int r1 = ws_lul_load_join(&up, &e1), r2 = ws_lul_load_join(&down, &e2);
	if (probing)
		pthread_join(pt, NULL);
	ws_lul_probes_close(&ps);
	free(ctr);
	if (ws_lul_load_merge(&up, &down, res) < 0 && rc == 0)
		rc = ws_err_set(err, ENOMEM, "no memory for the flows' results");
	if (!res->elapsed_ns) /* no flow ran: the run's own length */
		res->elapsed_ns = ws_clock_ns() - t0;
	char failed[160];
	ws_lul_first_failure(res, pl->nup, failed, sizeof(failed));
	if (rc == 0 && ps.why[0])
		rc = ws_err_set(err, WS_E_TIMEDOUT, "%s", ps.why);
	else if (rc == 0 && failed[0])
		rc = ws_err_set(err, EIO, "%s", failed);
	else if (rc == 0 && (r1 < 0 || r2 < 0)) {
		rc = r1 < 0 ? r1 : r2;
		if (err)
			*err = r1 < 0 ? e1 : e2;
	}
	if (rc < 0)
		snprintf(out->stopped, sizeof(out->stopped), "%.190s", err ? err->msg : "failed");
	for (uint32_t i = 0; i < out->set.n; i++)
		res->trans_lost += out->set.s[i].lost;
	return rc;
}
