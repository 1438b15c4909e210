/* SPDX-License-Identifier: BSD-2-Clause */
/* text: cleaning of strings from a peer; see text.h. */
#include "util/text.h"

unsigned ws_text_clean(char *s, bool field)
{
	unsigned n = 0;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c >= 0x7f || (field && (c == ',' || c == '"' || c == '\\'))) {
			*s = '?';
			n++;
		}
	}
	return n;
}
