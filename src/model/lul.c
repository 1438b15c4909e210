/* SPDX-License-Identifier: BSD-2-Clause */
/* lul: the plan of a latency-under-load run and Flent's aggregates; see lul.h. */
#include "model/lul.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RRUL's four marks, in Flent's order, and the UDP probes' (rrul.conf). */
/* clang-format off */
static const struct { const char *name; int tos; } marks[] = {
	{"BE", WS_TOS_BE}, {"BK", WS_TOS_BK}, {"CS5", WS_TOS_CS5}, {"EF", WS_TOS_EF},
};
static const struct { const char *name; int tos; } udp_marks[] = {
	{"BE", WS_TOS_BE}, {"BK", WS_TOS_BK}, {"EF", WS_TOS_EF},
};
/* clang-format on */

static ws_lul_item *next(ws_lul_plan *p)
{
	ws_lul_item *it = &p->item[p->nup + p->ndown + p->nprobes];
	memset(it, 0, sizeof(*it));
	return it;
}

static void add_flow(ws_lul_plan *p, bool up, const char *suffix, int tos)
{
	ws_lul_item *it = next(p);
	snprintf(it->name, sizeof(it->name), "TCP %s%s", up ? "upload" : "download", suffix);
	it->kind = up ? WS_SERIES_UP : WS_SERIES_DOWN;
	it->tos = tos;
	if (up)
		p->nup++;
	else
		p->ndown++;
}

static void add_probe(ws_lul_plan *p, const char *name, const char *probe, int tos)
{
	ws_lul_item *it = next(p);
	snprintf(it->name, sizeof(it->name), "Ping (ms) %s", name);
	snprintf(it->probe, sizeof(it->probe), "%s", probe);
	it->kind = WS_SERIES_PROBE;
	it->tos = tos;
	p->nprobes++;
}

/* --up N / --down N: Flent's tcp_nup and tcp_ndown call flow i "TCP upload::i"; with one
 * flow each way (tcp_bidirectional) the names carry no number. */
static void counted_flows(ws_lul_plan *p, bool up, uint32_t n, bool plain)
{
	for (uint32_t i = 0; i < n; i++) {
		char suffix[16];
		if (plain)
			suffix[0] = '\0';
		else
			snprintf(suffix, sizeof(suffix), "::%u", i + 1);
		add_flow(p, up, suffix, WS_TOS_BE);
	}
}

int ws_lul_plan_make(const ws_test_spec *spec, double step_s, ws_lul_plan *p, ws_err *err)
{
	memset(p, 0, sizeof(*p));
	bool be = spec->type == WS_TEST_RRUL_BE;
	if (spec->type != WS_TEST_RRUL && !be)
		return ws_err_set(err, WS_E_INVAL, "test %s is not a latency-under-load test",
				  ws_test_type_name(spec->type));
	if (spec->lul_counts &&
	    (spec->lul_up > WS_LUL_MAX_FLOWS_EACH || spec->lul_down > WS_LUL_MAX_FLOWS_EACH))
		return ws_err_set(err, WS_E_INVAL,
				  "--up %u --down %u: expected 0 to %d flows each way",
				  spec->lul_up, spec->lul_down, WS_LUL_MAX_FLOWS_EACH);
	if (spec->lul_counts && spec->lul_up + spec->lul_down == 0)
		return ws_err_set(err, WS_E_INVAL,
				  "--up 0 --down 0 leaves no load; expected at least one flow");
	double iv = spec->lul_interval_s > 0 ? spec->lul_interval_s : WS_LUL_DEFAULT_INTERVAL_S;
	if (!(iv >= WS_LUL_MIN_INTERVAL_S && iv <= WS_LUL_MAX_INTERVAL_S))
		return ws_err_set(err, WS_E_INVAL, "--probe-interval %g: expected %g to %g seconds",
				  iv, WS_LUL_MIN_INTERVAL_S, WS_LUL_MAX_INTERVAL_S);
	p->interval_s = iv;
	if (spec->lul_back_to_back) { /* one sample per sampling step, as netperf -D */
		p->back_to_back = true;
		p->interval_s = step_s > 0 ? step_s : WS_LUL_DEFAULT_INTERVAL_S;
	}
	if (spec->lul_delay_s > WS_LUL_MAX_DELAY_S)
		return ws_err_set(err, WS_E_INVAL, "--delay %u: expected 0 to %d seconds",
				  spec->lul_delay_s, WS_LUL_MAX_DELAY_S);
	p->delay_s = spec->lul_delay_s;
	p->step_s = step_s > 0 ? step_s : WS_LUL_DEFAULT_INTERVAL_S;
	for (int up = 1; up >= 0; up--) {
		if (spec->lul_counts) {
			bool plain = spec->lul_up == 1 && spec->lul_down == 1;
			counted_flows(p, up, up ? spec->lul_up : spec->lul_down, plain);
			continue;
		}
		for (int i = 0; i < 4; i++) {
			char suffix[16];
			if (be)
				snprintf(suffix, sizeof(suffix), " BE%.0d", i ? i + 1 : 0);
			else
				snprintf(suffix, sizeof(suffix), " %s", marks[i].name);
			add_flow(p, up, suffix, be ? WS_TOS_BE : marks[i].tos);
		}
	}
	unsigned probes = spec->lul_probes ? spec->lul_probes : WS_LUL_PROBES_DEFAULT;
	for (int i = 0; (probes & WS_LUL_UDP) && i < WS_LUL_UDP_PROBES; i++) {
		char name[24];
		if (be) /* rrul_be.conf: "Ping (ms) UDP BE1" .. "BE3", all unmarked */
			snprintf(name, sizeof(name), "UDP BE%d", i + 1);
		else
			snprintf(name, sizeof(name), "UDP %s", udp_marks[i].name);
		add_probe(p, name, "udp", be ? WS_TOS_BE : udp_marks[i].tos);
	}
	if (probes & WS_LUL_TCP)
		add_probe(p, "TCP BE", "tcp", WS_TOS_BE);
	if (probes & WS_LUL_ICMP)
		add_probe(p, "ICMP", "icmp", WS_TOS_BE);
	return 0;
}

