/* SPDX-License-Identifier: BSD-2-Clause */
/* test_cpubound: the CPU-bound rules at and around the 90% threshold, which side they
 * name, the shared-host de-duplication and the exact sentences people read. */
#include "harness.h"

#include "measure/cpubound.h"

#include <string.h>

/* A 10 s TCP_STREAM with idle sides; tests raise what they need. */
static ws_test_result base(void)
{
	ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.spec.type = WS_TEST_TCP_STREAM;
	r.local.elapsed_ns = r.remote.elapsed_ns = 10000000000LL;
	r.local.cpu_util = r.remote.cpu_util = -1.0;
	r.local.ncpus = r.remote.ncpus = 4;
	return r;
}

static void thread_threshold(void)
{
	const char *n = "thread_threshold";
	ws_test_result r = base();
	ws_cpubound v;
	/* 8.999 s of 10 s: just under 90%. */
	r.local.thread_user_ns = 1000000000LL;
	r.local.thread_sys_ns = 7999000000LL;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.local.thread_known);
	CHECK_DBL(n, v.local.thread_frac, 0.8999, 1e-12);
	CHECK(n, !v.local.thread_bound);
	CHECK(n, !v.local.bound);
	/* exactly 9 s: bound */
	r.local.thread_sys_ns = 8000000000LL;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.local.thread_bound);
	CHECK(n, v.local.bound);
	CHECK(n, !v.local.host_known);
	CHECK(n, !v.remote.bound);
	char buf[256];
	size_t len = ws_cpubound_describe(&v, false, buf, sizeof(buf));
	CHECK_STR(n, buf, "the local side is CPU-bound (its test thread was busy 90% of the "
			  "interval); try -t TCP_SENDFILE, --zerocopy or more streams");
	CHECK_INT(n, len, strlen(buf));
	CHECK_INT(n, ws_cpubound_describe(&v, true, buf, sizeof(buf)), 0);
	CHECK_STR(n, buf, "");
}

static void host_rule(void)
{
	const char *n = "host_rule";
	ws_test_result r = base();
	ws_cpubound v;
	/* One busy core of four (25%) is not CPU-bound, nor is 89.9%. */
	r.remote.cpu_measured = true;
	r.remote.cpu_util = 25.0;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.remote.host_known);
	CHECK(n, !v.remote.bound);
	r.remote.cpu_util = 89.9;
	ws_cpubound_judge(&r, &v);
	CHECK(n, !v.remote.host_bound);
	r.remote.cpu_util = 95.4;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.remote.host_bound);
	CHECK(n, v.remote.bound);
	CHECK(n, !v.remote.thread_bound);
	CHECK(n, !v.local.bound);
	char buf[256];
	ws_cpubound_describe(&v, true, buf, sizeof(buf));
	CHECK_STR(n, buf, "the remote side is CPU-bound (its host was 95% busy over all its "
			  "CPUs); try a larger receive size (test option -M); every CPU is busy, "
			  "so more streams will not help");
	/* Not measured (-C absent): the util field is ignored even if set. */
	r.remote.cpu_measured = false;
	ws_cpubound_judge(&r, &v);
	CHECK(n, !v.remote.host_known);
	CHECK(n, !v.remote.bound);
	/* A negative util (not measured, as the workload marks it) is never bound. */
	r.remote.cpu_measured = true;
	r.remote.cpu_util = -1.0;
	ws_cpubound_judge(&r, &v);
	CHECK(n, !v.remote.host_known);
}

static void maerts_sides(void)
{
	const char *n = "maerts_sides";
	ws_test_result r = base();
	ws_cpubound v;
	r.spec.type = WS_TEST_TCP_MAERTS;
	r.remote.thread_user_ns = 500000000LL;
	r.remote.thread_sys_ns = 9700000000LL; /* 102%: clamped to 100 in the text */
	r.local.thread_sys_ns = 9500000000LL;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.remote.sends && !v.remote.receives);
	CHECK(n, v.local.receives && !v.local.sends);
	CHECK_DBL(n, v.remote.thread_frac, 1.02, 1e-12);
	char buf[256];
	ws_cpubound_describe(&v, true, buf, sizeof(buf));
	CHECK_STR(n, buf, "the remote side is CPU-bound (its test thread was busy 100% of the "
			  "interval); try -t TCP_SENDFILE, --zerocopy or more streams");
	ws_cpubound_describe(&v, false, buf, sizeof(buf));
	CHECK_STR(n, buf, "the local side is CPU-bound (its test thread was busy 95% of the "
			  "interval); try a larger receive size (test option -M) or more streams");
}

