/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_line: parse one command line written as a string, for the CLI parsers' unit tests
 * (test_options, test_harnessopts, test_meshopts). Split on spaces; argv[0] is "warpspeed"
 * (or the program name given to split_line). */
#ifndef WS_TEST_CLI_LINE_H
#define WS_TEST_CLI_LINE_H

#include "harness.h"

#include "cli/options.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

/* "prog line" split on spaces into argv (room for 64), NULL-terminated; returns argc. The
 * words live in a static buffer until the next call. */
static inline int split_line(const char *prog, const char *line, char **argv)
{
	static char buf[2048];
	char *save = NULL;
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s %s", prog, line);
	for (char *t = strtok_r(buf, " ", &save); t && argc < 63; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	return argc;
}

static inline int parse_line(const char *line, ws_cli_options *o, ws_err *err)
{
	char *argv[64];
	int argc = split_line("warpspeed", line, argv);
	ws_err_clear(err);
	return ws_cli_parse(argc, argv, o, err);
}

/* Parse a line that must succeed; report the message if it does not. */
static inline void ok(const char *name, const char *line, ws_cli_options *o)
{
	ws_err err;
	int rc = parse_line(line, o, &err);
	WS_T_REPORT(rc == 0, name, "'%s' failed (%d): %s", line, rc, err.msg);
}

#endif
