/* SPDX-License-Identifier: BSD-2-Clause */
/* chart_grid: the categorical charts of chart.h, grouped bars and the heatmap.
 *
 * Both place things on a grid of categories instead of a continuous x axis, and both
 * must say in grey what colour says on screen: bars carry a hatching per series, cells
 * carry their value as text, failed bars and cells are crossed out. */
#include "report/chart.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const ws_svg_style axis_st = {.stroke = "#000000", .width = 1};

/* The bar fills: the series' colour, with white lines at a different angle or spacing
 * for each, so that bars differ when printed in grey. */
static void bar_defs(ws_svg *s, size_t n)
{
	/* clang-format off */
	static const char *const over[] = {
		"",
		"<path d=\"M0,8 L8,0\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
		"<path d=\"M0,0 L8,8\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
		"<path d=\"M0,8 L8,0 M0,0 L8,8\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>",
		"<circle cx=\"4\" cy=\"4\" r=\"1.6\" fill=\"#ffffff\"/>",
		"<path d=\"M0,4 L8,4\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
		"<path d=\"M4,0 L4,8\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
		"<path d=\"M0,4 L8,4 M4,0 L4,8\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>",
	};
	/* clang-format on */
	ws_svg_raw(s, "<defs>\n");
	for (size_t i = 0; i < n && i < WS_CHART_MAX_SERIES; i++) {
		const ws_chart_style *st = ws_chart_style_of((int)i);
		char buf[512];
		snprintf(buf, sizeof buf,
			 "<pattern id=\"%s\" width=\"8\" height=\"8\" "
			 "patternUnits=\"userSpaceOnUse\">"
			 "<rect width=\"8\" height=\"8\" fill=\"%s\"/>%s</pattern>\n",
			 st->hatch, st->color, over[i % (sizeof over / sizeof over[0])]);
		ws_svg_raw(s, buf);
	}
	ws_svg_raw(
		s,
		"<pattern id=\"failed\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
		"<rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/><path d=\"M0,6 L6,0\" "
		"stroke=\"#999999\" stroke-width=\"1\"/></pattern>\n</defs>\n");
}

/* Every k-th of n labels so that labels of the given widths, `apart` px apart, keep a
 * gap; 1 when all fit. */
static size_t label_every(const char *const *labels, size_t n, double apart)
{
	double wmax = 0;
	for (size_t i = 0; i < n; i++)
		wmax = fmax(wmax,
			    ws_tick_label_width(labels[i] ? labels[i] : "", WS_CHART_TICK_PX));
	size_t k = 1;
	while (k < n && apart * (double)k < wmax + 0.8 * WS_CHART_TICK_PX)
		k++;
	return k;
}

static void x_mark(ws_svg *s, double x, double y, double r)
{
	ws_svg_marker(s, WS_MARK_CROSS, x, y, r,
		      &(ws_svg_style){.stroke = "#555555", .fill = "#555555"});
}

