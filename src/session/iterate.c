/* SPDX-License-Identifier: BSD-2-Clause */
/* iterate: the -i/-I loop and the combined result; see iterate.h.
 *
 * The side-result fields that are averaged are listed in tables (counters, intervals,
 * CPU percentages), so a new counter is one row; anything not listed (socket sizes, I/O
 * path, TCP_INFO, names) is the last iteration's, which is what a reader of one row
 * expects: the sizes do not change between iterations of one command. */
#include "session/iterate.h"

#include "measure/hist.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define U64(f) offsetof(ws_side_result, f)

/* Counts that grow with the test's length: averaged, then scaled with the figure. */
/* clang-format off */
static const size_t counters[] = {
	U64(bytes_sent), U64(bytes_recv), U64(send_calls), U64(recv_calls),
	U64(send_syscalls), U64(recv_syscalls),
	U64(zc_sends), U64(zc_copied), U64(dgrams_sent), U64(dgrams_recv),
	U64(dgrams_lost), U64(dgrams_reordered), U64(dgrams_dup), U64(send_errors),
	U64(bad_dgrams), U64(dgrams_jumps), U64(transactions), U64(trans_lost),
	U64(late_replies), U64(trans_scheduled), U64(connects), U64(connect_errors),
	U64(tcp_retrans),
};
/* clang-format on */

/* int64_t nanosecond intervals and CPU times: averaged. */
static const size_t intervals[] = {
	offsetof(ws_side_result, elapsed_ns),
	offsetof(ws_side_result, thread_user_ns),
	offsetof(ws_side_result, thread_sys_ns),
};

/* CPU percentages: averaged. */
static const size_t percents[] = {
	offsetof(ws_side_result, cpu_util),
	offsetof(ws_side_result, cpu_user),
	offsetof(ws_side_result, cpu_system),
	offsetof(ws_side_result, cpu_softirq),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t *u64_at(ws_side_result *s, size_t off) { return (uint64_t *)((char *)s + off); }
static int64_t *i64_at(ws_side_result *s, size_t off) { return (int64_t *)((char *)s + off); }
static double *dbl_at(ws_side_result *s, size_t off) { return (double *)((char *)s + off); }

static double per_sec(uint64_t n, int64_t ns)
{
	return ns > 0 ? (double)n * 1e9 / (double)ns : 0.0;
}

double ws_iterate_figure(const ws_test_result *r)
{
	enum ws_test_type t = r->spec.type;
	if (!ws_test_type_stream(t)) /* the request/response family */
		return per_sec(r->local.transactions, r->local.elapsed_ns);
	const ws_side_result *rx =
		ws_test_type_role(t, true) == WS_ROLE_RECEIVER ? &r->local : &r->remote;
	/* UDP's receiver times its own datagrams; TCP's bytes over the client's interval */
	int64_t ns = ws_test_type_has(t, WS_TO_DGRAMS) ? rx->elapsed_ns : r->local.elapsed_ns;
	return per_sec(rx->bytes_recv, ns);
}

void ws_iterate_sample(const ws_test_result *r, ws_confidence_sample *s)
{
	s->throughput = ws_iterate_figure(r);
	s->local_cpu =
		r->spec.local.measure_cpu && r->local.cpu_measured ? r->local.cpu_util : -1.0;
	s->remote_cpu =
		r->spec.remote.measure_cpu && r->remote.cpu_measured ? r->remote.cpu_util : -1.0;
}

/* One side of the mean: every listed field averaged over the n sides (sums in long double
 * would not help: the counts fit a double's 53 bits for any real test). */
static void mean_side(ws_side_result *dst, ws_test_result *it, int n, bool local)
{
	for (size_t k = 0; k < COUNT(counters); k++) {
		double sum = 0.0;
		for (int i = 0; i < n; i++)
			sum += (double)*u64_at(local ? &it[i].local : &it[i].remote, counters[k]);
		*u64_at(dst, counters[k]) = (uint64_t)llround(sum / n);
	}
	for (size_t k = 0; k < COUNT(intervals); k++) {
		double sum = 0.0;
		for (int i = 0; i < n; i++)
			sum += (double)*i64_at(local ? &it[i].local : &it[i].remote, intervals[k]);
		*i64_at(dst, intervals[k]) = (int64_t)llround(sum / n);
	}
	bool measured = true;
	int64_t lag = 0;
	for (int i = 0; i < n; i++) {
		const ws_side_result *s = local ? &it[i].local : &it[i].remote;
		measured = measured && s->cpu_measured;
		if (s->max_lag_ns > lag)
			lag = s->max_lag_ns;
	}
	for (size_t k = 0; k < COUNT(percents); k++) {
		double sum = 0.0;
		for (int i = 0; i < n; i++)
			sum += *dbl_at(local ? &it[i].local : &it[i].remote, percents[k]);
		*dbl_at(dst, percents[k]) = sum / n;
	}
	dst->cpu_measured = measured;
	dst->max_lag_ns = lag;
}

static void scale_side(ws_side_result *s, double f)
{
	for (size_t k = 0; k < COUNT(counters); k++) {
		uint64_t *c = u64_at(s, counters[k]);
		double v = (double)*c * f;
		*c = v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)llround(v);
	}
}

