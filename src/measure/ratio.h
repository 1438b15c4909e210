/* SPDX-License-Identifier: BSD-2-Clause */
/* ratio: how much a figure changed between two sets of runs, with a 95% interval that
 * needs no assumption about the noise (`warpspeed compare`).
 *
 * Network benchmarks give a handful of samples per side (5 to 10 runs are minutes of
 * machine time), with skewed, heavy-tailed noise from scheduling and interrupts, so a
 * t-test's normality does not hold and a mean is pulled by one bad run. The estimate here
 * is Hodges-Lehmann's on log values: the median of the m x n pairwise log ratios
 * log(new_j / old_i), reported as a ratio NEW/OLD; its interval is the distribution-free
 * one of the Mann-Whitney U statistic: the k-th smallest and k-th largest pairwise log
 * ratio, k from U's exact null distribution (no ties, m and n <= 50) or from its normal
 * approximation with the ties correction otherwise. It is exact for any continuous noise,
 * robust to an outlier, deterministic (no resampling) and honest about small samples: with
 * C(m+n, m) <= 40 orderings (3 vs 3, 3 vs 4, 2 vs 7, 1 vs up to 39) no interval reaches 95%
 * and the verdict is "too few samples". Plain arithmetic, no printing. */
#ifndef WS_MEASURE_RATIO_H
#define WS_MEASURE_RATIO_H

#include <stdbool.h>
#include <stddef.h>

struct ws_err;

#define WS_RATIO_MAX_SAMPLES 1000 /* per side: 10^6 pairwise ratios at most */
#define WS_RATIO_EXACT_MAX   50   /* U's exact distribution up to 50 samples a side */
#define WS_RATIO_LEVEL       0.95

enum ws_ratio_method {
	WS_RATIO_NONE,   /* too few samples: no interval */
	WS_RATIO_EXACT,  /* U's exact null distribution */
	WS_RATIO_NORMAL, /* normal approximation, ties-corrected variance */
};

enum ws_ratio_verdict {
	WS_VERDICT_TOO_FEW, /* no 95% interval possible */
	WS_VERDICT_SAME,    /* the interval holds 1.0 */
	WS_VERDICT_FASTER,  /* significantly better: higher where higher is better, else lower */
	WS_VERDICT_SLOWER,  /* significantly worse */
};

typedef struct ws_ratio {
	size_t n_old, n_new;
	double old_median, new_median; /* of the values as given */
	double ratio;                  /* exp(Hodges-Lehmann estimate of the log shift) */
	double lo, hi;                 /* the interval of the ratio; NaN with WS_RATIO_NONE */
	enum ws_ratio_method method;
	size_t k;        /* the interval's order statistic (1-based); 0: none */
	double coverage; /* the interval's achieved level (exact: >= 0.95; normal:
	                                * 0.95 nominal); NaN with WS_RATIO_NONE */
} ws_ratio;

/* Compare m old and n new values (each 1..WS_RATIO_MAX_SAMPLES, every value finite and
 * > 0; -WS_E_INVAL naming the first that is not). Needs no sorted input; allocates and
 * frees its own scratch (-ENOMEM). */
int ws_ratio_compute(const double *old, size_t m, const double *nw, size_t n, ws_ratio *r,
		     struct ws_err *err);

/* The verdict of r for a figure where higher values are better (throughput) or worse
 * (latency, CPU, service demand). */
enum ws_ratio_verdict ws_ratio_verdict(const ws_ratio *r, bool higher_better);
/* "faster", "slower", "no change", "too few samples"; JSON: "faster", "slower",
 * "no_change", "too_few_samples". */
const char *ws_ratio_verdict_name(enum ws_ratio_verdict v);
const char *ws_ratio_verdict_id(enum ws_ratio_verdict v);

/* How much worse the estimate is, in %: (1 - ratio) x 100 where higher is better, (ratio -
 * 1) x 100 where lower is better; negative when it improved. */
double ws_ratio_worse_pct(const ws_ratio *r, bool higher_better);
/* --fail-if-worse pct: the verdict is "slower" (the interval excludes 1.0 on the worse
 * side) and the estimate is worse by more than pct percent. */
bool ws_ratio_fails(const ws_ratio *r, bool higher_better, double pct);

/* P(U <= u) under the null for m and n samples without ties (1..WS_RATIO_EXACT_MAX each);
 * NaN outside that range. */
double ws_ratio_u_cdf(size_t m, size_t n, long u);

/* The median of v[0..n) (n >= 1); sorts v. */
double ws_ratio_median(double *v, size_t n);

#endif
