/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_outputs: RRUL's output names; see lul_outputs.h. */
#include "report/lul_outputs.h"

#include "report/figlist.h"

#include <math.h>
#include <string.h>

/* What a name reads from its series. */
enum stat { AVG, MEDIAN, P99, LOST, IDLE, LOST_ALL, STOPPED };

/* The output name, the series it reads (Flent's name; NULL: the whole run) and what. The
 * probes' rows cover RRUL's (UDP BE, BK, EF), RRUL_BE's (UDP BE1..BE3), the TCP and the
 * ICMP probe; a run without one of them leaves its names empty. */
/* clang-format off */
#define PROBE(id, series) \
	{"RRUL_PING_" id "_AVG",    "Ping (ms) " series, AVG}, \
	{"RRUL_PING_" id "_MEDIAN", "Ping (ms) " series, MEDIAN}, \
	{"RRUL_PING_" id "_P99",    "Ping (ms) " series, P99}, \
	{"RRUL_PING_" id "_LOST",   "Ping (ms) " series, LOST}
static const struct row {
	const char *out, *series;
	enum stat stat;
} rows[] = {
	{"RRUL_UPLOAD_SUM",      "TCP upload sum",   AVG},
	{"RRUL_UPLOAD_SUM_MEDIAN", "TCP upload sum", MEDIAN},
	{"RRUL_DOWNLOAD_SUM",    "TCP download sum", AVG},
	{"RRUL_DOWNLOAD_SUM_MEDIAN", "TCP download sum", MEDIAN},
	{"RRUL_TOTALS",          "TCP totals",       AVG},
	{"RRUL_PING_AVG",        "Ping (ms) avg",    AVG},
	{"RRUL_PING_MEDIAN",     "Ping (ms) avg",    MEDIAN},
	{"RRUL_PING_P99",        "Ping (ms) avg",    P99},
	{"RRUL_IDLE_LATENCY",    NULL,               IDLE},
	{"RRUL_LOST_PROBES",     NULL,               LOST_ALL},
	PROBE("UDP_BE", "UDP BE"), PROBE("UDP_BK", "UDP BK"), PROBE("UDP_EF", "UDP EF"),
	PROBE("UDP_BE1", "UDP BE1"), PROBE("UDP_BE2", "UDP BE2"), PROBE("UDP_BE3", "UDP BE3"),
	PROBE("TCP_BE", "TCP BE"), PROBE("ICMP", "ICMP"),
	{"RRUL_STOPPED",         NULL,               STOPPED},
};
/* clang-format on */
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* A run and its aggregates, computed once for all the names. */
struct run {
	const ws_lul_result *r;
	ws_series_set agg;
};

static const ws_series *series_named(const struct run *u, const char *name)
{
	for (size_t i = 0; i < u->r->set.n; i++)
		if (!u->r->skipped[i][0] && strcmp(u->r->set.s[i].name, name) == 0)
			return &u->r->set.s[i];
	for (size_t i = 0; i < u->agg.n; i++)
		if (strcmp(u->agg.s[i].name, name) == 0)
			return &u->agg.s[i];
	return NULL;
}

/* The mean of every probe's answers before the flows start (--delay), NaN without any. */
static double idle_latency(const ws_lul_result *r)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < r->set.n; i++) {
		const ws_series *s = &r->set.s[i];
		if (s->kind != WS_SERIES_PROBE || r->skipped[i][0])
			continue;
		for (size_t k = 0; k < s->n; k++)
			if (s->t[k] < (double)r->plan.delay_s && !isnan(s->v[k])) {
				sum += s->v[k];
				n++;
			}
	}
	return n ? sum / (double)n : NAN;
}

static unsigned long long lost_all(const ws_lul_result *r)
{
	unsigned long long n = 0;
	for (size_t i = 0; i < r->set.n; i++)
		if (r->set.s[i].kind == WS_SERIES_PROBE && !r->skipped[i][0])
			n += r->set.s[i].lost;
	return n;
}

static void number(double v, char *buf, size_t n)
{
	if (isfinite(v))
		snprintf(buf, n, "%.3f", v);
	else
		buf[0] = 0;
}

static void value(size_t i, const void *run, char *buf, size_t n)
{
	const struct run *u = run;
	const struct row *w = &rows[i];
	buf[0] = 0;
	if (w->stat == IDLE)
		return number(idle_latency(u->r), buf, n);
	if (w->stat == LOST_ALL) {
		snprintf(buf, n, "%llu", lost_all(u->r));
		return;
	}
	if (w->stat == STOPPED) {
		snprintf(buf, n, "%s", u->r->stopped);
		return;
	}
	const ws_series *s = series_named(u, w->series);
	if (!s)
		return;
	if (w->stat == LOST) {
		snprintf(buf, n, "%llu", (unsigned long long)s->lost);
		return;
	}
	ws_series_stats st;
	ws_series_stats_of(s, &st);
	if (st.samples)
		number(w->stat == AVG ? st.mean : w->stat == MEDIAN ? st.median : st.p99, buf, n);
}

static const char *name(size_t i) { return rows[i].out; }

static const ws_figlist figlist = {"-t RRUL and RRUL_BE", NROWS, name, value};

int ws_lul_outputs_check(const char *list, struct ws_err *err)
{
	return ws_figlist_check(&figlist, list, err);
}

int ws_lul_outputs_names(FILE *out) { return ws_figlist_names(&figlist, out); }

int ws_lul_render_outputs(const ws_lul_result *r, const char *list, int mode, bool headers,
			  FILE *out)
{
	struct run u = {r, {0}};
	if (ws_lul_aggregates(&r->set, r->plan.interval_s, &u.agg) < 0)
		return -1;
	ws_figlist_render(&figlist, &u, list, mode, headers, out);
	ws_series_free(&u.agg);
	return 0;
}
