/* SPDX-License-Identifier: BSD-2-Clause */
/* series_chart: the stacked "all" chart of a run's series; see series_chart.h. */
#include "report/series_chart.h"

#include "report/chart.h"
#include "report/scale.h"
#include "report/series_grid.h"
#include "report/svg.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define W         800.0
#define PANEL_H   170.0
#define PANEL_GAP 18.0
#define SUM_STYLE 6 /* black in chart.c's table */
#define TICK_PX   WS_CHART_TICK_PX
#define TEXT_PX   WS_CHART_TEXT_PX

/* The panels, top to bottom: which series each draws and what its sum is called. */
static const struct panel_def {
	ws_series_kind kind;
	const char *cls;   /* the group's class */
	const char *label; /* the y axis */
	const char *sum;   /* the sum line's name; NULL: none */
} panel_defs[] = {
	{WS_SERIES_UP, "panel-upload", "Upload (Mbit/s)", "TCP upload sum"},
	{WS_SERIES_DOWN, "panel-download", "Download (Mbit/s)", "TCP download sum"},
	{WS_SERIES_PROBE, "panel-latency", "Latency (ms)", NULL},
};
#define NPANELS (sizeof panel_defs / sizeof panel_defs[0])

static const ws_svg_style axis_st = {.stroke = "#000000", .width = 1};
static const ws_svg_style grid_st = {.stroke = "#d9d9d9", .width = 1};
static const ws_svg_style lost_st = {.stroke = "#000000", .fill = "#000000", .width = 1};

/* One drawn line: a series of the set, or a sum on the grid. */
typedef struct line {
	const char *label;
	const double *t, *v;
	size_t n;
	int style;
	bool sum;
	const ws_series *src; /* NULL for a sum */
} line;

typedef struct panel {
	const struct panel_def *def;
	line lines[WS_SERIES_CHART_MAX + 2];
	size_t nlines;
	double ymax;
	ws_scale sy;
	ws_tick yt[WS_TICKS_MAX];
	int ny;
} panel;

/* The height ws_chart_head takes for these legend entries in a W-wide chart (its rule:
 * rows of entries, a row ends where the next one would not fit). */
static double head_height(const ws_legend_item *items, size_t n, bool subtitle)
{
	double y = 28 + (subtitle ? 18 : 0);
	if (!n)
		return y + 8;
	size_t rows = 0, i = 0;
	while (i < n) {
		double row = 0;
		size_t j = i;
		while (j < n) {
			double iw = 36 + ws_tick_label_width(items[j].label, TEXT_PX) + 18;
			if (j != i && row + iw > W - 40)
				break;
			row += iw;
			j++;
		}
		rows++;
		i = j;
	}
	return y + 22 + 18.0 * (double)rows - 4;
}

/* The polyline of a line, split where a value is missing, and about eight markers on it
 * so that it is told apart in grey too. */
static void draw_line(ws_svg *s, const line *ln, const ws_scale *sx, const ws_scale *sy, double *xy)
{
	const ws_chart_style *st = ws_chart_style_of(ln->style);
	ws_svg_group(s, ln->sum ? "series sum" : "series");
	ws_svg_tooltip(s, ln->label);
	ws_svg_style style = {.stroke = st->color, .width = ln->sum ? 2.5 : 1.5, .dash = st->dash};
	size_t m = 0;
	for (size_t k = 0; k <= ln->n; k++) {
		if (k < ln->n && isfinite(ln->v[k]) && isfinite(ln->t[k])) {
			xy[2 * m] = ws_scale_map(sx, ln->t[k]);
			xy[2 * m + 1] = ws_scale_map(sy, ln->v[k]);
			m++;
			continue;
		}
		if (m >= 2)
			ws_svg_polyline(s, xy, m, &style);
		m = 0;
	}
	size_t every = ln->n <= 8 ? 1 : (ln->n + 7) / 8;
	for (size_t k = 0; k < ln->n; k += every)
		if (isfinite(ln->v[k]))
			ws_svg_marker(s, st->marker, ws_scale_map(sx, ln->t[k]),
				      ws_scale_map(sy, ln->v[k]), 4,
				      &(ws_svg_style){.stroke = "#ffffff",
						      .fill = st->color,
						      .width = 0.8});
	ws_svg_group_end(s);
}

/* A cross on the panel's top edge at each lost probe, its tooltip saying which and when. */
static size_t draw_lost(ws_svg *s, const line *ln, const ws_scale *sx, double top)
{
	size_t lost = 0;
	if (!ln->src || ln->src->kind != WS_SERIES_PROBE)
		return 0; /* a flow or a sum without a value is a gap, not a loss */
	for (size_t k = 0; k < ln->n; k++) {
		if (isfinite(ln->v[k]) || !isfinite(ln->t[k]))
			continue;
		char tip[96], num[32];
		ws_svg_num(ln->t[k], num, sizeof num);
		snprintf(tip, sizeof tip, "%s: probe lost at %s s", ln->label, num);
		ws_svg_group(s, "lost");
		ws_svg_tooltip(s, tip);
		ws_svg_marker(s, WS_MARK_CROSS, ws_scale_map(sx, ln->t[k]), top + 6, 5, &lost_st);
		ws_svg_group_end(s);
		lost++;
	}
	return lost;
}

