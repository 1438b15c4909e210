/* confidence: netperf's confidence intervals over whole-test iterations (-i max[,min],
 * -I level[,width]); see reference/netperf-compat.md. The data model is here so that the
 * report (output selectors, JSON, the classic warning block) reads one struct. */
#ifndef WS_MEASURE_CONFIDENCE_H
#define WS_MEASURE_CONFIDENCE_H

#include <stdbool.h>

typedef struct ws_confidence {
	bool asked;              /* -i or -I given */
	int max_iterations, min_iterations; /* clamped to 3..30 as netperf */
	int level;               /* 95 or 99 (%) */
	double width;            /* target full width in % of the mean (-I level,width) */
	int iterations;          /* run */
	bool met;                /* every judged width <= width */
	double throughput_width; /* achieved relative full width, % (-1 unknown) */
	double local_cpu_width, remote_cpu_width; /* % (-1 when CPU not measured) */
} ws_confidence;

#endif
