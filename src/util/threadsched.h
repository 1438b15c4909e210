/* SPDX-License-Identifier: BSD-2-Clause */
/* threadsched: how often, and for how long, the calling thread was kept off a CPU.
 *
 * A benchmark trial on a busy host can be slow because the transferring thread was
 * runnable but not running (a kernel thread, another user's daemon or an interrupt storm
 * held the CPU), not because the transport is slow. The kernel counts this per thread:
 * involuntary context switches (getrusage RUSAGE_THREAD, ru_nivcsw) and the time spent
 * waiting on a run queue (/proc/thread-self/schedstat, second field, ns). Taking both
 * before and after a trial lets the trial be labelled disturbed instead of silently
 * skewing an average. /proc is only read. */
#ifndef WS_UTIL_THREADSCHED_H
#define WS_UTIL_THREADSCHED_H

#include <stdint.h>

typedef struct ws_thread_sched {
	int64_t nivcsw;  /* involuntary context switches so far; -1 when unknown */
	int64_t wait_ns; /* run-queue wait so far, ns; -1 when schedstat is unreadable */
} ws_thread_sched;

/* The calling thread's counters now. */
void ws_thread_sched_now(ws_thread_sched *s);

/* The run-queue wait (second field) of schedstat text "<run ns> <wait ns> <slices>";
 * -1 when the text does not hold two unsigned decimal fields. */
int64_t ws_thread_sched_parse(const char *text);

/* after - before, field by field; a field unknown at either end is -1. */
ws_thread_sched ws_thread_sched_delta(const ws_thread_sched *before, const ws_thread_sched *after);

#endif
