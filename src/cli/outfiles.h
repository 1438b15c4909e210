/* SPDX-License-Identifier: BSD-2-Clause */
/* outfiles: the client's output files (--svg, --json-file, --openmetrics, --flent) checked
 * before any connection, in one place. Each is written only at the end of a run, so a name
 * util/safefile.h could not write, or an option the run cannot honour, would otherwise cost
 * the whole run; one table names each option, where its path is and its own rule. */
#ifndef WS_CLI_OUTFILES_H
#define WS_CLI_OUTFILES_H

#include "cli/options.h"

struct ws_err;

/* Every output file option given: its path can be written now (util/safefile.h's
 * ws_safefile_check; nothing stays), then the option's own rule. 0, or a negative code
 * with err naming the option, the path and what is accepted ("--svg x: 'x' is a
 * directory: ..."). */
int ws_cli_out_files_check(const ws_cli_options *o, struct ws_err *err);

#endif
