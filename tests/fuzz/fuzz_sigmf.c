/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_sigmf: libFuzzer target for SigMF metadata parsing (src/iq/host/iqfile.c).
 *
 * `iq write` reads a .sigmf-meta file a user was given, so its JSON is untrusted: the input
 * is the metadata text, copied into an exactly-sized heap block (no NUL after it, so ASan
 * sees any read past its end), through ws_iqfile_sigmf_datatype with a small and a large
 * output buffer. The result is one of the documented codes; a found value must be
 * NUL-terminated within the buffer, contain no quote or backslash, and be found again,
 * identically, in the same text with a NUL after it. Strictness (issue 27): a text that
 * is refused as not JSON must say why and at which byte; a text that is accepted must
 * parse with the strict reader, and become "not JSON" when cut before its closing brace
 * (truncated), when its "global" member is given again (a duplicate key), and when text
 * follows it (trailing garbage). */
#include "iq/host/iqfile.h"
#include "util/err.h"
#include "util/json_read.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int datatype(const char *text, size_t len, char *out, size_t cap, ws_err *why)
{
	char *t = malloc(len ? len : 1); /* exactly sized: no NUL after the text */
	if (!t)
		abort();
	memcpy(t, text, len);
	int r = ws_iqfile_sigmf_datatype(t, len, out, cap, why);
	free(t);
	return r;
}

static void must_refuse(const char *text, size_t len)
{
	char out[64];
	ws_err why;
	if (datatype(text, len, out, sizeof out, &why) != WS_IQFILE_SIGMF_NOT_JSON ||
	    !strstr(why.msg, " at byte "))
		abort();
}

/* An accepted text, made invalid three ways. */
static void mutate(const char *text, size_t len)
{
	size_t close = len;
	while (close > 0 && text[close - 1] != '}')
		close--;
	if (close == 0)
		abort(); /* an accepted document is an object */
	must_refuse(text, close - 1);
	char *t = malloc(len + 32);
	if (!t)
		abort();
	static const char again[] = ", \"global\": {}";
	memcpy(t, text, close - 1);
	memcpy(t + close - 1, again, sizeof again - 1);
	memcpy(t + close - 1 + sizeof again - 1, text + close - 1, len - (close - 1));
	must_refuse(t, len + sizeof again - 1);
	memcpy(t, text, len);
	memcpy(t + len, " x", 2);
	must_refuse(t, len + 2);
	free(t);
}

static void check(const char *text, size_t len, size_t cap)
{
	char out[64], again[64];
	ws_err why;
	memset(out, 0x55, sizeof out);
	int r = datatype(text, len, out, cap, &why);
	if (r < WS_IQFILE_SIGMF_NOT_OBJECT || r > 0)
		abort();
	if (r == WS_IQFILE_SIGMF_NOT_JSON) {
		if (!strstr(why.msg, " at byte ") && !strstr(why.msg, "limit") &&
		    !strstr(why.msg, "memory"))
			abort();
		return;
	}
	ws_jdoc d;
	if (ws_json_read_strict(text, len, NULL, &d, NULL) < 0)
		abort();
	ws_jdoc_free(&d);
	if (r != 0)
		return;
	size_t n = strnlen(out, cap);
	if (n >= cap || strpbrk(out, "\"\\"))
		abort();
	char *z = malloc(len + 1);
	if (!z)
		abort();
	memcpy(z, text, len);
	z[len] = 0;
	if (ws_iqfile_sigmf_datatype(z, len, again, cap, NULL) != 0 || strcmp(out, again) != 0)
		abort();
	free(z);
	mutate(text, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > WS_IQFILE_META_MAX)
		return 0;
	check((const char *)data, size, 8);
	check((const char *)data, size, 64);
	return 0;
}
