/* SPDX-License-Identifier: BSD-2-Clause */
/* scale: value-to-pixel maps and non-overlapping ticks; see scale.h. */
#include "report/scale.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NINES_P_MAX (1 - 1e-12)

double ws_scale_tx(enum ws_scale_kind k, double v)
{
	switch (k) {
	case WS_SCALE_LOG10:
		return log10(v > 0 ? v : 1e-300);
	case WS_SCALE_LOG2:
		return log2(v > 0 ? v : 1e-300);
	case WS_SCALE_NINES:
		return -log10(1 - (v < 0 ? 0 : v > NINES_P_MAX ? NINES_P_MAX : v));
	default:
		return v;
	}
}

double ws_scale_map(const ws_scale *s, double v)
{
	double t0 = ws_scale_tx(s->kind, s->lo), t1 = ws_scale_tx(s->kind, s->hi);
	if (!(t1 != t0) || !isfinite(t0) || !isfinite(t1))
		return (s->a + s->b) / 2;
	return s->a + (ws_scale_tx(s->kind, v) - t0) / (t1 - t0) * (s->b - s->a);
}

/* The k-th nice step (1, 2, 5 x 10^e) for k = 3e + {0, 1, 2}. */
static double nice_step(int k)
{
	static const double m[3] = {1, 2, 5};
	int e = (k >= 0 ? k : k - 2) / 3;
	return m[k - 3 * e] * pow(10, e);
}

void ws_scale_nice(double *lo, double *hi, int target)
{
	if (!isfinite(*lo) || !isfinite(*hi))
		*lo = 0, *hi = 1;
	if (*hi < *lo) {
		double t = *lo;
		*lo = *hi;
		*hi = t;
	}
	if (*hi == *lo) {
		double d = *lo != 0 ? fabs(*lo) * 0.1 : 1;
		*lo -= d;
		*hi += d;
	}
	if (target < 1)
		target = 1;
	int k = 3 * (int)floor(log10((*hi - *lo) / target)) - 3;
	for (;; k++) {
		double st = nice_step(k);
		double l = floor(*lo / st + 1e-3) * st, h = ceil(*hi / st - 1e-3) * st;
		if ((h - l) / st <= target + 1e-9) {
			*lo = l;
			*hi = h;
			return;
		}
	}
}

double ws_tick_label_width(const char *label, double px)
{
	double w = 0, scale = 1;
	for (const char *c = label; *c; c++) {
		if (*c == '^') {
			scale = 0.75;
			continue;
		}
		double em = (*c >= '0' && *c <= '9') ? 0.62
			: (*c == '.' || *c == ',')   ? 0.32
			: *c == '%'                  ? 0.9
						     : 0.68;
		w += em * px * scale;
	}
	return w;
}

/* Integer arithmetic, so the label is the same in every locale. */
static void fixed(double v, int dec, const char *suffix, char *buf, size_t n)
{
	int64_t p10 = 1;
	for (int i = 0; i < dec; i++)
		p10 *= 10;
	double sc = v * (double)p10;
	if (!isfinite(sc) || fabs(sc) > 9e15) {
		snprintf(buf, n, "?");
		return;
	}
	int64_t c = (int64_t)llround(sc);
	uint64_t a = c < 0 ? (uint64_t)(-(c + 1)) + 1 : (uint64_t)c;
	const char *sign = c < 0 ? "-" : "";
	if (dec == 0)
		snprintf(buf, n, "%s%" PRIu64 "%s", sign, a, suffix);
	else
		snprintf(buf, n, "%s%" PRIu64 ".%0*" PRIu64 "%s", sign, a / (uint64_t)p10, dec,
			 a % (uint64_t)p10, suffix);
}

static const struct {
	double unit;
	const char *suffix;
} si[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};

/* The decimals a multiple of step needs (at most 9). */
static int decimals(double step)
{
	int dec = 0;
	while (dec < 9 &&
	       fabs(step * pow(10, dec) - round(step * pow(10, dec))) > 1e-6 * step * pow(10, dec))
		dec++;
	return dec;
}

/* A figure: k/M/G only where the step is a multiple of the unit and |v| >= 10^4. */
static void format_num(double v, double step, bool suffix, char *buf, size_t n)
{
	if (step <= 0 || !isfinite(step))
		step = fabs(v) > 0 ? fabs(v) : 1;
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++) {
		double q = step / si[i].unit;
		if (suffix && v != 0 && q >= 1 && fabs(q - round(q)) < 1e-9 * q) {
			fixed(v / si[i].unit, 0, si[i].suffix, buf, n);
			return;
		}
	}
	fixed(v, decimals(step), "", buf, n);
}

