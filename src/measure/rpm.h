/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the arithmetic of the responsiveness test (-t RPM): the trimmed mean of probe
 * times and the stability rule that says when goodput has stopped growing and when
 * responsiveness has settled.
 *
 * draft-ietf-ippm-responsiveness summarises probes by a trimmed mean that drops the
 * slowest samples (it keeps the lowest 95%), and calls a series stable when the moving
 * averages over the last MAD intervals agree: their standard deviation is within SDT of
 * their mean. Both are pure functions of their inputs, kept apart from the session that
 * runs the flows, so that they are tested with hand-made series (docs/rpm.md gives the
 * exact rules and the parameters). */
#ifndef WS_MEASURE_RPM_H
#define WS_MEASURE_RPM_H

#include <stdbool.h>
#include <stddef.h>

/* The draft's parameters. */
#define WS_RPM_MAD      4    /* moving-average distance, in intervals */
#define WS_RPM_SDT      0.05 /* standard deviation tolerance, a fraction of the mean */
#define WS_RPM_TMP_KEEP 95.0 /* trimmed mean: the lowest 95% of the samples are kept */

/* The mean of the lowest keep_pct percent of v[0..n) (at least one sample): sorted
 * ascending, the first max(1, floor(n * keep_pct / 100)) are averaged. v is sorted in
 * place. 0 when n is 0. */
double ws_rpm_trimmed_mean(double *v, size_t n, double keep_pct);

/* The moving average of x[0..n) ending at x[end] over mad values (x[end - mad + 1 ..
 * end]); end >= mad - 1. */
double ws_rpm_moving_avg(const double *x, size_t end, unsigned mad);

/* The stability rule over per-interval values x[0..n): the last mad moving averages
 * (each over mad intervals, so 2 * mad - 1 intervals are needed) have a population
 * standard deviation at most sdt times their mean, and their mean is above 0. False
 * with fewer intervals. *ma_out (may be NULL) gets the latest moving average (0 when
 * there is none). */
bool ws_rpm_stable(const double *x, size_t n, unsigned mad, double sdt, double *ma_out);

/* Round trips per minute for a working latency in seconds (0 for a latency <= 0). */
double ws_rpm_of(double latency_s);

#endif
