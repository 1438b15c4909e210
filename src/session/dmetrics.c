/* SPDX-License-Identifier: BSD-2-Clause */
/* dmetrics: the daemon's counters and their families; see dmetrics.h. */
#include "session/dmetrics.h"

#include "util/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <warpspeed/version.h>

#define NTESTS (WS_TEST_RPM + 1) /* every test type, RRUL, RRUL_BE and RPM included */

/* Test durations: from a quick -l 1 to the default --max-duration. */
static const double dur_le[] = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600};
#define NDUR (sizeof(dur_le) / sizeof(dur_le[0]))

enum outcome { O_OK, O_FAILED, O_REFUSED, O_N };
static const char *const outcome_names[O_N] = {"ok", "failed", "refused"};

static const char *const refusal_names[WS_DM_REFUSALS] = {
	[WS_DM_LIMITS] = "limits",
	[WS_DM_AUTH] = "auth",
	[WS_DM_BUSY] = "busy",
	[WS_DM_PROTOCOL] = "protocol",
	[WS_DM_TIMEOUT] = "timeout",
	[WS_DM_EVICTED] = "evicted",
	[WS_DM_DESCRIPTORS] = "descriptors",
};

struct ws_dmetrics {
	double start_time;    /* the wall clock at creation, seconds */
	uint64_t sessions[2]; /* warpspeed, netperf */
	int64_t active;
	uint64_t tests[NTESTS][O_N];
	uint64_t sent[NTESTS], recvd[NTESTS];
	uint64_t dur[NTESTS][NDUR + 1];
	uint64_t dur_sum_ns[NTESTS];
	uint64_t refused[WS_DM_REFUSALS];
	uint64_t auth_failures;
};

static void add(uint64_t *c, uint64_t v) { __atomic_fetch_add(c, v, __ATOMIC_RELAXED); }
static uint64_t get(const uint64_t *c) { return __atomic_load_n(c, __ATOMIC_RELAXED); }

ws_dmetrics *ws_dmetrics_new(void)
{
	ws_dmetrics *m = calloc(1, sizeof(*m));
	struct timespec ts;
	if (m && clock_gettime(CLOCK_REALTIME, &ts) == 0)
		m->start_time = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return m;
}

void ws_dmetrics_free(ws_dmetrics *m) { free(m); }

void ws_dmetrics_session(ws_dmetrics *m, bool netperf, int delta)
{
	if (!m)
		return;
	if (delta > 0)
		add(&m->sessions[netperf], 1);
	__atomic_fetch_add(&m->active, delta, __ATOMIC_RELAXED);
}

void ws_dmetrics_refused(ws_dmetrics *m, enum ws_dm_refusal why)
{
	if (!m || why >= WS_DM_REFUSALS)
		return;
	add(&m->refused[why], 1);
	if (why == WS_DM_AUTH)
		add(&m->auth_failures, 1);
}

void ws_dmetrics_test(ws_dmetrics *m, enum ws_test_type t, int rc, const ws_side_result *res)
{
	if (!m || (int)t < 0 || (int)t >= NTESTS || !ws_test_type_name(t))
		return;
	enum outcome o = rc == 0 ? O_OK : rc == -WS_E_LIMIT ? O_REFUSED : O_FAILED;
	add(&m->tests[t][o], 1);
	if (o == O_REFUSED)
		ws_dmetrics_refused(m, WS_DM_LIMITS);
	if (!res)
		return;
	add(&m->sent[t], res->bytes_sent);
	add(&m->recvd[t], res->bytes_recv);
	if (o != O_OK || res->elapsed_ns < 0)
		return;
	double s = (double)res->elapsed_ns / 1e9;
	size_t b = 0;
	while (b < NDUR && s > dur_le[b])
		b++;
	add(&m->dur[t][b], 1);
	add(&m->dur_sum_ns[t], (uint64_t)res->elapsed_ns);
}

/* A test's label set once any test of its type ended (zeros before would be noise). */
static bool seen(const ws_dmetrics *m, int t)
{
	for (int o = 0; o < O_N; o++)
		if (get(&m->tests[t][o]))
			return true;
	return false;
}

