/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of util/threadsched: the schedstat parser on fixed text, the delta's unknown
 * fields, and a real disturbance: this thread and a spinning one pinned to one CPU share
 * it for 60 ms, so this thread must be switched out involuntarily and wait well over 1 ms
 * on the run queue (the figures `iq bench` labels trials with). */
#include "harness.h"

#include "util/clock.h"
#include "util/threadsched.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static void test_parse(void)
{
	CHECK_INT("fields", ws_thread_sched_parse("123456 7890123 45\n"), 7890123);
	CHECK_INT("no newline", ws_thread_sched_parse("1 2 3"), 2);
	CHECK_INT("one field", ws_thread_sched_parse("123\n"), -1);
	CHECK_INT("junk", ws_thread_sched_parse("12 x3 4"), -1);
	CHECK_INT("empty", ws_thread_sched_parse(""), -1);
	ws_thread_sched a = {5, 1000}, b = {7, 4000}, u = {-1, -1};
	ws_thread_sched d = ws_thread_sched_delta(&a, &b);
	CHECK_INT("delta nivcsw", d.nivcsw, 2);
	CHECK_INT("delta wait", d.wait_ns, 3000);
	d = ws_thread_sched_delta(&u, &b);
	CHECK_INT("unknown nivcsw", d.nivcsw, -1);
	CHECK_INT("unknown wait", d.wait_ns, -1);
}

static atomic_int stop;

static void *spin(void *a)
{
	(void)a;
	while (!atomic_load(&stop))
		;
	return NULL;
}

static void test_disturbed(void)
{
	int cpu = sched_getcpu();
	cpu_set_t one, old;
	CPU_ZERO(&one);
	CPU_SET(cpu < 0 ? 0 : cpu, &one);
	pthread_getaffinity_np(pthread_self(), sizeof old, &old);
	if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) {
		CHECK("pin (cannot pin this thread)", 1);
		return;
	}
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setaffinity_np(&at, sizeof one, &one);
	pthread_t t;
	int started = pthread_create(&t, &at, spin, NULL) == 0;
	pthread_attr_destroy(&at);
	ws_thread_sched s0, s1;
	ws_thread_sched_now(&s0);
	for (int64_t end = ws_clock_ns() + 60 * WS_NS_PER_MS; ws_clock_ns() < end;)
		;
	ws_thread_sched_now(&s1);
	atomic_store(&stop, 1);
	if (started)
		pthread_join(t, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof old, &old);
	ws_thread_sched d = ws_thread_sched_delta(&s0, &s1);
	CHECK("spinner started", started);
	WS_T_REPORT(d.nivcsw > 0, "involuntary switches", "nivcsw %lld", (long long)d.nivcsw);
	if (s0.wait_ns >= 0)
		WS_T_REPORT(d.wait_ns > WS_NS_PER_MS, "run-queue wait over 1 ms",
			    "wait %lld ns", (long long)d.wait_ns);
	else
		CHECK("no /proc/thread-self/schedstat: wait unknown", d.wait_ns == -1);
}

int main(void)
{
	RUN(test_parse);
	RUN(test_disturbed);
	TEST_MAIN_END();
}