static void shared_host_once(void)
{
	const char *n = "shared_host_once";
	ws_test_result r = base();
	ws_cpubound v;
	r.shared_host = true;
	r.local.cpu_measured = r.remote.cpu_measured = true;
	r.local.cpu_util = r.remote.cpu_util = 97.0;
	r.local.thread_sys_ns = 9800000000LL;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.shared_host);
	CHECK(n, v.local.bound && v.remote.bound);
	char buf[256];
	ws_cpubound_describe(&v, false, buf, sizeof(buf));
	CHECK_STR(n, buf, "the local side is CPU-bound (its test thread was busy 98% of the "
			  "interval and the host both sides share was 97% busy); try -t "
			  "TCP_SENDFILE or --zerocopy (every CPU is busy, so more streams will not "
			  "help)");
	/* The remote line would only repeat the host figure. */
	CHECK_INT(n, ws_cpubound_describe(&v, true, buf, sizeof(buf)), 0);
	/* ... but its own busy thread is still worth a line. */
	r.remote.thread_user_ns = 9100000000LL;
	ws_cpubound_judge(&r, &v);
	ws_cpubound_describe(&v, true, buf, sizeof(buf));
	CHECK_STR(n, buf, "the remote side is CPU-bound (its test thread was busy 91% of the "
			  "interval); try a larger receive size (test option -M); every CPU is "
			  "busy, so more streams will not help");
}

static void advice_by_test(void)
{
	const char *n = "advice_by_test";
	ws_test_result r = base();
	ws_cpubound v;
	char buf[256];
	r.local.thread_sys_ns = 10000000000LL;
	r.spec.type = WS_TEST_TCP_SENDFILE;
	ws_cpubound_judge(&r, &v);
	ws_cpubound_describe(&v, false, buf, sizeof(buf));
	CHECK_STR(n, buf, "the local side is CPU-bound (its test thread was busy 100% of the "
			  "interval); try more streams (--streams)");
	r.spec.type = WS_TEST_UDP_STREAM;
	ws_cpubound_judge(&r, &v);
	ws_cpubound_describe(&v, false, buf, sizeof(buf));
	CHECK_STR(n, buf, "the local side is CPU-bound (its test thread was busy 100% of the "
			  "interval); try --gso or more streams");
	r.spec.type = WS_TEST_TCP_RR;
	ws_cpubound_judge(&r, &v);
	CHECK(n, v.local.sends && v.local.receives && v.remote.sends && v.remote.receives);
	ws_cpubound_describe(&v, false, buf, sizeof(buf));
	CHECK_STR(n, buf, "the local side is CPU-bound (its test thread was busy 100% of the "
			  "interval); try more concurrent tests (one per CPU, with -T)");
	/* A short buffer is truncated but terminated; the length says how much was needed. */
	char small[16];
	size_t need = ws_cpubound_describe(&v, false, small, sizeof(small));
	CHECK_INT(n, need, strlen(buf));
	CHECK_STR(n, small, "the local side ");
}

static void no_interval(void)
{
	const char *n = "no_interval";
	ws_test_result r = base();
	ws_cpubound v;
	r.local.elapsed_ns = 0;
	r.local.thread_sys_ns = 5;
	ws_cpubound_judge(&r, &v);
	CHECK(n, !v.local.thread_known);
	CHECK(n, !v.local.bound);
	char buf[8] = "junk";
	CHECK_INT(n, ws_cpubound_describe(&v, false, buf, sizeof(buf)), 0);
	CHECK_STR(n, buf, "");
}

/* Several worker threads: two at 60% each are not CPU-bound although they sum to 120%. */
static void worker_threads(void)
{
	const char *n = "worker_threads";
	ws_test_result r = base();
	ws_cpubound v;
	ws_thread_result th[2] = {{.user_ns = 1000000000LL, .sys_ns = 5000000000LL},
				  {.user_ns = 0, .sys_ns = 6000000000LL}};
	r.local.thread_user_ns = 1000000000LL;
	r.local.thread_sys_ns = 11000000000LL;
	r.local.threads = th;
	r.local.nthreads = 2;
	ws_cpubound_judge(&r, &v);
	CHECK_DBL(n, v.local.thread_frac, 0.6, 1e-12);
	CHECK(n, !v.local.bound);
	th[1].sys_ns = 9500000000LL; /* one thread at 95% */
	ws_cpubound_judge(&r, &v);
	CHECK_DBL(n, v.local.thread_frac, 0.95, 1e-12);
	CHECK(n, v.local.bound);
}

int main(void)
{
	RUN(thread_threshold);
	RUN(worker_threads);
	RUN(host_rule);
	RUN(maerts_sides);
	RUN(shared_host_once);
	RUN(advice_by_test);
	RUN(no_interval);
	TEST_MAIN_END();
}