void ws_num_format(double v, double step, char *buf, size_t n)
{
	format_num(v, step, fabs(v) >= 1e4, buf, n);
}

/* A tick label, one scheme on every axis: from 1000 on always with a k, M or G suffix
 * (1k, 1.5k, 10k, 2.5M), below it a plain number with the decimals the step needs; a
 * suffixed label drops the zeros it does not need (1k beside 1.5k, not 1.0k). */
void ws_tick_format(double v, double step, char *buf, size_t n)
{
	if (step <= 0 || !isfinite(step))
		step = fabs(v) > 0 ? fabs(v) : 1;
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++) {
		if (fabs(v) < si[i].unit * (1 - 1e-12))
			continue;
		fixed(v / si[i].unit, decimals(step / si[i].unit), si[i].suffix, buf, n);
		char *dot = strchr(buf, '.');
		if (dot) {
			size_t sl = strlen(si[i].suffix);
			char *end = buf + strlen(buf) - sl, *p = end; /* end: the suffix */
			while (p > dot + 1 && p[-1] == '0')
				p--;
			if (p == dot + 1)
				p = dot;
			memmove(p, end, sl + 1);
		}
		return;
	}
	fixed(v, decimals(step), "", buf, n);
}

static void binary_label(int k, enum ws_tick_fmt f, char *buf, size_t n)
{
	static const char *const sfx[] = {"", "K", "M", "G", "T", "P", "E"};
	if (f == WS_TICK_POW2) {
		snprintf(buf, n, "2^%d", k);
		return;
	}
	if (k < 0) {
		snprintf(buf, n, "2^%d", k);
		return;
	}
	snprintf(buf, n, "%" PRIu64 "%s", (uint64_t)1 << (k % 10), sfx[k / 10 < 7 ? k / 10 : 6]);
}

static void nines_label(int k, char *buf, size_t n)
{
	if (k <= 0) {
		snprintf(buf, n, "0%%");
		return;
	}
	char t[WS_TICK_LABEL] = "9";
	size_t len = 1;
	if (k >= 2)
		t[len++] = '9';
	if (k >= 3)
		t[len++] = '.';
	for (int i = 3; i <= k && len < sizeof t - 2; i++)
		t[len++] = '9';
	if (k == 1)
		t[len++] = '0';
	t[len++] = '%';
	t[len] = 0;
	snprintf(buf, n, "%s", t);
}

/* True when the labels of ticks t[0..n) keep their gaps. */
static bool fits(const ws_tick *t, int n, bool horizontal, double px)
{
	double min_apart = horizontal ? 40 : 1.6 * px, gap = 0.8 * px;
	for (int i = 1; i < n; i++) {
		double d = fabs(t[i].pos - t[i - 1].pos);
		if (d < min_apart)
			return false;
		if (horizontal &&
		    d < (ws_tick_label_width(t[i].label, px) +
			 ws_tick_label_width(t[i - 1].label, px)) /
					    2 +
				    gap)
			return false;
	}
	return true;
}

static void put_tick(const ws_scale *s, ws_tick *t, double v)
{
	t->v = v;
	t->pos = ws_scale_map(s, v);
}

/* Linear ticks of step st within [lo, hi]; -1 when more than max. */
static int linear_at(const ws_scale *s, double st, ws_tick *out, int max, double lo, double hi)
{
	double first = ceil(lo / st - 1e-9);
	int n = 0;
	for (double i = first; i * st <= hi + st * 1e-9; i++) {
		if (n == max)
			return -1;
		double v = i * st;
		if (fabs(v) < st * 1e-9)
			v = 0;
		if (s->kind != WS_SCALE_LINEAR && v <= 0)
			continue; /* a log axis's fallback: only what the axis can show */
		put_tick(s, &out[n], v);
		ws_tick_format(v, st, out[n].label, sizeof out[n].label);
		n++;
	}
	return n;
}

static int linear_ticks(const ws_scale *s, bool horizontal, double px, ws_tick *out, int max,
			double lo, double hi)
{
	double span = hi - lo;
	if (!(span > 0))
		return 0;
	int k = 3 * (int)floor(log10(span / max)) - 3;
	for (int tries = 0; tries < 60; tries++, k++) {
		if (s->integer && nice_step(k) < 1)
			continue;
		int n = linear_at(s, nice_step(k), out, max, lo, hi);
		if (n >= 0 && fits(out, n, horizontal, px))
			return n;
	}
	/* Nothing fits (an axis a few pixels long): the two ends at most. */
	int n = 0;
	put_tick(s, &out[n], lo);
	ws_tick_format(lo, span, out[n++].label, WS_TICK_LABEL);
	return n;
}

