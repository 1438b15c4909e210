/* SPDX-License-Identifier: BSD-2-Clause */
/* sweeprun: running a --sweep (cli/sweep.h) and printing it. Every point's command line
 * is parsed before the first test runs, so a value the test refuses is a usage error
 * (exit 2) with nothing measured. Then the points run in order, each with -i/-I's
 * iterations; the classic table prints its banner and column headers once and one row per
 * point (netperf's -P 0 rows under one header), the selectors print their header once and
 * one line or block per point, and --json prints one sweep document at the end
 * (report/sweep_json.h). A point that fails is reported on stderr by its value and the
 * sweep goes on, as a shell loop over netperf would; the exit status is then non-zero. */
#ifndef WS_CLI_SWEEPRUN_H
#define WS_CLI_SWEEPRUN_H

#include "cli/options.h"
#include "report/outputs.h"

/* Run o's sweep (o->sweep set; o parsed and its selection prepared by the client) and
 * print it. Returns the exit status: 0 all points ran, 1 a point failed (2 when it was an
 * option the netserver refused), 2 a point's command line was refused. */
int ws_cli_sweep_main(ws_cli_options *o, const ws_out_selection *sel, int argc, char **argv);

/* The same, and the sweep document's text (report/sweep_json.h, whatever the output
 * form) in *doc for a caller that draws it (a chart of throughput against x); free it.
 * *doc is NULL when no point ran (a refused command line) or memory ran out. */
int ws_cli_sweep_run(ws_cli_options *o, const ws_out_selection *sel, int argc, char **argv,
		     char **doc);

#endif