int ws_chart_bar(FILE *out, const ws_chart_bars *b, ws_err *err)
{
	if (!b->ncat || b->ncat > 256 || !b->nseries || b->nseries > WS_CHART_MAX_SERIES ||
	    b->nhlines > 4)
		return ws_err_set(err, WS_E_INVAL,
				  "a bar chart takes 1 to 256 categories, 1 to %d "
				  "series and at most 4 reference lines; got %zu, %zu and %zu",
				  WS_CHART_MAX_SERIES, b->ncat, b->nseries, b->nhlines);
	double w = b->width > 0 ? b->width : WS_CHART_W, h = b->height > 0 ? b->height : WS_CHART_H;
	double hi = 0;
	size_t nv = b->ncat * b->nseries;
	for (size_t i = 0; i < nv; i++)
		if (isfinite(b->values[i]))
			hi = fmax(hi, b->values[i]);
	for (size_t i = 0; i < b->nhlines; i++)
		if (isfinite(b->hlines[i].y))
			hi = fmax(hi, b->hlines[i].y);
	double lo = 0;
	ws_scale_nice(&lo, &hi, 6);

	char desc[4096];
	size_t len = (size_t)snprintf(desc, sizeof desc, "Bar chart: %s for each %s.",
				      b->y_label ? b->y_label : "value",
				      b->x_label ? b->x_label : "category");
	for (size_t k = 0; k < b->nseries && len < sizeof desc; k++) {
		len += (size_t)snprintf(desc + len, sizeof desc - len, " %s:", b->series[k]);
		for (size_t c = 0; c < b->ncat && len < sizeof desc; c++) {
			char v[WS_TICK_LABEL];
			double x = b->values[k * b->ncat + c];
			if (isfinite(x))
				ws_num_format(x, 0.01, v, sizeof v);
			len += (size_t)snprintf(desc + len, sizeof desc - len, " %s %s%s",
						b->categories[c], isfinite(x) ? v : "failed",
						c + 1 < b->ncat ? "," : ".");
		}
	}
	ws_svg s;
	ws_svg_begin(&s, out, w, h, b->title, b->desc ? b->desc : desc);
	bar_defs(&s, b->nseries);
	ws_legend_item items[WS_CHART_MAX_SERIES + 4];
	size_t ni = 0;
	for (size_t k = 0; k < b->nseries; k++)
		items[ni++] = (ws_legend_item){WS_LEGEND_BAR, (int)k, b->series[k]};
	for (size_t i = 0; i < b->nhlines; i++)
		items[ni++] = (ws_legend_item){WS_LEGEND_REF, 0, b->hlines[i].label};
	double top = ws_chart_head(&s, w, b->title, b->subtitle, items, ni) + 10;
	double bottom = h - 56, right = w - 28;
	ws_scale sy = {WS_SCALE_LINEAR, lo, hi, bottom, top, false};
	ws_tick yt[WS_TICKS_MAX];
	int ny = ws_scale_ticks(&sy, WS_TICK_NUMBER, false, WS_CHART_TICK_PX, yt, WS_TICKS_MAX);
	double left = 24 + ws_chart_label_width(yt, ny) + 16;
	ws_chart_draw_yaxis(&s, &sy, yt, ny, left, right, b->y_label);

	double group = (right - left) / (double)b->ncat;
	double bw = group * 0.8 / (double)b->nseries;
	size_t every = label_every(b->categories, b->ncat, group);
	ws_svg_group(&s, "x-axis");
	ws_svg_line(&s, left, bottom, right, bottom, &axis_st);
	for (size_t c = 0; c < b->ncat; c += every)
		ws_svg_text(&s, left + group * ((double)c + 0.5), bottom + 20, WS_SVG_MIDDLE,
			    WS_CHART_TICK_PX, false, 0, b->categories[c]);
	ws_svg_text(&s, (left + right) / 2, h - 14, WS_SVG_MIDDLE, WS_CHART_TEXT_PX, false, 0,
		    b->x_label);
	ws_svg_group_end(&s);

	for (size_t k = 0; k < b->nseries; k++) {
		const ws_chart_style *st = ws_chart_style_of((int)k);
		char fill[16];
		snprintf(fill, sizeof fill, "url(#%s)", st->hatch);
		ws_svg_group(&s, "series");
		ws_svg_tooltip(&s, b->series[k]);
		for (size_t c = 0; c < b->ncat; c++) {
			double v = b->values[k * b->ncat + c];
			double x = left + group * (double)c + group * 0.1 + bw * (double)k;
			if (!isfinite(v)) {
				x_mark(&s, x + bw / 2, bottom - 8, fmin(6, bw / 2));
				continue;
			}
			double y = ws_scale_map(&sy, v);
			ws_svg_rect(
				&s, x, y, bw, bottom - y,
				&(ws_svg_style){.stroke = "#000000", .width = 0.6, .fill = fill});
		}
		ws_svg_group_end(&s);
	}
	for (size_t i = 0; i < b->nhlines; i++) {
		double y = ws_scale_map(&sy, b->hlines[i].y);
		ws_svg_group(&s, "reference");
		ws_svg_tooltip(&s, b->hlines[i].label);
		ws_svg_line(&s, left, y, right, y,
			    &(ws_svg_style){.stroke = "#333333", .width = 1.5, .dash = "4 3"});
		ws_svg_group_end(&s);
	}
	int rc = ws_svg_end(&s);
	return rc < 0 ? ws_err_set(err, -rc, "writing the chart failed") : 0;
}

/* ---- heatmap -------------------------------------------------------------------------- */

