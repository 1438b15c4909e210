/* SPDX-License-Identifier: BSD-2-Clause */
/* report/interim: netperf's interim ("demo", -D) lines for one sample of measure/interim.
 *
 * netperf 2.7.0 prints, as each interval ends and on stdout, one of three forms depending
 * on its output mode (goldens: tests/goldens/netperf/<test>_demo[_form].txt):
 *   classic and -O:  "Interim result: %7.2f %s/s over %.3f seconds ending at %ld.%03ld"
 *   -o (CSV):        "%7.2f,%s/s,%.3f,%ld.%03ld"
 *   -k (keyval):     NETPERF_INTERIM_RESULT[n]=%.2f, NETPERF_UNITS[n]=%s/s,
 *                    NETPERF_INTERVAL[n]=%.3f, NETPERF_ENDING[n]=%ld.%03ld
 * The units are the -f unit of stream tests ("10^6bits") and "Trans" for RR tests. A
 * per-stream sample (flow >= 0, --streams at -v 2; warpspeed's own) is printed in classic
 * form only, as "Interim result, stream N: ..." (N from 0, as the -v 2 stream table), so
 * that a script matching "Interim result:" sees the aggregate lines alone. */
#ifndef WS_REPORT_INTERIM_H
#define WS_REPORT_INTERIM_H

#include "measure/interim.h"
#include "report/outputs.h"

#include <stdio.h>

/* The figure netperf prints for s and its units without "/s": fmt is -f's letter for
 * byte counts (0, or a letter that is not a stream unit such as RR's 'x', means 'm'). */
double ws_report_interim_value(const ws_interim_sample *s, char fmt, const char **units);

/* Print s in mode's form. Per-stream samples print only in the classic/-O form. */
void ws_report_interim(const ws_interim_sample *s, ws_out_mode mode, char fmt, FILE *out);

#endif
