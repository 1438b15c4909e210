/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_bed: RRUL's client probes run alone against a test's echo, shared by test_lul.c and
 * test_echoports.c: the result's series from its plan, and the probes' thread body run
 * in the caller's thread for a given length. Header-only. */
#ifndef WS_TEST_LUL_BED_H
#define WS_TEST_LUL_BED_H

#include "model/lul.h"
#include "util/clock.h"
#include "workload/lul_probe.h"

#include <pthread.h>
#include <stdatomic.h>

/* One series per item of out->plan (made already), in plan order; no mark seen yet. */
static void lul_bed_series(ws_lul_result *out)
{
	const ws_lul_plan *pl = &out->plan;
	for (uint32_t i = 0; i < pl->nup + pl->ndown + pl->nprobes; i++) {
		const ws_lul_item *it = &pl->item[i];
		ws_series_add(&out->set, it->name, it->kind, it->probe[0] ? it->probe : NULL,
			      it->tos);
		out->tos_remote[i] = -1;
	}
}

/* Run the opened probes for length_ns from now, then close them. Returns the time it
 * took, in seconds. */
static double lul_bed_run(ws_lul_probes *ps, int64_t length_ns)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	atomic_bool stop = false;
	ps->mu = &mu;
	ps->stop = &stop;
	ps->t0_ns = ws_clock_ns();
	ps->duration_ns = length_ns;
	ws_lul_probes_main(ps);
	double took = (double)(ws_clock_ns() - ps->t0_ns) / 1e9;
	ws_lul_probes_close(ps);
	return took;
}

#endif