/* The latency histograms of every iteration, merged into one new heap histogram. NULL
 * with *rc 0 when no iteration had one. */
static ws_hist *merge_latency(ws_test_result *it, int n, int *rc, ws_err *err)
{
	ws_hist *h = NULL;
	*rc = 0;
	for (int i = 0; i < n; i++) {
		if (!it[i].local.latency)
			continue;
		if (!h) {
			if (!(h = malloc(sizeof(*h)))) {
				*rc = ws_err_set(
					err, ENOMEM,
					"iterations: no memory for the merged latency histogram");
				return NULL;
			}
			ws_hist_init(h);
		}
		if ((*rc = ws_hist_merge(h, it[i].local.latency, err)) < 0) {
			free(h);
			return NULL;
		}
	}
	return h;
}

/* ws_test_result_free, and the latency pointers cleared too, so a second call is safe. */
static void release(ws_test_result *r)
{
	ws_test_result_free(r);
	r->local.latency = r->remote.latency = NULL;
}

int ws_iterate_combine(ws_test_result *it, int n, ws_test_result *mean, ws_err *err)
{
	memset(mean, 0, sizeof(*mean));
	if (!it || n < 1)
		return ws_err_set(err, WS_E_INVAL,
				  "iterations: %d results to combine; expected at least 1", n);
	if (n == 1) { /* one run (no -i/-I): the result itself, bit for bit */
		*mean = it[0];
		memset(&it[0].local, 0, sizeof(it[0].local));
		memset(&it[0].remote, 0, sizeof(it[0].remote));
		return 0;
	}
	int rc;
	ws_hist *lat = merge_latency(it, n, &rc, err);
	if (rc < 0)
		return rc;
	double fig = 0.0;
	for (int i = 0; i < n; i++)
		fig += ws_iterate_figure(&it[i]);
	fig /= n;

	*mean = it[n - 1]; /* sizes, names, paths and the per-flow rows: the last iteration's */
	mean_side(&mean->local, it, n, true);
	mean_side(&mean->remote, it, n, false);
	/* The heap arrays now belong to *mean; the other iterations' are freed. */
	ws_side_result *last[2] = {&it[n - 1].local, &it[n - 1].remote};
	for (int k = 0; k < 2; k++) {
		last[k]->flows = NULL;
		last[k]->threads = NULL;
		last[k]->latency = NULL;
		last[k]->nflows = last[k]->nthreads = 0;
	}
	for (int i = 0; i < n - 1; i++)
		release(&it[i]);
	free(mean->local.latency);
	mean->local.latency = lat;

	double got = ws_iterate_figure(mean);
	if (got > 0.0 && fig > 0.0) {
		scale_side(&mean->local, fig / got);
		scale_side(&mean->remote, fig / got);
	}
	return 0;
}

int ws_iterate_run(ws_confidence *c, ws_iterate_fn fn, void *ctx, ws_test_result *mean, ws_err *err)
{
	memset(mean, 0, sizeof(*mean));
	int max = c->asked ? c->max_iterations : 1;
	if (max < 1 || max > WS_CONF_MAX_ITER)
		return ws_err_set(err, WS_E_INVAL, "iterations: %d asked; expected 1 to %d", max,
				  WS_CONF_MAX_ITER);
	ws_test_result *it = calloc((size_t)max, sizeof(*it));
	if (!it)
		return ws_err_set(err, ENOMEM, "iterations: no memory for %d results", max);
	ws_confidence_sample samples[WS_CONF_MAX_ITER];
	int n = 0, rc = 0;
	c->iterations = 0;
	while (n < max) {
		rc = fn(ctx, n + 1, &it[n], err);
		if (rc < 0)
			break;
		ws_iterate_sample(&it[n], &samples[n]);
		n++;
		if (c->asked)
			ws_confidence_update(c, samples, n);
		else
			c->iterations = n;
		if (ws_confidence_done(c))
			break;
	}
	if (rc == 0)
		rc = ws_iterate_combine(it, n, mean, err);
	for (int i = 0; i < n; i++)
		release(&it[i]);
	free(it);
	return rc;
}
