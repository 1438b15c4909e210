/* SPDX-License-Identifier: BSD-2-Clause */
/* cpubound: the two CPU-bound rules and the sentence that reports them; see cpubound.h for
 * the rules and why they are these. Pure arithmetic on a result: no clock, no I/O. */
#include "measure/cpubound.h"

#include <math.h>
#include <stdio.h>

static void judge_side(const ws_side_result *s, ws_cpubound_side *v)
{
	*v = (ws_cpubound_side){0};
	if (s->elapsed_ns > 0 && s->thread_user_ns >= 0 && s->thread_sys_ns >= 0) {
		v->thread_known = true;
		v->thread_frac =
			(double)(s->thread_user_ns + s->thread_sys_ns) / (double)s->elapsed_ns;
		/* Several worker threads: the busiest one decides, not their sum. */
		if (s->nthreads > 0) {
			v->thread_frac = 0;
			for (uint32_t t = 0; t < s->nthreads; t++) {
				double f = (double)(s->threads[t].user_ns + s->threads[t].sys_ns) /
					(double)s->elapsed_ns;
				v->thread_frac = f > v->thread_frac ? f : v->thread_frac;
			}
		}
		v->thread_bound = v->thread_frac >= WS_CPUBOUND_THRESHOLD;
	}
	if (s->cpu_measured && s->cpu_util >= 0 && isfinite(s->cpu_util)) {
		v->host_known = true;
		v->host_frac = s->cpu_util / 100.0;
		v->host_bound = v->host_frac >= WS_CPUBOUND_THRESHOLD;
	}
	v->bound = v->thread_bound || v->host_bound;
}

void ws_cpubound_judge(const ws_test_result *res, ws_cpubound *out)
{
	judge_side(&res->local, &out->local);
	judge_side(&res->remote, &out->remote);
	out->type = res->spec.type;
	out->shared_host = res->shared_host;
	/* the requester and the responder both send (RR, CRR, CC) */
	enum ws_test_type t = res->spec.type;
	bool local_sends = ws_test_type_role(t, true) == WS_ROLE_SENDER;
	bool remote_sends =
		ws_test_type_role(t, false) == WS_ROLE_SENDER || ws_test_type_transacts(t);
	out->local.sends = local_sends;
	out->local.receives = !local_sends || remote_sends;
	out->remote.sends = remote_sends;
	out->remote.receives = !remote_sends || local_sends;
}

/* Percent for people: the thread clock can run a little past the interval. */
static int pct(double frac)
{
	double p = frac * 100.0;
	return p > 100.0 ? 100 : p < 0.0 ? 0 : (int)lround(p);
}

/* What lowers the cost per byte on this side, then whether more streams can help. */
static const char *advice(const ws_cpubound *v, const ws_cpubound_side *s)
{
	bool tcp = !ws_test_type_udp(v->type);
	bool rr = ws_test_type_transacts(v->type);
	if (rr)
		return s->host_bound ? "every CPU is busy, so more concurrent tests will not help"
				     : "try more concurrent tests (one per CPU, with -T)";
	if (s->sends && tcp && v->type != WS_TEST_TCP_SENDFILE)
		return s->host_bound ? "try -t TCP_SENDFILE or --zerocopy (every CPU is busy, so "
				       "more streams will not help)"
				     : "try -t TCP_SENDFILE, --zerocopy or more streams";
	if (s->sends && tcp) /* sendfile already sends without a copy */
		return s->host_bound ? "every CPU is busy, so more streams will not help"
				     : "try more streams (--streams)";
	if (s->sends)
		return s->host_bound
			? "try --gso (every CPU is busy, so more streams will not help)"
			: "try --gso or more streams";
	return s->host_bound ? "try a larger receive size (test option -M); every CPU is busy, so "
			       "more streams will not help"
			     : "try a larger receive size (test option -M) or more streams";
}

size_t ws_cpubound_describe(const ws_cpubound *v, bool remote, char *buf, size_t n)
{
	const ws_cpubound_side *s = remote ? &v->remote : &v->local;
	bool host = s->host_bound;
	/* One host, one system-wide figure: say it once, on the local line. */
	if (remote && v->shared_host && v->local.host_bound)
		host = false;
	if (n)
		buf[0] = '\0';
	if (!s->thread_bound && !host)
		return 0;
	char why[160];
	const char *host_what = v->shared_host ? "the host both sides share" : "its host";
	if (s->thread_bound && host)
		snprintf(why, sizeof(why),
			 "its test thread was busy %d%% of the interval and %s was %d%% busy",
			 pct(s->thread_frac), host_what, pct(s->host_frac));
	else if (s->thread_bound)
		snprintf(why, sizeof(why), "its test thread was busy %d%% of the interval",
			 pct(s->thread_frac));
	else
		snprintf(why, sizeof(why), "%s was %d%% busy over all its CPUs", host_what,
			 pct(s->host_frac));
	int w = snprintf(buf, n, "the %s side is CPU-bound (%s); %s", remote ? "remote" : "local",
			 why, advice(v, s));
	return w > 0 ? (size_t)w : 0;
}
