/* SPDX-License-Identifier: BSD-2-Clause */
/* sweep: `--sweep NAME=V1,V2,...`, the same test once per value, as a netperf user's shell
 * loop would run it. This module is the parsing half: a table of sweep names (which option
 * each value is typed as, how the value is read, how its x is computed), the list parser,
 * the combinations it refuses, and each point's command line. A point is the original
 * command line without the --sweep, with the point's option appended exactly as a user
 * would type it (`-- -m 64`, `--streams=4`), so the normal parser validates it by the
 * normal rules and nothing about a swept test differs from a typed one. It never prints:
 * cli/sweeprun.h runs the points and prints them. */
#ifndef WS_CLI_SWEEP_H
#define WS_CLI_SWEEP_H

#include "cli/options.h"

#include <stddef.h>

struct ws_err;

#define WS_CLI_SWEEP_MAX_POINTS 64 /* values in one sweep */
#define WS_CLI_SWEEP_VALUE_MAX  32 /* bytes of one value, with its NUL */

struct ws_cli_sweep_def;

typedef struct ws_cli_sweep {
	const struct ws_cli_sweep_def *def;
	const char *name; /* "m", "streams", ... */
	size_t n;         /* values, 1..WS_CLI_SWEEP_MAX_POINTS */
	char value[WS_CLI_SWEEP_MAX_POINTS][WS_CLI_SWEEP_VALUE_MAX]; /* as typed ("1K:1K") */
	char typed[WS_CLI_SWEEP_MAX_POINTS]
		  [WS_CLI_SWEEP_VALUE_MAX]; /* the option's value ("1K,1K") */
	double x[WS_CLI_SWEEP_MAX_POINTS];  /* bytes, count or rate */
} ws_cli_sweep;

/* Parse "NAME=V1,V2,..." (the value of --sweep). In a list ',' separates the values, so a
 * two-part value (r's req,rsp, s/S's send,recv, threads' local,remote) is written with
 * ':' (r=1:1,64:64,1K:1K), and typed with netperf's ',' for the point. Returns 0, or a
 * negative code with err naming the value and what is accepted. */
int ws_cli_sweep_parse(const char *arg, ws_cli_sweep *sw, struct ws_err *err);

/* The checks of a command line with --sweep (o->sweep set) that no point's parse can make:
 * the swept option also given explicitly, and --json-lines (a sweep is one document).
 * Called by the option parser's final checks. */
int ws_cli_sweep_check(const ws_cli_options *o, struct ws_err *err);

/* Point i's command line: argv without the --sweep words (found by o_sweep, the pointer
 * the parser kept into argv), then the option typed with the point's value. *pargv is
 * malloc'd (the pointers point into argv and into *buf, which holds WS_CLI_SWEEP_BUF
 * bytes and must live as long); free *pargv. Returns 0 or -ENOMEM. */
#define WS_CLI_SWEEP_BUF 96
int ws_cli_sweep_point_argv(const ws_cli_sweep *sw, size_t i, int argc, char **argv,
			    const char *o_sweep, char buf[WS_CLI_SWEEP_BUF], int *pargc,
			    char ***pargv);

/* The names accepted, for messages and the usage text: "m, M, r, s, S, streams, threads, rate". */
const char *ws_cli_sweep_names(void);

#endif
