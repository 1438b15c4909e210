/* SPDX-License-Identifier: BSD-2-Clause */
/* iterate: netperf's -i/-I loop, whole tests run one after another until the confidence
 * target is met or the iterations run out, and the one result that stands for them all.
 *
 * The loop is here, not in the CLI, so that every caller (the CLI, tests, benchmarks)
 * applies the same stopping rule (measure/confidence.h) and the same averaging. A test is
 * run through a callback, so the caller keeps its own way of reaching a daemon (the CLI
 * falls back to an in-process one). The combined result is what the renderers print:
 * every counter and interval is the mean over the iterations, the CPU figures are the
 * means, the latency histograms are merged, and the counters are scaled by one common
 * factor (within rounding of 1) so that the figure of merit computed from the combined
 * result is exactly the mean of the iterations' figures, as netperf reports it. Per-flow
 * and per-thread rows are the last iteration's. */
#ifndef WS_SESSION_ITERATE_H
#define WS_SESSION_ITERATE_H

#include "measure/confidence.h"
#include "model/result.h"

struct ws_err;

/* Run one whole test (iteration counts from 1). On success *out holds a result that the
 * loop owns from then on; on failure the callback leaves nothing to free in *out. */
typedef int (*ws_iterate_fn)(void *ctx, int iteration, ws_test_result *out, struct ws_err *err);

/* The figure of merit of one result, the figure netperf judges and prints: for the TCP
 * stream family the receiver's bytes over the client's interval, for UDP_STREAM the
 * receiver's bytes over its own interval (bytes/s), for the request/response family the
 * client's transactions over its interval (transactions/s). 0 when an interval is 0. */
double ws_iterate_figure(const ws_test_result *r);

/* The confidence sample of one result: its figure, and each side's CPU utilisation when
 * the spec asked for it and it was measured (else -1). */
void ws_iterate_sample(const ws_test_result *r, ws_confidence_sample *s);

/* Combine n >= 1 results (as described above) into *mean; the inputs' heap arrays are
 * moved or freed, so each it[i] is left empty (safe to ws_test_result_free). Errors:
 * -WS_E_INVAL for n < 1, -ENOMEM. */
int ws_iterate_combine(ws_test_result *it, int n, ws_test_result *mean, struct ws_err *err);

/* Run iterations of fn until ws_confidence_done(c) (c from ws_confidence_setup; when not
 * asked, exactly one), updating c after each, then combine them into *mean (free it with
 * ws_test_result_free). A failed iteration ends the loop with its error; *mean is then
 * empty. */
int ws_iterate_run(ws_confidence *c, ws_iterate_fn fn, void *ctx, ws_test_result *mean,
		   struct ws_err *err);

#endif
