/* SPDX-License-Identifier: BSD-2-Clause */
/* conf_warning: netperf's confidence warning block; see conf_warning.h. */
#include "report/conf_warning.h"

#include "measure/confidence.h"

#include <errno.h>

/* netperf prints interval minus the margin it kept, which is the width itself; a width
 * never computed is 0 there. */
static double shown(double width) { return width >= 0.0 ? width : 0.0; }

int ws_conf_warning_print(const ws_confidence *c, FILE *out)
{
	if (!c || !c->asked || c->met)
		return 0;
	int rc = fprintf(
		out,
		"!!! WARNING\n"
		"!!! Desired confidence was not achieved within the specified iterations.\n"
		"!!! This implies that there was variability in the test environment that\n"
		"!!! must be investigated before going further.\n"
		"!!! Confidence intervals: Throughput      : %.3f%%\n"
		"!!!                       Local CPU util  : %.3f%%\n"
		"!!!                       Remote CPU util : %.3f%%\n\n",
		shown(c->throughput_width), shown(c->local_cpu_width), shown(c->remote_cpu_width));
	if (rc < 0)
		return -(errno ? errno : EIO);
	return 8;
}
