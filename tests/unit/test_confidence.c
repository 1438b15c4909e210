/* SPDX-License-Identifier: BSD-2-Clause */
/* test_confidence: netperf's -i/-I rules (measure/confidence), the iteration loop and the
 * combined result (session/iterate), and the warning block and banner suffix against real
 * netperf 2.7.0's output (tests/goldens/netperf/ *_conf.txt), byte for byte.
 *
 * Widths are checked against values worked by hand from netperf's formula and t table;
 * the loop is driven by a fake test whose figures are given, so the number of iterations
 * it runs is exact. */
#include "harness.h"

#include "measure/confidence.h"
#include "measure/hist.h"
#include "model/result.h"
#include "report/classic.h"
#include "report/conf_warning.h"
#include "report/outputs.h"
#include "session/iterate.h"
#include "util/err.h"

#include <errno.h>
#include <stdlib.h>

#define SEC 1000000000LL

static void test_t_table(void)
{
	CHECK_DBL("t95 df1", ws_confidence_t(95, 1), 12.706, 0);
	CHECK_DBL("t95 df2", ws_confidence_t(95, 2), 4.303, 0);
	CHECK_DBL("t95 df29", ws_confidence_t(95, 29), 2.045, 0);
	CHECK_DBL("t99 df1", ws_confidence_t(99, 1), 63.657, 0);
	CHECK_DBL("t99 df2", ws_confidence_t(99, 2), 9.925, 0);
	CHECK_DBL("t99 df10", ws_confidence_t(99, 10), 3.169, 0);
	CHECK_DBL("t99 df29", ws_confidence_t(99, 29), 2.756, 0);
	CHECK_DBL("df0", ws_confidence_t(99, 0), 0, 0);
	CHECK_DBL("df30", ws_confidence_t(99, 30), 0, 0);
	CHECK_DBL("level 90", ws_confidence_t(90, 5), 0, 0);
}

static ws_confidence setup_ok(const char *name, ws_confidence_args a)
{
	ws_confidence c;
	ws_err err = {0};
	int rc = ws_confidence_setup(&c, &a, &err);
	WS_T_REPORT(rc == 0, name, "setup returned %d: %s", rc, err.msg);
	return c;
}

static void test_setup(void)
{
	ws_confidence c = setup_ok("none", (ws_confidence_args){0});
	CHECK("none asked", !c.asked);
	CHECK_INT("none max", c.max_iterations, 1);
	/* -i 3,2 (the goldens' command): min clamped to 3; -I 99,5 implied. */
	c = setup_ok("i 3,2", (ws_confidence_args){.i_given = true, .max = 3, .min = 2});
	CHECK("i asked", c.asked);
	CHECK_INT("i max", c.max_iterations, 3);
	CHECK_INT("i min", c.min_iterations, 3);
	CHECK_INT("i level", c.level, 99);
	CHECK_DBL("i width", c.width, 5.0, 0);
	CHECK_DBL("i widths unknown", c.throughput_width, -1.0, 0);
	CHECK_DBL("i lcpu unknown", c.local_cpu_width, -1.0, 0);
	c = setup_ok("i 50,1", (ws_confidence_args){.i_given = true, .max = 50, .min = 1});
	CHECK_INT("i 50 max", c.max_iterations, 30);
	CHECK_INT("i 50 min", c.min_iterations, 3);
	c = setup_ok("i 2", (ws_confidence_args){.i_given = true, .max = 2});
	CHECK_INT("i 2 max", c.max_iterations, 3);
	CHECK_INT("i 2 min", c.min_iterations, 3);
	c = setup_ok("i 4,8", (ws_confidence_args){.i_given = true, .max = 4, .min = 8});
	CHECK_INT("i 4,8 max raised", c.max_iterations, 8);
	CHECK_INT("i 4,8 min", c.min_iterations, 8);
	c = setup_ok("i 40,35", (ws_confidence_args){.i_given = true, .max = 40, .min = 35});
	CHECK_INT("i 40,35 max", c.max_iterations, 30);
	CHECK_INT("i 40,35 min", c.min_iterations, 30);
	/* -I alone implies -i 10,3. */
	c = setup_ok("I 95,10", (ws_confidence_args){.I_given = true, .level = 95, .width = 10});
	CHECK_INT("I max", c.max_iterations, 10);
	CHECK_INT("I min", c.min_iterations, 3);
	CHECK_INT("I level", c.level, 95);
	CHECK_DBL("I width", c.width, 10.0, 0);
	c = setup_ok("I 95", (ws_confidence_args){.I_given = true, .level = 95});
	CHECK_DBL("I 95 width", c.width, 5.0, 0);
	c = setup_ok("r", (ws_confidence_args){.i_given = true, .max = 5, .throughput_only = true});
	CHECK("r kept", c.throughput_only);

	ws_err err = {0};
	ws_confidence_args bad = {.I_given = true, .level = 97};
	CHECK_INT("level 97", ws_confidence_setup(&c, &bad, &err), -WS_E_INVAL);
	CHECK_STR("level 97 msg", err.msg, "confidence level 97 is not supported; expected 95 or 99");
	bad = (ws_confidence_args){.I_given = true, .level = 99, .width = 150};
	CHECK_INT("width 150", ws_confidence_setup(&c, &bad, &err), -WS_E_INVAL);
	CHECK("width msg names value", strstr(err.msg, "150%") != NULL);
	bad = (ws_confidence_args){.I_given = true, .level = 99, .width = -1};
	CHECK_INT("width -1", ws_confidence_setup(&c, &bad, &err), -WS_E_INVAL);
}

