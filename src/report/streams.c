/* SPDX-License-Identifier: BSD-2-Clause */
/* streams: per-stream rows, fairness and thread CPU; see streams.h. */
#include "report/streams.h"

#include "measure/streams.h"
#include "report/classic.h"
#include "report/classic_rr.h"

#include <stdlib.h>

static const ws_side_result *receiver_of(const ws_test_result *r)
{
	return ws_test_type_role(r->spec.type, true) == WS_ROLE_RECEIVER ? &r->local : &r->remote;
}

/* Bytes/s in the unit of -f (the table's), so the rows add up to the table's figure. */
static double in_unit(double bytes_per_s, char fmt)
{
	return ws_classic_throughput((uint64_t)(bytes_per_s + 0.5), 1000000000LL, fmt);
}

static void render_threads(const char *who, const ws_side_result *s, FILE *out)
{
	if (!s->nthreads)
		return;
	fprintf(out, "Threads, %s:", who);
	for (uint32_t t = 0; t < s->nthreads; t++) {
		const ws_thread_result *th = &s->threads[t];
		fprintf(out, " #%u", t);
		if (th->cpu >= 0)
			fprintf(out, " cpu %d", th->cpu);
		fprintf(out, " user %.3f s sys %.3f s (%u flows)%s", (double)th->user_ns / 1e9,
			(double)th->sys_ns / 1e9, th->flows, t + 1 < s->nthreads ? ";" : "");
	}
	fputc('\n', out);
}

void ws_streams_render(const ws_test_result *r, char fmt, FILE *out)
{
	if (ws_classic_rr_handles(r->spec.type)) {
		/* classic_rr prints the RR flows (transactions, not bytes); the threads are
		 * the same story as for streams. */
		if (r->local.nthreads || r->remote.nthreads)
			fputc('\n', out);
		render_threads("local", &r->local, out);
		render_threads("remote", &r->remote, out);
		return;
	}
	const ws_side_result *rx = receiver_of(r);
	if (rx->nflows < 1)
		return;
	const char *label = ws_classic_units_label(fmt) ? ws_classic_units_label(fmt) : "10^6bits";
	fprintf(out, "\nStream Thread Bytes            Elapsed  Throughput\n");
	fprintf(out, "#      #      received         secs.    %s/s\n", label);
	for (uint32_t i = 0; i < rx->nflows; i++) {
		const ws_flow_result *f = &rx->flows[i];
		double rate =
			f->elapsed_ns > 0 ? (double)f->bytes * 1e9 / (double)f->elapsed_ns : 0;
		fprintf(out, "%-6u %-6u %-16llu %-8.2f %.2f%s%s\n", i, f->thread,
			(unsigned long long)f->bytes, (double)f->elapsed_ns / 1e9,
			in_unit(rate, fmt), f->error ? "  FAILED: " : "", f->error ? f->why : "");
	}
	double *rates = malloc(rx->nflows * sizeof(*rates));
	if (rates) {
		uint32_t failed;
		uint32_t n = ws_stream_rates(rx, rates, &failed);
		ws_stream_stats st;
		ws_stream_stats_of(rates, n, &st);
		fprintf(out,
			"%u streams, %u failed: min %.2f median %.2f max %.2f %s/s; Jain's "
			"fairness index %.4f\n",
			rx->nflows, failed, in_unit(st.min, fmt), in_unit(st.median, fmt),
			in_unit(st.max, fmt), label, st.jain);
		free(rates);
	}
	render_threads("local", &r->local, out);
	render_threads("remote", &r->remote, out);
}

void ws_streams_warn(const ws_test_result *r, const char *prog, FILE *out)
{
	const ws_side_result *sides[2] = {&r->local, &r->remote};
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < sides[s]->nflows; i++) {
			const ws_flow_result *f = &sides[s]->flows[i];
			if (f->error)
				fprintf(out, "%s: stream %u of %u (%s side) failed: %s\n", prog, i,
					sides[s]->nflows, s ? "remote" : "local", f->why);
		}
}
