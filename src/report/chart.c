/* SPDX-License-Identifier: BSD-2-Clause */
/* chart: styles, the head (title, legend), axes and the line chart; see chart.h. Bars and
 * heatmaps are in chart_grid.c. */
#include "report/chart.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TITLE_PX 18
#define TEXT_PX  WS_CHART_TEXT_PX
#define TICK_PX  WS_CHART_TICK_PX

/* Okabe-Ito colours in an order that alternates dark and light, each with its own dash
 * pattern, marker and bar hatching. */
/* clang-format off */
static const ws_chart_style styles[] = {
	{"#0072b2", NULL, WS_MARK_CIRCLE, "h0"},
	{"#d55e00", "8 4", WS_MARK_SQUARE, "h1"},
	{"#009e73", "2 3", WS_MARK_TRIANGLE, "h2"},
	{"#cc79a7", "10 3 2 3", WS_MARK_DIAMOND, "h3"},
	{"#e69f00", "5 2", WS_MARK_TRIANGLE_DOWN, "h4"},
	{"#56b4e9", "12 3 3 3 3 3", WS_MARK_CROSS, "h5"},
	{"#000000", "1 3", WS_MARK_PLUS, "h6"},
	{"#7f7f7f", "6 2 1 2", WS_MARK_STAR, "h7"},
};
/* clang-format on */
#define NSTYLES (sizeof styles / sizeof styles[0])

const ws_chart_style *ws_chart_style_of(int i)
{
	return &styles[(unsigned)(i < 0 ? 0 : i) % NSTYLES];
}

static const ws_svg_style axis_st = {.stroke = "#000000", .width = 1};
static const ws_svg_style grid_st = {.stroke = "#d9d9d9", .width = 1};
static const ws_svg_style ref_st = {.stroke = "#333333", .width = 1.5, .dash = "4 3"};

static double legend_item_width(const ws_legend_item *it)
{
	return 36 + ws_tick_label_width(it->label ? it->label : "", TEXT_PX) + 18;
}

static void legend_sample(ws_svg *s, const ws_legend_item *it, double x, double y)
{
	const ws_chart_style *st = ws_chart_style_of(it->style);
	if (it->kind == WS_LEGEND_BAR) {
		char fill[16];
		snprintf(fill, sizeof fill, "url(#%s)", st->hatch);
		ws_svg_rect(s, x + 4, y - 10, 24, 12,
			    &(ws_svg_style){.stroke = "#000000", .fill = fill});
	} else if (it->kind == WS_LEGEND_REF) {
		ws_svg_line(s, x, y - 4, x + 30, y - 4, &ref_st);
	} else {
		ws_svg_line(s, x, y - 4, x + 30, y - 4,
			    &(ws_svg_style){.stroke = st->color, .width = 2, .dash = st->dash});
		ws_svg_marker(
			s, st->marker, x + 15, y - 4, 4,
			&(ws_svg_style){.stroke = "#ffffff", .fill = st->color, .width = 0.8});
	}
}

double ws_chart_head(ws_svg *s, double w, const char *title, const char *subtitle,
		     const ws_legend_item *items, size_t n)
{
	double y = 28;
	ws_svg_group(s, "head");
	ws_svg_text(s, w / 2, y, WS_SVG_MIDDLE, TITLE_PX, true, 0, title);
	if (subtitle) {
		y += 18;
		ws_svg_text(s, w / 2, y, WS_SVG_MIDDLE, TEXT_PX - 1, false, 0, subtitle);
	}
	ws_svg_group_end(s);
	if (!n)
		return y + 8;
	ws_svg_group(s, "legend");
	/* Rows of entries, each row centred; a row ends where the next entry would not fit. */
	size_t i = 0;
	y += 22;
	while (i < n) {
		double row = 0;
		size_t j = i;
		while (j < n && (j == i || row + legend_item_width(&items[j]) <= w - 40))
			row += legend_item_width(&items[j++]);
		double x = (w - row) / 2;
		for (; i < j; i++) {
			legend_sample(s, &items[i], x, y);
			ws_svg_text(s, x + 36, y, WS_SVG_START, TEXT_PX, false, 0, items[i].label);
			x += legend_item_width(&items[i]);
		}
		y += 18;
	}
	ws_svg_group_end(s);
	return y - 4;
}

/* ---- axes ----------------------------------------------------------------------------- */

