/* SPDX-License-Identifier: BSD-2-Clause */
/* classic_probe: netperf's layouts of the tests that measure no transfer.
 *
 * TCP_MSS prints its banner, a three-line title and the MSS of the data connection with a
 * trailing blank (the -B brand there under -P 0); -v 0 drops the title. LOC_CPU and
 * REM_CPU print the CPU method's rate alone, with no newline, whatever -P says, and at -v 2
 * a line with the CPU count. The layouts are netperf 2.7.0's (tests/goldens/netperf/). */
#ifndef WS_REPORT_CLASSIC_PROBE_H
#define WS_REPORT_CLASSIC_PROBE_H

#include "report/classic.h"

#include <stdio.h>

struct ws_err;

/* Render a TCP_MSS, LOC_CPU or REM_CPU result; -WS_E_INVAL for another test. */
int ws_classic_probe_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out,
			    struct ws_err *err);

#endif