uint32_t ws_lul_connections(const ws_lul_plan *p) { return p->nup + p->ndown + 1; }

int ws_lul_parse_probes(const char *s, unsigned *mask, ws_err *err)
{
	static const struct {
		const char *word;
		unsigned bit;
	} words[] = {{"udp", WS_LUL_UDP}, {"tcp", WS_LUL_TCP}, {"icmp", WS_LUL_ICMP}};
	unsigned m = 0;
	const char *w = s;
	for (;;) {
		size_t n = strcspn(w, ",");
		size_t k = 0;
		for (; k < sizeof(words) / sizeof(words[0]); k++)
			if (strlen(words[k].word) == n && strncmp(w, words[k].word, n) == 0)
				break;
		if (k == sizeof(words) / sizeof(words[0]))
			return ws_err_set(err, WS_E_INVAL,
					  "'%.*s' in '%s' is not a probe; expected a list of udp, "
					  "tcp and icmp, like udp,tcp",
					  (int)n, w, s);
		m |= words[k].bit;
		if (!w[n])
			break;
		w += n + 1;
	}
	*mask = m;
	return 0;
}

/* Sum (or average) the flows of one kind (any flow: kind < 0) point by point; every flow
 * series was sampled at the same instants, so point i is one instant. */
static int flow_aggregate(const ws_series_set *in, int kind, bool avg, const char *name,
			  ws_series_kind as, ws_series_set *out)
{
	size_t members = 0, len = SIZE_MAX;
	for (size_t i = 0; i < in->n; i++) {
		const ws_series *s = &in->s[i];
		if (s->kind == WS_SERIES_PROBE || (kind >= 0 && (int)s->kind != kind))
			continue;
		members++;
		if (s->n < len)
			len = s->n;
	}
	if (!members)
		return 0;
	int idx = ws_series_add(out, name, as, NULL, 0);
	if (idx < 0)
		return -1;
	for (size_t k = 0; k < len; k++) {
		double sum = 0, t = 0;
		for (size_t i = 0; i < in->n; i++) {
			const ws_series *s = &in->s[i];
			if (s->kind == WS_SERIES_PROBE || (kind >= 0 && (int)s->kind != kind))
				continue;
			sum += s->v[k];
			t = s->t[k];
		}
		if (ws_series_push(out, idx, t, avg ? sum / (double)members : sum) < 0)
			return -1;
	}
	return 0;
}

/* "Ping (ms) avg": the mean of the probes that answered in each round (their samples carry
 * the round's send time, a multiple of the interval). */
static int ping_average(const ws_series_set *in, double interval_s, ws_series_set *out)
{
	long long last = -1;
	bool any = false;
	for (size_t i = 0; i < in->n; i++)
		if (in->s[i].kind == WS_SERIES_PROBE) {
			any = true;
			for (size_t k = 0; k < in->s[i].n; k++) {
				long long r = llround(in->s[i].t[k] / interval_s);
				if (r > last)
					last = r;
			}
		}
	if (!any)
		return 0;
	int idx = ws_series_add(out, "Ping (ms) avg", WS_SERIES_PROBE, NULL, 0);
	if (idx < 0)
		return -1;
	size_t nr = (size_t)(last + 1);
	double *sum = calloc(nr ? nr : 1, sizeof(*sum));
	size_t *cnt = calloc(nr ? nr : 1, sizeof(*cnt));
	int rc = sum && cnt ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < in->n; i++) {
		const ws_series *s = &in->s[i];
		for (size_t k = 0; s->kind == WS_SERIES_PROBE && k < s->n; k++) {
			long long r = llround(s->t[k] / interval_s);
			if (r >= 0 && !isnan(s->v[k])) {
				sum[r] += s->v[k];
				cnt[r]++;
			}
		}
	}
	for (size_t r = 0; rc == 0 && r < nr; r++)
		if (cnt[r])
			rc = ws_series_push(out, idx, (double)r * interval_s,
					    sum[r] / (double)cnt[r]);
	free(sum);
	free(cnt);
	return rc;
}

int ws_lul_aggregates(const ws_series_set *in, double interval_s, ws_series_set *out)
{
	out->step_s = in->step_s;
	out->length_s = in->length_s;
	out->start_unix_ns = in->start_unix_ns;
	if (flow_aggregate(in, WS_SERIES_UP, false, "TCP upload sum", WS_SERIES_UP, out) < 0 ||
	    flow_aggregate(in, WS_SERIES_UP, true, "TCP upload avg", WS_SERIES_UP, out) < 0 ||
	    flow_aggregate(in, WS_SERIES_DOWN, false, "TCP download sum", WS_SERIES_DOWN, out) <
		    0 ||
	    flow_aggregate(in, WS_SERIES_DOWN, true, "TCP download avg", WS_SERIES_DOWN, out) < 0 ||
	    flow_aggregate(in, -1, false, "TCP totals", WS_SERIES_UP, out) < 0 ||
	    ping_average(in, interval_s, out) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
