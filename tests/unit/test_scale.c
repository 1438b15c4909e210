/* SPDX-License-Identifier: BSD-2-Clause */
/* test_scale: scales and ticks (report/scale.h) with exact expected values and pixels.
 *
 * Each case states the axis (kind, domain, pixels, label size) and the ticks that must come
 * out, worked out by hand from the rules in scale.h: the finest nice step whose labels keep
 * their gaps. A sweep over many random axes then checks that no returned pair of labels
 * overlaps and every tick lies in its domain. */
#include "harness.h"

#include "report/scale.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Ticks of an axis against the expected labels and pixels (pos may be NULL). */
static void expect(const char *name, const ws_scale *s, enum ws_tick_fmt f, bool horizontal,
		   const char *const *labels, const double *pos, int n)
{
	ws_tick t[WS_TICKS_MAX];
	int got = ws_scale_ticks(s, f, horizontal, 12, t, WS_TICKS_MAX);
	CHECK_INT(name, got, n);
	for (int i = 0; i < n && i < got; i++) {
		CHECK_STR(name, t[i].label, labels[i]);
		if (pos)
			CHECK_DBL(name, t[i].pos, pos[i], 1e-9);
	}
}

static void test_linear(void)
{
	ws_scale h = {WS_SCALE_LINEAR, 0, 100, 80, 680, false};
	const char *l[] = {"0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"};
	double p[11];
	for (int i = 0; i < 11; i++)
		p[i] = 80 + 60 * i;
	expect("linear 0..100 over 600 px", &h, WS_TICK_NUMBER, true, l, p, 11);

	ws_scale v = {WS_SCALE_LINEAR, 0, 100, 400, 100, false};
	for (int i = 0; i < 11; i++)
		p[i] = 400 - 30 * i;
	expect("vertical 0..100 over 300 px", &v, WS_TICK_NUMBER, false, l, p, 11);

	ws_scale d = {WS_SCALE_LINEAR, 0, 1, 0, 600, false};
	const char *ld[] = {"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"};
	expect("decimals", &d, WS_TICK_NUMBER, true, ld, NULL, 11);

	/* 0..40000 over 300 px: 2000 steps are 15 px apart, 5000 steps 37.5 px; every label
	 * of an axis reaching 10^4 takes the suffix (5k, not 5000 beside 10k). */
	ws_scale k = {WS_SCALE_LINEAR, 0, 40000, 400, 100, false};
	const char *lk[] = {"0", "5k", "10k", "15k", "20k", "25k", "30k", "35k", "40k"};
	double pk[9];
	for (int i = 0; i < 9; i++)
		pk[i] = 400 - 37.5 * i;
	expect("vertical 0..40000, one suffix rule", &k, WS_TICK_NUMBER, false, lk, pk, 9);

	/* A count: 0..4 over 600 px would take 0.5 steps; whole numbers only take 1. */
	ws_scale c = {WS_SCALE_LINEAR, 0, 4, 0, 600, false};
	const char *lc[] = {"0.0", "0.5", "1.0", "1.5", "2.0", "2.5", "3.0", "3.5", "4.0"};
	expect("halves", &c, WS_TICK_NUMBER, true, lc, NULL, 9);
	c.integer = true;
	const char *li[] = {"0", "1", "2", "3", "4"};
	double pi_[] = {0, 150, 300, 450, 600};
	expect("integer", &c, WS_TICK_NUMBER, true, li, pi_, 5);

	/* 200 px for 0..100000: 10k steps are 20 px apart, 20k steps 40 px (labels of
	 * 23 and 30.5 px need 36.4). */
	ws_scale n = {WS_SCALE_LINEAR, 0, 100000, 0, 200, false};
	const char *ln[] = {"0", "20k", "40k", "60k", "80k", "100k"};
	double pn[] = {0, 40, 80, 120, 160, 200};
	expect("narrow, SI suffixes", &n, WS_TICK_NUMBER, true, ln, pn, 6);

	/* 0..3000 over 600 px: 500 steps, suffixed from 1000 on like every other axis. */
	ws_scale m = {WS_SCALE_LINEAR, 0, 3000, 0, 600, false};
	const char *lm[] = {"0", "500", "1k", "1.5k", "2k", "2.5k", "3k"};
	double pm[] = {0, 100, 200, 300, 400, 500, 600};
	expect("0..3000, suffix from 1000", &m, WS_TICK_NUMBER, true, lm, pm, 7);
}

