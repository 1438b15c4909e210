/* SPDX-License-Identifier: BSD-2-Clause */
/* words: option tables shared by parsers and completion; see words.h. */
#include "cli/words.h"

#include <string.h>

const ws_cli_word *ws_cli_word_find(const ws_cli_word *table, const char *w)
{
	for (; table->word; table++)
		if (strcmp(table->word, w) == 0)
			return table;
	return NULL;
}

void ws_cli_words_each(const ws_cli_word *table, ws_cli_word_fn fn, void *ctx)
{
	for (; table->word; table++)
		fn(ctx, table->word, table->form);
}
