/* SPDX-License-Identifier: BSD-2-Clause */
/* main: the single warpspeed binary dispatches to its roles.
 *
 * `warpspeed serve` is the daemon, `warpspeed node` the WARP node emulator, `warpspeed iq`
 * the IQ host transport, `warpspeed plot` charts from saved JSON, `warpspeed compare` old
 * against new saved results (regressions), `warpspeed mesh` the
 * many-host matrix under mpirun (only in the binary built with make MPI=1, which defines
 * WS_MPI; the default build says so and exits 2, and has no MPI in it); anything else is
 * a netperf command line for the benchmark client,
 * so that netperf scripts work with only the binary name changed. Invoked as `netserver`
 * (argv[0]'s basename, a symlink) it is netserver, and as `netperf` the client
 * (cli/personality.h), so that they work with no name changed at all. `__complete` is
 * the shell completion's question (cli/complete.h), under any name. */
#include "cli/client.h"
#include "cli/compare.h"
#include "cli/complete.h"
#include "cli/iq.h"
#ifdef WS_MPI
#include "cli/mesh.h"
#endif
#include "cli/meshopts.h"
#include "cli/node.h"
#include "cli/personality.h"
#include "cli/plot.h"
#include "cli/roles.h"
#include "cli/serve.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

/* Many streams need many descriptors: take the hard limit, as the soft one is often 1024. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* `warpspeed mesh`: its help needs no MPI (cli/meshopts.c is in every build); the rest
 * runs only in the binary built with MPI. */
static int ws_cli_mesh_role(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(ws_cli_mesh_usage(), stdout);
		return 0;
	}
#ifdef WS_MPI
	return ws_cli_mesh_main(argc, argv);
#else
	(void)argv;
	fprintf(stderr,
		"warpspeed mesh: this warpspeed was built without MPI support; rebuild "
		"with make MPI=1 (Debian: libopenmpi-dev, openmpi-bin) and run "
		"build/mpi/warpspeed under mpirun\n");
	return 2;
#endif
}

int main(int argc, char **argv)
{
	raise_fd_limit();
	/* the shell's completion asks before any role runs (cli/complete.h) */
	if (argc > 1 && strcmp(argv[1], "__complete") == 0)
		return ws_cli_complete_main(argc - 2, argv + 2);
	const char *as = ws_cli_personality(argv[0]);
	if (as)
		ws_cli_set_prog(as); /* messages name the program as it was called */
	if (as && strcmp(as, "netserver") == 0)
		return ws_cli_netserver_main(argc, argv);
	if (as) /* netperf: the client, with no warpspeed role names */
		return ws_cli_client_main(argc, argv);
	if (argc > 1) {
#define ROLE(word, entry)               \
	if (strcmp(argv[1], word) == 0) \
		return entry(argc - 1, argv + 1);
		WS_CLI_ROLES(ROLE)
#undef ROLE
	}
	return ws_cli_client_main(argc, argv);
}
