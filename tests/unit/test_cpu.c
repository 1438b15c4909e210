/* SPDX-License-Identifier: BSD-2-Clause */
/* test_cpu: /proc/stat parsing, utilisation arithmetic and service demand against recorded
 * samples whose deltas were chosen by hand so every expected figure is exact. */
#include "harness.h"

#include "measure/cpu.h"
#include "util/err.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* A 2-CPU host, as /proc/stat prints it (kernel 6.x: 10 fields, guest fields 0). */
static const char stat2_a[] =
	"cpu  1891 0 1208 43833 376 0 26 11 0 0\n"
	"cpu0 525 0 375 22771 12 0 7 2 0 0\n"
	"cpu1 1366 0 832 21061 364 0 18 8 0 0\n"
	"intr 103848 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 15 0 0 0 0 47 18\n"
	"ctxt 220228\n"
	"btime 1767225600\n"
	"processes 2210\n"
	"procs_running 1\n"
	"procs_blocked 0\n"
	"softirq 52712 0 9023 2 1561 0 0 31 18312 0 23783\n";

/* 5 s later. cpu0: +200 user, +150 system, +100 idle, +50 softirq (total 500, 80% busy).
 * cpu1: +100 user, +20 nice, +80 system, +250 idle, +10 iowait, +5 irq, +30 softirq,
 * +5 steal (total 500, 50% busy). */
static const char stat2_b[] =
	"cpu  2191 20 1437 44182 386 5 106 16 0 0\n"
	"cpu0 725 0 525 22871 12 0 57 2 0 0\n"
	"cpu1 1466 20 912 21311 374 5 48 13 0 0\n"
	"intr 113848 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 15 0 0 0 0 47 18\n"
	"ctxt 240228\n"
	"btime 1767225600\n"
	"processes 2213\n"
	"procs_running 2\n"
	"procs_blocked 0\n"
	"softirq 55712 0 9523 2 1561 0 0 31 20312 0 24283\n";

/* A 4-CPU host. Deltas to stat4_b: cpu0 total 1000 (500 user, 200 system, 250 idle,
 * 50 softirq: 75%); cpu1 400 idle only (0%); cpu2 nothing moved (0%); cpu3 100 system +
 * 100 softirq (100%) with iowait going back by 3 (clamped). */
static const char stat4_a[] =
	"cpu  400000 1200 150000 9000000 5000 0 8000 0 0 0\n"
	"cpu0 100000 300 40000 2250000 1000 0 2000 0 0 0\n"
	"cpu1 100000 300 35000 2250000 1500 0 2000 0 0 0\n"
	"cpu2 100000 300 37000 2250000 1200 0 2000 0 0 0\n"
	"cpu3 100000 300 38000 2250000 1300 0 2000 0 0 0\n"
	"intr 9999999 27 0 0\n"
	"ctxt 8888888\n"
	"btime 1767225600\n";
static const char stat4_b[] =
	"cpu  400500 1200 150300 9000650 4997 0 8150 0 0 0\n"
	"cpu0 100500 300 40200 2250250 1000 0 2050 0 0 0\n"
	"cpu1 100000 300 35000 2250400 1500 0 2000 0 0 0\n"
	"cpu2 100000 300 37000 2250000 1200 0 2000 0 0 0\n"
	"cpu3 100000 300 38100 2250000 1297 0 2100 0 0 0\n"
	"intr 9999999 27 0 0\n"
	"ctxt 8888900\n"
	"btime 1767225600\n";

static ws_cpu_snapshot snap_a, snap_b;

