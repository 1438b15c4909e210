/* SPDX-License-Identifier: BSD-2-Clause */
/* crr_client: TCP_CRR's and TCP_CC's client run: its flows and worker threads set up, run
 * (the state machine of each flow is crr.c), the daemon's end marker sent, and the side's
 * result gathered from the flows and workers; see rr.h (ws_crr_run) and crr.h. */
#include "workload/crr.h"

#include "measure/hist.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/crr_serve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Per-flow percentiles need a histogram per flow (about 32 KiB): up to this many flows. */
#define FLOW_HIST_MAX 256
/* The end marker's connect is retried (port pressure) for at most this long. */
#define MARKER_WAIT_NS (2 * WS_NS_PER_SEC)

/* The end marker: connect and close without sending. Best effort: a daemon that misses
 * it ends by its stall rule. After a failure one attempt only (no port may be free). */
static void send_marker(const ws_rr_params *p, bool failed)
{
	ws_addr local = p->local, *lp = NULL;
	if (p->bind_local) {
		ws_addr_set_port(&local, 0);
		lp = &local;
	}
	int64_t deadline = ws_clock_ns() + MARKER_WAIT_NS;
	while (ws_clock_ns() < deadline) {
		ws_err e;
		int fd = ws_sock_connect(&p->remote, lp, 0, 0, NULL, NULL, deadline, &e);
		if (fd >= 0) {
			close(fd);
			return;
		}
		if (!ws_crr_port_error(-e.code) || failed)
			return;
		struct timespec ts = {0, 10 * WS_NS_PER_MS};
		nanosleep(&ts, NULL);
	}
}

static int fill_client(struct crr_client *c, struct cworker *w, ws_side_result *res, ws_err *err)
{
	const ws_rr_params *p = c->p;
	int rc = 0;
	res->latency = malloc(sizeof(*res->latency));
	if (!res->latency)
		return ws_err_set(err, ENOMEM, "no memory for the latency histogram");
	ws_hist_init(res->latency);
	int64_t last_end = p->start_ns;
	for (uint32_t t = 0; t < c->nthreads; t++) {
		res->connects += w[t].connects;
		res->connect_errors += w[t].connect_errors;
		if (w[t].mptcp_state && !res->mptcp_state[0]) {
			snprintf(res->mptcp_state, sizeof(res->mptcp_state), "%s",
				 w[t].mptcp_state);
			res->mptcp_subflows = w[t].mptcp_subflows;
		}
		res->thread_user_ns += w[t].user_ns;
		res->thread_sys_ns += w[t].sys_ns;
		if (w[t].hist)
			ws_hist_merge(res->latency, w[t].hist, NULL);
		if (rc == 0 && w[t].err.code) {
			*err = w[t].err;
			rc = w[t].err.code;
		}
	}
	bool many = c->nflows > 1;
	if (many) {
		res->flows = calloc(c->nflows, sizeof(*res->flows));
		res->threads = calloc(c->nthreads, sizeof(*res->threads));
		if (!res->flows || !res->threads)
			return ws_err_set(err, ENOMEM, "no memory for %u flow results", c->nflows);
		res->nflows = c->nflows;
		res->nthreads = c->nthreads;
	}
	for (uint32_t i = 0; i < c->nflows; i++) {
		struct cflow *f = &c->flows[i];
		res->transactions += f->trans;
		res->bytes_sent += f->sent;
		res->bytes_recv += f->recvd;
		res->send_calls += f->scalls;
		res->recv_calls += f->rcalls;
		if (f->end_ns > last_end)
			last_end = f->end_ns;
		if (rc == 0 && f->phase == C_FAILED) {
			rc = ws_err_set(err, f->error, "%s", f->why);
			if (many)
				ws_err_prefix(err, "TCP_CRR flow %u of %u", i + 1, c->nflows);
			if (f->error == -WS_E_LIMIT)
				rc = ws_err_set(
					err, WS_E_LIMIT,
					"stopped by the time cap after %.1f s, %llu transactions",
					(double)(f->end_ns - p->start_ns) / WS_NS_PER_SEC,
					(unsigned long long)res->transactions);
		}
		if (!many)
			continue;
		ws_flow_result *fr = &res->flows[i];
		fr->bytes = f->sent;
		fr->calls = f->scalls;
		fr->elapsed_ns = f->end_ns - p->start_ns;
		fr->thread = i % c->nthreads;
		fr->error = f->phase == C_FAILED ? f->error : 0;
		snprintf(fr->why, sizeof(fr->why), "%.79s", f->phase == C_FAILED ? f->why : "");
		fr->transactions = f->trans;
		if (f->hist) {
			fr->lat_p50_ns = ws_hist_percentile(f->hist, 50);
			fr->lat_p99_ns = ws_hist_percentile(f->hist, 99);
		}
	}
	for (uint32_t t = 0; many && t < c->nthreads; t++) {
		res->threads[t].user_ns = w[t].user_ns;
		res->threads[t].sys_ns = w[t].sys_ns;
		res->threads[t].cpu = w[t].cpu;
		res->threads[t].flows = c->nflows / c->nthreads + (t < c->nflows % c->nthreads);
	}
	res->elapsed_ns = last_end - p->start_ns;
	res->send_size = p->spec->req_size;
	res->recv_size = p->spec->rsp_size;
	snprintf(res->io_path, sizeof(res->io_path), "%s",
		 p->engine == WS_ENGINE_IO_URING ? "io_uring" : "send");
	return rc;
}

