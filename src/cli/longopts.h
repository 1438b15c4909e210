/* SPDX-License-Identifier: BSD-2-Clause */
/* longopts: warpspeed's own --name options (I/O paths, many streams, the open-loop rate,
 * the key file); which tests each applies to is cli/applies.h's table. netperf has no long
 * options, so these never clash with a netperf script; they are accepted before or after
 * `--`. */
#ifndef WS_CLI_LONGOPTS_H
#define WS_CLI_LONGOPTS_H

#include "cli/options.h"

struct ws_err;

/* A handler of the option tables: 0, or a negative code with err filled. */
typedef int (*opt_fn)(ws_cli_options *o, const char *val, struct ws_err *err);

/* --name, --name VALUE or --name=VALUE at argv[*i]; *i is advanced past what was used. */
int ws_cli_parse_long(ws_cli_options *o, int argc, char **argv, int *i, struct ws_err *err);

/* The --name words and their values' forms, for completion (cli/words.h). */
void ws_cli_long_words(ws_cli_word_fn fn, void *ctx);

/* True when --name was given (whatever its value, even if it failed). */
bool ws_cli_long_given(const ws_cli_options *o, const char *name);

/* -h/--help and -V/--version, shared by both tables. */
int ws_cli_opt_help(ws_cli_options *o, const char *val, struct ws_err *err);
int ws_cli_opt_version(ws_cli_options *o, const char *val, struct ws_err *err);

#endif
