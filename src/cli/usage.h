/* SPDX-License-Identifier: BSD-2-Clause */
/* usage: the text of `warpspeed -h` (global and test options, warpspeed's extensions and
 * the exit status), apart from the parser in options.c. */
#ifndef WS_CLI_USAGE_H
#define WS_CLI_USAGE_H

/* The full usage text for -h, newline-terminated, static storage. */
const char *ws_cli_usage(void);

/* `netperf -h` (the netperf personality): netperf 2.7.0's options only, global then test
 * options, in netperf's order and letters, in warpspeed's words; no warpspeed roles or
 * long options. */
const char *ws_cli_netperf_usage(void);

#endif