/* YlGnBu: light to dark, so the order survives printing in grey. */
static void ramp(double t, char *buf, size_t n)
{
	static const unsigned char stop[5][3] = {{0xff, 0xff, 0xcc},
						 {0xa1, 0xda, 0xb4},
						 {0x41, 0xb6, 0xc4},
						 {0x2c, 0x7f, 0xb8},
						 {0x25, 0x34, 0x94}};
	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	double f = t * 4;
	int i = f >= 4 ? 3 : (int)f;
	f -= i;
	unsigned char c[3];
	for (int k = 0; k < 3; k++)
		c[k] = (unsigned char)lround(stop[i][k] + (stop[i + 1][k] - stop[i][k]) * f);
	snprintf(buf, n, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* A value in about three significant digits, as a cell shows it. */
static void short_num(double v, char *buf, size_t n)
{
	double step = v != 0 ? pow(10, floor(log10(fabs(v))) - 2) : 1;
	if (step > 1)
		step = 1 * pow(10, floor(log10(step)));
	ws_num_format(v, step < 1 ? step : (step >= 1000 ? step : 1), buf, n);
}

int ws_chart_heatmap(FILE *out, const ws_chart_heat *hm, ws_err *err)
{
	size_t nr = hm->nrows, nc = hm->ncols;
	if (!nr || !nc || nr > 256 || nc > 256)
		return ws_err_set(err, WS_E_INVAL,
				  "a heatmap takes 1 to 256 rows and columns; got %zu x %zu", nr,
				  nc);
	double w = hm->width > 0 ? hm->width : WS_CHART_W,
	       h = hm->height > 0 ? hm->height : WS_CHART_H;
	double vmin = INFINITY, vmax = -INFINITY;
	size_t failed = 0, cells = 0;
	for (size_t i = 0; i < nr * nc; i++) {
		if (hm->errors && hm->errors[i]) {
			failed++;
			continue;
		}
		if (!isfinite(hm->values[i]))
			continue;
		cells++;
		vmin = fmin(vmin, hm->values[i]);
		vmax = fmax(vmax, hm->values[i]);
	}
	double lo = cells ? fmin(0, vmin) : 0, hi = cells ? vmax : 1;
	ws_scale_nice(&lo, &hi, 5);

	char desc[1024];
	snprintf(desc, sizeof desc,
		 "Heatmap: %s from each %s (rows) to each %s (columns), %zu x %zu; "
		 "%zu cells measured, %zu failed (hatched, marked x; the error is the cell's "
		 "tooltip)",
		 hm->units ? hm->units : "value", hm->row_label, hm->col_label, nr, nc, cells,
		 failed);
	if (cells) {
		char a[WS_TICK_LABEL], b[WS_TICK_LABEL];
		short_num(vmin, a, sizeof a);
		short_num(vmax, b, sizeof b);
		size_t l = strlen(desc);
		snprintf(desc + l, sizeof desc - l, "; values from %s to %s.", a, b);
	}
	ws_svg s;
	ws_svg_begin(&s, out, w, h, hm->title, hm->desc ? hm->desc : desc);
	bar_defs(&s, 0);
	double top = ws_chart_head(&s, w, hm->title, hm->subtitle, NULL, 0) + 14;

	/* Row labels on the left, column labels under the grid, the colour bar at the right. */
	double lw = 0;
	for (size_t r = 0; r < nr; r++)
		lw = fmax(lw,
			  ws_tick_label_width(hm->rows[r] ? hm->rows[r] : "", WS_CHART_TICK_PX));
	lw = fmin(lw, 160);
	double left = 24 + lw + 14, right = w - 110, bottom = h - 56;
	double cell = fmin((right - left) / (double)nc, (bottom - top) / (double)nr);
	double gw = cell * (double)nc, gh = cell * (double)nr;
	left += ((right - left) - gw) / 2;
	double fs = fmin(WS_CHART_TICK_PX, cell * 0.3);

	ws_svg_group(&s, "cells");
	for (size_t r = 0; r < nr; r++)
		for (size_t c = 0; c < nc; c++) {
			size_t i = r * nc + c;
			double x = left + cell * (double)c, y = top + cell * (double)r;
			double v = hm->values[i];
			const char *e = hm->errors ? hm->errors[i] : NULL;
			char tip[512], val[WS_TICK_LABEL] = "", color[8];
			if (isfinite(v))
				short_num(v, val, sizeof val);
			snprintf(tip, sizeof tip, "%s %s to %s %s: %s%s%s", hm->row_label,
				 hm->rows[r], hm->col_label,
				 hm->col_names ? hm->col_names[c] : hm->cols[c],
				 e                     ? "failed: "
					 : isfinite(v) ? val
						       : "not measured",
				 e ? e : "", !e && isfinite(v) && hm->units ? " " : "");
			if (!e && isfinite(v) && hm->units) {
				size_t l = strlen(tip);
				snprintf(tip + l, sizeof tip - l, "%s", hm->units);
			}
			ws_svg_group(&s, e ? "cell failed" : "cell");
			ws_svg_tooltip(&s, tip);
			if (e) {
				ws_svg_rect(&s, x, y, cell, cell,
					    &(ws_svg_style){.stroke = "#ffffff",
							    .fill = "url(#failed)"});
				x_mark(&s, x + cell / 2, y + cell / 2, cell * 0.18);
			} else if (isfinite(v)) {
				double t = (v - lo) / (hi - lo);
				ramp(t, color, sizeof color);
				ws_svg_rect(&s, x, y, cell, cell,
					    &(ws_svg_style){.stroke = "#ffffff", .fill = color});
				if (fs >= 6) {
					ws_svg_raw(&s,
						   t > 0.55 ? "<g fill=\"#ffffff\">\n" : "<g>\n");
					ws_svg_text(&s, x + cell / 2, y + cell / 2 + fs * 0.35,
						    WS_SVG_MIDDLE, fs, false, 0, val);
					ws_svg_raw(&s, "</g>\n");
				}
			} else {
				ws_svg_rect(
					&s, x, y, cell, cell,
					&(ws_svg_style){.stroke = "#dddddd", .fill = "#ffffff"});
			}
			ws_svg_group_end(&s);
		}
	ws_svg_group_end(&s);

	ws_svg_group(&s, "axes");
	size_t ce = label_every(hm->cols, nc, cell);
	size_t re =
		cell >= 1.6 * WS_CHART_TICK_PX ? 1 : (size_t)ceil(1.6 * WS_CHART_TICK_PX / cell);
	for (size_t r = 0; r < nr; r += re)
		ws_svg_text(&s, left - 8, top + cell * ((double)r + 0.5) + WS_CHART_TICK_PX * 0.35,
			    WS_SVG_END, WS_CHART_TICK_PX, false, 0, hm->rows[r]);
	for (size_t c = 0; c < nc; c += ce)
		ws_svg_text(&s, left + cell * ((double)c + 0.5), top + gh + 18, WS_SVG_MIDDLE,
			    WS_CHART_TICK_PX, false, 0, hm->cols[c]);
	ws_svg_text(&s, left + gw / 2, h - 14, WS_SVG_MIDDLE, WS_CHART_TEXT_PX, false, 0,
		    hm->col_label);
	ws_svg_text(&s, 18, top + gh / 2, WS_SVG_MIDDLE, WS_CHART_TEXT_PX, false, -90,
		    hm->row_label);
	ws_svg_group_end(&s);

	/* The colour bar: 20 steps with the axis's ticks, and the failed swatch under it. */
	ws_svg_group(&s, "legend");
	double bx = w - 92, bt = top, bb = top + fmin(gh, 260);
	ws_scale sb = {WS_SCALE_LINEAR, lo, hi, bb, bt, false};
	for (int k = 0; k < 20; k++) {
		char color[8];
		ramp((k + 0.5) / 20, color, sizeof color);
		double y0 = bt + (bb - bt) * (19 - k) / 20.0;
		ws_svg_rect(&s, bx, y0, 16, (bb - bt) / 20.0 + 0.3, &(ws_svg_style){.fill = color});
	}
	ws_svg_rect(&s, bx, bt, 16, bb - bt, &(ws_svg_style){.stroke = "#000000", .width = 0.6});
	ws_tick bt_[WS_TICKS_MAX];
	int nt =
		ws_scale_ticks(&sb, WS_TICK_NUMBER, false, WS_CHART_TICK_PX - 1, bt_, WS_TICKS_MAX);
	for (int k = 0; k < nt; k++) {
		ws_svg_line(&s, bx + 16, bt_[k].pos, bx + 20, bt_[k].pos, &axis_st);
		ws_svg_text(&s, bx + 23, bt_[k].pos + 4, WS_SVG_START, WS_CHART_TICK_PX - 1, false,
			    0, bt_[k].label);
	}
	ws_svg_text(&s, bx - 6, (bt + bb) / 2, WS_SVG_MIDDLE, WS_CHART_TICK_PX, false, -90,
		    hm->units ? hm->units : "value");
	if (failed) {
		ws_svg_rect(
			&s, bx, bb + 16, 16, 16,
			&(ws_svg_style){.stroke = "#000000", .width = 0.6, .fill = "url(#failed)"});
		x_mark(&s, bx + 8, bb + 24, 4);
		ws_svg_text(&s, bx + 22, bb + 28, WS_SVG_START, WS_CHART_TICK_PX - 1, false, 0,
			    "failed");
	}
	ws_svg_group_end(&s);
	int rc = ws_svg_end(&s);
	return rc < 0 ? ws_err_set(err, -rc, "writing the chart failed") : 0;
}