static void test_parse_two_cpus(void)
{
	ws_err err = {0};
	CHECK_INT("parse", ws_cpu_snapshot_parse(stat2_a, &snap_a, &err), 0);
	CHECK_INT("ncpus", snap_a.ncpus, 2);
	CHECK_INT("max_id", snap_a.max_id, 2);
	CHECK("cpu0 present", snap_a.present[0]);
	CHECK("cpu2 absent", !snap_a.present[2]);
	CHECK_U64("cpu1 user", snap_a.ticks[1][WS_CPU_USER], 1366);
	CHECK_U64("cpu1 idle", snap_a.ticks[1][WS_CPU_IDLE], 21061);
	CHECK_U64("cpu1 iowait", snap_a.ticks[1][WS_CPU_IOWAIT], 364);
	CHECK_U64("cpu1 softirq", snap_a.ticks[1][WS_CPU_SOFTIRQ], 18);
	CHECK_U64("cpu1 steal", snap_a.ticks[1][WS_CPU_STEAL], 8);
	CHECK_INT("no thread time from text", snap_a.thread_user_ns, 0);
	CHECK_INT("no timestamp from text", snap_a.taken_ns, 0);
}

static void test_util_two_cpus(void)
{
	ws_err err = {0};
	ws_cpu_usage u;
	CHECK_INT("parse a", ws_cpu_snapshot_parse(stat2_a, &snap_a, &err), 0);
	CHECK_INT("parse b", ws_cpu_snapshot_parse(stat2_b, &snap_b, &err), 0);
	CHECK_INT("util", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	CHECK_INT("ncpus", u.ncpus, 2);
	CHECK_DBL("util", u.util, 65.0, 1e-9);
	CHECK_DBL("user+nice", u.user, 32.0, 1e-9);
	CHECK_DBL("system", u.system, 23.0, 1e-9);
	CHECK_DBL("softirq", u.softirq, 8.0, 1e-9);
	CHECK_DBL("irq", u.irq, 0.5, 1e-9);
	CHECK_DBL("iowait", u.iowait, 1.0, 1e-9);
	CHECK_DBL("steal", u.steal, 0.5, 1e-9);
	CHECK_DBL("peak", u.peak_util, 80.0, 1e-9);
	CHECK_INT("peak cpu", u.peak_cpu, 0);
	CHECK_INT("clamped", u.clamped, 0);
	CHECK_INT("method", u.method, 'S');
}

static void test_util_four_cpus_zero_delta_and_clamp(void)
{
	ws_err err = {0};
	ws_cpu_usage u;
	CHECK_INT("parse a", ws_cpu_snapshot_parse(stat4_a, &snap_a, &err), 0);
	CHECK_INT("parse b", ws_cpu_snapshot_parse(stat4_b, &snap_b, &err), 0);
	CHECK_INT("util", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	CHECK_INT("ncpus", u.ncpus, 4);
	CHECK_DBL("util", u.util, 43.75, 1e-9);
	CHECK_DBL("user", u.user, 12.5, 1e-9);
	CHECK_DBL("system", u.system, 17.5, 1e-9);
	CHECK_DBL("softirq", u.softirq, 13.75, 1e-9);
	CHECK_DBL("iowait", u.iowait, 0.0, 0.0);
	CHECK_DBL("peak", u.peak_util, 100.0, 1e-9);
	CHECK_INT("peak cpu", u.peak_cpu, 3);
	CHECK_INT("clamped iowait", u.clamped, 1);

	/* The same snapshot twice: nothing moved anywhere, 0% and no error. */
	CHECK_INT("self", ws_cpu_util(&snap_a, &snap_a, &u, &err), 0);
	CHECK_DBL("self util", u.util, 0.0, 0.0);
	CHECK_INT("self ncpus", u.ncpus, 4);
}

/* Taken snapshots (timestamp and USER_HZ known): time a CPU's fields do not cover counts as
 * busy once it is more than 2 ticks and 1% of the wall time. */
static void test_util_unaccounted_time(void)
{
	ws_err err = {0};
	ws_cpu_usage u;
	/* cpu0: 10 user + 50 idle = 60 ticks; cpu1: 99 idle, both over 1 s at 100 ticks/s. */
	CHECK_INT("parse a", ws_cpu_snapshot_parse("cpu0 0 0 0 0\ncpu1 0 0 0 0\n", &snap_a, &err), 0);
	CHECK_INT("parse b", ws_cpu_snapshot_parse("cpu0 10 0 0 50\ncpu1 0 0 0 99\n", &snap_b, &err), 0);
	CHECK_INT("util parsed", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	CHECK_DBL("parsed: no wall clock, shares of the fields", u.util, (100.0 * 10 / 60 + 0) / 2, 1e-9);
	CHECK_DBL("parsed: nothing unaccounted", u.unaccounted, 0, 0);
	snap_a.taken_ns = 5000000000LL;
	snap_b.taken_ns = 6000000000LL;
	snap_a.ticks_per_s = snap_b.ticks_per_s = 100;
	CHECK_INT("util taken", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	/* cpu0: 40 missing ticks are busy, 50% busy; cpu1: 1 missing tick is granularity, 0%. */
	CHECK_DBL("taken", u.util, (50.0 + 0.0) / 2, 1e-9);
	CHECK_DBL("taken: unaccounted", u.unaccounted, 40.0 / 2, 1e-9);
	CHECK_DBL("taken: user share of the wall", u.user, 10.0 / 2, 1e-9);
	CHECK_DBL("taken: peak", u.peak_util, 50.0, 1e-9);
	snap_b.ticks_per_s = 250; /* units that differ: no correction rather than a wrong one */
	CHECK_INT("util mixed", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	CHECK_DBL("mixed", u.unaccounted, 0, 0);
}

static void test_util_cpu_gone(void)
{
	/* cpu2 went offline between the snapshots: only the three common CPUs count. */
	static const char gone[] =
		"cpu  0 0 0 0 0 0 0 0 0 0\n"
		"cpu0 100500 300 40200 2250250 1000 0 2050 0 0 0\n"
		"cpu1 100000 300 35000 2250400 1500 0 2000 0 0 0\n"
		"cpu3 100000 300 38100 2250000 1297 0 2100 0 0 0\n";
	ws_err err = {0};
	ws_cpu_usage u;
	CHECK_INT("parse a", ws_cpu_snapshot_parse(stat4_a, &snap_a, &err), 0);
	CHECK_INT("parse b", ws_cpu_snapshot_parse(gone, &snap_b, &err), 0);
	CHECK_INT("max_id", snap_b.max_id, 4);
	CHECK_INT("util", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	CHECK_INT("ncpus", u.ncpus, 3);
	CHECK_DBL("util", u.util, 175.0 / 3.0, 1e-9);

	static const char other[] = "cpu7 1 2 3 4 5 6 7 8\n";
	CHECK_INT("parse other", ws_cpu_snapshot_parse(other, &snap_b, &err), 0);
	CHECK_INT("nothing in common", ws_cpu_util(&snap_a, &snap_b, &u, &err), -WS_E_INVAL);
	CHECK("message says so", strstr(err.msg, "no CPU in common") != NULL);
}

static void test_parse_old_kernel_fields(void)
{
	/* 2.4-era four fields, no trailing newline; missing fields count as 0. */
	ws_err err = {0};
	CHECK_INT("parse", ws_cpu_snapshot_parse("cpu 1 2 3 4\ncpu0 1 2 3 4", &snap_a, &err), 0);
	CHECK_INT("ncpus", snap_a.ncpus, 1);
	CHECK_U64("idle", snap_a.ticks[0][WS_CPU_IDLE], 4);
	CHECK_U64("steal", snap_a.ticks[0][WS_CPU_STEAL], 0);
	CHECK_INT("highest id", ws_cpu_snapshot_parse("cpu1023 1 1 1 1\n", &snap_a, &err), 0);
	CHECK("cpu1023", snap_a.present[1023]);
}

static void expect_reject(const char *name, const char *text, const char *needle)
{
	ws_err err = {0};
	CHECK_INT(name, ws_cpu_snapshot_parse(text, &snap_a, &err), -WS_E_INVAL);
	CHECK_INT(name, err.code, -WS_E_INVAL);
	WS_T_REPORT(strstr(err.msg, needle) != NULL, name, "message [%s] lacks [%s]", err.msg,
		    needle);
}

static void test_parse_rejects_malformed(void)
{
	expect_reject("letter field", "cpu  1 2 3 4\ncpu0 1 2 x 4 5 6 7 8\n", "line 2 (cpu0): field 3");
	expect_reject("negative", "cpu0 -1 2 3 4\n", "field 1");
	expect_reject("glued", "cpu0 1 2 3 4x\n", "field 4");
	expect_reject("overflow", "cpu0 18446744073709551616 0 0 0\n", "field 1");
	expect_reject("too few", "cpu0 1 2 3\n", "3 fields; expected at least 4");
	expect_reject("bad label", "cpuX 1 2 3 4\n", "'cpuX' is not a cpuN label");
	expect_reject("label glued", "cpu0a 1 2 3 4\n", "'cpu0a' is not a cpuN label");
	expect_reject("too many cpus", "cpu1024 1 2 3 4\n", "cpu1024 is beyond the 1024");
	expect_reject("duplicate", "cpu0 1 2 3 4\ncpu0 1 2 3 4\n", "cpu0 appears twice");
	expect_reject("no cpuN", "cpu  1 2 3 4\nintr 5\n", "no cpuN lines found in 2 lines");
	expect_reject("empty", "", "no cpuN lines");
	expect_reject("garbage", "hello world\n\n\n", "no cpuN lines found in 3 lines");
	ws_err err = {0};
	CHECK_INT("NULL text", ws_cpu_snapshot_parse(NULL, &snap_a, &err), -WS_E_INVAL);
	CHECK_INT("NULL err allowed", ws_cpu_snapshot_parse("x", &snap_a, NULL), -WS_E_INVAL);
}

static void test_service_demand(void)
{
	/* netperf: 17173.43 10^6bits/s for 5.00 s at 100% on 2 CPUs prints 0.954 us/KB. */
	uint64_t bytes = 10733393750ULL; /* 17173.43e6 / 8 * 5 */
	double sd = ws_cpu_service_demand(100.0, 2, 5000000000LL, bytes, 1024.0);
	CHECK_DBL("netperf example", sd, 1024e7 / 10733393750.0, 1e-12);
	char txt[16];
	snprintf(txt, sizeof(txt), "%.3f", sd);
	CHECK_STR("printed as netperf", txt, "0.954");
	/* 50% of 4 CPUs for 2 s = 4 CPU-seconds over 1024 KB. */
	CHECK_DBL("us/KB", ws_cpu_service_demand(50.0, 4, 2000000000LL, 1048576, 1024.0),
		  3906.25, 1e-9);
	/* RR: 25% of 2 CPUs for 10 s over 100000 transactions = 50 us/Tr. */
	CHECK_DBL("us/Tr", ws_cpu_service_demand(25.0, 2, 10000000000LL, 100000, 1.0), 50.0,
		  1e-9);
	CHECK_DBL("no units", ws_cpu_service_demand(100.0, 2, 5000000000LL, 0, 1024.0), 0.0, 0.0);
	CHECK_DBL("bad unit", ws_cpu_service_demand(100.0, 2, 5000000000LL, 10, 0.0), 0.0, 0.0);
	CHECK_DBL("NaN util", ws_cpu_service_demand(NAN, 2, 5000000000LL, 10, 1.0), 0.0, 0.0);
	CHECK_DBL("no time", ws_cpu_service_demand(100.0, 2, 0, 10, 1.0), 0.0, 0.0);
}

static void test_fill_side(void)
{
	ws_err err = {0};
	ws_side_result side;
	memset(&side, 0, sizeof(side));
	CHECK_INT("parse a", ws_cpu_snapshot_parse(stat2_a, &snap_a, &err), 0);
	CHECK_INT("parse b", ws_cpu_snapshot_parse(stat2_b, &snap_b, &err), 0);
	snap_a.thread_user_ns = 1000000;
	snap_a.thread_sys_ns = 3000000;
	snap_b.thread_user_ns = 251000000;
	snap_b.thread_sys_ns = 2000000; /* went back: clamped to 0 */
	CHECK_INT("fill", ws_cpu_fill_side(&side, &snap_a, &snap_b, &err), 0);
	CHECK("measured", side.cpu_measured);
	CHECK_DBL("util", side.cpu_util, 65.0, 1e-9);
	CHECK_DBL("user", side.cpu_user, 32.0, 1e-9);
	CHECK_DBL("system", side.cpu_system, 23.0, 1e-9);
	CHECK_DBL("softirq", side.cpu_softirq, 8.0, 1e-9);
	CHECK_INT("method", side.cpu_method, 'S');
	CHECK_INT("ncpus", side.ncpus, 2);
	CHECK_INT("thread user", side.thread_user_ns, 250000000);
	CHECK_INT("thread sys", side.thread_sys_ns, 0);

	static const char other[] = "cpu9 1 2 3 4\n";
	ws_side_result before = side;
	CHECK_INT("parse other", ws_cpu_snapshot_parse(other, &snap_b, &err), 0);
	CHECK_INT("fill fails", ws_cpu_fill_side(&side, &snap_a, &snap_b, &err), -WS_E_INVAL);
	CHECK_MEM("unchanged on error", &side, &before, sizeof(side));
}

static int64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void test_take_live(void)
{
	ws_err err = {0};
	CHECK_INT("take a", ws_cpu_snapshot_take(&snap_a, &err), 0);
	int64_t until = thread_cpu_ns() + 20000000; /* burn 20 ms of this thread's CPU */
	while (thread_cpu_ns() < until)
		continue;
	CHECK_INT("take b", ws_cpu_snapshot_take(&snap_b, &err), 0);
	CHECK_INT("same CPUs as online", snap_a.ncpus, ws_cpu_online_count());
	CHECK("timestamps advance", snap_b.taken_ns > snap_a.taken_ns && snap_a.taken_ns > 0);
	int64_t burnt = (snap_b.thread_user_ns + snap_b.thread_sys_ns) -
			(snap_a.thread_user_ns + snap_a.thread_sys_ns);
	WS_T_REPORT(burnt >= 15000000, "thread time", "thread CPU grew by %lld ns, want >= 15 ms",
		    (long long)burnt);
	ws_cpu_usage u;
	CHECK_INT("util", ws_cpu_util(&snap_a, &snap_b, &u, &err), 0);
	CHECK("util in range", u.util >= 0.0 && u.util <= 100.0);
	CHECK_INT("ncpus", u.ncpus, snap_a.ncpus);
}

static void test_identify_host(void)
{
	ws_side_result a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	CHECK_INT("identify", ws_cpu_identify_host(&a), 0);
	char host[256] = "";
	gethostname(host, sizeof(host));
	host[sizeof(a.hostname) - 1] = '\0';
	CHECK_STR("hostname", a.hostname, host);
	CHECK_INT("boot_id is a uuid", strlen(a.boot_id), 36);
	CHECK_INT("uuid dash", a.boot_id[8], '-');
	CHECK("differs before b is read", !ws_cpu_same_host(&a, &b));
	CHECK_INT("identify b", ws_cpu_identify_host(&b), 0);
	CHECK("same host", ws_cpu_same_host(&a, &b));
	b.boot_id[0] = a.boot_id[0] == '0' ? '1' : '0';
	CHECK("other boot", !ws_cpu_same_host(&a, &b));
	a.boot_id[0] = '\0';
	b.boot_id[0] = '\0';
	CHECK("empty ids never match", !ws_cpu_same_host(&a, &b));
	CHECK("online >= 1", ws_cpu_online_count() >= 1);
	CHECK_INT("online = sysconf", ws_cpu_online_count(), sysconf(_SC_NPROCESSORS_ONLN));
}

int main(void)
{
	RUN(test_parse_two_cpus);
	RUN(test_util_two_cpus);
	RUN(test_util_four_cpus_zero_delta_and_clamp);
	RUN(test_util_cpu_gone);
	RUN(test_util_unaccounted_time);
	RUN(test_parse_old_kernel_fields);
	RUN(test_parse_rejects_malformed);
	RUN(test_service_demand);
	RUN(test_fill_side);
	RUN(test_take_live);
	RUN(test_identify_host);
	TEST_MAIN_END();
}
