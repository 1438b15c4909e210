/* SPDX-License-Identifier: BSD-2-Clause */
/* report/interim: the three forms of netperf's interim lines; see interim.h. */
#include "report/interim.h"

#include "report/classic.h"
#include "util/clock.h"

#include <inttypes.h>

double ws_report_interim_value(const ws_interim_sample *s, char fmt, const char **units)
{
	if (s->kind == WS_INTERIM_TRANSACTIONS) {
		*units = "Trans";
		return s->rate;
	}
	if (!ws_classic_units_label(fmt))
		fmt = 'm';
	*units = ws_classic_units_label(fmt);
	return ws_classic_throughput(s->units, s->interval_ns, fmt);
}

void ws_report_interim(const ws_interim_sample *s, ws_out_mode mode, char fmt, FILE *out)
{
	const char *units;
	double v = ws_report_interim_value(s, fmt, &units);
	/* netperf prints gettimeofday's seconds and tv_usec / 1000, truncated. */
	int64_t wall = s->ending_wall_ns < 0 ? 0 : s->ending_wall_ns;
	long sec = (long)(wall / WS_NS_PER_SEC);
	long ms = (long)(wall % WS_NS_PER_SEC / WS_NS_PER_MS);
	unsigned n = s->index;
	if (s->flow >= 0) {
		if (mode == WS_OUT_MODE_NONE || mode == WS_OUT_MODE_HUMAN)
			fprintf(out,
				"Interim result, stream %" PRId32
				": %7.2f %s/s over %.3f seconds ending at %ld.%03ld\n",
				s->flow, v, units, s->interval_s, sec, ms);
		return;
	}
	switch (mode) {
	case WS_OUT_MODE_CSV:
		fprintf(out, "%7.2f,%s/s,%.3f,%ld.%03ld\n", v, units, s->interval_s, sec, ms);
		break;
	case WS_OUT_MODE_KEYVAL:
		fprintf(out,
			"NETPERF_INTERIM_RESULT[%u]=%.2f\nNETPERF_UNITS[%u]=%s/s\n"
			"NETPERF_INTERVAL[%u]=%.3f\nNETPERF_ENDING[%u]=%ld.%03ld\n",
			n, v, n, units, n, s->interval_s, n, sec, ms);
		break;
	default:
		fprintf(out, "Interim result: %7.2f %s/s over %.3f seconds ending at %ld.%03ld\n",
			v, units, s->interval_s, sec, ms);
		break;
	}
}