/* The panels of set (with their lines and y maxima) and the largest time. */
static size_t build_panels(const ws_series_set *set, const ws_series_grid *g, double *sums,
			   panel *p, double *tmax)
{
	size_t np = 0;
	*tmax = 0;
	for (size_t d = 0; d < NPANELS; d++) {
		panel *pn = &p[np];
		*pn = (panel){.def = &panel_defs[d]};
		bool use[WS_SERIES_CHART_MAX];
		for (size_t i = 0; i < set->n; i++) {
			const ws_series *se = &set->s[i];
			use[i] = se->kind == pn->def->kind &&
				!(pn->def->sum && !strcmp(se->name, pn->def->sum));
			if (se->kind != pn->def->kind)
				continue;
			bool is_sum = pn->def->sum && !strcmp(se->name, pn->def->sum);
			pn->lines[pn->nlines] = (line){
				se->name, se->t, se->v, se->n, is_sum ? SUM_STYLE : (int)pn->nlines,
				is_sum,   se};
			pn->nlines++;
			for (size_t k = 0; k < se->n; k++) {
				if (isfinite(se->v[k]) && se->v[k] > pn->ymax)
					pn->ymax = se->v[k];
				if (isfinite(se->t[k]) && se->t[k] > *tmax)
					*tmax = se->t[k];
			}
		}
		if (!pn->nlines)
			continue;
		/* A sum line when there is more than one flow and the run gave none. */
		if (pn->def->sum && pn->nlines > 1 && ws_series_find(set, pn->def->sum) < 0) {
			double *sv = sums + d * g->nx;
			ws_series_grid_combine(g, use, true, sv);
			pn->lines[pn->nlines++] =
				(line){pn->def->sum, g->x, sv, g->nx, SUM_STYLE, true, NULL};
			for (size_t k = 0; k < g->nx; k++)
				if (isfinite(sv[k]) && sv[k] > pn->ymax)
					pn->ymax = sv[k];
		}
		np++;
	}
	return np;
}

/* The <desc>: what is drawn, and each line's extent, in words. */
static void describe(const panel *p, size_t np, size_t lost, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n,
				      "Goodput (Mbit/s) and probe latency (ms) against time since "
				      "the start (s), one panel each: ");
	for (size_t i = 0; i < np && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", p[i].def->label);
	for (size_t i = 0; i < np && len < n; i++)
		for (size_t l = 0; l < p[i].nlines && len < n; l++) {
			const line *ln = &p[i].lines[l];
			double lo = INFINITY, hi = -INFINITY;
			for (size_t k = 0; k < ln->n; k++)
				if (isfinite(ln->v[k])) {
					lo = fmin(lo, ln->v[k]);
					hi = fmax(hi, ln->v[k]);
				}
			char a[32], b[32];
			ws_svg_num(lo, a, sizeof a);
			ws_svg_num(hi, b, sizeof b);
			len += (size_t)snprintf(buf + len, n - len, ". %s: %zu points", ln->label,
						ln->n);
			if (lo <= hi && len < n)
				len += (size_t)snprintf(buf + len, n - len, ", from %s to %s", a,
							b);
		}
	if (len < n)
		snprintf(buf + len, n - len, ". Lost probes, each marked with a cross: %zu.", lost);
}