static void test_width(void)
{
	/* mean 100, s = 10, n = 3: 200 * 9.925 * 10 / sqrt(3) / 100. */
	double a[] = {100, 110, 90};
	CHECK_DBL("99 n3", ws_confidence_width(99, a, 3), 114.604028434, 1e-8);
	/* mean 100, s = sqrt(2/3), n = 4. */
	double b[] = {100, 101, 99, 100};
	CHECK_DBL("95 n4", ws_confidence_width(95, b, 4), 2.598092120512, 1e-9);
	CHECK_DBL("99 n4", ws_confidence_width(99, b, 4), 4.769156529199, 1e-9);
	double same[] = {7, 7, 7};
	CHECK_DBL("equal", ws_confidence_width(99, same, 3), 0.0, 0);
	CHECK_DBL("n1", ws_confidence_width(99, a, 1), -1.0, 0);
	CHECK_DBL("level 90", ws_confidence_width(90, a, 3), -1.0, 0);
	double zero[] = {-1, 1};
	CHECK_DBL("zero mean", ws_confidence_width(99, zero, 2), 1e9, 0);
	double z0[] = {0, 0, 0};
	CHECK_DBL("all zero", ws_confidence_width(99, z0, 3), 0.0, 0);
}

static void test_stopping(void)
{
	ws_confidence c = setup_ok("stop", (ws_confidence_args){.i_given = true, .max = 5, .min = 3});
	ws_confidence_sample s[5] = {
		{100, -1, -1}, {100, -1, -1}, {100, -1, -1}, {100, -1, -1}, {100, -1, -1}};
	ws_confidence_update(&c, s, 1);
	CHECK("n1 not met", !c.met);
	CHECK("n1 not done", !ws_confidence_done(&c));
	ws_confidence_update(&c, s, 2);
	CHECK("n2 met", c.met);
	CHECK("n2 below min", !ws_confidence_done(&c));
	ws_confidence_update(&c, s, 3);
	CHECK("n3 done", ws_confidence_done(&c));
	CHECK_INT("n3 iterations", c.iterations, 3);
	CHECK_DBL("cpu not measured", c.local_cpu_width, -1.0, 0);
	CHECK_DBL("rcpu not measured", c.remote_cpu_width, -1.0, 0);

	/* Throughput tight, local CPU wide: not met, unless -r. */
	ws_confidence_sample w[3] = {{100, 10, -1}, {100, 30, -1}, {100, 20, -1}};
	ws_confidence_update(&c, w, 3);
	CHECK_DBL("cpu width", c.local_cpu_width, 200 * 9.925 * 10 / sqrt(3) / 20, 1e-9);
	CHECK("cpu wide not met", !c.met);
	CHECK("cpu wide not done", !ws_confidence_done(&c));
	c.throughput_only = true;
	ws_confidence_update(&c, w, 3);
	CHECK("-r met", c.met);
	CHECK("-r done", ws_confidence_done(&c));
	c.throughput_only = false;
	/* At max it is done, met or not. */
	ws_confidence_sample v[5] = {{100, -1, -1}, {150, -1, -1}, {50, -1, -1}, {120, -1, -1}, {80, -1, -1}};
	ws_confidence_update(&c, v, 4);
	CHECK("n4 wide", !c.met && !ws_confidence_done(&c));
	ws_confidence_update(&c, v, 5);
	CHECK("n5 at max", !c.met && ws_confidence_done(&c));
	/* A CPU figure missing in one iteration: not judged at all. */
	ws_confidence_sample m[3] = {{100, 10, 5}, {100, -1, 5}, {100, 10, 5}};
	ws_confidence_update(&c, m, 3);
	CHECK_DBL("lcpu missing once", c.local_cpu_width, -1.0, 0);
	CHECK_DBL("rcpu equal", c.remote_cpu_width, 0.0, 0);
	CHECK("missing cpu not judged", c.met);

	ws_confidence none = setup_ok("none", (ws_confidence_args){0});
	CHECK("none not done at 0", !ws_confidence_done(&none));
	none.iterations = 1;
	CHECK("none done at 1", ws_confidence_done(&none));
}