static int run_client(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	const ws_test_spec *spec = p->spec;
	struct crr_client c = {.p = p, .nflows = spec->streams ? spec->streams : 1};
	c.nthreads = p->threads < 1 ? 1 : p->threads > c.nflows ? c.nflows : p->threads;
	ws_addr_format_port(&p->remote, c.where, sizeof(c.where));
	c.flows = calloc(c.nflows, sizeof(*c.flows));
	struct cworker *w = calloc(c.nthreads, sizeof(*w));
	int rc = 0;
	if (!c.flows || !w)
		rc = ws_err_set(err, ENOMEM, "no memory for %u TCP_CRR flows", c.nflows);
	for (uint32_t i = 0; rc == 0 && i < c.nflows; i++) {
		c.flows[i].fd = -1;
		c.flows[i].phase = C_IDLE;
		if (c.nflows > 1 && c.nflows <= FLOW_HIST_MAX &&
		    (c.flows[i].hist = malloc(sizeof(ws_hist))))
			ws_hist_init(c.flows[i].hist);
	}
	for (uint32_t t = 0; rc == 0 && t < c.nthreads; t++)
		w[t] = (struct cworker){
			.c = &c, .id = t, .ep = -1, .cpu = p->ncpus ? p->cpus[t % p->ncpus] : -1};
	if (rc == 0)
		rc = ws_crr_run_threads(ws_crr_worker_main, w, sizeof(*w), c.nthreads, &c.abort,
					"client", err);
	/* also after a failure: the daemon need not wait for its stall timer */
	/* netserver knows no marker: its own timer ends its side; to TCP_CC's daemon a marker
	 * is one more transaction, and to one that answers an empty request (-c on TCP_MAERTS)
	 * one more response, so these end on its idle rule */
	if (!p->spec->netperf_peer && p->spec->type != WS_TEST_TCP_CC && p->spec->req_size)
		send_marker(p, rc < 0 || atomic_load(&c.abort));
	if (rc == 0)
		rc = fill_client(&c, w, res, err);
	for (uint32_t t = 0; w && t < c.nthreads; t++)
		free(w[t].hist);
	for (uint32_t i = 0; c.flows && i < c.nflows; i++)
		free(c.flows[i].hist);
	free(c.flows);
	free(w);
	return rc;
}

int ws_crr_run(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	if (p->is_client)
		return run_client(p, res, err);
	return ws_crr_serve(p, res, err);
}
