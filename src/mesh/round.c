/* SPDX-License-Identifier: BSD-2-Clause */
/* round: one round of this rank's tests, in parallel; see round.h. */
#include "mesh/round.h"

#include "report/outputs.h"
#include "session/client.h"
#include "util/err.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A named figure of r as the output selectors compute it. */
static void figure(const char *name, const ws_test_result *r, char fmt, ws_out_value *v)
{
	ws_report_ctx ctx = {.r = r, .fmt = fmt};
	int i = ws_out_find(name);
	memset(v, 0, sizeof(*v));
	if (i >= 0)
		ws_out_value_of(ws_out_at((size_t)i), &ctx, v);
}

void ws_mesh_round_units(const ws_mesh_round_config *c, char *buf, size_t n)
{
	ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.spec = *c->spec;
	ws_out_value v;
	figure("THROUGHPUT_UNITS", &r, c->fmt, &v);
	snprintf(buf, n, "%s/s", v.kind == WS_OUT_V_STR ? v.s : "?");
}

typedef struct job {
	const ws_mesh_round_config *c;
	ws_mesh_cell *cell;
	pthread_t th;
	bool started;
} job;

static void fail(ws_mesh_cell *cell, int rc, const char *msg)
{
	cell->status = rc < 0 ? rc : -WS_E_REMOTE;
	cell->throughput = cell->elapsed_s = 0;
	snprintf(cell->error, sizeof(cell->error), "%s",
		 msg && *msg ? msg : "failed (no reason given)");
}

static void *run_one(void *arg)
{
	job *j = arg;
	const ws_mesh_round_config *c = j->c;
	ws_mesh_cell *cell = j->cell;
	const ws_mesh_peer *me = &c->peers[c->self], *to = &c->peers[cell->dst];
	if (to->status < 0) {
		fail(cell, to->status, "the destination rank has no daemon");
		return NULL;
	}
	ws_client_config cfg;
	ws_client_config_init(&cfg);
	cfg.host = to->addr;
	cfg.host_family = to->family;
	cfg.port = to->port;
	cfg.local_host = me->addr; /* control and data leave from this rank's data address */
	cfg.local_family = me->family;
	cfg.peer = WS_PEER_WARPSPEED; /* every rank runs a warpspeed daemon: no probe */
	ws_test_result res;
	memset(&res, 0, sizeof(res));
	ws_err err;
	ws_err_clear(&err);
	int rc = ws_client_run_test(&cfg, c->spec, &res, &err);
	if (rc < 0) {
		fail(cell, rc, err.msg);
	} else {
		ws_out_value v;
		figure("THROUGHPUT", &res, c->fmt, &v);
		cell->throughput = v.kind == WS_OUT_V_DOUBLE ? v.d : 0;
		cell->elapsed_s = (double)res.local.elapsed_ns / 1e9;
	}
	ws_test_result_free(&res);
	return NULL;
}

size_t ws_mesh_round_run(const ws_mesh_round_config *c, const ws_mesh_schedule *s, int r,
			 ws_mesh_cell *cells, size_t max)
{
	size_t n = 0;
	for (size_t i = s->round_start[r]; i < s->round_start[r + 1] && n < max; i++)
		if (s->pairs[i].src == c->self)
			cells[n++] =
				(ws_mesh_cell){.src = c->self, .dst = s->pairs[i].dst, .round = r};
	if (n == 0)
		return 0;
	job *jobs = calloc(n, sizeof(*jobs));
	if (!jobs) {
		for (size_t i = 0; i < n; i++)
			fail(&cells[i], -ENOMEM, "no memory to start the test");
		return n;
	}
	/* The last test runs in this thread, so a round of one pair starts no thread. */
	for (size_t i = 0; i < n; i++) {
		jobs[i] = (job){.c = c, .cell = &cells[i]};
		if (i + 1 == n)
			break;
		int e = pthread_create(&jobs[i].th, NULL, run_one, &jobs[i]);
		if (e != 0) {
			char msg[96];
			snprintf(msg, sizeof(msg), "could not start its thread: %s", strerror(e));
			fail(&cells[i], -e, msg);
		} else {
			jobs[i].started = true;
		}
	}
	run_one(&jobs[n - 1]);
	for (size_t i = 0; i + 1 < n; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].th, NULL);
	free(jobs);
	return n;
}
