/* SPDX-License-Identifier: BSD-2-Clause */
/* test_ratio: the Hodges-Lehmann ratio and its Mann-Whitney interval (measure/ratio.h) on
 * synthetic samples with exact expected medians, ratios, interval endpoints and verdicts.
 *
 * The expected values come from an independent Python 3 stdlib computation that
 * enumerates every ordering with itertools instead of the C code's recurrence:
 *
 *   def u_cdf(m, n, u):               # P(U <= u), U = pairs (old < new)
 *       N = m + n; tot = below = 0
 *       for pos in itertools.combinations(range(N), m):
 *           U = sum(N - 1 - p - (m - 1 - i) for i, p in enumerate(sorted(pos)))
 *           tot += 1; below += U <= u
 *       return below / tot
 *   def hl(old, new):
 *       m, n = len(old), len(new)
 *       d = sorted(math.log(y) - math.log(x) for x in old for y in new)
 *       est = math.exp(statistics.median(d))
 *       pooled = sorted(map(math.log, old + new))
 *       if math.comb(m + n, m) < 40: return est, None, None        # too few
 *       if len(set(pooled)) == len(pooled):                         # exact
 *           k = 0
 *           while u_cdf(m, n, k) < 0.025: k += 1
 *       else:                                                       # normal, ties
 *           N = m + n; t = sum(c**3 - c for c in map(pooled.count, set(pooled)))
 *           var = m*n/12 * ((N+1) - t/(N*(N-1)))
 *           k = math.floor(m*n/2 - 1.959963984540054 * math.sqrt(var))
 *       return est, math.exp(d[k-1]), math.exp(d[m*n-k])
 *
 * which printed (ratio, lo, hi, k): slower 0.91 0.88235294117647 0.93877551020408 k=3
 * exact; same 1.0050505050505 0.97549019607843 1.0357142857143 k=3 exact; ties 1
 * 0.90909090909091 1.2 k=6 normal; four 2.5819888974716 1.25 8 k=1 exact; shift 8/7 = lo
 * = hi k=4 normal; identical 1 1 1 k=12 normal; u_cdf(5,5,2) = 4/252, u_cdf(5,5,3) =
 * 7/252, u_cdf(4,4,0) = 1/70, u_cdf(10,10,22..24) = 0.01773149451168027,
 * 0.02162852627248912, 0.026212951135551756. */
#include "harness.h"

#include "measure/ratio.h"
#include "util/err.h"

#define TOL 1e-12

static ws_ratio run(const char *name, const double *o, size_t m, const double *n, size_t nn)
{
	ws_ratio r;
	ws_err e;
	ws_err_clear(&e);
	CHECK_INT(name, ws_ratio_compute(o, m, n, nn, &r, &e), 0);
	return r;
}

static void test_u_cdf(void)
{
	CHECK_DBL("5,5,2", ws_ratio_u_cdf(5, 5, 2), 4.0 / 252, TOL);
	CHECK_DBL("5,5,3", ws_ratio_u_cdf(5, 5, 3), 7.0 / 252, TOL);
	CHECK_DBL("4,4,0", ws_ratio_u_cdf(4, 4, 0), 1.0 / 70, TOL);
	CHECK_DBL("3,5,0", ws_ratio_u_cdf(3, 5, 0), 1.0 / 56, TOL);
	CHECK_DBL("10,10,22", ws_ratio_u_cdf(10, 10, 22), 0.01773149451168027, TOL);
	CHECK_DBL("10,10,23", ws_ratio_u_cdf(10, 10, 23), 0.02162852627248912, TOL);
	CHECK_DBL("10,10,24", ws_ratio_u_cdf(10, 10, 24), 0.026212951135551756, TOL);
	CHECK_DBL("symmetric", ws_ratio_u_cdf(7, 4, 27), 1 - ws_ratio_u_cdf(7, 4, 0), TOL);
	CHECK_DBL("all", ws_ratio_u_cdf(3, 4, 12), 1, 0);
	CHECK("too big", isnan(ws_ratio_u_cdf(51, 3, 1)));
}

