/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_report: the summary, -D lines and JSON of an RRUL run; see lul_report.h. */
#include "report/lul_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COL_WIDTH 12
#define UNIT_LEN  7 /* the longest unit, "Mbits/s", as Flent pads for it */

static const char *unit_of(const ws_series *s)
{
	return s->kind == WS_SERIES_PROBE ? "ms" : "Mbits/s";
}

struct row {
	const ws_series *s;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->s->name, ((const struct row *)b)->s->name);
}

static void when(const ws_series_set *set, char *buf, size_t n)
{
	time_t t = (time_t)(set->start_unix_ns / 1000000000LL);
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t k = strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf + k, n - k, ".%06ld", (long)(set->start_unix_ns % 1000000000LL / 1000));
}

int ws_lul_summary_write(FILE *out, const ws_lul_result *r, const char *name)
{
	ws_series_set agg;
	memset(&agg, 0, sizeof(agg));
	if (ws_lul_aggregates(&r->set, r->plan.interval_s, &agg) < 0)
		return -1;
	size_t n = r->set.n + agg.n;
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		ws_series_free(&agg);
		return -1;
	}
	size_t txtlen = 0, k = 0;
	for (size_t i = 0; i < r->set.n; i++)
		if (!r->skipped[i][0])
			rows[k++].s = &r->set.s[i];
	for (size_t i = 0; i < agg.n; i++)
		rows[k++].s = &agg.s[i];
	n = k;
	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i].s->name) > txtlen)
			txtlen = strlen(rows[i].s->name);
	qsort(rows, n, sizeof(*rows), by_name);
	char at[64];
	when(&r->set, at, sizeof(at));
	fprintf(out, "\nSummary of %s test run from %s\n\n", name, at);
	fprintf(out, "%*s %*s %*s %*s %*s\n", (int)txtlen + 3, "", COL_WIDTH, "avg", COL_WIDTH,
		"median", COL_WIDTH, "99th %", COL_WIDTH + UNIT_LEN, "# data pts");
	for (size_t i = 0; i < n; i++) {
		const ws_series *s = rows[i].s;
		ws_series_stats st;
		ws_series_stats_of(s, &st);
		fprintf(out, " %-*s : ", (int)txtlen, s->name);
		if (!st.samples) {
			fprintf(out, "No data.\n");
			continue;
		}
		const char *u = unit_of(s);
		fprintf(out, "%*.2f %*.2f %*.2f %s%*zu\n", COL_WIDTH, st.mean, COL_WIDTH, st.median,
			COL_WIDTH, st.p99, u, COL_WIDTH + UNIT_LEN - (int)strlen(u), st.samples);
	}
	for (size_t i = 0; i < r->set.n; i++) {
		const ws_series *s = &r->set.s[i];
		if (!r->skipped[i][0] && s->kind == WS_SERIES_PROBE && s->lost)
			fprintf(out, " %s: %llu of %zu probes lost (no answer in %.1f s)\n",
				s->name, (unsigned long long)s->lost, s->n, WS_LUL_PROBE_TIMEOUT_S);
	}
	if (r->stopped[0])
		fprintf(out, " The run stopped early: %s\n", r->stopped);
	free(rows);
	ws_series_free(&agg);
	return 0;
}

void ws_lul_interim_write(FILE *out, const ws_lul_result *r, size_t *printed)
{
	for (size_t i = 0; i < r->set.n; i++) {
		const ws_series *s = &r->set.s[i];
		for (; printed[i] < s->n; printed[i]++) {
			size_t k = printed[i];
			if (isnan(s->v[k]))
				fprintf(out, "Interim result: %s lost at %.3f s\n", s->name,
					s->t[k]);
			else if (s->kind == WS_SERIES_PROBE)
				fprintf(out, "Interim result: %s %.3f ms at %.3f s\n", s->name,
					s->v[k], s->t[k]);
			else
				fprintf(out, "Interim result: %s %.2f Mbit/s at %.3f s\n", s->name,
					s->v[k], s->t[k]);
		}
	}
}

