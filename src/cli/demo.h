/* SPDX-License-Identifier: BSD-2-Clause */
/* demo: the client's -D glue. It turns the -D options into a measure/interim reporter
 * whose callback prints each sample as netperf does (report/interim.h) on stdout, and
 * (with or without -D) prints and flushes the banner when the data connections are up,
 * as netperf prints it at the test's start, so that a reader of a pipe sees the test
 * begin and the interim lines come under it; the reports after the test then skip the
 * banner (ws_cli_options.banner_done). With --json-lines each sample is an "interval"
 * line instead, and with --json the samples go into the document after the test. */
#ifndef WS_CLI_DEMO_H
#define WS_CLI_DEMO_H

#include "cli/options.h"
#include "cli/progress.h"
#include "measure/interim.h"
#include "session/client.h"

#include <stdio.h>

typedef struct ws_cli_demo {
	ws_interim *ip;    /* NULL: no -D */
	ws_cli_options *o; /* banner_done is set on it */
	int mode;          /* ws_out_mode the lines are printed in */
	char fmt;
	FILE *out;
	/* Every sample of the run, in the order reported (aggregate, then its streams), for a
	 * report written after the test (--json's interim array); NULL when memory ran out. */
	ws_interim_sample *kept;
	size_t nkept, cap;
	char units[24];   /* the samples' THROUGHPUT_UNITS text ("10^6bits/s") */
	double elapsed_s; /* end of the last aggregate sample since the run's start */
	/* Without -D, on a terminal: the progress line (cli/progress.h), fed by a reporter
	 * of its own every 250 ms. */
	ws_cli_progress prog;
	double prog_s;       /* this run's elapsed time, from its samples */
	uint64_t prog_units; /* bytes or transactions so far in this run */
	int prog_run;        /* 1, 2, ...: the run of -i */
} ws_cli_demo;

/* Hook the early banner into cfg and, with -D, create the reporter (a counter per stream;
 * per-stream lines at -v 2 with --streams in the classic form). Without -D, and with
 * o->progress (a terminal that may show it, cli/progress.h) on a timed run of 3 s or more
 * or a run to a byte or transaction count, the reporter feeds the progress line instead
 * (from the third second on for a count); else d->ip stays NULL. */
int ws_cli_demo_setup(ws_cli_options *o, ws_cli_demo *d, ws_client_config *cfg, struct ws_err *err);

/* The kept samples as --json's interim array (report/json_result.h), malloc'd, in *out;
 * returns their count (0 and *out NULL: none, or no memory). */
struct ws_json_interim;
size_t ws_cli_demo_json(const ws_cli_demo *d, struct ws_json_interim **out);

void ws_cli_demo_free(ws_cli_demo *d);

#endif
