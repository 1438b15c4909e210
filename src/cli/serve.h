/* SPDX-License-Identifier: BSD-2-Clause */
/* serve: the 'serve' role of the warpspeed binary. */
#ifndef WS_CLI_SERVE_H
#define WS_CLI_SERVE_H

#include "cli/words.h"

/* Runs the role; argv[0] is the role name (or the program name for the client).
 * Returns the process exit status: 0 ok, 1 runtime failure, 2 bad usage. */
int ws_cli_serve_main(int argc, char **argv);

/* The daemon's option words, for completion (cli/words.h). */
void ws_cli_serve_words(ws_cli_word_fn fn, void *ctx);

/* The same, calling ready(ctx) once the control port listens and before the first log
 * line: netserver's personality daemonizes there, so that a port already in use is still
 * reported on the terminal. A negative return from ready ends the role with status 1. */
int ws_cli_serve_main_ready(int argc, char **argv, int (*ready)(void *ctx), void *ctx);

#endif