/* log10 ticks: decades every d, else 1-2-5, else linear steps on the log map. */
static int log10_ticks(const ws_scale *s, bool horizontal, double px, ws_tick *out, int max)
{
	int k0 = (int)ceil(log10(s->lo) - 1e-9), k1 = (int)floor(log10(s->hi) + 1e-9);
	static const int every[] = {1, 2, 3, 5, 10, 20, 50, 100};
	if (k1 - k0 >= 1) {
		for (size_t e = 0; e < sizeof every / sizeof every[0] && every[e] <= k1 - k0; e++) {
			int n = 0;
			for (int k = k0; k <= k1 && n < max; k++) {
				if (k % every[e])
					continue;
				double v = pow(10, k);
				put_tick(s, &out[n], v);
				ws_tick_format(v, v, out[n].label, WS_TICK_LABEL);
				n++;
			}
			if (n >= 2 && fits(out, n, horizontal, px))
				return n;
		}
	}
	/* Less than two decades in view: 1, 2, 5 x 10^k. */
	int n = 0;
	for (int k = k0 - 1; k <= k1 && n < max; k++)
		for (int m = 0; m < 3 && n < max; m++) {
			double v = nice_step(3 * k + m);
			if (v < s->lo * (1 - 1e-9) || v > s->hi * (1 + 1e-9))
				continue;
			put_tick(s, &out[n], v);
			ws_tick_format(v, v, out[n].label, WS_TICK_LABEL);
			n++;
		}
	if (n >= 2 && fits(out, n, horizontal, px))
		return n;
	if (k1 >= k0) { /* a decade in view, and no two labels fit: that one alone */
		put_tick(s, &out[0], pow(10, k0));
		ws_tick_format(out[0].v, out[0].v, out[0].label, WS_TICK_LABEL);
		return 1;
	}
	return linear_ticks(s, horizontal, px, out, max, s->lo, s->hi);
}

static int log2_ticks(const ws_scale *s, enum ws_tick_fmt f, bool horizontal, double px,
		      ws_tick *out, int max)
{
	int k0 = (int)ceil(log2(s->lo) - 1e-9), k1 = (int)floor(log2(s->hi) + 1e-9);
	if (k0 < -60)
		k0 = -60;
	if (k1 > 62)
		k1 = 62;
	static const int every[] = {1, 2, 3, 4, 5, 10, 20};
	for (size_t e = 0; e < sizeof every / sizeof every[0]; e++) {
		int n = 0;
		for (int k = k0; k <= k1 && n < max; k++) {
			if (((k % every[e]) + every[e]) % every[e])
				continue;
			put_tick(s, &out[n], ldexp(1, k));
			binary_label(k, f, out[n].label, WS_TICK_LABEL);
			n++;
		}
		if (n >= 2 && fits(out, n, horizontal, px))
			return n;
		if (n < 2)
			break;
	}
	return log10_ticks(s, horizontal, px, out, max);
}

static int nines_ticks(const ws_scale *s, bool horizontal, double px, ws_tick *out, int max)
{
	int k0 = (int)ceil(ws_scale_tx(WS_SCALE_NINES, s->lo) - 1e-9);
	int k1 = (int)floor(ws_scale_tx(WS_SCALE_NINES, s->hi) + 1e-9);
	if (k1 > 12)
		k1 = 12;
	for (int every = 1; every <= k1 - k0 + 1; every++) {
		int n = 0;
		for (int k = k0; k <= k1 && n < max; k++) {
			if (k % every)
				continue;
			put_tick(s, &out[n], 1 - pow(10, -k));
			nines_label(k, out[n].label, WS_TICK_LABEL);
			n++;
		}
		if (fits(out, n, horizontal, px))
			return n;
	}
	return 0;
}

int ws_scale_ticks(const ws_scale *s, enum ws_tick_fmt f, bool horizontal, double font_px,
		   ws_tick *out, int max)
{
	if (max > WS_TICKS_MAX)
		max = WS_TICKS_MAX;
	if (max < 2 || !(s->hi > s->lo) || !isfinite(s->lo) || !isfinite(s->hi))
		return 0;
	switch (s->kind) {
	case WS_SCALE_LOG10:
		return s->lo > 0 ? log10_ticks(s, horizontal, font_px, out, max) : 0;
	case WS_SCALE_LOG2:
		return s->lo > 0 ? log2_ticks(s, f, horizontal, font_px, out, max) : 0;
	case WS_SCALE_NINES:
		return s->lo >= 0 && s->hi < 1 ? nines_ticks(s, horizontal, font_px, out, max) : 0;
	default:
		return linear_ticks(s, horizontal, font_px, out, max, s->lo, s->hi);
	}
}
