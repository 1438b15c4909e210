/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: trimmed mean and the stability rule of the responsiveness test; see rpm.h. */
#include "measure/rpm.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double ws_rpm_trimmed_mean(double *v, size_t n, double keep_pct)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	size_t keep = (size_t)floor((double)n * keep_pct / 100.0);
	if (keep < 1)
		keep = 1;
	if (keep > n)
		keep = n;
	double sum = 0;
	for (size_t i = 0; i < keep; i++)
		sum += v[i];
	return sum / (double)keep;
}

double ws_rpm_moving_avg(const double *x, size_t end, unsigned mad)
{
	double sum = 0;
	for (size_t i = end + 1 - mad; i <= end; i++)
		sum += x[i];
	return sum / mad;
}

bool ws_rpm_stable(const double *x, size_t n, unsigned mad, double sdt, double *ma_out)
{
	if (ma_out)
		*ma_out = mad > 0 && n >= mad ? ws_rpm_moving_avg(x, n - 1, mad) : 0;
	if (mad == 0 || n < 2 * (size_t)mad - 1)
		return false;
	double ma[64];
	unsigned m = mad < 64 ? mad : 64;
	double mean = 0;
	for (unsigned k = 0; k < m; k++) {
		ma[k] = ws_rpm_moving_avg(x, n - 1 - k, mad);
		mean += ma[k];
	}
	mean /= m;
	double var = 0;
	for (unsigned k = 0; k < m; k++)
		var += (ma[k] - mean) * (ma[k] - mean);
	double sd = sqrt(var / m);
	return mean > 0 && sd <= sdt * mean;
}

double ws_rpm_of(double latency_s) { return latency_s > 0 ? 60.0 / latency_s : 0; }
