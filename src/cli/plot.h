/* SPDX-License-Identifier: BSD-2-Clause */
/* plot: `warpspeed plot RESULT.json [MORE.json ...] -o FILE.svg`, charts from saved JSON. */
#ifndef WS_CLI_PLOT_H
#define WS_CLI_PLOT_H

#include "cli/words.h"

/* argv[0] is "plot". Returns the exit status: 0, 1 (a file could not be read or drawn),
 * 2 (usage). */
int ws_cli_plot_main(int argc, char **argv);

/* The role's option words, for completion (cli/words.h). */
void ws_cli_plot_words(ws_cli_word_fn fn, void *ctx);

#endif
