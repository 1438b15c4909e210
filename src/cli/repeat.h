/* SPDX-License-Identifier: BSD-2-Clause */
/* repeat: `--repeat N`, the same test run N times, every result written, for
 * `warpspeed compare`: a regression check needs several samples of each side, and N runs
 * of one command line are exactly that. With --json the N documents follow one another
 * (what compare and `jq -s` read), with --json-lines each run's lines (N summaries),
 * otherwise one banner and N result rows. Kept out of the option parser's files. */
#ifndef WS_CLI_REPEAT_H
#define WS_CLI_REPEAT_H

#include "cli/options.h"
#include "cli/outprint.h"

struct ws_err;

#define WS_CLI_REPEAT_MAX 1000

/* --repeat's handler in the long options' table: N in 1..WS_CLI_REPEAT_MAX. */
int ws_cli_lopt_repeat(ws_cli_options *o, const char *val, struct ws_err *err);

/* Runs o's test o->repeat times and reports each; returns the exit status (2 for
 * --repeat with --sweep or --svg, before any test runs). */
int ws_cli_repeat_main(ws_cli_options *o, const ws_out_selection *sel, int argc, char **argv);

#endif
