/* SPDX-License-Identifier: BSD-2-Clause */
/* compare_out: table, JSON and SVG of compare's rows; see compare_out.h. */
#include "report/compare_out.h"
#include <warpspeed/version.h>

#include "report/json.h"
#include "report/scale.h"
#include "report/svg.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *method_name(enum ws_ratio_method m)
{
	return m == WS_RATIO_EXACT ? "exact" : m == WS_RATIO_NORMAL ? "normal" : NULL;
}

static void fmt_val(double v, char *buf, size_t n)
{
	if (isfinite(v))
		snprintf(buf, n, "%.6g", v);
	else
		snprintf(buf, n, "-");
}

int ws_cmp_table(FILE *out, const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m, ws_err *err)
{
	fprintf(out,
		"%s %s, %s; old: %zu run%s, new: %zu run%s; Hodges-Lehmann ratio new/old, "
		"95%% interval (Mann-Whitney)\n",
		m->context->test, m->context->sizes, m->context->units, m->old_runs,
		m->old_runs == 1 ? "" : "s", m->new_runs, m->new_runs == 1 ? "" : "s");
	fprintf(out, "%-24s %-11s %12s %4s %12s %4s %8s  %-19s %s\n", "figure", "units",
		"old median", "n", "new median", "n", "ratio", "95% interval", "verdict");
	for (size_t i = 0; i < n; i++) {
		const ws_cmp_row *r = &rows[i];
		char a[32], b[32], iv[48] = "-", pct[48] = "";
		fmt_val(r->r.old_median, a, sizeof a);
		fmt_val(r->r.new_median, b, sizeof b);
		if (r->r.method != WS_RATIO_NONE)
			snprintf(iv, sizeof iv, "[%.4f, %.4f]", r->r.lo, r->r.hi);
		if (r->verdict == WS_VERDICT_FASTER || r->verdict == WS_VERDICT_SLOWER)
			snprintf(pct, sizeof pct, " (%.1f%% %s)", fabs(r->worse_pct),
				 r->worse_pct > 0 ? "worse" : "better");
		fprintf(out, "%-24s %-11s %12s %4zu %12s %4zu %8.4f  %-19s %s%s%s\n", r->name,
			r->units, a, r->r.n_old, b, r->r.n_new, r->r.ratio, iv,
			ws_ratio_verdict_name(r->verdict), pct, r->fails ? "  FAIL" : "");
	}
	if (!n)
		fprintf(out, "(no figure is present on both sides)\n");
	if (m->fail_pct >= 0) {
		size_t f = 0;
		for (size_t i = 0; i < n; i++)
			f += rows[i].fails;
		fprintf(out,
			"--fail-if-worse %g: %zu figure%s significantly worse by more than %g%%\n",
			m->fail_pct, f, f == 1 ? "" : "s", m->fail_pct);
	}
	if (ferror(out))
		return ws_err_set(err, EIO, "writing the table failed");
	return 0;
}

static void json_files(ws_json *j, const char *key, const char *const *f, size_t n, size_t runs)
{
	ws_json_object_begin(j, key);
	ws_json_array_begin(j, "files");
	for (size_t i = 0; i < n; i++)
		ws_json_str(j, NULL, f[i]);
	ws_json_array_end(j);
	ws_json_uint(j, "runs", runs);
	ws_json_object_end(j);
}