static void test_slower(void)
{
	const double o[] = {100, 102, 98, 101, 99}, n[] = {90, 92, 89, 91, 93};
	ws_ratio r = run("slower", o, 5, n, 5);
	CHECK_DBL("old median", r.old_median, 100, 0);
	CHECK_DBL("new median", r.new_median, 91, 0);
	CHECK_DBL("ratio", r.ratio, 0.91, TOL);
	CHECK_DBL("lo", r.lo, 0.8823529411764709, TOL);
	CHECK_DBL("hi", r.hi, 0.93877551020408145, TOL);
	CHECK_INT("k", r.k, 3);
	CHECK_INT("method", r.method, WS_RATIO_EXACT);
	CHECK_DBL("coverage", r.coverage, 1 - 2 * 4.0 / 252, TOL);
	CHECK_INT("throughput", ws_ratio_verdict(&r, true), WS_VERDICT_SLOWER);
	CHECK_INT("latency", ws_ratio_verdict(&r, false), WS_VERDICT_FASTER);
	CHECK_DBL("worse", ws_ratio_worse_pct(&r, true), 9, 1e-9);
	CHECK("fails at 5%", ws_ratio_fails(&r, true, 5));
	CHECK("passes at 10%", !ws_ratio_fails(&r, true, 10));
	CHECK("latency never fails", !ws_ratio_fails(&r, false, 0));
	CHECK_STR("name", ws_ratio_verdict_name(ws_ratio_verdict(&r, true)), "slower");
	CHECK_STR("id", ws_ratio_verdict_id(WS_VERDICT_SAME), "no_change");
}

static void test_same(void)
{
	const double o[] = {100, 102, 98, 101, 99}, n[] = {101.5, 99.5, 103, 100.5, 98.5};
	ws_ratio r = run("same", o, 5, n, 5);
	CHECK_DBL("new median", r.new_median, 100.5, 0);
	CHECK_DBL("ratio", r.ratio, 1.005050505050505, TOL);
	CHECK_DBL("lo", r.lo, 0.97549019607843157, TOL);
	CHECK_DBL("hi", r.hi, 1.0357142857142851, TOL);
	CHECK_INT("verdict", ws_ratio_verdict(&r, true), WS_VERDICT_SAME);
	CHECK("no fail", !ws_ratio_fails(&r, false, 0));
}

static void test_ties(void)
{
	const double o[] = {10, 10, 11, 12, 12, 13}, n[] = {10, 11, 11, 12, 13, 13};
	ws_ratio r = run("ties", o, 6, n, 6);
	CHECK_INT("method", r.method, WS_RATIO_NORMAL);
	CHECK_INT("k", r.k, 6);
	CHECK_DBL("medians", r.old_median, 11.5, 0);
	CHECK_DBL("medians", r.new_median, 11.5, 0);
	CHECK_DBL("ratio", r.ratio, 1, TOL);
	CHECK_DBL("lo", r.lo, 0.90909090909090917, TOL);
	CHECK_DBL("hi", r.hi, 1.2, TOL);
	CHECK_INT("verdict", ws_ratio_verdict(&r, true), WS_VERDICT_SAME);
}