/* ---- the loop -------------------------------------------------------------------- */

struct fake {
	const double *bytes;  /* per iteration, over elapsed[i] */
	const double *secs;
	const double *lcpu;   /* NULL: CPU not asked */
	int fail_at;          /* iteration that fails, 0 = none */
	int calls;
	bool latency;
};

static int fake_run(void *ctx, int iteration, ws_test_result *r, ws_err *err)
{
	struct fake *f = ctx;
	f->calls++;
	CHECK_INT("iteration order", iteration, f->calls);
	memset(r, 0, sizeof(*r));
	if (iteration == f->fail_at)
		return ws_err_set(err, WS_E_REMOTE, "iteration %d failed", iteration);
	int i = iteration - 1;
	r->spec.type = WS_TEST_TCP_STREAM;
	r->spec.local.measure_cpu = f->lcpu != NULL;
	r->local.elapsed_ns = (int64_t)(f->secs[i] * SEC);
	r->remote.elapsed_ns = r->local.elapsed_ns;
	r->local.bytes_sent = r->remote.bytes_recv = (uint64_t)f->bytes[i];
	r->local.send_calls = 1000 * (uint64_t)iteration;
	r->local.sndbuf_set = 1000 + (uint32_t)iteration; /* the last iteration's is kept */
	if (f->lcpu) {
		r->local.cpu_measured = true;
		r->local.cpu_util = f->lcpu[i];
	}
	if (f->latency) {
		r->local.latency = malloc(sizeof(ws_hist));
		ws_hist_init(r->local.latency);
		for (int k = 0; k < iteration; k++)
			ws_hist_record(r->local.latency, 1000 * (uint64_t)iteration);
	}
	r->local.flows = calloc(1, sizeof(ws_flow_result)); /* must not leak */
	r->local.nflows = 1;
	return 0;
}

