/* SPDX-License-Identifier: BSD-2-Clause */
/* compare_out: `warpspeed compare`'s rows as a table, a JSON document and an SVG chart.
 *
 * A regression check is read by people in a terminal, by CI scripts that gate a pull
 * request, and in a review as a picture, so the one set of rows (report/compare.h) has
 * three renderings that cannot disagree: the table (medians, ratio, interval, verdict),
 * the JSON document of docs/schema/compare.schema.json, and a dot-and-whisker chart of
 * each figure's ratio and interval around a line at 1.0. Each writes to the caller's FILE
 * and returns 0 or a negative error with err set; nothing here prints on its own. */
#ifndef WS_REPORT_COMPARE_OUT_H
#define WS_REPORT_COMPARE_OUT_H

#include "report/compare.h"

#include <stdio.h>

struct ws_err;

/* What the rows were computed from, for the headers and the JSON document. */
typedef struct ws_cmp_meta {
	const char *const *old_files, *const *new_files;
	size_t n_old_files, n_new_files;
	size_t old_runs, new_runs;     /* documents read on each side */
	const ws_cmp_context *context; /* old's first document */
	double fail_pct;               /* --fail-if-worse; < 0: none */
	const char *const *notes;      /* context differences accepted with --force */
	size_t nnotes;
} ws_cmp_meta;

int ws_cmp_table(FILE *out, const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m,
		 struct ws_err *err);
int ws_cmp_json(FILE *out, const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m,
		struct ws_err *err);
/* One row per figure: the ratio as a dot, its interval as a whisker (none when too few
 * samples: a hollow dot) with a line at 1.0, on a linear ratio axis (a log one when the
 * ratios span more than 2x). */
int ws_cmp_svg(FILE *out, const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m,
	       struct ws_err *err);

#endif
