/* SPDX-License-Identifier: BSD-2-Clause */
/* ratio: Hodges-Lehmann ratio and Mann-Whitney interval; see ratio.h. */
#include "measure/ratio.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define Z975 1.959963984540054 /* the standard normal's 97.5% quantile */
/* 2.5% in each tail, written as such: (1 - 0.95) / 2 is 0.025000000000000022 in doubles,
 * which would take P(U = 0) = 1/40 (1 vs 39 runs) as below it. */
#define HALF_ALPHA 0.025

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double ws_ratio_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The number of orderings of m old and n new values with each U = 0..mn, into c[0..mn]:
 * the largest of i old and j new values is either old (U unchanged) or new (it beats all
 * i old ones), so cnt(i, j, u) = cnt(i - 1, j, u) + cnt(i, j - 1, u - i). One array per i,
 * updated in place for each j (descending u reads only cells not yet written). */
static int u_counts(size_t m, size_t n, double *c)
{
	double **a = calloc(m + 1, sizeof *a);
	int rc = a ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i <= m; i++)
		if (!(a[i] = calloc(i * n + 1, sizeof **a)))
			rc = -ENOMEM;
	if (rc == 0) {
		for (size_t i = 0; i <= m; i++)
			a[i][0] = 1; /* j = 0: one ordering, U = 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t i = 1; i <= m; i++)
				for (size_t u = i * j + 1; u-- > 0;)
					a[i][u] = (u <= (i - 1) * j ? a[i - 1][u] : 0) +
						(u >= i ? a[i][u - i] : 0);
		memcpy(c, a[m], (m * n + 1) * sizeof *c);
	}
	for (size_t i = 0; a && i <= m; i++)
		free(a[i]);
	free(a);
	return rc;
}

double ws_ratio_u_cdf(size_t m, size_t n, long u)
{
	if (m < 1 || n < 1 || m > WS_RATIO_EXACT_MAX || n > WS_RATIO_EXACT_MAX)
		return NAN;
	if (u < 0)
		return 0;
	if ((size_t)u >= m * n)
		return 1;
	double *c = malloc((m * n + 1) * sizeof *c);
	if (!c || u_counts(m, n, c) < 0) {
		free(c);
		return NAN;
	}
	double below = 0, all = 0;
	for (size_t i = 0; i <= m * n; i++) {
		all += c[i];
		if ((long)i <= u)
			below += c[i];
	}
	free(c);
	return below / all;
}

/* C(m + n, m) in double (exact for the sizes where it matters: it is compared with 40). */
static double orderings(size_t m, size_t n)
{
	double c = 1;
	for (size_t i = 1; i <= m && c < 1e300; i++)
		c = c * (double)(n + i) / (double)i;
	return c;
}

/* The exact k: the largest with P(U <= k - 1) < 2.5%, i.e. the smallest u with
 * P(U <= u) >= 2.5% (R's qwilcox(0.025, m, n)); 0 when that is u = 0. */
static int exact_k(size_t m, size_t n, size_t *k, double *coverage)
{
	size_t mn = m * n;
	double *c = malloc((mn + 1) * sizeof *c);
	if (!c || u_counts(m, n, c) < 0) {
		free(c);
		return -ENOMEM;
	}
	double all = 0, below = 0;
	for (size_t i = 0; i <= mn; i++)
		all += c[i];
	size_t u = 0;
	for (; u <= mn; u++) {
		if ((below + c[u]) / all >= HALF_ALPHA)
			break;
		below += c[u];
	}
	*k = u; /* below = P(U <= u - 1) x all */
	*coverage = 1 - 2 * below / all;
	free(c);
	return 0;
}

/* The normal approximation: k = floor(mn/2 - z * sd), sd from the variance of U with the
 * ties correction over the pooled values (sorted here, in v[0..m+n)). */
static size_t normal_k(size_t m, size_t n, double *v)
{
	size_t big_n = m + n;
	qsort(v, big_n, sizeof *v, cmp_double);
	double ties = 0;
	for (size_t i = 0; i < big_n;) {
		size_t j = i;
		while (j < big_n && v[j] == v[i])
			j++;
		double t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	double nn = (double)big_n,
	       var = (double)m * (double)n / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
	double k = floor((double)m * (double)n / 2 - Z975 * sqrt(var > 0 ? var : 0));
	return k < 1 ? 0 : (size_t)k;
}

int ws_ratio_compute(const double *old, size_t m, const double *nw, size_t n, ws_ratio *r,
		     ws_err *err)
{
	memset(r, 0, sizeof *r);
	r->lo = r->hi = r->coverage = NAN;
	if (m < 1 || n < 1 || m > WS_RATIO_MAX_SAMPLES || n > WS_RATIO_MAX_SAMPLES)
		return ws_err_set(err, WS_E_INVAL,
				  "%zu old and %zu new samples; expected 1 to %d a side", m, n,
				  WS_RATIO_MAX_SAMPLES);
	for (size_t i = 0; i < m + n; i++) {
		double x = i < m ? old[i] : nw[i - m];
		if (!isfinite(x) || x <= 0)
			return ws_err_set(err, WS_E_INVAL,
					  "%s sample %zu is %g; expected a positive number",
					  i < m ? "old" : "new", (i < m ? i : i - m) + 1, x);
	}
	size_t mn = m * n;
	double *d = malloc(mn * sizeof *d), *v = malloc((m + n) * sizeof *v);
	if (!d || !v) {
		free(d);
		free(v);
		return ws_err_set(err, ENOMEM, "no memory for %zu pairwise ratios", mn);
	}
	for (size_t i = 0; i < m; i++)
		v[i] = log(old[i]);
	for (size_t j = 0; j < n; j++)
		v[m + j] = log(nw[j]);
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			d[i * n + j] = v[m + j] - v[i];
	r->n_old = m;
	r->n_new = n;
	r->ratio = exp(ws_ratio_median(d, mn)); /* sorts d */

	bool ties = false;
	double *s = malloc((m + n) * sizeof *s);
	if (!s) {
		free(d);
		free(v);
		return ws_err_set(err, ENOMEM, "no memory for %zu samples", m + n);
	}
	memcpy(s, v, (m + n) * sizeof *s);
	qsort(s, m + n, sizeof *s, cmp_double);
	for (size_t i = 1; i < m + n; i++)
		ties |= s[i] == s[i - 1];
	int rc = 0;
	if (orderings(m, n) > 1 / HALF_ALPHA) { /* else P(U = 0) >= 2.5%: no interval */
		if (!ties && m <= WS_RATIO_EXACT_MAX && n <= WS_RATIO_EXACT_MAX) {
			rc = exact_k(m, n, &r->k, &r->coverage);
			r->method = WS_RATIO_EXACT;
		} else {
			r->k = normal_k(m, n, s);
			r->coverage = WS_RATIO_LEVEL;
			r->method = WS_RATIO_NORMAL;
		}
		if (rc == 0 && r->k >= 1 && r->k <= mn) {
			r->lo = exp(d[r->k - 1]);
			r->hi = exp(d[mn - r->k]);
		} else {
			r->k = 0;
			r->method = WS_RATIO_NONE;
			r->coverage = NAN;
		}
	}
	/* The medians of the values themselves, for the table. */
	memcpy(s, old, m * sizeof *s);
	r->old_median = ws_ratio_median(s, m);
	memcpy(s, nw, n * sizeof *s);
	r->new_median = ws_ratio_median(s, n);
	free(s);
	free(d);
	free(v);
	return rc < 0 ? ws_err_set(err, ENOMEM, "no memory for U's distribution") : 0;
}

enum ws_ratio_verdict ws_ratio_verdict(const ws_ratio *r, bool higher_better)
{
	if (r->method == WS_RATIO_NONE)
		return WS_VERDICT_TOO_FEW;
	if (r->lo > 1)
		return higher_better ? WS_VERDICT_FASTER : WS_VERDICT_SLOWER;
	if (r->hi < 1)
		return higher_better ? WS_VERDICT_SLOWER : WS_VERDICT_FASTER;
	return WS_VERDICT_SAME;
}

const char *ws_ratio_verdict_name(enum ws_ratio_verdict v)
{
	static const char *const names[] = {"too few samples", "no change", "faster", "slower"};
	return (unsigned)v < 4 ? names[v] : "?";
}

const char *ws_ratio_verdict_id(enum ws_ratio_verdict v)
{
	static const char *const ids[] = {"too_few_samples", "no_change", "faster", "slower"};
	return (unsigned)v < 4 ? ids[v] : "?";
}

double ws_ratio_worse_pct(const ws_ratio *r, bool higher_better)
{
	return (higher_better ? 1 - r->ratio : r->ratio - 1) * 100;
}

bool ws_ratio_fails(const ws_ratio *r, bool higher_better, double pct)
{
	return ws_ratio_verdict(r, higher_better) == WS_VERDICT_SLOWER &&
		ws_ratio_worse_pct(r, higher_better) > pct;
}