int ws_cmp_json(FILE *out, const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m, ws_err *err)
{
	ws_json j;
	ws_json_init(&j, out, 2);
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", "compare");
	ws_json_int(&j, "schema_version", 1);
	ws_json_str(&j, "warpspeed_version", ws_version());
	ws_json_str(&j, "estimator", "hodges-lehmann");
	ws_json_str(&j, "interval", "mann-whitney");
	ws_json_double(&j, "level", WS_RATIO_LEVEL);
	if (m->fail_pct >= 0)
		ws_json_double(&j, "fail_if_worse_pct", m->fail_pct);
	else
		ws_json_null(&j, "fail_if_worse_pct");
	const ws_cmp_context *c = m->context;
	ws_json_object_begin(&j, "context");
	ws_json_str(&j, "kind", c->kind);
	ws_json_str(&j, "test", c->test);
	ws_json_str(&j, "sizes", c->sizes);
	ws_json_str(&j, "units", c->units);
	ws_json_str(&j, "host", c->host);
	ws_json_str(&j, "version", c->version);
	ws_json_object_end(&j);
	json_files(&j, "old", m->old_files, m->n_old_files, m->old_runs);
	json_files(&j, "new", m->new_files, m->n_new_files, m->new_runs);
	ws_json_array_begin(&j, "forced");
	for (size_t i = 0; i < m->nnotes; i++)
		ws_json_str(&j, NULL, m->notes[i]);
	ws_json_array_end(&j);
	bool failed = false;
	ws_json_array_begin(&j, "figures");
	for (size_t i = 0; i < n; i++) {
		const ws_cmp_row *r = &rows[i];
		bool ci = r->r.method != WS_RATIO_NONE;
		failed |= r->fails;
		ws_json_object_begin(&j, NULL);
		ws_json_str(&j, "name", r->name);
		ws_json_str(&j, "units", r->units);
		ws_json_str(&j, "better", r->higher_better ? "higher" : "lower");
		ws_json_object_begin(&j, "old");
		ws_json_uint(&j, "n", r->r.n_old);
		ws_json_double(&j, "median", r->r.old_median);
		ws_json_object_end(&j);
		ws_json_object_begin(&j, "new");
		ws_json_uint(&j, "n", r->r.n_new);
		ws_json_double(&j, "median", r->r.new_median);
		ws_json_object_end(&j);
		ws_json_double(&j, "ratio", r->r.ratio);
		ws_json_double(&j, "ratio_low", ci ? r->r.lo : NAN);
		ws_json_double(&j, "ratio_high", ci ? r->r.hi : NAN);
		ws_json_str(&j, "method", method_name(r->r.method));
		ws_json_double(&j, "coverage", ci ? r->r.coverage : NAN);
		ws_json_double(&j, "worse_pct", r->worse_pct);
		ws_json_str(&j, "verdict", ws_ratio_verdict_id(r->verdict));
		ws_json_bool(&j, "fails", r->fails);
		ws_json_object_end(&j);
	}
	ws_json_array_end(&j);
	ws_json_bool(&j, "failed", failed);
	ws_json_object_end(&j);
	int rc = ws_json_finish(&j);
	return rc < 0 ? ws_err_set(err, -rc, "writing the JSON document failed") : 0;
}

#define SVG_W 800.0
#define ROW_H 26.0
#define TOP   70.0
#define LEFT  250.0
#define RIGHT 770.0

