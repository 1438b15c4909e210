/* SPDX-License-Identifier: BSD-2-Clause */
/* compare: `warpspeed compare OLD NEW...`, did a change make the network slower?
 *
 * Reads saved results (files or directories of them; several runs of one test are the
 * samples), refuses runs that measured something else, and prints each figure's medians,
 * the ratio new/old with a 95% interval and a verdict (report/compare.h, measure/ratio.h);
 * --fail-if-worse gates CI. Exit 0, 1 when --fail-if-worse trips, 2 for a usage error or
 * inputs that cannot be compared. */
#ifndef WS_CLI_COMPARE_H
#define WS_CLI_COMPARE_H

#include "cli/words.h"

int ws_cli_compare_main(int argc, char **argv);

/* The role's option words, for completion (cli/words.h). */
void ws_cli_compare_words(ws_cli_word_fn fn, void *ctx);

#endif
