/* serve: placeholder until the role lands. */
#include "cli/serve.h"

#include <stdio.h>

int ws_cli_serve_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "warpspeed: %s: not built yet\n", argv[0]);
	return 1;
}