int ws_cmp_svg(FILE *out, const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m, ws_err *err)
{
	double lo = 1, hi = 1;
	for (size_t i = 0; i < n; i++) {
		const ws_cmp_row *r = &rows[i];
		double a = r->r.method != WS_RATIO_NONE ? r->r.lo : r->r.ratio;
		double b = r->r.method != WS_RATIO_NONE ? r->r.hi : r->r.ratio;
		lo = isfinite(a) && a < lo ? a : lo;
		hi = isfinite(b) && b > hi ? b : hi;
	}
	/* Ratios spanning more than 2x (a noisy tail percentile) go on a log axis, where 1/2
	 * and 2 are equally far from 1; narrower ones on a linear axis of nice steps. */
	bool logx = hi / lo > 2;
	if (logx) {
		lo /= 1.1;
		hi *= 1.1;
	} else {
		if (hi - lo < 0.02) { /* at least +-1% around the data */
			lo -= 0.01;
			hi += 0.01;
		}
		ws_scale_nice(&lo, &hi, 8);
	}
	double h = TOP + ROW_H * (double)(n ? n : 1) + 60;
	char title[160], desc[256];
	snprintf(title, sizeof title, "warpspeed compare: %s, new/old", m->context->test);
	snprintf(desc, sizeof desc,
		 "The ratio new/old of each figure's Hodges-Lehmann estimate (dot) and "
		 "its 95%% Mann-Whitney interval (whisker); %zu old and %zu new runs.",
		 m->old_runs, m->new_runs);
	ws_svg s;
	ws_svg_begin(&s, out, SVG_W, h, title, desc);
	ws_svg_text(&s, SVG_W / 2, 28, WS_SVG_MIDDLE, 18, true, 0, title);
	ws_svg_text(&s, SVG_W / 2, 48, WS_SVG_MIDDLE, 12, false, 0,
		    "dot: ratio; whisker: 95% interval; hollow: too few samples; > 1 means new is "
		    "higher");
	ws_scale sx = {.kind = logx ? WS_SCALE_LOG10 : WS_SCALE_LINEAR,
		       .lo = lo,
		       .hi = hi,
		       .a = LEFT,
		       .b = RIGHT};
	ws_tick t[WS_TICKS_MAX];
	int nt = ws_scale_ticks(&sx, WS_TICK_NUMBER, true, 12, t, WS_TICKS_MAX);
	double bottom = TOP + ROW_H * (double)(n ? n : 1);
	const ws_svg_style grid = {.stroke = "#d9d9d9", .width = 1};
	const ws_svg_style axis = {.stroke = "#000000", .width = 1};
	ws_svg_group(&s, "axis");
	for (int i = 0; i < nt; i++) {
		ws_svg_line(&s, t[i].pos, TOP, t[i].pos, bottom, &grid);
		ws_svg_text(&s, t[i].pos, bottom + 18, WS_SVG_MIDDLE, 12, false, 0, t[i].label);
	}
	ws_svg_line(&s, LEFT, bottom, RIGHT, bottom, &axis);
	ws_svg_text(&s, (LEFT + RIGHT) / 2, bottom + 40, WS_SVG_MIDDLE, 13, false, 0,
		    logx ? "ratio new / old (log scale)" : "ratio new / old");
	double one = ws_scale_map(&sx, 1);
	ws_svg_line(&s, one, TOP - 6, one, bottom,
		    &(ws_svg_style){.stroke = "#333333", .width = 1.5, .dash = "4 3"});
	ws_svg_group_end(&s);
	for (size_t i = 0; i < n; i++) {
		const ws_cmp_row *r = &rows[i];
		double y = TOP + ROW_H * ((double)i + 0.5);
		const char *col = r->verdict == WS_VERDICT_SLOWER ? "#d55e00"
			: r->verdict == WS_VERDICT_FASTER         ? "#009e73"
								  : "#0072b2";
		char tip[256], label[128];
		snprintf(label, sizeof label, "%s (%s)", r->name, r->units);
		if (r->r.method != WS_RATIO_NONE)
			snprintf(tip, sizeof tip, "%s: ratio %.4f, 95%% interval [%.4f, %.4f], %s",
				 r->name, r->r.ratio, r->r.lo, r->r.hi,
				 ws_ratio_verdict_name(r->verdict));
		else
			snprintf(tip, sizeof tip, "%s: ratio %.4f, too few samples for an interval",
				 r->name, r->r.ratio);
		ws_svg_group(&s, "figure");
		ws_svg_tooltip(&s, tip);
		ws_svg_text(&s, LEFT - 10, y + 4, WS_SVG_END, 12, r->fails, 0, label);
		ws_svg_style ws = {.stroke = col, .width = 2};
		if (r->r.method != WS_RATIO_NONE) {
			double a = ws_scale_map(&sx, r->r.lo), b = ws_scale_map(&sx, r->r.hi);
			ws_svg_line(&s, a, y, b, y, &ws);
			ws_svg_line(&s, a, y - 5, a, y + 5, &ws);
			ws_svg_line(&s, b, y - 5, b, y + 5, &ws);
		}
		ws_svg_marker(
			&s, WS_MARK_CIRCLE, ws_scale_map(&sx, r->r.ratio), y, 4.5,
			&(ws_svg_style){.stroke = col,
					.width = 1.5,
					.fill = r->r.method != WS_RATIO_NONE ? col : "#ffffff"});
		ws_svg_group_end(&s);
	}
	if (!n)
		ws_svg_text(&s, SVG_W / 2, TOP + 16, WS_SVG_MIDDLE, 13, false, 0,
			    "no figure is present on both sides");
	int rc = ws_svg_end(&s);
	return rc < 0 ? ws_err_set(err, -rc, "writing the SVG failed") : 0;
}