int ws_series_chart_all(FILE *out, const ws_series_set *set, const char *title, ws_err *err)
{
	if (!set->n || set->n > WS_SERIES_CHART_MAX)
		return ws_err_set(err, WS_E_INVAL, "the all chart takes 1 to %d series; got %zu",
				  WS_SERIES_CHART_MAX, set->n);
	ws_series_grid g;
	int rc = ws_series_grid_build(&g, set, err);
	if (rc < 0)
		return rc;
	size_t most = g.nx;
	for (size_t i = 0; i < set->n; i++)
		most = set->s[i].n > most ? set->s[i].n : most;
	double *sums = malloc(NPANELS * g.nx * sizeof *sums);
	double *xy = malloc((most + 1) * 2 * sizeof *xy);
	panel *p = malloc(NPANELS * sizeof *p);
	char *desc = malloc(8192);
	if (!sums || !xy || !p || !desc) {
		rc = ws_err_set(err, ENOMEM, "no memory for a chart of %zu points", most);
		goto out;
	}
	double tmax;
	size_t np = build_panels(set, &g, sums, p, &tmax);

	ws_legend_item items[NPANELS * (WS_SERIES_CHART_MAX + 2)];
	size_t ni = 0, lost = 0, flows = 0, probes = 0;
	for (size_t i = 0; i < np; i++)
		for (size_t l = 0; l < p[i].nlines; l++) {
			/* the same flow up and down has one entry each, the same look */
			items[ni++] = (ws_legend_item){WS_LEGEND_LINE, p[i].lines[l].style,
						       p[i].lines[l].label};
			if (p[i].lines[l].src) {
				lost += p[i].lines[l].src->kind == WS_SERIES_PROBE
					? (size_t)p[i].lines[l].src->lost
					: 0;
				flows += p[i].def->kind != WS_SERIES_PROBE;
				probes += p[i].def->kind == WS_SERIES_PROBE;
			}
		}
	size_t lost_marks = 0;
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->s[i].n; k++)
			lost_marks +=
				set->s[i].kind == WS_SERIES_PROBE && !isfinite(set->s[i].v[k]);
	char subtitle[160];
	snprintf(subtitle, sizeof subtitle, "%zu flows, %zu probe series, lost probes: %zu", flows,
		 probes, lost);
	double top = head_height(items, ni, true) + 10;
	double h = top + (double)np * PANEL_H + (double)(np - 1) * PANEL_GAP + 56;

	/* One time axis for every panel; each panel's y from 0 to its largest value. */
	double xlo = 0, xhi = tmax > 0 ? tmax : set->step_s;
	ws_scale_nice(&xlo, &xhi, 8);
	double lw = 0, y0 = top;
	for (size_t i = 0; i < np; i++) {
		double lo = 0, hi = p[i].ymax > 0 ? p[i].ymax : 1;
		ws_scale_nice(&lo, &hi, 4);
		p[i].sy = (ws_scale){WS_SCALE_LINEAR, lo, hi, y0 + PANEL_H, y0, false};
		p[i].ny = ws_scale_ticks(&p[i].sy, WS_TICK_NUMBER, false, TICK_PX, p[i].yt,
					 WS_TICKS_MAX);
		lw = fmax(lw, ws_chart_label_width(p[i].yt, p[i].ny));
		y0 += PANEL_H + PANEL_GAP;
	}
	double left = 24 + lw + 16, right = W - 28;
	ws_scale sx = {WS_SCALE_LINEAR, xlo, xhi, left, right, false};
	ws_tick xt[WS_TICKS_MAX];
	int nx = ws_scale_ticks(&sx, WS_TICK_NUMBER, true, TICK_PX, xt, WS_TICKS_MAX);

	describe(p, np, lost_marks, desc, 8192);
	ws_svg s;
	ws_svg_begin(&s, out, W, h, title ? title : "Latency under load", desc);
	ws_chart_head(&s, W, title ? title : "Latency under load", subtitle, items, ni);
	for (size_t i = 0; i < np; i++) {
		const panel *pn = &p[i];
		double ptop = pn->sy.b, pbot = pn->sy.a;
		ws_svg_group(&s, pn->def->cls);
		ws_svg_tooltip(&s, pn->def->label);
		ws_chart_draw_yaxis(&s, &pn->sy, pn->yt, pn->ny, left, right, pn->def->label);
		ws_svg_group(&s, "x-axis");
		for (int k = 0; k < nx; k++) {
			ws_svg_line(&s, xt[k].pos, ptop, xt[k].pos, pbot, &grid_st);
			ws_svg_line(&s, xt[k].pos, pbot, xt[k].pos, pbot + 5, &axis_st);
			if (i == np - 1)
				ws_svg_text(&s, xt[k].pos, pbot + 20, WS_SVG_MIDDLE, TICK_PX, false,
					    0, xt[k].label);
		}
		ws_svg_line(&s, left, pbot, right, pbot, &axis_st);
		if (i == np - 1)
			ws_svg_text(&s, (left + right) / 2, h - 14, WS_SVG_MIDDLE, TEXT_PX, false,
				    0, "Time since the start (s)");
		ws_svg_group_end(&s);
		for (size_t l = 0; l < pn->nlines; l++)
			draw_line(&s, &pn->lines[l], &sx, &pn->sy, xy);
		size_t pl = 0;
		for (size_t l = 0; l < pn->nlines; l++)
			pl += draw_lost(&s, &pn->lines[l], &sx, ptop);
		if (pl) {
			char note[48];
			snprintf(note, sizeof note, "x lost probe (%zu)", pl);
			ws_svg_text(&s, right - 4, ptop + 18, WS_SVG_END, TICK_PX, false, 0, note);
		}
		ws_svg_group_end(&s);
	}
	rc = ws_svg_end(&s);
	if (rc < 0)
		rc = ws_err_set(err, -rc, "writing the all chart failed");
out:
	free(desc);
	free(p);
	free(xy);
	free(sums);
	ws_series_grid_free(&g);
	return rc;
}
