/* SPDX-License-Identifier: BSD-2-Clause */
/* series_grid: series on one time grid; see series_grid.h. */
#include "report/series_grid.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define MAX_DIST  5.0  /* steps over which samples may be interpolated */
#define EPS       1e-9 /* seconds: a sample this close to a grid point is on it */
#define MAX_STEPS 10000000u

/* The value of s at grid time x by the rule in series_grid.h; *j is a cursor kept between
 * calls with increasing x. */
static double on_grid(const ws_series *s, double x, double step, size_t *j)
{
	while (*j < s->n && s->t[*j] <= x + EPS)
		(*j)++;
	bool has_prev = *j > 0, has_next = *j < s->n;
	double tp = has_prev ? s->t[*j - 1] : 0, tn = has_next ? s->t[*j] : 0;
	if (has_prev && fabs(tp - x) <= EPS)
		return s->v[*j - 1];
	if (has_prev && has_next) {
		if (tn - tp > MAX_DIST * step + EPS)
			return NAN;
		double vp = s->v[*j - 1], vn = s->v[*j];
		return vp + (vn - vp) * (x - tp) / (tn - tp); /* NaN if either is */
	}
	if (has_next && tn - x <= step / 2)
		return s->v[*j];
	if (has_prev && x - tp <= step / 2)
		return s->v[*j - 1];
	return NAN;
}

int ws_series_grid_build(ws_series_grid *g, const ws_series_set *set, ws_err *err)
{
	*g = (ws_series_grid){0};
	if (!set->n)
		return ws_err_set(err, WS_E_INVAL, "no series to put on a time grid");
	if (!(set->step_s > 0) || !isfinite(set->step_s))
		return ws_err_set(err, WS_E_INVAL,
				  "a time grid needs a positive step (the -D interval); got %g s",
				  set->step_s);
	double last = 0;
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->s[i].n; k++)
			if (set->s[i].t[k] > last)
				last = set->s[i].t[k];
	double steps = floor(last / set->step_s + EPS);
	if (!(steps < MAX_STEPS))
		return ws_err_set(err, WS_E_INVAL,
				  "%.0f steps of %g s is more than a time grid holds (%u); use a "
				  "longer step",
				  steps, set->step_s, MAX_STEPS);
	size_t nx = (size_t)steps + 1;
	double *mem = malloc((set->n + 1) * nx * sizeof *mem);
	if (!mem)
		return ws_err_set(err, ENOMEM, "no memory for %zu series of %zu steps", set->n, nx);
	*g = (ws_series_grid){nx, set->n, set->step_s, mem, mem + nx};
	for (size_t k = 0; k < nx; k++)
		g->x[k] = nearbyint((double)k * set->step_s * 1e9) /
			1e9; /* 0.6, not 0.6000000000000001 */
	for (size_t i = 0; i < set->n; i++) {
		size_t cur = 0;
		for (size_t k = 0; k < nx; k++)
			g->v[i * nx + k] = on_grid(&set->s[i], g->x[k], g->step, &cur);
	}
	return 0;
}

void ws_series_grid_free(ws_series_grid *g)
{
	free(g->x);
	*g = (ws_series_grid){0};
}

void ws_series_grid_combine(const ws_series_grid *g, const bool *use, bool sum, double *out)
{
	for (size_t k = 0; k < g->nx; k++) {
		double acc = 0;
		size_t cnt = 0;
		for (size_t i = 0; i < g->nseries; i++) {
			double v = g->v[i * g->nx + k];
			if (use[i] && isfinite(v)) {
				acc += v;
				cnt++;
			}
		}
		out[k] = !cnt ? NAN : sum ? acc : acc / (double)cnt;
	}
}