static void test_loop_counts(void)
{
	static const double equal[30] = {1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9};
	static const double secs[30] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	ws_err err = {0};
	ws_test_result mean;

	/* Equal figures: met at 2 but min is 3, so exactly 3. */
	ws_confidence c = setup_ok("loop", (ws_confidence_args){.i_given = true, .max = 10, .min = 3});
	struct fake f = {equal, secs, NULL, 0, 0, false};
	int rc = ws_iterate_run(&c, fake_run, &f, &mean, &err);
	CHECK_INT("equal rc", rc, 0);
	CHECK_INT("equal calls", f.calls, 3);
	CHECK_INT("equal iterations", c.iterations, 3);
	CHECK("equal met", c.met);
	CHECK_DBL("equal width", c.throughput_width, 0.0, 0);
	CHECK_U64("equal bytes", mean.remote.bytes_recv, 1000000000ULL);
	CHECK_INT("last sizes", mean.local.sndbuf_set, 1003);
	CHECK_INT("last flows", mean.local.nflows, 1);
	ws_test_result_free(&mean);

	/* Spread figures: all of -i 5. */
	static const double spread[5] = {1e9, 2e9, 0.5e9, 1.5e9, 1e9};
	c = setup_ok("loop5", (ws_confidence_args){.i_given = true, .max = 5});
	f = (struct fake){spread, secs, NULL, 0, 0, false};
	rc = ws_iterate_run(&c, fake_run, &f, &mean, &err);
	CHECK_INT("spread rc", rc, 0);
	CHECK_INT("spread calls", f.calls, 5);
	CHECK("spread not met", !c.met);
	CHECK_DBL("spread width", c.throughput_width,
		  ws_confidence_width(99, (double[]){1e9, 2e9, 0.5e9, 1.5e9, 1e9}, 5), 1e-9);
	ws_test_result_free(&mean);

	/* Not asked: one run. */
	c = setup_ok("once", (ws_confidence_args){0});
	f = (struct fake){spread, secs, NULL, 0, 0, false};
	rc = ws_iterate_run(&c, fake_run, &f, &mean, &err);
	CHECK_INT("once rc", rc, 0);
	CHECK_INT("once calls", f.calls, 1);
	CHECK_U64("once bytes", mean.remote.bytes_recv, 1000000000ULL);
	ws_test_result_free(&mean);

	/* A failing iteration ends the loop with its error. */
	c = setup_ok("fail", (ws_confidence_args){.i_given = true, .max = 5});
	f = (struct fake){spread, secs, NULL, 2, 0, false};
	rc = ws_iterate_run(&c, fake_run, &f, &mean, &err);
	CHECK_INT("fail rc", rc, -WS_E_REMOTE);
	CHECK_INT("fail calls", f.calls, 2);
	CHECK_STR("fail msg", err.msg, "iteration 2 failed");
	CHECK("fail mean empty", mean.local.flows == NULL && mean.local.latency == NULL);
	ws_test_result_free(&mean);
}

