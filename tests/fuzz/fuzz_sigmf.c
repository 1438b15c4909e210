/* fuzz_sigmf: libFuzzer target for SigMF metadata parsing (src/iq/iqfile.c).
 *
 * `iq write` reads a .sigmf-meta file a user was given, so its JSON is untrusted: the input
 * is the metadata text, copied into an exactly-sized heap block (no NUL after it, so ASan
 * sees any read past its end), through ws_iqfile_sigmf_datatype with a small and a large
 * output buffer. A found value must be NUL-terminated within the buffer, contain no quote
 * or backslash, and be found again, identically, in the same text with a NUL after it. */
#include "iq/iqfile.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *text, size_t len, size_t cap)
{
	char out[64], again[64];
	memset(out, 0x55, sizeof out);
	int r = ws_iqfile_sigmf_datatype(text, len, out, cap);
	if (r != 0 && r != -1 && r != -2)
		abort();
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
	if (ws_iqfile_sigmf_datatype(z, len, again, cap) != 0 || strcmp(out, again) != 0)
		abort();
	free(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = malloc(size ? size : 1);
	if (!t)
		abort();
	memcpy(t, data, size);
	check(t, size, 8);
	check(t, size, 64);
	free(t);
	return 0;
}
