/* SPDX-License-Identifier: BSD-2-Clause */
/* meshopts: the command line of `warpspeed mesh`, which every rank parses alike.
 *
 * `warpspeed mesh [mesh options] [netperf options] [-- test options]`: the mesh's own
 * options come first (the first word that is not one of them starts the netperf part, so
 * the two never compete for a word); the rest is a netperf command line read by the
 * client's own parser (cli/options.h), so -t, -l, -f, -c/-C and every test option mean in
 * a mesh exactly what they mean for one test. The netperf options that would name what
 * the mesh decides (the hosts, the control port, the data addresses) or that do not fit
 * a matrix (interim results, iterations, output selectors, the client's JSON) are refused
 * with the reason. MPI-free, so it is unit-tested and fuzzed in the default build. */
#ifndef WS_CLI_MESHOPTS_H
#define WS_CLI_MESHOPTS_H

#include "cli/options.h"
#include "cli/words.h"
#include "mesh/schedule.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

typedef struct ws_cli_mesh_options {
	ws_cli_options net;      /* the netperf part: the spec, -f, -P */
	enum ws_mesh_kind pairs; /* --pairs, default all */
	const char *json_path;   /* --json FILE ("-" = stdout, instead of the table); NULL */
	const char *svg_path;    /* --svg FILE: the matrix as a heatmap; NULL */
	const char *bind_addr;   /* --bind-addr TEMPLATE (%r = rank + 1); NULL */
	const char *bind_if;     /* --bind-if IFACE; NULL */
	int family;              /* -4 / -6 (mesh or netperf part); 0 = any */
	uint16_t port;           /* --port: every daemon's control port; 0 = any free one */
	/* This rank's daemon (0 = the daemon's default); with mpirun's MPMD form (A : B) ranks
	 * may differ here, as their daemons may in real life. */
	unsigned max_sessions;
	double max_duration_s;
	uint64_t max_memory;
	bool help;
} ws_cli_mesh_options;

/* Parse argv (argv[0] is "mesh"). Returns 0 (o->help set: print the usage, nothing else
 * checked) or a negative code with err naming the option, the value and what is
 * accepted; the caller prints it and exits 2. */
int ws_cli_mesh_parse(int argc, char **argv, ws_cli_mesh_options *o, struct ws_err *err);

/* The usage text of `warpspeed mesh -h`. */
const char *ws_cli_mesh_usage(void);

/* The mesh's own option words (the netperf part's are options.c's), for completion. */
void ws_cli_mesh_words(ws_cli_word_fn fn, void *ctx);

#endif