static void test_combine(void)
{
	/* Figures 1e8, 1.1e8, 1e8 B/s over different intervals: the combined result's figure
	 * is their mean exactly, though mean bytes / mean interval is 1.0513e8. */
	static const double bytes[3] = {100e6, 220e6, 90e6}, secs[3] = {1.0, 2.0, 0.9};
	static const double lcpu[3] = {10, 20, 30};
	ws_confidence c = setup_ok("combine", (ws_confidence_args){.i_given = true, .max = 3});
	struct fake f = {bytes, secs, lcpu, 0, 0, true};
	ws_err err = {0};
	ws_test_result mean;
	int rc = ws_iterate_run(&c, fake_run, &f, &mean, &err);
	CHECK_INT("combine rc", rc, 0);
	CHECK_INT("combine calls", f.calls, 3);
	CHECK_DBL("combine figure", ws_iterate_figure(&mean), 310e6 / 3, 1.0);
	CHECK_INT("combine elapsed", mean.local.elapsed_ns, 1300000000LL);
	CHECK_DBL("combine cpu", mean.local.cpu_util, 20.0, 1e-12);
	CHECK("combine cpu measured", mean.local.cpu_measured);
	CHECK_DBL("cpu width", c.local_cpu_width, 200 * 9.925 * 10 / sqrt(3) / 20, 1e-9);
	CHECK_DBL("tput width", c.throughput_width,
		  ws_confidence_width(99, (double[]){1e8, 1.1e8, 1e8}, 3), 1e-9);
	/* send calls 1000, 2000, 3000: mean 2000, scaled by the figure's factor. */
	double factor = (310e6 / 3) / ((410e6 / 3) / 1.3);
	CHECK_U64("combine calls scaled", mean.local.send_calls, (uint64_t)llround(2000 * factor));
	CHECK("combine latency", mean.local.latency != NULL);
	if (mean.local.latency) {
		CHECK_U64("merged count", ws_hist_count(mean.local.latency), 6);
		CHECK_U64("merged min", ws_hist_min(mean.local.latency), 1000);
		CHECK_U64("merged max", ws_hist_max(mean.local.latency), 3000);
	}
	ws_test_result_free(&mean);

	ws_confidence_sample s;
	ws_test_result r;
	memset(&r, 0, sizeof(r));
	r.spec.type = WS_TEST_UDP_STREAM;
	r.remote.bytes_recv = 500;
	r.remote.elapsed_ns = SEC / 2;
	r.local.elapsed_ns = SEC;
	r.local.cpu_measured = r.remote.cpu_measured = true;
	r.local.cpu_util = r.remote.cpu_util = 50;
	r.spec.remote.measure_cpu = true;
	ws_iterate_sample(&r, &s);
	CHECK_DBL("udp figure: receiver interval", s.throughput, 1000.0, 0);
	CHECK_DBL("udp lcpu not asked", s.local_cpu, -1.0, 0);
	CHECK_DBL("udp rcpu", s.remote_cpu, 50.0, 0);
	r.spec.type = WS_TEST_TCP_RR;
	r.local.transactions = 300;
	CHECK_DBL("rr figure", ws_iterate_figure(&r), 300.0, 0);
	r.spec.type = WS_TEST_TCP_MAERTS;
	r.local.bytes_recv = 7;
	CHECK_DBL("maerts figure", ws_iterate_figure(&r), 7.0, 0);
	CHECK_INT("combine none", ws_iterate_combine(&r, 0, &mean, &err), -WS_E_INVAL);
	/* One run is passed through bit for bit (a double would round 2^60 + 1). */
	r.spec.type = WS_TEST_TCP_STREAM;
	r.remote.bytes_recv = (1ULL << 60) + 1;
	r.local.latency = malloc(sizeof(ws_hist));
	ws_hist_init(r.local.latency);
	ws_hist *h = r.local.latency;
	CHECK_INT("combine one", ws_iterate_combine(&r, 1, &mean, &err), 0);
	CHECK_U64("one exact", mean.remote.bytes_recv, (1ULL << 60) + 1);
	CHECK("one latency moved", mean.local.latency == h && r.local.latency == NULL);
	ws_test_result_free(&mean);
}

/* ---- against netperf 2.7.0 -------------------------------------------------------- */

/* warpspeed's one documented banner difference: the address inside the parentheses. */
static void fill_address(char *buf)
{
	char *at = strstr(buf, "127.0.0.1 ()");
	if (!at || at > strchr(buf, '\n'))
		return;
	memmove(at + 21, at + 12, strlen(at + 12) + 1);
	memcpy(at, "127.0.0.1 (127.0.0.1)", 21);
}

static void base(ws_test_result *r, enum ws_test_type t)
{
	memset(r, 0, sizeof(*r));
	r->spec.type = t;
	snprintf(r->remote_host, sizeof(r->remote_host), "127.0.0.1");
	snprintf(r->remote_addr, sizeof(r->remote_addr), "127.0.0.1");
	r->family_used = WS_FAMILY_INET;
}