static const char *kind_name(ws_series_kind k)
{
	return k == WS_SERIES_UP ? "up" : k == WS_SERIES_DOWN ? "down" : "probe";
}

static void num_or_null(ws_json *j, const char *key, double v, bool have)
{
	if (have && isfinite(v))
		ws_json_double(j, key, v);
	else
		ws_json_null(j, key);
}

static void mark(ws_json *j, const char *key, int tos)
{
	if (tos >= 0)
		ws_json_int(j, key, tos);
	else
		ws_json_null(j, key);
}

static void series(ws_json *j, const ws_series *s, const ws_lul_result *r, int idx)
{
	ws_series_stats st;
	ws_series_stats_of(s, &st);
	ws_json_object_begin(j, NULL);
	ws_json_str(j, "name", s->name);
	ws_json_str(j, "kind", kind_name(s->kind));
	if (s->probe[0])
		ws_json_str(j, "probe", s->probe);
	else
		ws_json_null(j, "probe");
	ws_json_str(j, "unit", unit_of(s));
	mark(j, "tos", idx >= 0 ? s->tos : -1);
	mark(j, "tos_local", idx >= 0 ? r->tos_local[idx] : -1);
	mark(j, "tos_remote", idx >= 0 ? r->tos_remote[idx] : -1);
	if (idx >= 0 && r->skipped[idx][0])
		ws_json_str(j, "skipped", r->skipped[idx]);
	else
		ws_json_null(j, "skipped");
	ws_json_uint(j, "samples", st.samples);
	ws_json_uint(j, "lost", s->lost);
	num_or_null(j, "mean", st.mean, st.samples);
	num_or_null(j, "median", st.median, st.samples);
	num_or_null(j, "p99", st.p99, st.samples);
	ws_json_array_inline_begin(j, "t");
	for (size_t k = 0; k < s->n; k++)
		ws_json_double(j, NULL, s->t[k]);
	ws_json_array_end(j);
	ws_json_array_inline_begin(j, "v");
	for (size_t k = 0; k < s->n; k++)
		num_or_null(j, NULL, s->v[k], true);
	ws_json_array_end(j);
	ws_json_object_end(j);
}

void ws_lul_json(ws_json *j, const ws_lul_result *r)
{
	ws_json_object_begin(j, "rrul");
	ws_json_double(j, "step_s", r->plan.step_s);
	ws_json_double(j, "probe_interval_s", r->plan.back_to_back ? 0 : r->plan.interval_s);
	ws_json_str(j, "probe_mode", r->plan.back_to_back ? "back-to-back" : "paced");
	ws_json_uint(j, "probe_transactions", r->probe_transactions);
	ws_json_uint(j, "probe_threads", r->probe_threads);
	ws_json_uint(j, "echo_sockets", r->echo_sockets);
	ws_json_double(j, "probe_timeout_s", WS_LUL_PROBE_TIMEOUT_S);
	ws_json_int(j, "start_unix_ns", r->set.start_unix_ns);
	ws_json_uint(j, "up", r->plan.nup);
	ws_json_uint(j, "down", r->plan.ndown);
	ws_json_int(j, "probe_cpu_ns", r->probe_cpu_ns);
	if (r->stopped[0])
		ws_json_str(j, "stopped", r->stopped);
	else
		ws_json_null(j, "stopped");
	ws_json_array_begin(j, "series");
	for (size_t i = 0; i < r->set.n; i++)
		series(j, &r->set.s[i], r, (int)i);
	ws_json_array_end(j);
	ws_series_set agg;
	memset(&agg, 0, sizeof(agg));
	ws_json_array_begin(j, "aggregates");
	if (ws_lul_aggregates(&r->set, r->plan.interval_s, &agg) == 0)
		for (size_t i = 0; i < agg.n; i++)
			series(j, &agg.s[i], r, -1);
	ws_json_array_end(j);
	ws_series_free(&agg);
	ws_json_object_end(j);
}
