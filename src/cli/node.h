/* SPDX-License-Identifier: BSD-2-Clause */
/* node: the 'node' role of the warpspeed binary, a WARP v3 board running WARPLab 7.7.1.
 *
 * Parses the options into a ws_node_config, runs the engine of iq/node/node.h in a thread, and
 * owns everything the library must not do: printing, signals (SIGINT/SIGTERM stop,
 * SIGUSR1 prints the counters) and the exit status. */
#ifndef WS_CLI_NODE_H
#define WS_CLI_NODE_H

#include "cli/words.h"

/* Runs the role; argv[0] is "node". Returns the process exit status: 0 after a stop by
 * signal, 1 on a runtime failure (a socket that cannot be bound, a fatal socket error),
 * 2 on bad usage. */
int ws_cli_node_main(int argc, char **argv);

/* The node's option words, for completion (cli/words.h). */
void ws_cli_node_words(ws_cli_word_fn fn, void *ctx);

#endif
