/* node: placeholder until the role lands. */
#include "cli/node.h"

#include <stdio.h>

int ws_cli_node_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "warpspeed: %s: not built yet\n", argv[0]);
	return 1;
}
