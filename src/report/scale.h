/* SPDX-License-Identifier: BSD-2-Clause */
/* scale: axes for warpspeed's charts: value-to-pixel maps and tick marks whose labels
 * never overlap.
 *
 * Four kinds: linear; log10 (sizes and rates spanning decades); log2 (sizes that are
 * powers of two, ticks at 2^k, labelled 64, 1K, 64K, 1M or 2^15); and HdrHistogram's
 * "nines" axis for percentiles, x = -log10(1 - p), ticks at 0%, 90%, 99%, 99.9%, ...
 * Ticks are chosen from the finest "nice" step up, and a step is taken only when every
 * label, with its width estimated from the font size, keeps a gap to its neighbours (and
 * ticks stay a minimum distance apart), so no pair of labels can collide. Labels are
 * formatted by integer arithmetic, with '.' in every locale. Pure functions, no output. */
#ifndef WS_REPORT_SCALE_H
#define WS_REPORT_SCALE_H

#include <stdbool.h>
#include <stddef.h>

enum ws_scale_kind {
	WS_SCALE_LINEAR,
	WS_SCALE_LOG10,
	WS_SCALE_LOG2,
	WS_SCALE_NINES, /* values are fractions p in [0, 1) */
};

enum ws_tick_fmt {
	WS_TICK_NUMBER, /* 0.5, 20, 15k, 2M (SI suffixes k M G on an axis reaching 10^4) */
	WS_TICK_BINARY, /* log2: 64, 1K, 64K, 1M, 1G (powers of 1024) */
	WS_TICK_POW2,   /* log2: 2^15 (drawn with a superscript) */
	WS_TICK_NINES,  /* nines: 0%, 90%, 99%, 99.9%, ... */
};

typedef struct ws_scale {
	enum ws_scale_kind kind;
	double lo, hi; /* domain, in data units (log: > 0; nines: 0 <= lo < hi < 1) */
	double a, b;   /* pixels where lo and hi land (b < a for a y axis) */
	bool integer;  /* linear: whole numbers only (counts), no step below 1 */
} ws_scale;

#define WS_TICKS_MAX  24
#define WS_TICK_LABEL 24

typedef struct ws_tick {
	double v;   /* the value */
	double pos; /* its pixel */
	char label[WS_TICK_LABEL];
} ws_tick;

/* The axis transform: v, log10 v, log2 v, or -log10(1 - p) (p clamped below 1 - 1e-12). */
double ws_scale_tx(enum ws_scale_kind k, double v);
/* The pixel of v (the middle of the range when the domain is empty). */
double ws_scale_map(const ws_scale *s, double v);

/* A linear domain widened to multiples of the nice step (1, 2 or 5 x 10^k) that gives at
 * most `target` intervals; lo == hi is widened around the value. */
void ws_scale_nice(double *lo, double *hi, int target);

/* The pixel width of a label in a sans-serif font of size px (an upper estimate: digits
 * 0.62 em, '.' 0.32 em, '%' 0.9 em, other 0.68 em; after '^' at 0.75 size). */
double ws_tick_label_width(const char *label, double px);

/* The ticks of s: at most max (<= WS_TICKS_MAX), in increasing value order. horizontal:
 * labels sit side by side (width must fit) else one above the other (height must fit).
 * font_px is the label size. Returns the count (0 only for an unusable domain). */
int ws_scale_ticks(const ws_scale *s, enum ws_tick_fmt f, bool horizontal, double font_px,
		   ws_tick *out, int max);

/* v as a linear or log10 tick label, for ticks `step` apart, by one rule on every axis:
 * from 1000 on with a k/M/G suffix and the decimals the step needs, without trailing
 * zeros (1k, 1.5k, 10k, 2.5M); below 1000 a plain number with the decimals the step needs
 * (at most 9: 0.5, 250); into buf (>= WS_TICK_LABEL bytes). */
void ws_tick_format(double v, double step, char *buf, size_t n);

/* v as a figure in a subtitle or description, with the decimals step needs; a k/M/G
 * suffix only when |v| >= 10^4 and step is a multiple of the unit (1000 Mb/s, 25k). */
void ws_num_format(double v, double step, char *buf, size_t n);

#endif