double ws_chart_label_width(const ws_tick *t, int n)
{
	double w = 0;
	for (int i = 0; i < n; i++) {
		double lw = ws_tick_label_width(t[i].label, TICK_PX);
		if (lw > w)
			w = lw;
	}
	return w;
}

/* The domain of an axis from the data, where the caller left it open. */
static void fit_domain(ws_chart_axis *ax, double lo, double hi)
{
	if (ax->lo < ax->hi)
		return;
	if (!(lo <= hi)) {
		lo = ax->kind == WS_SCALE_LINEAR ? 0 : 1;
		hi = ax->kind == WS_SCALE_NINES ? 0.99999 : lo * 10 + 1;
	}
	switch (ax->kind) {
	case WS_SCALE_LOG10:
		ax->lo = pow(10, floor(log10(lo) + 1e-9));
		ax->hi = pow(10, ceil(log10(hi) - 1e-9));
		if (ax->hi <= ax->lo)
			ax->hi = ax->lo * 10;
		break;
	case WS_SCALE_LOG2:
		ax->lo = ldexp(1, (int)floor(log2(lo) + 1e-9));
		ax->hi = ldexp(1, (int)ceil(log2(hi) - 1e-9));
		if (ax->hi <= ax->lo)
			ax->hi = ax->lo * 2;
		break;
	case WS_SCALE_NINES:
		ax->lo = 0;
		ax->hi = hi < 0.99999 ? 0.99999 : hi;
		break;
	default:
		if (ax->from_zero && lo > 0)
			lo = 0;
		ws_scale_nice(&lo, &hi, 6);
		ax->lo = lo;
		ax->hi = hi;
	}
}

static bool usable(enum ws_scale_kind k, double v)
{
	return isfinite(v) && (k == WS_SCALE_LINEAR || k == WS_SCALE_NINES ? true : v > 0) &&
		(k != WS_SCALE_NINES || (v >= 0 && v < 1));
}

void ws_chart_draw_yaxis(ws_svg *s, const ws_scale *sy, const ws_tick *t, int n, double l, double r,
			 const char *label)
{
	ws_svg_group(s, "y-axis");
	for (int i = 0; i < n; i++) {
		ws_svg_line(s, l, t[i].pos, r, t[i].pos, &grid_st);
		ws_svg_line(s, l - 5, t[i].pos, l, t[i].pos, &axis_st);
		ws_svg_text(s, l - 8, t[i].pos + TICK_PX * 0.35, WS_SVG_END, TICK_PX, false, 0,
			    t[i].label);
	}
	ws_svg_line(s, l, sy->a, l, sy->b, &axis_st);
	double lw = ws_chart_label_width(t, n);
	ws_svg_text(s, l - lw - 18, (sy->a + sy->b) / 2, WS_SVG_MIDDLE, TEXT_PX, false, -90, label);
	ws_svg_group_end(s);
}

/* The desc of a line chart when the caller gave none. */
static void line_desc(const ws_chart *c, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "Line chart: %s against %s.",
				      c->y.label ? c->y.label : "y", c->x.label ? c->x.label : "x");
	for (size_t i = 0; i < c->nseries && len < n; i++) {
		const ws_chart_series *se = &c->series[i];
		double lo = INFINITY, hi = -INFINITY;
		for (size_t k = 0; k < se->n; k++)
			if (isfinite(se->y[k])) {
				lo = fmin(lo, se->y[k]);
				hi = fmax(hi, se->y[k]);
			}
		len += (size_t)snprintf(buf + len, n - len, " Series %s: %zu points", se->label,
					se->n);
		if (len < n && lo <= hi)
			len += (size_t)snprintf(buf + len, n - len, ", from %.4g to %.4g.", lo, hi);
		else if (len < n)
			len += (size_t)snprintf(buf + len, n - len, ".");
	}
	for (size_t i = 0; i < c->nhlines && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, " Reference line %s at %.4g.",
					c->hlines[i].label, c->hlines[i].y);
	for (char *p = buf; *p; p++) /* %g of the C library follows LC_NUMERIC */
		if (*p == ',' && p[1] >= '0' && p[1] <= '9' && p > buf && p[-1] >= '0' &&
		    p[-1] <= '9')
			*p = '.';
}

static bool point_ok(const ws_chart *c, const ws_chart_series *se, size_t k)
{
	return k < se->n && usable(c->x.kind, se->x[k]) && usable(c->y.kind, se->y[k]);
}

