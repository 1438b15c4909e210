/* fuzz_cli_options: the client's netperf-style option parser (src/cli/options.c) on an
 * argv built from the input split at NUL bytes, then the spec it produced through the
 * daemon's validator and the test-type table.
 *
 * The parser must never exit, crash, read past an argument or leak; whatever it accepts
 * must be a spec the validator can judge without undefined behaviour. Each argument is its
 * own exactly-sized heap block so that ASan sees a read past its end. */
#include "cli/options.h"
#include "ctl/spec.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = strdup("warpspeed");
	size_t start = 0;
	for (size_t i = 0; i <= size && argc < MAX_ARGS + 1; i++) {
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
	ws_cli_options *o = malloc(sizeof(*o));
	ws_err err;
	if (o && ws_cli_parse(argc, argv, o, &err) == 0) {
		ws_test_spec_validate(&o->spec, &err);
		(void)ws_test_type_name(o->spec.type);
		for (char c = '0'; c <= 'z'; c++)
			(void)ws_cli_given(o, c & 1, c);
	} else if (err.msg[0] == '\0' || !memchr(err.msg, 0, sizeof(err.msg))) {
		abort(); /* a refusal always says why */
	}
	free(o);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
