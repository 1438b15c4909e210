/* SPDX-License-Identifier: BSD-2-Clause */
/* many: Read IQ and Write IQ over several nodes at once (ws_iq_read_many, ws_iq_write_many).
 *
 * WARPLab experiments use 2-8 boards, each behind its own 1 Gb/s port of a switch, and
 * WARPLab's host serves them one after another, so N boards take N times as long as one.
 * Handles are independent (one socket and one lock each, no global state), so the nodes
 * are served by one thread each, the calling thread taking the first: each thread runs the
 * single-node engine unchanged, with its retries, timeouts and verification, and the links
 * fill in parallel. One event loop over N sockets was the alternative; with the engines'
 * own wait loops, a thread per node reuses them as they are and measures the same (the
 * host spends most of its time waiting on N links either way; see docs/iq.md). */
#include <warpspeed/iq.h>

#include "iq/host/hostio.h"
#include "util/clock.h"
#include "util/threadsched.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct many_job {
	ws_iq_many_item *it;
	ws_iq_format fmt;
	int write;
} many_job;

static int64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * WS_NS_PER_SEC + ts.tv_nsec;
}

static void *many_main(void *a)
{
	many_job *j = a;
	ws_iq_many_item *it = j->it;
	ws_thread_sched s0, s1;
	ws_thread_sched_now(&s0);
	int64_t c0 = thread_cpu_ns(), t0 = ws_clock_ns();
	it->err.code = 0;
	it->err.msg[0] = 0;
	it->result = j->write ? ws_iq_write_multi(it->node, it->rf_mask, it->start, it->count,
						  j->fmt, it->src, &it->err)
			      : ws_iq_read(it->node, it->rf_mask, it->start, it->count, j->fmt,
					   it->dst, &it->err);
	it->elapsed_ns = ws_clock_ns() - t0;
	it->cpu_ns = thread_cpu_ns() - c0;
	ws_thread_sched_now(&s1);
	ws_thread_sched d = ws_thread_sched_delta(&s0, &s1);
	it->nivcsw = d.nivcsw;
	it->wait_ns = d.wait_ns;
	return NULL;
}

static int fail(ws_iq_error *err, int code, const char *msg)
{
	if (err) {
		err->code = code;
		snprintf(err->msg, sizeof err->msg, "%s", msg);
	}
	return code;
}

static int run_many(ws_iq_many_item *items, size_t n, ws_iq_format fmt, int write, ws_iq_error *err)
{
	const char *what = write ? "ws_iq_write_many" : "ws_iq_read_many";
	char msg[sizeof err->msg];
	if (!items || n < 1 || n > WS_IQ_MANY_MAX) {
		snprintf(msg, sizeof msg, "%s: %zu nodes: need 1..%d", what, items ? n : 0,
			 WS_IQ_MANY_MAX);
		return fail(err, -EINVAL, msg);
	}
	for (size_t i = 0; i < n; i++)
		if (!items[i].node || (write ? !items[i].src : !items[i].dst)) {
			snprintf(msg, sizeof msg, "%s: item %zu has no node handle or no %s", what,
				 i, write ? "src" : "dst");
			return fail(err, -EINVAL, msg);
		}
	many_job job[WS_IQ_MANY_MAX];
	pthread_t tid[WS_IQ_MANY_MAX];
	int started[WS_IQ_MANY_MAX] = {0};
	for (size_t i = 0; i < n; i++)
		job[i] = (many_job){.it = &items[i], .fmt = fmt, .write = write};
	for (size_t i = 1; i < n; i++)
		started[i] = pthread_create(&tid[i], NULL, many_main, &job[i]) == 0;
	many_main(&job[0]);
	for (size_t i = 1; i < n; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			many_main(&job[i]); /* no thread to be had: serve it here, late */
	size_t bad = 0, first = 0;
	for (size_t i = n; i-- > 0;)
		if (items[i].result < 0) {
			bad++;
			first = i;
		}
	if (!bad)
		return fail(err, 0, "");
	snprintf(msg, sizeof msg, "%s: %zu of %zu nodes failed; node %zu (%s): %.380s", what, bad,
		 n, first + 1, items[first].node->name, items[first].err.msg);
	return fail(err, items[first].result, msg);
}

int ws_iq_read_many(ws_iq_many_item *items, size_t n, ws_iq_format fmt, ws_iq_error *err)
{
	return run_many(items, n, fmt, 0, err);
}

int ws_iq_write_many(ws_iq_many_item *items, size_t n, ws_iq_format fmt, ws_iq_error *err)
{
	return run_many(items, n, fmt, 1, err);
}
