/* SPDX-License-Identifier: BSD-2-Clause */
/* conf_warning: netperf's "!!! WARNING" block, printed after the banner when -i/-I did
 * not reach the confidence asked for.
 *
 * Scripts written for netperf grep this block ("Desired confidence was not achieved",
 * "Confidence intervals: Throughput") and read the achieved widths from it, so its text
 * is netperf 2.7.0's byte for byte (tests/goldens/netperf/ *_conf.txt). netperf prints it
 * whatever -P and -v say, so every classic layout calls this once, after its banner. */
#ifndef WS_REPORT_CONF_WARNING_H
#define WS_REPORT_CONF_WARNING_H

#include <stdio.h>

struct ws_confidence;

/* Print the block (with its blank line after) when c is not NULL, was asked for and was
 * not met; a width netperf did not measure (CPU not asked for) prints as 0.000%.
 * Returns the number of lines printed (0 or 8), or a negative errno when writing fails. */
int ws_conf_warning_print(const struct ws_confidence *c, FILE *out);

#endif