/* How many measured values a series draws: one per step, every mark_every-th point, or
 * every point (chart.h). */
static size_t values_of(const ws_chart_series *se)
{
	if (se->steps)
		return se->n / 2;
	if (se->mark_every > 1)
		return se->n ? (se->n - 1) / se->mark_every + 1 : 0;
	return se->n;
}

/* Where value j is drawn (a step: the middle of its interval); false when it is not. */
static bool value_at(const ws_chart *c, const ws_chart_series *se, size_t j, const ws_scale *sx,
		     const ws_scale *sy, double *px, double *py)
{
	size_t k = se->steps ? 2 * j : se->mark_every > 1 ? j * se->mark_every : j;
	if (!point_ok(c, se, k) || (se->steps && !point_ok(c, se, k + 1)))
		return false;
	*px = ws_scale_map(sx, se->x[k]);
	*py = ws_scale_map(sy, se->y[k]);
	if (se->steps)
		*px = (*px + ws_scale_map(sx, se->x[k + 1])) / 2;
	return true;
}

/* A point with no usable neighbour draws no line: only a marker shows it. */
static bool alone(const ws_chart *c, const ws_chart_series *se, size_t k)
{
	return !se->steps && se->mark_every <= 1 && (k == 0 || !point_ok(c, se, k - 1)) &&
		!point_ok(c, se, k + 1);
}

static void draw_series(ws_svg *s, const ws_chart *c, size_t i, const ws_scale *sx,
			const ws_scale *sy, double *xy)
{
	const ws_chart_series *se = &c->series[i];
	const ws_chart_style *st = ws_chart_style_of(se->style >= 0 ? se->style : (int)i);
	ws_svg_group(s, "series");
	ws_svg_tooltip(s, se->label);
	ws_svg_style line = {.stroke = st->color, .width = 2, .dash = st->dash};
	size_t m = 0;
	double base = sy->a; /* the bottom of the plot */
	for (size_t k = 0; k <= se->n; k++) {
		if (point_ok(c, se, k)) {
			xy[2 * m] = ws_scale_map(sx, se->x[k]);
			xy[2 * m + 1] = ws_scale_map(sy, se->y[k]);
			m++;
			continue;
		}
		if (m >= 2 && se->area) {
			/* The run closed down to the axis, then its outline over it. */
			double first_x = xy[0], last_x = xy[2 * (m - 1)];
			xy[2 * m] = last_x;
			xy[2 * m + 1] = base;
			xy[2 * m + 2] = first_x;
			xy[2 * m + 3] = base;
			ws_svg_polyline(s, xy, m + 2,
					&(ws_svg_style){.fill = st->color, .opacity = 0.25});
		}
		if (m >= 2)
			ws_svg_polyline(s, xy, m, &line);
		m = 0;
	}
	/* Markers only where a value was measured (a step's middle, not its corners; the
	 * spectrum's marked percentiles, not the points drawn between them): on every one
	 * when asked, else on about eight so the shape names the series in grey too, and on
	 * any point that stands alone; an area has one, on its peak. */
	size_t nv = values_of(se), every = se->markers || nv <= 8 ? 1 : (nv + 7) / 8, top = nv;
	double px, py, best = 0;
	for (size_t j = 0; se->area && j < nv; j++)
		if (value_at(c, se, j, sx, sy, &px, &py) && (top == nv || py < best))
			top = j, best = py; /* the highest on the page: the smallest y */
	for (size_t j = 0; j < nv; j++) {
		bool want = se->area ? j == top : j % every == 0 || alone(c, se, j);
		if (want && value_at(c, se, j, sx, sy, &px, &py))
			ws_svg_marker(s, st->marker, px, py, 4.5,
				      &(ws_svg_style){.stroke = "#ffffff",
						      .fill = st->color,
						      .width = 0.8});
	}
	ws_svg_group_end(s);
}

