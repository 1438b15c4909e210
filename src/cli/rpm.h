/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: `warpspeed -t RPM`, the responsiveness test (session/rpm.h), from its checks to its
 * reports.
 *
 * -t RPM is not one session, so it leaves the client's one-test path right after the
 * command line is parsed: its own checks (exit 2, before any connection), its own run, its
 * own outputs (report/rpm.h). */
#ifndef WS_CLI_RPM_H
#define WS_CLI_RPM_H

#include "cli/options.h"

/* Run -t RPM as o asks; the process exit status (0, 1 failure, 2 bad usage). */
int ws_cli_rpm_main(const ws_cli_options *o, int argc, char **argv);

#endif
