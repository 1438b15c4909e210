/* SPDX-License-Identifier: BSD-2-Clause */
/* result_om: the families of test results; see result_om.h and docs/metrics.md. */
#include "report/result_om.h"

#include "measure/latency.h"
#include "model/testtype.h"

#include <math.h>
#include <stdio.h>

#include <warpspeed/version.h>

#define MAX_LABELS 6

/* One result's labels, and the room their numbers need. */
typedef struct labels {
	ws_om_label l[MAX_LABELS + 2]; /* + side/percentile/per, and room */
	size_t n;
	char a[24], b[24], run[24];
} labels;

/* The tests with a request and a response size (the test-type table's rule). */
static bool rr(enum ws_test_type t) { return ws_test_type_has(t, WS_TO_REQUESTS); }

static void labels_of(const ws_report_ctx *c, size_t i, size_t n, labels *L)
{
	const ws_test_result *r = c->r;
	enum ws_test_type t = r->spec.type;
	bool maerts = t == WS_TEST_TCP_MAERTS;
	const char *an = rr(t) ? "request_size" : "send_size";
	const char *bn = rr(t) ? "response_size" : "recv_size";
	double a = ws_out_number(c,
				 rr(t)            ? "REQUEST_SIZE"
					 : maerts ? "REMOTE_SEND_SIZE"
						  : "LOCAL_SEND_SIZE");
	double b = ws_out_number(c,
				 rr(t)            ? "RESPONSE_SIZE"
					 : maerts ? "LOCAL_RECV_SIZE"
						  : "REMOTE_RECV_SIZE");
	L->n = 0;
	L->l[L->n++] = (ws_om_label){"test", ws_test_type_name(t) ? ws_test_type_name(t) : "?"};
	L->l[L->n++] = (ws_om_label){"host", r->remote_host};
	if (!isnan(a)) {
		snprintf(L->a, sizeof(L->a), "%.0f", a);
		L->l[L->n++] = (ws_om_label){an, L->a};
	}
	if (!isnan(b)) {
		snprintf(L->b, sizeof(L->b), "%.0f", b);
		L->l[L->n++] = (ws_om_label){bn, L->b};
	}
	if (n > 1) {
		snprintf(L->run, sizeof(L->run), "%zu", i + 1);
		L->l[L->n++] = (ws_om_label){"run", L->run};
	}
}

/* One sample when v is a figure (not NaN, not netperf's negative "unknown"). */
static void put(ws_om *w, const labels *L, const char *k, const char *v, double x)
{
	if (isnan(x) || x < 0)
		return;
	labels m = *L;
	if (k)
		m.l[m.n++] = (ws_om_label){k, v};
	ws_om_sample(w, m.l, m.n, x);
}

enum fig { THROUGHPUT, TRANS, ELAPSED, LATENCY, LAT_MEAN, CPU, SD, NFIG };

/* clang-format off */
static const struct {
	const char *name, *unit, *help;
} figs[NFIG] = {
	[THROUGHPUT] = {"warpspeed_result_throughput_bytes_per_second", NULL, "Data moved per second (stream tests)."},
	[TRANS] = {"warpspeed_result_transactions_per_second", NULL, "Transactions per second (request/response tests)."},
	[ELAPSED] = {"warpspeed_result_elapsed_seconds", "seconds", "The test's measured length."},
	[LATENCY] = {"warpspeed_result_latency_seconds", "seconds", "Round-trip latency percentiles (request/response tests)."},
	[LAT_MEAN] = {"warpspeed_result_latency_mean_seconds", "seconds", "Mean round-trip latency (request/response tests)."},
	[CPU] = {"warpspeed_result_cpu_utilization_ratio", "ratio", "CPU utilisation, 0 to 1, by side (with -c / -C)."},
	[SD] = {"warpspeed_result_service_demand_seconds", "seconds", "CPU time per kilobyte (1024 bytes) or per transaction, by side (with -c / -C)."},
};
/* clang-format on */

static void figure(ws_om *w, enum fig f, const ws_report_ctx *c, const labels *L)
{
	const ws_test_result *r = c->r;
	bool is_rr = rr(r->spec.type);
	switch (f) {
	case THROUGHPUT:
		if (!is_rr) {
			ws_report_ctx m = *c;
			m.fmt = 'm'; /* 10^6 bits/s */
			put(w, L, NULL, NULL, ws_out_number(&m, "THROUGHPUT") * 1e6 / 8);
		}
		break;
	case TRANS:
		if (is_rr)
			put(w, L, NULL, NULL, ws_out_number(c, "TRANSACTION_RATE"));
		break;
	case ELAPSED:
		put(w, L, NULL, NULL, ws_out_number(c, "ELAPSED_TIME"));
		break;
	case LATENCY:
	case LAT_MEAN: {
		ws_latency_stats s;
		if (!is_rr || !r->local.latency)
			break;
		ws_latency_stats_of(r->local.latency, &s);
		if (!s.count)
			break;
		if (f == LAT_MEAN) {
			put(w, L, NULL, NULL, s.mean_us / 1e6);
			break;
		}
		put(w, L, "percentile", "50", s.p50_us / 1e6);
		put(w, L, "percentile", "90", s.p90_us / 1e6);
		put(w, L, "percentile", "99", s.p99_us / 1e6);
		put(w, L, "percentile", "99.9", s.p999_us / 1e6);
		break;
	}
	case CPU:
		if (c->local_cpu)
			put(w, L, "side", "local", ws_out_number(c, "LOCAL_CPU_UTIL") / 100);
		if (c->remote_cpu)
			put(w, L, "side", "remote", ws_out_number(c, "REMOTE_CPU_UTIL") / 100);
		break;
	case SD:
		for (int remote = 0; remote <= 1; remote++) {
			if (!(remote ? c->remote_cpu : c->local_cpu))
				continue;
			labels m = *L;
			m.l[m.n++] = (ws_om_label){"per", is_rr ? "transaction" : "kilobyte"};
			put(w, &m, "side", remote ? "remote" : "local",
			    ws_out_number(c, remote ? "REMOTE_SD" : "LOCAL_SD") / 1e6);
		}
		break;
	case NFIG:
		break;
	}
}

void ws_result_om_render(ws_om *w, const ws_report_ctx *c, size_t n)
{
	ws_om_family(w, "warpspeed_build", WS_OM_INFO, NULL, "The warpspeed build that measured.");
	ws_om_label ver[] = {{"version", ws_version()}};
	ws_om_sample(w, ver, 1, 1);
	for (int f = 0; f < NFIG; f++) {
		ws_om_family(w, figs[f].name, WS_OM_GAUGE, figs[f].unit, figs[f].help);
		for (size_t i = 0; i < n; i++) {
			labels L;
			labels_of(&c[i], i, n, &L);
			figure(w, (enum fig)f, &c[i], &L);
		}
	}
}
