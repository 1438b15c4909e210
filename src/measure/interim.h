/* SPDX-License-Identifier: BSD-2-Clause */
/* interim: progress counters the engines bump and the reporter that turns them into
 * netperf's interim ("demo", -D) results while a test runs.
 *
 * netperf's demo mode makes the engine itself decide when an interval is over: it counts
 * units and reads the clock once it expects an interval's worth (or, with a negative
 * interval, on every call), so its intervals drift (0.511, 0.588, 1.448 s for -D 0.5).
 * Here the engine does no interval logic at all: each flow has one counter, written by the
 * one thread that drives the flow with a relaxed load and store (no locked instruction,
 * no clock read, nothing shared with another writer), and a reporter thread of the client
 * wakes on absolute deadlines start + k * interval, sums the counters and hands each
 * sample to a callback (library code never prints). Both of netperf's modes therefore get
 * the precise timing netperf's negative interval asks for; the sign is accepted and kept
 * (ws_interim_config.precise) only so that reports can say which was asked. netperf's
 * ",units" guess only tunes how often its engine reads the clock and has nothing to tune
 * here. After the test, ws_interim_stop reports the last, partial interval as netperf does.
 *
 * The interval arithmetic is ws_interim_step, a pure function of the clock readings, so
 * that it is tested with a fake clock; the thread only sleeps and calls it. */
#ifndef WS_MEASURE_INTERIM_H
#define WS_MEASURE_INTERIM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* One flow's progress: bytes (stream tests) or transactions (RR tests) moved so far.
 * A cache line of its own, so flows on different threads do not share one. */
typedef struct ws_interim_counter {
	_Alignas(64) _Atomic uint64_t units;
	char pad[64 - sizeof(uint64_t)];
} ws_interim_counter;

/* The engines' one call: add n units to a flow's counter. c may be NULL (no -D, or the
 * daemon's side): the test is one predictable branch. The flow's counter has exactly one
 * writer (the thread running the flow), so a relaxed load and store is an exact add and
 * costs what a plain add costs; the reporter's relaxed load sees a value at most one call
 * old. */
static inline void ws_interim_add(ws_interim_counter *c, uint64_t n)
{
	if (c)
		atomic_store_explicit(&c->units,
				      atomic_load_explicit(&c->units, memory_order_relaxed) + n,
				      memory_order_relaxed);
}

typedef struct ws_interim ws_interim;

/* The counter of flow i, or NULL when ip is NULL or i is out of range. */
ws_interim_counter *ws_interim_flow(ws_interim *ip, uint32_t i);

/* How the engines are given their counters: a `progress` pointer in their parameters
 * (ws_stream_params, ws_multi_params.io, ws_rr_params) to the array of counters, one per
 * flow, indexed by the flow's index (flow i of the client), or NULL for none. Flow i's
 * engine code is then the one line ws_interim_add(ws_interim_at(progress, i), n). */
static inline ws_interim_counter *ws_interim_at(ws_interim_counter *progress, uint32_t i)
{
	return progress ? progress + i : NULL;
}

/* What a counter counts, so that the CLI knows how to turn units into its figure. */
enum ws_interim_kind { WS_INTERIM_BYTES, WS_INTERIM_TRANSACTIONS };

/* One interim result. index counts the samples of one flow (or of the aggregate) from 0,
 * as netperf's NETPERF_INTERIM_RESULT[index]. The CLI computes netperf's figure from
 * units and interval_ns (bytes: ws_classic_throughput with -f; transactions: per second,
 * "Trans/s"); rate is units per second, for JSON. */
typedef struct ws_interim_sample {
	uint32_t index;
	int32_t flow; /* -1: the aggregate of all flows; else the flow's index */
	enum ws_interim_kind kind;
	uint64_t units;      /* bytes or transactions in this interval */
	int64_t interval_ns; /* this interval's length (the last one is partial) */
	double interval_s;
	double rate;            /* units / interval_s */
	int64_t ending_wall_ns; /* the interval's end, CLOCK_REALTIME (netperf's "ending at") */
	bool final;             /* the partial interval reported by ws_interim_stop */
} ws_interim_sample;

typedef void (*ws_interim_cb)(void *ctx, const ws_interim_sample *s);

typedef struct ws_interim_config {
	double interval_s; /* > 0 */
	bool precise;      /* netperf's negative interval (see the opening) */
	uint32_t nflows;   /* counters to allocate, >= 1 */
	bool per_flow;     /* also report each flow (after each aggregate sample) */
	enum ws_interim_kind kind;
	ws_interim_cb cb; /* called on the reporter thread, then by ws_interim_stop */
	void *ctx;
} ws_interim_config;

/* Allocate the counters and check the configuration (interval from 0.001 to 86400 s,
 * 1 to 65536 flows, a callback). */
int ws_interim_create(const ws_interim_config *cfg, ws_interim **out, struct ws_err *err);

/* The data phase starts now (monotonic and wall clock): intervals count from here, and
 * the reporter thread starts. Called by the client's side of the workload
 * (ws_workload_run_interim) right before the engine; after ws_interim_stop, a new begin
 * (the next -i iteration) starts a new numbering. NULL is fine (returns 0). */
int ws_interim_begin(ws_interim *ip, int64_t mono_ns, int64_t wall_ns, struct ws_err *err);

/* The data phase ended: stop the reporter, then report the partial interval from the last
 * sample to until_ns (monotonic; 0 or later than now = now), when any time passed between
 * them. Called right after the engine returns, with until_ns the test's nominal end for a
 * timed test: what follows it is the sender's drain or the requester's last replies,
 * whose interval would show a rate of nearly nothing (netperf's last interval ends with
 * its send loop too). Safe without begin, twice, and with NULL. */
void ws_interim_stop(ws_interim *ip, int64_t until_ns);

/* Stop and release; NULL is fine. */
void ws_interim_free(ws_interim *ip);

/* ---- the interval arithmetic, exposed for tests ---------------------------------------- */

typedef struct ws_interim_clock {
	int64_t start_ns;       /* monotonic begin */
	int64_t wall_offset_ns; /* wall - monotonic at begin */
	int64_t interval_ns;
	int64_t last_ns;     /* end of the last sample (start_ns at first) */
	uint64_t last_units; /* counter total at last_ns */
	uint32_t index;      /* next sample's index */
	uint32_t k;          /* next deadline is start_ns + k * interval_ns */
} ws_interim_clock;

void ws_interim_clock_init(ws_interim_clock *c, int64_t interval_ns, int64_t mono_ns,
			   int64_t wall_ns);

/* The monotonic time of the next regular sample. */
int64_t ws_interim_clock_deadline(const ws_interim_clock *c);

/* A sample at now_ns with the counter at total: fills s (flow -1, kind unset) and returns
 * 1; returns 0 without a sample when no time passed since the last one (final), or when
 * now_ns is before the deadline (not final). A late wake-up makes a longer interval, and
 * the next deadline is the first one after now_ns (skipped deadlines are not reported as
 * empty intervals). The counter going backwards (a wrap) counts as 0 units. */
int ws_interim_clock_step(ws_interim_clock *c, int64_t now_ns, uint64_t total, bool final,
			  ws_interim_sample *s);

#endif