static void per_test(const ws_dmetrics *m, ws_om *w, const uint64_t *v)
{
	for (int t = 0; t < NTESTS; t++)
		if (seen(m, t)) {
			ws_om_label l[] = {{"test", ws_test_type_name((enum ws_test_type)t)}};
			ws_om_sample_u64(w, l, 1, get(&v[t]));
		}
}

void ws_dmetrics_render(void *ctx, ws_om *w)
{
	ws_dmetrics *m = ctx;
	ws_om_family(w, "warpspeed_build", WS_OM_INFO, NULL, "The warpspeed build serving.");
	ws_om_label ver[] = {{"version", ws_version()}};
	ws_om_sample(w, ver, 1, 1);
	ws_om_family(w, "warpspeed_daemon_start_time_seconds", WS_OM_GAUGE, "seconds",
		     "When the daemon started, in seconds since the Unix epoch.");
	ws_om_sample(w, NULL, 0, m->start_time);
	ws_om_family(w, "warpspeed_daemon_sessions", WS_OM_COUNTER, NULL,
		     "Sessions admitted, by control protocol.");
	static const char *const proto[] = {"warpspeed", "netperf"};
	for (int i = 0; i < 2; i++) {
		ws_om_label l[] = {{"protocol", proto[i]}};
		ws_om_sample_u64(w, l, 1, get(&m->sessions[i]));
	}
	ws_om_family(w, "warpspeed_daemon_sessions_active", WS_OM_GAUGE, NULL,
		     "Sessions admitted and not yet ended.");
	ws_om_sample(w, NULL, 0, (double)__atomic_load_n(&m->active, __ATOMIC_RELAXED));
	ws_om_family(w, "warpspeed_daemon_tests", WS_OM_COUNTER, NULL,
		     "Tests ended, by test and outcome (ok, failed, refused by a limit).");
	for (int t = 0; t < NTESTS; t++)
		for (int o = 0; seen(m, t) && o < O_N; o++) {
			ws_om_label l[] = {{"test", ws_test_type_name((enum ws_test_type)t)},
					   {"outcome", outcome_names[o]}};
			ws_om_sample_u64(w, l, 2, get(&m->tests[t][o]));
		}
	ws_om_family(w, "warpspeed_daemon_sent_bytes", WS_OM_COUNTER, "bytes",
		     "Data bytes the daemon sent in tests, by test.");
	per_test(m, w, m->sent);
	ws_om_family(w, "warpspeed_daemon_received_bytes", WS_OM_COUNTER, "bytes",
		     "Data bytes the daemon received in tests, by test.");
	per_test(m, w, m->recvd);
	ws_om_family(w, "warpspeed_daemon_refusals", WS_OM_COUNTER, NULL,
		     "Connections and tests refused, by reason.");
	for (int r = 0; r < WS_DM_REFUSALS; r++) {
		ws_om_label l[] = {{"reason", refusal_names[r]}};
		ws_om_sample_u64(w, l, 1, get(&m->refused[r]));
	}
	ws_om_family(w, "warpspeed_daemon_auth_failures", WS_OM_COUNTER, NULL,
		     "Clients that failed to prove the pre-shared key or netperf passphrase.");
	ws_om_sample_u64(w, NULL, 0, get(&m->auth_failures));
	ws_om_family(w, "warpspeed_daemon_test_duration_seconds", WS_OM_HISTOGRAM, "seconds",
		     "Durations of the tests that ended ok, by test.");
	for (int t = 0; t < NTESTS; t++) {
		if (!seen(m, t))
			continue;
		uint64_t n[NDUR + 1];
		for (size_t b = 0; b <= NDUR; b++)
			n[b] = get(&m->dur[t][b]);
		ws_om_label l[] = {{"test", ws_test_type_name((enum ws_test_type)t)}};
		ws_om_histogram(w, l, 1, dur_le, NDUR, n, (double)get(&m->dur_sum_ns[t]) / 1e9);
	}
}