static void test_few(void)
{
	const double a[] = {5}, b[] = {6};
	ws_ratio r = run("n=1", a, 1, b, 1);
	CHECK_DBL("ratio", r.ratio, 1.2, TOL);
	CHECK("no interval", isnan(r.lo) && isnan(r.hi) && r.k == 0);
	CHECK_INT("verdict", ws_ratio_verdict(&r, true), WS_VERDICT_TOO_FEW);
	CHECK("no fail", !ws_ratio_fails(&r, false, 0));
	/* 3 vs 3 has 20 orderings: P(U = 0) = 5% > 2.5%, however far apart */
	const double o3[] = {1, 2, 3}, n3[] = {4, 5, 6};
	r = run("3v3", o3, 3, n3, 3);
	CHECK_DBL("ratio", r.ratio, 2.5, TOL);
	CHECK_INT("verdict", ws_ratio_verdict(&r, true), WS_VERDICT_TOO_FEW);
	/* 4 vs 4: 70 orderings, k = 1: the whole range of pairwise ratios */
	const double o4[] = {1, 2, 3, 4}, n4[] = {5, 6, 7, 8};
	r = run("4v4", o4, 4, n4, 4);
	CHECK_INT("k", r.k, 1);
	CHECK_DBL("ratio", r.ratio, 2.5819888974716108, TOL);
	CHECK_DBL("lo", r.lo, 1.25, TOL);
	CHECK_DBL("hi", r.hi, 8, TOL);
	CHECK_DBL("coverage", r.coverage, 1 - 2.0 / 70, TOL);
	CHECK_INT("verdict", ws_ratio_verdict(&r, true), WS_VERDICT_FASTER);
	/* the edges: an interval needs C(m+n, m) > 40 orderings (P(U = 0) < 2.5%) */
	double many[40];
	for (int i = 0; i < 40; i++)
		many[i] = 10 + i;
	r = run("3v4", o3, 3, many, 4); /* 35 */
	CHECK_INT("3v4", ws_ratio_verdict(&r, true), WS_VERDICT_TOO_FEW);
	r = run("2v7", o3, 2, many, 7); /* 36 */
	CHECK_INT("2v7", ws_ratio_verdict(&r, true), WS_VERDICT_TOO_FEW);
	r = run("2v8", o3, 2, many, 8); /* 45: k = 1 */
	CHECK_INT("2v8 k", r.k, 1);
	CHECK_DBL("2v8 lo", r.lo, 10.0 / 2, TOL);
	CHECK_DBL("2v8 hi", r.hi, 17.0 / 1, TOL);
	r = run("1v39", o3, 1, many, 39); /* 40: P(U = 0) = 2.5% exactly, not below */
	CHECK_INT("1v39", ws_ratio_verdict(&r, true), WS_VERDICT_TOO_FEW);
	r = run("1v40", o3, 1, many, 40); /* 41 */
	CHECK_INT("1v40 k", r.k, 1);
	CHECK_INT("1v40", ws_ratio_verdict(&r, true), WS_VERDICT_FASTER);
}

static void test_identical(void)
{
	const double s[] = {7, 7, 7, 7, 7}, t[] = {8, 8, 8, 8, 8};
	ws_ratio r = run("identical", s, 5, s, 5);
	CHECK_INT("k", r.k, 12);
	CHECK_DBL("ratio", r.ratio, 1, 0);
	CHECK_DBL("lo", r.lo, 1, 0);
	CHECK_DBL("hi", r.hi, 1, 0);
	CHECK_INT("verdict", ws_ratio_verdict(&r, true), WS_VERDICT_SAME);
	r = run("shifted", s, 5, t, 5);
	CHECK_INT("k", r.k, 4);
	CHECK_DBL("ratio", r.ratio, 8.0 / 7, TOL);
	CHECK_DBL("lo", r.lo, 8.0 / 7, TOL);
	CHECK_INT("latency", ws_ratio_verdict(&r, false), WS_VERDICT_SLOWER);
	CHECK("fails at 10%", ws_ratio_fails(&r, false, 10));
	CHECK("passes at 15%", !ws_ratio_fails(&r, false, 15));
}

static void test_refused(void)
{
	ws_ratio r;
	ws_err e;
	const double ok[] = {1, 2}, bad[] = {1, 0}, inf[] = {1, INFINITY};
	CHECK_INT("zero", ws_ratio_compute(ok, 2, bad, 2, &r, &e), -WS_E_INVAL);
	CHECK_STR("zero msg", e.msg, "new sample 2 is 0; expected a positive number");
	CHECK_INT("inf", ws_ratio_compute(inf, 2, ok, 2, &r, &e), -WS_E_INVAL);
	CHECK_INT("empty", ws_ratio_compute(ok, 0, ok, 2, &r, &e), -WS_E_INVAL);
}

int main(void)
{
	RUN(test_u_cdf);
	RUN(test_slower);
	RUN(test_same);
	RUN(test_ties);
	RUN(test_few);
	RUN(test_identical);
	RUN(test_refused);
	TEST_MAIN_END();
}
