/* SPDX-License-Identifier: BSD-2-Clause */
/* confidence: netperf's confidence-interval rules; see confidence.h.
 *
 * The t values are netperf 2.7's own table (netlib.c, two-sided 95% and 99%), kept as data
 * so that a width computed here is the width netperf would print for the same samples.
 * netperf's variance is sum((x-mean)^2)/n and it divides by n-1 once more, which is
 * s^2/n with s the sample standard deviation; the width below is that, computed in two
 * passes so that equal samples give exactly 0 rather than rounding noise. */
#include "measure/confidence.h"

#include "util/err.h"

#include <math.h>
#include <string.h>

/* clang-format off */
static const struct {
	int level;
	double t[WS_CONF_MAX_ITER]; /* index df, 1..29 */
} t_table[] = {
	{95, {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	      2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045}},
	{99, {0, 63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
	      3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
	      2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756}},
};
/* clang-format on */

#define HUGE_WIDTH 1e9

double ws_confidence_t(int level, int df)
{
	if (df < 1 || df >= WS_CONF_MAX_ITER)
		return 0.0;
	for (size_t i = 0; i < sizeof(t_table) / sizeof(t_table[0]); i++)
		if (t_table[i].level == level)
			return t_table[i].t[df];
	return 0.0;
}

static int clamp_iter(int v)
{
	return v < WS_CONF_MIN_ITER    ? WS_CONF_MIN_ITER
		: v > WS_CONF_MAX_ITER ? WS_CONF_MAX_ITER
				       : v;
}

int ws_confidence_setup(ws_confidence *c, const ws_confidence_args *a, ws_err *err)
{
	memset(c, 0, sizeof(*c));
	c->throughput_width = c->local_cpu_width = c->remote_cpu_width = -1.0;
	c->max_iterations = c->min_iterations = 1;
	c->throughput_only = a->throughput_only;
	if (!a->i_given && !a->I_given)
		return 0;
	int level = a->I_given && a->level ? a->level : WS_CONF_DEFAULT_LEVEL;
	if (ws_confidence_t(level, 1) == 0.0)
		return ws_err_set(err, WS_E_INVAL,
				  "confidence level %d is not supported; expected 95 or 99", level);
	double width = a->I_given && a->width != 0.0 ? a->width : WS_CONF_DEFAULT_WIDTH;
	if (!(width > 0.0 && width <= 100.0))
		return ws_err_set(
			err, WS_E_INVAL,
			"confidence width %g%% is out of range; expected more than 0 and at "
			"most 100 (%% of the mean, full width)",
			width);
	int max = a->i_given && a->max ? a->max : WS_CONF_DEFAULT_MAX;
	int min = a->i_given && a->min ? a->min : WS_CONF_MIN_ITER;
	if (max < min)
		max = min; /* netperf raises max to min */
	c->asked = true;
	c->level = level;
	c->width = width;
	c->max_iterations = clamp_iter(max);
	c->min_iterations = clamp_iter(min);
	return 0;
}

double ws_confidence_width(int level, const double *v, int n)
{
	double t = ws_confidence_t(level, n - 1);
	if (n < 2 || t == 0.0)
		return -1.0;
	double mean = 0.0, ss = 0.0;
	for (int i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	if (ss == 0.0)
		return 0.0;
	double half = t * sqrt(ss / (n - 1)) / sqrt((double)n);
	if (!(fabs(mean) > 0.0))
		return HUGE_WIDTH;
	double w = 200.0 * half / fabs(mean);
	return w < HUGE_WIDTH ? w : HUGE_WIDTH;
}

void ws_confidence_update(ws_confidence *c, const ws_confidence_sample *s, int n)
{
	if (n > WS_CONF_MAX_ITER)
		n = WS_CONF_MAX_ITER;
	if (n < 0)
		n = 0;
	double tput[WS_CONF_MAX_ITER] = {0}, lcpu[WS_CONF_MAX_ITER] = {0},
	       rcpu[WS_CONF_MAX_ITER] = {0};
	bool have_l = n > 0, have_r = n > 0;
	for (int i = 0; i < n; i++) {
		tput[i] = s[i].throughput;
		lcpu[i] = s[i].local_cpu;
		rcpu[i] = s[i].remote_cpu;
		have_l = have_l && s[i].local_cpu >= 0.0;
		have_r = have_r && s[i].remote_cpu >= 0.0;
	}
	c->iterations = n;
	c->throughput_width = ws_confidence_width(c->level, tput, n);
	c->local_cpu_width = have_l ? ws_confidence_width(c->level, lcpu, n) : -1.0;
	c->remote_cpu_width = have_r ? ws_confidence_width(c->level, rcpu, n) : -1.0;
	bool met = c->throughput_width >= 0.0 && c->throughput_width <= c->width;
	if (!c->throughput_only) {
		if (have_l)
			met = met && c->local_cpu_width >= 0.0 && c->local_cpu_width <= c->width;
		if (have_r)
			met = met && c->remote_cpu_width >= 0.0 && c->remote_cpu_width <= c->width;
	}
	c->met = met;
}

bool ws_confidence_done(const ws_confidence *c)
{
	if (!c->asked)
		return c->iterations >= 1;
	if (c->iterations >= c->max_iterations)
		return true;
	return c->iterations >= c->min_iterations && c->met;
}