int ws_chart_line(FILE *out, const ws_chart *c, ws_err *err)
{
	if (!c->nseries || c->nseries > WS_CHART_MAX_SERIES || c->nhlines > 4)
		return ws_err_set(err, WS_E_INVAL,
				  "a line chart takes 1 to %d series and at most 4 "
				  "reference lines; got %zu and %zu",
				  WS_CHART_MAX_SERIES, c->nseries, c->nhlines);
	double w = c->width > 0 ? c->width : WS_CHART_W, h = c->height > 0 ? c->height : WS_CHART_H;
	ws_chart_axis ax = c->x, ay = c->y;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	size_t most = 0;
	for (size_t i = 0; i < c->nseries; i++) {
		const ws_chart_series *se = &c->series[i];
		most = se->n > most ? se->n : most;
		for (size_t k = 0; k < se->n; k++) {
			if (!usable(ax.kind, se->x[k]) || !usable(ay.kind, se->y[k]))
				continue;
			xlo = fmin(xlo, se->x[k]);
			xhi = fmax(xhi, se->x[k]);
			ylo = fmin(ylo, se->y[k]);
			yhi = fmax(yhi, se->y[k]);
		}
	}
	for (size_t i = 0; i < c->nhlines; i++)
		if (usable(ay.kind, c->hlines[i].y)) {
			ylo = fmin(ylo, c->hlines[i].y);
			yhi = fmax(yhi, c->hlines[i].y);
		}
	fit_domain(&ax, xlo, xhi);
	fit_domain(&ay, ylo, yhi);
	double *xy = malloc((most + 3) * 2 * sizeof *xy);
	if (!xy)
		return ws_err_set(err, ENOMEM, "no memory for a chart of %zu points", most);

	char desc[4096];
	if (!c->desc)
		line_desc(c, desc, sizeof desc);
	ws_svg s;
	ws_svg_begin(&s, out, w, h, c->title, c->desc ? c->desc : desc);
	ws_legend_item items[WS_CHART_MAX_SERIES + 4];
	size_t ni = 0;
	for (size_t i = 0; i < c->nseries; i++)
		items[ni++] = (ws_legend_item){
			WS_LEGEND_LINE, c->series[i].style >= 0 ? c->series[i].style : (int)i,
			c->series[i].label};
	for (size_t i = 0; i < c->nhlines; i++)
		items[ni++] = (ws_legend_item){WS_LEGEND_REF, 0, c->hlines[i].label};
	double top = ws_chart_head(&s, w, c->title, c->subtitle, items, ni) + 10;
	double bottom = h - 56, right = w - 28;
	ws_scale sy = {ay.kind, ay.lo, ay.hi, bottom, top, ay.integer};
	ws_tick yt[WS_TICKS_MAX], xt[WS_TICKS_MAX];
	int ny = ws_scale_ticks(&sy, ay.fmt, false, TICK_PX, yt, WS_TICKS_MAX);
	double left = 24 + ws_chart_label_width(yt, ny) + 16;
	ws_scale sx = {ax.kind, ax.lo, ax.hi, left, right, ax.integer};
	int nx = ws_scale_ticks(&sx, ax.fmt, true, TICK_PX, xt, WS_TICKS_MAX);

	ws_chart_draw_yaxis(&s, &sy, yt, ny, left, right, ay.label);
	ws_svg_group(&s, "x-axis");
	for (int i = 0; i < nx; i++) {
		ws_svg_line(&s, xt[i].pos, top, xt[i].pos, bottom, &grid_st);
		ws_svg_line(&s, xt[i].pos, bottom, xt[i].pos, bottom + 5, &axis_st);
		ws_svg_text(&s, xt[i].pos, bottom + 20, WS_SVG_MIDDLE, TICK_PX, false, 0,
			    xt[i].label);
	}
	ws_svg_line(&s, left, bottom, right, bottom, &axis_st);
	ws_svg_text(&s, (left + right) / 2, h - 14, WS_SVG_MIDDLE, TEXT_PX, false, 0, ax.label);
	ws_svg_group_end(&s);

	for (size_t i = 0; i < c->nhlines; i++) {
		if (!usable(ay.kind, c->hlines[i].y))
			continue;
		double y = ws_scale_map(&sy, c->hlines[i].y);
		ws_svg_group(&s, "reference");
		ws_svg_tooltip(&s, c->hlines[i].label);
		ws_svg_line(&s, left, y, right, y, &ref_st);
		ws_svg_text(&s, right - 4, y - 5, WS_SVG_END, TICK_PX - 1, false, 0,
			    c->hlines[i].label);
		ws_svg_group_end(&s);
	}
	for (size_t i = 0; i < c->nseries; i++)
		draw_series(&s, c, i, &sx, &sy, xy);
	free(xy);
	int rc = ws_svg_end(&s);
	if (rc < 0)
		return ws_err_set(err, -rc, "writing the chart failed");
	return 0;
}
