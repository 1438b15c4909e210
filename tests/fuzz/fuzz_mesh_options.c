/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_mesh_options: `warpspeed mesh`'s command line (src/cli/meshopts.c), its own options
 * and then the netperf part, on an argv built from the input split at NUL bytes; and the
 * --bind-addr template expanded for a rank taken from the input.
 *
 * The parser must never exit, crash, read past an argument or leak, and a refusal always
 * says why (the argv is argv_split.h's). */
#include "cli/meshopts.h"
#include "mesh/endpoint.h"
#include "util/err.h"

#include "argv_split.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[ARGV_SPLIT_MAX + 2];
	int argc = argv_split("mesh", data, size, argv);
	ws_cli_mesh_options *o = malloc(sizeof(*o));
	ws_err err;
	if (o && ws_cli_mesh_parse(argc, argv, o, &err) == 0) {
		if (o->bind_addr) {
			char a[WS_MESH_ADDR_MAX];
			ws_mesh_addr_template(o->bind_addr, size ? data[0] : 0, a, sizeof(a), &err);
		}
	} else if (o && (err.msg[0] == '\0' || !memchr(err.msg, 0, sizeof(err.msg)))) {
		abort(); /* a refusal always says why */
	}
	free(o);
	argv_split_free(argc, argv);
	return 0;
}
