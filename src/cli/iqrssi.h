/* SPDX-License-Identifier: BSD-2-Clause */
/* iqrssi: `warpspeed iq rssi` (READ_RSSI values of one RF interface); see iqrssi.c. */
#ifndef WS_CLI_IQRSSI_H
#define WS_CLI_IQRSSI_H

#include "cli/iqopts.h"

/* Reads o->samples RSSI values of the one interface in o->rf from value 0 and prints one a
 * line (stdout, or o->out). Returns 0, 1 on a runtime failure, 2 on bad usage. */
int ws_cli_iq_rssi(const ws_cli_iq_opts *o);

#endif
