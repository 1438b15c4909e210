/* SPDX-License-Identifier: BSD-2-Clause */
/* confidence: netperf's confidence intervals over whole-test iterations (-i max[,min],
 * -I level[,width]); see docs/warpspeed.1 (-i, -I). The data model is here so that the
 * report (output selectors, JSON, the classic warning block) reads one struct; the rules
 * (clamping, implied defaults, Student's t, the stopping rule) are here too, as plain
 * arithmetic on the iterations' figures, so they can be tested without a network. The
 * loop that runs the iterations is session/iterate.h. */
#ifndef WS_MEASURE_CONFIDENCE_H
#define WS_MEASURE_CONFIDENCE_H

#include <stdbool.h>

struct ws_err;

#define WS_CONF_MIN_ITER      3 /* netperf clamps both -i values to 3..30 */
#define WS_CONF_MAX_ITER      30
#define WS_CONF_DEFAULT_LEVEL 99
#define WS_CONF_DEFAULT_WIDTH 5.0 /* % full width: +/-2.5% */
#define WS_CONF_DEFAULT_MAX   10  /* -I alone implies -i 10,3 */

typedef struct ws_confidence {
	bool asked;                         /* -i or -I given */
	int max_iterations, min_iterations; /* clamped to 3..30 as netperf */
	int level;                          /* 95 or 99 (%) */
	double width;            /* target full width in % of the mean (-I level,width) */
	int iterations;          /* run */
	bool met;                /* every judged width <= width */
	double throughput_width; /* achieved relative full width, % (-1 unknown) */
	double local_cpu_width, remote_cpu_width; /* % (-1 when CPU not measured) */
	bool throughput_only; /* global -r: only the throughput width is judged */
} ws_confidence;

/* What the command line gave, before netperf's rules apply (0 = that value not given). */
typedef struct ws_confidence_args {
	bool i_given, I_given;
	int max, min;         /* -i max[,min] */
	int level;            /* -I level[,width] */
	double width;         /* % */
	bool throughput_only; /* -r */
} ws_confidence_args;

/* netperf's rules: clamp both counts to 3..30 (max raised to min when below it), -i alone
 * implies -I 99,5, -I alone implies -i 10,3, levels 95 and 99 only, width in (0, 100].
 * Neither given: c->asked false and one iteration. Errors name the value and what is
 * accepted (-WS_E_INVAL). */
int ws_confidence_setup(ws_confidence *c, const ws_confidence_args *a, struct ws_err *err);

/* Student's t for a two-sided interval at level (95 or 99) with df degrees of freedom
 * (1..29, the most 30 iterations give); 0 for anything else. */
double ws_confidence_t(int level, int df);

/* The relative full width, in % of the mean, of n values at level:
 * 200 * t(level, n-1) * (s / sqrt(n)) / mean, s the sample standard deviation. -1 when
 * n < 2 or the level is unknown; 0 when every value is equal; a mean of 0 with spread
 * gives a huge width (1e9), never NaN. */
double ws_confidence_width(int level, const double *v, int n);

/* The figures of one iteration: throughput, and each side's CPU utilisation (negative when
 * that side's CPU was not measured: it is not judged and its width stays -1). */
typedef struct ws_confidence_sample {
	double throughput, local_cpu, remote_cpu;
} ws_confidence_sample;

/* Recompute c's widths, iterations and met from the first n samples (n <= 30). */
void ws_confidence_update(ws_confidence *c, const ws_confidence_sample *s, int n);

/* True when no more iterations are needed: n >= min and every judged width is within the
 * target (throughput alone with -r), or n >= max. Not asked: after one. */
bool ws_confidence_done(const ws_confidence *c);

#endif