static void test_log(void)
{
	ws_scale s = {WS_SCALE_LOG10, 1, 1e6, 0, 600, false};
	/* one scheme on the axis: 1k beside 10k, never 1000 beside 10k */
	const char *l[] = {"1", "10", "100", "1k", "10k", "100k", "1M"};
	double p[] = {0, 100, 200, 300, 400, 500, 600};
	expect("log10 decades", &s, WS_TICK_NUMBER, true, l, p, 7);
	CHECK_DBL("log10 map", ws_scale_map(&s, 1000), 300, 1e-9);

	ws_scale b = {WS_SCALE_LOG2, 64, 65536, 0, 600, false};
	const char *lb[] = {"64", "128", "256", "512", "1K", "2K", "4K", "8K", "16K", "32K", "64K"};
	double pb[11];
	for (int i = 0; i < 11; i++)
		pb[i] = 60 * i;
	expect("log2 sizes", &b, WS_TICK_BINARY, true, lb, pb, 11);

	ws_scale q = {WS_SCALE_LOG2, 32768, 33554432, 0, 700, false};
	const char *lq[] = {"2^15", "2^16", "2^17", "2^18", "2^19", "2^20", "2^21", "2^22", "2^23", "2^24", "2^25"};
	expect("log2 IQ sizes 2^15..2^25", &q, WS_TICK_POW2, true, lq, NULL, 11);

	/* 2^0..2^30 in 300 px, 10 px per power: every 1..3 powers are closer than 40 px;
	 * every 4th is 40 px apart and fits. */
	ws_scale w = {WS_SCALE_LOG2, 1, 1073741824.0, 0, 300, false};
	const char *lw[] = {"1", "16", "256", "4K", "64K", "1M", "16M", "256M"};
	double pw[] = {0, 40, 80, 120, 160, 200, 240, 280};
	expect("log2 thinned to every 4th", &w, WS_TICK_BINARY, true, lw, pw, 8);
}

static void test_nines(void)
{
	ws_scale s = {WS_SCALE_NINES, 0, 0.99999, 80, 680, false};
	const char *l[] = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
	double p[] = {80, 200, 320, 440, 560, 680};
	expect("nines", &s, WS_TICK_NINES, true, l, p, 6);
	CHECK_DBL("nines map of P99", ws_scale_map(&s, 0.99), 320, 1e-6);
	CHECK_DBL("tx of 0.999", ws_scale_tx(WS_SCALE_NINES, 0.999), 3, 1e-12);

	/* 200 px: 99.99% and 99.999% would need 57.7 px; every other nine fits. */
	ws_scale n = {WS_SCALE_NINES, 0, 0.99999, 0, 200, false};
	const char *ln[] = {"0%", "99%", "99.99%"};
	double pn[] = {0, 80, 160};
	expect("nines thinned", &n, WS_TICK_NINES, true, ln, pn, 3);
}

