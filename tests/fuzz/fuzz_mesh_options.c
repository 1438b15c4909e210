/* fuzz_mesh_options: `warpspeed mesh`'s command line (src/cli/meshopts.c), its own options
 * and then the netperf part, on an argv built from the input split at NUL bytes; and the
 * --bind-addr template expanded for a rank taken from the input.
 *
 * The parser must never exit, crash, read past an argument or leak, and a refusal always
 * says why. Each argument is its own exactly-sized heap block so that ASan sees a read
 * past its end. */
#include "cli/meshopts.h"
#include "mesh/endpoint.h"
#include "util/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = strdup("mesh");
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
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
