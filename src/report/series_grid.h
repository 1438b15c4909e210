/* SPDX-License-Identifier: BSD-2-Clause */
/* series_grid: a run's series put on one time grid, and the sums and means across them.
 *
 * Flows report at interval ends and probes whenever they return, so series do not share
 * their sample times; a sum per direction, a Flent file's aligned lists and a chart's sum
 * line all need every series at the same instants. One rule does it for all of them, as
 * Flent's aggregator does: the grid is every step from the common start to the last
 * sample; a sample on a grid point gives its value; between two samples at most 5 steps
 * apart the value is interpolated linearly (none when either is a lost probe); before the
 * first or after the last sample, a sample within half a step gives its value; otherwise
 * there is no value (NaN). Samples of a series must be in time order. */
#ifndef WS_REPORT_SERIES_GRID_H
#define WS_REPORT_SERIES_GRID_H

#include "model/series.h"

#include <stdbool.h>
#include <stddef.h>

struct ws_err;

typedef struct ws_series_grid {
	size_t nx;      /* grid points */
	size_t nseries; /* the set's series, in its order */
	double step;    /* seconds */
	double *x;      /* nx times, k * step */
	double *v;      /* v[i * nx + k]: series i at x[k]; NaN: no value */
} ws_series_grid;

/* The grid of set at its step_s. 0, or a negative code with err set (no series, a step
 * that is not positive, more than 10^7 points, no memory). */
int ws_series_grid_build(ws_series_grid *g, const ws_series_set *set, struct ws_err *err);
void ws_series_grid_free(ws_series_grid *g);

/* At each grid point, the sum (else the mean) of the values present in the series with
 * use[i] true; NaN where none has a value. out holds g->nx values. */
void ws_series_grid_combine(const ws_series_grid *g, const bool *use, bool sum, double *out);

#endif
