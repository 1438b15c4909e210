/* SPDX-License-Identifier: BSD-2-Clause */
/* streams: what a multi-stream run adds to netperf's table.
 *
 * netperf's classic table shows the aggregate; with -v 2 this adds one row per stream,
 * the min/median/max stream and Jain's fairness index, and each worker thread's CPU time
 * on both sides. Failed streams are named on stderr whatever the verbosity, so a table
 * with a missing flow never passes silently. */
#ifndef WS_REPORT_STREAMS_H
#define WS_REPORT_STREAMS_H

#include "model/result.h"

#include <stdio.h>

/* The per-stream block (-v 2) for a result with flows; prints nothing otherwise.
 * fmt is the -f unit letter of the table. For TCP_RR, UDP_RR and TCP_CRR only the thread
 * lines: their per-flow rows are classic_rr's (transactions, not bytes). */
void ws_streams_render(const ws_test_result *r, char fmt, FILE *out);

/* One line per failed stream ("PROG: stream 3 of 8 (remote) failed: ...", prog the name it was called by). */
void ws_streams_warn(const ws_test_result *r, const char *prog, FILE *out);

#endif