static void test_nice_format(void)
{
	double lo = 0, hi = 97;
	ws_scale_nice(&lo, &hi, 6);
	CHECK_DBL("nice lo", lo, 0, 0);
	CHECK_DBL("nice hi", hi, 100, 1e-12);
	lo = 0.3, hi = 0.3;
	ws_scale_nice(&lo, &hi, 6);
	CHECK_DBL("nice of one value, lo", lo, 0.27, 1e-12);
	CHECK_DBL("nice of one value, hi", hi, 0.33, 1e-12);
	lo = 0, hi = 2.0004;
	ws_scale_nice(&lo, &hi, 6);
	CHECK_DBL("nice ignores a hair above a step", hi, 2, 1e-12);

	/* Tick labels: a suffix from 1000 on, the step's decimals, no trailing zeros;
	 * figures (subtitles, descriptions): plain below 10^4. */
	static const struct {
		bool tick;
		double v, step;
		const char *want;
	} fmt[] = {
		{true, 2500, 500, "2.5k"},       {true, 2000, 500, "2k"},    {true, 1000, 1000, "1k"},
		{true, 999, 1, "999"},           {true, -3000, 1000, "-3k"}, {true, 25000, 5000, "25k"},
		{true, 1250000, 250000, "1.25M"}, {true, 0.25, 0.05, "0.25"}, {true, -20, 10, "-20"},
		{true, 3000000, 1000000, "3M"},  {false, 1000, 1, "1000"},   {false, 25000, 5000, "25k"},
		{false, 988.94, 0.1, "988.9"},
	};
	for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
		char b[WS_TICK_LABEL];
		(fmt[i].tick ? ws_tick_format : ws_num_format)(fmt[i].v, fmt[i].step, b, sizeof b);
		CHECK_STR("tick or figure label", b, fmt[i].want);
	}
	CHECK_DBL("label width 2^15", ws_tick_label_width("2^15", 12), 18.6, 1e-9);
	CHECK_DBL("label width 99.9%", ws_tick_label_width("99.9%", 12), 3 * 7.44 + 3.84 + 10.8, 1e-9);
}

/* Random axes: returned ticks keep the gaps the chooser promises and stay in the domain. */
static void test_never_overlap(void)
{
	srand(7);
	int bad = 0, empty = 0;
	for (int i = 0; i < 20000; i++) {
		ws_scale s = {0}; /* every member, integer too */
		s.kind = (enum ws_scale_kind)(rand() % 4);
		double len = 60 + rand() % 900;
		bool horiz = rand() % 2;
		s.a = horiz ? 50 : 50 + len;
		s.b = horiz ? 50 + len : 50;
		double e0 = (rand() % 200 - 100) / 10.0, e1 = e0 + (rand() % 120 + 1) / 10.0;
		s.lo = pow(10, e0);
		s.hi = pow(10, e1);
		if (s.kind == WS_SCALE_LINEAR && rand() % 2)
			s.lo = -s.hi / (1 + rand() % 5);
		if (s.kind == WS_SCALE_NINES) {
			s.lo = 0;
			s.hi = 1 - pow(10, -(1 + rand() % 9));
		}
		enum ws_tick_fmt f = s.kind == WS_SCALE_NINES ? WS_TICK_NINES
				     : s.kind == WS_SCALE_LOG2 ? (rand() % 2 ? WS_TICK_POW2 : WS_TICK_BINARY)
				     : WS_TICK_NUMBER;
		ws_tick t[WS_TICKS_MAX];
		int n = ws_scale_ticks(&s, f, horiz, 12, t, WS_TICKS_MAX);
		if (n == 0 && empty++ < 5)
			printf("  empty: kind %d [%g, %g] len %.0f %s\n", s.kind, s.lo, s.hi, len, horiz ? "h" : "v");
		for (int k = 0; k < n; k++) {
			double lo = fmin(s.a, s.b) - 1e-6, hi = fmax(s.a, s.b) + 1e-6;
			if (!(t[k].pos >= lo && t[k].pos <= hi)) {
				if (bad < 5)
					printf("  stray: kind %d [%g, %g] len %.0f tick %s at %.1f\n", s.kind,
					       s.lo, s.hi, len, t[k].label, t[k].pos);
				bad++;
			}
			if (k == 0)
				continue;
			double d = fabs(t[k].pos - t[k - 1].pos);
			double need = horiz ? (ws_tick_label_width(t[k].label, 12) +
					       ws_tick_label_width(t[k - 1].label, 12)) / 2 + 9.6 : 19.2;
			if (d < need - 1e-9 || !(t[k].v > t[k - 1].v)) {
				if (bad < 5)
					printf("  overlap: kind %d len %.0f %s ticks %s and %s %.1f px apart\n",
					       s.kind, len, horiz ? "h" : "v", t[k - 1].label, t[k].label, d);
				bad++;
			}
		}
	}
	CHECK_INT("overlapping or stray ticks", bad, 0);
	CHECK_INT("axes without ticks", empty, 0);
}

int main(void)
{
	RUN(test_linear);
	RUN(test_log);
	RUN(test_nines);
	RUN(test_nice_format);
	RUN(test_never_overlap);
	TEST_MAIN_END();
}
