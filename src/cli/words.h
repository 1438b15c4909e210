/* SPDX-License-Identifier: BSD-2-Clause */
/* words: the option words of a role (the word, and the form of its value), as one table
 * that both the role's parser and shell completion (cli/complete.h) read, so that an
 * option cannot be accepted without being completed, or completed without being accepted.
 * The roles whose parsers are tables of their own (options.c, longopts.c, node.c,
 * iqopts.c, meshopts.c) hand their rows out through a ws_cli_word_fn. */
#ifndef WS_CLI_WORDS_H
#define WS_CLI_WORDS_H

/* One option: its word and its value's form: NULL for a switch; a form in brackets
 * ("[rate]") for an optional value; "FILE" (any form naming a file) for a path; "a|b|c"
 * for one of those words; else a free value ("N", "SECS"). */
typedef struct ws_cli_word {
	const char *word; /* "-p", "--port" */
	const char *form;
} ws_cli_word;

/* Receives one option row; word and form are valid during the call only. */
typedef void (*ws_cli_word_fn)(void *ctx, const char *word, const char *form);

/* The row of table (ended by a row with a NULL word) whose word is w; NULL when none. */
const ws_cli_word *ws_cli_word_find(const ws_cli_word *table, const char *w);

/* Every row of table to fn. */
void ws_cli_words_each(const ws_cli_word *table, ws_cli_word_fn fn, void *ctx);

#endif
