/* SPDX-License-Identifier: BSD-2-Clause */
/* argv_split: a fuzzer's input as a command line, for the option-parser fuzzers
 * (fuzz_cli_options, fuzz_mesh_options).
 *
 * The input is split at NUL bytes into at most ARGV_SPLIT_MAX arguments after argv[0];
 * each argument is its own exactly-sized heap block, so that ASan sees a read past its end. */
#ifndef WS_FUZZ_ARGV_SPLIT_H
#define WS_FUZZ_ARGV_SPLIT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARGV_SPLIT_MAX 64

/* argv (room for ARGV_SPLIT_MAX + 2) gets prog and the arguments, NULL-terminated; returns
 * argc. Free with argv_split_free. */
static inline int argv_split(const char *prog, const uint8_t *data, size_t size, char **argv)
{
	int argc = 0;
	argv[argc++] = strdup(prog);
	size_t start = 0;
	for (size_t i = 0; i <= size && argc < ARGV_SPLIT_MAX + 1; i++) {
		if (i < size && data[i] != 0)
			continue;
		size_t n = i - start;
		char *a = malloc(n + 1);
		if (!a)
			break;
		memcpy(a, data + start, n);
		a[n] = '\0';
		argv[argc++] = a;
		start = i + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static inline void argv_split_free(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
}

#endif
