/* SPDX-License-Identifier: BSD-2-Clause */
/* iqbench: `warpspeed iq bench` (wl_benchmark's table, JSON and chart); see iqbench.c. */
#ifndef WS_CLI_IQBENCH_H
#define WS_CLI_IQBENCH_H

#include "cli/iqopts.h"

/* Runs the benchmark the parsed options ask for (o is completed with the built-in node's
 * address when no NODE is given). Returns 0, 1 on a runtime failure, 2 on bad usage. */
int ws_cli_iq_bench(ws_cli_iq_opts *o);

#endif
