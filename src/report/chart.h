/* SPDX-License-Identifier: BSD-2-Clause */
/* chart: chart primitives on the SVG writer: a line chart with several series (also steps
 * and filled areas, which is how histograms are drawn), a grouped bar chart and a
 * heatmap, each with its title, description, axis labels, ticks and legend.
 *
 * Every chart must stay legible at 800x500 and printed in grey, so series differ by
 * colour (Okabe-Ito's colour-blind-safe palette, of different lightness) and also by dash
 * pattern and marker shape (lines) or hatching (bars), and heatmap cells carry their
 * value as text. The legend sits in its own band under the title, never over the data.
 * Data in, SVG out: these functions know nothing about warpspeed's results (charts.h
 * turns results into these structures). They write to the caller's FILE and return 0 or
 * a negative errno with err set. */
#ifndef WS_REPORT_CHART_H
#define WS_REPORT_CHART_H

#include "report/scale.h"
#include "report/svg.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ws_err;

#define WS_CHART_W          800
#define WS_CHART_H          500
#define WS_CHART_MAX_SERIES 16

typedef struct ws_chart_axis {
	enum ws_scale_kind kind;
	enum ws_tick_fmt fmt;
	double lo, hi;     /* the domain; lo >= hi: from the data (linear: widened to nice
	                      * steps; log: to whole decades or powers of two) */
	bool from_zero;    /* linear, from the data: the domain includes 0 */
	const char *label; /* with the unit: "Throughput (10^6bits/s)" */
	bool integer;      /* linear: ticks on whole numbers only (a count) */
} ws_chart_axis;

typedef struct ws_chart_series {
	const char *label;
	const double *x, *y; /* n points; a non-finite y (or <= 0 on a log axis) breaks the line */
	size_t n;
	bool markers; /* a marker on every measured value; else on a few, for the shape */
	bool area;    /* fill down to the axis (a histogram) */
	/* Which points are measured values (markers go only there): with steps, one value
	 * per pair of points, 2i and 2i+1 the ends of its interval (a bin, an interim
	 * interval), marked at the middle; with mark_every k > 1, points 0, k, 2k, ... and
	 * the others are drawn between them; else every point. */
	bool steps;
	unsigned mark_every;
	int style; /* the style table's entry; -1: the series' own index */
} ws_chart_series;

/* A horizontal reference line (a link ceiling), in the legend and labelled on the chart. */
typedef struct ws_chart_hline {
	double y;
	const char *label;
} ws_chart_hline;

typedef struct ws_chart {
	const char *title;
	const char *subtitle; /* one line under the title; NULL: none */
	const char *desc;     /* <desc>; NULL: one written from the data */
	double width, height; /* 0: 800 x 500 */
	ws_chart_axis x, y;
	const ws_chart_series *series;
	size_t nseries; /* 1..WS_CHART_MAX_SERIES */
	const ws_chart_hline *hlines;
	size_t nhlines; /* 0..4 */
} ws_chart;

int ws_chart_line(FILE *out, const ws_chart *c, struct ws_err *err);

/* Groups of bars: one group per category (a stream), one bar per series (a file). */
typedef struct ws_chart_bars {
	const char *title, *subtitle, *desc;
	double width, height;
	const char *x_label, *y_label;
	const char *const *categories;
	size_t ncat;               /* 1..256 */
	const char *const *series; /* legend labels */
	size_t nseries;            /* 1..WS_CHART_MAX_SERIES */
	const double *values;      /* [series * ncat + cat]; NaN: no bar (failed), marked x */
	const ws_chart_hline *hlines;
	size_t nhlines;
} ws_chart_bars;

int ws_chart_bar(FILE *out, const ws_chart_bars *b, struct ws_err *err);

/* A matrix of cells: rows x cols values, a greyscale-safe colour ramp, the value printed
 * in each cell, failed cells hatched with an x and their error as the cell's tooltip. */
typedef struct ws_chart_heat {
	const char *title, *subtitle, *desc;
	double width, height;
	const char *row_label, *col_label, *units;
	const char *const *rows, *const *cols;
	const char *const *col_names; /* a column's name in tooltips; NULL: cols */
	size_t nrows, ncols;          /* 1..256 each */
	const double *values;         /* [row * ncols + col]; NaN: no cell (blank) */
	const char *const *errors;    /* same layout, or NULL; non-NULL entry: a failed cell */
} ws_chart_heat;

int ws_chart_heatmap(FILE *out, const ws_chart_heat *h, struct ws_err *err);

/* ---- shared by the chart kinds (chart.c) ---------------------------------------------- */

/* Series style i (any i >= 0, repeating): colour, dash pattern (NULL: solid), marker. */
typedef struct ws_chart_style {
	const char *color;
	const char *dash;
	enum ws_svg_marker marker;
	const char *hatch; /* the bar pattern's id ("h0" ...) */
} ws_chart_style;
const ws_chart_style *ws_chart_style_of(int i);

/* A legend entry: a line sample (with marker), a bar swatch, or a reference line. */
enum ws_legend_kind { WS_LEGEND_LINE, WS_LEGEND_BAR, WS_LEGEND_REF };
typedef struct ws_legend_item {
	enum ws_legend_kind kind;
	int style;
	const char *label;
} ws_legend_item;

/* Title, subtitle and legend at the top of a w-wide chart; returns the y below them. */
double ws_chart_head(ws_svg *s, double w, const char *title, const char *subtitle,
		     const ws_legend_item *items, size_t n);

/* The widest of n tick labels, in px at the charts' tick size. */
double ws_chart_label_width(const ws_tick *t, int n);

/* A y axis for sy over a plot spanning x = l..r: grid lines, ticks, labels and the
 * rotated axis label left of the widest tick label. */
void ws_chart_draw_yaxis(ws_svg *s, const ws_scale *sy, const ws_tick *t, int n, double l, double r,
			 const char *label);

#define WS_CHART_TICK_PX 12
#define WS_CHART_TEXT_PX 13

#endif
