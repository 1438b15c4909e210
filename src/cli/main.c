/* main: the single warpspeed binary dispatches to its four roles.
 *
 * `warpspeed serve` is the daemon, `warpspeed node` the WARP node emulator, `warpspeed iq`
 * the IQ host transport; anything else is a netperf command line for the benchmark client,
 * so that netperf scripts work with only the binary name changed. */
#include "cli/client.h"
#include "cli/iq.h"
#include "cli/node.h"
#include "cli/serve.h"

#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "serve") == 0)
		return ws_cli_serve_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "node") == 0)
		return ws_cli_node_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "iq") == 0)
		return ws_cli_iq_main(argc - 1, argv + 1);
	return ws_cli_client_main(argc, argv);
}
