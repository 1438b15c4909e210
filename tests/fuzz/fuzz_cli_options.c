/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_cli_options: the client's netperf-style option parser (src/cli/options.c) on an
 * argv built from the input split at NUL bytes, then the spec it produced through the
 * daemon's validator and the test-type table.
 *
 * The parser must never exit, crash, read past an argument or leak; whatever it accepts
 * must be a spec the validator can judge without undefined behaviour (the argv is
 * argv_split.h's: each argument an exactly-sized heap block). */
#include "cli/options.h"
#include "model/spec.h"
#include "util/err.h"

#include "argv_split.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[ARGV_SPLIT_MAX + 2];
	int argc = argv_split("warpspeed", data, size, argv);
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
	argv_split_free(argc, argv);
	return 0;
}