static void expect_golden(const char *name, const ws_test_result *r, double tput_width)
{
	ws_confidence c = setup_ok(name, (ws_confidence_args){.i_given = true, .max = 3, .min = 2});
	ws_confidence_sample s[3] = {{1, -1, -1}, {2, -1, -1}, {3, -1, -1}};
	ws_confidence_update(&c, s, 3);
	c.throughput_width = tput_width; /* the golden run's figure */
	ws_classic_opts o;
	ws_classic_opts_init(&o);
	o.conf = &c;
	char *want = ws_t_golden(name, 64), *got = NULL;
	WS_T_REPORT(want != NULL, name, "cannot read the golden %s.txt (WS_ROOT=%s)", name,
		    getenv("WS_ROOT") ? getenv("WS_ROOT") : "unset, cwd");
	if (!want)
		return;
	fill_address(want);
	ws_err err = {0};
	int rc = ws_classic_render_string(r, &o, &got, &err);
	WS_T_REPORT(rc == 0, name, "render returned %d: %s", rc, err.msg);
	CHECK_STR(name, got, want);
	free(got);
	free(want);
}

static void test_goldens(void)
{
	ws_test_result r;
	base(&r, WS_TEST_TCP_STREAM);
	r.local.sndbuf_set = 16384;
	r.local.send_size = 16384;
	r.local.elapsed_ns = SEC;
	r.remote.rcvbuf_set = 131072;
	r.remote.bytes_recv = 1589017500ULL; /* 12712.14 10^6bits/s */
	r.remote.elapsed_ns = SEC;
	expect_golden("tcp_stream_conf", &r, 298.975);

	base(&r, WS_TEST_TCP_MAERTS);
	r.remote.sndbuf_set = 16384;
	r.remote.send_size = 16384;
	r.local.rcvbuf_set = 131072;
	r.local.bytes_recv = 1527613750ULL; /* 12220.91 */
	r.local.elapsed_ns = SEC;
	r.remote.elapsed_ns = SEC;
	expect_golden("tcp_maerts_conf", &r, 181.560);

	base(&r, WS_TEST_UDP_STREAM);
	r.local.sndbuf_set = 212992;
	r.local.send_size = 1472;
	r.local.dgrams_sent = 589204;
	r.local.bytes_sent = 589204ULL * 1472;
	r.local.elapsed_ns = 1000075859LL; /* 6937.94 */
	r.remote.rcvbuf_set = 212992;
	r.remote.dgrams_recv = 398015;
	r.remote.bytes_recv = 398015ULL * 1472;
	r.remote.elapsed_ns = 1000075670LL; /* 4686.67 */
	expect_golden("udp_stream_conf", &r, 98.719);
}

/* The block alone: nothing when met or not asked; measured CPU widths printed; -P 0. */
static void test_block(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_confidence c = setup_ok("block", (ws_confidence_args){.I_given = true, .level = 95});
	c.iterations = 10;
	c.met = true;
	CHECK_INT("met prints nothing", ws_conf_warning_print(&c, f), 0);
	CHECK_INT("NULL prints nothing", ws_conf_warning_print(NULL, f), 0);
	ws_confidence none = setup_ok("none", (ws_confidence_args){0});
	CHECK_INT("not asked prints nothing", ws_conf_warning_print(&none, f), 0);
	c.met = false;
	c.throughput_width = 6.6634;
	c.local_cpu_width = 14.0486;
	c.remote_cpu_width = 13.9444;
	CHECK_INT("lines", ws_conf_warning_print(&c, f), 8);
	fclose(f);
	CHECK_STR("block", buf,
		  "!!! WARNING\n"
		  "!!! Desired confidence was not achieved within the specified iterations.\n"
		  "!!! This implies that there was variability in the test environment that\n"
		  "!!! must be investigated before going further.\n"
		  "!!! Confidence intervals: Throughput      : 6.663%\n"
		  "!!!                       Local CPU util  : 14.049%\n"
		  "!!!                       Remote CPU util : 13.944%\n\n");
	free(buf);

	/* -P 0: no banner, the block still comes first, as netperf prints it. */
	ws_test_result r;
	base(&r, WS_TEST_TCP_STREAM);
	r.local.elapsed_ns = SEC;
	r.remote.bytes_recv = 1589017500ULL;
	ws_classic_opts o;
	ws_classic_opts_init(&o);
	o.print_headers = false;
	o.conf = &c;
	char *text = NULL;
	ws_err err = {0};
	CHECK_INT("P0 render", ws_classic_render_string(&r, &o, &text, &err), 0);
	CHECK("P0 block first", text && strncmp(text, "!!! WARNING\n", 12) == 0);
	CHECK("P0 no banner", text && !strstr(text, "MIGRATED"));
	free(text);
	/* Banner suffix at 95%, width 5. */
	o.print_headers = true;
	c.met = true;
	CHECK_INT("95 render", ws_classic_render_string(&r, &o, &text, &err), 0);
	CHECK("95 suffix", text && strstr(text, "AF_INET : +/-2.500% @ 95% conf.  : demo\n"));
	free(text);
	/* -r: netperf's banner says so (its "%s" after "conf. "). */
	c.throughput_only = true;
	CHECK_INT("-r render", ws_classic_render_string(&r, &o, &text, &err), 0);
	CHECK("-r suffix", text && strstr(text, "AF_INET : +/-2.500% @ 95% conf.  on result only : demo\n"));
	free(text);
}

