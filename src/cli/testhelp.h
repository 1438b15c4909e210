/* SPDX-License-Identifier: BSD-2-Clause */
/* testhelp: `-t T -- -h`, the test options of one test, as netperf 2.7.0 prints them for
 * `netperf -t T -- -h`: its option letters in its order for the test's family (the omni
 * family of the migrated tests and -t omni, or the BSD-sockets family of TCP_SENDFILE,
 * TCP_CC and TCP_MSS), in warpspeed's own words. One table holds both families. */
#ifndef WS_CLI_TESTHELP_H
#define WS_CLI_TESTHELP_H

#include "cli/options.h"

#include <stdio.h>

struct ws_err;

/* Test option -h: asks for this text (o->help and o->test_help); parsing stops there. */
int ws_cli_topt_help(ws_cli_options *o, const char *val, struct ws_err *err);

/* The test options of o's test (-t, or -t omni) on out. */
void ws_cli_print_test_usage(const ws_cli_options *o, FILE *out);

#endif