/* The confidence names of -o/-O/-k read the same struct: widths under -i, 0.000 for a CPU
 * figure not measured (netperf's constant -1 has no spread), netperf's -1 without -i. */
static const char *selected(const char *name, const ws_report_ctx *c, char *buf, size_t n)
{
	int i = ws_out_find(name);
	WS_T_REPORT(i >= 0, name, "%s is not in the output table", name);
	if (i < 0)
		return "";
	ws_out_value v;
	ws_out_value_of(ws_out_at((size_t)i), c, &v);
	ws_out_format_value(ws_out_at((size_t)i), &v, buf, n);
	return buf;
}

static void test_selectors(void)
{
	ws_test_result r;
	base(&r, WS_TEST_TCP_STREAM);
	r.local.elapsed_ns = SEC;
	r.remote.bytes_recv = 1589017500ULL;
	ws_confidence c = setup_ok("sel", (ws_confidence_args){.i_given = true, .max = 5, .min = 3});
	ws_confidence_sample s[4] = {{100, 10, -1}, {150, 20, -1}, {50, 30, -1}, {120, 20, -1}};
	ws_confidence_update(&c, s, 4);
	ws_report_ctx ctx = {.r = &r, .conf = &c};
	char buf[64], want[64];
	CHECK_STR("CONFIDENCE_LEVEL", selected("CONFIDENCE_LEVEL", &ctx, buf, sizeof(buf)), "99");
	CHECK_STR("CONFIDENCE_ITERATION", selected("CONFIDENCE_ITERATION", &ctx, buf, sizeof(buf)), "4");
	snprintf(want, sizeof(want), "%.3f", c.throughput_width);
	CHECK_STR("THROUGHPUT_CONFID", selected("THROUGHPUT_CONFID", &ctx, buf, sizeof(buf)), want);
	snprintf(want, sizeof(want), "%.3f", c.local_cpu_width);
	CHECK_STR("LOCAL_CPU_CONFID", selected("LOCAL_CPU_CONFID", &ctx, buf, sizeof(buf)), want);
	CHECK_STR("REMOTE_CPU_CONFID", selected("REMOTE_CPU_CONFID", &ctx, buf, sizeof(buf)), "0.000");
	ctx.conf = NULL;
	CHECK_STR("no -i THROUGHPUT_CONFID", selected("THROUGHPUT_CONFID", &ctx, buf, sizeof(buf)), "-1.000");
	CHECK_STR("no -i REMOTE_CPU_CONFID", selected("REMOTE_CPU_CONFID", &ctx, buf, sizeof(buf)), "-1.000");
	CHECK_STR("no -i CONFIDENCE_ITERATION", selected("CONFIDENCE_ITERATION", &ctx, buf, sizeof(buf)), "1");
}

int main(void)
{
	RUN(test_t_table);
	RUN(test_setup);
	RUN(test_width);
	RUN(test_stopping);
	RUN(test_loop_counts);
	RUN(test_combine);
	RUN(test_goldens);
	RUN(test_block);
	RUN(test_selectors);
	TEST_MAIN_END();
}
